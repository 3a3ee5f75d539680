from fractions import Fraction

import pytest
import sympy as sp

import derive
from derive.kernel import witness
from derive.kernel.witness import (certify_witness, components, evaluate_at, exact_value, instance_problem, sample, search,
                            undefined_functions)

a, b, c = derive.real("a b c")
p = derive.positive("p")
w = derive.nonzero("w")
n = sp.Symbol("n", negative=True)
k = sp.Symbol("k", integer=True)
t = sp.Symbol("t", real=True)
s = derive.sigma
f = sp.Function("f")
RELU = derive.activation("relu")


def test_exact_value():
    assert exact_value("", a, 2) == sp.Integer(2)
    assert exact_value("", a, Fraction(1, 3)) == sp.Rational(1, 3)
    assert exact_value("", a, sp.Rational(-1, 2)) == sp.Rational(-1, 2)
    assert exact_value("", a, sp.sqrt(2)) == sp.sqrt(2)
    assert exact_value("", p, sp.pi) == sp.pi
    assert exact_value("", k, 3) == 3
    assert isinstance(exact_value("", a, 2), sp.Integer)


@pytest.mark.parametrize("value", [0.5, sp.Float("0.5"), True, sp.Rational(1, 2) + sp.Float(1)])
def test_exact_value_refuses_floats_and_bools(value):
    with pytest.raises(TypeError, match="here: witness value for a must be exact"):
        exact_value("here", a, value)


@pytest.mark.parametrize("value", ["1", None, [1], b])
def test_exact_value_refuses_non_numbers(value):
    with pytest.raises(TypeError, match="witness value for a must be an exact number"):
        exact_value("", a, value)


@pytest.mark.parametrize("symbol, value, prop", [
    (p, 0, "positive"), (p, -1, "positive"), (w, 0, "nonzero"), (n, 1, "not positive"), (k, sp.Rational(1, 2), "integer"),
    (a, sp.I, "real"), (a, sp.oo, "real"), (p, sp.nan, "positive"),
])
def test_exact_value_refuses_values_breaking_assumptions(symbol, value, prop):
    with pytest.raises(ValueError, match=f"breaks the assumption that {symbol} is {prop}"):
        exact_value("", symbol, value)


def test_exact_value_checks_every_assumption_of_the_symbol():
    even = sp.Symbol("e", even=True)
    irrational = sp.Symbol("r", irrational=True)
    assert exact_value("", even, 4) == 4
    assert exact_value("", irrational, sp.sqrt(2)) == sp.sqrt(2)
    with pytest.raises(ValueError, match="witness e = 3 breaks the assumption that e is even"):
        exact_value("", even, 3)
    with pytest.raises(ValueError, match="witness r = 1/2 breaks the assumption that r is irrational"):
        exact_value("", irrational, sp.Rational(1, 2))


def test_search_never_leaves_the_domain_of_a_symbol():
    irrational = sp.Symbol("r", irrational=True)
    with pytest.raises(ValueError, match="no exact rational value respects the assumptions of r"):
        search(sp.ceiling(irrational) - sp.floor(irrational) - 1, [irrational])
    even = sp.Symbol("e", even=True)
    assert search(2 * sp.floor(even / 2) - even + sp.Abs(even) - even, [even]).witness[even] == -2


def test_instance_problem():
    assert instance_problem(a, 1) is None
    assert instance_problem(a, b + c) is None
    assert instance_problem(p, 2 * p + 1) is None
    assert instance_problem(w, p) is None
    assert instance_problem(s, RELU) is None
    assert instance_problem(f, sp.Lambda(t, t)) is None
    assert instance_problem(p, -1) == "p := -1 breaks the assumption that p is positive"
    assert instance_problem(p, a) == "p := a breaks the assumption that p is positive"
    assert instance_problem(w, a**2) == "w := a**2 breaks the assumption that w is nonzero"
    assert instance_problem(a, sp.Symbol("u")) == "a := u breaks the assumption that a is real"
    assert instance_problem(sp.exp, RELU) == "exp is not a variable (a symbol or an undefined function such as sigma)"
    assert instance_problem(sp.Max, RELU).startswith("Max is not a variable")
    assert instance_problem(a + b, 0).startswith("a + b is not a variable")
    assert instance_problem(sp.Symbol("e", even=True), 1) == "e := 1 breaks the assumption that e is even"


