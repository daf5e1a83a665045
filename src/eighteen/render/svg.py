"""SVG drawing of hexes, tiles and the map, read from the compiled title's tables.

One geometry, the engine's (facts §9, :mod:`eighteen.title.geometry`): edges are numbered
0-5 clockwise (pointy: 0 SW, 1 W, 2 NW, 3 NE, 4 E, 5 SE; flat: 0 S, 1 SW, 2 NW, 3 N, 4 NE,
5 SE) and a tile lying at rotation ``r`` puts its edge ``e`` on hex edge ``(e + r) % 6``.
Hex centres are at ``(x·s·√3/2, y·s·1.5)`` (pointy) or ``(x·s·1.5, y·s·√3/2)`` (flat) for the
doubled coordinates ``(x, y)`` of the compiled title, with the screen's y growing downward.

The SVG is built with :mod:`xml.etree.ElementTree`, so every text and attribute is escaped and
the result is well-formed XML.  Elements carry data attributes for tests and scripts:

- ``<g class="hex" data-hex="E19" data-color=... [data-tile="57" data-rotation="1"]>``
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
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from eighteen.faces import Offboard, read_face
from eighteen.title import geometry

SVG_NS = "http://www.w3.org/2000/svg"
SQRT3 = math.sqrt(3.0)

#: Fill colour of a hex or tile colour name.
HEX_FILL = {
    "white": "#f3eedb",
    "yellow": "#fde900",
    "green": "#71bf44",
    "brown": "#cb7745",
    "gray": "#bcbdc0",
    "grey": "#bcbdc0",
    "red": "#e05050",
    "blue": "#35a7ff",
    "purple": "#a676c8",
}
#: Colour of an off-board value box by phase revenue colour.
VALUE_FILL = dict(HEX_FILL, white="#ffffff")
TERRAIN_FILL = {"water": "#1e88e5", "mountain": "#8d6e63", "hill": "#a1887f", "forest": "#2e7d32"}
TRACK_COLOR = "#111111"
#: Where a stub (dead-end track) ends, as a fraction of the way from the centre to its edge.
STUB_END = 0.55

Point = tuple[float, float]


def fmt(value: float) -> str:
    """A coordinate for SVG: at most two decimals, no trailing zeros, never "-0"."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def layout_name(layout: Any) -> str:
    """The layout as a plain string ("pointy" or "flat"), enum values accepted."""
    return str(getattr(layout, "value", layout))


def edge_angle(edge: int, layout: str) -> float:
    """Screen angle in degrees (0 = east, clockwise) from the hex centre to edge ``edge``."""
    base = 120.0 if layout_name(layout) == "pointy" else 90.0
    return (base + 60.0 * edge) % 360.0


def unit(angle: float) -> Point:
    """Unit vector at ``angle`` degrees (screen coordinates, y down)."""
    rad = math.radians(angle)
    return math.cos(rad), math.sin(rad)


def scale(p: Point, k: float) -> Point:
    """``p`` times ``k``."""
    return p[0] * k, p[1] * k


def add(p: Point, q: Point) -> Point:
    """``p + q``."""
    return p[0] + q[0], p[1] + q[1]


def _dist_to(at: Point, p: Point) -> float:
    """Distance from ``at`` to ``p`` (a sort key with ``at`` bound)."""
    return dist(p, at)


def dist(p: Point, q: Point) -> float:
    """Euclidean distance."""
    return math.hypot(p[0] - q[0], p[1] - q[1])


def apothem(size: float) -> float:
    """Centre-to-edge distance of a hex of radius ``size``."""
    return size * SQRT3 / 2.0


def edge_mid(edge: int, layout: str, size: float) -> Point:
    """Midpoint of hex edge ``edge`` relative to the hex centre."""
    return scale(unit(edge_angle(edge, layout)), apothem(size))


def corners(layout: str, size: float) -> list[Point]:
    """The six corners, corner ``i`` lying between edges ``i`` and ``i + 1``."""
    return [scale(unit(edge_angle(e, layout) + 30.0), size) for e in geometry.EDGES]


def edge_corners(edge: int, layout: str, size: float) -> tuple[Point, Point]:
    """The two corners bounding edge ``edge``."""
    a = edge_angle(edge, layout)
    return scale(unit(a - 30.0), size), scale(unit(a + 30.0), size)


def hex_center(x: int, y: int, layout: str, size: float) -> Point:
    """Screen centre of doubled coordinates ``(x, y)`` (facts §9 screen placement)."""
    if layout_name(layout) == "pointy":
        return x * size * SQRT3 / 2.0, y * size * 1.5
    return x * size * 1.5, y * size * SQRT3 / 2.0


def polygon_points(points: Iterable[Point]) -> str:
    """Points as an SVG ``points`` attribute."""
    return " ".join(f"{fmt(x)},{fmt(y)}" for x, y in points)


# ---------------------------------------------------------------------------------------
# faces: what a hex shows, in absolute edges


