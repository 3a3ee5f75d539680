"""Soundness by class, matrices and declarations: shapes SymPy compares as written, entries read outside their
matrix, sizes printed wider than declared, functions defined against their declaration, complex symbols.

Each class has at least three variants. A variant passes when the kernel gives the true answer or refuses in one line
(TypeError/ValueError naming the problem): never a false proof, a refutation at a point outside what the statement
prints, a traceback or agreement that was not seen.
"""
import pytest
import sympy as sp

import derive
from derive import Verdict
from verdicts import free, refused

P, R, C, U = Verdict.PROVED, Verdict.REFUTED, Verdict.CHECKED, Verdict.UNPROVEN
N_ = sp.Symbol("n", integer=True, positive=True)
M_ = sp.Symbol("m", integer=True, positive=True)
K0 = sp.Symbol("k", integer=True, nonnegative=True)
I_ = sp.Symbol("i", integer=True)
T_ = sp.Symbol("t")
F_ = sp.Function("f")
COLUMN = sp.ImmutableMatrix([[1], [2], [3]])


# -- SymPy's rules that compare shapes as written ------------------------------------------------------------------------
@pytest.mark.parametrize("build", [
    # 0ₙᵏ and 1ₙᵏ are Iₙ at k = 0; SymPy's rules give 0ₙ and nᵏ⁻¹1ₙ: tr(0ₙᵏ) = 0 was proved
    lambda: free("shape.zero_power", sp.Trace(sp.MatPow(sp.ZeroMatrix(N_, N_), K0)), 0),
    lambda: free("shape.ones_power", sp.MatPow(sp.OneMatrix(N_, N_), K0), N_ ** (K0 - 1) * sp.OneMatrix(N_, N_)),
    lambda: free("shape.zero_power_trace", sp.Trace(sp.MatPow(sp.ZeroMatrix(N_, N_), K0)) * sp.Trace(
        sp.MatrixSymbol("A", N_, N_)), 0),
    lambda: free("shape.zero_power_negative", sp.Trace(sp.MatPow(sp.ZeroMatrix(N_, N_), sp.Symbol("e", integer=True))), 0),
], ids=["zero", "ones", "zero_times", "integer_exponent"])
def test_a_power_of_zero_or_ones_whose_exponent_may_be_zero_is_refused(build):
    refused(build, "not known to be a positive integer")


def test_a_power_of_zero_from_one_on_is_read():
    c = free("shape.zero_power_positive", sp.Trace(sp.MatPow(sp.ZeroMatrix(N_, N_), N_)), 0).decide()
    assert c.verdict is P, c.evidence.detail


@pytest.mark.parametrize("blocks", [
    # det of a block-diagonal matrix with an n×m block is 0 by SymPy's rule, det A·det B at n = m
    lambda: (sp.MatrixSymbol("A", N_, M_), sp.MatrixSymbol("B", M_, N_)),
    lambda: (sp.MatrixSymbol("A", N_, M_ + 1), sp.MatrixSymbol("B", M_ + 1, N_)),
    lambda: (sp.MatrixSymbol("A", 2, N_), sp.MatrixSymbol("B", N_, 2)),
], ids=["n_by_m", "n_by_m_plus_1", "two_by_n"])
def test_a_block_that_may_or_may_not_be_square_is_refused(blocks):
    refused(lambda: free("shape.block_det", sp.Determinant(sp.BlockDiagMatrix(*blocks())), 0), "square for some sizes")


def test_blocks_square_as_written_are_read():
    A, B = sp.MatrixSymbol("A", N_, N_), sp.MatrixSymbol("B", M_, M_)
    c = free("shape.block_square", sp.Determinant(sp.BlockDiagMatrix(A, B)), sp.Determinant(A) * sp.Determinant(B))
    assert c.decide().verdict in (P, U), c.evidence.detail


@pytest.mark.parametrize("build", [
    # A + B of an (m + 1)×(m + 1) and an m×m matrix exists for no m; tr(A + B) = tr A + tr B was proved
    lambda: (lambda A, B: free("shape.sum", sp.Trace(A + B), sp.Trace(A) + sp.Trace(B)))(
        sp.MatrixSymbol("A", M_ + 1, M_ + 1), sp.MatrixSymbol("B", M_, M_)),
    lambda: (lambda A, B: free("shape.hadamard", sp.Trace(sp.HadamardProduct(A, B)), sp.Trace(sp.HadamardProduct(B, A))))(
        sp.MatrixSymbol("A", M_ + 1, M_ + 1), sp.MatrixSymbol("B", M_, M_)),
    lambda: (lambda A, B: free("shape.sum_may", sp.Trace(A + B), sp.Trace(A) + sp.Trace(B)))(
        sp.MatrixSymbol("A", N_, N_), sp.MatrixSymbol("B", M_, M_)),
], ids=["sum_never", "hadamard_never", "sum_may"])
def test_matrices_whose_shapes_may_differ_are_not_added(build):
    refused(build, "shapes")


# -- entries read outside their matrix --------------------------------------------------------------------------------
def _column_entry_claim():
    y = sp.MatrixSymbol("y", 3, 1)
    return free("entry.where", y[I_, 0], I_ + 1, where={y: COLUMN})


@pytest.mark.parametrize("run", [
    # [1, 2, 3][i] = i + 1 holds at every row there is; it was refuted at i = −1 by the last row's 3
    lambda: _column_entry_claim().decide(),
    lambda: free("entry.explicit", COLUMN[I_, 0], I_ + 1).decide(),
    lambda: free("entry.square", COLUMN[I_, 0] ** 2, (I_ + 1) ** 2).decide(),
], ids=["where", "explicit", "square"])
def test_an_entry_is_never_read_past_its_matrix(run):
    c = run()
    assert c.verdict in (P, C, U), c.evidence


@pytest.mark.parametrize("witness", [{I_: -1}, {I_: -3}, {I_: 3}], ids=["minus_one", "minus_three", "three"])
def test_a_given_witness_outside_the_matrix_is_refused(witness):
    refused(lambda: free("entry.witness", COLUMN[I_, 0], I_ + 1).refute(witness=witness), "outside|counted from 0")


@pytest.mark.parametrize("build", [
    lambda: free("entry.sum", sp.Sum(COLUMN[I_, 0], (I_, -1, 1)), 6),
    lambda: free("entry.sum_past", sp.Sum(COLUMN[I_, 0], (I_, 1, 3)), 5),
    lambda: free("entry.sum_where", sp.Sum(sp.MatrixSymbol("y", 3, 1)[I_, 0], (I_, -1, 1)), 6,
                 where={sp.MatrixSymbol("y", 3, 1): COLUMN}),
], ids=["explicit", "past_the_end", "where"])
def test_a_sum_over_rows_a_matrix_does_not_have_is_refused(build):
    refused(build, "counted from 0")


def test_a_sum_over_the_rows_there_are_is_read():
    c = free("entry.sum_inside", sp.Sum(COLUMN[I_, 0], (I_, 0, 2)), 6).decide()
    assert c.verdict in (P, C), c.evidence.detail


@pytest.mark.parametrize("lhs, rhs", [
    # tr A cancels: the witness gave the matrix symbol A the number −1
    (lambda A: sp.Determinant(sp.OneMatrix(K0, K0)) + sp.Trace(A), lambda A: sp.Trace(A)),
    (lambda A: sp.Trace(sp.Identity(K0)) + sp.Trace(A), lambda A: sp.Trace(A) + 1),
    (lambda A: sp.Determinant(sp.ZeroMatrix(K0, K0)) - sp.Trace(A.T), lambda A: -sp.Trace(A)),
], ids=["det_ones", "trace_identity", "det_zero"])
def test_a_witness_never_gives_a_matrix_symbol_a_number(lhs, rhs):
    A = sp.MatrixSymbol("A", K0, K0)
    c = free("entry.matrix_number", lhs(A), rhs(A)).decide()  # (each is false at k = 0)
    assert c.verdict in (R, U), c.evidence
    assert "A" not in c.evidence.witness, c.evidence.witness


@pytest.mark.parametrize("lhs, rhs", [
    (lambda A: sp.Trace(2 * A), lambda A: 2 * sp.Trace(A.T)),
    (lambda A: sp.Determinant(2 * sp.Identity(N_)), lambda A: 2**N_),
    (lambda A: sp.Determinant(sp.Inverse(2 * sp.Identity(N_))), lambda A: 2**-N_),
], ids=["trace", "det", "det_inverse"])
def test_simplify_rebuilding_a_matrix_as_a_scalar_is_no_traceback(lhs, rhs):
    A = sp.MatrixSymbol("A", N_, N_)
    c = free("entry.simplify", lhs(A), rhs(A)).decide()  # (each is true: checked at written-out sizes at most)
    assert c.verdict in (P, C, U), c.evidence.detail


