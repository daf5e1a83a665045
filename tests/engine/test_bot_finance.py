"""The greedy bot's money sense: the dividend it pays (saving for a train, clear of the
closing cells), the track and stations that wait for a compulsory train, and the privates
it sells to its corporation; and the engine's preview of a dividend's price move that the
bot reads (``finance.cell_after_dividend``), against the move itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ne_scenario import PLAYERS as NE_PLAYERS
from ne_scenario import auction, new_game, set_cash
from scenario import pass_round, second_stock_round
from test_1833ne_example import play_to_step_12

from eighteen import Game, load_title
from eighteen.engine import finance, market, trains
from eighteen.engine.actions import Bid, Dividend, LayTile, Par, Pass, RunRoutes
from eighteen.engine.bots import GreedyBot, Personality, cheapest_train, make_bots, play
from eighteen.engine.tables import MarketCell, Tables

ROOT = Path(__file__).resolve().parents[2]


def _at_dividend(g: Game) -> str:
    """Pass (or take the first forced action) until a corporation is to pay its dividend."""
    while g.state.round.kind != "operating" or g.state.round.step != "dividend":
        acts = g.legal_actions()
        passes = [a for a in acts if isinstance(a, Pass)]
        g.apply(passes[0] if passes else acts[0])
    corp = g.acting()
    assert corp is not None
    return corp


def _choice(g: Game, corp: str, bot: GreedyBot | None = None) -> str:
    bot = bot or GreedyBot(0)
    best = max(g.legal_actions(), key=lambda a: bot.score(g, a))
    assert isinstance(best, Dividend) and best.actor == corp
    return best.kind


def test_1833ne_seed_step_12_pays_out_as_the_seed() -> None:
    """Seed 003, step 12: B&W ($180, price $70, two 2+1 trains, A 40%, four shares in its
    treasury) runs $100.  Pay-out: A $40, B&W $40 for its treasury shares, at least the
    price: one cell right ($80); half: $50 kept, $50 paid (B&W $20), under the price: it
    stays; withhold: one cell left ($60).  The cheapest train on sale (2+2, $140) is within
    B&W's $180: no saving, so the $ kept weigh A's 40%.  A's values: 40 + 4 x 10 + 0.4 x 40
    = 96; 20 + 0.4 x 70 = 48; -40 + 0.4 x 100 = 0.  It pays out, as the seed does."""
    g = new_game()
    play_to_step_12(g)
    (run,) = [a for a in g.legal_actions() if isinstance(a, RunRoutes)]
    g.apply(run)
    bot = GreedyBot(0)
    assert bot.saving(g, "B&W", 100) is False
    assert bot.dividend_values(g, "B&W") == pytest.approx(
        {"payout": 96.0, "half": 48.0, "withhold": 0.0}
    )
    assert _choice(g, "B&W") == "payout"

    # with $50 B&W saves ($50 < $140 <= $50 + 3 x $100): the $ kept weigh 0.4 x 3 = 1.2;
    # its own shares' $40 of a pay-out still make paying out best: 40 + 40 + 48 = 128,
    # 20 + 84 = 104, -40 + 120 = 80
    set_cash(g, "B&W", 50)
    assert bot.saving(g, "B&W", 100) is True
    assert bot.dividend_values(g, "B&W") == pytest.approx(
        {"payout": 128.0, "half": 104.0, "withhold": 80.0}
    )
    # a bold president (risk 0.9) weighs them 0.4 x 3.4 = 1.36: 134.4, 115.2, 96
    bold = GreedyBot(0, Personality(risk=0.9))
    assert bold.dividend_values(g, "B&W") == pytest.approx(
        {"payout": 134.4, "half": 115.2, "withhold": 96.0}
    )


def test_1833ne_never_closes_by_choice_and_fears_the_last_drops() -> None:
    """B&W at $20, two drops above the closing $0 cell: withholding lands on $10, one drop
    above it, and costs A all of his shares' worth there (4 x $10); paying out $100
    (five times the price) moves two cells right to $40 (the three-cell row needs $165),
    four drops above closing: no fear there."""
    g = new_game()
    play_to_step_12(g)
    (run,) = [a for a in g.legal_actions() if isinstance(a, RunRoutes)]
    g.apply(run)
    market.place(g, "B&W", next((c.row, c.col) for c in _cells(g) if c.price == 20))
    g.invalidate_caches()
    assert finance.fall_room(g, finance.cell_after_dividend(g, "B&W", 0, True) or _no()) == 1
    values = GreedyBot(0).dividend_values(g, "B&W")
    # pay-out: 40 + 4 x (40 - 20) + 0.4 x 40 - 4 x 40 x (4 - 4) / 3 = 136 (room 4 at $40)
    # half: $50 paid, ratio 2.5: two cells right, $40: 20 + 80 + 0.4 x 70 = 128
    # withhold: ratio 0, one left to $10 (room 1): -40 + 40 - 40 = -40
    assert values == pytest.approx({"payout": 136.0, "half": 128.0, "withhold": -40.0})
    market.place(g, "B&W", next((c.row, c.col) for c in _cells(g) if c.price == 10))
    g.invalidate_caches()  # (the bot's values are kept for a position until it changes)
    assert GreedyBot(0).dividend_values(g, "B&W")["withhold"] == -1e6  # it would close


def _cells(g: Game) -> list[MarketCell]:
    """Every cell of the title's market."""
    grid = g.tables.doc.market.cells
    return [g.tables.cell((r, c)) for r, row in enumerate(grid) for c, x in enumerate(row) if x]