@dataclass
class Stop:
    """A city or town of a face, with absolute exits."""

    kind: str  # "city" or "town"
    index: int
    revenue: int
    slots: int
    exits: list[int]


@dataclass
class Face:
    """The drawable content of a hex or tile: stops, plain track, stubs and off-board, in
    absolute edges."""

    color: str
    label: str | None
    cities: list[Stop] = field(default_factory=list)
    towns: list[Stop] = field(default_factory=list)
    track: list[tuple[int, int]] = field(default_factory=list)
    offboard: Offboard | None = None
    stubs: list[int] = field(default_factory=list)

    @property
    def stops(self) -> list[Stop]:
        """Cities then towns."""
        return self.cities + self.towns


def face_of(record: Mapping[str, Any], rotation: int = 0, color: str | None = None) -> Face:
    """Face of a compiled hex or tile record (read by :func:`eighteen.faces.read_face`), its
    edges turned by ``rotation``."""
    rec = read_face(record, rotation)
    return Face(
        color=color or rec.color or "white",
        label=rec.label,
        cities=[
            Stop("city", i, c.revenue, c.slots, list(c.exits)) for i, c in enumerate(rec.cities)
        ],
        towns=[Stop("town", i, t.revenue, 0, list(t.exits)) for i, t in enumerate(rec.towns)],
        track=list(rec.track),
        offboard=rec.offboard,
        stubs=list(rec.stubs),
    )


# ---------------------------------------------------------------------------------------
# track geometry


def track_kind(a: int, b: int) -> str:
    """Shape of plain track between two edges: "straight", "gentle" or "sharp"."""
    d = (b - a) % 6
    return {3: "straight", 2: "gentle", 4: "gentle", 1: "sharp", 5: "sharp"}.get(d, "none")


def _arc(a: int, b: int, layout: str, size: float) -> tuple[Point, float] | None:
    """Centre and radius of the arc joining edges ``a`` and ``b`` (None when straight).

    The arc meets both edges square: gentle curves (two edges apart) have radius 1.5·s
    centred twice the apothem out past the middle edge; sharp curves have radius s/2
    centred on the shared corner.
    """
    kind = track_kind(a, b)
    if kind == "straight":
        return None
    ua, ub = unit(edge_angle(a, layout)), unit(edge_angle(b, layout))
    mid = (ua[0] + ub[0], ua[1] + ub[1])
    norm = math.hypot(*mid)
    direction = (mid[0] / norm, mid[1] / norm)
    if kind == "gentle":
        return scale(direction, 2.0 * apothem(size)), 1.5 * size
    return scale(direction, size), 0.5 * size


def track_point(a: int, b: int, t: float, layout: str, size: float) -> Point:
    """Point at fraction ``t`` along the track from edge ``a`` to edge ``b``."""
    pa, pb = edge_mid(a, layout, size), edge_mid(b, layout, size)
    arc = _arc(a, b, layout, size)
    if arc is None:
        return pa[0] + (pb[0] - pa[0]) * t, pa[1] + (pb[1] - pa[1]) * t
    centre, radius = arc
    ang_a = math.atan2(pa[1] - centre[1], pa[0] - centre[0])
    ang_b = math.atan2(pb[1] - centre[1], pb[0] - centre[0])
    delta = (ang_b - ang_a + math.pi) % (2 * math.pi) - math.pi
    ang = ang_a + delta * t
    return centre[0] + radius * math.cos(ang), centre[1] + radius * math.sin(ang)


def track_path(a: int, b: int, layout: str, size: float) -> str:
    """SVG path data of plain track joining edges ``a`` and ``b``."""
    pa, pb = edge_mid(a, layout, size), edge_mid(b, layout, size)
    arc = _arc(a, b, layout, size)
    if arc is None:
        return f"M {fmt(pa[0])} {fmt(pa[1])} L {fmt(pb[0])} {fmt(pb[1])}"
    centre, radius = arc
    cross = (pa[0] - centre[0]) * (pb[1] - centre[1]) - (pa[1] - centre[1]) * (pb[0] - centre[0])
    sweep = 1 if cross > 0 else 0
    return (
        f"M {fmt(pa[0])} {fmt(pa[1])} "
        f"A {fmt(radius)} {fmt(radius)} 0 0 {sweep} {fmt(pb[0])} {fmt(pb[1])}"
    )


def spoke_path(edge: int, to: Point, layout: str, size: float) -> str:
    """SVG path data of track from edge ``edge`` to a stop at ``to`` (leaves the edge square)."""
    pa = edge_mid(edge, layout, size)
    ctrl = scale(unit(edge_angle(edge, layout)), apothem(size) * 0.45)
    if dist(to, (0.0, 0.0)) < 1e-6:
        return f"M {fmt(pa[0])} {fmt(pa[1])} L 0 0"
    return f"M {fmt(pa[0])} {fmt(pa[1])} Q {fmt(ctrl[0])} {fmt(ctrl[1])} {fmt(to[0])} {fmt(to[1])}"


