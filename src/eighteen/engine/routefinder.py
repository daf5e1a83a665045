"""Optimal routes: the most valuable legal set of routes for a corporation's trains.

The rules are those of :mod:`eighteen.engine.routes` (seed 002): a route joins two or more
stops by continuous track without reversing at a junction, visits each stop once, includes a
station of the corporation, passes no off-board and no city filled by other corporations'
tokens (they may only end it), visits one off-board per group, and fits its train
(:class:`~eighteen.engine.routes.TrainRule`); the routes of one corporation share no track
(no hex side); each train runs at most one route. Revenue is the train rule's count of its
stops plus bonuses (:class:`~eighteen.engine.routes.Bonus`).

Algorithm (exact; see :func:`optimize`):

1. **Network** (cached per tile layout, tokens and corporation): the track the corporation
   can use, cut into *segments*, stop to stop with no stop between, each with the bitmask of
   hex sides it uses. Only stops reachable from its stations, passing only passable stops,
   are cut.
2. **Enumeration** (cached per network and stop limit): every legal route up to the longest
   train's stop limit, each found exactly once. For each station ``t`` in order, routes
   through ``t`` and no earlier station are grown as a left half (a walk from ``t``) and a
   right half (another walk from ``t`` sharing no stop or side with the left one, starting
   with a higher-numbered segment, so each route through ``t`` is met in one orientation).
3. **Choice**: a branch and bound picks one route (or none) per train, trains with the most
   valuable routes first, each train's candidates best first. The bound of a node is its
   revenue plus, for every train still to place, its best route sharing no track with the
   routes already chosen; the last train simply takes its best compatible route. Identical
   trains take candidates in increasing order (no permutations). A bonus counting once per
   run (:func:`~eighteen.engine.routes.is_once`, a ferry) is in every candidate's value (an
   upper bound); the search takes off what a chosen route would count twice.

Determinism: stops are numbered in sorted (hex, kind, index) order; candidates are ordered
by revenue (descending), then stop ids, then segment ids; the search keeps the first optimal
combination met in that order. Nothing depends on timing or cache state.

Work budget: every enumeration step and every search node counts as one explored state.
When ``budget`` states are used up the search stops and the result says so
(``optimal=False``) with the best routes found and a proven ``upper_bound``.
"""

from __future__ import annotations

import gc
from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from eighteen.engine.extensions import Extender
from eighteen.engine.graph import TrackGraph
from eighteen.engine.map import Board
from eighteen.engine.position import MapState
from eighteen.engine.routes import (
    Bonus,
    Route,
    TrainDistance,
    TrainRule,
    is_once,
    make_route,
    reaches,
    route_value,
    share_once,
    visit_revenues,
    with_extension,
)

#: Default work budget (explored states) of :func:`optimize`: about a second of search and
#: a few hundred MB at most on one core; real positions seen so far need a few thousand.
DEFAULT_BUDGET = 300_000

#: Largest enumeration (routes) a network keeps for later calls.
CACHE_ROUTES = 50_000


