"""SymPy → Z3: a translation of its own, sharing nothing with the kernel's strategies and rules.

The fragment is what Z3 decides exactly: polynomial arithmetic over the reals with rational constants;
``Max``/``Min``/``Abs``/``sign``/``Heaviside``/``Piecewise`` as if-then-else; a reciprocal as a fresh real
``r`` with ``b·r = 1`` (the claim is read where it is defined, as the kernel's ``cancel`` reads it); the square
root of a positive rational as a fresh ``y > 0`` with ``y² = c``; an undefined σ as an uninterpreted function;
the symbols' domains (real, positive, nonzero, integer …) as constraints, and an undefined function's
assumptions (``Function("f", positive=True)``) as constraints on each of its applications. A symbol SymPy does not know to be
real, and every entry of a matrix symbol, is complex: it is modelled exactly as two reals (real and imaginary
part), and σ of a complex argument as an uninterpreted function of both parts. Anything else (``exp``, ``erf``,
π, a float, a sum over a symbolic range …) raises :class:`Outside`, naming it: nothing is dropped or approximated.

Terms are written as SMT-LIB text and parsed by Z3 (:meth:`Translator.parse`): building them through Z3's
Python objects costs far more than the solving does for most claims.

>>> import sympy as sp
>>> a = sp.Symbol("a", real=True)
>>> t = Translator()
>>> t.scalar(sp.Max(0, a) + sp.Rational(1, 3))[0]
'(+ (/ 1.0 3.0) (ite (>= |a#0| 0.0) |a#0| 0.0))'
>>> t.parse(["(= " + t.scalar(sp.Max(0, a))[0] + " 1.0)"])
[If(a#0 >= 0, a#0, 0) == 1]
>>> Translator().scalar(sp.exp(a))
Traceback (most recent call last):
...
derive.second.translate.Outside: a transcendental function (exp)
"""
from __future__ import annotations

import contextlib
import functools
import itertools
import time

import sympy as sp
import z3
from z3.z3 import _to_expr_ref as _expr
from sympy.core.assumptions import _assume_defined
from sympy.core.function import AppliedUndef
from sympy.matrices.expressions import MatrixExpr
from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction
from sympy.matrices.expressions.matexpr import MatrixElement

__all__ = ["Outside", "Unknown", "Translator", "cancel_in_formula", "cancel_inverses", "complex_inputs",
           "size_symbols", "simplify", "within", "time_left_ms"]

#: SymPy's facts about a symbol that the translation models as constraints
MODELLED = ("real", "positive", "negative", "nonnegative", "nonpositive", "nonzero", "zero", "integer")
#: names of functions that are transcendental: said as such when they put a claim outside the fragment
#: a larger integer power is not written out as a product (it is outside the fragment)
MAX_POWER = 64
#: the largest matrix whose inverse or determinant is written out (its determinant has k! terms)
MAX_INVERSE = 4
#: the most terms of a sum written out
MAX_SUM = 10000
#: the longest term written out, in characters of SMT-LIB (a larger one puts the claim outside the fragment)
MAX_TERM = 1_000_000
#: the most rewriting steps of one call of Z3's simplifier (deterministic, as the solver's resource limit is)
MAX_STEPS = 10_000_000
#: wall-clock limit of one call into Z3, in milliseconds: a safety net behind the deterministic limits
TIMEOUT_MS = 10000

TRANSCENDENTAL = {"exp", "log", "erf", "erfc", "tanh", "sinh", "cosh", "sin", "cos", "tan", "atan", "asin",
                   "acos", "sigmoid", "LambertW", "gamma", "loggamma", "besselj", "Si", "Ci", "Ei", "li"}
ZERO, ONE = "0.0", "1.0"


class Outside(Exception):
    """The claim leaves the fragment; the message names what put it outside (``erf``, ``a complex symbol`` …)."""


class Unknown(Exception):
    """Z3 ran out of a limit (its steps, its resource units, its time, or the claim's budget): no opinion."""


#: the deadlines (on time.monotonic()) of the re-checks under way, innermost last (None: no deadline of its own)
_DEADLINES: list = []
#: what an opinion says when the claim's budget ended before Z3 did
OUT_OF_TIME = "out of time (the claim's budget ended before Z3 did)"


@contextlib.contextmanager
def within(seconds):
    """Every call into Z3 inside the block ends by ``seconds`` from now (``None``: only :data:`TIMEOUT_MS` each)."""
    _DEADLINES.append(None if seconds is None else time.monotonic() + seconds)
    try:
        yield
    finally:
        _DEADLINES.pop()


def time_left_ms() -> int:
    """The milliseconds one call into Z3 may take: :data:`TIMEOUT_MS`, or less when the deadline is sooner;
    :class:`Unknown` when it has passed."""
    deadline = min((d for d in _DEADLINES if d is not None), default=None)
    if deadline is None:
        return TIMEOUT_MS
    left = int((deadline - time.monotonic()) * 1000)
    if left <= 0:
        raise Unknown(OUT_OF_TIME)
    return min(TIMEOUT_MS, left)


def _time_text(ms: int) -> str:
    return OUT_OF_TIME if ms < TIMEOUT_MS else f"Z3's time limit ({TIMEOUT_MS:,} ms) ran out"


def simplify(term, **options):
    """``z3.simplify`` within :data:`MAX_STEPS` rewriting steps and the time left (:func:`time_left_ms`):
    :class:`Unknown` when either runs out (a simplification cut short is never used)."""
    ms = time_left_ms()
    start = time.monotonic()
    try:
        out = z3.simplify(term, max_steps=MAX_STEPS, timeout=ms, **options)
    except z3.Z3Exception as exc:
        if "max. steps" in str(exc):
            raise Unknown(f"Z3's simplifier ran out of its {MAX_STEPS:,} steps") from None
        raise
    if (time.monotonic() - start) * 1000 >= ms - 1:
        raise Unknown(_time_text(ms))
    return out


