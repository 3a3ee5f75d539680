"""Exercises a reader can do: an answer cell checked by the kernel, with a short message instead of a traceback.

Each exercise of a notebook has an answer cell: a placeholder (``answer = ...``) the reader replaces, and a
check, ``derive.exercise("5.1", answer, expect="proved")``. The check says one of three things, never raising:

- the answer is still ``...``: what to fill in;
- right: the verdict and how the kernel got it;
- not yet: the kernel's counterexample (``refuted at a = 1, b = -1: exact residual -1``), or what it tried
  (``no strategy reduced lhs - rhs to zero; tried: structural, expand, sign-split, rational, simplify``).

An answer is a claim or a chain, judged by what it states and by its verdict: it must state the equation the
exercise names (``states=``: the same two sides as SymPy builds them, in either order) under no assumption the
exercise does not give (``assume=``), and get the verdict ``expect`` names. An answer may also be a set of the
symmetries an activation keeps (``activation=``: judged by :func:`derive.classify`), or a plain value (a number,
an expression, a text or a list of them, judged against ``expect`` as SymPy reads it). Answers are
the reader's, not the suite's: an answer, and the claims the check makes, are left out of the notebook's claim
table (a claim made beside the answer, before the check, is not).

In IPython, :func:`install` (run when ``derive`` is imported in a shell, and by the forked kernels) shows an
:class:`~derive.kernel.claims.ExpectationError` as its one-line message, not a traceback: a claim written with
``expect=`` in an answer cell that misses it says so briefly. So does a refusal of bad input: a ``TypeError`` or
``ValueError`` that ``derive`` raised itself (a step of the wrong shape, sides of different shapes), and SymPy's
``ShapeError`` (matrices multiplied at sizes that do not fit), with the line of the cell it came from. Any other
error keeps its traceback, and ``DERIVE_TRACEBACK=1`` shows every one. The cell still fails, so a notebook whose
claim misses its expectation still fails ``derive check`` and nbval.
"""
from __future__ import annotations

import html
import os
import re
import sys
from pathlib import Path

import sympy as sp
from sympy.assumptions.assume import AppliedPredicate
from sympy.core.relational import Relational
from sympy.matrices.expressions import MatrixExpr

from ..kernel import registry
from ..kernel import describe, notation
from ..kernel.chains import Chain
from ..kernel.claims import Claim, ExpectationError, Statement, definitions_of
from ..kernel.verdict import Verdict
from ..kernel.wellformed import inexact, refuse_inexact

__all__ = ["Feedback", "exercise", "install", "short_error", "solution", "step_of", "used_by"]

#: marks of the three outcomes
_MARK = {True: "✔", False: "✘", None: "✎"}
_COLOUR = {True: "#1a7f37", False: "#b35900", None: "#6e7781"}
#: what an answer should get, after what it is ("a claim", "a chain")
_WHAT = {Verdict.PROVED: " that should be proved", Verdict.REFUTED: " that should be refuted",
         Verdict.CHECKED: " that should be checked", Verdict.UNPROVEN: ""}


def step_of(stem: str) -> str:
    """The step a notebook is, as exercises are numbered: ``05_symmetry_breaking`` -> ``"5"``, ``08_…`` -> ``"B2"``.

    Notebooks 00–06 are the paper's steps 0–6; 07 onwards are the steps beyond it, B1, B2, …

    >>> step_of("00_overview"), step_of("05_symmetry_breaking"), step_of("10_numeric_crosscheck")
    ('0', '5', 'B4')
    """
    m = re.match(r"(\d\d)_", stem or "")
    if not m:
        raise ValueError(f"step_of: expected a notebook name such as 05_symmetry_breaking, got {stem!r}")
    n = int(m.group(1))
    return str(n) if n <= 6 else f"B{n - 6}"


