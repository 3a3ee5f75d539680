"""The sign of a closed number, as the kernel lets SymPy read it: certified by an enclosure, or not read at all.

SymPy decides whether a closed number is positive, negative or zero from two digits of its value
(``Expr._eval_is_extended_positive_negative``), compares two closed numbers the same way (``_n2`` in
``sympy.core.relational``), and takes a floor or ceiling from digits too (``get_integer_part``), as it does
whether two closed numbers are equal (``Expr.equals``) and a relation between them (``Relational._eval_simplify``,
in ``simplify``). Digits can lie
where a number is exactly zero but not written as zero: ``sinh(sin(π(√(3+2√2) − √2)))`` is ``sinh(sin(π)) = 0``,
yet SymPy calls it positive, so ``sign`` of it is 1, ``Heaviside`` and ``ceiling`` of it are 1, ``x + it > 0``
holds for every ``x ≥ 0``, and a ``Piecewise`` takes the branch whose condition it makes true. A value jumps
there, and a verdict read from it is wrong.

While derive is imported (:func:`install`), each reads a closed number by
:func:`derive.kernel.certify.excluding_zero` instead: positive or negative where an ``arb`` ball certifies it, not
real where an ``acb`` box's imaginary part excludes zero, zero where SymPy's own exact test says so (the minimal
polynomial of an algebraic number), and unknown otherwise: ``sign`` of the number above stays ``sign(…)``. It is
done for the whole process, not around the kernel's work, since SymPy keeps what it once read of an expression on
the expression itself. A number whose sign SymPy read right from digits, and an enclosure certifies, reads the
same; only a number no enclosure decides (zero, or a function ``arb`` does not evaluate) reads as unknown. A
``Float`` in a number is read as the binary fraction it holds, so ``round(1e-20·π + 1)`` is 1 and ``int(π/1e20)`` is 0,
as in SymPy alone. Two of SymPy's routines assumed every sign decided: ``Mod`` of closed numbers returned an
unchecked remainder (:func:`_mod_eval`), and rounding a number not known real recursed without end (:func:`_round`).
``_monotonic_sign`` (how SymPy bounds a sum with symbols) takes such a number for nonzero because it is not the
object 0, so it is not asked about an expression that holds one.
"""
from __future__ import annotations

import functools

import sympy as sp
from sympy.core import exprtools, relational
from sympy.core.expr import Expr
from sympy.functions.elementary import integers

from .certify import Undecided, enclose_complex, excluding_zero, short_text

__all__ = ["closed_sign", "install"]

_reading: set = set()  # the numbers being read now: one met again inside its own reading is unknown


def _exact(number):
    """``number`` with each SymPy ``Float`` in it written as the binary fraction it holds (a ``Float`` is that
    fraction exactly; only a certificate refuses it, :mod:`derive.kernel.certify`, since a claim never holds one)."""
    floats = number.atoms(sp.Float)
    return number.xreplace({f: sp.Rational(f) for f in floats}) if floats else number


@functools.lru_cache(maxsize=8192)
def _sign(number):
    number = _exact(number)
    if number.is_Rational:
        return (number.p > 0) - (number.p < 0)
    found = excluding_zero(number)
    if found is not None:
        box, method = found
        if method.startswith("arb"):
            return 1 if box > 0 else -1
        if box.imag > 0 or box.imag < 0:
            return "not real"
        return "nonzero"
    if not number.has(sp.Function) and number.is_algebraic:
        from sympy.polys.numberfields import minimal_polynomial
        from sympy.polys.polyerrors import BasePolynomialError, NotAlgebraic

        try:
            if minimal_polynomial(number).is_Symbol:  # x: the number is exactly 0
                return 0
        except (NotAlgebraic, NotImplementedError, ValueError, BasePolynomialError):
            pass  # (a tower of powers too large for the polynomial code: ((4^4)^(4^4))^((4^4)^(4^4)) − 1)
    return None


