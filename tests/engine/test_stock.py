"""Stock rounds: par, float and capitalization, presidency, limits, sales and prices.

Every game starts with scenario.opening(): A SV+CA, B CS+BO (B&O par $67), C DH, D MH;
cash A $420, B $340, C $530, D $490; stock round 1 begins with C.
"""

from __future__ import annotations

import pytest
from scenario import agreed, cash, money, opening, run, second_stock_round

from eighteen import IllegalAction
from eighteen.engine import market, shares
from eighteen.engine.actions import BuyShares, Par, Pass, SellShares, TradePrivate
from eighteen.engine.rounds import stock


def test_opening_cash_and_priority() -> None:
    g = opening()
    assert cash(g) == {"A": 420, "B": 340, "C": 530, "D": 490}
    assert g.state.round.kind == "stock" and g.acting() == "C"
    assert money(g) == 12000


def test_float_at_sixty_percent_with_full_capitalization() -> None:
    g = opening()
    run(
        g,
        Par("C", "B&M", 100),
        BuyShares("D", "B&M", "ipo"),
        BuyShares("A", "B&M", "ipo"),
        BuyShares("B", "B&M", "ipo"),
    )
    bm = g.state.corporations["B&M"]
    assert not bm.floated and bm.cash == 0  # 50% sold
    run(g, BuyShares("C", "B&M", "ipo"))
    bm = g.state.corporations["B&M"]  # apply() replaces the state object
    assert bm.floated and bm.cash == 1000  # 10 x par from the bank
    assert cash(g) == {"A": 320, "B": 240, "C": 230, "D": 390}
    assert g.state.bank == 12000 - 4 * 600 + 620 + 600 - 1000
    assert money(g) == 12000


def test_presidency_passes_to_the_larger_holder() -> None:
    g = opening()
    run(g, Par("C", "NYC", 67), BuyShares("D", "NYC", "ipo"), Pass("A"), Pass("B"), Pass("C"))
    run(g, BuyShares("D", "NYC", "ipo"), Pass("A"), Pass("B"), Pass("C"))
    assert g.state.corporations["NYC"].president == "C"  # 20% each: no change on a tie
    run(g, BuyShares("D", "NYC", "ipo"))
    assert g.state.corporations["NYC"].president == "D"
    assert g.state.certs["NYC_0"] == "D"
    assert shares.percent_of(g, "NYC", "D") == 30
    assert shares.percent_of(g, "NYC", "C") == 20
    assert len(shares.certs_of(g, "NYC", "C")) == 2  # two 10% in exchange
    # every owner's percent in one pass, the same as percent_of of each
    assert shares.percents(g, "NYC") == {"D": 30, "C": 20, "ipo": 50}
    assert shares.percents(g, "B&M") == {"ipo": 100}


def test_no_selling_in_the_first_stock_round() -> None:
    g = opening()
    run(g, Par("C", "NYC", 67), BuyShares("D", "NYC", "ipo"), Pass("A"), Pass("B"))
    with pytest.raises(IllegalAction, match="first stock round"):
        g.apply(SellShares("C", "NYC", 10))
    assert not any(isinstance(a, SellShares) for a in g.legal_actions())


def test_holding_limit_sixty_percent() -> None:
    g = opening()
    run(g, Par("C", "NYC", 67))
    for _ in range(4):
        run(g, Pass("D"), Pass("A"), Pass("B"), BuyShares("C", "NYC", "ipo"))
    assert shares.percent_of(g, "NYC", "C") == 60
    run(g, Pass("D"), Pass("A"), Pass("B"))
    with pytest.raises(IllegalAction, match="holding limit"):
        g.apply(BuyShares("C", "NYC", "ipo"))
    assert BuyShares("C", "NYC", "ipo") not in g.legal_actions()


def test_par_prices_come_from_the_market_par_cells() -> None:
    g = opening()
    with pytest.raises(IllegalAction, match="not a par price"):
        g.apply(Par("C", "NYC", 69))
    pars = sorted({a.price for a in g.legal_actions() if isinstance(a, Par)})
    assert pars == [67, 71, 76, 82, 90, 100]


def test_sold_out_corporation_rises_at_the_end_of_the_round() -> None:
    g = opening()
    run(g, Par("C", "NYC", 67))
    for p in ["D", "A", "B", "C", "D", "A", "B", "C"]:
        run(g, BuyShares(p, "NYC", "ipo"))
    assert shares.percent_of(g, "NYC", "ipo") == 0
    assert market.price(g, "NYC") == 67
    run(g, Pass("D"), Pass("A"), Pass("B"), Pass("C"))
    assert g.state.round.kind == "operating"
    assert market.price(g, "NYC") == 71  # one row up
    assert g.state.corporations["NYC"].cell == [4, 6]


