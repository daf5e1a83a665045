"""Operating rounds: routes and dividends, trains, phases, privates, forced purchases.

Games start from scenario.second_stock_round(): B&M (president C 30%, A 20%, D 10%) has
floated at $100, bought a 2-train in operating round 1 and stands at $90 with $920.
"""

from __future__ import annotations

import pytest
from scenario import agreed, cash, money, run, second_stock_round

from eighteen import Game, IllegalAction
from eighteen.engine import market, network, privates, trains, views
from eighteen.engine.actions import (
    Bankrupt,
    BuyCompany,
    BuyTrain,
    DiscardTrain,
    Dividend,
    ExchangePrivate,
    LayTile,
    Pass,
    PlaceToken,
    RouteSpec,
    RunRoutes,
    SellShares,
    TradePrivate,
)
from eighteen.engine.rounds.or_track import lay_options

BOSTON_MANSFIELD = RouteSpec("2-0", ("E23:c0-e5", "F24:e2-t0"), 40)


def second_operating_round(g: Game | None = None) -> Game:
    """Stock round 2 passes (of ``g``, by default the scenario's second stock round); B&M
    operates (track step) in the next operating round."""
    g = g or second_stock_round()
    run(g, Pass("B"), Pass("C"), Pass("D"), Pass("A"))
    assert g.acting() == "B&M" and g.state.round.step == "track"
    return g


def set_phase(g: Game, phase_id: str, sold_types: list[str]) -> None:
    """Setup: the bank has sold every train of ``sold_types`` (now in nobody's hands)."""
    g.state.phase = g.tables.phase_index(phase_id)
    g.state.depot = [t for t in g.state.depot if trains.train_type(t) not in sold_types]
    g.state.bought_types = sorted(set(g.state.bought_types) | set(sold_types))
    g.invalidate_caches()


def test_run_and_pay_out() -> None:
    g = second_operating_round()
    before = cash(g)
    run(g, Pass("B&M"))  # no tile
    assert g.legal_actions() == [
        RunRoutes("B&M", (RouteSpec("2-0", BOSTON_MANSFIELD.paths, 40, ("E23-c0", "F24-t0")),))
    ]
    run(g, RunRoutes("B&M", (BOSTON_MANSFIELD,)))
    run(g, Dividend("B&M", "payout"))
    after = cash(g)
    # $4 per 10%: C 30%, A 20%, D 10%; the IPO's 40% pays nobody
    assert {p: after[p] - before[p] for p in after} == {"A": 8, "B": 0, "C": 12, "D": 4}
    assert g.state.corporations["B&M"].cash == 920
    assert market.price(g, "B&M") == 100  # one cell right
    assert money(g) == 12000


def test_withhold() -> None:
    g = second_operating_round()
    run(g, Pass("B&M"), RunRoutes("B&M", (BOSTON_MANSFIELD,)), Dividend("B&M", "withhold"))
    assert g.state.corporations["B&M"].cash == 960
    assert market.price(g, "B&M") == 82  # one cell left


def test_pool_shares_pay_the_corporation() -> None:
    g = second_stock_round()
    run(g, Pass("B"), SellShares("C", "B&M", 10), Pass("C"), Pass("D"), Pass("A"), Pass("B"))
    run(g, Pass("C"), Pass("B&M"), RunRoutes("B&M", (BOSTON_MANSFIELD,)))
    run(g, Dividend("B&M", "payout"))
    assert g.state.corporations["B&M"].cash == 920 + 4  # the pool's 10%


def test_submitted_routes_are_checked() -> None:
    g = second_operating_round()
    run(g, Pass("B&M"))
    h = g.state_hash()
    with pytest.raises(IllegalAction, match="earns \\$40"):
        g.apply(RunRoutes("B&M", (RouteSpec("2-0", BOSTON_MANSFIELD.paths, 50),)))
    with pytest.raises(IllegalAction, match="does not own train"):
        g.apply(RunRoutes("B&M", (RouteSpec("3-0", BOSTON_MANSFIELD.paths, 40),)))
    with pytest.raises(IllegalAction, match="illegal route"):
        g.apply(RunRoutes("B&M", (RouteSpec("2-0", ("E23:c0-e5",), 30),)))
    assert g.state_hash() == h
    run(g, RunRoutes("B&M", ()))  # running nothing is allowed: no revenue, price falls
    assert market.price(g, "B&M") == 82


