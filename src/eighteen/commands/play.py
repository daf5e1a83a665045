"""`eighteen play` and `eighteen replay`: bot games to the end, saves, final rankings."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, TextIO

from eighteen.engine import views
from eighteen.engine.actions import IllegalAction
from eighteen.engine.bots import make_bots, play
from eighteen.engine.game import Game
from eighteen.engine.tables import TitleNotFound, load_title
from eighteen.title.versions import SaveTitleMismatch, check_save_title

#: Event words worth a line in the short per-round log.
NOTABLE = ("floats", "phase", "rust", "closes", "bankrupt", "the game ends", "president of")


def _err(msg: str) -> int:
    print(f"eighteen: {msg}", file=sys.stderr)
    return 1


def print_ranking(game: Game, out: TextIO | None = None) -> None:
    """The final (or current) ranking: place, player, value (default: standard output,
    looked up at call time so a replaced sys.stdout is honoured)."""
    out = out if out is not None else sys.stdout
    reason = game.state.end_reason if game.is_over else "not over"
    print(f"result ({reason}):", file=out)
    for place, (name, value) in enumerate(views.ranking(game), 1):
        print(f"  {place}. {name:<12} ${value:,}", file=out)


class RoundLog:
    """Prints one summary line per finished round plus notable events."""

    def __init__(self, game: Game, out: TextIO, quiet: bool) -> None:
        self.game = game
        self.out = out
        self.quiet = quiet
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
        print(f"{self.round}: {self.actions} actions", file=self.out)
        for _, msg in events:
            if any(w in msg for w in NOTABLE):
                print(f"    {msg}", file=self.out)
        self.actions = 0


def write_save(game: Game, path: str) -> None:
    """Write the save atomically: a crash never leaves a half-written file."""
    target = Path(path)
    data = json.dumps(game.to_json(), indent=1) + "\n"
    fd, tmp = tempfile.mkstemp(dir=target.parent if str(target.parent) else ".", suffix=".tmp")
    with os.fdopen(fd, "w") as f:
        f.write(data)
    os.replace(tmp, target)


def cmd_play(args: argparse.Namespace) -> int:
    """Play a whole game with bots and print a short log and the ranking."""
    try:
        tables = load_title(args.title)
    except TitleNotFound as exc:
        return _err(str(exc))
    players = [f"Player{i + 1}" for i in range(args.players)]
    try:
        game = Game.new(tables, players=players, seed=args.seed, options=args.options)
    except ValueError as exc:
        return _err(str(exc))
    bots = make_bots(args.bots, players, args.seed)
    log = RoundLog(game, sys.stdout, args.quiet)
    print(
        f"{tables.name}: {args.players} {args.bots} bots, seed {args.seed}",
        file=sys.stdout,
    )
    progress = _Progress(enabled=not args.quiet and sys.stderr.isatty())
    try:
        for _ in play(game, bots):
            log.step()
            progress.tick(game)
    except RuntimeError as exc:
        return _err(str(exc))
    finally:
        progress.done()
    print_ranking(game)
    if args.save:
        try:
            write_save(game, args.save)
        except OSError as exc:
            return _err(f"cannot write {args.save}: {exc}")
        print(f"saved {len(game.log)} actions to {args.save}", file=sys.stderr)
    return 0


class _Progress:
    """A one-line progress indicator on a terminal (rounds and actions so far)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.n = 0

    def tick(self, game: Game) -> None:
        self.n += 1
        if self.enabled and self.n % 50 == 0:
            print(f"\r{self.n} actions · {views.round_name(game)}   ", end="", file=sys.stderr)

    def done(self) -> None:
        if self.enabled:
            print("\r" + " " * 70 + "\r", end="", file=sys.stderr)


def load_save(path: str) -> dict[str, Any]:
    """Read a save file; ValueError with a clear message when it is not one."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read {path}: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
    if not isinstance(data, dict) or not {"title", "players", "actions"} <= set(data):
        raise ValueError(f"{path}: not a save (needs title, players and actions)")
    return data


class SaveError(ValueError):
    """A save that cannot be opened: unreadable, not a save, other tables, illegal action."""


def open_save(path: str, *, force: bool = False) -> Game:
    """Read a save, check its title tables (warn with ``force``), and replay it.

    Raises SaveError with a one-line message naming the file.
    """
    try:
        data = load_save(path)
        tables = load_title(str(data["title"]))
        for warning in check_save_title(data, tables.data, force):
            print(f"eighteen: warning: {warning}", file=sys.stderr)
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
        raise SaveError(message if message.startswith(path) else f"{path}: {message}") from None


def cmd_replay(path: str, *, force: bool = False) -> int:
    """Replay a save and print the same ranking `play` printed."""
    try:
        game = open_save(path, force=force)
    except SaveError as exc:
        return _err(str(exc))
    print_ranking(game)
    return 0
