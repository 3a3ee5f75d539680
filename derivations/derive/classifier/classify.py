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

from ..layers import forms
from ..kernel import registry, rules
from . import pieces as _pieces
from ..kernel import witness as _witness
from ..layers.activations import ACTIVATIONS, activation, z
from ..layers.activations import sigma as _generic
from ..kernel.budget import DEFAULT_SECONDS, OutOfTime, seconds_value, time_budget
from ..kernel.chains import Chain
from ..kernel.claims import Claim
from .classification import (ALPHA, D, M, SYMMETRIES, TITLES, Classification, ClassificationTable, Finding,
                             classification_table)
from .parse import parse, refuse_zero_divisors
from ..layers.symbols import matrix, row
from . import sizes as _sizes
from ..kernel.verdict import ExpectationError, Verdict
from ..kernel.witness import instance_problem
from ..kernel.validate import require_inert_tex, require_real_variable
from ..kernel.wellformed import bound_symbols, defined, denominators, refuse_inexact, refuse_live_names

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
_X, _Q, _K, _V = row("x", D), matrix("Q", M, D), matrix("K", M, D), matrix("V", M, 1)
_CHEAP = ("structural", "expand", "sign-split")
_COSTLY = ("rational", "simplify")


# -- the activation -------------------------------------------------------------------------------------------
def _as_expr(where, sigma, divisors: list | None = None):
    """The activation as ``(expression in z, default name)``; ``divisors`` gets what a text divides by, as written
    (:func:`derive.classifier.parse.parse`)."""
    name = None
    if isinstance(sigma, str) and sigma.strip() in ACTIVATIONS and sigma.strip() != "sigma":
        sigma = activation(sigma.strip())
    if isinstance(sigma, str):
        expr = parse(sigma.strip(), divisors)
    elif isinstance(sigma, sp.Lambda):
        if len(sigma.variables) != 1:
            raise ValueError(f"{where}: sigma must be a Lambda of one variable, got {len(sigma.variables)}")
        require_real_variable(where, "sigma", sigma.variables[0])
        if sigma.free_symbols:  # (z put in for the variable would capture a free z of the body: t·z² read as z³)
            others = ", ".join(sorted(str(s) for s in sigma.free_symbols))
            raise ValueError(f"{where}: sigma must be a function of its variable alone, got a Lambda whose body "
                             f"also holds {others}")
        if any(b.name == "z" for b in bound_symbols(sigma.expr)):
            raise ValueError(f"{where}: sigma's body binds a z of its own, and σ is read in z: name the body's "
                             f"variable apart")
        expr = _cancelled(sigma, sigma.expr, {sigma.variables[0]: z}, divisors)
        name = next((n for n in ACTIVATIONS if activation(n) == sigma), None)
    elif isinstance(sigma, sp.Expr):
        others = sorted(str(s) for s in sigma.free_symbols if s.name != "z")
        if others:
            raise ValueError(f"{where}: sigma must be an expression in z alone, got the symbols {', '.join(others)}")
        if len(sigma.free_symbols) > 1:  # (two symbols named z, of other assumptions, would be read as one)
            raise ValueError(f"{where}: sigma holds {len(sigma.free_symbols)} different symbols named z; write it in "
                             f"one")
        for s in sigma.free_symbols:
            require_real_variable(where, "sigma", s)
        expr = _cancelled(sigma, sigma, {s: z for s in sigma.free_symbols}, divisors)
    else:
        raise TypeError(f"{where}: sigma must be a str, a SymPy expression in z or a Lambda, "
                        f"got {type(sigma).__name__}")
    refuse_inexact(where, expr)
    if expr.atoms(sp.core.function.AppliedUndef):
        raise ValueError(f"{where}: sigma must be a concrete activation, not the generic σ")
    if expr.free_symbols - {z}:
        others = ", ".join(sorted(str(s) for s in expr.free_symbols - {z}))
        raise ValueError(f"{where}: sigma must be an expression in z alone, got the symbols {others}")
    return expr, name or "expr_" + format(zlib.crc32(sp.srepr(expr).encode()), "08x")


