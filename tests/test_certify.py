import flint
import pytest
import sympy as sp

import derive
from derive.kernel.certify import PRECISIONS, Certificate, Undecided, certify_nonzero, enclose, enclose_complex

a = sp.Symbol("a", real=True)
half = sp.Rational(1, 2)


def test_exact_rationals():
    assert certify_nonzero(sp.Rational(-3, 2)) == Certificate("-3/2", "", "exact")
    assert certify_nonzero(sp.Integer(7)).describe() == "exact residual 7"
    assert certify_nonzero(sp.Integer(0)) is None
    assert certify_nonzero(sp.Rational(1, 10**30)).value == "1/1000000000000000000000000000000"


def test_arb_enclosures():
    cert = certify_nonzero(sp.erf(1) - sp.Rational(84, 100))
    assert cert.method == "arb, 64 bits"
    assert cert.value == "-21/25 + erf(1)"
    ball = flint.arb(cert.enclosure)
    assert ball > 0 and ball.contains(flint.arb("0.0027007929497148693"))
    assert cert.describe().startswith("residual -21/25 + erf(1) in [0.00270079294")


def reference(expr):
    """The 50-digit value of ``expr`` (mpmath through SymPy's N) as a ball widened by its possible error."""
    old = flint.ctx.prec
    flint.ctx.prec = 300
    try:
        return flint.arb(str(sp.N(expr, 50)), "1e-45")
    finally:
        flint.ctx.prec = old


def test_each_supported_function_is_enclosed():
    for expr in [sp.exp(half), sp.log(3), sp.erf(half), sp.erfc(half), sp.tanh(half), sp.sinh(half), sp.cosh(half),
                 sp.sin(1), sp.cos(1), sp.tan(half), sp.atan(2), sp.asinh(half), sp.Abs(sp.sin(4)), sp.sign(sp.sin(4)),
                 sp.sqrt(2), sp.cbrt(3), sp.pi, sp.E, sp.Max(sp.sin(1), sp.cos(1)), sp.Min(sp.sin(1), sp.cos(1)),
                 sp.Rational(2, 3) ** sp.pi, sp.Heaviside(sp.sin(4))]:
        ball = enclose(expr)
        assert ball.overlaps(reference(expr)), expr
        assert ball.rad() < 1e-15, expr


_X5 = sp.Symbol("x")


@pytest.mark.parametrize("expr", [sp.LambertW(half), sp.airyai(-3), sp.airybi(2), sp.erfinv(sp.Rational(1, 3)),
                                  sp.loggamma(sp.Rational(7, 2)), sp.besselj(0, 1), sp.bessely(1, 3),
                                  sp.besseli(half, 3), sp.besselk(2, half), sp.CRootOf(_X5**5 - _X5 - 1, 0),
                                  sp.CRootOf(_X5**3 - 3 * _X5 + 1, 2)], ids=str)
def test_a_special_function_or_a_root_is_enclosed_about_its_value(expr):
    ball = enclose(expr)
    assert ball.overlaps(reference(expr)) and ball.rad() < 1e-15, (expr, ball)


@pytest.mark.parametrize("expr", [sp.LambertW(-1), sp.erfinv(2), sp.loggamma(-half), sp.besselj(half, -1),
                                  sp.Ci(-1)], ids=str)
def test_a_special_function_off_its_real_values_is_not_enclosed_as_a_real(expr):
    assert not expr.is_extended_real or expr.is_extended_real is None
    try:
        ball = enclose(expr)
    except Undecided:
        return
    assert not ball.is_finite(), (expr, ball)


@pytest.mark.parametrize("expr", [sp.loggamma(-half), sp.loggamma(sp.Rational(-5, 2)), sp.LambertW(-half),
                                  sp.LambertW(-3 + sp.I)], ids=str)
def test_log_gamma_and_w_off_the_real_line_are_enclosed_on_their_principal_branch(expr):
    box = enclose_complex(expr, 64)
    value = complex(sp.N(expr, 30))  # (SymPy's value, by mpmath)
    assert abs(complex(box.mid()) - value) < 1e-12 and box.real.rad() < 1e-12 and box.imag.rad() < 1e-12, (expr, box)


def test_piecewise_is_enclosed_branch_by_branch():
    elu = derive.activation("elu")
    assert certify_nonzero(elu(-1)).value == "-1 + exp(-1)"
    pw = sp.Piecewise((1, sp.sin(4) > 0), (2, True))
    assert enclose(pw) == 2
    assert enclose(sp.Piecewise((1, sp.sin(1) >= half), (2, True))) == 1
    assert enclose(sp.Piecewise((1, sp.sin(1) < 0), (2, sp.sin(1) <= 1), (3, True))) == 2


def test_close_values_need_more_bits():
    eps = sp.Rational(1, 10**40)
    cert = certify_nonzero(sp.exp(eps) - 1)
    assert cert is not None
    assert cert.method != "arb, 64 bits" or flint.arb(cert.enclosure) > 0
    assert PRECISIONS[0] == 64 and PRECISIONS[-1] >= 1024