def test_terrain_cost_and_token() -> None:
    g = second_operating_round()
    lays = [a for a in g.legal_actions() if isinstance(a, LayTile)]
    assert {a.hex for a in lays} == {"D22", "F22"}  # the mountain, and past Mansfield
    run(g, LayTile("B&M", "D22", "8", 2))
    assert g.state.corporations["B&M"].cash == 920 - 120
    assert g.state.map.tiles["D22"] == ("8", 2)


def test_blocked_hex_while_a_player_owns_the_private() -> None:
    g = second_operating_round()
    g.state.privates["SV"].owner = "A"  # SV blocks G15
    assert "G15" in privates.blocked_hexes(g)
    g.state.privates["SV"].owner = "B&M"
    assert "G15" not in privates.blocked_hexes(g)


def test_buying_the_first_four_rusts_twos_and_lowers_the_limit() -> None:
    g = second_operating_round()
    set_phase(g, "3", ["2", "3"])
    run(g, Pass("B&M"), RunRoutes("B&M", (BOSTON_MANSFIELD,)), Dividend("B&M", "withhold"))
    offers = [a for a in g.legal_actions() if isinstance(a, BuyTrain)]
    assert offers == [BuyTrain("B&M", "4-0", 300)]  # cheapest type only
    run(g, BuyTrain("B&M", "4-0", 300))
    bm = g.state.corporations["B&M"]
    assert bm.trains == ["4-0"]  # the 2-train rusted
    assert g.tables.phases[g.state.phase].id == "4"
    assert bm.cash == 960 - 300


def test_first_five_closes_privates_and_forces_discards() -> None:
    g = second_operating_round()
    set_phase(g, "4", ["2", "3", "4"])
    g.state.corporations["B&M"].trains = ["4-0", "4-1"]  # setup: phase-4 fleet
    run(g, Pass("B&M"))
    run(g, g.legal_actions()[0], Dividend("B&M", "withhold"))
    run(g, BuyTrain("B&M", "5-0", 450))
    assert all(ps.closed for ps in g.state.privates.values())
    assert g.tables.phases[g.state.phase].id == "5"
    # limit 2: B&M holds three and must discard one
    assert g.acting() == "B&M"
    assert {type(a) for a in g.legal_actions()} == {DiscardTrain}
    run(g, DiscardTrain("B&M", "4-0"))
    assert g.state.corporations["B&M"].trains == ["4-1", "5-0"]
    assert g.state.train_pool == ["4-0"]
    assert money(g) == 12000


def test_d_train_trade_in() -> None:
    g = second_operating_round()
    set_phase(g, "6", ["2", "3", "4", "5"])
    g.state.depot = ["6-1"]  # one 6 left: the D is on sale as well from phase 6
    g.state.corporations["B&M"].trains = ["4-0"]
    g.state.corporations["B&M"].cash = 2000
    run(g, Pass("B&M"))
    run(g, g.legal_actions()[0], Dividend("B&M", "withhold"))
    offers = {(a.train, a.price, a.exchange) for a in g.legal_actions() if isinstance(a, BuyTrain)}
    assert offers == {("6-1", 630, None), ("D-0", 1100, None), ("D-0", 800, "4-0")}
    run(g, BuyTrain("B&M", "D-0", 800, "4-0"))
    assert g.state.corporations["B&M"].trains == ["D-0"]
    assert g.tables.phases[g.state.phase].id == "D"
    assert g.state.train_pool == []  # the traded-in 4 rusted with the others


def test_buy_train_from_another_corporation() -> None:
    g = second_operating_round()
    g.state.corporations["NYC"].trains = ["3-0"]  # setup
    run(g, Pass("B&M"), RunRoutes("B&M", (BOSTON_MANSFIELD,)), Dividend("B&M", "withhold"))
    with pytest.raises(IllegalAction, match="at least \\$1"):
        g.apply(BuyTrain("B&M", "3-0", 0))
    agreed(g, BuyTrain("B&M", "3-0", 1), "D")  # (D, NYC's president, agrees)
    assert g.state.corporations["B&M"].trains == ["2-0", "3-0"]
    assert g.state.corporations["NYC"].cash == 1


def forced_purchase_game(president_cash: int) -> Game:
    """B&M has no train, $50, and a route: it must buy the 4-train ($300)."""
    g = second_operating_round()
    set_phase(g, "4", ["2", "3"])
    g.state.corporations["B&M"].trains = []
    g.state.corporations["B&M"].cash = 50
    g.state.player("C").cash = president_cash
    run(g, Pass("B&M"))  # track; no train: no route run, the price falls
    assert g.state.round.step == "trains"
    return g


