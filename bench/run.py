"""Benchmarks of the suite: prints figures measured side by side in one run, and writes a plot.

    .venv/bin/python bench/run.py [--limit SECONDS] [--plot PATH] [--max-d D]

1. kernel vs naive: every claim of the notebooks that is expected to be proved, proved by derive's strategies
   and by ``sympy.simplify(lhs - rhs) == 0`` under the same time limit (SymPy's cache cleared before each).
2. suite vs floor: ``derive check`` wall time against n_notebooks × (kernel start + imports) / cores, that is
   against launched kernels; also what one kernel forked by ``derive.kernels`` costs instead.
3. scaling in d: component-wise proofs for d = 2 … as long as each stays under the limit.
4. cold start: ``import derive`` and one ``derive classify``.
6. ratios (``--only ratios``): in a temporary clone of this checkout (its committed state), ``derive check``,
   ``make``'s command (``derive build``) and ``make test``'s command, one after the other, each timed; printed
   as the suite against its floor, ``make`` against ``derive check`` and ``make test`` against ``derive check``.
5. three-way (``--only three-way``): derive's kernel, Z3 alone, cvc5 alone, the two as the second opinion asks
   them (``derive.second``: Z3, then cvc5 where Z3 is outside) and naive ``sympy.simplify`` on the same claims, per
   class (polynomial, piecewise-linear, generic σ, every size, transcendental), and Z3's time against d.
7. the try page (``--only try``, after ``make``): boot, wheels, the first and a later verdict, and every notebook
   re-run in the page against its time in the notebooks.
8. a fresh clone (``--only fresh``): the README's two commands, ``make test`` then ``make``, each timed from nothing
   set up (``.venv`` created, packages installed, MathJax and Pyodide fetched).
Timings are figures to read, not assertions.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import sympy as sp
from sympy.core.cache import clear_cache
from sympy.matrices.expressions import MatrixExpr

import derive
from derive import forms
from derive.kernel import registry
from derive.kernel.budget import OutOfTime, time_budget
from derive.run.runner import find_notebooks, recorded_seconds

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def _timed(fn, limit):
    clear_cache()
    start = time.perf_counter()
    try:
        with time_budget(limit):
            ok = fn()
    except OutOfTime:
        return False, limit
    return ok, time.perf_counter() - start


# -- 1. kernel vs naive -----------------------------------------------------------------------------------
def notebook_claims(paths):
    """Run the notebooks' code in this process and collect the claims expected to be proved."""
    return [(nb, s) for nb, s in notebook_statements(paths)
            if isinstance(s, derive.Claim) and s.expect is derive.Verdict.PROVED and s.verdict is derive.Verdict.PROVED]


def notebook_statements(paths):
    """Run the notebooks' code in this process and collect every claim and chain they make."""
    import matplotlib

    matplotlib.use("Agg")
    found = []
    for path in paths:
        registry.clear()
        nb = nbformat.read(path, as_version=4)
        namespace = {"__name__": "__bench__", "display": lambda *args, **kwargs: None}
        here = os.getcwd()
        os.chdir(path.parent)
        try:
            for cell in nb.cells:
                if cell.cell_type != "code":
                    continue
                lines = [ln for ln in cell.source.splitlines() if not ln.lstrip().startswith(("%", "!"))]
                with contextlib.redirect_stdout(io.StringIO()):  # the notebooks' own printing
                    exec(compile("\n".join(lines), str(path.name), "exec"), namespace)
        finally:
            os.chdir(here)
        found += [(path.stem, s) for s in registry.statements()]
    return found


def _naive(claim):
    diff = claim.lhs - claim.rhs
    if isinstance(diff, sp.MatrixBase):
        return all(sp.simplify(e) == 0 for e in diff)
    if isinstance(diff, MatrixExpr):
        out = sp.simplify(diff.doit())
        return out == 0 or isinstance(out, sp.ZeroMatrix)
    return sp.simplify(diff) == 0


