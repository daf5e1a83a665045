"""Route tests on tiny hand-made maps (gray hexes carry the track), then on 1830."""

from __future__ import annotations

import json
import os
from pathlib import Path as FsPath
from typing import Any

import pytest
from test_map import grid, tables_for, typed_board

from eighteen.compiled import CompiledTitle
from eighteen.engine.map import Board
from eighteen.engine.position import MapState
from eighteen.engine.route_check import check_route, check_routes
from eighteen.engine.route_network import has_route
from eighteen.engine.route_reading import route_from_connections
from eighteen.engine.routefinder import all_routes, optimize
from eighteen.engine.routes import Route, RouteError, Stop, total_revenue
from eighteen.engine.tables import typed_document


def best_routes(
    board: Board, s: MapState, corp: str, trains: list[Any], revenue_key: str
) -> list[Route]:
    """The optimiser's routes for the trains (idle trains left out)."""
    return list(optimize(board, s, corp, trains, revenue_key).routes)


def city(rev: int, exits: list[int], slots: int = 1) -> dict[str, Any]:
    return {"color": "gray", "cities": [{"revenue": rev, "slots": slots, "exits": exits}]}


def town(rev: int, exits: list[int]) -> dict[str, Any]:
    return {"color": "gray", "towns": [{"revenue": rev, "exits": exits}]}


def offboard(yellow: int, brown: int, exits: list[int], group: str | None = None) -> dict[str, Any]:
    return {
        "color": "red",
        "offboard": {
            "revenue": {"yellow": yellow, "brown": brown},
            "group": group,
            "hidden": False,
            "exits": exits,
        },
    }


def track(*pairs: tuple[int, int]) -> dict[str, Any]:
    return {"color": "gray", "track": [list(p) for p in pairs]}


def board_of(
    hexes: dict[str, dict[str, Any]], tokens: dict[str, list[list[str]]]
) -> tuple[Board, MapState]:
    board = typed_board(tables_for(grid(hexes)))
    return board, MapState(tokens=tokens)


def line() -> tuple[Board, MapState]:
    """B2 city 10 - B4 city 20 (X) - B6 town 10 - B8 city 30 - B10 off-board 40/60."""
    return board_of(
        {
            "B2": city(10, [4]),
            "B4": city(20, [1, 4]),
            "B6": town(10, [1, 4]),
            "B8": city(30, [1, 4]),
            "B10": offboard(40, 60, [1]),
        },
        {"B4": [["X"]]},
    )


def summary(routes: list[Route]) -> list[tuple[str, list[str], int]]:
    return [(r.train, [s.id for s in r.stops], r.revenue) for r in routes]


def test_single_trains_on_a_line() -> None:
    board, s = line()
    assert summary(best_routes(board, s, "X", [("2", 2)], "yellow")) == [
        ("2", ["B2-c0", "B4-c0"], 30)  # ties with B4-B6 (30): smaller stop ids first
    ]
    assert summary(best_routes(board, s, "X", [("3", 3)], "yellow")) == [
        ("3", ["B4-c0", "B6-t0", "B8-c0"], 60)  # the town counts as a stop
    ]
    d = best_routes(board, s, "X", [("D", None)], "brown")
    assert summary(d) == [("D", ["B10-o0", "B8-c0", "B6-t0", "B4-c0", "B2-c0"], 130)]
    assert d[0].stops[0] == Stop("B10", "offboard", 0, 60)
    assert [str(p) for p in d[0].paths] == [
        "B10:e1-o0",
        "B8:c0-e4",
        "B8:c0-e1",
        "B6:e4-t0",
        "B6:e1-t0",
        "B4:c0-e4",
        "B4:c0-e1",
        "B2:c0-e4",
    ]
    assert d[0].connections() == [
        ["B10", "B8"],
        ["B8", "B6"],
        ["B6", "B4"],
        ["B4", "B2"],
    ]
    assert d[0].hexes == ["B10", "B8", "B6", "B4", "B2"]


def test_two_trains_share_a_city_not_track() -> None:
    board, s = line()
    got = best_routes(board, s, "X", [("2a", 2), ("2b", 2)], "yellow")
    assert summary(got) == [("2a", ["B2-c0", "B4-c0"], 30), ("2b", ["B4-c0", "B6-t0"], 30)]


