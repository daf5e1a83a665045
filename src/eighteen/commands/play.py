"""`eighteen play` and `eighteen replay`: bot games to the end, saves, final rankings."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn
from rich.table import Table

from eighteen.commands.output import (
    USAGE,
    OutputError,
    check_file_target,
    emit_json,
    fail,
    printable,
    warn,
    write_atomic,
)
from eighteen.commands.stale import played_tables
from eighteen.engine import views
from eighteen.engine.actions import IllegalAction
from eighteen.engine.bots import play
from eighteen.engine.game import Game
from eighteen.engine.tables import TablesUnreadable, TitleNotFound, load_title
from eighteen.io.jsonlimits import JSONLimitError, load_json
from eighteen.sim.botspec import BotSpecError, bots_error, parse_bots, seat_bots, seated_bots
from eighteen.title.save import SaveFormatError, check_save
from eighteen.title.versions import SaveTitleMismatch, check_save_title

#: Event words worth a line in the short per-round log.
NOTABLE = ("floats", "phase", "rust", "closes", "bankrupt", "the game ends", "president of")


def _err(msg: str, command: str = "") -> int:
    return fail(command, msg)


def print_ranking(game: Game, out: TextIO | None = None) -> None:
    """The final (or current) ranking as a table: place, player, value (cash, shares and
    privates as the title counts them) and cash (default: standard output, looked up at
    call time so a replaced sys.stdout is honoured)."""
    out = out if out is not None else sys.stdout
    reason = (
        game.state.end_reason
        if game.is_over
        else "stuck: no one can act any more"
        if game.stuck
        else "not over"
    )
    con = Console(file=out, highlight=False, emoji=False, markup=False)
    if not con.is_terminal:
        con.width = 200  # a pipe or file: never wrap a long player name
    con.print(f"result ({printable(reason or '')}):")
    table = Table(box=None, pad_edge=False, header_style="bold")
    table.add_column("place", justify="right")
    table.add_column("player")
    table.add_column("value", justify="right")
    table.add_column("cash", justify="right")
    cash = {p.name: p.cash for p in game.state.players}
    for place, (name, value) in enumerate(views.ranking(game), 1):
        table.add_row(f"{place}.", printable(name), f"${value:,}", f"${cash[name]:,}")
    con.print(table)


def ranking_json(game: Game) -> dict[str, Any]:
    """The game and its ranking as a JSON report (``--format json`` of play and replay)."""
    return {
        "title": game.tables.id,
        "version": game.tables.version,
        "players": list(game.players),
        "seed": game.seed,
        "options": list(game.options),
        "actions": len(game.log),
        "over": game.is_over,
        "stuck": game.stuck,
        "end_reason": game.state.end_reason if game.is_over else None,
        "ranking": [
            {"place": place, "player": name, "value": value}
            for place, (name, value) in enumerate(views.ranking(game), 1)
        ],
    }


def _stdout_gone() -> None:
    """The reader of stdout has gone: what is printed from now on goes nowhere (the game
    and its save go on; exit code 0, as for any command whose reader left)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


class RoundLog:
    """Prints one summary line per finished round plus notable events.

    Lines go to ``out``, or through ``emit`` when given (the progress display's console,
    which prints them above the progress line so that neither garbles the other).
    """

    def __init__(
        self,
        game: Game,
        out: TextIO,
        quiet: bool,
        emit: Callable[[str], None] | None = None,
    ) -> None:
        self.game = game
        self.out = out
        self.quiet = quiet
        self.emit = emit or (lambda line: print(printable(line), file=self.out))
        self.round = views.round_name(game)
        self.actions = 0
        self.seen_events = len(game.events)

    def step(self) -> None:
        self.actions += 1
        now = views.round_name(self.game)
        if now != self.round or self.game.is_over:
            self.flush()
            self.round = now

    def flush(self) -> None:
        events = self.game.events[self.seen_events :]
        self.seen_events = len(self.game.events)
        if self.quiet:
            return
        self.emit(f"{self.round}: {self.actions} actions")
        for _, msg in events:
            if any(w in msg for w in NOTABLE):
                self.emit(f"    {msg}")
        self.actions = 0


def write_save(game: Game, path: str) -> None:
    """Write the save atomically, with normal file permissions (see ``write_atomic``)."""
    write_atomic(path, json.dumps(game.to_json(), indent=1) + "\n")


def _check_options(tables: Any, options: list[str]) -> str | None:
    """The message for an unknown option, listing the title's options, else None."""
    unknown = [o for o in options if o not in tables.option_ids]
    if not unknown:
        return None
    known = "; ".join(f"{o.id} ({o.description.rstrip('.')})" for o in tables.doc.options)
    return f"{tables.id} has no option {unknown[0]!r}; its options: {known or 'none'}"


