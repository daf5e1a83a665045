"""Cross-reference checks: title.toml."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from typing import Annotated, Any

from pydantic import TypeAdapter, ValidationError

from eighteen.title.aggregate import Title
from eighteen.title.checks.common import player_counts, repeated, train_ids
from eighteen.title.checks.registry import W, check
from eighteen.title.model import Rules
from eighteen.title.problems import Problem
from eighteen.title.sources import Sources


@check
def title_id_matches_folder(title: Title, s: Sources) -> Iterator[Problem]:
    """E150: the title id must be its folder name, so `load_title(id)` finds it."""
    if title.dir.name != title.id:
        yield s.locate(
            "title",
            ("id",),
            "E150",
            f"title id '{title.id}' differs from its folder name '{title.dir.name}'",
        )


@check
def player_range(title: Title, s: Sources) -> Iterator[Problem]:
    """E151: players.min must not exceed players.max."""
    p = title.title.players
    if p.min > p.max:
        yield s.locate("title", ("players", "min"), "E151", f"min {p.min} > max {p.max}")


@check
def money_per_player_count(title: Title, s: Sources) -> Iterator[Problem]:
    """E152/E153: starting cash and certificate limit for every allowed player count."""
    for key, code, what in (
        ("starting_cash", "E152", "starting cash"),
        ("certificate_limit", "E153", "certificate limit"),
    ):
        table: dict[str, int] = getattr(title.title, key)
        for n in player_counts(title):
            if str(n) not in table:
                yield s.locate("title", (key,), code, f"{what} missing for {n} players")
        for k in table:
            if title.title.players.min > title.title.players.max:
                break  # E151 says it; every count would look wrong
            if not k.isdigit() or int(k) not in player_counts(title):
                yield s.locate(
                    "title",
                    (key, k),
                    "W154",
                    f"'{k}' is not an allowed player count",
                    severity=W,
                    key=True,
                )


@check
def duplicate_options(title: Title, s: Sources) -> Iterator[Problem]:
    """E155: option ids are unique."""
    for i, oid in repeated(o.id for o in title.title.options):
        yield s.locate("title", ("options", i, "id"), "E155", f"duplicate option '{oid}'")


@functools.cache
def _rule_adapter(key: str) -> TypeAdapter[Any]:
    """A validator for one Rules field, with its type and range (for option overrides)."""
    field = Rules.model_fields[key]
    if not field.metadata:
        return TypeAdapter(field.annotation)  # type: ignore[arg-type]
    return TypeAdapter(Annotated[field.annotation, *field.metadata])  # type: ignore[arg-type]


@check
def option_targets(title: Title, s: Sources) -> Iterator[Problem]:
    """E156: an option overrides known rules (with the right kind of value) and known trains."""
    fields = Rules.model_fields
    trains = train_ids(title)
    for i, o in enumerate(title.title.options):
        for key, value in o.rules.items():
            if key not in fields:
                yield s.locate(
                    "title", ("options", i, "rules", key), "E156", f"unknown rule '{key}'", key=True
                )
                continue
            try:  # as the TOML means it: strict, so `= 1` is no boolean and `true` no 1
                _rule_adapter(key).validate_json(json.dumps(value), strict=True)
            except ValidationError as exc:
                why = exc.errors()[0]["msg"].replace("Input should be", "it should be")
                yield s.locate(
                    "title",
                    ("options", i, "rules", key),
                    "E156",
                    f"{json.dumps(value)} is not a valid value for rule '{key}': {why}",
                )
        for key in o.train_counts:
            if key not in trains:
                yield s.locate(
                    "title",
                    ("options", i, "train_counts", key),
                    "E156",
                    f"unknown train '{key}'",
                    key=True,
                )


@check
def bankruptcy_flags(title: Title, s: Sources) -> Iterator[Problem]:
    """E157: ``keeps_presidency`` says how the bankrupt's shares are sold, so it needs
    ``sells_shares`` (in [rules] and in each option's rules, which replace it whole)."""
    places: list[tuple[tuple[str | int, ...], Any]] = [
        (("rules", "bankruptcy"), title.title.rules.bankruptcy.model_dump())
    ]
    for i, o in enumerate(title.title.options):
        value = o.rules.get("bankruptcy")
        if isinstance(value, dict):
            places.append((("options", i, "rules", "bankruptcy"), value))
    for path, rule in places:
        if rule.get("keeps_presidency") is True and rule.get("sells_shares") is not True:
            yield s.locate(
                "title",
                (*path, "keeps_presidency"),
                "E157",
                "true does nothing without sells_shares = true (without it the bankrupt's "
                "shares are kept for the score, none sold)",
            )


@check
def offboard_groups_name_offboards(title: Title, s: Sources) -> Iterator[Problem]:
    """E199: rules.offboard_groups (in the rules or an option) groups off-board hexes only."""
    offboards = {h.at for h in title.map.hexes if h.offboard is not None}
    places: list[tuple[tuple[str | int, ...], Any]] = [
        (("rules", "offboard_groups"), title.title.rules.offboard_groups)
    ]
    for i, o in enumerate(title.title.options):
        places.append((("options", i, "rules", "offboard_groups"), o.rules.get("offboard_groups")))
    for path, groups in places:
        if not isinstance(groups, dict):
            continue  # (none, or a value of the wrong kind: E156)
        for hid in groups:
            if hid not in offboards:
                yield s.locate(
                    "title",
                    (*path, hid),
                    "E199",
                    f"{hid} is not an off-board hex of the map",
                    key=True,
                )
