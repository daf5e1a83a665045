"""An audit of the 18xx.games export format (the reference note ``18xx-games-format.md``),
statement by statement: each test takes a statement the importer handles and asserts its
exact outcome on a small edit of a real export (29133, or a generated corpus game).  Section
numbers (§1 ...) are the note's."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from eighteen.cli import main
from eighteen.engine import market, shares
from eighteen.engine.game import Game
from eighteen.io.games18xx import (
    Importer,
    ImportResult,
    effective_actions,
    filter_actions,
    import_game,
)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures/18xx-games"


def act(data: dict[str, Any], aid: int) -> dict[str, Any]:
    """The raw action of that id."""
    return next(a for a in data["actions"] if a["id"] == aid)


def at(data: dict[str, Any], aid: int | None = None) -> Game:
    """Our game after the kept action ``aid`` (the whole log when None), of a copy."""
    res = import_game(copy.deepcopy(data), stop_at=aid)
    assert res.divergence is None, str(res.divergence)
    return res.game


def generated(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"1830-generated/{name}.json").read_text())
    return data


def exact(res: ImportResult, want_hash: str) -> None:
    """The import matched its file exactly and ended in the state ``want_hash``."""
    assert res.divergence is None, str(res.divergence)
    assert res.mismatches() == []
    assert res.game.state_hash() == want_hash


def cli(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: dict[str, Any] | str
) -> tuple[int, str, str, str]:
    """``eighteen import-18xx FILE --check``: (exit code, stdout, stderr, path)."""
    path = tmp_path / "game.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    rc = main(["import-18xx", str(path), "--check"])
    out, err = capsys.readouterr()
    return rc, out, err, str(path)


def one_line_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: dict[str, Any], message: str
) -> None:
    """Bad input: exit code 1, nothing on stdout, exactly one line on stderr."""
    rc, out, err, path = cli(capsys, tmp_path, data)
    assert (rc, out) == (1, "")
    assert "Traceback" not in err
    assert err == f"eighteen import-18xx: error: {path}: {message}\n"


@pytest.fixture(scope="module")
def full_hash(game_29133_raw: dict[str, Any]) -> str:
    """The state of our game at the end of 29133, imported as it is."""
    return at(game_29133_raw).state_hash()


# -- §1 top level ----------------------------------------------------------------------------


def test_missing_top_level_keys_are_unknown(game_29133: dict[str, Any], full_hash: str) -> None:
    """§1: any key may be missing; a loader treats missing keys as unknown and does not
    fail.  With only title, players, actions and created_at (which dates the export's
    readings) the game is the same; nothing is compared against the missing result."""
    data = {k: game_29133[k] for k in ("title", "players", "actions", "created_at")}
    res = import_game(data)
    assert res.divergence is None and res.game.is_over
    assert res.game.state_hash() == full_hash
    assert (res.expected, res.expected_reason, res.status) == ({}, None, None)
    assert res.mismatches() == []
    bare = {k: game_29133[k] for k in ("title", "players", "actions")}
    res = import_game(bare)
    assert res.divergence is None and res.mismatches() == [] and res.game.is_over


def test_informational_top_level_keys_change_nothing(
    game_29133: dict[str, Any], full_hash: str
) -> None:
    """§1: description, user, min/max_players (strings in hotseat exports), user_settings,
    turn, round, acting, loaded, the timestamps' forms, the table flags and seed of
    settings, fixture_format and test_last_actions do not change the replay."""
    game_29133.update(
        id="hs_xyz_1",
        description="a friendly game",
        user={"id": 77, "name": "Someone Else"},
        min_players="2",
        max_players="6",
        user_settings={"x": 1},
        turn=99,
        round="Stock Round",
        acting=[4836],
        loaded=False,
        updated_at="2021-02-25",
        fixture_format=True,
        test_last_actions=3,
        mode="hotseat",
    )
    game_29133["settings"].update(seed="not a number", is_async=False, auto_routing=True)
    game_29133["settings"]["player_order"] = None
    exact(import_game(game_29133), full_hash)


def test_players_keep_their_seating_order(game_29133: dict[str, Any]) -> None:
    """§1 players: the seating order as given is the starting priority and the auction
    order, never shuffled.  Reversed, the first bid (by 4836, Player 1) is out of turn."""
    assert at(game_29133, 1).players == ["Player 1", "Player 2", "Player 3", "Player 4"]
    game_29133["players"].reverse()
    res = import_game(game_29133)
    assert res.game.players == ["Player 4", "Player 3", "Player 2", "Player 1"]
    d = res.divergence
    assert d is not None and d.action_id == 1
    assert d.reason == "not Player 1's turn: Player 4 is to act"


def test_a_player_named_like_a_corporation_is_named_by_id(game_29133: dict[str, Any]) -> None:
    """§8 real user names: a name that is also a corporation sym cannot name a player of
    ours; the player becomes "player <id>" and the result (keyed by id) still matches."""
    game_29133["players"][0]["name"] = "PRR"
    res = import_game(game_29133)
    assert res.game.players == ["player 4836", "Player 2", "Player 3", "Player 4"]
    assert res.players["player 4836"] == "4836"
    assert res.mismatches() == []


def test_result_is_a_dictionary_of_every_player(game_29133: dict[str, Any]) -> None:
    """§6: result is compared as a dictionary (its order has no meaning); a player missing
    from it is reported."""
    game_29133["result"] = dict(reversed(list(game_29133["result"].items())))
    assert import_game(copy.deepcopy(game_29133)).mismatches() == []
    del game_29133["result"]["1668"]
    assert import_game(game_29133).mismatches() == ["the file's result lacks Player 4"]


def test_status_finished_needs_a_finished_game(game_29133: dict[str, Any]) -> None:
    """§1 status: result is a final standing only when "finished"; a "finished" file whose
    log stops mid-game does not match (nor does one with no result to compare)."""
    game_29133["actions"] = game_29133["actions"][:200]
    del game_29133["result"], game_29133["game_end_reason"]
    assert import_game(game_29133).mismatches() == [
        "the file records no result of its finished game to compare",
        "status: file finished, ours on",
    ]


def test_an_unknown_end_reason_is_compared_as_it_is(game_29133: dict[str, Any]) -> None:
    """§1/§6 game_end_reason: 1830 knows "bankrupt" and "bank"; another reason is a
    difference, named as the file writes it."""
    game_29133["game_end_reason"] = "stock_market"
    assert import_game(game_29133).mismatches() == ["end: ours bankruptcy, file stock_market"]


def test_a_result_value_that_is_no_number_is_one_line(
    game_29133: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """§1/§7: every value in result is an integer; another is bad input (exit 1, one
    line naming the key)."""
    game_29133["result"]["1668"] = "lots"
    rc, out, err, _ = cli(capsys, tmp_path, game_29133)
    assert (rc, out) == (1, "") and err.count("\n") == 1 and "Traceback" not in err
    assert err.endswith(": result: player 1668's value is not a number: 'lots'\n")


def test_hotseat_numbers_as_strings(game_29133: dict[str, Any], full_hash: str) -> None:
    """§8 hotseat exports: some numbers as strings.  Action ids, prices, rotations,
    percents, slots, result values and player counts as digit strings: the same game."""
    for a in game_29133["actions"]:
        for k in ("id", "price", "rotation", "percent", "slot"):
            if k in a:
                a[k] = str(a[k])
    game_29133["result"] = {k: str(v) for k, v in game_29133["result"].items()}
    game_29133["min_players"] = game_29133["max_players"] = "4"
    res = import_game(game_29133)
    exact(res, full_hash)
    assert (res.kept_count, res.applied) == (334, 354)


def test_pretty_printed_json(
    game_29133: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """§1/§8: exports may be pretty-printed rather than one line."""
    rc, out, _, _ = cli(capsys, tmp_path, json.dumps(game_29133, indent=2))
    assert rc == 0 and "check: OK" in out


# -- §2 common action fields -----------------------------------------------------------------


def test_user_never_changes_the_state(game_29133: dict[str, Any], full_hash: str) -> None:
    """§2 user: who sent an action (another player, an admin) is only logged: the game
    state never depends on it.  Every action sent by a non-player, or by nobody."""
    for a in game_29133["actions"]:
        a["user"] = 999999
    exact(import_game(copy.deepcopy(game_29133)), full_hash)
    for a in game_29133["actions"]:
        del a["user"]
    exact(import_game(game_29133), full_hash)


def test_entity_type_may_be_missing_and_ids_may_be_strings(
    game_29133: dict[str, Any], full_hash: str
) -> None:
    """§2 entity / entity_type: entity_type says which kind of object entity names; when
    it is missing the entity is still found.  A player id written as a string is that
    player."""
    for a in game_29133["actions"]:
        for x in [a, *a.get("auto_actions", [])]:
            x.pop("entity_type", None)
            if isinstance(x["entity"], int):
                x["entity"] = str(x["entity"])
    exact(import_game(game_29133), full_hash)


@pytest.mark.parametrize("flag", [True, False])
def test_skip_flags_are_ignored(game_29133: dict[str, Any], full_hash: str, flag: bool) -> None:
    """§3.3 skip: the engine ignores the flag and recomputes; so does the importer, even
    when every flag is wrong."""
    for a in game_29133["actions"]:
        a["skip"] = flag
    res = import_game(game_29133)
    exact(res, full_hash)
    assert res.kept_count == 334


def test_derived_fields_written_as_null_are_absent(
    game_29133: dict[str, Any], full_hash: str
) -> None:
    """§2: fields the engine derives are normally left out; written as null they mean the
    same (a depot train with "exchange": null, a train between corporations with
    "variant": null, a token with "tokener": null)."""
    act(game_29133, 45)["exchange"] = None
    act(game_29133, 240)["variant"] = None
    act(game_29133, 102)["tokener"] = None
    exact(import_game(game_29133), full_hash)


def test_auto_actions_follow_their_parent_in_order(game_29133: dict[str, Any]) -> None:
    """§2 auto_actions: processed right after their parent, in order, as part of the
    parent's id.  Action 151's automatic B&M buy then pass by Player 3, swapped: the pass
    comes first, and the buy (151.2) is then out of turn."""
    act(game_29133, 151)["auto_actions"].reverse()
    d = import_game(game_29133).divergence
    assert d is not None and d.action_id == "151.2"
    assert d.reason == "not Player 3's turn: Player 4 is to act"


@pytest.mark.parametrize(
    ("autos", "message"),
    [
        (
            [{"type": "buy_shares", "entity": 1668, "shares": ["NYNH_42"], "percent": 10}],
            "action 39.1 (buy_shares): unknown certificate 'NYNH_42'",
        ),
        ({"type": "pass"}, "action 39: auto_actions is not a list"),
        ([{"entity": 1668}], "action 39: auto action 1 has no type"),
    ],
)
def test_bad_auto_actions_are_one_line(
    game_29133: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    autos: Any,
    message: str,
) -> None:
    """§2 auto_actions: a list of actions without ids, named after their parent
    (``<id>.<n>``) in errors."""
    act(game_29133, 39)["auto_actions"] = autos
    one_line_error(capsys, tmp_path, game_29133, message)


def test_auto_actions_of_an_undone_parent_are_never_read(game_29133: dict[str, Any]) -> None:
    """§9: if the parent is undone, its auto_actions go with it.  Action 168 (undone)
    carries the program_disable; an unreadable auto action there changes nothing."""
    act(game_29133, 168)["auto_actions"].append({"type": "teleport", "entity": "nobody"})
    res = import_game(game_29133)
    assert res.divergence is None and res.mismatches() == []
    assert res.applied == 354


# -- §3 replay semantics ----------------------------------------------------------------------


def test_an_error_stops_the_replay_after_the_last_good_action(
    game_29133: dict[str, Any],
) -> None:
    """§3.1: an error stops the replay; the game stays in the state after the last good
    action.  §4 lay_tile: rotation is 0 to 5 (7 is not 1)."""
    act(game_29133, 44)["rotation"] = 7
    res = import_game(game_29133)
    d = res.divergence
    assert d is not None and d.action_id == 44
    assert d.reason == "LayTile.rotation must be from 0 to 5, not 7"
    assert res.game.state_hash() == at(game_29133, 43).state_hash()
    assert res.mismatches()[0] == "action 44: LayTile.rotation must be from 0 to 5, not 7"


def test_undo_with_action_id_and_chat_in_the_real_game(
    game_29133: dict[str, Any], full_hash: str
) -> None:
    """§3.2: undo with action_id N removes every kept non-message action after N at once;
    chat is kept and never undone.  Actions 431-433 (three plain undos of 430, 429, 428)
    become one undo back to 427 and two chat messages: the same game, the chat kept."""
    act(game_29133, 431)["action_id"] = 427
    for aid in (432, 433):
        a = act(game_29133, aid)
        a.clear()
        a.update(id=aid, type="message", entity=4836, entity_type="player", message="oops")
    kept = [a["id"] for a in filter_actions(game_29133["actions"])]
    assert [i for i in kept if 425 <= i <= 437] == [425, 426, 427, 432, 433, 434, 437]
    res = import_game(game_29133)
    exact(res, full_hash)
    assert res.kept_count == 336


def test_redo_after_undo_with_action_id_in_the_real_game(
    game_29133: dict[str, Any], full_hash: str
) -> None:
    """§3.2: actions 186-192 (three tries of buy_company, the last one redone) with the
    undos written as undos back to an id: 187 back to 185, 189 back to 187 (an undo's id:
    it reaches the position after it), 191 back to 189; redo 192 restores 190 only."""
    act(game_29133, 187)["action_id"] = 185
    act(game_29133, 189)["action_id"] = 187
    act(game_29133, 191)["action_id"] = 189
    kept = [a["id"] for a in filter_actions(game_29133["actions"])]
    assert [i for i in kept if 184 <= i <= 192] == [184, 185, 190]
    exact(import_game(game_29133), full_hash)


def test_chat_from_anyone_anywhere_changes_nothing(
    game_29133: dict[str, Any], full_hash: str
) -> None:
    """§4 message: chat changes no state and is never undone, even from an entity that is
    no player (a spectator), between a move and its plain undo (which then removes the
    move, not the chat), and after the game's end."""
    i = game_29133["actions"].index(act(game_29133, 430))
    chat = {"type": "message", "entity": 31337, "entity_type": "player", "message": "hm"}
    game_29133["actions"].insert(i + 1, {**chat, "id": 430})  # (ids renumbered below)
    game_29133["actions"].append({**chat, "id": 0})
    for n, a in enumerate(game_29133["actions"], 1):
        a["id"] = n  # (29133 has no undo with action_id: renumbering keeps its meaning)
    res = import_game(game_29133)
    exact(res, full_hash)
    assert res.kept_count == 336 and res.raw_count == 452


