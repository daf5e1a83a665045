"""Takeovers: one corporation absorbs another (rules.takeovers).

From the phase ``rules.takeovers.from_phase`` on, a takeover round follows the last
operating round of each set (engine.rounds.takeover).  A corporation that owns a train that
is not obsolete and whose track reaches a city holding another corporation's station may
take that corporation over: it buys back every issued share of it (held by players or in
the market) at the target's market price, paying in cash and/or its own treasury shares
(each worth its own market price); "connected" counts either corporation's network,
track and ferry sea links.  The target's president may refuse unless the target
has no train or only obsolete ones; a player who is president of both accepts.

The acquirer receives the target's treasury (before it pays), trains, ferries, privates
and stations; its train limit rises by ``train_limit_bonus``; the target closes (so the
certificate limit of ``certificate_limit_by_corporations`` falls).  At the first takeover
one unsold copy of ``leaving_train`` leaves the bank.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from eighteen.engine import (
    bank,
    ferries,
    finance,
    market,
    network,
    phases,
    privates,
    shares,
    trains,
)
from eighteen.engine.capabilities import implements
from eighteen.engine.state import IPO, POOL

if TYPE_CHECKING:
    from eighteen.engine.context import Context


def active(g: Context) -> bool:
    """Are takeover rounds held now (the rule is on and its phase reached)?"""
    tk = g.rules.takeovers
    return tk is not None and phases.reached(g, tk.from_phase)


def live_trains(g: Context, corp: str) -> list[str]:
    """The corporation's trains that are not obsolete."""
    return [t for t in g.state.corporations[corp].trains if not trains.is_obsolete(g, t)]


def reached_hexes(g: Context, corp: str) -> set[str]:
    """Hexes of the cities ``corp``'s network reaches, and the hexes its ferries link to by
    sea from a port it reaches (a ferry is part of its network, as for its bonuses)."""
    stations = network.run_access(g, corp)[0]
    reach = network.board(g).reach(g.state.map, corp, stations)
    out = {h for h, _ in reach.cities}
    stops = {h for h, _, _ in reach.stops}
    for port, links in ferries.sea_links(g, corp):
        if port in stops:
            out |= links
    return out


def _station_hexes(g: Context, corp: str) -> set[str]:
    return {h for h, _ in g.state.map.token_cities(corp)}


def connected_targets(g: Context, corp: str) -> list[str]:
    """Open corporations connected with ``corp``: one's network (track, and its ferries'
    sea links) reaches a hex holding a station of the other, in table order."""
    mine = reached_hexes(g, corp)
    own = _station_hexes(g, corp)
    out = []
    for c in g.tables.corporations:
        cid = c.id
        cs = g.state.corporations[cid]
        if cid == corp or cs.closed or not cs.floated:
            continue
        if mine & _station_hexes(g, cid) or own & reached_hexes(g, cid):
            out.append(cid)
    return out


def can_take_over(g: Context, corp: str) -> bool:
    """Does ``corp`` meet the conditions to attempt a takeover at all?"""
    cs = g.state.corporations[corp]
    return cs.floated and not cs.closed and bool(live_trains(g, corp))


def _unit(g: Context, corp: str) -> int:
    """Percent of one ordinary share of the corporation."""
    return int(g.tables.corporation(corp).shares[-1])


def issued(g: Context, target: str) -> list[tuple[str, int]]:
    """(holder, percent) of the target's issued shares: players in seat order, then the
    market."""
    out = []
    for p in g.state.players:
        pct = shares.percent_of(g, target, p.name)
        if pct:
            out.append((p.name, pct))
    pool = shares.percent_of(g, target, POOL)
    if pool:
        out.append((POOL, pool))
    return out


@dataclass(frozen=True)
class Payment:
    """How a takeover is paid: shares of the acquirer to each player, and cash to each
    holder (the market's cash goes to the bank)."""

    price: int  # the whole price
    given: tuple[tuple[str, int], ...]  # (player, acquirer's treasury shares given)
    cash: tuple[tuple[str, int], ...]  # (holder, dollars)

    @property
    def cash_total(self) -> int:
        return sum(v for _, v in self.cash)


