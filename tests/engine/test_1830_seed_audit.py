"""Seed audit: 1830 rule statements of seeds 000 and 002 that no other test asserted with
exact values, each as a scenario.

Most games start from scenario.second_stock_round(): B&M (president C 30%, A 20%, D 10%)
has floated at $100, bought a 2-train and stands at $90 with $920; NYC is started at $67
by D (20%) with B at 10%; A holds SV, CA and CA's PRR share, B CS and BO, C DH, D MH;
cash A $250, B $313, C $245, D $276; stock round 2 starts with B.

Three of them first failed, the engine contradicting the seed
(test_brown_zone_shares_may_be_bought_in_any_number,
test_at_most_one_train_of_a_new_type_per_turn,
test_a_president_short_of_money_may_sell_a_private_to_a_player); the engine now follows the
seed there, and 18xx.games' other readings are title options (docs/1830-notes.md).
"""

from __future__ import annotations

import pytest
from scenario import agreed, cash, money, opening, pass_round, run, second_stock_round
from test_operating import (
    BOSTON_MANSFIELD,
    forced_purchase_game,
    second_operating_round,
    set_phase,
)

from eighteen import Game, IllegalAction, load_title
from eighteen.engine import market, network, shares, trains, views
from eighteen.engine.actions import (
    Bid,
    BuyShares,
    BuyTrain,
    DiscardTrain,
    Dividend,
    LayTile,
    Par,
    Pass,
    PlaceToken,
    RunRoutes,
    SellShares,
    TradePrivate,
)
from eighteen.engine.rounds.or_run import payout
from eighteen.engine.rounds.or_token import next_token_cost
from eighteen.engine.tables import Tables


def bank_offers(g: Game) -> set[tuple[str, int, str | None]]:
    """The bank's trains (train, price, trade-in) the acting corporation may buy now."""
    return {
        (a.train, a.price, a.exchange)
        for a in g.legal_actions()
        if isinstance(a, BuyTrain) and trains.owner_of(g, a.train) in (None, "pool")
    }


def run_and_withhold(g: Game) -> None:
    """B&M passes its tile, runs the offered routes and withholds."""
    run(g, Pass("B&M"))
    run(g, g.legal_actions()[0], Dividend("B&M", "withhold"))


