"""The static site: every executed notebook as an HTML page, and an index with the claims table and graph.

``derive build`` runs the notebooks into ``build/notebooks`` and calls :func:`build` on the runs; the site
reads from its own folder only (MathJax and the CSS are copied in), so ``site/index.html`` opens from disk.

    site/index.html               reading order, claims graph, table of every claim
    site/NN_name.html             one page per notebook; claims anchored as #claim-<id>
    site/static/, site/vendor/    CSS, the graph's script, MathJax 3 and its fonts
"""
from __future__ import annotations

import html
import os
import re
import shutil
from pathlib import Path

from .. import render
from ..runner import NotebookRun, claims_of
from ..verdict import Verdict
from . import pages, vendor
from .draw import svg
from .graph import STATUSES, ClaimGraph, claim_graph

__all__ = ["MARKER", "TITLE", "build", "check_target", "runs_from_files", "claim_graph", "ClaimGraph"]

#: a file every built site holds: only a folder holding it is ever replaced by a new build
MARKER = ".derive-site"
TITLE = "Gated MLPs as Symmetry-Broken Rank-1 Bilinear Attention"
STATIC = Path(__file__).parent / "static"
HOW_LONG, HOW_SHORT = 170, 120  # in the table, a longer "how" folds to its first HOW_SHORT characters
SHORT = {"fully-proved": "fully proved", "proved": "proved; rests on a claim not proved", "refuted": "refuted",
         "checked": "checked", "unproven": "unproven", "missing": "missing"}


def runs_from_files(paths) -> list[NotebookRun]:
    """Runs standing for notebooks as they are on disk (their committed outputs), without executing them."""
    import nbformat

    if isinstance(paths, (str, os.PathLike)):
        raise TypeError("runs_from_files: expected a list of notebook paths, got a single path")
    runs = []
    for p in map(Path, paths):
        if not p.is_file():
            raise ValueError(f"runs_from_files: no such notebook {p}")
        runs.append(NotebookRun(p, p, 0.0, claims_of(nbformat.read(p, as_version=4))))
    return runs


def check_target(out: str | os.PathLike) -> Path:
    """``out`` as a path, after checking that a build may replace it: absent, empty, or a previous build."""
    if not isinstance(out, (str, os.PathLike)):
        raise TypeError(f"build: out must be a folder path, got {type(out).__name__}")
    out = Path(out)
    if out.exists() and not (out / MARKER).is_file() and (not out.is_dir() or any(out.iterdir())):
        raise ValueError(f"build: refusing to replace {out}: it holds no {MARKER} from a previous build")
    return out


def _check_runs(runs) -> list[NotebookRun]:
    runs = list(runs)
    for r in runs:
        if not isinstance(r, NotebookRun):
            raise TypeError(f"build: expected derive.runner.NotebookRun items, got {type(r).__name__}")
        if r.output is None or not Path(r.output).is_file():
            raise ValueError(f"build: the run of {r.name} has no executed notebook at {r.output}")
    names = [r.name for r in runs]
    if len(set(names)) != len(names):
        raise ValueError(f"build: two notebooks share a name in {names}")
    return runs


def _inline_md(text: str) -> str:
    from nbconvert.filters.markdown import markdown2html

    out = markdown2html(text).strip()
    return out[3:-4] if out.startswith("<p>") and out.endswith("</p>") and out.count("<p>") == 1 else out


def _breakable(ident: str):
    """An identifier that may wrap after its dots and underscores (for narrow table columns)."""
    from markupsafe import Markup

    return Markup(html.escape(ident).replace(".", ".<wbr>").replace("_", "_<wbr>"))


def _status_css() -> str:
    rules = []
    for status, (_, fill, stroke, _) in STATUSES.items():
        style = "dashed" if status == "missing" else "solid"
        rules.append(f".status-dot.{status}, .swatch.{status} {{ background: {fill}; border: 1.5px {style} {stroke}; }}")
    return "\n".join(rules) + "\n"


