"""Shared fixtures of the simulation tests: one small simulation of two titles."""

from __future__ import annotations

from typing import Any

import pytest

from eighteen.sim.botspec import parse_bots, seat_bots
from eighteen.sim.runner import Backend, run_simulation
from eighteen.sim.summary import summarize

GAMES = 3


@pytest.fixture(scope="session")
def small_run() -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]:
    """(summary, records) of 3 games of 1830 vs 1830-example, greedy against random."""
    seats = seat_bots(parse_bots("greedy,random,greedy:cautious,random"), 4)
    backend = Backend()
    records = run_simulation(["1830", "1830-example"], GAMES, seats, backend, seed=11)
    summary = summarize(
        records,
        backend.tables,
        games=GAMES,
        players=4,
        seed=11,
        bots=[s.label for s in seats],
        rotate=False,
        max_actions=20_000,
    )
    return summary, records
