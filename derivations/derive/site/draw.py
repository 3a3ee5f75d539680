"""Draw a claim graph as SVG: a layered layout computed here, no external tool.

Each group of claims linked by uses is laid out on its own, in columns running left to right: a claim
sits one column right of the furthest claim it uses, so every arrow points from what is used to what uses
it. Long edges pass through invisible slots in the columns between (so they never cross a node), and the
order inside each column is improved by barycentre sweeps. The groups are packed in rows, in reading order;
claims that neither use nor are used by any other come last, in a wrapped block.

>>> from derive.site.graph import claim_graph
>>> from derive.site.draw import svg
>>> g = claim_graph([("01", [{"id": "a", "verdict": "proved", "uses": []},
...                          {"id": "b", "verdict": "refuted", "uses": ["a"]}])])
>>> text = svg(g, lambda node: f"01.html#claim-{node.id}")
>>> text.startswith("<svg") and text.count('class="node ') == 2
True
"""
from __future__ import annotations

import html
from collections.abc import Callable

from .graph import STATUSES, ClaimGraph, Node

__all__ = ["layers", "svg"]

CHAR = 7.0          # width of one character of the 11.5px monospace label
NODE_H, SLOT_H = 24, 8
GAP_X, GAP_Y, PAD = 56, 10, 16
GROUP_GAP, ROW_GAP, WIDTH = 36, 18, 1170  # between groups of linked claims, between their rows; row width
#: the drawing's own styles, so that the SVG reads the same inline and as a file of its own
STYLE = ("svg.claims-graph text{font:11.5px 'DejaVu Sans Mono',ui-monospace,Menlo,Consolas,monospace;"
         "text-anchor:middle}"
         "svg.claims-graph text.caption{font:13px system-ui,'Helvetica Neue',Arial,sans-serif;text-anchor:start;"
         "fill:#57606a}"
         "svg.claims-graph .edge{fill:none;stroke:#8c959f;stroke-width:1.3}"
         "svg.claims-graph .edge.cycle{stroke:#cf222e;stroke-dasharray:5 3}"
         "svg.claims-graph .edge.hl{stroke:#0969da;stroke-width:2.4}"
         "svg.claims-graph g.node a:hover rect{filter:brightness(1.12);stroke-width:2.5}")


def _width(node_id: str) -> float:
    return round(len(node_id) * CHAR + 18, 1)


def _components(graph: ClaimGraph) -> list[list[str]]:
    """The weakly connected groups of linked claims, each in reading order, in order of their first claim."""
    parent = {n: n for e in graph.edges for n in e}

    def root(n):
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    for a, b in graph.edges:
        parent[root(a)] = root(b)
    groups: dict[str, list[str]] = {}
    for n in graph.nodes:
        if n in parent:
            groups.setdefault(root(n), []).append(n)
    return list(groups.values())


def layers(graph: ClaimGraph) -> tuple[list[list[list[str]]], list[str]]:
    """The columns of each connected group of claims (``"~k"`` slots carry long edges), and the isolated claims."""
    if not isinstance(graph, ClaimGraph):
        raise TypeError(f"layers: expected a ClaimGraph, got {type(graph).__name__}")
    groups, isolated, _ = _layout(graph)
    return groups, isolated


def _layout(graph: ClaimGraph):
    nodes = graph.nodes
    routes: dict[tuple[str, str], list[str]] = {}
    slots = iter(range(len(graph.edges) * len(nodes) + 1))
    groups = []
    for members in _components(graph):
        groups.append(_columns(graph, set(members), members, routes, slots))
    linked = {n for e in graph.edges for n in e}
    return groups, [n for n in nodes if n not in linked], routes


