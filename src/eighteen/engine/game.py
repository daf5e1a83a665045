"""Game: one running game of any compiled title.

>>> from eighteen import load_title, Game
>>> game = Game.new(load_title(title_id), players=["Ann", "Bob", "Cy"])  # doctest: +SKIP
>>> game.acting()                                                     # doctest: +SKIP
'Ann'
>>> game.apply(game.legal_actions()[0])                                # doctest: +SKIP

The static title (:class:`~eighteen.engine.tables.Tables`) never changes; the mutable
:class:`~eighteen.engine.state.State` does.  ``apply`` validates and applies one action
atomically: on an illegal action it raises :class:`IllegalAction` and the state is exactly
as before.  The action log is the truth: a save is the title id, version and hash, the
players, seed, options and the actions; loading replays them.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from eighteen.engine import (
    bank,
    bankruptcy,
    collector,
    finance,
    market,
    network,
    phases,
    shares,
    trains,
    views,
)
from eighteen.engine.actions import Action, IllegalAction, action_from_json
from eighteen.engine.capabilities import implements
from eighteen.engine.context import _UNKNOWN, GameData
from eighteen.engine.rounds.auction import AuctionRoundSteps
from eighteen.engine.rounds.base import Round
from eighteen.engine.rounds.operating import OperatingRoundSteps
from eighteen.engine.rounds.operating import next_step as _or_next_step
from eighteen.engine.rounds.operating import start as _start_or
from eighteen.engine.rounds.stock import StockRoundSteps
from eighteen.engine.rounds.takeover import TakeoverRoundSteps
from eighteen.engine.rounds.takeover import due as _takeover_due
from eighteen.engine.rounds.takeover import start as _start_takeover
from eighteen.engine.state import (
    IPO,
    AuctionRound,
    CorporationState,
    PlayerState,
    PrivateState,
    State,
    StockRound,
)
from eighteen.engine.tables import Tables, load_title
from eighteen.title.model import GameEnds
from eighteen.title.save import MAX_NAME, SAVE_FORMAT, SEED_RANGE, SaveFormatError, check_save

STUCK = "no one can act any more, and no rule of the title ends the game"
_ROUNDS: dict[str, Round] = {
    "auction": AuctionRoundSteps(),
    "stock": StockRoundSteps(),
    "operating": OperatingRoundSteps(),
    "takeover": TakeoverRoundSteps(),
}
_RESERVED_NAMES = {"bank", IPO, "pool"}
#: actions between two snapshots of the state (undo and a rollback replay from the last;
#: a snapshot costs an action's time or so and a replay hardly ever needs one: 64 keeps
#: an undo under 2 ms compiled, 3 ms from source, at the end of the real game of the
#: corpus)
_SNAPSHOT_EVERY = 64
#: Keys of cached queries (:meth:`Game.memo`).
_OVER_LIMIT = ("over_limit",)
_ACTING = ("acting",)


class Game(GameData):
    """A game in progress: tables + players + options + state + action log."""

    # (slots: the engine reads ``state``, ``tables`` and the cache on every query, and a
    # slot is read without looking in an instance dict; the tables, rules, state, options
    # and players are :class:`GameData`'s)
    __slots__ = (
        "seed",
        "log",
        "events",
        "_pending_events",
        "stuck",
        "_snapshots",
    )

    def __init__(
        self,
        tables: Tables,
        players: list[str],
        seed: int = 0,
        options: list[str] | tuple[str, ...] = (),
    ) -> None:
        check_capabilities(tables)
        if not isinstance(players, list | tuple):
            raise ValueError(f"players must be a list of names, not {type(players).__name__}")
        n = len(players)
        if not tables.players_min <= n <= tables.players_max:
            raise ValueError(
                f"{tables.id} is for {tables.players_min}-{tables.players_max} players, not {n}"
            )
        for p in players:
            if not isinstance(p, str):
                raise ValueError(f"a player name is text, not {type(p).__name__} {p!r:.40}")
            if len(p) > MAX_NAME:
                raise ValueError(f"a player name has at most {MAX_NAME} characters: {p!r:.40}...")
            taken = _name_taken(tables, p)
            if taken is not None:
                raise ValueError(f"{p!r} cannot be a player name ({taken})")
        if len(set(players)) != n:  # (after the names are known to be text)
            raise ValueError("player names must be distinct")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"the seed is a whole number, not {type(seed).__name__}")
        if not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
            raise ValueError("the seed is out of range (64 bits)")
        for o in options:
            if o not in tables.option_ids:
                known = ", ".join(tables.option_ids) or "none"
                raise ValueError(f"unknown option {o!r} (its options: {known})")
        self.tables = tables
        self.players = list(players)
        self.seed = seed
        self.options = list(options)
        self.rules = tables.rules(self.options)
        self.log: list[Action] = []
        self.events: list[tuple[int, str]] = []
        self._pending_events: list[str] = []
        self._memo: dict[Any, Any] | None = None
        #: the answers that depend on which step is served (:meth:`step_memo`), kept
        #: apart from :attr:`_memo` so that a move to the next step drops only them
        self._steps: dict[Any, Any] | None = None
        #: no one can act any more and the title has no end for it (rules.stall_ends_game
        #: false): the game is not over, but no action is possible
        self.stuck = False
        self.state = self._initial_state()
        self._snapshots: dict[int, State] = {}
        self._advance()
        self._commit_events()
        self._snapshots[0] = self.state.copy()
        self._memo = {}
        self._steps = {}

    @classmethod
    def new(
        cls,
        title: Tables | str,
        players: list[str],
        seed: int = 0,
        options: list[str] | tuple[str, ...] = (),
    ) -> Game:
        """Start a game of ``title`` (tables or title id) for these players, in seating
        order (the first player starts)."""
        tables = title if isinstance(title, Tables) else load_title(title)
        return cls(tables, players, seed=seed, options=options)

    # -- setup ------------------------------------------------------------------------

    def _initial_state(self) -> State:
        t = self.tables
        n = len(self.players)
        cash = t.starting_cash(n)
        depot, minted = trains.initial_depot(t.train_counts(self.options), t.train_order)
        certs = {f"{c.id}_{i}": IPO for c in t.corporations for i in range(len(c.shares))}
        state = State(
            players=[PlayerState(p, cash) for p in self.players],
            corporations={c.id: CorporationState(c.id) for c in t.corporations},
            certs=certs,
            privates={p.id: PrivateState(p.id) for p in t.privates},
            bank=t.bank - cash * n,
            depot=depot,
            minted=minted,
            train_pool=[],
            bought_types=[],
            phase=0,
            round=AuctionRound() if t.privates else StockRound(),
            map=network.new_map(),
        )
        if not t.privates:
            state.stock_rounds = 1
        return state

    # -- notes ------------------------------------------------------------------------

    def note(self, message: str) -> None:
        """Record a human-readable event of the action being applied."""
        self._pending_events.append(message)

    def _commit_events(self) -> None:
        n = len(self.log)
        self.events.extend((n, m) for m in self._pending_events)
        self._pending_events = []

    # -- queries ----------------------------------------------------------------------

    def _round(self) -> Round:
        return _ROUNDS[self.state.round.kind]

    def acting(self) -> str | None:
        """The player name or corporation id that must act now (None when over or stuck)."""
        if self.state.game_over or self.stuck:
            return None
        return self.step_memo(_ACTING, self._round().acting, self)

    def legal_actions(self) -> list[Action]:
        """Every legal action of the acting entity (continuous amounts are sampled; any
        amount in range is accepted by :meth:`apply`)."""
        if self.state.game_over or self.stuck:
            return []
        return self._round().legal(self)

    @property
    def is_over(self) -> bool:
        return self.state.game_over

    def invalidate_caches(self) -> None:
        """Forget cached queries: call after editing ``game.state`` directly (test setups),
        before the next query or apply.  Never needed when the game only changes through
        :meth:`apply`.  The edited state becomes the snapshot of this point of the log, so
        that an action refused half-way is rolled back to it (:meth:`apply`)."""
        self._memo = {}
        self._steps = {}
        self._snapshots[len(self.log)] = self.state.copy()

    def pending_discard(self) -> bool:
        """Is a corporation over the train limit (asked before every step: cached)?"""
        memo = self._memo
        if memo is None:
            return bool(trains.over_limit(self))
        value = memo.get(_OVER_LIMIT, _UNKNOWN)
        if value is _UNKNOWN:
            value = memo[_OVER_LIMIT] = bool(trains.over_limit(self))
        return value

    # -- apply / undo -----------------------------------------------------------------

    def apply(self, action: Action | dict[str, Any]) -> None:
        """Validate and apply one action atomically (IllegalAction leaves no trace).

        The state is changed in place, not copied: an action refused once it has begun to
        change the state is rolled back by rebuilding the state from the last snapshot and
        the log (:meth:`_rollback`), exact because replaying is (a state edited by hand must
        be followed by :meth:`invalidate_caches`, which makes it the snapshot).  Most
        refusals come before any change: finding the step that takes the action, and its
        ``precheck``, only ask queries."""
        if isinstance(action, dict):
            action = action_from_json(action)
        if not isinstance(action, Action):
            raise IllegalAction(f"not an action: {action!r:.80}")
        action.check()  # types and ranges, before any rule runs
        if self.state.game_over:
            raise IllegalAction("the game is over")
        if self.stuck:
            raise IllegalAction(STUCK)
        self._pending_events = []
        # finding the step and its precheck only ask queries: refused there, the action
        # leaves no trace
        step = self._round().handler(self, action)
        step.precheck(self, action)
        memo = self._memo if self._memo is not None else {}
        steps = self._steps if self._steps is not None else {}
        try:
            self.begin_changes()
            step.process(self, action)
            self._advance()
        except Exception:
            self._pending_events = []
            self._rollback()
            self._memo = memo  # the state is back to the one the cached queries were for
            self._steps = steps
            raise
        self.end_changes()
        self.log.append(action)
        self._commit_events()
        if len(self.log) % _SNAPSHOT_EVERY == 0:
            self._snapshots[len(self.log)] = self.state.copy()

    def _rollback(self) -> None:
        """Put back the state of the end of the log (an action failed half-way)."""
        self._rebuild(len(self.log))

    def undo(self) -> Action:
        """Take back the last action (exact: the game is rebuilt from the log)."""
        if not self.log:
            raise IllegalAction("nothing to undo")
        last = self.log[-1]
        self._rebuild(len(self.log) - 1)
        return last

    def _rebuild(self, n: int) -> None:
        """The state after the first ``n`` actions of the log: the last snapshot at or
        before them, copied (snapshots are never changed), and the actions since."""
        base = max(k for k in self._snapshots if k <= n)
        actions = self.log[:n]
        self.state = self._snapshots[base].copy()
        self._memo = {}  # the cached queries were about the state before the rebuild
        self._steps = {}
        self.stuck = False
        self.log = self.log[:base]
        self.events = [(i, m) for i, m in self.events if i <= base]
        for k in [k for k in self._snapshots if k > n]:
            del self._snapshots[k]
        with collector.bulk():
            for a in actions[base:]:
                self.apply(a)

    def clone(self) -> Game:
        """An independent copy (same tables).  Made field by field, not by ``copy.copy``:
        with this module run from its source over a native ``GameData`` (its build gone
        stale), ``copy.copy`` kept only the base class's fields."""
        other = type(self).__new__(type(self))
        other.tables = self.tables
        other.rules = self.rules
        other.players = list(self.players)
        other.options = list(self.options)
        other.seed = self.seed
        other.stuck = self.stuck
        other.state = self.state.copy()
        other.log = list(self.log)
        other.events = list(self.events)
        other._pending_events = []
        other._snapshots = dict(self._snapshots)
        other._memo = {}
        other._steps = {}
        return other

    # -- saves ------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The save: title identity, players, seed, options and the action log."""
        return {
            "format": SAVE_FORMAT,
            "title": self.tables.id,
            "version": self.tables.version,
            "hash": self.tables.hash,
            "players": list(self.players),
            "seed": self.seed,
            "options": list(self.options),
            "actions": [a.to_json() for a in self.log],
        }

    @classmethod
    def from_json(
        cls, data: dict[str, Any] | str, tables: Tables | None = None, strict: bool = False
    ) -> Game:
        """Load a save by replaying its actions (IllegalAction names the failing one), at
        the collector's bulk pace (:func:`eighteen.engine.collector.bulk`).

        The save's shape is checked first (:func:`eighteen.title.save.check_save`): data
        that is not a save raises :class:`~eighteen.title.save.SaveFormatError` (a
        ValueError) naming the first wrong field, before any action is applied. Given
        ``tables`` must be the save's title's (ValueError otherwise); ``strict``: refuse
        a save made with other tables of it too (version or hash differ)."""
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError as exc:  # (JSONDecodeError, or an integer too long to read)
                raise SaveFormatError(f"not a save: {exc}") from None
        save = check_save(data)
        tables = tables or load_title(save.title)
        if save.title != tables.id:
            raise ValueError(f"a save of {save.title} cannot be loaded on {tables.id}")
        if strict and (save.hash, save.version) != (tables.hash, tables.version):
            raise ValueError(
                f"save made with {save.title} {save.version} {save.hash}, "
                f"tables are {tables.version} {tables.hash}"
            )
        game = cls(tables, list(save.players), seed=save.seed, options=list(save.options))
        with collector.bulk():
            for i, a in enumerate(save.actions):
                try:
                    game.apply(action_from_json(a))
                except IllegalAction as exc:
                    raise IllegalAction(f"action {i} ({a.get('type')}): {exc}") from None
        return game

    def state_hash(self) -> str:
        """A stable hash of the full state."""
        blob = json.dumps(self.state.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()

    # -- flow (used by the rounds) ------------------------------------------------------

    #: Whole sets of rounds that may pass without anyone acting before the game is
    #: declared stalled (broke players and corporations that can do nothing; privates
    #: paying revenue may still make a later set playable): it ends, or with
    #: rules.stall_ends_game false it is stuck (:attr:`stuck`).
    STALL_SETS = 20

    def _advance(self) -> None:
        first = self.state.stock_rounds
        for _ in range(10_000):
            self.begin_changes()
            if self.state.game_over:
                return
            if self.state.stock_rounds - first > self.STALL_SETS:
                if not self.rules.stall_ends_game:
                    self.stuck = True
                    self.note(STUCK)
                else:
                    self.end_game("no one can act any more")
                return
            before = self.state.round
            self._round().advance(self)
            if self.state.round is before:
                return
        raise RuntimeError("the game does not settle")

    def start_stock_round(self) -> None:
        s = self.state
        s.stock_rounds += 1
        s.round = StockRound(number=s.stock_rounds, turn=s.priority)
        self.note(f"stock round {s.stock_rounds}; {s.players[s.priority].name} has priority")

    @implements("bank_broken", "end_of_or_set", "end_of_round")
    def end_round(self) -> None:
        """The current round is over: start the next one (or end the game)."""
        s = self.state
        r = s.round
        if s.bank_broken and self.rules.bank_broken == "end_of_round":
            self.end_game("bank broken")
            return
        if r.kind == "stock":
            _start_or(self, 1, int(phases.current(self).operating_rounds))
        elif r.kind == "operating":
            if r.number < r.set_size:
                _start_or(self, r.number + 1, r.set_size)
            elif s.bank_broken:
                self.end_game("bank broken")
            elif _takeover_due(self):
                _start_takeover(self)  # rules.takeovers: before the next stock round
            else:
                self.start_stock_round()
        else:
            self.start_stock_round()

    def next_or_step(self) -> None:
        _or_next_step(self)

    def make_deal(self, action: Action) -> None:
        self._round().handler(self, action).process(self, action)

    @implements("bankruptcy.kind", "game_ends", "player_eliminated")
    def declare_bankruptcy(self, corp: str) -> None:
        """The president cannot fund the forced train: seed 002, "forced purchase": his
        cash goes to the corporation (he must spend it first).  With rules.bankruptcy of
        kind "game_ends" the game ends, his shares unsold for the final score (or, with
        ``sells_shares``, the largest legal sale of each corporation made first, as
        18xx.games does, with ``keeps_presidency`` none giving away the presidency of the
        bankrupt corporation); of kind "player_eliminated" he leaves and the game goes on
        (engine.bankruptcy)."""
        pres = self.state.corporations[corp].president
        assert pres is not None
        self.state.bankrupt = pres
        self.note(f"{pres} is bankrupt: {corp} cannot buy a train")
        rule = self.rules.bankruptcy
        if isinstance(rule, GameEnds) and rule.sells_shares:
            for c in self.tables.corporations:
                cid = c.id
                held = shares.percent_of(self, cid, pres)
                protect = rule.keeps_presidency and cid == corp
                best = max(
                    (
                        p
                        for p in range(10, held + 1, 10)
                        if not shares.sale_problem(self, pres, cid, p, protect)
                    ),
                    default=0,
                )
                if best and market.price(self, cid):
                    shares.sell(self, pres, cid, best)
                    finance.check_closing(self, cid)
        bank.pay(self, pres, corp, self.state.player(pres).cash, f"{pres}'s cash to {corp}")
        if isinstance(rule, GameEnds):
            self.end_game("bankruptcy")
        else:
            bankruptcy.eliminate(self, pres)

    def end_game(self, reason: str) -> None:
        self.state.game_over = True
        self.state.end_reason = reason
        self.note(f"the game ends ({reason})")

    # -- views ------------------------------------------------------------------------

    def __repr__(self) -> str:
        return f"<Game {self.tables.id} {views.round_name(self)} acting={self.acting()}>"


def _name_taken(tables: Tables, name: str) -> str | None:
    """Why ``name`` cannot be a player's (None: it can).  Players, corporations, privates
    and the bank's places all own things, in one namespace, so that an owner is never
    ambiguous."""
    if not name:
        return "a name must not be empty"
    if name in _RESERVED_NAMES:
        return f"it names the {name}"
    if tables.is_corporation(name):
        return f"it is a corporation of {tables.id}"
    if tables.is_private(name):
        return f"it is a private of {tables.id}"
    return None


def check_capabilities(tables: Tables) -> None:
    """Refuse tables naming mechanics this engine does not implement (each implementation
    registers itself, engine.capabilities; ``eighteen validate`` reports the same, E198)."""
    problems = tables.unplayable
    if problems:
        raise ValueError("the engine cannot run this title yet: " + "; ".join(problems))
