"""The layers of the paper as SymPy expressions.

Explicit matrices give explicit 1×n rows (component-wise statements at a concrete size); matrix symbols give
matrix expressions (dimension-free statements). ``x`` is a 1×d row, ``Q, K`` are m×d, ``V`` is m×n; the
bilinear forms take sequences of d×r matrices ``Qs, Ks``, one pair per unit.
"""
from __future__ import annotations

import functools

import sympy as sp
from sympy.matrices.expressions import MatrixExpr
from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction

from ._validate import require_function, require_matrix

__all__ = [
    "key_value",
    "bilinear",
    "symmetric_rank1",
    "gated",
    "gated_rank_r",
    "elementwise",
    "hadamard",
]


@functools.lru_cache(maxsize=None)
def _as_lambda(sigma):
    """One fixed Lambda per function: ``ElementwiseApplyFunction`` would wrap a class in a fresh one each call."""
    if isinstance(sigma, sp.Lambda):
        return sigma
    t = sp.Dummy("t", real=True)
    return sp.Lambda(t, sigma(t))


def _symbolic(*mats) -> bool:
    return any(isinstance(m, MatrixExpr) and not isinstance(m, sp.MatrixBase) for m in mats)


def elementwise(sigma, M):
    """σ applied to every entry of ``M`` (explicit) or as an ``ElementwiseApplyFunction`` (symbolic).

    >>> import sympy as sp
    >>> from derive import activation, row
    >>> from derive.forms import elementwise
    >>> elementwise(activation("relu"), row("x", 2))
    Matrix([[Max(0, x_1), Max(0, x_2)]])
    """
    sigma = require_function("elementwise", "sigma", sigma)
    if _symbolic(M):
        return ElementwiseApplyFunction(_as_lambda(sigma), M)
    require_matrix("elementwise", "M", M)
    return sp.ImmutableMatrix(M.shape[0], M.shape[1], [sigma(e) for e in M])


def hadamard(A, B):
    """The elementwise product ``A ⊙ B``.

    >>> from derive import row
    >>> from derive.forms import hadamard
    >>> hadamard(row("a", 2), row("b", 2))
    Matrix([[a_1*b_1, a_2*b_2]])
    """
    if _symbolic(A, B):
        return sp.HadamardProduct(A, B)
    require_matrix("hadamard", "A", A)
    require_matrix("hadamard", "B", B, *A.shape)
    return sp.ImmutableMatrix(A.shape[0], A.shape[1], [a * b for a, b in zip(A, B)])


def _check_layer(where, x, Q, K, V, sigma):
    _, d = require_matrix(where, "x", x, rows=1)
    m, _ = require_matrix(where, "K", K, cols=d)
    if Q is not None:
        require_matrix(where, "Q", Q, rows=m, cols=d)
    require_matrix(where, "V", V, rows=m)
    require_function(where, "sigma", sigma)


def key_value(x, K, V, sigma):
    """The standard MLP read as memory: ``σ(x Kᵀ) V`` -- keys are the rows of K, values the rows of V.

    >>> from derive import activation, row, matrix
    >>> from derive.forms import key_value
    >>> key_value(row("x", 1), matrix("K", 1, 1), matrix("V", 1, 1), activation("identity"))
    Matrix([[K_{1,1}*V_{1,1}*x_1]])
    """
    _check_layer("key_value", x, None, K, V, sigma)
    return _product(elementwise(sigma, x * K.T), V)


def symmetric_rank1(x, Q, K, V, sigma):
    """The symmetric rank-1 form ``S = σ((x Qᵀ) ⊙ (x Kᵀ)) V``: σ applied to the product of both factors.

    >>> from derive import activation, row, matrix
    >>> from derive.forms import symmetric_rank1
    >>> symmetric_rank1(row("x", 1), matrix("Q", 1, 1), matrix("K", 1, 1), matrix("V", 1, 1), activation("relu"))
    Matrix([[V_{1,1}*Max(0, K_{1,1}*Q_{1,1}*x_1**2)]])
    """
    _check_layer("symmetric_rank1", x, Q, K, V, sigma)
    return _product(elementwise(sigma, hadamard(x * Q.T, x * K.T)), V)


