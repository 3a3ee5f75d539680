"""A wall-clock budget for one strategy: SymPy cannot be interrupted politely, so a timer signal does it.

Only the main thread can receive the signal; elsewhere the budget is not enforced (the strategies are then
merely timed). Notebook kernels and the command line run claims in the main thread.
"""
from __future__ import annotations

import contextlib
import signal
import threading

__all__ = ["OutOfTime", "time_budget"]


class OutOfTime(Exception):
    """A strategy ran past its budget."""


def _on_alarm(signum, frame):  # pragma: no cover - called by the OS
    raise OutOfTime()


@contextlib.contextmanager
def time_budget(seconds: float | None):
    """Raise :class:`OutOfTime` inside the block when it runs longer than ``seconds``.

    >>> from derive.budget import time_budget
    >>> with time_budget(1.0):
    ...     1 + 1
    2
    """
    usable = (
        seconds is not None
        and seconds > 0
        and threading.current_thread() is threading.main_thread()
        and hasattr(signal, "setitimer")
    )
    if not usable:
        yield
        return
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
