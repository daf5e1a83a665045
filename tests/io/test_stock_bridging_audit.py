"""An audit of the importer's bridging in the private auction, the stock rounds and at the
boundaries between rounds: whose pass counts, who acts next, who gets the priority deal,
and how programmed actions (``auto_actions``), undo and out-of-turn actions are replayed.

Each test pins one pattern with exact values, on a generated corpus game cut short
(``stop_at``) or edited in memory: a pass turned into a programmed pass, a purchase made by
a programme, an exchange moved into another player's turn, a round undone and played
again.  An edit that keeps the log legal must reach the same state (``state_hash``); one
that makes it illegal must diverge, naming the player our engine waits for.
"""

from __future__ import annotations

import copy
import functools
from typing import Any

from corpus_18xx import action, at, bare, export, insert_after, player

from eighteen.engine import market
from eighteen.io.games18xx import ImportResult


def as_autos(data: dict[str, Any], parent: int, children: list[int]) -> dict[str, Any]:
    """A copy where the logged actions ``children`` are the ``auto_actions`` of ``parent``
    (as 18xx.games logs programmed actions), no longer actions of their own."""
    out = copy.deepcopy(data)
    moved = [bare(action(out, c)) for c in children]
    out["actions"] = [a for a in out["actions"] if a["id"] not in children]
    action(out, parent)["auto_actions"] = moved
    return out


@functools.cache
def state_at(name: str, aid: int) -> str:
    """The state hash of an unedited corpus game after its kept action ``aid``."""
    res = at(export(name), aid)
    assert res.divergence is None
    return res.game.state_hash()


def where(res: ImportResult) -> tuple[str, str | None, str, int | None]:
    """(round kind, who acts, who holds the priority deal, the stock round's consecutive
    passes) after an import."""
    g = res.game
    r = g.state.round
    return (r.kind, g.acting(), g.state.players[g.state.priority].name, getattr(r, "passes", None))


def cash(res: ImportResult) -> dict[str, int]:
    return {p.name: p.cash for p in res.game.state.players}


# -- whose pass counts towards the end of a stock round, and who gets the priority deal ----


def test_a_done_after_a_purchase_is_no_pass_and_the_last_buyer_sets_the_priority() -> None:
    """g3p_s3001, stock round 3: Player 2 buys NYC_6 (59) and ends his turn (60, "Done");
    Player 3 (61) and Player 1 (62) pass.  Player 2's Done does not count: the round waits
    for his pass (63), which ends it; the priority goes to the player after the last one who
    bought (Player 3), not after the last to pass."""
    data = export("g3p_s3001")
    assert [where(at(data, x)) for x in (60, 61, 62)] == [
        ("stock", "Player 3", "Player 1", 0),
        ("stock", "Player 1", "Player 1", 1),
        ("stock", "Player 2", "Player 1", 2),
    ]
    end = at(data, 63)
    assert where(end) == ("operating", "ERIE", "Player 3", None)
    assert end.game.state.stock_rounds == 3


def test_a_pass_after_only_an_mh_exchange_counts_and_the_exchange_sets_no_priority() -> None:
    """g2p_s2012, stock round 2: Player 2 starts CPR (40) and ends his turn (41); Player 1
    exchanges MH for NYC_1 (42) and passes (43); Player 2 passes (44).  Player 1's turn
    held only the exchange, so his pass counts (two in a row end the round), and the
    priority goes after Player 2, the last to buy: the exchange is no act of the turn."""
    data = export("g2p_s2012")
    ex = at(data, 42)
    assert where(ex) == ("stock", "Player 1", "Player 1", 0)
    assert ex.game.state.certs["NYC_1"] == "Player 1"
    assert ex.game.state.privates["MH"].closed
    assert where(at(data, 43)) == ("stock", "Player 2", "Player 1", 1)
    assert where(at(data, 44)) == ("operating", "B&M", "Player 1", None)


