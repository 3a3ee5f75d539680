"""derive: machine-checked derivations for "Gated MLPs as Symmetry-Broken Rank-1 Bilinear Attention".

State a claim, prove it by exact symbolic rules, refute it with an exact certified witness, or record numeric
evidence -- four verdicts, never blurred -- and render it in a notebook.

>>> import derive, sympy as sp
>>> a, b = derive.real("a b")
>>> relu = derive.activation("relu")
>>> derive.claim("demo.exchange", relu(a) * b, relu(b) * a).refute().verdict.value
'refuted'
"""
from __future__ import annotations

from . import inverses

inverses.install()  # before anything builds a matrix product: SymPy keeps the inverses it is given

from . import exercises, forms, numeric, rules
from .activations import ACTIVATIONS, activation, sigma, z
from .chains import Chain, chain, conclusions
from .classify import classify
from .datatable import Link, table
from .claims import Claim, ExpectationError, SoundnessError, claim
from .exercises import exercise
from .registry import statements
from .symbols import matrix, nonzero, positive, real, row
from .tables import claim_table, suite_table
from .verdict import Evidence, Verdict

__version__ = "0.1.0"

__all__ = [
    "ACTIVATIONS", "Chain", "Claim", "Evidence", "ExpectationError", "Link", "SoundnessError", "Verdict",
    "activation", "chain", "claim", "claim_table", "classify", "conclusions", "exercise", "forms", "matrix", "nonzero", "numeric", "positive",
    "real", "row", "rules", "sigma", "statements", "suite_table", "table", "z",
]

exercises.install()  # in IPython: an ExpectationError shows as its message, not a traceback