@contextlib.contextmanager
def _no_second_opinion():
    """The kernel timed on its own: no Z3 re-check inside the block."""
    saved = os.environ.get("DERIVE_SECOND_OPINION")
    os.environ["DERIVE_SECOND_OPINION"] = "0"
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("DERIVE_SECOND_OPINION", None)
        else:
            os.environ["DERIVE_SECOND_OPINION"] = saved


def _kernel(claim):
    """The kernel alone on the same statement: a fresh claim (a stated claim is fixed), no second opinion."""
    with _no_second_opinion():
        fresh = derive.claim(f"bench.{claim.identifier}", *claim.shown, assume=claim.assume,  # as written
                             where=dict(claim.definitions) or None)
        fresh.prove()
    return fresh.verdict is derive.Verdict.PROVED


def kernel_vs_naive(limit):
    claims = notebook_claims(find_notebooks(ROOT / "notebooks"))
    rows = []
    for notebook, c in claims:
        if c.evidence.strategy == "instance":
            continue  # an instance of another claim: nothing for simplify to compare with
        k_ok, k_t = _timed(lambda: _kernel(c), limit)
        n_ok, n_t = _timed(lambda: _naive(c), limit)
        rows.append((c.identifier, c.evidence.strategy, k_ok, k_t, n_ok, n_t))
    k_total = sum(r[3] for r in rows)
    n_total = sum(r[5] for r in rows)
    print(f"\n1. kernel vs naive simplify ({len(rows)} claims expected proved, limit {limit:g} s each)")
    print(f"   derive strategies: {sum(r[2] for r in rows)}/{len(rows)} proved in {k_total:.2f} s")
    print(f"   sympy.simplify   : {sum(r[4] for r in rows)}/{len(rows)} proved in {n_total:.2f} s")
    print(f"   ratio (naive / kernel time): {n_total / max(k_total, 1e-9):.1f}x")
    lost = [r[0] for r in rows if r[4] and not r[2]]
    print(f"   claims simplify proves and the kernel does not: {lost or 'none'}")
    faster = [(r[0], r[3], r[5]) for r in rows if r[5] < r[3] and r[4]]
    print(f"   claims where naive is faster: {len(faster)}")
    for ident, kt, nt in sorted(faster, key=lambda f: f[1] - f[2], reverse=True)[:8]:
        print(f"     {ident:<46} kernel {kt * 1e3:8.1f} ms   naive {nt * 1e3:8.1f} ms")
    print("   slowest for naive:")
    for r in sorted(rows, key=lambda r: r[5], reverse=True)[:6]:
        print(f"     {r[0]:<46} kernel {r[3] * 1e3:8.1f} ms ({r[1]})   naive {r[5] * 1e3:8.1f} ms"
              + ("" if r[4] else "  (not proved)"))
    return rows


# -- 5. three-way: kernel, Z3 alone, naive simplify ----------------------------------------------------------
def _class_of(claim) -> str:
    """polynomial, piecewise-linear, generic σ, every size, or transcendental: what a claim's difference holds."""
    from sympy.core.function import AppliedUndef

    exprs = [e for side in (claim.lhs, claim.rhs) for e in (side if isinstance(side, sp.MatrixBase) else [side])]
    if any(isinstance(e, MatrixExpr) and not isinstance(e, sp.MatrixBase) or e.has(sp.Sum) for e in exprs):
        return "every size"
    if any(e.has(sp.exp, sp.erf, sp.tanh, sp.log) for e in exprs):
        return "transcendental"
    if any(e.atoms(AppliedUndef) for e in exprs):
        return "generic sigma"
    if any(e.has(sp.Max, sp.Min, sp.Abs, sp.Piecewise, sp.sign, sp.Heaviside) for e in exprs):
        return "piecewise-linear"
    return "polynomial"