class Feedback:
    """What an exercise check says: ``ok`` is True (right), False (not yet) or None (not answered yet).

    In a notebook it shows as a short block (HTML, and the same lines as plain text); ``str()`` is the text.
    ``solution``: it says a solution passed its exercise's check (:func:`solution`).
    """

    def __init__(self, number: str, ok, lines: list[str], solution=False):
        self.number, self.ok, self.lines, self.solution = number, ok, list(lines), solution

    def _head(self) -> str:
        if self.solution:
            return f"Solution to exercise {self.number}: it passes the exercise's check"
        return f"Exercise {self.number}: " + {True: "right", False: "not yet", None: "not answered yet"}[self.ok]

    def __str__(self):
        return "\n".join([f"{_MARK[self.ok]} {self._head()}", *(f"  {ln}" for ln in self.lines)])

    def __repr__(self):
        return str(self)

    def __bool__(self):
        return self.ok is True

    def _repr_mimebundle_(self, include=None, exclude=None):
        body = "".join(f'<div class="tex2jax_ignore">{html.escape(ln)}</div>' for ln in self.lines)
        state = {True: "right", False: "wrong", None: "blank"}[self.ok]
        page = (f'<div class="derive-exercise derive-exercise-{state}" data-exercise="{html.escape(self.number)}" '
                f'style="border-left:4px solid {_COLOUR[self.ok]};padding:2px 10px">'
                f'<strong style="color:{_COLOUR[self.ok]}">{_MARK[self.ok]} {html.escape(self._head())}'
                f'</strong>{body}</div>')
        return {"text/plain": str(self), "text/html": page}


def _verdicts(expect) -> bool:
    """Whether ``expect`` names a verdict, or one per answer."""
    names = {v.value for v in Verdict}
    items = expect if isinstance(expect, (list, tuple)) else [expect]
    return bool(items) and all(isinstance(e, Verdict) or (isinstance(e, str) and e in names) for e in items)


def _blank(answer) -> bool:
    return answer is Ellipsis or answer is None


def _verdict(where, value) -> Verdict:
    if isinstance(value, Verdict):
        return value
    try:
        return Verdict(value)
    except ValueError:
        raise ValueError(f"{where}: expect must be proved, refuted, checked or unproven; got {value!r}") from None


def _tried(claim: Claim) -> str:
    names = [a.split(":")[0] for a in claim.evidence.attempts if ":" in a]
    names = list(dict.fromkeys(names))
    return f"; tried: {', '.join(names)}" if names else ""


def _aim(claim: Claim, want: Verdict, witness):
    """The attempt aimed at ``want`` (its expectation ignored: the check compares verdicts itself)."""
    if want is Verdict.PROVED:
        claim._attempt(lambda: claim.prove())
    elif want is Verdict.REFUTED:
        claim._attempt(lambda: claim.refute(witness))
    elif want is Verdict.CHECKED:
        claim._attempt(lambda: claim.check())


def _how(statement) -> str:
    return describe.how(statement.record())


def _at_witness(claim: Claim, witness) -> str:
    """When a given witness makes both sides equal: say so (a witness must make them differ)."""
    try:
        diff = claim.difference
        values = {k: sp.sympify(v) if isinstance(k, sp.Symbol) else v for k, v in witness.items()}
        from ..kernel.witness import evaluate_at

        at = evaluate_at(diff, values)
        zero = at.is_zero_matrix if isinstance(at, sp.MatrixBase) else sp.simplify(at) == 0
    except Exception:  # a witness the kernel refused says why itself
        return ""
    if not zero:
        return ""
    shown = ", ".join(f"{k} = {v}" for k, v in witness.items())
    return f"at {shown} both sides are equal (lhs - rhs = 0): a witness must make them differ"


