"""Claims of docs/title-format.md, one test each, with exact values.

Each test names the doc section it checks. Key effects are tested by changing one value of
a real title (its compiled tables, or a copy of its folder)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from title.test_stand_ins import broken

from eighteen import Game, load_title
from eighteen.engine import phase_change, privates, trains
from eighteen.engine.tables import Tables
from eighteen.title import geometry
from eighteen.title.compile import compile_title
from eighteen.title.model.corporations import Corporation
from eighteen.title.model.hexmap import Hex, MapFile
from eighteen.title.model.titlefile import (
    DividendOption,
    EmergencyIssue,
    EmergencyPricing,
    Rules,
    SellBeforeOperated,
    SharePrice,
)
from eighteen.title.pipeline import load_title as load_folder

ROOT = Path(__file__).resolve().parents[2]
FILES = [
    "corporations.toml",
    "map.toml",
    "market.toml",
    "phases.toml",
    "privates.toml",
    "tiles.toml",
    "title.toml",
    "trains.toml",
]


def compiled(title: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ROOT / "generated" / f"{title}.json").read_text())
    return data


def codes(target: Path) -> list[str]:
    _, problems = load_folder(target)
    return sorted(p.code for p in problems)


# --- intro -------------------------------------------------------------------------------


@pytest.mark.parametrize("title", ["1830", "1833ne"])
def test_a_title_folder_holds_eight_toml_files(title: str) -> None:
    """Intro: "A title is a folder titles/<id>/ holding eight TOML files"; every file
    starts with a #:schema line pointing at its JSON Schema."""
    folder = ROOT / "titles" / title
    assert sorted(p.name for p in folder.glob("*.toml")) == FILES
    for name in FILES:
        first = (folder / name).read_text().splitlines()[0]
        assert first == f"#:schema ../../schema/{name.removesuffix('.toml')}.schema.json"


# --- Geometry ----------------------------------------------------------------------------


def test_pointy_cells_are_where_column_minus_one_plus_row_index_is_even() -> None:
    """Geometry: pointy, letters are rows, only cells with (column - 1) + row index even."""
    hexes = compiled("1830")["hexes"]
    assert len(hexes) > 90
    for hid in hexes:
        letters, number = geometry.parse_hex_id(hid)
        assert ((number - 1) + geometry.letters_to_index(letters)) % 2 == 0, hid


def test_pointy_edges_run_sw_w_nw_ne_e_se() -> None:
    """Geometry: on pointy hexes 0 = SW, 1 = W, 2 = NW, 3 = NE, 4 = E, 5 = SE (letters are
    rows, A at the top)."""
    assert compiled("1830")["hexes"]["E19"]["neighbors"] == [
        "F18",
        "E17",
        "D18",
        "D20",
        "E21",
        "F20",
    ]


def test_flat_edges_run_s_sw_nw_n_ne_se() -> None:
    """Geometry: with layout = "flat" the roles swap (letters are columns); edges 0 = S,
    1 = SW, 2 = NW, 3 = N, 4 = NE, 5 = SE."""
    full = {"C10", "B9", "B7", "C6", "D7", "D9"}
    assert geometry.neighbors("C8", full, "flat") == ["C10", "B9", "B7", "C6", "D7", "D9"]


def test_a_rotated_tile_puts_edge_e_on_e_plus_r_mod_6() -> None:
    """Geometry: "A tile at rotation r puts its edge e on hex edge (e + r) mod 6." Tile 57
    (exits 0, 3) at rotation 1 joins hex edges 1 and 4."""
    assert [[geometry.rotate_edge(e, r) for e in range(6)] for r in range(6)] == [
        [(e + r) % 6 for e in range(6)] for r in range(6)
    ]
    assert compiled("1830")["tiles"]["57"]["exits"] == [0, 3]
    assert geometry.rotate_edges([0, 3], 1) == [1, 4]
    assert geometry.rotate_edges([0, 3], 5) == [5, 2]


