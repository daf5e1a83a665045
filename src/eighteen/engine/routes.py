"""Train routes: the route model, train rules, revenue, and checking a proposed route.

Rules (seed 002, "routes" and "revenue"; the engine's reading):

* A route is a continuous path of track joining two or more stops (cities, towns,
  off-boards). It never reuses track, never reverses at a junction (it crosses every hex side
  from one hex into the other) and visits each stop once. The two cities of a multi-city hex
  are separate stops, each entered and left by its own track.
* Off-boards and cities whose slots are all filled by other corporations' tokens may only be
  a route's first or last stop. A city holding the corporation's own token never blocks.
* A route includes at least one city holding the corporation's token.
* A train of distance N stops at most N times; every city, town and off-board passed is a
  stop (a train skips nothing). ``None`` = unlimited (the D train). Other train kinds
  (:class:`TrainRule`): N/M trains visit up to M stops and count the best N (one counted
  stop holds the corporation's station); N+s trains visit N stops of any kind plus up to s
  towns and count them all.
* Off-board revenue depends on the phase (``revenue_key``, e.g. "yellow" or "brown"). A
  route visits at most one off-board of the same ``group``.
* Two routes of one corporation share no track: no hex side (and so no path) is used twice.
  They may visit the same stops.
* Bonuses (:class:`ConnectionBonus`) add to a route that visits both of their ends.
* Interconnection bonuses (:class:`InterconnectionBonus`, seed 003) add to a route that
  visits one end and reaches another by an *extension*: track continuing the route from
  one of its end stops past the train's reach, used by no other route of the run, passing
  through any city or town (blocked ones too) but no off-board, its stops unpaid. A
  corporation's ferry links its port to other hexes by sea (``links``): a route or
  extension reaching the port reaches them too. See :func:`check_extension`.

Representation: a route is the sequence of its track pieces (:class:`Path`, one hex each)
from one end to the other; its stops follow. Routes are written in a canonical direction
(the smaller tuple of stop ids first) so equal routes compare equal. The best routes are
found by :mod:`eighteen.engine.routefinder` (:func:`best_routes` here is a shortcut).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Protocol

from eighteen.engine.capabilities import implements
from eighteen.engine.face import MapError, Path
from eighteen.engine.graph import TrackGraph
from eighteen.engine.map import NOT_KEPT, Board
from eighteen.engine.position import MapState
from eighteen.title.model import Bonus as BonusRecord
from eighteen.title.model import BonusKind, Distance


class RouteError(ValueError):
    """An illegal route; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, order=True)
class Stop:
    """A stop of a route: hex, kind ("city" | "town" | "offboard"), index on the hex, revenue.

    ``counted`` is False for a stop an N/M train visits without counting it (its revenue is
    then not part of the route's revenue).
    """

    hex: str
    kind: str
    index: int
    revenue: int
    counted: bool = True

    @property
    def id(self) -> str:
        """``"<hex>-<c|t|o><index>"``, e.g. ``"G19-c1"`` (:func:`stop_text`)."""
        return stop_text(self.hex, self.kind, self.index)


def stop_text(hex_id: str, kind: str, index: int) -> str:
    """A stop's id: ``"<hex>-<c|t|o><index>"``, e.g. ``"G19-c1"``."""
    return f"{hex_id}-{kind[0]}{index}"


def _forwards(stop_ids: Sequence[int], paths: Sequence[int]) -> tuple[Sequence[int], Sequence[int]]:
    """A route's stops and paths in its canonical direction: the stop ids read the
    smaller way round (a route is the same both ways); as given when they already are."""
    if tuple(stop_ids) > tuple(reversed(stop_ids)):
        return stop_ids[::-1], paths[::-1]
    return stop_ids, paths


