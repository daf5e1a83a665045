"""Audit of who acts next in an 1830 stock round: which players our engine passes by
itself ("X can do nothing": StockRoundSteps.advance, BuySellPar.can_trade,
private_trades.can_buy_private) against which players 18xx.games skips.

18xx.games (Round::Stock, Step::BuySellParShares): a player whose step offers no action
(no buy_shares, par, buy_company or sell_shares) is skipped and counts as passed; one with
any of them must act or pass; after a purchase his turn goes on only while he may still
sell (sell-buy-sell) or buy more in a brown cell, and his closing "Done" is no pass.  The
M&H exchange is a step of its own that never holds a player.  The round ends when every
player has passed (or been skipped) since the last one who traded; the priority deal
goes to the player after him.

In the 87 corpus games our engine passes a player by itself 780 times (each one skipped
by 18xx.games too: no logged pass of such a player is ever dropped): 771 in a first stock
round (no sale, no private trade; cash below the cheapest share and below $134 for a par,
136 of them able to exchange M&H), 9 later, all of players who could sell nothing (a
presidency nobody could take, a corporation with half its shares in the pool), none with a
private to buy ($0, or no private left).  The corners the corpus does not show are built
here by editing the state, with the importer's readings (READINGS_18XX).
"""

from __future__ import annotations

from typing import Any

import pytest
from corpus_18xx import at, export, insert_after, player
from scenario import agreed
from stock_setups import give, later, opening, place, refused, set_cash, start

from eighteen import Game
from eighteen.engine import shares
from eighteen.engine.actions import (
    BuyShares,
    ExchangePrivate,
    Par,
    Pass,
    SellShares,
    TradePrivate,
)

# -- helpers ----------------------------------------------------------------------------


def close(g: Game, *pids: str) -> None:
    for pid in pids:
        g.state.privates[pid].closed = True
    g.invalidate_caches()


def empty_bo_ipo(g: Game) -> None:
    """B&O's eight ordinary shares go to A (5) and C (3): none left to buy."""
    give(g, "B&O", "A", 5)
    give(g, "B&O", "C", 3)


def skipped(g: Game) -> list[str]:
    """The players our engine has passed by itself so far, in order."""
    return [m.removesuffix(" can do nothing") for _, m in g.events if m.endswith("can do nothing")]


def where(g: Game) -> tuple[str | None, int, str]:
    """(who acts, the stock round's passes in a row, the priority deal's holder)."""
    r = g.state.round
    return g.acting(), r.passes, g.state.players[g.state.priority].name


def kinds(g: Game) -> set[str]:
    return {type(a).__name__ for a in g.legal_actions()}


def stock_where(res: Any) -> tuple[str, str | None, int | None, str]:
    g = res.game
    r = g.state.round
    return (r.kind, g.acting(), getattr(r, "passes", None), g.state.players[g.state.priority].name)


# -- the corpus ---------------------------------------------------------------------------


def test_corpus_a_presidency_nobody_can_take_is_skipped_and_ends_the_round_unlogged() -> None:
    """g6p_s6504, stock round 12: Player 4 holds only B&O's president's certificate (no
    one else holds 20%), $54, every private closed: nothing to sell, buy or start.  Both
    engines skip him after Player 3's Done (616) and again after Player 3's pass (623);
    no pass of his is logged, and Player 5's pass (624) is the sixth in a row that ends
    the round.  The priority goes to Player 6, after Player 5, the last to trade."""
    data = export("g6p_s6504")
    g = at(data, 615).game
    assert g.state.player("Player 4").cash == 54
    assert {c: p for c, p in shares.holdings(g, "Player 4").items() if p} == {"B&O": 20}
    assert max(shares.percent_of(g, "B&O", p.name) for p in g.state.players[:3]) == 10
    assert skipped(g).count("Player 4") == 1  # (stock round 1)
    assert stock_where(at(data, 616)) == ("stock", "Player 5", 1, "Player 1")
    assert skipped(at(data, 616).game).count("Player 4") == 2
    assert stock_where(at(data, 622)) == ("stock", "Player 3", 3, "Player 1")
    assert stock_where(at(data, 623)) == ("stock", "Player 5", 5, "Player 1")
    end = at(data, 624)
    assert stock_where(end) == ("operating", "NYNH", None, "Player 6")
    assert skipped(end.game).count("Player 4") == 3