def _bounded(*terms) -> None:
    """:class:`Outside` when the terms, written out together, would be longer than :data:`MAX_TERM`."""
    if sum(len(t) for t in terms if t is not None) > MAX_TERM:
        raise Outside(f"a term too large to write out (over {MAX_TERM:,} characters)")


def cancel_inverses(term, inverses: dict):
    """A sum of monomials (Z3's ``som`` form) with each monomial's factors ``x·r`` cancelled, where ``r`` is the
    reciprocal constant of ``x``: sound where the claim is defined (``x ≠ 0``, so ``x·r = 1``).

    Applied to the arguments of σ, it makes ``σ(α a · b/α)`` and ``σ(a b)`` the same term. Only the top two
    levels (sum, product) are looked at: nested applications were normalised when they were built.
    ``inverses`` maps the name of ``r`` to that of ``x``. The walk reads Z3's terms through its C API: wrapping
    every subterm as a Python object cost more than the solving.
    """
    if not inverses:
        return term
    ctx = term.ctx
    c = ctx.ref()
    monomials = _args(c, term.as_ast()) if _op(c, term.as_ast()) == z3.Z3_OP_ADD else [term.as_ast()]
    changed = False
    out = []
    for m in monomials:
        if _op(c, m) == z3.Z3_OP_MUL:
            factors = [g for f in _args(c, m) for g in (_args(c, f) if _op(c, f) == z3.Z3_OP_MUL else [f])]
            kept = _cancel(c, factors, inverses)
            if len(kept) != len(factors):
                changed = True
                kept = [_expr(f, ctx) for f in kept]
                out.append(kept[0] if len(kept) == 1 else z3.Product(*kept) if kept else z3.RealVal(1, ctx))
                continue
        out.append(m)
    if not changed:
        return term
    out = [x if isinstance(x, z3.ExprRef) else _expr(x, ctx) for x in out]
    return out[0] if len(out) == 1 else z3.Sum(*out)


def _op(c, ast):
    """The operator of a raw application (``None`` for anything else)."""
    if z3.Z3_get_ast_kind(c, ast) != z3.Z3_APP_AST:
        return None
    return z3.Z3_get_decl_kind(c, z3.Z3_get_app_decl(c, ast))


def _args(c, ast) -> list:
    return [z3.Z3_get_app_arg(c, ast, i) for i in range(z3.Z3_get_app_num_args(c, ast))]


def _name(c, ast):
    """The name of a raw constant (an uninterpreted function of no arguments), else ``None``."""
    if _op(c, ast) != z3.Z3_OP_UNINTERPRETED or z3.Z3_get_app_num_args(c, ast):
        return None
    return z3.Z3_get_symbol_string(c, z3.Z3_get_decl_name(c, z3.Z3_get_app_decl(c, ast)))


def _cancel(c, factors, inverses):
    names = [_name(c, f) for f in factors]
    gone = set()
    for pos, n in enumerate(names):
        x = inverses.get(n)
        if x is None:
            continue
        for q, m in enumerate(names):
            if q not in gone and m == x:
                gone |= {pos, q}
                break
    return [f for p, f in enumerate(factors) if p not in gone]


def cancel_in_formula(formula, inverses: dict):
    """:func:`cancel_inverses` on every arithmetic term at the top of ``formula``'s atoms (through and, or, not,
    comparisons and if-then-else), where Z3's ``som`` form leaves products ``x·r`` of a symbol and its reciprocal."""
    if not inverses:
        return formula

    def walk(f):
        if z3.is_quantifier(f) or not z3.is_app(f) or f.num_args() == 0:
            return f
        if z3.is_arith(f):
            return cancel_inverses(f, inverses)
        kids = [walk(c) for c in f.children()]
        return f.decl()(*kids) if f.decl().kind() != z3.Z3_OP_UNINTERPRETED else f

    return walk(formula)


def _rational(value) -> str:
    p, q = int(value.p), int(value.q)
    num = f"{abs(p)}.0" if p >= 0 else f"(- {abs(p)}.0)"
    return num if q == 1 else f"(/ {num} {q}.0)"


def _quote(name: str) -> str:
    return "|" + name.replace("|", "¦").replace("\\", "⧵") + "|"


@functools.lru_cache(maxsize=256)
def _implied(facts: tuple) -> dict:
    """Every fact SymPy derives from the modelled ones alone (to tell a modelled symbol from one assumed more)."""
    return sp.Symbol("_probe", **dict(facts)).assumptions0


def _domain_facts(symbol) -> dict:
    """The modelled facts of ``symbol``; :class:`Outside` when it is assumed anything they do not imply."""
    facts = symbol.assumptions0
    modelled = tuple(sorted((k, v) for k, v in facts.items() if k in MODELLED and v is not None))
    implied = _implied(modelled)
    for key, value in sorted(facts.items()):
        if implied.get(key) != value:
            raise Outside(f"a symbol assumed {'' if value else 'not '}{key} ({symbol})")
    return dict(modelled)


def _function_facts(e) -> dict:
    """The modelled facts of ``e``, an application of an undefined function (its class's assumptions, as SymPy
    derives them); :class:`Outside` when it is assumed anything they do not imply (``prime``, ``even`` …)."""
    facts = {k: getattr(e, "is_" + k) for k in sorted(_assume_defined)}
    modelled = tuple(sorted((k, v) for k, v in facts.items() if k in MODELLED and v is not None))
    implied = _implied(modelled)
    for key, value in facts.items():
        if value is not None and implied.get(key) != value:
            raise Outside(f"a function assumed {'' if value else 'not '}{key} ({e.func})")
    return dict(modelled)


