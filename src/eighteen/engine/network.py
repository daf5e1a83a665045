"""The map as the rounds use it: a thin adapter over the board (engine.map) and the route
modules (engine.route_check, engine.route_network, engine.routefinder).

It turns game state (phase, blocked hexes, tile supply, home reservations, trains) into
the arguments of :class:`~eighteen.engine.map.Board` and the route functions, so the
rounds never deal with track themselves.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from eighteen.engine import ferries, phases, privates, trains
from eighteen.engine.actions import RouteSpec
from eighteen.engine.face import TileLay
from eighteen.engine.map import NOT_KEPT, Board
from eighteen.engine.position import MapState
from eighteen.engine.route_check import check_routes
from eighteen.engine.route_network import has_route
from eighteen.engine.routefinder import RouteResult, optimize
from eighteen.engine.routes import Bonus, Route, RouteError, TrainRule, table_bonuses
from eighteen.title.model import COLOR_ORDER

if TYPE_CHECKING:
    from eighteen.engine.context import Context
    from eighteen.engine.tables import Tables


def board(g: Context) -> Board:
    """The static board of the title (built once per tables object)."""
    return board_of(g.tables)


def board_of(tables: Tables) -> Board:
    """The static board of these tables, made the first time it is asked for (so the
    caches it keeps serve every game played with them)."""
    b = getattr(tables, "_board", None)
    if b is None:
        b = Board.of(tables.doc)
        b.prepare()
        tables._board = b  # type: ignore[attr-defined]
    return b


def new_map() -> MapState:
    return MapState()


def tile_supply(g: Context) -> dict[str, int | None]:
    """Tiles left in the supply (None = unlimited): the manifest minus tiles on the map
    (counted once per tile layout: do not mutate the result)."""
    b = board(g)
    m = g.state.map
    key = m.track_key()
    found = b._kept("tile_supply", key)
    if found is NOT_KEPT:  # (asked without a closure: compiled, this function is typed)
        found = b._keep("tile_supply", key, _tile_supply(g, b, m))
    return found


def _tile_supply(g: Context, b: Board, m: MapState) -> dict[str, int | None]:
    """:func:`tile_supply` counted: from the supply kept for the layout before the last
    lay when there is one (:meth:`MapState.track_step`: the tile taken up goes back, the
    tile laid leaves), else from the manifest and every laid tile."""
    step = m.track_step()
    if step is not None:
        before = b._kept("tile_supply", step[0])
        if before is not NOT_KEPT:
            out: dict[str, int | None] = dict(before)
            old, new = step[2], step[3]
            if old is not None:
                n = out.get(old[0])
                if n is not None:
                    out[old[0]] = n + 1
            n = out.get(new[0])
            if n is not None:
                out[new[0]] = n - 1
            return out
    out = dict(g.tables.tile_counts)
    for t, _ in m.tiles.values():
        n = out.get(t)
        if n is not None:
            out[t] = n - 1
    return out


def reserved(g: Context) -> dict[str, list[str]]:
    """Hexes with a slot held for a corporation: homes not placed yet (with
    rules.home_token_reserved), and ``reservations`` (seed 003; with ``from_color`` only
    once a tile of that colour lies there) until their ``ends_on`` phase or until the holder has
    a station there."""
    out: dict[str, list[str]] = {}
    homes_held = g.rules.home_token_reserved
    for cid, home, reservations in g.tables.homes:
        cs = g.state.corporations[cid]
        if cs.closed:
            continue
        if homes_held and not cs.home_placed and home:
            out.setdefault(home, []).append(cid)
        for res in reservations:
            h = res.hex
            if phases.reached(g, res.ends_on) or _has_station(g, cid, h):
                continue
            if res.from_color and not _color_at_least(g, h, res.from_color):
                continue
            out.setdefault(h, []).append(cid)
    return out


def _has_station(g: Context, corp: str, hex_id: str) -> bool:
    return any(corp in toks for toks in g.state.map.tokens.get(hex_id, []))


def _color_at_least(g: Context, hex_id: str, color: str) -> bool:
    order = COLOR_ORDER
    laid = g.state.map.tiles.get(hex_id)
    if laid is None:
        return False
    now = g.tables.doc.tiles[laid[0]].color.value
    return now in order and order.index(now) >= order.index(color)


def remove_tokens(g: Context, corp: str) -> None:
    """Take every station of ``corp`` off the map (it closed)."""
    for cities in g.state.map.tokens.values():
        for toks in cities:
            while corp in toks:
                toks.remove(corp)


def place_joint_tokens(g: Context, hex_id: str) -> None:
    """The first tile on a hex places the joint stations set there (corporations'
    ``joint_token``, seed 003): one station of both
    corporations in the first city."""
    for corp, jt in g.tables.joint_tokens:
        if jt.hex != hex_id or jt.when != "first_tile":
            continue
        owners = [cid for cid in (corp, jt.partner) if not g.state.corporations[cid].closed]
        face = board(g).face(g.state.map, hex_id)
        if not owners or not face.cities:
            continue
        cities = g.state.map.tokens.setdefault(hex_id, [[] for _ in face.cities])
        cities[0].extend(o for o in owners if o not in cities[0])
        g.note(f"the joint station of {' and '.join(owners)} is placed in {hex_id}")


def lay_options(g: Context, corp: str, **kw: Any) -> list[TileLay]:
    """Legal tile lays for ``corp``, as a list (see :func:`iter_lay_options`)."""
    return list(iter_lay_options(g, corp, **kw))


def iter_lay_options(
    g: Context,
    corp: str,
    *,
    hexes: set[str] | None = None,
    tiles: set[str] | None = None,
    connected: bool = True,
    blocked: bool = True,
    distinct: bool = True,
) -> Iterator[TileLay]:
    """Legal tile lays for ``corp`` in the current phase, one by one (``distinct``: one
    rotation per distinct track layout); its network also starts at its virtual stations
    that allow laying track (privates' virtual_station ``lay_track``) and at its home hex
    while its home choice waits for track there (seed 002)."""
    return board(g).iter_lay_options(
        g.state.map,
        corp,
        phases.tile_colors(g),
        blocked=privates.blocked_hexes(g) if blocked else set(),
        tile_supply=tile_supply(g),
        require_connection=connected,
        hexes=hexes,
        tiles=tiles,
        distinct=distinct,
        stations=lay_stations(g, corp),
    )


def lay_stations(g: Context, corp: str) -> list[str]:
    """Hexes beside its tokens where ``corp``'s network starts for a tile lay: its virtual
    stations that allow laying track, and its home hex while its home choice waits for
    track there."""
    stations = [ab.hex for ab in privates.virtual_stations(g, corp) if ab.lay_track]
    home = g.tables.corporation(corp).home
    if corp in g.state.home_waiting and home:
        stations.append(home)
    return stations


def any_lay(g: Context, corp: str, fees: dict[str, int], cash: int) -> bool:
    """Is one of :func:`iter_lay_options`' lays (connected, its blocked hexes kept out) of
    a kind ``fees`` holds and payable with the kind's fee from ``cash``?  (Its question
    answered without making the lays: :meth:`Board.any_lay`.)"""
    return board(g).any_lay(
        g.state.map,
        corp,
        phases.tile_colors(g),
        privates.blocked_hexes(g),
        tile_supply(g),
        lay_stations(g, corp),
        fees,
        cash,
    )


def lay_tile(g: Context, hex_id: str, tile: str, rotation: int) -> None:
    """Lay the tile; a joint station (two corporations, one slot) moves as one token."""
    joint = _joint_pairs(g, hex_id)
    for city, _, partner in joint:
        g.state.map.tokens[hex_id][city].remove(partner)
    board(g).lay_tile(g.state.map, hex_id, tile, rotation)
    for _, owner, partner in joint:
        for toks in g.state.map.tokens.get(hex_id, []):
            if owner in toks:
                toks.append(partner)


def _joint_pairs(g: Context, hex_id: str) -> list[tuple[int, str, str]]:
    """(city, owner, partner) of the joint stations on the hex."""
    out = []
    for corp, jt in g.tables.joint_tokens:
        if jt.hex != hex_id:
            continue
        for i, toks in enumerate(g.state.map.tokens.get(hex_id, [])):
            if corp in toks and jt.partner in toks:
                out.append((i, str(corp), str(jt.partner)))
    return out


def token_options(
    g: Context, corp: str, *, hexes: set[str] | None = None, connected: bool = True
) -> Iterator[tuple[str, int]]:
    """Cities where ``corp`` may place a station now, one by one (the caller may stop at
    the first).  A reservation naming no city on a hex with several cities (not a home)
    holds one free slot anywhere on the hex: others may take a slot there only while
    enough free slots remain for its holders."""
    held = reserved(g)
    spread = {h: [c for c in cs if _spread(g, c, h)] for h, cs in held.items()}
    to_map = {h: [c for c in cs if c not in spread[h]] for h, cs in held.items()}
    b = board(g)
    m = g.state.map
    for h, i in b.token_options(
        m, corp, reserved=to_map, require_connection=connected, hexes=hexes
    ):
        holders = [c for c in spread.get(h, []) if c != corp]
        face = b.face(m, h)
        free = sum(b.free_slots(m, h, k) for k in range(len(face.cities)))
        free -= sum(1 for c in to_map.get(h, []) if c != corp)  # slots held by the others
        if free - 1 >= len(holders):
            yield (h, i)


def _spread(g: Context, corp: str, hex_id: str) -> bool:
    """Is ``corp``'s reservation on ``hex_id`` one slot anywhere on a multi-city hex?"""
    row = g.tables.corporation(corp)
    if row.home == hex_id:
        return False
    res = [r for r in row.reservations or [] if r.hex == hex_id]
    face = board(g).face(g.state.map, hex_id)
    return bool(res) and res[0].city is None and len(face.cities) > 1


