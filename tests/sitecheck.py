"""What the browser tests of the site check on its pages: helpers of ``test_site.py``, ``test_site_pages.py``
and ``test_site_claims_page.py``.

A page is opened in headless Chromium at 390 and 1280 px with every expression typeset (:func:`check_page`): it must
typeset all its math, log no error, request nothing outside file://, load every image, lay out within the page,
and show derive's tables as their data says; its links must reach a file of the site and an anchor there
(:func:`check_links`, read from the pages' HTML, which a browser test shows to hold every id of the page).
"""
import fcntl
import html
import os
import re
import shutil
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlparse

import nbformat
import pytest

from derive.classifier.classification import MIME as CLASSIFICATION_MIME
from derive.present.audit import AUDIT_MIME
from derive.present.datatable import DATA_MIME
from derive.present.family import FAMILY_MIME
from derive.present.render import TABLE_MIME
from derive.present.tables import SUITE_MIME
from derive.run.runner import find_notebooks
from derive.site import MARKER, build, pages, runs_from_files, statement_markup
from derive.site.vendor import find_mathjax

ROOT = Path(__file__).resolve().parent.parent

# what nbconvert's HTML exporter shows of an output: the first of these it holds
PRIORITY = ["application/vnd.jupyter.widget-view+json", "application/javascript", "text/html", "text/markdown",
            "image/svg+xml", "text/vnd.mermaid", "text/latex", "image/png", "image/jpeg", "text/plain"]
MATH = re.compile(r"(?<!\\)\$\$.+?(?<!\\)\$\$|\\\[.+?\\\]|\\\(.+?\\\)|\\begin\{([a-z]+\*?)\}.+?\\end\{\1\}"
                  r"|(?<![\\$])\$[^$]+?(?<![\\$])\$", re.S)


def count_math(text: str) -> int:
    """Pieces of math MathJax should typeset in Markdown or HTML: code spans, blocks and <pre> left out."""
    text = re.sub(r"```.*?```|~~~.*?~~~", "", text, flags=re.S)
    text = re.sub(r"(`+).+?\1", "", text, flags=re.S)
    text = re.sub(r"<(pre|code|script|style)\b.*?</\1>", "", text, flags=re.S)
    return len(MATH.findall(text))


def expected_math(nb) -> int:
    """Math in a notebook's Markdown cells and in the outputs the page shows."""
    n = 0
    for cell in nb.cells:
        if cell.cell_type == "markdown" and "boilerplate" not in cell.metadata.get("tags", []):
            n += count_math(cell.source)
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            mime = next((m for m in PRIORITY if m in data), None)
            if mime in ("text/markdown", "text/latex", "text/html"):
                n += count_math(data[mime])
    return n


def need(path: Path, what: str):
    if not path.exists():
        message = f"{what} is missing at {path}: `make test` installs it"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def mathjax_or_skip() -> Path:
    """MathJax 3 as ``make test`` fetches it (missing: a skip, or a failure under CI)."""
    try:
        return find_mathjax()
    except FileNotFoundError as exc:
        need(Path("/nonexistent"), str(exc))


