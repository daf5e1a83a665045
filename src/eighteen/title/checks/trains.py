"""Cross-reference checks: trains.toml and phases.toml."""

from __future__ import annotations

from collections.abc import Iterator

from eighteen.title.aggregate import Title
from eighteen.title.checks.common import train_ids
from eighteen.title.checks.registry import W, check
from eighteen.title.model import (
    COLOR_ORDER,
)
from eighteen.title.problems import Problem
from eighteen.title.sources import Sources


@check
def train_ids_unique(title: Title, s: Sources) -> Iterator[Problem]:
    """E120: train ids (including card variants) are unique."""
    seen: set[str] = set()
    for i, t in enumerate(title.trains.trains):
        for path, tid in [(("trains", i, "id"), t.id)] + [
            (("trains", i, "variants", j, "id"), v.id) for j, v in enumerate(t.variants)
        ]:
            if tid in seen:
                yield s.locate("trains", path, "E120", f"duplicate train '{tid}'")
            seen.add(tid)


@check
def train_counts(title: Title, s: Sources) -> Iterator[Problem]:
    """E121: every train type has at least one copy."""
    for i, t in enumerate(title.trains.trains):
        if t.count == 0:
            yield s.locate("trains", ("trains", i, "count"), "E121", f"no {t.id}-trains at all")


@check
def train_references(title: Title, s: Sources) -> Iterator[Problem]:
    """E122: rusts_on / obsolete_on / trade_in name known trains; E123: available_on a phase."""
    ids = train_ids(title)
    phases = {p.id for p in title.phases.phases}
    for i, t in enumerate(title.trains.trains):
        for key in ("rusts_on", "obsolete_on"):
            ref = getattr(t, key)
            if ref is not None and ref not in ids:
                yield s.locate("trains", ("trains", i, key), "E122", f"unknown train '{ref}'")
            if ref == t.id:
                yield s.locate("trains", ("trains", i, key), "E122", "a train cannot rust itself")
        if t.trade_in:
            for j, ref in enumerate(t.trade_in.trains):
                if ref not in ids:
                    yield s.locate(
                        "trains",
                        ("trains", i, "trade_in", "trains", j),
                        "E122",
                        f"unknown train '{ref}'",
                    )
        if t.available_on is not None and t.available_on not in phases:
            yield s.locate(
                "trains",
                ("trains", i, "available_on"),
                "E123",
                f"unknown phase '{t.available_on}'",
            )


@check
def rust_before_own_sale(title: Title, s: Sources) -> Iterator[Problem]:
    """E124: a train rusts on a LATER train type (else it would rust before being sold)."""
    order = {t.id: n for n, t in enumerate(title.trains.trains)}
    for i, t in enumerate(title.trains.trains):
        for key in ("rusts_on", "obsolete_on"):
            ref = getattr(t, key)
            if ref in order and order[ref] <= order[t.id] and ref != t.id:
                yield s.locate(
                    "trains",
                    ("trains", i, key),
                    "E124",
                    f"{t.id} {key.replace('_', ' ')} {ref}, which is sold before it",
                )


@check
def trade_in_within_price(title: Title, s: Sources) -> Iterator[Problem]:
    """E125: a trade-in discount is at most the price of the train it buys (the engine
    sells the card for its price less the discount; below $0 no purchase is possible)."""
    for i, t in enumerate(title.trains.trains):
        if t.trade_in is not None and t.trade_in.discount > t.price:
            yield s.locate(
                "trains",
                ("trains", i, "trade_in", "discount"),
                "E125",
                f"a trade-in discount of ${t.trade_in.discount} is more than the {t.id} costs "
                f"(${t.price})",
            )


