"""Compile a loaded title into rule tables: ``generated/<id>.json``, and beside it
``<id>.md`` (made by :mod:`eighteen.title.markdown`).

The output shape is specified in docs/compiled-format.md; this module is its only writer.
Everything static is computed here once: neighbours, usable edges, first tiles, upgrade
rotations, market moves.  Tile shapes are built once per tile and hex (upgrades.Shape).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from eighteen.compiled import FORMAT, CompiledTitle
from eighteen.title import geometry
from eighteen.title.aggregate import MissingPart, Title
from eighteen.title.markdown import render_markdown
from eighteen.title.model import Hex, MarketFile, Train
from eighteen.title.upgrades import (
    Shape,
    TileShapes,
    edge_mask,
    first_tile_rotations,
    hex_upgrade_rotations,
    mask_edges,
    orientations,
    relative_rotations,
    shape_of,
)

#: Colours of hexes that are never replaced: an edge facing one is usable only where it
#: has track on the facing side (facts §7.1).
FIXED_COLORS = frozenset({"gray", "red", "blue"})
#: Colours of preprinted hexes that take an upgrade keyed by the hex id.
PREPRINTED_UPGRADABLE = frozenset({"yellow", "green", "brown"})
#: Market cell flags, each the OR over the cell's zones.
ZONE_FLAGS = (
    "par",
    "cert_limit_exempt",
    "holding_limit_exempt",
    "multiple_buy",
    "closes",
    "ends_game",
)


# ---------------------------------------------------------------------------------------
# map


def _hex_index(title: Title) -> dict[str, Hex]:
    """Hex id -> its map entry (an entry with a list of ids expands to each id)."""
    out: dict[str, Hex] = {}
    for h in title.map.hexes:
        for hid in [h.at] if isinstance(h.at, str) else h.at:
            out[hid] = h
    return out


def _impassable(h: Hex) -> int:
    """Mask of the hex's impassable sides."""
    return edge_mask([b.edge for b in h.borders if b.type.value == "impassable"])


def usable_mask(
    hid: str,
    hexes: dict[str, Hex],
    shapes: dict[str, Shape],
    nbrs: list[str | None],
) -> int:
    """Edges track may leave ``hid`` by (facts §7.1, §8.2 rule 7a).

    An edge is usable when a neighbour exists, neither side is impassable, and a gray, red
    or blue neighbour has track (stop, plain track or off-board exit) on the facing edge.
    """
    own_blocked = _impassable(hexes[hid])
    mask = 0
    for edge, other in enumerate(nbrs):
        if other is None or own_blocked >> edge & 1:
            continue
        back = geometry.opposite(edge)
        nb = hexes[other]
        if _impassable(nb) >> back & 1:
            continue
        if nb.color.value in FIXED_COLORS and not shapes[other].exits >> back & 1:
            continue
        mask |= 1 << edge
    return mask


def _hex_record(
    hid: str, h: Hex, title: Title, nbrs: list[str | None], usable: int, layout: str
) -> dict[str, Any]:
    """One entry of ``hexes``: the printed face plus geometry, homes and blockers."""
    rec = h.model_dump(mode="json", exclude={"at"})
    x, y = geometry.hex_to_xy(hid, layout)
    rec.update(
        x=x,
        y=y,
        neighbors=nbrs,
        usable_edges=mask_edges(usable),
        homes=[c.id for c in title.corporations.corporations if c.home == hid],
        blocked_by=[
            p.id
            for p in title.privates.privates
            if any(a.type == "block_hexes" and hid in a.hexes for a in p.abilities)
        ],
    )
    return rec


# ---------------------------------------------------------------------------------------
# tiles and upgrades


def _manifest_shapes(title: Title) -> dict[str, TileShapes]:
    """Tile id -> its six rotations, for every manifest tile with a definition."""
    defs = title.tile_defs
    return {
        tid: TileShapes.of(defs[tid], defs[tid].color)
        for tid in title.tiles.manifest
        if tid in defs
    }


def _tile_record(title: Title, tid: str, count: int | str) -> dict[str, Any]:
    """One entry of ``tiles``: definition, count (null = unlimited), exits, orientations."""
    tile = title.tile_defs[tid]
    rec = tile.model_dump(mode="json", exclude={"id"})
    rec["count"] = None if count == "unlimited" else count
    rec["exits"] = mask_edges(shape_of(tile).exits)
    rec["orientations"] = orientations(tile)
    return rec


def tile_upgrades(shapes: dict[str, TileShapes]) -> dict[str, dict[str, list[int]]]:
    """Old tile -> new tile -> relative rotations, for every manifest pair (facts §8.2)."""
    out: dict[str, dict[str, list[int]]] = {}
    for old_id, old in shapes.items():
        row: dict[str, list[int]] = {}
        for new_id, new in shapes.items():
            rots = relative_rotations(old.base, old.color, new)
            if rots:
                row[new_id] = rots
        out[old_id] = row
    return out