def _cancelled(sigma, body, to_z, divisors):
    """``body`` in z; ``divisors`` gets what it divides by as built, where putting z in cancels it (a body built
    unevaluated, ``z(z − 3)/(z − 3)``, is ``z`` once SymPy builds it again): as for a text, it must be nonzero."""
    expr = body.xreplace(to_z)
    if divisors is not None:
        with sp.evaluate(False):
            written = body.xreplace(to_z)
        kept = denominators(expr)
        divisors.extend((d, sp.sstr(sigma), None) for d in denominators(written)
                        if d not in kept and not isinstance(d, defined))
    return expr


#: exact points at which an activation must have a real, finite value
_PROBES = tuple(sp.Rational(k, 2) for k in range(-4, 5))
#: the widest exact number (in bits) an evaluation of σ may build; wider ones are never started
MAX_EXACT_BITS = 1 << 16
#: seconds one exact evaluation of σ at a point may take (inside the whole budget)
_POINT_SECONDS = 1.0
#: seconds reading σ may take when the budget is shorter: its claims are stated even when no time is left to
#: decide them (reading counts against the budget)
READ_SECONDS = 1.0
#: seconds one proof strategy may take (inside the whole budget); the costly ones (cancel, simplify) get more
_STRATEGY_SECONDS = 1.0
_COSTLY_SECONDS = 4.0
#: what SymPy raises when a value is too large, too deep or not comparable: never a verdict, never a traceback
_SYMPY_TROUBLE = (OverflowError, RecursionError, MemoryError, ZeroDivisionError)


def _trouble(exc) -> bool:
    """Whether ``exc`` is SymPy failing to evaluate or compare (rather than a bug to show)."""
    if isinstance(exc, _SYMPY_TROUBLE):
        return True
    text = str(exc)
    return isinstance(exc, (TypeError, ValueError)) and any(
        w in text for w in ("comparable", "comparison", "Relational", "truth value", "too many digits", "digits",
                            "cannot be evaluated there", "not certified nonzero there", "no witness: "))


def _say(exc) -> str:
    text = " ".join(str(exc).split())
    text = text if len(text) <= 80 else text[:77] + "..."
    return f"{type(exc).__name__}{': ' + text if text else ''}"


def _bits(q) -> int:
    return max(int(q.p).bit_length(), int(q.q).bit_length())


def exact_size(expr, point) -> int:
    """A bound on the bits of the exact numbers SymPy builds when it evaluates ``expr`` at the rational ``point``.

    Integer powers of exact values are what grow: ``(z + 2)**(2**30)`` at ``z = 1`` would build a number of
    three billion bits (minutes, in one uninterruptible call). Functions such as ``exp`` stay symbolic, so only
    their arguments count.

    >>> from derive.layers.activations import z
    >>> exact_size((z + 2)**64, 1) < 200, exact_size((z + 2)**(2**30), 1) > 10**9, exact_size((z + 2)**(2**30), -1)
    (True, True, 1)
    """
    point = sp.Rational(point)

    def walk(e):  # (bits, exact value or None)
        if e == z:
            return _bits(point), point
        if e.is_Rational:
            return _bits(e), e
        if isinstance(e, sp.Pow) and e.exp.is_Rational:
            bits, value = walk(e.base)
            if value is not None and (value in (0, 1, -1)):
                return 1, (value if e.exp.is_Integer and e.exp > 0 else None)
            n = abs(int(e.exp.p))
            grown = bits * n
            if value is not None and e.exp.is_Integer and grown <= MAX_EXACT_BITS:
                return grown, (value ** int(e.exp) if value != 0 or e.exp > 0 else None)
            return grown, None
        parts = [walk(a) for a in e.args] if isinstance(e, sp.Basic) else []
        if not parts:
            return 1, None
        bits = sum(b for b, _ in parts) if isinstance(e, (sp.Add, sp.Mul)) else max(b for b, _ in parts)
        if isinstance(e, (sp.Add, sp.Mul)) and all(v is not None for _, v in parts) and bits <= MAX_EXACT_BITS:
            value = sp.Add(*[v for _, v in parts]) if isinstance(e, sp.Add) else sp.Mul(*[v for _, v in parts])
            return _bits(value), value
        return bits, None

    return walk(expr)[0]


