"""The choice of one route per train among a network's enumerated routes: a branch and
bound (step 3 of :mod:`eighteen.engine.routefinder`'s algorithm), with the once-per-run
bonuses and the interconnection bonuses' extensions valued exactly.  Generic: no title is
named."""

from __future__ import annotations

from collections.abc import Sequence

from eighteen.engine.extensions import Extender
from eighteen.engine.route_network import Network
from eighteen.engine.routes import (
    Bonus,
    TrainRule,
    is_once,
)

#: Per enumerated route, the once-per-run bonuses it earns: ((bonus number, amount), ...);
#: None when no bonus counts once.
_OnceOf = list[tuple[tuple[int, int], ...]] | None


def once_amounts(
    net: Network,
    routes: list[tuple[tuple[int, ...], tuple[int, ...], int]],
    bonuses: Sequence[Bonus],
) -> _OnceOf:
    """What each route earns of the bonuses counting once per run (:func:`is_once`)."""
    once = [b for b in bonuses if is_once(b)]
    if not once:
        return None
    hexes = [h for h, _, _ in net.g.stops]
    out: list[tuple[tuple[int, int], ...]] = []
    for stops, _, _ in routes:
        hs = frozenset(hexes[s] for s in stops)
        out.append(tuple((k, a) for k, b in enumerate(once) if (a := b.amount(hs))))
    return out


def _gain(pairs: tuple[tuple[int, int], ...], earned: dict[int, int]) -> tuple[int, dict[int, int]]:
    """(what a route's once-per-run bonuses ``pairs`` would count twice given the most of
    each the run earns already, ``earned``; ``earned`` with the route added). A once bonus
    counts the most any route of the run earns of it."""
    if not pairs:
        return 0, earned
    e = dict(earned)
    twice = 0
    for k, a in pairs:
        had = e.get(k, 0)
        twice += min(had, a)
        e[k] = max(had, a)
    return twice, e


class _Cands:
    """One train rule's candidates, best first, as bitsets over their positions.

    ``seg_mask[i]`` has bit ``j`` set when candidate ``j`` runs on segment ``i``; the
    candidates sharing track with a route are those on a segment in conflict with one of
    its segments (:attr:`Network.conflicts`).
    """

    def __init__(
        self,
        items: list[tuple[int, int, int]],
        net: Network,
        routes: list[tuple[tuple[int, ...], tuple[int, ...], int]],
        once_of: _OnceOf = None,
    ) -> None:
        self.items = items
        self.vals = [v for v, _, _ in items]
        #: per candidate, its once-per-run bonuses (see once_amounts), or None
        self.once = None if once_of is None else [once_of[i] for _, _, i in items]
        self.segs = [routes[i][1] for _, _, i in items]
        self.n = len(items)
        self.all = (1 << self.n) - 1
        self.conflicts = net.conflicts
        size = self.n // 8 + 1
        bufs: dict[int, bytearray] = {}
        for j, segs in enumerate(self.segs):
            byte, bit = j >> 3, 1 << (j & 7)
            for sid in segs:
                buf = bufs.get(sid)
                if buf is None:
                    buf = bufs[sid] = bytearray(size)
                buf[byte] |= bit
        self.seg_mask = {sid: int.from_bytes(buf, "little") for sid, buf in bufs.items()}
        self._block: dict[int, int] = {}

    def block(self, sid: int) -> int:
        """Candidates sharing a hex side with segment ``sid``."""
        m = self._block.get(sid)
        if m is None:
            m = 0
            get = self.seg_mask.get
            for t in self.conflicts[sid]:
                x = get(t)
                if x:
                    m |= x
            self._block[sid] = m
        return m

    def blocked_by(self, segs: tuple[int, ...]) -> int:
        """Candidates sharing a hex side with a route on ``segs``."""
        out = 0
        for sid in segs:
            out |= self.block(sid)
        return out


class _RouteSides:
    """Route ``i``'s (stop ids in order, hex-side bits) for an :class:`Extender`, the
    bits made once per route.  A callable of its own, not a method of :class:`Exact`:
    the extender keeps it, and a bound method of the object keeping the extender would
    make a reference cycle (the extender and its tables, thousands of objects a route
    search, left for the cyclic collector)."""

    def __init__(
        self, routes: list[tuple[tuple[int, ...], tuple[int, ...], int]], gsides: list[int]
    ) -> None:
        self.masks: dict[int, int] = {}
        self.routes = routes
        self.gsides = gsides

    def __call__(self, i: int) -> tuple[tuple[int, ...], int]:
        m = self.masks.get(i)
        if m is None:
            m = 0
            for sid in self.routes[i][1]:
                m |= self.gsides[sid]
            self.masks[i] = m
        return self.routes[i][0], m


