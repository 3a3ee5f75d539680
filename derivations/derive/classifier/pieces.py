"""An activation built from polynomials and ``Max``/``Min``/``Abs``/``sign``/``Heaviside``/``Piecewise``, in pieces.

Such a σ is a piecewise polynomial: finitely many breakpoints (real roots of the arguments of the kinks and of
the conditions, found exactly, piece by piece), and on each open interval between them one polynomial.
:func:`pieces` finds them; :func:`deviation` then names an exact point at which σ leaves a given two-slope form
``c₊ max(z, 0) + c₋ min(z, 0)`` (a linear σ is the case ``c₊ = c₋``), or ``None`` when σ is that form.

This analysis proves nothing: :mod:`derive.classify` uses it to pick witnesses (which the kernel certifies on the
layer) and to choose how to ask the kernel for a proof. Anything it cannot read exactly gives ``None``.

>>> import sympy as sp
>>> from derive.layers.activations import z
>>> p = pieces(sp.Min(100, sp.Max(0, z)))
>>> p.breakpoints, [sp.sstr(q) for q in p.polynomials]
([0, 100], ['0', 'z', '100'])
>>> deviation(p, 1, 0)
101
>>> deviation(pieces(sp.Max(0, z) - sp.Max(0, -z)), 1, 1) is None
True
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from ..layers.activations import z

__all__ = ["Pieces", "pieces", "deviation", "MAX_DEGREE"]

#: the highest degree of a piece (and of an argument) the analysis handles
MAX_DEGREE = 64
_KINKS = (sp.Max, sp.Min, sp.Abs, sp.sign, sp.Heaviside)


@dataclass(frozen=True)
class Pieces:
    """σ on ℝ: sorted exact ``breakpoints``; ``samples[i]`` a rational inside interval ``i`` (left of the first
    breakpoint, between consecutive ones, right of the last) and ``polynomials[i]`` σ there."""

    expr: sp.Expr
    breakpoints: list
    samples: list
    polynomials: list

    def value(self, point):
        """σ at an exact point."""
        return self.expr.xreplace({z: point})


class _NotPiecewisePolynomial(Exception):
    pass


def _check(expr, degree=1):
    """Raise unless ``expr`` is built from z, exact real algebraic constants, + * and small integer powers, kinks
    and Piecewise; returns a bound on its degree in z."""
    if expr == z:
        return 1
    if expr.is_number:
        if expr.has(sp.Float) or not expr.is_real or not expr.is_algebraic:
            raise _NotPiecewisePolynomial(expr)
        return 0
    if isinstance(expr, sp.Add):
        return max(_check(a) for a in expr.args)
    if isinstance(expr, sp.Mul):
        return sum(_check(a) for a in expr.args)
    if isinstance(expr, sp.Pow):
        e = expr.exp
        if not (e.is_Integer and 0 <= e <= MAX_DEGREE):
            raise _NotPiecewisePolynomial(expr)
        return _check(expr.base) * int(e)
    if isinstance(expr, _KINKS):
        if isinstance(expr, sp.Heaviside) and len(expr.args) > 1 and not expr.args[1].is_Rational:
            raise _NotPiecewisePolynomial(expr)
        return max(_check(a) for a in expr.args[:1 if isinstance(expr, sp.Heaviside) else None])
    if isinstance(expr, sp.Piecewise):
        for value, cond in expr.args:
            _check_condition(cond)
        return max(_check(v) for v, _ in expr.args)
    raise _NotPiecewisePolynomial(expr)


def _check_condition(cond):
    if cond in (sp.true, sp.false):
        return
    if isinstance(cond, (sp.And, sp.Or, sp.Not)):
        for a in cond.args:
            _check_condition(a)
        return
    if isinstance(cond, sp.core.relational.Relational):
        _check(cond.lhs)
        _check(cond.rhs)
        return
    raise _NotPiecewisePolynomial(cond)


def _relationals(cond):
    if isinstance(cond, sp.core.relational.Relational):
        return [cond]
    return [r for a in getattr(cond, "args", ()) for r in _relationals(a)]


def _sign(value) -> int:
    value = sp.nsimplify(value) if value.has(sp.Float) else value
    if value == 0 or value.is_zero:
        return 0
    if value.is_positive:
        return 1
    if value.is_negative:
        return -1
    raise _NotPiecewisePolynomial(value)


def _restrict(expr, t):
    """``expr`` on the open interval around the rational ``t`` that no breakpoint meets: a polynomial in z."""
    if expr == z or expr.is_number:
        return expr
    if isinstance(expr, (sp.Add, sp.Mul, sp.Pow)):
        return expr.func(*[_restrict(a, t) for a in expr.args])
    if isinstance(expr, (sp.Max, sp.Min)):
        parts = [_restrict(a, t) for a in expr.args]
        values = [p.xreplace({z: t}) for p in parts]
        pick = max if isinstance(expr, sp.Max) else min
        best = pick(range(len(parts)), key=lambda k: values[k])
        return parts[best]
    if isinstance(expr, sp.Abs):
        inner = _restrict(expr.args[0], t)
        return inner * _sign(inner.xreplace({z: t}))
    if isinstance(expr, sp.sign):
        return sp.Integer(_sign(_restrict(expr.args[0], t).xreplace({z: t})))
    if isinstance(expr, sp.Heaviside):
        s = _sign(_restrict(expr.args[0], t).xreplace({z: t}))
        return sp.Integer(1) if s > 0 else sp.Integer(0) if s < 0 else sp.Heaviside(0, *expr.args[1:])
    if isinstance(expr, sp.Piecewise):
        for value, cond in expr.args:
            held = cond.xreplace({z: t})
            if held is sp.true:
                return _restrict(value, t)
            if held is not sp.false:
                raise _NotPiecewisePolynomial(cond)
        raise _NotPiecewisePolynomial(expr)  # undefined there
    raise _NotPiecewisePolynomial(expr)


def _between(lo, hi):
    """The simplest rational strictly between the exact reals ``lo < hi`` (``None`` stands for ∓∞)."""
    if lo is None and hi is None:
        return sp.Integer(0)
    if lo is None:
        return sp.Integer(sp.floor(hi) - 1)
    if hi is None:
        return sp.Integer(sp.floor(lo) + 1)
    for den in range(1, 1 << 20):
        num = int(sp.floor(lo * den)) + 1
        q = sp.Rational(num, den)
        if q > lo and q < hi:
            return q
    raise _NotPiecewisePolynomial((lo, hi))


def _intervals(points):
    points = sorted(points, key=lambda r: (sp.N(r, 30), sp.default_sort_key(r)))
    bounds = [None, *points, None]
    return points, [_between(bounds[k], bounds[k + 1]) for k in range(len(points) + 1)]


def _roots_inside(poly_expr, lo, hi):
    poly_expr = sp.expand(poly_expr)
    if poly_expr == 0 or not poly_expr.has(z):
        return []
    poly = sp.Poly(poly_expr, z)
    if poly.degree() > MAX_DEGREE:
        raise _NotPiecewisePolynomial(poly_expr)
    if all(c.is_Rational for c in poly.all_coeffs()):
        roots = sp.real_roots(poly)
    else:
        found = sp.solveset(poly_expr, z, sp.S.Reals)
        if not isinstance(found, sp.FiniteSet):
            raise _NotPiecewisePolynomial(poly_expr)
        roots = list(found)
    return [r for r in roots if (lo is None or r > lo) and (hi is None or r < hi)]


def _breakpoints(expr):
    if expr == z or expr.is_number:
        return set()
    if isinstance(expr, sp.Piecewise):
        inner = set()
        for value, cond in expr.args:
            inner |= _breakpoints(value)
            for rel in _relationals(cond):
                inner |= _breakpoints(rel.lhs) | _breakpoints(rel.rhs)
        watched = [rel.lhs - rel.rhs for _, cond in expr.args for rel in _relationals(cond)]
    else:
        inner = set().union(*(_breakpoints(a) for a in expr.args))
        if isinstance(expr, (sp.Max, sp.Min)):
            watched = [a - b for k, a in enumerate(expr.args) for b in expr.args[k + 1:]]
        elif isinstance(expr, _KINKS):
            watched = [expr.args[0]]
        else:
            return inner
    points, samples = _intervals(inner)
    bounds = [None, *points, None]
    found = set(inner)
    for k, t in enumerate(samples):
        for w in watched:
            found |= set(_roots_inside(_restrict(w, t), bounds[k], bounds[k + 1]))
    return found


def pieces(expr) -> Pieces | None:
    """σ as a piecewise polynomial, or ``None`` when it is not one (or not exactly readable)."""
    try:
        if _check(expr) > MAX_DEGREE:
            return None
        points, samples = _intervals(_breakpoints(expr))
        polys = [sp.expand(_restrict(expr, t)) for t in samples]
    except (_NotPiecewisePolynomial, sp.PolynomialError, NotImplementedError, TypeError, ValueError):
        return None
    return Pieces(expr, points, samples, polys)


def _height(q) -> int:
    q = Fraction(int(q.p), int(q.q))
    return max(abs(q.numerator), q.denominator)


def deviation(p: Pieces, c_plus, c_minus):
    """An exact point at which σ differs from ``c₊ max(z, 0) + c₋ min(z, 0)``, or ``None`` when it does not.

    Rational points are preferred (inside an interval, the sample first, then points around it); a breakpoint
    itself is offered only when σ differs nowhere else.
    """
    c_plus, c_minus = sp.sympify(c_plus), sp.sympify(c_minus)

    def form(t):
        return c_plus * t if t > 0 else c_minus * t

    def differs(t):
        gap = p.value(t) - form(t)
        return not (gap == 0 or sp.expand(gap) == 0 or sp.nsimplify(gap) == 0)

    bounds = [None, *p.breakpoints, None]
    found = []
    for k, (t, poly) in enumerate(zip(p.samples, p.polynomials)):
        lo, hi = bounds[k], bounds[k + 1]
        near = [t, 2 * t, t / 2, t + 1, t - 1, 3 * t, t / 3, *(t + sp.Rational(d, 7) for d in (1, -1, 2, -2, 3, -3))]
        if (lo is None or lo < 0) and (hi is None or hi > 0):  # an interval holding 0: compare on each side
            near += [sp.Rational(s, n) for n in (2, 3, 4) for s in (1, -1)]
        inside = {q for q in near if (lo is None or q > lo) and (hi is None or q < hi)}
        candidates = sorted(inside, key=lambda q: (_height(q), bool(q < 0), Fraction(int(q.p), int(q.q))))
        for q in candidates:
            if differs(q):
                found.append(q)
                break
    if found:
        return min(found, key=_height)
    for r in [*p.breakpoints, sp.Integer(0)]:
        if differs(r):
            return r
    return None