def _safe(expr, points) -> bool:
    """Whether σ can be evaluated exactly at every one of ``points`` without building huge numbers."""
    return all(exact_size(expr, p) <= MAX_EXACT_BITS for p in points if sp.sympify(p).is_Rational)


def _require_real(where, expr):
    """Refuse σ that is provably not a real function on all of ℝ: exactly non-real or undefined at a probe point.

    The symmetries are statements about σ: ℝ → ℝ. ``sqrt(z)`` (imaginary for z < 0), ``log(z)`` and ``1/z``
    (undefined at 0) are refused; an expression whose values SymPy cannot decide (in time, or without huge
    numbers) is let through.
    """
    slow = 0
    for point in _PROBES:
        if not _safe(expr, [point]) or slow >= 2:
            continue
        try:
            with time_budget(_POINT_SECONDS):
                value = expr.xreplace({z: point})
                bad = value.has(sp.zoo, sp.nan, sp.oo, -sp.oo) or value.is_real is False
        except OutOfTime as exc:
            if exc.outer:
                raise
            slow += 1
            continue
        except Exception as exc:  # noqa: BLE001 - only SymPy's own trouble is let through
            if not _trouble(exc):
                raise
            continue
        if bad:
            raise ValueError(f"{where}: sigma must be real and finite on the whole real line, but "
                             f"{sp.sstr(expr)} at z = {point} is {sp.sstr(value)}")


# -- one symmetry ---------------------------------------------------------------------------------------------
def _unit_sides(key, s, a=_a, b=_b):
    if key == "exchange":
        return s(a) * b, s(b) * a
    alpha = ALPHA[key]
    return s(alpha * a), alpha * s(a)


def _layer_sides(key, s):
    if key == "exchange":
        return forms.gated(_X, _K, _Q, _V, s), forms.gated(_X, _Q, _K, _V, s)
    alpha = ALPHA[key]
    return forms.gated(_X, alpha * _Q, _K / alpha, _V, s), forms.gated(_X, _Q, _K, _V, s)


def _arguments(key):
    """Per unit j: ``(a_j, b_j, factor_j)`` -- the layer's difference is ``Σ_j factor_j · U(a_j, b_j)``."""
    out = []
    for j in range(M):
        aj = (_X * _Q[j, :].T)[0, 0]
        bj = (_X * _K[j, :].T)[0, 0]
        factor = -_V[j, 0] if key == "exchange" else bj * _V[j, 0] / ALPHA[key]
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
    #: the two sides of the whole layer the chain's start is an entry of: its scope is theirs
    layer: tuple = ()

    def objects(self) -> list:
        return [*super().objects(), *self.layer]

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


class _UnitChain(Chain):
    """The unit identity proved in steps (through a proved form of σ); ``difference`` is what must vanish."""

    @property
    def difference(self):
        return self.start


def _layer_witness(key, values, ctx) -> dict | None:
    """The layer witness built from the unit's exact values: x = (1, 0), the values on the first rows.

    The second unit is zero (as small as it gets), unless σ cannot be evaluated exactly at 0 without huge numbers:
    then it sits at the unit's own ``a``, where its term vanishes too (``a_2 = b_2`` for the exchange, ``b_2 = 0``
    for the scaling). ``None`` when no such witness can be evaluated safely.
    """
    # a symbol the unit identity does not depend on has no witness value: any allowed value will do
    a0 = values.get(_a, sp.Integer(1))
    b0 = values.get(_b, sp.Integer(1))
    alpha = values.get(ALPHA.get(key), sp.Integer(2))
    for second in (sp.Integer(0), a0):
        points = [a0, b0, second] if key == "exchange" else [a0, alpha * a0, second, alpha * second]
        if not _safe(ctx.expr, points):
            continue
        w = {s: sp.Integer(0) for s in (*_X, *_Q, *_K)}
        w[_X[0, 0]] = sp.Integer(1)
        w[_Q[0, 0]], w[_K[0, 0]] = a0, b0
        w[_Q[1, 0]] = second
        if key == "exchange":
            w[_K[1, 0]] = second
        w.update({s: sp.Integer(1) for s in _V})
        if key != "exchange":
            w[ALPHA[key]] = alpha
        return w
    return None


