"""Overlays: a title that ``extends`` another and writes down only what differs.

``extends = "1830"`` in a title's ``title.toml`` makes its folder an overlay of
``titles/1830/``.  Merging happens on the parsed data of each file kind, before schema
validation, so the merged title is checked and compiled exactly like a plain one:

* a file missing from the overlay folder is inherited whole;
* tables merge by key, recursively; a scalar or a plain array in the overlay replaces the
  base's value;
* a top-level array of tables (``[[trains]]``, ``[[phases]]``, ``[[privates]]``,
  ``[[corporations]]``, ``[[tiles]]``, ``[[options]]``...) merges by ``id``: an overlay entry
  whose id the base has merges into that entry (key by key, as a table), any other entry is
  added at the end; ``[[hexes]]`` merges the same way by coordinate (``at``);
* ``[remove]`` names what to drop from the base before merging, by top-level key:
  ``[remove] corporations = ["B&O"]`` drops entries by id (hex coordinates for ``hexes``),
  ``[remove] manifest = ["69"]`` drops keys of a table.

Every part of the merged data remembers where it came from (:class:`Prov`), so a problem
found on the merged title points into the file that holds the value.  A value that comes
from the base is reported at the overlay's nearest enclosing entry (or its ``extends``
line) with a note naming the base file and line.  docs/variants.md is the author's guide.

Codes: E180 unknown base title, E181 ``extends`` cycle, E182 ``remove`` names something the
base does not have, E183 malformed ``remove`` table.
"""

from __future__ import annotations

import copy
import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from eighteen.locations import find_title_dir
from eighteen.title.load import LoadedFile, load_toml
from eighteen.title.model import FILE_MODELS
from eighteen.title.positions import KeyPath, PositionIndex
from eighteen.title.problems import Problem, Severity, path_str
from eighteen.title.sources import Sources, build_file, display_path, load_libraries
from eighteen.title.validation import schema_comment_problems

if TYPE_CHECKING:
    from eighteen.title.model import Strict

#: The overlay directive table: top-level key -> ids (or table keys) to drop from the base.
REMOVE = "remove"
#: Key naming an entry of a top-level array of tables, by array name; others use ``id``.
ENTRY_KEYS: dict[str, str] = {"hexes": "at"}
#: Display name of the merged data handed to schema validation (never shown to users).
_MERGED = "<merged>"
_EXTENDS_LINE = re.compile(r"^[ \t]*extends[ \t]*=", re.M)


# ---------------------------------------------------------------------------------------
# provenance


@dataclass
class Prov:
    """Where a merged value came from: a file and the key path of the value in it.

    ``kids`` holds the children that came from somewhere else than ``path + (key,)`` of
    the same file; any other child is found by extending ``path``.  ``collection`` marks a
    file's root and its arrays of entries: a problem in an entry the overlay did not touch
    is not reported there (it would point at an unrelated entry).
    """

    file: LoadedFile
    path: KeyPath = ()
    kids: dict[str | int, Prov] = field(default_factory=dict)
    collection: bool = False

    def child(self, key: str | int) -> Prov:
        """Provenance of the value at ``key`` below this one."""
        found = self.kids.get(key)
        return found if found is not None else Prov(self.file, (*self.path, key))

    def trail(self, path: KeyPath) -> list[Prov]:
        """Provenance of every prefix of ``path``: this node first, the value itself last."""
        out = [self]
        node = self
        for key in path:
            node = node.child(key)
            out.append(node)
        return out


def position(file: LoadedFile, path: KeyPath, key: bool = False) -> tuple[int, int]:
    """Line and column of the key (or the value) at ``path`` in ``file``."""
    return file.index.key(path) if key else file.index.value(path)


# ---------------------------------------------------------------------------------------
# merging


def _entry_id(entry: Any, id_key: str) -> str | None:
    """The id of an array-of-tables entry, or None when it has no usable one."""
    if isinstance(entry, dict) and isinstance(entry.get(id_key), str):
        return str(entry[id_key])
    return None


def _coords(entry: Any) -> list[str] | None:
    """The coordinates of a ``[[hexes]]`` entry, or None when ``at`` is unusable."""
    at = entry.get("at") if isinstance(entry, dict) else None
    if isinstance(at, str):
        return [at]
    if isinstance(at, list) and at and all(isinstance(x, str) for x in at):
        return list(at)
    return None