@dataclass(frozen=True)
class RouteResult:
    """The answer of :func:`optimize`.

    ``routes``: one per running train, in the order the trains were given (idle trains are
    left out); ``total``: their revenue; ``optimal``: True when the search finished, so no
    set of routes earns more; ``upper_bound``: a proven bound on the best total (equal to
    ``total`` when optimal); ``explored``: states the search used.
    """

    routes: tuple[Route, ...]
    total: int
    optimal: bool
    upper_bound: int
    explored: int

    def explain(self) -> list[str]:
        """Each route's stops, stop revenues, bonuses and total, then the run's total."""
        lines: list[str] = []
        for r in self.routes:
            lines.append(f"train {r.train}: {' - '.join(s.id for s in r.stops)}")
            lines.extend(r.explain())
        lines.append(f"total ${self.total}")
        if not self.optimal:
            lines.append(
                f"search stopped after {self.explored} states: the best total is at most "
                f"${self.upper_bound}"
            )
        return lines

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {
            "routes": [r.to_json() for r in self.routes],
            "total": self.total,
            "optimal": self.optimal,
            "upper_bound": self.upper_bound,
            "explored": self.explored,
        }


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
    #: per segment, its hex-side bits in the board's numbering (as routes.check_routes)
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
        ls: list[int] = []  # left half: stops after t, outwards
        lg: list[int] = []  # left half: segments, outwards
        rs: list[int] = []
        rg: list[int] = []

        def record(t: int, sides: int) -> None:
            stops = (*reversed(ls), t, *rs)
            segs = (*reversed(lg), *rg)
            a, b = stops[0], stops[-1]
            ga = group[a]
            if ga is not None and ga == group[b]:
                return
            if a > b:
                stops = stops[::-1]
                segs = segs[::-1]
            found.append((stops, segs, sides))

        def right(t: int, cur: int, visited: int, sides: int, n: int, first: int) -> None:
            nonlocal explored
            for sid, o, ss in adj[cur]:
                if sid <= first or ss & sides or visited >> o & 1:
                    continue
                explored += 1
                if explored > budget:
                    raise _OutOfBudget
                rs.append(o)
                rg.append(sid)
                s2 = sides | ss
                record(t, s2)
                if n + 1 < limit and passable[o]:
                    right(t, o, visited | 1 << o, s2, n + 1, -1)
                rs.pop()
                rg.pop()

        def left(t: int, cur: int, visited: int, sides: int, n: int) -> None:
            nonlocal explored
            for sid, o, ss in adj[cur]:
                if ss & sides or visited >> o & 1:
                    continue
                explored += 1
                if explored > budget:
                    raise _OutOfBudget
                ls.append(o)
                lg.append(sid)
                v2, s2 = visited | 1 << o, sides | ss
                record(t, s2)
                if n + 1 < limit:
                    if passable[t]:  # t inside the route (an off-board station: only an end)
                        right(t, t, v2, s2, n + 1, lg[0])
                    if passable[o]:
                        left(t, o, v2, s2, n + 1)
                ls.pop()
                lg.pop()

        banned = 0
        try:
            for t in self.tokens:
                left(t, t, banned | 1 << t, 0, 1)
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


# ---------------------------------------------------------------------------------------
# choosing one route per train


def _values(
    net: Network,
    routes: list[tuple[tuple[int, ...], tuple[int, ...], int]],
    rule: TrainRule,
    revs: Sequence[int],
    bonuses: Sequence[Bonus],
    ext: Extender | None = None,
) -> list[tuple[int, int, int]]:
    """(value, sides, route index) of every route the train may run, best first. With
    interconnection bonuses (``ext``) a value counts the most an extension may add."""
    town = net.town
    out: list[tuple[int, int, int]] = []
    g = net.g
    requires = [g.requires_visit(s) for s in range(len(net.passable))]
    simple = rule.pay is None and not bonuses and not any(requires)
    tok = set(net.tokens)
    hexes = [h for h, _, _ in g.stops]
    for i, (stops, _, sides) in enumerate(routes):
        if rule.towns or rule.visit is not None:
            n_towns = sum(1 for s in stops if town[s]) if rule.towns else 0
            if not rule.fits(len(stops), n_towns):
                continue
        if simple:
            value = sum(revs[s] for s in stops)
        else:
            hs = [hexes[s] for s in stops]
            value = route_value(
                rule,
                visit_revenues([revs[s] for s in stops], hs, [requires[s] for s in stops]),
                [s in tok for s in stops],
                hs,
                bonuses,
            )[0]
        if ext is not None:
            value += ext.optimistic(i)
        out.append((value, sides, i))
    out.sort(key=lambda x: -x[0])  # stable: ties keep the canonical route order
    return out


