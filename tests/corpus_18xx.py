"""The 1830 exports of tests/fixtures/18xx-games, read and edited in memory for import
tests: the real game 29133 and the generated corpus, by name."""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any

from eighteen.io.games18xx import ImportResult, import_game

FIXTURES = Path(__file__).resolve().parent / "fixtures/18xx-games"


@functools.cache
def _raw(name: str) -> str:
    folder = "1830" if name == "29133" else "1830-generated"
    return (FIXTURES / folder / f"{name}.json").read_text()


def export(name: str) -> dict[str, Any]:
    """A fresh copy of a corpus export (``29133`` is the real game), free to edit."""
    data: dict[str, Any] = json.loads(_raw(name))
    return data


def action(data: dict[str, Any], aid: int) -> dict[str, Any]:
    """The logged action with id ``aid``."""
    return next(a for a in data["actions"] if a.get("id") == aid)


def bare(a: dict[str, Any]) -> dict[str, Any]:
    """A logged action without its id (as an auto action, or to be inserted)."""
    return {k: v for k, v in a.items() if k != "id"}


def player(data: dict[str, Any], name: str) -> Any:
    """The export's id of the player named ``name``."""
    return next(p["id"] for p in data["players"] if p["name"] == name)


def insert_after(data: dict[str, Any], aid: int, new: list[dict[str, Any]]) -> dict[str, Any]:
    """A copy with ``new`` inserted after the raw action ``aid``: they take the ids aid+1...,
    the later actions (and undo targets past ``aid``) move up."""
    out = copy.deepcopy(data)
    acts = out["actions"]
    pos = next(i for i, a in enumerate(acts) if a["id"] == aid)
    for a in acts[pos + 1 :]:
        a["id"] += len(new)
    for a in acts:
        if a["type"] == "undo" and a.get("action_id") and a["action_id"] > aid:
            a["action_id"] += len(new)
    acts[pos + 1 : pos + 1] = [{**copy.deepcopy(x), "id": aid + 1 + k} for k, x in enumerate(new)]
    return out


def at(data: dict[str, Any], aid: int | None = None) -> ImportResult:
    """The import of a copy, up to the kept action ``aid`` (the whole log when None)."""
    return import_game(copy.deepcopy(data), stop_at=aid)


def made_export(actions: list[dict[str, Any]], players: int = 2) -> dict[str, Any]:
    """A minimal 18xx.games 1830 export of ``players`` players (ids 1, 2, ...) and
    ``actions`` (given ids 1, 2, ...; a player's unless they say otherwise)."""
    for i, a in enumerate(actions, 1):
        a["id"] = i
        a.setdefault("entity_type", "player")
    return {
        "id": 1,
        "title": "1830",
        "players": [{"id": i, "name": f"Player {i}"} for i in range(1, players + 1)],
        "settings": {"seed": 1, "optional_rules": []},
        "status": "active",
        "actions": actions,
        "created_at": 1767225600,
    }
