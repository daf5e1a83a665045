"""`import-18xx --routes`: the optimiser at every logged run, and money left on the table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURE

from eighteen.cli import main
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


def test_the_report_shows_for_several_files_and_in_json(
    game_29133: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--routes` printed its report for one file in text only: with several files each
    line is followed by its runs and the money left, and the JSON of each file holds
    every run.  B&O's second train alone at 115 leaves $60 (and $60 less for its holders:
    Player 4 cannot buy his share at 314, where the replay stops, 15 runs on; exit 1)."""
    run = next(a for a in game_29133["actions"] if a["id"] == 115)
    run["routes"] = run["routes"][1:]
    idle = tmp_path / "idle.json"
    idle.write_text(json.dumps(game_29133))
    assert main(["import-18xx", str(FIXTURE), str(idle), "--routes"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"ok   {FIXTURE}",
        "     routes: 24 runs; money left on the table: $0",
        f"FAIL {idle}: action 314 (buy_shares): Player 4 has $64, the share costs $70",
        "     routes: 15 runs; money left on the table: $60",
        "1/2 matched",
    ]
    assert main(["import-18xx", str(idle), "--routes", "--format", "json"]) == 1
    (doc,) = json.loads(capsys.readouterr().out)["files"]
    assert doc["routes"]["left"] == 60 and len(doc["routes"]["runs"]) == 15
    assert doc["routes"]["runs"][3] == {
        "action_id": 115,
        "corporation": "B&O",
        "logged": 80,
        "best": 140,
        "left": 60,
        "proven": True,
    }
    assert main(["import-18xx", str(idle), "--format", "json"]) == 1
    assert "routes" not in json.loads(capsys.readouterr().out)["files"][0]
