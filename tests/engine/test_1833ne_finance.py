"""1833NE corporate finance (seed 003, "運営ラウンド" 1 and 4, "株価", "緊急売却"): price
moves by the ratio of the pay-out to the price, half pay-outs, closing at $0, issuing and
redeeming, and the emergency money order (treasury, issue on worse terms, president's
cash, president's shares) down to a bankrupt player leaving the game."""

from __future__ import annotations

import pytest
from ne_scenario import act, lay, opening, pass_to, set_cash

from eighteen import Game
from eighteen.engine import finance, market, shares, trains
from eighteen.engine.actions import (
    Bankrupt,
    BuyTrain,
    Dividend,
    IllegalAction,
    IssueShares,
    Pass,
    RunRoutes,
    SellShares,
)
from eighteen.engine.state import POOL


def _set_price(g: Game, corp: str, price: int) -> None:
    cell = next(p for p in g.tables._cells if g.tables.cell(p).price == price)
    market.place(g, corp, cell)
    g.invalidate_caches()


@pytest.mark.parametrize(
    ("price", "paid", "steps"),
    [
        (70, 34, -1),  # under half the price: left
        (70, 35, 0),  # half to the price: stays
        (70, 100, 1),  # at least the price (seed step 12: $70 -> $80)
        (70, 140, 2),  # twice
        (10, 80, 2),  # three times but under $165 (seed step 15: $10 -> $30)
        (165, 495, 3),  # three times at $165 or more
        (150, 1000, 2),
        (80, 0, -1),  # nothing paid (withheld or no run)
    ],
)
def test_price_moves_by_the_ratio_of_the_pay_out(price: int, paid: int, steps: int) -> None:
    g = opening()
    _set_price(g, "RR", price)
    assert finance.ratio_steps(g, "RR", paid) == steps


def test_half_pay_out_keeps_half_rounded_down_to_ten() -> None:
    g = opening()
    assert finance.half_split(g, 100) == (50, 50)
    assert finance.half_split(g, 90) == (40, 50)
    assert finance.half_split(g, 30) == (10, 20)


def test_price_zero_closes_the_corporation() -> None:
    g = opening()
    _set_price(g, "RR", 10)
    rr = g.state.corporations["RR"]
    rr.trains = ["2-7"]
    g.state.depot.remove("2-7")
    finance.move_steps(g, "RR", -1)
    assert rr.closed and rr.cash == 0 and rr.trains == [] and rr.president is None
    assert shares.percent_of(g, "RR", "B") == 0
    assert all(rr.id not in t for cities in g.state.map.tokens.values() for t in cities)


def test_issue_limit_price_and_redeem() -> None:
    g = opening()
    assert g.acting() == "B&W" and g.state.round.step == "issue"
    # A holds the president's certificate (2 shares), none in the market: 2 at most
    assert finance.issue_options(g, "B&W") == [1, 2]
    assert finance.issue_price(g, "B&W") == 70
    act(g, IssueShares("B&W", 2))
    assert g.state.corporations["B&W"].cash == 160 + 140
    assert shares.percent_of(g, "B&W", POOL) == 20 and market.price(g, "B&W") == 80
    assert g.state.round.step == "track"  # one issue or redemption a turn
    # redemption: one cell above the price, from the market
    assert finance.redeem_price(g, "B&W") == 90
    assert finance.redeem_options(g, "B&W") == [1, 2]
    finance.redeem(g, "B&W", 2)
    assert g.state.corporations["B&W"].cash == 300 - 180
    assert shares.percent_of(g, "B&W", POOL) == 0


def _to_forced_purchase(g: Game) -> None:
    """B&W lays track to Framingham (a route) and reaches its train step with no train."""
    act(g, Pass("B&W"))
    act(g, lay(g, "B&W", "F23", "58", ["G22", "E22"]))
    pass_to(g, "B&W", "trains")


def test_emergency_issue_only_as_needed() -> None:
    g = opening()
    _to_forced_purchase(g)
    set_cash(g, "B&W", 20)
    _set_price(g, "B&W", 80)
    # the cheapest card's sides cost $75 and $100: the treasury ($20) first, then an issue
    # on worse terms: each share drops the price a cell and sells a cell below the price
    # it drops to (1 share: $80 -> $70, sold at $60; 2: then $70 -> $60, sold at $50)
    assert finance.emergency_yield(g, "B&W", 1) == 60
    assert finance.emergency_yield(g, "B&W", 2) == 60 + 50
    assert g.legal_actions() == [IssueShares("B&W", 1), IssueShares("B&W", 2)]
    with pytest.raises(IllegalAction, match="must first issue"):
        g.apply(BuyTrain("B&W", "2-0", 75))
    act(g, IssueShares("B&W", 1))
    assert market.price(g, "B&W") == 70 and g.state.corporations["B&W"].cash == 80
    assert shares.percent_of(g, "B&W", POOL) == 10
    # $80: the cheaper side only, and nobody adds money for the dearer one
    buys = [a for a in g.legal_actions() if isinstance(a, BuyTrain)]
    assert buys == [BuyTrain("B&W", "2-0", 75)]


