"""How claims, chains and tables show themselves in a notebook: HTML with LaTeX and a verdict badge.

Every rendering is a pure function of the claim's data (no timings, no addresses) so that nbval can compare
it. The machine-readable record travels beside it under :data:`MIME`.
"""
from __future__ import annotations

import html
import re

import sympy as sp

from .verdict import Verdict

__all__ = ["MIME", "TABLE_MIME", "badge", "tex", "statement_tex", "how", "plain_markdown", "unexpected",
           "verdict_counts", "mimebundle", "folded", "html_table", "table_html"]

#: the MIME type of one claim's record in a notebook output
MIME = "application/vnd.derive.claim+json"
#: the MIME type of a claim table's records
TABLE_MIME = "application/vnd.derive.claims+json"

#: verdict -> (symbol, colour)
STYLE = {
    Verdict.PROVED: ("✔", "#1a7f37"),
    Verdict.REFUTED: ("✘", "#b35900"),
    Verdict.CHECKED: ("≈", "#0969da"),
    Verdict.UNPROVEN: ("?", "#6e7781"),
}
#: longest automatic LaTeX shown for one side of a statement
MAX_TEX = 360


def badge(verdict: Verdict) -> str:
    """An inline HTML badge for a verdict."""
    symbol, colour = STYLE[verdict]
    return (
        f'<span class="derive-badge derive-{verdict.value}" style="background:{colour};color:#fff;'
        f'padding:1px 7px;border-radius:9px;font-size:85%;font-weight:600">{symbol} {verdict.value}</span>'
    )


def tex(expr) -> str:
    """LaTeX of an expression or matrix, the layers printed by name (:mod:`derive.printing`).

    Every side is shown in full: a matrix built from named matrices prints as the expression it was built from
    (once that expression has been evaluated back to it exactly), anything else as SymPy prints it.

    >>> import derive
    >>> from derive import forms
    >>> x, Q, K, V = derive.row("x", 2), derive.matrix("Q", 2, 2), derive.matrix("K", 2, 2), derive.matrix("V", 2, 2)
    >>> tex(forms.symmetric_rank1(x, K, Q, V, derive.sigma))
    'S(x;\\\\, K, Q)'
    """
    from . import printing

    return printing.latex(expr)


def statement_tex(lhs, rhs) -> str:
    """The equation ``lhs = rhs`` as it is checked."""
    return f"{tex(lhs)} = {tex(rhs)}"


def scope_tex(objects, assume=()) -> tuple[str, str]:
    """``(tex, text)`` of the scope of a statement about ``objects``: see :func:`derive.printing.scope`."""
    from . import printing

    return printing.scope(objects, assume)


def _witness_text(record: dict) -> str:
    parts = [f"{k} = {v}" for k, v in record["witness"].items()]
    return ", ".join(parts)


#: characters Markdown or MathJax would read as markup in plain text (``2*sqrt(2)*x`` is no emphasis)
_MARKUP = str.maketrans({"*": "&#42;", "_": "&#95;", "`": "&#96;", "$": "&#36;", "\\": "&#92;"})


def plain_markdown(text: str) -> str:
    """Plain text made safe inside Markdown: HTML escaped, and no emphasis, code or math markers.

    >>> plain_markdown("1/(200000*sqrt(pi))*x_1 < 2")
    '1/(200000&#42;sqrt(pi))&#42;x&#95;1 &lt; 2'
    """
    return html.escape(text).translate(_MARKUP)


def how(record: dict) -> str:
    """One line saying how the verdict was obtained."""
    verdict = Verdict(record["verdict"])
    if verdict is Verdict.PROVED:
        return f"by {record['detail'] or record['strategy']}"
    if verdict is Verdict.REFUTED:
        where = f" at {_witness_text(record)}" if record["witness"] else ""
        if record["enclosure"]:
            cert = f"residual {record['residual']} ∈ {record['enclosure']} ({record['detail']})"
        else:
            cert = f"exact residual {record['residual']}"
        return f"refuted{where}: {cert}"
    return record["detail"] or "no strategy settled it"


