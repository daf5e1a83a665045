"""1830 rules that the 18xx.games corpus brought to light, each as a scenario.

Games start from scenario.second_stock_round(): B&M (president C) has floated at $100 and
stands at $90; NYC is started at $67 by D with B at 10%; stock round 2 starts with B.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from scenario import agreed, is_offer, run, second_stock_round

from eighteen import Game, IllegalAction, load_title
from eighteen.engine import market, network, phases, shares, trains
from eighteen.engine.actions import (
    Bid,
    BuyShares,
    BuyTrain,
    Dividend,
    ExchangePrivate,
    LayTile,
    Par,
    Pass,
    PlaceToken,
    RunRoutes,
    SellShares,
    TradePrivate,
)


def erie_floated(g: Game) -> None:
    """Setup: D holds 60% of ERIE, started at $67 and floated with $670; phase 3."""
    for cert in ("ERIE_0", "ERIE_1", "ERIE_2", "ERIE_3", "ERIE_4"):
        g.state.certs[cert] = "D"
    cs = g.state.corporations["ERIE"]
    cs.par, cs.president, cs.floated, cs.cash = 67, "D", True, 670
    cell = g.tables.par_cell(67)
    assert cell is not None
    market.place(g, "ERIE", cell)
    g.state.phase = g.tables.phase_index("3")
    g.invalidate_caches()


def skip_until(g: Game, done: Callable[[Game], bool]) -> None:
    """Take the plain choices (pass, the offered run, pay out, a train) until ``done``;
    never a deal another player must answer (a train of a corporation he presides)."""
    while not done(g):
        acts = g.legal_actions()
        g.apply(
            next(
                a
                for a in acts
                if isinstance(a, Pass | RunRoutes | Dividend | BuyTrain) and not is_offer(g, a)
            )
        )


def to_turn_of(g: Game, corp: str) -> None:
    skip_until(g, lambda g: g.acting() == corp)


def to_step(g: Game, step: str) -> None:
    skip_until(g, lambda g: g.state.round.step == step)


def tokens(g: Game) -> list[PlaceToken]:
    return [a for a in g.legal_actions() if isinstance(a, PlaceToken)]


def test_erie_picks_its_home_city_once_track_lies_on_e11() -> None:
    """Seed 002: Erie picks one of the two cities of Dunkirk & Buffalo and may not move it
    after.  The pick waits until a tile with track lies on E11; ERIE may build there
    meanwhile, and no other corporation may token either city before."""
    g = second_stock_round()
    erie_floated(g)
    run(g, Pass("B"), Pass("C"), Pass("D"), Pass("A"))
    assert g.state.round.order == ["B&M", "ERIE"]
    to_turn_of(g, "ERIE")
    assert g.state.home_waiting == ["ERIE"]
    assert g.state.map.tokens.get("E11", [[], []]) == [[], []]
    assert network.reserved(g)["E11"] == ["ERIE"]  # both cities held for it
    lays = [a for a in g.legal_actions() if isinstance(a, LayTile)]
    assert lays == [LayTile("ERIE", "E11", "59", r) for r in (0, 2, 3, 4)]
    run(g, LayTile("ERIE", "E11", "59", 3))
    # the pick comes at once, before the rest of the turn
    assert g.acting() == "ERIE"
    assert tokens(g) == [PlaceToken("ERIE", "E11", 0), PlaceToken("ERIE", "E11", 1)]
    with pytest.raises(IllegalAction, match="E11 city 2 is not a home city option"):
        g.apply(PlaceToken("ERIE", "E11", 2))
    run(g, PlaceToken("ERIE", "E11", 1))
    assert g.state.map.tokens["E11"] == [[], ["ERIE"]]
    assert g.state.home_waiting == [] and g.state.corporations["ERIE"].tokens_placed == 1
    assert "E11" not in network.reserved(g)


def test_a_waiting_home_falls_due_in_another_corporations_turn() -> None:
    """When another corporation's tile puts track on E11, ERIE picks its city right away,
    out of turn; then the other corporation's turn goes on."""
    g = second_stock_round()
    erie_floated(g)
    run(g, Pass("B"), Pass("C"), Pass("D"), Pass("A"))
    to_turn_of(g, "ERIE")
    skip_until(g, lambda g: g.acting() != "ERIE")
    assert g.state.home_waiting == ["ERIE"]
    turn = g.acting()
    # setup: some corporation's tile with track now lies on E11
    network.board(g).lay_tile(g.state.map, "E11", "59", 0)
    g.invalidate_caches()
    assert g.acting() == "ERIE"
    assert tokens(g) == [PlaceToken("ERIE", "E11", 0), PlaceToken("ERIE", "E11", 1)]
    g.apply(PlaceToken("ERIE", "E11", 0))
    assert g.state.map.tokens["E11"] == [["ERIE"], []]
    assert g.acting() == turn  # the turn it interrupted goes on