# --- map.toml ----------------------------------------------------------------------------


def test_hex_color_defaults_to_white() -> None:
    """map.toml: color is white (buildable, the default). Albany (E19) has no color key."""
    text = (ROOT / "titles" / "1830" / "map.toml").read_text()
    block = text.split('at = "E19"', 1)[1].split("[[hexes]]", 1)[0]
    assert "color" not in block
    assert compiled("1830")["hexes"]["E19"]["color"] == "white"
    assert Hex.model_fields["color"].default == "white"


def test_hex_colors_are_the_seven_the_doc_lists(tmp_path: Path) -> None:
    """map.toml: "`color` is `white` (...), `yellow`, `green` or `brown` (preprinted,
    upgradable in that order), `gray` (...), `red` (off-board) or `blue` (sea)"; a green
    preprinted E19 validates."""
    schema = json.loads((ROOT / "schema" / "map.schema.json").read_text())
    assert schema["$defs"]["Hex"]["properties"]["color"]["$ref"] == "#/$defs/Color"
    assert sorted(schema["$defs"]["Color"]["enum"]) == [
        "blue",
        "brown",
        "gray",
        "green",
        "red",
        "white",
        "yellow",
    ]
    target = broken(tmp_path, {"map.toml": [('at = "E19"\n', 'at = "E19"\ncolor = "green"\n')]})
    assert codes(target) == []


def test_unlimited_manifest_count_compiles_to_null() -> None:
    """tiles.toml: manifest "tile id -> copies, or "unlimited"" (1833NE "7" = "unlimited")."""
    tiles = compiled("1833ne")["tiles"]
    assert tiles["7"]["count"] is None
    assert tiles["8"]["count"] is None
    assert compiled("1830")["tiles"]["7"]["count"] == 4


# --- Grid parity -------------------------------------------------------------------------


def test_cell_parity_defaults_to_even_the_grid_of_1830() -> None:
    """Extensions, Grid parity: the default "even" is the grid of 1830 (A19, B20...)."""
    assert MapFile.model_fields["cell_parity"].default == "even"
    assert "cell_parity" not in (ROOT / "titles" / "1830" / "map.toml").read_text()
    hexes = compiled("1830")["hexes"]
    assert "A19" in hexes and "B20" in hexes
    assert "A20" not in hexes and "B19" not in hexes


def test_odd_parity_cells_are_where_letter_index_plus_number_minus_one_is_odd() -> None:
    """Extensions, Grid parity: cell_parity = "odd": letter index + (number - 1) is odd,
    column A holds A2, A4..."""
    hexes = compiled("1833ne")["hexes"]
    for hid in hexes:
        letters, number = geometry.parse_hex_id(hid)
        assert (geometry.letters_to_index(letters) + number - 1) % 2 == 1, hid
    assert all(int(h[1:]) % 2 == 0 for h in hexes if h[0] == "A")


# --- tiles.toml --------------------------------------------------------------------------


def test_upgrades_keep_label_and_go_one_colour_up() -> None:
    """tiles.toml: upgrades are derived: colour one step up, same label, same number of
    towns and cities."""
    tiles = compiled("1830")["tiles"]
    up = {"yellow": "green", "green": "brown", "brown": "gray"}
    pairs = [(a, b) for a, rows in compiled("1830")["upgrades"].items() if a in tiles for b in rows]
    assert len(pairs) > 20
    for a, b in pairs:
        ta, tb = tiles[a], tiles[b]
        assert up[ta["color"]] == tb["color"], (a, b)
        assert ta["label"] == tb["label"], (a, b)
    # every old connection kept: 57 (city on 0-3) onto 14 (0,1,3,4) / 15 (0,1,2,3) only
    # at the rotations that still cover edges 0 and 3
    assert tiles["14"]["exits"] == [0, 1, 3, 4] and tiles["15"]["exits"] == [0, 1, 2, 3]
    assert compiled("1830")["upgrades"]["57"] == {"14": [0, 2, 3, 5], "15": [0, 3]}


