"""Train routes: checking a proposed route and finding the best routes for a corporation.

Rules (seed 002, "routes" and "revenue"; the engine's reading):

* A route is a continuous path of track joining two or more stops (cities, towns,
  off-boards). It never reuses track, never reverses at a junction (it crosses every hex side
  from one hex into the other) and visits each stop once. The two cities of a multi-city hex
  are separate stops, each entered and left by its own track.
* Off-boards and cities whose slots are all filled by other corporations' tokens may only be
  a route's first or last stop. A city holding the corporation's own token never blocks.
* A route includes at least one city holding the corporation's token.
* A train of distance N stops at most N times; every city, town and off-board passed is a
  stop (a train skips nothing). ``None`` = unlimited (the D train).
* Off-board revenue depends on the phase (``revenue_key``, e.g. "yellow" or "brown"). A
  route visits at most one off-board of the same ``group``.
* Two routes of one corporation share no track: no hex side (and so no path) is used twice.
  They may visit the same stops.

Representation: a route is the sequence of its track pieces (:class:`Path`, one hex each)
from one end to the other; its stops follow. Routes are written in a canonical direction
(the smaller tuple of stop ids first) so equal routes compare equal.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from eighteen.engine.map import Board, MapState, Path, TrackGraph


class RouteError(ValueError):
    """An illegal route; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, order=True)
class Stop:
    """A stop of a route: hex, kind ("city" | "town" | "offboard"), index on the hex, revenue."""

    hex: str
    kind: str
    index: int
    revenue: int

    @property
    def id(self) -> str:
        """``"<hex>-<c|t|o><index>"``, e.g. ``"G19-c1"``."""
        return f"{self.hex}-{self.kind[0]}{self.index}"


@dataclass(frozen=True)
class Route:
    """One train's run: its stops and track pieces in order, and its revenue."""

    train: str
    stops: tuple[Stop, ...]
    paths: tuple[Path, ...]
    revenue: int

    @property
    def hexes(self) -> list[str]:
        """Stop hexes in route order (18xx.games ``hexes``)."""
        return [s.hex for s in self.stops]

    def connections(self) -> list[list[str]]:
        """18xx.games ``connections``: per stop-to-stop chain, the hexes it passes, ends included."""
        return route_connections(self.paths)

    def to_json(self) -> dict:
        """JSON-ready dict: train, stop ids, path strings, revenue."""
        return {
            "train": self.train,
            "stops": [s.id for s in self.stops],
            "paths": [str(p) for p in self.paths],
            "revenue": self.revenue,
        }


def route_connections(paths: Sequence[Path]) -> list[list[str]]:
    """Split a route's paths into stop-to-stop chains, each listed as the hexes it passes.

    Every stop path has exactly one stop end; along a route the stop ends come as: start,
    then (arrive, leave) pairs, then the final arrival, so chains close at every second one.
    """
    out: list[list[str]] = []
    cur: list[str] = []
    count = 0
    for p in paths:
        if not cur or cur[-1] != p.hex:
            cur.append(p.hex)
        if any(x[0] != "e" for x in p.ends):
            count += 1
            if count % 2 == 0:
                out.append(cur)
                cur = [p.hex]
    return out


def total_revenue(routes: Iterable[Route]) -> int:
    """Sum of the routes' revenues."""
    return sum(r.revenue for r in routes)


def route_revenue(
    board: Board, state: MapState, stops: Iterable[tuple[str, str, int]], revenue_key: str
) -> int:
    """Revenue of a set of stops (hex, kind, index) on the current board."""
    g = board.graph(state)
    return sum(g.stop_revenue(g.stop_id[s], revenue_key) for s in stops)


# ---------------------------------------------------------------------------------------
# checking a given route


def _make_route(
    g: TrackGraph, train: str, stop_ids: list[int], paths: list[int], revenue_key: str
) -> Route:
    """Build a Route in canonical direction."""
    if tuple(stop_ids) > tuple(reversed(stop_ids)):
        stop_ids = list(reversed(stop_ids))
        paths = list(reversed(paths))
    stops = tuple(
        Stop(*g.stops[s], revenue=g.stop_revenue(s, revenue_key))  # type: ignore[misc]
        for s in stop_ids
    )
    return Route(train, stops, tuple(g.paths[p] for p in paths), sum(s.revenue for s in stops))


