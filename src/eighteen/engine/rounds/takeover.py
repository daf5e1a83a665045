"""The takeover round (rules.takeovers, engine.takeovers).

Held after the last operating round of each set once ``rules.takeovers.from_phase`` has
begun (and not when the bank has broken: the game then ends with the set).  Floated
corporations get one chance each, in operating order fixed at the round's start: take one
connected corporation over, or pass.  A corporation that cannot take any over is passed
automatically.  An offer the target may refuse waits for its answer (the target's
president acts for it).  Trains over the limit after a takeover are discarded at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from eighteen.engine import market, takeovers
from eighteen.engine.actions import Action, AnswerTakeover, IllegalAction, Pass, TakeOver
from eighteen.engine.rounds.base import Round, Step, check_actor
from eighteen.engine.rounds.or_trains import DiscardTrains

if TYPE_CHECKING:
    from eighteen.engine.context import Context


@dataclass
class TakeoverRound:
    kind: str = "takeover"
    order: list[str] = field(default_factory=list)  # corporations, fixed at the start
    index: int = 0  # position in ``order`` of the acting corporation
    offer: list[Any] | None = None  # [acquirer, target, shares] waiting for the answer


def due(g: Context) -> bool:
    """Is a takeover round held after this set of operating rounds?"""
    return takeovers.active(g)


def start(g: Context) -> None:
    floated = [
        c.id
        for c in g.tables.corporations
        if g.state.corporations[c.id].floated and not g.state.corporations[c.id].closed
    ]
    g.state.round = TakeoverRound(order=market.operating_order(g, floated))
    g.note("takeover round")


def _r(g: Context) -> TakeoverRound:
    r = g.state.round
    assert isinstance(r, TakeoverRound)
    return r


def _acting(g: Context) -> str | None:
    r = _r(g)
    return r.order[r.index] if r.index < len(r.order) else None


def offers(g: Context, corp: str) -> list[TakeOver]:
    """The takeovers ``corp`` may make (engine.takeovers.offers)."""
    return [TakeOver(corp, t, k) for t, k in takeovers.offers(g, corp)]


class Answer(Step):
    """The target of an offer it may refuse accepts or refuses."""

    name = "takeover answer"
    actions: ClassVar = (AnswerTakeover,)

    def active(self, g: Context) -> bool:
        return _r(g).offer is not None

    def actor(self, g: Context) -> str | None:
        offer = _r(g).offer
        return str(offer[1]) if offer else None

    def legal(self, g: Context) -> list[Action]:
        target = self.actor(g)
        assert target is not None
        return [AnswerTakeover(target, True), AnswerTakeover(target, False)]

    def process(self, g: Context, action: Action) -> None:
        assert isinstance(action, AnswerTakeover)
        check_actor(action, self.actor(g))
        r = _r(g)
        assert r.offer is not None
        corp, target, k = r.offer
        r.offer = None
        if action.accept:
            takeovers.take_over(g, corp, target, int(k))
        else:
            g.note(f"{target} refuses {corp}'s takeover")
        r.index += 1


class Offer(Step):
    """The acting corporation takes another over or passes."""

    name = "takeover"
    actions: ClassVar = (TakeOver, Pass)

    def active(self, g: Context) -> bool:
        return _acting(g) is not None

    def actor(self, g: Context) -> str | None:
        return _acting(g)

    def legal(self, g: Context) -> list[Action]:
        corp = _acting(g)
        assert corp is not None
        return [*offers(g, corp), Pass(corp)]

    def process(self, g: Context, action: Action) -> None:
        check_actor(action, self.actor(g))
        r = _r(g)
        if isinstance(action, Pass):
            r.index += 1
            return
        assert isinstance(action, TakeOver)
        why = takeovers.problem(g, action.actor, action.target, action.shares)
        if why:
            raise IllegalAction(why)
        if takeovers.needs_consent(g, action.actor, action.target):
            r.offer = [action.actor, action.target, action.shares]
            g.note(f"{action.actor} offers to take {action.target} over")
            return
        takeovers.take_over(g, action.actor, action.target, action.shares)
        r.index += 1


class TakeoverRoundSteps(Round):
    kind = "takeover"
    _steps: ClassVar[list[Step]] = [DiscardTrains(), Answer(), Offer()]

    def steps(self, g: Context) -> list[Step]:
        return self._steps

    def advance(self, g: Context) -> None:
        r = _r(g)
        while not g.state.game_over:
            g.end_changes()
            if g.pending_discard() or r.offer is not None:
                return
            corp = _acting(g)
            if corp is None:
                g.begin_changes()
                g.end_round()
                return
            cs = g.state.corporations[corp]
            if not cs.closed and offers(g, corp):
                return
            g.begin_changes()
            r.index += 1  # closed, or nothing it could take over: passed
