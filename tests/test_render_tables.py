import json
import re

import nbformat
import pytest
import sympy as sp

import derive
from derive import forms
from derive import Verdict, claim, render
from derive.kernel import describe, printing
from derive.present.render import MIME, TABLE_MIME
from derive.run.runner import claims_of
from derive.present.tables import ClaimTable
from derive.run.runner import suite_table

a, b = derive.real("a b")
RELU = derive.activation("relu")


def proved():
    return claim("demo.proved", (a + 1) ** 2, a**2 + 2 * a + 1, uses=["demo.base"]).prove()


def refuted():
    return claim("demo.refuted", RELU(a) * b, RELU(b) * a, expect="refuted", title="R < S").refute()


def test_badge():
    for verdict in Verdict:
        html = render.badge(verdict)
        assert f"derive-{verdict.value}" in html
        assert html.endswith(f"{render.STYLE[verdict][0]} {verdict.value}</span>")


def test_tex():
    assert printing.latex(a + b) == "a + b"
    assert printing.equation(a, b) == "a = b"
    long = sum(sp.Symbol(f"y_{k}") for k in range(200))
    assert printing.latex(long) == sp.latex(long)  # shown in full: a side is never replaced by a description
    assert "too long" not in printing.latex(sp.Matrix([[long] * 3]))


def test_a_claim_shows_the_equation_it_checks_with_the_layers_by_name():
    x, Q, K, V = derive.row("x", 2), derive.matrix("Q", 2, 2), derive.matrix("K", 2, 2), derive.matrix("V", 2, 2)
    alpha = derive.positive("alpha")
    relu = derive.activation("relu")
    cl = claim("demo.g", forms.gated(x, alpha * Q, K / alpha, V, relu), forms.gated(x, Q, K, V, relu)).prove()
    r = cl.record()
    assert r["checked"] == r"G_{\mathrm{ReLU}}(x;\, \alpha Q, K/\alpha) = G_{\mathrm{ReLU}}(x;\, Q, K)"
    assert r["scope"] == "d=2, m=2, n=2"
    assert r["scope_tex"] == (r"\text{for } \alpha > 0,\ K, Q, V \in \mathbb{R}^{2 \times 2},\ "
                              r"x \in \mathbb{R}^{1 \times 2}")
    # a shadow that does not evaluate back to its matrix is never printed
    fake = derive.matrix("Q", 2, 2)
    fake.shadow = sp.MatrixSymbol("K", 2, 2)
    assert printing.latex(fake) == sp.latex(sp.ImmutableMatrix(fake))


def test_how_says_how_each_verdict_was_obtained():
    assert describe.how(proved().record()) == "by expand"
    assert describe.how(refuted().record()) == "refuted at a = 1, b = -1: exact residual -1"
    silu = claim("demo.silu", derive.activation("silu")(a), a).refute().record()
    assert describe.how(silu).startswith("refuted at a = 1: residual ")
    assert "∈ [" in describe.how(silu)
    assert describe.how(claim("demo.open", RELU(a) * b, RELU(b) * a).record()) == "no strategy settled it"
    assert describe.how(claim("demo.unproven", RELU(a), a).prove().record()) == "no strategy reduced lhs - rhs to zero"


def test_mimebundle():
    rec = refuted().record()
    data = render.mimebundle(rec, "x = y")
    assert set(data) == {"text/html", "text/latex", "text/plain", MIME}
    assert data[MIME] is rec
    assert data["text/plain"] == "[refuted] demo.refuted: refuted at a = 1, b = -1: exact residual -1\n    x = y"
    page = data["text/html"]
    assert "<strong><code>demo.<wbr>refuted</code></strong> — R\xa0&lt;\xa0S" in page  # the relation on one line
    assert "$$ x = y $$" in page and data["text/latex"] == "$$ x = y $$"
    assert "as expected" in page


def test_mimebundle_flags_an_unexpected_verdict_and_lists_uses_and_assumptions():
    cl = claim("demo.flag", RELU(a) * b, RELU(b) * a, expect="refuted", uses=["demo.base"], assume=[a > 0])
    page = render.mimebundle(cl.record(), "s")["text/html"]
    assert "<strong>expected refuted</strong>" in page
    assert "uses <code>demo.base</code>" in page
    assert r"\text{for } a, b \in \mathbb{R},\ a &gt; 0" in page  # the scope, read off the symbols and assume


@pytest.mark.parametrize("make", [proved, refuted])
def test_records_carry_id_verdict_uses_and_no_timings(make):
    rec = make().record()
    assert {"id", "verdict", "uses", "expect", "statement", "witness"} <= set(rec)
    assert "seconds" not in rec
    json.dumps(rec)  # plain data


def test_claim_table_lists_every_statement_in_order():
    proved()
    refuted()
    derive.chain("demo.chain", a).step(a, "definition")
    table = derive.claim_table()
    assert isinstance(table, ClaimTable)
    assert len(table) == 3
    assert [r["id"] for r in table.records] == ["demo.proved", "demo.refuted", "demo.chain"]
    assert [r["verdict"] for r in table.records] == ["proved", "refuted", "proved"]
    assert table.records[0]["uses"] == ["demo.base"]
    assert set(table.seconds) == {"demo.proved", "demo.refuted", "demo.chain"}


