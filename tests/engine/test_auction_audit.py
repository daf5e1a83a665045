"""Audit of the 1830 private auction (the game's start) against 18xx.games and the seeds.

Each test pins one corner with exact values: what is accepted (cash, owners, bids, who
acts next) or refused (the exact refusal, the state unchanged).  ``new()`` plays with the
readings the importer switches on (auction_18xx_games among them: a bid-off is settled by
its lowest bidder, who raises or withdraws, and the priority deal goes to the next normal
turn); ``seed()`` plays the title's default, the seed's reading (a bid-off in seating
order from the left of the best bidder, priority to the left of the last buyer).

What the 87 corpus games (tests/fixtures/18xx-games) show of the auction: 99 bid-offs (62
of 2 bidders, 22 of 3, 14 of 4, 1 of 5) with 166 bids and 152 withdrawals; 89 bids by
a player already bidding on another private; 17 raises of one's own best bid and 58
re-bids over one's own lower bid; 73 purchases of the cheapest private with money set
aside elsewhere; 2 drops of SV to $15 (never further); 7 payouts after everyone passed;
B&O parred at each of the six par prices, 19 times by a buyer holding less than twice the
par (down to $13); 4 bid-off passes by a lowest bidder who could not raise and one normal
pass by a player with nothing free (18xx.games logs them: no automatic pass); every bid a
multiple of $5.
"""

from __future__ import annotations

from typing import Any

import pytest
from corpus_18xx import at, made_export
from corpus_18xx import export as corpus_export
from readings_18xx import READINGS_18XX

from eighteen import Game, IllegalAction, load_title
from eighteen.engine.actions import Action, Bid, Par, Pass
from eighteen.io.games18xx import ImportResult, import_game

ABCD = ["A", "B", "C", "D"]
PAR_CELLS = {100: [0, 6], 90: [1, 6], 82: [2, 6], 76: [3, 6], 71: [4, 6], 67: [5, 6]}


# -- helpers ----------------------------------------------------------------------------


def new(players: list[str] | None = None) -> Game:
    """The 18xx.games readings (as every import plays)."""
    return Game.new(load_title("1830"), players or ABCD, options=READINGS_18XX)


def seed(players: list[str] | None = None) -> Game:
    """The title's default: the seed's reading."""
    return Game.new(load_title("1830"), players or ABCD)


def run(g: Game, *actions: Action) -> None:
    for a in actions:
        assert g.acting() == a.actor, f"{a}: {g.acting()} is to act"
        g.apply(a)


def refused(g: Game, action: Action, match: str) -> None:
    """The action is refused and leaves the state exactly as it was."""
    before = g.state_hash()
    with pytest.raises(IllegalAction, match=match):
        g.apply(action)
    assert g.state_hash() == before


def cash(g: Game) -> dict[str, int]:
    return {p.name: p.cash for p in g.state.players}


def owners(g: Game) -> dict[str, str | None]:
    return {pid: ps.owner for pid, ps in g.state.privates.items()}


def set_cash(g: Game, **amounts: int) -> None:
    for name, amount in amounts.items():
        p = g.state.player(name)
        g.state.bank += p.cash - amount
        p.cash = amount
    g.invalidate_caches()


def sv_price(g: Game) -> int:
    """The price at which the player to act may buy SV now (from his legal actions)."""
    return next(a.price for a in g.legal_actions() if isinstance(a, Bid) and a.private == "SV")


# -- players, cash and the order of the normal turns --------------------------------------


@pytest.mark.parametrize(("n", "each"), [(2, 1200), (3, 800), (4, 600), (5, 480), (6, 400)])
def test_starting_cash_and_turns_in_seating_order(n: int, each: int) -> None:
    """$2400 split among the players (seed 000, table 5; 18xx.games the same); the normal
    turns go round the table in seating order (the export's player order), and a full
    round of passes drops SV by $5 (the first player acts again)."""
    names = [f"P{i}" for i in range(1, n + 1)]
    g = new(names)
    assert cash(g) == dict.fromkeys(names, each)
    assert g.state.bank == 12000 - n * each
    for name in names:
        assert g.acting() == name and sv_price(g) == 20
        g.apply(Pass(name))
    assert g.acting() == "P1" and sv_price(g) == 15


