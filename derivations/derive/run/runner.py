"""Execute the notebooks and collect every claim they make, with its verdict and time.

Notebooks run in fresh kernels of the current Python, forked from a warm server (:mod:`derive.run.kernels`), and
never rewrite the committed files unless asked (as by ``derive refresh``). The claims are read back from their
outputs: the claim table each notebook ends with carries every record under :data:`derive.present.render.TABLE_MIME`.

A run reports only what it computed. Every output is cleared before the notebook executes, so a cell the run
did not reach shows nothing, never its stored output. When a cell fails, the claims made so far are read from
the kernel itself (its :mod:`derive.kernel.registry`), and every claim the stored notebook has but this run did not
make is listed in :attr:`NotebookRun.not_run`: a failed notebook never passes for a checked one.
"""
from __future__ import annotations

import ast
import asyncio
import json
import os
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..kernel import describe
from ..present import render
from ..present.tables import SuiteTable

__all__ = ["NotebookRun", "NOT_RUN", "SUITE_FROM", "find_notebooks", "run_one", "run_all", "claims_of", "recorded_seconds",
           "suite_table"]

_ANSI = re.compile(r"\x1b\[[0-9;]*m")  # colour codes in kernel tracebacks
#: where :func:`suite_table` reads a folder's notebooks from instead of the folder itself: a run that executes every
#: notebook of a folder sets it, in the kernel of a notebook that reads the suite, to the folder the run writes its
#: executed notebooks to, so that the table is that run's and not the committed outputs'
SUITE_FROM: dict[str, str] = {}
#: what shows that a notebook reads the suite's claims (it is run after every other notebook of its folder)
_READS_SUITE = "suite_table("
#: the verdict of a claim the stored notebook has and a failed run did not make (never a :class:`Verdict`)
NOT_RUN = "not run"


@dataclass
class NotebookRun:
    """One executed notebook: where it came from, where it went, its claims, its time, its error if any.

    ``claims`` are the records this run made; ``not_run`` the claims of the stored notebook that a failed run
    did not make, each ``{"id", "verdict": "not run", "expect"}`` (their stored verdicts are not reported).
    """

    source: Path
    output: Path | None
    seconds: float
    claims: list[dict] = field(default_factory=list)
    error: str = ""
    not_run: list[dict] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.source.stem

    @property
    def ok(self) -> bool:
        return not self.error and not self.not_run and not any(describe.unexpected(c) for c in self.claims)


def find_notebooks(root: str | os.PathLike = "notebooks") -> list[Path]:
    """The numbered notebooks under ``root`` in reading order (``00_overview.ipynb``, ``01_…``)."""
    root = Path(root)
    if not root.is_dir():
        raise FileNotFoundError(f"no notebook folder at {root}")
    return sorted(p for p in root.glob("[0-9][0-9]_*.ipynb"))


def claims_of(nb) -> list[dict]:
    """Every claim record in an executed notebook: its last claim table, else its individual claim outputs.

    Each record gets what its output keeps as metadata: ``seconds``, and from a claim table ``smtlib`` (the
    queries that confirmed it, :func:`derive.kernel.opinion.smtlib`) where it has any.
    """
    tables, singles = [], {}
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data, meta = out.get("data", {}), out.get("metadata", {})
            if render.TABLE_MIME in data:
                kept = meta.get(render.TABLE_MIME, {})
                seconds, smtlib = kept.get("seconds", {}), kept.get("smtlib", {})
                tables.append([_with(r, seconds.get(r["id"]), smtlib.get(r["id"]))
                               for r in data[render.TABLE_MIME]["claims"]])
            if render.MIME in data:
                record = data[render.MIME]
                singles[record["id"]] = _with(record, meta.get(render.MIME, {}).get("seconds"), None)
    return tables[-1] if tables else list(singles.values())


def _with(record: dict, seconds, smtlib) -> dict:
    return {**record, "seconds": seconds, **({"smtlib": smtlib} if smtlib else {})}


def _clear(nb) -> None:
    """Remove every output and execution record, so that nothing a run did not compute remains."""
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        cell.metadata.pop("execution", None)


#: evaluated in a kernel after a failed cell: every claim made so far, as JSON (a user expression runs no cell)
_MADE = ("__import__('json').dumps([dict(s.record(), seconds=round(s.evidence.seconds, 4)) "
         "for s in __import__('derive.kernel.registry', fromlist=['statements']).statements()])")


