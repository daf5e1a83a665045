"""18xx.games game exports: what the importer and the exporter share.

The export format is described in the reference note ``18xx-games-format.md`` (shared
reference folder); section numbers below (§3.2 ...) are that note's.  This module reads an
export file, checks its action list, applies the undo/redo filter (§3.2,
:func:`filter_actions`), follows each kept action by its ``auto_actions``
(:func:`effective_actions`) and reads integer fields; it holds the errors and the tables
of action types both sides use.  The importer is :mod:`eighteen.io.games18xx_import`, the
exporter :mod:`eighteen.io.games18xx_export`; :mod:`eighteen.io.games18xx` gathers them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from eighteen.io.jsonlimits import INT_MAX, INT_MIN, JSONLimitError, load_json

#: 18xx.games ``game_end_reason`` -> our engine's end reason.
END_REASONS = {"bankrupt": "bankruptcy", "bank": "bank broken"}

#: Action types that change no game state (automation settings, chat).
NO_STATE = {"program_buy_shares", "program_share_pass", "program_disable", "message"}
PROGRAM_PREFIX = "program_"

#: At most this many optional steps are passed to make one logged action fit.
MAX_PASSES = 12


class ExportError(ValueError):
    """The file is not a usable 18xx.games export (one line, naming the action id)."""


@dataclass
class Divergence(Exception):
    """Our engine refuses a logged action, or computes something else (e.g. a revenue)."""

    action_id: int | str
    action: dict[str, Any]
    reason: str

    def __str__(self) -> str:
        return f"action {self.action_id}: {self.reason}"


def read_export(path: str | Path) -> dict[str, Any]:
    """Read an export file; :class:`ExportError` when it cannot be used."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")  # (a byte order mark is skipped)
    except (OSError, UnicodeDecodeError) as exc:
        raise ExportError(f"cannot read {path}: {exc}") from None
    try:
        data = load_json(text)
    except json.JSONDecodeError as exc:
        raise ExportError(f"{path}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
    except JSONLimitError as exc:
        raise ExportError(f"{path}: not a usable export: {exc}") from None
    if not isinstance(data, dict):
        raise ExportError(f"{path}: not an 18xx.games export (not a JSON object)")
    return data


def action_list(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The export's action list, each action an object with a type and an id, the ids
    whole numbers increasing strictly (§2)."""
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise ExportError("the export has no action list ('actions')")
    last = 0
    for i, a in enumerate(actions):
        if not isinstance(a, dict):
            raise ExportError(f"action #{i + 1} is not a JSON object")
        if "type" not in a:
            raise ExportError(f"action {a.get('id', f'#{i + 1}')}: missing field 'type'")
        if not isinstance(a["type"], str):
            raise ExportError(
                f"action {a.get('id', f'#{i + 1}')}: unknown action type {a['type']!r}"
            )
        if "id" not in a:
            raise ExportError(f"action #{i + 1} ({a['type']}): missing field 'id'")
        aid = int_field(a["id"], a, "id")
        if i and aid <= last:
            raise ExportError(
                f"action #{i + 1} ({a['type']}): id {aid} after id {last} "
                "(ids increase strictly through the export)"
            )
        last = aid
    return actions


def filter_actions(raw: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The undo/redo filter of §3.2: the kept actions, in raw order, with their own ids.

    One slot per raw position; ``undo`` empties the kept non-message slots after its
    ``action_id`` (or the last one) and pushes them as a group; ``redo`` puts the last
    group back; any other action except chat clears the redo stack. An undo to an id
    the export lacks is refused (18xx.games fails on it); one to a later id removes
    nothing.
    """
    slots: list[dict[str, Any] | None] = []
    kept: list[int] = []  # positions of the kept non-message slots, ascending
    stack: list[list[tuple[int, dict[str, Any] | None]]] = []
    ids = {int_field(a["id"], a, "id") for a in raw}
    for a in raw:
        t = a.get("type")
        if t == "undo":
            if "action_id" in a and a["action_id"] is not None:
                target = int_field(a["action_id"], a, "action_id")
                if target and target not in ids:
                    raise ExportError(
                        f"action {a.get('id')}: undo to action {target}, "
                        "which the export does not have"
                    )
                at = next(
                    (k for k, i in enumerate(kept) if int_field(slots[i]["id"], a, "id") > target),  # type: ignore[index]
                    len(kept),
                )
            else:
                at = max(len(kept) - 1, 0)
            group: list[tuple[int, dict[str, Any] | None]] = [(i, slots[i]) for i in kept[at:]]
            for i in kept[at:]:
                slots[i] = None
            del kept[at:]
            stack.append(group)
            slots.append(None)
        elif t == "redo":
            if not stack:
                raise ExportError(f"action {a.get('id')}: redo with nothing to restore")
            group = stack.pop()
            for i, x in group:
                slots[i] = x
            kept = sorted(kept + [i for i, _ in group])
            slots.append(None)
        else:
            slots.append(a)
            if t != "message":
                kept.append(len(slots) - 1)
                stack = []
    return [a for a in slots if a is not None]


def effective_actions(raw: list[dict[str, Any]]) -> Iterator[tuple[int | str, dict[str, Any]]]:
    """(id, action) to process: the kept actions, each followed by its ``auto_actions``
    (which carry their parent's id, as ``"<id>.<n>"``)."""
    return with_autos(filter_actions(raw))


def with_autos(kept: list[dict[str, Any]]) -> Iterator[tuple[int | str, dict[str, Any]]]:
    """The kept actions, each followed by its ``auto_actions``."""
    for a in kept:
        yield a["id"], a
        autos = a.get("auto_actions") or []
        if not isinstance(autos, list):
            raise ExportError(f"action {a['id']}: auto_actions is not a list")
        for n, sub in enumerate(autos, 1):
            if not isinstance(sub, dict) or not isinstance(sub.get("type"), str):
                raise ExportError(f"action {a['id']}: auto action {n} has no type")
            yield f"{a['id']}.{n}", sub


def int_field(v: Any, a: dict[str, Any] | None, name: str, where: str | None = None) -> int:
    """An integer field: a whole number (or its digits as text) within 64 bits; a fraction
    (``45.5``), a bool or a number out of range is an ExportError naming the action (or
    ``where`` it is, for a field of no action: then ``a`` is None)."""
    if type(v) is int and INT_MIN <= v <= INT_MAX:
        return v  # the usual case
    if where is None:
        a = a or {}
        where = f"action {str(a.get('id'))[:24]} ({str(a.get('type'))[:40]})"
    if isinstance(v, bool) or not isinstance(v, int | float | str):
        raise ExportError(f"{where}: {name} is not a number")
    if isinstance(v, float) and not v.is_integer():
        raise ExportError(f"{where}: {name} is not a whole number: {v!r}")
    if isinstance(v, str) and not (0 < len(v) <= 20 and v.lstrip("-").isdigit()):
        raise ExportError(f"{where}: {name} is not a number: {v!r:.40}")
    try:
        n = int(v)
    except (OverflowError, ValueError):
        raise ExportError(f"{where}: {name} is not a number: {v!r:.40}") from None
    if not INT_MIN <= n <= INT_MAX:
        raise ExportError(f"{where}: {name} is out of range: {v!r:.40}")
    return n
