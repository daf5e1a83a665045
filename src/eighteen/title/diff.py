"""Semantic differences between two titles, from their compiled tables.

``eighteen diff A B`` compares what the engine would see: identity, options, rules,
trains, phases, hexes (printed content, homes and blockers; geometry follows from the
coordinates), tiles and their counts, the market, privates, corporations, bonuses, ferries
and the 18xx.games import's settings.  Derived tables (first tiles, upgrade rotations,
neighbours) are not compared: they follow from the ones that are.  A top-level table this
module does not know is compared whole (section ``other``), so nothing differs unseen.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from eighteen.compiled import CompiledTitle
from eighteen.locations import find_title_dir, title_hint
from eighteen.title.compile import compile_title
from eighteen.title.pipeline import load_title
from eighteen.title.problems import Problem
from eighteen.title.sources import display_path

#: Keys of a compiled hex record that describe the board as printed (the rest is derived).
HEX_KEYS = (
    "name",
    "color",
    "terrain",
    "cost",
    "label",
    "cities",
    "towns",
    "track",
    "offboard",
    "borders",
    "homes",
    "blocked_by",
)
#: Keys of a compiled tile record compared (exits and orientations follow from them).
TILE_KEYS = ("color", "count", "label", "cities", "towns", "track")
#: Top-level identity fields compared, in the order shown.
IDENTITY_KEYS = (
    "id",
    "name",
    "version",
    "designers",
    "players",
    "bank",
    "starting_cash",
    "certificate_limit",
    "certificate_limit_by_corporations",
    "layout",
)
#: Top-level keys not compared: the compiled format's own and the derived tables.
DERIVED_KEYS = ("format", "hash", "first_tiles", "upgrades")
#: Sections of a diff, in the order shown.
SECTIONS = (
    "title",
    "options",
    "rules",
    "trains",
    "phases",
    "hexes",
    "tiles",
    "market",
    "privates",
    "corporations",
    "bonuses",
    "ferries",
    "import_18xx",
    "other",
)


# ---------------------------------------------------------------------------------------
# loading


def load_compiled(
    ref: str, root: Path | None = None
) -> tuple[dict[str, Any] | None, list[Problem]]:
    """Compiled tables of ``ref``: a compiled .json file, a title folder, or a title id.

    A folder or id is loaded from its TOML and compiled in memory (generated/ is not
    read), so the diff reflects the sources as they are now.
    """
    p = Path(ref)
    if p.suffix == ".json" and p.is_file():
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            return None, [Problem(display_path(p), 1, 1, "E002", f"cannot read: {exc}")]
        try:  # (a save, an export or any other JSON is no compiled title)
            CompiledTitle.model_validate(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(x) for x in err["loc"]) or "the document"
            message = f"not a compiled title: {where}: {err['msg']}"
            return None, [Problem(display_path(p), 1, 1, "E002", message)]
        return data, []
    if not p.is_dir() and root is not None and (root / "titles" / ref).is_dir():
        p = root / "titles" / ref
    if not p.is_dir():  # an id: the project's, the checkout's or the installed package's
        p = find_title_dir(ref) or p
    if not p.is_dir():
        message = f"no such title folder or file{title_hint(ref)}"
        return None, [Problem(display_path(p), 1, 1, "E002", message)]
    title, problems = load_title(p)
    errors = [x for x in problems if x.is_error]
    if title is None or errors:
        return None, errors
    return compile_title(title), []


# ---------------------------------------------------------------------------------------
# comparing


def _changes(a: Mapping[str, Any], b: Mapping[str, Any], keys: Any = None) -> dict[str, list[Any]]:
    """Field -> [old, new] for every field that differs (``keys`` limits the fields)."""
    names = list(keys) if keys is not None else list(dict.fromkeys([*a, *b]))
    return {k: [a.get(k), b.get(k)] for k in names if a.get(k) != b.get(k)}


def _keyed(
    a: Mapping[str, Mapping[str, Any]],
    b: Mapping[str, Mapping[str, Any]],
    keys: Any = None,
) -> dict[str, Any]:
    """Added, removed and changed records of two id -> record tables, plus order change."""
    out: dict[str, Any] = {
        "added": {k: _pick(v, keys) for k, v in b.items() if k not in a},
        "removed": {k: _pick(v, keys) for k, v in a.items() if k not in b},
        "changed": {},
    }
    for k in a:
        if k in b:
            changes = _changes(a[k], b[k], keys)
            if changes:
                out["changed"][k] = changes
    common_a = [k for k in a if k in b]
    common_b = [k for k in b if k in a]
    if common_a != common_b:
        out["order"] = [list(a), list(b)]
    return {k: v for k, v in out.items() if v}


def _pick(record: Mapping[str, Any], keys: Any) -> dict[str, Any]:
    """The compared fields of a record."""
    return dict(record) if keys is None else {k: record.get(k) for k in keys}


def _by_id(records: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """A list of records with ids as an ordered id -> record table."""
    return {str(r["id"]): r for r in records}


def _cells(market: Mapping[str, Any]) -> dict[str, str]:
    """Market cells as "row,col" -> text like "100p" (par cells), for comparing."""
    out = {}
    for r, row in enumerate(market.get("cells", [])):
        for c, cell in enumerate(row):
            if cell is not None:
                out[f"{r},{c}"] = f"{cell['price']}{''.join(cell['zones'])}"
    return out


def diff_compiled(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, Any]:
    """The semantic diff of two compiled titles (JSON-ready; empty sections left out)."""
    sections: dict[str, Any] = {
        "title": _changes(a, b, IDENTITY_KEYS),
        "options": _keyed(_by_id(a.get("options", [])), _by_id(b.get("options", []))),
        "rules": _changes(a.get("rules", {}), b.get("rules", {})),
        "trains": _keyed(_by_id(a["trains"]), _by_id(b["trains"])),
        "phases": _keyed(_by_id(a["phases"]), _by_id(b["phases"])),
        "hexes": _keyed(a["hexes"], b["hexes"], HEX_KEYS),
        "tiles": _keyed(a["tiles"], b["tiles"], TILE_KEYS),
        "market": _market(a["market"], b["market"]),
        "privates": _keyed(_by_id(a["privates"]), _by_id(b["privates"])),
        "corporations": _keyed(_by_id(a["corporations"]), _by_id(b["corporations"])),
        "bonuses": _keyed(_by_id(a.get("bonuses") or []), _by_id(b.get("bonuses") or [])),
        "ferries": _changes(a.get("ferries") or {}, b.get("ferries") or {}),
        "import_18xx": _changes(a.get("import_18xx") or {}, b.get("import_18xx") or {}),
    }
    known = {*IDENTITY_KEYS, *DERIVED_KEYS, *sections}
    others = [k for k in dict.fromkeys([*a, *b]) if k not in known]
    sections["other"] = _changes(a, b, others)
    for unordered in ("hexes", "tiles"):  # JSON objects: their order carries no meaning
        sections[unordered].pop("order", None)
    sections = {k: v for k, v in sections.items() if v}
    return {
        "a": {k: a.get(k) for k in ("id", "version", "hash")},
        "b": {k: b.get(k) for k in ("id", "version", "hash")},
        "same": not sections,
        "sections": sections,
    }


def _market(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, Any]:
    """Market differences: type, zones, cells by position, par cells."""
    out: dict[str, Any] = {}
    if a.get("type") != b.get("type"):
        out["type"] = [a.get("type"), b.get("type")]
    zones = _keyed(a.get("zones", {}), b.get("zones", {}))
    zones.pop("order", None)
    if zones:
        out["zones"] = zones
    cells = _keyed(
        {k: {"cell": v} for k, v in _cells(a).items()},
        {k: {"cell": v} for k, v in _cells(b).items()},
    )
    cells.pop("order", None)
    if cells:
        out["cells"] = {
            "added": {k: v["cell"] for k, v in cells.get("added", {}).items()},
            "removed": {k: v["cell"] for k, v in cells.get("removed", {}).items()},
            "changed": {k: v["cell"] for k, v in cells.get("changed", {}).items()},
        }
        out["cells"] = {k: v for k, v in out["cells"].items() if v}
    if a.get("par") != b.get("par"):
        out["par"] = [a.get("par"), b.get("par")]
    return out


# ---------------------------------------------------------------------------------------
# text


def _show(value: Any) -> str:
    """A value in compact JSON (strings quoted, null for nothing)."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _summary(section: str, record: Mapping[str, Any]) -> str:
    """A one-line description of an added or removed record."""
    fields: dict[str, tuple[str, ...]] = {
        "trains": ("distance", "price", "count"),
        "phases": ("on", "tiles", "train_limit", "operating_rounds"),
        "hexes": ("name", "color", "terrain", "cost", "cities", "towns", "offboard"),
        "tiles": ("color", "count", "label"),
        "privates": ("name", "value", "revenue"),
        "corporations": ("name", "home", "variable_home", "available_from", "min_par", "tokens"),
        "options": ("description",),
        "bonuses": ("kind", "values"),
        "zones": ("name",),
    }
    keys = fields.get(section, tuple(record))
    parts = [
        f"{k} {_show(record.get(k))}"
        for k in keys
        if record.get(k) not in (None, [], {}, 0, "") or k in ("count", "price")
    ]
    return ", ".join(parts)