@check
def cards_not_sides(title: Title, s: Sources) -> Iterator[Problem]:
    """E126: a phase's ``on``, a ``rusts_on`` and an ``obsolete_on`` name a train card,
    not the other side of a double-sided card: a card's first purchase starts a phase,
    and its copies rust or phase out as a whole, whichever side was bought."""
    side_of = {v.id: t.id for t in title.trains.trains for v in t.variants}
    if not side_of:
        return
    for i, t in enumerate(title.trains.trains):
        for key in ("rusts_on", "obsolete_on"):
            ref = getattr(t, key)
            if ref in side_of:
                yield s.locate(
                    "trains",
                    ("trains", i, key),
                    "E126",
                    f"'{ref}' is a side of the {side_of[ref]} card: name the card, "
                    f"'{side_of[ref]}'",
                )
    for i, p in enumerate(title.phases.phases):
        if p.on in side_of:
            yield s.locate(
                "phases",
                ("phases", i, "on"),
                "E126",
                f"'{p.on}' is a side of the {side_of[p.on]} card: a phase starts on the card's "
                f"first purchase, name the card, '{side_of[p.on]}'",
            )


@check
def trains_after_an_endless_one(title: Title, s: Sources) -> Iterator[Problem]:
    """E127: no train type follows an unlimited one in the sale order, unless a phase
    makes it available (the bank sells the first type with copies left, and an unlimited
    type always has some)."""
    trains = title.trains.trains
    endless = next((t for t in trains if t.count == "unlimited"), None)
    if endless is None:
        return
    for i in range(trains.index(endless) + 1, len(trains)):
        t = trains[i]
        if t.available_on is None:
            yield s.locate(
                "trains",
                ("trains", i, "id"),
                "E127",
                f"the {t.id} is never for sale: it follows the {endless.id}, of which there is "
                "no end (give it available_on, or move it before)",
            )


@check
def phase_triggers(title: Title, s: Sources) -> Iterator[Problem]:
    """E130: a phase starts on a known train; E131: only the first phase has no trigger."""
    ids = train_ids(title)
    for i, p in enumerate(title.phases.phases):
        if i == 0 and p.on is not None:
            yield s.locate("phases", ("phases", i, "on"), "E131", "the first phase has no trigger")
        if i > 0 and p.on is None:
            yield s.locate("phases", ("phases", i), "E131", f"phase {p.id} has no 'on' train")
        if p.on is not None and p.on not in ids:
            yield s.locate("phases", ("phases", i, "on"), "E130", f"unknown train '{p.on}'")


@check
def phases_in_order(title: Title, s: Sources) -> Iterator[Problem]:
    """E132: phases follow the trains' sale order; E133: phase ids unique."""
    order = {t.id: n for n, t in enumerate(title.trains.trains)}
    for t in title.trains.trains:
        for v in t.variants:
            order[v.id] = order[t.id]
    last = -1
    seen: set[str] = set()
    for i, p in enumerate(title.phases.phases):
        if p.id in seen:
            yield s.locate("phases", ("phases", i, "id"), "E133", f"duplicate phase '{p.id}'")
        seen.add(p.id)
        if p.on in order:
            if order[p.on] < last:
                yield s.locate(
                    "phases",
                    ("phases", i, "on"),
                    "E132",
                    f"phase {p.id} starts on train {p.on}, sold before the previous phase's",
                )
            last = max(last, order[p.on])


@check
def phase_colours_grow(title: Title, s: Sources) -> Iterator[Problem]:
    """W134: a later phase does not take away a tile colour; E135: only layable colours."""
    prev: set[str] = set()
    for i, p in enumerate(title.phases.phases):
        now = {c.value for c in p.tiles}
        for j, c in enumerate(p.tiles):
            if c.value not in COLOR_ORDER[1:]:
                yield s.locate(
                    "phases", ("phases", i, "tiles", j), "E135", f"{c.value} tiles are never laid"
                )
        if prev - now:
            yield s.locate(
                "phases",
                ("phases", i, "tiles"),
                "W134",
                f"phase {p.id} drops colours {sorted(prev - now)}",
                severity=W,
            )
        prev = now