def hex_upgrades(
    hexes: dict[str, Hex],
    hex_shapes: dict[str, Shape],
    usable: dict[str, int],
    shapes: dict[str, TileShapes],
) -> dict[str, dict[str, list[int]]]:
    """Preprinted yellow/green/brown hex -> new tile -> absolute rotations on that hex."""
    out: dict[str, dict[str, list[int]]] = {}
    for hid, h in hexes.items():
        if h.color.value not in PREPRINTED_UPGRADABLE:
            continue
        row: dict[str, list[int]] = {}
        for tid, tile in shapes.items():
            rots = hex_upgrade_rotations(hex_shapes[hid], h.color, usable[hid], tile)
            if rots:
                row[tid] = rots
        out[hid] = row
    return out


def first_tiles(
    hexes: dict[str, Hex], usable: dict[str, int], shapes: dict[str, TileShapes]
) -> dict[str, dict[str, list[int]]]:
    """White hex -> tile -> absolute rotations of a legal first tile (facts §7.6)."""
    out: dict[str, dict[str, list[int]]] = {}
    for hid, h in hexes.items():
        if h.color.value != "white":
            continue
        row: dict[str, list[int]] = {}
        for tid, tile in shapes.items():
            if tile.color != "yellow":
                continue
            rots = first_tile_rotations(h, usable[hid], tile)
            if rots:
                row[tid] = rots
        out[hid] = row
    return out


# ---------------------------------------------------------------------------------------
# trains, companies, market


def _distance(value: Any) -> Any:
    """Train distance: "unlimited" -> null; a table stays a table."""
    return None if value == "unlimited" else value


def _train_record(train: Train) -> dict[str, Any]:
    """One train type: unlimited distance and count become null."""
    rec = train.model_dump(mode="json")
    rec["distance"] = _distance(rec["distance"])
    rec["count"] = None if rec["count"] == "unlimited" else rec["count"]
    for variant in rec["variants"]:
        variant["distance"] = _distance(variant["distance"])
    return rec


def _corporations(title: Title) -> list[dict[str, Any]]:
    """Corporations in file order; float_percent falls back to rules.float_percent."""
    default = title.title.rules.float_percent
    out = []
    for corp in title.corporations.corporations:
        rec = corp.model_dump(mode="json")
        if rec["float_percent"] is None:
            rec["float_percent"] = default
        out.append(rec)
    return out


def parse_cell(cell: str) -> tuple[int, list[str]] | None:
    """Market cell text -> (price, zone letters); "" -> None.  "100p" -> (100, ["p"])."""
    if not cell:
        return None
    digits = len(cell) - len(cell.lstrip("0123456789"))
    return int(cell[:digits]), list(cell[digits:])


def _cell_at(rows: list[list[str]], r: int, c: int) -> bool:
    """Is there a market cell at row r, column c?"""
    return 0 <= r < len(rows) and 0 <= c < len(rows[r]) and rows[r][c] != ""


def market_moves(rows: list[list[str]], r: int, c: int, linear: bool) -> dict[str, list[int]]:
    """Where a price moves from cell (r, c) (docs/compiled-format.md, market moves).

    2-D: up = cell above, else itself; down = cell below, else itself; pay = cell to the
    right, else up; withhold = cell to the left, else down.  Linear: up and pay go one cell
    right, down and withhold one cell left; at either end the price stays.
    """
    here = [r, c]
    if linear:
        right = [r, c + 1] if _cell_at(rows, r, c + 1) else here
        left = [r, c - 1] if _cell_at(rows, r, c - 1) else here
        return {"up": right, "down": left, "pay": right, "withhold": left}
    up = [r - 1, c] if _cell_at(rows, r - 1, c) else here
    down = [r + 1, c] if _cell_at(rows, r + 1, c) else here
    pay = [r, c + 1] if _cell_at(rows, r, c + 1) else up
    withhold = [r, c - 1] if _cell_at(rows, r, c - 1) else down
    return {"up": up, "down": down, "pay": pay, "withhold": withhold}


def compile_market(market: MarketFile) -> dict[str, Any]:
    """Market cells with prices, zone flags and moves; par cells highest price first."""
    zones = {k: z.model_dump(mode="json") for k, z in market.zones.items()}
    linear = market.type.value == "linear"
    cells: list[list[dict[str, Any] | None]] = []
    pars: list[tuple[int, int, int]] = []
    for r, row in enumerate(market.rows):
        out_row: list[dict[str, Any] | None] = []
        for c, text in enumerate(row):
            parsed = parse_cell(text)
            if parsed is None:
                out_row.append(None)
                continue
            price, letters = parsed
            cell: dict[str, Any] = {"price": price, "zones": letters}
            for flag in ZONE_FLAGS:
                cell[flag] = any(zones.get(z, {}).get(flag, False) for z in letters)
            cell.update(market_moves(market.rows, r, c, linear))
            if cell["par"]:
                pars.append((price, r, c))
            out_row.append(cell)
        cells.append(out_row)
    pars.sort(key=lambda p: (-p[0], p[1], p[2]))
    return {
        "type": market.type.value,
        "zones": zones,
        "cells": cells,
        "par": [[r, c] for _, r, c in pars],
    }


