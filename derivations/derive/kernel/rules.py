"""The inference rules a derivation step may name. One small function per rule, each checked exactly.

A rule checks one step ``prev → next`` and returns a detail string when the step holds, ``None`` when not.
Equality chains (``e0 = e1 = …``) use the rewriting rules; implication chains of equations
(``l0 = r0 ⟹ l1 = r1 ⟹ …``, written as ``(lhs, rhs)`` pairs) use :func:`instantiate`, :func:`divide`
and :func:`rearrange`, and a step may also rest on another claim with :func:`using`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import sympy as sp
from sympy.matrices.expressions import MatrixExpr

from . import printing, strategies, wellformed
from .certify import certify_nonzero
from .claims import Claim, Statement
from .verdict import Verdict
from .wellformed import bound_symbols
from .witness import closed_value_problem, components, evaluate_at, instance_problem, symbol_values, value_divisors

__all__ = [
    "Rule", "expand", "factor", "rational", "definition", "matrix_algebra", "sign_split", "select", "simplify",
    "substitute", "instantiate", "divide", "multiply", "apply", "rearrange", "using", "by", "consequence", "put",
    "absurd", "entry", "termwise", "delta_sums", "as_rule", "cases",
]


@dataclass(frozen=True)
class Rule:
    """A named rule: ``check(prev, next)`` returns a detail string or ``None``.

    ``requires`` lists the conditions the step also needs that the symbols' own assumptions do not settle (such
    as ``z ≠ 0`` to divide by a real ``z``): a chain takes such a step only when it assumes each of them itself.
    ``instantiates`` is the mapping of an instantiation: the chain's own assumptions about those variables must
    still hold at it (a chain that divided by ``w`` under ``w ≠ 0`` cannot then put ``w := 0``). ``puts_into``
    gives, for a side of the previous step, the expression the rule builds around it (``log(side)``), whose
    divisors and poles the chain checks like its own. ``gives``, for a rule that determines its next step, makes
    it from the previous one (``instantiate`` puts its values in): a failed step's message shows it beside the
    step as written. It only explains: a step is checked by ``check`` alone.
    """

    name: str
    label: str  # LaTeX (math mode): words inside \text{}
    check: Callable = field(repr=False, compare=False)
    uses: tuple[str, ...] = ()
    equations: bool = False  # True for rules between equations (implication chains)
    requires: tuple = ()
    instantiates: dict = field(default_factory=dict, compare=False)
    #: for a rule that puts each side of the previous step into an expression (``apply``): that expression, as
    #: written before SymPy evaluates it; its divisors must be nonzero where the chain holds
    puts_into: Callable | None = field(default=None, repr=False, compare=False)
    #: further instantiations the step rests on (those of the chains :func:`by` applies): the chain's own
    #: assumptions must hold at each, as at ``instantiates``
    instances: tuple = field(default=(), compare=False)
    #: what the rule makes of the previous step, when it determines the next one; for messages only
    gives: Callable | None = field(default=None, repr=False, compare=False)


def _diff(pair):
    return pair[0] - pair[1]


def _zero(expr) -> bool:
    if isinstance(expr, sp.MatrixBase):
        return all(sp.expand(e) == 0 for e in expr)
    if isinstance(expr, MatrixExpr):  # a sum of matrix expressions that cancels term by term as it is built
        return _matrix_zero(expr) or _matrix_zero(sp.expand(expr))
    return sp.expand(expr) == 0


def _matrix_zero(expr) -> bool:
    """The zero matrix as built: ``0``, a sum of zeros, or a product with the scalar factor 0 (SymPy's ``A - A``
    of a scaled product may come out as ``0·A``)."""
    if isinstance(expr, sp.ZeroMatrix) or expr == 0:
        return True
    if isinstance(expr, sp.MatAdd):
        return all(_matrix_zero(t) for t in expr.args)
    if isinstance(expr, sp.MatMul):
        return expr.as_coeff_matrices()[0] == 0
    return False


def _vanishes(rest) -> bool:
    """Whether a step's remainder is zero: as built (a zero matrix expression), or entry by entry once expanded or
    brought to one fraction (where both sides are defined)."""
    if _zero(rest):
        return True
    parts = [e for _, e in components(rest)]
    return not any(isinstance(e, MatrixExpr) for e in parts) and all(
        strategies.expand(e) or strategies.rational(e) for e in parts)


def _text(words: str) -> str:
    return r"\text{" + words.replace("_", r"\_") + "}"


def _sides(check):
    """A rewriting check applied to an equation side by side: ``l0 = r0`` becomes ``l1 = r1`` when each side is rewritten."""
    def on_either(p, n):
        if isinstance(p, tuple):
            details = [check(a, b) for a, b in zip(p, n)]
            return None if None in details else details[0]
        return check(p, n)

    return on_either


def _each(f):
    """``f`` applied to an expression, or to each side of an equation ``(lhs, rhs)``."""
    return lambda p: tuple(f(side) for side in p) if isinstance(p, tuple) else f(p)


def _rewrite(name, words, strategy, gives=None):
    def check(p, n):
        diff = p - n
        if isinstance(diff, sp.MatrixBase):  # explicit matrices: every entry by the same rule
            details = [strategy(e) for e in diff]
            return None if None in details else details[0]
        return strategy(diff)

    return Rule(name, _text(words), _sides(check), gives=_each(gives) if gives is not None else None)


expand = _rewrite("expand", "expand", strategies.expand, sp.expand)
#: a step read as factoring, checked by multiplying back out
factor = _rewrite("factor", "factor", strategies.expand, lambda e: e.applyfunc(sp.factor)
                  if isinstance(e, sp.MatrixBase) else sp.factor(e))
rational = _rewrite("rational", "cancel", strategies.rational, lambda e: e.applyfunc(sp.cancel)
                    if isinstance(e, sp.MatrixBase) else sp.cancel(e))
definition = _rewrite("definition", "definition", strategies.structural)
matrix_algebra = _rewrite("matrix-algebra", "transpose and product rules", strategies.structural)
sign_split = _rewrite("sign-split", "sign split", strategies.sign_split)


def select(*where) -> Rule:
    """Sums against Kronecker deltas evaluated, and the cases of what is left, read where ``where`` holds: each
    side of the next step equals that of the previous one (:func:`derive.kernel.strategies.piecewise_cases`).

    ``where`` are conditions on indices (``k <= r - 1``, ``Ne(i, l)``) that the chain must assume (``requires``):
    ``Σ_j u_j δ(j, k)`` is ``u_k`` only where ``0 <= k <= r - 1``. A 1×1 matrix may become its one entry.

    >>> import sympy as sp, derive
    >>> from derive import rules
    >>> r = sp.Symbol("r", integer=True, positive=True)
    >>> k, j = sp.Symbol("k", integer=True, nonnegative=True), sp.Symbol("j", integer=True)
    >>> u = sp.MatrixSymbol("u", 1, r)
    >>> picked = sp.Sum(u[0, j] * sp.KroneckerDelta(j, k), (j, 0, r - 1))
    >>> derive.chain("doc.select", (picked, 1), assume=[k <= r - 1]).step((u[0, k], 1), rules.select(k <= r - 1)).verdict
    <Verdict.PROVED: 'proved'>
    >>> derive.chain("doc.select_out", (picked, 1), expect=None).step((u[0, k], 1), rules.select()).verdict
    <Verdict.UNPROVEN: 'unproven'>
    """
    for cond in where:
        if not isinstance(cond, (sp.core.relational.Relational, sp.Ne)):
            raise TypeError(f"select: a condition is a relation between indices (k <= r - 1, Ne(i, l)), got {cond!r:.60}")
    given = tuple(where)

    def check(p, n):
        matrix = (sp.MatrixBase, MatrixExpr)
        if isinstance(p, matrix) and not isinstance(n, matrix) and p.shape == (1, 1):
            p = p[0, 0]  # a 1×1 matrix is read as its one entry
        diff = p - n
        parts = list(diff) if isinstance(diff, sp.MatrixBase) else [diff]
        details = [strategies.piecewise_cases(e, given) if not (e == 0 or isinstance(e, sp.ZeroMatrix)) else "unchanged"
                   for e in parts]
        return None if None in details else next((d for d in details if d != "unchanged"), "unchanged")

    words = "sums against Kronecker deltas, by cases"
    label = _text(words) + (r",\ " + r",\ ".join(printing.latex(c) for c in given) if given else "")
    return Rule("select", label, _sides(check), requires=given)
simplify = _rewrite("simplify", "simplify", strategies.simplify_small)


def _mapping_tex(mapping) -> str:
    return ",\\ ".join(f"{printing.latex(k if isinstance(k, sp.Basic) else sp.Symbol(k.__name__))} := {printing.latex(v)}"
                       for k, v in mapping.items())


def substitute(mapping: dict) -> Rule:
    """Replace symbols by what they were defined to be: ``next`` must equal ``prev`` with ``mapping`` applied.

    A definition is an assumption: the chain must assume ``Eq(symbol, value)`` for each pair (``requires``), so
    its statement says where it holds. Replacing a free variable by a value is no equality.

    >>> import sympy as sp, derive
    >>> from derive import rules
    >>> a, b = sp.symbols("a b", real=True)
    >>> derive.chain("doc.unsound_substitute", a, expect=None).step(0, rules.substitute({a: 0})).verdict
    <Verdict.UNPROVEN: 'unproven'>
    >>> derive.chain("doc.definition", a + b, assume=[sp.Eq(a, 2 * b)]).step(3 * b, rules.substitute({a: 2 * b})).verdict
    <Verdict.PROVED: 'proved'>
    """
    _check_mapping("substitute", mapping)
    for k in mapping:
        if not isinstance(k, sp.Symbol):
            raise TypeError(f"substitute: replaces symbols by their definitions, got the function {k!r}; "
                            f"to put a function for it, use instantiate in an implication chain")

    def check(p, n):
        if isinstance(p, tuple):
            return "substitution" if all(_zero(evaluate_at(a, mapping) - b) for a, b in zip(p, n)) else None
        return "substitution" if _zero(evaluate_at(p, mapping) - n) else None

    requires = tuple(sp.Eq(k, v) for k, v in mapping.items()) + _value_divisors(mapping)
    return Rule("substitute", _text("substitute ") + _mapping_tex(mapping), check, requires=requires,
                gives=_each(lambda side: evaluate_at(side, mapping)))


def instantiate(mapping: dict) -> Rule:
    """From an equation for all values of its variables, the instance at ``mapping`` (e.g. ``b = 1``).

    A matrix symbol is a variable too (a premise about ``x, Q, K, V`` holds for every real matrix of their shape):
    its value is a matrix of the same shape with real entries, explicit, another matrix symbol, or a
    ``FunctionMatrix`` of symbolic size (such as the selector ``a·δ(i, 0)·δ(j, 0)``).

    Only variables are instantiated. The premise of an implication chain is a hypothesis about its functions
    (``σ(a)b = σ(b)a`` for all ``a, b``, for one σ), so σ stays fixed through the chain: putting ``t**2`` for it
    would turn a hypothesis that σ = id satisfies into ``2 = 4``. A proved identity is used at a function with
    :func:`using` instead.

    >>> import sympy as sp, derive
    >>> from derive import rules
    >>> rules.instantiate({derive.sigma: sp.Lambda(sp.Symbol("t"), sp.Symbol("t")**2)})
    Traceback (most recent call last):
    ...
    ValueError: instantiate: sigma is a function, and an implication chain's premise is a hypothesis about it: only variables are instantiated (to use a proved identity at a function, rules.using(claim, {sigma: ...}))
    """
    if not isinstance(mapping, dict):
        _check_mapping("instantiate", mapping)  # raises: a mapping is a dict
    matrices = _matrix_mapping("instantiate", mapping)
    _check_mapping("instantiate", {k: v for k, v in mapping.items() if k not in matrices}, allow_empty=bool(matrices))
    for key in mapping:
        if not isinstance(key, (sp.Symbol, sp.MatrixSymbol)):
            raise ValueError(f"instantiate: {key.__name__} is a function, and an implication chain's premise is a "
                             f"hypothesis about it: only variables are instantiated (to use a proved identity at a "
                             f"function, rules.using(claim, {{{key.__name__}: ...}}))")

    def check(p, n):
        if all(evaluate_at(x, mapping) == y for x, y in zip(p, n)):
            return "instance"  # each side is the previous one with the values put in, as built
        rest = evaluate_at(_diff(p), mapping) - _diff(n)
        if _zero(rest):
            return "instance"
        parts = [e for _, e in components(rest)]  # as a fraction, where both are defined
        return "instance (cancelling as fractions)" if all(strategies.rational(e) for e in parts) else None

    return Rule("instantiate", _text("instantiate ") + _mapping_tex(mapping), check, equations=True,
                instantiates=dict(mapping), requires=_value_divisors(mapping),
                gives=_each(lambda side: evaluate_at(side, mapping)))


def divide(by) -> Rule:
    """Divide both sides by ``by``: nonzero by the symbols' assumptions, or by the chain's (``requires``).

    >>> import sympy as sp, derive
    >>> from derive import rules
    >>> w = sp.Symbol("w", real=True)
    >>> s = derive.sigma
    >>> derive.chain("doc.divide", (s(w), s(1) * w), assume=[sp.Ne(w, 0)]).step(
    ...     (s(w) / w, s(1)), rules.divide(w)).verdict
    <Verdict.PROVED: 'proved'>
    """
    wellformed.refuse_inexact("divide", by)
    if isinstance(by, sp.Basic):  # (±∞, zoo and nan are no numbers to divide by)
        wellformed.refuse_undefined("divide", by)
    if isinstance(by, (MatrixExpr, sp.MatrixBase)):  # A·J = B·J does not give A = B for a singular J
        raise TypeError(f"divide: by is a matrix ({sp.sstr(by)[:40]}); multiply by its inverse instead, "
                        "rules.multiply(M.inv(), on=...), with Q.invertible(M) assumed")
    if not isinstance(by, sp.Expr):
        raise TypeError(f"divide: by must be a SymPy expression, got {type(by).__name__}")
    if by.is_zero:
        raise ValueError(f"divide: {sp.sstr(by)} is zero")

    def check(p, n):
        rest = _diff(n) * by - _diff(p)  # rational() leaves denominator-free differences to expand()
        return "division by a nonzero factor" if _vanishes(rest) else None

    requires = () if wellformed.known_nonzero(by) else (sp.Ne(by, 0, evaluate=False),)
    return Rule("divide", _text("divide by ") + f"{printing.latex(by)} \\neq 0", check, equations=True, requires=requires,
                gives=_each(lambda side: side / by))


def multiply(by, on: str = "left") -> Rule:
    """Multiply both sides by ``by``: from ``l = r`` follows ``by·l = by·r``, for any ``by`` defined there.

    ``by`` may be a matrix (explicit, or a real matrix of symbolic size); ``on="right"`` multiplies from the right (``l·by = r·by``). No condition on
    ``by`` beyond its own divisors being nonzero (``requires``): multiplying loses solutions but never adds one,
    so the implication holds even where ``by`` is zero (or singular).

    >>> import sympy as sp, derive
    >>> from derive import rules
    >>> a, b = sp.symbols("a b", real=True)
    >>> derive.chain("doc.multiply", (a, b)).step((a * (a + b), b * (a + b)), rules.multiply(a + b)).verdict
    <Verdict.PROVED: 'proved'>
    >>> M = sp.Matrix([[1, a], [0, 1]])
    >>> derive.chain("doc.multiply_right", (sp.Matrix([[a, b]]), sp.Matrix([[1, 2]]))).step(
    ...     (sp.Matrix([[a, a**2 + b]]), sp.Matrix([[1, a + 2]])), rules.multiply(M, on="right")).verdict
    <Verdict.PROVED: 'proved'>
    """
    wellformed.refuse_inexact("multiply", by)
    if isinstance(by, int) and not isinstance(by, bool):
        by = sp.Integer(by)
    if isinstance(by, sp.Basic):  # (nor to multiply by)
        wellformed.refuse_undefined("multiply", by)
    if isinstance(by, sp.MatrixBase):
        by = sp.ImmutableMatrix(by)
        if not by.shape[0] or not by.shape[1]:
            raise ValueError("multiply: by is an empty matrix")
    elif isinstance(by, MatrixExpr):  # a matrix of symbolic size: a real one (a matrix symbol, a FunctionMatrix …)
        problem = _real_matrix_problem("by", by, by)
        if problem is not None:
            raise TypeError(f"multiply: {problem}")
    elif not isinstance(by, sp.Expr):
        raise TypeError(f"multiply: by must be a SymPy expression or a matrix, got {type(by).__name__}")
    if on not in ("left", "right"):
        raise ValueError(f"multiply: on must be \"left\" or \"right\", got {on!r}")

    def check(p, n):
        rest = _diff(n) - (_diff(p) * by if on == "right" else by * _diff(p))
        if _vanishes(rest):
            return "multiplication of both sides"
        return None

    requires = tuple(wellformed.unmet_denominators(by))
    where = _text(" on the right") if on == "right" else ""
    return Rule("multiply", _text("multiply by ") + printing.latex(by) + where, check, equations=True, requires=requires,
                gives=_each(lambda side: side * by if on == "right" else by * side))


def apply(f) -> Rule:
    """Apply one function to both sides: from ``l = r`` follows ``f(l) = f(r)`` (``next`` must be exactly that).

    ``f`` is a SymPy function such as ``sp.log`` or a one-variable ``Lambda``. The step holds only where ``f`` is
    defined at both sides: every divisor and pole of ``f(l)`` and ``f(r)``, as written before SymPy evaluates them,
    must be nonzero, by the symbols' assumptions or the chain's (``log`` needs its argument nonzero).

    >>> import sympy as sp, derive
    >>> from derive import rules
    >>> m = sp.Symbol("m", real=True)
    >>> derive.chain("doc.apply", (sp.exp(-1), sp.exp(-m))).step((-1, -m), rules.apply(sp.log)).verdict
    <Verdict.PROVED: 'proved'>
    >>> derive.chain("doc.apply_pole", (m, 2 * m), expect=None).step((1 / m, 1 / (2 * m)), rules.apply(
    ...     sp.Lambda(sp.Symbol("t"), 1 / sp.Symbol("t")))).verdict
    <Verdict.UNPROVEN: 'unproven'>
    """
    if isinstance(f, sp.Lambda):
        if len(f.variables) != 1:
            raise ValueError(f"apply: needs a function of one variable, got a Lambda of {len(f.variables)}")
        wellformed.refuse_inexact("apply", f.expr)
        variable = f.variables[0]

        def unevaluated(x):
            with sp.evaluate(False):
                return f.expr.xreplace({variable: x})
        name = printing.latex(f)
    elif isinstance(f, sp.FunctionClass) and issubclass(f, sp.Function):
        try:
            f(sp.Dummy("u"), evaluate=False)
        except (TypeError, ValueError, AttributeError, IndexError):
            raise ValueError(f"apply: {f.__name__} is not a function of one expression") from None

        def unevaluated(x):
            return f(x, evaluate=False)
        name = printing.latex(sp.Symbol(f.__name__))
    else:
        raise TypeError(f"apply: needs a SymPy function (such as sp.log) or a one-variable Lambda, got "
                        f"{type(f).__name__} {f!r:.60}")

    def check(p, n):
        held = set().union(*[sp.sympify(x).free_symbols for x in p]) if isinstance(f, sp.Lambda) else set()
        caught = sorted(bound_symbols(f.expr) & held, key=str) if held else []
        if caught:  # the body binds a symbol of the sides: applying it would capture that symbol
            raise ValueError(f"applying {sp.sstr(f)[:60]} would capture {caught[0]}, which its body binds and the sides "
                             f"hold; name the body's variable apart")
        put = [sp.sympify(f(before)) for before in p]
        wellformed.refuse_inexact("apply", put)  # a function class may evaluate to a float at some argument
        if all(_zero(value - after) for value, after in zip(put, n)):
            return f"{name} of both sides"
        entries = wellformed.real_entries(*p, *n)  # log(exp(M_ik)) is M_ik: an entry of a matrix symbol is real
        if entries and all(_zero(sp.sympify(f(sp.sympify(before).xreplace(entries))) - sp.sympify(after).xreplace(entries))
                           for before, after in zip(p, n)):
            return f"{name} of both sides"
        return None

    return Rule("apply", _text("apply ") + name + _text(" to both sides"), check, equations=True,
                puts_into=unevaluated, gives=_each(lambda side: sp.sympify(f(side))))


def rearrange() -> Rule:
    """The same equation with terms moved across (the differences agree up to sign)."""

    def check(p, n):
        dp, dn = _diff(p), _diff(n)
        return "rearrangement" if _zero(dp - dn) or _zero(dp + dn) else None

    return Rule("rearrange", _text("rearrange"), check, equations=True)


def using(claim, mapping: dict | None = None) -> Rule:
    """A step that applies an already proved claim (at ``mapping``): ``prev - next`` is its ``lhs - rhs``.

    The claim's assumptions, at ``mapping``, must hold: by the symbols' assumptions, or by the chain's own
    (``requires``). For equation steps, the new equation must follow from the old one and the claim by adding the claim's
    identity: ``(l1 - r1) - (l0 - r0)`` equals ``±(lhs - rhs)`` of the claim.
    """
    if not isinstance(claim, Claim):
        raise TypeError(f"using: needs a proved Claim (an identity lhs = rhs), got {type(claim).__name__} {claim!r:.60}")
    if mapping is not None and not isinstance(mapping, dict):
        raise TypeError(f"using: mapping must be a dict of symbol -> value, got {type(mapping).__name__}")
    mapping = dict(mapping or {})
    _check_mapping("using", mapping, allow_empty=True, applied_in=claim.difference)
    requires = []
    for cond in getattr(claim, "assume", ()):  # the claim holds only where its assumptions do
        held = evaluate_at(cond, mapping)
        if held is sp.false:
            raise ValueError(f"using: {claim.identifier} assumes {sp.sstr(cond)}, which fails here (it becomes False)")
        if held is not sp.true:
            requires.append(held)

    def check(p, n):
        if claim.verdict is not Verdict.PROVED:
            return None
        known = evaluate_at(claim.difference, mapping)
        step = (_diff(n) - _diff(p)) if isinstance(p, tuple) else (p - n)
        return f"by {claim.identifier}" if _zero(step - known) or _zero(step + known) else None

    where = (_text(" at ") + _mapping_tex(mapping)) if mapping else ""
    requires += [c for c in _value_divisors(mapping, (claim.lhs, claim.rhs, *claim.assume)) if c not in requires]
    return Rule("using", _text(f"by {claim.identifier}") + where, check,
                uses=(claim.identifier,), requires=tuple(requires))


def _equations(pair) -> list:
    """The scalar equations of an equation ``(lhs, rhs)``: entry by entry for explicit matrices."""
    lhs, rhs = pair
    if isinstance(lhs, sp.MatrixBase) and isinstance(rhs, sp.MatrixBase) and lhs.shape == rhs.shape:
        return list(zip(lhs, rhs))
    return [(lhs, rhs)]


def _same_equation(a, b) -> bool:
    """Two equations with sides of one kind and shape that expand to the same."""
    for x, y in zip(a, b):
        if isinstance(x, sp.MatrixBase) or isinstance(y, sp.MatrixBase):
            if not (isinstance(x, sp.MatrixBase) and isinstance(y, sp.MatrixBase) and x.shape == y.shape):
                return False
        elif isinstance(x, sp.MatrixExpr) or isinstance(y, sp.MatrixExpr):
            if x != y:
                return False
            continue
        if not _zero(x - y):
            return False
    return True


def _instances(chain) -> tuple:
    """Every instantiation a chain's steps make, its own and those of the chains it applies."""
    out = []
    for _, rule, _, _ in chain.steps:
        if rule.instantiates:
            out.append(dict(rule.instantiates))
        out += list(rule.instances)
    return tuple(out)


