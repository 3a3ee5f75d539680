"""Exercises: an answer is judged in a short message (a witness, or what was tried), never a traceback.

The notebooks' exercises are numbered after their step, each with an answer cell and a folded solution.
"""
import re
from pathlib import Path

import nbformat
import pytest
import sympy as sp

import derive
from derive import exercises
from derive.kernel import registry
from derive.run import runner
from derive.kernel.claims import ExpectationError
from derive.site import pages

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
#: the notebooks whose exercises have answer cells
OWNED = ["00_overview", "01_key_value_view", "02_query_absorption", "03_bilinear_attention", "04_rank1_reduction",
         "05_symmetry_breaking", "06_sigma_over_z_lemma", "07_inverse_scaling", "08_activation_atlas", "09_rank_r",
         "10_numeric_crosscheck"]


@pytest.fixture
def ab():
    a, b = derive.real("a b")
    return a, b, derive.activation("relu")


def test_a_false_claim_gets_its_counterexample_in_one_short_message(ab):
    a, b, relu = ab
    said = derive.exercise("0.1", derive.claim("t.answer", relu(a) - relu(-a), a + 1), expect="proved",
                           states=(relu(a) - relu(-a), a + 1))
    assert said.ok is False and not said
    assert str(said) == ("✘ Exercise 0.1: not yet\n"
                         "  t.answer should be proved, but it is false: refuted at a = 1: exact residual -1")
    assert "Traceback" not in str(said) and 'data-exercise="0.1"' in said._repr_mimebundle_()["text/html"]


def test_an_unproved_claim_says_what_was_tried(ab):
    a, b, _ = ab
    sigma = derive.sigma
    said = derive.exercise("6.9", derive.claim("t.answer", sigma(a) * b, sigma(b) * a), expect="proved",
                           states=(sigma(a) * b, sigma(b) * a))
    assert said.ok is False
    assert "no strategy reduced lhs - rhs to zero; tried: structural, expand, sign-split" in str(said)


def test_a_witness_where_both_sides_agree_is_named(ab):
    a, b, relu = ab
    said = derive.exercise("0.2", derive.claim("t.answer", relu(a) * b, relu(b) * a), expect="refuted",
                           states=(relu(a) * b, relu(b) * a), witness={a: 1, b: 2})
    assert "at a = 1, b = 2 both sides are equal (lhs - rhs = 0)" in str(said)
    right = derive.exercise("0.2", derive.claim("t.answer", relu(a) * b, relu(b) * a), expect="refuted",
                            states=(relu(b) * a, relu(a) * b), witness={a: 1, b: -1})
    assert right.ok is True and str(right).endswith("t.answer is refuted at a = 1, b = -1: exact residual -1")


def test_a_blank_answer_asks_for_one_and_raises_nothing(ab):
    a, b, relu = ab
    said = derive.exercise("5.1", ..., ..., expect=["proved", "refuted"],
                           states=[(relu(2 * a), 2 * relu(a)), (relu(a) * b, relu(b) * a)])
    assert said.ok is None
    assert str(said).splitlines()[1:] == [
        "  replace the first ... by your answer (a claim that should be proved), then run the cell",
        "  replace the second ... by your answer (a claim that should be refuted), then run the cell"]


def test_a_wrong_prediction_of_symmetries_gets_the_certificate():
    said = derive.exercise("B2.9", {"exchange", "scale_positive"}, activation="relu", name="relu")
    assert said.ok is False
    assert re.search(r"exchange Q ↔ K: broken, not kept: unit identity refuted at a = \S+, b = \S+; layer refuted",
                     str(said))
    assert "scaling" not in str(said)  # the part of the prediction that is right is not mentioned
    assert derive.exercise("B2.9", {"scale_positive"}, activation="relu", name="relu").ok is True


