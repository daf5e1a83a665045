"""What several checks share: repeated ids, the hexes of the map, train ids, player counts."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from eighteen.title.aggregate import Title

#: A hex id: one or two letters, then digits.
HEX_RE = re.compile(r"^([A-Z]{1,2})([0-9]+)$")


def repeated(ids: Iterable[str]) -> Iterator[tuple[int, str]]:
    """(index, id) of every id that already appeared earlier in ``ids``."""
    seen: set[str] = set()
    for i, x in enumerate(ids):
        if x in seen:
            yield i, x
        seen.add(x)


def hex_entries(title: Title) -> Iterator[tuple[str, tuple[str | int, ...], int]]:
    """(hex id, key path of its coordinate, index of its [[hexes]] entry) for every hex."""
    for i, h in enumerate(title.map.hexes):
        if isinstance(h.at, str):
            yield h.at, ("hexes", i, "at"), i
        else:
            for j, hid in enumerate(h.at):
                yield hid, ("hexes", i, "at", j), i


def hex_index(title: Title) -> dict[str, int]:
    """Hex id -> index of its [[hexes]] entry (first one if duplicated)."""
    out: dict[str, int] = {}
    for hid, _, i in hex_entries(title):
        out.setdefault(hid, i)
    return out


def train_ids(title: Title) -> set[str]:
    """Every train id and variant id."""
    ids = {t.id for t in title.trains.trains}
    for t in title.trains.trains:
        ids.update(v.id for v in t.variants)
    return ids


def player_counts(title: Title) -> range:
    """The player counts the title allows."""
    p = title.title.players
    return range(p.min, p.max + 1)
