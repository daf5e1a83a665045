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

The merging itself, and its provenance, is :mod:`eighteen.title.merge`; this module reads
a folder and its bases as layers and locates problems on the merged data.

Codes: E180 unknown base title, E181 ``extends`` cycle (E182 and E183, the ``remove``
table's, are the merge's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from eighteen.locations import find_title_dir
from eighteen.title.load import LoadedFile, load_toml
from eighteen.title.merge import Prov, merge_file, position
from eighteen.title.model import FILE_MODELS
from eighteen.title.positions import KeyPath, PositionIndex
from eighteen.title.problems import Problem, Severity, did_you_mean, path_str
from eighteen.title.sources import Sources, build_file, display_path, load_libraries
from eighteen.title.validation import schema_comment_problems

if TYPE_CHECKING:
    from eighteen.title.model import Strict

#: Display name of the merged data handed to schema validation (never shown to users).
_MERGED = "<merged>"
_EXTENDS_LINE = re.compile(r"^[ \t]*extends[ \t]*=", re.M)


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
        hint = did_you_mean(base_id, sorted(known))
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
