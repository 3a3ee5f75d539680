"""A decided symmetry of the gated layer, lifted from one unit to the layer at every size d, m, n ≥ 1.

Kept: a chain from the unit identity (proved for σ) to the layer's symmetry, read at every term of the sum over
the units (``termwise``) and through the layer's reduction to that sum, proved once for the generic σ at every
size. Broken: a chain from the layer's symmetry at sizes d, m, n to a false equation, through the weights that
make the layer one unit (:func:`derive.layers.forms.one_unit`) at the unit's certified witness: since those
weights exist at every size, the symmetry fails at every size.

>>> import sympy as sp
>>> from derive.layers.activations import activation
>>> a, b = sp.symbols("a b", real=True)
>>> relu = activation("relu")
>>> broken("doc.sizes.relu", "exchange", relu, {a: 1, b: -1}).verdict
<Verdict.PROVED: 'proved'>
"""
from __future__ import annotations

import sympy as sp

from ..kernel import rules
from ..kernel.chains import chain
from ..kernel.claims import Claim
from ..kernel.verdict import Verdict
from ..layers import forms
from ..layers.activations import sigma as _generic
from .classification import ALPHA, TITLES

__all__ = ["kept", "broken", "layer_sides"]

_D, _M, _N = sp.symbols("d m n", integer=True, positive=True)
_X, _Q, _K, _V = (sp.MatrixSymbol("x", 1, _D), sp.MatrixSymbol("Q", _M, _D), sp.MatrixSymbol("K", _M, _D),
                  sp.MatrixSymbol("V", _M, _N))
_J = sp.Symbol("j", integer=True)  # the unit a sum runs over
_A, _B = sp.symbols("a b", real=True)
_REDUCTIONS: dict = {}


def layer_sides(key, s):
    """The two sides of the layer's symmetry at every size: ``G(K, Q) = G(Q, K)`` or ``G(αQ, K/α) = G(Q, K)``."""
    if key == "exchange":
        return forms.gated(_X, _K, _Q, _V, s), forms.gated(_X, _Q, _K, _V, s)
    alpha = ALPHA[key]
    return forms.gated(_X, alpha * _Q, _K / alpha, _V, s), forms.gated(_X, _Q, _K, _V, s)


def _term(key, s):
    """The layer's change per unit, ``Σ_j term(a_j, b_j) v_j``."""
    if key == "exchange":
        return sp.Lambda((_A, _B), s(_B) * _A - s(_A) * _B)
    alpha = ALPHA[key]
    return sp.Lambda((_A, _B), (s(alpha * _A) / alpha - s(_A)) * _B)


def _reduction(prefix, key) -> Claim:
    """For the generic σ, at every size: the layer's change is the sum of its units' (proved once per prefix)."""
    ident = f"{prefix}.reduction.{key}.every_size"
    found = _REDUCTIONS.get(ident)
    if found is None:
        lhs, rhs = layer_sides(key, _generic)
        found = Claim(ident, lhs - rhs, forms.unit_sum(_term(key, _generic), _X, _Q, _K, _V), expect=Verdict.PROVED,
                      title=f"{TITLES[key]}: the layer's change is a sum over its units, at every size")
        found.prove()
        _REDUCTIONS[ident] = found
    return found


def kept(ident, key, s, unit, prefix="classify", proves=()):
    """The layer keeps the symmetry at every size, from ``unit`` (the unit identity, proved for ``s``)."""
    a_j, b_j = (_X * _Q.T)[0, _J], (_X * _K.T)[0, _J]
    reduction = _reduction(prefix, key)
    lhs, rhs = layer_sides(key, s)
    zero = sp.ZeroMatrix(1, _N)
    if key == "exchange":
        start = (s(_A) * _B, s(_B) * _A)
        steps = [((forms.unit_sum(_term(key, s), _X, _Q, _K, _V), zero), rules.termwise({_A: a_j, _B: b_j}, index=_J))]
    else:
        alpha = ALPHA[key]
        start = (s(alpha * _A), alpha * s(_A))
        steps = [((s(alpha * _A) / alpha, s(_A)), rules.divide(alpha)),
                 ((forms.unit_sum(_term(key, s), _X, _Q, _K, _V), zero), rules.termwise({_A: a_j}, index=_J))]
    out = chain(ident, start, uses=[reduction.identifier], premise=unit, proves=proves, expect=None,
                title=f"{TITLES[key]}: kept by the layer at every size, from the unit identity")
    for expr, rule in steps:
        out.step(expr, rule)
    out.step((lhs - rhs, zero), rules.using(reduction, {_generic: s}))
    out.step((lhs, rhs), rules.rearrange())
    return out


def broken(ident, key, s, witness, proves=(), uses=()):
    """The layer breaks the symmetry at every size: at the one-unit weights of the unit's ``witness`` (exact values
    of ``a`` and ``b``, or of ``a`` and ``alpha``), the layer's first entry is a false equation between numbers."""
    values = {str(k): v for k, v in witness.items()}
    a0 = values.get("a", sp.Integer(1))  # (a value the unit's difference does not depend on: any will do, as 1 for
    if key == "exchange":  # a constant σ, whose scaling difference 1 − α has no a)
        b0, mapping = values.get("b", sp.Integer(1)), {}
        seen = (s(b0) * a0, s(a0) * b0)
    else:
        alpha0, b0 = values["alpha"], sp.Integer(1)
        mapping = {ALPHA[key]: alpha0}
        seen = (s(alpha0 * a0) / alpha0, s(a0))
    mapping.update(forms.one_unit(_X, _Q, _K, _V, a0, b0))
    out = chain(ident, layer_sides(key, s), uses=list(uses), proves=proves, expect=None,
                title=f"{TITLES[key]}: broken by the layer at every size (one unit at the witness)")
    out.step(tuple(side.xreplace(mapping) for side in out.start), rules.instantiate(mapping))
    out.step(seen, rules.entry(0, 0))
    out.step((sp.Integer(0), sp.Integer(1)), rules.absurd())
    return out
