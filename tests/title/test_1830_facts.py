"""1830 against the facts reference (18xx.games' 1830 data).

Two layers:
- the TOML sources in titles/1830 and titles/common parse into the models of
  eighteen.title.model and hold the right counts;
- the compiled document generated/1830.json (docs/compiled-format.md) carries the exact
  values of the facts reference: map, tiles, trains, phases, privates, corporations, market.

Every expected value below is written out literally from the facts reference; the only
departure is that no off-board hex carries a group tag: seed 002 lets a route reach two
different red hexes (titles/1830/map.toml).
"""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from eighteen.title.model import FILE_MODELS, Hex, MapFile, MarketFile, PrivatesFile, TilesFile

ROOT = Path(__file__).resolve().parents[2]
TITLE_DIR = ROOT / "titles" / "1830"
COMMON_TILES = ROOT / "titles" / "common" / "tiles.toml"
COMPILED = ROOT / "generated" / "1830.json"

KINDS = ["title", "map", "tiles", "trains", "phases", "privates", "corporations", "market"]

# ---------------------------------------------------------------------------------------
# expected values (facts reference)

# facts §8.1: tile -> count (46 numbers, 85 tiles)
TILE_COUNTS: dict[str, int] = {
    "1": 1, "2": 1, "3": 2, "4": 2, "7": 4, "8": 8, "9": 7, "14": 3, "15": 2, "16": 1,
    "18": 1, "19": 1, "20": 1, "23": 3, "24": 3, "25": 1, "26": 1, "27": 1, "28": 1,
    "29": 1, "39": 1, "40": 1, "41": 2, "42": 2, "43": 2, "44": 1, "45": 2, "46": 2,
    "47": 1, "53": 2, "54": 1, "55": 1, "56": 1, "57": 4, "58": 2, "59": 2, "61": 2,
    "62": 1, "63": 3, "64": 1, "65": 1, "66": 1, "67": 1, "68": 1, "69": 1, "70": 1,
}  # fmt: skip

# facts §8.1: tile -> (colour, label, exits, distinct orientations)
TILE_FACES: dict[str, tuple[str, str | None, list[int], int]] = {
    "1": ("yellow", None, [0, 1, 3, 4], 3),
    "2": ("yellow", None, [0, 1, 2, 3], 6),
    "3": ("yellow", None, [0, 1], 6),
    "4": ("yellow", None, [0, 3], 3),
    "7": ("yellow", None, [0, 1], 6),
    "8": ("yellow", None, [0, 2], 6),
    "9": ("yellow", None, [0, 3], 3),
    "14": ("green", None, [0, 1, 3, 4], 3),
    "15": ("green", None, [0, 1, 2, 3], 6),
    "16": ("green", None, [0, 1, 2, 3], 6),
    "18": ("green", None, [0, 1, 2, 3], 6),
    "19": ("green", None, [0, 2, 3, 4], 6),
    "20": ("green", None, [0, 1, 3, 4], 3),
    "23": ("green", None, [0, 3, 4], 6),
    "24": ("green", None, [0, 2, 3], 6),
    "25": ("green", None, [0, 2, 4], 6),
    "26": ("green", None, [0, 3, 5], 6),
    "27": ("green", None, [0, 1, 3], 6),
    "28": ("green", None, [0, 4, 5], 6),
    "29": ("green", None, [0, 1, 2], 6),
    "39": ("brown", None, [0, 1, 2], 6),
    "40": ("brown", None, [0, 2, 4], 2),
    "41": ("brown", None, [0, 1, 3], 6),
    "42": ("brown", None, [0, 3, 5], 6),
    "43": ("brown", None, [0, 1, 2, 3], 6),
    "44": ("brown", None, [0, 1, 3, 4], 3),
    "45": ("brown", None, [0, 2, 3, 4], 6),
    "46": ("brown", None, [0, 2, 3, 4], 6),
    "47": ("brown", None, [0, 1, 3, 4], 3),
    "53": ("green", "B", [0, 2, 4], 2),
    "54": ("green", "NY", [0, 1, 2, 3], 6),
    "55": ("yellow", None, [0, 1, 3, 4], 3),
    "56": ("yellow", None, [0, 1, 2, 3], 6),
    "57": ("yellow", None, [0, 3], 3),
    "58": ("yellow", None, [0, 2], 6),
    "59": ("green", "OO", [0, 2], 6),
    "61": ("brown", "B", [0, 2, 3, 4], 6),
    "62": ("brown", "NY", [0, 1, 2, 3], 6),
    "63": ("brown", None, [0, 1, 2, 3, 4, 5], 1),
    "64": ("brown", "OO", [0, 2, 3, 4], 6),
    "65": ("brown", "OO", [0, 2, 3, 4], 6),
    "66": ("brown", "OO", [0, 1, 2, 3], 6),
    "67": ("brown", "OO", [0, 2, 3, 4], 6),
    "68": ("brown", "OO", [0, 1, 3, 4], 3),
    "69": ("yellow", None, [0, 2, 3, 4], 6),
    "70": ("brown", None, [0, 1, 2, 3], 6),
}

