"""The claim table a notebook ends with: every claim and chain made in this kernel, with its verdict."""
from __future__ import annotations

from . import registry, render

__all__ = ["ClaimTable", "claim_table"]


class ClaimTable:
    """A table of claim records; renders as Markdown and carries the records for ``derive check``."""

    def __init__(self, records: list[dict], seconds: dict[str, float] | None = None):
        self.records = records
        self.seconds = dict(seconds or {})

    def _repr_mimebundle_(self, include=None, exclude=None):
        counts: dict[str, int] = {}
        for r in self.records:
            counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
        summary = ", ".join(f"{n} {v}" for v, n in counts.items())
        unexpected = [r["id"] for r in self.records if r.get("expect") and r["expect"] != r["verdict"]]
        tail = f"; **unexpected: {', '.join(unexpected)}**" if unexpected else "; every verdict as expected"
        plain = "\n".join(f"{r['verdict']:>9}  {r['id']}" for r in self.records)
        markdown = f"**{len(self.records)} claims**: {summary}{tail}\n\n" + render.table_markdown(self.records)
        data = {"text/markdown": markdown, "text/plain": plain, render.TABLE_MIME: {"claims": self.records}}
        return data, {render.TABLE_MIME: {"seconds": self.seconds}}

    def __len__(self):
        return len(self.records)


def claim_table() -> ClaimTable:
    """The table of every claim and chain made so far in this kernel, in order.

    >>> import derive
    >>> t = derive.claim_table()
    >>> isinstance(len(t), int)
    True
    """
    made = registry.statements()
    return ClaimTable([s.record() for s in made], {s.identifier: round(s.evidence.seconds, 4) for s in made})
