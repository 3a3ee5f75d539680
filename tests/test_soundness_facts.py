"""Soundness by class, SymPy's facts: a sign, a parity, a realness or a finiteness that SymPy reads from the
arguments' assumptions and that fails at some value those assumptions allow (:mod:`derive.kernel.facts`).

Each class has at least three variants. A variant names an expression, a fact and a point the assumptions allow
where the fact is false; it passes when, beside derive, SymPy does not assert the fact of the expression (it may say
nothing). SymPy alone asserts each of them. A few controls check that the fact is still read where it holds.
"""
import pytest
import sympy as sp

import derive  # noqa: F401  (its readings of SymPy's facts are installed on import)

half = sp.Rational(1, 2)
N_ = sp.Symbol("n", integer=True)
NNEG = sp.Symbol("n_neg", integer=True, negative=True)
J_ = sp.Symbol("j", integer=True, odd=True)
K_ = sp.Symbol("k", integer=True)
X_ = sp.Symbol("x", real=True)
XNEG = sp.Symbol("x_neg", negative=True)
Y_ = sp.Symbol("y", integer=True)
S_ = sp.Symbol("s", imaginary=True)
NI = sp.Symbol("t", noninteger=True)  # a real that is not an integer
Q_ = sp.Symbol("q", rational=True)
P_ = sp.Symbol("p", positive=True)


def _contradicts(expr, fact, point, value=None):
    """The value of ``expr`` at ``point`` (exact; ``value`` where SymPy built ``expr`` as something else), and
    whether SymPy's reading of ``fact`` for ``expr`` is its opposite."""
    value = sp.expand(expr.xreplace(point)) if value is None else value
    truth = getattr(value, f"is_{fact}")
    assert truth is not None, f"{value}: the test's point must settle is_{fact}"
    return value, getattr(expr, f"is_{fact}") is (not truth)


