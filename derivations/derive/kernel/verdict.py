"""Verdicts and the evidence that backs them.

A verdict says exactly how it was obtained; the :class:`Evidence` records the rule or strategy, the witness
and its certified enclosure, and the time spent.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field

__all__ = ["Verdict", "Evidence", "ExpectationError", "SoundnessError"]

_SYMBOLS = {"proved": "✔", "refuted": "✘", "checked": "≈", "unproven": "?"}


class Verdict(str, enum.Enum):
    """The four verdicts of the kernel, never blurred.

    ``PROVED``: an exact symbolic rule reduced ``lhs - rhs`` to zero.
    ``REFUTED``: an exact witness at which ``lhs - rhs`` is certified nonzero.
    ``CHECKED``: numeric agreement at seeded random points -- evidence, not proof.
    ``UNPROVEN``: none of the above (yet).

    Examples
    --------
    >>> from derive import Verdict
    >>> Verdict("proved") is Verdict.PROVED
    True
    >>> Verdict.REFUTED.value
    'refuted'
    """

    PROVED = "proved"
    REFUTED = "refuted"
    CHECKED = "checked"
    UNPROVEN = "unproven"

    def __str__(self) -> str:
        return self.value

    @property
    def symbol(self) -> str:
        """The verdict's mark in text and badges: ✔ proved, ✘ refuted, ≈ checked, ? unproven."""
        return _SYMBOLS[self.value]

    @property
    def is_certain(self) -> bool:
        """True for the two verdicts that settle a claim (proved, refuted)."""
        return self in (Verdict.PROVED, Verdict.REFUTED)


@dataclass(frozen=True)
class Evidence:
    """How a verdict was obtained.

    ``strategy`` names the rule or strategy (``"expand"``, ``"sign-split"``, ``"exact witness"`` ...);
    ``detail`` is one human sentence; ``witness`` maps symbol names to exact values (as strings);
    ``residual`` is the exact value of ``lhs - rhs`` at the witness (a string), ``enclosure`` the
    certified interval that excludes zero when the residual is not rational, ``residual_tex`` the residual in
    LaTeX for pages that typeset it (``""`` when too long to show); ``seconds`` the time spent.
    """

    strategy: str = ""
    detail: str = ""
    witness: dict[str, str] = field(default_factory=dict)
    residual: str = ""
    enclosure: str = ""
    residual_tex: str = ""
    seconds: float = 0.0
    attempts: tuple[str, ...] = ()
    #: the witness itself, exact, by symbol (and function): ``witness`` is its text, cut to a line
    values: dict = field(default_factory=dict, compare=False, repr=False)

    def as_dict(self, timings: bool = True) -> dict:
        out = {
            "strategy": self.strategy,
            "detail": self.detail,
            "witness": dict(self.witness),
            "residual": self.residual,
            "enclosure": self.enclosure,
            "residual_tex": self.residual_tex,
        }
        if timings:
            out["seconds"] = round(self.seconds, 4)
        return out


class ExpectationError(AssertionError):
    """A claim's verdict differs from the verdict it was expected to get."""


class SoundnessError(RuntimeError):
    """Two verdicts contradict each other (the kernel's and the second opinion's): a bug, never to be ignored."""
