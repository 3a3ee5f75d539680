"""The layers of the paper as SymPy expressions.

Explicit matrices give explicit 1×n rows (component-wise statements at a concrete size); matrix symbols give
matrix expressions (dimension-free statements). ``x`` is a 1×d row, ``Q, K`` are m×d, ``V`` is m×n; the
bilinear forms take sequences of d×r matrices ``Qs, Ks``, one pair per unit.
"""
from __future__ import annotations

import functools

import sympy as sp
from sympy.matrices.expressions import MatrixExpr
from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction

from ..kernel import printing, wellformed
from ..kernel.validate import require_function, require_matrix

__all__ = [
    "key_value",
    "memory_sum",
    "bilinear",
    "symmetric_rank1",
    "gated",
    "gated_rank_r",
    "unit_sum",
    "one_unit",
    "unit_row",
    "permutation_matrix",
    "diagonal",
    "row_of",
    "column_of",
    "index_sum",
    "elementwise",
    "hadamard",
]


#: the one variable of every function a form applies entrywise: two forms of one σ are then the same expression,
#: however σ was written (``Lambda(z, max(0, z))``, or the generic σ with ``max(0, ·)`` put in for it)
_T = sp.Dummy("t", real=True)


@functools.lru_cache(maxsize=None)
def _as_lambda(sigma):
    """One fixed Lambda per function, in the variable ``_T``: ``ElementwiseApplyFunction`` would wrap a class in a
    fresh one each call, and compares Lambdas by their variables."""
    if isinstance(sigma, sp.Lambda):
        if sigma.variables == (_T,):
            return sigma
        (v,), body = sigma.variables, sigma.expr
        renamed = body.xreplace({v: _T})
        if renamed.xreplace({_T: v}) == body:  # renaming lost nothing SymPy would have evaluated away
            return sp.Lambda(_T, renamed)
        with sp.evaluate(False):  # its body as written (t·t⁻¹ built unevaluated keeps dividing by t)
            return sp.Lambda(_T, body.xreplace({v: _T}))
    return sp.Lambda(_T, sigma(_T))


def _key(arg):
    """What a form's value depends on in ``arg``: its value, its type and, for a shown matrix, how it is printed (two
    matrices of one value printed apart give values printed apart)."""
    if isinstance(arg, (list, tuple)):
        return (type(arg), tuple(_key(a) for a in arg))
    if isinstance(arg, printing.Shown):
        return (type(arg), arg, arg.shadow, frozenset(arg.leaves.items()))
    return (type(arg), arg)


def _remembered(form):
    """``form`` computed once per distinct operands: classifying an activation builds each of its layers several
    times (its sides, their printed forms, each claim's shadow), and SymPy takes long over them (``Max(0, a)`` of a
    sum asks for the sum's sign). A value is immutable; operands that cannot be hashed are not remembered."""
    kept: dict = {}

    @functools.wraps(form)
    def remembered(*args):
        try:
            key = tuple(_key(a) for a in args)
            hit = kept.get(key)
        except TypeError:  # a mutable matrix, or a list of them
            return form(*args)
        if hit is None:
            hit = form(*args)
            if len(kept) >= 512:
                kept.clear()
            kept[key] = hit
        return hit

    return remembered


def _shown(value, make, *operands):
    """``value`` printed as ``make(shadows of operands)`` when every operand has a shadow."""
    shades = [printing.shadow_of(o) for o in operands]
    if any(sh is None for sh in shades):
        return value
    leaves = {}
    for o in operands:
        leaves.update(getattr(o, "leaves", {}))
    try:
        return printing.shown(value, make(*shades), leaves)
    except (TypeError, ValueError, NotImplementedError, AttributeError, sp.ShapeError):
        return value


def _call(name, value, *operands):
    """``value``, printed as the form ``name`` applied to ``operands`` (matrices, lists of matrices, σ)."""
    matrices, shaded = [], []
    for o in operands:
        if isinstance(o, (list, tuple)):
            matrices += list(o)
            shaded.append(sp.Tuple(*[printing.shadow_of(a) for a in o]))
        elif isinstance(o, (sp.MatrixBase, MatrixExpr)):
            matrices.append(o)
            shaded.append(printing.shadow_of(o))
        else:
            shaded.append(o)
    if any(sh is None for sh in shaded) or any(isinstance(sh, sp.Tuple) and None in sh for sh in shaded):
        return value
    leaves = {}
    for o in matrices:
        leaves.update(getattr(o, "leaves", {}))
    return printing.shown(value, printing.FormCall(name, value.shape, *shaded), leaves)


def _symbolic(*mats) -> bool:
    return any(isinstance(m, MatrixExpr) and not isinstance(m, sp.MatrixBase) for m in mats)


