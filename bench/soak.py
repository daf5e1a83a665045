"""Soak test: many bot games of one title to the end, the invariants of
tests/engine/test_random_games.py checked after every action.

Run: .venv/bin/python bench/soak.py [TITLE] [FIRST_SEED] [LAST_SEED] [--options A,B]
(default: 1833ne, seeds 0-19). Even seeds use greedy bots, odd ones random bots; the
player count cycles through the title's range. ``--options`` plays every game with these
title options (``import`` among them stands for those the title's 18xx.games importer switches
on). Prints each failure and a summary of how
the games ended; exits 1 if any game failed.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "engine"))

from test_random_games import check_invariants  # noqa: E402

import eighteen  # noqa: E402
from eighteen.engine.bots import make_bots, play  # noqa: E402
from eighteen.engine.game import Game  # noqa: E402
from eighteen.engine.tables import TitleNotFound  # noqa: E402

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("title", nargs="?", default="1833ne")
    ap.add_argument("first_seed", nargs="?", type=int, default=0)
    ap.add_argument("last_seed", nargs="?", type=int, default=19)
    ap.add_argument(
        "--options", default="", help="comma-separated options (import: the importer's)"
    )
    args = ap.parse_args(argv)
    try:
        title = eighteen.load_title(args.title)
    except TitleNotFound as e:
        ap.error(str(e))
    options: list[str] = []
    for o in (o for o in args.options.split(",") if o):
        if o != "import":
            options.append(o)
        elif title.doc.import_18xx is None:
            ap.error(f"{title.id} has no 18xx.games importer")
        else:
            options += title.doc.import_18xx.options
    unknown = [o for o in options if o not in title.option_ids]
    if unknown:
        ap.error(f"{title.id} has no option {unknown[0]!r} (its options: {title.option_ids})")
    first, last = args.first_seed, args.last_seed
    lo, hi = title.players_min, title.players_max
    ends: Counter[str] = Counter()
    failed = 0
    for seed in range(first, last + 1):
        players = NAMES[: lo + seed % (hi - lo + 1)]
        kind = "greedy" if seed % 2 == 0 else "random"
        g = Game.new(title, players, seed=seed, options=options)
        try:
            for _ in play(g, make_bots(kind, players, seed), max_actions=30_000):
                check_invariants(g)
            ends[str(g.state.end_reason)] += 1
        except Exception:
            failed += 1
            print(f"seed {seed} ({kind}, {len(players)} players) failed:")
            traceback.print_exc()
    print(f"{title.id}: {sum(ends.values())} games ended {dict(ends)}; {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
