"""Proof strategies: each reduces a difference ``lhs - rhs`` to exactly zero, or gives up.

One function per strategy, tried cheapest first by :func:`prove_zero`; each returns a short detail string when
it proves the difference zero and ``None`` when it does not apply or does not finish. None of them samples
numbers: ``Expr.equals`` and floating point are never used.
"""
from __future__ import annotations

import functools
import itertools
import time

import sympy as sp
from sympy.matrices.expressions import MatrixExpr
from sympy.matrices.expressions.matexpr import MatrixElement

from . import notation, sums, wellformed
from .certify import excluding_zero
from .inverses import cancelling, needs
from .simplifying import simplified
from .wellformed import bound_symbols
from .budget import OutOfTime, time_budget
from . import budget as _budget

__all__ = ["STRATEGIES", "prove_zero", "structural", "expand", "rational", "sign_split", "piecewise_cases", "simplify_small"]

#: a diff larger than this (in operations) is not handed to ``simplify``
SIMPLIFY_MAX_OPS = 80
#: at most this many sign-undetermined arguments are split (3**n cases)
SIGN_SPLIT_MAX = 6

_PIECEWISE = (sp.Max, sp.Min, sp.Abs, sp.Heaviside, sp.sign, sp.Piecewise)


def structural(diff):
    """Zero as built: SymPy's automatic evaluation already cancelled the two sides.

    Matrix expressions are evaluated (transpose and product rules) at every level, also inside ``σ(…)``
    applied elementwise; when that leaves something, the generic entry ``(i, j)`` is unfolded into sums (as
    SymPy defines each entry of a product, Hadamard product and elementwise function, for every size; a
    dimension of size 1 has the one index 0); products of conformable block matrices are first multiplied out block
    by block (:func:`_collapse_blocks`). Expressions with finite sums are then brought to a normal form
    by exact rules only (:func:`canonical_sums`): linearity, a product of sums over independent ranges as one
    multiple sum, the order of summation over ranges that do not depend on each other (Fubini for finite sums)
    and the names of summation indices. What is left must cancel, or, sum by sum over the same ranges, have a
    summand that the other strategies prove zero for every value of the indices (:func:`summand_zero`).

    >>> import sympy as sp
    >>> i, j, n = sp.symbols("i j n", integer=True)
    >>> f = sp.Function("f")
    >>> structural(sp.Sum(f(i), (i, 0, n)) - sp.Sum(f(j), (j, 0, n)))
    'the same expression up to the names of summation indices'
    >>> structural(sp.Sum(sp.Sum(f(i, j), (j, 0, n)), (i, 0, n)) - sp.Sum(sp.Sum(f(j, i), (j, 0, n)), (i, 0, n)))
    'finite sums in normal form (linearity, order of summation over independent ranges, index names)'
    >>> structural(sp.Sum(sp.Sum(f(i, j), (j, 0, i)), (i, 0, n)) - sp.Sum(sp.Sum(f(j, i), (j, 0, i)), (i, 0, n))) is None
    True
    """
    if diff == 0:
        return "structural equality (both sides build to the same expression)"
    if isinstance(diff, MatrixExpr) and not isinstance(diff, sp.MatrixBase):
        done = _evaluated(diff)
        if done == 0 or isinstance(done, sp.ZeroMatrix):
            return "matrix algebra (transpose and product rules) gives the zero matrix"
        symbolic = isinstance(done, MatrixExpr) and not isinstance(done, sp.MatrixBase)
        if symbolic and done.has(sp.BlockMatrix):
            done = _collapse_blocks(done)
            if done == 0 or isinstance(done, sp.ZeroMatrix):
                return "block matrix algebra (products of conformable blocks) gives the zero matrix"
            symbolic = isinstance(done, MatrixExpr) and not isinstance(done, sp.MatrixBase)
        if symbolic:
            entry = _generic_entry(done)
            if any(isinstance(part.parent, sp.BlockMatrix) for part in entry.atoms(MatrixElement)):
                return None  # a block matrix whose blocks have symbolic sizes: no generic entry to compare
            if _rename_bound(sp.expand(sp.factor_terms(entry))) == 0:
                return "comparing the generic entry (i, j): the same sums on both sides, up to the names of their indices"
            how = _sums_zero(entry)
            if how is not None:
                return f"comparing the generic entry (i, j): {how}"
    elif isinstance(diff, sp.Basic):
        matrix_parts = (sp.Trace, sp.Determinant, MatrixElement)
        if isinstance(diff, sp.Expr) and diff.has(*matrix_parts) and needs(diff):  # a trace, determinant, entry
            with cancelling():  # the definedness check has made every inverse in it invertible
                done = diff.replace(lambda e: isinstance(e, matrix_parts), sums.doit)
            if done != diff and sp.expand(done) == 0:
                return "matrix algebra (traces, determinants and entries of inverses, where they exist)"
        if not diff.has(sp.Sum):
            return None
        if _rename_bound(diff) == 0:
            return "the same expression up to the names of summation indices"
        return _sums_zero(diff)
    return None


def _sums_zero(expr):
    """How ``expr`` (with finite sums) is zero by :func:`canonical_sums` and :func:`summand_zero`, or None."""
    normal = canonical_sums(expr)
    if normal == 0:
        return "finite sums in normal form (linearity, order of summation over independent ranges, index names)"
    if normal is None or not normal.has(sp.Sum):
        return None
    how = summand_zero(normal)
    if how is not None:
        return f"finite sums in normal form, then each summand zero by {how}"
    return None


@functools.lru_cache(maxsize=256)
def _evaluated(diff):
    """A matrix expression evaluated at every level (transposes, products, also inside σ(…)), its sums held or
    written out exactly (:mod:`derive.kernel.sums`); once per expression, for every strategy that reads it."""
    with cancelling():  # the claim's definedness check has made every inverse in it invertible
        return sums.doit(diff.replace(lambda e: isinstance(e, MatrixExpr), sums.doit))


def _generic_entry(matrix):
    """Entry ``(i, j)`` of a matrix expression, for integer symbols ``i, j`` standing for any row and column.

    A dimension of size 1 has only the index 0, which is then used (so a 1×1 expression gives its one entry).
    """
    i, j = sp.symbols("i j", integer=True, nonnegative=True, cls=sp.Dummy)
    rows, cols = matrix.shape
    return matrix[0 if rows == 1 else i, 0 if cols == 1 else j]