def test_answers_are_left_out_of_the_claim_table(ab):
    a, b, relu = ab
    derive.claim("t.suite", (a + 1) ** 2, a**2 + 2 * a + 1, expect="proved").prove()
    assert derive.exercise("0.1", derive.claim("t.answer", relu(a) - relu(-a), a), expect="proved",
                           states=(relu(a) - relu(-a), a)).ok is True
    derive.exercise("B2.9", set(), activation="relu", name="relu")
    assert [s.identifier for s in registry.statements()] == ["t.suite"]


def test_the_expectation_handler_shows_one_line_and_no_traceback(ab):
    a, b, relu = ab
    shown = []

    class Shell:
        def _showtraceback(self, etype, value, stb):
            shown.append(stb)

    try:
        derive.claim("t.x", relu(a) * b, relu(b) * a, expect="proved").prove()
    except ExpectationError as exc:
        stb = exercises.short_error(Shell(), type(exc), exc, exc.__traceback__)
    assert shown == [stb] and len(stb) == 1
    assert stb[0].startswith("ExpectationError: claim t.x: expected proved, got unproven")


def test_a_notebook_shows_a_wrong_answer_and_a_missed_expectation_briefly(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(s) for s in [
        "import derive\na, b = derive.real('a b')\nrelu = derive.activation('relu')",
        "derive.exercise('0.1', derive.claim('t.answer', relu(a) - relu(-a), a + 1), expect='proved',\n"
        "                states=(relu(a) - relu(-a), a + 1))",
        "derive.claim('t.exchange', relu(a) * b, relu(b) * a, expect='proved').prove()",
    ]]
    source = tmp_path / "wrong.ipynb"
    nbformat.write(nb, source)
    [run] = runner.run_all([source], tmp_path / "out", workers=1, timeout=120)
    assert run.error.startswith("ExpectationError: claim t.exchange: expected proved")  # the cell still fails
    done = nbformat.read(run.output, as_version=4)
    [answer] = done.cells[1].outputs
    assert "refuted at a = 1: exact residual -1" in answer["data"]["text/plain"]
    [error] = done.cells[2].outputs
    assert error["output_type"] == "error" and len(error["traceback"]) == 1
    assert "Traceback" not in error["traceback"][0] and "t.exchange" in error["traceback"][0]


def _exercise_cells(stem):
    nb = nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4)
    out, number = [], ""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            number = pages.exercise_number(cell.source) or number
        tags = cell.metadata.get("tags", [])
        if "answer" in tags or "solution" in tags:
            out.append((number, "answer" if "answer" in tags else "solution", cell))
    return out


@pytest.mark.parametrize("stem", OWNED)
def test_every_exercise_has_an_answer_cell_and_a_folded_solution_numbered_by_step(stem):
    cells = _exercise_cells(stem)
    step = exercises.step_of(stem)
    numbers = list(dict.fromkeys(n for n, _, _ in cells))
    assert numbers == [f"{step}.{k}" for k in range(1, len(numbers) + 1)] and len(numbers) >= 2
    for number in numbers:
        kinds = [kind for n, kind, _ in cells if n == number]
        assert kinds[0] == "answer" and kinds.count("answer") == 1 and "solution" in kinds
    for number, kind, cell in cells:
        if kind == "solution":
            assert cell.metadata["jupyter"] == {"source_hidden": True, "outputs_hidden": True}
        else:  # the committed answer cell runs cleanly and checks its own exercise
            assert f'derive.exercise("{number}"' in cell.source
            assert all(o["output_type"] != "error" for o in cell.outputs) and cell.outputs


@pytest.mark.parametrize("stem", OWNED)
def test_every_solution_passes_its_exercises_own_check(stem):
    """Each exercise's solution ends in derive.solution: run in the notebook (derive check, nbval), it judges the
    solution by the answer cell's own check and fails the cell when it does not pass."""
    cells = _exercise_cells(stem)
    for number in dict.fromkeys(n for n, _, _ in cells):
        solutions = [cell for n, kind, cell in cells if n == number and kind == "solution"]
        calls = [c for c in solutions if f'derive.solution("{number}",' in c.source]
        assert len(calls) == 1, f"{stem}: exercise {number} has {len(calls)} derive.solution calls"
        said = [o for o in calls[0].outputs if o["output_type"] == "execute_result"]
        assert said and f"Solution to exercise {number}: it passes the exercise's check" in said[-1]["data"]["text/plain"]


