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
from sympy.core.evalf import PrecisionExhausted
from sympy.core.function import AppliedUndef, UndefinedFunction
from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction

from . import sums
from .certify import Certificate, certify_nonzero
from .simplifying import simplified
from .wellformed import (Inexact, OutsideMatrix, binders, bound_by, bound_symbols, defined, denominators, entries_capture,
                         inexact, mapping_divisors, one_line, real_entries, refuse_outside, unmet_declaration)

__all__ = [
    "Found", "Sampled", "NotEvaluable", "exact_value", "instance_problem", "closed_value_problem", "function_problem",
    "variable_problem",
    "components", "component_name",
    "undefined_functions", "unsampled_functions", "evaluate_at", "residual_at", "function_divisors", "value_divisors",
    "search", "sample", "stand_ins_for",
    "certify_witness", "refuse_capture", "unsampled",
]

#: the small signed rationals tried first, in order
POOL = tuple(
    sp.Rational(v)
    for v in ("1", "-1", "2", "-2", "1/2", "-1/2", "3", "-3", "0", "1/3", "-2/3", "3/2", "-5/2", "4", "-4")
)
#: tried after :data:`POOL` for a symbol not known real: points off the real line, some past a branch's strip
#: (log(exp(y)) = y fails where |Im y| > π)
COMPLEX_POOL = tuple(sp.sympify(v) for v in ("I", "-I", "1 + I", "1 - I", "-1 + 2*I", "4*I", "-4*I", "1/2 + 4*I",
                                             "-3 - 5*I"))
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
    problem = inexact(value)
    if problem is not None:
        raise Inexact(f"{where}: witness value for {symbol} must be exact: it {problem}")
    if isinstance(value, bool):
        raise TypeError(f"{where}: witness value for {symbol} must be exact (int, Fraction, Rational), got {value!r}")
    if isinstance(value, Fraction):
        value = sp.Rational(value.numerator, value.denominator)
    elif isinstance(value, int):
        value = sp.Integer(value)
    if not isinstance(value, sp.Expr) or not value.is_number:
        raise TypeError(f"{where}: witness value for {symbol} must be an exact number, got {type(value).__name__}")
    problem = closed_value_problem(value)
    if problem is not None:
        raise ValueError(f"{where}: witness value for {symbol}: {problem}")
    if isinstance(symbol, sp.Symbol):
        prop = _broken_assumption(symbol, value)
        if prop is not None:
            raise ValueError(f"{where}: witness {symbol} = {value} breaks the assumption that {symbol} is {prop}")
    return value


def closed_value_problem(value) -> str | None:
    """Why a value put into a statement (a witness, an instance) may be misread, or ``None``: every part of it
    without free symbols must be built from rationals, ``i`` and named constants (π, e …) by sums, products and
    powers with rational exponents. SymPy evaluates a sign, a comparison or a ``Piecewise`` condition at the value
    of a function from a few digits: ``sign(sinh(sin(π(√(3+2√2) − √2))))`` is 1 to SymPy, though its argument is 0.

    >>> import sympy as sp
    >>> closed_value_problem(sp.Rational(3, 7) + 2 * sp.I) is None, closed_value_problem(sp.sqrt(2) - sp.pi) is None
    (True, True)
    >>> closed_value_problem(sp.sin(1))
    'sin(1) is a number SymPy may judge from a few digits of its value: give a rational or algebraic one'
    """
    if not isinstance(value, sp.Basic) or value.is_Atom:
        return None
    if isinstance(value, sp.Lambda):  # a function put in: what it is built from (the identity has no parts)
        return closed_value_problem(value.expr) if value.args else None
    if isinstance(value, sp.Expr) and value.is_number:
        if _exactly_read(value):
            return None
        return (f"{sp.sstr(value)[:60]} is a number SymPy may judge from a few digits of its value: give a rational "
                "or algebraic one")
    for arg in value.args:
        problem = closed_value_problem(arg)
        if problem is not None:
            return problem
    return None


def _exactly_read(number) -> bool:
    if number.is_Rational or number is sp.I or isinstance(number, sp.NumberSymbol):
        return True
    if isinstance(number, (sp.Add, sp.Mul)):
        return all(_exactly_read(a) for a in number.args)
    if isinstance(number, sp.Pow):  # an algebraic number: SymPy decides its sign exactly (a minimal polynomial)
        return number.exp.is_Rational and _exactly_read(number.base)
    return False  # a function's value (sin, exp …): SymPy's digits of it are not to be trusted


