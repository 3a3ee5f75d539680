"""Shared set-up: every test starts with an empty claim registry; property tests run reproducibly.

Hypothesis runs derandomized and without an example database, so ``make test`` is deterministic; set
``HYPOTHESIS_PROFILE=thorough`` for a long randomized search.
"""
import os

import pytest
from hypothesis import HealthCheck, settings

from derive.kernel import registry

settings.register_profile("derive", max_examples=60, deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", settings.get_profile("derive"), max_examples=2000, derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "derive"))


@pytest.fixture(autouse=True)
def _fresh_registry():
    registry.clear()
    yield
    registry.clear()
