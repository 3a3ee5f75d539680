"""Shared set-up: every test starts with an empty claim registry; property tests run reproducibly.

Hypothesis runs derandomized and without an example database, so ``make test`` is deterministic; set
``HYPOTHESIS_PROFILE=thorough`` for a long randomized search.
"""
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from derive.kernel import registry

settings.register_profile("derive", max_examples=60, deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", settings.get_profile("derive"), max_examples=2000, derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "derive"))

#: Debian's Chromium, which `make test` installs, and how the browser tests start it
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium per test module (missing: a skip, or a failure under CI)."""
    if not CHROMIUM.exists():
        message = f"Debian's chromium is missing at {CHROMIUM}: `make test` installs it"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


#: the files that take longest, started first (``make test`` runs files in the order collected, each on one worker:
#: ``--dist loadfile --no-loadscope-reorder``), so that no worker is left with a long one at the end
SLOW_FIRST = ["tests/test_site_claims_page.py", "tests/test_site_pages.py", "tests/test_sympy_beside_derive.py",
              "tests/test_try_page.py", "notebooks/09_rank_r.ipynb", "notebooks/08_activation_atlas.ipynb",
              "tests/test_site.py", "tests/test_soundness_classes.py"]


def pytest_collection_modifyitems(config, items):
    rank = {path: k for k, path in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))  # stable: the rest as collected


@pytest.fixture(autouse=True)
def _fresh_registry():
    registry.clear()
    yield
    registry.clear()
