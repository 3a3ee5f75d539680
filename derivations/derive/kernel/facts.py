"""SymPy's facts of a sign, a parity or a finiteness that fail for some values, as the kernel lets SymPy read them.

Each fact below was read from the arguments' assumptions without asking whether every value they allow has it.
The kernel builds on such facts (a value read as negative is nonzero and is divided by; a value read as finite is
cancelled by 0·v = 0), so while derive is imported (:func:`install`) each is read only where it holds; elsewhere
SymPy is as it was. :mod:`derive.kernel.zeros` holds the readings that miss a zero.

* ``binomial(n, k)`` for integers is negative only for n < 0 and an odd k ≥ 0: SymPy read it as negative for
  every odd k (``binomial(5, 1) = 5``, ``binomial(−4, −3) = 0``). For a negative integer n and a k that may be an
  integer it is not ``zoo``: SymPy wrote it so (``binomial(−4, 1) = −4``); it is held now. For a k not an integer
  it may still be an integer (``binomial(1/2, 1/2) = 1``, ``binomial(1/2, 3/2) = 0``): SymPy said it is not.
* ``x^(y/2)`` for a negative x is imaginary only where y is odd: SymPy read it as imaginary for any integer y, as
  if ``y/2`` were known not to be an integer (at y = 2 it is x), and from that as not real, not rational, nonzero.
* A positive integer power of a number not known to be an integer may be even or odd: ``(2i)² = −4`` and
  ``(√2)² = 2`` are even, ``i² = −1`` is odd; SymPy read them as neither, from the base's parity alone.
* A power with an exponent not known real may be real or imaginary: ``p^i`` is i at p = e^{π/2} and ``i^z`` is
  real at z = 2 + i; SymPy read them as never (``i^z + e^{−π/2}`` was divided by).
* A rational base that is not an integer, to a power not known to be an integer, may be an integer ((3/2)^x is 2 at
  x = log 2/log(3/2): ``divide((3/2)^x − 2)`` was proved); an irrational base that is not transcendental, to an
  integer power, may be rational ((φ + y)² is 5/4 at y = −1/2).
* ``floor(x) ≤ c`` is ``x < c + 1``, and ``x < ⌈c⌉`` only for a c that is not an integer: SymPy wrote the second for
  every number c not known an integer, so ``floor(x) ≤ (1 + √2)(√2 − 1)``, which is ``floor(x) ≤ 1``, was built as
  ``x < 1`` (false at x = 3/2); so ``floor(x) > c``, ``ceiling(x) < c`` and ``ceiling(x) ≥ c``. Such a comparison is
  held as written where c is not known an integer or not.
* ``log u`` is finite only where u ≠ 0; SymPy read it as finite for any finite u (log 0 = −∞, SymPy's ``zoo``).
* ``ψ⁽ⁿ⁾(z)`` (``polygamma``) has poles at 0, −1, −2, …: SymPy read it as finite at z = 0 and, for an odd n
  and a real z, as positive at every pole.
* ``Γ(x)`` of a non-integer x is negative for ⌊x⌋ odd only when x < 0: SymPy read ``Γ(2k + 3/2)`` for an
  integer k as not positive (at k = 0 it is Γ(3/2) = √π/2).
* ``B(x, y)`` (``beta``) is real for real x, y only away from its poles: SymPy read it as real, so finite, at
  ``B(−4, −3)``.
* A function with poles (tan, sec, cot, csc, coth, csch, log, ζ … the kernel's table of them) has no sign, parity
  or realness at a pole, where its value is SymPy's ``zoo``: SymPy read ``tan(πk/2)`` for an integer k as real,
  algebraic and so finite, ``tan x`` and ``csch x`` for a real x as extended real. Each such fact now needs the
  pole's condition (``cos(πk/2) ≠ 0``) known.
* A product is an integer by its factors' parities only as far as they settle it: SymPy read an even number over
  odd ones as never an integer (``e/3`` for an even e, which is 0 at e = 0 and 2 at e = 6: ``divide(e/3)`` was
  proved), and an even number over an even denominator as an integer counting only the denominator's factors of 2
  (``e/6`` at e = 2 is 1/3: ``divide(e/6 − 1/3)`` was proved).
* A rising or falling factorial ``rf(x, k)``, ``ff(x, k)`` may be an integer for a negative k or a non-integer x
  (``rf(0, −1) = −1``; ``rf(x, 2) = 1`` at x = (√5 − 1)/2): SymPy read it as not an integer unless x and k ≥ 0
  are.
* The real part, the imaginary part and the modulus of a transcendental number may be algebraic (``im π = 0``,
  ``re(iπ) = 0``, ``|e^i| = 1``): SymPy read them as transcendental, so nonzero, not 1, not an integer, for a
  symbol declared ``transcendental`` or ``algebraic=False`` (``divide(im t)`` was proved).
* An integral of a nonzero integrand between two different limits may be 0 (∫ t dt from −a to a; ∫ eᵗ dt from 0 to
  2πi): SymPy read it as nonzero, the integrand read by its variable's assumptions (``t`` declared positive) or as
  if the path were real.

>>> import sympy as sp
>>> install()
>>> n, j = sp.Symbol("n", integer=True), sp.Symbol("j", odd=True)
>>> x, y, s = sp.Symbol("x", negative=True), sp.Symbol("y", integer=True), sp.Symbol("s", imaginary=True)
>>> sp.binomial(n, j).is_negative, (x**(y / 2)).is_imaginary, (s**2).is_even, sp.log(n).is_finite
(None, None, None, None)
"""
from __future__ import annotations

