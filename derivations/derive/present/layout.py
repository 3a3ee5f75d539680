r"""How a long statement is laid out in a column: broken at its relations and sums, or folded.

MathJax 3 does not break lines. A statement is measured here from its LaTeX (:func:`width`, in characters of
typeset math: a fraction as wide as its wider part, scripts smaller, a matrix as wide as its widest row); one wider
than the column is broken into the rows of an ``aligned`` environment (:func:`broken`): at its top-level relations
(``=``), then, where a side is still too wide, at its top-level ``+`` and ``−``; a chain's justification goes to a
row of its own, cut at its top-level commas. What still does not fit (a single term or a matrix wider than the
column) is left whole for the page to fold behind "show in full". Only the layout changes: the rows, read in
order, are the statement's LaTeX.

>>> broken("a = b")
['a = b']
>>> for row in broken("y = " + " + ".join(f"x_{{{k}}}" for k in range(1, 20)), 40):
...     print(row)
& y
&= x_{1} + x_{2} + x_{3} + x_{4} + x_{5} + x_{6} + x_{7} + x_{8} + x_{9} + x_{10}
&\quad + x_{11} + x_{12} + x_{13} + x_{14} + x_{15} + x_{16} + x_{17} + x_{18}
&\quad + x_{19}
"""
from __future__ import annotations

import re

from ..kernel.printing import WHERE

__all__ = ["COLUMN", "width", "split_top", "broken", "aligned", "fits", "preview", "listed", "definitions"]

#: the column of a statement, in characters of typeset math (the claims page and a notebook's output at 1280 px)
COLUMN = 78
#: how wide a script is next to its base
SCRIPT = 0.7
_ZERO = {"left", "right", "displaystyle", "textstyle", "limits", "nolimits", "big", "Big", "bigl", "bigr", "Bigl",
         "Bigr", "bigg", "Bigg", "small", "mathstrut"}
_SPACE = {",": 0.3, ":": 0.4, ";": 0.5, " ": 0.5, "!": 0, "quad": 2, "qquad": 4}
_WORD = {"text", "textrm", "textit", "texttt"}
#: LaTeX's named functions, set upright in full (``\tanh`` is four letters wide, not one)
_OPERATORS = {"arccos", "arcsin", "arctan", "arg", "cos", "cosh", "cot", "coth", "csc", "deg", "det", "dim", "exp",
              "gcd", "hom", "inf", "ker", "lg", "lim", "liminf", "limsup", "ln", "log", "max", "min", "Pr", "sec",
              "sin", "sinh", "sup", "tan", "tanh"}
_STYLE = {"mathrm", "mathbb", "mathbf", "mathcal", "mathit", "boldsymbol", "operatorname", "mathsf"}


def _group(tex: str, k: int) -> tuple[str, int]:
    """The argument starting at ``k``: a braced group's inside, a command, or one character; and where it ends."""
    while k < len(tex) and tex[k] == " ":
        k += 1
    if k >= len(tex):
        return "", k
    if tex[k] == "{":
        depth, j = 0, k
        while j < len(tex):
            if tex[j] == "\\":
                j += 2
                continue
            depth += {"{": 1, "}": -1}.get(tex[j], 0)
            if depth == 0:
                return tex[k + 1:j], j + 1
            j += 1
        return tex[k + 1:], len(tex)
    m = re.match(r"\\([a-zA-Z]+|.)", tex[k:])
    if m:
        return m.group(0), k + len(m.group(0))
    return tex[k], k + 1


def _environment(tex: str, k: int, name: str) -> tuple[str, int]:
    """The body of ``\\begin{name}`` whose body starts at ``k``, and where its ``\\end{name}`` ends."""
    depth, j = 1, k
    pattern = re.compile(r"\\(begin|end)\{" + re.escape(name) + r"\}")
    for m in pattern.finditer(tex, k):
        depth += 1 if m.group(1) == "begin" else -1
        if depth == 0:
            return tex[k:m.start()], m.end()
        j = m.end()
    return tex[k:], len(tex)