def place_token(g: Context, corp: str, hex_id: str, city: int) -> None:
    board(g).place_token(g.state.map, corp, hex_id, city)


def place_station(g: Context, corp: str, hex_id: str, city: int) -> None:
    """The corporation puts one of its stations in the city: the token on the map, and
    one more of its charter's stations used (the caller has checked it may)."""
    place_token(g, corp, hex_id, city)
    g.state.corporations[corp].tokens_placed += 1


def home_options(g: Context, corp: str) -> list[tuple[str, int]]:
    home = g.tables.corporation(corp).home
    if not home:
        return []
    cities = board(g).home_city_options(g.state.map, corp, reserved=reserved(g))
    return [(home, i) for i in cities]


def corp_trains(g: Context, corp: str) -> list[tuple[str, TrainRule]]:
    """The corporation's trains with their rules (distances as the tables hold them: an
    int, None for unlimited, or a typed ``Distance`` (pay/visit or cities/towns);
    rules.paid_stops_include_station for N/M trains)."""
    paid = g.rules.paid_stops_include_station
    return [
        (t, TrainRule.of(trains.distance(g, t), station_paid=paid))
        for t in g.state.corporations[corp].trains
    ]


def bonuses(g: Context) -> list[Bonus]:
    """The route bonuses of the current phase (compiled ``bonuses``: connection and
    interconnection)."""
    phase = phases.current_id(g)
    # (the answer's function and its arguments, not a closure: this function is typed)
    found: list[Bonus] = g.memo(("bonuses", phase), table_bonuses, g.tables.doc.bonuses, phase)
    return found


