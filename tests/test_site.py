"""The static site: the claims graph and its derived statuses, the blueprint, the book, and a small notebook's
site run end to end by ``derive build`` and opened in headless Chromium (:mod:`sitecheck`). The suite's own site is
checked page by page in ``test_site_pages.py`` and ``test_site_claims_page.py``.
"""
import base64
import html
import json
import os
import re
import shutil
from pathlib import Path
from urllib.parse import unquote, urlparse

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from derive.cli import main
from derive.run.runner import find_notebooks
from derive.site import build, claim_graph, pages, runs_from_files
from derive.present import paper
from derive.site.blueprint import blueprint, blueprint_dot, dot_svg, have_dot, item_status
from sitecheck import ALL, PAGE_SECONDS, check_site, count_math, index_math, mathjax_or_skip

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")  # the browser fixture is conftest's



def rec(ident, verdict="proved", uses=(), expect=None):
    return {"id": ident, "verdict": verdict, "uses": list(uses), "expect": expect}


# -- the graph -------------------------------------------------------------------------------------------
def test_fully_proved_only_when_everything_used_is_proved():
    g = claim_graph([("01", [rec("a"), rec("b", uses=["a"]), rec("c", "checked"), rec("d", uses=["b", "c"]),
                             rec("e", uses=["d"])])])
    assert [g.nodes[n].status for n in "abcde"] == ["fully-proved", "fully-proved", "checked", "proved", "proved"]


def test_refuted_use_is_not_proved():
    g = claim_graph([("01", [rec("a", "refuted", expect="refuted"), rec("b", uses=["a"])])])
    assert g.nodes["b"].status == "proved"
    assert not g.nodes["a"].unexpected


def test_unknown_uses_become_missing_nodes():
    g = claim_graph([("01", [rec("a", uses=["gone"])])])
    assert g.nodes["gone"].missing and g.nodes["gone"].status == "missing"
    assert g.nodes["a"].status == "proved"
    assert g.edges == [("gone", "a")]


def test_a_cycle_is_never_fully_proved():
    g = claim_graph([("01", [rec("a", uses=["b"]), rec("b", uses=["a"]), rec("c")])])
    assert g.nodes["a"].status == g.nodes["b"].status == "proved"
    assert g.cycles() == {"a", "b"}
    assert g.nodes["c"].status == "fully-proved"


def test_first_statement_of_an_identifier_wins():
    g = claim_graph([("01", [rec("a")]), ("02", [rec("a", "refuted")])])
    assert g.nodes["a"].notebook == "01" and g.nodes["a"].verdict == "proved"


def test_unexpected_verdict_is_flagged():
    assert claim_graph([("01", [rec("a", "unproven", expect="proved")])]).nodes["a"].unexpected


def test_claim_graph_rejects_bad_input():
    with pytest.raises(TypeError):
        claim_graph("01")
    with pytest.raises(TypeError):
        claim_graph([["01", []]])
    with pytest.raises(ValueError):
        claim_graph([("01", [{"verdict": "proved"}])])
    with pytest.raises(ValueError):
        claim_graph([("01", [rec("a", "maybe")])])


def test_blueprint_maps_claims_to_paper_items_and_derives_their_status():
    g = claim_graph([("05_x", [rec("symmetric.exchange.d2"), rec("gated.exchange.relu", "refuted", ["symmetric.exchange.d2"],
                                                               expect="refuted"),
                               rec("gated.exercise.one"), {**rec("kv.memory_sum"), "paper": "2.1"}])])
    bp = blueprint(g)
    assert [i.id for i in bp.items.values()][:3] == ["1.1", "2.1", "2.2"] and len(bp.items) == len(paper.ITEMS)
    assert bp.items["5.1"].status == "fully-proved" and bp.items["5.3"].status == "refuted"
    assert bp.items["2.1"].claims == ["kv.memory_sum"]  # a claim's own paper= field wins over its prefix
    assert bp.loose == ["gated.exercise.one"] and bp.edges == [("5.1", "5.3")]
    assert item_status(["fully-proved", "refuted"], False) == "settled"
    assert item_status(["fully-proved", "proved"], False) == "proved"
    assert item_status(["fully-proved"], True) == "unexpected"


@pytest.mark.skipif(not have_dot(), reason="Graphviz's dot is not installed")
def test_blueprint_svg_has_a_linked_node_per_item_and_step_clusters():
    g = claim_graph([("05_x", [rec("symmetric.exchange.d2"), rec("symmetric.scaling.d2", uses=["symmetric.exchange.d2"])])])
    text = html.unescape(dot_svg(blueprint_dot(blueprint(g), lambda item: f"claims.html#item-{item}"), "blueprint"))
    assert text.startswith("<svg class=\"blueprint")
    assert all(f'id="item-{i.id}"' in text for i in paper.ITEMS)
    assert 'xlink:href="claims.html#item-5.1"' in text and 'id="step-5"' in text


