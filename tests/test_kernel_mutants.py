"""Tests that kill the kernel's mutants that could change a verdict (`make mutation`, tools/mutation.py).

Each test names what it pins down: a verdict, a witness, what counts as zero, an assumption checked.
"""
import pytest
import sympy as sp

import derive
from derive.kernel import certify, chains, claims, strategies, witness
from derive import rules
from derive.kernel.verdict import Verdict

a, b, c = derive.real("a b c")
p = derive.positive("p")
z = sp.Symbol("z")  # complex
n_ = sp.Symbol("n", integer=True, positive=True)
s = derive.sigma
RELU = derive.activation("relu")


# -- rules: a rewriting rule checks every entry and both sides ---------------------------------------------

def test_rewrite_rule_checks_every_entry_of_a_matrix_step():
    rule = rules._rewrite("expand", "expand", strategies.expand)  # the factory behind rules.expand
    m = sp.Matrix([[(a + b) ** 2, a]])
    assert rule.check(m, sp.Matrix([[a**2 + 2 * a * b + b**2, a]])) == "expand"
    assert rule.check(m, sp.Matrix([[a**2 + b**2, a]])) is None
    assert rule.check(m, sp.Matrix([[a**2 + 2 * a * b + b**2, b]])) is None
    assert rule.check((a + b) ** 2, a**2 + 2 * a * b + b**2) == "expand"
    assert rule.check((a + b) ** 2, a**2 + b**2) is None
    assert rule.check(a, -a) is None


def test_rewrite_rule_on_equations_needs_every_side():
    rule = rules._rewrite("expand", "expand", strategies.expand)
    assert rule.check(((a + b) ** 2, a), (a**2 + 2 * a * b + b**2, a)) == "expand"
    assert rule.check(((a + b) ** 2, a), (a**2 + 2 * a * b + b**2, b)) is None
    assert rule.check(((a + b) ** 2, a), (a**2 + b**2, a)) is None
    assert rule.check((a, b), (-a, -b)) is None
    assert rule.check((a, b), (b, a)) is None


def test_named_rules_reject_a_wrong_matrix_step_in_a_chain():
    m = sp.Matrix([[(a + b) ** 2, a]])
    good = derive.chain("mut.matrix_good", m).step(sp.Matrix([[a**2 + 2 * a * b + b**2, a]]), "expand")
    assert good.verdict is Verdict.PROVED
    bad = derive.chain("mut.matrix_bad", m, expect=None).step(sp.Matrix([[a**2 + 2 * a * b + b**2, -a]]), "expand")
    assert bad.verdict is Verdict.UNPROVEN


def test_rearrange_relates_equations_only():
    with pytest.raises(ValueError):
        derive.chain("mut.rearrange_expression", a + b, expect=None).step(b + a, rules.rearrange())
    ch = derive.chain("mut.rearrange", (a + b, c)).step((a, c - b), rules.rearrange())
    assert ch.verdict is Verdict.PROVED
    assert rules.rearrange().check((a + b, c), (c, a + b)) == "rearrangement"
    assert rules.rearrange().check((a + b, c), (a, c + b)) is None


# -- certify: the branch of a Piecewise is chosen by conditions decided on intervals ------------------------

def _gt(x, y):
    return sp.StrictGreaterThan(x, y, evaluate=False)



def test_strict_and_weak_comparisons_are_decided_exactly_at_their_boundary():
    half = sp.Rational(1, 2)
    decided = {
        "1 > 0": (_gt(1, 0), True), "0 > 0": (_gt(0, 0), False), "-1 > 0": (_gt(-1, 0), False),
        "1/2 > 0": (_gt(half, 0), True), "1 > 2": (_gt(1, 2), False), "2 > 1": (_gt(2, 1), True),
        "1 < 2": (sp.StrictLessThan(1, 2, evaluate=False), True),
        "2 < 1": (sp.StrictLessThan(2, 1, evaluate=False), False),
        "1 < 1": (sp.StrictLessThan(1, 1, evaluate=False), False),
        "1 >= 1": (sp.GreaterThan(1, 1, evaluate=False), True),
        "1 >= 2": (sp.GreaterThan(1, 2, evaluate=False), False),
        "2 >= 1": (sp.GreaterThan(2, 1, evaluate=False), True),
        "1 <= 1": (sp.LessThan(1, 1, evaluate=False), True),
        "2 <= 1": (sp.LessThan(2, 1, evaluate=False), False),
        "1 <= 2": (sp.LessThan(1, 2, evaluate=False), True),
    }
    with certify._precision(64):
        got = {k: certify._condition(cond) for k, (cond, _) in decided.items()}
    assert got == {k: want for k, (_, want) in decided.items()}


