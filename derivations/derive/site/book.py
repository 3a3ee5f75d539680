"""The printable book: every notebook page of the site in reading order, as one PDF printed by headless Chromium.

The pages' main columns are put one after the other into a single HTML file beside them (so MathJax, the
CSS and the figures load as they do on the site), which Chromium prints through playwright, offline. Without
Chromium (or playwright) :func:`write_pdf` returns a one-line reason instead of failing the build.
"""
from __future__ import annotations

import html
import os
import re
import shutil
import threading
from datetime import date
from pathlib import Path

from .. import __version__

__all__ = ["PDF", "chromium", "book_html", "write_pdf"]

PDF = "derive.pdf"
_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
_MAIN = re.compile(r"<main>(.*)</main>", re.S)
_HEAD = re.compile(r"<head>(.*?)</head>", re.S)
_H1 = re.compile(r"<h1[^>]*>(.*?)</h1>", re.S)
_TAGS = re.compile(r"<[^>]+>")
_ANCHOR = re.compile(r"¶\s*$")


def _heading(main: str, fallback: str) -> str:
    """The page's first heading as plain text (its permalink mark dropped)."""
    found = _H1.search(main)
    text = _TAGS.sub("", found.group(1)) if found else fallback
    return html.escape(_ANCHOR.sub("", html.unescape(text)).strip(), quote=False)


def _front(title: str, entries: list[tuple[str, str]]) -> str:
    """The title page and the contents: one line per notebook, linked to where it starts."""
    rows = "".join(f'<li><a href="#book-{stem}">{heading}</a></li>' for stem, heading in entries)
    return (f'<section class="derive-book-front"><h1 class="derive-book-title">{html.escape(title)}</h1>'
            '<p class="derive-book-sub">A machine-checked companion: every claim re-run, every verdict exact, '
            'each one shown with how it was obtained.</p>'
            f'<p class="derive-book-sub">derive {__version__} · printed {date.today().isoformat()}</p></section>'
            f'<section class="derive-book-contents"><h2>Contents</h2><ol>{rows}</ol></section>')


def chromium() -> str | None:
    """The Chromium to print with: ``$DERIVE_CHROMIUM``, else Debian's, else none."""
    given = os.environ.get("DERIVE_CHROMIUM")
    if given:
        return given if Path(given).is_file() else None
    return next((c for c in _CANDIDATES if Path(c).is_file()), shutil.which("chromium"))


def book_html(site: Path, pages: list[Path], title: str) -> str:
    """One HTML document: a title page, the contents, then the main column of each page, each on a new sheet."""
    head = _HEAD.search(pages[0].read_text(encoding="utf-8")).group(1)
    head = re.sub(r"<title>.*?</title>", f"<title>{html.escape(title)}</title>", head, flags=re.S)
    head = "<script>window.deriveTypesetAll = true;</script>" + head  # print every expression, not just the first screen
    parts, entries = [], []
    for page in pages:
        main = _MAIN.search(page.read_text(encoding="utf-8"))
        body = re.sub(r'<nav class="derive-pager".*?</nav>', "", main.group(1), flags=re.S) if main else ""
        fold = '<details class="derive-tex derive-full">'  # a statement folded on screen is printed whole
        body = body.replace(fold, fold.replace("<details", "<details open"))
        entries.append((page.stem, _heading(body, page.stem)))
        parts.append(f'<section class="derive-book-page" id="book-{page.stem}">{body}</section>')
    style = ("<style>.derive-book-page,.derive-book-contents{break-before:page}"
             ".derive-book-front,.derive-book-contents{font-family:var(--derive-sans)}"
             ".derive-book-front{padding-top:30vh;text-align:center}"
             ".derive-book-title{font-size:30px;line-height:1.3;margin:0 0 18px}"
             ".derive-book-sub{font-size:15px;color:#57606a;margin:6px 0}"
             ".derive-book-contents ol{font-size:15px;line-height:2}.derive-book-contents a{text-decoration:none}"
             "body.jp-Notebook main{max-width:none}</style>")
    return (f"<!DOCTYPE html><html lang=\"en\"><head>{head}{style}</head>"
            f'<body class="jp-Notebook derive-book" data-jp-theme-light="true"><main>{_front(title, entries)}'
            f'{"".join(parts)}</main></body></html>')


def write_pdf(site: Path, pages: list[Path], title: str, timeout: float = 180) -> tuple[Path | None, str]:
    """Print ``pages`` (notebook pages of ``site``, in reading order) to ``site/derive.pdf``.

    Returns ``(path, "")`` when written, else ``(None, why it was skipped)``.
    """
    exe = chromium()
    if exe is None:
        return None, "no Chromium found (/usr/bin/chromium, or $DERIVE_CHROMIUM)"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None, "playwright is not installed"
    source = Path(site).resolve() / ".book.html"
    source.write_text(book_html(site, pages, title), encoding="utf-8")
    target = Path(site).resolve() / PDF
    # in a thread of its own: playwright's sync API refuses to start inside a running event loop (or another one)
    outcome: list[str] = []
    worker = threading.Thread(target=lambda: outcome.append(_print(exe, source, target, timeout, sync_playwright)))
    worker.start()
    worker.join()
    source.unlink(missing_ok=True)
    why = outcome[0] if outcome else "the printing thread stopped"
    return (target, "") if not why else (None, why)


def _print(exe: str, source: Path, target: Path, timeout: float, sync_playwright) -> str:
    """Print ``source`` to ``target``; return "" when done, else why not."""
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox", "--disable-gpu",
                                                                   "--disable-background-networking"])
            try:
                page = browser.new_page(viewport={"width": 1000, "height": 1400})
                page.route(re.compile(r"^(?!file:|data:)"), lambda route: route.abort())  # offline
                page.goto(source.as_uri(), timeout=timeout * 1000)
                page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise",
                                       timeout=timeout * 1000)
                page.evaluate("MathJax.startup.promise.then(() => true)")
                page.emulate_media(media="print")
                page.pdf(path=str(target), format="A4", print_background=True, outline=True,
                         margin={"top": "14mm", "bottom": "14mm", "left": "12mm", "right": "12mm"},
                         display_header_footer=True, header_template="<span></span>",
                         footer_template='<div style="font-size:8px;width:100%;text-align:center;color:#57606a">'
                                         '<span class="pageNumber"></span> / <span class="totalPages"></span></div>')
            finally:
                browser.close()
    except Exception as exc:  # a browser that cannot start must not fail the build
        return f"Chromium could not print ({type(exc).__name__}: {(str(exc).splitlines() or [''])[0][:120]})"
    return ""