def _check(
    g: TrackGraph,
    corp: str,
    train: str,
    distance: int | None,
    paths: Sequence[Path | str],
    revenue_key: str,
) -> tuple[Route, int]:
    """Check one route on graph ``g``; returns it and the bitmask of hex sides it uses."""
    if not paths:
        raise RouteError("a route needs track")
    pids: list[int] = []
    for p in paths:
        path = Path.parse(p) if isinstance(p, str) else p
        if path not in g.path_id:
            raise RouteError(f"no track {path} on the board")
        pids.append(g.path_id[path])
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
    if distance is not None and len(stop_ids) > distance:
        raise RouteError(f"{len(stop_ids)} stops is more than the train's {distance}")
    if not any(g.has_token(s, corp) for s in stop_ids):
        raise RouteError(f"the route includes no station of {corp}")
    groups = [x for x in (g.group(s) for s in stop_ids) if x is not None]
    if len(groups) != len(set(groups)):
        raise RouteError("the route visits two off-boards of the same group")
    return _make_route(g, train, stop_ids, pids, revenue_key), sides


def _sid(g: TrackGraph, s: int) -> str:
    h, kind, i = g.stops[s]
    return f"{h} {kind} {i}"


def check_route(
    board: Board,
    state: MapState,
    corp: str,
    train: str,
    train_distance: int | None,
    paths: Sequence[Path | str],
    revenue_key: str,
) -> Route:
    """Check one route given as its track pieces in order (either direction).

    ``paths`` are :class:`Path` objects or strings like ``"H12:c0-e4"``. Returns the route
    (canonical direction, revenue for ``revenue_key``) or raises :class:`RouteError`.
    """
    return _check(board.graph(state), corp, train, train_distance, paths, revenue_key)[0]


def check_routes(
    board: Board,
    state: MapState,
    corp: str,
    runs: Sequence[tuple[str, int | None, Sequence[Path | str]]],
    revenue_key: str,
) -> list[Route]:
    """Check a corporation's whole run: each (train, distance, paths) and that no two
    routes share track or a train. Raises :class:`RouteError`."""
    g = board.graph(state)
    used = 0
    trains: set[str] = set()
    out = []
    for train, distance, paths in runs:
        if train in trains:
            raise RouteError(f"train {train} runs twice")
        trains.add(train)
        route, sides = _check(g, corp, train, distance, paths, revenue_key)
        if used & sides:
            raise RouteError(f"the route of train {train} shares track with another route")
        used |= sides
        out.append(route)
    return out


