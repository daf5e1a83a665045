"""Audit of seed 003 (the 1833NE overview) against the engine: each rule the title data and
the engine implement but no other test pins with exact values gets a scenario here.

Every docstring names the seed section it checks ("準備", "株式ラウンド", "運営ラウンド",
"終了", "構成要素", "お金の流れ", "フェイズ", "概要"). The numbers are the seed's where it
gives them; the rest follow from the opening of ne_scenario (four players, A starts B&W at
$80, B RR at $100, C CV at $100, D FRR at $150).
"""

from __future__ import annotations

import pytest
from ne_scenario import (
    PLAYERS,
    act,
    all_pass,
    auction,
    enter,
    lay,
    new_game,
    opening,
    pass_to,
    price,
    set_cash,
    to_stock_round,
)
from scenario import actor, agreed
from test_1833ne_example import play_to_step_16

from eighteen import Game
from eighteen.engine import (
    bank,
    ferries,
    market,
    network,
    phases,
    privates,
    shares,
    trains,
    views,
)
from eighteen.engine.actions import (
    Bankrupt,
    Bid,
    BuyCompany,
    BuyFerry,
    BuyShares,
    BuyTrain,
    Dividend,
    IllegalAction,
    IssueShares,
    LayTile,
    Par,
    Pass,
    PlaceToken,
    RedeemShares,
    RunRoutes,
    SellShares,
)
from eighteen.engine.rounds.or_token import next_token_cost
from eighteen.engine.state import IPO, POOL

# ---------------------------------------------------------------------------------------
# helpers


def _play_until(g: Game, corp: str, step: str, number: int | None = None) -> None:
    """Everyone passes (taking the first forced action) until ``corp`` is at ``step`` (in
    operating round ``number`` if given)."""
    while not (
        g.acting() == corp
        and g.state.round.kind == "operating"
        and g.state.round.step == step
        and (number is None or g.state.round.number == number)
    ):
        acts = g.legal_actions()
        passes = [a for a in acts if isinstance(a, Pass)]
        g.apply(passes[0] if passes else acts[0])


def _to_second_run(g: Game) -> RunRoutes:
    """B&W lays F23 and E22 and buys a 2+1 in operating round 1.1; its only run in round
    1.2 is Boston 30 + Framingham 10 + Worcester 20 = $60."""
    act(g, Pass("B&W"))
    act(g, lay(g, "B&W", "F23", "58", ["G22", "E22"]))
    act(g, lay(g, "B&W", "E22", "57", ["F23"]))
    pass_to(g, "B&W", "trains")
    act(g, BuyTrain("B&W", "2+1-0", 100))
    _play_until(g, "B&W", "routes", 2)
    (run,) = [x for x in g.legal_actions() if isinstance(x, RunRoutes)]
    assert [r.revenue for r in run.routes] == [60]
    return run


# ---------------------------------------------------------------------------------------
# 準備 (setup)


@pytest.mark.parametrize(
    ("names", "cash", "limit"), [("ABC", 600, 24), ("ABCD", 450, 18), ("ABCDE", 400, 14)]
)
def test_setup_cash_bank_and_certificate_limit(names: str, cash: int, limit: int) -> None:
    """Seed "準備" and "人数別の初期資金": 3 players $600 each, 4 players $450, 5 players
    $400; the bank holds $10,000 in all (the players' cash comes out of it); "証券枚数上限":
    24 / 18 / 14 certificates with nine corporations."""
    g = new_game(list(names))
    assert [p.cash for p in g.state.players] == [cash] * len(names)
    assert g.state.bank == 10_000 - cash * len(names)
    assert bank.total_money(g) == 10_000
    assert shares.cert_limit(g) == limit