def _broken_assumption(symbol, value, where_defined: bool = False) -> str | None:
    """The first of *all* the symbol's assumptions (``positive``, ``not odd``, ``irrational`` ...) that ``value``
    is not known to meet, or ``None``: a value outside the symbol's domain is no witness and no instance."""
    facts = symbol.assumptions0
    ordered = [p for p in _PROPERTIES if p in facts] + sorted(p for p in facts if p not in _PROPERTIES)
    defined = None if where_defined else False
    if isinstance(value, sp.Expr):  # an entry of a matrix symbol is a real number (it stands for a real matrix)
        entries = real_entries(value)
        value = value.xreplace(entries) if entries else value
    for prop in ordered:
        if getattr(value, f"is_{prop}", None) is facts[prop]:
            continue
        if defined is None:
            defined = _over_nonzero_divisor(value)
        if defined is False or getattr(defined, f"is_{prop}", None) is not facts[prop]:
            return prop if facts[prop] else f"not {prop}"
    return None


def _over_nonzero_divisor(value):
    """``value`` read where its divisor is nonzero (which a step that puts it in must require): ``p/q`` as ``p``
    over a real nonzero number of unknown sign, for a real ``q``; ``False`` when that reading does not apply.
    So ``a/(a² + b)`` is real wherever it is defined, but not known positive."""
    if not isinstance(value, sp.Expr):
        return False
    num, den = sp.fraction(sp.together(value))
    if den.is_Number or den.is_extended_real is not True:
        return False
    return num / sp.Dummy("q", real=True, nonzero=True)


def instance_problem(key, value, applied_in=None) -> str | None:
    """Why putting ``value`` for ``key`` does not give an instance of a statement proved for every ``key``; ``None`` if it does.

    ``key`` must be a variable: a symbol, whose every assumption (positive, nonzero, real ...) ``value`` must be
    known to meet, or an undefined function such as the generic σ, whose stand-in must be a one-argument
    ``Lambda`` (or function class) meeting every assumption of the function (a real σ needs a real-valued
    stand-in) wherever the statement ``applied_in`` applies it. Defined functions (``exp``, ``Max``) and
    compound expressions are not variables: replacing them does not preserve truth.

    >>> import sympy as sp
    >>> from derive.kernel.witness import instance_problem
    >>> alpha = sp.Symbol("alpha", positive=True)
    >>> instance_problem(alpha, 2) is None
    True
    >>> instance_problem(alpha, -1)
    'alpha := -1 breaks the assumption that alpha is positive'
    >>> instance_problem(sp.exp, sp.Lambda(alpha, alpha))
    'exp is not a variable (a symbol or an undefined function such as sigma)'
    >>> t = sp.Symbol("t", real=True)
    >>> instance_problem(sp.Function("sigma", real=True), sp.Lambda(t, sp.I * t))
    'sigma := Lambda(t, I*t) breaks the assumption that sigma is real (at a real argument, it is not known to be real)'
    """
    problem = inexact(value)
    if problem is not None:
        return f"{getattr(key, '__name__', key)} := {value} {problem}"
    problem = closed_value_problem(value)
    if problem is not None:
        return f"{getattr(key, '__name__', key)} := {problem}"
    if isinstance(key, sp.Symbol):
        try:
            value = sp.sympify(value, strict=True)
        except (sp.SympifyError, TypeError):
            return f"{key} := {value!r} is not a SymPy value"
        prop = _broken_assumption(key, value, where_defined=True)  # every step that puts it in needs its divisors
        return None if prop is None else f"{key} := {one_line(value)} breaks the assumption that {key} is {prop}"
    if isinstance(key, UndefinedFunction):
        return function_problem(key, value, applied_in)
    return f"{getattr(key, '__name__', key)} is not a variable (a symbol or an undefined function such as sigma)"


def function_facts(f) -> dict:
    """The assumptions an undefined function was declared with (``Function("sigma", real=True)``), as ``is_*`` facts."""
    facts = {k[3:]: v for k, v in vars(f).items() if k.startswith("is_") and v is not None and k != "is_commutative"}
    ordered = [p for p in _PROPERTIES if p in facts] + sorted(p for p in facts if p not in _PROPERTIES)
    return {p: facts[p] for p in ordered}


def _real_arguments(f, applied_in) -> bool:
    """True when every application of ``f`` in ``applied_in`` (if given) has an argument known to be real."""
    if applied_in is None:
        return True
    exprs = list(applied_in) if isinstance(applied_in, (sp.MatrixBase, tuple, list)) else [applied_in]
    for e in exprs:
        if not isinstance(e, sp.Basic):
            continue
        for app in e.atoms(AppliedUndef):
            if app.func == f and not all(a.is_extended_real for a in app.args):
                return False
    return True


def _arguments(f, k: int, applied_in) -> list | None:
    """The ``k``-th arguments ``f`` is applied to in ``applied_in`` (an entry of a matrix ``f`` is applied to entry by
    entry is a real number); ``None`` when ``applied_in`` is not given."""
    if applied_in is None:
        return None
    exprs = list(applied_in) if isinstance(applied_in, (sp.MatrixBase, tuple, list)) else [applied_in]
    out = []
    for e in exprs:
        if not isinstance(e, sp.Basic):
            continue
        out += [app.args[k] for app in e.atoms(AppliedUndef) if app.func == f and len(app.args) > k]
        if any(node.function == f for node in e.atoms(ElementwiseApplyFunction)):
            out.append(sp.Dummy("x", real=True))
    return out


