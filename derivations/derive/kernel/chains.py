"""Multi-step derivations: ``e0 = e1 = e2 …`` (or ``H0 ⟹ H1 ⟹ …``), each step naming its rule, each checked.

A chain is proved when every step is; it renders as an aligned LaTeX block with the rule and a mark per step.
"""
from __future__ import annotations

import time

import sympy as sp
from sympy.matrices.expressions import MatrixExpr

from . import opinion, printing, sums
from . import wellformed
from .validate import require_expr, require_inert_tex
from .budget import DEFAULT_SECONDS, OutOfTime, time_budget
from .claims import Statement, _same_size, written_divisors
from .describe import shorten
from .rules import as_rule
from .verdict import Evidence, Verdict
from .witness import evaluate_at, function_problem

__all__ = ["Chain", "chain", "conclusions"]


def _shape_text(shape) -> str:
    return "a scalar" if shape is None else f"{sp.sstr(shape[0])}x{sp.sstr(shape[1])}"


def _disagree(first, second) -> tuple[str, str] | None:
    """The two shapes, as text, when two expressions cannot be equal for their shapes: two matrices whose sizes
    differ, or an explicit matrix and a scalar (which SymPy cannot even subtract)."""
    one, two = (e.shape if isinstance(e, (sp.MatrixBase, MatrixExpr)) else None for e in (first, second))  # (y[1]
    # of an IndexedBase has a shape that raises)
    if one is not None and two is not None:
        if all(_same_size(p, q) for p, q in zip(one, two)):
            return None
    elif not any(isinstance(e, sp.MatrixBase) for e in (first, second)):
        return None
    return _shape_text(one), _shape_text(two)


def _pair(where, value):
    if isinstance(value, tuple):
        if len(value) != 2:
            raise ValueError(f"{where}: an equation is a (lhs, rhs) pair, got {len(value)} items")
        for side in value:
            require_expr(where, "equation side", side)
        pair = tuple(sp.sympify(v) for v in value)
        wellformed.check_statement(where, *pair)
        printing.refuse_alike_entries(where, *pair)
        shapes = _disagree(*pair)
        if shapes is not None:
            raise ValueError(f"{where}: the two sides of an equation must have the same shape, got {shapes[0]} and "
                             f"{shapes[1]}")
        return pair
    require_expr(where, "step", value)
    value = sp.sympify(value)
    wellformed.check_statement(where, value)
    printing.refuse_alike_entries(where, value)
    return value


def _sides(expr) -> tuple:
    return expr if isinstance(expr, tuple) else (expr,)


#: how long a failed step's message may spend working out what the rule gives
_GIVES_SECONDS = 5


def _swap(equation: tuple) -> tuple:
    """``(rhs, lhs)``: the same equation, read from the other side (``l = r`` holds exactly where ``r = l`` does)."""
    return equation[1], equation[0]


def _check(rule, prev, expr):
    """The rule's detail for the step ``prev → expr``, or ``None``.

    An implication step is checked up to the symmetry of equality: when the step as written does not follow, it
    is read with the sides of its equation exchanged, then with those of the previous one, then both. Each is the
    same equation as written (``l = r`` and ``r = l`` hold at the same points), so nothing more is concluded.
    An equality chain's step is an expression, not an equation: nothing in it is exchanged.
    """
    detail = rule.check(prev, expr)
    if detail is not None or not isinstance(expr, tuple):
        return detail
    for p, n, said in ((prev, _swap(expr), "its sides exchanged"), (_swap(prev), expr, "the previous sides exchanged"),
                       (_swap(prev), _swap(expr), "both sides exchanged")):
        detail = rule.check(p, n)
        if detail is not None:
            return f"{detail} ({said})"
    return None


def _line(expr, width: int = 120) -> str:
    """An expression or an equation ``(lhs, rhs)`` on one line, shortened."""
    shown = " = ".join(sp.sstr(side) for side in expr) if isinstance(expr, tuple) else sp.sstr(expr)
    return shorten(shown, width)


def _mismatch(rule, prev, expr) -> str:
    """Why a step does not hold: what the rule makes of the previous step, and what the step says instead."""
    gives = None
    if rule.gives is not None:
        try:
            with time_budget(_GIVES_SECONDS), sums.exact():
                gives = rule.gives(prev)
        except OutOfTime as exc:
            if exc.outer:
                raise
        except Exception:  # noqa: BLE001 -- only a message: a rule that cannot show what it gives says less
            gives = None
    said = f"the step says {_line(expr)}"
    if gives is not None:
        return f"does not hold: from {_line(prev)}, {rule.name} gives {_line(gives)}, but {said}"
    return f"does not hold: {said}, which {rule.name} does not give from {_line(prev)}"


