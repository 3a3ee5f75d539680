"""Finite sums and products, evaluated exactly: written out term by term where their limits are integers, and
otherwise left to the kernel's own rules.

SymPy's summation is not exact everywhere: ``Σ_{i=0}^{3} f(i) δ(i, x)`` with a real ``x`` is given as ``f(x)``
where ``0 <= x <= 3`` (at ``x = 1/2`` every term is 0), ``Σ_i f(i) δ(2i, c)`` as ``f(c/2)`` for an odd ``c`` too,
and a sum whose upper limit may fall below its lower one without Karr's reversal. So the kernel never lets
``doit`` evaluate a sum: :func:`doit` evaluates everything else (matrix products, transposes, derivatives) with
every sum and product held as it is, and writes out those whose limits are integers, ``Σ_{i=lo}^{hi} f(i) =
f(lo) + … + f(hi)`` (Karr's convention for ``hi < lo - 1``: ``-Σ_{i=hi+1}^{lo-1} f(i)``).

>>> import sympy as sp
>>> i, x = sp.Symbol("i", integer=True), sp.Symbol("x", real=True)
>>> doit(sp.Sum(sp.KroneckerDelta(i, x), (i, 0, 2)))
KroneckerDelta(0, x) + KroneckerDelta(1, x) + KroneckerDelta(2, x)
>>> n = sp.Symbol("n", integer=True)
>>> doit(sp.Sum(sp.KroneckerDelta(i, x), (i, 0, n)))
Sum(KroneckerDelta(i, x), (i, 0, n))
>>> doit(sp.Sum(i, (i, 0, -3)))  # Karr: -(Σ_{i=-2}^{-1} i)
3
"""
from __future__ import annotations

import contextlib

import sympy as sp

__all__ = ["doit", "exact", "install", "written_out", "MAX_TERMS"]

#: a sum or product over more terms than this is held, not written out
MAX_TERMS = 4096

_HELD = (sp.Sum, sp.Product)


def written_out(expr):
    """``expr`` with every sum and product whose limits are integers written out term by term, innermost first;
    the others left as they are."""
    if not isinstance(expr, sp.Basic) or expr.is_Atom or not expr.has(*_HELD):
        return expr
    args = [written_out(a) for a in expr.args]
    expr = expr.func(*args) if args != list(expr.args) else expr
    if isinstance(expr, _HELD) and len(expr.limits) > 1:  # the first limit innermost
        inner = written_out(expr.func(expr.function, expr.limits[0]))
        if not isinstance(inner, _HELD):
            return written_out(expr.func(inner, *expr.limits[1:]))
        # the innermost range runs to an outer index (Σ_{i=0}^{2} Σ_{j=0}^{i}): the outermost written out first,
        # when the terms cannot outnumber MAX_TERMS (each inner range taken as long as the outermost)
        last = expr.limits[-1]
        count = abs(last[2] - last[1]) + 1 if len(last) == 3 else None
        if count is None or not count.is_Integer or count ** len(expr.limits) > MAX_TERMS:
            return expr
        out = _range_written(expr.func, expr.func(expr.function, *expr.limits[:-1]), last)
        return expr if out is None else out
    if not isinstance(expr, _HELD) or len(expr.limits) != 1:
        return expr
    out = _range_written(expr.func, expr.function, expr.limits[0])
    return expr if out is None else out


def _range_written(kind, body, limit):
    """The sum or product (``kind``) of ``body`` over one ``limit`` written out term by term, each term written out
    too; ``None`` when its limits are not integers or it has more than :data:`MAX_TERMS` terms."""
    if len(limit) != 3:
        return None
    t, lo, hi = limit
    if not (lo.is_Integer and hi.is_Integer):
        return None
    lo, hi, sign = int(lo), int(hi), 1
    if hi < lo - 1:  # Karr's convention: Σ_{lo}^{hi} = -Σ_{hi+1}^{lo-1}, Π_{lo}^{hi} = 1 / Π_{hi+1}^{lo-1}
        lo, hi, sign = hi + 1, lo - 1, -1
    if hi - lo + 1 > MAX_TERMS:
        return None
    terms = [written_out(body.subs(t, sp.Integer(k))) for k in range(lo, hi + 1)]  # subs keeps inner bindings
    if kind is sp.Sum:
        return sign * sp.Add(*terms)
    value = sp.Mul(*terms)
    return value if sign == 1 else 1 / value


def _doit(self, **hints):
    """``Sum.doit`` and ``Product.doit`` while :func:`doit` runs: the body evaluated (``deep``), the sum itself
    written out at integer limits, else held."""
    body = self.function.doit(**hints) if hints.get("deep", True) else self.function
    return written_out(self.func(body, *self.limits))


