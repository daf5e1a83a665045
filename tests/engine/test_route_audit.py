"""Audit of routes, revenue and dividends in 1830's operating round, against 18xx.games'
1830 (its Route and Dividend steps, as the importer reads its run_routes and dividend
actions) and the seeds (002, "routes", "revenue").

Each test pins one corner with exact values: a run accepted (its stops and revenue, who
is paid what, the price after) or refused (IllegalAction, the state hash unchanged).  The
games are played with the options the importer switches on (READINGS_18XX).

Games start from the scenario's second stock round, passed, so that B&M operates (home
Boston E23, train 2-0, $920, price $90; C 30% president, A 20%, D 10%, IPO 40%; NYC parred
at $67 by D, not floated, its home Albany E19 reserved).  Track is laid straight onto the
board as a setup, trains are handed out of the depot.  Then corpus games (the 18xx.games
exports of tests/fixtures) where the corner happened.  The 87 games log 9288 run_routes
(raw, undone ones included): none with an empty ``routes`` list or a $0 run, each kept one
followed by its dividend (8102 payouts and 1195 withholds logged); only 29133's 25 have
no ``nodes``, ``extra_revenue`` or ``subsidy`` (always 0 where present); 967 routes are run
by D-trains, 135 visit both New York cities, 6 both Gulf hexes (I1 and J2), none both
Canadian West hexes (A9 and A11).
"""

from __future__ import annotations

import copy

import pytest
from corpus_18xx import action, at, export
from readings_18xx import READINGS_18XX
from scenario import run, second_stock_round

from eighteen import Game, IllegalAction, load_title
from eighteen.engine import market, network, phases, shares
from eighteen.engine.actions import Action, Dividend, Pass, RouteSpec, RunRoutes
from eighteen.engine.route_check import check_route, check_routes
from eighteen.engine.routes import RouteError
from eighteen.io.games18xx import ImportResult, import_game

_BASE: list[Game] = []


def or_game() -> Game:
    """B&M at its track step in operating round 1 of set 2 (a copy of one game built once)."""
    if not _BASE:
        g = second_stock_round(options=READINGS_18XX)
        run(g, Pass("B"), Pass("C"), Pass("D"), Pass("A"))
        assert g.acting() == "B&M" and g.state.round.step == "track"
        _BASE.append(g)
    return _BASE[0].clone()


def lay(g: Game, *tiles: tuple[str, str, int]) -> None:
    """Setup: (hex, tile, rotation) laid on the board."""
    b = network.board(g)
    for hex_id, tile, rotation in tiles:
        b.lay_tile(g.state.map, hex_id, tile, rotation)
    g.invalidate_caches()


def token(g: Game, corp: str, hex_id: str, city: int = 0) -> None:
    """Setup: a station of ``corp`` in ``hex_id`` (city ``city``)."""
    network.board(g).place_token(g.state.map, corp, hex_id, city)
    g.invalidate_caches()


def give(g: Game, *tids: str) -> None:
    """Setup: B&M's trains are ``tids`` (taken out of the depot)."""
    g.state.depot = [t for t in g.state.depot if t not in tids]
    g.state.corporations["B&M"].trains = list(tids)
    g.invalidate_caches()


def set_phase(g: Game, phase_id: str) -> None:
    g.state.phase = g.tables.phase_index(phase_id)
    g.invalidate_caches()


def to_routes(g: Game) -> None:
    """B&M passes its tile and token steps: it is to run."""
    while g.state.round.step != "routes":
        run(g, Pass("B&M"))
    assert g.acting() == "B&M"


def refused(g: Game, act: Action, reason: str) -> None:
    """``act`` is refused for ``reason`` (a regex) and the state is unchanged."""
    before = g.state_hash()
    with pytest.raises(IllegalAction, match=reason):
        g.apply(act)
    assert g.state_hash() == before