def unexpected(record: dict) -> bool:
    """Whether a claim record got a verdict other than the one it expects (``expect`` None: anything goes).

    >>> unexpected({"verdict": "refuted", "expect": "proved"}), unexpected({"verdict": "proved", "expect": None})
    (True, False)
    """
    return record.get("expect") not in (None, record["verdict"])


def verdict_counts(records) -> list[tuple[str, int]]:
    """``[(verdict, how many records have it)]`` in the order of :class:`Verdict`, verdicts nobody has left out.

    >>> verdict_counts([{"verdict": "refuted"}, {"verdict": "proved"}, {"verdict": "refuted"}])
    [('proved', 1), ('refuted', 2)]
    """
    records = list(records)
    counts = [(v.value, sum(r["verdict"] == v.value for r in records)) for v in Verdict]
    return [(v, n) for v, n in counts if n]


def _tex_plain(text: str) -> str:
    r"""A LaTeX statement made readable as plain text (a few symbols in Unicode; the rest left as written).

    >>> _tex_plain(r"\sigma{\left(a \right)} b = \alpha \cdot b^{\top}")
    'σ(a) b = α · bᵀ'
    """
    for tex_, text_ in _PLAIN_TEX:
        text = text.replace(tex_, text_)
    text = re.sub(r"\{\s*\(", "(", text)
    text = re.sub(r"\)\s*\}", ")", text)
    text = re.sub(r"\(\s+", "(", re.sub(r"\s+\)", ")", text))
    return re.sub(r"[ \t]+", " ", text).strip()


_PLAIN_TEX = [(r"\left", ""), (r"\right", ""), (r"\displaystyle", ""), (r"\sigma", "σ"), (r"\alpha", "α"),
              (r"\beta", "β"), (r"\cdot", "·"), (r"\odot", "⊙"), (r"^{\top}", "ᵀ"), (r"^{T}", "ᵀ"), (r"\top", "ᵀ"),
              (r"\leftrightarrow", "↔"), (r"\neq", "≠"), (r"\leq", "≤"), (r"\geq", "≥"), (r"\times", "×"),
              (r"\,", " "), (r"\ ", " "), (r"\quad", " "), (r"\operatorname", ""), (r"\mathrm", "")]


def _code(ident: str) -> str:
    return f"<code>{html.escape(ident)}</code>"


def _plain_html(text: str) -> str:
    """Plain text inside HTML that MathJax must leave alone (a residual may hold a ``$``)."""
    return f'<span class="tex2jax_ignore">{html.escape(text)}</span>'


def mimebundle(record: dict, body_tex: str) -> dict:
    """The output of one claim: HTML (badge, statement, how), LaTeX, plain text, and the JSON record.

    The HTML is self-contained (inline styles, math as ``$$…$$`` and ``\\(…\\)`` for the viewer's MathJax), so
    JupyterLab, VS Code, nbviewer and nbconvert all show the claim; every part is a pure function of the record.
    """
    verdict = Verdict(record["verdict"])
    expect = record.get("expect")
    notes = [_plain_html(how(record))]
    if record["uses"]:
        notes.append("uses " + ", ".join(_code(u) for u in record["uses"]))
    if record.get("paper"):
        notes.append("paper " + ", ".join(html.escape(p) for p in record["paper"]))
    if expect:
        notes.append("as expected" if expect == record["verdict"] else f"<strong>expected {expect}</strong>")
    second = second_badge(record)
    if second:
        notes.append(second)
    title = f" — {html.escape(record['title'])}" if record["title"] else ""
    caption = rf" — \({html.escape(record['caption'])}\)" if record.get("caption") else ""
    body = html.escape(body_tex)
    scope = (f'<div class="derive-claim-scope">$$ \\small {html.escape(record["scope_tex"])} $$</div>'
             if record.get("scope_tex") else "")
    page = (
        f'<div class="derive-claim" data-claim="{html.escape(record["id"])}">'
        f'<div class="derive-claim-head">{badge(verdict)} <strong>{_code(record["id"])}</strong>{title}{caption}</div>'
        f'<div class="derive-claim-statement">$$ {body} $$</div>'
        f"{scope}"
        f'<div class="derive-claim-how" style="font-size:85%;color:#57606a">{" · ".join(notes)}</div>'
        "</div>"
    )
    latex = f"$$ {body_tex} $$"
    expected = "" if not expect or expect == record["verdict"] else f" (expected {expect})"
    plain = (f"[{verdict.value}] {record['id']}: {how(record)}{expected}\n"
             f"    {_tex_plain(body_tex)}")
    return {"text/html": page, "text/latex": latex, "text/plain": plain, MIME: record}


