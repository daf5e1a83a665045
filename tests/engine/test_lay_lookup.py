"""A submitted tile lay is looked up among the lays of its hex and tile only: exactly
the entries of the full list (every rotation) for that hex and tile, in its order."""

from __future__ import annotations

import random

import pytest

from eighteen import Game, load_title
from eighteen.engine.rounds.or_track import _lay_options, lay_options


@pytest.mark.parametrize("title,seed", [("1830", 3), ("1830", 8), ("1833ne", 1), ("1833ne", 6)])
def test_the_lays_of_one_hex_and_tile_are_those_of_the_full_list(title: str, seed: int) -> None:
    rng = random.Random(seed)
    g = Game.new(load_title(title), ["Ann", "Bob", "Cy", "Di"], seed=seed)
    checked = 0
    for _ in range(1500):
        if g.is_over or g.stuck:
            break
        r = g.state.round
        if r.kind == "operating" and r.step == "track" and not g.pending_discard():
            full = lay_options(g, distinct=False)
            for key in {(lay.hex, lay.tile) for lay, _, _, _ in full} | {("A1", "57")}:
                want = [o for o in full if (o[0].hex, o[0].tile) == key]
                assert list(_lay_options(g, False, key)) == want
                checked += 1
        g.apply(rng.choice(g.legal_actions()))
    assert checked > 20
