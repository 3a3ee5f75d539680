"""The command line: ``derive check``, ``derive refresh`` (and the subcommands added beside them).

``python -m derive check`` re-runs every notebook into ``build/notebooks`` and prints each claim with its
verdict, how it was obtained and its time; it exits 1 when a verdict differs from its expectation or a
notebook fails.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import render, runner, second
from .verdict import Verdict

__all__ = ["main"]

BUILD = Path("build/notebooks")


def _line(c: dict) -> str:
    symbol, _ = render.STYLE[Verdict(c["verdict"])]
    seconds = f"{c['seconds']:.3f}s" if c.get("seconds") is not None else "   -  "
    flag = f"  << expected {c['expect']}" if render.unexpected(c) else ""
    return f"  {symbol} {c['verdict']:<9} {c['id']:<44} {seconds:>8}  {render.how(c)}{flag}"


def _progress(done, total, run):
    status = "ok" if run.ok else ("FAILED: " + run.error if run.error else "unexpected verdicts")
    print(f"[{done}/{total}] {run.name}: {len(run.claims)} claims, {run.seconds:.1f} s, {status}",
          file=sys.stderr, flush=True)


def _sympy_version() -> str:
    import sympy

    return sympy.__version__


def _seconds(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of seconds, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1 second, got {value}")
    return value


def _select(args) -> list[Path]:
    paths = [Path(p) for p in args.notebooks] or runner.find_notebooks(args.root)
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise SystemExit(f"derive: no such notebook: {', '.join(missing)}")
    return paths


def report(runs, as_json: bool = False) -> int:
    """Print every claim of every run; return the exit status (1 on any failure or unexpected verdict)."""
    if as_json:
        print(json.dumps([{"notebook": r.name, "seconds": round(r.seconds, 3), "error": r.error,
                           "claims": r.claims} for r in runs], indent=1))
    else:
        for r in runs:
            print(f"\n{r.name}  ({len(r.claims)} claims, {r.seconds:.1f} s)")
            if r.error:
                print(f"  FAILED: {r.error}")
            for c in r.claims:
                print(_line(c))
    claims = [c for r in runs for c in r.claims]
    bad = [c["id"] for c in claims if render.unexpected(c)]
    failed = [r.name for r in runs if r.error]
    parts = ", ".join(f"{n} {v}" for v, n in render.verdict_counts(claims))
    summary = f"{len(claims)} claims in {len(runs)} notebooks" + (f": {parts}" if parts else "")
    print(("\n" if not as_json else "") + summary, file=sys.stderr if as_json else sys.stdout)
    print(second.summary_line(claims), file=sys.stderr if as_json else sys.stdout)
    if bad or failed:
        print(f"FAILED: unexpected verdicts {bad}, failing notebooks {failed}", file=sys.stderr)
        return 1
    print("every verdict as expected", file=sys.stderr if as_json else sys.stdout)
    return 0


def _run(args, paths, out_dir, progress=_progress):
    return runner.run_all(paths, out_dir, workers=args.jobs, progress=progress, timeout=args.timeout)


def cmd_check(args) -> int:
    runs = _run(args, _select(args), BUILD)
    return report(runs, args.json)


def cmd_refresh(args) -> int:
    """Re-execute notebooks in place, so their committed outputs are those of a fresh run.

    A notebook that summarises the others' committed outputs (it calls ``suite_table``) runs after them, so
    its summary is of the outputs just written.
    """
    paths = _select(args)
    summaries = [p for p in paths if "suite_table(" in p.read_text(encoding="utf-8")]
    rest = [p for p in paths if p not in summaries]
    done = []

    def progress(_done, _total, run):
        done.append(run)
        _progress(len(done), len(paths), run)

    runs = []
    for batch in (b for b in (rest, summaries) if b):
        runs += _run(args, batch, None, progress)
    order = {p: k for k, p in enumerate(paths)}
    return report(sorted(runs, key=lambda r: order[r.source]))


def cmd_classify(args) -> int:
    """Classify one activation: exchange and inverse-scaling symmetry of the gated layer, each decided."""
    from .classify import classify

    try:
        result = classify(args.expr, label=args.expr)
    except ValueError as exc:
        print(f"derive classify: {str(exc).removeprefix('classify: ')}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.as_dict(), indent=1))
    else:
        print(result)
        print(f"({result.seconds:.2f} s)")
    return 0


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
    status = report(runs)
    start = time.perf_counter()
    written = site.build(runs, args.out, mathjax=mathjax)
    size = sum(f.stat().st_size for f in Path(args.out).rglob("*") if f.is_file())
    print(f"site: {len(written)} pages, {size / 1e6:.1f} MB in {args.out}/, written in "
          f"{time.perf_counter() - start:.1f} s; open {Path(args.out) / 'index.html'}")
    return status


def parser() -> argparse.ArgumentParser:
    from . import __version__

    p = argparse.ArgumentParser(prog="derive", description=__doc__.splitlines()[0])
    p.add_argument("-V", "--version", action="version",
                   version=f"derive {__version__} (Python {sys.version.split()[0]}, SymPy {_sympy_version()})")
    sub = p.add_subparsers(dest="command", required=True)

    def notebook_args(sp):
        sp.add_argument("notebooks", nargs="*", help="notebooks to run (default: every numbered notebook)")
        sp.add_argument("--root", default="notebooks", help="folder of the notebooks (default: notebooks)")
        sp.add_argument("-j", "--jobs", type=int, default=None, help="notebooks run at once (default: cores)")
        sp.add_argument("--timeout", type=_seconds, default=900,
                        help="seconds a cell may run before its notebook fails (default: 900)")

    c = sub.add_parser("check", help="re-run every notebook, print every claim and verdict")
    notebook_args(c)
    c.add_argument("--json", action="store_true", help="print the claims as JSON")
    c.set_defaults(func=cmd_check)
    r = sub.add_parser("refresh", help="re-execute notebooks in place (refresh the committed outputs)")
    notebook_args(r)
    r.set_defaults(func=cmd_refresh)
    k = sub.add_parser("classify", help="decide the symmetries of the gated layer for one activation")
    k.add_argument("expr", help='the activation as an expression in z, e.g. "z * sigmoid(z)", or a name such as '
                   'silu (put -- before an expression that starts with -)')
    k.add_argument("--json", action="store_true", help="print the classification as JSON")
    k.set_defaults(func=cmd_classify)
    b = sub.add_parser("build", help="re-run every notebook, print every claim, write the static site")
    notebook_args(b)
    b.add_argument("--out", default="site", help="folder of the site (default: site)")
    b.add_argument("--mathjax", default=None,
                   help="folder of the npm package mathjax@3 (default: $DERIVE_MATHJAX, else build/vendor/...)")
    b.set_defaults(func=cmd_build)
    return p


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print(f"derive {args.command}: interrupted", file=sys.stderr)
        return 130