@_remembered
def elementwise(sigma, M):
    """σ applied to every entry of ``M`` (explicit) or as an ``ElementwiseApplyFunction`` (symbolic).

    >>> import sympy as sp
    >>> from derive import activation, row
    >>> from derive.layers.forms import elementwise
    >>> elementwise(activation("relu"), row("x", 2))
    Matrix([[Max(0, x_1), Max(0, x_2)]])
    """
    sigma = require_function("elementwise", "sigma", sigma)
    if _symbolic(M):  # (kept applied: what σ divides by is read at the entries, and asked for)
        return ElementwiseApplyFunction(_as_lambda(sigma), M)
    require_matrix("elementwise", "M", M)
    _require_defined_on_reals("elementwise", sigma)
    value = sp.ImmutableMatrix(M.shape[0], M.shape[1], [sigma(e) for e in M])
    return _shown(value, lambda M: ElementwiseApplyFunction(_as_lambda(sigma), M), M)


def _require_defined_on_reals(where, sigma, name="sigma") -> None:
    """Refuse a ``Lambda`` σ (or a unit sum's term) without a value at some real argument (``t ↦ 1/t``,
    ``t ↦ log t``, ``t(t − 3)/(t − 3)`` as written) applied to explicit matrices: a layer multiplies what it gives,
    and SymPy cancels what it divides by (``σ(xq)·(xq)`` is 1 for ``σ(t) = 1/t``), so a layer would be proved equal
    to what it is not at ``xq = 0``. A function class keeps its poles in the entries; at symbolic size σ stays
    applied, and what it divides by is asked for. (Entries off the real line are not read here.)"""
    if not isinstance(sigma, sp.Lambda):
        return
    shown = _needs_on_reals(sigma)
    if shown:
        raise ValueError(f"{where}: {name} = {sp.sstr(sigma)[:60]} has no value at some real argument (it needs "
                         f"{shown[:80]}): a layer applies it to every real entry")


@functools.lru_cache(maxsize=512)
def _needs_on_reals(sigma) -> str:
    """What ``sigma``'s body, as built, needs nonzero at real arguments that nothing settles, as text ("" if none)."""
    stand = {v: sp.Dummy(v.name, real=True) for v in sigma.variables}
    with sp.evaluate(False):  # its body as written: t(t − 3)/(t − 3) built unevaluated still divides by t − 3
        body = sigma.expr.xreplace(stand)
    needs = wellformed.unmet_denominators(body)
    back = {d: v for v, d in stand.items()}
    return ", ".join(sp.sstr(c.xreplace(back)) for c in needs)


def _refuse_printed_names(where, fn, *matrices, printed=()) -> None:
    """Refuse a σ or a term whose own symbols print as what the form prints around it: the index ``j`` of its sum,
    the rows ``q_j``, ``k_j``, ``v_j`` of ``matrices`` and the names in ``printed`` (``a_j``): a statement would read
    one thing and check another (``Σ_j j a_j v_j`` with a free j)."""
    if not isinstance(fn, sp.Lambda):
        return
    rows = {M.name.lower() for M in matrices if isinstance(M, sp.MatrixSymbol)} | {"q", "k", "v"}
    names = {"j", *printed} | {f"{r}_j" for r in rows}
    clash = sorted(str(s) for s in fn.expr.free_symbols - set(fn.variables) if str(s) in names)
    own = [str(v) for v in fn.variables]
    if len(own) > 1:  # a term, printed at a_j, b_j: not at a row's name, and not twice at one
        clash += [v for v in own if v in rows] + ([own[0]] if len(set(own)) != len(own) else [])
    if clash:
        raise ValueError(f"{where}: {sp.sstr(fn)[:60]} holds {clash[0]}, which prints as what the form writes "
                         f"around it (its sum's index j, a row such as v_j, or a variable a_j): name it apart")


def hadamard(A, B):
    """The elementwise product ``A ⊙ B``.

    >>> from derive import row
    >>> from derive.layers.forms import hadamard
    >>> hadamard(row("a", 2), row("b", 2))
    Matrix([[a_1*b_1, a_2*b_2]])
    """
    if _symbolic(A, B):
        return sp.HadamardProduct(A, B)
    require_matrix("hadamard", "A", A)
    require_matrix("hadamard", "B", B, *A.shape)
    value = sp.ImmutableMatrix(A.shape[0], A.shape[1], [a * b for a, b in zip(A, B)])
    return _shown(value, lambda A, B: sp.HadamardProduct(A, B, evaluate=False), A, B)


def _check_layer(where, x, Q, K, V, sigma):
    _, d = require_matrix(where, "x", x, rows=1)
    m, _ = require_matrix(where, "K", K, cols=d)
    if Q is not None:
        require_matrix(where, "Q", Q, rows=m, cols=d)
    require_matrix(where, "V", V, rows=m)
    require_function(where, "sigma", sigma)


def key_value(x, K, V, sigma):
    """The standard MLP read as memory: ``σ(x Kᵀ) V`` -- keys are the rows of K, values the rows of V.

    >>> from derive import activation, row, matrix
    >>> from derive.layers.forms import key_value
    >>> key_value(row("x", 1), matrix("K", 1, 1), matrix("V", 1, 1), activation("identity"))
    Matrix([[K_{1,1}*V_{1,1}*x_1]])
    """
    _check_layer("key_value", x, None, K, V, sigma)
    out = _product(elementwise(sigma, x * K.T), V)
    return out if _symbolic(out) else _call("key_value", out, x, K, V, _as_lambda(sigma))


