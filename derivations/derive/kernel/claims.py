"""Claims: an equation ``lhs = rhs`` with an identifier, assumptions, what it uses, and a verdict with evidence.

``claim(...)`` states it; ``.prove()``, ``.refute()`` and ``.check()`` try to settle it; ``.decide()`` tries
them in that order. When the claim carries an expected verdict, a different outcome raises
:class:`ExpectationError` naming the claim, so a notebook that no longer shows what it says fails.
"""
from __future__ import annotations

import time

import sympy as sp
from sympy.core.function import AppliedUndef, UndefinedFunction
from sympy.matrices.expressions import MatrixExpr

from . import cases as _cases
from . import display, notation, opinion, printing, registry, sums
from . import strategies as _strategies
from . import witness as _witness
from . import wellformed as _wellformed
from .validate import require_expr, require_identifier, require_inert_tex
from .budget import DEFAULT_SECONDS, OutOfTime, seconds_value, time_budget
from .certify import short_text
from .describe import how, shorten, statement_text
from .verdict import Evidence, ExpectationError, SoundnessError, Verdict

__all__ = ["Claim", "Statement", "claim", "ExpectationError", "SoundnessError"]


def _ids(where, uses) -> tuple[str, ...]:
    if isinstance(uses, (str, Statement)):
        raise TypeError(f"{where}: uses must be a list of identifiers or claims, got a single "
                        f"{type(uses).__name__}; write uses=[{uses.identifier if isinstance(uses, Statement) else uses!r}]")
    out = []
    for u in uses or ():
        if isinstance(u, Statement):
            out.append(u.identifier)
        elif isinstance(u, str):
            out.append(require_identifier(where, u))
        else:
            raise TypeError(f"{where}: uses must hold identifiers or claims, got {type(u).__name__}")
    return tuple(out)


def _expect(where, expect):
    if expect is None or isinstance(expect, Verdict):
        return expect
    if isinstance(expect, str):
        try:
            return Verdict(expect)
        except ValueError:
            raise ValueError(f"{where}: expect must be one of proved, refuted, checked, unproven; got {expect!r}") from None
    raise TypeError(f"{where}: expect must be a Verdict, got {type(expect).__name__}")


#: attributes fixed once set: changing what was stated would leave a verdict about something else
_FIXED = frozenset({"identifier", "lhs", "rhs", "start", "statement", "uses", "shown", "definitions", "premise",
                    "equations", "_assume", "paper", "proves"})


def _paper(where, paper) -> tuple[str, ...]:
    """The docs/paper.md items a statement mechanizes: ``"5.3"`` or ``["5.3", "6.1"]``."""
    items = (paper,) if isinstance(paper, str) else tuple(paper or ())
    for item in items:
        if not isinstance(item, str) or not item or " " in item:
            raise TypeError(f"{where}: paper must list docs/paper.md items such as \"5.3\" or \"B1\", got {item!r}")
    return items


#: the two directions of an "if and only if": ⇒ (only if) and ⇐ (if); a one-way item has ⇒ only
DIRECTIONS = ("⇒", "⇐")


def _proves(where, proves) -> tuple[tuple[str, str], ...]:
    """``proves=("5.3", "⇒")``, ``proves="1.1"`` (a one-way item: its ⇒) or a list of those, as pairs."""
    if proves is None or proves == ():
        return ()
    if isinstance(proves, str) or (isinstance(proves, tuple) and proves and all(isinstance(p, str) for p in proves)):
        proves = [proves]
    if not isinstance(proves, (list, tuple)):
        raise TypeError(f"{where}: proves must be an item such as \"1.1\", a pair such as (\"5.3\", \"⇒\"), "
                        f"or a list of those; got {type(proves).__name__}")
    out = []
    for p in proves:
        pair = (p, "⇒") if isinstance(p, str) else tuple(p) if isinstance(p, (tuple, list)) else None
        if (pair is None or len(pair) != 2 or not isinstance(pair[0], str) or not pair[0] or " " in pair[0]
                or pair[1] not in DIRECTIONS):
            raise ValueError(f"{where}: proves names a paper item and a direction (⇒ or ⇐), "
                             f"such as (\"5.3\", \"⇒\"); got {p!r}")
        if pair not in out:
            out.append(pair)
    return tuple(out)


