"""What a claim shows: its equation printed from the objects it checks, and its scope derived from them.

Two things make the layers print by name while the kernel sees the expanded expressions:

* an explicit matrix built by ``derive.row``/``derive.matrix`` is a :class:`Shown` matrix: an ordinary
  ``ImmutableMatrix`` of real symbols (that is all the kernel looks at) that also carries the matrix expression it
  was built from, its *shadow* (``α Q`` for ``alpha * Q``, ``G(x; αQ, K/α)`` for a gated layer). Arithmetic on
  shown matrices builds the shadow beside the value, and a shadow is printed only after it has been evaluated back
  and found equal, entry by entry, to the value: what is printed is what is checked;
* matrix expressions of symbolic size (the layers at every size) are printed by a printer that recognises the forms
  of :mod:`derive.forms` in them, and names a form only when rebuilding it from the recognised parts gives back the
  very same expression.

:func:`scope` reads the domain of a statement off the same objects: every σ, the symbols' domains, the sizes.
"""
from __future__ import annotations

import functools

import sympy as sp
from sympy import ImmutableDenseMatrix
from sympy.core.function import AppliedUndef, UndefinedFunction
from sympy.matrices.expressions import MatrixExpr, MatrixSymbol
from sympy.matrices.expressions.matexpr import MatrixElement
from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction
from sympy.printing.latex import LatexPrinter
from sympy.printing.precedence import PRECEDENCE

from . import notation
from .wellformed import defined
from .witness import divisors_at

__all__ = ["Shown", "FormCall", "shown", "shadow_of", "display_of", "shadow_divisors", "refuse_alike_entries", "latex",
           "sigma_tex", "scope", "bound", "equation", "WHERE"]

#: form name -> (the function that builds it, how it prints, its sizes); filled by :mod:`derive.layers.forms`
FORMS: dict = {}
#: functions ``expr -> printer callable or None`` naming a form inside a matrix expression of symbolic size;
#: filled by :mod:`derive.layers.forms` (the kernel never imports a form)
RECOGNISERS: list = []


def recognised(expr):
    """How ``expr`` prints as a named form (a callable of the printer), or ``None`` when no form claims it."""
    for recognise in RECOGNISERS:
        found = recognise(expr)
        if found is not None:
            return found
    return None


# -- explicit matrices that remember what they were built from ---------------------------------------------------
class Shown(ImmutableDenseMatrix):
    """An explicit matrix with a shadow: the matrix expression it was built from, used only for printing.

    >>> from derive import row, matrix, positive
    >>> Q, a = matrix("Q", 2, 2), positive("alpha")
    >>> latex(a * Q)
    '\\\\alpha Q'
    >>> (a * Q)[0, 0]
    Q_{1,1}*alpha
    """

    _op_priority = 10.02  # above explicit matrices (10.01), below matrix expressions (11)
    shadow = None
    leaves: dict = {}

    def __hash__(self):
        return ImmutableDenseMatrix.__hash__(self)

    def _plain(self):
        return ImmutableDenseMatrix._fromrep(self._rep)

    def _binary(self, other, op, reverse=False):
        mine = self._plain()
        theirs = other._plain() if isinstance(other, Shown) else other
        value = op(theirs, mine) if reverse else op(mine, theirs)
        if not isinstance(value, sp.MatrixBase):
            return value
        a, b = shadow_of(self), shadow_of(other)
        if a is None or b is None:
            return ImmutableDenseMatrix(value)
        try:
            scalar = b if not isinstance(b, MatrixExpr) else None
            if scalar is not None and op is _times:  # a product with a scalar, kept unexpanded
                shade = sp.MatMul(scalar, a, evaluate=False)
            else:
                shade = op(b, a) if reverse else op(a, b)
        except (TypeError, ValueError, NotImplementedError, AttributeError, sp.ShapeError):
            return ImmutableDenseMatrix(value)
        return shown(value, shade, {**_leaves(other), **self.leaves})

    def __mul__(self, other):
        return self._binary(other, _times)

    def __rmul__(self, other):
        return self._binary(other, _times, reverse=True)

    def __matmul__(self, other):
        return self.__mul__(other)

    def __add__(self, other):
        return self._binary(other, _plus)

    def __radd__(self, other):
        return self._binary(other, _plus, reverse=True)

    def __sub__(self, other):
        return self._binary(other, _minus)

    def __rsub__(self, other):
        return self._binary(other, _minus, reverse=True)

    def __neg__(self):
        return self._binary(sp.Integer(-1), lambda p, q: p * q, reverse=True)

    def __truediv__(self, other):
        if isinstance(other, (sp.MatrixBase, MatrixExpr)):
            return NotImplemented
        return self._binary(sp.Integer(1) / sp.sympify(other), lambda p, q: p * q)

    @property
    def T(self):
        return self.transpose()

    def transpose(self):
        value = self._plain().transpose()
        return shown(value, sp.Transpose(self.shadow), self.leaves) if self.shadow is not None else value

    def inv(self, *args, **kwargs):
        value = self._plain().inv(*args, **kwargs)
        return shown(value, sp.Inverse(self.shadow), self.leaves) if self.shadow is not None and not args and not kwargs else value

    def row(self, i):
        value = self._plain().row(i)
        if self.shadow is None or not isinstance(i, int):
            return value
        return shown(value, self.shadow[i, :], self.leaves)

    def col(self, j):
        value = self._plain().col(j)
        if self.shadow is None or not isinstance(j, int):
            return value
        return shown(value, self.shadow[:, j], self.leaves)

    def _latex(self, printer):
        shade = display_of(self)
        if shade is None:
            return printer._print_MatrixBase(self)
        return printer._print(shade)

    def _sympystr(self, printer):
        return printer._print_MatrixBase(self)


