"""Cached queries (Game.memo) never change what an action does.

Queries are cached until the state changes: between actions, while ``apply`` finds the
step that takes an action, and for the last active-step check of the automatic effects
(the next action starts from it).  A game asked every query before each action must go
exactly as a game only applying the same actions.
"""

from __future__ import annotations

import random

import pytest

from eighteen import Game, IllegalAction, load_title
from eighteen.engine import trains
from eighteen.engine.actions import BuyTrain, Pass


@pytest.mark.parametrize("title,seed", [("1830", 4), ("1830", 9), ("1833ne", 5)])
def test_queried_and_unqueried_games_stay_identical(title: str, seed: int) -> None:
    tables = load_title(title)
    players = ["Ann", "Bob", "Cy", "Di"]
    asked = Game.new(tables, players, seed=seed)
    plain = Game.new(tables, players, seed=seed)
    rng = random.Random(seed)
    for k in range(600):
        if asked.is_over or asked.stuck:
            break
        actions = asked.legal_actions()
        acting = asked.acting()
        if k % 5 == 0:  # rejected actions leave the cache as it was, too
            for bad in (Pass("nobody"), BuyTrain(acting or "nobody", "no-such-train", -5)):
                with pytest.raises(IllegalAction):
                    asked.apply(bad)
        action = rng.choice(actions)
        asked.apply(action)
        plain.apply(action)
        if k % 7 == 3:  # undo rebuilds from a snapshot: the cache must not outlive that
            asked.acting()
            asked.apply(asked.undo())
        assert asked.state_hash() == plain.state_hash()
        assert asked.events == plain.events
    assert asked.log == plain.log and len(asked.log) > 100


def test_the_last_active_check_stays_cached_after_apply() -> None:
    """The automatic effects stop at a step that has something to do; what they found
    out there (here: a tile lay exists) is still cached when the action returns."""
    rng = random.Random(1)
    g = Game.new(load_title("1830"), ["Ann", "Bob", "Cy", "Di"], seed=1)
    while not (g.state.round.kind == "operating" and g.state.round.step == "track"):
        g.apply(rng.choice(g.legal_actions()))
    assert g.memo(("can_lay",), lambda: pytest.fail("not cached")) is True


def test_undo_and_rejected_actions_keep_the_cache_right() -> None:
    """Undo rebuilds the state: nothing cached before survives it.  A rejected action
    leaves the state as it was, so what was cached for it still holds."""
    rng = random.Random(2)
    g = Game.new(load_title("1830"), ["Ann", "Bob", "Cy", "Di"], seed=2)
    for _ in range(33):  # undo goes back to the snapshot after action 32: no replay
        g.apply(rng.choice(g.legal_actions()))
    assert g.memo(("probe",), lambda: "before") == "before"
    with pytest.raises(IllegalAction):
        g.apply(Pass("nobody"))
    assert g.memo(("probe",), lambda: "again") == "before"
    g.undo()
    assert g.memo(("probe",), lambda: "after undo") == "after undo"


def test_a_query_with_arguments_is_computed_once_per_state() -> None:
    g = Game.new(load_title("1830"), ["Ann", "Bob"], seed=1)
    calls: list[tuple[int, int]] = []

    def add(a: int, b: int) -> int:
        calls.append((a, b))
        return a + b

    assert g.memo(("sum",), add, 2, 3) == 5
    assert g.memo(("sum",), add, 2, 3) == 5  # cached: not computed again
    assert calls == [(2, 3)]
    g.apply(g.legal_actions()[0])  # the state changed: asked again
    assert g.memo(("sum",), add, 2, 3) == 5
    assert calls == [(2, 3), (2, 3)]
    step = g._round().served(g)
    assert step is not None and g.step_active(step) is True  # the served step is active


def test_a_step_passed_over_keeps_what_is_known_of_the_state() -> None:
    """When only the served step moves on (a step with nothing to do and no effect of its
    own is passed over), the answers about the state stay cached and those about the
    steps (the served step, who acts, whether a step is active) are asked again."""
    g = Game.new(load_title("1830"), ["Ann", "Bob"], seed=1)
    served = g._round().served(g)
    assert served is not None
    assert g.memo(("probe",), lambda: "state") == "state"
    assert g.step_memo(("probe",), lambda: "step") == "step"
    assert g.step_memo(("probe",), lambda: "again") == "step"  # cached
    g.step_moved()
    assert g.memo(("probe",), lambda: "again") == "state"  # kept
    assert g.step_memo(("probe",), lambda: "again") == "again"  # asked again

    class Probe:  # a step whose answer counts the times it is asked
        asked = 0

        def active(self, game: Game) -> bool:
            self.asked += 1
            return True

    probe = Probe()
    assert g.step_active(probe) is True and g.step_active(probe) is True
    assert probe.asked == 1  # cached
    g.step_moved()
    assert g.step_active(probe) is True and probe.asked == 2  # asked again
    g.begin_changes()  # the state itself changes: nothing is cached, of either kind
    assert g.memo(("probe",), lambda: "changed") == "changed"
    assert g.step_memo(("probe",), lambda: "changed") == "changed"
    g.end_changes()
    assert g.memo(("probe",), lambda: "new") == "new"
    assert g.step_memo(("probe",), lambda: "new") == "new"


def test_a_turn_passing_over_a_quiet_step_asks_the_train_limit_no_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A corporation passes its trains step: its companies step, the last, is passed over
    and ends its turn; the next corporation's home step is passed over with an effect of
    its own (the state may change: the train limit is asked again), its issue step,
    which 1830 never has, with none.  So the limit is asked once at the issue step and
    not again at the track step, where the turn stops."""
    rng = random.Random(1)
    g = Game.new(load_title("1830"), ["Ann", "Bob", "Cy", "Di"], seed=1)
    for _ in range(3000):  # a random game, to the first such pass
        r = g.state.round
        if r.kind == "operating" and (r.index, r.step) == (0, "trains"):
            action = Pass(r.order[0])
            after = g.clone()
            if action in g.legal_actions():
                after.apply(action)
                r = after.state.round  # (the pass may end the round)
                if r.kind == "operating" and (r.index, r.step) == (1, "track"):
                    break
        g.apply(rng.choice(g.legal_actions()))
    r = g.state.round
    assert (r.kind, r.index, r.step) == ("operating", 0, "trains")
    asked: list[str] = []

    def over_limit(game: Game) -> list[str]:
        asked.append(game.state.round.step)
        return original(game)

    original = trains.over_limit
    monkeypatch.setattr(trains, "over_limit", over_limit)
    g.apply(action)
    r = g.state.round
    assert (r.kind, r.index, r.step) == ("operating", 1, "track")
    assert asked == ["companies", "home", "issue"]
