"""The compiled document (docs/compiled-format.md): a small hand-made title, then 1830."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from eighteen.engine.tables import Tables
from eighteen.title.aggregate import Title
from eighteen.title.compile import (
    compile_market,
    compile_title,
    stale_outputs,
    to_json,
    write_outputs,
)
from eighteen.title.markdown import plain_text, render_markdown
from eighteen.title.model import (
    CorporationsFile,
    MapFile,
    MarketFile,
    PhasesFile,
    PrivatesFile,
    Tile,
    TilesFile,
    TitleFile,
    TrainsFile,
)
from eighteen.title.pipeline import load_title

ROOT = Path(__file__).resolve().parents[2]

# ---------------------------------------------------------------------------------------
# a tiny title:      A1(red)  A3(gray)  A5(gray)
#                       B2(city)   B4(plain)
#                   C1(town)  C3(yellow B)  C5(plain)


def _tile(tid: str, color: str, **face: Any) -> Tile:
    return Tile.model_validate({"id": tid, "color": color, **face})


TINY_TILES = {
    "3": _tile("3", "yellow", towns=[{"revenue": 10, "exits": [0, 1]}]),
    "4": _tile("4", "yellow", towns=[{"revenue": 10, "exits": [0, 3]}]),
    "7": _tile("7", "yellow", track=[[0, 1]]),
    "8": _tile("8", "yellow", track=[[0, 2]]),
    "9": _tile("9", "yellow", track=[[0, 3]]),
    "57": _tile("57", "yellow", cities=[{"revenue": 20, "exits": [0, 3]}]),
    "14": _tile("14", "green", cities=[{"revenue": 30, "slots": 2, "exits": [0, 1, 3, 4]}]),
    "B1": _tile("B1", "green", label="B", cities=[{"revenue": 40, "exits": [2, 3]}]),
    "XX": _tile("XX", "green", track=[[0, 3]]),  # defined, not in the manifest
}


def tiny_title(market: dict[str, Any] | None = None) -> Title:
    """A hand-made title exercising every compile rule on a 9-hex board."""
    title = TitleFile.model_validate(
        {
            "id": "tiny",
            "name": "Tiny",
            "designers": ["Test"],
            "version": "0.1.0",
            "players": {"min": 2, "max": 3},
            "bank": 5000,
            "starting_cash": {"2": 600, "3": 400},
            "certificate_limit": {"2": 12, "3": 9},
            "options": [{"id": "opt", "description": "An option."}],
            "rules": {
                "capitalization": "full",
                "float_percent": 50,
                "tile_lays": [{"kinds": ["new", "upgrade"]}],
            },
        }
    )
    board = MapFile.model_validate(
        {
            "layout": "pointy",
            "rows": ["A", "B", "C"],
            "columns": [1, 5],
            "hexes": [
                {
                    "at": "A1",
                    "color": "red",
                    "offboard": {"revenue": {"yellow": 20, "brown": 40}, "exits": [5]},
                },
                {"at": "A3", "color": "gray", "track": [[0, 1]]},
                {"at": "A5", "color": "gray", "cities": [{"revenue": 10, "exits": [1]}]},
                {"at": "B2", "name": "Big", "cities": [{"revenue": 0}]},
                {"at": "B4", "borders": [{"edge": 5, "type": "impassable"}]},
                {"at": "C1", "towns": [{"revenue": 0}]},
                {
                    "at": "C3",
                    "color": "yellow",
                    "label": "B",
                    "cities": [{"revenue": 30, "exits": [2]}],
                },
                {"at": "C5", "terrain": "water", "cost": 40},
            ],
        }
    )
    tiles = TilesFile.model_validate(
        {
            "manifest": {"3": 2, "4": 1, "7": 1, "8": 1, "9": 1, "57": 2, "14": 1},
            "tiles": [t.model_dump() for t in TINY_TILES.values()],
        }
    )
    tiles.manifest["B1"] = "unlimited"
    trains = TrainsFile.model_validate(
        {
            "trains": [
                {"id": "2", "distance": 2, "price": 80, "count": 3, "rusts_on": "4"},
                {"id": "4", "distance": {"cities": 3, "towns": 2}, "price": 300, "count": 2},
                {
                    "id": "D",
                    "distance": "unlimited",
                    "price": 900,
                    "count": "unlimited",
                    "variants": [{"id": "8", "distance": "unlimited", "price": 800}],
                    "trade_in": {"trains": ["4"], "discount": 200},
                },
            ]
        }
    )
    phases = PhasesFile.model_validate(
        {
            "phases": [
                {
                    "id": "2",
                    "tiles": ["yellow"],
                    "operating_rounds": 1,
                    "train_limit": 4,
                    "offboard_revenue": "yellow",
                },
                {
                    "id": "4",
                    "on": "4",
                    "tiles": ["yellow", "green"],
                    "operating_rounds": 2,
                    "train_limit": 3,
                    "offboard_revenue": "brown",
                    "privates_buyable": True,
                },
            ]
        }
    )
    privates = PrivatesFile.model_validate(
        {
            "privates": [
                {
                    "id": "P1",
                    "name": "First",
                    "value": 20,
                    "revenue": 5,
                    "abilities": [
                        {"type": "block_hexes", "hexes": ["B2", "C1"]},
                        {"type": "exchange_share", "corporation": "AA", "from": ["ipo"]},
                    ],
                },
                {"id": "P2", "name": "Second", "value": 40, "revenue": 10},
            ]
        }
    )
    corps = CorporationsFile.model_validate(
        {
            "corporations": [
                {"id": "AA", "name": "Aa", "home": "B2", "tokens": [0, 40], "color": "#112233"},
                {
                    "id": "BB",
                    "name": "Bb",
                    "home": "C3",
                    "city": 0,
                    "tokens": [0],
                    "float_percent": 70,
                    "color": "#445566",
                },
            ]
        }
    )
    market_file = MarketFile.model_validate(
        market
        or {
            "type": "2d",
            "zones": {
                "p": {"name": "par", "par": True},
                "y": {"name": "yellow", "cert_limit_exempt": True},
                "b": {"name": "brown", "multiple_buy": True, "holding_limit_exempt": True},
            },
            "rows": [["60y", "70p", "80"], ["50y", "60p"], ["", "40b"]],
        }
    )
    return Title(
        dir=Path("titles/tiny"),
        title=title,
        map=board,
        tiles=tiles,
        trains=trains,
        phases=phases,
        privates=privates,
        corporations=corps,
        market=market_file,
        tile_defs=dict(TINY_TILES),
        source_hash="sha256:tiny",
    )


@pytest.fixture(scope="module")
def tiny() -> dict[str, Any]:
    return compile_title(tiny_title())


def test_top_level_keys(tiny: dict[str, Any]) -> None:
    assert sorted(tiny) == sorted(
        [
            "format", "id", "name", "version", "hash", "designers", "players", "bank",
            "starting_cash", "certificate_limit", "options", "rules", "layout", "hexes",
            "tiles", "first_tiles", "upgrades", "trains", "phases", "privates",
            "corporations", "market", "bonuses", "ferries",
            "certificate_limit_by_corporations", "import_18xx",
        ]
    )  # fmt: skip
    # the optional sections are written too, as null when the title has none
    assert [tiny[k] for k in ("bonuses", "ferries", "import_18xx")] == [None, None, None]
    assert tiny["format"] == 1
    assert tiny["hash"] == "sha256:tiny"
    assert tiny["players"] == {"min": 2, "max": 3}
    assert [(o["id"], o["description"]) for o in tiny["options"]] == [("opt", "An option.")]
    assert tiny["layout"] == "pointy"


def test_rules_defaults_filled(tiny: dict[str, Any]) -> None:
    rules = tiny["rules"]
    assert rules["capitalization"] == "full"
    assert rules["float_percent"] == 50
    assert rules["pool_limit_percent"] == 50
    assert rules["sell_buy_order"] == "sell_buy_sell"
    assert rules["tile_lays"] == [{"kinds": ["new", "upgrade"], "cost": 0}]


def test_hex_record(tiny: dict[str, Any]) -> None:
    b2 = tiny["hexes"]["B2"]
    assert b2 == {
        "name": "Big", "color": "white", "terrain": None, "cost": 0, "label": None,
        "cities": [{"revenue": 0, "slots": 1, "exits": []}], "towns": [], "track": [], "stubs": [],
        "offboard": None, "borders": [], "x": 1, "y": 1,
        "neighbors": ["C1", None, "A1", "A3", "B4", "C3"],
        "usable_edges": [0, 2, 3, 4, 5], "homes": ["AA"], "blocked_by": ["P1"],
    }  # fmt: skip
    assert tiny["hexes"]["A1"]["offboard"] == {
        "revenue": {"yellow": 20, "brown": 40},
        "group": None,
        "hidden": False,
        "requires_visit": [],
        "exits": [5],
    }


def test_usable_edges(tiny: dict[str, Any]) -> None:
    usable = {hid: h["usable_edges"] for hid, h in tiny["hexes"].items()}
    # B4: A3 (gray) has no track facing it, A5 (gray) neither; its own side 5 is impassable
    assert usable["B4"] == [0, 1]
    # C5: the impassable side is written only on B4, yet blocks both ways
    assert usable["C5"] == [1]
    assert usable["C1"] == [3, 4]
    assert usable["C3"] == [1, 2, 3, 4]


def test_first_tiles(tiny: dict[str, Any]) -> None:
    assert tiny["first_tiles"] == {
        "B2": {"57": [0, 2, 3, 5]},
        "B4": {"7": [0]},
        "C1": {"3": [3]},
        "C5": {},
    }


def test_upgrades(tiny: dict[str, Any]) -> None:
    up = tiny["upgrades"]
    assert up["57"] == {"14": [0, 2, 3, 5]}
    assert up["C3"] == {"B1": [0, 5]}
    assert up["9"] == {}
    assert "XX" not in up and "XX" not in tiny["tiles"]
    assert set(up) == set(tiny["tiles"]) | {"C3"}


def test_tiles(tiny: dict[str, Any]) -> None:
    assert tiny["tiles"]["57"] == {
        "color": "yellow",
        "count": 2,
        "label": None,
        "cities": [{"revenue": 20, "slots": 1, "exits": [0, 3]}],
        "towns": [],
        "track": [],
        "stubs": [],
        "exits": [0, 3],
        "orientations": [0, 1, 2],
    }
    assert tiny["tiles"]["B1"]["count"] is None


def test_trains_phases_companies(tiny: dict[str, Any]) -> None:
    two, four, d = tiny["trains"]
    assert two["rusts_on"] == "4" and two["distance"] == 2
    assert four["distance"] == {"cities": 3, "towns": 2, "visit": None, "pay": None}
    assert d["distance"] is None and d["count"] is None
    assert d["variants"] == [{"id": "8", "distance": None, "price": 800}]
    assert d["trade_in"] == {"trains": ["4"], "discount": 200}
    assert [p["id"] for p in tiny["phases"]] == ["2", "4"]
    assert tiny["privates"][0]["abilities"][1] == {
        "type": "exchange_share",
        "corporation": "AA",
        "from": ["ipo"],
    }
    assert [c["float_percent"] for c in tiny["corporations"]] == [50, 70]
    assert tiny["corporations"][0]["shares"] == [20, 10, 10, 10, 10, 10, 10, 10, 10]


def test_market(tiny: dict[str, Any]) -> None:
    m = tiny["market"]
    cells = m["cells"]
    assert cells[2][0] is None
    assert cells[0][0] == {
        "price": 60, "zones": ["y"], "par": False, "cert_limit_exempt": True,
        "holding_limit_exempt": False, "multiple_buy": False, "closes": False,
        "ends_game": False, "up": [0, 0], "down": [1, 0], "pay": [0, 1], "withhold": [1, 0],
    }  # fmt: skip
    assert cells[0][2]["pay"] == [0, 2]  # right end of the top row: up, which is itself
    assert cells[1][1]["pay"] == [0, 1]  # right end: up
    assert cells[1][0]["withhold"] == [1, 0]  # no cell left, none below: stays
    assert cells[2][1]["withhold"] == [2, 1]
    assert cells[2][1]["multiple_buy"] and cells[2][1]["holding_limit_exempt"]
    assert m["par"] == [[0, 1], [1, 1]]


def test_linear_market() -> None:
    market = MarketFile.model_validate(
        {
            "type": "linear",
            "zones": {"c": {"name": "closed", "closes": True}, "p": {"name": "par", "par": True}},
            "rows": [["0c", "10", "20p", "30p"]],
        }
    )
    m = compile_market(market)
    assert m["cells"][0][0]["closes"]
    first, last = m["cells"][0][0], m["cells"][0][3]
    assert (first["up"], first["down"], first["pay"], first["withhold"]) == (
        [0, 1], [0, 0], [0, 1], [0, 0],
    )  # fmt: skip
    assert (last["up"], last["withhold"]) == ([0, 3], [0, 2])
    assert m["par"] == [[0, 3], [0, 2]]


def test_json_is_deterministic_and_plain(tiny: dict[str, Any]) -> None:
    text = to_json(tiny)
    assert text.endswith("}\n")
    assert text == to_json(compile_title(tiny_title()))
    assert json.loads(text) == tiny


def test_write_and_stale(tmp_path: Path, tiny: dict[str, Any]) -> None:
    assert stale_outputs(tiny, tmp_path) == [str(tmp_path / "tiny.json"), str(tmp_path / "tiny.md")]
    paths = write_outputs(tiny, tmp_path)
    assert paths == [tmp_path / "tiny.json", tmp_path / "tiny.md"]
    first = [p.read_bytes() for p in paths]
    assert stale_outputs(tiny, tmp_path) == []
    write_outputs(compile_title(tiny_title()), tmp_path)
    assert [p.read_bytes() for p in paths] == first
    (tmp_path / "tiny.md").write_text("edited\n")
    assert stale_outputs(tiny, tmp_path) == [str(tmp_path / "tiny.md")]


def test_markdown(tiny: dict[str, Any]) -> None:
    md = render_markdown(tiny)
    for heading in (
        "# Tiny — rule tables",
        "## Overview",
        "## Trains",
        "### Trains by phase",
        "### Rust schedule",
        "## Phases",
        "## Stock market",
        "## Private companies",
        "## Corporations",
        "## Tiles",
        "### Preprinted hexes",
        "### First tiles on empty hexes",
    ):
        assert f"\n{heading}\n" in f"\n{md}", heading
    assert "| Starting cash | $600 | $400 |" in md
    assert "| 2 | ● | rusts |" in md
    assert "The first 4-train bought rusts every 2-train." in md
    assert "| 0 | 60y | **70p** | 80 |" in md
    assert "Blocks tile lays in B2, C1 while a player owns it." in md
    assert "exchange it for a share of AA from the IPO; it then closes." in md
    assert "| 57 | yellow | 2 | — | city $20 | 0,3 | 3 | 14 |" in md
    assert "| C3 | — | yellow | B | B1 (0,5) |" in md
    assert "| D / 8 | unlimited / unlimited | $900 / $800 | unlimited |" in md
    assert not [line for line in md.splitlines() if line != line.rstrip()]
    assert md.endswith("\n") and not md.endswith("\n\n")


# ---------------------------------------------------------------------------------------
# 1830 (facts §7.6, §8.1, §2)


def load_1830() -> Title | None:
    """titles/1830 through the pipeline."""
    title, _ = load_title(ROOT / "titles/1830")
    return title


@pytest.fixture(scope="module")
def c1830() -> dict[str, Any]:
    title = load_1830()
    assert title is not None
    return compile_title(title)


def test_1830_e19(c1830: dict[str, Any]) -> None:
    e19 = c1830["hexes"]["E19"]
    assert e19["neighbors"] == ["F18", "E17", "D18", "D20", "E21", "F20"]
    assert (e19["x"], e19["y"]) == (18, 4)
    assert e19["homes"] == ["NYC"]
    assert len(c1830["hexes"]) == 93


# The 1830 tables against the facts reference (usable edges, first tiles, the upgrade chart,
# preprinted upgrades, market moves) are tests/title/test_1830_facts.py.


def test_1830_trains_and_corporations(c1830: dict[str, Any]) -> None:
    d = c1830["trains"][-1]
    assert d["id"] == "D" and d["distance"] is None and d["count"] is None
    assert [c["float_percent"] for c in c1830["corporations"]] == [60] * 8
    blocked = {hid: h["blocked_by"] for hid, h in c1830["hexes"].items() if h["blocked_by"]}
    assert blocked == {
        "G15": ["SV"], "B20": ["CS"], "F16": ["DH"], "D18": ["MH"], "H18": ["CA"],
        "I13": ["BO"], "I15": ["BO"],
    }  # fmt: skip


def test_1830_deterministic(c1830: dict[str, Any]) -> None:
    """Compiling again from a fresh load gives the same bytes (speed is in bench/)."""
    for _ in range(3):
        title = load_1830()
        assert title is not None
        again = compile_title(title)
        assert again is not c1830
        assert to_json(again) == to_json(c1830)
    assert render_markdown(again) == render_markdown(c1830)


def test_rule_values_read_as_text() -> None:
    assert plain_text(True) == "true"
    assert plain_text(None) == "—"
    assert plain_text({"issue_offset": -1, "moves_price": False}) == (
        "issue_offset -1; moves_price false"
    )
    assert plain_text([{"at_least": 0.5, "steps": 0}, {"at_least": 1.0, "steps": 1}]) == (
        "(at_least 0.5; steps 0), (at_least 1.0; steps 1)"
    )
    assert plain_text(["treasury", "president_cash"]) == "treasury, president_cash"


def test_an_option_may_give_a_rule_a_fraction_or_a_list(tmp_path: Path) -> None:
    """An option sets any value its rule takes: a factor of 1.5, a list of tile lays (the
    options' schema took only booleans, integers, text and flat tables)."""
    titles = tmp_path / "titles"
    shutil.copytree(ROOT / "titles" / "1830", titles / "1830")
    shutil.copytree(ROOT / "titles" / "common", titles / "common")
    path = titles / "1830" / "title.toml"
    path.write_text(
        path.read_text().replace(
            "rules = { one_new_train_per_turn = false }",
            "rules = { private_price_max_factor = 1.5, tile_lays = [{ kinds = "
            '["new", "upgrade"] }, { kinds = ["new"] }] }',
        )
    )
    title, problems = load_title(titles / "1830")
    assert [p.format() for p in problems] == [] and title is not None
    tables = Tables(compile_title(title))
    rules = tables.rules(["new_trains_18xx_games"])
    assert rules.private_price_max_factor == 1.5
    assert [list(lay.kinds) for lay in rules.tile_lays] == [["new", "upgrade"], ["new"]]
    assert tables.rules([]).private_price_max_factor == 2.0
