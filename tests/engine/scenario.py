"""Helpers for engine scenario tests: a standard opening and quick passes."""

from __future__ import annotations

from eighteen import Game, load_title
from eighteen.engine import bank, trains
from eighteen.engine.actions import (
    Action,
    AnswerDeal,
    Bid,
    BuyCompany,
    BuyShares,
    BuyTrain,
    Par,
    Pass,
    TradePrivate,
)
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


def is_offer(g: Game, a: Action) -> bool:
    """Is ``a`` a deal the other player must answer (rules.deals_need_consent): a private
    traded between players, a train bought from a corporation another player presides, a
    private a corporation buys from a player who is not its president?"""
    if not g.rules.deals_need_consent:
        return False
    corps = g.state.corporations
    if isinstance(a, TradePrivate):
        return True
    if isinstance(a, BuyTrain):
        owner = trains.owner_of(g, a.train)
        return owner in corps and corps[owner].president != corps[a.actor].president
    if isinstance(a, BuyCompany):
        return g.state.privates[a.private].owner != corps[a.actor].president
    return False


def offer(g: Game, deal: Action, answerer: str) -> None:
    """Apply ``deal`` (a player's or corporation's deal with another player; its side is
    to act, as :func:`run` checks) and check it is an offer only: kept in the round for
    ``answerer``, who alone acts now, to accept or refuse; no cash, train or private has
    moved."""
    g.invalidate_caches()  # tests may edit the state between actions
    if deal.type != "trade_private" or g.state.round.kind != "operating":
        # (a president's private sale for a train, or its buyer's, comes in the
        # corporation's turn)
        assert g.acting() == deal.actor, f"{deal}: {g.acting()} is to act"
    before = (
        cash(g),
        {c: (cs.cash, list(cs.trains)) for c, cs in g.state.corporations.items()},
        {pid: ps.owner for pid, ps in g.state.privates.items()},
        g.state.bank,
    )
    g.apply(deal)
    assert g.state.round.deal == [answerer, deal.to_json()]
    assert g.acting() == answerer
    assert g.legal_actions() == [AnswerDeal(answerer, True), AnswerDeal(answerer, False)]
    after = (
        cash(g),
        {c: (cs.cash, list(cs.trains)) for c, cs in g.state.corporations.items()},
        {pid: ps.owner for pid, ps in g.state.privates.items()},
        g.state.bank,
    )
    assert after == before


def agreed(g: Game, deal: Action, answerer: str) -> None:
    """Offer ``deal`` (:func:`offer`) and have ``answerer`` accept it: the deal is made."""
    offer(g, deal, answerer)
    run(g, AnswerDeal(answerer, True))


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
