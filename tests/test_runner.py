"""A run reports only what it computed: never a stored output of a cell it did not reach.

Each notebook here carries stored outputs, as a committed notebook does, with verdicts and a witness this run
cannot produce ("stale"), so that any stored output leaking into a report shows.
"""
import json
import sys
import time
from pathlib import Path

import nbformat
import pytest

from derive import cli, second
from derive.run import runner
from derive.present.render import MIME, TABLE_MIME

SETUP = "import derive\na, b = derive.real('a b')\nrelu = derive.activation('relu')"
ONE = "derive.claim('t.one', (a + 1)**2, a**2 + 2*a + 1, expect='proved').prove()"
TWO = "derive.claim('t.two', relu(a)*b, relu(b)*a, expect='refuted').refute()"
THREE = "derive.claim('t.three', (a - 1)**2, a**2 - 2*a + 1, expect='proved').prove()"
TABLE = "derive.claim_table()"
STALE_WITNESS = {"a": "77", "b": "-77"}


def record(identifier, verdict="refuted", expect="refuted"):
    return {"id": identifier, "kind": "claim", "title": "", "statement": "x = y", "verdict": verdict,
            "expect": expect, "uses": [], "assume": [], "assume_tex": [], "strategy": "exact witness",
            "detail": "exact, searched witness", "witness": dict(STALE_WITNESS), "residual": "-7",
            "enclosure": ""}


