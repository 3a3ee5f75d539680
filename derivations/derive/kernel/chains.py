"""Multi-step derivations: ``e0 = e1 = e2 …`` (or ``H0 ⟹ H1 ⟹ …``), each step naming its rule, each checked.

A chain is proved when every step is; it renders as an aligned LaTeX block with the rule and a mark per step.
"""
from __future__ import annotations

import time

import sympy as sp
from sympy.matrices.expressions import MatrixExpr

from . import opinion, printing
from . import wellformed
from .validate import require_expr
from .budget import DEFAULT_SECONDS, OutOfTime, time_budget
from .claims import Statement
from .rules import as_rule
from .verdict import Evidence, Verdict
from .witness import evaluate_at, function_problem

__all__ = ["Chain", "chain", "conclusions"]


def _pair(where, value):
    if isinstance(value, tuple):
        if len(value) != 2:
            raise ValueError(f"{where}: an equation is a (lhs, rhs) pair, got {len(value)} items")
        for side in value:
            require_expr(where, "equation side", side)
        pair = tuple(sp.sympify(v) for v in value)
        wellformed.check_statement(where, *pair)
        return pair
    require_expr(where, "step", value)
    value = sp.sympify(value)
    wellformed.check_statement(where, value)
    return value


def _sides(expr) -> tuple:
    return expr if isinstance(expr, tuple) else (expr,)


class Chain(Statement):
    """A derivation in steps. Start with an expression (equality chain) or a ``(lhs, rhs)`` pair (implications)."""

    kind = "chain"

    def __init__(self, identifier, start, *, assume=(), uses=(), expect=Verdict.PROVED, title="", paper=(), caption=""):
        self.start = _pair(f"chain({identifier!r})", start)
        self.equations = isinstance(self.start, tuple)
        self._steps: list[tuple] = []  # (expression, rule, detail or None, note)
        self._why: dict[int, str] = {}  # step index -> why it fails, when that is more than "does not hold"
        super().__init__(identifier, uses=uses, expect=expect, title=title, assume=assume, paper=paper, caption=caption)
        wellformed.check_statement(f"chain({identifier!r})", *self.assume)

    def content(self) -> tuple:
        return (self.kind, self.start, self.assume)

    @property
    def steps(self) -> tuple:
        """The steps so far, as ``(expression, rule, detail or None, note)``: added only by :meth:`step`."""
        return tuple(self._steps)

    def _unmet(self, prev, expr, rule) -> list[str]:
        """What the step needs that the chain does not give: the rule's conditions, every divisor's, and the
        chain's own assumptions at an instantiation."""
        needs = [c for c in rule.requires if c not in self.assume]
        built = [rule.puts_into(side) for side in _sides(prev)] if rule.puts_into is not None else []
        for side in (*_sides(prev), *_sides(expr), *built):
            needs += [c for c in wellformed.unmet_denominators(side, self.assume) if c not in needs]
        said = [f"needs {', '.join(sp.sstr(c) for c in needs)}, which neither the symbols' assumptions nor the "
                f"chain's assume give"] if needs else []
        for key, value in rule.instantiates.items():
            if not isinstance(key, (sp.Symbol, sp.MatrixSymbol)):
                problem = function_problem(key, value, _sides(prev))
                if problem is not None:
                    said.append(problem)
        for mapping in (rule.instantiates, *rule.instances):
            for cond in self.assume:
                if any(cond.has(key) for key in mapping):  # a symbol, or a function such as σ
                    held = evaluate_at(cond, mapping)
                    if held is sp.false:
                        said.append(f"breaks the chain's assumption {sp.sstr(cond)}, an earlier step may rest on it")
                    elif held is not sp.true and held not in self.assume:
                        said.append(f"needs {sp.sstr(held)} (the chain's assumption {sp.sstr(cond)} at the "
                                    f"instance), which the chain does not assume")
        return list(dict.fromkeys(said))

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
        if not isinstance(note, str):
            raise TypeError(f"{where}: note must be a str, got {type(note).__name__}")
        prev = self._steps[-1][0] if self._steps else self.start
        t0 = time.perf_counter()
        unmet = self._unmet(prev, expr, rule)  # the step holds only where these do
        detail = None
        if not unmet:
            try:
                with time_budget(DEFAULT_SECONDS):
                    detail = rule.check(prev, expr)
            except OutOfTime as exc:
                if exc.outer:
                    raise
                self._why[len(self._steps)] = f"was not checked: out of time after {exc.seconds:g} s"
            except (TypeError, ValueError, NotImplementedError, RecursionError, ArithmeticError,
                    sp.PolynomialError) as exc:
                said = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else ""
                self._why[len(self._steps)] = f"could not be checked ({type(exc).__name__}{': ' + said if said else ''})"
        seconds = self.evidence.seconds + time.perf_counter() - t0
        if unmet:
            self._why[len(self._steps)] = "; ".join(unmet)
        self._steps.append((expr, rule, detail, note))
        self._add_uses(rule.uses)
        failed = [k for k, s in enumerate(self._steps, 1) if s[2] is None]
        names = sorted({s[1].name for s in self._steps})
        if failed:
            why = self._why.get(failed[0] - 1, "does not hold")
            self._set(Verdict.UNPROVEN, Evidence(strategy="chain", seconds=seconds,
                                                 detail=f"step {failed[0]} ({self._steps[failed[0] - 1][1].name}) {why}"))
        else:
            count = f"{len(self._steps)} step{'s' if len(self._steps) != 1 else ''}"
            self._set(Verdict.PROVED, Evidence(strategy="chain", seconds=seconds,
                                               detail=f"{count}, each checked: {', '.join(names)}"))
        opinion.review_step(self)
        return self._settle(Verdict.PROVED)

    @property
    def conclusion(self):
        """Where the chain has got to: its last step (an equation for an implication chain), or its start."""
        return self._steps[-1][0] if self._steps else self.start

    def objects(self) -> list:
        out = []
        for e in [self.start] + [s[0] for s in self.steps]:
            out += list(e) if isinstance(e, tuple) else [e]
        return out

    def body_tex(self) -> str:
        def show(e):
            return printing.equation(*e) if self.equations else printing.latex(e)

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