async def _made_so_far(kc, timeout: float = 10.0) -> list[dict] | None:
    """The claims the kernel has made, read from its registry; ``None`` when it does not answer."""
    try:
        reply = await kc.execute_interactive("", silent=True, store_history=False, timeout=timeout,
                                             user_expressions={"made": _MADE})
        value = reply["content"]["user_expressions"]["made"]
        if value.get("status") != "ok":
            return None
        return json.loads(ast.literal_eval(value["data"]["text/plain"]))
    except Exception:  # a kernel that died or hangs: the outputs of the executed cells are all there is
        return None


def _one_line(exc: BaseException) -> str:
    from nbclient.exceptions import CellExecutionError

    if isinstance(exc, CellExecutionError):
        lines = [ln for ln in _ANSI.sub("", str(exc)).splitlines() if ln.strip()]
        return lines[-1].strip() if lines else "a cell failed"
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def _reads_suite(path: Path) -> bool:
    try:
        return _READS_SUITE in path.read_text(encoding="utf-8")
    except OSError:
        return False


async def _execute(source: Path, out_dir: Path | None, timeout: int, suite_from: Path | None = None) -> NotebookRun:
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError

    from . import kernels

    start = time.perf_counter()
    try:
        nb = nbformat.read(source, as_version=4)
    except Exception as exc:  # not JSON, not a notebook, unreadable: this notebook fails, the others run
        return NotebookRun(source, None, 0.0, [], f"cannot read {source.name}: {_one_line(exc)}")
    stored = claims_of(nb)
    _clear(nb)
    error, made = "", None
    try:
        async with kernels.running(source.parent.resolve()) as (km, kc):
            if suite_from is not None:  # (silent: no execution count, no output)
                code = (f"__import__('derive.run.runner', fromlist=['SUITE_FROM']).SUITE_FROM["
                        f"{str(source.parent.resolve())!r}] = {str(Path(suite_from).resolve())!r}")
                await kc.execute_interactive(code, silent=True, store_history=False, timeout=60)
            client = NotebookClient(nb, km=km, timeout=timeout)
            client.kc = kc
            try:
                await client.async_execute()
            except (CellExecutionError, CellTimeoutError) as exc:
                error = _one_line(exc)
                if isinstance(exc, CellTimeoutError):
                    await km.interrupt_kernel()  # the cell still runs: stop it, then ask what was made
                made = await _made_so_far(kc)
    except Exception as exc:  # the kernel could not start, died or timed out: report it, do not hide it
        error = _one_line(exc)
    seconds = time.perf_counter() - start
    target = source if out_dir is None else Path(out_dir) / source.name
    target.parent.mkdir(parents=True, exist_ok=True)
    if not error or out_dir is not None:  # whole or not at all, for whoever reads it meanwhile
        partial = target.with_name(f".{target.name}.partial")
        nbformat.write(nb, partial)
        os.replace(partial, target)
    claims = claims_of(nb) if made is None else made
    not_run = []
    if error:
        have = {c["id"] for c in claims}
        not_run = [{"id": r["id"], "verdict": NOT_RUN, "expect": r.get("expect")} for r in stored
                   if r["id"] not in have]
    return NotebookRun(source, target, seconds, claims, error, not_run)


def recorded_seconds(path: Path) -> float:
    """How long the stored run of a notebook took: the sum of its cells' recorded execution times (0 if none).

    >>> recorded_seconds(Path("no/such.ipynb"))
    0.0
    """
    from datetime import datetime

    try:
        cells = json.loads(Path(path).read_text(encoding="utf-8")).get("cells", [])
    except (OSError, ValueError, AttributeError):
        return 0.0
    total = 0.0
    for cell in cells:
        times = cell.get("metadata", {}).get("execution", {})
        try:
            total += (datetime.fromisoformat(times["shell.execute_reply"].replace("Z", "+00:00"))
                      - datetime.fromisoformat(times["iopub.execute_input"].replace("Z", "+00:00"))).total_seconds()
        except (KeyError, TypeError, ValueError):
            continue
    return total


def run_one(source: Path, out_dir: Path | None, timeout: int = 900) -> NotebookRun:
    """Execute one notebook in a fresh kernel; write it to ``out_dir`` (or back to ``source`` when ``None``)."""
    return run_all([source], out_dir, workers=1, timeout=timeout)[0]


