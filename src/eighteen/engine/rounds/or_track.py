"""The operating round's tile lays (seed 002; facts §1): each turn the corporation lays
tiles per rules.tile_lays (each lay its fee plus the terrain cost paid by the first tile
over it; a lay may use any unused entry allowing its kind, so seed 003's "one yellow plus
a yellow or an upgrade" may upgrade first; hexes blocked by player-owned privates are
closed) plus its privates' tile_lay and tile_lays powers, some of them at any time
(:class:`AnytimeLay`).  The first tile on a hex places the joint stations set there.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from eighteen.engine import network, privates
from eighteen.engine.actions import Action, IllegalAction, LayTile, Pass
from eighteen.engine.bank import BANK, pay
from eighteen.engine.capabilities import implements
from eighteen.engine.face import TileLay
from eighteen.engine.rounds.base import Step, check_actor
from eighteen.engine.rounds.or_step import ORStep, operating, or_round
from eighteen.title.model import FreeTileLay, TileLays

if TYPE_CHECKING:
    from eighteen.engine.context import Context


def _kind(lay: TileLay) -> str:
    return "upgrade" if lay.upgrade else "new"


def _slot_for(g: Context, kind: str) -> int | None:
    """The first unused lay of rules.tile_lays that allows this kind (``r.lays`` is the
    bitmask of the lays used this turn): seed 003 "one yellow plus a yellow or an
    upgrade" lets the upgrade come first."""
    used = or_round(g).lays
    for i, rule in enumerate(g.rules.tile_lays):
        if not (used >> i) & 1 and kind in rule.kinds:
            return i
    return None


implements("tile_lays[].kinds[]", "new", "upgrade")(_slot_for)  # (typed: a call)


def _slot_fee(g: Context, slot: int | None) -> int:
    return 0 if slot is None else g.rules.tile_lays[slot].cost


def _plain_fees(g: Context) -> dict[str, int]:
    """The fee of a plain lay (no private's) of each kind ("new", "upgrade") the turn
    may still lay: its slot's (:func:`_slot_for`); a kind with no slot left is missing."""
    fees: dict[str, int] = {}
    for kind in ("new", "upgrade"):
        slot = _slot_for(g, kind)
        if slot is not None:
            fees[kind] = _slot_fee(g, slot)
    return fees


def lay_options(
    g: Context, distinct: bool = True
) -> list[tuple[TileLay, int, str | None, int | None]]:
    """(lay, total cost, private used, ability index) for every tile lay possible now."""
    return g.memo(("lays", distinct), _all_lays, g, distinct)


def _all_lays(g: Context, distinct: bool) -> list[tuple[TileLay, int, str | None, int | None]]:
    return list(_lay_options(g, distinct))


def can_lay(g: Context) -> bool:
    """Is any tile lay possible now?  (``bool(lay_options(g))``, stopping at the first.)"""
    # (the answer's function and its argument given, not a closure: compiled, the
    # functions of this module are typed, and a typed function holds no closure)
    return g.memo(("can_lay",), _first_lay, g)


def _first_lay(g: Context) -> bool:
    # the plain lays asked first, without making them (the lays of a turn's slots: a
    # kind's fee is its slot's); then the privates' lays, the only ones made
    corp = operating(g)
    if privates.track_restricted(g, corp):
        return False
    fees = _plain_fees(g)
    if fees and network.any_lay(g, corp, fees, g.state.corporations[corp].cash):
        return True
    return next(_lay_options(g, True, None, False), None) is not None


def _faces(g: Context, lay: TileLay, targets: list[str]) -> bool:
    """Does the laid tile have track toward every hex of ``targets``?"""
    b = network.board(g)
    exits = b.tile_face(lay.hex, lay.tile, lay.rotation).exits
    toward = {b.neighbors[lay.hex][e] for e in exits}
    return all(t in toward for t in targets)


