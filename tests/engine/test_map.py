"""Board tests on tiny hand-made maps (compiled-table shape, docs/compiled-format.md).

``tables_for`` builds a compiled-format dict from a few hexes on a pointy grid and
``typed_board`` makes the board of it (the board takes the typed records of
eighteen.compiled); the 1830 tests at the end run on generated/1830.json when it exists.
"""

from __future__ import annotations

import copy
import json
import os
import pickle
from collections.abc import Callable
from functools import partial
from pathlib import Path as FsPath
from typing import Any

import pytest

from eighteen.compiled import CompiledHex, CompiledTile
from eighteen.engine import network, tables
from eighteen.engine.face import MapError, Path, TileLay
from eighteen.engine.game import Game
from eighteen.engine.graph import GRAPH_TABLES, TrackGraph
from eighteen.engine.map import Board
from eighteen.engine.position import MapState, Tiles
from eighteen.engine.tables import typed_document
from eighteen.title.model import Corporation

# pointy neighbour offsets (dx, dy) by edge: 0 SW, 1 W, 2 NW, 3 NE, 4 E, 5 SE
OFFSETS = ((-1, 1), (-2, 0), (-1, -1), (1, -1), (2, 0), (1, 1))

TILES = {
    "7": {"color": "yellow", "count": 4, "cities": [], "towns": [], "track": [[0, 1]]},
    "8": {"color": "yellow", "count": 8, "cities": [], "towns": [], "track": [[0, 2]]},
    "9": {"color": "yellow", "count": 7, "cities": [], "towns": [], "track": [[0, 3]]},
    "57": {
        "color": "yellow",
        "count": 4,
        "cities": [{"revenue": 20, "slots": 1, "exits": [0, 3]}],
    },
    "14": {
        "color": "green",
        "count": 3,
        "cities": [{"revenue": 30, "slots": 2, "exits": [0, 1, 3, 4]}],
    },
    "15": {
        "color": "green",
        "count": 2,
        "cities": [{"revenue": 30, "slots": 2, "exits": [0, 1, 2, 3]}],
    },
    "54": {
        "color": "green",
        "count": 1,
        "label": "NY",
        "cities": [
            {"revenue": 60, "slots": 1, "exits": [0, 1]},
            {"revenue": 60, "slots": 1, "exits": [2, 3]},
        ],
    },
    "59": {
        "color": "green",
        "count": 2,
        "label": "OO",
        "cities": [
            {"revenue": 40, "slots": 1, "exits": [0]},
            {"revenue": 40, "slots": 1, "exits": [2]},
        ],
    },
}


def xy(hex_id: str) -> tuple[int, int]:
    """Doubled coordinates of a one-letter pointy hex id."""
    return int(hex_id[1:]) - 1, ord(hex_id[0]) - ord("A")


