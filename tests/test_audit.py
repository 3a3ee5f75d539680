from derive.present import audit as audit_module
from derive.present.audit import audit


def rec(ident, verdict="proved", paper=(), scope="", uses=(), expect=None):
    return {"id": ident, "verdict": verdict, "paper": list(paper), "scope": scope, "uses": list(uses),
            "expect": expect}


def row(records, item):
    return next(r for r in audit(records).rows if r["item"] == item)


def test_an_item_proved_at_every_size_says_so():
    r = row([rec("kv.x", paper=["1.1"], scope="every size")], "1.1")
    assert (r["claims"], r["scope"], r["directions"], r["rests"]) == (1, "every size", "(one way)", "yes")


def test_an_item_stated_for_every_size_but_proved_at_small_sizes_says_not_every_size():
    r = row([rec("kv.x", paper=["1.1"], scope="d=2, m=2, n=2")], "1.1")
    assert r["scope"] == "sizes d=2, m=2, n=2 (not every size)"


def test_a_proof_resting_on_an_unproved_claim_is_flagged():
    records = [rec("kv.x", paper=["1.1"], scope="every size", uses=["kv.y"]), rec("kv.y", verdict="unproven")]
    assert row(records, "1.1")["rests"] == "no: something used is not proved"


def test_both_directions_need_every_named_claim_proved():
    both = [rec("gated.exchange_one_unit", paper=["5.3"]), rec("gated.exchange_per_unit.any_size", paper=["5.3"])]
    assert row(both, "5.3")["directions"] == "⇒ yes, ⇐ yes"
    one = [both[0], rec("gated.exchange_per_unit.any_size", verdict="unproven", paper=["5.3"])]
    assert row(one, "5.3")["directions"] == "⇒ yes, ⇐ no"


B3_IDS = ("gl_r.unit.r2.keeps_only_if", "gl_r.unit.r3.keeps_only_if", "gl_r.unit.r2.keeps_if", "gl_r.unit.r3.keeps_if",
          "gl_r.relu_only_if.r2", "gl_r.relu_only_if.r3", "gl_r.silu_only_if.r2", "gl_r.silu_only_if.r3",
          "gl_r.zero_line.r2", "gl_r.identity_if.d", "gl_r.relu_if.e", "gl_r.silu_if.f")


def test_a_direction_with_a_step_no_claim_mechanizes_is_only_partly(monkeypatch):
    records = [rec(i, paper=["B3"]) for i in B3_IDS]
    assert row(records, "B3")["directions"] == "⇒ yes, ⇐ yes"
    monkeypatch.setitem(audit_module.PARTLY, "B3", ("⇒", "a step said in words"))
    r = row(records, "B3")
    assert r["directions"] == "⇒ partly, ⇐ yes" and "not mechanized: a step said in words" in r["rests"]


def test_claims_without_a_paper_field_count_by_their_identifier():
    assert row([rec("gated.exchange.relu", verdict="refuted")], "5.3")["claims"] == 1


def test_a_case_refuted_as_expected_is_a_step_of_the_argument_but_an_unexpected_one_is_not():
    records = [rec(i, paper=["B3"]) for i in B3_IDS]
    fails = rec("gl_r.zero_line.r3", verdict="refuted", paper=["B3"], expect="refuted")
    assert row(records + [fails], "B3")["directions"] == "⇒ yes, ⇐ yes"
    surprise = rec("gl_r.zero_line.r3", verdict="refuted", paper=["B3"], expect="proved")
    assert row(records + [surprise], "B3")["directions"] == "⇒ no, ⇐ yes"


def test_the_items_are_those_docs_paper_md_numbers():
    import re
    from pathlib import Path

    from derive.present import paper

    text = (Path(__file__).resolve().parent.parent / "docs" / "paper.md").read_text(encoding="utf-8")
    numbered = re.findall(r"^(\d\.\d|B\d) ", text, flags=re.M)
    assert [i.id for i in paper.ITEMS] == numbered
