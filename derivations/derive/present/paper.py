"""The paper's numbered items (1.1 … B5), its steps, and which item each claim of the notebooks states.

The item numbers and their short labels are a copy of ``docs/paper.md``'s; a claim belongs to the item its record
names under ``paper`` when it has that field, else to the item its identifier's prefix names in
:data:`RULES`; exercises and the overview's examples belong to no item.

>>> item_of({"id": "gated.exchange.relu"})
'5.3'
>>> item_of({"id": "gated.exercise.leaky_relu_scaling"}) is None
True
>>> item_of({"id": "kv.memory_sum", "paper": "2.1"})
'2.1'
>>> item_of({"id": "lemma.sigma_linear", "paper": ["6.1", "6.2"]})
'6.1'
>>> [s.title for s in STEPS][:2]
['Step 1 · Key–value view', 'Step 2 · Query absorption']
"""
from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Item", "Step", "ITEMS", "STEPS", "RULES", "BOTH_WAYS", "EVERY_SIZE", "CITED", "item_of", "items_of",
           "directions_of", "record_of", "step_of", "step_of_notebook", "REFERENCES"]

#: a copy of the numbered items of docs/paper.md, each with a label short enough for a node of the blueprint
_ITEMS = """
1.1  σ(xKᵀ)V = Σ_j σ(x·k_j) v_j: attention over m memory slots
2.1  a global query is absorbed: K' = K Qᵀ
2.2  every K' is reached (Q = I)
3.1  the score x A xᵀ sees only the symmetric part of A
3.2  parameter count m(2dr + d) against 2md
3.3  the standard MLP is the static-query case
4.1  rank 1: the score is (x·q_j)(x·k_j)
4.2  the symmetric rank-1 form S = σ((xQᵀ) ⊙ (xKᵀ)) V
4.3  rank r: a sum of r rank-1 scores
5.1  S keeps the exchange Q ↔ K
5.2  S keeps the inverse scaling (αQ, K/α)
5.3  G keeps the exchange ⇔ σ linear
5.4  G keeps the scaling ⇔ σ(αa)/α = σ(a)
6.1  σ(a)b = σ(b)a for all a, b ⇒ σ(z) = σ(1) z
6.2  every σ(z) = c z satisfies it
B1   scaling kept ⇔ σ has two slopes (α > 0), ⇔ linear (α ≠ 0)
B2   a decision procedure, and the atlas of activations
B3   rank r: the GL(r) symmetry, and what the gate keeps of it
B4   the forms against numpy layers at d = 64, m = 256
B5   pictures: asymmetry, σ(z)/z, the scaling orbit, the graph
"""


@dataclass(frozen=True)
class Item:
    """One numbered statement of the paper."""

    id: str
    step: str
    label: str


@dataclass(frozen=True)
class Step:
    """A step of the paper (``"5"``) or beyond it (``"B2"``), with the notebook that works it out."""

    id: str
    name: str
    notebook: str | None

    @property
    def title(self) -> str:
        """``Step 5 · Symmetry breaking``, ``B2 · Activation atlas``: the page title used everywhere."""
        return f"Step {self.id} · {self.name}" if self.id[0].isdigit() else f"{self.id} · {self.name}"


ITEMS = [Item(m.group(1), m.group(1).split(".")[0], m.group(2).strip())
         for m in re.finditer(r"^(\d\.\d|B\d)\s+(.+)$", _ITEMS, flags=re.M)]

#: the items docs/paper.md states as "if and only if": each has a ⇒ (only if) and a ⇐ (if) to prove
BOTH_WAYS = frozenset({"5.3", "5.4", "6.1", "6.2", "B1", "B3"})
#: the items docs/paper.md states for every size (of d, m, n, r): a proof at some sizes proves them only there
EVERY_SIZE = frozenset({"1.1", "2.1", "2.2", "3.1", "3.3", "4.1", "4.2", "4.3", "5.1", "5.2", "5.3", "5.4", "B1", "B3"})
#: standard facts an item rests on that docs/paper.md allows to be cited rather than proved
CITED = {"4.3": ["a matrix of rank ≤ r factors as C W (rank factorisation)"],
         "B3": ["an invertible matrix with at most one nonzero entry in each column is a monomial matrix PD "
                "(P a permutation, D an invertible diagonal)"]}


def directions_of(item: str) -> tuple[str, ...]:
    """``("⇒", "⇐")`` for an "if and only if" of the paper, ``("⇒",)`` for a one-way statement.

    >>> directions_of("5.3"), directions_of("1.1")
    (('⇒', '⇐'), ('⇒',))
    """
    return ("⇒", "⇐") if item in BOTH_WAYS else ("⇒",)

