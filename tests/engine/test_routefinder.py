"""The route optimiser against brute force on small random maps, and its contract.

Brute force: every sequence of track pieces on the board is tried as a route with
``check_route`` (the rule checker), then every combination of one route (or none) per
train is tried; the optimiser (segments, enumeration, branch and bound) must find the same
best total, with legal routes.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_map import OFFSETS, grid, tables_for, typed_board, xy

from eighteen.engine.ferries import FerryBonus
from eighteen.engine.map import Board
from eighteen.engine.position import MapState
from eighteen.engine.route_check import check_route, check_routes
from eighteen.engine.routefinder import RouteResult, optimize
from eighteen.engine.routes import (
    ConnectionBonus,
    InterconnectionBonus,
    Route,
    RouteError,
    Stop,
    TrainRule,
    hex_bits,
    table_bonuses,
)
from eighteen.title.model import Bonus, Distance

# ---------------------------------------------------------------------------------------
# random boards

#: Hex ids of a small pointy grid (doubled coordinates: x + y even).
CELLS = [f"{r}{c}" for r in "ABCD" for c in range(1, 8) if (c - 1 + "ABCD".index(r)) % 2 == 0]

DISTANCES: list[Any] = [
    2,
    3,
    4,
    None,
    Distance(pay=2, visit=3),
    TrainRule(4, 2, station_paid=True),
    Distance(cities=2, towns=1),
]


def inner_edges(h: str, cells: set[str]) -> list[int]:
    """Edges of ``h`` facing another hex of ``cells``."""
    x, y = xy(h)
    out = []
    for e, (dx, dy) in enumerate(OFFSETS):
        nb = f"{chr(ord('A') + y + dy)}{x + dx + 1}" if y + dy >= 0 else None
        if nb in cells:
            out.append(e)
    return out


def random_board(rng: random.Random) -> tuple[Board, MapState]:
    """Gray hexes with random cities (one or two), towns, plain track and off-boards, their
    exits mostly facing other hexes; tokens of X, and of Y and Z that may fill cities."""
    cells = set(rng.sample(CELLS, rng.randint(5, len(CELLS))))
    hexes: dict[str, dict[str, Any]] = {}
    for h in sorted(cells):
        inner = inner_edges(h, cells) or [0]
        d: dict[str, Any] = {"color": "gray", "track": []}
        kind = rng.random()
        if kind < 0.12:
            d = {
                "color": "red",
                "offboard": {
                    "revenue": {"yellow": rng.choice([10, 20, 40]), "brown": 60},
                    "group": rng.choice([None, "W"]),
                    "hidden": False,
                    "exits": sorted(rng.sample(inner, min(len(inner), rng.randint(1, 2)))),
                    "requires_visit": rng.choice([[], [], [rng.choice(CELLS)]]),
                },
            }
        else:
            edges = list(inner)
            rng.shuffle(edges)
            if kind < 0.6:
                d["cities"] = []
                for _ in range(2 if rng.random() < 0.2 and len(edges) > 1 else 1):
                    k = rng.randint(1, max(1, min(3, len(edges) - 1)))
                    exits, edges = edges[:k], edges[k:]
                    d["cities"].append(
                        {
                            "revenue": rng.choice([10, 20, 30, 40]),
                            "slots": rng.randint(1, 2),
                            "exits": sorted(exits),
                        }
                    )
            elif kind < 0.75:
                k = rng.randint(1, max(1, min(3, len(edges))))
                d["towns"] = [{"revenue": rng.choice([10, 20]), "exits": sorted(edges[:k])}]
            for _ in range(rng.randint(0, 3)):
                if len(inner) > 1:
                    d["track"].append(sorted(rng.sample(inner, 2)))
        hexes[h] = d
    board = typed_board(tables_for(grid(hexes)))
    state = MapState()
    cities = [(h, i) for h in sorted(hexes) for i in range(len(hexes[h].get("cities", [])))]
    rng.shuffle(cities)
    for h, i in cities[: rng.randint(1, 3)]:
        board.place_token(state, "X", h, i)
    for h, i in cities[3 : 3 + rng.randint(0, 3)]:
        board.place_token(state, "Y", h, i)
        if rng.random() < 0.5 and board.free_slots(state, h, i):
            board.place_token(state, "Z", h, i)
    return board, state


# ---------------------------------------------------------------------------------------
# brute force


def brute_routes(
    board: Board,
    state: MapState,
    corp: str,
    distance: Any,
    bonuses: tuple[Any, ...] = (),
    **access: Any,
) -> list[Route]:
    """Every legal route: all track-piece sequences from a stop, checked by check_route."""
    g = board.graph(state)
    found: dict[tuple[Any, ...], Route] = {}

    def walk(node: tuple[bool, int], pids: list[int], prev_hex: str | None) -> None:
        if node[0] and pids:
            try:
                route = [g.paths[p] for p in pids]
                r = check_route(
                    board, state, corp, "t", distance, route, "yellow", bonuses, **access
                )
            except RouteError:
                pass
            else:
                found[(r.stops, r.paths)] = r
            if len(pids) > 1 and not g.passable(node[1], corp):
                return
        if len(pids) >= 64:
            return
        nxt = (
            g.stop_paths[node[1]]
            if node[0]
            else [p for h, p in g.side_paths.get(node[1], []) if h != prev_hex]
        )
        for pid in nxt:
            if pid not in pids:
                walk(g.other_end(pid, node), [*pids, pid], g.paths[pid].hex)

    for s in range(len(g.stops)):
        walk((True, s), [], None)
    return list(found.values())


def brute_best(
    board: Board,
    state: MapState,
    corp: str,
    trains: list[tuple[str, Any]],
    bonuses: tuple[Any, ...] = (),
    **access: Any,
) -> int:
    """Best total over every combination of one route or none per train whose routes share
    no hex side (combinations are grown train by train, dropping ones that share track). A
    once-per-run bonus counts the most any chosen route earns of it, once."""
    once = {b.id for b in bonuses if getattr(b, "once", False)}

    def sides(r: Route) -> frozenset[Any]:
        out: set[Any] = set()
        for p in r.paths:
            out.update(board.side_id[(p.hex, e)] for e in p.edges)
            if not p.edges:
                out.add(str(p))
        return frozenset(out)

    per_train = [
        [
            (
                r.revenue - sum(v for b, v in r.bonuses if b in once),
                sides(r),
                {b: v for b, v in r.bonuses if b in once},
            )
            for r in brute_routes(board, state, corp, d, bonuses, **access)
        ]
        for _, d in trains
    ]
    best = 0

    def grow(k: int, used: frozenset[Any], total: int, earned: dict[str, Any]) -> None:
        nonlocal best
        if k == len(per_train):
            best = max(best, total + sum(earned.values()))
            return
        grow(k + 1, used, total, earned)
        for value, ss, got in per_train[k]:
            if not ss & used:
                e = {b: max(earned.get(b, 0), got.get(b, 0)) for b in {*earned, *got}}
                grow(k + 1, used | ss, total + value, e)

    grow(0, frozenset(), 0, {})
    return best


def assert_legal(
    board: Board,
    state: MapState,
    corp: str,
    trains: list[Any],
    res: RouteResult,
    bonuses: tuple[Any, ...] = (),
    **access: Any,
) -> None:
    dist = dict(trains)
    runs = [(r.train, dist[r.train], r.paths) for r in res.routes]
    checked = check_routes(board, state, corp, runs, "yellow", bonuses, **access)
    assert checked == list(res.routes)
    assert sum(r.revenue for r in res.routes) == res.total
    assert [r.train for r in res.routes] == [
        t for t, _ in trains if t in {x.train for x in checked}
    ]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.data())
def test_optimum_equals_brute_force(rng: random.Random, data: st.DataObject) -> None:
    board, state = random_board(rng)
    n = data.draw(st.integers(1, 3))
    dists = data.draw(st.lists(st.sampled_from(DISTANCES), min_size=n, max_size=n))
    trains = [(f"t{i}", d) for i, d in enumerate(dists)]
    res = optimize(board, state, "X", trains, "yellow")
    assert res.optimal and res.upper_bound == res.total
    assert_legal(board, state, "X", trains, res)
    assert res.total == brute_best(board, state, "X", trains)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.data())
def test_virtual_stations_and_excluded_hexes_equal_brute_force(
    rng: random.Random, data: st.DataObject
) -> None:
    """Private powers: stations on hexes without a token (off-boards too), hexes the
    corporation may not run to."""
    board, state = random_board(rng)
    hexes = sorted(board.hexes)
    stations = frozenset(data.draw(st.lists(st.sampled_from(hexes), max_size=2)))
    excluded = frozenset(data.draw(st.lists(st.sampled_from(hexes), max_size=2)))
    trains = [("a", data.draw(st.sampled_from(DISTANCES))), ("b", 2)]
    corp = data.draw(st.sampled_from(["X", "W"]))  # W has no token: virtual stations only
    res = optimize(board, state, corp, trains, "yellow", stations=stations, excluded=excluded)
    assert res.optimal
    assert_legal(board, state, corp, trains, res, stations=stations, excluded=excluded)
    assert res.total == brute_best(board, state, corp, trains, stations=stations, excluded=excluded)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
@example(random.Random(1716))  # (random_board makes a board with no stop from it)
def test_optimum_with_a_connection_bonus_equals_brute_force(rng: random.Random) -> None:
    board, state = random_board(rng)
    stops = sorted({h for h, _, _ in board.graph(state).stops})
    # (a board with no stop at all, which hypothesis finds: a bonus no route can earn)
    a, b = rng.sample(stops, 2) if len(stops) > 1 else (stops or ["A1"]) * 2
    bonuses = (ConnectionBonus("AB", (frozenset([a]), frozenset([b])), 50),)
    trains = [("t0", rng.choice(DISTANCES)), ("t1", rng.choice(DISTANCES))]
    res = optimize(board, state, "X", trains, "yellow", bonuses=bonuses)
    assert res.optimal
    assert_legal(board, state, "X", trains, res, bonuses)
    assert res.total == brute_best(board, state, "X", trains, bonuses)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_optimum_with_once_per_run_ferries_equals_brute_force(rng: random.Random) -> None:
    """Ferries count once per run, whatever the number of routes through their port."""
    board, state = random_board(rng)
    stops = sorted({h for h, _, _ in board.graph(state).stops})
    ports = rng.sample(stops, min(2, len(stops)))
    bonuses: tuple[FerryBonus | ConnectionBonus, ...] = tuple(
        FerryBonus(f"ferry {p}", p, rng.choice([10, 40, 90])) for p in ports
    )
    bonuses += (ConnectionBonus("AB", (frozenset([ports[0]]), frozenset([stops[-1]])), 30),)
    n = rng.randint(2, 3)
    trains = [(f"t{i}", rng.choice(DISTANCES)) for i in range(n)]
    res = optimize(board, state, "X", trains, "yellow", bonuses=bonuses)
    assert res.optimal
    assert_legal(board, state, "X", trains, res, bonuses)
    assert res.total == brute_best(board, state, "X", trains, bonuses)
    for b in bonuses[:-1]:
        assert sum(1 for r in res.routes for x, _ in r.bonuses if x == b.id) <= 1


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.integers(0, 60))
def test_budget_gives_a_legal_run_and_a_true_bound(rng: random.Random, budget: int) -> None:
    board, state = random_board(rng)
    trains = [("a", 3), ("b", None), ("c", 2)]
    full = optimize(board, state, "X", trains, "yellow")
    cut = optimize(board, state, "X", trains, "yellow", budget=budget)
    assert_legal(board, state, "X", trains, cut)
    assert cut.total <= full.total <= cut.upper_bound
    if cut.optimal:
        assert cut == full or (cut.total == full.total and cut.routes == full.routes)
    else:
        assert cut.explored >= budget


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_deterministic_whatever_the_caches(rng: random.Random) -> None:
    board, state = random_board(rng)
    trains = [("a", 2), ("b", 2), ("c", None)]
    first = optimize(board, state, "X", trains, "yellow")
    board.clear_caches()
    optimize(board, state, "X", [("z", 4)], "yellow")  # warms other caches
    again = optimize(board, state, "X", list(reversed(trains)), "yellow")
    board.clear_caches()
    assert optimize(board, state, "X", trains, "yellow") == first
    assert again.total == first.total


# ---------------------------------------------------------------------------------------
# contract


def line() -> tuple[Board, MapState]:
    """B2 city 10 - B4 city 20 (X) - B6 town 10 - B8 city 30 - B10 city 40."""
    hexes = {
        "B2": {"color": "gray", "cities": [{"revenue": 10, "slots": 1, "exits": [4]}]},
        "B4": {"color": "gray", "cities": [{"revenue": 20, "slots": 1, "exits": [1, 4]}]},
        "B6": {"color": "gray", "towns": [{"revenue": 10, "exits": [1, 4]}]},
        "B8": {"color": "gray", "cities": [{"revenue": 30, "slots": 1, "exits": [1, 4]}]},
        "B10": {"color": "gray", "cities": [{"revenue": 40, "slots": 1, "exits": [1]}]},
    }
    board = typed_board(tables_for(grid(hexes)))
    return board, MapState(tokens={"B4": [["X"]]})


def test_train_rules_read_the_compiled_forms() -> None:
    assert TrainRule.of(3) == TrainRule(3)
    assert TrainRule.of(None) == TrainRule.of("unlimited") == TrainRule()
    nm = TrainRule.of(Distance(cities=None, pay=3, towns=None, visit=5))
    assert nm == TrainRule(5, 3) and nm.describe() == "3/5" and nm.max_stops == 5
    ns = TrainRule.of(Distance(cities=7, pay=None, towns=3, visit=None))
    assert ns == TrainRule(7, None, 3) and ns.describe() == "7+3" and ns.max_stops == 10
    assert ns.fits(10, 3) and ns.fits(7, 0) and not ns.fits(8, 0) and not ns.fits(10, 2)
    # N/M: the best N count (with station_paid, one of them a station if the route has one)
    assert nm.counted([10, 50, 20, 40, 30], [False] * 5) == (False, True, False, True, True)
    assert TrainRule(3, 2).counted([10, 50, 40], [True, False, False]) == (False, True, True)
    paid = TrainRule.of(Distance(pay=2, visit=3), station_paid=True)
    assert paid == TrainRule(3, 2, station_paid=True)
    assert paid.counted([10, 50, 40], [True, False, False]) == (True, True, False)
    assert TrainRule.of(Distance(pay=None, visit=3), station_paid=True) == TrainRule(3)


@given(
    st.lists(st.tuples(st.sampled_from([0, 10, 20, 30, 40, 50]), st.booleans()), max_size=9),
    st.integers(0, 9),
    st.booleans(),
)
def test_a_train_rules_total_is_what_its_counted_stops_pay(
    stops: list[tuple[int, bool]], pay: int, station_paid: bool
) -> None:
    """``TrainRule.total`` (the route finder's values) is the sum of the stops
    ``counted`` counts, ties and stations alike, without ranking the stops. A 4/7 train
    whose counted stops include a station (1833NE's rule): $40, $30, $30, $20 and a
    station of $10 pay $110 (the station in place of the $20); with no station, $120."""
    revenues, tokens = [r for r, _ in stops], [t for _, t in stops]
    rule = TrainRule(9, pay, station_paid=station_paid)
    counted = rule.counted(revenues, tokens)
    assert rule.total(revenues, tokens) == sum(
        r for r, c in zip(revenues, counted, strict=True) if c
    )
    four_seven = TrainRule(7, 4, station_paid=True)
    assert four_seven.total([40, 30, 30, 20, 10], [False] * 4 + [True]) == 110
    assert four_seven.total([40, 30, 30, 20, 10], [False] * 5) == 120


def test_hex_bits_give_each_hex_among_one_bit_and_others_none() -> None:
    """A route's hexes among a set as one number: B2 and B6 (sorted) get bits 1 and 2 at
    every stop on them, B4 none."""
    assert hex_bits(["B6", "B2", "B4", "B6"], {"B6", "B2"}) == [2, 1, 0, 2]
    assert hex_bits(["B2"], ()) == [0]


def test_n_m_and_n_plus_s_trains_on_a_line() -> None:
    board, state = line()
    res = optimize(board, state, "X", [("3/5", Distance(pay=3, visit=5))], "yellow")
    (r,) = res.routes
    # B10-B8-B4 count (90); B2 would not add to it, so the shorter route wins the tie
    assert [s.id for s in r.stops] == ["B10-c0", "B8-c0", "B6-t0", "B4-c0"]
    assert [s.counted for s in r.stops] == [True, True, False, True]
    assert r.revenue == 90 and res.optimal
    assert "  B6-t0    town     $   0  ($10, not counted)" in r.explain()
    res = optimize(board, state, "X", [("2+1", Distance(cities=2, towns=1))], "yellow")
    assert [s.id for s in res.routes[0].stops] == ["B4-c0", "B6-t0", "B8-c0"]
    assert res.total == 60


def test_connection_bonus_from_the_tables() -> None:
    board, state = line()
    tables = [
        Bonus.model_validate(b)
        for b in [
            {
                "id": "W-E",
                "kind": "connection",
                "between": [{"name": "W", "hexes": ["B2"]}, {"name": "E", "hexes": ["B10"]}],
                "values": {"I": 100, "II": 0},
            },
            {
                "id": "X",
                "kind": "interconnection",
                "between": [{"name": "N", "hexes": ["A1"]}, {"name": "S", "hexes": ["C9", "C7"]}],
                "values": {"I": 5},
            },
        ]
    ]
    assert table_bonuses(tables, "II") == [] and table_bonuses(tables, None) == []
    assert table_bonuses(None, "I") == []
    bonuses = table_bonuses(tables, "I")
    assert bonuses == [
        ConnectionBonus("W-E", (frozenset({"B2"}), frozenset({"B10"})), 100),
        InterconnectionBonus("X", (frozenset({"A1"}), frozenset({"C7", "C9"})), 5),
    ]
    res = optimize(board, state, "X", [("D", None), ("2", 2)], "yellow", bonuses=bonuses)
    # the D takes all the track: the 2-train is idle
    assert res.total == 210 and [r.bonuses for r in res.routes] == [(("W-E", 100),)]
    lines = res.explain()
    assert lines[0] == "train D: B10-c0 - B8-c0 - B6-t0 - B4-c0 - B2-c0"
    assert "  bonus    W-E      $ 100" in lines
    assert lines[-1] == "total $210"


def test_a_ferry_pays_once_per_run() -> None:
    """B2 city 60 - B4 city 20 (X) - B6 town 10 - B8 city 30 (port) - B10 city 40 (X): a
    2-train and a 3-train. Counted on every route, the ferry would make B8-B10 + B4-B6-B8
    best (70 + 60 + 2 x 50 = 230); counted once, B2 is worth more (210)."""
    hexes = {
        "B2": {"color": "gray", "cities": [{"revenue": 60, "slots": 1, "exits": [4]}]},
        "B4": {"color": "gray", "cities": [{"revenue": 20, "slots": 1, "exits": [1, 4]}]},
        "B6": {"color": "gray", "towns": [{"revenue": 10, "exits": [1, 4]}]},
        "B8": {"color": "gray", "cities": [{"revenue": 30, "slots": 1, "exits": [1, 4]}]},
        "B10": {"color": "gray", "cities": [{"revenue": 40, "slots": 1, "exits": [1]}]},
    }
    board = typed_board(tables_for(grid(hexes)))
    state = MapState(tokens={"B4": [["X"]], "B10": [["X"]]})
    trains = [("2", 2), ("3", 3)]
    every = (FerryBonus("ferry B8", "B8", 50, once=False),)
    res = optimize(board, state, "X", trains, "yellow", bonuses=every)
    assert res.total == 230
    assert [r.bonuses for r in res.routes] == [(("ferry B8", 50),)] * 2
    # both trains through the port, the ferry counted once: on the first route only
    once = (FerryBonus("ferry B8", "B8", 50),)
    both = [(r.train, dict(trains)[r.train], r.paths) for r in res.routes]
    checked = check_routes(board, state, "X", both, "yellow", once)
    assert [r.revenue for r in checked] == [120, 60]
    assert [r.bonuses for r in checked] == [(("ferry B8", 50),), ()]
    res = optimize(board, state, "X", trains, "yellow", bonuses=once)
    assert res.optimal and res.total == 210
    assert sum(len(r.bonuses) for r in res.routes) == 1
    assert_legal(board, state, "X", trains, res, once)


def test_offboard_paid_only_via_a_required_hex() -> None:
    """B2 off-board (pays only with B8 on the route) - B4 (X) - B6 - B8."""
    hexes: dict[str, dict[str, Any]] = {
        "B2": {
            "color": "red",
            "offboard": {
                "revenue": {"yellow": 100},
                "group": None,
                "hidden": False,
                "exits": [4],
                "requires_visit": ["B8"],
            },
        },
        "B4": {"color": "gray", "cities": [{"revenue": 20, "slots": 1, "exits": [1, 4]}]},
        "B6": {"color": "gray", "cities": [{"revenue": 30, "slots": 1, "exits": [1, 4]}]},
        "B8": {"color": "gray", "cities": [{"revenue": 10, "slots": 1, "exits": [1]}]},
    }
    board = typed_board(tables_for(grid(hexes)))
    state = MapState(tokens={"B4": [["X"]]})
    res = optimize(board, state, "X", [("3", 3)], "yellow")
    assert [s.id for s in res.routes[0].stops] == ["B4-c0", "B6-c0", "B8-c0"]  # 60
    res = optimize(board, state, "X", [("4", 4)], "yellow")
    assert res.total == 160 and res.routes[0].stops[0] == Stop("B2", "offboard", 0, 100)
    two = check_route(board, state, "X", "2", 2, ["B2:e4-o0", "B4:c0-e1"], "yellow")
    assert two.revenue == 20 and two.stops[0].revenue == 0


def test_off_board_station_is_only_an_end() -> None:
    """B2 city - B4 off-board (two exits; a virtual station) - B6 city, B6 excluded."""
    hexes: dict[str, dict[str, Any]] = {
        "B2": {"color": "gray", "cities": [{"revenue": 10, "slots": 1, "exits": [4]}]},
        "B4": {
            "color": "red",
            "offboard": {"revenue": {"yellow": 50}, "group": None, "exits": [1, 4]},
        },
        "B6": {"color": "gray", "cities": [{"revenue": 30, "slots": 1, "exits": [1]}]},
    }
    board = typed_board(tables_for(grid(hexes)))
    state = MapState()
    assert optimize(board, state, "X", [("D", None)], "yellow").routes == ()
    res = optimize(board, state, "X", [("D", None), ("2", 2)], "yellow", stations={"B4"})
    assert [[s.id for s in r.stops] for r in res.routes] == [["B4-o0", "B6-c0"], ["B2-c0", "B4-o0"]]
    res = optimize(board, state, "X", [("D", None)], "yellow", stations={"B4"}, excluded={"B6"})
    assert res.total == 60 and [s.id for s in res.routes[0].stops] == ["B2-c0", "B4-o0"]
    with pytest.raises(RouteError, match="may not run to B6"):
        route = ["B4:e4-o0", "B6:c0-e1"]
        check_route(board, state, "X", "D", None, route, "yellow", stations={"B4"}, excluded={"B6"})
    with pytest.raises(RouteError, match="no station"):
        check_route(board, state, "X", "D", None, ["B4:e4-o0", "B6:c0-e1"], "yellow")


def test_budget_reports_the_bound() -> None:
    board, state = line()
    trains = [("a", 2), ("b", 2), ("c", 2)]
    full = optimize(board, state, "X", trains, "yellow")
    assert full.optimal and full.total == 60 and full.upper_bound == 60
    cut = optimize(board, state, "X", trains, "yellow", budget=1)
    assert not cut.optimal and cut.upper_bound >= 60 and cut.total <= 60
    assert "search stopped" in cut.explain()[-1]
    assert cut.to_json()["optimal"] is False


def test_caches_follow_the_position() -> None:
    """One track graph per tile layout; results follow tile and token changes of the same
    MapState object."""
    board, state = line()
    g1 = board.graph(state)
    other = MapState(tokens={"B8": [["Y"]]})
    assert board.graph(other).paths is g1.paths  # same tiles: the graph is shared
    assert board.graph(other).state is other  # ... bound to each position's tokens
    before = optimize(board, state, "X", [("2", 2)], "yellow")
    assert before.total == 30
    board.place_token(state, "X", "B8", 0)  # the same object changes: new answer
    after = optimize(board, state, "X", [("2", 2)], "yellow")
    assert after.total == 70 and [s.id for s in after.routes[0].stops] == ["B10-c0", "B8-c0"]
    assert board.reach(state, "X").cities >= {("B4", 0), ("B8", 0)}
    state.tokens["B8"] = [[]]
    assert optimize(board, state, "X", [("2", 2)], "yellow") == before