def test_corpus_a_logged_pass_of_the_skipped_player_is_dropped_and_a_buy_diverges() -> None:
    """The same game: a pass of Player 4 logged after Player 3's Done (616), as 18xx.games
    would log it had it waited for him, is dropped by the importer (Player 5 acts in our
    engine): the same game after Player 5's sale.  A purchase of his logged there is
    refused: the importer cannot follow an 18xx.games that waited for him."""
    data = export("g6p_s6504")
    p4 = player(data, "Player 4")
    passed = at(
        insert_after(data, 616, [{"type": "pass", "entity": p4, "entity_type": "player"}]), 618
    )
    assert passed.divergence is None
    assert passed.game.state_hash() == at(data, 617).game.state_hash()
    buy = {
        "type": "buy_shares",
        "entity": p4,
        "entity_type": "player",
        "shares": ["C&O_1"],
        "percent": 10,
    }
    res = at(insert_after(data, 616, [buy]), 617)
    assert str(res.divergence) == "action 617: not Player 4's turn: Player 5 is to act"


def test_corpus_a_par_that_leaves_nothing_ends_the_turn_and_the_next_holds_the_priority() -> None:
    """g4p_s4007, stock round 4: Player 4 starts NYNH at $90 with his last $180 (109) and
    can sell nothing (CPR sold this round, his presidencies untakeable): his turn ends
    without a logged Done.  Players 1-3 pass (110-112) and Player 4, with $0 and no
    private to buy, is skipped: the round ends, and the priority goes to Player 1, after
    Player 4, the last to trade."""
    data = export("g4p_s4007")
    par = at(data, 109)
    assert par.game.state.player("Player 4").cash == 0
    assert stock_where(par) == ("stock", "Player 1", 0, "Player 1")
    assert stock_where(at(data, 111)) == ("stock", "Player 3", 2, "Player 1")
    end = at(data, 112)
    assert stock_where(end) == ("operating", "B&M", None, "Player 1")
    assert skipped(end.game)[-1] == "Player 4"


# -- what keeps a player: selling, buying, starting, a private ------------------------------


def test_a_poor_holder_is_skipped_in_the_first_stock_round_and_waits_later_to_sell() -> None:
    """D ($0) holds a B&O share and M&H.  Stock round 1 (no sales, no private trades):
    after C's pass he is skipped (his pass counts: two in a row) and A acts.  In a later
    round he may sell the share: he waits, and may not be skipped by the exchange alone."""
    g = opening()
    set_cash(g, D=0)
    give(g, "B&O", "D", 1)
    g.apply(Pass("C"))
    assert where(g) == ("A", 2, "C")
    assert skipped(g) == ["D"]
    g = later(opening(), "C")
    set_cash(g, D=0)
    give(g, "B&O", "D", 1)
    g.apply(Pass("C"))
    assert where(g) == ("D", 1, "C") and skipped(g) == []
    # (his M&H is not for sale in his own turn: private_trades_18xx_games)
    assert kinds(g) == {"SellShares", "ExchangePrivate", "Pass"}
    assert [a for a in g.legal_actions() if isinstance(a, SellShares)] == [
        SellShares("D", "B&O", 10)
    ]


@pytest.mark.parametrize(("cash", "acting"), [(134, "D"), (133, "A")])
def test_a_player_who_can_only_start_a_corporation_needs_twice_the_lowest_par(
    cash: int, acting: str
) -> None:
    """Stock round 1, B&O's IPO empty: D's only trade would be a par.  The president's
    certificate at the lowest par, $67, costs $134: with that much he waits (offered a par
    at $67 of each of the seven other corporations), with $1 less he is skipped.  (The
    corpus: players skipped with up to $80 while a corporation could be started; none
    ever waited with a par as his only trade.)"""
    g = opening()
    empty_bo_ipo(g)
    set_cash(g, D=cash)
    g.apply(Pass("C"))
    assert g.acting() == acting
    if acting == "D":
        pars = [a for a in g.legal_actions() if isinstance(a, Par)]
        assert {(a.corporation, a.price) for a in pars} == {
            (c, 67) for c in ("PRR", "NYC", "CPR", "C&O", "ERIE", "NYNH", "B&M")
        }
        assert kinds(g) == {"Par", "ExchangePrivate", "Pass"}
    else:
        assert skipped(g) == ["D"] and where(g) == ("A", 2, "C")


@pytest.mark.parametrize(("cash", "acting"), [(100, "D"), (99, "A")])
def test_a_player_who_can_only_buy_from_the_pool_waits_if_he_can_pay(
    cash: int, acting: str
) -> None:
    """Stock round 1, one B&O share in the pool ($100) and none in the IPO."""
    g = opening()
    give(g, "B&O", "A", 5)
    give(g, "B&O", "C", 2)
    give(g, "B&O", "pool", 1)
    set_cash(g, D=cash)
    g.apply(Pass("C"))
    assert g.acting() == acting
    if acting == "D":
        assert [a for a in g.legal_actions() if not isinstance(a, ExchangePrivate)] == [
            BuyShares("D", "B&O", "pool"),
            Pass("D"),
        ]
    else:
        assert skipped(g) == ["D"]