# -- sizes printed as they are declared ----------------------------------------------------------------------------------
@pytest.mark.parametrize("size, f, says", [
    # (−1)ⁿ tr A = tr A for an even n was printed "for all sizes n ≥ 0"
    (sp.Symbol("n", integer=True, nonnegative=True, even=True), sp.Lambda(T_, (-1) ** T_), r"n \in 2\mathbb{Z}"),
    (sp.Symbol("n", integer=True, positive=True, odd=True), sp.Lambda(T_, -(-1) ** T_), r"n \in (2\mathbb{Z} + 1)"),
    (sp.Symbol("n", integer=True, nonzero=True), sp.Lambda(T_, sp.sign(T_) ** 2), r"n \in \mathbb{Z} \setminus \{0\}"),
], ids=["even", "odd", "nonzero"])
def test_a_size_declared_narrower_is_printed_so(size, f, says):
    A = sp.MatrixSymbol("A", size**2, size**2)
    c = free("size.declared", F_(size) * sp.Trace(A), sp.Trace(A), where={F_: f})
    scope = c.record()["scope_tex"]
    assert says in scope and "all sizes" not in scope, scope


def test_a_symbol_in_a_size_difference_is_printed_as_declared():
    n0, m0 = sp.Symbol("n", integer=True, nonnegative=True), sp.Symbol("m", integer=True, nonpositive=True)
    A = sp.MatrixSymbol("A", n0 - m0, n0 - m0)
    c = free("size.difference", F_(m0) * sp.Determinant(A), 0, where={F_: sp.Lambda(T_, sp.Abs(T_) + T_)})
    scope = c.record()["scope_tex"]
    assert r"m \in \mathbb{Z}_{\leq 0}" in scope and r"\left(- m + n\right)" in scope and "all sizes" not in scope, scope


# -- a function defined against its declaration, and symbols declared nothing ----------------------------------------------
@pytest.mark.parametrize("build", [
    # σ declared real, defined t ↦ t·√(3 − t): a witness at 4 refuted with a complex residual what holds where σ is real
    lambda: free("fn.real", derive.sigma(a_ := sp.Symbol("a", real=True)) * 2, 2 * a_,
                 where={derive.sigma: sp.Lambda(T_, sp.Piecewise((T_, T_ <= 3), (T_ * sp.sqrt(3 - T_), True)))}),
    lambda: free("fn.positive", sp.Function("g", positive=True)(sp.Symbol("a", real=True)), -1,
                 where={sp.Function("g", positive=True): sp.Lambda(T_, -1)}),
    lambda: free("fn.imaginary", derive.sigma(sp.Symbol("a", real=True)) ** 2 + 1, 0,
                 where={derive.sigma: sp.Lambda(T_, sp.I)}),
], ids=["sqrt_piece", "positive", "imaginary"])
def test_a_function_defined_against_its_declaration_is_refused(build):
    refused(build, "breaks the assumption")


_TP, _TI, _TN = sp.Symbol("t", positive=True), sp.Symbol("t", integer=True), sp.Symbol("t", nonnegative=True)
_AR = sp.Symbol("a", real=True)


@pytest.mark.parametrize("build", [
    # a function written in a variable declared narrower than where it is applied: SymPy rewrote its body for those
    # values (2√(t²) is 2t for a positive t), so σ(a) = 2a was proved for the function t ↦ 2√(t²), false at a = −1
    lambda: free("fn.narrow_positive", derive.sigma(_AR), 2 * _AR, where={derive.sigma: sp.Lambda(_TP, 2 * sp.sqrt(_TP**2))}),
    lambda: free("fn.narrow_integer", F_(sp.Rational(1, 2)), sp.Rational(3, 2),
                 where={F_: sp.Lambda(_TI, sp.floor(_TI) + 1)}),
    lambda: free("fn.narrow_nonnegative", F_(_AR) + F_(-_AR), 2 * sp.Abs(_AR),
                 where={F_: sp.Lambda(_TN, sp.Abs(_TN) + sp.sqrt(_TN**2))}),
    lambda: free("fn.narrow_entrywise", sp.MatrixSymbol("A", N_, N_).applyfunc(sp.Lambda(_TP, 2 * sp.sqrt(_TP**2))),
                 2 * sp.MatrixSymbol("A", N_, N_)),
    lambda: derive.chain("fn.narrow_step", (derive.sigma(_AR) * 2, derive.sigma(_AR) * 2), expect=None).step(
        (4 * _AR, 4 * _AR), derive.rules.instantiate({derive.sigma: sp.Lambda(_TP, 2 * sp.sqrt(_TP**2))})),
    # f(t) = Σ_{k=0}^{2} 1/(t + k²) for a positive t, put at a real a: no value at a = −1
    lambda: free("fn.narrow_sum", F_(_AR) - F_(2 * _AR), 0,
                 where={F_: sp.Lambda(_TP, sp.Sum(1 / (_TP + sp.Symbol("k", integer=True)**2),
                                                  (sp.Symbol("k", integer=True), 0, 2)))}),
], ids=["positive", "integer", "nonnegative", "entrywise", "chain_step", "sum"])
def test_a_function_written_in_a_variable_narrower_than_its_arguments_is_refused(build):
    refused(build, "declared (positive|integer|nonnegative)")


_MI, _KI, _XR = sp.Symbol("m", integer=True), sp.Symbol("k", integer=True), sp.Symbol("x", real=True)


@pytest.mark.parametrize("build", [
    # a Subs whose variable is declared narrower than its point: SymPy built the body for the declared values, and
    # Σ_{k=0}^{2} δ(k, m) at m = x was proved equal to [0 ≤ x ≤ 2] (0 beside 1 at x = ½; refuted written without Subs)
    lambda: free("bind.subs_real", sp.Subs(sp.Sum(sp.KroneckerDelta(_KI, _MI), (_KI, 0, 2)), _MI, _XR),
                 sp.Subs(sp.Piecewise((1, (_MI >= 0) & (_MI <= 2)), (0, True)), _MI, _XR)),
    # a range that runs forwards for the declared m, backwards at the point: proved −2 under both readings' values
    lambda: free("bind.subs_backwards", sp.Subs(sp.Sum(1 - sp.KroneckerDelta(_KI, 0), (_KI, sp.Symbol("m", integer=True,
                 negative=True), -2)), sp.Symbol("m", integer=True, negative=True), 1), -2),
    lambda: derive.chain("bind.subs_half", (sp.Subs(sp.Sum(1, (_KI, 0, sp.Symbol("m", integer=True, nonnegative=True))),
                                                    sp.Symbol("m", integer=True, nonnegative=True), sp.Rational(1, 2)),
                                            sp.Rational(3, 2)), expect=None),
    # a FunctionMatrix takes its entry at index 0 too: i declared positive made row 0 an empty-printed Σ_{k=1}^{-1}
    lambda: free("bind.function_matrix", sp.FunctionMatrix(3, 1, sp.Lambda((sp.Symbol("i", integer=True, positive=True),
                 _KI), sp.Sum(1, (sp.Symbol("q", integer=True), 1, sp.Symbol("i", integer=True, positive=True) - 1)))),
                 sp.Matrix([[-1], [0], [1]])),
    # an integral's variable declared positive: ∫_{-1}^{1} sign t dt was built as ∫_{-1}^{1} 1 dt and checked equal to 2
    lambda: free("bind.integral_sign", sp.Integral(sp.sign(sp.Symbol("t", positive=True)), (sp.Symbol("t", positive=True),
                 -1, 1)), 2),
    lambda: free("bind.integral_abs", sp.Integral(sp.Abs(sp.Symbol("t", nonnegative=True)) * _XR,
                 (sp.Symbol("t", nonnegative=True), -1, 1)), 0),
], ids=["subs_real_point", "subs_backwards", "subs_chain", "function_matrix", "integral_sign", "integral_abs"])
def test_a_variable_bound_narrower_than_the_values_it_takes_is_refused(build):
    refused(build, "declared .*which .* is not known to be")


def test_variables_bound_as_broadly_as_their_values_are_read():
    m = sp.Symbol("m")
    c = free("bind.subs_plain", sp.Subs(m**2 + m, m, _XR), _XR**2 + _XR).decide()  # (read, not refused)
    assert c.verdict in (P, C), c.evidence.detail
    i, j = sp.symbols("i j", integer=True, nonnegative=True)
    c = free("bind.function_matrix_ok", sp.FunctionMatrix(2, 1, sp.Lambda((i, j), i + j)), sp.Matrix([[0], [1]])).decide()
    assert c.verdict in (P, U), c.evidence.detail  # (read, not refused)


def test_a_function_in_a_variable_its_arguments_meet_is_read():
    j = sp.Symbol("j", integer=True)
    c = free("fn.narrow_met", F_(j + 1), j + 2, where={F_: sp.Lambda(_TI, _TI + 1)}).decide()
    assert c.verdict is P, c.evidence.detail


@pytest.mark.parametrize("expression", ["Piecewise((z, z <= 3), (z*sqrt(3 - z), True))", "sqrt(9 - z**2)",
                                        "Piecewise((z, z < 3), (sqrt(-z), True))"], ids=["piece", "circle", "root"])
