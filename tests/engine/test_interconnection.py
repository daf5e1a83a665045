"""Interconnection bonuses: routes extended past their train's reach (seed 003 §6).

The optimiser is checked against brute force on small random maps: every legal route (as
in test_routefinder), every legal extension of it (every track-piece sequence from its
end stops accepted by ``check_extension``), and every combination of one option or none
per train whose track (extensions included) is disjoint. Hand-made lines pin the rule's
details with exact values.
"""

from __future__ import annotations

import pathlib
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_map import grid, tables_for, typed_board
from test_routefinder import DISTANCES, brute_routes, random_board

from eighteen.engine.extensions import _Flood
from eighteen.engine.face import Path
from eighteen.engine.ferries import FerryBonus, ScaledBonus
from eighteen.engine.map import Board
from eighteen.engine.position import MapState
from eighteen.engine.route_check import check_extension, check_routes
from eighteen.engine.route_network import network
from eighteen.engine.route_search import Exact
from eighteen.engine.routefinder import _values, optimize
from eighteen.engine.routes import (
    ConnectionBonus,
    InterconnectionBonus,
    Route,
    RouteError,
    TrainRule,
    bonus_hexes,
    with_extension,
)
from eighteen.io.jsonlimits import load_json
from eighteen.title.model import Distance

#: Saved games the tests read.
SAVES = pathlib.Path(__file__).parents[1] / "fixtures" / "saves"

# ---------------------------------------------------------------------------------------
# brute force


def path_bits(board: Board, state: MapState, paths: tuple[Path, ...]) -> int:
    g = board.graph(state)
    free = len(board.sides)
    out = 0
    for p in paths:
        pid = g.text_id[p.text]
        out |= g.path_sides[pid] or 1 << (free + pid)
    return out


def brute_extensions(
    board: Board,
    state: MapState,
    route: Route,
    bonuses: tuple[Any, ...],
    excluded: frozenset[Any] = frozenset(),
) -> list[tuple[Route, int]]:
    """Every legal extension of ``route`` that earns more: (extended route, its bits)."""
    g = board.graph(state)
    stops = [g.stop_id[(s.hex, s.kind, s.index)] for s in route.stops]
    used = path_bits(board, state, route.paths)
    out: dict[tuple[Any, ...], tuple[Route, int]] = {}

    def walk(node: tuple[bool, int], pids: list[int], nodes: set[Any]) -> None:
        if node[0] and pids:
            try:
                ext = [g.paths[p] for p in pids]
                end, sides, paths = check_extension(g, stops, used, ext, excluded)
            except RouteError:
                pass
            else:
                longer = with_extension(route, paths, g.stops[end][0], bonuses)
                if longer.revenue > route.revenue:
                    out[paths] = (longer, used | sides)
        nxt = g.stop_paths[node[1]] if node[0] else [p for _, p in g.side_paths.get(node[1], [])]
        for pid in nxt:
            other = g.other_end(pid, node)
            # a walk meeting a node (stop or hex side) twice is no extension, nor is any
            # longer one: the checker would refuse them all
            if other not in nodes:
                walk(other, [*pids, pid], nodes | {other})

    for s in {stops[0], stops[-1]}:
        walk((True, s), [], {(True, s)})
    return list(out.values())


def brute_best(
    board: Board,
    state: MapState,
    corp: str,
    trains: list[tuple[str, Any]],
    bonuses: tuple[Any, ...],
    excluded: frozenset[Any] = frozenset(),
) -> int:
    """Best total over every combination of one option (a route, or a route with an
    extension) or none per train, sharing no hex side."""
    per_train = []
    for _, d in trains:
        options = []
        for r in brute_routes(board, state, corp, d, bonuses, excluded=excluded):
            options.append((r.revenue, path_bits(board, state, r.paths)))
            options.extend(
                (x.revenue, bits)
                for x, bits in brute_extensions(board, state, r, bonuses, excluded)
            )
        per_train.append(options)
    best = 0

    def grow(k: int, used: int, total: int) -> None:
        nonlocal best
        if k == len(per_train):
            best = max(best, total)
            return
        grow(k + 1, used, total)
        for value, bits in per_train[k]:
            if not bits & used:
                grow(k + 1, used | bits, total + value)

    grow(0, 0, 0)
    return best


def check_result(
    board: Board,
    state: MapState,
    trains: list[Any],
    res: Any,
    bonuses: tuple[Any, ...],
    excluded: frozenset[Any] = frozenset(),
) -> None:
    """The optimiser's routes and extensions pass the rule checker with the same values."""
    dist = dict(trains)
    runs = [(r.train, dist[r.train], r.paths) for r in res.routes]
    ext = {r.train: r.extension for r in res.routes if r.extension}
    checked = check_routes(
        board, state, "X", runs, "yellow", bonuses, extensions=ext, excluded=excluded
    )
    assert checked == list(res.routes)
    assert sum(r.revenue for r in res.routes) == res.total


