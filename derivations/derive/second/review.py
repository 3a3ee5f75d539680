"""Re-checking a verdict with Z3: a proof (``unsat`` of ``lhs ≠ rhs``), a refutation (the residual at the exact
witness is nonzero, in Z3's rationals), a chain step (an implication, its premise a quantified hypothesis).

Each re-check gives an :class:`Opinion`: ``agrees``, ``outside fragment`` (and what put it there), ``unknown``
(Z3's resource limit, or an incomplete answer) or ``disagrees``, which the caller turns into a
:class:`derive.kernel.verdict.SoundnessError`. Claims about matrix symbols of symbolic size are re-checked at every
size from the smallest the assumptions allow (0, the empty matrix, when a size may be 0) up to
:data:`MAX_SIZE`, and say which. The limit is Z3's deterministic resource limit (``rlimit``), so the
same claim gets the same opinion on a busy machine (Z3's simplifier has a step limit, ``MAX_STEPS``), with a
wall-clock ``timeout`` behind it as a safety net, never longer than what is left of the claim's budget
(:func:`.translate.within`): an opinion cut short by the time is ``unknown`` (``out of time``), and not kept.
"""
from __future__ import annotations

import functools
import inspect
import itertools
import time
from dataclasses import dataclass, field

import sympy as sp
import z3
from sympy.matrices.expressions import MatrixExpr

from . import cvc5 as _cvc5
from .translate import (TIMEOUT_MS, TRANSCENDENTAL, Outside, Translator, Unknown, _time_text, cancel_in_formula,
                        complex_inputs, simplify, size_symbols, time_left_ms)

__all__ = ["ENGINE", "ENGINES", "Opinion", "identity", "refutation", "step", "combine", "MAX_SIZE", "RLIMIT", "TIMEOUT_MS"]

ENGINE = f"z3 {z3.get_version_string()}"
#: Z3's resource limit per query (deterministic, unlike time)
RLIMIT = 100000
#: wall-clock limit per query, in milliseconds: a safety net behind the resource limit
TIMEOUT_MS = 10000
#: the same with transcendental functions read as uninterpreted: Z3 then decides by congruence at once (every
#: decided query of the suite took under 0.2 s) or not at all, while its nonlinear procedure on the rest may run
#: past the resource limit (a SiLU chain of B3 spent 7-25 s before its time ran out)
ABSTRACT_MS = 2000
#: how long a query runs in the context the queries share before it is asked again in a context of its own (every
#: query of the suite takes under 0.2 s there; one of the tests' ran 10 s without spending its resource limit, where
#: a context of its own answers in 0.3 s)
SHARED_MS = 2000
#: every-size claims are re-checked at each size of each size symbol from the smallest its assumptions allow (0
#: when it may be 0) up to MAX_SIZE (fewer when there are many)
MAX_SIZE = 2
#: at most this many size combinations per every-size claim
MAX_COMBINATIONS = 8
#: at most this many of a re-check's queries are kept as SMT-LIB scripts (:meth:`Opinion.smtlib`)
MAX_SCRIPTS = 64


@dataclass(frozen=True)
class Opinion:
    """Z3's opinion of one verdict. ``about`` is the verdict it re-checked (``proved`` or ``refuted``)."""

    result: str  # agrees | outside fragment | unknown | disagrees
    why: str
    seconds: float
    about: str
    #: the engines that answered (Z3's, cvc5's, or both: "z3 … + cvc5 …")
    engine: str = ENGINE
    #: the confirmed queries (see :meth:`smtlib`): not kept in the record
    scripts: tuple = field(default=(), repr=False, compare=False)

    def smtlib(self, limit: int | None = None) -> list:
        """The confirmed queries (the first ``limit``) as ``(script, engine)``: standalone SMT-LIB 2.6 scripts,
        ``; expect:`` first. Z3's queries are written as translated, before Z3's own simplifier ran on them (one
        decided with each application of a function read as a real of its own: as decided, after it)."""
        return [_script_of(x) for x in self.scripts[:limit]]

    def script_engines(self) -> list[str]:
        """The engine of each confirmed query, in order, without writing any as a script."""
        return [x[1] for x in self.scripts]

    def script(self, k: int) -> tuple:
        """The ``k``-th confirmed query (from 0) as ``(script, engine)``, as :meth:`smtlib` writes it."""
        return _script_of(self.scripts[k])

    def record(self, timings: bool = False) -> dict:
        out = {"engine": self.engine, "result": self.result, "why": self.why}
        if timings:
            out["seconds"] = round(self.seconds, 4)
        return out


_Unknown = Unknown


class _Disagrees(Exception):
    pass


def _limit_text(reason: str, ms: int = TIMEOUT_MS) -> str:
    if ms < TIMEOUT_MS and any(w in reason for w in ("canceled", "timeout")):
        return _time_text(ms)
    if any(w in reason for w in ("canceled", "timeout", "resource", "rlimit", "max. resource")):
        return f"Z3's limit ({RLIMIT:,} resource units) ran out"
    return f"Z3 gave up ({reason})"


def _prepare(formula, inverses=None):
    """Z3's own normal form of polynomials (sum of monomials): equal arguments of σ become the same term.

    With ``inverses`` (only where the claim's definedness is asserted), a symbol times its reciprocal cancels.
    """
    out = simplify(formula, som=True)
    if inverses:
        out = simplify(cancel_in_formula(out, inverses), som=True)
    return out


#: the engines asked during the re-check under way, and the scripts of its queries, with their answers
_USED: list = []
_SCRIPTS: list = []
_PURE: list = []  # a query settled only with each application of a function read as a real of its own


def _cvc5_queries(t: Translator, facts, goals):
    """For each goal, cvc5's answer to ``facts ∧ goal`` (the translator writes transcendental functions natively)."""
    if not _cvc5.AVAILABLE:
        raise Outside("a transcendental function that only cvc5 reads, and cvc5 is not installed here")
    for g in goals:
        body = t.script(list(facts) + [g])
        answer = _cvc5.check(body, time_left_ms())
        _USED.append(_cvc5.ENGINE)
        if answer not in ("sat", "unsat"):  # only the two answers decide anything
            raise _Unknown("cvc5 gave up or ran out of its limit")
        if len(_SCRIPTS) < MAX_SCRIPTS:
            _SCRIPTS.append((_cvc5.script(body, "ALL", answer), _cvc5.ENGINE))
        yield z3.unsat if answer == "unsat" else z3.sat


