"""Ferries and the per-corporation route bonuses (seed 003, "unique mechanisms" and the
worked example, steps 14-15; the title's assumptions F1-F6).

The compiled ``ferries`` table lists the ports, each with one ferry a corporation may buy
for ``cost`` in its operating turn (one per turn) until the ``leave_on`` phase, when every
ferry leaves the game.  A ferry adds its port's value (by phase id) to its owner's routes
that stop at the port; the most recently bought ferry also carries the ``new_bonus`` - once
every ferry is sold, the last one sold keeps ``last_bonus`` for good.  A private with a
``ferry_multiplier`` power multiplies one ferry of its owner (with its new/last bonus when
``with_bonuses``); once its owner holds it and a ferry it is bound for good: to the only
ferry, or to the one the owner chooses among several (:func:`choice_due`).

A private's ``bonus_multiplier`` multiplies the named connection bonuses of its owner in
the listed phases.  A ferry also links its port by sea to the port's ``sea_link`` hexes:
its owner's interconnection bonuses (engine.routes.InterconnectionBonus) treat a route or
extension reaching the port as reaching those hexes.  :func:`route_bonuses` gives the route side everything a corporation's
routes may earn on top of their stops.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from eighteen.engine import phases, privates
from eighteen.engine.actions import IllegalAction
from eighteen.engine.bank import BANK, pay
from eighteen.engine.capabilities import implements
from eighteen.engine.routes import reaches
from eighteen.title.model import BonusMultiplier, Ferries, FerryMultiplier

if TYPE_CHECKING:
    from eighteen.engine.context import Context
    from eighteen.engine.routes import Bonus


def table(g: Context) -> Ferries | None:
    return g.tables.ferries


def gone(g: Context) -> bool:
    """Have the ferries left the game (their ``leave_on`` phase has begun)?"""
    t = table(g)
    return t is None or phases.reached(g, t.leave_on)


def owned(g: Context, corp: str) -> list[str]:
    """Ports whose ferry the corporation owns, in the order bought."""
    return [p for p in g.state.ferry_order if g.state.ferries.get(p) == corp]


def options(g: Context, corp: str) -> list[str]:
    """Ports whose ferry the corporation may buy now."""
    t = table(g)
    if t is None or gone(g) or g.state.corporations[corp].cash < int(t.cost):
        return []
    return [p.hex for p in t.ports if p.hex not in g.state.ferries]


def buy(g: Context, corp: str, port: str) -> None:
    """The corporation buys the ferry of ``port`` from the bank."""
    if port not in options(g, corp):
        raise IllegalAction(f"{corp} cannot buy the ferry of {port} now")
    t = table(g)
    assert t is not None
    pay(g, corp, BANK, int(t.cost), f"{corp} buys a ferry")
    g.state.ferries[port] = corp
    g.state.ferry_order.append(port)
    g.note(f"{corp} buys the ferry of {port} for ${t.cost}")
    bind_boosts(g)


def _unbound(g: Context) -> list[tuple[str, list[str]]]:
    """(private, its owner's ferries) for each open ferry_multiplier private not bound yet
    whose owner holds a ferry."""
    out: list[tuple[str, list[str]]] = []
    if not g.state.ferries:
        return out  # no one holds a ferry (the usual case)
    for pid in g.tables.holders(FerryMultiplier):  # (table order, as open_privates)
        if not privates.is_open(g, pid) or pid in g.state.ferry_boost:
            continue
        mine = owned(g, g.state.privates[pid].owner or "")
        if mine:
            out.append((pid, mine))
    return out


implements("ability", "ferry_multiplier")(_unbound)  # (typed: a call, not a decorator)


def bind_boosts(g: Context) -> None:
    """Bind each owned ferry_multiplier private whose owner holds one ferry to it (for
    good); with several ferries the owner chooses (:func:`choice_due`, :func:`choose`)."""
    for pid, mine in _unbound(g):
        if len(mine) == 1:
            bind(g, pid, mine[0])


def bind(g: Context, pid: str, port: str) -> None:
    g.state.ferry_boost[pid] = port
    g.note(f"{pid} doubles the ferry of {port}")


def choice_due(g: Context) -> tuple[str, str, list[str]] | None:
    """(private, owner, ferries) of a ferry_multiplier private whose owner must choose
    among several ferries now (it bought the private holding two or more)."""
    for pid, mine in _unbound(g):
        if len(mine) > 1:
            return pid, g.state.privates[pid].owner or "", mine
    return None


def choose(g: Context, corp: str, pid: str, port: str) -> None:
    """The owner binds its ferry_multiplier private to the ferry of ``port``."""
    due = choice_due(g)
    if due is None or due[:2] != (pid, corp) or port not in due[2]:
        raise IllegalAction(f"{corp} cannot have {pid} multiply the ferry of {port} now")
    bind(g, pid, port)


def on_phase(g: Context, phase_id: str) -> None:
    """At the ``leave_on`` phase every ferry leaves the game."""
    t = table(g)
    if t is not None and t.leave_on == phase_id and g.state.ferries:
        for port in g.state.ferries:
            g.state.ferries[port] = ""
        g.note("the ferries leave the game")


def value(g: Context, port: str) -> int:
    """What the ferry of ``port`` adds to its owner's route now (multiplier included)."""
    t = table(g)
    if t is None or gone(g) or not g.state.ferries.get(port):
        return 0
    ph = phases.current_id(g)
    row = next(p for p in t.ports if p.hex == port)
    base = int(row.values.get(ph, 0))
    bonus = 0
    if g.state.ferry_order and g.state.ferry_order[-1] == port:
        all_sold = len(g.state.ferry_order) == len(t.ports)
        bonus = int((t.last_bonus if all_sold else t.new_bonus).get(ph, 0))
    for pid, boosted in g.state.ferry_boost.items():
        if boosted != port or not privates.is_open(g, pid):
            continue
        if g.state.privates[pid].owner != g.state.ferries[port]:
            continue
        for ab in g.tables.abilities(pid, FerryMultiplier):
            k = int(ab.factor)
            base, bonus = base * k, bonus * k if ab.with_bonuses else bonus
    return base + bonus


@dataclass(frozen=True)
class FerryBonus:
    """A ferry as a route bonus: its value for a route stopping at its port, once per
    operating turn (``once``: one route of the run earns it)."""

    id: str
    port: str
    value: int
    once: bool = True

    @property
    def most(self) -> int:
        return self.value

    @property
    def hexes(self) -> frozenset[str]:
        """The hexes :meth:`amount` looks at: the port's."""
        return frozenset([self.port])

    def amount(self, hexes: frozenset[str]) -> int:
        return self.value if self.port in hexes else 0


@dataclass(frozen=True)
class ScaledBonus:
    """A connection bonus multiplied for one corporation (bonus_multiplier)."""

    base: Any
    factor: int

    @property
    def id(self) -> str:
        return str(self.base.id)

    @property
    def most(self) -> int:
        return int(self.base.most) * self.factor

    @property
    def once(self) -> bool:
        return bool(getattr(self.base, "once", False))

    @property
    def reaches(self) -> bool:
        return reaches(self.base)

    @property
    def ends(self) -> tuple[frozenset[str], ...]:
        return tuple(self.base.ends)

    @property
    def links(self) -> tuple[tuple[str, frozenset[str]], ...]:
        return tuple(getattr(self.base, "links", ()))

    @property
    def hexes(self) -> frozenset[str] | None:
        """The hexes the base's ``amount`` looks at (None: it does not say)."""
        hs = getattr(self.base, "hexes", None)
        return None if hs is None else frozenset(hs)

    def amount(self, hexes: frozenset[str]) -> int:
        return int(self.base.amount(hexes)) * self.factor

    def extended(self, hexes: frozenset[str], end: str | None) -> int:
        return int(self.base.extended(hexes, end)) * self.factor


def sea_links(g: Context, corp: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """(port, hexes it links to by sea) for each ferry the corporation owns, in port order."""
    t = table(g)
    if t is None:
        return ()
    mine = set(owned(g, corp))
    return tuple((p.hex, frozenset(p.sea_link)) for p in t.ports if p.hex in mine and p.sea_link)


@implements("ability", "bonus_multiplier")
def route_bonuses(g: Context, corp: str, base: list[Bonus]) -> list[Bonus]:
    """The corporation's route bonuses: ``base`` (the phase's connection and
    interconnection bonuses; the latter with its ferries' sea links) with its
    bonus_multiplier privates applied, plus its ferries."""
    ph = phases.current_id(g)
    factors: dict[str, int] = {}
    for pid in privates.owned_by(g, corp, BonusMultiplier):
        for ab in g.tables.abilities(pid, BonusMultiplier):
            if ab.phases and ph not in ab.phases:
                continue
            for b in ab.bonuses:
                factors[b] = factors.get(b, 1) * int(ab.factor)
    links = sea_links(g, corp)
    if links:
        base = [replace(b, links=links) if reaches(b) else b for b in base]  # type: ignore[type-var]
    out: list[Any] = [ScaledBonus(b, factors[b.id]) if b.id in factors else b for b in base]
    for port in owned(g, corp):
        v = value(g, port)
        if v:
            out.append(FerryBonus(f"ferry {port}", port, v))
    return out