# -- the minimum bids -------------------------------------------------------------------


def test_the_cheapest_private_is_bought_at_its_price_and_nothing_else() -> None:
    g = new()
    refused(g, Bid("A", "SV", 19), r"the cheapest private SV is bought at \$20, not bid on")
    refused(g, Bid("A", "SV", 25), r"the cheapest private SV is bought at \$20, not bid on")
    for p in ABCD:
        g.apply(Pass(p))
    refused(g, Bid("A", "SV", 20), r"bought at \$15, not bid on")
    g.apply(Bid("A", "SV", 15))
    assert owners(g)["SV"] == "A" and cash(g)["A"] == 585
    # the next private is bought at its face (the drop was SV's only)
    refused(g, Bid("B", "CS", 35), r"the cheapest private CS is bought at \$40, not bid on")
    refused(g, Bid("B", "CS", 45), r"the cheapest private CS is bought at \$40, not bid on")
    g.apply(Bid("B", "CS", 40))
    assert cash(g)["B"] == 560 and g.acting() == "C"


@pytest.mark.parametrize(
    ("pid", "least"), [("CS", 45), ("DH", 75), ("MH", 115), ("CA", 165), ("BO", 225)]
)
def test_the_first_bid_on_a_later_private_is_face_plus_five(pid: str, least: int) -> None:
    """Any amount from face + $5 (seed 000: "at least $5 more"; 18xx.games' 1830 asks no
    multiple of $5, though every corpus bid is one); the next bid tops the best by $5."""
    g = new()
    refused(g, Bid("A", pid, least - 1), rf"a bid on {pid} must be at least \${least}")
    g.apply(Bid("A", pid, least + 1))
    refused(g, Bid("B", pid, least + 5), rf"a bid on {pid} must be at least \${least + 6}")
    g.apply(Bid("B", pid, least + 6))
    assert g.state.round.bids == {pid: [["A", least + 1], ["B", least + 6]]}
    assert g.acting() == "C"


def test_a_bid_tops_the_best_bid_not_the_face() -> None:
    g = new()
    g.apply(Bid("A", "CA", 300))
    refused(g, Bid("B", "CA", 304), r"a bid on CA must be at least \$305")
    g.apply(Bid("B", "CA", 305))
    assert [Bid("C", "CA", 310)] == [
        a for a in g.legal_actions() if isinstance(a, Bid) and a.private == "CA"
    ][:1]


# -- several bids by one player, money set aside ------------------------------------------


def test_a_re_bid_over_one_s_own_lower_bid_replaces_it() -> None:
    """A's $165 is topped by B; A bids again: at least B's $170 + $5, and his new bid
    replaces the old (it goes last in the list; only $175 is set aside)."""
    g = new()
    run(g, Bid("A", "CA", 165), Bid("B", "CA", 170), Pass("C"), Pass("D"))
    refused(g, Bid("A", "CA", 174), r"at least \$175")
    g.apply(Bid("A", "CA", 175))
    assert g.state.round.bids == {"CA": [["B", 170], ["A", 175]]}
    run(g, Pass("B"), Pass("C"), Pass("D"))
    refused(g, Bid("A", "BO", 430), r"A has only \$425 not set aside")
    g.apply(Bid("A", "BO", 425))
    assert cash(g) == dict.fromkeys(ABCD, 600)  # bids take no money yet


