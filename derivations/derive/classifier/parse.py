"""Read an activation written as text (``"z * sigmoid(z)"``) into an exact SymPy expression in ``z``.

SymPy's ``sympify``/``parse_expr`` evaluate Python, so they must never see untrusted text. This parser walks
Python's own syntax tree (``ast.parse(..., mode="eval")``, which only parses) and builds the SymPy expression
itself, accepting a small language and nothing else:

- the name ``z`` and the constants ``pi`` and ``e``;
- numeric literals: integers, and decimals such as ``0.044715`` or ``1e-2`` read as exact rationals;
- ``+ - * / **`` and unary minus (or plus);
- calls, with the right number of positional arguments, to the functions in :data:`FUNCTIONS`.

Everything else -- attribute access, subscripts, lambdas, comprehensions, strings, keyword arguments, unknown
names, huge numbers or exponents, overlong input -- raises a one-line ``ValueError`` naming the offending piece.
"""
from __future__ import annotations

import ast
import decimal
import fractions

import sympy as sp

from ..layers.activations import activation, z

__all__ = ["parse", "FUNCTIONS", "VARIADIC", "CONSTANTS", "MAX_LENGTH", "MAX_EXPONENT", "MAX_DIGITS", "MAX_BITS", "MAX_DEPTH"]

#: the longest text accepted, in characters
MAX_LENGTH = 400
#: the largest absolute value of a numeric exponent
MAX_EXPONENT = 64
#: the most significant digits (and the widest decimal exponent) of one numeric literal
MAX_DIGITS = 30
#: the largest exact rational a power may produce, in bits of its numerator or denominator
MAX_BITS = 4096
#: the deepest nesting of operations and calls
MAX_DEPTH = 50


#: name -> (number of arguments, builder); the only functions a text may call
FUNCTIONS = {
    "exp": (1, sp.exp),
    "log": (1, sp.log),
    "sqrt": (1, sp.sqrt),
    "abs": (1, sp.Abs),
    "sign": (1, sp.sign),
    "max": (2, lambda a, b: sp.Max(a, b)),
    "min": (2, lambda a, b: sp.Min(a, b)),
    "erf": (1, sp.erf),
    "erfc": (1, sp.erfc),
    "tanh": (1, sp.tanh),
    "sinh": (1, sp.sinh),
    "cosh": (1, sp.cosh),
    "asinh": (1, sp.asinh),
    "atan": (1, sp.atan),
    "sin": (1, sp.sin),
    "cos": (1, sp.cos),
    "tan": (1, sp.tan),
    "relu": (1, lambda a: sp.Max(0, a)),
    "sigmoid": (1, lambda a: 1 / (1 + sp.exp(-a))),
    "softplus": (1, lambda a: sp.log(1 + sp.exp(a))),
    **{name: (1, activation(name)) for name in ("leaky_relu", "silu", "gelu", "gelu_tanh", "elu", "mish")},
    # SymPy's own spelling, as it prints an activation
    "Abs": (1, sp.Abs),
    "Heaviside": (1, sp.Heaviside),
}
#: name -> (least number of arguments, builder): functions of any number of arguments from the least on
VARIADIC = {"Max": (2, sp.Max), "Min": (2, sp.Min)}
#: name -> value; with ``z`` the only names a text may use outside a call
CONSTANTS = {"pi": sp.pi, "e": sp.E, "E": sp.E}
#: the functions in lower case (as messages list them; SymPy's spellings are read too)
_LOWER = [n for n in FUNCTIONS if n not in ("Abs", "Heaviside")]
#: common slips and the spelling meant
_ALIASES = {"ln": "log", "swish": "silu", "arctan": "atan", "arcsinh": "asinh", "heaviside": "Heaviside",
            "step": "Heaviside", "sgn": "sign", "fabs": "abs", "maximum": "max", "minimum": "min",
            "relu6": "min(relu(z), 6)", "hardtanh": "max(-1, min(1, z))", "softsign": "z / (1 + abs(z))"}
