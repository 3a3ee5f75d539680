"""Mutation testing of the kernel with mutmut: `make mutation` (never part of `make test`).

mutmut names a module after its file's path, so the package must sit at the top of the folder it runs
in: this script lays out `build/mutation/` with links to `derivations/derive`, `tests`, `notebooks` and
`pyproject.toml` (whose `[tool.mutmut]` section says which modules are mutated and which tests run),
runs `mutmut run` there, and prints the score: killed / total and the wall time.

    python tools/mutation.py [--max-children N] [--keep] [MUTANT_NAME ...]
    python tools/mutation.py results | show NAME | browse      (any other mutmut command, in that folder)

Without `--keep` the previous run's working copy (`build/mutation/mutants`) is removed first, so the score
is that of the tree as it is.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STAGE = ROOT / "build" / "mutation"
LINKS = {"derive": ROOT / "derivations" / "derive", "tests": ROOT / "tests", "notebooks": ROOT / "notebooks",
         "pyproject.toml": ROOT / "pyproject.toml"}


def stage() -> None:
    STAGE.mkdir(parents=True, exist_ok=True)
    for name, target in LINKS.items():
        link = STAGE / name
        if link.is_symlink() or link.exists():
            if link.is_symlink() and Path(os.readlink(link)) == target:
                continue
            link.unlink()
        link.symlink_to(target)


def mutmut(*args: str, capture: bool = False) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).with_name("mutmut")
    env = dict(os.environ, PYTHONPATH="", PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([str(exe), *args], cwd=STAGE, env=env, text=True,
                          capture_output=capture, check=False)


def score() -> tuple[dict[str, int], list[str]]:
    out = mutmut("results", "--all", "true", capture=True).stdout
    counts: dict[str, int] = {}
    survivors = []
    for line in out.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if not sep:
            continue
        counts[status] = counts.get(status, 0) + 1
        if status == "survived":
            survivors.append(name)
    return counts, survivors


def main(argv: list[str]) -> int:
    if argv and not argv[0].startswith("-") and "__mutmut_" not in argv[0]:
        stage()
        return mutmut(*argv).returncode
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-children", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="reuse the previous run's results")
    parser.add_argument("mutants", nargs="*", help="run only these mutants")
    args = parser.parse_args(argv)
    stage()
    if not args.keep and not args.mutants:
        shutil.rmtree(STAGE / "mutants", ignore_errors=True)
    start = time.monotonic()
    run = mutmut("run", "--max-children", str(args.max_children), *args.mutants)
    wall = time.monotonic() - start
    counts, survivors = score()
    total = sum(counts.values())
    print("\nsurviving mutants:" if survivors else "\nno surviving mutant")
    for name in survivors:
        print("  " + name)
    print("\n" + ", ".join(f"{n} {status}" for status, n in sorted(counts.items())))
    tested = total - counts.get("not checked", 0)
    print(f"score: {counts.get('killed', 0)} killed / {tested} tested ({total} mutants), in {wall:.0f} s wall "
          f"with {args.max_children} children")
    print(f"(inspect one: python tools/mutation.py show NAME; every result: python tools/mutation.py results)")
    return run.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