# -- private trades and exchanges in a stock round ----------------------------------------


def test_buying_a_private_from_a_player_is_the_turns_purchase() -> None:
    """Seed 000, stock round: a player may buy a private from another player at an agreed
    price.  That purchase is his turn's business (the turn is no pass, so the round goes
    on) and his one purchase: no share after it, nor a second private."""
    g = second_stock_round()
    agreed(g, TradePrivate("B", "SV", "A", 20), "A")  # (A answers B's offer)
    assert g.acting() == "B"
    assert g.state.privates["SV"].owner == "B"
    assert (g.state.player("A").cash, g.state.player("B").cash) == (250 + 20, 313 - 20)
    with pytest.raises(IllegalAction, match="already bought this turn"):
        g.apply(BuyShares("B", "NYC", "ipo"))
    with pytest.raises(IllegalAction, match="B has already bought this turn"):
        g.apply(TradePrivate("B", "DH", "C", 70))
    run(g, Pass("B"), Pass("C"), Pass("D"), Pass("A"))
    # B's turn was no pass: three passes since do not end the round
    assert g.state.round.kind == "stock" and g.acting() == "B"
    run(g, Pass("B"))
    assert g.state.round.kind == "operating"


def test_after_a_private_brown_zone_shares_may_still_be_bought() -> None:
    """Seed 000: shares in the brown zone are free of the one-purchase limit, so they may
    still be bought after a private."""
    g = second_stock_round()
    g.state.corporations["B&M"].cell = [7, 2]  # setup: B&M at $30, a brown cell
    agreed(g, TradePrivate("B", "SV", "A", 20), "A")
    run(g, BuyShares("B", "B&M", "ipo"))
    assert shares.percent_of(g, "B&M", "B") == 10
    assert g.state.player("B").cash == 313 - 20 - 100  # an IPO share costs par


def test_exchanging_mh_is_no_trade_of_the_turn() -> None:
    """The M&H exchange for an NYC share may be made at any time; it is not the turn's
    business, so a pass after it is a pass and four passes end the round."""
    g = second_stock_round()
    run(g, Pass("B"), Pass("C"))
    run(g, ExchangePrivate("D", "MH", "ipo"), Pass("D"))
    assert shares.percent_of(g, "NYC", "D") == 30
    run(g, Pass("A"))
    assert g.state.round.kind == "operating"


# -- the C&StL tile -------------------------------------------------------------------------


def test_cs_tile_may_be_laid_at_any_point_of_the_turn() -> None:
    """The C&StL's owning corporation lays its free B20 tile at any point of its
    operating turn, here after the track step."""
    g = second_stock_round()
    run(g, Pass("B"), Pass("C"), Pass("D"), Pass("A"))
    g.state.privates["CS"].owner = "B&M"  # setup: B&M bought the C&StL
    g.invalidate_caches()
    run(g, Pass("B&M"))  # no tile in the track step
    assert g.state.round.step == "routes"
    run(g, LayTile("B&M", "B20", "3", 0, "CS"))
    assert g.state.map.tiles["B20"] == ("3", 0)
    assert g.state.corporations["B&M"].cash == 920  # free
    assert g.state.round.step == "routes"  # the turn goes on where it was
    with pytest.raises(IllegalAction, match="lay_tile is not possible now: the routes step"):
        g.apply(LayTile("B&M", "B20", "4", 1, "CS"))  # once only


# -- operating order after emergency sales --------------------------------------------------