def at_limit(g: Game, player: str) -> None:
    """``player`` starts C&O, NYNH and CPR at $100 (money aside) and holds 60% of each:
    15 certificates, 16 with one private (the limit of 4 players)."""
    for corp in ("C&O", "NYNH", "CPR"):
        start(g, corp, 100, player)
        give(g, corp, player, 4)


def test_at_the_certificate_limit_only_a_share_that_does_not_count_keeps_him() -> None:
    """Stock round 1, D ($490) at 16 certificates: no B&O share (it would count) and no
    par: skipped.  With B&O in a yellow cell ($60, it no longer counts) he may buy its IPO
    share at par ($100): he waits."""
    g = opening()
    at_limit(g, "D")
    assert shares.cert_count(g, "D") == 16
    g.apply(Pass("C"))
    assert skipped(g) == ["D"] and where(g) == ("A", 2, "C")
    g = opening()
    at_limit(g, "D")
    place(g, "B&O", 7, 5)
    g.apply(Pass("C"))
    assert g.acting() == "D" and skipped(g) == []
    assert [a for a in g.legal_actions() if isinstance(a, BuyShares)] == [
        BuyShares("D", "B&O", "ipo")
    ]


def test_over_the_limit_with_something_to_sell_he_must_sell_and_is_never_skipped() -> None:
    """A later round, D over the limit (SV makes 17) with shares he may sell: his turn
    comes, holding only sales (18xx.games must_sell?: sell_shares alone, no pass)."""
    g = later(opening(), "C")
    at_limit(g, "D")
    g.state.privates["SV"].owner = "D"
    g.invalidate_caches()
    g.apply(Pass("C"))
    assert where(g) == ("D", 1, "C") and skipped(g) == []
    assert kinds(g) - {"TradePrivate", "ExchangePrivate"} == {"SellShares"}
    refused(g, Pass("D"), "over a limit and must sell")


def full_pools(g: Game, player: str) -> None:
    """``player`` holds 30% of C&O, NYNH, CPR, ERIE and B&M (15 shares), started by A at
    $67, each with 50% in the pool: nothing of his may be sold."""
    for corp in ("C&O", "NYNH", "CPR", "ERIE", "B&M"):
        start(g, corp, 67, "A")
        give(g, corp, player, 3)
        give(g, corp, "pool", 5)


def test_over_the_limit_with_nothing_he_may_sell_he_is_skipped() -> None:
    """A later round: D ($0) holds 15 shares whose pools are full, M&H and SV: 17
    certificates, over the limit, but no sale fits in the pool: nothing to do."""
    g = later(opening(), "C")
    full_pools(g, "D")
    g.state.privates["SV"].owner = "D"
    set_cash(g, D=0)
    assert shares.cert_count(g, "D") == 17
    g.apply(Pass("C"))
    assert skipped(g) == ["D"] and where(g) == ("A", 2, "C")