def by(*chains, unless_zero=()) -> Rule:
    """Modus ponens with proved implication chains: from their premise, their conclusions.

    Each chain's premise (its start) must be the current equation or one of its entries, and the next equation
    must list the chains' conclusions (their last steps), entry by entry, in order: one chain's conclusion, or a
    column of several. Each chain holds where its assumptions do, so the chain taking this step must assume them
    too (``requires``), and it reads its premise for all values of the variables they instantiate (``instances``).

    ``unless_zero``: symbols ``x`` (or entries ``M[i, k]`` of matrix symbols) for which a chain may assume ``x ≠ 0`` that this one does not: the conclusions
    must then hold identically at ``x = 0`` (checked), so they hold whether ``x`` is zero or not.

    >>> import sympy as sp, derive
    >>> from derive import rules
    >>> a, m = sp.symbols("a m", real=True)
    >>> s = derive.sigma
    >>> one = derive.chain("doc.by_one", (s(a) * m, s(1) * m), assume=[sp.Ne(m, 0)]).step(
    ...     (s(a), s(1)), rules.divide(m))
    >>> both = derive.chain("doc.by", (s(a) * m, s(1) * m), expect=None).step(
    ...     (m * s(a), m * s(1)), rules.by(one, unless_zero=[m]))
    >>> both.verdict.value  # the conclusion s(a) = s(1) does not hold at m = 0
    'unproven'
    """
    if not chains:
        raise TypeError("by: needs at least one proved implication chain")
    for ch in chains:
        if not isinstance(ch, Statement) or ch.kind != "chain" or not ch.equations:
            raise TypeError(f"by: needs implication chains (started from an equation), got {type(ch).__name__} "
                            f"{ch!r:.60}")
    if (isinstance(unless_zero, sp.Basic) or not isinstance(unless_zero, (list, tuple, set))
            or not all(isinstance(x, sp.Symbol) or _entry_of_symbol(x) for x in unless_zero)):
        raise TypeError(f"by: unless_zero must be a list of symbols (or entries of matrix symbols), got {unless_zero!r:.60}")
    # the chains as they are now: their steps, conclusions and instantiations are what this step rests on
    taken = [(ch, len(ch.steps), ch.conclusion) for ch in chains]
    splits = tuple(unless_zero)

    def split_off(cond) -> bool:
        return isinstance(cond, sp.Ne) and any(_zero(cond.lhs - cond.rhs - x) or _zero(cond.lhs - cond.rhs + x)
                                               for x in splits)

    requires = []
    for ch in chains:
        requires += [c for c in ch.assume if not split_off(c) and c not in requires]

    def check(p, n):
        here = _equations(p)
        found = []
        for ch, steps, conclusion in taken:
            if ch.verdict is not Verdict.PROVED or not steps or len(ch.steps) != steps:
                return None  # not proved, or changed since the rule was made
            if not any(_same_equation(ch.start, eq) for eq in [p, *here]):
                return None
            found += _equations(conclusion)
        told = _equations(n)
        if len(told) != len(found) or not all(_same_equation(a, b) for a, b in zip(told, found)):
            return None
        for x in splits:  # the case x = 0 holds by itself (for all values of everything else, x's aliases too)
            if not isinstance(x, sp.Symbol) and _binds_any(x.free_symbols, *[s for eq in found for s in eq]):
                return None  # the entry's index is bound somewhere there: xreplace would zero other entries too
            if not all(_zero(evaluate_at(_diff(eq), {x: sp.Integer(0)}) if isinstance(x, sp.Symbol)
                             else _diff(eq).xreplace({x: sp.Integer(0)})) for eq in found):
                return None
        names = ", ".join(ch.identifier for ch in chains)
        return f"by {names}" + (f" (and where {', '.join(map(str, splits))} = 0, as such)" if splits else "")

    names = [ch.identifier for ch in chains]
    label = _text("by " + (", ".join(names) if len(names) <= 2 else f"{len(names)} chains, {names[0]} … {names[-1]}"))
    if splits:
        label += _text(", also where ") + r",\ ".join(printing.latex(x) for x in splits) + _text(" = 0")
    instances = tuple(m for ch in chains for m in _instances(ch))
    varied = sorted({k for m in instances for k in m if isinstance(k, sp.Symbol)}, key=sp.default_sort_key)
    if varied:  # the premise is read for all values of these: say so where the step is shown
        label += _text(", the premise for all ") + r",\ ".join(printing.latex(k) for k in varied)
    def gives(p):  # the chains' conclusions, one, or a column of all
        found = [eq for _, _, conclusion in taken for eq in _equations(conclusion)]
        return found[0] if len(found) == 1 else (sp.Matrix([e[0] for e in found]), sp.Matrix([e[1] for e in found]))

    return Rule("by", label, check, uses=tuple(ch.identifier for ch in chains), equations=True,
                requires=tuple(requires), instances=instances, gives=gives)


