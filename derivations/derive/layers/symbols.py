"""Rows and matrices of real symbols, named after the paper: ``x`` a 1×d row, ``Q, K, V`` m×d matrices."""
from __future__ import annotations

import sympy as sp

from ..kernel.validate import require_inert_tex

__all__ = ["row", "matrix", "real", "positive", "nonzero"]


def _check(where, name, *dims):
    if not isinstance(name, str) or not name:
        raise TypeError(f"{where}: name must be a non-empty str, got {name!r}")
    require_inert_tex(where, "name", name)
    for d in dims:
        if isinstance(d, bool) or not isinstance(d, int) or d < 1:
            raise ValueError(f"{where}: sizes must be positive ints, got {d!r}")


def _names(where, names):
    if not isinstance(names, str):
        raise TypeError(f"{where}: names must be a str such as \"a b\", got {type(names).__name__}")
    require_inert_tex(where, "names", names)


def row(name: str, d: int) -> sp.ImmutableMatrix:
    """A 1×d row of real symbols ``name_1 … name_d``.

    >>> from derive import row
    >>> row("x", 3)
    Matrix([[x_1, x_2, x_3]])
    >>> row("x", 2)[0].is_real
    True
    """
    _check("row", name, d)
    value = sp.ImmutableMatrix(1, d, sp.symbols(f"{name}_1:{d + 1}", real=True))
    return _named(name, value)


def matrix(name: str, rows: int, cols: int) -> sp.ImmutableMatrix:
    """A rows×cols matrix of real symbols ``name_{i,j}`` (1-based, as in the paper).

    >>> from derive import matrix
    >>> matrix("K", 2, 2)
    Matrix([
    [K_{1,1}, K_{1,2}],
    [K_{2,1}, K_{2,2}]])
    """
    _check("matrix", name, rows, cols)
    value = sp.ImmutableMatrix(rows, cols, lambda i, j: sp.Symbol(f"{name}_{{{i + 1},{j + 1}}}", real=True))
    return _named(name, value)


def _named(name, value):
    """``value`` printed as the matrix symbol ``name`` (a shown matrix whose only leaf is itself)."""
    from ..kernel.printing import shown

    leaf = sp.MatrixSymbol(name, *value.shape)
    return shown(value, leaf, {leaf: value})


def real(names: str):
    """Real symbols, as ``sympy.symbols(names, real=True)``.

    >>> from derive import real
    >>> a, b = real("a b")
    >>> a.is_real
    True
    """
    _names("real", names)
    return sp.symbols(names, real=True)


def positive(names: str):
    """Positive real symbols (e.g. a scaling ``alpha > 0``)."""
    _names("positive", names)
    return sp.symbols(names, positive=True)


def nonzero(names: str):
    """Nonzero real symbols (e.g. a scaling ``alpha != 0``)."""
    _names("nonzero", names)
    return sp.symbols(names, real=True, nonzero=True)
