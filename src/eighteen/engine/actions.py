"""Actions: small frozen records, each naming its actor, with a JSON form.

Every action a player or corporation takes is one of these.  ``actor`` is a player name
(auction, stock round, a president's emergency sale, a private exchange) or a
corporation id (operating round).  The names follow the 18xx.games log vocabulary so real
games map onto them: bid, par, buy_shares, sell_shares, pass, lay_tile, place_token,
run_routes, dividend, buy_train, discard_train, buy_company, issue_shares, redeem_shares,
buy_ferry, bankrupt (and take_over, answer_takeover for takeover rounds; answer_deal, the
other player's answer to a deal offered to him, is ours).

>>> a = Bid("Ann", "SV", 20)
>>> action_from_json(a.to_json()) == a
True
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar


class IllegalAction(ValueError):
    """An action that the rules forbid now; the message names the rule broken."""


#: Largest whole number an action may carry (money, counts, indexes): 2**53 - 1, the
#: largest integer every JSON reader keeps exactly.
MAX_INT = 2**53 - 1

#: Fields with a narrower range than 0..MAX_INT.
_RANGES: dict[str, tuple[int, int]] = {"rotation": (0, 5), "count": (1, MAX_INT)}

#: Longest id or name an action may carry.
MAX_TEXT = 200

#: Action class -> [(field, annotation)], built on first use.
_PLANS: dict[type, list[tuple[str, str]]] = {}


def _check_text(cls: str, name: str, v: Any, optional: bool = False) -> None:
    if v is None and optional:
        return
    if not isinstance(v, str):
        raise IllegalAction(f"{cls}.{name} must be text, not {type(v).__name__} {v!r:.40}")
    if not v or len(v) > MAX_TEXT:
        raise IllegalAction(f"{cls}.{name} must be 1 to {MAX_TEXT} characters")


def _check_int(cls: str, name: str, v: Any) -> None:
    if isinstance(v, bool) or not isinstance(v, int):
        raise IllegalAction(
            f"{cls}.{name} must be a whole number, not {type(v).__name__} {v!r:.40}"
        )
    lo, hi = _RANGES.get(name, (0, MAX_INT))
    if not lo <= v <= hi:
        raise IllegalAction(f"{cls}.{name} must be from {lo} to {hi}, not {v}")


@dataclass(frozen=True)
class Action:
    """Base of every action."""

    type: ClassVar[str] = "action"
    actor: str

    def check(self) -> None:
        """Refuse (IllegalAction naming the field) a field of the wrong type or range:
        ids and names are non-empty text, money, counts and indexes whole numbers (never
        a float or a bool) from 0 (a rotation 0-5, a count from 1).  Asked by
        ``Game.apply`` before any rule runs."""
        name = type(self).__name__
        plan = _PLANS.get(type(self))
        if plan is None:
            if ACTION_TYPES.get(self.type) is not type(self):  # (asked once per class)
                raise IllegalAction(
                    f"{name} is not one of the engine's actions (a save could not hold it): "
                    f"use {', '.join(sorted(c.__name__ for c in ACTION_TYPES.values()))}"
                )
            plan = _PLANS[type(self)] = [
                (f.name, f.type if isinstance(f.type, str) else f.type.__name__)
                for f in fields(self)
            ]
        for field_name, kind in plan:
            v = getattr(self, field_name)
            if kind == "str":
                _check_text(name, field_name, v)
            elif kind == "str | None":
                _check_text(name, field_name, v, optional=True)
            elif kind == "int":
                _check_int(name, field_name, v)
            elif kind == "bool" and not isinstance(v, bool):
                raise IllegalAction(f"{name}.{field_name} must be true or false, not {v!r:.40}")
            elif field_name == "routes":
                if not isinstance(v, tuple) or not all(isinstance(r, RouteSpec) for r in v):
                    raise IllegalAction(f"{name}.routes must be a list of routes")
                for r in v:
                    r.check()

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
    then the two ends of one path, see engine.face.Path), and the revenue claimed.
    ``stops`` (``"G19-c1"``) is informational: the engine derives stops from the paths.
    ``extension``: track pieces continuing the route outwards from its first or last stop
    to an interconnection bonus end (engine.route_check.check_extension)."""

    train: str
    paths: tuple[str, ...]
    revenue: int
    stops: tuple[str, ...] = ()
    extension: tuple[str, ...] = ()

    def check(self) -> None:
        """Refuse a route of the wrong shape (see :meth:`Action.check`)."""
        _check_text("RouteSpec", "train", self.train)
        _check_int("RouteSpec", "revenue", self.revenue)
        for name in ("paths", "stops", "extension"):
            v = getattr(self, name)
            if not isinstance(v, tuple) or not all(isinstance(x, str) for x in v):
                raise IllegalAction(f"RouteSpec.{name} must be a list of text")

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
    def from_json(cls, d: Any) -> RouteSpec:
        """A route from its JSON form; IllegalAction naming the field when malformed."""
        if not isinstance(d, dict):
            raise IllegalAction(f"a route must be an object, not {type(d).__name__}")
        for key in ("train", "paths", "revenue"):
            if key not in d:
                raise IllegalAction(f"a route needs {key!r}")
        extra = [k for k in d if k not in _ROUTE_FIELDS]
        if extra:  # (as an action's unknown field: a misspelt key is not dropped)
            raise IllegalAction(f"a route has no field {extra[0]!r:.60}")
        lists = {}
        for key in ("paths", "stops", "extension"):
            v = d.get(key, [])
            if not isinstance(v, list):
                raise IllegalAction(f"RouteSpec.{key} must be a list of text")
            lists[key] = tuple(v)
        spec = cls(
            train=d["train"],
            paths=lists["paths"],
            revenue=d["revenue"],
            stops=lists["stops"],
            extension=lists["extension"],
        )
        spec.check()
        return spec


