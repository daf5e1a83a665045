"""Typed models of tiles.toml."""

from __future__ import annotations

from pydantic import (
    Field,
)

from eighteen.title.model.common import Color, Count, EntityId, Strict, TileFace, Unlimited


class Tile(TileFace):
    """A track tile definition (rotation 0)."""

    id: EntityId = Field(description="Tile number as printed, e.g. 57.")
    color: Color = Field(description="Tile colour: yellow, green, brown or gray.")


class TilesFile(Strict):
    """tiles.toml: the manifest (tile id -> count) plus title-specific tile definitions."""

    library: list[str] = Field(
        default_factory=list,
        description='Shared tile libraries to draw definitions from, e.g. ["common"].',
    )
    manifest: dict[str, Count | Unlimited] = Field(
        default_factory=dict, description='Tile id -> count, or "unlimited".'
    )
    tiles: list[Tile] = Field(default_factory=list, description="Tile definitions.")
