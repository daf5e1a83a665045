"""The capability table shared by the engine (refusal) and `eighteen validate` (W198)."""

from __future__ import annotations

import copy

import pytest

import eighteen
from eighteen.capabilities import approximated, findings, unsupported
from eighteen.engine.game import Game
from eighteen.engine.tables import Tables


@pytest.mark.parametrize("title", ["1830", "1833ne"])
def test_shipped_titles_are_runnable(title: str) -> None:
    assert unsupported(eighteen.load_title(title).data) == []


def test_shipped_titles_are_played_in_full() -> None:
    assert approximated(eighteen.load_title("1833ne").data) == []
    data = copy.deepcopy(eighteen.load_title("1833ne").data)
    data["bonuses"][0]["kind"] = "teleport"
    assert approximated(data) == ["bonus BOS-MTL of kind teleport is not scored yet"]


def test_findings_name_their_place_and_the_engine_refuses() -> None:
    data = copy.deepcopy(eighteen.load_title("1833ne").data)
    data["rules"]["lay_cost_rule"] = "max"
    data["privates"][0]["abilities"].append({"type": "extra_token", "hexes": ["H23"]})
    data["phases"][1]["events"] = ["close_everything"]
    assert findings(data) == [
        ("title", ("rules", "lay_cost_rule"), "rules.lay_cost_rule = 'max'"),
        ("privates", ("privates", 0, "abilities", 1, "type"), "private P1 ability extra_token"),
        ("phases", ("phases", 1, "events", 0), "event close_everything"),
    ]
    with pytest.raises(ValueError, match="cannot run this title yet"):
        Game.new(Tables(data), ["A", "B", "C"])
