"""The entries of SymPy's permutation and companion matrices at symbolic indices, read exactly.

The kernel compares matrix expressions by their generic entry (i, j), which SymPy gives through each class's
``_entry``. Three of them decide at symbolic indices what they cannot know: a permutation matrix's entry is
``δ(p(i), j)``, which SymPy evaluates to 0 (it takes ``j − p(i)`` for nonzero, ``p(i)`` not being known real), so
that ``P = 0`` and ``P·X = 0`` were proved for a permutation matrix P; the rows or columns of a matrix permuted
(``MatrixPermute``) are read at ``p(i)`` the same way; and a companion matrix compares its indices as written
(``j == cols − 1``), which is false for symbols, so that every entry read 0. While derive is imported
(:func:`install`) each is written out at symbolic indices over the permutation's points, one δ per point
(``Σ_k δ(i, k)·δ(p(k), j)``), and a companion matrix over its explicit entries; at integer indices SymPy's reading,
exact there, stands. A matrix permuted whose size is not the permutation's keeps its entry unread.

>>> import sympy as sp
>>> install()
>>> i, j = sp.symbols("i j", integer=True)
>>> P = sp.PermutationMatrix(sp.combinatorics.Permutation([1, 0]))
>>> P[i, j]
KroneckerDelta(0, i)*KroneckerDelta(1, j) + KroneckerDelta(0, j)*KroneckerDelta(1, i)
>>> P[0, 1], P[0, 0]
(1, 0)
"""
from __future__ import annotations

import sympy as sp
from sympy.matrices.expressions import companion as _companion
from sympy.matrices.expressions import permutation as _permutation
from sympy.matrices.expressions.matexpr import MatrixElement

__all__ = ["install"]

_SYMPY: dict = {}


def _at_integers(i, j) -> bool:
    return bool(sp.sympify(i).is_Integer and sp.sympify(j).is_Integer)


def _permutation_entry(self, i, j, **kwargs):
    if _at_integers(i, j):
        return _SYMPY["permutation"](self, i, j, **kwargs)
    perm = self.args[0]
    return sp.Add(*[sp.KroneckerDelta(i, k) * sp.KroneckerDelta(perm.apply(k), j) for k in range(perm.size)])


def _permuted_entry(self, i, j, **kwargs):
    if _at_integers(i, j):
        return _SYMPY["permute"](self, i, j, **kwargs)
    mat, perm, axis = self.args
    if sp.sympify(mat.shape[int(axis)]) != perm.size:
        return MatrixElement(self, i, j)
    if axis == 0:
        return sp.Add(*[sp.KroneckerDelta(i, k) * mat[perm.apply(k), j] for k in range(perm.size)])
    return sp.Add(*[sp.KroneckerDelta(j, k) * mat[i, perm.apply(k)] for k in range(perm.size)])


def _companion_entry(self, i, j, **kwargs):
    if _at_integers(i, j):
        return _SYMPY["companion"](self, i, j)
    C = self.as_explicit()
    return sp.Add(*[sp.KroneckerDelta(i, a) * sp.KroneckerDelta(j, b) * C[a, b]
                    for a in range(C.rows) for b in range(C.cols) if C[a, b] != 0])


def install() -> None:
    """Read those entries exactly (once, when derive is imported)."""
    if _SYMPY:
        return
    _SYMPY.update(permutation=_permutation.PermutationMatrix._entry, permute=_permutation.MatrixPermute._entry,
                  companion=_companion.CompanionMatrix._entry)
    _permutation.PermutationMatrix._entry = _permutation_entry
    _permutation.MatrixPermute._entry = _permuted_entry
    _companion.CompanionMatrix._entry = _companion_entry
