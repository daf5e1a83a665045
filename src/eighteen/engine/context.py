"""What a mechanic sees of a game: the narrow context every mechanic and round takes.

Mechanics (shares, finance, trains, privates, ferries, takeovers...) and the rounds read
and change a game through this protocol, never through :class:`eighteen.engine.game.Game`
itself, so no module below the facade imports it: the arrows of the house point down
(docs/design.md). ``Game`` satisfies the protocol; a test double may too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from eighteen.engine.actions import Action
from eighteen.engine.state import State
from eighteen.engine.tables import Tables
from eighteen.title.model import Rules

T = TypeVar("T")

#: What :meth:`GameData.memo` finds for a query not asked since the state last changed.
_UNKNOWN = object()


class GameData:
    """The data every mechanic reads of a game, the base class of
    :class:`eighteen.engine.game.Game`: its tables, rules, state, options and players, and
    the caches of its queries with the methods that keep them (the game sets the rest;
    its ``pending_discard`` reads them too).

    Compiled (``eighteen native``), it is a native class (context.pxd), so that a
    mechanic whose ``.pxd`` types its game as one reads these as struct fields and calls
    these methods as C functions."""

    __slots__ = ("tables", "rules", "state", "options", "players", "_memo", "_steps")

    tables: Tables
    rules: Rules
    state: State
    options: list[str]
    players: list[str]
    #: the answers to queries while the state holds still (:meth:`memo`; None: none
    #: is kept, the state is changing), and those that also depend on the served step
    _memo: dict[Any, Any] | None
    _steps: dict[Any, Any] | None

    def memo(self, key: Any, compute: Callable[..., Any], *args: Any) -> Any:
        """Cache an expensive query (legal tile lays, routes...) until the state changes:
        ``compute(*args)`` (arguments, so that a hot caller needs no closure per question).
        Callers must not mutate the result.

        The same four-line read is written out in :meth:`step_memo`, :meth:`step_active` and
        ``Game.pending_discard``, on purpose: they are asked several times per action, and
        one read shared through a helper costs 0.5-1.6% of a replay's instructions
        (docs/design.md, thirteenth pass), and still 0.8-1.6% as a compiled C function
        (twentieth pass)."""
        memo = self._memo
        if memo is None:
            return compute(*args)
        value = memo.get(key, _UNKNOWN)
        if value is _UNKNOWN:
            value = memo[key] = compute(*args)
        return value

    def step_memo(self, key: Any, compute: Callable[..., Any], *args: Any) -> Any:
        """:meth:`memo` for an answer that depends on which step is served (the step
        served, who acts): kept while the state holds still, dropped also when only the
        served step moves on (:meth:`step_moved`)."""
        memo = self._steps
        if memo is None:
            return compute(*args)
        value = memo.get(key, _UNKNOWN)
        if value is _UNKNOWN:
            value = memo[key] = compute(*args)
        return value

    def step_active(self, step: Any) -> bool:
        """``bool(step.active(self))``, cached as :meth:`step_memo` is (keyed by the step
        itself: the steps are shared objects)."""
        memo = self._steps
        if memo is None:
            return bool(step.active(self))
        value = memo.get(step, _UNKNOWN)
        if value is _UNKNOWN:
            value = memo[step] = bool(step.active(self))
        return value

    def begin_changes(self) -> None:
        """The state is about to change: cached queries no longer hold, and nothing is
        cached until :meth:`end_changes`.  ``apply`` calls it once the step that takes the
        action is known (finding it only asks queries), and before every automatic
        effect; rounds call it again after each :meth:`end_changes`."""
        self._memo = None
        self._steps = None

    def step_moved(self) -> None:
        """Only the served step changed (a round passed over a step with nothing to do
        and no effect of its own): the answers about the state hold, those about the
        steps (:meth:`step_memo`) are dropped.  Outside :meth:`end_changes` nothing is
        cached anyway."""
        if self._steps is not None:
            self._steps = {}

    def end_changes(self) -> None:
        """The state holds still (until the next :meth:`begin_changes`): queries may be
        cached again.  A round's ``advance`` calls it before asking whether a step is
        active, so that the answers found last stay cached for the next action."""
        if self._memo is None:
            self._memo = {}
            self._steps = {}


class Context(Protocol):
    """The running game as the mechanics see it."""

    tables: Tables
    """The compiled title (typed, read-only)."""
    rules: Rules
    """The rules with the game's options applied."""
    state: State
    """The mutable game state."""
    options: list[str]
    players: list[str]

    def note(self, message: str) -> None:
        """Add a line to the game's event log."""

    def memo(self, key: Any, compute: Callable[..., T], *args: Any) -> T:
        """A query's answer, ``compute(*args)``, cached until the state next changes."""

    def step_memo(self, key: Any, compute: Callable[..., T], *args: Any) -> T:
        """:meth:`memo` for an answer that depends on which step is served: also dropped
        when only the served step moves on (:meth:`step_moved`)."""

    def step_active(self, step: Any) -> bool:
        """Whether a round's step is active (``step.active``), cached as
        :meth:`step_memo`."""

    def step_moved(self) -> None:
        """Only the served step changed: drop the answers of :meth:`step_memo`."""

    def invalidate_caches(self) -> None:
        """Forget cached queries (after a change made outside apply)."""

    def begin_changes(self) -> None:
        """The state is about to change: stop caching."""

    def end_changes(self) -> None:
        """The state is stable again: cache queries."""

    def pending_discard(self) -> bool:
        """Must a corporation over the train limit discard first?"""

    def acting(self) -> str | None:
        """Who is to act now."""

    def start_stock_round(self) -> None:
        """Begin the next stock round."""

    def end_round(self) -> None:
        """The current round is over: start the next one (or end the game)."""

    def next_or_step(self) -> None:
        """Move the operating corporation on to its next step."""

    def make_deal(self, action: Action) -> None:
        """Make an accepted deal (rounds/deals.py): process ``action`` in the step of the
        current round that takes it, as if its side had acted now."""

    def declare_bankruptcy(self, corp: str) -> None:
        """The president of ``corp`` goes bankrupt."""

    def end_game(self, reason: str) -> None:
        """The game ends now, for ``reason``."""
