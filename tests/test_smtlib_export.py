"""The confirmed queries as standalone SMT-LIB 2.6 scripts, re-run through the engine that did not answer them.

The sample comes from a real run: the committed notebooks that confirm the most claims per second of their stored
run are executed (by the runner, as ``derive build`` does) until they confirm :data:`SAMPLE` claims; the site's
exporter writes their scripts from the run's records; :data:`SAMPLE` of those queries are re-run by the other
engine (Z3's by cvc5, cvc5's by Z3).
"""
import random
import re
import subprocess
import sys
from pathlib import Path

import cvc5
import nbformat
import pytest
import sympy as sp
import z3

from derive.kernel import opinion
from derive.run import runner
from derive.second import cvc5 as second_cvc5
from derive.second import identity
from derive.site import smtlib

#: how many exported queries are re-run
SAMPLE = 40
#: the share of them the other engine must answer as expected (none may contradict: sat against unsat)
AS_EXPECTED = 0.6
#: the other engine's time per query, in milliseconds
MS = 5000


def _z3(script: str) -> str:
    s = z3.Solver()
    s.set("timeout", MS)
    s.from_string(script)
    return str(s.check())


def _cvc5(script: str) -> str:
    lines = script.splitlines()
    assert lines[1].startswith("(set-logic ") and lines[-1] == "(check-sat)", script[:200]
    return second_cvc5.check("\n".join(lines[2:-1]), MS, lines[1][len("(set-logic "):-1])


def other_engine(script: str, engine: str) -> str:
    """The answer of the engine that did not answer ``script``: cvc5 for Z3's, Z3 for cvc5's."""
    if engine.startswith("z3"):
        return _cvc5(script)
    assert engine.startswith("cvc5"), engine
    return _z3(script)


def _confirmed(path) -> int:
    records = runner.claims_of(nbformat.read(path, as_version=4))
    return sum((r.get("second_opinion") or {}).get("result") == "agrees" for r in records)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """``(runs, {identifier: file text})``: the scripts the site writes from a real run of a few notebooks."""
    here = tmp_path_factory.mktemp("smtlib")
    costs = []
    for path in runner.find_notebooks(Path(__file__).resolve().parents[1] / "notebooks"):
        n = _confirmed(path)
        if n:
            costs.append((runner.recorded_seconds(path) / n, path, n))
    chosen, total = [], 0
    for _, path, n in sorted(costs):
        if total >= SAMPLE:
            break
        chosen.append(path)
        total += n
    runs = runner.run_all(chosen, here / "notebooks", workers=2)
    assert [r.error for r in runs] == [""] * len(runs)
    written = smtlib.write(here / "site", runs)
    files = {p.name[:-len(".smt2")]: p.read_text(encoding="utf-8") for p in (here / "site" / "smtlib").glob("*.smt2")}
    assert set(written) == set(files)
    return runs, files


def test_a_file_for_every_claim_whose_queries_confirmed_it_and_none_for_another(exported):
    runs, files = exported
    records = [c for r in runs for c in r.claims]
    confirmed = {c["id"] for c in records if (c.get("second_opinion") or {}).get("result") == "agrees"}
    assert set(files) == {c["id"] for c in records if c.get("smtlib")}
    assert set(files) <= confirmed
    assert len(set(files)) >= 0.9 * len(confirmed)  # a confirmed claim without a script is the exception


def test_records_keep_at_most_the_cap(exported):
    runs, _ = exported
    for entry in [c["smtlib"] for r in runs for c in r.claims if c.get("smtlib")]:
        assert 1 <= len(entry["scripts"]) == len(entry["kept"]) <= min(entry["of"], opinion.SMTLIB_QUERIES)
        assert entry["kept"] == sorted(set(entry["kept"])) and 1 <= entry["kept"][0] and entry["kept"][-1] <= entry["of"]
        assert sum(len(s) for _, s in entry["scripts"]) <= opinion.SMTLIB_CHARS


#: the SMT-LIB 2.6 commands a file may hold
COMMANDS = {"set-logic", "declare-const", "declare-fun", "define-fun", "assert", "check-sat", "reset"}


def _commands(text: str) -> list[str]:
    r"""The top-level commands of an SMT-LIB script, in order (comments and quoted symbols skipped).

    >>> _commands("; c\n(declare-fun |a(b| () Real)\n(assert (> |a(b| 0.0))(check-sat)")
    ['declare-fun', 'assert', 'check-sat']
    """
    out, depth, opened = [], 0, False
    for token in re.findall(r";[^\n]*|\|[^|]*\||\(|\)|[^\s()|;]+", text):
        if token.startswith(";"):
            continue
        if opened:
            out.append(token)
        opened = token == "(" and depth == 0
        depth += {"(": 1, ")": -1}.get(token, 0)
        assert depth >= 0, text[:200]
    assert depth == 0, text[:200]
    return out