def _queries(t: Translator, facts, goals, inverses=None):
    """For each goal, Z3's answer to ``facts ∧ goal``, from a fresh solver each (yields as it goes).

    A fresh, non-incremental solver per query: Z3 then preprocesses the whole problem and may hand it to its
    complete procedure for nonlinear real arithmetic, which ``push``/``pop`` would rule out.
    """
    if t.native:
        yield from _cvc5_queries(t, facts, goals)
        return
    parsed = t.parse(list(facts) + list(goals))
    prepared = [_prepare(f) for f in parsed[:len(facts)]]
    if not any("(forall " in f or "(exists " in f for f in facts):  # kept for :func:`_facts_can_hold`
        t.asked.append((frozenset(facts), prepared))
    for asked in parsed[len(facts):]:
        g = _prepare(asked, inverses)
        if z3.is_false(g):  # Z3's own simplifier already reduced the goal to false
            result = z3.unsat
        elif z3.is_true(g) and all(z3.is_true(f) for f in prepared):  # ground, and true: satisfiable as it stands
            result = z3.sat
        else:
            ms = min(time_left_ms(), ABSTRACT_MS) if t.abstract else time_left_ms()
            started, shared = time.monotonic(), min(ms, SHARED_MS)
            result, s = _check(prepared + [g], shared)
            spent = int((time.monotonic() - started) * 1000)
            stuck = shared < ms and shared - 1 <= spent < ms  # stopped by the shared context's time, with time left
            if result == z3.unknown and ("incomplete" in s.reason_unknown() or stuck):
                # Z3's heuristics depend on every term its context has seen: asked in a context of its own, the
                # same query gets the answer it gets in a fresh process (with what is left of its time)
                own = _in_own_context(prepared + [g])
                result, s = _check(own, ms - spent if stuck else ms, own[0].ctx)
            _USED.append(ENGINE)
            if result == z3.unknown:
                # (in a context of its own too: the terms it makes would change how Z3 answers later queries here)
                pure = _purified(_in_own_context(prepared + [g]))
                left = max(1, ms - int((time.monotonic() - started) * 1000))
                if pure is not None and _check(pure, left, pure[0].ctx)[0] == z3.unsat:
                    _PURE.append(True)  # weaker than the query, and unsatisfiable: so is the query
                    if len(_SCRIPTS) < MAX_SCRIPTS:
                        _SCRIPTS.append((tuple(pure), ENGINE, "unsat"))
                    yield z3.unsat
                    continue
                raise _Unknown(_limit_text(s.reason_unknown(), ms))
        if len(_SCRIPTS) < MAX_SCRIPTS:  # the query as translated, before Z3's own simplifier
            _SCRIPTS.append((tuple(parsed[:len(facts)]) + (asked,), ENGINE, str(result)))
        yield result


#: what finding the facts of a confirmation contradictory may spend: Z3's resource units, cvc5's (where the facts
#: hold exp and the like: a contradiction its rewriting finds, such as exp a − exp a ≠ 0 or exp a < 0, takes a few
#: hundred; facts it cannot settle reach its time limit past 100,000), and milliseconds
FACTS_RLIMIT, FACTS_CVC5_RLIMIT, FACTS_MS = 20000, 20000, 500


def _facts_can_hold(t: Translator, assume=(), pairs=()) -> None:
    """Raise *unknown* when the facts the translation added (what a function's values are, and the definedness
    facts) contradict the symbols' domains and ``assume``, which do not contradict each other: under them every
    query is ``unsat``, which would confirm anything (a divisor the kernel took for nonzero that is 0 gives the fact
    ``0 ≠ 0``). A statement whose own assumptions cannot hold (``i ≠ l`` for two indices up to r = 1) is true of no
    values, and so confirmed. Asked within a small limit: only a contradiction found there counts (a ground one is
    found by Z3's simplifier at once); where the engine cannot tell, the facts are taken as they are."""
    given = t.domain + [t.boolean(c) for c in assume]
    added = t.side + t.defined
    if t.abstracted and not t.native:  # read with exp as any function: the facts of the real exp are cvc5's to read
        _native_facts_hold(t, pairs, assume)
    if not added or _hold_with_more(t, set(given + added)):
        return
    if _contradictory(t, given + added) and not _contradictory(t, given):
        raise _Unknown(_CONTRADICT)


_CONTRADICT = ("the definedness facts contradict the domains and assumptions, so an unsat query under them confirms "
               "nothing")


def _native_facts_hold(t: Translator, pairs, assume) -> None:
    """:func:`_facts_can_hold` for a translation that read transcendental functions as uninterpreted, where they
    count: the equations ``pairs`` translated again with cvc5's real exp, sine and cosine (``exp 0 − 1 ≠ 0`` holds
    of some function, never of exp). Nothing is said where cvc5 cannot be asked or cannot read them."""
    if not pairs or not _cvc5.AVAILABLE:
        return
    n = Translator(complex_mode=t.complex_mode, sizes=t.sizes, native=_cvc5.FUNCTIONS)
    try:
        for lhs, rhs in pairs:
            _components(n, lhs, rhs)
        given = n.domain + [n.boolean(c) for c in assume]
    except (Outside, _Disagrees, TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError):
        return
    added = n.side + n.defined
    if added and _contradictory(n, given + added) and not _contradictory(n, given):
        raise _Unknown(_CONTRADICT)


def _hold_with_more(t: Translator, facts: set) -> bool:
    """Whether Z3 finds a model, within :data:`FACTS_RLIMIT` and :data:`FACTS_MS`, of facts already parsed for one of
    ``t``'s queries that include all of ``facts``: then ``facts`` can hold together (a model of more facts is one of
    theirs). Anything else settles nothing."""
    if t.abstracted:  # (a model with exp as any function says nothing of exp)
        return False
    for texts, prepared in sorted(t.asked, key=lambda pair: len(pair[0])):
        if not facts <= texts or any(z3.is_false(f) for f in prepared):
            continue
        ms = max(1, min(time_left_ms(), FACTS_MS))
        s = z3.Solver(ctx=prepared[0].ctx)
        s.set("rlimit", FACTS_RLIMIT)
        s.set("timeout", ms)
        s.add(*prepared)
        return s.check() == z3.sat
    return False


def _contradictory(t: Translator, facts) -> bool:
    """Whether the engine finds ``facts`` unsatisfiable within :data:`FACTS_RLIMIT` and :data:`FACTS_MS`."""
    if not facts:
        return False
    ms = max(1, min(time_left_ms(), FACTS_MS))
    if t.native:
        return _cvc5.AVAILABLE and _cvc5.check(t.script(facts), ms, rlimit=FACTS_CVC5_RLIMIT) == "unsat"
    prepared = [_prepare(f) for f in t.parse(list(facts))]
    if any(z3.is_false(f) for f in prepared):
        return True
    s = z3.Solver(ctx=prepared[0].ctx)
    s.set("rlimit", FACTS_RLIMIT)
    s.set("timeout", ms)
    s.add(*prepared)
    return s.check() == z3.unsat


def _in_own_context(formulas) -> list:
    """``formulas`` translated into a Z3 context of their own."""
    own = z3.Context()
    return [f.translate(own) for f in formulas]


def _purified(formulas):
    """``formulas`` with every application of an uninterpreted function (σ, or exp, sin … read as uninterpreted)
    read as a real of its own, the same application as the same real, innermost first; ``None`` when there is none,
    or when a formula has a quantifier (a real cannot stand for ``σ(x)`` of a bound ``x``).

    The result is weaker (a model of the formulas gives each real its application's value), so its ``unsat`` is
    theirs; and without functions, Z3 may hand it to its complete procedure for nonlinear real arithmetic (``sin² +
    cos² = 1``, asserted beside the applications, then decides ``z(sin² z + cos² z) = z``). Its ``sat`` says
    nothing.
    """
    out, named = list(formulas), {}
    for _ in range(16):  # one round per level of nesting
        apps: dict = {}
        todo, seen = list(out), set()
        while todo:
            e = todo.pop()
            if e.get_id() in seen:
                continue
            seen.add(e.get_id())
            if z3.is_quantifier(e) or z3.is_var(e):
                return None
            if not z3.is_app(e):
                continue
            if e.num_args() > 0 and e.decl().kind() == z3.Z3_OP_UNINTERPRETED:
                apps[e.get_id()] = e
            todo.extend(e.children())
        if not apps:
            return out if named else None
        pairs = []
        for e in apps.values():  # (each application kept here, so that Z3 never gives its id to another term)
            if e.get_id() not in named:
                named[e.get_id()] = (e, z3.Const(f"{e.decl().name()}@{len(named)}", e.sort()))
            pairs.append((e, named[e.get_id()][1]))
        out = [z3.substitute(f, *pairs) for f in out]
    return None


