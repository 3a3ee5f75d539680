"""Entries and sums print counted from 1 (derive.kernel.notation), and printing never changes what is checked."""
import pytest
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


_XY = sp.symbols("x y z", real=True)
_KN = sp.symbols("k n m", integer=True, positive=True)
_AB = sp.MatrixSymbol("A", 2, 2), sp.MatrixSymbol("B", 2, 2)


@pytest.mark.parametrize("exponent, shown", [
    # e^{x / 2 y} reads as e^{(x/2) y}: a fraction in a power is folded only over one number or symbol
    (lambda x, y, z: x / (2 * y), r"e^{\frac{x}{2 y}}"),
    (lambda x, y, z: x / (y * z), r"e^{\frac{x}{y z}}"),
    (lambda x, y, z: -x / (3 * y), r"e^{- \frac{x}{3 y}}"),
    (lambda x, y, z: -sp.Rational(851, 500) * x, r"e^{- 851 x / 500}"),  # one number: folded, as before
], ids=["two_y", "y_z", "minus", "number"])
def test_a_fraction_in_a_power_of_e_reads_as_it_was_built(exponent, shown):
    assert printing.latex(sp.exp(exponent(*_XY))) == shown


@pytest.mark.parametrize("divisor, shown", [
    # k mod 2n printed k \bmod 2 n, which reads (k mod 2)·n
    (lambda k, n, m: 2 * n, r"k \bmod \left(2 n\right)"),
    (lambda k, n, m: n * m, r"k \bmod \left(m n\right)"),
    (lambda k, n, m: n + 1, r"k \bmod \left(n + 1\right)"),
    (lambda k, n, m: n, r"k \bmod n"),
], ids=["two_n", "n_m", "n_plus_1", "n"])
def test_a_modulus_that_is_a_product_or_a_sum_is_in_parentheses(divisor, shown):
    k = _KN[0]
    assert printing.latex(sp.Mod(k, divisor(*_KN))) == shown


@pytest.mark.parametrize("build, shown", [
    # det A A₁₁ reads as det(A A₁₁), det A B as det(A B)
    (lambda A, B: sp.Determinant(A) * A[0, 0], r"\det\left(A\right) A_{1,1}"),
    (lambda A, B: sp.Determinant(A) * sp.Determinant(B) * A[1, 1], r"\det\left(A\right) \det\left(B\right) A_{2,2}"),
    (lambda A, B: sp.Determinant(A) * B, r"\det\left(A\right) B"),
], ids=["entry", "two_dets", "matrix"])
def test_a_determinant_beside_another_factor_keeps_its_argument_apart(build, shown):
    assert printing.latex(build(*_AB)) == shown


_A, _B, _X = sp.symbols("a b x", real=True)


@pytest.mark.parametrize("expr, text", [
    # the plain text of a statement (a viewer without MathJax) lost the fraction bar: "fracsin(2 x)cos(x)"
    (sp.sin(2 * _X) / sp.cos(_X), "(sin(2 x))/(cos(x))"),
    (sp.log(_X) / sp.tanh(_X), "(log(x))/(tanh(x))"),
    (sp.exp(_X) / (1 + sp.sin(_X)), "(eˣ)/(sin(x) + 1)"),
], ids=["sin_cos", "log_tanh", "exp_sin"])
def test_the_plain_text_of_a_fraction_of_functions_keeps_its_bar(expr, text):
    assert unicode(printing.latex(expr)) == text


@pytest.mark.parametrize("expr, text", [
    # [a, −b] read "[a - b]": a matrix's columns ran together
    (sp.Matrix([[_A, -_B]]), "[a, - b]"),
    (sp.Matrix([[_A, -_B], [_B, _A]]), "[a, - b; b, a]"),
    (sp.Matrix([[_A - _B, 1]]), "[a - b, 1]"),
], ids=["row", "square", "difference"])
def test_the_plain_text_of_a_matrix_tells_its_columns_apart(expr, text):
    assert unicode(printing.latex(expr)) == text


@pytest.mark.parametrize("expr, text", [
    (sp.binomial(*sp.symbols("n k", integer=True)), "C(n, k)"),
    (sp.floor(_X), "⌊x⌋"),
    (sp.ceiling(_X) + 1, "⌈x⌉ + 1"),
], ids=["binomial", "floor", "ceiling"])
def test_the_plain_text_of_a_binomial_or_a_rounding_reads_as_one(expr, text):
    assert unicode(printing.latex(expr)) == text


_JR = sp.Symbol("j", real=True)
_JN = sp.Symbol("j", integer=True, positive=True)
_DN = sp.Symbol("d", integer=True, positive=True)


