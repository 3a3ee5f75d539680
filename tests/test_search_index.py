"""The site's search index: built from a notebook's pages, headings, prose and claims, with math as readers type it."""
import json

import nbformat
import pytest

from derive.site import pages, search_index


@pytest.fixture(scope="module")
def index():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# B3 · Rank $r$\n\n**What this shows.** The $\\mathrm{GL}(r)$ symmetry of "
                                      "rank-$r$ bilinear attention."),
        nbformat.v4.new_code_cell("1 + 1"),
        nbformat.v4.new_markdown_cell("## What the gate keeps\n\nFor ReLU, $M$ must be a positive *monomial* matrix: "
                                      "$\\sigma(u M) = \\sigma(u) M$."),
        nbformat.v4.new_markdown_cell("Hidden set-up prose.", metadata={"tags": ["boilerplate"]}),
    ]
    body, _ = pages.exporter().from_notebook_node(
        nb, resources={"metadata": {"name": "09_x", "path": "."}, "derive": {"nav": "", "nav_bottom": ""}})
    _, headings = pages.with_contents(body)
    s = search_index.SearchIndex()
    s.add_page("09_x.html", "B3 · Rank r", pages.summary_of(nb), headings, pages.prose_of(nb))
    s.add_claim("09_x.html#claim-gl_r.score", "gl_r.score", "the score is invariant",
                r"x Q M \left(K M^{-\top}\right)^{\top} x^{\top} = x Q K^{\top} x^{\top}", "proved", "by expand",
                caption=r"\text{invariance under } \mathrm{GL}(r)")
    return s


def test_the_index_finds_math_as_typed_and_the_prose_under_its_heading(index):
    assert [e["u"] for e in index.find("GL(r)") if e["k"] != "claim"][0] == "09_x.html"
    assert "gl_r.score" in [e["t"] for e in index.find("gl(r)")]  # a claim, by its caption
    assert [e["u"] for e in index.find("monomial")] == ["09_x.html#What-the-gate-keeps"]
    assert [e["u"] for e in index.find("positive monomial matrix")] == ["09_x.html#What-the-gate-keeps"]


def test_symbols_are_found_by_their_sign_and_their_name(index):
    found = {e["u"] for e in index.find("σ(u M)")}
    assert found == {e["u"] for e in index.find("sigma monomial")} == {"09_x.html#What-the-gate-keeps"}
    assert [e["t"] for e in index.find("Kᵀ xᵀ")] == ["gl_r.score"]


def test_what_a_reader_cannot_see_is_not_indexed_and_the_script_holds_every_entry(index):
    assert index.find("hidden set-up") == [] and index.find("\\mathrm") == [] and index.find("$") == []
    script = index.script()
    entries = json.loads(script[len("window.DERIVE_SEARCH = "):].rstrip().rstrip(";"))
    assert entries == index.entries and all({"k", "t", "u", "x"} <= set(e) for e in entries)


@pytest.mark.parametrize("tex, text", [
    (r"\mathrm{GL}(r)", "GL(r)"),
    (r"\frac{\sigma(z)}{z}", "(σ(z))/z"),
    (r"x \in \mathbb{R}^{1 \times d}", "x ∈ ℝ^1 × d"),
    (r"\sigma\left(x Q^\top\right) \odot \left(x K^{\top}\right)", "σ(x Qᵀ) ⊙ (x Kᵀ)"),
    (r"\max(z, 0) + \operatorname{erf}(z)", "max(z, 0) + erf(z)"),
])
def test_math_reads_as_text(tex, text):
    assert search_index.math_text(tex)[0] == text
