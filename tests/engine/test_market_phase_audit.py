"""Audit of the stock market, the operating order and the phases of 1830 against
18xx.games (tobymao/18xx), played with the options the importer switches on.

Each test pins one corner with exact values: where the price goes at the edges of the
grid, how a sale, a dividend and a sold-out stock round move it, the order of the markers
in one cell and the operating order it sets (fixed at each round's start, re-sorted for
the corporations still to operate after a president's forced sale), a corporation that
floats in an operating round, and what the first train of each type does (phase, rusting
in the bank pool too, train limit and the order of the discards, the D's trade-in, the
optional third 6-train).  The references are 18xx.games' 2-D market movement and the
corpus of games it played (tests/fixtures/18xx-games), cited where it speaks.

Games start from a copy of scenario.second_stock_round() with the importer's options:
B&M (president C 30%, A 20%, D 10%) floated at $100, bought a 2-train and withheld
($920, at $90, cell [0, 5]); NYC is started at $67 by D (20%) with B at 10%, not floated;
A holds SV, CA and CA's PRR share (PRR_1), B CS and BO, C DH, D MH; stock round 2 starts
with B.
"""

from __future__ import annotations

import pytest
from corpus_18xx import export as corpus_export
from readings_18xx import READINGS_18XX
from scenario import money, pass_round, run, second_stock_round
from test_operating import BOSTON_MANSFIELD

from eighteen import Game, load_title
from eighteen.engine import market, phases, shares, trains
from eighteen.engine.actions import (
    BuyTrain,
    DiscardTrain,
    Dividend,
    ExchangePrivate,
    Pass,
    RunRoutes,
    SellShares,
)
from eighteen.io.games18xx import import_game

TITLE = load_title("1830")

#: 18xx.games' 1830 market, written out here (facts reference §2) to check the compiled
#: moves against an independent walk of it.
GRID = [
    "60y 67 71 76 82 90 100p 112 126 142 160 180 200 225 250 275 300 325 350",
    "53y 60y 66 70 76 82 90p 100 112 126 142 160 180 200 220 240 260 280 300",
    "46y 55y 60y 65 70 76 82p 90 100 111 125 140 155 170 185 200",
    "39o 48y 54y 60y 66 71 76p 82 90 100 110 120 130",
    "32o 41o 48y 55y 62 67 71p 76 82 90 100",
    "25b 34o 42o 50y 58y 65 67p 71 75 80",
    "18b 27b 36o 45o 54y 63 67 69 70",
    "10b 20b 30b 40o 50y 60y 67 68",
    "- 10b 20b 30b 40o 50y 60y",
    "- - 10b 20b 30b 40o 50y",
    "- - - 10b 20b 30b 40o",
]
ROWS = [row.split() for row in GRID]


# -- helpers -------------------------------------------------------------------------------


def game(options: tuple[str, ...] = ()) -> Game:
    """scenario.second_stock_round() played with the importer's options (plus ``options``)."""
    g = second_stock_round(options=[*READINGS_18XX, *options])
    assert g.state.round.kind == "stock" and g.state.corporations["B&M"].cell == [0, 5]
    return g


def float_corp(
    g: Game,
    corp: str,
    cell: tuple[int, int],
    holders: list[str],
    cash: int = 0,
    trains_: tuple[str, ...] = (),
) -> None:
    """Setup: ``corp`` started and floated at ``cell``; its certificates go in order (the
    president's first) to ``holders`` (the rest stay in the IPO)."""
    certs = shares.cert_ids(g, corp)
    for cert, who in zip(certs, holders, strict=False):
        g.state.certs[cert] = who
    cs = g.state.corporations[corp]
    cs.par, cs.president, cs.floated = g.tables.cell(cell).price, holders[0], True
    cs.cash, cs.trains = cash, list(trains_)
    market.place(g, corp, cell)
    g.invalidate_caches()


