"""Typed models of privates.toml."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    Field,
)

from eighteen.title.model.common import (
    MAX_COUNT,
    EntityId,
    HexId,
    Money,
    PositiveMoney,
    Strict,
)


class BlockHexes(Strict):
    """No corporation may lay track on these hexes while a player owns the private."""

    type: Literal["block_hexes"]
    hexes: list[HexId] = Field(min_length=1, description="Blocked hexes.")


class FreeTileLay(Strict):
    """The owning corporation may lay one of these tiles on a hex, once."""

    type: Literal["tile_lay"]
    hexes: list[HexId] = Field(min_length=1, description="Where the tile may go.")
    tiles: list[EntityId] = Field(min_length=1, description="Tiles it may lay.")
    extra: bool = Field(
        True, description="true: in addition to the normal lay; false: it is the normal lay."
    )
    connected: bool = Field(False, description="Must the hex be connected to the network?")
    free: bool = Field(False, description="true: no terrain cost.")
    token: bool = Field(
        False, description="Then, at once, a free token there, unconnected (or a pass declines it)."
    )
    waives_lay_cost: bool = Field(
        False, description="true: no tile-lay fee either (rules.tile_lays cost)."
    )
    only_round_bought: bool = Field(
        False, description="Usable only in the operating round the corporation bought it."
    )
    anytime: bool = Field(
        False,
        description="With extra: usable at any point of the owning corporation's operating "
        "turn, not only in its track step.",
    )


class GrantShare(Strict):
    """Whoever buys the private receives a share of a corporation for free."""

    type: Literal["grant_share"]
    corporation: EntityId
    president: bool = Field(
        False, description="The president's certificate (the buyer then sets the par price)."
    )


class ExchangeShare(Strict):
    """The owning player may exchange the private for a share; the private then closes."""

    type: Literal["exchange_share"]
    corporation: EntityId
    from_: list[Literal["ipo", "pool"]] = Field(
        alias="from", description="Where the share may come from."
    )


class CloseOnTrain(Strict):
    """The private closes when this corporation buys its first train."""

    type: Literal["close_on_train"]
    corporation: EntityId


class NoSaleToCorporation(Strict):
    """The private may never be sold to a corporation."""

    type: Literal["no_sale_to_corporation"]


class PlannedLay(Strict):
    """One tile of a tile_lays power."""

    hex: HexId = Field(description="Where this tile goes.")
    tiles: list[EntityId] = Field(min_length=1, description="Tiles it may be.")
    toward: list[HexId] = Field(
        default_factory=list, description="Neighbours the tile must have track toward."
    )


class TileLays(Strict):
    """The owning corporation may lay up to these tiles, once, in one operating turn."""

    type: Literal["tile_lays"]
    lays: list[PlannedLay] = Field(min_length=1, description="The tiles, one per hex.")
    linked: bool = Field(True, description="If more than one is laid, they must join.")
    extra: bool = Field(True, description="In addition to the normal lays.")
    connected: bool = Field(False, description="Must the hexes connect to the network?")
    free: bool = Field(True, description="No terrain cost.")
    waives_lay_cost: bool = Field(True, description="No tile-lay fee.")


class VirtualStation(Strict):
    """The owning corporation acts as if it had a station in this (off-board) hex."""

    type: Literal["virtual_station"]
    hex: HexId = Field(description="Where the virtual station is.")
    lay_track: bool = Field(True, description="Track may be laid from it.")
    run: bool = Field(True, description="Routes may start from it.")


class ExclusiveHexes(Strict):
    """Only the owning corporation may run routes to these hexes."""

    type: Literal["exclusive_hexes"]
    hexes: list[HexId] = Field(min_length=1, description="The reserved hexes.")


class BonusMultiplier(Strict):
    """The owning corporation earns these connection bonuses multiplied."""

    type: Literal["bonus_multiplier"]
    bonuses: list[EntityId] = Field(min_length=1, description="Bonus ids (map.toml).")
    factor: int = Field(2, ge=2, le=5, description="Multiplier.")
    phases: list[EntityId] = Field(
        default_factory=list, description="Phases in which it applies; empty: always."
    )


class FerryMultiplier(Strict):
    """Multiplies the value of some of the owning corporation's ferries."""

    type: Literal["ferry_multiplier"]
    factor: int = Field(2, ge=2, le=5, description="Multiplier.")
    ferries: int = Field(
        1, ge=1, le=MAX_COUNT, description="How many of its ferries it applies to."
    )
    with_bonuses: bool = Field(True, description="Also multiplies a new/last ferry bonus.")
    movable: bool = Field(False, description="May it move to another ferry once assigned?")


class PurchaseFee(Strict):
    """A corporation buying this private also pays this to the bank."""

    type: Literal["purchase_fee"]
    amount: Money = Field(description="Paid to the bank on top of the price.")


class RestrictCorporation(Strict):
    """While a player owns the private, a corporation is held back."""

    type: Literal["restrict_corporation"]
    corporation: EntityId = Field(description="The corporation held back.")
    no_track_phases: list[EntityId] = Field(
        default_factory=list, description="Phases in which it may lay no track."
    )
    no_routes_until_upgraded: HexId | None = Field(
        None, description="It runs no route while this hex still shows its printed face."
    )


Ability = Annotated[
    BlockHexes
    | FreeTileLay
    | GrantShare
    | ExchangeShare
    | CloseOnTrain
    | NoSaleToCorporation
    | TileLays
    | VirtualStation
    | ExclusiveHexes
    | BonusMultiplier
    | FerryMultiplier
    | PurchaseFee
    | RestrictCorporation,
    Field(discriminator="type"),
]


class Private(Strict):
    """A private company."""

    id: EntityId = Field(description="Short name, e.g. SV.")
    name: str = Field(min_length=1)
    value: PositiveMoney = Field(description="Face value (price in the auction).")
    revenue: Money = Field(description="Paid to the owner every operating round.")
    abilities: list[Ability] = Field(default_factory=list, description="Typed powers.")
    closes_on: EntityId | None = Field(
        None, description="Phase on whose start it closes, whoever owns it."
    )
    flips_on: EntityId | None = Field(
        None,
        description="Phase from whose start it pays no revenue but keeps its powers "
        "(a corporation owns it; player-owned ones close by the phase event).",
    )


class PrivatesFile(Strict):
    """privates.toml: private companies, in auction order."""

    privates: list[Private] = Field(default_factory=list)
