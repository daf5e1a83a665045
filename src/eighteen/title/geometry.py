"""Hex geometry: coordinates, edges, neighbours and rotation (facts §9).

A hex id is row letters then a number ("E19", "AA3").  It maps to *doubled* coordinates
(x, y): neighbouring hexes differ by 2 along one axis, or by 1 along both.

- pointy layout (1830): ``x = number - 1`` (column), ``y = letter index`` (row).
- flat layout: ``x = letter index`` (column), ``y = number - 1`` (row).

Letter index: A = 0 ... Z = 25, AA = 26 ... AZ = 51, BA = 52 ... (bijective base 26, minus 1).

Edges are numbered 0-5 clockwise.  Pointy: 0 SW, 1 W, 2 NW, 3 NE, 4 E, 5 SE.  Flat: 0 S,
1 SW, 2 NW, 3 N, 4 NE, 5 SE.  A tile laid at rotation r puts its edge e on hex edge
(e + r) mod 6.  These functions are pure and have no knowledge of any title.
"""

from __future__ import annotations

import re

EDGES = (0, 1, 2, 3, 4, 5)

#: Neighbour offset (dx, dy) by edge, pointy layout (facts §9 table).
POINTY_OFFSETS: tuple[tuple[int, int], ...] = ((-1, 1), (-2, 0), (-1, -1), (1, -1), (2, 0), (1, 1))
#: Neighbour offset (dx, dy) by edge, flat layout (facts §9 table).
FLAT_OFFSETS: tuple[tuple[int, int], ...] = ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1))

_HEX_ID = re.compile(r"^([A-Z]{1,2})([0-9]{1,3})$")


def _offsets(layout: str) -> tuple[tuple[int, int], ...]:
    """Offsets table for a layout name ("pointy" or "flat"; enum values accepted)."""
    name = getattr(layout, "value", layout)
    if name == "pointy":
        return POINTY_OFFSETS
    if name == "flat":
        return FLAT_OFFSETS
    raise ValueError(f"unknown layout {layout!r}")


def letters_to_index(letters: str) -> int:
    """Row letters -> index: A=0, Z=25, AA=26, AZ=51, BA=52 (bijective base 26, minus 1)."""
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


def index_to_letters(index: int) -> str:
    """Inverse of :func:`letters_to_index`: 0 -> A, 25 -> Z, 26 -> AA."""
    if index < 0:
        raise ValueError(f"negative letter index {index}")
    out = ""
    n = index + 1
    while n:
        n, rem = divmod(n - 1, 26)
        out = chr(ord("A") + rem) + out
    return out


def parse_hex_id(hex_id: str) -> tuple[str, int]:
    """Split "E19" into ("E", 19); ValueError when it is not letters then a number."""
    m = _HEX_ID.match(hex_id)
    if not m:
        raise ValueError(f"not a hex id: {hex_id!r}")
    return m.group(1), int(m.group(2))


def hex_to_xy(hex_id: str, layout: str = "pointy") -> tuple[int, int]:
    """Doubled coordinates of a hex id (facts §9): pointy E19 -> (18, 4), K15 -> (14, 10)."""
    letters, number = parse_hex_id(hex_id)
    letter = letters_to_index(letters)
    if getattr(layout, "value", layout) == "flat":
        return letter, number - 1
    _offsets(layout)  # validates the layout name
    return number - 1, letter


def xy_to_hex(x: int, y: int, layout: str = "pointy") -> str:
    """Hex id of doubled coordinates, the inverse of :func:`hex_to_xy`."""
    if getattr(layout, "value", layout) == "flat":
        return f"{index_to_letters(x)}{y + 1}"
    _offsets(layout)
    return f"{index_to_letters(y)}{x + 1}"


def neighbor_xy(x: int, y: int, edge: int, layout: str = "pointy") -> tuple[int, int]:
    """Coordinates of the hex across ``edge`` (facts §9 offsets table)."""
    dx, dy = _offsets(layout)[edge]
    return x + dx, y + dy


def neighbor_id(hex_id: str, edge: int, layout: str = "pointy") -> str | None:
    """Id of the hex across ``edge``, or None when it would be off the lettered grid."""
    x, y = hex_to_xy(hex_id, layout)
    nx, ny = neighbor_xy(x, y, edge, layout)
    if nx < 0 or ny < 0:
        return None
    return xy_to_hex(nx, ny, layout)


def neighbors(
    hex_id: str, existing: set[str] | dict[str, object], layout: str = "pointy"
) -> list[str | None]:
    """Neighbour per edge 0..5 among ``existing`` hexes; None where there is no hex.

    Pointy E19 on a full board -> [F18, E17, D18, D20, E21, F20] (facts §9 worked example).
    """
    x, y = hex_to_xy(hex_id, layout)
    out: list[str | None] = []
    for dx, dy in _offsets(layout):
        nx, ny = x + dx, y + dy
        other = xy_to_hex(nx, ny, layout) if nx >= 0 and ny >= 0 else None
        out.append(other if other is not None and other in existing else None)
    return out


def opposite(edge: int) -> int:
    """The edge facing ``edge`` from the neighbour's side: (e + 3) mod 6."""
    return (edge + 3) % 6


def rotate_edge(edge: int, rotation: int) -> int:
    """Hex edge of tile edge ``edge`` when the tile lies at ``rotation``: (e + r) mod 6."""
    return (edge + rotation) % 6


def rotate_edges(edges: list[int] | tuple[int, ...], rotation: int) -> list[int]:
    """Rotate every edge of a list by ``rotation`` (order kept)."""
    return [(e + rotation) % 6 for e in edges]