def set_phase(g: Game, phase_id: str, sold: list[str]) -> None:
    """Setup: phase ``phase_id``; the bank has sold every train of the types ``sold``."""
    g.state.phase = g.tables.phase_index(phase_id)
    g.state.depot = [t for t in g.state.depot if trains.train_type(t) not in sold]
    g.state.bought_types = sorted(set(g.state.bought_types) | set(sold))
    g.invalidate_caches()


def to_or(g: Game) -> None:
    """Stock round 2 ends (everyone passes); B&M is to act in operating round 2."""
    pass_round(g)
    assert g.state.round.kind == "operating"


def cell(g: Game, corp: str) -> list[int] | None:
    return g.state.corporations[corp].cell


# -- the grid: every move of every cell ------------------------------------------------------


def _exists(r: int, c: int) -> bool:
    return 0 <= r < len(ROWS) and 0 <= c < len(ROWS[r]) and ROWS[r][c] != "-"


def _up(r: int, c: int) -> tuple[int, int]:
    return (r - 1, c) if _exists(r - 1, c) else (r, c)


def _down(r: int, c: int) -> tuple[int, int]:
    return (r + 1, c) if _exists(r + 1, c) else (r, c)


def _right(r: int, c: int) -> tuple[int, int]:
    return (r, c + 1) if _exists(r, c + 1) else _up(r, c)


def _left(r: int, c: int) -> tuple[int, int]:
    return (r, c - 1) if _exists(r, c - 1) else _down(r, c)


def test_every_cell_moves_as_18xx_games_walks_its_2d_market() -> None:
    """18xx.games (2-D market): a dividend moves right, up at a row's right end, and stays
    at the $350 corner; withholding moves left, down at a row's left end, and stays where
    neither exists ($10 of rows 7 and 8, the whole bottom-left ledge); a sold share moves
    one row down and stays where the column has no cell below ($68, $70, $80, $100, $130,
    $200, $300 and the bottom row); sold out moves one row up and stays on the top row.
    Zones: y lifts the certificate limit, o the 60% limit too, b allows several buys."""
    n = 0
    for r, row in enumerate(ROWS):
        for c, text in enumerate(row):
            if text == "-":
                continue
            cl = TITLE.cell((r, c))
            digits = text.rstrip("ypob")
            zone = text[len(digits) :]
            assert cl.price == int(digits), (r, c)
            assert (cl.pay, cl.withhold, cl.down, cl.up) == (
                _right(r, c),
                _left(r, c),
                _down(r, c),
                _up(r, c),
            ), (r, c)
            assert cl.par == (zone == "p")
            assert cl.cert_limit_exempt == (zone in ("y", "o", "b"))
            assert cl.holding_limit_exempt == (zone in ("o", "b"))
            assert cl.multiple_buy == (zone == "b")
            assert not cl.closes and not cl.ends_game
            n += 1
    assert n == 120
    assert [p for p in (TITLE.cell(rc).price for rc in TITLE.par_cells)] == [
        100,
        90,
        82,
        76,
        71,
        67,
    ]


# -- dividends ---------------------------------------------------------------------------------


def start_corp(g: Game, corp: str, cell: tuple[int, int]) -> None:
    """Setup: ``corp`` started (not floated) with its marker on ``cell``."""
    g.state.corporations[corp].par = g.tables.cell(cell).price
    market.place(g, corp, cell)
    g.invalidate_caches()


def bm_runs(g: Game, kind: str) -> None:
    """B&M passes its tile, runs Boston - Mansfield ($40) and pays out or withholds."""
    run(g, Pass("B&M"), RunRoutes("B&M", (BOSTON_MANSFIELD,)), Dividend("B&M", kind))


