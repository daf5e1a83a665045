"""The initial private sale: a waterfall auction (seed 000, "private companies").

In a normal turn a player buys the cheapest unsold private at its price, bids on a later
one (at least face + min raise - or face with rules.auction_first_bid_at_face - and min
raise over its best bid; the money is set aside),
or passes.  When the cheapest private is sold, the next one with bids is resolved at once:
a single bidder buys it at his bid; several bidders auction it among themselves, in
seating order from the left of the best bidder, raising by at least the min raise; a
bidder who passes may bid again later, and the private goes to the best bidder once every
other bidder has passed since the last raise.  If every player passes in a row: before any
private is sold, the first drops by rules.auction_price_drop (at rules.auction_forced_price
the next player must take it, if he can pay); afterwards the privates pay their revenue and
the auction goes on.  With rules.auction_all_pass_revenue (facts §10.2) instead: every private with
bids is sold in price order, then the privates sold so far pay their revenue that many
times, and the auction goes on (no price drop).  A private granting a president's certificate makes its buyer set that
corporation's par at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from eighteen.engine import market, privates, shares
from eighteen.engine.actions import Action, Bid, IllegalAction, Par, Pass
from eighteen.engine.bank import BANK, pay
from eighteen.engine.capabilities import implements
from eighteen.engine.rounds.base import Round, Step, check_actor, sample_amounts
from eighteen.engine.state import AuctionRound

if TYPE_CHECKING:
    from eighteen.engine.context import Context


def _r(g: Context) -> AuctionRound:
    return g.state.round


def unsold(g: Context) -> list[str]:
    return [
        p.id
        for p in g.tables.privates
        if g.state.privates[p.id].owner is None and not g.state.privates[p.id].closed
    ]


def cheapest_price(g: Context) -> int:
    """Price of the cheapest unsold private: face value, less the drops after everyone
    passed (those apply to the first private only, while nothing is sold)."""
    pid = unsold(g)[0]
    face = int(g.tables.private(pid).value)
    if pid != g.tables.privates[0].id:
        return face
    return max(0, face - _r(g).drop)


def forced(g: Context) -> bool:
    """The first private has dropped to rules.auction_forced_price: the player to act
    must take it (if he can pay for it; one who cannot passes)."""
    r = _r(g)
    return r.drop > 0 and cheapest_price(g) <= g.rules.auction_forced_price


def must_take(g: Context, player: str) -> bool:
    """At the forced price the player to act must take the first private, if he can pay
    for it; one who cannot may pass (or bid on another)."""
    return forced(g) and available(g, player) >= cheapest_price(g)


def committed(g: Context, player: str, except_pid: str | None = None) -> int:
    """Money the player has set aside for bids on privates other than ``except_pid``."""
    return sum(
        amount
        for pid, bids in _r(g).bids.items()
        if pid != except_pid
        for who, amount in bids
        if who == player
    )


def available(g: Context, player: str, pid: str | None = None) -> int:
    return g.state.player(player).cash - committed(g, player, pid)


def best_bid(g: Context, pid: str) -> tuple[str, int] | None:
    bids = _r(g).bids.get(pid, [])
    if not bids:
        return None
    who, amount = max(bids, key=lambda b: (b[1], -bids.index(b)))
    return who, amount


def min_bid(g: Context, pid: str) -> int:
    """The least bid on a private not on offer: face + the min raise (face itself for the
    first bid with rules.auction_first_bid_at_face), and the min raise over its best bid."""
    raise_ = g.rules.auction_min_raise
    best = best_bid(g, pid)
    face = int(g.tables.private(pid).value)
    first = face if g.rules.auction_first_bid_at_face else face + raise_
    return max(first, (best[1] + raise_) if best else 0)


def _sell(g: Context, pid: str, player: str, price: int) -> None:
    """Give the private to the player for ``price`` and apply its grants."""
    pay(g, player, BANK, price, f"{player} buys {pid}")
    g.state.privates[pid].owner = player
    _r(g).bids.pop(pid, None)
    _r(g).last_buyer = player
    g.note(f"{player} buys {pid} for ${price}")
    for corp in privates.on_purchase(g, pid, player):
        _r(g).pending_par = [player, corp]


def _next_bidder(g: Context, pid: str, after: str) -> str:
    """The next bidder on ``pid`` in seating order after ``after``, skipping the best."""
    best = best_bid(g, pid)
    bidders = {b[0] for b in _r(g).bids[pid]}
    for name in shares.seat_order_from(g, after):
        if name in bidders and (best is None or name != best[0]):
            return name
    raise AssertionError("no other bidder")


def _lowest_bidder(g: Context, pid: str) -> str:
    """The bidder with the lowest bid on ``pid`` (the earliest of equal bids)."""
    bids = _r(g).bids[pid]
    return min(bids, key=lambda b: (b[1], bids.index(b)))[0]


@implements("auction_bidoff", "seating_from_best", "lowest_bidder_drops")
def _bidoff_turn(g: Context, pid: str, after: str) -> str:
    """Who acts next in the bid-off for ``pid`` after ``after`` bid or passed
    (rules.auction_bidoff)."""
    if g.rules.auction_bidoff == "lowest_bidder_drops":
        return _lowest_bidder(g, pid)
    return _next_bidder(g, pid, after)


def resolve(g: Context) -> None:
    """Sell the cheapest unsold privates that have bids, until one needs players.

    While settling after everyone passed (rules.auction_all_pass_revenue), every unsold
    private with bids is sold in price order; then the privates sold so far pay their
    revenue that many times and bidding resumes (facts §10.2)."""
    r = _r(g)
    while r.pending_par is None and r.bidoff is None:
        left = unsold(g)
        if r.settle:
            left = [p for p in left if r.bids.get(p)]
        if not left or not r.bids.get(left[0]):
            if r.settle:
                r.settle = False
                times = g.rules.auction_all_pass_revenue
                g.note(f"the privates pay their revenue {times} times")
                for _ in range(times):
                    privates.pay_revenue(g)
            return
        pid = left[0]
        bids = r.bids.get(pid, [])
        if len(bids) == 1:
            _sell(g, pid, bids[0][0], bids[0][1])
            continue
        best = best_bid(g, pid)
        assert best is not None
        r.bidoff = pid
        r.bidoff_passed = []
        r.bidoff_turn = _bidoff_turn(g, pid, best[0])
        g.note(f"{pid} is auctioned among its bidders")


class PendingPar(Step):
    """The buyer of a private that granted a president's certificate sets the par."""

    name = "par"
    actions: ClassVar = (Par,)

    def active(self, g: Context) -> bool:
        return _r(g).pending_par is not None

    def actor(self, g: Context) -> str | None:
        pp = _r(g).pending_par
        return pp[0] if pp else None

    def legal(self, g: Context) -> list[Action]:
        player, corp = _r(g).pending_par  # type: ignore[misc]
        return [Par(player, corp, p) for p in g.tables.par_prices()]

    def process(self, g: Context, action: Action) -> None:
        assert isinstance(action, Par)
        check_actor(action, self.actor(g))
        player, corp = _r(g).pending_par  # type: ignore[misc]
        if action.corporation != corp:
            raise IllegalAction(f"{player} must set the par price of {corp}")
        set_par(g, corp, action.price)
        _r(g).pending_par = None
        resolve(g)


