"""Shared set-up: every test starts with an empty claim registry; property tests run reproducibly.

Hypothesis runs derandomized and without an example database, so ``make test`` is deterministic; set
``HYPOTHESIS_PROFILE=thorough`` for a long randomized search.
"""
import asyncio
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


class _ForkedForNbval:
    """What nbval asks of a kernel manager, for a kernel forked by derive's kernel server (as ``derive check`` runs
    the notebooks; ``test_kernels.py`` checks that such a kernel looks like a launched one)."""

    kernel_spec = None

    def __init__(self, km):
        self.km = km

    def is_alive(self) -> bool:
        return self.km.has_kernel

    def interrupt_kernel(self) -> None:
        asyncio.run(self.km.interrupt_kernel())

    def shutdown_kernel(self, now=False, restart=False) -> None:
        asyncio.run(self.km.shutdown_kernel())
        asyncio.run(self.km.cleanup_resources())


def _forked_kernel(startup_timeout=60, kernel_name="python", cwd=None, **_launch):
    """nbval's ``start_new_kernel``, with a kernel forked by derive's server instead of launched (no interpreter
    started and no imports made per notebook)."""
    from jupyter_client.blocking import BlockingKernelClient

    from derive.run import kernels

    km = kernels.start(cwd or os.getcwd())
    kc = BlockingKernelClient(connection_file=km.connection_file)
    kc.load_connection_file()
    kc.start_channels(hb=False)
    try:
        kc.wait_for_ready(timeout=startup_timeout)
    except RuntimeError:
        kc.stop_channels()
        _ForkedForNbval(km).shutdown_kernel()
        raise
    return _ForkedForNbval(km), kc


def pytest_configure(config):
    if config.pluginmanager.hasplugin("nbval"):
        import nbval.kernel

        nbval.kernel.start_new_kernel = _forked_kernel


def pytest_collection_modifyitems(config, items):
    rank = {path: k for k, path in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))  # stable: the rest as collected


@pytest.fixture(autouse=True)
def _fresh_registry():
    registry.clear()
    yield
    registry.clear()
