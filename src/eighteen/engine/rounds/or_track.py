"""Operating-round steps on the map: home token, tile lays, station tokens.

Seed 002 ("tokens"; facts §1): the home token is placed free when the corporation first
operates (its president picks the city on a multi-city home hex with no fixed city); each
turn the corporation lays tiles per rules.tile_lays (each lay its fee plus the terrain
cost paid by the first tile over it; a lay may use any unused entry allowing its kind, so
seed 003's "one yellow plus a yellow or an upgrade" may upgrade first; hexes blocked by
player-owned privates are closed) plus its privates' tile_lay and tile_lays powers; then
it may place one station token, paying the next cost on its charter (or its
``station_costs`` price there), in a city its network reaches and no other corporation's
reservation holds.  The first tile on a hex places the joint stations set there.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar, cast

from eighteen.engine import network, privates
from eighteen.engine.actions import Action, IllegalAction, LayTile, Pass, PlaceToken
from eighteen.engine.bank import BANK, pay
from eighteen.engine.capabilities import implements
from eighteen.engine.face import TileLay
from eighteen.engine.rounds.base import Step, check_actor
from eighteen.engine.state import OperatingRound
from eighteen.title.model import FreeTileLay, TileLays

if TYPE_CHECKING:
    from eighteen.engine.context import Context


def _r(g: Context) -> OperatingRound:
    return g.state.round


def operating(g: Context) -> str:
    r = g.state.round
    return r.order[r.index]


class ORStep(Step):
    """A sequential step of a corporation's turn (active only while it is current)."""

    #: Is the step active only while it is current (:meth:`is_current`: every ``active``
    #: of such a step asks it first)?  A step taking actions at other times of the turn
    #: (an ``anytime`` step) says False.
    current_only: ClassVar[bool] = True

    def is_active(self, g: Context) -> bool:
        """:meth:`Step.is_active`, with the answer for a step that is not the one served
        nor opened with it found at once (False, when :attr:`current_only`): the round
        asks every step before the served one, and that question is not worth caching."""
        return _is_active(self, g)

    def precheck(self, g: Context, action: Action) -> None:
        """The operating corporation acts (the first check of :meth:`process`)."""
        check_actor(action, operating(g))

    def is_current(self, g: Context) -> bool:
        """The step being served, or one opened with it (:meth:`opened`)."""
        return _is_current(self, g)

    def opened(self, g: Context) -> bool:
        """Does this step take its actions while an earlier step of its group in
        rules.turn_any_order is served (the steps of a group come in any order)?  The
        operating round registers it for the names of its turn's steps."""
        return _opened(self, g)

    def actor(self, g: Context) -> str | None:
        return operating(g)

    def skip(self, g: Context) -> None:
        """Automatic effects when the step is passed over without an action."""

    def done(self, g: Context) -> None:
        """Leave this step: the next one becomes current (a step opened while an earlier
        one is served leaves nothing: the served step goes on)."""
        if _r(g).step == self.name:
            g.next_or_step()


# (ORStep's questions as module functions: compiled, or_track.pxd types them over the game
# and the operating round, whose fields they read as struct fields)


def _is_active(step: ORStep, g: Context) -> bool:
    """:meth:`ORStep.is_active`."""
    if step.current_only:  # (the test of is_current, inline: asked of every step)
        r = g.state.round
        if r.step != step.name and not step.opened(g):
            return False
    return g.step_active(step)


def _is_current(step: ORStep, g: Context) -> bool:
    """:meth:`ORStep.is_current`."""
    r = g.state.round
    return (
        r.index < len(r.order)
        and (r.step == step.name or step.opened(g))
        and not g.pending_discard()
    )


def _opened(step: ORStep, g: Context) -> bool:
    """:meth:`ORStep.opened`."""
    r = g.state.round
    turn_any_order = g.rules.turn_any_order
    if not turn_any_order:
        return False  # (the usual case: a turn's steps in their order)
    name = r.step
    # (the rules keep the steps' values, plain names: Rules has use_enum_values)
    for group in cast(list[list[str]], turn_any_order):
        if step.name in group and name in group:
            return group.index(name) < group.index(step.name)
    return False


# -- home token -------------------------------------------------------------------------


def place_home(g: Context, corp: str, hex_id: str, city: int) -> None:
    network.place_station(g, corp, hex_id, city)
    g.state.corporations[corp].home_placed = True
    g.note(f"{corp} places its home token in {hex_id}")