def width(tex: str) -> float:
    r"""How wide ``tex`` typesets, in characters: an estimate good enough to choose a layout.

    >>> width("a + b")
    4.0
    >>> width(r"\frac{a + b}{2}") == width("a + b") + 0.5
    True
    >>> width(r"\left[\begin{matrix}a & b\\c + d & e\end{matrix}\right]")
    8.0
    >>> width(r"\tanh{\left(x \right)}") == width(r"\operatorname{ReLU}{\left(x \right)}")
    True
    """
    total, k = 0.0, 0
    while k < len(tex):
        c = tex[k]
        if c == "\\":
            m = re.match(r"\\([a-zA-Z]+|.)", tex[k:], flags=re.S)
            if m is None:  # a backslash that ends the text
                break
            name, k = m.group(1), k + len(m.group(0))
            if name in ("left", "right"):
                _, k = _group(tex, k)
                total += 0.5
            elif name in _ZERO:
                pass
            elif name in _SPACE:
                total += _SPACE[name]
            elif name in _OPERATORS:
                total += len(name)
            elif name == "\\":
                total += 0
            elif name in ("frac", "dfrac", "tfrac", "binom"):
                a, k = _group(tex, k)
                b, k = _group(tex, k)
                total += max(width(a), width(b)) + 0.5
            elif name in _WORD:
                a, k = _group(tex, k)
                total += 0.85 * len(a)
            elif name in _STYLE:
                a, k = _group(tex, k)
                total += width(a)
            elif name == "begin":
                env, k = _group(tex, k)
                body, k = _environment(tex, k, env)
                if env in ("array", "tabular"):
                    _, body = _group(body, 0)[0], body[_group(body, 0)[1]:]
                rows = split_top(body, r"\\\\")
                total += max((sum(width(cell) + 1 for cell in split_top(row, "&")) for row in rows), default=0)
            else:
                total += 1
        elif c in "_^":
            g, k = _group(tex, k + 1)
            total += SCRIPT * width(g)
        elif c in "{}& \n\t":
            k += 1
        elif c in "+-=<>":
            total += 2 if c in "+-=" else 1.5
            k += 1
        else:
            total += 1
            k += 1
    return total


_GROUPING = re.compile(r"\\(left|right|begin|end)(?![a-zA-Z])")


def _top_level(tex: str) -> list[int]:
    r"""The positions of ``tex`` outside braces, ``\left … \right`` and environments, in order (the character after a
    backslash never: ``\&`` is no column).

    >>> _top_level(r"a{b}\&c")
    [0, 1, 4, 6]
    """
    out, depth, k = [], 0, 0
    while k < len(tex):
        if depth == 0:
            out.append(k)
        if tex[k] == "\\":
            word = _GROUPING.match(tex, k)
            if word:
                depth += 1 if word.group(1) in ("left", "begin") else -1
                k = word.end()
            else:
                k += 2
            continue
        depth += {"{": 1, "}": -1}.get(tex[k], 0)
        k += 1
    return out


def split_top(tex: str, separator: str) -> list[str]:
    r"""``tex`` cut at every match of the regular expression ``separator`` outside braces, ``\left … \right``
    and environments; each separator starts the piece after it (``\\`` and ``&`` are dropped).

    >>> split_top(r"\left(a + b\right) + c", r" \+ ")
    ['\\left(a + b\\right)', '+ c']
    """
    pieces, start, after = [], 0, 0
    sep = re.compile(separator)
    for k in _top_level(tex):
        if k < after or k <= start:
            continue
        m = sep.match(tex, k)
        if m and m.end() > k:
            pieces.append(tex[start:k].strip())
            start = m.end() if m.group(0).strip() in ("\\\\", "&", "&&") else k
            after = m.end()
    pieces.append(tex[start:].strip())
    return [p for p in pieces if p]


def _pack(terms: list[str], room: float, first: str, rest: str, joiner: str = " ") -> list[str]:
    """Terms joined into rows of at most ``room`` characters, the first row opened by ``first``, the others by ``rest``."""
    rows, line = [], ""
    lead = max(width(first), width(rest)) + width(joiner)
    for term in terms:
        if line and width(line) + width(term) + lead > room:
            rows.append(line)
            line = term
        else:
            line = f"{line}{joiner}{term}" if line else term
    rows.append(line)
    return [(first if k == 0 else rest) + " " + row for k, row in enumerate(rows)]


def _side(tex: str, room: float, first: str) -> list[str]:
    if width(tex) <= room:
        return [f"{first} {tex}"]
    return _pack(split_top(tex, r" [+-] "), room, first, r"&\quad")


