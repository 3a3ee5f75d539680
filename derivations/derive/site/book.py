"""The printable book: every notebook page of the site in reading order, as one PDF printed by headless Chromium.

The pages' main columns are put one after the other into a single HTML document beside them (so MathJax, the
CSS and the figures load as they do on the site), which Chromium prints through playwright, offline. The
:class:`Printer` puts it together in the browser as the pages are written, each typeset while the next is
written. Without Chromium (or playwright) it returns a one-line reason instead of failing the build.
"""
from __future__ import annotations

import html
import itertools
import os
import queue
import re
import shutil
import threading
from datetime import date
from pathlib import Path

from .. import __version__
from .search_index import plain

__all__ = ["PDF", "Printer", "chromium", "book_html", "bookmark"]

PDF = "derive.pdf"
_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
_MAIN = re.compile(r"<main>(.*)</main>", re.S)
_HEAD = re.compile(r"<head>(.*?)</head>", re.S)
_H1 = re.compile(r"<h1[^>]*>(.*?)</h1>", re.S)
_TAGS = re.compile(r"<[^>]+>")
_ANCHOR = re.compile(r"¶\s*$")
_SOLUTION = '<details class="derive-solution">'
_DETAILS = re.compile(r"<details\b|</details>")
_SUMMARY = re.compile(r"\s*<summary>.*?</summary>", re.S)
_HEADINGS = re.compile(r"<h([1-3])(?![^>]*derive-book-title)([^>]*)>(.*?)</h\1>", re.S)
_HEADING_ID = re.compile(r"""\s+id=("[^"]*"|'[^']*')""")
_EXERCISE = re.compile(r"<h3[^>]*>\s*Exercise\s+([^<¶]+)", re.S)


def _heading(main: str, fallback: str) -> str:
    """The page's first heading as plain text (its permalink mark dropped)."""
    found = _H1.search(main)
    text = _TAGS.sub("", found.group(1)) if found else fallback
    return html.escape(_ANCHOR.sub("", html.unescape(text)).strip(), quote=False)


def _take_solutions(body: str, stem: str) -> tuple[str, list[tuple[str, str, str]]]:
    """``body`` with each folded solution replaced by a reference to the appendix, and the solutions taken out.

    Each solution is ``(anchor, label, content)``: its label is the exercise it answers (the last "Exercise …"
    heading before it), its content the cell without its summary bar, printed open in the appendix. Solution cells
    of one exercise that follow each other are one solution, with one reference to it.
    """
    kept, taken, at = [], [], 0
    while (start := body.find(_SOLUTION, at)) >= 0:
        depth, end = 0, len(body)
        for tag in _DETAILS.finditer(body, start):
            depth += -1 if tag.group(0) == "</details>" else 1
            if depth == 0:
                end = tag.end()
                break
        headings = _EXERCISE.findall(body, 0, start)
        label = headings[-1].strip() if headings else f"{len(taken) + 1} of {stem}"
        inner = _SUMMARY.sub("", body[start + len(_SOLUTION):end - len("</details>")], count=1)
        between = body[at:start]
        kept.append(between)  # the markup between two solutions (their cells' ends and starts) kept as it is
        if taken and taken[-1][1] == label and not _TAGS.sub("", between).strip():  # the same exercise's next cell
            anchor, _, before = taken[-1]
            taken[-1] = (anchor, label, before + inner)
        else:
            anchor = f"book-solution-{stem}-{len(taken) + 1}"
            taken.append((anchor, label, inner))
            kept.append(f'<p class="derive-book-solref"><a href="#{anchor}">Solution to exercise '
                        f'{html.escape(label, quote=False)}: in the appendix</a></p>')
        at = end
    kept.append(body[at:])
    return "".join(kept), taken


def _appendix(solutions: list[tuple[str, str, str]]) -> str:
    """The solutions, each under a heading naming its exercise, after the last notebook."""
    if not solutions:
        return ""
    rows = "".join(f'<section class="derive-book-solution" id="{anchor}"><h2>Solution to exercise '
                   f'{html.escape(label, quote=False)}</h2>{inner}</section>' for anchor, label, inner in solutions)
    return (f'<section class="derive-book-page derive-book-solutions" id="book-solutions"><h1>Solutions</h1>{rows}'
            '</section>')


