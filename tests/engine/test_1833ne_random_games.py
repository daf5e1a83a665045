"""Randomized whole 1833NE games: bots play 3-, 4- and 5-player games to the end with the
invariants of test_random_games checked after every action (money conserved with treasury
shares and the bank reserve, certificates, train limits without phased-out trains), legal
actions accepted, rejected actions leaving no trace, undo and save round trips exact.

A game ends only by the rules' two ends (seed 003, "終了": the bank runs out, or one
player is left) or, as on 18xx.games (the seed is silent), when every corporation has closed.
Random play can reach a game no one can act in any more (no corporation running, no private
left, and no player with the price of a president's certificate of a corporation still
open); the rules do not end it, so it is stuck: not over, no action possible
(rules.stall_ends_game = false)."""

from __future__ import annotations

import random

import pytest
from ne_scenario import auction, new_game
from scenario import strand_everyone
from test_random_games import play_checked

import eighteen
from eighteen.engine.actions import IllegalAction, Pass
from eighteen.engine.bots import make_bots
from eighteen.engine.game import STUCK, Game

TITLE = eighteen.load_title("1833ne")
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]
SEEDS = list(range(10))


def assert_dead(g: Game) -> None:
    """No one can ever act again: no corporation runs, no private pays, and no player can pay
    for a president's certificate at the lowest price."""
    s = g.state
    assert not any(cs.floated for cs in s.corporations.values())
    assert all(ps.closed for ps in s.privates.values())
    lowest = min(g.tables.par_prices())
    assert any(not cs.closed for cs in s.corporations.values())  # else it would have ended
    assert all(p.cash < 2 * lowest for p in s.players if p.name not in s.eliminated)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_1833ne_game_to_the_end(seed: int) -> None:
    n = 3 + seed % 3
    players = NAMES[:n]
    g = Game.new(TITLE, players=players, seed=seed)
    greedy = seed % 2 == 0
    bots = make_bots("greedy" if greedy else "random", players, seed)
    try:
        play_checked(g, bots, random.Random(seed))
    except RuntimeError:
        assert g.stuck and not greedy  # only random play ruins everyone
        assert not g.is_over and g.state.end_reason is None
        assert_dead(g)
    else:
        assert g.is_over
        assert g.state.end_reason in {"bank broken", "bankruptcy", "every corporation closed"}
        if g.state.end_reason == "bankruptcy":
            assert len(g.state.eliminated) == n - 1
        if g.state.end_reason == "every corporation closed":
            assert all(cs.closed for cs in g.state.corporations.values())
    loaded = Game.from_json(g.to_json(), tables=TITLE)
    assert loaded.state_hash() == g.state_hash() and loaded.stuck == g.stuck


def test_a_game_no_one_can_act_in_is_stuck_not_over() -> None:
    g = new_game()
    auction(g)
    # stock round 1, A to act: every player broke, every private gone
    strand_everyone(g)
    assert g.acting() == "A" and g.legal_actions() == [Pass("A")]
    g.apply(Pass("A"))
    assert g.stuck and not g.is_over and g.state.end_reason is None
    assert g.acting() is None and g.legal_actions() == []
    with pytest.raises(IllegalAction, match="no rule of the title ends the game"):
        g.apply(Pass("A"))
    assert STUCK in [m for _, m in g.events]
    g.undo()  # the game is rebuilt from its actions (the broke players were a test edit)
    assert not g.stuck and g.acting() == "A"
