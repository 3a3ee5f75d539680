"""Small argument checks shared by the public functions: one-line TypeError/ValueError messages."""
from __future__ import annotations

import html
import re
from fractions import Fraction

import sympy as sp
from sympy.matrices.expressions import MatrixExpr

__all__ = ["require_expr", "require_matrix", "require_function", "require_identifier", "LIVE_TEX_MACROS",
           "live_tex_macro", "require_inert_tex"]


def _kind(obj) -> str:
    return type(obj).__name__


def require_expr(where: str, name: str, obj) -> None:
    """Raise TypeError unless ``obj`` is a SymPy expression or matrix, or an exact Python number (int, Fraction).

    A float is refused: ``0.1`` is not one tenth, and a claim about it is no exact statement.
    """
    if isinstance(obj, float):
        raise TypeError(f"{where}: {name} {obj!r} is a floating-point number; write it exactly, "
                        f"e.g. sp.Rational('{obj!r}')")
    if isinstance(obj, (int, Fraction)) and not isinstance(obj, bool):
        return
    if isinstance(obj, sp.Lambda) or (isinstance(obj, sp.Basic)
                                      and not isinstance(obj, (sp.Expr, sp.MatrixBase, MatrixExpr))):
        raise TypeError(f"{where}: {name} must be a SymPy expression or matrix, got {_kind(obj)} {obj!r:.60}"
                        f" (a {'condition' if isinstance(obj, sp.logic.boolalg.Boolean) else 'function or set'}"
                        f" is no value to compare)")
    if not isinstance(obj, (sp.Basic, sp.MatrixBase)):
        raise TypeError(
            f"{where}: {name} must be a SymPy expression or matrix, got {_kind(obj)} {obj!r:.60}"
        )


def require_matrix(where: str, name: str, obj, rows=None, cols=None):
    """Check that ``obj`` is a SymPy matrix (explicit or symbolic) of the given shape; return its shape.

    ``rows``/``cols`` are an int to match exactly, or ``None``. Shapes of matrix symbols may be symbolic.
    """
    if not isinstance(obj, (sp.MatrixBase, MatrixExpr)):
        raise TypeError(f"{where}: {name} must be a SymPy Matrix or MatrixSymbol, got {_kind(obj)}")
    shape = obj.shape
    for axis, want in (("rows", rows), ("columns", cols)):
        got = shape[0] if axis == "rows" else shape[1]
        if want is not None and sp.simplify(sp.sympify(got) - want) != 0:
            raise ValueError(
                f"{where}: {name} must have {want} {axis[:-1] if want == 1 else axis}, got shape {shape[0]}x{shape[1]}"
            )
    return shape


def require_function(where: str, name: str, obj):
    """Check that ``obj`` is a SymPy ``Lambda`` of one argument or a function class (``sp.tanh``, ``Function('f')``)."""
    if isinstance(obj, sp.Lambda):
        if len(obj.variables) != 1:
            raise ValueError(f"{where}: {name} must take one argument, got a Lambda of {len(obj.variables)}")
        require_real_variable(where, name, obj.variables[0])
        return obj
    if isinstance(obj, sp.FunctionClass):
        return obj
    raise TypeError(
        f"{where}: {name} must be a SymPy Lambda or function class (see derive.activation), got {_kind(obj)}"
    )


def require_real_variable(where: str, name: str, variable) -> None:
    """A function of the reals is written in a variable declared real, or with no assumptions: SymPy rewrites a body
    for what its variable is declared to be (``|t|`` is ``t`` for a positive ``t``, ``⌊t⌋`` is ``t`` for an integer
    one), so a body in a narrower variable is another function on the rest of ℝ than the one written.

    >>> import sympy as sp
    >>> require_real_variable("doc", "sigma", sp.Symbol("t", positive=True))
    Traceback (most recent call last):
    ...
    ValueError: doc: the variable t of sigma is declared positive=True: SymPy has rewritten its body for those values only; declare it real
    """
    facts = variable.assumptions0
    if facts in ({"commutative": True}, sp.Symbol("t", real=True).assumptions0):
        return
    given = getattr(variable, "_assumptions_orig", None) or {}
    said = ", ".join(f"{k}={v}" for k, v in sorted(given.items())) or "with other assumptions"
    raise ValueError(f"{where}: the variable {variable} of {name} is declared {said}: SymPy has rewritten its body "
                     f"for those values only; declare it real")


def require_identifier(where: str, identifier) -> str:
    """Claim identifiers are non-empty dotted names: ``step.name_of_claim``."""
    if not isinstance(identifier, str):
        raise TypeError(f"{where}: identifier must be a str, got {_kind(identifier)}")
    parts = identifier.split(".")
    if not identifier or not all(p and (p.replace("_", "a").isalnum()) for p in parts):
        raise ValueError(
            f"{where}: identifier {identifier!r} must be dotted names of letters, digits and '_'"
        )
    return identifier


#: TeX macros that MathJax makes into a link, a style, a class or id, HTML attributes, a font or an extension
#: loaded, or a definition (which could hide one): text that reaches a viewer's MathJax must hold none of them,
#: since a notebook viewer's MathJax need not filter them as the site's does (``ui/safe``)
LIVE_TEX_MACROS = frozenset({
    "href", "url", "class", "style", "cssId", "data", "html", "unicode", "require", "mmlToken", "bbox",
    "def", "edef", "gdef", "xdef", "let", "futurelet", "newcommand", "renewcommand", "newenvironment",
    "renewenvironment", "DeclareMathOperator", "Newextarrow", "mathtip", "texttip", "toggle",
})

#: a control word as MathJax reads one: a backslash and the ASCII letters after it (``\h{}ref`` is ``\h``, then
#: text); more backslashes before it count too (a Markdown renderer may read ``\\`` as one)
_CONTROL_WORD = re.compile(r"\\+([A-Za-z]+)")


def live_tex_macro(text: str) -> str | None:
    r"""The first macro of :data:`LIVE_TEX_MACROS` in ``text`` (as written, or once HTML entities such as
    ``&#92;`` are read as a browser reads them), with its backslash; ``None`` when there is none.

    >>> live_tex_macro(r"see \href{javascript:alert(1)}{here}")
    '\\href'
    >>> live_tex_macro(r"\h{}ref and \hrefs and $\frac{a}{b}$") is None
    True
    >>> live_tex_macro("&#92;style{color:red}{x}")
    '\\style'
    """
    seen = set()
    while text not in seen and len(seen) < 4:  # entities inside entities (&amp;#92;) as well
        seen.add(text)
        for match in _CONTROL_WORD.finditer(text):
            if match.group(1) in LIVE_TEX_MACROS:
                return "\\" + match.group(1)
        text = html.unescape(text)
    return None


def require_inert_tex(where: str, name: str, text) -> None:
    """Raise ValueError when the str ``text`` holds a macro of :data:`LIVE_TEX_MACROS`: every text from a
    statement that a viewer's MathJax may read (a title, a caption, a table cell, a symbol's name) passes here."""
    if not isinstance(text, str):
        return
    found = live_tex_macro(text)
    if found is not None:
        raise ValueError(f"{where}: {name} holds the TeX macro {found}, which MathJax would make a live link, style, "
                         f"attribute or definition; write it without {found}")