class Exact:
    """Exact values of chosen routes with interconnection bonuses: the candidates count
    the most an extension may add to each (:meth:`Extender.optimistic`); ``deficit``
    says how much less the routes chosen together really earn (their extensions must
    share no track with each other nor with the routes)."""

    def __init__(
        self,
        net: Network,
        routes: list[tuple[tuple[int, ...], tuple[int, ...], int]],
        bonuses: Sequence[Bonus],
        excluded: frozenset[str] = frozenset(),
    ) -> None:
        self._route = _RouteSides(routes, net.gsides)
        self.ext = Extender(
            net.g, bonuses, self._route, excluded=excluded, stops=[r[0] for r in routes]
        )

    def sides(self, idxs: Sequence[int]) -> int:
        """The hex-side bits routes ``idxs`` use together."""
        used = 0
        for i in idxs:
            used |= self._route(i)[1]
        return used

    def deficit(self, idxs: Sequence[int]) -> int:
        """What routes ``idxs`` chosen together earn less than their candidate values."""
        opt = self.ext.optimistic
        most = sum(opt(i) for i in idxs)
        if not most:
            return 0
        return most - self.ext.best(idxs, self.sides(idxs))[0]

    def walks(self, idxs: Sequence[int]) -> dict[int, tuple[int, tuple[int, ...], int]]:
        """The extensions of routes ``idxs`` chosen together (by route index)."""
        if not any(self.ext.optimistic(i) for i in idxs):
            return {}
        return self.ext.best(idxs, self.sides(idxs))[1]

    def slack_beside(self, i: int, used: int) -> int:
        """How much route ``i``'s candidate value may overstate what it earns beside
        routes on the sides ``used`` (:meth:`Extender.beside`)."""
        return self.ext.optimistic(i) - self.ext.beside(i, used)

    def slack(self, i: int) -> int:
        """How much route ``i``'s candidate value may overstate what it earns in any run
        (:meth:`Extender.alone`)."""
        return self.ext.optimistic(i) - self.ext.alone(i)

    @property
    def explored(self) -> int:
        """States the extensions' valuing and the bounds' walks used."""
        return self.ext.explored + self.ext.bounding


#: How many of the last train's candidates a leaf values exactly before it bounds the rest
#: by the track the routes above leave them (:meth:`Exact.slack_beside`).
VALUED_FIRST = 2


def choose(
    lists: list[list[tuple[int, int, int]]],
    rules: list[TrainRule],
    budget: int,
    net: Network,
    routes: list[tuple[tuple[int, ...], tuple[int, ...], int]],
    once_of: _OnceOf = None,
    exact: Exact | None = None,
) -> tuple[list[tuple[int, int, int] | None], int, int, int]:
    """One candidate (or none) per train, sharing no hex side, with the greatest total.

    ``lists[k]``: train k's candidates (value, sides, route index) best first; identical
    trains (equal rules, side by side) share one list. A greedy choice gives a first total;
    candidates too poor to beat it whatever the other trains earn are dropped (a solution
    with one totals less than the greedy one); a branch and bound (:func:`_search`) runs on
    the rest. Candidate values count every bonus in full (an upper bound); a once-per-run
    bonus (``once_of``) earned by several chosen routes is taken off all but once in the
    totals, and so is what extensions for interconnection bonuses cannot earn together
    (``exact``). Returns (chosen item per train or None, total, upper bound, states used).
    """
    n = len(lists)
    if n == 0:
        return [], 0, 0, 0
    g_picks, g_total, g_bound, explored = _greedy(lists, rules, once_of, exact)
    greedy = [None if j is None else lists[k][j] for k, j in enumerate(g_picks)]
    if budget <= explored:
        return greedy, g_total, g_bound, explored
    top = [items[0][0] if items else 0 for items in lists]
    kept: dict[int, list[tuple[int, int, int]]] = {}
    for k, items in enumerate(lists):
        if id(items) not in kept:
            floor = g_total - (sum(top) - top[k])
            kept[id(items)] = [x for x in items if x[0] >= floor]
    shared: dict[int, _Cands] = {}
    for items in lists:
        if id(items) not in shared:
            shared[id(items)] = _Cands(kept[id(items)], net, routes, once_of)
    cand = [shared[id(items)] for items in lists]
    picks, total, bound, used, _ = _search(cand, rules, budget - explored, exact)
    explored += used
    if total < g_total:  # only when the budget ran out
        return greedy, g_total, max(bound, g_total), explored
    chosen = [None if j is None else cand[k].items[j] for k, j in enumerate(picks)]
    return chosen, total, bound, explored