def test_an_activation_not_real_on_the_whole_line_is_not_classified(expression):
    with pytest.raises(ValueError) as info:
        derive.classify(expression)
    assert "\n" not in str(info.value) and "real" in str(info.value)


@pytest.mark.parametrize("lhs, rhs", [
    # a symbol declared nothing is complex: |y|² = y² was checked at real points only, and printed with no scope
    (lambda y: sp.Abs(y) ** 2, lambda y: y**2),
    (lambda y: sp.sqrt(y**2), lambda y: sp.Abs(y)),
    (lambda y: sp.re(y), lambda y: y),
], ids=["abs_square", "sqrt_square", "real_part"])
def test_a_symbol_declared_nothing_is_read_and_printed_as_complex(lhs, rhs):
    y = sp.Symbol("y")
    c = free("complex.checked", lhs(y), rhs(y))
    assert r"y \in \mathbb{C}" in c.record()["scope_tex"]
    c.decide()
    assert c.verdict in (R, U), c.evidence


@pytest.mark.parametrize("lhs, rhs", [
    # tr A = tr Aᵀ and det A = det Aᵀ were proved for an n×m A; so was tr(A ⊗ B) = tr(B ⊗ A), false at n = 2, m = 3
    (lambda A, B: sp.Trace(A), lambda A, B: sp.Trace(A.T)),
    (lambda A, B: sp.Determinant(A), lambda A, B: sp.Determinant(A.T)),
    (lambda A, B: sp.Trace(sp.MatPow(A, 0)), lambda A, B: N_),
    (lambda A, B: sp.Trace(sp.KroneckerProduct(A, B)), lambda A, B: sp.Trace(sp.KroneckerProduct(B, A))),
    (lambda A, B: sp.Determinant(sp.KroneckerProduct(A, B)), lambda A, B: 0),
], ids=["trace", "det", "power_zero", "kronecker_trace", "kronecker_det"])
def test_what_needs_a_square_matrix_is_refused_of_one_that_may_not_be(lhs, rhs):
    A, B = sp.MatrixSymbol("A", N_, M_), sp.MatrixSymbol("B", M_, N_)
    refused(lambda: free("shape.square", lhs(A, B), rhs(A, B)), "needs .* square")


# -- the same rules, reached as SymPy evaluates (derive.kernel.squares) --------------------------------------------------
def _zero_base(A):
    return sp.MatAdd(A, -A)


@pytest.mark.parametrize("lhs, rhs", [
    # a base SymPy evaluates to 0ₙ or 1ₙ, raised to a k that may be 0: SymPy's rule gave 0ₙ (1ₙᵏ = nᵏ⁻¹1ₙ), though
    # at k = 0 the power is Iₙ; each was proved
    (lambda A: sp.Trace(sp.MatPow(sp.Transpose(sp.ZeroMatrix(N_, N_)), K0)), lambda A: 0),
    (lambda A: sp.MatPow(_zero_base(A), K0), lambda A: sp.ZeroMatrix(N_, N_)),
    (lambda A: sp.MatPow(sp.HadamardProduct(A, sp.ZeroMatrix(N_, N_)), K0), lambda A: sp.ZeroMatrix(N_, N_)),
    (lambda A: sp.MatPow(sp.MatMul(sp.ZeroMatrix(N_, N_), A), K0), lambda A: sp.ZeroMatrix(N_, N_)),
    (lambda A: sp.MatPow(sp.Transpose(sp.OneMatrix(N_, N_)), K0), lambda A: N_ ** (K0 - 1) * sp.OneMatrix(N_, N_)),
    (lambda A: sp.Determinant(sp.MatPow(sp.HadamardProduct(A, sp.ZeroMatrix(N_, N_)), K0)), lambda A: 0),
], ids=["transpose_zero", "difference", "hadamard_zero", "product_zero", "transpose_ones", "det"])
def test_a_power_of_what_evaluates_to_zero_or_ones_is_not_read_at_an_exponent_that_may_be_zero(lhs, rhs):
    A = sp.MatrixSymbol("A", N_, N_)
    c = free("shape.evaluated_power", lhs(A), rhs(A)).decide()
    assert c.verdict in (R, U), c.evidence.detail


def test_a_chain_step_to_a_power_of_what_evaluates_to_zero_is_not_taken():
    from derive import rules
    ch = derive.chain("shape.evaluated_power_chain", (sp.MatPow(sp.Transpose(sp.ZeroMatrix(N_, N_)), K0),
                                                      sp.MatPow(sp.Transpose(sp.ZeroMatrix(N_, N_)), K0)), expect=None)
    ch.step((sp.ZeroMatrix(N_, N_), sp.MatPow(sp.Transpose(sp.ZeroMatrix(N_, N_)), K0)), rules.rearrange())
    assert ch.verdict is not P


def test_a_power_of_what_evaluates_to_zero_from_one_on_is_read():
    c = free("shape.evaluated_power_positive", sp.Trace(sp.MatPow(sp.Transpose(sp.ZeroMatrix(N_, N_)), K0 + 1)),
             0).decide()
    assert c.verdict is P, c.evidence.detail


@pytest.mark.parametrize("wrap", [
    # tr(W(A ⊗ B)) = tr(W(B ⊗ A)) for an n×m A and an m×n B: W evaluates away, and SymPy's trace of the Kronecker
    # product it leaves is tr A·tr B, as for square factors; proved for each W, false at n = 2, m = 3
    lambda K: sp.Transpose(K),
    lambda K: sp.MatMul(K, sp.Identity(N_ * M_)),
    lambda K: sp.HadamardProduct(K, sp.OneMatrix(N_ * M_, N_ * M_)),
    lambda K: sp.Transpose(sp.Transpose(K)),
    lambda K: sp.BlockDiagMatrix(K),
], ids=["transpose", "times_identity", "hadamard_ones", "double_transpose", "block_diagonal"])
def test_a_trace_of_a_kronecker_product_of_factors_that_may_not_be_square_is_not_read_when_evaluation_reaches_it(wrap):
    A, B = sp.MatrixSymbol("A", N_, M_), sp.MatrixSymbol("B", M_, N_)
    c = free("shape.kronecker_evaluated", sp.Trace(wrap(sp.KroneckerProduct(A, B))),
             sp.Trace(wrap(sp.KroneckerProduct(B, A)))).decide()
    assert c.verdict in (R, U), c.evidence.detail


def test_a_trace_of_a_kronecker_product_of_square_factors_reached_by_evaluation_is_read():
    A, B = sp.MatrixSymbol("A", N_, N_), sp.MatrixSymbol("B", M_, M_)
    c = free("shape.kronecker_square", sp.Trace(sp.Transpose(sp.KroneckerProduct(A, B))),
             sp.Trace(A) * sp.Trace(B)).decide()
    assert c.verdict is P, c.evidence.detail


@pytest.mark.parametrize("blocks, square", [
    # SymPy's determinant of a block-diagonal matrix is 0 wherever it does not know each block square, though an n×m
    # block beside an m×n one is square at n = m (its inverse, likewise, raised); and the same rules of derive's
    # kernel, asked directly
    (lambda: (sp.MatrixSymbol("A", N_, M_), sp.MatrixSymbol("B", M_, N_)), None),
    (lambda: (sp.MatrixSymbol("A", 2, N_), sp.MatrixSymbol("B", N_, 2)), None),
    (lambda: (sp.MatrixSymbol("A", 2, 3), sp.MatrixSymbol("B", 3, 2)), False),
    (lambda: (sp.MatrixSymbol("A", N_, N_), sp.MatrixSymbol("B", M_, M_)), True),
], ids=["n_by_m", "two_by_n", "two_by_three", "square"])
def test_the_determinant_and_inverse_of_a_block_diagonal_matrix_are_read_only_where_its_blocks_are_known(blocks, square):
    D = sp.BlockDiagMatrix(*blocks())
    det = D._eval_determinant()
    if square is None:
        assert det == sp.Determinant(D) and D._eval_inverse() == sp.Inverse(D)
    elif square is False:
        assert det == 0
        with pytest.raises(sp.matrices.exceptions.NonInvertibleMatrixError):
            D._eval_inverse()
    else:
        A, B = D.args
        assert det == sp.det(A) * sp.det(B) and D._eval_inverse() == sp.BlockDiagMatrix(A.inverse(), B.inverse())


@pytest.mark.parametrize("lhs, rhs", [
    # at i = 0 the inner sum reads X[0, −1], which Python's indexing makes x₃: Σ_i Σ_{j=i−1}^{i} x_j = x₁ + x₃ was checked
    (lambda X, i, j: sp.Sum(sp.Sum(X[0, j], (j, i - 1, i)), (i, 0, 0)), lambda X, i, j: X[0, 0] + X[0, 2]),
    (lambda X, i, j: sp.Product(sp.Product(X[0, j], (j, i - 1, i)), (i, 0, 0)), lambda X, i, j: X[0, 0] * X[0, 2]),
    (lambda X, i, j: sp.Sum(X[0, j] * X[0, i], (j, i, i + 1), (i, 1, 2)), lambda X, i, j: X[0, 1] ** 2),
], ids=["sum", "product", "upper_past"])
def test_an_inner_sum_whose_limits_use_an_outer_index_is_read_at_each_of_its_values(lhs, rhs):
    X = sp.ImmutableMatrix(1, 3, sp.symbols("x_1:4", real=True))
    i, j = sp.symbols("i j", integer=True)
    refused(lambda: free("entry.nested", lhs(X, i, j), rhs(X, i, j)), "counted from 0")


