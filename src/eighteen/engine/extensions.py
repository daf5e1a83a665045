"""Finding route extensions for interconnection bonuses (the rules are in
:mod:`eighteen.engine.routes` and :mod:`eighteen.engine.route_check`:
:class:`~eighteen.engine.routes.InterconnectionBonus` and
:func:`~eighteen.engine.route_check.check_extension`).

A route earns an interconnection bonus by visiting one end and *reaching* another: its
extension, track continuing it from its first or last stop past the train's reach, ends
there (or at a port linked there by sea). An extension uses no hex side of any route of
the run nor of another extension, passes through any city or town (blocked ones too) but
no off-board, and visits no stop of its route or of itself. A route has at most one
extension; it earns every interconnection bonus pairing an end it visits with an end it
reaches.

:class:`Extender` serves the optimiser (:mod:`eighteen.engine.routefinder`):

* :meth:`Extender.optimistic`: an upper bound of what an extension can add to a route: the
  best end stop a walk from one of the route's ends could reach over all the track
  (through cities and towns, never back across the side it came over), the other
  routes and the route's own track ignored;
* :meth:`Extender.alone` and :meth:`Extender.beside`: closer bounds, by the track a route's
  own sides leave (a breadth-first walk), or by the parts of the track other routes' sides
  leave (labelled from the route's end stops);
* :meth:`Extender.best`: exactly the most a set of routes earns from extensions together,
  and the extensions. Each route alone first: its end stops best first, among those the
  unused track reaches at all, a walk searched depth first, guided (and pruned) by
  breadth-first distances to the wanted stops. When those extensions share no track, they
  are the answer; otherwise every walk of one route is tried against the others', bounded
  by the solo bests. Each step counts as one explored state (:attr:`Extender.explored`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence

from eighteen.engine.graph import TrackGraph
from eighteen.engine.routes import Bonus, extension_value, hex_bits, reaches


class _Stop(Exception):
    """The work limit of :meth:`Extender.best` is reached."""


#: An extension found: (end stop, path ids outwards from the route's end, hex-side bits).
Walk = tuple[int, tuple[int, ...], int]


class Extender:
    """Extensions on one track graph for one corporation's bonuses.

    ``excluded``: hexes the corporation may not run to (no extension visits them).
    ``routes(i) = (stop ids in order, hex-side bits)`` of route ``i``, the bits numbered like
    :func:`eighteen.engine.route_check.check_routes` (board sides, then one bit per track piece
    with no side: ``1 << (len(board.sides) + path id)``); ``stops[i]``, when given, holds
    route ``i``'s stop ids alone (the bits are then made only for routes valued exactly).
    """

    def __init__(
        self,
        g: TrackGraph,
        bonuses: Sequence[Bonus],
        routes: Callable[[int], tuple[tuple[int, ...], int]],
        limit: int = 1 << 62,
        excluded: frozenset[str] = frozenset(),
        stops: Sequence[tuple[int, ...]] | None = None,
    ) -> None:
        self.g = g
        self.bonuses = [b for b in bonuses if reaches(b)]
        self.route = routes
        self._stops_of = stops
        self.explored = 0
        #: most states :meth:`best` may explore; past it, it answers with what it found
        #: and sets :attr:`incomplete`
        self.limit = limit
        self.incomplete = False
        #: states of the walks :meth:`alone` made: counted in the search's budget (see
        #: :attr:`eighteen.engine.route_search.Exact.explored`), not toward :attr:`limit`,
        #: so that running out stops the search over routes, not an extension's valuing
        self.bounding = 0
        n_stops = len(g.stops)
        self.n_stops = n_stops
        free = len(g.board.sides)
        self.bits = [g.path_sides[p] or 1 << (free + p) for p in range(len(g.paths))]
        self.hexes = [h for h, _, _ in g.stops]
        #: stops an extension may pass: cities and towns, not on hexes it may not run to
        self.through = [kind != "offboard" and h not in excluded for h, kind, _ in g.stops]
        wanted: set[str] = set()
        for bonus in self.bonuses:
            for end in bonus.ends:  # type: ignore[attr-defined]
                wanted |= end
            for port, to in bonus.links:  # type: ignore[attr-defined]
                wanted.add(port)
                wanted |= to
        #: stops an extension could usefully end at (on a bonus end or a port)
        self.ends = [
            s for s in range(n_stops) if self.hexes[s] in wanted and self.hexes[s] not in excluded
        ]
        #: per stop, its hex when that is one of ``wanted``, else None
        self.wanted_hex = [h if h in wanted else None for h in self.hexes]
        #: per stop, the bit of its hex among ``wanted`` (:func:`hex_bits`)
        self.wanted_bit = hex_bits(self.hexes, wanted)
        # nodes: stops 0..n_stops-1, then hex sides; adjacency (path, other node)
        self.adj: list[list[tuple[int, int]]] = [[] for _ in range(n_stops + len(g.board.sides))]
        for pid, (a, b) in enumerate(g.ends):
            if a[1] < 0:
                continue  # an id no path holds (TrackGraph: each hex's range of ids)
            na, nb = self._node(a), self._node(b)
            self.adj[na].append((pid, nb))
            self.adj[nb].append((pid, na))
        self._reach: dict[int, set[int]] = {}
        self._targets: dict[frozenset[str], list[tuple[int, list[int]]]] = {}
        self._optimistic: dict[int, int] = {}
        self._bounds: dict[int, int] = {}
        self._alone: dict[int, int] = {}
        #: (the sides, the parts of the track they leave labelled so far: :meth:`_part`),
        #: the last asked
        self._parted: tuple[int, tuple[list[int], dict[int, set[int]]]] | None = None
        self._best: dict[tuple[int, ...], tuple[int, dict[int, Walk]]] = {}

    def stops(self, i: int) -> tuple[int, ...]:
        """Route ``i``'s stop ids in order (read from ``stops`` when given, without
        making the route's bits)."""
        of = self._stops_of
        return of[i] if of is not None else self.route(i)[0]

    def _node(self, end: tuple[bool, int]) -> int:
        return end[1] if end[0] else self.n_stops + end[1]

    def _ends_from(self, a: int) -> set[int]:
        """The stops a walk from stop ``a`` could end at over all the track: through
        cities and towns (not off-boards), never back across the hex side it came over,
        as :meth:`walks` goes, but free to use a side twice or pass a stop again (so a
        bound: what an extension from ``a`` reaches is among them). Kept per stop; a
        walk over the graph once per stop at most, not counted as explored states (as
        the enumeration's network is not)."""
        got = self._reach.get(a)
        if got is None:
            g, through = self.g, self.through
            ends: set[int] = set()
            passed = {a}
            entered: set[tuple[int, str]] = set()
            todo: list[tuple[tuple[bool, int], str]] = [((True, a), "")]
            while todo:
                node, came = todo.pop()
                if node[0]:
                    nxt: Sequence[int] = g.stop_paths[node[1]]
                else:
                    nxt = [p for h, p in g.side_paths.get(node[1], ()) if h != came]
                for pid in nxt:
                    end = g.other_end(pid, node)
                    if end[0]:
                        t = end[1]
                        ends.add(t)
                        if through[t] and t not in passed:
                            passed.add(t)
                            todo.append((end, ""))
                    else:
                        h = g.paths[pid].hex
                        if (end[1], h) not in entered:
                            entered.add((end[1], h))
                            todo.append((end, h))
            got = self._reach[a] = ends
        return got

    def targets(self, stops: Sequence[int]) -> list[tuple[int, list[int]]]:
        """(gain, end stops) best first: what ending an extension of a route on ``stops``
        at each stop adds to the route (none of the route's stops; gains > 0 only; the
        lists are :meth:`_gains`' own, not to be changed)."""
        wanted_hex = self.wanted_hex
        hs = frozenset([h for h in map(wanted_hex.__getitem__, stops) if h is not None])
        return self._gains(hs) if hs else []

    def _gains(self, hs: frozenset[str]) -> list[tuple[int, list[int]]]:
        """(gain, end stops) best first for a route visiting the wanted hexes ``hs`` (the
        lists kept: not to be changed). A route's own stops are never among them: each
        lies on a hex of ``hs``, where no end stop is counted, or on no wanted hex."""
        # What a route earns from an extension depends only on the wanted hexes it visits
        # (every bonus end and port is one), so the gains are kept under those: routes
        # differing elsewhere share them.
        got = self._targets.get(hs)
        if got is None:
            base = extension_value(self.bonuses, hs, None)
            by_gain: dict[int, list[int]] = {}
            for s in self.ends:
                if self.hexes[s] in hs:
                    continue
                v = extension_value(self.bonuses, hs, self.hexes[s]) - base
                if v > 0:
                    by_gain.setdefault(v, []).append(s)
            got = self._targets[hs] = sorted(by_gain.items(), key=lambda x: -x[0])
        return got

    def starts(self, stops: Sequence[int]) -> list[int]:
        """The route's end stops an extension may leave from."""
        ends = [stops[0]] if stops[0] == stops[-1] else [stops[0], stops[-1]]
        return [s for s in ends if self.through[s]]

    def optimistic(self, i: int) -> int:
        """An upper bound of what an extension adds to route ``i``."""
        # (the kept values read with ``in`` and ``[]``, not ``dict.get``: compiled, an
        # untyped object's method is looked up and called, and this is asked per route)
        known = self._optimistic
        if i in known:
            return known[i]
        of = self._stops_of  # (:meth:`stops`, read here)
        stops = of[i] if of is not None else self.route(i)[0]
        # it follows from the wanted hexes the route visits and its end stops
        # (:meth:`targets`), kept by those as one number (the hexes' bits, the end stops)
        bit = self.wanted_bit
        visited = 0
        for s in stops:
            visited |= bit[s]
        got = 0
        if visited:
            key = (visited * self.n_stops + stops[0]) * self.n_stops + stops[-1]
            bounds = self._bounds
            if key in bounds:
                got = bounds[key]
            else:
                hexes = self.hexes
                hs = frozenset([hexes[s] for s in stops if bit[s]])
                starts = self.starts(stops)
                for v, ss in self._gains(hs):
                    if self._reached(starts, ss):
                        got = v
                        break
                bounds[key] = got
        known[i] = got
        return got

    def _reached(self, starts: Sequence[int], stops: Sequence[int]) -> bool:
        """Could a walk from one of ``starts`` end at one of ``stops`` (:meth:`_ends_from`)?"""
        for a in starts:
            ends = self._ends_from(a)
            for s in stops:
                if s in ends:
                    return True
        return False

    def alone(self, i: int) -> int:
        """A bound of what an extension adds to route ``i`` in any run, at most
        :meth:`optimistic`: the best gain one of whose end stops the track left by the route
        itself reaches from its ends (a breadth-first walk, as :meth:`_solo` starts with;
        the other routes take more track, never less). Found once per route, when asked."""
        got = self._alone.get(i)
        if got is None:
            got = most = self.optimistic(i)
            if most:
                stops, own = self.route(i)
                before = self.explored
                flood = _Flood(self, self.starts(stops), own, set(stops))
                got = 0
                for v, ss in self.targets(stops):
                    if v <= most and flood.reaches(ss):
                        got = v
                        break
                self.bounding += self.explored - before
                self.explored = before
            self._alone[i] = got
        return got

    def beside(self, i: int, used: int) -> int:
        """A bound of what an extension adds to route ``i`` when routes on the sides
        ``used`` run with it, at most :meth:`optimistic`: the best gain one of whose end
        stops lies in a part of the track those sides leave that holds one of the route's
        end stops, or borders it (an off-board, which an extension may end at, not pass;
        :meth:`_part`; the route's own track and stops, the no-reversing rule and the other
        routes' extensions ignored: each takes more, never less)."""
        most = self.optimistic(i)
        if not most:
            return 0
        kept = self._parted
        if kept is None or kept[0] != used:
            kept = self._parted = (used, ([-1] * len(self.adj), {}))
        label, sinks = kept[1]
        stops = self.stops(i)
        mine = set()
        for s in self.starts(stops):
            if label[s] < 0:
                self._part(s, used, label, sinks)
            mine.add(label[s])
        through = self.through
        for v, ss in self.targets(stops):
            if v > most:
                continue
            for t in ss:
                if label[t] in mine if through[t] else not mine.isdisjoint(sinks.get(t, ())):
                    return v
        return 0

    def _part(self, x0: int, used: int, label: list[int], sinks: dict[int, set[int]]) -> None:
        """Label ``x0``'s part of the track the sides ``used`` leave, joined through cities
        and towns (:attr:`through`) in either direction: ``label`` of each of its nodes
        (stops and hex sides) set to ``x0``, and ``x0`` added to the ``sinks`` of each stop
        an extension may not pass that borders it.  Parts are labelled when a route's end
        stop asks (:meth:`beside`), kept for the last ``used`` (a branch's last train scans
        its candidates with the same routes above); their nodes count in
        :attr:`bounding`."""
        bits, adj, n_stops, through = self.bits, self.adj, self.n_stops, self.through
        label[x0] = x0
        todo = [x0]
        count = 0
        while todo:
            x = todo.pop()
            count += 1
            for pid, y in adj[x]:
                if bits[pid] & used:
                    continue
                if y < n_stops and not through[y]:
                    sinks.setdefault(y, set()).add(x0)
                elif label[y] < 0:
                    label[y] = x0
                    todo.append(y)
        self.bounding += count

    # -- exact -------------------------------------------------------------------------

    def _distances(self, targets: Sequence[int], used: int, avoid: set[int]) -> list[int]:
        """Breadth-first distances (in track pieces) to the nearest of ``targets`` over
        track using no side in ``used``, through cities and towns not in ``avoid``
        (ignoring the no-reversing rule: a lower bound, and -1 means unreachable)."""
        dist = [-1] * len(self.adj)
        q: deque[int] = deque()
        for t in targets:
            dist[t] = 0
            q.append(t)
        bits, adj, n_stops, through = self.bits, self.adj, self.n_stops, self.through
        while q:
            x = q.popleft()
            self.explored += 1
            if x < n_stops and dist[x] > 0 and (not through[x] or x in avoid):
                continue  # reached, but not passed through
            d = dist[x] + 1
            for pid, y in adj[x]:
                if dist[y] < 0 and not bits[pid] & used:
                    dist[y] = d
                    q.append(y)
        return dist

    def walks(
        self, starts: Sequence[int], targets: Sequence[int], used: int, avoid: set[int]
    ) -> Iterator[Walk]:
        """Every extension from one of the stops ``starts`` ending at the first of
        ``targets`` it meets, using no side in ``used`` and no stop in ``avoid`` (besides
        leaving its start); nearest-first. The sides it yields include ``used``."""
        dist = self._distances(targets, used, avoid)
        g, bits, n_stops, through = self.g, self.bits, self.n_stops, self.through
        goal = set(targets)
        seen = set(avoid)
        pids: list[int] = []

        def step(node: tuple[bool, int], prev_hex: str | None, sides: int) -> Iterator[Walk]:
            self.explored += 1
            if self.explored > self.limit:
                raise _Stop
            nxt: Sequence[int]
            if node[0]:
                nxt = g.stop_paths[node[1]]
            else:
                nxt = [p for h, p in g.side_paths.get(node[1], ()) if h != prev_hex]
            here = 0 if node[0] else 1 << node[1]
            order = []
            for pid in nxt:
                end = g.other_end(pid, node)
                d = dist[end[1] if end[0] else n_stops + end[1]]
                if d >= 0 and not (bits[pid] & ~here) & sides:
                    order.append((d, pid, end))
            order.sort(key=lambda x: x[0])
            for _, pid, end in order:
                s2 = sides | bits[pid]
                pids.append(pid)
                if end[0]:
                    s = end[1]
                    if s in goal:
                        yield (s, tuple(pids), s2)
                    elif s not in seen and through[s]:
                        seen.add(s)
                        yield from step(end, None, s2)
                        seen.discard(s)
                else:
                    yield from step(end, g.paths[pid].hex, s2)
                pids.pop()

        try:
            for a in starts:
                if dist[a] >= 0:
                    yield from step((True, a), None, used)
        finally:  # (also when the caller stops early: the generator is closed)
            # (a recursive closure refers to itself: a reference cycle, broken here)
            step = None  # type: ignore[assignment]

    def _solo(self, i: int, used: int) -> tuple[int, Walk | None]:
        """The most route ``i`` alone earns from an extension given ``used``, and one."""
        stops = self.stops(i)
        starts = self.starts(stops)
        avoid = set(stops)
        near = _Flood(self, starts, used, avoid)  # what the unused track reaches at all
        for gain, ss in self.targets(stops):
            if near.reaches(ss):
                for walk in self.walks(starts, ss, used, avoid):
                    return gain, walk
        return 0, None

    def best(self, idxs: Sequence[int], used: int) -> tuple[int, dict[int, Walk]]:
        """The most the routes ``idxs`` (chosen together; their sides and any others'
        are ``used``) earn from extensions, and an extension per route earning it.

        Each route alone first (its best extension over the unused track); when those
        extensions share no track the answer is their sum. Otherwise every walk of each
        route is tried against the others', bounded by the routes' solo bests."""
        key = tuple(sorted(idxs))
        got = self._best.get(key)
        if got is not None:
            return got
        try:
            got = self._search(key, used)
        except _Stop:
            self.incomplete = True
            got = (0, {})
        self._best[key] = got
        return got

    def _search(self, key: tuple[int, ...], used: int) -> tuple[int, dict[int, Walk]]:
        claims: list[int] = []
        top: list[int] = []
        solo: dict[int, Walk] = {}
        for i in key:
            if self.optimistic(i):
                gain, walk = self._solo(i, used)
                if walk is not None:
                    claims.append(i)
                    top.append(gain)
                    solo[i] = walk
        own = [solo[i][2] & ~used for i in claims]
        joined = 0
        for bits in own:
            if joined & bits:
                break
            joined |= bits
        else:  # the solo extensions fit together
            return sum(top), solo
        best_total = 0
        best_walks: dict[int, Walk] = {}
        chosen: dict[int, Walk] = {}
        most = sum(top)

        def solve(k: int, used: int, total: int) -> bool:
            """Search claims k.. ; True when the solo bests are all met (stop)."""
            nonlocal best_total, best_walks
            if k == len(claims):
                if total > best_total:
                    best_total, best_walks = total, dict(chosen)
                return best_total == most
            rest = sum(top[k + 1 :])
            i = claims[k]
            stops = self.stops(i)
            starts = self.starts(stops)
            avoid = set(stops)
            last = k == len(claims) - 1
            for gain, ss in self.targets(stops):
                if gain > top[k]:
                    continue  # not reachable even alone
                if total + gain + rest <= best_total:
                    break
                if not ss:
                    continue
                for walk in self.walks(starts, ss, used, avoid):
                    chosen[i] = walk
                    done = solve(k + 1, walk[2], total + gain)
                    del chosen[i]
                    if done:
                        return True
                    if last:
                        break  # any walk to these stops is as good for the last one
            if total + rest > best_total:
                return solve(k + 1, used, total)
            return False

        try:
            solve(0, used, 0)
        finally:
            # (a recursive closure refers to itself: a reference cycle, broken here)
            solve = None  # type: ignore[assignment]
        return best_total, best_walks