@pytest.mark.parametrize(
    "start,kind,after,price",
    [
        ((1, 18), "payout", [0, 18], 350),  # $300, right end of row 1: up to $350
        ((7, 7), "payout", [6, 7], 69),  # $68, right end of row 7: up
        ((8, 6), "payout", [7, 6], 67),  # $60, right end of row 8: up
        ((10, 6), "payout", [9, 6], 50),  # $40, bottom right: up
        ((0, 0), "withhold", [1, 0], 53),  # $60, top left: down
        ((7, 0), "withhold", [7, 0], 10),  # $10: no cell left, none below: stays
        ((8, 1), "withhold", [8, 1], 10),  # $10 on the ledge: stays
        ((10, 3), "withhold", [10, 3], 10),  # bottom-left corner: stays
    ],
)
def test_a_dividend_at_the_edges_of_the_grid(
    start: tuple[int, int], kind: str, after: list[int], price: int
) -> None:
    """18xx.games: pay-out right (up at a row's end), withhold left (down at a row's
    start, else nowhere); the corpus has each kind (e.g. g2p_s2005: ERIE withholds at $10
    of row 7 and stays)."""
    g = game()
    market.place(g, "B&M", start)
    to_or(g)
    bm_runs(g, kind)
    assert cell(g, "B&M") == after and market.price(g, "B&M") == price
    assert g.state.corporations["B&M"].cash == 920 + (40 if kind == "withhold" else 0)


def test_a_marker_that_cannot_move_keeps_its_place_in_its_cell() -> None:
    """18xx.games moves a marker only to another cell: at the $350 corner B&M's pay-out
    leaves it where it is, ahead of PRR that came to that cell after it."""
    g = game()
    market.place(g, "B&M", (0, 18))
    start_corp(g, "PRR", (0, 18))
    assert market.operating_order(g, ["PRR", "B&M"]) == ["B&M", "PRR"]
    to_or(g)
    bm_runs(g, "payout")
    assert cell(g, "B&M") == [0, 18]
    assert market.operating_order(g, ["PRR", "B&M"]) == ["B&M", "PRR"]


def test_a_marker_arriving_in_an_occupied_cell_goes_behind() -> None:
    """B&M pays out at $280 and moves right to $300, where PRR already stands: it goes
    under PRR (18xx.games appends it to the cell's list), and PRR now operates first."""
    g = game()
    market.place(g, "B&M", (1, 17))
    start_corp(g, "PRR", (1, 18))
    to_or(g)
    bm_runs(g, "payout")
    assert cell(g, "B&M") == [1, 18] and market.price(g, "B&M") == 300
    assert market.operating_order(g, ["B&M", "PRR"]) == ["PRR", "B&M"]


# -- sales -------------------------------------------------------------------------------------


def test_one_row_down_per_10_percent_in_one_sale() -> None:
    """A sale of 20% moves the price two rows (not one per sale): $90 -> $82 -> $76;
    A is paid $90 a share, the price before the sale."""
    g = game()
    run(g, Pass("B"), Pass("C"), Pass("D"), SellShares("A", "B&M", 20))
    assert cell(g, "B&M") == [2, 5] and market.price(g, "B&M") == 76
    assert g.state.player("A").cash == 250 + 180
    assert shares.percent_of(g, "B&M", "pool") == 20


def test_a_presidents_sale_drops_a_row_per_10_percent_sold() -> None:
    """C sells all his 30% (the 20% president's certificate and a share): A, with 20%,
    takes the presidency and hands C two shares; the pool gets three 10% shares and the
    price drops three rows, $90 -> $71 (18xx.games: the bundle's percent / 10)."""
    g = game()
    run(g, Pass("B"), SellShares("C", "B&M", 30))
    assert g.state.corporations["B&M"].president == "A"
    assert g.state.certs["B&M_0"] == "A"
    assert shares.percent_of(g, "B&M", "pool") == 30
    assert cell(g, "B&M") == [3, 5] and market.price(g, "B&M") == 71
    assert g.state.player("C").cash == 245 + 270