@pytest.mark.parametrize("run", [
    # |f(y)|² = f(y)² for y ∈ ℂ holds at every value f: ℝ → ℝ takes; it was refuted at y = 3 + 10i/3
    lambda y, f: free("fn.off_line", sp.Abs(f(y)) ** 2, f(y) ** 2).check(),
    lambda y, f: free("fn.off_line_decide", sp.Abs(f(y)) ** 2, f(y) ** 2).decide(),
    lambda y, f: free("fn.off_line_im", sp.im(f(y)), 0).check(),
], ids=["check", "decide", "imaginary_part"])
def test_a_function_is_never_applied_off_the_real_line(run):
    c = run(sp.Symbol("y"), sp.Function("f"))
    assert c.verdict in (P, C, U), c.evidence


def test_a_given_witness_applying_a_function_off_the_real_line_is_refused():
    y, f = sp.Symbol("y"), sp.Function("f")
    refused(lambda: free("fn.off_line_given", sp.Abs(f(y)) ** 2, f(y) ** 2).refute(
        witness={y: 1 + sp.I, f: sp.Lambda(T_, T_)}), "off the real line")


_YC, _WC = sp.Symbol("y"), sp.Symbol("w")  # (_XR: the real x above)


@pytest.mark.parametrize("run", [
    # SymPy squared the sign of any nonzero number to 1, sign(3 + 4i)² too, which is (3 + 4i)²/25: each is true
    lambda: free("sign.conjugate", sp.sign(_YC) ** 2, _YC / sp.conjugate(_YC), assume=[sp.Ne(_YC, 0)]).decide(),
    lambda: free("sign.abs", sp.sign(_YC) ** 2 * sp.Abs(_YC) ** 2, _YC**2).check(),
    lambda: free("sign.two", sp.sign(_YC) * sp.sign(_WC), _YC * _WC / (sp.Abs(_YC) * sp.Abs(_WC)),
                 assume=[sp.Ne(_YC, 0), sp.Ne(_WC, 0)]).refute(witness={_YC: 1 + sp.I, _WC: 1 + sp.I}),
    lambda: free("sign.product", sp.Mul(sp.sign(_YC), sp.sign(_YC), evaluate=False), _YC / sp.conjugate(_YC),
                 assume=[sp.Ne(_YC, 0)]).refute(witness={_YC: 1 + sp.I}),
], ids=["conjugate", "abs", "two_signs_at_one_point", "unevaluated_product"])
def test_the_square_of_a_complex_sign_is_not_one(run):
    try:
        c = run()
    except ValueError as exc:  # a given witness that refutes nothing
        assert "\n" not in str(exc) and "no witness" in str(exc), exc
        return
    assert c.verdict in (P, C, U), c.evidence


@pytest.mark.parametrize("build", [
    # false at a complex (or imaginary) value: sign(i)² = −1
    lambda: free("sign.one", sp.sign(_YC) ** 2, 1, assume=[sp.Ne(_YC, 0)]),
    lambda: free("sign.shifted", sp.sign(_XR + sp.I) ** 2, 1),
    lambda: free("sign.where", sp.Function("g")(_XR), 1,
                 where={sp.Function("g"): sp.Lambda(T_, sp.sign(T_ + sp.I) ** 2)}),
], ids=["one", "shifted", "where"])
def test_a_false_statement_about_a_complex_signs_square_is_never_proved_or_checked(build):
    try:
        c = build().decide()
    except ValueError as exc:
        assert "\n" not in str(exc)
        return
    assert c.verdict in (R, U), c.evidence


def test_a_chain_step_squaring_a_complex_sign_proves_nothing_false():
    # sign(x + i) = (x + i)/|x + i| ⟹ 1 = (x + i)²/|x + i|² (false at x = 0) was proved through rules.apply(t ↦ t²)
    t = sp.Symbol("t")
    ch = derive.chain("sign.apply", (sp.sign(_XR + sp.I), (_XR + sp.I) / sp.Abs(_XR + sp.I)), expect=None)
    ch.step((1, (_XR + sp.I) ** 2 / sp.Abs(_XR + sp.I) ** 2), derive.rules.apply(sp.Lambda(t, t**2)))
    assert ch.verdict is not P, ch


def test_the_sign_of_a_real_value_is_read():
    y = sp.Symbol("y", real=True)
    c = free("complex.sign_real", sp.sign(y) * sp.Abs(y), y).decide()
    assert c.verdict is P, c.evidence.detail


@pytest.mark.parametrize("lhs, rhs, kw, allowed", [
    # I₃[i, j] is SymPy's δ(i, j, (0, 2)), printed δ_{ij}: δ_{ij}² = δ_{ij} was refuted at i = j = −1, outside I₃
    (lambda i, j: sp.Identity(3)[i, j] ** 2, lambda i, j: sp.KroneckerDelta(i, j), {}, (P, C, U)),
    (lambda i, j: sp.Identity(N_)[i, j] * 2, lambda i, j: 2 * sp.KroneckerDelta(i, j), {}, (P, C, U)),
    # checked at points that are all off I₃ (false as printed at i = j = 3): no point there has a value
    (lambda i, j: sp.Identity(3)[i, j], lambda i, j: 0, dict(assume=lambda i, j: [i > 2]), (U,)),
], ids=["square", "symbolic_size", "past_the_end"])
def test_an_identity_entry_is_never_read_past_the_identity(lhs, rhs, kw, allowed):
    i, j = sp.symbols("i j", integer=True)
    c = free("entry.identity", lhs(i, j), rhs(i, j), **{k: v(i, j) for k, v in kw.items()}).decide()
    assert c.verdict in allowed, c.evidence


@pytest.mark.parametrize("lhs", [
    lambda i: sp.Sum(sp.Identity(3)[i, 1], (i, 3, 5)),
    lambda i: sp.Sum(sp.Identity(3)[1, i], (i, -1, 1)),
    lambda i: sp.Product(1 + sp.Identity(2)[i, 1], (i, 0, 2)),
], ids=["rows_past", "column_before", "product"])
def test_a_sum_over_an_identitys_missing_entries_is_refused(lhs):
    refused(lambda: free("entry.identity_sum", lhs(sp.Symbol("i", integer=True)), 0), "counted from 0")


@pytest.mark.parametrize("lhs, rhs", [
    # the sign split put i = 3 into M[i, 0] of a 3-row M: SymPy's IndexError
    (lambda i: sp.Piecewise((COLUMN[i, 0], i < 3), (i + 1, True)), lambda i: i + 1),
    (lambda i: sp.Piecewise((COLUMN[i, 0], i <= 2), (0, True)), lambda i: sp.Piecewise((i + 1, i <= 2), (0, True))),
    (lambda i: sp.Max(i, 3) * COLUMN[i, 0], lambda i: 3 * COLUMN[i, 0]),
], ids=["selected", "selected_le", "max"])
def test_a_case_that_reads_an_entry_past_its_matrix_is_no_traceback(lhs, rhs):
    i = sp.Symbol("i", integer=True)
    c = free("entry.case", lhs(i), rhs(i)).decide()
    assert c.verdict in (P, C, U), c.evidence


def test_a_function_defined_against_its_declaration_is_refused_in_one_line():
    refused(lambda: free("fn.matrix_body", sp.Function("f", real=True)(sp.Symbol("a", real=True)), 1,
                         where={sp.Function("f", real=True): sp.Lambda(T_, COLUMN[T_, 0] * sp.I)}), "breaks")


@pytest.mark.parametrize("lhs, rhs", [
    # δ(i, j, (1, 3)) prints δ_{ij} and is 0 outside 1 … 3: δ_{ij}² = δ_{ij} was refuted at i = j = −1
    (lambda i, j: sp.KroneckerDelta(i, j, (1, 3)) ** 2, lambda i, j: sp.KroneckerDelta(i, j)),
    (lambda i, j: 2 * sp.KroneckerDelta(i, j, (1, 3)), lambda i, j: 2 * sp.KroneckerDelta(i, j)),
    (lambda i, j: sp.KroneckerDelta(i, j, (2, 5)) * i, lambda i, j: sp.KroneckerDelta(i, j) * j),
], ids=["square", "twice", "times_index"])
def test_a_delta_of_a_range_is_read_only_inside_it(lhs, rhs):
    i, j = sp.symbols("i j", integer=True)
    c = free("entry.delta_range", lhs(i, j), rhs(i, j)).decide()
    assert c.verdict in (P, C, U), c.evidence