def _judge_statement(answer: Statement, want: Verdict, witness) -> tuple[bool, str]:
    name = answer.identifier
    if isinstance(answer, Claim) and answer.verdict is not want and not answer.verdict.is_certain:
        try:
            _aim(answer, want, witness)
        except (ExpectationError, ValueError, TypeError) as exc:
            return False, f"{name}: {exc}"
    got = answer.verdict
    if got is want:
        joint = " is " if want is Verdict.REFUTED else f" is {want.value} " if want is Verdict.PROVED else ": "
        return True, f"{name}{joint}{_how(answer)}"
    if got is Verdict.UNPROVEN and isinstance(answer, Chain):
        return False, f"{name} is not proved: {_how(answer)}"
    if got is Verdict.REFUTED:
        return False, f"{name} should be {want.value}, but it is false: {_how(answer)}"
    if got is Verdict.PROVED:
        return False, f"{name} should be {want.value}, but it holds: {_how(answer)}, so no witness refutes it"
    if isinstance(answer, Claim) and want is Verdict.PROVED:
        tried = _tried(answer)
        _quietly(answer.refute, answer)  # a counterexample says more than the strategies that failed
        if answer.verdict is Verdict.REFUTED:
            return False, f"{name} should be proved, but it is false: {_how(answer)}"
        return False, f"{name} is not proved: no strategy reduced lhs - rhs to zero{tried}"
    if isinstance(answer, Claim) and want is Verdict.REFUTED:
        said = _at_witness(answer, witness) if witness else ""
        if said:
            return False, f"{name} is not refuted: {said}"
        _quietly(answer.prove, answer)
        if answer.verdict is Verdict.PROVED:
            return False, f"{name} should be refuted, but it holds: {_how(answer)}"
        return False, f"{name} is not refuted: no certified witness found; try one of your own (witness={{…}})"
    return False, f"{name} should be {want.value}, but it is {got.value}: {_how(answer)}"


def _quietly(attempt, answer) -> None:
    """Try the other verdict, for a message that says more; a refusal leaves the answer as it was."""
    try:
        answer._attempt(attempt)
    except (ValueError, TypeError):
        pass


def _equation(where, value, what):
    """``value`` as an equation ``(lhs, rhs, definitions)``: each side as SymPy reads it, and what its symbols or
    functions stand for (``(lhs, rhs, {r: 1})``, as a claim's ``where=``; none for ``(lhs, rhs)``); else
    ``TypeError`` naming ``what``."""
    if not (isinstance(value, tuple) and len(value) in (2, 3) and not any(isinstance(v, tuple) for v in value[:2])
            and (len(value) == 2 or isinstance(value[2], dict))):
        raise TypeError(f"{where}: {what} must be an equation (lhs, rhs), or (lhs, rhs, {{symbol: value}}) with what "
                        f"its symbols stand for, got {describe.shorten(repr(value), 80)}")
    lhs, rhs = (sp.sympify(v) for v in value[:2])
    return lhs, rhs, dict(definitions_of(where, value[2], lhs, rhs)) if len(value) == 3 else {}


def _implication(goal) -> bool:
    """Whether a goal is a chain's premise and conclusion, ``((lhs, rhs), (lhs, rhs))``."""
    return isinstance(goal, tuple) and len(goal) == 2 and all(isinstance(g, tuple) for g in goal)


def _asked(where, goal) -> list:
    """The equations an exercise asks an answer to state: ``[equation]``, or ``[premise, conclusion]`` for a chain
    from an equation (a goal ``((lhs, rhs), (lhs, rhs))``)."""
    if _implication(goal):
        return [_equation(where, goal[0], "its premise"), _equation(where, goal[1], "its conclusion")]
    return [_equation(where, goal, "states")]


def _stated(answer: Statement) -> list:
    """What an answer states, as :func:`_asked` reads a goal: a claim's equation as written (with what its ``where``
    defines), an equality chain's first and last expressions, or an implication chain's premise and conclusion."""
    if isinstance(answer, Chain):
        if answer.equations:
            return [(*answer.start, {}), (*answer.conclusion, {})]
        return [(answer.start, answer.conclusion, {})]
    return [(*answer.shown, dict(answer.definitions))]


def _text(equations: list) -> str:
    def one(lhs, rhs, definitions):
        said = f"{notation.text(lhs)} = {notation.text(rhs)}"
        if definitions:
            said += " where " + ", ".join(f"{notation.text(k)} = {notation.text(v)}" for k, v in definitions.items())
        return describe.shorten(said, 100)

    shown = [one(*eq) for eq in equations]
    return shown[0] if len(shown) == 1 else f"{shown[1]} from {shown[0]}"