def test_money_set_aside_on_two_bids_leaves_only_the_pass() -> None:
    """A has all his $600 on CA ($165) and BO ($435): he cannot buy SV, raise either bid
    (18xx.games: max bid = cash - committed + his bid on that private), or bid elsewhere."""
    g = new()
    run(g, Bid("A", "CA", 165), Pass("B"), Pass("C"), Pass("D"), Bid("A", "BO", 435))
    run(g, Pass("B"), Pass("C"), Pass("D"))
    assert g.legal_actions() == [Pass("A")]
    refused(g, Bid("A", "SV", 20), r"A has only \$0 not set aside")
    refused(g, Bid("A", "CA", 170), r"A has only \$165 not set aside")
    refused(g, Bid("A", "BO", 440), r"A has only \$435 not set aside")
    refused(g, Bid("A", "CS", 45), r"A has only \$0 not set aside")
    g.apply(Pass("A"))
    assert g.acting() == "B"


def test_a_bid_of_exactly_the_free_money() -> None:
    """A player may bid exactly what is not set aside (the corpus: once)."""
    g = new(["A", "B", "C", "D", "E", "F"])  # $400 each
    g.apply(Bid("A", "MH", 150))
    run(g, *(Pass(p) for p in "BCDEF"))
    refused(g, Bid("A", "BO", 251), r"A has only \$250 not set aside")
    g.apply(Bid("A", "BO", 250))
    assert g.state.round.bids == {"MH": [["A", 150]], "BO": [["A", 250]]}


@pytest.mark.parametrize("money", [0, 19])
def test_a_player_short_of_money_may_only_pass(money: int) -> None:
    g = new()
    set_cash(g, A=money)
    assert g.legal_actions() == [Pass("A")]
    refused(g, Bid("A", "SV", 20), rf"A has only \${money} not set aside")
    refused(g, Bid("A", "CS", 45), rf"A has only \${money} not set aside")
    g.apply(Pass("A"))
    assert g.acting() == "B"


def test_a_player_with_less_than_face_plus_five_may_buy_but_not_bid() -> None:
    g = new()
    set_cash(g, A=44)
    assert g.legal_actions() == [Bid("A", "SV", 20), Pass("A")]
    refused(g, Bid("A", "CS", 45), r"A has only \$44 not set aside")
    set_cash(g, A=45)
    assert g.legal_actions() == [Bid("A", "SV", 20), Bid("A", "CS", 45), Pass("A")]


def test_a_player_with_exactly_the_price_may_buy() -> None:
    g = new()
    set_cash(g, A=20)
    assert g.legal_actions() == [Bid("A", "SV", 20), Pass("A")]
    g.apply(Bid("A", "SV", 20))
    assert cash(g)["A"] == 0 and owners(g)["SV"] == "A"
    assert g.acting() == "B"


# -- the purchase of the cheapest and what it sets off ------------------------------------


def test_one_purchase_sells_a_run_of_single_bids() -> None:
    """D buys SV: CS, DH and MH each have one bid and go to their bidders at once; CA (no
    bid) is then the cheapest and A, after D, has the normal turn."""
    g = new()
    run(g, Bid("A", "CS", 45), Bid("B", "DH", 80), Bid("C", "MH", 115), Bid("D", "SV", 20))
    assert owners(g) == {"SV": "D", "CS": "A", "DH": "B", "MH": "C", "CA": None, "BO": None}
    assert cash(g) == {"A": 555, "B": 520, "C": 485, "D": 580}
    assert g.state.round.bids == {}
    assert g.acting() == "A"
    refused(g, Bid("A", "CA", 165), r"the cheapest private CA is bought at \$160")
    refused(g, Bid("A", "BO", 220), r"a bid on BO must be at least \$225")


def test_the_run_stops_at_a_private_without_bids() -> None:
    """Bids on CS and MH: SV's purchase sells CS; DH has no bid, so MH waits."""
    g = new()
    run(g, Bid("A", "CS", 45), Bid("B", "MH", 115), Bid("C", "SV", 20))
    assert owners(g)["CS"] == "A" and owners(g)["MH"] is None
    assert g.state.round.bids == {"MH": [["B", 115]]}
    assert g.acting() == "D"
    g.apply(Bid("D", "DH", 70))  # now MH goes to B
    assert owners(g)["MH"] == "B" and cash(g)["B"] == 485
    assert g.acting() == "A"