def _chain_rows(body: str, room: float) -> list[str]:
    """The rows of a chain; when its steps and justifications, each column as wide as its widest cell, are wider
    than ``room``, every justification goes to rows of its own under its step."""
    rows = [split_top(row, "&&") for row in split_top(body, r"\\\\")]
    steps = max((width(cells[0]) for cells in rows), default=0)
    reasons = max((width(c) for cells in rows for c in cells[1:]), default=0)
    if steps + reasons + 2 <= room:
        return [" && ".join(cells) for cells in rows]
    lead = max((width(_cells(cells[0])[0]) for cells in rows), default=0)  # the column left of the steps
    out = []
    for expr, *reason in rows:
        out.append(expr)
        for why in reason:  # a list of substitutions is cut after its commas
            out += _pack(_comma_parts(why), room - lead - 4, r"&\qquad", r"&\qquad", joiner=r"\ ")
    return out


def _comma_parts(tex: str) -> list[str]:
    r"""A list joined by ``,\ `` (substitutions, a domain, definitions) cut after its top-level commas, each part
    but the last keeping its comma.

    >>> _comma_parts(r"a := 1,\ b := f(1, 2),\ c := 3")
    ['a := 1,', 'b := f(1, 2),', 'c := 3']
    """
    parts = [p[2:].strip() if p.startswith(",\\") else p for p in split_top(tex, r",\\ ")]
    return [p + ("," if k < len(parts) - 1 else "") for k, p in enumerate(parts)]


def _cells(row: str) -> list[str]:
    """A row of ``aligned`` cut at each of its top-level ``&`` (empty cells kept: ``&&`` skips a column)."""
    bounds = [-1] + [k for k in _top_level(row) if row[k] == "&"] + [len(row)]
    return [row[a + 1:b] for a, b in zip(bounds, bounds[1:])]


def table_width(rows: list[str]) -> float:
    r"""How wide the rows typeset as one ``aligned``: each column as wide as its widest cell.

    >>> table_width([r"a &= b && \text{why}", r"&= c"]) == width("a") + width("= b") + width(r"\text{why}")
    True
    """
    cols: list[float] = []
    for row in rows:
        for k, cell in enumerate(_cells(row)):
            w = width(cell)
            cols[k:k + 1] = [max(cols[k], w)] if k < len(cols) else [w]
    return sum(cols)


def broken(tex: str, room: float = COLUMN) -> list[str]:
    r"""The rows of ``tex`` laid out in ``room`` characters: ``[tex]`` when it fits, else rows for ``aligned``.

    A chain (an ``aligned`` environment) keeps its rows and moves a long justification under its step.

    >>> for row in broken(r"\begin{aligned} & a = b && \text{by }" + r",\ ".join(["c := 1"] * 9) + r"\end{aligned}", 40):
    ...     print(row)
    & a = b
    &\qquad \text{by }c := 1,\ c := 1,\ c := 1,\ c := 1,
    &\qquad c := 1,\ c := 1,\ c := 1,\ c := 1,\ c := 1
    """
    tex = tex.strip()
    whole = re.fullmatch(r"\\begin\{aligned\}(.*)\\end\{aligned\}", tex, flags=re.S)
    if whole:
        return _chain_rows(whole.group(1), room)
    if width(tex) <= room:
        return [tex]
    main, told = definitions(tex)
    if told:  # "… where σ(z) = …": the definitions on rows of their own, cut after their commas, not at their "="
        rows = broken(main, room)
        rows = rows if "&" in rows[0] else [f"& {row}" for row in rows]
        return rows + _pack(told, room - 4, _WHERE_ROW, r"&\qquad", joiner=r"\ ")
    sides = split_top(tex, r" (=|\\neq|\\leq|\\geq|<|>) ")
    rows = _side(sides[0], room, "&")
    for side in sides[1:]:
        relation, _, rest = side.partition(" ")
        rows += _side(rest, room - 2, f"&{relation}")
    return rows


def listed(tex: str, room: float = COLUMN) -> str:
    r"""A list joined by ``,\ `` (a claim's domain: "for a, b ∈ ℝ, …") as rows of at most ``room`` characters,
    cut after its top-level commas, the rows after the first indented; ``tex`` itself when it fits.

    >>> print(listed(r"\text{for } a \in X,\ b \in Y", 10))
    \begin{aligned}
    & \text{for } a \in X, \\
    &\quad b \in Y
    \end{aligned}
    """
    if width(tex) <= room:
        return tex
    return aligned(_pack(_comma_parts(tex), room, "&", r"&\quad", joiner=r"\ "))