# ---------------------------------------------------------------------------------------
# placing stops and labels


def _candidate_dirs(layout: str) -> list[float]:
    """Twelve directions every 30°, starting at the top of the hex."""
    return [(270.0 + 30.0 * i) % 360.0 for i in range(12)]


@dataclass
class Placed:
    """Where a face's stops sit, relative to the hex centre."""

    points: dict[tuple[str, int], Point]
    inline: dict[tuple[str, int], tuple[int, int]]  # towns drawn on an edge-to-edge track


def place_stops(face: Face, layout: str, size: float) -> Placed:
    """Positions of the face's stops.

    A lone stop sits at the centre (a lone two-exit town on its track's midpoint).  With
    several stops, or plain track beside a stop, each city sits toward the mean of its exits,
    two-exit towns sit on their own track, and stops with no clear direction take the free
    direction farthest from what is already placed (the top first).
    """
    stops = face.stops
    points: dict[tuple[str, int], Point] = {}
    inline: dict[tuple[str, int], tuple[int, int]] = {}
    crowded = len(stops) > 1 or bool(face.track)
    if not crowded:
        for s in stops:
            key = (s.kind, s.index)
            if s.kind == "town" and len(s.exits) == 2:
                inline[key] = (s.exits[0], s.exits[1])
                points[key] = track_point(s.exits[0], s.exits[1], 0.5, layout, size)
            else:
                points[key] = (0.0, 0.0)
        return Placed(points, inline)

    def clearance(p: Point) -> float:
        return min((dist(p, q) for q in points.values()), default=size)

    # towns on a curve first (fixed spots), then straight-through towns, then cities
    towns2 = [s for s in stops if s.kind == "town" and len(s.exits) == 2]
    towns2.sort(key=lambda s: track_kind(*s.exits) == "straight")
    for s in towns2:
        a, b = s.exits
        key = (s.kind, s.index)
        inline[key] = (a, b)
        if track_kind(a, b) == "straight":
            options = [track_point(a, b, t, layout, size) for t in (0.3, 0.7)]
            points[key] = max(options, key=clearance)
        else:
            points[key] = track_point(a, b, 0.5, layout, size)
    radius = 0.45 * size
    pending: list[Stop] = []
    for s in stops:
        key = (s.kind, s.index)
        if key in points:
            continue
        vx = sum(unit(edge_angle(e, layout))[0] for e in s.exits)
        vy = sum(unit(edge_angle(e, layout))[1] for e in s.exits)
        norm = math.hypot(vx, vy)
        if s.exits and norm > 0.25:
            points[key] = (vx / norm * radius, vy / norm * radius)
        else:
            pending.append(s)
    for s in pending:
        options = [scale(unit(a), radius) for a in _candidate_dirs(layout)]
        points[(s.kind, s.index)] = max(options, key=clearance) if points else options[0]
    return Placed(points, inline)


#: Half the extent of a small mark (revenue bubble, label, terrain), in hex sizes.
MARK_R = 0.2


def text_width(text: str, font_size: float) -> float:
    """A generous estimate of the width of ``text`` in Helvetica at ``font_size``."""
    return 0.6 * font_size * len(text)


class Spots:
    """Free spots of a hex for small marks (revenue, label, terrain...), picked greedily."""

    def __init__(self, layout: str, size: float, obstacles: list[Point]) -> None:
        self.size = size
        self.obstacles = list(obstacles)
        self.candidates = [
            scale(unit(edge_angle(e, layout) + 30.0), 0.6 * size) for e in geometry.EDGES
        ]
        self.taken: list[Point] = []

    def reserve_box(self, at: Point, half_w: float, half_h: float) -> None:
        """Mark taken every candidate whose mark (a circle of ``MARK_R`` x size) would
        touch the box of half sizes ``half_w``, ``half_h`` around ``at`` (a name's text)."""
        r = MARK_R * self.size
        for c in self.candidates:
            near = abs(c[0] - at[0]) < half_w + r and abs(c[1] - at[1]) < half_h + r
            if near and c not in self.taken:
                self.taken.append(c)

    def take(self, prefer: list[Point] | None = None, inner: bool = False) -> Point:
        """The free candidate farthest from obstacles and taken spots; it becomes taken.

        With ``inner``, a crowded hex also offers its centre and an inner ring."""
        pool = [p for p in (prefer or self.candidates) if p not in self.taken] or [
            p for p in self.candidates if p not in self.taken
        ]
        if not pool:
            return (0.0, 0.0)
        others = self.obstacles + self.taken

        def clearance(p: Point) -> float:
            return min((dist(p, q) for q in others), default=self.size)

        best = max(pool, key=clearance)
        if inner and clearance(best) < 0.45 * self.size:  # crowded: try nearer the centre
            ring = [scale(unit(a + 30.0), 0.3 * self.size) for a in range(0, 360, 60)]
            best = max([best, (0.0, 0.0), *ring], key=clearance)
        self.taken.append(best)
        return best


