"""A corporation's route network on one position (:class:`Network`): the track it can use
cut into segments, stop to stop, and every legal route on them up to a stop limit, each
found once (steps 1 and 2 of :mod:`eighteen.engine.routefinder`'s algorithm); and whether
it has a route at all (:func:`has_route`).  Generic: no title is named."""

from __future__ import annotations

import gc
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from eighteen.engine.graph import TrackGraph
from eighteen.engine.map import Board
from eighteen.engine.position import MapState
from eighteen.engine.routes import (
    Bonus,
    Route,
    TrainRule,
    make_route,
)

#: Largest enumeration (routes) a network keeps for later calls.
CACHE_ROUTES = 50_000


class _OutOfBudget(Exception):
    """Raised inside the enumeration when the work budget is used up."""


@dataclass
class _Enumeration:
    """Routes found up to a stop limit: (stops, segments, sides) in canonical order."""

    routes: list[tuple[tuple[int, ...], tuple[int, ...], int]]
    complete: bool
    explored: int


@dataclass
class Network:
    """The track one corporation can use on one position, cut into segments.

    Stop ids are the :class:`TrackGraph` ones. ``segs[i] = (a, b, paths from a to b,
    sides)``: ``sides`` is a bitmask of the hex sides the segment uses, numbered for this
    network (a track piece with no hex side, stop to stop inside a hex, counts as a side of
    its own). ``adj[s]`` lists ``(segment, other stop, sides)``; ``conflicts[i]`` the
    segments sharing a hex side with segment ``i`` (itself included).
    """

    g: TrackGraph
    corp: str
    tokens: list[int] = field(default_factory=list)
    passable: list[bool] = field(default_factory=list)
    town: list[bool] = field(default_factory=list)
    group: list[str | None] = field(default_factory=list)
    segs: list[tuple[int, int, tuple[int, ...], int]] = field(default_factory=list)
    adj: list[list[tuple[int, int, int]]] = field(default_factory=list)
    stops: list[int] = field(default_factory=list)
    conflicts: list[tuple[int, ...]] = field(default_factory=list)
    stations: frozenset[str] = frozenset()
    excluded: list[bool] = field(default_factory=list)
    #: per segment, its hex-side bits in the board's numbering (as route_check.check_routes)
    gsides: list[int] = field(default_factory=list)
    _enumerations: dict[int, _Enumeration] = field(default_factory=dict)

    @classmethod
    def build(
        cls,
        board: Board,
        state: MapState,
        corp: str,
        stations: frozenset[str] = frozenset(),
        excluded: frozenset[str] = frozenset(),
        groups: frozenset[tuple[str, str]] = frozenset(),
    ) -> Network:
        """Cut the corporation's track into segments (a snapshot of ``state`` is kept).

        ``stations``: hexes where it has a virtual station (every stop there is one of its
        stations); ``excluded``: hexes it may not run to (their stops are left out);
        ``groups``: (hex, group) of off-boards grouped beyond the map's own groups
        (rules.offboard_groups).
        """
        g = board.graph(state.copy())
        n = len(g.stops)
        net = cls(g, corp, stations=stations)
        net.excluded = [g.stops[s][0] in excluded for s in range(n)]
        net.passable = [g.passable(s, corp) for s in range(n)]
        net.town = [g.stops[s][1] == "town" for s in range(n)]
        more = dict(groups)
        net.group = [
            more[g.stops[s][0]]
            if g.stops[s][1] == "offboard" and g.stops[s][0] in more
            else g.group(s)
            for s in range(n)
        ]
        net.tokens = [t for t in g.station_stops(corp, stations) if not net.excluded[t]]
        net.adj = [[] for _ in range(n)]
        net._cut()
        return net

    def _cut(self) -> None:
        g = self.g
        free_bit = len(g.board.sides)
        found: set[tuple[int, ...]] = set()
        todo = list(self.tokens)
        seen = set(todo)
        reached: set[int] = set(todo)
        while todo:
            s = todo.pop()
            if s not in self.tokens and not self.passable[s]:
                continue
            for b, paths, sides in _segments_from(g, s, free_bit):
                if self.excluded[b]:
                    continue
                reached.add(b)
                key = tuple(sorted(paths))
                if key not in found:
                    found.add(key)
                    self.segs.append((s, b, paths, sides))
                if b not in seen:
                    seen.add(b)
                    todo.append(b)
        # number segments in a fixed order (independent of the walk order)
        self.segs.sort(key=lambda x: (min(x[0], x[1]), max(x[0], x[1]), tuple(sorted(x[2]))))
        self.gsides = [sides for _, _, _, sides in self.segs]
        # renumber the hex sides the segments use 0, 1, ... (small bitmasks)
        local: dict[int, int] = {}
        for _, _, _, sides in self.segs:
            for b in _bits(sides):
                local.setdefault(b, len(local))
        self.segs = [
            (a, b, paths, sum(1 << local[x] for x in _bits(sides)))
            for a, b, paths, sides in self.segs
        ]
        for sid, (a, b, _, sides) in enumerate(self.segs):
            self.adj[a].append((sid, b, sides))
            self.adj[b].append((sid, a, sides))
        self.stops = sorted(reached)
        # segments sharing a hex side with each segment (itself included)
        self.conflicts = [
            tuple(t for t, other in enumerate(self.segs) if other[3] & sides)
            for _, _, _, sides in self.segs
        ]

    # -- enumeration ------------------------------------------------------------------

    def enumerate(self, limit: int | None, budget: int) -> _Enumeration:
        """Every legal route with at most ``limit`` stops (None: any), canonical order.

        ``budget`` caps the states explored (see module doc). A complete enumeration is
        cached, with the states it took: a later call is charged the same (so a result never
        depends on what was cached before), and recomputed if that is over its budget.
        """
        key = -1 if limit is None else limit
        done = self._enumerations.get(key)
        if done is not None and done.explored <= budget:
            return done
        collecting = gc.isenabled()
        gc.disable()  # millions of small tuples, no cycles: the collector would only slow us
        try:
            result = self._enumerate(len(self.passable) + 1 if limit is None else limit, budget)
        finally:
            if collecting:
                gc.enable()
        if result.complete and len(result.routes) <= CACHE_ROUTES:
            self._enumerations[key] = result
        return result

    def _enumerate(self, limit: int, budget: int) -> _Enumeration:
        adj, passable, group = self.adj, self.passable, self.group
        found: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        explored = 0
        # A route grows from its stop t: a left half outwards, then a right half. Each
        # half is carried as tuples in route order (the left half's stops ending with t),
        # so a route found is their concatenation, not a list reversed and unpacked.

        def record(stops: tuple[int, ...], segs: tuple[int, ...], sides: int) -> None:
            a, b = stops[0], stops[-1]
            ga = group[a]
            if ga is not None and ga == group[b]:
                return
            if a > b:
                stops = stops[::-1]
                segs = segs[::-1]
            found.append((stops, segs, sides))

        def right(
            lt: tuple[int, ...],
            lg: tuple[int, ...],
            rs: tuple[int, ...],
            rg: tuple[int, ...],
            cur: int,
            visited: int,
            sides: int,
            n: int,
            first: int,
        ) -> None:
            nonlocal explored
            for sid, o, ss in adj[cur]:
                if sid <= first or ss & sides or visited >> o & 1:
                    continue
                explored += 1
                if explored > budget:
                    raise _OutOfBudget
                rs2 = rs + (o,)
                rg2 = rg + (sid,)
                s2 = sides | ss
                record(lt + rs2, lg + rg2, s2)
                if n + 1 < limit and passable[o]:
                    right(lt, lg, rs2, rg2, o, visited | 1 << o, s2, n + 1, -1)

        def left(
            t: int,
            lt: tuple[int, ...],
            lg: tuple[int, ...],
            cur: int,
            visited: int,
            sides: int,
            n: int,
        ) -> None:
            nonlocal explored
            for sid, o, ss in adj[cur]:
                if ss & sides or visited >> o & 1:
                    continue
                explored += 1
                if explored > budget:
                    raise _OutOfBudget
                lt2 = (o,) + lt
                lg2 = (sid,) + lg
                v2, s2 = visited | 1 << o, sides | ss
                record(lt2, lg2, s2)
                if n + 1 < limit:
                    if passable[t]:  # t inside the route (an off-board station: only an end)
                        right(lt2, lg2, (), (), t, v2, s2, n + 1, lg2[-1])
                    if passable[o]:
                        left(t, lt2, lg2, o, v2, s2, n + 1)

        banned = 0
        try:
            for t in self.tokens:
                left(t, (t,), (), t, banned | 1 << t, 0, 1)
                banned |= 1 << t
        except _OutOfBudget:
            found.sort()
            return _Enumeration(found, False, budget)
        finally:
            # (recursive closures refer to themselves and each other: reference cycles,
            # broken here, not left for the cyclic collector)
            record = right = left = None  # type: ignore[assignment]
        found.sort()
        return _Enumeration(found, True, explored)

    # -- revenue ----------------------------------------------------------------------

    def revenues(self, revenue_key: str) -> list[int]:
        """Revenue of every stop for a phase revenue colour."""
        g = self.g
        return [g.stop_revenue(s, revenue_key) for s in range(len(self.passable))]

    def bound(self, rule: TrainRule, revs: Sequence[int], bonuses: Sequence[Bonus]) -> int:
        """An upper bound of any route's revenue for ``rule`` (stop revenues alone)."""
        vals = sorted((revs[s] for s in self.stops), reverse=True)
        bonus = sum(b.most for b in bonuses)
        if rule.visit is None:
            return sum(vals) + bonus
        if rule.pay is not None:
            return sum(vals[: rule.pay]) + bonus
        towns = sorted((revs[s] for s in self.stops if self.town[s]), reverse=True)
        return sum(vals[: rule.visit]) + sum(towns[: rule.towns]) + bonus

    def to_route(
        self,
        raw: tuple[tuple[int, ...], tuple[int, ...], int],
        train: str,
        rule: TrainRule,
        revenue_key: str,
        bonuses: Sequence[Bonus] = (),
    ) -> Route:
        """The :class:`Route` of an enumerated route."""
        stops, segs, _ = raw
        pids: list[int] = []
        for k, sid in enumerate(segs):
            a, _, paths, _ = self.segs[sid]
            pids.extend(paths if a == stops[k] else reversed(paths))
        return make_route(
            self.g, self.corp, train, rule, stops, pids, revenue_key, bonuses, self.stations
        )


