"""Wall-clock budgets: SymPy cannot be interrupted politely, so a timer signal does it.

Budgets nest: an inner budget never outlives the one around it, so a whole ``prove()``, ``refute()``,
``check()`` or ``classify()`` honours the budget its caller set, and each strategy inside gets its own smaller
share. When a budget runs out, :class:`OutOfTime` is raised inside the block; ``outer`` tells a catcher whether
it was an enclosing budget that ran out (then it must stop too, not try the next thing).

:class:`OutOfTime` is a ``BaseException``: library code that catches ``Exception`` cannot swallow it.

Only the main thread can receive the signal; elsewhere budgets are not enforced (work is merely timed).
Notebook kernels and the command line run claims in the main thread. Where Python has no timer signal
(``signal.setitimer`` is missing, as in Pyodide in a browser), budgets are cooperative: they nest and are kept as
deadlines, a budget entered after its enclosing one ran out raises :class:`OutOfTime` at once, and :func:`check`
raises once the innermost one has run out, but nothing interrupts a step already running (:data:`INTERRUPTS` is
False, and a strategy that overran its share says so in its attempt).

A caller's own timer (``signal.setitimer(signal.ITIMER_REAL, ...)`` with its own ``SIGALRM`` handler) keeps
running: when it is due inside a budget, the caller's handler runs then, on time (an exception it raises leaves
the block as it would have without the budget), and once the outermost budget is left the caller's handler and
what is left of its timer (and its interval) are restored. Any positive finite budget is honoured, even one
shorter than the clock can tell (it runs out at once).

>>> from derive.kernel.budget import time_budget, OutOfTime
>>> with time_budget(1.0):
...     1 + 1
2
>>> try:
...     with time_budget(0.05):
...         while True:
...             pass
... except OutOfTime as exc:
...     print(exc)
out of time after 0.05 s
"""
from __future__ import annotations

import contextlib
import math
import os
import signal
import threading
import time

__all__ = ["OutOfTime", "time_budget", "remaining", "check", "seconds_value", "DEFAULT_SECONDS", "INTERRUPTS"]

#: the default budget of one public entry point (``prove``, ``refute``, ``check``, ``classify``), in seconds
DEFAULT_SECONDS = 30.0

# the open budgets, innermost last: (effective deadline, own deadline, own seconds), on time.monotonic()
_STACK: list[tuple[float, float, float]] = []
# the caller's timer while budgets are open: [deadline on time.monotonic(), interval, handler], or empty
_CALLER: list = []


class OutOfTime(BaseException):
    """A budget ran out. ``seconds`` is the budget that ran out; ``outer`` is True while the exception is inside a
    budget nested in the one that ran out (a catcher there must let it pass), False once it has left that one."""

    def __init__(self, seconds: float, outer: bool = False, deadline: float | None = None):
        super().__init__(f"out of time after {seconds:.3g} s")
        self.seconds = seconds
        self.outer = outer
        self.deadline = deadline


def seconds_value(where: str, seconds, *, allow_none: bool = True):
    """Check a budget argument: a positive finite number of seconds (or ``None`` for no limit of its own)."""
    if seconds is None and allow_none:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise TypeError(f"{where}: budget must be a number of seconds, got {type(seconds).__name__} {seconds!r:.40}")
    if not math.isfinite(seconds) or seconds <= 0:
        raise ValueError(f"{where}: budget must be a positive number of seconds, got {seconds!r}")
    return float(seconds)


#: whether a budget can interrupt the work inside it (a timer signal); False: budgets are cooperative deadlines
INTERRUPTS = hasattr(signal, "setitimer")


def _usable() -> bool:
    return threading.current_thread() is threading.main_thread() and INTERRUPTS


def check() -> None:
    """Raise :class:`OutOfTime` when the innermost open budget has run out (the cooperative check; with a timer
    signal the budget has already raised by then, and this does nothing)."""
    if _STACK and time.monotonic() >= _STACK[-1][0]:
        effective, own, seconds = _STACK[-1]
        if effective < own:
            outer = next(s for e, o, s in reversed(_STACK) if o == effective)
            raise OutOfTime(outer, outer=True, deadline=effective)
        raise OutOfTime(seconds, deadline=own)


def _on_alarm(signum, frame):  # pragma: no cover - called by the OS
    if not _STACK and not _CALLER:
        return
    if frame is not None and (frame.f_code in _LEAVING or _unraisable(frame.f_code) or _building(frame)):
        # a budget is being entered or left (its own set-up, or contextlib resuming it at the end of its block): an
        # exception here would skip the clean-up and leave the budget on the stack; in a finalizer or a weak
        # reference's callback, Python would only print it; in Z3's constructor, it would leave half an object
        # whose finalizer fails (printed as an error when it is freed); decide a moment later
        signal.setitimer(signal.ITIMER_REAL, 1e-3)
        return
    now = time.monotonic()
    if _CALLER and now >= _CALLER[0] - 1e-4:
        _caller_alarm(signum, frame, now)  # may raise, as the caller's handler would have without the budget
        now = time.monotonic()
    if not _STACK:
        return
    effective, own, seconds = _STACK[-1]
    if now < effective - 1e-4:  # a timer armed for a budget that has just closed (or the caller's): wait for this one's
        _arm(now)
        return
    # rings again soon: an exception raised where Python only prints it (a garbage-collector callback, a __del__)
    # is lost, and the budget must still end; leaving the budget disarms the timer
    _set(_REPEAT)
    if effective < own:  # an enclosing budget is the one that ran out
        outer = next(s for e, o, s in reversed(_STACK) if o == effective)
        raise OutOfTime(outer, outer=True, deadline=effective)
    raise OutOfTime(seconds, deadline=own)


