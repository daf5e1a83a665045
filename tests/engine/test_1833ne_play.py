"""`eighteen play 1833ne --players 4 --seed N` plays a whole game, and its save replays to
the same result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eighteen.cli import main


def test_play_1833ne_to_the_end(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    code = main(["play", "1833ne", "--players", "4", "--seed", "3", "--save", str(save)])
    out = capsys.readouterr().out
    assert code == 0
    ranking = out[out.index("result (") :]
    assert "result (bank broken)" in ranking or "result (bankruptcy)" in ranking
    assert main(["replay", str(save)]) == 0
    assert capsys.readouterr().out == ranking
    assert json.loads(save.read_text())["title"] == "1833ne"
