"""`eighteen routes SAVE.json [--corporation SYM]`: the best routes of a corporation, explained.

The save is replayed; the corporation is the one named, or else the one operating now (the
one about to run its trains). For each train the best run lists its stops, what each stop
and bonus earns and the route's total (see :func:`eighteen.engine.routefinder.optimize`).
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from eighteen.engine import network, phases
from eighteen.engine.game import Game
from eighteen.engine.routes import TrainRule
from eighteen.engine.trains import corporation_limit


def _err(msg: str) -> int:
    from eighteen.commands.output import fail

    return fail("routes", msg)


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
        f"{corp}: trains {names or 'none'}; phase {phase.id}, "
        f"off-boards {phases.revenue_key(game)}",
        file=out,
    )
    taken = sorted(t for t, a in game.state.absorbed.items() if a == corp)
    if taken:
        limit = corporation_limit(game, corp)
        print(f"{corp} has taken over {', '.join(taken)} (train limit {limit})", file=out)
    if corp in game.state.absorbed:
        print(f"{corp} was taken over by {game.state.absorbed[corp]}", file=out)
    if corp in game.state.chosen_homes:
        print(f"{corp}'s home (chosen): {game.state.chosen_homes[corp]}", file=out)
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


def routes_json(game: Game, corp: str) -> dict[str, Any]:
    """The corporation's trains and best run as a JSON report (``--format json``)."""
    trains = network.corp_trains(game, corp)
    doc: dict[str, Any] = {
        "corporation": corp,
        "phase": phases.current(game).id,
        "trains": [{"train": t, "rule": TrainRule.of(d).describe()} for t, d in trains],
        "routes": [],
        "total": 0,
        "optimal": True,
        "took_over": sorted(t for t, a in game.state.absorbed.items() if a == corp),
        "taken_over_by": game.state.absorbed.get(corp),
        "home": game.state.chosen_homes.get(corp),
    }
    if trains:
        result = network.optimal(game, corp)
        doc["routes"] = [r.to_json() for r in result.routes]
        doc["total"] = result.total
        doc["optimal"] = result.optimal
    return doc


def cmd_routes(
    save_path: str,
    corporation: str | None = None,
    *,
    force: bool = False,
    at: int | None = None,
    fmt: str = "text",
) -> int:
    """Replay a save (to ``at`` actions) and print the best routes of ``corporation``
    (default: the one operating now). Exit 1 on an unreadable save or an unknown
    corporation. ``force`` replays a save made with other title tables (with a warning)."""
    from eighteen.commands.output import emit_json
    from eighteen.commands.play import SaveError, open_save

    try:
        game = open_save(save_path, force=force, at=at, command="routes")
    except SaveError as exc:
        return _err(str(exc))
    corp = corporation or operating_corporation(game)
    if corp is None:
        return _err(f"{save_path}: no corporation is operating now; name one with --corporation")
    if corp not in game.state.corporations:
        known = ", ".join(sorted(game.state.corporations))
        return _err(f"unknown corporation {corp!r} (one of {known})")
    if fmt == "json":
        emit_json(routes_json(game, corp))
    else:
        print_routes(game, corp)
    return 0
