"""One HTML page per executed notebook, by nbconvert's HTML exporter with the template ``derive_page``.

The template extends JupyterLab's: it drops require.js, widgets and mermaid (loaded from a CDN by default),
loads MathJax 3 and the notebook CSS from the site's own folders, hides the input of ``boilerplate`` cells,
folds ``solution`` cells into a ``<details>`` element, and gives every claim an anchor ``#claim-<id>`` with
a line under it saying its status in the graph and which claims use it.
"""
from __future__ import annotations

import base64
import copy
import html
import re
from pathlib import Path

from ..present import render
from ..present.family import FAMILY_MIME
from . import smtlib, try_page
from .graph import ClaimGraph

__all__ = ["TEMPLATES", "CONTENTS", "exporter", "page_name", "title_of", "summary_of", "anchored", "has_table",
           "prepare", "exercise_number", "relink", "code_lines", "lab_css", "with_contents", "figures_to_files"]

TEMPLATES = Path(__file__).parent / "templates"
BOILERPLATE, SOLUTION = "boilerplate", "solution"


def exporter():
    """An HTML exporter using the site's template (make one and reuse it: it takes a moment to set up)."""
    from nbconvert import HTMLExporter
    from nbconvert.exporters.templateexporter import TemplateExporter
    from nbconvert.filters.highlight import Highlight2HTML
    from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter

    class PageExporter(HTMLExporter):
        """nbconvert's HTML exporter but for its last pass, which parses the whole page with BeautifulSoup (3 of
        the 5 s the suite's pages took) to give each image without one an alt text and each cell's input and
        output a tab stop: :func:`_focusable` does both on the text."""

        def from_notebook_node(self, nb, resources=None, **kw):
            info = nb.metadata.get("language_info", {})
            self.register_filter("highlight_code", self.filters.get("highlight_code", Highlight2HTML(
                pygments_lexer=info.get("pygments_lexer", info.get("name", None)), parent=self)))
            resources = self._init_resources(resources)
            self.register_filter("filter_data_type", WidgetsDataTypeFilter(
                notebook_metadata=self._nb_metadata, parent=self, resources=resources))
            body, resources = TemplateExporter.from_notebook_node(self, nb, resources, **kw)
            return _focusable(body), resources

    # embed_images stays off: nbconvert's image embedding empties inline HTML such as the verdict badges;
    # images of Markdown cells are embedded by prepare() instead
    return PageExporter(template_name="derive_page", extra_template_basedirs=[str(TEMPLATES)],
                        exclude_input_prompt=True, exclude_output_prompt=True)


_NO_ALT = "No description has been provided for this image"
_IMG = re.compile(r"<img\b(?![^>]*\salt=)([^>]*?)(\s*/?)>")
_FOCUS = re.compile(r'<div\b(?=[^>]*\sclass="(?:[^"]*\s)?(?:jp-Cell-inputWrapper|jp-OutputArea-output)(?:\s[^"]*)?")'
                    r'(?![^>]*\stabindex=)([^>]*)>')


def _focusable(body: str) -> str:
    """What nbconvert's HTML exporter adds to a page: an alt text to an image without one, a tab stop to each cell's
    input and output (``tabindex="0"``).

    >>> _focusable('<div class="jp-OutputArea-output x"><img src="a.png"></div>').replace(_NO_ALT, "…")
    '<div class="jp-OutputArea-output x" tabindex="0"><img src="a.png" alt="…"></div>'
    """
    body = _IMG.sub(lambda m: f'<img{m.group(1)} alt="{_NO_ALT}"{m.group(2)}>', body)
    return _FOCUS.sub(lambda m: f'<div{m.group(1)} tabindex="0">', body)


