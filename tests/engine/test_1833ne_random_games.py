"""Randomized whole 1833NE games: bots play 3-, 4- and 5-player games to the end with the
invariants of test_random_games checked after every action (money conserved with treasury
shares and the bank reserve, certificates, train limits without phased-out trains), legal
actions accepted, rejected actions leaving no trace, undo and save round trips exact."""

from __future__ import annotations

import random

import pytest
from test_random_games import play_checked

import eighteen
from eighteen.engine.bots import make_bots
from eighteen.engine.game import Game

TITLE = eighteen.load_title("1833ne")
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]
SEEDS = list(range(10))


@pytest.mark.parametrize("seed", SEEDS)
def test_random_1833ne_game_to_the_end(seed: int) -> None:
    n = 3 + seed % 3
    players = NAMES[:n]
    g = Game.new(TITLE, players=players, seed=seed)
    bots = make_bots("greedy" if seed % 2 == 0 else "random", players, seed)
    play_checked(g, bots, random.Random(seed))
    assert g.is_over
    assert g.state.end_reason in {"bank broken", "bankruptcy", "no one can act any more"}
    if g.state.end_reason == "bankruptcy":
        assert len(g.state.eliminated) == n - 1
    loaded = Game.from_json(g.to_json(), tables=TITLE)
    assert loaded.state_hash() == g.state_hash()
