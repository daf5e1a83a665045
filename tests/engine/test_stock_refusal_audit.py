"""Audit of the refusals of the private auction and the stock round against 18xx.games.

Each test pins what our engine accepts (with its exact outcome) or refuses (with the
state unchanged) in a corner the 18xx.games corpus does not reach, played with the
readings the importer switches on (titles/1830 ``[import_18xx] options``).

Positions are built by playing the auction and then editing the state (certificates,
cash, market cells, the stock round's number and turn): ``later`` turns stock round 1 into
a later one (selling and trading allowed).
"""

from __future__ import annotations

from typing import Any

from corpus_18xx import made_export
from readings_18xx import READINGS_18XX
from stock_setups import PLAYERS, give, later, new, opening, place, refused, set_cash, start

from eighteen import Game
from eighteen.engine import shares
from eighteen.engine.actions import (
    Bid,
    BuyShares,
    ExchangePrivate,
    Par,
    Pass,
    SellShares,
    TradePrivate,
)
from eighteen.io.games18xx import export_game, import_game

# -- helpers ----------------------------------------------------------------------------


def cash(g: Game) -> dict[str, int]:
    return {p.name: p.cash for p in g.state.players}


def pct(g: Game, corp: str, owner: str) -> int:
    return shares.percent_of(g, corp, owner)


def price(g: Game, corp: str) -> int:
    return g.tables.cell(g.state.corporations[corp].cell).price  # type: ignore[arg-type]


def fill_certs(g: Game, player: str, n: int) -> None:
    """Give ``player`` ``n`` more certificates that count for the limit: he starts C&O,
    NYNH, CPR and ERIE at $100 in turn (money aside) and holds 60% of each (5
    certificates) until ``n`` are given."""
    left = n
    for corp in ("C&O", "NYNH", "CPR", "ERIE"):
        start(g, corp, 100, player)
        k = min(left - 1, 4)
        give(g, corp, player, k)
        left -= k + 1
        if not left:
            return


# -- the private auction -----------------------------------------------------------------


def test_a_bid_on_a_later_private_sets_its_money_aside() -> None:
    """A standing bid while cheaper privates are unsold: at least face + $5, and the
    money stays set aside; a bid may use exactly what is not set aside (18xx.games:
    max_bid = cash - committed + own bid on that private)."""
    g = new()
    refused(g, Bid("A", "CA", 164), r"at least \$165")
    g.apply(Bid("A", "CA", 165))
    for p in ("B", "C", "D"):
        g.apply(Pass(p))
    refused(g, Bid("A", "BO", 436), r"has only \$435 not set aside")
    g.apply(Bid("A", "BO", 435))
    assert g.state.round.bids == {"CA": [["A", 165]], "BO": [["A", 435]]}
    g.apply(Bid("B", "CA", 170))  # raising another's bid: best + $5
    refused(g, Bid("C", "CA", 174), r"at least \$175")
    # the cheapest private is bought outright, whatever is set aside elsewhere
    g.apply(Bid("C", "SV", 20))
    assert g.state.privates["SV"].owner == "C" and cash(g)["A"] == 600


def test_the_first_private_drops_five_dollars_per_round_of_passes() -> None:
    """Every player passes (no private sold): SV costs $5 less, the others keep their
    face; bids on later privates still start at face + $5."""
    g = new()
    for p in PLAYERS:
        g.apply(Pass(p))
    assert g.acting() == "A"
    refused(g, Bid("A", "CS", 44), r"at least \$45")
    g.apply(Bid("A", "CS", 45))
    g.apply(Bid("B", "SV", 15))
    # CS had one bid: it goes to A at once; C's turn follows B's
    assert g.state.privates["SV"].owner == "B" and g.state.privates["CS"].owner == "A"
    assert cash(g) == {"A": 555, "B": 585, "C": 600, "D": 600}
    assert g.acting() == "C"