#: a "how" longer than this shows its first words and folds the rest (the witness) into <details>
FOLD = 90


def folded(text: str, limit: int = FOLD) -> str:
    """Plain text as HTML; when longer than ``limit``, a ``<details>`` whose summary says the verdict's gist.

    A refutation keeps its certificate in the summary and folds the witness (``refuted at …: exact residual
    -1`` shows ``refuted: exact residual -1``); other long text folds after its first ``limit`` characters.

    >>> folded("by expand")
    '<span class="tex2jax_ignore">by expand</span>'
    >>> folded("refuted at " + "x = 1, " * 20 + "y = 0: exact residual -1").startswith("<details")
    True
    """
    if len(text) <= limit:
        return _plain_html(text)
    m = re.match(r"refuted at (.+?): ((?:exact )?residual .*)$", text, flags=re.S)
    if m:
        summary, rest = f"refuted: {m.group(2)}", f"witness: {m.group(1)}"
    else:
        cut = text.rfind(" ", 0, limit)
        cut = cut if cut > limit // 2 else limit
        summary, rest = text[:cut] + " …", text
    return (f'<details class="derive-fold"><summary>{_plain_html(summary)}</summary>'
            f'{_plain_html(rest)}</details>')


#: JupyterLab right-aligns the cells of HTML outputs (for numbers); text reads better from the left
_LEFT = ' style="text-align:left;vertical-align:top"'