def _chains(g: TrackGraph, hexes: Sequence[str]) -> list[tuple[int, int, list[int]]]:
    """Track from a stop in ``hexes[0]`` to a stop in ``hexes[-1]`` through exactly the
    listed hexes in order, with no stop in between: (first stop, last stop, paths)."""
    out: list[tuple[int, int, list[int]]] = []
    last = len(hexes) - 1
    board = g.board

    def walk(node: tuple[bool, int], idx: int, chain: list[int], sides: int) -> None:
        # at a side, leaving hexes[idx - 1]; continue in hexes[idx]
        for h, pid in g.side_paths.get(node[1], []):
            if h != hexes[idx] or h == g.paths[chain[-1]].hex:
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
                walk(end, idx + 1, [*chain, pid], sides | 1 << end[1])

    for s, (h, _, _) in enumerate(g.stops):
        if h != hexes[0] or len(hexes) < 2:
            continue
        before = len(out)
        for pid in g.stop_paths[s]:
            end = g.other_end(pid, (True, s))
            if not end[0]:
                walk(end, 1, [pid], 1 << end[1])
        out[before:] = [(s, b, c) for _, b, c in out[before:] if b != s]
    return out


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
    train_distance: int | None,
    connections: Sequence[Sequence[str]],
    revenue_key: str,
    nodes: Sequence[str] | None = None,
) -> Route:
    """Read an 18xx.games ``run_routes`` route (its ``connections``; reference format doc).

    Each connection lists the hexes one stop-to-stop chain passes, ends included, in either
    direction; consecutive chains share a stop. Every reading of the chains on the current
    track is tried in a fixed order and the first legal route (see :func:`check_route`) is
    returned; ``nodes`` (``"<hex>-<part>"``), when given, must name its stops. Raises
    :class:`RouteError` when no reading is legal.
    """
    g = board.graph(state)
    if not connections:
        raise RouteError("a route needs track")
    options: list[list[tuple[int, int, list[int]]]] = []
    for conn in connections:
        fwd = _chains(g, list(conn))
        back = _chains(g, list(reversed(conn)))
        opts = fwd + back
        if not opts:
            raise RouteError(f"no track along {'-'.join(conn)}")
        options.append(opts)
    want = None
    if nodes:
        want = {_node_stop(g, n) for n in nodes}
    errors: list[str] = []

    def assemble(k: int, stop: int | None, pids: list[int], stops: list[int]) -> Route | None:
        if k == len(options):
            if want is not None and set(stops) != want:
                return None
            try:
                return _check(
                    g, corp, train, train_distance, [g.paths[p] for p in pids], revenue_key
                )[0]
            except RouteError as exc:
                errors.append(exc.reason)
                return None
        for a, b, chain in options[k]:
            if stop is None:
                r = assemble(k + 1, b, chain, [a, b])
            elif a == stop:
                r = assemble(k + 1, b, [*pids, *chain], [*stops, b])
            else:
                continue
            if r is not None:
                return r
        return None

    route = assemble(0, None, [], [])
    if route is None:
        raise RouteError(errors[0] if errors else "the connections do not form one route")
    return route


# ---------------------------------------------------------------------------------------
# enumeration


@dataclass
class _Seg:
    """Track between two stops with no stop in between."""

    a: int
    b: int
    paths: tuple[int, ...]  # from a to b
    sides: int  # bitmask of hex sides used


@dataclass
class _Cand:
    """A candidate route found by enumeration."""

    stops: tuple[int, ...]
    segs: tuple[int, ...]  # segment ids in route order
    sides: int
    revenue: int

    @property
    def key(self) -> tuple:
        return (-self.revenue, self.stops, self.segs)