@functools.lru_cache(maxsize=1024)
def _scan(e) -> tuple:
    """One walk over ``e``: whether anything is complex, and its size symbols (cached: asked once per query)."""
    complex_, found = False, set()
    for node in sp.preorder_traversal(e):
        if isinstance(node, sp.MatrixSymbol):
            complex_ = True
        elif isinstance(node, sp.Symbol) and node.is_real is not True:
            complex_ = True
        elif isinstance(node, AppliedUndef) and node.is_real is not True:
            complex_ = True
        if isinstance(node, MatrixExpr) and not isinstance(node, sp.MatrixBase):
            for dim in node.shape:
                found |= sp.sympify(dim).free_symbols
        elif isinstance(node, sp.Sum):
            bound = set(node.variables)
            for lim in node.limits:
                for b in lim[1:]:  # a size is an integer: a real limit stays a symbol (a sum of symbolic size)
                    found |= {s for s in b.free_symbols - bound if s.is_integer}
    return complex_, frozenset(found)


def _scans(exprs):
    for e in exprs:
        if not isinstance(e, sp.Basic):
            continue
        if isinstance(e, sp.MatrixBase) and not isinstance(e, sp.ImmutableMatrix):
            e = sp.ImmutableMatrix(e)
        yield _scan(e)


def complex_inputs(*exprs) -> bool:
    """Whether anything in ``exprs`` is complex: a symbol not known real, a matrix symbol, a σ not declared real."""
    return any(c for c, _ in _scans(exprs))


#: hyperbolic functions as the real functions of exp they are, for an engine that reads exp natively (cvc5)
_BY_EXP = {
    "tanh": lambda x: 1 - 2 / (sp.exp(2 * x, evaluate=False) + 1),
    "sinh": lambda x: (sp.exp(x, evaluate=False) - sp.exp(-x, evaluate=False)) / 2,
    "cosh": lambda x: (sp.exp(x, evaluate=False) + sp.exp(-x, evaluate=False)) / 2,
}

#: derive's matrix forms whose entry ``(i, j)`` is a finite sum written in their own terms (they are read at concrete
#: sizes entry by entry; named here, not imported, so that the second opinion knows nothing of the layers above)
_ENTRYWISE = frozenset({"UnitSum", "IndexSum"})


def size_symbols(*exprs) -> list:
    """The symbols that fix a shape or a summation range (``d, m, n`` of matrix symbols), sorted by name."""
    found = set()
    for _, f in _scans(exprs):
        found |= f
    return sorted(found, key=lambda s: s.name)


def _add(values):
    res = [v[0] for v in values if v[0] != ZERO]
    ims = [v[1] for v in values if v[1] is not None]
    _bounded(*res, *ims)
    re = ZERO if not res else res[0] if len(res) == 1 else "(+ " + " ".join(res) + ")"
    im = None if not ims else ims[0] if len(ims) == 1 else "(+ " + " ".join(ims) + ")"
    return (re, im)


def _times(*xs):
    return xs[0] if len(xs) == 1 else "(* " + " ".join(xs) + ")"


def _mul(values):
    if all(v[1] is None for v in values):
        _bounded(*[v[0] for v in values])
        return (_times(*[v[0] for v in values]), None)
    re, im = values[0]
    for vr, vi in values[1:]:
        _bounded(re, im, re, im, vr, vr, vi, vi)  # each part of a complex product is written twice
        if im is None and vi is None:
            re = _times(re, vr)
        elif vi is None:
            re, im = _times(re, vr), _times(im, vr)
        elif im is None:
            re, im = _times(re, vr), _times(re, vi)
        else:
            re, im = f"(- {_times(re, vr)} {_times(im, vi)})", f"(+ {_times(re, vi)} {_times(im, vr)})"
    return (re, im)


def _neg(x):
    return f"(- {x})"


def _det(rows):
    """``det`` of a square matrix of ``(re, im)`` entries, by expansion along the first row (1 for the 0×0 one)."""
    if not rows:
        return (ONE, None)
    if len(rows) == 1:
        return rows[0][0]
    terms = []
    for j, entry in enumerate(rows[0]):
        minor = [row[:j] + row[j + 1:] for row in rows[1:]]
        sign = [] if j % 2 == 0 else [("(- 1.0)", None)]
        terms.append(_mul([*sign, entry, _det(minor)]))
    return _add(terms)


