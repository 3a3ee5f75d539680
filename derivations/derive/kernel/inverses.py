"""Matrix inverses, and every other part that needs a value, stay where they are written.

SymPy cancels an inverse against its base as it builds a product (``A*A.I`` is ``I``, ``A.I*A*B`` is ``B``,
``A**2*A.I`` is ``A``) and a double inverse (``A.I.I`` is ``A``), so a claim would never see that its
statement needs ``A`` to be invertible, and ``A*A.I = I`` would be "proved" for every square ``A``, singular
ones included; ``A.I - A.I`` and ``0*A.I`` are the zero matrix in the same way, and ``(A**2)**(1/2)`` is ``A``
(false at ``A = -I``). While derive is imported, SymPy keeps what it is given: powers of one base are merged only
for integer exponents of one sign (``A*A**2`` is ``A**3``, ``A.I*A.I`` is ``A**-2``, ``A**(1/2)*A**(1/2)``
stays), no canonicalisation of a product, sum, Hadamard or Kronecker product is applied where it would lose a
part that needs a value (an inverse, a fractional or negative power, a pole of an applied function, a scalar
divisor: ``0*A.I`` stays ``0·A⁻¹``), ``(A^a)^b`` is ``A^(ab)`` only for an integer ``b``, and ``A.I.I`` stays
``(A⁻¹)⁻¹``. The statement a claim receives is then the one written, and the definedness check
(:mod:`derive.kernel.wellformed`) asks ``Q.invertible(A)`` for each inverse in it.

The kernel cancels inverses only inside :func:`cancelling`, which it enters once that check has passed, that is
once the assumptions make every inverse of the statement invertible; SymPy's own rules then apply unchanged.

>>> import derive, sympy as sp
>>> n = sp.Symbol("n", integer=True, positive=True)
>>> A = sp.MatrixSymbol("A", n, n)
>>> A * A.I
A*A**(-1)
>>> with cancelling():
...     print(A * A.I)
I
>>> print(derive.claim("doc.inverse", A * A.I, sp.Identity(n)).prove().evidence.detail)
needs Q.invertible(A), which neither the symbols' assumptions nor assume give (a divisor must be nonzero, the matrix of an inverse invertible)
>>> derive.claim("doc.inverse_ok", A * A.I, sp.Identity(n), assume=[sp.Q.invertible(A)]).prove().verdict.value
'proved'

A determinant SymPy gives for every size as if the size were at least 1 (``det 0 = 0`` for the zero matrix and
``det J = 0`` for the matrix of ones) is read with its empty case where the size may be 0: the determinant of the
0×0 matrix is 1 (:func:`with_empty_case`).

SymPy's scalar arithmetic is left as it is: ``x/x`` is ``1`` and ``0/x`` is ``0`` before any claim sees them
(build such a side under ``with sympy.evaluate(False):`` to have its divisor checked). What a claim shows on the
page is always the statement it received.
"""
from __future__ import annotations

import contextlib

import sympy as sp
from sympy.matrices.expressions import hadamard as _hadamard
from sympy.matrices.expressions import inverse as _inverse
from sympy.matrices.expressions import kronecker as _kronecker
from sympy.matrices.expressions import matadd as _matadd
from sympy.matrices.expressions import matmul as _matmul
from sympy.matrices.expressions import matpow as _matpow
from sympy.matrices.expressions.matexpr import MatrixElement
from sympy.strategies import do_one, exhaust, typed

_SYMPY_COMBINE = _matmul.combine_powers
_SYMPY_ZEROS = _matmul.any_zeros
_SYMPY_DOUBLE_INVERSE = _inverse.Inverse._eval_inverse
_SYMPY_INVERSE_DET = _inverse.Inverse._eval_determinant
_SYMPY_POW_ENTRY = _matpow.MatPow._entry
_SYMPY_ONES_DET = sp.OneMatrix._eval_determinant
_depth = [0]  # how many `cancelling()` blocks are open


