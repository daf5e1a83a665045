"""Checking a given route, or a corporation's whole run, on the board's track (the rules
are :mod:`eighteen.engine.routes`'): whether it is legal, and what it earns.  A route's
answer is kept by the board for the hexes its track lies on.  Generic: no title is named."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from eighteen.engine.face import MapError, Path
from eighteen.engine.graph import TrackGraph
from eighteen.engine.map import NOT_KEPT, Board
from eighteen.engine.position import MapState
from eighteen.engine.routes import (
    Bonus,
    Route,
    RouteError,
    TrainDistance,
    TrainRule,
    make_route,
    share_once,
    with_extension,
)


def check_on(
    g: TrackGraph,
    corp: str,
    train: str,
    distance: TrainDistance,
    paths: Sequence[Path | str],
    revenue_key: str,
    bonuses: Sequence[Bonus] = (),
    stations: Collection[str] = (),
    excluded: Collection[str] = (),
    pids: Sequence[int] | None = None,
    tokens: Mapping[str, tuple[tuple[str, ...], ...]] | None = None,
    groups: Collection[tuple[str, str]] = (),
) -> tuple[Route, int]:
    """Check one route on graph ``g``; returns it and the bitmask of hex sides it uses
    (``pids``: the ids of ``paths`` on ``g`` when the caller has them; ``tokens``: the
    position's token snapshot, when the caller checks several routes of one position;
    ``groups``: (hex, group) of off-boards grouped beyond the map's own groups).

    The answer is kept by the board for what it follows from: the arguments, the tiles and
    station tokens of the hexes the route's track lies on (a piece of track, and the
    stops it ends at, lie in one hex: nothing else of the board is read), and the graph's
    numbering of the stops (the route's direction compares stop ids).  So a logged route
    read by an importer is checked again, the same, when it is run, and a route run again
    over hexes where no tile or token changed since is known at once.  The arguments and
    the numbering are the key; the answer is kept with its track's hexes and what their
    tiles and tokens were (the last answer for the key: a hex's tile and tokens seldom
    change back), compared at the asking, not made into a key and hashed."""
    rule = TrainRule.of(distance)
    track = tuple([p if isinstance(p, str) else p.text for p in paths])
    tiles = g.tiles
    if tokens is None:
        tokens = g.state.token_snapshot()
    try:
        bonus_key = tuple(bonuses)
        key = (
            g.numbering,
            corp,
            train,
            (rule.visit, rule.pay, rule.towns, rule.station_paid),  # hashed without Python
            min(track, track[::-1]),  # a route checks the same both ways
            revenue_key,
            bonus_key,
            frozenset(stations),
            frozenset(excluded),
            frozenset(groups),
        )
        hash(key)  # (the parts are text, numbers and their sets: else not keepable)
    except TypeError:  # an argument that cannot be a key: no keeping
        return _check_route(
            g, corp, train, rule, paths, revenue_key, bonuses, stations, excluded, pids, groups
        )
    board = g.board
    kept = board._kept("check", key)
    if kept is NOT_KEPT:  # (asked without a closure: compiled, this function is typed)
        hexes = tuple(sorted(track_hexes(g, track)))
    else:
        hexes = kept[0]
        if same_at(hexes, kept[1], tiles) and same_at(hexes, kept[2], tokens):
            return kept[3]
    # (the arguments named, not unpacked from a tuple: compiled, a C call)
    found = _check_route(
        g, corp, train, rule, paths, revenue_key, bonuses, stations, excluded, pids, groups
    )
    laid = tuple([tiles.get(h) for h in hexes])
    board._keep("check", key, (hexes, laid, tuple([tokens.get(h) for h in hexes]), found))
    return found


def track_hexes(g: TrackGraph, track: tuple[str, ...]) -> set[str]:
    """The hexes of the pieces of track ``track`` (their texts): each one's hex read off
    its id on ``g`` (a hex owns the ids from its number times the stride), a text the
    graph has not split at its ``:``."""
    text_id, hex_ids, stride = g.text_id, g.board.hex_ids, g.board.path_stride
    out = set()
    for t in track:
        pid = text_id.get(t)
        out.add(hex_ids[pid // stride] if pid is not None else t.split(":", 1)[0])
    return out


def _check_route(
    g: TrackGraph,
    corp: str,
    train: str,
    rule: TrainRule,
    paths: Sequence[Path | str],
    revenue_key: str,
    bonuses: Sequence[Bonus],
    stations: Collection[str],
    excluded: Collection[str],
    known: Sequence[int] | None = None,
    groups: Collection[tuple[str, str]] = (),
) -> tuple[Route, int]:
    if not paths:
        raise RouteError("a route needs track")
    pids = list(known) if known is not None else _path_ids(g, paths)
    if len(set(pids)) != len(pids):
        raise RouteError("the route uses a piece of track twice")
    # the start node: the end of the first path not shared with the second
    a, b = g.ends[pids[0]]
    if len(pids) == 1:
        start = a if a[0] else b
    else:
        nxt = g.ends[pids[1]]
        start = b if a in nxt and b not in nxt else a
    if not start[0]:
        raise RouteError("a route must start at a stop")
    stop_ids = [start[1]]
    node = start
    sides = 0
    prev_hex: str | None = None
    for k, pid in enumerate(pids):
        if node not in g.ends[pid]:
            raise RouteError(f"track {g.paths[pid]} does not continue the route")
        p = g.paths[pid]
        if not node[0]:
            if p.hex == prev_hex:
                raise RouteError(f"the route reverses at a junction in {p.hex}")
        elif k > 0 and not g.passable(node[1], corp):
            raise RouteError(f"the route may not pass through {_sid(g, node[1])}")
        node = g.other_end(pid, node)
        if node[0]:
            if node[1] in stop_ids:
                raise RouteError(f"the route visits {_sid(g, node[1])} twice")
            stop_ids.append(node[1])
        else:
            bit = 1 << node[1]
            if sides & bit:
                raise RouteError(f"the route reuses the side {p.hex} edge of {p}")
            sides |= bit
        prev_hex = p.hex
    if not node[0]:
        raise RouteError("a route must end at a stop")
    if len(stop_ids) < 2:
        raise RouteError("a route needs at least two stops")
    # (loops, not generator expressions: compiled, this function is typed, and a typed
    # function holds no closure)
    towns = 0
    stationed = False
    areas: list[str] = []
    more = dict(groups) if groups else None
    for s in stop_ids:
        h, kind, _ = g.stops[s]
        if kind == "town":
            towns += 1
        if not stationed and (g.has_token(s, corp) or h in stations):
            stationed = True
        group = more[h] if more is not None and kind == "offboard" and h in more else g.group(s)
        if group is not None:
            areas.append(group)
    if not rule.fits(len(stop_ids), towns):
        raise RouteError(
            f"{len(stop_ids)} stops ({towns} towns) is more than the train's {rule.describe()}"
        )
    if not stationed:
        raise RouteError(f"the route includes no station of {corp}")
    for s in stop_ids:
        if g.stops[s][0] in excluded:
            raise RouteError(f"{corp} may not run to {g.stops[s][0]}")
    if len(areas) != len(set(areas)):
        raise RouteError("the route visits two off-boards of the same group")
    # track pieces with no hex side (stop to stop inside a hex) are exclusive too
    for pid in pids:
        if not g.path_sides[pid]:
            sides |= 1 << (len(g.board.sides) + pid)
    route = make_route(g, corp, train, rule, stop_ids, pids, revenue_key, bonuses, stations)
    return route, sides


def _path_ids(g: TrackGraph, paths: Sequence[Path | str]) -> list[int]:
    """The ids of track pieces given as :class:`Path` or ``"H12:c0-e4"``; raises
    :class:`RouteError` for one not on the board."""
    pids: list[int] = []
    text_id = g.text_id
    for p in paths:
        pid = text_id.get(p if isinstance(p, str) else p.text)
        if pid is None:  # not a path of the board as Path.text writes it: parsed
            try:
                path = Path.parse(p) if isinstance(p, str) else p
            except MapError as exc:  # not a path at all
                raise RouteError(str(exc)) from None
            pid = text_id.get(path.text)
            if pid is None:
                raise RouteError(f"no track {path} on the board")
        pids.append(pid)
    return pids


def _sid(g: TrackGraph, s: int) -> str:
    h, kind, i = g.stops[s]
    return f"{h} {kind} {i}"


def check_route(
    board: Board,
    state: MapState,
    corp: str,
    train: str,
    train_distance: TrainDistance,
    paths: Sequence[Path | str],
    revenue_key: str,
    bonuses: Sequence[Bonus] = (),
    *,
    stations: Collection[str] = (),
    excluded: Collection[str] = (),
    groups: Collection[tuple[str, str]] = (),
) -> Route:
    """Check one route given as its track pieces in order (either direction).

    ``paths`` are :class:`Path` objects or strings like ``"H12:c0-e4"``;
    ``train_distance`` anything :meth:`TrainRule.of` reads; ``stations``: hexes where the
    corporation has a virtual station (its stops count as the corporation's stations);
    ``excluded``: hexes it may not run to; ``groups``: (hex, group) of off-boards grouped
    beyond the map's own groups (a route visits one off-board of a group). Returns the
    route (canonical direction, revenue for ``revenue_key`` and ``bonuses``) or raises
    :class:`RouteError`.
    """
    g = board.graph(state)
    # (every argument by position: compiled, a call to the C function)
    found = check_on(
        g,
        corp,
        train,
        train_distance,
        paths,
        revenue_key,
        bonuses,
        stations,
        excluded,
        None,
        None,
        groups,
    )
    return found[0]


def check_routes(
    board: Board,
    state: MapState,
    corp: str,
    runs: Sequence[tuple[str, TrainDistance, Sequence[Path | str]]],
    revenue_key: str,
    bonuses: Sequence[Bonus] = (),
    *,
    stations: Collection[str] = (),
    excluded: Collection[str] = (),
    extensions: Mapping[str, Sequence[Path | str]] | None = None,
    groups: Collection[tuple[str, str]] = (),
) -> list[Route]:
    """Check a corporation's whole run: each (train, distance, paths) and that no two
    routes share track or a train (see :func:`check_route`); a once-per-run bonus counts
    on one route only (:func:`share_once`). ``extensions`` gives, by train, the track
    extending its route for interconnection bonuses (see :func:`check_extension`); an
    extension must earn one; ``groups`` as :func:`check_route`. Raises
    :class:`RouteError`."""
    g = board.graph(state)
    tokens = g.state.token_snapshot()  # (once: every route is checked on this position)
    used = 0
    trains: set[str] = set()
    out = []
    for train, distance, paths in runs:
        if train in trains:
            raise RouteError(f"train {train} runs twice")
        trains.add(train)
        route, sides = check_on(
            g,
            corp,
            train,
            distance,
            paths,
            revenue_key,
            bonuses,
            stations,
            excluded,
            None,  # (every argument by position: compiled, a keyword one would make this
            tokens,  # a call through Python, not to the C function)
            groups,
        )
        if used & sides:
            raise RouteError(f"the route of train {train} shares track with another route")
        used |= sides
        out.append(route)
    for train in extensions or {}:
        if train not in trains:
            raise RouteError(f"train {train} has an extension but no route")
    for k, route in enumerate(out):
        ext = (extensions or {}).get(route.train)
        if not ext:
            continue
        stops = [g.stop_id[(s.hex, s.kind, s.index)] for s in route.stops]
        end, sides, ext_paths = check_extension(g, stops, used, ext, excluded)
        used |= sides
        longer = with_extension(route, ext_paths, g.stops[end][0], bonuses)
        if longer.revenue <= route.revenue:
            raise RouteError(
                f"the extension of train {route.train} to {g.stops[end][0]} earns no "
                "interconnection bonus"
            )
        out[k] = longer
    return share_once(out, bonuses)


def check_extension(
    g: TrackGraph,
    route_stops: Sequence[int],
    used: int,
    paths: Sequence[Path | str],
    excluded: Collection[str] = (),
) -> tuple[int, int, tuple[Path, ...]]:
    """Check the extension of a route (stop ids ``route_stops`` in order) on graph ``g``
    given as its track pieces outwards from the route's first or last stop.

    The extension is continuous, never reverses at a junction, uses no hex side twice nor
    one in ``used`` (the run's routes and other extensions), passes through no off-board
    and no stop of the route or of itself, nor one on the ``excluded`` hexes (where the
    corporation may not run), and ends at a stop. Returns (its end stop, the
    bitmask of the hex sides it uses, its paths) or raises :class:`RouteError`."""
    if not paths:
        raise RouteError("an extension needs track")
    pids = _path_ids(g, paths)
    first = g.ends[pids[0]]
    starts = [s for s in (route_stops[0], route_stops[-1]) if (True, s) in first]
    if not starts:
        raise RouteError(f"the extension does not leave an end of its route at {paths[0]}")
    node: tuple[bool, int] = (True, starts[0])
    if not _through(g, node[1]):
        raise RouteError(f"an extension may not leave the off-board {_sid(g, node[1])}")
    seen = set(route_stops)
    sides = 0
    prev_hex: str | None = None
    free = len(g.board.sides)
    for k, pid in enumerate(pids):
        p = g.paths[pid]
        if node not in g.ends[pid]:
            raise RouteError(f"track {p} does not continue the extension")
        if not node[0] and p.hex == prev_hex:
            raise RouteError(f"the extension reverses at a junction in {p.hex}")
        if node[0] and k > 0 and not _through(g, node[1]):
            raise RouteError(f"an extension may not pass through {_sid(g, node[1])}")
        node = g.other_end(pid, node)
        if node[0]:
            if node[1] in seen:
                raise RouteError(f"the extension visits {_sid(g, node[1])} again")
            if g.stops[node[1]][0] in excluded:
                raise RouteError(f"the extension may not run to {g.stops[node[1]][0]}")
            seen.add(node[1])
            if not g.path_sides[pid]:
                bit = 1 << (free + pid)
                if (used | sides) & bit:
                    raise RouteError(f"the extension reuses the track {p}")
                sides |= bit
        else:
            bit = 1 << node[1]
            if (used | sides) & bit:
                raise RouteError(f"the extension reuses the side {p.hex} edge of {p}")
            sides |= bit
        prev_hex = p.hex
    if not node[0]:
        raise RouteError("an extension must end at a stop")
    return node[1], sides, tuple(g.paths[p] for p in pids)


def _through(g: TrackGraph, stop: int) -> bool:
    """May an extension pass through (or leave) this stop? Any city or town; no off-board."""
    return g.stops[stop][1] != "offboard"


def same_at(hexes: tuple[str, ...], was: tuple[Any, ...], table: Mapping[str, Any]) -> bool:
    """Does ``table`` (the tiles, or the token snapshot) hold for ``hexes`` what ``was``
    holds, hex by hex?  (An unchanged hex most often holds the very object kept.)"""
    for i in range(len(hexes)):
        now = table.get(hexes[i])
        then = was[i]
        if now is not then and now != then:
            return False
    return True