def test_a_solution_is_judged_by_its_exercises_own_check(ab):
    a, b, relu = ab
    odd = (relu(a) - relu(-a), a)
    derive.exercise("9.1", ..., expect="proved", states=odd)
    right = derive.solution("9.1", derive.claim("t.solution", *odd).prove())
    assert right.ok is True and str(right) == "✔ Solution to exercise 9.1: it passes the exercise's check"
    assert registry.get("t.solution") is not None  # a solution's claims are the notebook's own
    with pytest.raises(ExpectationError, match=r"the solution to exercise 9.1 does not pass its check: t.other states"):
        derive.solution("9.1", derive.claim("t.other", relu(a) + relu(-a), abs(a)).prove())
    with pytest.raises(ExpectationError, match=r"t.more assumes a > 0, which exercise 9.1 does not give"):
        derive.solution("9.1", derive.claim("t.more", *odd, assume=[a > 0]).prove())
    derive.exercise("9.2", ..., expect="proved", states=(relu(a), a))
    with pytest.raises(ExpectationError, match=r"t.false should be proved, but it is false: refuted at a = -1"):
        derive.solution("9.2", derive.claim("t.false", relu(a), a))
    with pytest.raises(ValueError, match=r"exercise 9.7 has not been asked in this session: run its answer cell first"):
        derive.solution("9.7", derive.claim("t.unasked", *odd).prove())


def test_a_solution_to_a_symmetry_exercise_is_its_classification_of_the_activation_asked(monkeypatch):
    derive.exercise("9.3", ..., activation="max(z, 0)", name="relu")
    relu = derive.classify("max(z, 0)", name="t_relu", prefix="t.solution")
    absolute = derive.classify("abs", name="t_abs", prefix="t.solution")
    from derive.classifier import classify as module

    monkeypatch.setattr(module, "classify", lambda *a, **k: pytest.fail("classified again"))
    assert derive.solution("9.3", relu).ok is True
    with pytest.raises(ExpectationError, match=r"classifies σ\(z\) = Abs\(z\), but the exercise asks about "
                                               r"σ\(z\) = Max\(0, z\)"):
        derive.solution("9.3", absolute)


def test_the_site_labels_each_solution_with_its_exercise():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("### Exercise 5.2\n\nProve it."),
                nbformat.v4.new_code_cell("answer = ...", metadata={"tags": ["answer"]}),
                nbformat.v4.new_code_cell("1", metadata={"tags": ["solution"]})]
    from derive.site.graph import ClaimGraph

    ready = pages.prepare(nb, ClaimGraph({}, []), lambda ident: None, "t")
    assert ready.cells[2].metadata["derive"] == {"solution": "Solution 5.2"}
    assert "derive" not in ready.cells[1].metadata


# -- a step is checked up to the symmetry of equality --------------------------------------------------------------
s = derive.sigma
rules = derive.rules


def _answer(start, step, rule, **kw):
    return derive.chain("t.answer.chain", start, expect=None, **kw).step(step, rule)


def _stated(chain):
    """What a chain states, as an exercise's states= names it (these tests judge its steps, not its statement)."""
    return (chain.start, chain.conclusion)


