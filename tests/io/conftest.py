"""Fixtures for the 18xx.games import/export tests: the real 1830 game 29133."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures/18xx-games/1830/29133.json"


@pytest.fixture(scope="session")
def game_29133_raw() -> dict[str, Any]:
    """The export as read from disk (a real game from 18xx.games, kept in tests/fixtures)."""
    data: dict[str, Any] = json.loads(FIXTURE.read_text())
    return data


@pytest.fixture
def game_29133(game_29133_raw: dict[str, Any]) -> dict[str, Any]:
    """A private copy each test may edit."""
    return copy.deepcopy(game_29133_raw)