def variable_problem(f, value, applied_in=None) -> str | None:
    """Why the ``Lambda`` ``value`` cannot stand for ``f`` where ``applied_in`` applies it (``None``: at any real
    argument): a variable declared narrower than the reals (integer, positive …) and an argument there not known to
    be so. SymPy rewrites a body for what its variable is declared to be (``⌊t⌋`` is ``t`` for an integer t, ``√(t²)``
    is ``t`` for a positive one), so at such an argument the Lambda is another function than the one written.

    >>> import sympy as sp
    >>> sigma, a = sp.Function("sigma"), sp.Symbol("a", real=True)
    >>> t = sp.Symbol("t", positive=True)
    >>> variable_problem(sigma, sp.Lambda(t, 2 * sp.sqrt(t**2)), sigma(a))
    'sigma := Lambda(t, 2*t) is written in t, declared positive=True, but sigma is applied to a, which is not known to be so: SymPy has rewritten the body for such values only (declare the variable real, or with no assumptions)'
    >>> variable_problem(sigma, sp.Lambda(t, 2 * t), sigma(a**2 + 1)) is None
    True
    """
    if not isinstance(value, sp.Lambda):
        return None
    name = getattr(f, "__name__", str(f))
    for k, var in enumerate(value.variables):
        args = _arguments(f, k, applied_in)
        for arg in [sp.Dummy("x", real=True)] if args is None else args:
            said = unmet_declaration(var, arg)  # (None for a variable declared real: each argument is read as it is)
            if said is not None:
                at = (f"is applied to {one_line(arg)}, which is not known to be so" if args is not None
                      else "is a function of every real number")
                return (f"{name} := {one_line(value)} is written in {var}, declared {said}, but {name} {at}: SymPy has "
                        f"rewritten the body for such values only (declare the variable real, or with no assumptions)")
    return None


def function_problem(f, value, applied_in=None) -> str | None:
    """Why ``value`` cannot stand in for the undefined function ``f``; ``None`` when it can (see :func:`instance_problem`)."""
    if isinstance(value, sp.FunctionClass) and not isinstance(value, UndefinedFunction):
        t = sp.Dummy("t")
        value = sp.Lambda(t, value(t))
    if not isinstance(value, sp.Lambda):
        return f"{f.__name__} := {value!r:.60} is not a function: give a one-argument sp.Lambda"
    if len(value.variables) != 1:
        return f"{f.__name__} := {sp.sstr(value)} takes {len(value.variables)} arguments; {f.__name__} takes one"
    problem = variable_problem(f, value, applied_in)
    if problem is not None:
        return problem
    facts = function_facts(f)
    real = _real_arguments(f, applied_in) or not facts
    t = sp.Dummy("t", real=True) if real else sp.Dummy("t")
    body = value(t)
    if not facts:  # declared nothing: the scope says "every f: ℝ → ℝ", so a witness is real-valued on ℝ
        facts = {"real": True}  # (|f(a)|² = f(a)² was refuted at f := i, and |f(g(a))|² = … at g(a), true for real f)
    read = None  # body real by its imaginary part: then what every real number is, it is
    for prop, wanted in facts.items():
        if getattr(body, f"is_{prop}", None) is not wanted and getattr(_REAL, f"is_{prop}", None) is wanted:
            read = _real_by_parts(body) if read is None else read
            if read:
                continue
        if getattr(body, f"is_{prop}", None) is not wanted:
            said = prop if wanted else f"not {prop}"
            at = "a real" if real else "a complex"
            known = f"known to be {prop}" if wanted else f"known not to be {prop}"
            return (f"{f.__name__} := {one_line(value)} breaks the assumption that {f.__name__} is {said} "
                    f"(at {at} argument, it is not {known})")
    return None


_REAL = sp.Dummy("r", real=True)


def _real_by_parts(body) -> bool:
    """``body`` (of a real variable) real, as its imaginary part reduces to 0 where SymPy's assumptions cannot tell:
    ``|√t| − √t·sign(√t)`` (2√|t| for t < 0) is real; ``t·√(3 − t)`` is not known to be, past t = 3."""
    if sp.count_ops(body) > 40:
        return False
    try:
        return simplified(sp.im(body)) == 0
    except (TypeError, ValueError, NotImplementedError, RecursionError):
        return False


def components(diff):
    """The scalar components of a difference: ``[((i, j), e), ...]`` for a matrix, ``[(None, e)]`` for a scalar."""
    if isinstance(diff, sp.MatrixBase):
        return [((i, j), diff[i, j]) for i in range(diff.rows) for j in range(diff.cols)]
    return [(None, diff)]


def component_name(index: tuple[int, int]) -> str:
    """A component's row and column as a reader counts them, from 1.

    >>> component_name((0, 2))
    '(1, 3)'
    """
    i, j = index
    return f"({i + 1}, {j + 1})"


