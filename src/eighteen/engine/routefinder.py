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
   trains take candidates in increasing order (no permutations).

Determinism: stops are numbered in sorted (hex, kind, index) order; candidates are ordered
by revenue (descending), then stop ids, then segment ids; the search keeps the first optimal
combination met in that order. Nothing depends on timing or cache state.

Work budget: every enumeration step and every search node counts as one explored state.
When ``budget`` states are used up the search stops and the result says so
(``optimal=False``) with the best routes found and a proven ``upper_bound``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from eighteen.engine.map import Board, MapState, TrackGraph
from eighteen.engine.routes import (
    Bonus,
    Route,
    TrainDistance,
    TrainRule,
    _make_route,
    route_value,
    visit_revenues,
)

#: Default work budget (explored states) of :func:`optimize`.
DEFAULT_BUDGET = 2_000_000


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
    sides)``; ``adj[s]`` lists ``(segment, other stop, sides)``. ``sides`` bitmasks hold the
    board's hex-side ids, plus one bit per side-less track piece (stop to stop inside a hex)
    at ``len(board.sides) + path id``, as :func:`eighteen.engine.routes.check_routes` does.
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
    _enumerations: dict[int, _Enumeration] = field(default_factory=dict)

    @classmethod
    def build(cls, board: Board, state: MapState, corp: str) -> Network:
        """Cut the corporation's track into segments (a snapshot of ``state`` is kept)."""
        g = board.graph(state.copy())
        n = len(g.stops)
        net = cls(g, corp)
        net.passable = [g.passable(s, corp) for s in range(n)]
        net.town = [g.stops[s][1] == "town" for s in range(n)]
        net.group = [g.group(s) for s in range(n)]
        net.tokens = _token_stops(g, state, corp)
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
            for b, paths, sides in self._segments_from(s, free_bit):
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
        for sid, (a, b, _, sides) in enumerate(self.segs):
            self.adj[a].append((sid, b, sides))
            self.adj[b].append((sid, a, sides))
        self.stops = sorted(reached)

    def _segments_from(self, s: int, free_bit: int) -> list[tuple[int, tuple[int, ...], int]]:
        """Track from stop ``s`` to each next stop: (stop, path ids from s, sides)."""
        g = self.g
        out: list[tuple[int, tuple[int, ...], int]] = []

        def walk(node: tuple[bool, int], side_hex: str, chain: list[int], sides: int) -> None:
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
                walk(end, h, [*chain, pid], sides | bit)

        for pid in g.stop_paths[s]:
            end = g.other_end(pid, (True, s))
            if end[0]:
                if end[1] != s:
                    out.append((end[1], (pid,), 1 << (free_bit + pid)))
                continue
            walk(end, g.paths[pid].hex, [pid], 1 << end[1])
        return out

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
        result = self._enumerate(len(self.passable) + 1 if limit is None else limit, budget)
        if result.complete:
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
        return _make_route(self.g, self.corp, train, rule, stops, pids, revenue_key, bonuses)


def _token_stops(g: TrackGraph, state: MapState, corp: str) -> list[int]:
    """Stop ids of the cities holding a token of ``corp``, sorted."""
    ids = (g.stop_id.get((h, "city", i)) for h, i in state.token_cities(corp))
    return sorted(s for s in ids if s is not None)


def network(board: Board, state: MapState, corp: str) -> Network:
    """The corporation's :class:`Network`, shared between calls on the same position."""
    key = (state.track_key(), state.token_key(), corp)
    return board.cached("network", key, lambda: Network.build(board, state, corp))


# ---------------------------------------------------------------------------------------
# choosing one route per train


def _values(
    net: Network,
    routes: list[tuple[tuple[int, ...], tuple[int, ...], int]],
    rule: TrainRule,
    revs: Sequence[int],
    bonuses: Sequence[Bonus],
) -> list[tuple[int, int, int]]:
    """(value, sides, route index) of every route the train may run, best first."""
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
) -> RouteResult:
    """The most valuable routes for ``corp``'s ``trains`` (id, distance) on a position.

    ``distance`` is anything :meth:`TrainRule.of` reads (int, None = unlimited,
    ``{"pay", "visit"}``, ``{"cities", "towns"}``); ``revenue_key`` the phase's off-board
    colour; ``bonuses`` the phase's route bonuses (hashable, e.g.
    :func:`eighteen.engine.routes.table_bonuses`); ``budget`` the most states to explore
    (default :data:`DEFAULT_BUDGET`). Results are cached on the board per position.
    """
    budget = DEFAULT_BUDGET if budget is None else budget
    rules = tuple((tid, TrainRule.of(d)) for tid, d in trains)
    key: Hashable = (
        state.track_key(),
        state.token_key(),
        corp,
        rules,
        revenue_key,
        tuple(bonuses),
        budget,
    )
    return board.cached(
        "optimize", key, lambda: _optimize(board, state, corp, rules, revenue_key, bonuses, budget)
    )