def test_claim_table_rendering_has_no_timings_in_its_data():
    proved()
    refuted()
    data, meta = derive.claim_table()._repr_mimebundle_()
    assert data[TABLE_MIME] == {"claims": [r for r in derive.claim_table().records]}
    assert all("seconds" not in r for r in data[TABLE_MIME]["claims"])
    assert "seconds" not in json.dumps(data)
    assert set(meta[TABLE_MIME]["seconds"]) == {"demo.proved", "demo.refuted"}
    assert "<strong>2 claims</strong>: 1 proved, 1 refuted; every verdict as expected" in data["text/html"]
    assert data["text/plain"] == "   proved  demo.proved\n  refuted  demo.refuted"


def test_claim_table_names_unexpected_verdicts():
    claim("demo.bad", RELU(a), a, expect="refuted").prove()
    data, _ = derive.claim_table()._repr_mimebundle_()
    assert "<strong>unexpected: demo.bad</strong>" in data["text/html"]


def test_a_long_claim_table_is_folded_to_its_counts_and_open_where_a_verdict_is_unexpected():
    from derive.present.tables import FOLD_ROWS, ClaimTable
    rows = [{**proved().record(), "id": f"demo.row_{k}"} for k in range(FOLD_ROWS + 1)]
    page = ClaimTable(rows)._repr_mimebundle_()[0]["text/html"]
    assert page.count("<details") == 1 and "<details class=\"derive-fold derive-table-fold\">" in page
    assert f"<summary><strong>{FOLD_ROWS + 1} claims</strong>: {FOLD_ROWS + 1} proved; every verdict" in page
    assert page.count("<tr data-id=") == FOLD_ROWS + 1  # every row still there, one click away
    bad = rows + [{**rows[0], "id": "demo.bad_row", "expect": "refuted"}]
    assert "derive-table-fold\" open>" in ClaimTable(bad)._repr_mimebundle_()[0]["text/html"]
    short = ClaimTable(rows[:FOLD_ROWS])._repr_mimebundle_()[0]["text/html"]
    assert "<details" not in short and short.count("<tr data-id=") == FOLD_ROWS


def test_table_html_keeps_pipes_inside_cells_and_folds_witnesses():
    rec = {**proved().record(), "detail": "a | b"}
    table = render.table_html([rec, refuted().record()])
    assert re.findall(r"<th[^>]*>(\w+)</th>", table) == ["claim", "verdict", "how", "uses"]
    assert "by a | b" in table and table.count("<tr data-id=") == 2
    assert "<code>demo.base</code>" in table
    long = {**refuted().record(), "witness": {f"x_{k}": "1" for k in range(30)}}
    assert "<details" in render.table_html([long]) and "refuted: exact residual -1" in render.table_html([long])


def test_empty_claim_table():
    table = derive.claim_table()
    assert len(table) == 0
    assert "<strong>0 claims</strong>" in table._repr_mimebundle_()[0]["text/html"]


def _notebook_with_outputs(records, seconds, table=True):
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("derive.claim_table()")
    data = {TABLE_MIME: {"claims": records}, "text/plain": "table"} if table else {MIME: records[0], "text/plain": "c"}
    meta = {TABLE_MIME: {"seconds": seconds}} if table else {MIME: {"seconds": seconds[records[0]["id"]]}}
    cell.outputs = [nbformat.v4.new_output("execute_result", data=data, metadata=meta, execution_count=1)]
    nb.cells = [nbformat.v4.new_markdown_cell("# t"), cell]
    return nb


def test_claims_of_reads_the_last_table_with_its_timings():
    rec = proved().record()
    nb = _notebook_with_outputs([rec], {"demo.proved": 0.5})
    assert claims_of(nb) == [{**rec, "seconds": 0.5}]


def test_claims_of_falls_back_to_single_claim_outputs():
    rec = refuted().record()
    nb = _notebook_with_outputs([rec], {"demo.refuted": 0.25}, table=False)
    assert claims_of(nb) == [{**rec, "seconds": 0.25}]
    assert claims_of(nbformat.v4.new_notebook()) == []


def test_suite_table_reads_committed_outputs(tmp_path):
    p_rec, r_rec = proved().record(), refuted().record()
    nbformat.write(_notebook_with_outputs([p_rec], {}), tmp_path / "01_first.ipynb")
    nbformat.write(_notebook_with_outputs([r_rec], {}), tmp_path / "02_second.ipynb")
    nbformat.write(_notebook_with_outputs([p_rec], {}), tmp_path / "00_overview.ipynb")
    nbformat.write(_notebook_with_outputs([p_rec], {}), tmp_path / "scratch.ipynb")
    table = suite_table(tmp_path)
    assert len(table) == 2
    assert [(nb, r["id"]) for nb, r in table.rows] == [("01_first", "demo.proved"), ("02_second", "demo.refuted")]
    data, _ = table._repr_mimebundle_()
    # the overview is left out (its own outputs are the ones being written), and the heading says so
    assert "<strong>2 claims in the other 2 notebooks</strong>: 1 proved, 1 refuted" in data["text/html"]
    everything = suite_table(tmp_path, exclude=())
    assert str(everything).startswith("3 claims in the suite: 2 proved, 1 refuted")
    assert data["application/vnd.derive.suite+json"]["rows"][1] == ["02_second", "demo.refuted", "refuted"]
    assert data["text/plain"].splitlines() == ["01_first     proved  demo.proved", "02_second    refuted  demo.refuted"]


def test_suite_table_needs_a_folder(tmp_path):
    with pytest.raises(FileNotFoundError, match="no notebook folder at"):
        suite_table(tmp_path / "missing")