def set_par(g: Context, corp: str, price: int) -> None:
    """Put the corporation on its par cell (the price must be a par price)."""
    cell = g.tables.par_cell(price)
    if cell is None:
        raise IllegalAction(f"${price} is not a par price ({g.tables.par_prices()})")
    cs = g.state.corporations[corp]
    if cs.par is not None:
        raise IllegalAction(f"{corp} already has a par price")
    cs.par = price
    market.place(g, corp, cell)
    g.note(f"{corp} is parred at ${price}")
    shares.check_float(g, corp)


class BidOff(Step):
    """Several bidders on the cheapest unsold private auction it among themselves."""

    name = "auction"
    actions: ClassVar = (Bid, Pass)

    def active(self, g: Context) -> bool:
        return _r(g).bidoff is not None

    def actor(self, g: Context) -> str | None:
        return _r(g).bidoff_turn

    def legal(self, g: Context) -> list[Action]:
        r = _r(g)
        pid, who = r.bidoff, r.bidoff_turn
        assert pid is not None and who is not None
        lo = best_bid(g, pid)[1] + g.rules.auction_min_raise  # type: ignore[index]
        out: list[Action] = [Bid(who, pid, a) for a in sample_amounts(lo, available(g, who, pid))]
        return [*out, Pass(who)]

    def process(self, g: Context, action: Action) -> None:
        check_actor(action, self.actor(g))
        r = _r(g)
        pid = r.bidoff
        assert pid is not None
        who = action.actor
        if isinstance(action, Bid):
            if action.private != pid:
                raise IllegalAction(f"the auction is for {pid}: bid on it or pass")
            lo = best_bid(g, pid)[1] + g.rules.auction_min_raise  # type: ignore[index]
            if action.price < lo:
                raise IllegalAction(f"a bid on {pid} must be at least ${lo}")
            if action.price > available(g, who, pid):
                raise IllegalAction(f"{who} has only ${available(g, who, pid)} not set aside")
            r.bids[pid] = [b for b in r.bids[pid] if b[0] != who] + [[who, action.price]]
            r.bidoff_passed = []
            g.note(f"{who} bids ${action.price} on {pid}")
            r.bidoff_turn = _bidoff_turn(g, pid, who)
            return
        r.bidoff_passed.append(who)
        if g.rules.auction_bidoff == "lowest_bidder_drops":
            r.bids[pid] = [b for b in r.bids[pid] if b[0] != who]
            g.note(f"{who} passes on {pid} and withdraws the bid")
        else:
            g.note(f"{who} passes on {pid}")
        best = best_bid(g, pid)
        assert best is not None
        others = {b[0] for b in r.bids[pid]} - {best[0]}
        if others <= set(r.bidoff_passed):
            r.bidoff = None
            r.bidoff_turn = None
            r.bidoff_passed = []
            _sell(g, pid, best[0], best[1])
            resolve(g)
        else:
            r.bidoff_turn = _bidoff_turn(g, pid, who)