# ---------------------------------------------------------------------------------------
# drawing


def _el(parent: ET.Element, tag: str, attrs: Mapping[str, Any] | None = None) -> ET.Element:
    """Append a child element; attribute values are turned into strings."""
    clean = {}
    for k, v in (attrs or {}).items():
        if v is None:
            continue
        clean[k] = fmt(v) if isinstance(v, float) else str(v)
    return ET.SubElement(parent, tag, clean)


def _text(
    parent: ET.Element,
    at: Point,
    text: str,
    size: float,
    cls: str,
    *,
    bold: bool = False,
    fill: str = "#000",
    halo: bool = True,
    **extra: Any,
) -> ET.Element:
    """Centred text at ``at`` (with a white halo for legibility over track)."""
    t = _el(
        parent,
        "text",
        {
            "class": cls,
            "x": at[0],
            "y": at[1],
            "font-size": size,
            "text-anchor": "middle",
            "dominant-baseline": "central",
            "font-weight": "bold" if bold else None,
            "fill": fill,
            "stroke": "#ffffff" if halo else None,
            "stroke-width": size * 0.25 if halo else None,
            "paint-order": "stroke" if halo else None,
            **extra,
        },
    )
    t.text = text
    return t


@dataclass
class Corp:
    """What drawing needs of a corporation: its id and colours."""

    id: str
    color: str = "#444444"
    text_color: str = "#ffffff"


@dataclass
class HexMarks:
    """Per-hex extras drawn over the face: tokens, reservations, blocks, name, terrain."""

    name: str | None = None
    terrain: str | None = None
    cost: int = 0
    tokens: list[list[str]] = field(default_factory=list)  # per city: corporation ids
    homes: list[tuple[str, int | None]] = field(default_factory=list)  # (corp, city or None)
    blocked_by: list[str] = field(default_factory=list)
    borders: list[dict[str, Any]] = field(default_factory=list)
    phase_colors: dict[str, list[str]] = field(default_factory=dict)  # revenue colour -> phases
    current_revenue: str | None = None  # the phase's off-board revenue colour, if a game


def _slot_offsets(slots: int, r: float) -> list[Point]:
    """Slot circle centres of a city with ``slots`` slots, radius ``r`` each."""
    if slots <= 1:
        return [(0.0, 0.0)]
    if slots == 2:
        return [(-r, 0.0), (r, 0.0)]
    if slots == 3:
        return [(-r, r * 0.58), (r, r * 0.58), (0.0, -r * 1.15)]
    cols = 2
    out = []
    for i in range(slots):
        row, col = divmod(i, cols)
        out.append(((col - 0.5) * 2 * r, (row - (math.ceil(slots / cols) - 1) / 2) * 2 * r))
    return out


def _token(
    parent: ET.Element, at: Point, r: float, corp: Corp, cls: str, *, reserved: bool
) -> None:
    """A station token (filled) or a home reservation (outlined, corp colour text)."""
    g = _el(parent, "g", {"class": cls, "data-corp": corp.id})
    if reserved:
        _el(
            g,
            "circle",
            {
                "cx": at[0],
                "cy": at[1],
                "r": r * 0.86,
                "fill": "#ffffff",
                "stroke": corp.color,
                "stroke-width": r * 0.22,
                "stroke-dasharray": f"{fmt(r * 0.35)} {fmt(r * 0.2)}",
            },
        )
        fill = corp.color
    else:
        _el(g, "circle", {"cx": at[0], "cy": at[1], "r": r * 0.92, "fill": corp.color})
        fill = corp.text_color
    label = corp.id if len(corp.id) <= 4 else corp.id[:4]
    _text(g, at, label, r * (0.8 if len(label) <= 2 else 0.62), "token-id", fill=fill, halo=False)
    title = _el(g, "title")
    title.text = f"{corp.id} {'home (reserved)' if reserved else 'station'}"


