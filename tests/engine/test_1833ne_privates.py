"""1833NE private companies and ferries (seed 003, "プライベート会社", "フェイズ" and steps
14-16 of the worked example): sale to corporations for $1 to face value with P6's fee,
the phase-III and phase-IV life cycle, P2's hold on B&L and its free lay, P3's two free
tiles, and ferries with the moving new-ferry bonus, P5's doubling and their departure."""

from __future__ import annotations

from typing import cast

import pytest
from ne_scenario import act, all_pass, auction, lay, new_game, opening, pass_to
from scenario import agreed

from eighteen import Game
from eighteen.engine import ferries, network, phase_change, phases, privates
from eighteen.engine.actions import (
    BuyCompany,
    BuyFerry,
    ChooseFerry,
    IllegalAction,
    LayTile,
    Par,
    Pass,
)
from eighteen.engine.ferries import FerryBonus
from eighteen.engine.rounds.or_trains import company_options


def _enter(g: Game, phase: str) -> None:
    """Start a phase as its first train would (events, closings, ferries)."""
    on = g.tables.phases[g.tables.phase_index(phase)].on
    assert on is not None, phase  # (a phase a train starts, not the first)
    g.state.bought_types.append(on)
    phase_change.on_train_bought(g, on)
    g.invalidate_caches()


def _give(g: Game, pid: str, owner: str) -> None:
    g.state.privates[pid].owner = owner
    g.invalidate_caches()


def test_corporations_buy_privates_from_one_dollar_to_face_value() -> None:
    g = opening()
    assert g.acting() == "B&W"
    opts = {pid: (lo, hi) for pid, lo, hi in company_options(g)}
    assert opts["P3"] == (1, 50) and opts["P1"] == (1, 15)
    assert opts["P6"] == (1, 80)  # $160 treasury: $80 + the $40 fee fits
    with pytest.raises(IllegalAction, match="for \\$1 to \\$50"):
        g.apply(BuyCompany("B&W", "P3", 51))
    cash = g.state.corporations["B&W"].cash
    bank = g.state.bank
    agreed(g, BuyCompany("B&W", "P6", 80), "D")  # (from D, who accepts)
    # the seller gets the price, the bank the $40 fee
    assert g.state.corporations["B&W"].cash == cash - 120
    assert g.state.bank == bank + 40
    assert g.state.privates["P6"].owner == "B&W"


def test_phase_three_and_four_life_cycle() -> None:
    g = opening()
    _give(g, "P3", "B&W")
    _give(g, "P4", "RR")
    _give(g, "P6", "CV")  # P1, P2, P5 stay with players
    _enter(g, "II")
    _enter(g, "III")
    ps = g.state.privates
    # player-owned privates close; P1 and P2 close whoever owns them
    assert ps["P1"].closed and ps["P2"].closed and ps["P5"].closed
    # corporation-owned P3, P4, P6 flip: open, powers kept, no revenue
    assert not any(ps[p].closed for p in ("P3", "P4", "P6"))
    assert all(privates.flipped(g, p) for p in ("P3", "P4", "P6"))
    bank = g.state.bank
    privates.pay_revenue(g)
    assert g.state.bank == bank
    assert phases.privates_buyable(g) is False
    _enter(g, "IV")
    assert ps["P3"].closed and ps["P4"].closed and not ps["P6"].closed


def test_lowell_holds_back_boston_and_lowell() -> None:
    g = opening()
    assert privates.track_restricted(g, "B&L") and privates.routes_restricted(g, "B&L")
    assert not privates.track_restricted(g, "B&W")
    _give(g, "P2", "RR")
    assert not privates.track_restricted(g, "B&L") and not privates.routes_restricted(g, "B&L")
    _give(g, "P2", "A")
    _enter(g, "II")
    assert not privates.track_restricted(g, "B&L")  # phase I only
    assert privates.routes_restricted(g, "B&L")  # until Boston is upgraded
    g.state.map.tiles["G22"] = ("N23", 0)
    assert not privates.routes_restricted(g, "B&L")


