"""The command line: ``derive check``, ``derive build``, ``derive refresh``, ``derive classify``.

``python -m derive check`` re-runs every notebook into ``build/notebooks``, prints one line per notebook as it
finishes, then the count of each verdict and every claim that got an unexpected verdict or was not run; ``-v``
lists every claim, one line each. It exits 1 when a verdict differs from its expectation, a notebook fails, or
a claim of the stored notebook was not run, and 2 on bad input; every error is one line, never a traceback.

With ``--json`` stdout holds one object per notebook: ``notebook``, ``seconds``, ``error``, ``claims`` (the
records this run made) and ``not_run`` (the claims of the stored notebook that the failed run did not make,
each ``{"id", "verdict": "not run", "expect"}``); the summary goes to stderr.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from pathlib import Path

from .kernel import describe
from .present.plain import unicode
from .run import runner
from . import second
from .kernel.verdict import Verdict

__all__ = ["main", "report", "parser"]

BUILD = Path("build/notebooks")
#: the widest line the command prints (a claim's statement and "how" are shortened to fit)
WIDTH = 118

def tex_text(tex: str) -> str:
    """A LaTeX statement as plain text on one line (for the terminal: readable, not exact), as a claim's
    text/plain and its Unicode fallback read (:func:`derive.present.plain.unicode`).

    >>> tex_text(r"\\sigma\\left(x K^{T}\\right) V = \\frac{a}{2} \\odot b_{1}")
    'σ(x Kᵀ) V = (a)/(2) ⊙ b₁'
    >>> tex_text(r"\\sum_{j=1}^{m} \\frac{a b}{1 + e^{- a}}")
    'Σⱼ₌₁ᵐ (a b)/(1 + e⁻ᵃ)'
    """
    return unicode(tex)


def _fit(line: str) -> str:
    """A line cut to :data:`WIDTH` characters with an ellipsis, its spacing kept."""
    return line if len(line) <= WIDTH else line[: WIDTH - 1] + "…"


def _seconds_text(seconds) -> str:
    return f"{seconds:.3f}s" if seconds is not None else "-"


def _line(c: dict, id_width: int = 34) -> str:
    """One claim on one line: mark, verdict, time, identifier, statement, how (shortened to fit)."""
    if c["verdict"] == runner.NOT_RUN:
        expect = f"expected {c['expect']}" if c.get("expect") else ""
        return _fit(f"  - {'not run':<8} {'-':>7}  {c['id']:<{id_width}} {expect}".rstrip())
    symbol = Verdict(c["verdict"]).symbol
    flag = f"EXPECTED {c['expect']}; " if describe.unexpected(c) else ""
    head = f"  {symbol} {c['verdict']:<8} {_seconds_text(c.get('seconds')):>7}  {c['id']:<{id_width}} "
    statement = describe.shorten(tex_text(c.get("statement", "")), 32).ljust(32)
    return _fit(f"{head}{statement}  {flag}{' '.join(describe.how(c).split())}")


def _status(run) -> str:
    if run.error:
        return "FAILED: " + run.error
    bad = [c["id"] for c in run.claims if describe.unexpected(c)]
    return f"unexpected: {', '.join(bad)}" if bad else "ok"


def _progress(done, total, run):
    width = len(str(total))
    counts = f"{len(run.claims)} claims" + (f", {len(run.not_run)} not run" if run.not_run else "")
    line = f"[{done:>{width}}/{total}] {run.name:<24} {counts:<12} {run.seconds:5.1f} s  {_status(run)}"
    print(_fit(line), file=sys.stderr, flush=True)


def _sympy_version() -> str:
    import sympy

    return sympy.__version__


def _whole(what: str, unit: str):
    """An argparse type: a whole number of at least 1, saying what it counts when it is not one."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number of {what}, got {text!r}") from None
        if value < 1:
            raise argparse.ArgumentTypeError(f"expected at least 1{unit}, got {value}")
        return value

    return parse


_seconds = _whole("seconds", " second")
_jobs = _whole("notebooks", "")


def _select(args) -> list[Path]:
    paths = [Path(p) for p in args.notebooks] or runner.find_notebooks(args.root)
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise SystemExit(f"derive: no such notebook: {', '.join(missing)}")
    return paths


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _listing(label: str, items: list[str]) -> list[str]:
    """``label: a, b, c`` wrapped to the width, the continuation lines indented."""
    return textwrap.wrap(", ".join(items), WIDTH, initial_indent=f"{label}: ", subsequent_indent="  ",
                         break_on_hyphens=False, break_long_words=False)


