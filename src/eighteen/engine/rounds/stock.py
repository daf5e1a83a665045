"""The stock round (seed 000, "stock round").

Players in turn, from the priority deal: sell any number of certificates and buy one (in
the order rules.sell_buy_order allows), or pass.  Buying: a started corporation's share
from the IPO at par or from the pool at the market price; starting a corporation (par)
buys its president's certificate.  Limits: rules.holding_limit_percent of one corporation
(not in holding_limit_exempt cells), the certificate limit (certificates in
cert_limit_exempt cells do not count), rules.pool_limit_percent in the pool, no buying a
corporation sold earlier in the round (unless rules.buy_after_sell_same_corporation), no
selling in the first stock round (unless rules.sell_in_first_stock_round).  In a
multiple_buy cell more certificates of that corporation may be bought in one turn (from
the pool; also from the IPO when rules.brown_multiple_buy_from_ipo).  The round ends when every
player passes in a row; the priority deal goes to the player after the last one who acted;
corporations held wholly by players rise one row (rules.sold_out_rise); with
rules.stock_round_end_market_drop, those with shares in the market fall one step (seed 003).
With incremental capitalization a treasury share costs the current price and pays the
corporation (shares.treasury_unit); bankrupt players who left the game only pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from eighteen.engine import finance, homes, market, phases, privates, shares
from eighteen.engine.actions import (
    Action,
    BuyShares,
    ExchangePrivate,
    IllegalAction,
    Par,
    Pass,
    PlaceToken,
    SellShares,
)
from eighteen.engine.bank import BANK, pay
from eighteen.engine.capabilities import implements
from eighteen.engine.rounds.auction import set_par
from eighteen.engine.rounds.base import Round, Step, check_actor
from eighteen.engine.rounds.deals import Answer
from eighteen.engine.rounds.private_trades import (
    PRIVATE_PURCHASE,
    TradePrivates,
    can_buy_private,
)
from eighteen.engine.state import IPO, POOL, StockRound

if TYPE_CHECKING:
    from eighteen.engine.context import Context


def _r(g: Context) -> StockRound:
    return g.state.round


@implements("sell_buy_order", "sell_buy", "sell_buy_sell")
def selling_allowed(g: Context) -> bool:
    r = _r(g)
    if r.number == 1 and not g.rules.sell_in_first_stock_round:
        return False
    return not (r.bought and g.rules.sell_buy_order == "sell_buy")


def over_limits(g: Context, player: str) -> bool:
    """Is the player over the certificate limit or a holding limit (must sell)?"""
    if shares.cert_count(g, player) > shares.cert_limit(g):
        return True
    limit = g.rules.holding_limit_percent
    return any(
        pct > limit and shares.holding_limit_applies(g, corp)
        for corp, pct in shares.holdings(g, player).items()
    )


def buy_problem(g: Context, player: str, corp: str, source: str) -> str | None:
    """Why the player may not buy one certificate of ``corp`` from ``source`` now."""
    if source not in ("ipo", "pool"):
        return f"unknown source {source!r} (ipo or pool)"
    if not g.tables.is_corporation(corp):
        return f"unknown corporation {corp}"
    r = _r(g)
    cs = g.state.corporations[corp]
    if cs.closed:
        return f"{corp} has closed"
    if cs.par is None:
        return f"{corp} has not been started (par it first)"
    if corp in r.sold.get(player, []) and not g.rules.buy_after_sell_same_corporation:
        return f"{player} sold {corp} this round and may not buy it again"
    if r.bought:  # (before the certificates are looked up: most often the answer)
        cell = market.cell(g, corp)
        multi = cell is not None and cell.multiple_buy
        from_ipo_ok = g.rules.brown_multiple_buy_from_ipo
        bought = [(c, s) for c, s in r.bought if s != PRIVATE_PURCHASE]
        if not multi:
            return f"{player} has already bought this turn (one certificate per turn)"
        if any(c != corp for c, _ in bought):
            return f"{player} may buy more in one turn only of the same corporation"
        # on the pool-only reading a purchase made (a private's too) leaves the pool only
        if not from_ipo_ok and (source == "ipo" or any(s == "ipo" for _, s in bought)):
            return "several certificates in one turn come from the pool only"
    certs = shares.ordinary_certs_of(g, corp, IPO if source == "ipo" else POOL)
    if not certs:
        return f"no {corp} share in the {source}"
    pct = shares.cert_percent(g, certs[0])
    unit = shares.treasury_unit(g, corp) if source == "ipo" else market.price(g, corp)
    price = unit * pct // 10
    if g.state.player(player).cash < price:
        return f"{player} has ${g.state.player(player).cash}, the share costs ${price}"
    if (
        shares.holding_limit_applies(g, corp)
        and shares.percent_of(g, corp, player) + pct > g.rules.holding_limit_percent
    ):
        return f"holding limit: at most {g.rules.holding_limit_percent}% of {corp}"
    if shares.counts_for_limit(g, corp) and shares.cert_count(g, player) >= shares.cert_limit(g):
        return f"certificate limit: {player} holds {shares.cert_limit(g)} certificates"
    return None


def start_problem(g: Context, player: str, corp: str) -> str | None:
    """Why the player may not start ``corp`` now at any price (the checks of
    :func:`par_problem` that do not depend on the price, made first there)."""
    if _r(g).bought:
        return f"{player} has already bought this turn"
    return unstartable(g, corp)


def unstartable(g: Context, corp: str) -> str | None:
    """Why no player may start ``corp`` in this phase, at any price and whatever his
    turn (the checks of :func:`start_problem` about the corporation alone)."""
    if not g.tables.is_corporation(corp):
        return f"unknown corporation {corp}"
    cs = g.state.corporations[corp]
    if cs.closed:
        return f"{corp} has closed"
    if cs.par is not None:
        return f"{corp} is already started"
    available = g.tables.corporation(corp).available_from
    if available and not phases.reached(g, available):
        return f"{corp} may be started from phase {available} on"
    if g.state.certs[shares.president_cert(corp)] != IPO:
        return f"the president's certificate of {corp} is not for sale"
    return None


def start_cost(g: Context, corp: str, price: int) -> int:
    """What the president's certificate of ``corp`` costs at par ``price``."""
    return price * shares.cert_percent(g, shares.president_cert(corp)) // 10


