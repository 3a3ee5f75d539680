"""cvc5 as a second engine: an SMT-LIB 2.6 script in, ``sat``/``unsat``/``unknown`` out.

Where Z3 is outside its fragment (``exp``, ``sin``, ``cos``, π), cvc5's ``(set-logic ALL)`` reads them as the
real functions they are and decides many such queries by incremental linearisation. The script is parsed by
cvc5's own reader (:class:`cvc5.InputParser` with a :class:`cvc5.SymbolManager`): this module knows nothing of
SymPy, of Z3 or of the rest of derive. Every call has a time limit (``tlimit-per``, never more than it is given)
and a deterministic resource limit (``rlimit-per``).

>>> check("(declare-const x Real)(assert (> x 0.0))(assert (not (> (exp x) 1.0)))")
'unsat'
>>> check("(declare-const x Real)(assert (> x 0.0))")
'sat'
"""
from __future__ import annotations

import re

try:
    import cvc5 as _cvc5
except ImportError:  # a machine without it (the browser's Pyodide): the queries only cvc5 reads stay outside
    _cvc5 = None

__all__ = ["AVAILABLE", "ENGINE", "RLIMIT", "check", "script", "FUNCTIONS"]

#: whether cvc5 can be asked here
AVAILABLE = _cvc5 is not None
ENGINE = f"cvc5 {getattr(_cvc5, '__version__', '')}".strip() if AVAILABLE else "cvc5 (not installed)"
#: cvc5's resource limit per query (deterministic): the suite's hardest decided query spends 640,000 units; a
#: hopeless one (``sin² + cos² = 1``, which linearisation never closes) stops here after a few seconds
RLIMIT = 800_000
_ANSWERS: dict = {}  # script -> (answer, the milliseconds it was given): one query is asked once per process
#: the transcendental functions cvc5 reads natively, by SymPy's name -> SMT-LIB's
FUNCTIONS = {"exp": "exp", "sin": "sin", "cos": "cos", "tan": "tan"}


def script(body: str, logic: str = "ALL", expect: str | None = None) -> str:
    """A standalone SMT-LIB 2.6 script: ``; expect:`` (when given), the logic, ``body`` (declarations and
    assertions), ``(check-sat)``."""
    head = f"; expect: {expect}\n" if expect else ""
    return f"{head}(set-logic {logic})\n{body.strip()}\n(check-sat)\n"


def check(body: str, ms: int = 2000, logic: str = "ALL") -> str:
    """cvc5's answer to the declarations and assertions ``body`` (SMT-LIB 2.6 text, without ``set-logic`` or
    ``check-sat``): ``sat``, ``unsat`` or ``unknown`` (a limit, or an incomplete procedure), within ``ms``."""
    if ms <= 0:
        return "unknown"
    key = (_renamed(body), logic)
    known, given = _ANSWERS.get(key, (None, 0))
    if known is not None and (known != "unknown" or ms <= given):
        return known
    answer = _ask(body, ms, logic)
    _ANSWERS[key] = (answer, ms)
    return answer


_QUOTED = re.compile(r"\|[^|]*\|")


def _renamed(body: str) -> str:
    """``body`` with every quoted name (every symbol, function and bound variable the translator declares) renamed
    ``|v0|, |v1|, …`` in the order of its first appearance: two queries that differ only in their names (the same
    step about entry M₁₁ and about M₁₂) are one question, with one answer."""
    names: dict = {}
    return _QUOTED.sub(lambda m: names.setdefault(m.group(0), f"|v{len(names)}|"), body)


def _ask(body: str, ms: int, logic: str) -> str:
    tm = _cvc5.TermManager()
    solver = _cvc5.Solver(tm)
    solver.setOption("tlimit-per", str(int(ms)))
    solver.setOption("rlimit-per", str(RLIMIT))
    symbols = _cvc5.SymbolManager(tm)
    parser = _cvc5.InputParser(solver, symbols)
    parser.setStringInput(_cvc5.InputLanguage.SMT_LIB_2_6, script(body, logic), "query")
    answer = "unknown"
    while True:
        command = parser.nextCommand()
        if command.isNull():
            break
        out = command.invoke(solver, symbols).strip()
        if out:
            answer = out.split()[0]
    return answer if answer in ("sat", "unsat") else "unknown"