def memory_sum(x, K, V, sigma):
    """The memory read-out ``Σ_j σ(x·k_j) v_j``, slot by slot from the rows ``k_j`` of K and ``v_j`` of V.

    >>> from derive import activation, row, matrix
    >>> from derive.layers.forms import memory_sum
    >>> memory_sum(row("x", 1), matrix("K", 1, 1), matrix("V", 1, 1), activation("identity"))
    Matrix([[K_{1,1}*V_{1,1}*x_1]])
    """
    _check_layer("memory_sum", x, None, K, V, sigma)
    if _symbolic(x, K, V):
        raise TypeError("memory_sum: needs explicit matrices (sympy.Matrix), not matrix symbols")
    _require_defined_on_reals("memory_sum", sigma)
    _refuse_printed_names("memory_sum", sigma)
    slots = [sigma(sum(a * b for a, b in zip(x, K.row(j)))) * sp.ImmutableMatrix(V.row(j)) for j in range(K.rows)]
    out = sp.ImmutableMatrix(sum(slots, sp.zeros(1, V.cols)))
    return _call("memory_sum", out, x, K, V, _as_lambda(sigma))


@_remembered
def symmetric_rank1(x, Q, K, V, sigma):
    """The symmetric rank-1 form ``S = σ((x Qᵀ) ⊙ (x Kᵀ)) V``: σ applied to the product of both factors.

    >>> from derive import activation, row, matrix
    >>> from derive.layers.forms import symmetric_rank1
    >>> symmetric_rank1(row("x", 1), matrix("Q", 1, 1), matrix("K", 1, 1), matrix("V", 1, 1), activation("relu"))
    Matrix([[V_{1,1}*Max(0, K_{1,1}*Q_{1,1}*x_1**2)]])
    """
    _check_layer("symmetric_rank1", x, Q, K, V, sigma)
    out = _product(elementwise(sigma, hadamard(x * Q.T, x * K.T)), V)
    return out if _symbolic(out) else _call("symmetric_rank1", out, x, Q, K, V, _as_lambda(sigma))


@_remembered
def gated(x, Q, K, V, sigma):
    """The gated MLP ``G = (σ(x Qᵀ) ⊙ (x Kᵀ)) V``: σ on the gate factor only (ReGLU, GEGLU, SwiGLU).

    >>> from derive import activation, row, matrix
    >>> from derive.layers.forms import gated
    >>> gated(row("x", 1), matrix("Q", 1, 1), matrix("K", 1, 1), matrix("V", 1, 1), activation("relu"))
    Matrix([[K_{1,1}*V_{1,1}*x_1*Max(0, Q_{1,1}*x_1)]])
    """
    _check_layer("gated", x, Q, K, V, sigma)
    out = _product(hadamard(elementwise(sigma, x * Q.T), x * K.T), V)
    return out if _symbolic(out) else _call("gated", out, x, Q, K, V, _as_lambda(sigma))


def _check_units(where, x, Qs, Ks, V, sigma):
    _, d = require_matrix(where, "x", x, rows=1)
    for name, seq in (("Qs", Qs), ("Ks", Ks)):
        if not isinstance(seq, (list, tuple)):
            raise TypeError(f"{where}: {name} must be a list or tuple of d×r matrices, got {type(seq).__name__}")
    if len(Qs) != len(Ks) or not Qs:
        raise ValueError(f"{where}: Qs and Ks must be non-empty and of equal length, got {len(Qs)} and {len(Ks)}")
    _, r = require_matrix(where, "Qs[0]", Qs[0], rows=d)
    for j, (Qj, Kj) in enumerate(zip(Qs, Ks)):
        require_matrix(where, f"Qs[{j}]", Qj, rows=d, cols=r)
        require_matrix(where, f"Ks[{j}]", Kj, rows=d, cols=r)
    require_matrix(where, "V", V, rows=len(Qs))
    require_function(where, "sigma", sigma)


def bilinear(x, Qs, Ks, V, sigma):
    """Bilinear attention: ``Σ_j σ(x Q_j K_jᵀ xᵀ) v_j`` with per-unit d×r query and key maps.

    >>> from derive import activation, row, matrix
    >>> from derive.layers.forms import bilinear
    >>> x = row("x", 1)
    >>> bilinear(x, [matrix("Q", 1, 1)], [matrix("K", 1, 1)], matrix("V", 1, 1), activation("identity"))
    Matrix([[K_{1,1}*Q_{1,1}*V_{1,1}*x_1**2]])
    """
    _check_units("bilinear", x, Qs, Ks, V, sigma)
    scores = [(x * Qj * Kj.T * x.T)[0, 0] for Qj, Kj in zip(Qs, Ks)]
    return _call("bilinear", _weighted_rows(sigma, scores, V), x, list(Qs), list(Ks), V, _as_lambda(sigma))