def undefined_functions(expr) -> list:
    """The undefined function classes (such as the generic σ) in ``expr``, sorted by name."""
    return sorted({a.func for a in expr.atoms(AppliedUndef)}, key=lambda f: f.__name__)


def evaluate_at(expr, witness: dict):
    """Substitute a witness or an instance, all at once: symbols (and matrix symbols) by values, undefined functions
    by ``Lambda`` objects.

    Only free occurrences are replaced, and nothing is captured: a symbol that a sum, product, integral, limit,
    derivative, ``Subs`` or ``Lambda`` of ``expr`` binds may be neither replaced nor put in (``x := t`` in
    ``∫₀¹ x t dt`` would make it ``∫₀¹ t² dt``), which raises ``ValueError`` naming it.

    >>> import sympy as sp
    >>> x, t = sp.symbols("x t", real=True)
    >>> evaluate_at(sp.Integral(x * t, (t, 0, 1)), {x: 2})
    Integral(2*t, (t, 0, 1))
    >>> evaluate_at(sp.Integral(x * t, (t, 0, 1)), {x: t})
    Traceback (most recent call last):
    ...
    ValueError: putting t for x would capture t, which Integral(t*x, (t, 0, 1)) binds
    """
    funcs = {k: v for k, v in witness.items() if not isinstance(k, (sp.Symbol, sp.MatrixSymbol))}
    values = {k: v for k, v in witness.items() if isinstance(k, (sp.Symbol, sp.MatrixSymbol))}
    if isinstance(expr, sp.Basic):
        refuse_capture(expr, witness)
        refuse_outside(expr, values)
        _refuse_off_the_line(expr, funcs, values)
    for f, lam in funcs.items():
        expr = expr.replace(f, lam)
    return expr.xreplace(values)


class OffTheLine(ValueError):
    """A function of the statement applied, at a point, to a number not known to be real."""


def _refuse_off_the_line(expr, funcs, values) -> None:
    """Raise ValueError where a function put in is applied, at ``values``, to a number not known to be real: the scope
    says every f: ℝ → ℝ, so |f(y)|² = f(y)² (y ∈ ℂ) holds at every value f takes, and f := t ↦ t at y = 1 + i would
    refute it off f's own domain."""
    if not funcs:
        return
    for call in expr.atoms(AppliedUndef):
        if call.func in funcs:
            for arg in call.args:
                at = sp.sympify(arg.xreplace(values))  # (a value given as a Python int)
                if at.is_number and at.is_real is not True:
                    raise OffTheLine(f"{call.func.__name__} would be applied at {sp.sstr(at)[:40]}, off the real line "
                                     f"(its scope is ℝ → ℝ)")


def divisors_at(expr, mapping) -> list:
    """What must be nonzero for ``expr`` to have a value once ``mapping`` is put in, as it is written: the divisors of
    ``expr`` at the values, those of each value put in, and those of each function's value (its ``Lambda``) at the
    arguments it is applied to. SymPy may cancel any of them once the values are in (``n b`` with ``n = 1/b`` is 1,
    ``a/n`` with ``n = a`` is 1), and a statement without a value there is not true there.

    >>> import sympy as sp
    >>> a, b, n, t = sp.symbols("a b n t", real=True)
    >>> s = sp.Function("s")
    >>> divisors_at(n * b + s(a + 1), {n: 1 / b, s: sp.Lambda(t, 1 / t)})
    [b, a + 1]
    >>> divisors_at(a / n, {n: a})
    [a]
    """
    found: list = []

    def add(divisors):
        found.extend(d for d in divisors if d not in found)

    def at(divisors, put):  # a divisor at the values; a part derive reads as defined or not, read again there
        return [e for d in divisors for e in (denominators(put(d.args[0])) if isinstance(d, defined) else [put(d)])]

    if not mapping:
        return denominators(expr)
    add(at(denominators(expr), lambda e: evaluate_at(e, mapping)))
    if not isinstance(expr, sp.Basic):
        return found
    present = expr.free_symbols | expr.atoms(sp.MatrixSymbol)
    for key, value in mapping.items():
        if isinstance(key, (sp.Symbol, sp.MatrixSymbol)) and key in present and isinstance(value, sp.Basic):
            add(denominators(value))
    add(function_divisors(expr, mapping))
    return found


