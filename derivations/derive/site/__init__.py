"""The static site: every executed notebook as an HTML page, and an index with the claims table and graph.

``derive build`` runs the notebooks into ``build/notebooks`` and calls :func:`build` on the runs; the site
reads from its own folder only (MathJax and the CSS are copied in), so ``site/index.html`` opens from disk.

    site/index.html               the blueprint of the paper (Graphviz), reading order, references
    site/claims.html              every claim by step and paper item, each step's claim graph
    site/NN_name.html             one page per notebook; claims anchored as #claim-<id>
    site/figures/                 the notebooks' figures as PNG files (a tap opens one full size)
    site/smtlib/<claim id>.smt2   the queries that confirmed a claim, in SMT-LIB 2.6 (:mod:`.smtlib`)
    site/static/, site/vendor/    CSS, scripts, the search index, MathJax 3 and its fonts
    site/derive.pdf               every notebook page in reading order, printed by headless Chromium
"""
from __future__ import annotations

import html
import os
import re
import shutil
import sys
from pathlib import Path

from markupsafe import Markup

from ..kernel import describe
from ..present import layout, paper, plain, render
from ..present.audit import audit
from .. import second
from ..run.runner import NotebookRun, claims_of
from ..kernel.verdict import Verdict
from . import blueprint, book, pages, search_index, smtlib, try_page, vendor
from .graph import STATUSES, ClaimGraph, claim_graph

__all__ = ["MARKER", "TITLE", "build", "check_target", "runs_from_files", "claim_graph", "ClaimGraph", "page_title",
           "statement_pieces", "statement_markup"]

#: a file every built site holds: only a folder holding it is ever replaced by a new build
MARKER = ".derive-site"
TITLE = "Gated MLPs as Symmetry-Broken Rank-1 Bilinear Attention"
STATIC = Path(__file__).parent / "static"
HOW_LONG = 150  # on the claims page, a longer "how" folds (a refutation keeps its certificate, folds its witness)
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
            raise TypeError(f"build: expected derive.run.runner.NotebookRun items, got {type(r).__name__}")
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
        rules.append(f".claim-card.{status} {{ border-left-color: {stroke}; }}")
    for status, (_, fill, stroke, _) in blueprint.ITEM_STATUSES.items():
        style = "dashed" if status == "empty" else "solid"
        if status == "settled":  # its box's bar: proved, then refuted, under the text
            fill = (f"linear-gradient(to right, {blueprint.BAR[0]} 50%, {blueprint.BAR[1]} 50%) "
                    f"center bottom 2px / 70% 3px no-repeat, {fill}")
        rules.append(f".swatch.item-{status} {{ background: {fill}; border: 1.5px {style} {stroke}; }}")
    return "\n".join(rules) + "\n"


def _write_static(dest: Path, exp, mathjax: Path) -> None:
    (dest / "static").mkdir(parents=True)
    extra = (STATIC / "jupyter-extra.css").read_text(encoding="utf-8")
    (dest / "static" / "jupyter.css").write_text(pages.lab_css(exp) + extra, encoding="utf-8")
    for name in ("mathjax-config.js", "folded.js", "site.js", "favicon.svg"):
        shutil.copy2(STATIC / name, dest / "static" / name)
    css = (STATIC / "site.css").read_text(encoding="utf-8") + _status_css()
    (dest / "static" / "site.css").write_text(css, encoding="utf-8")
    vendor.copy_mathjax(mathjax, dest / "vendor" / "mathjax")
    try_page.write(dest, NAV)  # the kernel in the browser: Pyodide and the wheels, copied in


#: the bar at the top of every page: home, the three parts of the index, and the search box
NAV = ('<nav class="derive-nav" aria-label="site"><a class="derive-nav-home" href="index.html">derive</a>'
       '<a href="index.html#blueprint">Blueprint</a><a href="index.html#reading-order">Reading order</a>'
       '<a href="claims.html">All claims</a>'
       '<span class="derive-search"><input type="search" class="derive-search-box" placeholder="search…" '
       'aria-label="search the pages and the claims"><span class="derive-search-results" hidden></span></span>'
       '</nav>')


