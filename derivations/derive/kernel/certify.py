"""Certify that a closed SymPy constant is nonzero: exactly, or by rigorous interval arithmetic.

A rational residual is its own certificate. Anything else (``erf(1)``, ``exp(-2)``, ``sqrt(2)`` ...) is
enclosed by python-flint ``arb`` balls at increasing precision until the ball excludes zero; a residual that is
not real (``I``, ``(-1)**(1/3)``: SymPy's principal branches) by ``acb`` boxes that exclude zero. A float is never
a certificate: an expression holding a SymPy ``Float`` is refused.
"""
from __future__ import annotations

import contextlib
import functools
import operator
from dataclasses import dataclass

import flint
import sympy as sp

__all__ = ["Certificate", "certify_nonzero", "excluding_zero", "enclose", "enclose_complex", "Undecided",
           "short_text"]

PRECISIONS = (64, 128, 256, 512, 1024)


class Undecided(Exception):
    """The enclosure cannot decide a comparison (or the expression is outside what ``arb`` covers)."""


@dataclass(frozen=True)
class Certificate:
    """Why a closed constant is nonzero: ``exact`` rational value, or an ``arb`` ball excluding zero."""

    value: str
    enclosure: str
    method: str

    def describe(self) -> str:
        if self.method == "exact":
            return f"exact residual {self.value}"
        return f"residual {self.value} in {self.enclosure} ({self.method})"


@contextlib.contextmanager
def _precision(bits: int):
    old = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        yield
    finally:
        flint.ctx.prec = old


def _decide_positive(ball) -> bool:
    """True/False when the ball is certainly > 0 / certainly <= 0 ... or raise Undecided."""
    if ball > 0:
        return True
    if ball < 0 or (ball.is_exact() and ball.is_zero()):
        return False
    raise Undecided("sign of an enclosure that straddles zero")


def _relational(rel) -> bool:
    diff = _arb(rel.lhs - rel.rhs)
    if isinstance(rel, sp.StrictGreaterThan):
        return _decide_positive(diff)
    if isinstance(rel, sp.StrictLessThan):
        return _decide_positive(-diff)
    if isinstance(rel, sp.GreaterThan):
        return not _decide_positive(-diff)
    if isinstance(rel, sp.LessThan):
        return not _decide_positive(diff)
    raise Undecided(f"condition {rel}")


def _condition(cond) -> bool:
    if cond is sp.true or cond is True:
        return True
    if cond is sp.false or cond is False:
        return False
    if isinstance(cond, sp.And):
        return all(_condition(a) for a in cond.args)
    if isinstance(cond, sp.Or):
        return any(_condition(a) for a in cond.args)
    if isinstance(cond, sp.Not):
        return not _condition(cond.args[0])
    if isinstance(cond, sp.core.relational.Relational):
        return _relational(cond)
    raise Undecided(f"condition {cond}")


def _pow(base, exp):
    if exp.is_Integer:
        return _arb(base) ** int(exp)
    if exp.is_Rational:
        b = _arb(base)
        if exp.q == 2:
            return b.sqrt() ** int(exp.p)
        return b.root(int(exp.q)) ** int(exp.p)
    return (_arb(exp) * _arb(base).log()).exp()