# --- trains.toml: effects ----------------------------------------------------------------


def _game(trains_rows: list[dict[str, Any]]) -> Game:
    data = load_title("1830").data
    return Game.new(Tables({**data, "trains": trains_rows}), ["A", "B"])


def test_rusts_on_removes_every_train_of_its_type_on_the_first_purchase() -> None:
    """trains.toml: rusts_on = "4": the first 4 bought removes every 2; with rusts_on = "5"
    the first 4 leaves the 2s."""
    rows = load_title("1830").data["trains"]
    for rusts_on, left in (("4", []), ("5", ["2-0", "2-1"])):
        g = _game([{**t, "rusts_on": rusts_on} if t["id"] == "2" else t for t in rows])
        g.state.corporations["PRR"].trains = ["2-0", "2-1"]
        trains.first_purchase(g, "4")
        assert g.state.corporations["PRR"].trains == left


def test_available_on_puts_a_train_on_sale_while_earlier_ones_remain() -> None:
    """trains.toml: D available_on = "6": on sale from phase 6 even while 6s remain."""
    rows = load_title("1830").data["trains"]
    for available_on, on_sale in (("6", ["6", "D"]), (None, ["6"])):
        g = _game([{**t, "available_on": available_on} if t["id"] == "D" else t for t in rows])
        g.state.depot = [x for x in g.state.depot if trains.train_type(x) in ("6", "D")]
        g.state.phase = [p.id for p in g.tables.phases].index("6")
        assert trains.on_sale_types(g) == on_sale


# --- privates.toml -----------------------------------------------------------------------


