"""The blueprint of the paper: one node per numbered item of docs/paper.md, laid out by Graphviz.

Each item gathers the claims that state it (:func:`derive.present.paper.item_of`); an arrow runs from item A to item B
when a claim of B uses a claim of A. An item's status is derived from its claims' statuses in the claim graph,
never set by hand. :func:`dot_svg` runs Graphviz's ``dot`` (``-Tsvg``) at build time; without it the site
shows the same items as a list.

>>> from derive.site.graph import claim_graph
>>> g = claim_graph([("05_x", [{"id": "symmetric.exchange.d2", "verdict": "proved", "uses": []},
...                            {"id": "gated.exchange.relu", "verdict": "refuted", "expect": "refuted",
...                             "uses": ["symmetric.exchange.d2"]}])])
>>> bp = blueprint(g)
>>> bp.items["5.1"].status, bp.items["5.3"].status, bp.items["5.2"].status, bp.edges
('fully-proved', 'refuted', 'empty', [('5.1', '5.3')])
"""
from __future__ import annotations

import html
import re
import shutil
import subprocess
from dataclasses import dataclass, field

from ..present import paper, plain
from .graph import STATUSES, ClaimGraph

__all__ = ["ITEM_STATUSES", "ItemNode", "Blueprint", "blueprint", "item_status", "blueprint_dot", "claims_dot",
           "dot_svg", "have_dot"]

#: item status -> (legend text, fill, stroke, text colour)
ITEM_STATUSES = {
    "fully-proved": ("fully proved: every claim, and all it uses, proved", "#1a7f37", "#1a7f37", "#ffffff"),
    "settled": ("proved where it holds, refuted by certified witnesses where it must fail (the bar: the share of each)",
                "#0b3d1a", "#0b3d1a", "#ffffff"),
    "refuted": ("refuted as expected, by certified witnesses", "#b35900", "#b35900", "#ffffff"),
    "proved": ("proved on unproved ground: a claim used is not proved", "#dafbe1", "#1a7f37", "#0b3d1a"),
    "open": ("its claims hold, but do not conclude it: the audit reads a direction of it as not concluded",
             "#fff8c5", "#9a6700", "#4d2d00"),
    "checked": ("rests on numeric evidence somewhere", "#0969da", "#0969da", "#ffffff"),
    "unproven": ("a claim is unproven, or uses one stated nowhere", "#6e7781", "#6e7781", "#ffffff"),
    "unexpected": ("a verdict differs from the one expected", "#ffebe9", "#cf222e", "#82071e"),
    "empty": ("no claim states it (pictures, or not yet)", "#ffffff", "#8c959f", "#57606a"),
}

#: a settled item's bar: the share of its claims proved, then refuted (light enough to read on its dark box)
BAR = ("#4ac26b", "#fb8f44")
_BAR_PT = 64  # the bar's length in points, centred under the text


@dataclass
class ItemNode:
    """One item of the paper and the claims that state it."""

    id: str
    step: str
    label: str
    claims: list[str] = field(default_factory=list)
    status: str = "empty"
    counts: dict = field(default_factory=dict)


@dataclass
class Blueprint:
    """The items in the paper's order, the arrows between them (used, user), and the claims of no item."""

    items: dict[str, ItemNode]
    edges: list[tuple[str, str]]
    loose: list[str]


def item_status(statuses: list[str], unexpected: bool) -> str:
    """The status of an item from its claims' statuses (those of :data:`derive.site.graph.STATUSES`).

    >>> item_status(["fully-proved", "refuted"], False), item_status(["fully-proved", "proved"], False)
    ('settled', 'proved')
    """
    if not statuses:
        return "empty"
    if unexpected:
        return "unexpected"
    for status in ("missing", "unproven"):
        if status in statuses:
            return "unproven"
    if "checked" in statuses:
        return "checked"
    if "proved" in statuses:
        return "proved"
    if all(s == "refuted" for s in statuses):
        return "refuted"
    return "settled" if "refuted" in statuses else "fully-proved"