def test_each_file_is_plain_smtlib_its_first_line_the_answers(exported):
    _, files = exported
    for ident, text in files.items():
        lines = text.splitlines()
        answers = lines[0].removeprefix("; expect: ").split()
        assert lines[0].startswith("; expect: ") and set(answers) <= {"sat", "unsat"}, ident
        assert lines[1].startswith("(set-logic "), ident
        assert len(answers) == text.count("(check-sat)") == text.count("(reset)") + 1, ident
        assert set(_commands(text)) <= COMMANDS, ident
        assert lines[-1].startswith(f"; {ident}: ") and lines[-1].endswith("(derive's second opinion)"), ident
        assert [q[0] for q in smtlib.queries(text)] == answers, ident


def test_a_sample_of_the_exported_queries_rechecked_by_the_other_engine(exported):
    _, files = exported
    queries = [(ident, *q) for ident, text in sorted(files.items()) for q in smtlib.queries(text)]
    assert len(queries) >= SAMPLE
    sample = random.Random(0).sample(queries, SAMPLE)
    same = 0
    for ident, expect, script, engine in sample:
        got = other_engine(script, engine)
        assert {expect, got} != {"sat", "unsat"}, (ident, engine, expect, got)  # no contradiction
        same += got == expect
    assert same >= AS_EXPECTED * SAMPLE, f"{same} of {SAMPLE} as expected"


def _cvc5_file(text: str) -> list[str]:
    """cvc5's answers to a whole file, as its own reader takes it (every command in order, ``(reset)`` too)."""
    tm = cvc5.TermManager()
    solver, symbols = cvc5.Solver(tm), cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, symbols)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "file")
    out = []
    while not (command := parser.nextCommand()).isNull():
        out += command.invoke(solver, symbols).split()
    return out


def test_a_whole_file_reads_in_one_go_in_either_solver_and_prints_its_first_line(tmp_path):
    a, b = sp.symbols("a b", real=True)
    op = identity(sp.Matrix([[sp.Max(0, 2 * a), sp.Abs(a * b)]]), sp.Matrix([[2 * sp.Max(0, a), sp.Abs(a) * sp.Abs(b)]]))
    assert op.result == "agrees"
    text = smtlib.file_text("doc.pair", {"of": len(op.scripts), "kept": [1, 2], "scripts": [[e, s] for s, e in op.smtlib()]})
    answers = text.splitlines()[0].removeprefix("; expect: ").split()
    assert answers == ["unsat", "unsat"]
    path = tmp_path / "doc.pair.smt2"
    path.write_text(text, encoding="utf-8")
    z3_cli = Path(sys.executable).parent / "z3"  # the command line of the z3-solver package, as a reader runs it
    assert subprocess.run([str(z3_cli), str(path)], capture_output=True, text=True, check=True).stdout.split() == answers
    assert _cvc5_file(text) == answers


def _scripts():
    a, b, x = sp.symbols("a b x", real=True)
    p = sp.Symbol("p", positive=True)
    out = []
    for lhs, rhs in [(sp.Max(0, 2 * a), 2 * sp.Max(0, a)), (sp.Abs(a * b), sp.Abs(a) * sp.Abs(b)),
                     ((a + b) ** 2, a**2 + 2 * a * b + b**2), (sp.Max(0, p * a), p * sp.Max(0, a)),
                     (sp.Max(0, sp.exp(x)), sp.exp(x)), (sp.Abs(sp.exp(x)), sp.exp(x)),
                     (sp.Max(0, sp.exp(p) - 1), sp.exp(p) - 1)]:  # exp p > 1: only exp as the real function
        opinion = identity(lhs, rhs)
        assert opinion.result == "agrees", opinion
        out += opinion.smtlib()
    return out


def test_exported_scripts_are_standalone_and_the_other_engine_agrees():
    scripts = _scripts()
    engines = {e.split()[0] for _, e in scripts}
    assert engines == {"z3", "cvc5"}  # exp only cvc5 reads as the real function
    random.Random(0).shuffle(scripts)
    same = 0
    for text, engine in scripts:
        first, logic = text.splitlines()[:2]
        assert first.startswith("; expect: ") and logic.startswith("(set-logic ")
        assert text.rstrip().endswith("(check-sat)")
        expect = first.split(": ")[1]
        got = other_engine(text, engine)
        assert {expect, got} != {"sat", "unsat"}, (engine, text)  # no contradiction
        same += got == expect
    assert same >= AS_EXPECTED * len(scripts)
