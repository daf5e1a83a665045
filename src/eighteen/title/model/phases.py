"""Typed models of phases.toml."""

from __future__ import annotations

from pydantic import (
    Field,
)

from eighteen.title.model.common import Color, EntityId, Strict
from eighteen.title.model.trains import TrainEvent


class Phase(Strict):
    """A game phase."""

    id: EntityId = Field(description="Phase name, e.g. 2, 3, D.")
    on: EntityId | None = Field(
        None, description="Train whose first purchase starts it; absent for the first phase."
    )
    tiles: list[Color] = Field(description="Tile colours that may be laid.", min_length=1)
    operating_rounds: int = Field(ge=1, le=5, description="Operating rounds per set.")
    train_limit: int = Field(ge=1, le=9, description="Most trains a corporation may own.")
    offboard_revenue: str = Field(
        description="Which off-board value applies (a key of every offboard revenue table)."
    )
    privates_buyable: bool = Field(
        False, description="May corporations buy private companies from players?"
    )
    events: list[TrainEvent] = Field(default_factory=list, description="Events on entry.")


class PhasesFile(Strict):
    """phases.toml: phases in order."""

    phases: list[Phase] = Field(min_length=1, description="Phases in order.")
