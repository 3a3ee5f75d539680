"""Every claim and chain made in this process, in the order made: what a notebook's claim table lists."""
from __future__ import annotations

__all__ = ["register", "statements", "get", "clear"]

_STATEMENTS: dict = {}


def register(statement) -> None:
    """Record a claim or chain; re-running a cell replaces the earlier statement of the same identifier.

    When the new statement says something else, every recorded proof that uses the identifier is void: it
    becomes unproven and says so (a later cell re-run gives it back its verdict).
    """
    old = _STATEMENTS.pop(statement.identifier, None)
    if old is not None and old.content() != statement.content():
        for other in _STATEMENTS.values():
            if statement.identifier in other.uses:
                other._restated(statement.identifier)
    _STATEMENTS[statement.identifier] = statement


def statements() -> list:
    """All recorded claims and chains, in the order they were made."""
    return list(_STATEMENTS.values())


def get(identifier: str):
    """The recorded statement with this identifier (KeyError names it when there is none)."""
    try:
        return _STATEMENTS[identifier]
    except KeyError:
        raise KeyError(f"no claim {identifier!r} has been made in this session") from None


def clear() -> None:
    """Forget every recorded statement (tests use it)."""
    _STATEMENTS.clear()