def _lay_options(
    g: Context, distinct: bool, only: tuple[str, str] | None = None, plain: bool = True
) -> Iterator[tuple[TileLay, int, str | None, int | None]]:
    """The lays of :func:`lay_options`, in its order; ``only``: (hex, tile) the lays of
    that tile on that hex (each hex's lays do not depend on the others'); ``plain``
    False: the privates' lays only (:func:`_first_lay` asked for the plain ones)."""
    corp = operating(g)
    if privates.track_restricted(g, corp):
        return
    hexes, tiles = ({only[0]}, {only[1]}) if only else (None, None)
    cash = g.state.corporations[corp].cash
    fees = _plain_fees(g) if plain else {}
    if fees:
        for lay in _options(g, corp, distinct, hexes=hexes, tiles=tiles):
            fee = fees.get(_kind(lay))
            if fee is None:
                continue
            cost = lay.cost + fee
            if cost <= cash:
                yield (lay, cost, None, None)
    r = or_round(g)
    for pid, idx, ab in privates.tile_lay_abilities(g, corp):
        if pid in r.ability_lays:
            continue
        if ab.only_round_bought and pid not in r.bought_privates:
            continue
        extra = ab.extra
        for lay in _options(
            g,
            corp,
            distinct,
            hexes=set(ab.hexes) & hexes if hexes else set(ab.hexes),
            tiles=set(ab.tiles) & tiles if tiles else set(ab.tiles),
            connected=bool(ab.connected),
        ):
            slot = None if extra else _slot_for(g, _kind(lay))
            if not extra and slot is None:
                continue
            cost = 0 if ab.free else lay.cost
            if not ab.waives_lay_cost:
                cost += _slot_fee(g, slot)
            if cost <= cash:
                yield (lay, cost, pid, idx)
    for pid, idx, planned in privates.planned_lay_abilities(g, corp, r.ability_lays):
        yield from _planned(g, corp, distinct, pid, idx, planned, cash, only)


def _planned(
    g: Context,
    corp: str,
    distinct: bool,
    pid: str,
    idx: int,
    ab: TileLays,
    cash: int,
    only: tuple[str, str] | None = None,
) -> list[tuple[TileLay, int, str | None, int | None]]:
    """Lays of a tile_lays power (seed 003, "private companies"): each planned hex once, toward its
    ``toward`` neighbours, joined to the other planned tiles already laid when linked."""
    out: list[tuple[TileLay, int, str | None, int | None]] = []
    laid = [p.hex for p in ab.lays if p.hex in g.state.map.tiles]
    b = network.board(g)
    for plan in ab.lays:
        if plan.hex in g.state.map.tiles:
            continue
        if only and (plan.hex != only[0] or only[1] not in plan.tiles):
            continue
        others = [h for h in laid if h in b.neighbors[plan.hex]] if ab.linked else []
        for lay in _options(
            g,
            corp,
            distinct,
            hexes={plan.hex},
            tiles={only[1]} if only else set(plan.tiles),
            connected=bool(ab.connected),
        ):
            if not _faces(g, lay, [*plan.toward, *others]):
                continue
            cost = 0 if ab.free else lay.cost
            if cost <= cash:
                out.append((lay, cost, pid, idx))
    return out


def _options(g: Context, corp: str, distinct: bool, **kw: Any) -> Iterator[TileLay]:
    return network.iter_lay_options(g, corp, distinct=distinct, **kw)


class Track(ORStep):
    name = "track"
    actions: ClassVar = (LayTile, Pass)

    def active(self, g: Context) -> bool:
        return self.is_current(g) and can_lay(g)

    def legal(self, g: Context) -> list[Action]:
        corp = operating(g)
        out: list[Action] = [
            LayTile(corp, lay.hex, lay.tile, lay.rotation, pid) for lay, _, pid, _ in lay_options(g)
        ]
        return [*out, Pass(corp)]

    def process(self, g: Context, action: Action) -> None:
        check_actor(action, operating(g))
        if isinstance(action, Pass):
            self.done(g)
            return
        assert isinstance(action, LayTile)
        lay_tile(g, action)


