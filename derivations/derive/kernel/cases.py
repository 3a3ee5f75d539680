"""Cases that a statement's assumptions decide: a ``Piecewise`` read under them, exactly.

SymPy gives some values case by case: the determinant of the ``k×k`` zero matrix is
``Piecewise((1, Eq(k, 0)), (0, True))`` when ``k`` may be 0 (see :func:`derive.kernel.inverses.with_empty_case`).
A claim assuming ``k >= 1`` is about the second case only. :func:`read` takes a case whose condition the
assumptions make true and drops one they make false, deciding each condition by SymPy's assumptions alone, with
every bounded symbol put as its bound plus a nonnegative (or positive) stand-in: never by sampling. A condition
so decided holds at every point the claim is about, so reading the case is exact.

:func:`wanted` says, for a difference that is zero in some cases only, which condition would make it zero:
``needs k >= 1``; it reads conditions on integers only (sizes, counts). Neither reads a condition on a symbol that
a part of the expression binds (a sum's index): it is about the values there, not the claim's.

>>> import sympy as sp
>>> k = sp.Symbol("k", integer=True, nonnegative=True)
>>> value = sp.Piecewise((1, sp.Eq(k, 0)), (0, True))
>>> read(value, [k >= 1])[0]
0
>>> read(value, [])[0] == value
True
>>> decide(sp.Eq(k, 3), [sp.Gt(k, 3)]), decide(sp.Eq(k, 3), [k >= 3])
(False, None)
>>> r = sp.Symbol("r", integer=True, positive=True)
>>> decide((k <= r - 1) & (k >= 0), [k <= r - 1]), decide((k <= r - 1) | sp.Eq(k, 3), [sp.Gt(k, 3)])
(True, None)
>>> decide(k - 1 <= r - 1, [k <= r]), decide(k - 1 <= r, [k <= r])
(True, None)
"""
from __future__ import annotations

import itertools
import math

import sympy as sp

from . import sums
from .wellformed import bound_symbols

__all__ = ["decide", "read", "wanted", "plain"]

#: at most this many combinations of undecided cases are tried for a message
MAX_CASES = 8


def _bound(cond):
    """``(symbol, value, "lower"/"upper", strict)`` when ``cond`` bounds one symbol linearly, else ``None``."""
    if isinstance(cond, (sp.GreaterThan, sp.StrictGreaterThan)):
        g = cond.lhs - cond.rhs
    elif isinstance(cond, (sp.LessThan, sp.StrictLessThan)):
        g = cond.rhs - cond.lhs
    else:
        return None
    strict = isinstance(cond, (sp.StrictGreaterThan, sp.StrictLessThan))
    if len(g.free_symbols) != 1:
        return None
    (s,) = g.free_symbols
    if not isinstance(s, sp.Symbol) or s.is_extended_real is False:
        return None
    poly = sp.Poly(g, s) if g.is_polynomial(s) else None
    if poly is None or poly.degree() != 1:
        return None
    a, c = poly.all_coeffs()
    if not (a.is_Rational and c.is_Rational) or a == 0:
        return None
    value = -c / a  # g = a (s - value) >= 0 (or > 0)
    return s, value, "lower" if a > 0 else "upper", strict


def _stand_in(s, value, side, strict):
    """``s`` as its bound plus (or minus) a stand-in that knows only that much: every value ``s`` may take under
    the bound is one the expression takes."""
    if s.is_integer:
        if side == "lower":
            edge = math.floor(value) + 1 if strict else math.ceil(value)
        else:
            edge = math.ceil(value) - 1 if strict else math.floor(value)
        t = sp.Dummy("t", integer=True, nonnegative=True)
        return sp.Integer(edge) + t if side == "lower" else sp.Integer(edge) - t
    t = sp.Dummy("t", positive=True) if strict else sp.Dummy("t", nonnegative=True)
    return value + t if side == "lower" else value - t


def _normal(cond):
    """A relation as ``(kind, expanded difference)``: ``a <= b`` as ``("<=", a - b)``, ``a >= b`` as ``("<=", b - a)``
    (and strict alike), so that one relation written two ways compares equal; ``None`` for anything else."""
    flip = {sp.GreaterThan: ("<=", -1), sp.LessThan: ("<=", 1), sp.StrictGreaterThan: ("<", -1),
            sp.StrictLessThan: ("<", 1)}
    kind = flip.get(type(cond))
    if kind is None:
        return None
    return kind[0], sp.expand(kind[1] * (cond.lhs - cond.rhs))


def _flat(conditions):
    out = []
    for c in conditions:
        out.extend(c.args if isinstance(c, sp.And) else (c,))
    return out