def build_suite_site(tmp_path_factory, mathjax) -> tuple[Path, dict]:
    """The site of the suite's notebooks as committed (built from a copy, so that the pages and the counts
    compare the same files), and the notebooks by stem. Built once per run: the workers of ``pytest -n`` share
    it (the first to ask builds it under a lock, the others wait and read it; no test writes to it)."""
    base = tmp_path_factory.getbasetemp()
    here = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "suite-site"
    here.mkdir(exist_ok=True)
    folder, out = here / "notebooks", here / "site"
    with open(here / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (here / "built").exists():  # (or an earlier build failed part way: started again)
            shutil.rmtree(folder, ignore_errors=True)
            shutil.rmtree(out, ignore_errors=True)
            if (ROOT / "notebooks").is_dir():
                shutil.copytree(ROOT / "notebooks", folder, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
            paths = find_notebooks(folder) if folder.is_dir() else []
            build(runs_from_files(paths), out, mathjax=mathjax, pdf=False)  # the PDF: the tiny site's build prints it
            (here / "built").touch()
    paths = find_notebooks(folder) if folder.is_dir() else []
    return out, {p.stem: p for p in paths}


def page_names(site: Path, sources: dict) -> list[str]:
    """The pages of a site built from ``sources``: the index, the claims page, one per notebook (the try page
    has tests of its own); asserts that the site holds exactly these."""
    assert (site / MARKER).is_file()
    names = ["index.html", "claims.html"] + [pages.page_name(stem) for stem in sources]
    assert sorted(p.name for p in site.glob("*.html") if p.name != "try.html") == sorted(names)
    return names


SHOWN_TEXT = """() => {
  const skip = new Set(["PRE", "CODE", "SCRIPT", "STYLE", "TEXTAREA", "MJX-CONTAINER", "SVG"]);
  const left = [];
  const walk = (node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === 3) { if (child.textContent.trim()) left.push(child.textContent); }
      else if (child.nodeType === 1 && !skip.has(child.tagName.toUpperCase())
               && getComputedStyle(child).display !== 'none') walk(child);  // not shown: a viewer's fallback
    }
  };
  walk(document.body);
  return left;
}"""

VISIBLE_TEXT = """() => {
  const skip = new Set(["PRE", "CODE", "SCRIPT", "STYLE", "TEXTAREA", "MJX-CONTAINER", "MJX-ASSISTIVE-MML"]);
  const left = [];
  const walk = (node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === 3) { if (/\\$|\\\\\\(|\\\\\\[/.test(child.textContent)) left.push(child.textContent.trim().slice(0, 80)); }
      else if (child.nodeType === 1 && !skip.has(child.tagName)) walk(child);
    }
  };
  walk(document.body);
  return left;
}"""


TABLES = """() => [...document.querySelectorAll('table')].filter(t => !t.closest('svg')).map(t => ({
  kind: t.getAttribute('data-derive-table'),
  head: [...t.querySelectorAll(':scope > thead > tr > th')].map(th => th.textContent.trim()),
  rows: [...t.querySelectorAll(':scope > tbody > tr')].map(tr => ({
    attrs: Object.fromEntries([...tr.attributes].map(a => [a.name, a.value])),
    cells: [...tr.children].map(td => td.textContent.trim()),
    marks: [...tr.querySelectorAll('a.derive-mark')].map(a => a.getAttribute('data-id')),
  })),
}))"""

# text the reader sees that is Markdown nobody rendered: a table's rule or row, or a heading's hashes
RAW_MARKDOWN = re.compile(r"\|\s*:?-{3,}|^\s*\|[^|\n]*\|[^|\n]*\|.*$|^#{1,6} ", re.M)


def verdict_of(cell: str) -> str:
    """The verdict a table cell opens with (its badge: a symbol, then the verdict)."""
    m = re.match(r"\S+\s+(proved|refuted|checked|unproven)", cell)
    return m.group(1) if m else cell


def derive_tables(nb) -> list[tuple[str, dict]]:
    """The tables derive renders in a notebook's outputs, in order, with the data each was rendered from."""
    found = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if "text/html" not in data:
                continue
            for mime, kind in ((TABLE_MIME, "claims"), (CLASSIFICATION_MIME, "classification"), (SUITE_MIME, "suite"),
                               (AUDIT_MIME, "audit"), (DATA_MIME, "data"), (FAMILY_MIME, "family")):
                if mime in data:
                    found.append((kind, data[mime]))
    return found


def check_tables(name: str, shown: list[dict], nb) -> None:
    """Every table of a page has as many cells in each row as headings; derive's tables match their data."""
    for table in shown:
        assert table["head"], f"{name}: a table without headings"
        for row in table["rows"]:
            assert len(row["cells"]) == len(table["head"]), f"{name}: a row of {len(row['cells'])} cells under " \
                f"{len(table['head'])} headings: {row['cells'][:3]}"
    ours = [t for t in shown if t["kind"]]
    expected = derive_tables(nb)
    assert [t["kind"] for t in ours] == [kind for kind, _ in expected], name
    for table, (kind, data) in zip(ours, expected):
        rows = table["rows"]
        if kind == "claims":
            records = data["claims"]
            assert table["head"] == ["claim", "verdict", "how", "uses"], name
            assert [r["attrs"]["data-id"] for r in rows] == [c["id"] for c in records], name
            for row, c in zip(rows, records):
                assert row["cells"][0] == c["id"], name
                assert verdict_of(row["cells"][1]) == c["verdict"], f"{name}: {c['id']}"
                assert row["cells"][3] == (", ".join(c["uses"]) or "—"), f"{name}: {c['id']}"
        elif kind == "classification" and table["head"][0].startswith("symmetry"):  # one activation
            (want,) = data["rows"]
            assert [r["attrs"]["data-symmetry"] for r in rows] == data["symmetries"], name
            assert [verdict_of(r["cells"][1]) for r in rows] == [want["verdicts"][k] for k in data["symmetries"]], name
        elif kind == "classification":  # the atlas: one row per activation, its label first
            symmetries = data["symmetries"]
            assert len(rows) == len(data["rows"]), name
            for row, want in zip(rows, data["rows"]):
                verdict_cells = row["cells"][-len(symmetries):]
                assert [verdict_of(c) for c in verdict_cells] == [want["verdicts"][k] for k in symmetries], \
                    f"{name}: {want['label']}"
                assert row["cells"][0] == want["label"], name
        elif kind == "data":  # derive.table: every heading and cell as the data says (math typeset, so compared
            # only where the cell holds none)
            assert len(table["head"]) == len(data["head"]) and len(rows) == len(data["rows"]), name
            for shown_cells, want in zip([table["head"]] + [r["cells"] for r in rows], [data["head"]] + data["rows"]):
                for got, cell in zip(shown_cells, want):
                    if "$" not in cell:
                        assert got == cell, f"{name}: a table cell shows {got!r}, its data says {cell!r}"
        elif kind == "family":  # one row per claim of the family: its case, identifier and verdict
            assert [r["attrs"]["data-id"] for r in rows] == [c["id"] for c in data["records"]], name
            for row, c, label in zip(rows, data["records"], data["labels"]):
                assert row["cells"][0].startswith(label) and c["id"] in row["cells"][0], f"{name}: {c['id']}"
                assert verdict_of(row["cells"][2]) == c["verdict"], f"{name}: {c['id']}"
        elif kind == "audit":  # one row per docs/paper.md item, each cell as the audit computed it
            assert [r["attrs"]["data-item"] for r in rows] == [cells[0] for cells in data], name
            assert [r["cells"] for r in rows] == data, name
        else:
            by_notebook = {}
            for notebook, ident, verdict in data["rows"]:
                by_notebook.setdefault(notebook, []).append(ident)
            assert [r["attrs"]["data-notebook"] for r in rows] == list(by_notebook), name
            assert [r["marks"] for r in rows] == list(by_notebook.values()), name


LAYOUT = """() => {
  const wide = (el) => el.scrollWidth > el.clientWidth + 1;
  // a closed fold first: reading a box's geometry inside one would lay that fold out alone (3 s on the claims page)
  const shown = (el) => !el.closest('details:not([open])') && el.getClientRects().length > 0;
  const boxes = [...document.querySelectorAll('mjx-container[display="true"], .cc-piece, .jp-OutputArea-output, .derive-scroll')];
  const rows = [...document.querySelectorAll('table.derive-table-claims > tbody > tr')].filter(shown);
  const cards = [...document.querySelectorAll('table[data-layout="cards"] td[data-head] .derive-badge')].filter(shown);
  return {
    page_overflow: document.documentElement.scrollWidth - window.innerWidth,
    clipped: boxes.filter(e => shown(e) && wide(e) && !e.classList.contains('derive-scrolls'))
                  .map(e => e.className + ': ' + e.textContent.slice(0, 50)),
    verdicts_off_screen: rows.filter(tr => { const td = tr.children[1]; const r = td.getBoundingClientRect();
                                             return r.width === 0 || r.right > window.innerWidth + 1; }).length,
    card_verdicts: cards.length,
    card_verdicts_off_screen: cards.filter(b => b.getBoundingClientRect().right > window.innerWidth + 1).length,
    pager_cut: [...document.querySelectorAll('nav.derive-pager a, nav.derive-nav a')].filter(wide).map(a => a.textContent),
    // a folded statement whose first line starts below the fold's marker, which then stands alone on its line
    marker_alone: [...document.querySelectorAll('details.derive-full > summary')]
      .filter(s => !s.parentElement.parentElement.closest('details:not([open])') && s.getClientRects().length > 0)
      .filter(s => { const m = s.querySelector('mjx-math, .cc-piece');  // the math itself: an inline box is shorter
                     return m && m.getBoundingClientRect().top > s.getBoundingClientRect().top + 8; })
      .map(s => (s.closest('[id]') || {}).id),
    toc: [...document.querySelectorAll('nav.derive-toc a')].map(a => a.getAttribute('href')),
    search: document.querySelectorAll('nav.derive-nav input.derive-search-box').length,
    index_entries: (window.DERIVE_SEARCH || []).length,
  };
}"""


#: the longest a page may take to load and typeset before the test calls it broken
PAGE_SECONDS = 120
#: a page's address with every expression typeset at once (a reader's browser typesets math as it scrolls in)
ALL = "?typeset=all"


def open_page(browser, url: str, width: int = 1280) -> dict:
    """Open one page at a viewport ``width``, wait for MathJax, and gather what the checks need (:func:`gather`)."""
    page = browser.new_page(viewport={"width": width, "height": 900 if width > 500 else 844})
    problems = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"failed request {r.url}: {r.failure}"))
    page.on("request", lambda r: None if r.url.startswith(("file://", "data:"))
            else problems.append(f"request leaving file:// to {r.url}"))
    page.set_default_timeout(PAGE_SECONDS * 1000)  # all at once, the claims page typesets in about 20 s on 2 cores
    page.goto(url)
    page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise")
    page.evaluate("MathJax.startup.promise.then(() => true)")
    return gather(page, problems)