def test_auction_offers_the_privates_in_price_order_and_pays_the_bank() -> None:
    """Seed "準備" / step 1: the six privates are offered in price order; a player buys the
    one on offer (at its price), bids on another, or passes. Money flow "プレイヤー → 銀行":
    the private's price goes to the bank."""
    g = new_game()
    bids = [a for a in g.legal_actions() if isinstance(a, Bid)]
    assert [a.price for a in bids if a.private == "P1"] == [15]  # P1 on offer at face
    assert {a.private for a in bids} == {"P1", "P2", "P3", "P4", "P5", "P6"}
    bank0 = g.state.bank
    act(g, Bid("A", "P1", 15))
    assert g.state.privates["P1"].owner == "A" and g.state.player("A").cash == 435
    assert g.state.bank == bank0 + 15
    # P2 is now on offer: only at its price
    bids = [a for a in g.legal_actions() if isinstance(a, Bid)]
    assert [a.price for a in bids if a.private == "P2"] == [40]
    assert "P1" not in {a.private for a in bids}


# ---------------------------------------------------------------------------------------
# 株式ラウンド (stock round)


def test_par_prices_are_forty_to_one_fifty() -> None:
    """Seed "株式ラウンド" / "設立": the founder picks a price from $40 to $150 and pays
    twice it to the corporation."""
    g = new_game()
    auction(g)
    pars = sorted({a.price for a in g.legal_actions() if isinstance(a, Par)})
    assert pars == [40, 50, 60, 70, 80, 90, 100, 112, 124, 137, 150]
    with pytest.raises(IllegalAction):
        g.apply(Par("A", "B&W", 165))
    act(g, Par("A", "HR", 40))
    assert g.state.corporations["HR"].cash == 80 and g.state.player("A").cash == 400 - 80


def test_sell_then_buy_one_certificate_and_the_turn_ends() -> None:
    """Seed "株式ラウンド": on his turn a player sells, then buys one certificate (the buy
    ends the turn: no sale after it)."""
    g = opening()
    to_stock_round(g)
    g.state.certs["RR_1"] = "A"
    g.state.corporations["RR"].operated = True
    g.invalidate_caches()
    assert actor(g) == "A" and price(g, "RR") == 80
    act(g, SellShares("A", "RR", 10))
    assert actor(g) == "A"  # a sale does not end the turn
    act(g, BuyShares("A", "B&W", "ipo"))
    assert actor(g) == "B"  # one certificate: the turn is over


def test_market_share_pays_the_bank_and_a_sale_is_paid_by_the_bank() -> None:
    """Seed "お金の流れ": a market share is paid to the bank, not the corporation; a sale is
    paid by the bank (a non-president's sale leaves the price)."""
    g = opening()
    to_stock_round(g)
    g.state.certs["RR_1"] = POOL
    g.invalidate_caches()
    assert price(g, "RR") == 80
    bank0, rr0, a0 = g.state.bank, g.state.corporations["RR"].cash, g.state.player("A").cash
    act(g, BuyShares("A", "RR", "pool"))
    assert g.state.bank == bank0 + 80
    assert g.state.corporations["RR"].cash == rr0
    assert g.state.player("A").cash == a0 - 80
    act(g, Pass("B"), Pass("C"), Pass("D"))
    act(g, SellShares("A", "RR", 10))
    assert g.state.bank == bank0 and g.state.player("A").cash == a0
    assert price(g, "RR") == 80


def test_the_market_holds_at_most_half_a_corporation() -> None:
    """Seed "概要" / "設立割合と持株上限": the market may hold at most 50% of one
    corporation."""
    g = opening()
    to_stock_round(g)
    for i in range(1, 6):
        g.state.certs[f"RR_{i}"] = POOL
    g.state.certs["RR_6"] = "A"
    g.invalidate_caches()
    assert shares.percent_of(g, "RR", POOL) == 50 and actor(g) == "A"
    assert not [a for a in g.legal_actions() if isinstance(a, SellShares) and a.corporation == "RR"]
    with pytest.raises(IllegalAction, match="at most 50%"):
        g.apply(SellShares("A", "RR", 10))