# facts §8.1: stops and track of a few tiles at rotation 0
TILE_CONTENT: dict[str, dict[str, Any]] = {
    "57": {"cities": [{"revenue": 20, "slots": 1, "exits": [0, 3]}], "towns": [], "track": []},
    "59": {
        "cities": [{"revenue": 40, "slots": 1, "exits": [0]}, {"revenue": 40, "slots": 1, "exits": [2]}],
        "towns": [],
        "track": [],
    },
    "62": {
        "cities": [{"revenue": 80, "slots": 2, "exits": [0, 1]}, {"revenue": 80, "slots": 2, "exits": [2, 3]}],
        "towns": [],
        "track": [],
    },
    "1": {
        "cities": [],
        "towns": [{"revenue": 10, "exits": [1, 3]}, {"revenue": 10, "exits": [0, 4]}],
        "track": [],
    },
    "70": {"cities": [], "towns": [], "track": [[0, 1], [0, 2], [1, 3], [2, 3]]},
    "63": {"cities": [{"revenue": 40, "slots": 2, "exits": [0, 1, 2, 3, 4, 5]}], "towns": [], "track": []},
}  # fmt: skip

# facts §8.2: upgrade chart (old tile -> new tiles) for the 1830 manifest
UPGRADES: dict[str, set[str]] = {
    "7": {"18", "26", "27", "28", "29"},
    "8": {"16", "19", "23", "24", "25", "28", "29"},
    "9": {"18", "19", "20", "23", "24", "26", "27"},
    "57": {"14", "15"},
    "14": {"63"},
    "15": {"63"},
    "16": {"43", "70"},
    "18": {"43"},
    "19": {"45", "46"},
    "20": {"44", "47"},
    "23": {"41", "43", "45", "47"},
    "24": {"42", "43", "46", "47"},
    "25": {"40", "45", "46"},
    "26": {"42", "44", "45"},
    "27": {"41", "44", "46"},
    "28": {"39", "43", "46", "70"},
    "29": {"39", "43", "45", "70"},
    "53": {"61"},
    "54": {"62"},
    "59": {"64", "65", "66", "67", "68"},
}

# facts §2: the market grid as CSV ("-" = no cell)
MARKET_CSV = """\
0,60Y,67,71,76,82,90,100P,112,126,142,160,180,200,225,250,275,300,325,350
1,53Y,60Y,66,70,76,82,90P,100,112,126,142,160,180,200,220,240,260,280,300
2,46Y,55Y,60Y,65,70,76,82P,90,100,111,125,140,155,170,185,200
3,39O,48Y,54Y,60Y,66,71,76P,82,90,100,110,120,130
4,32O,41O,48Y,55Y,62,67,71P,76,82,90,100
5,25B,34O,42O,50Y,58Y,65,67P,71,75,80
6,18B,27B,36O,45O,54Y,63,67,69,70
7,10B,20B,30B,40O,50Y,60Y,67,68
8,-,10B,20B,30B,40O,50Y,60Y
9,-,-,10B,20B,30B,40O,50Y
10,-,-,-,10B,20B,30B,40O
"""

# facts §1 (zone meanings): zone letter -> flags
ZONE_FLAGS: dict[str, dict[str, bool]] = {
    "p": {"par": True},
    "y": {"cert_limit_exempt": True},
    "o": {"cert_limit_exempt": True, "holding_limit_exempt": True},
    "b": {"cert_limit_exempt": True, "holding_limit_exempt": True, "multiple_buy": True},
}
FLAG_NAMES = [
    "par",
    "cert_limit_exempt",
    "holding_limit_exempt",
    "multiple_buy",
    "closes",
    "ends_game",
]

# facts §7.6: white/yellow hexes with fewer than six usable edges
USABLE_EDGES_CSV = """\
B10,0 2 3 4 5
B12,0 1 2 4 5
B14,0 1 4
B16,0 1 3 4
B20,0 1 2 4 5
B22,0 1 4 5
C7,0 4 5
C9,0 1 3 4 5
C11,0 1 2 3 4
C13,1 2 3 4
C17,0 3 4 5
C23,0 1 2 3
D4,0 1 4 5
D6,0 1 3 4 5
D12,0 1 4 5
D16,0 1 3 4 5
E3,0 2 3 4 5
E5,0 1 2 3 4
E7,1 2 3
E11,0 2 3 4 5
E15,0 1 3 4 5
E23,0 1 2 3 5
F4,0 1 2 3 5
F8,0 4 5
F10,0 1 3 4 5
F20,0 1 2 3 4
F22,1 2 3 4
G3,0 2 3 4 5
G11,0 1 2 3 4
G13,1 2 3 4 5
G19,0 1 2 3
H2,3 4 5
H18,0 1 2 3 5
I11,0 1 2 4 5
I13,0 1 3 4 5
I15,0 1 2 3 4
I17,1 2 3 4
J4,1 2 3 4
J6,1 2 3 4
J8,1 2 3 4
J10,1 2 3 4
J12,1 2 3 4 5
J14,0 1 2 3 5
"""