def _times(p, q):
    """``p * q``; between shadows, a product kept as written (``Q M M⁻¹`` is not cancelled before it is shown)."""
    symbolic = lambda e: isinstance(e, MatrixExpr) and not isinstance(e, sp.MatrixBase)
    if isinstance(p, MatrixExpr) and isinstance(q, MatrixExpr) and (symbolic(p) or symbolic(q)):
        args = [*(p.args if isinstance(p, sp.MatMul) else [p]), *(q.args if isinstance(q, sp.MatMul) else [q])]
        return sp.MatMul(*args, evaluate=False)
    return p * q


def _plus(p, q):
    if isinstance(p, MatrixExpr) and not isinstance(p, sp.MatrixBase) and isinstance(q, MatrixExpr):
        return sp.MatAdd(p, q, evaluate=False)
    return p + q


def _minus(p, q):
    if isinstance(p, MatrixExpr) and not isinstance(p, sp.MatrixBase) and isinstance(q, MatrixExpr):
        return sp.MatAdd(p, sp.MatMul(sp.Integer(-1), q, evaluate=False), evaluate=False)
    return p - q


def _leaves(obj) -> dict:
    return obj.leaves if isinstance(obj, Shown) else {}


def shown(value, shade, leaves=None) -> Shown:
    """``value`` (an explicit matrix) as a :class:`Shown` matrix whose shadow is ``shade``."""
    out = Shown._fromrep(sp.ImmutableMatrix(value)._rep)
    out.shadow = shade
    out.leaves = dict(leaves or {})
    return out


def shadow_of(obj):
    """The matrix expression ``obj`` prints as: its shadow, itself for other matrices and scalars, else ``None``."""
    if isinstance(obj, Shown):
        return obj.shadow
    if isinstance(obj, (sp.MatrixBase, MatrixExpr)):
        return ImmutableDenseMatrix(obj) if isinstance(obj, sp.MatrixBase) else obj
    if isinstance(obj, (int, sp.Expr)) and not isinstance(obj, bool):
        return sp.sympify(obj)
    return None


def evaluate(shade, leaves):
    """The explicit matrix a shadow stands for: every leaf replaced by its value, every form rebuilt."""
    if isinstance(shade, MatrixSymbol):
        return leaves[shade]
    if isinstance(shade, FormCall):
        build = FORMS[shade.name][0]

        def operand(a):
            if isinstance(a, sp.Tuple):
                return [operand(b) for b in a]
            return evaluate(a, leaves) if isinstance(a, MatrixExpr) else a

        return build(*[operand(a) for a in shade.operands])
    if isinstance(shade, sp.MatrixBase) or not isinstance(shade, MatrixExpr):
        return shade
    if isinstance(shade, sp.Transpose):
        return sp.ImmutableMatrix(evaluate(shade.arg, leaves)).T
    if isinstance(shade, sp.Inverse):
        return sp.ImmutableMatrix(evaluate(shade.arg, leaves)).inv()
    if isinstance(shade, sp.MatrixSlice):
        parent = sp.ImmutableMatrix(evaluate(shade.parent, leaves))
        return parent[slice(*shade.rowslice), slice(*shade.colslice)]
    if isinstance(shade, sp.MatMul):
        out = None
        for a in shade.args:
            v = evaluate(a, leaves)
            v = sp.ImmutableMatrix(v) if isinstance(v, sp.MatrixBase) else v
            out = v if out is None else out * v
        return out
    if isinstance(shade, sp.MatAdd):
        parts = [sp.ImmutableMatrix(evaluate(a, leaves)) for a in shade.args]
        return functools.reduce(lambda p, q: p + q, parts)
    if isinstance(shade, ElementwiseApplyFunction):
        return sp.ImmutableMatrix(evaluate(shade.expr, leaves)).applyfunc(shade.function)
    if isinstance(shade, sp.HadamardProduct):
        parts = [sp.ImmutableMatrix(evaluate(a, leaves)) for a in shade.args]
        return functools.reduce(lambda p, q: p.multiply_elementwise(q), parts)
    if isinstance(shade, (sp.ZeroMatrix, sp.Identity)):
        return shade.as_explicit()
    raise TypeError(f"cannot evaluate {type(shade).__name__}")


def _same(value, other) -> bool:
    if not isinstance(other, sp.MatrixBase) or other.shape != value.shape:
        return False
    for e in sp.ImmutableMatrix(value - sp.ImmutableMatrix(other)):
        if sp.expand(e) != 0 and (not e.has(sp.Pow) or sp.cancel(sp.together(e)) != 0):
            return False
    return True


def display_of(matrix):
    """The shadow of a :class:`Shown` matrix when it evaluates back to the matrix exactly, else ``None``."""
    if not isinstance(matrix, Shown) or matrix.shadow is None:
        return None
    shade, cached = matrix.__dict__.get("_verified", (None, None))
    if shade is not matrix.shadow or cached is None:  # verified once per shadow
        try:
            cached = _same(matrix, evaluate(matrix.shadow, matrix.leaves))
        except (KeyError, TypeError, ValueError, sp.ShapeError, ZeroDivisionError):
            cached = False
        matrix.__dict__["_verified"] = (matrix.shadow, cached)
    return matrix.shadow if cached else None