def _binds_any(symbols, *exprs) -> bool:
    """Whether some part of ``exprs`` (a sum, a Lambda …) binds one of ``symbols``."""

    return any(isinstance(e, sp.Basic) and bound_symbols(e) & set(symbols) for e in exprs)


def _entry_of_symbol(x) -> bool:
    """An entry ``M[i, k]`` of a matrix symbol: a real variable, like a symbol."""
    from sympy.matrices.expressions.matexpr import MatrixElement

    return isinstance(x, MatrixElement) and isinstance(x.parent, sp.MatrixSymbol)


def consequence() -> Rule:
    """A polynomial consequence: the next equation's difference lies in the ideal that the differences of the
    current equation's entries generate over ℚ (a Gröbner basis reduces it to zero), so it holds wherever they do.

    >>> import sympy as sp, derive
    >>> from derive import rules
    >>> a, b, c = sp.symbols("a b c", real=True)
    >>> derive.chain("doc.consequence", (sp.Matrix([a * b, b * c]), sp.zeros(2, 1))).step(
    ...     (a * b * c + b * c**2, 0), rules.consequence()).verdict
    <Verdict.PROVED: 'proved'>
    """

    def check(p, n):
        given = [sp.expand(_diff(eq)) for eq in _equations(p)]
        wanted = [sp.expand(_diff(eq)) for eq in _equations(n)]
        symbols = sorted(set().union(*[e.free_symbols for e in given + wanted]), key=sp.default_sort_key)
        if not symbols:
            return None
        try:
            for e in given + wanted:
                if not e.is_polynomial(*symbols) or not all(c.is_Rational for c in sp.Poly(e, *symbols).coeffs()):
                    return None  # only polynomials with rational coefficients
        except sp.polys.polyerrors.BasePolynomialError:
            return None  # not a polynomial in its symbols (a matrix symbol, say)
        basis = sp.groebner([g for g in given if g != 0] or [sp.Integer(0)], *symbols, order="grevlex", domain=sp.QQ)
        return "ideal membership (a Gröbner basis reduces it to 0)" if all(basis.contains(w) for w in wanted) else None

    return Rule("consequence", _text("polynomial consequence"), check, equations=True)