def function_divisors(expr, mapping) -> list:
    """What the functions ``mapping`` puts in (each a ``Lambda``) need nonzero where ``expr`` applies them: the
    divisors of ``expr`` with each body written in, unevaluated, beyond those of ``expr`` itself, read at the other
    values of ``mapping``. SymPy may cancel them once the function is in (``u² f(x)`` with ``f := t ↦ 1/u(t)²`` is 1,
    though it has no value where ``u`` is 0), so a step, an instance or a witness that puts a function in needs them
    as it needs its own. A body applied under a sum, a ``Lambda`` or entry by entry is read where those range, as
    :func:`derive.kernel.wellformed.denominators` reads any part there.

    >>> import sympy as sp
    >>> x, y, t = sp.symbols("x y t", real=True)
    >>> f = sp.Function("f")
    >>> function_divisors(sp.sign(x)**2 * f(x), {f: sp.Lambda(t, 1 / sp.sign(t)**2)})
    [sign(x)]
    >>> function_divisors(sp.sign(x)**2 * f(x), {f: sp.Lambda(t, 1 / t), x: y - 1})
    [y - 1]
    >>> function_divisors(f(x) + 1, {f: sp.Lambda(t, sp.Max(0, t))})
    []
    """
    if not isinstance(expr, sp.Basic):
        found: list = []
        for part in (expr if isinstance(expr, (list, tuple)) else [expr]):
            if isinstance(part, sp.Basic):
                found += [d for d in function_divisors(part, mapping) if d not in found]
        return found
    functions = {f: v for f, v in mapping.items() if isinstance(f, UndefinedFunction) and isinstance(v, sp.Lambda)}
    if not any(c.func in functions for c in expr.atoms(AppliedUndef)):
        return []
    own = denominators(expr)
    written, left = _written_in(expr, functions)
    values = {k: v for k, v in mapping.items() if k not in functions}
    found = [defined(c) for c in left]  # a function put in whose body applies itself: never written out
    for d in denominators(written):
        if d in own:
            continue
        if isinstance(d, defined):  # a part read as a whole (a sum over an index it divides by): the values put in
            with sp.evaluate(False):  # as written, so that nothing in it cancels
                d = defined(d.args[0].xreplace(values)) if values else d
        elif values:
            d = evaluate_at(d, values)
        if d not in found:
            found.append(d)
    return found


def value_divisors(mapping, applied_in=()) -> list:
    """What the values ``mapping`` puts in need nonzero: each value's own divisors (``a := 1/x`` needs ``x``), and
    each function's where ``applied_in`` applies it (:func:`function_divisors`). SymPy may cancel them at once."""
    found = mapping_divisors(mapping)
    return found + [d for d in function_divisors(applied_in, mapping) if d not in found]


#: how many levels of functions put in are written into each other (f's body applying g, whose body applies h …)
_WRITTEN_DEPTH = 16


def _written_in(expr, functions) -> tuple:
    """``expr`` with every application of ``functions`` replaced by the body at its arguments, unevaluated, inner
    applications and those in the bodies too (to a fixed point); and the applications still left after
    :data:`_WRITTEN_DEPTH` rounds (a body that applies itself)."""
    def body(call):
        lam = functions[call.func]
        return lam.expr.xreplace(dict(zip(lam.variables, call.args)))

    written = expr
    for _ in range(_WRITTEN_DEPTH):
        calls = [c for c in written.atoms(AppliedUndef) if c.func in functions]
        if not calls:
            return written, []
        with sp.evaluate(False):  # as written: 1/u(x)² kept beside the u(x)² it multiplies
            written = written.replace(lambda e: isinstance(e, AppliedUndef) and e.func in functions, body)
    return written, sorted((c for c in written.atoms(AppliedUndef) if c.func in functions), key=sp.default_sort_key)

def symbol_values(mapping) -> dict:
    """What ``mapping`` puts in for plain symbols, as SymPy reads each value (one it cannot read is left out, for
    the mapping's own check to refuse): the sizes a matrix symbol's shape has at the instance, since
    :func:`evaluate_at` puts them into everything but the values themselves.

    >>> import sympy as sp
    >>> n = sp.Symbol("n", integer=True, positive=True)
    >>> symbol_values({n: 2, sp.MatrixSymbol("A", n, n): sp.eye(2), sp.Function("f"): sp.Lambda(n, n)})
    {n: 2}
    """
    found = {}
    for key, value in mapping.items():
        if isinstance(key, sp.Symbol):
            try:
                found[key] = sp.sympify(value, strict=True)
            except (sp.SympifyError, TypeError):
                pass
    return found


