"""SVG drawing of hexes, tiles and the map, read from the compiled title's tables.

One geometry, the engine's (facts §9, :mod:`eighteen.title.geometry`): edges are numbered
0-5 clockwise (pointy: 0 SW, 1 W, 2 NW, 3 NE, 4 E, 5 SE; flat: 0 S, 1 SW, 2 NW, 3 N, 4 NE,
5 SE) and a tile lying at rotation ``r`` puts its edge ``e`` on hex edge ``(e + r) % 6``.
Hex centres are at ``(x·s·√3/2, y·s·1.5)`` (pointy) or ``(x·s·1.5, y·s·√3/2)`` (flat) for the
doubled coordinates ``(x, y)`` of the compiled title, with the screen's y growing downward.

The SVG is built with :mod:`xml.etree.ElementTree`, so every text and attribute is escaped and
the result is well-formed XML.  Elements carry data attributes for tests and scripts:

- ``<g class="hex" data-hex="E19" data-color=... [data-tile="57" data-rotation="1"]
  [data-notes="home chosen by B&M; ..."]>`` (notes: a chosen home, a takeover)
- ``<path class="track" data-edges="1 4" data-kind="plain|city|town|offboard|stub">`` with
  absolute hex edges (a stub, dead-end track, runs from its edge a short way in)
- ``<g class="city" data-city="0" data-slots="1" data-revenue="40" data-exits="3">`` holding
  ``<g class="slot" data-slot="0">``, tokens ``<g class="token" data-corp="PRR">`` and
  reservations ``<g class="home" data-corp="NYC">``
- ``<g class="town" data-town="0" data-revenue="10" data-exits="0 3">``
- ``<g class="offboard" data-revenue="yellow:40 brown:70">`` with one
  ``<g class="offboard-value" data-color="yellow" data-phases="2 3 4">`` per value
- ``<text class="label">OO</text>``, ``<g class="terrain" data-terrain="water"
  data-cost="80">``, ``<g class="blocked" data-private="SV">``, ``<line class="border">``

This module draws the whole map and single tiles (and the hex borders).  The pieces it
uses: :mod:`eighteen.render.shapes` (colours, geometry, element helpers),
:mod:`eighteen.render.placing` (the drawable face and where its stops and marks go) and
:mod:`eighteen.render.face` (the face drawer).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass, field

from eighteen.compiled import CompiledHex, CompiledTitle
from eighteen.render.face import Corp, HexMarks, draw_face
from eighteen.render.placing import face_of
from eighteen.render.shapes import (
    HEX_FILL,
    SVG_NS,
    TERRAIN_FILL,
    add_text,
    apothem,
    corners,
    edge_corners,
    edge_mid,
    el,
    fmt,
    hex_center,
    layout_name,
    polygon_points,
    scale,
)
from eighteen.title import geometry
from eighteen.title.model import Border


def shared_costs(hexes: Mapping[str, CompiledHex], hid: str) -> set[int]:
    """Edges of ``hid`` whose side cost is printed by the hex across instead: a costed side
    is written on both hexes, and its cost is printed once, on the hex where it is edge
    0, 1 or 2."""
    out: set[int] = set()
    nbrs = hexes[hid].neighbors
    for b in hexes[hid].borders:
        other = nbrs[b.edge]
        if not b.cost or b.edge < 3 or other is None or other not in hexes:
            continue
        back = (b.edge + 3) % 6
        if any(x.edge == back and x.cost for x in hexes[other].borders):
            out.add(b.edge)
    return out


def _draw_borders(
    parent: ET.Element,
    borders: list[Border],
    layout: str,
    size: float,
    skip_costs: set[int] | frozenset[int] = frozenset(),
) -> None:
    """Hex-side borders: impassable thick red, water and bridge blue and mountain and pass
    brown with their cost, cosmetic dotted; the
    costs of ``skip_costs`` edges are printed by the hex across."""
    for b in borders:
        edge = b.edge
        kind = b.type.value
        p, q = edge_corners(edge, layout, size)
        inset = 0.94
        p, q = scale(p, inset), scale(q, inset)
        style = {
            "impassable": {"stroke": "#b71c1c", "stroke-width": size * 0.12},
            "water": {"stroke": TERRAIN_FILL["water"], "stroke-width": size * 0.1},
            "bridge": {"stroke": TERRAIN_FILL["bridge"], "stroke-width": size * 0.1},
            "mountain": {"stroke": TERRAIN_FILL["mountain"], "stroke-width": size * 0.1},
            "pass": {"stroke": TERRAIN_FILL["pass"], "stroke-width": size * 0.1},
        }.get(kind, {"stroke": "#ffffff", "stroke-width": size * 0.04, "stroke-dasharray": "2 3"})
        el(
            parent,
            "line",
            {
                "class": "border",
                "data-edge": edge,
                "data-type": kind,
                "x1": p[0],
                "y1": p[1],
                "x2": q[0],
                "y2": q[1],
                **style,
            },
        )
        if b.cost and edge not in skip_costs:
            mid = scale(edge_mid(edge, layout, size), 0.78)
            add_text(parent, mid, f"${b.cost}", size * 0.16, "border-cost")


def draw_hex_shape(parent: ET.Element, color: str, layout: str, size: float) -> ET.Element:
    """The hex polygon filled with its colour."""
    return el(
        parent,
        "polygon",
        {
            "class": "hex-shape",
            "points": polygon_points(corners(layout, size)),
            "fill": HEX_FILL.get(color, color),
            "stroke": "#777777",
            "stroke-width": size * 0.025,
        },
    )


# ---------------------------------------------------------------------------------------
# the whole map and single tiles


@dataclass
class MapView:
    """What the map shows beyond the title: laid tiles and tokens (empty for a title)."""

    tiles: dict[str, tuple[str, int]] = field(default_factory=dict)
    tokens: dict[str, list[list[str]]] = field(default_factory=dict)
    homes_placed: set[str] = field(default_factory=set)
    active_blocks: set[str] | None = None  # None: every private blocks (title view)
    phase: str | None = None  # current phase id, if a game
    #: lines for a hex's details beyond its face: a chosen home, a takeover
    notes: dict[str, list[str]] = field(default_factory=dict)


def corps_of(compiled: CompiledTitle) -> dict[str, Corp]:
    """Drawing colours of the title's corporations."""
    return {c.id: Corp(c.id, c.color, c.text_color) for c in compiled.corporations}