@pytest.mark.parametrize("start, step, rule, assume", [
    # σ(−1) = −σ(1) written from the other side
    (lambda a, b: (s(a) * b, s(b) * a), lambda a, b: (-s(1), s(-1)), lambda a, b: rules.instantiate({a: -1, b: 1}), ()),
    # dividing by a nonzero w, the quotient on the right
    (lambda a, b: (s(a), s(1) * a), lambda a, b: (s(1), s(a) / a), lambda a, b: rules.divide(a),
     lambda a, b: [sp.Ne(a, 0)]),
    # log of both sides, read from the right
    (lambda a, b: (sp.exp(-1), sp.exp(-b)), lambda a, b: (-b, -1), lambda a, b: rules.apply(sp.log), ()),
    # a rewriting rule on an equation, its sides exchanged
    (lambda a, b: ((a + b) ** 2, b), lambda a, b: (b, a**2 + 2 * a * b + b**2), lambda a, b: "expand", ()),
], ids=["instantiate", "divide", "apply", "expand"])
def test_a_correct_step_with_its_sides_swapped_is_accepted(ab, start, step, rule, assume):
    a, b, _ = ab
    assume = assume(a, b) if callable(assume) else assume
    chain = _answer(start(a, b), step(a, b), rule(a, b), assume=assume)
    said = derive.exercise("6.1", chain, expect="proved", states=(start(a, b), step(a, b)), assume=assume)
    assert said.ok is True, str(said)
    assert "exchanged" in chain.steps[0][2]  # the step's detail says how it was read


def test_a_step_may_rest_on_a_chain_whose_premise_it_states_from_the_other_side(ab):
    a, b, _ = ab
    one = derive.chain("t.answer.one", (s(a) * b, s(b) * a)).step((s(a), a * s(1)), rules.instantiate({b: 1}))
    both = _answer((s(b) * a, s(a) * b), (a * s(1), s(a)), rules.by(one))
    assert both.verdict is derive.Verdict.PROVED and "both sides exchanged" in both.steps[0][2]


@pytest.mark.parametrize("build", [
    # an equality chain's step is an expression: its sign is not the symmetry of anything
    lambda a, b: derive.chain("t.answer.neg", a - b, expect=None).step(b - a, "expand"),
    # a wrong instance stays wrong from either side
    lambda a, b: _answer((s(a) * b, s(b) * a), (s(1), s(-1)), rules.instantiate({a: -1, b: 1})),
    # a wrong quotient stays wrong from either side
    lambda a, b: _answer((s(a), s(1) * a), (s(1), s(a) * a), rules.divide(a), assume=[sp.Ne(a, 0)]),
    # swapping one side's entries is no swap of the equation
    lambda a, b: _answer((sp.Matrix([a, b]), sp.Matrix([1, 2])), (sp.Matrix([b, a]), sp.Matrix([1, 2])),
                         rules.instantiate({a: a})),
], ids=["equality-chain", "instantiate", "divide", "matrix-entries"])
def test_a_swap_never_makes_a_wrong_step_hold(ab, build):
    a, b, _ = ab
    chain = build(a, b)
    assert chain.verdict is derive.Verdict.UNPROVEN
    assert derive.exercise("6.1", chain, expect="proved", states=_stated(chain), assume=chain.assume).ok is False


# -- a failed step says what it gives and what was expected --------------------------------------------------------
@pytest.mark.parametrize("build, words", [
    (lambda a, b: _answer((s(a) * b, s(b) * a), (s(1), s(-1)), rules.instantiate({a: -1, b: 1})),
     "step 1 (instantiate) does not hold: from b*sigma(a) = a*sigma(b), instantiate gives sigma(-1) = -sigma(1), "
     "but the step says sigma(1) = sigma(-1)"),
    (lambda a, b: _answer((s(a), s(1) * a), (s(a) * a, s(1)), rules.divide(a), assume=[sp.Ne(a, 0)]),
     "step 1 (divide) does not hold: from sigma(a) = a*sigma(1), divide gives sigma(a)/a = sigma(1), "
     "but the step says a*sigma(a) = sigma(1)"),
    (lambda a, b: derive.chain("t.answer.sq", (a + b) ** 2, expect=None).step(a**2 + b**2, "expand"),
     "step 1 (expand) does not hold: from (a + b)**2, expand gives a**2 + 2*a*b + b**2, but the step says a**2 + b**2"),
    (lambda a, b: _answer((a * b, 0), (a, 0), rules.consequence()),
     "step 1 (consequence) does not hold: the step says a = 0, which consequence does not give from a*b = 0"),
], ids=["instantiate", "divide", "expand", "consequence"])
def test_a_failed_step_says_what_the_rule_gives_and_what_the_step_says(ab, build, words):
    a, b, _ = ab
    chain = build(a, b)
    said = derive.exercise("6.1", chain, expect="proved", states=_stated(chain), assume=chain.assume)
    assert said.ok is False
    assert str(said).splitlines()[1] == f"  t.answer.{'sq' if 'expand' in words else 'chain'} is not proved: {words}"


