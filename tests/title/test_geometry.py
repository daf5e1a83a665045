"""Hex coordinates, neighbours, edges and rotation (facts §9)."""

from __future__ import annotations

import pytest

from eighteen.title import geometry as g


@pytest.mark.parametrize(
    ("hex_id", "xy"),
    [("A9", (8, 0)), ("E19", (18, 4)), ("K15", (14, 10)), ("I1", (0, 8)), ("AA3", (2, 26))],
)
def test_pointy_coordinates(hex_id: str, xy: tuple[int, int]) -> None:
    assert g.hex_to_xy(hex_id) == xy
    assert g.xy_to_hex(*xy) == hex_id


@pytest.mark.parametrize(("hex_id", "xy"), [("B3", (1, 2)), ("A6", (0, 5)), ("J25", (9, 24))])
def test_flat_coordinates(hex_id: str, xy: tuple[int, int]) -> None:
    assert g.hex_to_xy(hex_id, "flat") == xy
    assert g.xy_to_hex(*xy, "flat") == hex_id


@pytest.mark.parametrize(
    ("letters", "index"), [("A", 0), ("K", 10), ("Z", 25), ("AA", 26), ("AZ", 51), ("BA", 52)]
)
def test_letter_index_round_trip(letters: str, index: int) -> None:
    assert g.letters_to_index(letters) == index
    assert g.index_to_letters(index) == letters


def test_letter_index_round_trip_everywhere() -> None:
    for i in range(26 * 27):
        assert g.letters_to_index(g.index_to_letters(i)) == i


@pytest.mark.parametrize("bad", ["19", "e19", "E", "ABC1", "E1234", ""])
def test_bad_hex_id(bad: str) -> None:
    with pytest.raises(ValueError):
        g.hex_to_xy(bad)


def test_unknown_layout() -> None:
    with pytest.raises(ValueError):
        g.hex_to_xy("E19", "round")


def test_e19_neighbours_facts_worked_example() -> None:
    expected = ["F18", "E17", "D18", "D20", "E21", "F20"]
    assert [g.neighbor_id("E19", e) for e in range(6)] == expected
    board = {"E19", *expected}
    assert g.neighbors("E19", board) == expected


# facts §9 geometric neighbour table, rows at the board's edges and corners
NEIGHBOUR_ROWS = """
A9,-,-,-,-,A11,B10
B24,C23,B22,-,-,-,-
C7,D6,-,-,-,C9,D8
H2,I1,-,-,G3,H4,I3
I1,-,-,-,H2,I3,J2
K15,-,K13,J14,-,-,-
"""
BOARD_NEAR = {
    "A9", "A11", "B10", "B22", "B24", "C7", "C9", "C23", "D6", "D8", "G3", "H2", "H4",
    "I1", "I3", "J2", "J14", "K13", "K15",
}  # fmt: skip


@pytest.mark.parametrize("row", NEIGHBOUR_ROWS.split())
def test_neighbour_rows(row: str) -> None:
    hex_id, *cells = row.split(",")
    expected = [None if c == "-" else c for c in cells]
    assert g.neighbors(hex_id, BOARD_NEAR) == expected


def test_neighbour_off_grid_is_none() -> None:
    assert g.neighbor_id("I1", 1) is None  # x would be -2
    assert g.neighbor_id("A9", 2) is None  # y would be -1


def test_flat_neighbours() -> None:
    # flat: 0 S, 1 SW, 2 NW, 3 N, 4 NE, 5 SE; letters are columns
    assert [g.neighbor_id("B3", e, "flat") for e in range(6)] == [
        "B5", "A4", "A2", "B1", "C2", "C4",
    ]  # fmt: skip


def test_neighbour_is_mutual() -> None:
    for layout in ("pointy", "flat"):
        for hex_id in ("E19", "D10", "G8", "C12"):
            for e in range(6):
                other = g.neighbor_id(hex_id, e, layout)
                assert other is not None
                assert g.neighbor_id(other, g.opposite(e), layout) == hex_id


def test_opposite_and_rotation() -> None:
    assert [g.opposite(e) for e in range(6)] == [3, 4, 5, 0, 1, 2]
    assert g.rotate_edge(5, 1) == 0
    assert g.rotate_edge(2, 6) == 2
    assert g.rotate_edges([0, 3], 2) == [2, 5]
    assert g.rotate_edges((4, 5), 3) == [1, 2]