def three_way(limit):
    """derive's kernel, Z3 alone, cvc5 alone, the two as the second opinion runs them (derive.second) and
    sympy.simplify on the same proved claims, per class; chains."""
    from derive.second import cvc5, review

    os.environ["DERIVE_SECOND_OPINION"] = "0"  # each engine timed on its own
    claims = notebook_claims(find_notebooks(ROOT / "notebooks"))
    rows = {}
    for _, c in claims:
        if c.evidence.strategy == "instance":
            continue
        row = list(_timed(lambda: _kernel(c), limit))
        for engine in ("z3", "cvc5", None):  # Z3 alone, cvc5 alone, and the second opinion as the notebooks ask it
            review._MEMO.clear()  # each engine timed on every claim, none answered from memory
            start = time.perf_counter()
            row += [review.identity(c.lhs, c.rhs, c.assume, engine=engine).result == "agrees",
                    time.perf_counter() - start]
        row += _timed(lambda: _naive(c), limit)
        rows.setdefault(_class_of(c), []).append(row)
    print(f"\n5. three-way on the claims expected proved (simplify limited to {limit:g} s; Z3 to "
          f"{review.RLIMIT:,} resource units per query, cvc5 to {cvc5.RLIMIT:,}; Z3 then cvc5: the second opinion "
          f"as the notebooks ask it, cvc5 where Z3 is outside)")
    heads = ["kernel", "Z3 alone", "cvc5 alone", "Z3 then cvc5", "sympy.simplify"]
    print(f"   {'class':<18} {'n':>4}  " + "  ".join(f"{h:>16}" for h in heads))
    for cls, rs in sorted(rows.items()):
        cells = [f"{sum(r[i] for r in rs):>3} in {sum(r[i + 1] for r in rs):7.3f} s" for i in range(0, 10, 2)]
        print(f"   {cls:<18} {len(rs):>4}  " + "  ".join(f"{x:>16}" for x in cells))
    everything = [r for rs in rows.values() for r in rs]
    cells = [f"{sum(r[i] for r in everything):>3} in {sum(r[i + 1] for r in everything):7.3f} s" for i in range(0, 10, 2)]
    print(f"   {'all':<18} {len(everything):>4}  " + "  ".join(f"{x:>16}" for x in cells))
    chains = [(nb, ch) for nb, ch in notebook_statements(find_notebooks(ROOT / "notebooks")) if isinstance(ch, derive.Chain)]
    start, agreed = time.perf_counter(), 0
    review._MEMO.clear()
    for _, ch in chains:
        prev, ops = ch.start, []
        for expr, rule, _, _ in ch.steps:
            ops.append(review.step(prev, expr, rule, ch.assume, ch.equations))
            prev = expr
        agreed += review.combine(ops).result == "agrees"
    took = f"{agreed:>3} in {time.perf_counter() - start:7.3f} s"
    print(f"   {'chains':<18} {len(chains):>4}  {'(each step)':>16}  {'':>16}  {'':>16}  {took:>16}")
    print("   scaling in d (Z3 alone: the symmetric form's exchange, every σ, and the gated ReLU scaling, m = d):")
    relu = derive.activation("relu")
    for d in range(2, 7):
        x, Q, K, V = derive.row("x", d), derive.matrix("Q", d, d), derive.matrix("K", d, d), derive.matrix("V", d, 2)
        al = derive.positive("alpha")
        timings = []
        for lhs, rhs in ((forms.symmetric_rank1(x, Q, K, V, derive.sigma), forms.symmetric_rank1(x, K, Q, V, derive.sigma)),
                         (forms.gated(x, al * Q, K / al, V, relu), forms.gated(x, Q, K, V, relu))):
            review._MEMO.clear()
            start = time.perf_counter()
            op = review.identity(lhs, rhs)
            timings.append(f"{(time.perf_counter() - start) * 1e3:8.1f} ms ({op.result})")
        print(f"     d = {d:<2}  symmetric exchange {timings[0]}   gated ReLU scaling {timings[1]}")
    os.environ.pop("DERIVE_SECOND_OPINION", None)
    second_cost()
    return rows, chains


