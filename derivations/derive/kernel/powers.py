"""A power of a product, as the kernel lets SymPy split it.

SymPy writes ``(xy)^e`` for a rational ``e`` as a product of powers while it builds it (``Mul._eval_power``) and in
``expand`` (``Pow._eval_expand_power_base``): a factor known nonnegative comes out as ``x^e``, and a factor it reads
as negative as ``(−x)^e`` times a power of −1. It reads as negative every factor whose ``is_extended_nonnegative`` is
False, including one that may not be real: ``log a`` for an imaginary a (never a nonnegative real, not known to be
real or not), or a symbol declared ``extended_nonnegative=False``. So ``√(log a · log b)`` was built as
``√(−log a)·√(−log b)``, which is −iπ/2 at a = b = i where the left side is iπ/2, and such claims were proved. While
derive is imported (:func:`install`) a power of a product holding such a factor is left as it is written.

``powsimp`` (which ``simplify`` calls) joins a power of ``b`` and one of ``−b`` into one power of ``b`` times a power
of −1. That is exact for an integer exponent, or where ``b`` is known positive or known negative; SymPy also does it
wherever ``b.is_positive`` is known at all, so where it is False for a ``b`` that may be 0 or is not real, and takes
``−b`` for positive there: ``√(−q)·√q`` became ``i·q`` for a nonpositive q (it is ``−i·q``: at q = −1, ``i``), and
``√(−x−i)·√(x+i)`` became ``i(x + i)`` for a real x (it is ``1 − ix``). Both were proved by ``simplify``. While derive
is imported, the two are joined only where the rule is exact. Likewise ``powsimp`` read ``b^(c·m)``, ``c`` a rational,
as ``(b^m)^c``, which holds only where the imaginary part of ``m·log b`` lies in (−π, π]: ``x·exp(iπe/2)`` for an even
e became ``x·(exp(iπe))^(1/2)``, which SymPy makes ``x``, and ``x·exp(iπe/2) = x`` was proved (−x at e = 2). It is read
so only where that is known, as for a positive ``b`` and a real ``m``.

>>> import sympy as sp
>>> install()
>>> a, b = sp.symbols("a b", imaginary=True)
>>> sp.sqrt(sp.log(a) * sp.log(b))
sqrt(log(a)*log(b))
>>> sp.sqrt(-2 * sp.Symbol("x", positive=True))
sqrt(2)*I*sqrt(x)
>>> q = sp.Symbol("q", nonpositive=True)
>>> joined = sp.powsimp(sp.sqrt(-q) * sp.sqrt(q))  # −i·q, as it is (SymPy alone: i·q)
>>> sp.expand(joined + sp.I * q), joined.subs(q, -1)
(0, I)
>>> p = sp.Symbol("p", positive=True)
>>> sp.powsimp(sp.sqrt(-p) * sp.sqrt(p))
I*p
>>> e, x = sp.Symbol("e", even=True), sp.Symbol("x", real=True)
>>> sp.powsimp(x * sp.exp(sp.I * sp.pi * e / 2))  # (SymPy alone: x)
x*exp(I*pi*e/2)
"""
from __future__ import annotations

import importlib
import inspect
import sys

import sympy as sp

_powsimp_module = importlib.import_module("sympy.simplify.powsimp")  # (sympy.simplify.powsimp is also a function)

__all__ = ["install"]

#: the lines of SymPy's ``powsimp`` that are not exact, each with the lines that keep it to where it is:
#: - its join of a power of ``b`` with one of ``−b``: exact for an integer exponent, or ``b`` of a known sign (not
#:   merely "not positive");
#: - its reading of ``b^(c·m)``, ``c`` a rational, as ``(b^m)^c``: exact where the imaginary part of ``m·log b`` lies in
#:   (−π, π] (:func:`_as_power_of_power`); ``exp(iπe/2)`` for an even e was read as ``(exp(iπe))^(1/2)``, which SymPy
#:   makes ``1^(1/2) = 1``
_EXACT = (
    ("if (b.is_positive is not None or e.is_integer):",
     "if (b.is_positive or b.is_negative or e.is_integer):"),
    ("                        return (b**m, Integer(c.q)), Integer(c.p)\n",
     "                        if _as_power_of_power(b, m):\n"
     "                            return (b**m, Integer(c.q)), Integer(c.p)\n"
     "                        return (b**e, S.One), S.One\n"),
)


def _doubtful(factor) -> bool:
    """Read as negative by SymPy's split (not known nonnegative), though it may not be real."""
    return factor.is_commutative and factor.is_extended_nonnegative is False and factor.is_extended_real is None


def _power_base(self, **hints):
    """``Pow._eval_expand_power_base``, which leaves the power as it is where a factor of its base is doubtful."""
    if self.base.is_Mul and any(_doubtful(f) for f in self.base.args):
        return self
    return _power_base.sympy(self, **hints)


def _as_power_of_power(b, m) -> bool:
    """Whether ``b^(c·m) = (b^m)^c`` for every rational ``c``: where ``m·log b`` has its imaginary part in (−π, π] (the
    principal ``log`` of ``b^m`` is then ``m·log b``), as for a positive ``b`` and a real ``m``, or ``exp(iπ/3) =
    (exp(iπ))^(1/3)``; a closed number's part is read as an enclosure certifies it."""
    if b.is_positive and m.is_extended_real:
        return True
    t = m if b is sp.E else m * sp.log(b)
    if t.free_symbols:
        return False
    part = sp.im(t)
    return (sp.pi - part).is_nonnegative is True and (part + sp.pi).is_positive is True


def _exact_powsimp():
    """SymPy's ``powsimp`` with its join of ``b`` and ``−b`` and its reading of ``b^(c·m)`` kept to where they are exact
    (its source, the lines of :data:`_EXACT` changed: ``sympy>=1.14,<1.15`` is pinned, and an install that does not find
    them says so rather than run without them)."""
    original = _powsimp_module.powsimp
    source = inspect.getsource(original)
    for wrong, exact in _EXACT:
        if source.count(wrong) != 1:
            raise ImportError(f"derive.kernel.powers: SymPy's powsimp is not the one derive was written against "
                              f"({wrong.strip()!r} was not found); derive needs sympy>=1.14,<1.15")
        source = source.replace(wrong, exact)
    code = compile(source, inspect.getsourcefile(original), "exec")
    namespace = dict(vars(_powsimp_module), _as_power_of_power=_as_power_of_power)
    exec(code, namespace)  # noqa: S102 - SymPy's own source, the lines of _EXACT changed
    patched = namespace["powsimp"]  # (it calls itself by name: the namespace it was run in, its globals, holds it)
    patched.sympy = original
    return original, patched


def install():
    """Split a power of a product only where every factor read as negative is real, and let ``powsimp`` join powers
    of ``b`` and ``−b`` and read ``b^(c·m)`` as ``(b^m)^c`` only where that is exact (done once, when derive is
    imported)."""
    if getattr(sp.Pow._eval_expand_power_base, "sympy", None) is not None:
        return
    _power_base.sympy = sp.Pow._eval_expand_power_base
    sp.Pow._eval_expand_power_base = _power_base
    original, patched = _exact_powsimp()
    for module in list(sys.modules.values()):  # every module that imported SymPy's powsimp by name
        names = getattr(module, "__dict__", None)
        if not isinstance(names, dict) or not (getattr(module, "__name__", None) or "").startswith("sympy"):
            continue
        for name, value in list(names.items()):
            if value is original:
                setattr(module, name, patched)