def shadow_divisors(matrix) -> list:
    """What the shadow a :class:`Shown` matrix prints as divides by, at its leaves' values (an inverse's matrix by
    its determinant): SymPy may have cancelled it in the matrix itself (``Q Q⁻¹ K`` is ``K`` for a 1×1 ``Q``,
    ``(αK)/α`` is ``K``), but a statement printed so is true only where it is nonzero. Nothing for another matrix.

    >>> from derive import matrix, real
    >>> Q, K, a = matrix("Q", 1, 1), matrix("K", 1, 1), real("alpha")
    >>> shadow_divisors(Q * Q.inv() * K), shadow_divisors((a * K) / a)
    ([Q_{1,1}], [alpha])
    """
    shade = display_of(matrix)
    if shade is None:
        return []
    known = matrix.__dict__.get("_shadow_divisors")
    if known is not None and known[0] is shade:  # read once per shadow (a chain's step and the next share a side)
        return list(known[1])
    out: list = []
    for d in divisors_at(shade, matrix.leaves):
        if isinstance(d, defined) and isinstance(d.args[0], sp.Lambda):
            continue  # a form's σ, named as an operand: where it is applied, the matrix itself says what it needs
        d = d.det() if isinstance(d, sp.MatrixBase) and d.is_square else d
        if d not in out:
            out.append(d)
    matrix.__dict__["_shadow_divisors"] = (shade, tuple(out))
    return out


def refuse_alike_entries(where: str, *exprs) -> None:
    """Raise a one-line ValueError when an entry or a row of a matrix symbol prints as a symbol of ``exprs`` prints
    (``Q[0, 0]`` as ``Q_{1,1}``, the entry symbol of ``derive.matrix("Q", 2, 2)``; a row of ``q`` as ``q_{1}``, the
    symbol ``q_1``): the statement would read as one about a single quantity and check two."""
    parts: dict = {}
    for expr in exprs:
        for item in (list(expr) if isinstance(expr, sp.MatrixBase) else [expr]):
            if isinstance(item, sp.Basic):
                parts.update((node, "entry") for node in sp.preorder_traversal(item)
                             if isinstance(node, (MatrixElement, sp.MatrixSlice))
                             and isinstance(node.parent, MatrixSymbol) and not node.free_symbols - node.parent.free_symbols)
                parts.update((sym, "symbol") for sym in item.free_symbols if isinstance(sym, sp.Symbol))
    if not any(kind == "entry" for kind in parts.values()):
        return
    printed: dict = {}
    for node, kind in parts.items():
        tex = latex(node)
        other = printed.setdefault(tex, (node, kind))
        if other[1] != kind:
            raise ValueError(f"{where}: {sp.sstr(other[0])} and {sp.sstr(node)} both print as {tex}; give the "
                             f"matrix or the symbol another name")


# -- forms as expressions -----------------------------------------------------------------------------------------
class FormCall(MatrixExpr):
    """``name(operands…)``: one layer of :mod:`derive.forms`, unevaluated, printed by name (only ever a shadow)."""

    def __new__(cls, name, shape, *operands):
        name = name if isinstance(name, sp.Symbol) else sp.Symbol(name)
        return sp.Basic.__new__(cls, name, sp.Tuple(*shape), *operands)

    @property
    def name(self):
        return self.args[0].name

    @property
    def shape(self):
        return tuple(self.args[1])

    @property
    def operands(self):
        return self.args[2:]

    def _latex(self, printer):
        return FORMS[self.name][1](printer, *self.operands)


#: a function (a fixed ``Lambda``) -> how it prints; filled by :mod:`derive.layers.activations`
NAMES: dict = {}


def sigma_tex(f, printer=None) -> str:
    """How an activation prints: its name, the undefined function's name, or ``(t \\mapsto …)``."""
    printer = printer or DerivePrinter()
    if isinstance(f, UndefinedFunction):
        return printer._print(sp.Symbol(f.__name__))
    if isinstance(f, sp.Lambda):
        name = NAMES.get(f)
        if name is None and len(f.variables) == 1:  # the same function in another variable (forms use one of theirs)
            name = next((n for g, n in NAMES.items() if len(g.variables) == 1
                         and g.expr.xreplace({g.variables[0]: f.variables[0]}) == f.expr), None)
        if name is not None:
            return name
        (t,), body = f.variables, f.expr
        if isinstance(body, AppliedUndef) and body.args == (t,):
            return printer._print(sp.Symbol(body.func.__name__))
        return rf"\left({printer._print(t)} \mapsto {printer._print(body)}\right)"
    return printer._print(f)


def is_generic(f) -> bool:
    """Whether ``f`` is the generic activation σ (printed without a subscript)."""
    if isinstance(f, UndefinedFunction):
        return f.__name__ == "sigma"
    if isinstance(f, sp.Lambda):
        (t,), body = f.variables, f.expr
        return isinstance(body, AppliedUndef) and body.func.__name__ == "sigma" and body.args == (t,)
    return False


# -- the printer --------------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=1024)
def _disjoint(a, b) -> bool:
    """Whether two conditions cannot hold at once, as SymPy's logic finds (anything else: they may)."""
    try:
        return sp.And(a, b).simplify() == sp.false
    except Exception:  # noqa: BLE001 - any failure of SymPy's logic: read as "they may"
        return False


