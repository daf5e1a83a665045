"""Audit of the refusals of tile lays, station tokens and home tokens in the operating
round against 18xx.games' 1830 (tobymao/18xx, as the importer plays it).

Each test pins one corner a seeded random player reaches: the lay or token our engine
accepts (with its exact cost, tile, rotation and tokens) or refuses (IllegalAction, the
state unchanged).

Games start from scenario.second_stock_round(): B&M (home E23 Boston, 2 tokens: $0, $40)
has floated at $100, owns a 2-train and $920 and stands at $90; NYC is started by D
but not floated; stock round 2 starts with B.  Setups edit the state (tiles laid with
Board.lay_tile, owners, phases) before the round is played on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest
from corpus_18xx import FIXTURES, at, export
from scenario import is_offer, run, second_stock_round

from eighteen import Game, IllegalAction
from eighteen.engine import market, network, privates
from eighteen.engine.actions import (
    BuyTrain,
    Dividend,
    LayTile,
    Pass,
    PlaceToken,
    RunRoutes,
)
from eighteen.engine.rounds.or_token import free_station_options, next_token_cost, token_options
from eighteen.io.games18xx import Importer, filter_actions

# -- setups -------------------------------------------------------------------------------


def chain(*setups: Callable[[Game], None]) -> Callable[[Game], None]:
    """One setup that runs ``setups`` in order."""

    def run_all(g: Game) -> None:
        for f in setups:
            f(g)

    return run_all


def float_corp(g: Game, corp: str, president: str, par: int) -> None:
    """Setup: ``president`` holds 60% of ``corp`` (president's share and 4 more), started
    at ``par`` and floated with 10 x par."""
    for i in range(5):
        g.state.certs[f"{corp}_{i}"] = president
    cs = g.state.corporations[corp]
    cs.par, cs.president, cs.floated, cs.cash = par, president, True, 10 * par
    cell = g.tables.par_cell(par)
    assert cell is not None
    market.place(g, corp, cell)


def lay(g: Game, *tiles: tuple[str, str, int]) -> None:
    """Setup: (hex, tile, rotation) laid on the map, as if by earlier turns."""
    b = network.board(g)
    for hex_id, tile, rotation in tiles:
        b.lay_tile(g.state.map, hex_id, tile, rotation)
    g.invalidate_caches()


def operating(
    setup: Callable[[Game], None] | None = None, phase: str = "2", corp: str = "B&M"
) -> Game:
    """Stock round 2 (after ``setup`` and the ``phase`` set) passes; the operating round
    runs on (plain choices) until ``corp`` acts."""
    g = second_stock_round()
    g.state.phase = g.tables.phase_index(phase)
    if setup is not None:
        setup(g)
    g.invalidate_caches()
    run(g, Pass("B"), Pass("C"), Pass("D"), Pass("A"))
    skip_until(g, lambda g: g.acting() == corp)
    return g


def skip_until(g: Game, done: Callable[[Game], bool]) -> None:
    """Take the plain choices (pass, the offered run, pay out, a train) until ``done``;
    never a deal another player must answer (a train of a corporation he presides)."""
    while not done(g):
        acts = g.legal_actions()
        g.apply(
            next(
                a
                for a in acts
                if isinstance(a, Pass | RunRoutes | Dividend | BuyTrain) and not is_offer(g, a)
            )
        )


def refused(g: Game, action: LayTile | PlaceToken, match: str | None = None) -> None:
    """The action is refused and the state is left as it was."""
    before = g.state_hash()
    with pytest.raises(IllegalAction, match=match):
        g.apply(action)
    assert g.state_hash() == before


def lays(g: Game) -> set[tuple[str, str, int, str | None]]:
    return {
        (a.hex, a.tile, a.rotation, a.private) for a in g.legal_actions() if isinstance(a, LayTile)
    }


def importer(g: Game) -> Importer:
    """An importer replaying logged 18xx.games actions on ``g`` (its players A-D)."""
    imp = Importer({"players": [{"id": p, "name": p} for p in "ABCD"], "actions": []}, g.tables)
    imp.game = g
    return imp


def logged_lay(entity: str, hex_id: str, tile: str, rotation: int) -> dict[str, object]:
    """A logged lay_tile (18xx.games' form: a company lays for its owner)."""
    kind = "company" if entity in ("CS", "DH") else "corporation"
    return {"type": "lay_tile", "entity": entity, "entity_type": kind, "hex": hex_id,
            "tile": tile, "rotation": rotation}  # fmt: skip


def logged_token(entity: str, city: str, tokener: str | None = None) -> dict[str, object]:
    """A logged place_token (``tokener``: the newer exports' field, when given)."""
    kind = "company" if entity in ("CS", "DH") else "corporation"
    out: dict[str, object] = {"type": "place_token", "entity": entity, "entity_type": kind,
                              "city": city, "slot": 0}  # fmt: skip
    if tokener is not None:
        out["tokener"] = tokener
    return out


def replay(imp: Importer, *actions: dict[str, object]) -> None:
    """Replay logged actions (ids 1, 2, ...) one by one."""
    for i, a in enumerate(actions, 1):
        imp.step(i, {"id": i, **a})


# -- tile lays: connection, terrain, phase, supply ------------------------------------------


def test_a_lay_off_the_network_is_refused() -> None:
    g = operating()
    assert g.state.round.step == "track"
    refused(g, LayTile("B&M", "H14", "9", 1), "not a legal lay now")
    refused(g, LayTile("B&M", "E21", "9", 1))  # beside Boston, but no Boston track toward it


def test_terrain_cost_is_paid_in_full_or_the_lay_is_refused() -> None:
    g = operating(lambda g: setattr(g.state.corporations["B&M"], "cash", 119))
    refused(g, LayTile("B&M", "D22", "8", 2))  # the $120 mountain
    g.state.corporations["B&M"].cash = 120
    g.state.bank -= 1
    g.invalidate_caches()
    run(g, LayTile("B&M", "D22", "8", 2))
    assert g.state.corporations["B&M"].cash == 0
    assert g.state.map.tiles["D22"] == ("8", 2)


def test_a_green_upgrade_waits_for_phase_three() -> None:
    g = operating()
    refused(g, LayTile("B&M", "E23", "53", 1))  # Boston: green tile in phase 2
    g = operating(phase="3")
    assert {(h, t, r) for h, t, r, _ in lays(g) if h == "E23"} == {("E23", "53", 1)}
    refused(g, LayTile("B&M", "E23", "53", 0))  # exit 4 leads off the map
    run(g, LayTile("B&M", "E23", "53", 3))  # same track as rotation 1
    assert g.state.map.tiles["E23"] == ("53", 3)
    assert g.state.map.tokens["E23"] == [["B&M"]]  # the home token moves along
    assert g.state.corporations["B&M"].cash == 920  # Boston has no terrain


def test_the_last_copy_of_a_tile() -> None:
    seven = [("B12", "8", 0), ("B14", "8", 0), ("C7", "8", 0), ("C9", "8", 0)]
    seven += [("D8", "8", 0), ("E3", "8", 0), ("G3", "8", 0)]
    g = operating(lambda g: lay(g, *seven))
    run(g, LayTile("B&M", "D22", "8", 2))  # the eighth and last 8
    assert g.state.map.tiles["D22"] == ("8", 2)
    g = operating(lambda g: lay(g, *seven, ("G5", "8", 0)))
    refused(g, LayTile("B&M", "D22", "8", 2))  # none left
    run(g, LayTile("B&M", "D22", "7", 3))  # another tile still can
    assert g.state.corporations["B&M"].cash == 920 - 120


def test_a_tile_upgraded_away_goes_back_to_the_supply() -> None:
    eight = [("B12", "8", 0), ("B14", "8", 0), ("C7", "8", 0), ("C9", "8", 0)]
    eight += [("D8", "8", 0), ("E3", "8", 0), ("G3", "8", 0), ("G5", "8", 0)]

    def setup(g: Game) -> None:
        lay(g, *eight)
        lay(g, ("G5", "29", 0))  # setup: G5's 8 upgraded away

    g = operating(setup, phase="3")
    run(g, LayTile("B&M", "D22", "8", 2))
    assert g.state.map.tiles["D22"] == ("8", 2)


def test_upgrades_keep_the_old_track() -> None:
    # B&M's track: Boston - D22 (8 at rotation 2: edges 2 and 4) - D24
    g = operating(lambda g: lay(g, ("D22", "8", 2)), phase="3")
    got = {(t, r) for h, t, r, _ in lays(g) if h == "D22"}
    assert got == {
        ("16", 1),
        ("16", 2),
        ("19", 0),
        ("23", 4),
        ("24", 2),
        ("25", 2),
        ("25", 4),
        ("28", 4),
        ("29", 2),
    }
    refused(g, LayTile("B&M", "D22", "24", 0))  # loses the track to D24
    run(g, LayTile("B&M", "D22", "24", 2))
    assert g.state.map.tiles["D22"] == ("24", 2)
    assert g.state.corporations["B&M"].cash == 920  # the mountain was paid by the 8


def test_new_york_takes_54_at_rotation_zero_only_and_pays_the_water() -> None:
    def setup(g: Game) -> None:
        float_corp(g, "NYNH", "A", 100)

    g = operating(setup, phase="3", corp="NYNH")
    assert g.state.map.tokens["G19"] == [["NYNH"], []]  # its home: the city toward F20
    assert {(t, r) for h, t, r, _ in lays(g) if h == "G19"} == {("54", 0)}
    refused(g, LayTile("NYNH", "G19", "54", 3))
    run(g, LayTile("NYNH", "G19", "54", 0))
    assert g.state.corporations["NYNH"].cash == 1000 - 80
    # the home token moves to the 54's city joined to edges 2 and 3 (its old exit 3)
    assert g.state.map.tokens["G19"] == [[], ["NYNH"]]


def test_oo_brown_upgrade_keeps_each_city_and_its_token() -> None:
    """Buffalo's 59 (rotation 0: city 0 toward F10, city 1 toward D10) with B&M and ERIE
    in its cities: ERIE upgrades to 64 only where the cities stay apart."""

    def setup(g: Game) -> None:
        _erie()(g)
        lay(g, ("E11", "59", 0))
        g.state.map.tokens["E11"] = [["B&M"], ["ERIE"]]
        cs = g.state.corporations["ERIE"]
        cs.home_placed, cs.tokens_placed = True, 1

    g = operating(setup, phase="5", corp="ERIE")
    got = {(t, r) for h, t, r, _ in lays(g) if h == "E11"}
    assert got == {("64", 2), ("65", 0), ("67", 0), ("67", 2), ("68", 2)}  # 66 needs edge 1
    refused(g, LayTile("ERIE", "E11", "64", 0))  # both old cities in one: refused
    run(g, LayTile("ERIE", "E11", "64", 2))
    assert g.state.map.tiles["E11"] == ("64", 2)
    assert g.state.map.tokens["E11"] == [["ERIE"], ["B&M"]]  # each follows its track
    assert g.state.corporations["ERIE"].cash == 1000


def test_yellow_is_still_laid_in_phase_d() -> None:
    g = operating(phase="D")
    run(g, LayTile("B&M", "D22", "8", 2))
    assert g.state.map.tiles["D22"] == ("8", 2)


def test_home_token_after_its_hex_was_upgraded_before_the_first_turn() -> None:
    def setup(g: Game) -> None:
        float_corp(g, "NYNH", "A", 100)
        lay(g, ("G19", "54", 0))

    g = operating(setup, phase="3", corp="NYNH")
    assert g.state.map.tokens["G19"] == [[], ["NYNH"]]
    assert g.state.corporations["NYNH"].tokens_placed == 1
    assert g.state.corporations["NYNH"].cash == 1000


# -- lays through cities full of other corporations' tokens -------------------------------


def _providence(nyc_token: bool) -> Callable[[Game], None]:
    """Setup: a 57 on Providence (F22, rotation 1: toward Mansfield and New Haven), with
    NYC's token filling its one slot when ``nyc_token``."""

    def setup(g: Game) -> None:
        lay(g, ("F22", "57", 1))
        if nyc_token:
            g.state.map.tokens["F22"] = [["NYC"]]

    return setup


def test_no_lay_beyond_a_city_full_of_another_corporations_tokens() -> None:
    g = operating(_providence(nyc_token=False), phase="3")
    assert ("F20", "1", 0, None) in lays(g)
    g = operating(_providence(nyc_token=True), phase="3")
    assert not any(h == "F20" for h, _, _, _ in lays(g))
    refused(g, LayTile("B&M", "F20", "1", 0))
    refused(g, PlaceToken("B&M", "F22", 0))
    # the full city itself may be upgraded: B&M reaches it from Mansfield
    run(g, LayTile("B&M", "F22", "15", 1))
    assert g.state.map.tiles["F22"] == ("15", 1)
    assert g.state.map.tokens["F22"] == [["NYC"]]
    assert g.state.corporations["B&M"].cash == 920  # the water was paid by the 57


def test_a_reserved_empty_home_slot_neither_blocks_nor_takes_a_token() -> None:
    """Albany (E19) is NYC's home; NYC has not operated: B&M runs through the empty,
    reserved city and builds beyond it, but may not token it while it has one slot."""

    def setup(g: Game) -> None:
        lay(g, ("E23", "53", 1), ("E21", "9", 1), ("E19", "57", 1))

    g = operating(setup, phase="3")
    refused(g, PlaceToken("B&M", "E19", 0))
    run(g, LayTile("B&M", "E17", "9", 1))  # beyond Albany, on the $120 mountain
    assert g.state.corporations["B&M"].cash == 920 - 120
    assert not any(isinstance(a, PlaceToken) for a in g.legal_actions())

    def two_slots(g: Game) -> None:
        setup(g)
        lay(g, ("E19", "14", 1))

    g = operating(two_slots, phase="3")
    run(g, Pass("B&M"))  # no lay
    run(g, PlaceToken("B&M", "E19", 0))  # the slot NYC's reservation leaves free
    assert g.state.map.tokens["E19"] == [["B&M"]]
    assert g.state.corporations["B&M"].cash == 920 - 40


def test_erie_reservation_closes_both_cities_of_buffalo() -> None:
    g = operating(lambda g: lay(g, ("E11", "59", 0)), phase="3")
    assert network.reserved(g)["E11"] == ["ERIE"]
    assert list(network.token_options(g, "B&M", hexes={"E11"}, connected=False)) == []
    assert list(network.token_options(g, "ERIE", hexes={"E11"}, connected=False)) == [
        ("E11", 0),
        ("E11", 1),
    ]


# -- station tokens -------------------------------------------------------------------------


def _rochester(g: Game) -> None:
    """Setup: NYC (4 tokens: $0, $40, $100, $100) floated at $100; track from Albany
    west to Rochester (D14): E19 57, E17 9, E15 9, E13 7."""
    float_corp(g, "NYC", "D", 100)
    lay(g, ("E19", "57", 1), ("E17", "9", 1), ("E15", "9", 1), ("E13", "7", 3))


def test_token_prices_by_count() -> None:
    g = operating(_rochester, phase="3", corp="NYC")
    assert g.state.map.tokens["E19"] == [["NYC"]]  # its home, free
    run(g, Pass("NYC"))
    assert token_options(g) == [("D14", 0, 40)]
    run(g, PlaceToken("NYC", "D14", 0))
    assert g.state.corporations["NYC"].cash == 1000 - 40
    assert next_token_cost(g, "NYC") == 100


def test_the_third_and_fourth_tokens_cost_100() -> None:
    def setup(g: Game) -> None:
        _rochester(g)
        g.state.corporations["NYC"].tokens_placed = 2  # setup: one placed elsewhere

    g = operating(setup, phase="3", corp="NYC")
    run(g, Pass("NYC"), PlaceToken("NYC", "D14", 0))
    assert g.state.corporations["NYC"].cash == 1000 - 100
    assert g.state.corporations["NYC"].tokens_placed == 4
    assert next_token_cost(g, "NYC") is None


def test_a_token_the_corporation_cannot_pay_for_is_refused() -> None:
    def setup(g: Game) -> None:
        _rochester(g)
        g.state.corporations["NYC"].cash = 39

    g = operating(setup, phase="3", corp="NYC")
    run(g, Pass("NYC"))  # the track step; the token step has nothing to offer
    assert g.state.round.step != "token"
    refused(g, PlaceToken("NYC", "D14", 0))


def test_a_city_beyond_a_full_city_is_reached_through_the_corporations_own_token() -> None:
    """Rochester (one slot) holds PRR's token: NYC may not build beyond it (D16); with
    NYC's own token there instead, it may."""

    def full(owner: str) -> Callable[[Game], None]:
        def setup(g: Game) -> None:
            _rochester(g)
            g.state.map.tokens["D14"] = [[owner]]

        return setup

    g = operating(full("PRR"), phase="3", corp="NYC")
    refused(g, LayTile("NYC", "D16", "9", 1))
    g = operating(full("NYC"), phase="3", corp="NYC")
    run(g, LayTile("NYC", "D16", "9", 1))
    assert g.state.map.tiles["D16"] == ("9", 1)


# -- C&StL: its free extra tile on Burlington (B20) -------------------------------------------


def _cs_owned_by(owner: str) -> Callable[[Game], None]:
    def setup(g: Game) -> None:
        g.state.privates["CS"].owner = owner

    return setup


def test_cs_lays_burlington_unconnected_free_and_extra() -> None:
    g = operating(_cs_owned_by("B&M"), phase="3")
    assert {(t, r) for h, t, r, p in lays(g) if p == "CS"} == {
        ("3", 0),
        ("3", 1),
        ("3", 4),
        ("3", 5),
        ("4", 1),
        ("4", 2),
        ("58", 0),
        ("58", 2),
        ("58", 4),
        ("58", 5),
    }
    refused(g, LayTile("B&M", "B20", "3", 2, "CS"))  # edge 3: no hex beyond
    refused(g, LayTile("B&M", "B20", "57", 0, "CS"))  # not one of its tiles
    refused(g, LayTile("B&M", "B20", "58", 0))  # not a plain lay: B20 is off its network
    run(g, LayTile("B&M", "D22", "8", 2))  # the turn's lay first
    run(g, LayTile("B&M", "B20", "4", 5, "CS"))  # then the extra one, free
    assert g.state.map.tiles["B20"] == ("4", 5)
    assert g.state.corporations["B&M"].cash == 920 + 10 - 120  # CS's revenue, the mountain
    refused(g, LayTile("B&M", "B20", "4", 5, "CS"))  # once


def test_cs_lays_at_any_time_of_its_owners_turn() -> None:
    g = operating(_cs_owned_by("B&M"), phase="3")
    run(g, Pass("B&M"))  # no track
    skip_until(g, lambda g: g.state.round.step == "trains")
    assert g.acting() == "B&M"
    run(g, LayTile("B&M", "B20", "58", 0, "CS"))
    assert g.state.map.tiles["B20"] == ("58", 0)
    assert g.state.round.step == "trains"


def test_cs_is_refused_in_another_corporations_turn_or_on_a_built_hex() -> None:
    def setup(g: Game) -> None:
        _cs_owned_by("B&M")(g)
        float_corp(g, "NYC", "D", 100)  # NYC operates first

    g = operating(setup, phase="3", corp="NYC")
    refused(g, LayTile("B&M", "B20", "58", 0, "CS"))
    refused(g, LayTile("NYC", "B20", "58", 0, "CS"))
    g = operating(chain(_cs_owned_by("B&M"), lambda g: lay(g, ("B20", "3", 0))), phase="3")
    assert not any(p == "CS" for _, _, _, p in lays(g))
    refused(g, LayTile("B&M", "B20", "4", 1, "CS"))


def test_cs_owned_by_a_player_blocks_burlington() -> None:
    g = operating(phase="3")
    assert g.state.privates["CS"].owner == "B"
    assert "B20" in privates.blocked_hexes(g)
    refused(g, LayTile("B&M", "B20", "58", 0, "CS"))


# -- D&H: tile 57 on Scranton (F16) for the $120 mountain, then a free token ----------------


def _dh_owned_by(owner: str) -> Callable[[Game], None]:
    def setup(g: Game) -> None:
        g.state.privates["DH"].owner = owner

    return setup


def test_dh_lay_is_the_turns_lay_then_a_free_token() -> None:
    g = operating(_dh_owned_by("B&M"), phase="3")
    start = g.state.corporations["B&M"].cash
    assert start == 920 + 15  # DH's revenue
    assert {(t, r) for h, t, r, p in lays(g) if p == "DH"} == {("57", 0), ("57", 1), ("57", 2)}
    run(g, LayTile("B&M", "F16", "57", 4, "DH"))  # same track as rotation 1
    assert g.state.map.tiles["F16"] == ("57", 4)
    assert g.state.corporations["B&M"].cash == start - 120
    assert not any(isinstance(a, LayTile) for a in g.legal_actions())  # the turn's one lay
    assert free_station_options(g) == [("F16", 0)]
    offered = [a for a in g.legal_actions() if a.type != "buy_company"]  # (any time)
    assert offered == [PlaceToken("B&M", "F16", 0), Pass("B&M")]  # decided first
    run(g, PlaceToken("B&M", "F16", 0))
    assert g.state.map.tokens["F16"] == [["B&M"]]
    assert g.state.corporations["B&M"].cash == start - 120  # the token is free
    assert g.state.corporations["B&M"].tokens_placed == 2  # its last one
    assert 1 in g.state.privates["DH"].used


def test_dh_is_refused_after_the_turns_lay() -> None:
    g = operating(_dh_owned_by("B&M"), phase="3")
    run(g, LayTile("B&M", "D22", "8", 2))
    refused(g, LayTile("B&M", "F16", "57", 1, "DH"))


def test_dh_needs_the_120_and_an_empty_scranton() -> None:
    def poor(g: Game) -> None:
        _dh_owned_by("B&M")(g)
        g.state.corporations["B&M"].cash = 104  # + $15 revenue: $119

    g = operating(poor, phase="3")
    refused(g, LayTile("B&M", "F16", "57", 1, "DH"))
    g = operating(chain(_dh_owned_by("B&M"), lambda g: lay(g, ("F16", "57", 0))), phase="3")
    assert not any(p == "DH" for _, _, _, p in lays(g))
    refused(g, LayTile("B&M", "F16", "57", 1, "DH"))


def test_dh_token_is_free_when_the_lay_took_the_last_dollar() -> None:
    def setup(g: Game) -> None:
        _dh_owned_by("B&M")(g)
        g.state.corporations["B&M"].cash = 105  # + $15 revenue: $120

    g = operating(setup, phase="3")
    run(g, LayTile("B&M", "F16", "57", 1, "DH"), PlaceToken("B&M", "F16", 0))
    assert g.state.corporations["B&M"].cash == 0
    assert g.state.map.tokens["F16"] == [["B&M"]]


def test_dh_lay_without_a_token_left() -> None:
    def setup(g: Game) -> None:
        _dh_owned_by("B&M")(g)
        g.state.corporations["B&M"].tokens_placed = 2  # setup: both placed

    g = operating(setup, phase="3")
    run(g, LayTile("B&M", "F16", "57", 1, "DH"))
    assert g.state.round.step not in ("track", "token")
    refused(g, PlaceToken("B&M", "F16", 0))
    assert "F16" not in g.state.map.tokens


def test_dh_owned_by_a_player_or_closed_lays_nothing() -> None:
    g = operating(phase="3")
    assert g.state.privates["DH"].owner == "C" and "F16" in privates.blocked_hexes(g)
    refused(g, LayTile("B&M", "F16", "57", 1, "DH"))

    def closed(g: Game) -> None:
        _dh_owned_by("B&M")(g)
        g.state.privates["DH"].closed = True

    g = operating(closed, phase="3")
    assert "F16" not in privates.blocked_hexes(g)
    refused(g, LayTile("B&M", "F16", "57", 1, "DH"))


def _nyc_beside_scranton(g: Game) -> None:
    """Setup: NYC floated at $100 owns DH; its track runs from Albany (57) over F18 (8)
    to Scranton's east side."""
    float_corp(g, "NYC", "D", 100)
    g.state.privates["DH"].owner = "NYC"
    lay(g, ("E19", "57", 0), ("F18", "8", 1))


def test_after_dh_closes_scranton_is_an_ordinary_paid_lay_and_token() -> None:
    def setup(g: Game) -> None:
        _nyc_beside_scranton(g)
        g.state.privates["DH"].closed = True

    g = operating(setup, phase="3", corp="NYC")
    refused(g, LayTile("NYC", "F16", "57", 1, "DH"))
    run(g, LayTile("NYC", "F16", "57", 1))
    assert g.state.corporations["NYC"].cash == 1000 - 120
    assert token_options(g) == [("F16", 0, 40)]
    run(g, PlaceToken("NYC", "F16", 0))
    assert g.state.corporations["NYC"].cash == 1000 - 160


def _imported_by_nyc(setup: Callable[[Game], None], *logged: dict[str, object]) -> tuple[Game, int]:
    """NYC's turn (phase 3) after ``setup``, the ``logged`` actions imported: the game and
    NYC's cash before them."""
    g = operating(setup, phase="3", corp="NYC")
    start = g.state.corporations["NYC"].cash
    replay(importer(g), *logged)
    return g, start


def test_import_dh_lay_and_token() -> None:
    g, start = _imported_by_nyc(
        _nyc_beside_scranton,
        logged_lay("DH", "F16", "57-0", 1),
        logged_token("DH", "57-0-0", "NYC"),
    )
    assert g.state.map.tokens["F16"] == [["NYC"]]
    assert g.state.corporations["NYC"].cash == start - 120


def _nyc_with_dh_and_cs(g: Game) -> None:
    """Setup: NYC beside Scranton owns CS as well (its extra lay in Burlington)."""
    _nyc_beside_scranton(g)
    g.state.privates["CS"].owner = "NYC"


def test_dh_free_station_is_decided_before_anything_else() -> None:
    """The free station comes right after the D&H lay (reference facts, DH): before
    CS's extra lay, which follows it."""
    g = operating(_nyc_with_dh_and_cs, phase="3", corp="NYC")
    start = g.state.corporations["NYC"].cash
    run(g, LayTile("NYC", "F16", "57", 1, "DH"))
    offered = [a for a in g.legal_actions() if a.type != "buy_company"]  # (any time)
    assert offered == [PlaceToken("NYC", "F16", 0), Pass("NYC")]
    refused(g, LayTile("NYC", "B20", "58", 2, "CS"), "lay_tile is not possible now")
    run(g, PlaceToken("NYC", "F16", 0), LayTile("NYC", "B20", "58", 2, "CS"))
    assert g.state.map.tokens["F16"] == [["NYC"]]
    assert g.state.map.tiles["B20"] == ("58", 2)
    assert g.state.corporations["NYC"].cash == start - 120  # the token and CS's lay free
    # no other city for its own station, no train to run: on to the trains
    assert g.state.round.step == "trains"


def test_dh_free_station_declined_then_scranton_tokened_at_its_price() -> None:
    """A pass declines the free station and only it: the turn's own station may follow,
    in Scranton too when the network reaches it, at the charter's price ($40)."""
    g = operating(_nyc_beside_scranton, phase="3", corp="NYC")
    start = g.state.corporations["NYC"].cash
    run(g, LayTile("NYC", "F16", "57", 1, "DH"), Pass("NYC"))
    assert g.state.round.free_token is None and g.state.round.step == "token"
    assert token_options(g) == [("F16", 0, 40)]
    run(g, PlaceToken("NYC", "F16", 0))
    assert g.state.corporations["NYC"].cash == start - 120 - 40


def test_import_dh_pass_then_the_corporations_token_in_scranton_at_its_price() -> None:
    """18xx.games logs the declined free station as the company's pass; the token NYC
    then places in Scranton is its turn's own, paid."""
    g, start = _imported_by_nyc(
        _nyc_beside_scranton,
        logged_lay("DH", "F16", "57-0", 1),
        {"type": "pass", "entity": "DH", "entity_type": "company"},
        logged_token("NYC", "57-0-0"),
    )
    assert g.state.map.tokens["F16"] == [["NYC"]]
    assert g.state.corporations["NYC"].cash == start - 120 - 40


def test_corpus_dh_free_station_is_decided_right_after_the_lay() -> None:
    """Every D&H lay kept in the generated corpus is followed at once by the company's
    token or pass, or by neither when the corporation has no station left: 18xx.games
    asks for the free station before anything else, as ``FreeStation`` does."""
    decided: Counter[str] = Counter()
    for path in sorted((FIXTURES / "1830-generated").glob("g*.json")):
        data = export(path.stem)
        kept = [a for a in filter_actions(data["actions"]) if a["type"] != "message"]
        for lay, nxt in zip(kept, kept[1:], strict=False):
            if lay["type"] != "lay_tile" or lay["entity"] != "DH":
                continue
            if nxt.get("entity") == "DH":
                decided[nxt["type"]] += 1
                continue
            g = at(data, lay["id"]).game
            assert free_station_options(g) == [], (path.stem, lay["id"])
            assert next_token_cost(g, g.state.round.order[g.state.round.index]) is None
            decided["no station left"] += 1
    assert decided == {"place_token": 32, "pass": 10, "no station left": 10}


def test_import_a_company_pass_with_no_free_station_due_changes_nothing() -> None:
    """A company's pass declines a free station only when one is due: CS's, or D&H's
    before its lay, leave the game as it was."""
    g = operating(_nyc_with_dh_and_cs, phase="3", corp="NYC")
    before = g.state_hash()
    replay(
        importer(g),
        {"type": "pass", "entity": "CS", "entity_type": "company"},
        {"type": "pass", "entity": "DH", "entity_type": "company"},
    )
    assert g.state_hash() == before
    assert g.state.round.step == "track" and g.acting() == "NYC"


def test_import_dh_token_then_the_cs_lay() -> None:
    """18xx.games' order: the D&H lay, its free station at once, then CS's extra lay."""
    g, start = _imported_by_nyc(
        _nyc_with_dh_and_cs,
        logged_lay("DH", "F16", "57-0", 1),
        logged_token("DH", "57-0-0", "NYC"),
        logged_lay("CS", "B20", "58-0", 2),
    )
    assert g.state.map.tokens["F16"] == [["NYC"]]
    assert g.state.map.tiles["B20"] == ("58", 2)
    assert g.state.corporations["NYC"].cash == start - 120
    assert g.acting() == "NYC" and g.state.round.step == "trains"


# -- ERIE's home on the printed, trackless Buffalo (E11) ------------------------------------


def _erie(par: int = 100) -> Callable[[Game], None]:
    def setup(g: Game) -> None:
        float_corp(g, "ERIE", "A", par)

    return setup


def test_erie_waits_on_printed_buffalo_and_may_build_only_there() -> None:
    g = operating(_erie(), phase="3", corp="ERIE")
    assert g.state.home_waiting == ["ERIE"]
    assert lays(g) == {("E11", "59", r, None) for r in (0, 2, 3, 4)}
    refused(g, LayTile("ERIE", "E13", "9", 1))  # beside Buffalo: no track leaves it


def test_erie_with_a_waiting_home_tokens_scranton_with_dh() -> None:
    """ERIE's home waits for track on E11 and keeps the charter's first token: the D&H
    token in Scranton is its second, the next costs $100, and the home placed later is
    its third and last (18xx.games places the home token at once and counts alike)."""
    g = operating(chain(_erie(), _dh_owned_by("ERIE")), phase="3", corp="ERIE")
    run(g, LayTile("ERIE", "F16", "57", 1, "DH"), PlaceToken("ERIE", "F16", 0))
    assert g.state.map.tokens["F16"] == [["ERIE"]]
    assert g.state.home_waiting == ["ERIE"]
    assert next_token_cost(g, "ERIE") == 100
    lay(g, ("E11", "59", 0))
    g.invalidate_caches()
    assert g.acting() == "ERIE"
    run(g, PlaceToken("ERIE", "E11", 0))
    assert g.state.corporations["ERIE"].tokens_placed == 2
    assert next_token_cost(g, "ERIE") == 100


def test_erie_picks_a_city_of_a_buffalo_built_before_its_first_turn() -> None:
    g = operating(chain(_erie(), lambda g: lay(g, ("E11", "59", 0))), phase="3", corp="ERIE")
    assert g.state.round.step == "home"
    assert [a for a in g.legal_actions() if isinstance(a, PlaceToken)] == [
        PlaceToken("ERIE", "E11", 0),
        PlaceToken("ERIE", "E11", 1),
    ]
    refused(g, LayTile("ERIE", "E11", "64", 2))  # the pick comes first
    run(g, PlaceToken("ERIE", "E11", 1))
    assert g.state.map.tokens["E11"] == [[], ["ERIE"]]
    assert g.state.corporations["ERIE"].cash == 1000
    assert "E11" not in network.reserved(g)


def _erie_then_nyc(g: Game) -> None:
    """Setup: ERIE ($100) operates before NYC ($76); NYC's track runs from Albany west
    to Buffalo's east side (E19 57, E17 9, E15 9, E13 9)."""
    _erie(100)(g)
    float_corp(g, "NYC", "D", 76)
    lay(g, ("E19", "57", 1), ("E17", "9", 1), ("E15", "9", 1), ("E13", "9", 1))


def test_import_another_corporations_tile_on_buffalo_then_erie_home_named_by_tokener() -> None:
    g = operating(_erie_then_nyc, phase="3", corp="ERIE")
    skip_until(g, lambda g: g.acting() == "NYC")
    assert g.state.home_waiting == ["ERIE"]
    imp = importer(g)
    replay(imp, logged_lay("NYC", "E11", "59-0", 2))
    assert g.acting() == "ERIE"  # ours: ERIE picks its city at once
    imp.step(2, {"id": 2, **logged_token("NYC", "59-0-1", "ERIE")})
    assert g.state.map.tokens["E11"] == [[], ["ERIE"]]
    assert g.state.corporations["ERIE"].tokens_placed == 1
    assert g.acting() == "NYC"