def _no() -> MarketCell:
    raise AssertionError("no cell")


def test_1830_withholds_to_save_for_a_train_and_pays_out_otherwise() -> None:
    """1830, operating round 2: B&M (price $90, C 30%, one 2-train, room for four) runs
    $40.  Pay-out: one cell right ($100), withhold: one left ($82).  With its $920 it
    saves for nothing: 12 + 3 x 10 = 42 against 12 - 3 x 8 = -12.  With $50 and a $200
    run it saves for a 2-train ($50 < $80 <= $50 + 3 x $200): the $ kept weigh 0.3 x 3:
    0.3 x 200 + 30 = 90 against 0.9 x 200 - 24 = 156, and it withholds."""
    g = second_stock_round()
    pass_round(g)
    assert _at_dividend(g) == "B&M"
    bot = GreedyBot(0)
    assert bot.dividend_values(g, "B&M") == pytest.approx({"payout": 42.0, "withhold": -12.0})
    assert _choice(g, "B&M") == "payout"
    set_cash(g, "B&M", 50)
    g.state.round.revenue = 200
    g.invalidate_caches()
    assert bot.dividend_values(g, "B&M") == pytest.approx({"payout": 90.0, "withhold": 156.0})
    assert _choice(g, "B&M") == "withhold"
    # a cautious president (risk 0.1) weighs them 0.3 x 2.6 = 0.78: 156 - 24 = 132
    cautious = GreedyBot(0, Personality(risk=0.1))
    assert cautious.dividend_values(g, "B&M")["withhold"] == pytest.approx(132.0)


def test_fall_room_counts_the_drops_to_a_closing_cell() -> None:
    """1833NE's market closes at $0: from $40 four drops; 1830's closes nowhere (the most
    counted, 8)."""
    g = new_game()
    cells = {c.price: c for c in _cells(g)}
    assert [finance.fall_room(g, cells[p]) for p in (0, 10, 40, 80, 100)] == [0, 1, 4, 8, 8]
    g30 = Game.new(load_title("1830"), ["A", "B"])
    assert {finance.fall_room(g30, c) for c in _cells(g30)} == {8}


