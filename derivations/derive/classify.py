"""Decide the symmetries of the gated layer ``G = (σ(x Qᵀ) ⊙ (x Kᵀ)) V`` for one activation σ.

Three symmetries are decided, each with a proof or an exact certified counterexample:

- ``exchange``: ``G(x; K, Q, V) = G(x; Q, K, V)``;
- ``scale_positive``: ``G(x; αQ, K/α, V) = G(x; Q, K, V)`` for every ``α > 0``;
- ``scale_nonzero``: the same for every ``α ≠ 0``.

Each symmetry is first stated for one unit, as a scalar identity in real ``a, b`` (and ``α``):
``σ(a) b = σ(b) a`` and ``σ(α a) = α σ(a)``. The layer at ``d = m = 2`` (one output column) is a sum of
one such term per unit, with ``a = x·q_j``, ``b = x·k_j``: a claim proved once by ``expand`` with σ undefined.
So a proof of the unit identity proves the layer claim, as a two-step chain (the decomposition at σ := the
activation, then every unit's term zero by the unit identity); a refuted unit identity gives a layer witness
(``x = (1, 0)``, the unit's values on the first rows of ``Q`` and ``K``, the second unit zero) at which the
layer's residual is certified nonzero. Proof strategies run within a time budget; what is neither proved nor
refuted is reported as undecided, never guessed.

By the σ(z)/z lemma and its scaling analogue, exchange and scaling with ``α ≠ 0`` hold exactly for linear σ,
scaling with ``α > 0`` exactly for ``σ(z) = c₊ max(z, 0) + c₋ min(z, 0)``; the result names that family.
"""
from __future__ import annotations

import time
import zlib

import sympy as sp

from . import forms, registry, rules
from .activations import ACTIVATIONS, activation, z
from .activations import sigma as _generic
from .chains import Chain
from .claims import Claim
from .classification import (D, M, SYMMETRIES, TITLES, Classification, ClassificationTable, Finding,
                             classification_table)
from .parse import parse
from .symbols import matrix, row
from .verdict import Verdict
from .witness import instance_problem

__all__ = ["SYMMETRIES", "Finding", "Classification", "ClassificationTable", "classify", "classification_table"]

_LAYER_TEX = {
    "exchange": r"G_\sigma(x;\,K, Q, V) = G_\sigma(x;\,Q, K, V)",
    "scale_positive": r"G_\sigma(x;\,\alpha Q, K/\alpha, V) = G_\sigma(x;\,Q, K, V)",
    "scale_nonzero": r"G_\sigma(x;\,\alpha Q, K/\alpha, V) = G_\sigma(x;\,Q, K, V)",
}
_SUM_TEX = {
    "exchange": r"\sum_j -v_j\,\bigl(\sigma(a_j)\,b_j - \sigma(b_j)\,a_j\bigr)",
    "scale_positive": r"\sum_j \frac{b_j v_j}{\alpha}\,\bigl(\sigma(\alpha a_j) - \alpha\,\sigma(a_j)\bigr)",
    "scale_nonzero": r"\sum_j \frac{b_j v_j}{\alpha}\,\bigl(\sigma(\alpha a_j) - \alpha\,\sigma(a_j)\bigr)",
}
_CONDITION = {"exchange": "", "scale_positive": r",\ \alpha > 0", "scale_nonzero": r",\ \alpha \neq 0"}
_a, _b = sp.symbols("a b", real=True)
_ALPHA = {
    "scale_positive": sp.Symbol("alpha", positive=True),
    "scale_nonzero": sp.Symbol("alpha", real=True, nonzero=True),
}
_X, _Q, _K, _V = row("x", D), matrix("Q", M, D), matrix("K", M, D), matrix("V", M, 1)
_CHEAP = ("structural", "expand", "sign-split")
_COSTLY = ("rational", "simplify")


