"""Home stations in the operating round (seed 002 "tokens"; facts §1): the home token is
placed free when the corporation first operates (its president picks the city on a
multi-city home hex with no fixed city); a home waiting for a tile with track is placed
as soon as one lies there; a private's tile lay with a free station offers it right
after the lay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from eighteen.engine import network
from eighteen.engine.actions import Action, IllegalAction, Pass, PlaceToken
from eighteen.engine.rounds.base import Step, check_actor
from eighteen.engine.rounds.or_step import ORStep, operating, or_round
from eighteen.engine.rounds.or_token import free_station_options

if TYPE_CHECKING:
    from eighteen.engine.context import Context


def place_home(g: Context, corp: str, hex_id: str, city: int) -> None:
    network.place_station(g, corp, hex_id, city)
    g.state.corporations[corp].home_placed = True
    g.note(f"{corp} places its home token in {hex_id}")


class HomeToken(ORStep):
    name = "home"
    actions: ClassVar = (PlaceToken,)

    def active(self, g: Context) -> bool:
        if not self.is_current(g):
            return False
        cs = g.state.corporations[operating(g)]
        return not cs.home_placed and len(network.home_options(g, operating(g))) > 1

    def legal(self, g: Context) -> list[Action]:
        corp = operating(g)
        return [PlaceToken(corp, h, c) for h, c in network.home_options(g, corp)]

    def skip(self, g: Context) -> None:
        corp = operating(g)
        cs = g.state.corporations[corp]
        if cs.home_placed or corp in g.state.home_waiting:
            return
        if network.board(g).home_waits(g.state.map, corp):
            g.state.home_waiting.append(corp)
            g.note(f"{corp}'s home city is chosen once a tile with track lies on its home hex")
            return
        opts = network.home_options(g, corp)
        if len(opts) == 1:
            place_home(g, corp, *opts[0])
        else:
            cs.home_placed = True  # nowhere to go: the reservation lapses
            g.note(f"{corp} finds no room for its home token")

    def process(self, g: Context, action: Action) -> None:
        assert isinstance(action, PlaceToken)
        check_actor(action, operating(g))
        if (action.hex, action.city) not in network.home_options(g, action.actor):
            raise IllegalAction(f"{action.hex} city {action.city} is not a home city option")
        place_home(g, action.actor, action.hex, action.city)
        self.done(g)


def due_home(g: Context) -> str | None:
    """The first corporation whose home choice waited (:class:`HomeToken`) and whose home
    hex now has a tile with track: it places its home token before anything else."""
    for corp in g.state.home_waiting:
        if not network.board(g).home_waits(g.state.map, corp):
            return corp
    return None


class PendingHome(Step):
    """A waiting home choice falls due (seed 002: a home picked among two cities): as soon as a tile with track lies
    on the home hex, whoever's turn it is, the corporation picks its home city."""

    name = "pending_home"
    actions: ClassVar = (PlaceToken,)
    cheap = True

    def active(self, g: Context) -> bool:
        return bool(g.state.home_waiting) and due_home(g) is not None

    def actor(self, g: Context) -> str | None:
        return due_home(g)

    def legal(self, g: Context) -> list[Action]:
        corp = due_home(g)
        assert corp is not None
        return [PlaceToken(corp, h, c) for h, c in network.home_options(g, corp)]

    def process(self, g: Context, action: Action) -> None:
        assert isinstance(action, PlaceToken)
        corp = due_home(g)
        check_actor(action, corp)
        if (action.hex, action.city) not in network.home_options(g, action.actor):
            raise IllegalAction(f"{action.hex} city {action.city} is not a home city option")
        g.state.home_waiting.remove(action.actor)
        place_home(g, action.actor, action.hex, action.city)


def free_station_due(g: Context) -> str | None:
    """The private whose free station the operating corporation must now place or
    decline (:class:`FreeStation`), if any."""
    pending = or_round(g).free_token
    return str(pending[1]) if pending and free_station_options(g) else None


class FreeStation(Step):
    """Right after a private's tile lay with ``token``, the operating corporation places
    one of its stations in the new city free and without a connection, or passes and so
    declines it (18xx.games: the company's pass); before anything else of its turn.  The
    free station is not the turn's own: that one may follow, at its price."""

    name = "free_station"
    actions: ClassVar = (PlaceToken, Pass)
    cheap = True

    def active(self, g: Context) -> bool:
        return free_station_due(g) is not None

    def actor(self, g: Context) -> str | None:
        return operating(g)

    def legal(self, g: Context) -> list[Action]:
        corp = operating(g)
        return [*(PlaceToken(corp, h, c) for h, c in free_station_options(g)), Pass(corp)]

    def process(self, g: Context, action: Action) -> None:
        corp = operating(g)
        check_actor(action, corp)
        r = or_round(g)
        assert r.free_token is not None  # (active: free_station_due)
        hex_id, private = r.free_token
        if isinstance(action, PlaceToken):
            if (action.hex, action.city) not in free_station_options(g):
                raise IllegalAction(
                    f"{corp}'s free station goes in {hex_id}, not in "
                    f"{action.hex} city {action.city}"
                )
            network.place_station(g, corp, action.hex, action.city)
            g.note(f"{corp} places a free token in {action.hex} ({private})")
        else:
            g.note(f"{corp} declines the free token of {private}")
        r.free_token = None


def settle_due_homes(g: Context) -> None:
    """Due homes with one city left to choose are placed at once; a due home with no room
    lapses (the corporation is left without a home token)."""
    while (corp := due_home(g)) is not None:
        opts = network.home_options(g, corp)
        if len(opts) > 1:
            return
        g.state.home_waiting.remove(corp)
        if opts:
            place_home(g, corp, *opts[0])
        else:
            g.state.corporations[corp].home_placed = True
            g.note(f"{corp} finds no room for its home token")