def test_lowell_free_tile_in_the_round_of_purchase() -> None:
    g = new_game()
    auction(g)  # C owns P2
    act(g, Par("A", "B&L", 100))
    all_pass(g)
    assert g.acting() == "B&L"
    assert not [a for a in g.legal_actions() if isinstance(a, LayTile)]
    agreed(g, BuyCompany("B&L", "P2", 40), "C")  # (from C, who accepts)
    pass_to(g, "B&L", "track")
    free = [a for a in g.legal_actions() if isinstance(a, LayTile) and a.private == "P2"]
    assert free and {a.hex for a in free} == {"G20"}
    cash = g.state.corporations["B&L"].cash
    act(g, free[0])
    assert g.state.corporations["B&L"].cash == cash  # no fee, no terrain
    # it was one of the turn's lays: one more (new or upgrade) remains
    assert g.state.round.lays != 0


def test_champlain_two_free_tiles_toward_montreal() -> None:
    g = opening()
    act(g, BuyCompany("B&W", "P3", 50))
    act(g, Pass("B&W"))  # no issue
    free = [a for a in g.legal_actions() if isinstance(a, LayTile) and a.private == "P3"]
    assert {a.hex for a in free} == {"C4", "C6"}
    b = network.board(g)
    for a in free:
        exits = b.tile_face(a.hex, a.tile, a.rotation).exits
        if a.hex == "C4":
            assert "B3" in {b.neighbors["C4"][e] for e in exits}
    cash = g.state.corporations["B&W"].cash
    c4 = next(a for a in free if a.hex == "C4")
    act(g, c4)
    assert g.state.corporations["B&W"].cash == cash  # free
    # the C6 tile must now join C4 when they are neighbours
    more = [a for a in g.legal_actions() if isinstance(a, LayTile) and a.private == "P3"]
    assert more and all(a.hex == "C6" for a in more)
    act(g, lay(g, "B&W", "F23", "58", ["G22", "E22"]))  # the normal lays remain


def test_champlain_second_tile_lapses_after_the_turn_of_the_first() -> None:
    g = opening()
    act(g, BuyCompany("B&W", "P3", 50))
    act(g, Pass("B&W"))  # no issue
    c4 = next(
        a
        for a in g.legal_actions()
        if isinstance(a, LayTile) and a.private == "P3" and a.hex == "C4"
    )
    act(g, c4)
    act(g, Pass("B&W"))  # the track step ends without the C6 tile
    while not (g.acting() == "B&W" and g.state.round.step == "track"):
        acts = g.legal_actions()
        passes = [a for a in acts if isinstance(a, Pass)]
        g.apply(passes[0] if passes else acts[0])
    # next turn: the power was used in the turn of the first tile; C6 lapsed
    assert not any(isinstance(a, LayTile) and a.private == "P3" for a in g.legal_actions())
    assert "C6" not in g.state.map.tiles


def test_luxury_bought_with_two_ferries_doubles_the_one_chosen() -> None:
    g = opening()
    for port in ("C26", "B27"):  # B&W bought New Haven's ferry, then Bridgeport's
        g.state.ferries[port] = "B&W"
        g.state.ferry_order.append(port)
    g.invalidate_caches()
    agreed(g, BuyCompany("B&W", "P5", 70), "C")  # from C, at face
    # B&W holds P5 and two ferries: it names the one P5 doubles before its turn goes on
    # (only its anytime private purchases may come first)
    acts = g.legal_actions()
    assert [a for a in acts if not isinstance(a, BuyCompany)] == [
        ChooseFerry("B&W", "P5", "C26"),
        ChooseFerry("B&W", "P5", "B27"),
    ]
    with pytest.raises(IllegalAction):
        g.apply(Pass("B&W"))
    act(g, ChooseFerry("B&W", "P5", "B27"))
    assert g.state.ferry_boost == {"P5": "B27"}
    # Bridgeport $20 with the new-ferry bonus $20, doubled; New Haven $20
    assert ferries.value(g, "B27") == 80 and ferries.value(g, "C26") == 20
    assert g.state.corporations["B&W"].cash == 160 - 70
    g.state.ferries["E26"] = "B&W"  # a third ferry: the assignment never moves
    g.state.ferry_order.append("E26")
    ferries.bind_boosts(g)
    g.invalidate_caches()
    assert g.state.ferry_boost == {"P5": "B27"}
    assert not any(isinstance(a, ChooseFerry) for a in g.legal_actions())


