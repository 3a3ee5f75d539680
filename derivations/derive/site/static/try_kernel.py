"""What the try page's Python does, in Pyodide in the reader's browser (also importable in CPython, for tests).

The page hands text from its boxes (or from ``window.derive.prove(...)``) to :func:`answer` and
:func:`classify_answer`, which return JSON: ``{"ok": true, "record": ..., "html": ..., "seconds": ...}``, or
``{"ok": false, "error": "<one line>"}`` for input that cannot be read. Nothing is evaluated: both sides and the
assumptions are read by walking Python's syntax tree (:class:`derive.classifier.parse._Reader`, the parser
``derive classify`` uses), with every name other than a known function or constant a real symbol and
``sigma(...)`` the undefined real activation σ.
"""
from __future__ import annotations

import ast
import itertools
import json
import re
import time

import sympy as sp

import derive
from derive.classifier import parse as _parse
from derive.kernel import budget as _budget
from derive.kernel.display import bundle
from derive.layers.activations import sigma, z

__all__ = ["answer", "classify_answer", "read_expr", "read_assume", "VERBS", "NAME", "BUDGET"]

#: what the page may ask of a claim
VERBS = ("prove", "refute", "decide")
#: a name that becomes a real symbol: a letter, then letters, digits or _, at most 24 characters
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,23}")
#: the budget of one question, in seconds (the notebooks' default)
BUDGET = _budget.DEFAULT_SECONDS
_COUNTER = itertools.count(1)
_SYMBOLS: dict[str, sp.Symbol] = {"z": z}
_COMPARE = {ast.Lt: sp.Lt, ast.LtE: sp.Le, ast.Gt: sp.Gt, ast.GtE: sp.Ge, ast.Eq: sp.Eq, ast.NotEq: sp.Ne}


class _ClaimReader(_parse._Reader):
    """The classifier's reader, with any plain name a real symbol and ``sigma`` the undefined activation."""

    def name(self, node):
        ident = node.id
        if ident in _parse.CONSTANTS:
            return _parse.CONSTANTS[ident]
        if ident in _parse.FUNCTIONS or ident in _parse.VARIADIC or ident in ("sigma", "Piecewise"):
            raise ValueError(f"parse: the function {ident!r} must be called, as in {ident}(x)")
        if not NAME.fullmatch(ident):
            raise ValueError(f"parse: the name {ident!r} is not allowed (a letter, then letters, digits or _)")
        if ident not in _SYMBOLS:
            _SYMBOLS[ident] = sp.Symbol(ident, real=True)
        return _SYMBOLS[ident]

    def call(self, node, depth):
        if isinstance(node.func, ast.Name) and node.func.id == "sigma":
            if node.keywords or len(node.args) != 1 or isinstance(node.args[0], ast.Starred):
                raise ValueError(f"parse: sigma takes 1 argument, as in sigma(a): {self.piece(node)!r}")
            return sigma(self.read(node.args[0], depth + 1))
        return super().call(node, depth)

    def relation(self, node, depth=0):
        """One assumption: a comparison (``a > 0``, ``b != 0``, chains such as ``0 < a < 1``) or Eq/Ne/And/Or."""
        if isinstance(node, ast.Compare):
            if not all(type(op) in _COMPARE for op in node.ops):
                self.fail("comparisons other than < <= > >= == !=", node)
            sides = [self.read(node.left, depth + 1), *(self.read(c, depth + 1) for c in node.comparators)]
            return sp.And(*[_COMPARE[type(op)](l, r) for op, l, r in zip(node.ops, sides, sides[1:])])
        return self.condition(node, depth)


def _tree(text: str, what: str):
    if not isinstance(text, str):
        raise TypeError(f"{what}: expected text, got {type(text).__name__}")
    text = text.strip()
    if len(text) > _parse.MAX_LENGTH:
        raise ValueError(f"{what}: the text is {len(text)} characters long; at most {_parse.MAX_LENGTH} are read")
    if not text:
        return text, None
    try:
        return text, ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise ValueError(f"{what}: not a valid expression ({exc.msg}): {text[:40]!r}") from None
    except (RecursionError, MemoryError):
        raise ValueError(f"{what}: the expression nests too deeply") from None


def read_expr(text: str, what: str = "lhs") -> sp.Expr:
    """One side of a claim, read exactly (decimals become rationals); a one-line ValueError otherwise."""
    text, tree = _tree(text, what)
    if not text:
        raise ValueError(f"{what}: empty; write an expression such as (a + b)**2")
    try:
        return _ClaimReader(text).read(tree)
    except ValueError as exc:
        raise ValueError(f"{what}: {str(exc).removeprefix('parse: ')}") from None


def read_assume(text: str) -> list:
    """The assumptions, comma-separated, in SymPy's spelling: ``a > 0, Ne(b, 0)`` (or ``b != 0``)."""
    text, tree = _tree(text or "", "assume")
    if not text:
        return []
    body = tree.body
    items = body.elts if isinstance(body, ast.Tuple) else [body]
    reader = _ClaimReader(text)
    out = []
    for item in items:
        try:
            rel = reader.relation(item)
        except ValueError as exc:
            raise ValueError(f"assume: {str(exc).removeprefix('parse: ')}") from None
        if rel is sp.true:
            continue
        if rel is sp.false:
            raise ValueError(f"assume: {reader.piece(item)!r} is false")
        out.append(rel)
    return out


def _failure(exc: BaseException) -> str:
    line = (str(exc).strip().splitlines() or [""])[0]
    return f"{type(exc).__name__}: {line}" if line else type(exc).__name__


def _html(obj) -> str:
    data = bundle(obj)[0]
    return data.get("text/html") or f"<pre>{data.get('text/plain', '')}</pre>"


def answer(verb: str, lhs: str, rhs: str, assume: str = "") -> str:
    """``verb`` (prove, refute or decide) the claim ``lhs = rhs`` under ``assume``; JSON (see the module)."""
    start = time.perf_counter()
    try:
        if verb not in VERBS:
            raise ValueError(f"unknown question {verb!r}; ask one of {', '.join(VERBS)}")
        left, right, given = read_expr(lhs, "lhs"), read_expr(rhs, "rhs"), read_assume(assume)
        c = derive.claim(f"try.{next(_COUNTER)}", left, right, assume=given)
        getattr(c, verb)(budget=BUDGET)
    except (ValueError, TypeError) as exc:
        return json.dumps({"ok": False, "error": _failure(exc)})
    record = c.record(timings=True)
    record["interrupts"] = _budget.INTERRUPTS
    return json.dumps({"ok": True, "record": record, "html": _html(c), "seconds": time.perf_counter() - start})


def classify_answer(text: str) -> str:
    """Classify the activation ``text`` (an expression in ``z``, as ``derive classify`` reads it); JSON."""
    start = time.perf_counter()
    try:
        result = derive.classify(text, label=str(text).strip(), budget=BUDGET)
    except (ValueError, TypeError) as exc:
        return json.dumps({"ok": False, "error": _failure(exc).replace("classify: ", "").replace("parse: ", "")})
    record = result.as_dict()
    record["interrupts"] = _budget.INTERRUPTS
    return json.dumps({"ok": True, "record": record, "html": _html(result), "seconds": time.perf_counter() - start})