def _optimize(
    board: Board,
    state: MapState,
    corp: str,
    trains: tuple[tuple[str, TrainRule], ...],
    revenue_key: str,
    bonuses: Sequence[Bonus],
    budget: int,
) -> RouteResult:
    if not trains:
        return RouteResult((), 0, True, 0, 0)
    net = network(board, state, corp)
    limits = [r.max_stops for _, r in trains]
    limit = None if None in limits else max(x for x in limits if x is not None)
    enum = net.enumerate(limit, budget)
    explored = enum.explored
    revs = net.revenues(revenue_key)
    distinct = sorted(set(r for _, r in trains), key=repr)
    lists = {r: _values(net, enum.routes, r, revs, bonuses) for r in distinct}
    # trains with the most valuable routes first; identical trains side by side
    order = sorted(
        range(len(trains)),
        key=lambda i: (
            -(lists[trains[i][1]][0][0] if lists[trains[i][1]] else -1),
            -len(lists[trains[i][1]]),
            repr(trains[i][1]),
            i,
        ),
    )
    cand = [lists[trains[i][1]] for i in order]
    left = budget - explored if enum.complete else 0
    picks, total, bound, used = _choose(cand, [trains[i][1] for i in order], left)
    explored += used
    optimal = enum.complete and bound <= total
    if not enum.complete:
        bound = max(total, sum(net.bound(r, revs, bonuses) for _, r in trains))
    routes: dict[int, Route] = {}
    for k, j in enumerate(picks):
        if j is not None:
            i = order[k]
            tid, rule = trains[i]
            raw = enum.routes[cand[k][j][2]]
            routes[i] = net.to_route(raw, tid, rule, revenue_key, bonuses)
    chosen = tuple(routes[i] for i in sorted(routes))
    assert sum(r.revenue for r in chosen) == total
    return RouteResult(chosen, total, optimal, max(bound, total), explored)


def _choose(
    cand: list[list[tuple[int, int, int]]], rules: list[TrainRule], budget: int
) -> tuple[list[int | None], int, int, int]:
    """Branch and bound over the trains' candidate lists (value, sides, _), best first.

    Returns (chosen index per train or None, total, upper bound, states used). Every
    candidate looked at counts as a state. With no budget left it takes, train by train,
    the best compatible candidate (greedy).
    """
    n = len(cand)
    vals = [[c[0] for c in cl] for cl in cand]
    sides = [[c[1] for c in cl] for cl in cand]
    top = [v[0] if v else 0 for v in vals]
    suffix = [0] * (n + 1)
    for k in range(n - 1, -1, -1):
        suffix[k] = suffix[k + 1] + top[k]
    same = [k > 0 and rules[k] == rules[k - 1] for k in range(n)]
    chosen: list[int | None] = [None] * n
    best: list[int | None] = [None] * n
    best_total = -1
    explored = 0
    open_bound = -1  # bound of the subtrees left unexplored when the budget ran out
    out = False

    def promising(k: int, used: int, total: int) -> bool:
        """May trains k.. lift ``total`` above the best? Each takes, in turn, its best
        candidate sharing no side with ``used`` (a bound: they may share with each other);
        a scan stops as soon as the bound cannot beat the best."""
        nonlocal explored
        bound = total + suffix[k]
        if bound <= best_total:
            return False
        for m in range(k, n):
            base = bound - top[m]
            vm, sm = vals[m], sides[m]
            for j in range(len(vm)):
                explored += 1
                if base + vm[j] <= best_total:
                    return False
                if not sm[j] & used:
                    bound = base + vm[j]
                    break
            else:
                bound = base
                if bound <= best_total:
                    return False
        return True

    def rec(k: int, used: int, total: int, start: int) -> None:
        nonlocal best_total, best, open_bound, out, explored
        vm, sm = vals[k], sides[k]
        first = start if same[k] else 0
        if k == n - 1:  # the last train takes its best compatible route
            floor = best_total - total
            for j in range(first, len(vm)):
                explored += 1
                if vm[j] <= floor:
                    return
                if not sm[j] & used:
                    best_total = total + vm[j]
                    chosen[k] = j
                    best = list(chosen)
                    chosen[k] = None
                    return
            if total > best_total:
                best_total = total
                best = list(chosen)
            return
        if not promising(k, used, total):
            return
        rest = suffix[k + 1]
        for j in range(first, len(vm)):
            v = vm[j]
            if total + v + rest <= best_total:
                return  # nor can any later candidate, nor running nothing
            if sm[j] & used:
                continue
            explored += 1
            if explored > budget:
                out = True
            if not out:
                chosen[k] = j
                rec(k + 1, used | sm[j], total + v, j + 1)
                chosen[k] = None
            if out:  # what is left at this level: later candidates (<= v) or nothing
                open_bound = max(open_bound, total + v + rest)
                return
        rec(k + 1, used, total, len(vm))  # train k runs nothing (nor do its twins)

    if n == 0:
        return [], 0, 0, 0
    if budget <= 0:
        used = 0
        total = 0
        for k in range(n):
            start = 0
            if same[k]:
                prev = best[k - 1]
                start = len(vals[k]) if prev is None else prev + 1
            for j in range(start, len(vals[k])):
                explored += 1
                if not sides[k][j] & used:
                    best[k] = j
                    used |= sides[k][j]
                    total += vals[k][j]
                    break
        return best, total, suffix[0], explored
    rec(0, 0, 0, 0)
    bound = max(best_total, open_bound) if out else best_total
    return best, max(best_total, 0), bound, explored


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
) -> list[Route]:
    """Every legal route of one train, best first (revenue desc, then stop ids, track)."""
    rule = TrainRule.of(distance)
    net = network(board, state, corp)
    enum = net.enumerate(rule.max_stops, 1 << 62)
    revs = net.revenues(revenue_key)
    return [
        net.to_route(enum.routes[i], train, rule, revenue_key, bonuses)
        for _, _, i in _values(net, enum.routes, rule, revs, bonuses)
    ]


def has_route(board: Board, state: MapState, corp: str) -> bool:
    """Can the corporation run any route at all (a station joined by track to another stop)?"""
    net = network(board, state, corp)
    return any(net.adj[t] for t in net.tokens)
