import pytest
import sympy as sp

import derive
from derive import ExpectationError, Verdict, chain, claim, rules

a, b, c = derive.real("a b c")
p = derive.positive("p")
w = derive.nonzero("w")
t = sp.Symbol("t", real=True)
s = derive.sigma
RELU = derive.activation("relu")
d = sp.Symbol("d", positive=True, integer=True)
X, Y = sp.MatrixSymbol("X", d, d), sp.MatrixSymbol("Y", d, d)


def free(identifier, start, **kw):
    """A chain with no expectation: failing steps leave it unproven instead of raising."""
    return chain(identifier, start, expect=None, **kw)


# -- equality chains, one rule at a time ----------------------------------------------------------------------
EQUALITY_STEPS = [
    ("expand", (a + b) ** 2, a**2 + 2 * a * b + b**2),
    ("factor", a**2 - b**2, (a - b) * (a + b)),
    ("rational", (a**2 - 1) / (a - 1), a + 1),
    ("definition", a + b, b + a),
    ("matrix-algebra", (X * Y).T, Y.T * X.T),
    ("sign-split", RELU(2 * a), 2 * RELU(a)),
    ("simplify", sp.sin(a) ** 2 + sp.cos(a) ** 2, sp.Integer(1)),
]
WRONG_STEPS = [
    ("expand", (a + b) ** 2, a**2 + b**2),
    ("factor", a**2 + b**2, (a - b) * (a + b)),
    ("rational", (a**2 - 1) / (a - 1), a - 1),
    ("definition", a + b, a * b),
    ("matrix-algebra", (X * Y).T, X.T * Y.T),
    ("sign-split", RELU(-a), RELU(a)),
    ("simplify", sp.sin(a) ** 2 - sp.cos(a) ** 2, sp.Integer(1)),
]


@pytest.mark.parametrize("name, start, step", EQUALITY_STEPS, ids=[e[0] for e in EQUALITY_STEPS])
def test_each_rewriting_rule_proves_a_true_step(name, start, step):
    ch = chain("demo.step", start, assume=[sp.Ne(a - 1, 0)]).step(step, name)
    assert ch.verdict is Verdict.PROVED
    assert ch.evidence.strategy == "chain"
    assert ch.evidence.detail == f"1 step, each checked: {name}"
    assert ch.steps[0][1] is rules.as_rule(name)


@pytest.mark.parametrize("name, start, step", WRONG_STEPS, ids=[e[0] for e in WRONG_STEPS])
def test_each_rewriting_rule_rejects_a_false_step(name, start, step):
    ch = free("demo.wrong", start, assume=[sp.Ne(a - 1, 0)]).step(step, name)
    assert ch.verdict is Verdict.UNPROVEN
    assert ch.evidence.detail.startswith(f"step 1 ({name}) does not hold: ")
    assert f"the step says {sp.sstr(step)}" in ch.evidence.detail  # and what the rule made of the start
    with pytest.raises(ExpectationError, match=r"claim demo\.wrong_expected: expected proved, got unproven"):
        chain("demo.wrong_expected", start, assume=[sp.Ne(a - 1, 0)]).step(step, name)


def test_a_step_that_cancels_a_divisor_needs_it_nonzero():
    ch = free("demo.cancel", (a**2 - 1) / (a - 1)).step(a + 1, "rational")
    assert ch.verdict is Verdict.UNPROVEN
    assert ch.evidence.detail == ("step 1 (rational) needs Ne(a - 1, 0), which neither the symbols' assumptions "
                                  "nor the chain's assume give")


def test_rules_by_object_and_by_name_agree():
    assert rules.as_rule("expand") is rules.expand
    assert rules.as_rule(rules.sign_split) is rules.sign_split
    assert rules.as_rule("matrix-algebra") is rules.matrix_algebra
    with pytest.raises(ValueError, match="unknown rule 'magic'; known by name: expand, factor"):
        rules.as_rule("magic")
    with pytest.raises(ValueError, match="unknown rule 3"):
        rules.as_rule(3)


def test_a_chain_of_several_steps():
    ch = (chain("demo.many", (a + 1) ** 2 - 1)
          .step(a**2 + 2 * a, "expand")
          .step(a * (a + 2), "factor"))
    assert ch.verdict is Verdict.PROVED
    assert ch.evidence.detail == "2 steps, each checked: expand, factor"
    assert len(ch.steps) == 2


