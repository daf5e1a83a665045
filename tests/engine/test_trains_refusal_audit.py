"""Audit of the train step's refusals (rounds/or_trains.py, trains.py, phase changes,
privates bought by corporations) against 1830 as 18xx.games plays it: every game here is
played with the options the importer switches on (the title's ``import_18xx.options``).

Each test pins one corner with exact values: an action accepted (its outcome) or refused
(IllegalAction, the state hash unchanged).

Games start from the scenario's second stock round (B&M: president C 30%, A 20%, D 10%;
NYC started at $67 by D 20%, B 10%, not floated), passed, so that B&M operates; most tests
then take B&M, trainless, to its train step (no run: its price falls from $90 to $82) and
set the position up there.
"""

from __future__ import annotations

import pytest
from corpus_18xx import export as corpus_export
from readings_18xx import READINGS_18XX
from scenario import money, run, second_stock_round

from eighteen import Game, IllegalAction, load_title
from eighteen.engine import market, network, trains
from eighteen.engine.actions import (
    Action,
    Bankrupt,
    BuyCompany,
    BuyTrain,
    DiscardTrain,
    Pass,
    SellShares,
)
from eighteen.io.games18xx import import_game

TITLE = load_title("1830")

_BASE: list[Game] = []


def or_game() -> Game:
    """B&M at its track step in operating round 1 of set 2 (a copy of one game built once):
    cash A $280, B $353, C $260, D $296; B&M $920 with train 2-0, price $90."""
    if not _BASE:
        g = second_stock_round(options=READINGS_18XX)  # operating round 1: B&M buys a 2-train
        run(g, Pass("B"), Pass("C"), Pass("D"), Pass("A"))
        assert g.acting() == "B&M" and g.state.round.step == "track"
        _BASE.append(g)
    return _BASE[0].clone()


def set_phase(g: Game, phase_id: str, sold: tuple[str, ...]) -> None:
    """Setup: phase ``phase_id``, the bank has sold every train of the types ``sold``."""
    g.state.phase = g.tables.phase_index(phase_id)
    g.state.depot = [t for t in g.state.depot if trains.train_type(t) not in sold]
    g.state.bought_types = sorted(set(g.state.bought_types) | set(sold))
    g.invalidate_caches()


def take_from_depot(g: Game, *tids: str) -> None:
    """Setup: these trains have left the depot (to be handed to corporations or the pool)."""
    g.state.depot = [t for t in g.state.depot if t not in tids]


def at_trains(phase: str = "2", sold: tuple[str, ...] = ()) -> Game:
    """B&M, trainless, at its train step (after its track step; no run, price $82)."""
    g = or_game()
    set_phase(g, phase, sold)
    g.state.corporations["B&M"].trains = []
    g.invalidate_caches()
    run(g, Pass("B&M"))
    assert g.acting() == "B&M" and g.state.round.step == "trains"
    assert market.price(g, "B&M") == 82
    return g


def setup(g: Game, **cash: int) -> None:
    """Setup: the cash of corporations (their ids) and players (A-D); ``BM`` is B&M.  The
    bank makes up the difference (the game's money stays $12000)."""
    for who, amount in cash.items():
        holder = g.state.corporations.get("B&M" if who == "BM" else who) or g.state.player(who)
        g.state.bank -= amount - holder.cash
        holder.cash = amount
    g.invalidate_caches()


def refused(g: Game, action: Action, reason: str) -> None:
    """``action`` is refused for ``reason`` (a regex) and the state is unchanged."""
    before = g.state_hash()
    with pytest.raises(IllegalAction, match=reason):
        g.apply(action)
    assert g.state_hash() == before


def offers(g: Game) -> set[tuple[str, int, str | None]]:
    """The trains (id, price, trade-in) the acting corporation is offered."""
    return {(a.train, a.price, a.exchange) for a in g.legal_actions() if isinstance(a, BuyTrain)}


def sales(g: Game) -> set[tuple[str, str, int]]:
    return {
        (a.actor, a.corporation, a.percent) for a in g.legal_actions() if isinstance(a, SellShares)
    }


def nyc_president_c(g: Game) -> None:
    """Setup: C holds NYC's president's certificate and one share (30%), D two shares (20%),
    B one (10%): C is NYC's president."""
    certs = g.state.certs
    certs["NYC_0"], certs["NYC_2"] = "C", "C"
    certs["NYC_3"], certs["NYC_4"] = "D", "D"
    g.state.corporations["NYC"].president = "C"
    g.invalidate_caches()


