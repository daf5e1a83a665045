"""`eighteen new`, `fmt` and `diff`: commands for writing titles and their variants."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from eighteen.commands.output import emit_json, fail, say, write_atomic
from eighteen.commands.titles import _problem_doc, print_problems, repo_root
from eighteen.locations import known_titles, title_hint
from eighteen.title.problems import format_problems, sort_problems

_ID = re.compile(r"^[A-Za-z0-9&+_.-]{1,16}$")


# ---------------------------------------------------------------------------------------
# eighteen new


def _free_cell(map_data: dict[str, Any]) -> str | None:
    """A grid cell of the base's layout that holds no hex, for the "new hex" example."""
    from eighteen.title.geometry import hex_to_xy

    rows = map_data.get("rows") or []
    cols = map_data.get("columns") or []
    if len(cols) != 2 or not all(isinstance(c, int) for c in cols):
        return None
    taken: set[str] = set()
    for h in map_data.get("hexes", []):
        at = h.get("at") if isinstance(h, dict) else None
        taken.update([at] if isinstance(at, str) else at if isinstance(at, list) else [])
    layout = str(map_data.get("layout", "pointy"))
    for row in rows:
        for col in range(cols[0], cols[1] + 1):
            hid = f"{row}{col}"
            try:
                even = sum(hex_to_xy(hid, layout)) % 2 == 0
            except (ValueError, KeyError, IndexError):
                continue
            if even and hid not in taken:
                return hid
    return None


def _examples(data: dict[str, dict[str, Any] | None]) -> dict[str, Any]:
    """Ids of the base to show in the scaffold's commented examples."""
    trains = (data.get("trains") or {}).get("trains") or [{}]
    train = next((t for t in trains if isinstance(t.get("price"), int)), trains[0])
    map_data = data.get("map") or {}
    hexes = [h for h in map_data.get("hexes", []) if isinstance(h.get("at"), str)]
    named = [h for h in hexes if h.get("cities") and h.get("name")]
    city = next((h for h in named if h.get("cost")), named[0] if named else {})
    plain = next((h for h in hexes if set(h) == {"at"}), None)
    if plain is None:
        groups = [h["at"] for h in map_data.get("hexes", []) if set(h) == {"at"}]
        plain = {"at": next((g[-1] for g in groups if isinstance(g, list) and g), "")}
    privates = (data.get("privates") or {}).get("privates") or [{}]
    return {
        "train": str(train.get("id", "2")),
        "price": int(train.get("price", 100)),
        "hex": str(city.get("at", "A1")),
        "hex_name": str(city.get("name", "")),
        "cost": int(city.get("cost", 0)),
        "free": _free_cell(map_data) or "A1",
        "plain": str(plain.get("at") or ""),
        "private": str(privates[0].get("id", "P1")),
        "gone": str(privates[-1].get("id", "")) if len(privates) > 1 else "",
        "private_name": str(privates[0].get("name", "")),
        "revenue": int(privates[0].get("revenue", 5)),
    }