@pytest.mark.skipif(not have_dot(), reason="Graphviz's dot is not installed")
def test_blueprint_text_reads_at_11_px_in_the_index_column_at_1280():
    """The blueprint is scaled down to its column (about 985 px at 1280): its smallest text must still read."""
    g = claim_graph([("05_x", [rec("symmetric.exchange.d2")])])
    text = dot_svg(blueprint_dot(blueprint(g), lambda item: f"claims.html#item-{item}"), "blueprint")
    width_px = float(re.search(r'<svg[^>]* width="([0-9.]+)pt"', text).group(1)) * 4 / 3
    smallest_px = min(float(f) for f in re.findall(r'font-size="([0-9.]+)"', text)) * 4 / 3
    shown = smallest_px * min(1.0, 985 / width_px)
    assert shown >= 11, f"the blueprint's smallest text is {shown:.1f} px at 1280 px ({width_px:.0f} px wide)"


def _bezier_points(d: str, steps: int = 24) -> list[tuple[float, float]]:
    """Points along an SVG path of Graphviz's edges, ``M x,y C x1,y1 x2,y2 x3,y3 …`` (cubic pieces)."""
    xy = [tuple(map(float, p.split(","))) for p in re.findall(r"-?[0-9.]+,-?[0-9.]+", d)]
    out = []
    for k in range(0, len(xy) - 3, 3):
        p0, p1, p2, p3 = xy[k:k + 4]
        for i in range(steps + 1):
            t = i / steps
            out.append(tuple((1 - t) ** 3 * a + 3 * (1 - t) ** 2 * t * b + 3 * (1 - t) * t ** 2 * c + t ** 3 * e
                             for a, b, c, e in zip(p0, p1, p2, p3)))
    return out


@pytest.mark.skipif(not have_dot(), reason="Graphviz's dot is not installed")
def test_no_arrow_of_the_blueprint_crosses_a_steps_title():
    """Laid out from the suite's own notebooks: no arrow passes through the text of a step's or a part's title."""
    import xml.etree.ElementTree as ET

    runs = runs_from_files(find_notebooks(Path(__file__).resolve().parent.parent / "notebooks"))
    svg = dot_svg(blueprint_dot(blueprint(claim_graph([(r.name, r.claims) for r in runs])), lambda item: None),
                  "blueprint")
    ns = {"s": "http://www.w3.org/2000/svg"}
    root = ET.fromstring(svg)
    boxes = []
    for cluster in root.iterfind(".//s:g[@class='cluster']", ns):
        for text in cluster.iterfind("s:text", ns):
            size, x, y = float(text.get("font-size")), float(text.get("x")), float(text.get("y"))
            wide = 0.55 * size * len(text.text or "")
            left = {"start": x, "middle": x - wide / 2, "end": x - wide}[text.get("text-anchor", "start")]
            boxes.append((text.text, left, y - 0.75 * size, left + wide, y + 0.2 * size))
    edges = root.findall(".//s:g[@class='edge']", ns)
    assert boxes and edges
    for edge in edges:
        points = _bezier_points(edge.find("s:path", ns).get("d"))
        for name, x0, y0, x1, y1 in boxes:
            crossing = [p for p in points if x0 < p[0] < x1 and y0 < p[1] < y1]
            assert not crossing, f"the arrow {edge.findtext('s:title', namespaces=ns)} crosses the title {name!r}"


def test_page_name_and_summary():
    assert pages.page_name("03_gated") == "03_gated.html"
    with pytest.raises(ValueError):
        pages.page_name("a/b")
    nb = new_notebook(cells=[new_markdown_cell("# Title $x$\n\n**What this shows.** That $a = a$.")])
    assert pages.title_of(nb, "fallback") == "Title $x$"
    assert pages.summary_of(nb) == "That $a = a$."


def test_build_refuses_to_replace_a_folder_it_did_not_write(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="refusing"):
        build([], tmp_path)
    with pytest.raises(TypeError):
        build(["01.ipynb"], tmp_path / "site")


@pytest.fixture(scope="module")
def mathjax():
    return mathjax_or_skip()


def test_math_counter():
    assert count_math("a $x$ and $$y$$, `$code$`, \\(z\\) and \\begin{align}w\\end{align}") == 4


