"""Puts tests/ on the import path, so every test folder can use the shared helpers kept
here (browser_support); and the fixtures several test modules share."""

from __future__ import annotations

from pathlib import Path

import pytest

from eighteen.cli import main
from eighteen.sim import runner


@pytest.fixture(scope="module")
def save(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished 3-player 1830 greedy bot game (607 actions), saved."""
    path = tmp_path_factory.mktemp("save") / "game.json"
    assert (
        main(["play", "1830", "--players", "3", "--seed", "2", "--quiet", "--save", str(path)]) == 0
    )
    return path


@pytest.fixture
def no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if a simulation game were started: errors must come first."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was started")

    monkeypatch.setattr(runner, "run_simulation", refuse)