def test_stock_round_end_moves_exactly_one_cell() -> None:
    """Seed "株式ラウンド" / "終了時": a corporation with shares in the market falls one
    cell ($80 -> $70), one wholly held by players rises one cell ($60 -> $70), one whose
    unsold shares are only in its treasury stays ($80)."""
    g = opening()
    to_stock_round(g)
    assert (price(g, "B&W"), price(g, "RR"), price(g, "CV")) == (60, 80, 80)
    for i, cert in enumerate(shares.cert_ids(g, "B&W")[1:]):
        g.state.certs[cert] = "B" if i < 4 else "C"  # 40% + 40% with A's 20%
    g.state.certs["RR_1"] = POOL
    g.invalidate_caches()
    assert shares.percent_of(g, "B&W", IPO) == 0
    all_pass(g)
    assert (price(g, "B&W"), price(g, "RR"), price(g, "CV")) == (70, 70, 80)


def test_privates_of_players_count_for_the_certificate_limit_not_of_corporations() -> None:
    """Seed "証券枚数上限": privates count toward a player's limit; privates owned by a
    corporation do not."""
    g = opening()
    # A: B&W's president's certificate and C&StL (P3)
    assert shares.cert_count(g, "A") == 2
    act(g, BuyCompany("B&W", "P3", 50))
    assert shares.cert_count(g, "A") == 1


# ---------------------------------------------------------------------------------------
# 運営ラウンド (operating rounds)


def test_two_operating_rounds_per_set_later_ones_by_price() -> None:
    """Seed "運営ラウンド ×2" and "フェーズの数": two operating rounds per stock round; only
    the game's first runs from the lowest price up, every later one from the highest down."""
    g = opening()
    assert g.state.round.set_size == 2
    assert g.state.round.order == ["B&W", "RR", "CV", "FRR"]  # $80, $100, $100, $150
    to_stock_round(g)
    assert g.state.round.number == 2
    all_pass(g)
    r = g.state.round
    assert (r.kind, r.number, r.set_size) == ("operating", 1, 2)
    assert [(c, price(g, c)) for c in r.order] == [
        ("FRR", 124),
        ("RR", 80),
        ("CV", 80),
        ("B&W", 60),
    ]


def test_issue_limit_subtracts_the_shares_already_in_the_market() -> None:
    """Seed step 9 and "1830との比較" 3: a corporation issues at most the shares players hold
    less those already in the market, one cell below its price, the bank paying."""
    g = new_game()
    auction(g)
    act(g, Par("A", "B&W", 80), Par("B", "RR", 100), Par("C", "CV", 100), Par("D", "FRR", 150))
    act(g, BuyShares("A", "B&W", "ipo"))  # A holds 30%: three shares
    all_pass(g)
    assert g.acting() == "B&W" and g.state.round.step == "issue"
    assert [a.count for a in g.legal_actions() if isinstance(a, IssueShares)] == [1, 2, 3]
    bank0 = g.state.bank
    act(g, IssueShares("B&W", 1))
    assert g.state.corporations["B&W"].cash == 160 + 80 + 70
    assert g.state.bank == bank0 - 70 and price(g, "B&W") == 80
    _play_until(g, "B&W", "issue", 2)
    # three held by A, one already in the market: two more at most
    assert [a.count for a in g.legal_actions() if isinstance(a, IssueShares)] == [1, 2]


def test_redemption_is_paid_to_the_bank() -> None:
    """Seed "お金の流れ" (会社 → 銀行: 買い戻し) and step 14: a redemption costs one cell above
    the price, paid to the bank."""
    g = opening()
    act(g, IssueShares("B&W", 2))
    _play_until(g, "B&W", "issue", 2)
    p = price(g, "B&W")
    assert p == 70  # no revenue in round 1.1
    cash0, bank0 = g.state.corporations["B&W"].cash, g.state.bank
    act(g, RedeemShares("B&W", 2))
    assert g.state.corporations["B&W"].cash == cash0 - 2 * 80
    assert g.state.bank == bank0 + 2 * 80
    assert shares.percent_of(g, "B&W", POOL) == 0 and price(g, "B&W") == 70