def offered(g: Game) -> list[tuple[str, tuple[str, ...], int]]:
    """The run the engine offers: (train, stops, revenue) of each route."""
    [act] = [a for a in g.legal_actions() if isinstance(a, RunRoutes)]
    return [(r.train, r.stops, r.revenue) for r in act.routes]


def cash(g: Game) -> dict[str, int]:
    return {p.name: p.cash for p in g.state.players}


#: Boston - Mansfield (town) - Providence F22 (57, W-E) - New Haven & Hartford F20 (1):
#: its town 1 joins F22 (E) and New York's city 0 (SW).
EAST = (("F22", "57", 1), ("F20", "1", 0))
MANSFIELD = ("E23:c0-e5", "F24:e2-t0")
PROVIDENCE = (*MANSFIELD, "F24:e1-t0", "F22:c0-e4")
NEW_HAVEN = (*PROVIDENCE, "F22:c0-e1", "F20:e4-t1")
NEW_YORK = (*NEW_HAVEN, "F20:e0-t1", "G19:c0-e3")

#: Boston - D24 - D22 - D20 - Albany E19 (57, NE-SW) - F18 - Scranton F16 (57, W-E).
NORTH = (("D22", "9", 1), ("D20", "8", 4), ("E19", "57", 0), ("F18", "8", 1), ("F16", "57", 1))
ALBANY = ("E23:c0-e3", "D24:e0-e1", "D22:e1-e4", "D20:e0-e4", "E19:c0-e3")
SCRANTON = (*ALBANY, "E19:c0-e0", "F18:e1-e3", "F16:c0-e4")


# -- what a route is ------------------------------------------------------------------------


def test_a_town_is_a_stop_and_a_train_may_run_short_of_its_best() -> None:
    """Seed 002 and 18xx.games alike: every town passed is a stop (a 2-train cannot pass
    Mansfield to Providence); a run below the best one is still a legal run."""
    g = or_game()
    lay(g, *EAST)
    give(g, "2-0", "3-0")
    to_routes(g)
    assert offered(g) == [("3-0", ("E23-c0", "F24-t0", "F22-c0"), 30 + 10 + 20)]
    refused(
        g,
        RunRoutes("B&M", (RouteSpec("2-0", PROVIDENCE, 60),)),
        r"3 stops \(1 towns\) is more than the train's 2",
    )
    run(g, RunRoutes("B&M", (RouteSpec("2-0", MANSFIELD, 40),)))
    assert g.legal_actions() == [Dividend("B&M", "payout"), Dividend("B&M", "withhold")]


def test_a_route_needs_track_two_stops_and_a_station_of_its_own() -> None:
    g = or_game()
    lay(g, *EAST)
    give(g, "2-0", "3-0")
    to_routes(g)
    refused(g, RunRoutes("B&M", (RouteSpec("2-0", (), 0),)), "illegal route: a route needs track")
    refused(
        g,
        RunRoutes("B&M", (RouteSpec("2-0", ("E23:c0-e5",), 30),)),
        "illegal route: a route must end at a stop",
    )
    refused(
        g,  # Mansfield - Providence: no B&M station on it
        RunRoutes("B&M", (RouteSpec("2-0", ("F24:e1-t0", "F22:c0-e4"), 30),)),
        "illegal route: the route includes no station of B&M",
    )
    refused(
        g,
        RunRoutes("B&M", (RouteSpec("2-1", MANSFIELD, 40),)),
        "illegal route: B&M does not own train 2-1",
    )
    refused(
        g,
        RunRoutes("B&M", (RouteSpec("2-0", MANSFIELD, 40), RouteSpec("2-0", MANSFIELD, 40))),
        "illegal route: train 2-0 runs twice",
    )