# -- bid-offs as 18xx.games settles them (the import's reading) ----------------------------


def test_bidoff_the_lowest_bidder_acts_and_the_best_may_not() -> None:
    """Three bidders on CA (A 165, B 170, C 180): the lowest acts each time; a raise
    makes the raiser the best, a pass withdraws the bid."""
    g = new()
    run(g, Bid("A", "CA", 165), Bid("B", "CA", 170), Bid("C", "CA", 180))
    run(g, Bid("D", "SV", 20), Bid("A", "CS", 40), Bid("B", "DH", 70), Bid("C", "MH", 110))
    assert g.state.round.bidoff == "CA" and g.acting() == "A"
    refused(g, Bid("C", "CA", 200), "not C's turn: A is to act")
    refused(g, Bid("A", "CA", 184), r"a bid on CA must be at least \$185")
    refused(g, Bid("A", "BO", 225), "the auction is for CA: bid on it or pass")
    g.apply(Bid("A", "CA", 185))
    assert g.acting() == "B"  # now the lowest ($170)
    g.apply(Pass("B"))
    assert g.state.round.bids["CA"] == [["C", 180], ["A", 185]]
    assert g.acting() == "C"
    g.apply(Bid("C", "CA", 190))
    assert g.acting() == "A"
    g.apply(Pass("A"))
    assert owners(g)["CA"] == "C" and g.state.certs["PRR_1"] == "C"
    assert cash(g) == {"A": 560, "B": 530, "C": 600 - 110 - 190, "D": 580}
    assert g.acting() == "D"  # the normal turn after C's purchase of MH
    assert g.state.round.bidoff is None


def test_bidoff_a_lowest_bidder_without_free_money_may_only_withdraw() -> None:
    """A's $600 is all set aside (CA $165, BO $435); in CA's bid-off he cannot raise. His
    pass sells CA to B, and BO, with A's single bid, goes to A at once: A sets the par."""
    g = new()
    run(g, Bid("A", "CA", 165), Bid("B", "CA", 170), Pass("C"), Pass("D"))
    run(g, Bid("A", "BO", 435), Bid("B", "SV", 20), Bid("C", "CS", 40), Bid("D", "DH", 70))
    run(g, Pass("A"), Bid("B", "MH", 110))
    assert g.state.round.bidoff == "CA" and g.acting() == "A"
    assert g.legal_actions() == [Pass("A")]
    refused(g, Bid("A", "CA", 175), r"A has only \$165 not set aside")
    g.apply(Pass("A"))
    assert owners(g) == {"SV": "B", "CS": "C", "DH": "D", "MH": "B", "CA": "B", "BO": "A"}
    assert g.acting() == "A"
    assert g.legal_actions() == [Par("A", "B&O", p) for p in (100, 90, 82, 76, 71, 67)]
    g.apply(Par("A", "B&O", 67))
    assert cash(g) == {"A": 165, "B": 300, "C": 560, "D": 530}
    assert g.state.round.kind == "stock"
    assert g.acting() == "C"  # the normal turn after B's purchase of MH


