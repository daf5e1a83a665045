"""Bots: players that choose among ``game.legal_actions()``.

A bot needs nothing but the public API (legal actions, apply, read-only views), so any
title the engine runs can be played by bots. Every choice is made with the bot's own
seeded random generator: the same seed gives the same game.

- ``RandomBot`` picks uniformly among the legal actions.
- ``GreedyBot`` scores each legal action with simple 18xx sense (float corporations, buy
  trains from the bank, run the best routes and pay out, issue shares only to afford a
  train, never sell unless it must) and picks the best, breaking ties at random.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from eighteen.engine import collector, market, takeovers, trains
from eighteen.engine.actions import (
    Action,
    AnswerTakeover,
    Bankrupt,
    Bid,
    BuyCompany,
    BuyFerry,
    BuyShares,
    BuyTrain,
    DiscardTrain,
    Dividend,
    ExchangePrivate,
    IssueShares,
    LayTile,
    Par,
    Pass,
    PlaceToken,
    RedeemShares,
    RunRoutes,
    SellShares,
    TakeOver,
    TradePrivate,
)
from eighteen.engine.game import STUCK
from eighteen.engine.rounds import auction
from eighteen.engine.trains import train_type
from eighteen.title.model import ExchangeShare

if TYPE_CHECKING:
    from eighteen.engine.game import Game


def pointless(game: Game, action: Action) -> bool:
    """Legal but to no purpose, so bots never take it: raising one's own best bid on a
    private in a normal auction turn (seed 000: "bidding twice on one company is of no
    use").  Left to bots, such raises could go on for ever while the privates pay out.
    Likewise trading a private that has changed hands already in this stock round: bots
    could pass one back and forth for ever.  And any bid above twice the most a
    corporation may ever pay for the private (its face value times
    rules.private_price_max_factor, at least its face): money its owner never sees again;
    in random play such bids drain the players until no one can start a corporation."""
    if isinstance(action, TradePrivate):
        return action.private in getattr(game.state.round, "traded", ())
    if not isinstance(action, Bid):
        return False
    face = float(game.tables.private(action.private).value)
    if action.price > 2 * face * max(1.0, game.rules.private_price_max_factor):
        return True
    if game.state.round.kind != "auction":
        return False
    if getattr(game.state.round, "bidoff", None) is not None:
        return False
    best = auction.best_bid(game, action.private)
    return best is not None and best[0] == action.actor


class Bot:
    """Base bot: ``choose(game)`` returns one of ``game.legal_actions()``."""

    name = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        actions = game.legal_actions()
        if not actions:
            raise ValueError("no legal action to choose from")
        return self.pick(game, [a for a in actions if not pointless(game, a)] or actions)

    def pick(self, game: Game, actions: list[Action]) -> Action:
        raise NotImplementedError


class RandomBot(Bot):
    """Uniformly random legal actions."""

    name = "random"

    def pick(self, game: Game, actions: list[Action]) -> Action:
        return self.rng.choice(actions)


@dataclass(frozen=True)
class Personality:
    """The style of a greedy bot, each trait between 0 and 1.

    - ``cash``: cash appetite, the share of its starting money a player keeps in hand
      rather than spends on shares of corporations others run (0 spends everything; 1
      buys them only with cash beyond its starting money).
    - ``risk``: how readily it takes a gamble: a high par, shares of corporations other
      players run, a withheld dividend for a train it cannot afford yet.
    """

    cash: float = 0.0
    risk: float = 0.5

    def __post_init__(self) -> None:
        for name in ("cash", "risk"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1, not {value}")


#: Named personalities for ``greedy:NAME``.
PERSONALITIES: dict[str, Personality] = {
    "default": Personality(),
    "cautious": Personality(cash=0.4, risk=0.1),
    "bold": Personality(cash=0.0, risk=0.9),
    "thrifty": Personality(cash=0.7, risk=0.5),
}


class GreedyBot(Bot):
    """Highest-scoring legal action; ties broken at random."""

    name = "greedy"

    def __init__(self, seed: int = 0, personality: Personality | None = None) -> None:
        super().__init__(seed)
        self.personality = personality or Personality()

    def pick(self, game: Game, actions: list[Action]) -> Action:
        scored = [(self.score(game, a), i) for i, a in enumerate(actions)]
        best = max(s for s, _ in scored)
        top = [actions[i] for s, i in scored if s == best]
        return self.rng.choice(top)

    def score(self, game: Game, a: Action) -> float:
        """Higher is better. Unknown action kinds score like a pass."""
        state = game.state
        style = self.personality
        if isinstance(a, Bankrupt):
            return -100.0
        if isinstance(a, Pass):
            return 0.0
        if isinstance(a, Bid):
            value = game.tables.private(a.private).value
            # buy at face value; otherwise bid only the minimum on a cheap private
            return 5.0 if a.price <= value else (0.5 if a.price <= value + 5 else -1.0)
        if isinstance(a, Par):
            cash = state.player(a.actor).cash if state.is_player(a.actor) else 0
            if any(
                c.president == a.actor and not c.floated and cid != a.corporation
                for cid, c in state.corporations.items()
            ):  # (the corporation being parred counts not: a granted president's share)
                return -0.5  # float the corporation it runs before starting another
            # the highest par at which it can buy 60% itself, so the corporation floats
            # at once; a bold bot counts on others to buy some, a cautious one keeps change;
            # when no par fits, the lowest (better than passing)
            budget = cash * (0.8 + 0.4 * style.risk)
            return 4.0 + a.price / 1000 if a.price * 6 <= budget else 1.0 - a.price / 1000
        if isinstance(a, BuyShares):
            return self.share_score(game, a)
        if isinstance(a, SellShares):
            return -5.0
        if isinstance(a, ExchangePrivate):
            # a share worth at least the private's face value
            cid = game.tables.abilities(a.private, ExchangeShare)[0].corporation
            face = game.tables.private(a.private).value
            return 1.0 if market.price(game, cid) >= face else -1.0
        if isinstance(a, TradePrivate):
            return -1.0  # trading privates between players only moves money around
        if isinstance(a, LayTile):
            score = 2.0 + self.tile_revenue(game, a.tile) / 200 + self.rng.random() / 10
            cost = self.terrain_cost(game, a.hex)
            corp = state.corporations.get(a.actor)
            if cost and corp is not None and cost * 4 > corp.cash * (1 + style.risk):
                return -0.2  # terrain that would eat the money for trains
            return score - cost / 1000
        if isinstance(a, PlaceToken):
            return 1.5
        if isinstance(a, RunRoutes):
            return 3.0 + sum(r.revenue for r in a.routes) / 10_000
        if isinstance(a, Dividend):
            if a.kind == "half":
                return 2.0
            return 3.0 if (a.kind == "payout") != self.should_withhold(game, a.actor) else 1.0
        if isinstance(a, IssueShares):
            # raise money only for a train it cannot afford yet
            return 0.5 - a.count / 100 if self.should_withhold(game, a.actor) else -0.5
        if isinstance(a, RedeemShares):
            return -0.5
        if isinstance(a, BuyFerry):
            return -0.2
        if isinstance(a, BuyTrain):
            owner = trains.owner_of(game, a.train)
            if owner is not None and owner in state.corporations:
                return -3.0 - a.price / 10_000  # from a rival: only when nothing else will do
            return 4.0 + (0.5 if a.exchange else 0.0) - a.price / 10_000
        if isinstance(a, DiscardTrain):
            return 1.0 - game.tables.train(train_type(a.train)).price / 10_000
        if isinstance(a, BuyCompany):
            return self.company_score(game, a)
        if isinstance(a, TakeOver):
            # absorb whenever it can: more stations, trains and cash for the same president;
            # the offer that costs the least cash first
            pay = takeovers.payment(game, a.actor, a.target, a.shares)
            return 2.5 - pay.cash_total / 10_000
        if isinstance(a, AnswerTakeover):
            return 1.0 if a.accept == self.should_sell_out(game, a.actor) else -1.0
        return 0.0

    def should_sell_out(self, game: Game, corp_id: str) -> bool:
        """Accept a takeover when the corporation could not buy the cheapest train on sale
        with its treasury: its shares are then worth more as cash."""
        on_sale = trains.on_sale_types(game)
        if not on_sale:
            return True
        cheapest = min(game.tables.train(t).price for t in on_sale)
        return game.state.corporations[corp_id].cash < cheapest

    def share_score(self, game: Game, a: BuyShares) -> float:
        """Own corporations first; others only with money to spare and some appetite
        for risk; never into a corporation whose price is falling toward closing."""
        state = game.state
        style = self.personality
        corp = state.corporations[a.corporation]
        if corp.president == a.actor:
            # shares bought from the IPO count toward floating
            return 3.5 + (0.1 if a.source == "ipo" and not corp.floated else 0.0)
        if any(c.president == a.actor and not c.floated for c in state.corporations.values()):
            return -0.5  # every dollar goes to floating its own corporation first
        player = state.player(a.actor) if state.is_player(a.actor) else None
        start = game.tables.starting_cash(len(state.players))
        if player is not None and player.cash < style.cash * start:
            return -0.5
        if corp.president is None:
            return 2.0 if style.risk >= 0.2 else -0.5
        return (2.0 if a.source == "ipo" else 1.5) if style.risk >= 0.3 else -0.5

    def company_score(self, game: Game, a: BuyCompany) -> float:
        """Buy a private from the president above face value while the treasury keeps
        enough for the cheapest train on sale."""
        state = game.state
        corp = state.corporations[a.actor]
        private = state.privates[a.private]
        face = game.tables.private(a.private).value
        if private.owner != corp.president or a.price <= face:
            return -0.5
        on_sale = trains.on_sale_types(game)
        need = min((game.tables.train(t).price for t in on_sale), default=0)
        if corp.cash - a.price < need and len(corp.trains) < 1:
            return -0.5
        return 0.5 + (a.price - face) / 10_000

    def terrain_cost(self, game: Game, hex_id: str) -> int:
        """The hex's terrain cost, paid by the first tile laid over it."""
        if hex_id in game.state.map.tiles:
            return 0
        h = game.tables.doc.hexes.get(hex_id)
        return h.cost if h else 0

    def tile_revenue(self, game: Game, tile: str) -> int:
        """What the tile's cities and towns earn: lays toward revenue come first."""
        t = game.tables.doc.tiles.get(tile)
        if t is None:
            return 0
        return sum(c.revenue for c in t.cities) + sum(w.revenue for w in t.towns)

    def should_withhold(self, game: Game, corp_id: str) -> bool:
        """Keep the money when the corporation has room for a train it cannot afford yet."""
        corp = game.state.corporations[corp_id]
        on_sale = trains.on_sale_types(game)
        if not on_sale or len(corp.trains) >= trains.corporation_limit(game, corp_id):
            return False
        cheapest = min(game.tables.train(t).price for t in on_sale)
        wanted = 2 if self.personality.risk > 0.6 else 1  # a bold bot saves for a second
        return corp.cash < cheapest and len(corp.trains) < wanted


BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in seat ``seat`` (from 0) of a game with seed ``game_seed``."""
    return game_seed * 1000 + seat


def make_bots(kind: str, players: list[str], seed: int) -> dict[str, Bot]:
    """One bot per player, each with its own seed derived from the game seed."""
    if kind not in BOTS:
        raise ValueError(f"unknown bot kind {kind!r}; choose from {sorted(BOTS)}")
    return {p: BOTS[kind](bot_seed(seed, i)) for i, p in enumerate(players)}


class GameUnfinished(RuntimeError):
    """:func:`play` stopped short of the game's end: the game is stuck (no one can act
    and the title has no end for it), or it did not end within its ``max_actions``."""


def play(
    game: Game,
    bots: Mapping[str, Bot],
    *,
    max_actions: int = 200_000,
) -> Generator[Action, None, None]:
    """Play the game to the end, yielding each applied action.

    ``bots`` maps player names to bots (:func:`make_bots`); corporations are run by their
    president's bot, and a player with no bot of his own by the first bot.  A ``bots``
    that is no such mapping is a TypeError at the call.  Raises :class:`GameUnfinished` if
    the game is stuck, or has not ended after ``max_actions`` actions (an action that ends
    it may be the last of them).  The game is played at the collector's bulk pace
    (:func:`eighteen.engine.collector.bulk`), the caller's work between the actions yielded
    included, until the game ends or the iterator is closed.
    """
    if not isinstance(bots, Mapping) or not bots:
        raise TypeError(
            "bots is a mapping of player name -> Bot, e.g. "
            f"make_bots('greedy', game.players, seed), not {type(bots).__name__}"
            + (" (empty)" if isinstance(bots, Mapping) else "")
        )
    for name, bot in bots.items():
        if not isinstance(bot, Bot):
            raise TypeError(f"the bot of {name!r} is a {type(bot).__name__}, not a Bot")
    return _bulk(game, bots, max_actions)


def _bulk(game: Game, bots: Mapping[str, Bot], max_actions: int) -> Generator[Action, None, None]:
    with collector.bulk():
        yield from _play(game, bots, max_actions)


def _play(game: Game, bots: Mapping[str, Bot], max_actions: int) -> Iterator[Action]:
    for _ in range(max_actions):
        if game.is_over:
            return
        if game.stuck:
            raise GameUnfinished(f"the game is stuck: {STUCK}")
        actor = game.acting()
        assert actor is not None
        owner = actor
        if not game.state.is_player(actor):
            corp = game.state.corporations.get(actor)
            owner = corp.president if corp is not None and corp.president else actor
        bot = bots.get(owner) or next(iter(bots.values()))
        action = bot.choose(game)
        game.apply(action)
        yield action
    if not game.is_over:
        raise GameUnfinished(f"the game did not end within {max_actions} actions")