def refuse_capture(expr, witness) -> None:
    """Raise ``ValueError`` when a key of ``witness`` is bound in ``expr``, or a value's free symbol would be, or
    a function's value (a ``Lambda``) binds a symbol that an argument it is applied to holds: SymPy puts the argument
    into the body as it is, so ``σ(k)`` with ``σ(z) = Σ_{k=1}^{1} z k`` would read ``Σ_{k=1}^{1} k²``, not ``k``.
    Likewise a matrix put in whose entries (a ``FunctionMatrix``'s body) bind a symbol ``expr`` names: its entry at
    an index holding that symbol would read the body's own (:func:`derive.kernel.wellformed.entries_capture`)."""
    for f, value in witness.items():
        if isinstance(value, sp.Lambda) and not isinstance(f, (sp.Symbol, sp.MatrixSymbol)):
            inner = bound_symbols(value.expr)
            held = set().union(*[a.free_symbols for call in expr.atoms(AppliedUndef) if call.func == f
                                 for a in call.args]) if inner else set()
            if inner & held:
                k = sorted(inner & held, key=str)[0]
                raise ValueError(f"putting {sp.sstr(value)[:60]} for {f} would capture {k}, which its body binds "
                                 f"and an argument of {f} holds; name the body's index apart")
    for key, value in witness.items():  # a matrix put in whose entries' body binds what the statement names
        if isinstance(key, sp.MatrixSymbol) and isinstance(value, sp.Basic) and value.has(sp.FunctionMatrix):
            said = entries_capture(value, expr.atoms(sp.Symbol))
            if said:
                raise ValueError(f"putting {sp.sstr(value)[:60]} for {key} {said}")
    keys = {k for k in witness if isinstance(k, sp.Symbol)}
    for node in binders(expr):
        bound = bound_by(node)
        if keys & bound:
            k = sorted(keys & bound, key=str)[0]
            raise ValueError(f"{k} is bound in {sp.sstr(node)[:80]}: a value for it cannot be put there")
        for key, value in witness.items():
            hit = bound & getattr(value, "free_symbols", set()) if node.has(key) else set()
            if hit:
                raise ValueError(f"putting {sp.sstr(value)[:40]} for {key} would capture "
                                 f"{', '.join(sorted(map(str, hit)))}, which {sp.sstr(node)[:80]} binds")


#: an integer power above this is not multiplied out at a witness (Python cannot interrupt a huge ``3**10**9``):
#: such a residual is certified by interval arithmetic on the unevaluated expression instead
EXACT_POWER_MAX = 4096

#: what SymPy raises when a value cannot be formed at a point (a comparison it cannot decide, a pole ...)
#: what SymPy raises where it cannot form a value (an AttributeError from a matrix expression given a number)
_EVALUATION_ERRORS = (TypeError, ValueError, ZeroDivisionError, ArithmeticError, NotImplementedError, RecursionError,
                      AttributeError, IndexError)


def _huge_powers(expr) -> bool:
    return any(p.exp.is_Integer and abs(p.exp) > EXACT_POWER_MAX for p in expr.atoms(sp.Pow))


class NotEvaluable(ValueError):
    """The statement has no value at a point: a divisor vanishes there, or SymPy cannot form the value."""


def residual_at(expr, witness: dict, denominators=()):
    """``expr`` at ``witness``, with every divisor of the statement certified nonzero there.

    Raises :class:`NotEvaluable` when a divisor is zero (or not certified nonzero) at the witness, or when SymPy
    cannot form the value. Huge integer powers are left unevaluated (see :data:`EXACT_POWER_MAX`).
    """
    try:
        for d in denominators:
            value = evaluate_at(d, witness)
            if isinstance(value, sp.MatrixBase):
                value = value.det()
            if value == 0 or certify_nonzero(value) is None:
                if isinstance(d, defined):
                    raise NotEvaluable(f"{sp.sstr(d.args[0])} has no value there")
                raise NotEvaluable(f"the divisor {sp.sstr(d)} is {'zero' if value == 0 else 'not certified nonzero'} there")
        if _huge_powers(expr):
            with sp.evaluate(False):
                return evaluate_at(expr, witness)
        return _explicit_determinants(sums.written_out(evaluate_at(expr, witness)))  # a sum at a witness: its terms
    except NotEvaluable:
        raise
    except (OutsideMatrix, OffTheLine) as exc:
        raise NotEvaluable(str(exc)) from None
    except _EVALUATION_ERRORS as exc:
        raise NotEvaluable(f"the statement cannot be evaluated there ({type(exc).__name__})") from None


#: the most entries a matrix of known size is written out with to take its determinant or trace at a witness
_MOST_WRITTEN = 64


def _explicit_determinants(value):
    """``value`` with each determinant or trace of a matrix of known size worked out (``det`` of the 0×0 zero
    matrix is 1): at a witness a size is a number, and an unevaluated ``Determinant(0)`` would certify nothing.
    A small matrix is written out first: SymPy's rules read the sizes as written (det(0₀ ⊗ 0₀) came out nan, and
    the point was passed over: det(0ₖ ⊗ 0ₘ) = 0 was "checked", though it is 1 at k = m = 0)."""
    if not isinstance(value, sp.Basic) or not value.has(sp.Determinant, sp.Trace):
        return value

    def worked_out(d):
        rows, cols = d.arg.shape
        if rows * cols <= _MOST_WRITTEN:
            written = sp.ImmutableMatrix(d.arg.as_explicit())
            return written.det() if isinstance(d, sp.Determinant) else written.trace()
        return sums.doit(d)

    known = {d: worked_out(d) for d in value.atoms(sp.Determinant, sp.Trace)
             if not d.free_symbols and all(size.is_Integer for size in d.arg.shape)}
    return value.xreplace(known) if known else value


def _respects(cond_list, witness) -> bool:
    for cond in cond_list:
        try:
            held = evaluate_at(cond, witness)
        except _EVALUATION_ERRORS:
            return False
        if held is not sp.true:
            return False
    return True


