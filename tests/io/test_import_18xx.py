"""Importing the real 1830 game 29133 from 18xx.games: the exact recorded result, every
route re-derived, and every way the replay can be told that the log is wrong."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest
from corpus_18xx import export
from readings_18xx import READINGS_18XX

from eighteen.engine import bank, network, phases, route_reading
from eighteen.engine.actions import IllegalAction, LayTile, RouteSpec, RunRoutes
from eighteen.engine.route_reading import first_reading, route_from_connections
from eighteen.engine.routefinder import all_routes
from eighteen.io import games18xx_actions
from eighteen.io.games18xx import (
    Divergence,
    ExportError,
    _created_day,
    effective_actions,
    filter_actions,
    import_game,
)


def action(data: dict[str, Any], aid: int) -> dict[str, Any]:
    return next(a for a in data["actions"] if a["id"] == aid)


def test_29133_replays_to_its_exact_result(game_29133: dict[str, Any]) -> None:
    res = import_game(game_29133)
    assert res.divergence is None
    assert res.mismatches() == []
    g = res.game
    assert g.is_over and g.state.end_reason == "bankruptcy"
    assert {res.players[n]: v for n, v in res.values().items()} == game_29133["result"]
    assert bank.total_money(g) == 12000
    # every route of every kept run_routes was read from its connections and checked
    kept = filter_actions(game_29133["actions"])
    logged_routes = sum(len(a["routes"]) for a in kept if a["type"] == "run_routes")
    assert res.routes_checked == logged_routes == 37
    assert res.kept_count == 334 and res.raw_count == 450
    assert res.applied == 334 + 20  # the 20 auto actions of kept parents
    # 18xx.games' readings, from the title data: 29133 dates from 2021
    assert g.options == READINGS_18XX


def test_filter_matches_the_skip_flags(game_29133: dict[str, Any]) -> None:
    kept = filter_actions(game_29133["actions"])
    assert [a["id"] for a in kept] == [a["id"] for a in game_29133["actions"] if not a.get("skip")]
    types = Counter(a["type"] for a in kept)
    assert types["undo"] == types["redo"] == 0
    assert types["pass"] == 128 and types["run_routes"] == 24 and types["buy_train"] == 26
    autos = [aid for aid, _ in effective_actions(game_29133["actions"]) if isinstance(aid, str)]
    assert len(autos) == 20 and autos[0] == "39.1"


def test_a_wrong_revenue_is_a_divergence(game_29133: dict[str, Any]) -> None:
    a = action(game_29133, 115)
    a["routes"][1]["revenue"] += 10
    res = import_game(game_29133)
    d = res.divergence
    assert d is not None and d.action_id == 115
    assert "earns $80 in our engine, the log says $90" in d.reason
    assert res.mismatches()[0].startswith("action 115:")
    assert res.game.log  # the game stops after the last good action


def reading_each_route(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Record the corporation of each route the importer reads in turn (every reading
    tried)."""
    read: list[object] = []
    each = route_from_connections  # (what games18xx_actions calls by that name)

    def recorded(*args: Any, **kw: Any) -> Any:
        read.append(args[2])  # (board, state, corporation, ...)
        return each(*args, **kw)

    monkeypatch.setattr(games18xx_actions, "route_from_connections", recorded)
    return read


