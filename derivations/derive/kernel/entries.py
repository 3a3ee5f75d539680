"""The entries of SymPy's permutation and companion matrices at symbolic indices, read exactly.

The kernel compares matrix expressions by their generic entry (i, j), which SymPy gives through each class's
``_entry``. Three of them decide at symbolic indices what they cannot know: a permutation matrix's entry is
``δ(p(i), j)``, which SymPy evaluates to 0 (it takes ``j − p(i)`` for nonzero, ``p(i)`` not being known real), so
that ``P = 0`` and ``P·X = 0`` were proved for a permutation matrix P; the rows or columns of a matrix permuted
(``MatrixPermute``) are read at ``p(i)`` the same way; and a companion matrix compares its indices as written
(``j == cols − 1``), which is false for symbols, so that every entry read 0. While derive is imported
(:func:`install`) each is written out at symbolic indices over the permutation's points, one δ per point
(``Σ_k δ(i, k)·δ(p(k), j)``), and a companion matrix over its explicit entries, each δ of the matrix's range, so that
an index outside it is an entry read outside the matrix, never a 0; at integer indices SymPy's reading, exact
there, stands. A matrix permuted whose size is not a number, or not the permutation's, keeps its entry unread.

>>> import sympy as sp
>>> install()
>>> i, j = sp.symbols("i j", integer=True)
>>> P = sp.PermutationMatrix(sp.combinatorics.Permutation([1, 0]))
>>> P[i, j]
KroneckerDelta(0, i, (0, 1))*KroneckerDelta(1, j, (0, 1)) + KroneckerDelta(0, j, (0, 1))*KroneckerDelta(1, i, (0, 1))
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


def _delta(index, k, size):
    """``δ(index, k)`` of the range of a matrix's ``size`` rows (or columns): the kernel reads an index outside it as an
    entry read outside its matrix (:func:`derive.kernel.wellformed.refuse_outside`), never as a 0."""
    return sp.KroneckerDelta(index, k, (0, size - 1))


def _permutation_entry(self, i, j, **kwargs):
    if _at_integers(i, j):
        return _SYMPY["permutation"](self, i, j, **kwargs)
    perm, n = self.args[0], self.args[0].size
    return sp.Add(*[_delta(i, k, n) * _delta(j, perm.apply(k), n) for k in range(n)])


def _permuted_entry(self, i, j, **kwargs):
    if _at_integers(i, j):
        return _SYMPY["permute"](self, i, j, **kwargs)
    mat, perm, axis = self.args
    rows, cols = mat.shape
    if not (sp.sympify(rows).is_Integer and sp.sympify(cols).is_Integer) or mat.shape[int(axis)] != perm.size:
        return MatrixElement(self, i, j)
    if axis == 0:  # (the other index stays in its entry of mat, read inside mat as any entry is)
        return sp.Add(*[_delta(i, k, rows) * mat[perm.apply(k), j] for k in range(rows)])
    return sp.Add(*[_delta(j, k, cols) * mat[i, perm.apply(k)] for k in range(cols)])


def _companion_entry(self, i, j, **kwargs):
    if _at_integers(i, j):
        return _SYMPY["companion"](self, i, j)
    C = self.as_explicit()
    return sp.Add(*[_delta(i, a, C.rows) * _delta(j, b, C.cols) * C[a, b]
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