def test_two_trains_share_a_city_but_not_track() -> None:
    """Boston's two exits: the 2-train to Mansfield and the 3-train to Albany share the
    city, not a hex side (18xx.games: 'Route cannot reuse track')."""
    g = or_game()
    lay(g, *EAST, *NORTH)
    give(g, "2-0", "3-0")
    to_routes(g)
    assert offered(g) == [
        ("2-0", ("E23-c0", "F24-t0"), 40),
        ("3-0", ("E23-c0", "E19-c0", "F16-c0"), 30 + 20 + 20),
    ]
    refused(
        g,
        RunRoutes("B&M", (RouteSpec("2-0", MANSFIELD, 40), RouteSpec("3-0", PROVIDENCE, 60))),
        "illegal route: the route of train 3-0 shares track with another route",
    )
    run(g, RunRoutes("B&M", (RouteSpec("2-0", MANSFIELD, 40), RouteSpec("3-0", SCRANTON, 70))))
    assert g.state.round.step == "dividend"


def test_a_city_full_of_another_corporations_stations_ends_a_route() -> None:
    """Albany, reserved for NYC's home but empty, may be passed (18xx.games' City#blocks?
    counts tokens, not reservations); with NYC's station in its one slot it may only end a
    route (the best run turns to Mansfield)."""
    g = or_game()
    lay(g, *NORTH)
    give(g, "3-0")
    to_routes(g)
    assert offered(g) == [("3-0", ("E23-c0", "E19-c0", "F16-c0"), 70)]
    full = or_game()
    lay(full, *NORTH)
    token(full, "NYC", "E19")
    give(full, "3-0")
    to_routes(full)
    assert offered(full) == [("3-0", ("E19-c0", "E23-c0", "F24-t0"), 20 + 30 + 10)]
    refused(
        full,
        RunRoutes("B&M", (RouteSpec("3-0", SCRANTON, 70),)),
        "illegal route: the route may not pass through E19 city 0",
    )
    run(full, RunRoutes("B&M", (RouteSpec("3-0", ALBANY, 50),)))
    assert full.state.round.step == "dividend"


def test_the_same_city_twice_is_refused() -> None:
    """A loop out of Boston by Mansfield, Providence (green, 4 exits), E21, D22, D24 and
    back into Boston visits Boston twice: refused by both (seed 002: 同一個車站不得被使用
    二次); the best 4-train run stops there once."""
    g = or_game()
    set_phase(g, "3")
    lay(g, ("F22", "14", 1), ("E21", "8", 3), ("D22", "8", 4))
    give(g, "4-0")
    to_routes(g)
    loop = (*PROVIDENCE, "F22:c0-e2", "E21:e5-e3", "D22:e0-e4", "D24:e1-e0", "E23:c0-e3")
    refused(
        g,
        RunRoutes("B&M", (RouteSpec("4-0", loop, 100),)),
        "illegal route: the route visits E23 city 0 twice",
    )
    # (Boston north round the loop into Providence, then Mansfield: $70 either way round)
    assert offered(g) == [("4-0", ("E23-c0", "F22-c0", "F24-t0"), 30 + 30 + 10)]


def test_an_off_board_ends_a_route_and_is_never_passed() -> None:
    """Maritime Provinces (B24) with track on both its sides: Boston - B24 is a route,
    Boston - B24 - Burlington (B20) is not."""
    g = or_game()
    lay(g, ("D22", "7", 3), ("C23", "9", 0), ("B22", "9", 1), ("B20", "4", 1))
    give(g, "3-0")
    to_routes(g)
    maritime = ("E23:c0-e3", "D24:e0-e1", "D22:e4-e3", "C23:e0-e3", "B24:e0-o0")
    beyond = (*maritime, "B24:e1-o0", "B22:e4-e1", "B20:e4-t0")
    refused(
        g,
        RunRoutes("B&M", (RouteSpec("3-0", beyond, 60),)),
        "illegal route: the route may not pass through B24 offboard 0",
    )
    assert offered(g) == [("3-0", ("B24-o0", "E23-c0", "F24-t0"), 20 + 30 + 10)]
    run(g, RunRoutes("B&M", (RouteSpec("3-0", maritime, 50),)))