def test_a_private_bought_from_a_player_is_the_turns_act_and_sets_the_priority() -> None:
    """g2p_s2009, stock round 3: Player 1 buys CS from Player 2 for $33, all his cash (79),
    and ends his turn (80): no pass.  Player 2 (81) and Player 1 (82) pass: the round ends
    and the priority goes to Player 2, after the buyer."""
    data = export("g2p_s2009")
    assert cash(at(data, 78)) == {"Player 1": 33, "Player 2": 18}
    bought = at(data, 79)
    assert bought.game.state.privates["CS"].owner == "Player 1"
    assert cash(bought) == {"Player 1": 0, "Player 2": 51}
    assert where(bought) == ("stock", "Player 1", "Player 1", 1)  # (he may still sell)
    assert where(at(data, 80)) == ("stock", "Player 2", "Player 1", 0)
    assert where(at(data, 81)) == ("stock", "Player 1", "Player 1", 1)
    assert where(at(data, 82)) == ("operating", "ERIE", "Player 2", None)


def test_a_stock_round_of_passes_only_keeps_the_priority() -> None:
    """g2p_s2001, stock round 3: Player 1 (83) and Player 2 (84) pass, nobody acted: the
    priority stays with Player 1."""
    data = export("g2p_s2001")
    assert where(at(data, 83)) == ("stock", "Player 2", "Player 1", 1)
    end = at(data, 84)
    assert where(end) == ("operating", "NYNH", "Player 1", None)
    assert end.game.state.stock_rounds == 3


def test_a_sold_out_corporation_rises_when_the_stock_round_ends() -> None:
    """g2p_s2001, stock round 1: NYNH's last IPO share is bought (44); the pass that ends
    the round (45) moves NYNH, all in players' hands, up one row: $71 -> $76."""
    data = export("g2p_s2001")
    before = at(data, 44)
    assert market.price(before.game, "NYNH") == 71
    assert [
        c
        for c, o in before.game.state.certs.items()
        if c.startswith("NYNH_") and o in ("ipo", "pool")
    ] == ["NYNH_8"]
    after = at(data, 45)
    assert where(after) == ("operating", "B&M", "Player 1", None)
    assert market.price(after.game, "NYNH") == 76


def test_selling_then_starting_a_corporation_in_one_turn() -> None:
    """g3p_s3001, stock round 4: Player 1 sells 30% of NYC, his presidency included (82:
    NYC $55 -> $40, Player 2 its president), then starts CPR at $67 (83) and ends his turn
    (84)."""
    data = export("g3p_s3001")
    assert cash(at(data, 81))["Player 1"] == 98
    sold = at(data, 82)
    assert where(sold) == ("stock", "Player 1", "Player 3", 0)
    assert cash(sold)["Player 1"] == 263
    assert sold.game.state.corporations["NYC"].president == "Player 2"
    assert market.price(sold.game, "NYC") == 40
    started = at(data, 83)
    assert where(started) == ("stock", "Player 1", "Player 3", 0)
    assert cash(started)["Player 1"] == 129
    assert started.game.state.corporations["CPR"].par == 67
    assert where(at(data, 84)) == ("stock", "Player 2", "Player 3", 0)


def test_buying_a_private_from_a_player_then_selling_in_one_turn() -> None:
    """g3p_s3011, stock round 4: Player 1 buys CS from Player 2 for $16 (66), sells C&O_3
    (67: $100 -> $90) and ends his turn (68)."""
    data = export("g3p_s3011")
    assert cash(at(data, 65)) == {"Player 1": 16, "Player 2": 120, "Player 3": 44}
    bought = at(data, 66)
    assert bought.game.state.privates["CS"].owner == "Player 1"
    assert cash(bought) == {"Player 1": 0, "Player 2": 136, "Player 3": 44}
    assert where(bought) == ("stock", "Player 1", "Player 3", 0)
    sold = at(data, 67)
    assert cash(sold)["Player 1"] == 100
    assert market.price(sold.game, "C&O") == 90
    assert where(sold) == ("stock", "Player 1", "Player 3", 0)
    assert where(at(data, 68)) == ("stock", "Player 2", "Player 3", 0)


# -- the auction and the first stock round ------------------------------------------------