# -- trains between corporations --------------------------------------------------------------


@pytest.mark.parametrize(("price", "nyc_president"), [(1, "D"), (500, "D"), (1, "C"), (180, "C")])
def test_a_train_between_corporations_costs_1_up_to_the_buyers_treasury(
    price: int, nyc_president: str
) -> None:
    """18xx.games: any price from $1 to the buyer's cash, whoever presides the seller
    (above list price too); the money goes to the seller."""
    g = at_trains("3", ("2",))
    take_from_depot(g, "3-0")
    g.state.corporations["B&M"].trains = ["2-0"]  # setup: not a forced purchase
    g.state.corporations["NYC"].trains = ["3-0"]
    if nyc_president == "C":
        nyc_president_c(g)
    setup(g, BM=500, NYC=0)
    run(g, BuyTrain("B&M", "3-0", price))
    assert g.state.corporations["B&M"].trains == ["2-0", "3-0"]
    assert g.state.corporations["NYC"].trains == []
    assert (g.state.corporations["B&M"].cash, g.state.corporations["NYC"].cash) == (
        500 - price,
        price,
    )
    assert g.state.player("C").cash == 260
    assert money(g) == 12000


def test_a_train_between_corporations_is_refused_below_1_and_above_the_treasury() -> None:
    """$0 is refused; beyond its treasury the buyer gets no help (no forced purchase)."""
    g = at_trains("3", ("2",))
    take_from_depot(g, "3-0")
    g.state.corporations["B&M"].trains = ["2-0"]
    g.state.corporations["NYC"].trains = ["3-0"]
    setup(g, BM=100, C=1000)
    assert ("3-0", 1, None) in offers(g) and ("3-0", 100, None) in offers(g)
    assert max(p for t, p, _ in offers(g) if t == "3-0") == 100
    refused(g, BuyTrain("B&M", "3-0", 0), r"at least \$1")
    refused(g, BuyTrain("B&M", "3-0", 101), "the president helps only for a forced purchase")
    refused(g, BuyTrain("B&M", "3-1", 180), "the president helps only to buy the cheapest")


def test_the_train_limit_refuses_bank_and_corporation_trains() -> None:
    """Phase 3, limit 4: a corporation with four trains buys none (18xx.games: room?)."""
    g = at_trains("3", ("2",))
    take_from_depot(g, "3-0", "3-1", "3-2", "3-3")
    g.state.corporations["B&M"].trains = ["2-0", "3-1", "3-2", "3-3"]
    g.state.corporations["NYC"].trains = ["3-0"]
    setup(g, BM=1000)
    refused(g, BuyTrain("B&M", "3-4", 180), "buy_train is not possible now")
    refused(g, BuyTrain("B&M", "3-0", 1), "buy_train is not possible now")


def test_a_d_trade_in_makes_its_own_room_at_the_limit() -> None:
    """Phase 6, limit 2: with a 5 and a 6, B&M may only trade one in for a D at $800 (not
    buy the D at $1100, the last 6 or NYC's 4); the 5 goes to the bank at list price, the
    first D rusts every 4 (NYC's) and starts phase D."""
    g = at_trains("6", ("2", "3", "4", "5"))
    g.state.depot = ["6-1"]
    g.state.corporations["B&M"].trains = ["5-0", "6-0"]
    g.state.corporations["NYC"].trains = ["4-1"]
    setup(g, BM=1200)
    assert offers(g) == {("D-0", 800, "5-0"), ("D-0", 800, "6-0")}
    refused(g, BuyTrain("B&M", "D-0", 1100), r"train limit \(2\)")
    refused(g, BuyTrain("B&M", "6-1", 630), r"train limit \(2\)")
    run(g, BuyTrain("B&M", "D-0", 800, "5-0"))
    assert g.state.corporations["B&M"].trains == ["6-0", "D-0"]
    assert g.state.corporations["B&M"].cash == 400
    assert g.tables.phases[g.state.phase].id == "D"
    assert g.state.corporations["NYC"].trains == []
    assert g.state.train_pool == ["5-0"]
    assert ("5-0", 450) in {(o.train, o.price) for o in trains.bank_offers(g, "NYC")}
    assert money(g) == 12000