class Statement:
    """What claims and chains share: identity, expectation, registry, rendering."""

    kind = "statement"

    def __init__(self, identifier, *, uses=(), expect=None, title="", assume=(), paper=(), caption="", proves=()):
        where = f"{self.kind}({identifier!r})"
        self.identifier = require_identifier(self.kind, identifier)
        self.paper = _paper(where, paper)
        #: which direction of which paper item the checked conclusion is (what the audit reads)
        self.proves = _proves(where, proves)
        if not isinstance(caption, str):
            raise TypeError(f"{where}: caption must be a LaTeX str, got {type(caption).__name__}")
        self.caption = caption
        self.uses = _ids(where, uses)
        self.expect = _expect(where, expect)
        if not isinstance(title, str):
            raise TypeError(f"{where}: title must be a str, got {type(title).__name__}")
        self.title = title
        for name, text in (("title", title), ("caption", caption), *(("paper", p) for p in self.paper),
                           *(("proves", p) for p, _ in self.proves)):
            require_inert_tex(where, name, text)
        if isinstance(assume, sp.Basic):
            raise TypeError(f"{where}: assume must be a list of conditions, got a single {type(assume).__name__}; "
                            f"write assume=[{sp.sstr(assume)}]")
        # a condition the symbols' own assumptions already give (α > 0 for a positive α) SymPy made True: it assumes
        # nothing, and printed "assuming True" it read as a condition an exercise does not give
        conditions = tuple(assume or ())
        self._assume = tuple(c for c in conditions if c is not sp.true)
        for cond in conditions:
            if not isinstance(cond, sp.logic.boolalg.Boolean) or isinstance(cond, sp.Symbol):  # a Symbol is a Boolean
                raise TypeError(f"{where}: assume must hold SymPy conditions such as a > 0, got {cond!r}")
            if cond is sp.false:
                raise ValueError(f"{where}: assume holds False: nothing would follow from it")
        self._verdict = Verdict.UNPROVEN
        self._evidence = Evidence()
        registry.register(self)

    # -- what was stated is fixed: a verdict is only ever about the statement it was obtained for ---------------
    @property
    def assume(self) -> tuple:
        """The conditions assumed beyond the symbols' own assumptions (fixed when the statement is made)."""
        return self._assume

    @property
    def verdict(self) -> Verdict:
        """The verdict, set only by the statement's own attempts (``prove``, ``refute``, ``check``, steps)."""
        return self._verdict

    @property
    def evidence(self) -> Evidence:
        """How the verdict was obtained."""
        return self._evidence

    def _set(self, verdict: Verdict, evidence: Evidence) -> None:
        self._verdict, self._evidence = verdict, evidence

    def content(self) -> tuple:
        """What was stated (not how it fared): two statements with equal content say the same thing."""
        return (self.kind, self.assume)

    def _restated(self, identifier: str) -> None:
        """A statement this one uses was stated anew with other content: a proof resting on it is void."""
        if self.verdict is Verdict.PROVED:
            self._set(Verdict.UNPROVEN, Evidence(
                strategy=self.evidence.strategy, seconds=self.evidence.seconds,
                detail=f"rests on {identifier}, which was stated again with other content after this was proved; "
                       f"run this again"))

    def _add_uses(self, identifiers) -> None:
        """What a proof rests on is part of its evidence: the kernel adds it, nobody else changes ``uses``."""
        self.__dict__["uses"] = self.uses + tuple(u for u in identifiers if u not in self.uses)

    def __setattr__(self, name, value):
        if name in _FIXED and name in self.__dict__:
            raise AttributeError(f"{self.kind} {self.__dict__.get('identifier', '?')}: {name} is fixed once stated; "
                                 f"make a new {self.kind} instead")
        super().__setattr__(name, value)

    # -- expectations -------------------------------------------------------------------------------------
    def _settle(self, aimed: Verdict):
        """After an attempt aimed at ``aimed``: raise when the outcome contradicts the expected verdict."""
        if self.expect is None or self.verdict is self.expect:
            return self
        if self.verdict.is_certain or aimed is self.expect:
            raise ExpectationError(
                f"claim {self.identifier}: expected {self.expect.value}, got {self.verdict.value}"
                f" ({how(self.record())})"
            )
        return self

    @property
    def ok(self) -> bool:
        """True when there is no expectation or the verdict meets it."""
        return self.expect is None or self.verdict is self.expect

    # -- records and rendering ----------------------------------------------------------------------------
    def body_tex(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def objects(self) -> list:  # pragma: no cover - overridden
        """The expressions the statement is about (its scope is read off them)."""
        raise NotImplementedError

    def record(self, timings: bool = False) -> dict:
        """The claim as data: what ``derive check`` prints and the site's index shows.

        ``checked`` is the LaTeX of what was checked, printed from lhs and rhs (``statement`` is the same, kept
        for readers of older records); ``scope`` says for which sizes (``"every size"``, ``"d=2, m=2, n=2"``, or
        ``""`` for a scalar statement), ``scope_tex`` the whole domain; ``paper`` the docs/paper.md items; ``caption``
        a few words of LaTeX shown beside the equation, never instead of it.
        """
        _, checked, scope_tex, scope = self._shown()
        out = {
            "id": self.identifier,
            "kind": self.kind,
            "title": self.title,
            "statement": checked,
            "checked": checked,
            "scope": scope,
            "scope_tex": scope_tex,
            "paper": list(self.paper),  # as given; the presentation reads the rest off the identifier
            "proves": [list(p) for p in self.proves],
            "reads_same": bool(getattr(self, "reads_same", False)),  # both sides, as shown, one expression
            "premise": getattr(getattr(self, "premise", None), "identifier", None),  # a chain's discharged premise
            "hypothesis": bool(getattr(self, "hypothesis", False)),  # an implication from a start no claim proves
            "caption": self.caption,
            "verdict": self.verdict.value,
            "expect": self.expect.value if self.expect else None,
            "uses": list(self.uses),
            "assume": [sp.sstr(c) for c in self.assume],
            "assume_tex": [printing.latex(c) for c in self.assume],
        }
        out.update(self.evidence.as_dict(timings=timings))
        out["second_opinion"] = opinion.record(self, timings)
        return out

    def _shown(self) -> tuple:
        """``(steps, body_tex, scope_tex, scope)``, printed once per statement and number of steps: what was stated
        is fixed, and a chain grows only by steps (its table, its record and its page print it two or three times)."""
        steps = len(getattr(self, "steps", ()))
        shown = self.__dict__.get("_shown_as")
        if shown is None or shown[0] != steps:
            scope_tex, scope = printing.scope(self.objects(), self.assume,
                                              conjunctions=getattr(self, "equations", False))
            shown = (steps, self.body_tex(), scope_tex, scope)
            self.__dict__["_shown_as"] = shown
        return shown

    def _repr_mimebundle_(self, include=None, exclude=None):
        return display.bundle(self)

    def __repr__(self):
        return f"<{self.kind} {self.identifier}: {self.verdict.value}>"

    def __str__(self):
        """Plain text: identifier, verdict, the statement (``sympy.sstr``, shortened) and how it was obtained."""
        return statement_text(self)


class Claim(Statement):
    """An equation ``lhs = rhs`` between SymPy expressions, matrices or matrix expressions."""

    kind = "claim"

    def __init__(self, identifier, lhs, rhs, *, assume=(), uses=(), expect=None, title="", statement=None, paper=(),
                 caption="", proves=(), where=None):
        at = f"claim({identifier!r})"
        require_expr(at, "lhs", lhs)
        require_expr(at, "rhs", rhs)
        lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
        _refuse_same_sides(at, lhs, rhs)
        self.definitions = definitions_of(at, where, lhs, rhs)
        self.shown = (lhs, rhs)  # as written, before the definitions are put in
        if self.definitions:
            try:
                lhs, rhs = (_witness.evaluate_at(side, dict(self.definitions)) for side in (lhs, rhs))
            except (ValueError, TypeError, ArithmeticError, sp.ShapeError) as exc:  # SymPy's own, in one line
                said = " ".join(str(exc).split()) or type(exc).__name__
                raise ValueError(f"{at}: where: the definitions cannot be put in ({shorten(said, 120)})") from None
            for side in (lhs, rhs):  # an inverse of a matrix given by where, with determinant 0: no value at all
                for node in (side.atoms(sp.Inverse) if isinstance(side, sp.Basic) else ()):
                    if isinstance(node.arg, sp.MatrixBase) and node.arg.is_square and node.arg.det() == 0:
                        raise ValueError(f"{at}: where: the inverse of {shorten(sp.sstr(node.arg), 60)} has no value "
                                         f"(its determinant is 0)")
        where = at
        _same_shape(where, lhs, rhs)
        if statement is not None and not isinstance(statement, str):
            raise TypeError(f"{where}: statement must be a LaTeX str, got {type(statement).__name__}")
        require_inert_tex(where, "statement", statement)
        self.lhs, self.rhs = lhs, rhs
        self.statement = statement  # shown as a caption beside the equation, never instead of it
        caption = caption or statement or ""
        if self.definitions:  # the assumptions speak of the values the definitions give, as the sides do
            assume = _defined_assumptions(where, assume, dict(self.definitions))
        super().__init__(identifier, uses=uses, expect=expect, title=title, assume=assume, paper=paper, caption=caption,
                         proves=proves)
        _wellformed.check_statement(where, lhs, rhs, *self.assume)
        _wellformed.refuse_unread_assumptions(where, _wellformed.names_in(*self.shown))  # (what where= put away)
        printing.refuse_alike_entries(where, *self.shown, lhs, rhs)

    def content(self) -> tuple:
        return (self.kind, self.lhs, self.rhs, self.assume, self.shown, self.definitions)

    @property
    def reads_same(self) -> bool:
        """Whether the two sides, as shown, print alike (``a b = a b``) though they were built apart (sides that
        are one expression are refused: :func:`_refuse_same_sides`), e.g. ``Mul(b, a, evaluate=False)`` beside
        ``a*b``: true, and it shows nothing."""
        lhs, rhs = self.shown
        return printing.latex(lhs) == printing.latex(rhs)

    def _denominators(self) -> list:
        """The divisors of both sides, as written (see :mod:`derive.kernel.wellformed`)."""
        if "_divisors" not in self.__dict__:
            found = []
            for side in (self.lhs, self.rhs, *self.shown):
                found += [d for d in written_divisors(side, self.definitions) if d not in found]
            self.__dict__["_divisors"] = found
        return self.__dict__["_divisors"]

    def _unmet(self) -> list:
        """The divisors' nonzero conditions that neither the symbols' assumptions nor ``assume`` settle."""
        return _wellformed.unmet_conditions(self._denominators(), self.assume)

    def body_tex(self, said: str = "") -> str:
        """The equation checked, printed from lhs and rhs (as written, then what they stand for: ``where``).

        ``said``: text beside the statement (a family's case, ``"d = 2, m = 2"``); a definition it already says
        (``d = 2``) is not said again after ``where``.
        """
        if not self.definitions:  # a free index counted from 1, unless an assumption names it
            named = set().union(*(sp.sympify(c).free_symbols for c in self.assume)) if self.assume else set()
            return printing.equation(*notation.free_indices_from_one(self.lhs, self.rhs, fixed=named))
        told = {" ".join(part.split()) for part in said.split(",")}
        sides = [_definition_sides(k, v) for k, v in self.definitions]
        kept = [pair for pair in sides if f"{notation.text(pair[0])} = {notation.text(pair[1])}" not in told]
        if not kept:
            return printing.equation(*self.shown)
        return printing.equation(*self.shown) + printing.WHERE + " " + r",\ ".join(
            printing.equation(*pair) for pair in kept)

    def objects(self) -> list:
        """The sides; with ``where``, also the symbols of the sides as written that the definitions put away (σ(e)
        with σ(t) = (−1)^t is 1 once put in, but the statement is still about e: its scope says for which e)."""
        out = [self.lhs, self.rhs]
        if self.definitions:
            keys = {key for key, _ in self.definitions}
            written = set().union(*(getattr(side, "free_symbols", set()) for side in self.shown))
            gone = written - set(getattr(self.lhs, "free_symbols", set())) - set(getattr(self.rhs, "free_symbols", set()))
            gone = sorted(gone - keys, key=sp.default_sort_key)
            if gone:
                out.append(sp.Tuple(*gone))
        return out

    @property
    def difference(self):
        """``lhs - rhs`` (a matrix for matrix claims)."""
        return self.lhs - self.rhs

    def symbols(self) -> list:
        """The free symbols of the claim, sorted by name (deterministic witness search)."""
        found = self.lhs.free_symbols | self.rhs.free_symbols
        for c in self.assume:
            found |= c.free_symbols
        return sorted(found, key=lambda s: s.name)

    # -- proving ------------------------------------------------------------------------------------------
    def prove(self, strategies=None, *, budget: float = DEFAULT_SECONDS, instance_of=None, mapping=None):
        """Reduce ``lhs - rhs`` to zero by exact rules, cheapest first; the evidence names the strategy.

        ``instance_of=general, mapping={...}``: proved as a named instance of an already proved claim, when
        substituting ``mapping`` into the general claim's difference gives this one's exactly (by expand).
        ``budget``: wall-clock seconds for the whole attempt (each strategy runs within what is left).
        A statement with a divisor (``1/u``, a matrix inverse) is proved only where the divisor is nonzero:
        the symbols' assumptions or ``assume`` must say so, or the claim stays unproven and says what it needs.

        >>> import derive, sympy as sp
        >>> a, b = sp.symbols("a b", real=True)
        >>> derive.claim("doc.square", (a + b)**2, a**2 + 2*a*b + b**2).prove().verdict
        <Verdict.PROVED: 'proved'>
        """
        budget = seconds_value(f"claim {self.identifier}: prove", budget)
        if strategies is not None and (isinstance(strategies, str) or not all(isinstance(n, str) for n in strategies)):
            raise TypeError(f"claim {self.identifier}: strategies must be a list of names, got {strategies!r:.60}")
        start = time.perf_counter()
        why_not = "no strategy reduced lhs - rhs to zero"
        if instance_of is not None:
            self._check_instance(instance_of, mapping or {})
        try:
            with time_budget(budget), sums.exact():
                unmet = self._unmet()
                if instance_of is not None:  # the values put in need their divisors nonzero, as a chain's do (a
                    # function's, where the general claim applies it)
                    needs = _witness.value_divisors(mapping or {},
                                                    (instance_of.lhs, instance_of.rhs, *instance_of.assume))
                    unmet += [c for c in _wellformed.unmet_conditions(needs, self.assume) if c not in unmet]
                if unmet:
                    result = None, "", []
                    why = ("derive cannot tell where these parts have a value"
                           if all(isinstance(c, _wellformed.defined) for c in unmet)
                           else "a divisor must be nonzero, the matrix of an inverse invertible")
                    why_not = (f"needs {', '.join(sp.sstr(c) for c in unmet)}, which neither the symbols' "
                               f"assumptions nor assume give ({why})")
                elif instance_of is not None:
                    result = self._prove_instance(instance_of, mapping or {})
                else:
                    result = self._prove_components(strategies, budget)
                    if result[0] is None and len(result) > 3 and result[3] is not None:
                        why_not = (f"needs {sp.sstr(result[3])}, which neither the symbols' assumptions nor assume "
                                   f"give (lhs - rhs is zero in those cases only)")
                    result = result[:3]
        except OutOfTime as exc:
            if exc.outer:  # the caller's budget ran out: stop, do not report this attempt as done
                raise
            result = None, "", [str(exc)]
            why_not = f"out of time after {exc.seconds:.3g} s (the budget of this prove)"
        name, detail, attempts = result
        seconds = time.perf_counter() - start
        if name is not None:
            self._guard(Verdict.PROVED)
            self._set(Verdict.PROVED, Evidence(strategy=name, detail=detail, seconds=seconds, attempts=tuple(attempts)))
            opinion.review_claim(self, seconds=_left(budget, start))
        elif self.verdict is Verdict.UNPROVEN:  # a failed proof does not take away a numeric check's evidence
            self._set(Verdict.UNPROVEN, Evidence(strategy="", detail=why_not, seconds=seconds, attempts=tuple(attempts)))
        return self._settle(Verdict.PROVED)

    def _prove_components(self, names, budget):
        diff = self.difference
        comps = _witness.components(diff)
        used: dict[str, int] = {}
        details = []
        attempts = []
        for index, comp in comps:
            comp, decided = _cases.read(comp, self.assume)  # a case the assumptions decide is read as decided
            name, detail, tried = _strategies.prove_zero(comp, names, budget)
            attempts.extend(tried)
            if name is None:
                where = "" if index is None else f" at component {_witness.component_name(index)}"
                attempts.append(f"failed{where}")
                need = _cases.wanted(comp, lambda e: _strategies.prove_zero(e, names, budget)[0] is not None)
                return None, "", attempts, need
            if decided:
                detail += "; by assume, " + ", ".join(f"{sp.sstr(c)} is {str(v).lower()}" for c, v in decided)
            used[name] = used.get(name, 0) + 1
            if detail not in details:
                details.append(detail)
        if len(comps) == 1:
            return name, details[0], attempts
        label = "+".join(used)
        summary = ", ".join(f"{n} ×{k}" for n, k in used.items())
        detail = f"{summary} over {len(comps)} components" if len(details) > 1 else f"{details[0]}, all {len(comps)} components"
        return label, detail, attempts

    def _check_instance(self, general, mapping):
        """Refuse a mapping that does not give an instance of ``general`` (one line, naming the problem)."""
        if not isinstance(general, Claim):
            raise TypeError(f"claim {self.identifier}: instance_of must be a Claim, got {type(general).__name__}")
        where = f"claim {self.identifier}: instance of {general.identifier}"
        if not isinstance(mapping, dict):
            raise TypeError(f"{where}: mapping must be a dict of symbol -> value, got {type(mapping).__name__}")
        for key, value in mapping.items():
            problem = _witness.instance_problem(key, value, general.difference)
            if problem is not None:
                raise ValueError(f"{where}: {problem}")

        for cond in general.assume:  # the general claim holds only where its assumptions do
            held = _witness.evaluate_at(cond, mapping)
            if held is not sp.true and held not in self.assume:
                raise ValueError(f"{where}: it assumes {sp.sstr(cond)}, which is not known to hold here "
                                 f"(it becomes {sp.sstr(held)})")

    def _prove_instance(self, general, mapping):
        self._check_instance(general, mapping)
        if general.verdict is not Verdict.PROVED:
            return None, "", [f"instance: {general.identifier} is not proved"]
        diff = _witness.evaluate_at(general.difference, mapping)
        rest = sp.expand(diff - self.difference) if not isinstance(diff, sp.MatrixBase) else (diff - self.difference).applyfunc(sp.expand)
        if rest == 0 or (isinstance(rest, sp.MatrixBase) and rest.is_zero_matrix):
            subs = ", ".join(f"{k} := {sp.sstr(v)}" for k, v in mapping.items())
            self._add_uses((general.identifier,))
            return "instance", f"instance of {general.identifier} with {subs}", ["instance: yes"]
        return None, "", ["instance: the substituted statement differs"]

    def _guard(self, new: Verdict):
        settled = {Verdict.PROVED, Verdict.REFUTED}
        if self.verdict in settled and new in settled and new is not self.verdict:
            raise SoundnessError(f"claim {self.identifier} is both proved and refuted: a kernel bug")

    # -- refuting -----------------------------------------------------------------------------------------
    def refute(self, witness=None, *, tries: int = 300, budget: float = DEFAULT_SECONDS):
        """Find (or take) an exact witness at which ``lhs - rhs`` is certified nonzero.

        ``witness`` maps symbols to exact numbers (int, Fraction, Rational) and undefined functions to
        ``Lambda`` objects meeting the functions' assumptions; with ``None``, small signed rationals respecting
        the assumptions are searched. At the witness every divisor of the statement must be certified nonzero.
        ``budget``: wall-clock seconds for the whole search.

        >>> import derive, sympy as sp
        >>> a, b = sp.symbols("a b", real=True)
        >>> relu = derive.activation("relu")
        >>> c = derive.claim("doc.relu_exchange", relu(a) * b, relu(b) * a).refute()
        >>> c.verdict, c.evidence.witness
        (<Verdict.REFUTED: 'refuted'>, {'a': '1', 'b': '-1'})
        """
        where = f"claim {self.identifier}"
        budget = seconds_value(f"{where}: refute", budget)
        if isinstance(tries, bool) or not isinstance(tries, int) or tries < 0:
            raise TypeError(f"{where}: tries must be a whole number >= 0, got {tries!r}")
        start = time.perf_counter()
        diff = self.difference
        if isinstance(diff, MatrixExpr) and not isinstance(diff, sp.MatrixBase):
            raise TypeError(f"claim {self.identifier}: refute needs explicit matrices, not matrix symbols")
        try:
            with time_budget(budget), sums.exact():
                found, how = self._find_witness(where, diff, witness, tries)
        except OutOfTime as exc:
            if exc.outer:  # the caller's budget ran out: stop, do not report this attempt as done
                raise
            found, how = None, f"out of time after {exc.seconds:.3g} s (the budget of this refute)"
        seconds = time.perf_counter() - start
        if found is not None:
            self._guard(Verdict.REFUTED)
            self._set(Verdict.REFUTED, _refutation(found, how, seconds))
            opinion.review_claim(self, found, seconds=_left(budget, start))
        elif self.verdict is Verdict.UNPROVEN:
            detail = how if how.startswith("out of time") else "no certified witness found"
            self._set(Verdict.UNPROVEN, Evidence(strategy="", detail=detail, seconds=seconds))
        return self._settle(Verdict.REFUTED)

    def _find_witness(self, where, diff, witness, tries):
        denominators = self._denominators()
        if witness is not None:
            if not isinstance(witness, dict):
                raise TypeError(f"{where}: witness must be a dict, got {type(witness).__name__}")
            exact = {}
            defined = [k for k in witness if k in dict(self.definitions)]
            if defined:
                raise ValueError(f"{where}: the witness gives {', '.join(map(sp.sstr, defined))}, which where= defines; "
                                 f"a witness gives values only to the claim's free symbols")
            for k, v in witness.items():
                if isinstance(k, sp.Symbol):
                    exact[k] = _witness.exact_value(where, k, v)
                elif isinstance(k, UndefinedFunction):
                    problem = _witness.instance_problem(k, v, diff)
                    if problem is not None:
                        raise ValueError(f"{where}: {problem}")
                    exact[k] = v
                else:
                    raise TypeError(f"{where}: witness keys must be symbols (or undefined functions such as sigma mapped to Lambdas), got {k!r}")
            funcs = [f for f in _witness.undefined_functions(diff) if f not in exact]
            missing = [s for s in self.symbols() if s not in exact]
            if missing or funcs:
                names = ", ".join(str(s) for s in [*missing, *funcs])
                raise ValueError(f"{where}: the witness gives no value for {names}")
            functions = {k: v for k, v in exact.items() if isinstance(k, UndefinedFunction)}
            if functions:  # a function given has no value where its body divides by zero, though SymPy may cancel it
                # (and where the assumptions apply it: a point where one has no value is outside the claim)
                denominators = denominators + [d for d in _witness.function_divisors(
                    (self.lhs, self.rhs, *self.shown, *self.assume), functions) if d not in denominators]
            try:
                return _witness.certify_witness(diff, exact, self.assume, denominators), "given witness"
            except ValueError as exc:
                raise ValueError(f"{where}: {exc}") from None
        funcs = _witness.undefined_functions(diff)
        if funcs:
            names = ", ".join(f.__name__ for f in funcs)
            raise ValueError(f"{where}: cannot search a witness over the undefined function {names}; give one")
        try:
            found = _witness.search(diff, self.symbols(), self.assume, tries=tries, seed_text=self.identifier,
                                    denominators=denominators)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        return found, "searched witness"

    # -- numeric evidence ---------------------------------------------------------------------------------
    def check(self, points: int = 12, *, budget: float = DEFAULT_SECONDS):
        """Compare both sides at seeded exact random points: ``checked`` is evidence, never proof.

        An undefined σ is replaced by test functions that meet its assumptions. A disagreement is certified and
        becomes a refutation; a disagreement that cannot be certified leaves no verdict and says where it was.
        ``budget``: wall-clock seconds for the whole check.
        """
        where = f"claim {self.identifier}"
        budget = seconds_value(f"{where}: check", budget)
        if isinstance(points, bool) or not isinstance(points, int) or points < 1:
            raise TypeError(f"{where}: points must be a whole number >= 1, got {points!r}")
        diff = self.difference
        if _of_matrix_symbols(diff):
            raise TypeError(f"{where}: check needs explicit matrices, not matrix symbols")
        start = time.perf_counter()
        funcs = _witness.undefined_functions(diff)
        try:
            with time_budget(budget), sums.exact():
                seen = _witness.sample(diff, self.symbols(), funcs, points, self.identifier, self.assume,
                                       self._denominators())
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        except OutOfTime as exc:
            if exc.outer:  # the caller's budget ran out: stop, do not report this attempt as done
                raise
            seen = None
            out = f"out of time after {exc.seconds:.3g} s (the budget of this check)"
        seconds = time.perf_counter() - start
        if seen is not None and seen.found is not None:
            self._guard(Verdict.REFUTED)
            self._set(Verdict.REFUTED, _refutation(seen.found, "numeric check, then certified", seconds))
            opinion.review_claim(self, seen.found, seconds=_left(budget, start))
        elif not self.verdict.is_certain:
            if seen is None:
                self._set(Verdict.UNPROVEN, Evidence(strategy="", detail=out, seconds=seconds))
            elif seen.uncertified:
                self._set(Verdict.UNPROVEN, Evidence(strategy="", detail=seen.uncertified, seconds=seconds))
            elif seen.used == 0 and seen.unevaluated:
                self._set(Verdict.UNPROVEN, Evidence(strategy="", seconds=seconds, detail=(
                    f"no sample point could be used: at "
                    f"{'the one' if seen.unevaluated == 1 else f'the {seen.unevaluated}'} that "
                    f"meet{'s' * (seen.unevaluated == 1)} the assumptions, the sides could not be evaluated exactly")))
            elif seen.used == 0:
                raise ValueError(f"{where}: no sample point satisfies the assumptions")
            else:
                stand_in = " (σ replaced by test functions)" if funcs else ""
                skipped = (f"; {seen.unevaluated} more point{'s' * (seen.unevaluated != 1)} passed over, where the "
                           f"sides could not be evaluated exactly") if seen.unevaluated else ""
                self._set(Verdict.CHECKED, Evidence(
                    strategy="numeric",
                    detail=f"agrees at {seen.used} seeded rational point{'s' * (seen.used != 1)}{stand_in}, "
                           f"max |lhs - rhs| = {seen.worst:.1e}{skipped}",
                    seconds=seconds,
                ))
        return self._settle(Verdict.CHECKED)

    def decide(self, *, budget: float = DEFAULT_SECONDS):
        """Prove, else refute, else check: the strongest verdict the kernel can reach within ``budget`` seconds."""
        budget = seconds_value(f"claim {self.identifier}: decide", budget)
        deadline = time.monotonic() + budget

        def left():
            return max(deadline - time.monotonic(), 1e-3)

        def time_left():  # (an attempt is not started in the last moment: the one before says it ran out of time)
            return deadline - time.monotonic() > 0.01

        self._attempt(lambda: self.prove(budget=left()))
        if self.verdict is Verdict.PROVED:
            return self._settle(self.expect or Verdict.PROVED)
        symbolic = isinstance(self.difference, MatrixExpr) and not isinstance(self.difference, sp.MatrixBase)
        # (no rational value is transcendental, and no test function integer-valued: nothing to search or sample)
        sampled = not _witness.unsampled(self.symbols()) and not _witness.unsampled_functions(self.difference)
        if not _witness.undefined_functions(self.difference) and not symbolic and sampled and time_left():
            self._attempt(lambda: self.refute(budget=left()))
        if not self.verdict.is_certain and not _of_matrix_symbols(self.difference) and sampled and time_left():
            # (samples only where no divisor is zero)
            self._attempt(lambda: self.check(budget=left()))
        return self._settle(self.expect or Verdict.PROVED)

    def _attempt(self, run):
        """Run one attempt without its expectation check: ``decide`` settles once, at the end."""
        expect = self.__dict__["expect"]
        self.__dict__["expect"] = None
        try:
            run()
        finally:
            self.__dict__["expect"] = expect


def _defined_assumptions(where, assume, definitions) -> tuple:
    """``assume`` with the ``where=`` definitions put in: ``n > 5`` where ``n = 3`` is no assumption about another n
    (the witness search took one, n = 21, and printed it beside a residual worked out at n = 3). One that becomes
    false is refused: the claim would say nothing; one that becomes true is dropped."""
    if isinstance(assume, (sp.Basic, bool, str, dict)) or not hasattr(assume, "__iter__"):
        return assume  # (refused, in one line, by the statement's own check)
    conditions = list(assume)  # (a frozenset or a generator too)
    for key, value in definitions.items():  # a function put into them must be one of their arguments too
        problem = _witness.variable_problem(key, value, conditions) if isinstance(key, UndefinedFunction) else None
        if problem is not None:
            raise ValueError(f"{where}: where: {problem}")
    out = []
    for cond in conditions:
        if not isinstance(cond, sp.Basic):
            out.append(cond)
            continue
        try:
            held = _witness.evaluate_at(cond, definitions)
        except (ValueError, TypeError, ArithmeticError, sp.ShapeError) as exc:  # SymPy's own, in one line
            said = " ".join(str(exc).split()) or type(exc).__name__
            raise ValueError(f"{where}: where: the definitions cannot be put into the assumption {sp.sstr(cond)} "
                             f"({shorten(said, 100)})") from None
        if held is sp.false:
            raise ValueError(f"{where}: the assumption {sp.sstr(cond)} is false with the where= definitions put in: "
                             f"the claim would say nothing")
        if held is not sp.true:
            out.append(held)
        # where a value put in has none (a function's body, a symbol's value) the assumption has none: such a point is
        # outside the claim (SymPy may cancel what it divides by, or find the assumption true, once it is put in)
        for d in _witness.divisors_at(cond, definitions):
            if isinstance(d, _wellformed.defined):
                raise ValueError(f"{where}: where: derive cannot tell where the assumption {sp.sstr(cond)} has a value "
                                 f"with the definitions put in ({sp.sstr(d)})")
            need = sp.Ne(d, 0)
            if need is sp.false:
                raise ValueError(f"{where}: the assumption {sp.sstr(cond)} has no value with the where= definitions "
                                 f"put in (it divides by {sp.sstr(d)}): the claim would say nothing")
            if need is not sp.true and need not in out:
                out.append(need)
    return tuple(out)


def _of_matrix_symbols(diff) -> bool:
    """Whether ``diff`` is about matrix symbols (a matrix expression, or a scalar such as a trace of one): it has no
    value at a point of its scalars, so it is not sampled."""
    return (isinstance(diff, MatrixExpr) and not isinstance(diff, sp.MatrixBase)) or (
        isinstance(diff, sp.Basic) and bool(diff.atoms(sp.MatrixSymbol)))


def _refuse_same_sides(where, lhs, rhs) -> None:
    """Raise ValueError when the two sides, as built, are one expression (``==``: the same SymPy object, matrix or
    matrix expression; SymPy has already made ``a + b`` and ``b + a`` one) shown alike (an explicit matrix built by
    ``derive.row``/``derive.matrix`` is shown by what it was built from, its shadow: ``x Kᵀ`` beside its entries is
    not the same side): such a claim shows nothing, ``x = x``. With ``where``, the sides as written are compared,
    before the definitions are put in."""
    try:
        same = lhs == rhs
    except RecursionError:  # nested deeper than SymPy compares: refused as such by the well-formedness checks
        return
    shadow = printing.display_of(lhs) if same else None
    if same and shadow == printing.display_of(rhs):
        side = lhs if shadow is None else shadow
        raise ValueError(f"{where}: both sides read the same as built ({shorten(sp.sstr(side), 60)}), so the claim "
                         f"shows nothing; write it as the paper writes it, before σ or a count is evaluated, with "
                         f"where= (e.g. sigma(a)*b, sigma(b)*a, where={{sigma: Lambda(z, c*z)}})")


def _same_size(p, q) -> bool:
    """Two sizes are the same when they are one expression, or small ones whose difference expands to zero."""
    p, q = sp.sympify(p), sp.sympify(q)
    if p == q:
        return True
    if sp.count_ops(p) + sp.count_ops(q) > 40 or any(isinstance(e, sp.Pow) and e.exp.is_Integer and e.exp > 4
                                                     for e in (p - q).atoms(sp.Pow)):
        return False  # refused as different rather than expanded without bound
    return sp.expand(p - q) == 0


def _same_shape(where, lhs, rhs) -> None:
    """Both sides must have one shape: scalars, or matrices whose sizes agree for every value of their symbols."""
    lshape, rshape = (e.shape if isinstance(e, (sp.MatrixBase, MatrixExpr)) else None for e in (lhs, rhs))
    if lshape is None and rshape is None:
        return
    if lshape is None or rshape is None or not all(_same_size(p, q) for p, q in zip(lshape, rshape)):
        shown = [("scalar" if s is None else f"{sp.sstr(s[0])}x{sp.sstr(s[1])}") for s in (lshape, rshape)]
        raise ValueError(f"{where}: lhs and rhs must have the same shape, got {shown[0]} and {shown[1]}")


def _left(budget, start) -> float | None:
    """What is left of ``budget`` seconds (``None``: no limit) since ``start`` (on time.perf_counter())."""
    return None if budget is None else budget - (time.perf_counter() - start)


#: a residual's LaTeX longer than this is not kept for typesetting (its text, cut to a line, is); a rational one
#: reads as its text
_RESIDUAL_TEX = 400


def _refutation(found, how, seconds) -> Evidence:
    cert = found.certificate
    shown = {getattr(k, "__name__", None) or sp.sstr(k): short_text(v)  # (a symbol, an entry y[1], a function)
             for k, v in found.witness.items()}
    where = "" if found.component is None else f" (component {_witness.component_name(found.component)})"
    plain = isinstance(found.residual, sp.Rational) or cert.value.startswith("an exact")  # reads as it is
    tex = "" if plain else printing.latex(found.residual)
    return Evidence(
        strategy="exact witness",
        detail=("exact" if cert.method == "exact" else cert.method) + f", {how}{where}",
        witness=shown,
        residual=cert.value,
        enclosure=cert.enclosure,
        residual_tex=tex if len(tex) <= _RESIDUAL_TEX else "",
        seconds=seconds,
        values=dict(found.witness),
    )


def written_divisors(side, definitions=()) -> list:
    """The divisors of ``side`` as it is written and shown: its own, those of the shadow it prints as (a shown
    matrix), and, with ``definitions`` (``where``), those of the definitions where they are put in, which SymPy may
    cancel once they are (:func:`derive.kernel.witness.divisors_at`)."""
    found = _witness.divisors_at(side, dict(definitions)) if definitions else _wellformed.denominators(side)
    return found + [d for d in printing.shadow_divisors(side) if d not in found]


def definitions_of(at, where, lhs, rhs) -> tuple:
    """``where`` as ``((key, value), ...)``: each key a symbol or an undefined function of the sides, each value
    exact (a function's value a ``Lambda`` of as many variables)."""
    if where is None:
        return ()
    if not isinstance(where, dict) or not where:
        raise TypeError(f"{at}: where must be a non-empty dict of what symbols or functions stand for, got {where!r:.60}")
    present = lhs.free_symbols | rhs.free_symbols | {f.func for f in (lhs.atoms(AppliedUndef) | rhs.atoms(AppliedUndef))}
    sizes = _witness.symbol_values(where)  # put into a matrix symbol's shape (each value is checked below)
    out = []
    for key, value in where.items():
        if isinstance(key, sp.Lambda) and isinstance(key.expr, AppliedUndef) and key.expr.args == key.variables:
            key = key.expr.func  # the generic activation, Lambda(z, σ(z)): the function σ itself
        if isinstance(key, sp.Symbol):
            require_expr(at, f"where[{key}]", value)
            value = sp.sympify(value)
        elif isinstance(key, UndefinedFunction):
            if not isinstance(value, sp.Lambda):
                raise TypeError(f"{at}: where[{key.__name__}] must be a Lambda (the function's definition), got "
                                f"{type(value).__name__}")
            arities = {len(f.args) for side in (lhs, rhs) for f in side.atoms(AppliedUndef) if f.func == key}
            if arities - {len(value.variables)}:
                raise ValueError(f"{at}: where[{key.__name__}] is a Lambda of {len(value.variables)} variables, but "
                                 f"{key.__name__} is applied to {', '.join(map(str, sorted(arities)))}")
        elif isinstance(key, sp.MatrixSymbol):  # a matrix of the sides: an explicit matrix or a FunctionMatrix
            value = _matrix_definition(at, key, value, sizes)
        else:
            raise TypeError(f"{at}: where names symbols, matrix symbols or undefined functions, got {key!r:.60}")
        if key not in present:
            raise ValueError(f"{at}: where defines {key if isinstance(key, sp.Symbol) else key.__name__}, which "
                             f"neither side contains")
        if any(key in (getattr(side, "leaves", None) or {}) for side in (lhs, rhs)):  # one name, two matrices
            raise ValueError(f"{at}: where defines {key}, and a shown matrix of the sides prints as {key} too; "
                             f"give them different names")
        _wellformed.refuse_inexact(at, value)
        if isinstance(key, sp.Symbol):  # what its symbol assumes, its value must meet (m positive is never -1)
            problem = _witness.instance_problem(key, value)
            if problem is not None:
                raise ValueError(f"{at}: where: {problem}")
        if isinstance(key, UndefinedFunction):  # (first: a body that would capture a symbol is no function of it)
            try:
                _witness.refuse_capture(sp.Tuple(lhs, rhs), {key: value})
            except ValueError as exc:
                raise ValueError(f"{at}: where: {exc}") from None
            problem = _witness.variable_problem(key, value, (lhs, rhs))  # (floor t for an integer t is t: at ½ it is not)
            if problem is not None:
                raise ValueError(f"{at}: where: {problem}")
        if isinstance(key, UndefinedFunction) and len(value.variables) == 1 and _witness.function_facts(key):
            # so must a function's (σ declared real is real at every real argument: σ := t ↦ t·√(3 − t) is not,
            # and a witness at t = 4 refuted with a complex residual what holds wherever σ is real)
            problem = _witness.function_problem(key, value, (lhs, rhs))
            if problem is not None:
                raise ValueError(f"{at}: where: {problem}")
        out.append((key, value))
    _refuse_mentions(at, out)
    return tuple(out)


def _refuse_mentions(at, definitions) -> None:
    """Each value of ``where`` is written without what ``where`` defines: all are put in at once, never into one
    another, so ``{n: m + 1, m: 2}`` would leave the m of n's value free (and a statement true for m = 2 refuted)."""
    keys = {key for key, _ in definitions}
    for key, value in definitions:
        used = set(value.free_symbols) | {f.func for f in value.atoms(AppliedUndef)}
        hit = sorted(map(str, (keys & used)))
        if hit:
            name = key if isinstance(key, (sp.Symbol, sp.MatrixSymbol)) else key.__name__
            raise ValueError(f"{at}: where[{name}] uses {', '.join(hit)}, which where also defines: write each value "
                             f"without the others (they are put in at once, not into one another)")


def _matrix_definition(at, key, value, sizes):
    """``value`` as the definition of the matrix symbol ``key``: an explicit matrix or a ``FunctionMatrix`` of
    ``key``'s shape, with the definitions of symbols ``sizes`` put in, whose entries are known to be real (a matrix
    symbol stands for a real matrix). The definitions are put into everything but the values themselves, so
    ``where={n: 2, A: F}`` makes ``A`` a 2 x 2 matrix, which an n x n ``F`` is not."""
    if isinstance(value, sp.MatrixBase):
        value, entries = sp.ImmutableMatrix(value), list(value)
    elif isinstance(value, sp.FunctionMatrix) and isinstance(value.lamda, sp.Lambda) and len(value.lamda.variables) == 2:
        i, j = sp.symbols("i j", integer=True, nonnegative=True, cls=sp.Dummy)
        entries = [value.lamda(i, j)]
    else:
        raise TypeError(f"{at}: where[{key}] must be an explicit matrix or a FunctionMatrix, got {type(value).__name__}")
    shape = tuple(sp.sympify(size).xreplace(sizes) for size in key.shape)
    if any(sp.expand(sp.sympify(a) - sp.sympify(b)) != 0 for a, b in zip(value.shape, shape)):
        told = f" where {', '.join(f'{k} = {v}' for k, v in sizes.items())}" if shape != key.shape else ""
        raise ValueError(f"{at}: where[{key}] has shape {sp.sstr(value.shape)}, {key} has shape {sp.sstr(shape)}{told}")
    for e in entries:
        if not (isinstance(e, sp.Expr) and _wellformed.real(e)):
            raise ValueError(f"{at}: where[{key}] has the entry {sp.sstr(e)[:40]}, not known to be real")
    return value


def _definition_sides(key, value) -> tuple:
    """``(σ(z), value at z)`` for a function, ``(N, value)`` for a symbol: a definition as an equation."""
    if isinstance(key, (sp.Symbol, sp.MatrixSymbol)):
        return key, value
    return key(*value.variables), value.expr


def claim(identifier, lhs, rhs, *, assume=(), uses=(), expect=None, title="", statement=None, paper=(),
          caption="", proves=(), where=None) -> Claim:
    """State ``lhs = rhs`` as a claim; nothing is tried until ``.prove()``, ``.refute()``, ``.check()``.

    Parameters
    ----------
    identifier : a stable dotted name, e.g. ``"rank1.score_factorizes"``
    lhs, rhs : SymPy expressions, matrices or matrix expressions of the same shape
    assume : SymPy conditions restricting the domain (beyond the symbols' own assumptions)
    uses : identifiers (or claims) this claim rests on
    expect : the verdict it should get (e.g. ``Verdict.REFUTED`` for a statement expected to fail)
    title : a few words for readers; ``caption`` : LaTeX shown beside the equation (``statement`` is read as a
        caption too): the equation shown is always ``lhs = rhs`` as checked, printed from the two sides
    paper : the docs/paper.md items the claim belongs to, e.g. ``"5.3"`` or ``["5.3", "6.1"]``
    proves : which direction of which item its conclusion is, e.g. ``("5.3", "⇒")``, or ``"1.1"`` for a one-way
        item (the audit reads only this: a direction's scope is the narrowest of the claims that prove it and of
        everything they rest on)
    where : what symbols or undefined functions of the sides stand for, e.g. ``{sigma: sp.Lambda(z, c*z)}`` or
        ``{N: 12}``: the claim is shown as written, with the definitions beside it, and checked with them put in
        (a claim whose sides SymPy has already made one expression shows nothing, and is refused)

    >>> import derive, sympy as sp
    >>> a, b, c, z = sp.symbols("a b c z", real=True)
    >>> s = derive.sigma
    >>> derive.claim("doc.where", s(a) * b, s(b) * a, where={s: sp.Lambda(z, c * z)}).prove().verdict
    <Verdict.PROVED: 'proved'>
    >>> derive.claim("doc.same", a * b, b * a)  # SymPy has made both sides a*b
    Traceback (most recent call last):
    ...
    ValueError: claim('doc.same'): both sides read the same as built (a*b), so the claim shows nothing; write it as the paper writes it, before σ or a count is evaluated, with where= (e.g. sigma(a)*b, sigma(b)*a, where={sigma: Lambda(z, c*z)})

    Examples
    --------
    >>> import derive, sympy as sp
    >>> a = sp.Symbol("a", real=True)
    >>> c = derive.claim("doc.relu_homogeneous", derive.activation("relu")(2*a), 2*derive.activation("relu")(a))
    >>> c.prove().evidence.strategy
    'sign-split'
    """
    return Claim(identifier, lhs, rhs, assume=assume, uses=uses, expect=expect, title=title, statement=statement,
                 paper=paper, caption=caption, proves=proves, where=where)