def second_cost():
    """What the second opinion costs the notebooks: CPU of every ``opinion.review_*`` call, the notebooks run in this
    process (each in its own registry, as in its own kernel); the results; the most resource units a query used."""
    import z3

    from derive import second
    from derive.kernel import opinion
    from derive.second import review

    spent, used, probe_check = [0.0], [0], z3.Solver.check
    real_claim, real_step = opinion.review_claim, opinion.review_step

    def timed(fn):
        def inner(*args, **kwargs):
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[0] += time.process_time() - start
        return inner

    def counted(solver, *args):  # resource units of this query: the context's count before and after
        probe = z3.Solver()
        probe_check(probe)
        before = probe.statistics().get_key_value("rlimit count")  # read now: it is the context's running count
        out = probe_check(solver, *args)
        if out != z3.unknown:  # a query that ran out used the whole limit
                used[0] = max(used[0], solver.statistics().get_key_value("rlimit count")
                          - before)
        return out

    opinion.review_claim, opinion.review_step, z3.Solver.check = timed(real_claim), timed(real_step), counted
    try:
        start, statements = time.process_time(), []
        for path in find_notebooks(ROOT / "notebooks"):
            review._MEMO.clear()  # each notebook runs in a kernel of its own: nothing is remembered across them
            statements += notebook_statements([path])
        total = time.process_time() - start
    finally:
        opinion.review_claim, opinion.review_step, z3.Solver.check = real_claim, real_step, probe_check
    records = [s.record() for _, s in statements]
    proved = [r for r in records if r["verdict"] == "proved"]
    print(f"   cost in the notebooks (in this process): opinion.review_* {spent[0]:.2f} s of CPU, of {total:.2f} s "
          f"for all cells ({spent[0] / max(total, 1e-9):.0%}); {second.summary_line(records)}")
    print(f"   proved: {second.counts(proved)['agrees']}/{len(proved)} agree; most resource units a decided query used: "
          f"{used[0]:,} (the limit {review.RLIMIT:,}; wall-clock safety net {review.TIMEOUT_MS / 1000:g} s)")


# -- 2. suite vs floor ------------------------------------------------------------------------------------
def kernel_floor(repeats=3):
    """Seconds to launch one kernel as Jupyter does (a new interpreter) and import what a notebook imports."""
    import tempfile

    from jupyter_client.manager import KernelManager

    times = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as folder:
            start = time.perf_counter()
            km = KernelManager(kernel_name="python3", transport="ipc", ip=os.path.join(folder, "ipc"))
            km.start_kernel()
            kc = km.client()
            kc.start_channels()
            try:
                kc.wait_for_ready(timeout=60)
                kc.execute_interactive("import sympy, numpy, matplotlib.pyplot, derive", timeout=120)
            finally:
                kc.stop_channels()
                km.shutdown_kernel(now=True)
            times.append(time.perf_counter() - start)
    return min(times)


def forked_kernel(repeats=3):
    """Seconds to fork one kernel from derive's warm server, connect and import the same (the server up first)."""
    import asyncio

    from derive.run import kernels

    async def once():
        async with kernels.running(ROOT) as (_, kc):
            reply = await kc.execute_interactive("import sympy, numpy, matplotlib.pyplot, derive", timeout=120)
            assert reply["content"]["status"] == "ok", reply["content"]

    start = time.perf_counter()
    asyncio.run(once())
    first = time.perf_counter() - start
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        asyncio.run(once())
        times.append(time.perf_counter() - start)
    return first, min(times)


