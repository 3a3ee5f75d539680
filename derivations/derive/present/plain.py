r"""A statement's LaTeX as readable Unicode text, for readers whose viewer does not typeset it.

Plain ``jupyter nbconvert`` offline, GitHub and the terminal show a claim's text, not its typeset math: there the
statement reads ``σ(x Kᵀ) V = Σⱼ₌₁ᵐ σ(x · kⱼ) vⱼ`` rather than raw ``$$…$$``. Readable, not exact: spacing and
sizing are dropped, markup unwrapped, scripts written with Unicode's sub- and superscripts where it has them all.

>>> unicode(r"\sigma\left(x K^{\top}\right) V = \sum_{j=1}^{m} \sigma\left(x \cdot k_{j}\right)\,v_{j}")
'σ(x Kᵀ) V = Σⱼ₌₁ᵐ σ(x · kⱼ) vⱼ'
>>> unicode(r"\frac{a b}{1 + e^{- a}} = K_{j + 1,i}")
'(a b)/(1 + e⁻ᵃ) = K_(j+1,i)'
"""
from __future__ import annotations

import html
import re

__all__ = ["scripts_html", "title_text", "unicode", "unicode_text"]

#: functions SymPy's LaTeX writes as a command with its argument in braces (``\sin{\left(x \right)}``)
_FUNCTIONS = (r"\\(sin|cos|tan|cot|sec|csc|sinh|cosh|tanh|coth|asin|acos|atan|arcsin|arccos|arctan|operatorname|log|ln|exp"
              r"|erf|erfc|det|tr|sgn|max|min|Gamma|zeta)(?![a-zA-Z])")
_TEX = [  # spacing and sizing dropped, markup unwrapped, the innermost first
    (r"\\(?:left|right|displaystyle|textstyle|big|Big|bigg|Bigg|bigl|bigr|Bigl|Bigr)(?![a-zA-Z])", ""),
    (r"\\(?:quad|qquad)(?![a-zA-Z])|\\[,;:! ]", " "),
    (r"\\(?:operatorname|mathrm|text|textrm|texttt|mathbf|boldsymbol|mathit|mathcal|mathsf)\{([^{}]*)\}", r"\1"),
    (r"\\mathbb\{R\}", "ℝ"), (r"\\mathbb\{Z\}", "ℤ"),
    (_FUNCTIONS + r"\{([^{}]*)\}", r"\1\2"),  # \sin{(2 x)}: the function's name before its argument
    (r"\\frac\{([^{}]*)\}\{([^{}]*)\}", r"(\1)/(\2)"),
    (r"\\binom\{([^{}]*)\}\{([^{}]*)\}", r"C(\1, \2)"),
    (r"\\sqrt\{([^{}]*)\}", r"√(\1)"),
    (r"\^\{T\}|\^\{\\top\}|\^\\top|\^T(?![a-zA-Z])", "ᵀ"),
    (r"\^\{-\\top\}", "⁻ᵀ"),
    (r"\\begin\{[a-z]*\}(?:\{[^{}]*\})?|\\end\{[a-z]*\}", ""),
    (r"\\\\", "; "),
    (r"&", " "),  # an alignment (a matrix's columns are told apart before: see unicode)
]
#: a matrix's columns: separated by commas (its rows by semicolons), so that [a, -b] never reads [a - b]
_MATRIX = re.compile(r"\\begin\{([pbvBV]?matrix)\}(.*?)\\end\{\1\}", re.S)
_SYMBOLS = {"sigma": "σ", "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "lambda": "λ", "mu": "μ",
            "pi": "π", "tau": "τ", "phi": "φ", "epsilon": "ε", "odot": "⊙", "cdot": "·", "cdots": "⋯", "dots": "…",
            "ldots": "…", "times": "×", "leq": "≤", "geq": "≥", "neq": "≠", "ne": "≠", "le": "≤", "ge": "≥",
            "Longrightarrow": "⟹", "Rightarrow": "⇒", "Leftrightarrow": "⇔", "leftrightarrow": "↔", "rightarrow": "→",
            "leftarrow": "←", "sum": "Σ", "prod": "Π",
            "infty": "∞", "in": "∈", "forall": "∀", "mapsto": "↦", "to": "→", "checkmark": "✓", "top": "ᵀ",
            "circ": "∘", "colon": ":", "mid": "|", "partial": "∂", "operatorname": "", "{": "{", "}": "}",
            "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉", "bmod": "mod"}
