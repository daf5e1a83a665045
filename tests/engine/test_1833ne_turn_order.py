"""1833NE operating turn, step 2 (seed 003, "運営ラウンド" 2: 「黄1枚 + 黄かアップグレード1枚
（各$20以上）、駅トークン（$80）、フェリー（$40）」): the tiles, the station and the ferry
form one step, taken in any order (rules.turn_any_order); a pass ends only the part being
served (track, then station, then ferry)."""

from __future__ import annotations

import pytest
from ne_scenario import act, lay, opening

from eighteen import Game
from eighteen.engine.actions import BuyFerry, IllegalAction, LayTile, Pass, PlaceToken


def _cash(g: Game, corp: str) -> int:
    return g.state.corporations[corp].cash


def test_ferry_before_the_tiles_then_the_station() -> None:
    g = opening()
    act(g, Pass("B&W"))  # no issue
    assert g.state.round.step == "track"
    acts = g.legal_actions()
    assert BuyFerry("B&W", "C26") in acts and any(isinstance(a, LayTile) for a in acts)
    # the New Haven ferry ($40) first, in the middle of the track step
    act(g, BuyFerry("B&W", "C26"))
    assert _cash(g, "B&W") == 120 and g.state.ferries["C26"] == "B&W"
    assert g.state.round.step == "track"
    assert not any(isinstance(a, BuyFerry) for a in g.legal_actions())  # one ferry a turn
    # then two yellow tiles west of Boston ($20 each), then the Worcester station ($40)
    act(g, lay(g, "B&W", "F23", "58", ["G22", "E22"]))
    act(g, lay(g, "B&W", "E22", "57", ["F23"]))
    assert _cash(g, "B&W") == 80
    assert g.state.round.step == "token"  # no tile lay left
    act(g, PlaceToken("B&W", "E22", 0))
    assert _cash(g, "B&W") == 40
    assert any("B&W" in c for c in g.state.map.tokens["E22"])


def test_a_pass_ends_only_the_part_served() -> None:
    g = opening()
    act(g, Pass("B&W"))
    act(g, lay(g, "B&W", "F23", "58", ["G22", "E22"]))
    second = lay(g, "B&W", "E22", "57", ["F23"])
    act(g, Pass("B&W"))  # the track ends with one tile: no second one after the pass
    assert g.state.round.step == "ferry"  # no station within reach: the ferry is served
    assert not any(isinstance(a, LayTile) for a in g.legal_actions())
    with pytest.raises(IllegalAction):
        g.apply(second)
    act(g, BuyFerry("B&W", "C26"))
    assert _cash(g, "B&W") == 100 and g.state.round.step != "ferry"


def test_station_before_the_tiles() -> None:
    g = opening()
    act(g, Pass("B&W"))
    act(g, lay(g, "B&W", "F23", "58", ["G22", "E22"]))
    act(g, lay(g, "B&W", "E22", "57", ["F23"]))
    act(g, Pass("B&W"))  # no station this turn
    assert g.state.round.step == "ferry"
    act(g, Pass("B&W"))  # no ferry
    # the rest of the round; B&W comes back with $220, its treasury at the seed's step 10
    while not (g.acting() == "B&W" and g.state.round.step == "track"):
        acts = g.legal_actions()
        passes = [a for a in acts if isinstance(a, Pass)]
        g.apply(passes[0] if passes else acts[0])
    assert g.state.round.number == 2
    bw = g.state.corporations["B&W"]
    g.state.bank += bw.cash - 220
    bw.cash = 220
    g.invalidate_caches()
    # the Worcester station first, for half the usual $80 (seed step 11: $220 -> $180) ...
    act(g, PlaceToken("B&W", "E22", 0))
    assert _cash(g, "B&W") == 180 and g.state.round.step == "track"
    # ... then a yellow tile in Springfield ($20), which the station did not end
    act(g, lay(g, "B&W", "D21", "57", ["E22"]))
    assert _cash(g, "B&W") == 160 and "D21" in g.state.map.tiles