def test_a_run_the_engine_refuses_leaves_no_trace(
    game_29133: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A logged run with a wrong revenue goes to the engine as logged and is refused; the
    importer then reads each route in turn (as it always does when it asks for the best
    routes too) and stops at the same action, in the same state."""
    action(game_29133, 115)["routes"][1]["revenue"] += 10
    read = reading_each_route(monkeypatch)
    first = import_game(copy.deepcopy(game_29133))
    assert read == ["B&O", "B&O"]  # action 115's two routes, after the engine refused the run
    careful = import_game(game_29133, optimal_routes=True)  # each route read in turn
    assert first.divergence is not None and careful.divergence is not None
    assert (first.divergence.action_id, first.divergence.reason) == (
        careful.divergence.action_id,
        careful.divergence.reason,
    )
    assert len(first.game.log) == len(careful.game.log)
    assert first.game.state_hash() == careful.game.state_hash()


def test_first_reading_is_none_where_a_connection_has_no_track(
    game_29133: dict[str, Any],
) -> None:
    res = import_game(game_29133, stop_at=114)
    board, m = network.board(res.game), res.game.state.map
    assert first_reading(board, m, [["I15", "I17", "H16"]]) == (
        ("H16:c0-e5", "I17:e1-e2", "I15:c0-e4"),
        ("H16-c0", "I15-c0"),
    )
    assert first_reading(board, m, [["I15", "J14", "K13"]]) is None  # no such chain
    assert first_reading(board, m, []) is None


def _every_reading(g: Any, conns: list[list[str]]) -> list[tuple[list[int], list[int]]]:
    """Every reading of ``conns`` on ``g``, in the order a route's connections are read:
    each connection's chains along its hexes as listed, then backwards, each followed by
    every reading of the rest that goes on from the stop it ends at (made whole and
    eagerly: what :func:`route_reading._first_of` finds lazily and stops early)."""
    per = [route_reading._chains(g, c) + route_reading._chains(g, c[::-1]) for c in conns]
    out: list[tuple[list[int], list[int]]] = []

    def go(k: int, stop: int | None, pids: list[int], stops: list[int]) -> None:
        if k == len(per):
            out.append((pids, stops))
            return
        for a, b, chain in per[k]:
            if stop is None:
                go(k + 1, b, list(chain), [a, b])
            elif a == stop:
                go(k + 1, b, [*pids, *chain], [*stops, b])

    go(0, None, [], [])
    return out


class _From:
    """A reading taker that refuses every reading but ``readings`` (those from some place
    in the order on): it takes a reading as it is."""

    def __init__(self, readings: list[tuple[list[int], list[int]]]) -> None:
        self.readings = readings

    def __call__(self, pids: list[int], stops: list[int]) -> tuple[list[int], list[int]] | None:
        return (pids, stops) if (pids, stops) in self.readings else None


def test_the_first_reading_is_the_first_in_the_order_of_every_reading(
    game_29133: dict[str, Any],
) -> None:
    """The first reading of a route's connections (found by recursive calls that read a
    connection backwards only when a reading gets there, and stop at the first) is the
    first of every reading in their order whose stops are the ones asked for; and the
    route read from the connections is the first of them the route check takes. For the
    connections of 40 routes each corporation with a station can run with a 4-train
    (each connection also read the other way round), halfway through and at the end of
    29133; asked for no stops, for the stops of each reading in turn and for stops no
    reading has, and with the readings before each one refused (the route check's use:
    the next reading in the order is the one taken)."""
    asked = 0
    later = 0  # (readings taken past refused ones)
    for stop_at in (200, None):
        res = import_game(game_29133, stop_at=stop_at)
        board, m = network.board(res.game), res.game.state.map
        g = board.graph(m)
        key = phases.revenue_key(res.game)
        for corp in sorted({c for cities in m.tokens.values() for toks in cities for c in toks}):
            for rt in all_routes(board, m, corp, "4", 4, key)[:40]:
                forwards = rt.connections()
                for conns in (forwards, [c[::-1] for c in forwards]):
                    every = _every_reading(g, conns)
                    wants: list[set[int | None] | None] = [None, {-5}]
                    wants += [set(stops) for _, stops in every]
                    for want in wants:
                        at = [i for i, (_, s) in enumerate(every) if want is None or set(s) == want]
                        options, _ = route_reading._reading_options(g, conns, None)
                        got = route_reading._first_of(options, 0, None, [], [], want)
                        assert got == (every[at[0]] if at else None), (corp, conns, want)
                        asked += 1
                    for j in range(1, len(every)):  # the first readings refused
                        options, _ = route_reading._reading_options(g, conns, None)
                        took = route_reading._first_of(
                            options, 0, None, [], [], None, _From(every[j:])
                        )
                        assert took == every[j], (corp, conns, j)
                        later += 1
                    read = route_from_connections(board, m, corp, "4", 4, conns, key)
                    assert read == rt, (corp, conns)
    assert asked > 1000 and later > 0


def test_a_kept_reading_is_the_reading_of_the_tiles_on_its_hexes(
    game_29133: dict[str, Any],
) -> None:
    """The board keeps a reading with the tiles on the hexes it names: read again only
    where one of them changed since."""
    res = import_game(game_29133, stop_at=114)
    board, m = network.board(res.game), res.game.state.map
    board.clear_caches()
    # (each reading made anew is kept in place of the last one for its connections: seen
    # as the board's cache entry made anew, not by patching the reader, which compiled is
    # called as a C function)
    readings = board._caches.setdefault("reading", {})
    conn = [["I15", "I17", "H16"]]
    read = (("H16:c0-e5", "I17:e1-e2", "I15:c0-e4"), ("H16-c0", "I15-c0"))
    assert first_reading(board, m, conn) == read
    (kept,) = readings.values()
    elsewhere = copy.deepcopy(m)
    elsewhere.tiles["C13"] = ("7", 0)  # on a hex the connection does not name
    assert first_reading(board, elsewhere, conn) == read
    assert first_reading(board, m, [("I15", "I17", "H16")]) == read  # a tuple too
    assert list(readings.values()) == [kept] and next(iter(readings.values())) is kept
    bare = copy.deepcopy(m)
    del bare.tiles["I17"]  # the track the reading follows through I17 gone
    assert first_reading(board, bare, conn) is None
    (bare_kept,) = readings.values()
    assert bare_kept is not kept  # read again
    assert first_reading(board, m, conn) == read  # and again: I17 changed since
    (last,) = readings.values()
    assert last is not bare_kept and last[2] == read


def test_an_impossible_route_is_a_divergence(game_29133: dict[str, Any]) -> None:
    a = action(game_29133, 115)
    a["routes"][0]["connections"] = [["I15", "J14", "K13"]]  # no such track chain
    d = import_game(game_29133).divergence
    assert d is not None and d.action_id == 115 and "train 2-0" in d.reason


def test_routes_are_read_without_the_derived_fields(game_29133: dict[str, Any]) -> None:
    for a in game_29133["actions"]:
        for r in a.get("routes", []):
            for k in ("hexes", "revenue_str"):
                r.pop(k, None)
    assert import_game(game_29133).mismatches() == []


def test_logged_routes_run_as_first_read_match_the_reading_of_each_route(
    game_29133: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A logged run goes to the engine as the first reading of each route's connections,
    checked there only; a route with no logged revenue is read in turn, every reading
    tried (route_from_connections).  Both give the same game, action for action."""
    read = reading_each_route(monkeypatch)
    fast = import_game(copy.deepcopy(game_29133))
    assert read == []  # every logged run went to the engine as first read
    for a in game_29133["actions"]:
        for r in a.get("routes", []):
            del r["revenue"]
    careful = import_game(game_29133)
    assert len(read) == 37  # no logged revenue: each route read in turn
    assert fast.mismatches() == careful.mismatches() == []
    assert fast.routes_checked == careful.routes_checked == 37
    assert fast.game.to_json() == careful.game.to_json()
    runs = [x for x in fast.game.log if isinstance(x, RunRoutes)]
    # action 115: B&O's 2-train logged as I15-I17-H16, run from the lower stop id
    assert runs[3].routes[0] == RouteSpec(
        "2-0", ("H16:c0-e5", "I17:e1-e2", "I15:c0-e4"), 60, ("H16-c0", "I15-c0")
    )


