"""Typed models of market.toml."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

from pydantic import (
    Field,
)

from eighteen.title.model.common import Strict


class Zone(Strict):
    """What a market cell's colour means."""

    name: str = Field(description="Colour name shown to players.")
    par: bool = Field(False, description="A corporation may start at this price.")
    cert_limit_exempt: bool = Field(False, description="Not counted toward the cert limit.")
    holding_limit_exempt: bool = Field(False, description="Players may hold over the limit.")
    multiple_buy: bool = Field(False, description="More than one certificate per turn.")
    closes: bool = Field(False, description="A corporation reaching it closes.")
    ends_game: bool = Field(False, description="Reaching it ends the game.")


MarketCell = Annotated[
    str,
    Field(
        pattern=r"^$|^[0-9]+[a-z]*$",
        description='Price then zone letters, e.g. "100p"; "" where the grid has no cell.',
    ),
]


class MarketType(str, Enum):
    """Shape of the stock market."""

    two_d = "2d"
    linear = "linear"


class MarketFile(Strict):
    """market.toml: the stock market grid."""

    type: MarketType = Field(description="2d grid or linear track.")
    zones: dict[str, Zone] = Field(
        default_factory=dict,
        description="Zone letter -> meaning; a cell '60y' is price 60 in zone y.",
    )
    rows: list[list[MarketCell]] = Field(
        min_length=1,
        description='Rows top to bottom; cells like "100p", "60y", or "" for no cell.',
    )
