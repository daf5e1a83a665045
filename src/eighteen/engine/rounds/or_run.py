"""Operating-round steps: run routes and pay or withhold the revenue (seed 002,
"trains, routes and revenue").

A corporation with trains runs them (the engine offers the best routes and checks any
submitted ones).  Revenue is paid out to the certificate holders (rules.ipo_dividends and
rules.pool_dividends decide unsold and pool shares) and the price moves ``pay``; or it is
withheld into the treasury and the price moves ``withhold``.  No revenue (no train, or
nothing to run) withholds automatically.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from eighteen.engine import finance, network, privates, shares, trains
from eighteen.engine.actions import Action, Dividend, IllegalAction, RunRoutes
from eighteen.engine.bank import BANK, pay
from eighteen.engine.capabilities import implements
from eighteen.engine.rounds.base import check_actor
from eighteen.engine.rounds.or_step import ORStep, operating, or_round
from eighteen.engine.routes import RouteError
from eighteen.engine.state import IPO, POOL

if TYPE_CHECKING:
    from eighteen.engine.context import Context


class Routes(ORStep):
    name = "routes"
    actions: ClassVar = (RunRoutes,)

    def active(self, g: Context) -> bool:
        """Trains must run when there is anything to run (no route: nothing earned).
        Whether there is is a question of reach (a station joined to another stop), not
        of the best routes: the optimiser runs only when the routes are asked for."""
        if not self.is_current(g):
            return False
        corp = operating(g)
        if privates.routes_restricted(g, corp):
            return False
        return bool(g.state.corporations[corp].trains) and network.can_run(g, corp)

    def legal(self, g: Context) -> list[Action]:
        corp = operating(g)
        return [RunRoutes(corp, tuple(network.spec(r) for r in network.best(g, corp)))]

    def skip(self, g: Context) -> None:
        or_round(g).revenue = 0
        or_round(g).routes = []

    def process(self, g: Context, action: Action) -> None:
        assert isinstance(action, RunRoutes)
        check_actor(action, operating(g))
        corp = action.actor
        try:
            routes = network.check(g, corp, action.routes)
        except RouteError as exc:
            raise IllegalAction(f"illegal route: {exc.reason}") from None
        for spec, route in zip(action.routes, routes, strict=True):
            if spec.revenue != route.revenue:
                raise IllegalAction(
                    f"train {spec.train} earns ${route.revenue} on that route, not ${spec.revenue}"
                )
        r = or_round(g)
        r.routes = [rt.to_json() for rt in routes]
        r.revenue = sum(rt.revenue for rt in routes)
        stops = "; ".join(f"{rt.train}: {'-'.join(s.hex for s in rt.stops)}" for rt in routes)
        g.note(f"{corp} runs for ${r.revenue}" + (f" ({stops})" if stops else ""))
        self.done(g)


@implements("ipo_dividends", "bank", "corporation", "none")
@implements("pool_dividends", "bank", "corporation", "none")
def payout(g: Context, corp: str, revenue: int) -> None:
    """Pay ``revenue`` to the holders: each gets revenue x percent / 100 (rounded down)."""
    for owner, pct in shares.percents(g, corp).items():  # (in the order of the certificates)
        amount = revenue * pct // 100
        if owner == IPO:
            to = corp if g.rules.ipo_dividends == "corporation" else None
        elif owner == POOL:
            to = corp if g.rules.pool_dividends == "corporation" else None
        else:
            to = owner
        if to is not None and amount:
            pay(g, BANK, to, amount, f"{corp} dividend")
    g.note(f"{corp} pays ${revenue} (${revenue // 10} per 10%)")


@implements("dividend_options[]", "full", "half", "withhold")
def dividend_kinds(g: Context) -> list[str]:
    """Dividend action kinds the title allows: payout and withhold, plus half where
    rules.dividend_options names it (seed 003)."""
    options = g.rules.dividend_options
    return [{"full": "payout"}.get(o, o) for o in options]


class DividendStep(ORStep):
    """Pay out, pay half (the corporation keeps half rounded down to
    rules.half_pay_retain_multiple) or withhold; the price moves by finance.dividend_move.
    Phased-out trains leave after the run (seed 003)."""

    name = "dividend"
    actions: ClassVar = (Dividend,)

    def active(self, g: Context) -> bool:
        return self.is_current(g) and (or_round(g).revenue or 0) > 0

    def legal(self, g: Context) -> list[Action]:
        corp = operating(g)
        return [Dividend(corp, k) for k in dividend_kinds(g)]

    def skip(self, g: Context) -> None:
        corp = operating(g)
        g.note(f"{corp} earns nothing")
        trains.retire_obsolete(g, corp)
        finance.dividend_move(g, corp, 0, withheld=True)

    def process(self, g: Context, action: Action) -> None:
        assert isinstance(action, Dividend)
        check_actor(action, operating(g))
        corp = action.actor
        revenue = or_round(g).revenue or 0
        if action.kind not in dividend_kinds(g):
            raise IllegalAction(f"dividend kind must be one of {dividend_kinds(g)}")
        trains.retire_obsolete(g, corp)
        if action.kind == "payout":
            payout(g, corp, revenue)
            finance.dividend_move(g, corp, revenue, withheld=False)
        elif action.kind == "half":
            kept, paid = finance.half_split(g, revenue)
            pay(g, BANK, corp, kept, f"{corp} keeps half")
            g.note(f"{corp} keeps ${kept}")
            payout(g, corp, paid)
            finance.dividend_move(g, corp, paid, withheld=False)
        else:
            pay(g, BANK, corp, revenue, f"{corp} withholds")
            g.note(f"{corp} withholds ${revenue}")
            finance.dividend_move(g, corp, 0, withheld=True)
        self.done(g)