def lab_css(exp) -> str:
    """JupyterLab's notebook CSS and light theme, read from the exporter's template folders."""
    for folder in exp.template_paths:
        base = Path(folder) / "static"
        if Path(folder).name == "lab" and (base / "index.css").is_file():
            return (base / "index.css").read_text(encoding="utf-8") + "\n" + \
                (base / "theme-light.css").read_text(encoding="utf-8")
    raise FileNotFoundError("nbconvert's lab template (static/index.css) was not found")


def page_name(stem: str) -> str:
    """The file name of a notebook's page: ``01_key_value_view`` -> ``01_key_value_view.html``."""
    if not isinstance(stem, str) or not stem or "/" in stem:
        raise ValueError(f"page_name: expected a notebook name without folders, got {stem!r}")
    return f"{stem}.html"


def _markdown_cells(nb):
    return [c for c in nb.cells if c.cell_type == "markdown" and BOILERPLATE not in c.metadata.get("tags", [])]


def prose_of(nb) -> list[str]:
    """The sources of the notebook's Markdown cells a reader sees, in order: what the site's search reads."""
    return [c.source for c in _markdown_cells(nb)]


def title_of(nb, fallback: str) -> str:
    """The text of the notebook's first ``# `` heading (Markdown kept), else ``fallback``."""
    for cell in _markdown_cells(nb):
        for line in cell.source.splitlines():
            if line.startswith("# "):
                return line[2:].strip()
    return fallback


def summary_of(nb) -> str:
    """The notebook's first paragraph that is not a heading, without a leading *What this shows* label."""
    for cell in _markdown_cells(nb):
        for para in re.split(r"\n\s*\n", cell.source):
            para = para.strip()
            if para and not para.startswith("#"):
                return re.sub(r"^\**\s*What this shows\s*[.:]?\s*\**\s*[.:]?\s*", "", para, flags=re.I).strip()
    return ""


def _outputs(nb):
    for cell in nb.cells:
        if BOILERPLATE in cell.metadata.get("tags", []) and not cell.get("outputs"):
            continue
        yield from cell.get("outputs", [])


def anchored(nb) -> set[str]:
    """Identifiers of the claims that have an output of their own in ``nb``, or a row of a family's table (their
    page anchors them)."""
    found = set()
    for o in _outputs(nb):
        data = o.get("data", {})
        if render.MIME in data:
            found.add(data[render.MIME].get("id"))
        if FAMILY_MIME in data:
            found |= {r["id"] for r in data[FAMILY_MIME].get("records", [])}
    return found


def _anchored_rows(page: str, graph: ClaimGraph, seen: set) -> tuple[str, set]:
    """A family's table with ``id="claim-<id>"`` on the row of each claim of ``graph`` not in ``seen``; and those.

    >>> _anchored_rows('<tr data-id="a.b"><td>x</td></tr>', ClaimGraph({}, []), set())
    ('<tr data-id="a.b"><td>x</td></tr>', set())
    """
    rows = set()

    def anchor(m):
        ident = html.unescape(m.group(1))
        if ident not in graph.nodes or ident in seen or ident in rows:
            return m.group(0)
        rows.add(ident)
        return f'<tr id="claim-{m.group(1)}" data-id="{m.group(1)}"'

    return re.sub(r'<tr data-id="([^"]*)"', anchor, page), rows


def has_table(nb) -> bool:
    """True when ``nb`` shows a claim table (the page anchors the last one as ``#claims``)."""
    return any(render.TABLE_MIME in o.get("data", {}) for o in _outputs(nb))


_NB_LINK = re.compile(r'href="(?:\./)?([^"/#]+)\.ipynb(#[^"]*)?"')


def relink(body: str, stems, claim_href=None) -> str:
    """Links between notebooks (``href="02_x.ipynb#y"``) turned into links between their pages.

    A link to a claim (``#claim-<id>``) goes where ``claim_href(id)`` says (the claim's anchor, or the claim
    table of its page when it has no output of its own), when that gives one.
    """
    stems = set(stems)

    def page(m):
        if m.group(1) not in stems:
            return m.group(0)
        fragment = m.group(2) or ""
        if claim_href is not None and fragment.startswith("#claim-"):
            target = claim_href(html.unescape(fragment[len("#claim-"):]))
            if target:
                return f'href="{html.escape(target)}"'
        return f'href="{page_name(m.group(1))}{fragment}"'

    return _NB_LINK.sub(page, body)