@pytest.mark.parametrize(("other", "acting"), [(10, "A"), (20, "D")])
def test_a_presidency_alone_keeps_him_only_if_another_player_could_take_it(
    other: int, acting: str
) -> None:
    """A later round: D ($0, M&H closed) holds only NYC's president's certificate.  With
    A at 10% nobody could take the presidency: D is skipped.  With A at 20% D may sell
    10% or 20% (A becomes president): he waits."""
    g = later(opening(), "C")
    close(g, "MH")
    start(g, "NYC", 67, "D")
    give(g, "NYC", "A", other // 10)
    set_cash(g, D=0)
    g.apply(Pass("C"))
    assert g.acting() == acting
    if acting == "D":
        assert [a for a in g.legal_actions() if isinstance(a, SellShares)] == [
            SellShares("D", "NYC", 10),
            SellShares("D", "NYC", 20),
        ]
    else:
        assert skipped(g) == ["D"]


def test_shares_of_a_corporation_he_sold_this_round_may_be_sold_again() -> None:
    """A later round: D sold NYC earlier this round and holds 20% more; he may not buy NYC
    back but may sell again (18xx.games asks players_sold only for buying): he waits.
    Once NYC's pool holds 50% he can do nothing, even with the $67 a pool share of NYC
    costs (every private he could buy closed): skipped (corpus g6p_s6007, stock round 7)."""

    def after_selling_nyc(pool: int, cash: int, *closed: str) -> Game:
        """D, who sold NYC this round and holds 20% of it, after C's pass."""
        g = later(opening(), "C")
        close(g, *closed)
        start(g, "NYC", 67, "A")
        give(g, "NYC", "D", 2)
        give(g, "NYC", "pool", pool)
        g.state.round.sold["D"] = ["NYC"]
        set_cash(g, D=cash)
        g.apply(Pass("C"))
        return g

    g = after_selling_nyc(1, 0, "MH")
    assert g.acting() == "D"
    assert [a for a in g.legal_actions() if isinstance(a, SellShares)] == [
        SellShares("D", "NYC", 10),
        SellShares("D", "NYC", 20),
    ]
    g = after_selling_nyc(5, 67, "MH", "SV", "CS", "DH")
    assert skipped(g) == ["D"] and where(g) == ("A", 2, "C")


def test_an_mh_exchange_alone_does_not_keep_him_and_may_be_made_out_of_turn() -> None:
    """A later round: D ($0) holds only M&H, NYC started by A: the exchange (a step of its
    own in 18xx.games, never holding a player) is all he could do: skipped.  He exchanges
    in A's turn (A still acts); at his next turn he holds a NYC share he may sell: he
    waits."""
    g = later(opening(), "C")
    start(g, "NYC", 67, "A")
    set_cash(g, D=0)
    g.apply(Pass("C"))
    assert skipped(g) == ["D"] and where(g) == ("A", 2, "C")
    g.apply(ExchangePrivate("D", "MH", "ipo"))
    assert where(g) == ("A", 2, "C") and shares.percent_of(g, "NYC", "D") == 10
    g.apply(Pass("A"))
    g.apply(Pass("B"))
    g.apply(Pass("C"))
    assert where(g) == ("D", 1, "C")  # (A, B and C: a pass in a row each; D's skip is past)
    assert [a for a in g.legal_actions() if isinstance(a, SellShares)] == [
        SellShares("D", "NYC", 10)
    ]


def test_an_exchange_that_uses_up_his_last_trade_passes_him_at_once() -> None:
    """Stock round 1: D ($67) holds 50% of NYC, and its last IPO share is his only trade.
    In his turn he exchanges M&H for it instead: at 60% he can do nothing more, and is
    passed at once (18xx.games: the exchange leaves his share step without an action, so
    it is skipped and he passes); his pass counts."""
    g = opening()
    start(g, "NYC", 67, "D")
    give(g, "NYC", "D", 3)
    give(g, "NYC", "A", 4)
    set_cash(g, D=67)
    g.apply(Pass("C"))
    assert where(g) == ("D", 1, "C")
    assert [a for a in g.legal_actions() if isinstance(a, BuyShares)] == [
        BuyShares("D", "NYC", "ipo")
    ]
    g.apply(ExchangePrivate("D", "MH", "ipo"))
    assert shares.percent_of(g, "NYC", "D") == 60 and g.state.player("D").cash == 67
    assert skipped(g) == ["D"] and where(g) == ("A", 2, "C")


def test_a_private_he_could_buy_keeps_him_but_not_ca_or_bo_with_the_readings() -> None:
    """A later round: D ($10) holds nothing that may be sold and can buy no share.  While
    another player holds SV, CS or DH he may buy one for up to $10 (18xx.games offers
    buy_company to a player with cash): he waits.  With those closed only C&A and B&O are
    left, which 18xx.games does not let players trade (private_trades_18xx_games): he is
    skipped; under the seed rules he may buy C&A for $10, and waits."""
    g = later(opening(), "C")
    close(g, "MH")
    set_cash(g, D=10)
    g.apply(Pass("C"))
    assert where(g) == ("D", 1, "C")
    g.apply(TradePrivate("D", "SV", "A", 10))
    assert g.state.privates["SV"].owner == "D" and g.state.player("D").cash == 0
    assert where(g) == ("A", 0, "C")  # a trade is no pass; nothing more for D
    g = later(opening(), "C")
    close(g, "MH", "SV", "CS", "DH")
    set_cash(g, D=10)
    g.apply(Pass("C"))
    assert skipped(g) == ["D"] and where(g) == ("A", 2, "C")
    seed = later(opening(options=[]), "C")
    close(seed, "MH", "SV", "CS", "DH")
    set_cash(seed, D=10)
    seed.apply(Pass("C"))
    assert where(seed) == ("D", 1, "C") and skipped(seed) == []
    agreed(seed, TradePrivate("D", "CA", "A", 10), "A")  # (A accepts)
    assert seed.state.privates["CA"].owner == "D"


# -- how long a turn goes on ------------------------------------------------------------------


def test_sell_buy_sell_the_turn_goes_on_until_nothing_is_left_to_sell() -> None:
    """A later round: D ($50) holds 20% of NYC (A president).  He sells 10% ($67), buys a
    B&O share ($100), sells his last NYC share and the B&O share just bought: with nothing
    left to sell and his purchase made, his turn ends by itself (no Done), as no pass,
    and he holds the priority deal for now."""
    g = later(opening(), "D")
    start(g, "NYC", 67, "A")
    give(g, "NYC", "D", 2)
    set_cash(g, D=50)
    g.apply(SellShares("D", "NYC", 10))
    assert where(g) == ("D", 0, "C") and g.state.player("D").cash == 117
    g.apply(BuyShares("D", "B&O", "ipo"))
    assert where(g) == ("D", 0, "C") and g.state.player("D").cash == 17
    refused(g, BuyShares("D", "B&O", "ipo"), "already bought this turn")
    g.apply(SellShares("D", "NYC", 10))
    assert where(g) == ("D", 0, "C") and g.state.player("D").cash == 84
    g.apply(SellShares("D", "B&O", 10))
    assert g.state.player("D").cash == 184
    assert where(g) == ("A", 0, "C") and skipped(g) == []
    assert g.state.round.last_actor == "D"


def test_first_stock_round_a_purchase_ends_the_turn_unless_the_brown_pool_has_more() -> None:
    """Stock round 1 (no sales): a purchase or a par ends the turn at once (1355 times in
    the corpus) -- except in a brown cell while its pool holds more: C buys ERIE's three pool
    shares ($30 each) one by one and his turn ends with the last (the IPO's are not for a
    second purchase: brown_pool_only_18xx_games)."""
    g = opening()
    g.apply(BuyShares("C", "B&O", "ipo"))
    assert where(g) == ("D", 0, "C")
    g = opening()
    start(g, "ERIE", 67, "A")
    give(g, "ERIE", "pool", 3)
    place(g, "ERIE", 7, 2)
    for left in (2, 1):
        g.apply(BuyShares("C", "ERIE", "pool"))
        assert where(g) == ("C", 0, "C")
        assert shares.percent_of(g, "ERIE", "pool") == left * 10
        assert [a for a in g.legal_actions() if isinstance(a, BuyShares)] == [
            BuyShares("C", "ERIE", "pool")
        ]
    g.apply(BuyShares("C", "ERIE", "pool"))
    assert where(g) == ("D", 0, "C") and g.state.player("C").cash == 530 - 90


def test_after_a_purchase_a_player_who_may_sell_must_say_done_and_it_is_no_pass() -> None:
    """A later round: C buys a B&O share; he may still sell (sell-buy-sell), so his turn
    waits for his Done, which counts as no pass.  D ($0, M&H only) and B ($0, only B&O's
    untakeable presidency and two privates) are skipped; A passes; C's pass is the fourth
    in a row: the round ends and the priority goes to D, after C the last to trade,
    although D could do nothing (the next stock round starts with him: M&H's $20 lets him
    buy a private now)."""
    g = later(opening(), "C")
    set_cash(g, B=0, D=0)
    g.apply(BuyShares("C", "B&O", "ipo"))
    assert where(g) == ("C", 0, "C")
    assert [a for a in g.legal_actions() if isinstance(a, SellShares)] == [
        SellShares("C", "B&O", 10)
    ]
    g.apply(Pass("C"))
    assert where(g) == ("A", 1, "C") and skipped(g) == ["D"]
    g.apply(Pass("A"))
    assert where(g) == ("C", 3, "C") and skipped(g) == ["D", "B"]
    g.apply(Pass("C"))
    assert g.state.round.kind == "stock"  # (no corporation operates: B&O has not floated)
    assert where(g) == ("D", 0, "D")
    assert g.state.player("D").cash == 20


def test_a_round_of_passes_and_skips_keeps_the_priority() -> None:
    """Stock round 1, B and D ($0) can do nothing: C and A pass, B and D are skipped, four
    in a row: the round ends with nobody having traded and C keeps the priority deal."""
    g = opening()
    set_cash(g, B=0, D=0)
    g.apply(Pass("C"))
    assert where(g) == ("A", 2, "C")
    g.apply(Pass("A"))
    assert skipped(g) == ["D", "B"]
    assert g.state.round.kind == "stock" and g.state.round.number == 2
    assert where(g) == ("C", 0, "C")
