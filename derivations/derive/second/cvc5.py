"""cvc5 as a second engine: an SMT-LIB 2.6 script in, ``sat``/``unsat``/``unknown`` out.

Where Z3 is outside its fragment (``exp``, ``sin``, ``cos``, π), cvc5's ``(set-logic ALL)`` reads them as the
real functions they are and decides many such queries by incremental linearisation. The script is parsed by
cvc5's own reader (:class:`cvc5.InputParser` with a :class:`cvc5.SymbolManager`): this module knows nothing of
SymPy, of Z3 or of the rest of derive. Every call has a time limit (``tlimit-per``, never more than it is given)
and a deterministic resource limit (``rlimit-per``), and runs in a process of its own
(:mod:`derive.second.cvc5_child`), killed when it runs past its time: cvc5 does not look at its limits everywhere.

>>> check("(declare-const x Real)(assert (> x 0.0))(assert (not (> (exp x) 1.0)))")
'unsat'
>>> check("(declare-const x Real)(assert (> x 0.0))")
'sat'
"""
from __future__ import annotations

import atexit
import importlib.metadata
import json
import os
import re
import select
import subprocess
import sys
import threading
import time
from pathlib import Path


def _version() -> str | None:
    """cvc5's version where it is installed and a process can be started (not in the browser's Pyodide)."""
    if sys.platform == "emscripten":
        return None
    try:
        return importlib.metadata.version("cvc5")
    except importlib.metadata.PackageNotFoundError:
        return None

__all__ = ["AVAILABLE", "ENGINE", "RLIMIT", "check", "script", "FUNCTIONS"]

#: whether cvc5 can be asked here
_VERSION = _version()
AVAILABLE = _VERSION is not None
ENGINE = f"cvc5 {_VERSION}" if AVAILABLE else "cvc5 (not installed)"
#: cvc5's resource limit per query (deterministic): the suite's hardest decided query spends 640,000 units; a
#: hopeless one (``sin² + cos² = 1``, which linearisation never closes) stops here after a few seconds
RLIMIT = 800_000
#: how long past its time limit a query may run before its process is killed (starting a new one costs ~0.1 s)
GRACE_MS = 250
_ANSWERS: dict = {}  # script -> (answer, the milliseconds it was given): one query is asked once per process
#: the transcendental functions cvc5 reads natively, by SymPy's name -> SMT-LIB's
FUNCTIONS = {"exp": "exp", "sin": "sin", "cos": "cos", "tan": "tan"}


def script(body: str, logic: str = "ALL", expect: str | None = None) -> str:
    """A standalone SMT-LIB 2.6 script: ``; expect:`` (when given), the logic, ``body`` (declarations and
    assertions), ``(check-sat)``."""
    head = f"; expect: {expect}\n" if expect else ""
    return f"{head}(set-logic {logic})\n{body.strip()}\n(check-sat)\n"


def check(body: str, ms: int = 2000, logic: str = "ALL", rlimit: int = RLIMIT) -> str:
    """cvc5's answer to the declarations and assertions ``body`` (SMT-LIB 2.6 text, without ``set-logic`` or
    ``check-sat``): ``sat``, ``unsat`` or ``unknown`` (a limit, or an incomplete procedure), within ``ms`` and
    ``rlimit`` resource units (at most :data:`RLIMIT`)."""
    if isinstance(ms, bool) or not isinstance(ms, (int, float)) or ms != ms or ms == float("inf"):
        raise ValueError(f"cvc5.check: ms must be a finite number of milliseconds, got {ms!r:.40}")
    if isinstance(rlimit, bool) or not isinstance(rlimit, int) or not 0 < rlimit <= RLIMIT:
        raise ValueError(f"cvc5.check: rlimit must be a whole number of resource units from 1 to {RLIMIT}, "
                         f"got {rlimit!r:.40}")
    if ms <= 0:
        return "unknown"
    ms = max(1, int(ms))  # cvc5 reads a time limit of 0 as none
    key = (_renamed(body), logic, rlimit)
    known, given = _ANSWERS.get(key, (None, 0))
    if known is not None and (known != "unknown" or ms <= given):
        return known
    answer = _ask(body, ms, logic, rlimit)
    _ANSWERS[key] = (answer, ms)
    return answer


