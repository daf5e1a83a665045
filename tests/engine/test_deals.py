"""Deals between players wait for the other player's answer (rules.deals_need_consent).

Seed 002 (Trains): a train is bought from the bank at its price, or from another player
at the price they negotiated; between two corporations of one president it costs at least
$1.  Seed 002 (Private companies): a private changes hands between players at a price
both agree.  So the acting side's deal is an offer the other player answers
(rounds/deals.py); 18xx.games takes the buyer's action as the deal (option
deals_18xx_games).
"""

from __future__ import annotations

import pytest
from scenario import cash, run, second_stock_round

from eighteen import Game
from eighteen.engine import market, views
from eighteen.engine.actions import (
    AnswerDeal,
    BuyCompany,
    BuyTrain,
    Dividend,
    IllegalAction,
    Pass,
    RunRoutes,
    TradePrivate,
)
from eighteen.engine.bots import GreedyBot
from eighteen.engine.rounds import deals


def erie_floated(g: Game, president: str = "D") -> None:
    """Setup: ``president`` holds 60% of ERIE, started at $67 and floated with $670;
    phase 3."""
    for cert in ("ERIE_0", "ERIE_1", "ERIE_2", "ERIE_3", "ERIE_4"):
        g.state.certs[cert] = president
    cs = g.state.corporations["ERIE"]
    cs.par, cs.president, cs.floated, cs.cash = 67, president, True, 670
    cell = g.tables.par_cell(67)
    assert cell is not None
    market.place(g, "ERIE", cell)
    g.state.phase = g.tables.phase_index("3")
    g.invalidate_caches()


def erie_buying(president: str = "D", options: list[str] | None = None) -> Game:
    """Operating round 2: B&M (C's) has run its 2-train and passed; ERIE ($670, no train)
    is at its train step.  Privates: A has SV and CA, B CS and BO, C DH, D MH."""
    g = second_stock_round(options=options)
    erie_floated(g, president)
    run(g, Pass("B"), Pass("C"), Pass("D"), Pass("A"))
    while g.acting() != "ERIE" or g.state.round.step != "trains":
        acts = g.legal_actions()
        passes = [a for a in acts if isinstance(a, Pass)]
        g.apply(
            passes[0] if passes else next(a for a in acts if isinstance(a, RunRoutes | Dividend))
        )
    assert g.state.corporations["B&M"].trains == ["2-0"]
    assert (g.state.corporations["B&M"].cash, g.state.corporations["ERIE"].cash) == (920, 670)
    return g


def test_a_train_from_another_presidents_corporation_is_an_offer_he_answers() -> None:
    g = erie_buying()
    before = g.state_hash()
    assert [a for a in g.legal_actions() if isinstance(a, BuyTrain)] == [
        BuyTrain("ERIE", "2-1", 80),  # the bank's, at its price
        BuyTrain("ERIE", "2-0", 1),  # B&M's, at prices to offer C
        BuyTrain("ERIE", "2-0", 40),
        BuyTrain("ERIE", "2-0", 80),
        BuyTrain("ERIE", "2-0", 670),
    ]
    g.apply(BuyTrain("ERIE", "2-0", 40))
    # nothing moved: C, B&M's president, is to answer, and nothing else may happen
    assert g.state.corporations["ERIE"].cash == 670
    assert g.state.corporations["B&M"].trains == ["2-0"]
    assert g.state.round.deal == [
        "C",
        {"type": "buy_train", "actor": "ERIE", "train": "2-0", "price": 40, "exchange": None},
    ]
    assert g.acting() == "C"
    assert g.legal_actions() == [AnswerDeal("C", True), AnswerDeal("C", False)]
    assert views.deal(g) == {
        "answerer": "C",
        "offer": {
            "type": "buy_train",
            "actor": "ERIE",
            "train": "2-0",
            "price": 40,
            "exchange": None,
        },
    }
    assert views.summary(g)["deal"] == views.deal(g)
    offered = g.state_hash()
    with pytest.raises(IllegalAction, match="^pass is not possible now: the deal answer step"):
        g.apply(Pass("ERIE"))
    with pytest.raises(IllegalAction, match="^not D's turn: C is to act$"):
        g.apply(AnswerDeal("D", True))
    assert g.state_hash() == offered
    assert g.undo() == BuyTrain("ERIE", "2-0", 40)
    assert g.state_hash() == before
    g.apply(BuyTrain("ERIE", "2-0", 40))
    g.apply(AnswerDeal("C", True))
    assert g.state.round.deal is None and views.deal(g) is None
    assert g.state.corporations["ERIE"].trains == ["2-0"]
    assert g.state.corporations["B&M"].trains == []
    assert (g.state.corporations["B&M"].cash, g.state.corporations["ERIE"].cash) == (960, 630)
    assert g.acting() == "ERIE" and g.state.round.step == "trains"
    assert any("C accepts" in m for _, m in g.events)