def test_the_first_6_rusts_threes_not_fours_and_a_d_may_follow_in_the_same_turn() -> None:
    """The first 6 rusts the 3s only (4s rust on the first D); with 18xx.games' reading
    the buyer may at once trade that 6 in for the first D, which rusts the 4s; the 6
    traded in stays for sale at $630."""
    g = at_trains("5", ("2", "3", "4"))
    g.state.depot = [t for t in g.state.depot if not t.startswith("5-")]
    g.state.corporations["NYC"].trains = ["3-1", "4-1"]
    setup(g, BM=2000)
    run(g, BuyTrain("B&M", "6-0", 630))
    assert g.tables.phases[g.state.phase].id == "6"
    assert g.state.corporations["NYC"].trains == ["4-1"]
    assert offers(g) >= {("6-1", 630, None), ("D-0", 1100, None), ("D-0", 800, "6-0")}
    run(g, BuyTrain("B&M", "D-0", 800, "6-0"))
    assert g.state.corporations["B&M"].trains == ["D-0"]
    assert g.state.corporations["NYC"].trains == []
    assert g.state.train_pool == ["6-0"]
    assert g.state.corporations["B&M"].cash == 2000 - 630 - 800


# -- the first 5 in mid-turn: discards in table order --------------------------------------------


def test_the_first_5_closes_privates_and_other_corporations_discard_in_table_order() -> None:
    """B&M's first 5 (phase 5, limit 2) closes every private; NYC then B&O (table order:
    PRR, NYC, CPR, B&O, ...) discard at once, one train at a time, before B&M goes on; the
    discards are for sale at list price and B&M may buy another 5 in the same turn."""
    g = at_trains("4", ("2", "3", "4"))
    g.state.corporations["NYC"].trains = ["4-0", "3-0", "3-1"]
    g.state.corporations["B&O"].trains = ["4-1", "3-2", "3-3"]
    setup(g, BM=2000)
    run(g, BuyTrain("B&M", "5-0", 450))
    assert g.tables.phases[g.state.phase].id == "5"
    assert all(ps.closed for ps in g.state.privates.values())
    assert g.acting() == "NYC"
    assert set(g.legal_actions()) == {DiscardTrain("NYC", t) for t in ("4-0", "3-0", "3-1")}
    refused(g, DiscardTrain("B&O", "3-2"), "not B&O's turn: NYC is to act")
    refused(g, BuyTrain("B&M", "5-1", 450), "the discard step expects discard_train")
    run(g, DiscardTrain("NYC", "3-0"))
    assert g.acting() == "B&O"
    run(g, DiscardTrain("B&O", "4-1"))
    assert (g.acting(), g.state.round.step) == ("B&M", "trains")
    assert g.state.train_pool == ["3-0", "4-1"]
    assert {o for o in offers(g) if trains.owner_of(g, o[0]) in (None, "pool")} == {
        ("5-1", 450, None),
        ("3-0", 180, None),
        ("4-1", 300, None),
    }
    run(g, BuyTrain("B&M", "5-1", 450))
    assert g.state.corporations["B&M"].trains == ["5-0", "5-1"]
    assert g.state.corporations["B&M"].cash == 2000 - 900


def test_a_discard_needs_a_corporation_over_the_limit_and_its_own_train() -> None:
    g = at_trains("4", ("2", "3", "4"))
    g.state.corporations["NYC"].trains = ["4-0", "3-0", "3-1"]
    setup(g, BM=2000)
    refused(g, DiscardTrain("NYC", "3-0"), "discard_train is not possible now")  # none over
    run(g, BuyTrain("B&M", "5-0", 450))
    refused(g, DiscardTrain("NYC", "3-2"), "does not own train 3-2")


# -- the forced purchase ---------------------------------------------------------------------------