# -- a shape error in an answer is one line, not a traceback --------------------------------------------------------
@pytest.fixture
def shell():
    from IPython.core.interactiveshell import InteractiveShell

    sh = InteractiveShell.instance()
    shown = []
    sh._showtraceback = lambda etype, value, stb: shown.append(stb)
    assert exercises.install(sh)
    sh.run_cell("import derive, sympy as sp\nfrom derive import rules\ns = derive.sigma\na, b = derive.real('a b')")
    sh.shown = shown
    yield sh
    del sh._showtraceback
    sh.set_custom_exc((), None)


ONE_LINE = [
    ("x = 1\nderive.exercise('6.1', derive.chain('t.answer.e', (s(a) * b, s(b) * a), expect=None).step("
     "s(-1), rules.instantiate({a: -1, b: 1})), expect='proved')",
     "TypeError (line 2 of the cell): chain t.answer.e: every step must be an equation (lhs, rhs), like the start"),
    ("derive.exercise('6.1', derive.chain('t.answer.t', (s(a) * b, s(b) * a), expect=None).step("
     "(s(-1), -s(1), 0), rules.instantiate({a: -1, b: 1})), expect='proved')",
     "ValueError (line 1 of the cell): chain t.answer.t: an equation is a (lhs, rhs) pair, got 3 items"),
    ("derive.exercise('6.1', derive.chain('t.answer.m', (sp.Matrix([a, b]), sp.Matrix([b, a])), expect=None).step("
     "(sp.Matrix([a, b]), sp.Matrix([[b, a]])), rules.instantiate({a: b})), expect='proved')",
     "ValueError (line 1 of the cell): chain t.answer.m: the two sides of an equation must have the same shape, "
     "got 2x1 and 1x2"),
    ("derive.chain('t.answer.q', sp.Matrix([a, b]), expect=None).step(sp.Matrix([[a, b]]), 'expand')",
     "ValueError (line 1 of the cell): chain t.answer.q: step 1 must have the shape of the expression before it "
     "(each is equal to the next), got 1x2 after 2x1"),
    ("K = sp.Matrix([[a, b]])\nderive.exercise('4.1', derive.claim('t.answer.k', K * K, K), expect='proved')",
     "ShapeError (line 2 of the cell): Matrix size mismatch: (1, 2) * (1, 2)."),
]


@pytest.mark.parametrize("cell, line", ONE_LINE, ids=["expression", "three-sides", "equation-shapes", "step-shape",
                                                      "sympy-shape"])
def test_a_wrong_shape_in_an_answer_is_one_line(shell, cell, line):
    result = shell.run_cell(cell)
    assert not result.success  # the cell still fails: derive check and nbval see it
    assert shell.shown == [[line]]


def test_an_error_of_the_readers_own_code_keeps_its_traceback(shell, monkeypatch):
    result = shell.run_cell("def f():\n    return 1 + 'a'\nf()")
    assert not result.success and len(shell.shown) == 1 and len(shell.shown[0]) > 1
    monkeypatch.setenv("DERIVE_TRACEBACK", "1")  # and every traceback is there when asked for
    shell.run_cell("derive.chain('t.answer.r', (a, b), expect=None).step(a, 'expand')")
    assert len(shell.shown[1]) > 1 and "every step must be an equation" in shell.shown[1][-1]


class _EqualToAnything:
    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