def _shown_witness(key, w) -> dict:
    out = {
        "x": _X.xreplace(w), "Q": _Q.xreplace(w), "K": _K.xreplace(w), "V": _V.xreplace(w),
    }
    if key != "exchange":
        out["alpha"] = w[ALPHA[key]]
    return out


# -- what the activation is, in pieces, and the witnesses worth trying -------------------------------------------
_W = sp.Symbol("w", real=True)
_SMALL = tuple(sp.Rational(v) for v in ("1", "-1", "2", "-2", "1/2", "-1/2", "3", "-3", "0"))


class _Context:
    """One activation being classified: σ, how its claims are named, its pieces (if it is a piecewise polynomial)
    and the witnesses worth trying for each symmetry."""

    def __init__(self, expr, prefix, name, tex, tries, analyse=True, proves=()):
        self.expr, self.prefix, self.name, self.tex, self.tries = expr, prefix, name, tex, tries
        self.proves = proves
        self.s = sp.Lambda(z, expr)
        self.forms: dict = {}
        self.pieces = None
        self.searchable = False
        self.c_plus = self.c_minus = self.off_linear = self.off_two_slope = None
        if not analyse:
            return
        pool = set(_witness.POOL)
        self.searchable = _safe(expr, pool | {p * q for p in pool for q in pool})
        try:
            self.pieces = _pieces.pieces(expr) if _safe(expr, (1, -1)) else None
            if self.pieces is not None:
                self.c_plus, self.c_minus = self.pieces.value(sp.Integer(1)), -self.pieces.value(sp.Integer(-1))
                self.off_linear = _pieces.deviation(self.pieces, self.c_plus, self.c_plus)
                self.off_two_slope = _pieces.deviation(self.pieces, self.c_plus, self.c_minus)
        except Exception as exc:  # noqa: BLE001 - the analysis only guides; SymPy's trouble leaves it out
            if not _trouble(exc):
                raise
            self.pieces = None

    def holds(self, key):
        """What the pieces say: True (the symmetry holds), False (it fails), None (not a piecewise polynomial)."""
        if self.pieces is None:
            return None
        if key == "scale_positive":
            return self.off_two_slope is None
        return self.off_linear is None

    def candidates(self, key) -> list[dict]:
        """Unit witnesses to certify before any proof is tried: small values, then values read off the pieces, then
        values scaled to the constants in σ (a clip at 100 is broken only beyond 100)."""
        far = []
        for r in sorted({abs(r) for r in self.expr.atoms(sp.Rational) if abs(r) > 3}, key=_witness_order):
            far += [r + 1, -(r + 1), 2 * r, -2 * r]
        one = sp.Integer(1)
        out = []
        if key == "exchange":
            out += [{_a: one, _b: -one}]
            out += [{_a: t, _b: one} for t in _SMALL if t != 1]
            out += [{_a: sp.Rational(t), _b: -one} for t in ("2", "-2", "1/2")] + [{_a: one, _b: sp.Integer(0)}]
            if self.off_linear is not None:
                out.append({_a: self.off_linear, _b: one})
            out += [{_a: t, _b: one} for t in far]
            return out
        alpha = ALPHA[key]
        scales = [sp.Integer(2), sp.Rational(1, 2), sp.Integer(3)]
        if key == "scale_nonzero":
            scales += [sp.Integer(-1), sp.Integer(-2), sp.Rational(-1, 2)]
        out += [{_a: sp.Rational(a), alpha: k} for k in scales for a in ("1", "-1", "0", "2", "-2", "1/2")]
        t = self.off_two_slope
        if t is not None:
            out.append({_a: sp.Integer(0), alpha: sp.Integer(2)} if t == 0 else {_a: sp.sign(t), alpha: abs(t)})
        elif key == "scale_nonzero" and self.off_linear is not None:
            out.append({_a: one, alpha: -one})
        out += [{_a: sp.sign(t), alpha: abs(t)} for t in far] + [{_a: one, alpha: t} for t in far]
        return out