# facts §7.1 / §7.5: hexes by colour
# fmt: off
PLAIN_WHITE = [
    "B12", "B14", "B22", "C7", "C9", "C23", "D8", "D16", "D18", "D20", "E3", "E13", "E15",
    "F12", "F14", "F18", "G3", "G5", "G9", "G11", "H2", "H6", "H8", "H14", "I3", "I5", "I7",
    "I9", "I13", "J4", "J6", "J8", "C11", "C13", "D12", "F8",
]
WATER = ["B18", "C19", "D6", "D10", "E5", "F4", "F22", "G19", "I17", "J14"]
MOUNTAIN = ["C17", "C21", "D22", "E17", "E21", "F16", "G13", "G15", "I11", "J10", "J12"]
ONE_TOWN = ["B20", "D4", "E7", "F10"]
TWO_TOWNS = ["F20", "G7", "G17"]
ONE_CITY = ["B10", "B16", "E19", "F4", "F16", "F22", "H4", "H10", "H16", "J14"]
YELLOW = ["D10", "E5", "E11", "H18", "G19", "I15", "E23"]
GRAY = ["A17", "A19", "C15", "D2", "D14", "D24", "E9", "F6", "F24", "H12", "I19", "K15"]
RED = ["A9", "A11", "B24", "F2", "I1", "J2", "K13"]
# fmt: on
NO_STOP_WHITE = PLAIN_WHITE + [h for h in WATER + MOUNTAIN if h not in ONE_CITY + YELLOW]

# facts §7.1: impassable sides, recorded on both hexes
IMPASSABLE = {
    "B16": [5],
    "C17": [2],
    "C11": [5],
    "D12": [2, 3],
    "C13": [0],
    "E7": [5],
    "F8": [2],
}
COSMETIC = {"A9": [4], "A11": [1], "I1": [5], "J2": [2]}

# facts §7.2: off-board values and exits (no groups: seed 002, routes)
OFFBOARDS: dict[str, dict[str, Any]] = {
    "F2": {"revenue": {"yellow": 40, "brown": 70}, "group": None, "hidden": False, "exits": [3, 4, 5], "requires_visit": []},
    "J2": {"revenue": {"yellow": 30, "brown": 60}, "group": None, "hidden": False, "exits": [3, 4], "requires_visit": []},
    "I1": {"revenue": {"yellow": 30, "brown": 60}, "group": None, "hidden": True, "exits": [4], "requires_visit": []},
    "A11": {"revenue": {"yellow": 30, "brown": 50}, "group": None, "hidden": False, "exits": [0, 5], "requires_visit": []},
    "A9": {"revenue": {"yellow": 30, "brown": 50}, "group": None, "hidden": True, "exits": [5], "requires_visit": []},
    "B24": {"revenue": {"yellow": 20, "brown": 30}, "group": None, "hidden": False, "exits": [0, 1], "requires_visit": []},
    "K13": {"revenue": {"yellow": 30, "brown": 40}, "group": None, "hidden": False, "exits": [2, 3], "requires_visit": []},
}  # fmt: skip

# facts §3
TRAINS: list[dict[str, Any]] = [
    {"id": "2", "distance": 2, "price": 80, "count": 6, "rusts_on": "4", "available_on": None,
     "trade_in": None, "events": []},
    {"id": "3", "distance": 3, "price": 180, "count": 5, "rusts_on": "6", "available_on": None,
     "trade_in": None, "events": []},
    {"id": "4", "distance": 4, "price": 300, "count": 4, "rusts_on": "D", "available_on": None,
     "trade_in": None, "events": []},
    {"id": "5", "distance": 5, "price": 450, "count": 3, "rusts_on": None, "available_on": None,
     "trade_in": None, "events": ["close_privates"]},
    {"id": "6", "distance": 6, "price": 630, "count": 2, "rusts_on": None, "available_on": None,
     "trade_in": None, "events": []},
    {"id": "D", "distance": None, "price": 1100, "count": None, "rusts_on": None,
     "available_on": "6", "trade_in": {"trains": ["4", "5", "6"], "discount": 300}, "events": []},
]  # fmt: skip

# facts §4 (privates_buyable from phase 3 on: see the assumption in phases.toml)
YGB = ["yellow", "green", "brown"]
PHASES: list[dict[str, Any]] = [
    {"id": "2", "on": None, "tiles": ["yellow"], "operating_rounds": 1, "train_limit": 4,
     "offboard_revenue": "yellow", "privates_buyable": False, "events": []},
    {"id": "3", "on": "3", "tiles": ["yellow", "green"], "operating_rounds": 2, "train_limit": 4,
     "offboard_revenue": "yellow", "privates_buyable": True, "events": []},
    {"id": "4", "on": "4", "tiles": ["yellow", "green"], "operating_rounds": 2, "train_limit": 3,
     "offboard_revenue": "yellow", "privates_buyable": True, "events": []},
    {"id": "5", "on": "5", "tiles": YGB, "operating_rounds": 3, "train_limit": 2,
     "offboard_revenue": "brown", "privates_buyable": True, "events": []},
    {"id": "6", "on": "6", "tiles": YGB, "operating_rounds": 3, "train_limit": 2,
     "offboard_revenue": "brown", "privates_buyable": True, "events": []},
    {"id": "D", "on": "D", "tiles": YGB, "operating_rounds": 3, "train_limit": 2,
     "offboard_revenue": "brown", "privates_buyable": True, "events": []},
]  # fmt: skip