class DerivePrinter(LatexPrinter):
    """SymPy's LaTeX printer, with the forms named, ``⊙`` for the Hadamard product, ``ᵀ`` for transposes, and
    entries and sums counted from 1.

    >>> import sympy as sp
    >>> d = sp.Symbol("d", integer=True, positive=True)
    >>> i = sp.Symbol("i", integer=True)
    >>> x, K = sp.MatrixSymbol("x", 1, d), sp.MatrixSymbol("K", d, d)
    >>> DerivePrinter().doprint(sp.Sum(x[0, i] * K[i, 0], (i, 0, d - 1)))
    '\\\\sum_{i=1}^{d} K_{i,1} x_{i}'
    """

    def _print_Shown(self, expr):
        return expr._latex(self)

    def _sized(self, mark, M, square):
        size = self._print(M.rows) if square else rf"{self._print(M.rows)} \times {self._print(M.cols)}"
        return rf"{mark}_{{{size}}}"

    def _print_ZeroMatrix(self, Z):  # with its size: "det 0 = 0" was refuted at n = 0 (det of the 0×0 matrix is 1)
        return self._sized(r"\mathbb{0}", Z, False)

    def _print_OneMatrix(self, O):  # "tr(1) = 1" read as the number 1 was refuted at n = 2
        return self._sized(r"\mathbb{1}", O, False)

    def _print_Identity(self, I):
        return self._sized(r"\mathbb{I}", I, True)

    def _print_Piecewise(self, expr):
        r"""The cases as SymPy reads them, the first that holds: a case whose condition may hold where an earlier one
        does reads "otherwise, for" (``{1 for x > 0; 2 for x > 1}`` would say both 1 and 2 at x = 2).

        >>> import sympy as sp
        >>> x = sp.Symbol("x", real=True)
        >>> DerivePrinter().doprint(sp.Piecewise((1, x > 0), (2, x > 1), (0, True)))
        '\\begin{cases} 1 & \\text{for}\\: x > 0 \\\\2 & \\text{otherwise, for}\\: x > 1 \\\\0 & \\text{otherwise} \\end{cases}'
        """
        rows, before = [], []
        for e, c in expr.args:
            if c == sp.true:
                rows.append(rf"{self._print(e)} & \text{{otherwise}}")
                continue
            said = r"\text{otherwise, for}\: " if any(not _disjoint(c, b) for b in before) else r"\text{for}\: "
            rows.append(rf"{self._print(e)} & {said}{self._print(c)}")
            before.append(c)
        return r"\begin{cases} %s \end{cases}" % r" \\".join(rows)

    def _print_Heaviside(self, expr, exp=None):
        r"""``H(x)``, with its value at 0 below it where that is not ½ (the scope says ``H(0) = ½``): θ(x) + θ(−x) = 1
        is false under the other common convention, θ(0) = 1."""
        arg, h0 = expr.args[0], expr.args[1] if len(expr.args) > 1 else sp.S.Half
        name = r"\operatorname{H}" if h0 == sp.S.Half else rf"\operatorname{{H}}_{{{self._print(h0)}}}"
        tex = rf"{name}\left({self._print(arg)}\right)"
        return tex if exp is None else rf"{tex}^{{{exp}}}"

    def _print_Mod(self, expr, exp=None):
        """``a \\bmod b`` with a dividend that is not a symbol or a number in parentheses, and ``−(a mod b)`` with its
        own: SymPy prints ``−(x mod b)`` and ``(−x) mod b`` alike, as ``- x \\bmod b``."""
        a, b = expr.args
        left = self._print(a) if a.is_Atom and not a.could_extract_minus_sign() else rf"\left({self._print(a)}\right)"
        tex = rf"{left} \bmod {self.parenthesize(b, PRECEDENCE['Mul'])}"  # k mod (2n), never (k mod 2)·n
        return tex if exp is None else rf"\left({tex}\right)^{{{exp}}}"

    def _print_Mul(self, expr):
        coeff, rest = expr.as_coeff_Mul()
        if coeff == -1 and isinstance(rest, sp.Mod):
            return rf"- \left({self._print(rest)}\right)"
        return super()._print_Mul(expr)

    def _base(self, arg):
        inner = self._print(arg)
        if not isinstance(arg, (MatrixSymbol, sp.MatrixSlice)):
            return rf"\left({inner}\right)"
        return "{" + inner + "}" if "^" in inner else inner

    def _print_ExpBase(self, expr, exp=None):
        """``e`` to a power, a fraction in the power written ``a / b``: stacked there, its parts print at half the
        text's size.

        >>> import sympy as sp
        >>> z = sp.Symbol("z", real=True)
        >>> DerivePrinter().doprint(1 / (1 + sp.exp(-sp.Rational(851, 500) * z)))
        '\\\\frac{1}{1 + e^{- 851 z / 500}}'
        >>> DerivePrinter().doprint(sp.exp(z / (2 * sp.Symbol("y"))))
        'e^{\\\\frac{z}{2 y}}'
        """
        folded = self._settings["fold_short_frac"]
        # folded only where every denominator is one number or symbol: x / 2 y would read as (x/2)·y
        self._settings["fold_short_frac"] = all(sp.fraction(m)[1].is_Atom for m in sp.preorder_traversal(expr.args[0])
                                                if isinstance(m, sp.Mul))
        try:
            tex = "e^{%s}" % self._print(expr.args[0])
        finally:
            self._settings["fold_short_frac"] = folded
        return self._do_exponent(tex, exp)

    def _print_log(self, expr, exp=None):
        """A logarithm with its base, where it has one (``log(8, 2)`` built unevaluated), printed with it: SymPy's
        printer drops the base, and would show ``log₂ 8 = 3`` as ``log 8 = 3``.

        >>> import sympy as sp
        >>> DerivePrinter().doprint(sp.log(8, 2, evaluate=False))
        '\\\\log_{2}{\\\\left(8 \\\\right)}'
        """
        if len(expr.args) == 2:
            tex = r"\log_{%s}{\left(%s \right)}" % (self._print(expr.args[1]), self._print(expr.args[0]))
            return self._do_exponent(tex, exp)
        return super()._print_log(expr, exp)

    def _print_Transpose(self, expr):
        if isinstance(expr.arg, sp.Inverse) and isinstance(expr.arg.arg, MatrixSymbol):
            return rf"{self._base(expr.arg.arg)}^{{-\top}}"
        return rf"{self._base(expr.arg)}^\top"

    def _print_Inverse(self, expr):
        if isinstance(expr.arg, sp.Transpose) and isinstance(expr.arg.arg, MatrixSymbol):
            return rf"{self._base(expr.arg.arg)}^{{-\top}}"
        return rf"{self._base(expr.arg)}^{{-1}}"

    def _print_AppliedPredicate(self, expr):
        # Q.invertible(M) reads "M invertible"
        args = r",\ ".join(self._print(a) for a in expr.arguments)
        return rf"{args}\ \text{{{expr.function.name}}}"

    def _print_MatrixSlice(self, expr):
        parent = expr.parent
        (r0, r1, rs), (c0, c1, cs) = expr.rowslice, expr.colslice
        if isinstance(parent, MatrixSymbol) and r1 == r0 + 1 and (c0, c1) == (0, parent.cols) and r0.is_Integer:
            return rf"{parent.name.lower()}_{{{r0 + 1}}}"  # row j of Q is q_j
        if isinstance(parent, MatrixSymbol) and c1 == c0 + 1 and (r0, r1) == (0, parent.rows) and c0.is_Integer:
            return rf"{parent.name}_{{:,{c0 + 1}}}"
        return super()._print_MatrixSlice(expr)

    def _print_Determinant(self, expr):
        r"""``\det(M)``, in parentheses (``\det A\, B`` would read as ``\det(A B)``); an explicit matrix in brackets,
        so that determinants stacked in a column stay apart (bars of one height run into one line)."""
        arg = expr.arg
        if isinstance(arg, sp.MatrixBase):
            return r"\det " + self._print_MatrixBase(arg)
        return rf"\det\left({self._print(arg)}\right)"  # det A A₁₁ would read as det(A A₁₁)

    def _print_HadamardProduct(self, expr):
        return r" \odot ".join(self._wrap(a) for a in expr.args)

    def _wrap(self, a):
        text = self._print(a)
        if isinstance(a, (sp.MatAdd, sp.MatMul, sp.HadamardProduct)):
            return rf"\left({text}\right)"
        return text

    def _print_ElementwiseApplyFunction(self, expr):
        return rf"{sigma_tex(expr.function, self)}\left({self._print(expr.expr)}\right)"

    def _print_MatMul(self, expr):
        named = recognised(expr)
        if named is not None:
            return named(self)
        coeff, mats = expr.as_coeff_matrices()
        if coeff != 1 and len(mats) == 2:
            named = recognised(sp.MatMul(*mats))
            if named is not None:
                c = "-" if coeff == -1 else self.parenthesize(coeff, 50) + r"\,"
                return c + named(self)
        return super()._print_MatMul(expr)

    def _print_FormCall(self, expr):
        return expr._latex(self)

    def _print_MatrixElement(self, expr):
        """An entry counted from 1, as the paper counts (:mod:`derive.kernel.notation`): ``x_{i+1}``, ``K_{j+1,i+1}``."""
        parent = self.parenthesize(expr.parent, PRECEDENCE["Atom"], strict=True)
        return f"{parent}_{{{','.join(self._print(k) for k in notation.entry_indices(expr))}}}"

    def _print_FunctionMatrix(self, expr):
        r"""The matrix of entries ``body`` at indices counted from 1 (:func:`derive.kernel.notation.entries_of`):
        ``\bigl[\delta_{i,k}\bigr]_{i,k=1}^{r}``."""
        try:
            body, ranges = notation.entries_of(expr)
        except TypeError:
            return super()._print_FunctionMatrix(expr)
        if len(ranges) == 2 and ranges[0][1] == ranges[1][1]:  # square: [..]_{i,k=1}^{r}
            under = f"{self._print(ranges[0][0])},{self._print(ranges[1][0])}=1}}^{{{self._print(ranges[0][1])}"
        elif len(ranges) == 1:  # a row or a column: [..]_{k=1}^{r}
            under = f"{self._print(ranges[0][0])}=1}}^{{{self._print(ranges[0][1])}"
        else:  # [..]_{i \le d,\ k \le r}
            under = r",\ ".join(rf"{self._print(v)} \le {self._print(n)}" for v, n in ranges)
        return rf"\bigl[{self._print(body)}\bigr]_{{{under}}}"

    def _print_Sum(self, expr):
        """A sum from 0 printed from 1, its body rewritten for the shifted index (the same sum)."""
        body, limits = notation.shifted(expr)
        return super()._print_Sum(sp.Sum(body, *limits))


