"""The process cvc5 runs in: one JSON question per line on stdin, one answer per line on stdout.

Started by :mod:`derive.second.cvc5` as ``python -P cvc5_child.py`` (``-P``: this folder, which holds a module
named ``cvc5``, is not put on the path). A question is ``{"id": …, "script": …, "ms": …, "rlimit": …}``; the answer
is its ``id``, then ``sat``, ``unsat`` or ``unknown``, or ``error: <one line>``. Answers go to a copy of the standard
output made before cvc5 is loaded; the standard output itself is sent to the standard error, so nothing cvc5 prints
can pass for an answer. The parent kills this process when a query runs past
its time: cvc5 does not look at its own limits everywhere (``Min(1, exp(x)) = 1`` searches on past both), and a
killed process keeps nothing of it. It imports nothing of derive, and ends when its parent does.
"""
import json
import os
import sys


def _die_with_parent() -> None:
    """Ask Linux to kill this process when its parent ends (a no-op elsewhere)."""
    try:
        import ctypes
        import signal

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def answer(cvc5, script: str, ms: int, rlimit: int) -> str:
    """cvc5's answer to the SMT-LIB 2.6 ``script``, with ``ms`` and ``rlimit`` as its per-query limits."""
    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    solver.setOption("tlimit-per", str(int(ms)))
    solver.setOption("rlimit-per", str(int(rlimit)))
    symbols = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, symbols)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, script, "query")
    out = "unknown"
    while True:
        command = parser.nextCommand()
        if command.isNull():
            break
        said = command.invoke(solver, symbols).strip()
        if said:
            out = said.split()[0]
    return out if out in ("sat", "unsat") else "unknown"


def main() -> None:
    _die_with_parent()
    sys.stdout.flush()
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")  # the answers' own channel
    os.dup2(2, 1)  # whatever else writes to the standard output (cvc5's own printing) goes to the standard error
    import cvc5

    for line in sys.stdin:
        ident = ""
        try:
            question = json.loads(line)
            ident = str(question["id"])
            reply = answer(cvc5, question["script"], question["ms"], question["rlimit"])
        except Exception as error:  # noqa: BLE001 - the parent gets every failure as one line
            reply = "error: " + " ".join(f"{type(error).__name__}: {error}".split())
        replies.write(f"{ident} {reply}\n")
        replies.flush()


if __name__ == "__main__":
    main()
