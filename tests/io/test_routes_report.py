"""`import-18xx --routes`: the optimiser at every logged run, and money left on the table."""

from __future__ import annotations

from typing import Any

from eighteen.io.games18xx import import_game


def test_every_run_of_29133_was_optimal(game_29133: dict[str, Any]) -> None:
    res = import_game(game_29133, optimal_routes=True)
    assert res.divergence is None
    assert len(res.route_report) == 24
    assert all(proven for *_, proven in res.route_report)
    assert res.route_report[:4] == [
        (96, "B&O", 50, 50, True),
        (103, "PRR", 30, 30, True),
        (110, "NYNH", 140, 140, True),
        (115, "B&O", 140, 140, True),
    ]
    assert sum(best - logged for _, _, logged, best, _ in res.route_report) == 0


def test_a_train_left_idle_shows_the_money_left(game_29133: dict[str, Any]) -> None:
    run = next(a for a in game_29133["actions"] if a["id"] == 115)
    assert [r["revenue"] for r in run["routes"]] == [60, 80]
    run["routes"] = run["routes"][1:]  # B&O runs only its second train
    res = import_game(game_29133, optimal_routes=True)
    row = next(r for r in res.route_report if r[0] == 115)
    assert row == (115, "B&O", 80, 140, True)