_HIGHLIGHTED = re.compile(r'(<div class="\s*highlight[^"]*"><pre>)(.*?)(</pre>)', re.S)
_PIECE = re.compile(r"(<[^>]+>)|([^<]+)")
#: the deepest indentation a phone shows in full; a deeper one is drawn this wide (its spaces smaller)
PHONE_INDENT = 8


def _leading(line: str) -> tuple[int, str]:
    """The spaces a line of highlighted code starts with, and the line without them (its tags kept)."""
    out, spaces, done = [], 0, False
    for m in _PIECE.finditer(line):
        if m.group(1) or done:
            out.append(m.group(0))
            continue
        text = m.group(2).lstrip(" ")
        spaces += len(m.group(2)) - len(text)
        done = bool(text)
        out.append(text)
    return spaces, "".join(out)


def code_lines(body: str) -> str:
    r"""Each line of highlighted code (Pygments closes its spans at every line's end) as a block of its own
    that, when it wraps, goes on under its own indentation and 4 characters further, never at the margin. Its
    indentation is one piece that never ends a row by itself, and on a phone one deeper than
    :data:`PHONE_INDENT` is drawn that wide (``--derive-lead``: the size of its spaces there).

    >>> out = code_lines('<div class="highlight"><pre><span></span>for x in y:\n    f(x)\n</pre></div>')
    >>> out.count('<span class="derive-line"'), '--derive-indent:4ch"><span class="derive-lead">    </span>f(x)' in out
    (2, True)
    """
    def lines(m):
        out = []
        for line in m.group(2).splitlines(keepends=True):
            spaces, rest = _leading(line)
            style = f"--derive-indent:{spaces}ch"
            if spaces > PHONE_INDENT:
                style += f";--derive-lead:{PHONE_INDENT / spaces:.3f}"
            lead = f'<span class="derive-lead">{" " * spaces}</span>' if spaces else ""
            out.append(f'<span class="derive-line" style="{style}">{lead}{rest}</span>')
        return m.group(1) + "".join(out) + m.group(3)

    return _HIGHLIGHTED.sub(lines, body)


def _claim_footer(node_id: str, graph: ClaimGraph, href) -> str:
    """The line under a claim, only with what its output does not say already (else empty).

    That is: a proved claim that rests on something not proved (and what), a used identifier stated nowhere,
    and the claims of other pages that use this one. A fully proved claim, or one refuted as expected and
    used on its own page only, gets no line.
    """
    node = graph.nodes[node_id]
    parts = []
    if node.status == "proved":
        weak = [u for u in node.uses if u in graph.nodes and graph.nodes[u].status != "fully-proved"]
        weak_links = ", ".join(_claim_link(u, graph, href) for u in weak) or "a claim on a cycle of uses"
        parts.append(f'<span class="status-dot proved"></span>proved, but rests on {weak_links}')
    elif node.status == "checked":
        parts.append('<span class="status-dot checked"></span>checked numerically: evidence, not proof')
    missing = [u for u in node.uses if u in graph.nodes and graph.nodes[u].missing]
    if missing:
        parts.append("uses " + ", ".join(f'<code class="missing">{html.escape(u)}</code>' for u in missing)
                     + ", stated nowhere")
    elsewhere = [u for u in node.used_by if graph.nodes[u].notebook != node.notebook]
    if elsewhere:
        parts.append("used on other pages by " + ", ".join(_claim_link(u, graph, href) for u in elsewhere))
    if not parts:
        return ""
    return '<div class="derive-claim-status">' + " · ".join(parts) + "</div>"


