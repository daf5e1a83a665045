"""The human rule tables, ``generated/<id>.md``: a compiled title through the Jinja
template ``templates/title.md.j2``, with the small derived tables it prints (the trains
by phase, the market grid, the first tiles by hex) and the filters that write rule values
as people read them, every value made inert for Markdown.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
import markupsafe

from eighteen.compiled import CompiledTrain, Reach
from eighteen.title import geometry
from eighteen.title.model import Distance, Phase, Rules


def natural_key(text: str) -> tuple[int, int, str]:
    """Sort key putting numeric ids in number order before other ids: 7 < 57 < 441 < X."""
    return (0, int(text), "") if text.isdigit() else (1, 0, text)


_MARKDOWN_SPECIAL = re.compile(r"(?<!\\)[|`]|[<>\r\n]")
_MARKDOWN_REPLACE = {"<": "&lt;", ">": "&gt;", "\r": " ", "\n": " "}


def markdown_escape(value: Any) -> Any:
    """Every value written into the Markdown tables, made inert: a title string cannot
    end a table cell (``|``), open HTML (``<script>``), a code span or a new line.
    Idempotent (a macro's output passes through twice)."""
    if isinstance(value, markupsafe.Markup):  # already escaped (the ``cells`` filter)
        return str(value)
    if not isinstance(value, str):
        return value
    return _MARKDOWN_SPECIAL.sub(lambda m: _MARKDOWN_REPLACE.get(m[0], "\\" + m[0]), value)


def table_cells(values: Iterable[Any]) -> markupsafe.Markup:
    """Values as the cells of one Markdown table row (each escaped, joined by ``|``)."""
    return markupsafe.Markup(" | ".join(markdown_escape(str(v)) for v in values))


def plain_text(value: Any) -> str:
    """A rule value as people write it: records as ``key value`` pairs, lists joined."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, dict):
        return "; ".join(f"{k} {plain_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(
            f"({plain_text(v)})" if isinstance(v, dict) else plain_text(v) for v in value
        )
    return "—" if value is None else str(value)


def money(value: Any) -> str:
    """Dollar amount with thousands separators: 12000 -> "$12,000"."""
    return f"${value:,}" if isinstance(value, int) else "—"


def distance_text(distance: Reach | Mapping[str, Any]) -> str:
    """A train's reach in words: 2 -> "2", null -> "unlimited", a table -> "2+2", "4/6"."""
    if distance is None:
        return "unlimited"
    if isinstance(distance, int):
        return str(distance)
    d = distance if isinstance(distance, Distance) else Distance.model_validate(distance)
    parts = []
    if d.cities is not None:
        parts.append(f"{d.cities}+{d.towns}" if d.towns else str(d.cities))
    if d.pay is not None or d.visit is not None:
        parts.append(f"{d.pay or '?'}/{d.visit or '?'}")
    return " ".join(parts) or "?"


def or_list(items: list[str]) -> str:
    """Words joined as a choice: ["3", "4", "58"] -> "3, 4 or 58"."""
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"


def stops_text(face: dict[str, Any]) -> str:
    """A face's stops in words: "city $30 ×2, town $10"; "—" when it has none."""
    parts = [
        f"city {money(c['revenue'])}" + (f" ×{c['slots']}" if c["slots"] > 1 else "")
        for c in face["cities"]
    ]
    parts += [f"town {money(t['revenue'])}" for t in face["towns"]]
    return ", ".join(parts) or "—"


def train_phase_grid(
    phases: Sequence[Phase], trains: Sequence[CompiledTrain]
) -> list[dict[str, Any]]:
    """Per train: a cell per phase: "●" in play, "rusts"/"obsolete" where it goes, else ""."""
    by_id = {p.id: i for i, p in enumerate(phases)}
    # train id -> index of the phase its first purchase starts
    by_train = {p.on: i for i, p in enumerate(phases) if p.on}
    rows = []
    start = 0
    for train in trains:
        start = by_train.get(train.id, start)
        first = min(start, by_id.get(train.available_on or "", start))
        gone = by_train.get(train.rusts_on or "")
        stale = by_train.get(train.obsolete_on or "")
        cells = []
        for i in range(len(phases)):
            if gone is not None and i >= gone:
                cells.append("rusts" if i == gone else "")
            elif stale is not None and i >= stale:
                cells.append("obsolete" if i == stale else "")
            else:
                cells.append("●" if i >= first else "")
        rows.append({"id": train.id, "cells": cells})
    return rows


def market_grid(market: dict[str, Any]) -> list[list[str]]:
    """Market cells as text: "100p" with par cells in bold, "" where there is no cell."""
    out = []
    for row in market["cells"]:
        texts = []
        for cell in row:
            if cell is None:
                texts.append("")
                continue
            text = f"{cell['price']}{''.join(cell['zones'])}"
            texts.append(f"**{text}**" if cell["par"] else text)
        out.append(texts)
    return out


def _first_tile_groups(compiled: dict[str, Any]) -> list[dict[str, Any]]:
    """White hexes grouped by the set of tiles they may take first."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for hid, row in compiled["first_tiles"].items():
        groups.setdefault(tuple(sorted(row, key=natural_key)), []).append(hid)
    return [
        {"tiles": list(k), "hexes": sorted(v, key=lambda h: geometry.parse_hex_id(h))}
        for k, v in sorted(groups.items(), key=lambda kv: [natural_key(t) for t in kv[0]])
    ]


def _markdown_view(compiled: dict[str, Any]) -> dict[str, Any]:
    """Derived tables for the template; the template reads ``c`` (compiled) and ``v``."""
    counts = set(compiled["starting_cash"]) | set(compiled["certificate_limit"])
    tiles = compiled["tiles"]
    return {
        "player_counts": sorted(counts, key=natural_key),
        "train_grid": train_phase_grid(
            [Phase.model_validate(p) for p in compiled["phases"]],
            [CompiledTrain.model_validate(t) for t in compiled["trains"]],
        ),
        "market_grid": market_grid(compiled["market"]),
        "tile_ids": sorted(tiles, key=natural_key),
        "preprinted": sorted(
            (h for h in compiled["upgrades"] if h in compiled["hexes"]),
            key=geometry.parse_hex_id,
        ),
        "first_groups": _first_tile_groups(compiled),
        "rule_help": {
            name: (field.description or "").rstrip(".")
            for name, field in Rules.model_fields.items()
        },
        "upgrade_targets": {
            k: sorted(row, key=natural_key) for k, row in compiled["upgrades"].items()
        },
    }


@lru_cache(maxsize=1)
def _jinja_env() -> jinja2.Environment:
    """Jinja environment over templates/ next to this module (package data)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
        finalize=markdown_escape,
    )
    env.filters["money"] = money
    env.filters["cells"] = table_cells
    env.filters["plain"] = plain_text
    env.filters["distance"] = distance_text
    env.filters["or_list"] = or_list
    env.filters["stops"] = stops_text
    return env


def render_markdown(compiled: dict[str, Any]) -> str:
    """The human rule tables (templates/title.md.j2) for a compiled document."""
    env = _jinja_env()
    return env.get_template("title.md.j2").render(c=compiled, v=_markdown_view(compiled))