def _same_equation(said, asked) -> bool:
    """Whether two equations are one as written: the same two sides, in either order (``l = r`` and ``r = l``), and
    the same definitions.

    Compared as SymPy builds them, never by proving them equal: two true identities have the same difference
    (zero), and a side proved equal to the exercise's (``a + 0`` for ``ReLU(a) − ReLU(−a)``) would have the check,
    not the answer, do the exercise.
    """
    (lhs, rhs, definitions), (want_lhs, want_rhs, wanted) = said, asked
    return definitions == wanted and ((lhs, rhs) == (want_lhs, want_rhs) or (lhs, rhs) == (want_rhs, want_lhs))


def _other_statement(answer: Statement, goal, assume, number, want: Verdict) -> str:
    """Why ``answer`` is not an answer to the exercise: it states something else, or under other assumptions;
    ``""`` if it states what the exercise asks.

    A proof may assume less than the exercise gives (it proves more), never more; a refutation's witness must
    meet every assumption the exercise gives, so a refuted answer assumes at least those.
    """
    if callable(goal):
        try:
            goal = goal()
        except (TypeError, ValueError, sp.SympifyError) as exc:
            return (f"the statement asked for could not be built from your values "
                    f"({type(exc).__name__}: {describe.shorten(str(exc), 100)})")
    asked = _asked(f"exercise {number}", goal)
    name = answer.identifier
    given = f" assuming {', '.join(sp.sstr(c) for c in assume)}" if assume else ""
    theirs, given_keys = {_assumption_key(c) for c in answer.assume}, {_assumption_key(c) for c in assume}
    if want is Verdict.REFUTED:
        missing = [c for c in assume if _assumption_key(c) not in theirs]
        if missing:
            return (f"{name} does not assume {', '.join(sp.sstr(c) for c in missing)}: a witness must meet what "
                    f"exercise {number} gives; it asks for {_text(asked)}{given}")
    else:
        extra = [c for c in answer.assume if _assumption_key(c) not in given_keys]
        if extra:
            return (f"{name} assumes {', '.join(sp.sstr(c) for c in extra)}, which exercise {number} does not give: "
                    f"it asks for {_text(asked)}{given}")
    said = _stated(answer)
    if len(said) != len(asked):
        kind = "a chain from an equation" if len(asked) == 2 else "a claim (or a chain of expressions)"
        return f"exercise {number} asks for {kind}: {_text(asked)}"
    if all(_same_equation(s, a) for s, a in zip(said, asked)):
        return ""
    verb = "derives" if len(said) == 2 else "states"
    return f"{name} {verb} {_text(said)}, but exercise {number} asks for {_text(asked)}"


def _assumption_key(condition):
    """An assumption as compared with an exercise's: the same whichever way it is written (``0 < a`` and ``a > 0``,
    ``a - 1 >= 0`` and ``a >= 1``, ``2a > 2`` and ``a > 1``, ``Ne(0, det M)`` and ``Q.invertible(M)``).

    >>> import sympy as sp
    >>> a = sp.Symbol("a", real=True)
    >>> _assumption_key(sp.Lt(0, a)) == _assumption_key(a > 0), _assumption_key(2 * a > 2) == _assumption_key(a >= 1)
    (True, False)
    """
    if isinstance(condition, AppliedPredicate) and condition.function == sp.Q.invertible:
        condition = sp.Ne(sp.Determinant(condition.arguments[0]), 0)
    if not isinstance(condition, Relational) or isinstance(condition.lhs, MatrixExpr):
        return condition
    rel, e = condition.rel_op, condition.lhs - condition.rhs
    if rel in ("<", "<="):
        e, rel = -e, {"<": ">", "<=": ">="}[rel]
    e = sp.expand(e)
    if e.is_Add or e.is_Mul:
        e = e.as_content_primitive()[1]  # (a positive rational content)
    if rel in ("==", "!=") and e.could_extract_minus_sign():
        e = -e
    return rel, e