@implements("private_auction", "waterfall")
class Waterfall(Step):
    """Normal turns: buy the cheapest private, bid on a later one, or pass."""

    name = "waterfall"
    actions: ClassVar = (Bid, Pass)

    def active(self, g: Context) -> bool:
        return bool(unsold(g))

    def actor(self, g: Context) -> str | None:
        return g.state.players[_r(g).turn].name

    def legal(self, g: Context) -> list[Action]:
        who = self.actor(g)
        assert who is not None
        left = unsold(g)
        first = left[0]
        price = cheapest_price(g)
        out: list[Action] = []
        if available(g, who) >= price:
            out.append(Bid(who, first, price))
            if must_take(g, who):
                return out
        for pid in left[1:]:
            for a in sample_amounts(min_bid(g, pid), available(g, who, pid)):
                out.append(Bid(who, pid, a))
        out.append(Pass(who))
        return out

    def process(self, g: Context, action: Action) -> None:
        check_actor(action, self.actor(g))
        r = _r(g)
        who = action.actor
        n = len(g.state.players)
        left = unsold(g)
        if isinstance(action, Pass):
            if must_take(g, who):
                raise IllegalAction(f"{left[0]} costs ${cheapest_price(g)}: {who} must take it")
            r.passes += 1
            g.note(f"{who} passes")
            r.turn = (r.turn + 1) % n
            if r.passes >= n:
                r.passes = 0
                if g.rules.auction_all_pass_revenue:
                    g.note("everyone passed: the privates with bids are sold")
                    r.settle = True
                    resolve(g)
                elif len(left) == len(g.tables.privates):
                    face = int(g.tables.private(left[0]).value)
                    # every player passed at the forced price (none could pay): on to $0
                    floor = 0 if forced(g) else min(face, int(g.rules.auction_forced_price))
                    r.drop = min(r.drop + g.rules.auction_price_drop, face - floor)
                    g.note(f"everyone passed: {left[0]} now costs ${cheapest_price(g)}")
                else:
                    g.note("everyone passed: the privates pay their revenue")
                    privates.pay_revenue(g)
            return
        assert isinstance(action, Bid)
        pid = action.private
        if pid not in left:
            raise IllegalAction(f"{pid} is not an unsold private")
        if pid == left[0]:
            price = cheapest_price(g)
            if action.price != price:
                raise IllegalAction(f"the cheapest private {pid} is bought at ${price}, not bid on")
            if available(g, who) < price:
                raise IllegalAction(f"{who} has only ${available(g, who)} not set aside")
            r.passes = 0
            r.turn = (r.turn + 1) % n
            _sell(g, pid, who, price)
            resolve(g)
            return
        if must_take(g, who):
            raise IllegalAction(f"{left[0]} costs ${cheapest_price(g)}: {who} must take it")
        lo = min_bid(g, pid)
        if action.price < lo:
            raise IllegalAction(f"a bid on {pid} must be at least ${lo}")
        if action.price > available(g, who, pid):
            raise IllegalAction(f"{who} has only ${available(g, who, pid)} not set aside")
        r.bids[pid] = [b for b in r.bids.get(pid, []) if b[0] != who] + [[who, action.price]]
        r.passes = 0
        r.turn = (r.turn + 1) % n
        g.note(f"{who} bids ${action.price} on {pid}")


@implements("auction_priority", "after_last_buyer", "next_in_turn")
def priority_after_auction(g: Context) -> int:
    """Who holds the priority deal once every private is sold (rules.auction_priority):
    the player to the left of the last buyer (seed 000, first stock round), or the
    player whose normal auction turn would come next."""
    r = _r(g)
    if g.rules.auction_priority == "next_in_turn" or r.last_buyer is None:
        return r.turn
    return (g.state.player_index(r.last_buyer) + 1) % len(g.state.players)


class AuctionRoundSteps(Round):
    kind = "auction"
    _steps: ClassVar[list[Step]] = [PendingPar(), BidOff(), Waterfall()]

    def steps(self, g: Context) -> list[Step]:
        return self._steps

    def advance(self, g: Context) -> None:
        r = _r(g)
        if r.pending_par is None and r.bidoff is None and not unsold(g):
            g.state.priority = priority_after_auction(g)
            g.note("the private auction is over")
            g.start_stock_round()