def test_the_bo_buyer_pars_b_and_o_then_the_next_in_turn_holds_the_priority() -> None:
    """g3p_s3001: Player 1 buys BO, the last private (10), and must set B&O's par at once;
    his par at $67 (11) ends the auction, and the first stock round starts with Player 2,
    whose auction turn came next (18xx.games' reading, auction_18xx_games)."""
    data = export("g3p_s3001")
    bought = at(data, 10)
    assert where(bought) == ("auction", "Player 1", "Player 1", 0)
    assert bought.game.state.privates["BO"].owner == "Player 1"
    assert bought.game.state.certs["B&O_0"] == "Player 1"
    assert bought.game.state.corporations["B&O"].par is None
    parred = at(data, 11)
    assert where(parred) == ("stock", "Player 2", "Player 2", 0)
    assert parred.game.state.corporations["B&O"].par == 67
    assert cash(parred) == {"Player 1": 490, "Player 2": 620, "Player 3": 645}


# -- programmed actions (auto_actions) ------------------------------------------------------


def test_programmed_passes_that_end_a_stock_round_replay_alike() -> None:
    """g3p_s3001: the last two passes of stock round 3 (62, 63) logged as programmed passes
    under Player 3's pass (61): the same game."""
    data = as_autos(export("g3p_s3001"), 61, [62, 63])
    res = at(data, 70)
    assert res.divergence is None
    assert res.game.state_hash() == state_at("g3p_s3001", 70)
    assert where(at(data, 61)) == ("operating", "ERIE", "Player 3", None)


def test_a_programmed_buy_and_pass_under_the_operating_rounds_last_pass() -> None:
    """g3p_s3001: Player 1's buy (53) and pass (54) opening stock round 3, logged as a
    programme's buy and pass under B&O's pass that ends operating round 2.1 (52): B&O's
    optional steps are passed first, the same game."""
    data = as_autos(export("g3p_s3001"), 52, [53, 54])
    res = at(data, 55)
    assert where(res) == ("stock", "Player 3", "Player 1", 1)
    assert res.game.state.certs["B&M_3"] == "Player 1"
    assert at(data, 70).game.state_hash() == state_at("g3p_s3001", 70)


def b_m_programme(data: dict[str, Any]) -> dict[str, Any]:
    """g3p_s3001: Player 1's programme buying B&M until he holds 4 shares, then passing."""
    return {
        "type": "program_buy_shares",
        "entity": player(data, "Player 1"),
        "entity_type": "player",
        "corporation": "B&M",
        "until_condition": 4,
        "from_market": False,
        "auto_pass_after": True,
    }


def test_a_programme_set_during_an_operating_round_changes_nothing_by_itself() -> None:
    """g3p_s3001: Player 1 sets programme_buy_shares during B&O's turn (after 49); its buy
    and pass come under B&O's last pass (52 then 53): the same game, and the programme alone
    holds back none of B&O's passes."""
    data = export("g3p_s3001")
    data = as_autos(insert_after(data, 49, [b_m_programme(data)]), 53, [54, 55])
    assert where(at(data, 53)) == ("stock", "Player 2", "Player 1", 0)
    assert at(data, 71).game.state_hash() == state_at("g3p_s3001", 70)


def test_a_program_buy_shares_set_in_the_players_own_turn_buys_at_once() -> None:
    """g3p_s3001: Player 1's buy (53) and pass (54) as the auto actions of his own
    program_buy_shares (53)."""
    data = export("g3p_s3001")
    prog = {
        **b_m_programme(data),
        "id": 53,
        "auto_actions": [bare(action(data, 53)), bare(action(data, 54))],
    }
    data["actions"] = [prog if a["id"] == 53 else a for a in data["actions"] if a["id"] != 54]
    assert where(at(data, 53)) == ("stock", "Player 2", "Player 1", 0)
    assert at(data, 70).game.state_hash() == state_at("g3p_s3001", 70)


def test_a_programmed_pass_under_a_private_purchase_that_ends_an_operating_round() -> None:
    """g3p_s3004: ERIE's purchase of SV (136) ends operating round 3.2 on 18xx.games with
    no pass logged; Player 3's pass opening stock round 4 (137) logged under it: ERIE's
    optional steps are passed first, the same game."""
    data = as_autos(export("g3p_s3004"), 136, [137])
    assert where(at(data, 136)) == ("stock", "Player 1", "Player 3", 1)
    assert at(data, 141).game.state_hash() == state_at("g3p_s3004", 141)