class HomeToken(ORStep):
    name = "home"
    actions: ClassVar = (PlaceToken,)

    def active(self, g: Context) -> bool:
        if not self.is_current(g):
            return False
        cs = g.state.corporations[operating(g)]
        return not cs.home_placed and len(network.home_options(g, operating(g))) > 1

    def legal(self, g: Context) -> list[Action]:
        corp = operating(g)
        return [PlaceToken(corp, h, c) for h, c in network.home_options(g, corp)]

    def skip(self, g: Context) -> None:
        corp = operating(g)
        cs = g.state.corporations[corp]
        if cs.home_placed or corp in g.state.home_waiting:
            return
        if network.board(g).home_waits(g.state.map, corp):
            g.state.home_waiting.append(corp)
            g.note(f"{corp}'s home city is chosen once a tile with track lies on its home hex")
            return
        opts = network.home_options(g, corp)
        if len(opts) == 1:
            place_home(g, corp, *opts[0])
        else:
            cs.home_placed = True  # nowhere to go: the reservation lapses
            g.note(f"{corp} finds no room for its home token")

    def process(self, g: Context, action: Action) -> None:
        assert isinstance(action, PlaceToken)
        check_actor(action, operating(g))
        if (action.hex, action.city) not in network.home_options(g, action.actor):
            raise IllegalAction(f"{action.hex} city {action.city} is not a home city option")
        place_home(g, action.actor, action.hex, action.city)
        self.done(g)


def due_home(g: Context) -> str | None:
    """The first corporation whose home choice waited (:class:`HomeToken`) and whose home
    hex now has a tile with track: it places its home token before anything else."""
    for corp in g.state.home_waiting:
        if not network.board(g).home_waits(g.state.map, corp):
            return corp
    return None


class PendingHome(Step):
    """A waiting home choice falls due (seed 002: a home picked among two cities): as soon as a tile with track lies
    on the home hex, whoever's turn it is, the corporation picks its home city."""

    name = "pending_home"
    actions: ClassVar = (PlaceToken,)
    cheap = True

    def active(self, g: Context) -> bool:
        return bool(g.state.home_waiting) and due_home(g) is not None

    def actor(self, g: Context) -> str | None:
        return due_home(g)

    def legal(self, g: Context) -> list[Action]:
        corp = due_home(g)
        assert corp is not None
        return [PlaceToken(corp, h, c) for h, c in network.home_options(g, corp)]

    def process(self, g: Context, action: Action) -> None:
        assert isinstance(action, PlaceToken)
        corp = due_home(g)
        check_actor(action, corp)
        if (action.hex, action.city) not in network.home_options(g, action.actor):
            raise IllegalAction(f"{action.hex} city {action.city} is not a home city option")
        g.state.home_waiting.remove(action.actor)
        place_home(g, action.actor, action.hex, action.city)


def free_station_due(g: Context) -> str | None:
    """The private whose free station the operating corporation must now place or
    decline (:class:`FreeStation`), if any."""
    pending = _r(g).free_token
    return str(pending[1]) if pending and free_station_options(g) else None


class FreeStation(Step):
    """Right after a private's tile lay with ``token``, the operating corporation places
    one of its stations in the new city free and without a connection, or passes and so
    declines it (18xx.games: the company's pass); before anything else of its turn.  The
    free station is not the turn's own: that one may follow, at its price."""

    name = "free_station"
    actions: ClassVar = (PlaceToken, Pass)
    cheap = True

    def active(self, g: Context) -> bool:
        return free_station_due(g) is not None

    def actor(self, g: Context) -> str | None:
        return operating(g)

    def legal(self, g: Context) -> list[Action]:
        corp = operating(g)
        return [*(PlaceToken(corp, h, c) for h, c in free_station_options(g)), Pass(corp)]

    def process(self, g: Context, action: Action) -> None:
        corp = operating(g)
        check_actor(action, corp)
        r = _r(g)
        assert r.free_token is not None  # (active: free_station_due)
        hex_id, private = r.free_token
        if isinstance(action, PlaceToken):
            if (action.hex, action.city) not in free_station_options(g):
                raise IllegalAction(
                    f"{corp}'s free station goes in {hex_id}, not in "
                    f"{action.hex} city {action.city}"
                )
            network.place_station(g, corp, action.hex, action.city)
            g.note(f"{corp} places a free token in {action.hex} ({private})")
        else:
            g.note(f"{corp} declines the free token of {private}")
        r.free_token = None


def settle_due_homes(g: Context) -> None:
    """Due homes with one city left to choose are placed at once; a due home with no room
    lapses (the corporation is left without a home token)."""
    while (corp := due_home(g)) is not None:
        opts = network.home_options(g, corp)
        if len(opts) > 1:
            return
        g.state.home_waiting.remove(corp)
        if opts:
            place_home(g, corp, *opts[0])
        else:
            g.state.corporations[corp].home_placed = True
            g.note(f"{corp} finds no room for its home token")