# facts §5: id, name, value, revenue, blocked hexes, ability types (auction order)
PRIVATES: list[tuple[str, str, int, int, list[str], list[str]]] = [
    ("SV", "Schuylkill Valley", 20, 5, ["G15"], ["block_hexes"]),
    ("CS", "Champlain & St. Lawrence", 40, 10, ["B20"], ["block_hexes", "tile_lay"]),
    ("DH", "Delaware & Hudson", 70, 15, ["F16"], ["block_hexes", "tile_lay"]),
    ("MH", "Mohawk & Hudson", 110, 20, ["D18"], ["block_hexes", "exchange_share"]),
    ("CA", "Camden & Amboy", 160, 25, ["H18"], ["block_hexes", "grant_share"]),
    (
        "BO",
        "Baltimore & Ohio",
        220,
        30,
        ["I13", "I15"],
        ["block_hexes", "grant_share", "close_on_train", "no_sale_to_corporation"],
    ),
]

# facts §6: id, name, home, city index, token costs, colour, text colour
CORPORATIONS: list[tuple[str, str, str, int | None, list[int], str, str]] = [
    ("PRR", "Pennsylvania Railroad", "H12", None, [0, 40, 100, 100], "#32763f", "#ffffff"),
    ("NYC", "New York Central Railroad", "E19", None, [0, 40, 100, 100], "#474548", "#ffffff"),
    ("CPR", "Canadian Pacific Railroad", "A19", None, [0, 40, 100, 100], "#d1232a", "#ffffff"),
    ("B&O", "Baltimore & Ohio Railroad", "I15", None, [0, 40, 100], "#025aaa", "#ffffff"),
    ("C&O", "Chesapeake & Ohio Railroad", "F6", None, [0, 40, 100], "#ADD8E6", "#000000"),
    ("ERIE", "Erie Railroad", "E11", None, [0, 40, 100], "#FFF500", "#000000"),
    (
        "NYNH",
        "New York, New Haven & Hartford Railroad",
        "G19",
        0,
        [0, 40],
        "#d88e39",
        "#ffffff",
    ),
    ("B&M", "Boston & Maine Railroad", "E23", None, [0, 40], "#95c054", "#ffffff"),
]

# facts §1 and the seeds: every Rules field
RULES: dict[str, Any] = {
    "capitalization": "full",
    "float_percent": 60,
    "ipo_dividends": "none",
    "pool_dividends": "corporation",
    "holding_limit_percent": 60,
    "pool_limit_percent": 50,
    "sell_in_first_stock_round": False,
    "sell_buy_order": "sell_buy_sell",
    "sell_drop": "row_per_share",
    "dividend_move": {"kind": "right_left"},
    "sold_out_rise": True,
    "buy_after_sell_same_corporation": False,
    "operating_order": "share_price",
    "tile_lays": [{"kinds": ["new", "upgrade"], "cost": 0}],
    "private_auction": "waterfall",
    "auction_min_raise": 5,
    "auction_price_drop": 5,
    "auction_forced_price": 0,
    # the seed (000, holding limits): any source; the facts' pool-only reading is the
    # option brown_pool_only_18xx_games
    "brown_multiple_buy_from_ipo": True,
    "private_price_min_factor": 0.5,
    "private_price_max_factor": 2.0,
    "privates_count_for_cert_limit": True,
    "train_buy_from_corporation_min": 1,
    "must_own_train": "with_route",
    "president_may_sell_for_train": True,
    "bankruptcy": {"kind": "game_ends", "sells_shares": False, "keeps_presidency": False},
    "bank_broken": "end_of_or_set",
    "home_token_reserved": True,
    "private_values_count_at_end": True,
    # the seed (002, routes): two different red hexes may end one route; the facts' Canada
    # tag on A9 and A11 is the option offboard_groups_18xx_games
    "offboard_groups": {},
    # the seed (002, private sales): any private between players; the corpus never trades
    # C&A or B&O: option private_trades_18xx_games
    "private_trades_include_share_grants": True,
    "private_sales_in_sellers_turn": True,
    # the seed (002, trains and private sales): a deal between players is at a price both
    # agree; 18xx.games takes the buyer's action as the deal: option deals_18xx_games
    "deals_need_consent": True,
}

# facts §9: neighbour offsets by edge on a pointy map, as (d number, d letter index)
POINTY_OFFSETS = [(-1, 1), (-2, 0), (-1, -1), (1, -1), (2, 0), (1, 1)]


def market_grid() -> list[list[tuple[int, list[str]] | None]]:
    """MARKET_CSV as rows of (price, zone letters) or None."""
    grid: list[list[tuple[int, list[str]] | None]] = []
    for line in MARKET_CSV.splitlines():
        row: list[tuple[int, list[str]] | None] = []
        for cell in line.split(",")[1:]:
            if cell == "-":
                row.append(None)
            else:
                digits = cell.rstrip("PYOB")
                row.append((int(digits), [z.lower() for z in cell[len(digits) :]]))
        grid.append(row)
    return grid


def usable_edges_table() -> dict[str, list[int]]:
    return {
        line.split(",")[0]: [int(e) for e in line.split(",")[1].split()]
        for line in USABLE_EDGES_CSV.splitlines()
    }