class RouteFinder:
    """Every legal route of one corporation on one board position.

    Track is first cut into segments (stop to stop, no stop in between); routes are then
    enumerated as chains of side-disjoint segments through at least one of the
    corporation's stations, each found once.
    """

    def __init__(self, board: Board, state: MapState, corp: str, revenue_key: str) -> None:
        self.g = g = board.graph(state)
        self.corp = corp
        self.revenue_key = revenue_key
        n = len(g.stops)
        self.rev = [g.stop_revenue(s, revenue_key) for s in range(n)]
        self.pass_ = [g.passable(s, corp) for s in range(n)]
        self.group = [g.group(s) for s in range(n)]
        self.tokens = [s for s in range(n) if g.has_token(s, corp)]
        self.segs: list[_Seg] = []
        self.adj: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (seg, other stop)
        self._segments()

    def _segments(self) -> None:
        """Cut the track the corporation reaches into stop-to-stop segments.

        Only stops reachable from its stations (passing only passable stops) are cut.
        """
        cache: dict[int, list[_Seg]] = {}
        todo = list(self.tokens)
        seen = set(todo)
        while todo:
            s = todo.pop()
            if s not in self.tokens and not self.pass_[s]:
                continue
            cache[s] = self._segments_from(s)
            for seg in cache[s]:
                if seg.b not in seen:
                    seen.add(seg.b)
                    todo.append(seg.b)
        found: set[tuple[int, ...]] = set()
        for s in sorted(cache):
            for seg in cache[s]:
                key = tuple(sorted(seg.paths))
                if key in found:
                    continue
                found.add(key)
                sid = len(self.segs)
                self.segs.append(seg)
                self.adj[seg.a].append((sid, seg.b))
                self.adj[seg.b].append((sid, seg.a))

    def _segments_from(self, s: int) -> list[_Seg]:
        g = self.g
        out: list[_Seg] = []

        def walk(node: tuple[bool, int], side_hex: str, chain: list[int], sides: int) -> None:
            for h, pid in g.side_paths.get(node[1], []):
                if h == side_hex:
                    continue
                end = g.other_end(pid, node)
                if end[0]:
                    if end[1] != s:
                        out.append(_Seg(s, end[1], (*chain, pid), sides))
                    continue
                bit = 1 << end[1]
                if sides & bit:
                    continue
                walk(end, h, [*chain, pid], sides | bit)

        for pid in g.stop_paths[s]:
            end = g.other_end(pid, (True, s))
            if end[0]:
                if end[1] != s:
                    out.append(_Seg(s, end[1], (pid,), 0))
                continue
            walk(end, g.paths[pid].hex, [pid], 1 << end[1])
        return out

    def candidates(self, max_stops: int | None) -> list[_Cand]:
        """Every legal route with at most ``max_stops`` stops (None: any), best first.

        For each station ``t``: a first depth-first search grows a half route from ``t``;
        every half route is a route with ``t`` at one end, and a second search grows the
        other half from ``t`` (its first segment numbered above the first half's, so each
        route through ``t`` is met once). Routes through several stations are merged by
        their set of segments.
        """
        limit = max_stops if max_stops is not None else len(self.rev) + 1
        found: dict[frozenset[int], _Cand] = {}
        adj, segs, rev, pass_, group = self.adj, self.segs, self.rev, self.pass_, self.group

        def dfs(
            cur: int,
            count: int,
            sides: int,
            revenue: int,
            visited: set[int],
            stops: list[int],
            seglist: list[int],
            first_min: int,
            on_step: Callable[[list[int], list[int], int, int], None],
        ) -> None:
            if count >= limit or (stops and not pass_[cur]):
                return
            for sid, other in adj[cur]:
                if not stops and sid <= first_min:
                    continue
                seg = segs[sid]
                if seg.sides & sides or other in visited:
                    continue
                stops.append(other)
                seglist.append(sid)
                visited.add(other)
                s2, r2 = sides | seg.sides, revenue + rev[other]
                on_step(stops, seglist, s2, r2)
                dfs(other, count + 1, s2, r2, visited, stops, seglist, first_min, on_step)
                visited.discard(other)
                seglist.pop()
                stops.pop()

        def record(stop_seq: list[int], seg_seq: list[int], sides: int, revenue: int) -> None:
            g1, g2 = group[stop_seq[0]], group[stop_seq[-1]]
            if g1 is not None and g1 == g2:
                return
            key = frozenset(seg_seq)
            if key in found:
                return
            if tuple(stop_seq) > tuple(reversed(stop_seq)):
                stop_seq = stop_seq[::-1]
                seg_seq = seg_seq[::-1]
            found[key] = _Cand(tuple(stop_seq), tuple(seg_seq), sides, revenue)

        def from_station(t: int) -> None:
            visited = {t}

            def first(stops1: list[int], segs1: list[int], sides1: int, rev1: int) -> None:
                left_stops = [*reversed(stops1), t]
                left_segs = list(reversed(segs1))
                base = rev1 + rev[t]
                record(left_stops, left_segs, sides1, base)

                def second(stops2: list[int], segs2: list[int], sides2: int, rev2: int) -> None:
                    record([*left_stops, *stops2], [*left_segs, *segs2], sides2, rev2)

                dfs(t, 1 + len(stops1), sides1, base, visited, [], [], segs1[0], second)

            dfs(t, 1, 0, 0, visited, [], [], -1, first)

        for t in self.tokens:
            from_station(t)

        return sorted(found.values(), key=lambda c: c.key)

    def to_route(self, cand: _Cand, train: str) -> Route:
        """The Route of a candidate."""
        pids: list[int] = []
        for k, sid in enumerate(cand.segs):
            seg = self.segs[sid]
            forward = seg.a == cand.stops[k]
            pids.extend(seg.paths if forward else reversed(seg.paths))
        return _make_route(self.g, train, list(cand.stops), pids, self.revenue_key)


