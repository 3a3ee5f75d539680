"""SymPy's ``simplify``, where the kernel takes its result for an exact rewriting, and where it does not.

``simplify`` evaluates sums, products and integrals by SymPy's summation and integrator, which are not exact
everywhere (:mod:`derive.kernel.sums`). It also rewrites a ``Piecewise`` through SymPy's simplification of its
conditions, which can lose a boundary point or a whole condition: it reads ``(x < 4) ∧ (x ≤ −1 ∨ x ≤ 0)``, which is
x ≤ 0, as x < 0, and drops ``x ≥ 1`` from ``x ≥ 1 ∧ x − 2y ≠ −3`` inside a nested ``Piecewise``. A claim between two
such ``Piecewise`` was proved, false at the boundary x = 0. The kernel reads those by its own exact case split on
the conditions (:func:`derive.kernel.strategies.piecewise_cases`), and asks ``simplify`` of none of them. A
``sign`` is let through: ``simplify`` writes ``sign u`` as ``u/|u|`` where ``u ≠ 0`` and 0 where ``u = 0``, conditions
that are equations, not the inequalities whose simplification lost a point.

>>> import sympy as sp
>>> x = sp.Symbol("x", real=True)
>>> simplified(sp.sin(x)**2 + sp.cos(x)**2)
1
>>> simplified(sp.Piecewise((1, (x < 4) & ((x <= -1) | (x <= 0))), (0, True))) is None
True
"""
from __future__ import annotations

import sympy as sp
from sympy.core.relational import Relational
from sympy.logic.boolalg import BooleanAtom, BooleanFunction

__all__ = ["simplified", "untrusted"]

#: what ``simplify`` reads by SymPy's summation, integrator or simplification of conditions (a condition: a relation
#: or a boolean function or constant; a ``Symbol`` is a ``Boolean`` to SymPy too, and is no condition here)
_UNTRUSTED = (sp.Sum, sp.Product, sp.Integral, sp.Piecewise, Relational, BooleanFunction, BooleanAtom)


def untrusted(expr) -> bool:
    """Whether ``expr`` holds something ``simplify`` is not trusted with: a sum, a product, an integral, a
    ``Piecewise`` or any condition (a relation, a boolean)."""
    return any(isinstance(node, _UNTRUSTED) for node in sp.preorder_traversal(expr))


def simplified(expr):
    """``sp.simplify(expr)``, or ``None`` where :func:`untrusted`."""
    return None if untrusted(expr) else sp.simplify(expr)