def report(runs, as_json: bool = False, verbose: bool = False) -> int:
    """Print the outcome of ``runs``; return the exit status (1 on a failure, an unexpected verdict or a claim not run).

    The summary counts every verdict, claims not run included, and names each unexpected verdict, each claim not
    run and each failed notebook; ``verbose`` first lists every claim of every notebook, one line each.
    """
    out = sys.stderr if as_json else sys.stdout
    if as_json:
        print(json.dumps([{"notebook": r.name, "seconds": round(r.seconds, 3), "error": r.error,
                           "claims": r.claims, "not_run": r.not_run} for r in runs], indent=1))
    elif verbose:
        for r in runs:
            extra = f", {len(r.not_run)} not run" if r.not_run else ""
            print(f"\n{r.name}  ({_plural(len(r.claims), 'claim')}{extra}, {r.seconds:.1f} s)")
            if r.error:
                print(_fit(f"  FAILED: {r.error}"))
            listed = r.claims + r.not_run
            id_width = min(36, max((len(c["id"]) for c in listed), default=0))
            for c in listed:
                print(_line(c, id_width))
    claims = [c for r in runs for c in r.claims]
    not_run = [(r.name, c) for r in runs for c in r.not_run]
    bad = [(r.name, c) for r in runs for c in r.claims if describe.unexpected(c)]
    failed = [r for r in runs if r.error]
    where: dict[str, list[str]] = {}
    for r in runs:
        for c in r.claims:
            where.setdefault(c["id"], []).append(r.name)
    # an identifier stated in two notebooks: the graph, the audit and the pages would each read another statement
    twice = {i: names for i, names in where.items() if len(set(names)) > 1}
    counts = [f"{n} {v}" for v, n in describe.verdict_counts(claims)] + ([f"{len(not_run)} not run"] if not_run else [])
    total = len(claims) + len(not_run)
    lines = [f"{_plural(total, 'claim')} in {_plural(len(runs), 'notebook')}" + (f": {', '.join(counts)}" if counts else "")]
    for name, c in bad:
        lines.append(describe.shorten(f"unexpected: {c['id']} ({name}): {c['verdict']}, expected {c['expect']}; "
                                    f"{describe.how(c)}", WIDTH))
    for name in dict.fromkeys(n for n, _ in not_run):
        lines += _listing(f"not run in {name}", [c["id"] for n, c in not_run if n == name])
    for r in failed:
        lines.append(describe.shorten(f"failed: {r.name}: {r.error}", WIDTH))
    for i, names in twice.items():
        lines.append(describe.shorten(f"stated in {len(set(names))} notebooks: {i} ({', '.join(dict.fromkeys(names))})",
                                      WIDTH))
    if claims:
        lines.insert(1, second.summary_line(claims))
    print(("" if as_json or not verbose else "\n") + "\n".join(lines), file=out)
    if bad or failed or not_run or twice:
        parts = [_plural(len(bad), "unexpected verdict")] if bad else []
        parts += [f"{_plural(len(not_run), 'claim')} not run"] if not_run else []
        parts += [f"{_plural(len(failed), 'notebook')} failed"] if failed else []
        parts += [f"{_plural(len(twice), 'identifier')} stated in two notebooks or more"] if twice else []
        print(f"FAILED: {', '.join(parts)}", file=sys.stderr)
        return 1
    print("every verdict as expected", file=out)
    return 0


def _run(args, paths, out_dir, progress=_progress):
    return runner.run_all(paths, out_dir, workers=args.jobs, progress=progress, timeout=args.timeout)


def cmd_check(args) -> int:
    runs = _run(args, _select(args), BUILD)
    return report(runs, args.json, args.verbose)


def cmd_refresh(args) -> int:
    """Re-execute notebooks in place, so their committed outputs are those of a fresh run.

    A notebook that summarises the others' committed outputs (it calls ``suite_table``) runs after them
    (:func:`derive.run.runner.run_all`), so its summary is of the outputs just written.
    """
    return report(_run(args, _select(args), None), verbose=args.verbose)


def cmd_classify(args) -> int:
    """Classify one activation: exchange and inverse-scaling symmetry of the gated layer, each decided."""
    from .classifier.classify import classify

    try:
        result = classify(args.expr, label=args.expr, budget=args.budget)
    except ValueError as exc:
        print(f"derive classify: {str(exc).removeprefix('classify: ')}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.as_dict(), indent=1))
    else:
        print(result)
        print(f"({result.seconds:.2f} s)")
    return 3 if any(f.holds is None for f in result.findings.values()) else 0


def cmd_build(args) -> int:
    """Re-run every notebook into build/notebooks, print every claim, and write the static site from that run."""
    import time

    from . import site
    from .site import vendor

    try:
        mathjax = vendor.find_mathjax(args.mathjax)
        site.check_target(args.out)
    except (FileNotFoundError, ValueError) as exc:
        print(f"derive: {exc}", file=sys.stderr)
        return 2
    runs = _run(args, _select(args), BUILD)
    status = report(runs, verbose=args.verbose)
    stale = [r.name for r in runs if r.error or r.not_run]
    if stale:  # the site shows only verdicts of a whole run: a failed notebook has none to show
        kept = "it still holds the previous build" if (Path(args.out) / site.MARKER).is_file() else "there is none"
        print(f"derive build: {args.out}/ not written, because {_plural(len(stale), 'notebook')} failed "
              f"({', '.join(stale)}); {kept}", file=sys.stderr)
        return 1
    start = time.perf_counter()
    written = site.build(runs, args.out, mathjax=mathjax)
    size = sum(f.stat().st_size for f in Path(args.out).rglob("*") if f.is_file())
    print(f"site: {len(written)} pages, {size / 1e6:.1f} MB in {args.out}/, written in "
          f"{time.perf_counter() - start:.1f} s; open {Path(args.out) / 'index.html'}")
    return status


def cmd_audit(args) -> int:
    """The audit of the paper's items, from a run's records (``--from``) or the committed notebooks' outputs."""
    from .present.audit import audit, records_of_run

    if args.source:
        text = sys.stdin.read() if args.source == "-" else _read(args.source)
        records = records_of_run(text)
    else:
        records = [r for _, r in runner.suite_table(args.root, exclude=()).rows]
    result = audit(records)
    print(json.dumps(result.json(), indent=1, ensure_ascii=False) if args.json else result)
    return 0


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror}") from None