@dataclass(frozen=True)
class Route:
    """One train's run: its stops and track pieces in order, bonuses, and its revenue.

    ``revenue`` = the revenue of the counted stops + the bonuses. ``bonuses`` lists
    (bonus id, amount) for each bonus the route earns.
    """

    train: str
    stops: tuple[Stop, ...]
    paths: tuple[Path, ...]
    revenue: int
    bonuses: tuple[tuple[str, int], ...] = ()
    #: track beyond the route's last or first stop, outwards, for interconnection bonuses
    extension: tuple[Path, ...] = ()

    @property
    def hexes(self) -> list[str]:
        """Stop hexes in route order (18xx.games ``hexes``)."""
        return [s.hex for s in self.stops]

    def connections(self) -> list[list[str]]:
        """18xx.games ``connections``: per stop-to-stop chain, the hexes it passes, ends included."""
        return route_connections(self.paths)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict: train, stop ids, path strings, revenue (and bonuses if any)."""
        out: dict[str, Any] = {
            "train": self.train,
            "stops": [s.id for s in self.stops],
            "paths": [p.text for p in self.paths],
            "revenue": self.revenue,
        }
        if self.bonuses:
            out["bonuses"] = [[b, v] for b, v in self.bonuses]
        if self.extension:
            out["extension"] = [p.text for p in self.extension]
        return out

    def explain(self) -> list[str]:
        """The revenue worked out, one line per stop and bonus, then the total.

        ``"  G19-c1  NY city          $40"``; stops an N/M train does not count show
        ``(not counted)``.
        """
        lines = []
        for s in self.stops:
            what = f"{s.id:<8} {s.kind:<8}"
            if s.counted:
                lines.append(f"  {what} ${s.revenue:>4}")
            else:
                lines.append(f"  {what} ${0:>4}  (${s.revenue}, not counted)")
        if self.extension:
            hexes: list[str] = []
            for p in self.extension:
                if not hexes or hexes[-1] != p.hex:
                    hexes.append(p.hex)
            lines.append(f"  {'extended':<8} {' '.join(hexes)}")
        for b, v in self.bonuses:
            lines.append(f"  {'bonus':<8} {b:<8} ${v:>4}")
        lines.append(f"  {'total':<17} ${self.revenue:>4}")
        return lines


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


# ---------------------------------------------------------------------------------------
# trains and bonuses


@dataclass(frozen=True)
class TrainRule:
    """How far a train runs and which stops it counts.

    * ``visit``: most stops of any kind the route may have (None: unlimited);
    * ``pay``: how many of them count, the best ones (None: all). An N/M train is
      ``TrainRule(visit=M, pay=N)``;
    * ``towns``: extra stops the route may have when they are towns (an N+s train is
      ``TrainRule(visit=N, towns=s)``), all counted;
    * ``station_paid``: the counted stops of an N/M train include one holding the
      corporation's station (rules.paid_stops_include_station).

    Distances in the compiled tables (docs/compiled-format.md) read with :meth:`of`.
    """

    visit: int | None = None
    pay: int | None = None
    towns: int = 0
    station_paid: bool = False

    @classmethod
    def of(cls, distance: TrainDistance, *, station_paid: bool = False) -> TrainRule:
        """Read a train distance: an int N, None or "unlimited", a :class:`Distance` (N/M:
        ``pay`` N of ``visit`` M; N+s: ``cities`` N and ``towns`` s), or a TrainRule
        (returned as it is)."""
        if isinstance(distance, TrainRule):
            return distance
        if type(distance) is int and not station_paid:
            rule = _PLAIN_RULES.get(distance)
            if rule is None:
                rule = _PLAIN_RULES[distance] = cls(distance)
            return rule
        if distance is None or distance == "unlimited":
            return _UNLIMITED
        if isinstance(distance, Distance):
            visit, pay = distance.visit, distance.pay
            if visit is not None:
                if pay is None:
                    return cls(visit)
                return cls(visit, pay, station_paid=station_paid)
            if distance.cities is not None:
                return cls(distance.cities, None, distance.towns or 0)
            raise ValueError(f"unreadable train distance {distance!r}")
        return cls(int(distance))

    @property
    def max_stops(self) -> int | None:
        """Most stops a route of this train may have (None: unlimited)."""
        return None if self.visit is None else self.visit + self.towns

    def fits(self, stops: int, towns: int) -> bool:
        """May a route with ``stops`` stops, ``towns`` of them towns, run with this train?"""
        if self.visit is None:
            return True
        return stops - towns <= self.visit and stops <= self.visit + self.towns

    def counted(self, revenues: Sequence[int], tokens: Sequence[bool]) -> tuple[bool, ...]:
        """Which stops count: all, or the best ``pay`` (with ``station_paid``, one of them a
        station when the route has one). Ties go to the earlier stop in route order."""
        n = len(revenues)
        if self.pay is None or self.pay >= n:
            return (True,) * n
        ranked = sorted(range(n), key=lambda i: (-revenues[i], i))
        top = ranked[: self.pay]
        if self.station_paid and self.pay > 0 and not any(tokens[i] for i in top):
            station = next((i for i in ranked if tokens[i]), None)
            if station is not None:
                top[-1] = station
        chosen = set(top)
        return tuple(i in chosen for i in range(n))

    def describe(self) -> str:
        """``"4"``, ``"D"`` (unlimited), ``"3/5"``, ``"5+3"``."""
        if self.visit is None:
            return "D"
        if self.pay is not None:
            return f"{self.pay}/{self.visit}"
        return f"{self.visit}+{self.towns}" if self.towns else str(self.visit)


#: The rule of a train that runs any distance (made once: a rule is a value).
_UNLIMITED = TrainRule()


#: The rule of each plain distance N read so far (:meth:`TrainRule.of`: made once each).
_PLAIN_RULES: dict[int, TrainRule] = {}

#: What :meth:`TrainRule.of` reads.
TrainDistance = int | str | Distance | TrainRule | None


class Bonus(Protocol):
    """Extra revenue a route may earn (connection bonuses, ferries).

    ``amount(hexes)`` is what a route visiting stops on ``hexes`` earns (0: nothing);
    ``most`` is an upper bound of ``amount`` (for the optimiser's bounds). A bonus with a
    true ``once`` attribute (see :func:`is_once`; a ferry) counts at most once in a
    corporation's run: only the route earning the most of it keeps it (the first such
    route in train order), see :func:`share_once`.
    """

    @property
    def id(self) -> str: ...

    @property
    def most(self) -> int: ...

    def amount(self, hexes: frozenset[str]) -> int: ...


@dataclass(frozen=True)
class ConnectionBonus:
    """Compiled ``bonuses`` row of kind "connection": a route visiting a stop on one of the
    hexes of every end earns ``value`` (the value for the current phase)."""

    id: str
    ends: tuple[frozenset[str], ...]
    value: int

    @property
    def most(self) -> int:
        return self.value

    def amount(self, hexes: frozenset[str]) -> int:
        return self.value if all(hexes & end for end in self.ends) else 0


@dataclass(frozen=True)
class InterconnectionBonus:
    """Compiled ``bonuses`` row of kind "interconnection": a route visiting a stop on one
    end, and not on another, earns ``value`` when it *reaches* that other end: its
    extension (see :func:`check_extension`) ends there, or a port on the route or at the
    extension's end links there by sea (``links``: (port hex, hexes), the corporation's
    ferries, set per corporation by engine.ferries)."""

    id: str
    ends: tuple[frozenset[str], ...]
    value: int
    links: tuple[tuple[str, frozenset[str]], ...] = ()
    #: marks a bonus read with :meth:`extended` (see :func:`reaches`)
    reaches: ClassVar[bool] = True

    @property
    def most(self) -> int:
        return self.value

    def amount(self, hexes: frozenset[str]) -> int:
        """What a route on ``hexes`` earns with no extension (by sea links alone)."""
        return self.extended(hexes, None)

    def extended(self, hexes: frozenset[str], end: str | None) -> int:
        """What a route on ``hexes`` earns with an extension ending at hex ``end``."""
        reached: set[str] = set() if end is None else {end}
        for port, to in self.links:
            if port in hexes or port == end:
                reached |= to
        if not reached:
            return 0
        for a in self.ends:
            if hexes & a:
                for b in self.ends:
                    if b is not a and not hexes & b and not reached.isdisjoint(b):
                        return self.value
        return 0


def reaches(bonus: Bonus) -> bool:
    """Is ``bonus`` earned by reaching past a route (an interconnection bonus, read with
    its ``extended(hexes, end)``)?"""
    return bool(getattr(bonus, "reaches", False))


def extension_value(bonuses: Sequence[Bonus], hexes: frozenset[str], end: str | None) -> int:
    """What the interconnection bonuses among ``bonuses`` pay a route on ``hexes`` whose
    extension ends at ``end`` (None: no extension)."""
    return sum(b.extended(hexes, end) for b in bonuses if reaches(b))  # type: ignore[attr-defined]


def is_once(bonus: Bonus) -> bool:
    """Does ``bonus`` count at most once per run (its ``once`` attribute; default no)?"""
    return bool(getattr(bonus, "once", False))


def share_once(routes: Sequence[Route], bonuses: Sequence[Bonus]) -> list[Route]:
    """The routes of one run with each once-per-run bonus (:func:`is_once`) kept only by
    the route earning the most of it (the first such route, in the given order): the others
    lose it from their ``bonuses`` and ``revenue``."""
    once = {b.id for b in bonuses if is_once(b)}
    if not once:
        return list(routes)
    keeper: dict[str, tuple[int, int]] = {}  # bonus id -> (amount, route index)
    for i, r in enumerate(routes):
        for bid, v in r.bonuses:
            if bid in once and (bid not in keeper or v > keeper[bid][0]):
                keeper[bid] = (v, i)
    out = []
    for i, r in enumerate(routes):
        drop = [(b, v) for b, v in r.bonuses if b in once and keeper[b][1] != i]
        if drop:
            r = replace(
                r,
                bonuses=tuple(x for x in r.bonuses if x not in drop),
                revenue=r.revenue - sum(v for _, v in drop),
            )
        out.append(r)
    return out


@implements("bonus", "connection", "interconnection")
def table_bonuses(records: Sequence[BonusRecord] | None, phase: str | None) -> list[Bonus]:
    """The route bonuses of a compiled title (its ``bonuses``, None: none) for phase
    ``phase`` (id), in table order.

    "connection" bonuses read as :class:`ConnectionBonus`, "interconnection" ones as
    :class:`InterconnectionBonus` (with no sea links: those belong to a corporation's
    ferries). Bonuses worth nothing in the phase are left out.
    """
    out: list[Bonus] = []
    for b in records or ():
        if phase is None:
            continue
        value = b.values.get(phase, 0)
        if not value:
            continue
        ends = tuple(frozenset(e.hexes) for e in b.between)
        if b.kind is BonusKind.connection:
            out.append(ConnectionBonus(b.id, ends, value))
        elif b.kind is BonusKind.interconnection:
            out.append(InterconnectionBonus(b.id, ends, value))
    return out


def visit_revenues(
    revenues: Sequence[int], hexes: Sequence[str], requires: Sequence[tuple[str, ...]]
) -> list[int]:
    """Stop revenues on one route: a stop with ``requires`` hexes (an off-board's
    ``requires_visit``) pays only if the route visits a stop on one of them."""
    visited = set(hexes)
    return [
        0 if req and visited.isdisjoint(req) else r
        for r, req in zip(revenues, requires, strict=True)
    ]


def route_value(
    rule: TrainRule,
    revenues: Sequence[int],
    tokens: Sequence[bool],
    hexes: Sequence[str],
    bonuses: Sequence[Bonus] = (),
) -> tuple[int, tuple[bool, ...], tuple[tuple[str, int], ...]]:
    """Revenue of a route's stops for a train: (total, counted flags, earned bonuses).

    ``revenues`` are what each stop pays on this route (see :func:`visit_revenues`)."""
    counted = rule.counted(revenues, tokens)
    total = sum(r for r, c in zip(revenues, counted, strict=True) if c)
    earned: list[tuple[str, int]] = []
    if bonuses:
        hs = frozenset(hexes)
        for b in bonuses:
            v = b.amount(hs)
            if v:
                earned.append((b.id, v))
                total += v
    return total, counted, tuple(earned)


# ---------------------------------------------------------------------------------------
# checking a given route


def _make_route(
    g: TrackGraph,
    corp: str,
    train: str,
    rule: TrainRule,
    stop_ids: Sequence[int],
    paths: Sequence[int],
    revenue_key: str,
    bonuses: Sequence[Bonus] = (),
    stations: Collection[str] = (),
) -> Route:
    """Build a Route in canonical direction, with its revenue for ``rule`` (``stations``:
    hexes where the corporation has a virtual station)."""
    stop_ids, paths = _forwards(stop_ids, paths)
    hexes = [g.stops[s][0] for s in stop_ids]
    revs = visit_revenues(
        [g.stop_revenue(s, revenue_key) for s in stop_ids],
        hexes,
        [g.requires_visit(s) for s in stop_ids],
    )
    toks = [g.has_token(s, corp) or h in stations for s, h in zip(stop_ids, hexes, strict=True)]
    total, counted, earned = route_value(rule, revs, toks, hexes, bonuses)
    stops = []
    for s, r, c in zip(stop_ids, revs, counted, strict=True):
        h, kind, i = g.stops[s]
        stops.append(Stop(h, kind, i, r, c))
    # (lists, not generator expressions: compiled, this function is typed, no closure)
    return Route(train, tuple(stops), tuple([g.paths[p] for p in paths]), total, earned)


def _check(
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
        hexes = tuple(sorted(_track_hexes(g, track)))
    else:
        hexes = kept[0]
        if _same_at(hexes, kept[1], tiles) and _same_at(hexes, kept[2], tokens):
            return kept[3]
    # (the arguments named, not unpacked from a tuple: compiled, a C call)
    found = _check_route(
        g, corp, train, rule, paths, revenue_key, bonuses, stations, excluded, pids, groups
    )
    laid = tuple([tiles.get(h) for h in hexes])
    board._keep("check", key, (hexes, laid, tuple([tokens.get(h) for h in hexes]), found))
    return found


def _track_hexes(g: TrackGraph, track: tuple[str, ...]) -> set[str]:
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
    route = _make_route(g, corp, train, rule, stop_ids, pids, revenue_key, bonuses, stations)
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
    found = _check(
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
        route, sides = _check(
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


def with_extension(
    route: Route, paths: Sequence[Path], end: str, bonuses: Sequence[Bonus]
) -> Route:
    """``route`` extended by ``paths`` to hex ``end``: its interconnection bonuses
    (:func:`reaches`) worked out again for that end, in the order of ``bonuses``."""
    hs = frozenset(route.hexes)
    have = dict(route.bonuses)
    earned = tuple(
        (b.id, v)
        for b in bonuses
        if (v := b.extended(hs, end) if reaches(b) else have.get(b.id, 0))  # type: ignore[attr-defined]
    )
    revenue = route.revenue - sum(have.values()) + sum(v for _, v in earned)
    return replace(route, bonuses=earned, revenue=revenue, extension=tuple(paths))


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
    track is tried in a fixed order and the first legal route (see :func:`check_route`) is
    returned; ``nodes`` (``"<hex>-<part>"``), when given, must name its stops. Raises
    :class:`RouteError` when no reading is legal.
    """
    g = board.graph(state)
    options, want = _reading_options(g, connections, nodes)
    errors: list[str] = []

    def legal(pids: list[int], stops: list[int]) -> Route | None:
        """The reading checked: its route, or None (the reason kept) when it is refused."""
        try:
            route_paths = [g.paths[p] for p in pids]
            return _check(
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
    (its track, its stop ids), in the direction :func:`check_route` gives a route; None
    when the connections have no reading.  For a caller that has the engine check the route
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
        if _same_at(named, kept[1], tiles):
            return kept[2]
    found = _first_reading(g, connections, nodes)
    board._keep("reading", key, (named, tuple([tiles.get(h) for h in named]), found))
    return found


def _same_at(hexes: tuple[str, ...], was: tuple[Any, ...], table: Mapping[str, Any]) -> bool:
    """Does ``table`` (the tiles, or the token snapshot) hold for ``hexes`` what ``was``
    holds, hex by hex?  (An unchanged hex most often holds the very object kept.)"""
    for i in range(len(hexes)):
        now = table.get(hexes[i])
        then = was[i]
        if now is not then and now != then:
            return False
    return True


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
    stop_ids, pids = _forwards(got[1], got[0])
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
