"""Simulation benchmark: games per second per core for 1830 and 1833NE (4 greedy bots),
and the speed-up from 1 to 2 worker processes and through a local Ray instance.

Wall-clock times of whole runs (Ray's includes starting it, reported apart). The machine
is shared: run it on a quiet one. Run: .venv/bin/python bench/simulate.py [GAMES]
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

from eighteen.sim.botspec import parse_bots, seat_bots
from eighteen.sim.runner import Backend, ray_init, run_simulation

SEATS = seat_bots(parse_bots("greedy"), 4)


def timed(run: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    run()
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("games", nargs="?", type=int, default=20, help="games per run")
    games = ap.parse_args().games
    cores = os.cpu_count() or 1
    print(f"{games} games per run, 4 greedy bots, {cores} cores")
    ray_started = False
    for title in ("1830", "1833ne"):

        def sim(backend: Backend, title: str = title) -> Callable[[], object]:
            return lambda: run_simulation([title], games, SEATS, backend, seed=1)

        one = timed(sim(Backend(workers=1)))
        two = timed(sim(Backend(workers=2)))
        print(f"{title}: 1 worker  {games / one:6.2f} games/s per core ({one:.1f} s)")
        print(f"{title}: 2 workers {games / two:6.2f} games/s  speed-up x{one / two:.2f}")
        try:
            if not ray_started:
                start = timed(lambda: ray_init("local", 2))
                print(f"ray: local instance with 2 CPUs started in {start:.1f} s")
                ray_started = True
            through = timed(sim(Backend(ray="local", ray_cpus=2, shutdown=False)))
        except Exception as exc:  # Ray missing or refusing: report and go on
            print(f"{title}: ray unavailable ({exc})")
            continue
        print(f"{title}: ray (2)   {games / through:6.2f} games/s  speed-up x{one / through:.2f}")


if __name__ == "__main__":
    main()
