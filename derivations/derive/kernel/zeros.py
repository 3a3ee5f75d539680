"""SymPy's readings that miss a zero, as the kernel lets SymPy read them.

Each rule below holds except at a point where the value is 0 (or where an argument is 0), and SymPy applied it
without asking whether that point is possible. The kernel builds on what SymPy reads: a value read as nonzero is
divided by without a condition, and a rewrite made while an expression is built is a proof step nobody sees. While
derive is imported (:func:`install`) each reads as below; elsewhere SymPy is as it was.

* ``acot`` and ``acoth`` are odd except at 0 (acot 0 = π/2, acoth 0 = iπ/2), and ``acoth(i·x) = −i·acot(x)`` fails at
  x = 0: SymPy rewrote ``acot(−u)`` as ``−acot(u)`` for any ``u`` it could take a sign out of, so
  ``acot((1 − x)(1 + x)) = −acot(x² − 1)`` was proved, false at x = 1. Now only for ``u`` known nonzero.
* ``sinc(πk/2)`` is ``(−1)^{(k−1)/2}·2/(πk)`` for an odd k only; SymPy gave it for any integer k (at k = 2 it is 0).
  Now only where k/2 is known not to be an integer.
* ``asin``, ``atan`` of a rational and ``acos`` of one are irrational except at 0 (and ``acos`` at 1): SymPy said
  irrational, hence nonzero, for any rational argument, and ``atan(k)·a = atan(k)·b ⟹ a = b`` was proved.
* A product is not real only if no factor may be 0: SymPy said not real, hence nonzero, for ``i·atanh(x)`` and
  ``x·sinh(x + i)`` (both 0 at x = 0).
* ``floor``, ``ceiling`` and ``frac`` of a number that is not real may be real, an integer, 0 or negative
  (⌊i/2⌋ = 0, ⌊−1/2 + i/2⌋ = −1, frac(−i) = 0): SymPy read them as their argument's realness and sign.
* A function of an argument that may not be real may still be real, 0 or finite there: cosh(x + i) is real at
  x = 0, erfi and the Fresnel integrals have zeros off the real line and are finite everywhere. SymPy's handlers
  that answer "not real", "nonzero" or "infinite" from an argument not known real (``cosh(x + i) − cos 1`` was
  divided by; ``1/fresnelc(p + iq) = 0`` was proved) answer nothing there now.
* ``tan`` and ``cot`` of ``x + π(k + 1/2)`` for a symbolic k were rewritten as at a multiple of π (tan x, not
  −cot x): SymPy's split of a multiple of π read k + 1/2 as a number. They are held now.

>>> import sympy as sp
>>> install()
>>> k, x = sp.Symbol("k", integer=True), sp.Symbol("x", real=True)
>>> sp.acot(-x), sp.atan(k).is_zero, (sp.I * sp.atanh(x)).is_zero, sp.floor(sp.I * x).is_zero
(acot(-x), None, None, None)
"""
from __future__ import annotations

import sympy as sp
from sympy.core.logic import fuzzy_or
from sympy.functions.elementary.trigonometric import _imaginary_unit_as_coefficient, _peeloff_pi, _pi_coeff

from .facts import handle

__all__ = ["install"]


def _odd_away_from_zero(original, rewrites_imaginary: bool):
    """``eval`` of acot or acoth that takes a sign out of ``u`` (or reads ``i·x``) only for ``u`` known nonzero."""
    def eval(cls, arg):
        if not arg.is_Number and arg.is_zero is None:
            if arg.could_extract_minus_sign():
                return None
            if rewrites_imaginary and _imaginary_unit_as_coefficient(arg) is not None:
                return None
        return original(cls, arg)
    return classmethod(eval)


def _sinc_eval(original):
    def eval(cls, arg):
        coefficient = _pi_coeff(arg)
        if coefficient is not None and coefficient.is_integer is None and (2 * coefficient).is_integer:
            return None  # an odd or an even multiple of π/2: the two readings differ
        return original(cls, arg)
    return classmethod(eval)


def _irrational_unless(zero_at):
    """``_eval_is_rational`` of an inverse trigonometric function, irrational at a rational argument other than
    ``zero_at``, where it is 0."""
    def is_rational(self):
        arg = self.args[0]
        if self.func(arg).func != self.func:
            return self.func(arg).is_rational
        if arg.is_rational and (arg - zero_at).is_zero is False:
            return False
        return None
    return is_rational