def _collapse_blocks(matrix):
    """``matrix`` with every product, sum and transpose of block matrices multiplied out block by block.

    SymPy's ``block_collapse`` multiplies two block matrices only when the column blocks of the one have the very
    sizes of the row blocks of the other (conformable partitions, sizes compared as expressions), so each step is
    the exact identity ``[A B] [C; D] = A C + B D`` and its kin; innermost first, also inside σ(…) and index sums.
    """
    from sympy.matrices.expressions.blockmatrix import block_collapse

    def collapse(e):
        out = block_collapse(e)
        return out if out.shape == e.shape else e

    return matrix.replace(
        lambda e: isinstance(e, (sp.MatMul, sp.MatAdd, sp.Transpose)) and e.has(sp.BlockMatrix), collapse)


#: at most this many summation indices are put in every order when looking for the normal form
CANONICAL_MAX_INDICES = 5


class _NotCanonical(Exception):
    """A sum whose limits depend on summation indices: left alone (no rule here applies to it)."""


def canonical_sums(expr):
    """A normal form of ``expr`` for finite sums, or ``None`` when a sum's limits depend on summation indices.

    Each rule is an exact identity of finite sums (SymPy's ``Sum``, Karr's convention for empty ranges
    included): ``Σ (f + g) = Σ f + Σ g`` and constant factors taken in; ``(Σ_i f)(Σ_k g) = Σ_i Σ_k f g`` when
    neither range depends on the other index; the indices of a multiple sum whose ranges depend on none of
    its indices put in the order, and renamed to the names, that give the smallest expression (Fubini for
    finite sums, and renaming bound variables to names free in the summand). Applied inside function arguments
    too, so ``σ(Σ_i x_i q_i)`` and ``σ(Σ_k q_k x_k)`` become one expression.

    >>> import sympy as sp
    >>> i, k, n = sp.symbols("i k n", integer=True)
    >>> x, y = sp.IndexedBase("x"), sp.IndexedBase("y")
    >>> lhs = sp.Sum(x[i], (i, 0, n)) * sp.Sum(y[k], (k, 0, n))
    >>> rhs = sp.Sum(sp.Sum(y[i] * x[k], (i, 0, n)), (k, 0, n))
    >>> canonical_sums(lhs - rhs)
    0
    """
    try:
        return _norm(sp.sympify(expr))
    except _NotCanonical:
        return None


def _norm(e):
    if e.is_Atom or not e.has(sp.Sum):
        return e
    if isinstance(e, sp.Sum):
        return _norm_sum(e)
    args = [_norm(a) for a in e.args]
    e = e.func(*args)
    if isinstance(e, (sp.Add, sp.Mul, sp.Pow)):
        return sp.Add(*[_merge_term(t) for t in sp.Add.make_args(sp.expand(e, deep=False))])
    return e


def _limits_free(limits, variables):
    return not any(b.has(v) for lim in limits for b in lim[1:] for v in variables)


def _fresh_sum(s):
    """The variables, limits and summand of a (nested) sum, its indices renamed to fresh dummies."""
    limits, f = list(s.limits), s.function
    while isinstance(f, sp.Sum):
        limits += list(f.limits)
        f = f.function
    variables = [lim[0] for lim in limits]
    if len(set(variables)) != len(variables) or not _limits_free(limits, variables):
        raise _NotCanonical
    fresh = [sp.Dummy("k", integer=True) for _ in variables]
    rename, kept = {}, []
    bound = bound_symbols(f) if any(lim[1] == lim[2] for lim in limits) else set()  # (read only where it is asked)
    for v, new, lim in zip(variables, fresh, limits):
        if lim[1] == lim[2]:  # a range of one value: the summand at that value, where no part of it binds the value
            if lim[1].free_symbols & bound:  # (Σ_{k=j}^{j} ∫₀¹ k j dj: putting j for k would capture it)
                raise _NotCanonical
            rename[v] = lim[1]
        else:
            rename[v] = new
            kept.append((new, lim[1], lim[2]))
    return kept, f.xreplace(rename)


def _merge_term(term):
    """One product term: every factor that is a sum (or a power of one) merged into one multiple sum."""
    coeff, factors = term.as_coeff_mul()
    sums, others = [], []
    for f in factors:
        if isinstance(f, sp.Sum):
            sums.append(f)
        elif isinstance(f, sp.Pow) and isinstance(f.base, sp.Sum) and f.exp.is_Integer and f.exp > 0:
            sums += [f.base] * int(f.exp)
        else:
            others.append(f)
    if not sums:
        return term
    limits, summand = [], sp.Mul(*others)
    for s in sums:
        lim, f = _fresh_sum(s)
        limits += lim
        summand = summand * f
    return coeff * _canonical_multisum(summand, limits)


def _norm_sum(s):
    limits, f = _fresh_sum(s)
    return _canonical_multisum(f, limits)


def _canonical_multisum(f, limits):
    """``Σ_limits f`` in normal form: ``f`` normalised and split into terms, each a multiple sum in normal form."""
    f = _norm(f)
    variables = {lim[0] for lim in limits}
    out = []
    for term in sp.Add.make_args(sp.expand(f, deep=False)):
        coeff, rest = term.as_coeff_Mul()
        lim = list(limits)
        while isinstance(rest, sp.Sum):  # an inner multiple sum (from merging): one sum over all the indices
            inner = list(rest.limits)
            if not _limits_free(inner, variables | {l[0] for l in inner}):
                break
            lim += inner
            variables |= {l[0] for l in inner}
            rest = rest.function
        out.append(coeff * _ordered(rest, lim))
    return sp.Add(*out)