def test_one_yellow_plus_a_yellow_or_an_upgrade_twenty_dollars_each() -> None:
    """Seed "運営ラウンド" 2 and "このゲーム固有のメカニズム": one yellow tile plus a second
    yellow or one upgrade, each at least $20; phase I lays yellow only, green comes with
    phase II ("フェイズ")."""
    g = opening()
    act(g, Pass("B&W"))  # no issue
    assert phases.current_id(g) == "I"
    assert {a.hex for a in g.legal_actions() if isinstance(a, LayTile)} == {"F23"}  # no G22
    enter(g, "3/5")
    assert phases.current_id(g) == "II"
    cash = g.state.corporations["B&W"].cash
    act(g, LayTile("B&W", "G22", "N23", 4))  # the upgrade first: $20
    assert g.state.corporations["B&W"].cash == cash - 20
    second = [a for a in g.legal_actions() if isinstance(a, LayTile)]
    tiles = g.tables.data["tiles"]
    assert second and {tiles[a.tile]["color"] for a in second} == {"yellow"}  # no 2nd upgrade
    act(g, lay(g, "B&W", "F23", "58", ["G22", "E22"]))
    assert g.state.corporations["B&W"].cash == cash - 40
    assert not [a for a in g.legal_actions() if isinstance(a, LayTile)]  # no third lay


def test_a_tile_laid_this_turn_may_be_upgraded_by_the_second_lay() -> None:
    """Assumption A14 (docs/1833ne-assumptions.md): seed "運営ラウンド" 2 allows one yellow
    tile plus a yellow or an upgrade and is silent on the hex, so in phase II the second lay
    may upgrade the yellow tile the first one laid; each costs $20."""
    g = opening()
    act(g, Pass("B&W"))  # no issue
    enter(g, "3/5")
    cash = g.state.corporations["B&W"].cash
    act(g, lay(g, "B&W", "F23", "58", ["G22", "E22"]))
    on_f23 = [a for a in g.legal_actions() if isinstance(a, LayTile) and a.hex == "F23"]
    assert {a.tile for a in on_f23} == {"N40", "N41", "N42", "N43"}
    act(g, on_f23[0])
    assert g.state.map.tiles["F23"][0] == on_f23[0].tile
    assert g.state.corporations["B&W"].cash == cash - 40
    assert not [a for a in g.legal_actions() if isinstance(a, LayTile)]  # no third lay


def test_bridge_station_and_train_paid_to_the_bank() -> None:
    """Seed "運営ラウンド" 2, "マップ" (橋・峠・トンネルにはそれぞれ費用) and "お金の流れ"
    (会社 → 銀行: 列車、線路、駅トークン): FRR lays Greenfield (D19, a $40 bridge: $20 + $40,
    assumption A5), Springfield ($20), a second station there ($80) and a 2-train ($75),
    every dollar to the bank."""
    g = opening()
    _play_until(g, "FRR", "issue", 1)
    frr, bank0 = g.state.corporations["FRR"].cash, g.state.bank
    assert frr == 300
    act(g, Pass("FRR"))
    act(g, lay(g, "FRR", "D19", "3", ["E20", "D21"]))
    assert g.state.corporations["FRR"].cash == 300 - 60
    act(g, lay(g, "FRR", "D21", "6", ["D19", "E22"]))
    assert g.state.corporations["FRR"].cash == 300 - 80
    act(g, PlaceToken("FRR", "D21", 0))
    assert g.state.corporations["FRR"].cash == 300 - 160
    act(g, Pass("FRR"))  # no ferry
    act(g, BuyTrain("FRR", "2-3", 75))
    assert g.state.corporations["FRR"].cash == 300 - 235
    assert g.state.bank == bank0 + 235