def gated_rank_r(x, Qs, Ks, V, sigma):
    """The gated rank-r form: ``Σ_j (σ(x Q_j) (x K_j)ᵀ) v_j`` -- σ on the query side of each unit.

    >>> from derive import activation, row, matrix
    >>> from derive.layers.forms import gated_rank_r
    >>> x = row("x", 1)
    >>> gated_rank_r(x, [matrix("Q", 1, 1)], [matrix("K", 1, 1)], matrix("V", 1, 1), activation("relu"))
    Matrix([[K_{1,1}*V_{1,1}*x_1*Max(0, Q_{1,1}*x_1)]])
    """
    _check_units("gated_rank_r", x, Qs, Ks, V, sigma)
    if _symbolic(x, *Qs, *Ks, V):
        raise TypeError("gated_rank_r: needs explicit matrices (sympy.Matrix), not matrix symbols")
    scores = [(elementwise(sigma, x * Qj) * (x * Kj).T)[0, 0] for Qj, Kj in zip(Qs, Ks)]
    return _call("gated_rank_r", _weighted_rows(None, scores, V), x, list(Qs), list(Ks), V, _as_lambda(sigma))


def unit_sum(term, x, Q, K, V):
    """``Σ_j term(a_j, b_j) v_j`` with ``a_j = x·q_j`` and ``b_j = x·k_j``: a layer's change, unit by unit.

    ``term`` is a ``Lambda`` of two real variables (a scalar expression per unit).

    >>> import sympy as sp
    >>> from derive import row, matrix, real
    >>> from derive.layers.forms import unit_sum
    >>> a, b = real("a b")
    >>> unit_sum(sp.Lambda((a, b), a * b), row("x", 1), matrix("Q", 1, 1), matrix("K", 1, 1), matrix("V", 1, 1))
    Matrix([[K_{1,1}*Q_{1,1}*V_{1,1}*x_1**2]])
    """
    if not isinstance(term, sp.Lambda) or len(term.variables) != 2:
        raise TypeError(f"unit_sum: term must be a Lambda of two variables (a, b), got {term!r}")
    _check_layer("unit_sum", x, Q, K, V, sp.Lambda(term.variables[0], term.variables[0]))
    _refuse_printed_names("unit_sum", term, printed={f"{v.name}_j" for v in term.variables})  # (a_j, b_j)
    if _symbolic(x, Q, K, V):
        return UnitSum(term, x, Q, K, V)
    _require_defined_on_reals("unit_sum", term, "term")
    xq, xk = sp.ImmutableMatrix(x * Q.T), sp.ImmutableMatrix(x * K.T)
    weights = [term(xq[j], xk[j]) for j in range(Q.rows)]
    out = sp.ImmutableMatrix(sp.ImmutableMatrix(1, len(weights), weights) * sp.ImmutableMatrix(V))
    return _call("unit_sum", out, term, x, Q, K, V)


class UnitSum(MatrixExpr):
    """``Σ_j term(a_j, b_j) v_j`` at every size: entry ``(0, l)`` is ``Σ_j term((xQᵀ)_j, (xKᵀ)_j) V_{j,l}``."""

    real_parts = True  # real entries where its parts are real (what derive.kernel.wellformed reads)

    def __new__(cls, term, x, Q, K, V):
        return sp.Basic.__new__(cls, term, x, Q, K, V)

    @property
    def shape(self):
        return (1, self.args[4].shape[1])

    def applied_term(self):
        """The term, and the matrices at whose entries it is applied (the scores (xQᵀ)_j, (xKᵀ)_j): what the
        definedness check (:mod:`derive.kernel.wellformed`) reads the term's arguments from."""
        return self.args[0], self.args[1:]

    def _entry(self, i, l, **kwargs):
        term, x, Q, K, V = self.args
        j = sp.Dummy("j", integer=True)
        return sp.Sum(term((x * Q.T)[0, j], (x * K.T)[0, j]) * V[j, l], (j, 0, Q.shape[0] - 1))

    def _latex(self, printer):
        return _tex_unit_sum(printer, *self.args)


def _first_entry(value, rows, cols):
    i, k = sp.Symbol("i", integer=True), sp.Symbol("k", integer=True)  # bound by the Lambda
    return sp.FunctionMatrix(rows, cols, sp.Lambda((i, k), value * sp.KroneckerDelta(i, 0) * sp.KroneckerDelta(k, 0)))