@pytest.mark.parametrize("build, index", [
    # Σ_j id(x·(j K)_j) v_j read the free j as the sum's index
    (lambda: derive.forms.memory_sum(derive.row("x", 2), _JR * derive.matrix("K", 2, 2), derive.matrix("V", 2, 1),
                                     derive.activation("identity")), "i"),
    (lambda: derive.forms.unit_sum(sp.Lambda(sp.symbols("a b", real=True), sp.Symbol("a", real=True)),
                                   sp.MatrixSymbol("x", 1, _DN), sp.MatrixSymbol("Q", _JN, _DN),
                                   sp.MatrixSymbol("K", _JN, _DN), sp.MatrixSymbol("V", _JN, 1)), "i"),
    (lambda: derive.forms.unit_sum(sp.Lambda(sp.symbols("a b", real=True), sp.Symbol("b", real=True)),
                                   derive.row("x", 2), _JR * derive.matrix("Q", 2, 2), derive.matrix("K", 2, 2),
                                   derive.matrix("V", 2, 1)), "i"),
    (lambda: derive.forms.memory_sum(derive.row("x", 2), derive.matrix("K", 2, 2), derive.matrix("V", 2, 1),
                                     derive.activation("identity")), "j"),  # nothing named j: the paper's j
], ids=["memory_sum_scaled", "unit_sum_size", "unit_sum_scaled", "plain"])
def test_a_forms_sum_runs_over_a_letter_no_operand_or_size_names(build, index):
    tex = printing.latex(build())
    assert rf"\sum_{{{index}=1}}" in tex
    if index != "j":
        assert "_{j}" not in tex


@pytest.mark.parametrize("expr, rows", [
    # {1 for x > 0; 2 for x > 1} read as cases says both 1 and 2 at x = 2; SymPy takes the first that holds
    (sp.Piecewise((1, _X > 0), (2, _X > 1), (0, True)), [r"\text{for}\: x > 0", r"\text{otherwise, for}\: x > 1"]),
    (sp.Piecewise((1, _X > 1), (2, _X > 0), (3, _X > -1), (0, True)),
     [r"\text{for}\: x > 1", r"\text{otherwise, for}\: x > 0", r"\text{otherwise, for}\: x > -1"]),
    (sp.Piecewise((_X, _X < 2), (2 * _X, _X > 0), (0, True)), [r"\text{for}\: x < 2", r"\text{otherwise, for}\: x > 0"]),
    (sp.Piecewise((1, _X > 0), (2, _X < 0), (0, True)), [r"\text{for}\: x > 0", r"\text{for}\: x < 0"]),  # apart
], ids=["nested", "three", "crossing", "apart"])
def test_a_case_that_may_overlap_an_earlier_one_reads_otherwise(expr, rows):
    tex = printing.latex(expr)
    assert all(r in tex for r in rows), tex
    if "apart" in rows[0] or rows[1].startswith(r"\text{for}"):
        assert "otherwise, for" not in tex


@pytest.mark.parametrize("expr, shown, scope", [
    # θ(x) + θ(−x) = 1 holds with θ(0) = ½, as SymPy takes it, and fails with θ(0) = 1: the value is said
    (sp.Heaviside(_X) + sp.Heaviside(-_X), r"\operatorname{H}\left(x\right)", r"\operatorname{H}(0) = \frac{1}{2}"),
    (sp.Heaviside(_X, 0), r"\operatorname{H}_{0}\left(x\right)", r"\operatorname{H}_{0}(0) = 0"),
    (sp.Heaviside(_X, 1) * _X, r"\operatorname{H}_{1}\left(x\right)", r"\operatorname{H}_{1}(0) = 1"),
], ids=["half", "zero", "one"])
def test_a_step_function_prints_with_its_value_at_zero(expr, shown, scope):
    assert shown in printing.latex(expr)
    assert scope in printing.scope([expr])[0]


@pytest.mark.parametrize("build, words", [
    # x__2 = x² printed x² = x², ab = a·b printed ab = a b, Alpha = A printed A = A: each refuted, each a tautology
    (lambda x, a, b: (sp.Symbol("x__2", real=True), x**2), "a power"),
    (lambda x, a, b: (sp.Symbol("ab", real=True), a * b), "product of a b"),
    (lambda x, a, b: (sp.Symbol("Alpha", real=True), sp.Symbol("A", real=True)), "both print as"),
], ids=["superscript", "product", "upright"])
def test_a_name_that_prints_as_an_expression_of_other_names_is_refused(build, words):
    with pytest.raises(ValueError, match=words):
        derive.claim("t.names", *build(_X, _A, _B))


def test_a_label_in_parentheses_and_a_greek_name_are_names():
    c = derive.claim("t.label", sp.Symbol("K^{(1)}", real=True) + sp.Symbol("alpha", real=True), _A)
    assert c.record()["checked"].startswith("K^{(1)} + \\alpha")


_IR = sp.Symbol("i", real=True)