def _judge_prediction(answer, activation, name, found=None) -> tuple[bool, list[str]]:
    from ..classifier.classification import SYMMETRIES, TITLES
    from ..classifier.classify import classify

    if isinstance(answer, str) or not hasattr(answer, "__iter__"):
        return False, [f"the answer should be a set of symmetries ({', '.join(SYMMETRIES)}), got {answer!r}"]
    said = set(answer)
    unknown = sorted(str(s) for s in said if s not in SYMMETRIES)
    if unknown:
        return False, [f"unknown symmetr{'y' if len(unknown) == 1 else 'ies'} {', '.join(unknown)}; "
                       f"the three are {', '.join(SYMMETRIES)}"]
    if found is None:
        found = classify(activation, prefix="answer", name=name)
    lines, ok = [], True
    for key, f in found.findings.items():
        if f.holds is None:
            ok = False
            lines.append(f"{TITLES[key]}: undecided ({f.certificate()})")
        elif f.holds != (key in said):
            ok = False
            lines.append(f"{TITLES[key]}: {'kept' if f.holds else 'broken'}, not {'broken' if f.holds else 'kept'}: "
                         f"{f.certificate()}")
    if ok:
        kept = [TITLES[k] for k, f in found.findings.items() if f.holds]
        who = name or f"σ(z) = {sp.sstr(found.expr)}"
        lines.append(f"{who} keeps " + (", ".join(kept) if kept else "none of the three symmetries"))
    return ok, lines


def _plain(value):
    """A value an answer may be compared by: a text, or a number or expression (as SymPy reads it, strictly); else
    ``TypeError`` (an object that calls itself equal to anything is no answer)."""
    if isinstance(value, str):
        return value
    try:
        return sp.sympify(value, strict=True)
    except (sp.SympifyError, TypeError):
        raise TypeError(f"the answer should be a number, an expression, a text or a list of them, got "
                        f"{type(value).__name__}") from None


def _judge_value(answer, expect) -> tuple[bool, str]:
    problem = inexact(answer)
    if problem is not None:  # 0.5 is not one half: an answer is exact, as the kernel's values are
        return False, f"the answer {answer!r:.60} {problem}"
    iterable = hasattr(answer, "__iter__") and not isinstance(answer, (str, bytes, dict))
    try:
        answer = [_plain(x) for x in answer] if iterable else _plain(answer)
    except TypeError as exc:
        return False, str(exc)
    if iterable and hasattr(expect, "__iter__") and not isinstance(expect, (str, bytes, dict)):
        given, wanted = list(dict.fromkeys(answer)), list(dict.fromkeys(expect))
        missing = [w for w in wanted if w not in given]
        extra = [g for g in given if g not in wanted]
        if not missing and not extra:
            return True, f"all {len(wanted)}: {', '.join(map(str, wanted))}"
        parts = ([f"{len(missing)} missing"] if missing else []) + ([f"not one of them: {', '.join(map(str, extra))}"]
                                                                    if extra else [])
        return False, "; ".join(parts)
    if answer == expect:
        return True, f"{answer!r}"
    return False, f"{answer!r} is not it"


