"""The mutable state of one game: plain data, changed in place by apply (copied for snapshots).

Everything that changes during a game lives here (cash, certificates, privates, trains,
market positions, the map, the current round).  The static title lives in
:class:`~eighteen.engine.tables.Tables`.  ``to_dict`` gives a canonical JSON form used by
``state_hash``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, fields, is_dataclass
from typing import Any

# Owners of a certificate besides players
IPO = "ipo"
POOL = "pool"


@dataclass
class PlayerState:
    name: str
    cash: int


@dataclass
class CorporationState:
    id: str
    par: int | None = None  # par price, once started
    cell: list[int] | None = None  # [row, col] on the market, once started
    arrival: int = 0  # when it entered its market cell (operating order ties)
    president: str | None = None
    floated: bool = False
    cash: int = 0
    trains: list[str] = field(default_factory=list)
    tokens_placed: int = 0  # tokens on the map, the home token included
    home_placed: bool = False
    operated: bool = False  # has finished at least one operating turn
    closed: bool = False  # its price reached a closing cell: out of the game


@dataclass
class PrivateState:
    id: str
    owner: str | None = None  # player name or corporation id; None: unsold
    closed: bool = False
    used: list[int] = field(default_factory=list)  # indices of one-shot abilities used


@dataclass
class AuctionRound:
    """Initial private sale (waterfall): normal turns plus auctions among bidders."""

    kind: str = "auction"
    turn: int = 0  # index of the player whose normal turn it is
    passes: int = 0  # consecutive passes in normal turns
    drop: int = 0  # price reduction of the cheapest private after everyone passed
    bids: dict[str, list[list[Any]]] = field(default_factory=dict)  # private -> [[player, $]]
    bidoff: str | None = None  # private auctioned among its bidders
    bidoff_turn: str | None = None  # bidder to act in that auction
    bidoff_passed: list[str] = field(default_factory=list)  # passed since the last raise
    pending_par: list[str] | None = None  # [player, corporation] that must set a par
    settle: bool = False  # everyone passed: every private with bids is being sold
    last_buyer: str | None = None  # who bought the last private sold


@dataclass
class StockRound:
    kind: str = "stock"
    number: int = 1  # stock rounds so far, this one included
    turn: int = 0  # index of the acting player
    passes: int = 0  # consecutive turns that were plain passes
    bought: list[list[str]] = field(default_factory=list)  # this turn: [corp, source]
    acted: bool = False  # the acting player did something this turn
    sold: dict[str, list[str]] = field(default_factory=dict)  # player -> corps sold
    traded: list[str] = field(default_factory=list)  # privates traded between players
    # corporations whose price a president's sale moved this turn (step_if_president)
    sale_dropped: list[str] = field(default_factory=list)
    last_actor: str | None = None
    # a deal between players waiting for the other's answer (rules.deals_need_consent):
    # [the player to answer, the offered action's JSON form]
    deal: list[Any] | None = None
    refused: list[str] = field(default_factory=list)  # deals refused this round (their keys)
    agreed: dict[str, Any] | None = None  # the deal being made, while its answer is applied


@dataclass
class OperatingRound:
    kind: str = "operating"
    number: int = 1  # position in the set of operating rounds
    set_size: int = 1
    order: list[str] = field(default_factory=list)  # corporations, fixed at the start
    index: int = 0  # position in ``order`` of the operating corporation
    step: str = "start"
    lays: int = 0  # normal tile lays made this turn
    ability_lays: list[str] = field(default_factory=list)  # privates used this turn
    tokened: bool = False
    free_token: list[Any] | None = None  # [hex, private] after a tile_lay ability's token
    routes: list[dict[str, Any]] = field(default_factory=list)
    revenue: int | None = None
    new_types: list[str] = field(default_factory=list)  # train types on sale since turn start
    issued: bool = False  # issued or redeemed shares this turn (rules.issue_redeem)
    emergency_issued: bool = False  # made its emergency issue this turn
    ferry_bought: bool = False
    bought_privates: list[str] = field(default_factory=list)  # privates bought this round
    # corporations whose price a president's sale moved this turn (step_if_president)
    sale_dropped: list[str] = field(default_factory=list)
    # a deal between players waiting for the other's answer (rules.deals_need_consent):
    # [the player to answer, the offered action's JSON form]
    deal: list[Any] | None = None
    refused: list[str] = field(default_factory=list)  # deals refused this round (their keys)
    agreed: dict[str, Any] | None = None  # the deal being made, while its answer is applied


Round = AuctionRound | StockRound | OperatingRound


@dataclass
class State:
    players: list[PlayerState]
    corporations: dict[str, CorporationState]
    certs: dict[str, str]  # certificate id -> IPO | POOL | player name
    privates: dict[str, PrivateState]
    bank: int
    depot: list[str]  # unsold trains of limited types, in sale order
    minted: dict[str, int]  # unlimited types: copies made so far
    train_pool: list[str]  # trains discarded to the bank, for sale at list price
    bought_types: list[str]  # train types bought at least once
    phase: int  # index into tables.phases
    round: Any  # AuctionRound | StockRound | OperatingRound
    map: Any  # the map state (tiles and tokens), see engine.network
    stock_rounds: int = 0
    priority: int = 0  # index of the player holding the priority deal
    arrivals: int = 0  # market arrival counter
    bank_broken: bool = False
    game_over: bool = False
    end_reason: str | None = None
    bankrupt: str | None = None  # the player who went bankrupt
    eliminated: list[str] = field(default_factory=list)  # bankrupt players out of the game
    ferries: dict[str, str] = field(default_factory=dict)  # port hex -> owning corporation
    ferry_order: list[str] = field(default_factory=list)  # ports in the order sold
    ferry_boost: dict[str, str] = field(default_factory=dict)  # private -> port it doubles
    # corporations whose home city choice waits for the first tile with track on their home
    home_waiting: list[str] = field(default_factory=list)
    absorbed: dict[str, str] = field(default_factory=dict)  # taken over -> acquirer
    # corporations with a variable home: the hex chosen; the one whose founder picks now
    chosen_homes: dict[str, str] = field(default_factory=dict)
    home_choice: str | None = None

    # -- look-ups ---------------------------------------------------------------------

    def player(self, name: str) -> PlayerState:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def player_index(self, name: str) -> int:
        for i, p in enumerate(self.players):
            if p.name == name:
                return i
        raise KeyError(name)

    def is_player(self, name: str) -> bool:
        # (a list, not a generator expression: compiled, this method is typed)
        return any([p.name == name for p in self.players])

    def copy(self) -> State:
        """An independent copy (faster than copy.deepcopy for this shape): every field set
        on a new instance, its containers copied (see :func:`_make_copier`), the map by
        its own ``copy``."""
        return _copy_state(self)

    def to_dict(self) -> dict[str, Any]:
        """Canonical plain-data form, ``state_hash``'s: every field (made from the
        dataclass's fields, so a field added to the state is in it without being listed),
        a dataclass in it as a dict, the map in its own form (:func:`map_to_dict`)."""
        out: dict[str, Any] = {}
        for name in _STATE_FIELDS:
            v = getattr(self, name)
            if name == "map":
                v = map_to_dict(v)
            elif isinstance(v, list):
                v = [_plain_item(x) for x in v]
            elif isinstance(v, dict):
                v = {k: _plain_item(x) for k, x in v.items()}
            else:
                v = _plain_item(v)  # (the round, a dataclass; the rest atomic)
            out[name] = v
        return out


_ATOMIC = frozenset({str, int, bool, float, type(None)})


#: annotations of fields that never hold a container (they need no copying)
_ATOMIC_TYPES = frozenset(
    {"str", "int", "bool", "float", "str | None", "int | None", "bool | None", "float | None"}
)
#: annotations of flat containers: their items are atomic (the annotation is trusted, as
#: State.copy trusts its own fields'), so a list or dict there is copied with ``.copy()``;
#: a value of another type found there is copied deeply
_FLAT_TYPES = frozenset(
    f"{c}{opt}"
    for c in ("list[str]", "list[int]", "dict[str, str]", "dict[str, int]")
    for opt in ("", " | None")
)
#: dataclass -> (number of fields, flat container fields, other container fields)
_PLANS: dict[type, tuple[int, tuple[str, ...], tuple[str, ...]]] = {}


def _plan(cls: type) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
    """How to copy an instance of a dataclass: (number of fields, names of the fields
    holding flat containers, names of the fields that may hold any container)."""
    got = _PLANS.get(cls)
    if got is None:
        fs = fields(cls)
        flat = tuple(f.name for f in fs if str(f.type) in _FLAT_TYPES)
        deep = tuple(f.name for f in fs if str(f.type) not in _ATOMIC_TYPES and f.name not in flat)
        got = _PLANS[cls] = (len(fs), flat, deep)
    return got


def _clone(obj: Any) -> Any:
    """A deep copy of a dataclass instance holding plain data."""
    copier = _COPIERS.get(type(obj))
    if copier is None:
        copier = _COPIERS[type(obj)] = _make_copier(type(obj))
    return copier(obj)


def _clone_all(obj: Any, own: Mapping[str, Callable[[Any], Any]]) -> Any:
    """A copy of an object with attributes beyond its fields: a field of ``own`` by its
    function, every other attribute deeply."""
    new = object.__new__(type(obj))
    new.__dict__ = {k: own[k](v) if k in own else _deep(v) for k, v in obj.__dict__.items()}
    return new


#: dataclass -> its copier (see :func:`_make_copier`)
_COPIERS: dict[type, Callable[[Any], Any]] = {}


def _make_copier(
    cls: type, own: dict[str, Callable[[Any], Any]] | None = None
) -> Callable[[Any], Any]:
    """A function copying instances of the dataclass ``cls`` by its plan, one statement per
    field (as dataclasses writes ``__init__``): flat containers are copied with ``.copy()``,
    other containers deeply, atomic fields shared; a field of ``own`` by its function.

    A class with no instance dict (the state's classes compiled: native classes, state.pxd;
    or a class with slots) is copied field by field onto a new instance.  Another dataclass
    (the state's classes run from source) is copied by its ``__dict__`` (its attributes
    beyond the fields too, deeply)."""
    n, flat, deep = _plan(cls)
    own = own or {}
    if getattr(cls, "__dictoffset__", 1) == 0:  # slots: no attribute beyond the fields
        lines = ["def copy(obj):", "    new = _new(cls)"]
        for f in fields(cls):
            k = f.name
            if k in own:
                lines += [f"    new.{k} = _own[{k!r}](obj.{k})"]
            elif k in flat:
                lines += [
                    f"    v = obj.{k}",
                    "    t = type(v)",
                    "    if t is list or t is dict:",
                    "        v = v.copy()",
                    "    elif t not in _ATOMIC:",
                    "        v = _deep(v)",
                    f"    new.{k} = v",
                ]
            elif k in deep:
                lines += [f"    v = obj.{k}", "    if type(v) not in _ATOMIC:"]
                lines += ["        v = _deep(v)", f"    new.{k} = v"]
            else:
                lines += [f"    new.{k} = obj.{k}"]
        lines += ["    return new"]
    else:
        lines = [
            "def copy(obj):",
            "    d = obj.__dict__.copy()",
            f"    if len(d) != {n}:",
            "        return _clone_all(obj, _own)",
        ]
        # (a field of ``own`` by its function, as the branch above does; not deeply)
        lines += [
            f"    d[{f.name!r}] = _own[{f.name!r}](d[{f.name!r}])"
            for f in fields(cls)
            if f.name in own
        ]
        flat = tuple(k for k in flat if k not in own)
        deep = tuple(k for k in deep if k not in own)
        for k in flat:
            lines += [
                f"    v = d[{k!r}]",
                "    t = type(v)",
                "    if t is list or t is dict:",
                f"        d[{k!r}] = v.copy()",
                "    elif t not in _ATOMIC:",
                f"        d[{k!r}] = _deep(v)",
            ]
        for k in deep:
            lines += [
                f"    v = d[{k!r}]",
                "    if type(v) not in _ATOMIC:",
                f"        d[{k!r}] = _deep(v)",
            ]
        lines += ["    new = _new(cls)", "    new.__dict__ = d", "    return new"]
    scope: dict[str, Any] = {
        "_clone_all": _clone_all,
        "_ATOMIC": _ATOMIC,
        "_deep": _deep,
        "_new": cls.__new__,  # (a native class's own: object.__new__ refuses it)
        "_own": own,
        "cls": cls,
    }
    exec("\n".join(lines), scope)  # noqa: S102 - code built above from field names only
    return scope["copy"]


def _copy_map(m: Any) -> Any:
    return m.copy() if hasattr(m, "copy") else copy.deepcopy(m)


def _deep(x: Any) -> Any:
    """copy.deepcopy for the plain data of the state (lists, dicts, dataclasses of them),
    faster; anything else goes to copy.deepcopy."""
    t = type(x)
    if t in _ATOMIC:
        return x
    if t is list:
        return [v if type(v) in _ATOMIC else _deep(v) for v in x]
    if t is dict:
        return {k: v if type(v) in _ATOMIC else _deep(v) for k, v in x.items()}
    copier = _COPIERS.get(t)
    if copier is not None:
        return copier(x)
    if is_dataclass(x) and not (t.__dataclass_params__.frozen and t.__dictoffset__ == 0):
        return _clone(x)  # (a frozen one with slots cannot be set field by field)
    return copy.deepcopy(x)


#: State.copy (its map copied by the map's own ``copy``)
_copy_state = _COPIERS[State] = _make_copier(State, {"map": _copy_map})


def _plain_item(x: Any) -> Any:
    """A dataclass instance as a dict (:func:`dataclasses.asdict`), anything else as it is."""
    return asdict(x) if is_dataclass(x) and not isinstance(x, type) else x


#: The fields of :class:`State`, in their order.
_STATE_FIELDS = tuple(f.name for f in fields(State))


def map_to_dict(m: Any) -> Any:
    """Plain-data form of the map state, whatever class the map module uses."""
    if m is None:
        return None
    for name in ("to_dict", "to_json"):
        fn = getattr(m, name, None)
        if callable(fn):
            return fn()
    if is_dataclass(m):
        return asdict(m)  # type: ignore[arg-type]
    return _plain(vars(m))


def _plain(x: Any) -> Any:
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_plain(v) for v in x]
    if isinstance(x, set | frozenset):
        return sorted(_plain(v) for v in x)
    if is_dataclass(x):
        return asdict(x)  # type: ignore[arg-type]
    return x
