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


@pytest.fixture(autouse=True)
def _fresh_registry():
    registry.clear()
    yield
    registry.clear()