def exercise(number: str, *answers, expect=None, states=None, assume=(), activation=None, name=None,
             witness=None) -> Feedback:
    """Check the answer(s) to exercise ``number``: a short :class:`Feedback`, never an exception.

    ``answers``: claims or chains, with ``expect`` the verdict each should get (one, or one per answer), and
    ``states`` what each must state: an equation ``(lhs, rhs)``, for a chain from an equation its premise and
    conclusion ``((lhs, rhs), (lhs, rhs))``, or a function of no arguments that builds it from the reader's own
    values; a list of them for several answers. An answer states it when it has the same two sides, as SymPy
    builds them, in either order; a proof may assume only what ``assume`` gives, a refutation at least that (an
    assumption counts however it is written: ``0 < a`` is ``a > 0``, ``det(M) ≠ 0`` is ``Q.invertible(M)``). With
    ``activation=`` (a name or a text in ``z``), the set of symmetries the gated layer with it keeps
    (``"exchange"``, ``"scale_positive"``, ``"scale_nonzero"``), judged by :func:`derive.classify` (``name``: how
    the message calls it); otherwise a plain value, judged against ``expect`` (lists and sets as sets).
    ``witness``: the values a claim expected to be refuted is refuted at. An answer still ``...`` (or ``None``) is
    not judged: the check says what to fill in.

    >>> import derive
    >>> a, b = derive.real("a b")
    >>> relu = derive.activation("relu")
    >>> exchange = (relu(a) * b, relu(b) * a)
    >>> print(exercise("0.2", derive.claim("doc.answer", *exchange), expect="refuted", states=exchange,
    ...                witness={a: 1, b: 2}))
    ✘ Exercise 0.2: not yet
      doc.answer is not refuted: at a = 1, b = 2 both sides are equal (lhs - rhs = 0): a witness must make them differ
    >>> print(exercise("0.2", derive.claim("doc.other", relu(a) + relu(-a), abs(a)).prove(), expect="refuted",
    ...                states=exchange))
    ✘ Exercise 0.2: not yet
      doc.other states Max(0, -a) + Max(0, a) = Abs(a), but exercise 0.2 asks for b*Max(0, a) = a*Max(0, b)
    >>> print(exercise("0.2", ..., expect="refuted", states=exchange))
    ✎ Exercise 0.2: not answered yet
      replace ... by your answer (a claim that should be refuted), then run the cell
    """
    if not isinstance(number, str) or not number:
        raise TypeError(f"exercise: number must be a str such as \"5.1\", got {number!r}")
    if not answers:
        raise TypeError("exercise: give the answer, e.g. exercise(\"5.1\", answer, expect=\"proved\")")
    refuse_inexact(f"exercise {number}: expect", expect)
    before = {id(s) for s in registry.statements()}
    asked = dict(expect=expect, states=states, assume=tuple(assume), activation=activation, name=name, witness=witness)
    try:
        said = _exercise(number, answers, **asked)
        _ASKED[number] = asked  # (only what the check could read: a solution is judged by the same)
        return said
    finally:  # an answer is the reader's: its claims are not the notebook's
        for st in registry.statements():
            if id(st) not in before or any(st is a for a in answers):
                registry._STATEMENTS.pop(st.identifier, None)


def solution(number: str, *answers) -> Feedback:
    """Check a solution by its exercise's own check: what the answer cell of exercise ``number`` asked, the last time
    it ran (it comes first in a notebook), judged as it judges a reader's answer. A solution that does not pass
    raises :class:`~derive.kernel.claims.ExpectationError`, so a notebook whose solution no longer solves its
    exercise fails ``derive check`` and nbval. In a notebook the claims, chains and classifications it was given are
    shown first, each as itself (as ``display`` shows it), then one line.

    An exercise about an activation's symmetries may be given its :func:`derive.classify` result: it must classify
    the activation asked about, and its findings are the answer (nothing is classified again).

    >>> import derive
    >>> a = derive.real("a")
    >>> relu = derive.activation("relu")
    >>> odd = (relu(a) - relu(-a), a)
    >>> print(exercise("0.9", ..., expect="proved", states=odd))
    ✎ Exercise 0.9: not answered yet
      replace ... by your answer (a claim that should be proved), then run the cell
    >>> print(solution("0.9", derive.claim("doc.solution", *odd).prove()))
    ✔ Solution to exercise 0.9: it passes the exercise's check
    >>> solution("0.9", derive.claim("doc.other", relu(a) + relu(-a), abs(a)).prove())
    Traceback (most recent call last):
    ...
    derive.kernel.verdict.ExpectationError: the solution to exercise 0.9 does not pass its check: doc.other states ...
    """
    if not isinstance(number, str) or not number:
        raise TypeError(f"solution: number must be a str such as \"5.1\", got {number!r}")
    if not answers:
        raise TypeError(f"solution: give the solution's answers, e.g. solution(\"{number}\", claim)")
    asked = _ASKED.get(number)
    if asked is None:
        raise ValueError(f"solution: exercise {number} has not been asked in this session: run its answer cell first")
    found = None
    if asked["activation"] is not None and len(answers) == 1 and _is_classification(answers[0]):
        found = _classification_of(number, answers[0], asked["activation"])
    said = _exercise(number, answers, **asked, found=found)
    if said.ok is not True:
        raise ExpectationError(f"the solution to exercise {number} does not pass its check: {'; '.join(said.lines)}")
    shown = [a for a in answers if isinstance(a, Statement) or _is_classification(a)]
    _display(shown)
    return Feedback(number, True, [] if shown else said.lines, solution=True)