def test_best_combination_splits_a_line() -> None:
    """One 3-train over all the track (60) loses to 3-train + 2-train on separate track (80)."""
    board, s = board_of(
        {"B2": city(10, [4]), "B4": city(20, [1, 4]), "B6": city(30, [1])},
        {"B4": [["X"]]},
    )
    assert summary(best_routes(board, s, "X", [("3", 3)], "yellow")) == [
        ("3", ["B2-c0", "B4-c0", "B6-c0"], 60)
    ]
    got = best_routes(board, s, "X", [("2", 2), ("3", 3)], "yellow")
    assert summary(got) == [("2", ["B2-c0", "B4-c0"], 30), ("3", ["B4-c0", "B6-c0"], 50)]


def test_routes_need_a_station_and_a_second_stop() -> None:
    board, s = board_of(
        {"B2": city(10, [4]), "B4": city(20, [1, 4]), "B6": city(30, [1])},
        {"B2": [["X"]]},
    )
    got = best_routes(board, s, "X", [("2a", 2), ("2b", 2)], "yellow")
    assert summary(got) == [("2a", ["B2-c0", "B4-c0"], 30)]  # B4-B6 has no X station
    assert has_route(board, s, "X")
    assert not has_route(board, s, "Y")
    assert best_routes(board, s, "Y", [("2", 2)], "yellow") == []
    lonely, s2 = board_of({"B2": city(10, [])}, {"B2": [["X"]]})
    assert not has_route(lonely, s2, "X")


def test_blocked_city_only_as_an_end() -> None:
    board, s = board_of(
        {"B2": city(10, [4]), "B4": city(20, [1, 4]), "B6": city(30, [1, 4]), "B8": city(50, [1])},
        {"B2": [["X"]], "B4": [["Y"]]},
    )
    got = best_routes(board, s, "X", [("D", None)], "yellow")
    assert summary(got) == [("D", ["B2-c0", "B4-c0"], 30)]
    with pytest.raises(RouteError, match="pass through"):
        check_route(
            board, s, "X", "D", None, ["B2:c0-e4", "B4:c0-e1", "B4:c0-e4", "B6:c0-e1"], "yellow"
        )
    # Y's own token lets Y through; a free slot lets anyone through
    assert best_routes(board, s, "Y", [("D", None)], "yellow")[0].revenue == 110
    board2, s2 = board_of(
        {
            "B2": city(10, [4]),
            "B4": city(20, [1, 4], slots=2),
            "B6": city(30, [1, 4]),
            "B8": city(50, [1]),
        },
        {"B2": [["X"]], "B4": [["Y"]]},
    )
    assert best_routes(board2, s2, "X", [("D", None)], "yellow")[0].revenue == 110


def test_offboard_only_as_an_end() -> None:
    """B2 (X) - B4 off-board with two exits - B6 city: B2-B4-B6 is not a route."""
    board, s = board_of(
        {"B2": city(10, [4]), "B4": offboard(40, 60, [1, 4]), "B6": city(100, [1])},
        {"B2": [["X"]]},
    )
    assert summary(best_routes(board, s, "X", [("D", None)], "yellow")) == [
        ("D", ["B2-c0", "B4-o0"], 50)
    ]
    with pytest.raises(RouteError, match="pass through"):
        check_route(
            board, s, "X", "D", None, ["B2:c0-e4", "B4:e1-o0", "B4:e4-o0", "B6:c0-e1"], "yellow"
        )


def test_offboard_group_once_per_route() -> None:
    hexes = {
        "B2": offboard(40, 60, [4], group="West"),
        "B4": city(20, [1, 4]),
        "B6": offboard(30, 50, [1], group="West"),
    }
    board, s = board_of(hexes, {"B4": [["X"]]})
    assert summary(best_routes(board, s, "X", [("D", None)], "yellow")) == [
        ("D", ["B2-o0", "B4-c0"], 60)
    ]
    with pytest.raises(RouteError, match="same group"):
        check_route(
            board, s, "X", "D", None, ["B2:e4-o0", "B4:c0-e1", "B4:c0-e4", "B6:e1-o0"], "yellow"
        )
    hexes["B6"] = offboard(30, 50, [1], group="East")
    board, s = board_of(hexes, {"B4": [["X"]]})
    assert best_routes(board, s, "X", [("D", None)], "yellow")[0].revenue == 90