def test_withhold_keeps_the_revenue_and_moves_the_price_left() -> None:
    """Seed "運営ラウンド" 4 and "お金の流れ" (銀行 → 会社: 内部留保した収益): withholding puts
    the whole revenue in the treasury, paid by the bank; nothing paid: one cell left."""
    g = opening()
    run = _to_second_run(g)
    assert price(g, "B&W") == 70
    cash0, a0, bank0 = g.state.corporations["B&W"].cash, g.state.player("A").cash, g.state.bank
    act(g, run, Dividend("B&W", "withhold"))
    assert g.state.corporations["B&W"].cash == cash0 + 60
    assert g.state.player("A").cash == a0
    assert g.state.bank == bank0 - 60
    assert price(g, "B&W") == 60


def test_full_pay_out_between_half_and_the_price_keeps_the_price() -> None:
    """Seed "運営ラウンド" 4, "会社資金にある株も配当を受け取る" and "1830との比較" 4: $60 paid
    at $70 is $6 a share: A (20%) gets $12, the eight treasury shares $48 go to B&W; half
    the price or more but less than it: the price stays."""
    g = opening()
    run = _to_second_run(g)
    cash0, a0, bank0 = g.state.corporations["B&W"].cash, g.state.player("A").cash, g.state.bank
    act(g, run, Dividend("B&W", "payout"))
    assert g.state.player("A").cash == a0 + 12
    assert g.state.corporations["B&W"].cash == cash0 + 48
    assert g.state.bank == bank0 - 60
    assert price(g, "B&W") == 70


def test_three_trains_at_most_in_phase_one_and_a_side_chosen_for_good() -> None:
    """Seed "フェイズ" I (1社3両まで) and "構成要素" (両面の列車：買うときに種類を選ぶ): a
    card is bought as one side; the other side of that card is gone; a corporation holds
    at most three trains in phase I."""
    g = opening()
    set_cash(g, "B&W", 1000)
    pass_to(g, "B&W", "trains")
    assert [a for a in g.legal_actions() if isinstance(a, BuyTrain)] == [
        BuyTrain("B&W", "2-0", 75),
        BuyTrain("B&W", "2+1-0", 100),
    ]
    act(g, BuyTrain("B&W", "2-0", 75))
    with pytest.raises(IllegalAction):
        g.apply(BuyTrain("B&W", "2+1-0", 100))
    assert [a for a in g.legal_actions() if isinstance(a, BuyTrain)] == [
        BuyTrain("B&W", "2-1", 75),
        BuyTrain("B&W", "2+1-1", 100),
    ]
    act(g, BuyTrain("B&W", "2+1-1", 100), BuyTrain("B&W", "2-2", 75))
    assert g.state.corporations["B&W"].trains == ["2-0", "2+1-1", "2-2"]
    assert g.state.corporations["B&W"].cash == 1000 - 250
    assert phases.train_limit(g) == 3
    assert not [a for a in g.legal_actions() if isinstance(a, BuyTrain)]
    with pytest.raises(IllegalAction):
        g.apply(BuyTrain("B&W", "2-3", 75))


def test_phases_four_and_five_remove_and_phase_out_trains() -> None:
    """Seed "フェイズ" and "列車一覧": phase III phases out the phase-I trains; phase IV
    removes them, phases out the phase-II trains and lowers the limit to two; phase V
    removes the phase-II trains and phases out the phase-III trains."""
    g = opening()
    g.state.corporations["B&W"].trains = ["2-0", "3/5-0", "4/7-0"]
    for t in ("2-0", "3/5-0", "4/7-0"):
        g.state.depot.remove(t)
    g.invalidate_caches()
    enter(g, "3/5")
    enter(g, "4/7")
    assert phases.train_limit(g) == 3
    assert trains.counted(g, "B&W") == ["3/5-0", "4/7-0"]  # the 2 is phased out
    enter(g, "6/9")
    assert phases.current_id(g) == "IV" and phases.train_limit(g) == 2
    assert g.state.corporations["B&W"].trains == ["3/5-0", "4/7-0"]
    assert trains.counted(g, "B&W") == ["4/7-0"]
    enter(g, "7+3")
    assert phases.current_id(g) == "V" and phases.train_limit(g) == 2
    assert g.state.corporations["B&W"].trains == ["4/7-0"]
    assert trains.counted(g, "B&W") == []