def test_a_comparison_too_close_to_call_is_undecided():
    with sp.evaluate(False):
        zero_ish = sp.Add(sp.Pow(sp.Pow(2, sp.Rational(1, 2)), 2), -2)  # exactly 0, but not as built
    with certify._precision(64), pytest.raises(certify.Undecided):
        certify._condition(_gt(zero_ish, 0))
    with certify._precision(64), pytest.raises(certify.Undecided):
        certify._condition(sp.Eq(zero_ish, 0, evaluate=False))


def test_conditions_true_false_and_or_not():
    with certify._precision(64):
        assert certify._condition(sp.true) is True
        assert certify._condition(True) is True
        assert certify._condition(sp.false) is False
        assert certify._condition(False) is False
        both = sp.And(_gt(1, 0), _gt(2, 1), evaluate=False)
        one = sp.And(_gt(1, 0), _gt(1, 2), evaluate=False)
        assert certify._condition(both) is True
        assert certify._condition(one) is False
        assert certify._condition(sp.Or(_gt(0, 1), _gt(1, 2), evaluate=False)) is False
        assert certify._condition(sp.Or(_gt(0, 1), _gt(2, 1), evaluate=False)) is True
        assert certify._condition(sp.Not(both, evaluate=False)) is False
        assert certify._condition(sp.Not(one, evaluate=False)) is True


def test_unevaluated_piecewise_residual_takes_the_branch_that_holds():
    with sp.evaluate(False):
        first = sp.Piecewise((sp.Integer(1), _gt(sp.Integer(0), 0)), (sp.Integer(-1), True))
        second = sp.Piecewise((sp.Integer(1), _gt(sp.Integer(1), 2)), (sp.Integer(3), _gt(2, 1)))
    assert certify.enclose(first) == -1
    assert certify.enclose(second) == 3
    cert = certify.certify_nonzero(first)
    assert cert.method == "arb, 64 bits" and cert.enclosure.startswith("-1")


def test_a_complex_box_off_zero_in_its_real_part_alone_excludes_zero():
    import flint
    assert certify._excludes_zero(flint.acb(flint.arb(1) / 2, 0)) is True
    assert certify._excludes_zero(flint.acb(-1, 0)) is True
    assert certify._excludes_zero(flint.acb(0, flint.arb(1) / 2)) is True
    assert certify._excludes_zero(flint.acb(0, 0)) is False


# -- rules.using: the step must be the claim's identity, either way round ----------------------------------

def test_using_accepts_the_claims_identity_either_way_and_nothing_else():
    sq = derive.claim("mut.square", (a + b) ** 2, a**2 + 2 * a * b + b**2).prove()
    fwd = derive.chain("mut.using_fwd", (a + b) ** 2 + c).step(a**2 + 2 * a * b + b**2 + c, rules.using(sq))
    back = derive.chain("mut.using_back", a**2 + 2 * a * b + b**2 + c).step((a + b) ** 2 + c, rules.using(sq))
    wrong = derive.chain("mut.using_wrong", (a + b) ** 2 + c, expect=None).step(a**2 + b**2 + c, rules.using(sq))
    assert (fwd.verdict, back.verdict, wrong.verdict) == (Verdict.PROVED, Verdict.PROVED, Verdict.UNPROVEN)
    eq = derive.chain("mut.using_eq", ((a + b) ** 2, c)).step((a**2 + 2 * a * b + b**2, c), rules.using(sq))
    assert eq.verdict is Verdict.PROVED
    eq_wrong = derive.chain("mut.using_eq_wrong", ((a + b) ** 2, c), expect=None).step((a**2 + b**2, c), rules.using(sq))
    assert eq_wrong.verdict is Verdict.UNPROVEN


def test_using_an_unproved_claim_proves_nothing():
    sq = derive.claim("mut.square_unproved", (a + b) ** 2, a**2 + 2 * a * b + b**2)
    ch = derive.chain("mut.using_unproved", (a + b) ** 2, expect=None).step(a**2 + 2 * a * b + b**2, rules.using(sq))
    assert ch.verdict is Verdict.UNPROVEN