def gated(x, Q, K, V, sigma):
    """The gated MLP ``G = (σ(x Qᵀ) ⊙ (x Kᵀ)) V``: σ on the gate factor only (ReGLU, GEGLU, SwiGLU).

    >>> from derive import activation, row, matrix
    >>> from derive.forms import gated
    >>> gated(row("x", 1), matrix("Q", 1, 1), matrix("K", 1, 1), matrix("V", 1, 1), activation("relu"))
    Matrix([[K_{1,1}*V_{1,1}*x_1*Max(0, Q_{1,1}*x_1)]])
    """
    _check_layer("gated", x, Q, K, V, sigma)
    return _product(hadamard(elementwise(sigma, x * Q.T), x * K.T), V)


def _check_units(where, x, Qs, Ks, V, sigma):
    _, d = require_matrix(where, "x", x, rows=1)
    for name, seq in (("Qs", Qs), ("Ks", Ks)):
        if not isinstance(seq, (list, tuple)):
            raise TypeError(f"{where}: {name} must be a list or tuple of d×r matrices, got {type(seq).__name__}")
    if len(Qs) != len(Ks) or not Qs:
        raise ValueError(f"{where}: Qs and Ks must be non-empty and of equal length, got {len(Qs)} and {len(Ks)}")
    _, r = require_matrix(where, "Qs[0]", Qs[0], rows=d)
    for j, (Qj, Kj) in enumerate(zip(Qs, Ks)):
        require_matrix(where, f"Qs[{j}]", Qj, rows=d, cols=r)
        require_matrix(where, f"Ks[{j}]", Kj, rows=d, cols=r)
    require_matrix(where, "V", V, rows=len(Qs))
    require_function(where, "sigma", sigma)


def bilinear(x, Qs, Ks, V, sigma):
    """Bilinear attention: ``Σ_j σ(x Q_j K_jᵀ xᵀ) v_j`` with per-unit d×r query and key maps.

    >>> from derive import activation, row, matrix
    >>> from derive.forms import bilinear
    >>> x = row("x", 1)
    >>> bilinear(x, [matrix("Q", 1, 1)], [matrix("K", 1, 1)], matrix("V", 1, 1), activation("identity"))
    Matrix([[K_{1,1}*Q_{1,1}*V_{1,1}*x_1**2]])
    """
    _check_units("bilinear", x, Qs, Ks, V, sigma)
    scores = [(x * Qj * Kj.T * x.T)[0, 0] for Qj, Kj in zip(Qs, Ks)]
    return _weighted_rows(sigma, scores, V)


def gated_rank_r(x, Qs, Ks, V, sigma):
    """The gated rank-r form: ``Σ_j (σ(x Q_j) (x K_j)ᵀ) v_j`` -- σ on the query side of each unit.

    >>> from derive import activation, row, matrix
    >>> from derive.forms import gated_rank_r
    >>> x = row("x", 1)
    >>> gated_rank_r(x, [matrix("Q", 1, 1)], [matrix("K", 1, 1)], matrix("V", 1, 1), activation("relu"))
    Matrix([[K_{1,1}*V_{1,1}*x_1*Max(0, Q_{1,1}*x_1)]])
    """
    _check_units("gated_rank_r", x, Qs, Ks, V, sigma)
    if _symbolic(x, *Qs, *Ks, V):
        raise TypeError("gated_rank_r: needs explicit matrices (sympy.Matrix), not matrix symbols")
    scores = [(elementwise(sigma, x * Qj) * (x * Kj).T)[0, 0] for Qj, Kj in zip(Qs, Ks)]
    return _weighted_rows(None, scores, V)


def _weighted_rows(sigma, scores, V):
    if _symbolic(V):
        raise TypeError("bilinear forms need an explicit V (sympy.Matrix), not a matrix symbol")
    weights = [sigma(s) if sigma is not None else s for s in scores]
    return sp.ImmutableMatrix(1, len(weights), weights) * V


def _product(A, B):
    if _symbolic(A, B):
        return A * B
    return sp.ImmutableMatrix(A * B)