# ---------------------------------------------------------------------------------------
# the whole document


def compile_title(title: Title) -> dict[str, Any]:
    """The compiled document of docs/compiled-format.md for a loaded, checked title.

    Computed once per Title object (the checks compile too, to find unplaceable tiles);
    callers must not mutate the result.
    """
    if title.compiled is None:
        title.compiled = compiled_document(title).model_dump(mode="json", by_alias=True)
    return title.compiled


def compiled_document(title: Title) -> CompiledTitle:
    """The compiled document as the typed models (once per Title object): what
    :func:`compile_title` writes out.  A title with stand-ins for schema errors has none:
    MissingPart, as for a file that did not load (a check that compiles is skipped)."""
    if title.stand_ins:
        raise MissingPart(", ".join(sorted(title.stand_ins)))
    if title.compiled_doc is None:
        # the compiled format is a typed contract: what is written is what the model reads
        title.compiled_doc = CompiledTitle.model_validate(_compile(title))
    return title.compiled_doc


def _compile(title: Title) -> dict[str, Any]:
    t = title.title
    layout = title.map.layout.value
    hexes = _hex_index(title)
    hex_shapes = {hid: shape_of(h) for hid, h in hexes.items()}
    ids = set(hexes)
    nbrs = {hid: geometry.neighbors(hid, ids, layout) for hid in hexes}
    usable = {hid: usable_mask(hid, hexes, hex_shapes, nbrs[hid]) for hid in hexes}
    shapes = _manifest_shapes(title)
    upgrades = tile_upgrades(shapes)
    upgrades.update(hex_upgrades(hexes, hex_shapes, usable, shapes))
    doc: dict[str, Any] = {
        "format": FORMAT,
        "id": t.id,
        "name": t.name,
        "version": t.version,
        "hash": title.source_hash,
        "designers": list(t.designers),
        "players": t.players.model_dump(mode="json"),
        "bank": t.bank,
        "starting_cash": dict(t.starting_cash),
        "certificate_limit": dict(t.certificate_limit),
        "options": [o.model_dump(mode="json") for o in t.options],
        "rules": t.rules.model_dump(mode="json"),
        "layout": layout,
        "hexes": {
            hid: _hex_record(hid, h, title, nbrs[hid], usable[hid], layout)
            for hid, h in hexes.items()
        },
        "tiles": {
            tid: _tile_record(title, tid, count)
            for tid, count in title.tiles.manifest.items()
            if tid in title.tile_defs
        },
        "first_tiles": first_tiles(hexes, usable, shapes),
        "upgrades": upgrades,
        "trains": [_train_record(tr) for tr in title.trains.trains],
        "phases": [p.model_dump(mode="json") for p in title.phases.phases],
        "privates": [p.model_dump(mode="json", by_alias=True) for p in title.privates.privates],
        "corporations": _corporations(title),
        "market": compile_market(title.market),
    }
    doc.update(compile_extensions(title))
    return doc


# ---------------------------------------------------------------------------------------
# extensions (1833NE): sections written only when the title has them


def compile_extensions(title: Title) -> dict[str, Any]:
    """Optional sections: bonuses, ferries, certificate limit by corporations in play."""
    out: dict[str, Any] = {}
    if title.map.bonuses:
        out["bonuses"] = [b.model_dump(mode="json") for b in title.map.bonuses]
    if title.map.ferries is not None:
        out["ferries"] = title.map.ferries.model_dump(mode="json")
    by_corps = title.title.certificate_limit_by_corporations
    if by_corps is not None:
        out["certificate_limit_by_corporations"] = {k: dict(v) for k, v in by_corps.items()}
    if title.title.import_18xx is not None:
        out["import_18xx"] = title.title.import_18xx.model_dump(mode="json")
    return out


# ---------------------------------------------------------------------------------------
# outputs


def to_json(compiled: dict[str, Any]) -> str:
    """The JSON text: sorted keys, two-space indent, final newline (byte-stable)."""
    return json.dumps(compiled, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def output_texts(compiled: dict[str, Any]) -> dict[str, str]:
    """File name -> text of every output of a compiled title."""
    tid = compiled["id"]
    return {f"{tid}.json": to_json(compiled), f"{tid}.md": render_markdown(compiled)}


def write_outputs(compiled: dict[str, Any], out_dir: Path) -> list[Path]:
    """Write ``<id>.json`` and ``<id>.md`` into ``out_dir``; return both paths.

    A file whose bytes would not change is left untouched, so re-runs are no-ops.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, text in output_texts(compiled).items():
        path = out_dir / name
        data = text.encode("utf-8")
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
        paths.append(path)
    return paths


def stale_outputs(compiled: dict[str, Any], out_dir: Path) -> list[str]:
    """Paths (as strings) of outputs in ``out_dir`` that are missing or differ."""
    stale = []
    for name, text in output_texts(compiled).items():
        path = out_dir / name
        if not path.exists() or path.read_bytes() != text.encode("utf-8"):
            stale.append(str(path))
    return stale
