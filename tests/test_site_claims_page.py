"""The suite's claims page in headless Chromium (:mod:`sitecheck`), at 390 and 1280 px with every expression typeset:
every claim's statement, assumptions and title typeset, and its statements fit their column or fold."""
import pytest

from sitecheck import (STATEMENT_WIDTHS, WIDE_SHARE, build_suite_site, check_links, check_page, index_math,
                       mathjax_or_skip, page_names)


@pytest.fixture(scope="module")
def suite_site(tmp_path_factory):
    return build_suite_site(tmp_path_factory, mathjax_or_skip())


@pytest.fixture(scope="module")
def claims_page(browser, suite_site):
    """The claims page, checked (:func:`sitecheck.check_page`), its statement widths measured while it is open."""
    site, sources = suite_site
    got = check_page(browser, site, "claims.html", evaluate=STATEMENT_WIDTHS)
    check_links(site, "claims.html", got["links"], page_names(site, sources))
    return got


def test_the_claims_page_reads_in_a_browser(claims_page, suite_site):
    assert claims_page["math"] == index_math(suite_site[1])[1]


def test_claims_page_statements_fit_their_column_or_fold(claims_page, suite_site):
    if not suite_site[1]:
        pytest.skip("no notebooks")
    cards = claims_page["evaluated"]
    wide = [c["id"] for c in cards if c["wide"]]
    assert cards and len(wide) <= WIDE_SHARE * len(cards), \
        f"{len(wide)} of {len(cards)} statements wider than their column at 1280 px: {wide[:8]}"
    assert all(n and all(n) for c in cards for n in [c["folded"]] if n), "a folded statement without its math"