def one_unit(x, Q, K, V, a, b):
    """Weights that make a layer of any size one unit with gate input ``a`` and linear factor ``b``: ``x = e₁`` and
    ``Q``, ``K``, ``V`` zero but for their first entry (``a``, ``b`` and ``1``), as a mapping to instantiate with.

    A premise "for every x, Q, K, V" then reads, at its first entry, as the unit's scalar identity.

    >>> import sympy as sp
    >>> from derive import real
    >>> d, m, n = sp.symbols("d m n", integer=True, positive=True)
    >>> x, Q, K, V = (sp.MatrixSymbol("x", 1, d), sp.MatrixSymbol("Q", m, d), sp.MatrixSymbol("K", m, d),
    ...               sp.MatrixSymbol("V", m, n))
    >>> a, b = real("a b")
    >>> unit = one_unit(x, Q, K, V, a, b)
    >>> (Q * x.T).xreplace(unit)[0, 0].doit()
    a
    """
    for name, M in (("x", x), ("Q", Q), ("K", K), ("V", V)):
        if not isinstance(M, sp.MatrixSymbol):
            raise TypeError(f"one_unit: {name} must be a matrix symbol (the layer's variable), got {type(M).__name__}")
    return {x: _first_entry(1, *x.shape), Q: _first_entry(a, *Q.shape), K: _first_entry(b, *K.shape),
            V: _first_entry(1, *V.shape)}


_A, _B = sp.symbols("a b", integer=True)  # the indices of a selector's entries, bound by its Lambda


def _size(where, n):
    n = sp.sympify(n)
    if not (n.is_integer and n.is_positive):
        raise ValueError(f"{where}: the size must be a positive integer (or a symbol known to be one), got {n}")
    return n


def _index(where, at):
    at = sp.sympify(at)
    if at.is_integer is not True:
        raise ValueError(f"{where}: the index must be an integer (or a symbol known to be one), got {at}")
    return at


class UnitRow(sp.FunctionMatrix):
    """A ``FunctionMatrix`` of one row whose entry ``b`` is ``δ(b, i)`` (counted from 1), printed ``e_i``: in every
    other respect the ``FunctionMatrix`` it is."""

    def selected(self):
        """The index ``i`` of ``e_i``."""
        (_, b), body = self.lamda.variables, self.lamda.expr
        return next(arg for arg in body.args if not arg.has(b))

    def _latex(self, printer):
        return f"e_{{{printer._print(self.selected())}}}"

    def _sympystr(self, printer):
        return f"e_{printer._print(self.selected())}"


def unit_row(n, at):
    r"""The unit row ``e_at`` of length ``n``, counted from 1 (``at`` may be a symbol): entry ``b`` is ``δ(b, at)``.

    >>> import sympy as sp
    >>> r, i = sp.Symbol("r", integer=True, positive=True), sp.Symbol("i", integer=True, positive=True)
    >>> from derive.kernel import printing
    >>> e = unit_row(r, i)
    >>> print(printing.latex(e))
    e_{i}
    >>> e[0, 2]
    KroneckerDelta(3, i)
    """
    n, at = _size("unit_row", n), _index("unit_row", at)
    if (at - 1).is_nonnegative is not True or (n - at).is_negative:
        raise ValueError(f"unit_row: e_{sp.sstr(at)} is no unit row of length {sp.sstr(n)} (from 1): its index must be "
                         f"known to be at least 1, and not past {sp.sstr(n)}")
    return UnitRow(1, n, sp.Lambda((_A, _B), sp.KroneckerDelta(_B + 1, at)))


def permutation_matrix(n, pi):
    """The ``n×n`` matrix ``P`` with ``P_{i,k} = δ(i, π(k))`` (counted from 1), for an integer-valued function
    ``π`` (a permutation of 1 … n makes it a permutation matrix: column ``k`` is ``e_{π(k)}``)."""
    n = _size("permutation_matrix", n)
    if not (isinstance(pi, sp.FunctionClass) and pi(sp.Dummy(integer=True)).is_integer is True):
        raise ValueError(f"permutation_matrix: π must be a function known to give integers, e.g. "
                         f"sp.Function('pi', integer=True), got {pi!r:.60}")
    return sp.FunctionMatrix(n, n, sp.Lambda((_A, _B), sp.KroneckerDelta(_A + 1, pi(_B + 1))))


def diagonal(n, p):
    """The ``n×n`` diagonal matrix with entries ``p(1), …, p(n)`` (``p`` a function, e.g. ``Function('p', positive=True)``)."""
    n = _size("diagonal", n)
    if not isinstance(p, sp.FunctionClass):
        raise ValueError(f"diagonal: p must be a function of the index, got {p!r:.60}")
    return sp.FunctionMatrix(n, n, sp.Lambda((_A, _B), sp.KroneckerDelta(_A + 1, _B + 1) * p(_B + 1)))


def row_of(M, j):
    """Row ``j`` (0-based, possibly a symbol) of a matrix of any size, as a 1×cols matrix expression.

    >>> import sympy as sp
    >>> d, j = sp.Symbol("d", integer=True, positive=True), sp.Symbol("j", integer=True)
    >>> row_of(sp.MatrixSymbol("Q", 3, d), j)[0, 2]
    Q[j, 2]
    """
    require_matrix("row_of", "M", M)
    return RowOf(M, _within("row_of", "row", sp.sympify(j), M.rows))


