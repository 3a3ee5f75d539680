"""The paper's notation where SymPy's differs: entries and sums counted from 1, σ applied to a matrix as σ(M).

SymPy counts the entries of a matrix from 0 (``x[0, i]``, ``K[j, i]``) and writes the sums it builds from 0 to
``n - 1``; the paper counts from 1. Only the printing shifts: an entry prints each index plus one, and a sum that
starts at 0 prints over ``1 … n`` with its body rewritten for the shifted index, so that what is printed denotes
exactly the expression checked (``Σ_{i=0}^{d-1} x[0, i]`` prints ``Σ_{i=1}^{d} x_i``). A row vector's entry
prints its column alone (``x_i``), as the paper writes it. A free index (an integer symbol ``j`` of any value, used
only to pick entries: ``K[j, i]``) is renamed for the whole statement, ``j`` for ``j - 1`` (which ranges over the same
integers), so that ``K[j, i]`` prints ``K_{j,i}``, not ``K_{j+1,i}``.

Both of derive's printers use these: the LaTeX one (:class:`derive.kernel.printing.DerivePrinter`) and
:class:`TextPrinter`, the plain text of a statement.
"""
from __future__ import annotations

import sympy as sp
from sympy.core.function import AppliedUndef, UndefinedFunction
from sympy.matrices.expressions.matexpr import MatrixElement
from sympy.printing.precedence import PRECEDENCE
from sympy.printing.str import StrPrinter

from .wellformed import bound_symbols

__all__ = ["entry_indices", "shifted", "entries_of", "free_indices_from_one", "TextPrinter", "text"]


def entry_indices(expr) -> list:
    """The indices an entry prints, counted from 1: the column alone in a row, the row alone in a column.

    >>> import sympy as sp
    >>> d, m = sp.symbols("d m", integer=True, positive=True)
    >>> i, j = sp.symbols("i j", integer=True)
    >>> entry_indices(sp.MatrixSymbol("x", 1, d)[0, i]), entry_indices(sp.MatrixSymbol("K", m, d)[j, 0])
    ([i + 1], [j + 1, 1])
    """
    if not isinstance(expr, MatrixElement):
        raise TypeError(f"entry_indices: expected a MatrixElement, got {type(expr).__name__}")
    rows, cols = expr.parent.shape
    if rows == 1:
        return [expr.j + 1]
    if cols == 1:
        return [expr.i + 1]
    return [expr.i + 1, expr.j + 1]


def shifted(expr) -> tuple:
    """``(body, limits)`` of a sum printed from 1: every limit that starts at 0 runs one higher, the body reads
    ``i - 1`` for its index. The sum they denote is ``expr``'s; a limit starting elsewhere is kept, and so is one
    whose index a part of the body binds again.

    >>> import sympy as sp
    >>> d = sp.Symbol("d", integer=True, positive=True)
    >>> i = sp.Symbol("i", integer=True)
    >>> x = sp.MatrixSymbol("x", 1, d)
    >>> body, limits = shifted(sp.Sum(x[0, i], (i, 0, d - 1)))
    >>> body, limits
    (x[0, i - 1], ((i, 1, d),))
    >>> sp.Sum(body, *limits).subs(d, 3).doit(), sp.Sum(x[0, i], (i, 0, d - 1)).subs(d, 3).doit()
    (x[0, 0] + x[0, 1] + x[0, 2], x[0, 0] + x[0, 1] + x[0, 2])
    """
    if not isinstance(expr, sp.Sum):
        raise TypeError(f"shifted: expected a Sum, got {type(expr).__name__}")
    rebound = bound_symbols(expr.function)  # an index the body binds again (Σ_i i Σ_{i=0}^2 f(i)) is not moved
    moved = {lim[0]: lim[0] - 1 for lim in expr.limits if len(lim) == 3 and lim[1] == 0 and lim[0] not in rebound}
    limits = []
    for lim in expr.limits:
        if len(lim) != 3:
            limits.append(tuple(lim))
            continue
        i, a, b = lim
        others = {k: v for k, v in moved.items() if k != i}
        a, b = sp.sympify(a).xreplace(others), sp.sympify(b).xreplace(others)
        limits.append((i, a + 1, b + 1) if i in moved else (i, a, b))
    return expr.function.xreplace(moved), tuple(limits)


_ANY_INTEGER = sp.Symbol("j", integer=True).assumptions0
_BINDERS = (sp.Sum, sp.Product, sp.Integral, sp.Lambda)


def free_indices_from_one(*sides, fixed=frozenset()) -> tuple:
    """``sides`` with each free index counted from 1: an integer symbol that may take any integer value, free in
    the statement and used only as a matrix entry's index, is replaced by itself minus one. Over all the integers
    that is a renaming, so the statement printed is the statement checked; anything else is left as it is, and so
    is every symbol of ``fixed`` (those the statement's assumptions name, printed apart from it).

    >>> import sympy as sp
    >>> d, m = sp.symbols("d m", integer=True, positive=True)
    >>> i, j = sp.symbols("i j", integer=True)
    >>> x, K = sp.MatrixSymbol("x", 1, d), sp.MatrixSymbol("K", m, d)
    >>> free_indices_from_one((x * K.T)[0, j], sp.Sum(x[0, i] * K[j, i], (i, 0, d - 1)))[1]
    Sum(K[j - 1, i]*x[0, i], (i, 0, d - 1))
    >>> free_indices_from_one(K[j, 0] * j, K[j, 0])  # j is also a number here: kept
    (j*K[j, 0], K[j, 0])
    """
    if not sides or not all(isinstance(s, sp.Basic) and not isinstance(s, sp.MatrixBase) for s in sides):
        return sides
    entries = set().union(*(s.atoms(MatrixElement) for s in sides))
    indices = set().union(*(e.i.free_symbols | e.j.free_symbols for e in entries)) if entries else set()
    bound = set()
    for s in sides:
        for b in s.atoms(*_BINDERS):
            bound |= set(b.variables) if hasattr(b, "variables") else set()
    elsewhere = set().union(*(s.xreplace({e: sp.Dummy() for e in entries}).free_symbols for s in sides))
    free = set().union(*(s.free_symbols for s in sides))
    renamed = {v: v - 1 for v in indices
               if type(v) is sp.Symbol and v.assumptions0 == _ANY_INTEGER and v in free and v not in bound
               and v not in elsewhere and v not in fixed}
    if not renamed:
        return sides
    return tuple(s.xreplace(renamed) for s in sides)


