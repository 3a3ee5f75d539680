"""What the soundness tests ask of a claim: built without an expectation, or refused in one line."""
import pytest

from derive import claim


def free(identifier, lhs, rhs, **kw):
    """A claim with no expected verdict: the test reads the verdict itself."""
    return claim(identifier, lhs, rhs, expect=None, **kw)


def refused(build, match: str) -> str:
    """``build()`` raises ValueError matching ``match``, in one line; its message."""
    with pytest.raises(ValueError, match=match) as info:
        build()
    assert "\n" not in str(info.value)
    return str(info.value)