def corp_bonuses(g: Context, corp: str) -> list[Bonus]:
    """The bonuses ``corp``'s routes may earn: the phase's connection bonuses with its
    privates' multipliers, plus its ferries (engine.ferries)."""
    return g.memo(("corp_bonuses", corp), _corp_bonuses, g, corp)


def _corp_bonuses(g: Context, corp: str) -> list[Bonus]:
    return ferries.route_bonuses(g, corp, bonuses(g))


def run_access(g: Context, corp: str) -> tuple[frozenset[str], frozenset[str]]:
    """(hexes where the corporation has a virtual station it may run from, hexes it may not
    run to): the virtual_station (``run``) and exclusive_hexes powers of privates."""
    stations = frozenset([ab.hex for ab in privates.virtual_stations(g, corp) if ab.run])
    return stations, frozenset(privates.excluded_hexes(g, corp))


def offboard_groups(g: Context) -> frozenset[tuple[str, str]]:
    """(hex, group) of the off-boards the rules group beyond the map's own groups
    (rules.offboard_groups): a route visits at most one off-board of a group."""
    return frozenset(g.rules.offboard_groups.items())


def optimal(g: Context, corp: str, *, budget: int | None = None) -> RouteResult:
    """The most valuable routes for the corporation's trains now, with the proof of it
    (see :func:`eighteen.engine.routefinder.optimize`)."""
    stations, excluded = run_access(g, corp)
    return g.memo(
        ("optimal", corp, budget),
        lambda: optimize(
            board(g),
            g.state.map,
            corp,
            corp_trains(g, corp),
            phases.revenue_key(g),
            bonuses=corp_bonuses(g, corp),
            budget=budget,
            stations=stations,
            excluded=excluded,
            groups=offboard_groups(g),
        ),
    )