def test_five_ferries_and_no_more() -> None:
    """Seed "構成要素" (フェリー：マーカー5組) and "運営ラウンド" 2 (フェリー $40): five
    ferries at $40 each; once all five are sold none is offered."""
    g = opening()
    act(g, Pass("B&W"))
    assert sorted(ferries.options(g, "B&W")) == sorted(["C26", "B27", "E26", "G26", "I26"])
    for port in ("C26", "B27", "E26", "G26"):
        g.state.ferries[port] = "RR"
        g.state.ferry_order.append(port)
    g.invalidate_caches()
    assert ferries.options(g, "B&W") == ["I26"]
    pass_to(g, "B&W", "ferry")
    cash = g.state.corporations["B&W"].cash

    act(g, BuyFerry("B&W", "I26"))
    assert g.state.corporations["B&W"].cash == cash - 40
    assert ferries.options(g, "B&W") == [] and ferries.options(g, "CV") == []


# ---------------------------------------------------------------------------------------
# 終了 (game end)


def test_bank_broken_in_a_stock_round_finishes_its_two_operating_rounds() -> None:
    """Seed "終了" / "ゲーム終了の条件": when the bank runs out the current set (the stock
    round and its two operating rounds) is played to its end, then the game ends."""
    g = opening()
    to_stock_round(g)
    g.state.certs["RR_1"] = "A"
    g.state.corporations["RR"].operated = True
    g.state.bank = 50
    g.invalidate_caches()
    act(g, SellShares("A", "RR", 10))  # the bank pays $80 of its $50
    assert g.state.bank_broken and not g.is_over
    all_pass(g)
    played = []
    while not g.is_over:
        name = views.round_name(g)
        if name not in played:
            played.append(name)
        acts = g.legal_actions()
        passes = [a for a in acts if isinstance(a, Pass)]
        g.apply(passes[0] if passes else acts[0])
    assert played == [
        "operating round 1/2 (after stock round 2)",
        "operating round 2/2 (after stock round 2)",
    ]
    assert g.state.end_reason == "bank broken" and g.state.stock_rounds == 2


def test_bank_broken_in_the_first_operating_round_finishes_the_second() -> None:
    """Seed "終了": the bank broken in operating round 1 of a set: round 2 is still played,
    then the game ends (no further stock round)."""
    g = opening()
    g.state.bank = 10
    g.invalidate_caches()
    act(g, IssueShares("B&W", 2))  # the bank pays $140 of its $10
    assert g.state.bank_broken and not g.is_over
    _play_until(g, "B&W", "issue", 2)  # operating round 2 is played
    while not g.is_over:
        acts = g.legal_actions()
        passes = [a for a in acts if isinstance(a, Pass)]
        g.apply(passes[0] if passes else acts[0])
        assert g.state.round.kind == "operating"
    assert g.state.end_reason == "bank broken" and g.state.stock_rounds == 1