def random_bonuses(rng: random.Random, board: Board, state: MapState) -> tuple[Any, ...]:
    """An interconnection bonus from one of X's stations to two random stop hexes,
    sometimes a sea link, a connection bonus and a second interconnection."""
    g = board.graph(state)
    stops = sorted({h for s, (h, _, _) in enumerate(g.stops) if g.stop_paths[s]})  # on track
    if not stops:
        return ()  # a board of plain track only (rare: random_board(Random(1716))): no end
    a = g.stops[rng.choice(g.station_stops("X") or [0])][0]  # an end X's routes visit
    b, c = (rng.choice(stops) for _ in range(2))
    links: tuple[Any, ...] = ()
    if rng.random() < 0.4:
        links = ((rng.choice(stops), frozenset([c])),)
    out: tuple[Any, ...] = (
        InterconnectionBonus("I", (frozenset([a]), frozenset([b]), frozenset([c])), 50, links),
    )
    if rng.random() < 0.5:
        out += (ConnectionBonus("C", (frozenset([a]), frozenset([b])), 30),)
    if rng.random() < 0.5:
        out += (InterconnectionBonus("J", (frozenset([b]), frozenset([c])), 20, links),)
    return out


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.data())
def test_optimum_with_interconnections_equals_brute_force(
    rng: random.Random, data: st.DataObject
) -> None:
    board, state = random_board(rng)
    bonuses = random_bonuses(rng, board, state)
    n = data.draw(st.integers(1, 2))
    trains = [(f"t{i}", data.draw(st.sampled_from(DISTANCES[:5]))) for i in range(n)]
    hexes = sorted(board.hexes)
    excluded = frozenset(data.draw(st.lists(st.sampled_from(hexes), max_size=1)))
    res = optimize(board, state, "X", trains, "yellow", bonuses=bonuses, excluded=excluded)
    assert res.optimal and res.upper_bound == res.total
    check_result(board, state, trains, res, bonuses, excluded)
    assert res.total == brute_best(board, state, "X", trains, bonuses, excluded)


class Opaque:
    """A bonus that does not say which hexes its amount looks at (no ``hexes``)."""

    def __init__(self, base: Any) -> None:
        self.base = base
        self.id = base.id
        self.most = base.most

    def amount(self, hexes: frozenset[str]) -> int:
        return int(self.base.amount(hexes))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.sampled_from(DISTANCES))
def test_route_values_shared_by_the_hexes_bonuses_look_at(rng: random.Random, d: Any) -> None:
    """The optimiser values a route's bonuses once per set of the hexes they look at that
    it visits (``hexes``), for every train rule: every value equals the route's own
    reckoning, made when a bonus does not say its hexes (what its stops pay is reckoned
    alike both ways, and checked against brute force in test_routefinder). Random boards,
    their bonuses with a ferry, a connection and a doubled interconnection (its sea link's
    port elsewhere) of random hexes, each train rule."""
    board, state = random_board(rng)
    bonuses = random_bonuses(rng, board, state)
    hexes = sorted({h for h, _, _ in board.graph(state).stops})
    if hexes:  # a ferry, a connection of two hexes of its own, another interconnection doubled
        h2, h3, h4, h5, h6 = (rng.choice(hexes) for _ in range(5))
        g = board.graph(state)
        h1 = g.stops[rng.choice(g.station_stops("X") or [0])][0]  # (X's routes visit it)
        far = InterconnectionBonus(
            "K", (frozenset([h1]), frozenset([h2])), 10, ((h3, frozenset([h2])),)
        )
        bonuses += (
            FerryBonus("F", h4, 20),
            ConnectionBonus("C2", (frozenset([h5]), frozenset([h6])), 40),
            ScaledBonus(far, 2),
        )
    net = network(board, state, "X", frozenset(), frozenset())
    routes = net.enumerate(None, 1 << 40).routes
    rule, revs = TrainRule.of(d), net.revenues("yellow")
    assert bonus_hexes(bonuses) is not None and bonus_hexes(tuple(map(Opaque, bonuses))) is None
    shared = _values(net, routes, rule, revs, bonuses)
    own = _values(net, routes, rule, revs, tuple(map(Opaque, bonuses)))
    assert shared == own


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.integers(0, 120))
def test_a_budget_gives_a_legal_run_and_a_true_bound(rng: random.Random, budget: int) -> None:
    board, state = random_board(rng)
    bonuses = random_bonuses(rng, board, state)
    trains = [("a", 3), ("b", 2)]
    full = optimize(board, state, "X", trains, "yellow", bonuses=bonuses)
    cut = optimize(board, state, "X", trains, "yellow", bonuses=bonuses, budget=budget)
    check_result(board, state, trains, cut, bonuses)
    assert cut.total <= full.total <= cut.upper_bound
    if not cut.optimal:
        assert cut.explored >= budget


