"""The board (:class:`Board`): the compiled map, and what the rounds ask of it on a
position: the faces its hexes show, the track graph and each corporation's reach (kept per
position), the legal tile lays and station tokens, a lay and a token placed.  The position
itself is :mod:`eighteen.engine.position`'s, a face :mod:`eighteen.engine.face`'s, the
graph :mod:`eighteen.engine.graph`'s and the walk :mod:`eighteen.engine.reach`'s.

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
from typing import Any, TypeVar

from eighteen.compiled import CompiledHex, CompiledTile, CompiledTitle
from eighteen.engine.face import (
    LETTER_KIND,
    Face,
    Fragment,
    MapError,
    TileLay,
    build_face,
    path_count,
)
from eighteen.engine.graph import TrackGraph
from eighteen.engine.position import KeptTokens, MapState
from eighteen.engine.reach import Reach
from eighteen.faces import rotate_exits
from eighteen.title.model import Corporation

_T = TypeVar("_T")


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


#: What :meth:`Board._kept` finds for a key a cache does not hold.
NOT_KEPT = object()

#: A tile at one rotation in a lay table (:meth:`Board._new_turn`): (rotation, exits,
#: track signature, exits as a bitmask).
_Turn = tuple[int, frozenset[int], frozenset[tuple[str, str]], int]
#: A hex's lay table (:meth:`Board._new_lay_table`): per candidate tile (tile, upgrade,
#: colour, its rotations that fit the hex).
_LayTable = list[tuple[str, bool, str, list[_Turn]]]


#: The kinds of walk :attr:`Board.walks` counts.
WALK_KINDS = ("on", "over", "fresh", "stopped")


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
        self._fragments: dict[tuple[str, str | None, int], Fragment] = {}
        self._lay_tables: dict[tuple[str, tuple[str, int] | None], _LayTable] = {}
        #: (tile, rotation) -> a lay table's entry for it (:meth:`_new_turn`)
        self._turns: dict[tuple[str, int], _Turn] = {}
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
            *(path_count(d, d.offboard) for d in self.hexes.values()),
            *(path_count(t) for t in self.tiles.values()),
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

    def prepare(self) -> None:
        """Make every hex's lay tables and faces now (the engine's boards,
        :func:`eighteen.engine.network.board_of`): those of its printed face and of each
        tile and rotation a chain of lays from it can show. They follow from the tables
        alone; made on first asking, they fell on the action that first needed them in
        the process, late in a game for its brown and gray upgrades."""
        for h in self.hex_ids:
            self.tile_face(h, None)
            seen: set[tuple[str, int] | None] = {None}
            todo: list[tuple[str, int] | None] = [None]
            while todo:
                laid = todo.pop()
                for tile, _upgrade, _color, turns in self._lay_table(h, laid):
                    for r, _exits, _sig, _bits in turns:
                        if (tile, r) not in seen:
                            seen.add((tile, r))
                            todo.append((tile, r))
                            self.tile_face(h, tile, r)

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
                f = build_face(hex_id, d, None, 0, d.color.value)
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

    def fragment(self, face: Face) -> Fragment:
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
        frag = self._fragments[key] = Fragment(tuple(stops), tuple(paths))
        return frag

    def graph(self, state: MapState) -> TrackGraph:
        """The track graph of a position (see :class:`TrackGraph`).

        Built once per tile layout (cached by :meth:`MapState.track_key`), made current
        (:meth:`TrackGraph.current`) and bound to ``state`` for its tokens.  A new layout
        is the last graph made with its changed hexes replaced, when few hexes changed
        (:meth:`TrackGraph.patched`).
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
        self, state: MapState, corp: str, stations: frozenset[str], kept: KeptTokens
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
        kept: KeptTokens,
    ) -> bool:
        """:meth:`joins_other` answered on ``g`` by a walk stopped at the first other
        stop (counted in :attr:`walks`)."""
        self.walks["stopped"] += 1
        return g.joins_other(corp, stations, excluded, kept)

    # -- tiles ------------------------------------------------------------------------

    def _candidates_on(
        self, hex_id: str, laid: tuple[str, int] | None
    ) -> list[tuple[str, list[int], bool]]:
        """(tile, absolute rotations, is upgrade) the tables allow on a hex showing
        ``laid`` (its laid tile and rotation; None: its printed face)."""
        out: list[tuple[str, list[int], bool]] = []
        if laid is not None:
            old, r = laid
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
        candidate tile (:meth:`_candidates_on`, in order) with whether it upgrades, its
        colour, and its rotations whose exits are all usable edges of the hex, each with
        those exits, its track (the signature of ``distinct``) and the exits as a bitmask
        (read against a reach's :attr:`Reach.edges`); kept in
        ``_lay_tables`` under (hex, laid), where :meth:`_lay_table` looks first."""
        usable = self.usable[hex_id]
        table = []
        for tile, rots, upgrade in sorted(self._candidates_on(hex_id, laid)):
            td = self.tiles.get(tile)
            if td is None:
                continue
            turns = []
            for r in rots:
                turn = self._turns.get((tile, r))
                if turn is None:
                    turn = self._new_turn(tile, r)
                if turn[1] <= usable:
                    turns.append(turn)
            table.append((tile, upgrade, td.color.value, turns))
        self._lay_tables[(hex_id, laid)] = table
        return table

    def _new_turn(self, tile: str, r: int) -> _Turn:
        """(rotation, exits, track signature, exits as a bitmask) of ``tile`` at rotation
        ``r`` on any hex, kept in ``_turns``."""
        exits = frozenset(rotate_exits(self.tiles[tile].exits, r))
        turn = (r, exits, self._template(tile, r).signature, sum(1 << e for e in exits))
        self._turns[(tile, r)] = turn
        return turn

    def _template(self, tile: str, rotation: int) -> Face:
        """The face ``tile`` shows at ``rotation`` on any hex (its ``hex`` empty): read
        once per tile and rotation, its parts shared by the faces of every hex."""
        turn = (tile, rotation % 6)
        f = self._templates.get(turn)
        if f is None:
            t = self.tiles[tile]
            f = self._templates[turn] = build_face("", t, tile, turn[1], t.color.value)
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

    def reserved_cities(self, state: MapState, holder: str, hex_id: str) -> set[int] | None:
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
                cities = self.reserved_cities(state, holder, h)
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
                    cities = self.reserved_cities(state, holder, h)
                    if cities is not None and i in cities:
                        free -= 1
            if free > 0:
                out.append(i)
        return out