def html_table(head, rows, *, kind: str, attrs: str = "") -> str:
    """An HTML table: ``head`` a list of header cells (HTML), ``rows`` a list of ``(row attributes, cells)``.

    ``kind`` names the table (``data-derive-table``) so that a page's tables can be checked against their data.
    """
    out = [f'<table class="derive-table derive-table-{kind}" data-derive-table="{kind}"{attrs}>',
           "<thead><tr>" + "".join(f"<th{_LEFT}>{h}</th>" for h in head) + "</tr></thead><tbody>"]
    for row_attrs, cells in rows:
        out.append(f"<tr{row_attrs}>" + "".join(f"<td{_LEFT}>{c}</td>" for c in cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def table_html(records: list[dict]) -> str:
    r"""An HTML table of claim records: identifier, verdict, how (the witness folded), uses.

    >>> rec = {"id": "a.b", "verdict": "proved", "expect": None, "uses": [], "detail": "expand | x",
    ...        "strategy": "expand"}
    >>> '<span class="tex2jax_ignore">by expand | x</span></td>' in table_html([rec])
    True
    """
    rows = []
    for r in records:
        verdict = Verdict(r["verdict"])
        expected = ("" if not r.get("expect") or r["expect"] == r["verdict"]
                    else f'<div class="derive-expected"><strong>expected {r["expect"]}</strong></div>')
        uses = ", ".join(_code(u) for u in r["uses"]) or "—"
        attrs = f' data-id="{html.escape(r["id"])}" data-verdict="{verdict.value}"'
        rows.append((attrs, [_code(r["id"]), badge(verdict) + expected, folded(how(r)), uses]))
    return html_table(["claim", "verdict", "how", "uses"], rows, kind="claims")


def shorten(text: str, width: int) -> str:
    """``text`` on one line, cut to ``width`` characters with an ellipsis when longer.

    >>> shorten("a  b\\n c", 10), shorten("abcdefghijkl", 6)
    ('a b c', 'abcde…')
    """
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def statement_text(statement, width: int = 100) -> str:
    """A claim or chain as plain text: identifier and verdict, the statement (``sympy.sstr``), how it was obtained.

    >>> import derive
    >>> a, b = derive.real("a b")
    >>> relu = derive.activation("relu")
    >>> print(statement_text(derive.claim("doc.text", relu(a) * b, relu(b) * a, expect="refuted").refute()))
    claim doc.text: refuted
      b*Max(0, a) = a*Max(0, b)
      refuted at a = 1, b = -1: exact residual -1
    """
    record = statement.record()

    def side(e):
        return " = ".join(sp.sstr(x) for x in e) if isinstance(e, tuple) else sp.sstr(e)

    if hasattr(statement, "steps"):  # a chain: its start and every step
        joint = " ⟹ " if getattr(statement, "equations", False) else " = "
        text = joint.join(side(e) for e in [statement.start, *(s[0] for s in statement.steps)])
    else:  # each side shortened on its own, so that a long left side leaves the right one in sight
        lhs, rhs = sp.sstr(statement.lhs), sp.sstr(statement.rhs)
        half = (width - 3) // 2
        text = f"{lhs} = {rhs}" if len(lhs) + len(rhs) + 3 <= width else (
            f"{shorten(lhs, max(half, width - 3 - len(rhs)))} = {shorten(rhs, max(half, width - 3 - len(lhs)))}")
    head = f"{record['kind']} {record['id']}: {record['verdict']}"
    if unexpected(record):
        head += f" (expected {record['expect']})"
    lines = [head + (f" — {record['title']}" if record["title"] else ""), "  " + shorten(text, width)]
    if record["assume"]:
        lines.append("  assuming " + shorten(", ".join(record["assume"]), width - 9))
    lines.append("  " + shorten(how(record), width))
    if record["uses"]:
        lines.append("  uses " + shorten(", ".join(record["uses"]), width - 5))
    return "\n".join(lines)


__all__ += ["shorten", "statement_text"]


def second_badge(record: dict) -> str:
    """The second opinion's mark on a claim (HTML): ``Z3 ✓``, ``Z3 ✓ for d, m, n ≤ 2``, or why not.

    Deterministic (no timings: the seconds stay in the machine record), so nbval can compare it.

    >>> second_badge({"second_opinion": {"result": "agrees", "why": "for d, m ≤ 2"}})
    '<span class="derive-second tex2jax_ignore" data-second="agrees">Z3 ✓ for d, m ≤ 2</span>'
    >>> second_badge({"second_opinion": {"result": "outside fragment", "why": "a transcendental function (erf)"}}).endswith(
    ...     ">Z3: outside the fragment — a transcendental function (erf)</span>")
    True
    >>> second_badge({})
    ''
    """
    op = record.get("second_opinion")
    if not op:
        return ""
    why = html.escape(op["why"])
    if op["result"] == "agrees":
        text, _, uninterpreted = op["why"].partition(" with ")
        scope = " " + text[text.index("for "):] if text.startswith("for ") or ", for " in text else ""
        mark = "Z3 ✓" + html.escape(scope + (" with " + uninterpreted if uninterpreted else ""))
    elif op["result"] == "disagrees":
        mark = f"<b>Z3 ✗ disagrees</b> — {why}"
    else:
        mark = f"Z3: {'outside the fragment' if op['result'] == 'outside fragment' else op['result']} — {why}"
    return f'<span class="derive-second tex2jax_ignore" data-second="{html.escape(op["result"])}">{mark}</span>'


__all__ += ["second_badge"]