class Chain(Statement):
    """A derivation in steps. Start with an expression (equality chain) or a ``(lhs, rhs)`` pair (implications)."""

    kind = "chain"

    def __init__(self, identifier, start, *, assume=(), uses=(), expect=Verdict.PROVED, title="", paper=(), caption="",
                 proves=(), premise=None):
        self.start = _pair(f"chain({identifier!r})", start)
        self.premise = _premise(f"chain({identifier!r})", premise, self.start)
        if self.premise is not None:
            uses = [*uses, self.premise.identifier]
        self.equations = isinstance(self.start, tuple)
        self._steps: list[tuple] = []  # (expression, rule, detail or None, note)
        self._why: dict[int, str] = {}  # step index -> why it fails
        super().__init__(identifier, uses=uses, expect=expect, title=title, assume=assume, paper=paper, caption=caption,
                         proves=proves)
        wellformed.check_statement(f"chain({identifier!r})", *self.assume)
        wellformed.refuse_same_names(f"chain({identifier!r})", wellformed.names_in(*self.objects(), *self.assume),
                                     wellformed.printed_constants(*self.objects(), *self.assume))
        _premise_within(f"chain({identifier!r})", self.premise, self.assume)

    def content(self) -> tuple:
        return (self.kind, self.start, self.assume)

    @property
    def steps(self) -> tuple:
        """The steps so far, as ``(expression, rule, detail or None, note)``: added only by :meth:`step`."""
        return tuple(self._steps)

    def _unmet(self, prev, expr, rule) -> list[str]:
        """What the step needs that the chain does not give: the rule's conditions, every divisor's, and the
        chain's own assumptions at an instantiation."""
        needs = [c for c in rule.requires if not wellformed.condition_met(c, self.assume)]
        built = [rule.puts_into(side) for side in _sides(prev)] if rule.puts_into is not None else []
        for side in (*_sides(prev), *_sides(expr), *built):
            needs += [c for c in wellformed.unmet_conditions(written_divisors(side), self.assume) if c not in needs]
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
        wellformed.refuse_same_names(where, wellformed.names_in(*self.objects(), *_sides(expr), *self.assume),
                                     wellformed.printed_constants(*self.objects(), *_sides(expr), *self.assume))
        rule = as_rule(rule)
        if rule.equations and not self.equations:
            raise ValueError(f"{where}: rule {rule.name} relates equations; start the chain with a (lhs, rhs) pair")
        if not isinstance(note, str):
            raise TypeError(f"{where}: note must be a str, got {type(note).__name__}")
        require_inert_tex(where, "note", note)
        require_inert_tex(where, f"the label of rule {rule.name}", rule.label)
        prev = self._steps[-1][0] if self._steps else self.start
        shapes = None if self.equations else _disagree(prev, expr)
        if shapes is not None:
            raise ValueError(f"{where}: step {len(self._steps) + 1} must have the shape of the expression before it "
                             f"(each is equal to the next), got {shapes[1]} after {shapes[0]}")
        t0 = time.perf_counter()
        unmet = self._unmet(prev, expr, rule)  # the step holds only where these do
        detail = None
        if not unmet:
            try:
                with time_budget(DEFAULT_SECONDS), sums.exact():
                    detail = _check(rule, prev, expr)
            except OutOfTime as exc:
                if exc.outer:
                    raise
                self._why[len(self._steps)] = f"was not checked: out of time after {exc.seconds:.3g} s"
            except (TypeError, ValueError, NotImplementedError, RecursionError, ArithmeticError,
                    sp.PolynomialError) as exc:
                said = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else ""
                self._why[len(self._steps)] = f"could not be checked ({type(exc).__name__}{': ' + said if said else ''})"
        if detail is None and not unmet and len(self._steps) not in self._why:
            self._why[len(self._steps)] = _mismatch(rule, prev, expr)
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
        opinion.review_step(self, seconds=DEFAULT_SECONDS - (time.perf_counter() - t0))
        return self._settle(Verdict.PROVED)

    @property
    def hypothesis(self) -> bool:
        """Whether the chain concludes from its start as from a hypothesis: an implication chain whose start no claim
        proves (no ``premise``) and whose conclusion is not a false equation between numbers (which would show the
        start false for every value: the chain then refutes it). Its conclusion holds where its start does, not
        outright.

        >>> import sympy as sp, derive
        >>> from derive import rules
        >>> a = sp.Symbol("a", real=True)
        >>> ch = derive.chain("doc.hypothesis", (a, 2 * a), expect=None).step((a**2, 4 * a**2), rules.multiply(a))
        >>> ch.hypothesis, derive.chain("doc.outright", a * (a + 1), expect=None).hypothesis
        (True, False)
        """
        if not self.equations or self.premise is not None:
            return False
        end = self.conclusion
        if all(isinstance(side, sp.Expr) and not isinstance(side, MatrixExpr) for side in end):
            gap = sp.sympify(end[0] - end[1])
            if gap.is_Number and gap != 0:
                return False
        return True

    @property
    def conclusion(self):
        """Where the chain has got to: its last step (an equation for an implication chain), or its start."""
        return self._steps[-1][0] if self._steps else self.start

    def varied(self) -> set:
        """The variables an implication chain reads its premise for all values of: those its steps instantiate, and
        those of the chains they apply (:func:`derive.rules.by`). Each line holds for all values of these; the
        others keep one value each through the chain (a step that does not instantiate holds value by value)."""
        return {k for _, rule, _, _ in self._steps for mapping in (rule.instantiates, *rule.instances)
                for k in mapping if isinstance(k, (sp.Symbol, sp.MatrixSymbol))}

    def objects(self) -> list:
        out = []
        for e in [self.start] + [s[0] for s in self.steps]:
            out += list(e) if isinstance(e, tuple) else [e]
        return out

    def body_tex(self) -> str:
        varied = self.varied()

        def show(e):  # a line holds for all values of the variables the chain instantiates: said so
            if not self.equations:
                return printing.latex(e)
            return printing.bound(e, varied, self.assume)[0] + printing.equation(*e)  # (a row of its own: its binder)

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