def test_ability_types_are_exactly_the_listed_ones() -> None:
    """privates.toml and Extensions, Privates: the ability types listed."""
    schema = json.loads((ROOT / "schema" / "privates.schema.json").read_text())
    found: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            kind = node.get("properties", {}).get("type", {})
            if "const" in kind:
                found.add(kind["const"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(schema)
    assert found == {
        "block_hexes",
        "tile_lay",
        "grant_share",
        "exchange_share",
        "close_on_train",
        "no_sale_to_corporation",
        "tile_lays",
        "virtual_station",
        "exclusive_hexes",
        "bonus_multiplier",
        "ferry_multiplier",
        "purchase_fee",
        "restrict_corporation",
    }


# --- corporations.toml -------------------------------------------------------------------


def test_shares_default_to_a_20_percent_president_and_eight_10s() -> None:
    """corporations.toml: shares = [20, 10, 10, 10, 10, 10, 10, 10, 10] is the default."""
    assert "shares =" not in (ROOT / "titles" / "1830" / "corporations.toml").read_text()
    assert {c["id"]: c["shares"] for c in compiled("1830")["corporations"]}["NYNH"] == [20] + [
        10
    ] * 8
    assert (
        Corporation.model_fields["shares"].get_default(call_default_factory=True) == [20] + [10] * 8
    )


def test_home_and_variable_home_together_is_an_error(tmp_path: Path) -> None:
    """Extensions, Corporations: writing both home and variable_home is an error."""
    target = broken(
        tmp_path,
        {"corporations.toml": [('home = "G19"', 'home = "G19"\nvariable_home = { cost = 120 }')]},
    )
    assert codes(target) == ["E141"]


def test_neither_home_nor_variable_home_is_an_error(tmp_path: Path) -> None:
    """Extensions, Corporations: writing neither home nor variable_home is an error."""
    target = broken(tmp_path, {"corporations.toml": [('home = "G19"  # New York & Newark\n', "")]})
    assert codes(target) != []


# --- Rules -------------------------------------------------------------------------------


ISSUE = {"kind": "issue_shares", "drop_per_share": 1, "sale_offset": -1, "pricing": "bundle"}


def test_emergency_issue_min_price_defaults_to_0_and_only_as_needed_to_true() -> None:
    """Extensions, Rules: "min_price defaults to 0 and only_as_needed to true"."""
    issue = EmergencyIssue.model_validate(ISSUE)
    assert (issue.min_price, issue.only_as_needed) == (0, True)
    rules = Rules.model_validate({**load_title("1830").data["rules"], "emergency_money": [ISSUE]})
    assert rules.emergency_issue == issue


@pytest.mark.parametrize("missing", ["drop_per_share", "sale_offset", "pricing"])
def test_emergency_issue_needs_its_first_three_terms(missing: str) -> None:
    """Extensions, Rules: the issue cannot be written without the first three terms."""
    with pytest.raises(ValidationError):
        EmergencyIssue.model_validate({k: v for k, v in ISSUE.items() if k != missing})


def test_a_bare_issue_shares_is_an_error() -> None:
    """Extensions, Rules: a bare "issue_shares" is an error."""
    rules = load_title("1830").data["rules"]
    with pytest.raises(ValidationError):
        Rules.model_validate({**rules, "emergency_money": ["treasury", "issue_shares"]})


def test_by_ratio_without_steps_is_an_error() -> None:
    """Extensions, Rules: a by_ratio move cannot be written without its steps."""
    rules = load_title("1830").data["rules"]
    with pytest.raises(ValidationError):
        Rules.model_validate({**rules, "dividend_move": {"kind": "by_ratio"}})
    with pytest.raises(ValidationError):
        Rules.model_validate({**rules, "dividend_move": {"kind": "by_ratio", "steps": []}})


def test_stall_ends_game_defaults_to_false() -> None:
    """Extensions, Rules: stall_ends_game: "the default is false"."""
    assert Rules.model_fields["stall_ends_game"].default is False
    assert "stall_ends_game" not in (ROOT / "titles" / "1830" / "title.toml").read_text()
    assert compiled("1830")["rules"]["stall_ends_game"] is False


def test_rule_value_lists() -> None:
    """Extensions, Rules: treasury_share_price (par/market), sell_before_operated
    (anyone/president_only/nobody), dividend_options (full/half/withhold), pricing
    (bundle or per_share)."""
    assert [v.value for v in SharePrice] == ["par", "market"]
    assert [v.value for v in SellBeforeOperated] == ["anyone", "president_only", "nobody"]
    assert [v.value for v in DividendOption] == ["full", "half", "withhold"]
    assert [v.value for v in EmergencyPricing] == ["bundle", "per_share"]


def test_new_rules_default_to_the_classic_rule_and_are_all_written() -> None:
    """Extensions, Rules: each default is the classic rule, and the compiled tables write
    every value (1830 sets none of the new fields)."""
    rules = compiled("1830")["rules"]
    assert set(rules) == set(Rules.model_fields)
    assert {
        k: rules[k]
        for k in (
            "treasury_share_price",
            "sell_before_operated",
            "stock_round_end_market_drop",
            "issue_redeem",
            "emergency_money",
            "dividend_options",
            "bankruptcy",
            "turn_any_order",
            "no_corporation_left_ends_game",
        )
    } == {
        "treasury_share_price": "par",
        "sell_before_operated": "anyone",
        "stock_round_end_market_drop": False,
        "issue_redeem": None,
        "emergency_money": ["treasury", "president_cash", "president_sells_shares"],
        "dividend_options": ["full", "withhold"],
        "bankruptcy": {"kind": "game_ends", "sells_shares": False, "keeps_presidency": False},
        "turn_any_order": [],
        "no_corporation_left_ends_game": False,
    }


# --- Extensions intro --------------------------------------------------------------------


def test_extension_fields_are_written_at_their_defaults() -> None:
    """Extensions: every field is optional, its default the classic rule; the compiled
    document writes every field, defaults included (docs/compiled-format.md). 1830 uses
    none of them."""
    title, problems = load_folder(ROOT / "titles" / "1830")
    assert title is not None and problems == []
    doc = compile_title(title)
    corp = {c["id"]: c for c in doc["corporations"]}["NYNH"]
    keys = ("reservations", "station_costs", "joint_token", "available_from", "min_par")
    assert {k: corp[k] for k in (*keys, "variable_home")} == {
        "reservations": [],
        "station_costs": {},
        "joint_token": None,
        "available_from": None,
        "min_par": None,
        "variable_home": None,
    }
    assert (doc["bonuses"], doc["ferries"], doc["hexes"]["E19"]["stubs"]) == (None, None, [])
    assert (doc["privates"][0]["closes_on"], doc["privates"][0]["flips_on"]) == (None, None)
    assert (doc["trains"][0]["obsolete_on"], doc["trains"][0]["variants"]) == (None, [])


# --- Extensions: trains, phases and privates in play ----------------------------------


def _with(table: str, row_id: str, **changes: object) -> Game:
    """A two-player 1830 game whose compiled ``table`` row ``row_id`` has ``changes``."""
    data = load_title("1830").data
    rows = [{**r, **changes} if r["id"] == row_id else r for r in data[table]]
    return Game.new(Tables({**data, table: rows}), ["A", "B"])


def test_obsolete_on_phases_a_train_out_after_one_more_run() -> None:
    """Extensions, Trains and phases: obsolete_on phases a train out (runs once more, then
    leaves). 2 with obsolete_on = "3" (and no rusts_on): the first 3 keeps the 2s until
    their owner's run."""
    for obsolete_on, after_purchase, after_run in (("3", True, []), (None, False, ["2-0"])):
        g = _with("trains", "2", obsolete_on=obsolete_on, rusts_on=None)
        g.state.corporations["PRR"].trains = ["2-0"]
        g.state.bought_types.append("3")  # as buy_from_bank records it
        trains.first_purchase(g, "3")
        assert g.state.corporations["PRR"].trains == ["2-0"]
        assert trains.is_obsolete(g, "2-0") is after_purchase
        trains.retire_obsolete(g, "PRR")
        assert g.state.corporations["PRR"].trains == after_run


def test_closes_on_closes_the_private_whoever_owns_it() -> None:
    """Extensions, Privates: closes_on (phase: closes whoever owns it)."""
    for closes_on, closed in (("3", True), (None, False)):
        g = _with("privates", "SV", closes_on=closes_on)
        g.state.privates["SV"].owner = "PRR"
        g.state.privates["DH"].owner = "A"
        phase_change.on_phase(g, "3")
        assert (g.state.privates["SV"].closed, g.state.privates["DH"].closed) == (closed, False)


def test_flips_on_stops_a_corporation_owned_private_paying() -> None:
    """Extensions, Privates: flips_on (phase: a corporation-owned private stops paying
    revenue but keeps its powers). SV ($5) flips on phase 3; it pays in phase 2 only."""
    for phase, paid in (("2", 5), ("3", 0)):
        g = _with("privates", "SV", flips_on="3")
        g.state.privates["SV"].owner = "PRR"
        g.state.phase = g.tables.phase_index(phase)
        before = g.state.corporations["PRR"].cash
        privates.pay_revenue(g)
        assert g.state.corporations["PRR"].cash - before == paid
        assert g.state.privates["SV"].closed is False


def test_close_player_privates_closes_only_player_owned_privates() -> None:
    """Extensions, Trains and phases: the phase event close_player_privates closes every
    private a player owns."""
    g = Game.new(load_title("1830"), ["A", "B"])
    g.state.privates["SV"].owner = "A"
    g.state.privates["CS"].owner = "PRR"
    phase_change.run_event(g, "close_player_privates")
    assert {p: s.closed for p, s in g.state.privates.items() if s.owner} == {
        "SV": True,
        "CS": False,
    }
