"""Typed models of corporations.toml."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

from pydantic import (
    Field,
)

from eighteen.title.model.common import MAX_COUNT, Color, EntityId, HexId, Money, Strict


class Reservation(Strict):
    """A station slot kept free for a corporation outside its home."""

    hex: HexId = Field(description="Reserved hex.")
    city: int | None = Field(
        None, ge=0, le=MAX_COUNT, description="City index; absent: any city there."
    )
    from_color: Color | None = Field(
        None, description="Reserved only once a tile of this colour lies there."
    )
    ends_on: EntityId | None = Field(None, description="Phase on whose start it ends.")


class JointTokenTrigger(str, Enum):
    """When a joint station is placed."""

    first_tile = "first_tile"  # as soon as anyone lays the first tile on the hex


class JointToken(Strict):
    """A station shared with another corporation, placed free in a set hex."""

    partner: EntityId = Field(description="The other corporation it belongs to.")
    hex: HexId = Field(description="Where it is placed.")
    when: JointTokenTrigger = Field(description="What places it.")


class VariableHome(Strict):
    """The corporation has no fixed home: when it is started its founder picks any city
    with no station that is not reserved and is no home of another corporation still in
    the game; the treasury pays for the home station."""

    cost_untracked: Money = Field(
        80, description="Home station price in a gray hex or a hex without track."
    )
    cost: Money = Field(120, description="Home station price anywhere else.")


class Corporation(Strict):
    """A public corporation (railroad)."""

    id: EntityId = Field(description="Short name, e.g. PRR.")
    name: str = Field(min_length=1)
    home: HexId | None = Field(None, description="Home hex (absent only with variable_home).")
    variable_home: VariableHome | None = Field(
        None, description="No fixed home: the founder picks one (instead of home)."
    )
    city: int | None = Field(
        None,
        ge=0,
        le=MAX_COUNT,
        description="Index of the home city on a multi-city hex; absent: chosen when placed.",
    )
    tokens: list[Money] = Field(
        min_length=1, description="Station tokens, by their cost in order; the first is home."
    )
    shares: list[Annotated[int, Field(ge=1, le=100)]] = Field(
        default_factory=lambda: [20, 10, 10, 10, 10, 10, 10, 10, 10],
        description="Certificate sizes in percent; the first is the president's.",
    )
    float_percent: int | None = Field(
        None, ge=10, le=100, description="Overrides rules.float_percent."
    )
    color: str = Field(pattern=r"^#[0-9A-Fa-f]{6}$", description="Charter colour.")
    text_color: str = Field("#ffffff", pattern=r"^#[0-9A-Fa-f]{6}$")
    reservations: list[Reservation] = Field(
        default_factory=list, description="Station slots kept for it outside its home."
    )
    station_costs: dict[str, Money] = Field(
        default_factory=dict,
        description="Hex id -> price of its station there, instead of its next token's.",
    )
    joint_token: JointToken | None = Field(
        None, description="A station shared with another corporation."
    )
    available_from: EntityId | None = Field(
        None, description="Phase from whose start it may be started (absent: from the start)."
    )
    min_par: Money | None = Field(
        None, description="Lowest price it may start at (absent: any par price)."
    )


class CorporationsFile(Strict):
    """corporations.toml."""

    corporations: list[Corporation] = Field(min_length=1)