_ROUTE_FIELDS = frozenset({"train", "paths", "revenue", "stops", "extension"})


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
class ChooseFerry(Action):
    """The corporation names the ferry (by port) its ferry_multiplier private multiplies,
    when it holds the private and more than one ferry."""

    type: ClassVar[str] = "choose_ferry"
    private: str
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


@dataclass(frozen=True)
class TakeOver(Action):
    """Takeover round: the acting corporation takes ``target`` over, giving up to
    ``shares`` of its treasury shares and cash for the rest (rules.takeovers)."""

    type: ClassVar[str] = "take_over"
    target: str
    shares: int = 0


@dataclass(frozen=True)
class AnswerTakeover(Action):
    """Takeover round: the target of a takeover offer accepts or refuses it."""

    type: ClassVar[str] = "answer_takeover"
    accept: bool


@dataclass(frozen=True)
class AnswerDeal(Action):
    """The other player of a deal offered to him (rules.deals_need_consent) accepts it, and
    it is made as offered, or refuses it."""

    type: ClassVar[str] = "answer_deal"
    accept: bool


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
        ChooseFerry,
        TradePrivate,
        Bankrupt,
        TakeOver,
        AnswerTakeover,
        AnswerDeal,
    )
}


def action_from_json(d: Any) -> Action:
    """Rebuild an action from its JSON form; raises IllegalAction naming the field when
    malformed (unknown type or field, missing field, wrong type or range)."""
    if not isinstance(d, dict):
        raise IllegalAction(f"an action must be an object, not {type(d).__name__}")
    t = d.get("type")
    cls = ACTION_TYPES.get(t) if isinstance(t, str) else None
    if cls is None:
        raise IllegalAction(f"unknown action type {t!r:.60}")
    known = {f.name for f in fields(cls)}
    extra = sorted(str(k) for k in d if k != "type" and k not in known)
    if extra:
        raise IllegalAction(f"{t} has no field {extra[0]!r:.60}")
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in d:
            continue
        v = d[f.name]
        if f.name == "routes":
            if not isinstance(v, list):
                raise IllegalAction(f"{t}.routes must be a list of routes")
            v = tuple(RouteSpec.from_json(r) for r in v)
        kwargs[f.name] = v
    try:
        action = cls(**kwargs)
    except TypeError:
        missing = sorted(known - set(kwargs) - {"private", "exchange"})
        raise IllegalAction(
            f"malformed {t} action: missing {', '.join(missing) or 'fields'}"
        ) from None
    action.check()
    return action