@pytest.mark.parametrize("title", ["1830", "1833ne"])
def test_the_preview_of_a_dividend_is_the_move_it_makes(title: str) -> None:
    """At every dividend of two greedy games, each kind's previewed cell is the cell the
    price moves to when that kind is paid (on a copy of the game)."""
    players = NE_PLAYERS
    checked = 0
    for seed in (1, 2):
        g = Game.new(load_title(title), players, seed=seed)
        for _ in play(g, make_bots("greedy", players, seed)):
            if g.state.round.kind != "operating" or g.state.round.step != "dividend":
                continue
            corp = g.acting()
            if corp is None or corp not in g.state.corporations:
                continue
            revenue = g.state.round.revenue or 0
            for a in g.legal_actions():
                if not isinstance(a, Dividend):
                    continue  # (a private bought from the president, at any step)
                paid = {"payout": revenue, "withhold": 0}.get(a.kind)
                if paid is None:
                    paid = finance.half_split(g, revenue)[1]
                want = finance.cell_after_dividend(g, corp, paid, a.kind == "withhold")
                after = g.clone()
                after.apply(a)
                assert want is not None and market.cell(after, corp) == want, (seed, a)
                checked += 1
    assert checked > 100


def test_track_and_stations_wait_for_a_compulsory_train() -> None:
    """1833NE: A starts Hartford at $40 ($80 in its treasury, no train; a corporation must
    own one and the 2-train costs $75).  Every lay costs at least the turn's $20 fee and
    would leave less than $75: the lays score below a pass (-0.2).  With $200 they score
    as lays again; a station is judged alike (`keeps_for_train` with its cost)."""
    g = new_game()
    auction(g)
    g.apply(Par("A", "HR", 40))
    while g.state.round.kind != "operating":
        g.apply(Pass(g.acting() or ""))
    while g.acting() != "HR" or g.state.round.step != "track":
        acts = g.legal_actions()
        passes = [a for a in acts if isinstance(a, Pass)]
        g.apply(passes[0] if passes else acts[0])
    bot = GreedyBot(0)
    lays = [a for a in g.legal_actions() if isinstance(a, LayTile)]
    assert lays and g.state.corporations["HR"].cash == 80
    assert min(bot.lay_cost(g, a) for a in lays) == 20
    assert {bot.score(g, a) for a in lays} == {-0.2}
    set_cash(g, "HR", 200)
    assert all(bot.score(g, a) > 0 for a in lays if bot.lay_cost(g, a) == 20)
    assert not bot.keeps_for_train(g, "HR", 125)  # $75 left: the 2-train's price
    assert bot.keeps_for_train(g, "HR", 126)

    # with a train of its own, a $20 lay (the turn's fee) waits only for the quarter rule:
    # 4 x $20 against (1 + 0.5) x the treasury: laid with $60, not with $53
    card = g.state.depot[0]
    g.state.depot.remove(card)
    g.state.corporations["HR"].trains.append(card)
    plain = [a for a in lays if bot.lay_cost(g, a) == 20]
    set_cash(g, "HR", 60)
    assert plain and all(bot.score(g, a) > 2 for a in plain)
    set_cash(g, "HR", 53)
    assert {bot.score(g, a) for a in plain} == {-0.2}
    assert not bot.keeps_for_train(g, "HR", 20)


def test_privates_worth_more_in_a_corporation() -> None:
    """1833NE: P1 closes in phase III, when the privates players own close anyway (it
    closes there for a corporation too, but a player's P1 closes no later: still sold);
    P3 blocks C4 and C6 while a player owns it and lays its tiles for a corporation; P6
    gives a corporation a station at A12; P5 doubles a ferry.  1830: every private blocks
    its hex while a player owns it (it matters only where a corporation may pay no more
    than face value, which 1830 does not cap).  Without its block, P1 is still worth
    more in a corporation for phase III's closing; without that event too, it is not."""
    bot = GreedyBot(0)
    g = new_game()
    assert [bot.better_in_corporation(g, p) for p in ("P1", "P3", "P5", "P6")] == [True] * 4
    g30 = Game.new(load_title("1830"), ["A", "B"])
    assert bot.better_in_corporation(g30, "SV") is True
    doc = json.loads((ROOT / "generated" / "1833ne.json").read_text())
    p1 = next(p for p in doc["privates"] if p["id"] == "P1")
    p1["abilities"] = []
    assert bot.better_in_corporation(Game.new(Tables(doc), NE_PLAYERS), "P1") is True
    for phase in doc["phases"]:
        phase["events"] = []
    assert bot.better_in_corporation(Game.new(Tables(doc), NE_PLAYERS), "P1") is False