# -- claims: a named instance --------------------------------------------------------------------------------

def test_instance_stand_in_must_meet_the_assumptions_where_the_general_claim_applies_it():
    sr = sp.Function("sr", real=True)
    t = sp.Symbol("t")
    general = derive.claim("mut.sign_cubed", sp.sign(sr(z)) ** 3, sp.sign(sr(z))).prove()
    assert general.verdict is Verdict.PROVED
    false = derive.claim("mut.sign_cubed_complex", sp.sign(z) ** 3, sp.sign(z), expect=None)
    with pytest.raises(ValueError, match="at a complex argument"):
        false.prove(instance_of=general, mapping={sr: sp.Lambda(t, t)})
    assert false.verdict is Verdict.UNPROVEN


def test_matrix_instance_is_proved_entry_by_entry():
    m = sp.Matrix([[(a + b) ** 2, a * b]])
    general = derive.claim("mut.matrix_general", m, sp.Matrix([[a**2 + 2 * a * b + b**2, b * a]])).prove()
    inst = derive.claim("mut.matrix_instance", sp.Matrix([[(c + 1) ** 2, c]]),
                        sp.Matrix([[c**2 + 2 * c + 1, c]])).prove(instance_of=general, mapping={a: c, b: 1})
    assert inst.verdict is Verdict.PROVED and inst.evidence.strategy == "instance"
    other = derive.claim("mut.matrix_not_instance", sp.Matrix([[(c + 1) ** 2, c]]),
                         sp.Matrix([[c**2 + 2 * c + 1, -c]]), expect=None).prove(instance_of=general, mapping={a: c, b: 1})
    assert other.verdict is Verdict.UNPROVEN


# -- claims: check and decide ----------------------------------------------------------------------------

def test_check_takes_one_point_and_refuses_none():
    one = derive.claim("mut.check_one", (a + b) ** 2, a**2 + 2 * a * b + b**2).check(points=1)
    assert one.verdict is Verdict.CHECKED
    assert one.evidence.detail.startswith("agrees at 1 seeded rational point,")
    with pytest.raises(TypeError, match="points must be a whole number >= 1"):
        derive.claim("mut.check_zero", (a + b) ** 2, a**2 + 2 * a * b + b**2).check(points=0)


def test_check_of_a_claim_without_symbols_reads_its_one_point_once():
    t = sp.Symbol("t", real=True)
    closed = derive.claim("mut.check_closed", sp.Integral(t, (t, 0, 1)), sp.Rational(1, 2)).check(points=12)
    assert closed.verdict is Verdict.CHECKED
    assert closed.evidence.detail.startswith("agrees at 1 seeded rational point,")


def test_check_of_a_real_sigma_applied_at_a_complex_argument_has_no_stand_in():
    sr = sp.Function("sr", real=True)
    with pytest.raises(ValueError, match="no test function meets the assumptions of sr"):
        derive.claim("mut.real_sigma_complex", sr(z) * z, sr(z) * 2).check()
    with pytest.raises(ValueError, match="no test function meets the assumptions of sr"):
        witness.stand_ins_for(sr, sr(z))
    assert len(witness.stand_ins_for(sr, sr(a))) == 6


def test_decide_never_checks_matrix_symbols_and_refutes_by_search():
    d = sp.Symbol("d", positive=True, integer=True)
    X, Y = sp.MatrixSymbol("X", d, d), sp.MatrixSymbol("Y", d, d)
    symbolic = derive.claim("mut.decide_symbolic", X * Y, Y * X).decide()
    assert symbolic.verdict is Verdict.UNPROVEN
    false = derive.claim("mut.decide_false", RELU(a) * b, RELU(b) * a).decide()
    assert false.verdict is Verdict.REFUTED
    assert false.evidence.detail == "exact, searched witness"
    assert false.evidence.witness == {"a": "1", "b": "-1"}