_RELATIONS = {ast.Lt: sp.Lt, ast.LtE: sp.Le, ast.Gt: sp.Gt, ast.GtE: sp.Ge}

_OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**"}
_UNSUPPORTED = {
    ast.Attribute: "attribute access", ast.Subscript: "subscripts", ast.Lambda: "lambdas",
    ast.ListComp: "comprehensions", ast.SetComp: "comprehensions", ast.DictComp: "comprehensions",
    ast.GeneratorExp: "comprehensions", ast.Compare: "comparisons", ast.BoolOp: "and/or",
    ast.IfExp: "conditional expressions", ast.NamedExpr: "assignments", ast.Starred: "starred arguments",
    ast.JoinedStr: "strings", ast.List: "lists", ast.Tuple: "tuples", ast.Dict: "dicts", ast.Set: "sets",
    ast.Await: "await", ast.Yield: "yield", ast.YieldFrom: "yield", ast.Slice: "slices",
}


class _Reader:
    """Builds the SymPy expression node by node; never evaluates Python."""

    def __init__(self, text: str):
        self.text = text
        #: what the text divides by, as written (``(z - 3)`` in ``z*(z - 3)/(z - 3)``), with where it does: SymPy
        #: cancels it as it builds, so it is read here, before, and must be nonzero at every real z
        self.divisors: list = []

    def divides(self, written, node) -> None:
        """Keep what ``written`` (a node built unevaluated) divides by: a denominator, a negative power's base, a
        function's pole (``log z`` at 0), before SymPy's evaluation cancels it."""
        from ..kernel.wellformed import defined, denominators

        self.divisors += [(d, node, None) for d in denominators(written) if not isinstance(d, defined)]

    def piece(self, node) -> str:
        seg = ast.get_source_segment(self.text, node) or type(node).__name__
        seg = " ".join(seg.split())
        return seg if len(seg) <= 40 else seg[:37] + "..."

    def fail(self, what: str, node):
        raise ValueError(f"parse: {what} not allowed: {self.piece(node)!r}")

    def read(self, node, depth: int = 0):
        if depth > MAX_DEPTH:
            raise ValueError(f"parse: the expression nests deeper than {MAX_DEPTH} levels")
        if isinstance(node, ast.Expression):
            return self.read(node.body, depth + 1)
        if isinstance(node, ast.Constant):
            return self.number(node)
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, (ast.USub, ast.UAdd)):
                value = self.read(node.operand, depth + 1)
                return -value if isinstance(node.op, ast.USub) else value
            self.fail(f"the operator {type(node.op).__name__}", node)
        if isinstance(node, ast.BinOp):
            return self.binary(node, depth)
        if isinstance(node, ast.Call):
            return self.call(node, depth)
        self.fail(_UNSUPPORTED.get(type(node), f"the construct {type(node).__name__}"), node)

    def number(self, node):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            kind = {bool: "booleans", str: "strings", bytes: "bytes", complex: "complex numbers"}.get(
                type(value), "this constant")
            self.fail(kind, node)
        if isinstance(value, int):
            if len(str(abs(value))) > MAX_DIGITS:
                self.fail(f"integers longer than {MAX_DIGITS} digits", node)
            return sp.Integer(value)
        text = (ast.get_source_segment(self.text, node) or "").replace("_", "")
        try:
            dec = decimal.Decimal(text)
        except decimal.InvalidOperation:
            self.fail("this number", node)
        _, digits, exponent = dec.as_tuple()
        if not isinstance(exponent, int) or len(digits) > MAX_DIGITS or abs(exponent) > MAX_DIGITS:
            self.fail(f"decimals of more than {MAX_DIGITS} digits or with exponents beyond {MAX_DIGITS}", node)
        exact = fractions.Fraction(dec)
        return sp.Rational(exact.numerator, exact.denominator)

    def name(self, node):
        if node.id == "z":
            return z
        if node.id in CONSTANTS:
            return CONSTANTS[node.id]
        if node.id in FUNCTIONS:
            raise ValueError(f"parse: the function {node.id!r} must be called, as in {node.id}(z)")
        raise ValueError(f"parse: unknown name {node.id!r}; use z, pi, e or a function: {', '.join(_LOWER)}")

    def binary(self, node, depth):
        if isinstance(node.op, ast.BitXor):
            raise ValueError(f"parse: the operator ^ (BitXor) not allowed: {self.piece(node)!r}; "
                             f"write powers with **, e.g. z**2")
        if type(node.op) not in _OPERATORS:
            self.fail(f"the operator {type(node.op).__name__}", node)
        left = self.read(node.left, depth + 1)
        right = self.read(node.right, depth + 1)
        if isinstance(node.op, ast.Add):
            out = left + right
        elif isinstance(node.op, ast.Sub):
            out = left - right
        elif isinstance(node.op, ast.Mult):
            out = left * right
        elif isinstance(node.op, ast.Div):
            if right == 0:
                self.fail("division by zero", node)
            with sp.evaluate(False):
                self.divides(left / right, node)
            out = left / right
        else:
            out = self.power(left, right, node)
        return self.finite(out, node)

    def power(self, base, exponent, node):
        if exponent.is_number:
            if not exponent.is_real:
                self.fail("complex exponents", node)
            if not abs(exponent) <= MAX_EXPONENT:
                self.fail(f"exponents beyond {MAX_EXPONENT}", node)
            if exponent.is_Rational:
                # checked before SymPy evaluates anything: (3*z)**64 raises 3 to the 64th, ((3*z)**64)**64 3**64
                # to the 64th (a power of a symbol, or of a sum, is only written: its exponents multiply)
                if _bits(base) * abs(int(exponent.p)) > MAX_BITS:
                    self.fail(f"powers beyond {MAX_BITS} bits", node)
                if base == 0 and exponent.is_negative:
                    self.fail("division by zero", node)
        with sp.evaluate(False):
            self.divides(base**exponent, node)
        return base**exponent

    def exponential(self, arg, node):
        """``exp(arg)`` is a power when ``arg`` has a multiple of a logarithm (SymPy makes ``exp(k log x)`` ``x**k``):
        the same limits hold, checked before it is built."""
        for term in sp.Add.make_args(arg):
            coeff, rest = term.as_coeff_Mul()
            if rest.has(sp.log):
                if not abs(coeff) <= MAX_EXPONENT:
                    self.fail(f"exponents beyond {MAX_EXPONENT} (exp of a multiple of a logarithm)", node)
                bits = max((_bits(log.args[0]) for log in rest.atoms(sp.log)), default=1)
                if bits * abs(int(sp.Rational(coeff).p)) > MAX_BITS:
                    self.fail(f"powers beyond {MAX_BITS} bits (exp of a multiple of a logarithm)", node)
        return sp.exp(arg)

    def call(self, node, depth):
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, (ast.Name, ast.Attribute)):
            meant = _meant(func.attr)
            if meant is not None:  # torch.relu(z), F.silu(z), np.tanh(z): the name without its module
                raise ValueError(f"parse: attribute access not allowed: {self.piece(func)!r}; "
                                 f"write {meant}(...) without the module prefix, e.g. {meant}(z)")
        if not isinstance(func, ast.Name):
            self.read(func, depth + 1)  # names what is wrong with it (attribute access, a subscript ...)
            self.fail("calls of anything but a named function", node)
        if func.id not in FUNCTIONS and func.id not in VARIADIC and func.id != "Piecewise":
            meant = _meant(func.id)
            hint = f" (did you mean {meant}?)" if meant is not None and meant != func.id else ""
            raise ValueError(f"parse: unknown function {func.id!r}{hint}; known: {', '.join(FUNCTIONS)}, "
                             f"{', '.join(VARIADIC)}, Piecewise")
        if node.keywords:
            self.fail("keyword arguments", node.keywords[0])
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                self.fail("starred arguments", arg)
        if func.id == "Piecewise":
            return self.finite(self.piecewise(node, depth), node)
        if func.id in VARIADIC:
            least, build = VARIADIC[func.id]
            if len(node.args) < least:
                raise ValueError(f"parse: {func.id} takes at least {least} arguments, got {len(node.args)} in "
                                 f"{self.piece(node)!r}")
            return self.finite(build(*[self.read(a, depth + 1) for a in node.args]), node)
        arity, build = FUNCTIONS[func.id]
        if len(node.args) != arity:
            raise ValueError(f"parse: {func.id} takes {arity} argument{'s' if arity > 1 else ''}, "
                             f"got {len(node.args)} in {self.piece(node)!r}")
        args = [self.read(a, depth + 1) for a in node.args]
        with sp.evaluate(False):
            self.divides(build(*args), node)  # (exp(log z) is z to SymPy: the pole of log at 0 is read here)
        if func.id == "exp":
            return self.finite(self.exponential(args[0], node), node)
        return self.finite(build(*args), node)

    def piecewise(self, node, depth):
        """``Piecewise((value, condition), ...)``: conditions are comparisons of expressions, joined by & | ~."""
        if not node.args:
            raise ValueError("parse: Piecewise takes at least one (value, condition) pair, got none")
        pairs = []
        for arg in node.args:
            if not isinstance(arg, ast.Tuple) or len(arg.elts) != 2:
                self.fail("Piecewise arguments other than (value, condition) pairs", arg)
            mark = len(self.divisors)
            value, cond = self.read(arg.elts[0], depth + 2), self.condition(arg.elts[1], depth + 2)
            # what a branch divides by need be nonzero only where its condition holds (the innermost one kept)
            self.divisors[mark:] = [(d, where, cond if was is None else was) for d, where, was in self.divisors[mark:]]
            pairs.append((value, cond))
        return sp.Piecewise(*pairs)

    def condition(self, node, depth):
        if depth > MAX_DEPTH:
            raise ValueError(f"parse: the expression nests deeper than {MAX_DEPTH} levels")
        if isinstance(node, ast.Constant) and isinstance(node.value, bool):
            return sp.true if node.value else sp.false
        if isinstance(node, ast.Compare):
            if not all(type(op) in _RELATIONS for op in node.ops):
                self.fail("comparisons other than < <= > >= (use Eq(a, b), Ne(a, b))", node)
            sides = [self.read(node.left, depth + 1), *(self.read(c, depth + 1) for c in node.comparators)]
            return sp.And(*[_RELATIONS[type(op)](l, r) for op, l, r in zip(node.ops, sides, sides[1:])])
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr)):
            join = sp.And if isinstance(node.op, ast.BitAnd) else sp.Or
            return join(self.condition(node.left, depth + 1), self.condition(node.right, depth + 1))
        if isinstance(node, ast.BoolOp):
            join = sp.And if isinstance(node.op, ast.And) else sp.Or
            return join(*[self.condition(v, depth + 1) for v in node.values])
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Invert, ast.Not)):
            return sp.Not(self.condition(node.operand, depth + 1))
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("Eq", "Ne")
                and len(node.args) == 2 and not node.keywords):
            rel = sp.Eq if node.func.id == "Eq" else sp.Ne
            return rel(self.read(node.args[0], depth + 1), self.read(node.args[1], depth + 1))
        self.fail("this Piecewise condition (write comparisons such as z > 0, joined by & | ~)", node)

    def finite(self, value, node):
        if value.has(sp.zoo, sp.oo, -sp.oo, sp.nan):
            self.fail("undefined values (division by zero, infinity)", node)
        if value.is_number and value.is_extended_real is False:
            self.fail("non-real values", node)
        return value