def _write_static(dest: Path, exp, mathjax: Path) -> None:
    (dest / "static").mkdir(parents=True)
    extra = (STATIC / "jupyter-extra.css").read_text(encoding="utf-8")
    (dest / "static" / "jupyter.css").write_text(pages.lab_css(exp) + extra, encoding="utf-8")
    for name in ("mathjax-config.js", "site.js"):
        shutil.copy2(STATIC / name, dest / "static" / name)
    css = (STATIC / "site.css").read_text(encoding="utf-8") + _status_css()
    (dest / "static" / "site.css").write_text(css, encoding="utf-8")
    vendor.copy_mathjax(mathjax, dest / "vendor" / "mathjax")


def _nav(entries, k: int) -> tuple[str, str]:
    def link(j, text):
        name, title = entries[j]
        return (f'<a class="derive-nav-step" href="{pages.page_name(name)}">{text.format(f"{html.escape(name[:2])} · {title}")}'
                "</a>")

    prev = link(k - 1, "← {}") if k > 0 else ""
    nxt = link(k + 1, "{} →") if k + 1 < len(entries) else ""
    inner = (f'<a class="derive-nav-home" href="index.html">derive</a><a href="index.html#reading-order">Reading order</a>'
             f'<a href="index.html#graph">Claims graph</a><span class="derive-nav-steps">{prev}{nxt}</span>')
    return f'<nav class="derive-nav">{inner}</nav>', f'<nav class="derive-nav derive-nav-bottom">{inner}</nav>'


def build(runs, out: str | os.PathLike = "site", *, mathjax=None, title: str = TITLE) -> list[Path]:
    """Write the site for the executed notebooks of ``runs``; return the pages written, the index first.

    ``runs`` are :class:`derive.runner.NotebookRun` (from :func:`derive.runner.run_all` with an output folder,
    or :func:`runs_from_files`); ``mathjax`` is the folder of the npm package ``mathjax@3`` (default: found by
    :func:`derive.site.vendor.find_mathjax`). The folder ``out`` is replaced whole, only if it holds a
    previous build (or does not exist).
    """
    import nbformat

    runs = _check_runs(runs)
    if not isinstance(title, str):
        raise TypeError(f"build: title must be a str, got {type(title).__name__}")
    out = check_target(out)
    mathjax = vendor.find_mathjax(mathjax)
    notebooks = [(r, nbformat.read(r.output, as_version=4)) for r in runs]
    graph = claim_graph([(r.name, r.claims) for r in runs])
    anchors = {r.name: pages.anchored(nb) for r, nb in notebooks}
    has_table = {r.name: pages.has_table(nb) for r, nb in notebooks}

    def href(ident: str) -> str | None:
        node = graph.nodes.get(ident)
        if node is None or node.missing:
            return None
        page = pages.page_name(node.notebook)
        if ident in anchors[node.notebook]:
            return f"{page}#claim-{ident}"
        return f"{page}#claims" if has_table[node.notebook] else page

    tmp = out.parent / f".{out.name}.partial"  # written whole, then moved in place of the previous build
    if tmp.exists():
        shutil.rmtree(tmp)
    try:
        written = _write(tmp, runs, notebooks, graph, href, title, mathjax)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if out.exists():
        shutil.rmtree(out)
    tmp.rename(out)
    return [out / "index.html"] + [out / p.name for p in written]


