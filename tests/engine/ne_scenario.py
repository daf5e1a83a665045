"""Helpers for 1833NE scenario tests: the seed's opening, tile lays by direction, and
snapshots of the numbers the worked example tabulates."""

from __future__ import annotations

from scenario import actor

from eighteen import Game, load_title
from eighteen.engine import market, network, trains
from eighteen.engine.actions import Action, Bid, LayTile, Pass

#: Four players; "A" is the seed's P1 (player names may not be private ids such as P1).
PLAYERS = ["A", "B", "C", "D"]


def new_game(players: list[str] | None = None) -> Game:
    return Game.new(load_title("1833ne"), players or PLAYERS)


def act(g: Game, *actions: Action) -> None:
    """Apply actions in order, checking the actor is the one due to act."""
    for a in actions:
        assert g.acting() == a.actor, f"{a}: {g.acting()} is to act"
        g.apply(a)


def auction(g: Game) -> None:
    """Seed step 1: the privates are offered in price order; A passes, B buys P1, C buys
    P2, D passes, A buys P3 (C&StL) at $50, then B, C and D buy P4, P5 and P6 at face.
    Stock round 1 starts with A (after D, the last to act)."""
    act(
        g,
        Pass("A"),
        Bid("B", "P1", 15),
        Bid("C", "P2", 40),
        Pass("D"),
        Bid("A", "P3", 50),
        Bid("B", "P4", 60),
        Bid("C", "P5", 70),
        Bid("D", "P6", 80),
    )
    assert g.state.round.kind == "stock"


def lay(g: Game, corp: str, hex_id: str, tile: str, toward: list[str]) -> LayTile:
    """The legal lay of ``tile`` on ``hex_id`` whose track points at every hex of
    ``toward``."""
    b = network.board(g)
    for a in g.legal_actions():
        if isinstance(a, LayTile) and a.hex == hex_id and a.tile == tile:
            exits = b.tile_face(hex_id, tile, a.rotation).exits
            if {b.neighbors[hex_id][e] for e in exits} >= set(toward):
                return a
    raise AssertionError(f"{corp} cannot lay {tile} on {hex_id} toward {toward}")


def finish(g: Game, corp: str) -> None:
    """The corporation passes the rest of its turn."""
    while g.acting() == corp:
        act(g, Pass(corp))


def pass_to(g: Game, corp: str, step: str) -> None:
    """The corporation passes its optional steps until ``step`` is current."""
    while g.state.round.step != step:
        act(g, Pass(corp))


def price(g: Game, corp: str) -> int | None:
    return market.price(g, corp) if g.state.corporations[corp].cell else None


def numbers(g: Game) -> tuple[int, int | None, int | None, int | None]:
    """(A's cash, B&W's treasury, B&W's price, HR's price), the seed's four columns."""
    bw = g.state.corporations["B&W"]
    return (
        g.state.player("A").cash,
        bw.cash if bw.par else None,
        price(g, "B&W"),
        price(g, "HR"),
    )


def opening(g: Game | None = None) -> Game:
    """The example's auction, then stock round 1: A starts B&W at $80, B RR at $100, C CV
    at $100, D FRR at $150; everyone passes. Operating round 1 (ascending prices: B&W,
    RR, CV, FRR) starts with B&W."""
    from eighteen.engine.actions import Par

    g = g or new_game()
    auction(g)
    act(g, Par("A", "B&W", 80), Par("B", "RR", 100), Par("C", "CV", 100), Par("D", "FRR", 150))
    all_pass(g)
    assert g.state.round.kind == "operating"
    return g


def all_pass(g: Game) -> None:
    """Every player passes until the stock round ends."""
    while g.state.round.kind == "stock":
        act(g, Pass(actor(g)))


def to_stock_round(g: Game) -> None:
    """Corporations pass every optional step (taking the first forced action) until the
    next stock round."""
    while g.state.round.kind != "stock":
        acts = g.legal_actions()
        passes = [a for a in acts if isinstance(a, Pass)]
        g.apply(passes[0] if passes else acts[0])


def set_cash(g: Game, corp: str, cash: int) -> None:
    """Put ``cash`` in the treasury (the bank gives or takes the difference)."""
    cs = g.state.corporations[corp]
    g.state.bank += cs.cash - cash
    cs.cash = cash
    g.invalidate_caches()


def enter(g: Game, card: str) -> None:
    """The first train of ``card`` is bought (phase change, rusting, phasing out), as
    trains.buy_from_bank does."""
    g.state.bought_types.append(card)
    trains.first_purchase(g, card)
    g.invalidate_caches()
