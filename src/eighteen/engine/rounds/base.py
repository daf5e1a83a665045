"""Rounds are ordered lists of steps; each step declares the actions it handles.

The game asks the current round for its *active* steps, in order.  The first active step
is the one that must be served (it names the acting entity); later active steps that are
*anytime* steps (e.g. a corporation buying a private during its turn) also accept their
actions.  An action goes to the first active step that handles its type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from eighteen.engine.actions import Action, IllegalAction

if TYPE_CHECKING:
    from eighteen.engine.context import Context


#: The :meth:`Round.served` query's key in ``Game.memo``.
_SERVED = ("served",)


class Step:
    """One step of a round.

    ``actions``: action types it handles.  ``anytime``: it accepts actions while an
    earlier step is the one being served (it never names the acting entity itself).
    """

    name: ClassVar[str] = "step"
    actions: ClassVar[tuple[type[Action], ...]] = ()
    anytime: ClassVar[bool] = False
    #: While this step is served, does no other step take actions (an answer awaited)?
    exclusive: ClassVar[bool] = False
    #: Is :meth:`active` a look at the state, answered faster than a cached answer is
    #: found (then :meth:`is_active` asks it each time)?
    cheap: ClassVar[bool] = False

    def active(self, g: Context) -> bool:
        """Does this step have something to do now?"""
        raise NotImplementedError

    def is_active(self, g: Context) -> bool:
        """:meth:`active`, cached until the state changes (``Game.step_active``), unless
        it is :attr:`cheap`."""
        if self.cheap:
            return bool(self.active(g))
        return g.step_active(self)

    def actor(self, g: Context) -> str | None:
        """Who must act in this step."""
        raise NotImplementedError

    def legal(self, g: Context) -> list[Action]:
        """Every legal action of this step (sampled for continuous amounts)."""
        raise NotImplementedError

    def precheck(self, g: Context, action: Action) -> None:
        """Checks of :meth:`process` that only ask queries, made before anything changes
        (``Game.apply`` calls it first: a refusal here costs no rollback).  None by
        default; :meth:`process` still makes every check."""

    def process(self, g: Context, action: Action) -> None:
        """Validate (raise IllegalAction) and apply the action."""
        raise NotImplementedError


class Round:
    """A round: ordered steps plus what happens between turns."""

    kind: ClassVar[str] = "round"

    def steps(self, g: Context) -> list[Step]:
        raise NotImplementedError

    def active_steps(self, g: Context) -> list[Step]:
        """Active steps, the served one first, then the anytime steps that accept actions.

        ``active`` is a pure query, so it is asked only where the answer matters: not of
        the sequential steps after the served one."""
        out: list[Step] = []
        for st in self.steps(g):
            if out and (out[0].exclusive or not self.concurrent(g, st)):
                continue
            if st.is_active(g):
                out.append(st)
        return out

    def concurrent(self, g: Context, st: Step) -> bool:
        """Does ``st`` accept its actions while an earlier step is served?  (Its
        ``anytime``; a round may open more steps, as the operating round's steps taken in
        any order.)"""
        return st.anytime

    def served(self, g: Context) -> Step | None:
        """The first active step (``active_steps(g)[0]``, without asking the others);
        cached until the state or the served step changes."""
        return g.step_memo(_SERVED, self._served, g)

    def _served(self, g: Context) -> Step | None:
        for st in self.steps(g):
            if st.is_active(g):
                return st
        return None

    def acting(self, g: Context) -> str | None:
        st = self.served(g)
        return st.actor(g) if st is not None else None

    def legal(self, g: Context) -> list[Action]:
        out: list[Action] = []
        seen: set[Action] = set()
        for st in self.active_steps(g):
            for a in st.legal(g):
                if a not in seen:
                    seen.add(a)
                    out.append(a)
        return out

    def handler(self, g: Context, action: Action) -> Step:
        """The step that takes the action now (a query; IllegalAction when none): the
        first active step that handles its type, the served step first, then the active
        anytime steps (one that does not handle the type is not asked whether it is
        active)."""
        served = self.served(g)
        if served is not None:
            if isinstance(action, served.actions):
                return served
            if served.exclusive:
                raise IllegalAction(
                    f"{action.type} is not possible now: the {served.name} step expects "
                    f"{', '.join(sorted(t.type for t in served.actions))}"
                )
            after = False
            for st in self.steps(g):
                if st is served:
                    after = True
                elif (
                    after
                    and isinstance(action, st.actions)
                    and self.concurrent(g, st)
                    and st.is_active(g)
                ):
                    return st
        steps = self.active_steps(g)
        expected = sorted({t.type for st in steps for t in st.actions})
        name = steps[0].name if steps else "none"
        raise IllegalAction(
            f"{action.type} is not possible now: the {name} step expects {', '.join(expected)}"
        )

    def process(self, g: Context, action: Action) -> None:
        """Validate (raise IllegalAction) and apply the action in the step that takes it."""
        self.handler(g, action).process(g, action)

    def advance(self, g: Context) -> None:
        """Run automatic effects until someone must act (or the round ends)."""
        raise NotImplementedError


def check_actor(action: Action, expected: str | None) -> None:
    if expected is None or action.actor != expected:
        raise IllegalAction(f"not {action.actor}'s turn: {expected} is to act")


def sample_amounts(lo: int, hi: int, step: int = 5) -> list[int]:
    """A few amounts from ``lo`` to ``hi``: the minimum, small raises, some larger
    ones, and the maximum."""
    if hi < lo:
        return []
    out = {lo, hi}
    for d in (step, 2 * step, 5 * step, 10 * step, 20 * step):
        if lo + d <= hi:
            out.add(lo + d)
    return sorted(out)
