"""How a simulation game ends short: a game that did not end within its actions (or is
stuck) is recorded unfinished; any other fault stops the run naming the game to replay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from eighteen import Game, load_title
from eighteen.cli import main
from eighteen.engine import bots
from eighteen.engine.actions import Action
from eighteen.engine.bots import GameUnfinished, make_bots, play
from eighteen.sim import runner
from eighteen.sim.botspec import parse_bots, seat_bots
from eighteen.sim.runner import GameFailed, Job, play_job

SEATS = tuple(seat_bots(parse_bots("greedy,2*random,greedy:bold"), 4))
NAMES = ["Ann", "Bob", "Cy", "Di"]


def _length(seed: int) -> int:
    g = Game.new(load_title("1830"), NAMES, seed=seed)
    return sum(1 for _ in play(g, make_bots("greedy", NAMES, seed)))


def test_a_game_ending_on_its_last_allowed_action_is_finished() -> None:
    """`max_actions` actions are allowed: a game whose last action is the last allowed ends
    (it raised before: off by one); one action fewer and it did not end."""
    n = _length(1)
    g = Game.new(load_title("1830"), NAMES, seed=1)
    assert sum(1 for _ in play(g, make_bots("greedy", NAMES, 1), max_actions=n)) == n
    assert g.is_over
    g = Game.new(load_title("1830"), NAMES, seed=1)
    with pytest.raises(GameUnfinished) as exc:
        for _ in play(g, make_bots("greedy", NAMES, 1), max_actions=n - 1):
            pass
    assert str(exc.value) == f"the game did not end within {n - 1} actions"
    assert len(g.log) == n - 1 and not g.is_over


def test_bots_that_are_no_mapping_of_bots_are_refused_at_the_call() -> None:
    """A list of bots gave an AttributeError from inside the generator, at its first
    action; the call now says what `bots` is, and no action is played."""
    g = Game.new(load_title("1830"), NAMES, seed=1)
    greedy = bots.GreedyBot(1)
    cases: list[tuple[Any, str]] = [
        (
            [greedy],
            "bots is a mapping of player name -> Bot, e.g. make_bots('greedy', "
            "game.players, seed), not list",
        ),
        (
            {},
            "bots is a mapping of player name -> Bot, e.g. make_bots('greedy', "
            "game.players, seed), not dict (empty)",
        ),
        ({"Ann": "greedy"}, "the bot of 'Ann' is a str, with no choose(game)"),
    ]
    for given, message in cases:
        with pytest.raises(TypeError) as exc:
            play(g, given)
        assert str(exc.value) == message
    assert g.log == []

    class Chooser:  # (any object with choose(game) plays: no Bot subclass needed)
        def choose(self, game: Game) -> Action:
            return greedy.choose(game)

    first = next(play(g, {name: Chooser() for name in NAMES}))
    assert g.log == [first]


def test_a_record_of_a_game_ending_on_its_last_allowed_action_is_finished() -> None:
    whole = play_job(Job("1830", 0, 7, SEATS))
    n = whole["actions"]
    r = play_job(Job("1830", 0, 7, SEATS, max_actions=n))
    assert (r["finished"], r["actions"]) == (True, n) and r == whole
    r = play_job(Job("1830", 0, 7, SEATS, max_actions=n - 1))
    assert (r["finished"], r["end_reason"], r["actions"]) == (False, "unfinished", n - 1)


def test_a_fault_in_a_game_names_the_game_not_unfinished(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot's RecursionError (a RuntimeError) was recorded as an unfinished game; any
    fault now stops the run, naming the title, the seed, the bots and the action."""
    choose = bots.Bot.choose

    def failing(self: bots.Bot, game: Game) -> object:
        if len(game.log) == 30:
            raise RecursionError("maximum recursion depth exceeded")
        return choose(self, game)

    monkeypatch.setattr(bots.Bot, "choose", failing)
    with pytest.raises(GameFailed) as exc:
        play_job(Job("1830", 2, 9, SEATS))
    assert str(exc.value) == (
        "game 3 of 1830 failed at action 31: RecursionError: maximum recursion depth exceeded "
        "(replay: eighteen play 1830 --players 4 --seed 9 --bots greedy,random,random,"
        "greedy:bold)"
    )
    assert isinstance(exc.value.__cause__, RecursionError)


def test_a_fault_noting_an_action_names_that_action(monkeypatch: pytest.MonkeyPatch) -> None:
    step = runner._Observer.step

    def failing(self: Any, action: Any, n: int) -> None:
        if n == 5:
            raise KeyError("x\ny")
        step(self, action, n)

    monkeypatch.setattr(runner._Observer, "step", failing)
    with pytest.raises(GameFailed) as exc:
        play_job(Job("1830", 0, 9, SEATS, ("auction_18xx_games",)))
    assert str(exc.value) == (
        "game 1 of 1830 failed at noting action 5: KeyError: 'x\\ny' (replay: eighteen play "
        "1830 --players 4 --seed 9 --bots greedy,random,random,greedy:bold --option "
        "auction_18xx_games)"
    )


@pytest.mark.parametrize("workers", ["1", "2"])
def test_simulate_stops_at_a_faulty_game_with_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    workers: str,
) -> None:
    """The command stops at a game that failed: one line naming it and how to replay it,
    exit 1, nothing written (on two workers too: the games queued are dropped)."""
    choose = bots.Bot.choose

    def failing(self: bots.Bot, game: Game) -> object:
        if game.seed == 2 and len(game.log) == 30:
            raise RecursionError("maximum recursion depth exceeded")
        return choose(self, game)

    monkeypatch.setattr(bots.Bot, "choose", failing)
    argv = ["simulate", "1830", "--games", "3", "--players", "2", "--quiet"]
    assert main([*argv, "--workers", workers, "--out", str(tmp_path / "s")]) == 1
    assert capsys.readouterr().err == (
        "eighteen simulate: error: internal error: game 2 of 1830 failed at action 31: "
        "RecursionError: maximum recursion depth exceeded (replay: eighteen play 1830 "
        "--players 2 --seed 2 --bots greedy,greedy); please report it (EIGHTEEN_DEBUG=1 "
        "shows the traceback)\n"
    )
    assert not (tmp_path / "s" / "summary.json").exists()
