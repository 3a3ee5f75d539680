"""How claims, chains and tables show themselves in a notebook: HTML with LaTeX and a verdict badge.

Every rendering is a pure function of the claim's data (no timings, no addresses) so that nbval can compare
it. The machine-readable record travels beside it under :data:`MIME`.
"""
from __future__ import annotations

import html
import re


from ..kernel import display
from ..kernel.claims import Statement
from ..kernel.describe import how
from ..kernel.verdict import Verdict
from . import layout
from .paper import record_of
from .plain import scripts_html, title_text, unicode

__all__ = ["MIME", "TABLE_MIME", "STYLE", "badge", "plain_markdown", "statement_html", "mimebundle", "folded", "html_table",
           "table_html", "statement_bundle", "second_badge", "code", "breakable", "breakable_code"]

#: the MIME type of one claim's record in a notebook output
MIME = "application/vnd.derive.claim+json"
#: the MIME type of a claim table's records
TABLE_MIME = "application/vnd.derive.claims+json"

#: verdict -> (symbol, colour)
STYLE = {v: (v.symbol, colour) for v, colour in zip(Verdict, ("#1a7f37", "#b35900", "#0969da", "#6e7781"))}
#: longest automatic LaTeX shown for one side of a statement
MAX_TEX = 360


def badge(verdict: Verdict) -> str:
    """An inline HTML badge for a verdict."""
    symbol, colour = STYLE[verdict]
    return (
        f'<span class="derive-badge derive-{verdict.value}" style="background:{colour};color:#fff;'
        f'padding:1px 7px;border-radius:9px;font-size:85%;font-weight:600">{symbol} {verdict.value}</span>'
    )


#: characters Markdown or MathJax would read as markup in plain text (``2*sqrt(2)*x`` is no emphasis)
_MARKUP = str.maketrans({"*": "&#42;", "_": "&#95;", "`": "&#96;", "$": "&#36;", "\\": "&#92;"})


def plain_markdown(text: str) -> str:
    """Plain text made safe inside Markdown: HTML escaped, and no emphasis, code or math markers.

    >>> plain_markdown("1/(200000*sqrt(pi))*x_1 < 2")
    '1/(200000&#42;sqrt(pi))&#42;x&#95;1 &lt; 2'
    """
    return html.escape(text).translate(_MARKUP)


def code(ident: str) -> str:
    """An identifier as inline code (HTML)."""
    return f"<code>{html.escape(ident)}</code>"


def breakable(name: str) -> str:
    """A name as HTML that a narrow column breaks after a dot or an underscore, not inside a word.

    >>> breakable("06_sigma.z")
    '06_<wbr>sigma.<wbr>z'
    """
    return html.escape(name).replace(".", ".<wbr>").replace("_", "_<wbr>")


def breakable_code(ident: str) -> str:
    """An identifier as code that breaks as :func:`breakable` does.

    >>> breakable_code("a.b_c")
    '<code>a.<wbr>b_<wbr>c</code>'
    """
    return f"<code>{breakable(ident)}</code>"


def _plain_html(text: str) -> str:
    """Plain text inside HTML that MathJax must leave alone (a residual may hold a ``$``), its names' indices
    written below them (:func:`derive.present.plain.scripts_html`)."""
    return f'<span class="tex2jax_ignore">{scripts_html(text)}</span>'


#: which elements say that a viewer typeset the math (MathJax 3 and 2, KaTeX)
TYPESET = "mjx-container, .MathJax, .MathJax_Display, .MathJax_SVG, .katex"
#: a viewer that typesets shows the math; one that does not shows the Unicode text instead of raw ``$$…$$``
#: (a browser without ``:has`` shows both)
FALLBACK_CSS = (f".derive-claim-statement:has({TYPESET}) > .derive-plain {{ display: none; }} "
                f".derive-claim-statement:not(:has({TYPESET})) > .derive-tex {{ display: none; }} "
                f".derive-residual:has({TYPESET}) > .derive-plain {{ display: none; }} "
                f".derive-residual:not(:has({TYPESET})) > .derive-tex {{ display: none; }} "
                ".derive-plain { font-family: serif; font-size: 110%; overflow-wrap: anywhere; padding: 4px 0; }")


