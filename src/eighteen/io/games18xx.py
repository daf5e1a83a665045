"""18xx.games game exports: import (replay in our engine, exactly) and export.

The export format is described in the reference note ``18xx-games-format.md`` (shared
reference folder); section numbers below (§3.2 ...) are that note's.

Import (:func:`import_game`):

* the raw action list goes through the undo/redo filter (§3.2, :func:`filter_actions`);
  each kept action is followed by its ``auto_actions`` (:func:`effective_actions`);
* every action is mapped onto our actions (:mod:`eighteen.engine.actions`) and applied;
  ``program_*`` automation settings and chat change no state and are skipped;
* routes are re-derived, never trusted (§3.4): each ``run_routes`` route is read from its
  ``connections`` on our board and checked by our engine, and its revenue must equal the
  logged one;
* ``settings.optional_rules`` become title options (same ids); the title's
  ``import_18xx.options`` are switched on too (18xx.games' own rule choices);
* the first action our engine refuses, or whose logged revenue differs, stops the replay:
  a :class:`Divergence` names it.  Bad input (not JSON, missing fields, unknown action
  types, hexes, tiles, companies, players...) raises :class:`ExportError`, one line that
  names the action id.

Where the two engines differ only in bookkeeping, the importer bridges the gap, never the
rules: 18xx.games logs a ``pass`` for each optional operating step a corporation declines
(and skips steps with nothing to do), our engine skips other steps, so corporation passes
are not replayed one by one; instead, when a logged action does not fit the step our
engine is in, the acting corporation passes its optional steps until it does (a pass our
engine would refuse is never made).  A player's ``pass`` is applied when that player is
to act (our engine passes players who can do nothing by itself).  A home token that our
engine placed itself is checked against the logged one, not placed twice.

Export (:func:`export_game`) writes one of our games in the same format; importing the
export gives the same state (same :meth:`~eighteen.engine.game.Game.state_hash`).

Ids: corporations, privates, trains, tiles and hexes have the same ids in our title
tables; a certificate ``<corp>_<i>`` is looked up by corporation; a printed tile id comes
from the title's ``import_18xx.preprinted`` table, or is the hex itself.  Nothing here
names a title.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from eighteen.engine import bank, network, phases, trains, views
from eighteen.engine.actions import (
    Action,
    Bankrupt,
    Bid,
    BuyCompany,
    BuyShares,
    BuyTrain,
    DiscardTrain,
    Dividend,
    ExchangePrivate,
    IllegalAction,
    LayTile,
    Par,
    Pass,
    PlaceToken,
    RouteSpec,
    RunRoutes,
    SellShares,
    TradePrivate,
)
from eighteen.engine.game import Game
from eighteen.engine.map import MapError
from eighteen.engine.map import Path as TrackPath
from eighteen.engine.rounds.operating import STEP_NAMES
from eighteen.engine.routes import Route, RouteError, route_connections, route_from_connections
from eighteen.engine.shares import cert_percent
from eighteen.engine.state import IPO, POOL
from eighteen.engine.tables import Tables, TitleNotFound, load_title
from eighteen.io.jsonlimits import INT_MAX, INT_MIN, JSONLimitError, load_json

#: 18xx.games ``game_end_reason`` -> our engine's end reason.
END_REASONS = {"bankrupt": "bankruptcy", "bank": "bank broken"}

#: Action types that change no game state (automation settings, chat).
NO_STATE = {"program_buy_shares", "program_share_pass", "program_disable", "message"}
_PROGRAM_PREFIX = "program_"

#: At most this many optional steps are passed to make one logged action fit.
MAX_PASSES = 12


class ExportError(ValueError):
    """The file is not a usable 18xx.games export (one line, naming the action id)."""


@dataclass
class Divergence(Exception):
    """Our engine refuses a logged action, or computes something else (e.g. a revenue)."""

    action_id: int | str
    action: dict[str, Any]
    reason: str

    def __str__(self) -> str:
        return f"action {self.action_id}: {self.reason}"


# ---------------------------------------------------------------------------------------
# reading and filtering


def read_export(path: str | Path) -> dict[str, Any]:
    """Read an export file; :class:`ExportError` when it cannot be used."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ExportError(f"cannot read {path}: {exc}") from None
    try:
        data = load_json(text)
    except json.JSONDecodeError as exc:
        raise ExportError(f"{path}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
    except JSONLimitError as exc:
        raise ExportError(f"{path}: not a usable export: {exc}") from None
    if not isinstance(data, dict):
        raise ExportError(f"{path}: not an 18xx.games export (not a JSON object)")
    return data


def _action_list(data: dict[str, Any]) -> list[dict[str, Any]]:
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise ExportError("the export has no action list ('actions')")
    for i, a in enumerate(actions):
        if not isinstance(a, dict):
            raise ExportError(f"action #{i + 1} is not a JSON object")
        if "type" not in a:
            raise ExportError(f"action {a.get('id', f'#{i + 1}')}: missing field 'type'")
        if not isinstance(a["type"], str):
            raise ExportError(
                f"action {a.get('id', f'#{i + 1}')}: unknown action type {a['type']!r}"
            )
        if "id" not in a:
            raise ExportError(f"action #{i + 1} ({a['type']}): missing field 'id'")
    return actions


def filter_actions(raw: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The undo/redo filter of §3.2: the kept actions, in raw order, with their own ids.

    One slot per raw position; ``undo`` empties the kept non-message slots after its
    ``action_id`` (or the last one) and pushes them as a group; ``redo`` puts the last
    group back; any other action except chat clears the redo stack.
    """
    slots: list[dict[str, Any] | None] = []
    kept: list[int] = []  # positions of the kept non-message slots, ascending
    stack: list[list[tuple[int, dict[str, Any] | None]]] = []
    for a in raw:
        t = a.get("type")
        if t == "undo":
            if "action_id" in a and a["action_id"] is not None:
                target = _int(a["action_id"], a, "action_id")
                at = next(
                    (k for k, i in enumerate(kept) if _int(slots[i]["id"], a, "id") > target),  # type: ignore[index]
                    len(kept),
                )
            else:
                at = max(len(kept) - 1, 0)
            group: list[tuple[int, dict[str, Any] | None]] = [(i, slots[i]) for i in kept[at:]]
            for i in kept[at:]:
                slots[i] = None
            del kept[at:]
            stack.append(group)
            slots.append(None)
        elif t == "redo":
            if not stack:
                raise ExportError(f"action {a.get('id')}: redo with nothing to restore")
            group = stack.pop()
            for i, x in group:
                slots[i] = x
            kept = sorted(kept + [i for i, _ in group])
            slots.append(None)
        else:
            slots.append(a)
            if t != "message":
                kept.append(len(slots) - 1)
                stack = []
    return [a for a in slots if a is not None]


def effective_actions(raw: list[dict[str, Any]]) -> Iterator[tuple[int | str, dict[str, Any]]]:
    """(id, action) to process: the kept actions, each followed by its ``auto_actions``
    (which carry their parent's id, as ``"<id>.<n>"``)."""
    return _with_autos(filter_actions(raw))


def _with_autos(kept: list[dict[str, Any]]) -> Iterator[tuple[int | str, dict[str, Any]]]:
    """The kept actions, each followed by its ``auto_actions``."""
    for a in kept:
        yield a["id"], a
        autos = a.get("auto_actions") or []
        if not isinstance(autos, list):
            raise ExportError(f"action {a['id']}: auto_actions is not a list")
        for n, sub in enumerate(autos, 1):
            if not isinstance(sub, dict) or not isinstance(sub.get("type"), str):
                raise ExportError(f"action {a['id']}: auto action {n} has no type")
            yield f"{a['id']}.{n}", sub


def _int(v: Any, a: dict[str, Any], name: str) -> int:
    """An integer field: a whole number (or its digits as text) within 64 bits; a fraction
    (``45.5``), a bool or a number out of range is an ExportError naming the action."""
    where = f"action {str(a.get('id'))[:24]} ({str(a.get('type'))[:40]})"
    if isinstance(v, bool) or not isinstance(v, int | float | str):
        raise ExportError(f"{where}: {name} is not a number")
    if isinstance(v, float) and not v.is_integer():
        raise ExportError(f"{where}: {name} is not a whole number: {v!r}")
    if isinstance(v, str) and not (0 < len(v) <= 20 and v.lstrip("-").isdigit()):
        raise ExportError(f"{where}: {name} is not a number: {v!r:.40}")
    try:
        n = int(v)
    except (OverflowError, ValueError):
        raise ExportError(f"{where}: {name} is not a number: {v!r:.40}") from None
    if not INT_MIN <= n <= INT_MAX:
        raise ExportError(f"{where}: {name} is out of range: {v!r:.40}")
    return n


# ---------------------------------------------------------------------------------------
# import


@dataclass
class ImportResult:
    """What an import produced: our game, and the file's claims to compare with."""

    game: Game
    players: dict[str, str]  # our player name -> the file's result key (id as a string)
    expected: dict[str, int]  # the file's result, by our player name (may be partial)
    expected_reason: str | None  # the file's game_end_reason
    status: str | None
    raw_count: int
    kept_count: int
    applied: int  # logged actions processed (auto actions included)
    routes_checked: int
    divergence: Divergence | None = None
    stopped_at: int | None = None  # the replay stopped after this action id (--at)
    notes: list[str] = field(default_factory=list)
    #: with ``optimal_routes``: (action id, corporation, logged revenue, optimal, proven)
    route_report: list[tuple[int | str, str, int, int, bool]] = field(default_factory=list)

    def values(self) -> dict[str, int]:
        """Our value of each player (name -> value)."""
        return dict(views.ranking(self.game))

    def reason_matches(self) -> bool:
        """Does our end reason equal the file's?  A file that records none (older exports)
        matches any end: only the values are compared then."""
        ours = self.game.state.end_reason if self.game.is_over else None
        if self.expected_reason is None:
            return True
        return ours == END_REASONS.get(self.expected_reason, self.expected_reason)

    def mismatches(self) -> list[str]:
        """Every difference from the file's result, empty when the replay is exact (with
        ``stopped_at``: only a divergence and the money count)."""
        out = []
        if self.divergence is not None:
            out.append(str(self.divergence))
        if self.stopped_at is not None:
            money = bank.total_money(self.game)
            if money != self.game.tables.bank:
                out.append(f"money: ${money} in the game, ${self.game.tables.bank} at the start")
            return out
        values = self.values()
        for name, want in self.expected.items():
            if values.get(name) != want:
                out.append(f"{name}: ours {values.get(name)}, file {want}")
        missing = [n for n in values if n not in self.expected]
        if missing and self.expected:
            out.append(f"the file's result lacks {', '.join(missing)}")
        if not self.reason_matches():
            ours = self.game.state.end_reason if self.game.is_over else "not over"
            out.append(f"end: ours {ours}, file {self.expected_reason}")
        if self.status in ("finished", "active") and (self.status == "finished") != (
            self.game.is_over
        ):
            out.append(f"status: file {self.status}, ours {'over' if self.game.is_over else 'on'}")
        money = bank.total_money(self.game)
        if money != self.game.tables.bank:
            out.append(f"money: ${money} in the game, ${self.game.tables.bank} at the start")
        return out


def import_game(
    data: dict[str, Any],
    tables: Tables | None = None,
    *,
    check_routes: bool = True,
    optimal_routes: bool = False,
    stop_at: int | None = None,
) -> ImportResult:
    """Replay an export (a parsed JSON object) in our engine.

    Raises :class:`ExportError` for bad input.  A divergence does not raise: the replay
    stops there and ``result.divergence`` says where and why (the game is left after the
    last action that applied).  With ``optimal_routes`` the route optimiser runs at every
    logged run_routes and ``result.route_report`` compares logged and optimal revenue.
    With ``stop_at`` the replay stops after the kept action of that id (and its
    auto_actions); ``result.stopped_at`` records it and the file's final result is not
    compared (:meth:`ImportResult.mismatches` checks only the replay and the money).
    """
    imp = Importer(data, tables)
    imp.optimal_routes = optimal_routes
    res = imp.run(check_routes=check_routes, stop_at=stop_at)
    res.route_report = imp.route_report
    return res


def _created_day(value: Any) -> str | None:
    """The export's ``created_at`` as a UTC day "YYYY-MM-DD" (epoch seconds, or a date
    string in hotseat exports); None when absent or unreadable."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        try:
            return datetime.fromtimestamp(value, tz=UTC).strftime("%Y-%m-%d")
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(value, str) and len(value) >= 10 and value[4] == "-" and value[7] == "-":
        return value[:10]
    return None


def _settings(data: dict[str, Any]) -> dict[str, Any]:
    s = data.get("settings")
    return s if isinstance(s, dict) else {}


class Importer:
    """Maps one export onto a new game of ours, action by action."""

    def __init__(self, data: dict[str, Any], tables: Tables | None = None) -> None:
        self.data = data
        if tables is None:
            title = data.get("title")
            if not isinstance(title, str | int) or not str(title):
                raise ExportError("the export names no title ('title')")
            try:
                tables = load_title(str(title))
            except TitleNotFound:
                raise ExportError(f"unknown title {title!r}: no compiled tables") from None
        self.tables = tables
        self.optimal_routes = False
        self.route_report: list[tuple[int | str, str, int, int, bool]] = []
        self.mapping: dict[str, Any] = tables.data.get("import_18xx") or {}
        self.raw = _action_list(data)
        self.names, self.result_keys = self._players()
        options = self._options()
        settings = _settings(data)
        seed = settings.get("seed", 0)
        try:
            seed = int(seed)
        except (TypeError, ValueError):
            seed = 0
        try:
            self.game = Game(tables, list(self.names.values()), seed=seed, options=options)
        except ValueError as exc:
            raise ExportError(str(exc)) from None
        self.board = network.board(self.game)
        self.hexes: dict[str, Any] = tables.data.get("hexes", {})
        self.tile_defs: dict[str, Any] = tables.data.get("tiles", {})
        self.preprinted = {v: k for k, v in (self.mapping.get("preprinted") or {}).items()}
        self.copies: dict[str, str] = {}  # laid tile copy id -> hex it was last laid on
        self.out_of_ipo: set[str] = set()  # certificate ids that left the IPO (18xx view)
        self.trailing_passes: list[tuple[int | str, dict[str, Any]]] = []
        self.last_revenue: dict[str, int] = {}
        self.routes_checked = 0
        self.applied = 0

    # -- setup ------------------------------------------------------------------------

    def _players(self) -> tuple[dict[str, str], dict[str, str]]:
        """(file player key -> our name, our name -> file result key)."""
        players = self.data.get("players")
        if not isinstance(players, list) or not players:
            raise ExportError("the export has no players")
        keys: list[str] = []
        wanted: list[str] = []
        for i, p in enumerate(players):
            if not isinstance(p, dict) or ("id" not in p and "name" not in p):
                raise ExportError(f"player #{i + 1} has neither id nor name")
            key = str(p["id"]) if p.get("id") is not None else str(p["name"])
            keys.append(key)
            wanted.append(str(p.get("name") or key))
        if len(set(keys)) != len(keys):
            raise ExportError("two players have the same id")
        names: list[str] = []
        for key, name in zip(keys, wanted, strict=True):
            ok = (
                name
                and name not in ("bank", IPO, POOL)
                and not self.tables.is_corporation(name)
                and not self.tables.is_private(name)
                and name not in names
                and wanted.count(name) == 1
            )
            names.append(name if ok else f"player {key}")
        by_key = dict(zip(keys, names, strict=True))
        by_name = {str(p.get("name")): n for p, n in zip(players, names, strict=True)}
        self._player_lookup = {**by_name, **by_key}
        result = self.data.get("result")
        result = result if isinstance(result, dict) else {}
        result_keys = {}
        for key, p, n in zip(keys, players, names, strict=True):
            # old exports key the result by player name
            old = str(p.get("name"))
            result_keys[n] = old if key not in result and old in result else key
        return by_key, result_keys

    def _options(self) -> list[str]:
        rules = _settings(self.data).get("optional_rules") or []
        if not isinstance(rules, list):
            raise ExportError("settings.optional_rules is not a list")
        out: list[str] = []
        for r in rules:
            rid = r.get("id") if isinstance(r, dict) else r
            if str(rid) not in self.tables.option_ids:
                raise ExportError(
                    f"unknown optional rule {rid!r} for {self.tables.id} "
                    f"(known: {', '.join(self.tables.option_ids) or 'none'})"
                )
            out.append(str(rid))
        exact = _settings(self.data).get("eighteen_options")
        if isinstance(exact, list):  # written by our exporter: exactly these options
            for o in exact:
                if str(o) not in self.tables.option_ids:
                    raise ExportError(f"unknown option {o!r} in settings.eighteen_options")
            return [str(o) for o in exact]
        wanted = list(self.mapping.get("options", []))
        created = _created_day(self.data.get("created_at"))
        for dated in self.mapping.get("dated_options", []):
            if created is not None and created < dated["before"]:
                wanted += dated["options"]
        for o in wanted:
            if o not in self.tables.option_ids:
                raise ExportError(f"title {self.tables.id}: import_18xx names unknown option {o!r}")
            if o not in out:
                out.append(o)
        return out

    # -- the replay -------------------------------------------------------------------

    def run(self, *, check_routes: bool = True, stop_at: int | None = None) -> ImportResult:
        """Process every effective action (up to the one with id ``stop_at``); stop at the
        first divergence."""
        self.check_routes = check_routes
        kept = filter_actions(self.raw)
        if stop_at is not None:
            kept = [a for a in kept if _int(a["id"], a, "id") <= stop_at]
        divergence = None
        aid: int | str = "-"
        a: dict[str, Any] = {}
        try:
            for aid, a in _with_autos(kept):
                if self.game.is_over:
                    if a.get("type") in NO_STATE or a.get("type") == "pass":
                        continue
                    raise Divergence(aid, a, "the game is already over in our engine")
                self.step(aid, a)
                self.applied += 1
            self.flush_passes()
        except Divergence as d:
            divergence = d
        except (ExportError, TitleNotFound):
            raise
        except Exception as exc:
            # a malformed field that no check above anticipated (or an engine failure):
            # still one line naming the action; the cause stays chained for debugging
            raise ExportError(
                f"action {aid} ({a.get('type')}): cannot be processed: {type(exc).__name__}: {exc}"
            ) from exc
        expected = {}
        result = self.data.get("result")
        if isinstance(result, dict):
            for name, key in self.result_keys.items():
                if key in result:
                    expected[name] = _int(result[key], {"id": "result"}, key)
        reason = self.data.get("game_end_reason")
        return ImportResult(
            game=self.game,
            players=self.result_keys,
            expected=expected,
            expected_reason=str(reason) if reason is not None else None,
            status=self.data.get("status"),
            raw_count=len(self.raw)
            if stop_at is None
            else sum(1 for x in self.raw if _int(x["id"], x, "id") <= stop_at),
            kept_count=len(kept),
            applied=self.applied,
            routes_checked=self.routes_checked,
            divergence=divergence,
            stopped_at=stop_at,
        )

    def step(self, aid: int | str, a: dict[str, Any]) -> None:
        """Map one logged action and apply it (or the passes it implies)."""
        t = a["type"]
        if t in NO_STATE or str(t).startswith(_PROGRAM_PREFIX):
            return
        handler = _HANDLERS.get(t)
        if handler is None:
            raise ExportError(f"action {aid}: unknown action type {t!r}")
        if t != "pass":
            self.trailing_passes = []
        auction = self.game.state.round.kind == "auction"
        handler(self, aid, a)
        if auction:
            # a private sold with a share (grant_share; by a bid or by the pass that
            # settles it) takes that certificate out of the IPO: a later purchase of it
            # is from the pool (both engines grant the first certificate)
            self.out_of_ipo.update(c for c, o in self.game.state.certs.items() if o != IPO)

    # -- helpers ------------------------------------------------------------------------

    def field(self, aid: int | str, a: dict[str, Any], name: str) -> Any:
        """A required field of a logged action (ExportError naming it when missing)."""
        if name not in a or a[name] is None:
            raise ExportError(f"action {aid} ({a['type']}): missing field {name!r}")
        return a[name]

    def number(self, aid: int | str, a: dict[str, Any], name: str) -> int:
        return _int(self.field(aid, a, name), {"id": aid, "type": a["type"]}, name)

    def entity(self, aid: int | str, a: dict[str, Any]) -> tuple[str, str]:
        """(kind, our id) of the acting entity: kind is player, corporation or company."""
        e = self.field(aid, a, "entity")
        kind = a.get("entity_type")
        key = str(e)
        if kind in (None, "player") and key in self._player_lookup:
            return "player", self._player_lookup[key]
        if kind in (None, "corporation") and self.tables.is_corporation(key):
            return "corporation", key
        if kind in (None, "company") and self.tables.is_private(key):
            return "company", key
        what = {"player": "player", "corporation": "corporation", "company": "company"}.get(
            str(kind), f"entity ({kind})" if kind else "entity"
        )
        raise ExportError(f"action {aid} ({a['type']}): unknown {what} {e!r}")

    def corporation(self, aid: int | str, a: dict[str, Any], name: str = "corporation") -> str:
        c = str(self.field(aid, a, name))
        if not self.tables.is_corporation(c):
            raise ExportError(f"action {aid} ({a['type']}): unknown corporation {c!r}")
        return c

    def company(self, aid: int | str, a: dict[str, Any], name: str = "company") -> str:
        c = str(self.field(aid, a, name))
        if not self.tables.is_private(c):
            raise ExportError(f"action {aid} ({a['type']}): unknown company {c!r}")
        return c

    def train(self, aid: int | str, a: dict[str, Any], name: str = "train") -> str:
        tid = str(self.field(aid, a, name))
        ttype, _, n = tid.rpartition("-")
        if not ttype or not n.isdigit() or ttype not in self.tables.train_order:
            raise ExportError(f"action {aid} ({a['type']}): unknown train {tid!r}")
        return tid

    def certificate(self, aid: int | str, a: dict[str, Any], cert: Any) -> tuple[str, str]:
        """(corporation, certificate id) of a logged certificate id ``<corp>_<i>``."""
        corp, _, i = str(cert).rpartition("_")
        if (
            not self.tables.is_corporation(corp)
            or not i.isdigit()
            or int(i) >= len(self.tables.corporation(corp).shares)
        ):
            raise ExportError(f"action {aid} ({a['type']}): unknown certificate {cert!r}")
        return corp, str(cert)

    def owner(self, aid: int | str, a: dict[str, Any], private: str) -> str:
        owner = self.game.state.privates[private].owner
        if owner is None or self.game.state.privates[private].closed:
            raise Divergence(aid, a, f"{private} is not owned (or closed) in our engine")
        return owner

    def apply(self, aid: int | str, a: dict[str, Any], build: Callable[[], Action]) -> None:
        """Apply ``build()``; if it does not fit, pass optional operating steps of the
        acting corporation until it does (see the module doc).  Divergence otherwise."""
        g = self.game
        first: IllegalAction | MapError | RouteError | None = None
        passes = 0
        while True:
            action = build()
            try:
                g.apply(action)
                return
            except (IllegalAction, MapError, RouteError) as exc:
                first = first or exc
            if passes >= MAX_PASSES or not self.pass_step():
                for _ in range(passes):
                    g.undo()
                raise Divergence(aid, a, str(first))
            passes += 1

    def pass_step(self) -> bool:
        """Pass the acting corporation's current optional step (False when it has none)."""
        g = self.game
        acting = g.acting()
        if (
            g.state.round.kind != "operating"
            or acting is None
            or not g.tables.is_corporation(acting)
        ):
            return False
        try:
            g.apply(Pass(acting))
        except IllegalAction:
            return False
        return True

    def flush_passes(self) -> None:
        """At the end of the log, replay the corporation passes logged after the last
        other action.  In a finished game they ended the turns of their corporations (our
        engine may need more passes for them than 18xx.games logged, or fewer); in a game
        still on, each ends one step."""
        g = self.game
        finished = self.data.get("status") == "finished"
        for aid, a in self.trailing_passes:
            corp = str(a["entity"])
            for _ in range(MAX_PASSES if finished else 1):
                if g.is_over or g.acting() != corp:
                    break
                if not self.pass_step():
                    raise Divergence(aid, a, f"{corp} cannot pass now in our engine")
        self.trailing_passes = []

    # -- tiles and cities -------------------------------------------------------------

    def tile_copy(self, aid: int | str, a: dict[str, Any]) -> tuple[str, str]:
        """(tile id, copy id) of a logged laid-tile id ``<tile>-<copy>``."""
        copy = str(self.field(aid, a, "tile"))
        tile, _, n = copy.rpartition("-")
        if not tile or not n.isdigit() or tile not in self.tile_defs:
            raise ExportError(f"action {aid} ({a['type']}): unknown tile {copy!r}")
        return tile, copy

    def city(self, aid: int | str, a: dict[str, Any]) -> tuple[str, int]:
        """(hex, our city index) of a logged city id ``<tile id>-<part index>``."""
        cid = str(self.field(aid, a, "city"))
        tile_id, _, part = cid.rpartition("-")
        name, _, n = tile_id.rpartition("-")
        if not name or not n.isdigit() or not part.isdigit():
            raise ExportError(f"action {aid} ({a['type']}): unknown city {cid!r}")
        state = self.game.state.map
        if tile_id in self.preprinted or name in self.hexes:
            hex_id = self.preprinted.get(tile_id, name)
            if hex_id in state.tiles:
                raise Divergence(aid, a, f"{cid}: {hex_id} no longer shows its printed tile")
        elif name in self.tile_defs:
            hex_id = self.copies.get(tile_id, "")
            if not hex_id or state.tiles.get(hex_id, (None,))[0] != name:
                raise Divergence(aid, a, f"{cid}: tile {tile_id} is not on the map")
        else:
            raise ExportError(f"action {aid} ({a['type']}): unknown tile in city id {cid!r}")
        face = self.board.face(state, hex_id)
        if int(part) >= len(face.cities):
            raise Divergence(aid, a, f"{cid}: {hex_id} has no city {part}")
        return hex_id, int(part)


# ---------------------------------------------------------------------------------------
# one handler per action type


def _bid(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    _, player = _player(imp, aid, a)
    private = imp.company(aid, a)
    price = imp.number(aid, a, "price")
    imp.apply(aid, a, lambda: Bid(player, private, price))


def _player(imp: Importer, aid: int | str, a: dict[str, Any]) -> tuple[str, str]:
    kind, who = imp.entity(aid, a)
    if kind != "player":
        raise ExportError(f"action {aid} ({a['type']}): the entity must be a player, not {who}")
    return kind, who


def _corp_entity(imp: Importer, aid: int | str, a: dict[str, Any]) -> str:
    kind, who = imp.entity(aid, a)
    if kind != "corporation":
        raise ExportError(
            f"action {aid} ({a['type']}): the entity must be a corporation, not {who}"
        )
    return who


def _par(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    _, player = _player(imp, aid, a)
    corp = imp.corporation(aid, a)
    cell = str(imp.field(aid, a, "share_price")).split(",")
    try:
        price = int(cell[0])
    except ValueError:
        raise ExportError(f"action {aid} (par): bad share_price {a['share_price']!r}") from None
    imp.out_of_ipo.add(f"{corp}_0")
    imp.apply(aid, a, lambda: Par(player, corp, price))


def _buy_shares(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    kind, who = imp.entity(aid, a)
    shares = imp.field(aid, a, "shares")
    if not isinstance(shares, list) or not shares:
        raise ExportError(f"action {aid} (buy_shares): 'shares' is not a list of certificates")
    certs = [imp.certificate(aid, a, c) for c in shares]
    for corp, cert in certs:
        # a certificate that has left the IPO can only be bought from the pool (§4)
        source = "pool" if cert in imp.out_of_ipo else "ipo"
        imp.out_of_ipo.add(cert)
        if kind == "company":
            owner = imp.owner(aid, a, who)
            imp.apply(aid, a, partial(ExchangePrivate, owner, who, source))
        elif kind == "player":
            imp.apply(aid, a, partial(BuyShares, who, corp, source))
        else:
            raise ExportError(f"action {aid} (buy_shares): a corporation cannot buy shares")


def _sell_shares(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    _, player = _player(imp, aid, a)
    shares = imp.field(aid, a, "shares")
    if not isinstance(shares, list) or not shares:
        raise ExportError(f"action {aid} (sell_shares): 'shares' is not a list of certificates")
    certs = [imp.certificate(aid, a, c) for c in shares]
    corps = {c for c, _ in certs}
    if len(corps) != 1:
        raise ExportError(f"action {aid} (sell_shares): certificates of several corporations")
    corp = corps.pop()
    percent = imp.number(aid, a, "percent")
    imp.out_of_ipo.update(c for _, c in certs)
    imp.apply(aid, a, lambda: SellShares(player, corp, percent))


def _pass(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    kind, who = imp.entity(aid, a)
    g = imp.game
    if kind == "corporation":
        imp.trailing_passes.append((aid, a))
        return
    if kind != "player":
        return  # a company declines its ability: nothing to do
    imp.trailing_passes = []
    for _ in range(MAX_PASSES):
        acting = g.acting()
        if acting == who:
            try:
                g.apply(Pass(who))
            except IllegalAction as exc:
                raise Divergence(aid, a, str(exc)) from None
            return
        if acting is None or g.state.is_player(acting):
            return  # our engine has already passed this player (nothing to do)
        if not imp.pass_step():
            raise Divergence(aid, a, f"{acting} must act first in our engine")
    raise Divergence(aid, a, f"{g.acting()} must act first in our engine")


def _lay_tile(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    kind, who = imp.entity(aid, a)
    tile, copy = imp.tile_copy(aid, a)
    hex_id = str(imp.field(aid, a, "hex"))
    if hex_id not in imp.hexes:
        raise ExportError(f"action {aid} (lay_tile): unknown hex {hex_id!r}")
    rotation = imp.number(aid, a, "rotation")
    if kind == "company":
        owner = imp.owner(aid, a, who)
        imp.apply(aid, a, lambda: LayTile(owner, hex_id, tile, rotation, who))
    elif kind == "corporation":
        imp.apply(aid, a, lambda: LayTile(who, hex_id, tile, rotation))
    else:
        raise ExportError(f"action {aid} (lay_tile): a player cannot lay tiles")
    imp.copies[copy] = hex_id


def _place_token(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    kind, who = imp.entity(aid, a)
    if kind == "company":
        corp = str(a.get("tokener") or imp.owner(aid, a, who))
        if not imp.tables.is_corporation(corp):
            raise Divergence(aid, a, f"{who} is not owned by a corporation")
    elif kind == "corporation":
        corp = str(a.get("tokener") or who)
    else:
        raise ExportError(f"action {aid} (place_token): a player cannot place tokens")
    hex_id, city = imp.city(aid, a)
    g = imp.game
    held = [i for i, c in enumerate(g.state.map.tokens.get(hex_id, [])) if corp in c]
    home = imp.tables.corporation(corp).home
    if hex_id == home and held and city in held:
        return  # the home token our engine placed itself when the corporation first operated
    try:
        imp.apply(aid, a, lambda: PlaceToken(corp, hex_id, city))
    except Divergence as d:
        if hex_id == home and held:
            d.reason += f" (our engine put {corp}'s home token in city {held[0]})"
        raise


def _run_routes(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    corp = _corp_entity(imp, aid, a)
    routes = imp.field(aid, a, "routes")
    if not isinstance(routes, list):
        raise ExportError(f"action {aid} (run_routes): 'routes' is not a list")
    for i, rt in enumerate(routes):
        if not isinstance(rt, dict):
            raise ExportError(f"action {aid} (run_routes): route {i + 1} is not an object")
    # reach the corporation's route step (passing earlier optional steps); our engine
    # skips that step when the corporation has nothing to run
    g = imp.game
    routes_at = STEP_NAMES.index("routes")
    while True:
        r = g.state.round
        mine = r.kind == "operating" and g.acting() == corp
        if mine and STEP_NAMES.index(r.step) >= routes_at:
            break
        if not imp.pass_step():
            break
    r = g.state.round
    at_routes = r.kind == "operating" and g.acting() == corp and r.step == "routes"
    if not at_routes:
        imp.last_revenue[corp] = 0
        if not any(rt.get("revenue", 1) for rt in routes):
            return  # our engine had nothing to run either
        raise Divergence(aid, a, f"{corp} has no route to run in our engine")
    specs = [_route_spec(imp, aid, a, corp, i, rt) for i, rt in enumerate(routes)]
    imp.last_revenue[corp] = sum(s.revenue for s in specs)
    if imp.optimal_routes:
        best = network.optimal_revenue(g, corp)
        imp.route_report.append((aid, corp, imp.last_revenue[corp], best.total, bool(best.optimal)))
    imp.apply(aid, a, lambda: RunRoutes(corp, tuple(specs)))


def _route_spec(
    imp: Importer, aid: int | str, a: dict[str, Any], corp: str, i: int, rt: dict[str, Any]
) -> RouteSpec:
    g = imp.game
    train = imp.train(aid, rt | {"type": a["type"]}, "train")
    conns = rt.get("connections")
    if not isinstance(conns, list) or not all(isinstance(c, list) for c in conns):
        raise ExportError(f"action {aid} (run_routes): route {i + 1} has no connections")
    for conn in conns:
        for h in conn:
            hex_id = str(h).split(" ")[0]
            if hex_id not in imp.hexes:
                raise ExportError(f"action {aid} (run_routes): unknown hex {h!r}")
    if train not in g.state.corporations[corp].trains:
        raise Divergence(aid, a, f"{corp} does not own train {train} in our engine")
    nodes = rt.get("nodes") if isinstance(rt.get("nodes"), list) else None
    try:
        route = route_from_connections(
            imp.board,
            g.state.map,
            corp,
            train,
            trains.distance(g, train),
            [[str(h).split(" ")[0] for h in c] for c in conns],
            phases.revenue_key(g),
            nodes=[str(n) for n in nodes] if nodes else None,
        )
    except RouteError as exc:
        raise Divergence(aid, a, f"train {train}: {exc.reason}") from None
    imp.routes_checked += 1
    if "revenue" in rt:
        logged = _int(rt["revenue"], a, "revenue")
        if route.revenue != logged:
            raise Divergence(
                aid,
                a,
                f"train {train} ({'-'.join(route.hexes)}) earns ${route.revenue} in our "
                f"engine, the log says ${logged}",
            )
    return network.spec(route)


def _dividend(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    corp = _corp_entity(imp, aid, a)
    kind = str(imp.field(aid, a, "kind"))
    if kind not in ("payout", "withhold"):
        raise ExportError(f"action {aid} (dividend): unknown kind {kind!r}")
    if imp.last_revenue.get(corp, 0) == 0:
        return  # no revenue: our engine withholds (price left) by itself, as 18xx.games does
    imp.apply(aid, a, lambda: Dividend(corp, kind))


def _buy_train(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    corp = _corp_entity(imp, aid, a)
    train = imp.train(aid, a)
    price = imp.number(aid, a, "price")
    exchange = imp.train(aid, a, "exchange") if a.get("exchange") is not None else None
    variant = a.get("variant")
    if variant is not None and str(variant) != trains.train_type(train):
        raise ExportError(f"action {aid} (buy_train): unknown variant {variant!r} of {train}")
    imp.apply(aid, a, lambda: BuyTrain(corp, train, price, exchange))


def _discard_train(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    corp = _corp_entity(imp, aid, a)
    train = imp.train(aid, a)
    imp.apply(aid, a, lambda: DiscardTrain(corp, train))


def _buy_company(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    kind, _ = imp.entity(aid, a)
    if kind == "player":  # a player buys a private from another player (stock round)
        _, buyer = _player(imp, aid, a)
        private = imp.company(aid, a)
        price = imp.number(aid, a, "price")

        def trade() -> TradePrivate:  # built when applied: the acting player may change
            seller = imp.game.state.privates[private].owner or ""
            acting = imp.game.acting() or buyer
            return TradePrivate(acting, private, seller if acting == buyer else buyer, price)

        imp.apply(aid, a, trade)
        return
    corp = _corp_entity(imp, aid, a)
    private = imp.company(aid, a)
    price = imp.number(aid, a, "price")
    imp.apply(aid, a, lambda: BuyCompany(corp, private, price))


def _bankrupt(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    corp = _corp_entity(imp, aid, a)
    imp.apply(aid, a, lambda: Bankrupt(corp))


_HANDLERS: dict[str, Callable[[Importer, int | str, dict[str, Any]], None]] = {
    "bid": _bid,
    "par": _par,
    "buy_shares": _buy_shares,
    "sell_shares": _sell_shares,
    "pass": _pass,
    "lay_tile": _lay_tile,
    "place_token": _place_token,
    "run_routes": _run_routes,
    "dividend": _dividend,
    "buy_train": _buy_train,
    "discard_train": _discard_train,
    "buy_company": _buy_company,
    "bankrupt": _bankrupt,
}


# ---------------------------------------------------------------------------------------
# export


def export_game(game: Game, *, game_id: int | str = 0) -> dict[str, Any]:
    """Our game in the 18xx.games export format (players get ids 1..n in seating order).

    The game is replayed from its log to name what our actions leave implicit: the
    certificates bought or sold, tile copies, city ids and route connections.
    """
    exp = _Exporter(game)
    return exp.run(game_id)


class _Exporter:
    def __init__(self, game: Game) -> None:
        self.src = game
        self.tables = game.tables
        self.ids = {p: i for i, p in enumerate(game.players, 1)}
        mapping = self.tables.data.get("import_18xx") or {}
        self.implicit = set(mapping.get("options", [])) | {
            o for dated in mapping.get("dated_options", []) for o in dated["options"]
        }
        self.preprinted: dict[str, str] = dict(mapping.get("preprinted") or {})
        self.on_map: dict[str, str] = {}  # hex -> laid tile copy id

    def run(self, game_id: int | str) -> dict[str, Any]:
        src = self.src
        g = Game(self.tables, list(src.players), seed=src.seed, options=list(src.options))
        self.g = g
        self.board = network.board(g)
        actions = []
        for n, action in enumerate(src.log, 1):
            out = self.action(action)
            out["id"] = n
            actions.append(out)
        values = dict(views.ranking(g))
        reason = {v: k for k, v in END_REASONS.items()}.get(g.state.end_reason or "")
        doc: dict[str, Any] = {
            "id": game_id,
            "title": self.tables.id,
            "description": "",
            "user": {"id": 0, "name": "You"},
            "players": [{"id": self.ids[p], "name": p} for p in src.players],
            "min_players": self.tables.players_min,
            "max_players": self.tables.players_max,
            "settings": {
                "seed": src.seed,
                "optional_rules": [o for o in src.options if o not in self.implicit],
                # our own key: the exact options, so that a re-import plays the same game
                "eighteen_options": list(src.options),
            },
            "user_settings": None,
            "status": "finished" if g.is_over else "active",
            "turn": g.state.stock_rounds,
            "round": views.round_name(g),
            "acting": [self.ids[x] for x in [g.acting()] if x in self.ids],
            "result": {
                str(self.ids[p]): v
                for p, v in sorted(values.items(), key=lambda kv: -kv[1])  # highest first
            },
            "loaded": True,
            "actions": actions,
        }
        if g.is_over:
            doc["game_end_reason"] = reason or g.state.end_reason
        return doc

    # -- one action -------------------------------------------------------------------

    def entity(self, who: str) -> dict[str, Any]:
        if who in self.ids:
            return {"entity": self.ids[who], "entity_type": "player"}
        if self.tables.is_corporation(who):
            return {"entity": who, "entity_type": "corporation"}
        return {"entity": who, "entity_type": "company"}

    def action(self, action: Action) -> dict[str, Any]:
        g = self.g
        before = g.state
        extra: dict[str, Any] = {}
        if isinstance(action, RunRoutes):
            extra["routes"] = [self.route(r) for r in network.check(g, action.actor, action.routes)]
        elif isinstance(action, BuyTrain):
            owned = any(action.train in c.trains for c in before.corporations.values())
            if not owned:
                extra["variant"] = trains.train_type(action.train)
        g.apply(action)
        after = g.state
        a: dict[str, Any] = {"type": action.type if action.type != "exchange" else "buy_shares"}
        who = action.actor
        if isinstance(action, Bid):
            a |= {"company": action.private, "price": action.price}
        elif isinstance(action, Par):
            cell = after.corporations[action.corporation].cell or [0, 0]
            price = self.tables.cell(cell).price
            a |= {"corporation": action.corporation, "share_price": f"{price},{cell[0]},{cell[1]}"}
        elif isinstance(action, BuyShares | ExchangePrivate):
            if isinstance(action, ExchangePrivate):
                who = action.private
            # the certificate that left the IPO or the pool (a presidency swap may then
            # hand it on to the former president)
            moved = [
                c
                for c, o in after.certs.items()
                if before.certs[c] in (IPO, POOL) and o not in (IPO, POOL)
            ]
            a |= {"shares": moved, "percent": sum(cert_percent(g, c) for c in moved)}
        elif isinstance(action, SellShares):
            moved = [c for c, o in after.certs.items() if o == POOL and before.certs[c] != POOL]
            a |= {"shares": moved, "percent": action.percent}
        elif isinstance(action, LayTile):
            if action.private is not None:
                who = action.private
            copy = self.lay(action.hex, action.tile)
            a |= {"hex": action.hex, "tile": copy, "rotation": action.rotation % 6}
        elif isinstance(action, PlaceToken):
            tile_id = self.on_map.get(action.hex) or self.preprinted.get(
                action.hex, f"{action.hex}-0"
            )
            slot = after.map.city_tokens(action.hex, action.city).index(action.actor)
            a |= {"city": f"{tile_id}-{action.city}", "slot": slot}
        elif isinstance(action, RunRoutes):
            a |= extra
        elif isinstance(action, Dividend):
            a["kind"] = action.kind
        elif isinstance(action, BuyTrain):
            a |= {"train": action.train, "price": action.price} | extra
            if action.exchange:
                a["exchange"] = action.exchange
        elif isinstance(action, DiscardTrain):
            a["train"] = action.train
        elif isinstance(action, BuyCompany):
            a |= {"company": action.private, "price": action.price}
        elif isinstance(action, TradePrivate):
            # a player buying a private from another player: buy_company by the buyer
            a = {"type": "buy_company", "company": action.private, "price": action.price}
            seller = before.privates[action.private].owner
            who = action.counterparty if seller == action.actor else action.actor
        return {**a, **self.entity(who)}

    def lay(self, hex_id: str, tile: str) -> str:
        """The copy id of a laid tile: the lowest copy not on the map (upgraded-away
        copies come back to the supply)."""
        self.on_map.pop(hex_id, None)
        used = set(self.on_map.values())
        n = 0
        while f"{tile}-{n}" in used:
            n += 1
        self.on_map[hex_id] = f"{tile}-{n}"
        return f"{tile}-{n}"

    def route(self, route: Route) -> dict[str, Any]:
        hexes = route.hexes
        nodes = []
        for s in route.stops:
            face = self.board.face(self.g.state.map, s.hex)
            part = s.index + (len(face.cities) if s.kind == "town" else 0)
            nodes.append(f"{s.hex}-{part if s.kind != 'offboard' else 0}")
        return {
            "train": route.train,
            "connections": route_connections(
                [p if isinstance(p, TrackPath) else TrackPath.parse(p) for p in route.paths]
            ),
            "hexes": hexes,
            "revenue": route.revenue,
            "revenue_str": "-".join(hexes),
            "nodes": nodes,
        }