@pytest.mark.parametrize("build, words", [
    # a symbol that prints as a constant: |i + i|² = i² + 1 was proved (i real beside the imaginary unit), π = π and
    # log(e e) = log(e) + 1 read as identities of the constants
    (lambda: (sp.Pow(sp.Abs(sp.Add(_IR, sp.I, evaluate=False), evaluate=False), 2, evaluate=False), _IR**2 + 1),
     "prints as i, as a constant"),
    (lambda: (sp.Symbol("pi", real=True), sp.pi), r"prints as \\pi"),
    (lambda: (sp.log(sp.Symbol("e", positive=True) * sp.E), sp.log(sp.Symbol("e", positive=True)) + 1), "prints as e"),
], ids=["i", "pi", "e"])
def test_a_symbol_that_prints_as_a_constant_is_refused(build, words):
    with pytest.raises(ValueError, match=words):
        derive.claim("t.constant_name", *build())


@pytest.mark.parametrize("name", ["2", "-1", "x + y", "x y", "|x|", "x,y", "∞"])
def test_a_symbol_whose_name_is_no_name_is_refused(name):
    with pytest.raises(ValueError, match="does not print as a name"):
        derive.claim("t.no_name", sp.Symbol(name, real=True) + _A, _A)


@pytest.mark.parametrize("build, words", [
    (lambda: (sp.Symbol("x_1_2", real=True), sp.Symbol("x_12", real=True)), "both print as"),  # x_{1 2} is x_{12}
    (lambda: (sp.MatrixSymbol("A", 2, 2)[0, :] * sp.MatrixSymbol("a_1", 1, 2).T,
              (sp.MatrixSymbol("A", 2, 2)[0, :] * sp.MatrixSymbol("a_1", 1, 2).T).as_explicit()), "a row of the matrix"),
    (lambda: (sp.MatrixSymbol("B", 2, 2)[1, :] * sp.MatrixSymbol("b_2", 1, 2).T,
              (sp.MatrixSymbol("B", 2, 2)[1, :] * sp.MatrixSymbol("b_2", 1, 2).T).as_explicit()), "a row of the matrix"),
], ids=["spaced_subscript", "row_a1", "row_b2"])
def test_names_that_typeset_alike_are_refused(build, words):
    with pytest.raises(ValueError, match=words):
        derive.claim("t.alike", *build())


@pytest.mark.parametrize("names", [("i", "x"), ("K_{1,1}", "Q_j"), ("c_+", "alpha1"), ("K'", "theta")])
def test_names_the_notebooks_use_are_names(names):
    a, b = (sp.Symbol(n, real=True) for n in names)
    c = derive.claim("t.names_kept", a * (b + 1), a * b + a).prove()
    assert c.verdict is derive.Verdict.PROVED


_KI = sp.Symbol("k", integer=True)
_JI = sp.Symbol("j", integer=True)


@pytest.mark.parametrize("build", [
    # Σ_{k=0}^{2} Σ_{k=0}^{k} 1 is one Sum with two limits on k: printed from 1, the wrong k was shifted (9 for 6)
    lambda: sp.Sum(sp.Sum(1, (_KI, 0, _KI)), (_KI, 0, 2)),
    lambda: sp.Sum(1, (_KI, 1, _KI + 1), (_KI, 0, 3)),
    lambda: sp.Product(2, (_KI, 0, 2 * _KI), (_KI, 0, 2)),
], ids=["merged", "shifted", "product"])
def test_an_index_bound_twice_is_refused(build):
    with pytest.raises(ValueError, match="bound twice"):
        derive.claim("t.rebound", build(), sp.Integer(9))


def test_sums_over_indices_of_their_own_are_read():
    c = derive.claim("t.own_indices", sp.Sum(sp.Sum(1, (_JI, 0, _KI)), (_KI, 0, 2)), sp.Integer(9)).refute()
    assert c.verdict is derive.Verdict.REFUTED  # 6, not 9


_R = sp.Symbol("r", integer=True, positive=True)


@pytest.mark.parametrize("build", [
    # i·[i + k − 2]_{k=1}^{r} was printed for i·(row of i + k at i = 0): its row index left to read as the free i
    lambda i, k: (i * sp.FunctionMatrix(1, _R, sp.Lambda((i, k), i + k)), i * sp.FunctionMatrix(1, _R, sp.Lambda((i, k), k))),
    lambda i, k: (k * sp.FunctionMatrix(_R, 1, sp.Lambda((i, k), i + k)), k * sp.FunctionMatrix(_R, 1, sp.Lambda((i, k), i))),
    lambda i, k: (i + sp.Trace(sp.FunctionMatrix(_R, _R, sp.Lambda((i, k), i * k))), i + _R),
], ids=["row", "column", "square"])
def test_a_function_matrix_whose_index_the_statement_also_names_is_refused(build):
    i, k = sp.symbols("i k", integer=True)
    with pytest.raises(ValueError, match="prints its entries over"):
        derive.claim("t.fm_clash", *build(i, k))


def test_a_row_function_matrix_prints_its_one_row_index_put_in():
    i, k = sp.symbols("i k", integer=True)
    assert notation.entries_of(sp.FunctionMatrix(1, _R, sp.Lambda((i, k), i + k)))[0] == k - 1