def test_a_forced_purchase_takes_the_cheapest_bank_train_even_a_discarded_one() -> None:
    """Phase 5, a 4 discarded to the bank ($300) and 5s in the depot ($450): B&M ($50) must
    buy; its president helps only for the cheapest bank train, the discarded 4 (18xx.games:
    the depot's trains include the discards; the cheapest when the president pays)."""
    g = at_trains("5", ("2", "3", "4"))
    g.state.train_pool = ["4-2"]
    setup(g, BM=50, C=1000)
    assert {o for o in offers(g) if trains.owner_of(g, o[0]) in (None, "pool")} == {
        ("4-2", 300, None)
    }
    assert Pass("B&M") not in g.legal_actions()
    refused(g, Pass("B&M"), "must own a train")
    refused(g, BuyTrain("B&M", "5-0", 450), "the president helps only to buy the cheapest")
    run(g, BuyTrain("B&M", "4-2", 300))
    assert g.state.corporations["B&M"].trains == ["4-2"]
    assert (g.state.corporations["B&M"].cash, g.state.player("C").cash) == (0, 750)
    assert g.state.train_pool == []


def test_a_forced_purchase_the_treasury_can_pay_gets_no_help_for_a_dearer_train() -> None:
    """B&M ($700) must buy and can pay the last 6 ($630): C does not help it to a D."""
    g = at_trains("6", ("2", "3", "4", "5"))
    g.state.depot = ["6-1"]
    setup(g, BM=700, C=1000)
    assert offers(g) == {("6-1", 630, None)}
    refused(g, BuyTrain("B&M", "D-0", 1100), "the president helps only to buy the cheapest")
    run(g, BuyTrain("B&M", "6-1", 630))
    assert (g.state.corporations["B&M"].cash, g.state.player("C").cash) == (70, 1000)


@pytest.mark.parametrize(
    ("train", "price", "bm_after", "c_after"),
    [("3-0", 1, 49, 250), ("3-0", 50, 0, 250), ("3-0", 120, 0, 180), ("4-1", 300, 0, 0)],
)
def test_a_forced_purchase_from_another_corporation_up_to_its_list_price(
    train: str, price: int, bm_after: int, c_after: int
) -> None:
    """B&M ($50) must buy (cheapest bank train $300): it may buy NYC's train instead at any
    price up to the train's list price, the treasury paying first, then C (18xx.games:
    EBUY_OTHER_VALUE, "Cannot buy for more than cost")."""
    g = at_trains("4", ("2", "3"))
    take_from_depot(g, "4-1")
    g.state.corporations["NYC"].trains = ["3-0", "4-1"]
    setup(g, BM=50, C=250, NYC=0)
    run(g, BuyTrain("B&M", train, price))
    assert g.state.corporations["B&M"].trains == [train]
    assert (g.state.corporations["B&M"].cash, g.state.player("C").cash) == (bm_after, c_after)
    assert g.state.corporations["NYC"].cash == price
    assert money(g) == 12000


@pytest.mark.parametrize(
    ("train", "price", "c_cash", "reason"),
    [
        ("3-0", 181, 250, "up to the train's list price"),
        ("4-1", 301, 1000, "up to the train's list price"),
        ("4-1", 300, 249, r"C cannot add \$250"),
    ],
)
def test_a_forced_purchase_from_another_corporation_refused(
    train: str, price: int, c_cash: int, reason: str
) -> None:
    g = at_trains("4", ("2", "3"))
    take_from_depot(g, "4-1")
    g.state.corporations["NYC"].trains = ["3-0", "4-1"]
    setup(g, BM=50, C=c_cash)
    refused(g, BuyTrain("B&M", train, price), reason)


# -- the president's emergency sales -----------------------------------------------------------------


def test_emergency_sales_offered_keep_this_presidency_and_may_pass_anothers() -> None:
    """B&M ($50) must buy a 4 ($300), C has $0: C may sell B&M down to a tie with A (10%),
    and NYC's presidency to D (10%, 20% or 30%: no sale is more than needed yet)."""
    g = at_trains("4", ("2", "3"))
    nyc_president_c(g)
    setup(g, BM=50, C=0)
    assert sales(g) == {("C", "B&M", 10), ("C", "NYC", 10), ("C", "NYC", 20), ("C", "NYC", 30)}
    refused(g, SellShares("C", "B&M", 20), "would give away the presidency of B&M")
    refused(g, SellShares("D", "NYC", 10), "only the president of B&M may sell")
    run(g, SellShares("C", "B&M", 10))  # C 20% = A 20%: C stays president
    assert g.state.corporations["B&M"].president == "C"
    assert g.state.player("C").cash == 82
    assert market.price(g, "B&M") == 76
    run(g, SellShares("C", "NYC", 20))
    assert g.state.corporations["NYC"].president == "D"
    assert g.state.certs["NYC_0"] == "D"
    assert g.state.player("C").cash == 82 + 134
    assert market.price(g, "NYC") == 67  # (two rows down column 6: 67, 67)
    # $50 + $216 < $300: no train yet, C sells on (B&M 10% more would lose its presidency)
    assert (sales(g), offers(g)) == ({("C", "NYC", 10)}, set())
    run(g, SellShares("C", "NYC", 10))
    run(g, BuyTrain("B&M", "4-0", 300))  # the treasury's $50 first, then C's $250
    assert (g.state.corporations["B&M"].cash, g.state.player("C").cash) == (0, 283 - 250)
    assert g.state.corporations["B&M"].trains == ["4-0"]


