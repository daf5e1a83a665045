"""A real 18xx.games game (fixture 29133, 4 players, ends in bankruptcy) replayed through
the engine: every money movement agrees, and so does the final result.

The mapping of the export onto our actions lives in the importer
(:mod:`eighteen.io.games18xx`: undo/redo filtering, certificate sources, home tokens,
passes); its own tests are in tests/io.  Here the engine's side is checked: the replay is
exact, money is conserved, and the engine's best routes earn what the players ran.
"""

from __future__ import annotations

import json
from pathlib import Path

from eighteen.engine import bank, network, views
from eighteen.engine.actions import RunRoutes
from eighteen.engine.game import Game
from eighteen.io.games18xx import import_game

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures/18xx-games/1830/29133.json"


def test_fixture_29133_replays_to_the_recorded_result() -> None:
    data = json.loads(FIXTURE.read_text())
    res = import_game(data)
    assert res.divergence is None
    g = res.game
    assert g.is_over and g.state.end_reason == "bankruptcy"
    assert {res.players[name]: value for name, value in views.ranking(g)} == data["result"]
    assert bank.total_money(g) == 12000
    # the engine's best routes earn what was recorded at every run
    replay = Game(g.tables, list(g.players), seed=g.seed, options=list(g.options))
    mismatches = []
    for n, action in enumerate(g.log):
        if isinstance(action, RunRoutes):
            best = sum(r.revenue for r in network.best(replay, action.actor))
            if best != sum(r.revenue for r in action.routes):
                mismatches.append(n)
        replay.apply(action)
    assert mismatches == []
    assert replay.state_hash() == g.state_hash()


def test_a_reach_holds_the_edges_of_the_paths_it_took_and_of_its_station_hexes() -> None:
    """A reach's edges, derived here from its paths' own edges and the board's neighbours:
    each path reaches its edges on its hex and the opposite edges on the neighbours, and a
    hex holding a station is reached on all six."""
    res = import_game(json.loads(FIXTURE.read_text()), stop_at=114)
    board, m = network.board(res.game), res.game.state.map
    g = board.graph(m)
    for corp in ("PRR", "B&O", "NYNH"):
        reach = g.reach(corp)
        assert reach.walk is not None
        want: dict[str, int] = {}
        for pid in reach.walk.followed():
            p = g.paths[pid]
            for e in p.edges:
                want[p.hex] = want.get(p.hex, 0) | 1 << e
                nb = board.neighbors[p.hex][e]
                if nb is not None:
                    want[nb] = want.get(nb, 0) | 1 << (e + 3) % 6
        for s in reach.walk.starts:
            want[g.stops[s][0]] = 0b111111
        assert reach.edges == want, corp
    assert sorted(g.reach("B&O").edges.items()) == [
        ("G15", 32),
        ("H10", 16),
        ("H12", 18),
        ("H14", 18),
        ("H16", 63),
        ("H18", 2),
        ("I15", 63),
        ("I17", 6),
        ("J14", 9),
        ("K13", 8),
    ]
