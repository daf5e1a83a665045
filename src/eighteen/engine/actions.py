"""Actions: small frozen records, each naming its actor, with a JSON form.

Every action a player or corporation takes is one of these.  ``actor`` is a player name
(auction, stock round, a president's emergency sale, a private exchange) or a
corporation id (operating round).  The names follow the 18xx.games log vocabulary so real
games map onto them: bid, par, buy_shares, sell_shares, pass, lay_tile, place_token,
run_routes, dividend, buy_train, discard_train, buy_company, issue_shares, redeem_shares,
buy_ferry, bankrupt.

>>> a = Bid("Ann", "SV", 20)
>>> action_from_json(a.to_json()) == a
True
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar


class IllegalAction(ValueError):
    """An action that the rules forbid now; the message names the rule broken."""


@dataclass(frozen=True)
class Action:
    """Base of every action."""

    type: ClassVar[str] = "action"
    actor: str

    def to_json(self) -> dict[str, Any]:
        """The JSON form: ``{"type": ..., "actor": ..., <fields>}``."""
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, tuple):
                v = [_jsonable(x) for x in v]
            out[f.name] = v
        return out

    def __str__(self) -> str:
        parts = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.name != "actor"]
        return f"{self.actor}: {self.type}({', '.join(parts)})"


def _jsonable(x: Any) -> Any:
    if isinstance(x, RouteSpec):
        return x.to_json()
    if isinstance(x, tuple):
        return [_jsonable(y) for y in x]
    return x


@dataclass(frozen=True)
class Bid(Action):
    """Auction: buy the cheapest unsold private at its price, bid on a later one
    (money set aside), or raise in an auction among a private's bidders."""

    type: ClassVar[str] = "bid"
    private: str
    price: int


@dataclass(frozen=True)
class Par(Action):
    """Start a corporation: set its par price and buy the president's certificate (or,
    when the president's certificate was granted, only set the price)."""

    type: ClassVar[str] = "par"
    corporation: str
    price: int


@dataclass(frozen=True)
class BuyShares(Action):
    """Buy one certificate of a corporation from the IPO (at par) or the pool (at the
    market price)."""

    type: ClassVar[str] = "buy_shares"
    corporation: str
    source: str  # "ipo" | "pool"


@dataclass(frozen=True)
class SellShares(Action):
    """Sell ``percent`` of a corporation to the bank pool (a stock-round sale, or a
    president's emergency sale to fund a train)."""

    type: ClassVar[str] = "sell_shares"
    corporation: str
    percent: int


@dataclass(frozen=True)
class ExchangePrivate(Action):
    """A player exchanges a private (exchange_share ability) for a share; it closes."""

    type: ClassVar[str] = "exchange"
    private: str
    source: str  # "ipo" | "pool"


@dataclass(frozen=True)
class Pass(Action):
    """Decline: end a stock-round turn, pass in the auction, or end an optional
    operating step (track, token, trains, privates)."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True)
class LayTile(Action):
    """Lay or upgrade a tile: ``tile`` at absolute ``rotation`` on ``hex``.  ``private``
    names an owned private whose tile_lay ability is used."""

    type: ClassVar[str] = "lay_tile"
    hex: str
    tile: str
    rotation: int
    private: str | None = None


@dataclass(frozen=True)
class PlaceToken(Action):
    """Place a station token in city ``city`` (index on the hex's tile) of ``hex``."""

    type: ClassVar[str] = "place_token"
    hex: str
    city: int


@dataclass(frozen=True)
class RouteSpec:
    """One train's route: the train id, its track pieces in order (``"H12:c0-e4"``: hex,
    then the two ends of one path, see engine.map.Path), and the revenue claimed.
    ``stops`` (``"G19-c1"``) is informational: the engine derives stops from the paths.
    ``extension``: track pieces continuing the route outwards from its first or last stop
    to an interconnection bonus end (engine.routes.check_extension)."""

    train: str
    paths: tuple[str, ...]
    revenue: int
    stops: tuple[str, ...] = ()
    extension: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "train": self.train,
            "paths": list(self.paths),
            "revenue": self.revenue,
        }
        if self.stops:
            out["stops"] = list(self.stops)
        if self.extension:
            out["extension"] = list(self.extension)
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> RouteSpec:
        return cls(
            train=str(d["train"]),
            paths=tuple(str(p) for p in d["paths"]),
            revenue=int(d["revenue"]),
            stops=tuple(str(x) for x in d.get("stops", [])),
            extension=tuple(str(p) for p in d.get("extension", [])),
        )