# -- SymPy's own readings of complex values, as derive installs them -------------------------------------------------
@pytest.mark.parametrize("run, allowed", [
    # sinc(2i) = sinh(2)/2 ≈ 1.813 has an enclosure off the real line's zero but no certified sign: it was read as 0
    (lambda: free("sinc.zero", sp.sinc(2 * sp.I), 0).decide(), (R, U)),
    (lambda: free("sinc.zero_times", sp.sinc(2 * sp.I) * sp.Symbol("x", real=True), 0).decide(), (R, U)),
    (lambda: free("sinc.abs", sp.Abs(sp.sinc(sp.I)), sp.sinc(sp.I)).decide(), (P, C, U)),  # true: sinc(i) > 0
], ids=["zero", "times_x", "abs"])
def test_a_real_number_with_a_complex_enclosure_is_never_read_as_zero(run, allowed):
    c = run()
    assert c.verdict in allowed, c.evidence
    assert sp.sinc(sp.I).is_zero is not True and (sp.sinc(sp.I) - 1).is_positive is not False


_XL = sp.Symbol("x", real=True)


@pytest.mark.parametrize("run", [
    # li(−2) = 0.036 + 3.735i is not its own conjugate; SymPy folded conj(li(x)) to li(x) for a real x of any sign
    lambda: free("conj.where", sp.conjugate(sp.Function("g")(_XL)), sp.Function("g")(_XL),
                 where={sp.Function("g"): sp.Lambda(T_, sp.li(T_))}, assume=[sp.Ne(_XL, 1)]).decide(),
    lambda: free("conj.abs", sp.Abs(sp.Function("g")(_XL) + sp.I), sp.sqrt(sp.Function("g")(_XL) ** 2 + 1),
                 where={sp.Function("g"): sp.Lambda(T_, sp.li(T_))}, assume=[sp.Ne(_XL, 1)]).decide(),
    lambda: derive.chain("conj.chain", (sp.li(_XL), sp.li(-2)), assume=[sp.Ne(_XL, 1)], expect=None).step(
        (sp.li(_XL), sp.conjugate(sp.li(-2))), derive.rules.apply(sp.conjugate)),
    lambda: free("conj.loggamma", sp.conjugate(sp.loggamma(_XL)), sp.loggamma(_XL)).prove(),
], ids=["where", "abs", "chain", "loggamma"])
def test_a_conjugate_is_never_folded_across_a_branch_cut(run):
    c = run()
    assert c.verdict is not P, c


# -- parts of a matrix whose shape SymPy reads for some sizes only --------------------------------------------------------
_A_NN = sp.MatrixSymbol("A", N_, N_)
_B_NM = sp.MatrixSymbol("B", N_, M_)


@pytest.mark.parametrize("build", [
    # diag(1₂ₓₘ) was read as 2 entries: diag(1₂ₓₘ)ᵀ diag(1₂ₓₘ) = [2] was proved, false at m = 1
    lambda: free("part.diag_two", sp.DiagonalOf(sp.OneMatrix(2, M_)).T * sp.DiagonalOf(sp.OneMatrix(2, M_)),
                 sp.ImmutableMatrix([[2]])),
    lambda: derive.chain("part.diag_chain", (sp.MatrixSymbol("X", 1, 1), sp.DiagonalOf(sp.OneMatrix(2, M_)).T
                                             * sp.DiagonalOf(sp.OneMatrix(2, M_))), expect=None),
    lambda: free("part.diag_rows", sp.DiagonalOf(sp.OneMatrix(M_, 3)).T * sp.DiagonalOf(sp.OneMatrix(M_, 3)),
                 sp.ImmutableMatrix([[3]])),
    # n×m: SymPy's shape is unknown (None), which ended in a traceback
    lambda: free("part.diag_unknown", sp.Trace(sp.DiagMatrix(sp.DiagonalOf(_B_NM))), sp.Trace(sp.DiagonalOf(_B_NM).T
                                                                                              * sp.OneMatrix(N_, 1))),
], ids=["two_by_m", "chain", "m_by_three", "n_by_m"])
def test_a_diagonal_of_a_matrix_that_may_not_be_square_is_refused(build):
    refused(build, "the diagonal of the")


def test_a_diagonal_of_a_square_matrix_is_read():
    c = free("part.diag_square", sp.Trace(sp.DiagMatrix(sp.DiagonalOf(_A_NN))), sp.Trace(_A_NN)).decide()
    assert c.verdict in (P, U), c.evidence.detail


@pytest.mark.parametrize("build", [
    # SymPy counts ⌊n/2⌋ rows of 1ₙₓₙ[::2, :]; there are ⌈n/2⌉: its Gram matrix ⌊n/2⌋·1ₙₓₙ was proved, false at n = 3
    lambda: free("part.step_rows", sp.OneMatrix(N_, N_)[::2, :].T * sp.OneMatrix(N_, N_)[::2, :],
                 sp.floor(N_ / 2) * sp.OneMatrix(N_, N_)),
    lambda: free("part.step_three", sp.MatrixSymbol("B", 3, 3)[::2, :].T * sp.MatrixSymbol("B", 3, 3)[::2, :],
                 sp.MatrixSymbol("B", 3, 3)[0, :].T * sp.MatrixSymbol("B", 3, 3)[0, :]),
    lambda: free("part.step_cols", sp.OneMatrix(N_, N_)[:, ::3] * sp.OneMatrix(N_, N_)[:, ::3].T,
                 sp.floor(N_ / 3) * sp.OneMatrix(N_, N_)),
], ids=["rows_n", "rows_three", "cols_n"])
def test_a_slice_whose_step_may_not_divide_its_length_is_refused(build):
    refused(build, "with a step of")


@pytest.mark.parametrize("build", [
    # 1ₙₓₙ[0:2, 0:2] does not exist at n = 1; (1ₙₓₙ[0:2, 0:2])² = 2·1ₙₓₙ[0:2, 0:2] was proved "for n ≥ 1"
    lambda: free("part.corner", sp.OneMatrix(N_, N_)[0:2, 0:2] ** 2, 2 * sp.OneMatrix(N_, N_)[0:2, 0:2]),
    lambda: free("part.from_one", _A_NN[1:, :].T * _A_NN[1:, :], _A_NN.T * _A_NN - _A_NN[0, :].T * _A_NN[0, :]),
    lambda: free("part.last_two", sp.Trace(_A_NN[N_ - 2:N_, N_ - 2:N_]), _A_NN[N_ - 2, N_ - 2] + _A_NN[N_ - 1, N_ - 1]),
], ids=["corner", "from_row_one", "last_two"])
def test_a_slice_that_may_lie_outside_its_matrix_is_refused(build):
    refused(build, "which it does not have for every value of the sizes")


def test_a_slice_inside_its_matrix_is_read():
    c = free("part.first_row", _A_NN[0, :] * _A_NN[0, :].T, _A_NN[0, :] * _A_NN.T[:, 0]).decide()
    assert c.verdict in (P, U), c.evidence.detail


@pytest.mark.parametrize("vector", [
    lambda: _B_NM,
    lambda: sp.MatrixSymbol("C", N_, 2),
    lambda: sp.MatrixSymbol("C", 2, M_),
], ids=["n_by_m", "n_by_two", "two_by_m"])
def test_a_diagonal_matrix_of_what_is_not_a_row_or_a_column_is_refused(vector):
    refused(lambda: free("part.diag_matrix", sp.Trace(sp.DiagMatrix(vector())), 0), "not a row or a column")


# -- a determinant at a witness of size 0 -----------------------------------------------------------------------------
_M0 = sp.Symbol("m", integer=True, nonnegative=True)


@pytest.mark.parametrize("lhs", [
    # SymPy's rules gave det(0₀ ⊗ 0₀) = nan, and the point was passed over: det(0ₖ ⊗ 0ₘ) = 0 was "checked"
    lambda: sp.Determinant(sp.KroneckerProduct(sp.ZeroMatrix(K0, K0), sp.ZeroMatrix(_M0, _M0))),
    lambda: sp.Determinant(sp.KroneckerProduct(sp.Identity(K0), sp.ZeroMatrix(_M0, _M0))),
    lambda: sp.Determinant(sp.KroneckerProduct(sp.ZeroMatrix(K0, K0), sp.Identity(2))),
], ids=["zero_zero", "identity_zero", "zero_identity"])
def test_a_determinant_of_the_empty_matrix_is_one_at_a_witness(lhs):
    c = free("empty.det", lhs(), 0).decide()
    assert c.verdict is R, c.evidence.detail
    values = {k: int(v) for k, v in c.evidence.witness.items()}
    assert 0 in values.values()


# -- SymPy's rules that miss a zero (derive.kernel.zeros) ----------------------------------------------------------------
_XZ, _AZ, _BZ = sp.symbols("x a b", real=True)
_KZ = sp.Symbol("k", integer=True)
_IU = sp.Symbol("iu", imaginary=True)
_G = sp.Function("g")


