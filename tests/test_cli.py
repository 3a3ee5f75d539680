"""The runner and the command line, on small generated notebooks run in fresh kernels."""
import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

import derive
from derive import cli, second
from derive.run import runner
from derive.present.render import MIME, TABLE_MIME
from derive.run.runner import NotebookRun

SETUP = "import derive\na, b = derive.real('a b')\nrelu = derive.activation('relu')"
GOOD = [
    SETUP,
    "derive.claim('tiny.square', (a + 1)**2, a**2 + 2*a + 1, expect='proved').prove()",
    "derive.claim('tiny.relu_exchange', relu(a)*b, relu(b)*a, uses=['tiny.square'], expect='refuted').refute()",
    "derive.claim_table()",
]
UNEXPECTED = [  # no exception: the proof attempt of an expected refutation just fails, and the table shows it
    SETUP,
    "derive.claim('tiny.wrong', relu(a)*b, relu(b)*a, expect='refuted').prove()",
    "derive.claim_table()",
]
RAISING = [SETUP, "derive.claim('tiny.raises', relu(a)*b, relu(b)*a, expect='proved').prove()", "derive.claim_table()"]


def write_notebook(path: Path, sources):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(src) for src in sources]
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


def derive_check(root: Path, cwd: Path, jobs: int = 1):
    cmd = [sys.executable, "-m", "derive", "check", "--json", "--root", str(root), "--jobs", str(jobs)]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def good_run(tmp_path_factory):
    base = tmp_path_factory.mktemp("good")
    write_notebook(base / "notebooks" / "01_tiny.ipynb", GOOD)
    return base, derive_check(base / "notebooks", base)


@pytest.fixture(scope="module")
def bad_run(tmp_path_factory):
    base = tmp_path_factory.mktemp("bad")
    write_notebook(base / "notebooks" / "01_unexpected.ipynb", UNEXPECTED)
    write_notebook(base / "notebooks" / "02_raising.ipynb", RAISING)
    return base, derive_check(base / "notebooks", base, jobs=2)


def test_check_json_reports_every_claim(good_run):
    base, result = good_run
    assert result.returncode == 0, result.stderr
    runs = json.loads(result.stdout)
    assert [r["notebook"] for r in runs] == ["01_tiny"]
    assert runs[0]["error"] == ""
    claims = {c["id"]: c for c in runs[0]["claims"]}
    assert list(claims) == ["tiny.square", "tiny.relu_exchange"]
    assert claims["tiny.square"]["verdict"] == "proved"
    assert claims["tiny.square"]["strategy"] == "expand"
    assert claims["tiny.relu_exchange"]["verdict"] == "refuted"
    assert claims["tiny.relu_exchange"]["expect"] == "refuted"
    assert claims["tiny.relu_exchange"]["witness"] == {"a": "1", "b": "-1"}
    assert claims["tiny.relu_exchange"]["uses"] == ["tiny.square"]
    assert all(isinstance(c["seconds"], float) for c in claims.values())
    assert runs[0]["not_run"] == []
    assert result.stderr.splitlines()[-3:] == ["2 claims in 1 notebook: 1 proved, 1 refuted",
                                               f"second opinion ({second.ENGINE}): 2 agrees", "every verdict as expected"]
    assert result.stderr.splitlines()[0].startswith("[1/1] 01_tiny                  2 claims       ")
    assert result.stderr.splitlines()[0].endswith(" s  ok")


def test_check_writes_the_executed_notebook_to_the_build_folder_only(good_run):
    base, _ = good_run
    executed = nbformat.read(base / "build" / "notebooks" / "01_tiny.ipynb", as_version=4)
    committed = nbformat.read(base / "notebooks" / "01_tiny.ipynb", as_version=4)
    assert all(not cell.outputs for cell in committed.cells)
    outputs = [out for cell in executed.cells for out in cell.outputs]
    records = [out["data"][MIME] for out in outputs if MIME in out.get("data", {})]
    assert [r["id"] for r in records] == ["tiny.square", "tiny.relu_exchange"]
    tables = [out for out in outputs if TABLE_MIME in out.get("data", {})]
    assert len(tables) == 1
    assert "seconds" not in json.dumps([out["data"] for out in outputs])  # timings only in output metadata
    assert set(tables[0]["metadata"][TABLE_MIME]["seconds"]) == {"tiny.square", "tiny.relu_exchange"}