def test_operating_round_one_forced_train_and_withhold() -> None:
    g = second_stock_round()
    bm = g.state.corporations["B&M"]
    assert bm.trains == ["2-0"] and bm.cash == 1000 - 80
    assert market.price(g, "B&M") == 90
    # privates paid once: SV 5 + CA 25, CS 10 + BO 30, DH 15, MH 20
    assert cash(g) == {"A": 250, "B": 313, "C": 245, "D": 276}
    assert g.acting() == "B"  # the player after A, the last to act
    assert money(g) == 12000


def test_sales_drop_the_price_one_row_per_share_unless_not_floated() -> None:
    g = second_stock_round()
    run(g, SellShares("B", "NYC", 10))
    assert market.price(g, "NYC") == 67  # NYC has not floated: its price does not move
    assert g.state.player("B").cash == 313 + 67
    run(g, BuyShares("B", "B&M", "ipo"))
    with pytest.raises(IllegalAction, match="already bought"):
        g.apply(BuyShares("B", "B&M", "ipo"))
    run(g, Pass("B"))
    run(g, SellShares("C", "B&M", 10))
    assert market.price(g, "B&M") == 82  # $90 -> one row down
    assert g.state.player("C").cash == 245 + 90
    with pytest.raises(IllegalAction, match="sold B&M this round"):
        g.apply(BuyShares("C", "B&M", "pool"))
    run(g, Pass("C"))
    with pytest.raises(IllegalAction, match="president's certificate"):
        g.apply(SellShares("D", "NYC", 10))  # nobody else holds NYC
    run(g, Pass("D"), Pass("A"), Pass("B"), Pass("C"))
    assert g.state.round.kind == "operating"
    assert g.state.priority == 3  # D: after C, the last to act


def test_president_sells_below_another_holder_and_swaps() -> None:
    g = second_stock_round()
    run(g, Pass("B"))
    run(g, SellShares("C", "B&M", 20))
    bm = g.state.corporations["B&M"]
    assert bm.president == "A" and g.state.certs["B&M_0"] == "A"
    assert shares.percent_of(g, "B&M", "A") == 20
    assert shares.percent_of(g, "B&M", "C") == 10
    assert shares.percent_of(g, "B&M", "pool") == 20
    assert g.state.player("C").cash == 245 + 180
    assert market.price(g, "B&M") == 76  # two rows down from $90


def test_president_cannot_dump_without_a_successor() -> None:
    g = second_stock_round()
    run(g, Pass("B"))
    # C sells everything: A (20%) takes over B&M
    run(g, SellShares("C", "B&M", 30), Pass("C"))
    assert g.state.corporations["B&M"].president == "A"
    assert shares.percent_of(g, "B&M", "C") == 0
    # D holds NYC's 20% president's certificate, B only 10%: nobody can take over
    with pytest.raises(IllegalAction, match="no other player can take the presidency"):
        g.apply(SellShares("D", "NYC", 20))


def test_pool_limit() -> None:
    g = second_stock_round()
    g.state.certs.update({f"B&M_{i}": "pool" for i in (6, 7, 8)})  # 30% already pooled
    g.state.certs.update({"B&M_4": "pool", "B&M_5": "pool"})  # and 20% more: 50%
    run(g, Pass("B"))
    with pytest.raises(IllegalAction, match="pool may hold at most 50%"):
        g.apply(SellShares("C", "B&M", 10))


def test_certificate_limit_and_yellow_zone_exemption() -> None:
    g = opening()
    # setup: A holds SV, CA, PRR_1 and 13 more certificates of unstarted corporations
    for cert in ["CPR_1", "CPR_2", "CPR_3", "CPR_4", "CPR_5", "C&O_1", "C&O_2", "C&O_3"]:
        g.state.certs[cert] = "A"
    for cert in ["C&O_4", "C&O_5", "ERIE_1", "ERIE_2", "ERIE_3"]:
        g.state.certs[cert] = "A"
    assert shares.cert_count(g, "A") == 16 == shares.cert_limit(g)
    run(g, Par("C", "B&M", 100), Pass("D"))
    # A can buy nothing: he is passed automatically
    assert "certificate limit" in str(stock.buy_problem(g, "A", "B&M", "ipo"))
    assert g.acting() == "B" and any(m == "A can do nothing" for _, m in g.events)
    # certificates of a corporation in a yellow cell do not count
    g.state.corporations["B&O"].cell = [5, 3]  # $50, yellow
    assert shares.cert_count(g, "A") == 16  # A holds no B&O
    g.state.certs["B&O_1"] = "A"
    assert shares.cert_count(g, "A") == 16
    g.state.corporations["B&O"].cell = [5, 6]
    assert shares.cert_count(g, "A") == 17


def test_brown_zone_buys_from_the_pool_only_with_the_18xx_games_reading() -> None:
    g = second_stock_round()
    # as option brown_pool_only_18xx_games sets it (the rules' own reading: seed audit)
    g.rules = g.rules.model_copy(update={"brown_multiple_buy_from_ipo": False})
    g.state.corporations["B&M"].cell = [7, 2]  # $30, brown: multiple buys
    g.state.certs.update({"B&M_5": "pool", "B&M_6": "pool", "B&M_7": "pool"})
    run(g, BuyShares("B", "B&M", "pool"), BuyShares("B", "B&M", "pool"))
    assert shares.percent_of(g, "B&M", "B") == 20
    with pytest.raises(IllegalAction, match="already bought"):
        g.apply(BuyShares("B", "NYC", "ipo"))  # NYC is not in a brown cell
    with pytest.raises(IllegalAction, match="pool only"):
        g.apply(BuyShares("B", "B&M", "ipo"))


