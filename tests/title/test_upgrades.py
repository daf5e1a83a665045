"""Upgrade rule, first lays and orientations (facts §8.1, §8.2, §7.6)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from eighteen.title.model import City, Hex, Tile, TilesFile, Town
from eighteen.title.upgrades import (
    TileShapes,
    edge_mask,
    face_exits,
    first_tile_rotations,
    hex_upgrade_rotations,
    mask_edges,
    orientations,
    relative_rotations,
    rotate_mask,
    shape_of,
    upgrade_rotations,
)

ROOT = Path(__file__).resolve().parents[2]

# facts §8.1, written independently of titles/: id colour label stops track
#   stops: C<revenue>x<slots>:<exits> or T<revenue>:<exits>, joined by "+"; track a-b,c-d
FACTS_TILES = """
1 yellow - T10:13+T10:04 -
2 yellow - T10:03+T10:12 -
3 yellow - T10:01 -
4 yellow - T10:03 -
7 yellow - - 0-1
8 yellow - - 0-2
9 yellow - - 0-3
14 green - C30x2:0134 -
15 green - C30x2:0123 -
16 green - - 0-2,1-3
18 green - - 0-3,1-2
19 green - - 0-3,2-4
20 green - - 0-3,1-4
23 green - - 0-3,0-4
24 green - - 0-3,0-2
25 green - - 0-2,0-4
26 green - - 0-3,0-5
27 green - - 0-3,0-1
28 green - - 0-4,0-5
29 green - - 0-2,0-1
39 brown - - 0-2,0-1,1-2
40 brown - - 0-2,2-4,0-4
41 brown - - 0-3,0-1,1-3
42 brown - - 0-3,3-5,0-5
43 brown - - 0-3,0-2,1-3,1-2
44 brown - - 0-3,1-4,0-1,3-4
45 brown - - 0-3,2-4,0-4,2-3
46 brown - - 0-3,2-4,3-4,0-2
47 brown - - 0-3,1-4,1-3,0-4
53 green B C50x1:024 -
54 green NY C60x1:01+C60x1:23 -
55 yellow - T10:03+T10:14 -
56 yellow - T10:02+T10:13 -
57 yellow - C20x1:03 -
58 yellow - T10:02 -
59 green OO C40x1:0+C40x1:2 -
61 brown B C60x1:0234 -
62 brown NY C80x2:01+C80x2:23 -
63 brown - C40x2:012345 -
64 brown OO C50x1:02+C50x1:34 -
65 brown OO C50x1:04+C50x1:23 -
66 brown OO C50x1:03+C50x1:12 -
67 brown OO C50x1:03+C50x1:24 -
68 brown OO C50x1:03+C50x1:14 -
69 yellow - T10:03+T10:24 -
70 brown - - 0-1,0-2,1-3,2-3
"""

# facts §8.1 "Distinct orientations" and "Upgrades to" columns
FACTS_ORIENTATIONS = {
    "1": 3, "2": 6, "3": 6, "4": 3, "7": 6, "8": 6, "9": 3, "14": 3, "15": 6, "16": 6,
    "18": 6, "19": 6, "20": 3, "23": 6, "24": 6, "25": 6, "26": 6, "27": 6, "28": 6, "29": 6,
    "39": 6, "40": 2, "41": 6, "42": 6, "43": 6, "44": 3, "45": 6, "46": 6, "47": 3, "53": 2,
    "54": 6, "55": 3, "56": 6, "57": 3, "58": 6, "59": 6, "61": 6, "62": 6, "63": 1, "64": 6,
    "65": 6, "66": 6, "67": 6, "68": 3, "69": 6, "70": 6,
}  # fmt: skip
FACTS_UPGRADES = {
    "7": ["18", "26", "27", "28", "29"],
    "8": ["16", "19", "23", "24", "25", "28", "29"],
    "9": ["18", "19", "20", "23", "24", "26", "27"],
    "57": ["14", "15"],
    "14": ["63"],
    "15": ["63"],
    "16": ["43", "70"],
    "18": ["43"],
    "19": ["45", "46"],
    "20": ["44", "47"],
    "23": ["41", "43", "45", "47"],
    "24": ["42", "43", "46", "47"],
    "25": ["40", "45", "46"],
    "26": ["42", "44", "45"],
    "27": ["41", "44", "46"],
    "28": ["39", "43", "46", "70"],
    "29": ["39", "43", "45", "70"],
    "53": ["61"],
    "54": ["62"],
    "59": ["64", "65", "66", "67", "68"],
}


def _stop(text: str) -> City | Town:
    head, exits = text.split(":")
    edges = [int(ch) for ch in exits]
    if head[0] == "T":
        return Town(revenue=int(head[1:]), exits=edges)
    revenue, slots = head[1:].split("x")
    return City(revenue=int(revenue), slots=int(slots), exits=edges)


def facts_tiles() -> dict[str, Tile]:
    """The §8.1 table as Tile models."""
    out = {}
    for line in FACTS_TILES.strip().splitlines():
        tid, color, label, stops, track = line.split()
        parts = [] if stops == "-" else [_stop(s) for s in stops.split("+")]
        out[tid] = Tile(
            id=tid,
            color=color,
            label=None if label == "-" else label,
            cities=[p for p in parts if isinstance(p, City)],
            towns=[p for p in parts if isinstance(p, Town)],
            track=[]
            if track == "-"
            else [[int(x) for x in t.split("-")] for t in track.split(",")],
        )
    return out


def chart(tiles: dict[str, Tile]) -> dict[str, list[str]]:
    """Old tile -> new tiles it upgrades to (any rotation)."""
    shapes = {tid: TileShapes.of(t, t.color) for tid, t in tiles.items()}
    out = {}
    for old_id, old in shapes.items():
        targets = [n for n, new in shapes.items() if relative_rotations(old.base, old.color, new)]
        if targets:
            out[old_id] = sorted(targets, key=int)
    return out


def test_facts_upgrade_chart() -> None:
    assert chart(facts_tiles()) == FACTS_UPGRADES


def test_facts_orientations() -> None:
    tiles = facts_tiles()
    assert {tid: len(orientations(t)) for tid, t in tiles.items()} == FACTS_ORIENTATIONS
    assert orientations(tiles["57"]) == [0, 1, 2]
    assert orientations(tiles["53"]) == [0, 1]
    assert orientations(tiles["63"]) == [0]


def _library_1830() -> dict[str, Tile] | None:
    """titles/1830 manifest tiles from the titles/common library, or None if not there yet."""
    manifest_path = ROOT / "titles/1830/tiles.toml"
    lib_path = ROOT / "titles/common/tiles.toml"
    if not manifest_path.is_file() or not lib_path.is_file():
        return None
    manifest = TilesFile.model_validate(tomllib.loads(manifest_path.read_text()))
    library = TilesFile.model_validate(tomllib.loads(lib_path.read_text()))
    defs = {t.id: t for t in [*library.tiles, *manifest.tiles]}
    return {tid: defs[tid] for tid in manifest.manifest}


def test_title_1830_upgrade_chart_and_orientations() -> None:
    tiles = _library_1830()
    assert tiles is not None
    assert chart(tiles) == FACTS_UPGRADES
    assert {tid: len(orientations(t)) for tid, t in tiles.items()} == FACTS_ORIENTATIONS


def test_relative_rotations_keep_every_working_rotation() -> None:
    tiles = facts_tiles()
    assert upgrade_rotations(tiles["57"], "yellow", tiles["14"]) == [0, 2, 3, 5]
    assert upgrade_rotations(tiles["57"], "yellow", tiles["15"]) == [0, 3]
    assert upgrade_rotations(tiles["9"], "yellow", tiles["20"]) == [0, 2, 3, 5]
    assert upgrade_rotations(tiles["14"], "green", tiles["63"]) == [0, 1, 2, 3, 4, 5]


def test_plain_track_needs_plain_track() -> None:
    tiles = facts_tiles()
    assert upgrade_rotations(tiles["9"], "yellow", tiles["16"]) == []  # 0-3 is not on 16


def test_colour_label_and_counts() -> None:
    tiles = facts_tiles()
    assert upgrade_rotations(tiles["57"], "yellow", tiles["63"]) == []  # two steps up
    assert upgrade_rotations(tiles["57"], "yellow", tiles["53"]) == []  # label B
    assert upgrade_rotations(tiles["3"], "yellow", tiles["14"]) == []  # towns 1 -> 0
    assert upgrade_rotations(tiles["7"], "yellow", tiles["14"]) == []  # cities 0 -> 1


def test_labelled_face_may_change_city_count() -> None:
    # two OO cities may merge into one city on a labelled upgrade (not in 1830)
    old = facts_tiles()["59"]
    one = Tile(id="Y", color="brown", label="OO", cities=[City(revenue=50, exits=[0, 2, 4])])
    assert upgrade_rotations(old, "green", one) == [0, 2, 4]
    unlabelled = Tile(id="X", color="green", cities=[City(revenue=40, exits=[0, 3])])
    two = facts_tiles()["64"].model_copy(update={"label": None})
    assert upgrade_rotations(unlabelled, "green", two) == []


def test_multi_city_each_old_city_needs_its_own_new_city() -> None:
    tiles = facts_tiles()
    # 59 has cities at 0 and at 2; 64 joins 0+2 in one city: rotation 0 would merge them
    assert upgrade_rotations(tiles["59"], "green", tiles["64"]) == [2, 4]
    assert upgrade_rotations(tiles["59"], "green", tiles["66"]) == [0, 5]


def test_one_city_keeps_its_exits_together() -> None:
    old = Tile(id="X", color="yellow", label="Z", cities=[City(revenue=20, exits=[0, 3])])
    split = Tile(
        id="Y",
        color="green",
        label="Z",
        cities=[City(revenue=30, exits=[0, 1]), City(revenue=30, exits=[3, 4])],
    )
    joined = split.model_copy(
        update={"cities": [City(revenue=30, exits=[0, 3]), City(revenue=30, exits=[1])]}
    )
    assert upgrade_rotations(old, "yellow", split) == []
    # the added city at edge 1 is new: allowed once (one city added)
    assert upgrade_rotations(old, "yellow", joined) == [0, 3]


def test_preprinted_g19_to_54() -> None:
    g19 = Hex(
        at="G19",
        color="yellow",
        label="NY",
        cities=[City(revenue=40, exits=[3]), City(revenue=40, exits=[0])],
    )
    tile = TileShapes.of(facts_tiles()["54"], "green")
    assert relative_rotations(shape_of(g19), "yellow", tile) == [0, 3]
    usable = edge_mask([0, 1, 2, 3])
    assert hex_upgrade_rotations(shape_of(g19), "yellow", usable, tile) == [0]


def test_preprinted_oo_without_track_takes_any_rotation() -> None:
    e11 = Hex(at="E11", color="yellow", label="OO", cities=[City(revenue=0), City(revenue=0)])
    tile = TileShapes.of(facts_tiles()["59"], "green")
    assert relative_rotations(shape_of(e11), "yellow", tile) == [0, 1, 2, 3, 4, 5]
    usable = edge_mask([0, 2, 3, 4, 5])
    assert hex_upgrade_rotations(shape_of(e11), "yellow", usable, tile) == [0, 2, 3, 4]


def test_first_lays_match_printed_content() -> None:
    tiles = {tid: TileShapes.of(t, t.color) for tid, t in facts_tiles().items()}
    yellow = [tid for tid, t in tiles.items() if t.color == "yellow"]

    def legal(face: Hex, usable: int = 0b111111) -> list[str]:
        return [tid for tid in yellow if first_tile_rotations(face, usable, tiles[tid])]

    assert legal(Hex(at="B12")) == ["7", "8", "9"]
    assert legal(Hex(at="D4", towns=[Town(revenue=0)])) == ["3", "4", "58"]
    two = Hex(at="G7", towns=[Town(revenue=0), Town(revenue=0)])
    assert legal(two) == ["1", "2", "55", "56", "69"]
    assert legal(Hex(at="E19", cities=[City(revenue=0)])) == ["57"]
    assert legal(Hex(at="Z1", color="white", label="OO", cities=[City(revenue=0)])) == []


def test_first_lay_on_london_e7() -> None:
    tiles = facts_tiles()
    e7 = Hex(at="E7", towns=[Town(revenue=0)])
    usable = edge_mask([1, 2, 3])
    got = {
        tid: first_tile_rotations(e7, usable, TileShapes.of(tiles[tid], "yellow"))
        for tid in ("3", "4", "58")
    }
    assert got == {"3": [1, 2], "4": [], "58": [1]}


def test_masks() -> None:
    assert edge_mask([0, 3]) == 0b1001
    assert mask_edges(0b101010) == [1, 3, 5]
    assert rotate_mask(edge_mask([4, 5]), 2) == edge_mask([0, 1])
    assert rotate_mask(0b111111, 5) == 0b111111
    assert face_exits(facts_tiles()["54"]) == [0, 1, 2, 3]
