"""The suite's own site in headless Chromium, page by page (:mod:`sitecheck`): the index and every notebook's page,
each at 390 and 1280 px with every expression typeset. The claims page, the longest to typeset, has a file of its
own (``test_site_claims_page.py``), so that the two run side by side."""
import pytest

from derive.run.runner import find_notebooks
from derive.site import pages
from sitecheck import (ALL, ROOT, build_suite_site, check_links, check_page, index_math, mathjax_or_skip, open_page,
                       page_names, resized)

#: no wall: a notebook's page, every expression typeset, its long tables and helper code folded, is at most this
#: tall at 1280 px
TALLEST = 25_000


@pytest.fixture(scope="module")
def suite_site(tmp_path_factory):
    return build_suite_site(tmp_path_factory, mathjax_or_skip())


def _pages() -> list[str]:
    """The index and the notebooks' pages, by name (the claims page: test_site_claims_page.py)."""
    folder = ROOT / "notebooks"
    return ["index.html"] + [pages.page_name(p.stem) for p in (find_notebooks(folder) if folder.is_dir() else [])]


@pytest.mark.parametrize("name", _pages())
def test_a_page_of_the_suite_reads_in_a_browser(browser, suite_site, name):
    site, sources = suite_site
    names = page_names(site, sources)
    source = {pages.page_name(stem): path for stem, path in sources.items()}.get(name)
    got = check_page(browser, site, name, source)
    check_links(site, name, got["links"], names)
    if name == "index.html":
        assert got["math"] == index_math(sources)[0]
        assert got["ids"].count("blueprint") == 1
    else:
        assert got["height"] <= TALLEST, f"{name} is {got['height']} px tall at 1280 px"
    if name == pages.page_name("08_activation_atlas"):  # on a phone a card per activation, its verdicts on screen
        assert got["phone_card_verdicts"] >= 3 * 13


#: what a reader sees of a page besides what :func:`sitecheck.gather` reads: the marks and hints of what scrolls,
#: and whether the contents are open
MARKS = """() => ({
  scrolls: [...document.querySelectorAll('.derive-scrolls')].map(e => e.className),
  hints: [...document.querySelectorAll('.derive-scroll-hint')]
    .map(e => e.previousElementSibling && e.previousElementSibling.className),
  contents: [...document.querySelectorAll('nav.derive-toc details')].map(d => d.open),
})"""


def test_a_page_reads_the_same_loaded_at_a_width_or_resized_to_it(browser, suite_site):
    """The check of each page loads it once and widens it (:func:`sitecheck.check_page`): that is the page as a
    reader loading it at the wider width sees it, and the other way round (a page with display math wider than a
    phone, so that what scrolls differs between the widths). Two pages, each read as loaded, then resized to the
    other's width and read again."""
    site, sources = suite_site
    name = pages.page_name("04_rank1_reduction")
    if "04_rank1_reduction" not in sources:
        pytest.skip("no such notebook")

    def seen(got):
        return {**{k: got[k] for k in ("math", "errors", "ids", "links", "tables", "untypeset", "layout", "height",
                                        "problems")}, "marks": got["page"].evaluate(MARKS)}

    phone, wide = (open_page(browser, (site / name).as_uri() + ALL, width) for width in (390, 1280))
    loaded = {390: seen(phone), 1280: seen(wide)}
    assert loaded[390]["marks"]["scrolls"] and loaded[390]["marks"]["hints"]  # the phone has something to scroll
    moved = {1280: seen(resized(phone, 1280)), 390: seen(resized(wide, 390))}
    for got in (phone, wide):
        got["page"].close()
    assert moved[1280] == loaded[1280]
    assert moved[390] == loaded[390]
