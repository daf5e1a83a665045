"""The map side of the engine: the compiled board, laid tiles, station tokens and track.

Everything here is generic: the board is read from a compiled title (``generated/<id>.json``,
see docs/compiled-format.md) and no title is named.

Vocabulary (rules: seed 002 "routes" and "tokens"; reference facts §7-§9):

* A hex shows a **face**: the printed content of the board (white, yellow preprinted, gray,
  red) until a tile is laid, then the laid tile at its rotation. Faces here always use
  **absolute** edges (tile edge ``e`` at rotation ``r`` lies on hex edge ``(e + r) % 6``).
* A **path** is one piece of track inside one hex: stop <-> edge (a city, town or
  off-board joined to a hex side) or edge <-> edge (plain track). Path ends are written
  ``"e<edge>"``, ``"c<city>"``, ``"t<town>"`` or ``"o0"`` (the off-board area).
* A **hex side** (edge node) is shared by the two hexes it separates: hex ``H`` edge ``e`` is
  the same side as the neighbour's edge ``(e + 3) % 6``. Track crosses a side only from one
  hex into the other (a train never reverses at a junction).
* A city whose slots are all filled by other corporations' tokens blocks a corporation: its
  track may end there but not pass through it. Off-boards are never passed through.
"""

from __future__ import annotations

from collections.abc import (
    Callable,
    Collection,
    Hashable,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from dataclasses import dataclass, field
from functools import cached_property
from operator import itemgetter
from typing import Any, TypeVar

from eighteen.compiled import CompiledHex, CompiledTile, CompiledTitle
from eighteen.faces import read_face, rotate_exits
from eighteen.title.model import Corporation, Offboard, TileFace

_T = TypeVar("_T")

#: Phase revenue colours in order, used when an off-board lacks the asked colour.
_REVENUE_ORDER = ["white", "yellow", "green", "brown", "gray"]

#: Path-end letter of each stop kind.
KIND_LETTER = {"city": "c", "town": "t", "offboard": "o"}
LETTER_KIND = {v: k for k, v in KIND_LETTER.items()}


class MapError(ValueError):
    """An impossible board operation (unknown hex or tile, full city...)."""


# ---------------------------------------------------------------------------------------
# state


class Tiles(dict[str, tuple[str, int]]):
    """:attr:`MapState.tiles`: a dict that counts the changes made to it
    (:attr:`changes`), so that the track's fingerprint (:meth:`MapState.track_key`) is
    known to hold while the count stands, without comparing the tiles again.  Every
    method of a dict that changes it counts; reading is a dict's.

    :attr:`last` says what the last change was when it set one hex (a lay): (the count it
    made, the hex, the tile there before or None); None after any other change.
    From it the fingerprint of the new tiles is the old one with that hex's entry changed
    (:meth:`MapState.track_step`), not made again from every tile."""

    __slots__ = ("changes", "last")

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.changes = 0
        self.last: tuple[int, str, tuple[str, int] | None] | None = None

    def __reduce__(
        self,
    ) -> tuple[type[Tiles], tuple[dict[str, tuple[str, int]]], tuple[None, dict[str, int]]]:
        # pickled and copied as its items, made again by __init__ (a dict's own way sets
        # the items before the count exists), then its count: a state's kept track key,
        # copied with it, holds for the count it was made at
        return (Tiles, (dict(self),), (None, {"changes": self.changes}))

    def __setitem__(self, key: str, value: tuple[str, int]) -> None:
        self.changes += 1
        self.last = (self.changes, key, dict.get(self, key))
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: str) -> None:
        self.changes += 1
        self.last = None
        dict.__delitem__(self, key)

    def __ior__(self, other: Any) -> Tiles:  # type: ignore[override,misc]
        self.changes += 1
        self.last = None
        dict.update(self, other)
        return self

    def pop(self, *args: Any) -> Any:
        self.changes += 1
        self.last = None
        return dict.pop(self, *args)

    def popitem(self) -> tuple[str, tuple[str, int]]:
        self.changes += 1
        self.last = None
        return dict.popitem(self)

    def setdefault(self, key: str, default: Any = None) -> Any:
        self.changes += 1
        self.last = None
        return dict.setdefault(self, key, default)

    def update(self, *args: Any, **kw: Any) -> None:
        self.changes += 1
        self.last = None
        dict.update(self, *args, **kw)

    def clear(self) -> None:
        self.changes += 1
        self.last = None
        dict.clear(self)


#: A track fingerprint: the set of (hex, (tile, rotation)) of the laid tiles.
TrackKey = frozenset[tuple[str, tuple[str, int]]]
#: How a fingerprint follows from the one before it when one hex changed (a lay): (the
#: fingerprint before, the hex, its tile before or None, its tile now).
TrackStep = tuple[TrackKey, str, tuple[str, int] | None, tuple[str, int]]
#: A map state's kept track fingerprint: (what it was made of: the state's :class:`Tiles`,
#: or a copy of a plain dict put in their place; the count of changes of those tiles
#: then; the fingerprint; the step it followed from, or None).
_KeptTrack = tuple[dict[str, tuple[str, int]], int, TrackKey, TrackStep | None]
#: Its kept token fingerprints: (a copy of the tokens, their fingerprint, their snapshot,
#: the station cities of each corporation found so far).
_KeptTokens = tuple[
    dict[str, list[list[str]]],
    frozenset[tuple[str, tuple[tuple[str, ...], ...]]],
    dict[str, tuple[tuple[str, ...], ...]],
    dict[str, list[tuple[str, str, int]]],
]