def hex_id(x: int, y: int) -> str:
    return f"{chr(ord('A') + y)}{x + 1}"


# ---------------------------------------------------------------------------------------
# TOML sources


def load_toml(path: Path) -> dict[str, Any]:
    with path.open("rb") as f:
        return tomllib.load(f)


def expand(hexes: list[Hex]) -> dict[str, Hex]:
    out: dict[str, Hex] = {}
    for h in hexes:
        for at in h.at if isinstance(h.at, list) else [h.at]:
            assert at not in out, f"{at} listed twice"
            out[at] = h
    return out


@pytest.mark.parametrize("kind", KINDS)
def test_source_parses_into_model(kind: str) -> None:
    path = TITLE_DIR / f"{kind}.toml"
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first == f"#:schema ../../schema/{kind}.schema.json"
    FILE_MODELS[kind].model_validate(load_toml(path))


def test_common_tiles_parse_and_cover_manifest() -> None:
    assert COMMON_TILES.read_text(encoding="utf-8").splitlines()[0] == (
        "#:schema ../../schema/tiles.schema.json"
    )
    library = TilesFile.model_validate(load_toml(COMMON_TILES))
    assert library.manifest == {}
    ids = [t.id for t in library.tiles]
    assert len(ids) == len(set(ids))
    assert set(TILE_COUNTS) <= set(ids)
    for tile in library.tiles:
        if tile.id in TILE_FACES:
            color, label, exits, _ = TILE_FACES[tile.id]
            got = {e for c in tile.cities + tile.towns for e in c.exits}
            got |= {e for pair in tile.track for e in pair}
            assert (tile.color.value, tile.label, sorted(got)) == (color, label, exits), tile.id


def test_source_manifest() -> None:
    tiles = TilesFile.model_validate(load_toml(TITLE_DIR / "tiles.toml"))
    assert tiles.library == ["common"]
    assert tiles.tiles == []
    assert tiles.manifest == TILE_COUNTS
    assert sum(TILE_COUNTS.values()) == 85
    assert len(TILE_COUNTS) == 46


def test_source_map_counts() -> None:
    board = MapFile.model_validate(load_toml(TITLE_DIR / "map.toml"))
    assert board.layout.value == "pointy"
    assert board.rows == list("ABCDEFGHIJK")
    assert board.columns == [1, 24]
    hexes = expand(board.hexes)
    assert len(hexes) == 93
    colors = Counter(h.color.value for h in hexes.values())
    assert colors == {"white": 67, "yellow": 7, "gray": 12, "red": 7}
    assert sorted(h for h, v in hexes.items() if v.color.value == "yellow") == sorted(YELLOW)
    assert sorted(h for h, v in hexes.items() if v.color.value == "gray") == sorted(GRAY)
    assert sorted(h for h, v in hexes.items() if v.color.value == "red") == sorted(RED)
    for at in WATER:
        assert (hexes[at].terrain, hexes[at].cost) == ("water", 80), at
    for at in MOUNTAIN:
        assert (hexes[at].terrain, hexes[at].cost) == ("mountain", 120), at


def test_source_market_rows() -> None:
    market = MarketFile.model_validate(load_toml(TITLE_DIR / "market.toml"))
    assert [len(r) for r in market.rows] == [19, 19, 16, 13, 11, 10, 9, 8, 7, 7, 7]
    expected = [
        ["" if c is None else f"{c[0]}{''.join(c[1])}" for c in row] for row in market_grid()
    ]
    assert market.rows == expected


def test_source_private_abilities() -> None:
    privates = PrivatesFile.model_validate(load_toml(TITLE_DIR / "privates.toml")).privates
    by_id = {p.id: [a.model_dump(by_alias=True) for a in p.abilities] for p in privates}
    assert by_id["CS"][1] == {
        "type": "tile_lay",
        "hexes": ["B20"],
        "tiles": ["3", "4", "58"],
        "extra": True,
        "only_round_bought": False,
        "waives_lay_cost": False,
        "connected": False,
        "free": True,
        "token": False,
        "anytime": True,  # at any point of the owning corporation's turn
    }
    assert by_id["DH"][1] == {
        "type": "tile_lay",
        "hexes": ["F16"],
        "tiles": ["57"],
        "extra": False,
        "only_round_bought": False,
        "waives_lay_cost": False,
        "connected": False,
        "free": False,
        "token": True,
        "anytime": False,
    }
    assert by_id["MH"][1] == {
        "type": "exchange_share",
        "corporation": "NYC",
        "from": ["ipo", "pool"],
    }
    assert by_id["CA"][1] == {"type": "grant_share", "corporation": "PRR", "president": False}
    assert by_id["BO"][1:] == [
        {"type": "grant_share", "corporation": "B&O", "president": True},
        {"type": "close_on_train", "corporation": "B&O"},
        {"type": "no_sale_to_corporation"},
    ]


# ---------------------------------------------------------------------------------------
# compiled document (generated/1830.json)


@pytest.fixture(scope="module")
def compiled() -> dict[str, Any]:
    with COMPILED.open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
        return data