def test_an_emergency_sale_is_only_as_large_as_needed() -> None:
    """C ($150) needs $100 more: NYC at $67, 20% leaves a share short of it, 30% does not."""
    g = at_trains("4", ("2", "3"))
    nyc_president_c(g)
    setup(g, BM=50, C=150)
    assert sales(g) == {("C", "B&M", 10), ("C", "NYC", 10), ("C", "NYC", 20)}
    refused(g, SellShares("C", "NYC", 30), r"only as many shares as needed \(\$100\)")


def test_an_emergency_sale_may_not_fill_the_pool_past_half() -> None:
    g = at_trains("4", ("2", "3"))
    nyc_president_c(g)
    for cert in ("NYC_5", "NYC_6", "NYC_7"):
        g.state.certs[cert] = "pool"  # setup: 30% of NYC in the pool
    setup(g, BM=50, C=0)
    assert ("C", "NYC", 20) in sales(g) and ("C", "NYC", 30) not in sales(g)
    refused(g, SellShares("C", "NYC", 30), "the bank pool may hold at most 50% of NYC")


def test_no_emergency_sale_without_a_shortfall() -> None:
    """Treasury and president together pay the cheapest bank train: no sale; a corporation
    owning a train needs none either."""
    g = at_trains("4", ("2", "3"))
    nyc_president_c(g)
    setup(g, BM=50, C=250)
    assert sales(g) == set()
    refused(g, SellShares("C", "NYC", 10), "already has enough cash")
    g.state.corporations["B&M"].trains = ["3-0"]
    g.state.corporations["NYC"].trains = ["3-1"]  # (B&M may buy it: its train step goes on)
    setup(g, C=0)
    refused(g, SellShares("C", "NYC", 10), "does not need its president's money")


# -- bankruptcy --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("c_cash", "allowed"), [(116, True), (117, False)])
def test_bankruptcy_once_cash_and_every_allowed_sale_fall_short(c_cash: int, allowed: bool) -> None:
    """The cheapest train is a 5 ($450); B&M has $50; C may raise $82 (B&M 10%) and $201
    (NYC 30%): with $116 he falls $1 short and may declare bankruptcy at once, without
    selling (18xx.games: can_go_bankrupt?, cash plus sellable shares below the cheapest
    depot train); with $117 he may not.  Declared, the sale goes on as 18xx.games settles
    a bankruptcy (bankrupt_sells_shares): 10% of B&M ($82, its presidency kept) and NYC's
    30% ($201, D taking NYC's presidency), all of it to B&M."""
    g = at_trains("4", ("2", "3", "4"))
    nyc_president_c(g)
    setup(g, BM=50, C=c_cash)
    assert (Bankrupt("B&M") in g.legal_actions()) is allowed
    if not allowed:
        refused(g, Bankrupt("B&M"), "president can still raise money for a train")
        return
    run(g, Bankrupt("B&M"))
    assert g.is_over and g.state.end_reason == "bankruptcy"
    assert (g.state.corporations["B&M"].cash, g.state.player("C").cash) == (
        50 + 116 + 82 + 201,
        0,
    )
    assert g.state.certs["NYC_0"] == "D" and g.state.certs["B&M_0"] == "C"