def test_emergency_issue_each_share_a_step_lower() -> None:
    g = opening()
    _to_forced_purchase(g)
    set_cash(g, "B&W", 0)
    _set_price(g, "B&W", 80)
    # nothing in the treasury: one share ($60) is short of the $75 train, two reach both
    # sides of the card ($60 + $50 = $110 >= $100)
    assert g.legal_actions() == [IssueShares("B&W", 2)]
    act(g, IssueShares("B&W", 2))
    assert market.price(g, "B&W") == 60
    assert g.state.corporations["B&W"].cash == 110
    assert shares.percent_of(g, "B&W", POOL) == 20
    buys = [a for a in g.legal_actions() if isinstance(a, BuyTrain)]
    assert buys == [BuyTrain("B&W", "2-0", 75), BuyTrain("B&W", "2+1-0", 100)]


def _a_holds_rr(g: Game, price: int) -> None:
    """A holds 10% of RR (operated, at ``price``) and nothing else but B&W's certificate."""
    g.state.certs["RR_1"] = "A"
    g.state.corporations["RR"].operated = True
    _set_price(g, "RR", price)


def test_emergency_money_in_order_then_bankruptcy() -> None:
    g = opening()
    _to_forced_purchase(g)
    set_cash(g, "B&W", 0)
    _set_price(g, "B&W", 30)
    a = g.state.player("A")
    g.state.bank += a.cash
    a.cash = 0
    _a_holds_rr(g, 30)
    for cert in ("B&W_1", "B&W_2", "B&W_3"):
        g.state.certs[cert] = "B"
    g.invalidate_caches()
    # B&W $0 + issue $10 + A's $0 + A's RR share $30 = $40 < $75: he is bankrupt in the
    # end, but only after the treasury, the issue and his shares are spent
    assert g.legal_actions() == [IssueShares("B&W", 1)]
    with pytest.raises(IllegalAction, match="can still raise money"):
        g.apply(Bankrupt("B&W"))
    act(g, IssueShares("B&W", 1))  # $30 -> $20, sold at $10
    assert g.state.corporations["B&W"].cash == 10 and market.price(g, "B&W") == 20
    acts = g.legal_actions()
    assert Bankrupt("B&W") not in acts
    assert [x for x in acts if not isinstance(x, BuyTrain)] == [SellShares("A", "RR", 10)]
    with pytest.raises(IllegalAction, match="can still raise money"):
        g.apply(Bankrupt("B&W"))
    g.apply(SellShares("A", "RR", 10))  # not RR's president: its price stays
    assert g.state.player("A").cash == 30 and market.price(g, "RR") == 30
    assert g.legal_actions() == [Bankrupt("B&W")]
    act(g, Bankrupt("B&W"))
    # the money raised goes to the corporation; A leaves, the game goes on and B, the new
    # president, must buy the train
    assert g.state.corporations["B&W"].cash == 40
    assert g.state.eliminated == ["A"] and not g.is_over
    assert g.state.corporations["B&W"].president == "B" and g.acting() == "B&W"


def test_president_cash_then_his_shares_pay_for_the_train() -> None:
    g = opening()
    _to_forced_purchase(g)
    set_cash(g, "B&W", 0)
    _set_price(g, "B&W", 30)
    a = g.state.player("A")
    g.state.bank += a.cash - 30
    a.cash = 30
    _a_holds_rr(g, 100)
    act(g, IssueShares("B&W", 1))  # $10 raised
    # B&W $10 + A's $30 is short of $75 by $35: A must sell, and no bankruptcy is offered
    acts = g.legal_actions()
    assert Bankrupt("B&W") not in acts and SellShares("A", "RR", 10) in acts
    with pytest.raises(IllegalAction, match="sell shares or go bankrupt"):
        g.apply(BuyTrain("B&W", "2-0", 75))
    g.apply(SellShares("A", "RR", 10))
    assert g.state.player("A").cash == 130
    act(g, BuyTrain("B&W", "2-0", 75))
    assert g.state.player("A").cash == 130 - 65 and g.state.corporations["B&W"].cash == 0
    assert g.state.corporations["B&W"].trains == ["2-0"]


def test_president_pays_for_the_cheaper_side_after_the_issue() -> None:
    g = opening()
    _to_forced_purchase(g)
    set_cash(g, "B&W", 0)
    _set_price(g, "B&W", 30)
    # at $30 one share can be issued (price $20, sold at $10); a second would sell for $0
    assert g.legal_actions() == [IssueShares("B&W", 1)]
    act(g, IssueShares("B&W", 1))
    assert market.price(g, "B&W") == 20 and g.state.corporations["B&W"].cash == 10
    buys = [a for a in g.legal_actions() if isinstance(a, BuyTrain)]
    assert buys == [BuyTrain("B&W", "2-0", 75)]
    a_cash = g.state.player("A").cash
    act(g, buys[0])
    assert g.state.player("A").cash == a_cash - 65
    assert g.state.corporations["B&W"].trains == ["2-0"]


