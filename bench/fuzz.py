"""Fuzz campaigns (issue 18): N mutated titles and N hostile actions; prints the counts.

    .venv/bin/python bench/fuzz.py [N] [--workers W]

Titles: one number of 1830 or 1833ne changed (edge values, beyond 64 bits, scaled,
negated), validated in memory as ``eighteen validate`` would; a title that validates clean
is played by random bots (60 actions) while a sample of every offered action is applied on
a copy. Counted: tracebacks (validation or play raising), hangs (one title over 20 s),
clean-but-unplayable titles (the engine refuses its own offer or crashes).

Actions: random action JSON (offered actions with a field broken, random types and
fields) applied at positions of random bot games of every compiled title (variants such
as the takeover game included). Counted: exceptions other than IllegalAction, refusals
that changed the state, accepted actions (for information) and accepted ones whose undo
did not give the state back exactly. All counts but "accepted" and "clean" should be
zero.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TITLES = ("1830", "1833ne")  # the title campaign mutates their TOML sources
HANG_SECONDS = 20.0


def title_campaign(args: tuple[int, int]) -> dict[str, int]:
    from eighteen.title.fuzz import mutate, mutated_value, play_check, read_base

    start, n = args
    bases = {t: read_base(ROOT / "titles" / t) for t in TITLES}
    counts = {"titles": 0, "clean": 0, "tracebacks": 0, "hangs": 0, "unplayable": 0}
    for i in range(start, start + n):
        rng = random.Random(i)
        base = bases[TITLES[i % len(TITLES)]]
        kind, path, value = rng.choice(base.numbers)
        t0 = time.monotonic()
        counts["titles"] += 1
        try:
            title, problems = mutate(base, kind, path, mutated_value(rng, value))
            if title is not None and not [p for p in problems if p.is_error]:
                counts["clean"] += 1
                failure = play_check(title, players=rng.choice((3, 4)), seed=i, max_actions=60)
                if failure is not None:
                    counts["unplayable"] += 1
                    print(f"unplayable: {base.dir.name} {kind} {path}: {failure}", file=sys.stderr)
        except Exception:
            counts["tracebacks"] += 1
            print(f"traceback: {base.dir.name} {kind} {path}", file=sys.stderr)
            traceback.print_exc()
        if time.monotonic() - t0 > HANG_SECONDS:
            counts["hangs"] += 1
    return counts


def action_campaign(args: tuple[int, int]) -> dict[str, int]:
    from eighteen.engine.actions import IllegalAction
    from eighteen.engine.bots import make_bots
    from eighteen.engine.game import Game
    from eighteen.locations import known_titles
    from eighteen.title.fuzz import random_action

    start, n = args
    titles = known_titles()
    counts = {
        "actions": 0,
        "accepted": 0,
        "non_illegal": 0,
        "changed_on_refusal": 0,
        "undo_differs": 0,
    }
    rng = random.Random(start)
    done = 0
    game_no = start
    while done < n:
        title = titles[game_no % len(titles)]
        names = ["A", "B", "C", "D"]
        game = Game.new(title, players=names, seed=game_no)
        bots = make_bots("random", names, game_no)
        game_no += 1
        for _ in range(rng.randrange(5, 400)):
            if game.is_over or game.stuck:  # stuck: no one can act (1833NE has no end for it)
                break
            actor = game.acting()
            assert actor is not None  # (the game is neither over nor stuck)
            owner = actor
            if not game.state.is_player(actor):
                corp = game.state.corporations.get(actor)
                owner = corp.president if corp is not None and corp.president else actor
            game.apply((bots.get(owner) or bots["A"]).choose(game))
        for _ in range(min(25, n - done)):
            done += 1
            counts["actions"] += 1
            before, length = game.state_hash(), len(game.log)
            action = random_action(rng, game.legal_actions() if not game.is_over else [])
            try:
                game.apply(action)
            except IllegalAction:
                if game.state_hash() != before or len(game.log) != length:
                    counts["changed_on_refusal"] += 1
                continue
            except Exception as exc:
                counts["non_illegal"] += 1
                print(f"{type(exc).__name__}: {exc} on {action}", file=sys.stderr)
                continue
            counts["accepted"] += 1
            game.undo()
            if game.state_hash() != before or len(game.log) != length:
                counts["undo_differs"] += 1
                print(f"undo differs after {action}", file=sys.stderr)
    return counts


def run(
    campaign: Callable[[tuple[int, int]], dict[str, int]], n: int, workers: int
) -> dict[str, int]:
    chunk = max(1, n // (workers * 4))
    jobs = [(s, min(chunk, n - s)) for s in range(0, n, chunk)]
    total: dict[str, int] = {}
    with ProcessPoolExecutor(workers) as pool:
        for counts in pool.map(campaign, jobs):
            for k, v in counts.items():
                total[k] = total.get(k, 0) + v
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    t0 = time.monotonic()
    titles = run(title_campaign, args.n, args.workers)
    t1 = time.monotonic()
    print(
        f"titles: {titles['titles']} mutated, {titles['clean']} validate clean; "
        f"tracebacks {titles['tracebacks']}, hangs {titles['hangs']}, "
        f"clean-but-unplayable {titles['unplayable']} ({t1 - t0:.0f} s)"
    )
    actions = run(action_campaign, args.n, args.workers)
    print(
        f"actions: {actions['actions']} hostile, {actions['accepted']} accepted; "
        f"non-IllegalAction refusals {actions['non_illegal']}, "
        f"state changed on refusal {actions['changed_on_refusal']}, "
        f"undo not exact {actions['undo_differs']} "
        f"({time.monotonic() - t1:.0f} s)"
    )
    bad = titles["tracebacks"] + titles["hangs"] + titles["unplayable"]
    bad += actions["non_illegal"] + actions["changed_on_refusal"] + actions["undo_differs"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