def _change_text(changes: Mapping[str, list[Any]]) -> str:
    """``price 300 -> 350; count 4 -> 5``."""
    return "; ".join(f"{k} {_show(old)} -> {_show(new)}" for k, (old, new) in changes.items())


def _keyed_lines(section: str, part: Mapping[str, Any], indent: str = "  ") -> list[str]:
    """Text lines for the added/removed/changed records of one section."""
    lines = [f"{indent}+ {k}: {_summary(section, v)}" for k, v in part.get("added", {}).items()]
    lines += [f"{indent}- {k}: {_summary(section, v)}" for k, v in part.get("removed", {}).items()]
    lines += [f"{indent}~ {k}: {_change_text(v)}" for k, v in part.get("changed", {}).items()]
    if "order" in part:
        old, new = part["order"]
        lines.append(f"{indent}order: {' '.join(old)} -> {' '.join(new)}")
    return lines


def short_hash(value: Any) -> str:
    """A hash shortened for reading: sha256:0123456789ab."""
    text = str(value or "")
    return text[:19] if text.startswith("sha256:") else text


def format_diff(diff: Mapping[str, Any]) -> str:
    """The diff as readable text, one section per heading."""
    a, b = diff["a"], diff["b"]
    lines = [
        f"{a['id']} {a['version']} ({short_hash(a['hash'])}) -> "
        f"{b['id']} {b['version']} ({short_hash(b['hash'])})"
    ]
    if diff["same"]:
        lines.append("no differences in the compiled tables")
        return "\n".join(lines)
    render: dict[str, Callable[[Any], list[str]]] = {
        "title": _value_lines,
        "rules": _value_lines,
        "ferries": _value_lines,
        "import_18xx": _value_lines,
        "other": _value_lines,
        "market": _market_lines,
    }
    for name in SECTIONS:
        part = diff["sections"].get(name)
        if not part:
            continue
        lines.append(name)
        lines.extend(render.get(name, lambda p, n=name: _keyed_lines(n, p))(part))
    return "\n".join(lines)