def test_a_pass_of_a_player_our_engine_passed_itself_is_dropped() -> None:
    """g2p_s2005, stock round 1: Player 1 ($40, nothing to buy) is passed by both engines
    between Player 2's programmed buys of ERIE (under 24).  A pass of his logged there (as an
    older export might) is dropped: the same game.  So is a "Done" logged after Player 3's
    purchase in g3p_s3001's first stock round (13), where the turn ends by itself."""
    data = export("g2p_s2005")
    autos = action(data, 24)["auto_actions"]
    assert [(a["type"], a.get("shares")) for a in autos[:3]] == [
        ("buy_shares", ["ERIE_2"]),
        ("buy_shares", ["ERIE_3"]),
        ("buy_shares", ["ERIE_4"]),
    ]
    autos.insert(1, {"type": "pass", "entity": player(data, "Player 1"), "entity_type": "player"})
    res = at(data, 26)
    assert res.divergence is None
    assert res.game.state_hash() == state_at("g2p_s2005", 26)
    data = export("g3p_s3001")
    done = {"type": "pass", "entity": player(data, "Player 3"), "entity_type": "player"}
    res = at(insert_after(data, 13, [done]), 15)
    assert where(res) == ("stock", "Player 2", "Player 2", 0)
    assert res.game.state_hash() == state_at("g3p_s3001", 14)


# -- exchanges and purchases out of turn ----------------------------------------------------


def test_mh_exchanged_in_another_players_turn() -> None:
    """g2p_s2001, stock round 1: Player 2 exchanges MH for NYC_1 in his own turn (21).  Made
    in Player 1's turn instead (before Player 1's buy, 20), it leaves Player 1 to act; the
    game after Player 1's par (23) is the same."""
    data = export("g2p_s2001")
    mh = bare(action(data, 21))
    assert (mh["entity"], mh["shares"]) == ("MH", ["NYC_1"])
    early = insert_after(data, 19, [mh])
    early["actions"] = [a for a in early["actions"] if a["id"] != 22]  # (the exchange, moved)
    res = at(early, 20)
    assert where(res) == ("stock", "Player 1", "Player 1", 0)
    assert res.game.state.certs["NYC_1"] == "Player 2"
    assert res.game.state.privates["MH"].closed
    assert at(early, 24).game.state_hash() == state_at("g2p_s2001", 23)


def test_a_purchase_out_of_turn_diverges_naming_the_player_to_act() -> None:
    """g3p_s3001, stock round 3: Player 3's buy of ERIE_4 (56) moved before Player 2's pass
    (55, the two ids swapped) is refused where it comes."""
    data = export("g3p_s3001")
    buy = action(data, 56)
    data["actions"].remove(buy)
    pos = next(i for i, a in enumerate(data["actions"]) if a["id"] == 55)
    data["actions"].insert(pos, buy)
    buy["id"], data["actions"][pos + 1]["id"] = 55, 56
    res = at(data, 60)
    assert str(res.divergence) == "action 55: not Player 3's turn: Player 2 is to act"
    assert res.mismatches() == ["action 55: not Player 3's turn: Player 2 is to act"]


def test_a_private_bought_by_a_player_who_has_bought_a_share_diverges() -> None:
    """g2p_s2009: Player 1 buys ERIE_4 (76), then CS from Player 2 in the same turn: one
    purchase a turn in both engines."""
    data = export("g2p_s2009")
    buy = {
        "type": "buy_company",
        "entity": player(data, "Player 1"),
        "entity_type": "player",
        "company": "CS",
        "price": 10,
    }
    res = at(insert_after(data, 76, [buy]), 77)
    assert str(res.divergence) == "action 77: Player 1 has already bought this turn"


# -- the boundaries of rounds: undo, a cut log ---------------------------------------------


