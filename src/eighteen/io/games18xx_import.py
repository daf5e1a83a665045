"""18xx.games game exports, import: replay an export in our engine, exactly.

(See :mod:`eighteen.io.games18xx` for the whole story.)  :func:`import_game` runs an
:class:`Importer` over the effective actions of an export; each action type is mapped onto
our actions by its handler in :mod:`eighteen.io.games18xx_actions`.  The first action our
engine refuses, or whose logged revenue differs, stops the replay: a :class:`Divergence`
names it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from eighteen.compiled import CompiledHex, CompiledTile
from eighteen.engine import bank, collector, network, views
from eighteen.engine.actions import Action, Bid, BuyCompany, ExchangePrivate, IllegalAction, Pass
from eighteen.engine.face import MapError
from eighteen.engine.game import Game
from eighteen.engine.rounds import auction
from eighteen.engine.rounds.operating import STEP_INDEX, TURN
from eighteen.engine.routes import RouteError
from eighteen.engine.state import IPO, POOL
from eighteen.engine.tables import Tables, TablesUnreadable, TitleNotFound, load_title
from eighteen.io.games18xx_actions import HANDLERS
from eighteen.io.games18xx_certs import CertNames
from eighteen.io.games18xx_log import (
    END_REASONS,
    MAX_PASSES,
    NO_STATE,
    PROGRAM_PREFIX,
    Divergence,
    ExportError,
    action_list,
    filter_actions,
    int_field,
    with_autos,
)
from eighteen.title.model import Import18xx
from eighteen.title.save import MAX_NAME, SEED_RANGE


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
    #: why the file's result cannot be compared in full (None: it can): not an object,
    #: keyed by no player of the game, or missing from a finished game's export
    result_problem: str | None = None
    #: certificates the file names where 18xx.games would not hold them (a sale of
    #: another's, a purchase of one neither in the IPO nor in the market): ``action ID
    #: (TYPE): ...``; the replay goes on by the percents, so they change no result
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
        if self.result_problem is not None:
            out.append(self.result_problem)
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
    The replay runs at the collector's bulk pace (:func:`eighteen.engine.collector.bulk`).
    """
    with collector.bulk():
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


def _changes_state(a: dict[str, Any]) -> bool:
    """Is a logged action one that changes the game (not chat, not a programmed setting)?"""
    t = a.get("type")
    return t not in NO_STATE and not str(t).startswith(PROGRAM_PREFIX)


#: Actions taken at any time of a turn, which fit wherever they come (Importer._after_passes).
ANYTIME = (BuyCompany, ExchangePrivate)


def _export_day(data: dict[str, Any]) -> str | None:
    """The day the game was created: the export's ``created_at``, or, where an older
    export lacks it, its first action's (each action carries its own)."""
    day = _created_day(data.get("created_at"))
    actions = data.get("actions")
    if day is None and isinstance(actions, list):
        for a in actions:
            day = _created_day(a.get("created_at")) if isinstance(a, dict) else None
            if day is not None:
                break
    return day


def _settings(data: dict[str, Any]) -> dict[str, Any]:
    s = data.get("settings")
    return s if isinstance(s, dict) else {}


def export_tables(data: dict[str, Any]) -> Tables:
    """The compiled tables of the title an export names; :class:`ExportError` when it names
    none or one with no compiled tables."""
    title = data.get("title")
    if not isinstance(title, str | int) or not str(title).strip():
        raise ExportError("the export names no title ('title')")
    try:
        return load_title(str(title).strip())  # (looked up as 18xx.games does: spaces too)
    except TablesUnreadable as exc:
        raise ExportError(str(exc)) from None
    except TitleNotFound:
        raise ExportError(f"unknown title {title!r}: no compiled tables") from None