def merge_value(base: Any, bp: Prov, over: Any, op: Prov) -> tuple[Any, Prov]:
    """Merge two values: tables merge by key, anything else is replaced by the overlay."""
    if isinstance(base, dict) and isinstance(over, dict):
        return merge_table(base, bp, over, op)
    return copy.deepcopy(over), op


def merge_table(
    base: dict[str, Any], bp: Prov, over: dict[str, Any], op: Prov
) -> tuple[dict[str, Any], Prov]:
    """Merge tables key by key: base keys first (in base order), then new overlay keys."""
    out: dict[str, Any] = {}
    node = Prov(op.file, op.path)
    for k, v in base.items():
        if k in over:
            out[k], node.kids[k] = merge_value(v, bp.child(k), over[k], op.child(k))
        else:
            out[k], node.kids[k] = copy.deepcopy(v), bp.child(k)
    for k, v in over.items():
        if k not in base:
            out[k], node.kids[k] = copy.deepcopy(v), op.child(k)
    return out, node


def merge_entries(
    base: list[Any], bp: Prov, over: list[Any], op: Prov, id_key: str, removed: set[str]
) -> tuple[list[Any], Prov]:
    """Merge arrays of tables by id: merge matching entries in place, append new ones."""
    first: dict[str, int] = {}
    for i, e in enumerate(base):
        eid = _entry_id(e, id_key)
        if eid is not None and eid not in removed:
            first.setdefault(eid, i)
    matched: dict[int, int] = {}  # base index -> overlay index
    for j, e in enumerate(over):
        eid = _entry_id(e, id_key)
        if eid is not None and eid in first and first[eid] not in matched:
            matched[first[eid]] = j
    out: list[Any] = []
    node = Prov(op.file, op.path, collection=True)
    for i, e in enumerate(base):
        if _entry_id(e, id_key) in removed:
            continue
        if i in matched:
            j = matched[i]
            value, prov = merge_value(e, bp.child(i), over[j], op.child(j))
        else:
            value, prov = copy.deepcopy(e), bp.child(i)
        node.kids[len(out)] = prov
        out.append(value)
    used = set(matched.values())
    for j, e in enumerate(over):
        if j not in used:
            node.kids[len(out)] = op.child(j)
            out.append(copy.deepcopy(e))
    return out, node


def _with_coords(
    entry: dict[str, Any], prov: Prov, coords: list[tuple[str, int]], as_list: bool, at_prov: Prov
) -> tuple[dict[str, Any], Prov]:
    """A copy of a hex entry holding only ``coords`` (coordinate, index in ``at_prov``)."""
    out = dict(entry)
    if as_list:
        out["at"] = [c for c, _ in coords]
        prov.kids["at"] = Prov(
            at_prov.file, at_prov.path, {m: at_prov.child(k) for m, (_, k) in enumerate(coords)}
        )
    else:
        out["at"] = coords[0][0]
        prov.kids["at"] = at_prov
    return out, prov


def merge_hexes(
    base: list[Any], bp: Prov, over: list[Any], op: Prov, removed: set[str]
) -> tuple[list[Any], Prov]:
    """Merge ``[[hexes]]`` by coordinate.

    An overlay entry merges into the base entry of each coordinate it names (a base entry
    covering several coordinates is split); coordinates the base lacks form a new entry
    at the end.  Removed coordinates leave their base entries.
    """
    owner: dict[str, int] = {}
    for i, e in enumerate(base):
        for c in _coords(e) or []:
            owner.setdefault(c, i)
    claimed: set[str] = set()
    # base index -> [(overlay index, [(coord, index in the overlay's at)])]
    merged_into: dict[int, list[tuple[int, list[tuple[str, int]]]]] = {}
    fresh: list[tuple[int, list[tuple[str, int]] | None]] = []
    for j, e in enumerate(over):
        coords = _coords(e)
        if coords is None:
            fresh.append((j, None))
            continue
        groups: dict[int | None, list[tuple[str, int]]] = {}
        for k, c in enumerate(coords):
            at = owner.get(c) if c not in claimed and c not in removed else None
            groups.setdefault(at, []).append((c, k))
            if at is not None:
                claimed.add(c)
        for at, group in groups.items():
            if at is None:
                fresh.append((j, group))
            else:
                merged_into.setdefault(at, []).append((j, group))
    out: list[Any] = []
    node = Prov(op.file, op.path, collection=True)
    for i, e in enumerate(base):
        coords = _coords(e)
        bpi = bp.child(i)
        if coords is None:
            node.kids[len(out)] = bpi
            out.append(copy.deepcopy(e))
            continue
        kept = [(c, k) for k, c in enumerate(coords) if c not in removed and c not in claimed]
        if kept:
            if isinstance(e.get("at"), str):
                node.kids[len(out)] = bpi
                out.append(copy.deepcopy(e))
            else:
                value, prov = _with_coords(
                    copy.deepcopy(e),
                    Prov(bpi.file, bpi.path, dict(bpi.kids)),
                    kept,
                    True,
                    bpi.child("at"),
                )
                node.kids[len(out)] = prov
                out.append(value)
        for j, group in merged_into.get(i, []):
            value, prov = merge_value(e, bpi, over[j], op.child(j))
            value, prov = _with_coords(
                value, prov, group, not isinstance(over[j]["at"], str), op.child(j).child("at")
            )
            node.kids[len(out)] = prov
            out.append(value)
    for j, maybe_group in fresh:
        opj = op.child(j)
        if maybe_group is None or len(maybe_group) == len(_coords(over[j]) or []):
            node.kids[len(out)] = opj
            out.append(copy.deepcopy(over[j]))
            continue
        value, prov = _with_coords(
            copy.deepcopy(over[j]), Prov(opj.file, opj.path), maybe_group, True, opj.child("at")
        )
        node.kids[len(out)] = prov
        out.append(value)
    return out, node