def cmd_play(args: argparse.Namespace, progress_console: Console | None = None) -> int:
    """Play a whole game with bots and print a short log and the ranking.

    The progress line is shown only when both standard output and standard error are a
    terminal (or on ``progress_console``, for tests); log lines are printed through it.
    """
    fmt = getattr(args, "format", "text")
    if args.save is not None:
        try:
            check_file_target(args.save)  # before the game, not after it
        except OutputError as exc:
            return _err(f"cannot write the save: {exc}", "play")
    try:
        tables, stale = played_tables(args.title)  # (a folder plays its compiled tables)
    except TitleNotFound as exc:
        return _err(str(exc), "play")
    if stale:
        warn("play", stale)
    if isinstance(args.players, list):
        players = list(args.players)
    else:
        players = [f"Player{i + 1}" for i in range(args.players)]
    bad_option = _check_options(tables, list(args.options))
    if bad_option:
        return _err(bad_option, "play")
    try:
        game = Game.new(tables, players=players, seed=args.seed, options=args.options)
    except ValueError as exc:
        return _err(str(exc), "play")
    try:
        seats = seat_bots(parse_bots(args.bots), len(players))
    except BotSpecError as exc:
        return fail("play", bots_error(exc), USAGE)
    bots = seated_bots(seats, players, args.seed)
    labels = sorted({spec.label for spec in seats})
    who = f"{labels[0]} bots" if len(labels) == 1 else "bots " + ",".join(s.label for s in seats)
    quiet = args.quiet or fmt == "json"
    if progress_console is None and not quiet and sys.stdout.isatty() and sys.stderr.isatty():
        progress_console = Console(file=sys.stderr)
    progress = _Progress(progress_console if not quiet else None)
    log = RoundLog(game, sys.stdout, quiet, emit=progress.emit)
    try:
        with progress:
            if fmt == "text":
                progress.emit(f"{tables.name}: {len(players)} {who}, seed {args.seed}")
            for _ in play(game, bots):
                try:
                    log.step()
                except BrokenPipeError:  # the reader left (`| head`): play on, and save
                    _stdout_gone()
                    log.quiet = True
                progress.tick(game)
    except RuntimeError as exc:
        if not game.stuck:
            return _err(str(exc), "play")
        # no rule of the title ends a game no one can act in: report and save it as it is
        warn("play", f"{exc}; the ranking is where the game stands")
    if args.save:
        try:
            write_save(game, args.save)
        except OSError as exc:
            return _err(f"cannot write {args.save}: {exc.strerror or exc}", "play")
    if fmt == "json":
        emit_json({**ranking_json(game), "save": args.save})
        return 0
    print_ranking(game)
    if args.save:
        print(f"saved {len(game.log)} actions to {args.save}", file=sys.stderr)
    return 0


class _Progress:
    """A transient progress line (actions so far, the round) on a terminal console.

    Without a console it does nothing and ``emit`` prints to standard output.
    """

    EVERY = 25

    def __init__(self, console: Console | None) -> None:
        self.console = console
        self.n = 0
        self.bar: Progress | None = None
        self.task: Any = None

    def __enter__(self) -> _Progress:
        if self.console is not None:
            self.bar = Progress(
                SpinnerColumn(),
                TextColumn("{task.completed} actions · {task.description}"),
                console=self.console,
                transient=True,
                auto_refresh=False,
            )
            self.bar.start()
            self.task = self.bar.add_task("", total=None)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None

    def emit(self, line: str) -> None:
        """Print a log line: above the progress line when it is shown."""
        line = printable(line)
        if self.bar is not None:
            self.bar.console.print(line, markup=False, highlight=False, soft_wrap=True)
        else:
            print(line, file=sys.stdout)

    def tick(self, game: Game) -> None:
        self.n += 1
        if self.bar is not None and self.n % self.EVERY == 0:
            self.bar.update(
                self.task, completed=self.n, description=views.round_name(game), refresh=True
            )


def load_save(path: str) -> dict[str, Any]:
    """Read a save file and check its shape (``schema/save.schema.json``): format version,
    field types, sizes and nesting. ValueError with a one-line message naming the file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read {path}: {exc}") from None
    try:
        data = load_json(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
    except JSONLimitError as exc:
        raise ValueError(f"{path}: cannot read the save: {exc}") from None
    if not isinstance(data, dict) or not {"title", "players", "actions"} <= set(data):
        raise ValueError(f"{path}: not a save (needs title, players and actions)")
    try:
        check_save(data)
    except SaveFormatError as exc:
        raise ValueError(f"{path}: {exc}") from None
    return data


class SaveError(ValueError):
    """A save that cannot be opened: unreadable, not a save, other tables, illegal action."""


def open_save(
    path: str, *, force: bool = False, at: int | None = None, command: str = "replay"
) -> Game:
    """Read a save, check its title tables (warn with ``force``), and replay it (only its
    first ``at`` actions when given).

    Raises SaveError with a one-line message naming the file.
    """
    try:
        data = load_save(path)
        tables = load_title(str(data["title"]))
        for warning in check_save_title(data, tables, force):
            warn(command, warning)
        if at is not None:
            actions = list(data["actions"])
            if at > len(actions):
                raise ValueError(f"--at {at} is past the end: the save has {len(actions)} actions")
            data = {**data, "actions": actions[:at]}
        return Game.from_json(data, tables=tables)
    except (
        ValueError,
        TitleNotFound,
        IllegalAction,
        SaveTitleMismatch,
        KeyError,
        TypeError,
    ) as exc:
        message = str(exc)
        if isinstance(exc, TablesUnreadable) or message.startswith(path):
            raise SaveError(message) from None  # (the tables name their own file)
        raise SaveError(f"{path}: {message}") from None


def cmd_replay(path: str, *, force: bool = False, at: int | None = None, fmt: str = "text") -> int:
    """Replay a save (to ``at`` actions) and print the same ranking `play` printed."""
    try:
        game = open_save(path, force=force, at=at)
    except SaveError as exc:
        return _err(str(exc), "replay")
    if fmt == "json":
        emit_json(ranking_json(game))
    else:
        print_ranking(game)
    return 0