def test_every_player_bids_on_one_private_and_the_lowest_acts_first() -> None:
    """18xx.games' bid-off: the lowest bidder acts; a pass withdraws his bid (and frees
    his money); the private goes to the last bidder left at his bid.  The normal turns
    go on with the player after the one who bought the cheapest private."""
    g = new()
    for who, amount in (("A", 165), ("B", 170), ("C", 175), ("D", 180)):
        g.apply(Bid(who, "CA", amount))
    for who, pid, face in (("A", "SV", 20), ("B", "CS", 40), ("C", "DH", 70)):
        g.apply(Bid(who, pid, face))
    g.apply(Bid("D", "MH", 110))  # CA is now the cheapest, with four bids
    assert g.acting() == "A"
    refused(g, Bid("A", "CA", 184), r"at least \$185")
    refused(g, Bid("A", "BO", 225), "the auction is for CA")
    g.apply(Pass("A"))
    assert g.acting() == "B"
    g.apply(Pass("B"))
    assert g.acting() == "C"
    g.apply(Bid("C", "CA", 185))
    assert g.acting() == "D"  # now the lowest ($180)
    g.apply(Pass("D"))
    assert g.state.privates["CA"].owner == "C"
    assert g.state.certs["PRR_1"] == "C"
    assert cash(g) == {"A": 580, "B": 560, "C": 600 - 70 - 185, "D": 490}
    assert g.acting() == "A"  # the normal turn after D's purchase of MH
    g.apply(Bid("A", "BO", 220))
    assert g.acting() == "A" and g.legal_actions()[0] == Par("A", "B&O", 100)


def test_after_a_bidoff_ends_the_auction_the_next_normal_turn_has_priority() -> None:
    """18xx.games: the stock round starts with the player whose normal auction turn comes
    next, not the one left of the last buyer (option auction_18xx_games)."""
    g = new()
    g.apply(Bid("A", "BO", 225))
    g.apply(Bid("B", "BO", 230))
    for who, pid, face in (
        ("C", "SV", 20),
        ("D", "CS", 40),
        ("A", "DH", 70),
        ("B", "MH", 110),
        ("C", "CA", 160),
    ):
        g.apply(Bid(who, pid, face))
    assert g.acting() == "A"  # BO: A ($225) is the lowest bidder
    g.apply(Pass("A"))
    assert g.state.privates["BO"].owner == "B"
    g.apply(Par("B", "B&O", 67))
    assert g.state.round.kind == "stock"
    assert g.acting() == "D"  # after C, the last to buy in a normal turn
    assert cash(g) == {"A": 530, "B": 260, "C": 420, "D": 560}


def passes(n: int) -> list[dict[str, Any]]:
    """``n`` passes of the auction by players 1 and 2 in turn (each round drops SV $5)."""
    return [{"type": "pass", "entity": 1 + i % 2} for i in range(n)]


def after_sv() -> list[dict[str, Any]]:
    """The rest of a 2-player auction once SV is sold: the others at face, B&O at $100."""
    bids = [(2, "CS", 40), (1, "DH", 70), (2, "MH", 110), (1, "CA", 160), (2, "BO", 220)]
    return [
        *({"type": "bid", "entity": e, "company": c, "price": p} for e, c, p in bids),
        {"type": "par", "entity": 2, "corporation": "B&O", "share_price": "100,0,6"},
    ]


def test_sv_bought_at_five_dollars_in_an_import() -> None:
    """The control of the test below (the same export, one round of passes fewer): the
    export is well formed and SV is bought at $5 by a logged bid."""
    sv = {"type": "bid", "entity": 1, "company": "SV", "price": 5}
    res = import_game(made_export([*passes(6), sv, *after_sv()]))
    assert res.divergence is None
    assert res.game.state.round.kind == "stock"
    assert cash(res.game) == {"Player 1": 1200 - 5 - 70 - 160, "Player 2": 830}


def test_sv_at_zero_is_taken_without_an_action_in_an_import() -> None:
    """18xx.games gives SV to the player after the last passer once four rounds of passes
    bring it to $0, and logs no action for it; the importer makes that player's bid."""
    res = import_game(made_export([*passes(8), *after_sv()]))
    assert res.divergence is None
    g = res.game
    assert g.state.privates["SV"].owner == "Player 1"
    assert cash(g) == {"Player 1": 1200 - 70 - 160, "Player 2": 1200 - 40 - 110 - 220}


def test_sv_at_zero_in_our_engine_the_next_player_must_take_it() -> None:
    """Our engine's side of the above: after four rounds of passes (2 players) SV costs $0
    and the player after the last passer must take it (a pass is refused)."""
    g = new(players=["A", "B"])
    for _ in range(4):
        g.apply(Pass("A"))
        g.apply(Pass("B"))
    refused(g, Pass("A"), "must take it")
    refused(g, Bid("A", "CS", 40), "must take it")
    g.apply(Bid("A", "SV", 0))
    assert g.state.privates["SV"].owner == "A" and cash(g) == {"A": 1200, "B": 1200}
    assert g.acting() == "B"