def test_two_cities_of_one_hex_are_separate_stops() -> None:
    """B2 (X) enters B4 city 0 from the W, leaves NE, loops A5 -> B6 back into city 1."""
    hexes = {
        "B2": city(10, [4]),
        "B4": {
            "color": "gray",
            "cities": [
                {"revenue": 20, "slots": 1, "exits": [1, 3]},
                {"revenue": 30, "slots": 1, "exits": [4]},
            ],
        },
        "A5": track((0, 5)),
        "B6": track((1, 2)),
    }
    board, s = board_of(hexes, {"B2": [["X"]]})
    got = best_routes(board, s, "X", [("3", 3)], "yellow")
    assert summary(got) == [("3", ["B2-c0", "B4-c0", "B4-c1"], 60)]
    assert got[0].connections() == [["B2", "B4"], ["B4", "A5", "B6", "B4"]]
    assert best_routes(board, s, "X", [("2", 2)], "yellow")[0].revenue == 30


def test_distance_counts_every_stop_and_d_is_unlimited() -> None:
    hexes = {f"B{c}": city(10 * c, [1, 4]) for c in (4, 6, 8)}
    hexes["B2"] = city(10, [4])
    hexes["B10"] = town(5, [1])
    board, s = board_of(hexes, {"B2": [["X"]]})
    rev = {n: best_routes(board, s, "X", [(str(n), n)], "yellow")[0].revenue for n in (2, 4)}
    assert rev == {2: 50, 4: 190}
    assert best_routes(board, s, "X", [("D", None)], "yellow")[0].revenue == 195
    assert len(all_routes(board, s, "X", "D", None, "yellow")) == 4  # B2 to each stop
    assert len(all_routes(board, s, "X", "2", 2, "yellow")) == 1


def junction() -> tuple[Board, MapState]:
    """B2 (X) - B4 straight W-E; B4 also joins W to NE (A5), junction at B4's W side."""
    hexes = {
        "B2": city(10, [4]),
        "B4": track((1, 4), (1, 3)),
        "B6": city(20, [1]),
        "A5": city(30, [0]),
    }
    return board_of(hexes, {"B2": [["X"]]})


def test_no_reversing_at_a_junction() -> None:
    board, s = junction()
    got = best_routes(board, s, "X", [("D", None)], "yellow")
    assert summary(got) == [("D", ["A5-c0", "B2-c0"], 40)]  # not B6-B4-A5
    with pytest.raises(RouteError, match="reverses"):
        check_route(
            board, s, "X", "D", None, ["B6:c0-e1", "B4:e1-e4", "B4:e1-e3", "A5:c0-e0"], "yellow"
        )
    # both branches leave B2 by the same side: two trains cannot use both
    got = best_routes(board, s, "X", [("2a", 2), ("2b", 2)], "yellow")
    assert summary(got) == [("2a", ["A5-c0", "B2-c0"], 40)]


def test_check_route_accepts_either_direction_and_reports_errors() -> None:
    board, s = line()
    fwd = ["B2:c0-e4", "B4:c0-e1", "B4:c0-e4", "B6:e1-t0"]
    r1 = check_route(board, s, "X", "3", 3, fwd, "yellow")
    r2 = check_route(board, s, "X", "3", 3, list(reversed(fwd)), "yellow")
    assert r1 == r2 and r1.revenue == 40
    assert [x.id for x in r1.stops] == ["B2-c0", "B4-c0", "B6-t0"]
    # each piece may name its ends in either order (read by its text, else parsed)
    swapped = ["B2:e4-c0", "B4:e1-c0", "B4:c0-e4", "B6:t0-e1"]
    assert check_route(board, s, "X", "3", 3, swapped, "yellow") == r1
    with pytest.raises(RouteError, match="bad path"):
        check_route(board, s, "X", "3", 3, ["B2:c0-e4", "B4c0-e1"], "yellow")
    with pytest.raises(RouteError, match="more than"):
        check_route(board, s, "X", "2", 2, fwd, "yellow")
    with pytest.raises(RouteError, match="no station"):
        check_route(board, s, "X", "3", 3, ["B6:e4-t0", "B8:c0-e1"], "yellow")
    with pytest.raises(RouteError, match="no track"):
        check_route(board, s, "X", "3", 3, ["B2:c0-e3"], "yellow")
    with pytest.raises(RouteError, match="end at a stop"):
        check_route(board, s, "X", "3", 3, ["B2:c0-e4"], "yellow")
    with pytest.raises(RouteError, match="continue"):
        check_route(board, s, "X", "3", 3, ["B2:c0-e4", "B6:e1-t0"], "yellow")