STEPS = [
    Step("1", "Key–value view", "01"), Step("2", "Query absorption", "02"), Step("3", "Bilinear attention", "03"),
    Step("4", "Rank-1 reduction", "04"), Step("5", "Symmetry breaking", "05"), Step("6", "The σ(z)/z lemma", "06"),
    Step("B1", "Inverse scaling", "07"), Step("B2", "Activation atlas", "08"), Step("B3", "Rank r", "09"),
    Step("B4", "Numeric cross-check", "10"), Step("B5", "Pictures", None),
]

#: identifier prefixes and the item they state, the first match winning (exercises are matched before)
RULES = [
    ("kv.", "1.1"),
    ("absorb.query_into_keys", "2.1"), ("absorb.identity_query", "2.2"), ("absorb.every_key_reached", "2.2"),
    ("bilinear.param_", "3.2"), ("bilinear.full_rank_score", "3.2"), ("bilinear.static_query", "3.3"),
    ("bilinear.", "3.1"),
    ("rank1.outer_product", "4.1"), ("rank1.score_factorizes", "4.1"), ("rank1.", "4.2"), ("rank_r.", "4.3"),
    ("symmetric.exchange", "5.1"), ("symmetric.scaling", "5.2"),
    ("gated.exchange", "5.3"), ("gated.scaling", "5.4"),
    ("lemma.instance", "5.3"), ("lemma.gated_exchange", "5.3"),
    ("lemma.linear_", "6.2"), ("lemma.", "6.1"),
    ("homogeneous.", "B1"), ("atlas.", "B2"), ("gl_r.", "B3"), ("crosscheck.", "B4"),
]

REFERENCES = [
    ("paper", "Gated MLPs as Symmetry-Broken Rank-1 Bilinear Attention", "arXiv 2606.22172, 2026",
     "https://arxiv.org/abs/2606.22172"),
    ("geva2021", "M. Geva, R. Schuster, J. Berant, O. Levy. Transformer Feed-Forward Layers Are Key-Value Memories",
     "EMNLP 2021", "https://arxiv.org/abs/2012.14913"),
    ("shazeer2020", "N. Shazeer. GLU Variants Improve Transformer", "arXiv 2002.05202, 2020",
     "https://arxiv.org/abs/2002.05202"),
]

_ITEM_IDS = {i.id for i in ITEMS}
_EXERCISE = re.compile(r"(^|\.)exercise")


def item_of(record: dict) -> str | None:
    """The paper item a claim record states: its ``paper`` field when present, else by its identifier."""
    if not isinstance(record, dict) or not isinstance(record.get("id"), str):
        raise TypeError(f"item_of: expected a claim record with an 'id', got {record!r:.80}")
    given = record.get("paper")
    if given:
        items = [given] if isinstance(given, str) else list(given)
        for item in items:
            if item not in _ITEM_IDS:
                raise ValueError(f"item_of: {record['id']} names paper item {item!r}, which docs/paper.md does not "
                                 f"number")
        return items[0]  # a claim that serves several items is shown under the first
    ident = record["id"]
    if _EXERCISE.search(ident):
        return None
    return next((item for prefix, item in RULES if ident.startswith(prefix)), None)


def items_of(record: dict) -> list[str]:
    """Every paper item a claim record states: its ``paper`` field, else the item of its identifier (or none).

    >>> items_of({"id": "lemma.sigma_linear", "paper": ["6.1", "6.2"]}), items_of({"id": "gated.exchange.relu"})
    (['6.1', '6.2'], ['5.3'])
    """
    given = record.get("paper")
    if given:
        item_of(record)  # checks every item
        return [given] if isinstance(given, str) else list(given)
    found = item_of(record)
    return [found] if found else []


def record_of(statement) -> dict:
    """A claim's or chain's record with its paper items: as it gives them, else read off its identifier.

    >>> import derive
    >>> a = derive.real("a")
    >>> record_of(derive.claim("gated.exchange.doc", (a + 1)**2, a**2 + 2*a + 1))["paper"]
    ['5.3']
    """
    record = statement.record()
    record["paper"] = items_of(record)
    for item, _ in record.get("proves") or ():
        if item not in _ITEM_IDS:
            raise ValueError(f"{record['id']}: proves names paper item {item!r}, which the paper does not number")
    return record


def step_of(item: str) -> Step:
    """The step an item belongs to: ``"5.3"`` -> Step 5."""
    key = item.split(".")[0]
    return next(s for s in STEPS if s.id == key)


def step_of_notebook(name: str) -> Step | None:
    """The step a notebook works out, by its number (``08_activation_atlas`` -> B2); None for the overview."""
    return next((s for s in STEPS if s.notebook and name.startswith(s.notebook + "_")), None)