def test_our_export_of_a_forced_take_at_zero_imports_to_the_same_state() -> None:
    """Our own export logs the forced bid at $0; the importer applies it as logged (not a
    second time)."""
    g = new(players=["A", "B"])
    for _ in range(4):
        g.apply(Pass("A"))
        g.apply(Pass("B"))
    g.apply(Bid("A", "SV", 0))
    g.apply(Bid("B", "CS", 40))
    data = export_game(g)
    assert [a["type"] for a in data["actions"]][8:] == ["bid", "bid"]
    res = import_game(data)
    assert res.divergence is None
    assert res.game.state_hash() == g.state_hash()
    assert res.game.state.privates["SV"].owner == "A"


# -- selling and buying in one turn -------------------------------------------------------


def nyc_position() -> Game:
    """A later stock round, C to act: NYC started by D at $67 (D 20%, C 30%, A 10%, floated
    by hand) with 10% in the pool; C has $530."""
    g = opening()
    start(g, "NYC", 67, "D")
    give(g, "NYC", "C", 3)
    give(g, "NYC", "A", 1)
    give(g, "NYC", "pool", 1)
    g.state.corporations["NYC"].floated = True
    return later(g, "C")


def test_no_selling_in_the_first_stock_round() -> None:
    g = nyc_position()
    g.state.round.number = 1
    g.invalidate_caches()
    refused(g, SellShares("C", "NYC", 10), "no selling in the first stock round")
    assert not any(isinstance(a, SellShares) for a in g.legal_actions())


def test_a_player_may_sell_right_after_buying_in_his_turn() -> None:
    """Sell-buy-sell (18xx.games SELL_BUY_ORDER :sell_buy_sell): a share bought this turn
    may be sold at once; then that corporation cannot be bought again this round."""
    g = nyc_position()
    g.apply(BuyShares("C", "NYC", "pool"))  # $67 from the pool
    assert pct(g, "NYC", "C") == 40 and cash(g)["C"] == 463
    g.apply(SellShares("C", "NYC", 20))  # 2 rows down: [5, 6] -> [7, 6], $67 still
    assert cash(g)["C"] == 463 + 2 * 67
    assert price(g, "NYC") == 67 and g.state.corporations["NYC"].cell == [7, 6]
    assert pct(g, "NYC", "pool") == 20
    assert g.acting() == "C"  # may still sell
    refused(g, BuyShares("C", "NYC", "pool"), "sold NYC this round")
    g.apply(Pass("C"))
    later(g, "C")  # C's next turn of the same round: still no NYC for him
    refused(g, BuyShares("C", "NYC", "pool"), "sold NYC this round")
    g.apply(BuyShares("C", "B&O", "ipo"))  # any other corporation is fine
    assert pct(g, "B&O", "C") == 10


def test_two_sales_of_one_corporation_in_one_turn() -> None:
    g = nyc_position()
    g.apply(SellShares("C", "NYC", 10))
    g.apply(SellShares("C", "NYC", 10))
    assert pct(g, "NYC", "C") == 10 and pct(g, "NYC", "pool") == 30
    assert cash(g)["C"] == 530 + 67 + 67 and g.state.corporations["NYC"].cell == [7, 6]
    # the bought certificate of another corporation after the sales
    g.apply(BuyShares("C", "B&O", "ipo"))
    refused(g, BuyShares("C", "B&O", "ipo"), "already bought this turn")


def test_the_pool_may_hold_half_of_a_corporation() -> None:
    g = nyc_position()
    give(g, "NYC", "pool", 3, source="ipo")  # pool 40%
    refused(g, SellShares("C", "NYC", 20), "at most 50%")
    g.apply(SellShares("C", "NYC", 10))
    assert pct(g, "NYC", "pool") == 50
    refused(g, SellShares("C", "NYC", 10), "at most 50%")


# -- presidency on a sale -----------------------------------------------------------------