def test_an_illegal_tile_lay_names_the_action_and_the_rule(game_29133: dict[str, Any]) -> None:
    action(game_29133, 44)["rotation"] = 4  # tile 7 on I17 pointing off its track
    d = import_game(game_29133).divergence
    assert d is not None and d.action_id == 44
    assert "I17" in d.reason and d.action["tile"] == "7-0"


def test_a_changed_result_fails_the_check_without_divergence(game_29133: dict[str, Any]) -> None:
    game_29133["result"]["4631"] += 1
    res = import_game(game_29133)
    assert res.divergence is None
    assert res.mismatches() == ["Player 2: ours 1477, file 1478"]


def test_a_changed_end_reason_fails_the_check(game_29133: dict[str, Any]) -> None:
    game_29133["game_end_reason"] = "bank"
    assert import_game(game_29133).mismatches() == ["end: ours bankruptcy, file bank"]


def test_a_truncated_log_replays_what_is_there(game_29133: dict[str, Any]) -> None:
    game_29133["actions"] = game_29133["actions"][:200]
    game_29133["status"] = "active"
    del game_29133["result"], game_29133["game_end_reason"]
    res = import_game(game_29133)
    assert res.divergence is None and not res.game.is_over
    assert res.mismatches() == []


def test_a_log_cut_after_a_pass_of_a_step_our_engine_skips_is_no_divergence() -> None:
    """g2p_s2012 cut after action 80, B&O's pass of its track step (our engine skips that
    step: it has no lay), as an export of a game still on: nothing after the pass says
    more, so the import stops where the full log's does at action 80 (`--at 80`); it
    diverged ("B&O cannot pass now")."""
    full = export("g2p_s2012")
    cut = copy.deepcopy(full)
    cut["actions"] = [a for a in cut["actions"] if a["id"] <= 80]
    assert cut["actions"][-1]["type"] == "pass" and cut["actions"][-1]["entity"] == "B&O"
    cut["status"] = "active"
    for key in ("result", "game_end_reason", "finished_at"):
        cut.pop(key, None)
    res = import_game(cut)
    assert res.divergence is None and res.mismatches() == []
    at = import_game(full, stop_at=80)
    assert res.values() == at.values() and res.game.acting() == at.game.acting() == "B&O"