def tables_for(
    hexes: dict[str, dict[str, Any]],
    *,
    tiles: dict[str, Any] | None = None,
    first_tiles: dict[str, Any] | None = None,
    upgrades: dict[str, Any] | None = None,
    corporations: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A compiled-format tables dict for a tiny map (neighbours and usable edges computed)."""
    tiles = dict(TILES if tiles is None else tiles)
    for t in tiles.values():
        t.setdefault("cities", [])
        t.setdefault("towns", [])
        t.setdefault("track", [])
        t.setdefault("label", None)
        exits: set[int] = set()
        for c in t["cities"] + t["towns"]:
            exits.update(c.get("exits", []))
        for a, b in t["track"]:
            exits.update((a, b))
        t["exits"] = sorted(exits)
    where = {xy(h): h for h in hexes}
    out: dict[str, dict[str, Any]] = {}
    for h, d in hexes.items():
        x, y = xy(h)
        full: dict[str, Any] = {
            "name": None,
            "color": "white",
            "terrain": None,
            "cost": 0,
            "label": None,
            "cities": [],
            "towns": [],
            "track": [],
            "offboard": None,
            "borders": [],
            "homes": [],
            "blocked_by": [],
        }
        full.update(d)
        full["x"], full["y"] = x, y
        full["neighbors"] = [where.get((x + dx, y + dy)) for dx, dy in OFFSETS]
        out[h] = full
    for d in out.values():
        usable = []
        for e, nb in enumerate(d["neighbors"]):
            if nb is None:
                continue
            n = out[nb]
            if n["color"] in ("gray", "red"):
                opp = (e + 3) % 6
                edges: set[int] = set()
                for c in n["cities"] + n["towns"]:
                    edges.update(c.get("exits", []))
                for a, b in n["track"]:
                    edges.update((a, b))
                if n["offboard"]:
                    edges.update(n["offboard"]["exits"])
                if opp not in edges:
                    continue
            usable.append(e)
        d["usable_edges"] = usable
    if first_tiles is None:
        first_tiles = {}
        for h, d in out.items():
            if d["color"] != "white":
                continue
            if len(d["cities"]) == 1:
                first_tiles[h] = {"57": list(range(6))}
            elif not d["cities"] and not d["towns"]:
                first_tiles[h] = {t: list(range(6)) for t in ("7", "8", "9")}
    return {
        "format": 1,
        "id": "tiny",
        "layout": "pointy",
        "hexes": out,
        "tiles": tiles,
        "first_tiles": first_tiles,
        "upgrades": {"57": {"14": [0, 3], "15": [0, 3]}} if upgrades is None else upgrades,
        "corporations": corporations or [],
    }


def typed_board(tables: dict[str, Any]) -> Board:
    """The board of a compact tables dict (``tables_for``): each hex, tile and corporation
    validated as its compiled model, the fields the tests leave out filled (a tile's
    orientations, a corporation's name, colour and tokens)."""
    return Board(
        {h: CompiledHex.model_validate(d) for h, d in tables["hexes"].items()},
        {
            t: CompiledTile.model_validate({"orientations": list(range(6)), **d})
            for t, d in tables.get("tiles", {}).items()
        },
        corporations=[
            Corporation.model_validate({"name": c["id"], "color": "#000000", "tokens": [0], **c})
            for c in tables.get("corporations", [])
        ],
        first_tiles=tables.get("first_tiles"),
        upgrades=tables.get("upgrades"),
    )


def compiled_board(path: FsPath) -> Board:
    """The board of a compiled title file (``generated/<id>.json``)."""
    return Board.of(typed_document(json.loads(path.read_text())))


def grid(extra: dict[str, dict[str, Any]] | None = None) -> dict[str, dict[str, Any]]:
    """Rows A-C of a small board: A1..A9, B2..B10, C1..C9, all plain white."""
    hexes: dict[str, dict[str, Any]] = {}
    for row, cols in (("A", range(1, 10, 2)), ("B", range(2, 11, 2)), ("C", range(1, 10, 2))):
        for c in cols:
            hexes[f"{row}{c}"] = {}
    hexes.update(extra or {})
    return hexes


SUPPLY = {t: d["count"] for t, d in TILES.items()}
YELLOW = {"yellow"}


def corp(cid: str, home: str, city: int | None = None) -> dict[str, Any]:
    return {"id": cid, "name": cid, "home": home, "city": city, "tokens": [0, 40, 100]}


# ---------------------------------------------------------------------------------------
# state and faces


def test_state_copy_and_json_roundtrip() -> None:
    s = MapState(tiles={"B4": ("57", 1)}, tokens={"B4": [["X"]]})
    c = s.copy()
    c.tokens["B4"][0].append("Y")
    c.tiles["B6"] = ("9", 0)
    assert s.tokens == {"B4": [["X"]]} and "B6" not in s.tiles
    d = json.loads(json.dumps(s.to_json()))
    assert d == {"tiles": {"B4": ["57", 1]}, "tokens": {"B4": [["X"]]}}
    assert MapState.from_json(d) == s


def test_face_rotates_tile_edges() -> None:
    board = typed_board(tables_for(grid({"B4": {"cities": [{"revenue": 0, "slots": 1}]}})))
    s = MapState()
    printed = board.face(s, "B4")
    assert printed.tile is None and printed.color == "white" and printed.exits == ()
    board.lay_tile(s, "B4", "57", 1)
    f = board.face(s, "B4")
    assert (f.tile, f.rotation, f.color) == ("57", 1, "yellow")
    assert f.cities[0].exits == (1, 4) and f.cities[0].revenue == 20
    assert f.paths == (Path("B4", "c0", "e1"), Path("B4", "c0", "e4"))
    assert str(Path("B4", "e4", "c0")) == "B4:c0-e4" == str(Path.parse("B4:e4-c0"))


# ---------------------------------------------------------------------------------------
# tile lays


def home_board(**kw: Any) -> Board:
    hexes = grid(
        {
            "B4": {"cities": [{"revenue": 0, "slots": 1}]},
            "B6": {"terrain": "water", "cost": 80},
        }
    )
    return typed_board(tables_for(hexes, corporations=[corp("X", "B4")], **kw))


def test_no_token_no_connection_no_options() -> None:
    board = home_board()
    assert board.lay_options(MapState(), "X", YELLOW, blocked=set(), tile_supply=SUPPLY) == []


def test_home_hex_any_rotation_then_neighbour_needs_connection() -> None:
    board = home_board()
    s = MapState()
    board.place_token(s, "X", "B4", 0)
    opts = board.lay_options(s, "X", YELLOW, blocked=set(), tile_supply=SUPPLY)
    assert opts == [TileLay("B4", "57", r, 0) for r in range(6)]
    distinct = board.lay_options(s, "X", YELLOW, blocked=set(), tile_supply=SUPPLY, distinct=True)
    assert [o.rotation for o in distinct] == [0, 1, 2]
    board.lay_tile(s, "B4", "57", 1)  # exits W (B2) and E (B6)
    opts = board.lay_options(s, "X", YELLOW, blocked=set(), tile_supply=SUPPLY)
    # B6 is reached on its edge 1 and costs its water; B2 on its edge 4; nothing else.
    b6 = [(o.tile, o.rotation) for o in opts if o.hex == "B6"]
    assert b6 == [("7", 0), ("7", 1), ("8", 1), ("8", 5), ("9", 1), ("9", 4)]
    assert {o.cost for o in opts if o.hex == "B6"} == {80}
    b2 = [(o.tile, o.rotation) for o in opts if o.hex == "B2"]
    assert b2 == [("7", 3), ("7", 4), ("8", 2), ("8", 4)]  # W side off the map: no straight
    assert {o.hex for o in opts} == {"B2", "B6"}  # B4 has no yellow upgrade
    # blocked hexes, supply and colour filters
    none9 = dict(SUPPLY, **{"9": 0})
    opts = board.lay_options(s, "X", YELLOW, blocked={"B2"}, tile_supply=none9)
    assert {(o.hex, o.tile) for o in opts} == {("B6", "7"), ("B6", "8")}
    assert board.lay_options(s, "X", {"green"}, blocked=set(), tile_supply=SUPPLY) == [
        TileLay("B4", "14", r, 0, upgrade=True) for r in (1, 4)
    ] + [TileLay("B4", "15", r, 0, upgrade=True) for r in (1, 4)]
    unlimited = board.lay_options(
        s, "X", YELLOW, blocked=set(), tile_supply={"7": None}, hexes={"B6"}
    )
    assert [(o.tile, o.rotation) for o in unlimited] == [("7", 0), ("7", 1)]


def test_private_lay_without_connection() -> None:
    board = home_board()
    opts = board.lay_options(
        MapState(),
        None,
        YELLOW,
        blocked=set(),
        tile_supply=SUPPLY,
        require_connection=False,
        hexes={"B8"},
        tiles={"9"},
    )
    assert [(o.hex, o.rotation) for o in opts] == [("B8", r) for r in range(6)]


def test_usable_edges_limit_rotations() -> None:
    # A1 is a corner: neighbours only E (A3) and SE (B2).
    board = typed_board(tables_for(grid({"A1": {"cities": [{"revenue": 0}]}}), corporations=[]))
    s = MapState()
    board.place_token(s, "X", "A1", 0)
    assert board.lay_options(s, "X", YELLOW, blocked=set(), tile_supply=SUPPLY) == []
    opts = board.lay_options(s, "X", YELLOW, blocked=set(), tile_supply=SUPPLY, hexes={"A3"})
    assert opts == []


def test_track_blocked_by_full_city_of_other_corporation() -> None:
    hexes = grid(
        {
            "B2": {"color": "gray", "cities": [{"revenue": 10, "slots": 1, "exits": [4]}]},
            "B4": {"color": "gray", "cities": [{"revenue": 20, "slots": 1, "exits": [1, 4]}]},
        }
    )
    board = typed_board(tables_for(hexes))
    s = MapState()
    board.place_token(s, "X", "B2", 0)
    board.place_token(s, "Y", "B4", 0)
    # X reaches B4 but may not pass it: B6 (behind) is not connected for X.
    assert board.lay_options(s, "X", YELLOW, blocked=set(), tile_supply=SUPPLY) == []
    # Y itself connects to B6 (edge 1).
    opts = board.lay_options(s, "Y", YELLOW, blocked=set(), tile_supply=SUPPLY)
    assert {o.hex for o in opts} == {"B6"}


def test_upgrade_relative_rotations_and_token_migration() -> None:
    board = home_board()
    s = MapState()
    board.place_token(s, "X", "B4", 0)
    board.lay_tile(s, "B4", "57", 2)  # exits 2, 5
    opts = board.lay_options(s, "X", {"green"}, blocked=set(), tile_supply=SUPPLY)
    assert [(o.tile, o.rotation, o.upgrade, o.cost) for o in opts] == [
        ("14", 2, True, 0),
        ("14", 5, True, 0),
        ("15", 2, True, 0),
        ("15", 5, True, 0),
    ]
    assert board.lay_tile(s, "B4", "15", 5) == "57"
    assert s.tokens["B4"] == [["X"]]
    assert board.face(s, "B4").cities[0].exits == (0, 1, 2, 5)


def ny_board() -> Board:
    hexes = grid(
        {
            "B4": {
                "color": "yellow",
                "label": "NY",
                "cost": 80,
                "cities": [
                    {"revenue": 40, "slots": 1, "exits": [3]},
                    {"revenue": 40, "slots": 1, "exits": [0]},
                ],
            },
            "B6": {
                "color": "yellow",
                "label": "OO",
                "cities": [{"revenue": 0, "slots": 1}, {"revenue": 0, "slots": 1}],
            },
        }
    )
    return typed_board(
        tables_for(
            hexes,
            upgrades={"B4": {"54": [0]}, "B6": {"59": [0, 1, 2, 3, 4, 5]}},
            corporations=[corp("N", "B4", 0), corp("E", "B6"), corp("X", "C1")],
        )
    )


def test_preprinted_upgrade_moves_tokens_by_exits_and_pays_terrain() -> None:
    board = ny_board()
    s = MapState()
    board.place_token(s, "N", "B4", 0)
    assert board.home_city(s, "N") == 0
    opts = board.lay_options(s, "N", {"green"}, blocked=set(), tile_supply={"54": 1})
    assert opts == [TileLay("B4", "54", 0, 80, upgrade=True)]
    board.lay_tile(s, "B4", "54", 0)
    # old city 0 (exit 3) now lies in the new city joined to edges 2 and 3: index 1
    assert s.tokens["B4"] == [[], ["N"]]
    assert board.home_city(s, "N") == 1


def test_home_city_options_on_multi_city_hex() -> None:
    board = ny_board()
    s = MapState()
    assert board.home_city_options(s, "E") == []  # trackless printed face: the pick waits
    assert board.home_waits(s, "E") and not board.home_waits(s, "N")
    assert board.home_city_options(s, "N") == [0]
    board.lay_tile(s, "B6", "59", 1)
    assert board.home_city_options(s, "E") == [0, 1]
    assert not board.home_waits(s, "E")
    board.place_token(s, "X", "B6", 0)
    assert board.home_city_options(s, "E") == [1]
    board.place_token(s, "N", "B4", 0)
    assert board.home_city_options(s, "N") == []  # already full


def test_trackless_tokens_keep_index_on_upgrade() -> None:
    board = ny_board()
    s = MapState()
    board.place_token(s, "E", "B6", 0)
    board.lay_tile(s, "B6", "59", 3)
    assert s.tokens["B6"] == [["E"], []]


def test_place_token_refuses_full_city() -> None:
    board = ny_board()
    s = MapState()
    board.place_token(s, "N", "B4", 0)
    with pytest.raises(MapError):
        board.place_token(s, "X", "B4", 0)
    with pytest.raises(MapError):
        board.place_token(s, "X", "B4", 2)


# ---------------------------------------------------------------------------------------
# token options


def token_board(slots_b4: int = 1) -> Board:
    hexes = grid(
        {
            "B2": {"color": "gray", "cities": [{"revenue": 10, "slots": 1, "exits": [4]}]},
            "B4": {
                "color": "gray",
                "cities": [{"revenue": 20, "slots": slots_b4, "exits": [1, 4]}],
            },
            "B6": {"color": "gray", "cities": [{"revenue": 30, "slots": 1, "exits": [1, 4]}]},
            "B8": {
                "color": "gray",
                "cities": [
                    {"revenue": 10, "slots": 1, "exits": [1]},
                    {"revenue": 10, "slots": 1, "exits": [4]},
                ],
            },
        }
    )
    return typed_board(
        tables_for(hexes, corporations=[corp("X", "B2"), corp("R", "B6"), corp("E", "B8")])
    )


def test_token_options_follow_network_and_blocking() -> None:
    board = token_board()
    s = MapState()
    board.place_token(s, "X", "B2", 0)
    assert list(board.token_options(s, "X", reserved={})) == [
        ("B4", 0),
        ("B6", 0),
        ("B8", 0),
    ]
    board.place_token(s, "Y", "B4", 0)  # full: X stops there
    assert list(board.token_options(s, "X", reserved={})) == []
    two = token_board(slots_b4=2)
    s = MapState()
    board = two
    board.place_token(s, "X", "B2", 0)
    board.place_token(s, "Y", "B4", 0)  # one slot left: X passes and may token it
    assert list(board.token_options(s, "X", reserved={})) == [("B4", 0), ("B6", 0), ("B8", 0)]
    board.place_token(s, "X", "B4", 0)
    assert list(board.token_options(s, "X", reserved={})) == [("B6", 0), ("B8", 0)]  # not B4 again
    assert list(board.token_options(s, "X", reserved={}, hexes={"B8"})) == [("B8", 0)]


def test_token_options_respect_reservations() -> None:
    board = token_board(slots_b4=2)
    s = MapState()
    board.place_token(s, "X", "B2", 0)
    reserved = {"B6": ["R"], "B8": ["E"]}
    # R's home B6 (1 slot) is held; E's home B8 has no fixed city: both cities held.
    assert list(board.token_options(s, "X", reserved=reserved)) == [("B4", 0)]
    assert list(board.token_options(s, "X", reserved={"B4": ["R"]})) == [
        ("B4", 0),
        ("B6", 0),
        ("B8", 0),
    ]  # a reservation for another hex takes one of B4's two slots
    # the reservation holder itself is not kept out
    s2 = MapState()
    board.place_token(s2, "E", "B2", 0)
    assert ("B8", 0) in list(board.token_options(s2, "E", reserved=reserved))


def test_token_options_without_connection() -> None:
    board = token_board()
    s = MapState()
    opts = list(board.token_options(s, "X", reserved={"B6": ["R"]}, require_connection=False))
    assert opts == [("B2", 0), ("B4", 0), ("B8", 0), ("B8", 1)]


# ---------------------------------------------------------------------------------------
# the real 1830 map (once compiled)

GENERATED = FsPath(
    os.environ.get("EIGHTEEN_1830_JSON")
    or FsPath(__file__).resolve().parents[2] / "generated" / "1830.json"
)


@pytest.fixture(scope="module")
def b1830() -> Board:
    return compiled_board(GENERATED)


def supply_of(board: Board) -> dict[str, int | None]:
    return {t: d.count for t, d in board.tiles.items()}


def test_1830_prr_first_lays(b1830: Board) -> None:
    s = MapState()
    assert b1830.home_city_options(s, "PRR") == [0]
    b1830.place_token(s, "PRR", "H12", 0)
    opts = b1830.lay_options(s, "PRR", {"yellow"}, blocked=set(), tile_supply=supply_of(b1830))
    # Altoona's city reaches Pittsburgh (H10, its E side) and H14 (its W side)
    assert [(o.hex, o.tile, o.rotation, o.cost) for o in opts] == [
        ("H10", "57", 1, 0),
        ("H10", "57", 4, 0),
        ("H14", "7", 0, 0),
        ("H14", "7", 1, 0),
        ("H14", "8", 1, 0),
        ("H14", "8", 5, 0),
        ("H14", "9", 1, 0),
        ("H14", "9", 4, 0),
    ]


def test_1830_nyc_home_and_albany(b1830: Board) -> None:
    s = MapState()
    b1830.place_token(s, "NYC", "E19", 0)
    opts = b1830.lay_options(s, "NYC", {"yellow"}, blocked=set(), tile_supply=supply_of(b1830))
    assert opts == [TileLay("E19", "57", r, 0) for r in range(6)]
    b1830.lay_tile(s, "E19", "57", 0)  # SW-NE: F18 and D20
    opts = b1830.lay_options(s, "NYC", {"yellow"}, blocked={"D18"}, tile_supply=supply_of(b1830))
    assert {o.hex for o in opts} == {"F18", "D20"}
    assert s.tokens == {"E19": [["NYC"]]}


def test_1830_erie_home_and_reservation(b1830: Board) -> None:
    s = MapState()
    assert b1830.home_city(s, "ERIE") is None
    assert b1830.home_city_options(s, "ERIE") == []  # trackless printed OO face: it waits
    opts = list(
        b1830.token_options(
            s, "PRR", reserved={"E11": ["ERIE"]}, require_connection=False, hexes={"E11", "G19"}
        )
    )
    assert opts == [("G19", 0), ("G19", 1)]
    opts = list(
        b1830.token_options(
            s, "PRR", reserved={"G19": ["NYNH"]}, require_connection=False, hexes={"E11", "G19"}
        )
    )
    assert opts == [("E11", 0), ("E11", 1), ("G19", 1)]
    b1830.lay_tile(s, "E11", "59", 4)
    assert b1830.home_city_options(s, "ERIE") == [0, 1]
    b1830.place_token(s, "ERIE", "E11", 1)
    lays = b1830.lay_options(
        s, "ERIE", {"brown"}, blocked=set(), tile_supply=supply_of(b1830), distinct=True
    )
    assert {o.tile for o in lays} == {"64", "65", "66", "67"}  # 68 would need edge 1 (blocked)
    assert all(o.hex == "E11" and o.cost == 0 for o in lays)


def test_1830_new_york_upgrade_costs_water(b1830: Board) -> None:
    s = MapState()
    b1830.place_token(s, "NYNH", "G19", 0)
    assert b1830.lay_options(s, "NYNH", {"yellow"}, blocked=set(), tile_supply={}) == []
    opts = b1830.lay_options(s, "NYNH", {"green"}, blocked=set(), tile_supply=supply_of(b1830))
    assert opts == [TileLay("G19", "54", 0, 80, upgrade=True)]
    b1830.lay_tile(s, "G19", "54", 0)
    assert s.tokens["G19"] == [[], ["NYNH"]]
    opts = b1830.lay_options(s, "NYNH", {"brown"}, blocked=set(), tile_supply=supply_of(b1830))
    assert opts == [TileLay("G19", "62", 0, 0, upgrade=True)]


def test_a_tile_face_is_read_once_and_shared_by_every_hex() -> None:
    """Tile 9 (a straight) shows the same track at rotations 0 and 3; its faces on two hexes
    share the parts of one template face read once per tile and rotation."""
    b = network.board_of(tables.load_title("1830"))
    t0, t3 = b._template("9", 0), b._template("9", 3)
    assert t0.hex == "" and t0.signature == t3.signature == frozenset({("e0", "e3")})
    assert b._template("9", 1).signature == frozenset({("e1", "e4")})
    f1, f2 = b.tile_face("E9", "9", 6), b.tile_face("F10", "9", 0)
    assert (f1.hex, f2.hex) == ("E9", "F10") and f1.track is f2.track is t0.track


def test_a_graph_bound_to_another_state_shares_its_tables_and_reads_that_states_tokens() -> None:
    """``TrackGraph.bind``: the same track (every table the very object, the same key)
    with the tokens of the state bound; the graph bound to its own state is itself."""
    board = home_board()
    s = MapState()
    board.lay_tile(s, "B4", "57", 1)
    g = board.graph(s)
    other = s.copy()
    board.place_token(other, "X", "B4", 0)
    bound = g.bind(other)
    assert g.bind(s) is g and bound is not g
    assert all(getattr(bound, name) is getattr(g, name) for name in GRAPH_TABLES)
    # every attribute of the graph copied (its slots), the position aside
    copied = [n for n in TrackGraph.__slots__ if n != "state"]
    assert sorted(copied) == sorted(
        ["board", "numbering", "layout", "lineage", "_track_key", "_node", *GRAPH_TABLES]
    )
    assert [n for n in copied if getattr(bound, n) is not getattr(g, n)] == []
    assert bound.track_key is g.track_key == s.track_key()
    city = g.stop_id[("B4", "city", 0)]
    assert (g.has_token(city, "X"), bound.has_token(city, "X")) == (False, True)
    assert (bound.state, g.state) == (other, s)


def test_the_tiles_count_every_change_and_the_track_key_follows_them() -> None:
    """A map state's tiles count each change made by any of a dict's changing methods;
    its track key holds while the count stands, and follows each change, whether made
    through the engine or by hand (tests do), and a plain dict put in their place."""
    s = MapState(tiles={"A1": ("7", 0)})
    assert type(s.tiles) is Tiles and s.tiles.changes == 0  # a dict given is taken in
    key = s.track_key()
    assert key == frozenset({("A1", ("7", 0))}) and s.track_key() is key
    changes: list[Callable[[Any], object]] = [
        lambda t: t.__setitem__("B2", ("8", 1)),
        lambda t: t.__delitem__("B2"),
        lambda t: t.update({"C3": ("9", 2)}),
        lambda t: t.pop("C3"),
        lambda t: t.setdefault("D4", ("57", 3)),
        lambda t: t.popitem(),
        lambda t: t.__ior__({"E5": ("7", 4)}),
        lambda t: t.clear(),
    ]
    for n, change in enumerate(changes, start=1):
        before = dict(s.tiles)
        change(s.tiles)
        assert s.tiles.changes == n
        assert s.track_key() == frozenset(s.tiles.items())
        assert (s.track_key() == frozenset(before.items())) is (before == s.tiles)
    assert s.tiles == {} and s.track_key() == frozenset()
    s.tiles = {"F6": ("8", 5)}  # a plain dict put in their place, by hand
    assert s.track_key() == frozenset({("F6", ("8", 5))})
    s.tiles["F6"] = ("9", 0)  # its changes are not counted: the key compares them
    assert s.track_key() == frozenset({("F6", ("9", 0))})
    c = s.copy()
    assert type(c.tiles) is Tiles and c.tiles == s.tiles and c.tiles is not s.tiles
    c.tiles["F6"] = ("7", 1)
    assert c.track_key() != s.track_key() == frozenset({("F6", ("9", 0))})


def test_after_one_lay_the_track_key_is_the_one_before_with_that_hex_changed() -> None:
    """One tile set on one hex (a lay) makes the new track key from the kept one, and the
    state tells the step (the key before, the hex, its tile before and now); any other
    change, or two changes since the key was kept, gives no step and a key made afresh."""
    s = MapState(tiles={"A1": ("7", 0)})
    first = s.track_key()
    assert s.track_step() is None  # made from every tile
    s.tiles["B2"] = ("8", 1)  # a first tile on B2
    key = s.track_key()
    assert key == frozenset({("A1", ("7", 0)), ("B2", ("8", 1))})
    assert s.track_step() == (first, "B2", None, ("8", 1))
    s.tiles["A1"] = ("14", 2)  # an upgrade
    upgraded = s.track_key()
    assert upgraded == frozenset({("A1", ("14", 2)), ("B2", ("8", 1))})
    assert s.track_step() == (key, "A1", ("7", 0), ("14", 2))
    s.tiles["A1"] = ("14", 2)  # the same tile again: the same key
    assert s.track_key() is upgraded and s.track_step() == (upgraded, "A1", ("14", 2), ("14", 2))
    s.tiles["C3"] = ("9", 0)
    s.tiles["C3"] = ("9", 3)  # two changes since the key was kept
    assert s.track_key() == frozenset(s.tiles.items()) and s.track_step() is None
    s.tiles.update({"D4": ("57", 1)})  # not one hex set
    assert s.track_key() == frozenset(s.tiles.items()) and s.track_step() is None


def test_the_tile_supply_after_a_lay_follows_from_the_one_before() -> None:
    """The tile supply of a layout one lay after a kept one is that supply with the tile
    laid taken out and the tile it replaced put back: the same as counted afresh."""
    g = Game.new(tables.load_title("1830"), players=["Ann", "Bob", "Cy"])
    b = network.board(g)
    b.clear_caches()
    m = g.state.map
    m.tiles["F20"] = ("7", 0)
    m.tiles["E19"] = ("8", 1)
    before = network.tile_supply(g)  # counted from the manifest: two changes since
    assert (before["7"], before["8"], before["14"]) == (3, 7, 3)
    m.tiles["F20"] = ("14", 0)  # an upgrade: a 7 back, a 14 out
    after = network.tile_supply(g)
    assert m.track_step() is not None
    assert (after["7"], after["8"], after["14"]) == (4, 7, 2)
    assert before["7"] == 3  # the kept supply is not changed
    b.clear_caches()
    assert network.tile_supply(g) == after  # the same counted afresh


def test_tiles_pickle_and_copy_as_tiles() -> None:
    """A map state's tiles pickle and copy as tiles with their items (not as a dict's
    items set before the count exists), and the track key of the copy is right."""
    s = MapState(tiles={"A1": ("7", 0)})
    s.tiles["B2"] = ("8", 1)
    key = s.track_key()
    for made in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s)):
        assert type(made.tiles) is Tiles and made.tiles == s.tiles
        assert made.track_key() == key
        made.tiles["C3"] = ("9", 2)
        assert made.track_key() == frozenset(made.tiles.items()) != key
    assert s.track_key() is key