def _ordered(f, limits):
    """The multiple sum ``Σ_limits f`` with its indices in the order and with the names of smallest sort key.

    Factors of ``f`` that depend on no index are taken out of the sum (``Σ c g = c Σ g``).
    """
    if not limits:
        return f
    variables = [lim[0] for lim in limits]
    outside = [g for g in sp.Mul.make_args(f) if not g.has(*variables)]
    inside = [g for g in sp.Mul.make_args(f) if g.has(*variables)]
    if not inside:  # Σ_{k=a}^{b} c = (b − a + 1) c for all integers a, b (Karr's convention for b < a − 1 too)
        return f * sp.Mul(*[lim[2] - lim[1] + 1 for lim in limits])
    if outside:
        return sp.Mul(*outside) * _ordered(sp.Mul(*inside), limits)
    used = [lim for lim in limits if f.has(lim[0])] + [lim for lim in limits if not f.has(lim[0])]
    taken = {s.name for s in f.atoms(sp.Symbol)} | {s.name for lim in limits for b in lim[1:] for s in b.atoms(sp.Symbol)}
    names = []
    k = 0
    while len(names) < len(limits):
        if f"_k{k}" not in taken:
            names.append(sp.Symbol(f"_k{k}", integer=True))
        k += 1
    orders = (itertools.permutations(range(len(limits))) if len(limits) <= CANONICAL_MAX_INDICES
              else [tuple(range(len(limits)))])
    best, best_key = None, None
    for order in orders:
        rename = {used[p][0]: names[n] for n, p in enumerate(order)}
        body = f.xreplace(rename)
        lims = [(names[n], used[p][1], used[p][2]) for n, p in enumerate(order)]
        candidate = sp.Sum(body, *reversed(lims))
        key = sp.default_sort_key(candidate)
        if best_key is None or key < best_key:
            best, best_key = candidate, key
    return best


def summand_zero(normal):
    """How every group of sums over the same ranges has a summand that is zero for all index values, or None.

    ``Σ_L f + Σ_L g = Σ_L (f + g)``, and a sum whose summand is zero for every value of its indices is zero.
    The summand is handed to the other strategies with each maximal subterm that depends on no summation index
    of its own, a matrix entry or an inner sum, generalised to a fresh real symbol (a matrix symbol stands for
    a real matrix, as its scope ``ℝ^{m×d}`` says); the generalisation is checked to give the summand back.
    """
    groups: dict = {}
    for term in sp.Add.make_args(normal):
        sums = [f for f in sp.Mul.make_args(term) if isinstance(f, sp.Sum)]
        if len(sums) != 1:
            return None  # a term outside every sum that did not cancel
        outside = sp.Mul(*[f for f in sp.Mul.make_args(term) if f is not sums[0]])
        if outside.has(*[lim[0] for lim in sums[0].limits]):
            return None
        groups.setdefault(sums[0].limits, []).append(outside * sums[0].function)  # c Σ g = Σ c g
    used = set()
    for limits, summands in groups.items():
        name = _zero_generalised(sp.Add(*summands))
        if name is None:
            return None
        used.add(name)
    return ", ".join(sorted(used))


def _zero_generalised(expr):
    """The strategy that proves ``expr`` zero for all values of its matrix entries and inner sums (each a fresh
    real symbol, :func:`_generalise`, checked to give ``expr`` back), or ``None``."""
    general, back = _generalise(expr)
    if sp.expand(general.xreplace(back) - expr) != 0:
        return None
    return prove_zero(general, ["expand", "sign-split", "rational"])[0]


def _generalise(expr):
    """``expr`` with every matrix entry and every inner sum replaced by a fresh real symbol; and the way back."""
    atoms = sorted(expr.atoms(sp.Sum) | expr.atoms(sp.matrices.expressions.matexpr.MatrixElement), key=sp.default_sort_key)
    atoms = [a for a in atoms if not any(a != b and b.has(a) for b in atoms if isinstance(b, sp.Sum))]
    fresh = {a: sp.Dummy(f"g{k}", real=_real_entries(a)) for k, a in enumerate(atoms)}
    return expr.xreplace(fresh), {v: a for a, v in fresh.items()}


def _real_entries(atom):
    """A matrix entry of a matrix symbol is real (matrix symbols stand for real matrices); an inner sum only when
    its summand is real with those entries real: otherwise its stand-in is a complex symbol, with no sign to split
    on. The same reading as the definedness check's (:func:`derive.kernel.wellformed.real`)."""
    return wellformed.real(atom)


def _rename_bound(expr):
    """``expr`` with every summation index renamed to a fresh canonical symbol, outermost first, term by term.

    A pure renaming of bound variables (each binder gets its own new name, unused anywhere in ``expr``), so the
    value is unchanged. ``Basic.as_dummy`` is not used: it gives nested sums one shared name, capturing indices.
    A sum whose limits mention its own index is left as it is.
    """
    from sympy.concrete.expr_with_limits import ExprWithLimits

    taken = {s.name for s in expr.atoms(sp.Symbol)}

    def fresh(counter):
        name = next(n for n in (f"_b{k}" for k in counter) if n not in taken)
        return sp.Symbol(name)

    def walk(e, counter):
        if e.is_Atom:
            return e
        if isinstance(e, ExprWithLimits):
            bounds = [b for lim in e.limits for b in lim[1:]]
            bound = all(len(lim) == 3 for lim in e.limits)  # an indefinite integral's variable is free, not bound
            if bound and not any(b.has(v) for b in bounds for v in e.variables):
                e = e.xreplace({v: fresh(counter) for v in e.variables})
        return e.func(*[walk(a, counter) for a in e.args])

    return sp.Add(*[walk(term, itertools.count()) for term in sp.Add.make_args(expr)])


def expand(diff):
    """Multiply out every product and power, also inside function arguments."""
    if isinstance(diff, MatrixExpr):
        return None
    if sp.expand(diff) == 0:
        return "expand"
    return None


def rational(diff):
    """Bring to one fraction and cancel: zero wherever both sides are defined."""
    if isinstance(diff, MatrixExpr):
        return None
    if not any(p.exp.is_negative for p in diff.atoms(sp.Pow)):
        return None  # no denominator: a polynomial in its atoms, which expand has already settled
    if sp.cancel(sp.together(diff)) == 0:
        return "cancel (rational function arithmetic)"
    return None


def _strip_known_sign(arg):
    """``c * core`` with every factor of known sign in ``c``: returns ``core`` up to its sign."""
    arg = sp.factor_terms(sp.expand(arg))
    factors = sp.Mul.make_args(arg)
    core = sp.Mul(*[f for f in factors if not (f.is_positive or f.is_negative)])
    if core.could_extract_minus_sign():
        core = -core
    return core


