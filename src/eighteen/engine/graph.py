"""The track of one board position as a graph (:class:`TrackGraph`): its stops and hex
sides as nodes, each path of each face an arc; made once per tile layout, patched in place
on the hexes a lay changes, and walked for a corporation's reach (:mod:`eighteen.engine.reach`).
Generic: no title is named."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from eighteen.engine.face import Face, Fragment, Path
from eighteen.engine.reach import Reach, Walk, gather_edges, order_kept, walk

if TYPE_CHECKING:
    from eighteen.engine.map import Board
    from eighteen.engine.position import KeptTokens, MapState


def _stop_counts(face: Face) -> tuple[int, int, bool]:
    """The stops a face shows: its cities, its towns, an off-board or not."""
    return (len(face.cities), len(face.towns), face.offboard is not None)


@dataclass
class _Tables:
    """The path tables of a track graph being made (:meth:`TrackGraph.__init__`,
    :meth:`TrackGraph.patched`), as lists; the graph keeps them (changed after only by
    a patch, which the graph's version undoes, :class:`_Version`).
    (A native class when compiled, graph.pxd.)"""

    paths: list[Path]
    ends: list[tuple[tuple[bool, int], tuple[bool, int]]]
    path_sides: list[int]
    touch: list[tuple[tuple[int, int], ...]]
    stop_paths: list[tuple[int, ...]]
    side_paths: dict[int, tuple[tuple[str, int], ...]]


#: The sort key of (hex, path id) pairs: the path id.
_SECOND = itemgetter(1)

#: The path of the ids no path holds (see :class:`TrackGraph`), and its ends.
_NO_PATH = Path("", "-", "-")
_NO_ENDS = ((False, -1), (False, -1))
#: A reach's bitmask of every edge of a hex (a station's hex is reached on all six).
ALL_EDGES = 0b111111


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
    tables (:func:`eighteen.engine.route_network.network` does).  Never mutate a graph's
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
        frags: list[Fragment] = []
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

    def _add(self, k: int, frag: Fragment, t: _Tables) -> None:
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
        frags: list[tuple[str, Face, Fragment]] = []
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
    ) -> Walk:
        """A walk about to start from the stops ``starts`` (queued; joined only once the
        walk comes back to one along track)."""
        queued = bytearray(len(self.stops))
        for s in starts:
            queued[s] = 1
        return Walk(
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
        self, corp: str, stations: Iterable[str] = (), kept: KeptTokens | None = None
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
        self, corp: str, stations: Iterable[str] = (), kept: KeptTokens | None = None
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
        kept: KeptTokens | None = None,
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
            return order_kept(
                Reach(prev.edges, prev.cities, prev.stops, prev.joined, w, prev.own), prev
            )
        edges = dict(prev.edges)
        self._add_edges(edges, new_done, fresh)
        if not new_joined and not fresh:  # more track only: the stops are the same sets
            return order_kept(Reach(edges, prev.cities, prev.stops, prev.joined, w, prev.own), prev)
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
        return order_kept(Reach(edges, cities, stops, found, w, own), prev)

    def keeps(self, prev: Reach, corp: str, stations: frozenset[str], kept: KeptTokens) -> bool:
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

    def _reopened(self, w: Walk, hexes: Iterable[str], starts: Collection[int]) -> list[int] | None:
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
        kept: KeptTokens | None = None,
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
        self, w: Walk, todo: list[int], until: Callable[[int], bool] | None = None
    ) -> tuple[list[int], list[int]]:
        """Walk on from the states in ``todo`` (stop ids, or sides entered from a hex:
        ``~(side << 16 | hex number)``), adding to ``w``; returns the paths and the stops
        the walk reached for the first time.  ``until``: stop as soon as a newly reached
        stop satisfies it (the last of the stops returned; the walk is then not whole,
        and must not be walked on from)."""
        return walk(
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
        gather_edges(edges, self.touch, self.board.hex_ids, pids)
        stops = self.stops
        for s in starts:
            edges[stops[s][0]] = ALL_EDGES