def all_routes(
    board: Board,
    state: MapState,
    corp: str,
    train: str,
    distance: int | None,
    revenue_key: str,
) -> list[Route]:
    """Every legal route of one train, best first (revenue desc, then stop ids, track)."""
    f = _finder(board, state, corp, revenue_key)
    return [f.to_route(c, train) for c in f.candidates(distance)]


def has_route(board: Board, state: MapState, corp: str) -> bool:
    """Can the corporation run any route at all (a station joined by track to another stop)?"""
    f = _finder(board, state, corp, "yellow")
    return any(f.adj[t] for t in f.tokens)


def best_routes(
    board: Board,
    state: MapState,
    corp: str,
    trains: list[tuple[str, int | None]],
    revenue_key: str,
) -> list[Route]:
    """The most valuable set of routes: at most one per train, no shared track.

    ``trains`` are (train id, distance; None = unlimited). Exact: every route is
    enumerated, then a branch and bound picks one candidate (or none) per train, longest
    trains first, candidates best first; ties go to the first combination in that order
    (candidates are ordered by revenue desc, then stop ids, then track), so the answer is
    deterministic. Routes are returned in the order of ``trains``; idle trains are left out.
    """
    if not trains:
        return []
    key = (state.track_key(), state.token_key(), corp, tuple(trains), revenue_key)
    return list(
        board.cached("best_routes", key, lambda: _best(board, state, corp, trains, revenue_key))
    )


def _finder(board: Board, state: MapState, corp: str, revenue_key: str) -> RouteFinder:
    """A RouteFinder shared between calls on the same position."""
    key = (state.track_key(), state.token_key(), corp, revenue_key)
    return board.cached("finder", key, lambda: RouteFinder(board, state, corp, revenue_key))


def _best(
    board: Board,
    state: MapState,
    corp: str,
    trains: list[tuple[str, int | None]],
    revenue_key: str,
) -> list[Route]:
    f = _finder(board, state, corp, revenue_key)
    dists = [d for _, d in trains]
    max_d = None if any(d is None for d in dists) else max(d for d in dists if d is not None)
    allc = f.candidates(max_d)
    order = sorted(
        range(len(trains)), key=lambda i: (-(math.inf if dists[i] is None else dists[i]), i)
    )
    lists: list[list[_Cand]] = []
    for i in order:
        d = dists[i]
        lists.append([c for c in allc if d is None or len(c.stops) <= d])
    n = len(order)
    ub = [0] * (n + 1)
    for k in range(n - 1, -1, -1):
        ub[k] = ub[k + 1] + (lists[k][0].revenue if lists[k] else 0)
    same_prev = [k > 0 and dists[order[k]] == dists[order[k - 1]] for k in range(n)]
    best_total = -1
    best: list[_Cand | None] = [None] * n
    chosen: list[_Cand | None] = [None] * n

    def rec(k: int, used: int, total: int, min_j: int) -> None:
        nonlocal best_total, best
        if total + ub[k] <= best_total:
            return
        if k == n:
            best_total = total
            best = list(chosen)
            return
        cands = lists[k]
        start = min_j if same_prev[k] else 0
        nxt = ub[k + 1]
        for j in range(start, len(cands)):
            c = cands[j]
            if total + c.revenue + nxt <= best_total:
                break
            if c.sides & used:
                continue
            chosen[k] = c
            rec(k + 1, used | c.sides, total + c.revenue, j + 1)
        chosen[k] = None
        rec(k + 1, used, total, len(cands))

    rec(0, 0, 0, 0)
    result: dict[int, Route] = {}
    for k, c in enumerate(best):
        if c is not None:
            i = order[k]
            result[i] = f.to_route(c, trains[i][0])
    return [result[i] for i in sorted(result)]