def test_a_d_train_runs_any_number_of_stops() -> None:
    """Boston to New York's city 0 is five stops: the D runs it ($40 for NY), a 4-train
    may not (the town at New Haven counts)."""
    g = or_game()
    set_phase(g, "D")
    lay(g, *EAST)
    give(g, "4-0", "D-0")
    to_routes(g)
    refused(
        g,
        RunRoutes("B&M", (RouteSpec("4-0", NEW_YORK, 110),)),
        r"illegal route: 5 stops \(2 towns\) is more than the train's 4",
    )
    want = ("E23-c0", "F24-t0", "F22-c0", "F20-t1", "G19-c0")
    assert offered(g) == [("D-0", want, 30 + 10 + 20 + 10 + 40)]
    run(g, RunRoutes("B&M", (RouteSpec("D-0", NEW_YORK, 110),)))


def test_altoonas_bypass_passes_prrs_full_city_but_shares_its_sides() -> None:
    """Altoona (H12): PRR's station fills its one slot, so B&O (Pittsburgh) may end there
    or take the bypass track to Lancaster, not run through the city; the bypass and the
    city share H12's sides, so two trains may not take both (18xx.games: 'Route cannot
    reuse track', counted by hex side)."""
    g = or_game()
    lay(g, ("H10", "57", 1), ("H14", "9", 1), ("H16", "57", 1))
    token(g, "PRR", "H12")
    token(g, "B&O", "H10")
    b, m = network.board(g), g.state.map
    to_altoona = ["H10:c0-e4", "H12:c0-e1"]
    bypass = ["H10:c0-e4", "H12:e1-e4", "H14:e1-e4", "H16:c0-e1"]
    through = [*to_altoona, "H12:c0-e4", "H14:e1-e4", "H16:c0-e1"]
    got = check_routes(b, m, "B&O", [("2-0", 2, to_altoona)], "yellow")
    assert [(r.stops[0].id, r.stops[-1].id, r.revenue) for r in got] == [
        ("H10-c0", "H12-c0", 20 + 10)
    ]
    got = check_routes(b, m, "B&O", [("2-0", 2, bypass)], "yellow")
    assert [[s.id for s in r.stops] for r in got] == [["H10-c0", "H16-c0"]]
    with pytest.raises(RouteError, match="may not pass through H12 city 0"):
        check_routes(b, m, "B&O", [("3-0", 3, through)], "yellow")
    with pytest.raises(RouteError, match="shares track"):
        check_routes(b, m, "B&O", [("2-0", 2, to_altoona), ("2-1", 2, bypass)], "yellow")


# -- revenue --------------------------------------------------------------------------------


#: 18xx.games' 1830 tiles: (cities' revenues, towns' revenues) of each tile number.
TILE_REVENUE: dict[str, tuple[list[int], list[int]]] = {
    **{t: ([], [10, 10]) for t in ("1", "2", "55", "56", "69")},
    **{t: ([], [10]) for t in ("3", "4", "58")},
    "57": ([20], []),
    **{t: ([], []) for t in ("7", "8", "9", "16", "18", "19", "20", "23", "24", "25")},
    **{t: ([], []) for t in ("26", "27", "28", "29", "39", "40", "41", "42", "43", "44")},
    **{t: ([], []) for t in ("45", "46", "47", "70")},
    "14": ([30], []),
    "15": ([30], []),
    "53": ([50], []),
    "54": ([60, 60], []),
    "59": ([40, 40], []),
    "61": ([60], []),
    "62": ([80, 80], []),
    "63": ([40], []),
    **{t: ([50, 50], []) for t in ("64", "65", "66", "67", "68")},
}


def test_the_revenue_of_every_tile() -> None:
    tiles = load_title("1830").data["tiles"]
    got = {
        t: ([c["revenue"] for c in d.get("cities", [])], [x["revenue"] for x in d.get("towns", [])])
        for t, d in tiles.items()
    }
    assert got == TILE_REVENUE