def _check(formulas, ms: int, ctx=None):
    """Z3's answer to the conjunction of ``formulas`` from a fresh solver (in ``ctx``), within its resource limit
    and ``ms``; and the solver."""
    s = z3.Solver(ctx=ctx)
    s.set("rlimit", RLIMIT)
    s.set("timeout", ms)
    s.add(*formulas)
    return s.check(), s


def _nonzero(pair) -> str:
    re, im = pair
    return f"(not (= {re} 0.0))" if im is None else f"(or (not (= {re} 0.0)) (not (= {im} 0.0)))"


def _is_zero(pair) -> str:
    re, im = pair
    return f"(= {re} 0.0)" if im is None else f"(and (= {re} 0.0) (= {im} 0.0))"


def _difference(a, b):
    (ar, ai), (br, bi) = a, b
    im = None if ai is None and bi is None else f"(- {ai or '0.0'} {bi or '0.0'})"
    return (f"(- {ar} {br})", im)


def _entries(t: Translator, side) -> tuple:
    """The shape and the scalar entries of one side, row-major (a scalar is one entry, of shape ``None``)."""
    if isinstance(side, (sp.MatrixBase, MatrixExpr)):
        rows = t.matrix(side)
        return (len(rows), len(rows[0]) if rows else 0), [x for row in rows for x in row]
    return None, [t.scalar(side)]


def _components(t: Translator, lhs, rhs) -> list:
    (ls, left), (rs, right) = _entries(t, lhs), _entries(t, rhs)
    if ls != rs:
        raise _Disagrees(f"the two sides have different shapes, {ls} and {rs}")
    return [_difference(a, b) for a, b in zip(left, right)]


def _and(formulas) -> str:
    formulas = list(formulas)
    return "true" if not formulas else formulas[0] if len(formulas) == 1 else "(and " + " ".join(formulas) + ")"


def _identity_at(lhs, rhs, assume, sizes, abstract=False) -> int:
    """Every component of ``lhs - rhs`` is zero where defined (raises on anything else); returns their number.

    With ``abstract``, transcendental functions are uninterpreted: ``unsat`` is still a proof (for every function
    in their place), but a model is no counterexample: the caller does not let it *disagree*.
    """
    native = abstract if isinstance(abstract, dict) else None
    abstract = abstract is True
    t = Translator(complex_mode=complex_inputs(lhs, rhs, *assume), sizes=sizes, abstract=abstract, defer=True,
                   native=native)
    comps = _components(t, lhs, rhs)
    facts = t.domain + t.side + t.defined + [t.boolean(c) for c in assume]
    for k, result in enumerate(_queries(t, facts, [_nonzero(c) for c in comps], t.inverses)):
        if result == z3.sat:
            where = f" at component {k + 1} of {len(comps)}" if len(comps) > 1 else ""
            raise _Disagrees(f"Z3 finds values at which lhs - rhs is not zero{where}")
    _facts_can_hold(t, assume, [(lhs, rhs)])
    return len(comps)


def _smallest(symbol) -> int:
    """The smallest size a size symbol's own assumptions allow: 1 for a positive one, else 0 (the empty matrix).
    A symbol that may be negative (a sum's limit ``n`` declared only an integer) is no size: read at 0, 1, 2 … its
    negative values would go unread, so the re-check is outside."""
    if symbol.is_nonnegative is not True:
        raise Outside(f"a size or a sum's limit {symbol} that may be negative")
    return 1 if symbol.is_positive else 0


#: what an integer's assumptions may say of it beyond its sign
_PARITY = ("even", "odd", "prime", "composite", "zero", "nonzero")


def _allowed(symbol, value: int) -> bool:
    """Whether ``value`` meets what ``symbol`` is declared (even, odd, prime …): an even ``e`` is not read at 1."""
    facts = symbol.assumptions0
    number = sp.Integer(value)
    return all(getattr(number, f"is_{k}") == facts[k] for k in _PARITY if facts.get(k) is not None)


def _size_grid(symbols, exprs=(), assume=()):
    """The sizes an every-size claim is re-checked at: each size symbol from the smallest its assumptions allow
    (0 when it may be 0) up to :data:`MAX_SIZE` (less when there are many), where every shape of ``exprs`` is a
    size (not negative) and no condition of ``assume`` is false. Returns the grid and the text that says it."""
    lows = [_smallest(s) for s in symbols]
    k = MAX_SIZE
    while k > 1 and _count(lows, k) > MAX_COMBINATIONS:
        k -= 1
    dims = {sp.sympify(d) for e in exprs if isinstance(e, sp.Basic) for node in sp.preorder_traversal(e)
            if isinstance(node, MatrixExpr) and not isinstance(node, sp.MatrixBase) for d in node.shape}
    grid = []
    for values in itertools.product(*[range(lo, max(lo, k) + 1) for lo in lows]):
        at = dict(zip(symbols, map(sp.Integer, values)))
        if any((d.xreplace(at) < 0) is sp.true for d in dims) or any(c.xreplace(at) is sp.false for c in assume):
            continue
        if not all(_allowed(s, v) for s, v in zip(symbols, values)):
            continue
        grid.append(at)
    if not grid:
        raise Outside(f"no size up to {k} that the assumptions allow")
    seen: dict = {}
    for s in symbols:
        values = sorted({int(at[s]) for at in grid})
        shown = f"≤ {values[-1]}" if values == list(range(1, values[-1] + 1)) else "= " + ", ".join(map(str, values))
        seen.setdefault(shown, []).append(str(s))
    return grid, "for " + "; ".join(f"{', '.join(names)} {shown}" for shown, names in seen.items())


def _count(lows, k) -> int:
    out = 1
    for lo in lows:
        out *= max(lo, k) - lo + 1
    return out


#: the engines :func:`identity` may be kept to: both (Z3 first, cvc5 where Z3 is outside), or one alone
ENGINES = (None, "z3", "cvc5")


def _identity(lhs, rhs, assume, engine=None) -> str:
    if engine == "cvc5":
        return _identity_sized(lhs, rhs, assume, _cvc5.FUNCTIONS) + " (cvc5 alone)"
    try:
        return _identity_sized(lhs, rhs, assume, False)
    except Outside as exc:
        if not str(exc).startswith(("a transcendental function", "the constant")):
            raise
        try:
            why = _identity_sized(lhs, rhs, assume, True)
        except (Outside, _Unknown, _Disagrees, z3.Z3Exception):
            if engine == "z3":
                raise exc from None
        else:
            return why + " with " + why_abstract(lhs, rhs) + " uninterpreted"
        del _SCRIPTS[:]
        try:
            why = _identity_sized(lhs, rhs, assume, _cvc5.FUNCTIONS)
        except Outside:
            raise exc from None
        return why + " (cvc5, " + why_abstract(lhs, rhs) + " as real functions)"


def why_abstract(*exprs) -> str:
    """The transcendental functions and constants in ``exprs``, by name (what an abstraction left uninterpreted)."""
    names = set()
    for e in exprs:
        for node in sp.preorder_traversal(e) if isinstance(e, sp.Basic) else ():
            if isinstance(node, sp.NumberSymbol):
                names.add(str(node))
            elif isinstance(node, sp.Function) and node.func.__name__ in TRANSCENDENTAL:
                names.add(node.func.__name__)
    return ", ".join(sorted(names))