def closed_sign(number):
    """``1``, ``-1`` or ``0`` for a closed real number whose sign is certain, ``"not real"`` for one certainly off
    the real line, ``"nonzero"`` for one certainly not zero whose realness no enclosure tells (a complex box around
    it excludes zero, and its imaginary part does not), ``None`` when neither an enclosure nor an exact test tells.

    >>> import sympy as sp
    >>> zero = sp.sinh(sp.sin(sp.pi * (sp.sqrt(3 + 2 * sp.sqrt(2)) - sp.sqrt(2))))
    >>> closed_sign(sp.pi - 3), closed_sign(zero), closed_sign(sp.sqrt(3 + 2 * sp.sqrt(2)) - sp.sqrt(2) - 1)
    (1, None, 0)
    >>> closed_sign(sp.Rational(-1, 3)), closed_sign(sp.Float(0.1) * 3 - sp.Float(0.3))  # (a Float: its binary value)
    (-1, 1)
    """
    if number in _reading:
        return None
    _reading.add(number)
    try:
        return _sign(number)
    except (TypeError, ValueError, ArithmeticError, RecursionError):
        return None
    finally:
        _reading.discard(number)


def _positive_negative(self, positive):
    """``Expr._eval_is_extended_positive_negative``, read from a certified sign."""
    if not self.is_number:
        return None
    sign = closed_sign(self)
    if sign == "not real":
        return False
    if sign is None or sign == "nonzero":  # (nonzero, of a sign no enclosure tells: not "neither", which is zero)
        return None
    return sign == (1 if positive else -1)


def _difference(a, b):
    """``relational._n2``: the difference of two comparable numbers, as a number of its certified sign."""
    if not (a.is_comparable and b.is_comparable):
        return None
    difference = a - b
    if difference.is_Number:  # exact, or ±∞ (NaN compares with nothing)
        return difference if difference.is_comparable else None
    sign = closed_sign(difference)
    return sp.Integer(sign) if sign in (1, -1, 0) else None


def _integer_part(expr, no, options, return_ints=False):
    """``evalf.get_integer_part`` (the ceiling, ``no = 1``, or floor, ``no = -1``, of a closed number), kept only
    where an enclosure certifies it: SymPy's ``ceiling(c)`` is 1 for the zero ``c`` above, from its digits."""
    from sympy.core.evalf import PrecisionExhausted

    if not return_ints:  # (SymPy's integers module, where this stands, always asks for integers)
        raise PrecisionExhausted("an integer part is read here only as integers")
    found = _integer_part.sympy(expr, no, options, return_ints=True)
    real, imag = found
    try:
        box = enclose_complex(_exact(expr), 128)
    except (Undecided, TypeError, ValueError, ArithmeticError):
        raise PrecisionExhausted("no enclosure of the number") from None
    for part, whole in ((box.real, real), (box.imag, imag)):
        low, high = (whole - 1, whole) if no == 1 else (whole, whole + 1)  # ceiling: (n − 1, n]; floor: [n, n + 1)
        inside = (part > low and part <= high) if no == 1 else (part >= low and part < high)
        if not (part.is_finite() and inside):
            raise PrecisionExhausted("the integer part is not certain")
    return found


def _equals(self, other, failing_expression=False):
    """``Expr.equals``, whose "not equal" for two closed numbers is kept only where an enclosure certifies their
    difference nonzero: SymPy reads it from digits at a random point (``c.equals(0)`` is False for the zero ``c``
    above), and ``int``, ``Mod`` and ``simplify`` act on that reading."""
    try:
        difference = self - sp.sympify(other)
    except (TypeError, ValueError, sp.SympifyError):
        difference = None
    closed = isinstance(difference, Expr) and difference.is_number
    sign = closed_sign(difference) if closed else None
    if sign is not None:  # certain: not asked of SymPy, whose tests of a closed number can take seconds
        return sign == 0
    found = _equals.sympy(self, other, failing_expression=failing_expression)
    if found is False and closed:
        return difference if failing_expression else None
    return found


def _relation_simplify(self, **kwargs):
    """``Relational._eval_simplify``, which decides a relation between two closed real numbers from two digits of
    their difference: here it is decided only as :func:`closed_sign` certifies it, and otherwise left as it is."""
    lhs, rhs = self.args[:2]
    if isinstance(lhs, Expr) and isinstance(rhs, Expr):
        difference = lhs - rhs
        if difference.is_number and difference.is_comparable:
            relation = self.func(*[side.simplify(**kwargs) for side in self.args])
            if not relation.is_Relational:
                return relation
            sign = closed_sign(relation.lhs - relation.rhs)
            if sign in (1, -1, 0):
                return relation.func._eval_relation(sp.Integer(sign), sp.S.Zero)
            return relation
    return _relation_simplify.sympy(self, **kwargs)