def entries_of(expr) -> tuple:
    """``(body, ranges)`` of a ``FunctionMatrix`` printed from 1: its entry at the indices ``(i, k)`` counted from 1,
    that is its Lambda at ``(i - 1, k - 1)``, and each index with the size it runs to (a row or a column prints its
    one index). The matrix they denote is ``expr``.

    >>> import sympy as sp
    >>> r = sp.Symbol("r", integer=True, positive=True)
    >>> i, k = sp.symbols("i k", integer=True)
    >>> entries_of(sp.FunctionMatrix(r, r, sp.Lambda((i, k), sp.KroneckerDelta(i + 1, k + 1))))
    (KroneckerDelta(i, k), ((i, r), (k, r)))
    >>> entries_of(sp.FunctionMatrix(1, r, sp.Lambda((i, k), i + k)))
    (k - 1, ((k, r),))
    """
    if not isinstance(expr, sp.FunctionMatrix) or not isinstance(expr.lamda, sp.Lambda) or len(expr.lamda.variables) != 2:
        raise TypeError(f"entries_of: expected a FunctionMatrix of a two-index Lambda, got {type(expr).__name__}")
    (i, k), (rows, cols) = expr.lamda.variables, expr.shape
    # a row's one row index is 0, a column's one column index too: put in, never left to read as a free symbol
    body = expr.lamda.expr.xreplace({i: 0 if rows == 1 else i - 1, k: 0 if cols == 1 and rows != 1 else k - 1})
    ranges = ((k, cols),) if rows == 1 else ((i, rows),) if cols == 1 else ((i, rows), (k, cols))
    return body, ranges


def function_name(f) -> str | None:
    """The name an elementwise function prints as in text: an undefined function's, or ``None``."""
    if isinstance(f, UndefinedFunction):
        return f.__name__
    if isinstance(f, sp.Lambda) and len(f.variables) == 1:
        (t,), body = f.variables, f.expr
        if isinstance(body, AppliedUndef) and body.args == (t,):
            return body.func.__name__
    return None


class TextPrinter(StrPrinter):
    """SymPy's text printer with the entries and sums of :mod:`derive.kernel.notation` and ``σ(M)`` for σ applied
    to every entry of ``M``."""

    def _print_MatrixElement(self, expr):
        parent = self.parenthesize(expr.parent, PRECEDENCE["Atom"], strict=True)
        indices = [self._print(k) for k in entry_indices(expr)]
        inner = ",".join(indices)
        return f"{parent}_{inner}" if len(indices) == 1 and inner.isalnum() else f"{parent}_{{{inner}}}"

    def _print_Sum(self, expr):
        body, limits = shifted(expr)
        return StrPrinter._print_Sum(self, sp.Sum(body, *limits))

    def _print_FunctionMatrix(self, expr):
        try:
            body, ranges = entries_of(expr)
        except TypeError:
            return StrPrinter._print_FunctionMatrix(self, expr)
        return f"[{self._print(body)}]_({', '.join(f'{self._print(v)}=1..{self._print(n)}' for v, n in ranges)})"

    def _print_ElementwiseApplyFunction(self, expr):
        name = function_name(expr.function)
        if name is None:
            (t,), body = expr.function.variables, expr.function.expr
            name = f"({self._print(t)} ↦ {self._print(body)})"
        return f"{name}({self._print(expr.expr)})"


def text(expr) -> str:
    """``expr`` as plain text, entries and sums counted from 1.

    >>> import sympy as sp
    >>> d, m = sp.symbols("d m", integer=True, positive=True)
    >>> i, j = sp.symbols("i j", integer=True)
    >>> x, K = sp.MatrixSymbol("x", 1, d), sp.MatrixSymbol("K", m, d)
    >>> text(sp.Sum(x[0, i] * K[j, i], (i, 0, d - 1)))
    'Sum(K_{j + 1,i}*x_i, (i, 1, d))'
    >>> from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction
    >>> t = sp.Dummy("t", real=True)
    >>> text(ElementwiseApplyFunction(sp.Lambda(t, sp.Function("sigma")(t)), x * K.T))
    'sigma(x*K.T)'
    """
    return TextPrinter().doprint(_named_dummies(expr))


def _named_dummies(expr):
    """``expr`` with each dummy symbol (SymPy prints one as ``_j``) written by its name, where no other symbol of
    ``expr`` has that name.

    >>> j = sp.Dummy("j", integer=True)
    >>> text(j <= sp.Symbol("r") - 1), text(j + sp.Symbol("j"))
    ('j <= r - 1', '_j + j')
    """
    if not isinstance(expr, sp.Basic):
        return expr
    dummies = [s for s in expr.free_symbols if isinstance(s, sp.Dummy)]
    if not dummies:
        return expr
    taken = [s.name for s in expr.free_symbols]
    named = {d: sp.Symbol(d.name, **d.assumptions0) for d in dummies if taken.count(d.name) == 1}
    return expr.xreplace(named) if named else expr
