"""Typed models of map.toml."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

from pydantic import (
    Field,
)

from eighteen.title.model.common import (
    Border,
    Color,
    EntityId,
    HexId,
    Money,
    Offboard,
    Strict,
    Terrain,
    TileFace,
)


class Layout(str, Enum):
    """Hex orientation: pointy (rows of letters) or flat (columns of letters)."""

    pointy = "pointy"
    flat = "flat"


class Hex(TileFace):
    """One or more board hexes with the same printed content."""

    at: HexId | list[HexId] = Field(description="Coordinate, or list of coordinates sharing it.")
    name: str | None = Field(None, description="Location name printed on the board.")
    color: Color = Field(
        Color.white, description="white: empty; yellow: preprinted; gray: fixed; red: off-board."
    )
    terrain: Terrain | None = Field(None, description="Terrain that makes the first tile cost.")
    cost: Money = Field(0, description="Terrain cost, paid by the first tile laid here.")
    offboard: Offboard | None = Field(None, description="Off-board revenue (red hexes).")
    borders: list[Border] = Field(default_factory=list, description="Special hex sides.")


class CellParity(str, Enum):
    """Which half of the doubled-coordinate grid holds cells."""

    even = "even"  # x + y even: 1830's A19, and (flat) column A on odd numbers
    odd = "odd"  # x + y odd: (flat) column A on even numbers, as 1833NE's A6


class BonusKind(str, Enum):
    """How a route earns a connection bonus."""

    connection = "connection"  # the route itself visits both ends
    # the route visits one end and is extended past its train's reach, over track no other
    # route of the corporation uses (even through blocked cities), to the other end
    interconnection = "interconnection"


class BonusEnd(Strict):
    """One end of a connection bonus: a named group of hexes, any of which counts."""

    name: str = Field(min_length=1, description="Name shown to players, e.g. Boston.")
    hexes: list[HexId] = Field(min_length=1, description="Hexes that count as this end.")


class Bonus(Strict):
    """Extra revenue for a route joining two places; its value depends on the phase."""

    id: EntityId = Field(description="Bonus id, referred to by private powers.")
    kind: BonusKind = Field(description="connection or interconnection.")
    between: list[BonusEnd] = Field(
        min_length=2, max_length=2, description="The two ends the route must join."
    )
    values: dict[str, Money] = Field(
        min_length=1,
        description="Phase id -> amount; in a phase not listed the bonus does not exist.",
    )


class FerryPort(Strict):
    """A port with one ferry a corporation may buy."""

    hex: HexId = Field(description="The port city or town.")
    values: dict[str, Money] = Field(
        min_length=1, description="Phase id -> value added to the owner's route through it."
    )
    sea_link: list[HexId] = Field(
        default_factory=list,
        description="Hexes the ferry joins to the port by sea, for interconnection bonuses.",
    )


class Ferries(Strict):
    """Ferries: bought by corporations, they add value to routes through their ports."""

    cost: Money = Field(description="Price of one ferry, paid to the bank.")
    ports: list[FerryPort] = Field(min_length=1, description="One ferry per port.")
    new_bonus: dict[str, Money] = Field(
        default_factory=dict,
        description="Phase id -> extra value of the most recently bought ferry (it moves "
        "to each new purchase).",
    )
    last_bonus: dict[str, Money] = Field(
        default_factory=dict,
        description="Phase id -> extra value the last ferry sold keeps for good, once every "
        "ferry is sold.",
    )
    leave_on: EntityId | None = Field(
        None, description="Phase on whose start every ferry leaves the game."
    )


class MapFile(Strict):
    """map.toml: the board."""

    layout: Layout = Field(description="pointy (1830) or flat hexes.")
    rows: list[str] = Field(
        description="Row letters in use, top to bottom (pointy) or columns (flat).",
        min_length=1,
    )
    columns: list[Annotated[int, Field(ge=0, le=999)]] = Field(
        description="Lowest and highest coordinate number: [first, last].",
        min_length=2,
        max_length=2,
    )
    hexes: list[Hex] = Field(description="Every hex on the board.", min_length=1)
    cell_parity: CellParity = Field(
        CellParity.even, description="Which grid cells exist (see docs/title-format.md)."
    )
    bonuses: list[Bonus] = Field(
        default_factory=list, description="Connection and interconnection bonuses."
    )
    ferries: Ferries | None = Field(None, description="Ferries and their ports.")