class _Flood:
    """What track leaving no side in ``used`` reaches from the stops ``starts``, through
    cities and towns not in ``avoid`` (the reach of :meth:`Extender._distances`, no
    distances kept), walked breadth first only as far as a question needs: :meth:`reaches`
    stops at the first of the stops asked for that it finds, and the next question goes on
    from there.  Each node it leaves counts one state in the extender's ``explored``, as
    in :meth:`Extender._distances`."""

    __slots__ = ("ext", "used", "avoid", "seen", "todo")

    def __init__(self, ext: Extender, starts: Sequence[int], used: int, avoid: set[int]) -> None:
        self.ext = ext
        self.used = used
        self.avoid = avoid
        self.seen = bytearray(len(ext.adj))
        for s in starts:
            self.seen[s] = 1
        self.todo: deque[int] = deque(starts)

    def reaches(self, stops: Sequence[int]) -> bool:
        """Is one of ``stops`` reached (a stop reached is not always passed through)?"""
        seen = self.seen
        for t in stops:
            if seen[t]:
                return True
        todo = self.todo
        if not todo:
            return False
        want = set(stops)
        ext = self.ext
        bits, adj, n_stops, through = ext.bits, ext.adj, ext.n_stops, ext.through
        used, avoid = self.used, self.avoid
        found = False
        while todo and not found:
            x = todo.popleft()
            ext.explored += 1
            if x < n_stops and seen[x] == 2:
                continue  # reached, but not passed through
            for pid, y in adj[x]:
                if not seen[y] and not bits[pid] & used:
                    # 2: a stop reached that is not passed (a start, 1, always leaves)
                    seen[y] = 2 if y < n_stops and (not through[y] or y in avoid) else 1
                    todo.append(y)
                    if y in want:
                        found = True
        return found