def test_a_dumped_presidency_goes_to_the_next_holder_in_seating_order_from_the_seller() -> None:
    """B (president, 30%) sells everything; A and D hold 20% each: D, next after B in
    seating order (B, C, D, A), takes the presidency (18xx.games: the majority holder
    nearest the old president).  NYC has not floated: its price drops all the same."""
    g = opening()
    start(g, "NYC", 67, "B")
    give(g, "NYC", "B", 1)
    give(g, "NYC", "A", 2)
    give(g, "NYC", "D", 2)
    later(g, "B")
    g.apply(SellShares("B", "NYC", 30))
    assert g.state.corporations["NYC"].president == "D"
    assert g.state.certs["NYC_0"] == "D"
    assert {p: pct(g, "NYC", p) for p in PLAYERS} == {"A": 20, "B": 0, "C": 0, "D": 20}
    assert pct(g, "NYC", "pool") == 30
    assert cash(g)["B"] == 340 + 3 * 67
    assert g.state.corporations["NYC"].cell == [8, 6]  # three rows down from [5, 6]


def test_a_president_may_dump_onto_a_player_with_exactly_twenty_percent() -> None:
    g = opening()
    start(g, "NYC", 82, "C")
    give(g, "NYC", "C", 1)  # C 30%
    give(g, "NYC", "A", 2)  # A 20%
    later(g, "C")
    g.apply(SellShares("C", "NYC", 20))  # keeps 10%: A (20%) becomes president
    assert g.state.corporations["NYC"].president == "A"
    assert g.state.certs["NYC_0"] == "A" and pct(g, "NYC", "A") == 20
    assert pct(g, "NYC", "C") == 10 and pct(g, "NYC", "pool") == 20
    assert cash(g)["C"] == 530 + 2 * 82


def test_a_president_holding_only_his_certificate_may_sell_half_of_it() -> None:
    """The partial bundle: the president (20%) sells 10% to a player with 20%; they swap
    and the seller keeps 10%."""
    g = opening()
    start(g, "NYC", 67, "C")
    give(g, "NYC", "D", 2)
    later(g, "C")
    g.apply(SellShares("C", "NYC", 10))
    assert g.state.certs["NYC_0"] == "D"
    assert (pct(g, "NYC", "C"), pct(g, "NYC", "D"), pct(g, "NYC", "pool")) == (10, 20, 10)


def test_a_president_cannot_dump_without_a_player_holding_twenty_percent() -> None:
    g = opening()
    start(g, "NYC", 67, "C")
    give(g, "NYC", "C", 2)  # C 40%
    give(g, "NYC", "A", 1)
    give(g, "NYC", "D", 1)
    later(g, "C")
    refused(g, SellShares("C", "NYC", 30), "cannot go to the pool")
    refused(g, SellShares("C", "NYC", 40), "no other player can take the presidency")
    g.apply(SellShares("C", "NYC", 20))  # his ordinary shares only
    assert g.state.corporations["NYC"].president == "C" and pct(g, "NYC", "C") == 20


def test_a_sale_to_a_tie_keeps_the_presidency() -> None:
    g = opening()
    start(g, "NYC", 67, "C")
    give(g, "NYC", "C", 2)  # C 40%
    give(g, "NYC", "A", 3)  # A 30%
    later(g, "C")
    g.apply(SellShares("C", "NYC", 10))
    assert g.state.corporations["NYC"].president == "C"  # 30% each
    g.apply(SellShares("C", "NYC", 10))
    assert g.state.corporations["NYC"].president == "A"  # 20% < 30%
    assert pct(g, "NYC", "C") == 20 and len(shares.certs_of(g, "NYC", "C")) == 2


# -- limits ---------------------------------------------------------------------------------


def test_the_holding_limit_is_sixty_percent_except_in_orange_and_brown() -> None:
    g = opening()
    start(g, "NYC", 67, "C")
    give(g, "NYC", "C", 3)  # C 50%
    later(g, "C")
    g.apply(BuyShares("C", "NYC", "ipo"))
    assert pct(g, "NYC", "C") == 60
    later(g, "C")
    refused(g, BuyShares("C", "NYC", "ipo"), "holding limit")
    place(g, "NYC", 6, 2)  # $36, orange
    g.apply(BuyShares("C", "NYC", "ipo"))
    assert pct(g, "NYC", "C") == 70 and cash(g)["C"] == 530 - 2 * 67