def test_an_unfloated_corporations_marker_moves_down_when_its_shares_are_sold() -> None:
    """NYC (started, not floated) at $67 in the par column: B's sale moves it one row down,
    to the $67 of row 6; at one price the higher row operates first, so a corporation at
    the $67 par cell now goes before NYC, one at row 7's $67 after it (the corpus has such
    sales in both kinds of round; g3p_s3003 orders by row at $67)."""
    g = game()
    run(g, SellShares("B", "NYC", 10))
    assert cell(g, "NYC") == [6, 6] and market.price(g, "NYC") == 67
    assert g.state.player("B").cash == 313 + 67
    assert not g.state.corporations["NYC"].floated
    start_corp(g, "PRR", (5, 6))
    start_corp(g, "CPR", (7, 6))
    assert market.operating_order(g, ["CPR", "NYC", "PRR"]) == ["PRR", "NYC", "CPR"]


def test_a_sale_where_the_column_has_no_cell_below_leaves_the_price() -> None:
    """$68 (row 7, the last column of its row) has no cell below: a sale pays $68 and the
    marker stays (corpus: g2p_s2001 sells B&O at $80, which stays)."""
    g = game()
    market.place(g, "B&M", (7, 7))
    run(g, Pass("B"), Pass("C"), Pass("D"), SellShares("A", "B&M", 10))
    assert cell(g, "B&M") == [7, 7] and market.price(g, "B&M") == 68
    assert g.state.player("A").cash == 250 + 68


# -- sold out at the end of a stock round -------------------------------------------------------


PRR_HOLDERS = ["B", "A", "B", "C", "C", "D", "D", "B", "A"]
CPR_HOLDERS = ["C", "D", "D", "A", "A", "B", "B", "C", "D"]


@pytest.mark.parametrize("first", ["PRR", "CPR"])
def test_sold_out_corporations_rise_in_operating_order(first: str) -> None:
    """Stock round end: PRR and CPR, both 100% in players' hands in the $82 par cell, rise
    one row to $90 where NYNH already stands.  18xx.games moves the sold-out corporations
    in operating order, so the one that was ahead in the $82 cell stays ahead of the other,
    and both go behind NYNH; NYNH, which is not sold out, and B&M (shares in the IPO)
    stay.  The OR then runs the $90s further right first: NYNH is not floated."""
    g = game()
    second = "CPR" if first == "PRR" else "PRR"
    start_corp(g, "NYNH", (1, 6))
    holders = {"PRR": PRR_HOLDERS, "CPR": CPR_HOLDERS}
    # ($100 each: PRR and CPR can lay a tile, so the first to operate stops there)
    float_corp(g, first, (2, 6), holders[first], cash=100)
    float_corp(g, second, (2, 6), holders[second], cash=100)
    assert shares.percent_of(g, "PRR", "ipo") == shares.percent_of(g, "CPR", "ipo") == 0
    to_or(g)
    assert cell(g, "PRR") == cell(g, "CPR") == cell(g, "NYNH") == [1, 6]
    assert cell(g, "B&M") == [0, 5]
    assert market.operating_order(g, ["PRR", "CPR", "NYNH"]) == ["NYNH", first, second]
    assert g.state.round.order == [first, second, "B&M"]


# -- the operating order -------------------------------------------------------------------------


def pass_turn(g: Game, corp: str) -> None:
    """``corp`` declines everything optional until its turn ends."""
    r = g.state.round
    index = r.index
    while g.state.round is r and r.index == index and g.acting() == corp:
        acts = g.legal_actions()
        passes = [a for a in acts if isinstance(a, Pass)]
        run(g, passes[0] if passes else acts[0])


def test_each_operating_round_of_a_set_sorts_again_from_its_own_start() -> None:
    """Phase 3: two ORs.  OR 1 starts with PRR ($100) before B&M ($90); PRR earns nothing
    (no train) and falls to $90 behind B&M, B&M pays and rises to $100: within OR 1
    nothing re-sorts, OR 2 starts B&M first."""
    g = game()
    set_phase(g, "3", ["2"])
    float_corp(g, "PRR", (0, 6), ["B", "A", "B", "C", "D"])
    to_or(g)
    r = g.state.round
    assert (r.number, r.set_size, r.order) == (1, 2, ["PRR", "B&M"])
    pass_turn(g, "PRR")
    assert cell(g, "PRR") == [0, 5] and market.price(g, "PRR") == 90
    assert market.operating_order(g, ["PRR", "B&M"]) == ["B&M", "PRR"]
    assert g.state.round.order == ["PRR", "B&M"] and g.acting() == "B&M"
    bm_runs(g, "payout")
    assert cell(g, "B&M") == [0, 6]
    pass_turn(g, "B&M")
    r = g.state.round
    assert (r.number, r.set_size, r.order) == (2, 2, ["B&M", "PRR"])
    assert g.acting() == "B&M"