def _certify_at(comps, witness, denominators=()) -> Found | None:
    for index, comp in comps:
        residual = residual_at(comp, witness, denominators)
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
    for v in POOL + (COMPLEX_POOL if symbol.is_real is not True else ()):
        try:
            exact_value("", symbol, v)
        except ValueError:
            continue
        out.append(v)
    return out


def _rng(seed_text: str) -> random.Random:
    return random.Random(zlib.crc32(seed_text.encode()))


def _scalars(symbols, diff) -> list:
    """``symbols`` without the matrix symbols that ``diff`` no longer holds (``tr A`` cancelled from both sides): a
    matrix symbol takes a matrix, and a witness never gives it a number (it printed "A = −1")."""
    held = diff.atoms(sp.MatrixSymbol) if isinstance(diff, sp.Basic) else set().union(
        *[e.atoms(sp.MatrixSymbol) for e in diff if isinstance(e, sp.Basic)])
    return [s for s in symbols if not isinstance(s, sp.MatrixSymbol) or s in held]


def search(diff, symbols, assume=(), fixed=None, tries: int = 300, seed_text: str = "", denominators=()) -> Found | None:
    """Search small signed rationals for a witness at which some component of ``diff`` is certified nonzero.

    ``fixed`` holds values (or function instances) given by the caller and kept in every candidate. The
    search is deterministic: structured candidates first (all ones, alternating signs), then seeded random ones.
    """
    fixed = dict(fixed or {})
    comps = components(diff)
    free = [s for s in _scalars(symbols, diff) if s not in fixed]
    if any(isinstance(s, sp.MatrixSymbol) for s in free):
        return None  # a matrix symbol takes a matrix, never one of the numbers searched
    pools = {s: _allowed(s) for s in free}
    _require_candidates(pools)
    rng = _rng(seed_text)
    seen = set()

    def candidates():
        yield {s: pools[s][0] for s in free}
        yield {s: pools[s][k % min(2, len(pools[s]))] for k, s in enumerate(free)}
        yield {s: pools[s][(k + 1) % min(2, len(pools[s]))] for k, s in enumerate(free)}
        for n in range(tries):
            width = 2 + n // 10
            yield {s: rng.choice(pools[s][:width]) for s in free}

    for values in candidates():
        key = tuple(values[s] for s in free)
        if key in seen:
            continue
        seen.add(key)
        witness = {**fixed, **values}
        if not _respects(assume, witness):
            continue
        try:
            found = _certify_at(comps, witness, denominators)
        except NotEvaluable:
            continue
        if found is not None:
            return found
    return None


def unsampled(symbols) -> list:
    """The scalar symbols among ``symbols`` that no exact rational value of the search respects (one declared
    ``transcendental``): a witness search or a check cannot be made over them.

    >>> import sympy as sp
    >>> unsampled([sp.Symbol("t", transcendental=True), sp.Symbol("x", real=True)])
    [t]
    """
    return [s for s in symbols if not isinstance(s, sp.MatrixSymbol) and not _allowed(s)]


def _require_candidates(pools) -> None:
    empty = {s: pool for s, pool in pools.items() if not pool}
    if empty:
        said = "; ".join(f"{s} ({', '.join(sorted(p for p, v in s.assumptions0.items() if v and p != 'commutative'))})"
                         for s in empty)
        raise ValueError(f"no exact rational value respects the assumptions of {said}")


def certify_witness(diff, witness: dict, assume=(), denominators=()) -> Found | None:
    """Certify ``diff`` nonzero at one given witness (after checking it respects ``assume``)."""
    if not _respects(assume, witness):
        raise ValueError("witness does not satisfy the claim's assumptions")
    try:
        return _certify_at(components(diff), witness, denominators)
    except NotEvaluable as exc:
        raise ValueError(f"no witness: {exc}") from None


#: test functions standing in for an undefined σ in numeric checks; each σ gets those that meet its assumptions
TEST_FUNCTIONS = (
    lambda t: sp.sin(t) + t**2 / 3,
    lambda t: sp.exp(t / 2) - sp.Rational(1, 3),
    lambda t: sp.tanh(t) * (1 + t),
    lambda t: sp.exp(t / 2) + sp.Rational(1, 3),
    lambda t: t**2 + 1 + sp.sin(t) / 2,
    lambda t: -sp.exp(-t / 3) - sp.Rational(1, 2),
)


def _stand_ins(f, applied_in=None) -> list:
    t = sp.Dummy("t")  # (no body is rewritten for what t is declared: none is)
    chosen = [sp.Lambda(t, make(t)) for make in TEST_FUNCTIONS]
    return [lam for lam in chosen if function_problem(f, lam, applied_in) is None]


def stand_ins_for(f, applied_in=None) -> list:
    """The stand-ins for ``f`` among :data:`TEST_FUNCTIONS` that meet every assumption of ``f``."""
    chosen = _stand_ins(f, applied_in)
    if not chosen:
        raise ValueError(f"no test function meets the assumptions of {f.__name__}")
    return chosen


