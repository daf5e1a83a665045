"""1833NE against its sources: seed 003 (the rules authority) and the facts reference.

The compiled document generated/1833ne.json (docs/compiled-format.md) must carry the exact
values of the 1833NE facts reference (18xx.games' data: map, tiles, trains, phases, privates,
corporations, market, money) and of the seed's phase table and worked example. Values the
sources leave open are documented assumptions (docs/1833ne-assumptions.md); the tests
below pin them too, so a change to one is a deliberate edit.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from eighteen.title.compile import compile_title, to_json
from eighteen.title.pipeline import load_title

ROOT = Path(__file__).resolve().parents[2]
TITLE_DIR = ROOT / "titles" / "1833ne"
COMPILED = ROOT / "generated" / "1833ne.json"


@pytest.fixture(scope="module")
def c() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(COMPILED.read_text(encoding="utf-8"))
    return data


def test_title_is_clean_and_generated_is_current() -> None:
    title, problems = load_title(TITLE_DIR)
    assert [p.format() for p in problems] == []
    assert title is not None
    assert to_json(compile_title(title)) == COMPILED.read_text(encoding="utf-8")


# ---------------------------------------------------------------------------------------
# money and players (seed 003, setup; facts §1)


def test_identity_and_money(c: dict[str, Any]) -> None:
    assert c["id"] == "1833ne"
    assert c["designers"] == ["Tom Lehmann"]
    assert c["players"] == {"min": 3, "max": 5}
    assert c["bank"] == 10000
    assert c["starting_cash"] == {"3": 600, "4": 450, "5": 400}
    assert c["certificate_limit"] == {"3": 24, "4": 18, "5": 14}


def test_certificate_limit_by_corporations(c: dict[str, Any]) -> None:
    counts = ["14", "13", "12", "11", "10", "9", "8", "7", "6", "5"]
    table = c["certificate_limit_by_corporations"]
    assert [table["3"][n] for n in counts] == [35, 33, 30, 28, 26, 24, 22, 19, 16, 14]
    assert [table["4"][n] for n in counts] == [26, 25, 23, 21, 20, 18, 16, 14, 12, 10]
    assert [table["5"][n] for n in counts] == [21, 20, 18, 17, 16, 14, 13, 11, 10, 8]
    for players, limit in c["certificate_limit"].items():
        assert table[players]["9"] == limit  # nine corporations in the standard game


def test_rule_choices(c: dict[str, Any]) -> None:
    r = c["rules"]
    expected = {
        "capitalization": "incremental",
        "float_percent": 20,
        "treasury_share_price": "market",
        "ipo_dividends": "corporation",
        "pool_dividends": "none",
        "holding_limit_percent": 60,
        "pool_limit_percent": 50,
        "sell_in_first_stock_round": True,
        "sell_before_operated": "president_only",
        "sell_buy_order": "sell_buy",
        "sell_drop": "step_if_president",
        "stock_round_end_market_drop": True,
        "sold_out_rise": True,
        "dividend_move": {
            "kind": "by_ratio",
            "steps": [
                {"at_least": 0.0, "steps": -1, "min_price": 0},
                {"at_least": 0.5, "steps": 0, "min_price": 0},
                {"at_least": 1.0, "steps": 1, "min_price": 0},
                {"at_least": 2.0, "steps": 2, "min_price": 0},
                {"at_least": 3.0, "steps": 3, "min_price": 165},
            ],
        },
        "dividend_options": ["full", "half", "withhold"],
        "half_pay_retain_multiple": 10,
        "operating_order": "first_ascending_then_price",
        "tile_lays": [
            {"kinds": ["new"], "cost": 20},
            {"kinds": ["new", "upgrade"], "cost": 20},
        ],
        "obsolete_trains_count_for_limit": False,
        "obsolete_trains_tradable": False,
        "paid_stops_include_station": True,
        "emergency_money": [
            "treasury",
            {
                "kind": "issue_shares",
                "drop_per_share": 1,
                "sale_offset": -1,
                "pricing": "per_share",
                "min_price": 20,
                "only_as_needed": True,
            },
            "president_cash",
            "president_sells_shares",
        ],
        "emergency_sales_keep_president": True,
        "emergency_buy_from_bank_only": True,
        "bankruptcy": {"kind": "player_eliminated", "shares_unmoved": True},
        "bank_broken": "end_of_or_set",
        "private_price_min": 1,
        "private_price_min_factor": 0.0,
        "private_price_max_factor": 1.0,
        "private_sellers": "any_player",
        "auction_min_raise": 5,
        "auction_price_drop": 0,
        "auction_all_pass_revenue": 2,
        "auction_first_bid_at_face": True,
        "must_own_train": "always",
        "privates_count_for_cert_limit": True,
    }
    assert {k: r[k] for k in expected} == expected
    assert r["issue_redeem"] == {
        "issue_offset": -1,
        "redeem_offset": 1,
        "moves_price": False,
        "limit": "player_shares_minus_market",
        "once_per_turn": True,
    }


# ---------------------------------------------------------------------------------------
# market (facts §2; seed 003)

PRICES = [
    0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 112, 124, 137, 150, 165, 180, 195, 212,
    230, 250, 270, 295, 320, 345, 375, 405, 440, 475, 510, 550, 590, 630, 680, 730,
]  # fmt: skip


def test_market_cells(c: dict[str, Any]) -> None:
    m = c["market"]
    assert m["type"] == "linear"
    assert len(m["cells"]) == 1
    row = m["cells"][0]
    assert [cell["price"] for cell in row] == PRICES
    assert [row[i]["price"] for i in range(len(row)) if row[i]["par"]] == [
        40, 50, 60, 70, 80, 90, 100, 112, 124, 137, 150,
    ]  # fmt: skip
    assert [cell["price"] for cell in row if cell["closes"]] == [0]
    for cell in row:
        assert not (cell["cert_limit_exempt"] or cell["holding_limit_exempt"])
        assert not cell["multiple_buy"]
    assert m["par"][0] == [0, 14] and m["par"][-1] == [0, 4]


def _cell(price: int) -> int:
    return PRICES.index(price)


def _dividend_move(c: dict[str, Any], paid: int, price: int) -> int:
    """New price after paying ``paid`` to the shares at ``price`` (the by_ratio steps)."""
    ratio = paid / price
    rows = [
        r
        for r in c["rules"]["dividend_move"]["steps"]
        if r["at_least"] <= ratio and price >= r["min_price"]
    ]
    steps: int = max(rows, key=lambda r: r["at_least"])["steps"]
    return PRICES[max(0, min(len(PRICES) - 1, _cell(price) + steps))]


def test_seed_price_moves(c: dict[str, Any]) -> None:
    # seed 003 step 12: $100 paid at $70 -> one right, $80
    assert _dividend_move(c, 100, 70) == 80
    # step 15: $80 at $10 -> two right (3x reached but below $165), $30
    assert _dividend_move(c, 80, 10) == 30
    # step 8 and 10: nothing paid -> one left
    assert _dividend_move(c, 0, 20) == 10
    assert _dividend_move(c, 0, 80) == 70
    # half to below the price: stays; 3x at $165 or more: three right
    assert _dividend_move(c, 40, 80) == 80
    assert _dividend_move(c, 500, 165) == 212
    # issue one cell below, redeem one above (steps 9 and 14)
    ir = c["rules"]["issue_redeem"]
    assert PRICES[_cell(80) + ir["issue_offset"]] == 70
    assert PRICES[_cell(10) + ir["redeem_offset"]] == 20
    # emergency issue of 2 at $80, share by share (the seed's wording): $80 -> $70, sold at
    # $60; $70 -> $60, sold at $50
    em = c["rules"]["emergency_money"][1]
    drops = [_cell(80) - k * em["drop_per_share"] for k in (1, 2)]
    assert [PRICES[d + em["sale_offset"]] for d in drops] == [60, 50]
    assert PRICES[drops[-1]] == 60


# ---------------------------------------------------------------------------------------
# trains and phases (seed 003 phase table; facts §3, §4)


def test_seed_phase_table(c: dict[str, Any]) -> None:
    cards = []
    for t in c["trains"]:
        sides = [(t["id"], t["price"])] + [(v["id"], v["price"]) for v in t["variants"]]
        cards.append(sides)
    assert cards == [
        [("2", 75), ("2+1", 100)],
        [("3/5", 180), ("2+2", 140)],
        [("4/7", 320), ("3+3", 230)],
        [("6/9", 750), ("5+3", 640)],
        [("7+3", 1000)],
    ]
    assert [p["id"] for p in c["phases"]] == ["I", "II", "III", "IV", "V"]
    assert [p["on"] for p in c["phases"]] == [None, "3/5", "4/7", "6/9", "7+3"]


def test_trains(c: dict[str, Any]) -> None:
    got = [
        (t["id"], t["distance"], t["count"], t["obsolete_on"], t["rusts_on"]) for t in c["trains"]
    ]
    assert got == [
        ("2", 2, 8, "4/7", "6/9"),
        ("3/5", {"pay": 3, "visit": 5, "cities": None, "towns": None}, 5, "6/9", "7+3"),
        ("4/7", {"pay": 4, "visit": 7, "cities": None, "towns": None}, 6, "7+3", None),
        ("6/9", {"pay": 6, "visit": 9, "cities": None, "towns": None}, 3, None, None),
        ("7+3", {"cities": 7, "towns": 3, "pay": None, "visit": None}, None, None, None),
    ]
    variants = {v["id"]: v["distance"] for t in c["trains"] for v in t["variants"]}
    assert {k: (d["cities"], d["towns"]) for k, d in variants.items()} == {
        "2+1": (2, 1),
        "2+2": (2, 2),
        "3+3": (3, 3),
        "5+3": (5, 3),
    }


def test_phases(c: dict[str, Any]) -> None:
    got = [
        (
            p["tiles"],
            p["operating_rounds"],
            p["train_limit"],
            p["offboard_revenue"],
            p["privates_buyable"],
            p["events"],
        )
        for p in c["phases"]
    ]
    y, g, b = "yellow", "green", "brown"
    assert got == [
        ([y], 2, 3, "I-II", True, []),
        ([y, g], 2, 3, "I-II", True, []),
        ([y, g], 2, 3, "III-IV", False, ["close_player_privates"]),
        ([y, g, b], 2, 2, "III-IV", False, []),
        ([y, g, b], 2, 2, "V", False, []),
    ]


# ---------------------------------------------------------------------------------------
# privates and corporations (facts §5, §6; seed 003)


def test_privates(c: dict[str, Any]) -> None:
    got = [
        (p["id"], p["name"], p["value"], p["revenue"], p.get("flips_on"), p.get("closes_on"))
        for p in c["privates"]
    ]
    assert got == [
        ("P1", "Granite Railway", 15, 5, None, "III"),
        ("P2", "Lowell Merchants", 40, 10, None, "III"),
        ("P3", "Champlain & St. Lawrence", 50, 10, "III", "IV"),
        ("P4", "Ogdensburg Railroad", 60, 15, "III", "IV"),
        ("P5", "Luxury Ferry Service", 70, 15, "III", "IV"),
        ("P6", "Delaware & Hudson Railroad", 80, 30, "III", None),
    ]
    powers = {p["id"]: [a["type"] for a in p["abilities"]] for p in c["privates"]}
    assert powers == {
        "P1": ["block_hexes"],
        "P2": ["block_hexes", "tile_lay", "restrict_corporation"],
        "P3": ["block_hexes", "tile_lays"],
        "P4": ["virtual_station", "bonus_multiplier"],
        "P5": ["ferry_multiplier"],
        "P6": ["virtual_station", "exclusive_hexes", "purchase_fee"],
    }
    blocked = {h: r["blocked_by"] for h, r in c["hexes"].items() if r["blocked_by"]}
    assert blocked == {"H23": ["P1"], "G20": ["P2"], "C4": ["P3"], "C6": ["P3"]}
    by_id = {p["id"]: p for p in c["privates"]}
    lays = by_id["P3"]["abilities"][1]["lays"]
    assert [(x["hex"], x["tiles"], x["toward"]) for x in lays] == [
        ("C4", ["3", "4", "58"], ["B3"]),
        ("C6", ["7", "8", "9"], []),
    ]
    assert by_id["P6"]["abilities"][2]["amount"] == 40
    assert by_id["P4"]["abilities"][1]["phases"] == ["I", "II", "III"]


def test_corporations(c: dict[str, Any]) -> None:
    got = [(x["id"], x["name"], x["home"], x["city"], x["tokens"]) for x in c["corporations"]]
    assert got == [
        ("B&W", "Boston & Worcester", "G22", 0, [0, 80]),
        ("B&P", "Boston & Providence", "F25", None, [0, 80]),
        ("B&L", "Boston & Lowell", "G22", 1, [0, 80]),
        ("FRR", "Fitchburg Railroad", "E20", None, [0, 80]),
        ("HR", "Hartford Railroad", "C24", None, [0, 80]),
        ("RR", "Rutland Railroad", "C12", None, [0, 80]),
        ("CV", "Central Vermont Railroad", "C8", None, [0, 80]),
        ("StL&A", "St. Lawrence & Atlantic", "B3", 1, [0, 80]),
        ("A&StL", "Atlantic & St. Lawrence", "I14", 0, [0, 80]),
    ]
    for corp in c["corporations"]:
        assert corp["shares"] == [20, 10, 10, 10, 10, 10, 10, 10, 10]
        assert corp["float_percent"] == 20
    by_id = {x["id"]: x for x in c["corporations"]}
    assert by_id["B&W"]["reservations"] == [
        {"hex": "E22", "city": None, "from_color": None, "ends_on": "IV"}
    ]
    assert by_id["B&W"]["station_costs"] == {"E22": 40}
    assert by_id["B&P"]["reservations"] == [
        {"hex": "G22", "city": None, "from_color": "green", "ends_on": "IV"}
    ]
    assert by_id["A&StL"]["joint_token"] == {
        "partner": "StL&A",
        "hex": "F5",
        "when": "first_tile",
    }


# ---------------------------------------------------------------------------------------
# map (facts §7)


def test_hex_counts(c: dict[str, Any]) -> None:
    hexes = c["hexes"]
    assert len(hexes) == 100
    assert Counter(h["color"] for h in hexes.values()) == {
        "white": 75,
        "yellow": 8,
        "gray": 4,
        "red": 10,
        "blue": 3,
    }
    assert c["layout"] == "flat"
    assert hexes["A6"]["neighbors"][5] == "B7"  # facts §0 example: A6 edge 5 -> B7


NAMED_STOPS = {
    # hex: (name, cities, towns)
    "B3": ("Montreal", 2, 0), "B11": ("Westport", 0, 1), "B27": ("Bridgeport", 0, 1),
    "C4": ("St. Jean", 0, 1), "C8": ("St. Albans/Burlington", 1, 0), "C12": ("Rutland", 1, 0),
    "C24": ("Hartford", 1, 0), "C26": ("New Haven", 1, 0), "D19": ("Greenfield", 0, 1),
    "D21": ("Springfield", 1, 0), "E20": ("Fitchburg", 1, 0), "E22": ("Worcester", 1, 0),
    "E26": ("Norwich", 1, 0), "F3": ("Richmond", 0, 1), "F5": ("Sherbrooke", 1, 0),
    "F15": ("Concord NH", 0, 1), "F17": ("Manchester", 1, 0), "F19": ("Nashua", 1, 0),
    "F21": ("Concord MA", 0, 1), "F23": ("Framingham", 0, 1), "F25": ("Providence", 1, 0),
    "F27": ("Kingston", 0, 1), "G20": ("Lowell", 1, 0), "G22": ("Boston", 2, 0),
    "G24": ("Mansfield", 0, 1), "G26": ("Fall River", 0, 1), "H17": ("Portsmouth", 1, 0),
    "H19": ("Newburyport", 0, 1), "H21": ("Salem", 0, 1), "H23": ("Quincy", 0, 1),
    "H25": ("New Bedford & Plymouth", 2, 0), "I10": ("Bethel", 0, 1),
    "I14": ("Portland", 1, 0), "I26": ("Hyannis", 0, 1),
}  # fmt: skip


def test_cities_and_towns(c: dict[str, Any]) -> None:
    got = {
        hid: (h["name"], len(h["cities"]), len(h["towns"]))
        for hid, h in c["hexes"].items()
        if h["cities"] or h["towns"]
    }
    assert got == NAMED_STOPS


def test_preprinted_faces(c: dict[str, Any]) -> None:
    h = c["hexes"]

    def stops(hid: str) -> tuple[list[tuple[int, int, list[int]]], list[tuple[int, list[int]]]]:
        return (
            [(x["revenue"], x["slots"], x["exits"]) for x in h[hid]["cities"]],
            [(x["revenue"], x["exits"]) for x in h[hid]["towns"]],
        )

    assert stops("B3") == ([(30, 1, [5]), (30, 1, [4])], [])
    assert stops("B11") == ([], [(20, [1, 3])])
    assert stops("C24") == ([(20, 1, [0, 4])], [])
    assert stops("E20") == ([(20, 1, [2, 5])], [])
    assert stops("F17") == ([(30, 1, [0, 3])], [])
    assert stops("F25") == ([(20, 1, [0, 4])], [])
    assert stops("G22") == ([(30, 1, [1]), (30, 1, [3])], [])
    assert stops("I14") == ([(30, 1, [3])], [])
    assert stops("H25") == ([(20, 1, [3]), (30, 1, [1, 5])], [])
    assert stops("F3") == ([], [(10, [2, 3])])
    assert h["G22"]["stubs"] == [0]
    assert h["I14"]["stubs"] == [1, 2]
    assert {hid: x["label"] for hid, x in h.items() if x["label"]} == {
        "B3": "Mo", "B11": "We", "F5": "Sh", "F17": "Ma", "F25": "Pr", "G22": "B",
        "I14": "Po", "I26": "Cape Cod",
    }  # fmt: skip
    assert {hid: x["track"] for hid, x in h.items() if x["track"]} == {
        "B7": [[0, 2], [0, 3], [2, 5]],
        "F1": [[0, 5]],
        "F3": [[0, 2]],
        "G4": [[1, 3]],
    }


OFFBOARDS = {
    # hex: (I-II, III-IV, V, exits)
    "A6": (10, 30, 10, [5]), "A12": (40, 70, 80, [4]), "A18": (0, 0, 0, []),
    "A20": (40, 30, 0, [5]), "A24": (10, 40, 30, [5]), "A28": (0, 20, 90, [4]),
    "B17": (30, 50, 40, [0, 3, 5]), "F1": (0, 0, 0, []), "G2": (30, 20, 0, [0, 2]),
    "J11": (20, 30, 20, [2]),
}  # fmt: skip


def test_offboards(c: dict[str, Any]) -> None:
    got = {}
    for hid, h in c["hexes"].items():
        if h["offboard"]:
            rev = h["offboard"]["revenue"]
            got[hid] = (rev["I-II"], rev["III-IV"], rev["V"], h["offboard"]["exits"])
    assert got == OFFBOARDS
    assert c["hexes"]["A12"]["offboard"]["requires_visit"] == ["B3"]


# facts §7.4: hex costs
HEX_COSTS = {
    40: ["B3", "B11", "C2", "D19", "E6", "E12", "F7", "F9", "F25", "G12", "G14", "G18", "H13",
         "H19"],
    60: ["B21", "C20", "C22", "D23", "D25", "E16", "F13", "G16"],
    80: ["D7", "D11", "H11"],
    100: ["C18", "D27", "F11"],
    120: ["B19", "C16"],
}  # fmt: skip


def test_terrain(c: dict[str, Any]) -> None:
    costs: dict[int, list[str]] = {}
    for hid, h in c["hexes"].items():
        if h["cost"]:
            costs.setdefault(h["cost"], []).append(hid)
    assert {k: set(v) for k, v in costs.items()} == {k: set(v) for k, v in HEX_COSTS.items()}
    water = {"B3", "B11", "C2", "D19", "E6", "E12", "F7", "F9", "F25", "G14", "G18", "H13"}
    water |= {"H19", "D23", "D25", "E16", "D27"}
    for hid, h in c["hexes"].items():
        if h["cost"]:
            kind = "bridge" if hid in water else "tunnel" if h["cost"] >= 100 else "pass"
            assert h["terrain"] == kind, hid


def _sides(c: dict[str, Any], kinds: set[str]) -> dict[frozenset[str], int]:
    out: dict[frozenset[str], int] = {}
    for hid, h in c["hexes"].items():
        for b in h["borders"]:
            if b["type"] in kinds:
                pair = frozenset({hid, h["neighbors"][b["edge"]]})
                assert out.get(pair, b["cost"]) == b["cost"]
                out[pair] = b["cost"]
    return out


def test_costed_and_impassable_sides(c: dict[str, Any]) -> None:
    costed = {tuple(sorted(k)): v for k, v in _sides(c, {"bridge", "pass"}).items()}
    assert costed == {
        ("B9", "C10"): 20, ("E24", "F23"): 20, ("C20", "D21"): 40, ("C22", "D21"): 40,
        ("E16", "F15"): 40, ("E16", "F17"): 40, ("E26", "F27"): 40, ("G10", "G12"): 40,
        ("D17", "E18"): 60, ("C14", "D13"): 60, ("C14", "D15"): 60, ("F9", "G10"): 60,
        ("G8", "H9"): 60,
    }  # fmt: skip
    blocked = {tuple(sorted(k)) for k in _sides(c, {"impassable"})}
    assert blocked == {
        ("B9", "C8"), ("B11", "C10"), ("D13", "E14"), ("D15", "E14"), ("F27", "G26"),
        ("H21", "H23"),
    }  # fmt: skip
    # every side is recorded on both hexes
    count = sum(len(h["borders"]) for h in c["hexes"].values())
    assert count == 2 * (len(costed) + len(blocked))


# ---------------------------------------------------------------------------------------
# tiles (facts §9)

TILE_COUNTS: dict[str, int | None] = {
    "3": 4, "4": 4, "58": 7, "5": 3, "6": 4, "57": 5, "7": None, "8": None, "9": None,
    "N10": 1, "N11": 1,
    "14": 4, "15": 4, "619": 4, "16": 1, "17": 1, "19": 1, "20": 1, "23": 5, "24": 5,
    "25": 3, "26": 1, "27": 1, "28": 1, "29": 1, "30": 1, "31": 1, "N40": 4, "N41": 4,
    "N42": 3, "N43": 3, "N21": 1, "N22": 1, "N23": 1, "N24": 1, "N25": 1, "N26": 1,
    "N27": 1, "N28": 1,
    "39": 1, "40": 1, "41": 1, "42": 1, "43": 1, "44": 1, "45": 2, "46": 2, "47": 1,
    "70": 1, "N50": 5, "N51": 2, "N52": 2, "N53": 2, "N54": 2, "N60": 2, "N61": 2,
    "N62": 2, "N32": 1, "N33": 1, "N34": 1, "N35": 1,
}  # fmt: skip


def test_tile_counts(c: dict[str, Any]) -> None:
    tiles = c["tiles"]
    assert {t: x["count"] for t, x in tiles.items()} == TILE_COUNTS
    by_colour: Counter[str] = Counter()
    for x in tiles.values():
        by_colour[x["color"]] += x["count"] or 0
    assert by_colour == {"yellow": 29, "green": 57, "brown": 35}


def test_tile_faces(c: dict[str, Any]) -> None:
    t = c["tiles"]

    def city(tid: str) -> list[tuple[int, int, list[int]]]:
        return [(x["revenue"], x["slots"], x["exits"]) for x in t[tid]["cities"]]

    def town(tid: str) -> list[tuple[int, list[int]]]:
        return [(x["revenue"], x["exits"]) for x in t[tid]["towns"]]

    assert town("N10") == [(20, [2, 4])] and t["N10"]["label"] == "Cape Cod"
    assert city("N11") == [(20, 1, [0, 3, 4])] and t["N11"]["label"] == "Sh"
    assert city("N21") == [(30, 1, [0, 3, 4])]
    assert city("N22") == [(40, 2, [0, 4, 5])]
    assert city("N23") == [(50, 2, [0, 1, 5]), (50, 1, [3, 4])] and t["N23"]["stubs"] == [2]
    assert city("N24") == [(40, 1, [1]), (40, 1, [3])] and t["N24"]["stubs"] == [2]
    assert city("N25") == [(50, 2, [0, 5]), (50, 1, [4])]
    assert town("N26") == [(30, [1, 3])] and t["N26"]["track"] == [[3, 5]]
    assert city("N27") == [(40, 2, [0, 3, 4, 5])]
    assert city("N28") == [(40, 2, [0, 2, 3, 5])]
    assert city("N32") == [(80, 2, [0, 1, 2, 3, 4, 5])]
    assert city("N33") == [(90, 4, [0, 1, 2, 3, 4, 5])]
    assert city("N34") == [(70, 3, [1, 2, 3])]
    assert city("N35") == [(80, 3, [0, 4, 5])]
    assert city("N50") == [(60, 2, [0, 1, 2, 3, 4, 5])]
    assert city("N54") == [(70, 3, [0, 1, 2, 3, 4, 5])]
    assert [town(x) for x in ("N40", "N41", "N42", "N43")] == [
        [(20, [0, 3, 4])], [(20, [0, 2, 3])], [(20, [0, 4, 5])], [(20, [0, 2, 4])],
    ]  # fmt: skip
    assert [town(x) for x in ("N60", "N61", "N62")] == [
        [(30, [0, 1, 3, 4])], [(30, [0, 1, 2, 3])], [(30, [0, 1, 3, 5])],
    ]  # fmt: skip
    # small cities gain value as they are upgraded (facts §9.2)
    towns = {x["color"]: {tw["revenue"] for tw in x["towns"]} for x in t.values() if x["towns"]}
    assert towns["brown"] == {30}


# facts §9.3: which tile may replace which
UPGRADES = {
    "3": ["N40", "N41", "N42"], "4": ["N40", "N41"], "58": ["N40", "N41", "N42", "N43"],
    "5": ["14", "15", "619"], "6": ["14", "15", "619"], "57": ["14", "15", "619"],
    "7": ["26", "27", "28", "29", "30", "31"],
    "8": ["16", "17", "19", "23", "24", "25", "28", "29", "30", "31"],
    "9": ["19", "20", "23", "24", "26", "27"],
    "14": ["N50", "N54"], "15": ["N50", "N52", "N54"], "619": ["N50", "N51", "N53", "N54"],
    "16": ["43", "70"], "17": ["47"], "19": ["45", "46"], "20": ["44", "47"],
    "23": ["41", "43", "45", "47"], "24": ["42", "43", "46", "47"], "25": ["40", "45", "46"],
    "26": ["42", "44", "45"], "27": ["41", "44", "46"], "28": ["39", "43", "46", "70"],
    "29": ["39", "43", "45", "70"], "30": ["42", "70"], "31": ["41", "70"],
    "N40": ["N60", "N61", "N62"], "N41": ["N60", "N61", "N62"], "N42": ["N61", "N62"],
    "N43": ["N62"],
    "N11": ["N21"], "N22": ["N32"], "N23": ["N33"], "N24": ["N34"], "N25": ["N35"],
    "N27": [], "N28": [], "N26": [], "N21": [],
    "B3": ["N25"], "G22": ["N23"], "I14": ["N24"], "F25": ["N22"], "F17": ["N27", "N28"],
    "B11": ["N26"], "C24": ["14", "15", "619"], "E20": ["14", "15", "619"],
}  # fmt: skip


def test_upgrades(c: dict[str, Any]) -> None:
    got = {k: sorted(c["upgrades"][k], key=lambda t: (len(t), t)) for k in UPGRADES}
    assert got == {k: sorted(v, key=lambda t: (len(t), t)) for k, v in UPGRADES.items()}
    assert c["upgrades"]["I14"] == {"N24": [0]}
    assert c["upgrades"]["B3"] == {"N25": [0]}
    assert 4 in c["upgrades"]["G22"]["N23"]  # the rotation that keeps the stub S


def test_first_tiles(c: dict[str, Any]) -> None:
    first = c["first_tiles"]
    cities = ["C8", "C12", "C26", "D21", "E22", "E26", "F19", "G20", "H17"]
    for hid in cities:
        assert set(first[hid]) <= {"5", "6", "57"} and first[hid], hid
    towns = ["B27", "C4", "D19", "F15", "F21", "F23", "F27", "G24", "G26", "H19", "H21"]
    towns += ["H23", "I10"]
    for hid in towns:
        assert set(first[hid]) <= {"3", "4", "58"} and first[hid], hid
    assert first["I26"] == {"N10": [0]}
    assert set(first["F5"]) == {"N11"}


# ---------------------------------------------------------------------------------------
# bonuses and ferries (seed 003; the rest are assumptions)


def test_bonuses(c: dict[str, Any]) -> None:
    bonuses = {b["id"]: b for b in c["bonuses"]}
    assert sorted(bonuses) == sorted(
        ["BOS-MTL", "BOS-ALB", "BOS-NY", "MTL-POR", "BOS-OGD"]
        + ["BOS-MTL-I", "BOS-ALB-I", "BOS-NY-I", "MTL-POR-I", "BOS-OGD-I"]
    )
    bos_mtl = bonuses["BOS-MTL"]
    assert bos_mtl["kind"] == "connection"
    assert [e["hexes"] for e in bos_mtl["between"]] == [["G22"], ["B3"]]
    # seed 003: $150 in phases I-II, $200 in III-IV
    assert [bos_mtl["values"][p] for p in ("I", "II", "III", "IV")] == [150, 150, 200, 200]
    # Boston-Albany and Boston-New York outweigh the cities' values (seed 003)
    assert bonuses["BOS-ALB"]["values"]["I"] > 40 + 30
    assert bonuses["BOS-NY"]["values"]["I"] > 0 + 30
    phases = {p["id"] for p in c["phases"]}
    for b in c["bonuses"]:
        assert set(b["values"]) <= phases


def test_ferries(c: dict[str, Any]) -> None:
    f = c["ferries"]
    assert f["cost"] == 40
    assert f["leave_on"] == "IV"
    assert len(f["ports"]) == 5
    ports = {p["hex"]: p for p in f["ports"]}
    # seed 003 worked example (phase II): New Haven ferry $20 + new-ferry bonus $20
    assert ports["C26"]["values"]["II"] == 20
    assert f["new_bonus"]["II"] == 20
    assert "G22" in ports["C26"]["sea_link"]
    assert all("IV" not in p["values"] and "V" not in p["values"] for p in f["ports"])


def test_seed_worked_example_route(c: dict[str, Any]) -> None:
    """Seed step 15: Hartford's 2-train to New Haven earns 20 + 20 + 20 + 20 = $80."""
    hartford = c["hexes"]["C24"]["cities"][0]["revenue"]
    new_haven = c["tiles"]["57"]["cities"][0]["revenue"]  # a yellow city tile
    port = {p["hex"]: p for p in c["ferries"]["ports"]}["C26"]
    total = hartford + new_haven + port["values"]["II"] + c["ferries"]["new_bonus"]["II"]
    assert total == 80
