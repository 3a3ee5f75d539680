"""The audit of the paper (docs/paper.md): for each item, what the suite's claims conclude, read from a run's records.

A claim or chain says which direction of which item its checked conclusion is (``proves=("5.3", "⇒")``); the
audit reads only that and the records. A direction is

* ``yes`` when some claim concludes it and every claim that does is settled (proved, or refuted as expected: a
  case the argument shows to fail) and rests, all the way down its ``uses``, on settled claims, never on a cycle
  of them; and, for an item that is no "if and only if", none of them is an implication from a start that no claim
  proves (a chain's ``hypothesis``);
* ``partly`` when some but not all of that holds; ``no`` when no claim concludes it, or none is settled.

Its scope is the narrowest scope of the proofs it rests on, transitively: the sizes of any proof at explicit
sizes (``"sizes d=2, m=2, n=2"``), else ``"every size"`` when a concluding claim is proved at every size, else
``"scalar"`` (statements about numbers, with no size at all). An item's scope is the narrowest of its
directions. Which items are an "if and only if", which the paper states at every size, and the standard facts
it lets be cited are the paper's (:mod:`derive.present.paper`); nothing else here is typed by hand.

>>> rows = audit([{"id": "a", "verdict": "proved", "expect": "proved", "uses": [], "scope": "every size",
...                "proves": [["5.1", "⇒"]]}]).rows
>>> row = next(r for r in rows if r["item"] == "5.1")
>>> row["scope"], row["directions"]["⇒"]["status"], row["directions"]["⇒"]["claims"]
('every size', 'yes', ['a'])
"""
from __future__ import annotations

import html
import json

from ..kernel import describe
from ..kernel.verdict import Verdict
from . import paper, plain, render

__all__ = ["AUDIT_MIME", "audit", "Audit", "records_of_run"]

#: the MIME type of the audit's rows
AUDIT_MIME = "application/vnd.derive.audit+json"
_HEAD = ["item", "says", "claims", "scope", "⇒ (only if)", "⇐ (if)", "cited"]
#: scopes from the narrowest: explicit sizes, then scalar statements, then every size
_RANK = {"sizes": 0, "scalar": 1, "every size": 2}


def _settles(record) -> bool:
    """A step of a direction's argument: a proof, a refutation that was expected (a case shown to fail), or numeric
    evidence where evidence is what was expected (the numeric cross-check)."""
    return record["verdict"] == Verdict.PROVED.value or (
        record["verdict"] in (Verdict.REFUTED.value, Verdict.CHECKED.value) and record.get("expect") == record["verdict"])


def _closure(records, by_id) -> list:
    """Every record the given ones rest on (themselves included) that is there."""
    seen, out = set(), []
    todo = list(records)
    while todo:
        r = todo.pop()
        if r["id"] in seen:
            continue
        seen.add(r["id"])
        out.append(r)
        todo += [by_id[u] for u in r.get("uses") or () if u in by_id]
    return out


def _grounded(by_id) -> set:
    """The identifiers of the records that settle (:func:`_settles`) and rest, all the way down their uses, on records
    that do; a chain's premise must be proved and so grounded too (a premise refuted, even as expected, is no
    ground). A least fixed point: a record on a cycle of uses, or resting on one, or on an identifier stated nowhere,
    is never grounded."""
    ground: set = set()
    changed = True
    while changed:
        changed = False
        for i, r in by_id.items():
            premise = r.get("premise")
            if i not in ground and _settles(r) and all(u in ground for u in r.get("uses") or ()) and (
                    not premise or premise in ground and by_id[premise]["verdict"] == Verdict.PROVED.value):
                ground.add(i)
                changed = True
    return ground


def _scope(concluding, closure) -> str:
    """The narrowest scope of the proofs a direction rests on (refutations show a case fails: they do not narrow),
    said to be numeric evidence where a claim it rests on, all the way down, is only checked."""
    proofs = [r for r in closure if r["verdict"] in (Verdict.PROVED.value, Verdict.CHECKED.value)]
    sizes = sorted({r.get("scope") for r in proofs} - {"", None, "every size"})
    evidence = any(r["verdict"] == Verdict.CHECKED.value for r in closure)
    if sizes:
        scope = "sizes " + "; ".join(sizes[:3]) + (" …" if len(sizes) > 3 else "")
    elif any(r.get("scope") == "every size" for r in concluding if r["verdict"] == Verdict.PROVED.value):
        scope = "every size"
    else:
        return "numeric evidence (scalar)" if evidence else "scalar"
    return "numeric evidence at " + scope if evidence else scope


