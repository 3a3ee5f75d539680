"""The items of PAPER.md and an audit of how the suite's claims mechanize each, read from a run's records.

Every row is derived from the claim records (their ``paper`` tags, verdicts, scopes and ``uses``): nothing in
the audit is typed by hand except the list of items, the two directions of each ⇔, and the facts cited.
"""
from __future__ import annotations

from . import render
from .verdict import Verdict

__all__ = ["ITEMS", "DIRECTIONS", "CITED", "audit", "Audit"]

#: item -> what it says, in a few words
ITEMS = {
    "1.1": "σ(x Kᵀ) V = Σ_j σ(x·k_j) v_j", "2.1": "a global query is absorbed, K' = K Qᵀ",
    "2.2": "every K' is reached (Q = I)", "3.1": "only the symmetric part of A_j matters",
    "3.2": "parameter counts", "3.3": "the MLP is the static-query case", "4.1": "x qᵀ k xᵀ = (x·q)(x·k)",
    "4.2": "stacked: the symmetric rank-1 form S", "4.3": "rank r: a sum of r rank-1 scores",
    "5.1": "S(Q, K) = S(K, Q)", "5.2": "S(αQ, K/α) = S(Q, K)", "5.3": "G exchange ⇔ σ(a)b = σ(b)a ⇔ σ linear",
    "5.4": "G scaling ⇔ σ(αa)/α = σ(a)", "6.1": "σ(a)b = σ(b)a ⇒ σ(z) = σ(1)z", "6.2": "σ(z) = cz ⇒ the identity",
    "B1": "inverse scaling ⇔ two slopes (α > 0), ⇔ linear (α ≠ 0)", "B2": "the activation atlas",
    "B3": "GL(r) symmetry; which M the gate keeps", "B4": "numeric cross-check", "B5": "pictures",
}

#: item -> (claims for ⇒, claims for ⇐): identifiers or prefixes ending in "."; every one must be proved
DIRECTIONS = {
    "5.3": (["gated.exchange_one_unit"], ["gated.exchange_per_unit.any_size"]),
    "5.4": (["gated.scaling_one_unit"], ["gated.scaling_per_unit.any_size"]),
    "6.1": (["lemma.sigma_linear", "lemma.sigma_at_zero"], ["lemma.linear_satisfies_identity"]),
    "6.2": (["lemma.sigma_linear"], ["lemma.linear_satisfies_identity"]),
    "B1": (["homogeneous.positive_side", "homogeneous.negative_side", "homogeneous.at_zero",
            "homogeneous.nonzero_linear"], ["homogeneous.converse", "homogeneous.linear_converse"]),
    "B3": (["gl_r.only_if."], ["gl_r.identity_all_M", "gl_r.relu_scaled_permutation", "gl_r.silu_permutation"]),
}

#: item -> a standard fact the item rests on that is cited, not proved
CITED = {"4.3": "a matrix of rank ≤ r factors as C W (rank factorisation)"}

#: items stated for every size (their claims must include one proved at every size)
EVERY_SIZE = {"1.1", "2.1", "2.2", "3.1", "3.3", "4.1", "4.2", "4.3", "5.1", "5.2", "5.3", "5.4", "B1", "B3"}


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


class Audit:
    """One row per PAPER.md item; renders as a Markdown table."""

    def __init__(self, rows):
        self.rows = rows

    def _repr_mimebundle_(self, include=None, exclude=None):
        head = ["| item | says | claims | verdicts | scope | both directions | rests on proved claims |",
                "|---|---|---:|---|---|---|---|"]
        lines = []
        for r in self.rows:
            verdicts = ", ".join(f"{n} {v}" for v, n in r["verdicts"]) or "—"
            lines.append(f"| {r['item']} | {render.plain_markdown(r['says'])} | {r['claims']} | {verdicts} | "
                         f"{render.plain_markdown(r['scope'])} | {r['directions']} | {render.plain_markdown(r['rests'])} |")
        plain = "\n".join(f"{r['item']:>4}  {r['claims']:>3} claims  {r['scope']:<28} {r['directions']:<22} {r['rests']}"
                          for r in self.rows)
        return {"text/markdown": "\n".join(head + lines) + "\n", "text/plain": plain}, {}


def audit(records) -> Audit:
    """The audit of every PAPER.md item from claim records (e.g. ``[r for _, r in derive.suite_table().rows]``)."""
    records = list(records)
    by_id = {r["id"]: r for r in records}
    rows = []
    for item, says in ITEMS.items():
        mine = [r for r in records if item in r.get("paper", [])]
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
                ok = hits and all(r["verdict"] == Verdict.PROVED.value for r in hits) and \
                    all(any(_matches(r["id"], [p]) for r in hits) for p in patterns)
                ways.append(f"{arrow} {'yes' if ok else 'no'}")
            directions = ", ".join(ways)
        else:
            directions = "(one way)"
        if not proved:
            rests = "—" if not mine else "no proved claim"
        else:
            rests = "yes" if all(_closure_proved(r["id"], by_id) for r in proved) else "no: something used is not proved"
        if item in CITED:
            rests += f"; cited: {CITED[item]}"
        rows.append({"item": item, "says": says, "claims": len(mine), "verdicts": render.verdict_counts(mine),
                     "scope": scope, "directions": directions, "rests": rests})
    return Audit(rows)