def _uncertain(expr) -> bool:
    """Whether ``expr`` holds a closed number whose sign no enclosure certifies (a zero not written as 0)."""
    return any(not node.is_Atom and isinstance(node, Expr) and node.is_number and closed_sign(node) is None
               for node in sp.preorder_traversal(expr))


def _monotonic(self):
    """``exprtools._monotonic_sign``, which takes a closed number that is not the object 0 for nonzero (``if y:``):
    ``n − 1 + |c|`` is positive to it for a positive integer n. Not asked where such a number is in ``self``, nor of
    a sum of a constant and a quotient of several symbols: SymPy bounds the quotient by its value at the symbols'
    least values, which is its largest (``1/(xy) − 1/2`` was positive to it for positive integers x, y; 0 at 1, 2)."""
    if _uncertain(self):
        return None
    if isinstance(self, sp.Expr) and len(self.free_symbols) > 1 and not self.as_coeff_Add()[1].is_polynomial():
        return None
    return _monotonic.sympy(self)


def _sign_power(self, other):
    """``sign(u)ᵉ`` for an even e: 1 only for a real ``u ≠ 0``. SymPy's rule (``sign._eval_power``) asks only that u is
    nonzero, and so makes sign(3 + 4i)² 1, which is (3 + 4i)²/25: sign(y)² = y/ȳ was refuted at a complex y, and a
    chain step squaring sign(x + i) proved 1 = (x + i)²/(x² + 1)."""
    if self.args[0].is_extended_real is not True:
        return None
    return _sign_power.sympy(self, other)


def _round(self, n=None):
    """``Expr.round``, which for a closed number not known real rounds its real part, and rounds again when that is
    the number itself (``−1/B``, B an incomplete beta function's value: real if B ≠ 0, which no enclosure here
    decides), without end: here it says it cannot (``int`` of it, and so ``Mod`` by B, raised a ``RecursionError``)."""
    if self.is_number and not self.is_Atom and self.is_extended_real is None:
        if self.as_real_imag()[0] == self:
            raise TypeError(f"cannot round {short_text(self, 60)}: whether it is a real number is not certain")
    return _round.sympy(self, n)


def _mod_eval(cls, p, q):
    """``Mod.eval``, whose value of two closed numbers lies between 0 and q only where the sign of (p mod q)·q is
    decided: where it is not (derive reads it only as an enclosure certifies it), SymPy returned p − trunc(p/q)·q
    unchecked, truncated toward 0 (``Mod(−1, i^{2i})`` was −1 + 23·e^{−π} < 0, for −1 + 24·e^{−π}). Here such a value
    is kept only where it is certainly in [0, q) (or (q, 0]); otherwise the remainder stays ``Mod(p, q)``."""
    out = _mod_eval.sympy(p, q)
    if out is None or isinstance(out, sp.Mod) or not (p.is_number and q.is_number) or (p.is_Number and q.is_Number):
        return out
    if out is sp.nan or (closed_sign(out * q) in (0, 1) and closed_sign((q - out) * q) == 1):
        return out
    return None


def install():
    """Make SymPy read the sign of a closed number only as :func:`closed_sign` certifies it, and square only a real
    number's sign to 1 (:func:`_sign_power`) (done once, when derive is imported; SymPy's own functions stay
    reachable as ``.sympy`` on the replacements)."""
    if getattr(relational._n2, "sympy", None) is not None:
        return
    _positive_negative.sympy = Expr._eval_is_extended_positive_negative
    _difference.sympy = relational._n2
    _integer_part.sympy = integers.get_integer_part
    _equals.sympy = Expr.equals
    _relation_simplify.sympy = relational.Relational._eval_simplify
    _monotonic.sympy = exprtools._monotonic_sign
    _sign_power.sympy = sp.sign._eval_power
    _round.sympy = Expr.round
    _mod_eval.sympy = sp.Mod.eval
    Expr._eval_is_extended_positive_negative = _positive_negative
    Expr.round = _round
    Expr.__round__ = _round
    sp.Mod.eval = classmethod(_mod_eval)
    sp.sign._eval_power = _sign_power
    relational._n2 = _difference
    integers.get_integer_part = _integer_part
    Expr.equals = _equals
    relational.Relational._eval_simplify = _relation_simplify
    exprtools._monotonic_sign = _monotonic