TINY = [
    new_markdown_cell("# A small step: $\\sigma$\n\n**What this shows.** That $(a+b)^2$ expands, and a use "
                      "of a claim stated nowhere.\n\n$$a^2 + 2ab + b^2$$"),
    new_code_cell("import derive  # set-up the reader need not see\n%config InlineBackend.figure_formats = ['png']",
                  metadata={"tags": ["boilerplate"]}),
    new_code_cell("a, b = derive.real('a b')\n"
                  "base = derive.claim('tiny.base', (a + b)**2, a**2 + 2*a*b + b**2, expect='proved').prove()\nbase"),
    new_code_cell("top = derive.claim('tiny.top', (a - b)**2, a**2 - 2*a*b + b**2, uses=['tiny.base', 'tiny.gone'],\n"
                  "                   assume=[a > 0], expect='proved').prove()\ntop"),
    new_code_cell("derive.claim('tiny.sampled', (a + b)**3, a**3 + 3*a**2*b + 3*a*b**2 + b**3, expect='checked')"
                  ".check()"),
    new_code_cell("import matplotlib.pyplot as plt\nplt.figure(figsize=(2, 1.5)); plt.plot([0, 1], [1, 0]); plt.show()"),
    new_markdown_cell("## Exercises\n\n1. Expand $(a+1)^2$."),
    new_code_cell("(a + 1)**2", metadata={"tags": ["solution"], "jupyter": {"source_hidden": True}}),
    new_code_cell("derive.claim_table()"),
]


@pytest.fixture(scope="module")
def tiny_site(tmp_path_factory, mathjax):
    """A small notebook run end to end by ``derive build`` (in a folder of its own)."""
    here = tmp_path_factory.mktemp("tiny")
    (here / "notebooks").mkdir()
    nb = new_notebook(cells=TINY, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                           "language": "python"}})
    nbformat.write(nb, here / "notebooks" / "01_tiny.ipynb")
    before = (here / "notebooks" / "01_tiny.ipynb").read_text()
    cwd = os.getcwd()
    os.chdir(here)
    try:
        status = main(["build", "--root", "notebooks", "--out", "site", "--mathjax", str(mathjax), "-j", "1"])
    finally:
        os.chdir(cwd)
    assert status == 0
    assert (here / "notebooks" / "01_tiny.ipynb").read_text() == before  # executed into build/, not in place
    return here / "site", {"01_tiny": here / "build" / "notebooks" / "01_tiny.ipynb"}


# -- the sites in a browser ------------------------------------------------------------------------------
def test_tiny_site_hides_boilerplate_folds_solutions_and_anchors_claims(browser, tiny_site):
    site, sources = tiny_site
    seen = check_site(browser, site, sources)
    assert (seen["index.html"]["math"], seen["claims.html"]["math"]) == index_math(sources)
    if CHROMIUM.exists():
        printed = (site / "derive.pdf").read_bytes()
        assert printed[:5] == b"%PDF-" and b"/Outlines" in printed  # with bookmarks
    page = browser.new_page()
    page.set_default_timeout(PAGE_SECONDS * 1000)
    page.goto((site / "01_tiny.html").as_uri())
    text = page.inner_text("main")
    assert "set-up the reader need not see" not in text
    assert "tiny.top" in text and "expands" in text
    solution = page.locator("details.derive-solution")
    assert solution.count() == 1 and solution.get_attribute("open") is None
    assert "(a + 1)**2" in solution.text_content()
    assert page.locator("[id='claim-tiny.base'] .derive-claim-statement mjx-container").count() == 1
    assert page.locator("[id='claim-tiny.base'] .derive-claim-scope mjx-container").count() == 1  # "for a ∈ ℝ"
    assert page.locator("[id='claims']").count() == 1
    assert page.locator("img").count() == 1
    assert "rests on" in page.inner_text("[id='claim-tiny.top']")  # the status line says what is new
    assert page.locator("[id='claim-tiny.base'] .derive-claim-status").count() == 0
    page.goto((site / "claims.html").as_uri())
    assert page.locator("article[id='claim-tiny.top'] .cc-statement mjx-container").count() == 2
    if have_dot():
        status = {n: page.locator(f"[id='claim-node-{n}']").get_attribute("class") for n in ("tiny.base", "tiny.top")}
        assert status == {"tiny.base": "node node fully-proved", "tiny.top": "node node proved"}
    page.fill("nav.derive-nav input.derive-search-box", "tiny.top")
    assert "tiny.top" in page.inner_text(".derive-search-results")
    page.close()


#: where a claim's link to its SMT-LIB script is: right after its verdict badge, on its card, in the claim table
#: of its page, and on the claims page
SMTLIB_LINKS = {"01_tiny.html": ["[id='claim-{id}'] .derive-claim-head", "table tr[data-id='{id}']"],
                "claims.html": ["article[id='claim-{id}'] .cc-verdict"]}


