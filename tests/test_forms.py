import numpy as np
import pytest
import sympy as sp
from sympy.matrices.expressions import MatrixExpr

import derive
from derive import forms

x1, x2 = sp.symbols("x_1 x_2", real=True)
SIGMA = derive.activation("sigma")
RELU = derive.activation("relu")
IDENTITY = derive.activation("identity")
s = derive.sigma
x = derive.row("x", 2)
Q, K, V = derive.matrix("Q", 2, 2), derive.matrix("K", 2, 2), derive.matrix("V", 2, 2)
q11, q12, q21, q22 = Q
k11, k12, k21, k22 = K
v11, v12, v21, v22 = V
a1, a2 = x1 * q11 + x2 * q12, x1 * q21 + x2 * q22  # x·q_j
b1, b2 = x1 * k11 + x2 * k12, x1 * k21 + x2 * k22  # x·k_j

d, m, n = sp.symbols("d m n", positive=True, integer=True)
X, QS, KS, VS = (sp.MatrixSymbol("x", 1, d), sp.MatrixSymbol("Q", m, d), sp.MatrixSymbol("K", m, d),
                 sp.MatrixSymbol("V", m, n))


def test_elementwise():
    assert forms.elementwise(RELU, x) == sp.Matrix([[sp.Max(0, x1), sp.Max(0, x2)]])
    assert forms.elementwise(SIGMA, x) == sp.Matrix([[s(x1), s(x2)]])
    assert forms.elementwise(sp.tanh, x) == sp.Matrix([[sp.tanh(x1), sp.tanh(x2)]])
    assert forms.elementwise(RELU, Q).shape == (2, 2)


def test_hadamard():
    y = derive.row("y", 2)
    assert forms.hadamard(x, y) == sp.Matrix([[x1 * y[0], x2 * y[1]]])
    assert forms.hadamard(Q, K) == sp.Matrix([[q11 * k11, q12 * k12], [q21 * k21, q22 * k22]])


def test_key_value():
    expected = sp.Matrix([[s(b1) * v11 + s(b2) * v21, s(b1) * v12 + s(b2) * v22]])
    assert forms.key_value(x, K, V, SIGMA) == expected
    assert forms.key_value(x, K, V, IDENTITY) == sp.Matrix([[b1 * v11 + b2 * v21, b1 * v12 + b2 * v22]])


def test_key_value_with_rectangular_sizes():
    K3, V3 = derive.matrix("K", 3, 2), derive.matrix("V", 3, 1)
    assert forms.key_value(x, K3, V3, RELU).shape == (1, 1)


def test_symmetric_rank1():
    expected = sp.Matrix([[s(a1 * b1) * v11 + s(a2 * b2) * v21, s(a1 * b1) * v12 + s(a2 * b2) * v22]])
    assert forms.symmetric_rank1(x, Q, K, V, SIGMA) == expected


def test_gated():
    expected = sp.Matrix([[s(a1) * b1 * v11 + s(a2) * b2 * v21, s(a1) * b1 * v12 + s(a2) * b2 * v22]])
    assert forms.gated(x, Q, K, V, SIGMA) == expected


def test_gated_and_symmetric_agree_only_with_identity_sigma():
    assert forms.gated(x, Q, K, V, IDENTITY) == forms.symmetric_rank1(x, Q, K, V, IDENTITY)
    assert forms.gated(x, Q, K, V, SIGMA) != forms.symmetric_rank1(x, Q, K, V, SIGMA)


def test_bilinear():
    P, R = derive.matrix("P", 2, 1), derive.matrix("R", 2, 1)
    V1 = derive.matrix("V", 1, 2)
    score = (x1 * P[0] + x2 * P[1]) * (x1 * R[0] + x2 * R[1])
    expected = sp.Matrix([[s(score) * V1[0, 0], s(score) * V1[0, 1]]])
    assert sp.expand(forms.bilinear(x, [P], [R], V1, SIGMA) - expected) == sp.zeros(1, 2)
    assert sp.expand(forms.bilinear(x, (P,), (R,), V1, IDENTITY) - score * V1) == sp.zeros(1, 2)