def test_bankruptcy_ignores_a_train_another_corporation_would_sell_for_1() -> None:
    """18xx.games weighs only the cheapest depot train: B&M could buy NYC's 3 for $1, and
    its president may still go bankrupt; only the operating corporation declares it."""
    g = at_trains("4", ("2", "3", "4"))
    g.state.corporations["NYC"].trains = ["3-0"]
    g.state.certs["B&M_2"] = "pool"  # setup: C keeps only the president's 20%
    setup(g, BM=50, C=0)
    assert BuyTrain("B&M", "3-0", 1) in g.legal_actions()
    assert Bankrupt("B&M") in g.legal_actions()
    refused(g, Bankrupt("NYC"), "not NYC's turn: B&M is to act")
    run(g, Bankrupt("B&M"))
    assert g.is_over and g.state.bankrupt == "C"


def test_bankruptcy_after_some_sales() -> None:
    g = at_trains("4", ("2", "3", "4"))
    nyc_president_c(g)
    setup(g, BM=50, C=0)
    run(g, SellShares("C", "NYC", 10))
    assert g.state.player("C").cash == 67
    run(g, Bankrupt("B&M"))  # (then NYC's other 20% at $67 and B&M's 10% at $82)
    assert (g.state.corporations["B&M"].cash, g.state.player("C").cash) == (50 + 67 + 134 + 82, 0)


def test_a_corporation_owning_a_train_cannot_go_bankrupt() -> None:
    g = at_trains("4", ("2", "3", "4"))
    g.state.corporations["B&M"].trains = ["3-0"]
    g.state.corporations["NYC"].trains = ["3-1"]  # (B&M may buy it: its train step goes on)
    setup(g, BM=1, C=0)
    assert Bankrupt("B&M") not in g.legal_actions()
    refused(g, Bankrupt("B&M"), "president can still raise money")


# -- a corporation without a route -------------------------------------------------------------------


def test_a_corporation_without_a_route_need_not_buy_and_gets_no_help() -> None:
    """NYC (home E19, no track: no route) has no train and $10: it may pass; its president
    neither pays for a bank train nor sells shares (18xx.games: must_buy_train? needs a
    route)."""
    g = or_game()
    g.state.corporations["NYC"].floated = True  # setup: NYC has floated ...
    g.state.corporations["NYC"].cash = 670
    g.invalidate_caches()
    while not (g.acting() == "NYC" and g.state.round.step == "trains"):
        acts = g.legal_actions()
        g.apply(next((a for a in acts if isinstance(a, Pass)), acts[0]))
    assert not network.can_run(g, "NYC")
    setup(g, NYC=10, D=1000)
    assert sales(g) == set()
    assert Pass("NYC") in g.legal_actions()
    refused(g, BuyTrain("NYC", "2-1", 80), "the president helps only to buy the cheapest")
    refused(g, SellShares("D", "NYC", 10), "NYC does not need its president's money")
    run(g, Pass("NYC"))
    assert g.state.corporations["NYC"].trains == []
    assert g.state.player("D").cash == 1000


# -- privates bought by a corporation ----------------------------------------------------------------


def test_privates_sell_to_a_corporation_from_phase_3_at_half_to_double_face() -> None:
    g = at_trains("2")
    g.state.corporations["B&M"].trains = ["2-0"]
    setup(g, BM=1000)
    refused(g, BuyCompany("B&M", "SV", 20), "buy_company is not possible now")  # phase 2
    set_phase(g, "3", ("2",))
    buys = {(a.private, a.price) for a in g.legal_actions() if isinstance(a, BuyCompany)}
    ranges = {"SV": (10, 40), "CS": (20, 80), "DH": (35, 140), "MH": (55, 220), "CA": (80, 320)}
    for pid, (lo, hi) in ranges.items():
        assert (pid, lo) in buys and (pid, hi) in buys
        refused(g, BuyCompany("B&M", pid, lo - 1), rf"\${lo} to \${hi}")
        refused(g, BuyCompany("B&M", pid, hi + 1), rf"\${lo} to \${hi}")
    assert not any(p == "BO" for p, _ in buys)
    refused(g, BuyCompany("B&M", "BO", 220), "cannot buy BO")
    setup(g, BM=319)
    refused(g, BuyCompany("B&M", "CA", 320), r"\$80 to \$319")
    run(g, BuyCompany("B&M", "CA", 319))
    assert g.state.privates["CA"].owner == "B&M"
    assert (g.state.corporations["B&M"].cash, g.state.player("A").cash) == (0, 280 + 319)


