"""site/try.html in headless Chromium: derive's kernel in Pyodide, served from 127.0.0.1 only.

The folder served holds only what the page needs (try_page.write, MathJax and its configuration), not the
whole site. Every request the page makes is recorded: none may leave 127.0.0.1.
"""
from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import sys
import threading
import time
import zipfile
from pathlib import Path
from urllib.parse import urlparse

import pytest

from derive.site import try_page, vendor

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")  # the browser fixture is conftest's
STATIC = ROOT / "derivations" / "derive" / "site" / "static"
#: the most the kernel may take to load, and one question to be answered, in the browser (generous: a busy machine)
LOAD_MS = 120_000


def need(found, what: str):
    if not found:
        message = f"{what}: `make test` installs it"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def _kernel_module():
    """static/try_kernel.py, as the page runs it, imported in this Python."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("try_kernel", STATIC / "try_kernel.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- the page's Python, here ------------------------------------------------------------------------------
def test_kernel_answers_a_true_and_a_false_claim():
    k = _kernel_module()
    proved = json.loads(k.answer("prove", "(a + b)**2", "a**2 + 2*a*b + b**2", ""))
    assert proved["ok"] and proved["record"]["verdict"] == "proved"
    refuted = json.loads(k.answer("refute", "relu(a)*b", "relu(b)*a", ""))
    assert refuted["ok"] and refuted["record"]["verdict"] == "refuted" and refuted["record"]["witness"]
    assert 'class="derive-claim"' in refuted["html"]


def test_kernel_reads_assumptions_in_sympys_spelling():
    k = _kernel_module()
    for given in ("a != 1", "Ne(a, 1)"):
        out = json.loads(k.answer("prove", "(a**2 - 1)/(a - 1)", "a + 1", given))
        assert out["ok"] and out["record"]["verdict"] == "proved" and out["record"]["assume"] == ["Ne(a, 1)"]
    out = json.loads(k.answer("prove", "(a**2 - 1)/(a - 1)", "a + 1", ""))
    assert out["ok"] and out["record"]["verdict"] == "unproven"  # the divisor is not known to be nonzero
    assert "needs Ne(a - 1, 0)" in out["record"]["detail"]


@pytest.mark.parametrize("lhs, rhs, assume, said", [
    ("__import__('os').system('true')", "1", "", "attribute access"),
    ("a.__class__", "1", "", "attribute access"),
    ("(a + ", "1", "", "not a valid expression"),
    ("a", "b", "a >", "assume: not a valid expression"),
    ("a", "b", "a + 1", "assume:"),
    ("open('x')", "1", "", "unknown function 'open'"),
    ("a[0]", "1", "", "subscripts"),
    ("lambda: 1", "1", "", "lambdas"),
    ("_x", "1", "", "the name '_x' is not allowed"),
    ("a ** 1000", "1", "", "exponents beyond"),
    ("", "1", "", "lhs: empty"),
])
def test_kernel_malformed_input_is_one_line(lhs, rhs, assume, said):
    out = json.loads(_kernel_module().answer("prove", lhs, rhs, assume))
    assert not out["ok"] and said in out["error"] and "\n" not in out["error"]
    assert out["error"].startswith(("ValueError: ", "TypeError: "))


def test_kernel_refuses_unknown_questions_and_classifies():
    k = _kernel_module()
    out = json.loads(k.answer("eval", "a", "a", ""))
    assert not out["ok"] and "unknown question 'eval'" in out["error"]
    relu = json.loads(k.classify_answer("relu(z)"))
    assert relu["ok"] and relu["record"]["symmetries"]["scale_positive"]["verdict"] == "proved"
    bad = json.loads(k.classify_answer("z +"))
    assert not bad["ok"] and "\n" not in bad["error"] and "parse:" not in bad["error"]


def test_derive_imports_without_numpy_matplotlib_or_jupyter_and_without_a_timer(tmp_path):
    """What Pyodide lacks, blocked: derive imports, a claim is proved, and a budget still ends (between steps)."""
    code = """
import sys, signal
for m in ["numpy", "matplotlib", "nbformat", "nbclient", "nbconvert", "jupyter_client", "zmq", "IPython",
          "ipykernel", "jinja2", "markupsafe"]:
    sys.modules[m] = None
del signal.setitimer
import derive
from derive.kernel import budget
assert not budget.INTERRUPTS
a, b = derive.real("a b")
assert derive.claim("t.sq", (a + b)**2, a**2 + 2*a*b + b**2).prove().verdict.value == "proved"
try:
    derive.numeric