def test_ferries_new_bonus_moves_and_luxury_doubles() -> None:
    g = opening()
    act(g, Pass("B&W"))
    pass_to(g, "B&W", "ferry")
    act(g, BuyFerry("B&W", "I26"))
    assert ferries.value(g, "I26") == 20 + 20  # port + new-ferry bonus
    pass_to_next = [a for a in g.legal_actions() if isinstance(a, BuyFerry)]
    assert pass_to_next == []  # one ferry a turn
    g.state.ferries["C26"] = "RR"
    g.state.ferry_order.append("C26")
    g.invalidate_caches()
    assert ferries.value(g, "I26") == 20 and ferries.value(g, "C26") == 40
    # P5 doubles its owner's first ferry, bonus included
    _give(g, "P5", "RR")
    ferries.bind_boosts(g)
    assert g.state.ferry_boost == {"P5": "C26"}
    assert ferries.value(g, "C26") == 80
    # (no base bonuses: only the ferries')
    bonuses = cast(list[FerryBonus], ferries.route_bonuses(g, "RR", []))
    assert [(b.port, b.value) for b in bonuses] == [("C26", 80)]
    # all five sold: the last one keeps its bonus for good; phase IV: they leave
    for port in ("B27", "E26", "G26"):
        g.state.ferries[port] = "CV"
        g.state.ferry_order.append(port)
    assert ferries.value(g, "G26") == 40 and ferries.value(g, "C26") == 40
    _enter(g, "II")
    _enter(g, "III")
    _enter(g, "IV")
    assert ferries.value(g, "G26") == 0 and ferries.options(g, "B&W") == []


def test_first_bid_may_equal_face_value() -> None:
    from eighteen.engine.actions import Bid

    g = new_game()
    act(g, Bid("A", "P3", 50))  # P1 is on offer: A bids face value on C&StL
    with pytest.raises(IllegalAction, match="at least \\$55"):
        g.apply(Bid("B", "P3", 50))
    act(g, Bid("B", "P1", 15), Bid("C", "P2", 40))
    # P3 is next on offer and has one bid: it goes to A for $50
    assert g.state.privates["P3"].owner == "A" and g.state.player("A").cash == 400


def test_ogdensburg_virtual_station_for_track() -> None:
    g = opening()
    act(g, Pass("B&W"))  # no issue: at the track step
    far = {"B5", "B9"}  # beyond the gray track leaving the Ogdensburg off-board (A6)
    assert not far & {a.hex for a in g.legal_actions() if isinstance(a, LayTile)}
    agreed(g, BuyCompany("B&W", "P4", 60), "B")  # (from B, who accepts)
    assert privates.virtual_stations(g, "B&W")[0].hex == "A6"
    assert far & {a.hex for a in g.legal_actions() if isinstance(a, LayTile)}
    # only the owner of the D&H private may run to A12
    assert privates.excluded_hexes(g, "B&W") == {"A12"}
    _give(g, "P6", "B&W")
    assert privates.excluded_hexes(g, "B&W") == set() and privates.excluded_hexes(g, "RR") == {
        "A12"
    }


def test_a12_stays_the_p6_owners_after_it_flips_or_closes() -> None:
    """1833NE rules, private companies: P6's power is permanent; only the corporation that
    owns it may run to A12, after P6 flips in phase III and even once it has closed."""
    g = opening()
    _give(g, "P6", "B&W")
    _enter(g, "III")
    assert privates.flipped(g, "P6") and not g.state.privates["P6"].closed
    assert privates.excluded_hexes(g, "B&W") == set()
    assert privates.excluded_hexes(g, "RR") == {"A12"}
    privates.close(g, "P6", "setup")
    g.invalidate_caches()
    assert privates.excluded_hexes(g, "B&W") == set()
    assert privates.excluded_hexes(g, "RR") == {"A12"}
    assert network.run_access(g, "RR")[1] == frozenset({"A12"})
