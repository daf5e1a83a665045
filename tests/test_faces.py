"""The one face reader: the same record from a title's models and from its compiled tables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eighteen.engine import network, tables
from eighteen.engine.position import MapState
from eighteen.faces import City, FaceRecord, Offboard, Town, read_face, track_edges
from eighteen.title.pipeline import load_title

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("title_id", ["1830", "1833ne"])
def test_models_and_compiled_tables_read_alike(title_id: str) -> None:
    title, problems = load_title(ROOT / "titles" / title_id)
    assert title is not None, problems
    compiled = json.loads((ROOT / "generated" / f"{title_id}.json").read_text(encoding="utf-8"))
    assert compiled["tiles"], title_id
    for tid, rec in compiled["tiles"].items():
        assert read_face(title.tile_defs[tid]) == read_face(rec), tid
        for r in range(6):
            assert read_face(title.tile_defs[tid], r) == read_face(rec, r), (tid, r)


def test_a_face_turns_with_its_stubs_and_offboard() -> None:
    rec = {
        "color": "green",
        "label": "B",
        "cities": [{"exits": [0, 1, 5], "revenue": 50, "slots": 2}],
        "towns": [{"exits": [3], "revenue": 10}],
        "track": [[2, 4]],
        "stubs": [2],
        "offboard": {"exits": [4], "revenue": {"yellow": 30}, "group": "W"},
    }
    assert read_face(rec, 1) == FaceRecord(
        color="green",
        label="B",
        cities=(City(50, 2, (0, 1, 2)),),
        towns=(Town(10, (4,)),),
        track=((3, 5),),
        stubs=(3,),
        offboard=Offboard({"yellow": 30}, "W", (5,)),
    )
    assert read_face(rec, 1).exits == (0, 1, 2, 3, 4, 5)
    assert read_face(rec, 7) == read_face(rec, 1)
    assert read_face({"offboard": {}, "cities": [{"exits": [3, 0]}]}) == FaceRecord(
        color=None, label=None, cities=(City(0, 1, (0, 3)),)
    )


def test_track_edges_counts_stops_track_offboard_and_stubs_sorted() -> None:
    """faces.track_edges: the exits of every city, town and the off-board, both ends of
    each plain track and the stubs, each edge once, sorted; a face record counts its stubs,
    the engine's face (which has none: a stub runs into the sea, no route runs on it) not."""
    rec = read_face(
        {
            "color": "green",
            "cities": [{"exits": [5, 1], "revenue": 50, "slots": 2}],
            "towns": [{"exits": [3], "revenue": 10}],
            "track": [[2, 4]],
            "stubs": [0],
        }
    )
    assert rec.exits == (0, 1, 2, 3, 4, 5)
    assert track_edges(rec.cities, rec.towns, rec.track, rec.offboard) == (1, 2, 3, 4, 5)
    assert track_edges((), (), (), Offboard(revenue={}, group=None, exits=(2, 4))) == (2, 4)
    board = network.board_of(tables.load_title("1833ne"))
    sea = board.face(MapState(), "C28")
    assert (sea.color, sea.exits) == ("blue", ())
    printed = read_face(board.hexes["C28"])
    assert printed.stubs == (2, 3) and printed.exits == (2, 3)