def test_bidoff_raise_is_capped_by_money_set_aside_on_a_later_private() -> None:
    """The corpus has 36 bid-off bids by a player with a bid elsewhere: the cap is cash
    less the other bids (his bid on the private auctioned counts as free)."""
    g = new()
    run(g, Bid("A", "CA", 165), Bid("B", "CA", 170), Bid("C", "BO", 225), Bid("D", "SV", 20))
    run(g, Bid("A", "BO", 300), Bid("B", "CS", 40), Bid("C", "DH", 70), Bid("D", "MH", 110))
    assert g.state.round.bidoff == "CA" and g.acting() == "A"
    assert max(a.price for a in g.legal_actions() if isinstance(a, Bid)) == 300
    refused(g, Bid("A", "CA", 305), r"A has only \$300 not set aside")
    g.apply(Bid("A", "CA", 300))
    g.apply(Pass("B"))
    assert owners(g)["CA"] == "A" and cash(g)["A"] == 300
    # BO: C $225 (lowest) against A $300, who now has nothing free to raise with
    assert g.state.round.bidoff == "BO" and g.acting() == "C"
    g.apply(Bid("C", "BO", 305))
    assert g.acting() == "A" and g.legal_actions() == [Pass("A")]
    g.apply(Pass("A"))
    assert owners(g)["BO"] == "C" and g.acting() == "C"
    g.apply(Par("C", "B&O", 90))
    assert cash(g) == {"A": 300, "B": 560, "C": 600 - 70 - 305, "D": 470}
    assert g.acting() == "A"  # the normal turn after D's purchase of MH


# -- bid-offs as the seed settles them (the default) --------------------------------------


def test_seed_bidoff_goes_round_from_the_left_of_the_best_bidder() -> None:
    """CA: A 165, C 170, B 175 (best).  From B's left: C, then A (D has no bid); a bidder
    who passed may bid again after a raise; his bid stays set aside meanwhile; the best
    bidder takes it once every other bidder has passed since the last raise."""
    g = seed()
    run(g, Bid("A", "CA", 165), Bid("B", "CA", 170), Bid("C", "CA", 175))
    # (re-bid) B over his own lower bid: best is now B
    run(g, Bid("D", "SV", 20), Bid("A", "CS", 40), Bid("B", "CA", 180))
    assert g.state.round.bids == {"CA": [["A", 165], ["C", 175], ["B", 180]]}
    run(g, Bid("C", "DH", 70), Bid("D", "MH", 110))
    assert g.state.round.bidoff == "CA" and g.acting() == "C"
    g.apply(Pass("C"))
    assert g.acting() == "A"
    assert g.state.round.bids["CA"] == [["A", 165], ["C", 175], ["B", 180]]  # C's stays
    g.apply(Bid("A", "CA", 185))
    assert g.acting() == "B"  # next after A, skipping the best (A)
    g.apply(Pass("B"))
    assert g.acting() == "C"
    refused(g, Bid("C", "CA", 189), r"at least \$190")
    g.apply(Bid("C", "CA", 190))  # C passed before: he may bid again
    assert g.acting() == "A"
    g.apply(Pass("A"))
    assert g.acting() == "B"
    g.apply(Pass("B"))
    assert owners(g)["CA"] == "C" and g.state.certs["PRR_1"] == "C"
    assert cash(g) == {"A": 560, "B": 600, "C": 600 - 70 - 190, "D": 470}
    assert g.state.round.bids == {} and g.acting() == "A"


def test_seed_bidoff_of_two_the_other_bidder_acts_first() -> None:
    g = seed(["A", "B", "C"])
    run(g, Bid("A", "BO", 225), Bid("B", "BO", 300))
    run(g, Bid("C", "SV", 20), Bid("A", "CS", 40), Bid("B", "DH", 70), Bid("C", "MH", 110))
    g.apply(Bid("A", "CA", 160))
    assert g.state.round.bidoff == "BO" and g.acting() == "A"
    g.apply(Pass("A"))
    assert owners(g)["BO"] == "B" and g.acting() == "B"
    g.apply(Par("B", "B&O", 76))
    assert cash(g) == {"A": 800 - 40 - 160, "B": 800 - 70 - 300, "C": 800 - 20 - 110}
    assert g.state.round.kind == "stock"
    assert g.acting() == "C"  # seed: the left of the last buyer (B)


# -- everybody passes -------------------------------------------------------------------


