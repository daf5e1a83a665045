"""Route optimiser benchmark: every run_routes position of the 18xx.games fixture game.

For each position (fixture 29133, replayed map-side by tests/engine/route_positions.py) the
optimiser (eighteen.engine.routefinder.optimize) is timed

* cold: the board's caches emptied first (track graph, network, routes, results);
* track: the track graph of the tile layout cached, nothing else (tokens or trains changed);
* warm: the same question asked again (the result is cached).

Each figure is the median of REPEAT runs. Then the same for every position whose best
routes the engine looks up in a greedy-bot 1833NE game (connection and interconnection
bonuses, ferries, N/M and N+s trains), and for
a harder, synthetic set (``--stress``): 1830 boards grown by seeded random connected tile
lays up to brown, each corporation running D+D, 6+D and 4+5+6.
Run: .venv/bin/python bench/routes.py [--stress] [-v]
Targets (fixture, one core): median <= 3 ms, max <= 50 ms per call.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "engine"))

from route_positions import FIXTURE, replay  # noqa: E402

from eighteen.engine.map import Board  # noqa: E402
from eighteen.engine.position import MapState  # noqa: E402
from eighteen.engine.routefinder import RouteResult, optimize  # noqa: E402
from eighteen.engine.tables import typed_document  # noqa: E402
from eighteen.title.model import Phase  # noqa: E402

REPEAT = 5

Case = tuple[str, MapState, str, list[tuple[str, Any]], str]


def timed(fn: Callable[[], RouteResult]) -> tuple[float, RouteResult]:
    gc.collect()
    t0 = time.perf_counter()
    r = fn()
    return (time.perf_counter() - t0) * 1000, r


#: Extra optimize() arguments by case label (bonuses, stations, excluded hexes).
EXTRA: dict[str, dict[str, Any]] = {}


def measure(board: Board, case: Case) -> tuple[float, float, float, RouteResult]:
    """(cold ms, track-cached ms, warm ms, result), each the median of REPEAT runs."""
    label, state, corp, trains, key = case
    extra = EXTRA.get(label, {})

    def run() -> RouteResult:
        return optimize(board, state, corp, trains, key, **extra)

    cold, track, warm = [], [], []
    result = None
    for _ in range(REPEAT):
        board.clear_caches()
        ms, result = timed(run)
        cold.append(ms)
        board.clear_caches()
        board.graph(state)
        track.append(timed(run)[0])
        warm.append(timed(run)[0])
    assert result is not None
    return statistics.median(cold), statistics.median(track), statistics.median(warm), result


def report(name: str, board: Board, cases: list[Case], verbose: bool) -> list[float]:
    rows = []
    for case in cases:
        cold, track, warm, r = measure(board, case)
        rows.append((cold, track, warm, r))
        if verbose:
            label, _, corp, trains, _ = case
            ts = "+".join(t.split("-")[0] for t, _ in trains)
            print(
                f"  {label:<10} {corp:<5} {ts:<8} ${r.total:<4} "
                f"{'optimal' if r.optimal else 'bound $' + str(r.upper_bound):<10} "
                f"{r.explored:>8} states  cold {cold:7.2f}  track {track:7.2f}  "
                f"warm {warm:6.3f} ms"
            )
    print(f"{name}: {len(cases)} positions, ms per call (median of {REPEAT} runs each)")
    print(f"  {'':<8} {'median':>8} {'max':>8}")
    columns = {
        "cold": [row[0] for row in rows],
        "track": [row[1] for row in rows],
        "warm": [row[2] for row in rows],
    }
    for label, xs in columns.items():
        print(f"  {label:<8} {statistics.median(xs):>8.3f} {max(xs):>8.3f}")
    proven = sum(1 for row in rows if row[3].optimal)
    explored = [row[3].explored for row in rows]
    print(f"  proven optimal: {proven}/{len(rows)}; states explored: max {max(explored)}")
    return [row[0] for row in rows]


def fixture_cases(board: Board, phases: Sequence[Phase]) -> tuple[list[Case], list[int]]:
    cases: list[Case] = []
    recorded: list[int] = []
    for p in replay(board, phases):
        cases.append((f"#{p.action}", p.state, p.corp, p.trains, p.revenue_key))
        recorded.append(p.recorded_total)
    return cases, recorded


def game_cases(seed: int = 1) -> tuple[Board, list[Case]]:
    """Every position whose best routes the engine looked up in a greedy-bot 4-player
    1833NE game (each corporation and position once)."""
    from eighteen import Game, load_title
    from eighteen.engine import network, phases
    from eighteen.engine.bots import GreedyBot, play

    players = ["A", "B", "C", "D"]
    g = Game.new(load_title("1833ne"), players, seed=seed)
    cases: list[Case] = []
    seen: set[tuple[Any, ...]] = set()
    original = network.optimal

    def record(game: Game, corp: str, **kw: Any) -> RouteResult:
        key = (game.state.map.track_key(), game.state.map.token_key(), corp, len(game.log))
        if key not in seen and network.corp_trains(game, corp):
            seen.add(key)
            label = f"#{len(cases)}"
            stations, excluded = network.run_access(game, corp)
            EXTRA[label] = {
                "bonuses": tuple(network.corp_bonuses(game, corp)),
                "stations": stations,
                "excluded": excluded,
            }
            trains = network.corp_trains(game, corp)
            cases.append((label, game.state.map.copy(), corp, trains, phases.revenue_key(game)))
        return original(game, corp, **kw)

    network.optimal = record  # type: ignore[assignment]
    try:
        for _ in play(g, {p: GreedyBot(seed + i) for i, p in enumerate(players)}):
            pass
    finally:
        network.optimal = original
    return network.board(g), cases


def _count(supply: dict[str, int | None], tile: str, change: int) -> None:
    """Add ``change`` to the supply of ``tile`` if it is counted (None: unlimited)."""
    n = supply.get(tile)
    if n is not None:
        supply[tile] = n + change


def grown_board(board: Board, seed: int, rounds: int = 40) -> MapState:
    """Seeded random connected tile lays by every corporation (yellow, then green, then
    brown), a few extra tokens: a busy late-game board."""
    rng = random.Random(seed)
    s = MapState()
    supply = {t: d.count for t, d in board.tiles.items()}
    corps = sorted(board.corporations)
    for c in corps:
        cities = board.home_city_options(s, c)
        home = board.corporations[c].home
        if cities and home:
            board.place_token(s, c, home, cities[0])
    for r in range(rounds):
        colors = {"yellow"} if r < 8 else {"yellow", "green"} if r < 20 else {"green", "brown"}
        for c in corps:
            opts = board.lay_options(s, c, colors, blocked=set(), tile_supply=supply)
            if not opts:
                continue
            lay = rng.choice(opts)
            old = board.lay_tile(s, lay.hex, lay.tile, lay.rotation)
            _count(supply, lay.tile, -1)
            if old is not None:
                _count(supply, old, +1)
            if r % 6 == 5 and sum(c in x for cs in s.tokens.values() for x in cs) < 4:
                spots = list(board.token_options(s, c, reserved={}))
                if spots:
                    board.place_token(s, c, *rng.choice(spots))
    return s


def stress_cases(board: Board, seeds: int = 3) -> list[Case]:
    cases: list[Case] = []
    runs: list[list[tuple[str, int | None]]] = [
        [("D-0", None), ("D-1", None)],
        [("6-0", 6), ("D-0", None)],
        [("4-0", 4), ("5-0", 5), ("6-0", 6)],
    ]
    for seed in range(seeds):
        s = grown_board(board, seed)
        for corp in sorted(board.corporations):
            for trains in runs:
                cases.append((f"seed {seed}", s, corp, trains, "brown"))
    return cases


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--stress", action="store_true", help="add the synthetic grown boards")
    ap.add_argument("-v", "--verbose", action="store_true", help="a line per position")
    args = ap.parse_args()
    verbose = args.verbose
    if not FIXTURE.exists():
        sys.exit(f"fixture not found: {FIXTURE}")
    doc = typed_document(json.loads((ROOT / "generated" / "1830.json").read_text()))
    board = Board.of(doc)
    cases, recorded = fixture_cases(board, doc.phases)
    report("fixture 29133 (1830)", board, cases, verbose)
    below = 0
    for case, rec in zip(cases, recorded, strict=True):
        _, state, corp, trains, key = case
        below += optimize(board, state, corp, trains, key).total < rec
    print(f"  optimum below the recorded revenue: {below} positions")
    print("  targets: cold median <= 3 ms, cold max <= 50 ms")
    ne_board, ne_cases = game_cases()
    report("greedy 1833NE game (seed 1)", ne_board, ne_cases, verbose)
    if args.stress:
        report("stress (grown 1830 boards, D+D, 6+D, 4+5+6)", board, stress_cases(board), verbose)


if __name__ == "__main__":
    main()
