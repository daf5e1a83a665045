"""Audit of 1830's private companies after the auction (titles/1830/privates.toml) against
18xx.games' 1830 (tobymao/18xx, as the importer plays it) and the seeds: revenue, closing,
the hex blocks, corporations buying privates, the M&H exchange's timing and the C&A
share.  Every game is played with the readings the importer switches on.

Each test pins one corner with exact values: an action accepted (its outcome) or refused
(IllegalAction, the state hash unchanged).  The CS and DH tile and token powers are in
test_track_refusal_audit.py; the price range of a corporation's purchase, BO's refusal,
purchases in a forced train purchase and BO closing on a train from another corporation
in test_trains_refusal_audit.py; the M&H exchange in a stock round and the C&A share's
sale in test_stock_refusal_audit.py.

What the 87 corpus games show (replayed through our engine): 346 purchases of a private
by a corporation (92 from its president, 254 from another player; 55 a second or third in
the same turn; 20 in the track step, 5 in the token step, 182 in the train step, 139 in
the last step); 87 first trains of B&O with BO open (80 from the bank, 7 from a
corporation); 341 privates closed by the first 5-train; 83 M&H exchanges (80 in a stock
round, 3 in an operating round, in the routes or dividend step; 46 before NYC's par); 111
privates bought from another player in a stock round (from stock round 2 on, in phases
2-4: SV 39, DH 35, CS 32, MH 5, never CA or BO).

Games start from the scenario's second stock round (B&M: president C 30%, A 20%, D 10%;
NYC started at $67 by D 20%, B 10%, not floated; B&O parred at $67 by B, not floated): A
holds SV and CA (and PRR_1), B CS and BO, C DH, D MH; cash A $250, B $313, C $245, D $276;
B&M $920 with the 2-0 train, at $90.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest
from corpus_18xx import at, export
from readings_18xx import READINGS_18XX
from scenario import agreed, cash, opening, run, second_stock_round

from eighteen import Game, IllegalAction
from eighteen.engine import privates, shares, trains
from eighteen.engine.actions import (
    Action,
    Bid,
    BuyCompany,
    BuyTrain,
    Dividend,
    ExchangePrivate,
    LayTile,
    Par,
    Pass,
    RunRoutes,
    TradePrivate,
)
from eighteen.io.games18xx import export_game, import_game

# -- helpers ----------------------------------------------------------------------------------


def stock_round_2(phase: str = "2") -> Game:
    """The scenario's second stock round with the importer's readings, in ``phase``."""
    g = second_stock_round(options=READINGS_18XX)
    g.state.phase = g.tables.phase_index(phase)
    g.invalidate_caches()
    return g


def float_corp(g: Game, corp: str, holder: str) -> None:
    """Setup: ``holder`` (already its president) holds 60% of the parred ``corp``, which
    floats with 10 x $67."""
    for cert in shares.ordinary_certs_of(g, corp, "ipo"):
        if shares.percent_of(g, corp, holder) < 60:
            g.state.certs[cert] = holder
    cs = g.state.corporations[corp]
    cs.floated, cs.cash = True, 670
    g.invalidate_caches()


def end_stock_round(g: Game) -> None:
    """Everyone passes the stock round (B first)."""
    run(g, Pass("B"), Pass("C"), Pass("D"), Pass("A"))
    assert g.state.round.kind == "operating"


def skip_until(g: Game, done: Callable[[Game], bool]) -> None:
    """Take the plain choices (pass, the offered run, pay out) until ``done``."""
    while not done(g):
        acts = g.legal_actions()
        g.apply(next(a for a in acts if isinstance(a, Pass | RunRoutes | Dividend)))


def notes_since(g: Game, n: int, word: str) -> list[str]:
    """The notes with ``word`` of the actions after the first ``n`` of the log."""
    return [m for i, m in g.events if i > n and word in m]


def refused(g: Game, action: Action, reason: str) -> None:
    """``action`` is refused for ``reason`` (a regex) and the state is unchanged."""
    before = g.state_hash()
    with pytest.raises(IllegalAction, match=reason):
        g.apply(action)
    assert g.state_hash() == before


def lays(g: Game) -> set[tuple[str, str, int]]:
    return {(a.hex, a.tile, a.rotation) for a in g.legal_actions() if isinstance(a, LayTile)}


def buys(g: Game) -> set[tuple[str, int]]:
    return {(a.private, a.price) for a in g.legal_actions() if isinstance(a, BuyCompany)}


ALL_REVENUE = [
    "SV pays $5 to A",
    "CS pays $10 to B",
    "DH pays $15 to C",
    "MH pays $20 to D",
    "CA pays $25 to A",
    "BO pays $30 to B",
]


# -- revenue ------------------------------------------------------------------------------------


def test_revenue_goes_to_the_owner_as_each_operating_round_begins() -> None:
    """18xx.games pays privates in Round::Operating#setup (payout_companies), to whoever
    owns them then: B buys A's SV in stock round 2, so B is paid for it; B&M buys C's DH
    in operating round 1 after C was paid for it, and is paid for it only as operating
    round 2 begins (into its treasury, not to its shareholders)."""
    g = stock_round_2(phase="3")  # sets of two operating rounds
    run(g, TradePrivate("B", "SV", "A", 30))
    n = len(g.log)
    run(g, Pass("B"), Pass("C"), Pass("D"), Pass("A"), Pass("B"))
    assert (g.state.round.kind, g.state.round.number) == ("operating", 1)
    assert notes_since(g, n, " pays $") == ["SV pays $5 to B", *ALL_REVENUE[1:]]
    assert cash(g) == {
        "A": 250 + 30 + 25,
        "B": 313 - 30 + 5 + 10 + 30,
        "C": 245 + 15,
        "D": 276 + 20,
    }
    run(g, BuyCompany("B&M", "DH", 35))  # in its track step, before any lay
    assert g.state.corporations["B&M"].cash == 920 - 35 and cash(g)["C"] == 260 + 35
    n = len(g.log)
    run(g, Pass("B&M"))  # no tile
    run(g, g.legal_actions()[0], Dividend("B&M", "withhold"))  # $40 kept: $920 - 35 + 40
    run(g, Pass("B&M"), Pass("B&M"))  # no train; no private in the last step
    assert (g.state.round.kind, g.state.round.number) == ("operating", 2)
    assert notes_since(g, n, " pays $") == [
        "SV pays $5 to B",
        "CS pays $10 to B",
        "DH pays $15 to B&M",
        "MH pays $20 to D",
        "CA pays $25 to A",
        "BO pays $30 to B",
    ]
    assert g.state.corporations["B&M"].cash == 920 - 35 + 40 + 15
    assert cash(g) == {"A": 305 + 25, "B": 328 + 45, "C": 295, "D": 296 + 20}


def test_an_operating_round_without_corporations_still_pays_the_privates() -> None:
    """Everyone passes stock round 1 (B&O is parred by BO's buyer but not floated): the
    operating round has no corporation to operate, and the privates pay all the same
    (18xx.games: payout_companies in Round::Operating#setup); C keeps the priority."""
    g = opening(options=READINGS_18XX)
    assert cash(g) == {"A": 420, "B": 340, "C": 530, "D": 490}
    n = len(g.log)
    run(g, Pass("C"), Pass("D"), Pass("A"), Pass("B"))
    assert notes_since(g, n, " pays $") == ALL_REVENUE
    assert (g.state.round.kind, g.state.round.number, g.acting()) == ("stock", 2, "C")
    assert cash(g) == {"A": 420 + 30, "B": 340 + 40, "C": 530 + 15, "D": 490 + 20}


def test_the_first_5_closes_every_private_after_this_rounds_revenue() -> None:
    """The first 5-train (18xx.games' close_companies event) closes every private, those
    of corporations too; the revenue paid as the round began stays paid, the next round
    pays none, the blocks go and the closed privates leave their owners' certificates."""
    g = stock_round_2(phase="4")
    g.state.privates["SV"].owner = "B&M"  # setup: B&M bought SV
    g.state.depot = [t for t in g.state.depot if trains.train_type(t) in ("5", "6", "D")]
    g.state.corporations["B&M"].trains = ["3-0"]
    g.state.bought_types = ["2", "3", "4"]
    g.invalidate_caches()
    assert shares.cert_count(g, "A") == 4  # CA, PRR_1 and 20% of B&M
    n = len(g.log)
    end_stock_round(g)
    assert notes_since(g, n, " pays $") == ["SV pays $5 to B&M", *ALL_REVENUE[1:]]
    assert g.state.corporations["B&M"].cash == 925
    run(g, Pass("B&M"))
    run(g, g.legal_actions()[0], Dividend("B&M", "withhold"))
    run(g, BuyTrain("B&M", "5-0", 450))
    assert all(ps.closed for ps in g.state.privates.values())
    assert g.state.corporations["B&M"].cash == 925 + 40 - 450  # SV's $5 kept
    assert privates.blocked_hexes(g) == set()
    assert shares.cert_count(g, "A") == 3
    refused(g, ExchangePrivate("D", "MH", "ipo"), "^D does not own an open MH$")
    assert not any(isinstance(a, BuyCompany) for a in g.legal_actions())
    before = cash(g)
    n = len(g.log)
    run(g, Pass("B&M"))  # the turn (and operating round 1 of 2) ends
    assert (g.state.round.kind, g.state.round.number) == ("operating", 2)
    assert notes_since(g, n, " pays $") == []
    assert cash(g) == before and g.state.corporations["B&M"].cash == 925 + 40 - 450


# -- BO: its block and its closing -------------------------------------------------------------


def test_bo_blocks_b_and_o_at_home_until_b_and_o_buys_its_first_train() -> None:
    """BO (owned by B, B&O's president) blocks I13 and I15, B&O's own home, while a
    player owns it (18xx.games: blocks_hexes, owner_type player); it stays open through
    B&O's par and another corporation's train, closes when B&O buys its first train from
    the bank (the bought_train event), pays no more and lifts its block: in the next
    round B&O upgrades Baltimore."""
    g = stock_round_2(phase="3")
    float_corp(g, "B&O", "B")
    end_stock_round(g)
    assert g.state.round.order == ["B&M", "B&O"]
    skip_until(g, lambda g: g.state.round.step == "trains")
    run(g, BuyTrain("B&M", "2-1", 80))
    assert not g.state.privates["BO"].closed
    skip_until(g, lambda g: g.acting() == "B&O")
    assert g.state.round.step == "track"
    assert lays(g) == {("I17", t, 1) for t in ("7", "8", "9")} | {("J14", "57", 0)}
    assert {"I13", "I15"} <= privates.blocked_hexes(g)
    refused(
        g, LayTile("B&O", "I15", "53", 0), "^I15 is blocked by a private company owned by a player$"
    )
    run(g, Pass("B&O"))
    assert g.state.round.step == "trains"  # no token (home placed), no train to run
    assert shares.cert_count(g, "B") == 8  # CS, BO, 60% of B&O, 10% of NYC
    run(g, BuyTrain("B&O", "2-2", 80))
    assert shares.cert_count(g, "B") == 7
    assert g.state.privates["BO"].closed and g.state.privates["BO"].owner == "B"
    assert privates.blocked_hexes(g) == {"B20", "D18", "F16", "G15", "H18"}
    assert g.state.corporations["B&O"].president == "B" and g.state.corporations["B&O"].cash == 590
    n = len(g.log)
    skip_until(g, lambda g: g.state.round.number == 2)
    assert notes_since(g, n, " pays $") == ALL_REVENUE[:5]
    skip_until(g, lambda g: g.acting() == "B&O")
    assert ("I15", "53", 0) in lays(g)
    run(g, LayTile("B&O", "I15", "53", 0))
    assert g.state.map.tiles["I15"] == ("53", 0)


# -- MH: its block and its exchange in an operating round ------------------------------------


def nyc_beside_d18(phase: str = "2") -> Game:
    """NYC (president D, 60%, $670 less its tiles) has laid 57 on Albany (E19) toward D18
    and F20 in operating round 1; A owns MH (setup: bought from D).  Stock round 3 passes;
    NYC is at its track step in the next operating round."""
    g = stock_round_2(phase)
    float_corp(g, "NYC", "D")
    g.state.privates["MH"].owner = "A"
    g.invalidate_caches()
    end_stock_round(g)
    skip_until(g, lambda g: g.acting() == "NYC")
    run(g, LayTile("NYC", "E19", "57", 2))
    skip_until(g, lambda g: g.state.round.kind == "stock")
    skip_until(g, lambda g: g.state.round.kind == "operating" and g.acting() == "NYC")
    assert g.state.round.step == "track" and g.state.round.number == 1
    return g


def test_mh_blocks_d18_until_exchanged_in_the_operating_round() -> None:
    """MH blocks D18 while a player owns it; its owner (A, not NYC's president) exchanges
    it in NYC's turn for an IPO share (18xx.games: the Exchange step of the operating
    round; the corpus has three such exchanges, in a corporation's routes or
    dividend step); MH closes and NYC lays on D18 in the same track step."""
    g = nyc_beside_d18()
    assert ("D18", "9", 2) not in lays(g)
    refused(
        g, LayTile("NYC", "D18", "9", 2), "^D18 is blocked by a private company owned by a player$"
    )
    a_cash = cash(g)["A"]
    g.apply(ExchangePrivate("A", "MH", "ipo"))
    assert g.state.privates["MH"].closed and shares.percent_of(g, "NYC", "A") == 10
    assert cash(g)["A"] == a_cash  # a swap: no money moves
    assert (g.acting(), g.state.round.step) == ("NYC", "track")
    assert {("D18", "9", 2), ("D18", "7", 4), ("D18", "8", 3)} <= lays(g)
    run(g, LayTile("NYC", "D18", "9", 2))
    assert g.state.map.tiles["D18"] == ("9", 2)
    refused(g, ExchangePrivate("A", "MH", "ipo"), "A does not own an open MH")


def test_mh_revenue_goes_to_its_owner_of_the_rounds_start_and_stops_once_exchanged() -> None:
    """A, MH's owner when the round began, was paid its $20; after the exchange the
    next round pays MH nothing."""
    g = nyc_beside_d18()
    events = [m for _, m in g.events]
    assert events.count("MH pays $20 to A") == 2  # this round and the one before
    g.apply(ExchangePrivate("A", "MH", "ipo"))
    n = len(g.log)
    skip_until(g, lambda g: g.state.round.kind == "stock")
    skip_until(g, lambda g: g.state.round.kind == "operating")
    assert notes_since(g, n, " pays $") == [r for r in ALL_REVENUE if not r.startswith("MH")]


def test_import_an_mh_exchange_in_an_operating_round_before_nyc_starts() -> None:
    """Corpus game g4p_s4003, action 180: Player 4 (C&O's president) exchanges MH for
    NYC_1 from the IPO in C&O's routes step, NYC not yet started; C&O's turn goes on."""
    data = export("g4p_s4003")
    before = at(data, 179).game
    assert before.state.privates["MH"].owner == "Player 4"
    assert (before.acting(), before.state.round.step) == ("C&O", "routes")
    res = at(data, 180)
    assert res.divergence is None
    g = res.game
    assert g.state.privates["MH"].closed and g.state.certs["NYC_1"] == "Player 4"
    assert g.state.corporations["NYC"].par is None
    assert (g.acting(), g.state.round.step) == ("C&O", "routes")
    assert g.state.player("Player 4").cash == before.state.player("Player 4").cash


def test_mh_cannot_be_exchanged_during_the_auction() -> None:
    """18xx.games' auction round has no Exchange step (the corpus: 80 exchanges in stock
    rounds, 3 in operating rounds, none in the auction): D, owning MH while CA and BO are
    still unsold, may not exchange it yet; in stock round 1 he may."""
    g = Game.new("1830", ["A", "B", "C", "D"], options=READINGS_18XX)
    for who, pid, face in [("A", "SV", 20), ("B", "CS", 40), ("C", "DH", 70), ("D", "MH", 110)]:
        run(g, Bid(who, pid, face))
    assert g.state.round.kind == "auction" and g.state.privates["MH"].owner == "D"
    refused(g, ExchangePrivate("D", "MH", "ipo"), "exchange is not possible now")
    run(g, Bid("A", "CA", 160), Bid("B", "BO", 220), Par("B", "B&O", 67))
    assert g.state.round.kind == "stock" and g.acting() == "C"
    g.apply(ExchangePrivate("D", "MH", "ipo"))
    assert shares.percent_of(g, "NYC", "D") == 10


# -- blocks: only while a player owns the private -----------------------------------------------


def test_a_corporation_buys_mh_and_lays_on_d18_in_the_same_track_step() -> None:
    """Phase 3: NYC buys A's MH (for $55, half its face) before its lay; owned by a
    corporation, MH blocks nothing (18xx.games: owner_type player), so NYC lays on D18
    at once; MH stays open (it pays NYC from the next round); A can no longer exchange it."""
    g = nyc_beside_d18(phase="3")
    assert ("D18", "9", 2) not in lays(g)
    nyc = g.state.corporations["NYC"].cash
    run(g, BuyCompany("NYC", "MH", 55))
    assert g.state.privates["MH"].owner == "NYC" and not g.state.privates["MH"].closed
    assert g.state.corporations["NYC"].cash == nyc - 55
    assert g.state.round.step == "track" and ("D18", "9", 2) in lays(g)
    run(g, LayTile("NYC", "D18", "9", 2))
    assert g.state.map.tiles["D18"] == ("9", 2)
    refused(g, ExchangePrivate("A", "MH", "ipo"), "A does not own an open MH")


def test_a_private_of_another_corporation_blocks_nothing_either() -> None:
    """MH owned by B&M: NYC may lay on D18 (the block is lifted for everyone)."""
    g = nyc_beside_d18()
    g.state.privates["MH"].owner = "B&M"
    g.invalidate_caches()
    assert ("D18", "9", 2) in lays(g)


def test_the_blocked_hexes_follow_the_owners() -> None:
    """Every hex a player's private blocks: SV G15, CS B20, DH F16, MH D18, CA H18, BO
    I13 and I15; none of those a corporation owns or that closed."""
    g = stock_round_2()
    assert privates.blocked_hexes(g) == {"G15", "B20", "F16", "D18", "H18", "I13", "I15"}
    g.state.privates["SV"].owner = "B&M"
    g.state.privates["CA"].owner = "NYC"
    g.state.privates["DH"].closed = True
    g.invalidate_caches()
    assert privates.blocked_hexes(g) == {"B20", "D18", "I13", "I15"}


# -- corporations buying privates ------------------------------------------------------------------


def test_a_corporation_buys_from_any_player_at_any_step_several_in_one_turn() -> None:
    """Phase 3: B&M (president C) buys from A (SV at double, CA at half) before its lay,
    from B (CS) in its routes step, from its president C (DH) in its dividend step, and is
    offered MH still in its last step, where a pass ends its turn.  18xx.games' BuyCompany
    is a non-blocking step before the track step plus a blocking one after the trains
    (purchasable_companies: any player's, not a corporation's, no limit per turn).  A
    private it owns is not for sale again; C&A's PRR share stays with A.  The privates pay
    B&M from the next round on."""
    g = stock_round_2(phase="3")
    end_stock_round(g)
    assert cash(g) == {"A": 280, "B": 353, "C": 260, "D": 296}
    run(g, BuyCompany("B&M", "SV", 40), BuyCompany("B&M", "CA", 80))
    assert g.state.certs["PRR_1"] == "A" and shares.cert_count(g, "A") == 3
    refused(g, BuyCompany("B&M", "SV", 40), "^B&M cannot buy SV now")
    assert not any(p in ("SV", "CA") for p, _ in buys(g))
    run(g, Pass("B&M"))
    assert g.state.round.step == "routes"
    run(g, BuyCompany("B&M", "CS", 20))
    run(g, g.legal_actions()[0])
    assert g.state.round.step == "dividend"
    run(g, BuyCompany("B&M", "DH", 140), Dividend("B&M", "withhold"))
    assert g.state.round.step == "trains"
    run(g, Pass("B&M"))
    assert g.state.round.step == "companies"
    assert buys(g) == {("MH", 55), ("MH", 110), ("MH", 220)} and Pass("B&M") in g.legal_actions()
    assert g.state.corporations["B&M"].cash == 920 - 40 - 80 - 20 - 140 + 40
    assert cash(g) == {"A": 280 + 40 + 80, "B": 353 + 20, "C": 260 + 140, "D": 296}
    n = len(g.log)
    run(g, Pass("B&M"))
    assert (g.state.round.kind, g.state.round.number, g.acting()) == ("operating", 2, "B&M")
    assert notes_since(g, n, " pays $") == [
        "SV pays $5 to B&M",
        "CS pays $10 to B&M",
        "DH pays $15 to B&M",
        "MH pays $20 to D",
        "CA pays $25 to B&M",
        "BO pays $30 to B",
    ]
    assert g.state.corporations["B&M"].cash == 680 + 5 + 10 + 15 + 25


def test_a_private_of_another_corporation_is_not_for_sale() -> None:
    """purchasable_companies lists players' privates only: B&M may not buy NYC's CS."""
    g = stock_round_2(phase="3")
    g.state.privates["CS"].owner = "NYC"  # setup: NYC bought CS
    g.invalidate_caches()
    end_stock_round(g)
    assert not any(p == "CS" for p, _ in buys(g))
    refused(g, BuyCompany("B&M", "CS", 40), "^B&M cannot buy CS now")


def test_only_the_operating_corporation_buys() -> None:
    """18xx.games' BuyCompany asks entity == current_entity: NYC (floated, to operate
    later) may not buy in B&M's turn."""
    g = stock_round_2(phase="3")
    float_corp(g, "NYC", "D")
    end_stock_round(g)
    assert g.acting() == "B&M"
    refused(g, BuyCompany("NYC", "SV", 20), "^not NYC's turn: B&M is to act$")


def test_the_first_3_lets_the_buyer_buy_a_private_in_the_same_turn() -> None:
    """Phase 2 sells no private to a corporation; B&M's purchase of the first 3-train
    starts phase 3 (18xx.games: the phase status can_buy_companies), and its last step
    then offers privates."""
    g = stock_round_2()
    g.state.depot = [t for t in g.state.depot if not t.startswith("2-")]
    g.state.bought_types = ["2"]
    g.invalidate_caches()
    end_stock_round(g)
    assert buys(g) == set()
    refused(g, BuyCompany("B&M", "SV", 20), "^buy_company is not possible now")
    skip_until(g, lambda g: g.state.round.step == "trains")
    assert buys(g) == set()
    run(g, BuyTrain("B&M", "3-0", 180))
    assert g.tables.phases[g.state.phase].id == "3"
    assert ("SV", 10) in buys(g)
    run(g, Pass("B&M"))  # no more trains
    assert g.state.round.step == "companies"
    run(g, BuyCompany("B&M", "SV", 10))
    assert g.state.privates["SV"].owner == "B&M"


# -- what only players may do -------------------------------------------------------------


def test_only_a_player_who_owns_mh_may_exchange_it() -> None:
    """Seed 002 and 18xx.games (its exchange ability is the player owner's): B&M, having
    bought MH, may not swap it for an NYC share; a player owning it may."""
    g = stock_round_2(phase="3")
    g.state.privates["MH"].owner = "B&M"  # setup: B&M bought D's MH
    g.invalidate_caches()
    refused(
        g,
        ExchangePrivate("B&M", "MH", "ipo"),
        "only a player who owns MH may exchange it, not B&M",
    )
    assert privates.exchange_options(g, "B&M") == []
    g = stock_round_2(phase="3")
    g.apply(ExchangePrivate("D", "MH", "ipo"))  # (at any time: B is to act)
    assert g.state.privates["MH"].closed
    assert shares.percent_of(g, "NYC", "D") == 30


def test_c_and_a_and_b_and_o_are_not_traded_between_players_by_18xx_games() -> None:
    """Seed 002 (private sales): any private may be sold between players in a stock
    round.  18xx.games trades neither C&A nor B&O, the privates that came with a share
    (in the corpus 111 trades, none of C&A although it was on offer 76 times): option
    private_trades_18xx_games.  B (to act) owns CS and BO; A owns SV and CA."""
    seed = second_stock_round()
    b = seed.state.player("B").cash
    agreed(seed, TradePrivate("B", "CA", "A", 1), "A")  # (A accepts)
    assert seed.state.privates["CA"].owner == "B"
    assert seed.state.player("B").cash == b - 1
    assert seed.state.certs["PRR_1"] == "A"  # the share stays where it was given

    g = stock_round_2()
    assert "private_trades_18xx_games" in g.options
    refused(
        g,
        TradePrivate("B", "CA", "A", 1),
        "CA came with a share: it is not traded between players",
    )
    refused(
        g,
        TradePrivate("B", "BO", "C", 220),
        "BO came with a share: it is not traded between players",
    )
    trades = {(a.private, a.counterparty) for a in g.legal_actions() if isinstance(a, TradePrivate)}
    assert trades == {("SV", "A"), ("DH", "C"), ("MH", "D")}  # B's own CS is not offered
    run(g, TradePrivate("B", "SV", "A", 1))
    assert g.state.privates["SV"].owner == "B"


def test_a_player_who_could_buy_only_c_and_a_is_passed_by_18xx_games() -> None:
    """D holds NYC's president's certificate only (no one could take it) and $50 (no
    share is so cheap); the only private of another player is A's CA.  By the seed D may
    still buy it, so his turn waits; by 18xx.games' reading he can do nothing and is
    passed, and A acts."""

    def setup(options: list[str]) -> Game:
        g = second_stock_round(options=options)
        for pid in ("SV", "CS", "DH"):
            g.state.privates[pid].owner = "B&M"  # setup: sold to B&M earlier
        g.state.privates["MH"].closed = True
        g.state.privates["BO"].closed = True
        g.state.certs["B&M_3"] = "A"  # setup: D's B&M share is A's
        g.state.bank += g.state.player("D").cash - 50
        g.state.player("D").cash = 50
        g.invalidate_caches()
        run(g, Pass("B"), Pass("C"))
        return g

    g = setup([])
    assert g.acting() == "D"
    agreed(g, TradePrivate("D", "CA", "A", 50), "A")  # (A accepts)
    assert g.state.privates["CA"].owner == "D" and g.state.player("D").cash == 0
    g = setup(READINGS_18XX)
    assert g.acting() == "A"
    assert "D can do nothing" in [m for _, m in g.events]


def test_a_private_is_sold_in_the_sellers_turn_by_the_seed_only() -> None:
    """Seed 002: a private changes hands in the buyer's or the seller's stock-round turn.
    18xx.games' buy_company is the buyer's action, taken in his turn only (option
    private_trades_18xx_games): B, to act, may not sell his CS to C."""
    seed = second_stock_round()
    c = seed.state.player("C").cash
    agreed(seed, TradePrivate("B", "CS", "C", 40), "C")  # (C accepts)
    assert seed.state.privates["CS"].owner == "C"
    assert seed.state.player("C").cash == c - 40
    g = stock_round_2()
    refused(
        g, TradePrivate("B", "CS", "C", 40), "CS is bought in its buyer's turn, not sold in B's"
    )
    assert not [a for a in g.legal_actions() if isinstance(a, TradePrivate) and a.private == "CS"]


def test_an_export_with_a_sale_in_the_sellers_turn_imports_only_on_the_seed_reading() -> None:
    """Our export writes B's sale of CS to C (the seed allows it in B's turn) as C's
    buy_company, naming the game's options (settings.eighteen_options): it imports.  As an
    18xx.games log (without them, the importer's readings on) the same action is C buying
    in B's turn, which 18xx.games refuses: a divergence."""
    g = second_stock_round()
    run(g, TradePrivate("B", "CS", "C", 40))
    data = export_game(g)
    assert data["actions"][-1]["type"] == "buy_company"
    assert import_game(copy.deepcopy(data)).game.state_hash() == g.state_hash()
    del data["settings"]["eighteen_options"]
    res = import_game(data)
    assert res.divergence is not None
    assert res.divergence.reason == "CS is bought in its buyer's turn, not sold in B's"
