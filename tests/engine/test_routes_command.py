"""`eighteen routes SAVE [--corporation SYM]`: the best routes, explained, from a save."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import eighteen
from eighteen.cli import main
from eighteen.engine import network
from eighteen.engine.actions import RunRoutes
from eighteen.engine.bots import make_bots


def save_before_a_run(tmp_path: Path) -> tuple[Path, str, int]:
    """Play a greedy bot game until a corporation with two trains is about to run; save."""
    names = ["A", "B", "C", "D"]
    game = eighteen.Game.new(eighteen.load_title("1830"), players=names, seed=3)
    bots = make_bots("greedy", names, 3)
    for _ in range(5000):
        legal = game.legal_actions()
        runs = [a for a in legal if isinstance(a, RunRoutes)]
        if runs and len(runs[0].routes) >= 2:
            corp = runs[0].actor
            path = tmp_path / "game.json"
            path.write_text(json.dumps(game.to_json()))
            return path, corp, network.optimal_revenue(game, corp).total
        actor = game.acting()
        owner = actor
        if actor in game.state.corporations:
            owner = game.state.corporations[actor].president or actor
        game.apply(bots[owner].choose(game))  # type: ignore[index]
    raise AssertionError("no two-train run in 5000 actions")


def test_routes_of_the_operating_corporation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, corp, total = save_before_a_run(tmp_path)
    assert main(["routes", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{corp}: trains ")
    assert sum(line.startswith("train ") for line in out) >= 2
    assert any(line.startswith("  total ") for line in out)
    assert f"total ${total}" in out
    assert out[-1].startswith("optimal (searched ")


def test_routes_of_a_named_corporation_and_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, corp, _ = save_before_a_run(tmp_path)
    other = "CPR" if corp != "CPR" else "PRR"
    assert main(["routes", str(path), "--corporation", other]) == 0
    assert capsys.readouterr().out.startswith(f"{other}: trains ")
    assert main(["routes", str(path), "--corporation", "XYZ"]) == 1
    assert "unknown corporation 'XYZ'" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main(["routes", str(bad)]) == 1
    assert "not a save" in capsys.readouterr().err
