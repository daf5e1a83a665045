"""Reading an 18xx.games route (its ``connections``, the hexes each stop-to-stop chain
passes; docs/import-18xx.md) as track on the board: every reading of the chains tried in a
fixed order, the first legal one taken (:func:`route_from_connections`), or the first one
given unchecked for a caller that checks it (:func:`first_reading`).  Generic: no title is
named."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from eighteen.engine.graph import TrackGraph
from eighteen.engine.map import NOT_KEPT, Board
from eighteen.engine.position import MapState
from eighteen.engine.route_check import check_on, same_at
from eighteen.engine.routes import Bonus, Route, RouteError, TrainDistance, forwards, stop_text


def _chains(g: TrackGraph, hexes: Sequence[str]) -> list[tuple[int, int, list[int]]]:
    """Track from a stop in ``hexes[0]`` to a stop in ``hexes[-1]`` through exactly the
    listed hexes in order, with no stop in between: (first stop, last stop, paths).

    They follow from the faces of the listed hexes alone (path ids are per hex), and the
    numbering of the stops: the board keeps them by those, so a connection run again on
    hexes no tile changed since is not walked again (shared: do not mutate them)."""
    key = (g.numbering, tuple(hexes), tuple(map(g.tiles.get, hexes)))
    board = g.board
    found = board._kept("chains", key)
    if found is NOT_KEPT:  # (asked without a closure: compiled, this function is typed)
        found = board._keep("chains", key, _walk_chains(g, hexes))
    return found


def _walk_chains(g: TrackGraph, hexes: Sequence[str]) -> list[tuple[int, int, list[int]]]:
    """:func:`_chains`, walked."""
    out: list[tuple[int, int, list[int]]] = []
    k = g.board.hex_index.get(hexes[0]) if len(hexes) >= 2 else None
    first = range(g.stop_start[k], g.stop_start[k + 1]) if k is not None else range(0)
    for s in first:  # the stops of hexes[0]
        before = len(out)
        for pid in g.stop_paths[s]:
            end = g.other_end(pid, (True, s))
            if not end[0]:
                _chain_walk(g, hexes, out, end, 1, [pid], 1 << end[1])
        out[before:] = [(s, b, c) for _, b, c in out[before:] if b != s]
    return out


def _chain_walk(
    g: TrackGraph,
    hexes: Sequence[str],
    out: list[tuple[int, int, list[int]]],
    node: tuple[bool, int],
    idx: int,
    chain: list[int],
    sides: int,
) -> None:
    """:func:`_chains` at a side, leaving ``hexes[idx - 1]``: continue in ``hexes[idx]``
    (a module function, not a closure calling itself: no reference cycle per call)."""
    board = g.board
    last = len(hexes) - 1
    here = hexes[idx]
    for h, pid in g.side_paths.get(node[1], ()):
        if h != here or h == g.paths[chain[-1]].hex:
            continue
        end = g.other_end(pid, node)
        if end[0]:
            if idx == last:
                out.append((-1, end[1], [*chain, pid]))
            continue
        if idx == last or sides >> end[1] & 1:
            continue
        h2, e2 = board.sides[end[1]]
        nxt = board.neighbors[h2][e2] if h2 == h else h2
        if nxt == hexes[idx + 1]:
            _chain_walk(g, hexes, out, end, idx + 1, [*chain, pid], sides | 1 << end[1])


def _node_stop(g: TrackGraph, node: str) -> int | None:
    """Stop of an 18xx.games node signature ``"<hex>-<part index>"`` (cities, then towns)."""
    h, _, part = node.rpartition("-")
    if h not in g.faces or not part.isdigit():
        return None
    f, i = g.faces[h], int(part)
    if f.offboard is not None and not f.cities and not f.towns:
        return g.stop_id.get((h, "offboard", 0))
    if i < len(f.cities):
        return g.stop_id.get((h, "city", i))
    return g.stop_id.get((h, "town", i - len(f.cities)))


def route_from_connections(
    board: Board,
    state: MapState,
    corp: str,
    train: str,
    train_distance: TrainDistance,
    connections: Sequence[Sequence[str]],
    revenue_key: str,
    nodes: Sequence[str] | None = None,
    bonuses: Sequence[Bonus] = (),
    *,
    stations: Collection[str] = (),
    excluded: Collection[str] = (),
) -> Route:
    """Read an 18xx.games ``run_routes`` route (its ``connections``; reference format doc).

    Each connection lists the hexes one stop-to-stop chain passes, ends included, in either
    direction; consecutive chains share a stop. Every reading of the chains on the current
    track is tried in a fixed order and the first legal route (see
    :func:`~eighteen.engine.route_check.check_route`) is returned; ``nodes``
    (``"<hex>-<part>"``), when given, must name its stops. Raises :class:`RouteError` when
    no reading is legal.
    """
    g = board.graph(state)
    options, want = _reading_options(g, connections, nodes)
    errors: list[str] = []

    def legal(pids: list[int], stops: list[int]) -> Route | None:
        """The reading checked: its route, or None (the reason kept) when it is refused."""
        try:
            route_paths = [g.paths[p] for p in pids]
            return check_on(
                g,
                corp,
                train,
                train_distance,
                route_paths,
                revenue_key,
                bonuses,
                stations,
                excluded,
                pids,
            )[0]
        except RouteError as exc:
            errors.append(exc.reason)
            return None

    route = _first_of(options, 0, None, [], [], want, legal)
    if route is not None:
        return route
    raise RouteError(errors[0] if errors else "the connections do not form one route")


def first_reading(
    board: Board,
    state: MapState,
    connections: Sequence[Sequence[str]],
    nodes: Sequence[str] | None = None,
) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The first reading of an 18xx.games route's ``connections`` that
    :func:`route_from_connections` tries (naming the ``nodes``' stops, when given), unchecked:
    (its track, its stop ids), in the direction
    :func:`~eighteen.engine.route_check.check_route` gives a route; None when the
    connections have no reading.  For a caller that has the engine check the route
    (an importer's ``RunRoutes``), and reads the connections with
    :func:`route_from_connections` only when that check refuses it.

    The reading follows from the faces of the hexes the connections and nodes name, and
    the graph's numbering of the stops (which way round a route is read compares stop
    ids): the board keeps it by those, so a route run again over hexes no tile changed
    since is read at once.  The connections, the nodes and the numbering are the key; the
    reading is kept with the hexes they name (in the order they name them) and the tiles
    those showed (the last reading for the key), compared at the asking, not made into a
    key and hashed."""
    g = board.graph(state)
    tiles = g.tiles
    try:
        conns = tuple([tuple(c) for c in connections])
        names = tuple(nodes) if nodes is not None else None
        key = (g.numbering, conns, names)
        hash(key)
    except TypeError:  # (not names and hex ids: read, not kept)
        return _first_reading(g, connections, nodes)
    board = g.board
    kept = board._kept("reading", key)
    if kept is NOT_KEPT:  # (asked without a closure: compiled, this function is typed)
        hexes = [h for c in conns for h in c]
        if names:
            hexes += [n.rpartition("-")[0] for n in names]
        named = tuple(hexes)
    else:
        named = kept[0]
        if same_at(named, kept[1], tiles):
            return kept[2]
    found = _first_reading(g, connections, nodes)
    board._keep("reading", key, (named, tuple([tiles.get(h) for h in named]), found))
    return found