def test_tiny_site_links_every_claim_to_its_rerun_in_the_try_page(browser, tiny_site):
    site, sources = tiny_site
    records = {c["id"]: c for c in runs_from_files(list(sources.values()))[0].claims}
    books = json.loads((site / "static" / "try-notebooks.json").read_text(encoding="utf-8"))
    assert books["01_tiny"]["claims"] == {i: c["verdict"] for i, c in records.items()}  # what a re-run is compared with
    assert books["01_tiny"]["cells"] and not any(line.lstrip().startswith("%") for cell in books["01_tiny"]["cells"]
                                                 for line in cell.splitlines())
    page = browser.new_page(viewport={"width": 390, "height": 900})
    for name, places in SMTLIB_LINKS.items():
        for ident in records:
            page.goto(f"{(site / name).as_uri()}#claim-{ident}")  # as a link to the claim opens it (and its fold)
            for place in places:
                links = page.locator(place.format(id=ident) + " a.derive-rerun")
                assert links.count() == 1, (name, ident, place)
                assert links.first.inner_text() == "re-run"
                target = urlparse(links.first.evaluate("a => a.href"))
                assert Path(unquote(target.path)) == site / "try.html" and target.query == f"claim={ident}"
    page.close()


def test_tiny_site_links_each_confirmed_claim_to_its_smtlib_script_beside_its_verdict(browser, tiny_site):
    site, sources = tiny_site
    records = {c["id"]: c for c in runs_from_files(list(sources.values()))[0].claims}
    confirmed = {i for i, c in records.items() if (c.get("second_opinion") or {}).get("result") == "agrees"}
    assert confirmed == {"tiny.base", "tiny.top"} and records["tiny.sampled"]["verdict"] == "checked"
    assert sorted(p.name for p in (site / "smtlib").iterdir()) == sorted(f"{i}.smt2" for i in confirmed)
    for width in (1280, 390):
        page = browser.new_page(viewport={"width": width, "height": 900})
        for name, places in SMTLIB_LINKS.items():
            for ident in records:
                page.goto(f"{(site / name).as_uri()}#claim-{ident}")  # as a link to the claim opens it
                for place in places:
                    links = page.locator(place.format(id=ident) + " a.derive-smtlib")
                    if ident not in confirmed:
                        assert links.count() == 0, (name, ident, place)
                        continue
                    assert links.count() == 1, (name, ident, place)
                    link = links.first
                    assert link.inner_text() == "SMT-LIB"
                    assert link.evaluate("a => a.previousElementSibling.classList.contains('derive-badge')")
                    target = Path(unquote(urlparse(link.evaluate("a => a.href")).path))
                    assert target == site / "smtlib" / f"{ident}.smt2"
                    assert target.read_text(encoding="utf-8").startswith("; expect: unsat\n(set-logic ")
                    if place.endswith("head") or place.endswith("cc-verdict"):  # on screen, beside the badge
                        box = link.bounding_box()
                        badge = link.evaluate_handle("a => a.previousElementSibling").as_element().bounding_box()
                        assert 0 <= box["x"] and box["x"] + box["width"] <= width, (name, ident, width, box)
                        assert abs(box["y"] + box["height"] / 2 - badge["y"] - badge["height"] / 2) < 6, \
                            (name, ident, width, box, badge)
        page.close()


def test_the_book_opens_with_a_title_page_and_contents_linked_to_each_notebook(tmp_path):
    from derive.site.book import book_html

    pages = []
    for stem, heading in (("01_a", "Step 1 · The first"), ("02_b", "Step 2 · <em>The</em> second &amp; last")):
        page = tmp_path / f"{stem}.html"
        page.write_text(f"<html><head><title>x</title></head><body><main><h1 id='h'>{heading}"
                        f"<a class='anchor-link' href='#h'>¶</a></h1><p>text of {stem}</p>"
                        f"<nav class=\"derive-pager\">next</nav></main></body></html>", encoding="utf-8")
        pages.append(page)
    book = book_html(tmp_path, pages, "A <title>")
    assert "<title>A &lt;title&gt;</title>" in book and 'class="derive-book-title">A &lt;title&gt;</h1>' in book
    contents = book[book.index("derive-book-contents"):book.index('id="book-01_a"')]
    assert '<a href="#book-01_a">Step 1 · The first</a>' in contents
    assert '<a href="#book-02_b">Step 2 · The second &amp; last</a>' in contents
    assert book.index("text of 01_a") < book.index("text of 02_b") and "derive-pager" not in book
    assert 'id="book-solutions"' not in book and "#book-solutions" not in book  # no exercises, no appendix