def latex(expr) -> str:
    """LaTeX of ``expr`` with the forms printed by name.

    >>> import sympy as sp, derive
    >>> from derive import forms
    >>> d, m, n = sp.symbols("d m n", integer=True, positive=True)
    >>> x, Q, K, V = sp.MatrixSymbol("x", 1, d), sp.MatrixSymbol("Q", m, d), sp.MatrixSymbol("K", m, d), sp.MatrixSymbol("V", m, n)
    >>> latex(forms.gated(x, Q, K, V, derive.activation("relu")))
    'G_{\\\\mathrm{ReLU}}(x;\\\\, Q, K)'
    """
    if not isinstance(expr, sp.Basic):  # a mutable matrix may change: printed each time
        return DerivePrinter().doprint(expr)
    hit = _PRINTED.get(id(expr))
    if hit is not None and hit[0] is expr:
        return hit[1]
    tex = DerivePrinter().doprint(expr)
    if len(_PRINTED) >= _PRINTED_MOST:
        _PRINTED.clear()
    _PRINTED[id(expr)] = (expr, tex)
    return tex


#: what :func:`latex` printed, by the identity of the (immutable) expression, which it holds: a claim's sides are
#: printed for its output, its record and its notebook's claim table, once
_PRINTED: dict[int, tuple[object, str]] = {}
_PRINTED_MOST = 20_000


#: how a statement gives the definitions it uses, after its equation: "… where σ(z) = …, c = 2"
WHERE = r"\quad \text{where }"