# -- track --------------------------------------------------------------------------------


def _kind(lay: TileLay) -> str:
    return "upgrade" if lay.upgrade else "new"


def _slot_for(g: Context, kind: str) -> int | None:
    """The first unused lay of rules.tile_lays that allows this kind (``r.lays`` is the
    bitmask of the lays used this turn): seed 003 "one yellow plus a yellow or an
    upgrade" lets the upgrade come first."""
    used = _r(g).lays
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
    r = _r(g)
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
    r = _r(g)
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
        r = _r(g)
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


# -- tokens -----------------------------------------------------------------------------


def next_token_cost(g: Context, corp: str, hex_id: str | None = None) -> int | None:
    """Cost of the corporation's next station (None: none left); a ``station_costs``
    entry for the hex replaces it (seed 003: a cheaper station in a reserved city).  A
    home token still waiting for its city (:class:`HomeToken`) keeps the charter's first
    token: the others are the later ones."""
    cs = g.state.corporations[corp]
    row = g.tables.corporation(corp)
    costs = row.tokens
    used = cs.tokens_placed + (corp in g.state.home_waiting)
    if used >= len(costs):
        return None
    special = (row.station_costs or {}).get(hex_id or "")
    return int(special) if special is not None else int(costs[used])


def token_options(g: Context) -> list[tuple[str, int, int]]:
    """(hex, city, cost) of the stations the corporation may place now as its turn's own."""
    return g.memo("tokens", _all_tokens, g)


def _all_tokens(g: Context) -> list[tuple[str, int, int]]:
    return list(_token_options(g))


def can_token(g: Context) -> bool:
    """May the corporation place a station token now?  (``bool(token_options(g))``,
    stopping at the first.)"""
    return g.memo(("can_token",), _first_token, g)


def _first_token(g: Context) -> bool:
    return next(_token_options(g), None) is not None


def _token_options(g: Context) -> Iterator[tuple[str, int, int]]:
    """The options of :func:`token_options`, one by one, in its order: the turn's own
    station (a power's free station is :class:`FreeStation`'s, decided before)."""
    corp = operating(g)
    r = _r(g)
    cost = next_token_cost(g, corp)
    if cost is None or r.tokened or not _may_afford(g, corp, cost):
        return
    for h, c in network.token_options(g, corp):
        here = next_token_cost(g, corp, h)
        if here is not None and here <= g.state.corporations[corp].cash:
            yield (h, c, here)


def free_station_options(g: Context) -> list[tuple[str, int]]:
    """The (hex, city) where the operating corporation may place the free station a
    private's tile lay left pending (tile_lay ``token``): the laid hex's cities with
    room, connected or not, while it has a station left."""
    r = _r(g)
    if not r.free_token:
        return []
    corp = operating(g)
    if next_token_cost(g, corp) is None:
        return []
    hexes = {str(r.free_token[0])}
    return list(network.token_options(g, corp, hexes=hexes, connected=False))


def _may_afford(g: Context, corp: str, cost: int) -> bool:
    """May the corporation pay for some station: its next charter ``cost``, or a cheaper
    ``station_costs`` price (:func:`next_token_cost`)?  When not, no city its network
    reaches is an option, and the network is not asked."""
    special = (g.tables.corporation(corp).station_costs or {}).values()
    cash = g.state.corporations[corp].cash
    # (a list, not a generator expression: compiled, this function is typed, no closure)
    return cost <= cash or any([int(price) <= cash for price in special])


class Token(ORStep):
    name = "token"
    actions: ClassVar = (PlaceToken, Pass)

    def active(self, g: Context) -> bool:
        return self.is_current(g) and can_token(g)

    def legal(self, g: Context) -> list[Action]:
        corp = operating(g)
        out: list[Action] = [PlaceToken(corp, h, c) for h, c, _ in token_options(g)]
        return [*out, Pass(corp)]

    def process(self, g: Context, action: Action) -> None:
        check_actor(action, operating(g))
        if isinstance(action, Pass):
            self.done(g)
            return
        assert isinstance(action, PlaceToken)
        for h, c, cost in token_options(g):
            if (h, c) == (action.hex, action.city):
                corp = action.actor
                pay(g, corp, BANK, cost, f"{corp} places a token")
                network.place_station(g, corp, h, c)
                g.note(f"{corp} places a token in {h} for ${cost}")
                _r(g).tokened = True
                return
        raise IllegalAction(
            f"{action.actor} cannot place a token in {action.hex} city {action.city} now "
            "(one per turn, reached by its network, a free slot, no token there yet, cash)"
        )