def test_the_book_prints_solutions_in_an_appendix_each_named_by_its_exercise(tmp_path):
    from derive.site.book import book_html

    body = ("<h1 id='h'>Step 6</h1><h3 id='e1'>Exercise 6.1<a class='anchor-link' href='#e1'>¶</a></h3>"
            "<p>question one</p><details class=\"derive-solution\"><summary>Solution</summary>"
            "<p>answer one</p><details class=\"derive-fold\"><summary>rows</summary>inner rows</details>"
            "<p>still answer one</p></details><p>between</p>"
            "<h3 id='e2'>Exercise 6.2</h3><details class=\"derive-solution\"><summary>Solution</summary>"
            "answer two</details>\n<details class=\"derive-solution\"><summary>Solution</summary>"
            "answer two, its second cell</details><p>after</p>")
    page = tmp_path / "06_l.html"
    page.write_text(f"<html><head><title>x</title></head><body><main>{body}</main></body></html>", encoding="utf-8")
    book = book_html(tmp_path, [page], "Book")
    notebook = book[book.index('id="book-06_l"'):book.index('id="book-solutions"')]
    appendix = book[book.index('id="book-solutions"'):]
    for text in ("question one", "between", "after", 'href="#book-solution-06_l-1"', 'href="#book-solution-06_l-2"'):
        assert text in notebook
    for text in ("answer one", "inner rows", "still answer one", "answer two"):
        assert text in appendix and text not in notebook
    assert appendix.index("Solution to exercise 6.1") < appendix.index("answer one") < appendix.index(
        "Solution to exercise 6.2") < appendix.index("answer two")
    assert "<summary>Solution</summary>" not in appendix  # printed open, without the bar
    # two cells of one exercise's solution: one section, one reference to it
    assert appendix.count("Solution to exercise 6.2") == 1 and "answer two, its second cell" in appendix
    assert notebook.count("Solution to exercise 6.2") == 1 and "book-solution-06_l-3" not in book
    assert '<a href="#book-solutions">Solutions</a>' in book[:book.index('id="book-06_l"')]



BEYOND_MAIN = """() => {
  const right = document.querySelector('main').getBoundingClientRect().right;
  return [...document.querySelectorAll('main mjx-container, main table')].filter(box => {
    const inner = box.tagName === 'MJX-CONTAINER' ? box.firstElementChild : box;
    return getComputedStyle(inner).display !== 'none' && inner.getBoundingClientRect().right > right + 1;
  }).length;
}"""


def test_the_book_fits_wide_math_to_the_page_and_prints_a_statement_too_wide_as_its_preview_or_text(browser, tiny_site):
    from derive.site import book

    site, _ = tiny_site
    head = re.search(r"<head>.*?</head>", (site / "01_tiny.html").read_text(encoding="utf-8"), re.S).group(0)
    terms = " + ".join(f"a_{{{k}}} b_{{{k}}}" for k in range(1, 40))
    body = (f"<h1>Wide</h1><p>$$x = {terms[:300]}$$</p>"  # somewhat too wide: scaled
            f'<div class="derive-claim-statement"><div class="derive-plain">the statement as text</div>'
            f'<div class="derive-tex">$$y = {terms} + {terms}$$</div></div>'  # far too wide: printed as text
            f'<div class="derive-claim-statement" id="folded"><div class="derive-plain">the folded one as text</div>'
            f'<details class="derive-tex derive-full"><summary>\\(\\displaystyle z = a_{{1}} b_{{1}} \\cdots\\) '
            f'<span class="derive-show">show in full</span></summary>$$z = {terms} + {terms}$$</details></div>'
            "<table><tr>" + "".join(f"<td style='white-space:nowrap'>cell {k} of a table too wide</td>"
                                    for k in range(12)) + "</tr></table>")
    page_file = site / "99_wide.html"
    page_file.write_text(f"<!DOCTYPE html><html>{head}<body class='jp-Notebook'><main>{body}</main></body></html>",
                         encoding="utf-8")
    printed = site / ".book-wide.html"
    printed.write_text(book._marked(book.book_html(site, [page_file], "Wide"))[0], encoding="utf-8")
    page = browser.new_page(viewport={"width": book._PRINTED_WIDTH, "height": 1000})
    page.set_default_timeout(PAGE_SECONDS * 1000)
    page.goto(printed.as_uri())
    page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise")
    page.evaluate("MathJax.startup.promise.then(() => true)")
    page.emulate_media(media="print")
    assert page.evaluate(BEYOND_MAIN) >= 3
    # the formula and the table scaled, the folded statement as its preview, the other statement as text
    assert page.evaluate(book._FIT) == [2, 1, 1]
    page.evaluate(book._FIT)
    assert page.evaluate(BEYOND_MAIN) == 0
    assert page.locator(".derive-plain").first.is_visible()
    assert not page.locator(".derive-claim-statement:not(#folded) .derive-tex").is_visible()
    folded = page.locator("#folded")
    assert folded.locator("summary mjx-container").is_visible()  # the preview, typeset
    assert "in full in the notebook" in folded.locator("summary").evaluate("e => getComputedStyle(e, '::after').content")
    assert not folded.locator("details > mjx-container").is_visible()  # not the whole, cut at the margin
    assert not folded.locator(".derive-plain").is_visible() and not folded.locator(".derive-show").is_visible()
    page.close()
    page_file.unlink()
    printed.unlink()