def test_one_failing_step_leaves_the_chain_unproven():
    ch = free("demo.middle", (a + 1) ** 2).step(a**2 + 1, "expand").step(a**2 + 1, "definition")
    assert ch.verdict is Verdict.UNPROVEN
    assert ch.evidence.detail == ("step 1 (expand) does not hold: from (a + 1)**2, expand gives a**2 + 2*a + 1, but "
                                  "the step says a**2 + 1")
    assert ch.steps[0][2] is None and ch.steps[1][2] is not None


def test_substitute():
    ch = chain("demo.subst", a * b, assume=[sp.Eq(a, c)]).step(c * b, rules.substitute({a: c}))
    assert ch.verdict is Verdict.PROVED
    assert free("demo.subst_wrong", a * b, assume=[sp.Eq(a, c)]).step(c * a, rules.substitute({a: c})).verdict is Verdict.UNPROVEN
    assert rules.substitute({a: c}).label == r"\text{substitute }a := c"


def test_substitute_needs_the_definition_assumed():
    ch = free("demo.subst_free", a * b).step(c * b, rules.substitute({a: c}))
    assert ch.verdict is Verdict.UNPROVEN
    assert ch.evidence.detail == ("step 1 (substitute) needs Eq(a, c), which neither the symbols' assumptions "
                                  "nor the chain's assume give")


def test_substitute_takes_no_function():
    with pytest.raises(TypeError, match="substitute: replaces symbols by their definitions, got the function sigma"):
        rules.substitute({s: RELU})


def test_mappings_must_be_non_empty_dicts_of_variables():
    with pytest.raises(TypeError, match="substitute: needs a non-empty dict of symbol -> value, got {}"):
        rules.substitute({})
    with pytest.raises(TypeError, match="instantiate: needs a non-empty dict"):
        rules.instantiate([(a, 1)])
    with pytest.raises(TypeError, match="instantiate: keys must be symbols or functions, got a \\+ b"):
        rules.instantiate({a + b: 0})
    with pytest.raises(ValueError, match="instantiate: exp is not a variable"):
        rules.instantiate({sp.exp: sp.Lambda(t, t)})
    with pytest.raises(ValueError, match="substitute: exp is not a variable"):
        rules.substitute({sp.exp: sp.Lambda(t, t)})


# -- implication chains -------------------------------------------------------------------------------------
def test_sigma_over_z_lemma():
    ch = (chain("lemma.sigma_linear", (s(a) * b, s(b) * a))
          .step((s(a), s(1) * a), rules.instantiate({b: 1}))
          .step((s(w), s(1) * w), rules.instantiate({a: w}))
          .step((s(w) / w, s(1)), rules.divide(w)))
    assert ch.verdict is Verdict.PROVED
    assert ch.evidence.detail == "3 steps, each checked: divide, instantiate"
    assert ch.equations


def test_instantiate_checks_the_instance():
    ch = free("demo.inst", (s(a) * b, s(b) * a)).step((s(a), s(2) * a), rules.instantiate({b: 1}))
    assert ch.verdict is Verdict.UNPROVEN


def test_instantiate_respects_the_assumptions_of_the_symbols():
    with pytest.raises(ValueError, match="instantiate: p := -1 breaks the assumption that p is positive"):
        rules.instantiate({p: -1})
    with pytest.raises(ValueError, match="instantiate: w := 0 breaks the assumption that w is nonzero"):
        rules.instantiate({w: 0})
    with pytest.raises(ValueError, match="instantiate: a := I breaks the assumption that a is real"):
        rules.instantiate({a: sp.I})
    assert rules.instantiate({p: 2}).name == "instantiate"
    assert rules.instantiate({w: p}).name == "instantiate"


def test_relu_homogeneity_cannot_be_instantiated_at_a_negative_scale():
    start = (RELU(p * a), p * RELU(a))
    with pytest.raises(ValueError, match="breaks the assumption that p is positive"):
        chain("demo.relu_negative", start).step((RELU(-a), -RELU(a)), rules.instantiate({p: -1}))
    assert claim("demo.relu_odd", RELU(-a), -RELU(a)).refute().verdict is Verdict.REFUTED


def test_divide():
    ch = chain("demo.div", (w * a, w * b)).step((a, b), rules.divide(w))
    assert ch.verdict is Verdict.PROVED
    zero = free("demo.div_zero", (c * a, c * b)).step((a, b), rules.divide(c))
    assert zero.verdict is Verdict.UNPROVEN
    assert zero.evidence.detail == ("step 1 (divide) needs Ne(c, 0), which neither the symbols' assumptions nor "
                                    "the chain's assume give")
    assumed = chain("demo.div_assumed", (c * a, c * b), assume=[sp.Ne(c, 0)]).step((a, b), rules.divide(c))
    assert assumed.verdict is Verdict.PROVED
    with pytest.raises(ValueError, match="divide: 0 is zero"):
        rules.divide(sp.Integer(0))
    assert free("demo.div_wrong", (w * a, w * b)).step((a, 2 * b), rules.divide(w)).verdict is Verdict.UNPROVEN
    with pytest.raises(TypeError, match="divide: by must be a SymPy expression, got int"):
        rules.divide(2)


