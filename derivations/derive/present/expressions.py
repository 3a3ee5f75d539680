"""How a bare SymPy expression shows in a notebook: printed by derive's printers, as the claims are.

IPython shows a SymPy object through SymPy's own LaTeX and text printers: ``(t ↦ σ(t))∘(x Kᵀ) V`` for a layer
built with σ applied to every entry, and sums and entries counted from 0. :func:`install` registers derive's
printers for them instead (:func:`derive.kernel.printing.latex`, :func:`derive.kernel.notation.text`): the same
layer shows ``σ(x Kᵀ) V``, and every index counts from 1, as in the claims. Only the display changes.
"""
from __future__ import annotations

import sys

import sympy as sp

from ..kernel import notation, printing

__all__ = ["latex_output", "sequence_latex_output", "install"]


def latex_output(expr) -> str:
    """The ``text/latex`` of ``expr`` in a notebook: derive's LaTeX in display style.

    >>> import sympy as sp
    >>> d = sp.Symbol("d", integer=True, positive=True)
    >>> i = sp.Symbol("i", integer=True)
    >>> latex_output(sp.Sum(sp.MatrixSymbol("x", 1, d)[0, i], (i, 0, d - 1)))
    '$\\\\displaystyle \\\\sum_{i=1}^{d} x_{i}$'
    """
    return f"$\\displaystyle {printing.latex(expr)}$"


def _plain(expr, p, cycle):
    p.text(notation.text(expr))


def _sympy_sequence(seq) -> bool:
    return bool(seq) and all(isinstance(e, (sp.Basic, sp.MatrixBase)) for e in seq)


def sequence_latex_output(seq) -> str | None:
    r"""The ``text/latex`` of a tuple or list of SymPy objects (a cell ending ``lhs, rhs``): each by derive's
    LaTeX, side by side; ``None`` (IPython's own display) for any other sequence.

    >>> a = sp.Symbol("a")
    >>> sequence_latex_output((a + 1, a**2)), sequence_latex_output((a, "text"))
    ('$\\displaystyle \\left( a + 1,\\quad a^{2}\\right)$', None)
    """
    if not _sympy_sequence(seq):
        return None
    return "$\\displaystyle \\left( " + ",\\quad ".join(printing.latex(e) for e in seq) + "\\right)$"


def install(shell=None) -> bool:
    """Show SymPy objects in ``shell`` (default: the running IPython, if any) with derive's printers."""
    if shell is None:
        ipython = sys.modules.get("IPython")  # not imported: no shell to install in (and no import paid for)
        shell = ipython.get_ipython() if ipython is not None else None
    formatters = getattr(getattr(shell, "display_formatter", None), "formatters", None)
    if not formatters:
        return False
    for cls in (sp.Basic, sp.MatrixBase):
        formatters["text/latex"].for_type(cls, latex_output)
        formatters["text/plain"].for_type(cls, _plain)
    for cls in (tuple, list):
        formatters["text/latex"].for_type(cls, sequence_latex_output)
    return True