@contextlib.contextmanager
def cancelling():
    """SymPy's own rules, which cancel ``X X⁻¹``, for the kernel once every inverse is known invertible."""
    _depth[0] += 1
    try:
        yield
    finally:
        _depth[0] -= 1


_walking = [False]  # inside a definedness walk: the expressions it builds are not checked again


def needs(expr) -> set:
    """What ``expr`` needs to have a value: its divisors and the parts whose value must be ``defined(…)``, as the
    definedness check (:func:`derive.kernel.wellformed.denominators`) finds them: inverses, negative and fractional
    matrix powers, negative Hadamard powers, poles of the functions it applies, scalar divisors."""
    if not isinstance(expr, sp.Basic) or _walking[0] or expr.is_Atom:
        return set()
    from . import wellformed

    _walking[0] = True
    try:
        return set(wellformed.denominators(expr))
    except (TypeError, ValueError, AttributeError, RecursionError):
        return {expr}  # cannot tell: as if it needed everything (nothing is then dropped from it)
    finally:
        _walking[0] = False


def _power(factor):
    if isinstance(factor, sp.MatPow):
        return factor.args
    return factor, sp.S.One


def _one_sign(p, q) -> bool:
    """Integer exponents of one sign: ``A^p A^q = A^(p+q)`` then loses nothing (``A^½ A^½`` needs ``A^½``)."""
    if not (p.is_integer and q.is_integer):
        return False
    return (p.is_nonnegative and q.is_nonnegative) or (p.is_negative and q.is_negative) or False


def _keep_inverses(mul):
    """``combine_powers`` without cancelling: ``A^p A^q`` is merged only when ``p`` and ``q`` have one sign."""
    if _depth[0]:
        return _SYMPY_COMBINE(mul)
    factor, args = mul.as_coeff_matrices()
    merged = [args[0]]
    for right in args[1:]:
        left = merged[-1]
        (base_l, p), (base_r, q) = _power(left), _power(right)
        if left.is_square is not False and base_l == base_r and _one_sign(p, q):
            merged[-1] = sp.MatPow(base_l, p + q).doit(deep=False)
        else:
            merged.append(right)
    return _matmul.newmul(factor, *merged)


def _keep_zero_products(mul):
    """``any_zeros`` without dropping an inverse: ``0·A⁻¹`` is zero only where ``A⁻¹`` exists (at any depth)."""
    out = _SYMPY_ZEROS(mul)
    if _depth[0] or out is mul or not needs(mul):
        return out
    return mul


def _keeping(canonicalize):
    """A canonicalisation that is not applied where it would lose an inverse (``A⁻¹ ⊙ 0 → 0``)."""
    def keep(expr):
        out = canonicalize(expr)
        if _depth[0] or out is expr:
            return out
        before = needs(expr)
        return out if before <= needs(out) else expr
    keep.sympy = canonicalize
    return keep


def _matpow_doit(self, **hints):
    """``MatPow.doit``: ``(A^a)^b`` is ``A^(ab)`` only for an integer ``b`` (a fractional power of a power is no
    power of ``A``: ``((-1)²)^½ = 1``), and while inverses are kept, only for an integer ``a ≥ 0`` (``(A^½)²``
    keeps the need for ``A^½``); ``X⁰`` is ``I`` unless ``X`` needs something to have a value."""
    if hints.get("deep", True):
        base, exp = (arg.doit(**hints) for arg in self.args)
    else:
        base, exp = self.args
    while isinstance(base, sp.MatPow) and exp.is_integer and (
            _depth[0] or (base.args[1].is_nonnegative and base.args[1].is_integer)):
        exp *= base.args[1]
        base = base.args[0]
    if isinstance(base, sp.MatPow) and not exp.is_integer:
        return sp.MatPow(base, exp)
    if isinstance(base, sp.MatrixBase):
        return base ** exp
    if exp == sp.S.One:
        return base
    if exp == sp.S.Zero:
        return sp.Identity(base.rows) if _depth[0] or not needs(base) else sp.MatPow(base, exp)
    if exp == sp.S.NegativeOne:
        return _inverse.Inverse(base).doit(**hints)
    eval_power = getattr(base, "_eval_power", None)
    if eval_power is not None:
        return eval_power(exp)
    return sp.MatPow(base, exp)