def scaffold(
    name: str,
    base: str,
    base_name: str,
    ex: dict[str, Any],
    schemas: str = "../../schema/overlay",
) -> dict[str, str]:
    """File name -> text of a new overlay of ``base`` that validates as it is; its
    ``#:schema`` lines point at the overlay schemas in ``schemas`` (a relative path)."""
    title = f"""#:schema {schemas}/title.schema.json
# {name}: a variant of {base_name}, written as an overlay of titles/{base}/
# (docs/variants.md). Only what differs from {base} is written here: every file missing from
# this folder is {base}'s, every table merges key by key, every entry merges by id.
extends = "{base}"
id = "{name}"
name = "{name}: a variant of {base_name}"
version = "0.1.0"

# Change one rule and keep the others:
# [rules]
# float_percent = 50
"""
    trains = f"""#:schema {schemas}/trains.schema.json
# Trains of {name}: only what differs from titles/{base}/trains.toml.
# An entry with an id {base} has changes only the keys written; an entry with a new id
# adds a train type at the end of the roster; [remove] drops train types by id (remove one
# and write it again in full to replace it whole or to move it to the end).
#
# Change the price of the {ex["train"]}-train:
# [[trains]]
# id = "{ex["train"]}"
# price = {ex["price"] + 20}  # {base}: {ex["price"]}
"""
    hex_note = f" ({ex['hex_name']})" if ex["hex_name"] else ""
    map_ = f"""#:schema {schemas}/map.schema.json
# Map of {name}: only what differs from titles/{base}/map.toml.
# A [[hexes]] entry merges into {base}'s hex at the same coordinate (only the keys written
# change); a coordinate {base} lacks adds a hex; [remove] drops hexes by coordinate.
#
# Make {ex["hex"]}{hex_note} cheaper to build on:
# [[hexes]]
# at = "{ex["hex"]}"
# cost = {max(ex["cost"] - 40, 0)}  # {base}: {ex["cost"]}
#
# Add a hex where {base} has none:
# [[hexes]]
# at = "{ex["free"]}"
# terrain = "mountain"
# cost = 120
"""
    if ex["plain"]:
        map_ += f"""#
# Take a plain hex off the board:
# [remove]
# hexes = ["{ex["plain"]}"]
"""
    private_note = f" ({ex['private_name']})" if ex["private_name"] else ""
    privates = f"""#:schema {schemas}/privates.schema.json
# Private companies of {name}: only what differs from titles/{base}/privates.toml.
# An entry with an id {base} has changes only the keys written (an `abilities` array, if
# written, replaces the whole list); a new id adds a private at the end of the auction order.
#
# Raise the revenue of {ex["private"]}{private_note}:
# [[privates]]
# id = "{ex["private"]}"
# revenue = {ex["revenue"] + 5}  # {base}: {ex["revenue"]}
"""
    if ex["gone"]:
        privates += f"""#
# Leave {ex["gone"]} out of the game:
# [remove]
# privates = ["{ex["gone"]}"]
"""
    return {
        "title.toml": title,
        "trains.toml": trains,
        "map.toml": map_,
        "privates.toml": privates,
    }


def cmd_new(name: str, base: str, titles: str | None = None, fmt: str = "text") -> int:
    """Create titles/NAME/ as an overlay of BASE that validates at once (exit 1 when the
    name is not usable, the base is unknown or the folder exists)."""
    from eighteen.locations import LIBRARY_DIRS, find_title_dir
    from eighteen.title.overlay import load_layer
    from eighteen.title.pipeline import load_title
    from eighteen.title.sources import display_path

    root = Path(titles) if titles else repo_root() / "titles"
    if not _ID.match(name) or name.startswith(".") or name in LIBRARY_DIRS:
        return fail(
            "new",
            f"'{name}' is not a usable title id: 1-16 letters, digits "
            "or & + _ . - (it is also the folder name)",
        )
    base_dir = root / base
    if not (base_dir / "title.toml").is_file():
        base_dir = find_title_dir(base) or base_dir
    if not (base_dir / "title.toml").is_file():
        known = ", ".join(known_titles()) or "none"
        return fail("new", f"no title '{base}'{title_hint(base)} (known titles: {known})")
    target = root / name
    if target.exists():
        return fail("new", f"{display_path(target)} already exists")
    if name in known_titles():  # (a new folder of that id would shadow it, or extend itself)
        where = find_title_dir(name)
        found = f" ({display_path(where)})" if where is not None else " (compiled tables)"
        return fail("new", f"'{name}' is already a title{found}: choose another id")
    layer = load_layer(base_dir)
    base_name = str((layer.data.get("title") or {}).get("name", base))
    files = scaffold(name, base, base_name, _examples(layer.data), _schema_prefix(target))
    try:
        target.mkdir(parents=True)
        for file_name, text in files.items():
            write_atomic(target / file_name, text)
    except OSError as exc:
        return fail("new", f"cannot write {display_path(target)}: {exc.strerror or exc}")
    written = [display_path(target / f) for f in files]
    _, problems = load_title(target)
    errors = sum(p.is_error for p in problems)
    shown = display_path(target)
    if fmt == "json":
        emit_json({"created": shown, "files": written, "base": base, **_problem_doc(problems)})
        return 1 if errors else 0
    for path in written:
        say(f"wrote {path}", stderr=True)
    print_problems(problems)
    if errors:
        return fail("new", f"created {shown}, but {base} itself has {errors} error(s)")
    say(
        f"created {shown}: an overlay of {base} that validates. Edit its files (see the "
        f"comments), then `eighteen validate {shown}` and `eighteen compile {shown}`.",
        stderr=True,
    )
    return 0