def test_bounding_walks_spend_the_search_budget_not_an_extensions() -> None:
    """Random board 0 (with its bonuses, X kept out of A3), two 3/2 trains, 150 states:
    the walks bounding the chosen routes (``Extender.alone``) count in the search's
    budget, so running out stops the search over routes with its best run ($140, the
    optimum, bound $190). Counted toward the extension search's own limit they cut short
    an extension's valuing instead: $100, bound $200. The full budget proves $140."""
    rng = random.Random(0)
    board, state = random_board(rng)
    bonuses = random_bonuses(rng, board, state)
    trains = [("a", Distance(pay=2, visit=3)), ("b", Distance(pay=2, visit=3))]
    kw: dict[str, Any] = {"bonuses": bonuses, "excluded": frozenset({"A3"})}
    cut = optimize(board, state, "X", trains, "yellow", budget=150, **kw)
    assert (cut.total, cut.optimal, cut.upper_bound, cut.explored) == (140, False, 190, 163)
    check_result(board, state, trains, cut, bonuses)
    board.clear_caches()
    full = optimize(board, state, "X", trains, "yellow", **kw)
    assert (full.total, full.optimal, full.explored) == (140, True, 172)


def test_an_extension_search_cut_short_is_not_called_optimal() -> None:
    """On the line, 2 states are enough to enumerate the routes but not to find the
    extension to B12: the answer is B2-B4 ($30, the greedy pick), flagged not proven,
    with the candidates' bound ($130); 30 states find the optimum."""
    board, state = line()
    cut = optimize(board, state, "X", [("2", 2)], "yellow", bonuses=(W_E,), budget=2)
    assert (cut.optimal, cut.total, cut.upper_bound) == (False, 30, 130)
    assert [s.id for s in cut.routes[0].stops] == ["B2-c0", "B4-c0"]
    assert cut.routes[0].extension == () and cut.explored >= 2
    check_result(board, state, [("2", 2)], cut, (W_E,))
    board.clear_caches()
    full = optimize(board, state, "X", [("2", 2)], "yellow", bonuses=(W_E,), budget=30)
    assert (full.optimal, full.total, full.upper_bound) == (True, 130, 130)


# ---------------------------------------------------------------------------------------
# by hand


#: The west of the line below: B2 city 10, B4 city 20, joined.
WEST: dict[str, dict[str, Any]] = {
    "B2": {"color": "gray", "cities": [{"revenue": 10, "slots": 1, "exits": [4]}]},
    "B4": {"color": "gray", "cities": [{"revenue": 20, "slots": 1, "exits": [1, 4]}]},
}


def board_of(hexes: dict[str, dict[str, Any]], *tokens: tuple[str, str]) -> tuple[Board, MapState]:
    """A board of ``hexes`` and a position with a token of each (corporation, hex)."""
    board = typed_board(tables_for(grid(hexes)))
    state = MapState()
    for corp, hex_id in tokens:
        board.place_token(state, corp, hex_id, 0)
    return board, state


def line() -> tuple[Board, MapState]:
    """B2 city 10 - B4 city 20 (X) - B6 city 30 (filled by Y) - B8 town 10 - B10 city 40,
    and B12 off-board 50 east of B10; track joins them in a row."""
    hexes: dict[str, dict[str, Any]] = {
        **WEST,
        "B6": {"color": "gray", "cities": [{"revenue": 30, "slots": 1, "exits": [1, 4]}]},
        "B8": {"color": "gray", "towns": [{"revenue": 10, "exits": [1, 4]}]},
        "B10": {"color": "gray", "cities": [{"revenue": 40, "slots": 1, "exits": [1, 4]}]},
        "B12": {
            "color": "red",
            "offboard": {"revenue": {"yellow": 50}, "exits": [1], "hidden": False},
        },
    }
    return board_of(hexes, ("X", "B4"), ("Y", "B6"))


#: Interconnection of B2 (W) with the off-board B12 (E).
W_E = InterconnectionBonus("W-E", (frozenset({"B2"}), frozenset({"B12"})), 100)


