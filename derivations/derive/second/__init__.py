"""A second opinion on every verdict, from Z3: an independent translation, an independent decision procedure.

The kernel's verdicts rest on SymPy's algebra; a bug there, or in one of the strategies, would be a false proof
with nothing to catch it. Here each proved claim, each refutation's exact witness and each chain step is
re-checked by Z3 (:mod:`.review`) from its own translation (:mod:`.translate`). The claim keeps the opinion
(``second_opinion`` in its record); an opinion that *disagrees* raises :class:`derive.claims.SoundnessError`.

Set the environment variable ``DERIVE_SECOND_OPINION=0`` to skip it (to measure what it costs).

A re-check keeps to what is left of the claim's budget (and of any budget around it): every call into Z3 is
given at most the time left, and the translation runs under the same budget; when it runs out, the opinion is
``unknown`` and says ``out of time``.
"""
from __future__ import annotations

import os

from .review import ENGINE, Opinion, combine, identity, refutation, step
from .translate import OUT_OF_TIME, Outside, Translator, within

__all__ = ["ENGINE", "Opinion", "Outside", "Translator", "enabled", "review_claim", "review_step", "record",
           "identity", "refutation", "step", "combine", "counts", "summary_line"]

#: the results, in the order the summary lists them
RESULTS = ("agrees", "outside fragment", "unknown", "disagrees")


def enabled() -> bool:
    """Whether verdicts get a second opinion (``DERIVE_SECOND_OPINION`` unset, or anything but 0/off/no)."""
    return os.environ.get("DERIVE_SECOND_OPINION", "1").strip().lower() not in ("0", "off", "no", "false")


def _disagreement(what: str, opinion, statement=None) -> None:
    """Raise ``SoundnessError`` when the opinion disagrees; the statement is then unproven, so nothing can rest on it."""
    if opinion is not None and opinion.result == "disagrees":
        from ..claims import SoundnessError
        from ..verdict import Evidence, Verdict

        message = f"{what}, but the second opinion ({ENGINE}) disagrees: {opinion.why}"
        if statement is not None:
            statement._set(Verdict.UNPROVEN, Evidence(strategy="", detail=message))
        raise SoundnessError(message)


def _timed_out(about: str):
    from .review import Opinion

    return Opinion("unknown", OUT_OF_TIME, 0.0, about)


def _within(seconds, about: str, run):
    """``run()`` with Z3 and the translation kept to ``seconds`` (``None``: no limit of its own) and to any budget
    around it; the opinion is ``unknown (out of time)`` when that runs out."""
    from ..budget import OutOfTime, remaining, time_budget

    if seconds is not None and seconds <= 0:
        return _timed_out(about)
    left = remaining()
    limit = seconds if left is None else left if seconds is None else min(seconds, left)
    try:
        with time_budget(seconds), within(limit):
            return run()
    except OutOfTime as exc:
        if exc.outer:  # a budget around this one ran out: it stops too
            raise
        return _timed_out(about)


def review_claim(claim, found=None, seconds=None) -> None:
    """After a claim got a certain verdict: re-check it, keep the opinion, raise when Z3 disagrees.

    ``found`` is the kernel's :class:`derive.witness.Found` for a refutation (its witness and component);
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


def _premises(rule) -> list:
    """The claims a step rests on (``using``), as ``(lhs, rhs, assume)``, when they are proved."""
    from .. import registry

    out = []
    for ident in rule.uses:
        try:
            used = registry.get(ident)
        except KeyError:
            continue
        if getattr(used, "kind", "") == "claim" and used.verdict.value == "proved":
            out.append((used.lhs, used.rhs, used.assume))
    return out


def review_step(chain, seconds=None) -> None:
    """After a chain took a step: re-check that step, and keep the chain's opinion (all its steps'); ``seconds``
    is what is left of the step's budget."""
    if not enabled():
        return
    opinions = chain.__dict__.setdefault("_second_steps", [])
    opinions += [None] * (len(chain.steps) - 1 - len(opinions))
    expr, rule, detail, _ = chain.steps[-1]
    prev = chain.steps[-2][0] if len(chain.steps) > 1 else chain.start
    opinion = None
    if detail is not None:
        premises = _premises(rule) if chain.equations else ()
        opinion = _within(seconds, "proved",
                          lambda: step(prev, expr, rule, chain.assume, chain.equations, premises))
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


def counts(records) -> dict:
    """``{result: n}`` over claim records (those without a second opinion are counted as ``none``)."""
    out = {r: 0 for r in (*RESULTS, "none")}
    for r in records:
        op = r.get("second_opinion")
        out[op["result"] if op else "none"] += 1
    return out


def summary_line(records) -> str:
    """One line for the command line's summary: how many verdicts the second opinion agrees with, and the rest.

    >>> summary_line([{"second_opinion": {"result": "agrees"}}, {"second_opinion": None}])
    'second opinion (...): 1 agrees, 1 not re-checked'
    """
    c = counts(records)
    parts = [f"{c[r]} {r}" for r in RESULTS if c[r]]
    if c["none"]:
        parts.append(f"{c['none']} not re-checked")
    engine = ENGINE if enabled() else "off"
    return f"second opinion ({engine}): " + (", ".join(parts) or "nothing to re-check")