def par_choices(g: Context, corp: str) -> list[int]:
    """The par prices ``corp`` may start at (highest first): those from its min_par on."""
    least = g.tables.corporation(corp).min_par or 0
    return [p for p in g.tables.par_prices() if p >= least]


def par_problem(g: Context, player: str, corp: str, price: int) -> str | None:
    """Why the player may not start ``corp`` at ``price`` now."""
    why = start_problem(g, player, corp)
    if why:
        return why
    cell = g.tables.par_cell(price)
    if cell is None:
        return f"${price} is not a par price ({g.tables.par_prices()})"
    least = g.tables.corporation(corp).min_par
    if least and price < least:
        return f"{corp} starts at ${least} or more"
    if homes.variable(g, corp) is not None:
        spots = homes.options(g, corp)
        if not spots:
            return f"no city is free for {corp}'s home"
        capital = start_cost(g, corp, price)
        if capital < min(homes.cost(g, corp, h) for h, _ in spots):
            return f"${price} does not pay for {corp}'s home station"
    pct = shares.cert_percent(g, shares.president_cert(corp))
    cost = start_cost(g, corp, price)
    if g.state.player(player).cash < cost:
        return f"{player} has ${g.state.player(player).cash}, the certificate costs ${cost}"
    if shares.percent_of(g, corp, player) + pct > g.rules.holding_limit_percent:
        return f"holding limit: at most {g.rules.holding_limit_percent}% of {corp}"
    counts = not g.tables.cell(cell).cert_limit_exempt
    if counts and shares.cert_count(g, player) >= shares.cert_limit(g):
        return f"certificate limit: {player} holds {shares.cert_limit(g)} certificates"
    return None


def sale_problem(g: Context, player: str, corp: str, percent: int) -> str | None:
    if not g.tables.is_corporation(corp):
        return f"unknown corporation {corp}"
    if not selling_allowed(g):
        if _r(g).number == 1 and not g.rules.sell_in_first_stock_round:
            return "no selling in the first stock round"
        return "no selling after buying in this title"
    return shares.sale_problem(g, player, corp, percent)


def sale_options(g: Context, player: str) -> list[SellShares]:
    """The stock-round sales open to ``player`` now."""
    return shares.sale_options(g, player, sale_problem)


