"""The second opinion (Z3): why it exists, and that it never agrees with a false claim.

The first tests break one of the kernel's strategies on purpose and show that the false proof it produces is
caught: the second opinion disagrees, and the claim raises ``SoundnessError``.
"""
import time

import sympy as sp
import pytest
import z3

import derive
from derive import rules, second
from derive.kernel import strategies
from derive.kernel.claims import SoundnessError
from derive.second import cvc5 as second_cvc5
from derive.second import review
from derive.second.translate import Outside, Translator

a, b, c = sp.symbols("a b c", real=True)
alpha = sp.Symbol("alpha", positive=True)
s = derive.sigma


# -- a broken kernel is caught ------------------------------------------------------------------------------
def test_a_sign_split_that_skips_cases_gives_a_false_proof_that_is_caught(monkeypatch):
    def positive_case_only(expr, variables):  # the bug: only the case "every argument positive" is tried
        positives = [sp.Dummy(f"p{k}", positive=True) for k in range(len(variables))]
        return sp.expand(expr.xreplace(dict(zip(variables, positives)))) == 0

    monkeypatch.setattr(strategies, "_all_cases_zero", positive_case_only)
    assert strategies.sign_split(sp.Max(0, a) - a) is not None  # the kernel alone now "proves" max(0, a) = a
    claim = derive.claim("broken.sign_split", sp.Max(0, a), a)
    with pytest.raises(SoundnessError, match="disagrees"):
        claim.prove(["sign-split"])
    assert claim.second_opinion.result == "disagrees"


def test_an_expand_that_drops_a_term_gives_a_false_proof_that_is_caught(monkeypatch):
    real_expand = sp.expand

    def dropping(expr):  # the bug: the last term of the expanded sum is lost
        terms = sp.Add.make_args(real_expand(expr))
        return "expand" if sp.Add(*terms[:-1]) == 0 else None

    monkeypatch.setattr(strategies, "expand", dropping)
    monkeypatch.setitem(strategies.STRATEGIES, "expand", dropping)
    claim = derive.claim("broken.expand", (a + b) ** 2, a**2 + 2 * a * b)
    with pytest.raises(SoundnessError, match="disagrees"):
        claim.prove(["expand"])


def test_a_false_chain_step_is_caught(monkeypatch):
    broken = rules.Rule("expand", r"\text{expand}", lambda p, n: "expand")  # the bug: every step holds
    ch = derive.chain("broken.chain", (a + b) ** 2, expect=None)
    with pytest.raises(SoundnessError, match="step 1"):
        ch.step(a**2 + b**2, broken)


def test_a_wrong_witness_is_caught(monkeypatch):
    from derive.kernel import witness

    real = witness._certify_at

    def lying(comps, w, denominators=()):  # the bug: a point where both sides agree is certified as a counterexample
        found = real([(None, sp.Integer(1))], w)
        return witness.Found(dict(w), found.component, found.residual, found.certificate)

    monkeypatch.setattr(witness, "_certify_at", lying)
    claim = derive.claim("broken.witness", sp.Max(0, a) * b, sp.Max(0, b) * a)
    with pytest.raises(SoundnessError, match="residual at the witness is zero"):
        claim.refute({a: 1, b: 1})


# -- a true kernel gets agreement ---------------------------------------------------------------------------
def test_proofs_refutations_and_chains_get_agreement():
    relu = derive.activation("relu")
    p = derive.claim("ok.relu_scaling", relu(alpha * a), alpha * relu(a)).prove()
    r = derive.claim("ok.relu_exchange", relu(a) * b, relu(b) * a).refute()
    ch = derive.chain("ok.lemma", (s(a) * b, s(b) * a))
    ch.step((s(a), s(1) * a), rules.instantiate({b: 1}))
    for statement in (p, r, ch):
        assert statement.record()["second_opinion"]["result"] == "agrees", statement.record()["second_opinion"]
    assert "seconds" not in p.record()["second_opinion"] and "seconds" in p.record(timings=True)["second_opinion"]


def test_every_size_claims_agree_only_up_to_a_size():
    d, m = sp.symbols("d m", integer=True, positive=True)
    K, x = sp.MatrixSymbol("K", m, d), sp.MatrixSymbol("x", 1, d)
    op = review.identity((x * K.T).T, K * x.T)
    assert op.result == "agrees" and op.why == f"for d, m ≤ {review.MAX_SIZE}"
    assert review.identity(x * K.T * K, x * K.T * K * 2).result == "disagrees"