def _identity_sized(lhs, rhs, assume, abstract) -> str:
    sizes = size_symbols(lhs, rhs)
    if not sizes:
        n = _identity_at(lhs, rhs, assume, {}, abstract)
        return f"unsat of lhs ≠ rhs ({n} component{'s' if n != 1 else ''})"
    grid, why = _size_grid(sizes, (lhs, rhs), assume)
    real = False
    for at in grid:
        try:
            _identity_at(lhs, rhs, assume, at, abstract)
        except Outside as exc:  # read as complex matrices, a max or a comparison is outside: read them as the
            if "complex quantity" not in str(exc):  # real matrices they stand for, entry by entry
                raise
            side = lambda e: _explicit_at(e, at)  # noqa: E731
            l_at, r_at = side(lhs), side(rhs)
            if size_symbols(l_at, r_at) or complex_inputs(l_at, r_at):
                raise
            _identity_at(l_at, r_at, tuple(_condition_at(c, side) for c in assume), {}, abstract)
            real = True
    return why + (" (matrix symbols as the real matrices they stand for, entry by entry)" if real else "")


#: opinions already given in this process, by their question (a notebook states many claims twice: a claim
#: and its instance, a step and the claim it uses): the same question gets the same answer, at no cost
_MEMO: dict = {}
_MEMO_SIZE = 4096


def _hashable(x):
    if isinstance(x, sp.MatrixBase):
        return sp.ImmutableMatrix(x)
    if isinstance(x, dict):
        return tuple(sorted(((_hashable(k), _hashable(v)) for k, v in x.items()), key=str))
    if isinstance(x, (list, tuple)):
        return tuple(_hashable(v) for v in x)
    return x


def _memo(key, about, fn) -> Opinion:
    """:func:`_timed` once per distinct question ``key`` (with the limits it was asked under)."""
    try:
        key = (_hashable(key), RLIMIT, MAX_SIZE, MAX_COMBINATIONS, TIMEOUT_MS)
        hash(key)
    except TypeError:
        return _timed(about, fn)
    start = time.perf_counter()
    hit = _MEMO.get(key)
    if hit is not None:
        return Opinion(hit.result, hit.why, time.perf_counter() - start, about, hit.engine, hit.scripts)
    out = _timed(about, fn)
    if out.why.startswith(("out of time", "Z3's time limit", "cvc5")):  # the time left decided it: not kept
        return out
    if len(_MEMO) >= _MEMO_SIZE:
        _MEMO.clear()
    _MEMO[key] = out
    return out