class Importer:
    """Maps one export onto a new game of ours, action by action."""

    def __init__(self, data: dict[str, Any], tables: Tables | None = None) -> None:
        self.data = data
        self.tables = tables = export_tables(data) if tables is None else tables
        self.optimal_routes = False
        self.route_report: list[tuple[int | str, str, int, int, bool]] = []
        self.mapping: Import18xx = tables.doc.import_18xx or Import18xx()
        self.raw = action_list(data)
        self.names, self.result_keys = self._players()
        options = self._options()
        settings = _settings(data)
        seed = settings.get("seed", 0)
        try:
            seed = int(seed)
        except (TypeError, ValueError):
            seed = 0
        if not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
            seed = 0  # (a save holds a seed of 64 bits)
        try:
            self.game = Game(tables, list(self.names.values()), seed=seed, options=options)
        except ValueError as exc:
            raise ExportError(str(exc)) from None
        self.board = network.board(self.game)
        self.hexes: Mapping[str, CompiledHex] = tables.doc.hexes
        self.hex_ids = frozenset(self.hexes)
        self.tile_defs: Mapping[str, CompiledTile] = tables.doc.tiles
        self.preprinted = {v: k for k, v in self.mapping.preprinted.items()}
        self.copies: dict[str, str] = {}  # laid tile copy id -> hex it was last laid on
        self.out_of_ipo: set[str] = set()  # certificate ids that left the IPO (18xx view)
        #: who holds which certificate as 18xx.games names them: the file's names are
        #: checked against it (notes; the replay goes on by the percents)
        self.certs = CertNames(self.game)
        self.notes: list[str] = []
        self.trailing_passes: list[tuple[int | str, dict[str, Any]]] = []
        #: the corporation passes logged right before the action being applied
        self.pending_passes: list[tuple[int | str, dict[str, Any]]] = []
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
                and len(name) <= MAX_NAME
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
        wanted = list(self.mapping.options)
        created = _export_day(self.data)
        for dated in self.mapping.dated_options:
            if created is not None and created < dated.before:
                wanted += dated.options
        for o in wanted:
            if o not in self.tables.option_ids:
                raise ExportError(f"title {self.tables.id}: import_18xx names unknown option {o!r}")
        # the title's readings first, the export's optional rules after them: an optional
        # rule of 18xx.games overrides a reading of its defaults (options apply in order)
        return [o for o in dict.fromkeys(wanted) if o not in out] + out

    # -- the replay -------------------------------------------------------------------

    def run(self, *, check_routes: bool = True, stop_at: int | None = None) -> ImportResult:
        """Process every effective action (up to the one with id ``stop_at``); stop at the
        first divergence."""
        self.check_routes = check_routes
        kept = filter_actions(self.raw)
        after: list[dict[str, Any]] = []  # (the kept actions past a cut)
        ids: list[int] = []  # (every raw action's id, read once, with a cut)
        if stop_at is not None:
            ids = [int_field(a["id"], a, "id") for a in self.raw]
            if stop_at not in ids:
                raise ExportError(
                    f"--at {stop_at}: the export has no action {stop_at} "
                    f"(its ids run from {min(ids, default=0)} to {max(ids, default=0)})"
                )
            after = [a for a in kept if int_field(a["id"], a, "id") > stop_at]
            kept = [a for a in kept if int_field(a["id"], a, "id") <= stop_at]
        divergence = None
        aid: int | str = "-"
        a: dict[str, Any] = {}
        try:
            for aid, a in with_autos(kept):
                if self.game.is_over:
                    t = a.get("type")
                    if t in NO_STATE or t == "pass" or str(t).startswith(PROGRAM_PREFIX):
                        continue  # (no state, or a pass our engine has no step for now)
                    raise Divergence(aid, a, "the game is already over in our engine")
                self.step(aid, a)
                self.applied += 1
            nxt = next((x for _, x in with_autos(after) if _changes_state(x)), None)
            if nxt is not None and not self.game.is_over:
                self.settle_cut(nxt)
            else:
                self.flush_passes()
                if self.game.state.round.kind == "auction" and not self.game.is_over:
                    self.forced_take("-", {})
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
        result_problem = None
        if isinstance(result, dict):
            for name, key in self.result_keys.items():
                if key in result:
                    expected[name] = int_field(result[key], None, f"player {key}'s value", "result")
            unknown = sorted(set(map(str, result)) - set(self.result_keys.values()))
            if unknown:
                result_problem = (
                    f"the file's result names no player of the game: {', '.join(unknown)}"
                )
        elif result is not None:
            result_problem = "the file's result is not an object of each player's value"
        if result_problem is None and not expected and self.data.get("status") == "finished":
            result_problem = "the file records no result of its finished game to compare"
        reason = self.data.get("game_end_reason")
        return ImportResult(
            game=self.game,
            players=self.result_keys,
            expected=expected,
            expected_reason=str(reason) if reason is not None else None,
            status=self.data.get("status"),
            raw_count=len(self.raw) if stop_at is None else sum(i <= stop_at for i in ids),
            kept_count=len(kept),
            applied=self.applied,
            routes_checked=self.routes_checked,
            divergence=divergence,
            stopped_at=stop_at,
            result_problem=result_problem,
            notes=self.notes,
        )

    def step(self, aid: int | str, a: dict[str, Any]) -> None:
        """Map one logged action and apply it (or the passes it implies)."""
        t = a["type"]
        if not _changes_state(a):
            return
        handler = HANDLERS.get(t)
        if handler is None:
            raise ExportError(f"action {aid}: unknown action type {t!r}")
        if t != "pass":
            self.pending_passes = self.trailing_passes
            self.trailing_passes = []
        in_auction = self.game.state.round.kind == "auction"
        if in_auction:
            self.forced_take(aid, a)
        handler(self, aid, a)
        if in_auction:
            # a private sold with a share (grant_share; by a bid or by the pass that
            # settles it) takes that certificate out of the IPO: a later purchase of it
            # is from the pool (both engines grant the first certificate)
            self.out_of_ipo.update(c for c, o in self.game.state.certs.items() if o != IPO)
        self.sync_certs()

    def sync_certs(self) -> None:
        """The view of the certificates made to hold what the game holds: a private's
        share granted, a corporation closed, a takeover, ... move the first certificates;
        one that leaves the IPO so is bought from the market after."""
        for cert, src, dst in self.certs.sync(self.game.state.certs):
            if src == IPO:
                self.out_of_ipo.add(cert)
            elif dst == IPO:
                self.out_of_ipo.discard(cert)

    def forced_take(self, aid: int | str, a: dict[str, Any]) -> None:
        """The first private has dropped to $0 after everyone passed: 18xx.games gives it
        to the player due to take it without logging an action, where our engine waits
        for that player's bid.  The bid is made here, before the next logged action,
        unless that action is this very bid (as our own exports log it)."""
        g = self.game
        who = g.acting()
        left = auction.unsold(g)
        if not left or who is None or not auction.must_take(g, who):
            return
        first = left[0]
        if auction.cheapest_price(g) != 0:
            return
        if a.get("type") == "bid" and a.get("company") == first and self.entity(aid, a)[1] == who:
            return
        try:
            g.apply(Bid(who, first, 0))
        except IllegalAction as exc:
            raise Divergence(aid, a, f"{who} takes {first} for $0: {exc}") from None

    # -- helpers ------------------------------------------------------------------------

    def field(self, aid: int | str, a: dict[str, Any], name: str) -> Any:
        """A required field of a logged action (ExportError naming it when missing)."""
        if name not in a or a[name] is None:
            raise ExportError(f"action {aid} ({a['type']}): missing field {name!r}")
        return a[name]

    def number(self, aid: int | str, a: dict[str, Any], name: str) -> int:
        return int_field(self.field(aid, a, name), {"id": aid, "type": a["type"]}, name)

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
        if not ttype or not n.isdigit() or not self.tables.is_train_type(ttype):
            raise ExportError(f"action {aid} ({a['type']}): unknown train {tid!r}")
        return tid

    def certificate(self, aid: int | str, a: dict[str, Any], cert: Any) -> tuple[str, str]:
        """(corporation, certificate id) of a logged certificate id ``<corp>_<i>``."""
        corp = self.certs.corp_of.get(str(cert))
        if corp is None:
            raise ExportError(f"action {aid} ({a['type']}): unknown certificate {cert!r}")
        return corp, str(cert)

    def check_buyable(self, aid: int | str, a: dict[str, Any], cert: str) -> None:
        """Note a purchase of a certificate 18xx.games would hold neither in the IPO nor
        in the market."""
        holder = self.certs.owner[cert]
        if holder not in (IPO, POOL):
            self.note(
                aid, a, f"{cert} is {self.certs.where(cert)}, in neither the IPO nor the market"
            )

    def note(self, aid: int | str, a: dict[str, Any], text: str) -> None:
        """A name of the file that 18xx.games would not take (the replay goes on: our
        engine moves certificates by percent)."""
        self.notes.append(f"action {aid} ({a.get('type')}): {text}")

    def owner(self, aid: int | str, a: dict[str, Any], private: str) -> str:
        owner = self.game.state.privates[private].owner
        if owner is None or self.game.state.privates[private].closed:
            raise Divergence(aid, a, f"{private} is not owned (or closed) in our engine")
        return owner

    def apply(self, aid: int | str, a: dict[str, Any], build: Callable[[], Action]) -> None:
        """Apply ``build()``; if it does not fit, pass optional operating steps of the
        acting corporation until it does (see the module doc).  Divergence otherwise.

        A corporation's action while another corporation acts in an operating round
        cannot fit (no step takes a corporation's action outside its own turn, a
        discard of trains being served as that corporation's): the acting corporation's
        optional steps are passed before the action is tried, not after it is refused
        (a refusal asks every step of the round what it expects, for its message).  Were
        the action refused in the end, the passes are undone and it is tried where it came,
        for the reason it is refused there (as it was tried first before)."""
        g = self.game
        first: str | None = None  # the first refusal's reason (not the exception: its
        # traceback would hold this frame, a reference cycle per refusal)
        passes = 0
        logged = self.pending_passes  # (kept: _pass_grouped uses them up)
        limit = MAX_PASSES + len(logged)  # (the passes logged may all be due)
        action = build()
        if isinstance(action, ANYTIME) and self._after_passes(build):
            return
        while passes < limit:
            if self._other_corporation_acts(action):
                if not self.pass_step():
                    break
            elif not self.pass_offer(action.actor, logged):
                break
            passes += 1
        passes += self._pass_grouped(action)
        ahead = passes  # (passed before a refusal: its reason is not known yet)
        if ahead:
            action = build()  # (made for the position it is tried in)
        while True:
            try:
                g.apply(action)
                return
            except (IllegalAction, MapError, RouteError) as exc:
                if first is None:
                    first = str(exc)
            if passes >= limit or not (self.pass_step() or self.pass_offer(action.actor, logged)):
                for _ in range(passes):
                    g.undo()
                if ahead:  # tried where it came, as if no pass had been made first
                    try:
                        g.apply(build())
                        return
                    except (IllegalAction, MapError, RouteError) as exc:
                        first = str(exc)
                raise Divergence(aid, a, str(first))
            passes += 1
            action = build()

    def _after_passes(self, build: Callable[[], Action]) -> bool:
        """An action taken at any time of a turn (a private bought or exchanged) fits
        before the corporation passes logged ahead of it too, but comes after those that
        ended the operating round: the next round's private revenue goes to whoever owned
        the private then.  Where the last corporation of the round logged passes that end
        the round in our engine, they are made first and the action is applied in the next
        round (True).  Passes within a round stay held (they may be passes of steps our
        engine skips, some 1,200 of the corpus's 8,900 corporation passes): the action goes
        where it stands (False)."""
        g = self.game
        r = g.state.round
        corp = g.acting()
        if r.kind != "operating" or corp is None or r.index != len(r.order) - 1:
            return False
        if r.order[r.index] != corp:
            return False
        due = self.passes_logged(corp)
        if not due:
            return False
        trial = g.clone()  # (tried on a copy: taking passes back replays from a snapshot)
        last = trial.state.round
        made = 0
        while made < due and trial.state.round is last:
            try:
                trial.apply(Pass(corp))
            except IllegalAction:
                break
            made += 1
        if trial.state.round is last:
            return False  # its turn, and the round, go on
        try:
            trial.apply(build())
        except (IllegalAction, MapError, RouteError):
            return False
        for _ in range(made):
            g.apply(Pass(corp))
        g.apply(build())
        return True

    def passes_logged(self, entity: str) -> int:
        """How many passes ``entity`` logged right before the action being applied."""
        return sum(1 for _, a in self.pending_passes if str(a.get("entity")) == entity)

    def _pass_grouped(self, action: Action) -> int:
        """Where a turn's steps come in any order (rules.turn_any_order), an action of a
        later step of a group is taken in an earlier one too; the passes the acting
        corporation logged right before it say which steps ended first.  For an action of
        a grouped step, pass as many steps as were logged, up to the action's own step;
        returns how many."""
        g = self.game
        groups = g.rules.turn_any_order
        if not groups or not self.pending_passes:
            return 0
        actor = action.actor
        logged = self.passes_logged(actor)
        self.pending_passes = []  # (used once: a second action of the same entry finds none)
        passes = 0
        while passes < logged:
            r = g.state.round
            if r.kind != "operating" or g.acting() != actor:
                break
            own = next(
                (s.name for s in TURN[STEP_INDEX[r.step] :] if isinstance(action, s.actions)),
                None,
            )
            if own is None or own == r.step:
                break
            if not any(own in group for group in groups):
                break  # (taken only at its own step, or at any time: the passes wait)
            if not self.pass_step():
                break
            passes += 1
        return passes

    def _other_corporation_acts(self, action: Action) -> bool:
        """Is ``action`` a corporation's, in an operating round where another corporation
        is to act?"""
        g = self.game
        r = g.state.round
        if r.kind != "operating":
            return False
        actor = action.actor
        if r.index < len(r.order) and r.order[r.index] == actor:
            return False  # the operating corporation's (the usual case: asked at once)
        acting = g.acting()
        return (
            acting is not None
            and actor != acting
            and g.tables.is_corporation(actor)
            and g.tables.is_corporation(acting)
        )

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

    def pass_offer(self, actor: str, logged: list[tuple[int | str, dict[str, Any]]]) -> bool:
        """In a round of corporations' offers (not of operating steps, e.g. a takeover
        round), the corporation to act before ``actor`` passes if a pass of its own is among
        ``logged`` (held back while the operating round before was being passed); that
        logged pass is used up.  False when there is none to make."""
        if not logged:
            return False  # (the usual case: asked before each action)
        g = self.game
        acting = g.acting()
        if (
            g.state.round.kind == "operating"
            or acting is None
            or acting == actor
            or not g.tables.is_corporation(acting)
        ):
            return False
        i = next((i for i, (_, a) in enumerate(logged) if str(a.get("entity")) == acting), None)
        if i is None:
            return False
        try:
            g.apply(Pass(acting))
        except IllegalAction:
            return False
        del logged[i]
        return True

    def answer(self, aid: int | str, a: dict[str, Any], corp: str) -> None:
        """A corporation's pass in a round of offers (not of operating steps, e.g. a
        takeover round) is its answer there, made where it stands."""
        try:
            self.game.apply(Pass(corp))
        except IllegalAction as exc:
            raise Divergence(aid, a, str(exc)) from None

    def settle_cut(self, nxt: dict[str, Any]) -> None:
        """A log cut before its end (``stop_at``): what 18xx.games did up to the cut that our
        engine has not done yet is what the next kept action needs first: the free private
        handed over, the corporation passes held back.  That action is tried and taken
        back with what it did itself; the passes it needed first stay (where it fits with
        none, those held back were for steps our engine skips).  Where it does not fit, fits
        at any step (a private bought or exchanged), or is a corporation's or a company's
        pass itself (a company's is the corporation's pass of a step of ours), the
        passes held back are made as at the log's end:
        a corporation whose turn the next action shows over passes to its turn's end, the
        others one step a pass."""
        g = self.game
        if g.state.round.kind == "auction":
            self.forced_take(nxt.get("id", "-"), nxt)
        start, checked, reported = len(g.log), self.routes_checked, len(self.route_report)
        held = list(self.trailing_passes)
        certs, out_of_ipo, notes = self.certs.copy(), set(self.out_of_ipo), len(self.notes)
        kind = None
        with contextlib.suppress(ExportError):
            kind = self.entity(nxt.get("id", "-"), nxt)[0]
        fits = False
        if not (nxt.get("type") == "pass" and kind in ("corporation", "company")):
            with contextlib.suppress(Divergence, ExportError, IllegalAction, MapError, RouteError):
                self.step(nxt.get("id", "-"), nxt)
                fits = True
        keep = start
        while keep < len(g.log):
            done = g.log[keep]
            if not (isinstance(done, Pass) and g.tables.is_corporation(done.actor)):
                break
            keep += 1
        anywhere = keep < len(g.log) and isinstance(g.log[keep], ANYTIME)
        while len(g.log) > keep:
            g.undo()
        self.routes_checked = checked
        del self.route_report[reported:]
        self.certs, self.out_of_ipo = certs, out_of_ipo  # (the tried action taken back)
        del self.notes[notes:]
        self.sync_certs()  # (with the passes kept)
        if len(g.log) > start or (fits and not anywhere):
            self.trailing_passes = []  # (made, or passes of steps our engine skips)
            return
        self.trailing_passes = held
        self.flush_passes(ended=lambda corp: str(nxt.get("entity")) != corp)

    def flush_passes(self, ended: Callable[[str], bool] | None = None) -> None:
        """At the end of the log, replay the corporation passes logged after the last
        other action.  In a finished game they ended the turns of their corporations (our
        engine may need more passes for them than 18xx.games logged, or fewer); in a game
        still on, each ends one step, or none where our engine has no step to pass (a
        step it skips: nothing after the log says more).  ``ended``: whose turns they
        ended, at a cut."""
        g = self.game
        finished = self.data.get("status") == "finished"
        for aid, a in self.trailing_passes:
            corp = str(a["entity"])
            whole = ended(corp) if ended is not None else finished
            for _ in range(MAX_PASSES if whole else 1):
                if g.is_over or g.acting() != corp:
                    break
                if g.state.round.kind != "operating":
                    self.answer(aid, a, corp)
                    break
                if not self.pass_step():
                    if whole or ended is not None:
                        raise Divergence(aid, a, f"{corp} cannot pass now in our engine")
                    # (a game still on, its log cut after this pass: it passed a step our
                    # engine skips, and no later action says more: ours waits where
                    # 18xx.games' did)
                    break
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
