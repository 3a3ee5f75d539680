"""The forms in plain numpy, for numeric cross-checks at realistic sizes (evidence, never proof).

Arrays hold one token per row: ``x`` is n×d, ``Q, K`` are m×d, ``V`` is m×n_out; the bilinear forms take
sequences of d×r arrays. Activations come from the same SymPy ``Lambda`` objects as the symbolic forms.

Each named activation (:data:`derive.ACTIVATIONS`) is evaluated by a stable form of its definition, within a
few units in the last place of the exact value on all of [-1000, 1000]: no overflow (softplus at z ≥ 710), no
cancellation (``1 + erf``, ``1 + tanh`` and ``log(1 + e^z)`` for negative z), and results below the normal range
rounded once. Any other ``Lambda`` is evaluated as written (``sympy.lambdify``).
"""
from __future__ import annotations

import functools
import math

import numpy as np
import sympy as sp

from . import stable as _stable
from ..kernel.claims import Statement
from ..kernel.validate import require_function
from ..kernel.verdict import Evidence, Verdict

__all__ = [
    "activation_fn", "to_numpy", "key_value", "bilinear", "symmetric_rank1", "gated", "gated_rank_r",
    "relative_error", "Agreement", "agreement",
]

_erf = np.vectorize(math.erf, otypes=[float])


@functools.lru_cache(maxsize=None)
def activation_fn(sigma):
    """A vectorised numpy function computing the SymPy activation ``sigma`` (a one-argument ``Lambda``).

    >>> import numpy as np
    >>> from derive import activation
    >>> from derive.layers.numeric import activation_fn
    >>> activation_fn(activation("relu"))(np.array([-1.0, 2.0]))
    array([0., 2.])
    """
    sigma = require_function("activation_fn", "sigma", sigma)
    if not isinstance(sigma, sp.Lambda):
        t = sp.Symbol("t", real=True)
        sigma = sp.Lambda(t, sigma(t))
    (var,) = sigma.variables
    if sigma.expr.atoms(sp.core.function.AppliedUndef):
        raise ValueError("activation_fn: the generic σ has no numeric value; pick a concrete activation")
    stable = _stable.FORMS.get(sigma)
    if stable is not None:
        return lambda a: _stable.evaluate(stable, a)
    fn = sp.lambdify(var, sigma.expr, modules=[{"erf": _erf}, "numpy"])

    def evaluate(a):
        with np.errstate(over="ignore"):  # exp(-z) overflows to inf for very negative z; z / inf is then 0
            return np.asarray(fn(np.asarray(a, dtype=float)), dtype=float) * np.ones_like(a, dtype=float)

    return evaluate


def to_numpy(M) -> np.ndarray:
    """A numeric SymPy matrix as a float array (TypeError when an entry is not a number)."""
    if not isinstance(M, sp.MatrixBase):
        raise TypeError(f"to_numpy: expected a SymPy Matrix, got {type(M).__name__}")
    try:
        return np.array(M.tolist(), dtype=float)
    except TypeError:
        raise TypeError("to_numpy: every entry must be a number (substitute the symbols first)") from None


def _arrays(where, **arrays):
    for name, a in arrays.items():
        if not isinstance(a, np.ndarray) or a.ndim != 2:
            raise TypeError(f"{where}: {name} must be a 2-D numpy array, got {type(a).__name__}")


def _shapes(where, x, Q, K, V):
    _arrays(where, x=x, Q=Q, K=K, V=V)
    if not (Q.shape == K.shape and K.shape[1] == x.shape[1] and V.shape[0] == K.shape[0]):
        raise ValueError(f"{where}: shapes x {x.shape}, Q {Q.shape}, K {K.shape}, V {V.shape} do not fit "
                         "(x n×d, Q and K m×d, V m×n_out)")


def key_value(x, K, V, sigma):
    """``σ(x Kᵀ) V`` for every row of ``x``."""
    _shapes("key_value", x, K, K, V)
    return activation_fn(sigma)(x @ K.T) @ V


def symmetric_rank1(x, Q, K, V, sigma):
    """``σ((x Qᵀ) ⊙ (x Kᵀ)) V``."""
    _shapes("symmetric_rank1", x, Q, K, V)
    return activation_fn(sigma)((x @ Q.T) * (x @ K.T)) @ V


def gated(x, Q, K, V, sigma):
    """``(σ(x Qᵀ) ⊙ (x Kᵀ)) V``."""
    _shapes("gated", x, Q, K, V)
    return (activation_fn(sigma)(x @ Q.T) * (x @ K.T)) @ V


def _scores(where, x, Qs, Ks, V):
    _arrays(where, x=x, V=V)
    if len(Qs) != len(Ks) or len(Qs) != V.shape[0]:
        raise ValueError(f"{where}: need one (Q_j, K_j) pair per row of V, got {len(Qs)}, {len(Ks)}, {V.shape[0]}")
    return np.stack([np.asarray(Qj) for Qj in Qs]), np.stack([np.asarray(Kj) for Kj in Ks])