@implements("takeovers.price", "market")
def payment(g: Context, corp: str, target: str, offered: int) -> Payment:
    """Each issued share of the target at its market price.  Up to ``offered`` of the
    acquirer's treasury shares go, at the acquirer's market price, to the target's players
    in order of their holding (largest first, then seat order), each receiving shares
    while his due is not covered (the last may cover more: no change is given) and never
    above the holding limit; the rest of each due is paid in cash (the market's to the
    bank)."""
    unit = _unit(g, target)
    p_t = market.price(g, target)
    p_a = market.price(g, corp)
    own = shares.ordinary_certs_of(g, corp, IPO)
    left = min(offered, len(own))
    holders = issued(g, target)
    total = sum(pct // unit * p_t for _, pct in holders)
    given: list[tuple[str, int]] = []
    cash: list[tuple[str, int]] = []
    order = sorted(range(len(holders)), key=lambda i: (holders[i][0] == POOL, -holders[i][1], i))
    limit = g.rules.holding_limit_percent
    a_unit = _unit(g, corp)
    for i in order:
        who, pct = holders[i]
        owed = pct // unit * p_t
        n = 0
        if who != POOL and p_a > 0 and left:
            room = (limit - shares.percent_of(g, corp, who)) // a_unit
            n = max(0, min(left, -(-owed // p_a), room))
        if n:
            given.append((who, n))
            left -= n
        if owed > n * p_a:
            cash.append((who, owed - n * p_a))
    return Payment(total, tuple(given), tuple(cash))


def problem(g: Context, corp: str, target: str, offered: int) -> str | None:
    """Why ``corp`` may not take ``target`` over now with ``offered`` shares, or None."""
    s = g.state
    if corp not in s.corporations or target not in s.corporations:
        return "unknown corporation"
    if not can_take_over(g, corp):
        return f"{corp} has no train that is not obsolete"
    if target not in connected_targets(g, corp):
        return f"{corp}'s track does not reach a station of {target}"
    if offered > len(shares.ordinary_certs_of(g, corp, IPO)):
        return f"{corp} has only {len(shares.ordinary_certs_of(g, corp, IPO))} treasury shares"
    pay = payment(g, corp, target, offered)
    if sum(n for _, n in pay.given) < offered:
        return f"only {sum(n for _, n in pay.given)} of {corp}'s shares can be given"
    funds = s.corporations[corp].cash + s.corporations[target].cash
    if pay.cash_total > funds:
        return f"{corp} would pay ${pay.cash_total} in cash but has ${funds} with {target}'s"
    return None


@implements("takeovers.consent", "refuse_unless_no_live_trains")
def needs_consent(g: Context, corp: str, target: str) -> bool:
    """May the target refuse?  Only with a train that is not obsolete, and not when its
    president is also the acquirer's."""
    s = g.state
    if not live_trains(g, target):
        return False
    return s.corporations[target].president != s.corporations[corp].president


def take_over(g: Context, corp: str, target: str, offered: int) -> None:
    """Carry the takeover out.  The caller has checked :func:`problem` (the takeover
    step, when the offer is made; an answer follows at once, with nothing changed)."""
    s = g.state
    acq, tgt = s.corporations[corp], s.corporations[target]
    pay = payment(g, corp, target, offered)
    if tgt.cash:
        bank.pay(g, target, corp, tgt.cash, f"{target}'s treasury to {corp}")
    own = shares.ordinary_certs_of(g, corp, IPO)
    for who, n in pay.given:
        for cert in own[:n]:
            shares.transfer_cert(g, cert, who)
        own = own[n:]
        g.note(f"{who} receives {n} shares of {corp} for {target}")
    for who, amount in pay.cash:
        bank.pay(g, corp, bank.BANK if who == POOL else who, amount, f"{target} shares")
        g.note(f"{corp} pays ${amount} to {who} for {target} shares")
    # trains, privates, ferries, stations
    acq.trains.extend(tgt.trains)
    tgt.trains = []
    for pid in privates.owned_by(g, target):
        s.privates[pid].owner = corp
    for port, owner in list(s.ferries.items()):
        if owner == target:
            s.ferries[port] = corp
    joint = _joint_cities(g, target)
    for h, cities in s.map.tokens.items():
        for k, toks in enumerate(cities):
            if target in toks:
                i = toks.index(target)
                if corp in toks or (h, k) in joint:
                    toks.pop(i)  # already there, or a joint station: its partner keeps it
                else:
                    toks[i] = corp
    s.absorbed[target] = corp
    first = len(s.absorbed) == 1
    finance.close(g, target)
    shares.update_president(g, corp)
    g.note(f"{corp} takes over {target} for ${pay.price}")
    tk = g.rules.takeovers
    if first and tk is not None and tk.leaving_train:
        copies = [t for t in s.depot if trains.train_type(t) == tk.leaving_train]
        if copies:
            s.depot.remove(copies[-1])
            g.note(f"a {tk.leaving_train} card leaves the bank")


def _joint_cities(g: Context, corp: str) -> set[tuple[str, int]]:
    """Cities where ``corp`` shares a joint station with its partner (both tokens there)."""
    out = set()
    for c in g.tables.corporations:
        jt = c.joint_token
        if not jt or corp not in (c.id, jt.partner):
            continue
        other = jt.partner if c.id == corp else c.id
        for k, toks in enumerate(g.state.map.tokens.get(jt.hex, [])):
            if corp in toks and other in toks:
                out.add((str(jt.hex), k))
    return out


def offers(g: Context, corp: str) -> list[tuple[str, int]]:
    """(target, shares) of the takeovers ``corp`` may make now: each target paid in cash
    only, and with as many treasury shares as can be given (any number in between is
    accepted too)."""
    if not can_take_over(g, corp):
        return []
    n = len(shares.ordinary_certs_of(g, corp, IPO))
    out = []
    for t in connected_targets(g, corp):
        most = sum(k for _, k in payment(g, corp, t, n).given)
        for k in sorted({0, most}):
            if problem(g, corp, t, k) is None:
                out.append((t, k))
    return out