def unsampled_functions(expr) -> list:
    """The undefined functions of ``expr`` that no test function stands in for (one declared integer-valued): a
    check cannot be made over them.

    >>> import sympy as sp
    >>> x = sp.Symbol("x", real=True)
    >>> unsampled_functions(sp.Function("p", integer=True)(x) + sp.Function("f")(x))
    [p]
    """
    return [f for f in undefined_functions(expr) if not _stand_ins(f, expr)]


@dataclass(frozen=True)
class Sampled:
    """What a numeric check saw: the largest |lhs − rhs|, the points used, a certified disagreement, or a
    disagreement that could not be certified (then there is no verdict, only this description)."""

    worst: float
    used: int
    found: Found | None = None
    uncertified: str = ""
    #: points that met the assumptions where the sides could not be evaluated exactly
    unevaluated: int = 0


def _magnitude(value) -> float:
    """``|value|`` to 30 digits; ``nan`` when it is no number. Where SymPy cannot tell it from zero, its bound: below
    1e-20 it is read as that (too close to zero to tell), above as no number (a huge power left unevaluated,
    ``(x + 1)^5000 − (x² + 2x + 1)^2500``, gives ``0.e+1825``, no digit known: read as infinite, a true identity
    was said to differ)."""
    try:
        return abs(complex(sp.N(value, 30, strict=True)))
    except PrecisionExhausted:
        try:
            bound = abs(complex(sp.N(value, 30)))
        except (TypeError, ValueError, ArithmeticError):
            return float("nan")
        return bound if bound <= 1e-20 else float("nan")
    except (TypeError, ValueError, ArithmeticError):
        return float("nan")


def sample(diff, symbols, funcs, points: int, seed_text: str, assume=(), denominators=()) -> Sampled:
    """Evaluate ``diff`` at seeded exact rational points; report the agreement or the disagreement seen.

    A point where the sides differ is handed to the certifier: certified, it is a refutation (``found``);
    not certified, the check has no verdict (``uncertified`` says where). Agreement is evidence only.
    """
    rng = _rng("check:" + seed_text)
    comps = components(diff)
    symbols = _scalars(symbols, diff)
    if any(isinstance(s, sp.MatrixSymbol) for s in symbols):
        raise TypeError("a numeric check needs explicit matrices, not matrix symbols")
    pools = {s: _allowed(s) for s in symbols}
    _require_candidates(pools)
    stand_ins = {f: stand_ins_for(f, diff) for f in funcs}
    worst = 0.0
    used = unevaluated = 0
    seen = set()
    for n in range(points * 4):
        if used >= points:
            break
        witness = {}
        for s in symbols:
            v = sp.Rational(rng.randint(-40, 40), rng.randint(1, 12))
            if n % 2 and s.is_real is not True:
                # a symbol declared nothing is complex, as SymPy reads it and the scope says (y ∈ ℂ): |y|² = y² is
                # checked off the real line too, every other point
                v += sp.I * sp.Rational(rng.choice((1, -1)) * rng.randint(1, 40), rng.randint(1, 12))
            try:
                witness[s] = exact_value("", s, v)
            except ValueError:
                witness[s] = rng.choice(pools[s])
        for k, f in enumerate(funcs):
            witness[f] = stand_ins[f][(n + k) % len(stand_ins[f])]
        key = tuple(witness.values())  # (as search keys its candidates: the same symbols and functions, in order)
        if key in seen:  # the same point again (a claim with few or no symbols): it would say nothing new
            continue
        seen.add(key)
        if not _respects(assume, witness):
            continue
        try:
            values = [residual_at(comp, witness, denominators) for _, comp in comps]
        except NotEvaluable:
            unevaluated += 1
            continue
        magnitudes = [0.0 if value == 0 else _magnitude(value) for value in values]
        if any(m != m for m in magnitudes):  # no number (a sum SymPy holds, a symbol left): it says nothing
            unevaluated += 1
            continue
        used += 1
        for (index, comp), value, magnitude in zip(comps, values, magnitudes):
            if value == 0:
                continue
            # however small, a residual that is not exactly zero may be certified nonzero: then it is no agreement
            found = _certify_at([(index, comp)], witness, denominators) if not value.free_symbols else None
            if found is not None:
                return Sampled(magnitude, used, found)
            if magnitude <= 1e-20:  # too close to zero to tell, and not certified: agreement as far as seen
                worst = max(worst, magnitude)
                continue
            at = ", ".join(f"{k} = {sp.sstr(v)}" for k, v in witness.items() if isinstance(k, sp.Symbol))
            size = "not a finite number" if magnitude == float("inf") else f"{magnitude:.1e}"
            return Sampled(magnitude, used, None, f"the sides differ at {at or 'the sample'} (|lhs - rhs| ≈ {size}), "
                                                  f"but the difference could not be certified")
    return Sampled(worst, used, unevaluated=unevaluated)