# -- rules.using: the claim's identity may be added with either sign -------------------------------------------
def test_using_a_claim_in_either_orientation():
    # a claim whose difference is not zero by expansion alone (it needs the sign split), used both ways
    odd = derive.claim("mut.relu_odd", RELU(a) - RELU(-a), a).prove()
    forward = derive.chain("mut.using_forward", RELU(a) - RELU(-a)).step(a, rules.using(odd))
    backward = derive.chain("mut.using_backward", a).step(RELU(a) - RELU(-a), rules.using(odd))
    assert (odd.verdict, forward.verdict, backward.verdict) == (Verdict.PROVED,) * 3
    assert derive.chain("mut.using_wrong", a, expect=None).step(RELU(a) + RELU(-a), rules.using(odd)).verdict \
        is Verdict.UNPROVEN


# -- an instance of a matrix claim is proved entry by entry, and only the same statement ---------------------
def test_an_instance_of_a_matrix_claim():
    # entries whose differences are not zero by expansion alone, so that the instance is compared as it is
    general = derive.claim("mut.matrix_general", sp.Matrix([[RELU(a) - RELU(-a), s(a) * b]]),
                           sp.Matrix([[a, b * s(a)]])).prove()
    inst = derive.claim("mut.matrix_instance", sp.Matrix([[RELU(c + 1) - RELU(-c - 1), s(c + 1) * 2]]),
                        sp.Matrix([[c + 1, 2 * s(c + 1)]]))
    assert general.verdict is Verdict.PROVED
    assert inst.prove(instance_of=general, mapping={a: c + 1, b: 2}).verdict is Verdict.PROVED
    other = derive.claim("mut.matrix_other", sp.Matrix([[RELU(c + 1) - RELU(-c - 1), s(c + 1) * 2]]),
                         sp.Matrix([[c + 2, 2 * s(c + 1)]]), expect=None)
    assert other.prove(instance_of=general, mapping={a: c + 1, b: 2}).verdict is not Verdict.PROVED


# -- certify: a rational power with a root other than the square root is enclosed as that power ---------------
@pytest.mark.parametrize("base, power, low, high", [
    (1 + sp.sqrt(2), sp.Rational(2, 3), "1.7996", "1.7997"),   # (1 + √2)^(2/3) = 1.79963…
    (1 + sp.sqrt(2), sp.Rational(5, 3), "4.3446", "4.3447"),   # (1 + √2)^(5/3) = 4.34469…
    (3 + sp.sqrt(2), sp.Rational(3, 4), "3.0453", "3.0454"),   # (3 + √2)^(3/4) = 3.04536…
])
def test_a_rational_power_is_enclosed_where_it_lies(base, power, low, high):
    import flint

    value = sp.Pow(base, power)
    assert sp.Rational(low) < value.evalf(30) < sp.Rational(high)
    ball = certify.enclose(value, 64)
    assert ball > flint.arb(low) and ball < flint.arb(high)


# -- every size: the generic entry stands for every row and column -------------------------------------------
def test_block_matrices_that_differ_below_the_first_row_or_right_of_the_first_column_are_not_equal():
    d, m_ = sp.symbols("d m", integer=True, positive=True)
    top = sp.MatrixSymbol("t", 1, d)
    B, C = sp.MatrixSymbol("B", m_, d), sp.MatrixSymbol("C", m_, d)
    rows = derive.claim("mut.blocks_rows", sp.BlockMatrix([[top], [B]]), sp.BlockMatrix([[top], [C]]), expect=None)
    assert rows.prove().verdict is not Verdict.PROVED
    left = sp.MatrixSymbol("l", d, 1)
    cols = derive.claim("mut.blocks_cols", sp.BlockMatrix([[left, B.T]]), sp.BlockMatrix([[left, C.T]]), expect=None)
    assert cols.prove().verdict is not Verdict.PROVED


# -- finite sums: a factor outside a sum may not share the summation index's name ------------------------------
def test_a_free_symbol_named_like_the_index_is_not_taken_into_the_sum():
    i, n_ = sp.Symbol("i", integer=True), sp.Symbol("n", integer=True, positive=True)
    f = sp.Function("f", real=True)
    lhs, rhs = i * sp.Sum(f(i), (i, 0, n_ - 1)), sp.Sum(i * f(i), (i, 0, n_ - 1))
    c = derive.claim("mut.index_outside", lhs, rhs, expect=None).prove()
    assert c.verdict is not Verdict.PROVED  # false: at i = 0 the left side is 0, the right f(1) + 2 f(2) + …