@functools.lru_cache(maxsize=4096)
def _normalise(atom):
    """``Max(0, α x q₁ + α x q₂)`` → ``Max(0, α (x q₁ + x q₂))``: common factors pulled out of the arguments."""
    return atom.func(*[sp.factor_terms(sp.expand(a)) for a in atom.args])


def _split_arguments(diff):
    """The arguments to split on, up to known-sign factors; ``None`` when one is not known to be real (a complex
    ``a`` or an imaginary ``sqrt(a)`` has no sign to split on)."""
    cores = set()
    bound = bound_symbols(diff)  # (a comparison of a sum's index is read inside the sum, never split on outside it)
    for atom in diff.atoms(*_PIECEWISE):
        if isinstance(atom, sp.Piecewise):  # every comparison of a condition, one joined by and/or/not too
            args = [r.lhs - r.rhs for _, c in atom.args if isinstance(c, sp.Basic)
                    for r in sorted(c.atoms(sp.core.relational.Relational), key=sp.default_sort_key)]
        else:
            args = list(atom.args)
        for arg in args:
            if arg.is_number or arg.is_positive or arg.is_negative or arg.is_zero:
                continue
            core = _strip_known_sign(arg)
            if core.is_number or core.free_symbols & bound:
                continue
            if core.is_real is not True:
                return None
            cores.add(core)
    return sorted(cores, key=sp.default_sort_key)


def sign_split(diff):
    """Split on the sign of every argument of ``Max``/``Min``/``Abs``/``Piecewise`` (positive, negative, zero).

    Only arguments SymPy knows to be real are split (each is then positive, negative or zero); compound ones
    are first generalised to fresh real symbols, and the generalisation is checked to give back the original
    exactly; each of the ``3**n`` cases must then reduce to zero by ``expand``.

    >>> import sympy as sp
    >>> a = sp.Symbol("a")  # complex: |a|**2 is not a**2
    >>> sign_split(sp.Abs(a)**2 - a**2) is None
    True
    """
    if isinstance(diff, MatrixExpr):
        return None
    diff = diff.xreplace({a: _normalise(a) for a in diff.atoms(*_PIECEWISE) if not isinstance(a, sp.Piecewise)})
    cores = _split_arguments(diff)
    if not cores:  # None (an argument not known to be real) or nothing to split
        return None
    if any(c.is_Symbol and c in _sizes(diff) for c in cores):  # a size: no case puts −p into a matrix's shape
        return _by_breakpoints(diff)
    variables = [core if core.is_Symbol else sp.Dummy(f"t{k}", real=True) for k, core in enumerate(cores)]
    general = diff.xreplace({c: v for c, v in zip(cores, variables) if not c.is_Symbol})
    back = general.xreplace({v: c for v, c in zip(variables, cores) if isinstance(v, sp.Dummy)})
    if sp.expand(back - diff) != 0:
        return _by_breakpoints(diff)
    groups = _independent_groups(sp.expand(general), variables)
    if len(groups) == 1 or not all(_all_cases_zero(g, vs) for g, vs in groups):
        if len(variables) > SIGN_SPLIT_MAX or not _all_cases_zero(general, variables):
            return _by_breakpoints(diff)
        groups = [(general, variables)]
    n_cases = sum(3 ** len(vs) for _, vs in groups)
    names = ", ".join(sp.sstr(c) for c in cores)
    split = f"{len(groups)} independent groups, " if len(groups) > 1 else ""
    return f"sign split on {names}: {split}{n_cases} cases, each by expand"


def _by_breakpoints(diff):
    """The sign split by substitution: ``max(z, 1) + min(z, 1) - 1 = z`` needs the sign of ``z - 1`` *and* ``z``
    to move together, which fresh symbols for the arguments cannot give.

    ``Max(u, v)`` is written ``v + Max(u - v, 0)`` (and ``Min`` alike); then an argument ``k x + r`` that is linear
    in a real symbol ``x`` (``k`` a known nonzero real) is split by putting ``x := (s p - r)/k`` everywhere, for
    ``s`` = 1, -1, 0 and a fresh positive ``p``: the three cases cover every real ``x``. The split recurses on what
    is left, at most :data:`SIGN_SPLIT_MAX` deep; every leaf must reduce to zero by ``expand``.
    """
    split_on: list = []
    leaves = _cases_zero(_lift(diff), SIGN_SPLIT_MAX, split_on)
    if not leaves:
        return None
    names = ", ".join(sp.sstr(c) for c in split_on)
    return f"sign split by substitution on {names}: {leaves} cases, each by expand"


def _lift(expr):
    """``Max(u, v, …)`` as ``v + Max(u - v, 0)`` (nested for more arguments); ``Min`` alike. An exact rewriting."""
    def lift(e):
        args = list(e.args)
        inner = e.func(*args[:-1]) if len(args) > 2 else args[0]
        last = args[-1]
        return last + e.func(_lift(inner) - last, 0)

    return expr.replace(lambda e: isinstance(e, (sp.Max, sp.Min)) and len(e.args) >= 2 and 0 not in e.args, lift)


def _linear_in(core):
    """``(x, k, r)`` with ``core = k x + r``, ``x`` a real symbol, ``k`` known nonzero and real, neither holding ``x``."""
    for x in sorted(core.free_symbols, key=sp.default_sort_key):
        if not (isinstance(x, sp.Symbol) and x.is_real):
            continue
        expanded = sp.expand(core)
        k = expanded.coeff(x, 1)
        r = sp.expand(expanded - k * x)
        if k.has(x) or r.has(x) or not (k.is_real and wellformed.known_nonzero(k)):
            continue
        return x, k, r
    return None