def test_only_a_full_round_of_passes_drops_sv() -> None:
    """A bid restarts the count (18xx.games: the bidder is no longer passed); SV drops
    only after every player has passed since."""
    g = new(["A", "B", "C"])
    run(g, Pass("A"), Pass("B"), Bid("C", "CA", 165), Pass("A"), Pass("B"))
    assert sv_price(g) == 20 and g.acting() == "C"
    g.apply(Pass("C"))
    assert g.acting() == "A" and sv_price(g) == 15
    assert g.state.round.bids == {"CA": [["C", 165]]}  # bids stand
    refused(g, Bid("A", "CA", 165), r"at least \$170")


def test_six_players_pass_sv_down_to_zero_and_the_next_must_take_it() -> None:
    names = [f"P{i}" for i in range(1, 7)]
    g = new(names)
    g.apply(Bid("P1", "CS", 45))
    for price in (20, 15, 10, 5):
        for name in [*names[1:], names[0]]:
            assert sv_price(g) == price
            g.apply(Pass(name))
    assert g.acting() == "P2" and g.legal_actions() == [Bid("P2", "SV", 0)]
    refused(g, Pass("P2"), r"SV costs \$0: P2 must take it")
    refused(g, Bid("P2", "DH", 75), r"SV costs \$0: P2 must take it")
    g.apply(Bid("P2", "SV", 0))
    assert owners(g)["SV"] == "P2" and owners(g)["CS"] == "P1"
    assert cash(g) == {**dict.fromkeys(names, 400), "P1": 355}
    assert g.acting() == "P3"


def test_everybody_passes_after_sales_every_owned_private_pays() -> None:
    """18xx.games runs payout_companies: each owned private pays its owner (bids earn
    nothing); then the count starts again, and a second round of passes pays again."""
    g = new(["A", "B", "C"])
    run(g, Bid("A", "SV", 20), Bid("B", "CS", 40), Bid("C", "DH", 70), Bid("A", "CA", 170))
    bank = g.state.bank
    run(g, Pass("B"), Pass("C"))
    assert cash(g) == {"A": 780, "B": 760, "C": 730}
    g.apply(Pass("A"))
    assert cash(g) == {"A": 785, "B": 770, "C": 745}
    assert g.state.bank == bank - 30
    assert g.acting() == "B" and g.state.round.bids == {"CA": [["A", 170]]}
    run(g, Pass("B"), Pass("C"), Bid("A", "BO", 225), Pass("B"), Pass("C"))
    assert g.state.bank == bank - 30  # A's bid broke the round
    g.apply(Pass("A"))
    assert cash(g) == {"A": 790, "B": 780, "C": 760}
    assert g.acting() == "B"


def test_sv_bought_after_a_drop_pays_its_full_revenue() -> None:
    g = new(["A", "B"])
    run(g, Pass("A"), Pass("B"), Bid("A", "SV", 15), Pass("B"), Pass("A"))
    assert cash(g) == {"A": 1200 - 15 + 5, "B": 1200}
    assert g.acting() == "B" and Bid("B", "CS", 40) in g.legal_actions()


# -- the privates that grant shares -----------------------------------------------------


@pytest.mark.parametrize("par", [100, 90, 82, 76, 71, 67])
def test_the_bo_buyer_sets_par_at_once_even_without_money(par: int) -> None:
    """Any of the six par prices, whatever the buyer's cash (the share is free; the
    corpus: 19 buyers with less than twice the par, one with $13).  Nobody else acts and
    nothing else is accepted until the par is set."""
    g = new()
    run(g, Bid("A", "SV", 20), Bid("B", "CS", 40), Bid("C", "DH", 70), Bid("D", "MH", 110))
    run(g, Bid("A", "CA", 160))
    set_cash(g, B=220)
    g.apply(Bid("B", "BO", 220))
    assert cash(g)["B"] == 0 and g.acting() == "B"
    assert g.state.certs["B&O_0"] == "B" and g.state.corporations["B&O"].par is None
    refused(g, Pass("B"), "pass is not possible now: the par step expects par")
    refused(g, Bid("C", "BO", 225), "bid is not possible now: the par step expects par")
    refused(g, Par("C", "B&O", par), "not C's turn: B is to act")
    refused(g, Par("B", "B&O", 75), r"\$75 is not a par price")
    refused(g, Par("B", "NYC", par), "B must set the par price of B&O")
    g.apply(Par("B", "B&O", par))
    bo = g.state.corporations["B&O"]
    assert bo.par == par and bo.cell == PAR_CELLS[par] and bo.president == "B"
    assert not bo.floated and cash(g)["B"] == 0
    assert g.state.round.kind == "stock" and g.acting() == "C"