# -- the activation -------------------------------------------------------------------------------------------
def _as_expr(where, sigma):
    """The activation as ``(expression in z, default name)``."""
    name = None
    if isinstance(sigma, str) and sigma.strip() in ACTIVATIONS and sigma.strip() != "sigma":
        sigma = activation(sigma.strip())
    if isinstance(sigma, str):
        expr = parse(sigma.strip())
    elif isinstance(sigma, sp.Lambda):
        if len(sigma.variables) != 1:
            raise ValueError(f"{where}: sigma must be a Lambda of one variable, got {len(sigma.variables)}")
        expr = sigma.expr.xreplace({sigma.variables[0]: z})
        name = next((n for n in ACTIVATIONS if activation(n) == sigma), None)
    elif isinstance(sigma, sp.Expr):
        others = sorted(str(s) for s in sigma.free_symbols if s.name != "z")
        if others:
            raise ValueError(f"{where}: sigma must be an expression in z alone, got the symbols {', '.join(others)}")
        expr = sigma.xreplace({s: z for s in sigma.free_symbols})
    else:
        raise TypeError(f"{where}: sigma must be a str, a SymPy expression in z or a Lambda, "
                        f"got {type(sigma).__name__}")
    if expr.atoms(sp.core.function.AppliedUndef):
        raise ValueError(f"{where}: sigma must be a concrete activation, not the generic σ")
    if expr.free_symbols - {z}:
        others = ", ".join(sorted(str(s) for s in expr.free_symbols - {z}))
        raise ValueError(f"{where}: sigma must be an expression in z alone, got the symbols {others}")
    _require_real(where, expr)
    return expr, name or "expr_" + format(zlib.crc32(sp.srepr(expr).encode()), "08x")


#: exact points at which an activation must have a real, finite value
_PROBES = tuple(sp.Rational(k, 2) for k in range(-4, 5))


def _require_real(where, expr):
    """Refuse σ that is provably not a real function on all of ℝ: exactly non-real or undefined at a probe point.

    The symmetries are statements about σ: ℝ → ℝ. ``sqrt(z)`` (imaginary for z < 0), ``log(z)`` and ``1/z``
    (undefined at 0) are refused; an expression whose values SymPy cannot decide is let through.
    """
    for point in _PROBES:
        value = expr.xreplace({z: point})
        if value.has(sp.zoo, sp.nan, sp.oo, -sp.oo) or value.is_real is False:
            raise ValueError(f"{where}: sigma must be real and finite on the whole real line, but "
                             f"{sp.sstr(expr)} at z = {point} is {sp.sstr(value)}")


# -- one symmetry ---------------------------------------------------------------------------------------------
def _unit_sides(key, s, a=_a, b=_b):
    if key == "exchange":
        return s(a) * b, s(b) * a
    alpha = _ALPHA[key]
    return s(alpha * a), alpha * s(a)


def _layer_sides(key, s):
    if key == "exchange":
        return forms.gated(_X, _K, _Q, _V, s), forms.gated(_X, _Q, _K, _V, s)
    alpha = _ALPHA[key]
    return forms.gated(_X, alpha * _Q, _K / alpha, _V, s), forms.gated(_X, _Q, _K, _V, s)


def _arguments(key):
    """Per unit j: ``(a_j, b_j, factor_j)`` -- the layer's difference is ``Σ_j factor_j · U(a_j, b_j)``."""
    out = []
    for j in range(M):
        aj = (_X * _Q[j, :].T)[0, 0]
        bj = (_X * _K[j, :].T)[0, 0]
        factor = -_V[j, 0] if key == "exchange" else bj * _V[j, 0] / _ALPHA[key]
        out.append((aj, bj, factor))
    return out


def _unit_difference(key, s, a, b):
    lhs, rhs = _unit_sides(key, s, a, b)
    return lhs - rhs


_REDUCTIONS: dict = {}


def _reduction(prefix, key) -> Claim:
    """For the generic σ: the layer's difference is the sum over units of the unit identity's difference.

    Proved once per prefix by ``expand``; a concrete activation's layer is its instance ``σ := that activation``.
    """
    ident = f"{prefix}.reduction.{key}"
    found = _REDUCTIONS.get(ident)
    if found is not None:
        try:
            registry.get(ident)
        except KeyError:
            registry.register(found)
        return found
    glhs, grhs = _layer_sides(key, _generic)
    parts = sp.Add(*[f * _unit_difference(key, _generic, a, b) for a, b, f in _arguments(key)])
    left, right = _LAYER_TEX[key].split(" = ")
    statement = (rf"{left} - {right} = {_SUM_TEX[key]},"
                 rf"\quad a_j = x \cdot q_j,\ b_j = x \cdot k_j\quad (d = m = {D})")
    claim = Claim(ident, (glhs - grhs)[0, 0], parts, statement=statement, expect=Verdict.PROVED,
                  title=f"{TITLES[key]}: the layer is a sum of unit terms, for every σ")
    claim.prove(["structural", "expand"])
    _REDUCTIONS[ident] = claim
    return claim


