"""Money: the bank, players and corporations pay each other.

Every amount moves between two holders named by id: ``"bank"``, a player name or a
corporation id, so money is conserved by construction.  The bank may run dry: it then
keeps paying (the debt is written on paper, seed 002 "game end") and is *broken*, which
ends the game per ``rules.bank_broken``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eighteen.engine.actions import IllegalAction

if TYPE_CHECKING:
    from eighteen.engine.context import Context

BANK = "bank"


def cash(g: Context, holder: str) -> int:
    """Cash of the bank, a player or a corporation."""
    s = g.state
    if holder == BANK:
        return s.bank
    if holder in s.corporations:
        return s.corporations[holder].cash
    return s.player(holder).cash


def _add(g: Context, holder: str, amount: int) -> None:
    s = g.state
    if holder == BANK:
        s.bank += amount
    elif holder in s.corporations:
        s.corporations[holder].cash += amount
    else:
        s.player(holder).cash += amount


def pay(g: Context, src: str, dst: str, amount: int, what: str = "payment") -> None:
    """Move ``amount`` from ``src`` to ``dst``.  Players and corporations cannot go below
    zero (IllegalAction); the bank can, and is then broken."""
    if amount < 0:
        raise IllegalAction(f"{what}: negative amount {amount}")
    if amount == 0:
        return
    if src != BANK and cash(g, src) < amount:
        raise IllegalAction(f"{what}: {src} has ${cash(g, src)}, needs ${amount}")
    _add(g, src, -amount)
    _add(g, dst, amount)
    if src == BANK and g.state.bank <= 0 and not g.state.bank_broken:
        g.state.bank_broken = True
        g.note("the bank is broken: the game ends after the current set of operating rounds")


def total_money(g: Context) -> int:
    """Bank + players + corporations (constant through the game)."""
    s = g.state
    return s.bank + sum(p.cash for p in s.players) + sum(c.cash for c in s.corporations.values())