def _display(objects) -> None:
    """Each of ``objects`` as its own output of the running notebook cell (nothing outside a Jupyter kernel)."""
    ipython, kernel = sys.modules.get("IPython"), sys.modules.get("ipykernel.zmqshell")
    shell = ipython.get_ipython() if ipython is not None else None
    if objects and kernel is not None and isinstance(shell, kernel.ZMQInteractiveShell):
        from IPython.display import display

        display(*objects)


def _is_classification(value) -> bool:
    from ..classifier.classification import Classification

    return isinstance(value, Classification)


def _classification_of(number, found, activation):
    """``found``, a classification given as a solution, when it is of the activation exercise ``number`` asks about."""
    from ..classifier.classify import _as_expr

    asked = _as_expr(f"exercise {number}", activation)[0]
    if found.expr != asked:
        raise ExpectationError(f"the solution to exercise {number} classifies σ(z) = {sp.sstr(found.expr)}, but the "
                               f"exercise asks about σ(z) = {sp.sstr(asked)}")
    return found


#: what each exercise asked, the last time its answer cell ran: :func:`solution` judges by the same
_ASKED: dict[str, dict] = {}

#: which placeholder of several a line speaks of
_ORDINALS = {0: "first", 1: "second", 2: "third", 3: "fourth"}


def _goals(where, states, count) -> list:
    """One goal per answer: ``states`` itself for one answer, a list of as many for several."""
    if states is None:
        raise TypeError(f"{where}: give states=, the equation the answer must state (a claim is judged by what it "
                        f"states, not by its verdict alone)")
    if count == 1:
        return [states]
    if not isinstance(states, list) or len(states) != count:
        raise TypeError(f"{where}: states must be a list of {count} goals, one per answer, got "
                        f"{describe.shorten(repr(states), 80)}")
    return states


def _exercise(number, answers, expect, states, assume, activation, name, witness, found=None) -> Feedback:
    where = f"exercise {number}"
    statements = activation is None and (any(isinstance(a, Statement) for a in answers) or _verdicts(expect))
    if statements:
        wants = list(expect) if isinstance(expect, (list, tuple)) else [expect] * len(answers)
        if len(wants) != len(answers):
            raise ValueError(f"{where}: expect gives {len(wants)} verdicts for {len(answers)} answers")
        wants = [_verdict(where, w) for w in wants]
        goals = _goals(where, states, len(answers))
    elif states is not None or assume:
        raise TypeError(f"{where}: states= and assume= are for claims and chains (expect a verdict)")
    lines, oks = [], []
    for i, answer in enumerate(answers):
        if _blank(answer):
            kind = "a chain" if statements and _implication(goals[i]) else "a claim"
            what = (f" ({kind}{_WHAT[wants[i]]})" if statements else
                    " (the set of symmetries it keeps)" if activation is not None else "")
            which = "" if len(answers) == 1 else f"the {_ORDINALS.get(i, f'{i + 1}th')} "
            lines.append(f"replace {which}... by your answer{what}, then run the cell")
            oks.append(None)
        elif activation is not None:
            if found is not None:  # a solution's own classification: its findings are its answer
                answer = {key for key, f in found.findings.items() if f.holds}
            ok, said = _judge_prediction(answer, activation, name, found)
            lines += said
            oks.append(ok)
        elif isinstance(answer, Statement):
            other = _other_statement(answer, goals[i], assume, number, wants[i])
            ok, said = (False, other) if other else _judge_statement(answer, wants[i], witness)
            lines.append(said)
            oks.append(ok)
        elif statements:
            lines.append(f"the answer should be a claim (derive.claim(...)) or a chain, got {type(answer).__name__}")
            oks.append(False)
        else:
            ok, said = _judge_value(answer, expect)
            lines.append(said)
            oks.append(ok)
    ok = False if False in oks else None if None in oks else True
    return Feedback(number, ok, lines)