def suite_vs_floor(jobs):
    n = len(find_notebooks(ROOT / "notebooks"))
    one = kernel_floor()
    floor = n * one / jobs
    first, forked = forked_kernel()
    start = time.perf_counter()
    proc = subprocess.run([str(BIN / "derive"), "check", "--jobs", str(jobs)], cwd=ROOT,
                          capture_output=True, text=True)
    wall = time.perf_counter() - start
    print(f"\n2. suite vs floor ({n} notebooks, {jobs} jobs)")
    print(f"   launched kernel start + imports: {one:.2f} s per notebook; "
          f"floor {n} x {one:.2f} / {jobs} = {floor:.1f} s")
    print(f"   derive check forks its kernels from a warm server: {forked:.3f} s per notebook for the same "
          f"(the first, with the server's own start: {first:.2f} s)")
    print(f"   derive check: {wall:.1f} s wall (exit {proc.returncode}) = {wall / floor:.2f}x the floor")
    cells = sum(recorded_seconds(nb) for nb in find_notebooks(ROOT / "build" / "notebooks"))
    print(f"   of which the notebooks' own cells: {cells:.1f} s in all, {cells / jobs:.1f} s per job; the rest is "
          f"the server's start, {n} kernels and the command's own start")
    per = [ln for ln in proc.stderr.splitlines() if ln.startswith("[")]
    for ln in per:
        print("   " + ln)
    return wall, floor


# -- 6. the three ratios -----------------------------------------------------------------------------------
def _makefile_test_command(jobs):
    """``make test``'s pytest command, read from the Makefile (so that the ratio follows it)."""
    import re
    import shlex

    text = (ROOT / "Makefile").read_text(encoding="utf-8").replace("\\\n", " ")
    line = re.search(r"^test:.*\n\t(.+)$", text, re.M).group(1)
    line = line.replace("$(BIN)/python", sys.executable).replace("$(JOBS)", str(jobs))
    return shlex.split(line)


@contextlib.contextmanager
def _committed_clone(prefix: str):
    """A clone of this checkout's committed state in a temporary folder, removed afterwards."""
    import shutil
    import tempfile

    here = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        clone = here / "repo"
        subprocess.run(["git", "clone", "--quiet", "--local", str(ROOT), str(clone)], check=True)
        yield clone
    finally:
        shutil.rmtree(here, ignore_errors=True)


def ratios(jobs):
    """``make`` / ``derive check`` and ``make test`` / ``derive check``, and the suite against its floor, measured
    in one run in a temporary clone (its code on PYTHONPATH ahead of this environment's, MathJax linked in)."""
    with _committed_clone("derive-ratios-") as clone:
        vendor = ROOT / "build" / "vendor"
        if vendor.is_dir():
            (clone / "build").mkdir(exist_ok=True)
            (clone / "build" / "vendor").symlink_to(vendor)
        # no empty entry: one would put the working directory on every kernel's path, which a forked kernel lacks
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(clone / "derivations"),
                                                                         os.environ.get("PYTHONPATH", "")]))}
        env.pop("DERIVE_SECOND_OPINION", None)

        def timed(cmd):
            start = time.perf_counter()
            proc = subprocess.run(cmd, cwd=clone, env=env, capture_output=True, text=True)
            wall = time.perf_counter() - start
            lines = (proc.stdout + proc.stderr).strip().splitlines()
            failed = [line for line in lines if line.startswith(("FAILED ", "ERROR "))]  # named, so a failing run
            tail = "; ".join(failed + lines[-1:]) if lines else ""  # says what failed, not only how many
            return wall, proc.returncode, tail

        n = len(find_notebooks(clone / "notebooks"))
        one = kernel_floor()
        floor = n * one / jobs
        derive_cmd = [sys.executable, "-m", "derive"]
        check, check_rc, _ = timed(derive_cmd + ["check", "--jobs", str(jobs)])
        make, make_rc, make_tail = timed(derive_cmd + ["build", "--jobs", str(jobs)])
        test, test_rc, test_tail = timed(_makefile_test_command(jobs))
    print(f"\n6. ratios ({n} notebooks, {jobs} jobs, measured one after the other in a clone of {ROOT.name})")
    print(f"   derive check: {check:.1f} s (exit {check_rc}); floor {n} x {one:.2f} / {jobs} = {floor:.1f} s")
    print(f"   make (derive build): {make:.1f} s (exit {make_rc}); {make_tail}")
    print(f"   make test: {test:.1f} s (exit {test_rc}); {test_tail}")
    print(f"   suite / floor       = {check / floor:.2f}")
    print(f"   make / derive check = {make / check:.2f}")
    print(f"   make test / check   = {test / check:.2f}")
    return check, make, test, floor