@pytest.mark.parametrize("answer, expect", [
    (_EqualToAnything(), sp.Rational(3, 7)),
    ([_EqualToAnything(), _EqualToAnything()], ["kv.memory_sum", "kv.linear"]),
    ({"kv.linear", _EqualToAnything()}, {"kv.linear", "kv.memory_sum"}),
], ids=["value", "list", "set"])
def test_an_answer_that_calls_itself_equal_to_anything_is_not_right(answer, expect):
    said = derive.exercise("9.9", answer, expect=expect)
    assert said.ok is False and "should be a number, an expression, a text" in str(said)


def test_a_value_answer_is_compared_as_sympy_reads_it():
    from fractions import Fraction
    assert derive.exercise("9.9", Fraction(3, 7), expect=sp.Rational(3, 7)).ok is True
    assert derive.exercise("9.9", 3, expect=sp.Integer(3)).ok is True
    assert derive.exercise("9.9", ["a.b", "c.d"], expect=["c.d", "a.b"]).ok is True


@pytest.mark.parametrize("given, written", [
    (lambda a, M: a > 0, lambda a, M: sp.Lt(0, a)),
    (lambda a, M: a >= 1, lambda a, M: a - 1 >= 0),
    (lambda a, M: sp.Q.invertible(M), lambda a, M: sp.Ne(0, sp.Determinant(M))),
], ids=["0<a", "a-1>=0", "det"])
def test_an_assumption_is_the_exercises_however_it_is_written(given, written):
    a = derive.real("a")
    M = sp.MatrixSymbol("M", 2, 2)
    goal = (sp.Piecewise((a, a > 0), (0, True)) + 0 * sp.Trace(M), a)
    answer = derive.claim("t.spelled", *goal, assume=[written(a, M)] + ([a > 0] if "M" in str(written(a, M)) else []))
    said = derive.exercise("9.4", answer, expect="proved", states=goal,
                           assume=[given(a, M)] + ([a > 0] if "M" in str(written(a, M)) else []))
    assert said.ok is True, str(said)
    stronger = derive.claim("t.stronger", *goal, assume=[a > 1])
    said = derive.exercise("9.4", stronger, expect="proved", states=goal, assume=[given(a, M)])
    assert said.ok is False and "assumes a > 1, which exercise 9.4 does not give" in str(said)


_DX = sp.Symbol("d", integer=True, positive=True)
_XQK = [sp.MatrixSymbol(name, 1, _DX) for name in "xqk"]


@pytest.mark.parametrize("written", [
    # exercise 4.2 was asked of explicit rows, where SymPy multiplies out at once: (x qᵀ)(k xᵀ), the same product
    # grouped otherwise, was judged another statement. Asked of matrix symbols, the grouping is the reader's
    lambda x, q, k: ((x * q.T) * (k * x.T), (x * k.T) * (q * x.T)),
    lambda x, q, k: (x * (q.T * k) * x.T, x * k.T * (q * x.T)),
    lambda x, q, k: ((x * k.T) * (q * x.T), x * (q.T * (k * x.T))),
], ids=["pairs", "middle", "swapped"])
def test_exercise_4_2_takes_the_product_grouped_as_the_reader_writes_it(written):
    x, q, k = _XQK
    answer = derive.claim("t.exchange", *written(x, q, k)).prove()
    said = derive.exercise("4.2", answer, expect="proved", states=(x * q.T * k * x.T, x * k.T * q * x.T))
    assert said.ok is True, str(said)


def test_exercise_4_2_still_tells_another_product_apart():
    x, q, k = _XQK
    answer = derive.claim("t.other", (x * q.T) * (k * x.T), (k * x.T) * (x * q.T)).prove()  # true, and another
    said = derive.exercise("4.2", answer, expect="proved", states=(x * q.T * k * x.T, x * k.T * q * x.T))
    assert said.ok is False and "but exercise 4.2 asks for" in str(said)


def test_exercise_4_2_is_asked_of_matrix_symbols_in_its_notebook():
    cells = [c for c in nbformat.read(NOTEBOOKS / "04_rank1_reduction.ipynb", as_version=4).cells
             if c.cell_type == "code" and 'derive.exercise("4.2"' in c.source]
    assert len(cells) == 1 and "x, q, k = x_any, q_any, k_any" in cells[0].source
