"""The save format: a typed model, its JSON Schema (``schema/save.schema.json``) and the
check every command that reads a save runs first.

A save is what ``Game.to_json`` writes: the title's identity, the players, the seed, the
options and the action log (each action is checked again, field by field, when it is
replayed). Reading one checks the shape here before any action is applied, so a save
with ``"actions": {}``, an unknown ``format`` or a 5,000-digit seed is refused in one line.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

SAVE_FORMAT = 1
"""The format version this code reads and writes (``Game.to_json`` writes the same)."""
MAX_ACTIONS = 1_000_000
"""Most actions a save may hold."""

MAX_NAME = 64
"""Longest player, title or option name a save holds."""
SEED_RANGE = (-(2**63), 2**63 - 1)
"""The seeds a save holds (64 bits)."""

Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME)]


class Save(BaseModel):
    """An eighteen save: replaying ``actions`` on the title from the seed gives the game."""

    model_config = ConfigDict(extra="forbid", strict=True, title="eighteen save")

    format: Literal[1] = Field(description="Save format version (1).")
    title: Name = Field(description="Title id, e.g. 1830.")
    version: Annotated[str, Field(max_length=64)] | None = Field(
        None, description="Title version the save was made with."
    )
    hash: Annotated[str, Field(max_length=128)] | None = Field(
        None, description="Hash of the title's data the save was made with."
    )
    players: list[Name] = Field(
        min_length=1, max_length=12, description="Player names, in seating order."
    )
    seed: int = Field(0, ge=SEED_RANGE[0], le=SEED_RANGE[1], description="Random seed of the game.")
    options: list[Name] = Field(
        default_factory=list, max_length=64, description="Title options switched on."
    )
    actions: list[dict[str, Any]] = Field(
        max_length=MAX_ACTIONS, description="The action log, each action as its JSON form."
    )


class SaveFormatError(ValueError):
    """Data that is not a save of a format this code reads (one line, naming the field)."""


def check_save(data: Any) -> Save:
    """The save as its typed model; SaveFormatError, naming the first wrong field, unless
    ``data`` is a save."""
    if not isinstance(data, dict):
        raise SaveFormatError("not a save (a save is a JSON object)")
    if "format" in data and data["format"] != SAVE_FORMAT:
        raise SaveFormatError(
            f"save format {data['format']!r:.40} is not one this version reads "
            f"(format {SAVE_FORMAT})"
        )
    try:
        return Save.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "save"
        raise SaveFormatError(f"not a valid save: {where}: {_message(err)}") from None


def _message(err: Any) -> str:
    kind = err["type"]
    if kind == "missing":
        return "missing"
    if kind == "extra_forbidden":
        return "unknown field"
    return str(err["msg"]).replace("Input should be", "should be")


def save_schema() -> dict[str, Any]:
    """The JSON Schema of a save."""
    return Save.model_json_schema()