def _cases_zero(expr, depth: int, split_on: list) -> int:
    """The number of cases when every one reduces to zero (see :func:`_by_breakpoints`), else 0."""
    if expr.has(sp.Piecewise):
        expr = _folded(expr)
    if sp.expand(expr) == 0:
        return 1
    cores = _split_arguments(expr)
    if not cores or depth == 0:
        return 0
    bound = bound_symbols(expr) | _sizes(expr)  # a symbol a sum binds, or a size, is not put a value for (it would
    # meet the sum's limits, or make a matrix of size −p)
    pick = next((found for found in map(_linear_in, cores) if found is not None and found[0] not in bound), None)
    if pick is None:
        return _polynomial_cases_zero(expr, cores, bound, depth, split_on)
    x, k, r = pick
    if r.free_symbols & bound:  # x := (±p − r)/k would put a symbol where a part binds it
        return 0
    split_on.append(k * x + r)
    positive = sp.Dummy("p", positive=True)
    total = 0
    for value in ((positive - r) / k, (-positive - r) / k, -r / k):
        leaves = _cases_zero(_lift(expr.xreplace({x: value})), depth - 1, split_on)
        if not leaves:
            return 0
        total += leaves
    return total


def _polynomial_cases_zero(expr, cores, bound, depth: int, split_on: list) -> int:
    """:func:`_cases_zero` over a real symbol ``x`` whose arguments are polynomials in ``x`` alone with rational
    coefficients, one of degree 2 or more (``Heaviside(z² − 2)``): the real line cut at their real roots, each
    written in radicals and put in order by certified enclosures. At each root ``x`` takes that value; on each open
    interval between them every argument keeps the sign it has at a rational point there, so it is read as that
    sign times a fresh positive symbol (checked to give back the expression exactly), ``x`` left as it is. Every
    case must reduce to zero, recursing as :func:`_cases_zero` does; anything else (a root only ``CRootOf``
    writes, two roots the enclosures cannot put in order) is 0 cases: not proved."""
    found = _polynomial_arguments(cores, bound)
    if found is None:
        return 0
    x, mine = found
    roots = _ordered_roots(mine, x)
    if roots is None:
        return 0
    points = _points_between(roots)
    if points is None:
        return 0
    split_on.extend(c for c in mine if c not in split_on)
    written = expr.xreplace({a: _normalise(a) for a in expr.atoms(*_PIECEWISE) if not isinstance(a, sp.Piecewise)})
    try:  # each root put in as written, the kinks' arguments expanded before SymPy compares them (Max of a
        # ((1 − √5)/2)² − … that is 0 but not written so is no comparison it can make)
        cases = [_kink_arguments_expanded(_put_in_as_written(written, x, r)) for r in roots]
    except (TypeError, ValueError):
        return 0
    # each argument as a real of its own (checked to give back the expression, and to leave no kink of x), then
    # that real as its sign on the interval times a positive one
    general = {c: sp.Dummy("t", real=True) for c in mine}
    generalised = written.xreplace({**_comparisons_of(written, general), **{-c: -t for c, t in general.items()},
                                    **general})  # (2 − z² is −(z² − 2))
    kinks = [part for a in generalised.atoms(*_PIECEWISE)
             for part in ([c for _, c in a.args] if isinstance(a, sp.Piecewise) else a.args)]
    if sp.expand(generalised.xreplace({t: c for c, t in general.items()}) - written) != 0 or any(
            isinstance(part, sp.Basic) and part.has(x) for part in kinks):
        return 0  # an argument not read as a whole (its core inside something else): not split here
    for q in points:
        fresh = {c: sp.sign(c.xreplace({x: q})) * sp.Dummy("p", positive=True) for c in mine}  # (an exact rational)
        cases.append(generalised.xreplace({general[c]: fresh[c] for c in mine}))
    total = 0
    for case in cases:
        leaves = _cases_zero(_lift(case), depth - 1, split_on)
        if not leaves:
            return 0
        total += leaves
    return total


def _polynomial_arguments(cores, bound):
    """``(x, its arguments)``: a real symbol, declared nothing more and bound by no part, each argument holding which
    is a polynomial in it alone with rational coefficients, one of degree 2 or more; ``None`` when none is."""
    for x in sorted({s for c in cores for s in c.free_symbols}, key=sp.default_sort_key):
        if not isinstance(x, sp.Symbol) or x in bound or x.is_real is not True or any(
                getattr(x, f"is_{k}") is not None for k in ("positive", "negative", "zero", "integer")):
            continue
        mine = [c for c in cores if x in c.free_symbols]
        if not all(c.free_symbols == {x} and c.is_polynomial(x) and all(k.is_Rational for k in sp.Poly(c, x).coeffs())
                   for c in mine):
            continue
        if any(sp.degree(c, x) >= 2 for c in mine):
            return x, mine
    return None


def _sign_of(number) -> int | None:
    """The sign of a closed real number, as a certified enclosure gives it (``None``: none excludes zero)."""
    found = excluding_zero(sp.sympify(number))
    if found is None or not found[1].startswith("arb"):
        return None
    return 1 if found[0] > 0 else -1


def _ordered_roots(polys, x):
    """The distinct real roots of ``polys`` in increasing order, each written in radicals; ``None`` when one is not
    (``CRootOf``) or two cannot be told apart by an enclosure."""
    roots = []
    for c in polys:
        for r in sp.Poly(c, x).real_roots():
            if r.has(sp.CRootOf) or r.is_real is not True:
                return None
            if r not in roots:
                roots.append(r)

    def order(a, b):
        s = _sign_of(a - b)
        if s is None:
            raise _Unordered
        return s

    try:
        return sorted(roots, key=functools.cmp_to_key(order))
    except _Unordered:
        return None


class _Unordered(Exception):
    """Two roots no enclosure puts in order (equal, written apart): no split."""


def _points_between(roots):
    """A rational point in each open interval the roots cut the real line into (one for no root), each certified to
    lie strictly between its two roots; ``None`` when one cannot be."""
    if not roots:
        return [sp.Integer(0)]
    approx = [sp.Rational(str(sp.N(r, 30))) for r in roots]
    points = [sp.floor(approx[0]) - 1] + [(a + b) / 2 for a, b in zip(approx, approx[1:])] + [sp.ceiling(approx[-1]) + 1]
    for k, q in enumerate(points):
        if k > 0 and _sign_of(q - roots[k - 1]) != 1:
            return None
        if k < len(roots) and _sign_of(roots[k] - q) != 1:
            return None
    return points