def conclusions(*chains) -> tuple:
    """The conclusions of implication chains as one equation ``(lhs, rhs)``, the next step of a
    :func:`derive.rules.by` step: one chain's own, or a column of the equations of all (entry by entry).

    >>> import derive, sympy as sp
    >>> a, b = sp.symbols("a b", real=True)
    >>> one = derive.chain("doc.conclusion_a", (a * b, 0), expect=None)
    >>> conclusions(one, one)
    (Matrix([
    [a*b],
    [a*b]]), Matrix([
    [0],
    [0]]))
    """
    from .rules import _equations

    for ch in chains:
        if not isinstance(ch, Chain) or not ch.equations:
            raise TypeError(f"conclusions: needs implication chains, got {type(ch).__name__} {ch!r:.60}")
    if not chains:
        raise TypeError("conclusions: needs at least one implication chain")
    if len(chains) == 1:
        return chains[0].conclusion
    found = [eq for ch in chains for eq in _equations(ch.conclusion)]
    if any(isinstance(side, MatrixExpr) and not isinstance(side, sp.MatrixBase) for eq in found for side in eq):
        raise TypeError("conclusions: a conclusion about matrix symbols cannot be stacked with others; "
                        "use one chain per by step")
    return sp.Matrix([eq[0] for eq in found]), sp.Matrix([eq[1] for eq in found])


def chain(identifier, start, *, assume=(), uses=(), expect=Verdict.PROVED, title="", paper=(), caption="") -> Chain:
    """Begin a checked derivation at ``start``; add steps with ``.step(expr, rule)``.

    Examples
    --------
    >>> import derive, sympy as sp
    >>> a, b = sp.symbols("a b", real=True)
    >>> ch = derive.chain("doc.square", (a + b)**2).step(a**2 + 2*a*b + b**2, "expand")
    >>> ch.verdict
    <Verdict.PROVED: 'proved'>
    """
    return Chain(identifier, start, assume=assume, uses=uses, expect=expect, title=title, paper=paper, caption=caption)