@dataclass(frozen=True)
class RunRoutes(Action):
    """Run the corporation's trains on these routes (one per train; may be empty)."""

    type: ClassVar[str] = "run_routes"
    routes: tuple[RouteSpec, ...]


@dataclass(frozen=True)
class Dividend(Action):
    """Pay the revenue out to the shareholders (``payout``), keep it (``withhold``), or
    keep half and pay the rest (``half``, where rules.dividend_options allows it)."""

    type: ClassVar[str] = "dividend"
    kind: str  # "payout" | "half" | "withhold"


@dataclass(frozen=True)
class BuyTrain(Action):
    """Buy a train: from the bank (depot or discards, at list price, ``exchange`` naming
    an own train handed in for a trade-in discount) or from another corporation at any
    agreed price."""

    type: ClassVar[str] = "buy_train"
    train: str
    price: int
    exchange: str | None = None


@dataclass(frozen=True)
class DiscardTrain(Action):
    """Discard a train to the bank after a phase change lowered the train limit."""

    type: ClassVar[str] = "discard_train"
    train: str


@dataclass(frozen=True)
class BuyCompany(Action):
    """The operating corporation buys a private from a player at an agreed price."""

    type: ClassVar[str] = "buy_company"
    private: str
    price: int


@dataclass(frozen=True)
class IssueShares(Action):
    """The operating corporation issues ``count`` treasury shares to the market (also the
    emergency issue before its president pays for a compulsory train)."""

    type: ClassVar[str] = "issue_shares"
    count: int


@dataclass(frozen=True)
class RedeemShares(Action):
    """The operating corporation buys ``count`` of its shares back from the market."""

    type: ClassVar[str] = "redeem_shares"
    count: int


@dataclass(frozen=True)
class BuyFerry(Action):
    """The operating corporation buys the ferry of the port ``port`` from the bank."""

    type: ClassVar[str] = "buy_ferry"
    port: str


@dataclass(frozen=True)
class Bankrupt(Action):
    """The corporation must buy a train and its president cannot raise the money."""

    type: ClassVar[str] = "bankrupt"


@dataclass(frozen=True)
class TradePrivate(Action):
    """Stock round: the acting player sells one of his privates to another player, or buys
    one from its owner, at a price both agreed (the engine records the agreement)."""

    type: ClassVar[str] = "trade_private"
    private: str
    counterparty: str
    price: int


ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (
        Bid,
        Par,
        BuyShares,
        SellShares,
        ExchangePrivate,
        Pass,
        LayTile,
        PlaceToken,
        RunRoutes,
        Dividend,
        BuyTrain,
        DiscardTrain,
        BuyCompany,
        IssueShares,
        RedeemShares,
        BuyFerry,
        TradePrivate,
        Bankrupt,
    )
}


def action_from_json(d: dict[str, Any]) -> Action:
    """Rebuild an action from its JSON form; raises IllegalAction when malformed."""
    try:
        cls = ACTION_TYPES[d["type"]]
    except KeyError:
        raise IllegalAction(f"unknown action type {d.get('type')!r}") from None
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in d:
            continue
        v = d[f.name]
        if f.name == "routes":
            v = tuple(RouteSpec.from_json(r) for r in v)
        kwargs[f.name] = v
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise IllegalAction(f"malformed {d['type']} action: {exc}") from None