_SUB = dict(zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))
_SUP = dict(zip("0123456789+-=()abcdefghijklmnoprstuvwxyzT", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᵀ"))


def _script(mark: str, body: str) -> str:
    body = body.replace(" ", "")
    table = _SUB if mark == "_" else _SUP
    if body and all(ch in table for ch in body):
        return "".join(table[ch] for ch in body)
    return f"{mark}{body}" if len(body) == 1 else f"{mark}({body})"


def _loose_group(text: str) -> str:
    """``text`` with its first brace group that is no command's or script's argument unwrapped."""
    for m in re.finditer(r"\{([^{}]*)\}", text):
        head = text[:m.start()]
        if re.search(r"(\\[a-zA-Z]+|[_^]|\})$", head) and not re.search(r"\\(?:sum|prod)$", head):
            continue
        return head + m.group(1) + text[m.end():]
    return text


def unicode(tex: str) -> str:
    """``tex`` as one line of readable Unicode text (see the module)."""
    text = tex.replace(r"\_", "\x00")  # an underscore written out (in an identifier) is no subscript
    text = _MATRIX.sub(lambda m: m.group(2).replace("&", "\x01"), text)
    for _ in range(40):  # nested braces: the innermost first, until nothing changes
        before = text
        for pattern, repl in _TEX:
            text = re.sub(pattern, repl, text)
        text = re.sub(r"\\([a-zA-Z]+)(?![a-zA-Z])", lambda m: _SYMBOLS.get(m.group(1), "\\" + m.group(1)), text)
        text = re.sub(r"([_^])\{([^{}]*)\}", lambda m: _script(m.group(1), m.group(2)), text)
        text = re.sub(r"([_^])([A-Za-z0-9])", lambda m: _script(m.group(1), m.group(2)), text)
        if text == before:  # a group that is nobody's argument, once nothing else applies
            text = _loose_group(text)
        if text == before:
            break
    text = re.sub(r"\\([a-zA-Z]+)", r"\1", text)
    text = text.replace("\\", "").replace("{", "").replace("}", "").replace("\x00", "_").replace("\x01", ",")
    text = re.sub(r"\(\s+", "(", re.sub(r"\s+([),])", r"\1", text))
    return " ".join(text.split())


_INLINE = re.compile(r"\$([^$]+)\$|\\\((.+?)\\\)")


def unicode_text(text: str) -> str:
    r"""Text with inline math (``$…$`` or ``\(…\)``), each piece of math written in Unicode (:func:`unicode`):
    for a place that shows text only (a label drawn by CSS, a tooltip).

    >>> unicode_text(r"$S$, every $\sigma$"), unicode_text(r"scaling, \(\alpha > 0\)")
    ('S, every σ', 'scaling, α > 0')
    """
    return _INLINE.sub(lambda m: unicode(m.group(1) or m.group(2)), text)


#: a name with its indices: ``Q_{1,2}``, or ``x_1`` where it is no part of an identifier (``gl_r.unit_1a``)
_NAME_SCRIPT = re.compile(r"(?<![A-Za-z0-9_.])([A-Za-z][A-Za-z0-9]*)_(?:\{([^{}]+)\}|([0-9]+)(?![A-Za-z0-9_.]))")
_POWER = re.compile(r"\*\*(\(?-?[0-9A-Za-z/]+\)?)")
#: relations and connectives as SymPy's text writes them, and as the paper does
_RELATIONS = [(" >= ", " ≥ "), (" <= ", " ≤ "), (" != ", " ≠ "), (" & ", " ∧ ")]


def scripts_html(text: str) -> str:
    r"""Plain text (a "how" the kernel wrote, with names as SymPy prints them) as HTML that reads as the paper
    writes: an entry's name with its indices below (``Q_{1,2}`` as Q<sub>1,2</sub>, ``x_1`` as x<sub>1</sub>),
    ``**`` as a superscript, ``*`` as a centred dot, ``>=`` as ≥ and ``&`` as ∧. Everything else is escaped.

    >>> scripts_html("by sign split on Q_{1,1}*x_1 + Q_{2,1}*x_2, a**2 < b")
    'by sign split on Q<sub>1,1</sub>·x<sub>1</sub> + Q<sub>2,1</sub>·x<sub>2</sub>, a<sup>2</sup> &lt; b'
    >>> scripts_html("by cases on (r >= j + 1) & (j >= 0)")
    'by cases on (r ≥ j + 1) ∧ (j ≥ 0)'
    >>> scripts_html("by instance of gl_r.unit_2 with M_{1,1} := alpha; tiny_name = 1, x_1a")
    'by instance of gl_r.unit_2 with M<sub>1,1</sub> := alpha; tiny_name = 1, x_1a'
    """
    for python, written in _RELATIONS:
        text = text.replace(python, written)
    out = html.escape(text, quote=False)
    out = _POWER.sub(lambda m: f"<sup>{m.group(1)}</sup>", out)
    out = out.replace("*", "·")
    return _NAME_SCRIPT.sub(lambda m: f"{m.group(1)}<sub>{m.group(2) or m.group(3)}</sub>", out)


#: a one-letter name and its index as a title writes them in plain text: ``k_j``, ``M_1,1``, ``E_12``, ``Σ_j``
_TITLE_SCRIPT = re.compile(r"(?<![\w.])([^\W\d_])_([0-9]+(?:,[0-9]+)?|[aehijklmnoprstuvx])(?![A-Za-z0-9_])")


def title_text(title: str) -> str:
    """A claim's title (plain text, as its notebook writes it) with a one-letter name's index written below it,
    where Unicode has the subscript: ``x·k_j`` reads x·kⱼ, ``M_1,1 ≥ 0`` reads M₁,₁ ≥ 0. Identifiers keep theirs.

    >>> title_text("the dot product x·k_j; M_1,1 ≥ 0; I + E_12; c_t w_t; leaky_relu, b_q")
    'the dot product x·kⱼ; M₁,₁\xa0≥\xa00; I + E₁₂; cₜ wₜ; leaky_relu, b_q'
    >>> title_text("σ(xKᵀ)V = Σ_j σ(x·k_j) v_j")
    'σ(xKᵀ)V\xa0=\xa0Σⱼ σ(x·kⱼ) vⱼ'

    A relation keeps its two sides on its line (no break beside ``=``, ``≠``, ``≤``, ``≥``), and a product written
    ``2*d*m`` reads 2·d·m.
    """
    text = _TITLE_SCRIPT.sub(lambda m: m.group(1) + "".join(_SUB.get(ch, ch) for ch in m.group(2)), title)
    text = _TITLE_TIMES.sub("·", text)
    return _TITLE_RELATION.sub(lambda m: f"\xa0{m.group(1)}\xa0", text)


_TITLE_TIMES = re.compile(r"(?<=[\w)])\*(?=[\w(])")
_TITLE_RELATION = re.compile(r" ([=≠≤≥<>]) ")