class BuySellPar(Step):
    """A player's stock-round turn."""

    name = "stock"
    actions: ClassVar = (BuyShares, SellShares, Par, Pass, ExchangePrivate)

    def active(self, g: Context) -> bool:
        return True

    def actor(self, g: Context) -> str | None:
        return g.state.players[_r(g).turn].name

    def legal(self, g: Context) -> list[Action]:
        who = self.actor(g)
        assert who is not None
        if who in g.state.eliminated:
            return [Pass(who)]
        out: list[Action] = list(sale_options(g, who))
        forced = over_limits(g, who) and out
        if not forced:
            for c in g.tables.corporations:
                cid = c.id
                for src in ("ipo", "pool"):
                    if buy_problem(g, who, cid, src) is None:
                        out.append(BuyShares(who, cid, src))
                if start_problem(g, who, cid) is not None:
                    continue
                for price in par_choices(g, cid):
                    if par_problem(g, who, cid, price) is None:
                        out.append(Par(who, cid, price))
            out.extend(ExchangePrivate(who, p, s) for p, s in privates.exchange_options(g, who))
            out.append(Pass(who))
        return out

    def can_trade(self, g: Context, player: str | None = None) -> bool:
        """Does ``legal`` hold anything besides passing and exchanging a private?  (The
        same answer, stopping at the first sale, buy or par found.)  For ``player`` instead
        of the acting player: what he could do at the start of his turn."""
        who = player or self.actor(g)
        assert who is not None
        if who in g.state.eliminated:
            return False
        if selling_allowed(g):  # (sale_problem refuses every sale otherwise)
            for corp, held in shares.holdings(g, who).items():  # (player_corps, percent_of)
                for pct in range(10, held + 1, 10):
                    if sale_problem(g, who, corp, pct) is None:
                        return True
        cash = g.state.player(who).cash
        for c in g.tables.corporations:
            cid = c.id
            for src in ("ipo", "pool"):
                if buy_problem(g, who, cid, src) is None:
                    return True
            if start_problem(g, who, cid) is not None:
                continue
            # par_problem refuses a price below min_par, and one whose certificate costs
            # more than he has: none when even the lowest he may choose does (the cost
            # grows with the price)
            choices = par_choices(g, cid)
            if not choices or cash < start_cost(g, cid, choices[-1]):
                continue
            for price in choices:
                if par_problem(g, who, cid, price) is None:
                    return True
        return False

    def process(self, g: Context, action: Action) -> None:
        if isinstance(action, ExchangePrivate):
            # an exchange is allowed at any time of the round, by the private's owner; it
            # is no trade of the turn (a pass after it is still a pass)
            privates.exchange(g, action.actor, action.private, action.source)
            return
        check_actor(action, self.actor(g))
        who = action.actor
        r = _r(g)
        if isinstance(action, Pass):
            if over_limits(g, who) and sale_options(g, who):
                raise IllegalAction(f"{who} is over a limit and must sell first")
            self._end_turn(g, passed=not r.acted)
            return
        if isinstance(action, SellShares):
            why = sale_problem(g, who, action.corporation, action.percent)
            if why:
                raise IllegalAction(why)
            shares.sell(g, who, action.corporation, action.percent)
            finance.check_closing(g, action.corporation)
            r.sold.setdefault(who, [])
            if action.corporation not in r.sold[who]:
                r.sold[who].append(action.corporation)
            self._acted(g, who)
            return
        if over_limits(g, who) and sale_options(g, who):
            raise IllegalAction(f"{who} is over a limit and must sell first")
        if isinstance(action, BuyShares):
            why = buy_problem(g, who, action.corporation, action.source)
            if why:
                raise IllegalAction(why)
            shares.buy_cert(g, who, action.corporation, action.source)
            r.bought.append([action.corporation, action.source])
            self._acted(g, who)
            return
        assert isinstance(action, Par)
        why = par_problem(g, who, action.corporation, action.price)
        if why:
            raise IllegalAction(why)
        corp = action.corporation
        pc = shares.president_cert(corp)
        cost = start_cost(g, corp, action.price)
        to = corp if g.rules.capitalization == "incremental" else BANK
        pay(g, who, to, cost, f"{who} starts {corp}")
        g.state.certs[pc] = who
        g.state.corporations[corp].president = who
        g.note(f"{who} starts {corp} at ${action.price}")
        set_par(g, corp, action.price)
        shares.update_president(g, corp)
        r.bought.append([corp, "ipo"])
        if homes.variable(g, corp) is not None:
            g.state.home_choice = corp  # its founder picks the home before anyone goes on
        self._acted(g, who)

    def _acted(self, g: Context, who: str) -> None:
        """The player traded: his turn goes on while he can trade more (the round's
        ``advance``, which follows at once, ends it when he cannot)."""
        r = _r(g)
        r.acted = True
        r.last_actor = who

    def _end_turn(self, g: Context, passed: bool) -> None:
        r = _r(g)
        who = self.actor(g)
        if passed:
            r.passes += 1
            g.note(f"{who} passes")
        else:
            r.passes = 0
        r.bought = []
        r.sale_dropped = []
        r.acted = False
        r.turn = (r.turn + 1) % len(g.state.players)


