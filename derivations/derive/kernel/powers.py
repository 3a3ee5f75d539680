"""A power of a product, as the kernel lets SymPy split it.

SymPy writes ``(xy)^e`` for a rational ``e`` as a product of powers while it builds it (``Mul._eval_power``) and in
``expand`` (``Pow._eval_expand_power_base``): a factor known nonnegative comes out as ``x^e``, and a factor it reads
as negative as ``(−x)^e`` times a power of −1. It reads as negative every factor whose ``is_extended_nonnegative`` is
False, including one that may not be real: ``log a`` for an imaginary a (never a nonnegative real, not known to be
real or not), or a symbol declared ``extended_nonnegative=False``. So ``√(log a · log b)`` was built as
``√(−log a)·√(−log b)``, which is −iπ/2 at a = b = i where the left side is iπ/2, and such claims were proved. While
derive is imported (:func:`install`) a power of a product holding such a factor is left as it is written.

>>> import sympy as sp
>>> install()
>>> a, b = sp.symbols("a b", imaginary=True)
>>> sp.sqrt(sp.log(a) * sp.log(b))
sqrt(log(a)*log(b))
>>> sp.sqrt(-2 * sp.Symbol("x", positive=True))
sqrt(2)*I*sqrt(x)
"""
from __future__ import annotations

import sympy as sp

__all__ = ["install"]


def _doubtful(factor) -> bool:
    """Read as negative by SymPy's split (not known nonnegative), though it may not be real."""
    return factor.is_commutative and factor.is_extended_nonnegative is False and factor.is_extended_real is None


def _power_base(self, **hints):
    """``Pow._eval_expand_power_base``, which leaves the power as it is where a factor of its base is doubtful."""
    if self.base.is_Mul and any(_doubtful(f) for f in self.base.args):
        return self
    return _power_base.sympy(self, **hints)


def install():
    """Split a power of a product only where every factor read as negative is real (done once, when derive is
    imported)."""
    if getattr(sp.Pow._eval_expand_power_base, "sympy", None) is not None:
        return
    _power_base.sympy = sp.Pow._eval_expand_power_base
    sp.Pow._eval_expand_power_base = _power_base