def _book_folder(tmp_path, site, count):
    """A folder beside which a book of ``count`` copies of the tiny site's page is printed (its assets linked)."""
    for name in ("static", "vendor", "figures"):
        if (site / name).exists():
            (tmp_path / name).symlink_to(site / name)
    text = (site / "01_tiny.html").read_text(encoding="utf-8")
    pages = []
    for k in range(1, count + 1):
        page = tmp_path / f"0{k}_tiny.html"
        page.write_text(text.replace("<h1", f"<h1 data-copy='{k}'", 1), encoding="utf-8")
        pages.append(page)
    return pages


def _pdf_text(path):
    from pypdf import PdfReader

    return [page.extract_text() for page in PdfReader(path).pages]


@pytest.mark.skipif(not CHROMIUM.exists(), reason="no Chromium to print with")
def test_the_book_printed_as_its_pages_are_written_is_the_book_as_one_document(browser, tiny_site, tmp_path):
    """The printer puts the book together in the browser page by page, typesetting each as it comes: what it prints
    is what the one document of :func:`book_html` prints, fitted the same way, page for page."""
    from derive.site import book

    site, _ = tiny_site
    pages = _book_folder(tmp_path, site, 3)
    printer = book.Printer(tmp_path, "A book")
    for page in pages:
        printer.add(page)
    done, why = printer.finish()
    assert (done, why) == (tmp_path / book.PDF, "")
    assert not (tmp_path / ".book.html").exists()
    together = _pdf_text(done)

    whole = tmp_path / ".whole.html"
    whole.write_text(book._marked(book.book_html(tmp_path, pages, "A book"))[0], encoding="utf-8")
    page = browser.new_page(viewport={"width": book._PRINTED_WIDTH, "height": 1400})
    page.set_default_timeout(PAGE_SECONDS * 1000)
    page.emulate_media(media="print")
    page.goto(whole.as_uri())
    page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise")
    page.evaluate("MathJax.startup.promise.then(() => true)")
    page.evaluate(book._FIT)
    page.evaluate(book._FIT)
    page.pdf(path=str(tmp_path / "whole.pdf"), **book.PRINTED)
    page.close()
    assert together == _pdf_text(tmp_path / "whole.pdf")
    assert "A book" in together[0] and len(together) >= 2 + len(pages)  # the title, the contents, each page


@pytest.mark.skipif(not CHROMIUM.exists(), reason="no Chromium to print with")
def test_a_printer_stopped_prints_nothing_and_an_error_of_its_own_reaches_the_build(tiny_site, tmp_path, monkeypatch):
    from derive.site import book

    site, _ = tiny_site
    pages = _book_folder(tmp_path, site, 2)
    printer = book.Printer(tmp_path, "A book")
    printer.add(pages[0])
    printer.stop()  # the site failed part way: nothing printed, Chromium closed
    assert not (tmp_path / book.PDF).exists() and not (tmp_path / ".book.html").exists()
    assert not printer._thread.is_alive()

    assert book.Printer(tmp_path, "A book").finish() == (None, "no notebook pages to print")

    with monkeypatch.context() as m:
        m.setenv("DERIVE_CHROMIUM", "/bin/true")  # not a browser: no book, one line why, the build goes on
        printer = book.Printer(tmp_path, "A book")
        printer.add(pages[0])
        done, why = printer.finish()
    assert done is None and why.startswith("Chromium could not print (") and "\n" not in why

    headless = tmp_path / "09_bare.html"
    headless.write_text("<html><body><main><h1>no head</h1></main></body></html>", encoding="utf-8")
    printer = book.Printer(tmp_path, "A book")
    printer.add(headless)
    with pytest.raises(ValueError, match="09_bare.html has no <head>"):
        printer.finish()


def test_math_is_typeset_as_it_scrolls_into_view(browser, tiny_site):
    site, _ = tiny_site
    page = browser.new_page(viewport={"width": 390, "height": 500})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(PAGE_SECONDS * 1000)
    page.goto((site / "claims.html").as_uri())
    page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise")
    page.evaluate("MathJax.startup.promise.then(() => true)")
    assert page.evaluate("window.deriveTypesetAll") is False
    page.locator("details.claims-step-body > summary").first.click()  # a step's claims start folded: open them
    last = page.locator("article[id='claim-tiny.top'] .cc-statement mjx-container").last
    last.scroll_into_view_if_needed()
    page.wait_for_function("""() => { const m = [...document.querySelectorAll("article[id='claim-tiny.top'] .cc-statement mjx-container")];
      return m.length > 0 && m.every(e => !e.hasAttribute('mjx-lazy') && e.getBoundingClientRect().width > 0); }""")
    assert page.locator("mjx-merror").count() == 0 and errors == []
    page.close()