def test_rearrange():
    ch = chain("demo.re", (a + b, c)).step((a, c - b), rules.rearrange()).step((c - b, a), rules.rearrange())
    assert ch.verdict is Verdict.PROVED
    assert free("demo.re_wrong", (a + b, c)).step((a, c + b), rules.rearrange()).verdict is Verdict.UNPROVEN


# -- using other claims ---------------------------------------------------------------------------------------
def test_using_a_proved_claim():
    square = claim("demo.square", (a + b) ** 2, a**2 + 2 * a * b + b**2).prove()
    ch = chain("demo.uses", (c + 1) ** 2 + a).step(c**2 + 2 * c + 1 + a, rules.using(square, {a: c, b: 1}))
    assert ch.verdict is Verdict.PROVED
    assert ch.uses == ("demo.square",)


def test_using_an_unproved_claim_fails():
    square = claim("demo.square", (a + b) ** 2, a**2 + 2 * a * b + b**2)
    ch = free("demo.uses", (a + b) ** 2).step(a**2 + 2 * a * b + b**2, rules.using(square))
    assert ch.verdict is Verdict.UNPROVEN
    assert ch.uses == ("demo.square",)


def test_using_in_an_implication_chain():
    shift = claim("demo.shift", (a + 1) ** 2, a**2 + 2 * a + 1).prove()
    ch = chain("demo.eq", (b, c)).step((b + (a + 1) ** 2, c + a**2 + 2 * a + 1), rules.using(shift))
    assert ch.verdict is Verdict.PROVED


def test_using_respects_the_assumptions():
    homogeneous = claim("demo.homogeneous", RELU(p * a), p * RELU(a)).prove()
    assert homogeneous.verdict is Verdict.PROVED
    with pytest.raises(ValueError, match="using: p := -1 breaks the assumption that p is positive"):
        rules.using(homogeneous, {p: -1})
    assumed = claim("demo.assumed", (c**2 - a**2) / (c - a), c + a, assume=[c > a]).prove()
    assert assumed.verdict is Verdict.PROVED
    with pytest.raises(ValueError, match=r"using: demo.assumed assumes c > a, which fails here \(it becomes False\)"):
        rules.using(assumed, {c: a - 1})
    assert rules.using(assumed, {c: a + p}).requires == ()  # p > 0 settles it
    quotient = (b**2 - a**2) / (b - a)
    unassumed = free("demo.using_unassumed", quotient).step(b + a, rules.using(assumed, {c: b}))
    assert unassumed.verdict is Verdict.UNPROVEN
    assert unassumed.evidence.detail.startswith("step 1 (using) needs b > a, ")
    assumed_here = chain("demo.using_assumed", quotient, assume=[b > a]).step(b + a, rules.using(assumed, {c: b}))
    assert assumed_here.verdict is Verdict.PROVED


# -- construction errors and rendering ------------------------------------------------------------------------
def test_steps_must_match_the_start():
    with pytest.raises(TypeError, match="chain demo.kind: every step must be an expression, like the start"):
        chain("demo.kind", a).step((a, a), "expand")
    with pytest.raises(TypeError, match=r"every step must be an equation \(lhs, rhs\)"):
        chain("demo.kind2", (a, a)).step(a, "expand")
    with pytest.raises(ValueError, match="rule instantiate relates equations; start the chain with a"):
        chain("demo.kind3", a).step(a, rules.instantiate({b: 1}))
    with pytest.raises(ValueError, match="an equation is a \\(lhs, rhs\\) pair, got 3 items"):
        chain("demo.kind4", (a, b, c))
    with pytest.raises(TypeError, match="step must be a SymPy expression or matrix, got str"):
        chain("demo.kind5", a).step("3", "expand")
    with pytest.raises(TypeError, match="step 0.5 is a floating-point number"):
        chain("demo.kind6", a).step(0.5, "expand")


def test_rendering_marks_each_step():
    ch = free("demo.tex", (a + 1) ** 2).step(a**2 + 2 * a + 1, "expand").step(a, "expand", note="wrong")
    tex = ch.body_tex()
    assert tex.startswith("\\begin{aligned}") and tex.endswith("\\end{aligned}")
    assert tex.count(r"\checkmark") == 1
    assert tex.count(r"\boldsymbol{\times}") == 1
    assert r"\text{; wrong}" in tex
    rec = ch.record()
    assert rec["kind"] == "chain" and rec["verdict"] == "unproven" and rec["id"] == "demo.tex"
    assert "seconds" not in rec