def test_a_refused_deal_is_offered_again_only_at_a_better_price_in_that_round() -> None:
    g = erie_buying()
    before = g.state.copy()
    g.apply(BuyTrain("ERIE", "2-0", 40))
    g.apply(AnswerDeal("C", False))
    # everything as before the offer, but the refusal, which the round keeps
    assert g.state.round.refused == ["buy_train 2@B&M ERIE buys from C 40"]
    g.state.round.refused = []
    assert g.state.to_dict() == before.to_dict()
    g.state.round.refused = ["buy_train 2@B&M ERIE buys from C 40"]
    g.invalidate_caches()
    assert g.acting() == "ERIE"
    assert [a for a in g.legal_actions() if isinstance(a, BuyTrain)] == [
        BuyTrain("ERIE", "2-1", 80),
        BuyTrain("ERIE", "2-0", 80),
        BuyTrain("ERIE", "2-0", 670),
    ]
    for price in (1, 40):
        with pytest.raises(
            IllegalAction,
            match="^C refused this deal at this price or a better one for the seller in "
            "this round$",
        ):
            g.apply(BuyTrain("ERIE", "2-0", price))
    # B&M's 2-trains are one deal: its other 2-train is no way round the refusal
    g.state.corporations["B&M"].trains.append("2-5")  # setup: a second 2-train
    g.state.depot.remove("2-5")
    g.invalidate_caches()
    with pytest.raises(IllegalAction, match="^C refused this deal"):
        g.apply(BuyTrain("ERIE", "2-5", 40))
    g.apply(BuyTrain("ERIE", "2-0", 41))  # any price in range: more than the refused one
    assert g.acting() == "C"
    g.apply(AnswerDeal("C", False))
    assert g.state.round.refused == [
        "buy_train 2@B&M ERIE buys from C 40",
        "buy_train 2@B&M ERIE buys from C 41",
    ]
    # the next operating round forgets the refusals
    run(g, Pass("ERIE"), Pass("ERIE"))  # (its trains, then its privates)
    assert (g.state.round.kind, g.state.round.number) == ("operating", 2)
    while g.acting() != "ERIE" or g.state.round.step != "trains":
        acts = g.legal_actions()
        passes = [a for a in acts if isinstance(a, Pass)]
        g.apply(
            passes[0] if passes else next(a for a in acts if isinstance(a, RunRoutes | Dividend))
        )
    assert g.state.round.refused == []
    g.apply(BuyTrain("ERIE", "2-0", 40))
    assert g.acting() == "C"


def test_a_president_deals_with_himself_at_once_for_at_least_1() -> None:
    """Seed 002: between two corporations of one president a train costs at least $1; no
    one else is asked."""
    g = erie_buying(president="C")
    with pytest.raises(IllegalAction, match="costs at least \\$1"):
        g.apply(BuyTrain("ERIE", "2-0", 0))
    g.apply(BuyTrain("ERIE", "2-0", 1))
    assert g.state.round.deal is None
    assert g.state.corporations["ERIE"].trains == ["2-0"]
    assert (g.state.corporations["B&M"].cash, g.state.corporations["ERIE"].cash) == (921, 669)
    assert g.acting() == "ERIE"


