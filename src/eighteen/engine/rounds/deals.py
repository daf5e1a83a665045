"""Deals between players, offered and answered (rules.deals_need_consent).

The rules put a price "both agree" on three deals: a train one corporation buys from
another whose president is another player, a private a corporation buys from a player who
is not its president, and a private traded between two players.  With
``rules.deals_need_consent`` the acting side's action (``buy_train``, ``buy_company``,
``trade_private``) is an offer: checked as the deal would be, then kept in the round
(``deal``) with nothing else changed, and the other player answers (``answer_deal``)
before anyone acts again.  Accepted, the deal is made as offered, by the step that took the
offer (``Context.make_deal``); refused, the acting side goes on with its turn, and the same
deal (the same item, a train counting as its type and selling corporation, going the same
way between the same two sides: :func:`key`) may not be offered again in the round unless
at a price better for the other player (a higher one from a buyer, a lower one from a
seller): so offers go up (or down) and end; the legal lists leave barred offers out.
Without the rule the acting side's action is the deal (18xx.games' reading).

``agreed`` is set only while an accepted deal is being made (:meth:`Answer.process`), so
that the step taking it makes it rather than offering it again; between actions it is
always None.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from eighteen.engine import trains
from eighteen.engine.actions import (
    Action,
    AnswerDeal,
    BuyCompany,
    BuyTrain,
    IllegalAction,
    TradePrivate,
    action_from_json,
)
from eighteen.engine.rounds.base import Step, check_actor

if TYPE_CHECKING:
    from eighteen.engine.context import Context


def answerer(g: Context, action: Action) -> str | None:
    """The other player of a deal, who must answer it: the president of the corporation
    whose train ``action`` buys, the owner of the private a corporation buys, the other
    side of a trade between players; None where there is none (a bank train, a president
    dealing with himself)."""
    corps = g.state.corporations
    if isinstance(action, BuyTrain):
        owner = trains.owner_of(g, action.train)
        if owner is None or owner not in corps:
            return None
        seller = corps[owner].president
        return seller if seller != corps[action.actor].president else None
    if isinstance(action, BuyCompany):
        owner = g.state.privates[action.private].owner
        return owner if owner != corps[action.actor].president else None
    if isinstance(action, TradePrivate):
        return action.counterparty
    return None


def key(g: Context, action: Action, answerer: str) -> str:
    """The deal apart from its price: the item (a train by its type and the corporation
    selling it: its trains of a type are one deal), the acting side, which way the item
    goes, and the other player."""
    if isinstance(action, BuyTrain):
        item = f"{trains.train_type(action.train)}@{trains.owner_of(g, action.train)}"
    elif isinstance(action, (BuyCompany, TradePrivate)):
        item = action.private
    else:  # (only the three deals are offered)
        raise AssertionError(f"{action.type} is no deal")
    way = "sells to" if _selling(g, action) else "buys from"
    return f"{action.type} {item} {action.actor} {way} {answerer}"


def _price(action: Action) -> int:
    assert isinstance(action, (BuyTrain, BuyCompany, TradePrivate))
    return action.price


def _selling(g: Context, action: Action) -> bool:
    """Does the acting side sell (a private of his own, to another player)?"""
    return isinstance(action, TradePrivate) and g.state.privates[action.private].owner == (
        action.actor
    )


def offered(g: Context, action: Action) -> bool:
    """The acting side's deal ``action``, checked and about to be made: if another player
    must answer it (:func:`answerer`), keep it as an offer and say so (the caller then
    changes nothing).  False when the deal is made now: no other player, the rule off, or
    the deal just accepted."""
    if not g.rules.deals_need_consent:
        return False
    who = answerer(g, action)
    if who is None:
        return False
    r = g.state.round
    data = action.to_json()
    if r.agreed == data:
        return False
    if refused(g, action):
        raise IllegalAction(
            f"{who} refused this deal at this price or a better one for "
            f"{'the buyer' if _selling(g, action) else 'the seller'} in this round"
        )
    r.deal = [who, data]
    g.note(f"{action.actor} offers {who} a deal: {_describe(action)}")
    return True


def refused(g: Context, action: Action) -> bool:
    """Was this deal refused in this round at its price or a better one for the other
    player (so it is not offered again: a new offer must be better for him)?"""
    if not g.state.round.refused:
        return False
    who = answerer(g, action)
    if who is None:
        return False
    k = key(g, action, who)
    price = _price(action)
    selling = _selling(g, action)
    for entry in g.state.round.refused:
        what, _, at = entry.rpartition(" ")
        if what == k and (price >= int(at) if selling else price <= int(at)):
            return True
    return False


def pending(g: Context) -> bool:
    """Does a deal wait for its answer?"""
    return getattr(g.state.round, "deal", None) is not None


def _describe(a: Action) -> str:
    if isinstance(a, BuyTrain):
        return f"train {a.train} for ${a.price}"
    if isinstance(a, BuyCompany):
        return f"{a.private} to {a.actor} for ${a.price}"
    assert isinstance(a, TradePrivate)
    return f"{a.private} for ${a.price}"


def offer_of(g: Context) -> tuple[str, dict[str, Any]] | None:
    """The deal waiting: (the player to answer, the offered action's JSON form)."""
    deal = getattr(g.state.round, "deal", None)
    if deal is None:
        return None
    return str(deal[0]), dict(deal[1])


class Answer(Step):
    """The other player of a deal offered to him accepts or refuses it; nothing else is
    done meanwhile."""

    name = "deal answer"
    actions: ClassVar = (AnswerDeal,)
    exclusive = True
    cheap = True

    def active(self, g: Context) -> bool:
        return pending(g)

    def actor(self, g: Context) -> str | None:
        offer = offer_of(g)
        return offer[0] if offer else None

    def legal(self, g: Context) -> list[Action]:
        who = self.actor(g)
        assert who is not None
        return [AnswerDeal(who, True), AnswerDeal(who, False)]

    def process(self, g: Context, action: Action) -> None:
        assert isinstance(action, AnswerDeal)
        check_actor(action, self.actor(g))
        r = g.state.round
        answerer, data = r.deal
        r.deal = None
        if action.accept:
            g.note(f"{answerer} accepts")
            r.agreed = data  # (so that the step taking it makes it, not offers it again)
            g.make_deal(action_from_json(data))
            r.agreed = None
            return
        offer = action_from_json(data)
        r.refused.append(f"{key(g, offer, answerer)} {_price(offer)}")
        g.note(f"{answerer} refuses {data['actor']}'s offer")