def test_track_reached_only_by_reversing_bounds_nothing() -> None:
    """B4's track runs into gray B6 and on to C5's side, where only B6's other piece
    leaves for the off-board C7: C7 lies on the track joined to B4, but a walk would
    have to turn back at that side (seed 002: no reversing at a junction). The bound of
    an extension counts only what a walk could end at, so B2-B4 ($30) is proven best
    in the 3 states of the enumeration, with no search of an extension (it took 17
    states while the bound counted all the joined track, and was not proven in 10)."""
    c7 = {"color": "red", "offboard": {"revenue": {"yellow": 50}, "exits": [2], "hidden": False}}
    junction = {"color": "gray", "track": [[1, 0], [0, 5]]}
    board, state = board_of({**WEST, "B6": junction, "C7": c7}, ("X", "B4"))
    w_c7 = InterconnectionBonus("W-C7", (frozenset({"B2"}), frozenset({"C7"})), 100)
    res = optimize(board, state, "X", [("2", 2)], "yellow", bonuses=(w_c7,), budget=3)
    assert (res.total, res.optimal, res.upper_bound, res.explored) == (30, True, 30, 3)
    (route,) = res.routes
    assert [s.id for s in route.stops] == ["B2-c0", "B4-c0"] and route.extension == ()
    # with B6's track straight through, the train runs B4-C7 ($70) and reaches B2
    straight = {"color": "gray", "track": [[1, 5]]}
    board, state = board_of({**WEST, "B6": straight, "C7": c7}, ("X", "B4"))
    res = optimize(board, state, "X", [("2", 2)], "yellow", bonuses=(w_c7,))
    (route,) = res.routes
    assert [s.id for s in route.stops] == ["B4-c0", "C7-o0"]
    assert [p.hex for p in route.extension] == ["B4", "B2"]
    assert (res.total, res.optimal) == (170, True)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_a_flood_reaches_what_the_distances_reach(rng: random.Random) -> None:
    """The walk the bounds ask (``_Flood``: breadth first, stopped at the first stop
    asked for) reaches a stop exactly when the distances of ``Extender._distances`` do,
    from a route's end stops over the track its sides leave, its stops not passed: each
    stop asked alone and in turn of one walk, random boards and routes; no question
    leaves more nodes than the distances do."""
    board, state = random_board(rng)
    bonuses = random_bonuses(rng, board, state)
    net = network(board, state, "X", frozenset(), frozenset())
    routes = net.enumerate(None, 1 << 40).routes
    if not routes:
        return
    ext = Exact(net, routes, bonuses).ext
    stops, _, _ = routes[rng.randrange(len(routes))]
    used = Exact(net, routes, bonuses).sides([rng.randrange(len(routes))])
    starts, avoid = ext.starts(stops), set(stops)
    before = ext.explored
    dist = ext._distances(starts, used, avoid)
    full = ext.explored - before
    asked = list(range(ext.n_stops))
    rng.shuffle(asked)
    flood = _Flood(ext, starts, used, avoid)
    before = ext.explored
    assert [flood.reaches([t]) for t in asked] == [dist[t] >= 0 for t in asked]
    assert ext.explored - before <= full
    for t in asked:
        before = ext.explored
        assert _Flood(ext, starts, used, avoid).reaches([t]) == (dist[t] >= 0)
        assert ext.explored - before <= full


def test_a_flood_stops_at_the_first_stop_asked_for() -> None:
    """On the line from B4 (X's station), the distances leave 11 nodes (its 6 stops and
    5 sides). Asked for B2, the walk leaves 2 (B4 and the side towards B2); asked next for
    the off-board B12, it goes on from there, through B6 (Y's: an extension passes), to
    10 in all (B12 reached, not left); asked for B2 again, it leaves none."""
    board, state = line()
    net = network(board, state, "X", frozenset(), frozenset())
    ext = Exact(net, net.enumerate(None, 1 << 40).routes, (W_E,)).ext
    stop = {h: s for s, (h, _, _) in enumerate(net.g.stops)}
    before = ext.explored
    dist = ext._distances([stop["B4"]], 0, {stop["B4"]})
    assert ext.explored - before == 11 and dist[stop["B12"]] == 8
    flood = _Flood(ext, [stop["B4"]], 0, {stop["B4"]})
    before = ext.explored
    assert flood.reaches([stop["B2"]]) and ext.explored - before == 2
    assert flood.reaches([stop["B12"]]) and ext.explored - before == 10
    assert flood.reaches([stop["B2"]]) and ext.explored - before == 10


def test_a_route_whose_own_track_bars_its_extension_is_valued_without_it() -> None:
    """B6 forks at its west side: to the town A7 and to the off-board B8 (E). A7-B4-B2
    visits W, and a walk from A7 could end at B8 over all the track (back through B4's
    city), so its candidate value counts the bonus; but its own track holds the side
    B4|B6 every such walk needs, so it earns none in any run. The search counts that
    once per route it tries, not once per pair of routes: best B4-B8 extended to B2
    ($170), proven in 34 states (38 while the bound walked all the track the route
    leaves, not stopping at the first end stop it found; 44 before that)."""
    fork = {"color": "gray", "track": [[1, 3], [1, 4]]}
    a7 = {"color": "gray", "towns": [{"revenue": 10, "exits": [0]}]}
    b8 = {"color": "red", "offboard": {"revenue": {"yellow": 50}, "exits": [1], "hidden": False}}
    board, state = board_of({**WEST, "B6": fork, "A7": a7, "B8": b8}, ("X", "B4"))
    w_b8 = InterconnectionBonus("W-B8", (frozenset({"B2"}), frozenset({"B8"})), 100)
    net = network(board, state, "X", frozenset(), frozenset())
    routes = net.enumerate(None, 1 << 40).routes
    ext = Exact(net, routes, (w_b8,)).ext
    hexes = {tuple(net.g.stops[s][0] for s in stops): i for i, (stops, _, _) in enumerate(routes)}
    bounds = {h: (ext.optimistic(i), ext.alone(i)) for h, i in hexes.items()}
    assert bounds == {
        ("A7", "B4"): (0, 0),
        ("A7", "B4", "B2"): (100, 0),
        ("B2", "B4"): (100, 100),
        ("B2", "B4", "B8"): (0, 0),
        ("B4", "B8"): (100, 100),
    }
    trains = [("a", 3), ("b", 2)]
    res = optimize(board, state, "X", trains, "yellow", bonuses=(w_b8,), budget=40)
    assert (res.total, res.optimal, res.explored) == (170, True, 34)
    (route,) = res.routes
    assert [s.id for s in route.stops] == ["B4-c0", "B8-o0"]
    assert [p.hex for p in route.extension] == ["B4", "B2"]