@dataclass
class MapState:
    """Mutable board: laid tiles and station tokens. Copy with .copy(); to_json/from_json for saves.

    ``tiles`` maps hex -> (tile id, rotation) for hexes with a laid tile (a hex that is not
    listed shows its printed face). ``tokens`` maps hex -> per city index -> corporation ids
    in its slots, in the order they were placed (list index = slot).
    """

    tiles: dict[str, tuple[str, int]] = field(default_factory=dict)
    tokens: dict[str, list[list[str]]] = field(default_factory=dict)
    # the fingerprints kept, with the copies they were made of (:meth:`track_key`,
    # :meth:`_kept_tokens`): not part of the position
    _track_key: _KeptTrack | None = field(default=None, init=False, repr=False, compare=False)
    _token_key: _KeptTokens | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if type(self.tiles) is not Tiles:
            self.tiles = Tiles(self.tiles)  # (a dict given, as tests and loads do)

    def copy(self) -> MapState:
        """An independent copy."""
        return MapState(
            tiles=Tiles(self.tiles),
            tokens={h: [list(c) for c in cities] for h, cities in self.tokens.items()},
        )

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict (keys sorted for stable saves)."""
        return {
            "tiles": {h: [t, r] for h, (t, r) in sorted(self.tiles.items())},
            "tokens": {h: [list(c) for c in cs] for h, cs in sorted(self.tokens.items())},
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> MapState:
        """Inverse of :meth:`to_json`."""
        return cls(
            tiles={h: (str(v[0]), int(v[1])) for h, v in d.get("tiles", {}).items()},
            tokens={h: [list(c) for c in cs] for h, cs in d.get("tokens", {}).items()},
        )

    def track_key(self) -> TrackKey:
        """Fingerprint of the laid tiles: equal keys mean equal track (cache key).

        Kept with the tiles it was made of and their count of changes (:class:`Tiles`):
        it holds while those tiles are still the state's and the count stands.  After one
        change that set one hex (a lay, :attr:`Tiles.last`), the new key is the kept one
        with that hex's entry changed (a copy of a set whose entries keep their hashes,
        not every tile's entry made and hashed again), and the step is kept with it
        (:meth:`track_step`).  A plain dict put in place of the tiles by hand counts
        nothing: the key is kept with a copy of it, and holds while the two are equal (a
        kept key's hash is kept too)."""
        kept = self._track_key
        tiles = self.tiles
        if isinstance(tiles, Tiles):
            n = tiles.changes
            if kept is not None and kept[0] is tiles:
                if kept[1] == n:
                    return kept[2]
                last = tiles.last
                if last is not None and last[0] == n and kept[1] == n - 1:
                    h, before = last[1], last[2]
                    now = dict.__getitem__(tiles, h)
                    step = (kept[2], h, before, now)
                    key = _stepped_key(kept[2], h, before, now)
                    self._track_key = (tiles, n, key, step)
                    return key
            key = frozenset(tiles.items())
            self._track_key = (tiles, n, key, None)
            return key
        if kept is not None and type(kept[0]) is dict and kept[0] == tiles:
            return kept[2]
        key = frozenset(tiles.items())
        self._track_key = (dict(tiles), 0, key, None)
        return key

    def track_step(self) -> TrackStep | None:
        """How :meth:`track_key` followed from the key before it, when the tiles changed
        by one lay since that key was made: (that key, the hex, its tile before or None,
        its tile now); None otherwise.  A cache keyed by the fingerprint may make its
        value for the new key from the one kept for the old (the tile supply does)."""
        key = self.track_key()
        kept = self._track_key
        return kept[3] if kept is not None and kept[2] is key else None

    def token_key(self) -> frozenset[tuple[str, tuple[tuple[str, ...], ...]]]:
        """Fingerprint of the station tokens: equal keys mean equal tokens (cache key);
        kept with a copy of the tokens, and made again only when they differ from it (the
        tokens' city lists change in place, so no count says they held)."""
        return self._kept_tokens()[1]

    def token_snapshot(self) -> dict[str, tuple[tuple[str, ...], ...]]:
        """The station tokens as tuples, hex by hex (the hexes holding a token only); kept
        as :meth:`token_key` is (the same object while the tokens hold still: shared, do
        not mutate it)."""
        return self._kept_tokens()[2]

    def station_cities(
        self, corp: str, kept: _KeptTokens | None = None
    ) -> list[tuple[str, str, int]]:
        """The cities holding a token of ``corp``, as (hex, "city", index), sorted; kept
        with the tokens (shared, do not mutate it). ``kept``: :meth:`_kept_tokens` asked
        a moment before, the tokens unchanged since (so they are not compared again)."""
        by_corp = (kept if kept is not None else self._kept_tokens())[3]
        got = by_corp.get(corp)
        if got is None:
            got = by_corp[corp] = [(h, "city", i) for h, i in self.token_cities(corp)]
        return got

    def _kept_tokens(self) -> _KeptTokens:
        """(a copy of the tokens, :meth:`token_key`, :meth:`token_snapshot`, the
        :meth:`station_cities` found so far), made again only when the tokens differ from
        the copy."""
        kept = self._token_key
        if kept is not None and kept[0] == self.tokens:
            return kept
        tuples = {h: tuple(map(tuple, cs)) for h, cs in self.tokens.items()}
        kept = (
            {h: [list(c) for c in cs] for h, cs in self.tokens.items()},
            frozenset(tuples.items()),
            {h: cs for h, cs in tuples.items() if any(cs)},
            {},
        )
        self._token_key = kept
        return kept

    def city_tokens(self, hex_id: str, city: int) -> list[str]:
        """Corporations in the slots of one city (empty list when none)."""
        cities = self.tokens.get(hex_id, [])
        return list(cities[city]) if city < len(cities) else []

    def token_cities(self, corp: str) -> list[tuple[str, int]]:
        """Every (hex, city index) holding a token of ``corp``, sorted."""
        return sorted(  # (a list, not a generator expression: compiled, this method is typed)
            [(h, i) for h, cities in self.tokens.items() for i, c in enumerate(cities) if corp in c]
        )


def _on_offer(
    tile: str, color: str, colors: Collection[str], tile_supply: Mapping[str, int | None]
) -> bool:
    """May ``tile`` be laid now as far as the phase and the supply go: its ``color`` is one
    of ``colors`` and ``tile_supply`` has one left (None: unlimited; a tile missing from
    the supply is not in it)?"""
    if color not in colors:
        return False
    supply = tile_supply.get(tile, 0)
    return supply is None or supply > 0


def _stepped_key(
    key: TrackKey, h: str, before: tuple[str, int] | None, now: tuple[str, int]
) -> TrackKey:
    """``key`` with the entry of hex ``h`` changed from ``before`` (None: it had none) to
    ``now`` (:meth:`MapState.track_key`)."""
    if before == now:
        return key
    if before is None:
        return key.union([(h, now)])
    entries = set(key)
    entries.discard((h, before))
    entries.add((h, now))
    return frozenset(entries)


# ---------------------------------------------------------------------------------------
# faces


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
        """Every edge with track, sorted."""
        es: set[int] = set()
        for c in self.cities:
            es.update(c.exits)
        for t in self.towns:
            es.update(t.exits)
        for a, b in self.track:
            es.update((a, b))
        if self.offboard is not None:
            es.update(self.offboard.exits)
        return tuple(sorted(es))

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


def _path_count(data: TileFace, offboard: Offboard | None = None) -> int:
    """How many paths a face of this hex or tile (with this off-board) has, at any rotation."""
    n = sum(len(c.exits) for c in data.cities) + sum(len(t.exits) for t in data.towns)
    return n + (len(offboard.exits) if offboard is not None else 0) + len(data.track)


def _build_face(hex_id: str, data: TileFace, tile: str | None, rotation: int, color: str) -> Face:
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
    (A native class when compiled, map.pxd: the lay questions make a few an action.)
    """

    hex: str
    tile: str
    rotation: int
    cost: int
    upgrade: bool = False


# ---------------------------------------------------------------------------------------
# track graph


@dataclass
class Reach:
    """What a corporation's network reaches (from its tokens, following track).

    ``edges``: hex -> the edges a new tile may connect to (lay connectivity), as a bitmask
    (bit ``e`` for edge ``e``: ORed as the walk goes, with no set per hex); ``cities``: the
    (hex, city) reached (token candidates); ``stops``: every stop reached, as
    (hex, kind, index); ``joined``: the stops reached along track from a station (so each
    is the far end of a route of two stops).
    """

    edges: dict[str, int]
    cities: set[tuple[str, int]]
    stops: set[tuple[str, str, int]]
    joined: set[tuple[str, str, int]] = field(default_factory=set)
    #: the walk that found it, to walk on from (:meth:`TrackGraph.extend`); not part of
    #: the value
    walk: _Walk | None = field(default=None, repr=False, compare=False)
    #: the corporation's stations, as stops (the walk's starts)
    own: frozenset[tuple[str, str, int]] = field(default=frozenset(), repr=False, compare=False)
    _order: list[str] | None = field(default=None, init=False, repr=False, compare=False)

    def joins_other(self, excluded: Collection[str] = ()) -> bool:
        """Does it join a station to a stop that is not a station nor on an ``excluded``
        hex (the far end of a route)?"""
        own = self.own
        # (a loop that stops at the first such stop, most often the first it looks at;
        # not any() of a generator expression, which compiled would be a closure)
        for s in self.joined:  # noqa: SIM110
            if s not in own and s[0] not in excluded:
                return True
        return False

    def hex_order(self) -> list[str]:
        """The hexes of ``edges``, sorted (made once: a reach is never changed)."""
        if self._order is None:
            self._order = sorted(self.edges)
        return self._order


@dataclass
class _Walk:
    """A walk of :meth:`TrackGraph.reach`: the graph and tokens it walked on, its stations
    (stop ids), the stops whose paths it followed (``queued``) and the stops it reached
    along track (``joined``), each a flag by stop id, the paths it followed (``done``, a
    flag by path id) and the sides it entered (``~(side << 16 | hex number)``).  Flags in a
    bytearray, not sets: a graph's stop and path ids are dense and stay the same on every
    graph the walk is carried to (:meth:`TrackGraph._carry`), and a flag is one byte read
    where a set of a late game's followed paths is a hash table of a thousand slots or
    more, probed by each id's hash."""

    graph: TrackGraph
    corp: str
    stations: frozenset[str]
    starts: set[int]
    queued: bytearray
    joined: bytearray
    done: bytearray
    seen: set[int]
    tokens: dict[str, tuple[tuple[str, ...], ...]]

    def followed(self) -> list[int]:
        """The ids of the paths the walk followed, in order."""
        return [pid for pid, flag in enumerate(self.done) if flag]


def _order_kept(r: Reach, prev: Reach) -> Reach:
    """``r``, with the sorted hexes of ``prev`` (:meth:`Reach.hex_order`) when it has the
    same hexes: a reach walked on from ``prev`` only adds to its edges, so the same count
    of hexes is the same hexes."""
    if len(r.edges) == len(prev.edges):
        r._order = prev._order
    return r


def _stop_counts(face: Face) -> tuple[int, int, bool]:
    """The stops a face shows: its cities, its towns, an off-board or not."""
    return (len(face.cities), len(face.towns), face.offboard is not None)


@dataclass(frozen=True)
class _Fragment:
    """One face's part of a track graph, independent of the rest of the board: its stops
    in sorted order, and each path with its ends as (True, index into those stops) or
    (False, global side id), the bitmask of its sides, and the (hex number, edges) it
    reaches (:attr:`TrackGraph.touch`)."""

    stops: tuple[tuple[str, str, int], ...]
    paths: tuple[tuple[Path, tuple[tuple[bool, int], ...], int, tuple[tuple[int, int], ...]], ...]


@dataclass
class _Tables:
    """The path tables of a track graph being made (:meth:`TrackGraph.__init__`,
    :meth:`TrackGraph.patched`), as lists; the graph keeps them (changed after only by
    a patch, which the graph's version undoes, :class:`_Version`).
    (A native class when compiled, map.pxd.)"""

    paths: list[Path]
    ends: list[tuple[tuple[bool, int], tuple[bool, int]]]
    path_sides: list[int]
    touch: list[tuple[tuple[int, int], ...]]
    stop_paths: list[tuple[int, ...]]
    side_paths: dict[int, tuple[tuple[str, int], ...]]


#: The sort key of (hex, path id) pairs: the path id.
_SECOND = itemgetter(1)

#: What :meth:`Board._kept` finds for a key a cache does not hold.
NOT_KEPT = object()

#: The path of the ids no path holds (see :class:`TrackGraph`), and its ends.
_NO_PATH = Path("", "-", "-")
_NO_ENDS = ((False, -1), (False, -1))
#: A reach's bitmask of every edge of a hex (a station's hex is reached on all six).
ALL_EDGES = 0b111111
#: A hex's lay table (:meth:`Board._new_lay_table`): per candidate tile (tile, upgrade,
#: colour, its rotations as (rotation, exits, track signature, exits as a bitmask)).
_LayTable = list[
    tuple[str, bool, str, list[tuple[int, frozenset[int], frozenset[tuple[str, str]], int]]]
]


#: The tables of a track graph: made by :meth:`TrackGraph.__init__`, changed in place on
#: the changed hexes by :meth:`TrackGraph.patched` (the graphs patched from one another
#: share them, each getting its own back by :meth:`TrackGraph.current`), shared by its
#: bound copies.
GRAPH_TABLES = (
    "tiles",
    "faces",
    "stops",
    "stop_start",
    "stop_id",
    "paths",
    "ends",
    "path_sides",
    "touch",
    "stop_paths",
    "side_paths",
    "text_id",
)


#: The kinds of walk :attr:`Board.walks` counts.
WALK_KINDS = ("on", "over", "fresh", "stopped")

#: The attributes of a track graph: its board, its position, its kept parts, its tables.
_GRAPH_SLOTS = (
    "board",
    "state",
    "numbering",
    "layout",
    "lineage",
    "_track_key",
    "_node",
    *GRAPH_TABLES,
)

#: What :func:`_apply` finds, or leaves, for a key a dict table does not hold.
_ABSENT = object()


class _Version:
    """Where a graph's tables stand among the graphs patched from one another, which share
    the very lists and dicts (:meth:`TrackGraph.patched` changes them in place): the
    graph whose ``parent`` is None is the one the tables hold now (the root); any other
    gets them back by its ``diff`` applied to its parent's, once its parent is the root
    (:func:`_reroot`).  The versions form a tree whose edges point to the root, so that no
    reference cycle is made, and an evicted graph's version goes with it unless another
    version reaches the root through it."""

    __slots__ = ("parent", "diff")

    def __init__(self) -> None:
        self.parent: _Version | None = None
        #: (table, key, value): what turns the parent's tables into this version's, applied
        #: last entry first (:func:`_apply`); None at the root
        self.diff: list[tuple[Any, Any, Any]] | None = None


def _apply(diff: list[tuple[Any, Any, Any]]) -> list[tuple[Any, Any, Any]]:
    """Apply ``diff`` to the tables it names, its last entry first (entries made one after
    another may name one key: the earliest holds the value to end with); returns the diff
    that undoes it, in the same form.  ``_ABSENT``: a dict's key taken away."""
    undo: list[tuple[Any, Any, Any]] = []
    for i in range(len(diff) - 1, -1, -1):
        table, key, value = diff[i]
        if type(table) is dict:
            undo.append((table, key, table.get(key, _ABSENT)))
            if value is _ABSENT:
                table.pop(key, None)
            else:
                table[key] = value
        else:
            undo.append((table, key, table[key]))
            table[key] = value
    return undo


def _reroot(node: _Version) -> None:
    """Make the tables shared by ``node``'s graphs hold its version: the diffs on the way
    from the root to it applied in turn, each edge turned round (its undo kept by the
    former root: the versions stay a tree pointing to the root)."""
    way: list[_Version] = []
    n = node
    while n.parent is not None:
        way.append(n)
        n = n.parent
    for i in range(len(way) - 1, -1, -1):
        child = way[i]
        root = child.parent
        assert root is not None and child.diff is not None
        root.diff = _apply(child.diff)
        root.parent = child
        child.parent = None
        child.diff = None


class TrackGraph:
    """The track of one board position as a graph.

    Nodes are stops (``stops[i] = (hex, kind, index)``, sorted) and hex sides (the Board's
    global side ids). Each path of each face is an arc between its two ends. ``ends[p]``
    gives, for path ``p``, two ends ``(is_stop, id)``. Path ids run in board order: the
    hex numbered ``k`` in ``Board.hex_ids`` owns the ids from ``k * Board.path_stride``
    (the ids it does not use hold a placeholder path no end names), so laying a tile
    renumbers nothing (:meth:`patched`). ``side_paths[side]`` lists
    ``(hex, path)`` for the paths touching a side, so a walk arriving at a side from one
    hex continues only with the paths of the other hex.

    The track part depends only on the laid tiles; ``state`` (tokens) is read by
    :meth:`has_token`, :meth:`passable` and :meth:`reach`. :meth:`Board.graph` keeps one
    graph per tile layout and hands out copies bound to the asked state (:meth:`bind`).

    A graph patched from another (:meth:`patched`) shares its table objects, changed in
    place on the changed hexes: they hold one graph's tables at a time, and a graph gets
    its own back by :meth:`current` (``_node``: its :class:`_Version`).
    :meth:`Board.graph` hands out a graph made current; a caller keeping a graph while
    it asks the board about another layout makes it current again before reading its
    tables (:func:`eighteen.engine.routefinder.network` does).  Never mutate a graph's
    tables otherwise.
    """

    # (slots: the walks, the lay scans and the route checks read a graph's tables many
    # times an action, and a slot is read without looking in an instance dict)
    __slots__ = _GRAPH_SLOTS

    def __init__(self, board: Board, state: MapState) -> None:
        self.board = board
        self.state = state
        self._track_key: frozenset[tuple[str, tuple[str, int]]] | None = None
        self.tiles = dict(state.tiles)  # the layout this graph is of (see :meth:`patched`)
        stride = board.path_stride
        self.faces: dict[str, Face] = {}
        stops: list[tuple[str, str, int]] = []
        #: per hex (board order), the first of its stop ids; a last entry closes the list
        self.stop_start: list[int] = []
        frags: list[_Fragment] = []
        for h in board.hex_ids:  # sorted: the stops come out sorted, hex by hex
            f = board.face(state, h)
            self.faces[h] = f
            frag = board.fragment(f)
            frags.append(frag)
            self.stop_start.append(len(stops))
            stops.extend(frag.stops)
        self.stop_start.append(len(stops))
        self.stops = stops
        self.stop_id = {s: i for i, s in enumerate(stops)}
        #: stands for this numbering of the stops, which the graphs patched from this one
        #: share (a cache key part: a result naming stop ids holds for these graphs only)
        self.numbering = object()
        #: stands for this graph's layout (its bound copies share it), and the layouts it
        #: was patched from, newest first: (that layout, the hexes changed since), at
        #: most Board.EXTEND_LIMIT of them (:meth:`changed_since`)
        self.layout = object()
        self.lineage: tuple[tuple[object, tuple[str, ...]], ...] = ()
        n = len(board.hex_ids) * stride
        #: each path's id by its text (``Path.text``: its ends in order), so that a route
        #: given as text is read without parsing it, and a Path found by its text
        self.text_id: dict[str, int] = {}
        # the tables are made as lists and kept so (a graph patched from this one changes
        # them in place, :meth:`patched`); their rows are tuples of numbers and strings,
        # which the collector stops visiting
        t = _Tables([_NO_PATH] * n, [_NO_ENDS] * n, [0] * n, [()] * n, [() for _ in stops], {})
        for k, frag in enumerate(frags):
            if frag.paths:
                self._add(k, frag, t)
        self._keep(t)
        self._node = _Version()

    def current(self) -> TrackGraph:
        """This graph, its tables made to hold its own version (see :class:`TrackGraph`:
        the graphs patched from one another share them)."""
        if self._node.parent is not None:
            _reroot(self._node)
        return self

    def _keep(self, t: _Tables) -> None:
        """Take the tables ``t`` made (the lists themselves: a graph patched from this one
        shares them, :meth:`patched`)."""
        self.paths: list[Path] = t.paths
        self.ends: list[tuple[tuple[bool, int], tuple[bool, int]]] = t.ends
        #: bitmask of the sides each path touches
        self.path_sides: list[int] = t.path_sides
        #: per path, the (hex number, bitmask of edges) it reaches: its edges on its hex,
        #: and the opposite edges on the neighbours (a reach's lay connectivity,
        #: :meth:`_add_edges`)
        self.touch: list[tuple[tuple[int, int], ...]] = t.touch
        self.stop_paths: list[tuple[int, ...]] = t.stop_paths
        self.side_paths: dict[int, tuple[tuple[str, int], ...]] = t.side_paths

    def _add(self, k: int, frag: _Fragment, t: _Tables) -> None:
        """Enter the paths of the fragment of hex number ``k`` (its stops are numbered)
        in the tables being made: path ids ``k * stride`` on, so each hex keeps its own
        range of ids and the ids run in board order whatever the lays that led to the
        graph."""
        h = self.board.hex_ids[k]
        offset = self.stop_start[k]
        paths, text_id, all_ends = t.paths, self.text_id, t.ends
        stop_paths, side_paths, path_sides = t.stop_paths, t.side_paths, t.path_sides
        touch = t.touch
        pid = k * self.board.path_stride
        for p, ((sa, na), (sb, nb)), mask, reached in frag.paths:  # a path has two ends
            paths[pid] = p
            text_id[p.text] = pid
            if sa:
                na += offset
                stop_paths[na] = (*stop_paths[na], pid)
            else:
                side_paths[na] = (*side_paths.get(na, ()), (h, pid))
            if sb:
                nb += offset
                stop_paths[nb] = (*stop_paths[nb], pid)
            else:
                side_paths[nb] = (*side_paths.get(nb, ()), (h, pid))
            all_ends[pid] = ((sa, na), (sb, nb))
            path_sides[pid] = mask
            touch[pid] = reached
            pid += 1

    def patched(self, state: MapState, changed: Iterable[str]) -> TrackGraph | None:
        """The graph of ``state``, whose layout differs from this graph's on the
        ``changed`` hexes only: this graph's tables changed in place on those hexes'
        paths (the same graph :class:`TrackGraph` builds, in a fraction of the time),
        shared by both (this graph's version keeps what gets them back, see
        :class:`_Version`).  None when a changed hex shows other stops than before (the
        stop ids would move): no graph is made, this one only made current."""
        board = self.board
        changed = tuple(changed)
        self.current()
        node = self._node
        frags: list[tuple[str, Face, _Fragment]] = []
        for h in changed:
            face = board.face(state, h)
            frag = board.fragment(face)
            if frag.stops != board.fragment(self.faces[h]).stops:
                return None
            frags.append((h, face, frag))
        g = self._copy()
        g._track_key = None  # (of this graph's layout)
        g.layout = object()
        g.lineage = ((self.layout, changed), *self.lineage[: board.EXTEND_LIMIT - 1])
        g.state = state
        g.tiles = dict(state.tiles)
        faces = self.faces
        paths, ends, path_sides, touch = self.paths, self.ends, self.path_sides, self.touch
        stop_paths, side_paths, text_id = self.stop_paths, self.side_paths, self.text_id
        t = _Tables(paths, ends, path_sides, touch, stop_paths, side_paths)
        # what gets this graph's tables back: each slot, key and text as it was before
        # the patch changed it (in the order taken: applied last first, :func:`_apply`)
        undo: list[tuple[Any, Any, Any]] = []
        stride = board.path_stride
        for h, face, frag in frags:
            k = board.hex_index[h]
            undo.append((faces, h, faces[h]))
            faces[h] = face
            touched: set[int] = set()
            pid = k * stride
            end = pid + stride
            while pid < end:
                p = paths[pid]
                if p is _NO_PATH:
                    break
                both = ends[pid]
                undo += [
                    (text_id, p.text, pid),
                    (paths, pid, p),
                    (ends, pid, both),
                    (path_sides, pid, path_sides[pid]),
                    (touch, pid, touch[pid]),
                ]
                del text_id[p.text]
                paths[pid] = _NO_PATH
                ends[pid] = _NO_ENDS
                path_sides[pid] = 0
                touch[pid] = ()
                touched.update([n for is_stop, n in both if not is_stop])
                pid += 1
            # the ids the new face takes beyond the old one's: placeholders before
            for i in range(pid, min(k * stride + len(frag.paths), end)):
                undo += [
                    (paths, i, _NO_PATH),
                    (ends, i, _NO_ENDS),
                    (path_sides, i, 0),
                    (touch, i, ()),
                ]
            for s in range(g.stop_start[k], g.stop_start[k + 1]):
                undo.append((stop_paths, s, stop_paths[s]))
                stop_paths[s] = ()
            for new_path, new_ends, _, _ in frag.paths:
                touched.update([n for is_stop, n in new_ends if not is_stop])
                # (a text the old face had too: its entry above, applied after this one,
                # puts its old id back)
                undo.append((text_id, new_path.text, _ABSENT))
            for side in touched:  # the other hex's paths stay, in their order
                was = side_paths.get(side)
                undo.append((side_paths, side, _ABSENT if was is None else was))
                kept = tuple([x for x in was if x[0] != h]) if was is not None else ()
                if kept:
                    side_paths[side] = kept
                else:
                    side_paths.pop(side, None)
            g._add(k, frag, t)
            for side in touched:
                got = side_paths.get(side)
                if got is not None and len(got) > 1:
                    side_paths[side] = tuple(sorted(got, key=_SECOND))
        root = _Version()
        node.parent = root
        node.diff = undo
        g._node = root
        return g

    @property
    def track_key(self) -> frozenset[tuple[str, tuple[str, int]]]:
        """:meth:`MapState.track_key` of the layout of this graph (made once)."""
        key = self._track_key
        if key is None:
            key = self._track_key = frozenset(self.tiles.items())
        return key

    def bind(self, state: MapState) -> TrackGraph:
        """This graph's track with the tokens of ``state`` (a shallow copy; shares tables)."""
        if state is self.state:
            return self
        g = self._copy()
        g.state = state
        return g

    def _copy(self) -> TrackGraph:
        """A shallow copy: every slot shared."""
        g = TrackGraph.__new__(TrackGraph)
        # (each attribute by name, not a loop over _GRAPH_SLOTS with getattr and setattr:
        # compiled, these are struct fields; tests/engine/test_map.py checks that every
        # slot is copied)
        g.board = self.board
        g.state = self.state
        g.numbering = self.numbering
        g.layout = self.layout
        g.lineage = self.lineage
        g._track_key = self._track_key
        g._node = self._node
        g.tiles = self.tiles
        g.faces = self.faces
        g.stops = self.stops
        g.stop_start = self.stop_start
        g.stop_id = self.stop_id
        g.paths = self.paths
        g.ends = self.ends
        g.path_sides = self.path_sides
        g.touch = self.touch
        g.stop_paths = self.stop_paths
        g.side_paths = self.side_paths
        g.text_id = self.text_id
        return g

    def stop_revenue(self, stop: int, revenue_key: str) -> int:
        """Revenue of a stop on this board for a phase revenue colour."""
        h, kind, i = self.stops[stop]
        f = self.faces[h]
        if kind == "city":
            return f.cities[i].revenue
        if kind == "town":
            return f.towns[i].revenue
        assert f.offboard is not None
        return f.offboard.revenue_for(revenue_key)

    def requires_visit(self, stop: int) -> tuple[str, ...]:
        """Hexes one of which a route must visit for this stop to pay (empty: none)."""
        h, kind, _ = self.stops[stop]
        ob = self.faces[h].offboard
        return ob.requires_visit if kind == "offboard" and ob is not None else ()

    def group(self, stop: int) -> str | None:
        """Off-board group of a stop (None for cities, towns and ungrouped off-boards)."""
        h, kind, _ = self.stops[stop]
        ob = self.faces[h].offboard
        return ob.group if kind == "offboard" and ob is not None else None

    def has_token(self, stop: int, corp: str) -> bool:
        """Is ``stop`` a city holding a token of ``corp``?"""
        h, kind, i = self.stops[stop]
        if kind != "city":
            return False
        cities = self.state.tokens.get(h)
        return cities is not None and i < len(cities) and corp in cities[i]

    def passable(self, stop: int, corp: str | None) -> bool:
        """May a route of ``corp`` run THROUGH this stop (not just end there)?

        Off-boards: never. Cities whose slots are all filled by other corporations' tokens:
        no (seed 002: such a city may only be a route's end). Towns and other cities: yes.
        """
        h, kind, i = self.stops[stop]
        if kind == "offboard":
            return False
        if kind == "town":
            return True
        cities = self.state.tokens.get(h)
        toks = cities[i] if cities is not None and i < len(cities) else ()
        return (corp is not None and corp in toks) or len(toks) < self.faces[h].cities[i].slots

    def other_end(self, pid: int, node: tuple[bool, int]) -> tuple[bool, int]:
        """The end of path ``pid`` that is not ``node``."""
        a, b = self.ends[pid]
        return b if a == node else a

    def _new_walk(
        self,
        corp: str,
        stations: frozenset[str],
        starts: list[int],
        tokens: dict[str, tuple[tuple[str, ...], ...]],
    ) -> _Walk:
        """A walk about to start from the stops ``starts`` (queued; joined only once the
        walk comes back to one along track)."""
        queued = bytearray(len(self.stops))
        for s in starts:
            queued[s] = 1
        return _Walk(
            self,
            corp,
            stations,
            set(starts),
            queued,
            bytearray(len(self.stops)),
            bytearray(len(self.paths)),
            set(),
            tokens,
        )

    def station_stops(
        self, corp: str, stations: Iterable[str] = (), kept: _KeptTokens | None = None
    ) -> list[int]:
        """Stop ids where ``corp`` has a station, sorted: the cities holding its tokens,
        and every stop on the ``stations`` hexes (virtual stations of private powers).
        ``kept``: as for :meth:`MapState.station_cities`."""
        stop_id = self.stop_id
        out = set()
        for city in self.state.station_cities(corp, kept):
            s = stop_id.get(city)
            if s is not None:
                out.add(s)
        for h in stations:
            f = self.faces.get(h)
            if f is None:
                continue
            out.update([self.stop_id[(h, "city", i)] for i in range(len(f.cities))])
            out.update([self.stop_id[(h, "town", i)] for i in range(len(f.towns))])
            if f.offboard is not None:
                out.add(self.stop_id[(h, "offboard", 0)])
        return sorted(out)

    def reach(
        self, corp: str, stations: Iterable[str] = (), kept: _KeptTokens | None = None
    ) -> Reach:
        """Walk the corporation's network from every city holding its token (and every stop
        of the ``stations`` hexes, virtual stations).

        A walk leaves a stop by any of its paths, crosses each side into the other hex (no
        reversing at a junction), stops at off-boards and at cities blocked by other
        corporations' tokens. Every edge of a hex where the corporation has a station
        counts as reached (a corporation may always build on its own station's hex); each
        traversed path reaches its edges on its hex and the opposite edges on the
        neighbours. ``kept``: the state's kept tokens (:meth:`MapState._kept_tokens`),
        asked a moment before, the tokens unchanged since (they are not compared again).
        """
        extra = frozenset(stations)
        if kept is None:
            kept = self.state._kept_tokens()
        tokens = kept[2]
        starts = self.station_stops(corp, extra, kept)
        w = self._new_walk(corp, extra, starts, tokens)
        new_done, new_joined = self._follow(w, list(starts))
        edges: dict[str, int] = {}
        self._add_edges(edges, new_done, starts)
        found = {self.stops[s] for s in new_joined}
        stops = found | {self.stops[s] for s in starts}
        cities = {(h, i) for h, kind, i in stops if kind == "city"}
        return Reach(edges, cities, stops, found, w, frozenset([self.stops[s] for s in starts]))

    def extend(
        self,
        prev: Reach,
        corp: str,
        stations: frozenset[str],
        kept: _KeptTokens | None = None,
    ) -> Reach | None:
        """The reach of ``corp`` on this graph's position, found by walking on from
        ``prev`` (its reach on an earlier position, with the same ``stations``) where the
        board changed: the same as :meth:`reach` when the change only adds to the network
        (tiles keeping their old track and stops, its own new stations, cities it could
        not pass that it now may); None when the walk must start over (a city it went
        through is now blocked, a station or a piece of track it followed is gone).

        The walk goes on in place: ``prev`` gives its walk up to the new reach (only the
        last reach of a corporation is walked on from, :meth:`Board.reach`), and the new
        reach shares ``prev``'s sets when the walk found nothing new.  Nothing is changed
        before the walk is known to go on (a None leaves ``prev`` as it was).  ``kept``:
        as for :meth:`reach`."""
        w = prev.walk
        if w is None or w.corp != corp or w.stations != stations:
            return None
        board = self.board
        carried = self._carry(prev)
        if carried is None:
            return None
        near, remap = carried
        reached, done = prev.edges, w.done
        if kept is None:
            kept = self.state._kept_tokens()
        tokens = kept[2]
        moved: set[str]
        starts: Collection[int]
        if tokens is w.tokens:  # the state's own snapshot: no token moved since
            moved = set()
            starts = w.starts  # its stations then, the same stops (their counts held)
        else:
            starts = self.station_stops(corp, stations, kept)
            if not w.starts.issubset(starts):
                return None  # a station is gone
            moved = {
                h for h in (*tokens, *w.tokens) if h in reached and tokens.get(h) != w.tokens.get(h)
            }  # (where the walk never came, a token changes nothing it found)
        queued = w.queued
        opened = self._reopened(w, moved.union(near) if moved else near, starts)
        if opened is None:
            return None  # the walk went through a city now blocked
        # the walk goes on: from here on it is changed
        prev.walk = None
        if remap:
            for pid in remap:
                done[pid] = 0
            for pid in remap.values():
                done[pid] = 1
        w.graph = self
        w.tokens = tokens
        todo = opened
        for s in opened:
            queued[s] = 1
        seen = w.seen
        for h in near:  # walk again from where the walk entered the changed hexes
            k = board.hex_index[h]
            todo += [s for s in range(self.stop_start[k], self.stop_start[k + 1]) if queued[s]]
            todo += [y for y in board.entries[h] if y in seen]
        fresh = [s for s in starts if s not in w.starts]
        for s in fresh:
            w.starts.add(s)
            if not queued[s]:
                queued[s] = 1
                todo.append(s)
        new_done, new_joined = self._follow(w, todo) if todo else ([], [])
        if not new_done and not new_joined and not fresh:
            return _order_kept(
                Reach(prev.edges, prev.cities, prev.stops, prev.joined, w, prev.own), prev
            )
        edges = dict(prev.edges)
        self._add_edges(edges, new_done, fresh)
        if not new_joined and not fresh:  # more track only: the stops are the same sets
            return _order_kept(
                Reach(edges, prev.cities, prev.stops, prev.joined, w, prev.own), prev
            )
        found = set(prev.joined)
        found.update([self.stops[s] for s in new_joined])
        stops = set(prev.stops)
        stops.update([self.stops[s] for s in new_joined])
        stops.update([self.stops[s] for s in fresh])
        cities = set(prev.cities)
        cities.update(
            [
                (h, i)
                for h, kind, i in map(self.stops.__getitem__, (*new_joined, *fresh))
                if kind == "city"
            ]
        )  # (lists, not generator expressions: compiled, a typed method holds no closure)
        own = prev.own.union([self.stops[s] for s in fresh]) if fresh else prev.own
        return _order_kept(Reach(edges, cities, stops, found, w, own), prev)

    def keeps(self, prev: Reach, corp: str, stations: frozenset[str], kept: _KeptTokens) -> bool:
        """Is every stop ``prev`` joined still joined on this graph's position, ``prev``
        being the reach of ``corp`` (with these ``stations``) on an earlier one?  True when
        no token moved since (``kept``'s snapshot is the one the walk read) and the walk
        can be carried to this graph as :meth:`extend` carries it (:meth:`_carry`, no city
        it went through blocked now): the walk of ``prev`` is then a walk of this position
        too, and the reach here holds at least what it found.  False when that is not
        known; nothing is changed (no walk on is made)."""
        w = prev.walk
        if w is None or w.corp != corp or w.stations != stations or kept[2] is not w.tokens:
            return False
        carried = self._carry(prev)
        return carried is not None and self._reopened(w, carried[0], w.starts) is not None

    def _carry(self, prev: Reach) -> tuple[list[str], dict[int, int]] | None:
        """What carrying the walk of ``prev`` (on an earlier graph) to this graph takes:
        the changed hexes it came to, and the new ids of the paths it followed there (old
        -> new); None when it cannot be carried: more than ``EXTEND_LIMIT`` hexes changed,
        a changed hex shows other stops (on a graph numbered afresh), or track it followed
        is gone.  Nothing is changed."""
        w = prev.walk
        assert w is not None
        board, old = self.board, w.graph
        changed = self.changed_since(old)
        if len(changed) > board.EXTEND_LIMIT:
            return None
        stride = board.path_stride
        done, reached = w.done, prev.edges
        remap: dict[int, int] = {}  # path ids on the changed hexes: old -> new
        near: list[str] = []  # the changed hexes the walk came to
        renumbered = old.numbering is not self.numbering  # (patched: the same stops)
        then = old.tiles
        for h in changed:
            # (the old face read off the old layout, not the old graph's faces, which this
            # graph's may share, :meth:`patched`)
            tile, rotation = then.get(h, (None, 0))  # (named: compiled, a C call)
            face = board.tile_face(h, tile, rotation)
            if renumbered and _stop_counts(face) != _stop_counts(self.faces[h]):
                return None  # other stops (the fragment's stops follow from these counts)
            if h not in reached:
                # the walk never came to this hex: it took none of its paths (each touches
                # an edge of it, or joins two of its stops, reached then by one that does),
                # entered it from no side and reached none of its stops; the station hexes
                # are reached on every edge
                continue
            near.append(h)
            # the old face's paths, read off its fragment (in id order: :meth:`_add`), not
            # the old graph's tables, which this graph's may share (:meth:`patched`)
            base = board.hex_index[h] * stride
            for i, item in enumerate(board.fragment(face).paths):
                pid = base + i
                if not done[pid]:
                    continue  # gone or not, the walk never took it: nothing found depends on it
                new = self.text_id.get(item[0].text)
                if new is None:
                    return None  # track the walk followed is gone
                remap[pid] = new
        return near, remap

    def _reopened(
        self, w: _Walk, hexes: Iterable[str], starts: Collection[int]
    ) -> list[int] | None:
        """The stops on ``hexes`` the walk ``w`` reached but could not pass and now may
        (on this graph, with its tokens; ``starts``: the corporation's stations, which
        it passes anyway); None when a city it went through there is blocked now."""
        board, queued, joined, corp = self.board, w.queued, w.joined, w.corp
        opened: list[int] = []
        for h in hexes:
            k = board.hex_index[h]
            for s in range(self.stop_start[k], self.stop_start[k + 1]):
                if s in starts:
                    continue
                if queued[s]:
                    if not self.passable(s, corp):
                        return None
                elif joined[s] and self.passable(s, corp):
                    opened.append(s)
        return opened

    def changed_since(self, old: TrackGraph) -> list[str]:
        """The hexes whose tile differs between ``old``'s layout and this graph's, sorted:
        among those the chain of patches from ``old`` to this graph changed (read off
        :attr:`lineage`; a hex changed and changed back drops out), else found by
        comparing the two layouts."""
        if old.layout is self.layout:  # bound copies of one graph: the same layout
            return []
        hexes: set[str] = set()
        for layout, changed in self.lineage:
            hexes.update(changed)
            if layout is old.layout:
                now, then = self.tiles, old.tiles
                return sorted([h for h in hexes if now.get(h) != then.get(h)])
        return sorted({h for h, _ in self.tiles.items() ^ old.tiles.items()})

    def joins_other(
        self,
        corp: str,
        stations: Iterable[str],
        excluded: Collection[str],
        kept: _KeptTokens | None = None,
    ) -> bool:
        """Does :meth:`reach` join a station of ``corp`` to a stop that is not one of its
        stations nor on an ``excluded`` hex (a stop of ``joined`` not in ``own``)?

        The walk of :meth:`reach`, stopped at the first such stop (:meth:`_follow`'s
        ``until``): the stops a walk reaches do not depend on the order it takes the paths
        in, so a stop found on the way is one the whole walk finds, and a walk that ends
        without one is the whole walk.  The stopped walk is dropped.  ``kept``: as for
        :meth:`reach`."""
        extra = frozenset(stations)
        if kept is None:
            kept = self.state._kept_tokens()
        starts = self.station_stops(corp, extra, kept)
        own = set(starts)
        stops = self.stops
        w = self._new_walk(corp, extra, starts, kept[2])

        def other(n: int) -> bool:
            return n not in own and stops[n][0] not in excluded

        _, joined = self._follow(w, list(starts), until=other)
        return bool(joined) and other(joined[-1])

    def _follow(
        self, w: _Walk, todo: list[int], until: Callable[[int], bool] | None = None
    ) -> tuple[list[int], list[int]]:
        """Walk on from the states in ``todo`` (stop ids, or sides entered from a hex:
        ``~(side << 16 | hex number)``), adding to ``w``; returns the paths and the stops
        the walk reached for the first time.  ``until``: stop as soon as a newly reached
        stop satisfies it (the last of the stops returned; the walk is then not whole,
        and must not be walked on from)."""
        return _walk(
            self.ends,
            self.stop_paths,
            self.side_paths,
            self.stops,
            self.faces,
            self.state.tokens,
            w.corp,
            w.queued,
            w.joined,
            w.done,
            w.seen,
            todo,
            self.board.path_stride,
            until,
        )

    def _add_edges(self, edges: dict[str, int], pids: list[int], starts: Iterable[int]) -> None:
        """Add to ``edges`` (hex -> bitmask of edges) the edges of these paths (and the
        opposite edges on the neighbours) and every edge of the hexes of these stations."""
        _gather_edges(edges, self.touch, self.board.hex_ids, pids)
        stops = self.stops
        for s in starts:
            edges[stops[s][0]] = ALL_EDGES


def _gather_edges(
    edges: dict[str, int],
    touch: list[tuple[tuple[int, int], ...]],
    hex_ids: list[str],
    pids: list[int],
) -> None:
    """OR into ``edges`` (hex -> bitmask) the edges the paths ``pids`` reach (``touch``: a
    graph's table of them, by hex number): gathered hex by hex first, so that each hex is
    looked up in ``edges`` once, not once per path touching it (a module function, its
    locals typed by map.pxd when compiled)."""
    if not pids:
        return
    acc = [0] * len(hex_ids)
    order: list[int] = []
    for pid in pids:
        for pair in touch[pid]:
            k = pair[0]
            m = pair[1]
            cur = acc[k]
            if not cur:
                order.append(k)  # (a mask is never 0: the first path touching the hex)
            acc[k] = cur | m
    for k in order:
        h = hex_ids[k]
        edges[h] = edges.get(h, 0) | acc[k]


def _walk(
    ends: list[tuple[tuple[bool, int], tuple[bool, int]]],
    stop_paths: list[tuple[int, ...]],
    side_paths: dict[int, tuple[tuple[str, int], ...]],
    all_stops: list[tuple[str, str, int]],
    faces: dict[str, Face],
    tokens: dict[str, list[list[str]]],
    corp: str,
    queued: bytearray,
    joined: bytearray,
    done: bytearray,
    seen: set[int],
    todo: list[int],
    stride: int,
    until: Callable[[int], bool] | None,
) -> tuple[list[int], list[int]]:
    """The walk of :meth:`TrackGraph._follow` over the graph's tables (a module function,
    its locals typed by map.pxd when compiled): from the states in ``todo``, following
    paths (``ends``), adding to ``queued``, ``joined``, ``done`` and ``seen``."""
    new_done: list[int] = []
    new_joined: list[int] = []
    while todo:
        x = todo.pop()
        if x >= 0:
            from_stop = True
            frm = x
            pids: tuple[Any, ...] = stop_paths[x]  # (path ids here, (hex, path) pairs below)
        else:
            from_stop = False
            frm = ~x >> 16
            came = ~x & 0xFFFF
            pids = side_paths.get(frm, ())  # (hex, path) pairs: the other hex's paths taken
        # (``p``, ``m`` and ``y`` are the ids as the sets and lists hold them, ``pid`` and
        # ``n`` as numbers: compiled, each id is made an object once, not at every use)
        for item in pids:
            p = item if from_stop else item[1]
            pid = p
            if not from_stop and pid // stride == came:
                continue  # (a path of the hex the walk came from)
            if not done[pid]:
                done[pid] = 1
                new_done.append(p)
            both = ends[pid]
            end = both[0]
            at_stop = end[0]
            if at_stop == from_stop and end[1] == frm:
                end = both[1]  # (the other end)
                at_stop = end[0]
            m = end[1]
            if not at_stop:
                n = m
                y = ~(n << 16 | pid // stride)
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
                continue
            n = m
            if joined[n]:
                continue  # followed or blocked already
            joined[n] = 1
            new_joined.append(m)
            if until is not None and until(m):
                return new_done, new_joined
            if queued[n]:
                continue
            h, kind, i = all_stops[n]
            if kind == "offboard":
                continue
            if kind == "city":
                cities = tokens.get(h)
                toks = cities[i] if cities is not None and i < len(cities) else ()
                if corp not in toks and len(toks) >= faces[h].cities[i].slots:
                    continue  # blocked: the walk ends here
            queued[n] = 1
            todo.append(m)
    return new_done, new_joined


# ---------------------------------------------------------------------------------------
# board


class Board:
    """Static, precomputed view of the compiled map (built once per title).

    It takes the typed records of the compiled document (:mod:`eighteen.compiled`): the
    hexes, the tile manifest, the corporations (their homes), ``first_tiles`` and
    ``upgrades``; :meth:`of` takes them from a whole :class:`CompiledTitle`. The board
    never changes; the position lives in a :class:`MapState` passed to every method.
    """

    def __init__(
        self,
        hexes: Mapping[str, CompiledHex],
        tiles: Mapping[str, CompiledTile],
        *,
        corporations: Iterable[Corporation] = (),
        first_tiles: Mapping[str, Mapping[str, Sequence[int]]] | None = None,
        upgrades: Mapping[str, Mapping[str, Sequence[int]]] | None = None,
    ) -> None:
        self.hexes: dict[str, CompiledHex] = dict(hexes)
        self.tiles: dict[str, CompiledTile] = dict(tiles)
        self.first_tiles: dict[str, Mapping[str, Sequence[int]]] = dict(first_tiles or {})
        self.upgrades: dict[str, Mapping[str, Sequence[int]]] = dict(upgrades or {})
        self.corporations: dict[str, Corporation] = {c.id: c for c in corporations}
        self.hex_ids: list[str] = sorted(self.hexes)
        self.neighbors: dict[str, list[str | None]] = {}
        self.usable: dict[str, frozenset[int]] = {}
        for h, d in self.hexes.items():
            self.neighbors[h] = [n if n in self.hexes else None for n in d.neighbors]
            self.usable[h] = frozenset(d.usable_edges)
        # Global ids of hex sides: (hex, edge) and the neighbour's opposite edge share one id.
        self.side_id: dict[tuple[str, int], int] = {}
        self.sides: list[tuple[str, int]] = []
        for h in self.hex_ids:
            for e in range(6):
                if (h, e) in self.side_id:
                    continue
                sid = len(self.sides)
                self.sides.append((h, e))
                self.side_id[(h, e)] = sid
                nb = self.neighbors[h][e]
                if nb is not None:
                    self.side_id[(nb, (e + 3) % 6)] = sid
        self._face_cache: dict[tuple[str, str | None, int], Face] = {}
        #: (tile, rotation) -> the face it shows on any hex (:meth:`_template`)
        self._templates: dict[tuple[str, int], Face] = {}
        #: global side id -> cost of the bridge, tunnel or pass on it (costed borders)
        self.side_cost: dict[int, int] = {}
        for h, d in self.hexes.items():
            for b in d.borders:
                if b.cost and (h, b.edge) in self.side_id:
                    sid = self.side_id[(h, b.edge)]
                    self.side_cost[sid] = max(self.side_cost.get(sid, 0), b.cost)
        self._fragments: dict[tuple[str, str | None, int], _Fragment] = {}
        self._lay_tables: dict[tuple[str, tuple[str, int] | None], _LayTable] = {}
        self._caches: dict[str, dict[Hashable, Any]] = {}
        self.hex_index: dict[str, int] = {h: k for k, h in enumerate(self.hex_ids)}
        #: per hex, the walk states of entering it from each neighbour, in edge order
        #: (``~(side << 16 | neighbour's number)``, see :meth:`TrackGraph._follow`)
        self.entries: dict[str, list[int]] = {
            h: [
                ~(self.side_id[(h, e)] << 16 | self.hex_index[nb])
                for e, nb in enumerate(self.neighbors[h])
                if nb is not None
            ]
            for h in self.hex_ids
        }
        #: path ids each hex owns in a track graph: the most paths a face may have
        self.path_stride = max(
            1,
            *(_path_count(d, d.offboard) for d in self.hexes.values()),
            *(_path_count(t) for t in self.tiles.values()),
        )
        self._last_graph: TrackGraph | None = None
        self._last_reach: dict[tuple[str, frozenset[str]], Reach] = {}
        #: the walks made since the caches were last cleared, by kind: ``on`` (a reach
        #: walked on from the corporation's last one), ``over`` (a last reach that could
        #: not be walked on from: walked afresh), ``fresh`` (no last reach), ``stopped``
        #: (a walk stopped at the first other stop, :meth:`joins_other`); for benchmarks
        #: and tests (the compiled graph's methods cannot be wrapped to count them)
        self.walks: dict[str, int] = dict.fromkeys(WALK_KINDS, 0)

    @classmethod
    def of(cls, doc: CompiledTitle) -> Board:
        """The board of a compiled title (``Tables.doc``)."""
        return cls(
            doc.hexes,
            doc.tiles,
            corporations=doc.corporations,
            first_tiles=doc.first_tiles,
            upgrades=doc.upgrades,
        )

    # -- caches -----------------------------------------------------------------------

    #: Entries kept per cache (the oldest dropped first: a hit does not move an entry,
    #: which would hash its key a second time; the positions a game asks about again are
    #: its recent ones, so the oldest entry is the least likely to be asked for).
    CACHE_SIZE = 64

    def clear_caches(self) -> None:
        """Forget every cached graph, reach and route search (benchmarks, tests)."""
        self._caches.clear()
        self._last_graph = None
        self._last_reach.clear()
        self.walks = dict.fromkeys(WALK_KINDS, 0)

    def cached(self, cache: str, key: Hashable, compute: Callable[[], _T]) -> _T:
        """Memoise ``compute()`` under ``key`` in the named bounded cache of this board.

        The board is static, so anything derived from it and a position can be kept here,
        keyed by the position's fingerprints (:meth:`MapState.track_key`,
        :meth:`MapState.token_key`). Cached values are shared: callers must not mutate them.
        """
        value = self._kept(cache, key)
        if value is NOT_KEPT:  # (a miss raising KeyError cost more than the lookup)
            value = self._keep(cache, key, compute())
        return value

    def _kept(self, cache: str, key: Hashable) -> Any:
        """What the named cache keeps under ``key`` (``NOT_KEPT``: nothing); the hot
        callers ask this and :meth:`_keep` themselves, with no closure to make."""
        c = self._caches.get(cache)
        return NOT_KEPT if c is None else c.get(key, NOT_KEPT)

    def _keep(self, cache: str, key: Hashable, value: Any) -> Any:
        """Keep ``value`` under ``key`` in the named cache (its oldest entry dropped when
        it is full); returns ``value``."""
        c = self._caches.get(cache)
        if c is None:
            c = self._caches[cache] = {}
        c[key] = value
        if len(c) > self.CACHE_SIZE:
            del c[next(iter(c))]
        return value

    # -- faces ------------------------------------------------------------------------

    def face(self, state: MapState, hex_id: str) -> Face:
        """Current cities/towns/track/offboard of a hex with ABSOLUTE edges, revenues, slots."""
        if hex_id not in self.hexes:
            raise MapError(f"unknown hex {hex_id}")
        tile, rot = state.tiles.get(hex_id, (None, 0))
        return self.tile_face(hex_id, tile, rot)

    def tile_face(self, hex_id: str, tile: str | None, rotation: int = 0) -> Face:
        """The face ``hex_id`` would show with ``tile`` at ``rotation`` (None: printed face)."""
        key = (hex_id, tile, rotation % 6)
        f = self._face_cache.get(key)
        if f is None:
            if tile is None:
                d = self.hexes[hex_id]
                f = _build_face(hex_id, d, None, 0, d.color.value)
            else:
                if tile not in self.tiles:
                    raise MapError(f"unknown tile {tile}")
                t = self._template(tile, rotation)
                f = Face(
                    hex_id,
                    tile,
                    t.rotation,
                    t.color,
                    t.label,
                    t.cities,
                    t.towns,
                    t.track,
                    t.offboard,
                )
            self._face_cache[key] = f
        return f

    def fragment(self, face: Face) -> _Fragment:
        """The graph fragment of a face (cached per hex, tile and rotation)."""
        key = (face.hex, face.tile, face.rotation)
        frag = self._fragments.get(key)
        if frag is not None:
            return frag
        h = face.hex
        stops = [(h, "city", i) for i in range(len(face.cities))]
        stops += [(h, "town", i) for i in range(len(face.towns))]
        if face.offboard is not None:
            stops.append((h, "offboard", 0))
        stops.sort()
        local = {s: i for i, s in enumerate(stops)}
        paths = []
        for p in face.paths:
            ends: list[tuple[bool, int]] = []
            mask = 0
            for x in p.ends:
                if x[0] == "e":
                    sid = self.side_id[(h, int(x[1:]))]
                    ends.append((False, sid))
                    mask |= 1 << sid
                else:
                    ends.append((True, local[(h, LETTER_KIND[x[0]], int(x[1:]))]))
            reached: dict[str, int] = {}  # hex -> bitmask of the edges the path reaches
            for e in p.edges:
                reached[h] = reached.get(h, 0) | 1 << e
                nb = self.neighbors[h][e]
                if nb is not None:
                    reached[nb] = reached.get(nb, 0) | 1 << (e + 3) % 6
            paths.append(
                (p, tuple(ends), mask, tuple([(self.hex_index[h], m) for h, m in reached.items()]))
            )
        frag = self._fragments[key] = _Fragment(tuple(stops), tuple(paths))
        return frag

    def graph(self, state: MapState) -> TrackGraph:
        """The track graph of a position (see :class:`TrackGraph`).

        Built once per tile layout (cached by :meth:`MapState.track_key`), made current
        (:meth:`TrackGraph.current`) and bound to ``state`` for its tokens.  A new layout is the last graph made with its changed
        hexes replaced, when few hexes changed (:meth:`TrackGraph.patched`).
        """
        key = state.track_key()
        g = self._kept("graph", key)
        if g is NOT_KEPT:
            g = self._keep("graph", key, self._new_graph(state, key))
        else:
            g.current()  # (its tables may hold another graph's since it was made)
        return g.bind(state)

    #: Most hexes a layout may differ by from the last graph made to be patched from it.
    PATCH_LIMIT = 4
    #: Most hexes a layout may differ by from a corporation's last reach to be walked on
    #: from it (:meth:`TrackGraph.extend`; a corporation's turns are some lays apart).
    EXTEND_LIMIT = 16

    def _new_graph(
        self, state: MapState, key: frozenset[tuple[str, tuple[str, int]]]
    ) -> TrackGraph:
        """A graph of the layout of ``state`` (whose :meth:`MapState.track_key` is ``key``:
        the graph keeps that very key, so that keys made of it compare at once): the last
        graph made, patched where the layouts differ (one hex when the state's key is one
        lay on from the last graph's, :meth:`MapState.track_step`), or made afresh."""
        last = self._last_graph
        g = None
        if last is not None:
            step = state.track_step()
            if step is not None and last._track_key is step[0]:
                changed = [step[1]]  # one lay on the last graph's layout
            else:
                old, new = last.tiles, state.tiles
                # (a hex whose tile was not laid again holds the very tuple the last graph
                # copied: compared by identity first, by value only when it is another)
                changed = [h for h, v in new.items() if old.get(h) is not v and old.get(h) != v]
                changed += [h for h in old if h not in new]  # a laid tile gone (test setups)
            if len(changed) <= self.PATCH_LIMIT:
                g = last.patched(state, changed)
        if g is None:
            g = TrackGraph(self, state)
        g._track_key = key
        self._last_graph = g
        return g

    def reach(self, state: MapState, corp: str, stations: Iterable[str] = ()) -> Reach:
        """What ``corp``'s network reaches now (see :meth:`TrackGraph.reach`; ``stations``:
        hexes where it has a virtual station).

        Cached by (tiles, tokens, corporation, stations); the result is shared, do not
        mutate it.
        """
        extra = frozenset(stations)
        kept = state._kept_tokens()  # (the tokens compared once for the key and the walk)
        key = (state.track_key(), kept[1], corp, extra)
        r = self._kept("reach", key)
        if r is NOT_KEPT:
            r = self._keep("reach", key, self._new_reach(state, corp, extra, kept))
        return r

    def _new_reach(
        self, state: MapState, corp: str, stations: frozenset[str], kept: _KeptTokens
    ) -> Reach:
        """The reach walked on from the last one found for the corporation when the board
        only grew for it since (:meth:`TrackGraph.extend`), else walked afresh.  Only the
        last reach keeps its walk (no other is walked on from): the walk of the one it
        replaces, and the graph that walk holds, are let go."""
        g = self.graph(state)
        prev = self._last_reach.get((corp, stations))
        r = g.extend(prev, corp, stations, kept) if prev is not None else None
        walks = self.walks
        if r is None:
            r = g.reach(corp, stations, kept)
            if prev is not None:
                prev.walk = None
                walks["over"] += 1
            else:
                walks["fresh"] += 1
        else:
            walks["on"] += 1
        self._last_reach[(corp, stations)] = r
        return r

    def joins_other(
        self,
        state: MapState,
        corp: str,
        stations: Iterable[str] = (),
        excluded: Collection[str] = (),
    ) -> bool:
        """Does ``corp``'s network join one of its stations to a stop that is not one of
        its stations nor on an ``excluded`` hex (``stations``: hexes of virtual stations,
        as for :meth:`reach`)?  The same answer as reading :meth:`reach`'s ``joined``
        and ``own``: read off the reach when it is kept, else walked only until such a
        stop turns up (:meth:`TrackGraph.joins_other`), without making the whole reach.
        Cached as :meth:`reach` is, with ``excluded``."""
        extra = frozenset(stations)
        kept = state._kept_tokens()
        tk, ok = state.track_key(), kept[1]
        reaches = self._caches.get("reach")
        known = reaches.get((tk, ok, corp, extra)) if reaches is not None else None
        if isinstance(known, Reach):
            return known.joins_other(excluded)
        last = self._last_reach.get((corp, extra))
        g = None  # (the graph, once looked up)
        if last is not None and last.joins_other(excluded):
            g = self.graph(state)
            if g.keeps(last, corp, extra, kept):
                return True  # (what the last reach joined is joined still)
        key = (tk, ok, corp, extra, frozenset(excluded))
        found = self._kept("joins", key)
        if found is NOT_KEPT:
            if g is None:
                g = self.graph(state)
            found = self._keep("joins", key, self._stopped_walk(g, corp, extra, excluded, kept))
        return found

    def _stopped_walk(
        self,
        g: TrackGraph,
        corp: str,
        stations: frozenset[str],
        excluded: Collection[str],
        kept: _KeptTokens,
    ) -> bool:
        """:meth:`joins_other` answered on ``g`` by a walk stopped at the first other
        stop (counted in :attr:`walks`)."""
        self.walks["stopped"] += 1
        return g.joins_other(corp, stations, excluded, kept)

    # -- tiles ------------------------------------------------------------------------

    def _candidates(self, state: MapState, hex_id: str) -> list[tuple[str, list[int], bool]]:
        """(tile, absolute rotations, is upgrade) the tables allow on a hex now."""
        out: list[tuple[str, list[int], bool]] = []
        if hex_id in state.tiles:
            old, r = state.tiles[hex_id]
            for new, ds in self.upgrades.get(old, {}).items():
                out.append((new, sorted({(r + d) % 6 for d in ds}), True))
        else:
            for new, rots in self.first_tiles.get(hex_id, {}).items():
                out.append((new, sorted(set(rots)), False))
            for new, rots in self.upgrades.get(hex_id, {}).items():
                out.append((new, sorted(set(rots)), True))
        return out

    def lay_options(self, *args: Any, **kw: Any) -> list[TileLay]:
        """Every legal tile lay, as a list (see :meth:`iter_lay_options`)."""
        return list(self.iter_lay_options(*args, **kw))

    def iter_lay_options(
        self,
        state: MapState,
        corp: str | None,
        colors: Collection[str],
        *,
        blocked: set[str],
        tile_supply: Mapping[str, int | None],
        require_connection: bool = True,
        hexes: set[str] | None = None,
        tiles: set[str] | None = None,
        distinct: bool = False,
        stations: Iterable[str] = (),
    ) -> Iterator[TileLay]:
        """Every legal tile lay for ``corp`` now, sorted by (hex, tile, rotation), one by
        one (the caller may stop at the first).

        Rules (reference facts §8.2; compiled tables docs/compiled-format.md):

        * new tiles on an empty hex come from ``first_tiles`` (absolute rotations); upgrades
          from ``upgrades``: keyed by the laid tile (rotations relative to the old tile's)
          or, for a preprinted yellow face, by the hex (absolute rotations);
        * every exit of the new tile must be one of the hex's ``usable_edges``;
        * the tile's colour is in ``colors`` (the phase), it is in supply
          (``tile_supply[tile]`` > 0, or None = unlimited; a missing tile is not in supply),
          the hex is not in ``blocked``;
        * connection (unless ``require_connection`` is False, for private powers): some exit
          of the new tile is an edge the corporation reaches (:meth:`TrackGraph.reach`);
        * terrain cost: the hex's cost when the printed face is replaced (first tile on a
          white hex, first upgrade of a preprinted yellow hex); 0 afterwards; plus the cost
          of each bridge, tunnel or pass (a costed side) the lay completes: the new tile has
          track across it, the neighbour has track to it, and the old face had none there
          (so each is paid once, by the lay that joins the two sides).

        ``hexes`` / ``tiles`` restrict the search. ``distinct`` keeps one rotation among
        rotations that give the same track (e.g. a straight at 0 and 3). ``stations``: hexes
        where the corporation has a virtual station (its network starts there too).
        """
        if require_connection and corp is None:
            raise ValueError("lay_options: a connection needs a corporation")
        found = self.reach(state, corp, stations) if require_connection and corp else None
        reach = found.edges if found is not None else None
        # the hexes the network reaches, not the whole board, when a connection is needed
        if hexes is not None:
            pool = sorted(hexes)
        else:
            pool = found.hex_order() if found is not None else self.hex_ids  # both sorted
        laid = state.tiles
        for h in pool:
            if h in blocked or h not in self.hexes:
                continue
            near = None
            if reach is not None:
                near = reach.get(h)
                if not near:
                    continue
            for tile, upgrade, color, turns in self._lay_table(h, laid.get(h)):
                if tiles is not None and tile not in tiles:
                    continue
                if not _on_offer(tile, color, colors, tile_supply):
                    continue
                seen: set[frozenset[tuple[str, str]]] | None = None
                for r, exits, sig, bits in turns:
                    if near is not None and not bits & near:
                        continue
                    if distinct:
                        if seen is None:
                            seen = {sig}
                        elif sig in seen:
                            continue
                        else:
                            seen.add(sig)
                    yield TileLay(h, tile, r, self._lay_cost(state, h, exits), upgrade)

    def any_lay(
        self,
        state: MapState,
        corp: str,
        colors: Collection[str],
        blocked: set[str],
        tile_supply: Mapping[str, int | None],
        stations: Iterable[str],
        fees: Mapping[str, int],
        cash: int,
    ) -> bool:
        """Is one of :meth:`iter_lay_options`' lays for ``corp`` (its network joined) of a
        kind ``fees`` holds ("new", "upgrade") and payable: its cost and the kind's fee
        at most ``cash``?  The question a step asks at a turn's start (may it lay at
        all), answered without making the lays: the hexes in the order its reach holds
        them (any order gives the same answer), stopped at the first."""
        reach = self.reach(state, corp, stations).edges
        laid = state.tiles
        hexes = self.hexes
        for h, near in reach.items():
            if not near or h in blocked or h not in hexes:
                continue
            for tile, upgrade, color, turns in self._lay_table(h, laid.get(h)):
                fee = fees.get("upgrade" if upgrade else "new")
                if fee is None or not _on_offer(tile, color, colors, tile_supply):
                    continue
                for _r, exits, _sig, bits in turns:
                    if bits & near and self._lay_cost(state, h, exits) + fee <= cash:
                        return True
        return False

    def _lay_table(self, hex_id: str, laid: tuple[str, int] | None) -> _LayTable:
        """The lay table of a hex showing ``laid`` (:meth:`_new_lay_table`), kept in
        ``_lay_tables``, made on the first asking."""
        table = self._lay_tables.get((hex_id, laid))
        return table if table is not None else self._new_lay_table(hex_id, laid)

    def _lay_cost(self, state: MapState, hex_id: str, exits: Iterable[int]) -> int:
        """What a lay with these ``exits`` costs (:meth:`iter_lay_options`): the hex's
        terrain when its printed face is replaced (no tile laid there yet), and each
        costed side the lay completes."""
        cost = 0 if hex_id in state.tiles else self.hexes[hex_id].cost
        return cost + (self._completed_sides(state, hex_id, exits) if self.side_cost else 0)

    def _new_lay_table(self, hex_id: str, laid: tuple[str, int] | None) -> _LayTable:
        """What :meth:`iter_lay_options` reads of the tables for a hex showing ``laid``
        (its laid tile and rotation; None: its printed face), worked out once: each
        candidate tile (:meth:`_candidates`, in order) with whether it upgrades, its
        colour, and its rotations whose exits are all usable edges of the hex, each with
        those exits, its track (the signature of ``distinct``) and the exits as a bitmask
        (read against a reach's :attr:`Reach.edges`); kept in
        ``_lay_tables`` under (hex, laid), where :meth:`_lay_table` looks first."""
        usable = self.usable[hex_id]
        state = MapState(tiles={hex_id: laid} if laid is not None else {})
        table = []
        for tile, rots, upgrade in sorted(self._candidates(state, hex_id)):
            td = self.tiles.get(tile)
            if td is None:
                continue
            turns = []
            for r in rots:
                exits = frozenset(rotate_exits(td.exits, r))
                if exits <= usable:
                    bits = sum(1 << e for e in exits)
                    turns.append((r, exits, self._template(tile, r).signature, bits))
            table.append((tile, upgrade, td.color.value, turns))
        self._lay_tables[(hex_id, laid)] = table
        return table

    def _template(self, tile: str, rotation: int) -> Face:
        """The face ``tile`` shows at ``rotation`` on any hex (its ``hex`` empty): read
        once per tile and rotation, its parts shared by the faces of every hex."""
        turn = (tile, rotation % 6)
        f = self._templates.get(turn)
        if f is None:
            t = self.tiles[tile]
            f = self._templates[turn] = _build_face("", t, tile, turn[1], t.color.value)
        return f

    def _completed_sides(self, state: MapState, hex_id: str, exits: Iterable[int]) -> int:
        """Cost of the costed sides a tile with these exits on ``hex_id`` completes."""
        total = 0
        old = None
        for e in exits:
            cost = self.side_cost.get(self.side_id.get((hex_id, e), -1))
            if not cost:
                continue
            nb = self.neighbors[hex_id][e]
            if nb is None or (e + 3) % 6 not in self.face(state, nb).exits:
                continue
            if old is None:
                old = self.face(state, hex_id).exits
            if e not in old:
                total += cost
        return total

    def city_map(self, old: Face, new: Face) -> list[int]:
        """For each city of ``old``, the city of ``new`` that takes its tokens.

        An old city with track goes to the new city containing all its exits; old cities
        without track (a printed, trackless face) keep their index when it is free, else
        take the lowest free new city.
        """
        mapping: list[int | None] = [None] * len(old.cities)
        for i, c in enumerate(old.cities):
            if not c.exits:
                continue
            for j, nc in enumerate(new.cities):
                if set(c.exits) <= set(nc.exits):
                    mapping[i] = j
                    break
            else:
                raise MapError(f"{old.hex}: no city of the new tile keeps city {i}'s track")
        used = {j for j in mapping if j is not None}
        for i in range(len(old.cities)):
            if mapping[i] is not None:
                continue
            if i < len(new.cities) and i not in used:
                j = i
            else:
                free = [j for j in range(len(new.cities)) if j not in used]
                if not free:
                    raise MapError(f"{old.hex}: the new tile has no city for city {i}")
                j = free[0]
            mapping[i] = j
            used.add(j)
        return [j for j in mapping if j is not None]

    def lay_tile(self, state: MapState, hex_id: str, tile: str, rotation: int) -> str | None:
        """Place ``tile`` at ``rotation`` on ``hex_id`` and move its tokens (mutates ``state``).

        Each old city's tokens move to the new city containing its exits (see
        :meth:`city_map`). Legality is the caller's check (:meth:`lay_options`); supply is
        the caller's business. Returns the replaced tile id (None for a printed face).
        """
        old = self.face(state, hex_id)
        new = self.tile_face(hex_id, tile, rotation)
        old_tokens = state.tokens.get(hex_id)
        if old_tokens is not None and any(old_tokens):
            mapping = self.city_map(old, new)
            moved: list[list[str]] = [[] for _ in new.cities]
            for i, toks in enumerate(old_tokens):
                if toks:
                    moved[mapping[i]].extend(toks)
            for j, toks in enumerate(moved):
                if len(toks) > new.cities[j].slots:
                    raise MapError(f"{hex_id}: city {j} of tile {tile} cannot hold {toks}")
            state.tokens[hex_id] = moved
        elif old_tokens is not None:
            state.tokens[hex_id] = [[] for _ in new.cities]
        state.tiles[hex_id] = (tile, rotation % 6)
        return old.tile

    # -- tokens -----------------------------------------------------------------------

    def home_city(self, state: MapState, corp: str) -> int | None:
        """Current index of ``corp``'s fixed home city on its home hex (None if not fixed).

        A single-city home hex is fixed at city 0. A fixed index names a city of the printed
        face; after upgrades the home is the current city containing that city's exits.
        """
        c = self.corporations.get(corp)
        if c is None or not c.home:
            return None
        h = c.home
        face = self.face(state, h)
        if not face.cities:
            return None
        idx = c.city
        if idx is None:
            return 0 if len(face.cities) == 1 else None
        if h not in state.tiles:
            return idx
        printed = self.tile_face(h, None)
        if idx < len(printed.cities) and printed.cities[idx].exits:
            want = set(printed.cities[idx].exits)
            for j, nc in enumerate(face.cities):
                if want <= set(nc.exits):
                    return j
        return idx if idx < len(face.cities) else None

    def _reserved_cities(self, state: MapState, holder: str, hex_id: str) -> set[int] | None:
        """Cities of ``hex_id`` held by ``holder``'s reservation (None: the whole hex)."""
        face = self.face(state, hex_id)
        c = self.corporations.get(holder)
        if c is not None and c.home == hex_id:
            fixed = self.home_city(state, holder)
            return None if fixed is None else {fixed}
        return {0} if len(face.cities) == 1 else None

    def free_slots(self, state: MapState, hex_id: str, city: int) -> int:
        """Empty slots of a city (not counting reservations)."""
        face = self.face(state, hex_id)
        return face.cities[city].slots - len(state.city_tokens(hex_id, city))

    def token_options(
        self,
        state: MapState,
        corp: str,
        *,
        reserved: Mapping[str, Iterable[str]],
        require_connection: bool = True,
        hexes: set[str] | None = None,
        stations: Iterable[str] = (),
    ) -> Iterator[tuple[str, int]]:
        """Legal (hex, city index) for a new station token of ``corp``, sorted, one by one
        (the caller may stop at the first).

        Rules (seed 002, tokens): the city is reached by the corporation's network (its
        track, not passing cities full of other corporations' tokens; its own tokens let
        it pass), it has a free slot, the corporation has no token on that hex yet, and the
        slot is not held for another corporation's home that is not placed yet.
        ``reserved`` maps hex -> corporations still holding a reservation there; each
        reservation takes one slot of its home city, or, when the home city index is not
        fixed on a multi-city hex, closes every city of the hex until the owner places its
        home. ``require_connection=False`` (private powers) drops the network check;
        ``stations``: hexes where the corporation has a virtual station.
        """
        if require_connection:
            candidates = sorted(self.reach(state, corp, stations).cities)
        else:
            candidates = [
                (h, i) for h in self.hex_ids for i in range(len(self.face(state, h).cities))
            ]
        for h, i in candidates:
            if hexes is not None and h not in hexes:
                continue
            if any(corp in toks for toks in state.tokens.get(h, [])):
                continue
            free = self.free_slots(state, h, i)
            for holder in reserved.get(h, []):
                if holder == corp:
                    continue
                cities = self._reserved_cities(state, holder, h)
                if cities is None or i in cities:
                    free -= 1
                    if cities is None:
                        free = 0
            if free > 0:
                yield (h, i)

    def place_token(self, state: MapState, corp: str, hex_id: str, city: int) -> None:
        """Put ``corp``'s token in a free slot of a city (mutates ``state``).

        Legality is the caller's check (:meth:`token_options`, :meth:`home_city_options`);
        this only refuses an unknown city or a full one.
        """
        face = self.face(state, hex_id)
        if not 0 <= city < len(face.cities):
            raise MapError(f"{hex_id} has no city {city}")
        cities = state.tokens.setdefault(hex_id, [[] for _ in face.cities])
        while len(cities) < len(face.cities):
            cities.append([])
        if len(cities[city]) >= face.cities[city].slots:
            raise MapError(f"{hex_id} city {city} is full")
        cities[city].append(corp)

    def home_waits(self, state: MapState, corp: str) -> bool:
        """Does ``corp``'s choice of home city wait for track?  Seed 002: a corporation
        picks one of the two cities of its home hex and may not move it after; the pick is
        made once a tile with track lies there (a multi-city home hex with no fixed city
        that still shows a trackless printed face)."""
        c = self.corporations.get(corp)
        if c is None or not c.home or c.city is not None:
            return False
        h = c.home
        face = self.face(state, h)
        return len(face.cities) > 1 and h not in state.tiles and not face.exits

    def home_city_options(
        self, state: MapState, corp: str, *, reserved: Mapping[str, Iterable[str]] | None = None
    ) -> list[int]:
        """City indexes on ``corp``'s home hex that its home token may take.

        A fixed home city (its index, or the only city) if it has a free slot. On a
        multi-city home hex with no fixed index (seed 002: a home chosen among two cities):
        none while the hex still shows a trackless printed face (:meth:`home_waits`), else
        any city with a free slot (and not held by another corporation's reservation in
        ``reserved``).
        """
        c = self.corporations.get(corp)
        if c is None or not c.home:
            return []
        h = c.home
        face = self.face(state, h)
        if not face.cities:
            return []
        fixed = self.home_city(state, corp)
        if fixed is not None:
            return [fixed] if self.free_slots(state, h, fixed) > 0 else []
        if self.home_waits(state, corp):
            return []
        out = []
        for i in range(len(face.cities)):
            free = self.free_slots(state, h, i)
            for holder in (reserved or {}).get(h, []):
                if holder != corp:
                    cities = self._reserved_cities(state, holder, h)
                    if cities is not None and i in cities:
                        free -= 1
            if free > 0:
                out.append(i)
        return out
