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
    assert r"\sum_{i=1}^{d}" in c.record()["checked"] and "K_{j,i}" in c.record()["checked"]
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


def test_a_free_index_prints_from_one_for_the_whole_statement():
    # K[j, i] with j any integer: j - 1 ranges over the same integers, so j is printed for j - 1 everywhere at once
    lhs, rhs = notation.free_indices_from_one(K[j, 0] + V[j, 1], 2 * K[j, 0])
    assert (lhs, rhs) == (K[j - 1, 0] + V[j - 1, 1], 2 * K[j - 1, 0])
    c = derive.claim("test.notation.free_index", (K[j, 0] + V[j, 1])**2, K[j, 0]**2 + 2 * K[j, 0] * V[j, 1] + V[j, 1]**2)
    assert c.body_tex() == r"\left(K_{j,1} + V_{j,2}\right)^{2} = K_{j,1}^{2} + 2 K_{j,1} V_{j,2} + V_{j,2}^{2}"
    assert c.prove().verdict is derive.Verdict.PROVED and c.lhs == (K[j, 0] + V[j, 1])**2  # checked as built
    # the statement printed is the one checked: at every value, the renamed one is the original one a step on
    for at in range(-2, 3):
        assert lhs.subs(j, at + 1) == (K[j, 0] + V[j, 1]).subs(j, at)


def test_an_index_that_is_more_than_an_index_is_printed_as_it_is():
    # j ≥ 0: j - 1 would range over other integers
    jn = sp.Symbol("j", integer=True, nonnegative=True)
    assert notation.free_indices_from_one(K[jn, 0], V[jn, 0]) == (K[jn, 0], V[jn, 0])
    # j named by an assumption, which is printed apart from the statement
    c = derive.claim("test.notation.assumed_index", K[j, 0], V[j, 0], assume=[j < m], expect=None)
    assert c.body_tex() == "K_{j + 1,1} = V_{j + 1,1}"
    # j also a number of the statement
    assert notation.free_indices_from_one(j * K[j, 0], K[j, 0]) == (j * K[j, 0], K[j, 0])
    # j bound by a sum somewhere in the statement
    both = (K[j, 0] + sp.Sum(K[j, 0], (j, 0, m - 1)), K[j, 0])
    assert notation.free_indices_from_one(*both) == both
    # a real j cannot index anything: left to the claim's own checks
    t = sp.Symbol("t", real=True)
    assert notation.free_indices_from_one(t + 1, t) == (t + 1, t)


def test_printing_is_remembered_only_for_what_cannot_change():
    e = (K[0, 0] + V[1, 1])**2
    assert printing.latex(e) is printing.latex(e)  # an immutable expression: printed once
    mutable = sp.Matrix([[1, 2]])
    before = printing.latex(mutable)
    mutable[0, 0] = 5
    assert printing.latex(mutable) != before and "5" in printing.latex(mutable)


def test_a_termwise_step_prints_its_instances_with_the_sums_index_counted_from_1():
    """The statement prints the sum's index from 1 (Σⱼ₌₁ᵐ … Q_{j,i}): the step's instances, "for each j", too."""
    from derive import rules

    j = sp.Symbol("j", integer=True)
    d = sp.Symbol("d", integer=True, positive=True)
    x, Q = sp.MatrixSymbol("x", 1, d), sp.MatrixSymbol("Q", 3, d)
    label = rules.termwise({sp.Symbol("z"): (x * Q.T)[0, j], sp.Symbol("w"): j}, index=j).label
    assert r"Q_{j,i_{1}}" in label and "j + 1" not in label and r"w := j - 1" in label


def test_a_logarithm_with_a_base_shows_its_base():
    import sympy as sp
    import derive
    from derive.kernel import printing

    shown = derive.claim("t.log_base", sp.log(8, 2, evaluate=False), 3).body_tex()
    assert r"\log_{2}" in shown and printing.latex(sp.log(sp.Symbol("x"))) == r"\log{\left(x \right)}"