def test_routes_above_bound_an_extension_by_the_track_they_leave() -> None:
    """On the line, B2-B4 is valued with W-E (its extension east from B4 to the off-board
    B12). Beside B4-B6 or B2-B4-B6, whose track holds the side B4|B6 every such extension
    needs, no part of the track left holds both B4 and B12: bounded at 0. With no route
    above it is 100, and B2-B4-B6 keeps 100 beside B2-B4 (a route's own track is left to
    the exact valuing). The parts are labelled from a route's end stops when asked."""
    board, state = line()
    net = network(board, state, "X", frozenset(), frozenset())
    routes = net.enumerate(None, 1 << 40).routes
    exact = Exact(net, routes, (W_E,))
    ext = exact.ext
    idx = {tuple(net.g.stops[s][0] for s in stops): i for i, (stops, _, _) in enumerate(routes)}
    assert sorted(idx) == [("B2", "B4"), ("B2", "B4", "B6"), ("B4", "B6")]
    beside = {
        (h, above): ext.beside(i, exact.sides([idx[above]]) if above else 0)
        for h, i in idx.items()
        for above in [None, *idx]
    }
    assert beside == {
        (("B2", "B4"), None): 100,
        (("B2", "B4"), ("B2", "B4")): 100,
        (("B2", "B4"), ("B2", "B4", "B6")): 0,
        (("B2", "B4"), ("B4", "B6")): 0,
        (("B2", "B4", "B6"), None): 100,
        (("B2", "B4", "B6"), ("B2", "B4")): 100,
        (("B2", "B4", "B6"), ("B2", "B4", "B6")): 100,
        (("B2", "B4", "B6"), ("B4", "B6")): 100,
        (("B4", "B6"), None): 0,
        (("B4", "B6"), ("B2", "B4")): 0,
        (("B4", "B6"), ("B2", "B4", "B6")): 0,
        (("B4", "B6"), ("B4", "B6")): 0,
    }
    assert exact.slack_beside(idx[("B2", "B4")], exact.sides([idx[("B4", "B6")]])) == 100