def equation(lhs, rhs) -> str:
    """``lhs = rhs`` in LaTeX."""
    return f"{latex(lhs)} = {latex(rhs)}"


# -- scope --------------------------------------------------------------------------------------------------------
def _matrix_symbols(expr) -> set:
    found = set()
    if isinstance(expr, Shown):
        found |= set(expr.leaves)
        if display_of(expr) is not None:
            found |= expr.shadow.atoms(MatrixSymbol)
        return found
    if isinstance(expr, sp.Basic):
        found |= expr.atoms(MatrixSymbol)
    return found


def _forms(expr):
    if isinstance(expr, Shown) and display_of(expr) is not None:
        return list(expr.shadow.atoms(FormCall))
    return []


def _entries(expr) -> set:
    if isinstance(expr, Shown):
        out = set()
        for value in expr.leaves.values():
            out |= set(value.free_symbols)
        return out
    return set()


def _domain(sym) -> str:
    """What a scalar symbol ranges over, as its assumptions say: its set (ℤ, 2ℤ, ℚ …) and its sign (``|N| = N`` is
    claimed for N ∈ ℤ_{>0}, not for N ∈ ℤ; ``(−1)^e e = e`` for e ∈ 2ℤ), never a wider one: a set is printed only
    where its assumptions are exactly the symbol's, else the declaration as given (an odd prime is no "prime", a
    transcendental no "ℝ ∖ ℚ", a complex ``w ≠ 0`` no "any")."""
    found = _domain_read(sym)
    if sp.Dummy("x", **_keywords(found)).assumptions0 == sym.assumptions0:
        return found
    # a declaration the sets above do not say exactly (transcendental; an odd prime; zero; a complex w ≠ 0): as given
    given = getattr(sym, "_assumptions_orig", None) or getattr(sym, "_kwargs", None) or {}
    return "declared " + ", ".join(k if v else f"not {k}" for k, v in sorted(given.items()) if k != "commutative")


def _domain_read(sym) -> str:
    if sym.is_prime or sym.is_composite:
        return "prime" if sym.is_prime else "composite"
    sign = ("positive" if sym.is_positive else "negative" if sym.is_negative else "nonnegative" if sym.is_nonnegative
            else "nonpositive" if sym.is_nonpositive else "nonzero" if sym.is_real and sym.is_zero is False else "")
    kind = ("even" if sym.is_even else "odd" if sym.is_odd else "integer" if sym.is_integer
            else "rational" if sym.is_rational else "irrational" if sym.is_irrational
            else "noninteger" if sym.is_real and sym.is_integer is False else "")
    if kind:
        return f"{'' if kind in ('odd', 'irrational', 'noninteger') and sign == 'nonzero' else sign} {kind}".strip()
    return sign or ("real" if sym.is_real else "any")


def _keywords(domain: str) -> dict:
    """The assumptions that make a symbol range over exactly ``domain`` (an answer of :func:`_domain`)."""
    if domain in ("any", "real"):
        return {} if domain == "any" else {"real": True}
    sign, _, kind = domain.rpartition(" ") if domain.split()[-1] in (*_SETS, "prime", "composite") else (domain, "", "")
    out = {"real": True, "zero": False} if sign == "nonzero" else {sign: True} if sign else {}
    if kind == "noninteger":
        out.update(real=True, integer=False)
    elif kind:
        out[kind] = True
    return out


_SETS = {"integer": r"\mathbb{Z}", "even": r"2\mathbb{Z}", "odd": r"(2\mathbb{Z} + 1)", "rational": r"\mathbb{Q}",
         "irrational": r"(\mathbb{R} \setminus \mathbb{Q})", "noninteger": r"(\mathbb{R} \setminus \mathbb{Z})"}
_SIGNS = {"positive": "> 0", "negative": "< 0", "nonnegative": r"\geq 0", "nonpositive": r"\leq 0"}


def _domain_tex(domain: str) -> str:
    """How :func:`_domain`'s answer is printed after the symbols: ``\\in \\mathbb{Z}_{> 0}``, ``> 0``, ``\\in 2\\mathbb{Z}``."""
    if domain in ("prime", "composite") or domain.startswith("declared "):
        return rf"\text{{ {domain}}}"
    if domain == "any":  # declared nothing: SymPy reads it as complex, and so is the statement claimed
        return r"\in \mathbb{C}"
    if domain == "real":
        return r"\in \mathbb{R}"
    sign, _, kind = domain.rpartition(" ") if domain.split()[-1] in _SETS else (domain, "", "")
    if not kind:
        return _SIGNS.get(sign, r"\neq 0")
    if sign == "nonzero":
        return rf"\in {_SETS[kind]} \setminus \{{0\}}"
    return rf"\in {_SETS[kind]}" + (f"_{{{_SIGNS[sign]}}}" if sign else "")


#: the facts a declaration is said by when no set says it exactly, the more telling first
_SAID = ("zero", "prime", "composite", "even", "odd", "integer", "noninteger", "rational", "irrational",
         "transcendental", "algebraic", "imaginary", "positive", "negative", "nonnegative", "nonpositive", "nonzero",
         "real")


