"""What the kernel does with a second opinion: ask for it after each verdict, keep it, withdraw a disputed verdict.

The engines (:mod:`derive.second`) take SymPy expressions and give an opinion; here a claim's proof or refutation
and each chain step are handed to them, the opinion is kept on the statement, and an opinion that disagrees makes
the statement unproven and raises :class:`SoundnessError`, so nothing can rest on it.
"""
from __future__ import annotations

from ..second import ENGINE, OUT_OF_TIME, Opinion, combine, enabled, identity, refutation, step, within
from . import registry, sums
from .budget import OutOfTime, remaining, time_budget
from .verdict import Evidence, SoundnessError, Verdict

__all__ = ["review_claim", "review_step", "record", "smtlib", "SMTLIB_QUERIES", "SMTLIB_CHARS"]

#: a statement's record carries at most this many of the queries that confirmed it, and at most
#: :data:`SMTLIB_CHARS` characters of them in all: whole queries (see :func:`smtlib`)
SMTLIB_QUERIES = 4
SMTLIB_CHARS = 8_000


def _disagreement(what: str, opinion, statement=None) -> None:
    """Raise ``SoundnessError`` when the opinion disagrees; the statement is then unproven, so nothing can rest on it."""
    if opinion is not None and opinion.result == "disagrees":
        message = f"{what}, but the second opinion ({ENGINE}) disagrees: {opinion.why}"
        if statement is not None:
            statement._set(Verdict.UNPROVEN, Evidence(strategy="", detail=message))
        raise SoundnessError(message)


def _timed_out(about: str):
    return Opinion("unknown", OUT_OF_TIME, 0.0, about)


def _within(seconds, about: str, run):
    """``run()`` with Z3 and the translation kept to ``seconds`` (``None``: no limit of its own) and to any budget
    around it; the opinion is ``unknown (out of time)`` when that runs out."""
    if seconds is not None and seconds <= 0:
        return _timed_out(about)
    left = remaining()
    limit = seconds if left is None else left if seconds is None else min(seconds, left)
    try:  # (no value the engines are given comes from SymPy's summation or its integrator: sums.exact)
        with time_budget(seconds), within(limit), sums.exact():
            return run()
    except OutOfTime as exc:
        if exc.outer:  # a budget around this one ran out: it stops too
            raise
        return _timed_out(about)


def review_claim(claim, found=None, seconds=None) -> None:
    """After a claim got a certain verdict: re-check it, keep the opinion, raise when Z3 disagrees.

    ``found`` is the kernel's :class:`derive.kernel.witness.Found` for a refutation (its witness and component);
    ``seconds`` what is left of the claim's budget (``None``: no limit but the budgets around it).
    """
    if not enabled():
        return
    verdict = claim.verdict.value
    if verdict == "proved":
        opinion = _within(seconds, verdict, lambda: identity(claim.lhs, claim.rhs, claim.assume))
    elif verdict == "refuted" and found is not None:
        opinion = _within(seconds, verdict, lambda: refutation(claim.lhs, claim.rhs, claim.assume, found.witness,
                                                               found.component))
    else:
        return
    claim.second_opinion = opinion
    _disagreement(f"claim {claim.identifier} is {verdict} by the kernel", opinion, claim)


def _used(rule):
    """The recorded statements a step names in ``uses`` (an identifier not recorded here is left out)."""
    for ident in rule.uses:
        try:
            yield registry.get(ident)
        except KeyError:
            continue


def _premises(rule) -> list:
    """The claims a step rests on (``using``), as ``(lhs, rhs, assume)``, when they are proved."""
    return [(used.lhs, used.rhs, used.assume) for used in _used(rule)
            if getattr(used, "kind", "") == "claim" and used.verdict.value == "proved"]