def blueprint(graph: ClaimGraph, concluded: dict | None = None) -> Blueprint:
    """The blueprint of the claims of ``graph`` (missing identifiers left out); with ``concluded`` (item → whether
    the audit reads every direction of it as concluded, :func:`derive.present.audit.audit`), an item whose claims all
    hold but which the audit does not read as concluded is ``open``, never fully proved: a claim filed under an item
    (by its identifier or ``paper=``) need not state it, at its sizes, both ways.

    >>> from derive.site.graph import claim_graph
    >>> g = claim_graph([("05_x", [{"id": "gated.exchange.d2", "verdict": "proved", "uses": []}])])
    >>> blueprint(g).items["5.3"].status, blueprint(g, {"5.3": False}).items["5.3"].status
    ('fully-proved', 'open')
    """
    if not isinstance(graph, ClaimGraph):
        raise TypeError(f"blueprint: expected a ClaimGraph, got {type(graph).__name__}")
    items = {i.id: ItemNode(i.id, i.step, i.label) for i in paper.ITEMS}
    where: dict[str, str] = {}
    loose = []
    for node in graph.nodes.values():
        if node.missing:
            continue
        item = paper.item_of({"id": node.id, "paper": node.paper})
        if item is None:
            loose.append(node.id)
            continue
        where[node.id] = item
        items[item].claims.append(node.id)
    for it in items.values():
        statuses = [graph.nodes[c].status for c in it.claims]
        it.status = item_status(statuses, any(graph.nodes[c].unexpected for c in it.claims))
        if concluded is not None and it.status in ("fully-proved", "settled") and not concluded.get(it.id, False):
            it.status = "open"
        verdicts = [graph.nodes[c].verdict for c in it.claims]
        it.counts = {v: verdicts.count(v) for v in ("proved", "refuted", "checked", "unproven") if v in verdicts}
    edges = sorted({(where[u], where[v]) for u, v in graph.edges if u in where and v in where and where[u] != where[v]},
                   key=lambda e: (_order(e[1]), _order(e[0])))
    return Blueprint(items, edges, loose)


_ORDER = {i.id: k for k, i in enumerate(paper.ITEMS)}


def _order(item: str) -> int:
    return _ORDER[item]