def optimize(
    board: Board,
    state: MapState,
    corp: str,
    trains: Sequence[tuple[str, TrainDistance]],
    revenue_key: str,
    *,
    bonuses: Sequence[Bonus] = (),
    budget: int | None = None,
    stations: Collection[str] = (),
    excluded: Collection[str] = (),
    groups: Collection[tuple[str, str]] = (),
) -> RouteResult:
    """The most valuable routes for ``corp``'s ``trains`` (id, distance) on a position.

    ``distance`` is anything :meth:`TrainRule.of` reads (int, None = unlimited, or a typed
    ``Distance``: pay/visit or cities/towns); ``revenue_key`` the phase's off-board
    colour; ``bonuses`` the phase's route bonuses (hashable, e.g.
    :func:`eighteen.engine.routes.table_bonuses`); ``budget`` the most states to explore
    (default :data:`DEFAULT_BUDGET`); ``stations`` hexes where the corporation has a
    virtual station; ``excluded`` hexes it may not run to; ``groups`` (hex, group) of
    off-boards grouped beyond the map's own groups (one of a group per route). Results are
    cached on the board per position.
    """
    budget = DEFAULT_BUDGET if budget is None else budget
    rules = tuple((tid, TrainRule.of(d)) for tid, d in trains)
    st, ex, gr = frozenset(stations), frozenset(excluded), frozenset(groups)
    key: Hashable = (
        state.track_key(),
        state.token_key(),
        corp,
        rules,
        revenue_key,
        tuple(bonuses),
        budget,
        st,
        ex,
        gr,
    )
    return board.cached(
        "optimize",
        key,
        lambda: _optimize(board, state, corp, rules, revenue_key, bonuses, budget, st, ex, gr),
    )


def _optimize(
    board: Board,
    state: MapState,
    corp: str,
    trains: tuple[tuple[str, TrainRule], ...],
    revenue_key: str,
    bonuses: Sequence[Bonus],
    budget: int,
    stations: frozenset[str],
    excluded: frozenset[str],
    groups: frozenset[tuple[str, str]] = frozenset(),
) -> RouteResult:
    if not trains:
        return RouteResult((), 0, True, 0, 0)
    net = network(board, state, corp, stations, excluded, groups)
    limits = [r.max_stops for _, r in trains]
    limit = None if None in limits else max(x for x in limits if x is not None)
    enum = net.enumerate(limit, budget)
    explored = enum.explored
    revs = net.revenues(revenue_key)
    exact = None
    if any(reaches(b) for b in bonuses):
        exact = _Exact(net, enum.routes, bonuses, excluded)
    ext = None if exact is None else exact.ext
    lists: dict[TrainRule, list[tuple[int, int, int]]] = {}
    for _, r in trains:
        if r not in lists:
            lists[r] = _values(net, enum.routes, r, revs, bonuses, ext)
    # trains with the most valuable routes first, then in the given order; identical
    # trains side by side
    first: dict[TrainRule, int] = {}
    for i, (_, r) in enumerate(trains):
        first.setdefault(r, i)
    order = sorted(
        range(len(trains)),
        key=lambda i: (
            -(lists[trains[i][1]][0][0] if lists[trains[i][1]] else -1),
            -len(lists[trains[i][1]]),
            first[trains[i][1]],
            i,
        ),
    )
    cand = [lists[trains[i][1]] for i in order]
    left = budget - explored if enum.complete else 0
    once_of = _once_amounts(net, enum.routes, bonuses)
    if exact is not None:
        exact.ext.limit = left
    picks, total, bound, used = _choose(
        cand, [trains[i][1] for i in order], left, net, enum.routes, once_of, exact
    )
    explored += used + (exact.explored if exact is not None else 0)
    optimal = enum.complete and bound <= total
    if not enum.complete:
        bound = max(total, sum(net.bound(r, revs, bonuses) for _, r in trains))
    elif exact is not None and exact.ext.incomplete:  # some extension search was cut short
        optimal = False
        bound = max(total, sum(items[0][0] for items in cand if items))
    routes: dict[int, Route] = {}
    for k, item in enumerate(picks):
        if item is not None:
            i = order[k]
            tid, rule = trains[i]
            raw = enum.routes[item[2]]
            routes[i] = net.to_route(raw, tid, rule, revenue_key, bonuses)
    if exact is not None:
        index = {i: item[2] for i, item in zip(order, picks, strict=True) if item is not None}
        walks = exact.walks(list(index.values()))
        g = net.g
        for i, route in routes.items():
            walk = walks.get(index[i])
            if walk is not None:
                end, pids, _ = walk
                paths = [g.paths[p] for p in pids]
                routes[i] = with_extension(route, paths, g.stops[end][0], bonuses)
    chosen = tuple(share_once([routes[i] for i in sorted(routes)], bonuses))
    assert sum(r.revenue for r in chosen) == total
    return RouteResult(chosen, total, optimal, max(bound, total), explored)