def test_outside_the_fragment_says_why():
    for expr, why in [(sp.erf(a), "erf"), (sp.Float(0.5) * a, "non-rational"),
                      (sp.sqrt(a), "exponent 1/2"), (sp.Symbol("k", prime=True), "assumed")]:
        op = review.identity(expr + b, b + expr + c)
        assert op.result == "outside fragment" and why in op.why, (expr, op)
    for expr in (sp.exp(a), sp.pi * a):  # cvc5 reads exp and π as what they are: the claim is false
        op = review.identity(expr + b, b + expr + c)
        assert op.result == "disagrees" and "cvc5" in op.engine, (expr, op)


def test_the_summary_line_and_the_badge():
    records = [{"second_opinion": {"result": "agrees", "why": ""}}, {"second_opinion": None},
               {"second_opinion": {"result": "outside fragment", "why": "a transcendental function (erf)"}}]
    assert second.summary_line(records).endswith("1 agrees, 1 outside fragment, 1 not re-checked")
    from derive import render

    assert render.second_badge(records[2]) == ('<span class="derive-second tex2jax_ignore" data-second="outside fragment">'
                                               "Z3: outside the fragment — a transcendental function (erf)</span>")


def test_it_can_be_turned_off(monkeypatch):
    monkeypatch.setenv("DERIVE_SECOND_OPINION", "0")
    assert derive.claim("off.square", (a + b) ** 2, a**2 + 2 * a * b + b**2).prove().record()["second_opinion"] is None


# -- adversarial: a false claim never gets "agrees" ---------------------------------------------------------
_N = sp.Symbol("n", integer=True, positive=True)
_A, _B = sp.MatrixSymbol("A", _N, _N), sp.MatrixSymbol("B", _N, _N)

FALSE = [
    (sp.Max(0, a), a, ()),
    (sp.Abs(a), a, ()),
    (sp.Min(a, b), a, ()),
    (sp.sign(a) * a, sp.Abs(a) + 1, ()),
    (sp.Heaviside(a), sp.Heaviside(a, 1), ()),  # they differ only at a = 0
    (a / (b + 1), a / b, ()),
    (sp.Max(0, alpha * a), alpha * sp.Max(0, -a), ()),
    (sp.Piecewise((a, a > 0), (0, True)), sp.Max(0, a) + sp.Rational(1, 10**9), ()),
    (s(a) * b, s(b) * a, ()),
    (s(a + b), s(b) + s(a), ()),
    (a * b, b * a + 1, (sp.Gt(a, 0),)),
    (sp.Symbol("n", integer=True) ** 2, sp.Symbol("n", integer=True), ()),
    (sp.Rational(1, 3), sp.Rational(333333, 10**6), ()),
    (sp.sqrt(2) * sp.sqrt(2), 2 + sp.Rational(1, 10**12), ()),
    (sp.Matrix([[a, b]]), sp.Matrix([[a, a]]), ()),
    (_A.I * _B, _B * _A.I, (sp.Q.invertible(_A),)),      # inverses do not commute
    (_B * _A * _A.I, _A, (sp.Q.invertible(_A),)),
    (_A.I * _B * _A, _B, (sp.Q.invertible(_A),)),
    (_A.I, _A.T, (sp.Q.invertible(_A),)),
    (sp.Matrix([[a, 1], [0, 1]]).inv(), sp.Matrix([[a, -1], [0, 1]]), ()),
]


@pytest.mark.parametrize("lhs,rhs,assume", FALSE)
def test_false_claims_never_agree(lhs, rhs, assume):
    assert review.identity(lhs, rhs, assume).result != "agrees"


def test_a_complex_symbol_is_two_reals():
    w = sp.Symbol("w")  # no real=True: complex
    assert review.identity(w * w, w**2).result == "agrees"
    assert review.identity(w * sp.conjugate(w), sp.Abs(w) ** 2).result == "outside fragment"
    t = Translator(complex_mode=True)
    assert t.scalar(w)[1] is not None


def test_a_division_is_read_where_it_is_defined_and_never_inside_a_branch():
    assert review.identity(a * b / b, a).result == "agrees"
    with pytest.raises(Outside, match="Piecewise"):
        Translator().scalar(sp.Piecewise((1 / a, a > 0), (0, True)))