def test_unexpected_verdict_and_failing_notebook_exit_1(bad_run):
    _, result = bad_run
    assert result.returncode == 1
    runs = {r["notebook"]: r for r in json.loads(result.stdout)}
    assert set(runs) == {"01_unexpected", "02_raising"}
    unexpected = runs["01_unexpected"]
    assert unexpected["error"] == ""
    assert [(c["id"], c["verdict"], c["expect"]) for c in unexpected["claims"]] == [
        ("tiny.wrong", "unproven", "refuted")]
    assert "ExpectationError" in runs["02_raising"]["error"]
    assert "tiny.raises: expected proved, got unproven" in runs["02_raising"]["error"]
    assert [(c["id"], c["verdict"]) for c in runs["02_raising"]["claims"]] == [("tiny.raises", "unproven")]
    assert runs["02_raising"]["not_run"] == []  # the stored notebook has no outputs: nothing was left out
    assert result.stderr.splitlines()[-1] == "FAILED: 2 unexpected verdicts, 1 notebook failed"
    assert "unexpected: tiny.wrong (01_unexpected): unproven, expected refuted; no strategy reduced lhs - rhs to zero" \
        in result.stderr.splitlines()


def _run(name, claims, error=""):
    return NotebookRun(Path(f"{name}.ipynb"), None, 1.0, claims, error)


def _claim(identifier, verdict, expect=None):
    return {"id": identifier, "verdict": verdict, "expect": expect, "uses": [], "witness": {}, "strategy": "",
            "statement": "x = y",
            "detail": "", "residual": "", "enclosure": "", "seconds": 0.01}


def test_notebook_run_ok():
    assert _run("01_a", [_claim("x.a", "proved", "proved"), _claim("x.b", "checked")]).ok
    assert not _run("01_a", [_claim("x.a", "unproven", "proved")]).ok
    assert not _run("01_a", [], error="boom").ok
    assert _run("01_a", []).name == "01_a"


def test_report_exit_status(capsys):
    assert cli.report([_run("01_a", [_claim("x.a", "proved", "proved")])]) == 0
    assert capsys.readouterr().out == ("1 claim in 1 notebook: 1 proved\n"
                                       f"second opinion ({second.ENGINE}): 1 not re-checked\nevery verdict as expected\n")
    assert cli.report([_run("01_a", [_claim("x.a", "refuted", "proved")])]) == 1
    captured = capsys.readouterr()
    assert captured.out == ("1 claim in 1 notebook: 1 refuted\n"
                            f"second opinion ({second.ENGINE}): 1 not re-checked\n"
                            "unexpected: x.a (01_a): refuted, expected proved; refuted: exact residual\n")
    assert captured.err == "FAILED: 1 unexpected verdict\n"
    assert cli.report([_run("01_a", [], error="NameError: x")]) == 1
    captured = capsys.readouterr()
    assert captured.out == "0 claims in 1 notebook\nfailed: 01_a: NameError: x\n"
    assert captured.err == "FAILED: 1 notebook failed\n"


def test_report_verbose_lists_every_claim_on_one_short_line(capsys):
    long = dict(_claim("x.long", "proved", "proved"), statement=r"\sigma\left(a\right) = " + "a + " * 60 + "a",
                detail="expand " * 30)
    wrong = _claim("x.wrong", "refuted", "proved")
    run = NotebookRun(Path("01_a.ipynb"), None, 1.0, [long, wrong], "Boom: x",
                      [{"id": "x.later", "verdict": "not run", "expect": "proved"}])
    assert cli.report([run], verbose=True) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[:6] == [
        "",
        "01_a  (2 claims, 1 not run, 1.0 s)",
        "  FAILED: Boom: x",
        "  ✔ proved    0.010s  x.long  σ(a) = a + a + a + a + a + a + …  by expand expand expand expand expand expand "
        "expand e…",
        "  ✘ refuted   0.010s  x.wrong x = y                             EXPECTED proved; refuted: exact residual",
        "  - not run        -  x.later expected proved",
    ]
    assert max(len(line) for line in lines) <= cli.WIDTH


