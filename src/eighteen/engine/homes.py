"""Variable homes (a corporation's ``variable_home``): no fixed home hex.

When such a corporation is started, its founder picks its home at once (the stock round
waits for the choice): any city that holds no station, is not reserved (a reservation, or
the home of a corporation not yet placed) and is no home of another corporation still in
the game (nor a hex held for a joint station).  The home station is placed there at once and the treasury pays for it:
``cost_untracked`` in a gray hex or a hex without track, ``cost`` anywhere else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eighteen.engine import bank, network
from eighteen.title.model import VariableHome

if TYPE_CHECKING:
    from eighteen.engine.context import Context


def variable(g: Context, corp: str) -> VariableHome | None:
    """The corporation's ``variable_home`` terms (None: it has a fixed home)."""
    return g.tables.corporation(corp).variable_home


def _fixed_homes(g: Context, corp: str) -> set[str]:
    """Homes of the other corporations still in the game, and the hexes their joint
    stations are placed in (held for those stations)."""
    out = set()
    corps = g.state.corporations
    for c in g.tables.corporations:
        jt = c.joint_token
        if jt and any(not corps[x].closed for x in (c.id, jt.partner)):
            out.add(str(jt.hex))  # placed for the owners still in the game
        if c.id == corp or corps[c.id].closed:
            continue
        if c.home:
            out.add(str(c.home))
    return out


def options(g: Context, corp: str) -> list[tuple[str, int]]:
    """(hex, city) where the corporation may place its variable home now, sorted."""
    b = network.board(g)
    m = g.state.map
    held = network.reserved(g)
    homes = _fixed_homes(g, corp) | set(g.state.chosen_homes.values())
    out = []
    for h in b.hex_ids:
        if h in homes or h in held:
            continue
        face = b.face(m, h)
        for i in range(len(face.cities)):
            if face.cities[i].slots > 0 and not m.city_tokens(h, i):
                out.append((h, i))
    return sorted(out)


def cost(g: Context, corp: str, hex_id: str) -> int:
    """The home station's price on ``hex_id``."""
    vh = variable(g, corp) or VariableHome.model_validate({})
    face = network.board(g).face(g.state.map, hex_id)
    plain = face.color == "gray" or not face.exits
    return vh.cost_untracked if plain else vh.cost


def problem(g: Context, corp: str, hex_id: str, city: int) -> str | None:
    """Why the corporation may not have its home there, or None."""
    if (hex_id, city) not in options(g, corp):
        return f"{hex_id} city {city} is not an empty, unreserved city free for {corp}'s home"
    price = cost(g, corp, hex_id)
    if g.state.corporations[corp].cash < price:
        return f"{corp} has ${g.state.corporations[corp].cash}, the home station costs ${price}"
    return None


def place(g: Context, corp: str, hex_id: str, city: int) -> None:
    """Pay for and place the home station (the caller has checked :func:`problem`)."""
    price = cost(g, corp, hex_id)
    bank.pay(g, corp, bank.BANK, price, f"{corp}'s home station")
    network.place_station(g, corp, hex_id, city)
    g.state.corporations[corp].home_placed = True
    g.state.chosen_homes[corp] = hex_id
    g.note(f"{corp} places its home station in {hex_id} for ${price}")
