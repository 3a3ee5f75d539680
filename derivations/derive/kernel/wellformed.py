"""What makes a statement fit to be checked at all, decided before any strategy runs.

- **exact**: no floating-point number anywhere (``1 + 1e-30 = 1`` must not be "proved");
- **defined**: no ``nan``/``zoo``/``oo``, no empty matrix, no nesting deeper than :data:`MAX_DEPTH`;
- **unambiguous**: no two different symbols that print the same (``a`` and a positive ``a``);
- **denominators**: every divisor in the statement as written (``x**-1``, a matrix inverse, the pole of
  ``tan`` or ``log``) must be nonzero where the statement is meant, and a part whose value derive cannot vouch
  for (``gamma``, a limit) needs ``defined(…)``, which nothing settles; :func:`unmet_denominators` lists those
  that neither the symbols' assumptions nor the given conditions settle. SymPy cancels ``u/u`` to 1 as it builds an expression, so a statement is only
  true where its divisors are nonzero, and a proof must say so.

>>> import sympy as sp
>>> a, b = sp.symbols("a b", real=True)
>>> [sp.sstr(c) for c in unmet_denominators((a**2 - b**2) / (a - b))]
['Ne(a - b, 0)']
>>> unmet_denominators((a**2 - b**2) / (a - b), [sp.Ne(a - b, 0)])
[]
>>> refuse_inexact("claim('x')", a + sp.Float("1e-30"))
Traceback (most recent call last):
...
derive.kernel.wellformed.Inexact: claim('x'): holds the floating-point number 1.00000000000000e-30; write every number exactly, e.g. sp.Rational('1e-30') rather than 1e-30, or sp.nsimplify(...)
"""
from __future__ import annotations

import difflib
import functools
import re

import sympy as sp
from sympy.concrete.expr_with_limits import ExprWithLimits
from sympy.core.assumptions import _assume_defined
from sympy.core.function import AppliedUndef, UndefinedFunction
from sympy.core.parameters import global_parameters
from sympy.core.symbol import Str
from sympy.matrices.expressions import MatrixExpr
from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction
from sympy.matrices.expressions.matexpr import MatrixElement

from .signs import closed_sign
from .validate import require_inert_tex, require_real_variable

__all__ = ["MAX_DEPTH", "Inexact", "inexact", "refuse_inexact", "refuse_undefined", "refuse_loose_indices",
           "refuse_pattern_subs", "refuse_outside", "OutsideMatrix", "refuse_same_names", "printed_constants",
           "refuse_rebound_indices", "refuse_printed_indices", "refuse_unread_assumptions",
           "refuse_live_names", "names_in", "check_statement", "refuse_narrow_variables", "unmet_declaration",
           "denominators", "mapping_divisors", "unmet_denominators", "unmet_conditions", "nonzero_condition", "real", "defined"]

#: deeper expressions are refused: printing and rewriting them recurses past Python's limit
MAX_DEPTH = 120


def _nodes(expr):
    if isinstance(expr, sp.MatrixBase):
        for e in expr:
            yield from sp.preorder_traversal(e)
    elif isinstance(expr, sp.Basic):
        yield from sp.preorder_traversal(expr)


class Inexact(TypeError, ValueError):
    """A floating-point number where an exact value belongs. It is both a value of the wrong kind and no exact
    value, so it is caught as either ``TypeError`` or ``ValueError``."""