def _write(tmp: Path, runs, notebooks, graph: ClaimGraph, href, title: str, mathjax: Path) -> list[Path]:
    """Every file of the site into the new folder ``tmp``; the notebook pages written, in reading order."""
    from jinja2 import Environment, FileSystemLoader

    exp = pages.exporter()
    _write_static(tmp, exp, mathjax)
    stems = [r.name for r in runs]
    titles = [pages.title_of(nb, r.name) for r, nb in notebooks]
    entries = [(r.name, _inline_md(re.sub(r"^\d+\s*[·.:—-]\s*", "", t))) for r, t in zip(runs, titles)]
    written = []
    for k, (r, nb) in enumerate(notebooks):
        ready = pages.prepare(nb, graph, href, titles[k], Path(r.source).parent)
        top, bottom = _nav(entries, k)
        resources = {"metadata": {"name": r.name, "path": str(Path(r.source).parent.resolve())},
                     "derive": {"nav": top, "nav_bottom": bottom}}
        body, _ = exp.from_notebook_node(ready, resources=resources)
        target = tmp / pages.page_name(r.name)
        target.write_text(pages.relink(body, stems, href), encoding="utf-8")
        written.append(target)
    env = Environment(loader=FileSystemLoader(str(pages.TEMPLATES)), autoescape=True)
    env.filters["wbr"] = _breakable
    context = _index_context(runs, notebooks, graph, entries, href, title)
    index = pages.relink(env.get_template("index.html.j2").render(**context), stems)
    (tmp / "index.html").write_text(index, encoding="utf-8")
    (tmp / "claims-graph.svg").write_text(context["svg"], encoding="utf-8")
    (tmp / MARKER).write_text("written by derive build; replaced whole by the next build\n", encoding="utf-8")
    return written


def _index_context(runs, notebooks, graph: ClaimGraph, entries, href, title) -> dict:
    legend = {s: v[0] for s, v in STATUSES.items()}
    steps = []
    for (r, nb), (_, title_html) in zip(notebooks, entries):
        statuses = [graph.nodes[c["id"]].status for c in r.claims if c["id"] in graph.nodes]
        counts = [(s, statuses.count(s)) for s in STATUSES if statuses.count(s)]
        summary = pages.summary_of(nb)
        steps.append({"href": pages.page_name(r.name), "number": r.name[:2], "title_html": title_html,
                      "summary_html": _inline_md(summary) if summary else "", "n_claims": len(r.claims),
                      "statuses": counts, "error": r.error})
    rows, seen = [], set()
    for r, step in zip(runs, steps):
        for k, c in enumerate(r.claims):
            node = graph.nodes[c["id"]]
            status = node.status if node.notebook == r.name else c["verdict"]
            how = render.how(c)
            rows.append({
                "group": step if k == 0 else None, "search": " ".join(
                    [c["id"], r.name, c["verdict"], SHORT[status], c.get("title") or "", how]).lower(),
                "how_short": how[:HOW_SHORT] if len(how) > HOW_LONG else "",
                "id": c["id"], "anchor": None if c["id"] in seen else f"claim-{c['id']}",
                "href": href(c["id"]) if node.notebook == r.name else pages.page_name(r.name),
                "page": pages.page_name(r.name), "notebook": r.name, "title": c.get("title") or "",
                "statement": c.get("statement", ""), "assume": r",\ ".join(c.get("assume_tex") or []),
                "badge": render.badge(Verdict(c["verdict"])), "status": status, "status_short": SHORT[status],
                "unexpected": render.unexpected(c), "expect": c.get("expect"),
                "how": how,
                "uses": [{"id": u, "href": None if graph.nodes[u].missing else f"#claim-{u}"} for u in c.get("uses", [])],
            })
            seen.add(c["id"])
    claims = [c for r in runs for c in r.claims]
    problems = [f"{r.name} failed: {r.error}" for r in runs if r.error]
    problems += [f"{c['id']}: expected {c['expect']}, got {c['verdict']}" for c in claims if render.unexpected(c)]
    missing = [n.id for n in graph.nodes.values() if n.missing]
    if missing:
        problems.append("used but stated in no notebook: " + ", ".join(missing))
    cycles = sorted(graph.cycles())
    if cycles:
        problems.append("claims that use each other in a circle: " + ", ".join(cycles))
    return {
        "title": title, "notebooks": steps, "claims": rows, "n_claims": len(claims), "problems": problems,
        "verdict_counts": render.verdict_counts(claims),
        "badges": {v.value: render.badge(v) for v in Verdict}, "fully": graph.counts()["fully-proved"],
        "legend": legend, "legend_items": [(s, v[0], v[1], v[2]) for s, v in STATUSES.items()],
        "svg": svg(graph, lambda node: href(node.id)),
    }