def test_the_revenue_of_every_printed_stop() -> None:
    """The gray and yellow hexes' printed stops, as 18xx.games' 1830 map has them (the
    white hexes' circles earn nothing until a tile is laid)."""
    hexes = load_title("1830").data["hexes"]
    got = {
        h: ([c["revenue"] for c in d["cities"]], [t["revenue"] for t in d["towns"]])
        for h, d in hexes.items()
        if d["color"] in ("gray", "yellow") and (d["cities"] or d["towns"])
    }
    assert got == {
        "A19": ([40], []),
        "C15": ([], [10]),
        "D2": ([20], []),
        "D10": ([0, 0], []),
        "D14": ([20], []),
        "E5": ([0, 0], []),
        "E11": ([0, 0], []),
        "E23": ([30], []),
        "F6": ([30], []),
        "F24": ([], [10]),
        "G19": ([40, 40], []),
        "H12": ([10], []),
        "H18": ([0, 0], []),
        "I15": ([30], []),
        "I19": ([], [10]),
        "K15": ([20], []),
    }


def test_off_boards_pay_yellow_until_the_first_5_then_brown() -> None:
    """18xx.games picks an off-board's value by the latest tile colour of the phase:
    yellow in 2, 3, 4, brown in 5, 6, D (1830 has no gray)."""
    t = load_title("1830")
    assert dict(zip(t.phase_ids, t.phase_revenue_keys, strict=True)) == {
        "2": "yellow",
        "3": "yellow",
        "4": "yellow",
        "5": "brown",
        "6": "brown",
        "D": "brown",
    }
    hexes = t.data["hexes"]
    red = {h: d["offboard"]["revenue"] for h, d in hexes.items() if d["color"] == "red"}
    assert red == {
        "A9": {"yellow": 30, "brown": 50},
        "A11": {"yellow": 30, "brown": 50},
        "B24": {"yellow": 20, "brown": 30},
        "F2": {"yellow": 40, "brown": 70},
        "I1": {"yellow": 30, "brown": 60},
        "J2": {"yellow": 30, "brown": 60},
        "K13": {"yellow": 30, "brown": 40},
    }
    g = or_game()
    for phase_id, value in (("2", 20), ("4", 20), ("5", 30), ("D", 30)):
        set_phase(g, phase_id)
        assert phases.revenue_key(g) == ("yellow" if value == 20 else "brown")


# -- dividends ------------------------------------------------------------------------------


def bm_with_pool_share() -> Game:
    """B&M (3-train on Boston - Mansfield - Providence, $60) at its dividend step, one of
    its IPO shares moved to the pool: C 30%, A 20%, D 10%, pool 10%, IPO 30%."""
    g = or_game()
    lay(g, *EAST)
    give(g, "3-0")
    ipo = [c for c in shares.cert_ids(g, "B&M") if g.state.certs[c] == "ipo"]
    g.state.certs[ipo[0]] = "pool"
    g.invalidate_caches()
    to_routes(g)
    run(g, RunRoutes("B&M", (RouteSpec("3-0", PROVIDENCE, 60),)))
    assert g.state.round.step == "dividend"
    return g


def test_payout_pays_holders_and_the_pool_to_the_treasury_and_moves_right() -> None:
    """$6 a 10% share: the president's 20% counts twice; the pool's 10% pays B&M (18xx.games'
    holder_for_corporation is the pool for full capitalization); the IPO's 30% pays nobody."""
    g = bm_with_pool_share()
    before, bank = cash(g), g.state.bank
    run(g, Dividend("B&M", "payout"))
    after = cash(g)
    assert {p: after[p] - before[p] for p in after} == {"A": 12, "B": 0, "C": 18, "D": 6}
    assert g.state.corporations["B&M"].cash == 920 + 6
    assert g.state.bank == bank - 42
    assert market.price(g, "B&M") == 100  # one cell right, whatever the amount
    assert g.state.round.step == "trains"


def test_withhold_keeps_it_all_and_moves_left() -> None:
    g = bm_with_pool_share()
    before = cash(g)
    run(g, Dividend("B&M", "withhold"))
    assert cash(g) == before
    assert g.state.corporations["B&M"].cash == 920 + 60
    assert market.price(g, "B&M") == 82


