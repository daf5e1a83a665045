"""The same seed and N give the same records and summary whatever runs the games: this
process, two worker processes, a local Ray instance with 2 CPUs, any batch size."""

from __future__ import annotations

import json
from typing import Any

from eighteen import load_title
from eighteen.engine.tables import Tables
from eighteen.sim.botspec import parse_bots, seat_bots
from eighteen.sim.runner import Backend, Job, make_jobs, play_job, run_simulation
from eighteen.sim.summary import summarize

SEATS = seat_bots(parse_bots("greedy,2*random,greedy:bold"), 4)


def simulate(backend: Backend, games: int = 4) -> str:
    records = run_simulation(["1830"], games, SEATS, backend, seed=3, rotate=True)
    summary = summarize(
        records,
        backend.tables,
        games=games,
        players=4,
        seed=3,
        bots=[s.label for s in SEATS],
        rotate=True,
        max_actions=20_000,
    )
    return json.dumps(summary, indent=1)


def test_same_summary_serial_processes_and_ray() -> None:
    serial = simulate(Backend(workers=1))
    assert simulate(Backend(workers=2, batch=1)) == serial
    assert simulate(Backend(ray="local", ray_cpus=2, batch=1)) == serial
    summary = json.loads(serial)
    assert summary["results"]["1830"]["finished"] == 4
    assert summary["seeds"] == [3, 6]


def test_jobs_seeds_and_rotation() -> None:
    jobs = make_jobs("1830", 5, SEATS, seed=10, rotate=True)
    assert [j.seed for j in jobs] == [10, 11, 12, 13, 14]
    assert [j.bots[0].label for j in jobs] == [
        "greedy",
        "random",
        "random",
        "greedy:bold",
        "greedy",
    ]
    fixed = make_jobs("1830", 2, SEATS, seed=10)
    assert [j.bots for j in fixed] == [tuple(SEATS)] * 2


def test_a_game_record_is_consistent() -> None:
    r: dict[str, Any] = play_job(Job("1830", 0, 7, tuple(SEATS)))
    assert r["finished"] is True and r["seed"] == 7
    assert r == play_job(Job("1830", 0, 7, tuple(SEATS)))  # replayable
    assert sum(r["wins"]) == 1.0
    best = max(r["values"])
    assert [r["ranks"][i] == 1 for i in range(4)] == [v == best for v in r["values"]]
    starts = [p["or"] for p in r["phases"].values()]
    assert starts == sorted(starts) and list(r["phases"])[0] == "2"
    assert r["operating_rounds"] >= r["sets"] - 1
    for c in r["corporations"].values():
        assert len(c["prices"]) == r["operating_rounds"]
        assert c["operating_rounds"] <= r["operating_rounds"]


def test_a_game_cut_short_is_unfinished() -> None:
    r = play_job(Job("1830", 0, 7, tuple(SEATS), max_actions=50))
    assert (r["finished"], r["end_reason"], r["actions"]) == (False, "unfinished", 50)


def test_a_game_no_corporation_can_be_started_in_ends() -> None:
    """Random play ruins every player of 1833NE seed 0 and closes the corporations they
    started: the stock round in which no one could start one ends the game."""
    r = play_job(Job("1833ne", 0, 0, tuple(parse_bots("4*random"))))
    assert (r["finished"], r["end_reason"], r["actions"]) == (
        True,
        "no corporation can be started any more",
        147,
    )


def test_a_stuck_game_says_so() -> None:
    """The same game in a title with no end for it: its record says "stuck"."""
    data = json.loads(json.dumps(load_title("1833ne").data))
    data["rules"]["no_corporation_left_ends_game"] = False
    r = play_job(Job("1833ne", 0, 0, tuple(parse_bots("4*random"))), tables=Tables(data))
    assert (r["finished"], r["end_reason"], r["actions"]) == (False, "stuck", 147)


def test_a_game_whose_last_corporation_closes_ends() -> None:
    """1833NE ends at once when every corporation has closed (18xx.games' reading)."""
    r = play_job(Job("1833ne", 0, 20, tuple(parse_bots("4*random"))))
    assert (r["finished"], r["end_reason"], r["actions"]) == (
        True,
        "every corporation closed",
        196,
    )