except ImportError as exc:
    print("numeric:", exc)
print("label:", derive.plots.label("gelu_tanh"))  # the names of the activations need neither
import importlib.util, json
spec = importlib.util.spec_from_file_location("try_kernel", KERNEL)
kernel = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kernel)
kernel.rerun_start("t", json.dumps(["from IPython.display import Markdown, display\\ndisplay(Markdown('x'))"]))
print("ipython:", json.loads(kernel.rerun_next())["why"] or "shown nothing")
try:
    derive.plots.sigma_over_z(["relu"])
except ImportError as exc:
    print("plots:", exc)
import time
try:
    with budget.time_budget(0.05):
        time.sleep(0.1)
        with budget.time_budget(1.0):  # entered after the enclosing budget ran out: out of time at once
            raise AssertionError("not reached")
except budget.OutOfTime as exc:
    print("outer:", exc.outer, exc)
try:
    with budget.time_budget(0.05):
        time.sleep(0.1)
        budget.check()
except budget.OutOfTime as exc:
    print("check:", exc)
print("ok")
"""
    import subprocess

    done = subprocess.run([sys.executable, "-c", code.replace("KERNEL", repr(str(STATIC / "try_kernel.py")))],
                          capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert "numeric: derive.numeric needs numpy, which is not installed (the rest of derive works without it)" in lines
    assert "label: GELU (tanh)" in lines and "ipython: shown nothing" in lines
    assert "plots: derive.plots.sigma_over_z needs numpy, which is not installed here (the site shows the figure)" in lines
    assert "outer: False out of time after 0.05 s" in lines
    assert "check: out of time after 0.05 s" in lines
    assert lines[-1] == "ok"


def test_a_strategy_that_overran_its_share_says_so(monkeypatch):
    import sympy as sp

    from derive.kernel import budget, strategies

    monkeypatch.setattr(budget, "INTERRUPTS", False)
    monkeypatch.setitem(strategies.STRATEGIES, "slow", lambda diff: time.sleep(0.05))
    a = sp.Symbol("a", real=True)
    name, _, attempts = strategies.prove_zero(a - a + sp.sin(a) - sp.sin(a), ["slow", "expand"], budget=0.01)
    assert attempts[0].startswith("slow: no (over its 0.01 s: no timer signal here")
    assert name == "expand"


def test_kernel_reruns_cells_and_passes_over_what_needs_numpy():
    k = _kernel_module()
    cells = ["import derive\na = derive.real('a')",
             "one = derive.claim('t.rerun.one', (a + 1)**2, a**2 + 2*a + 1).prove()",
             "raise ImportError('no numpy here', name='numpy')",
             "figure = np.zeros(3)",
             "two = derive.claim('t.rerun.two', (a - 1)**2, a**2 - 2*a + 1).prove()"]
    assert json.loads(k.rerun_start("t_nb", json.dumps(cells))) == {"ok": True, "cells": 5}
    steps = [json.loads(k.rerun_next()) for _ in cells]
    assert [s["cell"] for s in steps] == [1, 2, 3, 4, 5] and steps[-1]["done"]
    assert steps[1]["made"] == {"t.rerun.one": "proved"} and not steps[1]["why"]
    assert steps[2]["passed"] and steps[2]["why"] == "cell 3 needs numpy, which this page does not have"
    assert steps[3]["passed"] and steps[3]["why"] == "cell 4: NameError: name 'np' is not defined (after cell 3)"
    assert steps[4]["made"] == {"t.rerun.one": "proved", "t.rerun.two": "proved"}
    assert json.loads(k.rerun_next())["done"]  # past the end: done, nothing run
    found = json.loads(k.rerun_record("t.rerun.two"))
    assert found["ok"] and found["record"]["verdict"] == "proved" and 'data-claim="t.rerun.two"' in found["html"]
    assert not json.loads(k.rerun_record("t.rerun.none"))["ok"]
    # a notebook's own error (nothing passed over before it) is an error, in one line
    k.rerun_start("t_bad", json.dumps(["1 / 0"]))
    bad = json.loads(k.rerun_next())
    assert bad["error"] == "cell 1: ZeroDivisionError: division by zero" and not bad["passed"]
    assert not json.loads(k.rerun_start("t_bad", "[1]"))["ok"]


def test_derive_wheel_is_pure_and_complete(tmp_path):
    whl = try_page.derive_wheel(tmp_path)
    assert whl.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(whl) as z:
        names = z.namelist()
        assert "derive/__init__.py" in names and "derive/kernel/claims.py" in names
        assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)
        assert "derive-0.1.0.dist-info/RECORD" in names
    assert try_page.derive_wheel(tmp_path).read_bytes() == whl.read_bytes()  # the same bytes again


def test_page_without_a_kernel_says_so(tmp_path):
    page = try_page.write(tmp_path, pyodide=tmp_path / "none", wheels=tmp_path / "none")
    text = page.read_text(encoding="utf-8")
    assert 'data-missing="Pyodide not found in' in text and not (tmp_path / "vendor").exists()


def test_bad_folders_are_type_errors():
    with pytest.raises(TypeError, match="find_pyodide: path must be"):
        try_page.find_pyodide(3)
    with pytest.raises(TypeError, match="find_wheels: path must be"):
        try_page.find_wheels(["x"])


# -- the page, in Chromium --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The try page and its assets, served on 127.0.0.1 (a free port)."""
    need(CHROMIUM.exists(), f"Debian's chromium is missing at {CHROMIUM}")
    for find, what in ((try_page.find_pyodide, "Pyodide"), (try_page.find_wheels, "the page's wheels"),
                       (vendor.find_mathjax, "MathJax")):
        try:
            find()
        except FileNotFoundError as exc:
            need(False, f"{what}: {exc}")
    here = tmp_path_factory.mktemp("try")
    try_page.write(here)
    import nbformat

    from derive.site import runs_from_files

    books = [ROOT / "notebooks" / f"{name}.ipynb" for name in ("01_key_value_view", "10_numeric_crosscheck")]
    try_page.write_notebooks(here, [(r, nbformat.read(r.source, as_version=4)) for r in runs_from_files(books)])
    vendor.copy_mathjax(vendor.find_mathjax(), here / "vendor" / "mathjax")
    shutil.copy2(STATIC / "mathjax-config.js", here / "static" / "mathjax-config.js")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(here)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", here
    server.shutdown()
    server.server_close()


