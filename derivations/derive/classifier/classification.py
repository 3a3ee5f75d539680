"""What a classification of an activation holds, and how it shows itself.

A :class:`Finding` is one symmetry of the gated layer decided (its verdict, the unit claim, the layer claim or
chain, the layer witness); a :class:`Classification` gathers the three for one activation and names its family;
a :class:`ClassificationTable` lays out many. They show as text on the command line and as JSON,
and as HTML in a notebook (:mod:`derive.present.classification_view`). :mod:`derive.classify` makes them.
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field

import sympy as sp

from ..kernel import display
from ..layers.activations import z
from ..kernel.claims import Claim, SoundnessError
from ..kernel.describe import how
from ..kernel.verdict import Verdict

__all__ = ["MIME", "SYMMETRIES", "TITLES", "Finding", "Classification", "ClassificationTable", "classification_table"]

#: the MIME type of a classification table's data: the symmetries, and per row its label, family and verdicts
MIME = "application/vnd.derive.classification+json"
#: the symmetries decided, in order
SYMMETRIES = ("exchange", "scale_positive", "scale_nonzero")
#: a short name of each symmetry, for tables
TITLES = {
    "exchange": "exchange Q ↔ K",
    "scale_positive": "scaling αQ, K/α (α > 0)",
    "scale_nonzero": "scaling αQ, K/α (α ≠ 0)",
}
#: the scaling factor of each scaling symmetry, as its claims state it
ALPHA = {
    "scale_positive": sp.Symbol("alpha", positive=True),
    "scale_nonzero": sp.Symbol("alpha", real=True, nonzero=True),
}
_TEX = {
    "exchange": r"Q \leftrightarrow K",
    "scale_positive": r"(\alpha Q, K/\alpha),\ \alpha > 0",
    "scale_nonzero": r"(\alpha Q, K/\alpha),\ \alpha \neq 0",
}
#: the size of the whole-layer claims: x is 1×D, Q and K are M×D, V is M×1
D, M = 2, 2


@dataclass
class Finding:
    """One symmetry decided: its verdict, the unit claim, the layer claim (or chain), the layer witness.

    >>> import derive
    >>> f = derive.classify("relu", name="doc_finding")["scale_nonzero"]
    >>> f.holds, f.unit.evidence.witness, f.witness["alpha"]
    (False, {'a': '1', 'alpha': '-1'}, -1)
    >>> f.lines()[-1]
    'exact residual -1'
    """

    symmetry: str
    verdict: Verdict
    unit: Claim | None  # None (and layer None) only for a symmetry the budget gave no time at all
    layer: object
    witness: dict = field(default_factory=dict)
    #: why the symmetry is undecided (out of time, SymPy gave up ...), empty when it is decided
    reason: str = ""
    #: the verdict lifted to the layer at every size d, m, n ≥ 1 (a chain), when it was asked for
    every_size: object = None

    @property
    def holds(self):
        """True (proved), False (refuted) or None (undecided)."""
        return {Verdict.PROVED: True, Verdict.REFUTED: False}.get(self.verdict)

    def certificate(self) -> str:
        """One line: how the verdict was obtained."""
        return "; ".join(self.lines())

    def lines(self) -> list[str]:
        """How the verdict was obtained: one line for the unit identity, one or two for the layer."""
        if self.unit is None:
            return [f"undecided: {self.reason}" if self.reason else "undecided"]
        unit = self.unit.record()
        if self.verdict is Verdict.PROVED:
            return [f"unit identity {how(unit)}",
                    f"layer (d = m = {D}): a sum of unit terms for every σ, each zero by the unit identity"]
        if self.verdict is Verdict.REFUTED:
            at = ", ".join(f"{k} = {v}" for k, v in self.unit.evidence.witness.items())
            rec = self.layer.record()
            cert = (f"residual {rec['residual']} ∈ {rec['enclosure']} ({rec['detail'].split(',')[0]})"
                    if rec["enclosure"] else f"exact residual {rec['residual']}")
            shown = ", ".join(f"{k} = {_plain(v)}" for k, v in self.witness.items())
            said = (f"unit identity refuted at {at}" if self.unit.verdict is Verdict.REFUTED
                    else f"unit identity: {how(unit)}")  # (the layer's own search found its witness)
            return [said, f"layer refuted at {shown}", cert]
        return [f"unit identity: {how(unit)}", "layer: undecided" + (f": {self.reason}" if self.reason else "")]

    def as_dict(self) -> dict:
        """The finding as data: verdict, certificate, witness, and the records of its two claims."""
        return {
            "verdict": self.verdict.value,
            "holds": self.holds,
            "certificate": self.certificate(),
            "witness": {k: _plain(v) for k, v in self.witness.items()},
            "reason": self.reason,
            "unit": self.unit.record() if self.unit is not None else None,
            "layer": self.layer.record() if self.layer is not None else None,
        }


def _plain(v) -> str:
    if isinstance(v, sp.MatrixBase):
        return sp.sstr(v.tolist()).replace(" ", "")
    return sp.sstr(v)


# -- one activation -----------------------------------------------------------------------------------------------
class Classification:
    """The symmetries of the gated layer for one activation, each a :class:`Finding`; renders itself.

    In a notebook it shows a table (verdict badge and certificate per symmetry); ``str()`` is the text the
    command line prints; :meth:`as_dict` the JSON it prints with ``--json``.

    >>> import derive
    >>> c = derive.classify("silu", name="doc_classification")
    >>> c.family, c["exchange"].holds
    ('not positively homogeneous', False)
    >>> print(str(c).splitlines()[0])
    doc_classification: sigma(z) = z/(1 + exp(-z))
    """

    def __init__(self, expr, name, label, findings, seconds):
        self.expr, self.name, self.label = expr, name, label
        self.findings = {f.symmetry: f for f in findings}
        self.seconds = seconds
        self.family, self.constants = self._family()

    def __getitem__(self, key) -> Finding:
        if key not in self.findings:
            raise KeyError(f"classify {self.name}: no symmetry {key!r}; its symmetries are "
                           f"{', '.join(self.findings)} (c['exchange'], or iterate over c for each finding)")
        return self.findings[key]

    def __iter__(self):
        """Its findings, one per symmetry, in the order of :data:`SYMMETRIES`."""
        return iter(self.findings.values())

    def __len__(self) -> int:
        return len(self.findings)

    def verdicts(self) -> dict:
        """``{symmetry: verdict}`` in the order of :data:`SYMMETRIES`."""
        return {k: f.verdict for k, f in self.findings.items()}

    def _family(self):
        ex, pos, nz = (self.findings[k].holds for k in SYMMETRIES)
        # exchange <=> scaling for every α ≠ 0 (both <=> σ linear) => scaling for α > 0
        if (ex is not None and nz is not None and ex != nz) or (pos is False and (ex or nz)):
            raise SoundnessError(f"classify {self.name}: verdicts {self.verdicts()} contradict each other")
        s = sp.Lambda(z, self.expr)
        if ex or nz:
            return "linear", {"c": _shown_constant(s(1))}
        if pos:
            return "positively homogeneous", {"c_plus": _shown_constant(s(1)), "c_minus": _shown_constant(-s(-1))}
        if pos is False:
            return "not positively homogeneous", {}
        return "undecided", {}

    def family_text(self) -> str:
        names = {"c": "c", "c_plus": "c+", "c_minus": "c-"}
        consts = ", ".join(f"{names[k]} = {sp.sstr(v)}" for k, v in self.constants.items())
        return self.family + (f" ({consts})" if consts else "")

    def _family_tex(self) -> str:
        names = {"c": "c", "c_plus": "c_+", "c_minus": "c_-"}
        consts = r",\ ".join(f"{names[k]} = {sp.latex(v)}" for k, v in self.constants.items())
        form = {
            "linear": r"\sigma(z) = c\,z",
            "positively homogeneous": r"\sigma(z) = c_+ \max(z, 0) + c_- \min(z, 0)",
        }.get(self.family, "")
        return self.family + (f": \\({form}\\), \\({html.escape(consts)}\\)" if form else "")

    def as_dict(self) -> dict:
        """The classification as data (what ``derive classify --json`` prints)."""
        return {
            "name": self.name,
            "label": self.label,
            "activation": sp.sstr(self.expr),
            "latex": sp.latex(self.expr),
            "family": self.family,
            "constants": {k: sp.sstr(v) for k, v in self.constants.items()},
            "symmetries": {k: f.as_dict() for k, f in self.findings.items()},
            "seconds": round(self.seconds, 4),
        }

    def __str__(self) -> str:
        head = f"sigma(z) = {sp.sstr(self.expr)}"
        lines = [f"{self.label}: {head}" if self.label != sp.sstr(self.expr) else head,
                 f"family: {self.family_text()}"]
        for key, f in self.findings.items():
            symbol = f.verdict.symbol
            state = {True: "holds", False: "broken", None: "undecided"}[f.holds]
            state += f" ({f.reason})" if f.holds is None and f.reason else ""
            lines.append(f"{symbol} {TITLES[key]}: {state}")
            lines.extend(f"    {line}" for line in f.lines())
        return "\n".join(lines)

    def _repr_mimebundle_(self, include=None, exclude=None):
        return display.bundle(self)

    def _row_data(self) -> dict:
        return {"label": self.label, "family": self.family,
                "verdicts": {k: f.verdict.value for k, f in self.findings.items()}}

    def __repr__(self):
        states = ", ".join(f"{k}: {f.verdict.value}" for k, f in self.findings.items())
        return f"<Classification {self.name}: {states}>"


def _shown_constant(value):
    """c = σ(1) (or -σ(-1)) as shown: tidied by ``simplify`` when small (a display, not a proof step)."""
    if sp.count_ops(value) <= 30:
        return sp.simplify(value)
    return value


# -- many activations -------------------------------------------------------------------------------------------
class ClassificationTable:
    """Several classifications side by side: one row per activation, one column per symmetry."""

    def __init__(self, results):
        self.results = list(results)

    def __len__(self):
        return len(self.results)

    def _repr_mimebundle_(self, include=None, exclude=None):
        return display.bundle(self)


def classification_table(results) -> ClassificationTable:
    """A table of classifications (e.g. the activation atlas): a verdict badge and its certificate per cell.

    >>> import derive
    >>> from derive.classifier.classification import classification_table
    >>> t = classification_table([derive.classify("abs", name="doc_abs")])
    >>> print(t._repr_mimebundle_()[0]["text/plain"])
    doc_abs  refuted   proved    refuted    positively homogeneous (c+ = 1, c- = -1)
    """
    results = list(results)
    for r in results:
        if not isinstance(r, Classification):
            raise TypeError(f"classification_table: expected Classification objects, got {type(r).__name__}")
    return ClassificationTable(results)