def test_report_json_keeps_stdout_machine_readable(capsys):
    assert cli.report([_run("01_a", [_claim("x.a", "proved")])], as_json=True) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out) == [{"notebook": "01_a", "seconds": 1.0, "error": "",
                                         "claims": [_claim("x.a", "proved")], "not_run": []}]
    assert "every verdict as expected" in captured.err


def test_find_notebooks(tmp_path):
    for name in ["02_b.ipynb", "00_overview.ipynb", "01_a.ipynb", "notes.ipynb", "1_short.ipynb"]:
        (tmp_path / name).write_text("{}")
    assert [p.name for p in runner.find_notebooks(tmp_path)] == ["00_overview.ipynb", "01_a.ipynb", "02_b.ipynb"]
    with pytest.raises(FileNotFoundError, match="no notebook folder at"):
        runner.find_notebooks(tmp_path / "missing")


def test_check_refuses_a_missing_notebook(tmp_path):
    with pytest.raises(SystemExit, match="derive: no such notebook: .*nothing.ipynb"):
        cli.main(["check", str(tmp_path / "nothing.ipynb")])


def test_parser_needs_a_command():
    with pytest.raises(SystemExit):
        cli.parser().parse_args([])
    args = cli.parser().parse_args(["check", "--json", "-j", "3"])
    assert args.json and args.jobs == 3 and args.root == "notebooks" and args.notebooks == [] and args.timeout == 900
    assert cli.parser().parse_args(["refresh", "--timeout", "30"]).timeout == 30


@pytest.mark.parametrize("value, message", [("0", "expected at least 1 second, got 0"),
                                            ("1.5", "expected a whole number of seconds, got '1.5'")])
def test_timeout_must_be_whole_seconds(capsys, value, message):
    with pytest.raises(SystemExit):
        cli.parser().parse_args(["build", "--timeout", value])
    assert message in capsys.readouterr().err


def test_report_of_notebooks_without_claims(capsys):
    assert cli.report([_run("01_a", []), _run("02_b", [])]) == 0
    assert capsys.readouterr().out == "0 claims in 2 notebooks\nevery verdict as expected\n"


def test_refresh_runs_a_summary_of_the_suite_after_the_notebooks_it_summarises(tmp_path):
    folder = tmp_path / "notebooks"
    write_notebook(folder / "00_summary.ipynb", [
        "import derive\nprint(sorted(record['id'] for _, record in derive.suite_table('.').rows))"])
    write_notebook(folder / "01_tiny.ipynb", ["import time\ntime.sleep(1)", *GOOD])  # slower than the summary
    assert cli.main(["refresh", "--root", str(folder), "-j", "2"]) == 0
    summary = nbformat.read(folder / "00_summary.ipynb", as_version=4)
    assert summary.cells[0].outputs[0]["text"].strip() == "['tiny.relu_exchange', 'tiny.square']"
    assert not list(folder.glob(".*.partial"))


