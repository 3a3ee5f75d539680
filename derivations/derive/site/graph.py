"""The dependency graph of the suite's claims: one node per claim, an edge from each claim to those it uses.

A node's status is derived, never typed: *fully proved* only when the claim and everything it uses, followed
transitively, are proved; a claim that is proved but rests on something that is not (refuted, checked,
unproven, missing, or circular) is shown as *proved* only. Identifiers that are used but never stated become
*missing* nodes.

>>> from derive.site.graph import claim_graph
>>> g = claim_graph([("01_step", [
...     {"id": "a.base", "verdict": "proved", "uses": []},
...     {"id": "a.top", "verdict": "proved", "uses": ["a.base", "a.gone"]}])])
>>> [(n.id, n.status) for n in g.nodes.values()]
[('a.base', 'fully-proved'), ('a.top', 'proved'), ('a.gone', 'missing')]
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..kernel.verdict import Verdict

__all__ = ["STATUSES", "Node", "ClaimGraph", "claim_graph"]

#: status -> (legend text, fill, stroke, text colour); the colours follow the verdict badges
STATUSES = {
    "fully-proved": ("fully proved: it and everything it uses are proved", "#1a7f37", "#1a7f37", "#ffffff"),
    "proved": ("proved, but rests on a claim that is not proved", "#dafbe1", "#1a7f37", "#0b3d1a"),
    "refuted": ("refuted by a certified witness", "#b35900", "#b35900", "#ffffff"),
    "checked": ("checked numerically: evidence, not proof", "#0969da", "#0969da", "#ffffff"),
    "unproven": ("unproven", "#6e7781", "#6e7781", "#ffffff"),
    "missing": ("used, but stated in no notebook", "#ffffff", "#cf222e", "#cf222e"),
}


@dataclass
class Node:
    """One claim (or a missing identifier) in the graph."""

    id: str
    notebook: str = ""
    verdict: str | None = None
    expect: str | None = None
    title: str = ""
    uses: tuple[str, ...] = ()
    status: str = "missing"
    used_by: list[str] = field(default_factory=list)
    #: the docs/paper.md item the claim's record names (``paper``), when it names one
    paper: str | None = None

    @property
    def missing(self) -> bool:
        """True for an identifier that is used but stated nowhere."""
        return self.verdict is None

    @property
    def unexpected(self) -> bool:
        """True when the claim expected a verdict other than the one it got."""
        return self.expect is not None and self.verdict is not None and self.expect != self.verdict


@dataclass
class ClaimGraph:
    """Nodes in reading order (missing ones last) and edges ``(used, user)``."""

    nodes: dict[str, Node]
    edges: list[tuple[str, str]]

    def counts(self) -> dict[str, int]:
        """How many nodes have each status, in the order of :data:`STATUSES`."""
        return {s: sum(n.status == s for n in self.nodes.values()) for s in STATUSES}

    def cycles(self) -> set[str]:
        """Identifiers of the claims that lie on a cycle of uses."""
        return {n for n in self.nodes if _reaches(self.nodes, n, n)}


def _reaches(nodes, start, goal) -> bool:
    seen, stack = set(), list(nodes[start].uses)
    while stack:
        u = stack.pop()
        if u == goal:
            return True
        if u in seen or u not in nodes:
            continue
        seen.add(u)
        stack.extend(nodes[u].uses)
    return False


def _check_records(notebooks) -> list[tuple[str, list[dict]]]:
    if isinstance(notebooks, (str, bytes, dict)):
        raise TypeError(f"claim_graph: expected a list of (notebook, records) pairs, got {type(notebooks).__name__}")
    out = []
    for item in notebooks:
        if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)):
            raise TypeError(f"claim_graph: expected (notebook name, list of claim records), got {item!r:.80}")
        for r in item[1]:
            if not isinstance(r, dict) or not isinstance(r.get("id"), str) or "verdict" not in r:
                raise ValueError(f"claim_graph: a claim record needs 'id' and 'verdict', got {r!r:.80}")
            Verdict(r["verdict"])  # raises ValueError on an unknown verdict
        out.append((item[0], list(item[1])))
    return out


def claim_graph(notebooks) -> ClaimGraph:
    """The graph of every claim in ``notebooks``: a list of ``(notebook name, claim records)`` in reading order.

    The first statement of an identifier wins when two notebooks state the same one.
    """
    nodes: dict[str, Node] = {}
    for notebook, records in _check_records(notebooks):
        for r in records:
            if r["id"] not in nodes:
                nodes[r["id"]] = Node(r["id"], notebook, r["verdict"], r.get("expect"), r.get("title") or "",
                                      tuple(dict.fromkeys(r.get("uses") or ())), paper=r.get("paper"))
    for node in list(nodes.values()):
        for u in node.uses:
            nodes.setdefault(u, Node(u))
    edges = [(u, n.id) for n in nodes.values() for u in n.uses]
    for used, user in edges:
        nodes[used].used_by.append(user)
    # least fixed point: a claim on a cycle of uses never becomes fully proved
    fully: set[str] = set()
    changed = True
    while changed:
        changed = False
        for n in nodes.values():
            if n.id not in fully and n.verdict == Verdict.PROVED.value and all(u in fully for u in n.uses):
                fully.add(n.id)
                changed = True
    for n in nodes.values():
        n.status = "missing" if n.missing else ("fully-proved" if n.id in fully else n.verdict)
    return ClaimGraph(nodes, edges)