@pytest.mark.parametrize("build", [
    # acot is odd except at 0 (acot 0 = π/2): acot((1 − x)(1 + x)) = −acot(x² − 1) was proved, false at x = 1
    lambda: free("zero.acot", sp.acot((1 - _XZ) * (1 + _XZ)), -sp.acot(_XZ**2 - 1)).decide(),
    lambda: derive.chain("zero.acot_chain", (_XZ, -_BZ), expect=None).step((sp.acot(_XZ), -sp.acot(_BZ)),
                                                                             derive.rules.apply(sp.acot)),
    lambda: free("zero.acoth", sp.acoth((1 - _XZ) * (1 + _XZ)), -sp.acoth(_XZ**2 - 1),
                 assume=[sp.Ne(1 - (1 - _XZ)**2 * (1 + _XZ)**2, 0), sp.Ne(1 - (_XZ**2 - 1)**2, 0)]).decide(),
    # acoth(i·x) = −i·acot(x) fails at x = 0 (iπ/2 against −iπ/2)
    lambda: free("zero.acoth_i", _G(_XZ), -sp.I * sp.acot(_XZ), where={_G: sp.Lambda(T_, sp.acoth(sp.I * T_))}).decide(),
], ids=["acot", "acot_chain", "acoth", "acoth_i"])
def test_a_function_odd_away_from_zero_is_not_rewritten_where_its_argument_may_be_zero(build):
    c = build()
    assert c.verdict is not P, c


@pytest.mark.parametrize("build", [
    # atan, asin of a rational and acos of one were read irrational, hence nonzero: atan(k)·a = atan(k)·b ⟹ a = b
    lambda: derive.chain("zero.atan", (sp.atan(_KZ) * _AZ, sp.atan(_KZ) * _BZ), expect=None).step(
        (_AZ, _BZ), derive.rules.divide(sp.atan(_KZ))),
    lambda: derive.chain("zero.acos", (sp.acos(_KZ) * _AZ, sp.acos(_KZ) * _BZ), expect=None).step(
        (_AZ, _BZ), derive.rules.divide(sp.acos(_KZ))),
    lambda: derive.chain("zero.asin", (sp.asin(_KZ / 3) * _AZ, sp.asin(_KZ / 3) * _BZ), expect=None).step(
        (_AZ, _BZ), derive.rules.divide(sp.asin(_KZ / 3))),
    lambda: free("zero.atan_sign", _G(_KZ), 1, where={_G: sp.Lambda(T_, sp.Abs(sp.sign(sp.atan(T_))))}).decide(),
], ids=["atan", "acos", "asin", "atan_sign"])
def test_an_inverse_trigonometric_value_of_a_rational_is_not_read_nonzero(build):
    c = build()
    assert c.verdict is not P, c


@pytest.mark.parametrize("factor", [
    # i·t for a t that may be 0 is not known non-real: i·atanh(x)·a = i·atanh(x)·b ⟹ a = b was proved (x = 0)
    lambda: sp.I * sp.atanh(_XZ),
    lambda: sp.I * sp.Symbol("w", imaginary=False),
    lambda: 2 * sp.I * sp.atanh(_XZ + 1),  # 0 at x = −1
], ids=["atanh", "not_imaginary_symbol", "atanh_shifted"])
def test_i_times_what_may_be_zero_is_not_read_nonzero(factor):
    c = derive.chain("zero.i_times", (factor() * _AZ, factor() * _BZ), expect=None,
                     assume=[sp.Ne(1 - _XZ**2, 0), sp.Ne(_XZ * (_XZ + 2), 0)])
    c.step((_AZ, _BZ), derive.rules.divide(factor()))
    assert c.verdict is not P, c


@pytest.mark.parametrize("rounding", [sp.floor, sp.ceiling, sp.frac], ids=["floor", "ceiling", "frac"])
def test_a_rounding_of_what_is_not_real_is_not_read_nonzero(rounding):
    # ⌊i/2⌋ = ⌈−i/2⌉ = frac(−i) = 0: SymPy read them as non-real, hence nonzero
    chained = derive.chain("zero.rounding", (rounding(_IU) * _AZ, rounding(_IU) * _BZ), expect=None)
    chained.step((_AZ, _BZ), derive.rules.divide(rounding(_IU)))
    assert chained.verdict is not P, chained
    held = free("zero.rounding_sign", _G(_IU), 1, where={_G: sp.Lambda(T_, sp.Abs(sp.sign(rounding(T_))))}).prove()
    assert held.verdict is not P, held
    assert rounding(_IU).is_zero is None and rounding(_IU).is_real is None


def test_roundings_and_inverse_functions_of_real_numbers_are_read_as_before():
    assert sp.floor(_XZ).is_integer and sp.frac(_XZ).is_real and sp.frac(_XZ).is_nonnegative
    assert sp.atan(3).is_rational is False and sp.acot(-2) == -sp.acot(2) and sp.acot(-_XZ**2 - 1) == -sp.acot(_XZ**2 + 1)
    assert (sp.I * _XZ).is_real is None and (sp.I * sp.Symbol("p", positive=True)).is_real is False
    assert sp.sinc(sp.pi / 2) == 2 / sp.pi and sp.sinc(3 * sp.pi) == 0


@pytest.mark.parametrize("multiple", [
    # sinc(πk/2) is (−1)^((k−1)/2)·2/(πk) for an odd k only; SymPy gave it for any integer k (0 at k = 2)
    lambda: sp.pi * _KZ / 2,
    lambda: 3 * sp.pi * _KZ / 2,
    lambda: sp.pi * (2 * _KZ + 2) / 4,
], ids=["k", "three_k", "k_plus_one_half"])
def test_sinc_at_a_multiple_of_a_half_pi_is_not_read_as_at_an_odd_one(multiple):
    assert sp.sinc(multiple()).func is sp.sinc
    c = free("zero.sinc", _G(multiple()) * multiple(), sp.Integer(-1) ** (_KZ - 1),
             where={_G: sp.Lambda(T_, sp.sinc(T_))}, assume=[sp.Ne(_KZ, 0)]).decide()
    assert c.verdict is not P, c


# -- a symbol declared nothing is searched off the real line ---------------------------------------------------------------
@pytest.mark.parametrize("lhs, rhs", [
    # the search tried real values only: log(exp(y)) = y was "checked" for y ∈ ℂ (false where |Im y| > π)
    (lambda: sp.log(sp.exp(_YC)), lambda: _YC),
    (lambda: sp.Abs(_YC) ** 2, lambda: _YC ** 2),
    (lambda: sp.im(_YC), lambda: sp.Integer(0)),
    (lambda: sp.floor(sp.Symbol("iu", imaginary=True)), lambda: sp.Integer(0)),  # no value was searched at all
], ids=["log_exp", "abs_square", "imaginary_part", "floor_imaginary"])
def test_a_claim_false_off_the_real_line_is_refuted_there(lhs, rhs):
    c = free("complex.search", lhs(), rhs()).refute()
    assert c.verdict is R, c.evidence.detail
    assert all(sp.im(sp.sympify(v)) != 0 for v in c.evidence.witness.values()), c.evidence.witness


# -- SymPy's handlers that read "not real", "nonzero" or "infinite" off the real line ------------------------------------
_PZ, _QZ = sp.symbols("p q", positive=True)
_SZ = sp.Symbol("s", imaginary=True)


def _divided(factor, **kw):
    """The chain f·a = f·b ⟹ a = b, which needs f ≠ 0."""
    return derive.chain("zero.divided", (factor * _AZ, factor * _BZ), expect=None, **kw).step(
        (_AZ, _BZ), derive.rules.divide(factor))


@pytest.mark.parametrize("build", [
    # a product with a factor that may be 0 is not known non-real: x·sinh(x + i) was divided by (0 at x = 0)
    lambda: _divided(_XZ * sp.sinh(_XZ + sp.I)),
    lambda: _divided((_XZ - 1) * sp.asinh(_XZ + sp.I)),
    lambda: _divided(_XZ * sp.cosh(_XZ + 2 * sp.I)),
    # p^i is i at p = e^{π/2}: i·p^i + 1 was divided by
    lambda: _divided(sp.I * _PZ ** sp.I + 1),
    lambda: _divided(sp.I * (_PZ + 1) ** sp.I + 1),
    lambda: _divided(sp.I * _PZ ** (sp.I / 2) + 1),  # 0 at p = e^π
], ids=["x_sinh", "x_minus_one_asinh", "x_cosh", "i_p_to_i", "i_p_plus_one_to_i", "i_p_to_half_i"])
def test_a_product_or_power_that_may_be_zero_is_not_divided_by(build):
    c = build()
    assert c.verdict is not P, c