def put(mapping: dict) -> Rule:
    """Put values the current equation gives: with entries ``x = v`` among its equations, each equation of the
    next step must be one of the current ones with ``mapping`` applied (``x := v`` for those entries).

    >>> import sympy as sp, derive
    >>> from derive import rules
    >>> a, b = sp.symbols("a b", real=True)
    >>> s = derive.sigma
    >>> derive.chain("doc.put", (sp.Matrix([a, s(a - b)]), sp.Matrix([1, s(b)]))).step(
    ...     (s(1 - b), s(b)), rules.put({a: 1})).verdict
    <Verdict.PROVED: 'proved'>
    """
    if not isinstance(mapping, dict):
        _check_mapping("put", mapping)  # raises: a mapping is a dict
    entries = {k: v for k, v in mapping.items() if _entry_of_symbol(k)}
    _check_mapping("put", {k: v for k, v in mapping.items() if k not in entries}, allow_empty=bool(entries))
    for k in mapping:
        if not isinstance(k, sp.Symbol) and k not in entries:
            raise TypeError(f"put: puts values of symbols (or entries of matrix symbols), got the function {k!r}")
    wellformed.refuse_inexact("put", list(entries.values()))
    for k, v in entries.items():
        problem = closed_value_problem(v)
        if problem is not None:
            raise ValueError(f"put: {k} := {problem}")

    def value_put(side):  # each entry replaced as a whole: the equations say it has that value
        value = evaluate_at(side, {k: v for k, v in mapping.items() if k not in entries})
        return sp.sympify(value).xreplace(entries) if entries else value

    def check(p, n):
        here = _equations(p)
        if entries and _binds_any(set().union(*[k.free_symbols for k in entries]), *p, *n):
            return None  # an entry's index is also bound in the step (a sum over it): M[i, 0] there is another entry
        for k, v in mapping.items():
            if not any(_same_equation(eq, (k, v)) or _same_equation(eq, (v, k)) for eq in here):
                return None  # the current equation does not say k = v
        put_in = [tuple(value_put(side) for side in eq) for eq in here]
        if all(any(_same_equation(eq, known) for known in put_in) for eq in _equations(n)):
            return "putting the values the equations give"
        return None

    return Rule("put", _text("put ") + _mapping_tex(mapping), check, equations=True, requires=_value_divisors(mapping),
                gives=_each(value_put))


