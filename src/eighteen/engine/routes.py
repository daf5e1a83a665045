"""Train routes: the route model, train rules, bonuses and a route's value.

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
  extension reaching the port reaches them too. See
  :func:`~eighteen.engine.route_check.check_extension`.

Representation: a route is the sequence of its track pieces (:class:`Path`, one hex each)
from one end to the other; its stops follow. Routes are written in a canonical direction
(the smaller tuple of stop ids first) so equal routes compare equal. The best routes are
found by :mod:`eighteen.engine.routefinder`.

This module holds the route model (:class:`Route`, :class:`Stop`), the train rules and the
bonuses; a given route is checked by :mod:`eighteen.engine.route_check`, and an 18xx.games
route read by :mod:`eighteen.engine.route_reading`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Protocol

from eighteen.engine.capabilities import implements
from eighteen.engine.face import Path
from eighteen.engine.graph import TrackGraph
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


def forwards(stop_ids: Sequence[int], paths: Sequence[int]) -> tuple[Sequence[int], Sequence[int]]:
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

    def total(self, revenues: Sequence[int], tokens: Sequence[bool]) -> int:
        """What the stops :meth:`counted` counts pay together, found without ranking the
        stops: the best ``pay`` revenues; with ``station_paid``, when every station pays
        less than the last of those, the best station's in its place (a station paying
        as much may stand for a stop it ties with: the same total)."""
        pay = self.pay
        if pay is None or pay >= len(revenues):
            return sum(revenues)
        best = sorted(revenues, reverse=True)
        total = sum(best[:pay])
        if self.station_paid and pay > 0:
            station = -1
            for r, t in zip(revenues, tokens, strict=True):
                if t and r > station:
                    station = r
            if 0 <= station < best[pay - 1]:
                total += station - best[pay - 1]
        return total

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
    route in train order), see :func:`share_once`. A bonus may also say which hexes its
    ``amount`` looks at (a ``hexes`` attribute, see :func:`bonus_hexes`): routes alike on
    those then share one reckoning in the optimiser.
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

    @property
    def hexes(self) -> frozenset[str]:
        """The hexes :meth:`amount` looks at: those of its ends."""
        return frozenset().union(*self.ends)

    def amount(self, hexes: frozenset[str]) -> int:
        return self.value if all(hexes & end for end in self.ends) else 0


@dataclass(frozen=True)
class InterconnectionBonus:
    """Compiled ``bonuses`` row of kind "interconnection": a route visiting a stop on one
    end, and not on another, earns ``value`` when it *reaches* that other end: its
    extension (see :func:`~eighteen.engine.route_check.check_extension`) ends there, or a
    port on the route or at the extension's end links there by sea (``links``: (port hex,
    hexes), the corporation's ferries, set per corporation by engine.ferries)."""

    id: str
    ends: tuple[frozenset[str], ...]
    value: int
    links: tuple[tuple[str, frozenset[str]], ...] = ()
    #: marks a bonus read with :meth:`extended` (see :func:`reaches`)
    reaches: ClassVar[bool] = True

    @property
    def most(self) -> int:
        return self.value

    @property
    def hexes(self) -> frozenset[str]:
        """The hexes :meth:`amount` looks at: those of its ends and its ports."""
        return frozenset().union(*self.ends, [port for port, _ in self.links])

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


def bonus_hexes(bonuses: Sequence[Bonus]) -> frozenset[str] | None:
    """The hexes the ``amount`` of each of ``bonuses`` looks at (their ``hexes``): a
    route's bonuses are those of the route's hexes among them.  None when a bonus does not
    say."""
    out: set[str] = set()
    for b in bonuses:
        hs = getattr(b, "hexes", None)
        if hs is None:
            return None
        out |= hs
    return frozenset(out)


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


def hex_bits(hexes: Sequence[str], among: Collection[str]) -> list[int]:
    """Per stop of ``hexes`` (each stop's hex), a bit of its hex when that is one of
    ``among`` (one bit per such hex, in sorted order), else 0: the hexes of ``among`` a
    route visits as one number, ORed over its stops (a cheap key where a frozenset of
    them would be made and hashed per route)."""
    bit_of = {h: 1 << k for k, h in enumerate(sorted(among))}
    return [bit_of.get(h, 0) for h in hexes]


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


def make_route(
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
    stop_ids, paths = forwards(stop_ids, paths)
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