def _witness_order(r):
    return (_pieces._height(r), r)


def _points(key, w) -> list:
    if key == "exchange":
        return [w[_a], w[_b]]
    return [w[_a], w[_a] * w[ALPHA[key]]]


def _attempt(notes, action):
    """Run one kernel call; SymPy's own trouble (overflow, recursion, an undecidable comparison) becomes a note."""
    try:
        action()
    except OutOfTime:
        raise
    except Exception as exc:  # noqa: BLE001 - anything but SymPy's trouble is a bug and shown as such
        if not _trouble(exc):
            raise
        notes.append(f"SymPy gave up ({_say(exc)})")


def _precheck(key, ctx, unit, notes):
    """The first candidate witness at which the unit identity's residual is certified nonzero (by the kernel's
    certifier), or ``None``. Run before any proof: an activation is never called linear that is not."""
    misses = 0
    for w in ctx.candidates(key):
        if key != "exchange" and (w[ALPHA[key]] == 0 or (key == "scale_positive" and not w[ALPHA[key]] > 0)):
            continue
        if not _safe(ctx.expr, _points(key, w)):
            continue
        try:
            with time_budget(_POINT_SECONDS):
                found = _witness.certify_witness(unit.difference, w)
        except OutOfTime as exc:
            if exc.outer:
                raise
            misses += 1
            if misses >= 3:
                ctx.searchable = False  # a search would spend the whole budget on such evaluations
                notes.append(f"σ takes more than {_POINT_SECONDS:g} s to evaluate at a point")
                return None
            continue
        except Exception as exc:  # noqa: BLE001
            if not _trouble(exc):
                raise
            continue
        if found is not None:
            return w
    return None


def _form_claim(ctx, linear):
    """σ in its family's form, ``σ(z) w = c z w`` or ``σ(z) w = (c₊ max(z, 0) + c₋ min(z, 0)) w``, proved by the
    kernel; ``(claim, form)`` or ``None``."""
    kind = "linear" if linear else "two_slope"
    if kind in ctx.forms:
        return ctx.forms[kind]
    c_plus, c_minus = ctx.c_plus, ctx.c_minus
    form = c_plus * z if linear else c_plus * sp.Max(z, 0) + c_minus * sp.Min(z, 0)
    ident = f"{ctx.prefix}.{ctx.name}.{kind}_form"
    title = "σ is linear" if linear else "σ has two slopes"
    claim = Claim(ident, _generic(z) * _W, form * _W, title=title, where={_generic: ctx.s},
                  statement=rf"\sigma(z)\,w = \bigl({sp.latex(form)}\bigr)\,w")
    _attempt([], lambda: claim.prove(list(_CHEAP + _COSTLY), budget=_STRATEGY_SECONDS))
    ctx.forms[kind] = (claim, sp.Lambda(z, form)) if claim.verdict is Verdict.PROVED else None
    return ctx.forms[kind]


def _guided_unit(key, ctx, unit):
    """The unit identity as a chain: σ replaced by its proved form (twice, each a checked instance), then exact rules.

    Used when the pieces say the symmetry holds but no strategy proves the unit identity as it stands (the sign
    split cannot see that ``max(αa, 0) - max(-αa, 0) = αa`` once ``αa`` is generalised).
    """
    linear = key != "scale_positive" or ctx.off_linear is None
    found = _form_claim(ctx, linear)
    if found is None:
        return None
    form, F = found
    s = ctx.s
    chain = _UnitChain(unit.identifier, unit.difference, uses=(form.identifier,), expect=None, title=unit.title)
    if key == "exchange":
        chain.step(F(_a) * _b - s(_b) * _a, rules.using(form, {z: _a, _W: _b}))
        chain.step(F(_a) * _b - F(_b) * _a, rules.using(form, {z: _b, _W: _a}))
    else:
        alpha = ALPHA[key]
        chain.step(F(alpha * _a) - alpha * s(_a), rules.using(form, {z: alpha * _a, _W: sp.Integer(1)}))
        chain.step(F(alpha * _a) - alpha * F(_a), rules.using(form, {z: _a, _W: alpha}))
    chain.step(sp.Integer(0), rules.expand if linear else rules.sign_split)
    return chain if chain.verdict is Verdict.PROVED else None