def fresh_clone():
    """8. the README's two commands on a fresh clone (``--only fresh``): ``make test`` first, as CI runs it (creating
    ``.venv``, installing, fetching MathJax and Pyodide from npm), then ``make``; each timed in a clone of this
    checkout's committed state with nothing set up (the machine's Chromium and Graphviz are kept)."""
    import re

    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "DERIVE_SECOND_OPINION")}
    out = []
    with _committed_clone("derive-fresh-") as clone:
        for target in (["make", "test"], ["make"]):
            start = time.perf_counter()
            proc = subprocess.run(target, cwd=clone, env={**env, "CI": "true"}, capture_output=True, text=True)
            lines = (proc.stdout + "\n" + proc.stderr).strip().splitlines()
            said = [line for line in lines if re.search(r" passed| failed|^site: ", line)] or lines[-1:]
            out.append((" ".join(target), time.perf_counter() - start, proc.returncode, said[-1] if said else ""))
    print(f"\n8. a fresh clone of {ROOT.name}: the README's two commands, one after the other")
    for command, wall, rc, tail in out:
        print(f"   {command:<9} {wall:6.1f} s (exit {rc}); {tail}")
    return out


# -- 3. scaling in d --------------------------------------------------------------------------------------
def scaling_claims(d):
    x = derive.row("x", d)
    Q, K, V = derive.matrix("Q", d, d), derive.matrix("K", d, d), derive.matrix("V", d, d)
    s = derive.activation("sigma")
    a = derive.nonzero("alpha")
    ap = derive.positive("alpha")
    relu = derive.activation("relu")
    q, k = derive.row("q", d), derive.row("k", d)
    return {
        "absorption": (forms.elementwise(s, x * Q * K.T) * V, forms.key_value(x, K * Q.T, V, s)),
        "rank-1 score": ((x * q.T * k * x.T)[0, 0], (x * q.T)[0, 0] * (x * k.T)[0, 0]),
        "S exchange": (forms.symmetric_rank1(x, Q, K, V, s), forms.symmetric_rank1(x, K, Q, V, s)),
        "S scaling": (forms.symmetric_rank1(x, a * Q, K / a, V, s), forms.symmetric_rank1(x, Q, K, V, s)),
        "G ReLU scaling a>0": (forms.gated(x, ap * Q, K / ap, V, relu), forms.gated(x, Q, K, V, relu)),
    }


def scaling(limit, max_d):
    results: dict[str, list[tuple[int, float]]] = {}
    alive = list(scaling_claims(2))  # in a fixed order: the plot's legend follows it
    print(f"\n3. scaling in d (m = d; limit {limit:g} s)")
    for d in range(2, max_d + 1):
        if not alive:
            break
        built = scaling_claims(d)
        line = []
        for name in list(alive):
            lhs, rhs = built[name]
            c = derive.claim(f"bench.{name.replace(' ', '_').replace('>', 'gt').replace('-', '_')}_{d}", lhs, rhs)
            ok, t = _timed(lambda: c.prove(budget=limit).verdict is derive.Verdict.PROVED, limit)
            results.setdefault(name, []).append((d, t))
            line.append(f"{name} {t:.3f}s" + ("" if ok else " (not proved)"))
            if not ok or t > limit:
                alive.remove(name)
        print(f"   d={d}: " + "; ".join(line))
    any_size = {}
    for name, (lhs, rhs) in _dimension_free().items():
        c = derive.claim(f"bench.{name.replace(' ', '_')}_any_size", lhs, rhs)
        ok, t = _timed(lambda: c.prove().verdict is derive.Verdict.PROVED, limit)
        print(f"   {name} at every size (matrix symbols d, m, n): {t * 1e3:.1f} ms, the same at every d "
              f"(proved: {ok})")
        if ok:
            any_size[name] = t
    for name, pts in results.items():
        under = [d for d, t in pts if t < 1.0]
        print(f"   largest d under 1 s for {name}: {max(under) if under else '-'}")
    return results, any_size


