"""Claims: an equation ``lhs = rhs`` with an identifier, assumptions, what it uses, and a verdict with evidence.

``claim(...)`` states it; ``.prove()``, ``.refute()`` and ``.check()`` try to settle it; ``.decide()`` tries
them in that order. When the claim carries an expected verdict, a different outcome raises
:class:`ExpectationError` naming the claim, so a notebook that no longer shows what it says fails.
"""
from __future__ import annotations

import time

import sympy as sp
from sympy.core.function import UndefinedFunction
from sympy.matrices.expressions import MatrixExpr

from . import registry, render, second
from . import strategies as _strategies
from . import witness as _witness
from ._validate import require_expr, require_identifier
from .verdict import Evidence, Verdict

__all__ = ["Claim", "Statement", "claim", "ExpectationError", "SoundnessError"]


class ExpectationError(AssertionError):
    """A claim's verdict differs from the verdict it was expected to get."""


class SoundnessError(RuntimeError):
    """A claim was both proved and refuted: a bug in the kernel, never to be ignored."""


def _ids(where, uses) -> tuple[str, ...]:
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


class Statement:
    """What claims and chains share: identity, expectation, registry, rendering."""

    kind = "statement"

    def __init__(self, identifier, *, uses=(), expect=None, title="", assume=()):
        where = f"{self.kind}({identifier!r})"
        self.identifier = require_identifier(self.kind, identifier)
        self.uses = _ids(where, uses)
        self.expect = _expect(where, expect)
        if not isinstance(title, str):
            raise TypeError(f"{where}: title must be a str, got {type(title).__name__}")
        self.title = title
        self.assume = tuple(assume or ())
        for cond in self.assume:
            if not isinstance(cond, sp.logic.boolalg.Boolean) or isinstance(cond, sp.Symbol):  # a Symbol is a Boolean
                raise TypeError(f"{where}: assume must hold SymPy conditions such as a > 0, got {cond!r}")
        self.verdict = Verdict.UNPROVEN
        self.evidence = Evidence()
        registry.register(self)

    # -- expectations -------------------------------------------------------------------------------------
    def _settle(self, aimed: Verdict):
        """After an attempt aimed at ``aimed``: raise when the outcome contradicts the expected verdict."""
        if self.expect is None or self.verdict is self.expect:
            return self
        if self.verdict.is_certain or aimed is self.expect:
            raise ExpectationError(
                f"claim {self.identifier}: expected {self.expect.value}, got {self.verdict.value}"
                f" ({render.how(self.record())})"
            )
        return self

    @property
    def ok(self) -> bool:
        """True when there is no expectation or the verdict meets it."""
        return self.expect is None or self.verdict is self.expect

    # -- records and rendering ----------------------------------------------------------------------------
    def body_tex(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def record(self, timings: bool = False) -> dict:
        """The claim as data: what ``derive check`` prints and the site's index shows."""
        out = {
            "id": self.identifier,
            "kind": self.kind,
            "title": self.title,
            "statement": self.body_tex(),
            "verdict": self.verdict.value,
            "expect": self.expect.value if self.expect else None,
            "uses": list(self.uses),
            "assume": [sp.sstr(c) for c in self.assume],
            "assume_tex": [sp.latex(c) for c in self.assume],
        }
        out.update(self.evidence.as_dict(timings=timings))
        out["second_opinion"] = second.record(self, timings)
        return out

    def _repr_mimebundle_(self, include=None, exclude=None):
        data = render.mimebundle(self.record(), self.body_tex())
        return data, {render.MIME: {"seconds": round(self.evidence.seconds, 4)}}

    def __repr__(self):
        return f"<{self.kind} {self.identifier}: {self.verdict.value}>"


class Claim(Statement):
    """An equation ``lhs = rhs`` between SymPy expressions, matrices or matrix expressions."""

    kind = "claim"

    def __init__(self, identifier, lhs, rhs, *, assume=(), uses=(), expect=None, title="", statement=None):
        where = f"claim({identifier!r})"
        require_expr(where, "lhs", lhs)
        require_expr(where, "rhs", rhs)
        lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
        lshape = getattr(lhs, "shape", None)
        rshape = getattr(rhs, "shape", None)
        symbolic = [isinstance(e, MatrixExpr) and not isinstance(e, sp.MatrixBase) for e in (lhs, rhs)]
        if lshape != rshape and not any(symbolic):  # explicit matrices are MatrixExprs too: compare their shapes
            raise ValueError(f"{where}: lhs and rhs must have the same shape, got {lshape} and {rshape}")
        if statement is not None and not isinstance(statement, str):
            raise TypeError(f"{where}: statement must be a LaTeX str, got {type(statement).__name__}")
        self.lhs, self.rhs = lhs, rhs
        self.statement = statement
        super().__init__(identifier, uses=uses, expect=expect, title=title, assume=assume)

    def body_tex(self) -> str:
        return self.statement or render.statement_tex(self.lhs, self.rhs)

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
    def prove(self, strategies=None, *, budget: float = 5.0, instance_of=None, mapping=None):
        """Reduce ``lhs - rhs`` to zero by exact rules, cheapest first; the evidence names the strategy.

        ``instance_of=general, mapping={...}``: proved as a named instance of an already proved claim, when
        substituting ``mapping`` into the general claim's difference gives this one's exactly (by expand).

        >>> import derive, sympy as sp
        >>> a, b = sp.symbols("a b", real=True)
        >>> derive.claim("doc.square", (a + b)**2, a**2 + 2*a*b + b**2).prove().verdict
        <Verdict.PROVED: 'proved'>
        """
        start = time.perf_counter()
        if instance_of is not None:
            result = self._prove_instance(instance_of, mapping or {})
        else:
            result = self._prove_components(strategies, budget)
        name, detail, attempts = result
        seconds = time.perf_counter() - start
        if name is not None:
            self._guard(Verdict.PROVED)
            self.verdict = Verdict.PROVED
            self.evidence = Evidence(strategy=name, detail=detail, seconds=seconds, attempts=tuple(attempts))
            second.review_claim(self)
        elif not self.verdict.is_certain:
            self.verdict = Verdict.UNPROVEN
            self.evidence = Evidence(strategy="", detail="no strategy reduced lhs - rhs to zero",
                                     seconds=seconds, attempts=tuple(attempts))
        return self._settle(Verdict.PROVED)

    def _prove_components(self, names, budget):
        diff = self.difference
        comps = _witness.components(diff)
        used: dict[str, int] = {}
        details = []
        attempts = []
        for index, comp in comps:
            name, detail, tried = _strategies.prove_zero(comp, names, budget)
            attempts.extend(tried)
            if name is None:
                where = "" if index is None else f" at component {index}"
                attempts.append(f"failed{where}")
                return None, "", attempts
            used[name] = used.get(name, 0) + 1
            if detail not in details:
                details.append(detail)
        if len(comps) == 1:
            return name, details[0], attempts
        label = "+".join(used)
        summary = ", ".join(f"{n} ×{k}" for n, k in used.items())
        detail = f"{summary} over {len(comps)} components" if len(details) > 1 else f"{details[0]}, all {len(comps)} components"
        return label, detail, attempts

    def _prove_instance(self, general, mapping):
        if not isinstance(general, Claim):
            raise TypeError(f"claim {self.identifier}: instance_of must be a Claim, got {type(general).__name__}")
        where = f"claim {self.identifier}: instance of {general.identifier}"
        if not isinstance(mapping, dict):
            raise TypeError(f"{where}: mapping must be a dict of symbol -> value, got {type(mapping).__name__}")
        for key, value in mapping.items():
            problem = _witness.instance_problem(key, value)
            if problem is not None:
                raise ValueError(f"{where}: {problem}")

        for cond in general.assume:  # the general claim holds only where its assumptions do
            held = _witness.evaluate_at(cond, mapping)
            if held is not sp.true and held not in self.assume:
                raise ValueError(f"{where}: it assumes {sp.sstr(cond)}, which is not known to hold here "
                                 f"(it becomes {sp.sstr(held)})")
        if general.verdict is not Verdict.PROVED:
            return None, "", [f"instance: {general.identifier} is not proved"]
        diff = _witness.evaluate_at(general.difference, mapping)
        rest = sp.expand(diff - self.difference) if not isinstance(diff, sp.MatrixBase) else (diff - self.difference).applyfunc(sp.expand)
        if rest == 0 or (isinstance(rest, sp.MatrixBase) and rest.is_zero_matrix):
            subs = ", ".join(f"{k} := {sp.sstr(v)}" for k, v in mapping.items())
            if general.identifier not in self.uses:
                self.uses = self.uses + (general.identifier,)
            return "instance", f"instance of {general.identifier} with {subs}", ["instance: yes"]
        return None, "", ["instance: the substituted statement differs"]

    def _guard(self, new: Verdict):
        settled = {Verdict.PROVED, Verdict.REFUTED}
        if self.verdict in settled and new in settled and new is not self.verdict:
            raise SoundnessError(f"claim {self.identifier} is both proved and refuted: a kernel bug")

    # -- refuting -----------------------------------------------------------------------------------------
    def refute(self, witness=None, *, tries: int = 300):
        """Find (or take) an exact witness at which ``lhs - rhs`` is certified nonzero.

        ``witness`` maps symbols to exact numbers (int, Fraction, Rational) and undefined functions to
        ``Lambda`` objects; with ``None``, small signed rationals respecting the assumptions are searched.

        >>> import derive, sympy as sp
        >>> a, b = sp.symbols("a b", real=True)
        >>> relu = derive.activation("relu")
        >>> c = derive.claim("doc.relu_exchange", relu(a) * b, relu(b) * a).refute()
        >>> c.verdict, c.evidence.witness
        (<Verdict.REFUTED: 'refuted'>, {'a': '1', 'b': '-1'})
        """
        start = time.perf_counter()
        diff = self.difference
        if isinstance(diff, MatrixExpr) and not isinstance(diff, sp.MatrixBase):
            raise TypeError(f"claim {self.identifier}: refute needs explicit matrices, not matrix symbols")
        where = f"claim {self.identifier}"
        if witness is not None:
            if not isinstance(witness, dict):
                raise TypeError(f"{where}: witness must be a dict, got {type(witness).__name__}")
            exact = {}
            for k, v in witness.items():
                if isinstance(k, sp.Symbol):
                    exact[k] = _witness.exact_value(where, k, v)
                elif isinstance(k, UndefinedFunction) and isinstance(v, sp.Lambda):
                    exact[k] = v
                else:
                    raise TypeError(f"{where}: witness keys must be symbols (or undefined functions such as sigma mapped to Lambdas), got {k!r}")
            funcs = [f for f in _witness.undefined_functions(diff) if f not in exact]
            missing = [s for s in self.symbols() if s not in exact]
            if missing or funcs:
                names = ", ".join(str(s) for s in [*missing, *funcs])
                raise ValueError(f"{where}: the witness gives no value for {names}")
            found = _witness.certify_witness(diff, exact, self.assume)
            how = "given witness"
        else:
            funcs = _witness.undefined_functions(diff)
            if funcs:
                names = ", ".join(f.__name__ for f in funcs)
                raise ValueError(f"{where}: cannot search a witness over the undefined function {names}; give one")
            found = _witness.search(diff, self.symbols(), self.assume, tries=tries, seed_text=self.identifier)
            how = "searched witness"
        seconds = time.perf_counter() - start
        if found is not None:
            self._guard(Verdict.REFUTED)
            self.verdict = Verdict.REFUTED
            self.evidence = _refutation(found, how, seconds)
            second.review_claim(self, found)
        elif not self.verdict.is_certain:
            self.evidence = Evidence(strategy="", detail="no certified witness found", seconds=seconds)
        return self._settle(Verdict.REFUTED)

    # -- numeric evidence ---------------------------------------------------------------------------------
    def check(self, points: int = 12):
        """Compare both sides at seeded exact random points: ``checked`` is evidence, never proof.

        An undefined σ is replaced by test functions. A disagreement is certified and becomes a refutation.
        """
        start = time.perf_counter()
        diff = self.difference
        funcs = _witness.undefined_functions(diff)
        worst, used, found = _witness.sample(diff, self.symbols(), funcs, points, self.identifier, self.assume)
        seconds = time.perf_counter() - start
        if found is not None:
            self._guard(Verdict.REFUTED)
            self.verdict = Verdict.REFUTED
            self.evidence = _refutation(found, "numeric check, then certified", seconds)
            second.review_claim(self, found)
        elif not self.verdict.is_certain:
            if used == 0:
                raise ValueError(f"claim {self.identifier}: no sample point satisfies the assumptions")
            self.verdict = Verdict.CHECKED
            stand_in = " (σ replaced by test functions)" if funcs else ""
            self.evidence = Evidence(
                strategy="numeric",
                detail=f"agrees at {used} seeded rational points{stand_in}, max |lhs - rhs| = {worst:.1e}",
                seconds=seconds,
            )
        return self._settle(Verdict.CHECKED)

    def decide(self):
        """Prove, else refute, else check: the strongest verdict the kernel can reach."""
        expect, self.expect = self.expect, None
        try:
            self.prove()
            if self.verdict is not Verdict.PROVED and not _witness.undefined_functions(self.difference):
                if not (isinstance(self.difference, MatrixExpr) and not isinstance(self.difference, sp.MatrixBase)):
                    self.refute()
            if not self.verdict.is_certain and not isinstance(self.difference, MatrixExpr):
                self.check()
        finally:
            self.expect = expect
        return self._settle(self.expect or Verdict.PROVED)


def _refutation(found, how, seconds) -> Evidence:
    cert = found.certificate
    shown = {str(k) if isinstance(k, sp.Symbol) else k.__name__: sp.sstr(v) for k, v in found.witness.items()}
    where = "" if found.component is None else f" (component {found.component})"
    residual = cert.value if len(cert.value) <= 160 else cert.value[:157] + "..."
    return Evidence(
        strategy="exact witness",
        detail=("exact" if cert.method == "exact" else cert.method) + f", {how}{where}",
        witness=shown,
        residual=residual,
        enclosure=cert.enclosure,
        seconds=seconds,
    )


def claim(identifier, lhs, rhs, *, assume=(), uses=(), expect=None, title="", statement=None) -> Claim:
    """State ``lhs = rhs`` as a claim; nothing is tried until ``.prove()``, ``.refute()``, ``.check()``.

    Parameters
    ----------
    identifier : a stable dotted name, e.g. ``"rank1.score_factorizes"``
    lhs, rhs : SymPy expressions, matrices or matrix expressions of the same shape
    assume : SymPy conditions restricting the domain (beyond the symbols' own assumptions)
    uses : identifiers (or claims) this claim rests on
    expect : the verdict it should get (e.g. ``Verdict.REFUTED`` for a statement expected to fail)
    title : a few words for readers; ``statement`` : LaTeX to show instead of the full ``lhs = rhs``

    Examples
    --------
    >>> import derive, sympy as sp
    >>> a = sp.Symbol("a", real=True)
    >>> c = derive.claim("doc.relu_homogeneous", derive.activation("relu")(2*a), 2*derive.activation("relu")(a))
    >>> c.prove().evidence.strategy
    'sign-split'
    """
    return Claim(identifier, lhs, rhs, assume=assume, uses=uses, expect=expect, title=title, statement=statement)