def _comparisons_of(expr, general: dict) -> dict:
    """Each comparison in a ``Piecewise`` condition of ``expr`` whose sides differ by a rational multiple ``k`` of
    an argument ``c`` (``z² ≥ 2`` of ``z² − 2``), written ``k t ⋈ 0`` in the real ``t`` that stands for ``c``: the same
    condition, read as a whole (SymPy keeps a condition as ``z² ≥ 2`` however it is built)."""
    out = {}
    for p in expr.atoms(sp.Piecewise):
        for _, cond in p.args:
            for rel in (cond.atoms(sp.core.relational.Relational) if isinstance(cond, sp.Basic) else ()):
                for c, t in general.items():
                    k = sp.cancel((rel.lhs - rel.rhs) / c)
                    if k.is_Rational and k != 0:
                        out[rel] = rel.func(k * t, 0)
                        break
    return out


def _put_in_as_written(expr, x, value):
    """``expr`` with ``value`` for ``x``, nothing evaluated."""
    with sp.evaluate(False):
        return expr.xreplace({x: value})


def _kink_arguments_expanded(expr):
    """``expr`` with the arguments of its kinks and the comparisons of its conditions expanded: at a root written in
    radicals, ``(√2)² − 2`` is the 0 it stands for."""
    def kink(e):
        if isinstance(e, sp.Piecewise):
            return sp.Piecewise(*[(v, c.replace(lambda r: isinstance(r, sp.core.relational.Relational),
                                                lambda r: r.func(sp.expand(r.lhs - r.rhs), 0))
                                   if isinstance(c, sp.Basic) else c) for v, c in e.args])
        return e.func(*[sp.expand(a) for a in e.args])

    return expr.replace(lambda e: isinstance(e, _PIECEWISE), kink)


def _independent_groups(expanded, variables):
    """Split a sum into groups of terms that share no split variable (each group must vanish on its own)."""
    groups: list[tuple[list, set]] = []
    for term in sp.Add.make_args(expanded):
        present = {v for v in variables if term.has(v)}
        merged = [g for g in groups if g[1] & present]
        terms, seen = [term], set(present)
        for g in merged:
            groups.remove(g)
            terms += g[0]
            seen |= g[1]
        groups.append((terms, seen))
    ordered = [v for v in variables]
    return [(sp.Add(*terms), [v for v in ordered if v in seen]) for terms, seen in groups]


def _sizes(expr) -> set:
    """The symbols of the sizes of the matrix expressions in ``expr``."""
    return {s for m in expr.atoms(MatrixExpr) for d in m.shape for s in sp.sympify(d).free_symbols}


def _folded(expr):
    """``piecewise_fold(expr)``, where it is exact: SymPy folds a ``Piecewise`` out of a sum, a product or an integral
    as out of any function, so ``Σ_k [k > 2]`` became ``[k > 2]·Σ_k 1``, its condition read at one k outside the sum
    (Σ_{k=0}^{N} (1 if k > 2 else 2) · Σ_{k=0}^{N} (2 if k > 2 else 1) = (N + 1)·2(N + 1) was proved, 35 ≠ 32 at
    N = 3). Where a condition holds a symbol some part binds, ``expr`` is left as it is."""
    bound = bound_symbols(expr)
    if bound and any(cond.free_symbols & bound for p in expr.atoms(sp.Piecewise) for _, cond in p.args
                     if isinstance(cond, sp.Basic)):
        return expr
    return sp.piecewise_fold(expr)


def _all_cases_zero(expr, variables) -> bool:
    """Every sign case (each variable positive, negative or zero) reduces to zero by expand."""
    if len(variables) > SIGN_SPLIT_MAX:
        return False
    positives = [sp.Dummy(f"p{k}", positive=True) for k in range(len(variables))]
    for signs in itertools.product((1, -1, 0), repeat=len(variables)):
        case = {v: s * p for v, s, p in zip(variables, signs, positives)}
        reduced = expr.xreplace(case)
        if any(a.has(*positives) for a in reduced.atoms(sp.Piecewise)):
            reduced = _folded(reduced)
        if sp.expand(reduced) != 0:
            return False
    return True


#: at most this many distinct ``Piecewise`` conditions are split on (2**n cases)
CASES_MAX = 3


def _selected(delta, t):
    """The index ``δ(t + a, c)`` selects, ``c - a``, when ``a`` and ``c`` are integers free of ``t``; else ``None``
    (also for SymPy's δ over a range of its own, ``δ(0, i, (0, n − 1))``, an entry of ``Identity(n)``)."""
    if len(delta.args) != 2:
        return None
    for this, other in (delta.args, delta.args[::-1]):
        offset = this - t
        if not offset.has(t) and not other.has(t) and offset.is_integer is True and other.is_integer is True:
            return other - offset
    return None


def _picked(term, t, lo, hi, bound=frozenset()):
    """``Σ_{t=lo}^{hi} term`` for one product term with a factor ``δ(t + a, c)``, ``a`` and ``c`` integers free of
    ``t``: the term at ``t = c - a`` where ``lo <= c - a <= hi``, else 0 (a ``Piecewise`` on that condition);
    ``None`` otherwise."""
    for f in sp.Mul.make_args(term):
        base = f.base if isinstance(f, sp.Pow) and f.exp.is_Integer and f.exp > 0 else f
        if not isinstance(base, sp.KroneckerDelta):
            continue
        at = _selected(base, t)
        if at is not None and not at.free_symbols & bound:  # putting it in captures nothing a part binds
            inside = sp.And(sp.Ge(at, lo), sp.Le(at, hi))
            if inside is sp.false:
                return sp.S.Zero
            try:
                value = term.xreplace({t: at})  # every other term of the range is zero
            except IndexError:  # an entry past its matrix (x[n, 0] of an n-row x): only where the range says
                return None
            return value if inside is sp.true else sp.Piecewise((value, inside), (sp.S.Zero, True))
    return None


