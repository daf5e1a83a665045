"""What a corporation's network reaches (:class:`Reach`), the walk that finds it
(:class:`Walk`, :func:`walk`) and the edges a reach opens to a new tile
(:func:`gather_edges`): the walk over a track graph's tables (:mod:`eighteen.engine.graph`).
Generic: no title is named."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from eighteen.engine.face import Face
    from eighteen.engine.graph import TrackGraph


@dataclass
class Reach:
    """What a corporation's network reaches (from its tokens, following track).

    ``edges``: hex -> the edges a new tile may connect to (lay connectivity), as a bitmask
    (bit ``e`` for edge ``e``: ORed as the walk goes, with no set per hex); ``cities``: the
    (hex, city) reached (token candidates); ``stops``: every stop reached, as
    (hex, kind, index); ``joined``: the stops reached along track from a station (so each
    is the far end of a route of two stops).
    """

    edges: dict[str, int]
    cities: set[tuple[str, int]]
    stops: set[tuple[str, str, int]]
    joined: set[tuple[str, str, int]] = field(default_factory=set)
    #: the walk that found it, to walk on from (:meth:`TrackGraph.extend`); not part of
    #: the value
    walk: Walk | None = field(default=None, repr=False, compare=False)
    #: the corporation's stations, as stops (the walk's starts)
    own: frozenset[tuple[str, str, int]] = field(default=frozenset(), repr=False, compare=False)
    _order: list[str] | None = field(default=None, init=False, repr=False, compare=False)

    def joins_other(self, excluded: Collection[str] = ()) -> bool:
        """Does it join a station to a stop that is not a station nor on an ``excluded``
        hex (the far end of a route)?"""
        own = self.own
        # (a loop that stops at the first such stop, most often the first it looks at;
        # not any() of a generator expression, which compiled would be a closure)
        for s in self.joined:  # noqa: SIM110
            if s not in own and s[0] not in excluded:
                return True
        return False

    def hex_order(self) -> list[str]:
        """The hexes of ``edges``, sorted (made once: a reach is never changed)."""
        if self._order is None:
            self._order = sorted(self.edges)
        return self._order


@dataclass
class Walk:
    """A walk of :meth:`TrackGraph.reach`: the graph and tokens it walked on, its stations
    (stop ids), the stops whose paths it followed (``queued``) and the stops it reached
    along track (``joined``), each a flag by stop id, the paths it followed (``done``, a
    flag by path id) and the sides it entered (``~(side << 16 | hex number)``).  Flags in a
    bytearray, not sets: a graph's stop and path ids are dense and stay the same on every
    graph the walk is carried to (:meth:`TrackGraph._carry`), and a flag is one byte read
    where a set of a late game's followed paths is a hash table of a thousand slots or
    more, probed by each id's hash."""

    graph: TrackGraph
    corp: str
    stations: frozenset[str]
    starts: set[int]
    queued: bytearray
    joined: bytearray
    done: bytearray
    seen: set[int]
    tokens: dict[str, tuple[tuple[str, ...], ...]]

    def followed(self) -> list[int]:
        """The ids of the paths the walk followed, in order."""
        return [pid for pid, flag in enumerate(self.done) if flag]


def order_kept(r: Reach, prev: Reach) -> Reach:
    """``r``, with the sorted hexes of ``prev`` (:meth:`Reach.hex_order`) when it has the
    same hexes: a reach walked on from ``prev`` only adds to its edges, so the same count
    of hexes is the same hexes."""
    if len(r.edges) == len(prev.edges):
        r._order = prev._order
    return r


def gather_edges(
    edges: dict[str, int],
    touch: list[tuple[tuple[int, int], ...]],
    hex_ids: list[str],
    pids: list[int],
) -> None:
    """OR into ``edges`` (hex -> bitmask) the edges the paths ``pids`` reach (``touch``: a
    graph's table of them, by hex number): gathered hex by hex first, so that each hex is
    looked up in ``edges`` once, not once per path touching it (a module function, its
    locals typed by reach.pxd when compiled)."""
    if not pids:
        return
    acc = [0] * len(hex_ids)
    order: list[int] = []
    for pid in pids:
        for pair in touch[pid]:
            k = pair[0]
            m = pair[1]
            cur = acc[k]
            if not cur:
                order.append(k)  # (a mask is never 0: the first path touching the hex)
            acc[k] = cur | m
    for k in order:
        h = hex_ids[k]
        edges[h] = edges.get(h, 0) | acc[k]


def walk(
    ends: list[tuple[tuple[bool, int], tuple[bool, int]]],
    stop_paths: list[tuple[int, ...]],
    side_paths: dict[int, tuple[tuple[str, int], ...]],
    all_stops: list[tuple[str, str, int]],
    faces: dict[str, Face],
    tokens: dict[str, list[list[str]]],
    corp: str,
    queued: bytearray,
    joined: bytearray,
    done: bytearray,
    seen: set[int],
    todo: list[int],
    stride: int,
    until: Callable[[int], bool] | None,
) -> tuple[list[int], list[int]]:
    """The walk of :meth:`TrackGraph._follow` over the graph's tables (a module function,
    its locals typed by reach.pxd when compiled): from the states in ``todo``, following
    paths (``ends``), adding to ``queued``, ``joined``, ``done`` and ``seen``."""
    new_done: list[int] = []
    new_joined: list[int] = []
    while todo:
        x = todo.pop()
        if x >= 0:
            from_stop = True
            frm = x
            pids: tuple[Any, ...] = stop_paths[x]  # (path ids here, (hex, path) pairs below)
        else:
            from_stop = False
            frm = ~x >> 16
            came = ~x & 0xFFFF
            pids = side_paths.get(frm, ())  # (hex, path) pairs: the other hex's paths taken
        # (``p``, ``m`` and ``y`` are the ids as the sets and lists hold them, ``pid`` and
        # ``n`` as numbers: compiled, each id is made an object once, not at every use)
        for item in pids:
            p = item if from_stop else item[1]
            pid = p
            if not from_stop and pid // stride == came:
                continue  # (a path of the hex the walk came from)
            if not done[pid]:
                done[pid] = 1
                new_done.append(p)
            both = ends[pid]
            end = both[0]
            at_stop = end[0]
            if at_stop == from_stop and end[1] == frm:
                end = both[1]  # (the other end)
                at_stop = end[0]
            m = end[1]
            if not at_stop:
                n = m
                y = ~(n << 16 | pid // stride)
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
                continue
            n = m
            if joined[n]:
                continue  # followed or blocked already
            joined[n] = 1
            new_joined.append(m)
            if until is not None and until(m):
                return new_done, new_joined
            if queued[n]:
                continue
            h, kind, i = all_stops[n]
            if kind == "offboard":
                continue
            if kind == "city":
                cities = tokens.get(h)
                toks = cities[i] if cities is not None and i < len(cities) else ()
                if corp not in toks and len(toks) >= faces[h].cities[i].slots:
                    continue  # blocked: the walk ends here
            queued[n] = 1
            todo.append(m)
    return new_done, new_joined