def test_forced_purchase_with_the_presidents_cash() -> None:
    g = forced_purchase_game(president_cash=400)
    assert Pass("B&M") not in g.legal_actions()
    run(g, BuyTrain("B&M", "4-0", 300))
    assert g.state.player("C").cash == 150
    assert g.state.corporations["B&M"].cash == 0


def test_forced_purchase_sells_only_what_is_needed() -> None:
    g = forced_purchase_game(president_cash=245)
    # 50 + 245 = 295 < 300: C must sell; B&M is at $82 after the withhold
    sells = [a for a in g.legal_actions() if isinstance(a, SellShares)]
    assert sells == [SellShares("C", "B&M", 10)]  # 20% would be more than needed
    with pytest.raises(IllegalAction, match="only as many"):
        g.apply(SellShares("C", "B&M", 20))
    run(g, SellShares("C", "B&M", 10))
    assert g.state.corporations["B&M"].president == "C"
    run(g, BuyTrain("B&M", "4-0", 300))
    assert g.state.player("C").cash == 245 + 82 - 250


def test_bankruptcy_ends_the_game() -> None:
    g = forced_purchase_game(president_cash=0)
    # setup: C keeps only the president's 20% (his 10% went to the pool); A holds 20%
    c_ordinary = [c for c in g.state.certs if c.startswith("B&M_") and c != "B&M_0"]
    g.state.certs[next(c for c in c_ordinary if g.state.certs[c] == "C")] = "pool"
    g.invalidate_caches()
    # C may sell his D&H to another player (at face here; any agreed price), but need not;
    # B&M may still buy privates from players, at any time of its turn (its $50 then
    # leaves C short by more)
    assert g.legal_actions() == [
        *(TradePrivate("C", "DH", p, 70) for p in ("A", "B", "D")),
        Bankrupt("B&M"),
        *(BuyCompany("B&M", "SV", p) for p in (10, 20, 40)),
        *(BuyCompany("B&M", "CS", p) for p in (20, 40, 50)),
        *(BuyCompany("B&M", "DH", p) for p in (35, 50)),
    ]
    run(g, Bankrupt("B&M"))
    assert g.is_over and g.state.end_reason == "bankruptcy"
    assert g.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        g.apply(Pass("B&M"))


def test_corporation_buys_a_private_from_a_player_in_phase_three() -> None:
    g = second_operating_round()
    assert not any(isinstance(a, BuyCompany) for a in g.legal_actions())  # phase 2
    set_phase(g, "3", ["2"])
    buys = {(a.private, a.price) for a in g.legal_actions() if isinstance(a, BuyCompany)}
    assert ("SV", 10) in buys and ("SV", 40) in buys and ("CS", 20) in buys
    assert not any(p == "BO" for p, _ in buys)  # never sold to a corporation
    with pytest.raises(IllegalAction, match="\\$10 to \\$40"):
        g.apply(BuyCompany("B&M", "SV", 41))
    before = g.state.player("A").cash
    agreed(g, BuyCompany("B&M", "SV", 40), "A")  # (A's, who accepts)
    assert g.state.privates["SV"].owner == "B&M"
    assert g.state.player("A").cash == before + 40
    assert g.acting() == "B&M" and g.state.round.step == "track"  # any time in the turn


def test_dh_lays_scranton_then_tokens_it_free() -> None:
    g = second_operating_round()
    g.state.privates["DH"].owner = "B&M"  # setup: bought earlier
    run(g, LayTile("B&M", "F16", "57", 0, "DH"))
    assert g.state.corporations["B&M"].cash == 920 - 120  # the mountain
    assert PlaceToken("B&M", "F16", 0) in g.legal_actions()
    run(g, PlaceToken("B&M", "F16", 0))
    assert g.state.corporations["B&M"].cash == 800  # the token was free
    assert g.state.map.tokens["F16"] == [["B&M"]]
    assert 1 in g.state.privates["DH"].used


def test_cs_extra_lay_is_free_and_does_not_use_the_normal_lay() -> None:
    g = second_operating_round()
    g.state.privates["CS"].owner = "B&M"
    g.invalidate_caches()
    opts = [(lay.hex, p) for lay, _, p, _ in lay_options(g)]
    assert ("B20", "CS") in opts and ("D22", None) in opts
    lay = next(a for a in g.legal_actions() if isinstance(a, LayTile) and a.private == "CS")
    run(g, lay)
    assert g.state.corporations["B&M"].cash == 920
    assert any(isinstance(a, LayTile) and a.private is None for a in g.legal_actions())


