"""Private companies traded between players during a stock round (and sold by a president
raising money for a forced train purchase: rounds/or_trains.py).

Seed 000/002: players may sell a private company to another player at a price both
agree, in the buyer's or the seller's stock-round turn (the seller's with
``rules.private_sales_in_sellers_turn``), but not in the first stock round.  Enabled by
``rules.private_trades_between_players``; the first stock round by
``rules.private_trades_in_first_stock_round``; a private that came with a share
(grant_share) only with ``rules.private_trades_include_share_grants``.  A trade is the
turn's business (a turn with only a trade is no pass), and buying a private is the turn's
one purchase: no share may be bought after it, except more shares in a multiple-buy
(brown) cell, and no private after a share (seed 000, stock round: "buy one certificate,
or a private from a player").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from eighteen.engine import bank, privates, shares
from eighteen.engine.actions import Action, IllegalAction, TradePrivate
from eighteen.engine.rounds import deals
from eighteen.engine.rounds.base import Step, check_actor
from eighteen.title.model import GrantShare

if TYPE_CHECKING:
    from eighteen.engine.context import Context

#: The source recorded in ``StockRound.bought`` for a private bought from a player.
PRIVATE_PURCHASE = "player"


def trading_allowed(g: Context) -> bool:
    """Does this title let players trade privates now (this stock round)?"""
    r = g.state.round
    if not g.rules.private_trades_between_players:
        return False
    return r.number > 1 or g.rules.private_trades_in_first_stock_round


def trade_problem(g: Context, actor: str, pid: str, other: str, price: int) -> str | None:
    """Why this trade is illegal, or None."""
    s = g.state
    if not g.tables.is_private(pid) or not privates.is_open(g, pid):
        return f"{pid} is not an open private company"
    if other == actor or not s.is_player(other) or other in s.eliminated:
        return f"{other!r} is not another player in the game"
    if not g.rules.private_trades_include_share_grants and g.tables.abilities(pid, GrantShare):
        return f"{pid} came with a share: it is not traded between players"
    owner = s.privates[pid].owner
    if owner not in (actor, other):
        return f"{pid} belongs to neither {actor} nor {other}"
    buyer = other if owner == actor else actor
    if price < 1:
        return "a private is traded for at least $1"
    if price > s.player(buyer).cash:
        return f"{buyer} has only ${s.player(buyer).cash}"
    if g.rules.privates_count_for_cert_limit and shares.cert_count(
        g, buyer
    ) + 1 > shares.cert_limit(g):
        return f"{buyer} would exceed the certificate limit"
    return None


def stock_trade_problem(g: Context, actor: str, pid: str, other: str, price: int) -> str | None:
    """Why this trade is illegal in the acting player's stock-round turn (buying a private
    is the turn's one purchase), or None."""
    problem = trade_problem(g, actor, pid, other, price)
    if problem is not None:
        return problem
    owner = g.state.privates[pid].owner
    if owner == other and g.state.round.bought:
        return f"{actor} has already bought this turn"
    if owner == actor and not g.rules.private_sales_in_sellers_turn:
        return f"{pid} is bought in its buyer's turn, not sold in {actor}'s"
    return None


def transfer(g: Context, pid: str, seller: str, buyer: str, price: int) -> None:
    """The private changes hands between two players at ``price`` (checked by the caller)."""
    bank.pay(g, buyer, seller, price, f"{pid} from {seller}")
    g.state.privates[pid].owner = buyer
    g.note(f"{buyer} buys {pid} from {seller} for ${price}")


def listed_trade(
    g: Context, actor: str, pid: str, other: str, problem: Callable[..., str | None]
) -> TradePrivate | None:
    """The trade of ``pid`` between ``actor`` and ``other`` that the legal actions list
    (any agreed price is accepted): at face value; once the other player has refused that
    (rounds/deals.py), at the best price left for him, the buyer's cash or $1 from a seller;
    None if ``problem`` (:func:`trade_problem` or :func:`stock_trade_problem`) forbids it
    or a refusal bars it."""
    value = g.tables.private(pid).value
    if problem(g, actor, pid, other, value) is not None:
        return None
    face = TradePrivate(actor, pid, other, value)
    if not deals.refused(g, face):
        return face
    selling = g.state.privates[pid].owner == actor
    price = 1 if selling else g.state.player(actor).cash
    best = TradePrivate(actor, pid, other, price)
    if price == value or problem(g, actor, pid, other, price) is not None:
        return None
    return None if deals.refused(g, best) else best


def sale_offers(g: Context, seller: str, pid: str) -> list[TradePrivate]:
    """The seller's private ``pid`` offered to every other player (:func:`listed_trade`)."""
    out = []
    for p in g.state.players:
        if p.name != seller:
            a = listed_trade(g, seller, pid, p.name, trade_problem)
            if a is not None:
                out.append(a)
    return out


def can_buy_private(g: Context, player: str) -> bool:
    """Could ``player`` buy a private from another player now (at the least price)?  Such a
    player still has a choice in his turn, so he is not passed automatically."""
    if not trading_allowed(g):
        return False
    for pid in privates.open_privates(g):
        owner = g.state.privates[pid].owner
        if (
            owner is not None
            and owner != player
            and g.state.is_player(owner)
            and stock_trade_problem(g, player, pid, owner, 1) is None
            # (the trade listed, unless a refusal bars every price it may offer)
            and (
                not g.state.round.refused
                or listed_trade(g, player, pid, owner, stock_trade_problem) is not None
            )
        ):
            return True
    return False


class TradePrivates(Step):
    """Anytime step of a stock-round turn: the acting player's private trades."""

    name = "private trades"
    actions: ClassVar = (TradePrivate,)
    anytime: ClassVar[bool] = True

    def active(self, g: Context) -> bool:
        return trading_allowed(g)

    def actor(self, g: Context) -> str | None:
        return g.state.players[g.state.round.turn].name

    def legal(self, g: Context) -> list[Action]:
        """Trades at face value with every other player (any agreed price is accepted)."""
        who = self.actor(g)
        assert who is not None
        out: list[Action] = []
        for pid in privates.open_privates(g):
            owner = g.state.privates[pid].owner
            if owner is None or not g.state.is_player(owner):
                continue
            if owner == who:
                if g.rules.private_sales_in_sellers_turn:
                    out += sale_offers(g, who, pid)
                continue
            a = listed_trade(g, who, pid, owner, stock_trade_problem)
            if a is not None:
                out.append(a)
        return out

    def process(self, g: Context, action: Action) -> None:
        assert isinstance(action, TradePrivate)
        check_actor(action, self.actor(g))
        problem = stock_trade_problem(
            g, action.actor, action.private, action.counterparty, action.price
        )
        if problem:
            raise IllegalAction(problem)
        seller = g.state.privates[action.private].owner
        assert seller is not None
        buyer = action.counterparty if seller == action.actor else action.actor
        if deals.offered(g, action):
            return
        transfer(g, action.private, seller, buyer, action.price)
        r = g.state.round
        r.acted = True  # a trade is the turn's business: the turn is no pass
        if action.private not in r.traded:
            r.traded.append(action.private)
        r.last_actor = action.actor
        if buyer == action.actor:
            r.bought.append([action.private, PRIVATE_PURCHASE])