def test_the_ca_buyer_gets_prr_1_and_prr_stays_unstarted() -> None:
    g = new()
    run(g, Bid("A", "SV", 20), Bid("B", "CS", 40), Bid("C", "DH", 70), Bid("D", "MH", 110))
    g.apply(Bid("A", "CA", 160))
    prr = g.state.corporations["PRR"]
    assert g.state.certs["PRR_1"] == "A" and g.state.certs["PRR_0"] == "ipo"
    assert prr.par is None and prr.president is None and prr.cell is None
    assert cash(g)["A"] == 600 - 20 - 160 and g.acting() == "B"


# -- the end of the auction and the priority deal ------------------------------------------


def bo_to_its_single_bidder(g: Game) -> None:
    """A bids on BO; the others go at face; B's purchase of CA sells BO to A at once."""
    run(g, Bid("A", "BO", 225), Bid("B", "SV", 20), Bid("C", "CS", 40), Bid("D", "DH", 70))
    run(g, Bid("A", "MH", 110), Bid("B", "CA", 160))
    assert owners(g)["BO"] == "A" and g.acting() == "A"
    g.apply(Par("A", "B&O", 82))
    assert cash(g) == {"A": 600 - 225 - 110, "B": 420, "C": 560, "D": 530}
    assert g.state.round.kind == "stock"


def test_priority_after_a_last_sale_set_off_by_another_purchase_18xx() -> None:
    """18xx.games (reorder_players :after_last_to_act): the player whose normal turn
    comes next, C after B's purchase of CA."""
    g = new()
    bo_to_its_single_bidder(g)
    assert g.acting() == "C" and g.state.priority == 2


def test_priority_after_a_last_sale_set_off_by_another_purchase_seed() -> None:
    """The seed: the player to the left of the last buyer, B after A (who got BO)."""
    g = seed()
    bo_to_its_single_bidder(g)
    assert g.acting() == "B" and g.state.priority == 1


# -- imports from 18xx.games -----------------------------------------------------------


def imported(res: ImportResult) -> Game:
    """The game of an import that replayed its whole log (no divergence)."""
    assert res.divergence is None, res.divergence
    return res.game


def bid(entity: int, company: str, price: int) -> dict[str, Any]:
    return {"type": "bid", "entity": entity, "company": company, "price": price}


def test_import_sv_taken_at_zero_sets_off_a_bidoff() -> None:
    """Both bid on CS, then eight passes bring SV to $0: 18xx.games gives it to Player 1
    (after the last passer) without an action and auctions CS at once; Player 1, the
    lowest, withdraws.  The normal turn is then Player 2's."""
    passes = [{"type": "pass", "entity": 1 + i % 2} for i in range(8)]
    actions = [
        bid(1, "CS", 45),
        bid(2, "CS", 50),
        *passes,
        {"type": "pass", "entity": 1},  # the bid-off
        bid(2, "DH", 70),
        bid(1, "MH", 110),
        bid(2, "CA", 160),
        bid(1, "BO", 220),
        {"type": "par", "entity": 1, "corporation": "B&O", "share_price": "90,1,6"},
    ]
    g = imported(import_game(made_export(actions)))
    assert owners(g) == {
        "SV": "Player 1",
        "CS": "Player 2",
        "DH": "Player 2",
        "MH": "Player 1",
        "CA": "Player 2",
        "BO": "Player 1",
    }
    assert cash(g) == {"Player 1": 1200 - 110 - 220, "Player 2": 1200 - 50 - 70 - 160}
    assert g.state.corporations["B&O"].cell == [1, 6]
    assert g.state.round.kind == "stock" and g.acting() == "Player 2"


