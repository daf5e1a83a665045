"""Fixtures for the 18xx.games import/export tests: the real 1830 game 29133."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

#: The options titles/1830 switches on for every 18xx.games import (18xx.games' readings
#: of the rules where they differ from the seed), in the title's order ...
READINGS_18XX = ["auction_18xx_games"]
#: ... and for exports made before 2025 (such as 29133, of 2021), in addition.
OLD_READINGS_18XX = ["bankrupt_sells_shares"]

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures/18xx-games/1830/29133.json"


@pytest.fixture(scope="session")
def game_29133_raw() -> dict[str, Any]:
    """The export as read from disk (a real game from 18xx.games, kept in tests/fixtures)."""
    return json.loads(FIXTURE.read_text())


@pytest.fixture
def game_29133(game_29133_raw: dict[str, Any]) -> dict[str, Any]:
    """A private copy each test may edit."""
    return copy.deepcopy(game_29133_raw)