def test_typeset_all_at_once_the_fonts_arrive_before_the_math(browser, tiny_site):
    """With every expression typeset at once (the book, ``?typeset=all``), no MathJax font arrives after math is on
    the page: each arrival would lay the whole page out again (mathjax-config.js, ``deriveFontsFirst``)."""
    site, _ = tiny_site
    page = browser.new_page(viewport={"width": 390, "height": 500})
    page.set_default_timeout(PAGE_SECONDS * 1000)
    page.add_init_script("""new MutationObserver((records, observer) => {
      if (!document.querySelector('mjx-container')) return;
      window.deriveFontsAtFirstMath = [...document.fonts].filter(f => /MJX/.test(f.family)).map(f => f.status);
      observer.disconnect(); }).observe(document, { childList: true, subtree: true });""")
    page.goto((site / "claims.html").as_uri() + ALL)
    page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise")
    page.evaluate("MathJax.startup.promise.then(() => true)")
    faces = page.evaluate("window.deriveFontsAtFirstMath")
    assert faces and set(faces) == {"loaded"}, f"MathJax's fonts when the first math was on the page: {faces}"
    page.close()


_HOSTILE = [r"\href{javascript:alert(1)}{x}", r"\url{javascript:alert(2)}", r"\href{data:text/html,hello}{y}",
            r"\class{x}{\href{javascript:alert(3)}{z}}"]


@pytest.mark.parametrize("tex", _HOSTILE, ids=["href", "url", "data_url", "nested_in_class"])
def test_mathjax_of_the_site_leaves_no_javascript_link(tmp_path, mathjax, browser, tex):
    """A caption, a title or a symbol's name in TeX typeset by the site's MathJax (its config, ui/safe) links to
    no javascript: or data: address; one small page, not the site."""
    from derive.site.vendor import copy_mathjax
    static = Path(__import__("derive.site", fromlist=["x"]).__file__).parent / "static"
    copy_mathjax(mathjax, tmp_path / "vendor" / "mathjax")
    shutil.copy2(static / "mathjax-config.js", tmp_path / "mathjax-config.js")
    body = f"<h1>A title ${tex}$</h1><p>A caption: $${tex}$$</p><p class='sym'>\\({tex}\\)</p>"
    (tmp_path / "page.html").write_text(
        "<!doctype html><html><head><meta charset='utf-8'><script>window.deriveTypesetAll = true;</script>"
        "<script src='mathjax-config.js'></script>"
        "<script src='vendor/mathjax/tex-chtml-full.js'></script></head>"
        f"<body>{body}</body></html>")
    page = browser.new_page()
    try:
        page.goto((tmp_path / "page.html").as_uri())
        page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=30000)
        page.evaluate("MathJax.startup.promise.then(() => true)")
        assert page.locator("mjx-container").count() >= 3
        links = page.evaluate("[...document.querySelectorAll('[href]')].map(e => e.getAttribute('href'))")
        assert not [u for u in links if re.match(r"\s*(javascript|data):", u or "", re.I)], links
    finally:
        page.close()


def test_what_a_closed_fold_hides_is_marked_as_scrolling_when_it_opens(tmp_path, mathjax, browser):
    """A box wider than the phone inside a closed fold is not read while the fold is closed (reading its width would
    lay the fold out alone); opened, it scrolls and says so, as a box outside any fold does on loading."""
    from derive.site.vendor import copy_mathjax
    static = Path(__import__("derive.site", fromlist=["x"]).__file__).parent / "static"
    copy_mathjax(mathjax, tmp_path / "vendor" / "mathjax")
    for name in ("mathjax-config.js", "folded.js", "site.js", "site.css"):
        shutil.copy2(static / name, tmp_path / name)
    wide = "$$" + " + ".join(f"x_{{{k}}}^2" for k in range(60)) + "$$"
    (tmp_path / "page.html").write_text(
        "<!doctype html><html><head><meta charset='utf-8'><link rel='stylesheet' href='site.css'>"
        "<script src='mathjax-config.js'></script><script src='folded.js'></script>"
        "<script src='vendor/mathjax/tex-chtml-full.js'></script></head>"
        f"<body><main><p id='open'>{wide}</p><details id='fold'><summary>more</summary><p>{wide}</p></details>"
        f"<details id='titled'><summary><div class='derive-scroll'>{wide}</div></summary><p>{wide}</p></details></main>"
        "<script src='site.js'></script></body></html>")
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto((tmp_path / "page.html").as_uri() + "?typeset=all")
        page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=30000)
        page.evaluate("MathJax.startup.promise.then(() => true)")
        page.wait_for_function("document.querySelectorAll('#open .derive-scrolls').length === 1")
        # what a closed fold's summary shows is marked on loading, what it hides is not
        assert page.evaluate("document.querySelectorAll('#titled summary .derive-scrolls').length") == 1
        assert page.evaluate("document.querySelectorAll('#titled > p .derive-scrolls').length") == 0
        marked = "[...document.querySelectorAll('#fold mjx-container.derive-scrolls')].length"
        assert page.evaluate(marked) == 0
        page.locator("#fold > summary").click()
        page.wait_for_function(f"{marked} === 1")
        assert page.evaluate("document.querySelectorAll('#fold .derive-scroll-hint').length") == 1
    finally:
        page.close()


