"""A bankrupt player leaves the game and the game goes on (rules.bankruptcy of kind
"player_eliminated"; seed 003, "emergency money" and its comparison section 7).

The cash he raised is already the corporation's.  His remaining certificates go to the
market; with the rule's ``shares_unmoved`` no price moves, even past the market limit or
with a president's certificate.  A corporation whose president's certificate went to the
market gets the player holding the most shares (at least the certificate's size; ties: the
first in seating order after the bankrupt player) as president, who swaps shares for the
certificate; if nobody can, the corporation closes (assumption: the seed does not say, and
no receivership is modelled).  His privates close.  The game ends at once when one player
is left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eighteen.engine import finance, market, privates, shares
from eighteen.engine.state import POOL
from eighteen.title.model import PlayerEliminated

if TYPE_CHECKING:
    from eighteen.engine.context import Context


def eliminate(g: Context, player: str) -> None:
    """Take the bankrupt player out of the game (see the module docstring)."""
    s = g.state
    rule = g.rules.bankruptcy
    unmoved = isinstance(rule, PlayerEliminated) and rule.shares_unmoved
    if player not in s.eliminated:
        s.eliminated.append(player)
    for c in g.tables.corporations:
        corp = c.id
        mine = shares.certs_of(g, corp, player)
        if not mine:
            continue
        for cert in mine:
            s.certs[cert] = POOL
        g.note(
            f"{player}'s {sum(shares.cert_percent(g, x) for x in mine)}% of {corp} go to the market"
        )
        if not unmoved and market.price(g, corp):
            finance.move_steps(g, corp, -1)
        if s.corporations[corp].president == player:
            _new_president(g, corp, player)
    for pid in privates.owned_by(g, player):
        privates.close(g, pid, f"{player} is bankrupt")
    left = [p.name for p in s.players if p.name not in s.eliminated]
    if len(left) <= 1:
        g.end_game("bankruptcy")


def _new_president(g: Context, corp: str, old: str) -> None:
    s = g.state
    need = shares.cert_percent(g, shares.president_cert(corp))
    best, best_pct = None, 0
    for name in shares.seat_order_from(g, old)[:-1]:
        pct = shares.percent_of(g, corp, name)
        if name not in s.eliminated and pct >= need and pct > best_pct:
            best, best_pct = name, pct
    if best is None:
        s.corporations[corp].president = None
        g.note(f"nobody can take the presidency of {corp}")
        finance.close(g, corp)
        return
    give: list[str] = []
    for cert in shares.ordinary_certs_of(g, corp, best):
        if sum(shares.cert_percent(g, x) for x in give) >= need:
            break
        give.append(cert)
    for cert in give:
        s.certs[cert] = POOL
    s.certs[shares.president_cert(corp)] = best
    s.corporations[corp].president = best
    g.note(f"{best} becomes president of {corp}")
