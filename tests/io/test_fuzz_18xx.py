"""Damaged exports never crash the importer: every outcome is a result (maybe with a
divergence) or a one-line ExportError naming the action."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from eighteen.io.games18xx import ExportError, import_game

WEIRD: list[Any] = [None, [], {}, "x", -1, 10**9, 2.5, True, ["PRR_1", 3], {"a": 1}, ""]


@pytest.mark.parametrize("seed", range(6))
def test_damaged_fields(seed: int, game_29133_raw: dict[str, Any]) -> None:
    rng = random.Random(seed)
    base = copy.deepcopy(game_29133_raw)
    base["actions"] = base["actions"][:130]
    base["status"] = "active"
    for _ in range(8):
        data = copy.deepcopy(base)
        a = rng.choice(data["actions"])
        key = rng.choice(sorted(k for k in a if k not in ("skip", "created_at", "user")))
        a[key] = rng.choice(WEIRD)
        try:
            res = import_game(data)
        except ExportError as exc:
            text = str(exc)
            assert "\n" not in text and text
            assert "action" in text or "player" in text or "export" in text, text
        else:
            assert res.game is not None