def test_identity_and_money(compiled: dict[str, Any]) -> None:
    assert compiled["id"] == "1830"
    assert compiled["version"] == "1.5.0"
    assert compiled["designers"] == ["Francis Tresham"]
    assert compiled["players"] == {"min": 2, "max": 6}
    assert compiled["bank"] == 12000
    assert compiled["starting_cash"] == {"2": 1200, "3": 800, "4": 600, "5": 480, "6": 400}
    assert compiled["certificate_limit"] == {"2": 28, "3": 20, "4": 16, "5": 13, "6": 11}
    # the two optional rules of 1830, then 18xx.games' readings (import_18xx.options)
    assert [o["id"] for o in compiled["options"]] == [
        "multiple_brown_from_ipo",
        "optional_6_train",
        "bankrupt_sells_shares",
        "brown_pool_only_18xx_games",
        "new_trains_18xx_games",
        "emergency_18xx_games",
        "private_trades_18xx_games",
        "deals_18xx_games",
        "offboard_groups_18xx_games",
        "auction_18xx_games",
    ]
    opts = {o["id"]: o for o in compiled["options"]}
    assert opts["private_trades_18xx_games"]["rules"] == {
        "private_trades_include_share_grants": False,
        "private_sales_in_sellers_turn": False,
    }
    assert opts["deals_18xx_games"]["rules"] == {"deals_need_consent": False}
    assert opts["offboard_groups_18xx_games"]["rules"] == {
        "offboard_groups": {"A9": "Canada", "A11": "Canada"}
    }
    # every 1830 rule choice, exactly (rules added later for other titles keep their defaults)
    assert {k: compiled["rules"][k] for k in RULES} == RULES


def test_hex_counts(compiled: dict[str, Any]) -> None:
    hexes = compiled["hexes"]
    assert compiled["layout"] == "pointy"
    assert len(hexes) == 93
    assert Counter(h["color"] for h in hexes.values()) == {
        "white": 67,
        "yellow": 7,
        "gray": 12,
        "red": 7,
    }
    for at in YELLOW:
        assert hexes[at]["color"] == "yellow"
    for at in GRAY:
        assert hexes[at]["color"] == "gray"
    for at in RED:
        assert hexes[at]["color"] == "red"


def test_white_hex_contents(compiled: dict[str, Any]) -> None:
    hexes = compiled["hexes"]
    empty_city = [{"revenue": 0, "slots": 1, "exits": []}]
    for at in NO_STOP_WHITE:
        assert (hexes[at]["cities"], hexes[at]["towns"], hexes[at]["track"]) == ([], [], []), at
    for at in ONE_CITY:
        assert (hexes[at]["cities"], hexes[at]["towns"]) == (empty_city, []), at
    for at in ONE_TOWN:
        assert (hexes[at]["cities"], hexes[at]["towns"]) == ([], [{"revenue": 0, "exits": []}])
    for at in TWO_TOWNS:
        assert hexes[at]["towns"] == [{"revenue": 0, "exits": []}] * 2, at
    for at in WATER:
        assert (hexes[at]["terrain"], hexes[at]["cost"]) == ("water", 80), at
    for at in MOUNTAIN:
        assert (hexes[at]["terrain"], hexes[at]["cost"]) == ("mountain", 120), at
    terrain = set(WATER + MOUNTAIN)
    for at, h in hexes.items():
        if at not in terrain:
            assert (h["terrain"], h["cost"]) == (None, 0), at


def test_named_hexes(compiled: dict[str, Any]) -> None:
    hexes = compiled["hexes"]
    e19 = hexes["E19"]
    assert e19["name"] == "Albany"
    assert e19["color"] == "white"
    assert e19["cities"] == [{"revenue": 0, "slots": 1, "exits": []}]
    assert (e19["x"], e19["y"]) == (18, 4)
    assert e19["homes"] == ["NYC"]

    g19 = hexes["G19"]
    assert (g19["name"], g19["color"], g19["label"]) == ("New York & Newark", "yellow", "NY")
    assert (g19["terrain"], g19["cost"]) == ("water", 80)
    assert g19["cities"] == [
        {"revenue": 40, "slots": 1, "exits": [3]},
        {"revenue": 40, "slots": 1, "exits": [0]},
    ]

    h12 = hexes["H12"]
    assert (h12["name"], h12["color"]) == ("Altoona", "gray")
    assert h12["cities"] == [{"revenue": 10, "slots": 1, "exits": [1, 4]}]
    assert h12["track"] == [[1, 4]]

    assert hexes["A17"]["track"] == [[0, 5]]
    assert hexes["D24"]["track"] == [[0, 1]]
    assert hexes["E9"]["track"] == [[2, 3]]
    assert hexes["K15"]["cities"] == [{"revenue": 20, "slots": 1, "exits": [2]}]
    assert hexes["D14"]["cities"] == [{"revenue": 20, "slots": 1, "exits": [0, 1, 4]}]
    assert hexes["A19"]["cities"] == [{"revenue": 40, "slots": 1, "exits": [0, 5]}]
    assert hexes["C15"]["towns"] == [{"revenue": 10, "exits": [1, 3]}]
    assert hexes["I15"]["cities"] == [{"revenue": 30, "slots": 1, "exits": [0, 4]}]
    assert hexes["I15"]["label"] == "B"
    assert hexes["E23"]["cities"] == [{"revenue": 30, "slots": 1, "exits": [3, 5]}]
    assert hexes["E23"]["label"] == "B"
    for at in ["D10", "E5", "E11", "H18"]:
        assert hexes[at]["label"] == "OO", at
        assert hexes[at]["cities"] == [{"revenue": 0, "slots": 1, "exits": []}] * 2, at
    assert hexes["E11"]["name"] == "Dunkirk & Buffalo"
    assert hexes["F20"]["name"] == "New Haven & Hartford"