def optimal_revenue(g: Context, corp: str) -> RouteResult:
    """The best run of ``corp``'s trains on the game's current position (for importers:
    compare ``.total`` with a logged revenue; ``.optimal`` says whether it is proven)."""
    return optimal(g, corp)


def best(g: Context, corp: str) -> list[Route]:
    """The most valuable routes for the corporation's trains."""
    return list(optimal(g, corp).routes)


def spec(route: Route) -> RouteSpec:
    return RouteSpec(
        train=route.train,
        paths=tuple([p.text for p in route.paths]),
        revenue=route.revenue,
        stops=tuple(s.id for s in route.stops),
        extension=tuple([p.text for p in route.extension]),
    )


def check(g: Context, corp: str, routes: tuple[RouteSpec, ...]) -> list[Route]:
    """Validate submitted routes; raises RouteError."""
    own = dict(corp_trains(g, corp))
    runs = []
    for r in routes:
        if r.train not in own:
            raise RouteError(f"{corp} does not own train {r.train}")
        runs.append((r.train, own[r.train], list(r.paths)))
    stations, excluded = run_access(g, corp)
    return check_routes(
        board(g),
        g.state.map,
        corp,
        runs,
        phases.revenue_key(g),
        bonuses=corp_bonuses(g, corp),
        stations=stations,
        excluded=excluded,
        extensions={r.train: r.extension for r in routes if r.extension},
        groups=offboard_groups(g),
    )


def can_run(g: Context, corp: str) -> bool:
    """Does the corporation have any route at all (a station joined by track to another
    stop it may run to)?  Read off its reach (which the token and track steps share), or
    off as much of it as shows a stop joined to a station (:meth:`Board.joins_other`),
    not off a route search."""
    return bool(g.memo(("can_run", corp), _joined, g, corp))


def _joined(g: Context, corp: str) -> bool:
    """:func:`can_run`, found (a function of its own, not a closure: this module's
    functions are typed when compiled)."""
    stations, excluded = run_access(g, corp)
    b = board(g)
    if b.joins_other(g.state.map, corp, stations, excluded):
        return True  # (most often found a few paths from a station)
    reach = b.reach(g.state.map, corp, stations)
    own = reach.own  # the stations it started at on this very position
    if len(own) < 2 or not reach.joined:
        return False
    # the stops joined are stations only (joins_other found no other): maybe one
    # reached from another, maybe each by a loop back to itself; the track leaving each
    # station tells (has_route)
    return has_route(b, g.state.map, corp, stations=stations, excluded=excluded)