def test_recorded_seconds_sums_the_stored_cell_times(tmp_path):
    path = write_notebook(tmp_path / "01_timed.ipynb", ["1", "2", "3"])
    nb = nbformat.read(path, as_version=4)
    for cell, (start, end) in zip(nb.cells, [("00.000", "01.500"), ("02.000", "02.250")]):
        cell.metadata["execution"] = {"iopub.execute_input": f"2026-12-01T10:00:{start}Z",
                                      "shell.execute_reply": f"2026-12-01T10:00:{end}Z"}
    nbformat.write(nb, path)
    assert runner.recorded_seconds(path) == pytest.approx(1.75)  # the third cell has no record
    assert runner.recorded_seconds(write_notebook(tmp_path / "02_fresh.ipynb", ["1"])) == 0.0


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--version"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"derive {derive.__version__} (Python ") and "SymPy 1.14" in out


# -- every failure is one line ------------------------------------------------------------------------------
def test_a_missing_notebook_folder_is_one_line(tmp_path, capsys):
    assert cli.main(["check", "--root", str(tmp_path / "missing")]) == 2
    assert capsys.readouterr().err == f"derive check: no notebook folder at {tmp_path / 'missing'}\n"


@pytest.mark.parametrize("raised, line", [
    (RuntimeError("the kernel server could not start:\nNo module named derive"),
     "derive check: the kernel server could not start: No module named derive"),
    (OSError(28, "No space left on device"), "derive check: [Errno 28] No space left on device"),
    (TypeError("odd"), "derive check: TypeError: odd"),
    (KeyError("x"), "derive check: KeyError: 'x'"),
])
def test_an_error_during_the_run_is_one_line(tmp_path, capsys, monkeypatch, raised, line):
    write_notebook(tmp_path / "01_a.ipynb", ["1"])

    def fail(*args, **kwargs):
        raise raised

    monkeypatch.setattr(runner, "run_all", fail)
    assert cli.main(["check", "--root", str(tmp_path)]) == 2
    assert capsys.readouterr().err == line + "\n"
    monkeypatch.setenv("DERIVE_TRACEBACK", "1")
    with pytest.raises(type(raised)):
        cli.main(["check", "--root", str(tmp_path)])


def test_jobs_must_be_a_positive_whole_number(capsys):
    with pytest.raises(SystemExit):
        cli.parser().parse_args(["check", "-j", "0"])
    assert "argument -j/--jobs: expected at least 1, got 0" in capsys.readouterr().err


# -- plain text for readers ---------------------------------------------------------------------------------
def test_a_claim_prints_as_plain_text():
    a, b = derive.real("a b")
    relu = derive.activation("relu")
    refuted = derive.claim("text.exchange", relu(a) * b, relu(b) * a, expect="refuted", uses=["text.base"]).refute()
    assert str(refuted) == ("claim text.exchange: refuted\n  b*Max(0, a) = a*Max(0, b)\n"
                            "  refuted at a = 1, b = -1: exact residual -1\n  uses text.base")
    wrong = derive.claim("text.wrong", relu(a), a, assume=[a > -1])
    wrong.expect = derive.Verdict.PROVED
    assert str(wrong) == ("claim text.wrong: unproven (expected proved)\n  Max(0, a) = a\n  assuming a > -1\n"
                          "  no strategy settled it")
    long = derive.claim("text.long", sum(derive.real(" ".join(f"y{k}" for k in range(60)))), a)
    line = str(long).splitlines()[1]
    assert len(line) == 102 and line.endswith("… = a")
    chain = derive.chain("text.chain", (a + 1)**2).step(a**2 + 2*a + 1, "expand")
    assert str(chain).splitlines()[:2] == ["chain text.chain: proved", "  (a + 1)**2 = a**2 + 2*a + 1"]


def test_a_claim_table_prints_as_plain_text():
    from derive.present.tables import ClaimTable, SuiteTable

    records = [_claim("x.a", "proved", "proved") | {"detail": "expand"}, _claim("x.bb", "refuted", "proved")]
    assert str(ClaimTable(records)) == (
        "2 claims: 1 proved, 1 refuted; unexpected: x.bb\n"
        "  proved    x.a   by expand\n"
        "  refuted   x.bb  refuted: exact residual  (expected proved)")
    assert repr(ClaimTable(records)) == "<ClaimTable of 2 claims>"
    assert str(ClaimTable([])) == "0 claims; every verdict as expected"
    assert str(SuiteTable([("01_a", records[0])])).splitlines() == [
        "1 claim in the suite: 1 proved; every verdict as expected", "  proved    01_a  x.a  by expand"]


def test_the_readme_example_prints_what_it_shows():
    import re

    text = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    code = re.search(r"## Using `derive`\n\n```python\n(.*?)```", text, re.S).group(1)
    shown = [line[2:] if line.startswith("# ") else line[1:] for line in code.splitlines() if line.startswith("#")]
    printed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout.splitlines() == shown