def test_a_forced_sale_of_a_corporation_that_has_operated_leaves_the_order() -> None:
    """Order PRR ($100), B&M ($90), CPR ($82).  PRR operates and withholds to $90.  B&M
    must buy a train with no cash: C sells 10% of PRR, which drops to $82 behind CPR.
    Only the corporations still to operate are sorted again (18xx.games'
    recalculate_order): PRR keeps its place, CPR operates after B&M."""
    g = game()
    float_corp(g, "PRR", (0, 6), ["B", "A", "B", "C", "D"])
    float_corp(g, "CPR", (1, 5), ["A", "D", "D", "B", "B"], cash=100)
    g.state.corporations["B&M"].cash, g.state.corporations["B&M"].trains = 0, []
    g.state.player("C").cash = 20
    to_or(g)
    assert g.state.round.order == ["PRR", "B&M", "CPR"]
    pass_turn(g, "PRR")
    assert cell(g, "PRR") == [0, 5]
    assert g.acting() == "B&M" and g.state.round.step == "trains"  # no money for a tile
    run(g, SellShares("C", "PRR", 10))
    assert cell(g, "PRR") == [1, 5] and market.price(g, "PRR") == 82
    assert market.operating_order(g, ["PRR", "CPR"]) == ["CPR", "PRR"]
    assert g.state.round.order == ["PRR", "B&M", "CPR"] and g.state.round.index == 1
    assert g.state.player("C").cash == 20 + 15 + 90  # D&H paid $15 as the round began
    run(g, BuyTrain("B&M", "2-1", 80))
    assert g.state.player("C").cash == 20 + 15 + 90 - 80
    pass_turn(g, "B&M")
    assert g.acting() == "CPR"


def test_corpus_forced_sales_resort_the_rest_by_price_and_arrival() -> None:
    """g4p_s4005, OR with C&O, PRR, NYC, B&M, B&O, CPR, NYNH, ERIE to operate: action 632
    (C&O's president sells NYNH in C&O's forced purchase) drops NYNH from $76 to $70, into
    ERIE's cell behind ERIE; action 635 (PRR's president sells NYC) drops NYC from $155,
    the cell it shared ahead of B&M, to $130.  Our order is the one the log then follows."""
    data = corpus_export("g4p_s4005")
    before = import_game(data, stop_at=631).game
    assert before.state.round.order == [
        "C&O",
        "PRR",
        "NYC",
        "B&M",
        "B&O",
        "CPR",
        "NYNH",
        "ERIE",
    ]
    res = import_game(data, stop_at=635)
    assert res.divergence is None
    g = res.game
    expected = ["C&O", "PRR", "B&M", "NYC", "B&O", "CPR", "ERIE", "NYNH"]
    assert g.state.round.order == expected and g.state.round.index == 1
    assert (cell(g, "NYNH"), cell(g, "ERIE")) == ([1, 3], [1, 3])
    assert (cell(g, "NYC"), cell(g, "B&M")) == ([3, 12], [2, 12])
    acted: list[str] = []
    for a in data["actions"]:
        new = a.get("entity_type") == "corporation" and a["entity"] not in acted
        if a["id"] >= 633 and new:
            acted.append(a["entity"])
        if len(acted) == len(expected):
            break
    assert acted == expected


