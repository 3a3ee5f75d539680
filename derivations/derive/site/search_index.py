"""The site's offline search: a small JSON index of the pages, their headings and prose, and the claims, and its script.

The index is written as ``static/search-index.js`` (a page opened from disk may not fetch a JSON file), which
sets ``window.DERIVE_SEARCH``; ``static/site.js`` searches it as the reader types. Each entry is
``{"k": kind, "t": title, "u": link, "x": what a hit shows, "w": what else it is found by}``: a page (its
title, its first paragraph, and the prose above its first heading), each heading of it (with the prose under
it, up to the next heading), and each claim (identifier, title, statement, caption, how it was obtained). Math
is read as a reader types it: ``\\mathrm{GL}(r)`` as ``GL(r)``, ``\\sigma`` as ``σ`` and ``sigma``.

>>> s = SearchIndex()
>>> s.add_page("09_x.html", "B3 · Rank r", "The $\\\\mathrm{GL}(r)$ symmetry.", [(2, "keeps", "Which M the gate keeps")],
...            ["# Rank r\\n\\nThe $\\\\mathrm{GL}(r)$ symmetry.", "## Which M the gate keeps\\n\\nA *monomial* matrix."])
>>> [e["u"] for e in s.find("GL(r)")], [e["u"] for e in s.find("monomial")]
(['09_x.html'], ['09_x.html#keeps'])
>>> s.script().startswith("window.DERIVE_SEARCH = [")
True
"""
from __future__ import annotations

import json
import re

__all__ = ["SearchIndex", "math_text", "plain"]

#: LaTeX commands read as a symbol (a reader may type either the symbol or the command's name)
_SYMBOLS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε", "zeta": "ζ",
    "eta": "η", "theta": "θ", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "rho": "ρ",
    "sigma": "σ", "tau": "τ", "phi": "φ", "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ",
    "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
    "odot": "⊙", "cdot": "·", "times": "×", "otimes": "⊗", "top": "ᵀ", "intercal": "ᵀ", "to": "→",
    "rightarrow": "→", "leftrightarrow": "↔", "mapsto": "↦", "Rightarrow": "⇒", "Longrightarrow": "⇒",
    "implies": "⇒", "iff": "⇔", "Leftrightarrow": "⇔", "Longleftrightarrow": "⇔", "neq": "≠", "ne": "≠",
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "approx": "≈", "equiv": "≡", "in": "∈", "notin": "∉",
    "subseteq": "⊆", "forall": "∀", "exists": "∃", "infty": "∞", "sum": "Σ", "prod": "∏", "int": "∫",
    "partial": "∂", "nabla": "∇", "pm": "±", "mp": "∓", "ldots": "…", "dots": "…", "cdots": "⋯", "circ": "∘",
    "star": "⋆", "ast": "∗", "prime": "′", "mid": "|", "lVert": "‖", "rVert": "‖", "Vert": "‖", "langle": "⟨",
    "rangle": "⟩", "lfloor": "⌊", "rfloor": "⌋", "setminus": "∖", "cup": "∪", "cap": "∩", "emptyset": "∅",
}
#: double-struck and calligraphic letters
_BLACKBOARD = {"R": "ℝ", "N": "ℕ", "Z": "ℤ", "Q": "ℚ", "C": "ℂ"}
#: commands that only lay out or style what follows, read as nothing
_LAYOUT = {"left", "right", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr", "displaystyle",
           "textstyle", "quad", "qquad", "limits", "nolimits", "nonumber", "notag", "begin", "end", "hline",
           "boldsymbol", "bm", "mathbf", "mathrm", "mathit", "mathsf", "mathtt", "mathcal", "mathscr", "text",
           "textrm", "textbf", "textit", "texttt", "operatorname", "mbox", "hat", "bar", "tilde", "widehat",
           "widetilde", "vec", "overline", "underline", "dot", "ddot"}
_GROUP = r"\{([^{}]*)\}"


def math_text(tex: str) -> tuple[str, list[str]]:
    """LaTeX as a reader would type it, and the names of the symbols it used (``\\sigma`` gives ``σ`` and ``sigma``).

    >>> math_text(r"\\mathrm{GL}(r)")
    ('GL(r)', [])
    >>> math_text(r"\\sigma\\left(x Q^\\top\\right) \\odot x K^{\\top}, \\frac{a}{b} \\in \\mathbb{R}")
    ('σ(x Qᵀ) ⊙ x Kᵀ, a/b ∈ ℝ', ['sigma', 'top', 'odot', 'in'])
    """
    words: list[str] = []
    text = tex or ""
    text = re.sub(r"\\begin\{[a-z*]+\}(\{[^{}]*\})?|\\end\{[a-z*]+\}", " ", text)
    text = re.sub(r"\\mathbb\s*\{?\s*([A-Z])\s*\}?", lambda m: _BLACKBOARD.get(m.group(1), m.group(1)), text)
    for _ in range(4):  # fractions inside fractions, from the inside out
        text = re.sub(r"\\[dt]?frac\s*" + _GROUP + r"\s*" + _GROUP,
                      lambda m: f"{_wrap(m.group(1))}/{_wrap(m.group(2))}", text)
    text = re.sub(r"\\sqrt\s*" + _GROUP, r"√(\1)", text)

    def command(m):
        name, space = m.group(1), " " if m.group(2) else ""
        if name in _SYMBOLS:
            words.append(name)
            return _SYMBOLS[name] + space
        if name in _LAYOUT:
            return ""
        return name + space  # \exp, \max, \tanh, \det …: their names

    text = re.sub(r"\\([A-Za-z]+)(\s*)", command, text)
    text = re.sub(r"\\[,;:! ]|\\\\|&|~", " ", text)  # spacing, line breaks, alignment
    text = re.sub(r"\\(.)", r"\1", text)  # \{ \} \| \_ …: the character itself
    text = re.sub(r"\^\s*(\{\s*ᵀ\s*\}|ᵀ)", "ᵀ", text)
    text = text.replace("{", "").replace("}", "")
    text = re.sub(r"\s*\^\s*", "^", text)
    return re.sub(r"\s+", " ", text).strip(), list(dict.fromkeys(words))


