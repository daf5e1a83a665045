"""Randomized whole 1833NE games: bots play 3-, 4- and 5-player games to the end with the
invariants of test_random_games checked after every action (money conserved with treasury
shares and the bank reserve, certificates, train limits without phased-out trains), legal
actions accepted, rejected actions leaving no trace, undo and save round trips exact.

A game ends by the rules' two ends (seed 003, "終了": the bank runs out, or one player is
left) or, where the seed is silent, when no corporation is left to run
(rules.no_corporation_left_ends_game, an assumption of the title): at once when every
corporation has closed (as on 18xx.games), and at the end of a stock round in which none
is running, no private is left and no player could start one (random play gets there: the
players' cash can never grow again), or in which every corporation left waits for a phase
(no train can be bought to bring it). A title without that end is stuck there instead: not
over, no action possible (rules.stall_ends_game = false)."""

from __future__ import annotations

import json
import random

import pytest
from ne_scenario import auction
from scenario import strand_everyone
from test_random_games import play_checked

import eighteen
from eighteen.engine import finance, market, phases, shares
from eighteen.engine.actions import IllegalAction, Par, Pass
from eighteen.engine.bots import make_bots
from eighteen.engine.game import STUCK, Game
from eighteen.engine.rounds.auction import set_par
from eighteen.engine.state import POOL
from eighteen.engine.tables import Tables

TITLE = eighteen.load_title("1833ne")
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]
SEEDS = list(range(10))


def assert_dead(g: Game) -> None:
    """No one can ever act again: no corporation runs, and either each one left waits for a
    phase (which only a train bought could bring), or no private pays and no player can pay
    for a president's certificate (20%) at the lowest price."""
    s = g.state
    assert not any(cs.par and not cs.closed for cs in s.corporations.values())
    left = [c for c in g.tables.corporations if not s.corporations[c.id].closed]
    assert left  # else it would have ended at once
    if all(c.available_from and not phases.reached(g, c.available_from) for c in left):
        return
    assert all(ps.closed for ps in s.privates.values())
    lowest = min(g.tables.par_prices())
    assert all(p.cash < 2 * lowest for p in s.players if p.name not in s.eliminated)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_1833ne_game_to_the_end(seed: int) -> None:
    n = 3 + seed % 3
    players = NAMES[:n]
    g = Game.new(TITLE, players=players, seed=seed)
    greedy = seed % 2 == 0
    bots = make_bots("greedy" if greedy else "random", players, seed)
    play_checked(g, bots, random.Random(seed))
    assert g.is_over and not g.stuck
    assert g.state.end_reason in {
        "bank broken",
        "bankruptcy",
        "every corporation closed",
        "no corporation can be started any more",
    }
    if g.state.end_reason == "bankruptcy":
        assert len(g.state.eliminated) == n - 1
    if g.state.end_reason == "every corporation closed":
        assert all(cs.closed for cs in g.state.corporations.values())
    if g.state.end_reason == "no corporation can be started any more":
        assert not greedy  # only random play ruins everyone
        assert_dead(g)
    loaded = Game.from_json(g.to_json(), tables=TITLE)
    assert loaded.state_hash() == g.state_hash() and loaded.stuck == g.stuck


def stranded(cash: dict[str, int] | None = None, title: Tables = TITLE) -> Game:
    """After the seed's auction (step 1), stock round 1 with A to act: every player broke
    but for ``cash`` (taken from the bank), every private gone, no corporation started."""
    g = Game.new(title, players=["A", "B", "C", "D"])
    auction(g)
    strand_everyone(g)
    for name, amount in (cash or {}).items():
        g.state.bank -= amount
        g.state.player(name).cash = amount
    g.invalidate_caches()
    return g


@pytest.mark.parametrize("title", ["1833ne", "1833ne-takeover"])
def test_a_game_no_corporation_can_be_started_in_ends_with_the_stock_round(title: str) -> None:
    g = stranded(title=eighteen.load_title(title))
    assert g.acting() == "A" and g.legal_actions() == [Pass("A")]
    g.apply(Pass("A"))  # B, C and D can do nothing: they pass, and the round ends
    assert g.is_over and not g.stuck
    assert g.state.end_reason == "no corporation can be started any more"
    assert g.acting() is None and g.legal_actions() == []
    with pytest.raises(IllegalAction, match="the game is over"):
        g.apply(Pass("A"))


def test_a_player_who_could_start_a_corporation_keeps_the_game_going() -> None:
    # D has the $80 of a president's certificate (20%) at the lowest par, $40: he may pass,
    # the game goes on to the next stock round, in which he is again the one who can act
    g = stranded({"D": 80})
    g.apply(Pass("A"))
    assert g.acting() == "D" and Par("D", "B&W", 40) in g.legal_actions()
    g.apply(Pass("D"))
    assert not g.is_over and g.state.round.kind == "stock" and g.state.round.number == 2
    assert g.acting() == "D"
    # $79 is a dollar short: the game ends with stock round 1
    g = stranded({"D": 79})
    g.apply(Pass("A"))
    assert g.state.end_reason == "no corporation can be started any more"