def network(
    board: Board,
    state: MapState,
    corp: str,
    stations: Collection[str] = (),
    excluded: Collection[str] = (),
    groups: Collection[tuple[str, str]] = (),
) -> Network:
    """The corporation's :class:`Network`, shared between calls on the same position."""
    st, ex, gr = frozenset(stations), frozenset(excluded), frozenset(groups)
    key = (state.track_key(), state.token_key(), corp, st, ex, gr)
    net = board.cached("network", key, lambda: Network.build(board, state, corp, st, ex, gr))
    net.g.current()  # (its graph's tables may hold another layout's since it was made)
    return net


def has_route(
    board: Board,
    state: MapState,
    corp: str,
    *,
    stations: Collection[str] = (),
    excluded: Collection[str] = (),
) -> bool:
    """Can the corporation run any route at all (a station joined by track to another
    stop)?  The question :class:`Network` answers with a segment from one of its
    stations (``adj``), asked of the stations' own segments only: track from a station
    to the next stop, that stop another and not on an ``excluded`` hex, with no network
    built (a segment into a station from another stop is the same track walked from the
    station)."""
    g = board.graph(state)
    ex = frozenset(excluded)
    stops = g.stops
    free_bit = len(board.sides)
    for t in g.station_stops(corp, frozenset(stations)):
        if stops[t][0] in ex:
            continue
        for b, _, _ in _segments_from(g, t, free_bit):
            if stops[b][0] not in ex:
                return True
    return False