def column_of(M, t):
    """Column ``t`` (0-based, possibly a symbol) of a matrix of any size, as a rows×1 matrix expression.

    >>> import sympy as sp
    >>> r, t = sp.Symbol("r", integer=True, positive=True), sp.Symbol("t", integer=True)
    >>> column_of(sp.MatrixSymbol("C", 2, r), t)[1, 0]
    C[1, t]
    """
    require_matrix("column_of", "M", M)
    return ColumnOf(M, _within("column_of", "column", sp.sympify(t), M.cols))


def _within(where, what, at, size):
    """``at``, refused when it is an index past the matrix's ``size`` (or below 0) for every value of its symbols:
    row −1, or column r of a matrix of r columns (0-based), is no part of the matrix."""
    if at.is_negative or (sp.sympify(size) - at).is_nonpositive:
        raise ValueError(f"{where}: {what} {sp.sstr(at)} (from 0) is outside the matrix's {sp.sstr(size)} {what}s")
    return at


def index_sum(index, term, count):
    """``Σ_{index=0}^{count-1} term``: a sum of matrices over an index (0-based), for a symbolic ``count`` too.

    Entry ``(i, j)`` is the finite sum of entry ``(i, j)`` of ``term`` over the index: the sum of the units of a
    layer, or of the outer products of a factorisation, at every size.

    >>> import sympy as sp
    >>> t = sp.Symbol("t", integer=True)
    >>> C = sp.MatrixSymbol("C", 2, 3)
    >>> index_sum(t, column_of(C, t), 3)[0, 0]
    Sum(C[0, t], (t, 0, 2))
    """
    if not isinstance(index, sp.Symbol) or index.is_integer is not True:
        raise TypeError(f"index_sum: index must be an integer Symbol, got {index!r}")
    if not isinstance(term, MatrixExpr) or isinstance(term, sp.MatrixBase):
        raise TypeError(f"index_sum: term must be a matrix expression, got {type(term).__name__}")
    count = sp.sympify(count)
    if count.is_integer is not True:
        raise ValueError(f"index_sum: the count {sp.sstr(count)} is not known to be an integer")
    if any(index in sp.sympify(s).free_symbols for s in term.shape) or index in count.free_symbols:
        raise ValueError(f"index_sum: the shape of term and the count must not depend on {index}")
    for part in term.atoms(RowOf, ColumnOf):  # each row or column the sum takes is one of its matrix's
        size = part.args[0].rows if isinstance(part, RowOf) else part.args[0].cols
        offset = part.args[1] - index
        if part.args[1].has(index) and (offset.has(index) or offset.is_nonnegative is not True
                                        or (size - count - offset).is_nonnegative is not True):
            raise ValueError(f"index_sum: {sp.sstr(part.args[1])} runs past the {sp.sstr(size)} "
                             f"{'rows' if isinstance(part, RowOf) else 'columns'} of {sp.sstr(part.args[0])} "
                             f"for {index} from 0 to {sp.sstr(count - 1)}")
    return IndexSum(index, term, count)


class RowOf(MatrixExpr):
    """Row ``j`` of ``M`` (see :func:`row_of`); prints as ``q_{j+1}`` for a one-letter ``Q`` (rows counted from 1)."""

    real_parts = True  # real entries where its parts are real (what derive.kernel.wellformed reads)

    def __new__(cls, M, j):
        return sp.Basic.__new__(cls, M, j)

    @property
    def shape(self):
        return (1, self.args[0].shape[1])

    def _entry(self, i, a, **kwargs):
        M, j = self.args
        return M[j, a]

    def _latex(self, printer):
        M, j = self.args
        return _row_name(printer, M, printer._print(j + 1))


class ColumnOf(MatrixExpr):
    """Column ``t`` of ``M`` as a column (see :func:`column_of`); prints as ``c_{t+1}`` for a one-letter ``C``."""

    real_parts = True  # real entries where its parts are real (what derive.kernel.wellformed reads)

    def __new__(cls, M, t):
        return sp.Basic.__new__(cls, M, t)

    @property
    def shape(self):
        return (self.args[0].shape[0], 1)

    def _entry(self, a, i, **kwargs):
        M, t = self.args
        return M[a, t]

    def _latex(self, printer):
        M, t = self.args
        return _row_name(printer, M, printer._print(t + 1))