def _exact_values(unit) -> dict:
    """The unit witness as exact values by symbol (the refutation keeps them exact: its text is cut to a line, so a
    constant of 200 digits could not be read back from it)."""
    symbols = set(unit.symbols())
    return {k: v for k, v in unit.evidence.values.items() if k in symbols}


def _unit_claim(key, ctx) -> Claim:
    """The unit identity as the paper writes it, ``σ(a) b = σ(b) a``, with σ's definition beside it."""
    lhs, rhs = _unit_sides(key, _generic)
    return Claim(f"{ctx.prefix}.{ctx.name}.{key}.unit", lhs, rhs, title=f"{TITLES[key]}, one unit",
                 where={_generic: ctx.s})


def _layer_claim(key, ctx, unit) -> Claim:
    """The whole layer's claim, with σ put in; when σ makes its two sides one expression (``σ(z) = z``, whose layer
    SymPy writes alike both ways), as the paper writes it, with σ's definition beside it."""
    glhs, grhs = _layer_sides(key, ctx.s)
    where = None
    if glhs == grhs:
        (glhs, grhs), where = _layer_sides(key, _generic), {_generic: ctx.s}
    layer_tex = _LAYER_TEX[key] + _CONDITION[key] + rf"\quad (d = m = {D})"
    return Claim(f"{ctx.prefix}.{ctx.name}.{key}", glhs, grhs, uses=(unit.identifier,),
                 title=f"{TITLES[key]}, whole layer", statement=layer_tex, proves=ctx.proves, where=where)


def _decide(key, ctx, units) -> Finding:
    unit = units[key] = _unit_claim(key, ctx)
    notes: list = []
    pre = _precheck(key, ctx, unit, notes)
    says = ctx.holds(key)
    if pre is None and says is not False:
        _attempt(notes, lambda: unit.prove(list(_CHEAP), budget=_STRATEGY_SECONDS))
        if unit.verdict is not Verdict.PROVED and says:
            guided = _guided_unit(key, ctx, unit)
            if guided is not None:
                unit = units[key] = guided
            else:
                notes.append("the pieces say it holds, but the kernel proves neither the unit identity nor σ's form")
    if unit.verdict is not Verdict.PROVED:
        if ctx.searchable:
            _attempt(notes, lambda: unit.refute(tries=ctx.tries))
        elif pre is None and not notes:
            notes.append("σ's values at small points are too large to evaluate exactly")
        if unit.verdict is not Verdict.REFUTED and pre is not None:
            _attempt(notes, lambda: unit.refute(witness=pre))
        if not unit.verdict.is_certain and pre is None and says is not False:
            _attempt(notes, lambda: unit.prove(list(_COSTLY), budget=_COSTLY_SECONDS))

    if unit.verdict is Verdict.PROVED:
        glhs, grhs = _layer_sides(key, ctx.s)
        reduction = _reduction(ctx.prefix, key)
        terms = _arguments(key)
        layer = _LayerChain(f"{ctx.prefix}.{ctx.name}.{key}", (glhs - grhs)[0, 0], uses=(unit.identifier,),
                            expect=None, title=f"{TITLES[key]}, whole layer", proves=ctx.proves)
        left, right = _LAYER_TEX[key].split(" = ")
        layer.shown = (f"{left} - {right}", _SUM_TEX[key], "0")
        layer.layer = (glhs, grhs)
        try:
            lifted = rules.using(reduction, {_generic: ctx.s})
        except (TypeError, ValueError) as exc:  # σ the kernel will not put in (a number judged from digits)
            if not _trouble(exc):
                raise
            notes.append(f"the unit identity is proved, but σ is not put into the layer ({_say(exc)})")
            return Finding(key, Verdict.UNPROVEN, unit, layer, reason="; ".join(notes))
        layer.step(sp.Add(*[f * _unit_difference(key, ctx.s, a, b) for a, b, f in terms]), lifted)
        layer.step(sp.Integer(0), _units_vanish(unit, terms))
        verdict = Verdict.PROVED if layer.verdict is Verdict.PROVED else Verdict.UNPROVEN
        return Finding(key, verdict, unit, layer, reason="; ".join(notes))
    layer = _layer_claim(key, ctx, unit)
    if unit.verdict is Verdict.REFUTED:
        w = _layer_witness(key, _exact_values(unit), ctx)
        if w is None:
            return Finding(key, Verdict.UNPROVEN, unit, layer,
                           reason="the layer's values at the witness are too large to evaluate exactly")
        _attempt(notes, lambda: layer.refute(witness=w))
        if layer.verdict is Verdict.REFUTED:
            return Finding(key, Verdict.REFUTED, unit, layer, _shown_witness(key, w))
        return Finding(key, Verdict.UNPROVEN, unit, layer, reason="; ".join(notes))
    if ctx.searchable:
        _attempt(notes, lambda: layer.refute(tries=ctx.tries))
    if layer.verdict is Verdict.REFUTED:
        w = {sym: layer.evidence.values[sym] for sym in layer.symbols()}
        return Finding(key, Verdict.REFUTED, unit, layer, _shown_witness(key, w))
    return Finding(key, Verdict.UNPROVEN, unit, layer, reason="; ".join(notes))


