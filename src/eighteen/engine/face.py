"""What a hex shows: its face (the printed board or the laid tile at its rotation), with
ABSOLUTE edges (:class:`Face`, made by :func:`build_face`), the face's cities, towns and
off-board (an off-board's revenue by phase: :func:`offboard_revenue`), its pieces of track
(:class:`Path`), its part of a track graph (:class:`Fragment`; :func:`path_count` bounds a
hex's paths), and a legal tile lay (:class:`TileLay`); :class:`MapError` for an impossible
board operation.  The vocabulary is :mod:`eighteen.engine.map`'s.  Generic: no title is
named."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from eighteen.faces import read_face, track_edges
from eighteen.title.model import Offboard, TileFace

#: Phase revenue colours in order, used when an off-board lacks the asked colour.
_REVENUE_ORDER = ["white", "yellow", "green", "brown", "gray"]

#: Path-end letter of each stop kind.
KIND_LETTER = {"city": "c", "town": "t", "offboard": "o"}
LETTER_KIND = {v: k for k, v in KIND_LETTER.items()}


class MapError(ValueError):
    """An impossible board operation (unknown hex or tile, full city...)."""


@dataclass(frozen=True)
class FaceCity:
    """A city on the current face: revenue, token slots, absolute exits."""

    revenue: int
    slots: int
    exits: tuple[int, ...]


@dataclass(frozen=True)
class FaceTown:
    """A town on the current face."""

    revenue: int
    exits: tuple[int, ...]


@dataclass(frozen=True)
class FaceOffboard:
    """An off-board area: revenue by phase revenue colour; a route may only end here.

    ``requires_visit``: when set, the area pays only a route that also visits a stop on one
    of these hexes (compiled ``offboard.requires_visit``).
    """

    revenue: dict[str, int] = field(hash=False)
    group: str | None
    exits: tuple[int, ...]
    hidden: bool = False
    requires_visit: tuple[str, ...] = ()

    def revenue_for(self, key: str) -> int:
        """Revenue for phase revenue colour ``key`` (see :func:`offboard_revenue`)."""
        return offboard_revenue(self.revenue, key)


def offboard_revenue(revenue: Mapping[str, int], key: str) -> int:
    """Off-board revenue for phase colour ``key``.

    Falls back to the nearest lower colour present (white < yellow < green < brown < gray),
    then to the lowest colour present, so a phase key the table does not list still pays.
    """
    if key in revenue:
        return revenue[key]
    if key in _REVENUE_ORDER:
        for k in reversed(_REVENUE_ORDER[: _REVENUE_ORDER.index(key)]):
            if k in revenue:
                return revenue[k]
    ranked = sorted(revenue, key=lambda k: (_REVENUE_ORDER + [k]).index(k))
    return revenue[ranked[0]] if ranked else 0


@dataclass(frozen=True, order=True)
class Path:
    """One piece of track inside a hex, with ends ``e<edge>``, ``c<i>``, ``t<i>`` or ``o0``.

    The two ends are stored sorted, so a path equals itself whichever way it is written.
    ``str(path)`` is ``"H12:c0-e1"``; :meth:`parse` reads it back.
    """

    hex: str
    a: str
    b: str
    #: ``str(path)``, made once (route keys and specs read it often: an attribute, not a
    #: call)
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.b < self.a:
            a, b = self.b, self.a
            object.__setattr__(self, "a", a)
            object.__setattr__(self, "b", b)
        object.__setattr__(self, "text", f"{self.hex}:{self.a}-{self.b}")

    def __str__(self) -> str:
        return self.text

    @classmethod
    def parse(cls, text: str) -> Path:
        """Read ``"H12:c0-e1"``."""
        try:
            hex_id, ends = text.split(":")
            a, b = ends.split("-")
        except ValueError as exc:
            raise MapError(f"bad path {text!r}: expected HEX:END-END") from exc
        return cls(hex_id, a, b)

    @property
    def ends(self) -> tuple[str, str]:
        """Both ends."""
        return (self.a, self.b)

    @cached_property
    def edges(self) -> tuple[int, ...]:
        """The hex edges this path touches (computed once: faces share their paths)."""
        return tuple(int(x[1:]) for x in (self.a, self.b) if x[0] == "e")


@dataclass(frozen=True)
class Face:
    """What a hex currently shows, with ABSOLUTE edges.

    ``tile`` is the laid tile id (None: the printed face), ``rotation`` its rotation (0 for
    printed faces). Cities, towns and the off-board are indexed as in the tile/hex table.
    """

    hex: str
    tile: str | None
    rotation: int
    color: str
    label: str | None
    cities: tuple[FaceCity, ...]
    towns: tuple[FaceTown, ...]
    track: tuple[tuple[int, int], ...]
    offboard: FaceOffboard | None

    @cached_property
    def exits(self) -> tuple[int, ...]:
        """Every edge with track (its stops', its plain track's, its off-board's), sorted."""
        return track_edges(self.cities, self.towns, self.track, self.offboard)

    @cached_property
    def signature(self) -> frozenset[tuple[str, str]]:
        """The ends of :attr:`paths`, without the hex: two faces of one hex have the same
        track when their signatures are equal."""
        return frozenset((p.a, p.b) for p in self.paths)

    @cached_property
    def paths(self) -> tuple[Path, ...]:
        """Every piece of track on this face (stop-edge and edge-edge)."""
        out: list[Path] = []
        for i, c in enumerate(self.cities):
            out.extend(Path(self.hex, f"c{i}", f"e{e}") for e in c.exits)
        for i, t in enumerate(self.towns):
            out.extend(Path(self.hex, f"t{i}", f"e{e}") for e in t.exits)
        if self.offboard is not None:
            out.extend(Path(self.hex, "o0", f"e{e}") for e in self.offboard.exits)
        out.extend(Path(self.hex, f"e{a}", f"e{b}") for a, b in self.track)
        return tuple(out)


def path_count(data: TileFace, offboard: Offboard | None = None) -> int:
    """How many paths a face of this hex or tile (with this off-board) has, at any rotation."""
    n = sum(len(c.exits) for c in data.cities) + sum(len(t.exits) for t in data.towns)
    return n + (len(offboard.exits) if offboard is not None else 0) + len(data.track)


def build_face(hex_id: str, data: TileFace, tile: str | None, rotation: int, color: str) -> Face:
    r = rotation
    rec = read_face(data, r)
    cities = tuple(FaceCity(c.revenue, c.slots, c.exits) for c in rec.cities)
    towns = tuple(FaceTown(t.revenue, t.exits) for t in rec.towns)
    track = tuple((a, b) if a <= b else (b, a) for a, b in rec.track)
    ob = rec.offboard
    offboard = (
        FaceOffboard(dict(ob.revenue), ob.group, ob.exits, ob.hidden, ob.requires_visit)
        if ob is not None
        else None
    )
    return Face(hex_id, tile, r, color, rec.label, cities, towns, track, offboard)


@dataclass(frozen=True)
class TileLay:
    """One legal tile lay: hex, tile, absolute rotation and terrain cost.

    ``upgrade`` is True when the tile replaces a laid tile or a preprinted (yellow) face.
    (A native class when compiled, face.pxd: the lay questions make a few an action.)
    """

    hex: str
    tile: str
    rotation: int
    cost: int
    upgrade: bool = False


@dataclass(frozen=True)
class Fragment:
    """One face's part of a track graph, independent of the rest of the board: its stops
    in sorted order, and each path with its ends as (True, index into those stops) or
    (False, global side id), the bitmask of its sides, and the (hex number, edges) it
    reaches (:attr:`~eighteen.engine.graph.TrackGraph.touch`)."""

    stops: tuple[tuple[str, str, int], ...]
    paths: tuple[tuple[Path, tuple[tuple[bool, int], ...], int, tuple[tuple[int, int], ...]], ...]