def test_claim_titles_are_plain_text_never_raw_tex():
    """A title is shown as text (escaped, never typeset): LaTeX in it would reach the reader raw."""
    paths = find_notebooks(ROOT / "notebooks") if (ROOT / "notebooks").is_dir() else []
    if not paths:
        pytest.skip("no notebooks")
    raw = [(c["id"], c["title"]) for run in runs_from_files(paths) for c in run.claims
           if re.search(r"\\[A-Za-z]+|\^[-{]|_\{", c.get("title") or "")]
    assert raw == [], raw[:5]


def test_the_page_exporter_writes_what_nbconvert_writes_without_its_last_pass():
    """The site's exporter skips nbconvert's last pass through BeautifulSoup and adds what it adds on the text: the
    two pages are one document (a figure without alt text and every tab stop included)."""
    from bs4 import BeautifulSoup
    from nbconvert import HTMLExporter

    png = base64.b64encode(bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                                          "1f15c4890000000d49444154789c63f8cf00000301010018dd8db00000"
                                          "000049454e44ae426082")).decode()
    text = new_markdown_cell(f"# A page\n\nWith $x^2$ and ![a picture](data:image/png;base64,{png})")
    figure = new_code_cell("show()", outputs=[nbformat.v4.new_output(
        "display_data", data={"image/png": png, "text/plain": "<Figure>"})])
    result = new_code_cell("1 + 1", outputs=[nbformat.v4.new_output(
        "execute_result", data={"text/plain": "2"}, execution_count=1)])
    nb = new_notebook(cells=[text, figure, result])
    source = ROOT / "notebooks" / "10_numeric_crosscheck.ipynb"  # code, Markdown, math, tables and figures
    options = dict(template_name="derive_page", extra_template_basedirs=[str(pages.TEMPLATES)],
                   exclude_input_prompt=True, exclude_output_prompt=True)
    notebooks = [nb] + ([nbformat.read(source, as_version=4)] if source.exists() else [])
    written = [(pages.exporter().from_notebook_node(n)[0], HTMLExporter(**options).from_notebook_node(n)[0])
               for n in notebooks]
    assert 'alt="No description has been provided for this image"' in written[0][1]
    for ours, theirs in written:
        assert 'tabindex="0"' in theirs
        assert str(BeautifulSoup(ours, "html.parser")) == theirs


def test_a_notebook_through_plain_nbconvert_shows_its_claims_as_text_not_raw_tex(browser, tmp_path):
    """Without MathJax (plain ``jupyter nbconvert --to html``, offline), a claim shows its Unicode text."""
    from nbconvert import HTMLExporter

    source = ROOT / "notebooks" / "01_key_value_view.ipynb"
    if not source.exists():
        pytest.skip("no notebook 01")
    body, _ = HTMLExporter().from_notebook_node(nbformat.read(source, as_version=4))
    (tmp_path / "01.html").write_text(body, encoding="utf-8")
    page = browser.new_page()
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort())
    try:
        page.goto((tmp_path / "01.html").as_uri())
        shown = page.evaluate("""() => [...document.querySelectorAll('.derive-claim-statement')].map(s => ({
          plain: [...s.querySelectorAll('.derive-plain')].filter(e => e.getClientRects().length > 0).map(e => e.innerText),
          tex: [...s.querySelectorAll('.derive-tex')].filter(e => e.getClientRects().length > 0).length}))""")
    finally:
        page.close()
    assert shown, "no claims on the page"
    assert all(len(s["plain"]) == 1 and s["tex"] == 0 for s in shown), shown[:3]
    assert not [s for s in shown if "$" in s["plain"][0] or "\\" in s["plain"][0]], shown[:3]
