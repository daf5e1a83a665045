"""Replay benchmark: the real 18xx.games 1830 game 29133 imported, revenues re-derived.

Prints the time per game and per action (logged actions processed, auto actions
included), best of N runs, and how much of it is route re-derivation.  Each run builds a
new game from the export: undo/redo filtering, mapping, every route read from its
connections and checked, every action validated by the engine.  The target is 0.1 ms per
action on one core.  Run: .venv/bin/python bench/replay.py [RUNS] [EXPORT.json]
"""

from __future__ import annotations

import gc
import sys
import time
from pathlib import Path

from eighteen.engine import tables
from eighteen.io import games18xx
from eighteen.io.games18xx import import_game, read_export

DEFAULT = Path(__file__).resolve().parents[1] / "tests/fixtures/18xx-games/1830/29133.json"
TARGET_MS = 0.1


class RouteTimer:
    """Adds up the time spent re-deriving routes from their connections."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.original = games18xx.route_from_connections

    def __enter__(self) -> RouteTimer:
        def timed(*args: object, **kwargs: object) -> object:
            t0 = time.perf_counter()
            try:
                return self.original(*args, **kwargs)  # type: ignore[arg-type]
            finally:
                self.seconds += time.perf_counter() - t0

        games18xx.route_from_connections = timed  # type: ignore[assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        games18xx.route_from_connections = self.original  # type: ignore[assignment]


def main(argv: list[str]) -> int:
    runs = int(argv[1]) if len(argv) > 1 else 10
    path = Path(argv[2]) if len(argv) > 2 else DEFAULT
    if not path.exists():
        print(f"replay bench: {path} not found, skipped")
        return 0
    data = read_export(path)
    title = tables.load_title(str(data["title"]))
    import_game(data, title)  # warm up: compiled tables, board, caches built once
    best = None
    for _ in range(runs):
        gc.collect()
        with RouteTimer() as rt:
            t0 = time.perf_counter()
            res = import_game(data, title)
            total = time.perf_counter() - t0
        if res.mismatches():
            print(f"replay bench: the replay is not exact: {res.mismatches()[0]}")
            return 1
        if best is None or total < best[0]:
            best = (total, rt.seconds, res)
    assert best is not None
    total, routes, res = best
    n = res.applied
    per = total * 1000 / n
    print(
        f"{path.name}: {n} actions ({res.kept_count} kept of {res.raw_count}, auto actions "
        f"included), {res.routes_checked} routes re-derived; best of {runs} runs"
    )
    print(f"  per game:   {total * 1000:8.1f} ms")
    print(f"  per action: {per:8.3f} ms   (target {TARGET_MS} ms: {per / TARGET_MS:.1f}x)")
    print(f"  routes:     {routes * 1000:8.1f} ms re-deriving routes from connections")
    print(f"  engine:     {(total - routes) * 1000:8.1f} ms mapping and applying actions")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