def test_check_routes_rejects_shared_track() -> None:
    board, s = line()
    a = ["B2:c0-e4", "B4:c0-e1"]
    b = ["B4:c0-e4", "B6:e1-t0"]
    got = check_routes(board, s, "X", [("2a", 2, a), ("2b", 2, b)], "yellow")
    assert [r.revenue for r in got] == [30, 30]
    with pytest.raises(RouteError, match="shares track"):
        check_routes(board, s, "X", [("2a", 2, a), ("3", 3, [*a, *b])], "yellow")
    with pytest.raises(RouteError, match="twice"):
        check_routes(board, s, "X", [("2a", 2, a), ("2a", 2, b)], "yellow")


def test_best_routes_agree_with_check_route() -> None:
    board, s = line()
    for r in best_routes(board, s, "X", [("4", 4), ("2", 2)], "brown"):
        assert check_route(board, s, "X", r.train, int(r.train), r.paths, "brown") == r


# ---------------------------------------------------------------------------------------
# the real 1830 map (once compiled)

GENERATED = FsPath(
    os.environ.get("EIGHTEEN_1830_JSON")
    or FsPath(__file__).resolve().parents[2] / "generated" / "1830.json"
)


@pytest.fixture(scope="module")
def doc1830() -> CompiledTitle:
    return typed_document(json.loads(GENERATED.read_text()))


@pytest.fixture(scope="module")
def b1830(doc1830: CompiledTitle) -> Board:
    return Board.of(doc1830)


def test_1830_altoona_pittsburgh(b1830: Board) -> None:
    s = MapState()
    b1830.place_token(s, "PRR", "H12", 0)
    b1830.lay_tile(s, "H10", "57", 1)  # Pittsburgh, exits W-E
    got = best_routes(b1830, s, "PRR", [("2", 2)], "yellow")
    assert summary(got) == [("2", ["H10-c0", "H12-c0"], 30)]
    assert [str(p) for p in got[0].paths] == ["H10:c0-e4", "H12:c0-e1"]
    assert got[0].connections() == [["H10", "H12"]]
    # Lancaster on the other side; the bypass track of Altoona lets a token in Pittsburgh
    # reach Lancaster without stopping at Altoona.
    b1830.lay_tile(s, "H14", "9", 1)
    b1830.lay_tile(s, "H16", "57", 1)
    assert best_routes(b1830, s, "PRR", [("3", 3)], "yellow")[0].revenue == 50
    b1830.place_token(s, "PRR", "H10", 0)
    assert summary(best_routes(b1830, s, "PRR", [("2", 2)], "yellow")) == [
        ("2", ["H10-c0", "H16-c0"], 40)
    ]
    assert summary(best_routes(b1830, s, "PRR", [("2a", 2), ("2b", 2)], "yellow")) == [
        ("2a", ["H10-c0", "H12-c0"], 30),
        ("2b", ["H12-c0", "H16-c0"], 30),
    ]