_UNARY = {
    sp.exp: lambda b: b.exp(),
    sp.log: lambda b: b.log(),
    sp.erf: lambda b: b.erf(),
    sp.erfc: lambda b: b.erfc(),
    sp.tanh: lambda b: b.tanh(),
    sp.sinh: lambda b: b.sinh(),
    sp.cosh: lambda b: b.cosh(),
    sp.sin: lambda b: b.sin(),
    sp.cos: lambda b: b.cos(),
    sp.tan: lambda b: b.tan(),
    sp.atan: lambda b: b.atan(),
    sp.asinh: lambda b: b.asinh(),
    sp.gamma: lambda b: b.gamma(),  # (at a ball about a pole, not finite)
    sp.Abs: abs,
    sp.sign: lambda b: b.sgn(),
    sp.sinc: lambda b: b.sinc(),  # sin(x)/x, as SymPy's
    sp.asin: lambda b: b.asin(),  # (off [-1, 1], not finite)
    sp.acos: lambda b: b.acos(),
    sp.acosh: lambda b: b.acosh(),
    sp.atanh: lambda b: b.atanh(),
    sp.sec: lambda b: b.sec(),
    sp.csc: lambda b: b.csc(),
    sp.cot: lambda b: b.cot(),
    sp.coth: lambda b: b.coth(),
    sp.sech: lambda b: b.sech(),
    sp.csch: lambda b: b.csch(),
    sp.erfi: lambda b: b.erfi(),
    sp.li: lambda b: b.li(),
    sp.Si: lambda b: b.si(),
    sp.Ci: lambda b: b.ci(),  # (off the positive reals, not finite: SymPy's value there is not real)
    sp.Shi: lambda b: b.shi(),
    sp.Chi: lambda b: b.chi(),
    sp.Ei: lambda b: b.ei(),
    sp.fresnels: lambda b: b.fresnel_s(normalized=True),  # ∫ sin(π t²/2), as SymPy's
    sp.fresnelc: lambda b: b.fresnel_c(normalized=True),
    sp.LambertW: lambda b: b.lambertw(),  # (the principal branch; below −1/e not finite: not real there)
    sp.airyai: lambda b: b.airy_ai(),
    sp.airybi: lambda b: b.airy_bi(),
    sp.erfinv: lambda b: b.erfinv(),  # (off [−1, 1], not finite)
    sp.erfcinv: lambda b: b.erfcinv(),
    sp.loggamma: lambda b: b.lgamma(),  # (off the positive reals, not finite: SymPy's value there is not real)
}

#: Bessel functions of an order and an argument, as SymPy defines them (where not real, not finite)
_BESSEL = {sp.besselj: "bessel_j", sp.bessely: "bessel_y", sp.besseli: "bessel_i", sp.besselk: "bessel_k"}

#: named constants ``arb`` encloses (π and e are read first)
_CONSTANTS = {
    sp.EulerGamma: lambda: flint.arb.const_euler(),
    sp.Catalan: lambda: flint.arb.const_catalan(),
    sp.GoldenRatio: lambda: (1 + flint.arb(5).sqrt()) / 2,
}


def _arb(e):
    """Enclose a closed SymPy constant in an ``arb`` ball at the current precision."""
    if e.is_Integer:
        return flint.arb(int(e))
    if e.is_Rational:
        return flint.arb(flint.fmpq(int(e.p), int(e.q)))
    if isinstance(e, sp.Float):
        raise Undecided("a floating-point number is not exact")
    if e is sp.pi:
        return flint.arb.pi()
    if e is sp.E:
        return flint.arb.const_e()
    if e in _CONSTANTS:
        return _CONSTANTS[e]()
    if isinstance(e, sp.zeta) and len(e.args) == 1:  # Riemann's (not Hurwitz's)
        return _arb(e.args[0]).zeta()
    if isinstance(e, sp.Add):
        return functools.reduce(operator.add, (_arb(a) for a in e.args))
    if isinstance(e, sp.Mul):
        return functools.reduce(operator.mul, (_arb(a) for a in e.args))
    if isinstance(e, sp.Pow):
        return _pow(*e.args)
    if isinstance(e, (sp.Max, sp.Min)):
        balls = [_finite(a) for a in e.args]
        pick = flint.arb.max if isinstance(e, sp.Max) else flint.arb.min
        return functools.reduce(pick, balls)
    if isinstance(e, sp.Heaviside):
        arg = _arb(e.args[0])
        if arg > 0:
            return flint.arb(1)
        if arg < 0:
            return flint.arb(0)
        raise Undecided("Heaviside at an undecided sign")
    if isinstance(e, sp.Piecewise):
        for value, cond in e.args:
            if _condition(cond):
                return _arb(value)
        raise Undecided("no branch of a Piecewise applies")
    if isinstance(e, sp.CRootOf) and e.is_real:  # a rational within 2^-prec of the root (its isolating interval,
        width = sp.Rational(1, 2 ** flint.ctx.prec)  # refined: exact), and that much either side
        near = e.eval_rational(dx=width, dy=width)
        return flint.arb(flint.fmpq(int(near.p), int(near.q)), flint.fmpq(1, 2 ** flint.ctx.prec))
    if type(e) in _BESSEL:
        order, argument = map(_finite, e.args)
        return getattr(argument, _BESSEL[type(e)])(order)
    fn = _UNARY.get(type(e))
    if fn is not None and len(e.args) == 1:  # (log(8, 2), built unevaluated, has two: a base beside its argument)
        return fn(_finite(e.args[0]))
    raise Undecided(f"no interval rule for {type(e).__name__}")


