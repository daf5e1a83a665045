"""Trains: the depot, buying, rusting, phasing out, trade-ins and the train limit.

Train ids are ``<type>-<n>``.  A double-sided card (``variants``, seed 003 "trains") is
sold as the side the buyer picks, for good: the depot holds the card (``<card>-<n>``) and
the bought train is ``<side>-<n>``.  Phases, rusting and phasing out name the card (its
first side): buying either side is the card's first purchase.  A card whose
``obsolete_on`` card has been bought is phased out: its trains run once more and leave
after that run, do not count toward the train limit (unless
rules.obsolete_trains_count_for_limit) and cannot be sold to another corporation (unless
rules.obsolete_trains_tradable); at its ``rusts_on`` card they are removed.  The bank sells the types in table order: all copies of one
type before the next, except types whose ``available_on`` phase has begun (seed 002,
"buying trains"); a ``trade_in`` takes its discount off for an own train of the listed
types handed in.  Trains discarded to the bank are sold again at list price.  The first purchase of a type may start a phase, rust older
types and run events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from eighteen.compiled import Reach
from eighteen.engine import phase_change, phases, privates
from eighteen.engine.actions import IllegalAction
from eighteen.engine.bank import BANK, pay

if TYPE_CHECKING:
    from eighteen.engine.context import Context


def train_type(tid: str) -> str:
    return tid.rsplit("-", 1)[0]


def card_of(g: Context, tid: str) -> str:
    """The card (first side's type) a train or train type belongs to."""
    return str(g.tables.train(train_type(tid)).card or train_type(tid))


def distance(g: Context, tid: str) -> Reach:
    """The train's reach as the tables write it: N stops, None for unlimited, or a
    :class:`~eighteen.title.model.Distance` (N/M or N+s; read by routes.TrainRule)."""
    return g.tables.train(train_type(tid)).distance


def is_obsolete(g: Context, tid: str) -> bool:
    """Has the train's card been phased out (its obsolete_on card bought)?"""
    when = g.tables.train(train_type(tid)).obsolete_on
    return bool(when) and when in g.state.bought_types


def counted(g: Context, corp: str) -> list[str]:
    """The corporation's trains that count toward the train limit."""
    own = g.state.corporations[corp].trains
    if not g.rules.obsolete_trains_count_for_limit:
        return [t for t in own if not is_obsolete(g, t)]
    return list(own)


def tradable(g: Context, tid: str) -> bool:
    """May this train be sold to another corporation?"""
    return g.rules.obsolete_trains_tradable or not is_obsolete(g, tid)


def retire_obsolete(g: Context, corp: str) -> None:
    """Phased-out trains leave the game after their owner's run (seed 003)."""
    cs = g.state.corporations[corp]
    gone = [t for t in cs.trains if is_obsolete(g, t)]
    if gone:
        cs.trains = [t for t in cs.trains if t not in gone]
        g.note(f"{corp}'s phased-out trains leave: {', '.join(gone)}")


def list_price(g: Context, tid: str) -> int:
    return int(g.tables.train(train_type(tid)).price)


def initial_depot(
    counts: dict[str, int | None], order: list[str]
) -> tuple[list[str], dict[str, int]]:
    depot: list[str] = []
    minted: dict[str, int] = {}
    for t in order:
        n = counts[t]
        if n is None:
            minted[t] = 0
        else:
            depot.extend(f"{t}-{i}" for i in range(n))
    return depot, minted


@dataclass(frozen=True)
class Offer:
    """A train the bank sells now: id, price, and the own train handed in (if any).  (A
    few are made each time a corporation's trains step is asked about: a native class
    when compiled, trains.pxd, made by C code.)"""

    train: str
    price: int
    exchange: str | None = None


def _next_copy(g: Context, t: str) -> str:
    if t in g.state.minted:
        return f"{t}-{g.state.minted[t]}"
    for x in g.state.depot:  # (a loop, not a generator expression: this function is typed)
        if train_type(x) == t:
            return x
    raise StopIteration(t)


def on_sale_types(g: Context) -> list[str]:
    """Types the depot sells now: the first type with copies left, plus types whose
    available_on phase has begun."""
    out: list[str] = []
    minted = g.state.minted
    in_depot = {train_type(x) for x in g.state.depot}
    sale = g.tables.train_sale
    for t, _ in sale:
        if t in minted or t in in_depot:  # it has copies left
            out.append(t)
            break
    phase = g.state.phase
    for t, avail in sale:
        if avail is not None and phase >= avail and t not in out and (t in minted or t in in_depot):
            out.append(t)
    return out


def bank_offers(g: Context, corp: str) -> list[Offer]:
    """Every train the bank would sell ``corp`` now (depot and discards), with trade-ins."""
    out: list[Offer] = []
    own = g.state.corporations[corp].trains
    tables = g.tables
    for t in on_sale_types(g):
        row = tables.train(t)
        tid = _next_copy(g, t)
        copy_no = tid.rsplit("-", 1)[1]
        for side in row.sides:
            out.append(Offer(f"{side}-{copy_no}", int(tables.train(side).price)))
        ti = row.trade_in
        if ti:  # any owned copy of a type it takes may be traded in
            for x in own:
                if train_type(x) in ti.trains:
                    out.append(Offer(tid, row.price - ti.discount, x))
    seen_pool: set[str] = set()
    for x in g.state.train_pool:
        if train_type(x) not in seen_pool:
            seen_pool.add(train_type(x))
            out.append(Offer(x, list_price(g, x)))
    return out


def owner_of(g: Context, tid: str) -> str | None:
    """The corporation owning a train, "pool" for the bank's discards, or None."""
    for cid, cs in g.state.corporations.items():
        if tid in cs.trains:
            return cid
    if tid in g.state.train_pool:
        return "pool"
    return None


def buy_from_bank(g: Context, corp: str, tid: str, price: int, exchange: str | None) -> None:
    """The corporation buys a train from the bank at the offered price (the caller has
    validated it and arranged the cash)."""
    s = g.state
    cs = s.corporations[corp]
    from_pool = tid in s.train_pool
    t = card_of(g, tid)
    card_copy = f"{t}-{tid.rsplit('-', 1)[1]}"
    if exchange is not None:
        cs.trains.remove(exchange)
        s.train_pool.append(exchange)
        g.note(f"{corp} trades in {exchange}")
    pay(g, corp, BANK, price, f"{corp} buys train {tid}")
    if from_pool:
        s.train_pool.remove(tid)
    elif t in s.minted:
        s.minted[t] += 1
    else:
        s.depot.remove(card_copy)
    cs.trains.append(tid)
    g.note(f"{corp} buys train {tid} from the bank for ${price}")
    if t not in s.bought_types:
        s.bought_types.append(t)
        first_purchase(g, t)
    privates.on_train_bought(g, corp)


def buy_from_corporation(g: Context, corp: str, tid: str, price: int) -> None:
    seller = owner_of(g, tid)
    if seller is None or seller == "pool" or seller == corp:
        raise IllegalAction(f"train {tid} is not another corporation's")
    if not tradable(g, tid):
        raise IllegalAction(f"train {tid} is phased out and cannot be sold")
    pay(g, corp, seller, price, f"{corp} buys train {tid}")
    g.state.corporations[seller].trains.remove(tid)
    g.state.corporations[corp].trains.append(tid)
    g.note(f"{corp} buys train {tid} from {seller} for ${price}")
    privates.on_train_bought(g, corp)


def first_purchase(g: Context, t: str) -> None:
    """Events of the first purchase of a type: phase change, rusting, train events."""
    phase_change.on_train_bought(g, t)
    for row in g.tables.trains:
        if row.rusts_on == t:
            rust(g, row.id)
        if row.obsolete_on == t:
            g.note(f"{row.id}-trains are phased out: they run once more")
    for ev in g.tables.train(t).events:
        phase_change.run_event(g, ev)


def rust(g: Context, t: str) -> None:
    """Remove every train of card ``t`` (either side) from the game."""
    s = g.state
    gone = 0
    for cs in s.corporations.values():
        keep = [x for x in cs.trains if card_of(g, x) != t]
        gone += len(cs.trains) - len(keep)
        cs.trains = keep
    s.train_pool = [x for x in s.train_pool if card_of(g, x) != t]
    s.depot = [x for x in s.depot if card_of(g, x) != t]
    g.note(f"{t}-trains rust ({gone} removed)")


def limit_bonus(g: Context, corp: str) -> int:
    """Trains the corporation may own above the phase's limit (rules.takeovers: so many
    per takeover it made)."""
    tk = g.rules.takeovers
    if tk is None or not g.state.absorbed:
        return 0
    return tk.train_limit_bonus * sum(1 for a in g.state.absorbed.values() if a == corp)


def corporation_limit(g: Context, corp: str) -> int:
    """The phase's train limit plus the corporation's takeover bonus."""
    return phases.train_limit(g) + limit_bonus(g, corp)


def over_limit(g: Context) -> list[str]:
    """Corporations holding more trains than the phase allows, in table order."""
    limit = phases.train_limit(g)
    corps = g.state.corporations
    for cs in corps.values():
        if len(cs.trains) > limit:
            break
    else:
        return []  # no corporation holds more trains than the limit (the usual case)
    # the counted trains are some of its trains: a corporation with few trains is skipped
    return [
        c.id
        for c in g.tables.corporations
        if len(corps[c.id].trains) > limit and len(counted(g, c.id)) > corporation_limit(g, c.id)
    ]


def discard(g: Context, corp: str, tid: str) -> None:
    cs = g.state.corporations[corp]
    if tid not in cs.trains:
        raise IllegalAction(f"{corp} does not own train {tid}")
    cs.trains.remove(tid)
    g.state.train_pool.append(tid)
    g.note(f"{corp} discards {tid} to the bank")