_WHERE = re.escape(WHERE)
_WHERE_ROW = r"&\qquad \;\text{where }"  # (a preview, which drops the \qquad, keeps a space before it)


def definitions(tex: str) -> tuple[str, list[str]]:
    r"""A statement's equation, and the definitions it gives after "where" (each but the last with its comma).

    >>> definitions(r"f(a) = c a\quad \text{where } f(z) = 2 z,\ c = 2")
    ('f(a) = c a', ['f(z) = 2 z,', 'c = 2'])
    >>> definitions("a = b")
    ('a = b', [])
    """
    main, *where = split_top(tex, _WHERE)
    if not where:
        return tex, []
    return main, _comma_parts(where[0][len(WHERE):].strip())


def aligned(rows: list[str]) -> str:
    """The rows of :func:`broken` as one piece of LaTeX."""
    if len(rows) == 1 and "&" not in rows[0]:
        return rows[0]
    return "\\begin{aligned}\n" + " \\\\\n".join(rows) + "\n\\end{aligned}"


def fits(rows: list[str], room: float = COLUMN) -> bool:
    """Whether the rows of a layout, set as one ``aligned``, fit in ``room`` characters."""
    return table_width(rows) <= room


_MATRIX = re.compile(r"\\left(\[|\(|\\\{)\\begin\{matrix\}.*\\end\{matrix\}\\right(\]|\)|\\\})", re.S)


def _elided(side: str, room: float) -> str:
    r"""``side`` when it fits in ``room``; else a matrix as its brackets around ``\cdots``, anything else as
    ``\cdots``."""
    if width(side) <= room:
        return side
    whole = _MATRIX.fullmatch(side)
    if whole:
        return rf"\left{whole.group(1)} \cdots \right{whole.group(2)}"
    return r"\cdots"


def _first_rows(tex: str, room: float, narrower: float) -> str:
    """The first rows of ``tex`` laid out in ``narrower``, as many as fit on one line of ``room`` before ``⋯``
    (not the last: a preview shows less than the whole)."""
    rows = [re.sub(r"^\\q?quad\b", "", row.replace("&", "").strip()).strip() for row in broken(tex, narrower)]
    shown = ""
    for row in rows[:-1]:
        longer = f"{shown} {row}".strip()
        if width(longer + r" \quad \cdots") > room:
            break
        shown = longer
    return shown


def preview(tex: str, room: float = COLUMN) -> str:
    r"""What a statement too wide for ``room`` shows before it is opened: the first row of its layout
    (:func:`broken`) followed by ``\cdots``, or, when that row alone is too wide, the statement with each side
    too wide for its share of the room written ``\cdots`` (a matrix keeps its brackets); ``""`` when nothing
    of it fits.

    >>> row = r"\left[\begin{matrix}" + " & ".join(["a_{1} + a_{2}"] * 30) + r"\end{matrix}\right]"
    >>> preview(row + r" = x K^{T}")
    '\\left[ \\cdots \\right] = x K^{T}'
    >>> preview("y = " + " + ".join(f"x_{{{k}}}" for k in range(1, 60)), 30)
    'y = x_{1} + x_{2} + x_{3} + x_{4} + x_{5} + x_{6} + x_{7} \\quad \\cdots'
    >>> preview(r"\begin{aligned} & a = b && \text{by }" + r",\ ".join(["c := 1"] * 9) + r"\\ &= c\end{aligned}", 30)
    'a = b \\quad \\cdots'
    """
    chain = re.fullmatch(r"\\begin\{aligned\}(.*)\\end\{aligned\}", tex.strip(), flags=re.S)
    if chain:  # its first step, without its justification
        first = split_top(split_top(chain.group(1), r"\\\\")[0], "&&")[0].replace("&", "").strip()
        return first + r" \quad \cdots" if width(first) + 3 <= room else ""
    shown = max((_first_rows(tex, room, part * room) for part in (1, 0.6, 0.4)), key=width)
    if shown:
        return shown + r" \quad \cdots"
    sides = split_top(tex.strip(), r" (=|\\neq|\\leq|\\geq|<|>) ")
    share = room / max(len(sides), 1)
    parts = [_elided(sides[0], share)]
    for side in sides[1:]:
        relation, _, rest = side.partition(" ")
        parts.append(f"{relation} {_elided(rest, share)}")
    out = " ".join(parts)
    return out if width(out) <= room and out.strip() != r"\cdots" else ""