def _timed(about, fn) -> Opinion:
    start = time.perf_counter()
    del _USED[:], _SCRIPTS[:], _PURE[:]
    try:
        result, why = "agrees", fn()
    except Outside as exc:
        result, why = "outside fragment", str(exc)
    except _Unknown as exc:
        result, why = "unknown", str(exc)
    except _Disagrees as exc:
        result, why = "disagrees", str(exc)
    except z3.Z3Exception as exc:
        result, why = "unknown", f"Z3 error: {str(exc)[:80]}"
    except (RecursionError, TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
        # a translation this module does not handle: shown on the record, never taken for agreement
        said = "too deeply nested" if isinstance(exc, RecursionError) else str(exc)[:60]  # (a recursion's message
        result, why = "unknown", f"not translated ({type(exc).__name__}: {said})"  # says where it hit: not stable)
    engines = sorted(set(_USED), key=lambda e: e != ENGINE) or [ENGINE]
    scripts = tuple(_SCRIPTS) if result == "agrees" else ()
    if result == "agrees" and _PURE:
        why += " (where Z3 could not decide otherwise, each application of a function read as a real of its own)"
    del _USED[:], _SCRIPTS[:], _PURE[:]
    return Opinion(result, why, time.perf_counter() - start, about, " + ".join(engines), scripts)


def _benchmark(formulas) -> str:
    """Z3's SMT-LIB text of the conjunction of ``formulas``, as ``Solver.to_smt2`` writes it, without asserting
    them in a solver first (a solver checks each assertion as it is added: 15,000 of them in a notebook's table)."""
    formulas = list(formulas) or [z3.BoolVal(True)]
    ctx = formulas[0].ctx
    head = (z3.Ast * (len(formulas) - 1))(*(f.as_ast() for f in formulas[:-1]))
    return z3.Z3_benchmark_to_smtlib_string(ctx.ref(), "benchmark generated from python API", "", "unknown", "",
                                            len(formulas) - 1, head, formulas[-1].as_ast())


def _script_of(entry) -> tuple:
    """``(script, engine)``: a query as a standalone SMT-LIB 2.6 script, its expected answer on the first line."""
    if len(entry) == 2:
        return entry
    formulas, engine, answer = entry
    body = "\n".join(line for line in _benchmark(formulas).splitlines()
                     if not line.startswith(("(check-sat)", "; benchmark", "(set-info")))
    return (f"; expect: {answer}\n(set-logic ALL)\n{body.strip()}\n(check-sat)\n", engine)


def identity(lhs, rhs, assume=(), engine=None) -> Opinion:
    """Re-check a proved ``lhs = rhs``: ``unsat`` of ``lhs ≠ rhs`` under the domains and ``assume``, per component.

    Matrix symbols of symbolic size are re-checked at each size up to :data:`MAX_SIZE` (``why`` says which). A
    claim with transcendental functions may still agree when it holds with them uninterpreted (``why`` says so),
    else cvc5 reads them as the real functions. ``engine`` (one of :data:`ENGINES`) keeps the re-check to Z3
    alone (``"z3"``) or to cvc5 alone (``"cvc5"``, every query), to measure each.

    >>> import sympy as sp
    >>> a, b = sp.symbols("a b", real=True)
    >>> identity(sp.Max(0, 2 * a), 2 * sp.Max(0, a)).result
    'agrees'
    >>> identity(sp.Max(0, a), a).result
    'disagrees'
    >>> identity(sp.erf(a), sp.erf(a) + b).why
    'a transcendental function (erf)'
    >>> identity(sp.erf(a) * b, b * sp.erf(a)).why
    'unsat of lhs ≠ rhs (1 component) with erf uninterpreted'
    >>> identity(sp.Max(0, 2 * a), 2 * sp.Max(0, a), engine="cvc5").engine.startswith("cvc5")
    True
    """
    if engine not in ENGINES:
        raise ValueError(f"identity: engine must be one of {ENGINES}, got {engine!r}")
    lhs, rhs = (side if isinstance(side, (sp.Basic, sp.MatrixBase)) else sp.sympify(side, strict=True)
                for side in (lhs, rhs))  # a Python number is read as SymPy's (a string is refused)
    assume = tuple(assume)
    return _memo(("identity", lhs, rhs, assume, engine), "proved", lambda: _identity(lhs, rhs, assume, engine))


def refutation(lhs, rhs, assume, witness: dict, component=None) -> Opinion:
    """Re-check a refutation: at the exact ``witness`` (symbols to numbers, σ to a ``Lambda``), which must respect
    the domains and ``assume``, the residual of ``component`` is defined and, in Z3's rationals, not zero.

    >>> import sympy as sp
    >>> a, b = sp.symbols("a b", real=True)
    >>> refutation(sp.Max(0, a) * b, sp.Max(0, b) * a, (), {a: 1, b: -1}).result
    'agrees'
    >>> refutation(sp.Max(0, a) * b, sp.Max(0, b) * a, (), {a: 1, b: 1}).result
    'disagrees'
    """
    assume = tuple(assume)

    def run():
        if size_symbols(lhs, rhs):
            raise Outside("a matrix symbol of symbolic size")
        t = Translator(complex_mode=complex_inputs(lhs, rhs, *assume))
        t.bind(witness)
        comps = _components(t, lhs, rhs)
        if component is not None:
            i, j = component
            cols = lhs.cols if isinstance(lhs, sp.MatrixBase) else 1
            comps = [comps[i * cols + j]]
        valid = [f for s in witness if isinstance(s, sp.Symbol) for f in t.domain_of(s, t.scalar(s)[0])]
        valid += [t.boolean(c) for c in assume] + t.bound_facts  # a witness σ meets σ's assumptions where applied
        goals = [_and(t.defined), f"(not {_and(valid)})"] + [_is_zero(c) for c in comps]
        answers = _queries(t, t.side + t.domain, goals[:1])
        if next(answers) == z3.unsat:
            raise _Disagrees("the residual is undefined at the witness")
        answers = _queries(t, t.side + t.domain + t.defined, goals[1:])
        if next(answers) == z3.sat:
            raise _Disagrees("the witness breaks the symbols' domains or the claim's assumptions")
        if all(a == z3.sat for a in answers):
            raise _Disagrees("the residual at the witness is zero")
        return "the residual at the exact witness is nonzero"

    return _memo(("refutation", lhs, rhs, assume, witness, component), "refuted", run)


def _mapping_of(rule) -> dict:
    """The mapping a parametrised rule (substitute, instantiate, using) closes over, if any; a hint only."""
    try:
        found = inspect.getclosurevars(rule.check).nonlocals.get("mapping")
    except (TypeError, ValueError):
        return {}
    return dict(found) if isinstance(found, dict) else {}


def step(prev, nxt, rule, assume=(), equations=False, premises=(), cited=()) -> Opinion:
    """Re-check one chain step ``prev → nxt`` as Z3 sees it.

    An equality step (``prev = nxt``) is an identity, where ``substitute`` reads ``prev`` with its mapping. An
    implication step (``(l0, r0) ⟹ (l1, r1)``) is ``unsat`` of ``l1 ≠ r1`` given ``∀ symbols of the premise:
    l0 = r0`` (a quantified hypothesis about σ) and each claim the step uses (``premises``, each for all its
    values), together with ground instances of the premise (at the step's own point, and at the rule's
    mapping): each instance follows from the hypothesis, so they only help Z3 find the proof.

    >>> import sympy as sp
    >>> from derive import rules, sigma as s
    >>> a, b, z = sp.symbols("a b z", real=True)
    >>> step((s(a) * b, s(b) * a), (s(z), s(1) * z), rules.instantiate({a: z, b: 1}), equations=True).result
    'agrees'
    >>> step((a + b, b + a), (z, 2 * z), rules.instantiate({a: z, b: 0}), equations=True).result
    'disagrees'
    """
    assume, premises, cited = tuple(assume), tuple(premises), tuple(tuple(c) for c in cited)

    def run():
        if equations and rule.name == "by":
            return _readings(lambda mode: _by(prev, nxt, rule, assume, cited, mode), prev, nxt)
        if equations:
            return _readings(lambda mode: _implication(prev, nxt, rule, assume, premises, mode), prev, nxt)
        if rule.name == "substitute":
            return _substitution(prev, nxt, _mapping_of(rule), assume)
        return _identity(prev, nxt, assume)

    key = ("step", prev, nxt, rule.name, _mapping_of(rule), assume, equations, premises, cited)
    return _memo(key, "proved", run)


def _substitution(prev, nxt, mapping, assume):
    if not mapping:
        raise Outside("a substitution whose mapping is not known")
    t = Translator(complex_mode=complex_inputs(prev, nxt, *assume), defer=True)
    _, right = _entries(t, nxt)
    t.bind(mapping)
    _, left = _entries(t, prev)
    if len(left) != len(right):
        raise _Disagrees("the two sides have different shapes")
    facts = t.domain + t.side + t.defined + [t.boolean(c) for c in assume]
    goals = [_nonzero(_difference(a, b)) for a, b in zip(left, right)]
    if any(r == z3.sat for r in _queries(t, facts, goals, t.inverses)):
        raise _Disagrees("the substituted expression differs from the next one")
    _facts_can_hold(t, assume)
    return "unsat of prev[mapping] ≠ next"


def _forall(goal_t, lhs, rhs, assume, prefix, fixed=()) -> str:
    """``∀ symbols: lhs = rhs`` (where defined, within the symbols' domains), σ shared with the goal; the symbols
    in ``fixed`` are not quantified: they are the goal's own."""
    t = Translator(prefix=prefix, share=goal_t)
    fixed = set(fixed)
    symbols = set(sp.sympify(lhs).free_symbols) | set(sp.sympify(rhs).free_symbols)
    varied = symbols - fixed
    # a condition on a quantified symbol guards the premise; its other symbols are the goal's (fixed) ones
    local = [c for c in assume if c.free_symbols & varied]
    fixed |= set().union(*[c.free_symbols for c in local]) - varied
    for s in sorted(fixed, key=sp.default_sort_key):
        t._bound[s] = goal_t.value(s)
    equal = _and(_is_zero(c) for c in _components(t, lhs, rhs))
    guards = t.domain + t.side + t.defined + [t.boolean(c) for c in local]
    body = f"(=> {_and(guards)} {equal})" if guards else equal
    if not t.created:
        return body
    return "(forall (" + " ".join(f"({v} Real)" for v in t.created) + f") {body})"


def _instance(t, lhs, rhs, mapping, facts, assume=()) -> str:
    """The premise at ``mapping`` in the goal's own constants: a consequence of the quantified premise.

    Its definedness, the domains of the mapped values and the chain's assumptions about the mapped variables (at
    the mapping) are its guard, never asserted: an instance at a point where it is undefined, or where the chain's
    assumptions fail, says nothing. Definitions of fresh constants are asserted (they are always satisfiable).
    """
    start = (len(t.domain), len(t.side), len(t.defined), len(t.bound_facts))
    t.bind(mapping)
    try:
        equal = _and(_is_zero(c) for c in _components(t, lhs, rhs))
        guard = t.defined[start[2]:] + [f for k in mapping if isinstance(k, sp.Symbol)
                                        for f in t.domain_of(k, t.scalar(k)[0])] + t.bound_facts[start[3]:]
        guard += [t.boolean(c) for c in assume if any(c.has(k) for k in mapping)]  # read at the mapping (bound)
    finally:
        facts += t.domain[start[0]:] + t.side[start[1]:]
        del t.defined[start[2]:]
        t.unbind()
    return f"(=> {_and(guard)} {equal})" if guard else equal


def _readings(run, *exprs) -> str:
    """``run(mode)`` with the translator's plain reading; where a transcendental function or constant puts it
    outside, with them uninterpreted (Z3: ``unsat`` is still a proof, a model no counterexample), then as the
    real functions they are (cvc5, whose ``sat`` is a counterexample)."""
    try:
        return run({})
    except Outside as exc:
        if not str(exc).startswith(("a transcendental function", "the constant")):
            raise
        first = exc
    names = why_abstract(*[x for e in exprs for x in (e if isinstance(e, tuple) else (e,))])
    try:
        return run({"abstract": True}) + f" with {names} uninterpreted"
    except (Outside, _Unknown, _Disagrees, z3.Z3Exception):
        del _SCRIPTS[:]
    try:
        return run({"native": _cvc5.FUNCTIONS}) + f" (cvc5, {names} as real functions)"
    except Outside:
        raise first from None


def _pair(eq):
    """An equation ``(lhs, rhs)`` as a pair of SymPy objects (explicit matrices made immutable)."""
    return tuple(sp.ImmutableMatrix(x) if isinstance(x, sp.MatrixBase) else sp.sympify(x) for x in eq)


def _by(prev, nxt, rule, assume, cited, mode=None):
    """Modus ponens with other chains, re-checked as such: (1) every chain cited is confirmed on its own; (2) each
    cited chain's start follows from ``prev`` (``unsat`` of ``prev ∧ start ≠``, every symbol free: it follows for
    all values, so also where a cited chain reads its premise for all values of some); (3) ``nxt`` follows from
    the cited conclusions, each guarded by its chain's assumptions (a chain holds where they do), with ``prev``
    and this chain's assumptions."""
    names = set(rule.uses)
    if not cited or {c[0] for c in cited} != names:
        raise Outside("a step resting on chains whose conclusions are not known here")
    for name, _, _, _, confirmed in cited:
        if not confirmed:
            raise Outside(f"a step resting on {name}, which the second opinion has not confirmed")
    pieces = [(_pair(c[1]), _pair(c[2]), tuple(c[3])) for c in cited]
    flat = [*_pair(prev), *_pair(nxt), *[x for start, end, _ in pieces for x in (*start, *end)]]
    said = f"the cited chains' conclusions ({len(cited)}, each confirmed) imply the next equation"
    sizes = size_symbols(*flat)
    if not sizes:
        if complex_inputs(*flat, *assume):
            raise Outside("an implication between statements about complex quantities")
        _by_at(_pair(prev), _pair(nxt), pieces, assume, mode)
        return said
    everything = [*assume, *[c for _, _, their in pieces for c in their]]
    indices, points = _points(sizes, flat, everything)
    for at in points:  # about matrices of every size: each written out entry by entry, as a step is
        side = lambda e: _explicit_at(e, at)  # noqa: E731
        out = lambda eq: tuple(side(x) for x in eq)  # noqa: E731
        written = [(out(start), out(end), tuple(_condition_at(c, side) for c in their)) for start, end, their in pieces]
        p_at, n_at = out(prev), out(nxt)
        flat_at = [*p_at, *n_at, *[x for start, end, _ in written for x in (*start, *end)]]
        if size_symbols(*flat_at) or complex_inputs(*flat_at):
            raise Outside("an implication between statements about complex quantities, or not written out at a size")
        _by_at(p_at, n_at, written, tuple(_condition_at(c, side) for c in assume), mode)
    return f"{said}, {_where_read(sizes, indices, points)}"


def _by_at(prev, nxt, pieces, assume, mode=None):
    """Part (2) and (3) of :func:`_by` for equations whose matrices are explicit: ``pieces`` are the cited chains'
    ``(start, conclusion, assumptions)``."""
    t = Translator(defer=True, **(mode or {}))
    here = _and(_is_zero(c) for c in _components(t, *prev))
    goal = [_nonzero(c) for c in _components(t, *nxt)]
    starts, hypotheses = [], []
    for start, conclusion, their_assume in pieces:
        starts.append([_nonzero(c) for c in _components(t, *start)])
        holds = _and(_is_zero(c) for c in _components(t, *conclusion))
        guard = [t.boolean(c) for c in their_assume]
        hypotheses.append(f"(=> {_and(guard)} {holds})" if guard else holds)
    facts = t.domain + t.side + t.defined + [t.boolean(c) for c in assume] + [here]
    for goals in starts:
        if any(r == z3.sat for r in _queries(t, facts, goals, t.inverses)):
            raise _Disagrees("a cited chain's start does not follow from the current equation")
    if any(r == z3.sat for r in _queries(t, facts + hypotheses, goal, t.inverses)):
        raise _Disagrees("Z3 finds values at which the cited conclusions hold and the next equation does not")
    _facts_can_hold(t, assume, [prev, nxt])  # (not the current equation: from a false one, anything follows)


#: how many sizes a chain step about matrices of symbolic size is re-checked at (each written out entry by entry,
#: which costs its square): every size symbol at once, from the
#: smallest its assumptions allow
CHAIN_SIZES = 1


def _explicit_at(expr, at):
    """``expr`` at the sizes ``at``, written out: matrices entry by entry, each entry of a matrix symbol a real
    symbol named after it (``M[1,2]``, the same symbol on every side of a step), sums over the ranges evaluated.
    Cached by expression and sizes: a chain's sides and the conclusions its steps cite are written out once."""
    e = sp.sympify(expr)
    try:
        hash(e)
    except TypeError:  # an unhashable part (a mutable matrix inside): written out without the cache
        return _explicit_written(e, at)
    return _explicit_cached(e, tuple(sorted(at.items(), key=lambda kv: str(kv[0]))))


@functools.lru_cache(maxsize=4096)
def _explicit_cached(e, at_items):
    return _explicit_written(e, dict(at_items))


def _explicit_written(e, at):
    from sympy.matrices.expressions.matexpr import MatrixElement

    if isinstance(e, (MatrixExpr, sp.MatrixBase)):
        e = _explicit_matrix(e, at)
    else:
        e = _written(e.xreplace(at)).doit()
    elements = [m for m in (e.atoms(MatrixElement) if isinstance(e, sp.Basic) else ())
                if isinstance(m.parent, sp.MatrixSymbol) and m.i.is_Integer and m.j.is_Integer]
    leaf = lambda m: sp.Symbol(f"{m.parent.name}[{int(m.i) + 1},{int(m.j) + 1}]", real=True)  # noqa: E731
    return e.xreplace({m: leaf(m) for m in elements}) if elements else e


def _explicit_matrix(e, at) -> sp.ImmutableMatrix:
    """A matrix expression at the sizes ``at``, written out: sums, products, transposes, Hadamard products and
    functions applied entry by entry are computed on the written-out parts (a product of 1×1 matrices is one
    multiplication, not a sum over a symbolic range put at a size); every other part (an inverse, a power, derive's
    own forms) is written entry by entry, each entry read at symbolic size and then put at the sizes (no matrix
    inside a scalar). Entries of a matrix symbol stay ``MatrixElement`` here (:func:`_explicit_written` names them)."""
    size = lambda n: int(sp.sympify(n).xreplace(at))  # noqa: E731
    rows, cols = size(e.rows), size(e.cols)
    if type(e) is sp.MatrixSymbol:
        symbol = sp.MatrixSymbol(e.name, rows, cols)
        return sp.ImmutableMatrix(rows, cols, lambda i, j: symbol[i, j])
    if type(e) in (sp.ZeroMatrix, sp.Identity, sp.OneMatrix):
        return sp.ImmutableMatrix(type(e)(*[size(n) for n in e.args]).as_explicit())
    if type(e) is sp.Transpose:
        return _explicit_matrix(e.arg, at).T
    if type(e) in (sp.MatAdd, sp.HadamardProduct):  # entry by entry, a sum or a product of the parts' entries
        op, parts = sp.Add if type(e) is sp.MatAdd else sp.Mul, [_explicit_matrix(a, at) for a in e.args]
        return sp.ImmutableMatrix(rows, cols, lambda i, j: op(*[p[i, j] for p in parts]))
    if type(e) is sp.MatMul:
        coeff, factors = e.as_coeff_matrices()
        if factors and coeff != 0:  # (a zero coefficient with an inverse stays as the kernel keeps it)
            out = _explicit_matrix(factors[0], at).as_mutable()
            for f in factors[1:]:
                out = out * _explicit_matrix(f, at)
            scale = _explicit_written(coeff, at) if coeff.free_symbols else coeff
            return sp.ImmutableMatrix(rows, cols, lambda i, j: scale * out[i, j])
    if type(e) is sp.matrices.expressions.applyfunc.ElementwiseApplyFunction:
        function = e.function
        if not (isinstance(function, sp.Lambda) and function.free_symbols & set(at)):
            inner = _explicit_matrix(e.expr, at)
            return sp.ImmutableMatrix(rows, cols, lambda i, j: function(inner[i, j]))
    return sp.ImmutableMatrix(rows, cols, lambda i, j: _written(sp.sympify(e[i, j]).xreplace(at)).doit())


def _termwise_at(mappings, at, side):
    """A premise read at every term of a finite sum (values with the sum's index in them), at sizes ``at`` where
    every size is one number ``N``: one instance per index ``0 … N-1`` (an index beyond the sum's range gives an
    instance too, which follows from the premise as well, or none where that entry does not exist)."""
    N = max(int(v) for v in at.values())
    out = []
    for m in mappings:
        index = sorted({s for v in m.values() for s in sp.sympify(v).free_symbols
                        if s.is_integer and s not in at}, key=str)
        for ks in itertools.product(range(N), repeat=len(index)):
            try:
                out.append({k: side(sp.sympify(v).xreplace(dict(zip(index, map(sp.Integer, ks)))))
                            for k, v in m.items()})
            except (IndexError, ValueError):
                continue
    return out


def _implication(prev, nxt, rule, assume, premises, mode=None):
    if rule.name == "by":
        raise Outside("a step resting on other chains (their conclusions from the same premise)")
    mapping = {k: v for k, v in rule.instantiates.items() if isinstance(k, (sp.Symbol, sp.MatrixSymbol))}
    more = [m for m in ({k: v for k, v in m.items() if isinstance(k, sp.Symbol)} for m in rule.instances) if m]
    sizes = size_symbols(*prev, *nxt, *mapping.values(), *[x for p in premises for x in p[:2]])
    if rule.name == "termwise" and not sizes:
        raise Outside("a step that reads the premise at every term of a finite sum of a fixed size")
    if not sizes:
        if any(isinstance(k, MatrixExpr) for k in mapping):
            raise Outside("an instantiation of matrix variables whose entries are not written out")
        return _implication_at(prev, nxt, mapping, more, assume, premises, mode)
    # about matrices of every size: read at the smallest sizes the assumptions allow and the next ones, each matrix
    # written out entry by entry (a premise about every matrix of a shape is one about every value of its entries)
    indices, points = _points(sizes, [*prev, *nxt, *mapping.values()], assume)
    for at in points:
        side = lambda e: _explicit_at(e, at)  # noqa: E731
        p_at, n_at = tuple(side(x) for x in prev), tuple(side(x) for x in nxt)
        if rule.name == "termwise":
            terms = _termwise_at([rule.instantiates, *rule.instances], at, side)
            m_at, more_at = (terms[0], terms[1:]) if terms else ({}, [])
        else:
            m_at = {}
            for k, v in mapping.items():
                if isinstance(k, sp.MatrixSymbol):
                    key, value = side(k), side(v)
                    if not (isinstance(key, sp.MatrixBase) and isinstance(value, sp.MatrixBase)):
                        raise Outside("an instantiation of matrix variables not written out at a size")
                    m_at.update({key[i, j]: value[i, j] for i in range(key.rows) for j in range(key.cols)})
                else:
                    m_at[k] = side(v)
            more_at = [{k: side(v) for k, v in m.items()} for m in more]
        if size_symbols(*p_at, *n_at, *m_at.values(), *[v for m in more_at for v in m.values()]):
            raise Outside("a step whose sizes are not all written out at a size")
        _implication_at(p_at, n_at, m_at, more_at, tuple(_condition_at(c, side) for c in assume),
                        [(side(lhs), side(rhs), their) for lhs, rhs, their in premises], mode)
    return _where_read(sizes, indices, points)


def _points(sizes, exprs, assume):
    """The sizes (and index values) an every-size chain step is read at: the smallest sizes where the assumptions
    allow some value of its indices (an integer ``i`` with ``i <= r`` assumed takes each value it may take there),
    up to :data:`INDEX_SIZES`. Returns the indices and the points, each a mapping of sizes and indices."""
    lows = [_smallest(s) for s in sizes]
    grid = [dict(zip(sizes, (sp.Integer(max(lo, k)) for lo in lows))) for k in range(1, INDEX_SIZES + 1)]
    grid = [at for k, at in enumerate(grid) if at not in grid[:k]]
    grid = [at for at in grid if not any(c.xreplace(at) is sp.false for c in assume)
            and all(_allowed(s, int(v)) for s, v in at.items())]
    indices = _index_symbols(exprs, assume, sizes)
    points = []
    for at in grid:  # the smallest sizes where the assumptions allow some index values
        found = [{**at, **idx} for idx in _index_values(indices, assume, at)]
        if found or points:
            points += found
        if len({tuple(sorted((str(k), v) for k, v in p.items() if k in at)) for p in points}) >= CHAIN_SIZES:
            break
    if not points:
        raise Outside(f"no size up to {INDEX_SIZES} (and no index values) that the chain's assumptions allow")
    return indices, points


def _where_read(sizes, indices, points) -> str:
    read = sorted({int(at[sizes[0]]) for at in points})
    told = f" and every value of {', '.join(map(str, indices))} there" if indices else ""
    return f"for {', '.join(str(s) for s in sizes)} = " + ", ".join(map(str, read)) + f"{told} (each matrix entry by entry)"


#: the largest size tried for an every-size chain step whose indices the smallest size leaves no value
INDEX_SIZES = 3
#: at most this many index values are tried at one size
MAX_INDEX_POINTS = 64


def _index_symbols(exprs, assume, sizes) -> list:
    """The integer symbols of ``exprs`` that ``assume`` bounds above by sizes (``i <= r``): indices of entries."""
    found = set()
    for e in exprs:
        if isinstance(e, sp.Basic):
            found |= {s for s in e.free_symbols if isinstance(s, sp.Symbol) and s.is_integer and s not in sizes}
    return sorted((s for s in found if _upper(s, assume, sizes) is not None), key=str)


def _upper(s, assume, sizes):
    """An upper bound ``s <= b`` that ``assume`` states, ``b`` in the sizes alone; else ``None``."""
    for c in assume:
        if isinstance(c, (sp.LessThan, sp.StrictLessThan, sp.GreaterThan, sp.StrictGreaterThan)):
            small, big = (c.lhs, c.rhs) if isinstance(c, (sp.LessThan, sp.StrictLessThan)) else (c.rhs, c.lhs)
            rest = sp.expand(small - s)
            if not rest.has(s) and not (rest.free_symbols - set(sizes)) and not big.has(s) \
                    and not (big.free_symbols - set(sizes)):
                strict = isinstance(c, (sp.StrictLessThan, sp.StrictGreaterThan))
                return big - rest - (1 if strict else 0)  # s <= big - rest (an integer s)
    return None


def _index_values(indices, assume, at) -> list:
    """Every assignment of the indices their assumptions allow at the sizes ``at`` (at most MAX_INDEX_POINTS)."""
    if not indices:
        return [{}]
    ranges = []
    for s in indices:
        hi = _upper(s, assume, list(at)).xreplace(at)
        lo = 1 if s.is_positive else 0 if s.is_nonnegative else None
        if lo is None or not hi.is_Integer:
            raise Outside(f"an index {s} without a lower bound of its own")
        ranges.append(range(lo, int(hi) + 1))
    out = []
    for values in itertools.product(*ranges):
        point = dict(zip(indices, map(sp.Integer, values)))
        full = {**at, **point}
        if any(c.xreplace(full) is sp.false for c in assume):
            continue
        out.append(point)
        if len(out) > MAX_INDEX_POINTS:
            raise Outside(f"more than {MAX_INDEX_POINTS} values of the indices {', '.join(map(str, indices))}")
    return out


def _written(e):
    """``e`` with every sum over integer limits written out term by term, innermost first (Karr's convention for a
    backward range: ``Σ_{lo}^{hi} = -Σ_{hi+1}^{lo-1}``), before SymPy's ``doit`` could evaluate one by its own
    summation rules."""
    if not isinstance(e, sp.Basic) or e.is_Atom or not e.has(sp.Sum):
        return e
    e = e.func(*[_written(a) for a in e.args])
    if not isinstance(e, sp.Sum):
        return e
    body = e.function
    for var, lo, hi in e.limits:  # the first limit is the innermost
        if not (lo.is_Integer and hi.is_Integer):  # a range of symbolic size (or one an outer index bounds)
            return e
        lo, hi, sign = (int(lo), int(hi), 1) if int(hi) >= int(lo) - 1 else (int(hi) + 1, int(lo) - 1, -1)
        body = sign * sp.Add(*[body.subs(var, k) for k in range(lo, hi + 1)])
    return body


def _condition_at(cond, side):
    """An assumption written out at a size with the step's own entries (``side``): ``Q.invertible(M)`` as
    ``det M ≠ 0`` of the written-out ``M``, a relation between its sides written out."""
    if isinstance(cond, sp.assumptions.AppliedPredicate) and cond.function == sp.Q.invertible:
        X = side(cond.arguments[0])
        if not isinstance(X, sp.MatrixBase):
            raise Outside("an invertible matrix not written out at a size")
        return sp.Ne(X.det(), 0)
    if isinstance(cond, sp.core.relational.Relational):
        return cond.func(side(cond.lhs), side(cond.rhs))
    if isinstance(cond, (sp.And, sp.Or, sp.Not)):
        return cond.func(*[_condition_at(a, side) for a in cond.args])
    return cond


def _implication_at(prev, nxt, mapping, more, assume, premises, mode=None):
    if complex_inputs(*prev, *nxt):
        raise Outside("an implication between statements about complex quantities")
    t = Translator(**(mode or {}))
    goals = [_nonzero(c) for c in _components(t, nxt[0], nxt[1])]
    # the premise holds at the step's own values, and for all values of the variables an instantiation puts
    # values for (the chain's premise is read so); every other symbol is fixed, the same as in the conclusion
    varied = set(mapping).union(*more)
    fixed = sorted((set(sp.sympify(prev[0]).free_symbols) | set(sp.sympify(prev[1]).free_symbols)) - varied,
                   key=sp.default_sort_key)
    hypotheses = [_forall(t, prev[0], prev[1], assume, "h.", fixed)] if varied else []
    facts = t.domain + t.side + t.defined + [t.boolean(c) for c in assume]
    for k, (lhs, rhs, their_assume) in enumerate(premises):  # claims the step uses, each for all its values
        if size_symbols(lhs, rhs) or complex_inputs(lhs, rhs):
            raise Outside("a step resting on a claim about complex or symbolic-size quantities")
        hypotheses.append(_forall(t, lhs, rhs, their_assume, f"u{k}."))
    if (mode or {}).get("native") and (mapping or more) and _settled_at_mappings(prev, nxt, mapping, more, assume,
                                                                                  mode):
        return "unsat of the conclusion's negation, given the premise at the step's instance"
    instances = [_instance(t, prev[0], prev[1], m, facts, assume) for m in [{}] + ([mapping] if mapping else []) + more]
    # first the ground instances alone (each follows from the quantified premise, so unsat is already a proof):
    # an instantiation is settled there, without quantifiers, in a fraction of the resource limit
    try:
        ground = list(_queries(t, facts + instances, goals))
    except _Unknown:
        if not premises:  # the step rests on nothing but its instances: the quantified premise adds none Z3 needs
            raise
        ground = None
    if ground is not None and all(r == z3.unsat for r in ground):
        _facts_can_hold(t, assume, [prev, nxt])
        return "unsat of the conclusion's negation, given the premise at the step's instance"
    if ground is not None and not hypotheses and any(r == z3.sat for r in ground):
        raise _Disagrees("Z3 finds values at which the premise holds and the conclusion does not")
    if (mode or {}).get("abstract") and _cvc5.AVAILABLE:
        # with exp and the like uninterpreted, the premise for all values rarely settles what its instances did
        # not, and spends Z3's whole limit finding so: cvc5 reads them as the real functions next
        raise _Unknown("the instances did not settle it with the transcendental functions uninterpreted")
    if any(r == z3.sat for r in _queries(t, facts + hypotheses + instances, goals)):
        raise _Disagrees("Z3 finds a σ and values at which the premises hold and the conclusion does not")
    _facts_can_hold(t, assume, [prev, nxt])
    return "unsat of the conclusion's negation, given the premise for all values"


def _settled_at_mappings(prev, nxt, mapping, more, assume, mode) -> bool:
    """Whether the premise at the step's mappings alone (a translation of its own: no premise at the step's own
    values, none of their terms) already gives the conclusion: fewer facts, each a consequence of the premise, so
    ``unsat`` is a proof, and anything else settles nothing. An engine that reads exp natively (cvc5, by
    linearisation) settles a SiLU step there several times sooner than beside the terms it does not need."""
    t = Translator(**mode)
    goals = [_nonzero(c) for c in _components(t, nxt[0], nxt[1])]
    facts = t.domain + t.side + t.defined + [t.boolean(c) for c in assume]
    instances = [_instance(t, prev[0], prev[1], m, facts, assume) for m in ([mapping] if mapping else []) + more]
    mark = len(_SCRIPTS)
    try:
        if all(r == z3.unsat for r in _queries(t, facts + instances, goals)):
            _facts_can_hold(t, assume, [prev, nxt])
            return True
    except _Unknown:
        pass
    del _SCRIPTS[mark:]  # a query that settled nothing is not one of the confirmation's
    return False


def combine(opinions) -> Opinion | None:
    """One opinion of a chain from those of its steps: agrees when every step does; else the first that does not (a
    step with none, taken while the second opinion was off, is *unknown*); ``None`` when no step has one."""
    opinions = list(opinions)
    given = [o for o in opinions if o is not None]
    if not given:
        return None
    seconds = sum(o.seconds for o in given)
    for result in ("disagrees", "unknown", "outside fragment"):
        for k, o in enumerate(opinions, 1):
            if o is not None and o.result == result:
                return Opinion(result, f"step {k}: {o.why}", seconds, "proved", o.engine)
    missing = [k for k, o in enumerate(opinions, 1) if o is None]
    if missing:
        return Opinion("unknown", f"step {missing[0]}: not re-checked (taken while the second opinion was off)",
                       seconds, "proved", ENGINE)
    opinions = given
    sized = sorted({o.why for o in opinions if o.why.startswith("for ")})
    why = f"every step ({len(opinions)})" + (f", {'; '.join(sized)}" if sized else "")  # each size some step read
    engines = sorted({e for o in opinions for e in o.engine.split(" + ")}, key=lambda e: e != ENGINE)
    return Opinion("agrees", why, seconds, "proved", " + ".join(engines),
                   tuple(x for o in opinions for x in o.scripts))