def _schema_prefix(target: Path) -> str:
    """The path from a new title folder to the overlay schemas (for ``#:schema`` lines)."""
    import os

    from eighteen.locations import schema_dir

    beside = target.resolve().parent.parent / "schema"  # <project>/titles/NAME -> schema/
    schemas = beside if beside.is_dir() else schema_dir()
    if schemas is None:
        return "../../schema/overlay"
    return Path(os.path.relpath(schemas / "overlay", target.resolve())).as_posix()


# ---------------------------------------------------------------------------------------
# eighteen fmt


def cmd_fmt(paths: list[str], *, check: bool = False, fmt: str = "text") -> int:
    """Format title files in place; with check, list the files that would change."""
    from eighteen.commands.titles import nothing_to_work_on
    from eighteen.locations import find_title_dir, project_root
    from eighteen.title.fmt import FormatError, format_file, toml_files
    from eighteen.title.problems import Problem
    from eighteen.title.sources import display_path

    # a path, or a title id found where `eighteen titles` finds it
    targets = [p if p.exists() else find_title_dir(str(p)) or p for p in map(Path, paths)]
    if not targets and project_root() is None:
        return nothing_to_work_on("fmt")
    targets = targets or [repo_root() / "titles"]
    errors: list[Problem] = []
    for p in targets:
        if not p.exists():
            message = f"no such file, folder or title{title_hint(str(p))}"
            errors.append(Problem(display_path(p), 1, 1, "E002", message))
    files = toml_files([p for p in targets if p.exists()])
    changed: list[str] = []
    for f in files:
        try:
            if format_file(f, check=check):
                changed.append(display_path(f))
        except FormatError as exc:
            errors.append(Problem(display_path(f), exc.line, exc.col, exc.code, exc.message))
        except OSError as exc:
            errors.append(Problem(display_path(f), 1, 1, "E002", f"cannot read: {exc.strerror}"))
    failed = bool(errors) or (check and bool(changed))
    if fmt == "json":
        doc = [e.to_dict() for e in errors]
        emit_json({"files": len(files), "changed": changed, "check": check, "errors": doc})
        return 1 if failed else 0
    for e in errors:  # (as `validate` writes a problem: file:line:col)
        print(e.format(), file=sys.stderr)
    for name in changed:
        print(f"would reformat {name}" if check else f"formatted {name}")
    verb = "would reformat" if check else "reformatted"
    print(f"fmt: {len(files)} file(s), {verb} {len(changed)}", file=sys.stderr)
    if check and changed:
        print("run `eighteen fmt` to format them", file=sys.stderr)
    return 1 if failed else 0


# ---------------------------------------------------------------------------------------
# eighteen diff


def cmd_diff(a: str, b: str, fmt: str = "text") -> int:
    """Print the semantic difference of two titles (ids, folders or compiled JSON)."""
    from eighteen.title.diff import diff_compiled, format_diff, load_compiled

    root = repo_root()
    left, problems = load_compiled(a, root)
    right, more = load_compiled(b, root)
    problems = sort_problems(problems + more)
    if left is None or right is None:
        print(format_problems(problems))
        print("diff: cannot compare titles with errors (see above)", file=sys.stderr)
        return 1
    diff = diff_compiled(left, right)
    if fmt == "json":
        print(json.dumps(diff, indent=2, ensure_ascii=False))
    else:
        print(format_diff(diff))
    return 0
