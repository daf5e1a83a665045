"""Which tile may replace which, and at which rotations (facts §8.2).

A face (tile or printed hex), read by :func:`eighteen.faces.read_face`, is summarised once
as a :class:`Shape`: one 6-bit edge mask per city and per town, the plain track as 2-bit
masks, and the union of all exits.  Rotating a shape is a bit rotation, so every check below is a handful of integer operations.

The upgrade rule, as the reference engine applies it (``upgrades_to?`` and the tracker):

1. the new colour is exactly one step up: white -> yellow -> green -> brown -> gray;
3. old track is kept: an old plain track a-b needs a new plain track a-b; every old city
   (town) with exits maps to its own new city (town) whose exits include the old ones
   (when the new face has a single city, old cities may merge into it);
4. the labels are equal (no label replaces only no label);
5. the town counts are equal;
6. the city counts are equal unless the old face has a label; a white hex always needs the
   same number of cities (its printed circles); and no more new stops may be disjoint from
   every old stop than the number of stops added.

Rule 2 (phase colours) and the route check of 7(b) depend on the game state: the engine
applies them.  Exits versus the hex's usable edges (7a) are applied by the callers that know
the hex: :func:`first_tile_rotations` and :func:`hex_upgrade_rotations`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from eighteen.faces import FaceRecord, read_face
from eighteen.title.model import COLOR_ORDER, Tile, TileFace

ALL_EDGES = 0b111111


def edge_mask(edges: list[int] | tuple[int, ...]) -> int:
    """Bit mask of a list of edges: bit e set for each edge e."""
    m = 0
    for e in edges:
        m |= 1 << e
    return m


def mask_edges(mask: int) -> list[int]:
    """Sorted edges of a mask, the inverse of :func:`edge_mask`."""
    return [e for e in range(6) if mask >> e & 1]


def rotate_mask(mask: int, rotation: int) -> int:
    """Rotate a 6-bit edge mask clockwise by ``rotation`` steps: edge e -> (e + r) mod 6."""
    r = rotation % 6
    if not r:
        return mask
    return ((mask << r) | (mask >> (6 - r))) & ALL_EDGES


@dataclass(frozen=True, slots=True)
class Shape:
    """What an upgrade compares: stop exit masks, plain track masks, all exits, label."""

    cities: tuple[int, ...]
    towns: tuple[int, ...]
    track: frozenset[int]
    exits: int
    label: str | None
    stubs: int = 0  # dead-end track edges (TileFace.stubs); also part of ``exits``

    def rotated(self, rotation: int) -> Shape:
        """The same face turned ``rotation`` steps clockwise."""
        if not rotation % 6:
            return self
        return Shape(
            cities=tuple(rotate_mask(m, rotation) for m in self.cities),
            towns=tuple(rotate_mask(m, rotation) for m in self.towns),
            track=frozenset(rotate_mask(m, rotation) for m in self.track),
            exits=rotate_mask(self.exits, rotation),
            label=self.label,
            stubs=rotate_mask(self.stubs, rotation),
        )


def shape_of(face: TileFace | FaceRecord) -> Shape:
    """Summarise a tile or hex face; an off-board area's exits count as exits with track."""
    rec = face if isinstance(face, FaceRecord) else read_face(face)
    cities = tuple(edge_mask(c.exits) for c in rec.cities)
    towns = tuple(edge_mask(t.exits) for t in rec.towns)
    track = frozenset(edge_mask(pair) for pair in rec.track)
    exits = 0
    for m in (*cities, *towns, *track):
        exits |= m
    if rec.offboard is not None:
        exits |= edge_mask(rec.offboard.exits)
    stubs = edge_mask(rec.stubs)
    return Shape(cities, towns, track, exits | stubs, rec.label, stubs)


@dataclass(frozen=True, slots=True)
class TileShapes:
    """A tile's colour and its shape at each of the six rotations, computed once."""

    color: str
    rotations: tuple[Shape, ...]

    @classmethod
    def of(cls, face: TileFace, color: object) -> TileShapes:
        """Precompute the six rotations of ``face`` (a tile, or a printed hex)."""
        base = shape_of(face)
        return cls(_color_name(color), tuple(base.rotated(r) for r in range(6)))

    @property
    def base(self) -> Shape:
        """Rotation 0."""
        return self.rotations[0]


def _color_name(color: object) -> str:
    """Colour as a plain string (accepts the Color enum)."""
    return str(getattr(color, "value", color))


def color_step_ok(old_color: object, new_color: object) -> bool:
    """Rule 1: the new colour is exactly one step up the white..gray order."""
    old, new = _color_name(old_color), _color_name(new_color)
    if old not in COLOR_ORDER or new not in COLOR_ORDER:
        return False
    return COLOR_ORDER.index(new) == COLOR_ORDER.index(old) + 1