def test_18xx_games_reading_makes_the_deal_at_once() -> None:
    g = erie_buying(options=["deals_18xx_games"])
    g.apply(BuyTrain("ERIE", "2-0", 40))
    assert g.state.round.deal is None
    assert g.state.corporations["ERIE"].trains == ["2-0"]
    assert (g.state.corporations["B&M"].cash, g.state.corporations["ERIE"].cash) == (960, 630)


def test_a_corporation_buys_a_private_of_another_player_when_he_accepts() -> None:
    """Phase 3: ERIE may buy a private for half to twice its face value; SV ($20) is A's,
    MH ($110) is D's, ERIE's president."""
    g = erie_buying()
    players = cash(g)
    g.apply(BuyCompany("ERIE", "MH", 220))  # from its president: made at once
    assert g.state.privates["MH"].owner == "ERIE"
    assert cash(g)["D"] == players["D"] + 220
    g.apply(BuyCompany("ERIE", "SV", 10))
    assert g.acting() == "A" and g.state.privates["SV"].owner == "A"
    g.apply(AnswerDeal("A", False))
    assert BuyCompany("ERIE", "SV", 10) not in g.legal_actions()
    assert BuyCompany("ERIE", "SV", 20) in g.legal_actions()
    g.apply(BuyCompany("ERIE", "SV", 40))
    g.apply(AnswerDeal("A", True))
    assert g.state.privates["SV"].owner == "ERIE"
    assert cash(g)["A"] == players["A"] + 40
    assert g.state.corporations["ERIE"].cash == 670 - 220 - 40


def test_privates_traded_between_players_wait_for_the_other_player() -> None:
    """Stock round 2 (B first): B offers to buy A's SV, then to sell his CS to C; each
    answer is the other player's; a refused offer is made again only at a better price
    for him (a buyer's higher, a seller's lower)."""
    g = second_stock_round()
    players = cash(g)
    assert g.acting() == "B"
    g.apply(TradePrivate("B", "SV", "A", 30))
    assert g.acting() == "A"
    assert g.legal_actions() == [AnswerDeal("A", True), AnswerDeal("A", False)]
    g.apply(AnswerDeal("A", False))
    assert g.acting() == "B" and g.state.privates["SV"].owner == "A"
    assert not g.state.round.acted  # an offer refused is no business of the turn
    with pytest.raises(IllegalAction, match="^A refused this deal at this price or a better"):
        g.apply(TradePrivate("B", "SV", "A", 30))
    g.apply(TradePrivate("B", "CS", "C", 40))  # B sells his own, at face value
    assert g.acting() == "C"
    g.apply(AnswerDeal("C", False))
    with pytest.raises(IllegalAction, match="better one for the buyer in this round$"):
        g.apply(TradePrivate("B", "CS", "C", 41))
    # the lists then offer the best price left: $1 from the seller
    assert [a for a in g.legal_actions() if isinstance(a, TradePrivate) and a.private == "CS"] == [
        TradePrivate("B", "CS", "A", 40),
        TradePrivate("B", "CS", "C", 1),
        TradePrivate("B", "CS", "D", 40),
    ]
    g.apply(TradePrivate("B", "CS", "C", 35))
    g.apply(AnswerDeal("C", True))
    assert g.state.privates["CS"].owner == "C"
    assert cash(g) == {**players, "B": players["B"] + 35, "C": players["C"] - 35}
    assert g.acting() == "B" and g.state.round.acted


def test_a_saved_game_with_answers_replays_to_the_same_state() -> None:
    g = second_stock_round()
    g.apply(TradePrivate("B", "SV", "A", 30))
    g.apply(AnswerDeal("A", False))
    g.apply(TradePrivate("B", "SV", "A", 35))
    save = g.to_json()
    assert save["actions"][-3:] == [
        {"type": "trade_private", "actor": "B", "private": "SV", "counterparty": "A", "price": 30},
        {"type": "answer_deal", "actor": "A", "accept": False},
        {"type": "trade_private", "actor": "B", "private": "SV", "counterparty": "A", "price": 35},
    ]
    again = Game.from_json(save)
    assert again.state_hash() == g.state_hash()
    assert again.acting() == "A"
    again.apply(AnswerDeal("A", True))
    assert again.state.privates["SV"].owner == "B"