def test_bankrupt_president_leaves_and_the_game_goes_on() -> None:
    g = opening()
    _to_forced_purchase(g)
    set_cash(g, "B&W", 0)
    _set_price(g, "B&W", 20)  # no emergency issue below $20 after the drop
    a = g.state.player("A")
    g.state.bank += a.cash
    a.cash = 0
    g.state.certs["B&W_1"] = "B"
    g.state.certs["B&W_2"] = "B"
    g.state.certs["B&W_3"] = "B"
    g.invalidate_caches()
    assert finance.emergency_options(g, "B&W", 75, 100) == []
    assert g.legal_actions() == [Bankrupt("B&W")]
    act(g, Bankrupt("B&W"))
    assert not g.is_over and g.state.eliminated == ["A"]
    # A's president's certificate went to the market without moving the price; B, with
    # 30%, takes the presidency (two shares back to the market) and must buy the train
    assert market.price(g, "B&W") == 20
    assert g.state.corporations["B&W"].president == "B"
    assert shares.percent_of(g, "B&W", "B") == 30
    assert shares.percent_of(g, "B&W", POOL) == 20
    assert g.state.privates["P3"].closed  # A's private
    assert g.acting() == "B&W"
    assert any(isinstance(x, BuyTrain) for x in g.legal_actions())


def test_phased_out_trains_leave_after_their_last_run() -> None:
    g = opening()
    _to_forced_purchase(g)
    set_cash(g, "B&W", 500)
    act(g, BuyTrain("B&W", "2-0", 75), BuyTrain("B&W", "2+1-1", 100))
    assert g.state.corporations["B&W"].trains == ["2-0", "2+1-1"]
    # phase III begins: the phase-I card is phased out
    g.state.bought_types += ["3/5", "4/7"]
    g.state.phase = g.tables.phase_index("III")
    g.invalidate_caches()
    assert trains.is_obsolete(g, "2-0") and trains.is_obsolete(g, "2+1-1")
    assert trains.counted(g, "B&W") == []  # not counted toward the limit
    assert not trains.tradable(g, "2-0")
    ran = False
    while g.state.round.kind != "stock":
        acts = g.legal_actions()
        if g.acting() == "B&W" and any(isinstance(x, RunRoutes) for x in acts):
            act(g, next(x for x in acts if isinstance(x, RunRoutes)))
            act(g, Dividend("B&W", "withhold"))
            assert g.state.corporations["B&W"].trains == []  # ran once more, then left
            ran = True
            break
        passes = [x for x in acts if isinstance(x, Pass)]
        g.apply(passes[0] if passes else acts[0])
    assert ran


def test_half_pay_out_in_play() -> None:
    g = opening()
    act(g, Pass("B&W"))
    act(g, lay(g, "B&W", "F23", "58", ["G22", "E22"]))
    act(g, lay(g, "B&W", "E22", "57", ["F23"]))
    pass_to(g, "B&W", "trains")
    act(g, BuyTrain("B&W", "2+1-0", 100))
    while not (g.acting() == "B&W" and g.state.round.step == "routes"):
        acts = g.legal_actions()
        passes = [x for x in acts if isinstance(x, Pass)]
        g.apply(passes[0] if passes else acts[0])
    (run,) = [x for x in g.legal_actions() if isinstance(x, RunRoutes)]
    assert [r.revenue for r in run.routes] == [60]  # Boston 30 + Framingham 10 + Worcester 20
    a_cash, treasury, price = g.state.player("A").cash, g.state.corporations["B&W"].cash, 70
    assert market.price(g, "B&W") == price
    act(g, run, Dividend("B&W", "half"))
    # B&W keeps $30; $30 is paid, $3 a share: A (20%) $6, the eight treasury shares $24
    assert g.state.player("A").cash == a_cash + 6
    assert g.state.corporations["B&W"].cash == treasury + 30 + 24
    assert market.price(g, "B&W") == 60  # $30 paid is under half of $70: one cell left


def test_the_game_ends_when_the_last_corporation_closes() -> None:
    g = opening()
    open_ids = [cid for cid, cs in g.state.corporations.items() if not cs.closed]
    for cid in open_ids[:-1]:
        finance.close(g, cid)
    assert not g.state.game_over  # one corporation is still open
    _set_price(g, open_ids[-1], 10)
    finance.move_steps(g, open_ids[-1], -1)  # $10 -> $0: the last one closes
    assert g.state.game_over and g.state.end_reason == "every corporation closed"
    assert g.acting() is None
