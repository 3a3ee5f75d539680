"""SymPy's own tests of matrix expressions pass with derive imported first, except those listed in
docs/sympy-tests.md: each asserts a cancellation of a symbolic inverse (``A A⁻¹ = I``, ``(A⁻¹)⁻¹ = A``) that derive
withholds until the kernel knows the matrix is invertible."""
import pathlib
import re
import subprocess
import sys

import sympy

ROOT = pathlib.Path(__file__).resolve().parents[1]
SUITE = pathlib.Path(sympy.__file__).parent / "matrices" / "expressions" / "tests"


def _listed():
    table = (ROOT / "docs" / "sympy-tests.md").read_text().split("## SymPy's facts", 1)[0]
    return set(re.findall(r"^\| `(test_\w+\.py::test_\w+)` \|", table, re.M))


def test_sympy_matrix_expression_suite_passes_beside_derive(tmp_path):
    (tmp_path / "derive_first.py").write_text("import derive  # noqa: F401  (SymPy keeps inverses from here on)\n")
    env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "derive_first", "-p", "no:cacheprovider", "-p", "no:xdist",
         "-o", "addopts=", "-q", "-rf", "-W", "ignore", "--rootdir", str(SUITE), str(SUITE)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=1800)
    out = run.stdout
    assert re.search(r"\d+ passed", out), out[-3000:]
    failed = {re.sub(r"^.*/tests/", "", line.split()[1]) for line in out.splitlines() if line.startswith("FAILED ")}
    errors = [line for line in out.splitlines() if line.startswith("ERROR ")]
    listed = _listed()
    assert len(listed) == 9, listed
    assert not errors, errors
    assert failed == listed, (f"failing but not listed: {sorted(failed - listed)}; "
                              f"listed but passing: {sorted(listed - failed)}\n{out[-3000:]}")
    assert "RecursionError" not in out, out[-3000:]


def test_sympys_tests_of_what_sums_and_products_are_pass_beside_derive(tmp_path):
    """derive replaces SymPy's readings of a sum's and a product's sign (``derive.kernel.sums.install``): SymPy's own
    tests of those readings, of empty and reversed ranges (Karr's convention) and of zero, still pass."""
    concrete = pathlib.Path(sympy.__file__).parent / "concrete" / "tests"
    (tmp_path / "derive_first.py").write_text("import derive  # noqa: F401\n")
    env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "derive_first", "-p", "no:cacheprovider", "-p", "no:xdist",
         "-o", "addopts=", "-q", "-W", "ignore", "--rootdir", str(concrete),
         str(concrete / "test_sums_products.py"), str(concrete / "test_products.py"),
         "-k", "assum or zero or empty or revers or karr or Karr or sign"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0 and re.search(r"\b1\d passed", run.stdout), run.stdout[-3000:]


def _listed_facts():
    table = (ROOT / "docs" / "sympy-tests.md").read_text().split("## SymPy's facts", 1)[1]
    return set(re.findall(r"^\| `(test_\w+\.py::test_\w+)` \|", table, re.M))


def test_sympys_tests_of_binomials_factorials_and_beta_pass_beside_derive(tmp_path):
    """derive reads some of SymPy's facts of binomials, rising and falling factorials and B(x, y) only where they hold
    (``derive.kernel.facts``): SymPy's own tests of those functions pass, except the four listed in
    docs/sympy-tests.md, each of which asserts one of the facts that fails at some value."""
    root = pathlib.Path(sympy.__file__).parent / "functions"
    (tmp_path / "derive_first.py").write_text("import derive  # noqa: F401\n")
    env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "derive_first", "-p", "no:cacheprovider", "-p", "no:xdist",
         "-o", "addopts=", "-q", "-rf", "-W", "ignore", "--rootdir", str(root), "-k", "not slow",
         str(root / "combinatorial" / "tests" / "test_comb_factorials.py"),
         str(root / "special" / "tests" / "test_beta_functions.py")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    out = run.stdout
    assert re.search(r"\d+ passed", out), out[-3000:]
    failed = {re.sub(r"^.*/tests/", "", line.split()[1]) for line in out.splitlines() if line.startswith("FAILED ")}
    listed = _listed_facts()
    assert len(listed) == 4, listed
    assert failed == listed, (f"failing but not listed: {sorted(failed - listed)}; "
                              f"listed but passing: {sorted(listed - failed)}\n{out[-3000:]}")
