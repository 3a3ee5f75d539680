"""Entries and sums print counted from 1 (derive.kernel.notation), and printing never changes what is checked."""
import sympy as sp

import derive
from derive.kernel import notation, printing
from derive.present.plain import unicode

d, m = sp.symbols("d m", integer=True, positive=True)
i, j, k = sp.symbols("i j k", integer=True)
x, K, V = sp.MatrixSymbol("x", 1, d), sp.MatrixSymbol("K", m, d), sp.MatrixSymbol("V", m, d)


def test_entries_print_one_based():
    assert printing.latex(K[j, i]) == "K_{j + 1,i + 1}"
    assert printing.latex(x[0, i]) == "x_{i + 1}"
    assert printing.latex(K[0, 1]) == "K_{1,2}"
    assert notation.text(K[j, i]) == "K_{j + 1,i + 1}"
    assert notation.text(x[0, 2]) == "x_3"


def test_sums_print_from_one_over_the_same_terms():
    dot = sp.Sum(x[0, i] * K[j, i], (i, 0, d - 1))
    assert printing.latex(dot) == r"\sum_{i=1}^{d} K_{j + 1,i} x_{i}"
    assert notation.text(dot) == "Sum(K_{j + 1,i}*x_i, (i, 1, d))"
    body, limits = notation.shifted(dot)
    for size in (1, 2, 3):
        assert sp.Sum(body, *limits).subs(d, size).doit() == dot.subs(d, size).doit()


def test_a_sum_not_from_zero_is_kept():
    assert printing.latex(sp.Sum(i**2, (i, 1, m))) == r"\sum_{i=1}^{m} i^{2}"


def test_printing_leaves_the_claim_as_stated():
    dot = sp.Sum(x[0, i] * K[j, i], (i, 0, d - 1))
    entry = (x * K.T)[0, j]
    c = derive.claim("test.notation.dot", entry, dot, expect="proved").prove()
    assert c.lhs == entry and c.rhs == dot  # what is checked: SymPy's 0-based expressions
    assert r"\sum_{i=1}^{d}" in c.record()["checked"] and "j + 1" in c.record()["checked"]
    assert "i, 1, d" in str(c)


def test_a_layer_with_sigma_on_every_entry_prints_by_name():
    layer = derive.forms.key_value(x, K, V, derive.sigma)
    assert printing.latex(layer) == r"\sigma\left(x K^\top\right) V"
    assert notation.text(layer) == "sigma(x*K.T)*V"
    assert unicode(printing.latex(layer)) == "σ(x Kᵀ) V"


def test_rows_and_index_sums_of_the_forms_print_one_based():
    t = sp.Symbol("t", integer=True)
    C = sp.MatrixSymbol("C", 2, m)
    assert printing.latex(derive.forms.column_of(C, t)) == "c_{t + 1}"
    assert printing.latex(derive.forms.index_sum(t, derive.forms.column_of(C, t), m)) == r"\sum_{t=1}^{m} c_{t}"