#: the claim whose link (``try.html?claim=…``) opens the page every test here uses
LINKED = "kv.score_is_dot_product"


@pytest.fixture(scope="module")
def page(served, browser):
    url, _ = served
    requests = []
    pg = browser.new_page()
    pg.set_default_timeout(LOAD_MS)
    pg.on("request", lambda r: requests.append(r.url))
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    opened = time.perf_counter()
    pg.goto(url + "try.html?claim=" + LINKED)  # opened as a claim's link opens it (the page boots once for all)
    pg.evaluate("window.derive.ready")
    loaded = time.perf_counter() - opened
    first = pg.evaluate("window.derive.prove('(a + b)**2', 'a**2 + 2*a*b + b**2', '')")
    pg.first_verdict = (first, time.perf_counter() - opened, loaded)
    pg.served = str(served[1])
    pg.requests, pg.errors = requests, errors
    yield pg
    pg.close()


def test_page_proves_a_true_claim_first(page):
    record, seconds, loaded = page.first_verdict
    assert record["verdict"] == "proved" and record["strategy"] == "expand"
    # the second opinion runs in the page too, and its record names Z3's version
    second = record["second_opinion"]
    assert second["result"] == "agrees" and re.fullmatch(r"z3 \d+\.\d+\.\d+", second["engine"]), second
    timings = page.evaluate("window.derive.timings")
    print(f"\ntry page: boot {timings['boot']:.2f} s, wheels {timings['wheels'] - timings['boot']:.2f} s, "
          f"import {timings['import'] - timings['wheels']:.2f} s, ready {loaded:.2f} s, "
          f"first verdict {seconds:.2f} s after opening the page at a claim's link")
    assert not page.errors


def test_a_claims_link_opens_the_page_at_its_rerun(page):
    page.wait_for_selector(f"#try-rerun-out .derive-claim[data-claim='{LINKED}']")
    said = page.inner_text("#try-rerun-status")
    assert f"up to {LINKED}" in said and "on the site proved, here proved — the same verdict" in said
    assert page.input_value("#try-notebook") == "01_key_value_view"


def test_page_refutes_a_false_claim_with_its_witness(page):
    record = page.evaluate("window.derive.refute('relu(a)*b', 'relu(b)*a', '')")
    assert record["verdict"] == "refuted" and record["witness"] == {"a": "1", "b": "-1"}
    assert record["residual"] and record["interrupts"] is False


