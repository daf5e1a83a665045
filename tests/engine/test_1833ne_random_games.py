"""Randomized whole 1833NE games: bots play 3-, 4- and 5-player games to the end with the
invariants of test_random_games checked after every action (money conserved with treasury
shares and the bank reserve, certificates, train limits without phased-out trains), legal
actions accepted, rejected actions leaving no trace, undo and save round trips exact."""

from __future__ import annotations

import random

import pytest
from test_random_games import check_all_legal_apply, check_invariants, check_rejection

import eighteen
from eighteen.engine.bots import make_bots, play
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
    rng = random.Random(seed)
    prev_hash = ""
    for k, _ in enumerate(play(g, bots, max_actions=20_000)):
        check_invariants(g)
        if k % 25 == 0 and not g.is_over:
            check_rejection(g)
            check_all_legal_apply(g, rng)
        if k % 97 == 1 and prev_hash:
            last_hash = g.state_hash()
            action = g.undo()
            assert g.state_hash() == prev_hash
            g.apply(action)
            assert g.state_hash() == last_hash
        prev_hash = g.state_hash() if k % 97 == 0 else ""
    assert g.is_over
    assert g.state.end_reason in {"bank broken", "bankruptcy", "no one can act any more"}
    if g.state.end_reason == "bankruptcy":
        assert len(g.state.eliminated) == n - 1
    loaded = Game.from_json(g.to_json(), tables=TITLE)
    assert loaded.state_hash() == g.state_hash()
