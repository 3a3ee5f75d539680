import json

import pytest

from derive import cli
from derive.present.audit import audit, records_of_run


def rec(ident, verdict="proved", proves=(), scope="", uses=(), expect=None, paper=()):
    return {"id": ident, "verdict": verdict, "paper": list(paper), "scope": scope, "uses": list(uses),
            "expect": expect, "proves": [list(p) for p in proves]}


def row(records, item):
    return next(r for r in audit(records).rows if r["item"] == item)


def way(records, item, arrow="⇒"):
    return row(records, item)["directions"][arrow]


def test_a_direction_proved_at_every_size_says_so():
    r = row([rec("kv.x", proves=[("1.1", "⇒")], scope="every size")], "1.1")
    assert r["scope"] == "every size"
    assert r["directions"] == {"⇒": {"status": "yes", "scope": "every size", "claims": ["kv.x"]}}


def test_an_item_no_claim_concludes_is_no_whatever_claims_it_has():
    r = row([rec("kv.x", paper=["1.1"], scope="every size")], "1.1")
    assert r["directions"]["⇒"] == {"status": "no", "scope": "—", "claims": []} and r["scope"] == "—"


def test_the_scope_is_the_narrowest_of_everything_a_direction_rests_on():
    records = [rec("kv.x", proves=[("1.1", "⇒")], scope="every size", uses=["kv.y"]),
               rec("kv.y", scope="d=2, m=2, n=2")]
    assert way(records, "1.1")["scope"] == "sizes d=2, m=2, n=2"
    records[1]["scope"] = "every size"  # changing one record's scope changes the row
    assert way(records, "1.1")["scope"] == "every size"


def test_scalar_conclusions_of_an_every_size_item_say_they_are_not_every_size():
    assert way([rec("gated.one_unit", proves=[("5.3", "⇒")])], "5.3")["scope"] == "scalar only, not every size"
    assert way([rec("lemma.x", proves=[("6.1", "⇒")])], "6.1")["scope"] == "scalar"


def test_a_one_way_item_has_one_direction_and_an_iff_two():
    assert list(row([], "1.1")["directions"]) == ["⇒"]
    assert list(row([], "5.3")["directions"]) == ["⇒", "⇐"]


def test_the_item_scope_is_the_narrowest_direction():
    records = [rec("a", proves=[("5.3", "⇒")], scope="every size"), rec("b", proves=[("5.3", "⇐")], scope="d=2")]
    assert row(records, "5.3")["scope"] == "sizes d=2"


def test_a_proof_resting_on_an_unproved_claim_is_only_partly():
    records = [rec("kv.x", proves=[("1.1", "⇒")], scope="every size", uses=["kv.y"]), rec("kv.y", verdict="unproven")]
    assert way(records, "1.1")["status"] == "partly"
    assert way([rec("kv.x", proves=[("1.1", "⇒")], uses=["kv.missing"])], "1.1")["status"] == "partly"


def test_an_unproved_conclusion_is_no_and_one_of_two_is_partly():
    assert way([rec("a", verdict="unproven", proves=[("5.3", "⇐")])], "5.3", "⇐")["status"] == "no"
    two = [rec("a", proves=[("5.3", "⇐")]), rec("b", verdict="unproven", proves=[("5.3", "⇐")])]
    assert way(two, "5.3", "⇐")["status"] == "partly"


def test_a_case_refuted_as_expected_is_a_step_but_an_unexpected_one_is_not():
    fails = rec("a", verdict="refuted", expect="refuted", proves=[("B3", "⇒")])
    assert way([fails], "B3")["status"] == "yes"
    surprise = rec("a", verdict="refuted", expect="proved", proves=[("B3", "⇒")])
    assert way([surprise], "B3")["status"] == "no"


def test_numeric_evidence_is_said_to_be_evidence():
    r = way([rec("crosscheck.x", verdict="checked", expect="checked", proves=[("B4", "⇒")], scope="d=64")], "B4")
    assert r == {"status": "yes", "scope": "numeric evidence at sizes d=64", "claims": ["crosscheck.x"]}


