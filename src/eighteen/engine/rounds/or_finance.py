"""Operating-round steps of incremental capitalization (seed 003, "operating round" 1 and
2): issue or redeem shares at the start of the turn (rules.issue_redeem, one action per
turn), and buy a ferry after the station (the compiled ``ferries`` table, one per turn);
a corporation that holds a ferry_multiplier private and several ferries names the one it
multiplies. All are skipped when the title has neither.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from eighteen.engine import ferries, finance
from eighteen.engine.actions import (
    Action,
    BuyFerry,
    ChooseFerry,
    IssueShares,
    Pass,
    RedeemShares,
)
from eighteen.engine.rounds.base import Step, check_actor
from eighteen.engine.rounds.or_step import ORStep, operating, or_round

if TYPE_CHECKING:
    from eighteen.engine.context import Context


class IssueRedeem(ORStep):
    """Issue treasury shares one cell below the price, or redeem market shares one cell
    above (finance.issue / finance.redeem); the price does not move."""

    name = "issue"
    actions: ClassVar = (IssueShares, RedeemShares, Pass)

    def active(self, g: Context) -> bool:
        if not self.is_current(g) or g.rules.issue_redeem is None or or_round(g).issued:
            return False
        corp = operating(g)
        return bool(finance.issue_options(g, corp) or finance.redeem_options(g, corp))

    def legal(self, g: Context) -> list[Action]:
        corp = operating(g)
        out: list[Action] = [IssueShares(corp, n) for n in finance.issue_options(g, corp)]
        out.extend(RedeemShares(corp, n) for n in finance.redeem_options(g, corp))
        return [*out, Pass(corp)]

    def process(self, g: Context, action: Action) -> None:
        check_actor(action, operating(g))
        if isinstance(action, IssueShares):
            finance.issue(g, action.actor, action.count)
        elif isinstance(action, RedeemShares):
            finance.redeem(g, action.actor, action.count)
        or_round(g).issued = True
        self.done(g)


class Ferry(ORStep):
    """Buy one ferry from the bank (ferries.buy)."""

    name = "ferry"
    actions: ClassVar = (BuyFerry, Pass)

    def active(self, g: Context) -> bool:
        # (the ports asked alone: legal's list, made with its pass, was read for them)
        return (
            self.is_current(g)
            and not or_round(g).ferry_bought
            and bool(ferries.options(g, operating(g)))
        )

    def legal(self, g: Context) -> list[Action]:
        corp = operating(g)
        return [*(BuyFerry(corp, p) for p in ferries.options(g, corp)), Pass(corp)]

    def process(self, g: Context, action: Action) -> None:
        check_actor(action, operating(g))
        if isinstance(action, BuyFerry):
            ferries.buy(g, action.actor, action.port)
            or_round(g).ferry_bought = True
        self.done(g)


class FerryChoice(Step):
    """A corporation holding a ferry_multiplier private and several ferries names the one
    it multiplies, before anything else (ferries.choose)."""

    name = "ferry_choice"
    actions: ClassVar = (ChooseFerry,)
    cheap = True

    def active(self, g: Context) -> bool:
        return ferries.choice_due(g) is not None

    def actor(self, g: Context) -> str | None:
        due = ferries.choice_due(g)
        return due[1] if due else None

    def legal(self, g: Context) -> list[Action]:
        due = ferries.choice_due(g)
        if due is None:
            return []
        pid, corp, ports = due
        return [ChooseFerry(corp, pid, p) for p in ports]

    def process(self, g: Context, action: Action) -> None:
        assert isinstance(action, ChooseFerry)
        ferries.choose(g, action.actor, action.private, action.port)