def test_an_inverse_is_read_where_its_matrix_is_invertible():
    invertible = (sp.Q.invertible(_A), sp.Q.invertible(_B))
    for lhs, rhs in [(_A * _A.I, sp.Identity(_N)), ((_A * _B).I, _B.I * _A.I), (_B * _A * _A.I, _B)]:
        assert review.identity(lhs, rhs, invertible).result == "agrees", (lhs, rhs)
    t = Translator(sizes={_N: 2})
    t.matrix(_A.I)
    assert t.defined and all("not" in f for f in t.defined)  # det A ≠ 0, as a reciprocal's base is nonzero
    assert t.boolean(sp.Q.invertible(_A)).startswith("(not")
    with pytest.raises(Outside, match="inverse of a 5×5"):
        Translator().matrix(sp.MatrixSymbol("C", 5, 5).I)
    with pytest.raises(Outside, match="Piecewise"):
        Translator().scalar(sp.Piecewise(((_A.I)[0, 0].subs(_N, 2), a > 0), (0, True)))


def test_a_refutation_at_a_witness_outside_the_domain_disagrees():
    op = review.refutation(alpha * a, a, (), {alpha: -1, a: 1})
    assert op.result == "disagrees" and "domain" in op.why


# -- cost: the same question is answered once; an instantiation is settled without quantifiers ------------
def test_the_same_question_gets_the_same_opinion_once():
    review._MEMO.clear()
    first = review.identity(sp.Max(0, 2 * a), 2 * sp.Max(0, a))
    again = review.identity(sp.Max(0, 2 * a), 2 * sp.Max(0, a))
    assert (again.result, again.why) == (first.result, first.why) and len(review._MEMO) == 1
    assert review.identity(sp.Matrix([[a]]), sp.Matrix([[a]])).result == "agrees"  # a mutable matrix is a key too


class _Stuck:
    def reason_unknown(self):
        return "timeout"


@pytest.mark.parametrize("lhs, rhs, result", [
    (sp.Max(0, 2 * a), 2 * sp.Max(0, a), "agrees"),
    (sp.Max(0, a), a, "disagrees"),
    (sp.Max(0, a) + sp.Min(0, a), a, "agrees"),
])
def test_a_query_stuck_in_the_shared_context_is_asked_in_a_context_of_its_own(monkeypatch, lhs, rhs, result):
    real, asked = review._check, []

    def stuck_when_shared(formulas, ms, ctx=None):  # as Z3 was once: spinning, its resource limit unspent, till its time
        asked.append((ms, ctx is not None))
        if ctx is None:
            time.sleep(ms / 1000)
            return z3.unknown, _Stuck()
        return real(formulas, ms, ctx)

    monkeypatch.setattr(review, "_check", stuck_when_shared)
    monkeypatch.setattr(review, "SHARED_MS", 50)
    review._MEMO.clear()
    assert review.identity(lhs, rhs).result == result
    assert asked[0] == (50, False) and asked[1][1] and 0 < asked[1][0] <= review.TIMEOUT_MS - 50, asked


def test_an_instantiation_step_is_proved_from_its_ground_instance():
    op = review.step((s(alpha * a), alpha * s(a)), (s(alpha), alpha * s(1)), rules.instantiate({a: 1}), equations=True)
    assert op.result == "agrees" and "instance" in op.why
    wrong = review.step((s(alpha * a), alpha * s(a)), (s(alpha), 2 * alpha * s(1)), rules.instantiate({a: 1}),
                        equations=True)
    assert wrong.result != "agrees"


def test_a_witness_is_evaluated_exactly_with_its_divisions():
    assert review.refutation(a / b, b / a, (), {a: 1, b: 2}).result == "agrees"
    assert review.refutation(a / b, b / a, (), {a: 1, b: 0}).result == "disagrees"  # undefined there


def test_the_claims_page_filters_by_the_second_opinion():
    from pathlib import Path

    page = Path(derive.__file__).parent / "site" / "templates" / "claims.html.j2"
    js = (Path(derive.__file__).parent / "site" / "static" / "site.js").read_text()
    assert 'data-second="{{ c.second }}"' in page.read_text() and 'getAttribute("data-second")' in js


# -- an implication step: the premise is read for all values only of what the step instantiates -------------
_M = sp.Symbol("m", real=True)
FALSE_STEPS = [  # each premise fails for some value of m (a·m = a at a = 1, m = 0): read for all m, it implies anything
    ((a * _M, a), (_M, sp.Integer(5)), rules.rearrange()),
    ((a * _M, a), (_M, sp.Integer(5)), rules.instantiate({a: 1})),
    ((a + _M, _M + 1), (_M, sp.Integer(7)), rules.multiply(2)),
    ((s(a) * _M, s(1) * a), (s(2), sp.Integer(3)), rules.divide(_M)),
]