def test_cited_facts_are_listed_and_never_a_direction():
    r = row([], "4.3")
    assert r["cited"] and r["directions"]["⇒"]["status"] == "no"


def test_records_of_a_run_are_read_from_check_json_and_refused_otherwise():
    text = json.dumps([{"notebook": "01", "claims": [rec("kv.x", proves=[("1.1", "⇒")], scope="every size")],
                        "not_run": []}])
    assert records_of_run(text)[0]["id"] == "kv.x"
    for bad in ("{", "{}", "[1]"):
        with pytest.raises(ValueError, match="derive check --json"):
            records_of_run(bad)


def test_derive_audit_json_from_a_run(tmp_path, capsys):
    run = tmp_path / "run.json"
    run.write_text(json.dumps([{"notebook": "01", "claims": [rec("kv.x", proves=[("1.1", "⇒")], scope="every size")],
                                "not_run": []}]))
    assert cli.main(["audit", "--json", "--from", str(run)]) == 0
    rows = json.loads(capsys.readouterr().out)
    one = next(r for r in rows if r["item"] == "1.1")
    assert one["scope"] == "every size" and one["directions"]["⇒"]["claims"] == ["kv.x"]
    assert set(one) == {"item", "says", "scope", "directions", "cited"}
    assert cli.main(["audit", "--from", str(run)]) == 0
    assert "1.1" in capsys.readouterr().out


