"""Takeover-game statistics: bot games of 1833ne-takeover (3-5 players), how many end and
why, and how many takeovers each has.

Every game must end by a rule of the title (bank broken, a bankruptcy with the game going
on until the bank breaks, ...); the count of games with at least one takeover is printed.
Run: .venv/bin/python bench/takeover.py [GAMES]   (default 50)
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

import eighteen
from eighteen.engine.bots import make_bots, play


def one_game(players: int, seed: int) -> tuple[str, int, int]:
    """(end reason, takeovers, actions) of one greedy-bot game."""
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"][:players]
    game = eighteen.Game.new(eighteen.load_title("1833ne-takeover"), names, seed=seed)
    n = sum(1 for _ in play(game, make_bots("greedy", names, seed)))
    return str(game.state.end_reason), len(game.state.absorbed), n


def main(games: int = 50) -> None:
    t0 = time.perf_counter()
    reasons: Counter[str] = Counter()
    per_game: list[int] = []
    for i in range(games):
        reason, takeovers, _ = one_game(3 + i % 3, i + 1)
        reasons[reason] += 1
        per_game.append(takeovers)
    with_one = sum(1 for t in per_game if t)
    print(f"games: {games} (3-5 players, greedy bots, seeds 1-{games})")
    for reason, n in sorted(reasons.items()):
        print(f"ended by {reason}: {n}")
    print(f"games with at least one takeover: {with_one}")
    print(f"takeovers: {sum(per_game)} in all, at most {max(per_game)} in one game")
    print(f"takeovers per game: {dict(sorted(Counter(per_game).items()))}")
    print(f"time: {time.perf_counter() - t0:.1f}s")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("games", nargs="?", type=int, default=50)
    main(ap.parse_args().games)