class Translator:
    """One translation context: the constants of the symbols, their domains, and the definedness conditions.

    Values are pairs ``(re, im)`` of SMT-LIB terms; ``im`` is ``None`` for a real value. ``sizes`` maps size
    symbols to integers (for matrix symbols of symbolic size); :meth:`bind` maps symbols to SymPy values and
    undefined functions to ``Lambda`` objects, translated in place of the symbol (a witness, an instance).
    ``abstract`` reads transcendental functions as uninterpreted ones: ``unsat`` is then still a proof, but a
    model is no counterexample. Translators made with ``share=`` declare into the same script, with the same σ.
    """

    def __init__(self, *, complex_mode: bool = False, sizes=None, prefix: str = "", abstract: bool = False,
                 share: "Translator | None" = None, defer: bool = False, native: dict | None = None):
        self.complex_mode = complex_mode
        if share is not None:  # one script: the same reading of transcendental functions
            abstract, native = share.abstract, share.native
        #: transcendental functions written as SMT-LIB's own (SymPy's name -> SMT-LIB's), π as ``real.pi``:
        #: for an engine that reads them (cvc5), never parsed by Z3
        self.native = dict(native or {})
        self.exp_args: list = share.exp_args if share else []  # the arguments exp is applied to (natively)
        defer = defer and not self.native
        self.sizes = {k: sp.Integer(v) for k, v in (sizes or {}).items()}
        self.prefix = prefix
        self.abstract = abstract
        self.domain: list = []   # the symbols' facts
        self.side: list = []     # definitions of fresh constants (roots, reciprocals): always satisfiable
        self.defined: list = []  # where the expression is defined (each reciprocal's base is nonzero)
        self.created: list = []  # every fresh constant, in order (to quantify over them)
        self.bound_facts: list = []  # a bound function's assumptions, at the values it is applied to
        self.inverses: dict = share.inverses if share else {}  # name of a reciprocal -> name of its symbol
        self.abstracted: set = set()  # the transcendental functions read as uninterpreted
        self._trig: dict = {}  # argument -> its sine and cosine, read as uninterpreted (their squares add up to 1)
        self._decls: dict = share._decls if share else {}  # name -> SMT-LIB declaration
        self._ufs: dict = share._ufs if share else {}
        self._count = share._count if share else itertools.count()
        self._vars: dict = {}
        self._bound: dict = {}
        self._indices: dict = {}
        self._functions: dict = {}
        self._cache: dict = {}
        self._branch = 0
        self.defer = defer  # σ(…) as a placeholder, built by ``parse`` with its arguments normalised
        self._apps: list = []
        self._app_of: dict = {}
        #: the ground facts its queries were asked under, as parsed: ``(texts, formulas)`` (read by the review's
        #: check that a confirmation's facts can hold, before it parses them again)
        self.asked: list = []

    # -- the script ----------------------------------------------------------------------------------------
    def lemmas(self) -> list:
        """Facts of the real exp at the arguments it is applied to (ground, outside quantifiers): it is strictly
        increasing, so ``exp a = exp b`` only where ``a = b``. True of exp for all values of the constants in them
        (whatever they stand for), they only help an engine find a proof."""
        ground = sorted(set(self.exp_args))
        return [f"(=> (= (exp {a}) (exp {b})) (= {a} {b}))" for a, b in itertools.combinations(ground, 2)][:200]

    def script(self, formulas) -> str:
        """The declarations and assertions of SMT-LIB ``formulas`` (text) as one script body, with
        :meth:`lemmas`."""
        return "\n".join(self._decls.values()) + "\n" + "\n".join(
            f"(assert {f})" for f in [*formulas, *self.lemmas()])

    def parse(self, formulas) -> list:
        """The Z3 formulas of SMT-LIB ``formulas`` (text), with every constant and function declared.

        With ``defer``, each application of an uninterpreted function was written as a placeholder: it is built
        here on its arguments in Z3's sum-of-monomials form, where a symbol times its reciprocal cancels (sound
        where the claim is defined), so that ``σ(α a · b/α)`` and ``σ(a b)`` are the same term.
        """
        if not formulas:
            return []
        args = [a for _, _, app_args in self._apps for a in app_args]
        text = "\n".join(self._decls.values()) + "\n" + "\n".join(
            f"(assert {f})" for f in [*formulas, *(f"(= {a} 0.0)" for a in args)])
        time_left_ms()  # nothing more is asked of Z3 once the time is up
        parsed = list(z3.parse_smt2_string(text))
        out, arg_terms = parsed[:len(formulas)], [e.arg(0) for e in parsed[len(formulas):]]
        if not self._apps:
            return out
        pairs, k = [], 0
        for placeholders, decls, app_args in self._apps:
            terms = arg_terms[k:k + len(app_args)]
            k += len(app_args)
            if pairs:
                terms = [z3.substitute(a, *pairs) for a in terms]
            terms = [simplify(a, som=True) for a in terms]
            if self.inverses:
                terms = [simplify(cancel_inverses(a, self.inverses), som=True) for a in terms]
            for placeholder, decl in zip(placeholders, decls):
                if placeholder is not None:
                    pairs.append((z3.Real(placeholder.strip("|")), decl(*terms)))
        return [z3.substitute(f, *pairs) for f in out]

    def _named(self, pair):
        """A long entry of a matrix product as a named definition, so the script states it once (``defer`` only:
        a definition outside a quantifier must not mention its bound variables)."""
        if not self.defer:
            return pair
        out = []
        for term in pair:
            if term is not None and len(term) > 80:
                name = _quote(f"{self.prefix}def#{next(self._count)}")
                self._decls[name] = f"(define-fun {name} () Real {term})"
                term = name
            out.append(term)
        return tuple(out)

    def fresh(self, name: str) -> str:
        quoted = _quote(f"{self.prefix}{name}#{next(self._count)}")
        self._decls[quoted] = f"(declare-const {quoted} Real)"
        self.created.append(quoted)
        return quoted

    # -- bindings ------------------------------------------------------------------------------------------
    def bind(self, mapping: dict) -> None:
        """Translate each key (a symbol, or an undefined function class) as its value from now on."""
        for key, value in mapping.items():
            if isinstance(key, sp.Symbol):
                self._bound[key] = self.value(sp.sympify(value))
            elif isinstance(value, sp.Lambda):
                self._functions[key] = value
            else:
                raise Outside(f"a substitution of {key} by {type(value).__name__}")
        self._cache = {}

    def unbind(self) -> None:
        self._bound, self._functions, self._cache = {}, {}, {}

    # -- scalars -------------------------------------------------------------------------------------------
    def scalar(self, expr):
        """``(re, im)`` of a scalar SymPy expression."""
        return self.value(expr)

    def real(self, expr) -> str:
        """The term of a scalar that must be real (an argument of ``Max``, a comparison …)."""
        re, im = self.value(expr)
        if im is not None:
            raise Outside(f"a comparison or max/min of a complex quantity ({sp.sstr(expr)[:40]})")
        return re

    def value(self, e):
        hit = self._cache.get(e)
        if hit is None:
            hit = self._value(e)
            self._cache[e] = hit
        return hit

    def _symbol(self, s):
        if s in self._bound:
            return self._bound[s]
        if s in self._indices:
            return (f"{self._indices[s]}.0" if self._indices[s] >= 0 else f"(- {-self._indices[s]}.0)", None)
        if s in self.sizes:
            return (_rational(self.sizes[s]), None)
        hit = self._vars.get(s)
        if hit is not None:
            return hit
        if s.is_real is True:
            facts = _domain_facts(s)
            v = (self.fresh(s.name), None)
            self.domain += self._facts(v[0], facts)
        elif s.is_real is False:
            raise Outside(f"a symbol known not to be real ({s})")
        else:  # (a complex symbol assumed more than its modelled facts is outside)
            facts = _domain_facts(s)
            v = (self.fresh(s.name + ".re"), self.fresh(s.name + ".im"))
            self.domain += self._value_facts(v, facts)  # zero=False: not both parts 0
        self._vars[s] = v
        return v

    @staticmethod
    def _facts(x, facts) -> list:
        out = []
        if facts.get("integer"):
            out.append(f"(is_int {x})")
        for key, test in (("positive", f"(> {x} 0.0)"), ("negative", f"(< {x} 0.0)"),
                          ("nonnegative", f"(>= {x} 0.0)"), ("nonpositive", f"(<= {x} 0.0)"),
                          ("nonzero", f"(not (= {x} 0.0))"), ("zero", f"(= {x} 0.0)")):
            if key in facts:
                out.append(test if facts[key] else f"(not {test})")
        if facts.get("integer") is False:
            out.append(f"(not (is_int {x}))")
        return out

    @classmethod
    def _value_facts(cls, value, facts) -> list:
        """The facts stated of a value ``(re, im)``: of a complex one, each holds when it is real and its real
        part has it (``zero``: both parts are zero; ``real``: its imaginary part is)."""
        re, im = value
        if im is None:
            return cls._facts(re, facts)
        out = []
        for key, holds in sorted(facts.items()):
            if key == "real":
                test = f"(= {im} 0.0)"
            elif key == "zero":
                test = f"(and (= {re} 0.0) (= {im} 0.0))"
            else:
                test = f"(and (= {im} 0.0) {cls._facts(re, {key: True})[0]})"
            out.append(test if holds else f"(not {test})")
        return out

    def domain_of(self, symbol, value) -> list:
        """The domain constraints of ``symbol`` stated for the term ``value`` (a witness respects them)."""
        if symbol.is_real is not True:
            return []
        return self._facts(value, _domain_facts(symbol))

    def _value(self, e):
        if e.is_Symbol:
            return self._symbol(e)
        if e.is_Number:
            if isinstance(e, (sp.Integer, sp.Rational)):
                return (_rational(e), None)
            raise Outside(f"a non-rational number ({sp.sstr(e)[:30]})")  # Float, oo, nan, zoo
        if e is sp.I:
            return (ZERO, ONE)
        if isinstance(e, sp.NumberSymbol):
            if self.native and e is sp.pi:
                return ("real.pi", None)
            if self.native and e is sp.E and "exp" in self.native:
                return (f"({self.native['exp']} 1.0)", None)
            if self.abstract:
                self.abstracted.add(str(e))
                return self._constant(e)
            raise Outside(f"the constant {e}")
        if isinstance(e, sp.Add):
            return _add([self.value(a) for a in e.args])
        if isinstance(e, sp.Mul):
            return _mul([self.value(a) for a in e.args])
        if isinstance(e, sp.Pow):
            return self._pow(e)
        if isinstance(e, (sp.Max, sp.Min)):
            args = [self.real(a) for a in e.args]
            out = args[0]
            op = ">=" if isinstance(e, sp.Max) else "<="
            for a in args[1:]:
                out = f"(ite ({op} {a} {out}) {a} {out})"
            return (out, None)
        if isinstance(e, sp.Abs):
            x = self.real(e.args[0])
            return (f"(ite (>= {x} 0.0) {x} (- {x}))", None)
        if isinstance(e, sp.sign):
            x = self.real(e.args[0])
            return (f"(ite (> {x} 0.0) 1.0 (ite (< {x} 0.0) (- 1.0) 0.0))", None)
        if isinstance(e, sp.Heaviside):
            x = self.real(e.args[0])
            at_zero = self.real(e.args[1]) if len(e.args) > 1 else "(/ 1.0 2.0)"
            return (f"(ite (> {x} 0.0) 1.0 (ite (< {x} 0.0) 0.0 {at_zero}))", None)
        if isinstance(e, sp.Piecewise):
            return self._piecewise(e)
        if isinstance(e, sp.KroneckerDelta):  # 1 where its two (real) arguments are equal, else 0
            a, b = (self.real(x) for x in e.args)
            return (f"(ite (= {a} {b}) 1.0 0.0)", None)
        if isinstance(e, AppliedUndef):
            return self._undefined(e)
        if isinstance(e, sp.Sum):
            return self._sum(e)
        if isinstance(e, MatrixElement):
            return self._element(e)
        if isinstance(e, (MatrixExpr, sp.MatrixBase)):
            raise Outside("a matrix where a scalar was expected")
        name = getattr(e.func, "__name__", type(e).__name__)
        if name in TRANSCENDENTAL:
            if name in _BY_EXP and "exp" in self.native and name not in self.native and len(e.args) == 1:
                return self.value(_BY_EXP[name](e.args[0]))  # written through exp, which the engine reads
            if name in self.native and isinstance(e, sp.Function) and len(e.args) == 1:
                x = self.real(e.args[0])
                if name == "exp":
                    self.exp_args.append(x)
                return (f"({self.native[name]} {x})", None)
            if self.abstract and isinstance(e, sp.Function):
                self.abstracted.add(name)
                out = self._applied(e)
                self._known_of(name, e, out)
                return out
            raise Outside(f"a transcendental function ({name})")
        raise Outside(f"the function {name}" if isinstance(e, sp.Function) else f"a {type(e).__name__} node")

    def _pow(self, e):
        base, exp = e.args
        if not exp.is_Number or isinstance(exp, sp.Float):
            raise Outside(f"a power with exponent {sp.sstr(exp)[:30]}")
        if isinstance(exp, sp.Integer):
            n = int(exp)
            if abs(n) > MAX_POWER:
                raise Outside(f"a power with exponent {n}, too large to write out")
            if n == 0:
                return (ONE, None)
            v = self.value(base) if n > 0 else self._reciprocal(base)
            _bounded(*[part for part in v for _ in range(abs(n))])
            return _mul([v] * abs(n))
        if isinstance(exp, sp.Rational) and exp.q == 2 and base.is_Rational and base > 0:
            y = self.fresh(f"sqrt{base}")
            self.side += [f"(> {y} 0.0)", f"(= (* {y} {y}) {_rational(base)})"]
            if exp.p > 0:
                return _mul([(y, None)] * int(exp.p))
            return _mul([self._reciprocal_of((y, None))] * -int(exp.p))
        raise Outside(f"a power with exponent {exp}")

    def _reciprocal(self, base):
        key = ("1/", base)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._reciprocal_of(self.value(base))
            self._cache[key] = hit
        return hit

    def _reciprocal_of(self, v):
        re, im = v
        if im is not None:
            raise Outside("a division by a complex quantity")
        if "|" not in re:  # a ground term (a witness's value): Z3 evaluates the division exactly
            self.defined.append(f"(not (= {re} 0.0))")
            return (f"(/ 1.0 {re})", None)
        if self._branch:
            raise Outside("a division inside a Piecewise branch")
        r = self.fresh("recip")
        self.side.append(f"(=> (not (= {re} 0.0)) (= (* {re} {r}) 1.0))")
        self.defined.append(f"(not (= {re} 0.0))")
        if re in self._decls:  # the reciprocal of a symbol's constant: cancelled against it in products
            self.inverses[r.strip("|")] = re.strip("|")
        return (r, None)

    def _piecewise(self, e):
        pieces = list(e.args)
        if pieces[-1][1] is not sp.true:
            raise Outside("a Piecewise undefined where none of its conditions holds")
        self._branch += 1
        try:
            re, im = self.value(pieces[-1][0])
            for expr, cond in reversed(pieces[:-1]):
                c = self.boolean(cond)
                vr, vi = self.value(expr)
                if vi is not None or im is not None:
                    vi, im = vi or ZERO, im or ZERO
                    im = f"(ite {c} {vi} {im})"
                re = f"(ite {c} {vr} {re})"
            return (re, im)
        finally:
            self._branch -= 1

    def boolean(self, c) -> str:
        """The SMT-LIB formula of a SymPy condition (comparisons of real quantities, and, or, not)."""
        if c is sp.true:
            return "true"
        if c is sp.false:
            return "false"
        if isinstance(c, (sp.Eq, sp.Ne)):
            (lr, li), (rr, ri) = self.value(c.lhs), self.value(c.rhs)
            same = f"(= {lr} {rr})"
            if li is not None or ri is not None:
                same = f"(and {same} (= {li or ZERO} {ri or ZERO}))"
            return same if isinstance(c, sp.Eq) else f"(not {same})"
        if isinstance(c, sp.core.relational.Relational):
            ops = {sp.StrictLessThan: "<", sp.LessThan: "<=", sp.StrictGreaterThan: ">", sp.GreaterThan: ">="}
            if type(c) not in ops:
                raise Outside(f"the relation {type(c).__name__}")
            return f"({ops[type(c)]} {self.real(c.lhs)} {self.real(c.rhs)})"
        if isinstance(c, (sp.And, sp.Or)):
            op = "and" if isinstance(c, sp.And) else "or"
            return f"({op} " + " ".join(self.boolean(a) for a in c.args) + ")"
        if isinstance(c, sp.Not):
            return f"(not {self.boolean(c.args[0])})"
        if isinstance(c, sp.Implies):
            return f"(=> {self.boolean(c.args[0])} {self.boolean(c.args[1])})"
        if isinstance(c, sp.assumptions.AppliedPredicate) and c.function == sp.Q.invertible:
            return self.nonzero_det(c.arguments[0])
        raise Outside(f"the condition {type(c).__name__}")

    def _constant(self, e):
        hit = self._ufs.get(("constant", e))
        if hit is None:
            hit = (self.fresh(str(e)), None)
            self.domain.append(f"(> {hit[0]} 0.0)")  # π and e are positive: all the abstraction keeps of them
            self._ufs[("constant", e)] = hit
        return hit

    def _function(self, key, name, arity, real_valued):
        ufs = self._ufs.get(key)
        if ufs is None:
            base = _quote(f"{self.prefix}{name}#{len(self._ufs)}")
            sig = "(" + " ".join(["Real"] * arity) + ") Real"
            ufs = (base, None if real_valued else base[:-1] + ".im|")
            for f in ufs:
                if f is not None:
                    self._decls[f] = f"(declare-fun {f} {sig})"
            self._ufs[key] = ufs
        return ufs

    def _undefined(self, e):
        """An application of an undefined function, with its assumptions: stated as facts of the application, or,
        when the function is bound (a witness's ``Lambda``), kept in :attr:`bound_facts` for the witness to meet."""
        facts = _function_facts(e)
        value = self._applied(e)
        if facts:
            (self.bound_facts if e.func in self._functions else self.domain).extend(self._value_facts(value, facts))
        return value

    def _known_of(self, name: str, e, out) -> None:
        """What is true of the real function ``name`` at ``e``'s argument, kept beside its uninterpreted reading
        (a true fact added, so ``unsat`` is still a proof): exp is positive; sine and cosine lie in [-1, 1], and
        where both are applied to one argument their squares add up to 1."""
        if self.complex_mode or out[1] is not None or len(e.args) != 1 or e.is_real is not True:
            return
        if name == "exp":
            self.side.append(f"(> {out[0]} 0.0)")
        elif name in ("sin", "cos"):
            self.side.append(f"(<= -1.0 {out[0]} 1.0)")
            pair = self._trig.setdefault(e.args[0], {})
            pair[name] = out[0]
            if len(pair) == 2 and not pair.get("both"):
                pair["both"] = True
                self.side.append(f"(= (+ (* {pair['sin']} {pair['sin']}) (* {pair['cos']} {pair['cos']})) 1.0)")

    def _applied(self, e):
        f = e.func
        if f in self._functions:
            return self.apply(self._functions[f], list(e.args))
        flat = []
        for re, im in (self.value(a) for a in e.args):
            if self.complex_mode:
                flat += [re, im or ZERO]
            elif im is not None:
                raise Outside(f"{f.__name__} of a complex argument")
            else:
                flat.append(re)
        ufs = self._function((f, len(flat)), f.__name__, len(flat), e.is_real is True)
        if self.defer:
            key = (ufs, tuple(flat))
            hit = self._app_of.get(key)
            if hit is None:
                hit = (self.fresh("app"), None if ufs[1] is None else self.fresh("app.im"))
                sig = [z3.RealSort()] * (len(flat) + 1)
                decls = [None if u is None else z3.Function(u.strip("|"), *sig) for u in ufs]
                self._apps.append((hit, decls, flat))
                self._app_of[key] = hit
            return hit
        args = " ".join(flat)
        return (f"({ufs[0]} {args})", None if ufs[1] is None else f"({ufs[1]} {args})")

    def apply(self, lam, args):
        """A ``Lambda`` applied to arguments (SymPy, or translated pairs): its body with its variables bound."""
        if not isinstance(lam, sp.Lambda):
            raise Outside(f"an elementwise {type(lam).__name__}")
        values = [a if isinstance(a, tuple) else self.value(a) for a in args]
        if len(values) != len(lam.variables):
            raise Outside("a function applied to the wrong number of arguments")
        saved, indices, cache, trig = dict(self._bound), dict(self._indices), self._cache, self._trig
        self._bound.update(zip(lam.variables, values))
        for v in lam.variables:  # its variable, not a sum's index of the same name around it
            self._indices.pop(v, None)
        self._cache, self._trig = {}, {}
        try:
            return self.value(lam.expr)
        finally:
            self._bound, self._indices, self._cache, self._trig = saved, indices, cache, trig

    def _size(self, expr) -> int:
        n = sp.sympify(expr).xreplace(self.sizes).xreplace({k: sp.Integer(v) for k, v in self._indices.items()})
        if not n.is_Integer:
            raise Outside(f"a matrix or sum of symbolic size {sp.sstr(expr)}")
        return int(n)

    def _sum(self, e):
        return self._sum_over(e.function, list(e.limits))

    def _sum_over(self, body, limits):
        """``Σ body`` over ``limits``, the first innermost (SymPy's order), written out term by term; a range with
        ``hi < lo - 1`` by Karr's convention, ``-Σ_{hi+1}^{lo-1}``, as SymPy and the kernel read it."""
        if not limits:
            return self.value(body)
        var, lo, hi = limits[-1]
        lo, hi = self._size(lo), self._size(hi)
        sign = 1
        if hi < lo - 1:
            lo, hi, sign = hi + 1, lo - 1, -1
        if hi - lo + 1 > MAX_SUM:
            raise Outside(f"a sum of {hi - lo + 1:,} terms, too many to write out (at most {MAX_SUM:,})")
        parts = []
        for k in range(lo, hi + 1):
            saved, bound, cache, trig = dict(self._indices), dict(self._bound), self._cache, self._trig
            self._indices[var] = k
            self._bound.pop(var, None)  # the index, not a value given to a symbol of its name outside the sum
            self._cache, self._trig = {}, {}
            try:
                parts.append(self._sum_over(body, limits[:-1]))
            finally:
                self._indices, self._bound, self._cache, self._trig = saved, bound, cache, trig
        total = _add(parts) if parts else (ZERO, None)
        return total if sign == 1 else _add([(f"(- {total[0]})", None if total[1] is None else f"(- {total[1]})")])

    def _element(self, e):
        parent, i, j = e.args
        if isinstance(parent, sp.MatrixSymbol):
            return self._entry(parent, self.real(i), self.real(j))
        rows = self.matrix(parent)
        try:
            return rows[self._size(i)][self._size(j)]
        except Outside:
            raise Outside("an entry at a symbolic index of a matrix expression") from None

    def _entry(self, symbol, i, j):
        ufs = self._function(("matrix", symbol), symbol.name, 2, False)  # (two of one name are two matrices)
        return (f"({ufs[0]} {i} {j})", f"({ufs[1]} {i} {j})")

    # -- matrices ------------------------------------------------------------------------------------------
    def matrix(self, M) -> list[list]:
        """The entries (rows of ``(re, im)`` pairs) of an explicit matrix, or of a matrix expression at concrete sizes."""
        if isinstance(M, sp.MatrixBase) and not isinstance(M, sp.ImmutableMatrix):
            M = sp.ImmutableMatrix(M)  # hashable, to be cached
        hit = self._cache.get(("M", M))
        if hit is None:
            hit = self._matrix(M)
            self._cache[("M", M)] = hit
        return hit

    def _matrix(self, M):
        if isinstance(M, sp.MatrixBase):
            return [[self.value(M[i, j]) for j in range(M.cols)] for i in range(M.rows)]
        if 0 in (self._size(M.rows), self._size(M.cols)):  # at a size 0: the one matrix of its shape, no entries
            return [[] for _ in range(self._size(M.rows))]
        if isinstance(M, sp.MatrixSymbol):
            r, c = self._size(M.rows), self._size(M.cols)
            return [[self._entry(M, f"{i}.0", f"{j}.0") for j in range(c)] for i in range(r)]
        if isinstance(M, (sp.Identity, sp.ZeroMatrix, sp.OneMatrix)):
            r, c = self._size(M.rows), self._size(M.cols)
            pick = {sp.Identity: lambda i, j: ONE if i == j else ZERO, sp.ZeroMatrix: lambda i, j: ZERO,
                    sp.OneMatrix: lambda i, j: ONE}[type(M)]
            return [[(pick(i, j), None) for j in range(c)] for i in range(r)]
        if isinstance(M, sp.Transpose):
            return [list(col) for col in zip(*self.matrix(M.args[0]))]
        if isinstance(M, sp.Adjoint):
            return [[(re, None if im is None else _neg(im)) for re, im in col] for col in zip(*self.matrix(M.args[0]))]
        if isinstance(M, (sp.MatAdd, sp.HadamardProduct)):
            parts = [self.matrix(a) for a in M.args]
            if len({(len(p), len(p[0]) if p else 0) for p in parts}) != 1:
                raise Outside("a sum or Hadamard product of matrices of different sizes")
            op = _add if isinstance(M, sp.MatAdd) else _mul
            return [[self._named(op([p[i][j] for p in parts])) for j in range(len(parts[0][0]))]
                    for i in range(len(parts[0]))]
        if isinstance(M, sp.MatMul):
            scalars = [a for a in M.args if not getattr(a, "is_Matrix", False)]
            factor = _mul([self.value(s) for s in scalars]) if scalars else None
            kept = self._cancelled([a for a in M.args if getattr(a, "is_Matrix", False)]) or [sp.Identity(M.rows)]
            out = self.matrix(kept[0])  # (everything cancelled: the identity)
            for B in kept[1:]:
                out = self._product(out, self.matrix(B), self._size(B.cols))
            if factor is not None:
                out = [[self._named(_mul([factor, x])) for x in row] for row in out]
            return out
        if isinstance(M, ElementwiseApplyFunction):
            return [[self.apply(M.function, [x]) for x in row] for row in self.matrix(M.expr)]
        if isinstance(M, sp.Inverse):
            return self._inverse(M.arg)
        if isinstance(M, sp.MatPow) and M.exp.is_Integer:
            if abs(int(M.exp)) > MAX_POWER:
                raise Outside(f"a matrix power with exponent {M.exp}")
            if M.exp == 0:  # X⁰ = I, where X is defined
                k = len(self.matrix(M.base))
                return self.matrix(sp.Identity(k))
            base = self.matrix(M.base) if M.exp > 0 else self._inverse(M.base)
            out = base
            for _ in range(abs(int(M.exp)) - 1):
                out = self._product(out, base)
            return out
        if isinstance(M, sp.FunctionMatrix):  # entry (i, j) is its Lambda at (i, j)
            rows, cols = self._size(M.rows), self._size(M.cols)
            return [[self.value(sp.sympify(M.lamda(sp.Integer(i), sp.Integer(j)))) for j in range(cols)]
                    for i in range(rows)]
        if type(M).__name__ in _ENTRYWISE:  # a form of derive's (a sum over the units, a sum of matrices over an
            rows, cols = self._size(M.rows), self._size(M.cols)  # index): its entries as it defines them
            return [[self.value(sp.sympify(M._entry(i, j))) for j in range(cols)] for i in range(rows)]
        raise Outside(f"the matrix operation {type(M).__name__}")

    def _product(self, A, B, cols=None) -> list:
        """The entries of the product of two matrices given by their entries (``cols``: those of ``B``, which its
        entries do not tell when it has no rows; the product over an empty inner size is the zero matrix)."""
        if len(A[0]) != len(B):
            raise Outside("a product of matrices of mismatched sizes")
        cols = len(B[0]) if B else cols
        return [[self._named(_add([_mul([row[k], B[k][j]]) for k in range(len(B))])) for j in range(cols)]
                for row in A]

    def _cancelled(self, factors) -> list:
        """The factors of a product with each ``X X⁻¹`` and ``X⁻¹ X`` next to each other taken out, the claim then
        read where ``det X ≠ 0`` (as a reciprocal cancels against its symbol)."""
        kept: list = []
        for f in factors:
            if kept and any(isinstance(u, sp.Inverse) and u.arg == v for u, v in ((kept[-1], f), (f, kept[-1]))):
                if self._branch:  # its definedness would hold for the whole claim, not only in the branch
                    raise Outside("an inverse inside a Piecewise branch")
                base = f if isinstance(kept[-1], sp.Inverse) else kept[-1]
                self.defined.append(self.nonzero_det(base))
                kept.pop()
            else:
                kept.append(f)
        return kept

    def _inverse(self, A):
        """The inverse of a square matrix as fresh entries ``N`` with ``A N = N A = I`` where ``det A ≠ 0`` (the
        claim is read where it is defined, as a reciprocal is)."""
        rows = self.matrix(A)
        k = len(rows)
        if k > MAX_INVERSE or any(len(row) != k for row in rows):
            raise Outside(f"the inverse of a {k}×{len(rows[0]) if rows else 0} matrix")
        if self._branch:
            raise Outside("an inverse inside a Piecewise branch")
        det = self.nonzero_det(A)
        complex_ = any(x[1] is not None for row in rows for x in row)
        entries = [[(self.fresh("inv"), self.fresh("inv") if complex_ else None) for _ in range(k)] for _ in range(k)]
        eqs = []
        for left, right in ((rows, entries), (entries, rows)):  # A N = I and N A = I
            for i in range(k):
                for j in range(k):
                    re, im = _add([_mul([left[i][q], right[q][j]]) for q in range(k)])
                    eqs.append(f"(= {re} {ONE if i == j else ZERO})")
                    if im is not None:
                        eqs.append(f"(= {im} 0.0)")
        self.side.append(f"(=> {det} (and {' '.join(eqs)}))")
        self.defined.append(det)
        return entries

    def nonzero_det(self, A) -> str:
        """The formula ``det A ≠ 0`` of a square matrix (expanded along its first row)."""
        rows = self.matrix(A)
        if len(rows) > MAX_INVERSE or any(len(row) != len(rows) for row in rows):
            raise Outside(f"the determinant of a {len(rows)}×{len(rows[0]) if rows else 0} matrix")
        re, im = _det(rows)
        return f"(not (= {re} 0.0))" if im is None else f"(not (and (= {re} 0.0) (= {im} 0.0)))"