def test_a_private_granting_a_share_is_bid_for_up_to_its_worth() -> None:
    """1830's B&O grants its president's certificate (20%), C&A a PRR share (10%); the
    middle of the par prices $67-$100 is $82.  A bot of neutral taste counts B&O worth
    $220 + 2 x $82 = $384 and C&A $160 + $82 = $242; the other privates their face.  So
    the first bidder's best is B&O at the lowest raise ($225: $159 left of its worth), not
    SV at face ($20: nothing left); and no bid above the worth."""
    g = Game.new(load_title("1830"), ["A", "B", "C", "D"])
    bot = GreedyBot(0)
    bot._taste = {"BO": 1.0, "CA": 1.0}
    worth = {p: bot.private_worth(g, p) for p in ("SV", "CS", "DH", "MH", "CA", "BO")}
    assert worth == {"SV": 20, "CS": 40, "DH": 70, "MH": 110, "CA": 242, "BO": 384}
    bids = [a for a in g.legal_actions() if isinstance(a, Bid)]
    best = max(bids, key=lambda a: bot.score(g, a))
    assert (best.private, best.price) == ("BO", 225)
    assert bot.score(g, best) == pytest.approx(5.159)
    assert bot.score(g, Bid("A", "SV", 20)) == 5.0
    assert bot.score(g, Bid("A", "BO", 600)) == -1.0


def test_equal_greedy_bots_leave_b_and_o_to_any_seat() -> None:
    """Every greedy bot bought the cheapest private at face value: in 4-player 1830 the
    second seat got B&O in every game (and won 38 of 60).  Each bot's taste for a granted
    share differs (within a fifth): over seeds 1-20, B&O's buyer sits in every seat."""
    names = ["A", "B", "C", "D"]
    owners: dict[str, int] = {}
    for seed in range(1, 21):
        g = Game.new(load_title("1830"), names, seed=seed)
        for _ in play(g, make_bots("greedy", names, seed)):
            if g.state.round.kind != "auction":
                break
        owner = g.state.privates["BO"].owner or ""
        owners[owner] = owners.get(owner, 0) + 1
    assert sorted(owners.items()) == [("A", 6), ("B", 3), ("C", 5), ("D", 6)]


def test_phased_out_trains_are_no_train_kept_whether_they_count_for_the_limit() -> None:
    """1833NE, four greedy bots, seed 1: A&StL comes to its track step with $130 and only
    phased-out 2-trains (2-5, 2-6), which leave after its run; a $20 lay would leave $110,
    short of the cheapest train.  It keeps the money whether or not the title counts
    phased-out trains toward the limit (counted, they read as a train kept)."""
    names = ["A", "B", "C", "D"]
    g = Game.new(load_title("1833ne"), names, seed=1)
    players = make_bots("greedy", names, 1)
    bot = GreedyBot(0)
    while True:
        actor = g.acting() or ""
        corp = g.state.corporations.get(actor)
        at_track = g.state.round.kind == "operating" and g.state.round.step == "track"
        if at_track and corp and corp.trains and all(trains.is_obsolete(g, t) for t in corp.trains):
            break
        owner = (corp.president or actor) if corp else actor
        g.apply(players[owner].choose(g))
    assert (actor, corp.cash, corp.trains) == ("A&StL", 130, ["2-5", "2-6"])
    assert cheapest_train(g) > 110
    assert bot.keeps_for_train(g, "A&StL", 20) is True
    object.__setattr__(g.rules, "obsolete_trains_count_for_limit", True)
    try:
        assert trains.counted(g, "A&StL") == ["2-5", "2-6"]
        assert bot.keeps_for_train(g, "A&StL", 20) is True
    finally:
        object.__setattr__(g.rules, "obsolete_trains_count_for_limit", False)