def test_page_classifies_relu_and_silu(page):
    relu = page.evaluate("window.derive.classify('relu(z)')")
    assert {k: v["verdict"] for k, v in relu["symmetries"].items()} == {
        "exchange": "refuted", "scale_positive": "proved", "scale_nonzero": "refuted"}
    silu = page.evaluate("window.derive.classify('silu(z)')")
    assert {k: v["verdict"] for k, v in silu["symmetries"].items()} == {
        "exchange": "refuted", "scale_positive": "refuted", "scale_nonzero": "refuted"}


def test_page_boxes_answer_with_the_notebooks_html(page):
    page.fill("#try-lhs", "relu(a)*b")
    page.fill("#try-rhs", "relu(b)*a")
    page.fill("#try-assume", "")
    page.click("#try-claim button[data-verb=decide]")
    card = page.wait_for_selector("#try-claim-out .try-answer .derive-claim")
    assert "refuted" in card.inner_text()
    page.fill("#try-sigma", "silu(z)")
    page.click("#try-classify button")
    table = page.wait_for_selector("#try-classify-out .derive-classification")
    assert table.query_selector("tr[data-symmetry=scale_positive][data-verdict=refuted]") is not None
    assert page.is_hidden("#try-claim-error")


def test_page_malformed_input_gives_one_line(page):
    page.fill("#try-lhs", "__import__('os').system('true')")
    page.click("#try-claim button[data-verb=prove]")
    page.wait_for_selector("#try-claim-error:not([hidden])")
    said = page.inner_text("#try-claim-error")
    assert said.startswith("ValueError: lhs: attribute access not allowed") and "\n" not in said
    with pytest.raises(Exception, match="unknown function 'open'"):
        page.evaluate("window.derive.prove('open(1)', '1', '')")


def test_page_later_verdicts(page):
    seconds = page.evaluate("""async () => {
        const t = performance.now();
        const r = await window.derive.prove('(sigma(a) + b)**2', 'sigma(a)**2 + 2*b*sigma(a) + b**2', '');
        return [r.verdict, (performance.now() - t) / 1000];
    }""")
    assert seconds[0] == "proved"
    print(f"\ntry page: a later verdict in {seconds[1]:.3f} s")


def test_page_reruns_a_notebook_claim_and_compares_it_with_the_site(page):
    out = page.evaluate("window.derive.rerun('kv.memory_sum')")
    assert out["notebook"] == "01_key_value_view" and out["committed"] == "proved"
    assert out["verdict"] == "proved" and out["same"] is True and out["record"]["id"] == "kv.memory_sum"
    assert out["record"]["second_opinion"]["result"] == "agrees"
    # a claim whose notebook needs numpy says so in one line
    with pytest.raises(Exception) as failed:
        page.evaluate("window.derive.rerun('crosscheck.agree.swiglu')")
    said = str(failed.value).splitlines()[0]
    assert "crosscheck.agree.swiglu: not re-run in the page: cell 1 needs numpy, which this page does not have" in said
    # its symbolic claims re-run all the same
    assert page.evaluate("window.derive.rerun('crosscheck.reglu_is_gated_form').then(r => r.same)") is True
    with pytest.raises(Exception, match="no notebook of this site makes this claim"):
        page.evaluate("window.derive.rerun('no.such.claim')")


def test_page_reruns_a_whole_notebook_from_its_box(page):
    page.select_option("#try-notebook", "01_key_value_view")
    page.click("#try-rerun button")
    page.wait_for_selector("#try-rerun-out table.try-rerun")
    rows = page.locator("#try-rerun-out table.try-rerun tbody tr")
    committed = json.loads((Path(page.served) / try_page.NOTEBOOKS).read_text())["01_key_value_view"]["claims"]
    assert rows.count() == len(committed) > 5
    assert page.locator("#try-rerun-out tr.try-differs, #try-rerun-out tr.try-not-run").count() == 0
    assert f"{len(committed)} of {len(committed)} claims re-run here" in page.inner_text("#try-rerun-out")


def test_page_makes_no_request_beyond_127_0_0_1(page):
    hosts = {urlparse(u).hostname for u in page.requests if not u.startswith(("data:", "blob:"))}
    assert page.requests and hosts == {"127.0.0.1"}, sorted(hosts)


def test_page_opened_from_disk_says_to_serve_it(served, browser):
    _, here = served
    pg = browser.new_page()
    try:
        pg.goto((here / "try.html").as_uri())
        pg.wait_for_function("document.getElementById('try-status').textContent.includes('http.server')")
        said = pg.inner_text("#try-status")
    finally:
        pg.close()
    assert "python -m http.server in site/" in said and "\n" not in said
