"""Shared fixtures: every test starts with an empty claim registry."""
import pytest

from derive import registry


@pytest.fixture(autouse=True)
def _fresh_registry():
    registry.clear()
    yield
    registry.clear()