#: the column in characters of the domain line under a statement, typeset \small (about nine tenths as wide)
_SMALL = layout.COLUMN / 0.9


def statement_html(tex: str, room: float = layout.COLUMN) -> str:
    r"""A statement's HTML: its math laid out for the column (:mod:`.layout`), and its Unicode text for viewers that
    do not typeset. A statement too wide even when broken folds behind "show in full", its first row in view.
    ``room`` is the column's width in characters of typeset math (:data:`derive.present.layout.COLUMN`: a claim's
    own output; a column of a table is narrower).

    >>> print(statement_html("a = b"))
    <div class="derive-plain tex2jax_ignore">a = b</div><div class="derive-tex">$$ a = b $$</div>
    >>> "<details" in statement_html(r"\left[\begin{matrix}" + " + ".join(["a_{1}"] * 60) + r"\end{matrix}\right] = b")
    True
    """
    rows = layout.broken(tex, room)
    plain = f'<div class="derive-plain tex2jax_ignore">{html.escape(unicode(tex))}</div>'
    if layout.fits(rows, room):
        return f'{plain}<div class="derive-tex">$$ {html.escape(layout.aligned(rows))} $$</div>'
    first = layout.preview(tex, room)
    preview = rf"\(\displaystyle {html.escape(first)}\) " if first else ""
    return (f'{plain}<details class="derive-tex derive-full"><summary>{preview}<span class="derive-show">show in full'
            f'</span></summary>$$ {html.escape(layout.aligned(rows))} $$</details>')


def mimebundle(record: dict, body_tex: str) -> dict:
    """The output of one claim: HTML (badge, statement, how), LaTeX, plain text, and the JSON record.

    The HTML is self-contained (inline styles, math as ``$$…$$`` and ``\\(…\\)`` for the viewer's MathJax), so
    JupyterLab, VS Code, nbviewer and nbconvert all show the claim; every part is a pure function of the record.
    """
    verdict = Verdict(record["verdict"])
    expect = record.get("expect")
    notes = [how_html(record, None)]
    if record["uses"]:
        notes.append("uses " + ", ".join(code(u) for u in record["uses"]))
    if record.get("paper"):
        notes.append("paper " + ", ".join(html.escape(p) for p in record["paper"]))
    if expect:
        notes.append("as expected" if expect == record["verdict"] else f"<strong>expected {expect}</strong>")
    second = second_badge(record)
    if second:
        notes.append(second)
    title = f" — {html.escape(title_text(record['title']))}" if record["title"] else ""
    caption = rf" — \({html.escape(record['caption'])}\)" if record.get("caption") else ""
    domain = html.escape(layout.listed(record["scope_tex"], _SMALL)) if record.get("scope_tex") else ""
    scope = f'<div class="derive-claim-scope">$$ \\small {domain} $$</div>' if domain else ""
    page = (
        f'<div class="derive-claim" data-claim="{html.escape(record["id"])}">'
        f'<div class="derive-claim-head">{badge(verdict)} <strong>{breakable_code(record["id"])}</strong>{title}'
        f'{caption}</div>'
        f'<style>{FALLBACK_CSS}</style>'
        f'<div class="derive-claim-statement">{statement_html(body_tex)}</div>'
        f"{scope}"
        f'<div class="derive-claim-how" style="font-size:85%;color:#57606a">{" · ".join(notes)}</div>'
        "</div>"
    )
    latex = f"$$ {body_tex} $$"
    expected = "" if not expect or expect == record["verdict"] else f" (expected {expect})"
    plain = (f"[{verdict.value}] {record['id']}: {how(record)}{expected}\n"
             f"    {unicode(body_tex)}")
    return {"text/html": page, "text/latex": latex, "text/plain": plain, MIME: record}


#: a "how" longer than this shows its first words and folds the rest (the witness) into <details>
FOLD = 90