def _mark(fragment: str, marks: list[tuple[int, str, str]], prefix: str = "book-mark-") -> str:
    """``fragment`` with every heading (h1–h3) given an id of its own (``prefix`` and a number), each bookmark it
    makes appended to ``marks`` as ``(level, title, id)``, its title the heading as text (math as Unicode)."""

    def mark(found: re.Match) -> str:
        level, attributes, inner = found.groups()
        anchor = f"{prefix}{len(marks) + 1}"
        text = html.unescape(_TAGS.sub("", re.sub(r"<a class=.anchor-link.*?</a>", "", inner, flags=re.S)))
        marks.append((int(level), _ANCHOR.sub("", plain(text)[0]).strip(), anchor))
        inner = re.sub(r'(<a class=.anchor-link.? href=)"[^"]*"', rf'\1"#{anchor}"', inner)
        return f'<h{level} id="{anchor}"{_HEADING_ID.sub("", attributes)}>{inner}</h{level}>'

    return _HEADINGS.sub(mark, fragment)


def _mark_links(marks: list[tuple[int, str, str]]) -> str:
    """A hidden list of links to the headings: Chromium keeps a destination only for an id some link points at."""
    links = "".join(f'<a href="#{anchor}"></a>' for _, _, anchor in marks)
    return f'<nav class="derive-book-marks" style="display:none">{links}</nav>'


def _marked(document: str) -> tuple[str, list[tuple[int, str, str]]]:
    """``document`` with every heading given an id of its own (:func:`_mark`), the hidden links to them, and the
    bookmarks they make."""
    marks: list[tuple[int, str, str]] = []
    document = _mark(document, marks)
    at = document.rindex("</main>")
    return document[:at] + _mark_links(marks) + document[at:], marks


def bookmark(target: Path, marks: list[tuple[int, str, str]]) -> int:
    """Write the outline of the PDF at ``target`` from its headings' destinations; return how many it holds."""
    import logging

    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import Fit

    logging.getLogger("pypdf").setLevel(logging.ERROR)  # Chromium's trailer counts its objects loosely
    reader = PdfReader(target)
    writer = PdfWriter(clone_from=reader)
    places = reader.named_destinations
    parents: dict[int, object] = {}
    made = 0
    for level, title, anchor in marks:
        place = places.get(f"/{anchor}")
        if place is None or not title:
            continue
        parent = next((parents[up] for up in range(level - 1, 0, -1) if up in parents), None)
        parents = {up: item for up, item in parents.items() if up < level}
        parents[level] = writer.add_outline_item(title, reader.get_destination_page_number(place), parent=parent,
                                                 fit=Fit.xyz(top=place.top))
        made += 1
    writer.page_mode = "/UseOutlines"
    with open(target, "wb") as out:
        writer.write(out)
    return made


def _front(title: str, entries: list[tuple[str, str]], solutions: bool) -> str:
    """The title page and the contents: one line per notebook, linked to where it starts."""
    rows = "".join(f'<li><a href="#book-{stem}">{heading}</a></li>' for stem, heading in entries)
    rows += '<li><a href="#book-solutions">Solutions</a></li>' if solutions else ""
    return (f'<section class="derive-book-front"><h1 class="derive-book-title">{html.escape(title)}</h1>'
            '<p class="derive-book-sub">A machine-checked companion: every claim re-run, every verdict exact, '
            'each one shown with how it was obtained.</p>'
            f'<p class="derive-book-sub">derive {__version__} · printed {date.today().isoformat()}</p></section>'
            f'<section class="derive-book-contents"><h2>Contents</h2><ol>{rows}</ol></section>')


#: how the book is printed (playwright's ``Page.pdf``): A4, its page numbers at the foot
PRINTED = dict(format="A4", print_background=True,
               margin={"top": "14mm", "bottom": "14mm", "left": "12mm", "right": "12mm"},
               display_header_footer=True, header_template="<span></span>",
               footer_template='<div style="font-size:8px;width:100%;text-align:center;color:#57606a">'
                               '<span class="pageNumber"></span> / <span class="totalPages"></span></div>')