def _delta_sums(expr):
    """``expr`` with every finite sum against a Kronecker delta evaluated, innermost first: ``Σ_{t=lo}^{hi} f(t)
    δ(t, c) = f(c)`` where ``lo <= c <= hi``, else 0, for an integer ``c`` (SymPy's own delta summation reads a
    non-integer ``c`` as a term of the range). Only over a range of ``hi - lo + 1 >= 0`` terms (Karr's convention
    reverses a longer one), in a summand that no inner part binds ``t`` in; any other sum is left as it is."""
    if not isinstance(expr, sp.Basic) or expr.is_Atom or not expr.has(sp.Sum):
        return expr
    args = [_delta_sums(a) for a in expr.args]
    expr = expr.func(*args) if args != list(expr.args) else expr
    if not isinstance(expr, sp.Sum) or any(len(lim) != 3 for lim in expr.limits):
        return expr
    value, limits = expr.function, list(expr.limits)  # Σ_n Σ_i f: the first limit innermost
    while limits:
        for k, (t, lo, hi) in enumerate(limits):
            others = limits[:k] + limits[k + 1:]
            # a sum over a range that depends on no other index, and on which no other range depends, may be taken
            # innermost (the order of finite sums over independent ranges is free)
            if any(o[1].has(t) or o[2].has(t) or lo.has(o[0]) or hi.has(o[0]) for o in others):
                continue
            done = _one_sum(value, (t, lo, hi))
            if done is not None:
                value = _delta_sums(done)
                del limits[k]
                break
        else:
            return sp.Sum(value, *limits)
    return value


def _one_sum(body, limit, depth: int = 4):
    """``Σ_{t=lo}^{hi} body`` evaluated term by term (:func:`_term_sum`), or ``None``."""
    t, lo, hi = limit
    bound = bound_symbols(body)
    if lo.has(t) or hi.has(t) or (hi - lo + 1).is_nonnegative is not True or t in bound:
        return None
    if lo.is_integer is not True or hi.is_integer is not True:
        return None  # t runs over lo, lo + 1, …: off the integers, no integer index is ever selected
    if lo == hi:
        return None if lo.free_symbols & bound else body.xreplace({t: lo})  # one term (nothing captured)
    out = []
    for term in sp.Add.make_args(sp.expand(body)):
        picked = _term_sum(term, t, lo, hi, depth, bound)
        if picked is None:
            return None
        out.append(picked)
    return sp.Add(*out)


def _selector(term, t):
    """A Kronecker delta somewhere in ``term`` that selects an index (:func:`_selected`), and that index; else
    ``None``."""
    for delta in sorted(term.atoms(sp.KroneckerDelta), key=sp.default_sort_key):
        at = _selected(delta, t)
        if at is not None:
            return delta, at
    return None


def _term_sum(term, t, lo, hi, depth, bound=frozenset()):
    """``Σ_{t=lo}^{hi} term``: ``term`` times the number of terms when free of ``t``; the selected term where
    ``δ(t, c)`` is a factor (:func:`_picked`); and where ``δ(t, c)`` sits anywhere else (``σ(a δ(t, c))``), by
    ``g(t) = δ(t, c) g₁(t) + (1 - δ(t, c)) g₀(t)``, ``g₁`` and ``g₀`` being ``g`` with that delta put 1 and 0:
    ``Σ_t g = Σ_t g₀ + [lo <= c <= hi] (g₁(c) - g₀(c))``. ``None`` when none applies."""
    if not term.has(t):
        return term * (hi - lo + 1)
    picked = _picked(term, t, lo, hi, bound)
    if picked is not None or depth == 0:
        return picked
    found = _selector(term, t)
    if found is None or found[1].free_symbols & bound:
        return None  # nothing selects an index, or putting it in would capture a symbol a part of term binds
    delta, c = found
    one, zero = term.xreplace({delta: sp.S.One}), term.xreplace({delta: sp.S.Zero})
    rest = _one_sum(zero, (t, lo, hi), depth - 1)  # (its own checks, the capture one included)
    if rest is None:
        return None
    inside = sp.And(sp.Ge(c, lo), sp.Le(c, hi))
    value = (one - zero).xreplace({t: c})
    return rest + (value if inside is sp.true else sp.Piecewise((value, inside), (sp.S.Zero, True)))


def _read_under(expr, assume):
    """``expr`` with each Kronecker delta and ``Piecewise`` condition that ``assume`` decides put as decided
    (:func:`derive.kernel.cases.decide`: ``δ(i, l)`` is 0 where ``i ≠ l`` is assumed), exactly: the conditions hold at
    every point the statement is about."""
    from . import cases

    known, bound = {}, bound_symbols(expr)
    for delta in expr.atoms(sp.KroneckerDelta):
        if delta.free_symbols & bound or len(delta.args) != 2:
            continue  # about the values a sum or a Lambda gives its index there, not the statement's (or a range's δ)
        held = cases.decide(sp.Eq(*delta.args), assume)
        if held is None:
            held = cases.decide(sp.Ne(*delta.args), assume)
            held = None if held is None else not held
        if held is not None:
            known[delta] = sp.S.One if held else sp.S.Zero
    if known:
        expr = expr.xreplace(known)
    return cases.read(expr, assume)[0]