def _claim_link(ident: str, graph: ClaimGraph, href) -> str:
    target = href(ident)
    code = f"<code>{html.escape(ident)}</code>"
    return f'<a href="{html.escape(target)}">{code}</a>' if target else code


_HEADING = re.compile(r'<h([1-3]) id="([^"]+)"[^>]*>(.*?)</h\1>', re.S)
_ANCHOR_LINK = re.compile(r'<a class="anchor-link"[^>]*>.*?</a>', re.S)
CONTENTS = "<!--derive-contents-->"


def with_contents(body: str) -> tuple[str, list[tuple[int, str, str]]]:
    """The page with its contents (from its h1–h3 headings) in place of :data:`CONTENTS`, and the headings.

    The contents is a ``<nav>`` beside the text on a wide screen and a folded list above it on a phone.
    """
    headings = [(int(m.group(1)), m.group(2), _ANCHOR_LINK.sub("", m.group(3)).strip())
                for m in _HEADING.finditer(body)]
    items = "".join(f'<li class="toc-h{level}"><a href="#{ident}">{text}</a></li>' for level, ident, text in headings)
    nav = (f'<nav class="derive-toc" aria-label="contents"><details open><summary>Contents</summary>'
           f'<ol>{items}</ol></details></nav>') if headings else ""
    plain = [(level, ident, html.unescape(re.sub(r"<[^>]+>", "", text))) for level, ident, text in headings]
    return body.replace(CONTENTS, nav, 1), plain


_DATA_IMAGE = re.compile(r'<img([^>]*?) src="data:image/(png|jpeg);base64,([^"]+)"([^>]*)>')


def figures_to_files(body: str, site: Path, stem: str) -> str:
    """Images embedded in a page written to ``figures/`` and linked, so that a tap opens one full size.

    File names follow the page and the image's content, so a build writes the same files every time.
    """
    import hashlib

    folder = site / "figures"

    def save(m):
        data = base64.b64decode(m.group(3))
        name = f"{stem}-{hashlib.sha256(data).hexdigest()[:12]}.{'png' if m.group(2) == 'png' else 'jpg'}"
        folder.mkdir(exist_ok=True)
        (folder / name).write_bytes(data)
        attrs = re.sub(r'\s*alt="No description has been provided for this image"', "", m.group(1) + m.group(4))
        return (f'<a class="derive-figure" href="figures/{name}" title="open the figure full size">'
                f'<img{attrs} src="figures/{name}" alt="figure of {html.escape(stem)}"></a>')

    return _DATA_IMAGE.sub(save, body)


_IMAGE = re.compile(r"(!\[[^\]]*\]\()([^)\s]+)((?:\s+\"[^\"]*\")?\))")
_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
          ".svg": "image/svg+xml"}


def _embed_images(source: str, folder: Path | None) -> str:
    """Markdown images given by a path relative to the notebook, as data URIs (the page lives elsewhere)."""
    if folder is None:
        return source

    def embed(m):
        target = folder / m.group(2)
        kind = _TYPES.get(target.suffix.lower())
        if "://" in m.group(2) or m.group(2).startswith(("data:", "attachment:")) or not kind or not target.is_file():
            return m.group(0)
        data = base64.b64encode(target.read_bytes()).decode("ascii")
        return f"{m.group(1)}data:{kind};base64,{data}{m.group(3)}"

    return _IMAGE.sub(embed, source)


_EXERCISE = re.compile(r"^#{1,6}\s*Exercise\s+([0-9A-Z]+\.[0-9]+)\b", re.M)


def exercise_number(source: str) -> str:
    """The number of the exercise a Markdown cell heads (``### Exercise 5.1``), else ``""``.

    >>> exercise_number("### Exercise 5.1\\n\\nProve it."), exercise_number("## Exercises")
    ('5.1', '')
    """
    m = _EXERCISE.search(source)
    return m.group(1) if m else ""