def bilinear(x, Qs, Ks, V, sigma):
    """``Σ_j σ(x Q_j K_jᵀ xᵀ) v_j`` for every row of ``x`` (``Qs``, ``Ks``: m arrays of d×r)."""
    Qa, Ka = _scores("bilinear", x, Qs, Ks, V)
    # x Q_j K_jᵀ xᵀ = Σ_r (x Q_j)_r (x K_j)_r: two projections, then one product (a four-way einsum would loop)
    scores = np.einsum("njr,njr->nj", np.einsum("nd,jdr->njr", x, Qa), np.einsum("nd,jdr->njr", x, Ka))
    return activation_fn(sigma)(scores) @ V


def gated_rank_r(x, Qs, Ks, V, sigma):
    """``Σ_j (σ(x Q_j) · (x K_j)) v_j`` for every row of ``x``."""
    Qa, Ka = _scores("gated_rank_r", x, Qs, Ks, V)
    gate = activation_fn(sigma)(np.einsum("nd,jdr->njr", x, Qa))
    return np.einsum("njr,njr->nj", gate, np.einsum("nd,jdr->njr", x, Ka)) @ V


def relative_error(a, b) -> float:
    """``max |a - b| / max(|b|, tiny)``: how far two evaluations of one layer are apart."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return float(np.max(np.abs(a - b)) / max(float(np.max(np.abs(b))), np.finfo(float).tiny))


class Agreement(Statement):
    """Two evaluations of one layer compared in floating point: evidence (``checked``) within a tolerance, never proof.

    Its record carries the largest relative error and the tolerance; beyond the tolerance it is a failed claim
    (``unproven``, "differ by …"), and since it expects ``checked`` that fails the notebook.
    """

    kind = "numeric"

    def __init__(self, identifier, usual, ours, *, tolerance, statement, sizes, uses=(), title="", proves=()):
        where = f"agreement({identifier!r})"
        if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not 0 < tolerance < 1:
            raise ValueError(f"{where}: tolerance must be a relative error between 0 and 1, got {tolerance!r}")
        if not isinstance(statement, str) or not statement:
            raise TypeError(f"{where}: statement must be the LaTeX of what is compared, got {statement!r:.40}")
        if not isinstance(sizes, str) or not sizes:
            raise TypeError(f"{where}: sizes must say at which sizes, e.g. 'd=64, m=256', got {sizes!r:.40}")
        a, b = np.asarray(usual, dtype=float), np.asarray(ours, dtype=float)
        if a.shape != b.shape or a.size == 0:
            raise ValueError(f"{where}: the two evaluations have shapes {a.shape} and {b.shape}")
        super().__init__(identifier, uses=uses, expect=Verdict.CHECKED, title=title, proves=proves)
        self.statement, self.sizes, self.tolerance = statement, sizes, float(tolerance)
        self.error = relative_error(a, b) if np.all(np.isfinite(a)) and np.all(np.isfinite(b)) else math.inf
        if self.error <= self.tolerance:
            self._set(Verdict.CHECKED, Evidence(strategy="numeric", detail=(
                f"largest relative error {_magnitude(self.error)} within the tolerance {self.tolerance:g}")))
        else:
            self._set(Verdict.UNPROVEN, Evidence(strategy="numeric", detail=(
                f"the two evaluations differ: largest relative error {_magnitude(self.error)} beyond the tolerance "
                f"{self.tolerance:g}")))
        self._settle(Verdict.CHECKED)

    def body_tex(self) -> str:
        return self.statement

    def objects(self) -> list:
        return []

    def record(self, timings: bool = False) -> dict:
        out = super().record(timings)
        out.update(scope=self.sizes, error=_magnitude(self.error), tolerance=f"{self.tolerance:g}")
        return out


def _magnitude(e: float) -> str:
    return "< 1e-13" if e < 1e-13 else "inf" if e == math.inf else f"{e:.1g}"


def agreement(identifier, usual, ours, *, tolerance=1e-10, statement, sizes, uses=(), title="", proves=()) -> Agreement:
    """Compare two evaluations of a layer (arrays) within ``tolerance`` (largest error relative to ``ours``).

    >>> import numpy as np
    >>> ok = agreement("doc.agree", np.ones(3), np.ones(3) + 1e-15, statement="a = b", sizes="n=3")
    >>> ok.verdict.value, ok.record()["error"], ok.record()["tolerance"]
    ('checked', '< 1e-13', '1e-10')
    >>> agreement("doc.differ", np.ones(3), 2 * np.ones(3), statement="a = b", sizes="n=3")
    Traceback (most recent call last):
    ...
    derive.kernel.verdict.ExpectationError: claim doc.differ: expected checked, got unproven (the two evaluations differ: largest relative error 0.5 beyond the tolerance 1e-10)
    """
    return Agreement(identifier, usual, ours, tolerance=tolerance, statement=statement, sizes=sizes, uses=uses,
                     title=title, proves=proves)