def resized(found: dict, width: int) -> dict:
    """The page ``found`` shows, widened or narrowed to ``width`` (as a turned tablet is), gathered again once the
    page's script has answered the resize. Typeset math does not depend on the width (MathJax 3 breaks no line)
    and the script's marks follow the width, so this is the page as loaded at ``width``:
    ``test_site_pages.py::test_a_page_reads_the_same_loaded_at_a_width_or_resized_to_it`` holds that."""
    page = found["page"]
    page.set_viewport_size({"width": width, "height": 900 if width > 500 else 844})
    # the script re-marks what scrolls on the resize itself, and again 150 and 700 ms later for math typeset since
    # (none here: every expression was typeset on loading), so the next frame shows the page at its new width
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    page.wait_for_timeout(200)
    return gather(page, found["problems"])


def gather(page, problems: list) -> dict:
    """What the checks read off an open page whose math is typeset."""
    found = page.evaluate("""() => ({
      math: [...document.querySelectorAll('mjx-container')].filter(e => !e.closest('nav')).length,
      unread: [...document.querySelectorAll('mjx-container')].filter(e => !e.querySelector('mjx-assistive-mml')).length,
      errors: [...document.querySelectorAll('mjx-merror')].map(e => e.textContent),
      images: [...document.images].map(i => [i.currentSrc.slice(0, 60), i.complete && i.naturalWidth > 0]),
      fonts: [...document.fonts].filter(f => f.status === 'error').map(f => f.family),
      ids: [...document.querySelectorAll('[id]')].map(e => e.id),
      links: [...document.querySelectorAll('a[href]')].map(a => new URL(a.getAttribute('href'), document.baseURI).href),
    })""")
    found["untypeset"] = page.evaluate(VISIBLE_TEXT)
    found["tables"] = page.evaluate(TABLES)
    found["raw_markdown"] = [t for t in page.evaluate(SHOWN_TEXT) if RAW_MARKDOWN.search(t)]
    page.wait_for_timeout(50)  # the script marks what scrolls once MathJax is done
    found["layout"] = page.evaluate(LAYOUT)
    found["height"] = page.evaluate("document.documentElement.scrollHeight")
    found["problems"] = problems
    found["page"] = page
    return found