def test_bilinear_score_is_x_Q_Kt_xt():
    Q1, K1 = derive.matrix("P", 2, 2), derive.matrix("R", 2, 2)
    V1 = sp.Matrix([[1]])
    out = forms.bilinear(x, [Q1], [K1], V1, IDENTITY)
    assert out == sp.Matrix([[(x * Q1 * K1.T * x.T)[0, 0]]])


def test_gated_rank_r():
    Q1, K1 = derive.matrix("P", 2, 2), derive.matrix("R", 2, 2)
    V1 = sp.Matrix([[1, 0]])
    gate, up = forms.elementwise(RELU, x * Q1), x * K1
    assert forms.gated_rank_r(x, [Q1], [K1], V1, RELU) == sp.Matrix([[(gate * up.T)[0, 0], 0]])


def test_gated_rank_one_is_gated():
    qs, ks = [Q[j, :].T for j in range(2)], [K[j, :].T for j in range(2)]
    assert forms.gated_rank_r(x, qs, ks, V, SIGMA) == forms.gated(x, Q, K, V, SIGMA)


@pytest.mark.parametrize("form", [forms.symmetric_rank1, forms.gated])
def test_matrix_symbols_give_matrix_expressions(form):
    out = form(X, QS, KS, VS, SIGMA)
    assert isinstance(out, MatrixExpr) and not isinstance(out, sp.MatrixBase)
    assert out.shape == (1, n)


def test_key_value_matrix_symbols():
    out = forms.key_value(X, KS, VS, SIGMA)
    assert isinstance(out, MatrixExpr) and not isinstance(out, sp.MatrixBase)
    assert out.shape == (1, n)
    assert out == forms.key_value(X, KS, VS, SIGMA)  # one fixed Lambda: identical layers compare equal


def test_elementwise_and_hadamard_matrix_symbols():
    assert isinstance(forms.elementwise(SIGMA, X), sp.matrices.expressions.applyfunc.ElementwiseApplyFunction)
    assert isinstance(forms.elementwise(sp.tanh, X), MatrixExpr)
    assert forms.elementwise(sp.tanh, X) == forms.elementwise(sp.tanh, X)
    assert isinstance(forms.hadamard(X, X), sp.HadamardProduct)


def test_bilinear_forms_refuse_a_matrix_symbol_V():
    Q1 = sp.MatrixSymbol("P", d, 1)
    with pytest.raises(TypeError, match="explicit V"):
        forms.bilinear(X, [Q1], [Q1], sp.MatrixSymbol("V", 1, n), SIGMA)
    with pytest.raises(TypeError, match="gated_rank_r: needs explicit matrices"):
        forms.gated_rank_r(X, [Q1], [Q1], sp.MatrixSymbol("V", 1, n), SIGMA)


@pytest.mark.parametrize("form", [forms.symmetric_rank1, forms.gated])
def test_wrong_shapes(form):
    name = form.__name__
    with pytest.raises(ValueError, match=f"{name}: x must have 1 row, got shape 2x1"):
        form(x.T, Q, K, V, SIGMA)
    with pytest.raises(ValueError, match=f"{name}: K must have 2 columns, got shape 2x3"):
        form(x, Q, derive.matrix("K", 2, 3), V, SIGMA)
    with pytest.raises(ValueError, match=f"{name}: Q must have 3 rows, got shape 2x2"):
        form(x, Q, derive.matrix("K", 3, 2), derive.matrix("V", 3, 2), SIGMA)
    with pytest.raises(ValueError, match=f"{name}: V must have 2 rows, got shape 3x2"):
        form(x, Q, K, derive.matrix("V", 3, 2), SIGMA)


def test_key_value_wrong_shapes():
    with pytest.raises(ValueError, match="key_value: K must have 2 columns, got shape 3x3"):
        forms.key_value(x, derive.matrix("K", 3, 3), V, SIGMA)
    with pytest.raises(ValueError, match="key_value: V must have 2 rows, got shape 1x2"):
        forms.key_value(x, K, derive.matrix("V", 1, 2), SIGMA)
    with pytest.raises(ValueError, match="key_value: K must have d columns, got shape mxn"):
        forms.key_value(X, sp.MatrixSymbol("K", m, n), VS, SIGMA)


