"""The site's offline search: a small JSON index of the pages, their headings and the claims, and its script.

The index is written as ``static/search-index.js`` (a page opened from disk may not fetch a JSON file), which
sets ``window.DERIVE_SEARCH``; ``static/site.js`` searches it as the reader types.

>>> s = SearchIndex()
>>> s.add_page("01_x.html", "Step 1 · Key–value view", "An MLP is attention.", [(2, "h", "The layer")])
>>> s.script().startswith("window.DERIVE_SEARCH = [")
True
"""
from __future__ import annotations

import json
import re

__all__ = ["SearchIndex"]


def _plain(text: str) -> str:
    """Text as a reader would type it: LaTeX commands and Markdown marks dropped, spaces collapsed."""
    text = re.sub(r"\\(left|right|displaystyle|operatorname|mathrm|text)\b", " ", text or "")
    text = re.sub(r"[\\{}$`*_^]", " ", text)
    return re.sub(r"\s+", " ", text).strip()


class SearchIndex:
    """Entries ``{"k": kind, "t": title, "u": link, "x": text}`` in the order they are added."""

    def __init__(self):
        self.entries: list[dict] = []

    def add_page(self, url: str, title: str, summary: str, headings) -> None:
        """A page, and each of its headings as an entry of its own."""
        self.entries.append({"k": "page", "t": title, "u": url, "x": _plain(summary)[:300]})
        for _, ident, text in headings:
            self.entries.append({"k": "section", "t": _plain(text), "u": f"{url}#{ident}", "x": title})

    def add_claim(self, url: str, ident: str, title: str, statement: str, verdict: str, how: str) -> None:
        """A claim: its identifier, title, statement (as text) and how its verdict was obtained."""
        self.entries.append({"k": "claim", "t": ident, "u": url, "v": verdict,
                             "x": " ".join(p for p in (_plain(title), _plain(statement)[:200], how[:120]) if p)})

    def script(self) -> str:
        """The index as a script setting ``window.DERIVE_SEARCH``."""
        return "window.DERIVE_SEARCH = " + json.dumps(self.entries, ensure_ascii=False, separators=(",", ":")) + ";\n"
