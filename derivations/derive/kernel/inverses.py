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
``block_collapse`` called by name applies them too (:func:`_collapsing`): a rewriting asked for, like ``simplify``.

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
import functools

import sympy as sp
from sympy.matrices.expressions import blockmatrix as _blockmatrix
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
_SYMPY_BC_INVERSE = _blockmatrix.bc_inverse
_depth = [0]  # how many `cancelling()` blocks are open
_holding = [0]  # how many entries of expressions whose parts may cancel against each other are being written out


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
    return set(_needs(expr))


@functools.lru_cache(maxsize=8192)
def _needs(expr) -> frozenset:
    """:func:`needs`, once per expression (a statement's parts are asked again each time it is printed, as
    SymPy's printer negates a product to see its sign): it depends on the expression alone."""
    from . import wellformed

    _walking[0] = True
    try:
        return frozenset(wellformed.denominators(expr))
    except (TypeError, ValueError, AttributeError, RecursionError):
        return frozenset({expr})  # cannot tell: as if it needed everything (nothing is then dropped from it)
    finally:
        _walking[0] = False


def _invertible_part(need, any_power=False):
    """The matrix whose invertibility ``need`` comes to: a transpose, an inverse or a nonzero integer power of a
    square ``X`` is invertible exactly where ``X`` is; with ``any_power``, a power ``X^k`` of any integer ``k`` is
    read as ``X`` (invertible where ``X`` is: ``X⁰ = I``), a need that says more, not less."""
    while isinstance(need, (sp.Transpose, sp.Adjoint, sp.MatPow)) and need.is_square is not False:
        if isinstance(need, sp.MatPow) and not (need.exp.is_integer and (any_power or need.exp.is_nonzero)):
            break
        need = need.args[0]
    return need


def _covers(after, before) -> bool:
    """Whether an expression that needs ``after`` needs all that one needing ``before`` does."""
    if before <= after:
        return True
    return {_invertible_part(need, any_power=True) for need in before} <= {_invertible_part(need) for need in after}


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
    """``combine_powers`` without cancelling: SymPy's merge where it loses nothing that needs a value
    (``A² A⁻³ = A⁻¹``, ``DFT·IDFT = I``), else ``A^p A^q`` merged only when ``p`` and ``q`` have one sign."""
    out = _SYMPY_COMBINE(mul)
    if _depth[0] or out is mul or _covers(needs(out), needs(mul)):
        return out
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
    if _depth[0] or out is mul:
        return out
    kept = needs(mul)
    if not kept:
        return out
    return _zero_needing(mul, kept)


def _zero_needing(mul, kept):
    """One form for a square zero that needs only matrices of its size invertible: ``0·X⁻¹·Y⁻¹``, its matrices
    in order (``0·Bᵀ·(Cᵀ)⁻¹`` and ``0·B·C⁻¹`` are one zero, defined where ``C`` is invertible)."""
    parts = {_invertible_part(need) for need in kept}
    if not all(isinstance(part, sp.MatrixExpr) and part.shape == mul.shape and mul.is_square for part in parts):
        return mul
    form = _matmul.MatMul(sp.S.Zero, *[sp.Inverse(part) for part in sorted(parts, key=sp.default_sort_key)])
    return form if form != mul and _covers(needs(form), kept) else mul


def _keeping(canonicalize, first=None):
    """A canonicalisation that is not applied where it would lose an inverse (``A⁻¹ ⊙ 0 → 0``); ``first``, a rule
    applied before it (with the same proviso)."""
    def keep(expr):
        out = canonicalize(expr if first is None or _depth[0] else first(expr))
        if first is not None and not _depth[0]:
            out = first(out)
        if _depth[0] or out is expr:
            return out
        return out if _covers(needs(out), needs(expr)) else expr
    keep.sympy = canonicalize
    return keep


