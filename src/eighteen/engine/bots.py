"""Bots: players that choose among ``game.legal_actions()``.

A bot needs nothing but the public API (legal actions, apply, read-only views), so any
title the engine runs can be played by bots. Every choice is made with the bot's own
seeded random generator: the same seed gives the same game.

- ``RandomBot`` picks uniformly among the legal actions.
- ``GreedyBot`` scores each legal action with simple 18xx sense (float corporations, buy
  trains from the bank, run the best routes, pay out unless the corporation saves for a
  train, keep the money for a compulsory train before laying track or stations, sell a
  private to one's corporation where it is worth more, issue shares only to afford a
  train, never sell unless it must) and picks the best, breaking ties at random.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from eighteen.engine import collector, finance, market, privates, shares, takeovers, trains
from eighteen.engine.actions import (
    Action,
    AnswerDeal,
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
    action_from_json,
)
from eighteen.engine.game import STUCK
from eighteen.engine.rounds import auction, deals, or_step, or_token, or_track
from eighteen.engine.rounds.or_run import dividend_kinds
from eighteen.engine.state import IPO, POOL
from eighteen.engine.trains import train_type
from eighteen.title.model import (
    BlockHexes,
    BonusMultiplier,
    ExchangeShare,
    FerryMultiplier,
    FreeTileLay,
    GrantShare,
    TileLays,
    VirtualStation,
)

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
        self._taste: dict[str, float] = {}

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
            # the private that leaves the most of its worth over the price: at face value,
            # or a bid on one worth more (a granted share), to no more than its worth
            worth = self.private_worth(game, a.private)
            if a.price <= worth:
                return 5.0 + (worth - a.price) / 1000
            return 0.5 if a.price <= game.tables.private(a.private).value + 5 else -1.0
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
            cost = self.lay_cost(game, a)
            corp = state.corporations.get(a.actor)
            if corp is not None and self.keeps_for_train(game, a.actor, cost):
                return -0.2  # the money for the train it must buy first
            if cost and corp is not None and cost * 4 > corp.cash * (1 + style.risk):
                return -0.2  # a lay (terrain, fee) that would eat the money for trains
            return score - cost / 1000
        if isinstance(a, PlaceToken):
            if self.keeps_for_train(game, a.actor, self.token_cost(game, a)):
                return -0.2
            return 1.5
        if isinstance(a, RunRoutes):
            return 3.0 + sum(r.revenue for r in a.routes) / 10_000
        if isinstance(a, Dividend):
            values = self.dividend_values(game, a.actor)
            order = ("payout", "half", "withhold")  # (on a tie, paying out first)
            best = max(values, key=lambda k: (values[k], -order.index(k)))
            return 3.0 if a.kind == best else 1.0
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
                # from a rival: only when nothing else will do, offered nearest its list
                # price first (the least a greedy seller accepts: should_accept)
                return -3.0 - abs(a.price - trains.list_price(game, a.train)) / 10_000
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
        if isinstance(a, AnswerDeal):
            return 1.0 if a.accept == self.should_accept(game) else -1.0
        return 0.0

    def should_accept(self, game: Game) -> bool:
        """Accept a deal offered (rules.deals_need_consent) at no loss: a train sold at its
        list price at least, by a corporation that keeps a train it keeps running (or need
        own none); a private sold at its face value at least, or bought at most at it."""
        offer = deals.offer_of(game)
        assert offer is not None
        answerer, data = offer
        deal = action_from_json(data)
        if isinstance(deal, BuyTrain):
            if deal.price < trains.list_price(game, deal.train):
                return False
            seller = trains.owner_of(game, deal.train)
            assert seller is not None
            kept = game.state.corporations[seller].trains
            return game.rules.must_own_train == "never" or any(
                t != deal.train and not trains.is_obsolete(game, t) for t in kept
            )
        assert isinstance(deal, (BuyCompany, TradePrivate))
        face = game.tables.private(deal.private).value
        if game.state.privates[deal.private].owner == answerer:
            return deal.price >= face
        return deal.price <= face

    def should_sell_out(self, game: Game, corp_id: str) -> bool:
        """Accept a takeover when the corporation could not buy the cheapest train on sale
        with its treasury: its shares are then worth more as cash."""
        if not trains.on_sale_types(game):
            return True
        return game.state.corporations[corp_id].cash < cheapest_train(game)

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
        """Buy a private from the president, while the treasury keeps enough for the
        cheapest train on sale: above face value; or at the most allowed when the private
        is worth more to the corporation than to him (:meth:`better_in_corporation`)."""
        state = game.state
        corp = state.corporations[a.actor]
        private = state.privates[a.private]
        face = game.tables.private(a.private).value
        if private.owner != corp.president:
            return -0.5
        if a.price <= face and not (
            a.price >= game.tables.private_max_price(a.private)
            and self.better_in_corporation(game, a.private)
        ):
            return -0.5
        fee = privates.purchase_fee(game, a.private)
        if corp.cash - a.price - fee < cheapest_train(game) and len(corp.trains) < 1:
            return -0.5
        return 0.5 + (a.price - face) / 10_000

    def private_worth(self, game: Game, pid: str) -> float:
        """What a private is worth to a buyer: its face value, and the worth of a share it
        grants (the certificate's percent at the middle par price), as this bot sees it
        (within ``TASTE`` of that)."""
        tables = game.tables
        worth = float(tables.private(pid).value)
        pars = sorted(tables.par_prices())
        par = pars[len(pars) // 2] if pars else 0
        for ab in tables.abilities(pid, GrantShare):
            certs = tables.cert_table[ab.corporation]
            percent = certs[0][1] if ab.president else min(p for _, p in certs)
            if pid not in self._taste:  # (each bot its own view, the same all game)
                self._taste[pid] = 1.0 + TASTE * (2 * self.rng.random() - 1)
            worth += GRANT_WEIGHT * self._taste[pid] * par * percent / 10
        return worth

    def better_in_corporation(self, game: Game, pid: str) -> bool:
        """Is a private worth more in a corporation than in a player's hands: a phase to
        come, no later than the private's own closing, closes the privates players own; or
        its powers serve only a corporation (lays, stations, multipliers; a block of hexes
        holds only while a player owns it, his own corporation blocked too)?"""
        tables = game.tables
        row = tables.private(pid)
        now = game.state.phase
        ends = tables.phase_index(row.closes_on) if row.closes_on else len(tables.phases)
        if any("close_player_privates" in ph.events for ph in tables.phases[now + 1 : ends + 1]):
            return True
        return any(isinstance(ab, CORPORATION_POWERS) for ab in row.abilities)

    def keeps_for_train(self, game: Game, corp_id: str, cost: int) -> bool:
        """Would spending ``cost`` leave a corporation with no train it keeps (phased-out
        trains leave after its run), which the title makes it buy, short of the cheapest
        train on sale?  (Track and stations wait.)"""
        corp = game.state.corporations.get(corp_id)
        if corp is None or not cost or game.rules.must_own_train == "never":
            return False
        if any(not trains.is_obsolete(game, t) for t in corp.trains):
            return False
        return corp.cash - cost < cheapest_train(game)

    def lay_cost(self, game: Game, a: LayTile) -> int:
        """What the lay costs the corporation: terrain, costed sides and the turn's fee."""
        if not self._operating(game, a.actor):
            return self.terrain_cost(game, a.hex)
        costs = game.memo(("bot lay costs",), _lay_costs, game)  # (one table a position)
        cost = costs.get((a.hex, a.tile, a.rotation, a.private))
        return self.terrain_cost(game, a.hex) if cost is None else cost

    def token_cost(self, game: Game, a: PlaceToken) -> int:
        """What the station costs the corporation (0 when it is none of its own turn's)."""
        if not self._operating(game, a.actor):
            return 0  # (a home station placed in a stock round)
        for hex_id, city, cost in or_token.token_options(game):
            if (hex_id, city) == (a.hex, a.city):
                return cost
        return 0

    @staticmethod
    def _operating(game: Game, corp_id: str) -> bool:
        """Is ``corp_id`` the corporation operating now (whose lays and stations the
        operating round's options list)?"""
        return game.state.round.kind == "operating" and or_step.operating(game) == corp_id

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

    def dividend_values(self, game: Game, corp_id: str) -> dict[str, float]:
        """:meth:`_dividend_values`, worked out once a position (each dividend kind is
        scored with all of them)."""
        key = ("bot dividends", corp_id, self.personality.risk)
        values: dict[str, float] = game.memo(key, self._dividend_values, game, corp_id)
        return values

    def _dividend_values(self, game: Game, corp_id: str) -> dict[str, float]:
        """What each dividend kind is worth to the president, in dollars: his part of what
        is paid, his shares' change of price, and the money kept (with the corporation's
        dividends on its own shares, where the title pays them; his part of it, weighed
        ``SAVE_WEIGHT`` times, more for a bold bot, while the corporation saves for a train:
        :meth:`saving`).  A kind that closes the corporation is worth nothing; one that
        leaves its price fewer than ``SAFE_DROPS`` drops above closing loses part of his
        shares' worth (all of it a single drop above)."""

        state = game.state
        corp = state.corporations[corp_id]
        revenue = getattr(state.round, "revenue", None) or 0
        president = corp.president or ""
        part = shares.percent_of(game, corp_id, president) / 100 if president else 0.0
        price = market.price(game, corp_id)
        rules = game.rules
        own = (
            sum(  # (the corporation's part of a pay-out: its treasury's shares', if paid)
                pct
                for owner, pct in shares.percents(game, corp_id).items()
                if (owner == IPO and rules.ipo_dividends == "corporation")
                or (owner == POOL and rules.pool_dividends == "corporation")
            )
            / 100
        )
        saving = self.saving(game, corp_id, revenue)
        weight = part * ((SAVE_WEIGHT - 0.5 + self.personality.risk) if saving else 1.0)
        values: dict[str, float] = {}
        for kind in dividend_kinds(game):
            kept, paid = finance.dividend_split(game, kind, revenue)
            kept += int(paid * own)
            cell = finance.cell_after_dividend(game, corp_id, paid, kind == "withhold")
            if cell is None:
                values[kind] = part * paid + weight * kept
                continue
            room = finance.fall_room(game, cell)
            held = part * 10 * cell.price  # (his shares, at ten to a corporation)
            value = part * paid + part * 10 * (cell.price - price) + weight * kept
            # closing is the end; each drop less than SAFE_DROPS above it costs a share of
            # his shares' worth
            risk = max(0, SAFE_DROPS - room) / (SAFE_DROPS - 1)
            values[kind] = -1e6 if room == 0 else value - held * risk
        return values

    def saving(self, game: Game, corp_id: str, revenue: int) -> bool:
        """Does the corporation save for a train: short of one (:func:`short_of_train`,
        its trains that count toward the limit held), and enough with this revenue kept
        and the next's (a hope of no train soon is no saving)?"""
        if not short_of_train(game, corp_id, len(trains.counted(game, corp_id))):
            return False
        cash = game.state.corporations[corp_id].cash
        return cheapest_train(game) <= cash + SAVE_HORIZON * revenue

    def should_withhold(self, game: Game, corp_id: str) -> bool:
        """Raise money (issue shares) for a train: the corporation is short of one
        (:func:`short_of_train`, all its trains held) and has fewer than it wants (one; a
        bold bot two).  Dividends are weighed apart (:meth:`dividend_values`)."""
        held = len(game.state.corporations[corp_id].trains)
        wanted = 2 if self.personality.risk > 0.6 else 1  # a bold bot saves for a second
        return held < wanted and short_of_train(game, corp_id, held)


def short_of_train(game: Game, corp_id: str, held: int) -> bool:
    """Has the corporation room for a train (``held`` trains against its limit) and less
    money than the cheapest train on sale costs?"""
    if not trains.on_sale_types(game) or held >= trains.corporation_limit(game, corp_id):
        return False
    return game.state.corporations[corp_id].cash < cheapest_train(game)


def _lay_costs(game: Game) -> dict[tuple[str, str, int, str | None], int]:
    """(hex, tile, rotation, private) -> what the lay costs, for every lay possible now."""
    return {
        (lay.hex, lay.tile, lay.rotation, pid): cost
        for lay, cost, pid, _ in or_track.lay_options(game)
    }


def cheapest_train(game: Game) -> int:
    """The price of the cheapest train type the bank sells now (0 when it sells none)."""
    return min((game.tables.train(t).price for t in trains.on_sale_types(game)), default=0)


#: How much more than his part of it a president weighs money his corporation keeps
#: while it saves for a train (a bold bot more, a cautious one less).  Measured with greedy
#: bots, 4 players, 40 games each, in the reference title with phased-out trains and
#: closing cells: at 2 a game reached its last phase in 6 games of 60, at 3 in 38 of 40,
#: at 4 as often but with more corporations closed.
SAVE_WEIGHT = 3.0
#: How many operating rounds of its revenue a corporation may save to afford a train.
SAVE_HORIZON = 3
#: Drops above a closing cell below which a president fears for his shares.
SAFE_DROPS = 4

#: The part of a granted share's worth a bidder counts toward the private's.
#: (Measured with 4 greedy bots, 60 games of the reference title whose dearest private
#: grants a president's certificate: counting half of it, the bot holding that private
#: after the auction won 32 of them; all of it, with the tastes below, the seats won 15,
#: 16, 17 and 12, where one seat got it and won 38 when every bot bought at face value.)
GRANT_WEIGHT = 1.0
#: How far one greedy bot's worth of a granted share may differ from another's, as a
#: share of it (drawn once per game from the bot's generator): equal bots bidding to the
#: same worth would always leave the private to the same seat.
TASTE = 0.2

#: Private powers that serve only a corporation (or, a block, hinder its own president's).
CORPORATION_POWERS = (
    BlockHexes,
    FreeTileLay,
    TileLays,
    VirtualStation,
    BonusMultiplier,
    FerryMultiplier,
)

BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in seat ``seat`` (from 0) of a game with seed ``game_seed``."""
    return game_seed * 1000 + seat


def make_bots(kind: str, players: list[str], seed: int) -> dict[str, Bot]:
    """One bot per player, each with its own seed derived from the game seed."""
    if kind not in BOTS:
        raise ValueError(f"unknown bot kind {kind!r}; choose from {sorted(BOTS)}")
    return {p: BOTS[kind](bot_seed(seed, i)) for i, p in enumerate(players)}


class BotLike(Protocol):
    """What :func:`play` needs of a bot: ``choose(game)``, one of the legal actions."""

    def choose(self, game: Game) -> Action: ...


class GameUnfinished(RuntimeError):
    """:func:`play` stopped short of the game's end: the game is stuck (no one can act
    and the title has no end for it), or it did not end within its ``max_actions``."""


def play(
    game: Game,
    bots: Mapping[str, BotLike],
    *,
    max_actions: int = 200_000,
) -> Generator[Action, None, None]:
    """Play the game to the end, yielding each applied action.

    ``bots`` maps player names to bots (:func:`make_bots`, or any object with
    ``choose(game)``: :class:`BotLike`); corporations are run by their
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
        if not callable(getattr(bot, "choose", None)):
            raise TypeError(f"the bot of {name!r} is a {type(bot).__name__}, with no choose(game)")
    return _bulk(game, bots, max_actions)


def _bulk(
    game: Game, bots: Mapping[str, BotLike], max_actions: int
) -> Generator[Action, None, None]:
    with collector.bulk():
        yield from _play(game, bots, max_actions)


def _play(game: Game, bots: Mapping[str, BotLike], max_actions: int) -> Iterator[Action]:
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
