"""A family of claims shown as one table: the same statement for many cases (an activation each, a size each).

A card per claim repeats its title, its uses and its paper item; :func:`family` prints them once, above a table
with a row per claim: the case, the statement, the verdict and how it was obtained. Each row keeps the claim's
identifier (``data-id``), so the site anchors it as it anchors a card.
"""
from __future__ import annotations

import html
import os

from ..kernel.claims import Claim, Statement
from ..kernel.describe import how, unexpected, verdict_counts
from ..kernel.verdict import Verdict
from . import render
from .paper import record_of
from .plain import title_text

__all__ = ["FAMILY_MIME", "Family", "family"]

#: the MIME type of a family's records: ``{"title": …, "records": [record, …], "labels": [label, …]}``
FAMILY_MIME = "application/vnd.derive.family+json"
#: the statement column of a family's table, in characters of typeset math (about 380 px at 1280): a statement
#: wider than it breaks at its relations (:func:`derive.present.layout.broken`)
COLUMN = 34


def _shared(records, key: str) -> list:
    """What every record lists under ``key`` (in the first record's order)."""
    first = records[0].get(key) or []
    return [v for v in first if all(v in (r.get(key) or []) for r in records)]


class Family:
    """Claims stated alike, shown as one table; built by :func:`family`."""

    def __init__(self, statements, title: str, labels):
        self.statements = list(statements)
        self.title = title
        self.labels = list(labels)

    @property
    def records(self) -> list[dict]:
        return [record_of(s) for s in self.statements]

    def _repr_mimebundle_(self, include=None, exclude=None):
        records = self.records
        uses, paper = _shared(records, "uses"), _shared(records, "paper")
        hows = {how(r) for r in records}
        same_how = how(records[0]) if len(records) > 1 and len(hows) == 1 else ""  # said once, above the rows
        rows = []
        for label, s, r in zip(self.labels, self.statements, records):
            verdict = Verdict(r["verdict"])
            expected = ("" if not r.get("expect") else '<div class="derive-small"><small>as expected</small></div>'
                        if not unexpected(r) else f'<div><strong>expected {r["expect"]}</strong></div>')
            own = [u for u in r["uses"] if u not in uses]
            notes = [render.second_badge(r)] + ([f'uses {", ".join(render.breakable_code(u) for u in own)}'] if own else [])
            case = f"{html.escape(label)}<div class=\"derive-small\"><small>{render.breakable_code(r['id'])}</small></div>"
            how_cell = ("" if same_how else render.how_html(r)) + "".join(
                f'<div class="derive-small"><small>{n}</small></div>' for n in notes if n)
            rows.append((f' data-id="{html.escape(r["id"])}" data-verdict="{verdict.value}"',
                         [case, f'<div class="derive-claim-statement">{render.statement_html(_body(s, label), COLUMN)}</div>',
                          render.badge(verdict) + expected, how_cell]))
        counts = ", ".join(f"{n} {v}" for v, n in verdict_counts(records))
        shared = [f"{len(records)} claims: {counts}"]
        if same_how:
            shared.append(f"each {html.escape(same_how)}")
        if uses:
            shared.append("each uses " + ", ".join(render.code(u) for u in uses))
        if paper:
            shared.append("paper " + ", ".join(html.escape(p) for p in paper))
        head = (f'<div class="derive-claim-head"><strong>{html.escape(title_text(self.title))}</strong></div>'
                f'<div class="derive-claim-how" style="font-size:85%;color:#57606a">{" · ".join(shared)}</div>')
        table = render.html_table(["case", "statement", "verdict", "how"], rows, kind="family",
                                  labels=["", "", "", ""], attrs=' data-same-how=""' if same_how else "")
        page = f'<div class="derive-family"><style>{render.FALLBACK_CSS}</style>{head}\n{table}</div>'
        data = {"text/html": page, "text/plain": str(self),
                FAMILY_MIME: {"title": self.title, "labels": self.labels, "records": records}}
        return data, {FAMILY_MIME: {"seconds": {s.identifier: round(s.evidence.seconds, 4) for s in self.statements}}}

    def __len__(self):
        return len(self.statements)

    def __iter__(self):
        return iter(self.statements)

    def __str__(self):
        """The title, then a line per claim: its case, verdict, identifier and how.

        >>> import derive
        >>> a = derive.real("a")
        >>> print(family([derive.claim(f"doc.fam.p{k}", (a + k)**2, a**2 + 2*k*a + k**2).prove() for k in (1, 2)],
        ...              "the square of a + k", labels=["k = 1", "k = 2"]))
        the square of a + k
          k = 1  proved  doc.fam.p1  by expand
          k = 2  proved  doc.fam.p2  by expand
        """
        width = max(len(label) for label in self.labels)
        lines = [self.title]
        for label, r in zip(self.labels, self.records):
            flag = f" (expected {r['expect']})" if unexpected(r) else ""
            lines.append(f"  {label:<{width}}  {r['verdict']}  {r['id']}  {how(r)}{flag}")
        return "\n".join(lines)

    def __repr__(self):
        return f"<Family of {len(self)} claims: {self.title}>"


def family(statements, title: str, labels=None) -> Family:
    """Claims stated alike, shown as one table: ``title`` once, then a row per claim (its ``labels`` entry, the
    statement, its verdict and how). Without ``labels``, each row is named by what its identifier adds to the
    identifiers' common prefix.

    >>> import derive
    >>> a = derive.real("a")
    >>> f = family([derive.claim(f"doc.fam.q{k}", (a + k)**2, a**2 + 2*k*a + k**2).prove() for k in (2, 3)],
    ...            "the square of a + k")
    >>> f.labels, len(f)
    (['q2', 'q3'], 2)
    >>> family([], "nothing")
    Traceback (most recent call last):
    ...
    ValueError: family: no claims to show
    """
    statements = list(statements)
    if not statements:
        raise ValueError("family: no claims to show")
    bad = next((s for s in statements if not isinstance(s, Statement)), None)
    if bad is not None:
        raise TypeError(f"family: expected claims or chains, got {type(bad).__name__}")
    if not isinstance(title, str) or not title:
        raise TypeError("family: the title must be a non-empty string")
    ids = [s.identifier for s in statements]
    if labels is None:
        prefix = os.path.commonprefix(ids) if len(ids) > 1 else ""
        prefix = prefix[: prefix.rfind(".") + 1]
        labels = [i[len(prefix):] for i in ids]
    labels = list(labels)
    if len(labels) != len(statements) or not all(isinstance(x, str) for x in labels):
        raise ValueError(f"family: {len(statements)} claims need as many labels (strings), got {len(labels)}")
    return Family(statements, title, labels)


def _body(statement, label: str) -> str:
    """A row's statement, without the values its case already says (a claim's ``where``)."""
    if isinstance(statement, Claim):
        return statement.body_tex(said=label)
    return statement.body_tex()  # a chain: its steps as they are