def draw_face(
    parent: ET.Element,
    face: Face,
    layout: str,
    size: float,
    *,
    marks: HexMarks | None = None,
    corps: Mapping[str, Corp] | None = None,
) -> None:
    """Draw a face (hex shape excluded) into ``parent``, centred at the origin."""
    marks = marks or HexMarks()
    corps = corps or {}
    placed = place_stops(face, layout, size)
    width = size * 0.17
    track_attrs = {"fill": "none", "stroke": TRACK_COLOR, "stroke-width": width}
    obstacles: list[Point] = list(placed.points.values())

    tracks = _el(parent, "g", {"class": "tracks"})
    for a, b in face.track:
        _el(
            tracks,
            "path",
            {
                "class": "track",
                "data-kind": "plain",
                "data-edges": f"{a} {b}",
                "d": track_path(a, b, layout, size),
                **track_attrs,
            },
        )
        obstacles += [track_point(a, b, t, layout, size) for t in (0.25, 0.5, 0.75)]
    for s in face.stops:
        key = (s.kind, s.index)
        at = placed.points[key]
        if key in placed.inline:
            a, b = placed.inline[key]
            _el(
                tracks,
                "path",
                {
                    "class": "track",
                    "data-kind": s.kind,
                    "data-stop": f"{s.kind} {s.index}",
                    "data-edges": f"{a} {b}",
                    "d": track_path(a, b, layout, size),
                    **track_attrs,
                },
            )
            obstacles += [track_point(a, b, t, layout, size) for t in (0.25, 0.75)]
            continue
        for e in s.exits:
            _el(
                tracks,
                "path",
                {
                    "class": "track",
                    "data-kind": s.kind,
                    "data-stop": f"{s.kind} {s.index}",
                    "data-edges": str(e),
                    "d": spoke_path(e, at, layout, size),
                    **track_attrs,
                },
            )
            mid = edge_mid(e, layout, size)
            obstacles.append(((mid[0] + at[0]) / 2, (mid[1] + at[1]) / 2))
    for e in face.stubs:
        mid = edge_mid(e, layout, size)
        end = scale(mid, STUB_END)
        _el(
            tracks,
            "path",
            {
                "class": "track",
                "data-kind": "stub",
                "data-edges": str(e),
                "d": f"M {fmt(mid[0])} {fmt(mid[1])} L {fmt(end[0])} {fmt(end[1])}",
                **track_attrs,
            },
        )
        obstacles.append(scale(mid, (1 + STUB_END) / 2))
    if face.offboard:
        for e in face.offboard.exits:
            mid = edge_mid(e, layout, size)
            _el(
                tracks,
                "path",
                {
                    "class": "track",
                    "data-kind": "offboard",
                    "data-edges": str(e),
                    "d": f"M {fmt(mid[0])} {fmt(mid[1])} L 0 0",
                    **track_attrs,
                },
            )
            obstacles.append(scale(mid, 0.5))
        obstacles.append((0.0, 0.0))

    slot_r = size * 0.22
    for s in face.cities:
        at = placed.points[(s.kind, s.index)]
        obstacles += [add(at, off) for off in _slot_offsets(s.slots, slot_r)]
    spots = Spots(layout, size, obstacles)
    targets: dict[int, list[str]] = {}
    loose: list[str] = []
    for corp_id, city in marks.homes:
        if any(corp_id in toks for toks in marks.tokens):
            continue
        if city is not None and city < len(face.cities):
            targets.setdefault(city, []).append(corp_id)
        elif city is None and len(face.cities) == 1:
            targets.setdefault(0, []).append(corp_id)
        else:
            loose.append(corp_id)
    for s in face.towns:
        at = placed.points[(s.kind, s.index)]
        g = _el(
            parent,
            "g",
            {
                "class": "town",
                "data-town": s.index,
                "data-revenue": s.revenue,
                "data-exits": " ".join(map(str, s.exits)),
            },
        )
        _el(
            g,
            "circle",
            {
                "cx": at[0],
                "cy": at[1],
                "r": size * 0.11,
                "fill": TRACK_COLOR,
                "stroke": "#ffffff",
                "stroke-width": size * 0.03,
            },
        )
    for s in face.cities:
        at = placed.points[(s.kind, s.index)]
        g = _el(
            parent,
            "g",
            {
                "class": "city",
                "data-city": s.index,
                "data-slots": s.slots,
                "data-revenue": s.revenue,
                "data-exits": " ".join(map(str, s.exits)),
                "transform": f"translate({fmt(at[0])} {fmt(at[1])})",
            },
        )
        offsets = _slot_offsets(s.slots, slot_r)
        if s.slots > 1:
            xs = [o[0] for o in offsets]
            ys = [o[1] for o in offsets]
            _el(
                g,
                "rect",
                {
                    "x": min(xs) - slot_r,
                    "y": min(ys) - slot_r,
                    "width": max(xs) - min(xs) + 2 * slot_r,
                    "height": max(ys) - min(ys) + 2 * slot_r,
                    "rx": slot_r,
                    "fill": "#ffffff",
                    "stroke": TRACK_COLOR,
                    "stroke-width": size * 0.03,
                },
            )
        placed_tokens = marks.tokens[s.index] if s.index < len(marks.tokens) else []
        waiting = list(targets.get(s.index, []))
        for i, off in enumerate(offsets):
            slot = _el(g, "g", {"class": "slot", "data-slot": i})
            _el(
                slot,
                "circle",
                {
                    "cx": off[0],
                    "cy": off[1],
                    "r": slot_r,
                    "fill": "#ffffff",
                    "stroke": TRACK_COLOR,
                    "stroke-width": size * 0.03,
                },
            )
            if i < len(placed_tokens):
                corp = corps.get(placed_tokens[i], Corp(placed_tokens[i]))
                _token(slot, off, slot_r, corp, "token", reserved=False)
            elif waiting:
                corp_id = waiting.pop(0)
                _token(slot, off, slot_r, corps.get(corp_id, Corp(corp_id)), "home", reserved=True)
        loose += waiting
    for corp_id in loose:
        at = spots.take()
        badge = _el(parent, "g", {"class": "home-badge"})
        _token(badge, at, slot_r * 0.9, corps.get(corp_id, Corp(corp_id)), "home", reserved=True)

    if face.offboard:
        _draw_offboard(parent, face.offboard, size, marks)

    if marks.name:
        bottom = scale(unit(90.0), size * 0.6)
        top = scale(unit(270.0), size * 0.6)
        at = spots.take([bottom, top]) if not face.offboard else scale(unit(270.0), size * 0.45)
        fsize = min(size * 0.2, size * 2.6 / max(len(marks.name), 1))
        _text(parent, at, marks.name, fsize, "name")
        spots.reserve_box(at, text_width(marks.name, fsize) / 2, fsize / 2)
    revenues = sorted({s.revenue for s in face.stops if s.revenue})
    if len(revenues) == 1:
        _revenue_bubble(parent, spots.take(), revenues[0], size)
    elif revenues:
        for s in face.stops:
            if s.revenue:
                at = placed.points[(s.kind, s.index)]
                free = [c for c in spots.candidates if c not in spots.taken] or spots.candidates
                near = min(free, key=partial(_dist_to, at))
                spots.taken.append(near)
                _revenue_bubble(parent, near, s.revenue, size)
    if face.label:
        _text(parent, spots.take(), face.label, size * 0.3, "label", bold=True)
    for private in marks.blocked_by:
        at = spots.take()
        g = _el(parent, "g", {"class": "blocked", "data-private": private})
        w = size * (0.2 + 0.12 * len(private))
        _el(
            g,
            "rect",
            {
                "x": at[0] - w / 2,
                "y": at[1] - size * 0.14,
                "width": w,
                "height": size * 0.28,
                "rx": size * 0.05,
                "fill": "#333333",
            },
        )
        _text(g, at, private, size * 0.2, "blocked-id", fill="#ffffff", halo=False)
        spots.reserve_box(at, w / 2, size * 0.14)
        title = _el(g, "title")
        title.text = f"blocked while {private} is owned by a player"
    if marks.terrain or marks.cost:
        _draw_terrain(parent, spots.take(inner=True), marks.terrain, marks.cost, size)