def inexact(value) -> str | None:
    """Why ``value`` is not exact, or ``None``: the first floating-point number anywhere inside it (a Python
    ``float`` or ``complex``, a SymPy ``Float``, a number SymPy reads as one, such as a ``Decimal``), in expressions
    and matrices, ``Tuple``, ``Piecewise`` and ``Lambda`` objects, and lists, tuples and dicts of them. Every place
    a value enters uses this one check.

    >>> t = sp.Symbol("t")
    >>> print(inexact(sp.Lambda(t, sp.Piecewise((sp.Float(2) * t, t > 0), (0, True))))[:48])
    holds the floating-point number 2.00000000000000
    >>> inexact(sp.Matrix([[1, sp.Rational(1, 2)]])) is None
    True
    """
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, (float, complex)):
            found = repr(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
            continue
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
            continue
        elif not isinstance(item, (sp.Basic, sp.MatrixBase, int, str, type)) and item is not None:
            try:  # a number of another kind (Decimal, mpmath's mpf, numpy's float32) is read as SymPy reads it
                stack.append(sp.sympify(item, strict=True))
            except (sp.SympifyError, TypeError, ValueError):
                pass
            continue
        else:
            found = next((sp.sstr(node) for node in _nodes(item) if isinstance(node, sp.Float)), None)
            if found is None:
                continue
        return (f"holds the floating-point number {found}; write every number exactly, "
                f"e.g. sp.Rational('1e-30') rather than 1e-30, or sp.nsimplify(...)")
    return None


def refuse_inexact(where: str, expr) -> None:
    """Raise :class:`Inexact` (a ``TypeError`` and a ``ValueError``) when ``expr`` holds a floating-point number
    (see :func:`inexact`): a statement, a rule's value or a witness with floats is not exact mathematics."""
    problem = inexact(expr)
    if problem is not None:
        raise Inexact(f"{where}: {problem}")


def refuse_undefined(where: str, expr) -> None:
    """Raise ValueError for ``nan``, ``zoo``, ``±oo``, ranges (``AccumBounds``) and empty matrices: they are no
    values to compare; and for an odd root of a base that may be a negative real (:func:`_odd_root`), whose value is
    not the one it prints as."""
    if isinstance(expr, (sp.MatrixBase, MatrixExpr)) and 0 in expr.shape:
        raise ValueError(f"{where}: an empty {expr.shape[0]}x{expr.shape[1]} matrix states nothing")
    for node in _nodes(expr):
        if node in (sp.nan, sp.zoo, sp.oo, -sp.oo):
            raise ValueError(f"{where}: {sp.sstr(node)} is not a number; a claim compares defined values")
        if isinstance(node, sp.AccumBounds):  # (what SymPy gives for the limit of sin(1/x) at 0, say)
            raise ValueError(f"{where}: {sp.sstr(node)} is a range of values, not a number; a claim compares "
                             f"defined values")
        if _odd_root(node):
            raise ValueError(f"{where}: {sp.sstr(node)} is SymPy's principal complex root where its base is negative, "
                             f"not the real root it prints as; use sympy.real_root, or a base known to be ≥ 0")


def _odd_root(node) -> bool:
    """Whether ``node`` is an odd root (``b^{p/q}``, q odd ≥ 3, or a symbolic ``b^{1/m}`` that may be one) of a base
    that may be a negative real (a plain symbol, or σ(a) of an undeclared σ, printed "for every σ: ℝ → ℝ"): SymPy
    means the principal complex root (∛−1 = 1/2 + i√3/2), which the page prints as ``\\sqrt[3]{b}``, the real root to a
    reader; so ∛(a³) = a, true as printed, was refuted at a = −1. ``sympy.real_root`` says the real root. (A square
    root of a negative is i√·, as printed.)"""
    if not isinstance(node, sp.Pow) or node.exp.is_integer is True or node.exp.is_Number and (
            not node.exp.is_Rational or node.exp.q % 2 == 0):
        return False
    return node.base.is_extended_real is not False and node.base.is_nonnegative is not True


def _depth(expr, limit) -> int:
    """The nesting depth of ``expr``, counted without recursion (stops at ``limit + 1``)."""
    deepest, stack = 0, [(expr, 1)]
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        if deepest > limit:
            return deepest
        stack.extend((a, level + 1) for a in getattr(node, "args", ()) if isinstance(a, sp.Basic))
    return deepest


#: what a bound index may not be declared to be: its values are where its limits take it, not where these say
_INDEX_FACTS = ("positive", "negative", "zero", "nonzero", "nonnegative", "nonpositive", "even", "odd", "prime",
                "composite")


def refuse_loose_indices(where: str, expr) -> None:
    """Raise ValueError for a matrix expression whose size is not known to be a nonnegative integer, and for a sum or product
    (``Sum``, ``Product``, or a form that binds an index, such as derive's ``IndexSum`` with its ``term_count``)
    whose index is not read as the limits make it: a limit (or a count) that is not known to be an integer (the
    index runs over ``a, a + 1, …``: over ``1/2, 3/2, …`` for ``a = 1/2``, where the kernel's integer index would make
    ``sin(πk)`` 0), or an index declared positive, nonzero, even … (SymPy reads a sum's or a product's sign from its
    index's own assumptions: ``Π_{k=0}^{n-1} k`` with ``k`` positive would be nonzero, though it is 0).

    >>> k = sp.Symbol("k", integer=True, positive=True)
    >>> refuse_loose_indices("claim('x')", sp.Product(k, (k, 0, 3)))
    Traceback (most recent call last):
    ...
    ValueError: claim('x'): the index k of Product(k, (k, 0, 3)) is declared positive, but it takes the values its limits give it; declare it sp.Symbol('k', integer=True)
    """
    nodes = list(_nodes(expr))
    for node in nodes:  # first, as their shapes are what the checks below read
        if isinstance(node, (sp.MatrixSlice, sp.DiagonalOf, sp.DiagMatrix)):
            _refuse_unread_parts(where, node)
    for node in nodes:
        if isinstance(node, MatrixExpr) and not isinstance(node, sp.MatrixBase):
            for size in node.shape:
                if sp.sympify(size).is_integer is not True:
                    raise ValueError(f"{where}: the size {sp.sstr(size)} of {_short(node)} is not known to be an "
                                     f"integer; a matrix has a whole number of rows and columns")
                if sp.sympify(size).is_nonnegative is not True:  # (tr I_n = n was proved "for n ∈ ℤ": no n = −1)
                    raise ValueError(f"{where}: the size {sp.sstr(size)} of {_short(node)} may be negative; declare its "
                                     f"symbols nonnegative (or positive) integers")
        _refuse_unread_shapes(where, node)
        count = getattr(node, "term_count", None) if getattr(node, "bound_symbols", None) else None
        if count is not None and sp.sympify(count).is_integer is not True:
            raise ValueError(f"{where}: the count {sp.sstr(count)} of {_short(node)} is not known to be an integer; "
                             f"its index runs over 0, 1, …, count − 1")
        if count is not None and sp.sympify(count).is_nonnegative is not True:
            raise ValueError(f"{where}: the count {sp.sstr(count)} of {_short(node)} is not known to be 0 or more; "
                             f"printed from 1 to it, a negative count would read as an empty sum")
        if isinstance(node, (sp.Sum, sp.Product)):
            indices = [lim[0] for lim in node.limits]
            for lim in node.limits:
                if len(lim) != 3:
                    raise ValueError(f"{where}: {_short(node)} needs both limits of its index {lim[0]}")
                for side, end in zip(("lower", "upper"), lim[1:]):
                    if end.is_integer is not True:
                        raise ValueError(f"{where}: the {side} limit {sp.sstr(end)} of {_short(node)} is not known to "
                                         f"be an integer; a sum's or a product's index is read as an integer, so its "
                                         f"limits must be integers")
        elif getattr(node, "bound_symbols", None) and isinstance(node, MatrixExpr):
            indices = list(node.bound_symbols)
        else:
            continue
        for index in indices:
            if index.is_integer is False:
                raise ValueError(f"{where}: the index {index} of {_short(node)} is declared not an integer")
            said = [fact if getattr(index, f"is_{fact}") else f"not {fact}" for fact in _INDEX_FACTS
                    if getattr(index, f"is_{fact}") is not None]
            said = [f for f in said if not f.startswith("not ")] or said  # (nonnegative, not "not negative")
            if said:
                raise ValueError(f"{where}: the index {index} of {_short(node)} is declared {said[0]}, but it takes "
                                 f"the values its limits give it; declare it sp.Symbol({str(index)!r}, integer=True)")
    _refuse_backwards(where, expr, {})  # (after the limits are known to be integers)


def _same_size(a, b) -> bool | None:
    """Whether two sizes are equal: ``True`` when they are as written (once expanded), ``False`` when they differ
    for every value of their symbols, ``None`` when that depends on the values (or a size is not known)."""
    if a is None or b is None:
        return None
    d = sp.expand(sp.sympify(a) - sp.sympify(b))
    return True if d == 0 else (False if d.is_zero is False else None)


def _refuse_unread_parts(where: str, node) -> None:
    """Raise ValueError where SymPy gives a part of a matrix a shape that holds only for some sizes:

    * a slice must lie inside its matrix for every value of the sizes (``1ₙₓₙ[0:2, 0:2]`` does not exist at n = 1),
      and a step must divide the length it runs over: SymPy counts ⌊(stop − start)/step⌋ rows, one too few where it
      does not (``1ₙₓₙ[::2, :]ᵀ 1ₙₓₙ[::2, :] = ⌊n/2⌋ 1ₙₓₙ`` was proved, false at n = 3);
    * the diagonal of an r×c matrix has min(r, c) entries, and SymPy reads it as r when only r is a number, c when
      only c is (diag(1₂ₓₘ) was taken for 2 entries, and has 1 at m = 1), or leaves it unknown;
    * a vector made a diagonal matrix must be a row or a column as written: SymPy takes an n×m matrix for a column.
    """
    if isinstance(node, sp.MatrixSlice):
        sizes = node.parent.shape
        for (start, stop, step), size, what in zip((node.rowslice, node.colslice), sizes, ("rows", "columns")):
            inside = (sp.sympify(start).is_nonnegative, sp.sympify(stop - start - 1).is_nonnegative,
                      sp.sympify(size - stop).is_nonnegative)
            if not all(known is True for known in inside):
                raise ValueError(f"{where}: {_short(node)} takes the {what} {sp.sstr(start)} to {sp.sstr(stop - 1)} "
                                 f"(from 0) of a matrix with {sp.sstr(size)} {what}, which it does not have for every "
                                 f"value of the sizes: give it sizes that make it so")
            if step != 1 and sp.Mod(stop - start, step) != 0:
                raise ValueError(f"{where}: {_short(node)} takes the {what} {sp.sstr(start)} to {sp.sstr(stop - 1)} "
                                 f"with a step of {sp.sstr(step)}, and SymPy counts ⌊{sp.sstr(stop - start)}/"
                                 f"{sp.sstr(step)}⌋ of them, one too few where the step does not divide that; give it "
                                 f"a range the step divides")
    elif isinstance(node, sp.DiagonalOf):
        r, c = node.arg.shape
        if not (r.is_Integer and c.is_Integer or _same_size(r, c) is True):
            raise ValueError(f"{where}: the diagonal of the {sp.sstr(r)}×{sp.sstr(c)} matrix {_short(node.arg)} has "
                             f"min({sp.sstr(r)}, {sp.sstr(c)}) entries, which SymPy does not read for every value of "
                             f"the sizes: give it a square matrix, or numbers for its sizes")
    elif isinstance(node, sp.DiagMatrix):
        r, c = node.args[0].shape
        if not (r == 1 or c == 1):
            raise ValueError(f"{where}: {_short(node)} makes a diagonal matrix of {_short(node.args[0])}, "
                             f"{sp.sstr(r)}×{sp.sstr(c)}, which is not a row or a column as written (SymPy reads it as "
                             f"a column, though at {sp.sstr(r)} = 1 it is a row)")


def _refuse_unread_shapes(where: str, node) -> None:
    """Raise ValueError where SymPy reads a matrix expression by shapes compared as written (``rows == cols`` of two
    symbols is neither true nor false), or not at all:

    * a sum or a Hadamard product of matrices whose shapes may differ, and a product whose inner sizes may: SymPy
      builds ``A + B`` of an (m + 1)×(m + 1) and an m×m matrix, which exists for no m (its trace was proved equal to
      tr A + tr B);
    * a block of a block-diagonal matrix that may be square or not (n×m): SymPy takes it for not square, and so
      the determinant for 0, which is det A·det B at n = m;
    * a trace, determinant, inverse or power of a matrix that may not be square (tr A = tr Aᵀ for an n×m A was
      proved), or of a Kronecker product of such matrices (SymPy's tr(A ⊗ B) is tr A·tr B, as for square ones);
    * a power of 0 or 1 (the zero or ones matrix) whose exponent may be 0 or negative: SymPy's rules for them take
      it for 1 or more (``0ₙᵏ`` is 0 and ``1ₙᵏ`` is nᵏ⁻¹·1ₙ, though both are Iₙ at k = 0).
    """
    from sympy.matrices.expressions.hadamard import HadamardProduct
    from sympy.matrices.expressions.kronecker import KroneckerProduct

    if isinstance(node, (sp.MatAdd, HadamardProduct)):
        shapes = [a.shape for a in node.args if isinstance(a, (sp.MatrixBase, MatrixExpr))]
        for shape in shapes[1:]:
            if not all(_same_size(a, b) for a, b in zip(shapes[0], shape)):
                raise ValueError(f"{where}: {_short(node)} puts together matrices of shapes {sp.sstr(shapes[0])} and "
                                 f"{sp.sstr(shape)}, which are not the same for every value of their sizes")
    elif isinstance(node, sp.MatMul):
        factors = [a for a in node.args if isinstance(a, (sp.MatrixBase, MatrixExpr))]
        for left, right in zip(factors, factors[1:]):
            if not _same_size(left.shape[1], right.shape[0]):
                raise ValueError(f"{where}: {_short(node)} multiplies a matrix with {sp.sstr(left.shape[1])} columns "
                                 f"by one with {sp.sstr(right.shape[0])} rows, which are not the same for every value")
    elif isinstance(node, sp.BlockDiagMatrix):
        for block in node.args:
            if _same_size(*block.shape) is None:
                raise ValueError(f"{where}: the block {_short(block)} of a block-diagonal matrix is "
                                 f"{sp.sstr(block.shape[0])}×{sp.sstr(block.shape[1])}, square for some sizes and not "
                                 f"for others, and SymPy reads it as never square; give it sizes that settle it")
    if isinstance(node, (sp.Trace, sp.Determinant, sp.Inverse, sp.MatPow)):
        arg = node.args[0]
        parts = arg.args if isinstance(arg, KroneckerProduct) else ()  # tr(A ⊗ B) is tr A·tr B for square A, B
        for part in (arg, *parts):
            if isinstance(part, (sp.MatrixBase, MatrixExpr)) and _same_size(*part.shape) is not True:
                raise ValueError(f"{where}: {_short(node)} needs {_short(part)} square, and it is "
                                 f"{sp.sstr(part.shape[0])}×{sp.sstr(part.shape[1])}: give it sizes that make it so")
    if isinstance(node, sp.MatPow) and isinstance(node.base, (sp.ZeroMatrix, sp.OneMatrix)):
        if not (node.exp.is_integer and node.exp.is_positive):
            raise ValueError(f"{where}: {_short(node)} is a power of {_short(node.base)} whose exponent "
                             f"{sp.sstr(node.exp)} is not known to be a positive integer; SymPy's rule for it holds "
                             f"only from 1 on (at 0 the power is the identity): write that case apart")


class OutsideMatrix(ValueError, IndexError):
    """An entry read at a row or column its matrix does not have: no value there (SymPy would read row −1 of an
    explicit matrix as its last, as Python does)."""


#: the most index values an entry of a sum is read at, at one point, to see that each is inside its matrix
_MOST_READ = 4096


def refuse_outside(expr, values=None) -> None:
    """Raise :class:`OutsideMatrix` when, once ``values`` are put in, an entry of ``expr`` is read outside its matrix:
    at an index its values give (``y[i, 0]`` at ``i = −1``), or at an index of a sum over the range the values give
    its limits (``Σ_{i=-1}^{1} y[i, 0]``). ``[y_1, y_2, y_3][i] = i + 1`` was refuted at ``i = −1`` by the value 3.
    An entry of an identity at symbolic indices is SymPy's δ of a range (``I₃[i, j]`` is ``δ(i, j, (0, 2))``, printed
    δ_{ij}, and 0 at i = j = −1): it is read so too, as is any δ of a range."""
    values = values or {}
    if not any(not (e.i.is_Integer and e.j.is_Integer) for e in expr.atoms(MatrixElement)) and not any(
            d.delta_range is not None for d in expr.atoms(sp.KroneckerDelta)):
        return

    def visit(node, ranges):
        if isinstance(node, MatrixElement) or isinstance(node, sp.KroneckerDelta) and node.delta_range is not None:
            _inside(node, values, ranges)
        if isinstance(node, (sp.Sum, sp.Product)):
            inner = list(ranges)  # (index, lower, upper) from the outermost: an inner limit may use an outer index
            for lim in reversed(node.limits):  # (SymPy lists a sum's own limits from the innermost)
                ends = [sp.sympify(e).xreplace(values) for e in lim[1:]]
                inner.append((lim[0], *ends) if len(ends) == 2 else (lim[0], None, None))
            visit(node.function, inner)
            return
        for arg in node.args:
            if isinstance(arg, sp.Basic):
                visit(arg, ranges)

    visit(expr, [])


def _inside(entry, values, ranges) -> None:
    if isinstance(entry, sp.KroneckerDelta):  # δ of a range (an identity's entry): both indices within it
        first, last = (sp.sympify(e).xreplace(values) for e in entry.delta_range)
        reads = [("row", entry.args[0], first, last + 1), ("column", entry.args[1], first, last + 1)]
    else:
        parent = values.get(entry.parent, entry.parent)
        sizes = [sp.sympify(s).xreplace(values) for s in parent.shape]
        reads = [("row", entry.i, sp.S.Zero, sizes[0]), ("column", entry.j, sp.S.Zero, sizes[1])]
    read = 0
    for what, index, first, end in reads:
        if not (first.is_Integer and end.is_Integer):
            continue
        index = sp.sympify(index).xreplace(values)

        def each(k, at):  # every value the index takes, the sums' indices (outermost first) run through in turn
            nonlocal read
            if k == len(ranges):
                value = index.xreplace(at)
                if value.is_Integer and not first <= value < end:
                    of = f"of a matrix with {end} {what}s" if first == 0 else f"outside its range {first} … {end - 1}"
                    raise OutsideMatrix(f"the entry {_short(entry)} is read at {what} {value} (counted from 0) {of}")
                return
            var, lo, hi = ranges[k]
            lo, hi = (sp.sympify(e).xreplace(at) if e is not None else None for e in (lo, hi))
            if lo is None or not (lo.is_Integer and hi.is_Integer):
                return  # a limit that is no number here: not read at this point
            for v in range(int(lo), int(hi) + 1):
                read += 1
                if read > _MOST_READ:
                    return
                each(k + 1, {**at, var: sp.Integer(v)})

        each(0, {})


def refuse_pattern_subs(where: str, expr) -> None:
    """Raise ValueError for a ``Subs`` whose variable is not a symbol (``Subs(sin(a)**2 + cos(a)**2, sin(a), b)``):
    it replaces a pattern as written, so it is no function of its body's value (simplifying the body to 1 first
    changes it from ``b**2 + cos(a)**2`` to 1).

    >>> a, b = sp.symbols("a b", real=True)
    >>> refuse_pattern_subs("claim('x')", sp.Subs(sp.sin(a)**2 + sp.cos(a)**2, sp.sin(a), b))
    Traceback (most recent call last):
    ...
    ValueError: claim('x'): Subs(sin(a)**2 + cos(a)**2, sin(a), b) puts a value for sin(a), which is not a symbol; a substitution is read as a function of its variables, so each must be a symbol
    """
    for node in _nodes(expr):
        if isinstance(node, sp.Subs):
            for variable in node.variables:
                if not isinstance(variable, sp.Symbol):
                    raise ValueError(f"{where}: {_short(node)} puts a value for {sp.sstr(variable)}, which is not a "
                                     f"symbol; a substitution is read as a function of its variables, so each must "
                                     f"be a symbol")


def one_line(value) -> str:
    """``value`` as SymPy prints it, on one line (an explicit matrix prints a row a line)."""
    return " ".join(sp.sstr(value).split())


def _short(node) -> str:
    text = one_line(node)
    return text if len(text) <= 60 else text[:57] + "..."


#: constants whose print a symbol's name must not take: π always (sin π = 0 reads as the constant's), the others (e, i,
#: γ) beside them (e beside E or exp, whose power prints e^x)
_ALWAYS_CONSTANT = (r"\pi",)


def printed_constants(*exprs) -> set:
    """How the constants of ``exprs`` print (``i``, ``\\pi``, ``e`` for E and for exp, ``\\gamma`` …)."""
    found = set()
    for expr in exprs:
        for item in (list(expr) if isinstance(expr, sp.MatrixBase) else [expr]):
            if isinstance(item, sp.Basic):
                found |= {sp.latex(c) for c in item.atoms(sp.NumberSymbol, type(sp.I))}
                if item.has(sp.exp):
                    found.add("e")
    return found


def _not_a_name(name: str) -> bool:
    """Whether a symbol's name typesets as something other than a name: a number, a sign, a sum, a bar, a space
    (``2``, ``-1``, ``x + y``, ``|x|``, ``x,y``, ``∞``); a name is letters, digits after them and primes, with a
    subscript or a label after ``_`` or ``^``."""
    if not name or any(ch.isspace() for ch in name) or "\\" in name or not name[0].isalpha():
        return True
    head = re.split(r"[_^]", name, maxsplit=1)[0]
    return re.fullmatch(r"[^\W\d_][\w']*", head) is None


def refuse_same_names(where: str, symbols, constants=()) -> None:
    """Raise ValueError when two different free symbols, matrix symbols or undefined functions share a name or
    print alike in LaTeX (``a1`` and ``a_1`` both show as a₁; ``Function("f", real=True)`` and ``Function("f")``;
    a function ``a`` beside a symbol ``a``): the page, and a witness by name, would show them as one. So is a
    symbol whose name prints as a constant (``pi``; ``i`` beside the imaginary unit, ``e`` beside E or exp:
    ``constants``, see :func:`printed_constants`), as no name at all (``2``, ``x + y``) or as a matrix's row (``a_1``
    beside ``A``)."""
    by_name: dict[str, sp.Basic] = {}
    by_tex: dict[str, sp.Basic] = {}
    rows: dict[str, sp.Basic] = {}
    symbols = sorted(symbols, key=sp.default_sort_key)
    matrices = {s.name.lower() for s in symbols if isinstance(s, sp.MatrixSymbol)}
    constants = set(constants) | set(_ALWAYS_CONSTANT)
    for s in symbols:
        name = str(getattr(s, "name", s))
        tex = sp.latex(s)  # ({y}_{1}, an IndexedBase's entry, typesets as y_{1}, a symbol's)
        if isinstance(s, (sp.Symbol, sp.MatrixSymbol)) and not isinstance(s, sp.Dummy):
            if tex in constants:
                raise ValueError(f"{where}: the symbol {name!r} prints as {tex}, as a constant does; give it another "
                                 f"name")
            if _not_a_name(name):
                raise ValueError(f"{where}: the symbol {name!r} does not print as a name (it reads as a number, a "
                                 f"sign or an expression); name it with letters, digits after them and subscripts")
        if isinstance(s, sp.MatrixSymbol):  # a row of Q prints as q_1, as a row of q does
            other = rows.setdefault(name.lower(), s)
            if other.name != name:
                raise ValueError(f"{where}: the matrices {other.name!r} and {name!r} both print their rows as "
                                 f"{name.lower()}_i; give them names apart in more than case")
            row = re.fullmatch(r"([a-z])_\{?[^{}]+\}?", name)
            if row and row.group(1) in matrices - {name.lower()}:
                raise ValueError(f"{where}: the matrix {name!r} prints as a row of the matrix "
                                 f"{row.group(1).upper()!r} does ({row.group(1)}_i); give it a name apart")
        other = by_name.setdefault(name, s)
        if other != s:
            raise ValueError(f"{where}: two different symbols are both named {name!r} "
                             f"({_facts(other)} and {_facts(s)}); give them different names")
        if re.search(r"\^(?!\{\()", tex) and not isinstance(s, UndefinedFunction):  # x__2 prints x², a power of x
            raise ValueError(f"{where}: the symbol {name!r} prints as {tex}, a power; give it a name without a "
                             f"superscript (a label in parentheses, as K^{{(1)}}, reads as one)")
        upright = re.sub(r"\\mathrm\{([^{}]*)\}", r"\1", tex)  # Alpha prints \mathrm{A}, which typesets as A
        for shown in (f"${tex}$", sp.pretty(s, use_unicode=True), "$" + tex.replace("{", "").replace("}", "") + "$",
                      "$" + re.sub(r"[{}\s]", "", upright) + "$"):  # (x_{1 2} typesets as x_{12})
            other = by_tex.setdefault(shown, s)
            if other != s:
                raise ValueError(f"{where}: the symbols {str(getattr(other, 'name', other))!r} and {name!r} both print "
                                 f"as {shown}; give them names that print apart")
    _refuse_products_of_names(where, by_name)


def _refuse_products_of_names(where: str, by_name: dict) -> None:
    """Raise ValueError for a name of several letters that prints as it is written and reads as the product of other
    names of the statement: ``ab`` beside ``a`` and ``b`` typesets as ``a b``."""
    plain = {n for n, s in by_name.items() if isinstance(s, sp.Symbol) and sp.latex(s) == n}
    for name in sorted(plain):
        if len(name) > 1 and name.isalpha() and _product_of(name, plain - {name}):
            raise ValueError(f"{where}: the symbol {name!r} prints as the product of "
                             f"{' '.join(_product_of(name, plain - {name}))}, names of the same statement; give it a "
                             f"name that prints apart (a subscript: {name[0]}_{name[1:]})")


def _product_of(name: str, names: set) -> list:
    """``name`` cut into pieces each of which is in ``names`` (two or more pieces), or ``[]``."""
    for k in range(1, len(name)):
        head, rest = name[:k], name[k:]
        if head in names:
            if rest in names:
                return [head, rest]
            tail = _product_of(rest, names)
            if tail:
                return [head, *tail]
    return []


#: the facts a function's description names (the others follow from them)
_FUNCTION_FACTS = ("positive", "negative", "nonnegative", "nonpositive", "nonzero", "integer", "real")


def _facts(symbol) -> str:
    """The assumptions a symbol was made with, as written (``positive=True``)."""
    if isinstance(symbol, sp.MatrixSymbol):
        return f"a {sp.sstr(symbol.shape[0])}x{sp.sstr(symbol.shape[1])} matrix symbol"
    if isinstance(symbol, UndefinedFunction):
        given = getattr(symbol, "_kwargs", None) or {}
        shown = ", ".join(f"{k}=True" for k in _FUNCTION_FACTS if given.get(k))
        return f"a function with {shown}" if shown else "a function with no assumptions"
    given = getattr(symbol, "_assumptions_orig", None) or {}
    shown = ", ".join(f"{k}={v}" for k, v in sorted(given.items()))
    kind = "a dummy" if isinstance(symbol, sp.Dummy) else "a symbol"
    return f"{kind} with {shown}" if shown else f"{kind} with no assumptions"


def _refuse_backwards(where: str, expr, ranges: dict) -> None:
    """Raise ValueError for a sum's or a product's range that may run backwards (its upper limit below its lower one
    less one): printed, it reads as empty, but SymPy (and the kernel) read it by Karr's rule, as minus the sum over
    the range between. A range is read where the indices of the ranges around it run (``ranges``: index → its
    limits): Σ_{i=0}^{n} Σ_{j=0}^{i} runs forwards for n ≥ 0, Σ_{i=0}^{5} Σ_{j=i}^{2} may not."""
    if not isinstance(expr, sp.Basic) or expr.is_Atom:
        return
    if isinstance(expr, (sp.Sum, sp.Product)):
        inner, function, limits = dict(ranges), expr.function, [tuple(lim) for lim in expr.limits]
        for pos in range(len(limits) - 1, -1, -1):  # the outermost first
            if len(limits[pos]) != 3:
                continue
            x, lo, hi = limits[pos]
            if not _forwards(hi - lo + 1, inner):
                said = "runs" if (hi - lo + 1).is_negative else "may run"
                raise ValueError(f"{where}: the range {sp.sstr(expr.limits[pos][1])} … {sp.sstr(expr.limits[pos][2])} "
                                 f"of {_short(expr)} "
                                 f"{said} backwards: printed, it reads as empty, but it stands for minus (a product: "
                                 f"one over) the range between; write it forwards, with limits whose symbols say "
                                 f"so (an upper limit n − 1 from 0 for n ≥ 0)")
            fresh = sp.Dummy(str(x), integer=True)  # the index by a name of its own: one bound again inside, or a
            inner[fresh] = (lo, hi)  # free symbol of the same name in a limit around it, is not read as this one
            limits[:pos] = [(lim[0], *(e.xreplace({x: fresh}) for e in lim[1:])) for lim in limits[:pos]]
            function = function.xreplace({x: fresh})
        _refuse_backwards(where, function, inner)
        for lim in expr.limits:
            for end in lim[1:]:
                _refuse_backwards(where, end, ranges)
        return
    for arg in expr.args:
        _refuse_backwards(where, arg, ranges)


def _forwards(count, ranges: dict) -> bool:
    """Whether ``count`` (a range's number of terms) is known to be 0 or more, where each index of ``ranges`` runs
    between its limits: at every corner of those ranges when it is affine in their indices (so its least value is
    at one), else for each index at least its lower limit."""
    if count.is_nonnegative:
        return True
    outer = [i for i in ranges if count.has(i)]
    if not outer:
        return False
    corners = [count]
    for _ in range(len(ranges)):  # each index put at its limits, innermost first, then what its limits hold
        held = [i for i in ranges if any(c.has(i) for c in corners)]
        if not held:
            break
        i = held[-1]
        if not all(sp.Poly(c, i).degree() <= 1 if c.is_polynomial(i) else False for c in corners):
            break
        corners = [c.xreplace({i: end}) for c in corners for end in ranges[i]]
        if len(corners) > 64:
            break
    else:
        return all(c.is_nonnegative for c in corners)
    if not any(c.has(*ranges) for c in corners):
        return all(c.is_nonnegative for c in corners)
    at_least = {i: lo + sp.Dummy(f"{i}", integer=True, nonnegative=True) for i, (lo, _) in ranges.items()}
    return bool(count.xreplace(at_least).is_nonnegative)


_BINDERS = (ExprWithLimits, sp.Lambda, sp.Subs, sp.Derivative, sp.Limit)


def bound_by(node) -> set:
    """The symbols ``node`` itself binds (a sum's indices, a ``Lambda``'s arguments …), none of its parts'."""
    if isinstance(node, ExprWithLimits):  # every limit's variable, indefinite ones too
        return set(node.variables)
    if isinstance(node, sp.Derivative):
        return {v for v, _ in node.variable_count if isinstance(v, sp.Symbol)}
    if isinstance(node, sp.Limit):
        return {node.args[1]}
    return set(getattr(node, "bound_symbols", ()) or ())


def binders(expr) -> list:
    """The parts of ``expr`` that bind a symbol: SymPy's sums, integrals, ``Lambda``, ``Subs``, derivatives and
    limits, and any other part that names what it binds (``bound_symbols``, as derive's ``IndexSum`` does)."""
    return [node for node in sp.preorder_traversal(expr)
            if isinstance(node, _BINDERS) or getattr(node, "bound_symbols", None)]


def bound_symbols(expr) -> set:
    """Every symbol that some part of ``expr`` binds (a sum's index, an integral's variable, a Lambda's argument)."""
    return set().union(*[bound_by(node) for node in binders(expr)])


def entries_capture(expr, named) -> str:
    """What is wrong with the ``FunctionMatrix`` parts of ``expr`` whose entries' body binds a symbol of ``named``
    (the symbols a statement names, free or bound); ``""`` when none does. SymPy reads an entry by putting its
    indices into the body as they are, so with ``F[p, q] = Σ_{i=0}^{r} p i`` the entry ``F[i − 1, 0]`` reads
    ``Σ_{i=0}^{r} (i − 1) i``, the outer ``i`` captured by the body's.

    >>> p, q, i, r = sp.symbols("p q i r", integer=True)
    >>> F = sp.FunctionMatrix(3, 1, sp.Lambda((p, q), sp.Sum(p * i, (i, 0, r))))
    >>> entries_capture(F, {i})
    'would capture i: its entries bind i, which the statement names too; name the index of its entries apart'
    >>> entries_capture(F, {r})
    ''
    """
    for part in sorted(expr.atoms(sp.FunctionMatrix), key=sp.default_sort_key):
        body = getattr(part.lamda, "expr", None)
        hit = bound_symbols(body) & set(named) if isinstance(body, sp.Basic) else set()
        if hit:
            k = sorted(hit, key=str)[0]
            return (f"would capture {k}: its entries bind {k}, which the statement names too; name the index of its "
                    f"entries apart")
    return ""


def refuse_entries_capture(where: str, *exprs) -> None:
    """Raise ValueError for a ``FunctionMatrix`` of ``exprs`` whose entries bind a symbol the rest of ``exprs``
    names (free or bound): read at an index that holds it, the entry would read the body's (:func:`entries_capture`)."""
    parts = [e for e in exprs if isinstance(e, sp.Basic)]
    for expr in parts:
        for part in expr.atoms(sp.FunctionMatrix):
            stand_in = sp.MatrixSymbol(sp.Dummy("F").name, *part.shape)
            named = set().union(*[e.xreplace({part: stand_in}).atoms(sp.Symbol) for e in parts])
            said = entries_capture(part, named)
            if said:
                raise ValueError(f"{where}: {_short(part)} {said}")


def refuse_rebound_indices(where: str, expr) -> None:
    """Raise ValueError for a sum or a product whose limits bind one index twice, one limit running to the other's
    index (SymPy makes ``Σ_{k=0}^{2} Σ_{k=0}^{k} 1`` one sum with the limits ``(k, 0, k), (k, 0, 2)``): printed from
    1, the k of a limit reads as the index shifted beside it (``1 ≤ k ≤ k + 1``), and the sum as another one."""
    if not isinstance(expr, sp.Basic) or expr.is_Atom:
        return
    if isinstance(expr, (sp.Sum, sp.Product)):
        names = [lim[0] for lim in expr.limits]
        twice = {n for n in names if names.count(n) > 1}
        if any(end.has(n) for lim in expr.limits for end in lim[1:] for n in twice):
            raise ValueError(f"{where}: the index {sorted(map(str, twice))[0]} is bound twice in {_short(expr)}, one "
                             f"limit running to it; give each sum its own index")
    for arg in expr.args:
        refuse_rebound_indices(where, arg)


def refuse_printed_indices(where: str, named, *exprs) -> None:
    """Raise ValueError for a ``FunctionMatrix`` whose index a name of the statement (``named``) also is: its
    Lambda's variables print as the indices of its entries, and ``i·[i + k]ₖ`` would read the free i as its own."""
    free = {str(s) for s in named}
    for expr in exprs:
        for fm in (expr.atoms(sp.FunctionMatrix) if isinstance(expr, sp.Basic) else ()):
            clash = sorted(str(v) for v in getattr(fm.lamda, "variables", ()) if str(v) in free)
            if clash:
                raise ValueError(f"{where}: {_short(fm)} prints its entries over {clash[0]}, which the statement also "
                                 f"names outside it; give its index another name")


def check_statement(where: str, *exprs) -> None:
    """Every check above, on each side of a statement (and its conditions)."""
    for expr in exprs:
        refuse_inexact(where, expr)
        refuse_undefined(where, expr)
        refuse_loose_indices(where, expr)
        refuse_pattern_subs(where, expr)
        items = list(expr) if isinstance(expr, sp.MatrixBase) else [expr]
        for item in items:
            if isinstance(item, sp.Basic) and _depth(item, MAX_DEPTH) > MAX_DEPTH:
                raise ValueError(f"{where}: the expression is nested more than {MAX_DEPTH} levels deep")
            refuse_rebound_indices(where, item)  # (after refuse_loose_indices: a range that may run backwards says more)
            try:
                if isinstance(item, sp.Basic):
                    refuse_outside(item)
            except OutsideMatrix as exc:
                raise ValueError(f"{where}: {exc}") from None
    refuse_live_names(where, *exprs)
    refuse_entries_capture(where, *exprs)
    refuse_narrow_variables(where, *exprs)
    named = names_in(*exprs)
    refuse_same_names(where, named, printed_constants(*exprs))
    refuse_printed_indices(where, named, *exprs)
    refuse_unread_assumptions(where, named)
    refuse_two_leaves(where, *exprs)


_REAL_FACTS = sp.Symbol("t", real=True).assumptions0


def unmet_declaration(variable, value) -> str | None:
    """How ``variable`` is declared (``"integer=True"``) when it is declared narrower than the reals and ``value`` is
    not known to meet every assumption that follows from that, or ``None`` (a variable declared real or nothing: its
    value is read where it is put, as the kernel reads a bound variable where it ranges).

    >>> m, t = sp.Symbol("m", integer=True), sp.Symbol("t", real=True)
    >>> unmet_declaration(m, sp.Rational(1, 2)), unmet_declaration(t, sp.I)
    ('integer=True', None)
    """
    if variable.assumptions0 == _REAL_FACTS:
        return None
    for prop, wanted in variable.assumptions0.items():
        if prop != "commutative" and getattr(value, f"is_{prop}", None) is not wanted:
            given = getattr(variable, "_assumptions_orig", None) or {prop: wanted}
            return ", ".join(f"{k}={v}" for k, v in sorted(given.items()))
    return None


_ABOVE, _BELOW = sp.Dummy("t", positive=True), sp.Dummy("t", negative=True)


def _between(limit, point):
    """What an integral's variable is known to be between its limits: positive from a lower limit known ≥ 0 (the one
    point 0 counts for nothing in an integral), negative up to an upper one known ≤ 0, else any real ``point``."""
    if len(limit) == 3:
        lo, hi = (sp.sympify(e) for e in limit[1:])
        if lo.is_nonnegative and hi.is_nonnegative:
            return _ABOVE
        if lo.is_nonpositive and hi.is_nonpositive:
            return _BELOW
    return point


def refuse_narrow_variables(where: str, *exprs) -> None:
    """Raise ValueError for a variable bound by a ``Subs``, a ``FunctionMatrix``, an integral or a function applied
    entry by entry and declared narrower than the values it takes there: SymPy has built what it binds for the
    values declared only (``⌊m⌋`` is ``m`` and ``Σ_{k=0}^{2} δ(k, m)`` is read by its integer terms for an integer m,
    ``√(t²)`` is ``t`` for a positive t), so at another value it is not what is written. ``Subs(…, m, x)`` with m
    integer and x real is so; a ``FunctionMatrix`` takes its entry at every index from 0 (a variable declared
    positive misses row 0); an integral's variable takes every real value between its limits (``∫_{-1}^{1} sign t dt``
    is ``∫_{-1}^{1} 1 dt`` for a positive t); the entries of a matrix are real numbers.

    >>> import sympy as sp
    >>> t, A = sp.Symbol("t", positive=True), sp.MatrixSymbol("A", 2, 2)
    >>> refuse_narrow_variables("doc", A.applyfunc(sp.Lambda(t, sp.sqrt(t**2) + 1)))
    Traceback (most recent call last):
    ...
    ValueError: doc: the variable t of the function applied entry by entry is declared positive=True: SymPy has rewritten its body for those values only; declare it real
    >>> m, x = sp.Symbol("m", integer=True), sp.Symbol("x", real=True)
    >>> refuse_narrow_variables("doc", sp.Subs(sp.floor(m) + m**2, m, x))
    Traceback (most recent call last):
    ...
    ValueError: doc: Subs(m**2 + m, m, x) puts x for m, declared integer=True, which x is not known to be: SymPy built what it binds for those values only; declare m as broadly as its values
    """
    index, point = sp.Dummy("i", integer=True, nonnegative=True), sp.Dummy("t", real=True)
    for expr in exprs:
        if not isinstance(expr, sp.Basic):
            continue
        for node in expr.atoms(ElementwiseApplyFunction, sp.Subs, sp.FunctionMatrix, sp.Integral):
            if isinstance(node, ElementwiseApplyFunction):
                if isinstance(node.function, sp.Lambda):
                    for variable in node.function.variables:
                        require_real_variable(where, "the function applied entry by entry", variable)
                continue
            if isinstance(node, sp.Subs):
                pairs = list(zip(node.variables, node.point))
            elif isinstance(node, sp.Integral):  # (its variable takes every real value between its limits)
                pairs = [(lim[0], _between(lim, point)) for lim in node.limits]
            elif isinstance(node.lamda, sp.Lambda):
                pairs = [(v, index) for v in node.lamda.variables]
            else:
                continue
            for variable, value in pairs:
                unmet = unmet_declaration(variable, value) if isinstance(variable, sp.Symbol) else None
                if unmet is not None:
                    at = (f"puts {sp.sstr(value)} for {variable}" if isinstance(node, sp.Subs)
                          else f"integrates over every real value of {variable}" if isinstance(node, sp.Integral)
                          else f"takes its entries at every index from 0 in {variable}")
                    said = "it" if value in (index, point) or isinstance(node, sp.Integral) else sp.sstr(value)
                    raise ValueError(f"{where}: {_short(node)} {at}, declared {unmet}, which {said} is not known to "
                                     f"be: SymPy built what it binds for those values only; declare {variable} as "
                                     f"broadly as its values")


def refuse_unread_assumptions(where: str, symbols) -> None:
    """Raise ValueError for a symbol or function declared with assumptions derive cannot read soundly:

    * one that may be infinite (``extended_real``, ``extended_positive`` …, ``infinite``, ``finite=False``): derive's
      statements are about numbers, and SymPy's arithmetic is not that of ±∞ (``x(y + 1) − xy`` expands to ``x``,
      which is ``∞ − ∞`` at ``x = ∞``);
    * one declared ``irrational``: SymPy takes its powers for irrational too, and so ``s² − 2`` for nonzero, though
      ``s = √2`` makes it 0 (it evaluates ``δ(s², 2)`` to 0 and cancels ``(s⁴ − 4)/(s² − 2)`` unconditionally);
    * one declared ``polar``: a point of the Riemann surface of log, not a number, where ``√(x²) = x`` holds (SymPy
      proves it so) though no complex x = −1 satisfies it; no witness can be one;
    * one that may be real or not, declared not of a sign (``extended_nonnegative=False``): SymPy takes such a number
      for a real of the other sign as it builds a power of a product (``√(xw) = √(−x)·√(−w)``, false at x = w = i);
    * one declared with a name SymPy has no assumption of (``postive=True``): SymPy keeps it and reads nothing from
      it, so the symbol is complex where its author meant it positive.

    >>> import sympy as sp
    >>> refuse_unread_assumptions("doc", {sp.Symbol("x", extended_real=True)})
    Traceback (most recent call last):
    ...
    ValueError: doc: x may be infinite (a symbol with extended_real=True); derive's statements are about numbers: declare it real (or positive, integer …)
    >>> refuse_unread_assumptions("doc", {sp.Symbol("y", postive=True)})
    Traceback (most recent call last):
    ...
    ValueError: doc: y is declared postive=True, which is no assumption SymPy knows (it would read y as complex): did you mean positive?
    >>> refuse_unread_assumptions("doc", {sp.Symbol("x", real=True), sp.Function("f"), sp.Symbol("y")})
    """
    for s in sorted(symbols, key=sp.default_sort_key):
        if isinstance(s, UndefinedFunction):
            read, name, given = s(sp.Dummy()), s.__name__, getattr(s, "_kwargs", None) or {}
        elif isinstance(s, sp.Symbol):
            read, name, given = s, s.name, getattr(s, "_assumptions_orig", None) or {}
        else:
            continue
        unknown = sorted(k for k in given if k not in _assume_defined)
        if unknown:
            near = difflib.get_close_matches(unknown[0], sorted(_assume_defined), n=1)
            raise ValueError(f"{where}: {name} is declared {unknown[0]}={given[unknown[0]]!r}, which is no assumption "
                             f"SymPy knows (it would read {name} as {_declared_kind(read)})"
                             + (f": did you mean {near[0]}?" if near else ""))
        if read.is_finite is not True and (read.is_extended_real or read.is_infinite):
            raise ValueError(f"{where}: {name} may be infinite ({_facts(s)}); derive's statements are about "
                             f"numbers: declare it real (or positive, integer …)")
        if read.is_irrational and not read.is_transcendental:  # (a transcendental one's powers are, rightly)
            raise ValueError(f"{where}: {name} is declared irrational, and SymPy reads its powers as irrational too "
                             f"(so s² − 2 as nonzero, though s = √2 makes it 0): declare it real")
        unsigned = [f for f in ("nonnegative", "nonpositive", "positive", "negative")
                    if getattr(read, f"is_extended_{f}") is False]
        if read.is_extended_real is None and unsigned:
            raise ValueError(f"{where}: {name} may be real or not and is declared not {unsigned[0]}: SymPy reads such a "
                             f"number as a real of the other sign (√(xy) = √(−x)·√(−y), false at x = y = i); declare "
                             f"it real and of its sign, or not real")
        if read.is_polar:
            raise ValueError(f"{where}: {name} is declared polar, a point of the Riemann surface of log, not a number "
                             f"(√({name}²) = {name} holds there): declare it complex, or positive")


def _declared_kind(read) -> str:
    """What the assumptions SymPy does know make of a symbol, in a word."""
    for fact, word in (("integer", "an integer"), ("positive", "positive"), ("nonnegative", "nonnegative"),
                       ("real", "real")):
        if getattr(read, f"is_{fact}"):
            return word
    return "complex"


def refuse_two_leaves(where: str, *exprs) -> None:
    """Raise ValueError when shown matrices (:class:`derive.kernel.printing.Shown`) print two different matrices by
    one name: ``row("x", 2)`` and ``matrix("x", 1, 2)`` both show as ``x``, so a statement between them would read
    as one about a single ``x`` (``x Kᵀ = x Kᵀ``) and be refuted."""
    seen: dict = {}
    for expr in exprs:
        for leaf, value in (getattr(expr, "leaves", None) or {}).items():
            other = seen.setdefault(leaf, value)
            if other is not value and other != value:
                raise ValueError(f"{where}: two different matrices both print as {sp.sstr(leaf)} "
                                 f"({_short(other)} and {_short(value)}); give them different names")


def _kind_of(node) -> str:
    if isinstance(node, sp.MatrixSymbol):
        return "matrix symbol"
    if isinstance(node, AppliedUndef):
        return "function"
    return "symbol" if isinstance(node, sp.Symbol) else type(node).__name__


def refuse_live_names(where: str, *exprs) -> None:
    r"""Raise ValueError when a name in ``exprs`` (a symbol's, bound ones too, a matrix symbol's, a function's)
    holds a TeX macro that MathJax makes live (``\href``, ``\style``, ``\def``…, see
    :data:`derive.kernel.validate.LIVE_TEX_MACROS`): SymPy prints a name into LaTeX as it is written.

    >>> refuse_live_names("claim('x')", sp.Symbol(r"\href{javascript:alert(1)}{x}") + 1)
    Traceback (most recent call last):
    ...
    ValueError: claim('x'): the name of the symbol '\\href{javascript:alert(1)}{x}' holds the TeX macro \href, which MathJax would make a live link, style, attribute or definition; write it without \href
    """
    shadows = [getattr(e, "shadow", None) for e in exprs]  # a shown matrix prints as its shadow's leaves
    for expr in (*exprs, *(s for s in shadows if isinstance(s, sp.Basic))):
        for node in _nodes(expr):
            names = [getattr(node, "name", None)]
            if isinstance(node, AppliedUndef):
                names.append(node.func.__name__)
            for name in names:
                name = name.name if isinstance(name, Str) else name
                if isinstance(name, str) and ("\\" in name or "&" in name):  # the cheap test first
                    require_inert_tex(where, f"the name of the {_kind_of(node)} {name!r:.60}", name)


def names_in(*exprs) -> set:
    """What ``exprs`` name: their free symbols, the indices of their sums, products and integrals (printed as
    symbols too: a sum's ``k`` beside a free ``k`` of other assumptions would read as one), matrix symbols and
    undefined functions (such as σ), and entries ``y[1]`` of an ``IndexedBase`` (printed y₁, as a symbol ``y_1`` is).
    A ``Lambda``'s argument is not printed (σ shows as its name) and not counted."""
    found = set()
    for expr in exprs:
        found |= set(getattr(expr, "leaves", None) or {})  # a shown matrix prints its shadow's matrix symbols
        for item in (list(expr) if isinstance(expr, sp.MatrixBase) else [expr]):
            if isinstance(item, sp.Basic):
                found |= item.free_symbols | {f.func for f in item.atoms(AppliedUndef)}
                for node in _nodes(item):
                    if isinstance(node, ExprWithLimits):
                        found |= {lim[0] for lim in node.limits}
                    elif isinstance(node, MatrixExpr) and getattr(node, "bound_symbols", None):
                        found |= set(node.bound_symbols)
    return {s for s in found if isinstance(s, (sp.Symbol, sp.MatrixSymbol, UndefinedFunction, sp.Indexed))}


def denominators(expr) -> list:
    """What must be nonzero for ``expr`` to have a value, as written: bases of negative powers, inverted matrices,
    the poles of functions (``cos u`` for ``tan u``), and ``defined(node)`` for a part whose value derive cannot
    vouch for: a function of unknown poles, ``Max``/``Min``/``Heaviside``/a ``Piecewise`` condition of a
    non-real argument, a limit, a derivative of anything but a smooth expression, and a sum, product or integral
    whose summand divides by (or is otherwise undefined at) a value of its own index, which its range may reach.

    >>> import sympy as sp
    >>> a = sp.Symbol("a", real=True)
    >>> denominators(1 / (a + 1) + a**sp.Rational(-1, 2))
    [a, a + 1]
    >>> k, n = sp.symbols("k n", integer=True, positive=True)
    >>> denominators(sp.Sum(1 / k, (k, 0, n)))
    [defined(Sum(1/k, (k, 0, n)))]
    """
    found: list = []
    _walk(expr, found)
    return sorted(found, key=sp.default_sort_key)


def _walk(node, found: list) -> None:
    def add(base):
        if base is not None and base not in found:
            found.append(base)

    if isinstance(node, sp.MatrixBase):
        for e in node:
            _walk(e, found)
        return
    if not isinstance(node, sp.Basic):
        return
    if isinstance(node, sp.Limit):
        add(defined(node))  # a limit may not exist, or be a range (AccumBounds)
        return
    if isinstance(node, sp.Derivative):
        if _smooth(node.expr) and all(count.is_Integer and count > 0 for _, count in node.variable_count):
            _walk(node.expr, found)
        else:
            add(defined(node))  # |x|, max, σ … need not be differentiable; an order n may be negative
        return
    if isinstance(node, sp.Subs):
        for point in node.point:
            _walk(point, found)
        _bound(node, node.expr, node.variables, found,  # the point may lie outside the variables' assumptions
               real=all(real(p) for p in node.point))
        return
    if isinstance(node, (sp.Sum, sp.Product, sp.Integral)):
        for lim in node.limits:
            for end in lim[1:]:
                _walk(end, found)
        ends = [e for lim in node.limits for e in lim[1:]]
        if isinstance(node, sp.Integral):  # along the real line when the limits are real
            _bound(node, node.function, [lim[0] for lim in node.limits], found, real=all(real(e) for e in ends))
        else:  # over the integers between the limits (either way round, Karr's convention)
            _bound(node, node.function, [lim[0] for lim in node.limits], found,
                   integer=all(e.is_integer for e in ends))
        if isinstance(node, sp.Product) and not all(
                len(lim) == 3 and (lim[2] - lim[1] + 1).is_nonnegative for lim in node.limits):
            add(defined(node))  # a reversed range divides by the factors of the range between (Karr)
        if isinstance(node, sp.Integral) and not _integrable(node.function):
            add(defined(node))
        return
    if isinstance(node, ElementwiseApplyFunction) and isinstance(node.function, sp.Lambda):
        _walk(node.expr, found)  # f applied to each entry: real entries when the matrix is real
        _bound(node, node.function.expr, node.function.variables, found, real=_real_matrix(node.expr))
        return
    applied = getattr(node, "applied_term", None)  # a form that applies a Lambda at entries of its matrices
    term, matrices = applied() if callable(applied) else (None, ())
    if isinstance(term, sp.Lambda):
        for matrix in matrices:
            _walk(matrix, found)
        _bound(node, term.expr, term.variables, found, real=all(_real_matrix(mat) for mat in matrices))
        return
    if isinstance(node, sp.Lambda):
        _bound(node, node.expr, node.variables, found)  # applied to what, the walk does not know here
        return
    bound = getattr(node, "bound_symbols", None)
    if bound and isinstance(node, MatrixExpr):  # a form that binds an index (IndexSum): over the integers it takes
        for arg in node.args:
            if arg in bound:
                continue
            if isinstance(arg, sp.Basic) and arg.has(*bound):
                _bound(node, arg, bound, found, integer=all(b.is_integer for b in bound))
            else:
                _walk(arg, found)
        return

    if isinstance(node, sp.Pow) and not isinstance(node, MatrixExpr):
        if node.exp.is_nonnegative is not True:  # x**m with m possibly negative divides by x
            add(node.base)
    elif isinstance(node, sp.Inverse):
        add(node.arg)
    elif isinstance(node, sp.MatPow):
        if node.exp.is_integer is not True:
            add(defined(node))  # a fractional matrix power need not exist (no square root of [[0, 1], [0, 0]])
        if node.exp.is_nonnegative is not True:
            add(node.base)
    elif isinstance(node, sp.HadamardPower) and node.exp.is_nonnegative is not True:
        add(defined(node))  # divides by every entry
    elif isinstance(node, (sp.Max, sp.Min)) and not all(real(arg) for arg in node.args):
        add(defined(node))  # no order off the real line
    elif isinstance(node, sp.Function):
        add(_where_defined(node))
    for arg in node.args:
        _walk(arg, found)


def _bound(node, body, variables, found: list, real=False, integer=False) -> None:
    """The needs of ``body``, whose ``variables`` range over values their own assumptions do not bound (a sum's
    index over the integers between its limits, an integral's variable along its path, a ``Subs`` point, a
    ``Lambda``'s argument): read with stand-ins that know only that much (integer, real, or nothing), and every
    need that involves them becomes ``defined(node)``."""
    for base in _body_needs(body, tuple(variables), real, integer):
        base = defined(node) if base is None else base
        if base not in found:
            found.append(base)


def _body_needs(body, variables: tuple, real: bool, integer: bool) -> tuple:
    """What :func:`_bound` reads off ``body``: each need without the variables, and ``None`` for each that involves
    them. The same activation's body is read in every layer it is applied in: a scalar body's reading is kept
    (by the body, its variables, what they range over, and whether SymPy evaluates)."""
    if isinstance(body, sp.Basic) and not body.has(MatrixExpr):
        try:
            return _body_needs_kept(body, variables, real, integer, global_parameters.evaluate)
        except TypeError:  # an unhashable part
            pass
    return _body_needs_now(body, variables, real, integer)


@functools.lru_cache(maxsize=4096)
def _body_needs_kept(body, variables, real, integer, evaluate) -> tuple:
    return _body_needs_now(body, variables, real, integer)


def _body_needs_now(body, variables, real, integer) -> tuple:
    plain = {v: sp.Dummy(str(v), integer=True) if integer else sp.Dummy(str(v), real=True) if real
             else sp.Dummy(str(v)) for v in variables if isinstance(v, sp.Symbol)}
    with sp.evaluate(False):  # the body as written: t·t⁻¹ built unevaluated divides by t (rebuilding it evaluated
        written = body.xreplace(plain)  # would cancel that, which the walk of the same form unbound does not)
    out = []
    for base in denominators(written):
        if base.has(*plain.values()) and _settled(base, ()):
            continue  # nonzero wherever the variables range (1 + exp(-z) for every real z): nothing to ask
        out.append(base if not base.has(*plain.values()) else None)
    return tuple(out)


def _integrable(integrand) -> bool:
    """Bounded and piecewise continuous on every bounded path: smooth, or built with |·|, max, min, sign."""
    if isinstance(integrand, (sp.Abs, sp.sign, sp.Max, sp.Min)):
        return all(_integrable(a) for a in integrand.args)
    if isinstance(integrand, (sp.Add, sp.Mul)):
        return all(_integrable(a) for a in integrand.args)
    if isinstance(integrand, sp.Pow) and integrand.exp.is_Integer and integrand.exp >= 0:
        return _integrable(integrand.base)
    return _smooth(integrand)


#: functions whose derivative exists wherever they are defined (and compositions, sums, products of them)
_SMOOTH = (sp.exp, sp.sin, sp.cos, sp.sinh, sp.cosh, sp.erf, sp.erfc, sp.erfi)


def _smooth(expr) -> bool:
    if isinstance(expr, (sp.Symbol, sp.Number, sp.NumberSymbol)) or expr in (sp.I, sp.E, sp.pi):
        return True
    if isinstance(expr, (sp.Add, sp.Mul)):
        return all(_smooth(a) for a in expr.args)
    if isinstance(expr, sp.Pow):
        return expr.exp.is_Integer and expr.exp >= 0 and _smooth(expr.base)
    return type(expr) in _SMOOTH and _smooth(expr.args[0])


#: functions defined at every complex argument (principal branches)
_TOTAL = (
    sp.exp, sp.sin, sp.cos, sp.sinh, sp.cosh, sp.erf, sp.erfc, sp.erfi, sp.Abs, sp.sign, sp.re, sp.im,
    sp.conjugate, sp.floor, sp.ceiling, sp.frac, sp.KroneckerDelta, sp.asin, sp.acos, sp.asinh,
    sp.acosh, sp.Si, sp.Shi, sp.fresnels, sp.fresnelc,
)

#: functions with poles, and what must be nonzero where they are finite (None: nothing, for that argument)
_POLES = {
    sp.tan: sp.cos, sp.sec: sp.cos, sp.cot: sp.sin, sp.csc: sp.sin,
    sp.tanh: lambda u: None if real(u) else sp.cosh(u),  # cosh ≥ 1 on the real line
    sp.sech: lambda u: None if real(u) else sp.cosh(u),
    sp.coth: sp.sinh, sp.csch: sp.sinh,
    sp.log: lambda u: u, sp.arg: lambda u: u, sp.Ei: lambda u: u, sp.li: lambda u: u - 1, sp.zeta: lambda u: u - 1,
    sp.asec: lambda u: u, sp.acsc: lambda u: u, sp.asech: lambda u: u, sp.acsch: lambda u: u,
    sp.atanh: lambda u: 1 - u**2, sp.acoth: lambda u: 1 - u**2,
    sp.atan: lambda u: None if real(u) else 1 + u**2,
    sp.acot: lambda u: None if real(u) else 1 + u**2,
}


class defined(sp.Function):
    """The condition that ``f(u)`` has a value, for a function derive knows no poles of: never settled by
    assumptions, so a proof through such a function says what it needs. At a point it is 1 where the value is a
    finite number (a witness may stand there), and stays as it is elsewhere (it is then never certified)."""

    nargs = 1

    @classmethod
    def eval(cls, arg):
        if arg.is_number and _finite_number(arg):
            return sp.S.One
        return None


def _finite_number(value) -> bool:
    """A closed number enclosed in a finite complex box (:mod:`derive.kernel.certify`). SymPy's assumptions are not
    trusted: ``Sum(tan(πk/2), (k, 0, 2))`` is "finite" by its summand's (for an integer k, tan(πk/2) is "finite" by
    SymPy), ``0·0⁻¹`` built unevaluated is "finite", and so is ``digamma(√(3+2√2) − √2 − 1)``, at the pole 0. A
    number outside what the enclosure covers stays unsettled."""
    from .certify import Undecided, enclose_complex  # (certify reads no definedness: no import circle at load)

    if value is sp.nan or value.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        return False
    try:
        return bool(enclose_complex(value).is_finite())
    except (Undecided, ValueError, ZeroDivisionError, ArithmeticError, TypeError):
        return False


def known_nonzero(expr) -> bool:
    """Known nonzero: by SymPy's assumptions about ``expr`` with every closed number in it (one that is not a
    rational, ``i`` or a named constant such as π, wherever it sits: a ``Piecewise`` branch, a limit) read as a
    symbol that carries only what is certified of it (:func:`derive.kernel.signs.closed_sign`): its sign, or that
    it is nonzero; one the exact test finds zero is 0, and the closed terms of a sum are read as one number. SymPy
    alone judges such a number from a few digits of its value: ``sinc(π(√(3+2√2) − √2))``, which is 0, it calls
    nonzero, and ``√(1 + i·sinh(sin(π(√(3+2√2) − √2))))``, which is 1, not real.

    >>> import sympy as sp
    >>> x = sp.Symbol("x", real=True)
    >>> known_nonzero(x**2 + sp.exp(1)), known_nonzero(x**2 - sp.sinc(sp.pi * (sp.sqrt(3 + 2 * sp.sqrt(2)) - sp.sqrt(2))))
    (True, False)
    """
    if not isinstance(expr, sp.Expr):
        return False
    return _numbers_read(expr, {}).is_zero is False


def _numbers_read(e, read: dict):
    """``e`` with each closed number a symbol of its certified facts (the same number, the same symbol)."""
    if e.is_Atom:
        return e  # a rational, i, π, e …: SymPy knows these exactly (a symbol, or a float, which is refused earlier)
    if isinstance(e, sp.Expr) and not isinstance(e, MatrixExpr) and e.is_number:
        if e not in read:  # what is certified of it (a number the exact test finds zero is 0)
            sign = closed_sign(e)
            read[e] = sp.S.Zero if sign == 0 else sp.Dummy("c", **_FACTS.get(sign, {}))
        return read[e]
    if isinstance(e, sp.Add):  # the closed terms of a sum as one number (x² + 1 + π − 3 = x² + (π − 2))
        numbers = [a for a in e.args if a.is_number]
        if 1 < len(numbers) < len(e.args):
            return sp.Add(_numbers_read(sp.Add(*numbers), read),
                          *[_numbers_read(a, read) for a in e.args if not a.is_number])
    args = [_numbers_read(a, read) for a in e.args]
    return e.func(*args) if any(x is not a for x, a in zip(args, e.args)) else e


#: what a symbol standing for a closed number may carry, from its certified sign (:func:`.signs.closed_sign`):
#: ``zero=False``, not ``nonzero``, which in SymPy means real too
_FACTS = {1: {"positive": True}, -1: {"negative": True}, "not real": {"zero": False}, "nonzero": {"zero": False}}


def _where_defined(node):
    """What must be nonzero for ``node`` (a function application) to have a value, or None when it always has."""
    kind = type(node)
    if isinstance(node, AppliedUndef) or kind in _TOTAL or kind is defined:
        return None  # σ and the like: functions ℝ → ℝ, defined everywhere by the statement's own terms
    if kind in _POLES and len(node.args) == 1:
        return _POLES[kind](node.args[0])
    if kind is sp.Heaviside and real(node.args[0]):
        return None  # H(0) = 1/2 by SymPy's convention; no value off the real line
    if isinstance(node, sp.Piecewise) and all(_real_condition(pair.cond) for pair in node.args if pair.cond is not sp.true):
        if node.args[-1].cond is sp.true or _covers_the_reals([pair.cond for pair in node.args]):
            return None
    return defined(node)


def _covers_the_reals(conditions) -> bool:
    """Whether conditions on one real variable hold, one or another, at every real number (``z ≥ 0`` or
    ``z ≤ 0``): a Piecewise of such branches has a value everywhere, without a last ``True`` branch.

    >>> z = sp.Symbol("z", real=True)
    >>> _covers_the_reals([z >= 0, z <= 0]), _covers_the_reals([z > 0, z < 0])
    (True, False)
    """
    either = sp.Or(*conditions)
    if either is sp.true:
        return True
    free = either.free_symbols
    if len(free) != 1:  # conditions on one real expression u (σ applied to x₁Q₁₁): read in a real of its own
        read = _in_one_real([c for c in conditions if c is not sp.true])
        return read is not None and _covers_the_reals(read)
    if next(iter(free)).is_real is not True:
        return False
    try:
        return either.as_set() == sp.S.Reals
    except (NotImplementedError, TypeError, ValueError):
        return False


def _in_one_real(conditions):
    """Relations ``u ⋛ 0`` (or ``−u ⋛ 0``) of one real expression ``u``, as relations of a real variable of their own;
    None for any other conditions."""
    if not conditions or not all(isinstance(c, sp.core.relational.Relational) for c in conditions):
        return None
    u = conditions[0].lhs - conditions[0].rhs
    if not real(u):
        return None
    stand = sp.Dummy("u", real=True)
    out = []
    for c in conditions:
        d = c.lhs - c.rhs
        if d == u:
            out.append(type(c)(stand, 0))
        elif d == -u:
            out.append(type(c)(-stand, 0))
        else:
            return None
    return out


def real_entries(*exprs) -> dict:
    """A real stand-in for every entry of a matrix symbol in ``exprs`` (matrix symbols stand for real matrices)."""
    from sympy.matrices.expressions.matexpr import MatrixElement

    found = set().union(*[e.atoms(MatrixElement) for e in exprs if isinstance(e, sp.Basic)])
    return {e: sp.Dummy("m", real=True) for e in sorted(found, key=sp.default_sort_key) if isinstance(e.parent, sp.MatrixSymbol)}


def _real_entries(expr):
    """``expr`` with every entry of a matrix symbol a real stand-in."""
    entries = real_entries(expr)
    return expr.xreplace(entries) if entries else expr


def real(expr) -> bool:
    """Known real: by SymPy, or once every entry of a matrix symbol is read as real (they stand for real matrices;
    an entry of a matrix expression such as ``(A + iI)⁻¹`` is not)."""
    if expr.is_extended_real:
        return True
    read = _real_entries(expr)
    return read is not expr and read.is_extended_real is True


def _real_matrix(expr) -> bool:
    """A matrix expression known to have real entries: built from matrix symbols (real matrices), explicit matrices
    and ``FunctionMatrix`` es with real entries, identities, zero and one matrices, by products, sums, transposes,
    inverses and integer powers, Hadamard and Kronecker products, blocks, real functions applied entrywise and
    derive's own forms of such matrices, with real scalars (``√c·X`` is not, for a real c)."""
    from sympy.matrices.expressions.hadamard import HadamardPower, HadamardProduct
    from sympy.matrices.expressions.kronecker import KroneckerProduct

    if isinstance(expr, (sp.MatrixSymbol, sp.Identity, sp.ZeroMatrix, sp.OneMatrix)):
        return True
    if isinstance(expr, sp.MatrixBase):
        return all(isinstance(e, sp.Expr) and real(e) for e in expr)
    if isinstance(expr, sp.FunctionMatrix):
        f = expr.lamda
        if not (isinstance(f, sp.Lambda) and len(f.variables) == 2):
            return False
        i, j = sp.symbols("i j", integer=True, nonnegative=True, cls=sp.Dummy)
        return real(f(i, j))
    if isinstance(expr, ElementwiseApplyFunction):
        return isinstance(expr.function, sp.Lambda) and _real_part(expr.function) and _real_matrix(expr.expr)
    if isinstance(expr, (sp.MatPow, HadamardPower)):
        return expr.exp.is_integer is True and _real_matrix(expr.base)
    if isinstance(expr, sp.BlockMatrix):
        return all(_real_matrix(block) for block in expr.blocks)
    kept = (sp.MatMul, sp.MatAdd, sp.Transpose, sp.Inverse, HadamardProduct, KroneckerProduct)
    if isinstance(expr, kept) or getattr(expr, "real_parts", None) is not None:
        # an index the form binds is read as an integer, not as its symbol's assumptions say (k positive, where
        # the sum runs from 0, would make √(k − 1) real at every term it takes)
        bound = {b: sp.Dummy(b.name, integer=True) for b in getattr(expr, "bound_symbols", ()) or ()}
        return all(_real_part(a.xreplace(bound) if bound else a) for a in expr.args)
    return False


def _real_part(arg) -> bool:
    """An argument of a real-preserving matrix form: a real matrix, a real scalar, an index (an integer), or a
    function real at real arguments."""
    if isinstance(arg, (sp.MatrixBase, MatrixExpr)):
        return _real_matrix(arg)
    if isinstance(arg, sp.Lambda):
        return real(arg.expr.xreplace({v: sp.Dummy(real=True) for v in arg.variables}))
    if isinstance(arg, sp.Tuple):
        return all(_real_part(a) for a in arg)
    return isinstance(arg, sp.Expr) and real(arg)


def _real_condition(cond) -> bool:
    """A condition that compares only real quantities (so that it is true or false at every point)."""
    if isinstance(cond, sp.logic.boolalg.BooleanAtom):
        return True
    if isinstance(cond, sp.Rel):
        return all(real(side) for side in cond.args)
    if isinstance(cond, (sp.And, sp.Or, sp.Not)):
        return all(_real_condition(c) for c in cond.args)
    return False


def nonzero_condition(base):
    """The condition that ``base`` may be divided by: ``base ≠ 0``, or ``Q.invertible(base)`` for a matrix (for a
    function of unknown poles, ``defined(f(u))`` itself)."""
    if isinstance(base, defined):
        return base
    if isinstance(base, MatrixExpr):
        return sp.Q.invertible(base)
    return sp.Ne(base, 0, evaluate=False)  # (SymPy would decide it, as True, from a few digits of a closed number)


def _same_up_to_sign(u, v) -> bool:
    """``u = ±v``: by their form, or by expansion when both are small (a divisor check must stay cheap)."""
    if u == v or u == -v:
        return True
    if sp.count_ops(u) + sp.count_ops(v) > 60:
        return False
    return sp.expand(u - v) == 0 or sp.expand(u + v) == 0


def _settled(base, conditions) -> bool:
    if isinstance(base, defined):
        return False
    if isinstance(base, MatrixExpr):
        return _invertible(base, conditions)
    if known_nonzero(base) or known_nonzero(_real_entries(base)):
        return True
    for c in conditions:
        if isinstance(c, (sp.Ne, sp.StrictGreaterThan, sp.StrictLessThan)):
            if _same_up_to_sign(c.lhs - c.rhs, base):
                return True
    # a product is nonzero when each factor is; a power when its base is
    factors = sp.Mul.make_args(sp.factor_terms(base))
    if len(factors) > 1 or (isinstance(base, sp.Pow) and base.exp.is_positive):
        parts = [f.base if isinstance(f, sp.Pow) and f.exp.is_positive else f for f in factors]
        return all(known_nonzero(p) or _settled(p, conditions) for p in parts)
    return False


def _invertible(matrix, conditions) -> bool:
    """``matrix`` is invertible by ``conditions``: given as ``Q.invertible`` (or ``det ≠ 0``), or built from invertible
    matrices by transposes, inverses, integer powers and products of square factors; an explicit matrix by its
    determinant."""
    if isinstance(matrix, sp.MatrixBase):
        return known_nonzero(matrix.det())
    if isinstance(matrix, sp.Identity) or sp.Q.invertible(matrix) in conditions:
        return True
    if any(isinstance(c, sp.Ne) and _same_up_to_sign(c.lhs - c.rhs, sp.Determinant(matrix)) for c in conditions):
        return True
    if isinstance(matrix, (sp.Transpose, sp.Adjoint, sp.Inverse)):
        return _invertible(matrix.arg, conditions)
    if isinstance(matrix, sp.MatPow):
        return matrix.exp.is_integer is True and _invertible(matrix.base, conditions)
    if isinstance(matrix, sp.MatMul):
        coeff, factors = matrix.as_coeff_matrices()
        return (_settled(coeff, conditions) and all(f.is_square is True for f in factors)
                and all(_invertible(f, conditions) for f in factors))
    return False


def mapping_divisors(mapping) -> list:
    """The divisors of the values a mapping puts in (``a := 1/x`` divides by ``x``): a step that puts them in
    holds only where they are nonzero, though SymPy may cancel them at once (``(1/x)·x`` is 1)."""
    found: list = []
    for value in mapping.values():
        if isinstance(value, sp.Basic) and not isinstance(value, sp.Lambda):
            found += [d for d in denominators(value) if d not in found]
    return found


def unmet_denominators(expr, conditions=()) -> list:
    """The conditions ``d ≠ 0`` (or ``Q.invertible(M)``) that ``expr`` needs and ``conditions`` do not give."""
    return unmet_conditions(denominators(expr), conditions)


def condition_met(cond, conditions=()) -> bool:
    """Whether ``cond`` is among ``conditions`` or, a divisor's condition (``Ne(b, 0)``, ``Q.invertible(B)``), is
    settled by them as that divisor is (``Q.invertible(M)`` gives ``Q.invertible(Mᵀ)``)."""
    conditions = tuple(conditions)
    if cond in conditions:
        return True
    if isinstance(cond, sp.Ne) and cond.rhs == 0:
        return _settled(cond.lhs, conditions)
    if isinstance(cond, sp.assumptions.assume.AppliedPredicate) and cond.function == sp.Q.invertible:
        return _settled(cond.arguments[0], conditions)
    return False


def unmet_conditions(divisors, conditions=()) -> list:
    """The conditions of :func:`unmet_denominators` for divisors already found."""
    conditions = tuple(conditions)
    return [nonzero_condition(b) for b in divisors if not _settled(b, conditions)]
