"""The stock market: share prices, their moves and the operating order they set.

Moves use the cells' precomputed neighbours (compiled format, "market moves"): ``pay``
(dividend paid), ``withhold``, ``down`` (one row per certificate sold) and ``up`` (sold out
at the end of a stock round).  Corporations sharing a cell keep their arrival order: the
newcomer goes under the others (seed 000, "share value and the stock market").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eighteen.engine.tables import MarketCell

if TYPE_CHECKING:
    from eighteen.engine.context import Context


def cell(g: Context, corp: str) -> MarketCell | None:
    """The corporation's current market cell, or None before it is started."""
    pos = g.state.corporations[corp].cell
    return None if pos is None else g.tables.cell(pos)


def price(g: Context, corp: str) -> int:
    """Current share price (0 before the corporation is started)."""
    c = cell(g, corp)
    return 0 if c is None else c.price


def place(g: Context, corp: str, pos: tuple[int, int] | list[int]) -> None:
    """Put the corporation's marker on a cell; a real move puts it under the others."""
    cs = g.state.corporations[corp]
    new = [int(pos[0]), int(pos[1])]
    if cs.cell == new:
        return
    cs.cell = new
    g.state.arrivals += 1
    cs.arrival = g.state.arrivals


def move(g: Context, corp: str, kind: str, times: int = 1) -> None:
    """Move the marker ``times`` cells in direction ``kind`` (pay/withhold/up/down)."""
    c = cell(g, corp)
    if c is None:
        return
    before = c.price
    for _ in range(times):
        c = g.tables.cell(getattr(c, kind))
    place(g, corp, (c.row, c.col))
    if c.price != before:
        g.note(f"{corp} share price {kind}: ${before} -> ${c.price}")


def operating_order(g: Context, corps: list[str]) -> list[str]:
    """Highest price first; ties: further right, then higher row, then first arrival."""

    def key(cid: str) -> tuple[int, int, int, int]:
        cs = g.state.corporations[cid]
        c = cell(g, cid)
        assert c is not None
        return (-c.price, -c.col, c.row, cs.arrival)

    return sorted(corps, key=key)


def ascending_order(g: Context, corps: list[str]) -> list[str]:
    """Lowest price first; ties: the first to reach the price first (seed 003: the game's
    first operating round)."""

    def key(cid: str) -> tuple[int, int]:
        c = cell(g, cid)
        assert c is not None
        return (c.price, g.state.corporations[cid].arrival)

    return sorted(corps, key=key)