def test_the_certificate_limit_counts_privates_and_skips_yellow_cells() -> None:
    """4 players: 16 certificates.  C holds DH and 15 shares: at the limit he may not buy a
    share that counts nor start a corporation, but may buy one in a yellow cell."""
    g = opening()
    fill_certs(g, "C", 15)
    later(g, "C")
    assert shares.cert_count(g, "C") == 16
    refused(g, BuyShares("C", "B&O", "ipo"), "certificate limit")
    refused(g, Par("C", "PRR", 67), "certificate limit")
    place(g, "B&O", 7, 5)  # $60, yellow: B&O no longer counts
    assert shares.cert_count(g, "C") == 16
    g.apply(BuyShares("C", "B&O", "ipo"))  # IPO price is the par, $100
    assert pct(g, "B&O", "C") == 10 and cash(g)["C"] == 430
    place(g, "C&O", 6, 2)  # orange: C's five C&O certificates no longer count
    place(g, "NYNH", 7, 1)  # brown: nor his five NYNH ones
    assert shares.cert_count(g, "C") == 6


def test_over_the_certificate_limit_a_player_must_sell_before_anything_else() -> None:
    """18xx.games must_sell?: over the limit with something to sell, a player may only
    sell (no pass, no buy, not even of a share that does not count).  The M&H exchange
    (a step of its own in 18xx.games) stays open to its owner."""
    g = opening()
    fill_certs(g, "D", 15)  # D: MH and 15 shares (C&O, NYNH, CPR), 16 certificates
    g.state.privates["SV"].owner = "D"  # 17 > 16
    start(g, "B&M", 100, "A")
    place(g, "B&M", 7, 5)  # a yellow cell: B&M would not count
    later(g, "D")
    assert shares.cert_count(g, "D") == 17
    refused(g, Pass("D"), "over a limit and must sell")
    refused(g, BuyShares("D", "B&M", "ipo"), "over a limit and must sell")
    refused(g, Par("D", "PRR", 67), "over a limit and must sell")
    # (our engine also offers D's privates for sale to the others: no 18xx.games action)
    assert {type(a) for a in g.legal_actions()} - {TradePrivate} == {SellShares}
    refused(g, TradePrivate("D", "DH", "C", 70), "certificate limit")
    g.apply(ExchangePrivate("D", "MH", "ipo"))  # MH closes: one certificate for another
    assert pct(g, "NYC", "D") == 10 and g.state.privates["MH"].closed
    assert shares.cert_count(g, "D") == 17 and g.acting() == "D"
    g.apply(SellShares("D", "C&O", 10))
    g.apply(Pass("D"))  # at the limit now: a pass is fine
    assert g.acting() == "A"


def test_over_the_limit_with_nothing_to_sell_a_player_may_pass() -> None:
    """In stock round 1 nothing can be sold: a player over the limit (privates count)
    passes, and may still buy a share that does not count."""
    g = opening()
    fill_certs(g, "C", 15)
    g.state.privates["SV"].owner = "C"  # 17
    start(g, "B&M", 100, "A")
    place(g, "B&M", 7, 5)
    g.state.round.turn = PLAYERS.index("C")
    g.invalidate_caches()
    refused(g, BuyShares("C", "B&O", "ipo"), "certificate limit")
    refused(g, Par("C", "PRR", 67), "certificate limit")
    g.apply(BuyShares("C", "B&M", "ipo"))
    assert pct(g, "B&M", "C") == 10


def test_a_par_after_a_sale_is_allowed_and_after_a_purchase_refused() -> None:
    g = nyc_position()
    g.apply(SellShares("C", "NYC", 10))
    g.apply(Par("C", "PRR", 100))  # selling first is no purchase
    assert g.state.corporations["PRR"].president == "C" and cash(g)["C"] == 530 + 67 - 200
    refused(g, Par("C", "ERIE", 67), "already bought this turn")


def test_buying_after_selling_that_corporation_is_refused_for_the_whole_round() -> None:
    g = nyc_position()
    g.apply(SellShares("C", "NYC", 10))
    g.apply(Pass("C"))
    assert g.acting() == "D"
    g.apply(BuyShares("D", "NYC", "pool"))  # someone else may buy it
    assert pct(g, "NYC", "D") == 30