def check_layout(name: str, width: int, layout: dict) -> None:
    """Nothing wider than the page; what is wider than its box scrolls with a cue; verdicts and links readable."""
    where = f"{name} at {width} px"
    assert layout["page_overflow"] <= 0, f"{where}: the page scrolls sideways by {layout['page_overflow']} px"
    assert layout["clipped"] == [], f"{where}: cut off without a scroll cue"
    assert layout["verdicts_off_screen"] == 0, f"{where}: claim rows whose verdict is off screen"
    assert layout["card_verdicts_off_screen"] == 0, f"{where}: verdicts of an activation table off screen"
    assert layout["pager_cut"] == [], f"{where}: navigation links cut short"
    assert layout["marker_alone"] == [], f"{where}: a fold's marker alone on its line: {layout['marker_alone'][:5]}"
    assert layout["toc"], f"{where}: no contents"
    assert layout["search"] == 1 and layout["index_entries"] > 0, f"{where}: no search"


def check_page(browser, site: Path, name: str, source: Path | None = None, evaluate: str | None = None) -> dict:
    """Open page ``name`` of ``site`` at 390 px, every expression typeset at once (as a reader sees it after
    scrolling the whole page), then widen it to 1280 px (:func:`resized`: the page is typeset once); assert what
    every page must pass, and for a notebook's page (its ``source``) its math and tables; return what it showed at
    1280 px (and what the script ``evaluate`` gave there, as ``evaluated``). Its page is closed."""
    phone = open_page(browser, (site / name).as_uri() + ALL, 390)
    check_layout(name, 390, phone["layout"])
    assert phone["untypeset"] == [] and phone["problems"] == [], name
    got = resized(phone, 1280)
    if evaluate:
        got["evaluated"] = got["page"].evaluate(evaluate)
    got["page"].close()
    check_layout(name, 1280, got["layout"])
    got["phone_card_verdicts"] = phone["layout"]["card_verdicts"]
    assert got["problems"] == [], name
    assert got["errors"] == [], f"{name}: MathJax errors"
    assert got["untypeset"] == [], f"{name}: math left untypeset"
    assert got["unread"] == 0, f"{name}: math without the hidden MathML a screen reader reads"
    assert got["raw_markdown"] == [], f"{name}: Markdown shown as text"
    assert got["fonts"] == [], f"{name}: fonts that failed to load"
    assert all(ok for _, ok in got["images"]), f"{name}: images that did not load {got['images']}"
    missing = static_ids(site / name) - set(got["ids"])
    assert not missing, f"{name}: ids of its HTML the browser does not have: {sorted(missing)[:5]}"
    if source is not None:
        nb = nbformat.read(source, as_version=4)
        assert got["math"] == expected_math(nb), name
        check_tables(name, got["tables"], nb)
    return got


