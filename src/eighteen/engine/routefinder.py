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

The network and its enumeration are :mod:`eighteen.engine.route_network`'s, the choice
:mod:`eighteen.engine.route_search`'s.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from eighteen.engine import collector
from eighteen.engine.extensions import Extender
from eighteen.engine.map import Board
from eighteen.engine.position import MapState
from eighteen.engine.route_network import Network, network
from eighteen.engine.route_search import Exact, choose, once_amounts
from eighteen.engine.routes import (
    Bonus,
    Route,
    TrainDistance,
    TrainRule,
    bonus_hexes,
    hex_bits,
    reaches,
    share_once,
    visit_revenues,
    with_extension,
)

#: Default work budget (explored states) of :func:`optimize`: about a second of search and
#: a few hundred MB at most on one core; real positions seen so far need a few thousand.
DEFAULT_BUDGET = 300_000

#: The collector's pace while a route search runs (:func:`eighteen.engine.collector.bulk`):
#: a young collection every million net allocations.  A search keeps its routes, values
#: and extensions alive to its end: at the bulk pace of 100,000, the young collections
#: in the 3,114 searches of 30 greedy bot games of a title with interconnection bonuses
#: (79 of them) walked those, a tenth of the games' time, to find no cycle; at this pace
#: none of them collects.  On leaving a
#: search its young objects go to the oldest generation (what it left to the caches is
#: not walked by the next young collection either).
SEARCH_PACE = 1_000_000


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


def _paid(
    rule: TrainRule,
    stops: tuple[int, ...],
    revs: Sequence[int],
    requires: list[tuple[str, ...]],
    visiting: set[int],
    hexes: list[str],
    tok: set[int],
) -> int:
    """What a route's stops pay a train (:func:`visit_revenues` where one of its stops is
    among ``visiting``, those paying only with a visit, ``requires`` each stop's; and
    :meth:`TrainRule.total` where the train counts its best stops), its bonuses left
    out."""
    paid = [revs[s] for s in stops]
    if visiting and not visiting.isdisjoint(stops):
        paid = visit_revenues(paid, [hexes[s] for s in stops], [requires[s] for s in stops])
    if rule.pay is None:  # (every stop counts)
        return sum(paid)
    return rule.total(paid, [s in tok for s in stops])


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
    visiting = {s for s, need in enumerate(requires) if need}
    simple = rule.pay is None and not bonuses and not visiting
    tok = set(net.tokens)
    hexes = [h for h, _, _ in g.stops]
    # a route's bonuses follow from the hexes they look at that it visits: reckoned once
    # per such set (routes alike share it) when every bonus says its hexes, kept by those
    # hexes as one number (a bit per hex looked at, per stop its hex's or 0)
    looked = bonus_hexes(bonuses) if bonuses else None
    bit = hex_bits(hexes, looked or ())
    shared: dict[int, int] = {}
    visit, towns = rule.visit, rule.towns
    optimistic = None if ext is None else ext.optimistic
    for i, (stops, _, sides) in enumerate(routes):
        # (TrainRule.fits, read here: over ``visit`` stops, only its extra towns)
        n = len(stops)
        if (
            visit is not None
            and n > visit
            and (n > visit + towns or n - sum([town[s] for s in stops]) > visit)
        ):
            continue
        if simple:
            value = sum([revs[s] for s in stops])
        else:
            value = _paid(rule, stops, revs, requires, visiting, hexes, tok)
            if looked is not None:
                seen = 0
                for s in stops:
                    seen |= bit[s]
                if seen in shared:
                    value += shared[seen]
                else:
                    key = frozenset([hexes[s] for s in stops if bit[s]])
                    extra = shared[seen] = sum([b.amount(key) for b in bonuses])
                    value += extra
            elif bonuses:
                hs = frozenset([hexes[s] for s in stops])
                value += sum([b.amount(hs) for b in bonuses])
        if optimistic is not None:
            value += optimistic(i)
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
    with collector.bulk(SEARCH_PACE):  # (the search at its pace of the collector)
        net = network(board, state, corp, stations, excluded, groups)
        limits = [r.max_stops for _, r in trains]
        limit = None if None in limits else max(x for x in limits if x is not None)
        enum = net.enumerate(limit, budget)
        explored = enum.explored
        revs = net.revenues(revenue_key)
        exact = None
        if any(reaches(b) for b in bonuses):
            exact = Exact(net, enum.routes, bonuses, excluded)
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
        once_of = once_amounts(net, enum.routes, bonuses)
        if exact is not None:
            exact.ext.limit = left
        picks, total, bound, used = choose(
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