def _codomain_tex(f) -> str:
    """The set an undefined function's values lie in, as it was declared: ℝ (or nothing declared: a statement for
    every complex-valued one holds for every real-valued one), ℝ_{>0} for a positive one, ℤ for an integer one …

    >>> print(_codomain_tex(sp.Function("g", positive=True)), _codomain_tex(sp.Function("h")))
    \\mathbb{R}_{> 0} \\mathbb{R}
    """
    declared = {k: v for k, v in (getattr(f, "_kwargs", None) or {}).items() if k != "commutative"}
    domain = _domain(sp.Dummy("x", **declared)) if declared else "real"
    if domain in ("any", "real"):
        return r"\mathbb{R}"
    if domain in ("prime", "composite") or domain.startswith("declared "):
        held = [k for k in _SAID if declared.get(k)] or [f"not {k}" for k in _SAID if declared.get(k) is False]
        said = ", ".join(held[:3]) + (", …" if len(held) > 3 else "")  # (SymPy keeps every derived fact of it)
        return rf"\mathbb{{C}}\ \text{{(declared {said})}}" if said else r"\mathbb{C}"  # (complex, finite)
    if domain == "nonzero":
        return r"\mathbb{R} \setminus \{0\}"
    if domain in _SIGNS:
        return rf"\mathbb{{R}}_{{{_SIGNS[domain]}}}"
    return _domain_tex(domain).removeprefix(r"\in ")


def sizes_of(objects) -> tuple[set, dict]:
    """The symbolic sizes (``d, m, n``) and the concrete ones by role (``{"d": 2, "m": 2}``) of the objects."""
    symbolic, concrete = set(), {}
    for obj in objects:
        for M in _matrix_symbols(obj):
            for s in M.shape:
                symbolic |= sp.sympify(s).free_symbols
        for call in _forms(obj):
            concrete.update(FORMS[call.name][2](*call.operands))
    return symbolic, concrete


def _named(objects, assume=()) -> tuple:
    """What a statement about ``objects`` names: its undefined functions, its scalar symbols (not the entries of a
    shown matrix, not sizes), its matrix symbols and its size symbols, each sorted by name."""
    objects = [o for o in objects if o is not None]
    symbolic, _ = sizes_of(objects)  # (the symbols in the matrix symbols' shapes)
    shown_entries, mats, funcs, free, constants = set(), set(), set(), set(), set()
    for obj in objects:
        shown_entries |= _entries(obj)
        mats |= _matrix_symbols(obj)
        if isinstance(obj, sp.Basic):
            free |= obj.free_symbols
            funcs |= {f.func for f in obj.atoms(AppliedUndef)}
            constants |= obj.atoms(sp.Identity, sp.ZeroMatrix, sp.OneMatrix)
    for cond in assume:
        free |= cond.free_symbols
    # the sizes of I, 0 and 1 (of no matrix symbol) are sizes too, where a size is a symbol (j in I_{j²} is no size:
    # it may be negative, and a witness may take it so)
    size_syms = set(symbolic) | {d for M in constants for d in M.shape if isinstance(d, sp.Symbol)}
    # "all sizes n ≥ 0" says every whole number: only for a symbol that is a whole size and declared just so; any
    # other (m in n − m, an even n, a nonzero one) is printed as it is declared, as a scalar is
    whole = {d for M in (*mats, *constants) for d in M.shape}
    plain = {s for s in size_syms if s in whole and isinstance(s, sp.Symbol) and _domain(s) in _SIZES}
    free |= size_syms - plain
    size_syms = plain
    scalars = sorted((s for s in free if s not in shown_entries and s not in size_syms and isinstance(s, sp.Symbol)),
                     key=sp.default_sort_key)  # (a free Dummy too: a variable, instantiated like any other)
    return (sorted(funcs, key=lambda f: f.__name__), scalars, sorted(mats, key=lambda M: M.name),
            sorted(size_syms, key=lambda s: s.name))


#: the declarations "all sizes n ≥ 0" and "all sizes n ≥ 1" say exactly
_SIZES = ("nonnegative integer", "positive integer")


def bound(objects, varied, assume=()) -> tuple[str, str]:
    """``(tex, text)``: "for all" of the variables of a line of an implication chain that the chain reads for all
    their values (``varied``: the variables its steps instantiate, theirs and those of the chains they apply), with
    the chain's assumptions about them (``assume``: the instances must meet them), or ``("", "")`` for a line
    without one. The premise is read for all those values, and so is each line it gives; printed without the
    quantifier, ``a = 0 ⟹ 1 = 0`` (by ``a := 1``) would read as a claim about each a, false at a = 0. The other
    variables keep one value each, as the scope says.

    A shown matrix is bound as a whole when every entry its value holds is varied (a row ``u`` of ``u_1 … u_d``),
    else by its varied entries.

    >>> import sympy as sp
    >>> a, b = sp.symbols("a b", real=True)
    >>> bound([a * b, b], {b})[1]
    'for all b: '
    >>> print(bound([a * b, b], {a, b})[0].strip())
    \\forall a, b\\colon\\
    >>> bound([a * b, b], {b}, [sp.Ne(b, 0), a > 0])[1]
    'for all b with Ne(b, 0): '
    >>> bound([a * b, b], set())
    ('', '')
    """
    varied = set(varied)
    _, scalars, mats, sizes = _named(objects)
    leaves: dict = {}
    for obj in objects:
        leaves.update(getattr(obj, "leaves", None) or {})
    names, held = [s for s in scalars if s in varied], set()
    for M in mats:
        value = leaves.get(M)
        entries = set(value.free_symbols) if value is not None else set()
        if M in varied or entries and entries <= varied:
            names.append(M)
            held |= entries | {M}
        else:  # some entries of a shown matrix instantiated: those, by their own names
            names += sorted(entries & varied, key=sp.default_sort_key)
    names += [s for s in sizes if s in varied]
    if not names:
        return "", ""
    held |= set(names)
    conditions = [c for c in assume if (c.free_symbols | c.atoms(sp.MatrixSymbol)) & held]
    printer = DerivePrinter()
    tex = r"\forall " + ", ".join(printer._print(s) for s in names)
    text = "for all " + ", ".join(sp.sstr(s) for s in names)
    if conditions:
        tex += r" \text{ with } " + r",\ ".join(printer._print(c) for c in conditions)
        text += " with " + ", ".join(sp.sstr(c) for c in conditions)
    return tex + r"\colon\ ", text + ": "