CASES = {
    # binomial(n, k) read as negative for every odd k; as zoo for a negative n and a k that may be an integer;
    # as not an integer for a k that is not
    "binomial_positive": (lambda: sp.binomial(N_, J_), "negative", {N_: 5, J_: 1}),
    "binomial_zero": (lambda: sp.binomial(N_, J_), "zero", {N_: -4, J_: -3}),
    "binomial_nonnegative": (lambda: sp.binomial(N_, J_), "nonpositive", {N_: 1, J_: 1}),
    "binomial_not_zoo": (lambda: sp.binomial(NNEG, X_), "finite", {NNEG: -4, X_: 1}, sp.binomial(-4, 1)),
    "binomial_integer": (lambda: sp.binomial(X_, NI), "integer", {X_: half, NI: half}),
    # x^(y/2) read as imaginary for any integer y (at y = 2 it is x)
    "pow_half_imaginary": (lambda: XNEG ** (Y_ / 2), "imaginary", {XNEG: -4, Y_: 2}),
    "pow_half_real": (lambda: XNEG ** (Y_ / 2), "real", {XNEG: -4, Y_: -2}),
    "pow_half_rational": (lambda: XNEG ** (Y_ / 2), "rational", {XNEG: -1, Y_: 0}),
    # a power's parity read from a base that is not an integer
    "square_imaginary_even": (lambda: S_ ** 2, "even", {S_: 2 * sp.I}),
    "square_imaginary_odd": (lambda: S_ ** 2, "odd", {S_: sp.I}),
    "square_root_even": (lambda: NI ** 2, "even", {NI: sp.sqrt(2)}),
    "square_plus_odd": (lambda: NI ** 2 + J_, "odd", {NI: sp.sqrt(2), J_: -3}),
    # log u read as finite where u may be 0
    "log_integer": (lambda: sp.log(N_), "finite", {N_: 0}),
    "log_real": (lambda: sp.log(X_), "finite", {X_: 0}),
    "log_rational": (lambda: sp.log(Q_), "finite", {Q_: 0}),
    # ψ⁽ⁿ⁾ read as finite, or positive, at its poles
    "polygamma_one": (lambda: sp.polygamma(1, X_), "finite", {X_: 0}),
    "polygamma_three": (lambda: sp.polygamma(3, X_), "positive", {X_: -2}),
    "digamma_nonnegative": (lambda: sp.polygamma(0, sp.Symbol("u", nonnegative=True)), "finite",
                            {sp.Symbol("u", nonnegative=True): 0}),
    # Γ of a non-integer read as not positive for an odd floor, also past 1
    "gamma_three_halves": (lambda: sp.gamma(2 * K_ + sp.Rational(3, 2)), "positive", {K_: 0}),
    "gamma_seven_halves": (lambda: sp.gamma(2 * K_ + sp.Rational(7, 2)), "positive", {K_: 0}),
    "gamma_eleven_halves": (lambda: sp.gamma(2 * K_ + sp.Rational(3, 2)), "positive", {K_: 2}),
    # B(x, y) read as real, so finite, at its poles
    "beta_integers": (lambda: sp.beta(N_, K_), "finite", {N_: -4, K_: -3}),
    "beta_real": (lambda: sp.beta(X_, K_), "real", {X_: 1, K_: 0}),
    "beta_rational": (lambda: sp.beta(Q_, Q_), "finite", {Q_: 0}),
    # rising and falling factorials read as not integers for a negative k or a non-integer x
    "rf_negative": (lambda: sp.rf(N_, sp.Symbol("m", integer=True, negative=True)), "integer",
                    {N_: 0, sp.Symbol("m", integer=True, negative=True): -1}),
    "ff_negative": (lambda: sp.ff(N_, sp.Symbol("m", integer=True, negative=True)), "integer",
                    {N_: -2, sp.Symbol("m", integer=True, negative=True): -1}),
    "rf_zero": (lambda: sp.rf(N_, XNEG), "zero", {N_: -4, XNEG: -half}),
    # a function read as real, algebraic or finite at its pole
    "tan_half_turns": (lambda: sp.tan(sp.pi * K_ / 2), "finite", {K_: 1}),
    "sec_half_turns": (lambda: sp.sec(sp.pi * K_ / 2), "real", {K_: -3}),
    "tan_real": (lambda: sp.tan(X_), "extended_real", {X_: sp.pi / 2}),
    "csch_real": (lambda: sp.csch(X_), "extended_real", {X_: 0}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_fact_sympy_reads_where_it_fails_is_not_read(case):
    build, fact, point, *value = CASES[case]
    expr = build()
    value, wrong = _contradicts(expr, fact, point, *value)
    assert not wrong, f"{expr}: is_{fact} = {getattr(expr, f'is_{fact}')}, but at {point} it is {value}"


@pytest.mark.parametrize("expr, fact, want", [
    (sp.binomial(NNEG, sp.Symbol("k_odd", integer=True, odd=True, nonnegative=True)), "negative", True),
    (sp.binomial(N_, sp.Symbol("k_even", integer=True, even=True)), "nonnegative", True),
    (XNEG ** (sp.Symbol("o", integer=True, odd=True) / 2), "imaginary", True),
    (sp.Symbol("e", integer=True, even=True) ** 2, "even", True),
    (sp.Symbol("o", integer=True, odd=True) ** 3, "even", False),
    (sp.log(P_), "finite", True),
    (sp.polygamma(1, P_), "positive", True),
    (sp.gamma(P_), "positive", True),
    (sp.gamma(-half), "positive", False),
    (sp.beta(P_, P_), "real", True),
    (sp.tan(sp.Rational(1, 3)), "positive", True),
    (sp.tanh(X_), "real", True),
    (sp.coth(P_), "positive", True),
], ids=lambda v: str(v) if isinstance(v, (str, bool)) else None)
def test_a_fact_that_holds_is_still_read(expr, fact, want):
    assert getattr(expr, f"is_{fact}") is want, (expr, fact)
