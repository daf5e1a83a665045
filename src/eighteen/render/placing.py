"""What a hex or tile shows, ready to draw, and where its stops and marks go.

:func:`face_of` reads a compiled hex or tile record with the one face reader
(:func:`eighteen.faces.read_face`); :func:`place_stops` puts its cities and towns, and
:class:`Spots` hands out free places for revenues, labels and marks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from eighteen.compiled import CompiledHex, CompiledTile
from eighteen.faces import Offboard, read_face
from eighteen.render.shapes import (
    Point,
    dist,
    edge_angle,
    inside_hex,
    scale,
    track_kind,
    track_point,
    unit,
)
from eighteen.title import geometry


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


def face_of(
    record: CompiledHex | CompiledTile, rotation: int = 0, color: str | None = None
) -> Face:
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
    # the other towns' tracks, sampled: a town on a curve crossing one must not sit on the
    # crossing (tile 69's curve town on the straight town's track read as one junction)
    tracks = {
        (s.kind, s.index): [
            track_point(s.exits[0], s.exits[1], k / 20, layout, size) for k in range(21)
        ]
        for s in towns2
    }

    def off_track(p: Point, own: tuple[str, int]) -> float:
        return min(
            (dist(p, q) for key, line in tracks.items() if key != own for q in line),
            default=size,
        )

    for s in towns2:
        a, b = s.exits
        key = (s.kind, s.index)
        inline[key] = (a, b)
        if track_kind(a, b) == "straight":
            options = [track_point(a, b, t, layout, size) for t in (0.3, 0.7)]
            points[key] = max(options, key=clearance)
        else:  # its midpoint, unless another track runs there: then the clearest spot
            options = [track_point(a, b, t, layout, size) for t in (0.5, 0.35, 0.65, 0.25, 0.75)]
            clear = [q for q in options if off_track(q, key) >= CLEAR_OF_TRACK * size]
            points[key] = clear[0] if clear else max(options, key=lambda q: off_track(q, key))
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


#: How far a town on a curve keeps from another town's track, in hex sizes.
CLEAR_OF_TRACK = 0.18

#: Half the extent of a small mark (revenue bubble, label, terrain), in hex sizes.
MARK_R = 0.2


def text_width(text: str, font_size: float) -> float:
    """A generous estimate of the width of ``text`` in Helvetica at ``font_size``."""
    return 0.6 * font_size * len(text)


def fit_font(text: str, at: Point, layout: str, size: float, largest: float) -> float:
    """The largest font size up to ``largest`` at which ``text``, centred at ``at``, stays
    inside the hex outline (its box: :func:`text_width` by 1.2 em, a little clear of the
    edges), found by bisection."""

    def fits(f: float) -> bool:
        hw, hh = text_width(text, f) / 2, 0.6 * f
        box = [(at[0] + dx, at[1] + dy) for dx in (-hw, hw) for dy in (-hh, hh)]
        return all(inside_hex(c, layout, size, margin=0.02 * size) for c in box)

    if fits(largest):
        return largest
    lo, hi = 0.0, largest
    for _ in range(20):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid)
    return lo


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