def _columns(graph, member_set, members, routes, slots) -> list[list[str]]:
    nodes = graph.nodes
    column: dict[str, int] = {}
    visiting: set[str] = set()

    def place(n: str) -> int:  # one column right of the furthest claim used; edges closing a cycle skipped
        if n in column:
            return column[n]
        visiting.add(n)
        col = 0
        for u in nodes[n].uses:
            if u not in visiting:
                col = max(col, place(u) + 1)
        visiting.discard(n)
        column[n] = col
        return col

    for n in members:
        place(n)
    cols: list[list[str]] = [[] for _ in range(max(column.values()) + 1)]
    for n in members:
        cols[column[n]].append(n)
    links: list[tuple[str, str]] = []
    for used, user in graph.edges:
        if user not in member_set:
            continue
        a, b = column[used], column[user]
        if b <= a:  # an edge closing a cycle: drawn as an arc
            continue
        prev = used
        for c in range(a + 1, b):  # a long edge passes through a slot in each column between its ends
            name = f"~{next(slots)}"
            cols[c].append(name)
            links.append((prev, name))
            routes.setdefault((used, user), []).append(name)
            prev = name
        links.append((prev, user))
    _sweep(cols, links)
    return cols


def _sweep(cols: list[list[str]], links: list[tuple[str, str]], rounds: int = 6) -> None:
    left: dict[str, list[str]] = {}
    right: dict[str, list[str]] = {}
    for a, b in links:
        right.setdefault(a, []).append(b)
        left.setdefault(b, []).append(a)
    for r in range(rounds):
        order = range(1, len(cols)) if r % 2 == 0 else range(len(cols) - 2, -1, -1)
        near = left if r % 2 == 0 else right
        for c in order:
            pos = {n: i for col in cols for i, n in enumerate(col)}
            keys = {}
            for i, n in enumerate(cols[c]):
                ns = near.get(n, [])
                keys[n] = sum(pos[m] for m in ns) / len(ns) if ns else i
            cols[c].sort(key=lambda n: keys[n])


def _place(cols):
    """Coordinates of one group: x of each entry's column, centre y, column widths; and the group's size."""
    xs, ys, col_w, x = {}, {}, {}, 0.0
    heights = []
    for col in cols:
        w = max((_width(n) for n in col if not n.startswith("~")), default=40)
        y = 0.0
        for n in col:
            h = SLOT_H if n.startswith("~") else NODE_H
            xs[n], ys[n], col_w[n] = x, y + h / 2, w
            y += h + GAP_Y
        heights.append(y - GAP_Y)
        x += w + GAP_X
    tallest = max(heights)
    for col, h in zip(cols, heights):  # centre each column on the tallest
        for n in col:
            ys[n] += (tallest - h) / 2
    return xs, ys, col_w, x - GAP_X, tallest


def _label(node: Node) -> str:
    parts = [node.id, STATUSES[node.status][0]]
    if node.notebook:
        parts.append(f"stated in {node.notebook}")
    if node.title:
        parts.append(node.title.replace("$", ""))  # a tooltip is plain text
    if node.unexpected:
        parts.append(f"expected {node.expect}, got {node.verdict}")
    return " — ".join(parts)


def _node(node: Node, x: float, y: float, href: Callable[[Node], str | None]) -> str:
    label, fill, stroke, ink = STATUSES[node.status]
    w = _width(node.id)
    dash = ' stroke-dasharray="4 3"' if node.missing else ""
    width = 3 if node.unexpected else 1.5
    stroke = "#cf222e" if node.unexpected else stroke
    esc = html.escape(node.id)
    body = (f'<rect x="{x:.1f}" y="{y - NODE_H / 2:.1f}" width="{w}" height="{NODE_H}" rx="6" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{width}"{dash}/>'
            f'<text x="{x + w / 2:.1f}" y="{y + 4:.1f}" fill="{ink}">{esc}</text>')
    link = href(node)
    inner = f'<title>{html.escape(_label(node))}</title>{body}'
    if link:
        inner = f'<a href="{html.escape(link)}">{inner}</a>'
    return f'<g class="node {node.status}" data-id="{esc}">{inner}</g>'