@pytest.mark.parametrize("prev,nxt,rule", FALSE_STEPS)
def test_a_false_step_from_a_premise_that_fails_somewhere_never_agrees(prev, nxt, rule):
    assert review.step(prev, nxt, rule, equations=True).result != "agrees"


# -- where Z3 cannot decide a query with functions in it, each application is read as a real of its own ----------
def _undecided_with_functions(monkeypatch):
    """Z3 made to give up on every query that applies a function (as it does on the disguised-linear layer's)."""
    real = review._check

    def check(formulas, ms, ctx=None):
        found, todo = False, list(formulas)
        while todo and not found:
            e = todo.pop()
            found = z3.is_app(e) and e.num_args() > 0 and e.decl().kind() == z3.Z3_OP_UNINTERPRETED
            todo.extend(e.children() if z3.is_app(e) or z3.is_quantifier(e) else [])
        return (z3.unknown, _Stuck()) if found else real(formulas, ms, ctx)

    monkeypatch.setattr(review, "_check", check)
    review._MEMO.clear()


def test_a_query_undecided_with_its_functions_is_decided_with_each_application_a_real(monkeypatch):
    _undecided_with_functions(monkeypatch)
    opinion = review.identity(a * (sp.sin(a) ** 2 + sp.cos(a) ** 2), a)  # sin² + cos² = 1, asserted beside them
    assert opinion.result == "agrees" and "a real of its own" in opinion.why, opinion
    script = opinion.smtlib()[0][0]
    assert "(Real) Real)" not in script and "@" in script, script  # the script as decided: no function in it


@pytest.mark.parametrize("lhs, rhs", [
    (sp.sin(a) ** 2 + sp.cos(b) ** 2, sp.Integer(1)),            # two arguments: two applications, two reals
    (s(a) * s(b), s(a) ** 2),                                      # σ(a) and σ(b) are not one real
    (sp.sin(sp.sin(a)) ** 2 + sp.cos(sp.sin(b)) ** 2, sp.Integer(1)),  # nested, at two arguments
], ids=["sin_cos_apart", "sigma_apart", "nested_apart"])
def test_a_false_query_with_each_application_a_real_never_agrees(monkeypatch, lhs, rhs):
    _undecided_with_functions(monkeypatch)
    assert review.identity(lhs, rhs, engine="z3").result != "agrees"  # (Z3's reading alone: cvc5 is not asked)


@pytest.mark.parametrize("prev,nxt,rule", FALSE_STEPS)
def test_a_false_step_with_a_quantified_premise_is_never_read_with_applications_as_reals(monkeypatch, prev, nxt, rule):
    # σ(x) of a bound x is no one real: a quantified query is not read that way at all
    _undecided_with_functions(monkeypatch)
    assert review.step(prev, nxt, rule, equations=True).result != "agrees"


def test_reading_applications_as_reals_names_each_one_once_and_leaves_quantifiers():
    x, y = z3.Reals("x y")
    f = z3.Function("f", z3.RealSort(), z3.RealSort())
    pure = review._purified([f(x) + f(x) == f(y), f(f(x)) > 0])
    assert len({str(c) for g in pure for c in _constants(g)} - {"x", "y"}) == 3  # f(x), f(y), f(f(x))
    assert review._purified([x + y > 0]) is None
    assert review._purified([z3.ForAll([x], f(x) == x)]) is None


def _constants(e):
    if z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED:
        return {e}
    return set().union(*[_constants(c) for c in e.children()]) if e.children() else set()


def test_an_instantiation_is_read_from_the_premise_for_all_values_of_what_it_puts():
    assert review.step((a * _M, a), (_M, sp.Integer(1)), rules.instantiate({a: 1}), equations=True).result == "agrees"
    assert review.step((s(a) * _M, s(_M) * a), (s(1) * _M, s(_M)), rules.instantiate({a: 1}),
                       equations=True).result == "agrees"


_HOPELESS = ("(declare-const a Real)(assert (not (= (+ (* (sin a) (sin a)) (* (cos a) (cos a))) 1.0)))")


