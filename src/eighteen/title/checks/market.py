"""Cross-reference checks: market.toml."""

from __future__ import annotations

import re
from collections.abc import Iterator

from eighteen.title.aggregate import Title
from eighteen.title.checks.registry import W, check
from eighteen.title.model import (
    MarketType,
)
from eighteen.title.problems import Problem
from eighteen.title.sources import Sources


def market_cells(title: Title) -> Iterator[tuple[int, int, int, str]]:
    """(row, column, price, zone letters) of every cell of the market written right."""
    for r, row in enumerate(title.market.rows):
        for c, cell in enumerate(row):
            if cell:
                m = re.match(r"^([0-9]+)([a-z]*)$", cell)
                if m:
                    yield r, c, int(m.group(1)), m.group(2)


@check
def market_zone_letters(title: Title, s: Sources) -> Iterator[Problem]:
    """E170: every zone letter in a cell is declared in [zones]."""
    zones = title.market.zones
    for r, c, _, letters in market_cells(title):
        for ch in letters:
            if ch not in zones:
                yield s.locate(
                    "market", ("rows", r, c), "E170", f"zone '{ch}' is not declared in [zones]"
                )


@check
def market_has_par(title: Title, s: Sources) -> Iterator[Problem]:
    """E171: the market has at least one par cell."""
    par = {k for k, z in title.market.zones.items() if z.par}
    if not any(set(letters) & par for *_, letters in market_cells(title)):
        yield s.locate("market", ("rows",), "E171", "no par cell: no corporation could start")


@check
def market_shape(title: Title, s: Sources) -> Iterator[Problem]:
    """E172: a linear market has one row; W173: prices rise to the right along a row."""
    if title.market.type is MarketType.linear and len(title.market.rows) != 1:
        yield s.locate("market", ("rows",), "E172", "a linear market has exactly one row")
    for r, row in enumerate(title.market.rows):
        prices = [(c, int(re.match(r"^[0-9]+", x).group())) for c, x in enumerate(row) if x]  # type: ignore[union-attr]
        for (_, a), (c, b) in zip(prices, prices[1:], strict=False):
            if b < a:
                yield s.locate(
                    "market",
                    ("rows", r, c),
                    "W173",
                    f"price {b} is below {a} on its left",
                    severity=W,
                )


@check
def market_no_holes(title: Title, s: Sources) -> Iterator[Problem]:
    """E174: empty cells may only pad the start or end of a row, not split it."""
    for r, row in enumerate(title.market.rows):
        filled = [c for c, x in enumerate(row) if x]
        if filled:
            for c in range(filled[0], filled[-1] + 1):
                if not row[c]:
                    yield s.locate("market", ("rows", r, c), "E174", "a gap inside a market row")