def test_components():
    assert components(a) == [(None, a)]
    assert components(sp.Matrix([[a, b], [c, 0]])) == [((0, 0), a), ((0, 1), b), ((1, 0), c), ((1, 1), 0)]


def test_undefined_functions():
    assert undefined_functions(s(a) + f(b) + sp.exp(a)) == [f, s]
    assert undefined_functions(sp.Matrix([[s(a)]])) == [s]
    assert undefined_functions(RELU(a)) == []


def test_evaluate_at():
    assert evaluate_at(s(a) * b, {a: 2, b: 3, s: RELU}) == 6
    assert evaluate_at(s(a) * b, {a: -2, b: 3, s: RELU}) == 0
    assert evaluate_at(a > 0, {a: 1}) is sp.true
    assert evaluate_at(sp.Matrix([[a, b]]), {a: 1, b: 2}) == sp.Matrix([[1, 2]])


def test_search_finds_small_witnesses_first():
    found = search(RELU(a) * b - RELU(b) * a, [a, b])
    assert found.witness == {a: 1, b: -1}
    assert found.component is None
    assert found.residual == -1
    assert found.certificate.method == "exact"


def test_search_respects_assumptions_and_conditions():
    found = search(RELU(n * a) - n * RELU(a), [a, n])
    assert found.witness[n] < 0
    found = search(RELU(c * a) - c * RELU(a), [a, c], assume=[c < 0])
    assert found.witness[c] < 0
    assert search(RELU(p * a) - p * RELU(a), [a, p]) is None


def test_search_is_deterministic():
    diff = sp.tanh(a) - a / 2 + sp.Rational(1, 7) * b
    assert search(diff, [a, b], seed_text="x").witness == search(diff, [a, b], seed_text="x").witness


def test_search_on_matrices_names_the_component():
    found = search(sp.Matrix([[0, RELU(-a) - RELU(a)]]), [a])
    assert found.component == (0, 1)


def test_search_with_fixed_values():
    found = search(s(a) * b - s(b) * a, [a, b], fixed={s: RELU})
    assert found.witness[s] == RELU


def test_search_with_no_admissible_value():
    z0 = sp.Symbol("z0", zero=True)
    assert search(sp.Integer(1), [z0]) is not None  # 0 is in the pool
    odd = sp.Symbol("odd", positive=True, integer=True, even=False)
    assert search(odd - 1, [odd]) is not None


def test_search_refuses_leftover_symbols():
    with pytest.raises(ValueError, match="witness leaves free symbols: b"):
        search(a + b, [a])


def test_certify_witness():
    assert certify_witness(RELU(a) - a, {a: -1}).residual == 1
    assert certify_witness(RELU(a) - a, {a: 1}) is None
    with pytest.raises(ValueError, match="witness does not satisfy the claim's assumptions"):
        certify_witness(RELU(c) - c, {c: -1}, assume=[c > 0])


def test_sample_agreement_is_evidence_only():
    seen = sample(sp.sin(a) ** 2 + sp.cos(a) ** 2 - 1, [a], [], 6, "seed")
    worst, used, found = seen.worst, seen.used, seen.found
    assert used == 6 and found is None and worst < 1e-20


def test_sample_with_test_functions_for_sigma():
    seen = sample(s(a) * b - s(b) * a, [a, b], [s], 6, "seed")
    worst, used, found = seen.worst, seen.used, seen.found
    assert found is not None
    assert isinstance(found.witness[s], sp.Lambda)
    assert found.certificate is not None


def test_sample_counts_only_admissible_points():
    used = sample(c - c, [c], [], 5, "seed", assume=[c > 0]).used
    assert 0 < used <= 5


def test_pool_is_exact_small_rationals():
    assert all(isinstance(v, sp.Rational) for v in witness.POOL)
    assert witness.POOL[:2] == (1, -1)