def stored_notebook(path: Path, sources, ids):
    """A notebook as committed: claim cells (sources[1:-1]) and the final table carry stale stored outputs."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(src) for src in sources]
    stale = [record(i) for i in ids]
    for cell, rec in zip(nb.cells[1:-1], stale):
        cell.outputs = [nbformat.v4.new_output("execute_result", {MIME: rec, "text/plain": "stale"},
                                               execution_count=1)]
        cell.execution_count = 1
    nb.cells[-1].outputs = [nbformat.v4.new_output("execute_result", {TABLE_MIME: {"claims": stale},
                                                                      "text/plain": "stale table"},
                                                   execution_count=9)]
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


IDS = ["t.one", "t.two", "t.three"]
VARIANTS = {  # name: (sources now, ids the stored outputs have)
    "01_middle": ([SETUP, ONE, TWO.replace("expect='refuted').refute()", "expect='proved').prove()"), THREE, TABLE],
                  IDS),
    "02_first": (["raise RuntimeError('boom')", ONE, TWO, THREE, TABLE], IDS),
    "03_timeout": ([SETUP, ONE, "import time\ntime.sleep(60)", THREE, TABLE], IDS),
    "04_renamed": ([SETUP, ONE.replace("t.one", "n.one"), TWO.replace("t.two", "n.two"),
                    THREE.replace("t.three", "n.three"), TABLE], IDS),
    "05_renamed_failing": ([SETUP, ONE.replace("t.one", "n.one"), "1 / 0", THREE.replace("t.three", "n.three"),
                            TABLE], IDS),
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("stale")
    paths = [stored_notebook(base / "notebooks" / f"{name}.ipynb", *v) for name, v in VARIANTS.items()]
    start = time.monotonic()
    done = runner.run_all(paths, base / "out", workers=2, timeout=5)
    return base, {r.name: r for r in done}, time.monotonic() - start


def verdicts(run):
    return [(c["id"], c["verdict"]) for c in run.claims]


def test_a_failing_cell_in_the_middle_reports_what_ran_and_what_did_not(runs):
    _, by_name, _ = runs
    run = by_name["01_middle"]
    assert run.error == ("ExpectationError: claim t.two: expected proved, got unproven "
                         "(no strategy reduced lhs - rhs to zero)")
    assert verdicts(run) == [("t.one", "proved"), ("t.two", "unproven")]  # t.two read from the kernel
    assert run.not_run == [{"id": "t.three", "verdict": "not run", "expect": "refuted"}]
    assert not run.ok


def test_an_exception_at_the_first_cell_leaves_every_stored_claim_not_run(runs):
    _, by_name, _ = runs
    run = by_name["02_first"]
    assert run.error == "RuntimeError: boom"
    assert run.claims == []
    assert [c["id"] for c in run.not_run] == IDS
    assert {c["verdict"] for c in run.not_run} == {"not run"}


def test_a_cell_past_the_timeout_reports_the_claims_made_before_it(runs):
    _, by_name, seconds = runs
    run = by_name["03_timeout"]
    assert run.error.startswith("CellTimeoutError: ")
    assert verdicts(run) == [("t.one", "proved")]
    assert [c["id"] for c in run.not_run] == ["t.two", "t.three"]
    assert seconds < 40


def test_renamed_claims_of_a_whole_run_are_the_new_ones_only(runs):
    _, by_name, _ = runs
    run = by_name["04_renamed"]
    assert run.error == "" and run.ok
    assert verdicts(run) == [("n.one", "proved"), ("n.two", "refuted"), ("n.three", "proved")]
    assert run.not_run == []
    assert run.claims[1]["witness"] == {"a": "1", "b": "-1"}


def test_renamed_claims_of_a_failed_run_leave_the_old_names_not_run(runs):
    _, by_name, _ = runs
    run = by_name["05_renamed_failing"]
    assert run.error == "ZeroDivisionError: division by zero"
    assert verdicts(run) == [("n.one", "proved")]
    assert [c["id"] for c in run.not_run] == IDS


def test_no_stored_output_survives_in_an_executed_notebook(runs):
    base, by_name, _ = runs
    for name, run in by_name.items():
        text = run.output.read_text(encoding="utf-8")
        assert "stale" not in text and '"77"' not in text, name
        nb = nbformat.read(run.output, as_version=4)
        assert all(c.execution_count is None and not c.outputs for c in nb.cells[3:]) or run.ok, name
    texts = list(_strings([r.claims for r in by_name.values()]))  # every text of every record (timings are numbers)
    assert texts and not [t for t in texts if "77" in t]


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def test_check_counts_claims_not_run_and_fails(runs, capsys):
    _, by_name, _ = runs
    chosen = [by_name["01_middle"], by_name["04_renamed"]]
    assert cli.report(chosen) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [
        "6 claims in 2 notebooks: 3 proved, 1 refuted, 1 unproven, 1 not run",
        f"second opinion ({second.ENGINE}): 4 agrees, 1 not re-checked",
        "unexpected: t.two (01_middle): unproven, expected proved; no strategy reduced lhs - rhs to zero",
        "not run in 01_middle: t.three",
        "failed: 01_middle: ExpectationError: claim t.two: expected proved, got unproven (no strategy reduced lhs - "
        "rhs to zer…",
    ]
    assert captured.err == "FAILED: 1 unexpected verdict, 1 claim not run, 1 notebook failed\n"


def test_check_json_lists_claims_not_run_apart(runs, capsys):
    _, by_name, _ = runs
    assert cli.report([by_name["02_first"]], as_json=True) == 1
    captured = capsys.readouterr()
    [entry] = json.loads(captured.out)
    assert entry["claims"] == []
    assert entry["not_run"] == [{"id": i, "verdict": "not run", "expect": "refuted"} for i in IDS]
    assert captured.err.splitlines() == [
        "3 claims in 1 notebook: 3 not run", "not run in 02_first: t.one, t.two, t.three",
        "failed: 02_first: RuntimeError: boom", "FAILED: 3 claims not run, 1 notebook failed"]


def test_build_writes_no_site_from_a_failed_run(tmp_path, monkeypatch, capsys):
    from derive import site
    from derive.site import vendor

    path = stored_notebook(tmp_path / "notebooks" / "01_middle.ipynb", *VARIANTS["01_middle"])
    old = tmp_path / "site"
    old.mkdir()
    (old / site.MARKER).write_text("")
    (old / "index.html").write_text("the previous build")
    monkeypatch.setattr(vendor, "find_mathjax", lambda folder=None: tmp_path)
    monkeypatch.setattr(site, "build", lambda *a, **k: pytest.fail("the site was written"))
    monkeypatch.chdir(tmp_path)
    assert cli.main(["build", str(path), "--out", "site", "-j", "1"]) == 1
    assert (old / "index.html").read_text() == "the previous build"
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == ("derive build: site/ not written, because 1 notebook failed (01_middle); "
                       "it still holds the previous build")


def test_an_unreadable_notebook_fails_alone(tmp_path):
    bad = tmp_path / "01_bad.ipynb"
    bad.write_text("{not json")
    [run] = runner.run_all([bad], tmp_path / "out", workers=1)
    assert run.error.startswith("cannot read 01_bad.ipynb: NotJSONError: Notebook does not appear to be JSON")
    assert run.output is None and run.claims == [] and not run.ok


READ_SUITE = ("suite = derive.suite_table('.')\n"
              "print(sorted((notebook, r['id'], r['verdict']) for notebook, r in suite.rows))")


@pytest.mark.parametrize("whole", [True, False], ids=["every_notebook", "some"])
def test_a_notebook_that_reads_the_suite_reads_this_run_after_every_other_one(tmp_path, whole):
    # the overview's table and audit read the committed outputs: a run that changed a verdict (here t.two's stored
    # outputs are stale) published the old one beside the new; within a run of the whole folder it reads the run
    folder = tmp_path / "notebooks"
    first = stored_notebook(folder / "01_claims.ipynb", [SETUP, ONE, TWO, THREE, TABLE], IDS)
    overview = folder / "00_overview.ipynb"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import derive"),
                                         nbformat.v4.new_code_cell(READ_SUITE)])
    nbformat.write(nb, overview)
    paths = [overview, first] if whole else [overview]
    done = {r.name: r for r in runner.run_all(paths, tmp_path / "out", workers=2)}
    assert done["00_overview"].ok, done["00_overview"].error
    printed = "".join(o.get("text", "") for c in nbformat.read(done["00_overview"].output, as_version=4).cells
                      for o in c.get("outputs", []))
    if whole:  # this run's verdicts, t.two refuted as the run found it (stored: refuted too, with a stale witness)
        assert printed.strip() == str([("01_claims", "t.one", "proved"), ("01_claims", "t.three", "proved"),
                                       ("01_claims", "t.two", "refuted")])
        assert done["00_overview"].seconds >= 0 and done["01_claims"].ok
    else:  # the overview alone: the committed outputs, as nbval compares them
        assert printed.strip() == str([("01_claims", "t.one", "refuted"), ("01_claims", "t.three", "refuted"),
                                       ("01_claims", "t.two", "refuted")])


def test_the_overview_is_known_to_read_the_suite_and_a_step_is_not():
    from derive.run.runner import _reads_suite
    assert _reads_suite(Path(__file__).parent.parent / "notebooks" / "00_overview.ipynb")
    assert not _reads_suite(Path(__file__).parent.parent / "notebooks" / "05_symmetry_breaking.ipynb")


def test_check_fails_on_an_identifier_stated_in_two_notebooks(capsys):
    # the graph read the first statement, the audit the last: a claim unproven in one notebook and proved in another
    # under the same identifier counted as proved
    one = runner.NotebookRun(Path("01_a.ipynb"), None, 0.1, [{"id": "t.same", "verdict": "proved", "expect": "proved"}])
    two = runner.NotebookRun(Path("02_b.ipynb"), None, 0.1, [{"id": "t.same", "verdict": "unproven", "expect": None}])
    assert cli.report([one, two]) == 1
    captured = capsys.readouterr()
    assert "stated in 2 notebooks: t.same (01_a, 02_b)" in captured.out
    assert captured.err == "FAILED: 1 identifier stated in two notebooks or more\n"
    assert cli.report([one]) == 0
