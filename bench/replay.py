"""Replay benchmark over the 18xx.games 1830 corpus: every game imported, every route
re-derived, every action validated by the engine.

For each game it prints the µs per action (logged actions processed, auto actions
included), the µs per action in each tenth of the game, and the ratio of the last tenth
to the first; then the worst game and the corpus totals.  Each game is imported ``RUNS``
times and the fastest run counts (per tenth, too).  Times are the CPU time of this
process (``time.process_time``), so that other work on a shared machine does not count.
Targets (issue 15): at most 150 µs per action on every game, last tenth no more than 1.5x
the first.

Run: .venv/bin/python bench/replay.py [RUNS] [EXPORT.json ...]
"""

from __future__ import annotations

import gc
import sys
import time
from pathlib import Path

from eighteen.engine import tables
from eighteen.io import games18xx
from eighteen.io.games18xx import Importer, read_export

FIXTURES = Path(__file__).resolve().parents[1] / "tests/fixtures/18xx-games"
TARGET_US = 150.0
CLOCK = time.process_time
TARGET_RATIO = 1.5


class StepTimer:
    """Times every ``Importer.step`` call (one logged action, its passes included)."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.original = games18xx.Importer.step

    def __enter__(self) -> StepTimer:
        original = self.original
        times = self.times

        def timed(imp: Importer, aid: int | str, a: dict) -> None:
            t0 = CLOCK()
            try:
                original(imp, aid, a)
            finally:
                times.append(CLOCK() - t0)

        games18xx.Importer.step = timed  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        games18xx.Importer.step = self.original  # type: ignore[method-assign]


def tenths(times: list[float]) -> list[float]:
    """Mean µs per action in each tenth of the game."""
    n = len(times)
    out = []
    for k in range(10):
        part = times[k * n // 10 : (k + 1) * n // 10] or [0.0]
        out.append(sum(part) / len(part) * 1e6)
    return out


def bench(path: Path, runs: int) -> tuple[float, list[float], int] | None:
    data = read_export(path)
    title = tables.load_title(str(data["title"]))
    best: tuple[float, list[float], int] | None = None
    for _ in range(runs):
        gc.collect()
        with StepTimer() as st:
            t0 = CLOCK()
            res = games18xx.import_game(data, title)
            total = CLOCK() - t0
        if res.mismatches():
            print(f"{path.name}: the replay is not exact: {res.mismatches()[0]}")
            return None
        per = total / max(res.applied, 1) * 1e6
        if best is None or per < best[0]:
            best = (per, tenths(st.times), res.applied)
    return best


def main(argv: list[str]) -> int:
    runs = int(argv[1]) if len(argv) > 1 else 3
    paths = [Path(p) for p in argv[2:]] or [
        *sorted((FIXTURES / "1830-generated").glob("g*.json")),
        FIXTURES / "1830/29133.json",
    ]
    games18xx.import_game(read_export(paths[0]))  # warm up: tables, board, caches
    rows = []
    print(f"{'game':<16}{'actions':>8}{'µs/act':>9}  tenths (µs per action){'':>40}last/first")
    for path in paths:
        got = bench(path, runs)
        if got is None:
            return 1
        per, parts, n = got
        ratio = parts[-1] / parts[0] if parts[0] else float("inf")
        rows.append((path.stem, n, per, ratio))
        shown = " ".join(f"{x:5.0f}" for x in parts)
        print(f"{path.stem:<16}{n:>8}{per:>9.1f}  {shown}  {ratio:5.2f}")
    worst = max(rows, key=lambda r: r[2])
    worst_ratio = max(rows, key=lambda r: r[3])
    actions = sum(r[1] for r in rows)
    mean = sum(r[1] * r[2] for r in rows) / actions
    over = [r[0] for r in rows if r[2] > TARGET_US]
    steep = [r[0] for r in rows if r[3] > TARGET_RATIO]
    print(f"\n{len(rows)} games, {actions} actions, best of {runs} runs each")
    print(f"  mean:        {mean:7.1f} µs per action")
    print(f"  worst game:  {worst[0]} {worst[2]:.1f} µs per action (target {TARGET_US:.0f})")
    print(
        f"  worst ratio: {worst_ratio[0]} last tenth {worst_ratio[3]:.2f}x the first "
        f"(target {TARGET_RATIO}x)"
    )
    print(f"  over {TARGET_US:.0f} µs: {len(over)} games; ratio over {TARGET_RATIO}: {len(steep)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