def test_1830_new_york_two_cities(b1830: Board) -> None:
    """New York's two cities are separate stops; NYNH's home moves with its track (#54)."""
    s = MapState()
    b1830.place_token(s, "NYNH", "G19", 0)
    b1830.lay_tile(s, "F20", "1", 0)  # towns: T0 W-NE, T1 SW-E
    assert summary(best_routes(b1830, s, "NYNH", [("2", 2)], "yellow")) == [
        ("2", ["F20-t1", "G19-c0"], 50)
    ]
    b1830.lay_tile(s, "G19", "54", 0)
    assert s.tokens["G19"] == [[], ["NYNH"]]
    assert b1830.home_city(s, "NYNH") == 1
    b1830.lay_tile(s, "F18", "9", 2)  # NW-SE: joins E17 and G19
    got = best_routes(b1830, s, "NYNH", [("D", None)], "brown")
    assert summary(got) == [("D", ["F20-t1", "G19-c1"], 70)]  # F18 leads nowhere yet
    assert has_route(b1830, s, "NYNH")


# ---------------------------------------------------------------------------------------
# replay of the 18xx.games fixture (map side): every lay is legal, every recorded route is
# read from its connections with the recorded revenue, and the optimum is known exactly

#: Optimal total at every run_routes of fixture 29133 (action id -> $). Each equals the
#: revenue recorded in the game: the players (or the site's route helper) found the optimum.
FIXTURE_OPTIMA = {
    96: 50, 103: 30, 110: 140, 115: 140, 121: 130, 128: 160, 207: 100, 212: 120,
    222: 100, 227: 170, 233: 140, 238: 160, 243: 50, 247: 160, 251: 240, 386: 210,
    389: 280, 397: 220, 401: 230, 404: 180, 409: 120, 417: 190, 426: 440, 446: 180,
}  # fmt: skip

#: The optimal routes themselves at a few positions (train, stops, revenue).
FIXTURE_ROUTES = {
    110: [
        ("2-3", "F20-t1 G19-c0", 50),
        ("3-0", "E23-c0 F24-t0 F22-c0", 60),
        ("2-5", "F20-t1 F22-c0", 30),
    ],
    227: [("3-3", "F22-c0 F20-t1 G19-c1", 100), ("3-4", "E23-c0 F24-t0 F22-c0", 70)],
    409: [("4-1", "F2-o0 F4-c0 F6-c0", 120)],
    426: [
        ("4-2", "G19-c1 G17-t0 H16-c0 H10-c0", 160),
        ("6-0", "G19-c0 H18-c1 H16-c0 I15-c0 J14-c0 K13-o0", 280),
    ],
    446: [("5-1", "E11-c0 D14-c0 E19-c0 G19-c1 F20-t1", 180)],
}


def test_1830_fixture_routes(b1830: Board, doc1830: CompiledTitle) -> None:
    from route_positions import replay

    seen = []
    for p in replay(b1830, doc1830.phases):
        corp, s, key = p.corp, p.state, p.revenue_key
        routes = []
        for r, (tid, dist) in zip(p.recorded, p.trains, strict=True):
            route = route_from_connections(b1830, s, corp, tid, dist, r["connections"], key)
            assert route.revenue == r["revenue"], (p.action, r)
            routes.append(route)
        runs = [(r.train, d, r.paths) for r, (_, d) in zip(routes, p.trains, strict=True)]
        check_routes(b1830, s, corp, runs, key)
        result = optimize(b1830, s, corp, p.trains, key)
        assert result.optimal and result.upper_bound == result.total
        assert result.total >= p.recorded_total, p.action  # never below the logged run
        assert result.total == FIXTURE_OPTIMA[p.action], p.action
        assert total_revenue(best_routes(b1830, s, corp, p.trains, key)) == result.total
        if p.action in FIXTURE_ROUTES:
            got = [(r.train, " ".join(x.id for x in r.stops), r.revenue) for r in result.routes]
            assert got == FIXTURE_ROUTES[p.action], p.action
        # the answer does not depend on what was cached before
        b1830.clear_caches()
        assert optimize(b1830, s, corp, p.trains, key) == result
        seen.append(p.action)
    assert seen == list(FIXTURE_OPTIMA)