def _held_integral(self, **hints):
    """``Integral.doit`` while :func:`doit` runs: the integrand evaluated (``deep``), the integral held. SymPy's
    integrator is not exact everywhere: its antiderivative of ``|sin t|`` is wrong past 2π (``∫₀^{3π} |sin t| dt``
    comes out 2, not 6), and ``∫₀¹ sign(t − a) dt`` comes out with the bound ``t`` free."""
    body = self.function.doit(**hints) if hints.get("deep", True) else self.function
    return self.func(body, *self.limits)


_depth = [0]  # how many `exact()` blocks are open


@contextlib.contextmanager
def exact():
    """While the block runs, ``Sum.doit`` and ``Product.doit`` write out a sum at integer limits and hold any
    other, and ``Integral.doit`` holds every integral: the kernel enters it while it checks a claim or a step, so
    that no value it reads (``lhs - rhs`` of matrix expressions, which SymPy builds with ``doit``, included) comes
    from SymPy's summation or its integrator. SymPy's own behaviour is back once the outermost block is left."""
    if _depth[0] == 0:
        saved = sp.Sum.doit, sp.Product.doit, sp.Integral.doit
        sp.Sum.doit = sp.Product.doit = _doit
        sp.Integral.doit = _held_integral
    _depth[0] += 1
    try:
        yield
    finally:
        _depth[0] -= 1
        if _depth[0] == 0:
            sp.Sum.doit, sp.Product.doit, sp.Integral.doit = saved


def doit(expr, **hints):
    """``expr.doit()`` with every sum and product held, or written out where its limits are integers
    (:func:`written_out`), never evaluated by SymPy's summation."""
    if not isinstance(expr, sp.Basic):
        return expr
    with exact():
        return written_out(expr.doit(**hints))


# -- what SymPy reads of a sum's or a product's sign, with Karr's convention and empty ranges --------------------------
def _forward(self) -> bool:
    """Whether every range of ``self`` is known to hold at least one term, read forward (``upper >= lower``)."""
    return all(len(lim) == 3 and (lim[2] - lim[1]).is_nonnegative for lim in self.limits)


def _sum_signed(self, positive: bool):
    """``Sum._eval_is_positive`` (``positive``) and ``_eval_is_negative``: SymPy's say positive for positive terms
    over a range that may be empty (a sum of none is 0), and not positive for terms that are not, though complex
    ones may add up to a positive number. Here: positive for positive terms over a range known to hold one; not
    positive for real terms none of which is positive, over a range read forward or empty."""
    if not self.has_finite_limits:
        return None
    term = self.function
    if _forward(self) and (term.is_positive if positive else term.is_negative):
        return True
    if self.has_reversed_limits is False and (term.is_extended_nonpositive if positive else
                                              term.is_extended_nonnegative):
        return False
    return None


def _sum_positive(self):
    return _sum_signed(self, True)


def _sum_negative(self):
    return _sum_signed(self, False)


def _product_zero(self):
    """``Product._eval_is_zero``: SymPy's says zero for a zero factor over a range that may be empty (a product of
    none is 1) or reversed (Karr: 1 over the product of the range between, which divides by that 0)."""
    if self.has_empty_sequence:
        return False
    if self.term.is_zero and _forward(self):
        return True
    return None


def _product_nonpositive(self):
    """``Product._eval_is_extended_nonpositive``: SymPy's says nonpositive for an empty product, which is 1 (and
    positive to SymPy too: which reading wins depended on the order of a hash)."""
    if self.has_empty_sequence:
        return False
    return None


_READINGS = {sp.Sum: {"positive": _sum_positive, "negative": _sum_negative},
             sp.Product: {"zero": _product_zero, "extended_nonpositive": _product_nonpositive}}


def install():
    """Make SymPy read a sum's and a product's sign as Karr's convention and empty ranges make it (done once, when
    derive is imported): :func:`_sum_signed`, :func:`_product_zero`,
    :func:`_product_nonpositive`. SymPy's own readings stay reachable as ``.sympy`` on the replacements.

    >>> k, n = sp.Symbol("k", integer=True), sp.Symbol("n", integer=True, nonnegative=True)
    >>> install()
    >>> sp.Sum(1, (k, 0, n - 1)).is_positive, sp.Product(0, (k, 1, n)).is_zero  # 0 and 1 at n = 0
    (None, None)
    """
    for cls, readings in _READINGS.items():
        for fact, reading in readings.items():
            if cls._prop_handler.get(fact) is reading:
                continue
            reading.sympy = getattr(cls, f"_eval_is_{fact}", None)
            setattr(cls, f"_eval_is_{fact}", reading)
            cls._prop_handler[fact] = reading