def test_the_game_ends_at_once_when_one_player_is_left() -> None:
    """Seed "終了": the game ends at once when all players but one are bankrupt."""
    g = opening()
    act(g, Pass("B&W"))
    act(g, lay(g, "B&W", "F23", "58", ["G22", "E22"]))
    pass_to(g, "B&W", "trains")
    set_cash(g, "B&W", 0)

    cell = next(p for p in g.tables._cells if g.tables.cell(p).price == 20)
    market.place(g, "B&W", cell)
    a = g.state.player("A")
    g.state.bank += a.cash
    a.cash = 0
    g.state.eliminated = ["C", "D"]  # two players have gone bankrupt before
    g.invalidate_caches()
    assert g.legal_actions() == [Bankrupt("B&W")]
    act(g, Bankrupt("B&W"))
    assert g.is_over and g.state.end_reason == "bankruptcy"
    assert g.state.eliminated == ["C", "D", "A"] and g.acting() is None


# ---------------------------------------------------------------------------------------
# scoring


def test_score_is_cash_plus_shares_at_price_not_the_treasury() -> None:
    """Seed "終了" / "ゲーム終了の条件": a player's worth is his cash plus his shares at the
    price; treasuries do not count; his privates count at face only before phase III."""
    g = opening()
    # A: $250 cash ($450 - $50 - $160 + C&StL's $10), 20% of B&W at $80, C&StL ($50);
    # B&W's $160 treasury is not his
    assert g.state.player("A").cash == 250
    assert views.player_value(g, "A") == 250 + 160 + 50
    assert g.state.corporations["B&W"].cash == 160
    enter(g, "3/5")
    enter(g, "4/7")  # phase III: players' privates close
    assert views.player_value(g, "A") == 250 + 160


def test_score_at_the_end_of_the_worked_example() -> None:
    """Seed step 17 with "終了"'s count: A's $126, 40% of B&W at $80, 20% of Hartford at $30
    is $506; the privates he sold no longer count."""

    g = new_game(PLAYERS)
    play_to_step_16(g)
    act(g, Pass("HR"))
    assert views.player_value(g, "A") == 126 + 4 * 80 + 2 * 30


# ---------------------------------------------------------------------------------------
# 構成要素 (components)


def test_connection_bonus_values_change_with_the_phase() -> None:
    """Seed "フェイズ" / "1830との比較" 6: Boston-Montreal pays $150 in phases I-II and
    $200 in III-IV, only to a route visiting both; P4's owner doubles the
    Boston-Ogdensburg bonus in phases I-III ("プライベート会社一覧")."""

    def amount(g: Game, corp: str, bid: str, hexes: set[str]) -> int:
        (b,) = [x for x in network.corp_bonuses(g, corp) if x.id == bid]
        return b.amount(frozenset(hexes))

    g = opening()
    g.state.privates["P4"].owner = "B&W"
    g.invalidate_caches()
    assert amount(g, "RR", "BOS-MTL", {"G22", "B3"}) == 150
    assert amount(g, "RR", "BOS-MTL", {"G22", "E22"}) == 0
    assert amount(g, "RR", "BOS-OGD", {"G22", "A6"}) == 40
    assert amount(g, "B&W", "BOS-OGD", {"G22", "A6"}) == 80
    enter(g, "3/5")
    assert amount(g, "RR", "BOS-MTL", {"G22", "B3"}) == 150
    enter(g, "4/7")
    assert amount(g, "RR", "BOS-MTL", {"G22", "B3"}) == 200
    assert amount(g, "B&W", "BOS-OGD", {"G22", "A6"}) == 120  # $60, doubled
    enter(g, "6/9")
    assert amount(g, "RR", "BOS-MTL", {"G22", "B3"}) == 200
    assert amount(g, "B&W", "BOS-OGD", {"G22", "A6"}) == 60  # P4 closed in phase IV


def test_small_cities_gain_value_when_upgraded() -> None:
    """Seed "マップ" (価値が上がる小都市): a town is worth $10 on its yellow tile, $20 on
    green and $30 on brown."""
    g = opening()
    tiles = g.tables.data["tiles"]
    by_colour: dict[str, set[int]] = {}
    for tid in ("3", "4", "58", "N40", "N41", "N42", "N43", "N60", "N61", "N62"):
        t = tiles[tid]
        by_colour.setdefault(t["color"], set()).update(x["revenue"] for x in t["towns"])
    assert by_colour == {"yellow": {10}, "green": {20}, "brown": {30}}