@pytest.mark.skipif(not second_cvc5.AVAILABLE, reason="cvc5 is not installed")
def test_cvc5_stops_at_its_resource_limit_not_at_the_time_it_is_given():
    # sin² + cos² = 1 is out of reach of incremental linearisation: given ten minutes, cvc5 still answers
    # "unknown" once its deterministic resource limit is spent, so the time left to a claim is not what decides
    second_cvc5._ANSWERS.clear()
    assert second_cvc5.check(_HOPELESS, 600_000) == "unknown"


@pytest.mark.skipif(not second_cvc5.AVAILABLE, reason="cvc5 is not installed")
def test_cvc5_asks_one_query_once(monkeypatch):
    asked = []
    real = second_cvc5._ask
    monkeypatch.setattr(second_cvc5, "_ask", lambda *args: asked.append(args) or real(*args))
    second_cvc5._ANSWERS.clear()
    body = "(declare-const x Real)(assert (> x 0.0))(assert (not (> (exp x) 1.0)))"
    assert [second_cvc5.check(body, 5000) for _ in range(3)] == ["unsat"] * 3
    assert len(asked) == 1
    # an "unknown" under less time than before is not asked again; under more time it is
    second_cvc5._ANSWERS[("(assert false)", "ALL", second_cvc5.RLIMIT)] = ("unknown", 100)
    assert second_cvc5.check("(assert false)", 50) == "unknown" and len(asked) == 1
    assert second_cvc5.check("(assert false)", 5000) == "unsat" and len(asked) == 2
    # under another resource limit it is another question, asked with that limit
    assert second_cvc5.check(body, 5000, rlimit=20000) == "unsat" and len(asked) == 3 and asked[-1][-1] == 20000


@pytest.mark.parametrize("rlimit", [0, -5, 10**9, 2.5, True, "20000"])
def test_cvc5_refuses_a_resource_limit_it_cannot_be_given(rlimit):
    with pytest.raises(ValueError, match="rlimit must be a whole number"):
        second_cvc5.check("(assert false)", 100, rlimit=rlimit)


# -- a step about matrices of every size is re-read at the smallest sizes, entry by entry -----------------------
def _one_unit_layer(act, a0, b0):
    from derive.classifier import sizes
    from derive.layers import forms
    lhs, rhs = sizes.layer_sides("exchange", act)
    unit = forms.one_unit(sizes._X, sizes._Q, sizes._K, sizes._V, sp.Integer(a0), sp.Integer(b0))
    return (lhs, rhs), tuple(side.xreplace(unit) for side in (lhs, rhs)), unit


@pytest.mark.parametrize("act, b0, seen, result", [
    ("relu", -1, (sp.Integer(0), sp.Integer(-1)), "agrees"),  # relu(-1)·1 and relu(1)·(-1)
    ("relu", 1, (sp.Integer(1), sp.Integer(2)), "disagrees"),  # there the premise holds, and 1 = 2 does not follow
    ("identity", -1, (sp.Integer(-1), sp.Integer(-1)), "agrees"),
    ("identity", -1, (sp.Integer(-1), sp.Integer(0)), "disagrees"),
])
def test_an_entry_of_an_every_size_layer_is_rechecked_at_small_sizes(act, b0, seen, result):
    # (with relu at b = -1 the premise is false at that instance, and every conclusion follows from it)
    _, instance, _ = _one_unit_layer(derive.activation(act), 1, b0)
    opinion = second.step(instance, seen, rules.entry(0, 0), equations=True)
    assert opinion.result == result, opinion
    assert result == "disagrees" or "d, m, n = 1" in opinion.why


def test_an_instantiation_of_every_size_matrices_is_rechecked_entry_by_entry():
    # the identity keeps the exchange, so the premise holds and only its true instances follow from it
    start, instance, unit = _one_unit_layer(derive.activation("identity"), 2, -3)
    assert second.step(start, instance, rules.instantiate(unit), equations=True).result == "agrees"
    wrong = (instance[0] + sp.OneMatrix(*instance[0].shape), instance[1])
    assert second.step(start, wrong, rules.instantiate(unit), equations=True).result == "disagrees"


