import functools
import math
import random

import numpy as np
import pytest
import sympy as sp

import derive
from derive import ExpectationError, forms, numeric

CONCRETE = [n for n in derive.ACTIVATIONS if n != "sigma"]
POINTS = [sp.Rational(v) for v in ("-3", "-1", "-1/2", "0", "1/3", "1", "5/2")]
d, m, r = 3, 4, 2


def exact_matrix(rng, rows, cols):
    return sp.ImmutableMatrix(rows, cols, lambda i, j: sp.Rational(rng.randint(-9, 9), rng.randint(1, 4)))


def substituted(symbolic, *pairs):
    """The symbolic form with every symbol replaced by the exact numbers of the matching matrix."""
    values = {}
    for sym_m, num_m in pairs:
        values.update(dict(zip(sym_m, num_m)))
    return symbolic.xreplace(values)


@pytest.fixture
def data():
    rng = random.Random(7)
    x, Q, K, V = (exact_matrix(rng, 1, d), exact_matrix(rng, m, d), exact_matrix(rng, m, d), exact_matrix(rng, m, 2))
    Qs = [exact_matrix(rng, d, r) for _ in range(m)]
    Ks = [exact_matrix(rng, d, r) for _ in range(m)]
    return x, Q, K, V, Qs, Ks


def symbols():
    x, Q, K, V = derive.row("x", d), derive.matrix("Q", m, d), derive.matrix("K", m, d), derive.matrix("V", m, 2)
    Qs = [derive.matrix(f"P{j}", d, r) for j in range(m)]
    Ks = [derive.matrix(f"R{j}", d, r) for j in range(m)]
    return x, Q, K, V, Qs, Ks


@pytest.mark.parametrize("name", CONCRETE)
def test_activation_fn_matches_the_lambda(name):
    sigma = derive.activation(name)
    got = numeric.activation_fn(sigma)(np.array([float(p) for p in POINTS]))
    want = np.array([float(sp.N(sigma(p), 30)) for p in POINTS])
    assert got.shape == (len(POINTS),)
    assert np.allclose(got, want, rtol=1e-12, atol=1e-14)


def test_activation_fn_keeps_shape_and_is_cached():
    relu = derive.activation("relu")
    assert numeric.activation_fn(relu) is numeric.activation_fn(relu)
    assert numeric.activation_fn(relu)(np.zeros((2, 3))).shape == (2, 3)
    assert np.array_equal(numeric.activation_fn(relu)(np.array([-1.0, 2.0])), np.array([0.0, 2.0]))
    assert np.array_equal(numeric.activation_fn(derive.activation("identity"))(np.array([[1.5]])), np.array([[1.5]]))


def test_activation_fn_of_a_constant_gives_an_array():
    one = sp.Lambda(sp.Symbol("t"), sp.Integer(1))
    assert np.array_equal(numeric.activation_fn(one)(np.zeros(3)), np.ones(3))


def test_activation_fn_of_a_function_class():
    assert np.allclose(numeric.activation_fn(sp.tanh)(np.array([0.5])), np.tanh([0.5]))


def test_activation_fn_refuses_the_generic_sigma():
    with pytest.raises(ValueError, match="generic σ has no numeric value"):
        numeric.activation_fn(derive.activation("sigma"))
    with pytest.raises(TypeError, match="activation_fn: sigma must be a SymPy Lambda"):
        numeric.activation_fn(np.tanh)


@pytest.mark.parametrize("name", ["relu", "silu", "gelu", "gelu_tanh", "softplus", "elu"])
def test_square_forms_against_the_symbolic_ones(data, name):
    sigma = derive.activation(name)
    x, Q, K, V, _, _ = data
    sx, sQ, sK, sV, _, _ = symbols()
    pairs = ((sx, x), (sQ, Q), (sK, K), (sV, V))
    arr = {k: numeric.to_numpy(v) for k, v in dict(x=x, Q=Q, K=K, V=V).items()}
    cases = [
        (numeric.key_value(arr["x"], arr["K"], arr["V"], sigma), forms.key_value(sx, sK, sV, sigma)),
        (numeric.symmetric_rank1(arr["x"], arr["Q"], arr["K"], arr["V"], sigma),
         forms.symmetric_rank1(sx, sQ, sK, sV, sigma)),
        (numeric.gated(arr["x"], arr["Q"], arr["K"], arr["V"], sigma), forms.gated(sx, sQ, sK, sV, sigma)),
    ]
    for got, symbolic in cases:
        want = np.array(sp.N(substituted(symbolic, *pairs), 30).tolist(), dtype=float)
        assert got.shape == (1, 2)
        assert numeric.relative_error(got, want) < 1e-12