class IndexSum(MatrixExpr):
    """``Σ_{index=0}^{count-1} term`` (see :func:`index_sum`); ``index`` is bound. Printed from 1:
    ``Σ_{t=1}^{r} c_t`` for the sum of the columns ``column_of(C, t)``."""

    real_parts = True  # real entries where its parts are real (what derive.kernel.wellformed reads)

    def __new__(cls, index, term, count):
        return sp.Basic.__new__(cls, index, term, count)

    @property
    def shape(self):
        return self.args[1].shape

    @property
    def free_symbols(self):
        index, term, count = self.args
        return (term.free_symbols - {index}) | count.free_symbols

    @property
    def bound_symbols(self):
        """The index, which the sum binds (what a reading of its term may assume of it: an integer)."""
        return (self.args[0],)

    @property
    def term_count(self):
        """How many terms: the index runs over 0, 1, …, count − 1 (what derive.kernel.wellformed reads)."""
        return self.args[2]

    def _entry(self, i, j, **kwargs):
        index, term, count = self.args
        return sp.Sum(term[i, j], (index, 0, count - 1))

    def _latex(self, printer):
        index, term, count = self.args  # printed from 1, as the paper counts: the term reads index - 1
        shown = term.xreplace({index: index - 1})
        return rf"\sum_{{{printer._print(index)}=1}}^{{{printer._print(count)}}} {printer._print(shown)}"


def _weighted_rows(sigma, scores, V):
    if _symbolic(V):
        raise TypeError("bilinear forms need an explicit V (sympy.Matrix), not a matrix symbol")
    if sigma is not None:
        _require_defined_on_reals("bilinear", sigma)
    weights = [sigma(s) if sigma is not None else s for s in scores]
    return sp.ImmutableMatrix(1, len(weights), weights) * V


def _product(A, B):
    if _symbolic(A, B):
        return A * B
    return sp.ImmutableMatrix(sp.ImmutableMatrix(A) * sp.ImmutableMatrix(B))


# -- how the forms print, and which sizes they have ----------------------------------------------------------------
def _row_name(printer, M, j):
    """Row ``j`` (0-based) of a named matrix: ``k_{j+1}`` for ``K``; ``(M)_{j+1}`` otherwise."""
    if isinstance(M, sp.MatrixSymbol) and len(M.name) == 1:
        return f"{M.name.lower()}_{{{j}}}"
    return rf"\left({printer._print(M)}\right)_{{{j}}}"


def _tex_key_value(printer, x, K, V, sigma):
    return rf"{printing.sigma_tex(sigma, printer)}\left({printer._print(sp.MatMul(x, sp.Transpose(K)) if not isinstance(K, sp.MatrixSymbol) else x * K.T)}\right) {printer._wrap(V)}"


#: the letters a form's sum is printed over, the first that no operand or size names (j K with a free j: Σᵢ)
_INDEX_LETTERS = ("j", "i", "l", "p", "s", "u", "w")


def _index_letter(*operands) -> str:
    """The letter a form's sum runs over in print: ``j``, unless an operand or a size is named so (``(j K)_j`` would
    read the free j as the index), then the next free one of :data:`_INDEX_LETTERS`."""
    names = {str(s) for o in operands if isinstance(o, (sp.Basic, sp.MatrixBase)) for s in o.free_symbols}
    taken = names | {n.split("_")[0] for n in names}  # (x_1, an entry of x, takes x)
    return next((c for c in _INDEX_LETTERS if c not in taken), "j'")


def _tex_memory_sum(printer, x, K, V, sigma):
    s = printing.sigma_tex(sigma, printer)
    j = _index_letter(x, K, V, *K.shape, *V.shape)
    return (rf"\sum_{{{j}=1}}^{{{K.shape[0]}}} {s}\left({printer._print(x)} \cdot {_row_name(printer, K, j)}\right)\,"
            rf"{_row_name(printer, V, j)}")


def _tex_layer(letter):
    return lambda printer, x, Q, K, V, sigma: _layer_tex(printer, letter, x, Q, K, V, sigma)


def _terms(printer, Qs, make):
    terms = [make(j, Qj) for j, Qj in enumerate(Qs)]
    if len(terms) > 3:
        terms = terms[:2] + [r"\dots"] + terms[-1:]
    return " + ".join(terms)


def _tex_bilinear(printer, x, Qs, Ks, V, sigma):
    s = printing.sigma_tex(sigma, printer)
    return _terms(printer, Qs, lambda j, Qj: rf"{s}\left({printer._print(x * Qj * Ks[j].T * x.T)}\right)\,"
                                            rf"{_row_name(printer, V, j + 1)}")


def _tex_gated_rank_r(printer, x, Qs, Ks, V, sigma):
    s = printing.sigma_tex(sigma, printer)
    return _terms(printer, Qs, lambda j, Qj: rf"{s}\left({printer._print(x * Qj)}\right)"
                                            rf"\left({printer._print(x * Ks[j])}\right)^\top {_row_name(printer, V, j + 1)}")


def _tex_unit_sum(printer, term, x, Q, K, V):
    a, b = term.variables
    j = _index_letter(x, Q, K, V, *Q.shape, *V.shape, *(term.expr.free_symbols - set(term.variables)))
    aj, bj = sp.Symbol(f"{a.name}_{j}", real=True), sp.Symbol(f"{b.name}_{j}", real=True)
    body = printer._print(term.expr.xreplace({a: aj, b: bj}))
    if isinstance(term.expr, sp.Add):
        body = rf"\left({body}\right)"
    return (rf"\sum_{{{j}=1}}^{{{Q.shape[0]}}} {body}\, {_row_name(printer, V, j)}"
            rf"\ \big|_{{{printer._print(aj)} = {printer._print(x)} \cdot {_row_name(printer, Q, j)},\ "
            rf"{printer._print(bj)} = {printer._print(x)} \cdot {_row_name(printer, K, j)}}}")


