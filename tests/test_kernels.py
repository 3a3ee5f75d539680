"""Forked kernels: each notebook still gets a fresh kernel of its own, and a failing kernel is reported, not hung on."""
import asyncio
import json
import os
import time
from pathlib import Path

import nbformat
import pytest

from derive.run import kernels, runner
from test_cli import write_notebook


def stream_text(run) -> str:
    nb = nbformat.read(run.output, as_version=4)
    return "".join(out.get("text", "") for cell in nb.cells for out in cell.outputs if out.output_type == "stream")


def gone(pid: int, within: float = 5.0) -> bool:
    """The process has exited (a zombie left for its new parent to reap counts as exited)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        stat = Path(f"/proc/{pid}/stat")
        if stat.exists() and stat.read_text().rsplit(")", 1)[-1].split()[0] == "Z":
            return True
        time.sleep(0.05)
    return False


REPORT = ("import json, os, ipykernel, numpy, derive\n"
          "print(json.dumps({'pid': os.getpid(), 'cwd': os.getcwd(), 'rand': numpy.random.rand(),\n"
          "                  'leak': hasattr(derive, '_leak'), 'connection': ipykernel.get_connection_file()}))")


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    base = tmp_path_factory.mktemp("fresh")
    first = write_notebook(base / "nbs" / "01_first.ipynb", [REPORT, "derive._leak = 1\nx = 1"])
    second = write_notebook(base / "nbs" / "02_second.ipynb", [REPORT, "assert 'x' not in globals()"])
    runs = runner.run_all([first, second], base / "out", workers=1)
    return base, runs, [json.loads(stream_text(r).splitlines()[0]) for r in runs]


def test_every_notebook_gets_a_fresh_kernel_in_its_own_folder(pair):
    base, runs, reports = pair
    assert [r.error for r in runs] == ["", ""]
    assert reports[0]["pid"] != reports[1]["pid"] != os.getpid()
    assert [r["leak"] for r in reports] == [False, False]  # the first notebook's change did not reach the second
    assert all(Path(r["cwd"]) == (base / "nbs").resolve() for r in reports)
    assert reports[0]["rand"] != reports[1]["rand"]  # NumPy's global generator reseeded in each kernel


def test_kernels_are_stopped_and_cleaned_up_after_the_run(pair):
    _, _, reports = pair
    assert all(gone(r["pid"]) for r in reports)
    assert not any(Path(r["connection"]).parent.exists() for r in reports)  # connection file and IPC sockets


@pytest.mark.parametrize("magic", ["%matplotlib inline\n", ""])
def test_figures_come_out_inline_as_in_a_launched_kernel(tmp_path, magic):
    plot = magic + "import matplotlib.pyplot as plt\nplt.plot([0, 1], [1, 0]);"
    nb = write_notebook(tmp_path / "01_plot.ipynb", [plot])
    run = runner.run_one(nb, tmp_path / "out")
    assert run.error == ""
    outputs = nbformat.read(run.output, as_version=4).cells[0].outputs
    assert any("image/png" in out.get("data", {}) for out in outputs)


def test_a_dying_kernel_is_reported(tmp_path):
    nb = write_notebook(tmp_path / "01_dies.ipynb", ["import os\nos._exit(3)", "print('never')"])
    start = time.monotonic()
    run = runner.run_one(nb, tmp_path / "out")
    assert "DeadKernelError" in run.error
    assert time.monotonic() - start < 60


def test_a_cell_past_the_timeout_is_reported_and_its_kernel_stopped(tmp_path):
    nb = write_notebook(tmp_path / "01_slow.ipynb", ["import os\nprint(os.getpid(), flush=True)",
                                                      "import time\ntime.sleep(60)"])
    start = time.monotonic()
    run = runner.run_all([nb], tmp_path / "out", timeout=2)[0]
    assert "CellTimeoutError" in run.error
    assert time.monotonic() - start < 30
    assert gone(int(stream_text(run).split()[0]))


def test_a_kernel_that_cannot_start_is_reported(tmp_path, monkeypatch):
    asked = []

    def refuse(connection_file, cwd):
        asked.append(connection_file)
        raise RuntimeError("the kernel server could not fork a kernel: OSError: no memory")

    monkeypatch.setattr(kernels, "_fork", refuse)
    nb = write_notebook(tmp_path / "01_any.ipynb", ["1 + 1"])
    run = runner.run_one(nb, tmp_path / "out")
    assert run.error == "RuntimeError: the kernel server could not fork a kernel: OSError: no memory"
    assert len(asked) == 1 and not Path(asked[0]).parent.exists()


PROBE = """import json, os, signal, sys
import matplotlib
print(json.dumps({
    "path": sys.path, "cwd": os.getcwd(), "backend": matplotlib.get_backend(),
    "env": {k: os.environ.get(k) for k in ("MPLBACKEND",)}, "parent_known": "JPY_PARENT_PID" in os.environ,
    "shell": type(get_ipython()).__name__, "stdout": type(sys.stdout).__name__,
    "sigchld": str(signal.getsignal(signal.SIGCHLD)), "session_leader": os.getsid(0) == os.getpid(),
    "main": sys.modules["__main__"].__name__, "user_ns_main": __name__,
}))"""


def test_a_forked_kernel_looks_like_a_launched_one(tmp_path):
    from nbclient import NotebookClient

    nb_path = write_notebook(tmp_path / "01_probe.ipynb", [PROBE])
    forked = json.loads(stream_text(runner.run_one(nb_path, tmp_path / "out")))
    nb = nbformat.read(nb_path, as_version=4)
    NotebookClient(nb, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    launched = json.loads("".join(out["text"] for out in nb.cells[0].outputs if out.get("name") == "stdout"))
    assert forked == launched


def test_a_server_that_died_is_started_again(tmp_path):
    nb = write_notebook(tmp_path / "01_any.ipynb", ["1 + 1"])
    assert runner.run_one(nb, tmp_path / "out").error == ""
    kernels._server.kill()
    kernels._server.wait()
    assert runner.run_one(nb, tmp_path / "again").error == ""


def test_what_a_kernel_started_is_stopped_with_it(tmp_path):
    nb = write_notebook(tmp_path / "01_child.ipynb", [
        "import subprocess, sys\nchild = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        "print(child.pid)"])
    run = runner.run_one(nb, tmp_path / "out")
    assert run.error == ""
    assert gone(int(stream_text(run)))


def test_ctrl_c_stops_the_run_and_its_kernels(tmp_path):
    import signal
    import subprocess
    import sys

    write_notebook(tmp_path / "notebooks" / "01_slow.ipynb", [
        "import os\nopen('kernel.pid', 'w').write(str(os.getpid()))", "import time\ntime.sleep(60)"])
    proc = subprocess.Popen([sys.executable, "-m", "derive", "check", "--root", "notebooks"], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    pid_file = tmp_path / "notebooks" / "kernel.pid"
    try:
        deadline = time.monotonic() + 60
        while not (pid_file.exists() and pid_file.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=45)
    finally:
        proc.kill()  # only if it is still there: a hang fails the test, and leaves nothing behind
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1] == "derive check: interrupted", err
    pid = int(pid_file.read_text())
    assert gone(pid, within=15), f"kernel {pid} still running after the interrupt (on a loaded machine too)\n{err}"


def test_a_long_temporary_folder_does_not_break_the_sockets(tmp_path, monkeypatch):
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    monkeypatch.setenv("TMPDIR", str(deep))
    monkeypatch.setattr(kernels.tempfile, "tempdir", None)  # read TMPDIR again
    nb = write_notebook(tmp_path / "01_any.ipynb", ["1 + 1"])
    assert runner.run_one(nb, tmp_path / "out").error == ""


def test_a_kernel_that_dies_starting_says_why(tmp_path, capfd):
    kernels._stop()  # a server started now writes to this test's captured stderr
    km = kernels.start(tmp_path / "no" / "such" / "folder")
    try:
        with pytest.raises(RuntimeError, match="the kernel died before it answered"):
            asyncio.run(kernels.connect(km, timeout=30))
    finally:
        asyncio.run(km.cleanup_resources())
    assert "derive kernel for " in capfd.readouterr().err