def decide(cond, assume=()) -> bool | None:
    """``True`` or ``False`` when the symbols' assumptions and the conditions ``assume`` decide ``cond``, else
    ``None``. Exact: SymPy's assumptions at the bounds that ``assume`` puts on single symbols (``k >= 1``)."""
    if cond is sp.true or cond is sp.false:
        return bool(cond)
    if isinstance(cond, (sp.And, sp.Or)):  # each part decided on its own
        parts = [decide(c, assume) for c in cond.args]
        settles, other = (False, True) if isinstance(cond, sp.And) else (True, False)
        if settles in parts:
            return settles
        return other if all(p is other for p in parts) else None
    given = _flat(assume)
    if cond in given:
        return True
    if sp.Not(cond) in given:
        return False
    normal = _normal(cond)
    if normal is not None and any(_normal(g) == normal for g in given):  # i - 1 <= r - 1 is i <= r
        return True
    bounds = [b for b in map(_bound, given) if b is not None]
    for side in ("lower", "upper"):
        subs = {}
        for s, value, got, strict in bounds:
            if got == side and s not in subs:
                subs[s] = _stand_in(s, value, side, strict)
        if subs:
            held = cond.xreplace(subs)
            if held is sp.true or held is sp.false:
                return bool(held)
    return None


def read(expr, assume=()):
    """``(expr, decided)``: ``expr`` with every ``Piecewise`` read where ``assume`` decides its conditions (a
    case whose condition is false dropped, the first whose condition is true taken), and the conditions decided,
    as ``(condition, True/False)``. A determinant whose value SymPy gives case by case (an empty size) is
    evaluated so that its cases are seen."""
    decided: list = []
    if not isinstance(expr, sp.Basic):
        return expr, decided

    def det_cases(node):
        try:
            value = sums.doit(node)
            if isinstance(value, sp.Basic):  # det(X J) = det X · det J: the factors' determinants too
                value = value.xreplace({d: sums.doit(d) for d in value.atoms(sp.Determinant)})
        except (NotImplementedError, TypeError, ValueError, sp.ShapeError):
            return node
        return value if value.has(sp.Piecewise) else node

    if expr.has(sp.Determinant):
        expr = expr.replace(lambda e: isinstance(e, sp.Determinant), det_cases)
    if not expr.has(sp.Piecewise):
        return expr, decided
    bound = bound_symbols(expr)

    def one(node):
        kept = []
        for value, cond in node.args:
            # a condition on a symbol that a sum, integral or Lambda binds is about its values there, not the claim's
            verdict = None if cond.free_symbols & bound else decide(cond, assume)
            if verdict is not None and cond not in (sp.true, sp.false) and (cond, verdict) not in decided:
                decided.append((cond, verdict))
            if verdict is False:
                continue
            if verdict is True and not kept:
                return value
            kept.append((value, cond))
            if verdict is True:
                break
        return sp.Piecewise(*kept) if kept else node

    return expr.replace(lambda e: isinstance(e, sp.Piecewise), one), decided


def wanted(expr, proves):
    """The condition under which ``proves`` (a test that a difference is zero) holds for ``expr`` case by case,
    when it holds in some cases of its ``Piecewise`` parts and not in all; else ``None``. Only for a message."""
    pieces = sorted(expr.atoms(sp.Piecewise), key=sp.default_sort_key)
    if not pieces or math.prod(len(p.args) for p in pieces) > MAX_CASES:
        return None
    if not all(s.is_integer for p in pieces for pair in p.args for s in pair.cond.free_symbols):
        return None  # cases of sizes and counts only: a piecewise function of a real variable is proved otherwise
    if bound_symbols(expr) & set().union(*(pair.cond.free_symbols for p in pieces for pair in p.args)):
        return None
    good, bad = [], 0
    for choice in itertools.product(*(range(len(p.args)) for p in pieces)):
        taken, conds = {}, []
        for p, i in zip(pieces, choice):
            taken[p] = p.args[i].expr
            conds += [sp.Not(p.args[j].cond) for j in range(i)] + [p.args[i].cond]
        where = sp.And(*conds)
        if where is sp.false:
            continue
        if proves(expr.xreplace(taken)):
            good.append(where)
        else:
            bad += 1
    if not good or not bad:
        return None
    return plain(sp.to_nnf(sp.Or(*good)))


def plain(cond):
    """``cond`` as a reader would say it: ``Ne(k, 0)`` for a nonnegative integer ``k`` is ``k >= 1``, and
    ``Ne(n, 1) & Ne(n, 2)`` for a positive integer ``n`` is ``n >= 3``.

    >>> k = sp.Symbol("k", integer=True, nonnegative=True)
    >>> plain(sp.Ne(k, 0) & sp.Ne(k, 1))
    k >= 2
    """
    if isinstance(cond, sp.Or):
        return sp.Or(*(plain(c) for c in cond.args))
    parts = list(cond.args) if isinstance(cond, sp.And) else [cond]
    if not all(isinstance(c, sp.Ne) for c in parts):
        return cond
    symbols = set().union(*(c.free_symbols for c in parts))
    if len(symbols) != 1:
        return cond
    (s,) = symbols
    low = 1 if s.is_positive else 0 if s.is_nonnegative else None
    if not s.is_integer or low is None:
        return cond
    excluded = set()
    for c in parts:
        g = c.lhs - c.rhs
        if not g.is_polynomial(s) or sp.degree(g, s) != 1:
            return cond
        root = sp.solve(g, s)
        if len(root) != 1 or not root[0].is_Integer:
            return cond
        excluded.add(int(root[0]))
    if excluded != set(range(low, low + len(excluded))):
        return cond
    return sp.Ge(s, low + len(excluded))
