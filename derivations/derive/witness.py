"""Exact witnesses: substitute exact values (respecting the symbols' assumptions) and certify the residual.

Also the seeded numeric check, which samples exact rational points too: agreement there is evidence only, but a
disagreement is handed to the certifier and becomes a refutation.
"""
from __future__ import annotations

import random
import zlib
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp
from sympy.core.function import AppliedUndef, UndefinedFunction

from .certify import Certificate, certify_nonzero

__all__ = [
    "Found", "exact_value", "instance_problem", "components", "undefined_functions", "evaluate_at", "search", "sample",
]

#: the small signed rationals tried first, in order
POOL = tuple(
    sp.Rational(v)
    for v in ("1", "-1", "2", "-2", "1/2", "-1/2", "3", "-3", "0", "1/3", "-2/3", "3/2", "-5/2", "4", "-4")
)
_PROPERTIES = ("positive", "negative", "nonnegative", "nonpositive", "nonzero", "zero", "integer", "real")


@dataclass(frozen=True)
class Found:
    """A witness and the certificate of the residual at one component."""

    witness: dict
    component: tuple[int, int] | None
    residual: sp.Expr
    certificate: Certificate


def exact_value(where: str, symbol, value):
    """Check one witness value: exact, and respecting ``symbol``'s assumptions; return it as a SymPy number."""
    if isinstance(value, bool) or isinstance(value, float) or isinstance(value, sp.Float):
        raise TypeError(f"{where}: witness value for {symbol} must be exact (int, Fraction, Rational), got {value!r}")
    if isinstance(value, Fraction):
        value = sp.Rational(value.numerator, value.denominator)
    elif isinstance(value, int):
        value = sp.Integer(value)
    if not isinstance(value, sp.Expr) or not value.is_number:
        raise TypeError(f"{where}: witness value for {symbol} must be an exact number, got {type(value).__name__}")
    if value.has(sp.Float):
        raise TypeError(f"{where}: witness value for {symbol} must be exact, got {value}")
    if isinstance(symbol, sp.Symbol):
        prop = _broken_assumption(symbol, value)
        if prop is not None:
            raise ValueError(f"{where}: witness {symbol} = {value} breaks the assumption that {symbol} is {prop}")
    return value


def _broken_assumption(symbol, value) -> str | None:
    """The first of *all* the symbol's assumptions (``positive``, ``not odd``, ``irrational`` ...) that ``value``
    is not known to meet, or ``None``: a value outside the symbol's domain is no witness and no instance."""
    facts = symbol.assumptions0
    ordered = [p for p in _PROPERTIES if p in facts] + sorted(p for p in facts if p not in _PROPERTIES)
    for prop in ordered:
        if getattr(value, f"is_{prop}", None) is not facts[prop]:
            return prop if facts[prop] else f"not {prop}"
    return None


def instance_problem(key, value) -> str | None:
    """Why putting ``value`` for ``key`` does not give an instance of a statement proved for every ``key``; ``None`` if it does.

    ``key`` must be a variable: a symbol, whose every assumption (positive, nonzero, real ...) ``value`` must be
    known to meet, or an undefined function such as the generic σ. Defined functions (``exp``, ``Max``) and
    compound expressions are not variables: replacing them does not preserve truth.

    >>> import sympy as sp
    >>> from derive.witness import instance_problem
    >>> alpha = sp.Symbol("alpha", positive=True)
    >>> instance_problem(alpha, 2) is None
    True
    >>> instance_problem(alpha, -1)
    'alpha := -1 breaks the assumption that alpha is positive'
    >>> instance_problem(sp.exp, sp.Lambda(alpha, alpha))
    'exp is not a variable (a symbol or an undefined function such as sigma)'
    """
    if isinstance(key, sp.Symbol):
        value = sp.sympify(value)
        prop = _broken_assumption(key, value)
        return None if prop is None else f"{key} := {sp.sstr(value)} breaks the assumption that {key} is {prop}"
    if isinstance(key, UndefinedFunction):
        return None
    return f"{getattr(key, '__name__', key)} is not a variable (a symbol or an undefined function such as sigma)"


def components(diff):
    """The scalar components of a difference: ``[((i, j), e), ...]`` for a matrix, ``[(None, e)]`` for a scalar."""
    if isinstance(diff, sp.MatrixBase):
        return [((i, j), diff[i, j]) for i in range(diff.rows) for j in range(diff.cols)]
    return [(None, diff)]


def undefined_functions(expr) -> list:
    """The undefined function classes (such as the generic σ) in ``expr``, sorted by name."""
    return sorted({a.func for a in expr.atoms(AppliedUndef)}, key=lambda f: f.__name__)