def test_optional_rules_become_title_options(game_29133: dict[str, Any]) -> None:
    game_29133["settings"]["optional_rules"] = ["optional_6_train"]
    res = import_game(game_29133)
    assert res.game.options == [*READINGS_18XX, "optional_6_train"]
    # the third 6-train is still for sale when NYNH needs a train: it is not bankrupt,
    # so the game goes on and the last action (its bankruptcy) no longer fits
    d = res.divergence
    assert d is not None and d.action_id == 450 and d.action["type"] == "bankrupt"


def test_an_unknown_optional_rule_is_an_error(game_29133: dict[str, Any]) -> None:
    game_29133["settings"]["optional_rules"] = ["free_lunch"]
    with pytest.raises(ExportError, match="unknown optional rule 'free_lunch'"):
        import_game(game_29133)


def test_players_named_by_id_when_names_clash(game_29133: dict[str, Any]) -> None:
    for p in game_29133["players"]:
        p["name"] = "Same"
    res = import_game(game_29133)
    assert res.game.players == ["player 4836", "player 4631", "player 4639", "player 1668"]
    assert res.mismatches() == []


def test_a_name_too_long_for_a_save_is_the_players_id_and_a_huge_seed_is_zero(
    game_29133: dict[str, Any],
) -> None:
    game_29133["players"][1]["name"] = "N" * 65
    game_29133["settings"]["seed"] = 2**64
    res = import_game(game_29133)
    assert res.game.players[1] == "player 4631" and len(res.game.players[0]) <= 64
    assert res.game.seed == 0
    assert res.mismatches() == [] and res.divergence is None


def test_old_exports_key_the_result_by_name(game_29133: dict[str, Any]) -> None:
    names = {str(p["id"]): p["name"] for p in game_29133["players"]}
    game_29133["result"] = {names[k]: v for k, v in game_29133["result"].items()}
    assert import_game(game_29133).mismatches() == []


