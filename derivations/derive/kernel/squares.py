"""SymPy's rules for traces, inverses, determinants and powers of matrix expressions, kept to where they hold.

Several of SymPy's rules take a matrix for square, or an exponent for positive, without knowing it: they are right
for the matrices their authors had in mind, and wrong for an n×m matrix whose sizes may differ, or at an exponent 0.
The kernel refuses such a part where a statement writes it (:func:`derive.kernel.wellformed.check_statement`), but
SymPy also reaches one while it evaluates: ``tr((A ⊗ B)ᵀ)`` evaluates the transpose to a Kronecker product, whose
trace SymPy then gives as ``tr A · tr B``; ``(A − A)ᵏ`` evaluates its base to the zero matrix, whose power SymPy
gives as the zero matrix. While derive is imported (:func:`install`) these rules apply only where they hold:

* ``tr(A ⊗ B ⊗ …)`` is ``tr A · tr B ⋯`` and ``(A ⊗ B)⁻¹`` is ``A⁻¹ ⊗ B⁻¹`` only for factors known square (an n×m A
  and an m×n B make an nm×nm product whose trace is not tr A · tr B: at n = 2, m = 3, A = E₁₁ and B = E₂₂ it is 1
  beside 0 for B ⊗ A);
* ``0ₙᵏ = 0ₙ`` and ``1ₙᵏ = nᵏ⁻¹ 1ₙ`` only for an exponent known to be a positive integer (both are ``Iₙ`` at k = 0);
* the determinant of a block-diagonal matrix is the product of its blocks' only when each block is known square,
  and 0 only when one is known not square; SymPy gave 0 wherever it did not know (an n×m block beside an m×n one,
  which are square at n = m); its inverse likewise;
* the diagonal matrix of a vector SymPy knows diagonal is that vector only for a square one: ``diag(0ₙₓ₁)``, the
  n×n zero matrix, became the n×1 column (and ``exp`` of it a column of ones, so ``exp(diag 0ₙₓ₁)·1 = 1`` was proved,
  where it is ``n·1``).

Elsewhere the expression is left as it is.

>>> import sympy as sp
>>> install()
>>> n, m = sp.symbols("n m", integer=True, positive=True)
>>> k = sp.Symbol("k", integer=True, nonnegative=True)
>>> A, B = sp.MatrixSymbol("A", n, m), sp.MatrixSymbol("B", m, n)
>>> sp.Trace(sp.Transpose(sp.KroneckerProduct(A, B))).doit()
Trace(KroneckerProduct(A.T, B.T))
>>> sp.MatPow(sp.ZeroMatrix(n, n), k).doit(), sp.MatPow(sp.ZeroMatrix(n, n), k + 1).doit()
(0**k, 0)
"""
from __future__ import annotations

import sympy as sp
from sympy.matrices.expressions import blockmatrix as _blockmatrix
from sympy.matrices.expressions import diagonal as _diagonal
from sympy.matrices.expressions import kronecker as _kronecker
from sympy.matrices.expressions import special as _special

__all__ = ["install", "known_square"]


def known_square(matrix) -> bool | None:
    """Whether ``matrix`` is square for every value of its sizes (``True``), for none (``False``), or for some."""
    rows, cols = matrix.shape
    d = sp.expand(sp.sympify(rows) - sp.sympify(cols))
    return True if d == 0 else (False if d.is_zero is False else None)


def _kronecker_trace(self):
    if all(known_square(a) for a in self.args):
        return _SYMPY["kronecker_trace"](self)
    return None  # (Trace.doit keeps the trace)


def _kronecker_inverse(self):
    if all(known_square(a) for a in self.args):
        return _SYMPY["kronecker_inverse"](self)
    return sp.Inverse(self)


def _positive_integer(exp) -> bool:
    return bool(sp.sympify(exp).is_integer and sp.sympify(exp).is_positive)


def _zero_power(self, exp):
    if _positive_integer(exp) or (sp.sympify(exp) < 0) == True:  # (SymPy's: a negative one has no value, it raises)
        return _SYMPY["zero_power"](self, exp)
    return sp.MatPow(self, exp)


def _ones_power(self, exp):
    if _positive_integer(exp) or self._is_1x1() == True or (sp.sympify(exp) < 0) == True:
        return _SYMPY["ones_power"](self, exp)
    return sp.MatPow(self, exp)


def _diag_matrix_doit(self, **hints):
    vector = self._vector
    if known_square(vector) is True or not sp.ask(sp.Q.diagonal(vector)):
        return _SYMPY["diag_doit"](self, **hints)
    if isinstance(vector, sp.MatrixBase):  # (SymPy would give the vector back: its diagonal matrix, written out)
        n = max(vector.shape)
        return sp.ImmutableMatrix(n, n, lambda r, c: vector[r] if r == c else 0)
    return self.func(vector)


def _block_diagonal(known, unknown):
    def read(self, *args, **kwargs):
        square = [known_square(block) for block in self.args]
        if all(square):
            return known(self, *args, **kwargs)
        if False in square:  # (then the whole, square as it must be, has a rank below its size)
            return _SYMPY[unknown](self, *args, **kwargs)
        return sp.Determinant(self) if unknown == "block_det" else sp.Inverse(self)
    return read


_SYMPY: dict = {}


def install() -> None:
    """Keep the rules above to where they hold (once, when derive is imported)."""
    if _SYMPY:
        return
    diag = _blockmatrix.BlockDiagMatrix
    _SYMPY.update(kronecker_trace=_kronecker.KroneckerProduct._eval_trace,
                  kronecker_inverse=_kronecker.KroneckerProduct._eval_inverse,
                  zero_power=_special.ZeroMatrix._eval_power, ones_power=_special.OneMatrix._eval_power,
                  block_det=diag._eval_determinant, block_inverse=diag._eval_inverse,
                  diag_doit=_diagonal.DiagMatrix.doit)
    _diagonal.DiagMatrix.doit = _diag_matrix_doit
    _kronecker.KroneckerProduct._eval_trace = _kronecker_trace
    _kronecker.KroneckerProduct._eval_inverse = _kronecker_inverse
    _special.ZeroMatrix._eval_power = _zero_power
    _special.OneMatrix._eval_power = _ones_power
    diag._eval_determinant = _block_diagonal(lambda self: sp.Mul(*[sp.det(b) for b in self.args]), "block_det")
    diag._eval_inverse = _block_diagonal(lambda self, expand="ignored": diag(*[b.inverse() for b in self.args]),
                                         "block_inverse")