def run_all(paths, out_dir: Path | None, workers: int | None = None, progress=None,
            timeout: int = 900) -> list[NotebookRun]:
    """Execute notebooks ``workers`` at a time, each in a fresh kernel, calling ``progress(done, total, run)``.

    The kernels are forked from a process that has already imported what the notebooks import
    (:mod:`derive.run.kernels`), so a notebook's time is its own work, not Python's start-up. The notebooks whose
    stored run took longest start first (:func:`recorded_seconds`), so that none of them is left running alone
    at the end; the runs are returned in the order of ``paths``. A notebook that reads the suite's claims (the
    overview: :func:`suite_table`) starts once every other one has finished, and when this run executes every
    notebook of its folder, it reads them as this run wrote them (:data:`SUITE_FROM`), not as committed.

    >>> import tempfile, nbformat
    >>> from pathlib import Path
    >>> from derive.run.runner import run_all
    >>> folder = Path(tempfile.mkdtemp())
    >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
    ...     "import derive\\na = derive.real('a')\\nderive.claim('doc.square', (a + 1)**2, a**2 + 2*a + 1).prove()")])
    >>> nbformat.write(nb, folder / "01_doc.ipynb")
    >>> [run] = run_all([folder / "01_doc.ipynb"], folder / "out")
    >>> run.ok, [(c["id"], c["verdict"]) for c in run.claims], run.output.name
    (True, [('doc.square', 'proved')], '01_doc.ipynb')
    """
    from . import kernels

    paths = [Path(p) for p in paths]
    workers = workers or min(len(paths), os.cpu_count() or 1) or 1
    runs: dict[Path, NotebookRun] = {}
    kernels.warm()  # the kernel server imports while the notebooks are read
    running: dict[str, object] = {}

    async def all_of_them():
        running["loop"], running["task"] = asyncio.get_running_loop(), asyncio.current_task()
        slots = asyncio.Semaphore(workers)

        async def one(path, after=(), suite_from=None):
            if after:  # (each of them finished, whether it failed or not)
                await asyncio.gather(*after, return_exceptions=True)
            async with slots:
                return await _execute(path, out_dir, timeout, suite_from)

        readers = [p for p in paths if _reads_suite(p)]
        longest_first = sorted((p for p in paths if p not in readers), key=recorded_seconds, reverse=True)
        tasks = [asyncio.ensure_future(one(p)) for p in longest_first]  # they take the slots in this order
        for reader in readers:
            whole = {q.resolve() for q in find_notebooks(reader.parent)} <= {q.resolve() for q in paths}
            tasks.append(asyncio.ensure_future(one(reader, tuple(tasks), out_dir if whole else None)))
        try:
            for next_done in asyncio.as_completed(tasks):
                run = await next_done
                runs[run.source] = run
                if progress:
                    progress(len(runs), len(paths), run)
        finally:  # interrupted: every notebook stops, and its kernel with it
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            # what nbclient left polling a stopped kernel ends here, its exception read, not printed at exit
            strays = asyncio.all_tasks() - {asyncio.current_task()}
            for task in strays:
                task.cancel()
            await asyncio.gather(*strays, return_exceptions=True)

    # The notebooks run on an event loop of their own, in a thread: this thread stays free for Ctrl-C (and for
    # a loop of its own, as in a notebook), and nbclient installs no signal handlers off the main thread.
    failure: list[BaseException] = []
    finished = threading.Event()  # waited on, not the thread: an interrupted Thread.join can lose track of it

    def in_thread():
        try:
            asyncio.run(all_of_them())
        except BaseException as exc:  # handed to the calling thread
            failure.append(exc)
        finally:
            finished.set()

    threading.Thread(target=in_thread, name="derive-notebooks", daemon=True).start()
    try:
        while not finished.wait(0.1):
            pass
    except KeyboardInterrupt:
        if "task" in running:
            running["loop"].call_soon_threadsafe(running["task"].cancel)
        finished.wait(30)
        raise
    if failure:
        raise failure[0]
    return [runs[p] for p in paths]


def suite_table(root="notebooks", exclude=("00_overview",)) -> SuiteTable:
    """The claims of every numbered notebook under ``root``, as their committed outputs record them, or, within a run
    of every notebook of ``root`` (``derive check``, ``derive build``), as that run wrote them (:data:`SUITE_FROM`).

    nbval re-executes each of those notebooks and compares these outputs, so the table shows verified runs.
    """
    import nbformat

    found = find_notebooks(root)
    here = Path(SUITE_FROM.get(str(Path(root).resolve()), root))
    read = [here / path.name for path in found if path.stem not in exclude]
    rows = [(path.stem, record) for path in read for record in claims_of(nbformat.read(path, as_version=4))]
    # a table that leaves a notebook out (the overview, whose own outputs are being written) says so in its heading
    return SuiteTable(rows, f"in the other {len(read)} notebooks" if len(read) < len(found) else "in the suite")