def _revenue_bubble(parent: ET.Element, at: Point, value: int, size: float) -> None:
    """A white circle with the revenue in it."""
    g = _el(parent, "g", {"class": "revenue", "data-value": value})
    _el(
        g,
        "circle",
        {
            "cx": at[0],
            "cy": at[1],
            "r": size * 0.17,
            "fill": "#ffffff",
            "stroke": TRACK_COLOR,
            "stroke-width": size * 0.02,
        },
    )
    _text(g, at, str(value), size * 0.17, "revenue-value", halo=False)


def _draw_terrain(
    parent: ET.Element, at: Point, terrain: str | None, cost: int, size: float
) -> None:
    """A terrain mark (triangle for mountains, waves for water) with its cost."""
    g = _el(parent, "g", {"class": "terrain", "data-terrain": terrain or "", "data-cost": cost})
    color = TERRAIN_FILL.get(terrain or "", "#555555")
    x, y = at
    u = size * 0.12
    if terrain == "water":
        d = (
            f"M {fmt(x - 1.5 * u)} {fmt(y - 0.9 * u)} q {fmt(0.75 * u)} {fmt(-0.6 * u)} "
            f"{fmt(1.5 * u)} 0 t {fmt(1.5 * u)} 0"
        )
        _el(g, "path", {"d": d, "fill": "none", "stroke": color, "stroke-width": size * 0.05})
    else:
        _el(
            g,
            "polygon",
            {
                "points": polygon_points(
                    [(x - 1.2 * u, y - 0.3 * u), (x + 1.2 * u, y - 0.3 * u), (x, y - 1.9 * u)]
                ),
                "fill": color,
            },
        )
    if cost:
        _text(g, (x, y + 0.55 * u), f"${cost}", size * 0.17, "cost", fill=color)
    title = _el(g, "title")
    title.text = f"{terrain or 'terrain'} ${cost}"


#: Phase revenue colours from lowest to highest (as the engine's off-board fallback).
REVENUE_ORDER = ["white", "yellow", "green", "brown", "gray"]


def revenue_color(revenue: Mapping[str, int], key: str) -> str | None:
    """The colour of ``revenue`` a phase with off-board colour ``key`` pays.

    ``key`` itself when listed, else the nearest lower listed colour, else the lowest listed.
    """
    if key in revenue:
        return key
    if key in REVENUE_ORDER:
        for k in reversed(REVENUE_ORDER[: REVENUE_ORDER.index(key)]):
            if k in revenue:
                return k
    ranked = sorted(revenue, key=lambda k: (REVENUE_ORDER + [k]).index(k))
    return ranked[0] if ranked else None