def _finite(e):
    """``_arb(e)`` where it is a finite ball; ``Undecided`` where it is not (a value off the real line, ``√−2`` or
    ``asin(2)``, is a NaN ball): a function of it is not enclosed, since ``sgn`` and ``sinc`` of NaN are finite
    balls, and would read ``sign((−1)^{1/3})`` as a real number between −1 and 1."""
    ball = _arb(e)
    if not ball.is_finite():
        raise Undecided(f"{short_text(e, 60)} is not a finite real number")
    return ball


#: analytic functions that ``acb`` evaluates on the principal branch, as SymPy defines them
_COMPLEX_UNARY = {
    sp.exp: "exp", sp.log: "log", sp.erf: "erf", sp.erfc: "erfc", sp.tanh: "tanh", sp.sinh: "sinh",
    sp.cosh: "cosh", sp.sin: "sin", sp.cos: "cos", sp.tan: "tan", sp.atan: "atan", sp.asinh: "asinh",
    sp.gamma: "gamma", sp.sinc: "sinc", sp.sec: "sec", sp.csc: "csc", sp.cot: "cot", sp.coth: "coth", sp.sech: "sech",
    sp.csch: "csch", sp.erfi: "erfi", sp.loggamma: "lgamma", sp.LambertW: "lambertw",
}


def _acb(e):
    """Enclose a closed SymPy constant, possibly not real, in an ``acb`` box at the current precision."""
    if e is sp.I:
        return flint.acb(0, 1)
    if e.is_Rational or e is sp.pi or e is sp.E or e in _CONSTANTS or isinstance(e, sp.Float):
        return flint.acb(_arb(e))
    if isinstance(e, sp.Add):
        return functools.reduce(operator.add, (_acb(a) for a in e.args))
    if isinstance(e, sp.Mul):
        return functools.reduce(operator.mul, (_acb(a) for a in e.args))
    if isinstance(e, sp.Pow):
        base, exp = e.args
        if exp.is_Integer:
            return _acb(base) ** int(exp)
        return _acb(base) ** _acb(exp)  # exp(exp * log(base)), the principal branch
    if isinstance(e, sp.Abs):
        return flint.acb(abs(_acb(e.args[0])))
    if isinstance(e, sp.sign):  # w/|w|, as SymPy's sign of a nonzero complex w
        w = _acb(e.args[0])
        if not (w.is_finite() and _excludes_zero(w)):
            raise Undecided("sign of a number not certified nonzero")
        return w / abs(w)
    name = _COMPLEX_UNARY.get(type(e))
    if name is not None and len(e.args) == 1:
        return getattr(_acb(e.args[0]), name)()
    if name is not None:
        raise Undecided(f"{type(e).__name__} of {len(e.args)} arguments")
    return flint.acb(_arb(e))  # Max, Min, Heaviside, Piecewise, sign: real arguments only


def enclose_complex(expr, bits: int = 64):
    """An ``acb`` box that rigorously contains the closed constant ``expr`` (real or not).

    >>> import sympy as sp
    >>> from derive.kernel.certify import enclose_complex
    >>> enclose_complex((-1) ** sp.Rational(1, 3)).real.str(5)
    '[0.50000 +/- ...]'
    """
    with _precision(bits):
        return _acb(sp.sympify(expr))


def _excludes_zero(box) -> bool:
    return bool(box.real > 0 or box.real < 0 or box.imag > 0 or box.imag < 0)


