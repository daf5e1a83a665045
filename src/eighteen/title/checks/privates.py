"""Cross-reference checks: privates.toml."""

from __future__ import annotations

import math
from collections.abc import Iterator

from eighteen.title.aggregate import Title
from eighteen.title.checks.common import hex_index, repeated
from eighteen.title.checks.registry import check
from eighteen.title.model import (
    BlockHexes,
    CloseOnTrain,
    ExchangeShare,
    FreeTileLay,
    GrantShare,
)
from eighteen.title.problems import Problem
from eighteen.title.sources import Sources


@check
def private_ids_unique(title: Title, s: Sources) -> Iterator[Problem]:
    """E160: private ids are unique."""
    for i, pid in repeated(p.id for p in title.privates.privates):
        yield s.locate("privates", ("privates", i, "id"), "E160", f"duplicate '{pid}'")


@check
def takeover_train_exists(title: Title, s: Sources) -> Iterator[Problem]:
    """E122: rules.takeovers.leaving_train names a train of the title."""
    tk = title.title.rules.takeovers
    known = {t.id for t in title.trains.trains}
    if tk is not None and tk.leaving_train is not None and tk.leaving_train not in known:
        msg = f"unknown train '{tk.leaving_train}'"
        yield s.locate("title", ("rules", "takeovers", "leaving_train"), "E122", msg)


@check
def private_price_ranges(title: Title, s: Sources) -> Iterator[Problem]:
    """E165: a corporation can buy each private for some price: from value x
    private_price_min_factor (at least private_price_min) to value x private_price_max_factor
    (the range the engine offers; an empty one would offer sales it then refuses)."""
    rules = title.title.rules
    for i, p in enumerate(title.privates.privates):
        low = max(math.ceil(p.value * rules.private_price_min_factor), rules.private_price_min or 0)
        high = math.floor(p.value * rules.private_price_max_factor)
        if low > high:
            yield s.locate(
                "privates",
                ("privates", i, "value"),
                "E165",
                f"{p.id} has no price a corporation could pay: ${low} to ${high} "
                f"(value ${p.value}, rules private_price_min_factor "
                f"{rules.private_price_min_factor}, private_price_max_factor "
                f"{rules.private_price_max_factor}, private_price_min "
                f"${rules.private_price_min or 0})",
            )


@check
def ability_targets(title: Title, s: Sources) -> Iterator[Problem]:
    """E161 unknown hex, E162 unknown corporation, E163 unknown tile in a private's powers."""
    hexes = set(hex_index(title))
    corps = {c.id for c in title.corporations.corporations}
    tiles = set(title.tiles.manifest)
    for i, p in enumerate(title.privates.privates):
        for j, a in enumerate(p.abilities):
            base = ("privates", i, "abilities", j)
            if isinstance(a, BlockHexes | FreeTileLay):
                for k, h in enumerate(a.hexes):
                    if h not in hexes:
                        yield s.locate("privates", (*base, "hexes", k), "E161", f"no hex {h}")
            if (
                isinstance(a, GrantShare | ExchangeShare | CloseOnTrain)
                and a.corporation not in corps
            ):
                yield s.locate(
                    "privates",
                    (*base, "corporation"),
                    "E162",
                    f"unknown corporation '{a.corporation}'",
                )
            if isinstance(a, FreeTileLay):
                for k, t in enumerate(a.tiles):
                    if t not in tiles:
                        yield s.locate(
                            "privates", (*base, "tiles", k), "E163", f"tile '{t}' not in manifest"
                        )


@check
def president_grant_unique(title: Title, s: Sources) -> Iterator[Problem]:
    """E164: at most one private grants each corporation's president's certificate."""
    seen: set[str] = set()
    for i, p in enumerate(title.privates.privates):
        for j, a in enumerate(p.abilities):
            if isinstance(a, GrantShare) and a.president:
                if a.corporation in seen:
                    yield s.locate(
                        "privates",
                        ("privates", i, "abilities", j, "corporation"),
                        "E164",
                        f"{a.corporation}'s president's certificate is granted twice",
                    )
                seen.add(a.corporation)