def emergency_setup(g: Game) -> None:
    """Setup: B&O (at $71, C holds 10%) and NYC (at $67) floated with $500 each; B&M has
    no train and no cash, C has $20."""
    for cert, who in [("B&O_1", "A"), ("B&O_2", "A"), ("B&O_3", "A"), ("B&O_4", "C")]:
        g.state.certs[cert] = who
    for cert in ("NYC_2", "NYC_3", "NYC_4"):
        g.state.certs[cert] = "D"
    for corp in ("B&O", "NYC"):
        g.state.corporations[corp].floated = True
        g.state.corporations[corp].cash = 500
    g.state.corporations["B&O"].cell = [4, 6]
    g.state.corporations["B&M"].cash, g.state.corporations["B&M"].trains = 0, []
    g.state.player("C").cash = 20
    g.invalidate_caches()


def test_emergency_sales_resort_the_corporations_still_to_operate() -> None:
    """The seeds are silent; as 18xx.games plays 1830 (rules.reorder_after_emergency_sales),
    a president's forced sales that move prices re-sort the corporations still to operate.
    B&O at $71 operates before NYC at $67 until C sells 10% of B&O for B&M's train: B&O
    drops to $67 and, the later arrival in that cell, now follows NYC."""
    g = second_stock_round()
    emergency_setup(g)
    run(g, Pass("B"), Pass("C"), Pass("D"), Pass("A"))
    assert g.state.round.order == ["B&M", "B&O", "NYC"]
    to_step(g, "trains")
    run(g, SellShares("C", "B&O", 10))
    assert market.price(g, "B&O") == 67
    assert g.state.player("C").cash == 20 + 15 + 71  # his D&H paid $15 as the round began
    assert g.state.round.order == ["B&M", "NYC", "B&O"]
    run(g, BuyTrain("B&M", "2-1", 80))
    assert g.acting() == "NYC"


def test_without_the_rule_the_order_stays() -> None:
    g = second_stock_round()
    emergency_setup(g)
    g.rules = g.rules.model_copy(update={"reorder_after_emergency_sales": False})  # other reading
    run(g, Pass("B"), Pass("C"), Pass("D"), Pass("A"))
    to_step(g, "trains")
    run(g, SellShares("C", "B&O", 10))
    assert g.state.round.order == ["B&M", "B&O", "NYC"]


# -- trains ----------------------------------------------------------------------------------


def test_a_d_train_may_trade_in_any_copy() -> None:
    """A D-train bought with a trade-in may take any of the corporation's 4, 5 or 6-trains,
    not only the first copy of each type: $1100 less $300."""
    g = second_stock_round()
    g.state.phase = g.tables.phase_index("6")
    g.state.depot = [t for t in g.state.depot if t.startswith("D")]
    g.state.corporations["B&M"].trains = ["5-0", "5-1"]
    g.invalidate_caches()
    offers = {(o.train, o.price, o.exchange) for o in trains.bank_offers(g, "B&M")}
    assert offers == {("D-0", 1100, None), ("D-0", 800, "5-0"), ("D-0", 800, "5-1")}


# -- the priority deal after the private auction ---------------------------------------------


def auction_ending_in_a_bidoff(options: list[str]) -> Game:
    """A, B, C: B bids $225 and C $230 on BO; A buys SV, CS and CA, B DH, C MH at face.
    BO, the last private, is then settled between B and C; A's purchase of CA was the last
    normal turn."""
    g = Game.new(load_title("1830"), ["A", "B", "C"], options=options)
    for a in [
        Bid("A", "SV", 20),
        Bid("B", "BO", 225),
        Bid("C", "BO", 230),
        Bid("A", "CS", 40),
        Bid("B", "DH", 70),
        Bid("C", "MH", 110),
        Bid("A", "CA", 160),
    ]:
        run(g, a)
    return g


def test_priority_goes_left_of_the_last_buyer() -> None:
    """Seed 000, first stock round: the player to the left of the last buyer of a private
    gets the priority deal: C wins BO, so A has it."""
    g = auction_ending_in_a_bidoff([])
    assert g.acting() == "B"  # from the left of the best bidder (C): A has no bid
    run(g, Pass("B"), Par("C", "B&O", 100))
    assert g.state.privates["BO"].owner == "C" and g.state.player("C").cash == 800 - 340
    assert g.state.round.kind == "stock" and g.acting() == "A"