import sympy as sp
from sympy.core.assumptions import _assume_defined
from sympy.core.intfunc import trailing
from sympy.core.logic import fuzzy_and, fuzzy_not, fuzzy_or
from sympy.core.relational import is_gt

from .wellformed import _POLES

__all__ = ["install", "handle"]


def handle(cls, fact: str, handler) -> None:
    """Make ``handler`` SymPy's reading of ``fact`` for ``cls`` (its class attribute and the table SymPy built of
    them when the class was made)."""
    setattr(cls, f"_eval_is_{fact}", handler)
    cls._prop_handler[fact] = handler


def _binomial_nonnegative(self):
    n, k = self.args
    if n.is_integer and k.is_integer:
        if n.is_nonnegative or k.is_negative or k.is_even:
            return True
        if n.is_negative and k.is_nonnegative and k.is_odd:
            return False  # (−1)^k·C(k − n − 1, k) with C(…) ≥ 1
    return None


def _binomial_eval(original):
    def eval(cls, n, k):
        out = original(cls, n, k)
        if out is sp.zoo and sp.sympify(k).is_integer is not False:
            return None  # complex infinity only at a k that is not an integer
        return out
    return classmethod(eval)


def _binomial_integer(self):
    n, k = self.args
    return True if n.is_integer and k.is_integer else None


def _withheld(original, answer, doubtful):
    """``original``, a handler of a fact, answering nothing where it answers ``answer`` and ``doubtful(self)``."""
    def read(self):
        out = original(self)
        return None if out is answer and doubtful(self) else out
    return read


def _real_base_maybe_integer_power(self):
    return self.base.is_extended_real and self.exp.is_integer is not False  # then it is real, not imaginary


def _exponent_not_known_real(self):
    """``p^i`` is i at p = e^{π/2}, ``i^z`` is real at z = 2 + i (−e^{−π/2}); a number SymPy reads itself."""
    return self.exp.is_extended_real is not True and not self.is_number


def _rational_base_exponent_not_known_integer(self):
    """(3/2)^x is 2 at x = log 2/log(3/2)."""
    b, e = self.base, self.exp
    return b.is_rational and b.is_integer is False and e.is_integer is not True and not (b.is_Number and e.is_Number)