def test_the_hexes_of_a_kept_route_check_are_read_off_the_path_ids() -> None:
    """A kept route check holds the hexes its track lies on, each read off the piece's
    id on the graph (a hex owns the ids from its number times the stride), a text the
    graph does not have split at its ``:``: the hex each text names, every time."""
    from eighteen.engine.route_check import track_hexes

    board, s = line()
    g = board.graph(s)
    texts = [g.paths[pid].text for pid in sorted(g.text_id.values())]
    assert texts == [
        "B10:e1-o0",
        "B2:c0-e4",
        "B4:c0-e1",
        "B4:c0-e4",
        "B6:e1-t0",
        "B6:e4-t0",
        "B8:c0-e1",
        "B8:c0-e4",
    ]
    for t in texts:
        assert track_hexes(g, (t,)) == {t.split(":")[0]}
    assert track_hexes(g, tuple(texts)) == {"B2", "B4", "B6", "B8", "B10"}
    assert track_hexes(g, ("B4:c0-e1", "C3:e0-e3")) == {"B4", "C3"}  # C3: no such piece


class _OpenBonus:
    """A bonus of a program's own, equal by value and so not hashable (a dataclass that
    is not frozen): a route check with it cannot be kept under its arguments."""

    __hash__ = None  # type: ignore[assignment]

    def __init__(self, value: int) -> None:
        self.id, self.most, self.value = "open", value, value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _OpenBonus) and other.value == self.value

    def amount(self, hexes: frozenset[str]) -> int:
        return self.value if "B10" in hexes else 0


def test_a_route_check_whose_arguments_cannot_be_a_key_is_made_and_not_kept() -> None:
    """A bonus that does not hash makes the check's arguments no key: the route is
    checked (its bonus earned) each time, nothing is kept, and no error is raised, on a
    board that has kept no check yet and on one that has."""
    board, s = line()
    run = ["B4:c0-e4", "B6:e1-t0", "B6:e4-t0", "B8:c0-e1", "B8:c0-e4", "B10:e1-o0"]
    board.clear_caches()
    first = check_route(board, s, "X", "D", None, run, "yellow", [_OpenBonus(15)])
    assert (first.revenue, first.bonuses) == (115, (("open", 15),))
    assert "check" not in board._caches
    plain = check_route(board, s, "X", "D", None, run, "yellow")  # (a kept one now)
    assert plain.revenue == 100 and len(board._caches["check"]) == 1
    again = check_route(board, s, "X", "D", None, run, "yellow", [_OpenBonus(15)])
    assert again == first and again is not first
    assert len(board._caches["check"]) == 1


def test_a_kept_route_check_holds_while_its_hexes_tokens_hold() -> None:
    """A route checked once is known again while the tokens of its hexes are what they
    were when it was checked (a token elsewhere changes nothing); a change on one of them
    has it checked again, the answer then kept in place of the last (a change back is
    checked again too); a refused check keeps nothing."""
    board, s = line()  # B4 holds X; B8 is a one-slot city on the way to B10
    run = ["B4:c0-e4", "B6:e1-t0", "B6:e4-t0", "B8:c0-e1", "B8:c0-e4", "B10:e1-o0"]
    first = check_route(board, s, "X", "D", None, run, "yellow")
    stops = ["B10-o0", "B8-c0", "B6-t0", "B4-c0"]  # (the direction of the stop ids)
    assert (first.revenue, [x.id for x in first.stops]) == (100, stops)
    s.tokens["B2"] = [["Y"]]  # off the route: the kept answer holds
    assert check_route(board, s, "X", "D", None, run, "yellow") is first
    s.tokens["B8"] = [["Y"]]  # the route's city is full of another's token now
    with pytest.raises(RouteError, match="pass through"):
        check_route(board, s, "X", "D", None, run, "yellow")
    s.tokens["B8"] = [[]]  # free again: the tokens it was checked with (none there)
    assert check_route(board, s, "X", "D", None, run, "yellow") is first
    s.tokens["B8"] = [["X"]]  # its own token there: passable, checked again
    own = check_route(board, s, "X", "D", None, run, "yellow")
    assert own is not first and own == first
    assert check_route(board, s, "X", "D", None, run, "yellow") is own
    s.tokens["B8"] = [[]]  # and back: the kept answer is the last one's, checked again
    back = check_route(board, s, "X", "D", None, run, "yellow")
    assert back is not own and back is not first and back == first