def absurd() -> Rule:
    """Any equation follows from a false one: an entry of the current equation between two numbers whose
    difference is certified nonzero (exactly, or by ``arb``) shows that the premises cannot all hold.

    >>> import sympy as sp, derive
    >>> from derive import rules
    >>> a, b = sp.symbols("a b", real=True)
    >>> derive.chain("doc.absurd", (sp.Matrix([a * b, sp.exp(1)]), sp.Matrix([b, 3]))).step(
    ...     (a, 0), rules.absurd()).verdict
    <Verdict.PROVED: 'proved'>
    """
    def check(p, n):
        for eq in _equations(p):
            d = sp.sympify(_diff(eq))
            if isinstance(d, sp.Expr) and not d.free_symbols and not d.atoms(sp.core.function.AppliedUndef):
                cert = certify_nonzero(d)
                if cert is not None:
                    return f"the previous equation is false: {sp.sstr(eq[0])} = {sp.sstr(eq[1])} ({cert.describe()})"
        return None

    return Rule("absurd", _text("from a false equation"), check, equations=True)


def _exactly(symbol, **assumptions) -> bool:
    """Whether ``symbol`` is a symbol whose assumptions are exactly those given (``positive=True``: every
    positive real, not only the positive integers)."""
    return isinstance(symbol, sp.Symbol) and symbol.assumptions0 == sp.Symbol(symbol.name, **assumptions).assumptions0


def cases(z, over) -> Rule:
    """Every real ``z`` is one of a few cases: from equations for all values of ``over``, the next equation for
    every real ``z``.

    ``over`` positive (``p > 0``): ``z = p``, ``z = -p`` or ``z = 0``; ``over`` nonzero (``w ≠ 0``): ``z = w`` or
    ``z = 0``. The next equation, read at each case (``z := p``, ``z := -p``, ``z := 0``), must be one of the
    current equations (or entries): those hold for all values of ``over``, so the next one holds for every ``z``.
    ``z`` is a real symbol that the current equation does not contain; ``over`` has no assumption beyond its sign
    (a positive integer would cover only the integers); the chain's assumptions about ``over`` must hold at ``z``.

    >>> import sympy as sp, derive
    >>> from derive import rules
    >>> p, z = derive.positive("p"), derive.real("z")
    >>> s = derive.sigma
    >>> derive.chain("doc.cases", (sp.Matrix([s(p), s(-p), s(0)]), sp.Matrix([2 * p, 3 * p, 0]))).step(
    ...     (s(z), 2 * sp.Max(z, 0) - 3 * sp.Min(z, 0)), rules.cases(z, p)).verdict
    <Verdict.PROVED: 'proved'>
    """
    if not (isinstance(z, sp.Symbol) and z.is_real):
        raise TypeError(f"cases: z must be a real symbol (every real z is one of the cases), got {z!r:.60}")
    if _exactly(over, positive=True):
        values, sign = (over, -over, sp.Integer(0)), r" > 0"
    elif _exactly(over, real=True, nonzero=True):
        values, sign = (over, sp.Integer(0)), r" \neq 0"
    else:
        raise TypeError(f"cases: over must be a symbol that is exactly positive (derive.positive) or exactly nonzero "
                        f"(derive.nonzero), with no other assumption, got {over!r:.60}")
    if over == z or over.name == z.name:
        raise ValueError(f"cases: z and over must be two symbols, got {z} twice")

    def check(p, n):
        here = _equations(p)
        if any(z in sp.sympify(side).free_symbols for eq in here for side in eq):
            return None  # z must be new: the current equations say nothing about it
        if any(over in sp.sympify(side).free_symbols for side in n):
            return None  # each case fixes over to ±z: the next equation cannot hold for every over as well
        for eq in _equations(n):
            for value in values:
                at = tuple(evaluate_at(side, {z: value}) for side in eq)
                if not any(_same_equation(at, known) for known in here):
                    return None
        return "every real " + sp.sstr(z) + " is one of the cases " + ", ".join(sp.sstr(v) for v in values)

    label = (_text("by cases: every real ") + printing.latex(z) + _text(" is ") + r",\ ".join(map(sp.latex, values[:-1]))
             + _text(" or ") + "0" + r"\ (" + printing.latex(over) + sign + ")")
    # the step reads the current equations at over := z and over := -z: the chain's assumptions about over must
    # hold there (and the second opinion takes those instances)
    negative = ({over: -z},) if len(values) == 3 else ()
    return Rule("cases", label, check, equations=True, instantiates={over: z}, instances=negative)