@pytest.mark.parametrize("name", ["relu", "silu", "identity"])
def test_rank_r_forms_against_the_symbolic_ones(data, name):
    sigma = derive.activation(name)
    x, _, _, V, Qs, Ks = data
    sx, _, _, sV, sQs, sKs = symbols()
    pairs = ((sx, x), (sV, V), *zip(sQs, Qs), *zip(sKs, Ks))
    ax, aV = numeric.to_numpy(x), numeric.to_numpy(V)
    aQs, aKs = [numeric.to_numpy(M) for M in Qs], [numeric.to_numpy(M) for M in Ks]
    for got, symbolic in [(numeric.bilinear(ax, aQs, aKs, aV, sigma), forms.bilinear(sx, sQs, sKs, sV, sigma)),
                          (numeric.gated_rank_r(ax, aQs, aKs, aV, sigma),
                           forms.gated_rank_r(sx, sQs, sKs, sV, sigma))]:
        want = np.array(sp.N(substituted(symbolic, *pairs), 30).tolist(), dtype=float)
        assert numeric.relative_error(got, want) < 1e-12


def test_swiglu_is_the_usual_implementation():
    rng = np.random.default_rng(0)
    x, Q, K, V = rng.normal(size=(5, 8)), rng.normal(size=(16, 8)), rng.normal(size=(16, 8)), rng.normal(size=(16, 8))

    def silu(u):
        return u / (1 + np.exp(-u))

    usual = (silu(x @ Q.T) * (x @ K.T)) @ V
    assert numeric.relative_error(numeric.gated(x, Q, K, V, derive.activation("silu")), usual) < 1e-12


def test_forms_work_row_by_row():
    rng = np.random.default_rng(1)
    x, Q, K, V = rng.normal(size=(3, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 2))
    relu = derive.activation("relu")
    whole = numeric.symmetric_rank1(x, Q, K, V, relu)
    assert whole.shape == (3, 2)
    assert numeric.relative_error(whole[1:2], numeric.symmetric_rank1(x[1:2], Q, K, V, relu)) < 1e-14


def test_to_numpy():
    assert np.array_equal(numeric.to_numpy(sp.Matrix([[1, sp.Rational(1, 2)]])), np.array([[1.0, 0.5]]))
    assert numeric.to_numpy(sp.Matrix([[sp.pi]]))[0, 0] == pytest.approx(np.pi)
    with pytest.raises(TypeError, match="to_numpy: expected a SymPy Matrix, got ndarray"):
        numeric.to_numpy(np.zeros((1, 1)))
    with pytest.raises(TypeError, match="to_numpy: every entry must be a number"):
        numeric.to_numpy(derive.row("x", 2))


def test_relative_error():
    assert numeric.relative_error([1.0, 2.0], [1.0, 2.0]) == 0.0
    assert numeric.relative_error([1.0, 3.0], [1.0, 2.0]) == 0.5
    assert numeric.relative_error([0.0], [0.0]) == 0.0
    assert numeric.relative_error([1e-300], [0.0]) > 1


def test_shape_errors():
    relu = derive.activation("relu")
    x, Q, V = np.ones((1, 3)), np.ones((2, 3)), np.ones((2, 2))
    with pytest.raises(ValueError, match=r"gated: shapes x \(1, 3\), Q \(2, 3\), K \(2, 2\), V \(2, 2\) do not fit"):
        numeric.gated(x, Q, np.ones((2, 2)), V, relu)
    with pytest.raises(ValueError, match="key_value: shapes"):
        numeric.key_value(x, Q, np.ones((3, 2)), relu)
    with pytest.raises(ValueError, match="bilinear: need one"):
        numeric.bilinear(x, [np.ones((3, 1))], [np.ones((3, 1))], V, relu)


def test_type_errors():
    relu = derive.activation("relu")
    with pytest.raises(TypeError, match="symmetric_rank1: x must be a 2-D numpy array, got list"):
        numeric.symmetric_rank1([[1.0]], np.ones((1, 1)), np.ones((1, 1)), np.ones((1, 1)), relu)
    with pytest.raises(TypeError, match="gated: V must be a 2-D numpy array, got ndarray"):
        numeric.gated(np.ones((1, 1)), np.ones((1, 1)), np.ones((1, 1)), np.ones(1), relu)
    with pytest.raises(TypeError, match="gated_rank_r: x must be a 2-D numpy array"):
        numeric.gated_rank_r(sp.Matrix([[1]]), [np.ones((1, 1))], [np.ones((1, 1))], np.ones((1, 1)), relu)


# -- accuracy over the whole range, against the exact definitions evaluated by mpmath ----------------------
SPECIAL = [-1000.0, -745.0, -709.0, -40.0, -38.0, -37.0, -28.0, -27.0, -20.0, -19.84, -5.0, -1.0, -1e-300, 0.0,
           1e-300, 1e-10, 0.5, 1.0, 20.0, 36.0, 37.0, 709.0, 710.0, 1000.0]
GRID = np.unique(np.concatenate([np.linspace(-1000, 1000, 1001), np.linspace(-45, 45, 901), SPECIAL]))


def cancelled_digits(name, x):
    """Digits an mpmath evaluation of the definition as written loses to cancellation at x (it then takes more).

    Beyond 380 digits the exact value is below the smallest float (e^-745), and the reference is 0 either way.
    """
    if x >= 0:
        return 0
    lost = {"softplus": 0.44 * -x, "mish": 0.44 * -x,  # log(1 + e^x)
            "gelu": 0.23 * x * x,  # 1 + erf(x/√2)
            "gelu_tanh": 0.04 * -x**3 - x,  # 1 + tanh(√(2/π)(x + 0.044715 x³))
            "elu": -math.log10(-x)}  # e^x - 1
    return min(380, max(0, int(lost.get(name, 0))))


