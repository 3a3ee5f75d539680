"""``site/try.html``: derive's kernel in the reader's browser, in Pyodide (CPython in WebAssembly), offline.

Everything the page runs is copied into the site at build time, nothing is fetched from elsewhere when it is
viewed: Pyodide's core from the npm package ``pyodide`` (``make`` runs ``npm install --prefix build/vendor
pyodide@<version>``), the pinned wheels of SymPy, mpmath, python-flint and Z3 for Pyodide (``make`` runs
``pip download`` into ``build/vendor/wheels``, then byte-compiles SymPy and mpmath with Pyodide's own Python in
node, ``precompile_wheels.mjs``, so the browser does not compile a thousand modules before its first answer) and a
wheel of derive itself, zipped from this package.

    site/try.html                  the claim box, the classifier box, and ``window.derive`` for scripts
    site/static/try.js, try.css    the page's script (boots Pyodide, loads the wheels) and its style
    site/static/try_kernel.py      the Python the page runs (reads the boxes, answers in JSON, re-runs notebooks)
    site/static/try-notebooks.json each notebook's code cells and the verdicts of its claims on the site, for re-runs
    site/vendor/pyodide/           Pyodide's core
    site/vendor/wheels/            the wheels, derive's among them
"""
from __future__ import annotations

import base64
import hashlib
import html
import json
import os
import shutil
import zipfile
from pathlib import Path
from urllib.parse import quote

__all__ = ["PAGE", "PYODIDE_ENV", "WHEELS_ENV", "WHEELS", "NOTEBOOKS", "find_pyodide", "find_wheels", "derive_wheel",
           "rerun_html", "notebook_code", "write", "write_notebooks"]

PAGE = "try.html"
#: the notebooks' code for the page's re-runs, in the site
NOTEBOOKS = "static/try-notebooks.json"
#: environment variables naming the folder of the npm package pyodide, and the folder of the wheels
PYODIDE_ENV = "DERIVE_PYODIDE"
WHEELS_ENV = "DERIVE_WHEELS"
#: the distributions the page loads besides derive (file names start with these), pinned in the Makefile
WHEELS = ("sympy-", "mpmath-", "python_flint-", "z3_solver-")
#: the files of Pyodide's core the page needs
CORE = ("pyodide.js", "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
        "package.json")
HERE = Path(__file__).parent
PACKAGE = HERE.parent
_NPM = Path("build") / "vendor" / "node_modules" / "pyodide"
_WHEELS = Path("build") / "vendor" / "wheels"


def _candidates(path, env: str, default: Path):
    if path is not None:
        yield Path(path)
        return
    if os.environ.get(env):
        yield Path(os.environ[env])
        return
    yield Path.cwd() / default
    yield PACKAGE.parents[1] / default  # the repository, for an editable install


def find_pyodide(path: str | os.PathLike | None = None) -> Path:
    """The folder of the npm package ``pyodide``: ``path``, else ``$DERIVE_PYODIDE``, else ``build/vendor``.

    Raises FileNotFoundError, saying how to fetch it, when no candidate holds Pyodide's core.
    """
    if path is not None and not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"find_pyodide: path must be a str or a path, got {type(path).__name__}")
    tried = []
    for folder in _candidates(path, PYODIDE_ENV, _NPM):
        if all((folder / name).is_file() for name in CORE):
            return folder
        tried.append(str(folder))
    raise FileNotFoundError(f"Pyodide not found in {' or '.join(tried)}: run `make` (it runs npm install "
                            "--prefix build/vendor pyodide)")


def find_wheels(path: str | os.PathLike | None = None) -> list[Path]:
    """The wheels of :data:`WHEELS` in ``path``, else ``$DERIVE_WHEELS``, else ``build/vendor/wheels``: one each.

    Raises FileNotFoundError, saying how to fetch them, when a folder lacks one (or holds two of one).
    """
    if path is not None and not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"find_wheels: path must be a str or a path, got {type(path).__name__}")
    tried = []
    for folder in _candidates(path, WHEELS_ENV, _WHEELS):
        found = [sorted(folder.glob(prefix + "*.whl")) if folder.is_dir() else [] for prefix in WHEELS]
        if all(len(f) == 1 for f in found):
            return [f[0] for f in found]
        short = [p.rstrip("-") for p, f in zip(WHEELS, found) if len(f) != 1]
        tried.append(f"{folder} (lacks or doubles {', '.join(short)})")
    raise FileNotFoundError(f"the page's wheels not found in {' or '.join(tried)}: run `make` (it runs pip download "
                            "into build/vendor/wheels)")