def _nav(entries, k: int) -> tuple[str, str]:
    """The top bar of a notebook's page, and the links to the previous and next pages under it."""
    def link(j, rel, arrow):
        name, title = entries[j]
        where = "previous" if rel == "prev" else "next"
        return (f'<a class="derive-nav-step derive-{rel}" rel="{rel}" href="{pages.page_name(name)}">'
                f'<span class="derive-nav-where">{arrow} {where}</span><span class="derive-nav-title">{title}</span></a>')

    prev = link(k - 1, "prev", "←") if k > 0 else "<span></span>"
    nxt = link(k + 1, "next", "→") if k + 1 < len(entries) else "<span></span>"
    return NAV, f'<nav class="derive-pager" aria-label="pages">{prev}{nxt}</nav>'


def build(runs, out: str | os.PathLike = "site", *, mathjax=None, title: str = TITLE, pdf: bool = True) -> list[Path]:
    """Write the site for the executed notebooks of ``runs``; return the pages written, the index first.

    ``runs`` are :class:`derive.run.runner.NotebookRun` (from :func:`derive.run.runner.run_all` with an output folder,
    or :func:`runs_from_files`); ``mathjax`` is the folder of the npm package ``mathjax@3`` (default: found by
    :func:`derive.site.vendor.find_mathjax`). The folder ``out`` is replaced whole, only if it holds a
    previous build (or does not exist). With ``pdf`` the notebook pages are also printed, in reading order,
    to ``derive.pdf`` by headless Chromium; without Chromium one line says the PDF was skipped.
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
    printer = book.Printer(tmp, title) if pdf else None  # Chromium starts now; each page typeset once written
    try:
        try:
            written = _write(tmp, runs, notebooks, graph, href, title, mathjax, pdf and book.chromium() is not None,
                             printer.add if printer else None)
        except BaseException:
            if printer:
                printer.stop()
            raise
        if printer:
            done, why = printer.finish()
            if done is None:
                print(f"site: skipped {book.PDF}: {why}", file=sys.stderr)
                _unlink_pdf(tmp)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if out.exists():
        shutil.rmtree(out)
    tmp.rename(out)
    return [out / "index.html"] + [out / p.name for p in written]


def _unlink_pdf(tmp: Path) -> None:
    """After a failed print, the index no longer links to the PDF."""
    index = tmp / "index.html"
    text = index.read_text(encoding="utf-8")
    index.write_text(re.sub(r'<span class="derive-pdf">.*?</span>', "", text, flags=re.S), encoding="utf-8")


def _write(tmp: Path, runs, notebooks, graph: ClaimGraph, href, title: str, mathjax: Path, pdf: bool,
           page_written=None) -> list[Path]:
    """Every file of the site into the new folder ``tmp``; the notebook pages written, in reading order.

    ``page_written`` is called with each notebook page as soon as it is written, in reading order."""
    from jinja2 import Environment, FileSystemLoader

    exp = pages.exporter()
    _write_static(tmp, exp, mathjax)
    stems = [r.name for r in runs]
    titles = [pages.title_of(nb, r.name) for r, nb in notebooks]
    entries = [(r.name, html.escape(page_title(r.name, t))) for r, t in zip(runs, titles)]
    search = search_index.SearchIndex()
    scripts = smtlib.write(tmp, runs)
    try_page.write_notebooks(tmp, notebooks, titles)  # what the try page re-runs, and the verdicts it compares with
    written = []
    for k, (r, nb) in enumerate(notebooks):
        ready = pages.prepare(nb, graph, href, page_title(r.name, titles[k]), Path(r.source).parent, scripts)
        top, bottom = _nav(entries, k)
        resources = {"metadata": {"name": r.name, "path": str(Path(r.source).parent.resolve())},
                     "derive": {"nav": top, "nav_bottom": bottom}}
        body, _ = exp.from_notebook_node(ready, resources=resources)
        body = pages.code_lines(pages.relink(body, stems, href))
        body = pages.figures_to_files(body, tmp, r.name)
        body, headings = pages.with_contents(body)
        target = tmp / pages.page_name(r.name)
        target.write_text(body, encoding="utf-8")
        search.add_page(target.name, page_title(r.name, titles[k]), pages.summary_of(nb), headings,
                        pages.prose_of(nb))
        written.append(target)
        if page_written is not None:
            page_written(target)
    env = Environment(loader=FileSystemLoader(str(pages.TEMPLATES)), autoescape=True)
    env.filters["wbr"] = _breakable
    env.filters["pieces"] = statement_pieces
    env.filters["statement"] = statement_markup
    context = _index_context(runs, notebooks, graph, entries, href, title, scripts)
    context["pdf"] = pdf
    for row in context["claims"]:
        search.add_claim(row["href"], row["id"], row["title"], row["statement"], row["verdict"], row["how"],
                         row["caption"])
    for name in ("index.html", "claims.html"):
        text = pages.relink(env.get_template(name + ".j2").render(**context), stems, href)
        text, headings = pages.with_contents(text)
        (tmp / name).write_text(text, encoding="utf-8")
    (tmp / "static" / "search-index.js").write_text(search.script(), encoding="utf-8")
    if context["svg"]:
        (tmp / "blueprint.svg").write_text(context["svg"], encoding="utf-8")
    (tmp / MARKER).write_text("written by derive build; replaced whole by the next build\n", encoding="utf-8")
    return written


def page_title(name: str, heading: str) -> str:
    """The title of a notebook's page, the same in its tab, the navigation, the index and the book.

    >>> page_title("05_symmetry_breaking", "Step 5 — symmetry breaking: what the gated MLP gives up")
    'Step 5 · Symmetry breaking'
    >>> page_title("00_overview", "Gated MLPs … — overview")
    'Overview'
    """
    step = paper.step_of_notebook(name)
    if step is not None:
        return step.title
    if name.startswith("00_"):
        return "Overview"
    return re.sub(r"[$`*_]", "", re.sub(r"^\d+\s*[·.:—-]\s*", "", heading))


#: a statement longer than this is cut into pieces at its top-level = + − (so that it wraps on a phone)
PIECE = 48


def statement_pieces(tex: str) -> list[str]:
    """A LaTeX statement cut at its top-level relations and sums, each piece typeset on its own.

    MathJax 3 does not break lines; pieces do wrap. Nothing inside braces, ``\\left … \\right`` or an
    environment is cut, so each piece is valid LaTeX.

    >>> statement_pieces("a = b")
    ['a = b']
    >>> statement_pieces(r"\\left(x + y\\right) + " + "z" * 50 + " = w")
    ['\\\\left(x + y\\\\right)', '+ zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz', '= w']
    >>> statement_pieces("y" * 50 + r" = x\\quad \\text{where } x = 1 + " + "z" * 30 + r",\\ c = 2")[1:]
    ['= x', '\\\\text{where } x = 1 + zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz,', 'c = 2']
    """
    if len(tex) <= PIECE:
        return [tex]
    main, told = layout.definitions(tex)  # a definition after "where" is one piece: never cut at its "="
    pieces = [main] if len(main) <= PIECE else layout.split_top(main, r" (?=[=+-] )")
    return pieces + ([r"\text{where } " + told[0], *told[1:]] if told else [])


def _piece(tex: str) -> str:
    if _OPENS.match(tex):  # "+ c" typeset alone is a unary plus; after an empty group it is spaced as binary
        tex = "{} " + tex
    return f'<span class="cc-piece">\\(\\displaystyle {html.escape(tex)}\\)</span>'


_OPENS = re.compile(r"(=|\+|-|\\neq|\\leq|\\geq|<|>) ")


def statement_markup(tex: str) -> Markup:
    r"""A statement on the claims page: pieces that wrap when it is one line (:func:`statement_pieces`), the rows
    of :func:`derive.present.layout.broken` when it is longer than the column, folded behind "show in full" (its
    first row in view) when even those are wider.

    >>> str(statement_markup("a = b"))
    '<span class="cc-piece">\\(\\displaystyle a = b\\)</span>'
    >>> "<details" in statement_markup(r"\left[\begin{matrix}" + " + ".join(["a_{1}"] * 60) + r"\end{matrix}\right] = b")
    True
    """
    rows = layout.broken(tex)
    if not layout.fits(rows):
        first = layout.preview(tex)
        preview = _piece(first) + " " if first else ""
        return Markup(f'<details class="derive-full"><summary>{preview}<span class="derive-show">show in full</span>'
                      f'</summary>{_piece(layout.aligned(rows))}</details>')
    if len(rows) == 1:
        return Markup(" ".join(_piece(p) for p in statement_pieces(tex)))
    return Markup(_piece(layout.aligned(rows)))


def _item_rows(runs, graph: ClaimGraph, rows: list[dict]) -> list[dict]:
    """The claims page's groups: each notebook, then its claims by paper item (exercises and examples last)."""
    by_id = {}
    groups = []
    homes = {i.id: i.step for i in paper.ITEMS}
    anchored = set()
    for row in rows:
        if row["group"]:
            groups.append({"step": row["group"], "items": [], "graph": row["group"].get("graph")})
            by_id = {}
        item = paper.item_of({"id": row["id"], "paper": row.get("paper")})
        if item not in by_id:
            label = next((f"{i.id} · {i.label}" for i in paper.ITEMS if i.id == item), "Exercises and examples")
            step = groups[-1]["step"]["number"]
            if item and homes.get(item) != step:  # an item of another step, which this one uses or shows again
                label += f" (an item of {'step ' if homes[item][0].isdigit() else ''}{homes[item]})"
            by_id[item] = {"id": None, "label": label, "claims": [], "key": item, "home": homes.get(item) == step}
            groups[-1]["items"].append(by_id[item])
        by_id[item]["claims"].append(row)
    shown = [i for g in groups for i in g["items"] if i["key"]]
    for entry in sorted(shown, key=lambda i: not i["home"]):  # an item's anchor: where it is stated, else first
        if entry["key"] not in anchored:
            entry["id"] = f"item-{entry['key']}"
            anchored.add(entry["key"])
    for g in groups:  # the paper's items in its order, then the claims of no item
        g["items"].sort(key=lambda i: (i["key"] is None, [x.id for x in paper.ITEMS].index(i["key"])
                                       if i["key"] else 0))
    return groups


