"""The claim table a notebook ends with: every claim and chain made in this kernel, with its verdict."""
from __future__ import annotations

import html

from ..kernel import opinion, registry
from ..kernel import describe
from . import render
from .paper import record_of
from ..kernel.verdict import Verdict

__all__ = ["SUITE_MIME", "ClaimTable", "SuiteTable", "claim_table"]

#: the widest line of a table printed as text
WIDTH = 118
#: a claim table of more rows than this is folded to its counts (the rows open on a click)
FOLD_ROWS = 12
#: the MIME type of a suite table's rows: ``[[notebook, identifier, verdict], …]``
SUITE_MIME = "application/vnd.derive.suite+json"


def _counts(records) -> str:
    """``"12 proved, 3 refuted"``: how many records have each verdict, in order of first appearance."""
    counts: dict[str, int] = {}
    for r in records:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    return ", ".join(f"{n} {v}" for v, n in counts.items())


def _text(rows, what: str) -> str:
    """A plain-text table of ``(prefix, record)`` rows under a line counting the verdicts and the unexpected ones."""
    records = [r for _, r in rows]
    counts = ", ".join(f"{n} {v}" for v, n in describe.verdict_counts(records))
    unexpected = [r["id"] for r in records if describe.unexpected(r)]
    head = f"{len(records)} {what.format(s='' if len(records) == 1 else 's')}" + (f": {counts}" if counts else "")
    head += f"; unexpected: {', '.join(unexpected)}" if unexpected else "; every verdict as expected"
    if not rows:
        return head
    width = max(len(p) + len(r["id"]) for p, r in rows)
    lines = [describe.shorten(head, WIDTH)]
    for prefix, r in rows:
        flag = f" (expected {r['expect']})" if describe.unexpected(r) else ""
        line = f"  {r['verdict']:<8}  {(prefix + r['id']).ljust(width)}  {describe.how(r)}{flag}"
        lines.append(line if len(line) <= WIDTH else line[: WIDTH - 1] + "…")
    return "\n".join(lines)


class ClaimTable:
    """A table of claim records; renders as HTML and carries the records for ``derive check``.

    Beside the records, outside what nbval compares (the output's metadata), it keeps each claim's ``seconds``
    and ``smtlib``: the queries that confirmed it (:func:`derive.kernel.opinion.smtlib`), which the site exports.
    """

    def __init__(self, records: list[dict], seconds: dict[str, float] | None = None, smtlib: dict | None = None):
        self.records = records
        self.seconds = dict(seconds or {})
        self.smtlib = dict(smtlib or {})  # identifier -> its confirmed queries (kept as metadata, like seconds)

    def _repr_mimebundle_(self, include=None, exclude=None):
        summary = _counts(self.records)
        unexpected = [r["id"] for r in self.records if describe.unexpected(r)]
        tail = (f"; <strong>unexpected: {html.escape(', '.join(unexpected))}</strong>" if unexpected
                else "; every verdict as expected")
        plain = "\n".join(f"{r['verdict']:>9}  {r['id']}" for r in self.records)
        head = f"<strong>{len(self.records)} claims</strong>: {summary}{tail}"
        table = render.table_html(self.records)
        if len(self.records) > FOLD_ROWS:  # a long table is its counts, the rows one click away (open where a
            opened = " open" if unexpected else ""  # verdict is not the one expected, so it is seen at once)
            body = (f'<details class="derive-fold derive-table-fold"{opened}><summary>{head} '
                    f'<span class="derive-show">show the {len(self.records)} rows</span>'
                    f'<span class="derive-print-note" style="display:none"> (each row on the site\'s claims page '
                    f'and in the notebook)</span></summary>\n{table}</details>')
        else:
            body = f"<p>{head}</p>\n{table}"
        page = f'<div class="derive-claim-table">{body}</div>'
        data = {"text/html": page, "text/plain": plain, render.TABLE_MIME: {"claims": self.records}}
        meta = {"seconds": self.seconds, **({"smtlib": self.smtlib} if self.smtlib else {})}
        return data, {render.TABLE_MIME: meta}

    def __len__(self):
        return len(self.records)

    def __str__(self):
        """Plain text: a line counting the verdicts, then one line per claim (verdict, identifier, how).

        >>> from derive.present.tables import ClaimTable
        >>> print(ClaimTable([{"id": "x.a", "verdict": "proved", "expect": None, "detail": "expand",
        ...                    "strategy": "expand"}]))
        1 claim: 1 proved; every verdict as expected
          proved    x.a  by expand
        """
        return _text([("", r) for r in self.records], "claim{s}")

    def __repr__(self):
        return f"<ClaimTable of {len(self.records)} claims>"


def claim_table() -> ClaimTable:
    """The table of every claim and chain made so far in this kernel, in order.

    >>> import derive
    >>> t = derive.claim_table()
    >>> isinstance(len(t), int)
    True
    """
    made = registry.statements()
    scripts = {s.identifier: opinion.smtlib(s) for s in made}
    return ClaimTable([record_of(s) for s in made], {s.identifier: round(s.evidence.seconds, 4) for s in made},
                      {k: v for k, v in scripts.items() if v})


class SuiteTable:
    """Every claim of the suite, read from the committed outputs of the numbered notebooks."""

    def __init__(self, rows: list[tuple[str, dict]], place: str = "in the suite"):
        self.rows = rows
        self.place = place  # where the rows come from, as the heading says it ("in the suite", "in the other …")

    def _repr_mimebundle_(self, include=None, exclude=None):
        head = f"<strong>{len(self.rows)} claims {self.place}</strong>: " + _counts([r for _, r in self.rows])
        plain = "\n".join(f"{nb}  {r['verdict']:>9}  {r['id']}" for nb, r in self.rows)
        page = f'<div class="derive-suite-table"><p>{head}</p>\n{self._html()}</div>'
        data = {"text/html": page, "text/plain": plain,
                SUITE_MIME: {"rows": [[nb, r["id"], r["verdict"]] for nb, r in self.rows]}}
        return data, {}

    def _html(self) -> str:
        """One row per notebook: its claims as one mark each (linked, verdict in its colour), and the counts."""
        by_notebook: dict[str, list[dict]] = {}
        for notebook, r in self.rows:
            by_notebook.setdefault(notebook, []).append(r)
        rows = []
        for notebook, records in by_notebook.items():
            marks = "".join(
                f'<a class="derive-mark derive-{r["verdict"]}" href="{html.escape(notebook)}.ipynb#claim-{html.escape(r["id"])}" '
                f'title="{html.escape(r["id"])}: {r["verdict"]}" data-id="{html.escape(r["id"])}" '
                f'style="color:{render.STYLE[Verdict(r["verdict"])][1]};text-decoration:none">'
                f'{render.STYLE[Verdict(r["verdict"])][0]}</a>' for r in records)
            link = f'<a href="{html.escape(notebook)}.ipynb">{render.breakable(notebook)}</a>'
            rows.append((f' data-notebook="{html.escape(notebook)}"', [link, html.escape(_counts(records)),
                                                                      f'<div class="derive-marks">{marks}</div>']))
        return render.html_table(["notebook", "verdicts", "each claim, in order"], rows, kind="suite")

    def __len__(self):
        return len(self.rows)

    def __str__(self):
        """Plain text: a line counting the verdicts, then one line per claim, its notebook first."""
        return _text([(f"{nb}  ", r) for nb, r in self.rows], "claim{s} " + self.place)

    def __repr__(self):
        return f"<SuiteTable of {len(self.rows)} claims>"
