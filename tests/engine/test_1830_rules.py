"""1830 rules that the 18xx.games corpus brought to light, each as a scenario.

Games start from scenario.second_stock_round(): B&M (president C) has floated at $100 and
stands at $90; NYC is started at $67 by D with B at 10%; stock round 2 starts with B.
"""

from __future__ import annotations

import pytest
from scenario import run, second_stock_round

from eighteen import Game, IllegalAction
from eighteen.engine import market, network
from eighteen.engine.actions import BuyTrain, Dividend, LayTile, Pass, PlaceToken, RunRoutes


def erie_floated(g: Game) -> None:
    """Setup: D holds 60% of ERIE, started at $67 and floated with $670; phase 3."""
    for cert in ("ERIE_0", "ERIE_1", "ERIE_2", "ERIE_3", "ERIE_4"):
        g.state.certs[cert] = "D"
    cs = g.state.corporations["ERIE"]
    cs.par, cs.president, cs.floated, cs.cash = 67, "D", True, 670
    market.place(g, "ERIE", g.tables.par_cell(67))
    g.state.phase = g.tables.phase_index("3")
    g.invalidate_caches()


def to_turn_of(g: Game, corp: str) -> None:
    while g.acting() != corp:
        acts = g.legal_actions()
        g.apply(next(a for a in acts if isinstance(a, Pass | RunRoutes | Dividend | BuyTrain)))


def tokens(g: Game) -> list[PlaceToken]:
    return [a for a in g.legal_actions() if isinstance(a, PlaceToken)]


def test_erie_picks_its_home_city_once_track_lies_on_e11() -> None:
    """Seed 002: Erie picks one of the two cities of Dunkirk & Buffalo and may not move it
    after.  The pick waits until a tile with track lies on E11; ERIE may build there
    meanwhile, and no other corporation may token either city before."""
    g = second_stock_round()
    erie_floated(g)
    run(g, Pass("B"), Pass("C"), Pass("D"), Pass("A"))
    assert g.state.round.order == ["B&M", "ERIE"]
    to_turn_of(g, "ERIE")
    assert g.state.home_waiting == ["ERIE"]
    assert g.state.map.tokens.get("E11", [[], []]) == [[], []]
    assert network.reserved(g)["E11"] == ["ERIE"]  # both cities held for it
    lays = [a for a in g.legal_actions() if isinstance(a, LayTile)]
    assert lays == [LayTile("ERIE", "E11", "59", r) for r in (0, 2, 3, 4)]
    run(g, LayTile("ERIE", "E11", "59", 3))
    # the pick comes at once, before the rest of the turn
    assert g.acting() == "ERIE"
    assert tokens(g) == [PlaceToken("ERIE", "E11", 0), PlaceToken("ERIE", "E11", 1)]
    with pytest.raises(IllegalAction, match="E11 city 2 is not a home city option"):
        g.apply(PlaceToken("ERIE", "E11", 2))
    run(g, PlaceToken("ERIE", "E11", 1))
    assert g.state.map.tokens["E11"] == [[], ["ERIE"]]
    assert g.state.home_waiting == [] and g.state.corporations["ERIE"].tokens_placed == 1
    assert "E11" not in network.reserved(g)


def test_a_waiting_home_falls_due_in_another_corporations_turn() -> None:
    """When another corporation's tile puts track on E11, ERIE picks its city right away,
    out of turn; then the other corporation's turn goes on."""
    g = second_stock_round()
    erie_floated(g)
    run(g, Pass("B"), Pass("C"), Pass("D"), Pass("A"))
    to_turn_of(g, "ERIE")
    while g.state.round.kind == "operating" and g.acting() == "ERIE":
        acts = g.legal_actions()
        g.apply(next(a for a in acts if isinstance(a, Pass | RunRoutes | Dividend | BuyTrain)))
    assert g.state.home_waiting == ["ERIE"]
    # setup: some corporation's tile with track now lies on E11
    network.board(g).lay_tile(g.state.map, "E11", "59", 0)
    g.invalidate_caches()
    assert g.acting() == "ERIE"
    assert tokens(g) == [PlaceToken("ERIE", "E11", 0), PlaceToken("ERIE", "E11", 1)]
    g.apply(PlaceToken("ERIE", "E11", 0))
    assert g.state.map.tokens["E11"] == [["ERIE"], []]
    assert g.acting() != "ERIE"
