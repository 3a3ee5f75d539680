"""Tables of values built from data: ``derive.table(head, rows)`` renders as HTML, never as a Markdown string.

A cell is text (``$…$`` in it is math, for the viewer's MathJax), an ``int`` (printed with thousands separators),
a SymPy expression (its LaTeX), a :class:`~derive.kernel.verdict.Verdict` or a claim (its verdict's badge), or a
:class:`Link`. Anything else is refused: a float must be formatted by the caller, who knows its precision.
The output carries the table's cells as plain text too (``text/plain`` and :data:`DATA_MIME`), so that a page's
rendering can be checked against them.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

import sympy as sp

from . import render
from .plain import unicode_text
from ..kernel.validate import require_inert_tex
from ..kernel.verdict import Verdict

__all__ = ["DATA_MIME", "DataTable", "Link", "table"]

#: the MIME type of a data table's cells as plain text: ``{"head": [...], "rows": [[...], ...]}``
DATA_MIME = "application/vnd.derive.table+json"


#: the addresses a link may have beside a relative one ("" is no scheme)
_SCHEMES = frozenset({"", "http", "https", "mailto"})


@dataclass(frozen=True)
class Link:
    """A cell that links somewhere: ``Link("01 key–value view", "01_key_value_view.ipynb")``."""

    text: str
    href: str

    def __post_init__(self):
        for name in ("text", "href"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise TypeError(f"Link: {name} must be a non-empty str, got {getattr(self, name)!r}")
        # as a browser reads it: without the blanks and control characters it skips (java\tscript: is javascript:)
        scheme = urlsplit(re.sub(r"[\x00-\x20\x7f]", "", html.unescape(self.href))).scheme.lower()
        if scheme not in _SCHEMES:
            raise ValueError(f"Link: href {self.href!r:.60} must be a relative, http(s) or mailto address, "
                             f"not a {scheme}: one")


def _verdict_of(cell):
    from ..kernel.claims import Statement

    if isinstance(cell, Verdict):
        return cell
    if isinstance(cell, Statement):
        return cell.verdict
    return None


def _cell(where: str, cell) -> tuple[str, str]:
    """``(html, plain text)`` of one cell."""
    verdict = _verdict_of(cell)
    if verdict is not None:
        return render.badge(verdict), f"{render.STYLE[verdict][0]} {verdict.value}"
    if isinstance(cell, Link):
        require_inert_tex(where, "a link's text", cell.text)
        return f'<a href="{html.escape(cell.href)}">{_text_html(cell.text)}</a>', cell.text
    if isinstance(cell, bool):
        raise TypeError(f"{where}: a bool is no table cell; write the word you mean")
    if isinstance(cell, int):
        return f"{cell:,}", f"{cell:,}"
    if isinstance(cell, str):
        require_inert_tex(where, "a cell", cell)
        return _text_html(cell), cell
    if isinstance(cell, sp.Basic) and not isinstance(cell, sp.Float):
        tex = sp.latex(cell)
        require_inert_tex(where, "a cell's LaTeX", tex)  # a symbol's name is printed as it is written
        return f"${tex}$", f"${tex}$"
    raise TypeError(f"{where}: a cell must be str, int, a SymPy expression, a verdict, a claim or a Link, got "
                    f"{type(cell).__name__} {cell!r:.40} (format numbers as text, e.g. f'{{x:.2g}}')")


def _text_html(text: str) -> str:
    # escaped, with $…$ left for MathJax (it reads &lt; inside math as <)
    return html.escape(text, quote=False)


class DataTable:
    """A table of values; shows as HTML in notebooks and on the site, as aligned text in a terminal."""

    def __init__(self, head, rows, *, kind: str = "data"):
        if not isinstance(head, (list, tuple)) or not head:
            raise TypeError(f"table: head must be a non-empty list of column headings, got {head!r:.60}")
        if not isinstance(rows, (list, tuple)):
            raise TypeError(f"table: rows must be a list of rows, got {type(rows).__name__}")
        self.head = [_cell("table heading", h) for h in head]
        self.rows = []
        for k, row in enumerate(rows, 1):
            if not isinstance(row, (list, tuple)) or len(row) != len(head):
                got = len(row) if isinstance(row, (list, tuple)) else type(row).__name__
                raise ValueError(f"table: row {k} has {got} cells under {len(head)} headings")
            self.rows.append([_cell(f"table row {k}", c) for c in row])
        self.kind = kind

    def data(self) -> dict:
        return {"head": [t for _, t in self.head], "rows": [[t for _, t in row] for row in self.rows]}

    def _repr_mimebundle_(self, include=None, exclude=None):
        labels = [""] + [unicode_text(t) for _, t in self.head[1:]]  # on a phone, a card per row (the labels are text)
        body = render.html_table([h for h, _ in self.head], [("", [c for c, _ in row]) for row in self.rows],
                                 kind=self.kind, labels=labels)
        return {"text/html": body, "text/plain": str(self), DATA_MIME: self.data()}, {}

    def __str__(self):
        """The cells as aligned text, one line per row.

        >>> print(table(["r", "parameters"], [[1, "3md"], [8, "17md"]]))
        r  parameters
        1  3md
        8  17md
        """
        lines = [[t for _, t in self.head]] + [[t for _, t in row] for row in self.rows]
        widths = [max(len(line[k]) for line in lines) for k in range(len(self.head))]
        return "\n".join("  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip() for line in lines)

    def __repr__(self):
        return f"<DataTable of {len(self.rows)} rows × {len(self.head)} columns>"


def table(head, rows) -> DataTable:
    """A table built from data: ``head`` the column headings, ``rows`` lists of cells (see the module).

    >>> import sympy as sp
    >>> t = table(["form", "parameters"], [["standard MLP", 2 * sp.Symbol("m") * sp.Symbol("d")]])
    >>> t.data()
    {'head': ['form', 'parameters'], 'rows': [['standard MLP', '$2 d m$']]}
    >>> table(["x"], [[0.5]])
    Traceback (most recent call last):
    ...
    TypeError: table row 1: a cell must be str, int, a SymPy expression, a verdict, a claim or a Link, got float 0.5 (format numbers as text, e.g. f'{x:.2g}')
    """
    return DataTable(head, rows)