def lay_tile(g: Context, action: LayTile, *, anytime_only: bool = False) -> None:
    """Make the lay ``action`` asks for, if it is one of the lays possible now (with
    ``anytime_only``: one of a private's anytime lays); IllegalAction otherwise."""
    match = None
    for lay, cost, pid, idx in _lay_options(g, False, (action.hex, action.tile)):
        if anytime_only and (pid is None or not _anytime(g, pid, idx)):
            continue
        if (lay.hex, lay.tile, lay.rotation % 6, pid) == (
            action.hex,
            action.tile,
            action.rotation % 6,
            action.private,
        ):
            match = (lay, cost, pid, idx)
            break
    if match is None:
        raise IllegalAction(_why(g, action))
    lay, cost, pid, idx = match
    corp = action.actor
    r = or_round(g)
    pay(g, corp, BANK, cost, f"{corp} lays a tile")
    first_tile = lay.hex not in g.state.map.tiles
    network.lay_tile(g, lay.hex, lay.tile, lay.rotation)
    g.note(f"{corp} lays tile {lay.tile} on {lay.hex} (rotation {lay.rotation}) for ${cost}")
    if pid is None:
        r.lays |= 1 << (_slot_for(g, _kind(lay)) or 0)
    else:
        assert idx is not None  # a power's lay names the power
        ab = g.tables.private(pid).abilities[idx]
        if idx not in g.state.privates[pid].used:
            g.state.privates[pid].used.append(idx)
        if pid not in r.ability_lays:
            r.ability_lays.append(pid)
        if isinstance(ab, FreeTileLay | TileLays) and not ab.extra:
            r.lays |= 1 << (_slot_for(g, _kind(lay)) or 0)
        if isinstance(ab, FreeTileLay) and ab.token:
            r.free_token = [lay.hex, pid]
    if first_tile:
        network.place_joint_tokens(g, lay.hex)


def _anytime(g: Context, pid: str, idx: int | None) -> bool:
    if idx is None:
        return False
    ab = g.tables.private(pid).abilities[idx]
    return isinstance(ab, FreeTileLay) and ab.anytime


def _why(g: Context, a: LayTile) -> str:
    if a.private is not None:
        return f"{a.private} cannot lay tile {a.tile} on {a.hex} at rotation {a.rotation} now"
    if all(_slot_for(g, k) is None for k in ("new", "upgrade")):
        return "no tile lay left this turn"
    if a.hex in privates.blocked_hexes(g):
        return f"{a.hex} is blocked by a private company owned by a player"
    return (
        f"tile {a.tile} at rotation {a.rotation} on {a.hex} is not a legal lay now "
        "(phase colour, supply, upgrade, connection or cost)"
    )


class AnytimeLay(Step):
    """A private's extra tile lay usable at any point of the owning corporation's turn
    (tile_lay ``anytime``); in the track step the track step takes it."""

    name = "anytime lay"
    actions: ClassVar = (LayTile,)
    anytime: ClassVar[bool] = True

    def active(self, g: Context) -> bool:
        r = or_round(g)
        if r.index >= len(r.order) or r.step == "track":
            return False
        corp = operating(g)
        return any(ab.anytime and ab.extra for _, _, ab in privates.tile_lay_abilities(g, corp))

    def actor(self, g: Context) -> str | None:
        return None

    def legal(self, g: Context) -> list[Action]:
        corp = operating(g)
        return [
            LayTile(corp, lay.hex, lay.tile, lay.rotation, pid)
            for lay, _, pid, idx in lay_options(g)
            if pid is not None and _anytime(g, pid, idx)
        ]

    def precheck(self, g: Context, action: Action) -> None:
        """The operating corporation acts (the first check of :meth:`process`)."""
        check_actor(action, operating(g))

    def process(self, g: Context, action: Action) -> None:
        assert isinstance(action, LayTile)
        check_actor(action, operating(g))
        lay_tile(g, action, anytime_only=True)
