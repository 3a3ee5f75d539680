"""How a classification shows itself in a notebook: a table of the three symmetries, a badge and certificate each.

The HTML of :class:`derive.classifier.classification.Classification` and of a table of them (the activation atlas),
registered with :mod:`derive.kernel.display` when ``derive`` is imported.
"""
from __future__ import annotations

import html

import sympy as sp

from ..classifier.classification import _TEX, MIME, SYMMETRIES, Classification, ClassificationTable, Finding
from ..kernel import display, printing
from ..kernel.describe import how
from ..kernel.verdict import Verdict
from . import render
from .plain import unicode

__all__ = ["classification_bundle", "table_bundle"]


def classification_bundle(c: Classification) -> tuple[dict, dict]:
    """One activation's classification: its formula and family, then a row per symmetry."""
    rows = [(f' data-symmetry="{key}" data-verdict="{f.verdict.value}"',
             [f"\\({_TEX[key]}\\)", render.badge(f.verdict), _cell(f)]) for key, f in c.findings.items()]
    formula = html.escape(printing.latex(c.expr))  # full size: inline, a fraction prints its parts smaller
    head = (f"<p><strong>{html.escape(c.label)}</strong>: \\(\\displaystyle \\sigma(z) = {formula}\\)"
            f" — {c._family_tex()}</p>")
    table = render.html_table(["symmetry of \\(G\\)", "verdict", "certificate"], rows, kind="classification")
    data = {"symmetries": list(c.findings), "rows": [c._row_data()]}
    return {"text/html": f'<div class="derive-classification">{head}\n{table}</div>', "text/plain": str(c),
            MIME: data}, {}


def table_bundle(table: ClassificationTable) -> tuple[dict, dict]:
    """Many activations: a row each, a column per symmetry."""
    head = ["activation", "\\(\\sigma(z)\\)", "family"] + [f"\\({_TEX[k]}\\)" for k in SYMMETRIES]
    rows = []
    for c in table.results:
        cells = [f'{render.badge(c[k].verdict)}<div class="derive-small"><small>{_short(c[k])}</small></div>'
                 for k in SYMMETRIES]
        formula = printing.latex(c.expr)
        formula = f"\\({html.escape(formula)}\\)" if len(formula) <= 90 else "(see its classification)"
        verdicts = " ".join(f"{k}={c[k].verdict.value}" for k in SYMMETRIES)
        rows.append((f' data-label="{html.escape(c.label)}" data-verdicts="{verdicts}"',
                     [html.escape(c.label), formula, html.escape(c.family_text())] + cells))
    width = max((len(c.label) for c in table.results), default=0)
    plain = "\n".join(
        f"{c.label:<{width}}  " + " ".join(f"{c[k].verdict.value:<9}" for k in SYMMETRIES) + f"  {c.family_text()}"
        for c in table.results)
    data = {"symmetries": list(SYMMETRIES), "rows": [c._row_data() for c in table.results]}
    labels = ["", "", ""] + [unicode(_TEX[k]) for k in SYMMETRIES]  # on a phone: a card per activation
    return {"text/html": render.html_table(head, rows, kind="classification", labels=labels), "text/plain": plain,
            MIME: data}, {}


def _cell(f: Finding) -> str:
    """A table cell: the certificate in HTML, the layer witness (LaTeX) folded into ``<details>``."""
    if f.verdict is Verdict.PROVED:
        return render.folded(f"unit: {how(f.unit.record())}; layer: unit by unit", 140)
    if f.verdict is Verdict.REFUTED:
        unit = ", ".join(f"{_sym_html(k)} = {v}" for k, v in f.unit.evidence.witness.items())
        rec = f.layer.record()
        cert = (f"residual ∈ {rec['enclosure']}" if rec["enclosure"] else f"residual {rec['residual']} (exact)")
        shown = r",\ ".join(f"{_sym_tex(k)} = {sp.latex(v)}" for k, v in f.witness.items())
        return (f'<details class="derive-fold"><summary>unit at {html.escape(unit)}; layer {html.escape(cert)}</summary>'
                f'layer at \\({html.escape(shown)}\\)</details>')
    return "undecided"


def _short(f: Finding) -> str:
    if f.verdict is Verdict.PROVED:
        return html.escape(f.unit.evidence.strategy) + ", then unit by unit"
    if f.verdict is Verdict.REFUTED:
        unit = ", ".join(f"{_sym_html(k)} = {v}" for k, v in f.unit.evidence.witness.items())
        how = "arb" if f.layer.evidence.enclosure else "exact"
        return f"at {unit}; layer residual {how}"
    return "undecided"


def _sym_html(name: str) -> str:
    return "α" if name == "alpha" else name


def _sym_html(name: str) -> str:
    return "α" if name == "alpha" else name


def _sym_tex(name) -> str:
    return r"\alpha" if name == "alpha" else name


display.register(Classification, classification_bundle)
display.register(ClassificationTable, table_bundle)