def test_a_copied_state_changed_before_its_key_is_asked_gets_a_new_key() -> None:
    """The kept track key travels with a pickled or copied state, and the copy's tiles
    carry their count of changes with them: one change to the copy (as many as the
    original had counted when its key was kept) makes a new key, not the kept one."""
    s = MapState(tiles={"A1": ("7", 0)})
    s.tiles["B2"] = ("8", 1)
    key = s.track_key()
    assert isinstance(s.tiles, Tiles)  # (MapState makes its tiles a Tiles)
    assert s.tiles.changes == 1
    for made in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s)):
        assert isinstance(made.tiles, Tiles)
        assert made.tiles.changes == 1
        made.tiles["C3"] = ("9", 2)
        assert made.track_key() == frozenset({("A1", ("7", 0)), ("B2", ("8", 1)), ("C3", ("9", 2))})
    assert s.track_key() is key and s.tiles == {"A1": ("7", 0), "B2": ("8", 1)}


def test_the_token_fingerprints_are_kept_while_the_tokens_hold_what_they_held() -> None:
    """``MapState._kept_tokens`` (the token key, the snapshot, the station cities) is kept
    while the tokens hold what they held when it was made, however they were changed and
    changed back, and made again on any change: a token placed or taken in place, a city
    or a hex more, the same tokens in another order of slots, a city turned tuple."""
    s = MapState(tokens={"A1": [["X"], []], "B2": [["Y", "X"]]})
    kept = s._kept_tokens()
    assert kept[1] == frozenset({("A1", (("X",), ())), ("B2", (("Y", "X"),))})
    assert kept[2] == {"A1": (("X",), ()), "B2": (("Y", "X"),)}
    s.tokens["A1"][1].append("Z")
    s.tokens["A1"][1].remove("Z")  # changed and back
    assert s._kept_tokens() is kept
    s.tokens = {"A1": [["X"], []], "B2": [["Y", "X"]]}  # other lists, the same tokens
    assert s._kept_tokens() is kept
    changes: list[Callable[[Any], object]] = [
        lambda t: t["A1"][1].append("Z"),  # a token placed
        lambda t: t["B2"][0].remove("Y"),  # a token taken
        lambda t: t["B2"][0].reverse(),  # the same tokens, another order of slots
        lambda t: t["A1"].append([]),  # a city more
        lambda t: t.__setitem__("C3", []),  # a hex more, with no city
        lambda t: t.__setitem__("A1", [["X"], ()]),  # a city turned tuple
    ]
    for change in changes:
        s.tokens = {"A1": [["X"], []], "B2": [["Y", "X"]]}
        assert s._kept_tokens()[1] == kept[1]
        before = s._kept_tokens()
        change(s.tokens)
        after = s._kept_tokens()
        assert after is not before
        assert after[1] == frozenset((h, tuple(map(tuple, cs))) for h, cs in s.tokens.items())


def test_a_board_cache_drops_its_oldest_entry_and_a_hit_moves_none() -> None:
    """``Board.cached``: a cache keeps ``CACHE_SIZE`` entries and drops the oldest made
    when full, even one just found again (a hit does not move its entry: moving it
    would hash its key a second time)."""
    b = network.board_of(tables.load_title("1830"))
    b.clear_caches()
    assert b.CACHE_SIZE == 64
    made: list[int] = []

    def compute(k: int) -> int:
        made.append(k)
        return k * 10

    for k in range(64):
        assert b.cached("test", k, partial(compute, k)) == k * 10
    assert b.cached("test", 0, lambda: compute(-1)) == 0  # found: not made again
    assert b.cached("test", 64, lambda: compute(64)) == 640
    assert list(b._caches["test"]) == list(range(1, 65))  # the oldest, 0, dropped
    assert b.cached("test", 0, lambda: compute(0)) == 0  # made again
    assert made == [*range(64), 64, 0]
    assert list(b._caches["test"]) == [*range(2, 65), 0]
    b.clear_caches()