def _premise(where, premise, start):
    """A claim whose equation is the chain's start: the chain's conclusion then holds as far as that claim does
    (its record names it, and the audit counts the chain only where the claim is proved)."""
    if premise is None:
        return None
    if not isinstance(start, tuple):
        raise TypeError(f"{where}: only an implication chain (started from an equation) has a premise")
    if isinstance(premise, Statement) and premise.kind == "claim":
        if (premise.lhs, premise.rhs) != start:
            raise ValueError(f"{where}: premise {premise.identifier} states {sp.sstr(premise.lhs)} = "
                             f"{sp.sstr(premise.rhs)}, not the chain's start")
        return premise
    if isinstance(premise, Chain) and not premise.equations:  # an equality chain lhs - rhs = … = 0
        if premise.conclusion != 0 or sp.expand(premise.start - (start[0] - start[1])) != 0:
            raise ValueError(f"{where}: premise {premise.identifier} does not derive {sp.sstr(start[0])} - "
                             f"{sp.sstr(start[1])} = 0, the chain's start")
        return premise
    raise TypeError(f"{where}: premise must be a claim, or an equality chain ending in 0, whose equation the chain "
                    f"starts from; got {type(premise).__name__}")


def _premise_within(where, premise, assume) -> None:
    """Refuse a premise proved only under assumptions the chain does not make: the chain reads its start for every
    value its own assumptions allow (``instantiate`` puts any of them in), so a premise proved for a ≥ 0 would let
    it conclude at a = −1 what the premise never said there."""
    if premise is None:
        return
    missing = [c for c in premise.assume if not wellformed.condition_met(c, assume)]
    if missing:
        raise ValueError(f"{where}: premise {premise.identifier} holds only where "
                         f"{', '.join(sp.sstr(c) for c in missing)}, which the chain does not assume; "
                         f"assume it in the chain too")


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


def chain(identifier, start, *, assume=(), uses=(), expect=Verdict.PROVED, title="", paper=(), caption="",
          proves=(), premise=None) -> Chain:
    """Begin a checked derivation at ``start``; add steps with ``.step(expr, rule)``.

    ``premise``: the claim whose equation ``start`` is, when the chain is meant to conclude from it (not only to
    show an implication): its record names the claim, and the audit counts the chain only where that claim is
    proved.

    Examples
    --------
    >>> import derive, sympy as sp
    >>> a, b = sp.symbols("a b", real=True)
    >>> ch = derive.chain("doc.square", (a + b)**2).step(a**2 + 2*a*b + b**2, "expand")
    >>> ch.verdict
    <Verdict.PROVED: 'proved'>
    """
    return Chain(identifier, start, assume=assume, uses=uses, expect=expect, title=title, paper=paper, caption=caption,
                 proves=proves, premise=premise)
