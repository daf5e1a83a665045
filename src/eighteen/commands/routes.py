"""`eighteen routes SAVE.json [--corporation SYM]`: the best routes of a corporation, explained.

The save is replayed; the corporation is the one named, or else the one operating now (the
one about to run its trains). For each train the best run lists its stops, what each stop
and bonus earns and the route's total (see :func:`eighteen.engine.routefinder.optimize`).
"""

from __future__ import annotations

import sys
from typing import TextIO

from eighteen.engine import network, phases
from eighteen.engine.game import Game
from eighteen.engine.routes import TrainRule


def _err(msg: str) -> int:
    print(f"eighteen: {msg}", file=sys.stderr)
    return 1


def operating_corporation(game: Game) -> str | None:
    """The corporation acting now, if the acting entity is a corporation."""
    acting = game.acting()
    return acting if acting is not None and acting in game.state.corporations else None


def print_routes(game: Game, corp: str, out: TextIO | None = None) -> None:
    """Print ``corp``'s trains and the best run for them, explained (to standard output by
    default)."""
    out = out or sys.stdout
    trains = network.corp_trains(game, corp)
    phase = phases.current(game)
    names = ", ".join(f"{t} ({TrainRule.of(d).describe()})" for t, d in trains)
    print(
        f"{corp}: trains {names or 'none'}; phase {phase.get('id')}, "
        f"off-boards {phases.revenue_key(game)}",
        file=out,
    )
    if not trains:
        print(f"{corp} has no train to run", file=out)
        return
    result = network.optimal(game, corp)
    if not result.routes:
        print(f"{corp} has no route to run", file=out)
        return
    for line in result.explain():
        print(line, file=out)
    if result.optimal:
        print(f"optimal (searched {result.explored} states)", file=out)


def cmd_routes(save_path: str, corporation: str | None = None, *, force: bool = False) -> int:
    """Replay a save and print the best routes of ``corporation`` (default: the one
    operating now). Exit 1 on an unreadable save or an unknown corporation. ``force``
    replays a save made with other title tables (with a warning)."""
    from eighteen.commands.play import SaveError, open_save

    try:
        game = open_save(save_path, force=force)
    except SaveError as exc:
        return _err(str(exc))
    corp = corporation or operating_corporation(game)
    if corp is None:
        return _err(f"{save_path}: no corporation is operating now; name one with --corporation")
    if corp not in game.state.corporations:
        known = ", ".join(sorted(game.state.corporations))
        return _err(f"unknown corporation {corp!r} (one of {known})")
    print_routes(game, corp)
    return 0