def _draw_offboard(parent: ET.Element, offboard: Offboard, size: float, marks: HexMarks) -> None:
    """Off-board values in boxes of their phase colour (none when hidden)."""
    order = list(marks.phase_colors)
    revenue: dict[str, int] = dict(
        sorted(
            offboard.revenue.items(),
            key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order),
        )
    )
    g = _el(
        parent,
        "g",
        {
            "class": "offboard",
            "data-revenue": " ".join(f"{k}:{v}" for k, v in revenue.items()),
            "data-group": offboard.group,
            "data-hidden": "true" if offboard.hidden else "false",
        },
    )
    if offboard.hidden or not revenue:
        return
    w, h = size * 0.42, size * 0.3
    current = revenue_color(revenue, marks.current_revenue) if marks.current_revenue else None
    total = w * len(revenue)
    for i, (color, value) in enumerate(revenue.items()):
        x0 = -total / 2 + i * w
        phases = [
            p
            for key, ps in marks.phase_colors.items()
            if revenue_color(revenue, key) == color
            for p in ps
        ]
        box = _el(
            g,
            "g",
            {
                "class": "offboard-value" + (" current" if marks.current_revenue == color else ""),
                "data-color": color,
                "data-value": value,
                "data-phases": " ".join(phases),
            },
        )
        _el(
            box,
            "rect",
            {
                "x": x0,
                "y": -h / 2,
                "width": w,
                "height": h,
                "fill": VALUE_FILL.get(color, "#ffffff"),
                "stroke": TRACK_COLOR,
                "stroke-width": size * (0.06 if current == color else 0.02),
            },
        )
        _text(box, (x0 + w / 2, 0.0), str(value), size * 0.2, "value", halo=False)
        title = _el(box, "title")
        title.text = f"${value} in phase{'s' if len(phases) != 1 else ''} {', '.join(phases)}"


def shared_costs(hexes: Mapping[str, Mapping[str, Any]], hid: str) -> set[int]:
    """Edges of ``hid`` whose side cost is printed by the hex across instead: a costed side
    is written on both hexes, and its cost is printed once, on the hex where it is edge
    0, 1 or 2."""
    out: set[int] = set()
    nbrs = hexes[hid].get("neighbors") or []
    for b in hexes[hid].get("borders") or []:
        edge = int(b["edge"])
        other = nbrs[edge] if edge < len(nbrs) else None
        if not b.get("cost") or edge < 3 or other is None or other not in hexes:
            continue
        back = (edge + 3) % 6
        if any(int(x["edge"]) == back and x.get("cost") for x in hexes[other].get("borders") or []):
            out.add(edge)
    return out