# -- setup and the bank ------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_setup_shares_2400_among_the_players(n: int) -> None:
    """Seed 000, setup 3: $2400 is shared among the players (Table 5); the rest of the
    money stays with the bank."""
    g = Game.new(load_title("1830"), [f"P{i}" for i in range(n)])
    assert set(cash(g).values()) == {2400 // n}
    assert sum(cash(g).values()) == 2400
    assert g.state.bank == 12000 - 2400


def test_privates_are_sold_before_any_share() -> None:
    """Seed 000, general/first stock round: all privates are bought from the bank before
    any railroad share is sold; while one is unsold a turn is buy, bid or pass."""
    g = Game.new(load_title("1830"), ["A", "B", "C", "D"])
    assert {type(a) for a in g.legal_actions()} == {Bid, Pass}
    with pytest.raises(IllegalAction):
        g.apply(Par("A", "NYC", 100))


# -- stock round ---------------------------------------------------------------------------


def test_a_player_who_passed_may_trade_later_in_the_round() -> None:
    """Seed 000, stock round: a player who passed may still buy or sell in a later turn of
    the same round; the round ends only when everyone passes in a row; the player after
    the last one who traded gets the priority deal."""
    g = second_stock_round()
    run(g, Pass("B"), Pass("C"), Pass("D"), BuyShares("A", "B&M", "ipo"), Pass("A"))
    run(g, BuyShares("B", "NYC", "ipo"), Pass("B"))  # B passed before
    assert shares.percent_of(g, "NYC", "B") == 20
    assert g.state.player("B").cash == 313 - 67
    run(g, Pass("C"), Pass("D"), Pass("A"))
    assert g.state.round.kind == "stock" and g.acting() == "B"  # only three passes in a row
    run(g, Pass("B"))
    assert g.state.round.kind == "operating"
    assert g.state.priority == 2  # C: after B, the last to trade


def test_several_corporations_may_all_start_at_100() -> None:
    """Seed 000, share setting: the par chart has no limit per space; all eight
    corporations may choose $100.  A corporation marker arriving later in a cell goes
    under the earlier ones (operates after them)."""
    g = opening()
    run(g, Par("C", "B&M", 100), Par("D", "NYC", 100), Par("A", "PRR", 100), Par("B", "CPR", 100))
    for corp in ("B&M", "NYC", "PRR", "CPR"):
        assert g.state.corporations[corp].par == 100
        assert g.state.corporations[corp].cell == [0, 6]
    assert market.operating_order(g, ["CPR", "PRR", "NYC", "B&M"]) == ["B&M", "NYC", "PRR", "CPR"]


def test_the_ca_prr_share_cannot_be_sold_before_prr_starts() -> None:
    """Seed 000, share setting, note: the PRR 10% that C&A's owner receives cannot be
    sold until PRR's president's certificate is bought; from then on it is an ordinary
    PRR share."""
    g = second_stock_round()
    assert g.state.certs["PRR_1"] == "A"
    run(g, Pass("B"), Pass("C"), BuyShares("D", "NYC", "ipo"), Pass("D"))
    assert not any(isinstance(a, SellShares) and a.corporation == "PRR" for a in g.legal_actions())
    with pytest.raises(IllegalAction, match="cannot be sold"):
        g.apply(SellShares("A", "PRR", 10))
    run(g, Pass("A"), Par("B", "PRR", 67), Pass("B"), Pass("C"), Pass("D"))
    run(g, SellShares("A", "PRR", 10))
    assert g.state.certs["PRR_1"] == "pool"
    assert g.state.player("A").cash == 250 + 67


def test_float_counts_shares_out_of_the_bank_not_shares_in_players_hands() -> None:
    """Seed 000, railroad shares: a corporation operates once five certificates (60%)
    have been sold by the bank; shares later sold to the bank pool do not change that,
    and buying one back from the pool sells nothing new."""
    g = second_stock_round()
    g.state.certs["NYC_2"], g.state.certs["NYC_3"] = "A", "C"  # setup: 50% sold
    g.invalidate_caches()
    run(g, SellShares("B", "NYC", 10), Pass("B"))  # 40% held by players, 10% in the pool
    run(g, BuyShares("C", "NYC", "pool"), Pass("C"))
    assert not g.state.corporations["NYC"].floated  # still 50% out of the IPO
    run(g, BuyShares("D", "NYC", "ipo"))
    nyc = g.state.corporations["NYC"]
    assert nyc.floated and nyc.cash == 670  # 10 x the $67 par
    assert shares.percent_of(g, "NYC", "ipo") == 40


def test_over_the_certificate_limit_a_player_must_sell_first() -> None:
    """Seed 000, holding limits: a player over the limit (Table 3: 16 with four players,
    privates included) must get back under it in his next stock-round turn: he may only
    sell, and may not pass or buy before."""
    g = second_stock_round()
    extra = ["CPR_1", "CPR_2", "CPR_3", "CPR_4", "CPR_5", "C&O_1", "C&O_2", "C&O_3"]
    for cert in [*extra, "C&O_4", "ERIE_1", "ERIE_2", "ERIE_3"]:
        g.state.certs[cert] = "A"  # setup: A is over the limit (SV, CA, 2 B&M, PRR + 12)
    g.invalidate_caches()
    assert shares.cert_count(g, "A") == 17 > shares.cert_limit(g) == 16
    run(g, Pass("B"), Pass("C"), Pass("D"))
    legal = g.legal_actions()
    assert [a for a in legal if isinstance(a, SellShares)] == [
        SellShares("A", "B&M", 10),
        SellShares("A", "B&M", 20),
    ]
    assert not any(isinstance(a, BuyShares | Par | Pass) for a in legal)  # (or sell a private)
    with pytest.raises(IllegalAction, match="must sell first"):
        g.apply(Pass("A"))
    with pytest.raises(IllegalAction, match="must sell first"):
        g.apply(BuyShares("A", "NYC", "ipo"))
    run(g, SellShares("A", "B&M", 10))
    assert shares.cert_count(g, "A") == 16
    run(g, Pass("A"))
    assert g.acting() == "B"


def test_orange_zone_lifts_the_holding_limit() -> None:
    """Seed 000, holding limits: normally at most 60% (five certificates) of one
    corporation, but not while its marker is in the orange zone."""
    g = second_stock_round()
    for cert in ("B&M_5", "B&M_6", "B&M_7"):
        g.state.certs[cert] = "C"  # setup: C holds 60%, 10% left in the IPO
    g.state.corporations["B&M"].cell = [4, 1]  # $41, orange
    g.invalidate_caches()
    assert shares.percent_of(g, "B&M", "C") == 60 and shares.percent_of(g, "B&M", "ipo") == 10
    run(g, Pass("B"), BuyShares("C", "B&M", "ipo"))
    assert shares.percent_of(g, "B&M", "C") == 70
    assert g.state.player("C").cash == 245 - 100  # the IPO share costs par


def test_brown_zone_shares_may_be_bought_in_any_number() -> None:
    """Seed 000, holding limits (last line): shares in the brown zone are free of the
    buying and holding rules: any number may be bought in one turn.  The seed names no
    source, so the IPO's shares (at par) count as well as the pool's."""
    g = second_stock_round()
    g.state.corporations["B&M"].cell = [7, 2]  # setup: $30, brown; four B&M shares in the IPO
    g.invalidate_caches()
    run(g, BuyShares("B", "B&M", "ipo"), BuyShares("B", "B&M", "ipo"))
    assert shares.percent_of(g, "B&M", "B") == 20
    assert g.state.player("B").cash == 313 - 2 * 100


# -- share price moves ---------------------------------------------------------------------


def sold_out_setup(g: Game, last_nyc_share: str) -> None:
    """Setup: B&M and NYC floated with no share in the IPO; NYC_8 goes to
    ``last_nyc_share`` (a player or the pool)."""
    for cert, who in [("NYC_2", "D"), ("NYC_3", "A"), ("NYC_4", "A"), ("NYC_5", "C")]:
        g.state.certs[cert] = who
    g.state.certs["NYC_6"], g.state.certs["NYC_7"] = "C", "B"
    g.state.certs["NYC_8"] = last_nyc_share
    for cert, who in [("B&M_5", "B"), ("B&M_6", "B"), ("B&M_7", "D"), ("B&M_8", "D")]:
        g.state.certs[cert] = who
    g.state.corporations["NYC"].floated = True
    g.invalidate_caches()


def test_sold_out_rises_only_with_no_share_in_the_pool_and_not_past_the_top() -> None:
    """Seed 000, share value: at the end of a stock round a corporation with no share in
    the bank's IPO or the bank pool (100% in players' hands) moves up one row; at the top
    it stays.  One share in the pool stops the rise."""
    g = second_stock_round()
    sold_out_setup(g, "A")
    assert market.price(g, "NYC") == 67 and g.state.corporations["B&M"].cell == [0, 5]
    run(g, Pass("B"), Pass("C"), Pass("D"), Pass("A"))
    assert g.state.corporations["NYC"].cell == [4, 6] and market.price(g, "NYC") == 71
    assert g.state.corporations["B&M"].cell == [0, 5]  # top row: $90 stays
    g = second_stock_round()
    sold_out_setup(g, "pool")
    run(g, Pass("B"), Pass("C"), Pass("D"), Pass("A"))
    assert g.state.corporations["NYC"].cell == [5, 6] and market.price(g, "NYC") == 67


def test_sales_move_down_row_by_row_until_the_bottom() -> None:
    """Seed 000, share value: each 10% sold to the pool moves the marker one row down,
    straight down, and not past the bottom of its column."""
    g = second_stock_round()
    g.state.corporations["B&M"].cell = [2, 12]  # setup: $155, two cells above the bottom
    run(g, Pass("B"), SellShares("C", "B&M", 20))
    assert g.state.corporations["B&M"].cell == [3, 12]  # $130, no cell below it
    assert market.price(g, "B&M") == 130
    assert g.state.player("C").cash == 245 + 2 * 155
    run(g, Pass("C"), SellShares("D", "B&M", 10))
    assert g.state.corporations["B&M"].cell == [3, 12]
    assert g.state.player("D").cash == 276 + 130


@pytest.mark.parametrize(
    "cell,kind,after,price",
    [
        ([2, 15], "payout", [1, 15], 240),  # right end of its row: up instead
        ([0, 18], "payout", [0, 18], 350),  # the $350 top: stays
        ([3, 0], "withhold", [4, 0], 32),  # left end of its row: down instead
    ],
)
def test_dividend_moves_at_the_edges_of_the_market(
    cell: list[int], kind: str, after: list[int], price: int
) -> None:
    """Seed 000, share value: a dividend moves the marker one cell right, or up when it
    is at the right end (so every corporation may reach $350); withholding moves it one
    cell left, or down at the left end."""
    g = second_operating_round()
    g.state.corporations["B&M"].cell = cell  # setup
    run(g, Pass("B&M"), RunRoutes("B&M", (BOSTON_MANSFIELD,)), Dividend("B&M", kind))
    assert g.state.corporations["B&M"].cell == after
    assert market.price(g, "B&M") == price


# -- operating: dividends and private income ------------------------------------------------


def test_the_seed_dividend_example() -> None:
    """Seed 002, revenue: a player with 50%, 30% unsold, 20% in the bank pool, $100 paid
    out: the player gets $50, the unsold $30 stays with the bank, the corporation gets the
    pool's $20."""
    g = second_stock_round()
    certs = shares.cert_ids(g, "B&M")
    owners = ["C", "C", "C", "C", "ipo", "ipo", "ipo", "pool", "pool"]
    for cert, who in zip(certs, owners, strict=True):
        g.state.certs[cert] = who  # setup: C 50% (president), IPO 30%, pool 20%
    g.invalidate_caches()
    before, bank, corp = cash(g), g.state.bank, g.state.corporations["B&M"].cash
    payout(g, "B&M", 100)
    after = cash(g)
    assert {p: after[p] - before[p] for p in after} == {"A": 0, "B": 0, "C": 50, "D": 0}
    assert g.state.corporations["B&M"].cash == corp + 20
    assert g.state.bank == bank - 70


def test_a_private_owned_by_a_corporation_pays_its_treasury() -> None:
    """Seed 002, revenue: a private's income to a corporation goes straight into its
    treasury, not to the shareholders; a player's private pays the player."""
    g = second_stock_round()
    g.state.privates["SV"].owner = "B&M"  # setup: B&M bought S&V
    g.invalidate_caches()
    before = cash(g)
    run(g, Pass("B"), Pass("C"), Pass("D"), Pass("A"))  # operating round: privates pay
    assert g.state.corporations["B&M"].cash == 920 + 5
    after = cash(g)
    assert {p: after[p] - before[p] for p in after} == {"A": 25, "B": 40, "C": 15, "D": 20}


@pytest.mark.parametrize("phase,revenue", [("4", 30 + 20), ("5", 30 + 30)])
def test_off_boards_pay_their_higher_value_from_the_first_5(phase: str, revenue: int) -> None:
    """Seed 002, revenue: a red off-board pays its lower value until the first 5-train is
    bought, then the higher one (Maritime Provinces: $20, then $30)."""
    g = second_operating_round()
    g.state.phase = g.tables.phase_index(phase)
    board = network.board(g)
    board.lay_tile(g.state.map, "D22", "7", 3)  # setup: Boston - D24 - D22 - C23 - B24
    board.lay_tile(g.state.map, "C23", "9", 0)
    g.invalidate_caches()
    run(g, Pass("B&M"))
    [act] = [a for a in g.legal_actions() if isinstance(a, RunRoutes)]
    assert [(sorted(r.stops), r.revenue) for r in act.routes] == [(["B24-o0", "E23-c0"], revenue)]


# -- operating: track and tokens ------------------------------------------------------------


def test_one_tile_per_operating_turn() -> None:
    """Seed 000, operating round: each corporation may lay (or replace) one tile per turn."""
    g = second_operating_round()
    run(g, LayTile("B&M", "D22", "8", 2))
    assert not any(isinstance(a, LayTile) for a in g.legal_actions())
    with pytest.raises(IllegalAction):
        g.apply(LayTile("B&M", "F22", "57", 1))
    assert "F22" not in g.state.map.tiles


def test_green_upgrades_wait_for_phase_3() -> None:
    """Seed 002, game phases: phase 2 lays yellow tiles only; from the first 3-train green
    may replace yellow (here Providence's #57 by #14 or #15)."""
    g = second_operating_round()
    network.board(g).lay_tile(g.state.map, "F22", "57", 1)  # setup: a yellow tile
    g.invalidate_caches()
    on_f22 = {a.tile for a in g.legal_actions() if isinstance(a, LayTile) and a.hex == "F22"}
    assert on_f22 == set()
    g.state.phase = g.tables.phase_index("3")
    g.invalidate_caches()
    on_f22 = {a.tile for a in g.legal_actions() if isinstance(a, LayTile) and a.hex == "F22"}
    assert on_f22 == {"15"}  # (#14 does not fit Providence's coast)


def three_token_bm() -> Game:
    """scenario.second_stock_round(), but B&M has three station tokens ($0, $40, $100)
    and no home is held for its corporation (so Albany is free)."""
    data = load_title("1830").data
    corps = [{**c, "tokens": [0, 40, 100]} if c["id"] == "B&M" else c for c in data["corporations"]]
    g = second_stock_round(title=Tables({**data, "corporations": corps}))
    g.rules = g.rules.model_copy(update={"home_token_reserved": False})
    return g


def test_station_tokens_cost_40_then_100_one_per_turn() -> None:
    """Seed 002, tokens: the home station is free; the first further station costs $40,
    each later one $100; a corporation places at most one station per turn, in a city its
    track reaches."""
    g = Game.new(load_title("1830"), ["A", "B"])
    costs = []
    for placed in range(5):
        g.state.corporations["NYC"].tokens_placed = placed
        costs.append(next_token_cost(g, "NYC"))
    assert costs == [0, 40, 100, 100, None]  # NYC has four stations

    g = second_operating_round(three_token_bm())
    run(g, LayTile("B&M", "F22", "57", 1))  # Providence, joined to Boston via Mansfield
    board = network.board(g)
    board.lay_tile(g.state.map, "F20", "69", 0)  # setup: Providence - New Haven - Albany
    board.lay_tile(g.state.map, "E19", "57", 2)
    g.invalidate_caches()
    assert [a for a in g.legal_actions() if isinstance(a, PlaceToken)] == [
        PlaceToken("B&M", "E19", 0),
        PlaceToken("B&M", "F22", 0),
    ]
    run(g, PlaceToken("B&M", "F22", 0))
    assert g.state.corporations["B&M"].cash == 920 - 80 - 40  # water, then the station
    assert g.state.round.step != "token"
    with pytest.raises(IllegalAction):
        g.apply(PlaceToken("B&M", "E19", 0))
    # its next turn: the third station, $100
    while g.acting() != "B&M" or g.state.round.step != "token":
        acts = g.legal_actions()
        g.apply(next(a for a in acts if isinstance(a, Pass | RunRoutes | Dividend | BuyTrain)))
    cash_before = g.state.corporations["B&M"].cash
    run(g, PlaceToken("B&M", "E19", 0))
    assert g.state.corporations["B&M"].cash == cash_before - 100
    assert g.state.map.tokens["E19"] == [["B&M"]]


def test_no_two_stations_of_one_corporation_on_one_hex() -> None:
    """Seed 002, tokens: two tokens of the same colour may not be on the same tile, even
    in its two separate cities (New York)."""
    g = Game.new(load_title("1830"), ["A", "B"])
    board = network.board(g)
    board.place_token(g.state.map, "NYNH", "G19", 0)
    g.invalidate_caches()
    free = list(board.token_options(g.state.map, "NYNH", reserved={}, require_connection=False))
    assert ("G19", 1) not in free
    others = list(board.token_options(g.state.map, "B&M", reserved={}, require_connection=False))
    assert ("G19", 1) in others


# -- trains and phases --------------------------------------------------------------------


def test_at_most_one_train_of_a_new_type_per_turn() -> None:
    """Seed 002, buying trains: a corporation may buy any number of the trains already
    on sale (up to its limit), but only one of a type that comes on sale in that turn.
    The seed's example: with two 2-trains left it may buy both and one 3-train, not one
    2-train and a 3-train, nor two 3-trains."""
    g = second_operating_round()
    g.state.depot = [t for t in g.state.depot if t not in ("2-1", "2-2", "2-3")]  # setup
    g.state.corporations["B&M"].trains = []
    g.state.corporations["B&M"].cash = 2000
    g.invalidate_caches()
    run(g, Pass("B&M"))  # no train, no run
    run(g, BuyTrain("B&M", "2-4", 80))
    assert bank_offers(g) == {("2-5", 80, None)}  # not the 3-train while a 2 is left
    run(g, BuyTrain("B&M", "2-5", 80), BuyTrain("B&M", "3-0", 180))
    assert g.state.corporations["B&M"].trains == ["2-4", "2-5", "3-0"]
    assert bank_offers(g) == set()  # no second 3-train this turn


def test_the_train_limit_stops_purchases() -> None:
    """Seed 002, buying trains: up to four trains a corporation in phase 2."""
    g = second_operating_round()
    g.state.corporations["B&M"].trains = ["2-0", "2-1", "2-2", "2-3"]
    g.state.depot = [t for t in g.state.depot if t not in ("2-1", "2-2", "2-3")]
    g.invalidate_caches()
    run_and_withhold(g)
    # the trains step had nothing to offer: B&M, the only corporation, is done
    assert g.state.round.kind == "stock"
    assert g.state.corporations["B&M"].trains == ["2-0", "2-1", "2-2", "2-3"]
    g = second_operating_round()
    g.state.corporations["B&M"].trains = ["2-0", "2-1", "2-2"]  # one fewer: it may buy
    g.state.depot = [t for t in g.state.depot if t not in ("2-1", "2-2")]
    g.invalidate_caches()
    run_and_withhold(g)
    assert bank_offers(g) == {("2-3", 80, None)}


def test_first_four_lowers_the_limit_and_the_excess_goes_back_unpaid() -> None:
    """Seed 002, buying trains / game phases: from the first 4-train a corporation may
    own three trains; the excess goes back to the bank at once, with no payment, and the
    bank sells it again at face."""
    g = second_operating_round()
    set_phase(g, "3", ["2", "3"])
    g.state.corporations["B&M"].trains = ["3-0", "3-1", "3-2"]
    run_and_withhold(g)
    before = g.state.corporations["B&M"].cash
    run(g, BuyTrain("B&M", "4-0", 300))
    assert g.state.corporations["B&M"].trains == ["3-0", "3-1", "3-2", "4-0"]
    assert {type(a) for a in g.legal_actions()} == {DiscardTrain}
    run(g, DiscardTrain("B&M", "3-1"))
    assert g.state.corporations["B&M"].trains == ["3-0", "3-2", "4-0"]
    assert g.state.corporations["B&M"].cash == before - 300
    assert g.state.train_pool == ["3-1"]
    assert ("3-1", 180) in {(o.train, o.price) for o in trains.bank_offers(g, "NYC")}
    assert money(g) == 12000


def test_first_six_rusts_threes_and_first_d_rusts_fours() -> None:
    """Seed 002, game phases: the first 6-train removes every 3-train and puts the D on
    sale beside the 6 ($1100, or $800 trading in a 4, 5 or 6); the first D removes every
    4-train."""
    g = second_operating_round()
    set_phase(g, "5", ["2", "3", "4", "5"])
    g.state.corporations["B&M"].trains = ["3-0"]
    g.state.corporations["B&M"].cash = 3000
    g.state.corporations["NYC"].trains = ["3-1", "4-1"]  # setup: another corporation's
    g.invalidate_caches()
    run_and_withhold(g)
    assert g.state.corporations["B&M"].cash == 3000 + 40  # Boston - Mansfield withheld
    run(g, BuyTrain("B&M", "6-0", 630))
    assert g.tables.phases[g.state.phase].id == "6"
    assert g.state.corporations["B&M"].trains == ["6-0"]
    assert g.state.corporations["NYC"].trains == ["4-1"]
    assert bank_offers(g) == {("6-1", 630, None), ("D-0", 1100, None), ("D-0", 800, "6-0")}
    run(g, BuyTrain("B&M", "D-0", 1100))
    assert g.tables.phases[g.state.phase].id == "D"
    assert g.state.corporations["B&M"].trains == ["6-0", "D-0"]
    assert g.state.corporations["NYC"].trains == []
    assert g.state.corporations["B&M"].cash == 3040 - 630 - 1100


@pytest.mark.parametrize(
    "phase,sold,train,price,next_set",
    [("2", ["2"], "3-0", 180, 2), ("4", ["2", "3", "4"], "5-0", 450, 3)],
)
def test_operating_rounds_per_set_change_from_the_next_stock_round(
    phase: str, sold: list[str], train: str, price: int, next_set: int
) -> None:
    """Seed 002, game phases: after the first 3-train two operating rounds come between
    stock rounds, after the first 5-train three; the change starts with the next stock
    round (the current set keeps its size)."""
    g = second_operating_round()
    set_phase(g, phase, sold)
    g.state.corporations["B&M"].cash = 2000
    assert g.state.round.set_size == 1
    run_and_withhold(g)
    run(g, BuyTrain("B&M", train, price))
    while g.state.round.kind == "operating":
        assert (g.state.round.number, g.state.round.set_size) == (1, 1)
        pass_round(g)
    assert g.state.round.kind == "stock"
    pass_round(g)
    assert g.state.round.kind == "operating"
    assert (g.state.round.number, g.state.round.set_size) == (1, next_set)


# -- forced train purchase -------------------------------------------------------------------


def test_president_pays_at_most_face_for_another_corporations_train() -> None:
    """Seed 002, forced purchase 2: the president adds his cash, but for a train bought
    from another corporation not beyond its face value; he does not fund a further
    train."""
    g = forced_purchase_game(president_cash=400)
    g.state.corporations["NYC"].trains = ["3-0"]  # setup: face $180
    g.invalidate_caches()
    with pytest.raises(IllegalAction, match="list price"):
        g.apply(BuyTrain("B&M", "3-0", 181))
    agreed(g, BuyTrain("B&M", "3-0", 180), "D")  # (D, NYC's president, agrees)
    assert g.state.player("C").cash == 400 - 130
    assert g.state.corporations["B&M"].cash == 0
    assert g.state.corporations["NYC"].cash == 180
    assert bank_offers(g) == set()  # no help for a second train


def test_forced_purchase_from_the_bank_is_the_cheapest_train() -> None:
    """Seed 002, forced purchase: with the president's money the train bought from the
    bank must be the cheapest one: a 6-train at $630, not a D at $1100 or $800."""
    g = second_operating_round()
    set_phase(g, "6", ["2", "3", "4", "5"])
    g.state.depot = ["6-1"]
    g.state.corporations["B&M"].trains = []
    g.state.corporations["B&M"].cash = 50
    g.state.player("C").cash = 2000
    g.invalidate_caches()
    run(g, Pass("B&M"))
    assert bank_offers(g) == {("6-1", 630, None)}
    with pytest.raises(IllegalAction, match="cheapest"):
        g.apply(BuyTrain("B&M", "D-0", 1100))
    run(g, BuyTrain("B&M", "6-1", 630))
    assert g.state.player("C").cash == 2000 - 580


def test_forced_sales_keep_this_presidency_but_may_change_anothers() -> None:
    """Seed 002, forced purchase 3 and 5: the president's sales may not change the
    presidency of the corporation buying the train; a sale that changes another
    corporation's control takes effect at once."""
    g = forced_purchase_game(president_cash=0)
    g.state.certs["NYC_0"], g.state.certs["NYC_2"] = "C", "C"  # setup: C 30% of NYC ...
    g.state.certs["NYC_3"], g.state.certs["NYC_4"] = "D", "D"  # ... D 20%, B 10%
    g.state.corporations["NYC"].president = "C"
    g.invalidate_caches()
    with pytest.raises(IllegalAction, match="give away the presidency"):
        g.apply(SellShares("C", "B&M", 20))  # would leave 10% against A's 20%
    run(g, SellShares("C", "NYC", 20))
    assert g.state.corporations["NYC"].president == "D"
    assert g.state.certs["NYC_0"] == "D"
    assert g.state.player("C").cash == 2 * 67


def test_a_president_short_of_money_may_sell_a_private_to_a_player() -> None:
    """Seed 002, forced purchase 3: a president who needs more money may sell shares, and
    may also sell a private he owns if he finds a buyer (he is not forced to).  C (B&M's
    president, $200) finds A ready to pay $70 for the D&H and so makes up the $300."""
    g = forced_purchase_game(president_cash=200)
    agreed(g, TradePrivate("C", "DH", "A", 70), "A")  # (C acts in B&M's turn)
    assert g.acting() == "B&M"
    assert g.state.privates["DH"].owner == "A"
    assert g.state.player("C").cash == 270
    run(g, BuyTrain("B&M", "4-0", 300))
    assert g.state.player("C").cash == 20


def _no_train_bm(depot_gone: tuple[str, ...]) -> Game:
    """B&M at its train step with no train and $2000; ``depot_gone``: trains the bank has
    sold already (setup)."""
    g = second_operating_round()
    g.state.depot = [t for t in g.state.depot if t not in depot_gone]
    g.state.corporations["B&M"].trains = []
    g.state.corporations["B&M"].cash = 2000
    g.invalidate_caches()
    run(g, Pass("B&M"))  # no train, no run
    return g


def test_trains_on_sale_when_the_turn_began_in_any_number() -> None:
    """The reading of seed 002's "trains already on sale": the 2-trains sold out before
    B&M's turn, so the 3-trains were on sale when it began; it may buy more than one,
    the first of them starting phase 3."""
    g = _no_train_bm(tuple(f"2-{i}" for i in range(6)))
    run(g, BuyTrain("B&M", "3-0", 180))
    assert bank_offers(g) == {("3-1", 180, None)}
    run(g, BuyTrain("B&M", "3-1", 180))
    assert g.state.corporations["B&M"].trains == ["3-0", "3-1"]


def test_a_second_new_train_is_refused_and_the_18xx_games_reading_sells_it() -> None:
    """After its one new train B&M may buy no other of that type: the trains step, with
    nothing left to offer, is over, and such a purchase is refused, the state unchanged.
    With 18xx.games' reading (option new_trains_18xx_games) the second is bought."""
    g = _no_train_bm(("2-1", "2-2", "2-3"))
    run(g, BuyTrain("B&M", "2-4", 80), BuyTrain("B&M", "2-5", 80), BuyTrain("B&M", "3-0", 180))
    assert g.state.round.step == "companies"  # (phase 3: a private may be bought)
    before = g.state_hash()
    with pytest.raises(IllegalAction, match="buy_train is not possible now"):
        g.apply(BuyTrain("B&M", "3-1", 180))
    assert g.state_hash() == before
    g = _no_train_bm(("2-1", "2-2", "2-3"))
    g.rules = g.rules.model_copy(update={"one_new_train_per_turn": False})  # as the option
    run(g, BuyTrain("B&M", "2-4", 80), BuyTrain("B&M", "2-5", 80), BuyTrain("B&M", "3-0", 180))
    assert bank_offers(g) == {("3-1", 180, None)}
    run(g, BuyTrain("B&M", "3-1", 180))
    assert g.state.corporations["B&M"].trains == ["2-4", "2-5", "3-0", "3-1"]


def test_the_buyer_may_send_the_presidents_sale_of_a_private() -> None:
    """The forced purchase's private sale is a trade both players agree: A, buying C's
    D&H, may send it as well (at any price A can pay)."""
    g = forced_purchase_game(president_cash=200)
    agreed(g, TradePrivate("A", "DH", "C", 120), "C")  # (in B&M's turn; C agrees)
    assert g.acting() == "B&M"
    assert g.state.privates["DH"].owner == "A"
    assert (g.state.player("A").cash, g.state.player("C").cash) == (280 - 120, 320)


@pytest.mark.parametrize(
    ("setup", "trade", "reason"),
    [
        (
            "18xx.games",
            TradePrivate("C", "DH", "A", 70),
            "privates are not traded in an operating round",
        ),
        (
            "rich",
            TradePrivate("C", "DH", "A", 70),
            "B&M needs no money from its president for a train",
        ),
        (
            "",
            TradePrivate("A", "SV", "B", 20),
            "only a private of B&M's president may be sold to raise money for its train",
        ),
        ("", TradePrivate("C", "DH", "B&M", 70), "'B&M' is not another player in the game"),
        ("", TradePrivate("C", "DH", "A", 0), "a private is traded for at least $1"),
        ("", TradePrivate("C", "DH", "A", 281), "A has only $280"),
    ],
)
def test_a_private_sale_outside_the_rule_is_refused(
    setup: str, trade: TradePrivate, reason: str
) -> None:
    """What the forced purchase's private sale needs: the rule on (18xx.games' reading,
    option emergency_18xx_games, has no such sale), a corporation short of money for its
    train, the president's own private, another player, a price the buyer can pay."""
    g = forced_purchase_game(president_cash=200)
    if setup == "18xx.games":
        g.rules = g.rules.model_copy(update={"president_may_sell_privates_for_train": False})
    elif setup == "rich":
        g.state.corporations["B&M"].cash = 300
        g.invalidate_caches()
    if setup != "rich":
        offered = {a for a in g.legal_actions() if isinstance(a, TradePrivate)}
        assert bool(offered) == (setup == "")
    before = g.state_hash()
    with pytest.raises(IllegalAction) as exc:
        g.apply(trade)
    assert str(exc.value) == reason
    assert g.state_hash() == before


# -- game end ------------------------------------------------------------------------------


def test_a_bank_broken_in_an_operating_round_ends_the_game_after_its_set() -> None:
    """Seed 002, game end: a bank broken in the first of several operating rounds ends the
    game only after the rest of that set."""
    g = second_stock_round()
    g.state.phase = g.tables.phase_index("3")  # setup: sets of two operating rounds
    g.state.bank = 100  # setup: the privates' $105 will break it
    run(g, Pass("B"), Pass("C"), Pass("D"), Pass("A"))
    assert g.state.bank_broken and (g.state.round.number, g.state.round.set_size) == (1, 2)
    assert g.state.bank == 100 - 105  # it goes on paying: the debt is written down
    pass_round(g)
    assert not g.is_over and g.state.round.kind == "operating" and g.state.round.number == 2
    pass_round(g)
    assert g.is_over and g.state.end_reason == "bank broken"


def test_a_bank_broken_in_a_stock_round_ends_the_game_after_the_next_set() -> None:
    """Seed 002, game end: a bank broken in a stock round: the stock round is finished,
    then the operating rounds that follow, then the game ends."""
    g = second_stock_round()
    g.state.phase = g.tables.phase_index("3")
    g.state.bank = 50  # setup
    run(g, Pass("B"), SellShares("C", "B&M", 10))  # the bank pays $90: broken
    assert g.state.bank_broken and g.state.round.kind == "stock"
    run(g, Pass("C"), BuyShares("D", "NYC", "ipo"), Pass("D"), Pass("A"), Pass("B"))
    assert not g.is_over and g.state.round.kind == "stock"  # the round goes on
    run(g, Pass("C"), Pass("D"))
    for number in (1, 2):
        assert not g.is_over and g.state.round.kind == "operating"
        assert g.state.round.number == number
        pass_round(g)
    assert g.is_over and g.state.end_reason == "bank broken"


def test_final_value_counts_only_a_players_open_privates_and_not_corporate_assets() -> None:
    """Seed 002, private value and winner: a player's wealth is cash plus shares at market
    value plus his open privates at face; privates owned by a corporation or closed, and
    the corporations' cash and trains, count for nobody."""
    g = second_stock_round()
    # A: $250, 20% B&M at $90, S&V $20, C&A $160; CA's PRR share has no price yet
    assert views.player_value(g, "A") == 250 + 180 + 20 + 160
    g.state.privates["SV"].owner = "B&M"
    g.state.privates["CA"].closed = True
    g.state.corporations["B&M"].cash = 5000
    g.state.corporations["B&M"].trains = ["2-0", "2-1"]
    g.invalidate_caches()
    assert views.player_value(g, "A") == 250 + 180
    assert dict(views.ranking(g)) == {
        "A": 430,
        "B": 313 + 40 + 220 + 67 + 134,
        "C": 245 + 270 + 70,
        "D": 276 + 90 + 134 + 110,
    }