def test_sales_before_float_follow_the_title_rule() -> None:
    """Seed 000: an unfloated corporation's marker does not move, except down when its
    shares are sold to the bank pool (1830's rules.sell_drop_before_float is true)."""
    g = second_stock_round()
    assert g.rules.sell_drop_before_float is True
    run(g, SellShares("B", "NYC", 10))
    assert g.state.corporations["NYC"].cell == [6, 6]  # one row down from the $67 par cell
    g = second_stock_round()
    # the other reading: no move before floating
    g.rules = g.rules.model_copy(update={"sell_drop_before_float": False})
    run(g, SellShares("B", "NYC", 10))
    assert g.state.corporations["NYC"].cell == [5, 6]


def test_the_lowest_par_price_decides_whether_a_poor_player_can_start_a_corporation() -> None:
    """Seed 000: par prices $67 to $100, the president's certificate 20%: starting a
    corporation costs at least $134.  C, with nothing else to buy (the B&O's shares all
    held by D), can trade with $134 and cannot with $133."""
    g = opening()
    assert stock.par_choices(g, "NYC") == [100, 90, 82, 76, 71, 67]
    assert stock.start_cost(g, "NYC", 67) == 134
    assert stock.start_cost(g, "NYC", 100) == 200
    for cert in shares.cert_ids(g, "B&O"):
        if g.state.certs[cert] != "B":
            g.state.certs[cert] = "D"
    step = stock.BuySellPar()
    for money_, can in ((133, False), (134, True)):
        g.state.player("C").cash = money_
        g.invalidate_caches()
        assert step.can_trade(g) is can
        legal = step.legal(g)
        assert [a for a in legal if isinstance(a, Par)][:1] == (
            [Par("C", "PRR", 67)] if can else []
        )


def test_after_a_private_a_brown_share_comes_from_the_pool_only_on_the_pool_only_reading() -> None:
    """18xx.games' reading without its multiple_brown_from_ipo (option
    brown_pool_only_18xx_games): every purchase after a turn's first, a private bought from
    a player included, comes from the pool.  B buys SV from A for $20 with B&M in a brown
    cell ($30): B&M's IPO shares are refused, its pool share is not.  (On the rules' reading
    the IPO share may follow: test_1830_rules.)"""
    g = second_stock_round(options=["brown_pool_only_18xx_games"])
    g.state.corporations["B&M"].cell = [7, 2]  # setup: B&M at $30, a brown cell
    g.state.certs["B&M_5"] = "pool"
    agreed(g, TradePrivate("B", "SV", "A", 20), "A")  # (A accepts)
    with pytest.raises(IllegalAction, match="several certificates in one turn come from the pool"):
        g.apply(BuyShares("B", "B&M", "ipo"))
    assert BuyShares("B", "B&M", "ipo") not in g.legal_actions()
    run(g, BuyShares("B", "B&M", "pool"))
    assert shares.percent_of(g, "B&M", "B") == 10
    assert g.state.player("B").cash == 313 - 20 - 30


def test_after_a_private_a_player_left_only_a_brown_ipo_share_ends_his_turn() -> None:
    """The same reading, with 18xx.games' private trades (a private is sold in its buyer's
    turn only): B holds nothing he may sell (NYC's share set aside, B&O's presidency
    untakeable) and B&M's pool is empty.  After buying SV his only purchase would be an IPO
    share of B&M, which the reading refuses: his turn ends by itself, as 18xx.games ends a
    turn with no action left, and C acts."""
    readings = ["brown_pool_only_18xx_games", "private_trades_18xx_games"]
    g = second_stock_round(options=readings)
    g.state.corporations["B&M"].cell = [7, 2]  # setup: B&M at $30, a brown cell
    g.state.certs["NYC_1"] = "D"  # setup: B's NYC share goes to D
    agreed(g, TradePrivate("B", "SV", "A", 20), "A")  # (A accepts)
    assert g.acting() == "C"
    assert g.state.round.passes == 0  # his turn traded: no pass
    assert g.state.round.last_actor == "B"
    # the rules' reading of the brown zone: the IPO share may follow, so his turn goes on
    g = second_stock_round(options=["private_trades_18xx_games"])
    g.state.corporations["B&M"].cell = [7, 2]
    g.state.certs["NYC_1"] = "D"
    agreed(g, TradePrivate("B", "SV", "A", 20), "A")
    assert g.acting() == "B"
    assert [a for a in g.legal_actions() if isinstance(a, BuyShares)] == [
        BuyShares("B", "B&M", "ipo")
    ]