# -- check: every component of every sample is compared; samples outside the assumptions are skipped, not fatal --
@pytest.mark.parametrize("lhs, rhs", [
    (sp.Matrix([[a, b]]), sp.Matrix([[a, b + 1]])),              # the first component agrees, the second never
    (sp.Matrix([[a * b, a, b]]), sp.Matrix([[b * a, a, 2 * b]])),
    (sp.Matrix([[0 * a, c]]), sp.Matrix([[0, c - 1]])),
], ids=["second_of_two", "third_of_three", "zero_first"])
def test_check_compares_every_component(lhs, rhs):
    c = derive.claim("mut.check_components", lhs, rhs, expect=None).check()
    assert c.verdict is Verdict.REFUTED, c.evidence.detail


@pytest.mark.parametrize("ident", ["mut.check_assume_1", "mut.check_assume_2", "mut.check_assume_3",
                                   "mut.check_assume_4", "mut.check_assume_5"])
def test_check_skips_samples_outside_the_assumptions_and_goes_on(ident):
    # false for every a > 0; about half the seeded samples have a ≤ 0 and are skipped
    c = derive.claim(ident, sp.Abs(a), -a, assume=[a > 0], expect=None).check()
    assert c.verdict is Verdict.REFUTED, c.evidence.detail


@pytest.mark.parametrize("ident", ["mut.check_undefined_1", "mut.check_undefined_2", "mut.check_undefined_3",
                                   "mut.check_undefined_4", "mut.check_undefined_5"])
def test_check_skips_samples_where_a_divisor_vanishes_and_goes_on(ident):
    # a / (|a| - a) is undefined for every a ≥ 0 and -1/2 for a < 0
    c = derive.claim(ident, a / (sp.Abs(a) - a), sp.Integer(1), expect=None).check()
    assert c.verdict is Verdict.REFUTED, c.evidence.detail


def test_check_and_decide_say_when_the_expected_verdict_was_not_reached():
    with pytest.raises(derive.ExpectationError, match="expected checked, got unproven"):
        derive.claim("mut.check_expected", sp.tanh(a), 2 / (1 + sp.exp(-2 * a)) - 1, expect="checked").check(budget=1e-6)
    with pytest.raises(derive.ExpectationError, match="expected refuted"):
        derive.claim("mut.decide_expected", sp.tanh(a), 2 / (1 + sp.exp(-2 * a)) - 1, expect="refuted").decide()


# -- shapes: sizes are the same when their difference expands to zero, and only then -------------------------------
@pytest.mark.parametrize("p, q", [((n_ + 1) ** 2, n_**2 + 2 * n_ + 1), (n_ * (n_ + 2), n_**2 + 2 * n_),
                                  ((n_ + 1) * (n_ - 1) + 1, n_**2)])
def test_sizes_written_differently_are_one_size(p, q):
    assert derive.claim("mut.same_size", sp.ZeroMatrix(p, 1), sp.ZeroMatrix(q, 1)).prove().verdict is Verdict.PROVED


@pytest.mark.parametrize("p, q", [(n_ + 1, n_), (n_**2 + 1, n_**2), (2 * n_, 2 * n_ + 1)])
def test_sizes_one_apart_are_two_sizes(p, q):
    with pytest.raises(ValueError, match="must have the same shape"):
        derive.claim("mut.other_size", sp.ZeroMatrix(p, 1), sp.ZeroMatrix(q, 1))


# -- every size: a summand with matrix entries is generalised, then split on the sign of each entry's argument ---
def test_the_gated_relu_layer_keeps_positive_scaling_at_every_size():
    from derive import forms

    d, m, n = sp.symbols("d m n", integer=True, positive=True)
    x, Q, K, V = (sp.MatrixSymbol("x", 1, d), sp.MatrixSymbol("Q", m, d), sp.MatrixSymbol("K", m, d),
                  sp.MatrixSymbol("V", m, n))
    al = derive.positive("alpha")
    G = lambda Q_, K_, act: forms.gated(x, Q_, K_, V, act)  # noqa: E731
    kept = derive.claim("mut.every_size_relu", G(al * Q, K / al, RELU), G(Q, K, RELU)).prove()
    assert kept.verdict is Verdict.PROVED and "summand zero by sign-split" in kept.evidence.detail
    negative = derive.claim("mut.every_size_relu_negative", G(-al * Q, -K / al, RELU), G(Q, K, RELU), expect=None)
    assert negative.prove().verdict is not Verdict.PROVED
