"""A second opinion on every verdict, from Z3: an independent translation, an independent decision procedure.

The kernel's verdicts rest on SymPy's algebra; a bug there, or in one of the strategies, would be a false proof
with nothing to catch it. Here each proved claim, each refutation's exact witness and each chain step is
re-checked by Z3 (:mod:`.review`) from its own translation (:mod:`.translate`). The claim keeps the opinion
(``second_opinion`` in its record; :mod:`derive.kernel.opinion` asks for it and raises ``SoundnessError`` when an
opinion *disagrees*). Nothing here imports the rest of derive: SymPy expressions in, an opinion out.

A re-check keeps to what is left of the claim's budget (and of any budget around it): every call into Z3 is
given at most the time left, and the translation runs under the same budget; when it runs out, the opinion is
``unknown`` and says ``out of time``.

Set the environment variable ``DERIVE_SECOND_OPINION=0`` to skip it (to measure what it costs).

A re-check keeps to what is left of the claim's budget (and of any budget around it): every call into Z3 is
given at most the time left, and the translation runs under the same budget; when it runs out, the opinion is
``unknown`` and says ``out of time``.
"""
from __future__ import annotations

import os

from .review import ENGINE, Opinion, combine, identity, refutation, step
from .translate import OUT_OF_TIME, Outside, Translator, within

__all__ = ["ENGINE", "OUT_OF_TIME", "Opinion", "Outside", "Translator", "enabled", "identity", "refutation", "step",
           "combine", "within",
           "counts", "summary_line"]

#: the results, in the order the summary lists them
RESULTS = ("agrees", "outside fragment", "unknown", "disagrees")


def enabled() -> bool:
    """Whether verdicts get a second opinion (``DERIVE_SECOND_OPINION`` unset, or anything but 0/off/no)."""
    return os.environ.get("DERIVE_SECOND_OPINION", "1").strip().lower() not in ("0", "off", "no", "false")


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