# ---------------------------------------------------------------------------------------
# お金の流れ (money flow)


def test_private_revenue_is_paid_by_the_bank() -> None:
    """Seed "お金の流れ" (銀行 → プレイヤー: プライベート会社の収入) and step 8: each private
    pays its owner at the start of every operating round: $5 + $10 + $10 + $15 + $15 + $30."""
    g = opening()
    cash0 = {p.name: p.cash for p in g.state.players}
    bank0 = g.state.bank
    _play_until(g, "B&W", "issue", 2)
    paid = {p.name: p.cash - cash0[p.name] for p in g.state.players}
    # (the players spent nothing in round 1.1: only their privates paid them)
    assert paid == {"A": 10, "B": 5 + 15, "C": 10 + 15, "D": 30}
    assert sum(paid.values()) == 85
    spent = 4 * 75  # the four corporations' forced 2-trains went to the bank
    assert g.state.bank == bank0 - 85 + spent


def test_a_corporation_buys_a_private_from_its_owner() -> None:
    """Seed "お金の流れ" (会社 → プレイヤー: 持ち主からプライベート会社を買う) and step 16: the
    price goes to the selling player; the bank takes nothing (but P6's fee, tested
    elsewhere)."""
    g = opening()
    bank0, a0, bw0 = g.state.bank, g.state.player("A").cash, g.state.corporations["B&W"].cash
    act(g, BuyCompany("B&W", "P3", 50))
    assert g.state.player("A").cash == a0 + 50
    assert g.state.corporations["B&W"].cash == bw0 - 50
    assert g.state.bank == bank0
    assert g.state.privates["P3"].owner == "B&W"


def test_sixty_percent_also_bars_market_shares() -> None:
    """Seed "設立割合と持株上限": at most 60% of a corporation per player, no exceptions: a
    market share is refused too."""
    g = opening()
    to_stock_round(g)
    for i in range(1, 7):
        g.state.certs[f"RR_{i}"] = "A"
    g.state.certs["RR_7"] = POOL
    g.state.corporations["RR"].operated = True
    g.invalidate_caches()
    assert shares.percent_of(g, "RR", "A") == 60 and actor(g) == "A"
    assert BuyShares("A", "RR", "pool") not in g.legal_actions()
    with pytest.raises(IllegalAction, match="holding limit"):
        g.apply(BuyShares("A", "RR", "pool"))


def test_blocking_privates_free_their_hexes_when_a_corporation_buys_them() -> None:
    """Seed "プライベート会社一覧": P1 blocks H23, P2 Lowell (G20), P3 C4 and C6, until a
    corporation buys them."""

    g = opening()
    assert privates.blocked_hexes(g) == {"H23", "G20", "C4", "C6"}
    agreed(g, BuyCompany("B&W", "P1", 15), "B")  # (B's: he accepts)
    assert privates.blocked_hexes(g) == {"G20", "C4", "C6"}
    act(g, BuyCompany("B&W", "P3", 50))  # (A's, B&W's president: no offer)
    assert privates.blocked_hexes(g) == {"G20"}


def test_worcester_station_stays_forty_dollars_after_phase_four() -> None:
    """Seed "会社一覧": B&W's Worcester slot is reserved until phase IV, and its station
    there always costs $40 (elsewhere $80)."""

    g = opening()
    g.state.corporations["B&W"].tokens_placed = 1
    for card in ("3/5", "4/7", "6/9", "7+3"):
        enter(g, card)
    assert phases.current_id(g) == "V"
    assert "E22" not in network.reserved(g)
    assert next_token_cost(g, "B&W", "E22") == 40
    assert next_token_cost(g, "B&W", "F25") == 80