def _undecided(key, ctx, unit, reason, claims) -> Finding:
    """A symmetry the budget left undecided. Its claims are only built when asked for (``claims``): building the
    layer of a costly σ takes time the budget no longer has."""
    if claims:
        unit = unit if unit is not None else _unit_claim(key, ctx)
        return Finding(key, Verdict.UNPROVEN, unit, _layer_claim(key, ctx, unit), reason=reason)
    return Finding(key, Verdict.UNPROVEN, unit, None, reason=reason)


# -- entry point ----------------------------------------------------------------------------------------------
def classify(sigma, *, name=None, label=None, prefix="classify", expect=None, budget=DEFAULT_SECONDS, tries=120,
             proves=(), every_size=False):
    """Decide exchange and inverse-scaling symmetry of the gated layer for the activation ``sigma``.

    Decided (each symmetry proved or refuted, never left open) for every σ built from polynomials with rational
    coefficients and ``max``/``min``/``abs``/``relu``/``leaky_relu``/``sign``/``Heaviside``/``Piecewise`` of such
    (a piecewise polynomial, a ``Piecewise`` condition joined by and/or/not too) whose form the kernel proves (a
    kink at a root of a polynomial that only ``CRootOf`` writes, as of ``z**3 - 3*z + 1``, may leave it undecided);
    tried for any other σ, which may come out undecided, with the reason.

    Parameters
    ----------
    sigma : the activation: a name of ``derive.ACTIVATIONS`` (``"silu"``), a text in ``z``
        (``"z * sigmoid(z)"``, read by :func:`derive.classifier.parse.parse`), a SymPy expression in ``z`` or a ``Lambda``
    name : the identifier part of its claims (default: the activation's name, else a hash of the expression)
    label : how tables name it (default: ``name``)
    prefix : the claims are ``{prefix}.{name}.{symmetry}`` (the layer) and ``….unit`` (one unit)
    expect : ``{symmetry: verdict}`` expected of the layer claims (and of the unit claims they rest on)
    proves : which direction of which paper item each layer claim concludes (as for :func:`derive.claim`)
    every_size : also lift each decided verdict to the layer at every size d, m, n ≥ 1
        (:mod:`derive.classifier.sizes`), within a second ``budget`` of their own; ``proves`` then goes to those
        chains
    budget : wall-clock seconds for the whole classification (``None``: no limit of its own); what is not decided
        when it runs out is undecided, "out of time after N s". Reading σ counts against it, and gets at least
        :data:`READ_SECONDS` (its claims are stated even when no time is left to decide them); when reading runs
        out, a one-line ``ValueError`` says so. ``tries``: witness candidates searched

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
    >>> derive.classify("min(relu(z), 100)", name="doc_clip")["scale_positive"].unit.evidence.witness
    {'a': '1', 'alpha': '101'}
    """
    where = "classify"
    start = time.perf_counter()
    divisors: list = []
    budget = seconds_value(where, budget)
    reading = None if budget is None else max(budget, READ_SECONDS)  # (27 nested min take SymPy 10 s to build)
    try:
        with time_budget(reading):
            expr, default = _as_expr(where, sigma, divisors)
    except OutOfTime as exc:
        if exc.outer:
            raise
        raise ValueError(f"{where}: out of time after {reading:.3g} s reading sigma, before any claim") from None
    left = None if budget is None else max(budget - (time.perf_counter() - start), 1e-3)  # what reading σ left
    name = default if name is None else name
    if not isinstance(name, str) or not name.replace("_", "a").isalnum():
        raise ValueError(f"{where}: name must be letters, digits and '_', got {name!r}")
    if label is not None and not isinstance(label, str):
        raise TypeError(f"{where}: label must be a str, got {type(label).__name__}")
    require_inert_tex(where, "label", label)
    refuse_live_names(f"{where}: sigma", expr)
    expected = _expectations(where, expect)
    tex = sp.latex(expr)
    tex = tex if len(tex) <= 120 else ""
    if not isinstance(every_size, bool):
        raise TypeError(f"{where}: every_size must be True or False, got {every_size!r:.40}")
    layer_proves = () if every_size else proves
    ctx = _Context(expr, prefix, name, tex, tries, analyse=False, proves=layer_proves)
    findings: dict = {}
    units: dict = {}
    reason = ""
    try:
        with time_budget(left):
            _require_real(where, expr)
            refuse_zero_divisors(divisors)  # what the text divides by, before SymPy cancelled it: nonzero everywhere
            ctx = _Context(expr, prefix, name, tex, tries, proves=layer_proves)
            for key in SYMMETRIES:
                findings[key] = _decide(key, ctx, units)
    except OutOfTime as exc:
        if exc.outer:
            raise
        reason = f"out of time after {budget:.3g} s"
    if every_size and findings:  # the lifts get a budget of their own: a decision is never cut short by them
        try:
            with time_budget(budget):
                for f in findings.values():
                    f.every_size = _lift(f, ctx, proves)
        except OutOfTime as exc:
            if exc.outer:
                raise
    results = [findings.get(key) or _undecided(key, ctx, units.get(key), reason, key in expected)
               for key in SYMMETRIES]
    for f in results:
        want = expected.get(f.symmetry)
        if want is not None:
            for c in (f.unit, f.layer):
                c.expect = want
                c._settle(want)
            if every_size and want is not Verdict.UNPROVEN:  # kept or broken at every size: a proved chain
                if f.every_size is None:
                    raise ExpectationError(f"classify {name}: {f.symmetry} expected {want.value} at every size, but it "
                                           f"was not lifted ({f.reason or 'out of time, or a witness not exact'})")
                f.every_size.expect = Verdict.PROVED
                f.every_size._settle(Verdict.PROVED)
    return Classification(expr, name, label or name, results, time.perf_counter() - start)


def _lift(finding, ctx, proves):
    """The finding at every size: kept (from the unit identity) or broken (at the unit's witness); None when it is
    undecided or its witness is not exact rationals."""
    ident = f"{ctx.prefix}.{ctx.name}.{finding.symmetry}.every_size"
    if finding.verdict is Verdict.PROVED and finding.unit is not None and finding.unit.verdict is Verdict.PROVED:
        return _sizes.kept(ident, finding.symmetry, ctx.s, finding.unit, prefix=ctx.prefix, proves=proves)
    if finding.verdict is Verdict.REFUTED and finding.unit is not None and finding.unit.verdict is Verdict.REFUTED:
        values = _exact_values(finding.unit)
        if not all(isinstance(v, sp.Rational) for v in values.values()):
            return None
        return _sizes.broken(ident, finding.symmetry, ctx.s, values, proves=proves, uses=[finding.unit.identifier])
    return None


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