#: Per enumerated route, the once-per-run bonuses it earns: ((bonus number, amount), ...);
#: None when no bonus counts once.
_OnceOf = list[tuple[tuple[int, int], ...]] | None


def _once_amounts(
    net: Network,
    routes: list[tuple[tuple[int, ...], tuple[int, ...], int]],
    bonuses: Sequence[Bonus],
) -> _OnceOf:
    """What each route earns of the bonuses counting once per run (:func:`is_once`)."""
    once = [b for b in bonuses if is_once(b)]
    if not once:
        return None
    hexes = [h for h, _, _ in net.g.stops]
    out: list[tuple[tuple[int, int], ...]] = []
    for stops, _, _ in routes:
        hs = frozenset(hexes[s] for s in stops)
        out.append(tuple((k, a) for k, b in enumerate(once) if (a := b.amount(hs))))
    return out


def _gain(pairs: tuple[tuple[int, int], ...], earned: dict[int, int]) -> tuple[int, dict[int, int]]:
    """(what a route's once-per-run bonuses ``pairs`` would count twice given the most of
    each the run earns already, ``earned``; ``earned`` with the route added). A once bonus
    counts the most any route of the run earns of it."""
    if not pairs:
        return 0, earned
    e = dict(earned)
    twice = 0
    for k, a in pairs:
        had = e.get(k, 0)
        twice += min(had, a)
        e[k] = max(had, a)
    return twice, e


def _bits(x: int) -> list[int]:
    """Positions of the set bits of ``x``, ascending."""
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


class _Cands:
    """One train rule's candidates, best first, as bitsets over their positions.

    ``seg_mask[i]`` has bit ``j`` set when candidate ``j`` runs on segment ``i``; the
    candidates sharing track with a route are those on a segment in conflict with one of
    its segments (:attr:`Network.conflicts`).
    """

    def __init__(
        self,
        items: list[tuple[int, int, int]],
        net: Network,
        routes: list[tuple[tuple[int, ...], tuple[int, ...], int]],
        once_of: _OnceOf = None,
    ) -> None:
        self.items = items
        self.vals = [v for v, _, _ in items]
        #: per candidate, its once-per-run bonuses (see _once_amounts), or None
        self.once = None if once_of is None else [once_of[i] for _, _, i in items]
        self.segs = [routes[i][1] for _, _, i in items]
        self.n = len(items)
        self.all = (1 << self.n) - 1
        self.conflicts = net.conflicts
        size = self.n // 8 + 1
        bufs: dict[int, bytearray] = {}
        for j, segs in enumerate(self.segs):
            byte, bit = j >> 3, 1 << (j & 7)
            for sid in segs:
                buf = bufs.get(sid)
                if buf is None:
                    buf = bufs[sid] = bytearray(size)
                buf[byte] |= bit
        self.seg_mask = {sid: int.from_bytes(buf, "little") for sid, buf in bufs.items()}
        self._block: dict[int, int] = {}

    def block(self, sid: int) -> int:
        """Candidates sharing a hex side with segment ``sid``."""
        m = self._block.get(sid)
        if m is None:
            m = 0
            get = self.seg_mask.get
            for t in self.conflicts[sid]:
                x = get(t)
                if x:
                    m |= x
            self._block[sid] = m
        return m

    def blocked_by(self, segs: tuple[int, ...]) -> int:
        """Candidates sharing a hex side with a route on ``segs``."""
        out = 0
        for sid in segs:
            out |= self.block(sid)
        return out