def _algebraic_irrational_base(self):
    """(φ + y)² is 5/4 at y = −1/2: only a transcendental base stays irrational at every integer power."""
    b = self.base
    return self.exp.is_integer and b.is_irrational and b.is_transcendental is not True and not self.is_number


def _base_not_known_integer(self):
    """(2i)² = −4 is even, i² = −1 odd: a power's parity follows its base's only for an integer base."""
    return self.base.is_integer is not True


def _log_finite(self):
    arg = self.args[0]
    if arg.is_zero:
        return False
    return arg.is_finite if arg.is_zero is False else None


def _off_the_poles(z):
    """Whether ``z`` is known not to be one of 0, −1, −2, … (the poles of Γ and ψ⁽ⁿ⁾)."""
    return fuzzy_or([z.is_positive, fuzzy_not(z.is_integer)])


def _polygamma_complex(self):
    z = self.args[1]
    return fuzzy_and([z.is_complex, fuzzy_not(fuzzy_and([z.is_nonpositive, z.is_integer]))])


def _polygamma_positive(self):
    n, z = self.args
    if n.is_positive:
        if n.is_odd and z.is_real and _off_the_poles(z):
            return True
        if n.is_even and z.is_positive:
            return False
    return None


def _gamma_positive(self):
    x = self.args[0]
    if x.is_positive:
        return True
    if x.is_noninteger:
        even = sp.floor(x).is_even
        return True if even else (False if even is False and x.is_negative else None)
    return None


def _beta_real(self):
    if all(a.is_real and _off_the_poles(a) for a in self.args):
        return True
    return None  # (at a pole it is not a number; arguments not real may still give a real value)


def _factorial_integer(self):
    return True if fuzzy_and((self.args[0].is_integer, self.args[1].is_integer, self.args[1].is_nonnegative)) \
        else None


def _mul_integer(self):
    """SymPy's ``Mul._eval_is_integer`` without its two rules that fail: an even numerator over odd denominators
    (6/3), and an even denominator read by its factors of 2 alone (e/6 at e = 2)."""
    if self._eval_is_rational() is False:
        return False
    numerators, denominators, unknown = [], [], False
    for a in self.args:
        if a.is_integer:
            if abs(a) is not sp.S.One:
                numerators.append(a)
        elif a.is_Rational:
            n, d = a.as_numer_denom()
            if abs(n) is not sp.S.One:
                numerators.append(n)
            if d is not sp.S.One:
                denominators.append(d)
        elif a.is_Pow:
            b, e = a.as_base_exp()
            if not (b.is_integer and e.is_integer):
                unknown = True
            if not e.is_negative:
                return None  # a power of a sign not known, or of a base or exponent not known integers
            denominators.append(sp.Pow(a, -1))
        else:
            return None
    if not denominators and not unknown:
        return True
    if not numerators and denominators and all(is_gt(d, sp.S.One) for d in denominators):
        return False  # ±1 over numbers above 1
    if unknown:
        return None
    if all(n.is_odd for n in numerators) and any(d.is_even for d in denominators):
        return False
    if any(n.is_even for n in numerators) and denominators == [2]:
        return True
    if len(denominators) == 1:
        d = denominators[0]
        if d.is_Integer and d.is_even and d.p == 1 << trailing(d.p):  # a power of 2, and no other factor
            if (sp.Add(*[n.as_base_exp()[1] for n in numerators if n.is_even]) - trailing(d.p)).is_nonnegative:
                return True
    if len(numerators) == 1:
        n = numerators[0]
        if n.is_Integer and n.is_even:  # more factors of 2 below than above: not an integer
            if (sp.Add(*[d.as_base_exp()[1] for d in denominators if d.is_even]) - trailing(n.p)).is_positive:
                return False
    return None


