"""An audit of what the 18xx.games importer refuses, or computes otherwise than 18xx.games,
in routes, runs and dividends and in its bridging of the log (passes held back, undo and
redo, auto actions, hotseat and older exports).

Each test pins one corner with its exact outcome: accepted with its values, or refused
with the reason's words.  Route corners are read as the importer reads a logged route
(``route_from_connections`` on the 1830 board, 18xx.games ``connections``) and checked
as the engine checks a run (``check_routes``); run, dividend and bridging corners are
small edits of real exports (29133, a generated corpus game), made in memory.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from corpus_18xx import action, at, export, insert_after

import eighteen
from eighteen.engine import shares
from eighteen.engine.actions import Dividend
from eighteen.engine.game import Game
from eighteen.engine.map import Board
from eighteen.engine.position import MapState
from eighteen.engine.route_check import check_routes
from eighteen.engine.route_reading import route_from_connections
from eighteen.engine.routes import Route, RouteError
from eighteen.io.games18xx import ExportError, ImportResult


def cash(g: Game) -> dict[str, int]:
    return {p.name: p.cash for p in g.state.players}


@pytest.fixture(scope="module")
def full_29133() -> ImportResult:
    res = at(export("29133"))
    assert res.divergence is None and res.mismatches() == []
    return res


# -- routes, read from 18xx.games connections on the 1830 board ---------------------------


@pytest.fixture(scope="module")
def board() -> Board:
    return Board.of(eighteen.load_title("1830").doc)


def read(
    board: Board,
    s: MapState,
    corp: str,
    train: str,
    distance: int | None,
    connections: list[list[str]],
    key: str = "yellow",
) -> tuple[int, list[str]] | str:
    """A logged route read as the importer reads it: (revenue, stops), or the refusal."""
    try:
        r = route_from_connections(board, s, corp, train, distance, connections, key)
    except RouteError as exc:
        return exc.reason
    return r.revenue, [x.id for x in r.stops]


def route(
    board: Board, s: MapState, corp: str, train: str, distance: int | None, conns: list[list[str]]
) -> Route:
    return route_from_connections(board, s, corp, train, distance, conns, "yellow")


def test_a_route_may_not_come_back_to_a_city_it_visited(board: Board) -> None:
    """18xx.games refuses a route that uses a stop twice; so do we.  PRR at Altoona;
    Pittsburgh (#15, exits W NW NE E) has a loop through the town of Erie."""
    s = MapState()
    board.place_token(s, "PRR", "H12", 0)
    board.lay_tile(s, "H10", "15", 1)
    board.lay_tile(s, "G9", "8", 3)
    board.lay_tile(s, "F10", "3", 5)
    board.lay_tile(s, "G11", "8", 0)
    loop = [["H12", "H10"], ["H10", "G9", "F10"], ["F10", "G11", "H10"]]
    assert read(board, s, "PRR", "D-0", None, loop) == "the route visits H10 city 0 twice"
    assert read(board, s, "PRR", "3-0", 3, loop[:2]) == (50, ["F10-t0", "H10-c0", "H12-c0"])
    # the loop logged as one chain from the city back to itself reads as no track at all
    s2 = MapState()
    board.place_token(s2, "PRR", "H12", 0)
    board.lay_tile(s2, "H10", "15", 1)
    board.lay_tile(s2, "H8", "7", 3)
    board.lay_tile(s2, "G9", "7", 5)
    one = [["H12", "H10"], ["H10", "H8", "G9", "H10"]]
    assert read(board, s2, "PRR", "D-0", None, one) == "no track along H10-H8-G9-H10"


def test_a_city_full_of_other_tokens_is_only_an_end(board: Board) -> None:
    """Pittsburgh (#57, one slot) holds B&O's token: PRR may end there, not pass."""
    s = MapState()
    board.place_token(s, "PRR", "H12", 0)
    board.lay_tile(s, "H10", "57", 1)
    board.place_token(s, "B&O", "H10", 0)
    for h in ("H8", "H6"):
        board.lay_tile(s, h, "9", 1)
    board.lay_tile(s, "H4", "57", 1)
    through = [["H12", "H10"], ["H10", "H8", "H6", "H4"]]
    assert read(board, s, "PRR", "3-0", 3, through) == "the route may not pass through H10 city 0"
    assert read(board, s, "PRR", "2-0", 2, [["H12", "H10"]]) == (30, ["H10-c0", "H12-c0"])
    assert read(board, s, "PRR", "2-0", 2, [["H10", "H12"]]) == (30, ["H10-c0", "H12-c0"])
    # its own token never blocks; the full Altoona is B&O's first stop
    assert read(board, s, "B&O", "3-0", 3, through) == (50, ["H12-c0", "H10-c0", "H4-c0"])


def test_altoona_bypass_passes_a_full_city_but_shares_its_sides(board: Board) -> None:
    """H12's straight bypass runs past PRR's full city; it uses the city's hex sides."""
    s = MapState()
    board.place_token(s, "PRR", "H12", 0)
    board.lay_tile(s, "H10", "57", 1)
    board.place_token(s, "B&O", "H10", 0)
    board.lay_tile(s, "H14", "9", 1)
    board.lay_tile(s, "H16", "57", 1)
    line = [["H10", "H12", "H14", "H16"]]
    via_city = [["H10", "H12"], ["H12", "H14", "H16"]]
    assert read(board, s, "B&O", "2-0", 2, line) == (40, ["H10-c0", "H16-c0"])
    assert read(board, s, "B&O", "3-0", 3, via_city) == "the route may not pass through H12 city 0"
    assert read(board, s, "PRR", "3-0", 3, via_city) == (50, ["H10-c0", "H12-c0", "H16-c0"])
    # B&O may end in the full city and run the bypass, not both: they share H10-H12's side
    a = route(board, s, "B&O", "2-1", 2, [["H10", "H12"]])
    b = route(board, s, "B&O", "2-0", 2, line)
    assert (a.revenue, b.revenue) == (30, 40)
    with pytest.raises(
        RouteError, match="^the route of train 2-0 shares track with another route$"
    ):
        check_routes(board, s, "B&O", [("2-1", 2, a.paths), ("2-0", 2, b.paths)], "yellow")


def test_a_route_may_start_or_end_at_an_off_board(board: Board) -> None:
    """B&O Baltimore - Washington - Deep South, logged either way (29133 action 115); the
    off-board pays its brown value from phase 5 on."""
    s = MapState()
    board.place_token(s, "B&O", "I15", 0)
    board.lay_tile(s, "J14", "57", 0)
    stops = ["I15-c0", "J14-c0", "K13-o0"]
    assert read(board, s, "B&O", "3-1", 3, [["J14", "I15"], ["K13", "J14"]]) == (80, stops)
    assert read(board, s, "B&O", "3-1", 3, [["K13", "J14"], ["J14", "I15"]]) == (80, stops)
    conns = [["K13", "J14"], ["J14", "I15"]]
    assert read(board, s, "B&O", "D-0", None, conns, "brown") == (90, stops)


def test_an_off_board_is_never_passed_through(board: Board) -> None:
    s = MapState()
    board.lay_tile(s, "B10", "57", 0)
    board.place_token(s, "CPR", "B10", 0)
    board.lay_tile(s, "B12", "8", 2)
    board.lay_tile(s, "B14", "9", 1)
    board.lay_tile(s, "B16", "57", 1)
    conns = [["B10", "A11"], ["A11", "B12", "B14", "B16"]]
    assert (
        read(board, s, "CPR", "D-0", None, conns) == "the route may not pass through A11 offboard 0"
    )


def test_both_canadian_off_boards_are_read_as_one_route(board: Board) -> None:
    """The reading of a logged route knows the map alone: A9 - Barrie - A11 is a route.
    The 1830 rules allow it (titles/1830/map.toml); 18xx.games tags A9 and A11 "Canada" and
    refuses it, so no log holds it, and the engine's check refuses it on its readings
    (option offboard_groups_18xx_games: tests/engine/test_route_audit.py)."""
    s = MapState()
    board.lay_tile(s, "B10", "15", 2)
    board.place_token(s, "CPR", "B10", 0)
    conns = [["A9", "B10"], ["B10", "A11"]]
    stops = ["A11-o0", "B10-c0", "A9-o0"]
    assert read(board, s, "CPR", "3-0", 3, conns) == (90, stops)
    assert read(board, s, "CPR", "3-0", 3, conns, "brown") == (130, stops)


def test_towns_count_as_stops(board: Board) -> None:
    """A 2-train from a town (Atlantic City) to a city; a town is one of its stops."""
    s = MapState()
    board.place_token(s, "B&O", "I15", 0)
    board.lay_tile(s, "J14", "57", 0)
    board.lay_tile(s, "I17", "9", 1)
    assert read(board, s, "B&O", "2-0", 2, [["I15", "I17", "I19"]]) == (40, ["I15-c0", "I19-t0"])
    three = [["I19", "I17", "I15"], ["I15", "J14"]]
    assert read(board, s, "B&O", "2-0", 2, three) == "3 stops (1 towns) is more than the train's 2"
    assert read(board, s, "B&O", "3-0", 3, three) == (60, ["I19-t0", "I15-c0", "J14-c0"])


def test_the_diesel_runs_any_distance(board: Board) -> None:
    """Seven stops from New York to Reading & Allentown through Boston (B&M's home)."""
    s = MapState()
    board.place_token(s, "B&M", "E23", 0)
    for hex_id, tile, rot in [
        ("F20", "1", 0),
        ("F22", "57", 1),
        ("D22", "9", 1),
        ("D20", "8", 4),
        ("E19", "57", 0),
        ("F18", "9", 0),
        ("G17", "1", 0),
    ]:
        board.lay_tile(s, hex_id, tile, rot)
    conns = [
        ["G19", "F20"],
        ["F20", "F22"],
        ["F22", "F24"],
        ["F24", "E23"],
        ["E23", "D24", "D22", "D20", "E19"],
        ["E19", "F18", "G17"],
    ]
    stops = ["E19-c0", "E23-c0", "F20-t1", "F22-c0", "F24-t0", "G17-t0", "G19-c0"]
    got = read(board, s, "B&M", "D-0", None, conns)
    assert isinstance(got, tuple) and got[0] == 140 and sorted(got[1]) == stops
    assert read(board, s, "B&M", "6-0", 6, conns) == "7 stops (3 towns) is more than the train's 6"


def test_trains_may_share_a_city_but_not_track(board: Board) -> None:
    s = MapState()
    board.place_token(s, "B&O", "I15", 0)
    board.lay_tile(s, "J14", "57", 0)
    board.lay_tile(s, "I17", "9", 1)
    a = route(board, s, "B&O", "2-0", 2, [["I15", "I17", "I19"]])
    b = route(board, s, "B&O", "3-1", 3, [["J14", "I15"], ["K13", "J14"]])
    got = check_routes(board, s, "B&O", [("2-0", 2, a.paths), ("3-1", 3, b.paths)], "yellow")
    assert [r.revenue for r in got] == [40, 80]
    c = route(board, s, "B&O", "2-0", 2, [["I15", "J14"]])
    with pytest.raises(
        RouteError, match="^the route of train 3-1 shares track with another route$"
    ):
        check_routes(board, s, "B&O", [("2-0", 2, c.paths), ("3-1", 3, b.paths)], "yellow")


def test_a_route_needs_a_station_of_its_corporation(board: Board) -> None:
    s = MapState()
    board.place_token(s, "B&O", "I15", 0)
    board.lay_tile(s, "J14", "57", 0)
    conns = [["K13", "J14"], ["J14", "I15"]]
    assert read(board, s, "PRR", "3-0", 3, conns) == "the route includes no station of PRR"


# -- runs and dividends in a real game (29133: B&O runs at 96 and 115) ------------------


def test_an_illegal_logged_route_is_a_divergence_naming_the_rule() -> None:
    data = export("29133")
    action(data, 115)["routes"] = [
        {"train": "2-0", "revenue": 80, "connections": [["J14", "I15"], ["I15", "I17", "H16"]]}
    ]
    res = at(data)
    assert res.divergence is not None and res.divergence.action_id == 115
    assert res.divergence.reason == "train 2-0: 3 stops (0 towns) is more than the train's 2"


@pytest.mark.parametrize("dividend", ["dropped", "withhold"])
def test_an_empty_run_earns_nothing_and_moves_the_price_left(dividend: str) -> None:
    """A run may log no route (format note, run_routes); 18xx.games then skips the
    dividend step (withhold, price left), so no dividend follows; one logged anyway
    changes nothing."""
    data = export("29133")
    before = at(data, 95).game
    assert (before.state.corporations["B&O"].cash, before.state.corporations["B&O"].cell) == (
        760,
        [1, 5],
    )
    action(data, 96)["routes"] = []
    if dividend == "dropped":
        data["actions"] = [a for a in data["actions"] if a["id"] != 97]
    else:
        action(data, 97)["kind"] = "withhold"
    res = at(data, 98)  # B&O then buys the 3-train 3-1 for $180
    g = res.game
    assert res.divergence is None
    assert g.state.corporations["B&O"].cell == [1, 4]
    assert g.state.corporations["B&O"].cash == 760 - 180
    assert cash(g) == cash(before)


def test_a_train_may_be_left_idle() -> None:
    """B&O runs its 2-train alone (60, not 60 + 80) and pays out $6 a share."""
    data = export("29133")
    full = at(data, 116).game
    action(data, 115)["routes"] = action(data, 115)["routes"][:1]
    res = at(data, 116)
    g = res.game
    assert res.divergence is None
    assert g.state.corporations["B&O"].cell == full.state.corporations["B&O"].cell == [1, 7]
    assert cash(full) == {"Player 1": 267, "Player 2": 142, "Player 3": 111, "Player 4": 125}
    assert cash(g) == {"Player 1": 259, "Player 2": 110, "Player 3": 103, "Player 4": 125 - 8}
    assert (g.state.corporations["B&O"].cash, full.state.corporations["B&O"].cash) == (551, 559)


@pytest.fixture(scope="module")
def bo_at_dividend() -> Game:
    """29133 after B&O's run of $50 (action 96), B&O to choose its dividend."""
    g = at(export("29133"), 96).game
    assert (g.acting(), g.state.round.step) == ("B&O", "dividend")
    return g


def test_payout_and_withhold_exact(bo_at_dividend: Game) -> None:
    """$50: $5 per 10%; the pool's 10% pays B&O, the IPO's 20% pays nobody."""
    g0 = bo_at_dividend
    assert shares.percents(g0, "B&O") == {
        "Player 2": 40,
        "Player 4": 10,
        "pool": 10,
        "Player 3": 10,
        "Player 1": 10,
        "ipo": 20,
    }
    assert (cash(g0), g0.state.corporations["B&O"].cash, g0.state.bank) == (
        {"Player 1": 191, "Player 2": 49, "Player 3": 55, "Player 4": 19},
        760,
        9966,
    )
    g = g0.clone()
    g.apply(Dividend("B&O", "payout"))
    assert cash(g) == {"Player 1": 196, "Player 2": 69, "Player 3": 60, "Player 4": 24}
    assert (g.state.corporations["B&O"].cash, g.state.bank) == (765, 9926)
    assert g.state.corporations["B&O"].cell == [1, 6]
    g = g0.clone()
    g.apply(Dividend("B&O", "withhold"))
    assert cash(g) == cash(g0)
    assert (g.state.corporations["B&O"].cash, g.state.bank) == (810, 9916)
    assert g.state.corporations["B&O"].cell == [1, 4]


@pytest.mark.parametrize(
    ("cell", "kind", "to"),
    [
        ([0, 18], "payout", [0, 18]),  # $350, the top right: stays
        ([1, 18], "payout", [0, 18]),  # end of its row: one row up
        ([2, 15], "payout", [1, 15]),  # $200, end of a short row: up to $240
        ([0, 0], "withhold", [1, 0]),  # column 0: one row down
        ([7, 0], "withhold", [7, 0]),  # $10, nothing left nor below: stays
        ([8, 1], "withhold", [8, 1]),  # $10, the row starts at column 1: stays
        ([7, 0], "payout", [7, 1]),
        ([0, 18], "withhold", [0, 17]),
    ],
)
def test_dividend_price_moves_at_the_edges(
    bo_at_dividend: Game, cell: list[int], kind: str, to: list[int]
) -> None:
    """facts §2: paid one cell right (at the row's end one row up, at the top it stays);
    withheld one cell left (none there: one row down, if there is one)."""
    g = bo_at_dividend.clone()
    g.state.corporations["B&O"].cell = list(cell)
    g.invalidate_caches()
    g.apply(Dividend("B&O", kind))
    assert g.state.corporations["B&O"].cell == to


# -- undo and redo, auto actions, the shape of an export --------------------------------


def test_undo_back_across_rounds_then_the_same_moves(full_29133: ImportResult) -> None:
    """From B&O's first tile of operating round 1.2 (94) back into stock round 2 (after 87),
    then the same moves again: the game is the same."""
    data = export("29133")
    again = [
        {k: v for k, v in a.items() if k != "id"} for a in data["actions"] if 88 <= a["id"] <= 94
    ]
    undo = {"type": "undo", "entity": "B&O", "entity_type": "corporation", "action_id": 87}
    res = at(insert_after(data, 94, [undo, *again]))
    assert res.divergence is None and res.mismatches() == []
    assert (res.kept_count, res.raw_count) == (334, 458)
    assert res.game.state_hash() == full_29133.game.state_hash()


def test_undo_across_rounds_chat_then_redo(full_29133: ImportResult) -> None:
    data = export("29133")
    undo = {"type": "undo", "entity": 4836, "entity_type": "player", "action_id": 87}
    chat = {"type": "message", "entity": 4631, "entity_type": "player", "message": "oops"}
    redo = {"type": "redo", "entity": 4836, "entity_type": "player"}
    res = at(insert_after(data, 94, [undo, chat, redo]))
    assert res.divergence is None and res.mismatches() == []
    assert res.game.state_hash() == full_29133.game.state_hash()


def test_redo_after_a_new_move_is_bad_input() -> None:
    """A new move ends the chain of redos (§3.2); 18xx.games' filter cannot load a redo
    with nothing to restore either (its stack is empty), so no export holds one."""
    data = export("29133")
    again = [
        {k: v for k, v in a.items() if k != "id"} for a in data["actions"] if 88 <= a["id"] <= 94
    ]
    undo = {"type": "undo", "entity": 4836, "entity_type": "player", "action_id": 87}
    redo = {"type": "redo", "entity": 4836, "entity_type": "player"}
    bad = insert_after(data, 94, [undo, *again, redo])
    with pytest.raises(ExportError, match=r"^action 103: redo with nothing to restore$"):
        at(bad)


def test_undo_of_a_move_with_auto_actions_takes_them_too(full_29133: ImportResult) -> None:
    """Action 151 (a pass) carries Player 3's programmed buy and pass: undone, they go with
    it; played again by hand, one by one, the game is the same."""
    data = export("29133")
    parent = action(data, 151)
    autos = parent["auto_actions"]
    assert [a["type"] for a in autos] == ["buy_shares", "pass"]
    bare = {k: v for k, v in parent.items() if k not in ("id", "auto_actions")}
    undo = {"type": "undo", "entity": 4631, "entity_type": "player"}
    res = at(insert_after(data, 151, [undo, bare, *autos]))
    assert res.divergence is None and res.mismatches() == []
    assert res.game.state_hash() == full_29133.game.state_hash()
    # undone and not played again: Player 3 never buys B&M_1
    res = at(insert_after(data, 151, [undo, bare]), 152)
    assert res.divergence is None
    assert res.game.state.certs["B&M_1"] == "ipo"


def test_players_with_string_ids_in_seating_order(full_29133: ImportResult) -> None:
    data = export("29133")
    for p in data["players"]:
        p["id"] = str(p["id"])
    res = at(data)
    assert res.mismatches() == []
    assert [p.name for p in res.game.state.players] == [
        "Player 1",
        "Player 2",
        "Player 3",
        "Player 4",
    ]
    assert res.game.state_hash() == full_29133.game.state_hash()


def test_a_hotseat_export_names_its_players(full_29133: ImportResult) -> None:
    """Hotseat: players by name only, the name as id in entities, user and result; numbers
    as strings; a string game id; few settings."""
    data = export("29133")
    name = {p["id"]: p["name"] for p in data["players"]}

    def hot(a: dict[str, Any]) -> dict[str, Any]:
        a = {k: v for k, v in a.items() if k not in ("user", "created_at")}
        if a.get("entity_type") == "player":
            a["entity"] = name[a["entity"]]
        if a["type"] == "bid" or a["type"] == "buy_train":
            a["price"] = str(a["price"])
        if "auto_actions" in a:
            a["auto_actions"] = [hot(x) for x in a["auto_actions"]]
        return a

    data["actions"] = [hot(a) for a in data["actions"]]
    data["players"] = [{"name": p["name"]} for p in data["players"]]
    data["result"] = {name[int(k)]: v for k, v in data["result"].items()}
    data.update(
        id="hs_abc123",
        mode="hotseat",
        min_players="2",
        max_players="6",
        settings={"optional_rules": []},
        created_at="2021-02-20",
    )
    res = at(data)
    assert res.divergence is None and res.mismatches() == []
    assert res.game.state_hash() == full_29133.game.state_hash()


def test_key_order_and_pretty_printing_change_nothing(full_29133: ImportResult) -> None:
    data = export("29133")

    def backwards(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: backwards(x[k]) for k in reversed(list(x))}
        if isinstance(x, list):
            return [backwards(v) for v in x]
        return x

    res = at(json.loads(json.dumps(backwards(data), indent=2)))
    assert res.mismatches() == []
    assert res.game.state_hash() == full_29133.game.state_hash()


# -- where 18xx.games' order of passes and purchases matters --------------------------------


def test_an_mh_exchange_as_an_operating_round_opens_follows_the_private_payout() -> None:
    """29133 with NYC started in stock round 2 (Player 1 pars it at $67 instead of passing
    at 84).  Action 112, NYNH's pass, ends operating round 1.1 in 18xx.games: round 1.2
    begins and the privates pay (MH $20 to Player 3).  An MH exchange logged right then
    (before B&O's first tile, 113) or after that tile comes after the payout alike."""
    data = export("29133")
    i = next(k for k, a in enumerate(data["actions"]) if a["id"] == 84)
    data["actions"][i] = {
        "id": 84,
        "type": "par",
        "entity": 4836,
        "entity_type": "player",
        "corporation": "NYC",
        "share_price": "67,5,6",
    }
    data = insert_after(data, 84, [{"type": "pass", "entity": 4836, "entity_type": "player"}])
    mh = {
        "type": "buy_shares",
        "entity": "MH",
        "entity_type": "company",
        "shares": ["NYC_1"],
        "percent": 10,
    }
    # (ids from 85 on moved up one: NYNH's pass is 113, B&O's tile 114, its token 115)
    early = at(insert_after(data, 113, [mh]), 116).game
    late = at(insert_after(data, 114, [mh]), 116).game
    assert early.state.certs["NYC_1"] == late.state.certs["NYC_1"] == "Player 3"
    assert cash(late)["Player 3"] == 97
    assert cash(early) == cash(late)


def test_a_private_bought_as_a_turn_opens_after_its_own_passes_follows_the_payout() -> None:
    """g2p_s2004: B&O operates last in operating round 4.1 (its pass, 117, ends it) and
    first in 4.2 (its tile, 118).  B&O buying SV from Player 1 for $40 right at the start
    of 4.2 (before 118) or after its tile: on 18xx.games both come after the payout of
    4.2 (SV's $5 to Player 1)."""
    data = export("g2p_s2004")
    buy = {
        "type": "buy_company",
        "entity": "B&O",
        "entity_type": "corporation",
        "company": "SV",
        "price": 40,
    }
    early = at(insert_after(data, 117, [buy]), 119).game
    late = at(insert_after(data, 118, [buy]), 119).game
    assert early.state.privates["SV"].owner == late.state.privates["SV"].owner == "B&O"
    assert (cash(late), late.state.corporations["B&O"].cash) == (
        {"Player 1": 477, "Player 2": 106},
        301,
    )
    assert (cash(early), early.state.corporations["B&O"].cash) == (cash(late), 301)


def test_an_export_without_created_at_is_dated_by_its_actions() -> None:
    data = export("29133")
    del data["created_at"]
    res = at(data)
    assert res.divergence is None
    assert res.mismatches() == []