def test_offboards(compiled: dict[str, Any]) -> None:
    hexes = compiled["hexes"]
    for at, expected in OFFBOARDS.items():
        assert hexes[at]["offboard"] == expected, at
    for at, h in hexes.items():
        if at not in OFFBOARDS:
            assert h["offboard"] is None, at
    assert hexes["F2"]["name"] == "Chicago"
    assert hexes["J2"]["name"] == "Gulf"
    assert hexes["A11"]["name"] == "Canadian West"


def test_borders(compiled: dict[str, Any]) -> None:
    hexes = compiled["hexes"]
    for at, h in hexes.items():
        impassable = sorted(b["edge"] for b in h["borders"] if b["type"] == "impassable")
        cosmetic = sorted(b["edge"] for b in h["borders"] if b["type"] == "cosmetic")
        assert impassable == IMPASSABLE.get(at, []), at
        assert cosmetic == COSMETIC.get(at, []), at


def test_neighbours(compiled: dict[str, Any]) -> None:
    hexes = compiled["hexes"]
    assert hexes["E19"]["neighbors"] == ["F18", "E17", "D18", "D20", "E21", "F20"]
    assert (hexes["A9"]["x"], hexes["A9"]["y"]) == (8, 0)
    assert (hexes["K15"]["x"], hexes["K15"]["y"]) == (14, 10)
    assert hexes["A9"]["neighbors"] == [None, None, None, None, "A11", "B10"]
    assert hexes["K13"]["neighbors"] == [None, None, "J12", "J14", "K15", None]
    for at, h in hexes.items():
        expected = []
        for dx, dy in POINTY_OFFSETS:
            other = hex_id(h["x"] + dx, h["y"] + dy)
            expected.append(other if other in hexes else None)
        assert h["neighbors"] == expected, at


def test_usable_edges(compiled: dict[str, Any]) -> None:
    hexes = compiled["hexes"]
    assert hexes["E7"]["usable_edges"] == [1, 2, 3]
    assert hexes["C7"]["usable_edges"] == [0, 4, 5]
    assert hexes["G19"]["usable_edges"] == [0, 1, 2, 3]
    assert hexes["H2"]["usable_edges"] == [3, 4, 5]
    table = usable_edges_table()
    for at, h in hexes.items():
        if h["color"] in ("white", "yellow"):
            assert h["usable_edges"] == table.get(at, [0, 1, 2, 3, 4, 5]), at


def test_homes_and_blocks(compiled: dict[str, Any]) -> None:
    hexes = compiled["hexes"]
    homes = {at: h["homes"] for at, h in hexes.items() if h["homes"]}
    assert homes == {
        "H12": ["PRR"],
        "E19": ["NYC"],
        "A19": ["CPR"],
        "I15": ["B&O"],
        "F6": ["C&O"],
        "E11": ["ERIE"],
        "G19": ["NYNH"],
        "E23": ["B&M"],
    }
    blocked = {at: h["blocked_by"] for at, h in hexes.items() if h["blocked_by"]}
    assert blocked == {
        "G15": ["SV"],
        "B20": ["CS"],
        "F16": ["DH"],
        "D18": ["MH"],
        "H18": ["CA"],
        "I13": ["BO"],
        "I15": ["BO"],
    }


def test_tiles(compiled: dict[str, Any]) -> None:
    tiles = compiled["tiles"]
    assert {tid: t["count"] for tid, t in tiles.items()} == TILE_COUNTS
    assert sum(t["count"] for t in tiles.values()) == 85
    by_color: Counter[str] = Counter()
    for t in tiles.values():
        by_color[t["color"]] += t["count"]
    assert by_color == {"yellow": 34, "green": 25, "brown": 26}
    for tid, (color, label, exits, orientations) in TILE_FACES.items():
        t = tiles[tid]
        assert (t["color"], t["label"], t["exits"]) == (color, label, exits), tid
        assert len(t["orientations"]) == orientations, tid
    for tid, content in TILE_CONTENT.items():
        t = tiles[tid]
        assert {k: t[k] for k in ("cities", "towns", "track")} == content, tid


def test_first_tiles(compiled: dict[str, Any]) -> None:
    first = compiled["first_tiles"]
    narrow = {"C7": {"7", "8"}, "F8": {"7", "8"}, "H2": {"7", "8"}, "E7": {"3", "58"}}
    for at in NO_STOP_WHITE:
        assert set(first[at]) == narrow.get(at, {"7", "8", "9"}), at
    for at in ONE_TOWN:
        assert set(first[at]) == narrow.get(at, {"3", "4", "58"}), at
    for at in TWO_TOWNS:
        assert set(first[at]) == {"1", "2", "55", "56", "69"}, at
    for at in ONE_CITY:
        assert set(first[at]) == {"57"}, at
    assert len(first) == 67
    assert first["E7"] == {"3": [1, 2], "58": [1]}  # London: only rotations inside edges 1-3
    assert first["E19"] == {"57": [0, 1, 2, 3, 4, 5]}