def test_priority_by_the_18xx_games_reading() -> None:
    """Option auction_18xx_games: the player whose normal turn comes next (after A's)
    gets it."""
    g = auction_ending_in_a_bidoff(["auction_18xx_games"])
    assert g.acting() == "B"  # the lowest bidder
    run(g, Pass("B"), Par("C", "B&O", 100))
    assert g.state.privates["BO"].owner == "C"
    assert g.state.round.kind == "stock" and g.acting() == "B"


def test_a_player_who_could_buy_a_private_is_not_passed_for_him() -> None:
    """A player with nothing to buy, sell or start is passed automatically, but one who
    could still buy a private from another player (for $1) has a choice: his turn waits.
    D holds only NYC's president's certificate (no one could take it) and M&H."""

    def setup(cash: int) -> Game:
        g = second_stock_round()
        for cert in shares.certs_of(g, "B&M", "D"):
            g.state.certs[cert] = "A"  # setup: D's B&M share is A's
        g.state.player("D").cash = cash
        g.invalidate_caches()
        run(g, Pass("B"), Pass("C"))
        return g

    assert setup(1).acting() == "D"
    g = setup(0)
    assert g.acting() == "A"
    assert "D can do nothing" in [m for _, m in g.events]


def test_each_phase_allows_its_tile_colours() -> None:
    """Phase 2 lays yellow tiles, phases 3 and 4 green too, phases 5, 6 and D brown too
    (seed 002, game phases; no phase allows gray): ``phases.tile_colors``, read from the
    colours the tables keep per phase."""
    g = Game.new(load_title("1830"), ["A", "B", "C", "D"], seed=1)
    got = {}
    for i, phase in enumerate(g.tables.phases):
        g.state.phase = i
        got[phase.id] = phases.tile_colors(g)
    assert got == {
        "2": {"yellow"},
        "3": {"yellow", "green"},
        "4": {"yellow", "green"},
        "5": {"yellow", "green", "brown"},
        "6": {"yellow", "green", "brown"},
        "D": {"yellow", "green", "brown"},
    }


def test_each_phase_has_its_train_limit_and_off_board_revenue() -> None:
    """Four trains a corporation in phases 2 and 3, three in phase 4, two from phase 5 on;
    off-boards pay their yellow value until phase 5 and their brown one from it; privates
    may be sold to corporations from phase 3 (seed 002, game phases): ``phases``' questions,
    read from the lists the tables keep per phase."""
    g = Game.new(load_title("1830"), ["A", "B", "C", "D"], seed=1)
    got = {}
    for i, phase in enumerate(g.tables.phases):
        g.state.phase = i
        assert phases.current_id(g) == phase.id
        got[phase.id] = (
            phases.train_limit(g),
            phases.revenue_key(g),
            phases.privates_buyable(g),
        )
    assert got == {
        "2": (4, "yellow", False),
        "3": (4, "yellow", True),
        "4": (3, "yellow", True),
        "5": (2, "brown", True),
        "6": (2, "brown", True),
        "D": (2, "brown", True),
    }


def test_every_home_is_held_until_its_station_is_placed() -> None:
    """Home cities are reserved from the start of the game, each until its owner places
    its home station (facts, corporations; ``network.reserved``, read from the tables'
    homes): the eight homes of 1830 at the start (the compiled map's, which
    tests/title/test_1830_facts.py gives), the PRR's no longer once its station is there;
    1830 has no joint stations and no ferries."""
    g = Game.new(load_title("1830"), ["A", "B", "C", "D"], seed=1)
    assert g.tables.joint_tokens == [] and g.tables.ferries is None
    homes = {h: list(x.homes) for h, x in g.tables.doc.hexes.items() if x.homes}
    assert len(homes) == 8 and homes["H12"] == ["PRR"] and homes["E11"] == ["ERIE"]
    assert network.reserved(g) == homes
    g.state.corporations["PRR"].home_placed = True
    del homes["H12"]
    assert network.reserved(g) == homes
