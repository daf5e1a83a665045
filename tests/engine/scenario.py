"""Helpers for engine scenario tests: a standard opening and quick passes."""

from __future__ import annotations

from eighteen import Game, load_title
from eighteen.engine import bank
from eighteen.engine.actions import Action, Bid, BuyShares, Par, Pass
from eighteen.engine.tables import Tables

PLAYERS = ["A", "B", "C", "D"]


def actor(g: Game) -> str:
    """The player or corporation to act now (the game is neither over nor stuck)."""
    who = g.acting()
    assert who is not None, "nobody is to act"
    return who


def run(g: Game, *actions: Action) -> None:
    """Apply actions in order, checking each actor is the one due to act."""
    for a in actions:
        g.invalidate_caches()  # tests may edit the state between actions
        if a.type != "sell_shares" or g.state.round.kind != "operating":
            assert g.acting() == a.actor, f"{a}: {g.acting()} is to act"
        g.apply(a)


def opening(
    players: list[str] | None = None,
    bo_par: int = 67,
    title: Tables | None = None,
    options: list[str] | None = None,
) -> Game:
    """Four players buy the privates at face in turn: A SV, B CS, C DH, D MH, A CA, B BO;
    B sets B&O's par.  Stock round 1 then starts with C.  ``title``: 1830's tables or a
    changed copy; ``options``: its options (e.g. readings_18xx.READINGS_18XX)."""
    g = Game.new(title or load_title("1830"), players or PLAYERS, options=options or [])
    names = [p.name for p in g.state.players]
    order = ["SV", "CS", "DH", "MH", "CA", "BO"]
    faces = [20, 40, 70, 110, 160, 220]
    for i, (pid, face) in enumerate(zip(order, faces, strict=True)):
        run(g, Bid(names[i % len(names)], pid, face))
    bo_buyer = names[5 % len(names)]
    run(g, Par(bo_buyer, "B&O", bo_par))
    return g


def pass_round(g: Game) -> None:
    """Everyone passes until the round kind changes (OR: optional steps passed, forced
    steps take the first legal action)."""
    kind = g.state.round.kind
    number = getattr(g.state.round, "number", None)
    while (
        not g.is_over
        and g.state.round.kind == kind
        and getattr(g.state.round, "number", None) == number
    ):
        acts = g.legal_actions()
        passes = [a for a in acts if isinstance(a, Pass)]
        g.apply(passes[0] if passes else acts[0])


def strand_everyone(g: Game) -> None:
    """Every player broke and every private closed: no one can do anything but pass."""
    for p in g.state.players:
        g.state.bank += p.cash
        p.cash = 0
    for ps in g.state.privates.values():
        ps.closed = True
    g.invalidate_caches()


def money(g: Game) -> int:
    return bank.total_money(g)


def cash(g: Game) -> dict[str, int]:
    return {p.name: p.cash for p in g.state.players}


def second_stock_round(title: Tables | None = None, options: list[str] | None = None) -> Game:
    """B&M floats (C 30% president, A 20%, D 10%); NYC is started by D (20%) with B at 10%.
    Operating round 1: B&M must buy a 2-train (it has a route Boston - Mansfield) and
    withholds nothing at $100 -> $90.  Stock round 2 starts with B.  ``title``: other
    tables to play it on (1830's by default), ``options`` its options."""
    g = opening(title=title, options=options)
    run(
        g,
        Par("C", "B&M", 100),
        Par("D", "NYC", 67),
        BuyShares("A", "B&M", "ipo"),
        BuyShares("B", "NYC", "ipo"),
        BuyShares("C", "B&M", "ipo"),
        BuyShares("D", "B&M", "ipo"),
        BuyShares("A", "B&M", "ipo"),
        Pass("B"),
        Pass("C"),
        Pass("D"),
        Pass("A"),
    )
    pass_round(g)  # operating round 1
    assert g.state.round.kind == "stock" and g.state.round.number == 2
    return g
