"""A statement described in plain words: how its verdict was obtained, and the statement as text.

What ``derive check`` prints, what an ``ExpectationError`` says and what every rendering builds on.
"""
from __future__ import annotations

import re

import sympy as sp

from . import printing
from .notation import text as expr_text
from .verdict import Verdict

__all__ = ["how", "unexpected", "verdict_counts", "shorten", "statement_text"]


_ENTRY = re.compile(r"^(?P<name>[A-Za-z]\w*?)_(?:\{(?P<i>\d+),(?P<j>\d+)\}|(?P<k>\d+))$")


def _witness_text(record: dict) -> str:
    r"""A witness as text: the entries ``K_{i,j}`` of a matrix (and ``x_i`` of a row) that it gives in full are
    written as that matrix (row), as :func:`derive.matrix` and :func:`derive.row` name them; anything else as given.

    >>> _witness_text({"witness": {"K_{1,1}": "2", "K_{1,2}": "-1", "K_{2,1}": "0", "K_{2,2}": "1",
    ...                            "x_1": "1", "x_2": "-1", "a": "1/2", "y_2": "3"}})
    'K = [[2, -1], [0, 1]], x = [1, -1], a = 1/2, y_2 = 3'
    """
    witness = record["witness"]
    groups: dict[str, dict] = {}
    for key in witness:
        m = _ENTRY.match(key)
        if m:
            index = (int(m["i"]), int(m["j"])) if m["i"] else (1, int(m["k"]))
            groups.setdefault(m["name"], {})[index] = key
    whole = {}
    for name, entries in groups.items():
        rows = max(i for i, _ in entries)
        cols = max(j for _, j in entries)
        one_kind = len({_ENTRY.match(key)["i"] is None for key in entries.values()}) == 1
        full = min(min(index) for index in entries) >= 1 and len(entries) == rows * cols > 1
        if one_kind and full and name not in witness:
            whole[name] = [[witness[entries[(i, j)]] for j in range(1, cols + 1)] for i in range(1, rows + 1)]
    parts, said = [], set()
    for key, value in witness.items():
        m = _ENTRY.match(key)
        name = m["name"] if m else None
        if name not in whole:
            parts.append(f"{key} = {value}")
        elif name not in said:
            said.add(name)
            rows = whole[name]
            shown = ("[" + ", ".join(rows[0]) + "]" if _ENTRY.match(key)["i"] is None
                     else "[" + ", ".join("[" + ", ".join(row) + "]" for row in rows) + "]")
            parts.append(f"{name} = {shown}")
    return ", ".join(parts)


def how(record: dict) -> str:
    """One line saying how the verdict was obtained."""
    verdict = Verdict(record["verdict"])
    if verdict is Verdict.PROVED:
        return f"by {record['detail'] or record['strategy']}"
    if verdict is Verdict.REFUTED:
        where = f" at {_witness_text(record)}" if record["witness"] else ""
        if record["enclosure"]:
            cert = f"residual {record['residual']} ∈ {record['enclosure']} ({record['detail']})"
        else:
            cert = f"exact residual {record['residual']}"
        return f"refuted{where}: {cert}"
    return record["detail"] or "no strategy settled it"


def unexpected(record: dict) -> bool:
    """Whether a claim record got a verdict other than the one it expects (``expect`` None: anything goes).

    >>> unexpected({"verdict": "refuted", "expect": "proved"}), unexpected({"verdict": "proved", "expect": None})
    (True, False)
    """
    return record.get("expect") not in (None, record["verdict"])


def verdict_counts(records) -> list[tuple[str, int]]:
    """``[(verdict, how many records have it)]`` in the order of :class:`Verdict`, verdicts nobody has left out.

    >>> verdict_counts([{"verdict": "refuted"}, {"verdict": "proved"}, {"verdict": "refuted"}])
    [('proved', 1), ('refuted', 2)]
    """
    records = list(records)
    counts = [(v.value, sum(r["verdict"] == v.value for r in records)) for v in Verdict]
    return [(v, n) for v, n in counts if n]


def shorten(text: str, width: int) -> str:
    """``text`` on one line, cut to ``width`` characters with an ellipsis when longer.

    >>> shorten("a  b\\n c", 10), shorten("abcdefghijkl", 6)
    ('a b c', 'abcde…')
    """
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def statement_text(statement, width: int = 100) -> str:
    """A claim or chain as plain text: identifier and verdict, the statement (:func:`derive.kernel.notation.text`), how it was obtained.

    >>> import derive
    >>> a, b = derive.real("a b")
    >>> relu = derive.activation("relu")
    >>> print(statement_text(derive.claim("doc.text", relu(a) * b, relu(b) * a, expect="refuted").refute()))
    claim doc.text: refuted
      b*Max(0, a) = a*Max(0, b)
      refuted at a = 1, b = -1: exact residual -1
    """
    record = statement.record()

    def side(e):
        return " = ".join(expr_text(x) for x in e) if isinstance(e, tuple) else expr_text(e)

    if hasattr(statement, "steps"):  # a chain: its start and every step
        lines = [statement.start, *(s[0] for s in statement.steps)]
        if getattr(statement, "equations", False):  # each line for all values of the variables instantiated
            binders = [printing.bound(e, statement.varied(), statement.assume)[1] for e in lines]
            text = " ⟹ ".join(f"({b}{side(e)})" if b else side(e) for b, e in zip(binders, lines))
        else:
            text = " = ".join(side(e) for e in lines)
    else:  # each side shortened on its own, so that a long left side leaves the right one in sight
        lhs, rhs = (expr_text(side) for side in getattr(statement, "shown", (statement.lhs, statement.rhs)))
        half = (width - 3) // 2
        text = f"{lhs} = {rhs}" if len(lhs) + len(rhs) + 3 <= width else (
            f"{shorten(lhs, max(half, width - 3 - len(rhs)))} = {shorten(rhs, max(half, width - 3 - len(lhs)))}")
    head = f"{record['kind']} {record['id']}: {record['verdict']}"
    if unexpected(record):
        head += f" (expected {record['expect']})"
    lines = [head + (f" — {record['title']}" if record["title"] else ""), "  " + shorten(text, width)]
    definitions = getattr(statement, "definitions", ())
    if definitions:
        lines.append("  where " + shorten(", ".join(
            f"{expr_text(k)} = {expr_text(v)}" if isinstance(k, (sp.Symbol, sp.MatrixSymbol)) else
            f"{expr_text(k(*v.variables))} = {expr_text(v.expr)}" for k, v in definitions), width - 8))
    if record["assume"]:
        lines.append("  assuming " + shorten(", ".join(record["assume"]), width - 9))
    lines.append("  " + shorten(how(record), width))
    if record["uses"]:
        lines.append("  uses " + shorten(", ".join(record["uses"]), width - 5))
    return "\n".join(lines)
