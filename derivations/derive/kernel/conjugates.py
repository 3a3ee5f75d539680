"""The conjugate of a function with a branch cut on the real line, as the kernel lets SymPy fold it.

SymPy folds ``conjugate(f(z))`` to ``f(conjugate(z))`` for these functions unless it knows ``z`` lies on the cut,
so for a real ``x`` of unknown sign ``conjugate(li(x))`` is ``li(x)``: li(−2) = 0.036 + 3.735i is not its own
conjugate. ``Abs`` reads a modulus through that fold (``|li(x) + i|`` became ``√(li(x)² + 1)``), and so a
definition ``g := li`` or a chain step applying ``conjugate`` or ``Abs`` proved what is false at x = −2. While derive
is imported (:func:`install`) each folds only where its value is known real, to itself; elsewhere the conjugate
stays as it is written. The functions are those whose fold was seen wrong at a real argument (li, loggamma,
Legendre, associated Legendre, Chebyshev of a non-integer degree, the elliptic Π) and the incomplete gammas, whose
cut is the same.

>>> import sympy as sp
>>> x = sp.Symbol("x", real=True)
>>> install()
>>> sp.conjugate(sp.li(x)), sp.conjugate(sp.loggamma(sp.Symbol("p", positive=True)))
(conjugate(li(x)), loggamma(p))
"""
from __future__ import annotations

import sympy as sp

__all__ = ["install"]

#: the functions whose SymPy conjugate folds across a branch cut on the real line
FOLDING = (sp.li, sp.loggamma, sp.legendre, sp.assoc_legendre, sp.chebyshevt, sp.chebyshevu, sp.elliptic_pi,
           sp.uppergamma, sp.lowergamma)


def _where_real(self):
    """``conjugate(self)``: ``self`` where its value is known real, else left as written."""
    return self if self.is_extended_real is True else None


def install():
    """Fold the conjugates of :data:`FOLDING` only where the value is known real (done once, when derive is
    imported)."""
    for cls in FOLDING:
        cls._eval_conjugate = _where_real