def can_replace(old: Shape, old_color: object, new: Shape, new_color: object) -> bool:
    """Rules 1, 4, 5, 6 (the rotation-free part): colour step, label, town and city counts."""
    if not color_step_ok(old_color, new_color):
        return False
    if old.label != new.label:
        return False
    if len(old.towns) != len(new.towns):
        return False
    same_cities = len(old.cities) == len(new.cities)
    if old.label is None or _color_name(old_color) == "white":
        return same_cities
    return True


def _match(old: list[int], new: tuple[int, ...]) -> bool:
    """Rule 3/6 for one stop kind: can the old stops' exits live on the new stops?

    One new stop: every old exit must be on it (stops may merge, e.g. OO -> one city).
    Several: each old stop goes to its own new stop whose exits contain the old ones.
    """
    if not old:
        return True
    if len(new) == 1:
        union = 0
        for m in old:
            union |= m
        return union & new[0] == union
    return _assign(old, new)


def _assign(old: list[int], new: tuple[int, ...]) -> bool:
    """Injective assignment of old exit masks to containing new masks (backtracking)."""
    if not old:
        return True
    first, rest = old[0], old[1:]
    for i, m in enumerate(new):
        if first & m == first and _assign(rest, new[:i] + new[i + 1 :]):
            return True
    return False


def keeps_old(old: Shape, new: Shape) -> bool:
    """Rules 3 and 6 at one rotation: old track and stop connections survive in ``new``."""
    if not old.track <= new.track:
        return False
    if old.stubs & ~new.exits:  # a dead-end stub is kept by any new track on its edge
        return False
    old_cities = [m for m in old.cities if m]
    old_towns = [m for m in old.towns if m]
    if not _match(old_cities, new.cities) or not _match(old_towns, new.towns):
        return False
    # Rule 6/7(d): stops on the new face that share no edge with any old stop must be new.
    old_stops = old_cities + old_towns
    new_stops = [m for m in (*new.cities, *new.towns) if m]
    added = max(0, len(new_stops) - len(old_stops))
    old_union = 0
    for m in old_stops:
        old_union |= m
    disjoint = sum(1 for m in new_stops if not m & old_union)
    return disjoint <= added


def relative_rotations(old: Shape, old_color: object, new: TileShapes) -> list[int]:
    """Rotations d of ``new`` (relative to ``old`` at rotation 0) that legally replace it."""
    if not can_replace(old, old_color, new.base, new.color):
        return []
    return [d for d in range(6) if keeps_old(old, new.rotations[d])]


def upgrade_rotations(old_face: TileFace, old_color: object, new_tile: Tile) -> list[int]:
    """Rotations d (0..5) at which ``new_tile`` may replace ``old_face`` lying at rotation 0.

    Every rotation that works is listed (also ones that look alike): the engine compares
    absolute exits.
    """
    new = TileShapes.of(new_tile, new_tile.color)
    return relative_rotations(shape_of(old_face), old_color, new)


def fitting_rotations(rotations: list[int], new: TileShapes, usable: int) -> list[int]:
    """Rule 7(a): keep rotations whose every exit is a usable edge of the hex (mask)."""
    return [r for r in rotations if new.rotations[r].exits & ~usable == 0]


def first_tile_rotations(hex_face: TileFace, usable: int, tile: TileShapes) -> list[int]:
    """Absolute rotations of a first (yellow) tile on a white hex with ``usable`` edge mask.

    The tile must match the printed content (same cities, towns, label; a plain hex takes
    only a trackless-stop tile such as 7/8/9) and keep every exit on a usable edge.
    """
    rotations = relative_rotations(shape_of(hex_face), "white", tile)
    return fitting_rotations(rotations, tile, usable)


def hex_upgrade_rotations(
    hex_shape: Shape, hex_color: object, usable: int, tile: TileShapes
) -> list[int]:
    """Absolute rotations of a tile replacing a preprinted face (which lies at rotation 0)."""
    return fitting_rotations(relative_rotations(hex_shape, hex_color, tile), tile, usable)


def picture_key(face: TileFace | FaceRecord, rotation: int) -> tuple[Any, ...]:
    """Everything visible on a face at a rotation, for telling orientations apart."""
    rec = face if isinstance(face, FaceRecord) else read_face(face)
    cities = sorted(
        (c.revenue, c.slots, rotate_mask(edge_mask(c.exits), rotation)) for c in rec.cities
    )
    towns = sorted((t.revenue, rotate_mask(edge_mask(t.exits), rotation)) for t in rec.towns)
    track = sorted(rotate_mask(edge_mask(p), rotation) for p in rec.track)
    return tuple(cities), tuple(towns), tuple(track)


def orientations(face: TileFace) -> list[int]:
    """Rotations that look different: the first rotation of each distinct picture.

    57 -> [0, 1, 2]; 63 -> [0]; 53 -> [0, 1]; 7 -> [0, 1, 2, 3, 4, 5].
    """
    rec = read_face(face)
    seen: set[tuple[Any, ...]] = set()
    out: list[int] = []
    for r in range(6):
        key = picture_key(rec, r)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def face_exits(face: TileFace) -> list[int]:
    """Every edge with track on a face (stops, plain track, off-board), sorted."""
    return mask_edges(shape_of(face).exits)