def test_only_payout_and_withhold_are_offered() -> None:
    g = bm_with_pool_share()
    assert g.legal_actions() == [Dividend("B&M", "payout"), Dividend("B&M", "withhold")]
    refused(
        g,
        Dividend("B&M", "half"),
        r"dividend kind must be one of \['payout', 'withhold'\]",
    )
    refused(g, Dividend("NYC", "payout"), "not NYC's turn: B&M is to act")


def test_an_empty_run_earns_nothing_asks_no_dividend_and_moves_left() -> None:
    """18xx.games' Dividend step has no action after a run of no route (routes.empty?)
    and withholds by itself: the price falls one cell ($90 -> $82) at the run, and the
    turn goes on to the train step; a dividend is refused there."""
    g = or_game()
    lay(g, *EAST)
    give(g, "3-0")
    to_routes(g)
    treasury = g.state.corporations["B&M"].cash
    run(g, RunRoutes("B&M", ()))
    assert market.price(g, "B&M") == 82
    assert g.state.corporations["B&M"].cash == treasury
    assert g.state.round.step == "trains"
    refused(g, Dividend("B&M", "withhold"), "dividend is not possible now: the trains step")


def test_a_trainless_corporation_runs_nothing_and_its_price_falls() -> None:
    """No train: no route step, no dividend; the price moves left as for a withhold."""
    g = or_game()
    lay(g, *EAST)
    give(g)
    run(g, Pass("B&M"), Pass("B&M"))  # tile, token
    assert g.state.round.step == "trains"
    assert market.price(g, "B&M") == 82
    assert not any(isinstance(a, RunRoutes | Dividend) for a in g.legal_actions())


# -- the importer, on corpus games ----------------------------------------------------------


def money_of(res: ImportResult, corp: str) -> tuple[dict[str, int], int, int]:
    g = res.game
    return (
        {p.name: p.cash for p in g.state.players},
        g.state.corporations[corp].cash,
        (market.price(g, corp) or 0),
    )


def test_corpus_new_york_twice_in_one_route_and_the_pool_paying_the_treasury() -> None:
    """g2p_s2001 525: B&O's 5-train runs G19 city 1 - Scranton - Reading - G19 city 0 -
    Philadelphia ($260) beside a 4-train ($160); its payout (526) of $420 pays Player 1's
    40% $168, Player 2's 20% $84 and the pool's 40% $168 to B&O; $185 -> $200."""
    data = export("g2p_s2001")
    ran = at(data, 525)
    assert ran.divergence is None
    r = ran.game.state.round
    assert (r.step, ran.game.acting()) == ("dividend", "B&O")
    last = ran.game.log[-1]
    assert isinstance(last, RunRoutes)
    [five, four] = last.routes
    assert five.stops == ("G19-c1", "F16-c0", "G17-t0", "G19-c0", "H18-c0")
    assert (five.revenue, four.revenue) == (260, 160)
    assert shares.percents(ran.game, "B&O") == {"Player 1": 40, "Player 2": 20, "pool": 40}
    paid = at(data, 526)
    assert money_of(ran, "B&O") == ({"Player 1": 4803, "Player 2": 3267}, 654, 185)
    assert money_of(paid, "B&O") == ({"Player 1": 4971, "Player 2": 3351}, 822, 200)