def test_shares_in_the_pool_count_toward_the_float() -> None:
    """60% out of the IPO floats a corporation, shares sold to the pool included (18xx.games
    floated?: at most 40% left in the IPO)."""
    g = opening()
    start(g, "NYC", 67, "D")
    give(g, "NYC", "A", 1)
    give(g, "NYC", "B", 1)
    give(g, "NYC", "pool", 1)  # IPO 50%
    later(g, "C")
    g.apply(BuyShares("C", "NYC", "pool"))  # still 50% in the IPO
    assert not g.state.corporations["NYC"].floated
    later(g, "A")
    g.apply(BuyShares("A", "NYC", "ipo"))
    assert g.state.corporations["NYC"].floated and g.state.corporations["NYC"].cash == 670


# -- the private companies' shares ----------------------------------------------------------


def test_the_ca_share_cannot_be_sold_before_prr_is_started() -> None:
    g = later(opening(), "A")
    assert g.state.certs["PRR_1"] == "A"
    refused(g, SellShares("A", "PRR", 10), "no share price")
    refused(g, BuyShares("A", "PRR", "ipo"), "has not been started")
    g.apply(Par("A", "PRR", 71))  # with its C&A share: 30%
    assert pct(g, "PRR", "A") == 30 and cash(g)["A"] == 420 - 142
    later(g, "A")
    g.apply(SellShares("A", "PRR", 10))
    assert g.state.corporations["PRR"].president == "A" and cash(g)["A"] == 278 + 71
    # the C&A share counted as sold: 20% A + 10% pool + 30% more floats PRR
    give(g, "PRR", "D", 2)
    assert not g.state.corporations["PRR"].floated
    later(g, "C")
    g.apply(BuyShares("C", "PRR", "ipo"))
    assert g.state.corporations["PRR"].floated and g.state.corporations["PRR"].cash == 710


def test_the_bo_buyer_holds_the_bo_presidents_certificate() -> None:
    g = opening()
    assert g.state.certs["B&O_0"] == "B" and g.state.corporations["B&O"].president == "B"
    assert shares.cert_count(g, "B") == 3  # CS, BO and the certificate
    later(g, "B")
    refused(g, SellShares("B", "B&O", 10), "cannot go to the pool")


# -- the M&H exchange ----------------------------------------------------------------------------


def test_mh_may_be_exchanged_before_nyc_is_started() -> None:
    """18xx.games allows it (a corpus game exchanges MH in stock round 1, before NYC's
    par): the share has no price until NYC starts and cannot be sold."""
    g = opening()
    g.apply(ExchangePrivate("D", "MH", "ipo"))
    assert pct(g, "NYC", "D") == 10 and g.state.corporations["NYC"].par is None
    assert g.state.privates["MH"].closed and g.state.corporations["NYC"].president is None
    refused(g, ExchangePrivate("D", "MH", "ipo"), "does not own an open MH")
    later(g, "D")
    refused(g, SellShares("D", "NYC", 10), "no share price")
    g.apply(Par("D", "NYC", 67))
    assert pct(g, "NYC", "D") == 30


def test_mh_is_exchanged_out_of_turn_and_over_the_certificate_limit() -> None:
    g = opening()
    fill_certs(g, "D", 15)  # 16 with MH
    assert g.acting() == "C"
    g.apply(ExchangePrivate("D", "MH", "ipo"))
    assert shares.cert_count(g, "D") == 16 and pct(g, "NYC", "D") == 10
    assert g.acting() == "C"  # no turn changes hands


def test_mh_exchange_respects_sixty_percent_unless_nyc_is_orange() -> None:
    g = opening()
    start(g, "NYC", 67, "D")
    give(g, "NYC", "D", 4)  # 60%
    refused(g, ExchangePrivate("D", "MH", "ipo"), "holding limit")
    refused(g, ExchangePrivate("D", "MH", "pool"), "no NYC share in the pool")
    place(g, "NYC", 5, 1)  # $34, orange
    g.apply(ExchangePrivate("D", "MH", "ipo"))
    assert pct(g, "NYC", "D") == 70


def test_mh_exchange_from_the_pool_and_presidency() -> None:
    """From the pool when the IPO is empty; the share may make its taker president."""
    g = opening()
    start(g, "NYC", 67, "A")
    give(g, "NYC", "D", 2)
    give(g, "NYC", "B", 4)
    give(g, "NYC", "pool", 2)  # the IPO is empty now
    refused(g, ExchangePrivate("D", "MH", "ipo"), "no NYC share in the ipo")
    g.apply(ExchangePrivate("D", "MH", "pool"))
    assert pct(g, "NYC", "pool") == 10
    assert g.state.corporations["NYC"].president == "B"  # B 40% > D 30% > A 20%
    assert g.state.certs["NYC_0"] == "B"


