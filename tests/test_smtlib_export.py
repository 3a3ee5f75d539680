"""The confirmed queries as standalone SMT-LIB 2.6 scripts, re-run through the engine that did not answer them."""
import random

import sympy as sp
import z3

from derive.second import cvc5 as second_cvc5
from derive.second import identity


def _scripts():
    a, b, x = sp.symbols("a b x", real=True)
    p = sp.Symbol("p", positive=True)
    out = []
    for lhs, rhs in [(sp.Max(0, 2 * a), 2 * sp.Max(0, a)), (sp.Abs(a * b), sp.Abs(a) * sp.Abs(b)),
                     ((a + b) ** 2, a**2 + 2 * a * b + b**2), (sp.Max(0, p * a), p * sp.Max(0, a)),
                     (sp.Max(0, sp.exp(x)), sp.exp(x)), (sp.Abs(sp.exp(x)), sp.exp(x))]:
        opinion = identity(lhs, rhs)
        assert opinion.result == "agrees", opinion
        out += opinion.smtlib()
    return out


def _z3(text):
    s = z3.Solver()
    s.set("timeout", 5000)
    s.from_string(text)
    return str(s.check())


def test_exported_scripts_are_standalone_and_the_other_engine_agrees():
    scripts = _scripts()
    assert scripts
    random.Random(0).shuffle(scripts)
    same = 0
    for text, engine in scripts:
        first, logic = text.splitlines()[:2]
        assert first.startswith("; expect: ") and logic.startswith("(set-logic ")
        assert text.rstrip().endswith("(check-sat)")
        expect = first.split(": ")[1]
        if engine.startswith("z3"):
            body = "\n".join(text.splitlines()[2:-1])
            got = second_cvc5.check(body, 5000)
        else:
            got = _z3(text)
        assert {expect, got} != {"sat", "unsat"}, (engine, text)  # no contradiction
        same += got == expect
    assert same >= 0.6 * len(scripts)