def short_text(expr, limit: int = 160) -> str:
    """``sstr(expr)`` cut to ``limit`` characters; a number too long to print is described by its size.

    >>> import sympy as sp
    >>> short_text(sp.Integer(10) ** 5000 + 1)
    'an exact integer of 5001 digits'
    """
    if isinstance(expr, sp.Rational) and max(abs(expr.p), expr.q).bit_length() > 4000:
        sign = "negative " if expr < 0 else ""
        if expr.q == 1:
            return f"an exact {sign}integer of {_digits(abs(expr.p))} digits"
        return f"an exact {sign}rational p/q, p of {_digits(abs(expr.p))} and q of {_digits(expr.q)} digits"
    try:
        text = sp.sstr(expr)
    except ValueError:  # Python's limit on converting huge integers to text
        return "an exact expression with integers too long to print"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _digits(n: int) -> int:
    """The number of decimal digits of ``n > 0``, without converting it to text."""
    estimate = max(1, int(n.bit_length() * 0.30102999566398120))
    while 10 ** estimate <= n:
        estimate += 1
    while estimate > 1 and 10 ** (estimate - 1) > n:
        estimate -= 1
    return estimate


def enclose(expr, bits: int = 64):
    """An ``arb`` ball that rigorously contains the closed constant ``expr``.

    >>> import sympy as sp
    >>> from derive.kernel.certify import enclose
    >>> enclose(sp.erf(1)).str(10)
    '[0.8427007929 +/- ...]'
    """
    with _precision(bits):
        return _arb(sp.sympify(expr))


def certify_nonzero(expr) -> Certificate | None:
    """A :class:`Certificate` that the closed constant ``expr`` is nonzero, or ``None`` when none is found.

    ``None`` means "not certified" -- the value may be zero, or too close to zero to separate.

    >>> import sympy as sp
    >>> from derive.kernel.certify import certify_nonzero
    >>> certify_nonzero(sp.Rational(-3, 2)).describe()
    'exact residual -3/2'
    >>> certify_nonzero(sp.erf(1) - sp.Rational(84, 100)).method
    'arb, 64 bits'
    >>> certify_nonzero(sp.sqrt(2) ** 2 - 2) is None
    True
    """
    if not isinstance(expr, sp.Basic):
        raise TypeError(f"certify_nonzero expects a SymPy expression, got {type(expr).__name__}")
    if expr.free_symbols:
        names = ", ".join(sorted(str(s) for s in expr.free_symbols))
        raise ValueError(f"cannot certify a residual that still has free symbols: {names}")
    if expr.is_Rational:
        return None if expr == 0 else Certificate(short_text(expr), "", "exact")
    found = excluding_zero(expr)
    if found is None:
        return None
    enclosure, method = found
    return Certificate(short_text(expr), enclosure.str(12, radius=True), method)


def excluding_zero(expr):
    """The first enclosure of the closed constant ``expr`` that excludes zero, at increasing precision: an ``arb``
    ball where it is real (``(ball, "arb, N bits")``, its sign certain), else an ``acb`` box (``"acb, N bits"``);
    ``None`` when none does, or when ``expr`` has no value there.

    >>> import sympy as sp
    >>> excluding_zero(sp.pi - 3)[1], excluding_zero(sp.I + 1)[1], excluding_zero(sp.sin(sp.pi)) is None
    ('arb, 64 bits', 'acb, 64 bits', True)
    """
    for bits in PRECISIONS:
        try:
            ball = enclose(expr, bits)
        except Undecided:
            ball = None
        except (ValueError, ZeroDivisionError, ArithmeticError):
            return None
        if ball is not None and ball.is_finite():
            if ball > 0 or ball < 0:
                return ball, f"arb, {bits} bits"
            continue
        try:  # not real, or outside what arb covers: a complex box
            box = enclose_complex(expr, bits)
        except Undecided:
            continue
        except (ValueError, ZeroDivisionError, ArithmeticError):
            return None
        if box.is_finite() and _excludes_zero(box):
            return box, f"acb, {bits} bits"
    return None