def parser() -> argparse.ArgumentParser:
    from . import __version__

    p = argparse.ArgumentParser(prog="derive", description=__doc__.splitlines()[0])
    p.add_argument("-V", "--version", action="version",
                   version=f"derive {__version__} (Python {sys.version.split()[0]}, SymPy {_sympy_version()})")
    sub = p.add_subparsers(dest="command", required=True)

    def notebook_args(sp):
        sp.add_argument("notebooks", nargs="*", help="notebooks to run (default: every numbered notebook)")
        sp.add_argument("--root", default="notebooks", help="folder of the notebooks (default: notebooks)")
        sp.add_argument("-j", "--jobs", type=_jobs, default=None, help="notebooks run at once (default: cores)")
        sp.add_argument("--timeout", type=_seconds, default=900,
                        help="seconds a cell may run before its notebook fails (default: 900)")
        sp.add_argument("-v", "--verbose", action="store_true", help="list every claim, one line each")

    c = sub.add_parser("check", help="re-run every notebook, print the verdicts (-v: every claim)")
    notebook_args(c)
    c.add_argument("--json", action="store_true",
                   help="print every notebook's claims and claims not run as JSON (the summary on stderr)")
    c.set_defaults(func=cmd_check)
    r = sub.add_parser("refresh", help="re-execute notebooks in place (refresh the committed outputs)")
    notebook_args(r)
    r.set_defaults(func=cmd_refresh)
    k = sub.add_parser(
        "classify", help="decide the symmetries of the gated layer for one activation",
        description="Prove or refute (with an exact witness on the whole layer) exchange, scaling with alpha > 0 and "
        "scaling with alpha != 0. Decided for every piecewise polynomial (polynomials with rational coefficients "
        "and max/min/abs/relu/leaky_relu/sign/Heaviside/Piecewise of such, their conditions joined by and/or/not) whose "
        "form the kernel proves (one with a kink at a root of a polynomial that only CRootOf writes, such as "
        "z**3 - 3*z + 1, may not be); any other activation is tried and may come out undecided, with the reason.",
        epilog="exit status: 0 every symmetry decided, 3 some symmetry undecided (out of time, or no proof and no "
        "witness found), 2 the activation was refused (not readable, not real on the real line)")
    k.add_argument("expr", help='the activation as an expression in z, e.g. "z * sigmoid(z)", or a name such as '
                   'silu (put -- before an expression that starts with -)')
    k.add_argument("--json", action="store_true", help="print the classification as JSON")
    k.add_argument("--budget", type=float, default=30.0, metavar="SECONDS",
                   help="wall-clock seconds for the whole classification (default: 30)")
    k.set_defaults(func=cmd_classify)
    a = sub.add_parser("audit", help="what the claims conclude of each paper item, both ways, and at which sizes",
                       description="One row per paper item: each direction's status (yes, partly, no), its scope "
                       "(the narrowest of the proofs it rests on) and its claims, read from the claims' proves= and "
                       "the records of a run.")
    a.add_argument("--from", dest="source", metavar="RUN",
                   help="a file written by `derive check --json`, or - for standard input (default: the committed "
                   "notebooks' outputs)")
    a.add_argument("--root", default="notebooks", help="folder of the notebooks (default: notebooks)")
    a.add_argument("--json", action="store_true", help="print the rows as JSON")
    a.set_defaults(func=cmd_audit)
    b = sub.add_parser("build", help="re-run every notebook, print the verdicts, write the static site")
    notebook_args(b)
    b.add_argument("--out", default="site", help="folder of the site (default: site)")
    b.add_argument("--mathjax", default=None,
                   help="folder of the npm package mathjax@3 (default: $DERIVE_MATHJAX, else build/vendor/...)")
    b.set_defaults(func=cmd_build)
    return p


def main(argv=None) -> int:
    """Run one command; every failure is one line on stderr (``DERIVE_TRACEBACK=1`` shows the traceback)."""
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print(f"derive {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (as `derive check -v | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as exc:
        if os.environ.get("DERIVE_TRACEBACK"):
            raise
        text = " ".join(str(exc).split())
        known = isinstance(exc, (OSError, ValueError, RuntimeError)) and text
        what = text if known else f"{type(exc).__name__}: {text}" if text else type(exc).__name__
        print(describe.shorten(f"derive {args.command}: {what}", 400), file=sys.stderr)
        return 2