def test_upgrades(compiled: dict[str, Any]) -> None:
    upgrades = compiled["upgrades"]
    for tid in TILE_COUNTS:
        assert set(upgrades.get(tid, {})) == UPGRADES.get(tid, set()), tid
    assert upgrades["D10"] == {"59": [0, 1, 2, 3, 4, 5]}
    assert upgrades["E5"] == {"59": [0, 1, 2, 4]}
    assert upgrades["E11"] == {"59": [0, 2, 3, 4]}
    assert upgrades["H18"] == {"59": [0, 1, 3, 5]}
    assert upgrades["G19"] == {"54": [0]}
    assert upgrades["57"] == {"14": [0, 2, 3, 5], "15": [0, 3]}  # relative rotations
    for at, exits in (("I15", {0, 2, 4}), ("E23", {1, 3, 5})):
        assert set(upgrades[at]) == {"53"}, at
        assert upgrades[at]["53"], at
        for r in upgrades[at]["53"]:
            assert {(e + r) % 6 for e in (0, 2, 4)} == exits, (at, r)


def test_trains(compiled: dict[str, Any]) -> None:
    keys = list(TRAINS[0])
    assert [{k: t[k] for k in keys} for t in compiled["trains"]] == TRAINS
    assert all(t["obsolete_on"] is None and t["variants"] == [] for t in compiled["trains"])
    rusts = {t["id"]: t["rusts_on"] for t in compiled["trains"] if t["rusts_on"]}
    assert rusts == {"2": "4", "3": "6", "4": "D"}


def test_phases(compiled: dict[str, Any]) -> None:
    assert compiled["phases"] == PHASES


def test_privates(compiled: dict[str, Any]) -> None:
    got = [
        (
            p["id"],
            p["name"],
            p["value"],
            p["revenue"],
            next(a["hexes"] for a in p["abilities"] if a["type"] == "block_hexes"),
            [a["type"] for a in p["abilities"]],
        )
        for p in compiled["privates"]
    ]
    assert got == PRIVATES
    bo = compiled["privates"][5]["abilities"]
    assert {"type": "grant_share", "corporation": "B&O", "president": True} in bo
    assert {"type": "close_on_train", "corporation": "B&O"} in bo
    ca = compiled["privates"][4]["abilities"]
    assert {"type": "grant_share", "corporation": "PRR", "president": False} in ca
    mh = compiled["privates"][3]["abilities"][1]
    assert (mh["corporation"], mh.get("from", mh.get("from_"))) == ("NYC", ["ipo", "pool"])


def test_corporations(compiled: dict[str, Any]) -> None:
    got = [
        (c["id"], c["name"], c["home"], c["city"], c["tokens"], c["color"], c["text_color"])
        for c in compiled["corporations"]
    ]
    assert got == CORPORATIONS
    for c in compiled["corporations"]:
        assert c["shares"] == [20, 10, 10, 10, 10, 10, 10, 10, 10], c["id"]
        assert c["float_percent"] == 60, c["id"]


def test_market_cells(compiled: dict[str, Any]) -> None:
    market = compiled["market"]
    assert market["type"] == "2d"
    assert set(market["zones"]) == {"p", "y", "o", "b"}
    cells = market["cells"]
    grid = market_grid()
    assert len(cells) == len(grid) == 11
    for r, (row, expected) in enumerate(zip(cells, grid, strict=True)):
        got = [None if c is None else (c["price"], sorted(c["zones"])) for c in row]
        while got and got[-1] is None:
            got.pop()
        assert got == [None if c is None else (c[0], sorted(c[1])) for c in expected], r
        for c, e in zip(row, expected, strict=False):
            if c is None or e is None:
                continue
            flags = {}
            for zone in e[1]:
                flags.update(ZONE_FLAGS[zone])
            assert {f: c[f] for f in FLAG_NAMES} == {f: flags.get(f, False) for f in FLAG_NAMES}
    assert market["par"] == [[0, 6], [1, 6], [2, 6], [3, 6], [4, 6], [5, 6]]


def test_market_moves(compiled: dict[str, Any]) -> None:
    cells = compiled["market"]["cells"]
    assert cells[0][18]["pay"] == [0, 18]  # $350: top row, right end, stays
    assert cells[2][15]["pay"] == [1, 15]  # right end of row 2 moves up
    assert cells[0][6]["pay"] == [0, 7]
    assert cells[0][6]["withhold"] == [0, 5]
    assert cells[3][0]["withhold"] == [4, 0]  # no cell to the left: down
    assert cells[8][1]["withhold"] == [8, 1]  # nothing left, nothing below: stays
    assert cells[6][0]["withhold"] == [7, 0]
    assert cells[5][9]["up"] == [4, 9]
    assert cells[0][3]["up"] == [0, 3]
    assert cells[4][10]["down"] == [4, 10]  # no cell below: stays
    assert cells[1][6]["down"] == [2, 6]
