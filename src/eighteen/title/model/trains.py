"""Typed models of trains.toml."""

from __future__ import annotations

from enum import Enum

from pydantic import (
    Field,
)

from eighteen.title.model.common import MAX_COUNT, Count, EntityId, Length, Money, Strict, Unlimited


class Distance(Strict):
    """A train's reach when it is more than a plain stop count."""

    cities: int | None = Field(
        None, ge=1, le=MAX_COUNT, description="Cities/off-boards counted (N of N+s)."
    )
    towns: int | None = Field(
        None, ge=0, le=MAX_COUNT, description="Towns allowed in addition (s of N+s)."
    )
    visit: int | None = Field(
        None, ge=1, le=MAX_COUNT, description="Stops it may visit (M of N/M)."
    )
    pay: int | None = Field(None, ge=1, le=MAX_COUNT, description="Best stops that pay (N of N/M).")


class TradeIn(Strict):
    """A discount for handing in an owned train when buying this one."""

    trains: list[EntityId] = Field(description="Train ids that may be handed in.", min_length=1)
    discount: Money = Field(description="Price reduction for the handed-in train.")


class TrainVariant(Strict):
    """One side of a double-sided train card."""

    id: EntityId
    distance: Length | Unlimited | Distance
    price: Money


class TrainEvent(str, Enum):
    """Events on the first purchase of a train type."""

    close_privates = "close_privates"
    close_player_privates = "close_player_privates"  # privates owned by players close


class Train(Strict):
    """A train type."""

    id: EntityId = Field(description="Train name, e.g. 2, 3, D.")
    distance: Length | Unlimited | Distance = Field(
        description='Stops it may visit: a number, "unlimited", or a table.'
    )
    price: Money = Field(description="Price from the bank.")
    count: Count | Unlimited = Field(description='Copies in the game, or "unlimited".')
    rusts_on: EntityId | None = Field(
        None, description="Train id whose first purchase removes all trains of this type."
    )
    obsolete_on: EntityId | None = Field(
        None, description="Train id whose first purchase makes this type run once more."
    )
    available_on: EntityId | None = Field(
        None,
        description="Phase id from which this train may be bought even if earlier types remain.",
    )
    trade_in: TradeIn | None = Field(None, description="Discount for handing in a train.")
    variants: list[TrainVariant] = Field(
        default_factory=list, description="Other side(s) of a double-sided card."
    )
    events: list[TrainEvent] = Field(
        default_factory=list, description="Events on the first purchase of this type."
    )


class TrainsFile(Strict):
    """trains.toml: the train roster, in the order the bank sells them."""

    trains: list[Train] = Field(min_length=1, description="Train types in sale order.")