def test_a_private_bought_first_leaves_the_president_to_pay_for_the_forced_train() -> None:
    """Phase 4: B&M ($350) must buy a 4 ($300) and could pay it; it buys A's CA for $100
    first (as 18xx.games allows), and then C pays the $50 it lacks."""
    g = at_trains("4", ("2", "3"))
    setup(g, BM=350, C=100)
    run(g, BuyCompany("B&M", "CA", 100))
    assert g.state.privates["CA"].owner == "B&M"
    assert offers(g) == {("4-0", 300, None)}
    run(g, BuyTrain("B&M", "4-0", 300))
    assert (g.state.corporations["B&M"].cash, g.state.player("C").cash) == (0, 50)
    assert g.state.player("A").cash == 280 + 100


def test_bo_closes_when_b_and_o_buys_a_train_from_another_corporation() -> None:
    """18xx.games closes the BO private on B&O's first train whatever its source (the
    'bought_train' event of Game#buy_train)."""
    g = or_game()
    for cert in ("B&O_1", "B&O_2", "B&O_3", "B&O_4"):
        g.state.certs[cert] = "A"  # setup: B&O has floated at $67 ...
    g.state.corporations["B&O"].floated = True
    g.state.corporations["B&O"].cash = 670
    g.state.round.order.append("B&O")  # ... and operates after B&M in this round
    g.invalidate_caches()
    while g.acting() != "B&O" or g.state.round.step != "trains":
        acts = g.legal_actions()
        g.apply(next((a for a in acts if isinstance(a, Pass)), acts[0]))
    assert g.state.corporations["B&M"].trains == ["2-0"] and not g.state.privates["BO"].closed
    run(g, BuyTrain("B&O", "2-0", 1))
    assert g.state.privates["BO"].closed
    assert g.state.corporations["B&O"].trains == ["2-0"]
    assert (g.state.corporations["B&O"].cash, g.state.corporations["B&M"].trains) == (669, [])


def test_a_corporation_short_of_money_for_its_train_may_still_buy_a_private() -> None:
    """Phase 4: B&M ($50) must buy a 4 ($300); it may still buy A's SV for $10 (then C
    pays $260 of the 4)."""
    g = at_trains("4", ("2", "3"))
    setup(g, BM=50, C=1000)
    assert BuyCompany("B&M", "SV", 10) in g.legal_actions()
    run(g, BuyCompany("B&M", "SV", 10))
    assert g.state.privates["SV"].owner == "B&M"
    assert (g.state.corporations["B&M"].cash, g.state.player("A").cash) == (40, 290)
    run(g, BuyTrain("B&M", "4-0", 300))
    assert g.state.player("C").cash == 1000 - 260


def test_without_the_rule_the_treasury_goes_to_the_forced_train() -> None:
    """rules.privates_bought_in_forced_purchase false (1833NE's reading): the same B&M is
    offered no private, and a purchase is refused with the state unchanged."""
    g = at_trains("4", ("2", "3"))
    setup(g, BM=50, C=1000)
    g.rules = g.rules.model_copy(update={"privates_bought_in_forced_purchase": False})
    g.invalidate_caches()
    assert not any(isinstance(a, BuyCompany) for a in g.legal_actions())
    before = g.state_hash()
    with pytest.raises(IllegalAction, match="^buy_company is not possible now: the trains step"):
        g.apply(BuyCompany("B&M", "SV", 10))
    assert g.state_hash() == before


def test_import_a_private_bought_by_a_trainless_corporation_short_of_money() -> None:
    """Corpus game g3p_s3005, action 186: B&O (no train, $240; cheapest train a 5 at $450;
    phase 4) lays a tile; cut there, it buys Player 2's SV for $10 (the reckless random
    player was offered that)."""
    data = corpus_export("g3p_s3005")
    acts = data["actions"]
    cut = next(i for i, a in enumerate(acts) if a["id"] == 186)
    assert acts[cut]["type"] == "lay_tile" and acts[cut]["entity"] == "B&O"
    buy = {"type": "buy_company", "entity": "B&O", "entity_type": "corporation", "id": 187}
    data["actions"] = [*acts[: cut + 1], {**buy, "company": "SV", "price": 10}]
    data["status"] = "active"
    res = import_game(data, stop_at=187)
    assert res.divergence is None, res.divergence
    g = res.game
    assert g.state.privates["SV"].owner == "B&O"
    assert g.state.corporations["B&O"].cash == 230