def test_hadamard_wrong_shape():
    with pytest.raises(ValueError, match="hadamard: B must have 2 columns, got shape 1x3"):
        forms.hadamard(x, derive.row("y", 3))


def test_units_wrong_shapes():
    P = derive.matrix("P", 2, 1)
    V1 = derive.matrix("V", 1, 2)
    with pytest.raises(ValueError, match="bilinear: Qs and Ks must be non-empty and of equal length, got 0 and 0"):
        forms.bilinear(x, [], [], V1, SIGMA)
    with pytest.raises(ValueError, match="got 2 and 1"):
        forms.bilinear(x, [P, P], [P], V1, SIGMA)
    with pytest.raises(ValueError, match=r"bilinear: Ks\[0\] must have 1 column, got shape 2x2"):
        forms.bilinear(x, [P], [derive.matrix("R", 2, 2)], V1, SIGMA)
    with pytest.raises(ValueError, match=r"gated_rank_r: Qs\[0\] must have 2 rows, got shape 3x1"):
        forms.gated_rank_r(x, [derive.matrix("P", 3, 1)], [P], V1, SIGMA)
    with pytest.raises(ValueError, match="bilinear: V must have 1 row, got shape 2x2"):
        forms.bilinear(x, [P], [P], V, SIGMA)


NOT_SYMPY = [np.zeros((1, 2)), [[1, 2]], ((1, 2),), 3]


@pytest.mark.parametrize("bad", NOT_SYMPY, ids=["ndarray", "list", "tuple", "int"])
def test_non_sympy_matrices_are_type_errors(bad):
    kind = type(bad).__name__
    with pytest.raises(TypeError, match=f"key_value: x must be a SymPy Matrix or MatrixSymbol, got {kind}"):
        forms.key_value(bad, K, V, SIGMA)
    with pytest.raises(TypeError, match=f"gated: Q must be a SymPy Matrix or MatrixSymbol, got {kind}"):
        forms.gated(x, bad, K, V, SIGMA)
    with pytest.raises(TypeError, match=f"symmetric_rank1: V must be a SymPy Matrix or MatrixSymbol, got {kind}"):
        forms.symmetric_rank1(x, Q, K, bad, SIGMA)
    with pytest.raises(TypeError, match=f"elementwise: M must be a SymPy Matrix or MatrixSymbol, got {kind}"):
        forms.elementwise(RELU, bad)
    with pytest.raises(TypeError, match=f"hadamard: A must be a SymPy Matrix or MatrixSymbol, got {kind}"):
        forms.hadamard(bad, x)


def test_bilinear_needs_sequences_of_sympy_matrices():
    P = derive.matrix("P", 2, 1)
    V1 = derive.matrix("V", 1, 2)
    with pytest.raises(TypeError, match="bilinear: Qs must be a list or tuple of d×r matrices, got Shown"):
        forms.bilinear(x, P, [P], V1, SIGMA)
    with pytest.raises(TypeError, match=r"bilinear: Qs\[0\] must be a SymPy Matrix or MatrixSymbol, got ndarray"):
        forms.bilinear(x, [np.ones((2, 1))], [P], V1, SIGMA)
    with pytest.raises(TypeError, match="gated_rank_r: Ks must be a list or tuple"):
        forms.gated_rank_r(x, [P], np.ones((1, 2, 1)), V1, SIGMA)


@pytest.mark.parametrize("bad", ["relu", np.tanh, lambda t: t, 3])
def test_sigma_must_be_a_sympy_function(bad):
    with pytest.raises(TypeError, match="key_value: sigma must be a SymPy Lambda or function class"):
        forms.key_value(x, K, V, bad)
    with pytest.raises(TypeError, match="bilinear: sigma must be a SymPy Lambda or function class"):
        forms.bilinear(x, [Q], [K], derive.matrix("V", 1, 2), bad)


def test_sigma_of_two_arguments_is_a_value_error():
    two = sp.Lambda(sp.symbols("u v"), 1)
    with pytest.raises(ValueError, match="elementwise: sigma must take one argument, got a Lambda of 2"):
        forms.elementwise(two, x)
    with pytest.raises(ValueError, match="gated: sigma must take one argument"):
        forms.gated(x, Q, K, V, two)