def _size_tex(printer, size) -> str:
    """A size in a shape ℝ^{rows × cols}: a sum or a product in parentheses (ℝ^{(n − m) × (n − m)})."""
    tex = printer._print(size)
    return tex if isinstance(size, (sp.Symbol, sp.Integer)) else rf"\left({tex}\right)"


def scope(objects, assume=(), conjunctions=False) -> tuple[str, str]:
    """``(tex, text)``: for which values the statement about ``objects`` is claimed, read off the objects.

    ``text`` is ``"every size"`` when a size is a symbol (or what the assumptions on the sizes alone say of them,
    ``"d=1"``, and the matrix symbols of a fixed size beyond 1, ``"V: d×2"``), the sizes (``"d=2, m=2, n=2"``) for
    explicit matrices, and ``""`` for scalar statements. With
    ``conjunctions`` (the equations of an implication chain), an explicit matrix of scalar expressions is a list of
    scalar equations, one per entry, not a statement at its size.

    >>> import sympy as sp
    >>> a = sp.Symbol("a", real=True)
    >>> scope([sp.Matrix([a, 2 * a])])[1], scope([sp.Matrix([a, 2 * a])], conjunctions=True)[1]
    ('2×1', '')
    >>> M, N = sp.MatrixSymbol("M", 2, 2), sp.MatrixSymbol("N", 2, 2)
    >>> scope([(M * N).T, N.T * M.T], conjunctions=True)[1]
    'M, N: 2×2'
    >>> d = sp.Symbol("d", integer=True, positive=True)
    >>> X = sp.MatrixSymbol("X", d, d)
    >>> scope([X], assume=[sp.Eq(d, 1)])[1], scope([X], assume=[sp.Eq(X[0, 0], 1)])[1]
    ('d=1', 'every size')
    >>> scope([X * sp.MatrixSymbol("V", d, 2)])[1]
    'V: d×2'
    """
    objects = [o for o in objects if o is not None]
    symbolic, concrete = sizes_of(objects)
    funcs, scalars, mats, size_syms = _named(objects, assume)
    printer = DerivePrinter()
    parts = []
    for f in funcs:
        parts.append(rf"\text{{every }} {printer._print(sp.Symbol(f.__name__))}\colon \mathbb{{R}} \to {_codomain_tex(f)}")
    by_domain: dict[str, list] = {}
    for s in scalars:
        by_domain.setdefault(_domain(s), []).append(printer._print(s))
    order = ["real", "positive", "negative", "nonnegative", "nonpositive", "nonzero", "integer", "positive integer",
             "negative integer", "nonnegative integer", "nonpositive integer", "nonzero integer"]
    for dom, names in sorted(by_domain.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order)):
        if _domain_tex(dom):
            parts.append(", ".join(names) + " " + _domain_tex(dom))
    by_shape: dict = {}
    for M in mats:
        by_shape.setdefault(M.shape, []).append(printer._print(M))
    for shape, names in by_shape.items():
        rows, cols = (_size_tex(printer, d) for d in shape)
        parts.append(", ".join(names) + rf" \in \mathbb{{R}}^{{{rows} \times {cols}}}")
    parts += [printer._print(c) for c in assume]
    steps = {h.args[1] if len(h.args) > 1 else sp.S.Half for o in objects if isinstance(o, sp.Basic)
             for h in o.atoms(sp.Heaviside)}  # what H is at 0, as SymPy takes it (the reader may take it 1)
    for h0 in sorted(steps, key=sp.default_sort_key):
        name = r"\operatorname{H}" if h0 == sp.S.Half else rf"\operatorname{{H}}_{{{printer._print(h0)}}}"
        parts.append(rf"{name}(0) = {printer._print(h0)}")
    for least in (1, 0):  # each from the least its declaration allows: a size declared nonnegative may be 0
        names = ", ".join(printer._print(s) for s in size_syms if (s.is_positive is True) == (least == 1))
        if names:
            parts.append(rf"\text{{all sizes }} {names} \geq {least}")
    if symbolic or size_syms:
        # an assumption on the sizes alone (d = 1, d > 2) narrows them: "every size" would say more than is claimed
        sizes = set(symbolic) | set(size_syms)
        narrowing = [c for c in assume if isinstance(c, sp.Basic) and c.free_symbols and c.free_symbols <= sizes]
        # so does a matrix symbol of a fixed size beyond 1 beside symbolic ones (V of m × 2 is at n = 2)
        fixed = [M for M in mats if any(sp.sympify(k).is_Integer and k > 1 for k in M.shape)]
        text = ", ".join([f"{sp.sstr(c.lhs)}={sp.sstr(c.rhs)}" if isinstance(c, sp.Eq) else sp.sstr(c)
                          for c in narrowing] + [f"{M.name}: {sp.sstr(M.shape[0])}×{sp.sstr(M.shape[1])}"
                                                 for M in fixed]) or "every size"
    elif concrete:
        text = ", ".join(f"{k}={concrete[k]}" for k in ("d", "m", "n", "r") if k in concrete)
    else:
        # a matrix symbol of a fixed shape is a statement at that size; so is an explicit matrix, unless it only
        # lists the scalar equations of an implication chain
        shapes = [] if conjunctions else [o.shape for o in objects if isinstance(o, (sp.MatrixBase, sp.MatrixExpr))]
        text = "" if not shapes else ", ".join(sorted({f"{a}×{b}" for a, b in shapes}))
        if by_shape:
            text = ", ".join(f"{', '.join(n.replace('{', '').replace('}', '') for n in names)}: {s[0]}×{s[1]}"
                             for s, names in by_shape.items())
    tex = r"\text{for } " + r",\ ".join(parts) if parts else ""
    return tex, text