def how_html(record: dict, limit: int | None = FOLD) -> str:
    r"""How a claim's verdict was obtained (:func:`derive.kernel.describe.how`) as HTML: folded when longer than
    ``limit`` (:func:`folded`; ``None``: never), with a refutation's residual typeset where the record has it in
    LaTeX (its text kept for viewers that do not typeset).

    >>> rec = {"verdict": "refuted", "witness": {"a": "1"}, "residual": "1/(1 + E)", "enclosure": "[0.27 +/- 1e-3]",
    ...        "detail": "arb, 64 bits", "residual_tex": r"\frac{1}{1 + e}"}
    >>> print(how_html(rec))
    <span class="tex2jax_ignore">refuted at a = 1: residual </span><span class="derive-residual"><span class="derive-plain tex2jax_ignore">1/(1 + E)</span><span class="derive-tex">\(\displaystyle \frac{1}{1 + e}\)</span></span><span class="tex2jax_ignore"> ∈ [0.27 +/- 1e-3] (arb, 64 bits)</span>
    """
    text = how(record)
    residual = (record.get("residual") or "", record.get("residual_tex") or "")
    if limit is None:
        return _with_residual(text, residual)
    return folded(text, limit, residual)


def _with_residual(text: str, residual: tuple[str, str]) -> str:
    """Plain ``text`` as HTML, its first ``residual {value}`` written as math where ``residual`` has its LaTeX."""
    value, tex = residual
    mark = f"residual {value}"
    if not tex or not value or mark not in text:
        return _plain_html(text)
    before, after = text.split(mark, 1)
    shown = (f'<span class="derive-residual"><span class="derive-plain tex2jax_ignore">{html.escape(value)}</span>'
             f'<span class="derive-tex">\\(\\displaystyle {html.escape(tex)}\\)</span></span>')
    return _plain_html(before + "residual ") + shown + (_plain_html(after) if after else "")


def folded(text: str, limit: int = FOLD, residual: tuple[str, str] = ("", "")) -> str:
    """Plain text as HTML; when longer than ``limit``, a ``<details>`` whose summary says the verdict's gist.

    A refutation keeps its certificate in the summary and folds the witness (``refuted at …: exact residual
    -1`` shows ``refuted: exact residual -1``); other long text folds after its first ``limit`` characters.

    >>> folded("by expand")
    '<span class="tex2jax_ignore">by expand</span>'
    >>> folded("refuted at " + "x = 1, " * 20 + "y = 0: exact residual -1").startswith("<details")
    True
    """
    if len(text) <= limit:
        return _with_residual(text, residual)
    m = re.match(r"refuted at (.+?): ((?:exact )?residual .*)$", text, flags=re.S)
    if m:
        summary, rest = f"refuted: {m.group(2)}", f"witness: {m.group(1)}"
    else:
        cut = text.rfind(" ", 0, limit)
        cut = cut if cut > limit // 2 else limit
        summary, rest = text[:cut] + " …", text
    return (f'<details class="derive-fold"><summary>{_with_residual(summary, residual)}</summary>'
            f'{_with_residual(rest, residual)}</details>')


#: JupyterLab right-aligns the cells of HTML outputs (for numbers); text reads better from the left
_LEFT = ' style="text-align:left;vertical-align:top"'


def html_table(head, rows, *, kind: str, attrs: str = "", labels=None) -> str:
    """An HTML table: ``head`` a list of header cells (HTML), ``rows`` a list of ``(row attributes, cells)``.

    ``kind`` names the table (``data-derive-table``) so that a page's tables can be checked against their data.
    ``labels``, plain text per column ("" for none), marks the table to be shown as one card per row on a narrow
    screen, each cell under its label.

    >>> html_table(["x", "y"], [("", ["1", "2"])], kind="t", labels=["", "y"]).splitlines()[2]
    '<tr><td style="text-align:left;vertical-align:top">1</td><td data-head="y" style="text-align:left;vertical-align:top">2</td></tr>'
    """
    names = [f' data-head="{html.escape(label)}"' if label else "" for label in labels or ["" for _ in head]]
    cards = ' data-layout="cards"' if labels else ""
    out = [f'<table class="derive-table derive-table-{kind}" data-derive-table="{kind}"{cards}{attrs}>',
           "<thead><tr>" + "".join(f"<th{_LEFT}>{h}</th>" for h in head) + "</tr></thead><tbody>"]
    for row_attrs, cells in rows:
        out.append(f"<tr{row_attrs}>" + "".join(f"<td{name}{_LEFT}>{c}</td>" for name, c in zip(names, cells))
                   + "</tr>")
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
        uses = ", ".join(code(u) for u in r["uses"]) or "—"
        attrs = f' data-id="{html.escape(r["id"])}" data-verdict="{verdict.value}"'
        rows.append((attrs, [breakable_code(r["id"]), badge(verdict) + expected, how_html(r), uses]))
    return html_table(["claim", "verdict", "how", "uses"], rows, kind="claims")