def _same_shape(u, v) -> bool:
    return len(u) == len(v) and all(sp.expand(sp.sympify(x) - sp.sympify(y)) == 0 for x, y in zip(u, v))


def _matrix_value_problem(key, value, sizes) -> str | None:
    """Why ``value`` is no instance of the matrix variable ``key`` (a real matrix of its shape); ``None`` if it is.

    ``sizes``: the mapping's values of symbols, put into ``key``'s shape as they are put into everything else but
    the values themselves (``{n: 2, A: B}`` makes ``A`` a 2 x 2 matrix, which an n x n ``B`` is not).
    """
    name = sp.sstr(key)
    if not isinstance(value, (sp.MatrixBase, MatrixExpr)):
        return f"{name} := {value!r:.60} is not a matrix"
    shape = tuple(sp.sympify(size).xreplace(sizes) for size in key.shape)
    if not _same_shape(value.shape, shape):
        at = f" at this instance ({name} is {sp.sstr(key.shape)})" if shape != key.shape else ""
        return f"{name} := {sp.sstr(value)[:60]} has shape {sp.sstr(value.shape)}, {name} has shape {sp.sstr(shape)}{at}"
    return _real_matrix_problem(name, value, value)


def _real_matrix_problem(name, value, part) -> str | None:
    """Why ``part`` (of the value given for ``name``) is not known to be a real matrix; ``None`` if it is: an
    explicit matrix or a ``FunctionMatrix`` with real entries, a matrix symbol, or a product, sum, transpose or
    inverse of such matrices and real numbers."""
    wellformed.refuse_inexact(f"instance of {name}", part if isinstance(part, sp.MatrixBase) else
                              getattr(part, "lamda", part))
    if isinstance(part, sp.MatrixBase):
        entries = list(part)
    elif isinstance(part, sp.MatrixSymbol):
        entries = []  # a matrix symbol stands for a real matrix
    elif isinstance(part, sp.FunctionMatrix) and isinstance(part.lamda, sp.Lambda) and len(part.lamda.variables) == 2:
        i, j = sp.symbols("i j", integer=True, nonnegative=True, cls=sp.Dummy)
        entries = [part.lamda(i, j)]
    elif isinstance(part, (sp.MatMul, sp.MatAdd, sp.Transpose, sp.Inverse)):  # an inverse where it exists (the
        # step requires its matrix invertible: the values' divisors)
        entries = []
        for arg in part.args:
            if isinstance(arg, (sp.MatrixBase, MatrixExpr)):
                problem = _real_matrix_problem(name, value, arg)
                if problem is not None:
                    return problem
            else:
                entries.append(arg)  # a scalar factor
    else:
        return (f"{name} := {sp.sstr(value)[:60]}: give an explicit matrix, a matrix symbol, a FunctionMatrix "
                f"of two indices, or products, sums and transposes of them")
    for e in entries:
        if not (isinstance(e, sp.Expr) and wellformed.real(e)):
            return f"{name} := {sp.sstr(value)[:60]} has the entry {sp.sstr(e)[:40]}, not known to be real"
    return None


def _matrix_mapping(where, mapping) -> set:
    """The matrix symbols among the keys of ``mapping``, each checked to be given a real matrix of its shape."""
    if not isinstance(mapping, dict):
        return set()
    keys = {k for k in mapping if isinstance(k, sp.MatrixSymbol)}
    sizes = symbol_values(mapping)
    for k in sorted(keys, key=sp.default_sort_key):
        problem = _matrix_value_problem(k, mapping[k], sizes)
        if problem is not None:
            raise ValueError(f"{where}: {problem}")
    return keys


def _inside(i, size) -> bool:
    """``0 <= i < size`` by the assumptions of the size's symbols: an index read only where the matrix has it."""
    size = sp.sympify(size)
    return size.is_integer is True and (size - 1 - i).is_nonnegative is True


def _without_one(term, delta):
    """``term`` divided by one factor ``delta`` it has (``δ`` or a power of it), else ``None``."""
    factors = list(sp.Mul.make_args(term))
    for k, f in enumerate(factors):
        if f == delta:
            return sp.Mul(*(factors[:k] + factors[k + 1:]))
        if isinstance(f, sp.Pow) and f.base == delta and f.exp.is_Integer and f.exp > 1:
            return sp.Mul(*(factors[:k] + [delta ** (f.exp - 1)] + factors[k + 1:]))
    return None


def _delta_outside(body, t):
    """A ``Piecewise`` summand every branch of which has one factor ``δ(t, c)`` in each of its terms, written as
    ``δ(t, c)·Piecewise(…)``: where ``δ`` is 0 every branch is 0, where it is 1 the branches are unchanged (σ of a
    one-unit layer's gate input, ``σ(a δ(j, 0))``, with σ a ``Piecewise``). Anything else is returned as it is."""
    if not isinstance(body, sp.Piecewise):
        return body
    first = sp.Add.make_args(sp.expand(body.args[0].expr))[0]
    for f in sp.Mul.make_args(first):
        delta = f.base if isinstance(f, sp.Pow) else f
        if not (isinstance(delta, sp.KroneckerDelta) and delta.has(t)):
            continue
        branches = []
        for e, cond in body.args:
            parts = [_without_one(term, delta) for term in sp.Add.make_args(sp.expand(e))]
            if any(p is None for p in parts):
                break
            branches.append((sp.Add(*parts), cond))
        else:
            return delta * sp.Piecewise(*branches)
    return body


def _delta_term(term, t, lo, hi):
    """``Σ_{t=lo}^{hi} term`` for one product term, when a factor ``δ(t, c)`` picks ``t = c`` inside the range (or
    ``term`` does not depend on ``t``); ``None`` otherwise."""
    if not term.has(t):
        return term * (hi - lo + 1)  # also for a reversed range, by Karr's convention: -(lo - 1 - hi) terms
    bound = bound_symbols(term)
    if t in bound:
        return None  # a part binds t again: putting a value for it there would change that part
    for f in sp.Mul.make_args(term):
        base = f.base if isinstance(f, sp.Pow) and f.exp.is_Integer and f.exp > 0 else f
        if not isinstance(base, sp.KroneckerDelta) or len(base.args) != 2:  # (δ over a range of its own: not read)
            continue
        for this, other in (base.args, base.args[::-1]):
            if this == t and not other.has(t) and other.is_integer is True and not other.free_symbols & bound \
                    and (other - lo).is_nonnegative is True and (hi - other).is_nonnegative is True:
                return term.xreplace({t: other})  # every other term of the range is zero; captures nothing bound
    return None