def _version() -> str:
    from .. import __version__

    return __version__


def derive_wheel(dest: str | os.PathLike) -> Path:
    """A pure-Python wheel of this package (its sources and package data, no byte code) written into ``dest``."""
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    version = _version()
    info = f"derive-{version}.dist-info"
    target = dest / f"derive-{version}-py3-none-any.whl"
    files = sorted(p for p in PACKAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                   and p.suffix not in (".pyc", ".pyo"))
    record = []
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as whl:
        def add(name: str, data: bytes) -> None:
            info_ = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))  # the same bytes from the same sources
            info_.compress_type = zipfile.ZIP_DEFLATED
            whl.writestr(info_, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{name},sha256={digest},{len(data)}")

        for p in files:
            add("derive/" + p.relative_to(PACKAGE).as_posix(), p.read_bytes())
        add(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: derive\nVersion: {version}\n".encode())
        add(f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: derive\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        record.append(f"{info}/RECORD,,")
        whl.writestr(zipfile.ZipInfo(f"{info}/RECORD", date_time=(1980, 1, 1, 0, 0, 0)), "\n".join(record) + "\n")
    return target


def write(dest: str | os.PathLike, nav: str = "", *, pyodide=None, wheels=None) -> Path:
    """Write ``try.html`` and everything it runs into the site folder ``dest``; return the page.

    ``pyodide`` and ``wheels`` are found by :func:`find_pyodide` and :func:`find_wheels` by default. When either
    is missing, the page is still written and says in one line that this build holds no kernel (and how to get it).
    """
    dest = Path(dest)
    (dest / "static").mkdir(parents=True, exist_ok=True)
    for name in ("try.js", "try.css", "try_kernel.py"):
        shutil.copy2(HERE / "static" / name, dest / "static" / name)
    try:
        core, found = find_pyodide(pyodide), find_wheels(wheels)
    except FileNotFoundError as exc:
        missing, names = str(exc), []
    else:
        missing = ""
        out = dest / "vendor" / "pyodide"
        out.mkdir(parents=True, exist_ok=True)
        for name in CORE + ("LICENSE", "README.md"):
            if (core / name).is_file():
                shutil.copy2(core / name, out / name)
        shelf = dest / "vendor" / "wheels"
        shelf.mkdir(parents=True, exist_ok=True)
        for w in found:
            shutil.copy2(w, shelf / w.name)
        names = [w.name for w in found] + [derive_wheel(shelf).name]
    text = (HERE / "templates" / "try.html").read_text(encoding="utf-8")
    text = text.replace("{{nav}}", nav).replace("{{wheels}}", html.escape(json.dumps(names)))
    text = text.replace("{{missing}}", html.escape(missing))
    page = dest / PAGE
    page.write_text(text, encoding="utf-8")
    return page


def rerun_html(ident: str) -> str:
    """The link after a claim's verdict to re-running it in the try page.

    >>> rerun_html("kv.a b")
    ' <a class="derive-rerun" href="try.html?claim=kv.a%20b" title="re-run the notebook of this claim in your browser and compare the verdict with this one">re-run</a>'
    """
    return (f' <a class="derive-rerun" href="{PAGE}?claim={html.escape(quote(ident))}" title="re-run the notebook of '
            'this claim in your browser and compare the verdict with this one">re-run</a>')


def notebook_code(nb) -> list[str]:
    r"""The code cells of notebook ``nb`` as the page runs them: their sources without IPython's ``%`` and ``!``
    lines (which plain Python cannot read).

    >>> import nbformat
    >>> notebook_code(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("%matplotlib inline\nx = 1"),
    ...                                                nbformat.v4.new_markdown_cell("# t")]))
    ['x = 1']
    """
    return ["\n".join(line for line in cell.source.splitlines() if not line.lstrip().startswith(("%", "!")))
            for cell in nb.cells if cell.cell_type == "code"]


def write_notebooks(dest: str | os.PathLike, notebooks, titles=None) -> Path:
    """Write :data:`NOTEBOOKS` into the site folder ``dest``: for each ``(run, notebook)``, its title (from
    ``titles``, else its name), its code cells and the verdict each of its claims has on the site (what a re-run
    in the page is compared with)."""
    names = list(titles) if titles is not None else [run.name for run, _ in notebooks]
    data = {run.name: {"title": title, "cells": notebook_code(nb),
                       "claims": {c["id"]: c["verdict"] for c in run.claims}}
            for (run, nb), title in zip(notebooks, names)}
    target = Path(dest) / NOTEBOOKS
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return target