def _draw_borders(
    parent: ET.Element,
    borders: list[dict[str, Any]],
    layout: str,
    size: float,
    skip_costs: set[int] | frozenset[int] = frozenset(),
) -> None:
    """Hex-side borders: impassable thick red, water blue with cost, cosmetic dotted; the
    costs of ``skip_costs`` edges are printed by the hex across."""
    for b in borders:
        edge = int(b["edge"])
        kind = b.get("type") or "impassable"
        p, q = edge_corners(edge, layout, size)
        inset = 0.94
        p, q = scale(p, inset), scale(q, inset)
        style = {
            "impassable": {"stroke": "#b71c1c", "stroke-width": size * 0.12},
            "water": {"stroke": TERRAIN_FILL["water"], "stroke-width": size * 0.1},
            "mountain": {"stroke": TERRAIN_FILL["mountain"], "stroke-width": size * 0.1},
        }.get(kind, {"stroke": "#ffffff", "stroke-width": size * 0.04, "stroke-dasharray": "2 3"})
        _el(
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
        if b.get("cost") and edge not in skip_costs:
            mid = scale(edge_mid(edge, layout, size), 0.78)
            _text(parent, mid, f"${b['cost']}", size * 0.16, "border-cost")


def draw_hex_shape(parent: ET.Element, color: str, layout: str, size: float) -> ET.Element:
    """The hex polygon filled with its colour."""
    return _el(
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


def corps_of(compiled: Mapping[str, Any]) -> dict[str, Corp]:
    """Drawing colours of the title's corporations."""
    return {
        c["id"]: Corp(c["id"], c.get("color") or "#444444", c.get("text_color") or "#ffffff")
        for c in compiled.get("corporations") or []
    }


def phase_colors(compiled: Mapping[str, Any]) -> dict[str, list[str]]:
    """Off-board revenue colour -> the phases using it."""
    out: dict[str, list[str]] = {}
    for p in compiled.get("phases") or []:
        out.setdefault(p.get("offboard_revenue") or "", []).append(str(p["id"]))
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


def map_svg(compiled: Mapping[str, Any], view: MapView | None = None, size: float = 40.0) -> str:
    """The whole map as an SVG document string: every hex, with the view's tiles and tokens."""
    view = view or MapView()
    layout = layout_name(compiled.get("layout", "pointy"))
    hexes: Mapping[str, Mapping[str, Any]] = compiled["hexes"]
    tiles = compiled.get("tiles") or {}
    corps = corps_of(compiled)
    homes_city = {c["id"]: c.get("city") for c in compiled.get("corporations") or []}
    pcolors = phase_colors(compiled)
    current_revenue = None
    for p in compiled.get("phases") or []:
        if view.phase is not None and str(p["id"]) == str(view.phase):
            current_revenue = p.get("offboard_revenue")

    centres = {
        h: hex_center(int(r["x"]), int(r["y"]), layout, size) for h, r in sorted(hexes.items())
    }
    margin = size * 1.6
    xs = [c[0] for c in centres.values()] or [0.0]
    ys = [c[1] for c in centres.values()] or [0.0]
    x0, y0 = min(xs) - margin, min(ys) - margin
    width, height = max(xs) - x0 + margin, max(ys) - y0 + margin
    root = _svg_root(width, height, "map", x0, y0)
    root.set("data-layout", layout)
    root.set("data-hexes", str(len(hexes)))
    _el(root, "rect", {"x": x0, "y": y0, "width": width, "height": height, "fill": "#fbfaf5"})

    coords = _el(root, "g", {"class": "coords"})
    rows: dict[int, str] = {}
    cols: dict[int, str] = {}
    for h, r in hexes.items():
        letters, number = geometry.parse_hex_id(h)
        if layout == "pointy":
            rows[int(r["y"])], cols[int(r["x"])] = letters, str(number)
        else:
            rows[int(r["y"])], cols[int(r["x"])] = str(number), letters
    for y, label in sorted(rows.items()):
        cy = hex_center(0, y, layout, size)[1]
        for cx, cls in ((x0 + size * 0.6, "coord-row"), (x0 + width - size * 0.6, "coord-row")):
            _text(coords, (cx, cy), label, size * 0.35, cls, bold=True, fill="#555", halo=False)
    for x, label in sorted(cols.items()):
        cx = hex_center(x, 0, layout, size)[0]
        for cy in (y0 + size * 0.6, y0 + height - size * 0.6):
            _text(coords, (cx, cy), label, size * 0.3, "coord-col", fill="#555", halo=False)

    layer = _el(root, "g", {"class": "hexes"})
    for h in sorted(hexes, key=lambda k: (int(hexes[k]["y"]), int(hexes[k]["x"]))):
        rec = hexes[h]
        cx, cy = centres[h]
        laid = view.tiles.get(h)
        laid_color = tiles[laid[0]].get("color") if laid and laid[0] in tiles else None
        g = _el(
            layer,
            "g",
            {
                "class": "hex",
                "data-hex": h,
                "data-color": laid_color or rec.get("color"),
                "data-printed-color": rec.get("color") if laid_color else None,
                "data-tile": laid[0] if laid else None,
                "data-rotation": laid[1] if laid else None,
                "transform": f"translate({fmt(cx)} {fmt(cy)})",
            },
        )
        title = _el(g, "title")
        title.text = h + (f" {rec['name']}" if rec.get("name") else "")
        if laid and laid[0] in tiles:
            face = face_of(tiles[laid[0]], int(laid[1]))
            terrain, cost = None, 0
        else:
            face = face_of(rec)
            terrain, cost = rec.get("terrain"), int(rec.get("cost") or 0)
        blocked = [
            p
            for p in rec.get("blocked_by") or []
            if view.active_blocks is None or p in view.active_blocks
        ]
        marks = HexMarks(
            name=rec.get("name"),
            terrain=terrain,
            cost=cost,
            tokens=view.tokens.get(h, []),
            homes=[
                (c, homes_city.get(c)) for c in rec.get("homes") or [] if c not in view.homes_placed
            ],
            blocked_by=blocked,
            borders=list(rec.get("borders") or []),
            phase_colors=pcolors,
            current_revenue=current_revenue,
        )
        draw_hex_shape(g, face.color, layout, size)
        _draw_borders(g, marks.borders, layout, size, shared_costs(hexes, h))
        draw_face(g, face, layout, size, marks=marks, corps=corps)
    return ET.tostring(root, encoding="unicode")


def tile_svg(
    compiled: Mapping[str, Any], tile_id: str, rotation: int = 0, size: float = 36.0
) -> str:
    """One manifest tile as a small SVG document string."""
    layout = layout_name(compiled.get("layout", "pointy"))
    rec = compiled["tiles"][tile_id]
    pad = size * 0.08
    root = _svg_root(2 * size + 2 * pad, 2 * size + 2 * pad, "tile-svg", -size - pad, -size - pad)
    g = _el(
        root,
        "g",
        {
            "class": "tile",
            "data-tile": tile_id,
            "data-rotation": rotation,
            "data-color": rec["color"],
        },
    )
    face = face_of(rec, rotation)
    draw_hex_shape(g, face.color, layout, size)
    draw_face(g, face, layout, size)
    _text(g, (-size * 0.8, -size * 0.85), tile_id, size * 0.22, "tile-id", fill="#333", bold=True)
    return ET.tostring(root, encoding="unicode")