def _first_reading(
    g: TrackGraph, connections: Sequence[Sequence[str]], nodes: Sequence[str] | None
) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """:func:`first_reading`, read."""
    try:
        options, want = _reading_options(g, connections, nodes)
    except RouteError:
        return None
    got = _first_of(options, 0, None, [], [], want)
    if got is None:
        return None
    stop_ids, pids = forwards(got[1], got[0])
    return (
        tuple([g.paths[p].text for p in pids]),
        tuple([stop_text(*g.stops[s]) for s in stop_ids]),
    )


def _first_of(
    options: Sequence[_Readings],
    k: int,
    stop: int | None,
    pids: list[int],
    stops: list[int],
    want: set[int | None] | None,
    take: Callable[[list[int], list[int]], Any] | None = None,
) -> Any:
    """The first reading of the chains ``options[k:]`` continuing from ``stop`` (None: the
    first chain) whose stops are ``want`` (None: any), in a fixed order (each connection's
    chains in their order, those read backwards found only when a reading gets to them):
    (its path ids, its stops), or what ``take`` makes of it, the first reading it does not
    answer None for; None when there is none.  Plain recursive calls, no generator per
    connection and reading (compiled, a generator's frames, sends and closing cost many
    times the search; a module function, not a closure calling itself: no reference cycle
    per call)."""
    if k == len(options):
        if want is not None and set(stops) != want:
            return None
        return (pids, stops) if take is None else take(pids, stops)
    opt = options[k]
    i = 0
    while True:
        if i < len(opt.chains):
            a, b, chain = opt.chains[i]
            i += 1
        elif not opt.backwards:
            opt._backwards()
            continue
        else:
            return None
        if stop is None:
            got = _first_of(options, k + 1, b, chain, [a, b], want, take)
        elif a == stop:
            got = _first_of(options, k + 1, b, [*pids, *chain], [*stops, b], want, take)
        else:
            continue
        if got is not None:
            return got


def _reading_options(
    g: TrackGraph, connections: Sequence[Sequence[str]], nodes: Sequence[str] | None
) -> tuple[list[_Readings], set[int | None] | None]:
    """What :func:`_first_of` reads ``connections`` from on ``g`` (each one's chains), and
    the stops the ``nodes`` name (None: no nodes given; a reading must have those stops).
    Raises :class:`RouteError` when a connection has no track along it."""
    if not connections:
        raise RouteError("a route needs track")
    options: list[_Readings] = []
    for conn in connections:
        opts = _Readings(g, conn)
        if not opts.chains:
            raise RouteError(f"no track along {'-'.join(conn)}")
        options.append(opts)
    return options, ({_node_stop(g, n) for n in nodes} if nodes else None)


class _Readings:
    """The chains of one connection (:func:`_chains`): those along its hexes as listed,
    then those along them backwards, found only when a reading gets to them (the first
    reading tried is most often the route)."""

    __slots__ = ("g", "conn", "chains", "backwards")

    def __init__(self, g: TrackGraph, conn: Sequence[str]) -> None:
        self.g = g
        self.conn = conn
        self.chains = _chains(g, list(conn))
        self.backwards = False
        if not self.chains:
            self._backwards()

    def _backwards(self) -> None:
        self.chains = self.chains + _chains(self.g, list(reversed(self.conn)))
        self.backwards = True
