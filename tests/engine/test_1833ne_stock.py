"""1833NE stock rounds (seed 003, "株式ラウンド" and the comparison's points 2 and 4):
starting a corporation at $40-$150 for twice the price into its treasury, treasury shares
at the current price, the 60% limit, who may sell before the first operation, the
president's one-step drop, the stock round's end, and the certificate limit that falls
when a corporation closes."""

from __future__ import annotations

import pytest
from ne_scenario import act, all_pass, auction, new_game, opening, to_stock_round
from scenario import actor

from eighteen.engine import finance, market, shares
from eighteen.engine.actions import BuyShares, IllegalAction, Par, Pass, SellShares
from eighteen.engine.state import IPO, POOL


def test_par_floats_at_once_with_twice_the_price() -> None:
    g = new_game()
    auction(g)
    with pytest.raises(IllegalAction, match="not a par price"):
        g.apply(Par("A", "B&W", 30))
    act(g, Par("A", "B&W", 150))
    bw = g.state.corporations["B&W"]
    assert bw.floated and bw.cash == 300 and g.state.player("A").cash == 100
    assert shares.percent_of(g, "B&W", IPO) == 80  # eight shares in its treasury


def test_treasury_share_costs_the_current_price_and_pays_the_corporation() -> None:
    g = opening()
    to_stock_round(g)  # no revenue in two rounds: $80 -> $70 -> $60
    assert market.price(g, "B&W") == 60
    treasury = g.state.corporations["B&W"].cash
    who = actor(g)
    cash = g.state.player(who).cash
    act(g, BuyShares(who, "B&W", "ipo"))
    assert g.state.player(who).cash == cash - 60
    assert g.state.corporations["B&W"].cash == treasury + 60


def test_only_the_president_sells_before_the_first_operation() -> None:
    g = new_game()
    auction(g)
    act(g, Par("A", "B&W", 80), BuyShares("B", "B&W", "ipo"), Pass("C"), Pass("D"))
    act(g, BuyShares("A", "B&W", "ipo"))
    with pytest.raises(IllegalAction, match="only its president may sell"):
        g.apply(SellShares("B", "B&W", 10))
    # the president may: one cell left for any number of shares
    act(g, Pass("B"), Pass("C"), Pass("D"), SellShares("A", "B&W", 10))
    assert market.price(g, "B&W") == 70


def test_a_presidents_sales_move_the_price_once_per_turn() -> None:
    """1833NE rules, share price: only the president's sale lowers the price, one column
    however many shares he sells: two sales of 10% in one turn move it once ($80 -> $70),
    as one sale of 20% does; a sale in a later turn moves it again."""
    g = new_game()
    auction(g)
    g.state.player("A").cash = 1000  # setup: A can buy 60%
    act(g, Par("A", "B&W", 80), Pass("B"), Pass("C"), Pass("D"))
    for _ in range(4):
        act(g, BuyShares("A", "B&W", "ipo"), Pass("B"), Pass("C"), Pass("D"))
    assert shares.percent_of(g, "B&W", "A") == 60
    act(g, SellShares("A", "B&W", 10))
    assert market.price(g, "B&W") == 70
    act(g, SellShares("A", "B&W", 10))
    assert market.price(g, "B&W") == 70  # the same turn: no second step
    act(g, Pass("A"), Pass("B"), Pass("C"), Pass("D"))
    act(g, SellShares("A", "B&W", 10))
    assert market.price(g, "B&W") == 60  # a later turn: one step again


def test_a_sale_by_another_player_does_not_move_the_price() -> None:
    g = new_game()
    auction(g)
    act(g, Par("A", "B&W", 80), BuyShares("B", "B&W", "ipo"), Pass("C"), Pass("D"))
    all_pass(g)
    to_stock_round(g)
    before = market.price(g, "B&W")
    while g.acting() != "B":
        act(g, Pass(actor(g)))
    act(g, SellShares("B", "B&W", 10))
    assert market.price(g, "B&W") == before


def test_the_president_certificate_never_goes_to_the_market() -> None:
    g = new_game()
    auction(g)
    act(g, Par("A", "B&W", 80), Pass("B"), Pass("C"), Pass("D"))
    with pytest.raises(IllegalAction, match="president's certificate"):
        g.apply(SellShares("A", "B&W", 20))


def test_sixty_percent_limit() -> None:
    g = new_game()
    auction(g)
    act(g, Par("A", "HR", 40))
    for _ in range(4):
        act(g, Pass("B"), Pass("C"), Pass("D"), BuyShares("A", "HR", "ipo"))
    act(g, Pass("B"), Pass("C"), Pass("D"))
    assert shares.percent_of(g, "HR", "A") == 60
    with pytest.raises(IllegalAction, match="holding limit"):
        g.apply(BuyShares("A", "HR", "ipo"))


def test_stock_round_end_moves_market_and_sold_out_corporations() -> None:
    g = opening()
    to_stock_round(g)
    # B&W wholly with players; one RR share in the market; CV's unsold shares are only in
    # its treasury
    for cert in shares.cert_ids(g, "B&W")[1:]:
        g.state.certs[cert] = "B" if cert.endswith(("_1", "_2", "_3", "_4")) else "A"
    g.state.certs["RR_1"] = POOL
    g.invalidate_caches()
    before = {c: market.price(g, c) for c in ("B&W", "RR", "CV")}
    all_pass(g)
    assert market.price(g, "B&W") == finance.price_at(g, "B&W", 0) > before["B&W"]
    assert market.price(g, "RR") < before["RR"]
    assert market.price(g, "CV") == before["CV"]


def test_certificate_limit_falls_when_a_corporation_closes() -> None:
    g = opening()
    assert shares.cert_limit(g) == 18  # four players, nine corporations
    finance.close(g, "RR")
    assert shares.cert_limit(g) == 16
    assert g.state.corporations["RR"].closed
    assert shares.percent_of(g, "RR", IPO) == 100