def _dimension_free():
    d, m, n = sp.symbols("d m n", integer=True, positive=True)
    x, Q = sp.MatrixSymbol("x", 1, d), sp.MatrixSymbol("Q", d, d)
    Qm, K, V = sp.MatrixSymbol("Q", m, d), sp.MatrixSymbol("K", m, d), sp.MatrixSymbol("V", m, n)
    s = derive.activation("sigma")
    a = derive.nonzero("alpha")
    return {
        # σ(x Q Kᵀ) V = σ(x (K Qᵀ)ᵀ) V, the product written as it stands (SymPy would transpose it at once)
        "absorption": (forms.elementwise(s, x * Q * K.T) * V,
                       forms.elementwise(s, sp.MatMul(x, sp.Transpose(sp.MatMul(K, Q.T)))) * V),
        "S exchange": (forms.symmetric_rank1(x, Qm, K, V, s), forms.symmetric_rank1(x, K, Qm, V, s)),
        "S scaling": (forms.symmetric_rank1(x, a * Qm, K / a, V, s), forms.symmetric_rank1(x, Qm, K, V, s)),
    }


def plot(results, any_size, path):
    """Time against d for each component-wise proof (solid); the same statement at every size (dotted, flat)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4))
    colours = {}
    for name, pts in results.items():
        (line,) = ax.semilogy([d for d, _ in pts], [max(t, 1e-4) for _, t in pts], marker="o", label=name)
        colours[name] = line.get_color()
    for name, t in any_size.items():
        ax.axhline(max(t, 1e-4), color=colours.get(name, "black"), lw=1.2, ls=":", label=f"{name}, every size")
    ax.axhline(1.0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("d (= m)")
    ax.set_ylabel("seconds to prove (log)")
    ax.set_title("Time to prove: entry by entry at each d (solid), at every size at once (dotted)", fontsize=10)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    print(f"   plot written to {path}")


# -- 4. cold start ----------------------------------------------------------------------------------------
def _wall(cmd, repeats=5):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def cold_start():
    print("\n4. cold start (best and median of 5)")
    best, med = _wall([sys.executable, "-c", "import derive"])
    print(f"   import derive: {best:.2f} s (median {med:.2f} s)")
    base, _ = _wall([sys.executable, "-c", "pass"])
    print(f"   bare interpreter start: {base:.2f} s")
    times = {}
    for name in derive.ACTIVATIONS:
        if name != "sigma":
            start = time.process_time()
            derive.classify(name, name=f"bench_{name}")
            times[name] = time.process_time() - start
    slowest = max(times, key=times.get)
    print(f"   derive.classify in-process, each named activation: {sum(times.values()):.2f} s CPU for "
          f"{len(times)}, the slowest {slowest} {times[slowest]:.2f} s")
    try:
        best, med = _wall([str(BIN / "derive"), "classify", "z/(1 + exp(-z))"])
        print(f"   derive classify 'z/(1 + exp(-z))': {best:.2f} s (median {med:.2f} s)")
    except subprocess.CalledProcessError as exc:
        print(f"   derive classify: failed ({exc.returncode})")


def try_page(site: Path):
    """7. the try page (``--only try``): the kernel in headless Chromium, served from ``site`` on 127.0.0.1 (after
    ``make``): how long it takes to boot, to load its wheels and to give its first verdict, a later verdict, and
    each notebook re-run in the page against the time its cells took in the notebooks' own run."""
    import functools
    import http.server
    import json
    import threading

    from playwright.sync_api import sync_playwright

    print("\n7. the try page (site/try.html in headless Chromium, served from 127.0.0.1)")
    if not (site / "try.html").is_file() or not (site / "static" / "try-notebooks.json").is_file():
        print(f"   no try page in {site}: run `make` first")
        return

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/try.html"
    books = json.loads((site / "static" / "try-notebooks.json").read_text(encoding="utf-8"))
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page()
            page.set_default_timeout(900_000)
            opened = time.perf_counter()
            page.goto(url)
            page.evaluate("window.derive.ready")
            page.evaluate("window.derive.prove('(a + b)**2', 'a**2 + 2*a*b + b**2', '')")
            first = time.perf_counter() - opened
            t = page.evaluate("window.derive.timings")
            print(f"   boot {t['boot']:.2f} s, wheels {t['wheels'] - t['boot']:.2f} s, import {t['import'] - t['wheels']:.2f} s;"
                  f" first verdict {first:.2f} s after opening the page")
            later = page.evaluate("""async () => { const t = performance.now();
                await window.derive.prove('(sigma(a) + b)**2', 'sigma(a)**2 + 2*b*sigma(a) + b**2', '');
                return (performance.now() - t) / 1000; }""")
            print(f"   a later verdict: {later:.3f} s")
            total_page = total_here = 0.0
            for name in books:
                page.select_option("#try-notebook", name)
                start = time.perf_counter()
                page.click("#try-rerun button")
                page.wait_for_function("name => { const s = document.querySelector('#try-rerun-out p strong'); "
                                       "return (s && s.textContent === name) || "
                                       "!document.querySelector('#try-rerun-error').hidden; }", arg=name)
                seconds = time.perf_counter() - start
                said = page.inner_text("#try-rerun-out p").split(": ", 1)[-1] if page.is_hidden("#try-rerun-error") \
                    else page.inner_text("#try-rerun-error")
                here = recorded_seconds(ROOT / "notebooks" / f"{name}.ipynb")
                total_page, total_here = total_page + seconds, total_here + here
                print(f"   {name:<24} {seconds:6.1f} s in the page, {here:5.1f} s in the notebook "
                      f"({seconds / here if here else float('nan'):.1f}×): {said}")
                page.evaluate("document.querySelector('#try-rerun-out').innerHTML = ''")
            print(f"   every notebook: {total_page:.1f} s in the page, {total_here:.1f} s in the notebooks "
                  f"({total_page / total_here:.1f}×)")
            browser.close()
    finally:
        server.shutdown()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--limit", type=float, default=10.0, help="time limit per claim in seconds (default 10)")
    p.add_argument("--max-d", type=int, default=10, help="largest d tried in the scaling run (default 10)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--plot", default=str(ROOT / "docs" / "bench_scaling.png"))
    p.add_argument("--only", choices=["naive", "suite", "scaling", "cold", "three-way", "ratios", "try", "fresh"],
                   action="append")
    p.add_argument("--site", default=str(ROOT / "site"), help="the built site the try page is served from")
    args = p.parse_args(argv)
    only = set(args.only or ["naive", "suite", "scaling", "cold"])
    print(f"derive benchmarks — {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
          f"SymPy {sp.__version__}")
    if "naive" in only:
        kernel_vs_naive(args.limit)
    if "suite" in only:
        suite_vs_floor(args.jobs)
    if "scaling" in only:
        plot(*scaling(args.limit, args.max_d), args.plot)
    if "cold" in only:
        cold_start()
    if "three-way" in only:
        three_way(args.limit)
    if "ratios" in only:
        ratios(args.jobs)
    if "try" in only:
        try_page(Path(args.site))
    if "fresh" in only:
        fresh_clone()


if __name__ == "__main__":
    main()
