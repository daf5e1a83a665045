"""Operating-round steps: buy trains (with the forced purchase), discard over the limit,
buy privates from players, and the anytime private exchange (seed 002, "buying trains",
"forced purchase and bankruptcy", "private companies").

Trains come from the bank (the cheapest type on sale, types made available early, trade-
ins, discarded trains at list price) or from another corporation at any price of at least
rules.train_buy_from_corporation_min; with rules.one_new_train_per_turn a corporation buys
at most one bank train of the types that came on sale during its turn.  A corporation over
the phase's train limit discards down at once (phased-out trains do not count with
rules.obsolete_trains_count_for_limit false).  A corporation without a train that has a
route (any corporation without a train, with rules.must_own_train = "always") must buy
one: if its treasury is short of the cheapest bank train, the president adds his cash (for
a train from another corporation, at most its list price), and may sell shares first, only
as many as needed and never giving away this corporation's presidency (with
rules.president_may_sell_privates_for_train he may also sell a private of his to another
player, at a price they agree, but need not); if that cannot raise the money, he is
bankrupt (rules.bankruptcy).  With rules.emergency_money naming ``issue_shares`` (seed 003)
the corporation must first make an emergency issue (finance.emergency_issue); the
president's money buys only the cheapest side on sale; with rules.emergency_money the
sources are spent in its order and bankruptcy comes only after the last (classic titles:
a president who cannot raise enough may declare it before selling); with
rules.emergency_buy_from_bank_only the compulsory train comes from the bank.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar

from eighteen.engine import (
    ferries,
    finance,
    market,
    network,
    phases,
    privates,
    shares,
    trains,
)
from eighteen.engine.actions import (
    Action,
    Bankrupt,
    BuyCompany,
    BuyTrain,
    DiscardTrain,
    ExchangePrivate,
    IllegalAction,
    IssueShares,
    Pass,
    SellShares,
    TradePrivate,
)
from eighteen.engine.bank import BANK, pay
from eighteen.engine.capabilities import implements
from eighteen.engine.rounds import deals
from eighteen.engine.rounds.base import Step, check_actor
from eighteen.engine.rounds.or_step import ORStep, operating, or_round
from eighteen.engine.rounds.private_trades import sale_offers, trade_problem, transfer

if TYPE_CHECKING:
    from eighteen.engine.context import Context


def must_buy(g: Context, corp: str) -> bool:
    """Must the corporation buy a train: it owns none and has a route (rules.must_own_train
    = "with_route"), or whatever its route ("always", seed 003)?"""
    cs = g.state.corporations[corp]
    if g.rules.must_own_train == "never" or cs.trains:
        return False
    return g.rules.must_own_train == "always" or network.can_run(g, corp)


implements("must_own_train", "never", "with_route", "always")(must_buy)  # (typed: a call)


def _room(g: Context, corp: str, exchange: str | None) -> bool:
    n = len(trains.counted(g, corp)) - (
        1 if exchange and exchange in trains.counted(g, corp) else 0
    )
    return n < trains.corporation_limit(g, corp)  # the phase's, plus any takeover bonus


def _room_for(g: Context, corp: str, offer: trains.Offer, room: bool) -> bool:
    """Has the corporation room for the bank's ``offer``: ``room`` (asked once for the
    offers without a trade-in), or room once its trade-in is gone?"""
    return room if offer.exchange is None else _room(g, corp, offer.exchange)


def _spent_new_types(g: Context, corp: str) -> list[str]:
    """The types that came on sale during the corporation's turn once it has bought its one
    train of them (rules.one_new_train_per_turn; seed 002, buying trains: any number of the
    trains already on sale, one new train), else none.  Such a train is one of its own: none
    could be bought before the type came on sale.  (Asked once per question, not per offer.)"""
    new = or_round(g).new_types
    if not new or not g.rules.one_new_train_per_turn:
        return []
    if any(trains.card_of(g, t) in new for t in g.state.corporations[corp].trains):
        return new
    return []


def _spent(g: Context, offer: trains.Offer, spent: list[str]) -> bool:
    """Is the bank's ``offer`` of a type in ``spent`` (:func:`_spent_new_types`), and not
    a discarded train?"""
    return (
        bool(spent)
        and trains.card_of(g, offer.train) in spent
        and offer.train not in g.state.train_pool
    )


def _note_new_types(g: Context, before: list[str]) -> None:
    """The types that came on sale with a purchase (``before``: those on sale before it)."""
    r = or_round(g)
    for t in trains.on_sale_types(g):
        if t not in before and t not in r.new_types:
            r.new_types.append(t)


def cheapest_bank_price(
    g: Context, corp: str, offers: list[trains.Offer] | None = None
) -> int | None:
    """The price of the cheapest bank train without a trade-in (``offers``: the bank's
    offers to ``corp`` now, when the caller has them already)."""
    if offers is None:
        offers = trains.bank_offers(g, corp)
    prices = [o.price for o in offers if o.exchange is None]
    return min(prices) if prices else None


def card_top_price(g: Context, corp: str) -> int | None:
    """The dearest side of the card sold at the cheapest price (the emergency issue may
    raise enough for it, seed 003)."""
    offers = [o for o in trains.bank_offers(g, corp) if o.exchange is None]
    if not offers:
        return None
    low = min(offers, key=lambda o: o.price)
    card = trains.card_of(g, low.train)
    return max(o.price for o in offers if trains.card_of(g, o.train) == card)


def uses(g: Context, source: str) -> bool:
    """Does rules.emergency_money name this source (a name, or the issue's kind)?"""
    return any((s if isinstance(s, str) else s.kind) == source for s in g.rules.emergency_money)


@implements("emergency_money[].kind", "issue_shares")
def emergency_issue_options(g: Context, corp: str) -> list[int]:
    """Share counts the corporation must choose from before its president pays (seed 003,
    emergency money: the treasury, then an issue on worse terms)."""
    if not uses(g, "issue_shares") or or_round(g).emergency_issued or not emergency(g, corp):
        return []
    cash = g.state.corporations[corp].cash
    low = cheapest_bank_price(g, corp) or 0
    top = card_top_price(g, corp) or low
    return finance.emergency_options(g, corp, low - cash, top - cash)


@implements("emergency_money[]", "president_cash")
def president_funds(g: Context, corp: str) -> int:
    pres = g.state.corporations[corp].president
    return g.state.player(pres).cash if pres else 0


@implements("emergency_money[]", "treasury")
def emergency(g: Context, corp: str) -> bool:
    """Must buy a train and the treasury cannot pay for the cheapest bank train."""
    if not must_buy(g, corp):
        return False
    low = cheapest_bank_price(g, corp)
    return low is not None and g.state.corporations[corp].cash < low


def _may_buy(g: Context, corp: str) -> bool:
    """May a corporation that need not buy a train buy one?  What ``BuyTrains._legal``
    yields before its pass then (no emergency, so no issue, no sale, no bankruptcy): a
    bank offer it has room for (a trade-in makes its own room) and the cash to pay, or,
    with room, another corporation's train at the least price allowed and, where refusals
    were made (rounds/deals.py), at the most it may pay not barred by one."""
    cash = g.state.corporations[corp].cash
    room = _room(g, corp, None)
    spent = _spent_new_types(g, corp)
    for o in trains.bank_offers(g, corp):
        if o.price <= cash and _room_for(g, corp, o, room) and not _spent(g, o, spent):
            return True
    lo = g.rules.train_buy_from_corporation_min
    if not room or cash < lo:
        return False
    if not g.state.round.refused:
        return bool(other_trains(g, corp))
    # (an offer at the most it may pay, if that is not barred by a refusal, is listed; a
    # loop, not a generator: compiled, a closure in a typed function is refused)
    for t in other_trains(g, corp):  # noqa: SIM110
        if not deals.refused(g, BuyTrain(corp, t, cash)):
            return True
    return False


def other_trains(g: Context, corp: str) -> list[str]:
    """Trains of other corporations (one per owner and type)."""
    out = []
    for c in g.tables.corporations:
        cid = c.id
        if cid == corp:
            continue
        seen: set[str] = set()
        for t in g.state.corporations[cid].trains:
            if not trains.tradable(g, t):
                continue
            if trains.train_type(t) not in seen:
                seen.add(trains.train_type(t))
                out.append(t)
    return out


def emergency_sale_problem(g: Context, player: str, corp: str, percent: int) -> str | None:
    """Why the president may not sell this to fund the operating corporation's train."""
    if not g.tables.is_corporation(corp):  # (as the stock round's sale_problem asks first)
        return f"unknown corporation {corp}"
    oc = operating(g)
    if player != g.state.corporations[oc].president:
        return f"only the president of {oc} may sell to fund its train"
    if not g.rules.president_may_sell_for_train:
        return "presidents may not sell shares to buy trains in this title"
    if not emergency(g, oc):
        return f"{oc} does not need its president's money for a train"
    if emergency_issue_options(g, oc):
        return f"{oc} must issue shares before its president pays"
    low = cheapest_bank_price(g, oc) or 0
    need = low - g.state.corporations[oc].cash - g.state.player(player).cash
    if need <= 0:
        return f"{player} already has enough cash to buy the train"
    unit = market.price(g, corp)
    if unit * (percent - 10) // 10 >= need:
        return f"{player} may sell only as many shares as needed (${need})"
    return shares.sale_problem(g, player, corp, percent, protect=(corp == oc))


def private_sale_problem(g: Context, a: TradePrivate) -> str | None:
    """Why the president of the operating corporation may not sell this private now, to
    raise money for its forced train (rules.president_may_sell_privates_for_train; seed
    002, forced purchase 3: "if he finds a buyer"), or None."""
    corp = operating(g)
    if not g.rules.president_may_sell_privates_for_train:
        return "privates are not traded in an operating round"
    if not emergency(g, corp):
        return f"{corp} needs no money from its president for a train"
    pres = g.state.corporations[corp].president
    if g.tables.is_private(a.private) and g.state.privates[a.private].owner != pres:
        return f"only a private of {corp}'s president may be sold to raise money for its train"
    return trade_problem(g, a.actor, a.private, a.counterparty, a.price)


def max_raise(g: Context, player: str, oc: str) -> int:
    """The most the player could raise by selling shares now (the largest legal sale of
    each corporation, never giving away ``oc``'s presidency)."""
    total = 0
    for corp in shares.player_corps(g, player):
        held = shares.percent_of(g, corp, player)
        best = 0
        for pct in range(10, held + 1, 10):
            if shares.sale_problem(g, player, corp, pct, protect=(corp == oc)) is None:
                best = pct
        total += market.price(g, corp) * best // 10
    return total


@implements("emergency_money[]", "president_sells_shares")
def hopeless(g: Context, corp: str) -> bool:
    """The corporation must buy a train and even the president's cash plus every share
    he may sell cannot pay for the cheapest bank train: he may declare bankruptcy."""
    if not emergency(g, corp):
        return False
    pres = g.state.corporations[corp].president
    low = cheapest_bank_price(g, corp)
    if pres is None or low is None:
        return False
    budget = g.state.corporations[corp].cash + g.state.player(pres).cash
    issue = emergency_issue_options(g, corp)
    if issue:
        budget += finance.emergency_yield(g, corp, issue[-1]) or 0
    if g.rules.president_may_sell_for_train:
        budget += max_raise(g, pres, corp)
    return budget < low


def may_declare_bankruptcy(g: Context, corp: str) -> bool:
    """May the president of the corporation declare bankruptcy now?  Classic titles: as
    soon as he is :func:`hopeless` (even before selling).  With rules.emergency_money
    (its sources in order of use, seed 003): only once every source is spent - no
    emergency issue is left, no share sale is open to him and his cash with the
    treasury still cannot pay for the cheapest bank train."""
    if not hopeless(g, corp):
        return False
    if not g.rules.bankruptcy_only_when_spent:
        return True
    if emergency_issue_options(g, corp):
        return False
    pres = g.state.corporations[corp].president
    assert pres is not None  # hopeless() checked it
    return not (
        g.rules.president_may_sell_for_train
        and shares.sale_options(g, pres, emergency_sale_problem)
    )


def reorder_rest(g: Context) -> None:
    """The corporations still to operate this round, sorted again by rules.operating_order
    (their prices may have moved with a president's emergency sales)."""
    r = or_round(g)
    rest = r.order[r.index + 1 :]
    priced = [c for c in rest if market.cell(g, c) is not None]
    r.order[r.index + 1 :] = market.operating_order(g, priced) + [
        c for c in rest if c not in priced
    ]


class BuyTrains(ORStep):
    name = "trains"
    actions: ClassVar = (BuyTrain, Pass, SellShares, Bankrupt, IssueShares, TradePrivate)

    def active(self, g: Context) -> bool:
        if not self.is_current(g):
            return False
        corp = operating(g)
        return must_buy(g, corp) or _may_buy(g, corp)

    def legal(self, g: Context) -> list[Action]:
        return list(self._legal(g))

    def _legal(self, g: Context) -> Iterator[Action]:
        """The legal actions one by one (``active`` stops at the first that is not a pass)."""
        corp = operating(g)
        cs = g.state.corporations[corp]
        em = emergency(g, corp)
        issue = emergency_issue_options(g, corp)
        if issue:  # the issue comes before the president's money (and bankruptcy)
            yield from [IssueShares(corp, n) for n in issue]
            return
        pres_cash = president_funds(g, corp) if em else 0
        budget = cs.cash + pres_cash
        offers = trains.bank_offers(g, corp)
        # (the cheapest price matters to an emergency purchase only: not looked for else)
        low = cheapest_bank_price(g, corp, offers) if em else None
        room = _room(g, corp, None)  # (asked once: the offers without a trade-in share it)
        spent = _spent_new_types(g, corp)
        for o in offers:
            if not _room_for(g, corp, o, room) or _spent(g, o, spent):
                continue
            if o.price <= cs.cash or (
                em and o.exchange is None and low is not None and o.price == low <= budget
            ):
                yield BuyTrain(corp, o.train, o.price, o.exchange)
        if room and not (em and g.rules.emergency_buy_from_bank_only):
            lo = g.rules.train_buy_from_corporation_min
            for t in other_trains(g, corp):
                hi = min(budget, trains.list_price(g, t)) if em else cs.cash
                if em and hi <= cs.cash:
                    hi = cs.cash
                for p in _train_prices(lo, hi, trains.list_price(g, t)):
                    a = BuyTrain(corp, t, p)
                    if not deals.refused(g, a):
                        yield a
        if em and cs.president:
            yield from shares.sale_options(g, cs.president, emergency_sale_problem)
            if g.rules.president_may_sell_privates_for_train:
                for pid in privates.open_privates(g):
                    if g.state.privates[pid].owner == cs.president:
                        yield from sale_offers(g, cs.president, pid)
            if may_declare_bankruptcy(g, corp):
                yield Bankrupt(corp)
        if not must_buy(g, corp):
            yield Pass(corp)

    def precheck(self, g: Context, action: Action) -> None:
        """The president may sell shares to fund a train; anything else is the operating
        corporation's (the first checks of :meth:`process`)."""
        if isinstance(action, SellShares):
            why = emergency_sale_problem(g, action.actor, action.corporation, action.percent)
            if why:
                raise IllegalAction(why)
        elif isinstance(action, TradePrivate):
            why = private_sale_problem(g, action)
            if why:
                raise IllegalAction(why)
        else:
            check_actor(action, operating(g))

    def process(self, g: Context, action: Action) -> None:
        corp = operating(g)
        if isinstance(action, SellShares):
            why = emergency_sale_problem(g, action.actor, action.corporation, action.percent)
            if why:
                raise IllegalAction(why)
            keep = bool(g.rules.emergency_sales_keep_president) and action.corporation == corp
            shares.sell(g, action.actor, action.corporation, action.percent)
            if not keep:
                finance.check_closing(g, action.corporation)
            if g.rules.reorder_after_emergency_sales:
                reorder_rest(g)
            return
        if isinstance(action, TradePrivate):
            why = private_sale_problem(g, action)
            if why:
                raise IllegalAction(why)
            seller = g.state.privates[action.private].owner
            assert seller is not None  # (the president: private_sale_problem)
            buyer = action.counterparty if seller == action.actor else action.actor
            if deals.offered(g, action):
                return
            transfer(g, action.private, seller, buyer, action.price)
            return
        check_actor(action, corp)
        if isinstance(action, IssueShares):
            if action.count not in emergency_issue_options(g, corp):
                raise IllegalAction(
                    f"{corp} may issue {emergency_issue_options(g, corp) or 'no'} shares now"
                )
            finance.emergency_issue(g, corp, action.count)
            or_round(g).emergency_issued = True
            return
        if emergency_issue_options(g, corp) and not isinstance(action, Bankrupt):
            raise IllegalAction(f"{corp} must first issue shares to pay for its train")
        if isinstance(action, Pass):
            if must_buy(g, corp):
                raise IllegalAction(f"{corp} has a route and must own a train")
            self.done(g)
            return
        if isinstance(action, Bankrupt):
            if not may_declare_bankruptcy(g, corp):
                raise IllegalAction(f"{corp}'s president can still raise money for a train")
            g.declare_bankruptcy(corp)
            return
        assert isinstance(action, BuyTrain)
        self._buy(g, corp, action)

    def _buy(self, g: Context, corp: str, a: BuyTrain) -> None:
        cs = g.state.corporations[corp]
        if not _room(g, corp, a.exchange):
            raise IllegalAction(
                f"{corp} is at the train limit ({trains.corporation_limit(g, corp)})"
            )
        em = emergency(g, corp)
        low = cheapest_bank_price(g, corp)
        pool = g.state.train_pool

        # (a loop, not a closure read by a generator: compiled, the two would refer to
        # each other, a reference cycle per purchase)
        offer = None
        for o in trains.bank_offers(g, corp):
            if o.exchange != a.exchange:
                continue
            if a.train in pool:  # any discarded train of the offered type
                if o.train in pool and trains.train_type(o.train) == trains.train_type(a.train):
                    offer = o
                    break
            elif o.train == a.train:
                offer = o
                break
        if offer is not None:
            if _spent(g, offer, _spent_new_types(g, corp)):
                raise IllegalAction(
                    f"{corp} has bought its one train of a type that came on sale this turn"
                )
            if a.price != offer.price:
                raise IllegalAction(f"train {a.train} costs ${offer.price} from the bank")
            if a.price > cs.cash:
                if not em or a.exchange is not None or a.price != low:
                    raise IllegalAction(
                        f"{corp} has ${cs.cash}; the president helps only to buy the "
                        "cheapest bank train when the corporation must own one"
                    )
                self._president_pays(g, corp, a.price - cs.cash)
            before = trains.on_sale_types(g) if g.rules.one_new_train_per_turn else None
            trains.buy_from_bank(g, corp, a.train, a.price, a.exchange)
            if before is not None:
                _note_new_types(g, before)
            return
        owner = trains.owner_of(g, a.train)
        if owner is None or owner == "pool" or owner == corp:
            raise IllegalAction(f"train {a.train} is not for sale now (cheapest type only)")
        if em and g.rules.emergency_buy_from_bank_only:
            raise IllegalAction(f"{corp} must buy its compulsory train from the bank")
        if a.exchange is not None:
            raise IllegalAction("a trade-in applies to bank trains only")
        if a.price < g.rules.train_buy_from_corporation_min:
            raise IllegalAction(
                f"a train from another corporation costs at least "
                f"${g.rules.train_buy_from_corporation_min}"
            )
        if a.price > cs.cash:
            if not em or a.price > trains.list_price(g, a.train):
                raise IllegalAction(
                    f"{corp} has ${cs.cash}; the president helps only for a forced purchase, "
                    "up to the train's list price"
                )
            self._check_president_pays(g, corp, a.price - cs.cash)
        if deals.offered(g, a):
            return
        if a.price > cs.cash:
            self._president_pays(g, corp, a.price - cs.cash)
        trains.buy_from_corporation(g, corp, a.train, a.price)

    def _check_president_pays(self, g: Context, corp: str, amount: int) -> None:
        pres = g.state.corporations[corp].president
        assert pres is not None
        if g.state.player(pres).cash < amount:
            raise IllegalAction(f"{pres} cannot add ${amount}: sell shares or go bankrupt")

    def _president_pays(self, g: Context, corp: str, amount: int) -> None:
        self._check_president_pays(g, corp, amount)
        pres = g.state.corporations[corp].president
        assert pres is not None
        pay(g, pres, corp, amount, f"{pres} helps {corp} buy a train")
        g.note(f"{pres} adds ${amount} to {corp}'s treasury for a train")


def _train_prices(lo: int, hi: int, face: int) -> list[int]:
    if hi < lo:
        return []
    return sorted({lo, hi, *(p for p in (face // 2, face) if lo <= p <= hi)})


class DiscardTrains(Step):
    """A corporation over the train limit discards to the bank (any time)."""

    name = "discard"
    actions: ClassVar = (DiscardTrain,)
    cheap = True

    def active(self, g: Context) -> bool:
        return g.pending_discard()  # (bool(trains.over_limit(g)), cached: every step asks)

    def actor(self, g: Context) -> str | None:
        over = trains.over_limit(g)
        return over[0] if over else None

    def legal(self, g: Context) -> list[Action]:
        corp = self.actor(g)
        assert corp is not None
        return [DiscardTrain(corp, t) for t in trains.counted(g, corp)]

    def process(self, g: Context, action: Action) -> None:
        assert isinstance(action, DiscardTrain)
        check_actor(action, self.actor(g))
        trains.discard(g, action.actor, action.train)


@implements("private_sellers", "any_player", "president")
def company_options(g: Context) -> list[tuple[str, int, int]]:
    """(private, min price, max price) the operating corporation may buy now: in phases
    that allow it, from players (rules.private_sellers: any player or its president), for
    the price range (rules.private_price_*), plus any purchase_fee to the bank."""
    if not phases.privates_buyable(g):
        return []
    corp = operating(g)
    if or_round(g).emergency_issued or (
        not g.rules.privates_bought_in_forced_purchase and emergency(g, corp)
    ):
        return []  # the treasury goes to the forced train
    cs = g.state.corporations[corp]
    out = []
    for pid in privates.open_privates(g):
        owner = g.state.privates[pid].owner
        if owner is None or owner in g.state.corporations:
            continue
        if g.rules.private_sellers == "president" and owner != cs.president:
            continue
        if not privates.sellable_to_corporation(g, pid):
            continue
        cash = cs.cash - privates.purchase_fee(g, pid)
        lo, hi = g.tables.private_min_price(pid), g.tables.private_max_price(pid)
        if cash >= lo:
            out.append((pid, lo, min(hi, cash)))
    return out


class BuyCompanies(ORStep):
    """The operating corporation buys privates from players: any time during its turn
    (after the home token) and as the last step."""

    name = "companies"
    actions: ClassVar = (BuyCompany, Pass)
    anytime = True
    current_only = False

    def active(self, g: Context) -> bool:
        r = or_round(g)
        if r.index >= len(r.order) or g.pending_discard():
            return False

        if r.step not in (
            "issue",
            "track",
            "token",
            "ferry",
            "routes",
            "dividend",
            "trains",
            "companies",
        ):
            return False
        options = company_options(g)
        if not options or not r.refused:
            return bool(options)
        corp = operating(g)  # (an offer at the most allowed, unless a refusal bars it)
        return any(not deals.refused(g, BuyCompany(corp, pid, hi)) for pid, _, hi in options)

    def legal(self, g: Context) -> list[Action]:
        corp = operating(g)
        out: list[Action] = []
        for pid, lo, hi in company_options(g):
            face = int(g.tables.private(pid).value)
            for p in sorted({lo, hi, *(x for x in (face,) if lo <= x <= hi)}):
                a = BuyCompany(corp, pid, p)
                if not deals.refused(g, a):
                    out.append(a)
        if or_round(g).step == "companies":
            out.append(Pass(corp))
        return out

    def process(self, g: Context, action: Action) -> None:
        corp = operating(g)
        check_actor(action, corp)
        if isinstance(action, Pass):
            if or_round(g).step != self.name:
                raise IllegalAction(f"nothing to pass: {corp} is in its {or_round(g).step} step")
            self.done(g)
            return
        assert isinstance(action, BuyCompany)
        for pid, lo, hi in company_options(g):
            if pid == action.private:
                if not lo <= action.price <= hi:
                    raise IllegalAction(f"{pid} sells to a corporation for ${lo} to ${hi}")
                seller = g.state.privates[pid].owner
                assert seller is not None
                if deals.offered(g, action):
                    return
                pay(g, corp, seller, action.price, f"{corp} buys {pid}")
                fee = privates.purchase_fee(g, pid)
                pay(g, corp, BANK, fee, f"{corp} pays the fee of {pid}")
                g.state.privates[pid].owner = corp
                or_round(g).bought_privates.append(pid)
                g.note(f"{corp} buys {pid} from {seller} for ${action.price}")
                if fee:
                    g.note(f"{corp} pays ${fee} more to the bank for {pid}")
                ferries.bind_boosts(g)
                return
        raise IllegalAction(
            f"{corp} cannot buy {action.private} now (phase, owner, no_sale_to_corporation, cash)"
        )


class Exchange(Step):
    """A private's owner exchanges it for a share (exchange_share) at any time."""

    name = "exchange"
    actions: ClassVar = (ExchangePrivate,)
    anytime = True

    def active(self, g: Context) -> bool:
        return True

    def actor(self, g: Context) -> str | None:
        return None

    def legal(self, g: Context) -> list[Action]:
        return []

    def process(self, g: Context, action: Action) -> None:
        assert isinstance(action, ExchangePrivate)
        privates.exchange(g, action.actor, action.private, action.source)