def phase_colors(compiled: CompiledTitle) -> dict[str, list[str]]:
    """Off-board revenue colour -> the phases using it."""
    out: dict[str, list[str]] = {}
    for p in compiled.phases:
        out.setdefault(p.offboard_revenue, []).append(p.id)
    return out


def _svg_root(width: float, height: float, cls: str, x0: float = 0, y0: float = 0) -> ET.Element:
    return ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "class": cls,
            "viewBox": f"{fmt(x0)} {fmt(y0)} {fmt(width)} {fmt(height)}",
            "width": fmt(width),
            "height": fmt(height),
            "font-family": "Helvetica, Arial, sans-serif",
        },
    )


def map_svg(compiled: CompiledTitle, view: MapView | None = None, size: float = 40.0) -> str:
    """The whole map as an SVG document string: every hex, with the view's tiles and tokens."""
    view = view or MapView()
    layout = layout_name(compiled.layout)
    hexes = compiled.hexes
    tiles = compiled.tiles
    corps = corps_of(compiled)
    homes_city = {c.id: c.city for c in compiled.corporations}
    pcolors = phase_colors(compiled)
    current_revenue = None
    for p in compiled.phases:
        if view.phase is not None and p.id == str(view.phase):
            current_revenue = p.offboard_revenue

    centres = {h: hex_center(r.x, r.y, layout, size) for h, r in sorted(hexes.items())}
    # each side: the hexes' own half extent, then a gutter for the coordinate labels
    half_w, half_h = (apothem(size), size) if layout == "pointy" else (size, apothem(size))
    gutter = size * 0.9
    xs = [c[0] for c in centres.values()] or [0.0]
    ys = [c[1] for c in centres.values()] or [0.0]
    x0, y0 = min(xs) - half_w - gutter, min(ys) - half_h - gutter
    width = max(xs) + half_w + gutter - x0
    height = max(ys) + half_h + gutter - y0
    root = _svg_root(width, height, "map", x0, y0)
    root.set("data-layout", layout)
    root.set("data-hexes", str(len(hexes)))
    el(root, "rect", {"x": x0, "y": y0, "width": width, "height": height, "fill": "#fbfaf5"})

    coords = el(root, "g", {"class": "coords"})
    rows: dict[int, str] = {}
    cols: dict[int, str] = {}
    for h, r in hexes.items():
        letters, number = geometry.parse_hex_id(h)
        if layout == "pointy":
            rows[r.y], cols[r.x] = letters, str(number)
        else:
            rows[r.y], cols[r.x] = str(number), letters
    for y, label in sorted(rows.items()):
        cy = hex_center(0, y, layout, size)[1]
        for cx in (x0 + gutter / 2, x0 + width - gutter / 2):
            add_text(
                coords,
                (cx, cy),
                label,
                size * 0.35,
                "coord-row",
                bold=True,
                fill="#555",
                halo=False,
            )
    for x, label in sorted(cols.items()):
        cx = hex_center(x, 0, layout, size)[0]
        for cy in (y0 + gutter / 2, y0 + height - gutter / 2):
            add_text(coords, (cx, cy), label, size * 0.3, "coord-col", fill="#555", halo=False)

    layer = el(root, "g", {"class": "hexes"})
    for h in sorted(hexes, key=lambda k: (hexes[k].y, hexes[k].x)):
        rec = hexes[h]
        cx, cy = centres[h]
        laid = view.tiles.get(h)
        laid_color = tiles[laid[0]].color.value if laid and laid[0] in tiles else None
        g = el(
            layer,
            "g",
            {
                "class": "hex",
                "data-hex": h,
                "data-color": laid_color or rec.color.value,
                "data-printed-color": rec.color.value if laid_color else None,
                "data-tile": laid[0] if laid else None,
                "data-rotation": laid[1] if laid else None,
                "data-notes": "; ".join(view.notes[h]) if view.notes.get(h) else None,
                "transform": f"translate({fmt(cx)} {fmt(cy)})",
            },
        )
        title = el(g, "title")
        title.text = h + (f" {rec.name}" if rec.name else "")
        terrain: str | None
        if laid and laid[0] in tiles:
            face = face_of(tiles[laid[0]], int(laid[1]))
            terrain, cost = None, 0
        else:
            face = face_of(rec)
            terrain, cost = rec.terrain.value if rec.terrain else None, rec.cost
        blocked = [
            p for p in rec.blocked_by if view.active_blocks is None or p in view.active_blocks
        ]
        marks = HexMarks(
            name=rec.name,
            terrain=terrain,
            cost=cost,
            tokens=view.tokens.get(h, []),
            homes=[(c, homes_city.get(c)) for c in rec.homes if c not in view.homes_placed],
            blocked_by=blocked,
            borders=list(rec.borders),
            phase_colors=pcolors,
            current_revenue=current_revenue,
        )
        draw_hex_shape(g, face.color, layout, size)
        _draw_borders(g, marks.borders, layout, size, shared_costs(hexes, h))
        draw_face(g, face, layout, size, marks=marks, corps=corps)
    return ET.tostring(root, encoding="unicode")


def tile_svg(compiled: CompiledTitle, tile_id: str, rotation: int = 0, size: float = 36.0) -> str:
    """One manifest tile as a small SVG document string."""
    layout = layout_name(compiled.layout)
    rec = compiled.tiles[tile_id]
    pad = size * 0.08
    root = _svg_root(2 * size + 2 * pad, 2 * size + 2 * pad, "tile-svg", -size - pad, -size - pad)
    g = el(
        root,
        "g",
        {
            "class": "tile",
            "data-tile": tile_id,
            "data-rotation": rotation,
            "data-color": rec.color.value,
        },
    )
    face = face_of(rec, rotation)
    draw_hex_shape(g, face.color, layout, size)
    draw_face(g, face, layout, size)
    add_text(
        g, (-size * 0.8, -size * 0.85), tile_id, size * 0.22, "tile-id", fill="#333", bold=True
    )
    return ET.tostring(root, encoding="unicode")