def test_the_greedy_bot_accepts_a_deal_at_no_loss() -> None:
    """A train at its list price at least, when the selling corporation keeps a train; a
    private at its face value at least from its owner."""
    bot = GreedyBot(0)
    g = erie_buying()
    g.apply(BuyTrain("ERIE", "2-0", 80))
    assert not bot.should_accept(g)  # B&M would have no train left
    g.undo()
    g.state.corporations["B&M"].trains.append("2-5")  # setup: a second 2-train
    g.state.depot.remove("2-5")
    g.invalidate_caches()
    for price, accepted in ((79, False), (80, True)):
        g.apply(BuyTrain("ERIE", "2-0", price))
        assert bot.should_accept(g) is accepted
        assert bot.score(g, AnswerDeal("C", accepted)) == 1.0
        assert bot.score(g, AnswerDeal("C", not accepted)) == -1.0
        g.undo()
    for price, accepted in ((19, False), (20, True)):
        g.apply(BuyCompany("ERIE", "SV", price))
        assert bot.should_accept(g) is accepted
        g.undo()


def test_a_step_whose_every_deal_was_refused_is_passed_over() -> None:
    """ERIE with $50 can afford no bank train, only an offer for B&M's 2-0 (up to $50): once
    C has refused $50, nothing is left for its train step, and its turn moves on."""
    g = erie_buying()
    g.state.corporations["ERIE"].cash = 50  # setup: short of the bank's $80
    g.invalidate_caches()
    assert g.legal_actions()[:4] == [
        BuyTrain("ERIE", "2-0", 1),
        BuyTrain("ERIE", "2-0", 40),
        BuyTrain("ERIE", "2-0", 50),
        Pass("ERIE"),
    ]
    g.apply(BuyTrain("ERIE", "2-0", 50))
    g.apply(AnswerDeal("C", False))
    assert g.acting() == "ERIE" and g.state.round.step == "companies"
    assert not [a for a in g.legal_actions() if isinstance(a, BuyTrain)]


def test_a_refusal_bars_the_deal_one_way_only() -> None:
    """A refused B's $30 for SV, then took $40; B may offer SV back to A at any price: A
    refused to sell it, never to buy it."""
    g = second_stock_round()
    g.apply(TradePrivate("B", "SV", "A", 30))
    g.apply(AnswerDeal("A", False))
    g.apply(TradePrivate("B", "SV", "A", 40))
    g.apply(AnswerDeal("A", True))
    assert g.state.privates["SV"].owner == "B"
    assert g.state.round.refused == ["trade_private SV B buys from A 30"]
    g.apply(TradePrivate("B", "SV", "A", 25))
    assert g.acting() == "A"


def test_a_buyer_refused_at_face_value_may_offer_all_his_money() -> None:
    """Stock round 2: B's $20 for SV (face value) refused, the lists offer his $313; so he
    is not passed for want of a trade, and his turn goes on."""
    g = second_stock_round()
    g.apply(TradePrivate("B", "SV", "A", 20))
    g.apply(AnswerDeal("A", False))
    assert g.acting() == "B"
    assert TradePrivate("B", "SV", "A", 313) in g.legal_actions()
    assert TradePrivate("B", "SV", "A", 20) not in g.legal_actions()


def test_the_other_player_of_each_deal() -> None:
    """`deals.answerer`: who answers each kind of deal (None: no one, a bank train or a
    president dealing with himself)."""
    g = erie_buying()
    assert deals.answerer(g, BuyTrain("ERIE", "2-0", 40)) == "C"  # B&M's president
    assert deals.answerer(g, BuyTrain("ERIE", "2-1", 80)) is None  # the bank's
    assert deals.answerer(g, BuyCompany("ERIE", "SV", 20)) == "A"
    assert deals.answerer(g, BuyCompany("ERIE", "MH", 110)) is None  # D's, ERIE's president
    assert deals.answerer(g, TradePrivate("B", "SV", "A", 20)) == "A"
    assert deals.answerer(g, Pass("ERIE")) is None
    g = erie_buying(president="C")
    assert deals.answerer(g, BuyTrain("ERIE", "2-0", 1)) is None  # C presides both