class _LayerChain(Chain):
    """The layer's chain, shown with the layer and the unit terms named rather than written out."""

    shown: tuple = ()

    def body_tex(self) -> str:
        if len(self.shown) != len(self.steps) + 1:
            return super().body_tex()
        rows = []
        for k, (_, rule, detail, _) in enumerate(self.steps):
            mark = r"\checkmark" if detail is not None else r"\boldsymbol{\times}"
            lead = f"{self.shown[0]} &= " if k == 0 else "&= "
            rows.append(rf"{lead}{self.shown[k + 1]} && {rule.label}\ {mark}")
        return "\\begin{aligned}\n" + " \\\\\n".join(rows) + "\n\\end{aligned}"


def _units_vanish(unit, terms):
    """A chain step ``Σ_j factor_j · U(a_j, b_j) = 0``: every unit's term is an instance of the proved unit claim."""

    def check(prev, nxt):
        if unit.verdict is not Verdict.PROVED or nxt != 0:
            return None
        if any(instance_problem(_a, a) or instance_problem(_b, b) for a, b, _ in terms):
            return None
        instances = sp.Add(*[f * unit.difference.xreplace({_a: a, _b: b}) for a, b, f in terms])
        return f"each unit by {unit.identifier}" if sp.expand(prev - instances) == 0 else None

    ident = unit.identifier.replace("_", r"\_")
    label = r"\text{each unit by }\texttt{" + ident + r"}\text{ at } a := x \cdot q_j,\ b := x \cdot k_j"
    return rules.Rule("unit", label, check, uses=(unit.identifier,))


def _layer_witness(key, unit) -> dict:
    """The layer witness built from the unit's: x = (1, 0), the values on the first rows, the second unit zero."""
    values = {k: sp.Rational(v) for k, v in unit.evidence.witness.items()}
    # a symbol the unit identity does not depend on has no witness value: any allowed value will do
    a0 = values.get("a", sp.Integer(1))
    b0 = values.get("b", sp.Integer(1))
    w = {s: sp.Integer(0) for s in (*_X, *_Q, *_K)}
    w[_X[0, 0]] = sp.Integer(1)
    w[_Q[0, 0]], w[_K[0, 0]] = a0, b0
    w.update({s: sp.Integer(1) for s in _V})
    if key != "exchange":
        w[_ALPHA[key]] = values.get("alpha", sp.Integer(2))
    return w


def _shown_witness(key, w) -> dict:
    out = {
        "x": _X.xreplace(w), "Q": _Q.xreplace(w), "K": _K.xreplace(w), "V": _V.xreplace(w),
    }
    if key != "exchange":
        out["alpha"] = w[_ALPHA[key]]
    return out


def _decide(key, s, prefix, ident, tex, budget, tries) -> Finding:
    lhs, rhs = _unit_sides(key, s)
    statement = {
        "exchange": r"\sigma(a)\,b = \sigma(b)\,a",
        "scale_positive": r"\sigma(\alpha a) = \alpha\,\sigma(a),\ \alpha > 0",
        "scale_nonzero": r"\sigma(\alpha a) = \alpha\,\sigma(a),\ \alpha \neq 0",
    }[key]
    if tex:
        statement += rf",\quad \sigma(z) = {tex}"
    unit = Claim(f"{ident}.unit", lhs, rhs, title=f"{TITLES[key]}, one unit", statement=statement)
    unit.prove(list(_CHEAP), budget=budget)
    if unit.verdict is not Verdict.PROVED:
        unit.refute(tries=tries)
    if not unit.verdict.is_certain:
        unit.prove(list(_COSTLY), budget=budget)

    layer_tex = _LAYER_TEX[key] + _CONDITION[key] + rf"\quad (d = m = {D})"
    title = f"{TITLES[key]}, whole layer"
    glhs, grhs = _layer_sides(key, s)
    if unit.verdict is Verdict.PROVED:
        reduction = _reduction(prefix, key)
        terms = _arguments(key)
        layer = _LayerChain(ident, (glhs - grhs)[0, 0], uses=(unit.identifier,), expect=None, title=title)
        left, right = _LAYER_TEX[key].split(" = ")
        layer.shown = (f"{left} - {right}", _SUM_TEX[key], "0")
        layer.step(sp.Add(*[f * _unit_difference(key, s, a, b) for a, b, f in terms]),
                   rules.using(reduction, {_generic: s}))
        layer.step(sp.Integer(0), _units_vanish(unit, terms))
        verdict = Verdict.PROVED if layer.verdict is Verdict.PROVED else Verdict.UNPROVEN
        return Finding(key, verdict, unit, layer)
    layer = Claim(ident, glhs, grhs, uses=(unit.identifier,), title=title, statement=layer_tex)
    if unit.verdict is Verdict.REFUTED:
        w = _layer_witness(key, unit)
        layer.refute(witness=w)
        if layer.verdict is Verdict.REFUTED:
            return Finding(key, Verdict.REFUTED, unit, layer, _shown_witness(key, w))
        return Finding(key, Verdict.UNPROVEN, unit, layer)
    layer.refute(tries=tries)
    if layer.verdict is Verdict.REFUTED:
        found = {k: sp.Rational(v) for k, v in layer.evidence.witness.items()}
        w = {sym: found[str(sym)] for sym in layer.symbols()}
        return Finding(key, Verdict.REFUTED, unit, layer, _shown_witness(key, w))
    return Finding(key, Verdict.UNPROVEN, unit, layer)


