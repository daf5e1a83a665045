"""SVG drawing primitives: colours, hex and track geometry, and element helpers.

One geometry, the engine's (see :mod:`eighteen.render.svg`): edges are numbered 0-5
clockwise and hex centres sit at the doubled coordinates of the compiled title.  The
helpers build :mod:`xml.etree.ElementTree` elements, so every text and attribute is escaped.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from typing import Any

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
TERRAIN_FILL = {
    "water": "#1e88e5",
    "bridge": "#1e88e5",  # (a water crossing: waves, as water)
    "mountain": "#8d6e63",
    "pass": "#8d6e63",
    "tunnel": "#4e342e",  # (a mountain, darker, with its tunnel mouth)
    "hill": "#a1887f",
    "forest": "#2e7d32",
}
#: Terrain drawn as waves (the others as a peak).
WAVES = frozenset({"water", "bridge"})
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


def dist_to(at: Point, p: Point) -> float:
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


def inside_hex(p: Point, layout: str, size: float, margin: float = 0.0) -> bool:
    """Is ``p`` (relative to the centre) inside the hex, ``margin`` clear of every edge?"""
    limit = apothem(size) - margin
    for e in geometry.EDGES:
        ux, uy = unit(edge_angle(e, layout))
        if p[0] * ux + p[1] * uy > limit:
            return False
    return True


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


def el(parent: ET.Element, tag: str, attrs: Mapping[str, Any] | None = None) -> ET.Element:
    """Append a child element; attribute values are turned into strings."""
    clean = {}
    for k, v in (attrs or {}).items():
        if v is None:
            continue
        clean[k] = fmt(v) if isinstance(v, float) else str(v)
    return ET.SubElement(parent, tag, clean)


def add_text(
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
    t = el(
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
