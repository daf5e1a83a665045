"""What a tile or hex face shows, read once: the one reader of a face's content.

A face is the printed content of a tile or of a board hex: cities, towns, plain track,
stubs (dead-end track), an off-board area and a label.  Three places need it: the upgrade
rules (:mod:`eighteen.title.upgrades`, on the title's models), the engine's map (on the
compiled models of :mod:`eighteen.compiled`) and the SVG drawing (on the compiled tables as
plain data).  :func:`read_face` reads a model (its attributes) or a mapping (its keys) into
one frozen :class:`FaceRecord`, so they all see the same content.

This module sits at the bottom: it imports nothing of the project, and every layer may
import it.  Edges are numbered 0-5 clockwise; :meth:`FaceRecord.rotated` turns a face the
way a tile lying at rotation ``r`` is turned (its edge ``e`` on hex edge ``(e + r) % 6``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

Edges = tuple[int, ...]


def rotate_exits(edges: Iterable[int], rotation: int) -> Edges:
    """Edges turned ``rotation`` steps clockwise, sorted."""
    return tuple(sorted((int(e) + rotation) % 6 for e in edges))


@dataclass(frozen=True, slots=True)
class City:
    """A city: revenue, token slots and the edges joined to it (sorted)."""

    revenue: int
    slots: int
    exits: Edges


@dataclass(frozen=True, slots=True)
class Town:
    """A town: revenue and the edges joined to it (sorted)."""

    revenue: int
    exits: Edges


@dataclass(frozen=True, slots=True)
class Offboard:
    """An off-board area: revenue by phase revenue colour, group, exits (sorted).

    ``hidden``: its values are shown on a partner hex; ``requires_visit``: it pays only a
    route that also visits one of these hexes.
    """

    revenue: Mapping[str, int] = field(hash=False)
    group: str | None
    exits: Edges
    hidden: bool = False
    requires_visit: tuple[str, ...] = ()


class _HasExits(Protocol):
    @property
    def exits(self) -> Edges: ...


def track_edges(
    cities: Iterable[_HasExits],
    towns: Iterable[_HasExits],
    track: Iterable[tuple[int, int]],
    offboard: _HasExits | None,
    stubs: Iterable[int] = (),
) -> Edges:
    """Every edge a face's track reaches (its stops' exits, its plain track, its
    off-board's exits and ``stubs``), sorted: a face record's, or the engine's face's."""
    es: set[int] = set(stubs)
    for c in cities:
        es.update(c.exits)
    for t in towns:
        es.update(t.exits)
    for a, b in track:
        es.update((a, b))
    if offboard is not None:
        es.update(offboard.exits)
    return tuple(sorted(es))


@dataclass(frozen=True, slots=True)
class FaceRecord:
    """The content of one face: stops, track, stubs, off-board and label.

    ``color`` is None for a source without a colour (a bare tile face).  Track pairs keep
    the order they were written in; every list of exits is sorted.
    """

    color: str | None
    label: str | None
    cities: tuple[City, ...] = ()
    towns: tuple[Town, ...] = ()
    track: tuple[tuple[int, int], ...] = ()
    stubs: Edges = ()
    offboard: Offboard | None = None

    @property
    def exits(self) -> Edges:
        """Every edge with track (stops, plain track, stubs, off-board), sorted."""
        return track_edges(self.cities, self.towns, self.track, self.offboard, self.stubs)

    def rotated(self, rotation: int) -> FaceRecord:
        """The same face turned ``rotation`` steps clockwise."""
        r = rotation % 6
        if not r:
            return self
        ob = self.offboard
        return FaceRecord(
            color=self.color,
            label=self.label,
            cities=tuple(City(c.revenue, c.slots, rotate_exits(c.exits, r)) for c in self.cities),
            towns=tuple(Town(t.revenue, rotate_exits(t.exits, r)) for t in self.towns),
            track=tuple(((a + r) % 6, (b + r) % 6) for a, b in self.track),
            stubs=rotate_exits(self.stubs, r),
            offboard=None
            if ob is None
            else Offboard(
                ob.revenue, ob.group, rotate_exits(ob.exits, r), ob.hidden, ob.requires_visit
            ),
        )


def _get(source: Any, key: str, default: Any = None) -> Any:
    """``source[key]`` of a mapping (compiled tables) or ``source.key`` of a model."""
    if isinstance(source, Mapping):
        value = source.get(key, default)
    else:
        value = getattr(source, key, default)
    return default if value is None else value


def _exits(source: Any) -> Edges:
    """The sorted exits of a stop or off-board."""
    return rotate_exits(_get(source, "exits", ()), 0)


def _name(value: Any) -> str | None:
    """A colour as a plain string (accepts an enum)."""
    if value is None:
        return None
    return str(getattr(value, "value", value))


def read_face(source: Any, rotation: int = 0) -> FaceRecord:
    """Read a face from a compiled hex or tile record, or from a title's face model.

    Absent or null values take their defaults (revenue 0, one slot, no exits); the face is
    turned by ``rotation``.
    """
    cities = tuple(
        City(int(_get(c, "revenue", 0)), int(_get(c, "slots", 1)), _exits(c))
        for c in _get(source, "cities", ())
    )
    towns = tuple(Town(int(_get(t, "revenue", 0)), _exits(t)) for t in _get(source, "towns", ()))
    track = tuple((int(a), int(b)) for a, b in _get(source, "track", ()))
    ob = _get(source, "offboard")
    offboard = (
        Offboard(
            dict(_get(ob, "revenue", {})),
            _get(ob, "group"),
            _exits(ob),
            bool(_get(ob, "hidden", False)),
            tuple(_get(ob, "requires_visit", ())),
        )
        if ob is not None and not (isinstance(ob, Mapping) and not ob)
        else None
    )
    face = FaceRecord(
        color=_name(_get(source, "color")),
        label=_get(source, "label"),
        cities=cities,
        towns=towns,
        track=track,
        stubs=rotate_exits(_get(source, "stubs", ()), 0),
        offboard=offboard,
    )
    return face.rotated(rotation)