def second_badge(record: dict) -> str:
    """The second opinion's mark on a claim (HTML): ``Z3 ✓``, ``Z3 ✓ for d, m, n ≤ 2``, or why not.

    Deterministic (no timings: the seconds stay in the machine record), so nbval can compare it.

    >>> second_badge({"second_opinion": {"result": "agrees", "why": "for d, m ≤ 2"}})
    '<span class="derive-second tex2jax_ignore" data-second="agrees">Z3 ✓ for d, m ≤ 2</span>'
    >>> second_badge({"second_opinion": {"result": "agrees", "why": "unsat of lhs ≠ rhs (1 component)"}})
    '<span class="derive-second tex2jax_ignore" data-second="agrees" title="unsat of lhs ≠ rhs (1 component)">Z3 ✓</span>'
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
        mark = html.escape(_agreement(op["why"]))
    elif op["result"] == "disagrees":
        mark = f"<b>Z3 ✗ disagrees</b> — {why}"
    else:
        mark = f"Z3: {'outside the fragment' if op['result'] == 'outside fragment' else op['result']} — {why}"
    said = op["result"] != "agrees" or mark == html.escape("Z3 ✓ " + op["why"])
    title = "" if said else f' title="{why}"'  # what the few words leave out, on hover
    return (f'<span class="derive-second tex2jax_ignore" data-second="{html.escape(op["result"])}"{title}>'
            f'{mark}</span>')


_SCOPE = re.compile(r"for ([^;()]*?)(?= and every value| \(| with |;|$)")
_FREE = re.compile(r"with ([\w, ]+?) uninterpreted|\(cvc5, ([\w, ]+?) as real functions\)")


def _agreement(why: str) -> str:
    """The second opinion's agreement in a few words: the sizes it read (each once), which functions it left
    uninterpreted, and whether cvc5 read some as the real functions.

    >>> _agreement("every step (3), for d, r = 1 (each matrix entry by entry); for r = 1 (each matrix entry by entry)")
    'Z3 ✓ every step (3), for d, r = 1; r = 1'
    >>> _agreement("for r = 1 and every value of k there (each matrix entry by entry) with exp uninterpreted; "
    ...            "for r = 2 and every value of i, k, l there (each matrix entry by entry) (cvc5, E, exp as real functions)")
    'Z3 ✓ for r = 1; r = 2, with exp uninterpreted, and cvc5 with E, exp as the real functions'
    >>> _agreement("unsat of lhs ≠ rhs (1 component)"), _agreement("for d, m ≤ 2")
    ('Z3 ✓', 'Z3 ✓ for d, m ≤ 2')
    """
    steps = re.match(r"every step \(\d+\)", why)
    scopes = list(dict.fromkeys(m.group(1).strip() for m in _SCOPE.finditer(why)))
    uninterpreted, native = [], []
    for m in _FREE.finditer(why):
        names = [n.strip() for n in (m.group(1) or m.group(2)).split(",")]
        (uninterpreted if m.group(1) else native).extend(n for n in names if n)
    out = "Z3 ✓"
    if steps:
        out += " " + steps.group(0) + ("," if scopes else "")
    if scopes:
        out += " for " + "; ".join(scopes)
    if uninterpreted:
        out += (", " if scopes or steps else " ") + "with " + ", ".join(dict.fromkeys(uninterpreted)) + " uninterpreted"
    if native:
        out += (", and " if scopes or steps or uninterpreted else " ") + "cvc5 with " + ", ".join(
            dict.fromkeys(native)) + " as the real functions"
    return out


def statement_bundle(statement) -> tuple[dict, dict]:
    """A claim's or chain's notebook output: :func:`mimebundle` of its record, its seconds as metadata."""
    record = record_of(statement)  # its "checked" is the statement's LaTeX: printed once, not again here
    return (mimebundle(record, record["checked"]), {MIME: {"seconds": round(statement.evidence.seconds, 4)}})


display.register(Statement, statement_bundle)