def _bits(e) -> int:
    """The most bits of a numerator or denominator of a rational number that a power of ``e`` raises: ``e`` itself,
    a factor of a product, the base of a power (SymPy writes ``(c x)**n`` as ``c**n x**n``; a sum stays as it is)."""
    if e.is_Rational:
        return max(int(e.p).bit_length(), int(e.q).bit_length())
    if isinstance(e, sp.Mul):
        return max(_bits(a) for a in e.args)
    if isinstance(e, sp.Pow):
        return _bits(e.base)
    return 1


def _meant(name: str):
    """The known function a slip of ``name`` most likely means (``ReLU`` -> ``relu``, ``ln`` -> ``log``), or None."""
    known = {**{n.lower(): n for n in (*FUNCTIONS, *VARIADIC, "Piecewise")}, **{n: n for n in FUNCTIONS}}
    if name in known:
        return known[name]
    if name in _ALIASES:
        return _ALIASES[name]
    return known.get(name.lower()) or _ALIASES.get(name.lower())


def parse(text: str, divisors: list | None = None) -> sp.Expr:
    """The activation ``text`` (an expression in ``z``) as an exact SymPy expression; nothing is evaluated.

    ``divisors``: a list that gets what the text divides by as written, with the piece that does (SymPy cancels
    ``(z - 3)/(z - 3)`` as it builds): for :func:`refuse_zero_divisors`.

    Decimals become exact rationals; the functions are those of :data:`FUNCTIONS`, the constants ``pi``
    and ``e``. Anything else raises a one-line ``ValueError`` naming the offending piece.

    Examples
    --------
    >>> from derive.classifier.parse import parse
    >>> parse("z * sigmoid(z)")
    z/(1 + exp(-z))
    >>> parse("max(z, 0) + 0.01 * min(z, 0)")
    Max(0, z) + Min(0, z)/100
    >>> parse("z**2 / 2").free_symbols
    {z}
    >>> parse("__import__('os').system('true')")
    Traceback (most recent call last):
    ...
    ValueError: parse: attribute access not allowed: "__import__('os').system"
    >>> parse("z ** 1000")
    Traceback (most recent call last):
    ...
    ValueError: parse: exponents beyond 64 not allowed: 'z ** 1000'
    """
    if not isinstance(text, str):
        raise TypeError(f"parse: expected the activation as a str, got {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise ValueError(f"parse: the text is {len(text)} characters long; at most {MAX_LENGTH} are read")
    if not text.strip():
        raise ValueError("parse: the text is empty; write an expression in z, such as 'z * sigmoid(z)'")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        hint = "; write abs(z) for |z|" if "|" in text else ""
        raise ValueError(f"parse: not a valid expression ({exc.msg}): {text.strip()[:40]!r}{hint}") from None
    except (RecursionError, MemoryError):
        raise ValueError("parse: the expression nests too deeply") from None
    reader = _Reader(text.strip())
    expr = reader.read(tree)
    if divisors is not None:
        divisors += [(d, reader.piece(node), cond) for d, node, cond in reader.divisors]
    return expr


def refuse_zero_divisors(divisors) -> None:
    """Raise a one-line ``ValueError`` for the first of ``divisors`` (what :func:`parse` found the text divides by,
    as written) that is not nonzero at every real z: ``z*(z - 3)/(z - 3)`` is z to SymPy, but has no value at 3. A
    ``Piecewise`` branch taken where ``z > c`` (or ``<``, ``≥``, ``≤``) divides only there: ``Piecewise((1/z, z > 0),
    (0, True))`` is read."""
    from ..kernel.cases import _bound, _stand_in
    from ..kernel.wellformed import known_nonzero

    for divisor, piece, cond in divisors:
        bound = _bound(cond) if cond is not None else None
        read = divisor.xreplace({z: _stand_in(*bound)}) if bound is not None and bound[0] == z else divisor
        if not known_nonzero(read):  # (in a branch taken only where z > c, or <, ≥, ≤: read there)
            where = f"wherever {sp.sstr(cond)}" if read is not divisor else "at every real z"
            raise ValueError(f"parse: {piece!r} divides by {sp.sstr(divisor)}, which is not nonzero {where}: the "
                             f"activation would have no value there")