def test_mh_exchange_for_a_share() -> None:
    g = second_stock_round()
    run(g, Pass("B"), Pass("C"))
    assert ExchangePrivate("D", "MH", "ipo") in g.legal_actions()
    run(g, ExchangePrivate("D", "MH", "ipo"))
    assert g.state.privates["MH"].closed
    assert g.state.certs["NYC_2"] == "D"
    assert g.acting() == "D"  # the exchange does not use the turn


def test_operating_order_by_price_then_column_row_and_arrival() -> None:
    g = second_stock_round()
    cs = g.state.corporations
    market.place(g, "NYC", (1, 6))  # $90
    market.place(g, "PRR", (0, 5))  # $90, further left
    market.place(g, "CPR", (2, 7))  # $90, further right, lower row
    market.place(g, "ERIE", (1, 6))  # $90, arrives after NYC
    market.place(g, "C&O", (0, 6))  # $100
    assert market.operating_order(g, ["NYC", "PRR", "CPR", "ERIE", "C&O"]) == [
        "C&O",
        "CPR",
        "NYC",
        "ERIE",
        "PRR",
    ]
    assert cs["NYC"].arrival < cs["ERIE"].arrival


def test_network_adapter_offers_home_token_choice() -> None:
    g = second_operating_round()
    assert network.home_options(g, "ERIE") == []  # printed, trackless: the pick waits
    network.board(g).lay_tile(g.state.map, "E11", "59", 0)  # setup: track on E11
    g.invalidate_caches()
    assert network.home_options(g, "ERIE") == [("E11", 0), ("E11", 1)]


def test_discarded_train_is_sold_again_at_list_price() -> None:
    g = second_operating_round()
    set_phase(g, "4", ["2", "3"])
    g.state.depot.remove("4-0")
    g.state.train_pool = ["4-0"]  # setup: discarded earlier
    run(g, Pass("B&M"), RunRoutes("B&M", (BOSTON_MANSFIELD,)), Dividend("B&M", "withhold"))
    offers = {(a.train, a.price) for a in g.legal_actions() if isinstance(a, BuyTrain)}
    assert offers == {("4-1", 300), ("4-0", 300)}
    run(g, BuyTrain("B&M", "4-0", 300))
    assert g.state.train_pool == [] and g.state.depot[0] == "4-1"


def test_bo_closes_when_b_and_o_buys_its_first_train() -> None:
    g = second_stock_round()
    for cert in ("B&O_1", "B&O_2", "B&O_3", "B&O_4"):
        g.state.certs[cert] = "A"  # setup: B&O has 60% sold ...
    g.state.corporations["B&O"].floated = True  # ... and floated at $67
    g.state.corporations["B&O"].cash = 670
    run(g, Pass("B"), Pass("C"), Pass("D"), Pass("A"))
    while g.acting() != "B&O":
        g.apply(next(a for a in g.legal_actions() if isinstance(a, Pass | RunRoutes | Dividend)))
    while not any(isinstance(a, BuyTrain) for a in g.legal_actions()):
        run(g, Pass("B&O"))
    assert not g.state.privates["BO"].closed
    run(g, BuyTrain("B&O", "2-1", 80))
    assert g.state.privates["BO"].closed


def test_hopeless_president_may_declare_bankruptcy_at_once() -> None:
    g = forced_purchase_game(president_cash=0)
    g.state.depot = [t for t in g.state.depot if not t.startswith("4-")]  # 5-train: $450
    g.invalidate_caches()
    # $50 + $0 + C's 10% of B&M ($82) < $450: bankruptcy is allowed without selling
    assert Bankrupt("B&M") in g.legal_actions()
    assert SellShares("C", "B&M", 10) in g.legal_actions()
    g.state.player("C").cash = 5
    g.invalidate_caches()
    run(g, Bankrupt("B&M"))
    assert g.state.corporations["B&M"].cash == 55  # the president's cash goes in
    assert g.state.player("C").cash == 0
    assert g.state.certs["B&M_0"] == "C"  # shares stay for the final score (seed 002)
    assert dict(views.ranking(g))["C"] == 30 * 82 // 10 + 70  # 30% at $82 + DH at face