def _pow_entry(self, i, j, **kwargs):
    """An entry of a power that inverts stays an entry of it (SymPy would write out the inverse, whose entries
    then cancel as fractions: ``A₀₀ · (1/A₀₀) = 1`` for a 1×1 ``A``)."""
    if not _depth[0] and needs(self):
        return MatrixElement(self, i, j)
    return _SYMPY_POW_ENTRY(self, i, j, **kwargs)


def _zero_times_inverse(method, unevaluated):
    """A method of ``MatMul`` (its trace, determinant, entry) that leaves ``0 · (… A⁻¹ …)`` unevaluated: the
    scalar zero would absorb the inverse."""
    def keep(self, *args, **kwargs):
        if not _depth[0] and self.as_coeff_matrices()[0] == 0 and needs(self):
            return unevaluated(self, *args)
        return method(self, *args, **kwargs)
    return keep


def _inverse_det(self):
    return _SYMPY_INVERSE_DET(self) if _depth[0] else sp.Determinant(self)


def _double_inverse(self):
    return _SYMPY_DOUBLE_INVERSE(self) if _depth[0] else _inverse.Inverse(self)


def with_empty_case(value, size):
    """``value``, the determinant SymPy gives a square matrix of ``size`` rows as if it had one, read with the empty
    case: the 0×0 matrix has determinant 1 (the empty product). A size known positive keeps ``value``.

    >>> k = sp.Symbol("k", integer=True, nonnegative=True)
    >>> sp.det(sp.ZeroMatrix(k, k))
    Piecewise((1, Eq(k, 0)), (0, True))
    >>> sp.det(sp.ZeroMatrix(k + 1, k + 1))
    0
    """
    size = sp.sympify(size)
    if size.is_positive:
        return value
    if size.is_zero:
        return sp.S.One
    return sp.Piecewise((sp.S.One, sp.Eq(size, 0)), (value, True))


def _zero_det(self):
    return with_empty_case(sp.S.Zero, self.rows)


def _ones_det(self):
    value = _SYMPY_ONES_DET(self)  # 1 when known 1×1, 0 when known not 1×1, else unevaluated
    return with_empty_case(value, self.rows) if value == 0 else value


def install():
    """Make SymPy keep the inverses it is given, and read a size that may be 0 with its empty case (done once,
    when derive is imported)."""
    if _matmul.combine_powers is _keep_inverses:
        return
    sp.ZeroMatrix._eval_determinant = _zero_det  # SymPy: 0 for every size, but det of the 0×0 matrix is 1
    sp.OneMatrix._eval_determinant = _ones_det
    ours = {_SYMPY_COMBINE: _keep_inverses, _SYMPY_ZEROS: _keep_zero_products}
    _matmul.combine_powers, _matmul.any_zeros = _keep_inverses, _keep_zero_products
    _matmul.rules = tuple(ours.get(rule, rule) for rule in _matmul.rules)
    _matmul.canonicalize = _keeping(exhaust(typed({_matmul.MatMul: do_one(*_matmul.rules)})))
    for module in (_matadd, _hadamard, _kronecker):
        module.canonicalize = _keeping(module.canonicalize)
    _matmul.MatMul._eval_trace = _zero_times_inverse(_matmul.MatMul._eval_trace, sp.Trace)
    _matmul.MatMul._eval_determinant = _zero_times_inverse(_matmul.MatMul._eval_determinant, sp.Determinant)
    _matmul.MatMul._entry = _zero_times_inverse(_matmul.MatMul._entry, lambda self, i, j: MatrixElement(self, i, j))
    _matpow.MatPow.doit = _matpow_doit
    _matpow.MatPow._entry = _pow_entry
    _inverse.Inverse._eval_inverse = _double_inverse
    _inverse.Inverse._eval_determinant = _inverse_det
