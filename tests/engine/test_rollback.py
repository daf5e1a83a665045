"""apply changes the state in place; an action refused half-way is rolled back from the
last snapshot and the log, to the state exactly as it was (a hand-edited state included,
once ``invalidate_caches`` has been called)."""

from __future__ import annotations

import random

import pytest

from eighteen import Game, load_title
from eighteen.engine.actions import IllegalAction


def _played(n: int) -> Game:
    rng = random.Random(5)
    g = Game.new(load_title("1830"), ["Ann", "Bob", "Cy", "Di"], seed=5)
    for _ in range(n):
        g.apply(rng.choice(g.legal_actions()))
    return g


def _refuse_half_way(g: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """Apply the first legal action with its step changed to spend money, then refuse
    (once: the rollback replays the log with the same step)."""
    action = g.legal_actions()[0]
    step = g._round().handler(g, action)
    done = type(step).process
    tried: list[object] = []

    def process(self: object, game: Game, a: object) -> None:
        done(self, game, a)  # type: ignore[arg-type]
        if a is action and not tried:
            tried.append(a)
            game.state.bank -= 1
            game.state.players[0].cash += 1
            raise IllegalAction("refused half-way")

    monkeypatch.setattr(type(step), "process", process)
    with pytest.raises(IllegalAction, match="refused half-way"):
        g.apply(action)
    monkeypatch.undo()


@pytest.mark.parametrize("n", [0, 7, 16, 40])
def test_an_action_refused_half_way_leaves_no_trace(
    n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = _played(n)
    before, log, events = g.state_hash(), list(g.log), list(g.events)
    _refuse_half_way(g, monkeypatch)
    assert (g.state_hash(), g.log, g.events) == (before, log, events)
    action = g.legal_actions()[0]
    g.apply(action)  # the game goes on as if nothing had been tried
    other = _played(n)
    other.apply(action)
    assert g.state_hash() == other.state_hash()


def test_the_state_is_changed_in_place() -> None:
    g = _played(3)
    s = g.state
    g.apply(g.legal_actions()[0])
    assert g.state is s


def test_a_hand_edited_state_is_rolled_back_to_the_edit(monkeypatch: pytest.MonkeyPatch) -> None:
    g = _played(9)
    g.state.players[1].cash += 100
    g.state.bank -= 100
    g.invalidate_caches()
    edited = g.state_hash()
    _refuse_half_way(g, monkeypatch)
    assert g.state_hash() == edited