#: the facts SymPy's ``zoo`` lacks: a handler that answers True for one of them says its value is not a pole
_NOT_AT_A_POLE = tuple(sorted(set(_assume_defined)
                              - {"commutative", "infinite", "hermitian", "antihermitian", "polar"}))


def _anywhere(self):
    """Doubtful everywhere: the handler's answer is kept only where it is the other one."""
    return True


def _at_a_possible_pole(pole):
    """Whether ``pole(argument)``, which is 0 at the function's poles, is not known nonzero."""
    def doubtful(self):
        condition = pole(self.args[0]) if len(self.args) == 1 else None
        return condition is not None and condition.is_zero is not False
    return doubtful


def _rounded_comparison(method):
    """``floor(x) ≤ c`` (``method``, one of the four that read an integer c otherwise), read as SymPy reads it only
    where c is known an integer or known not to be one; otherwise left as written."""
    relation = {"__le__": sp.Le, "__lt__": sp.Lt, "__ge__": sp.Ge, "__gt__": sp.Gt}[method.__name__]

    def compare(self, other):
        other = sp.S(other)
        if self.args[0].is_real and other.is_number and other.is_real and other.is_integer is None:
            return relation(self, other, evaluate=False)
        return method(self, other)

    compare.__name__ = method.__name__
    return compare


def install():
    """Read each fact above only where it holds (done once, when derive is imported, before
    :func:`derive.kernel.zeros.install`, which then guards these handlers off the real line too)."""
    if getattr(sp.Pow, "_derive_facts", False):
        return
    sp.binomial.eval = _binomial_eval(sp.binomial.eval.__func__)
    handle(sp.binomial, "nonnegative", _binomial_nonnegative)
    handle(sp.binomial, "integer", _binomial_integer)
    imaginary = _withheld(sp.Pow._eval_is_imaginary, True, _real_base_maybe_integer_power)
    handle(sp.Pow, "imaginary", _withheld(imaginary, False, _exponent_not_known_real))
    handle(sp.Pow, "extended_real", _withheld(sp.Pow._eval_is_extended_real, False, _exponent_not_known_real))
    handle(sp.Pow, "integer", _withheld(sp.Pow._eval_is_integer, False, _rational_base_exponent_not_known_integer))
    handle(sp.Pow, "rational", _withheld(sp.Pow._eval_is_rational, False, _algebraic_irrational_base))
    for parity in ("even", "odd"):
        handle(sp.Pow, parity, _withheld(getattr(sp.Pow, f"_eval_is_{parity}"), False, _base_not_known_integer))
    handle(sp.Mul, "integer", _mul_integer)
    handle(sp.log, "finite", _log_finite)
    handle(sp.polygamma, "complex", _polygamma_complex)
    handle(sp.polygamma, "positive", _polygamma_positive)
    handle(sp.gamma, "positive", _gamma_positive)
    handle(sp.beta, "real", _beta_real)
    for cls in (sp.RisingFactorial, sp.FallingFactorial):
        handle(cls, "integer", _factorial_integer)
    for cls in (sp.re, sp.im, sp.Abs):  # (algebraic for an algebraic argument, as SymPy says; else unknown)
        handle(cls, "algebraic", _withheld(cls._eval_is_algebraic, False, _anywhere))
    handle(sp.Integral, "zero", _withheld(sp.Integral._eval_is_zero, False, _anywhere))
    for cls, pole in _POLES.items():
        doubtful = _at_a_possible_pole(pole)
        for fact in _NOT_AT_A_POLE:
            handler = cls._prop_handler.get(fact)
            if handler is not None:
                handle(cls, fact, _withheld(handler, True, doubtful))
    for cls, names in ((sp.floor, ("__le__", "__gt__")), (sp.ceiling, ("__lt__", "__ge__"))):
        for name in names:
            setattr(cls, name, _rounded_comparison(getattr(cls, name)))
    sp.Pow._derive_facts = True