def test_mh_may_be_exchanged_for_the_nyc_share_its_owner_just_sold() -> None:
    """18xx.games' exchange asks only can_gain? (holding limit), not whether the player
    sold NYC this round: the share he sold may come back through MH."""
    g = opening()
    start(g, "NYC", 67, "C")
    give(g, "NYC", "C", 1)
    give(g, "NYC", "D", 2)
    later(g, "D")
    g.apply(SellShares("D", "NYC", 10))
    refused(g, BuyShares("D", "NYC", "pool"), "sold NYC this round")
    g.apply(ExchangePrivate("D", "MH", "pool"))
    assert pct(g, "NYC", "D") == 20 and pct(g, "NYC", "pool") == 0
    assert cash(g)["D"] == 490 + 67 and g.acting() == "D"


# -- several shares in one turn in a brown cell ----------------------------------------------


def brown_position(options: list[str] | None = None) -> Game:
    """ERIE (president A) in a brown cell ($30) with 30% in the pool and 40% in the IPO;
    NYNH (president A) brown too; C to act with $530."""
    g = opening(options)
    for corp in ("ERIE", "NYNH"):
        start(g, corp, 67, "A")
        give(g, corp, "pool", 3)
        place(g, corp, 7, 2)
    return later(g, "C")


def test_brown_several_from_the_pool_but_not_after_an_ipo_purchase() -> None:
    g = brown_position()
    g.apply(BuyShares("C", "ERIE", "pool"))
    g.apply(BuyShares("C", "ERIE", "pool"))
    refused(g, BuyShares("C", "ERIE", "ipo"), "from the pool only")
    refused(g, BuyShares("C", "NYNH", "pool"), "only of the same corporation")
    g.apply(BuyShares("C", "ERIE", "pool"))
    assert pct(g, "ERIE", "C") == 30 and cash(g)["C"] == 530 - 90
    g = brown_position()
    g.apply(BuyShares("C", "ERIE", "ipo"))  # $67: the par
    refused(g, BuyShares("C", "ERIE", "pool"), "from the pool only")
    refused(g, BuyShares("C", "ERIE", "ipo"), "from the pool only")


def test_brown_several_from_the_ipo_with_the_optional_rule() -> None:
    g = brown_position([*READINGS_18XX, "multiple_brown_from_ipo"])
    for source in ("ipo", "pool", "ipo", "pool"):
        g.apply(BuyShares("C", "ERIE", source))
    assert pct(g, "ERIE", "C") == 40 and cash(g)["C"] == 530 - 2 * 67 - 2 * 30
    refused(g, BuyShares("C", "NYNH", "pool"), "only of the same corporation")


def test_brown_several_from_the_pool_after_buying_a_private() -> None:
    """18xx.games can_buy_multiple?: a private bought from a player is no share purchase
    (a corpus game buys CS, then four CPR shares from the pool)."""
    g = brown_position()
    g.apply(TradePrivate("C", "SV", "A", 10))
    refused(g, BuyShares("C", "B&O", "ipo"), "already bought this turn")
    g.apply(BuyShares("C", "ERIE", "pool"))
    g.apply(BuyShares("C", "ERIE", "pool"))
    assert pct(g, "ERIE", "C") == 20 and cash(g)["C"] == 530 - 10 - 60


# -- the end of a turn -----------------------------------------------------------------------


def test_after_a_sale_a_player_who_can_buy_no_share_may_still_buy_a_private() -> None:
    """A sale is no purchase: a player who can buy no share after it may still buy a private
    from another player, so his turn goes on (18xx.games offers buy_company there; seed
    000 lets a turn's one purchase be a private)."""
    g = opening()
    start(g, "NYC", 67, "D")
    give(g, "NYC", "B", 1)
    later(g, "B")
    set_cash(g, B=0)
    g.apply(SellShares("B", "NYC", 10))  # $67: no share costs that little, NYC sold
    assert cash(g)["B"] == 67
    assert g.acting() == "B"
    g.apply(TradePrivate("B", "SV", "A", 10))
    assert g.state.privates["SV"].owner == "B"