def used_by(records, identifier: str) -> list[str]:
    """The identifiers of the records (a suite table's, or a list) that use ``identifier`` directly.

    >>> used_by([{"id": "a.b", "uses": ["x.y"]}, {"id": "c.d", "uses": []}], "x.y")
    ['a.b']
    """
    rows = getattr(records, "rows", None)
    recs = [r for _, r in rows] if rows is not None else list(records)
    return [r["id"] for r in recs if identifier in r.get("uses", ())]


# -- IPython: an ExpectationError, or a refusal of bad input, as one short line -----------------------------------
#: the folder of the package: an error raised by code in it is one of derive's own refusals
_PACKAGE = str(Path(__file__).resolve().parent.parent) + os.sep


def _frames(tb) -> list:
    out = []
    while tb is not None:
        out.append(tb)
        tb = tb.tb_next
    return out


def _shape_error(value) -> bool:
    from sympy.matrices.exceptions import ShapeError

    return isinstance(value, ShapeError)


def _refusal(value, tb) -> bool:
    """Whether an error is a one-line refusal of the reader's input: an :class:`ExpectationError`, a ``TypeError``
    or ``ValueError`` raised in derive's own code, or SymPy's ``ShapeError``."""
    if isinstance(value, ExpectationError):
        return True
    if not isinstance(value, (TypeError, ValueError)) or os.environ.get("DERIVE_TRACEBACK") == "1":
        return False
    frames = _frames(tb)
    raised_here = bool(frames) and os.path.abspath(frames[-1].tb_frame.f_code.co_filename).startswith(_PACKAGE)
    return raised_here or _shape_error(value)


def _libraries() -> tuple[str, ...]:
    """The folders of derive and of the libraries between it and the reader's cell (SymPy, IPython, ipykernel)."""
    out = [_PACKAGE]
    for name in ("sympy", "IPython", "ipykernel"):
        module = sys.modules.get(name)
        if getattr(module, "__file__", None):
            out.append(str(Path(module.__file__).resolve().parent) + os.sep)
    return tuple(out)


def _cell_line(tb) -> str:
    """`` (line N of the cell)``: the innermost line of the reader's own code the error passed through."""
    libraries = _libraries()
    mine = [f for f in _frames(tb) if not os.path.abspath(f.tb_frame.f_code.co_filename).startswith(libraries)]
    return f" (line {mine[-1].tb_lineno} of the cell)" if mine else ""


def short_error(shell, etype, value, tb, tb_offset=None) -> list[str]:
    """IPython's handler for :class:`ExpectationError` and derive's refusals of bad input: the message alone, on
    one line, no traceback (the cell still fails). Any other error is shown as IPython shows it."""
    if not _refusal(value, tb):
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
        return []
    message = " ".join(str(value).split())
    where = "" if isinstance(value, ExpectationError) else _cell_line(tb)
    stb = [f"{etype.__name__}{where}: {message}"]
    show = getattr(shell, "_showtraceback", None)
    if show is not None:  # IPython 9 shows nothing of what a custom handler returns: show it here
        show(etype, value, stb)
    return stb


def install(shell=None) -> bool:
    """Show :class:`ExpectationError` and derive's refusals of bad input in ``shell`` (default: the running IPython,
    if any) as one short line."""
    if shell is None:
        ipython = sys.modules.get("IPython")  # not imported: no shell to install in (and no import paid for)
        shell = ipython.get_ipython() if ipython is not None else None
    if shell is None or not hasattr(shell, "set_custom_exc"):
        return False
    shell.set_custom_exc((ExpectationError, TypeError, ValueError), short_error)
    return True