def _solution_labels(cells) -> dict[int, str]:
    """The label of each solution cell, by its index: ``Solution 5.1`` after the heading "Exercise 5.1", and
    ``Solution 5.1, part 1 of 2`` where one exercise's solution runs over cells that follow each other.

    >>> from nbformat.v4 import new_code_cell, new_markdown_cell
    >>> sol = lambda: new_code_cell("x", metadata={"tags": ["solution"]})
    >>> _solution_labels([new_markdown_cell("### Exercise 3.2"), sol(), sol(), new_markdown_cell("### Exercise 3.3"), sol()])
    {1: 'Solution 3.2, part 1 of 2', 2: 'Solution 3.2, part 2 of 2', 4: 'Solution 3.3'}
    """
    runs, number, last = [], "", None
    for k, cell in enumerate(cells):
        if cell.cell_type == "markdown":
            number = exercise_number(cell.source) or number
        if SOLUTION in cell.metadata.get("tags", []):
            if runs and last == k - 1 and runs[-1][0] == number:
                runs[-1][1].append(k)
            else:
                runs.append((number, [k]))
            last = k
    labels = {}
    for number, members in runs:
        name = f"Solution {number}" if number else "Solution"
        for part, k in enumerate(members, 1):
            labels[k] = name if len(members) == 1 else f"{name}, part {part} of {len(members)}"
    return labels


def prepare(nb, graph: ClaimGraph, href, title: str, folder: Path | None = None, scripts=()):
    """A copy of ``nb`` for the template: boilerplate input hidden, claims (first output of each) anchored,
    each solution labelled with the number of the exercise it follows (``Solution 5.1``), each claim of
    ``scripts`` (identifiers) linked to its SMT-LIB script after its verdict, and every claim to its re-run on the
    try page, in its output, its family's table and the claim tables.

    ``href(identifier)`` gives the link of a claim's anchor (on its own page or another); ``folder`` is
    where the notebook's own files are (its Markdown images are embedded from there).
    """
    def links(ident: str) -> str:  # after a claim's verdict: its SMT-LIB script, and re-running it in the page
        return (smtlib.link_html(ident) if ident in scripts else "") + try_page.rerun_html(ident)

    nb = copy.deepcopy(nb)
    nb.metadata["title"] = f"{re.sub(r'[$`*_]', '', title)} — derive"
    labels = _solution_labels(nb.cells)
    cells, seen, tables = [], set(), []
    for k, cell in enumerate(nb.cells):
        tags = cell.metadata.get("tags", [])
        if SOLUTION in tags:  # "Solution 5.1", after the heading "Exercise 5.1"
            cell.metadata["derive"] = {"solution": labels[k]}
        if BOILERPLATE in tags:
            if cell.cell_type != "code" or not cell.get("outputs"):
                continue
            cell.metadata["transient"] = {"remove_source": True}
        if cell.cell_type == "markdown":
            cell.source = _embed_images(cell.source, folder)
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if render.MIME in data and "text/html" in data:
                data["text/html"] = smtlib.linked_claim(data["text/html"], data[render.MIME].get("id"), links)
            if (render.TABLE_MIME in data or FAMILY_MIME in data) and "text/html" in data:
                data["text/html"] = smtlib.linked_table(data["text/html"], links)
            if FAMILY_MIME in data and "text/html" in data:  # each row is its claim's anchor, unless shown before
                data["text/html"], rows = _anchored_rows(data["text/html"], graph, seen)
                seen |= rows
            if render.MIME in data:
                ident = data[render.MIME].get("id")
                if ident in graph.nodes and ident not in seen:
                    seen.add(ident)
                    out.setdefault("metadata", {})["derive"] = {
                        "anchor": f"claim-{ident}", "footer": _claim_footer(ident, graph, href)}
            if render.TABLE_MIME in data:
                tables.append(out)
        cells.append(cell)
    if tables:
        tables[-1].setdefault("metadata", {})["derive"] = {"anchor": "claims", "footer": ""}
    nb.cells = cells
    return nb
