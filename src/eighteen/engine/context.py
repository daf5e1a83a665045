"""What a mechanic sees of a game: the narrow context every mechanic and round takes.

Mechanics (shares, finance, trains, privates, ferries, takeovers...) and the rounds read
and change a game through this protocol, never through :class:`eighteen.engine.game.Game`
itself, so no module below the facade imports it: the arrows of the house point down
(docs/design.md). ``Game`` satisfies the protocol; a test double may too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from eighteen.engine.state import State
from eighteen.engine.tables import Tables
from eighteen.title.model import Rules

T = TypeVar("T")


class GameData:
    """The data every mechanic reads of a game, the base class of
    :class:`eighteen.engine.game.Game`: its tables, rules, state, options and players.

    Compiled (``eighteen native``), it is a native class (context.pxd), so that a
    mechanic whose ``.pxd`` types its game as one reads these as struct fields.  It sets
    nothing itself (the game does)."""

    __slots__ = ("tables", "rules", "state", "options", "players")

    tables: Tables
    rules: Rules
    state: State
    options: list[str]
    players: list[str]


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

    def declare_bankruptcy(self, corp: str) -> None:
        """The president of ``corp`` goes bankrupt."""

    def end_game(self, reason: str) -> None:
        """The game ends now, for ``reason``."""