def test_redo_with_nothing_to_restore_is_one_line(
    game_29133: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """§3.2 redo: well-formed exports never contain a redo with nothing to restore; one
    that does is bad input.  Action 4 (a bid after the redo 3) made a second redo."""
    act(game_29133, 4).update(type="redo")
    one_line_error(capsys, tmp_path, game_29133, "action 4: redo with nothing to restore")


def test_ids_that_do_not_increase_are_one_line(
    game_29133: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """§2: ids start at 1 and increase strictly.  A repeated id (action 11 numbered 10) or
    one going back made every undo to it ambiguous; it is bad input, refused at once."""
    act(game_29133, 11)["id"] = 10
    one_line_error(
        capsys,
        tmp_path,
        game_29133,
        "action #11 (pass): id 10 after id 10 (ids increase strictly through the export)",
    )


def test_an_undo_to_an_id_the_export_lacks_is_one_line(
    game_29133: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """§3.2: an undo reaches back to the action of its action_id; 18xx.games fails on an
    id its log lacks, and so does the import (it removed nothing, silently)."""
    act(game_29133, 2)["action_id"] = 999
    one_line_error(
        capsys, tmp_path, game_29133, "action 2: undo to action 999, which the export does not have"
    )


@pytest.mark.parametrize(
    ("entries", "kept"),
    [
        # two plain undos, redone last first (a stack of groups)
        (["a", "b", "undo", "undo", "redo"], [1]),
        (["a", "b", "undo", "undo", "redo", "redo"], [1, 2]),
        # undo back to a message's id: the position after it
        (["a", "message", "b", "c", ("undo", 2)], [1, 2]),
        # undo back to the id of an action already undone
        (["a", "b", "c", "undo", ("undo", 3), "d"], [1, 2, 6]),
        # action_id written as a string (hotseat numbers)
        (["a", "b", "c", ("undo", "1"), "redo"], [1, 2, 3]),
        # undo back to an id at or after the undo itself removes nothing
        (["a", "b", ("undo", 4), "c"], [1, 2, 4]),
    ],
)
def test_undo_redo_filter_exact(entries: list[Any], kept: list[int]) -> None:
    """§3.2, on invented logs: undo pushes its removals as one group, redo pops the last
    group; action_id N reaches back to the position just after action N."""
    raw: list[dict[str, Any]] = []
    for i, e in enumerate(entries, 1):
        if isinstance(e, tuple):
            raw.append({"id": i, "type": "undo", "action_id": e[1]})
        else:
            raw.append({"id": i, "type": e})
    assert [a["id"] for a in filter_actions(raw)] == kept


def test_routes_are_rebuilt_from_connections_alone(game_29133: dict[str, Any]) -> None:
    """§3.4: deleting revenue, revenue_str, hexes and nodes from every route still replays
    to the same result: each route is rebuilt from its connections."""
    for a in game_29133["actions"]:
        for r in a.get("routes", []):
            for k in ("revenue", "revenue_str", "hexes", "nodes"):
                r.pop(k, None)
    res = import_game(game_29133)
    assert res.divergence is None and res.mismatches() == []
    assert res.routes_checked == 37


def test_a_revenue_claim_is_checked_not_trusted(game_29133: dict[str, Any]) -> None:
    """§3.4: adding 1000 to one route's revenue is accepted by the reference engine;
    an independent engine computes it and compares."""
    act(game_29133, 115)["routes"][0]["revenue"] += 1000
    d = import_game(game_29133).divergence
    assert d is not None and d.action_id == 115
    assert d.reason == "train 2-0 (H16-I15) earns $60 in our engine, the log says $1060"


# -- §4 action types --------------------------------------------------------------------------


def test_bid_on_the_cheapest_private_at_its_minimum_buys_it(game_29133: dict[str, Any]) -> None:
    """§4 bid: action 9, Player 3 (4639) bids $20 on SV, the cheapest unsold private, at
    its face value: bought at once."""
    assert at(game_29133, 8).state.privates["SV"].owner is None
    g = at(game_29133, 9)
    assert g.state.privates["SV"].owner == "Player 3"
    assert g.state.players[2].cash == 600 - 20


def test_bo_then_par_of_bo_and_ca_with_prr_1(game_29133: dict[str, Any]) -> None:
    """§4 bid/par: buying BO (action 22, Player 2, $220) makes its buyer president of B&O
    and owes a par (action 23, "100,0,6"), which costs nothing (the 20% is held already).
    Buying CA gave its buyer (Player 1) the PRR_1 certificate for free."""
    g = at(game_29133, 22)
    assert g.state.privates["BO"].owner == "Player 2"
    assert g.state.round.pending_par == ["Player 2", "B&O"]
    cash = [p.cash for p in g.state.players]
    g = at(game_29133, 23)
    assert g.state.corporations["B&O"].par == 100 and market.price(g, "B&O") == 100
    assert g.state.certs["B&O_0"] == "Player 2"
    assert g.state.corporations["B&O"].president == "Player 2"
    assert [p.cash for p in g.state.players] == cash
    assert g.state.privates["CA"].owner == "Player 1" and g.state.certs["PRR_1"] == "Player 1"


def test_par_buys_the_presidents_certificate(game_29133: dict[str, Any]) -> None:
    """§4 par: share_price "90,1,6" is the cell; the player buys <corp>_0 for twice the
    par price."""
    before = at(game_29133, 23).state.players[2].cash
    g = at(game_29133, 24)
    assert g.state.corporations["PRR"].par == 90 and market.price(g, "PRR") == 90
    assert g.state.certs["PRR_0"] == "Player 3" and g.state.corporations["PRR"].president
    assert g.state.players[2].cash == before - 180


def test_par_at_another_par_cell(game_29133: dict[str, Any]) -> None:
    """§4 par: the 1830 par cells are 100, 90, 82, 76, 71 and 67 (a price off them
    diverges: test_prices_outside_the_rules_diverge); PRR at "100,0,6" instead costs
    $200."""
    act(game_29133, 24)["share_price"] = "100,0,6"
    res = import_game(game_29133, stop_at=24)
    assert res.divergence is None and res.game.state.corporations["PRR"].par == 100
    assert res.game.state.players[2].cash == 465 - 200


def test_the_mh_exchange_is_a_buy_shares_by_the_company() -> None:
    """§4 buy_shares: entity MH (company) with one NYC 10% certificate trades the private
    for it and closes MH.  g2p_s2001 action 21, in a stock round: Player 2 owns MH."""
    data = generated("g2p_s2001")
    assert {k: v for k, v in act(data, 21).items() if k != "created_at"} == {
        "type": "buy_shares",
        "entity": "MH",
        "entity_type": "company",
        "id": 21,
        "shares": ["NYC_1"],
        "percent": 10,
    }
    g = at(data, 20)
    assert g.state.privates["MH"].owner == "Player 2" and not g.state.privates["MH"].closed
    assert shares.percents(g, "NYC") == {"ipo": 100}
    g = at(data, 21)
    assert g.state.privates["MH"].closed
    assert shares.percents(g, "NYC") == {"ipo": 90, "Player 2": 10}


def test_a_partial_sale_of_the_presidents_certificate(game_29133: dict[str, Any]) -> None:
    """§4 sell_shares: percent is what is actually sold; action 257 sells
    ["PRR_3","PRR_5","PRR_0"] (40%) at percent 30, and the presidency passes to Player
    3.  The certificates' order has no meaning."""
    g = at(game_29133, 256)
    assert shares.percents(g, "PRR") == {"Player 2": 40, "Player 3": 30, "pool": 10, "ipo": 20}
    assert g.state.corporations["PRR"].president == "Player 2"
    want = at(game_29133, 257)
    assert shares.percents(want, "PRR") == {
        "Player 3": 30,
        "pool": 40,
        "Player 2": 10,
        "ipo": 20,
    }
    assert want.state.corporations["PRR"].president == "Player 3"
    assert want.state.certs["PRR_0"] == "Player 3"
    act(game_29133, 257)["shares"] = ["PRR_0", "PRR_5", "PRR_3"]
    assert at(game_29133, 257).state_hash() == want.state_hash()


def test_lay_tile_rotation_and_private_lays(game_29133: dict[str, Any]) -> None:
    """§4 lay_tile / §5 rotation: action 44 lays 7 on I17 with rotation 1, action 47 9 on
    H14 with rotation 1; CS (a company entity) lays its free 4 on B20 with rotation 2
    (action 220), for its owner NYNH, and its ability is used."""
    assert at(game_29133, 44).state.map.tiles["I17"] == ("7", 1)
    assert at(game_29133, 47).state.map.tiles["H14"] == ("9", 1)
    g = at(game_29133, 220)
    assert g.state.map.tiles["B20"] == ("4", 2)
    assert g.state.privates["CS"].owner == "NYNH" and g.state.privates["CS"].used == [1]


def test_dh_lays_and_tokens_for_its_owner() -> None:
    """§4 lay_tile/place_token: DH lays 57 on F16 and places a token of its owning
    corporation there; tokener (newer exports) names it, and without it the owner is
    taken.  g2p_s2001 actions 223-224: B&O owns DH."""
    data = generated("g2p_s2001")
    assert act(data, 224)["tokener"] == "B&O"
    g = at(data, 224)
    assert g.state.map.tiles["F16"] == ("57", 0)
    assert g.state.map.tokens["F16"] == [["B&O"]]
    assert g.state.privates["DH"].owner == "B&O" and g.state.privates["DH"].used == [1]
    del act(data, 224)["tokener"]
    assert at(data, 224).state_hash() == g.state_hash()


def test_tile_copies_are_followed_by_id(game_29133: dict[str, Any]) -> None:
    """§5 laid tile: a copy upgraded away can be laid again under the same id: 57-1 is
    laid on H16 (101), H16 is upgraded to 14-0 (113), 57-1 is laid on E19 (177).  Tokens
    move with an upgrade: PRR's token of 57-1-0 is in slot 0 of 14-0-0, B&O's (114) in
    slot 1.  62-0-1 is the second city of 62-0 (action 232, NYC)."""
    g = at(game_29133, 114)
    assert g.state.map.tiles["H16"] == ("14", 1)
    assert g.state.map.tokens["H16"] == [["PRR", "B&O"]]
    imp = Importer(copy.deepcopy(game_29133))
    res = imp.run(stop_at=177)
    assert res.divergence is None
    assert imp.copies["57-1"] == "E19" and imp.copies["14-0"] == "H16"
    assert res.game.state.map.tiles["E19"] == ("57", 0)
    assert at(game_29133, 232).state.map.tokens["G19"] == [[], ["NYNH", "NYC"]]


@pytest.mark.parametrize(
    ("tile", "reason"),
    [("7-0", "7-0 lies on I17"), ("7-9", "tile 7 has 4 copies: there is no 7-9")],
)
def test_a_tile_copy_not_in_the_supply_cannot_be_laid(
    game_29133: dict[str, Any], tile: str, reason: str
) -> None:
    """§5 laid tile: the copy index counts through that tile's supply, and only a copy
    upgraded away goes back to it.  Action 182 (C&O, tile 7 on G5) naming 7-0, which lies
    on I17 since action 44, or 7-9, beyond 1830's four copies of tile 7."""
    act(game_29133, 182)["tile"] = tile
    d = import_game(game_29133).divergence
    assert d is not None and (d.action_id, d.reason) == (182, reason)


def test_preprinted_tile_ids(game_29133: dict[str, Any]) -> None:
    """§5 preprinted tile: E19 city-0, H4 city-1, B20 town-0, D4 town-1, D14 D14-0, I19
    I19-0, F24 F24-1, E5 E5-0, D10 D10-1, F20 F20-2; a city id adds the part index
    (D14-0-0, D10-1-1: the second city of D10)."""
    imp = Importer(game_29133)
    table = imp.mapping.preprinted
    for hex_id, tid in {
        "E19": "city-0",
        "H4": "city-1",
        "B20": "town-0",
        "D4": "town-1",
        "F24": "F24-1",
        "E5": "E5-0",
        "D10": "D10-1",
        "F20": "F20-2",
    }.items():
        assert table[hex_id] == tid
    assert "D14" not in table and "I19" not in table  # (<hex>-0: the hex itself)
    token = {"type": "place_token"}
    cities = {c: imp.city(1, {**token, "city": c}) for c in ("city-0-0", "city-1-0")}
    cities |= {c: imp.city(1, {**token, "city": c}) for c in ("D14-0-0", "E5-0-0", "D10-1-1")}
    assert cities == {
        "city-0-0": ("E19", 0),
        "city-1-0": ("H4", 0),
        "D14-0-0": ("D14", 0),
        "E5-0-0": ("E5", 0),
        "D10-1-1": ("D10", 1),
    }


def test_tokener_equal_to_the_entity_changes_nothing(
    game_29133: dict[str, Any], full_hash: str
) -> None:
    """§4 place_token: newer exports add tokener, equal to the entity unless a company
    acts."""
    for a in game_29133["actions"]:
        if a["type"] == "place_token":
            a["tokener"] = a["entity"]
    exact(import_game(game_29133), full_hash)


def test_an_unknown_tokener_is_a_clear_error(
    game_29133: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """§4 place_token / §5: tokener is a corporation sym; another is bad input, named as
    an unknown corporation (it read "cannot be processed: KeyError: 'XYZ'")."""
    act(game_29133, 102)["tokener"] = "XYZ"
    one_line_error(
        capsys, tmp_path, game_29133, "action 102 (place_token): unknown corporation 'XYZ'"
    )


def test_run_routes_extra_revenue_and_subsidy_are_zero(
    game_29133: dict[str, Any], full_hash: str
) -> None:
    """§4 run_routes / §8: newer exports add extra_revenue and subsidy (always 0 in 1830)
    and nodes."""
    for a in game_29133["actions"]:
        if a["type"] == "run_routes":
            a.update(extra_revenue=0, subsidy=0)
    act(game_29133, 115)["routes"][0]["nodes"] = ["H16-0", "I15-0"]
    exact(import_game(game_29133), full_hash)


@pytest.mark.parametrize(
    ("kind", "error"),
    [
        ("half", None),
        ("bogus", "action 97 (dividend): unknown kind 'bogus'"),
    ],
)
def test_dividend_kinds(
    game_29133: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    kind: str,
    error: str | None,
) -> None:
    """§4 dividend: kind is "payout" or "withhold"; 1830 has no half payout (a
    divergence), and an unknown kind is bad input."""
    act(game_29133, 97)["kind"] = kind
    if error is not None:
        one_line_error(capsys, tmp_path, game_29133, error)
        return
    d = import_game(game_29133).divergence
    assert d is not None and d.action_id == 97
    assert d.reason == "dividend kind must be one of ['payout', 'withhold']"


def test_a_d_train_bought_with_an_exchange(game_29133: dict[str, Any]) -> None:
    """§4 buy_train: action 439, ERIE buys D-0 for $800 trading in its 4-1, which leaves
    the game (not to the open market)."""
    g = at(game_29133, 438)
    assert (g.state.corporations["ERIE"].trains, g.state.corporations["ERIE"].cash) == (
        ["4-1"],
        804,
    )
    g = at(game_29133, 439)
    assert (g.state.corporations["ERIE"].trains, g.state.corporations["ERIE"].cash) == (
        ["D-0"],
        4,
    )
    assert "4-1" not in g.state.train_pool


@pytest.mark.parametrize(
    ("aid", "change", "reason"),
    [
        (45, {"price": 79}, "train 2-0 costs $80 from the bank"),
        (240, {"price": 0}, "a train from another corporation costs at least $1"),
        (58, {"price": 19}, "CS sells to a corporation for $20 to $80"),
        (58, {"price": 81}, "CS sells to a corporation for $20 to $80"),
        (
            58,
            {"company": "BO", "price": 220},
            "NYNH cannot buy BO now (phase, owner, no_sale_to_corporation, cash)",
        ),
        (24, {"share_price": "95,1,6"}, "$95 is not a par price ([100, 90, 82, 76, 71, 67])"),
    ],
)
def test_prices_outside_the_rules_diverge(
    game_29133: dict[str, Any], aid: int, change: dict[str, Any], reason: str
) -> None:
    """§4 buy_train: from the depot at list price ($80 for a 2); between corporations at
    least $1.  §4 buy_company: from half the face value (rounded up) to twice it (CS,
    $40: $20-$80); BO can never be bought by a corporation."""
    act(game_29133, aid).update(change)
    d = import_game(game_29133).divergence
    assert d is not None and d.action_id == aid and d.reason == reason


def test_buy_company_at_the_lowest_price(game_29133: dict[str, Any]) -> None:
    """§4 buy_company: half the face value (CS: $20) is allowed; the private is NYNH's."""
    act(game_29133, 58)["price"] = 20
    res = import_game(game_29133, stop_at=58)
    assert res.divergence is None and res.game.state.privates["CS"].owner == "NYNH"


def test_discard_train_goes_to_the_open_market(game_29133: dict[str, Any]) -> None:
    """§4 discard_train: action 230, B&M discards 3-3 to the open market."""
    g = at(game_29133, 229)
    assert (g.state.corporations["B&M"].trains, g.state.train_pool) == (
        ["3-3", "3-4", "5-0"],
        [],
    )
    g = at(game_29133, 230)
    assert (g.state.corporations["B&M"].trains, g.state.train_pool) == (["3-4", "5-0"], ["3-3"])


def test_bankruptcy_ends_the_game_at_once(game_29133: dict[str, Any]) -> None:
    """§4 bankrupt / §6: the game ends at once; a later move is refused, a later pass or
    chat changes nothing."""
    res = import_game(copy.deepcopy(game_29133), stop_at=449)
    assert not res.game.is_over
    game_29133["actions"].append({"id": 451, "type": "pass", "entity": 4836})
    game_29133["actions"].append({"id": 452, "type": "message", "entity": 1, "message": "gg"})
    assert import_game(copy.deepcopy(game_29133)).mismatches() == []
    game_29133["actions"].append(
        {"id": 453, "type": "buy_train", "entity": "PRR", "train": "D-3", "price": 1100}
    )
    res = import_game(game_29133)
    d = res.divergence
    assert d is not None and d.action_id == 453
    assert d.reason == "the game is already over in our engine"
    assert res.game.state.end_reason == "bankruptcy"


@pytest.mark.parametrize(
    ("aid", "change", "message"),
    [
        (
            450,
            {"entity": 1668, "entity_type": "player"},
            "action 450 (bankrupt): the entity must be a corporation, not Player 4",
        ),
        (
            44,
            {"entity": 4631, "entity_type": "player"},
            "action 44 (lay_tile): a player cannot lay tiles",
        ),
        (45, {"variant": "3"}, "action 45 (buy_train): unknown variant '3' of 2-0"),
        (24, {"share_price": "x,1,6"}, "action 24 (par): bad share_price 'x,1,6'"),
        (
            140,
            {"shares": ["NYNH_1", "PRR_2"]},
            "action 140 (sell_shares): certificates of several corporations",
        ),
        (
            28,
            {"entity": "PRR", "entity_type": "corporation"},
            "action 28 (buy_shares): a corporation cannot buy shares",
        ),
        (28, {"shares": ["PRR_9"]}, "action 28 (buy_shares): unknown certificate 'PRR_9'"),
        (44, {"tile": "60-0"}, "action 44 (lay_tile): unknown tile '60-0'"),
        (5, {"company": "B&O"}, "action 5 (bid): unknown company 'B&O'"),
        (58, {"company": "B&O"}, "action 58 (buy_company): unknown company 'B&O'"),
    ],
)
def test_fields_of_the_wrong_kind_are_one_line(
    game_29133: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    aid: int,
    change: dict[str, Any],
    message: str,
) -> None:
    """§4/§5: bankrupt's entity is the corporation; a tile is laid by a corporation or a
    company; variant is the train's name; share_price is "price,row,column"; a sale is of
    one corporation; shares are bought by players (or MH); certificates are _0.._8; 1830
    has no tile 60; BO (the private) is not B&O (the corporation)."""
    act(game_29133, aid).update(change)
    one_line_error(capsys, tmp_path, game_29133, message)


def test_program_actions_change_no_state(game_29133: dict[str, Any], full_hash: str) -> None:
    """§4 program_*: automation settings change no state, come from any player at any
    time (newer fields included), and program_disable may stand at top level too."""
    i = game_29133["actions"].index(act(game_29133, 300))
    game_29133["actions"][i:i] = [
        {
            "type": "program_buy_shares",
            "entity": 4836,
            "entity_type": "player",
            "corporation": "CPR",
            "until_condition": 3,
            "from_market": True,
            "auto_pass_after": False,
        },
        {
            "type": "program_share_pass",
            "entity": 1668,
            "entity_type": "player",
            "unconditional": True,
            "indefinite": True,
        },
        {"type": "program_disable", "entity": 4639, "entity_type": "player", "reason": "x"},
    ]
    game_29133["actions"].append(
        {"type": "program_share_pass", "entity": 4631, "entity_type": "player"}
    )
    for n, a in enumerate(game_29133["actions"], 1):
        a["id"] = n
    res = import_game(game_29133)
    exact(res, full_hash)
    assert res.kept_count == 334 + 4


@pytest.mark.parametrize("where", ["mid-game", "after the end"])
def test_any_program_action_is_skipped(
    game_29133: dict[str, Any], full_hash: str, where: str
) -> None:
    """§4/§8 program_*: the importer skips every ``program_*`` type (not only 1830's
    three), accepted from any player at any time, after the game's end too (another
    ``program_*`` than the three listed was "the game is already over" there)."""
    prog = {"type": "program_close_pass", "entity": 4836, "entity_type": "player"}
    at_ = len(game_29133["actions"]) if where == "after the end" else 100
    game_29133["actions"].insert(at_, prog)
    for n, a in enumerate(game_29133["actions"], 1):
        a["id"] = n
    exact(import_game(game_29133), full_hash)


# -- §10 the fixture ---------------------------------------------------------------------------


def test_the_fixture_facts(game_29133: dict[str, Any]) -> None:
    """§10: 450 raw actions, ids 1-450; 116 dropped (58 undos, 2 redos, 56 moves), exactly
    the skip flags; the type counts raw and effective; 13 parents with 21 nested actions,
    20 of them under 12 kept parents; entity types; train purchases, dividends, sales and
    rotations of the effective actions."""
    raw = game_29133["actions"]
    assert [a["id"] for a in raw] == list(range(1, 451))
    kept = filter_actions(raw)
    assert len(kept) == 334
    assert {a["id"] for a in raw} - {a["id"] for a in kept} == {
        a["id"] for a in raw if a.get("skip")
    }
    table = {
        "bankrupt": (1, 1),
        "bid": (14, 14),
        "buy_company": (7, 5),
        "buy_shares": (53, 42),
        "buy_train": (32, 26),
        "discard_train": (1, 1),
        "dividend": (26, 24),
        "lay_tile": (39, 32),
        "par": (8, 7),
        "pass": (145, 128),
        "place_token": (9, 7),
        "program_buy_shares": (3, 3),
        "redo": (2, 0),
        "run_routes": (25, 24),
        "sell_shares": (27, 20),
        "undo": (58, 0),
    }
    raw_types, kept_types = Counter(a["type"] for a in raw), Counter(a["type"] for a in kept)
    assert {t: (raw_types[t], kept_types[t]) for t in raw_types} == table
    parents = [a for a in raw if a.get("auto_actions")]
    assert (len(parents), sum(len(a["auto_actions"]) for a in parents)) == (13, 21)
    kept_parents = [a for a in kept if a.get("auto_actions")]
    nested = [x for a in kept_parents for x in a["auto_actions"]]
    assert (len(kept_parents), len(nested)) == (12, 20)
    assert Counter(x["type"] for x in nested) == {"buy_shares": 12, "pass": 8}
    assert all("id" not in x for a in parents for x in a["auto_actions"])
    autos = [aid for aid, _ in effective_actions(raw) if isinstance(aid, str)]
    assert len(autos) == 20
    assert Counter(a["entity_type"] for a in kept) == {
        "player": 175,
        "corporation": 158,
        "company": 1,
    }
    passes = Counter(a["entity_type"] for a in kept if a["type"] == "pass")
    assert passes == {"player": 89, "corporation": 39}
    buys = [a for a in kept if a["type"] == "buy_train"]
    assert sum("variant" in a for a in buys) == 21
    assert sorted(a["price"] for a in buys if "variant" not in a) == [1, 5, 55, 181, 259]
    assert Counter(a["kind"] for a in kept if a["type"] == "dividend") == {
        "payout": 23,
        "withhold": 1,
    }
    assert Counter(a["percent"] for a in kept if a["type"] == "sell_shares") == {
        10: 16,
        20: 1,
        30: 2,
        40: 1,
    }
    assert Counter(a["rotation"] for a in kept if a["type"] == "lay_tile") == {
        0: 10,
        1: 10,
        5: 5,
        3: 4,
        2: 2,
        4: 1,
    }
    assert all("user" in a for a in raw)
    assert not any("action_id" in a for a in raw)