def _index_context(runs, notebooks, graph: ClaimGraph, entries, href, title, scripts=()) -> dict:
    legend = {s: v[0] for s, v in STATUSES.items()}
    steps = []
    for (r, nb), (_, title_html) in zip(notebooks, entries):
        statuses = [graph.nodes[c["id"]].status for c in r.claims if c["id"] in graph.nodes]
        counts = [(s, statuses.count(s)) for s in STATUSES if statuses.count(s)]
        summary = pages.summary_of(nb)
        ids = [c["id"] for c in r.claims if graph.nodes.get(c["id"]) and graph.nodes[c["id"]].notebook == r.name]
        drawn = blueprint.dot_svg(blueprint.claims_dot(graph, ids, href), "claims-graph") if ids else None
        steps.append({"href": pages.page_name(r.name), "number": _step_number(r.name), "title_html": title_html,
                      "heading_html": _inline_md(pages.title_of(nb, r.name)),
                      "summary_html": _inline_md(summary) if summary else "", "n_claims": len(r.claims),
                      "statuses": counts, "error": r.error, "graph": drawn, "anchor": f"step-{r.name}"})
    rows, seen = [], set()
    for r, step in zip(runs, steps):
        for k, c in enumerate(r.claims):
            node = graph.nodes[c["id"]]
            status = node.status if node.notebook == r.name else c["verdict"]
            how = describe.how(c)
            rows.append({
                "group": step if k == 0 else None, "search": " ".join(
                    [c["id"], r.name, c["verdict"], SHORT[status], c.get("title") or "", how]).lower(),
                "how_html": Markup(render.how_html(c, HOW_LONG)),
                "id": c["id"], "anchor": None if c["id"] in seen else f"claim-{c['id']}",
                "href": href(c["id"]) if node.notebook == r.name else pages.page_name(r.name),
                "page": pages.page_name(r.name), "notebook": r.name, "title": plain.title_text(c.get("title") or ""),
                "statement": c.get("statement", ""), "assume": r",\ ".join(c.get("assume_tex") or []),
                "badge": render.badge(Verdict(c["verdict"])), "status": status,
                "smtlib_html": Markup((smtlib.link_html(c["id"]) if c["id"] in scripts else "") + try_page.rerun_html(c["id"])), "status_short": SHORT[status],
                "second_html": Markup(render.second_badge(c)),
                "second": (c.get("second_opinion") or {}).get("result", "none"),
                "unexpected": describe.unexpected(c), "expect": c.get("expect"), "verdict": c["verdict"],
                "how": how, "paper": c.get("paper"), "caption": c.get("caption") or "",
                "uses": [{"id": u, "href": None if graph.nodes[u].missing else f"#claim-{u}"} for u in c.get("uses", [])],
            })
            seen.add(c["id"])
    claims = [c for r in runs for c in r.claims]
    problems = [f"{r.name} failed: {r.error}" for r in runs if r.error]
    problems += [f"{c['id']}: expected {c['expect']}, got {c['verdict']}" for c in claims if describe.unexpected(c)]
    missing = [n.id for n in graph.nodes.values() if n.missing]
    if missing:
        problems.append("used but stated in no notebook: " + ", ".join(missing))
    cycles = sorted(graph.cycles())
    if cycles:
        problems.append("claims that use each other in a circle: " + ", ".join(cycles))
    bp = blueprint.blueprint(graph, audit(claims).concluded())
    svg = blueprint.dot_svg(blueprint.blueprint_dot(
        bp, lambda item: f"claims.html#item-{item}" if bp.items[item].claims else None), "blueprint")
    paper_steps = []
    for step in paper.STEPS:
        page = next((s for s in steps if paper.step_of_notebook(s["href"][:-5]) == step), None)
        paper_steps.append({"title": step.title, "href": page["href"] if page else None,
                            "items": [bp.items[i.id] for i in paper.ITEMS if i.step == step.id]})
    return {
        "title": title, "notebooks": steps, "claims": rows, "n_claims": len(claims), "problems": problems,
        "verdict_counts": describe.verdict_counts(claims), "groups": _item_rows(runs, graph, rows),
        "second_counts": [(r, n) for r, n in second.counts(claims).items() if n], "second_engine": second.ENGINE,
        "badges": {v.value: render.badge(v) for v in Verdict}, "fully": graph.counts()["fully-proved"],
        "legend": legend, "legend_items": [(s, v[0], v[1], v[2]) for s, v in STATUSES.items()],
        "item_legend": [(s, v[0]) for s, v in blueprint.ITEM_STATUSES.items()],
        "svg": svg, "paper_steps": paper_steps, "references": paper.REFERENCES, "nav": Markup(NAV),
    }


def _step_number(name: str) -> str:
    step = paper.step_of_notebook(name)
    return step.id if step else name[:2]
