"""Multi-step derivations: ``e0 = e1 = e2 …`` (or ``H0 ⟹ H1 ⟹ …``), each step naming its rule, each checked.

A chain is proved when every step is; it renders as an aligned LaTeX block with the rule and a mark per step.
"""
from __future__ import annotations

import time

import sympy as sp

from . import render, second
from ._validate import require_expr
from .claims import Statement
from .rules import as_rule
from .verdict import Evidence, Verdict

__all__ = ["Chain", "chain"]


def _pair(where, value):
    if isinstance(value, tuple):
        if len(value) != 2:
            raise ValueError(f"{where}: an equation is a (lhs, rhs) pair, got {len(value)} items")
        for side in value:
            require_expr(where, "equation side", side)
        return tuple(sp.sympify(v) for v in value)
    require_expr(where, "step", value)
    return sp.sympify(value)


class Chain(Statement):
    """A derivation in steps. Start with an expression (equality chain) or a ``(lhs, rhs)`` pair (implications)."""

    kind = "chain"

    def __init__(self, identifier, start, *, assume=(), uses=(), expect=Verdict.PROVED, title=""):
        self.start = _pair(f"chain({identifier!r})", start)
        self.equations = isinstance(self.start, tuple)
        self.steps: list[tuple] = []  # (expression, rule, detail or None, note)
        self._why: dict[int, str] = {}  # step index -> why it fails, when that is more than "does not hold"
        super().__init__(identifier, uses=uses, expect=expect, title=title, assume=assume)

    def step(self, expr, rule, note: str = ""):
        """Add one step: ``expr`` follows from the previous one by ``rule`` (a name or a ``derive.rules`` rule)."""
        where = f"chain {self.identifier}"
        expr = _pair(where, expr)
        if isinstance(expr, tuple) != self.equations:
            kind = "an equation (lhs, rhs)" if self.equations else "an expression"
            raise TypeError(f"{where}: every step must be {kind}, like the start")
        rule = as_rule(rule)
        if rule.equations and not self.equations:
            raise ValueError(f"{where}: rule {rule.name} relates equations; start the chain with a (lhs, rhs) pair")
        prev = self.steps[-1][0] if self.steps else self.start
        t0 = time.perf_counter()
        unmet = [c for c in rule.requires if c not in self.assume]  # the step holds only where these do
        detail = None if unmet else rule.check(prev, expr)
        seconds = self.evidence.seconds + time.perf_counter() - t0
        if unmet:
            self._why[len(self.steps)] = (f"needs {', '.join(sp.sstr(c) for c in unmet)}, which neither the symbols' "
                                          f"assumptions nor the chain's assume give")
        self.steps.append((expr, rule, detail, note))
        for u in rule.uses:
            if u not in self.uses:
                self.uses = self.uses + (u,)
        failed = [k for k, s in enumerate(self.steps, 1) if s[2] is None]
        names = sorted({s[1].name for s in self.steps})
        if failed:
            self.verdict = Verdict.UNPROVEN
            why = self._why.get(failed[0] - 1, "does not hold")
            self.evidence = Evidence(strategy="chain", seconds=seconds,
                                     detail=f"step {failed[0]} ({self.steps[failed[0] - 1][1].name}) {why}")
        else:
            self.verdict = Verdict.PROVED
            self.evidence = Evidence(strategy="chain", seconds=seconds,
                                     detail=f"{len(self.steps)} step{'s' if len(self.steps) != 1 else ''}, each checked: {', '.join(names)}")
        second.review_step(self)
        return self._settle(Verdict.PROVED)

    def body_tex(self) -> str:
        def show(e):
            return f"{render.tex(e[0])} = {render.tex(e[1])}" if self.equations else render.tex(e)

        rows = [f"& {show(self.start)}"] if self.equations or not self.steps else []
        for k, (expr, rule, detail, note) in enumerate(self.steps):
            mark = r"\checkmark" if detail is not None else r"\boldsymbol{\times}"
            reason = rf"&& {rule.label}" + (rf"\text{{; {_text(note)}}}" if note else "") + rf"\ {mark}"
            if self.equations:
                rows.append(rf"\Longrightarrow\ & {show(expr)} {reason}")
            elif k == 0:
                rows.append(rf"{show(self.start)} &= {show(expr)} {reason}")
            else:
                rows.append(rf"&= {show(expr)} {reason}")
        return "\\begin{aligned}\n" + " \\\\\n".join(rows) + "\n\\end{aligned}"


def _text(s: str) -> str:
    return s.replace("_", r"\_")


def chain(identifier, start, *, assume=(), uses=(), expect=Verdict.PROVED, title="") -> Chain:
    """Begin a checked derivation at ``start``; add steps with ``.step(expr, rule)``.

    Examples
    --------
    >>> import derive, sympy as sp
    >>> a, b = sp.symbols("a b", real=True)
    >>> ch = derive.chain("doc.square", (a + b)**2).step(a**2 + 2*a*b + b**2, "expand")
    >>> ch.verdict
    <Verdict.PROVED: 'proved'>
    """
    return Chain(identifier, start, assume=assume, uses=uses, expect=expect, title=title)