def svg(graph: ClaimGraph, href: Callable[[Node], str | None]) -> str:
    """The graph as an inline SVG element; ``href(node)`` gives each node's link (``None``: no link)."""
    if not isinstance(graph, ClaimGraph):
        raise TypeError(f"svg: expected a ClaimGraph, got {type(graph).__name__}")
    if not callable(href):
        raise TypeError(f"svg: href must be a function of a node, got {type(href).__name__}")
    groups, isolated, routes = _layout(graph)
    placed = [_place(cols) for cols in groups]
    limit = max([WIDTH] + [p[3] + 2 * PAD for p in placed])
    rows: list[list] = []  # [x where the row is free, its height, its groups with their x]
    for k, (_, _, _, w, h) in enumerate(placed):  # first fit, in reading order: a group fills an earlier gap
        row = next((r for r in rows if r[0] + w <= limit - PAD and h <= r[1]), None)
        if row is None:
            row = [PAD, h, []]
            rows.append(row)
        row[2].append((k, row[0]))
        row[0] += w + GROUP_GAP
    xs, ys, col_w = {}, {}, {}
    y = PAD
    for _, row_h, members in rows:
        for k, x in members:
            gx, gy, gw, _, _ = placed[k]
            xs.update({n: v + x for n, v in gx.items()})
            ys.update({n: v + y for n, v in gy.items()})
            col_w.update(gw)
        y += row_h + ROW_GAP
    height = y - ROW_GAP + PAD if rows else PAD
    total_w = limit
    parts = [_edge(used, user, xs, ys, col_w, routes.get((used, user), [])) for used, user in graph.edges]
    parts += [_node(graph.nodes[n], xs[n], ys[n], href) for n in xs if not n.startswith("~")]
    if isolated:
        y = height + (10 if placed else 0)
        if placed:
            parts.append(f'<text class="caption" x="{PAD}" y="{y:.1f}">claims that use no other claim '
                         f'and are used by none:</text>')
            y += 14
        x, y = PAD, y + NODE_H / 2 + 4
        for n in isolated:
            w = _width(n)
            if x + w > total_w - PAD and x > PAD:
                x, y = PAD, y + NODE_H + GAP_Y
            parts.append(_node(graph.nodes[n], x, y, href))
            x += w + 12
        height = y + NODE_H / 2 + PAD
    return (f'<svg class="claims-graph tex2jax_ignore" xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}" '
            f'height="{height:.0f}" viewBox="0 0 {total_w:.0f} {height:.0f}" role="img" '
            f'aria-label="dependency graph of the claims">'
            f'<defs><style>{STYLE}</style><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
            'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#8c959f"/></marker></defs>'
            + "".join(parts) + "</svg>")


def _edge(used, user, xs, ys, col_w, slots) -> str:
    """A path from the right side of ``used`` to the left side of ``user``, through the slots between."""
    ident = f'data-from="{html.escape(used)}" data-to="{html.escape(user)}"'
    start = (xs[used] + _width(used), ys[used])
    end = (xs[user], ys[user])
    if xs[user] <= xs[used]:  # closes a cycle: an arc over the top
        top = min(ys[used], ys[user]) - NODE_H * 1.5
        d = f"M{start[0]:.1f},{start[1]:.1f} C{start[0] + 60:.1f},{top:.1f} {end[0] - 60:.1f},{top:.1f} {end[0]:.1f},{end[1]:.1f}"
        return f'<path class="edge cycle" {ident} d="{d}" marker-end="url(#arrow)"/>'
    points = [start]
    for s in slots:
        points += [(xs[s], ys[s]), (xs[s] + col_w[s], ys[s])]
    points.append(end)
    d = f"M{points[0][0]:.1f},{points[0][1]:.1f}"
    for k in range(0, len(points) - 1, 2):
        (x0, y0), (x1, y1) = points[k], points[k + 1]
        mid = (x0 + x1) / 2
        d += f" C{mid:.1f},{y0:.1f} {mid:.1f},{y1:.1f} {x1:.1f},{y1:.1f}"
        if k + 2 < len(points):
            d += f" L{points[k + 2][0]:.1f},{points[k + 2][1]:.1f}"
    return f'<path class="edge" {ident} d="{d}" marker-end="url(#arrow)"/>'