@pytest.mark.parametrize("build", [
    # cosh(x + i) is real at x = 0, where cosh(i) − cos 1 = 0; erfi and the Fresnel integrals have zeros off the line
    lambda: _divided(sp.cosh(_XZ + sp.I) - sp.cos(1)),
    lambda: _divided(sp.erfi(_PZ - sp.I * _QZ)),
    lambda: _divided(sp.fresnelc(_PZ + sp.I * _QZ)),
    lambda: _divided(sp.fresnels(_PZ + sp.I * _QZ)),
    lambda: _divided(sp.I * sp.tan(_SZ) + sp.Rational(1, 2), assume=[sp.Ne(sp.cos(_SZ), 0)]),
    # the Fresnel integrals are entire, and were read as infinite off the line: 1/fresnelc(p + iq) = 0 was proved
    lambda: free("zero.fresnel_inverse", 1 / sp.fresnelc(_PZ + sp.I * _QZ), sp.Integer(0)).decide(),
    lambda: free("zero.fresnels_inverse", 1 / sp.fresnels(_PZ + sp.I * _QZ), sp.Integer(0)).decide(),
], ids=["cosh", "erfi", "fresnelc", "fresnels", "i_tan", "fresnelc_inverse", "fresnels_inverse"])
def test_a_function_off_the_real_line_is_not_read_nonzero_or_infinite(build):
    c = build()
    assert c.verdict is not P, c


@pytest.mark.parametrize("lhs, rhs", [
    # SymPy's split of x + π(k + 1/2) read k + 1/2 as a number: tan(x + πk + π/2) became tan x (it is −cot x)
    (lambda: sp.tan(_XZ + sp.pi * _KZ + sp.pi / 2) * sp.cos(_XZ), lambda: sp.sin(_XZ)),
    (lambda: sp.cot(_XZ + sp.pi * _KZ + sp.pi / 2) * sp.sin(_XZ), lambda: sp.cos(_XZ)),
    (lambda: sp.tan(_XZ + sp.pi * (2 * _KZ + 1) / 2) * sp.cos(_XZ), lambda: sp.sin(_XZ)),
], ids=["tan", "cot", "tan_odd_halves"])
def test_tan_and_cot_past_a_symbolic_half_turn_are_held(lhs, rhs):
    assert sp.tan(_XZ + sp.pi * _KZ + sp.pi / 2).func is sp.tan
    c = free("zero.peeled", lhs(), rhs(), assume=[sp.Ne(sp.cos(_XZ), 0), sp.Ne(sp.sin(_XZ), 0)]).decide()
    assert c.verdict is not P, c


def test_functions_of_real_and_closed_arguments_are_read_as_before():
    assert sp.exp(sp.I).is_real is False and sp.cosh(_XZ).is_real and sp.erf(_XZ).is_real
    assert (sp.I * _PZ).is_real is False and sp.fresnelc(_XZ).is_finite and sp.tan(_XZ + sp.pi / 2) == -sp.cot(_XZ)


@pytest.mark.parametrize("rule", [
    # divide and multiply took ±∞ and zoo with no condition, though a claim refuses them everywhere else
    lambda: derive.rules.divide(sp.oo),
    lambda: derive.rules.divide(sp.zoo),
    lambda: derive.rules.multiply(-sp.oo),
    lambda: derive.rules.multiply(sp.nan),
], ids=["divide_oo", "divide_zoo", "multiply_minus_oo", "multiply_nan"])
def test_a_chain_rule_by_an_infinite_value_is_refused(rule):
    refused(rule, "is not a number")


# -- entries of special matrices at symbolic indices (derive.kernel.entries), and diag of a column ---------------------
def _perm(*image):
    return sp.PermutationMatrix(sp.combinatorics.Permutation(list(image)))


def _companion(poly):
    from sympy.matrices.expressions.companion import CompanionMatrix
    return CompanionMatrix(sp.Poly(poly, T_))


_X3 = sp.MatrixSymbol("X", 3, 3)


@pytest.mark.parametrize("lhs, rhs", [
    # SymPy read a permutation matrix's generic entry δ(p(i), j) as 0: P = 0 and P·X = 0 were proved
    (lambda: _perm(1, 0, 2), lambda: sp.ZeroMatrix(3, 3)),
    (lambda: _perm(1, 0, 2) * _X3, lambda: sp.ZeroMatrix(3, 3)),
    (lambda: _perm(2, 0, 1) + sp.Identity(3), lambda: sp.Identity(3)),
    (lambda: sp.KroneckerProduct(_perm(1, 0), sp.Identity(2)), lambda: sp.ZeroMatrix(4, 4)),
    # the rows of a matrix permuted were read at p(i), so with the same δ
    (lambda: sp.MatrixPermute(sp.Identity(3), sp.combinatorics.Permutation([1, 0, 2])), lambda: sp.ZeroMatrix(3, 3)),
    # a companion matrix compared its indices as written: every entry read 0
    (lambda: _companion(T_**2 + 1), lambda: sp.ZeroMatrix(2, 2)),
    (lambda: _companion(T_**2 + 1) + sp.Identity(2), lambda: sp.Identity(2)),
    (lambda: _companion(T_**3 - 2) - sp.Identity(3), lambda: -sp.Identity(3)),
], ids=["permutation", "permutation_times", "cycle_plus_identity", "kronecker", "permute_rows", "companion",
        "companion_plus_identity", "companion_minus_identity"])
def test_a_special_matrix_is_read_by_its_entries_at_symbolic_indices(lhs, rhs):
    c = free("entry.special", lhs(), rhs()).decide()
    assert c.verdict in (R, U), c.evidence.detail


def test_a_permutation_matrix_read_by_its_entries_is_still_read_right():
    P = _perm(1, 0, 2)
    assert [P[i, j] for i in range(3) for j in range(3)] == [0, 1, 0, 1, 0, 0, 0, 0, 1]
    c = free("entry.permutation_times", P * _X3, sp.ImmutableMatrix(3, 3, lambda i, j: _X3[[1, 0, 2][i], j])).decide()
    assert c.verdict in (P, U), c.evidence.detail  # (true: never refuted)


_N1 = sp.OneMatrix(N_, 1)


@pytest.mark.parametrize("lhs, rhs", [
    # diag(0ₙₓ₁) (the n×n zero matrix) became the column 0ₙₓ₁, as SymPy takes a vector it knows diagonal for its own
    # diagonal matrix: exp of it times 1 was proved 1 (it is n·1)
    (lambda: sp.DiagMatrix(sp.ZeroMatrix(N_, 1)).applyfunc(sp.exp) * _N1, lambda: _N1),
    (lambda: sp.OneMatrix(1, N_) * sp.DiagMatrix(sp.ZeroMatrix(N_, 1)).applyfunc(sp.exp) * _N1,
     lambda: sp.ImmutableMatrix([[N_]])),
    (lambda: sp.DiagMatrix(sp.ZeroMatrix(N_, 1)).applyfunc(sp.cos) * _N1, lambda: _N1),
], ids=["exp_times_ones", "sum_of_entries", "cos_times_ones"])
def test_the_diagonal_matrix_of_a_zero_column_is_square(lhs, rhs):
    c = free("diag.zero_column", lhs(), rhs()).decide()
    assert c.verdict in (R, U), c.evidence.detail


_P3 = sp.PermutationMatrix(sp.combinatorics.Permutation([1, 2, 0]))


@pytest.mark.parametrize("build", [
    # the entries written out at symbolic indices read 0 outside the matrix: Σ_{k=0}^{5} P[k, 0] = 1 was proved, where
    # the same sum over an explicit matrix is refused (rows 3 to 5 have no value)
    lambda: free("entry.permutation_outside", sp.Sum(_P3[_KI, 0], (_KI, 0, 5)), 1),
    lambda: free("entry.permute_outside", sp.Sum(sp.MatrixPermute(_X3, sp.combinatorics.Permutation([1, 2, 0]), 0)[_KI, 0],
                                                 (_KI, 0, 5)), _X3[1, 0] + _X3[2, 0] + _X3[0, 0]),
    lambda: free("entry.companion_outside", sp.Sum(_companion(T_**2 + 3 * T_ + 5)[_KI, 1], (_KI, -4, 4)), -8),
], ids=["permutation", "permute", "companion"])
def test_an_entry_of_a_special_matrix_read_outside_it_is_refused(build):
    refused(build, "is read at (row|column) .* of a matrix with")


@pytest.mark.parametrize("assume", [
    # a function put in with where= and applied only in the assumptions: t ↦ √(t²) + 1 for a positive t was put into
    # f(b) > 1 as b + 1 > 1, that is b > 0, where as written it says |b| > 0
    lambda b: [sp.Function("f")(b) > 1],
    lambda b: [sp.Ne(sp.Function("f")(b), 1)],
    lambda b: [sp.Function("f")(b) > 1, b < 5],
], ids=["greater", "not_equal", "two"])
def test_a_function_put_in_where_the_assumptions_apply_it_is_checked_there_too(assume):
    b, f = sp.Symbol("b", real=True), sp.Function("f")
    tp = sp.Symbol("t", positive=True)
    refused(lambda: free("fn.assume_only", sp.Abs(b) + f(2), b + f(2), assume=assume(b),
                         where={f: sp.Lambda(tp, sp.sqrt(tp**2) + 1)}), "declared positive=True, but f is applied to b")