def _greedy(
    lists: list[list[tuple[int, int, int]]],
    rules: list[TrainRule],
    once_of: _OnceOf = None,
    exact: Exact | None = None,
) -> tuple[list[int | None], int, int, int]:
    """Train by train, the best candidate sharing no side with those taken.

    Returns (positions, total, a valid upper bound: each train's best, states used)."""
    used = 0
    total = 0
    explored = 0
    picks: list[int | None] = []
    earned: dict[int, int] = {}
    for k, items in enumerate(lists):
        start = 0
        if k and rules[k] == rules[k - 1]:
            prev = picks[-1]
            start = len(items) if prev is None else prev + 1
        pick = None
        for j in range(start, len(items)):
            explored += 1
            if not items[j][1] & used:
                pick = j
                used |= items[j][1]
                total += items[j][0]
                if once_of is not None:
                    twice, earned = _gain(once_of[items[j][2]], earned)
                    total -= twice
                break
        picks.append(pick)
    if exact is not None:
        total -= exact.deficit([lists[k][j][2] for k, j in enumerate(picks) if j is not None])
    return picks, total, sum(items[0][0] for items in lists if items), explored


def _lowest(x: int) -> int:
    """The position of the lowest bit set in ``x`` (a candidate's position in a bitset)."""
    return (x & -x).bit_length() - 1


