"""The suite's own site in headless Chromium, page by page (:mod:`sitecheck`): the index and every notebook's page,
each at 390 and 1280 px with every expression typeset. The claims page, the longest to typeset, has a file of its
own (``test_site_claims_page.py``), so that the two run side by side."""
import pytest

from derive.run.runner import find_notebooks
from derive.site import pages
from sitecheck import ROOT, build_suite_site, check_links, check_page, index_math, mathjax_or_skip, page_names

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