def merge_file(
    base: dict[str, Any], bp: Prov, over: dict[str, Any], op: Prov, problems: list[Problem]
) -> tuple[dict[str, Any], Prov]:
    """Merge one overlay file onto its base: apply ``[remove]``, then merge every key."""
    over = dict(over)
    removals = _removals(base, over.pop(REMOVE, None), op.file, problems)
    out: dict[str, Any] = {}
    node = Prov(op.file, op.path, collection=True)

    def take(k: str, b: Any) -> tuple[Any, Prov]:
        gone = removals.get(k, set())
        bk = bp.child(k)
        if isinstance(b, dict) and gone:
            b = {x: y for x, y in b.items() if x not in gone}
        o, ok = (over[k], op.child(k)) if k in over else ([], bk)
        if _is_entries(b) and _is_entries(o) and (k in over or gone):
            if k in ENTRY_KEYS:
                return merge_hexes(b, bk, o, ok, gone)
            return merge_entries(b, bk, o, ok, "id", gone)
        if k not in over:
            return copy.deepcopy(b), bk
        return merge_value(b, bk, over[k], ok)

    for k, b in base.items():
        out[k], node.kids[k] = take(k, b)
    for k, v in over.items():
        if k not in base:
            out[k], node.kids[k] = copy.deepcopy(v), op.child(k)
    return out, node


def _is_entries(value: Any) -> bool:
    """Whether a value is an array of tables (possibly empty)."""
    return isinstance(value, list) and all(isinstance(x, dict) for x in value)


def _removals(
    base: dict[str, Any], table: Any, file: LoadedFile, problems: list[Problem]
) -> dict[str, set[str]]:
    """Read a ``[remove]`` table: top-level key -> names to drop; report what is wrong."""
    if table is None:
        return {}

    def report(path: KeyPath, code: str, message: str, key: bool = False) -> None:
        line, col = position(file, path, key)
        problems.append(Problem(file.display, line, col, code, message, path_str(path)))

    if not isinstance(table, dict):
        report((REMOVE,), "E183", "'remove' must be a table: [remove] <key> = [names...]")
        return {}
    out: dict[str, set[str]] = {}
    for k, names in table.items():
        where = (REMOVE, k)
        target = base.get(k)
        if k not in base:
            hint = _hint(k, [x for x in base if isinstance(base[x], dict | list)])
            report(where, "E182", f"the base has no '{k}' to remove from{hint}", key=True)
            continue
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            report(where, "E183", 'expected an array of names, e.g. ["B&O"]')
            continue
        if isinstance(target, dict):
            have = list(target)
        elif _is_entries(target):
            have = []
            for e in target or []:
                if k in ENTRY_KEYS:
                    have.extend(_coords(e) or [])
                elif _entry_id(e, "id") is not None:
                    have.append(str(e["id"]))
        else:
            report(
                where,
                "E183",
                f"'{k}' is not a table or an array of tables: give its new value instead",
                key=True,
            )
            continue
        for n, name in enumerate(names):
            if name not in have:
                what = "hex" if k == "hexes" else "entry"
                hint = _hint(name, have)
                report((*where, n), "E182", f"the base has no {what} '{name}' in '{k}'{hint}")
        out[k] = set(names)
    return out