def _direction(item, arrow, records, by_id, ground) -> dict:
    concluding = [r for r in records if [item, arrow] in [list(p) for p in r.get("proves") or ()]]
    if not concluding:
        return {"status": "no", "scope": "—", "claims": []}
    closure = _closure(concluding, by_id)
    settled = [r for r in concluding if _settles(r)]
    # a one-way item is stated outright: an implication from a start no claim proves concludes it only where the
    # start holds (an "if and only if" is concluded one implication each way)
    outright = item in paper.BOTH_WAYS or not any(r.get("hypothesis") for r in concluding)
    status = "yes" if outright and all(r["id"] in ground for r in concluding) else "partly" if settled else "no"
    scope = _scope(concluding, closure)
    if item in paper.EVERY_SIZE:  # the paper says every size: numbers alone are not that
        scope = {"scalar": "scalar only, not every size",
                 "numeric evidence (scalar)": "numeric evidence (scalar only, not every size)"}.get(scope, scope)
    return {"status": status, "scope": scope, "claims": [r["id"] for r in concluding]}


def _narrowest(scopes) -> str:
    known = [s for s in scopes if s != "—"]
    if not known:
        return "—"
    def rank(s):
        read = s.removeprefix("numeric evidence at ").removeprefix("numeric evidence ")
        return _RANK["scalar" if "scalar" in read else read if read == "every size" else "sizes"]

    return min(known, key=rank)


class Audit:
    """One row per paper item; shows as an HTML table built from its rows, as text, and as JSON."""

    def __init__(self, rows):
        self.rows = rows

    def _cells(self, r) -> list[str]:
        ways = [r["directions"].get(a) for a in ("⇒", "⇐")]
        cells = [f"{w['status']} ({w['scope']})" if w and w["status"] != "no" else (w["status"] if w else "(one way)")
                 for w in ways]
        says = plain.title_text(r["says"])  # Σ_j σ(x·k_j) v_j as the paper writes it: Σⱼ σ(x·kⱼ) vⱼ
        return [r["item"], says, str(r["claims"]), r["scope"], *cells, "; ".join(r["cited"]) or "—"]

    def _repr_mimebundle_(self, include=None, exclude=None):
        rows = [(f' data-item="{html.escape(r["item"])}"', [html.escape(c) for c in self._cells(r)]) for r in self.rows]
        table = render.html_table(_HEAD, rows, kind="audit", labels=["", ""] + _HEAD[2:])  # a card per item on a phone
        return {"text/html": table, "text/plain": str(self), AUDIT_MIME: [self._cells(r) for r in self.rows]}, {}

    def concluded(self) -> dict[str, bool]:
        """Item → whether every direction of it is ``yes``."""
        return {r["item"]: all(d["status"] == "yes" for d in r["directions"].values()) for r in self.rows}

    def json(self) -> list[dict]:
        """The rows as ``derive audit --json`` prints them."""
        return [{"item": r["item"], "says": r["says"], "scope": r["scope"], "directions": r["directions"],
                 "cited": r["cited"]} for r in self.rows]

    def __str__(self):
        cells = [[describe.shorten(c, 44) for c in self._cells(r)] for r in self.rows]
        wide = [max(len(c[k]) for c in cells) for k in (3, 4, 5)]
        return "\n".join((f"{c[0]:>4}  {c[2]:>3} claims  {c[3]:<{wide[0]}}  ⇒ {c[4]:<{wide[1]}}  ⇐ {c[5]:<{wide[2]}}"
                         + (f"  cited: {c[6]}" if c[6] != "—" else "")).rstrip() for c in cells)


def audit(records) -> Audit:
    """The audit of every paper item from claim records (e.g. ``[r for _, r in derive.suite_table().rows]``)."""
    records = list(records)
    for r in records:
        if not isinstance(r, dict) or not {"id", "verdict"} <= set(r):
            raise TypeError(f"audit: expected claim records (dicts with id and verdict), got {r!r:.80}")
    by_id = {}
    for r in records:
        if r["id"] in by_id:  # (which of the two would the rest of the suite read?)
            raise ValueError(f"audit: {r['id']} is stated twice; give each statement an identifier of its own")
        by_id[r["id"]] = r
    ground = _grounded(by_id)
    rows = []
    for entry in paper.ITEMS:
        item = entry.id
        mine = [r for r in records if item in paper.items_of(r)]
        directions = {a: _direction(item, a, records, by_id, ground) for a in paper.directions_of(item)}
        rows.append({"item": item, "says": entry.label, "claims": len(mine),
                     "verdicts": describe.verdict_counts(mine), "directions": directions,
                     "scope": _narrowest([d["scope"] for d in directions.values()]),
                     "cited": list(paper.CITED.get(item, []))})
    return Audit(rows)


def records_of_run(text: str) -> list[dict]:
    """The claim records in what ``derive check --json`` printed (a list of notebooks, each with its claims).

    >>> records_of_run('[{"notebook": "01", "claims": [{"id": "a", "verdict": "proved"}], "not_run": []}]')
    [{'id': 'a', 'verdict': 'proved'}]
    """
    try:
        runs = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not the JSON that derive check --json prints: {exc}") from None
    if not isinstance(runs, list) or not all(isinstance(r, dict) and isinstance(r.get("claims"), list) for r in runs):
        raise ValueError("not the JSON that derive check --json prints: expected a list of notebooks with 'claims'")
    return [c for r in runs for c in r["claims"]]