def _q(text: str) -> str:
    """A DOT string: quoted, with quotes and backslashes escaped."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _step_label(title: str) -> str:
    """A step's title as its cluster's DOT label: its number, then its name on a line of its own (a column of the
    blueprint is as narrow as its boxes)."""
    number, sep, name = title.partition(" · ")
    lines = [number, name] if sep else [title]
    return '"' + "".join(_q(line)[1:-1] + "\\l" for line in lines) + '"'  # \l: a line set flush left


def _wrap(text: str, width: int) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return lines + ([line] if line else [])


_SYMBOL = {"proved": "✔", "refuted": "✘", "checked": "≈", "unproven": "?"}


def blueprint_dot(bp: Blueprint, href) -> str:
    """The DOT source of the blueprint: the paper's steps left to right in one row, the steps beyond it below.

    ``href(item)`` gives the link of an item's node. The items of a step share a column; arrows against the
    paper's order do not constrain the layout, so the main line 1.1 → 6.2 reads left to right.
    """
    out = ['digraph blueprint {',
           '  graph [rankdir=LR, newrank=true, nodesep=0.1, ranksep=0.18, fontname="DejaVu Sans", fontsize=10, '
           'bgcolor="transparent", pad=0.12];',
           '  node [shape=box, style="rounded,filled", fontname="DejaVu Sans", fontsize=9, margin="0.04,0.03", '
           'width=1.1, penwidth=1.4];',
           '  edge [color="#57606a", arrowsize=0.7, penwidth=1.2];']
    parts = {"paper": [s for s in paper.STEPS if s.id[0].isdigit()],
             "beyond": [s for s in paper.STEPS if not s.id[0].isdigit()]}
    for part, steps in reversed(parts.items()):  # dot stacks the clusters of LR from the bottom up
        title = "The paper" if part == "paper" else "Beyond the paper"
        out.append(f'  subgraph cluster_{part} {{ label={_q(title)}; labeljust=l; fontsize=11; style="rounded"; '
                   f'color="#d0d7de"; fontcolor="#1f2328"; margin=8;')
        for step in steps:
            members = [i for i in bp.items.values() if i.step == step.id]
            out.append(f'    subgraph cluster_step_{step.id} {{ label={_step_label(step.title)}; fontsize=9; '
                       f'style="rounded,filled"; fillcolor="#f6f8fa"; color="#d0d7de"; fontcolor="#1f2328"; margin=5; '
                       f'id={_q("step-" + step.id)};')
            for it in members:
                out.append("      " + _item_node(it, href(it.id)))
            out.append("      {rank=same; " + " ".join(_q(i.id) for i in members) + "}")
            out.append("    }")
        out.append("  }")
    # the paper's order: step k+1 one column right of step k; each step beyond the paper under a step of it
    for steps in parts.values():
        for prev, nxt in zip(steps, steps[1:]):
            a = next(i.id for i in bp.items.values() if i.step == prev.id)
            b = next(i.id for i in bp.items.values() if i.step == nxt.id)
            out.append(f"  {_q(a)} -> {_q(b)} [style=invis, weight=10];")
    for main, beyond in zip(parts["paper"], parts["beyond"]):
        a = next(i.id for i in bp.items.values() if i.step == main.id)
        b = next(i.id for i in bp.items.values() if i.step == beyond.id)
        out.append(f"  {{rank=same; {_q(a)} {_q(b)}}}")
        last = [i.id for i in bp.items.values() if i.step == main.id][-1]
        out.append(f"  {_q(b)} -> {_q(last)} [style=invis];")  # the paper above what goes beyond it
    for used, user in bp.edges:
        back = _order(user) < _order(used)
        # an arrow to a later step leaves its box on the right and enters the next on the left, as the steps read:
        # one that skipped a step left from the top and crossed that step's title
        across = not back and bp.items[used].step != bp.items[user].step
        out.append(f"  {_q(used)} -> {_q(user)} [{'constraint=false, ' if back else ''}"
                   f"{'tailport=e, headport=w, ' if across else ''}"
                   f'id={_q(f"edge-{used}-{user}")}];')
    out.append("}")
    return "\n".join(out) + "\n"


def _item_node(it: ItemNode, link: str | None) -> str:
    text, fill, stroke, ink = ITEM_STATUSES[it.status]
    counts = "  ".join(f"{_SYMBOL[v]} {n}" for v, n in it.counts.items()) or "no claim"
    wrapped = _wrap(plain.title_text(it.label), 18)
    lines = [it.id + "  " + wrapped[0]] + wrapped[1:] + [counts]
    width = 3 if it.status == "unexpected" else 1.4
    tooltip = f"{it.id} {it.label} — {text}; {len(it.claims)} claims"
    attrs = [f"color={_q(stroke)}", f"fontcolor={_q(ink)}", f"penwidth={width}", f"tooltip={_q(tooltip)}",
             f"id={_q('item-' + it.id)}", f'class={_q("item " + it.status)}']
    if it.status == "settled":  # the text on one colour, and under it a bar of the shares proved and refuted
        attrs = ["shape=plain", f"label={_bar_label(lines, it.counts, fill, stroke)}"] + attrs
    else:
        label = "\\n".join(line.replace("\\", "\\\\").replace('"', '\\"') for line in lines)
        style = "rounded,dashed,filled" if it.status == "empty" else "rounded,filled"
        attrs = [f'label="{label}"', f"style={_q(style)}", f"fillcolor={_q(fill)}"] + attrs
    if link:
        attrs.append(f"URL={_q(link)}")
        attrs.append('target="_top"')
    return f"{_q(it.id)} [{', '.join(attrs)}];"


def _bar_label(lines: list[str], counts: dict, fill: str, stroke: str) -> str:
    """A DOT HTML label: ``lines`` on ``fill`` in a rounded box, over a bar whose two parts are the shares of the
    claims proved and refuted."""
    proved = counts.get("proved", 0) / max(1, sum(counts.values()))
    parts = [round(_BAR_PT * max(0.08, min(0.92, proved)))]
    parts.append(_BAR_PT - parts[0])
    bar = "".join(f'<TD FIXEDSIZE="TRUE" WIDTH="{w}" HEIGHT="5" BGCOLOR="{c}"></TD>' for w, c in zip(parts, BAR))
    text = "<BR/>".join(html.escape(line, quote=False) for line in lines)
    return (f'<<TABLE STYLE="rounded" BORDER="1" COLOR="{stroke}" BGCOLOR="{fill}" CELLBORDER="0" CELLSPACING="0" '
            f'CELLPADDING="2"><TR><TD>{text}</TD></TR><TR><TD CELLPADDING="1">'
            f'<TABLE FIXEDSIZE="TRUE" WIDTH="{_BAR_PT}" HEIGHT="5" BORDER="0" CELLSPACING="0" CELLPADDING="0">'
            f'<TR>{bar}</TR></TABLE></TD></TR></TABLE>>')


def claims_dot(graph: ClaimGraph, ids: list[str], href) -> str:
    """The DOT source of the claim-level graph of ``ids`` (one step): clusters per item, arrows from uses.

    Claims of other steps that these use are drawn small and grey, so that every arrow has both ends.
    """
    chosen = [i for i in ids if i in graph.nodes]
    inside = set(chosen)
    outside = sorted({u for i in chosen for u in graph.nodes[i].uses if u not in inside})
    groups: dict[str | None, list[str]] = {}
    for ident in chosen:
        groups.setdefault(paper.item_of({"id": ident, "paper": graph.nodes[ident].paper}), []).append(ident)
    out = ['digraph claims {',
           '  graph [rankdir=LR, nodesep=0.12, ranksep=0.35, fontname="DejaVu Sans", fontsize=11, '
           'bgcolor="transparent", pad=0.1];',
           '  node [shape=box, style="rounded,filled", fontname="DejaVu Sans Mono", fontsize=9.5, height=0.22, '
           'margin="0.06,0.02"];',
           '  edge [color="#8c959f", arrowsize=0.55, penwidth=1];']
    for item, members in groups.items():
        title = next((f"{i.id} {i.label}" for i in paper.ITEMS if i.id == item), "exercises and examples")
        out.append(f'  subgraph {_q("cluster_" + str(item))} {{ label={_q(title)}; style="rounded"; color="#d0d7de"; '
                   f'fontcolor="#57606a";')
        for ident in members:
            out.append("    " + _claim_node(graph.nodes[ident], href(ident)))
        out.append("  }")
    for ident in outside:
        node = graph.nodes[ident]
        link = href(ident)
        attrs = f'label={_q(ident)}, fillcolor="#ffffff", color="#d0d7de", fontcolor="#8c959f", ' \
                f'tooltip={_q(ident + " (another step)" if not node.missing else ident + " (stated nowhere)")}'
        if node.missing:
            attrs += ', style="rounded,dashed", color="#cf222e", fontcolor="#cf222e"'
        if link:
            attrs += f", URL={_q(link)}, target=\"_top\""
        out.append(f"  {_q(ident)} [{attrs}];")
    for ident in chosen:
        for u in graph.nodes[ident].uses:
            out.append(f"  {_q(u)} -> {_q(ident)};")
    out.append("}")
    return "\n".join(out) + "\n"


def _claim_node(node, link) -> str:
    label, fill, stroke, ink = STATUSES[node.status]
    stroke = "#cf222e" if node.unexpected else stroke
    attrs = [f"label={_q(node.id)}", f"fillcolor={_q(fill)}", f"color={_q(stroke)}", f"fontcolor={_q(ink)}",
             f"penwidth={3 if node.unexpected else 1.2}", f"tooltip={_q(node.id + ' — ' + label)}",
             f"id={_q('claim-node-' + node.id)}", f'class={_q("node " + node.status)}']
    if link:
        attrs += [f"URL={_q(link)}", 'target="_top"']
    return f"{_q(node.id)} [{', '.join(attrs)}];"


def have_dot() -> bool:
    """Whether Graphviz's ``dot`` is on the PATH."""
    return shutil.which("dot") is not None


def dot_svg(source: str, css_class: str) -> str | None:
    """The SVG ``dot`` draws from ``source`` (its XML prologue and comments dropped), or None without dot."""
    exe = shutil.which("dot")
    if exe is None:
        return None
    done = subprocess.run([exe, "-Tsvg"], input=source.encode("utf-8"), capture_output=True, timeout=60, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"dot failed: {done.stderr.decode('utf-8', 'replace').strip()[:300]}")
    text = done.stdout.decode("utf-8")
    text = re.sub(r"<\?xml.*?\?>|<!DOCTYPE.*?>|<!--.*?-->", "", text, flags=re.S).strip()
    return text.replace("<svg ", f'<svg class="{html.escape(css_class)} tex2jax_ignore" ', 1)