def delta_sums(expr):
    """``expr`` with every finite sum evaluated where Kronecker deltas select one term of it, innermost first:
    ``Σ_{t=lo}^{hi} f(t) δ(t, c) = f(c)`` when ``lo <= c <= hi`` follows from the symbols' assumptions (an integer
    ``c``), and a summand free of ``t`` counts ``hi - lo + 1`` times. ``None`` when a sum is left.

    >>> import sympy as sp
    >>> k = sp.Symbol("k", integer=True)
    >>> d = sp.Symbol("d", integer=True, positive=True)
    >>> f = sp.Function("f")
    >>> delta_sums(sp.Sum(f(k) * sp.KroneckerDelta(k, 0), (k, 0, d - 1)))
    f(0)
    >>> delta_sums(sp.Sum(f(k) * sp.KroneckerDelta(k, 0), (k, 0, d - 2))) is None  # d - 2 may be -1: no term 0
    True
    """
    if not isinstance(expr, sp.Basic) or expr.is_Atom:
        return expr
    args = []
    for arg in expr.args:
        done = delta_sums(arg)
        if done is None:
            return None
        args.append(done)
    if not isinstance(expr, sp.Sum):
        return expr.func(*args) if args != list(expr.args) else expr
    body, limits = args[0], args[1:]
    if len(limits) != 1 or len(limits[0]) != 3:
        return None
    t, lo, hi = limits[0]
    if lo.has(t) or hi.has(t) or not (lo.is_integer and hi.is_integer):
        return None
    out = []
    for term in sp.Add.make_args(_delta_outside(sp.expand(body), t)):
        picked = _delta_term(term, t, lo, hi)
        if picked is None:
            return None
        out.append(picked)
    return sp.Add(*out)


def entry(i: int = 0, j: int = 0) -> Rule:
    """From an equation between matrices, the equation of their entries ``(i, j)``, finite sums evaluated where
    Kronecker deltas select one term (:func:`delta_sums`).

    The entry must exist: ``i`` below the number of rows and ``j`` below the number of columns by the symbols'
    assumptions (a ``1×n`` matrix has no entry ``(0, 0)`` when ``n`` may be 0, and an empty equation says nothing).

    >>> import sympy as sp, derive
    >>> from derive import rules
    >>> n = sp.Symbol("n", integer=True, positive=True)
    >>> A, B = sp.MatrixSymbol("A", 1, n), sp.MatrixSymbol("B", 1, n)
    >>> derive.chain("doc.entry", (A, B)).step((A[0, 0], B[0, 0]), rules.entry(0, 0)).verdict
    <Verdict.PROVED: 'proved'>
    """
    for name, k in (("i", i), ("j", j)):
        if isinstance(k, bool) or not isinstance(k, (int, sp.Integer)) or k < 0:
            raise TypeError(f"entry: {name} must be a nonnegative int, got {k!r}")
    i, j = int(i), int(j)

    def check(p, n):
        sides = []
        for side in p:
            if not isinstance(side, (sp.MatrixBase, MatrixExpr)):
                raise ValueError(f"entry: {sp.sstr(side)[:60]} is not a matrix")
            rows, cols = side.shape
            if not (_inside(i, rows) and _inside(j, cols)):
                raise ValueError(f"entry: a {sp.sstr(rows)}x{sp.sstr(cols)} matrix may have no entry ({i}, {j}) "
                                 f"(its size may be 0 or too small, by the symbols' assumptions)")
            value = delta_sums(side[i, j])
            if value is None:
                return None
            sides.append(value)
        if all(_zero(v - w) for v, w in zip(sides, n)):
            return f"entry ({i}, {j}) of both sides"
        return None

    return Rule("entry", _text(f"entry ({i + 1}, {j + 1}) of both sides"), check, equations=True)


def _canonical_bound(expr, names: dict):
    """``expr`` with the variables of every sum renamed by their depth (innermost 0) and place, to dummies shared
    through ``names``: sums that differ only in the names of their indices become one expression."""
    if not isinstance(expr, sp.Basic) or expr.is_Atom:
        return expr, 0
    parts = [_canonical_bound(a, names) for a in expr.args]
    args = [a for a, _ in parts]
    depth = max([lv for _, lv in parts], default=0)
    if not isinstance(expr, sp.Sum):
        return (expr.func(*args) if args != list(expr.args) else expr), depth
    body, limits = args[0], args[1:]
    variables = [lim[0] for lim in limits]
    if any(len(lim) != 3 for lim in limits) or any(e.has(*variables) for lim in limits for e in lim[1:]):
        raise ValueError("a sum whose limits depend on its own indices")
    rename = {v: names.setdefault((depth, k), sp.Dummy(f"s{depth}_{k}", integer=True)) for k, v in enumerate(variables)}
    if len(set(rename.values())) != len(rename) or any(body.has(r) and r not in variables for r in rename.values()):
        raise ValueError("summation indices that cannot be renamed apart")
    return sp.Sum(body.xreplace(rename), *[(rename[lim[0]], lim[1], lim[2]) for lim in limits]), depth + 1


def _polynomial_atoms(expr, table: dict):
    """``expr`` as a polynomial: every part that is not a sum, product or integer power of parts (an application
    of σ, a matrix entry, a finite sum, a constant such as π) replaced by one fresh symbol per distinct part."""
    if isinstance(expr, (sp.Symbol, sp.Rational)):
        return expr
    if isinstance(expr, (sp.Add, sp.Mul)):
        return expr.func(*[_polynomial_atoms(a, table) for a in expr.args])
    if isinstance(expr, sp.Pow) and expr.exp.is_Integer:
        return _polynomial_atoms(expr.base, table) ** expr.exp
    if expr not in table:
        table[expr] = sp.Dummy(f"g{len(table)}")
    return table[expr]


def _in_ideal(target, generators) -> bool:
    """``target`` is ``Σ_k q_k·g_k`` with polynomials ``q_k`` in its parts (numerators, over ℚ): zero wherever every
    ``g_k`` is zero and its denominator is not."""
    table: dict = {}
    gens = [sp.fraction(sp.together(_polynomial_atoms(g, table)))[0] for g in generators]
    num = sp.fraction(sp.together(_polynomial_atoms(target, table)))[0]
    gens = [sp.expand(g) for g in gens if sp.expand(g) != 0]
    num = sp.expand(num)
    if num == 0:
        return True
    if not gens:
        return False
    symbols = sorted(set().union(num.free_symbols, *[g.free_symbols for g in gens]), key=sp.default_sort_key)
    for e in [num, *gens]:
        if not all(c.is_Rational for c in sp.Poly(e, *symbols).coeffs()):
            return False
    basis = sp.groebner(gens, *symbols, order="grevlex", domain=sp.QQ)
    return basis.contains(num)


def _sum_groups(expr, index):
    """The terms of ``expr`` (each a multiple of one finite sum over one index) as ``{(lo, hi): summand}``, each
    group's summands added with their indices renamed to ``index``; ``None`` when a term is no such multiple."""
    groups: dict = {}
    for term in sp.Add.make_args(expr):
        if term == 0:
            continue
        sums = [f for f in sp.Mul.make_args(term) if isinstance(f, sp.Sum)]
        if len(sums) != 1 or len(sums[0].limits) != 1 or len(sums[0].limits[0]) != 3:
            return None
        (t, lo, hi), = sums[0].limits
        outside = sp.Mul(*[f for f in sp.Mul.make_args(term) if f is not sums[0]])
        if lo.has(t) or hi.has(t) or outside.has(t) or not (lo.is_integer and hi.is_integer):
            return None
        groups.setdefault((lo, hi), []).append(outside * sums[0].function.xreplace({t: index}))
    return {k: sp.Add(*v) for k, v in groups.items()}


