"""The audit of docs/paper.md: how the suite's claims mechanize each item, read from a run's records.

Every row is derived from the claim records (their paper items, verdicts, scopes and ``uses``): nothing in the
audit is typed by hand except the two directions of each ⇔ and the facts cited (the items are
:data:`derive.present.paper.ITEMS`).
"""
from __future__ import annotations

import html

from ..kernel import describe
from . import paper, render
from ..kernel.verdict import Verdict

__all__ = ["AUDIT_MIME", "DIRECTIONS", "PARTLY", "CITED", "EVERY_SIZE", "audit", "Audit"]

#: item -> (claims for ⇒, claims for ⇐): identifiers or prefixes ending in "."; every one must be proved, or
#: refuted as expected (a case the argument shows to fail)
DIRECTIONS = {
    "5.3": (["gated.exchange_one_unit"], ["gated.exchange_per_unit.any_size"]),
    "5.4": (["gated.scaling_one_unit"], ["gated.scaling_per_unit.any_size"]),
    "6.1": (["lemma.sigma_linear", "lemma.sigma_at_zero"], ["lemma.linear_satisfies_identity"]),
    "6.2": (["lemma.sigma_linear"], ["lemma.linear_satisfies_identity"]),
    "B1": (["homogeneous.positive_side", "homogeneous.negative_side", "homogeneous.at_zero",
            "homogeneous.nonzero_linear"], ["homogeneous.converse", "homogeneous.linear_converse"]),
    "B3": (["gl_r.unit.r2.keeps_only_if", "gl_r.unit.r3.keeps_only_if", "gl_r.relu_only_if.r2", "gl_r.relu_only_if.r3",
            "gl_r.silu_only_if.r2", "gl_r.silu_only_if.r3", "gl_r.zero_line."],
           ["gl_r.unit.r2.keeps_if", "gl_r.unit.r3.keeps_if", "gl_r.identity_if.", "gl_r.relu_if.", "gl_r.silu_if."]),
}

#: item -> (direction, the step of it that no claim mechanizes): that direction is then "partly", never "yes"
PARTLY: dict[str, tuple[str, str]] = {}

#: item -> a standard fact the item rests on that is cited, not proved
CITED = {"4.3": "a matrix of rank ≤ r factors as C W (rank factorisation)"}

#: items stated for every size (their claims must include one proved at every size)
EVERY_SIZE = {"1.1", "2.1", "2.2", "3.1", "3.3", "4.1", "4.2", "4.3", "5.1", "5.2", "5.3", "5.4", "B1", "B3"}


def _settles(record) -> bool:
    """A step of a direction's argument: a proof, or a refutation that was expected (a case shown to fail)."""
    return record["verdict"] == Verdict.PROVED.value or (
        record["verdict"] == Verdict.REFUTED.value and record.get("expect") == Verdict.REFUTED.value)


def _matches(ident, patterns):
    return any(ident == p or (p.endswith(".") and ident.startswith(p)) for p in patterns)


def _closure_proved(ident, by_id, seen=None) -> bool:
    seen = seen if seen is not None else set()
    if ident in seen:
        return True
    seen.add(ident)
    r = by_id.get(ident)
    if r is None or r["verdict"] != Verdict.PROVED.value:
        return False
    return all(_closure_proved(u, by_id, seen) for u in r["uses"])


#: the MIME type of the audit's rows
AUDIT_MIME = "application/vnd.derive.audit+json"
_HEAD = ["item", "says", "claims", "verdicts", "scope", "both directions", "rests on proved claims"]


class Audit:
    """One row per docs/paper.md item; renders as an HTML table built from its rows (and as text)."""

    def __init__(self, rows):
        self.rows = rows

    def _cells(self, r) -> list[str]:
        verdicts = ", ".join(f"{n} {v}" for v, n in r["verdicts"]) or "—"
        return [r["item"], r["says"], str(r["claims"]), verdicts, r["scope"], r["directions"], r["rests"]]

    def _repr_mimebundle_(self, include=None, exclude=None):
        rows = [(f' data-item="{html.escape(r["item"])}"', [html.escape(c) for c in self._cells(r)]) for r in self.rows]
        table = render.html_table(_HEAD, rows, kind="audit")
        return {"text/html": table, "text/plain": str(self), AUDIT_MIME: [self._cells(r) for r in self.rows]}, {}

    def __str__(self):
        wide = max((len(r["scope"]) for r in self.rows), default=0)
        return "\n".join(f"{r['item']:>4}  {r['claims']:>3} claims  {r['scope']:<{wide}}  {r['directions']:<22} {r['rests']}"
                         for r in self.rows)


def audit(records) -> Audit:
    """The audit of every docs/paper.md item from claim records (e.g. ``[r for _, r in derive.suite_table().rows]``)."""
    records = list(records)
    by_id = {r["id"]: r for r in records}
    rows = []
    for entry in paper.ITEMS:
        item, says = entry.id, entry.label
        mine = [r for r in records if item in paper.items_of(r)]
        proved = [r for r in mine if r["verdict"] == Verdict.PROVED.value]
        if not mine:
            scope = "—"
        elif any(r.get("scope") == "every size" for r in proved):
            scope = "every size"
        else:
            sizes = sorted({r.get("scope") for r in mine if r.get("scope")})
            scope = ("sizes " + "; ".join(sizes[:3]) + (" …" if len(sizes) > 3 else "")) if sizes else "scalar statements"
            if item in EVERY_SIZE:
                scope += " (not every size)"
        if item in DIRECTIONS:
            ways = []
            for arrow, patterns in zip("⇒⇐", DIRECTIONS[item]):
                hits = [r for r in records if _matches(r["id"], patterns)]
                ok = hits and all(_settles(r) for r in hits) and \
                    all(any(_matches(r["id"], [p]) for r in hits) for p in patterns)
                partly = PARTLY.get(item, ("", ""))[0] == arrow
                ways.append(f"{arrow} {('partly' if partly else 'yes') if ok else 'no'}")
            directions = ", ".join(ways)
        else:
            directions = "(one way)"
        if not proved:
            rests = "—" if not mine else "no proved claim"
        else:
            rests = "yes" if all(_closure_proved(r["id"], by_id) for r in proved) else "no: something used is not proved"
        if item in CITED:
            rests += f"; cited: {CITED[item]}"
        if item in PARTLY:
            rests += f"; not mechanized: {PARTLY[item][1]}"
        rows.append({"item": item, "says": says, "claims": len(mine), "verdicts": describe.verdict_counts(mine),
                     "scope": scope, "directions": directions, "rests": rests})
    return Audit(rows)