@functools.lru_cache(maxsize=None)
def definition(name):
    sigma = derive.activation(name)
    return sp.lambdify(sigma.variables[0], sigma.expr, "mpmath")


def reference(name, x):
    """The definition at the exact float x, rounded to float64."""
    import mpmath

    fn = definition(name)
    with mpmath.workdps(40 + cancelled_digits(name, x)):
        return float(fn(mpmath.mpf(x)))


@pytest.mark.parametrize("name", CONCRETE)
def test_every_activation_is_accurate_on_the_whole_range(name):
    got = numeric.activation_fn(derive.activation(name))(GRID)
    want = np.array([reference(name, x) for x in GRID])
    assert np.all(np.isfinite(got))
    # 4e-15 relative, or 2 units of the smallest subnormal for results below the normal range
    tolerance = np.maximum(4e-15 * np.abs(want), 2 * np.finfo(float).smallest_subnormal)
    error = np.abs(got - want)
    worst = int(np.argmax(error / tolerance))
    assert error[worst] <= tolerance[worst], (GRID[worst], got[worst], want[worst])


def test_the_reported_failures_are_gone():
    softplus = numeric.activation_fn(derive.activation("softplus"))
    mish = numeric.activation_fn(derive.activation("mish"))
    assert softplus(np.array([710.0, 1000.0])).tolist() == [710.0, 1000.0]
    for fn, name, x in [(softplus, "softplus", -19.84), (mish, "mish", -37.0)]:  # within one unit in the last place
        want = reference(name, x)
        assert want != 0.0 and abs(fn(np.array([x]))[0] - want) <= np.spacing(abs(want))


def test_the_double_double_constants():
    import mpmath

    from derive.layers import stable

    with mpmath.workdps(50):
        for (hi, lo), exact in [(stable._RSQRT2, 1 / mpmath.sqrt(2)), (stable._TWO_C, 2 * mpmath.sqrt(2 / mpmath.pi)),
                                (stable._K, mpmath.mpf(44715) / 10**6)]:
            assert abs(mpmath.mpf(hi) + mpmath.mpf(lo) - exact) < mpmath.mpf(2) ** -104 * abs(exact)


def test_named_activations_use_their_stable_form_and_others_their_definition():
    from derive.layers import stable

    assert set(stable.FORMS) == {derive.activation(n) for n in CONCRETE}
    t = sp.Symbol("t")
    naive = numeric.activation_fn(sp.Lambda(t, sp.log(1 + sp.exp(t))))
    assert naive(np.array([1000.0]))[0] == np.inf  # as written: e^1000 overflows
    assert numeric.activation_fn(derive.activation("relu"))(2.0) == 2.0


def _swiglu_inputs():
    rng = np.random.default_rng(7)
    x, Wg, Wu, Wd = rng.standard_normal((4, 8)), rng.standard_normal((6, 8)), rng.standard_normal((6, 8)), \
        rng.standard_normal((8, 6))
    silu = lambda t: t / (1 + np.exp(-t))
    usual = ((silu(x @ Wg.T)) * (x @ Wu.T)) @ Wd.T
    return x, Wg, Wu, Wd, usual


def test_an_agreeing_layer_is_checked_and_its_record_says_by_how_much():
    x, Wg, Wu, Wd, usual = _swiglu_inputs()
    ok = numeric.agreement("numeric.agree.swiglu", usual, numeric.gated(x, Wg, Wu, Wd.T, derive.activation("silu")),
                           statement="a = b", sizes="d=8, m=6")
    rec = ok.record()
    assert (rec["verdict"], rec["tolerance"], rec["scope"]) == ("checked", "1e-10", "d=8, m=6")
    assert rec["error"] == "< 1e-13"


@pytest.mark.parametrize("wrong", ["relu", "gelu", "identity"])
def test_a_deliberately_wrong_layer_fails_its_claim(wrong):
    x, Wg, Wu, Wd, usual = _swiglu_inputs()
    with pytest.raises(ExpectationError, match="beyond the tolerance"):
        numeric.agreement(f"numeric.agree.wrong_{wrong}", usual,
                          numeric.gated(x, Wg, Wu, Wd.T, derive.activation(wrong)), statement="a = b", sizes="d=8")


def test_a_layer_that_overflows_or_has_the_wrong_shape_is_not_evidence():
    x, Wg, Wu, Wd, usual = _swiglu_inputs()
    with pytest.raises(ExpectationError, match="inf"):
        numeric.agreement("numeric.agree.nan", usual, usual * np.nan, statement="a = b", sizes="d=8")
    with pytest.raises(ValueError, match="shapes"):
        numeric.agreement("numeric.agree.shape", usual, usual.T, statement="a = b", sizes="d=8")
    with pytest.raises(ValueError, match="tolerance"):
        numeric.agreement("numeric.agree.tol", usual, usual, tolerance=0, statement="a = b", sizes="d=8")
