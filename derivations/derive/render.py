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
    """LaTeX of an expression or matrix, or a short description when it is too long to read."""
    text = sp.latex(expr)
    if len(text) <= MAX_TEX:
        return text
    if isinstance(expr, sp.MatrixBase):
        return rf"\text{{(a {expr.rows}\times{expr.cols} matrix, too long to show)}}"
    return r"\text{(an expression too long to show)}"


def statement_tex(lhs, rhs) -> str:
    return f"{tex(lhs)} = {tex(rhs)}"


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
    if record["assume"]:
        notes.append(r"assuming \(" + html.escape(r",\ ".join(record["assume_tex"])) + r"\)")
    if record["uses"]:
        notes.append("uses " + ", ".join(_code(u) for u in record["uses"]))
    if expect:
        notes.append("as expected" if expect == record["verdict"] else f"<strong>expected {expect}</strong>")
    title = f" — {html.escape(record['title'])}" if record["title"] else ""
    body = html.escape(body_tex)
    page = (
        f'<div class="derive-claim" data-claim="{html.escape(record["id"])}">'
        f'<div class="derive-claim-head">{badge(verdict)} <strong>{_code(record["id"])}</strong>{title}</div>'
        f'<div class="derive-claim-statement">$$ {body} $$</div>'
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
