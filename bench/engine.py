"""Engine benchmark: actions per second in bot games, and a full 4-player game's time,
for 1830 and 1833NE.

Route search is timed separately (the time spent finding the best routes the engine offers),
and the game time is also given without it; then the µs per action in each tenth of the
game (medians over the games) with the ratio of the last tenth to the first, and the
slowest game.  Times are the CPU time of this process (``time.process_time``), so that
other work on a shared machine does not count.  Target (issue 15): a greedy 4-player 1830
game in under 0.5 s.  Run: .venv/bin/python bench/engine.py [GAMES]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import eighteen
from eighteen.engine import network
from eighteen.engine.bots import make_bots, play

CLOCK = time.process_time
TARGET_GREEDY_S = 0.5


class RouteTimer:
    """Wraps the engine's best-route search to add up the time spent in it."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.calls = 0
        self.original = network.best

    def __enter__(self) -> RouteTimer:
        def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = CLOCK()
            try:
                return self.original(*args, **kwargs)
            finally:
                self.seconds += CLOCK() - t0
                self.calls += 1

        network.best = timed
        return self

    def __exit__(self, *exc: object) -> None:
        network.best = self.original


def one_game(title: eighteen.Tables, seed: int, bots: str, players: int) -> dict[str, float]:
    names = [f"Player{i + 1}" for i in range(players)]  # "P1" is a private of 1833NE
    game = eighteen.Game.new(title, players=names, seed=seed)
    stamps: list[float] = []
    with RouteTimer() as routes:
        t0 = CLOCK()
        try:
            for _ in play(game, make_bots(bots, names, seed)):
                stamps.append(CLOCK())
        except RuntimeError:
            if not game.stuck:  # a stuck game (no rule ends it) is timed up to where it stuck
                raise
        total = CLOCK() - t0
    n = len(stamps)
    per = [b - a for a, b in zip([t0, *stamps], stamps, strict=False)]
    tenths = [
        sum(per[k * n // 10 : (k + 1) * n // 10]) / max(1, (k + 1) * n // 10 - k * n // 10) * 1e6
        for k in range(10)
    ]
    return {
        "actions": n,
        "total": total,
        "routes": routes.seconds,
        "route_calls": routes.calls,
        "stuck": game.stuck,
        "tenths": tenths,  # type: ignore[dict-item]
    }


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("games", nargs="?", type=int, default=5, help="games per bot kind")
    games = ap.parse_args().games
    for title_id in ("1830", "1833ne"):
        report(eighteen.load_title(title_id), games)
    print(f"target: a greedy 4-player 1830 game in under {TARGET_GREEDY_S} s")


def report(title: eighteen.Tables, games: int) -> None:
    print(f"{title.id}, 4 players, {games} games per bot kind (one core)")
    print(
        f"{'bots':<8} {'actions':>8} {'actions/s':>10} {'game s':>8} {'no-route s':>10} "
        f"{'route s':>8} {'route calls':>11}"
    )
    for bots in ("random", "greedy"):
        rows = [one_game(title, seed, bots, 4) for seed in range(games)]
        actions = statistics.median(r["actions"] for r in rows)
        total = statistics.median(r["total"] for r in rows)
        routes = statistics.median(r["routes"] for r in rows)
        calls = statistics.median(r["route_calls"] for r in rows)
        rate = sum(r["actions"] for r in rows) / sum(r["total"] for r in rows)
        print(
            f"{bots:<8} {actions:>8.0f} {rate:>10.0f} {total:>8.2f} {total - routes:>10.2f} "
            f"{routes:>8.2f} {calls:>11.0f}"
        )
        tenths = [statistics.median(r["tenths"][k] for r in rows) for k in range(10)]  # type: ignore[index]
        shown = " ".join(f"{x:.0f}" for x in tenths)
        ratio = tenths[-1] / tenths[0] if tenths[0] else float("inf")
        print(f"         µs per action by tenth of the game: {shown}  (last/first {ratio:.2f})")
        worst = max(range(games), key=lambda k: rows[k]["total"])
        print(f"         slowest game: seed {worst}, {rows[worst]['total']:.2f} s")
        stuck = sum(1 for r in rows if r["stuck"])
        if stuck:
            print(f"         stuck games (timed up to where they stuck): {stuck}")


if __name__ == "__main__":
    main()