@pytest.mark.parametrize("extra, result", [(0, ("agrees", "unknown")), (1, ("disagrees",))])
def test_a_premise_read_at_every_term_is_rechecked_at_small_sizes(extra, result):
    # σ undefined: the true step may be beyond Z3's nonlinear arithmetic (σ's values times V's entries), never
    # refuted; the false one (a term off by 1) is refuted, with σ = id as the model
    from derive.classifier import sizes
    from derive.layers import forms
    s_ = derive.sigma
    a_j, b_j = (sizes._X * sizes._Q.T)[0, sizes._J], (sizes._X * sizes._K.T)[0, sizes._J]
    term = sp.Lambda((sizes._A, sizes._B), s_(sizes._B) * sizes._A - s_(sizes._A) * sizes._B + extra)
    nxt = (forms.unit_sum(term, sizes._X, sizes._Q, sizes._K, sizes._V), sp.ZeroMatrix(1, sizes._N))
    start = (s_(sizes._A) * sizes._B, s_(sizes._B) * sizes._A)
    rule = rules.termwise({sizes._A: a_j, sizes._B: b_j}, index=sizes._J)
    assert second.step(start, nxt, rule, equations=True).result in result


_X1, _Q1, _K1, _V1 = (sp.MatrixSymbol("x", 1, _N), sp.MatrixSymbol("Q", _N, _N), sp.MatrixSymbol("K", _N, _N),
                      sp.MatrixSymbol("V", _N, _N))
_RELU = sp.Lambda(a, sp.Max(0, a))
_APPLY = sp.matrices.expressions.applyfunc.ElementwiseApplyFunction


def _entry_by_entry(e, at):
    """A matrix expression at the sizes ``at``, each entry read at symbolic size and then put at the sizes."""
    rows, cols = (int(sp.sympify(n).xreplace(at)) for n in e.shape)
    whole = sp.ImmutableMatrix(rows, cols, lambda i, j: review._written(sp.sympify(e[i, j]).xreplace(at)).doit())
    return review._explicit_written(whole, at)  # (an explicit matrix: only its leaves named)


@pytest.mark.parametrize("expr", [
    _A * _B.T + 2 * _A,
    (_N + 1) * _A * _B - _B.T * _A / 3,
    sp.HadamardProduct(_X1 * _K1.T, _APPLY(_RELU, _X1 * _Q1.T)) * _V1,
    _A.I * _B + sp.Identity(_N) - sp.OneMatrix(_N, _N),
    (_A * (_B + _A.T)).T * _B,
], ids=["sum", "size_coefficient", "gated_relu", "inverse", "transpose"])
@pytest.mark.parametrize("n", [1, 2])
def test_a_matrix_written_out_part_by_part_is_the_one_written_entry_by_entry(expr, n):
    # the parts computed on their written-out factors are the entries read at symbolic size, at exact values
    at = {_N: sp.Integer(n)}
    mine, theirs = review._explicit_written(expr, at), _entry_by_entry(expr, at)
    assert mine.shape == theirs.shape
    values = {x: sp.Rational((7 * k) % 11 - 5, k % 4 + 2) for k, x in enumerate(sorted(
        mine.free_symbols | theirs.free_symbols, key=str))}
    assert all(sp.simplify((m - t).xreplace(values)) == 0 for m, t in zip(mine, theirs))


@pytest.mark.parametrize("prev, nxt", [
    ((_A * _B + _A, _B), (_A * _B, _B)),  # a term dropped
    (((_N + 1) * _A * _B, _B), (_A * _B, _B)),  # a coefficient with the size in it dropped: 2AB is not AB at n = 1
    ((sp.HadamardProduct(_X1 * _K1.T, _APPLY(_RELU, _X1 * _Q1.T)) * _V1, sp.ZeroMatrix(1, _N)),
     (sp.HadamardProduct(_X1 * _Q1.T, _APPLY(_RELU, _X1 * _K1.T)) * _V1, sp.ZeroMatrix(1, _N))),  # ReLU's exchange
], ids=["dropped_term", "size_coefficient", "relu_exchange"])
def test_a_false_step_about_matrices_written_out_part_by_part_never_agrees(prev, nxt):
    assert second.step(prev, nxt, rules.rearrange(), equations=True).result != "agrees"


def test_an_every_size_step_whose_assumptions_rule_out_every_size_it_reads_is_not_confirmed():
    # only d = m = n = 1 is re-read: where the chain assumes d > 5, nothing is re-checked, and nothing is agreed
    from derive.classifier import sizes
    _, instance, _ = _one_unit_layer(derive.activation("identity"), 1, -1)
    for assume in [(sizes._D > 5,), (sizes._M > 3,), (sp.Ne(sizes._N, 1), sizes._N < 2)]:
        opinion = second.step(instance, (sp.Integer(-1), sp.Integer(-1)), rules.entry(0, 0), assume, equations=True)
        assert opinion.result != "agrees", (assume, opinion)