def _unraisable(code) -> bool:
    """Whether ``code`` runs where Python prints an exception and drops it: a ``__del__``, or the callbacks of weak
    references (a ``WeakSet`` losing an item, as the garbage collector frees it)."""
    return code.co_name == "__del__" or code.co_filename.endswith(("_weakrefset.py", f"{os.sep}weakref.py"))


def _building(frame) -> bool:
    """Whether ``frame`` runs inside the constructor of one of Z3's objects (its context, a solver …), whose
    finalizer assumes the object was built whole."""
    while frame is not None and _Z3_FILES in frame.f_code.co_filename:
        if frame.f_code.co_name == "__init__":
            return True
        frame = frame.f_back
    return False


_Z3_FILES = f"{os.sep}z3{os.sep}"

#: seconds after which a budget that ran out rings again, in case its exception was swallowed
_REPEAT = 0.05


#: the longest the timer is set for at once (a longer budget is re-armed when it rings early)
_MAX_DELAY = 1e6


def _set(delay: float) -> None:
    """Set the timer to ring in ``delay`` seconds (at most), or sooner when the caller's own timer is due."""
    if _CALLER:
        delay = min(delay, max(_CALLER[0] - time.monotonic(), 1e-6))
    signal.setitimer(signal.ITIMER_REAL, min(delay, _MAX_DELAY))


def _arm(now: float) -> None:
    if _STACK:
        _set(max(_STACK[-1][0] - now, 1e-6))
    else:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _caller_alarm(signum, frame, now: float) -> None:
    """The caller's timer is due inside a budget: its next time (when it repeats) is kept, then its handler runs."""
    deadline, interval, handler = _CALLER
    if interval > 0:
        _CALLER[0] = deadline + interval * max(1, math.ceil((now - deadline) / interval))
    else:
        del _CALLER[:]
    _arm(now)
    if handler is signal.SIG_IGN:
        return
    if callable(handler):
        handler(signum, frame)
        return
    # the default action of SIGALRM (or a handler not set from Python): what the caller's timer would have done
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.raise_signal(signal.SIGALRM)


def remaining() -> float | None:
    """Seconds left in the innermost open budget, or ``None`` when there is none."""
    if not _STACK:
        return None
    return max(0.0, _STACK[-1][0] - time.monotonic())


_PREVIOUS_HANDLER = []
#: after an exception for an enclosing budget has left a block, the next alarm waits this long for it to arrive
_GRACE = 0.25


@contextlib.contextmanager
def time_budget(seconds: float | None):
    """Raise :class:`OutOfTime` inside the block when it runs longer than ``seconds`` (or than an enclosing budget).

    ``None`` sets no limit of its own (an enclosing budget still holds).
    """
    if seconds is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    seconds = seconds_value("time_budget", seconds, allow_none=False)
    now = time.monotonic()
    own = now + seconds
    effective = min(own, _STACK[-1][0]) if _STACK else own
    if effective <= now:  # shorter than the clock can tell, or an enclosing budget is over: out of time at once
        if own <= effective:
            raise OutOfTime(seconds, deadline=own)
        raise OutOfTime(next((s for e, o, s in reversed(_STACK) if o == effective), seconds), outer=True,
                        deadline=effective)
    entry = (effective, own, seconds)
    if not INTERRUPTS:  # no timer signal: the deadline is kept for the checks between steps, nothing interrupts
        _STACK.append(entry)
        try:
            yield
        except OutOfTime as exc:
            if exc.deadline == own:
                exc.outer = False
            raise
        finally:
            for k in range(len(_STACK) - 1, -1, -1):
                if _STACK[k] is entry:
                    del _STACK[k]
                    break
        return
    flying = None
    try:  # everything from here on is undone in `finally`, whenever an alarm interrupts it (even before yield)
        if not _STACK:
            # the caller's timer is taken over (stopped first: it cannot ring between the two calls)
            value, interval = signal.setitimer(signal.ITIMER_REAL, 0)
            _PREVIOUS_HANDLER.append(signal.signal(signal.SIGALRM, _on_alarm))
            _CALLER[:] = [now + value, interval, _PREVIOUS_HANDLER[-1]] if value > 0 else []
        _STACK.append(entry)
        _arm(now)
        yield
    except OutOfTime as exc:
        if exc.deadline == own:  # out here, it is this budget that ran out
            exc.outer = False
        flying = exc
        raise
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        for k in range(len(_STACK) - 1, -1, -1):  # this budget's own entry, if it was pushed
            if _STACK[k] is entry:
                del _STACK[k]
                break
        now = time.monotonic()
        if flying is not None and _STACK and flying.deadline is not None and flying.deadline <= _STACK[-1][0]:
            # the exception is on its way to the budget that ran out: no second alarm inside its handlers,
            # only a late one in case some code swallows it
            _set(max(_STACK[-1][0] - now, _GRACE))
        else:
            _arm(now)
        if not _STACK and _PREVIOUS_HANDLER:
            signal.signal(signal.SIGALRM, _PREVIOUS_HANDLER.pop())
            if _CALLER:  # the caller's timer again, less the time spent (its handler ran if it was due)
                deadline, interval, _ = _CALLER
                del _CALLER[:]
                signal.setitimer(signal.ITIMER_REAL, max(deadline - time.monotonic(), 1e-6), interval)


#: the code of entering and leaving a budget: an alarm that lands there is put off for a millisecond
_LEAVING = frozenset({time_budget.__wrapped__.__code__, contextlib._GeneratorContextManager.__exit__.__code__,
                      contextlib._GeneratorContextManager.__enter__.__code__})
