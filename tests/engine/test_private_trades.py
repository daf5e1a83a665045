"""Players trade privates in a stock round at an agreed price (seed 000/002), never in the first."""

from __future__ import annotations

import pytest
from scenario import actor, agreed

import eighteen
from eighteen.engine.actions import Bid, IllegalAction, Pass, TradePrivate
from eighteen.engine.game import Game

TITLE = eighteen.load_title("1830")


def auction_done(game: Game) -> None:
    """Ann SV $20, Bob CS $40, Cy DH $70, Ann MH $110, Bob CA $160, Cy BO $220 + B&O par."""
    for who, pid, price in [
        ("Ann", "SV", 20),
        ("Bob", "CS", 40),
        ("Cy", "DH", 70),
        ("Ann", "MH", 110),
        ("Bob", "CA", 160),
        ("Cy", "BO", 220),
    ]:
        game.apply(Bid(who, pid, price))
    game.apply(game.legal_actions()[0])  # Cy sets B&O's par
    assert game.state.round.kind == "stock"


def test_no_trades_in_the_first_stock_round() -> None:
    g = Game.new(TITLE, players=["Ann", "Bob", "Cy"])
    auction_done(g)
    assert not [a for a in g.legal_actions() if isinstance(a, TradePrivate)]
    before = g.state_hash()
    with pytest.raises(IllegalAction):
        g.apply(TradePrivate(actor(g), "SV", "Bob", 30))
    assert g.state_hash() == before


def second_stock_round() -> Game:
    g = Game.new(TITLE, players=["Ann", "Bob", "Cy"])
    auction_done(g)
    while g.state.round.kind == "stock" and g.state.round.number == 1:
        g.apply(Pass(actor(g)))
    while g.state.round.kind != "stock":
        g.apply(Pass(actor(g)))
    return g


def test_sale_and_purchase_in_a_later_stock_round() -> None:
    g = second_stock_round()
    who = g.acting()
    assert who == "Ann"  # nobody bought in the first stock round: Ann keeps the priority
    cash = {p.name: p.cash for p in g.state.players}
    offered = [a for a in g.legal_actions() if isinstance(a, TradePrivate)]
    assert TradePrivate("Ann", "SV", "Bob", 20) in offered  # sell her own, at face value
    assert TradePrivate("Ann", "CS", "Bob", 40) in offered  # buy Bob's, at face value
    agreed(g, TradePrivate("Ann", "SV", "Cy", 35), "Cy")  # any agreed price
    assert g.state.privates["SV"].owner == "Cy"
    assert g.state.player("Ann").cash == cash["Ann"] + 35
    assert g.state.player("Cy").cash == cash["Cy"] - 35
    assert g.acting() == "Ann"  # a trade does not use up the turn
    agreed(g, TradePrivate("Ann", "CA", "Bob", 1), "Bob")
    assert g.state.privates["CA"].owner == "Ann"
    assert g.state.player("Ann").cash == cash["Ann"] + 34


def test_illegal_trades_leave_no_trace() -> None:
    g = second_stock_round()
    before = g.state_hash()
    for bad in [
        TradePrivate("Ann", "SV", "Ann", 20),  # with himself
        TradePrivate("Ann", "CS", "Cy", 20),  # Cy does not own CS
        TradePrivate("Ann", "SV", "Bob", 0),  # less than $1
        TradePrivate("Ann", "SV", "Bob", 10_000),  # more than Bob has
        TradePrivate("Bob", "CS", "Ann", 40),  # not Bob's turn
    ]:
        with pytest.raises(IllegalAction):
            g.apply(bad)
        assert g.state_hash() == before