def _segments_from(g: TrackGraph, s: int, free_bit: int) -> list[tuple[int, tuple[int, ...], int]]:
    """Track from stop ``s`` to each next stop: (stop, path ids from s, sides; a track piece
    with no hex side counts as side ``free_bit`` plus its id)."""
    out: list[tuple[int, tuple[int, ...], int]] = []
    for pid in g.stop_paths[s]:
        end = g.other_end(pid, (True, s))
        if end[0]:
            if end[1] != s:
                out.append((end[1], (pid,), 1 << (free_bit + pid)))
            continue
        _segment_walk(g, s, out, end, g.paths[pid].hex, [pid], 1 << end[1])
    return out


def _segment_walk(
    g: TrackGraph,
    s: int,
    out: list[tuple[int, tuple[int, ...], int]],
    node: tuple[bool, int],
    side_hex: str,
    chain: list[int],
    sides: int,
) -> None:
    """``_segments_from`` at a side left from ``side_hex`` (a module function, not a
    closure calling itself: no reference cycle per call)."""
    for h, pid in g.side_paths.get(node[1], []):
        if h == side_hex:
            continue
        end = g.other_end(pid, node)
        if end[0]:
            if end[1] != s:
                out.append((end[1], (*chain, pid), sides))
            continue
        bit = 1 << end[1]
        if sides & bit:
            continue
        _segment_walk(g, s, out, end, h, [*chain, pid], sides | bit)


def _bits(x: int) -> list[int]:
    """Positions of the set bits of ``x``, ascending."""
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out
