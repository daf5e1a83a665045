"""The operating round's sequential steps: what a step of a corporation's turn has in
common (:class:`ORStep`: the operating corporation acts; the step is active only while it
is the one served, or opened with it by rules.turn_any_order), and the round's two
questions every step asks, the round (:func:`or_round`) and the operating corporation
(:func:`operating`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from eighteen.engine.actions import Action
from eighteen.engine.rounds.base import Step, check_actor
from eighteen.engine.state import OperatingRound

if TYPE_CHECKING:
    from eighteen.engine.context import Context


def or_round(g: Context) -> OperatingRound:
    """The operating round in play (asked only while one is)."""
    return g.state.round


def operating(g: Context) -> str:
    r = g.state.round
    return r.order[r.index]


class ORStep(Step):
    """A sequential step of a corporation's turn (active only while it is current)."""

    #: Is the step active only while it is current (:meth:`is_current`: every ``active``
    #: of such a step asks it first)?  A step taking actions at other times of the turn
    #: (an ``anytime`` step) says False.
    current_only: ClassVar[bool] = True

    def is_active(self, g: Context) -> bool:
        """:meth:`Step.is_active`, with the answer for a step that is not the one served
        nor opened with it found at once (False, when :attr:`current_only`): the round
        asks every step before the served one, and that question is not worth caching."""
        return _is_active(self, g)

    def precheck(self, g: Context, action: Action) -> None:
        """The operating corporation acts (the first check of :meth:`process`)."""
        check_actor(action, operating(g))

    def is_current(self, g: Context) -> bool:
        """The step being served, or one opened with it (:meth:`opened`)."""
        return _is_current(self, g)

    def opened(self, g: Context) -> bool:
        """Does this step take its actions while an earlier step of its group in
        rules.turn_any_order is served (the steps of a group come in any order)?  The
        operating round registers it for the names of its turn's steps."""
        return _opened(self, g)

    def actor(self, g: Context) -> str | None:
        return operating(g)

    def skip(self, g: Context) -> None:
        """Automatic effects when the step is passed over without an action."""

    def done(self, g: Context) -> None:
        """Leave this step: the next one becomes current (a step opened while an earlier
        one is served leaves nothing: the served step goes on)."""
        if or_round(g).step == self.name:
            g.next_or_step()


# (ORStep's questions as module functions: compiled, or_step.pxd types them over the game
# and the operating round, whose fields they read as struct fields)


def _is_active(step: ORStep, g: Context) -> bool:
    """:meth:`ORStep.is_active`."""
    if step.current_only:  # (the test of is_current, inline: asked of every step)
        r = g.state.round
        if r.step != step.name and not step.opened(g):
            return False
    return g.step_active(step)


def _is_current(step: ORStep, g: Context) -> bool:
    """:meth:`ORStep.is_current`."""
    r = g.state.round
    return (
        r.index < len(r.order)
        and (r.step == step.name or step.opened(g))
        and not g.pending_discard()
    )


def _opened(step: ORStep, g: Context) -> bool:
    """:meth:`ORStep.opened`."""
    r = g.state.round
    turn_any_order = g.rules.turn_any_order
    if not turn_any_order:
        return False  # (the usual case: a turn's steps in their order)
    name = r.step
    # (the rules keep the steps' values, plain names: Rules has use_enum_values)
    for group in cast(list[list[str]], turn_any_order):
        if step.name in group and name in group:
            return group.index(name) < group.index(step.name)
    return False