def _sizes_layer(x, K, V, *rest):
    return {"d": x.shape[1], "m": K.shape[0], "n": V.shape[1]}


def _sizes_units(x, Qs, Ks, V, sigma):
    return {"d": x.shape[1], "m": len(Qs), "n": V.shape[1], "r": Qs[0].shape[1]}


# -- recognising the forms in matrix expressions of symbolic size ------------------------------------------------
def _split_product(prod):
    """``c · x · Aᵀ`` → ``(x, c·A)``: a token times the transpose of a (scaled) weight matrix, else ``None``."""
    if not isinstance(prod, sp.MatMul):
        return None
    coeff, factors = prod.as_coeff_matrices()
    if len(factors) < 2 or not isinstance(factors[-1], sp.Transpose):
        return None
    token = factors[0] if len(factors) == 2 else sp.MatMul(*factors[:-1])
    weight = factors[-1].arg
    return token, (coeff * weight if coeff != 1 else weight)


def _recognise(expr):
    """A printer for ``expr`` if it is one of the layers S or G (rebuilding it gives ``expr`` back), else None."""
    from ..layers import forms

    if len(expr.args) != 2 or not isinstance(expr.args[0], (ElementwiseApplyFunction, sp.HadamardProduct)):
        return None
    inner, V = expr.args
    found = None
    if isinstance(inner, ElementwiseApplyFunction) and isinstance(inner.expr, sp.HadamardProduct) and len(inner.expr.args) == 2:
        parts = [_split_product(a) for a in inner.expr.args]
        if None not in parts and parts[0][0] == parts[1][0]:
            for first, second in (parts, parts[::-1]):
                found = found or _rebuilt(symmetric_rank1, "S", expr, first[0], first[1], second[1], V, inner.function)
    elif isinstance(inner, sp.HadamardProduct) and len(inner.args) == 2:
        gates = [a for a in inner.args if isinstance(a, ElementwiseApplyFunction)]
        if len(gates) == 1:
            gate = gates[0]
            other = inner.args[1] if inner.args[0] is gate else inner.args[0]
            g, k = _split_product(gate.expr), _split_product(other)
            if g is not None and k is not None and g[0] == k[0]:
                found = _rebuilt(gated, "G", expr, g[0], g[1], k[1], V, gate.function)
    return found


def _rebuilt(build, letter, expr, x, Q, K, V, sigma):
    try:
        again = build(x, Q, K, V, sigma)
    except (TypeError, ValueError):
        return None
    if again != expr:
        return None
    return lambda printer: _layer_tex(printer, letter, x, Q, K, V, sigma)


def _layer_tex(printer, letter, x, Q, K, V, sigma):
    sub = "" if printing.is_generic(sigma) else f"_{{{printing.sigma_tex(sigma, printer)}}}"
    tail = "" if isinstance(V, sp.MatrixSymbol) and V.name == "V" else f", {printer._print(V)}"
    return rf"{letter}{sub}({printer._print(x)};\, {_arg(printer, Q)}, {_arg(printer, K)}{tail})"


def _arg(printer, M):
    """A weight as an argument: ``αQ``, ``K/α``."""
    if isinstance(M, sp.MatMul):
        coeff, rest = M.as_coeff_mmul()
        factors = M.args
        scalars = [a for a in factors if not isinstance(a, MatrixExpr)]
        mats = [a for a in factors if isinstance(a, MatrixExpr)]
        if scalars and mats:
            c = sp.Mul(*scalars)
            num, den = sp.fraction(c)
            body = printer._print(sp.MatMul(*mats)) if len(mats) > 1 else printer._print(mats[0])
            if num == 1:
                return f"{body}/{printer.parenthesize(den, 50)}" if len(mats) == 1 else rf"\left({body}\right)/{printer.parenthesize(den, 50)}"
            return printer._print(M)
    return printer._print(M)


printing.FORMS.update({
    "key_value": (key_value, _tex_key_value, _sizes_layer),
    "memory_sum": (memory_sum, _tex_memory_sum, _sizes_layer),
    "symmetric_rank1": (symmetric_rank1, _tex_layer("S"), lambda x, Q, K, V, s: _sizes_layer(x, K, V)),
    "gated": (gated, _tex_layer("G"), lambda x, Q, K, V, s: _sizes_layer(x, K, V)),
    "bilinear": (bilinear, _tex_bilinear, _sizes_units),
    "gated_rank_r": (gated_rank_r, _tex_gated_rank_r, _sizes_units),
    "unit_sum": (unit_sum, _tex_unit_sum, lambda term, x, Q, K, V: _sizes_layer(x, K, V)),
})
printing.RECOGNISERS.append(_recognise)