def _cited(rule) -> list:
    """The chains a ``by`` step rests on, as ``(name, start, conclusion, assume, confirmed)``: ``confirmed`` when
    the chain is proved and the second opinion agrees with it (each of its own steps confirmed)."""
    out = []
    for used in _used(rule):
        if getattr(used, "kind", "") != "chain" or not used.equations:
            continue
        opinion = getattr(used, "second_opinion", None)
        confirmed = used.verdict.value == "proved" and opinion is not None and opinion.result == "agrees"
        out.append((used.identifier, used.start, used.conclusion, tuple(used.assume), confirmed))
    return out


def review_step(chain, seconds=None) -> None:
    """After a chain took a step: re-check that step, and keep the chain's opinion (all its steps'); ``seconds``
    is what is left of the step's budget."""
    opinions = chain.__dict__.setdefault("_second_steps", [])
    opinions += [None] * (len(chain.steps) - 1 - len(opinions))
    if not enabled():  # this step has none: an opinion of the steps before does not cover it
        opinions.append(None)
        chain.second_opinion = combine(opinions) if chain.verdict.value == "proved" else None
        return
    expr, rule, detail, _ = chain.steps[-1]
    prev = chain.steps[-2][0] if len(chain.steps) > 1 else chain.start
    opinion = None
    if detail is not None:
        premises = _premises(rule) if chain.equations else ()
        cited = _cited(rule) if chain.equations and rule.name == "by" else ()
        opinion = _within(seconds, "proved",
                          lambda: step(prev, expr, rule, chain.assume, chain.equations, premises, cited))
    opinions.append(opinion)
    if opinion is not None and opinion.result == "disagrees":  # the step does not count: later steps cannot mend it
        chain._steps[-1] = (expr, rule, None, chain.steps[-1][3])
        chain._why[len(chain.steps) - 1] = f"is disputed by the second opinion: {opinion.why}"
    chain.second_opinion = combine(opinions) if chain.verdict.value == "proved" else None
    _disagreement(f"chain {chain.identifier}: step {len(chain.steps)} ({rule.name}) holds by the kernel", opinion, chain)


def record(statement, timings: bool = False) -> dict | None:
    """The opinion as data for a claim's record (``None`` when its current verdict has none); seconds only on request."""
    opinion = getattr(statement, "second_opinion", None)
    if opinion is None or opinion.about != statement.verdict.value:
        return None
    return opinion.record(timings)


def smtlib(statement) -> dict | None:
    """The queries that confirmed the statement's current verdict, as standalone SMT-LIB 2.6 scripts, for its
    record: ``{"of": n, "kept": [k, …], "scripts": [[engine, script], …]}``, the ``k``-th (from 1) of its ``n``
    queries, in the order they were asked; ``None`` without a confirmed query that fits.

    At most :data:`SMTLIB_QUERIES` are kept, :data:`SMTLIB_CHARS` characters in all: the first query of each
    engine that answered, then the others in order, each where it still fits (a longer one is left out).

    >>> import derive
    >>> a, b = derive.real("a"), derive.real("b")
    >>> c = derive.claim("doc.smtlib_square", (a + b)**2, a**2 + 2*a*b + b**2).prove()
    >>> out = smtlib(c)
    >>> out["of"], out["kept"], out["scripts"][0][1].splitlines()[0]
    (1, [1], '; expect: unsat')
    >>> smtlib(derive.claim("doc.smtlib_open", a, b))  # not proved: nothing confirmed
    """
    opinion = getattr(statement, "second_opinion", None)
    if opinion is None or opinion.about != statement.verdict.value or opinion.result != "agrees":
        return None
    engines = opinion.script_engines()
    first = {}
    for k, engine in enumerate(engines):
        first.setdefault(engine, k)
    order = sorted(range(len(engines)), key=lambda k: (k not in first.values(), k))
    kept, size = {}, 0
    for k in order:  # each query written as a script only when it is next to be weighed
        if len(kept) == SMTLIB_QUERIES:
            break
        script, engine = opinion.script(k)
        if size + len(script) <= SMTLIB_CHARS:
            kept[k] = [engine, script]
            size += len(script)
    if not kept:
        return None
    return {"of": len(engines), "kept": [k + 1 for k in sorted(kept)], "scripts": [kept[k] for k in sorted(kept)]}