def termwise(mappings, index) -> Rule:
    """From an equation for all values of its variables, that a finite sum of its instances is zero: the next
    equation's sides differ, entry by entry, by ``Σ_j F(j)`` where every ``F(j)`` is a polynomial combination of the
    premise at the instances ``mappings`` (a dict, or a list of dicts), whose values may depend on the sum's index
    ``index`` (a ``j`` standing for it: ``{a: (x Qᵀ)_j, b: (x Kᵀ)_j}``).

    Each value must meet the assumptions of its variable (real, nonzero …) for every integer ``j``, read with
    ``j`` an integer and nothing more (a sum's index takes the values its limits give, not its own assumptions);
    every divisor of the premise at the instance, and of the values, must be nonzero for every such ``j``; the
    chain's assumptions about the variables must hold there too. Functions such as σ stay fixed.

    >>> import sympy as sp, derive
    >>> from derive import rules
    >>> a = sp.Symbol("a", real=True)
    >>> k, j = sp.Symbol("k", integer=True), sp.Symbol("j", integer=True)
    >>> n = sp.Symbol("n", integer=True, positive=True)
    >>> x, s = sp.IndexedBase("x", real=True), derive.sigma
    >>> derive.chain("doc.termwise", (s(a), a)).step(
    ...     (sp.Sum(s(x[k]) * x[k], (k, 0, n - 1)), sp.Sum(x[k]**2, (k, 0, n - 1))),
    ...     rules.termwise({a: x[j]}, index=j)).verdict
    <Verdict.PROVED: 'proved'>
    """
    listed = [mappings] if isinstance(mappings, dict) else list(mappings) if isinstance(mappings, (list, tuple)) else None
    if not listed or not all(isinstance(m, dict) and m for m in listed):
        raise TypeError(f"termwise: needs a non-empty dict of variable -> value, or a list of them, got {mappings!r:.60}")
    if not isinstance(index, sp.Symbol) or index.is_integer is not True:
        raise TypeError(f"termwise: index must be an integer Symbol standing for the sum's index, got {index!r}")
    plain = sp.Dummy(index.name, integer=True)  # the index as the sum's limits leave it: an integer, no more
    instances = []
    for mapping in listed:
        for key, value in mapping.items():
            if not isinstance(key, sp.Symbol):
                raise ValueError(f"termwise: {key!r} is not a variable of the premise (functions such as σ stay fixed)")
            if not isinstance(value, sp.Expr) or isinstance(value, MatrixExpr):
                raise TypeError(f"termwise: the value for {key} must be a scalar SymPy expression, got {value!r:.60}")
            wellformed.refuse_inexact("termwise", value)
            read = value.xreplace({index: plain})
            entries = {e: sp.Dummy(real=True) for e in read.atoms(sp.matrices.expressions.matexpr.MatrixElement)
                       if isinstance(e.parent, sp.MatrixSymbol)}  # matrix symbols stand for real matrices
            problem = instance_problem(key, read.xreplace(entries))
            if problem is not None:
                raise ValueError(f"termwise: {problem.replace(sp.sstr(read.xreplace(entries)), sp.sstr(value))} "
                                 f"(for every integer {index})")
        instances.append({k: v.xreplace({index: plain}) for k, v in mapping.items()})

    def put_in(side):
        """The premise's side at every instance, as written, with the values: their divisors must be nonzero."""
        with sp.evaluate(False):
            built = [side.xreplace(m) for m in instances]
        return sp.Tuple(*built, *[v for m in instances for v in m.values()])

    def check(p, n):
        if any(isinstance(side, (sp.MatrixBase, MatrixExpr)) for side in p):
            raise ValueError("termwise: the premise must be an equation between scalars")
        if any(side.has(index) or side.has(plain) for side in p):
            raise ValueError(f"termwise: the premise mentions {index}, which stands for the sum's index")
        with sp.evaluate(False):
            raw = [_diff(p).xreplace(m) for m in instances]
        if any(r.has(sp.zoo, sp.nan, sp.oo, -sp.oo) for r in raw):
            return None
        generators = [evaluate_at(_diff(p), m) for m in instances]
        lhs, rhs = n
        if isinstance(lhs, sp.MatrixBase) or isinstance(rhs, sp.MatrixBase):
            diff = sp.Matrix(lhs) - sp.Matrix(rhs)
            entries = list(diff)
        elif isinstance(lhs, MatrixExpr) or isinstance(rhs, MatrixExpr):
            entries = [strategies._generic_entry(lhs - rhs)]
        else:
            entries = [lhs - rhs]
        names: dict = {}
        gens = [_canonical_bound(g, names)[0] for g in generators]
        for e in entries:
            if e.has(plain):
                return None
            groups = _sum_groups(sp.sympify(e), plain)
            if groups is None:
                return None
            for summand in groups.values():
                if not _in_ideal(_canonical_bound(summand, names)[0], gens):
                    return None
        return "every term of the sum is zero by the premise at its instance"

    # the statement prints the sum's index counted from 1, so the instances are printed with it counted from 1 too
    # (j standing for j - 1): "Q_{j,i}", as the sum's own term writes it, never "Q_{j+1,i}"
    shown = r";\ ".join(_mapping_tex({k: v.xreplace({index: index - 1}) for k, v in m.items()}) for m in listed)
    return Rule("termwise", _text("the premise at every term, ") + shown + _text(f" for each {index}"), check,
                equations=True, instantiates=dict(instances[0]), instances=tuple(instances[1:]), puts_into=put_in)


def _value_divisors(mapping, applied_in=()) -> tuple:
    """The conditions the values put in need (:func:`derive.kernel.witness.value_divisors`: ``a := 1/x`` needs
    ``x ≠ 0``, ``f := t ↦ 1/t`` at ``f(x − 1)`` needs ``x − 1 ≠ 0``), which the symbols' assumptions do not settle."""
    return tuple(wellformed.unmet_conditions(value_divisors(mapping, applied_in)))


def _check_mapping(where, mapping, allow_empty=False, applied_in=None):
    if not isinstance(mapping, dict) or (not mapping and not allow_empty):
        raise TypeError(f"{where}: needs a non-empty dict of symbol -> value, got {mapping!r}")
    for k in mapping:
        if not isinstance(k, (sp.Symbol, sp.FunctionClass)):
            raise TypeError(f"{where}: keys must be symbols or functions, got {k!r}")
        problem = instance_problem(k, mapping[k], applied_in)
        if problem is not None:
            raise ValueError(f"{where}: {problem}")


_BY_NAME = {r.name: r for r in (expand, factor, rational, definition, matrix_algebra, sign_split, simplify)}


def as_rule(rule) -> Rule:
    """A :class:`Rule`, or the name of a rule that takes no parameters (``"expand"``)."""
    if isinstance(rule, Rule):
        return rule
    if isinstance(rule, str) and rule in _BY_NAME:
        return _BY_NAME[rule]
    raise ValueError(f"unknown rule {rule!r}; known by name: {', '.join(_BY_NAME)} (others are derive.rules.*)")
