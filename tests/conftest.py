"""Puts tests/ on the import path, so every test folder can use the shared helpers kept
here (browser_support); and the fixtures several test modules share.

Under CI (``CI`` set, as .ci/run sets it) hypothesis draws the same examples on every run
(derandomized): a run is red for a change, never for a draw of the day; a plain local
``make test`` keeps drawing new examples, and a failure it finds prints its blob."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from eighteen.cli import main
from eighteen.sim import runner

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(scope="module")
def save(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished 3-player 1830 greedy bot game (748 actions), saved."""
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