def piecewise_cases(diff, assume=()):
    """Split on the conditions of every ``Piecewise``: each truth assignment to its distinct conditions takes, in
    every ``Piecewise``, the first branch whose condition is then true, and each case must reduce to zero.

    Every point gives each condition a truth value, and there the difference is the case of that assignment; a
    case proved zero for all values of its symbols (matrix entries and sums generalised to fresh real symbols, as
    in :func:`summand_zero`) is zero there, so the split is exact. A matrix expression is read at its generic
    entry, with each sum against a Kronecker delta evaluated (an index such as a permutation's ``π(k)`` gives the
    case "in the range", and the case "outside it": :func:`_delta_sums`). Conditions on a symbol that a part of the expression binds
    are not split on; at most :data:`CASES_MAX` conditions. With ``assume`` (the conditions a step of a chain
    requires, such as ``k <= r - 1`` for an index), what they decide is read first (:func:`_read_under`).

    >>> import sympy as sp
    >>> t, c = sp.Symbol("t", real=True), sp.Symbol("c", integer=True)
    >>> piecewise_cases(sp.Max(0, sp.Piecewise((2 * t, c > 0), (0, True))) - sp.Piecewise((2 * sp.Max(0, t), c > 0), (0, True)))
    'cases on c > 0: 2 cases, each by expand, sign-split'
    >>> piecewise_cases(sp.Piecewise((t, c > 0), (0, True)) - sp.Piecewise((t, c > 1), (0, True))) is None
    True
    """
    if not (isinstance(diff, sp.Basic) and diff.has(sp.Piecewise, sp.KroneckerDelta)):
        return None
    if isinstance(diff, MatrixExpr) and not isinstance(diff, sp.MatrixBase):
        done = _evaluated(diff)
        if not (isinstance(done, MatrixExpr) and not isinstance(done, sp.MatrixBase)):
            return None
        diff = _generic_entry(done)
    if not isinstance(diff, sp.Expr):
        return None
    if diff.has(sp.KroneckerDelta):
        diff = _delta_sums(diff)
        if assume:
            diff = _read_under(diff, assume)
        how = "sums against Kronecker deltas evaluated (the term selected where its index is in the range, else 0)"
        if sp.expand(diff) == 0:
            return how
        if diff.has(sp.Sum) and not diff.has(sp.Piecewise):
            rest = _rename_bound(sp.expand(diff)) == 0 and "the same sums up to the names of their indices" \
                or _sums_zero(diff)
            return f"{how}, then {rest}" if rest else None
    if assume:
        diff = _read_under(diff, assume)
    if not diff.has(sp.Piecewise):
        return None if diff.has(sp.KroneckerDelta) or sp.expand(diff) != 0 else "the cases the assumptions decide"
    bound = bound_symbols(diff)
    conditions = []
    for piece in sorted(diff.atoms(sp.Piecewise), key=sp.default_sort_key):
        for _, cond in piece.args:
            if cond is sp.true or cond in conditions:
                continue
            if cond.free_symbols & bound:
                return None
            conditions.append(cond)
    if not conditions or len(conditions) > CASES_MAX:
        return None
    used = set()
    for values in itertools.product((True, False), repeat=len(conditions)):
        truth = dict(zip(conditions, values))

        def branch(piece):
            for value, cond in piece.args:
                if cond is sp.true or truth[cond]:
                    return value
            return sp.nan  # no branch applies: the case has no value, and nan never reduces to zero

        case = diff.replace(lambda e: isinstance(e, sp.Piecewise), branch)
        name = None if case.has(sp.nan) else _zero_generalised(case)
        if name is None:
            return None
        used.add(name)
    names = ", ".join(notation.text(c) for c in conditions)
    return f"cases on {names}: {2 ** len(conditions)} cases, each by {', '.join(sorted(used))}"


def simplify_small(diff):
    """``simplify``, last and only on small scalar expressions (it can take minutes on large ones)."""
    if isinstance(diff, MatrixExpr) or sp.count_ops(diff) > SIMPLIFY_MAX_OPS:
        return None
    if simplified(diff) == 0:  # (never asked of sums, integrals, Piecewise or conditions: kernel.simplifying)
        return "simplify (small scalar)"
    return None


def _of_matrices(diff) -> bool:
    """``diff`` holds a matrix expression: a trace, a determinant, an entry of one."""
    return isinstance(diff, sp.Basic) and diff.has(sp.Trace, sp.Determinant, MatrixExpr)


def _first_line(exc) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:80] if text else ""


#: name -> strategy, cheapest first
STRATEGIES = {
    "structural": structural,
    "expand": expand,
    "sign-split": sign_split,  # a no-op without Max/Min/Abs/Piecewise; before cancel, which is slow on them
    "rational": rational,
    "cases": piecewise_cases,  # the branches of Piecewise values (sums against Kronecker deltas at every size)
    "simplify": simplify_small,
}


def prove_zero(diff, strategies=None, budget: float = 5.0):
    """Try the strategies in order on one scalar (or matrix-expression) difference.

    Returns ``(name, detail, attempts)``: the first strategy that reduced ``diff`` to zero (or ``None``), and
    the list of ``"name: outcome"`` lines of every attempt.

    >>> import sympy as sp
    >>> a, b = sp.symbols("a b", real=True)
    >>> prove_zero((a + b)**2 - a**2 - 2*a*b - b**2)[:2]
    ('expand', 'expand')
    >>> prove_zero(sp.Max(0, 2*a) - 2*sp.Max(0, a))[0]
    'sign-split'
    >>> prove_zero(sp.Max(0, -a) - sp.Max(0, a))[0] is None
    True
    """
    names = list(strategies or STRATEGIES)
    attempts = []
    for name in names:
        if name not in STRATEGIES:
            raise ValueError(f"unknown strategy {name!r}; known: {', '.join(STRATEGIES)}")
        start = time.perf_counter()
        try:
            with time_budget(budget):
                detail = STRATEGIES[name](diff)
        except OutOfTime as exc:
            if exc.outer:  # the caller's whole budget is spent: no further strategy may run
                raise
            attempts.append(f"{name}: out of time after {budget:.3g} s")
            continue
        except (NotImplementedError, RecursionError, sp.PolynomialError, IndexError) as exc:  # (an IndexError: a
            # case that puts a value past a matrix into an entry's index, Piecewise((M[i, 0], i < 3), …) at i = 3)
            said = _first_line(exc)
            attempts.append(f"{name}: not applicable ({type(exc).__name__}{': ' + said if said else ''})")
            continue
        except TypeError as exc:  # SymPy's word for an undecidable comparison; anything else is a bug to show
            if "truth value of Relational" in str(exc):
                attempts.append(f"{name}: not applicable (an undecidable comparison)")
            elif _of_matrices(diff):  # simplify, cancel … rebuild tr(2A) or det(2I) with 2A a scalar product
                attempts.append(f"{name}: not applicable (SymPy rebuilt a matrix expression as a scalar: "
                                f"{_first_line(exc)})")
            else:
                raise
            continue
        spent = time.perf_counter() - start
        over = "" if _budget.INTERRUPTS or spent <= budget else \
            f" (over its {budget:g} s: no timer signal here, budgets are checked between strategies)"
        if detail is not None:
            attempts.append(f"{name}: proved in {spent:.3f} s{over}")
            return name, detail, attempts
        attempts.append(f"{name}: no{over}")
    return None, "", attempts