def _wrap(part: str) -> str:
    part = part.strip()
    return part if re.fullmatch(r"[\w.\\]+", part) else f"({part})"


_MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.S)


def plain(text: str) -> tuple[str, list[str]]:
    """Markdown (with math between ``$…$``) as text, and the names of the math's symbols.

    >>> plain("**What this shows.** The [GL(r) symmetry](09_rank_r.ipynb) of `rank-r` $x Q_j K_j^\\\\top x^\\\\top$.")
    ('What this shows. The GL(r) symmetry of rank-r x Q_j K_jᵀ xᵀ.', ['top'])
    """
    words: list[str] = []
    out, at = [], 0
    for m in _MATH.finditer(text or ""):
        out.append(_markdown(text[at:m.start()]))
        shown, used = math_text(next(g for g in m.groups() if g is not None))
        out.append(shown)
        words += used
        at = m.end()
    out.append(_markdown((text or "")[at:]))
    return re.sub(r"\s+", " ", "".join(out)).strip(), list(dict.fromkeys(words))


def _markdown(text: str) -> str:
    text = re.sub(r"<[^>]+>", " ", text)  # HTML tags
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links and images: their text
    text = re.sub(r"^\s{0,3}(#+|>|[-*+]\s|\d+\.\s)", " ", text, flags=re.M)  # heading, quote and list marks
    text = re.sub(r"(\*\*|__|\*|`+)", "", text)
    return re.sub(r"(?<!\w)_|_(?!\w)", "", text)  # _emphasis_, not snake_case


def _sections(sources, headings) -> tuple[list[str], dict[str, list[str]]]:
    """The prose of Markdown cells: before the first heading, and under each heading (by its anchor)."""
    by_text = {}
    for _, ident, text in headings:
        by_text.setdefault(plain(text)[0].lower(), ident)
    top: list[str] = []
    under: dict[str, list[str]] = {}
    current = top
    for source in sources:
        for line in (source or "").splitlines():
            head = re.match(r"\s{0,3}#+\s+(.*?)\s*#*\s*$", line)
            if head:
                ident = by_text.get(plain(head.group(1))[0].lower())
                current = under.setdefault(ident, []) if ident else current
            else:
                current.append(line)
    return top, under


class SearchIndex:
    """Entries ``{"k": kind, "t": title, "u": link, "x": text shown, "w": text searched too}`` in the order added."""

    def __init__(self):
        self.entries: list[dict] = []

    def add_page(self, url: str, title: str, summary: str, headings, prose=()) -> None:
        """A page, and each of its headings as an entry of its own; ``prose``: the page's Markdown cells, whose text
        is found under the heading it stands under."""
        top, under = _sections(list(prose), list(headings))
        self.entries.append(_entry("page", plain(title)[0], url, summary, [title, *top]))
        for _, ident, text in headings:
            shown = plain(text)[0]
            self.entries.append(_entry("section", shown, f"{url}#{ident}", title, [text, *under.get(ident, [])]))

    def add_claim(self, url: str, ident: str, title: str, statement: str, verdict: str, how: str,
                  caption: str = "") -> None:
        """A claim: its identifier, title, statement and caption (LaTeX) and how its verdict was obtained."""
        shown = " ".join(p for p in (plain(title)[0], math_text(statement)[0][:200], how[:120]) if p)
        entry = _entry("claim", ident, url, shown, [title, f"${statement}$" if statement else "",
                                                    f"${caption}$" if caption else "", how], plain_shown=True)
        entry["v"] = verdict
        self.entries.append(entry)

    def find(self, query: str) -> list[dict]:
        """The entries holding every word of ``query``, as the site's script finds them (case aside)."""
        words = query.lower().split()
        return [e for e in self.entries if all(w in _haystack(e) for w in words)]

    def script(self) -> str:
        """The index as a script setting ``window.DERIVE_SEARCH``."""
        return "window.DERIVE_SEARCH = " + json.dumps(self.entries, ensure_ascii=False, separators=(",", ":")) + ";\n"


def _entry(kind: str, title: str, url: str, shown: str, found_by, plain_shown: bool = False) -> dict:
    text = shown if plain_shown else plain(shown)[0]
    more, words = [], []
    for part in found_by:
        said, used = plain(part)
        more.append(said)
        words += used
    extra = " ".join([*more, *dict.fromkeys(words)])
    entry = {"k": kind, "t": title, "u": url, "x": text[:300]}
    if extra.strip():
        entry["w"] = re.sub(r"\s+", " ", extra).strip()
    return entry


def _haystack(entry: dict) -> str:
    """What an entry is found by; ``static/site.js`` builds the same text."""
    return " ".join([entry["t"], entry["x"], entry.get("v", ""), entry.get("w", "")]).lower()