def test_undo_across_the_end_of_a_stock_round_reopens_it() -> None:
    """g3p_s3001: undone from operating round 3.1 (after ERIE's 69) back to before Player
    2's last pass (after 62), stock round 3 is open again with Player 2 to act; the same
    moves again give the same game, and so does an undo and redo of the round's last
    pass."""
    data = export("g3p_s3001")
    undo = {"type": "undo", "entity": "ERIE", "entity_type": "corporation", "action_id": 62}
    reopened = at(insert_after(data, 69, [undo]), 70)
    assert where(reopened) == ("stock", "Player 2", "Player 1", 2)
    assert reopened.kept_count == 62 and reopened.raw_count == 70
    again = [bare(a) for a in data["actions"] if 63 <= a["id"] <= 69]
    res = at(insert_after(data, 69, [undo, *again]), 77)
    assert res.divergence is None and res.kept_count == 69
    assert res.game.state_hash() == state_at("g3p_s3001", 69)
    p2 = player(data, "Player 2")
    chain = [
        {"type": "undo", "entity": "ERIE", "entity_type": "corporation"},
        {"type": "undo", "entity": p2, "entity_type": "player"},
        {"type": "redo", "entity": p2, "entity_type": "player"},
        {"type": "redo", "entity": "ERIE", "entity_type": "corporation"},
    ]
    res = at(insert_after(data, 64, chain), 73)
    assert res.divergence is None
    assert res.game.state_hash() == state_at("g3p_s3001", 69)


def test_a_finished_export_cut_after_an_operating_rounds_last_pass_is_in_the_stock_round() -> None:
    """g2p_s2003: B&O buys SV and CS (118, 119) and passes (120): operating round 9.2 ends.
    Cut there (--at 120), the finished export's trailing pass ends B&O's turn: stock round
    10 begins with Player 1, who buys next (121)."""
    data = export("g2p_s2003")
    res = at(data, 120)
    assert res.divergence is None
    assert where(res) == ("stock", "Player 1", "Player 1", 0)
    assert res.game.state.stock_rounds == 10


def test_a_cut_at_a_corporation_pass_makes_the_passes_the_next_action_needs() -> None:
    """g3p_s3003 cut at B&O's pass (60, as `--at 60`): the next action, B&O's own, shows
    which steps that pass ended; the import made no pass our engine refuses (it reported
    "B&O cannot pass now" when each pass held back went on to the turn's end)."""
    data = export("g3p_s3003")
    assert (action(data, 60)["type"], action(data, 60)["entity"]) == ("pass", "B&O")
    res = at(data, 60)
    assert res.divergence is None
    nxt = at(data, 61)
    assert nxt.divergence is None
    assert nxt.game.log[: len(res.game.log)] == res.game.log


def test_an_unfinished_export_ending_as_sv_becomes_free_hands_it_over() -> None:
    """An export still on whose log ends with the eighth pass: 18xx.games has given SV to
    Player 1 already, and Player 2 is to act."""
    data = export("g2p_s2001")
    ids = [player(data, "Player 1"), player(data, "Player 2")]
    data["actions"] = [
        {"id": i + 1, "type": "pass", "entity": ids[i % 2], "entity_type": "player"}
        for i in range(8)
    ]
    data["status"] = "active"
    res = at(data)
    assert res.divergence is None
    assert res.game.state.privates["SV"].owner == "Player 1"
    assert res.game.acting() == "Player 2"


def test_a_cut_before_a_programmed_setting_looks_past_it() -> None:
    """g2p_s2003: NYNH's passes (159, 160) end the operating round.  A programmed setting
    (161) changes nothing itself, so a cut at 160 asks the first action that does (the
    purchase under it) what it needs: NYNH's held passes are made and the stock round has
    begun (the setting's "fit" dropped them, and the cut stood in the operating round)."""
    data = export("g2p_s2003")
    assert [action(data, i)["type"] for i in (159, 160, 161, 162)] == [
        "pass",
        "pass",
        "program_buy_shares",
        "pass",
    ]
    cut = at(data, 160)
    assert cut.divergence is None
    assert cut.game.state.round.kind == "stock"
    assert at(data, 161).game.log[: len(cut.game.log)] == cut.game.log