def _search(
    cand: list[_Cands], rules: list[TrainRule], budget: int, exact: Exact | None = None
) -> tuple[list[int | None], int, int, int, bool]:
    """Branch and bound over the trains' candidates.

    Level ``k`` is a train; its candidates are tried best first. ``blocked[m]`` holds the
    candidates of train ``m`` that share track with the routes chosen above. A node is cut
    when its revenue plus, for each train left, its best unblocked candidate cannot beat the
    best total found; a candidate is cut when its value plus the best the trains left could
    earn (identical trains: the next candidates in the list) cannot; the last train simply
    takes its best unblocked candidate. Identical trains take candidates in increasing
    positions. Each node counts as one state. With once-per-run bonuses (``_Cands.once``)
    the candidate values are upper bounds: a chosen route adds its value less what it
    counts twice (:func:`_gain`), and the last train scans its candidates for the best.
    With interconnection bonuses (``exact``) the values count the most extensions may add:
    every leaf (the last train's candidates while they may win, or none) is valued exactly,
    and beside a node's total the search carries a tighter bound of it, each chosen route
    counted at most what the track its own route leaves may earn it (:meth:`Exact.slack`);
    nodes and the last train's scan are cut on that. Once a leaf has valued
    :data:`VALUED_FIRST` of the last train's candidates exactly, each further one is
    skipped when it cannot win even bounded by the track the routes above leave it
    (:meth:`Exact.slack_beside`).

    Returns (positions, total, upper bound, states used, finished within the budget).
    """
    n = len(cand)
    top = [c.vals[0] if c.n else 0 for c in cand]
    same = [k > 0 and rules[k] == rules[k - 1] for k in range(n)]
    # twins[k]: how many of the next trains are identical to train k, in a row
    twins = [0] * n
    for k in range(n - 2, -1, -1):
        twins[k] = twins[k + 1] + 1 if same[k + 1] else 0
    chosen: list[int | None] = [None] * n
    best: list[int | None] = [None] * n
    best_total = -1
    explored = 0
    open_bound = -1  # bound of the subtrees left unexplored when the budget ran out
    out = False

    def rec(
        k: int, blocked: list[int], total: int, start: int, earned: dict[int, int], tight: int
    ) -> None:
        nonlocal best_total, best, open_bound, out, explored
        explored += 1
        c = cand[k]
        avail = c.all & ~blocked[k]
        if same[k] and start:
            avail &= ~((1 << start) - 1)
        if k == n - 1 and exact is not None:  # value each leaf that may win exactly
            # (``tight``: ``total`` less what the chosen routes' own track bars)
            prefix = [cand[m].items[j][2] for m, j in enumerate(chosen) if j is not None]
            above = -1  # (the sides of the routes above, found when first needed)
            if tight > best_total:
                w = total - exact.deficit(prefix)
                if w > best_total:
                    best_total = w
                    best = list(chosen)
            x = avail
            valued = 0  # candidates valued exactly here (the bound below pays after a few)
            while x:
                low = x & -x
                x ^= low
                i = low.bit_length() - 1
                if tight + c.vals[i] <= best_total:
                    break
                if valued >= VALUED_FIRST and explored + exact.explored < budget:
                    if above < 0:
                        above = exact.sides(prefix)
                    if tight + c.vals[i] - exact.slack_beside(c.items[i][2], above) <= best_total:
                        continue  # the routes above bar the extension it was valued with
                valued += 1
                v = c.vals[i]
                if c.once is not None:
                    v -= _gain(c.once[i], earned)[0]
                w = total + v - exact.deficit([*prefix, c.items[i][2]])
                if w > best_total:
                    best_total = w
                    chosen[k] = i
                    best = list(chosen)
                    chosen[k] = None
            return
        if k == n - 1:  # the last train takes its best unblocked route
            if avail:
                j = _lowest(avail)
                v = c.vals[j]
                if c.once is not None:  # values are upper bounds: scan while they may win
                    v -= _gain(c.once[j], earned)[0]
                    x = avail ^ (1 << j)
                    while x:
                        low = x & -x
                        x ^= low
                        i = low.bit_length() - 1
                        if c.vals[i] <= v:
                            break
                        w = c.vals[i] - _gain(c.once[i], earned)[0]
                        if w > v:
                            j, v = i, w
                if total + v > best_total:
                    best_total = total + v
                    chosen[k] = j
                    best = list(chosen)
                    chosen[k] = None
            elif total > best_total:
                best_total = total
                best = list(chosen)
            return
        # bound: every train left takes its best unblocked candidate
        bound = tight + (c.vals[_lowest(avail)] if avail else 0)
        for m in range(k + 1, n):
            free = cand[m].all & ~blocked[m]
            bound += cand[m].vals[_lowest(free)] if free else 0
        if bound <= best_total:
            return
        tw = twins[k]
        others = sum(top[k + 1 + tw :])
        vals = c.vals
        while avail:
            low = avail & -avail
            avail ^= low
            j = low.bit_length() - 1
            v = vals[j]
            rest = others + sum(vals[j + 1 : j + 1 + tw])
            if tight + v + rest <= best_total:
                return  # nor can any later candidate, nor running nothing
            if explored + (exact.explored if exact is not None else 0) >= budget:
                out = True
            tight_j = tight + v
            if not out and exact is not None:
                tight_j -= exact.slack(c.items[j][2])
                if tight_j + rest <= best_total:
                    continue  # its own track bars the extension it was valued with
            if not out:
                segs = c.segs[j]
                below = list(blocked)
                done: dict[int, int] = {}
                for m in range(k + 1, n):
                    cm = cand[m]
                    extra = done.get(id(cm))
                    if extra is None:
                        extra = done[id(cm)] = cm.blocked_by(segs)
                    below[m] |= extra
                chosen[k] = j
                if c.once is None:
                    rec(k + 1, below, total + v, j + 1, earned, tight_j)
                else:
                    twice, e2 = _gain(c.once[j], earned)
                    rec(k + 1, below, total + v - twice, j + 1, e2, tight_j - twice)
                chosen[k] = None
            if out:  # what is left at this level: later candidates (<= v) or nothing
                open_bound = max(open_bound, tight + v + rest)
                return
        rec(k + 1, blocked, total, c.n, earned, tight)  # train k runs nothing (nor its twins)

    try:
        rec(0, [0] * n, 0, 0, {}, 0)
    finally:
        # (a recursive closure refers to itself: a reference cycle, broken here)
        rec = None  # type: ignore[assignment]
    bound = max(best_total, open_bound) if out else best_total
    return best, max(best_total, 0), bound, explored, not out