def evaluate_at(expr, witness: dict):
    """Substitute a witness or an instance, all at once: symbols by values, undefined functions by ``Lambda`` objects."""
    funcs = {k: v for k, v in witness.items() if not isinstance(k, sp.Symbol)}
    values = {k: v for k, v in witness.items() if isinstance(k, sp.Symbol)}
    for f, lam in funcs.items():
        expr = expr.replace(f, lam)
    return expr.xreplace(values)


def _respects(cond_list, witness) -> bool:
    for cond in cond_list:
        if evaluate_at(cond, witness) is not sp.true:
            return False
    return True


def _certify_at(comps, witness) -> Found | None:
    for index, comp in comps:
        residual = evaluate_at(comp, witness)
        if residual == 0:
            continue
        if residual.free_symbols:
            raise ValueError(
                "witness leaves free symbols: " + ", ".join(sorted(map(str, residual.free_symbols)))
            )
        cert = certify_nonzero(residual)
        if cert is not None:
            return Found(dict(witness), index, residual, cert)
    return None


def _allowed(symbol):
    out = []
    for v in POOL:
        try:
            exact_value("", symbol, v)
        except ValueError:
            continue
        out.append(v)
    return out


def _rng(seed_text: str) -> random.Random:
    return random.Random(zlib.crc32(seed_text.encode()))


def search(diff, symbols, assume=(), fixed=None, tries: int = 300, seed_text: str = "") -> Found | None:
    """Search small signed rationals for a witness at which some component of ``diff`` is certified nonzero.

    ``fixed`` holds values (or function instances) given by the caller and kept in every candidate. The
    search is deterministic: structured candidates first (all ones, alternating signs), then seeded random ones.
    """
    fixed = dict(fixed or {})
    comps = components(diff)
    free = [s for s in symbols if s not in fixed]
    pools = {s: _allowed(s) for s in free}
    empty = [str(s) for s, pool in pools.items() if not pool]
    if empty:
        raise ValueError(f"no candidate value respects the assumptions on {', '.join(empty)}")
    rng = _rng(seed_text)
    seen = set()

    def candidates():
        yield {s: pools[s][0] for s in free}
        yield {s: pools[s][k % min(2, len(pools[s]))] for k, s in enumerate(free)}
        yield {s: pools[s][(k + 1) % min(2, len(pools[s]))] for k, s in enumerate(free)}
        for n in range(tries):
            width = 2 + min(n // 10, len(POOL))
            yield {s: rng.choice(pools[s][:width]) for s in free}

    for values in candidates():
        key = tuple(values[s] for s in free)
        if key in seen:
            continue
        seen.add(key)
        witness = {**fixed, **values}
        if not _respects(assume, witness):
            continue
        found = _certify_at(comps, witness)
        if found is not None:
            return found
    return None


def certify_witness(diff, witness: dict, assume=()) -> Found | None:
    """Certify ``diff`` nonzero at one given witness (after checking it respects ``assume``)."""
    if not _respects(assume, witness):
        raise ValueError("witness does not satisfy the claim's assumptions")
    return _certify_at(components(diff), witness)


#: test functions standing in for an undefined σ in numeric checks
TEST_FUNCTIONS = (
    lambda t: sp.sin(t) + t**2 / 3,
    lambda t: sp.exp(t / 2) - sp.Rational(1, 3),
    lambda t: sp.tanh(t) * (1 + t),
)


def sample(diff, symbols, funcs, points: int, seed_text: str, assume=()):
    """Evaluate ``diff`` at seeded exact rational points; return ``(max_abs, n_points, disagreement)``.

    ``disagreement`` is a :class:`Found` when some point gives a certified nonzero residual.
    """
    rng = _rng("check:" + seed_text)
    comps = components(diff)
    pools = {s: _allowed(s) for s in symbols}
    worst = 0.0
    used = 0
    for n in range(points * 4):
        if used >= points:
            break
        witness = {}
        for s in symbols:
            v = sp.Rational(rng.randint(-40, 40), rng.randint(1, 12))
            try:
                witness[s] = exact_value("", s, v)
            except ValueError:
                witness[s] = rng.choice(pools[s])
        for k, f in enumerate(funcs):
            t = sp.Dummy("t")
            witness[f] = sp.Lambda(t, TEST_FUNCTIONS[(n + k) % len(TEST_FUNCTIONS)](t))
        if not _respects(assume, witness):
            continue
        used += 1
        for _, comp in comps:
            value = evaluate_at(comp, witness)
            magnitude = abs(complex(sp.N(value, 30)))
            if magnitude > 1e-20:
                found = _certify_at([(None, comp)], witness) if not value.free_symbols else None
                if found is not None:
                    return magnitude, used, found
            worst = max(worst, magnitude)
    return worst, used, None