# A4 less the margins, in CSS pixels: the width the page is laid out at before it is measured and printed
_PRINTED_WIDTH = round((210 - 2 * 12) / 25.4 * 96)
# Math wider than the page is scaled to fit. A statement that would shrink below 70 % of its size is printed as the
# first rows its page shows before "show in full" (typeset, and said to be in full in the notebook and on the site);
# one that has no such preview is scaled down to half its size, and below that printed as its Unicode text, which
# wraps. Measured, then changed, so the page is laid out once per pass, not per formula; a second pass fits the
# previews it brought into view.
_FIT = """() => {
  const SMALLEST = 0.7;  // below this share of its size a statement prints as its preview
  const PLAIN = 0.5;  // and, with no preview, below this one as its text
  const right = document.querySelector('main').getBoundingClientRect().right;
  const wide = [];
  for (const box of document.querySelectorAll('main mjx-container, main table')) {
    if (deriveFolded(box)) continue;  // not printed (static/folded.js, in every page's head)
    const inner = box.tagName === 'MJX-CONTAINER' ? box.firstElementChild : box;
    if (!inner) continue;
    const r = inner.getBoundingClientRect();
    if (r.width > 0 && r.right > right + 1) wide.push([box, inner, (right - r.left) / r.width]);
  }
  let scaled = 0, preview = 0, plain = 0;
  const done = new Set();
  for (const [box, inner, scale] of wide) {
    let up = box.parentElement, inside = false;
    for (; up && !inside; up = up.parentElement) inside = done.has(up);
    if (inside) continue;
    const statement = box.closest('.derive-claim-statement');
    const shown = statement && statement.querySelector(':scope > details.derive-full > summary mjx-container');
    if (scale < SMALLEST && statement && !statement.classList.contains('derive-print-preview') && shown) {
      statement.classList.add('derive-print-preview'); done.add(statement); preview++;
    } else if (scale < PLAIN && statement && !shown && statement.querySelector(':scope > .derive-plain')) {
      statement.classList.add('derive-print-plain'); done.add(statement); plain++;
    } else {
      inner.style.zoom = (0.98 * scale).toFixed(3); done.add(box); scaled++;
    }
  }
  return [scaled, preview, plain];
}"""


def chromium() -> str | None:
    """The Chromium to print with: ``$DERIVE_CHROMIUM``, else Debian's, else none."""
    given = os.environ.get("DERIVE_CHROMIUM")
    if given:
        return given if Path(given).is_file() else None
    return next((c for c in _CANDIDATES if Path(c).is_file()), shutil.which("chromium"))


def _section(page: Path) -> tuple[tuple[str, str], str, list[tuple[str, str, str]]]:
    """One page of the book: its contents entry ``(stem, heading)``, its main column as a section of its own (the
    pager dropped, a folded statement printed whole, each solution a reference to the appendix), its solutions."""
    main = _MAIN.search(page.read_text(encoding="utf-8"))
    body = re.sub(r'<nav class="derive-pager".*?</nav>', "", main.group(1), flags=re.S) if main else ""
    fold = '<details class="derive-tex derive-full">'  # a statement folded on screen is printed whole
    body = body.replace(fold, fold.replace("<details", "<details open"))
    entry = (page.stem, _heading(body, page.stem))
    body, taken = _take_solutions(body, page.stem)
    return entry, f'<section class="derive-book-page" id="book-{page.stem}">{body}</section>', taken


def _shell(first_page: Path, title: str) -> tuple[str, str]:
    """The book's document around its main column, ``(before, after)``: the head of ``first_page`` (MathJax, the
    CSS), titled ``title``, with every expression typeset (mathjax-config.js) and the book's own print styles."""
    found = _HEAD.search(first_page.read_text(encoding="utf-8"))
    if found is None:
        raise ValueError(f"book: {first_page.name} has no <head> to print the book with")
    head = re.sub(r"<title>.*?</title>", f"<title>{html.escape(title)}</title>", found.group(1), flags=re.S)
    # every expression typeset, not just the first screen, without what only a screen needs (mathjax-config.js)
    head = "<script>window.deriveTypesetAll = true; window.derivePrinted = true;</script>" + head
    return (f"<!DOCTYPE html><html lang=\"en\"><head>{head}{_STYLE}</head>"
            '<body class="jp-Notebook derive-book" data-jp-theme-light="true"><main>', "</main></body></html>")


