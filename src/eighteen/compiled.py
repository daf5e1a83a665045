"""The compiled format: one set of typed, frozen models for ``generated/<id>.json``.

The compiler (:mod:`eighteen.title.compile`) validates every document it writes against
:class:`CompiledTitle`, and the engine (:mod:`eighteen.engine.tables`) validates what it
loads once, then reads attributes. ``schema/compiled.schema.json`` is generated from these
models and docs/compiled-format.md describes them. Records that are the same in a title and
in its compiled form (rules, phases, privates and their powers, bonuses, ferries) are the
title models themselves; the others add what the compiler derives (neighbours, usable
edges, moves) or change a representation ("unlimited" becomes ``null``).

This module sits at the bottom of the house with :mod:`eighteen.title.model`: it imports
nothing else of the project.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from eighteen.title.model import (
    MAX_COUNT,
    Bonus,
    Border,
    City,
    Color,
    Corporation,
    Distance,
    Edge,
    EntityId,
    Ferries,
    HexId,
    Import18xx,
    Layout,
    Length,
    MarketType,
    Money,
    Offboard,
    Phase,
    PlayerCount,
    Private,
    Rules,
    Strict,
    Terrain,
    TileFace,
    TitleOption,
    TradeIn,
    TrainEvent,
    Zone,
)

FORMAT = 1
"""Version of the compiled document's shape."""

#: A train's reach: stops (an int), a table of stops, or ``None`` for unlimited (the D).
Reach = Length | Distance | None
Rotation = Annotated[int, Field(ge=0, le=5)]
Position = Annotated[
    list[Annotated[int, Field(ge=0, le=MAX_COUNT)]], Field(min_length=2, max_length=2)
]


class CompiledVariant(Strict):
    """The other side of a double-sided train card."""

    id: EntityId
    distance: Reach
    price: Money


class CompiledTrain(Strict):
    """A train type as sold: ``count`` None = unlimited."""

    id: EntityId
    distance: Reach
    price: Money
    count: Annotated[int, Field(ge=0, le=MAX_COUNT)] | None
    rusts_on: EntityId | None
    obsolete_on: EntityId | None
    available_on: EntityId | None
    trade_in: TradeIn | None
    variants: list[CompiledVariant]
    events: list[TrainEvent]


class CompiledCorporation(Corporation):
    """A corporation, its float percent filled in from the rules when the title left it."""

    float_percent: Annotated[int, Field(ge=10, le=100)]


class CompiledHex(TileFace):
    """A map hex: its printed face plus geometry, homes and blockers."""

    name: str | None
    color: Color
    terrain: Terrain | None
    cost: Money
    offboard: Offboard | None
    borders: list[Border]
    x: int
    y: int
    neighbors: list[HexId | None] = Field(min_length=6, max_length=6)
    usable_edges: list[Edge]
    homes: list[EntityId]
    blocked_by: list[EntityId]


class CompiledTile(TileFace):
    """A manifest tile: ``count`` None = unlimited; ``exits`` every edge with track;
    ``orientations`` the rotations that look different."""

    color: Color
    count: Annotated[int, Field(ge=0, le=MAX_COUNT)] | None
    exits: list[Edge]
    orientations: list[Rotation]


class MarketCellRecord(Strict):
    """One stock-market cell: price, zones, the OR of their flags and the moves."""

    price: Money
    zones: list[str]
    par: bool
    cert_limit_exempt: bool
    holding_limit_exempt: bool
    multiple_buy: bool
    closes: bool
    ends_game: bool
    up: Position
    down: Position
    pay: Position
    withhold: Position


class CompiledMarket(Strict):
    """The market grid: rows of cells (None: no cell), par cells highest price first."""

    type: MarketType
    zones: dict[str, Zone]
    cells: list[list[MarketCellRecord | None]]
    par: list[Position]


class CompiledTitle(Strict):
    """The whole compiled document of one title."""

    format: Literal[1]
    id: EntityId
    name: str
    version: str
    hash: str
    designers: list[str]
    players: PlayerCount
    bank: Money
    starting_cash: dict[str, Money]
    certificate_limit: dict[str, Annotated[int, Field(ge=1, le=MAX_COUNT)]]
    certificate_limit_by_corporations: (
        dict[str, dict[str, Annotated[int, Field(ge=1, le=MAX_COUNT)]]] | None
    ) = None
    options: list[TitleOption]
    rules: Rules
    layout: Layout
    hexes: dict[HexId, CompiledHex]
    tiles: dict[EntityId, CompiledTile]
    first_tiles: dict[HexId, dict[EntityId, list[Rotation]]]
    upgrades: dict[str, dict[EntityId, list[Rotation]]]
    trains: list[CompiledTrain] = Field(min_length=1)
    phases: list[Phase] = Field(min_length=1)
    privates: list[Private]
    corporations: list[CompiledCorporation] = Field(min_length=1)
    market: CompiledMarket
    bonuses: list[Bonus] | None = None
    ferries: Ferries | None = None
    import_18xx: Import18xx | None = None


def compiled_schema() -> dict[str, object]:
    """The JSON Schema of the compiled document, from the models."""
    return CompiledTitle.model_json_schema(by_alias=True)


__all__ = [
    "FORMAT",
    "CompiledCorporation",
    "CompiledHex",
    "CompiledMarket",
    "CompiledTile",
    "CompiledTitle",
    "CompiledTrain",
    "CompiledVariant",
    "MarketCellRecord",
    "City",
    "compiled_schema",
]