def test_assumptions_given_as_a_generator_are_all_kept_beside_a_function_definition():
    # the check of a definition where the assumptions apply it read them once, leaving the generator empty
    a, tr = sp.Symbol("a", real=True), sp.Symbol("t", real=True)
    c = free("fn.assume_generator", derive.sigma(a) / a, 3, assume=(x for x in [sp.Ne(a, 0)]),
             where={derive.sigma: sp.Lambda(tr, 3 * tr)})
    assert c.assume == (sp.Ne(a, 0),)


# -- a function put in whose body divides by what its argument makes zero, which SymPy cancels once it is in ----------
_TL = sp.Symbol("t", real=True)
_ZEROING = [lambda v: sp.sign(sp.erf(v)), lambda v: sp.sign(sp.atan(v)), lambda v: sp.sign(v)]  # each 0 at v = 0
_ZEROING_IDS = ["sign_erf", "sign_atan", "sign"]


def _square_premise(u, name):
    """u(x)² f(x) = u(x)⁴ f(x): true for every f, since u takes only the values -1, 0, 1."""
    return derive.claim(name, u(_XL)**2 * F_(_XL), u(_XL)**4 * F_(_XL)).prove()


@pytest.mark.parametrize("u", _ZEROING, ids=_ZEROING_IDS)
def test_a_function_put_in_by_using_needs_its_bodys_divisors_where_it_is_applied(u):
    # f := t ↦ 1/u(t)² made the premise 1 = u(x)², and the chain 1 = u(x)² was proved (false at x = 0)
    premise = _square_premise(u, "shape.pole_using_premise")
    assert premise.verdict is P, premise.evidence.detail
    ch = derive.chain("shape.pole_using", sp.Integer(1), expect=None).step(
        u(_XL)**2, derive.rules.using(premise, {F_: sp.Lambda(_TL, 1 / u(_TL)**2)}))
    assert ch.verdict is not P and "needs Ne(" in str(ch), str(ch)


@pytest.mark.parametrize("u", _ZEROING, ids=_ZEROING_IDS)
def test_an_instance_at_a_function_needs_its_bodys_divisors_where_the_general_claim_applies_it(u):
    premise = _square_premise(u, "shape.pole_instance_premise")
    c = derive.claim("shape.pole_instance", sp.Integer(1), u(_XL)**2, expect=None).prove(
        instance_of=premise, mapping={F_: sp.Lambda(_TL, 1 / u(_TL)**2)})
    assert c.verdict is not P and "needs Ne(" in c.evidence.detail, c.evidence.detail


@pytest.mark.parametrize("u", _ZEROING, ids=_ZEROING_IDS)
def test_a_witness_function_without_a_value_where_it_is_applied_refutes_nothing(u):
    # the true u(x)² f(x) = u(x)⁴ f(x) was refuted at x = 0 with f := t ↦ 1/u(t)², which has no value at 0
    c = derive.claim("shape.pole_witness", u(_XL)**2 * F_(_XL), u(_XL)**4 * F_(_XL), expect=None)
    with pytest.raises(ValueError, match="is zero there"):
        c.refute(witness={_XL: 0, F_: sp.Lambda(_TL, 1 / u(_TL)**2)})
    assert c.verdict is not R


def test_a_function_put_in_with_a_value_everywhere_is_still_used():
    premise = _square_premise(lambda v: sp.sign(sp.erf(v)), "shape.entire_premise")
    ch = derive.chain("shape.entire_using", sp.sign(sp.erf(_XL))**2 * (_XL**2 + 1), expect=None).step(
        sp.sign(sp.erf(_XL))**4 * (_XL**2 + 1), derive.rules.using(premise, {F_: sp.Lambda(_TL, _TL**2 + 1)}))
    assert ch.verdict is P, str(ch)
    c = derive.claim("shape.entire_witness", F_(_XL) * _XL, F_(_XL), expect=None).refute(
        witness={_XL: 2, F_: sp.Lambda(_TL, 1 / (_TL**2 + 1))})
    assert c.verdict is R, c.evidence.detail


# -- functions put in that apply each other: every body is written in, inner ones and those in the bodies too -------
_GN = sp.Function("g", real=True)
_NESTED = [
    # (the premise's f-part, the functions put in): each stands for 1/u(x)², with no value where u(x) = 0
    (lambda x: F_(_GN(x)), lambda u: {F_: sp.Lambda(_TL, 2 * _TL), _GN: sp.Lambda(_TL, 1 / (2 * u(_TL)**2))}),
    (lambda x: F_(x), lambda u: {F_: sp.Lambda(_TL, _GN(_TL)), _GN: sp.Lambda(_TL, 1 / u(_TL)**2)}),
    (lambda x: F_(_GN(x)), lambda u: {F_: sp.Lambda(_TL, 1 / _TL), _GN: sp.Lambda(_TL, u(_TL)**2)}),
]
_NESTED_IDS = ["inner_pole", "body_applies_another", "outer_pole_at_inner_value"]
_U = _ZEROING[0]


@pytest.mark.parametrize("part, functions", _NESTED, ids=_NESTED_IDS)
def test_functions_put_in_by_using_that_apply_each_other_need_every_bodys_divisors(part, functions):
    premise = derive.claim("shape.nested_using_premise", _U(_XL)**2 * part(_XL), _U(_XL)**4 * part(_XL)).prove()
    assert premise.verdict is P, premise.evidence.detail
    ch = derive.chain("shape.nested_using", sp.Integer(1), expect=None).step(
        _U(_XL)**2, derive.rules.using(premise, functions(_U)))
    assert ch.verdict is not P and "needs Ne(" in str(ch), str(ch)


@pytest.mark.parametrize("part, functions", _NESTED, ids=_NESTED_IDS)
def test_an_instance_at_functions_that_apply_each_other_needs_every_bodys_divisors(part, functions):
    premise = derive.claim("shape.nested_instance_premise", _U(_XL)**2 * part(_XL), _U(_XL)**4 * part(_XL)).prove()
    c = derive.claim("shape.nested_instance", sp.Integer(1), _U(_XL)**2, expect=None).prove(
        instance_of=premise, mapping=functions(_U))
    assert c.verdict is not P and "needs Ne(" in c.evidence.detail, c.evidence.detail


@pytest.mark.parametrize("part, functions", _NESTED, ids=_NESTED_IDS)
def test_witness_functions_that_apply_each_other_without_a_value_there_refute_nothing(part, functions):
    c = derive.claim("shape.nested_witness", _U(_XL)**2 * part(_XL), _U(_XL)**4 * part(_XL), expect=None)
    with pytest.raises(ValueError, match="is zero there"):
        c.refute(witness={_XL: 0, **functions(_U)})
    assert c.verdict is not R


def test_functions_put_in_that_apply_each_other_with_values_everywhere_are_still_used():
    premise = derive.claim("shape.nested_entire_premise", _U(_XL)**2 * F_(_GN(_XL)), _U(_XL)**4 * F_(_GN(_XL))).prove()
    value = 2 * (_XL**2 + 1)
    ch = derive.chain("shape.nested_entire", _U(_XL)**2 * value, expect=None).step(
        _U(_XL)**4 * value, derive.rules.using(premise, {F_: sp.Lambda(_TL, 2 * _TL), _GN: sp.Lambda(_TL, _TL**2 + 1)}))
    assert ch.verdict is P, str(ch)


# -- an assumption that applies a function put in has no value where the function has none: outside the claim -------
@pytest.mark.parametrize("u", _ZEROING, ids=_ZEROING_IDS)
def test_a_where_definition_in_an_assumption_keeps_the_points_where_it_has_a_value(u):
    # assume u(x)² f(x)(x + 5) > 0 with f := 1/u(t)² was read as x + 5 > 0, and the true u(x)² + f(1) = 1 + f(1)
    # refuted at x = 0, where the assumption has no value
    c = derive.claim("shape.where_assumption", u(_XL)**2 + F_(1), 1 + F_(1), expect=None,
                     assume=[u(_XL)**2 * F_(_XL) * (_XL + 5) > 0], where={F_: sp.Lambda(_TL, 1 / u(_TL)**2)})
    assert sp.Ne(u(_XL), 0) in c.assume
    c.refute()
    assert c.verdict is not R, c.evidence.detail


@pytest.mark.parametrize("u", _ZEROING, ids=_ZEROING_IDS)
def test_a_witness_function_without_a_value_where_an_assumption_applies_it_refutes_nothing(u):
    # u(x) f(x) > 0 forces u(x) ≠ 0, so u(x)² = 1: true for every f; f := 1/u(t) made the assumption 1 > 0 at x = 0
    c = derive.claim("shape.assumption_witness", u(_XL)**2 + F_(1), 1 + F_(1), assume=[u(_XL) * F_(_XL) > 0],
                     expect=None)
    with pytest.raises(ValueError, match="is zero there"):
        c.refute(witness={_XL: 0, F_: sp.Lambda(_TL, 1 / u(_TL))})
    assert c.verdict is not R