_STYLE = ("<style>.derive-book-page,.derive-book-contents{break-before:page}"
          ".derive-book-front,.derive-book-contents{font-family:var(--derive-sans)}"
          ".derive-book-front{padding-top:30vh;text-align:center}"
          ".derive-book-title{font-size:30px;line-height:1.3;margin:0 0 18px}"
          ".derive-book-sub{font-size:15px;color:#57606a;margin:6px 0}"
          ".derive-book-contents ol{font-size:15px;line-height:2}.derive-book-contents a{text-decoration:none}"
          ".derive-book-solref{font:italic 14px var(--derive-sans);color:#6639ba}"
          ".derive-book-solutions h1,.derive-book-solution h2{font-family:var(--derive-sans);font-weight:500}"
          ".derive-full>summary{display:none}"  # a folded statement printed whole, without its one-line preview
          ".jp-OutputArea-output pre{box-sizing:border-box;max-width:100%}"
          ".derive-claim-statement.derive-print-plain>.derive-plain{display:block!important;white-space:normal}"
          ".derive-claim-statement.derive-print-plain>.derive-tex{display:none!important}"
          ".derive-print-preview>details.derive-full>summary{display:block!important;list-style:none}"
          ".derive-print-preview>details.derive-full>summary::-webkit-details-marker{display:none}"
          ".derive-print-preview .derive-show{display:none!important}"
          ".derive-print-preview>details.derive-full>:not(summary){display:none!important}"
          ".derive-print-preview>details.derive-full>summary::after{content:'  (in full in the notebook and on "
          "the site)';font:italic 12px var(--derive-sans);color:#57606a}"
          "body.jp-Notebook main{max-width:none}</style>")


def book_html(site: Path, pages: list[Path], title: str) -> str:
    """One HTML document: a title page, the contents, the main column of each page on a new sheet, the solutions
    (what :class:`Printer` puts together in the browser as the pages are written)."""
    sections = [_section(page) for page in pages]
    solutions = [s for _, _, taken in sections for s in taken]
    before, after = _shell(pages[0], title)
    return (before + _front(title, [entry for entry, _, _ in sections], bool(solutions))
            + "".join(body for _, body, _ in sections) + _appendix(solutions) + after)