def test_corpus_both_gulf_hexes_in_one_route_and_the_ipo_paying_nobody() -> None:
    """g2p_s2004 490: C&O runs I1 - Columbus - J2 in phase 5 ($60 + $40 + $60), both Gulf
    hexes (18xx.games tags only I1 "Gulf"), through I3 twice on separate track; the payout
    (491) of $280 pays Player 2's 40% $112 and Player 1's 30% $84; the IPO's 30% pays
    nobody (C&O keeps $504); $260 -> $280."""
    data = export("g2p_s2004")
    ran = at(data, 490)
    assert ran.divergence is None
    last = ran.game.log[-1]
    assert isinstance(last, RunRoutes)
    [gulf, _] = last.routes
    assert (gulf.stops, gulf.revenue) == (("I1-o0", "H4-c0", "J2-o0"), 160)
    assert [p for p in gulf.paths if p.startswith("I3:")] == ["I3:e1-e3", "I3:e0-e4"]
    assert shares.percents(ran.game, "C&O") == {"Player 2": 40, "Player 1": 30, "ipo": 30}
    paid = at(data, 491)
    assert money_of(ran, "C&O") == ({"Player 1": 4637, "Player 2": 5886}, 504, 260)
    assert money_of(paid, "C&O") == ({"Player 1": 4721, "Player 2": 5998}, 504, 280)


def test_routes_without_nodes_extra_revenue_or_subsidy_read_the_same() -> None:
    """Older exports have no ``nodes`` on routes and no ``extra_revenue``/``subsidy`` on
    the run: g2p_s2001 without them imports to the same log (NY's two cities, OO hexes
    read off the connections alone)."""
    data = export("g2p_s2001")
    old = copy.deepcopy(data)
    for a in old["actions"]:
        if a["type"] == "run_routes":
            a.pop("extra_revenue")
            a.pop("subsidy")
            for rt in a["routes"]:
                rt.pop("nodes")
    new, stripped = at(data), at(old)
    assert new.divergence is None and stripped.divergence is None
    assert stripped.game.log == new.game.log
    assert stripped.mismatches() == []


#: Every fourth generated game (by name): 2078 runs kept after undos.
SAMPLE = [
    "g2p_s2001", "g2p_s2005", "g2p_s2009", "g2p_s2013", "g3p_s3003", "g3p_s3007",
    "g3p_s3011", "g3p_s3501", "g4p_s4001", "g4p_s4005", "g4p_s4009", "g4p_s4013",
    "g4p_s4503", "g5p_s5003", "g5p_s5007", "g5p_s5011", "g5p_s5501", "g6p_s6001",
    "g6p_s6005", "g6p_s6009", "g6p_s6013", "g6p_s6503",
]  # fmt: skip


def test_every_logged_run_is_our_proven_best() -> None:
    """The random player ran what 18xx.games' route helper found: each logged run's
    revenue equals the best run our optimiser proves (all 9209 runs of the 86 games; a
    sample here), so the run the engine offers is the one 18xx.games ran."""
    runs = 0
    for name in SAMPLE:
        res = import_game(export(name), optimal_routes=True)
        assert res.mismatches() == [], name
        for aid, corp, logged, best, proven in res.route_report:
            assert (logged, proven) == (best, True), (name, aid, corp)
        runs += len(res.route_report)
    assert runs == 2078


def test_a_logged_revenue_other_than_ours_diverges() -> None:
    """18xx.games trusts a logged revenue on replay; the importer checks it against its
    own and stops at the first that differs."""
    data = export("g2p_s2001")
    action(data, 525)["routes"][0]["revenue"] = 270
    res = at(data)
    assert res.divergence is not None
    assert str(res.divergence) == (
        "action 525: train 5-1 (G19-F16-G17-G19-H18) earns $260 in our engine, the log says $270"
    )
    assert res.game.log[-1] == at(export("g2p_s2001"), 524).game.log[-1]


def test_a_logged_run_without_revenues_is_recomputed() -> None:
    """Without ``revenue`` (and ``hexes``/``revenue_str``) on its routes, 18xx.games
    rebuilds a run from its connections: so does the importer, to the same payout."""
    data = export("g2p_s2001")
    for rt in action(data, 525)["routes"]:
        for k in ("revenue", "hexes", "revenue_str"):
            rt.pop(k)
    res = at(data, 526)
    assert res.divergence is None
    assert money_of(res, "B&O") == ({"Player 1": 4971, "Player 2": 3351}, 822, 200)