def _hint(word: str, choices: list[str]) -> str:
    """A "; did you mean ..." suffix when a choice is close to ``word``."""
    match = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f"; did you mean '{match[0]}'?" if match else ""


# ---------------------------------------------------------------------------------------
# layers: a title folder and its bases


def extends_of(title_dir: Path) -> str | None:
    """The ``extends`` value of a folder's title.toml ("" when unreadable but present)."""
    path = Path(title_dir) / "title.toml"
    loaded = load_toml(path)  # within the reader's limits (size, depth, key parts)
    data = loaded.data
    if data is None:
        if any(p.code in ("E002", "E003") for p in loaded.problems):
            return None
        return "" if _EXTENDS_LINE.search(loaded.raw.decode("utf-8", "replace")) else None
    value = data.get("extends")
    if value is None:
        return None
    return value if isinstance(value, str) else ""


@dataclass
class Layer:
    """A title folder read with its bases: merged data and provenance per file kind."""

    dir: Path
    own: dict[str, LoadedFile] = field(default_factory=dict)
    data: dict[str, dict[str, Any] | None] = field(default_factory=dict[str, Any])
    prov: dict[str, Prov] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    bases: list[tuple[str, LoadedFile]] = field(default_factory=list)


def load_layer(title_dir: Path, chain: tuple[Path, ...] = ()) -> Layer:
    """Read a title folder; for an overlay, read its bases and merge; never raises."""
    title_dir = Path(title_dir)
    layer = Layer(title_dir)
    title = load_toml(title_dir / "title.toml", display_path(title_dir / "title.toml"))
    layer.own["title"] = title
    layer.problems.extend(title.problems)
    base_id = title.data.get("extends") if title.data is not None else None
    if title.data is None and extends_of(title_dir) is None:
        base_id = None  # an unreadable plain title: read the rest as a plain title
    elif title.data is None:
        return layer  # an unreadable overlay: nothing to merge onto
    if base_id is None:
        for kind in FILE_MODELS:
            loaded = title if kind == "title" else _read(title_dir, kind)
            if kind != "title":
                layer.own[kind] = loaded
                layer.problems.extend(loaded.problems)
            layer.data[kind] = loaded.data
            layer.prov[kind] = Prov(loaded)
        return layer

    def at_extends(code: str, message: str) -> Layer:
        line, col = position(title, ("extends",))
        layer.problems.append(Problem(title.display, line, col, code, message, "extends"))
        return layer

    if not isinstance(base_id, str):
        return at_extends("E010", 'expected a title id (a string), e.g. extends = "1830"')
    base_dir = title_dir.parent / base_id
    if not (base_dir / "title.toml").is_file() and "/" not in base_id:
        base_dir = find_title_dir(base_id) or base_dir  # a base shipped with eighteen
    here = title_dir.resolve()
    if base_dir.resolve() in (*chain, here):
        names = " -> ".join([*(p.name for p in chain), here.name, base_id])
        return at_extends("E181", f"'extends' makes a cycle: {names}")
    if "/" in base_id or not (base_dir / "title.toml").is_file():
        known = [p.name for p in title_dir.parent.iterdir() if (p / "title.toml").is_file()]
        hint = _hint(base_id, sorted(known))
        return at_extends("E180", f"unknown base title '{base_id}' (no titles/{base_id}/){hint}")

    base = load_layer(base_dir, (*chain, here))
    layer.problems.extend(base.problems)
    layer.bases = [(f"{base_id}/{k}.toml", f) for k, f in base.own.items()]
    layer.bases += [(f"{base_id}/{name}", f) for name, f in base.bases]
    for kind in FILE_MODELS:
        path = title_dir / f"{kind}.toml"
        if kind != "title" and not path.exists():
            layer.data[kind] = base.data.get(kind)
            if kind in base.prov:
                layer.prov[kind] = base.prov[kind]
            continue
        loaded = title if kind == "title" else _read(title_dir, kind)
        if kind != "title":
            layer.own[kind] = loaded
            layer.problems.extend(loaded.problems)
        base_data = base.data.get(kind)
        if loaded.data is None or base_data is None or kind not in base.prov:
            layer.data[kind] = None
            layer.prov[kind] = Prov(loaded)
            continue
        data, prov = merge_file(
            base_data, base.prov[kind], loaded.data, Prov(loaded), layer.problems
        )
        layer.data[kind], layer.prov[kind] = data, prov
    return layer