def _value_lines(part: Mapping[str, list[Any]]) -> list[str]:
    """Text lines of a section of field -> [old, new]; two tables are compared key by key
    (``certificate_limit_by_corporations.3.5: 14 -> 15``)."""
    lines = []
    for k, (old, new) in part.items():
        if isinstance(old, dict) and isinstance(new, dict):
            lines += _value_lines({f"{k}.{n}": v for n, v in _changes(old, new).items()})
        else:
            lines.append(f"  {k}: {_show(old)} -> {_show(new)}")
    return lines


def _market_lines(part: Mapping[str, Any]) -> list[str]:
    """Text lines of the market section."""
    lines = []
    if "type" in part:
        lines.append(f"  type: {_show(part['type'][0])} -> {_show(part['type'][1])}")
    if "zones" in part:
        lines.append("  zones:")
        lines.extend(_keyed_lines("zones", part["zones"], "    "))
    cells = part.get("cells", {})
    for k, v in cells.get("added", {}).items():
        lines.append(f"  + cell {k}: {v}")
    for k, v in cells.get("removed", {}).items():
        lines.append(f"  - cell {k}: {v}")
    for k, (old, new) in cells.get("changed", {}).items():
        lines.append(f"  ~ cell {k}: {old} -> {new}")
    if "par" in part:
        lines.append(f"  par cells: {_show(part['par'][0])} -> {_show(part['par'][1])}")
    return lines
