"""The station token step (seed 002 "tokens"): the operating corporation may place one
station token, paying the next cost on its charter (or its ``station_costs`` price
there), in a city its network reaches and no other corporation's reservation holds.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar

from eighteen.engine import network
from eighteen.engine.actions import Action, IllegalAction, Pass, PlaceToken
from eighteen.engine.bank import BANK, pay
from eighteen.engine.rounds.base import check_actor
from eighteen.engine.rounds.or_step import ORStep, operating, or_round

if TYPE_CHECKING:
    from eighteen.engine.context import Context


def next_token_cost(g: Context, corp: str, hex_id: str | None = None) -> int | None:
    """Cost of the corporation's next station (None: none left); a ``station_costs``
    entry for the hex replaces it (seed 003: a cheaper station in a reserved city).  A
    home token still waiting for its city (:class:`HomeToken`) keeps the charter's first
    token: the others are the later ones."""
    cs = g.state.corporations[corp]
    row = g.tables.corporation(corp)
    costs = row.tokens
    used = cs.tokens_placed + (corp in g.state.home_waiting)
    if used >= len(costs):
        return None
    special = (row.station_costs or {}).get(hex_id or "")
    return int(special) if special is not None else int(costs[used])


def token_options(g: Context) -> list[tuple[str, int, int]]:
    """(hex, city, cost) of the stations the corporation may place now as its turn's own."""
    return g.memo("tokens", _all_tokens, g)


def _all_tokens(g: Context) -> list[tuple[str, int, int]]:
    return list(_token_options(g))


def can_token(g: Context) -> bool:
    """May the corporation place a station token now?  (``bool(token_options(g))``,
    stopping at the first.)"""
    return g.memo(("can_token",), _first_token, g)


def _first_token(g: Context) -> bool:
    return next(_token_options(g), None) is not None


def _token_options(g: Context) -> Iterator[tuple[str, int, int]]:
    """The options of :func:`token_options`, one by one, in its order: the turn's own
    station (a power's free station is :class:`FreeStation`'s, decided before)."""
    corp = operating(g)
    r = or_round(g)
    cost = next_token_cost(g, corp)
    if cost is None or r.tokened or not _may_afford(g, corp, cost):
        return
    for h, c in network.token_options(g, corp):
        here = next_token_cost(g, corp, h)
        if here is not None and here <= g.state.corporations[corp].cash:
            yield (h, c, here)


def free_station_options(g: Context) -> list[tuple[str, int]]:
    """The (hex, city) where the operating corporation may place the free station a
    private's tile lay left pending (tile_lay ``token``): the laid hex's cities with
    room, connected or not, while it has a station left."""
    r = or_round(g)
    if not r.free_token:
        return []
    corp = operating(g)
    if next_token_cost(g, corp) is None:
        return []
    hexes = {str(r.free_token[0])}
    return list(network.token_options(g, corp, hexes=hexes, connected=False))


def _may_afford(g: Context, corp: str, cost: int) -> bool:
    """May the corporation pay for some station: its next charter ``cost``, or a cheaper
    ``station_costs`` price (:func:`next_token_cost`)?  When not, no city its network
    reaches is an option, and the network is not asked."""
    special = (g.tables.corporation(corp).station_costs or {}).values()
    cash = g.state.corporations[corp].cash
    # (a list, not a generator expression: compiled, this function is typed, no closure)
    return cost <= cash or any([int(price) <= cash for price in special])


class Token(ORStep):
    name = "token"
    actions: ClassVar = (PlaceToken, Pass)

    def active(self, g: Context) -> bool:
        return self.is_current(g) and can_token(g)

    def legal(self, g: Context) -> list[Action]:
        corp = operating(g)
        out: list[Action] = [PlaceToken(corp, h, c) for h, c, _ in token_options(g)]
        return [*out, Pass(corp)]

    def process(self, g: Context, action: Action) -> None:
        check_actor(action, operating(g))
        if isinstance(action, Pass):
            self.done(g)
            return
        assert isinstance(action, PlaceToken)
        for h, c, cost in token_options(g):
            if (h, c) == (action.hex, action.city):
                corp = action.actor
                pay(g, corp, BANK, cost, f"{corp} places a token")
                network.place_station(g, corp, h, c)
                g.note(f"{corp} places a token in {h} for ${cost}")
                or_round(g).tokened = True
                return
        raise IllegalAction(
            f"{action.actor} cannot place a token in {action.hex} city {action.city} now "
            "(one per turn, reached by its network, a free slot, no token there yet, cash)"
        )