def _read(title_dir: Path, kind: str) -> LoadedFile:
    """Load one file of a title folder."""
    path = title_dir / f"{kind}.toml"
    return load_toml(path, display_path(path))


# ---------------------------------------------------------------------------------------
# locating problems on merged data


@dataclass
class Overlay:
    """The merged files of an overlay title, able to place a problem in the right file."""

    layer: Layer

    @property
    def title_file(self) -> LoadedFile:
        """The overlay's own title.toml (it holds ``extends``)."""
        return self.layer.own["title"]

    def is_own(self, file: LoadedFile) -> bool:
        """Whether ``file`` is one of the overlay's own files (not a base's)."""
        return any(file is f for f in self.layer.own.values())

    def locate(
        self,
        kind: str,
        path: KeyPath,
        code: str,
        message: str,
        *,
        severity: Severity = Severity.error,
        key: bool = False,
    ) -> Problem:
        """A problem at ``path`` of the merged data of ``kind``.

        A value written in the overlay is reported where it is written.  A value from a
        base is reported at the overlay's nearest entry enclosing it (or at ``extends``
        when the overlay does not touch it), with the base file and line in a note.
        """
        where = path_str(path)
        root = self.layer.prov.get(kind)
        if root is None:
            line, col = position(self.title_file, ("extends",))
            return Problem(self.title_file.display, line, col, code, message, where, severity)
        trail = root.trail(path)
        last = trail[-1]
        line, col = position(last.file, last.path, key)
        if self.is_own(last.file):
            return Problem(last.file.display, line, col, code, message, where, severity)
        source = f"{last.file.display}:{line}:{col}"
        mine = [n for n in trail if self.is_own(n.file) and not n.collection]
        if mine:
            near = mine[-1]
            line, col = position(near.file, near.path)
            note = f"{message} (merged from {source})"
            return Problem(near.file.display, line, col, code, note, where, severity)
        line, col = position(self.title_file, ("extends",))
        note = f"{message} (inherited from {source})"
        return Problem(self.title_file.display, line, col, code, note, where, severity)


class _SpotIndex(PositionIndex):
    """A position index that numbers every look-up, so schema problems can be re-placed."""

    def __init__(self) -> None:
        super().__init__()
        self.spots: list[tuple[KeyPath, bool]] = []

    def key(self, path: KeyPath) -> tuple[int, int]:
        self.spots.append((tuple(path), True))
        return len(self.spots), 0

    def value(self, path: KeyPath) -> tuple[int, int]:
        self.spots.append((tuple(path), False))
        return len(self.spots), 0


def build_merged(
    kind: str, data: dict[str, Any], overlay: Overlay, sources: Sources
) -> tuple[Strict | None, list[Problem]]:
    """Schema-validate and build the merged data of one kind, problems placed by origin."""
    index = _SpotIndex()
    raw = f"#:schema ../../schema/{kind}.schema.json\n".encode()
    merged = LoadedFile(overlay.layer.dir / f"{kind}.toml", _MERGED, data, index, [], raw)
    model, found = build_file(kind, merged, sources, kind)
    out = []
    for p in found:
        if p.file == _MERGED and p.col == 0:
            spot_path, is_key = index.spots[p.line - 1]
            p = overlay.locate(kind, spot_path, p.code, p.message, severity=p.severity, key=is_key)
        out.append(p)
    return model, out


def load_overlay_sources(title_dir: Path) -> tuple[Sources, dict[str, Strict], list[Problem]]:
    """The overlay counterpart of ``pipeline.load_sources``: read, merge, build."""
    layer = load_layer(Path(title_dir))
    overlay = Overlay(layer)
    sources = Sources(files=dict(layer.own), overlay=overlay, bases=list(layer.bases))
    problems = list(layer.problems)
    models: dict[str, Strict] = {}
    for kind, loaded in layer.own.items():
        if loaded.data is not None:
            problems.extend(schema_comment_problems(kind, loaded, overlay=True))
    for kind in FILE_MODELS:
        data = layer.data.get(kind)
        if data is None:
            continue
        model, found = build_merged(kind, data, overlay, sources)
        problems.extend(found)
        if model is not None:
            models[kind] = model
    load_libraries(Path(title_dir), sources, models, problems)
    return sources, models, problems