class _RouteSides:
    """Route ``i``'s (stop ids in order, hex-side bits) for an :class:`Extender`, the
    bits made once per route.  A callable of its own, not a method of :class:`_Exact`:
    the extender keeps it, and a bound method of the object keeping the extender would
    make a reference cycle (the extender and its tables, thousands of objects a route
    search, left for the cyclic collector)."""

    def __init__(
        self, routes: list[tuple[tuple[int, ...], tuple[int, ...], int]], gsides: list[int]
    ) -> None:
        self.masks: dict[int, int] = {}
        self.routes = routes
        self.gsides = gsides

    def __call__(self, i: int) -> tuple[tuple[int, ...], int]:
        m = self.masks.get(i)
        if m is None:
            m = 0
            for sid in self.routes[i][1]:
                m |= self.gsides[sid]
            self.masks[i] = m
        return self.routes[i][0], m


class _Exact:
    """Exact values of chosen routes with interconnection bonuses: the candidates count
    the most an extension may add to each (:meth:`Extender.optimistic`); ``deficit``
    says how much less the routes chosen together really earn (their extensions must
    share no track with each other nor with the routes)."""

    def __init__(
        self,
        net: Network,
        routes: list[tuple[tuple[int, ...], tuple[int, ...], int]],
        bonuses: Sequence[Bonus],
        excluded: frozenset[str] = frozenset(),
    ) -> None:
        self._route = _RouteSides(routes, net.gsides)
        self.ext = Extender(net.g, bonuses, self._route, excluded=excluded)

    def _used(self, idxs: Sequence[int]) -> int:
        used = 0
        for i in idxs:
            used |= self._route(i)[1]
        return used

    def deficit(self, idxs: Sequence[int]) -> int:
        """What routes ``idxs`` chosen together earn less than their candidate values."""
        opt = self.ext.optimistic
        most = sum(opt(i) for i in idxs)
        if not most:
            return 0
        return most - self.ext.best(idxs, self._used(idxs))[0]

    def walks(self, idxs: Sequence[int]) -> dict[int, tuple[int, tuple[int, ...], int]]:
        """The extensions of routes ``idxs`` chosen together (by route index)."""
        if not any(self.ext.optimistic(i) for i in idxs):
            return {}
        return self.ext.best(idxs, self._used(idxs))[1]

    @property
    def explored(self) -> int:
        return self.ext.explored


def _choose(
    lists: list[list[tuple[int, int, int]]],
    rules: list[TrainRule],
    budget: int,
    net: Network,
    routes: list[tuple[tuple[int, ...], tuple[int, ...], int]],
    once_of: _OnceOf = None,
    exact: _Exact | None = None,
) -> tuple[list[tuple[int, int, int] | None], int, int, int]:
    """One candidate (or none) per train, sharing no hex side, with the greatest total.

    ``lists[k]``: train k's candidates (value, sides, route index) best first; identical
    trains (equal rules, side by side) share one list. A greedy choice gives a first total;
    candidates too poor to beat it whatever the other trains earn are dropped (a solution
    with one totals less than the greedy one); a branch and bound (:func:`_search`) runs on
    the rest. Candidate values count every bonus in full (an upper bound); a once-per-run
    bonus (``once_of``) earned by several chosen routes is taken off all but once in the
    totals, and so is what extensions for interconnection bonuses cannot earn together
    (``exact``). Returns (chosen item per train or None, total, upper bound, states used).
    """
    n = len(lists)
    if n == 0:
        return [], 0, 0, 0
    g_picks, g_total, g_bound, explored = _greedy(lists, rules, once_of, exact)
    greedy = [None if j is None else lists[k][j] for k, j in enumerate(g_picks)]
    if budget <= explored:
        return greedy, g_total, g_bound, explored
    top = [items[0][0] if items else 0 for items in lists]
    kept: dict[int, list[tuple[int, int, int]]] = {}
    for k, items in enumerate(lists):
        if id(items) not in kept:
            floor = g_total - (sum(top) - top[k])
            kept[id(items)] = [x for x in items if x[0] >= floor]
    shared: dict[int, _Cands] = {}
    for items in lists:
        if id(items) not in shared:
            shared[id(items)] = _Cands(kept[id(items)], net, routes, once_of)
    cand = [shared[id(items)] for items in lists]
    picks, total, bound, used, _ = _search(cand, rules, budget - explored, exact)
    explored += used
    if total < g_total:  # only when the budget ran out
        return greedy, g_total, max(bound, g_total), explored
    chosen = [None if j is None else cand[k].items[j] for k, j in enumerate(picks)]
    return chosen, total, bound, explored