def test_chain_records_uses_and_registers():
    ch = chain("demo.reg", a, uses=["demo.base"]).step(a, "definition")
    assert ch.record()["uses"] == ["demo.base"]
    assert derive.statements() == [ch]
    assert repr(ch) == "<chain demo.reg: proved>"


# -- chains that rest on chains: by, consequence, put, absurd ------------------------------------------------------
m1, m2 = derive.real("m_1 m_2")
H = (sp.Matrix([s(a * m1), s(a * m2)]), sp.Matrix([s(a) * m1, s(a) * m2]))  # two entries, for all a


def _entry_is_one(m, assume=True):
    """From s(a m) = s(a) m for all a: s(m) = s(1) m (at a = 1)."""
    k = 0 if m is m1 else 1
    return chain(f"test.by.entry_{k}", (H[0][k], H[1][k])).step((s(m), s(1) * m), rules.instantiate({a: 1}))


def test_by_takes_the_conclusions_of_chains_from_their_premise():
    one, two = _entry_is_one(m1), _entry_is_one(m2)
    both = chain("test.by.both", H).step((sp.Matrix([s(m1), s(m2)]), sp.Matrix([s(1) * m1, s(1) * m2])), rules.by(one, two))
    assert both.verdict is Verdict.PROVED and set(both.uses) >= {one.identifier, two.identifier}
    single = chain("test.by.single", H).step((s(m2), s(1) * m2), rules.by(two))
    assert single.verdict is Verdict.PROVED


def test_by_needs_the_conclusions_in_order_and_every_premise_among_the_entries():
    one, two = _entry_is_one(m1), _entry_is_one(m2)
    swapped = free("test.by.swapped", H).step((sp.Matrix([s(m2), s(m1)]), sp.Matrix([s(1) * m2, s(1) * m1])),
                                               rules.by(one, two))
    assert swapped.verdict is Verdict.UNPROVEN
    other = free("test.by.other_premise", (s(a), s(a))).step((s(m1), s(1) * m1), rules.by(one))
    assert other.verdict is Verdict.UNPROVEN


def test_by_needs_the_chains_assumptions_unless_their_case_is_covered():
    one = chain("test.by.divided", (s(a) * m1, s(1) * m1), assume=[sp.Ne(m1, 0)]).step((s(a), s(1)), rules.divide(m1))
    needs = free("test.by.needs", (s(a) * m1, s(1) * m1)).step((s(a), s(1)), rules.by(one))
    assert needs.verdict is Verdict.UNPROVEN and "Ne(m_1, 0)" in needs.evidence.detail
    times = chain("test.by.times", (s(a) * m1, s(1) * m1), assume=[sp.Ne(m1, 0)]).step(
        (s(a), s(1)), rules.divide(m1)).step((m1 * s(a), m1 * s(1)), rules.multiply(m1))
    covered = chain("test.by.covered", (s(a) * m1, s(1) * m1)).step((m1 * s(a), m1 * s(1)), rules.by(times, unless_zero=[m1]))
    assert covered.verdict is Verdict.PROVED  # where m1 = 0 both sides are 0


def test_consequence_is_ideal_membership():
    start = (sp.Matrix([a * b, b * c]), sp.zeros(2, 1))
    assert chain("test.consequence.in", start).step((a * b * c - b * c * a + b * c**2, 0), rules.consequence()).verdict is Verdict.PROVED
    assert free("test.consequence.out", start).step((a * c, 0), rules.consequence()).verdict is Verdict.UNPROVEN


def test_put_uses_values_the_equations_give():
    start = (sp.Matrix([a, s(a + b)]), sp.Matrix([2, s(b)]))
    assert chain("test.put", start).step((s(2 + b), s(b)), rules.put({a: 2})).verdict is Verdict.PROVED
    assert free("test.put.not_given", start).step((s(3 + b), s(b)), rules.put({a: 3})).verdict is Verdict.UNPROVEN


def test_absurd_needs_a_certified_false_equation():
    start = (sp.Matrix([a, sp.exp(1)]), sp.Matrix([b, sp.Rational(27, 10)]))
    assert chain("test.absurd", start).step((a, 5), rules.absurd()).verdict is Verdict.PROVED
    true = (sp.Matrix([a, sp.exp(0)]), sp.Matrix([b, 1]))
    assert free("test.absurd.true", true).step((a, 5), rules.absurd()).verdict is Verdict.UNPROVEN