def test_divergence_is_printable() -> None:
    d = Divergence(7, {"id": 7, "type": "pass"}, "not your turn")
    assert str(d) == "action 7: not your turn"


def test_hotseat_export_with_chat(game_29133: dict[str, Any]) -> None:
    """Players by name only, entities by name, chat in the middle (even between an action
    and its undo), no skip flags, numbers as strings: the same game."""
    names = {p["id"]: p["name"] for p in game_29133["players"]}
    game_29133["id"] = "hs_abc_29133"
    game_29133["mode"] = "hotseat"
    game_29133["players"] = [{"name": n} for n in names.values()]
    game_29133["result"] = {names[int(k)]: v for k, v in game_29133["result"].items()}
    game_29133["settings"] = {"optional_rules": []}
    actions: list[dict[str, Any]] = []
    for a in game_29133["actions"]:
        a.pop("skip", None)
        a.pop("user", None)
        if a.get("entity_type") == "player":
            a["entity"] = names[a["entity"]]
        for sub in a.get("auto_actions", []):
            if sub.get("entity_type") == "player":
                sub["entity"] = names[sub["entity"]]
        if a["type"] == "undo":  # chat just before an undo: it survives, the move does not
            actions.append({"type": "message", "entity": "Player 1", "message": "oops"})
        actions.append(a)
    for i, a in enumerate(actions, 1):
        a["id"] = i
        if a["type"] == "bid":
            a["price"] = str(a["price"])
    game_29133["actions"] = actions
    res = import_game(game_29133)
    assert res.mismatches() == []
    assert res.kept_count == 334 + 58


def test_the_bankruptcy_reading_needs_no_date(game_29133: dict[str, Any]) -> None:
    """18xx.games settles a bankruptcy by the sale of bankrupt_sells_shares, whatever the
    export's date: 29133 (2021) with a date of 2026, or with none at all, still sells
    Player 4's NYC and NYNH and reaches the file's values."""
    for created in (1767225600, None):  # 2026-01-01; no date at all
        game = copy.deepcopy(game_29133)
        game["created_at"] = created
        for a in game["actions"]:
            a.pop("created_at", None)
        res = import_game(game)
        assert res.game.options == READINGS_18XX
        assert res.values() == {
            "Player 2": 1477,
            "Player 3": 951,
            "Player 4": 416,
            "Player 1": 887,
        }
        assert res.mismatches() == []


@pytest.mark.parametrize(
    ("created", "day"),
    [(1614239784, "2021-02-25"), ("2021-02-25 10:00", "2021-02-25"), (None, None), (True, None)],
)
def test_export_creation_day(created: Any, day: str | None) -> None:
    assert _created_day(created) == day


def test_an_action_refused_after_another_corporations_turn_says_why_it_was_refused_first(
    game_29133: dict[str, Any],
) -> None:
    """PRR's lay of action 47 comes while B&O, whose turn 18xx.games ended with a pass
    our engine does not need, still acts: the importer passes B&O's optional steps before
    trying the lay.  A lay refused even then is a divergence whose reason is the one the
    lay was refused for where it came (B&O acting), and the passes are undone."""
    before = import_game(game_29133, stop_at=45).game  # (its pass 46: held by the importer)
    assert before.acting() == "B&O"
    with pytest.raises(IllegalAction) as first:
        before.apply(LayTile("PRR", "H14", "63", 1))
    assert str(first.value).startswith("lay_tile is not possible now: the ")
    data = copy.deepcopy(game_29133)
    action(data, 47)["tile"] = "63-0"  # a gray tile: no phase of 1830 lays one
    res = import_game(data)
    d = res.divergence
    assert d is not None and d.action_id == 47 and d.reason == str(first.value)
    assert res.game.state_hash() == before.state_hash() and res.game.acting() == "B&O"