def test_a_corporation_floated_by_the_mh_exchange_in_an_or_waits_for_the_next() -> None:
    """NYC has 50% out of the IPO; in OR 2 D exchanges M&H for a 10% NYC share from the
    IPO: NYC floats at once and the bank pays it 10 x $67; the OR's order, fixed at its
    start, does not take it in; the next OR does."""
    g = game()
    g.state.certs["NYC_2"], g.state.certs["NYC_3"] = "A", "C"
    g.invalidate_caches()
    to_or(g)
    bank = g.state.bank
    g.apply(ExchangePrivate("D", "MH", "ipo"))  # (any time: not the acting player)
    nyc = g.state.corporations["NYC"]
    assert nyc.floated and nyc.cash == 670 and g.state.bank == bank - 670
    assert nyc.president == "D" and shares.percent_of(g, "NYC", "D") == 30
    assert g.state.round.order == ["B&M"] and g.acting() == "B&M"
    pass_turn(g, "B&M")
    assert g.state.round.kind == "stock"
    pass_round(g)
    assert g.state.round.kind == "operating" and g.state.round.order == ["B&M", "NYC"]
    assert money(g) == 12000


# -- phases and trains ---------------------------------------------------------------------------


def test_the_first_5_discards_go_in_charter_order_not_price_or_buyer() -> None:
    """Phase 4 -> 5: B&M (no train, $1000) must buy and takes the first 5-train; the
    limit drops to 2 and PRR and CPR, three trains each, discard one each: PRR first
    (charter order, as 18xx.games' crowded corporations; the corpus has such discards
    where that is not price order, e.g. g2p_s2004: B&O before C&O), although CPR stands
    higher; then B&M goes on.  The first 5 closes every private, the off-boards pay their
    brown value, brown tiles come, and the current set keeps the two ORs of phase 4."""
    g = game()
    set_phase(g, "4", ["2", "3", "4"])
    float_corp(g, "CPR", (3, 6), ["A", "D", "D", "B", "B"], trains_=("4-0", "4-1", "3-0"))
    float_corp(g, "PRR", (4, 6), ["B", "A", "B", "C", "D"], trains_=("4-2", "4-3", "3-1"))
    g.state.corporations["B&M"].cash, g.state.corporations["B&M"].trains = 1000, []
    to_or(g)
    assert g.state.round.order == ["B&M", "CPR", "PRR"]
    while g.state.round.step != "trains":
        run(g, Pass("B&M"))
    run(g, BuyTrain("B&M", "5-0", 450))
    assert phases.current_id(g) == "5" and phases.train_limit(g) == 2
    assert all(p.closed for p in g.state.privates.values())
    assert phases.revenue_key(g) == "brown" and "brown" in phases.tile_colors(g)
    assert g.acting() == "PRR"
    assert {(type(a), a.actor) for a in g.legal_actions()} == {(DiscardTrain, "PRR")}
    run(g, DiscardTrain("PRR", "3-1"))
    assert g.acting() == "CPR"
    run(g, DiscardTrain("CPR", "4-0"))
    assert g.acting() == "B&M"
    assert g.state.train_pool == ["3-1", "4-0"]
    assert g.state.corporations["PRR"].trains == ["4-2", "4-3"]
    assert g.state.corporations["CPR"].trains == ["4-1", "3-0"]
    assert (g.state.round.number, g.state.round.set_size) == (1, 2)  # phase 4's two