def _greedy(
    lists: list[list[tuple[int, int, int]]],
    rules: list[TrainRule],
    once_of: _OnceOf = None,
    exact: _Exact | None = None,
) -> tuple[list[int | None], int, int, int]:
    """Train by train, the best candidate sharing no side with those taken.

    Returns (positions, total, a valid upper bound: each train's best, states used)."""
    used = 0
    total = 0
    explored = 0
    picks: list[int | None] = []
    earned: dict[int, int] = {}
    for k, items in enumerate(lists):
        start = 0
        if k and rules[k] == rules[k - 1]:
            prev = picks[-1]
            start = len(items) if prev is None else prev + 1
        pick = None
        for j in range(start, len(items)):
            explored += 1
            if not items[j][1] & used:
                pick = j
                used |= items[j][1]
                total += items[j][0]
                if once_of is not None:
                    twice, earned = _gain(once_of[items[j][2]], earned)
                    total -= twice
                break
        picks.append(pick)
    if exact is not None:
        total -= exact.deficit([lists[k][j][2] for k, j in enumerate(picks) if j is not None])
    return picks, total, sum(items[0][0] for items in lists if items), explored


def _lowest(x: int) -> int:
    """The position of the lowest bit set in ``x`` (a candidate's position in a bitset)."""
    return (x & -x).bit_length() - 1