class ChooseHome(Step):
    """A corporation with a variable home just started: its founder places the home
    station (engine.homes) before anyone else acts."""

    name = "variable home"
    actions: ClassVar = (PlaceToken,)

    def active(self, g: Context) -> bool:
        return g.state.home_choice is not None

    def actor(self, g: Context) -> str | None:
        return g.state.home_choice

    def legal(self, g: Context) -> list[Action]:
        corp = g.state.home_choice
        assert corp is not None
        return [
            PlaceToken(corp, h, i)
            for h, i in homes.options(g, corp)
            if homes.problem(g, corp, h, i) is None
        ]

    def process(self, g: Context, action: Action) -> None:
        assert isinstance(action, PlaceToken)
        check_actor(action, self.actor(g))
        why = homes.problem(g, action.actor, action.hex, action.city)
        if why:
            raise IllegalAction(why)
        homes.place(g, action.actor, action.hex, action.city)
        g.state.home_choice = None


class StockRoundSteps(Round):
    kind = "stock"
    _steps: ClassVar[list[Step]] = [Answer(), ChooseHome(), BuySellPar(), TradePrivates()]

    def steps(self, g: Context) -> list[Step]:
        return self._steps

    def advance(self, g: Context) -> None:
        r = _r(g)
        if r.deal is not None:
            return  # (the other player answers the deal offered: rounds/deals.py)
        step = self._steps[2]
        assert isinstance(step, BuySellPar)
        # a player who has traded (bought, sold, started a corporation, traded a private)
        # and can do nothing more ends the turn, asked right after the trade (a founder
        # who must place the home first: before that too, and again once it is placed);
        # one who has bought nothing yet may still buy a private from a player
        if r.acted and not step.can_trade(g) and not can_buy_private(g, step.actor(g)):  # type: ignore[arg-type]
            step._end_turn(g, passed=False)
        if g.state.home_choice is not None:
            return  # the founder places the home first (ChooseHome)
        # a player who can do nothing but pass (or exchange a private, which he may do at
        # any time) is passed automatically
        while r.passes < len(g.state.players) and not r.acted:
            if step.can_trade(g) or can_buy_private(g, step.actor(g)):  # type: ignore[arg-type]
                break
            g.note(f"{step.actor(g)} can do nothing")
            step._end_turn(g, passed=True)
        if r.passes < len(g.state.players):
            return
        started = [
            c.id
            for c in g.tables.corporations
            if g.state.corporations[c.id].par and not g.state.corporations[c.id].closed
        ]
        for corp in market.operating_order(g, started):
            in_pool = shares.percent_of(g, corp, POOL) > 0
            if g.rules.stock_round_end_market_drop and in_pool:
                finance.move_steps(g, corp, -1)  # seed 003: shares in the market
            elif g.rules.sold_out_rise and not in_pool and shares.percent_of(g, corp, IPO) == 0:
                market.move(g, corp, "up")
        if r.last_actor is not None:
            g.state.priority = (g.state.player_index(r.last_actor) + 1) % len(g.state.players)
        g.note(f"stock round {r.number} ends")
        if g.rules.no_corporation_left_ends_game and not g.state.game_over and self._dead(g, step):
            g.end_game("no corporation can be started any more")
            return
        g.end_round()

    @staticmethod
    def _dead(g: Context, step: BuySellPar) -> bool:
        """Can nothing change any more (after the round's price moves)?  No corporation is
        running, and either none is left that could ever be started (each has closed, or
        waits for a phase, which only a train bought by a corporation can bring: the
        privates' income changes nothing), or no private is left (no income, nothing to
        trade) and no player still in the game could start a corporation at the start of
        his turn: no one's cash can grow again."""
        s = g.state
        if any(cs.par and not cs.closed for cs in s.corporations.values()):
            return False
        if all(unstartable(g, c.id) for c in g.tables.corporations):
            return True  # (no corporation running buys a train: no later phase comes)
        if not all(p.closed for p in s.privates.values()):
            return False
        players = [p.name for p in s.players if p.name not in s.eliminated]
        return not any(step.can_trade(g, name) for name in players)