def test_import_corpus_two_payouts_in_the_auction() -> None:
    """g2p_s2002: Player 1 buys SV, then two full rounds of passes pay SV twice; the
    auction ends with Player 2's BO bid-off win, the priority to Player 1 (after Player
    2's purchase of CA in a normal turn)."""
    g = imported(at(corpus_export("g2p_s2002"), 17))
    assert cash(g) == {"Player 1": 1200 - 20 + 5 + 5 - 110, "Player 2": 1200 - 40 - 85 - 160 - 240}
    assert g.state.corporations["B&O"].par == 76
    assert g.state.round.kind == "stock" and g.acting() == "Player 1"


def test_import_corpus_sv_bought_after_one_drop() -> None:
    """g2p_s2003: both pass with only BO bids standing: SV drops to $15 and is bought."""
    g = imported(at(corpus_export("g2p_s2003"), 7))
    assert owners(g)["SV"] == "Player 1" and cash(g)["Player 1"] == 1185
    assert g.state.round.bids == {"BO": [["Player 1", 240], ["Player 2", 245]]}


def test_import_sv_at_zero_sells_every_bid_private_and_ends_the_auction() -> None:
    """Every later private has one bid; eight passes (Player 2 first) bring SV to $0:
    Player 2, after the last passer, gets it and every other private goes to its bidder
    in the same moment.  Player 1 sets B&O's par; the priority is Player 1's, whose normal
    turn comes after Player 2's (18xx.games: the pass's next_entity_index! after
    all_passed!), and he starts stock round 1 with a pass."""
    actions = [
        bid(1, "CS", 45),
        bid(2, "DH", 75),
        bid(1, "MH", 115),
        bid(2, "CA", 165),
        bid(1, "BO", 225),
        *({"type": "pass", "entity": 2 - i % 2} for i in range(8)),
        {"type": "par", "entity": 1, "corporation": "B&O", "share_price": "71,4,6"},
        {"type": "pass", "entity": 1},
    ]
    g = imported(import_game(made_export(actions)))
    assert owners(g) == {
        "SV": "Player 2",
        "CS": "Player 1",
        "DH": "Player 2",
        "MH": "Player 1",
        "CA": "Player 2",
        "BO": "Player 1",
    }
    assert cash(g) == {"Player 1": 1200 - 45 - 115 - 225, "Player 2": 1200 - 75 - 165}
    assert g.state.corporations["B&O"].cell == [4, 6]
    assert g.state.round.kind == "stock" and g.acting() == "Player 2"


def test_import_reports_a_bid_18xx_games_refuses() -> None:
    """A bid on a later private at its face while SV is unsold: a divergence at that
    action, nothing applied from it on."""
    res = import_game(made_export([bid(1, "CA", 160), bid(2, "SV", 20)]))
    assert res.divergence is not None
    assert "a bid on CA must be at least $165" in str(res.divergence)
    assert res.applied == 0 and res.game.state.round.bids == {}


def test_import_the_real_game_auction() -> None:
    """29133 (4 players): CS and CA go in bid-offs (the lowest bidder acting), BO at face
    in a normal turn after two passes; Player 3 follows Player 2 and has the priority."""
    g = imported(at(corpus_export("29133"), 23))
    assert owners(g) == {
        "SV": "Player 3",
        "CS": "Player 4",
        "DH": "Player 1",
        "MH": "Player 3",
        "CA": "Player 1",
        "BO": "Player 2",
    }
    assert cash(g) == {"Player 1": 300, "Player 2": 380, "Player 3": 465, "Player 4": 545}
    assert g.state.certs["PRR_1"] == "Player 1" and g.state.corporations["B&O"].par == 100
    assert g.state.round.kind == "stock" and g.acting() == "Player 3"