def _search(
    cand: list[_Cands], rules: list[TrainRule], budget: int, exact: _Exact | None = None
) -> tuple[list[int | None], int, int, int, bool]:
    """Branch and bound over the trains' candidates.

    Level ``k`` is a train; its candidates are tried best first. ``blocked[m]`` holds the
    candidates of train ``m`` that share track with the routes chosen above. A node is cut
    when its revenue plus, for each train left, its best unblocked candidate cannot beat the
    best total found; a candidate is cut when its value plus the best the trains left could
    earn (identical trains: the next candidates in the list) cannot; the last train simply
    takes its best unblocked candidate. Identical trains take candidates in increasing
    positions. Each node counts as one state. With once-per-run bonuses (``_Cands.once``)
    the candidate values are upper bounds: a chosen route adds its value less what it
    counts twice (:func:`_gain`), and the last train scans its candidates for the best.
    With interconnection bonuses (``exact``) the values count the most extensions may add:
    every leaf (the last train's candidates while they may win, or none) is valued exactly.

    Returns (positions, total, upper bound, states used, finished within the budget).
    """
    n = len(cand)
    top = [c.vals[0] if c.n else 0 for c in cand]
    same = [k > 0 and rules[k] == rules[k - 1] for k in range(n)]
    # twins[k]: how many of the next trains are identical to train k, in a row
    twins = [0] * n
    for k in range(n - 2, -1, -1):
        twins[k] = twins[k + 1] + 1 if same[k + 1] else 0
    chosen: list[int | None] = [None] * n
    best: list[int | None] = [None] * n
    best_total = -1
    explored = 0
    open_bound = -1  # bound of the subtrees left unexplored when the budget ran out
    out = False

    def rec(k: int, blocked: list[int], total: int, start: int, earned: dict[int, int]) -> None:
        nonlocal best_total, best, open_bound, out, explored
        explored += 1
        c = cand[k]
        avail = c.all & ~blocked[k]
        if same[k] and start:
            avail &= ~((1 << start) - 1)
        if k == n - 1 and exact is not None:  # value each leaf that may win exactly
            prefix = [cand[m].items[j][2] for m, j in enumerate(chosen) if j is not None]
            w = total - exact.deficit(prefix)
            if w > best_total:
                best_total = w
                best = list(chosen)
            x = avail
            while x:
                low = x & -x
                x ^= low
                i = low.bit_length() - 1
                if total + c.vals[i] <= best_total:
                    break
                v = c.vals[i]
                if c.once is not None:
                    v -= _gain(c.once[i], earned)[0]
                w = total + v - exact.deficit([*prefix, c.items[i][2]])
                if w > best_total:
                    best_total = w
                    chosen[k] = i
                    best = list(chosen)
                    chosen[k] = None
            return
        if k == n - 1:  # the last train takes its best unblocked route
            if avail:
                j = _lowest(avail)
                v = c.vals[j]
                if c.once is not None:  # values are upper bounds: scan while they may win
                    v -= _gain(c.once[j], earned)[0]
                    x = avail ^ (1 << j)
                    while x:
                        low = x & -x
                        x ^= low
                        i = low.bit_length() - 1
                        if c.vals[i] <= v:
                            break
                        w = c.vals[i] - _gain(c.once[i], earned)[0]
                        if w > v:
                            j, v = i, w
                if total + v > best_total:
                    best_total = total + v
                    chosen[k] = j
                    best = list(chosen)
                    chosen[k] = None
            elif total > best_total:
                best_total = total
                best = list(chosen)
            return
        # bound: every train left takes its best unblocked candidate
        bound = total + (c.vals[_lowest(avail)] if avail else 0)
        for m in range(k + 1, n):
            free = cand[m].all & ~blocked[m]
            bound += cand[m].vals[_lowest(free)] if free else 0
        if bound <= best_total:
            return
        tw = twins[k]
        others = sum(top[k + 1 + tw :])
        vals = c.vals
        while avail:
            low = avail & -avail
            avail ^= low
            j = low.bit_length() - 1
            v = vals[j]
            rest = others + sum(vals[j + 1 : j + 1 + tw])
            if total + v + rest <= best_total:
                return  # nor can any later candidate, nor running nothing
            if explored + (exact.explored if exact is not None else 0) >= budget:
                out = True
            if not out:
                segs = c.segs[j]
                below = list(blocked)
                done: dict[int, int] = {}
                for m in range(k + 1, n):
                    cm = cand[m]
                    extra = done.get(id(cm))
                    if extra is None:
                        extra = done[id(cm)] = cm.blocked_by(segs)
                    below[m] |= extra
                chosen[k] = j
                if c.once is None:
                    rec(k + 1, below, total + v, j + 1, earned)
                else:
                    twice, e2 = _gain(c.once[j], earned)
                    rec(k + 1, below, total + v - twice, j + 1, e2)
                chosen[k] = None
            if out:  # what is left at this level: later candidates (<= v) or nothing
                open_bound = max(open_bound, total + v + rest)
                return
        rec(k + 1, blocked, total, c.n, earned)  # train k runs nothing (nor do its twins)

    try:
        rec(0, [0] * n, 0, 0, {})
    finally:
        # (a recursive closure refers to itself: a reference cycle, broken here)
        rec = None  # type: ignore[assignment]
    bound = max(best_total, open_bound) if out else best_total
    return best, max(best_total, 0), bound, explored, not out


# ---------------------------------------------------------------------------------------
# other questions


def all_routes(
    board: Board,
    state: MapState,
    corp: str,
    train: str,
    distance: TrainDistance,
    revenue_key: str,
    bonuses: Sequence[Bonus] = (),
    *,
    stations: Collection[str] = (),
    excluded: Collection[str] = (),
) -> list[Route]:
    """Every legal route of one train, best first (revenue desc, then stop ids, track)."""
    rule = TrainRule.of(distance)
    net = network(board, state, corp, stations, excluded)
    enum = net.enumerate(rule.max_stops, 1 << 62)
    revs = net.revenues(revenue_key)
    return [
        net.to_route(enum.routes[i], train, rule, revenue_key, bonuses)
        for _, _, i in _values(net, enum.routes, rule, revs, bonuses)
    ]


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