def _drop_zero_terms(add):
    """A term of a sum that is zero wherever it is defined (``0·log(i)·A``) is dropped when the other terms need
    all it needs (``1/i·B`` does): the sum is then defined only where the term is zero."""
    if not isinstance(add, sp.MatAdd):
        return add
    terms = list(add.args)
    for term in sorted(terms, key=sp.default_sort_key, reverse=True):  # of zero terms alike, the least is kept
        if not isinstance(term, sp.MatMul) or not isinstance(_SYMPY_ZEROS(term), sp.ZeroMatrix):
            continue
        rest = [other for other in terms if other is not term]
        if rest and _covers(needs(sp.MatAdd(*rest)), needs(term)):
            terms = rest
    return add if len(terms) == len(add.args) else sp.MatAdd(*terms)


def _matpow_doit(self, **hints):
    """``MatPow.doit``: ``(A^a)^b`` is ``A^(ab)`` only for an integer ``b`` (a fractional power of a power is no
    power of ``A``: ``((-1)²)^½ = 1``), and while inverses are kept, only for an integer ``a`` where ``A^(ab)``
    needs all that ``(A^a)^b`` needs (``(A^½)²`` keeps the need for ``A^½``, ``(A⁻²)⁻³`` the need for ``A⁻¹``);
    ``X⁰`` is ``I`` unless ``X`` needs something to have a value."""
    if hints.get("deep", True):
        base, exp = (arg.doit(**hints) for arg in self.args)
    else:
        base, exp = self.args
    while isinstance(base, sp.MatPow) and exp.is_integer and base.args[1].is_integer:
        if not _depth[0] and not _covers(needs(sp.MatPow(base.args[0], exp * base.args[1])), needs(sp.MatPow(base, exp))):
            break  # (A⁻²)⁻³ is no A⁶ where A is singular; (A⁻¹)³ = A⁻³ and (A^l)^k = A^(lk) need what they needed
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
    """An entry of a power that inverts is written out as SymPy writes it (``(X⁻¹)₀₁ = -X₀₁/det X``) except inside
    an entry of an expression whose other parts may cancel it: there it stays an entry of the power (SymPy would
    write out the inverse, whose entries then cancel as fractions: ``A₀₀ · (1/A₀₀) = 1`` for a 1×1 ``A``)."""
    if not _depth[0] and _holding[0] and needs(self):
        return MatrixElement(self, i, j)
    return _SYMPY_POW_ENTRY(self, i, j, **kwargs)


def _may_cancel(parts) -> bool:
    """Whether the entries of ``parts`` may cancel each other's divisors: one that needs a value shares a symbol
    with another, or another has none of its own (an explicit matrix, a zero matrix: ``0 · (1/a) = 0``)."""
    parts = [part for part in parts if isinstance(part, sp.Basic) and part.is_Matrix]
    for k, part in enumerate(parts):
        if not needs(part):
            continue
        mine = part.free_symbols
        for other in parts[:k] + parts[k + 1:]:
            theirs = other.free_symbols
            if not theirs or theirs & mine or isinstance(other, sp.MatrixBase):
                return True
    return False


def _holding_entries(method):
    """A method ``_entry`` of a product, sum, Hadamard or Kronecker product: the entries of its powers stay entries
    of them (:func:`_pow_entry`) when its parts may cancel each other's divisors."""
    def entry(self, *args, **kwargs):
        if _depth[0] or not _may_cancel(self.args):
            return method(self, *args, **kwargs)
        _holding[0] += 1
        try:
            return method(self, *args, **kwargs)
        finally:
            _holding[0] -= 1
    entry.sympy = method
    return entry


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
    """The determinant of the matrix of ones: 1 for the 0×0 and the 1×1 one, 0 for every larger size.

    >>> k = sp.Symbol("k", integer=True, nonnegative=True)
    >>> sp.det(sp.OneMatrix(k, k))
    Piecewise((1, Eq(k, 0) | Eq(k, 1)), (0, True))
    """
    value = _SYMPY_ONES_DET(self)  # 1 when known 1×1, 0 when known not 1×1, else unevaluated
    if value == 0:
        return with_empty_case(value, self.rows)
    if isinstance(value, sp.Determinant):  # the size may be 0, 1 or more
        empty = with_empty_case(sp.S.Zero, self.rows)
        if isinstance(empty, sp.Piecewise):
            return sp.Piecewise((sp.S.One, sp.Or(sp.Eq(self.rows, 0), sp.Eq(self.rows, 1))), (sp.S.Zero, True))
        return sp.Piecewise((sp.S.One, sp.Eq(self.rows, 1)), (sp.S.Zero, True))
    return value


