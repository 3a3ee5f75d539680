"""derive: machine-checked derivations for "Gated MLPs as Symmetry-Broken Rank-1 Bilinear Attention".

State a claim, prove it by exact symbolic rules, refute it with an exact certified witness, or record numeric
evidence -- four verdicts, never blurred -- and render it in a notebook.

The package has one folder per layer, each importing only those below it: ``kernel`` (what decides a verdict)
and ``second`` (the independent engines) at the bottom, then ``layers`` (the paper's forms and activations),
``classifier``, ``present`` (what a notebook shows), ``run`` (the notebook runner) and ``site``.

>>> import derive, sympy as sp
>>> a, b = derive.real("a b")
>>> relu = derive.activation("relu")
>>> derive.claim("demo.exchange", relu(a) * b, relu(b) * a).refute().verdict.value
'refuted'
"""
from __future__ import annotations

from .kernel import conjugates, entries, facts, inverses, powers, signs, squares, sums, zeros

inverses.install()  # before anything builds a matrix product: SymPy keeps the inverses it is given
signs.install()  # before anything reads a closed number's sign: SymPy reads it certified, never from digits
sums.install()  # SymPy reads a sum's or a product's sign as empty and reversed ranges make it
conjugates.install()  # SymPy folds a conjugate across a branch cut (li, loggamma …) only where the value is real
powers.install()  # SymPy splits a power of a product, and powsimp joins powers, only where that is exact
facts.install()  # SymPy's signs, parities and poles read where they fail (binomial(5, 1) negative …) hold off there
zeros.install()  # SymPy's rules that fail where a value is 0 (acot odd, atan of a rational irrational …) hold off there
squares.install()  # SymPy's matrix rules that take a matrix for square, or a power for positive, hold only where it is
entries.install()  # SymPy's entries of permutation and companion matrices at symbolic indices, read exactly

from .kernel import rules
from .kernel.chains import Chain, chain, conclusions
from .kernel.claims import Claim, claim
from .kernel.registry import statements
from .kernel.verdict import Evidence, ExpectationError, SoundnessError, Verdict
from .layers import forms
from .layers.activations import ACTIVATIONS, activation, sigma, z
from .layers.symbols import matrix, nonzero, positive, real, row
from .classifier.classify import classify
from .present import classification_view, exercises, expressions, render  # render and classification_view: how things show
from .present.datatable import Link, table
from .present.exercises import exercise, solution
from .present.family import family
from .present.tables import claim_table
from .run.runner import suite_table

__version__ = "0.1.0"

__all__ = [
    "ACTIVATIONS", "Chain", "Claim", "Evidence", "ExpectationError", "Link", "SoundnessError", "Verdict",
    "activation", "chain", "claim", "claim_table", "classify", "conclusions", "exercise", "family", "forms", "matrix",
    "nonzero", "numeric", "plots", "positive", "real", "row", "rules", "sigma", "solution", "statements", "suite_table",
    "table", "z",
]



def __getattr__(name):
    """``derive.plots`` and ``derive.numeric`` on first use: Matplotlib and numpy are imported only by those who
    draw or evaluate in floats (``import derive`` works without them, as in a browser)."""
    if name in ("plots", "numeric"):
        import importlib

        try:
            return importlib.import_module(".present.plots" if name == "plots" else ".layers.numeric", __name__)
        except ImportError as exc:
            if exc.name not in ("numpy", "matplotlib"):
                raise
            raise ImportError(f"derive.{name} needs {exc.name}, which is not installed (the rest of derive works "
                              f"without it)", name=exc.name) from None
    raise AttributeError(f"module 'derive' has no attribute {name!r}")


exercises.install()  # in IPython: an ExpectationError shows as its message, not a traceback
expressions.install()  # in IPython: SymPy expressions print as the claims do (σ(x Kᵀ), indices from 1)