def test_without_the_end_a_game_no_one_can_act_in_is_stuck_not_over() -> None:
    data = json.loads(json.dumps(TITLE.data))
    data["rules"]["no_corporation_left_ends_game"] = False
    g = stranded(title=Tables(data))
    assert g.acting() == "A" and g.legal_actions() == [Pass("A")]
    g.apply(Pass("A"))
    assert g.stuck and not g.is_over and g.state.end_reason is None
    assert g.acting() is None and g.legal_actions() == []
    with pytest.raises(IllegalAction, match="no rule of the title ends the game"):
        g.apply(Pass("A"))
    assert STUCK in [m for _, m in g.events]
    g.undo()  # the game is rebuilt from its actions (the broke players were a test edit)
    assert not g.stuck and g.acting() == "A"


def test_a_takeover_game_with_only_variable_corporations_left_ends_in_phase_one() -> None:
    # the five variable-start corporations start from phase II on, which no train bought
    # can bring any more: D's $200 starts nothing
    g = stranded({"D": 200}, title=eighteen.load_title("1833ne-takeover"))
    standard = [c.id for c in g.tables.corporations if not c.available_from]
    variable = [c.id for c in g.tables.corporations if c.available_from]
    assert (len(standard), len(variable)) == (9, 5)
    for cid in standard:
        finance.close(g, cid)
    g.invalidate_caches()
    assert not g.is_over  # the variable ones are still to start
    g.apply(Pass("A"))
    assert g.state.end_reason == "no corporation can be started any more"
    assert g.state.player("D").cash == 200
    # in phase II he could start one: the game goes on, D to act
    g = stranded({"D": 200}, title=eighteen.load_title("1833ne-takeover"))
    for cid in standard:
        finance.close(g, cid)
    g.state.phase = 1
    g.invalidate_caches()
    g.apply(Pass("A"))
    assert not g.is_over and g.acting() == "D"
    assert {a.corporation for a in g.legal_actions() if isinstance(a, Par)} == set(variable)


def test_privates_paying_change_nothing_when_every_corporation_left_waits_for_a_phase() -> None:
    # after the auction the players hold the privates, which pay each operating round; the
    # nine standard corporations closed, the five variable ones wait for phase II, which
    # only a train bought can bring: the first stock round's end ends the game
    g = Game.new(eighteen.load_title("1833ne-takeover"), players=["A", "B", "C", "D"])
    auction(g)
    assert not any(ps.closed for ps in g.state.privates.values())
    for c in g.tables.corporations:
        if not c.available_from:
            finance.close(g, c.id)
    g.invalidate_caches()
    assert g.acting() == "A" and g.legal_actions() == [Pass("A")]
    g.apply(Pass("A"))  # B, C and D can do nothing: they pass, and the round ends
    assert g.is_over and g.state.end_reason == "no corporation can be started any more"
    assert g.state.round.kind == "stock" and g.state.round.number == 1
    # with the end switched off the game is stuck, not over, once the stall is seen
    data = json.loads(json.dumps(eighteen.load_title("1833ne-takeover").data))
    data["rules"]["no_corporation_left_ends_game"] = False
    g = Game.new(Tables(data), players=["A", "B", "C", "D"])
    auction(g)
    for c in g.tables.corporations:
        if not c.available_from:
            finance.close(g, c.id)
    g.invalidate_caches()
    for _ in range(200):
        if g.stuck or g.is_over:
            break
        g.apply(g.legal_actions()[0])
    assert g.stuck and not g.is_over


def test_the_last_corporation_closing_at_the_stock_rounds_end_ends_the_game_then() -> None:
    # B&W, A's, at $10 with a share in the market: the round's end moves it to $0, it
    # closes, and with it the last corporation running; no one can start another, so the
    # game ends with this very stock round
    g = stranded()
    set_par(g, "B&W", 40)
    pres, share = shares.president_cert("B&W"), shares.cert_ids(g, "B&W")[1]
    g.state.certs[pres], g.state.corporations["B&W"].president = "A", "A"
    g.state.certs[share] = POOL
    cell = next(c for c in g.tables._cells if g.tables.cell(c).price == 10)
    market.place(g, "B&W", cell)
    g.invalidate_caches()
    assert g.acting() == "A" and g.legal_actions() == [Pass("A")]
    g.apply(Pass("A"))
    assert g.state.corporations["B&W"].closed
    assert g.state.end_reason == "no corporation can be started any more"
    assert g.state.stock_rounds == 1