_ID = re.compile(r"""\sid=(["'])(.*?)\1""", re.S)


def static_ids(path: Path) -> set[str]:
    """The ids a page's HTML gives its elements (its inline SVG's included)."""
    return {html.unescape(m.group(2)) for m in _ID.finditer(path.read_text(encoding="utf-8"))}


def check_links(site: Path, name: str, links: list[str], names: list[str]) -> None:
    """Every link of page ``name`` to a file reaches a file; one with a fragment reaches a page of the site
    (``names``) and an id of that page."""
    ids = {}
    for link in links:
        url, fragment = urldefrag(link)
        if not url.startswith("file://"):
            continue
        target = Path(unquote(urlparse(url).path))
        assert target.is_file(), f"{name}: broken link {link}"
        if fragment:
            assert target.name in names and target.parent == site, f"{name}: link to a page outside the site {link}"
            if target.name not in ids:
                ids[target.name] = static_ids(target)
            # a browser tries the fragment as written, then decoded
            assert fragment in ids[target.name] or unquote(fragment) in ids[target.name], f"{name}: no anchor for {link}"


def check_site(browser, site: Path, sources: dict) -> dict:
    """Every page of ``site`` checked (:func:`check_page`, :func:`check_links`); what each showed at 1280 px."""
    names = page_names(site, sources)
    by_page = {pages.page_name(stem): source for stem, source in sources.items()}
    seen = {name: check_page(browser, site, name, by_page.get(name)) for name in names}
    for name, got in seen.items():
        check_links(site, name, got["links"], names)
    return seen


def index_math(sources: dict) -> tuple[int, int]:
    """Math on the index (the notebooks' summaries) and on the claims page (statements, assumptions, titles)."""
    index = claims = 0
    for path in sources.values():
        nb = nbformat.read(path, as_version=4)
        index += count_math(pages.summary_of(nb))
        for claim in runs_from_files([path])[0].claims:
            claims += str(statement_markup(claim.get("statement", ""))).count("\\(") + bool(claim.get("assume_tex"))
            claims += count_math(claim.get("title") or "")
            claims += bool(claim.get("residual_tex"))  # a refutation's residual, typeset in its "how"
    return index, claims


#: at most this share of the claims page's statements may be wider than their column at 1280 px
WIDE_SHARE = 0.02
#: per claim card: is its statement (the box, a piece, or a formula that scrolls; folded parts left out) wider
#: than its column? The same count as tools/statement_widths.py
STATEMENT_WIDTHS = """() => {
  const shown = (el) => !el.closest('details:not([open])') && el.getClientRects().length > 0;  // as in LAYOUT
  const wide = (el) => el.scrollWidth > el.clientWidth + 1;
  return [...document.querySelectorAll('article.claim-card')].map(card => {
    const st = card.querySelector('.cc-statement');
    const boxes = [...st.querySelectorAll('.cc-piece, mjx-container')].filter(e => getComputedStyle(e).display !== 'inline');
    return {id: card.dataset.id, wide: [st, ...boxes].filter(shown).some(wide),
            folded: [...st.querySelectorAll('details.derive-full')].map(d => d.querySelectorAll('mjx-container').length)};
  });
}"""
