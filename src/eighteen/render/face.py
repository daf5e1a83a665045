"""The face drawer: one hex's or tile's track, stops, tokens, revenues, label and marks.

:func:`draw_face` draws a :class:`~eighteen.render.placing.Face` centred at the origin (the
hex shape excluded); the data attributes it writes are listed in :mod:`eighteen.render.svg`.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial

from eighteen.faces import Offboard
from eighteen.render.placing import Face, Spots, fit_font, place_stops, text_width
from eighteen.render.shapes import (
    STUB_END,
    TERRAIN_FILL,
    TRACK_COLOR,
    VALUE_FILL,
    WAVES,
    Point,
    add,
    add_text,
    dist_to,
    edge_mid,
    el,
    fmt,
    polygon_points,
    scale,
    spoke_path,
    track_path,
    track_point,
    unit,
)
from eighteen.title.model import Border


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
    borders: list[Border] = field(default_factory=list)
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


def light(color: str) -> bool:
    """Is a ``#rrggbb`` colour light (relative luminance above 0.6: white, yellow, cream)?
    False for anything else."""
    if len(color) != 7 or not color.startswith("#"):
        return False
    try:
        r, g, b = (int(color[i : i + 2], 16) / 255 for i in (1, 3, 5))
    except ValueError:
        return False
    return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.6


def _token(
    parent: ET.Element, at: Point, r: float, corp: Corp, cls: str, *, reserved: bool
) -> None:
    """A station token (filled) or a home reservation (a white disc in a dashed ring of
    the corporation's colour, with a thin grey edge so a light colour still shows; its
    label in that colour, or in the corporation's text colour when the colour is light)."""
    g = el(parent, "g", {"class": cls, "data-corp": corp.id})
    if reserved:
        el(
            g,
            "circle",
            {
                "cx": at[0],
                "cy": at[1],
                "r": r * 0.98,
                "fill": "#ffffff",
                "stroke": "#777777",
                "stroke-width": r * 0.08,
                "stroke-dasharray": f"{fmt(r * 0.3)} {fmt(r * 0.15)}",
            },
        )  # fmt: skip (dashed: a white corporation's reservation is no white token)
        el(
            g,
            "circle",
            {
                "cx": at[0],
                "cy": at[1],
                "r": r * 0.82,
                "fill": "none",
                "stroke": corp.color,
                "stroke-width": r * 0.22,
                "stroke-dasharray": f"{fmt(r * 0.35)} {fmt(r * 0.2)}",
            },
        )
        fill = corp.text_color if light(corp.color) else corp.color
    else:
        el(g, "circle", {"cx": at[0], "cy": at[1], "r": r * 0.92, "fill": corp.color})
        fill = corp.text_color
    label = corp.id if len(corp.id) <= 5 else corp.id[:5]
    size = 0.8 if len(label) <= 2 else 0.62 if len(label) <= 4 else 0.5
    add_text(g, at, label, r * size, "token-id", fill=fill, halo=False)
    title = el(g, "title")
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

    tracks = el(parent, "g", {"class": "tracks"})
    for a, b in face.track:
        el(
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
            el(
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
            el(
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
        el(
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
            el(
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
        g = el(
            parent,
            "g",
            {
                "class": "town",
                "data-town": s.index,
                "data-revenue": s.revenue,
                "data-exits": " ".join(map(str, s.exits)),
            },
        )
        el(
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
        g = el(
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
            el(
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
            slot = el(g, "g", {"class": "slot", "data-slot": i})
            el(
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
        badge = el(parent, "g", {"class": "home-badge"})
        _token(badge, at, slot_r * 0.9, corps.get(corp_id, Corp(corp_id)), "home", reserved=True)

    if face.offboard:
        _draw_offboard(parent, face.offboard, size, marks)

    if marks.name:
        bottom = scale(unit(90.0), size * 0.6)
        top = scale(unit(270.0), size * 0.6)
        at = spots.take([bottom, top]) if not face.offboard else scale(unit(270.0), size * 0.45)
        fsize = fit_font(marks.name, at, layout, size, size * 0.2)
        add_text(parent, at, marks.name, fsize, "name")
        spots.reserve_box(at, text_width(marks.name, fsize) / 2, fsize / 2)
    revenues = sorted({s.revenue for s in face.stops if s.revenue})
    if len(revenues) == 1:
        _revenue_bubble(parent, spots.take(), revenues[0], size)
    elif revenues:
        for s in face.stops:
            if s.revenue:
                at = placed.points[(s.kind, s.index)]
                free = [c for c in spots.candidates if c not in spots.taken] or spots.candidates
                near = min(free, key=partial(dist_to, at))
                spots.taken.append(near)
                _revenue_bubble(parent, near, s.revenue, size)
    if face.label:
        at = spots.take()
        fsize = fit_font(face.label, at, layout, size, size * 0.3)
        add_text(parent, at, face.label, fsize, "label", bold=True)
    for private in marks.blocked_by:
        at = spots.take()
        g = el(parent, "g", {"class": "blocked", "data-private": private})
        w = size * (0.2 + 0.12 * len(private))
        el(
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
        add_text(g, at, private, size * 0.2, "blocked-id", fill="#ffffff", halo=False)
        spots.reserve_box(at, w / 2, size * 0.14)
        title = el(g, "title")
        title.text = f"blocked while {private} is owned by a player"
    if marks.terrain or marks.cost:
        _draw_terrain(parent, spots.take(inner=True), marks.terrain, marks.cost, size)


def _revenue_bubble(parent: ET.Element, at: Point, value: int, size: float) -> None:
    """A white circle with the revenue in it."""
    g = el(parent, "g", {"class": "revenue", "data-value": value})
    el(
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
    add_text(g, at, str(value), size * 0.17, "revenue-value", halo=False)


def _draw_terrain(
    parent: ET.Element, at: Point, terrain: str | None, cost: int, size: float
) -> None:
    """A terrain mark with its cost: waves for water and bridges, a peak for the others
    (a tunnel's with its mouth), each kind in its colour (shapes.TERRAIN_FILL)."""
    g = el(parent, "g", {"class": "terrain", "data-terrain": terrain or "", "data-cost": cost})
    color = TERRAIN_FILL.get(terrain or "", "#555555")
    x, y = at
    u = size * 0.12
    if terrain in WAVES:
        d = (
            f"M {fmt(x - 1.5 * u)} {fmt(y - 0.9 * u)} q {fmt(0.75 * u)} {fmt(-0.6 * u)} "
            f"{fmt(1.5 * u)} 0 t {fmt(1.5 * u)} 0"
        )
        el(g, "path", {"d": d, "fill": "none", "stroke": color, "stroke-width": size * 0.05})
    else:
        el(
            g,
            "polygon",
            {
                "points": polygon_points(
                    [(x - 1.2 * u, y - 0.3 * u), (x + 1.2 * u, y - 0.3 * u), (x, y - 1.9 * u)]
                ),
                "fill": color,
            },
        )
        if terrain == "tunnel":
            mouth = (
                f"M {fmt(x - 0.45 * u)} {fmt(y - 0.3 * u)} a {fmt(0.45 * u)} {fmt(0.5 * u)} 0 0 1 "
                f"{fmt(0.9 * u)} 0 z"
            )
            el(g, "path", {"d": mouth, "fill": "#111111"})
    if cost:
        add_text(g, (x, y + 0.55 * u), f"${cost}", size * 0.17, "cost", fill=color)
    title = el(g, "title")
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
    g = el(
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
        box = el(
            g,
            "g",
            {
                "class": "offboard-value" + (" current" if marks.current_revenue == color else ""),
                "data-color": color,
                "data-value": value,
                "data-phases": " ".join(phases),
            },
        )
        el(
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
        add_text(box, (x0 + w / 2, 0.0), str(value), size * 0.2, "value", halo=False)
        title = el(box, "title")
        title.text = f"${value} in phase{'s' if len(phases) != 1 else ''} {', '.join(phases)}"
