"""What the try page's Python does, in Pyodide in the reader's browser (also importable in CPython, for tests).

The page hands text from its boxes (or from ``window.derive.prove(...)``) to :func:`answer` and
:func:`classify_answer`, which return JSON: ``{"ok": true, "record": ..., "html": ..., "seconds": ...}``, or
``{"ok": false, "error": "<one line>"}`` for input that cannot be read. Nothing is evaluated: both sides and the
assumptions are read by walking Python's syntax tree (:class:`derive.classifier.parse._Reader`, the parser
``derive classify`` uses), with every name other than a known function or constant a real symbol and
``sigma(...)`` the undefined real activation σ.

:func:`rerun_start` and :func:`rerun_next` re-run a notebook's code cells (``static/try-notebooks.json``) one at a
time, so that the page can say how far it is; :func:`rerun_record` gives a claim made so far. A cell that needs
numpy, Matplotlib or nbformat (which the page does not have) is passed over, and so is a later cell that fails after
one did: the claims they would make say so.
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
from derive.kernel import registry as _registry
from derive.kernel.display import bundle
from derive.layers.activations import sigma, z

__all__ = ["answer", "classify_answer", "read_expr", "read_assume", "rerun_start", "rerun_next", "rerun_record", "VERBS",
           "NAME", "BUDGET"]

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


#: what the page lacks: a cell that fails importing one of these is passed over
ABSENT = ("numpy", "matplotlib", "nbformat")
_RUN: dict = {}


def _ipython_display() -> None:
    """Where IPython is not installed (the page), a module ``IPython.display`` whose ``display`` shows nothing and
    whose ``Markdown``, ``Math`` and ``HTML`` keep their text: a notebook's imports work, its outputs are not shown."""
    try:
        import IPython.display  # noqa: F401
        return
    except ImportError:
        pass
    import sys
    import types

    class _Text:
        def __init__(self, data=None, *args, **kwargs):
            self.data = data

    package, shown = types.ModuleType("IPython"), types.ModuleType("IPython.display")
    shown.display = lambda *args, **kwargs: None
    shown.Markdown = type("Markdown", (_Text,), {})
    shown.Math = type("Math", (_Text,), {})
    shown.HTML = type("HTML", (_Text,), {})
    package.display, package.get_ipython = shown, lambda: None
    sys.modules.update({"IPython": package, "IPython.display": shown})


def rerun_start(name: str, cells_json: str) -> str:
    """Begin re-running notebook ``name`` (its code cells, a JSON list of sources) in a fresh namespace and
    registry; JSON ``{"ok": true, "cells": n}``."""
    try:
        cells = json.loads(cells_json)
        if not isinstance(cells, list) or not all(isinstance(c, str) for c in cells):
            raise ValueError("rerun: the cells must be a list of sources")
    except ValueError as exc:
        return json.dumps({"ok": False, "error": _failure(exc)})
    _ipython_display()
    _registry.clear()
    _RUN.clear()
    _RUN.update(name=name, cells=cells, next=0, passed={}, errors={},
                namespace={"__name__": "__main__", "display": lambda *args, **kwargs: None})
    return json.dumps({"ok": True, "cells": len(cells)})


def _made() -> dict:
    return {s.identifier: s.verdict.value for s in _registry.statements()}


def rerun_next() -> str:
    """Run the next cell of the notebook begun by :func:`rerun_start`; JSON: the cell's number, how many there are,
    the claims made so far (identifier -> verdict), whether the cell was passed over and why (one line)."""
    if not _RUN:
        return json.dumps({"ok": False, "error": "rerun: no notebook begun"})
    k, cells = _RUN["next"], _RUN["cells"]
    if k >= len(cells):
        return json.dumps({"ok": True, "cell": k, "of": len(cells), "done": True, "made": _made()})
    _RUN["next"] = k + 1
    start = time.perf_counter()
    why = ""
    try:
        exec(compile(cells[k], f"<{_RUN['name']}, cell {k + 1}>", "exec"), _RUN["namespace"])
    except Exception as exc:  # noqa: BLE001 - a notebook's own failure, reported in one line
        missing = exc.name if isinstance(exc, ImportError) else None
        failed = {**_RUN["errors"], **_RUN["passed"]}
        if missing in ABSENT:
            why = f"cell {k + 1} needs {missing}, which this page does not have"
            _RUN["passed"][k] = why
        elif failed:  # likely for want of what an earlier cell would have made
            why = f"cell {k + 1}: {_failure(exc)} (after cell {min(failed) + 1})"
            _RUN["passed"][k] = why
        else:
            why = f"cell {k + 1}: {_failure(exc)}"
            _RUN["errors"][k] = why
    return json.dumps({"ok": True, "cell": k + 1, "of": len(cells), "done": k + 1 >= len(cells), "made": _made(),
                       "passed": bool(why) and k in _RUN["passed"], "error": why if k in _RUN["errors"] else "",
                       "why": why, "seconds": time.perf_counter() - start})


def rerun_record(ident: str) -> str:
    """The record and HTML of claim ``ident`` made by the re-run so far; JSON (``ok`` false if not made)."""
    found = next((s for s in _registry.statements() if s.identifier == ident), None)
    if found is None:
        return json.dumps({"ok": False, "error": f"{ident}: not made by this re-run"})
    return json.dumps({"ok": True, "record": found.record(timings=True), "html": _html(found)})