def _derive_inverse(expr, x):
    """SymPy's derivative of ``X⁻¹``, ``−X⁻¹ (dX) X⁻¹``, reading ``X`` as the argument: SymPy reads it as
    ``(X⁻¹)⁻¹``, which is no longer ``X`` (:func:`_double_inverse`), and would differentiate that, and so on."""
    from sympy.tensor.array.expressions.arrayexpr_derivatives import (
        _array_contraction, _array_tensor_product, _permute_dims, array_derive)
    product = _array_tensor_product(-expr, array_derive(expr.arg, x), expr)
    return _permute_dims(_array_contraction(product, (1, 4), (5, 6)), [1, 2, 0, 3])


def _bc_inverse(expr):
    """``block_collapse`` of ``Inverse(diag(A, B))`` is ``diag(A⁻¹, B⁻¹)``: SymPy's rule answers ``expr.inverse()``,
    the inverse of the inverse (``diag(A, B)`` itself), and once that is kept as ``(X⁻¹)⁻¹`` it never ends."""
    if isinstance(expr.arg, _blockmatrix.BlockDiagMatrix):
        return expr.arg.inverse()
    return _SYMPY_BC_INVERSE(expr)


def _collapsing(block_collapse):
    """``block_collapse``, asked for by name, with SymPy's own rules (``A⁻¹A = I`` for each block): like
    ``sympy.simplify`` on a scalar ``x/x``, it is a rewriting its caller asks for, and a claim given its result shows
    that result as its statement. The kernel calls it only on statements whose inverses exist."""
    @functools.wraps(block_collapse)
    def collapse(expr):
        with cancelling():
            return block_collapse(expr)
    collapse.sympy = block_collapse
    return collapse


def install():
    """Make SymPy keep the inverses it is given, and read a size that may be 0 with its empty case (done once,
    when derive is imported). SymPy's rule functions
    (``matmul.combine_powers``, ``matmul.any_zeros``) stay its own for whoever calls them by name; only the
    canonicalisation that builds a product applies derive's."""
    if getattr(_matmul.canonicalize, "sympy", None) is not None:
        return
    sp.ZeroMatrix._eval_determinant = _zero_det  # SymPy: 0 for every size, but det of the 0×0 matrix is 1
    sp.OneMatrix._eval_determinant = _ones_det
    from sympy.tensor.array.expressions.arrayexpr_derivatives import array_derive
    ours = {_SYMPY_COMBINE: _keep_inverses, _SYMPY_ZEROS: _keep_zero_products}
    _matmul.rules = tuple(ours.get(rule, rule) for rule in _matmul.rules)
    _matmul.canonicalize = _keeping(exhaust(typed({_matmul.MatMul: do_one(*_matmul.rules)})))
    _matadd.canonicalize = _keeping(_matadd.canonicalize, first=_drop_zero_terms)
    for module in (_hadamard, _kronecker):
        module.canonicalize = _keeping(module.canonicalize)
    _matmul.MatMul._eval_trace = _zero_times_inverse(_matmul.MatMul._eval_trace, sp.Trace)
    _matmul.MatMul._eval_determinant = _zero_times_inverse(_matmul.MatMul._eval_determinant, sp.Determinant)
    _matmul.MatMul._entry = _zero_times_inverse(_holding_entries(_matmul.MatMul._entry),
                                                lambda self, i, j: MatrixElement(self, i, j))
    for cls in (_matadd.MatAdd, _hadamard.HadamardProduct, _kronecker.KroneckerProduct):
        cls._entry = _holding_entries(cls._entry)
    _matpow.MatPow.doit = _matpow_doit
    _matpow.MatPow._entry = _pow_entry
    _inverse.Inverse._eval_inverse = _double_inverse
    _inverse.Inverse._eval_determinant = _inverse_det
    array_derive.register(_inverse.Inverse)(_derive_inverse)
    _blockmatrix.bc_inverse = _bc_inverse
    collapse = _collapsing(_blockmatrix.block_collapse)
    for module in (_blockmatrix, sp.matrices.expressions, sp.matrices, sp):
        module.block_collapse = collapse