class Printer:
    """The book, printed as the site is written: Chromium starts at once, and each notebook page given to
    :meth:`add` (in reading order) joins the book's document and is typeset while the next pages are written;
    :meth:`finish` adds the title page, the contents and the solutions, fits what is too wide, prints
    ``site/derive.pdf`` and writes its bookmarks.

    The document printed is :func:`book_html`'s, put together in the browser. Without Chromium (or playwright)
    :meth:`finish` returns a one-line reason instead of failing the build.
    """

    def __init__(self, site: Path, title: str, timeout: float = 180):
        self.site, self.title, self.timeout = Path(site).resolve(), title, timeout
        self._pages: queue.Queue = queue.Queue()
        self._stopped = threading.Event()
        self._ended = False  # the end of the pages read off the queue
        self._outcome: list = []
        self._thread = threading.Thread(target=self._work, name="derive-book", daemon=True)
        self._thread.start()

    def add(self, page: Path) -> None:
        """The next notebook page of the book, written in full."""
        self._pages.put(Path(page))

    def finish(self) -> tuple[Path | None, str]:
        """Print the book of the pages added: ``(path, "")`` when written, else ``(None, why it was skipped)``.
        An error of derive's own (not the browser's) is raised here."""
        self._pages.put(None)
        self._thread.join()
        if not self._outcome:
            return None, "the printing thread stopped"
        if isinstance(self._outcome[0], BaseException):
            raise self._outcome[0]
        return self._outcome[0]

    def stop(self) -> None:
        """Print nothing: the site is not written after all (returns once Chromium is closed)."""
        self._stopped.set()
        self._pages.put(None)
        self._thread.join()

    def _added(self):
        while not self._stopped.is_set():
            page = self._pages.get()
            if page is None:
                self._ended = True
                return
            yield page

    def _work(self) -> None:
        # in a thread of its own: playwright's sync API refuses to start inside a running event loop (or another one)
        try:
            self._outcome.append(self._print())
        except BaseException as exc:  # raised again by finish(), in the building thread
            self._outcome.append(exc)
        finally:
            while not self._ended and self._pages.get() is not None:  # what is still added is not waited for
                pass
            self._ended = True

    def _print(self) -> tuple[Path | None, str]:
        exe = chromium()
        if exe is None:
            return None, "no Chromium found (/usr/bin/chromium, or $DERIVE_CHROMIUM)"
        try:
            from playwright.sync_api import sync_playwright
        except ImportError:
            return None, "playwright is not installed"
        source, target = self.site / ".book.html", self.site / PDF
        ms = self.timeout * 1000
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox", "--disable-gpu",
                                                                       "--disable-background-networking"])
                try:
                    page = browser.new_page(viewport={"width": _PRINTED_WIDTH, "height": 1400})
                    page.route(re.compile(r"^(?!file:|data:)"), lambda route: route.abort())  # offline
                    page.emulate_media(media="print")  # laid out for print from the start: once, not again to fit
                    marks = self._typeset(page, source, ms)
                    if marks is None:
                        return None, "no notebook pages to print"
                    page.evaluate(_FIT)
                    page.evaluate(_FIT)  # the previews shown by the first pass, fitted
                    page.pdf(path=str(target), **PRINTED)
                finally:
                    browser.close()
        except _OwnError as exc:  # derive's own, raised again as it was
            raise exc.__cause__ from None
        except Exception as exc:  # a browser that cannot start must not fail the build
            return None, f"Chromium could not print ({type(exc).__name__}: {(str(exc).splitlines() or [''])[0][:120]})"
        finally:
            source.unlink(missing_ok=True)
        bookmark(target, marks)
        return target, ""

    def _typeset(self, page, source: Path, ms: float) -> list[tuple[int, str, str]] | None:
        """The book's document in ``page``, every expression typeset; its bookmarks in document order."""
        added = self._added()
        first = next(added, None)
        if first is None:
            return None
        before, after = _own(lambda: _shell(first, self.title))
        _own(lambda: source.write_text(before + after, encoding="utf-8"))
        page.goto(source.as_uri(), timeout=ms)
        page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=ms)
        entries, solutions, marks = [], [], []
        for each in itertools.chain([first], added):
            entry, body, taken = _own(lambda: _section(each))
            entries.append(entry)
            solutions.extend(taken)
            page.evaluate(_APPEND, [_own(lambda: _mark(body, marks)), False])
        if self._stopped.is_set():
            return None
        front: list[tuple[int, str, str]] = []
        first_part = _own(lambda: _mark(_front(self.title, entries, bool(solutions)), front, "book-mark-front-"))
        last_part = _own(lambda: _mark(_appendix(solutions), marks) + _mark_links(front + marks))
        page.evaluate(_APPEND, [first_part, True])
        page.evaluate(_APPEND, [last_part, False])
        page.evaluate(_TYPESET)
        return front + marks


class _OwnError(Exception):
    """An error of derive's own while the book is put together in the browser: raised again as it was, never taken
    for the browser's."""


def _own(work):
    """``work()``, an error in it raised as :class:`_OwnError`."""
    try:
        return work()
    except Exception as exc:
        raise _OwnError() from exc


# Appends (or puts first) a part of the book and typesets it after what is already queued: MathJax works on it while
# the next page is written. Until every part is typeset, each is laid out only where MathJax measures inside it
# (content-visibility): else measuring in the part just added would lay out again every part before it.
_APPEND = """([markup, first]) => {
  const t = document.createElement('template');
  t.innerHTML = markup;
  const parts = [...t.content.children];
  for (const part of parts) part.style.contentVisibility = 'auto';
  const main = document.querySelector('main');
  if (first) main.prepend(t.content); else main.append(t.content);
  MathJax.startup.promise = MathJax.startup.promise.then(() => MathJax.typesetPromise(parts));
}"""
# Every part typeset; then each is laid out again, for the fitting and the print.
_TYPESET = """() => MathJax.startup.promise.then(() => {
  for (const part of document.querySelectorAll('main > *')) part.style.contentVisibility = '';
  return true;
})"""