# -- entry point ----------------------------------------------------------------------------------------------
def classify(sigma, *, name=None, label=None, prefix="classify", expect=None, budget=1.0, tries=120):
    """Decide exchange and inverse-scaling symmetry of the gated layer for the activation ``sigma``.

    Parameters
    ----------
    sigma : the activation: a name of ``derive.ACTIVATIONS`` (``"silu"``), a text in ``z``
        (``"z * sigmoid(z)"``, read by :func:`derive.parse.parse`), a SymPy expression in ``z`` or a ``Lambda``
    name : the identifier part of its claims (default: the activation's name, else a hash of the expression)
    label : how tables name it (default: ``name``)
    prefix : the claims are ``{prefix}.{name}.{symmetry}`` (the layer) and ``….unit`` (one unit)
    expect : ``{symmetry: verdict}`` expected of the layer claims (and of the unit claims they rest on)
    budget : seconds per proof strategy; ``tries``: witness candidates searched

    Returns a :class:`Classification`; its claims are in the notebook's claim table.

    Examples
    --------
    >>> import derive
    >>> c = derive.classify("max(z, 0)", name="doc_relu")
    >>> c.verdicts()["scale_positive"], c.verdicts()["exchange"]
    (<Verdict.PROVED: 'proved'>, <Verdict.REFUTED: 'refuted'>)
    >>> c.family_text()
    'positively homogeneous (c+ = 1, c- = 0)'
    >>> c["exchange"].witness["Q"], c["exchange"].witness["K"]
    (Matrix([
    [1, 0],
    [0, 0]]), Matrix([
    [-1, 0],
    [ 0, 0]]))
    >>> derive.classify("z/3", name="doc_linear").family_text()
    'linear (c = 1/3)'
    """
    where = "classify"
    start = time.perf_counter()
    expr, default = _as_expr(where, sigma)
    name = default if name is None else name
    if not isinstance(name, str) or not name.replace("_", "a").isalnum():
        raise ValueError(f"{where}: name must be letters, digits and '_', got {name!r}")
    if label is not None and not isinstance(label, str):
        raise TypeError(f"{where}: label must be a str, got {type(label).__name__}")
    expected = _expectations(where, expect)
    s = sp.Lambda(z, expr)
    tex = sp.latex(expr)
    tex = tex if len(tex) <= 120 else ""
    findings = []
    for key in SYMMETRIES:
        ident = f"{prefix}.{name}.{key}"
        findings.append(_decide(key, s, prefix, ident, tex, budget, tries))
    for f in findings:
        want = expected.get(f.symmetry)
        if want is not None:
            for c in (f.unit, f.layer):
                c.expect = want
                c._settle(want)
    return Classification(expr, name, label or name, findings, time.perf_counter() - start)


def _expectations(where, expect) -> dict:
    if expect is None:
        return {}
    if not isinstance(expect, dict):
        raise TypeError(f"{where}: expect must be a dict of symmetry -> verdict, got {type(expect).__name__}")
    out = {}
    for key, value in expect.items():
        if key not in SYMMETRIES:
            raise ValueError(f"{where}: expect has the unknown symmetry {key!r}; known: {', '.join(SYMMETRIES)}")
        try:
            out[key] = Verdict(value)
        except ValueError:
            raise ValueError(f"{where}: expect[{key!r}] must be proved, refuted or unproven; got {value!r}") from None
    return out