def _real_imag(original):
    def real_imag(self, real):
        out = original(self, real)
        if out is False and real and any(t.is_zero is not False for t in self.args):
            return None  # a factor may be 0, and then so is the product, which is real (i·atanh(x), x·sinh(x + i))
        return out
    return real_imag


def _peeled_at_a_number(original):
    """``eval`` of tan or cot that splits off a multiple of π only when it is a number (k + 1/2 for a symbolic k
    is read as a multiple of π)."""
    def eval(cls, arg):
        if arg.is_Add:
            multiple = _peeloff_pi(arg)[1]
            if multiple and not multiple.is_Rational:
                return None
        return original(cls, arg)
    return classmethod(eval)


#: the facts a function's handler may deny from its argument's realness alone, wrongly at an argument not real
_OFF_THE_LINE = ("real", "extended_real", "zero", "finite")


def _off_the_line(handler):
    """A function's handler of a fact that holds back its answer where an argument with symbols is not known real."""
    def guarded(self):
        out = handler(self)
        if out is False:
            for a in self.args:  # (its realness is a fact SymPy keeps; whether it is a number is read only then)
                if isinstance(a, sp.Expr) and a.is_extended_real is not True and not a.is_number:
                    return None
        return out
    guarded.held_back = handler
    return guarded


def _functions():
    from sympy.core.function import Application

    todo, seen = [Application], set()
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            if sub not in seen:
                seen.add(sub)
                todo.append(sub)
    return seen


def _when_real(read):
    """An assumption handler of floor, ceiling or frac that answers only for a real argument (not ±∞)."""
    def handler(self):
        return read(self) if self.args[0].is_real else None
    return handler


def _frac_zero(self):
    arg = self.args[0]
    out = fuzzy_or([arg.is_zero, arg.is_integer])
    return out if out or arg.is_extended_real else None


def install():
    """Read each rule above only where it holds (done once, when derive is imported)."""
    if getattr(sp.Mul, "_derive_zeros", False):
        return
    sp.acot.eval = _odd_away_from_zero(sp.acot.eval.__func__, rewrites_imaginary=False)
    sp.acoth.eval = _odd_away_from_zero(sp.acoth.eval.__func__, rewrites_imaginary=True)
    sp.sinc.eval = _sinc_eval(sp.sinc.eval.__func__)
    for cls, zero_at in ((sp.asin, 0), (sp.atan, 0), (sp.acos, 1)):
        handle(cls, "rational", _irrational_unless(zero_at))
    sp.Mul._eval_real_imag = _real_imag(sp.Mul._eval_real_imag)
    for cls in (sp.floor, sp.ceiling):
        handle(cls, "real", _when_real(lambda self: True))
        handle(cls, "integer", _when_real(lambda self: True))
    handle(sp.floor, "negative", _when_real(lambda self: self.args[0].is_negative))
    handle(sp.floor, "nonnegative", _when_real(lambda self: self.args[0].is_nonnegative))
    handle(sp.ceiling, "positive", _when_real(lambda self: self.args[0].is_positive))
    handle(sp.ceiling, "nonpositive", _when_real(lambda self: self.args[0].is_nonpositive))
    handle(sp.frac, "real", _when_real(lambda self: True))
    handle(sp.frac, "imaginary", _when_real(lambda self: False))
    handle(sp.frac, "integer", _when_real(lambda self: self.args[0].is_integer))
    handle(sp.frac, "zero", _frac_zero)
    sp.tan.eval = _peeled_at_a_number(sp.tan.eval.__func__)
    sp.cot.eval = _peeled_at_a_number(sp.cot.eval.__func__)
    guarded: dict = {}
    for cls in _functions():
        for fact in _OFF_THE_LINE:
            handler = cls._prop_handler.get(fact)
            if handler is None or hasattr(handler, "held_back"):
                continue
            if handler not in guarded:
                guarded[handler] = _off_the_line(handler)
            cls._prop_handler[fact] = guarded[handler]
            if cls.__dict__.get(f"_eval_is_{fact}") is handler:
                setattr(cls, f"_eval_is_{fact}", guarded[handler])
    sp.Mul._derive_zeros = True