def test_corpus_two_d_trains_share_a_city_and_withhold() -> None:
    """g3p_s3004 802: in phase D, ERIE's D-1 runs eleven stops ($460) and its D-0 three
    ($90), both stopping at Scranton (F16) on track of their own; the withhold (803) puts
    the $550 in ERIE's treasury ($29 -> $579), pays no player, and moves the price one
    cell left ($110 -> $100); CPR runs next."""
    data = export("g3p_s3004")
    ran = at(data, 802)
    assert ran.divergence is None
    last = ran.game.log[-1]
    assert isinstance(last, RunRoutes)
    assert [(r.train, len(r.stops), r.revenue) for r in last.routes] == [
        ("D-1", 11, 460),
        ("D-0", 3, 90),
    ]
    assert all("F16-c0" in r.stops for r in last.routes)
    kept = at(data, 803)
    players = {"Player 1": 3391, "Player 2": 5703, "Player 3": 2824}
    assert money_of(ran, "ERIE") == (players, 29, 110)
    assert money_of(kept, "ERIE") == (players, 579, 100)
    assert kept.game.state.corporations["ERIE"].cell == [3, 9]
    assert (kept.game.state.round.step, kept.game.acting()) == ("routes", "CPR")


# -- off-board areas (rules.offboard_groups) ----------------------------------------------


#: A9 - Barrie (B10, 57 NW-SE) - C11 (7) - B12 (8) - A11: both Canadian West hexes.
CANADA_TILES = (("B10", "57", 2), ("C11", "7", 2), ("B12", "8", 0))
CANADA_AREA = (("A9", "Canada"), ("A11", "Canada"))
CANADA = ("A9:e5-o0", "B10:c0-e2", "B10:c0-e5", "C11:e2-e3", "B12:e0-e2", "A11:e5-o0")


def canada_game(options: list[str]) -> Game:
    """B&M to run a 3-train, with a station in Barrie and track to both Canadian West
    hexes (``options``: the game's)."""
    g = second_stock_round(options=options)
    run(g, Pass("B"), Pass("C"), Pass("D"), Pass("A"))
    lay(g, *CANADA_TILES)
    token(g, "B&M", "B10")
    give(g, "3-0")
    to_routes(g)
    return g


def test_canadian_west_is_two_red_hexes_by_the_seed_and_one_area_by_18xx_games() -> None:
    """Seed 002 (routes): a route may start and end at two different red hexes, so A9 -
    Barrie - A11 runs for $30 + $20 + $30.  18xx.games tags A9 and A11 "Canada" and
    refuses a route reaching both: the option offboard_groups_18xx_games (an import
    reading) groups them, and the best run is then Barrie - A11 ($50)."""
    g = canada_game([])
    assert offered(g) == [("3-0", ("A11-o0", "B10-c0", "A9-o0"), 80)]
    # the check kept for the route is not the answer for the same route with groups
    b, m = network.board(g), g.state.map
    assert check_route(b, m, "B&M", "3-0", 3, CANADA, "yellow").revenue == 80
    with pytest.raises(RouteError, match="^the route visits two off-boards of the same group$"):
        check_route(b, m, "B&M", "3-0", 3, CANADA, "yellow", groups=CANADA_AREA)
    assert (
        check_route(b, m, "B&M", "3-0", 3, CANADA[2:], "yellow", groups=CANADA_AREA).revenue == 50
    )
    run(g, RunRoutes("B&M", (RouteSpec("3-0", CANADA, 80),)))
    assert g.state.round.step == "dividend"

    g = canada_game(READINGS_18XX)
    assert "offboard_groups_18xx_games" in g.options
    refused(
        g,
        RunRoutes("B&M", (RouteSpec("3-0", CANADA, 80),)),
        "illegal route: the route visits two off-boards of the same group",
    )
    assert offered(g) == [("3-0", ("A11-o0", "B10-c0"), 50)]
    run(g, RunRoutes("B&M", (RouteSpec("3-0", CANADA[2:], 50),)))
    assert g.state.round.step == "dividend"