def test_derive_audit_refuses_a_file_that_is_not_a_run(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("not json")
    assert cli.main(["audit", "--from", str(bad)]) != 0
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "derive check --json" in err


def test_the_items_are_those_docs_paper_md_numbers():
    import re
    from pathlib import Path

    from derive.present import paper

    text = (Path(__file__).resolve().parent.parent / "docs" / "paper.md").read_text(encoding="utf-8")
    numbered = re.findall(r"^(\d\.\d|B\d) ", text, flags=re.M)
    assert [i.id for i in paper.ITEMS] == numbered


# -- a statement about matrices of a fixed shape is read at that size, whatever holds the matrices ---------------
def _scope_of(statement):
    return statement.record()["scope"]


def test_matrix_symbols_of_a_fixed_shape_are_a_statement_at_that_size():
    import sympy as sp
    import derive
    from derive import rules
    M, N = sp.MatrixSymbol("M", 2, 2), sp.MatrixSymbol("N", 2, 2)
    assert _scope_of(derive.claim("scope.fixed_symbols", sp.Transpose(M * N), N.T * M.T)) == "M, N: 2×2"
    chained = derive.chain("scope.fixed_chain", ((M * N).T, N.T * M.T), expect=None).step((2 * (M * N).T, 2 * N.T * M.T),
                                                                              rules.multiply(2))
    assert _scope_of(chained) == "M, N: 2×2"
    assert _scope_of(derive.claim("scope.fixed_identity", sp.MatMul(sp.Identity(2), sp.Identity(2)),
                                  sp.Identity(2))) == "2×2"


def test_a_column_of_scalar_equations_in_a_chain_is_no_size_but_an_explicit_matrix_claim_is():
    import sympy as sp
    import derive
    from derive import rules
    a = sp.Symbol("a", real=True)
    chained = derive.chain("scope.column", (sp.Matrix([a, 2 * a]), sp.Matrix([1, 2]))).step(
        (sp.Matrix([2 * a, 4 * a]), sp.Matrix([2, 4])), rules.multiply(2))
    assert _scope_of(chained) == ""
    assert _scope_of(derive.claim("scope.explicit", sp.Matrix([[a + 1, 0], [0, a + 1]]) ** 2,
                                  (a**2 + 2 * a + 1) * sp.eye(2))) == "2×2"
    # and a row resting on a fixed-size statement says that size
    records = [rec("kv.x", proves=[("1.1", "⇒")], scope="every size", uses=["kv.y"]),
               {**derive.claim("kv.y", sp.Transpose((M := sp.MatrixSymbol("Mq", 2, 2)).T), M).prove().record(),
                "id": "kv.y"}]
    assert way(records, "1.1")["scope"] == "sizes Mq: 2×2"


def test_a_chain_holds_only_as_far_as_its_premise_is_proved():
    lifted = {**rec("atlas.x.every_size", proves=[("B2", "⇒")], scope="every size", uses=["atlas.x.unit"]),
              "premise": "atlas.x.unit"}
    for verdict, expect, status in [("proved", "proved", "yes"), ("refuted", "refuted", "no"),
                                    ("unproven", None, "no")]:
        unit = rec("atlas.x.unit", verdict=verdict, expect=expect)
        got = way([lifted, unit], "B2")["status"]
        assert (got == "yes") is (status == "yes"), (verdict, got)


@pytest.mark.parametrize("records", [
    # two proved claims that use each other concluded 5.1 "yes": a cycle of uses is no ground
    [rec("sym.a", proves=[("5.1", "⇒")], scope="every size", uses=["sym.b"]), rec("sym.b", uses=["sym.a"])],
    [rec("sym.a", proves=[("5.1", "⇒")], scope="every size", uses=["sym.a"])],
    [rec("sym.a", proves=[("5.1", "⇒")], scope="every size", uses=["sym.b"]), rec("sym.b", uses=["sym.c"]),
     rec("sym.c", uses=["sym.b"])],
], ids=["two", "itself", "below"])
def test_a_direction_resting_on_a_cycle_of_uses_is_not_yes(records):
    assert way(records, "5.1")["status"] != "yes"


def test_a_chain_whose_premise_rests_on_a_cycle_is_not_yes():
    records = [dict(rec("sym.chain", proves=[("5.1", "⇒")], scope="every size"), premise="sym.p"),
               rec("sym.p", uses=["sym.q"]), rec("sym.q", uses=["sym.p"])]
    assert way(records, "5.1")["status"] != "yes"
    records[1]["uses"] = []
    assert way(records, "5.1")["status"] == "yes"


def test_an_identifier_stated_twice_is_refused_by_the_audit():
    with pytest.raises(ValueError, match="sym.a is stated twice"):
        audit([rec("sym.a", proves=[("5.1", "⇒")]), rec("sym.a", verdict="unproven")])


_D = __import__("sympy").Symbol("d", integer=True, positive=True)
_M = __import__("sympy").Symbol("m", integer=True, positive=True)


@pytest.mark.parametrize("condition, said", [
    # a claim at every size but for an assumption on its sizes alone was read as proved at every size
    (lambda sp: sp.Eq(_D, 1), "sizes d=1"),
    (lambda sp: _D > 2, "sizes d > 2"),
    (lambda sp: sp.Eq(_D, _M), "sizes d=m"),
    (lambda sp: sp.Eq(sp.MatrixSymbol("X", _D, _M)[0, 0], 1), "every size"),
], ids=["one", "above", "equal", "entry"])
def test_an_assumption_on_the_sizes_alone_narrows_the_scope(condition, said):
    import sympy as sp

    import derive
    X = sp.MatrixSymbol("X", _D, _M)
    c = derive.claim("symmetric.narrowed", sp.HadamardProduct(X, X + X), 2 * sp.HadamardProduct(X, X),
                     assume=[condition(sp)],
                     proves=[("5.1", "⇒")], expect=None).prove()
    assert c.verdict.value == "proved", c.evidence.detail
    assert way([c.record()], "5.1") == {"status": "yes", "scope": said, "claims": ["symmetric.narrowed"]}


@pytest.mark.parametrize("shape, said", [
    # a matrix symbol of a fixed size beside symbolic ones was read as proved at every size
    ((_D, 2), "sizes Y: d×2"),
    ((3, _D), "sizes Y: 3×d"),
    ((2, 2), "sizes Y: 2×2"),
    ((1, _D), "every size"),  # a row, as the token x is, names no size of its own
], ids=["cols", "rows", "both", "row"])
def test_a_matrix_of_a_fixed_size_beside_symbolic_ones_narrows_the_scope(shape, said):
    import sympy as sp

    import derive
    X, Y = sp.MatrixSymbol("X", _D, _D), sp.MatrixSymbol("Y", *shape)
    t = sp.Trace(Y.T * Y)  # a number of Y's, beside X of every size
    c = derive.claim("symmetric.fixed", t * sp.HadamardProduct(X, X + X), 2 * t * sp.HadamardProduct(X, X),
                     proves=[("5.1", "⇒")], expect=None).prove()
    assert c.verdict.value == "proved", c.evidence.detail
    assert way([c.record()], "5.1") == {"status": "yes", "scope": said, "claims": ["symmetric.fixed"]}


@pytest.mark.parametrize("records, item", [
    # a d = 2 claim filed under 5.3 by its identifier made the box fully proved while the audit read both directions
    # of 5.3 as not concluded; so did a claim tagged paper= with no proves=, and one proving one way of two
    ([rec("gated.exchange.d2", scope="d=2, m=2, n=1")], "5.3"),
    ([rec("kv.elsewhere", paper=["1.1"])], "1.1"),
    ([rec("lemma.one_way", proves=[("6.1", "⇒")], paper=["6.1"])], "6.1"),
], ids=["by_identifier", "by_paper", "one_way_of_two"])
def test_the_blueprint_never_shows_an_item_fully_proved_that_the_audit_does_not_read_as_concluded(records, item):
    from derive.site.blueprint import blueprint
    from derive.site.graph import claim_graph

    graph = claim_graph([("05_x", records)])
    assert blueprint(graph).items[item].status == "fully-proved"  # the claims alone
    assert blueprint(graph, audit(records).concluded()).items[item].status == "open"
    records[0]["proves"] = [[item, a] for a in ("⇒", "⇐")]
    assert blueprint(claim_graph([("05_x", records)]), audit(records).concluded()).items[item].status == "fully-proved"


def _chain_from(start, end, rule, **kw):
    import derive
    return derive.chain("symmetric.from_start", start, expect=None, **kw).step(end, rule)


@pytest.mark.parametrize("build", [
    # a chain from 1 = 2 to S's exchange (any equation follows from a false one) concluded 5.1 "yes (every size)":
    # an implication from a start no claim proves holds only where the start does, and 5.1 is stated outright
    lambda sp, rules, a: _chain_from((sp.Integer(1), sp.Integer(2)), (a, -a), rules.absurd()),
    lambda sp, rules, a: _chain_from((a, 2 * a), (a**2, 2 * a**2), rules.multiply(a)),
    lambda sp, rules, a: _chain_from((a**2, 1), (a**2 - 1, 0), rules.rearrange()),
], ids=["from_false", "from_an_equation", "rearranged"])
def test_an_implication_from_an_unproved_start_does_not_conclude_a_one_way_item(build):
    import sympy as sp

    from derive import rules
    a = sp.Symbol("a", real=True)
    ch = build(sp, rules, a)
    assert ch.verdict.value == "proved" and ch.record()["hypothesis"] is True
    record = dict(ch.record(), proves=[["5.1", "⇒"]])
    assert way([record], "5.1")["status"] == "partly"
    both = dict(ch.record(), proves=[["5.3", "⇒"]])  # one way of an "if and only if": an implication is what it asks
    assert way([both], "5.3")["status"] == "yes"


def test_a_chain_that_refutes_its_start_or_rests_on_a_proved_one_concludes_outright():
    import sympy as sp

    import derive
    from derive import rules
    a = sp.Symbol("a", real=True)
    refutes = derive.chain("atlas.refutes", (sp.Matrix([a * 0 + 1]), sp.Matrix([2])), expect=None).step(
        (sp.Integer(0), sp.Integer(1)), rules.absurd())
    assert refutes.verdict.value == "proved" and refutes.record()["hypothesis"] is False
    assert way([dict(refutes.record(), proves=[["B2", "⇒"]])], "B2")["status"] == "yes"
    premise = derive.chain("atlas.premise", (a + 1) ** 2 - (a**2 + 2 * a + 1), expect=None).step(0, rules.expand)
    rests = derive.chain("atlas.rests", ((a + 1) ** 2, a**2 + 2 * a + 1), premise=premise, expect=None).step(
        ((a + 1) ** 2 - 1, a**2 + 2 * a), rules.rearrange())
    assert rests.verdict.value == "proved" and rests.record()["hypothesis"] is False
    assert premise.record()["hypothesis"] is False  # (a chain of equal expressions states its equation outright)
