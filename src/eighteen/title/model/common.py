"""The vocabulary every file kind shares: the strict base model, colours, edges, hex ids,
money and counts with their bounds, stops and tile faces."""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
)


class Strict(BaseModel):
    """Base of every model: unknown keys are errors, never silently ignored."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Color(str, Enum):
    """Tile and hex colours, in upgrade order (white < yellow < green < brown < gray)."""

    white = "white"
    yellow = "yellow"
    green = "green"
    brown = "brown"
    gray = "gray"
    red = "red"
    blue = "blue"


#: Upgrade order of tile colours; red (off-board) and blue (water) never upgrade.
COLOR_ORDER = ["white", "yellow", "green", "brown", "gray"]

Edge = Annotated[int, Field(ge=0, le=5, description="Hex edge 0-5, clockwise (see docs).")]
HexId = Annotated[
    str,
    Field(
        pattern=r"^[A-Z]{1,2}[0-9]{1,3}$",
        description="Hex coordinate as printed on the board: row letters then column number.",
    ),
]
MAX_MONEY = 1_000_000_000
"""Largest amount of money anywhere in a title: far inside 64 bits, so no sum overflows."""
MAX_COUNT = 1000
"""Largest count, distance or limit in a title (trains of a type, tiles, certificates)."""
Money = Annotated[int, Field(ge=0, le=MAX_MONEY, description="An amount in dollars.")]
PositiveMoney = Annotated[
    int, Field(ge=1, le=MAX_MONEY, description="An amount in dollars, at least $1.")
]
Count = Annotated[int, Field(ge=0, le=MAX_COUNT, description="How many (0 to 1000).")]
Limit = Annotated[int, Field(ge=1, le=MAX_COUNT, description="A limit (1 to 1000).")]
Length = Annotated[int, Field(ge=1, le=MAX_COUNT, description="A distance (1 to 1000).")]
Ratio = Annotated[float, Field(ge=0, le=MAX_COUNT)]
EntityId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=16,
        pattern=r"^[A-Za-z0-9&+/_.-]+$",
        description="Short identifier (letters, digits, & + / _ . -).",
    ),
]
Unlimited = Literal["unlimited"]


class Terrain(str, Enum):
    """Kinds of terrain that make the first tile on a hex cost extra."""

    water = "water"
    mountain = "mountain"
    hill = "hill"
    bridge = "bridge"
    tunnel = "tunnel"
    pass_ = "pass"


class BorderType(str, Enum):
    """What a hex side is: impassable sides carry no track; cosmetic ones are drawn only."""

    impassable = "impassable"
    cosmetic = "cosmetic"
    water = "water"
    bridge = "bridge"  # a river crossed on this side: its cost is paid once, by the lay
    pass_ = "pass"  # a mountain pass on this side: its cost is paid once, by the lay


class Border(Strict):
    """A special hex side."""

    edge: Edge
    type: BorderType = Field(description="impassable: no track may cross; cosmetic: drawing only.")
    cost: Money = Field(0, description="Extra cost to lay track across this side (bridges).")


class City(Strict):
    """A city: station circles where tokens go; its revenue counts for every train that stops."""

    revenue: Money = Field(description="Revenue for a train stopping here.")
    slots: int = Field(1, ge=1, le=6, description="Number of token slots (station circles).")
    exits: list[Edge] = Field(
        default_factory=list, description="Edges joined to this city by track."
    )


class Town(Strict):
    """A town (small city, dit): a stop with revenue and no token slots."""

    revenue: Money = Field(description="Revenue for a train stopping here.")
    exits: list[Edge] = Field(
        default_factory=list, description="Edges joined to this town by track."
    )


class Offboard(Strict):
    """An off-board area (red hex): revenue by phase colour; a route may only end here."""

    revenue: dict[str, Money] = Field(
        description="Revenue by phase revenue colour, e.g. {yellow = 30, brown = 50}.",
        min_length=1,
    )
    group: str | None = Field(
        None,
        description="Area name: a route may visit at most one hex of the same group.",
    )
    hidden: bool = Field(False, description="Revenue shown on a partner hex (drawing only).")
    exits: list[Edge] = Field(default_factory=list, description="Edges joined by track.")
    requires_visit: list[HexId] = Field(
        default_factory=list,
        description="If set: worth its value only on a route that also visits or passes one "
        "of these hexes, else $0 (1833NE: D&H only via Montreal).",
    )


Track = Annotated[
    list[Edge],
    Field(min_length=2, max_length=2, description="Plain track joining two edges, e.g. [0, 3]."),
]


class TileFace(Strict):
    """What is printed on a tile or hex: stops, track and label."""

    cities: list[City] = Field(default_factory=list, description="Cities, indexed C0, C1...")
    towns: list[Town] = Field(default_factory=list, description="Towns, indexed T0, T1...")
    track: list[Track] = Field(
        default_factory=list, description="Plain edge-to-edge track that passes no stop."
    )
    label: str | None = Field(
        None,
        max_length=8,
        description="Upgrade label (OO, NY, B...): only a tile with the same label replaces it.",
    )
    stubs: list[Edge] = Field(
        default_factory=list,
        description="Edges whose track ends inside the hex at no stop (a dead end): no route "
        "runs on it; an upgrade must keep track on that edge.",
    )