def test_zero_is_never_certified():
    assert certify_nonzero(sp.Integer(0)) is None
    assert certify_nonzero(sp.sqrt(2) ** 2 - 2) is None
    assert certify_nonzero(sp.Add(sp.exp(sp.log(3), evaluate=False), -3, evaluate=False)) is None
    assert certify_nonzero(sp.sin(1) ** 2 + sp.cos(1) ** 2 - 1) is None
    assert certify_nonzero(sp.erf(half) + sp.erfc(half) - 1) is None
    assert certify_nonzero(sp.atan(2) + sp.atan(half) - sp.pi / 2) is None


def test_values_too_close_to_zero_are_not_certified():
    assert certify_nonzero(sp.exp(sp.Rational(1, 10**400)) - 1) is None


def test_floats_are_refused():
    assert certify_nonzero(sp.Float("0.5")) is None
    assert certify_nonzero(sp.erf(1) + sp.Float("0.5")) is None
    with pytest.raises(Undecided, match="a floating-point number is not exact"):
        enclose(sp.Float("0.5"))


def test_free_symbols_are_refused():
    with pytest.raises(ValueError, match="cannot certify a residual that still has free symbols: a, b"):
        certify_nonzero(a + sp.Symbol("b"))


def test_non_sympy_input_is_a_type_error():
    with pytest.raises(TypeError, match="certify_nonzero expects a SymPy expression, got float"):
        certify_nonzero(0.5)
    with pytest.raises(TypeError, match="got int"):
        certify_nonzero(1)


def test_a_residual_that_is_not_real_is_certified_by_a_complex_box():
    assert certify_nonzero(sp.I).method == "acb, 64 bits"
    assert certify_nonzero((-1) ** sp.Rational(1, 3) + 1).method == "acb, 64 bits"
    assert certify_nonzero(sp.I * 3 - 3).method == "acb, 64 bits"
    assert certify_nonzero(sp.sqrt(-4, evaluate=False) - 2 * sp.I) is None  # exactly zero: never certified
    assert certify_nonzero(sp.exp(sp.I * sp.pi, evaluate=False) + 1) is None


def test_a_huge_exact_residual_is_described_not_printed():
    cert = certify_nonzero(sp.Integer(10) ** 5000)
    assert cert.value == "an exact integer of 5001 digits" and cert.method == "exact"
    assert certify_nonzero(-sp.Integer(3) ** 20000).value == "an exact negative integer of 9543 digits"
    assert certify_nonzero(sp.Rational(1, 7) ** 9000).value == "an exact rational p/q, p of 1 and q of 7606 digits"


def test_outside_interval_arithmetic_is_not_certified():
    assert certify_nonzero(sp.oo) is None
    assert certify_nonzero(sp.nan) is None
    assert certify_nonzero(sp.zoo) is None
    assert certify_nonzero(sp.elliptic_k(sp.Rational(1, 3))) is None  # no interval rule for K
    assert certify_nonzero(derive.sigma(1)) is None
    assert certify_nonzero(sp.log(-2 + sp.exp(half))).method == "acb, 64 bits"  # log of a negative: not real, not 0
    assert certify_nonzero(sp.sqrt(sp.sin(4))).method == "acb, 64 bits"  # imaginary, not 0


def test_gamma_is_enclosed_and_a_ball_about_its_pole_is_not_finite():
    assert certify_nonzero(sp.gamma(sp.Rational(1, 3)) - 2) is not None  # Γ(1/3) = 2.678…
    hidden_zero = sp.sqrt(3 + 2 * sp.sqrt(2)) - sp.sqrt(2) - 1  # 0, not rewritten by SymPy
    assert not enclose_complex(sp.gamma(hidden_zero)).is_finite()
    assert certify_nonzero(sp.gamma(hidden_zero)) is None


def test_undecidable_branches():
    hidden_zero = sp.Add(sp.exp(sp.log(3), evaluate=False), -3, evaluate=False)
    with pytest.raises(Undecided, match="sign of an enclosure that straddles zero"):
        enclose(sp.Piecewise((1, sp.Gt(hidden_zero, 0, evaluate=False)), (2, True), evaluate=False))
    with pytest.raises(Undecided, match="condition Eq"):
        enclose(sp.Piecewise((1, sp.Eq(hidden_zero, 0, evaluate=False)), (2, True), evaluate=False))
    assert certify_nonzero(sp.Piecewise((1, sp.Gt(hidden_zero, 0, evaluate=False)), (2, True), evaluate=False)) is None
    with pytest.raises(Undecided, match="no interval rule"):
        enclose(sp.elliptic_k(sp.Rational(1, 3)))


def test_enclose_respects_the_precision_and_restores_it():
    before = flint.ctx.prec
    wide, narrow = enclose(sp.erf(1), 64), enclose(sp.erf(1), 512)
    assert narrow.rad() < wide.rad()
    assert wide.contains(narrow)
    assert flint.ctx.prec == before


def test_certificate_describe():
    assert Certificate("1/2", "", "exact").describe() == "exact residual 1/2"
    assert Certificate("erf(1)", "[0.84 +/- 0.01]", "arb, 64 bits").describe() == \
        "residual erf(1) in [0.84 +/- 0.01] (arb, 64 bits)"