def test_rusting_takes_the_bank_pools_trains_too_and_a_traded_in_train_goes_there() -> None:
    """Phase 5 with a 3 and a 4 discarded in the bank pool.  B&M buys the first 6: every
    3 rusts, the pool's as well, and the D goes on sale beside the 6 ($1100, or $800 for
    a 4, 5 or 6 handed in).  It then buys the first D handing in its 6: every 4 rusts,
    the pool's too; the 6 it handed in goes to the pool and is sold again at $630
    (corpus: g3p_s3004 rusts a pool 4; g2p_s2010 buys a traded-in 5 from the pool); the
    D's copies never run out."""
    g = game()
    set_phase(g, "5", ["2", "3", "4", "5"])
    g.state.train_pool = ["3-4", "4-3"]
    float_corp(g, "CPR", (3, 6), ["A", "D", "D", "B", "B"], trains_=("3-0", "5-1"))
    g.state.corporations["B&M"].cash, g.state.corporations["B&M"].trains = 3000, []
    to_or(g)
    while g.state.round.step != "trains":
        run(g, Pass("B&M"))
    cash = g.state.corporations["B&M"].cash
    run(g, BuyTrain("B&M", "6-0", 630))
    assert phases.current_id(g) == "6"
    assert g.state.train_pool == ["4-3"] and g.state.corporations["CPR"].trains == ["5-1"]
    offers = {(o.train, o.price, o.exchange) for o in trains.bank_offers(g, "B&M")}
    assert offers == {
        ("6-1", 630, None),
        ("D-0", 1100, None),
        ("D-0", 800, "6-0"),
        ("4-3", 300, None),
    }
    run(g, BuyTrain("B&M", "D-0", 800, "6-0"))
    assert phases.current_id(g) == "D" and phases.train_limit(g) == 2
    assert g.state.corporations["B&M"].trains == ["D-0"]
    assert g.state.corporations["B&M"].cash == cash - 630 - 800
    assert g.state.train_pool == ["6-0"]
    offers = {(o.train, o.price, o.exchange) for o in trains.bank_offers(g, "CPR")}
    assert offers == {
        ("6-1", 630, None),
        ("D-1", 1100, None),
        ("D-1", 800, "5-1"),
        ("6-0", 630, None),
    }


def test_a_train_bought_from_another_corporation_starts_nothing() -> None:
    """Phase 4 with 4s left in the bank: B&M buys PRR's 4 for $1.  The depot, the phase,
    the types bought and CPR's 3 (rusting only at the first 6) are unchanged."""
    g = game()
    set_phase(g, "3", ["2", "3"])
    g.state.depot.remove("4-0")
    g.state.bought_types.append("4")
    g.state.phase = g.tables.phase_index("4")
    float_corp(g, "PRR", (3, 6), ["B", "A", "B", "C", "D"], trains_=("4-0",))
    float_corp(g, "CPR", (4, 6), ["A", "D", "D", "B", "B"], trains_=("3-0",))
    g.state.corporations["B&M"].trains = []
    to_or(g)
    while g.state.round.step != "trains":
        run(g, Pass("B&M"))
    depot, bought = list(g.state.depot), list(g.state.bought_types)
    run(g, BuyTrain("B&M", "4-0", 1))
    assert g.state.corporations["B&M"].trains == ["4-0"]
    assert g.state.corporations["PRR"].trains == [] and g.state.corporations["PRR"].cash == 1
    assert g.state.depot == depot and g.state.bought_types == bought
    assert phases.current_id(g) == "4" and g.state.corporations["CPR"].trains == ["3-0"]


@pytest.mark.parametrize("options,sixes", [((), 2), (("optional_6_train",), 3)])
def test_the_optional_rule_adds_a_third_6(options: tuple[str, ...], sixes: int) -> None:
    """18xx.games' optional_6_train: three 6-trains instead of two.  With both first 6s
    sold the bank still offers the third (and the D, on sale from phase 6)."""
    g = game(options)
    assert [t for t in g.state.depot if t.startswith("6-")] == [f"6-{i}" for i in range(sixes)]
    set_phase(g, "6", ["2", "3", "4", "5"])
    g.state.depot = [t for t in g.state.depot if t not in ("6-0", "6-1")]
    offers = {(o.train, o.price) for o in trains.bank_offers(g, "B&M") if o.exchange is None}
    assert offers == ({("6-2", 630)} if sixes == 3 else set()) | {("D-0", 1100)}


def test_an_export_with_the_optional_6_train_plays_three() -> None:
    """The importer turns the export's optional rule into the title option."""
    data = corpus_export("g2p_s2001")
    data["settings"]["optional_rules"] = ["optional_6_train"]
    g = import_game(data, stop_at=1).game
    assert [t for t in g.state.depot if t.startswith("6-")] == ["6-0", "6-1", "6-2"]