def test_1833ne_routes_above_bar_the_extensions_of_many_candidates(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A greedy 3-player 1833NE game (seed 5) at its 840th action: HR runs two 7+3
    trains, best $810 (New York to Hartford and on, with BOS-NY) and $550. Thousands of
    the second train's candidates are valued with an interconnection whose extension the
    first train's route bars. The search values two of a branch's last candidates exactly,
    then bounds the rest by the parts of the track the routes above leave them
    (``Extender.beside``): proven in 96,849 states. Valued one by one, as before, the
    default budget (300,000 states) ran out on the same run, unproven."""
    from eighteen.engine import network, route_search
    from eighteen.engine.game import Game

    g = Game.from_json(
        load_json(SAVES.joinpath("1833ne-routes-above-bar-extensions.json").read_text())
    )
    res = network.optimal(g, "HR")
    assert (res.total, res.optimal, res.explored) == (1360, True, 96849)
    assert [r.revenue for r in res.routes] == [810, 550]
    monkeypatch.setattr(route_search, "VALUED_FIRST", 1 << 40)
    network.board(g).clear_caches()
    g.invalidate_caches()
    res = network.optimal(g, "HR")
    assert (res.total, res.optimal, res.explored) == (1360, False, 300017)


def test_a_2_train_reaches_the_far_end_through_a_blocked_city() -> None:
    board, state = line()
    res = optimize(board, state, "X", [("2", 2)], "yellow", bonuses=(W_E,))
    (route,) = res.routes
    # B2-B4 pays 30; its extension runs past B6 (filled by Y), B8 and B10 to B12
    assert [s.id for s in route.stops] == ["B2-c0", "B4-c0"]
    assert [str(p) for p in route.extension] == EAST
    assert route.bonuses == (("W-E", 100),)
    assert res.total == route.revenue == 130
    assert "  extended B4 B6 B8 B10 B12" in route.explain()


def test_the_extension_may_leave_either_end_and_blocks_other_routes() -> None:
    """With X also at B10, the best run is one route B10-B12 extended west to B2 (past
    X's own B4 and Y's B6): 40 + 50 + 100. The other train has no track left: every
    piece west of B10 is the extension's. Any run of two routes earns at most 90 + 50."""
    board, state = line()
    board.place_token(state, "X", "B10", 0)
    res = optimize(board, state, "X", [("a", 2), ("b", 2)], "yellow", bonuses=(W_E,))
    (route,) = res.routes
    assert [s.id for s in route.stops] == ["B10-c0", "B12-o0"]
    assert [str(p) for p in route.extension] == [
        "B10:c0-e1",
        "B8:e4-t0",
        "B8:e1-t0",
        "B6:c0-e4",
        "B6:c0-e1",
        "B4:c0-e4",
        "B4:c0-e1",
        "B2:c0-e4",
    ]
    assert res.total == 190 and res.optimal


def test_an_extension_leaves_a_blocked_city_at_the_routes_end() -> None:
    """The D train may not pass Y's B6: its best route B2-B4-B6 ($60) ends there, and its
    extension carries on from B6 to B12 (+$100)."""
    board, state = line()
    res = optimize(board, state, "X", [("D", None)], "yellow", bonuses=(W_E,))
    (route,) = res.routes
    assert [s.id for s in route.stops] == ["B2-c0", "B4-c0", "B6-c0"]
    assert route.extension[0].hex == "B6" and route.extension[-1].hex == "B12"
    assert res.total == 160


def test_a_route_visiting_both_ends_earns_no_interconnection() -> None:
    """With B6 free the D train can run all six stops ($160) but then earns no
    interconnection; stopping at B4 and extending to B2 earns 150 + 100."""
    board, _ = line()
    free = MapState()
    board.place_token(free, "X", "B4", 0)
    g = board.graph(free)
    whole = [g.paths[pid] for pid in g.text_id.values()]  # every path of the graph
    whole.sort(key=lambda p: (int(p.hex[1:]), str(p)))
    (route,) = check_routes(board, free, "X", [("D", None, whole)], "yellow", (W_E,))
    assert len(route.stops) == 6 and route.bonuses == () and route.revenue == 160
    res = optimize(board, free, "X", [("D", None)], "yellow", bonuses=(W_E,))
    (best,) = res.routes
    assert [s.hex for s in best.stops] == ["B12", "B10", "B8", "B6", "B4"]
    assert [p.hex for p in best.extension] == ["B4", "B2"]
    assert best.bonuses == (("W-E", 100),) and res.total == 250


def test_a_private_multiplier_doubles_an_interconnection() -> None:
    """bonus_multiplier (1833NE's P4 on BOS-OGD-I) scales the bonus an extension earns."""
    from eighteen.engine.ferries import ScaledBonus

    board, state = line()
    res = optimize(board, state, "X", [("2", 2)], "yellow", bonuses=(ScaledBonus(W_E, 2),))
    (route,) = res.routes
    assert route.bonuses == (("W-E", 200),) and res.total == 230
    assert [str(p) for p in route.extension] == EAST


def test_sea_links_reach_without_track() -> None:
    """A ferry port on the route links to the far end: no extension needed."""
    board, state = line()
    sea = InterconnectionBonus("W-E", W_E.ends, 100, links=(("B4", frozenset({"B12"})),))
    res = optimize(board, state, "X", [("2", 2)], "yellow", bonuses=(sea,))
    (route,) = res.routes
    assert route.extension == () and route.bonuses == (("W-E", 100),) and res.total == 130


#: The extension of B2-B4 east to B12, outwards from B4.
EAST = [
    "B4:c0-e4",
    "B6:c0-e1",
    "B6:c0-e4",
    "B8:e1-t0",
    "B8:e4-t0",
    "B10:c0-e1",
    "B10:c0-e4",
    "B12:e1-o0",
]


@pytest.mark.parametrize(
    ("extensions", "error"),
    [
        ({"9": EAST}, "train 9 has an extension but no route"),
        ({"2": EAST[1:]}, "the extension does not leave an end of its route at B6:c0-e1"),
        ({"2": ["B4:c0-e1", *EAST]}, "the extension reuses the side B4 edge of B4:c0-e1"),
        ({"2": EAST[:1]}, "an extension must end at a stop"),
        ({"2": EAST[:6]}, "the extension of train 2 to B10 earns no interconnection bonus"),
        ({"2": [EAST[0], EAST[2]]}, "track B6:c0-e4 does not continue the extension"),
        ({"2": ["B9:c0-e1"]}, "no track B9:c0-e1 on the board"),
        ({"2": []}, None),  # no extension: the plain route
    ],
)
def test_checker_refuses_bad_extensions(extensions: dict[str, Any], error: str | None) -> None:
    board, state = line()
    runs = [("2", 2, ["B2:c0-e4", "B4:c0-e1"])]
    if error is None:
        (route,) = check_routes(board, state, "X", runs, "yellow", (W_E,), extensions=extensions)
        assert route.revenue == 30 and route.extension == ()
        return
    with pytest.raises(RouteError) as exc:
        check_routes(board, state, "X", runs, "yellow", (W_E,), extensions=extensions)
    assert exc.value.reason == error


def test_checker_keeps_extensions_off_excluded_hexes_and_off_boards() -> None:
    board, state = line()
    runs = [("2", 2, ["B2:c0-e4", "B4:c0-e1"])]
    with pytest.raises(RouteError) as exc:
        check_routes(
            board, state, "X", runs, "yellow", (W_E,), extensions={"2": EAST}, excluded={"B8"}
        )
    assert exc.value.reason == "the extension may not run to B8"
    res = optimize(board, state, "X", [("2", 2)], "yellow", bonuses=(W_E,), excluded={"B8"})
    assert res.total == 50 and res.routes[0].bonuses == ()  # B4-B6; no way past B8
    # a route ending at the off-board B12 cannot be extended from it
    board.place_token(state, "X", "B10", 0)
    runs = [("2", 2, ["B10:c0-e4", "B12:e1-o0"])]
    west = ["B12:e1-o0", "B10:c0-e4"]
    with pytest.raises(RouteError) as exc:
        check_routes(board, state, "X", runs, "yellow", (W_E,), extensions={"2": west})
    assert exc.value.reason == "an extension may not leave the off-board B12 offboard 0"


def test_checker_takes_a_good_extension_and_refuses_shared_track() -> None:
    board, state = line()
    runs: list[Any] = [("2", 2, ["B2:c0-e4", "B4:c0-e1"])]
    (route,) = check_routes(board, state, "X", runs, "yellow", (W_E,), extensions={"2": EAST})
    assert route.revenue == 130 and route.bonuses == (("W-E", 100),)
    assert [str(p) for p in route.extension] == EAST
    board.place_token(state, "X", "B10", 0)
    runs.append(("3", 2, ["B10:c0-e1", "B8:e4-t0"]))
    with pytest.raises(RouteError) as exc:
        check_routes(board, state, "X", runs, "yellow", (W_E,), extensions={"2": EAST})
    assert exc.value.reason == "the extension reuses the side B8 edge of B8:e4-t0"


# ---------------------------------------------------------------------------------------
# on the 1833NE map


def hartford_to_new_york() -> Any:
    """1833NE, phase I: HR at Hartford (C24) with track to New Haven (C26, tile 6),
    Bridgeport (B27, tile 4) and New York (A28), and from Hartford by D23 and E24 to
    Norwich (E26, tile 57), whose ferry HR owns."""
    from ne_scenario import new_game

    from eighteen.engine import network

    g = new_game()
    for hex_id, tile, rotation in [
        ("C26", "6", 1),
        ("B27", "4", 1),
        ("D23", "8", 5),
        ("E24", "8", 0),
        ("E26", "57", 0),
    ]:
        network.lay_tile(g, hex_id, tile, rotation)
    network.place_token(g, "HR", "C24", 0)
    g.state.ferries["E26"] = "HR"
    g.state.ferry_order.append("E26")
    g.invalidate_caches()
    return g


#: Hartford - New Haven - Bridgeport - New York, and the extension to Norwich.
TO_NEW_YORK = ["C24:c0-e0", "C26:c0-e3", "C26:c0-e1", "B27:e4-t0", "B27:e1-t0", "A28:e4-o0"]
TO_NORWICH = ["C24:c0-e4", "D23:e1-e5", "E24:e2-e0", "E26:c0-e3"]


def test_1833ne_a_ferry_reached_by_an_extension_links_to_boston() -> None:
    """A 3/5 train visits New York (the BOS-NY-I end); its extension from Hartford to
    Norwich reaches HR's ferry, which links to Boston by sea: + $20 (phase I). The
    extension's stops pay nothing and its ferry value does not count."""
    from eighteen.engine import network, phases

    g = hartford_to_new_york()
    b, state = network.board(g), g.state.map
    bonuses = network.corp_bonuses(g, "HR")
    runs = [("t", Distance(pay=3, visit=5), TO_NEW_YORK)]
    key = phases.revenue_key(g)
    (plain,) = check_routes(b, state, "HR", runs, key, bonuses)
    assert plain.revenue == 20 + 20 + 10 and plain.bonuses == ()
    (longer,) = check_routes(b, state, "HR", runs, key, bonuses, extensions={"t": TO_NORWICH})
    assert longer.bonuses == (("BOS-NY-I", 20),) and longer.revenue == 70
    # without the ferry Norwich links nowhere
    g.state.ferries["E26"] = ""
    g.invalidate_caches()
    with pytest.raises(RouteError) as exc:
        check_routes(
            b, state, "HR", runs, key, network.corp_bonuses(g, "HR"), extensions={"t": TO_NORWICH}
        )
    assert exc.value.reason == "the extension of train t to E26 earns no interconnection bonus"


def test_1833ne_the_optimum_takes_the_port_into_the_route() -> None:
    """With 5 stops to visit, the 3/5 train does better running on to Norwich itself: best
    three stops 20 + 20 + 20, the ferry (20 + new-ferry bonus 20) and BOS-NY-I by sea."""
    from eighteen.engine import network, phases
    from eighteen.engine.routefinder import optimize

    g = hartford_to_new_york()
    res = optimize(
        network.board(g),
        g.state.map,
        "HR",
        [("t", Distance(pay=3, visit=5))],
        phases.revenue_key(g),
        bonuses=tuple(network.corp_bonuses(g, "HR")),
    )
    (route,) = res.routes
    assert [s.hex for s in route.stops] == ["A28", "B27", "C26", "C24", "E26"]
    assert route.extension == ()
    assert route.bonuses == (("BOS-NY-I", 20), ("ferry E26", 40))
    assert res.total == 60 + 40 + 20 and res.optimal


def test_1833ne_bots_run_extended_routes_and_saves_replay_them() -> None:
    """A greedy 4-player game: some runs carry extensions (the engine offers the optimum
    as the RunRoutes action, and applying it checks every extension); the save replays to
    the same state."""
    from ne_scenario import PLAYERS, new_game

    from eighteen import Game
    from eighteen.engine.actions import RunRoutes
    from eighteen.engine.bots import Bot, GreedyBot, play

    # the first of these bot seeds whose corporations reach an interconnection (seeds 1-5
    # reach none: the search starts at 6, not to play five games for nothing)
    for seed in range(6, 14):
        g = new_game()
        bots: dict[str, Bot] = {p: GreedyBot(seed + i) for i, p in enumerate(PLAYERS)}
        runs = [a for a in play(g, bots) if isinstance(a, RunRoutes)]
        extended = [r for a in runs for r in a.routes if r.extension]
        if extended:
            break
    assert extended and all(r.revenue > 0 for r in extended)
    again = Game.from_json(g.to_json())
    assert again.state_hash() == g.state_hash()


def test_extension_gains_follow_the_wanted_hexes_a_route_visits() -> None:
    """The extender's adjacency holds the paths laid, not the ids no path holds.  What ending an extension at each stop adds to a route depends only on the bonus
    ends and ports the route visits: the extender keeps the gains under those, and they
    equal the gains worked out from all of the route's hexes for every pair and a sample
    of triples of stops."""
    from itertools import permutations

    from eighteen.engine import network
    from eighteen.engine.extensions import Extender
    from eighteen.engine.routes import extension_value, reaches

    g = hartford_to_new_york()
    b = network.board(g)
    bonuses = network.corp_bonuses(g, "HR")
    tg = b.graph(g.state.map)
    ext = Extender(tg, bonuses, lambda i: ((), 0))
    # each path joins its two ends once each way; the ids no path holds join nothing
    assert sum(map(len, ext.adj)) == 2 * len(tg.text_id) < len(tg.paths)
    sid = {(h, i): s for s, (h, _, i) in enumerate(tg.stops)}
    ny, b27, c26, c24 = sid[("A28", 0)], sid[("B27", 0)], sid[("C26", 0)], sid[("C24", 0)]
    boston = [sid[("E26", 0)], sid[("G22", 0)], sid[("G22", 1)]]
    # New York visited: $20 more (BOS-NY-I) reaching Norwich's ferry or Boston itself
    assert ext.targets([ny, b27, c26, c24]) == [(20, boston)]
    assert ext.targets([c24, c26, ny]) == [(20, boston)]  # other hexes, the same gains...
    assert len(ext._targets) == 1  # ...kept once
    assert ext.targets([b27, c26, c24]) == []  # no bonus end visited

    def reference(stops: tuple[int, ...]) -> list[tuple[int, list[int]]]:
        hexes = frozenset(tg.stops[s][0] for s in stops)
        ours = [x for x in bonuses if reaches(x)]
        base = extension_value(ours, hexes, None)
        by_gain: dict[int, list[int]] = {}
        for s in ext.ends:
            h = tg.stops[s][0]
            v = extension_value(ours, hexes, h) - base
            if h not in hexes and v > 0 and s not in stops:
                by_gain.setdefault(v, []).append(s)
        return sorted(by_gain.items(), key=lambda x: -x[0])

    stops = range(len(tg.stops))
    sample = list(permutations(stops, 2)) + random.Random(3).sample(
        list(permutations(stops, 3)), 500
    )
    assert [ext.targets(list(s)) for s in sample] == [reference(s) for s in sample]
    assert sum(1 for s in sample if reference(s)) > 100  # (gains are found, not only [])