_QUOTED = re.compile(r"\|[^|]*\|")


#: a declaration or binding of a name written without bars (``x`` and ``|x|`` are one symbol in SMT-LIB)
_BARE = re.compile(r"\((?:declare-(?:const|fun)|define-fun)\s+[^|\s()]|\(\(\s*[^|\s()]+\s+[A-Z(]")


def _renamed(body: str) -> str:
    """``body`` with every quoted name (every symbol, function and bound variable the translator declares) renamed
    ``|v0|, |v1|, …`` in the order of its first appearance: two queries that differ only in their names (the same
    step about entry M₁₁ and about M₁₂) are one question, with one answer. A body that declares or binds a name
    without bars is kept as it is (renaming ``|x|`` beside a bare ``x`` would make two symbols of one)."""
    if _BARE.search(body):
        return body
    names: dict = {}
    return _QUOTED.sub(lambda m: names.setdefault(m.group(0), f"|v{len(names)}|"), body)


class _Child:
    """The one cvc5 process of this process, started when first asked and again after it was killed."""

    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None
        self.lock = threading.Lock()
        self.killed = 0  #: how many queries ran past their time (or answered amiss) and took their process along
        self.asked = 0  #: questions asked so far: each answer names the question it answers

    def ask(self, script: str, ms: int, rlimit: int = RLIMIT) -> str:
        with self.lock:
            if self.process is None or self.process.poll() is not None:
                self.process = subprocess.Popen(
                    [sys.executable, "-P", str(Path(__file__).with_name("cvc5_child.py"))],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            self.asked += 1
            ident = str(self.asked)
            question = json.dumps({"id": ident, "script": script, "ms": int(ms), "rlimit": int(rlimit)}) + "\n"
            try:
                self.process.stdin.write(question.encode())
                self.process.stdin.flush()
                line = self._line(time.monotonic() + (ms + GRACE_MS) / 1000, ident)
            except (BrokenPipeError, OSError):
                line = None
            except BaseException:  # the caller's budget ran out (or ^C) mid-query: the process is still at it
                self.stop()
                raise
            if line is None or not (line in _ANSWERS_GIVEN or line.startswith("error:")):
                self.stop()  # past its time, gone, or saying what no answer says: killed, with whatever it was doing
                self.killed += 1
                return "unknown"
        if line.startswith("error:"):
            raise ValueError(f"cvc5 could not read the query ({line[len('error:'):].strip()[:80]})")
        return line

    def _line(self, deadline: float, ident: str) -> str | None:
        """The answer to question ``ident`` (its line, without the id), or None when ``deadline`` passes first, the
        process ends, or it answers another question."""
        fd, got = self.process.stdout.fileno(), b""
        while not got.endswith(b"\n"):
            wait = deadline - time.monotonic()
            if wait <= 0 or not select.select([fd], [], [], wait)[0]:
                return None
            chunk = os.read(fd, 4096)
            if not chunk:
                return None
            got += chunk
        said, _, reply = got.decode(errors="replace").strip().partition(" ")
        return reply.strip() if said == ident and got.count(b"\n") == 1 else None

    def stop(self) -> None:
        """Kill the process (a budget's signal may interrupt the wait for its end: it is then reaped later)."""
        process, self.process = self.process, None
        if process is not None:
            process.kill()
            for pipe in (process.stdin, process.stdout):
                pipe.close()
            process.wait()


#: the answers a query can get (anything else from the process stops it: its answer is "unknown")
_ANSWERS_GIVEN = ("sat", "unsat", "unknown")
_CHILD = _Child()
atexit.register(_CHILD.stop)


def _ask(body: str, ms: int, logic: str, rlimit: int = RLIMIT) -> str:
    return _CHILD.ask(script(body, logic), ms, rlimit)
