"""The title pipeline: folder -> loaded files -> schema -> models -> checks.

``load_title`` never raises on bad input: every problem comes back located, and a ``Title``
is returned only when every file built a model from its own data, not mended (checks may
still report errors on it).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from eighteen.locations import LIBRARY_DIRS, title_hint
from eighteen.title.aggregate import Missing, MissingPart, Title
from eighteen.title.checks import run_checks
from eighteen.title.load import load_toml
from eighteen.title.model import FILE_MODELS, Strict, Tile, TilesFile
from eighteen.title.overlay import extends_of, load_overlay_sources
from eighteen.title.problems import Problem
from eighteen.title.sources import Sources, build_file, display_path, load_libraries


def find_titles(root: Path) -> list[Path]:
    """Title folders under ``root`` (folders holding a title.toml), sorted; libraries skipped."""
    if not root.is_dir():
        return []
    return sorted(
        p for p in root.iterdir() if p.is_dir() and p.name not in LIBRARY_DIRS and p.name[0] != "."
    )


def load_sources(title_dir: Path) -> tuple[Sources, dict[str, Strict], list[Problem]]:
    """Read and build every file of a title folder and the tile libraries it names."""
    if extends_of(title_dir) is not None:
        return load_overlay_sources(title_dir)
    sources = Sources()
    models: dict[str, Strict] = {}
    problems: list[Problem] = []
    for kind in FILE_MODELS:
        path = title_dir / f"{kind}.toml"
        loaded = load_toml(path, display_path(path))
        sources.files[kind] = loaded
        problems.extend(loaded.problems)
        model, found = build_file(kind, loaded, sources, kind)
        problems.extend(found)
        if model is not None:
            models[kind] = model
    load_libraries(title_dir, sources, models, problems)
    return sources, models, problems


def source_hash(sources: Sources) -> str:
    """sha256 over every source file's name and parsed data, in a fixed order.

    The data, not the bytes: editing a comment or reformatting a file (``eighteen fmt``)
    leaves the hash, and so generated/ and the saves made on it, unchanged.
    """
    h = hashlib.sha256()
    named = [(f"{k}.toml", f) for k, f in sources.files.items()]
    named += [(f"lib/{k}/tiles.toml", f) for k, f in sources.libraries.items()]
    named += [(f"base/{name}", f) for name, f in sources.bases]
    for name, f in sorted(named, key=lambda x: x[0]):
        h.update(name.encode())
        h.update(b"\0")
        h.update(f.raw if f.data is None else _canonical(f.data))
        h.update(b"\0")
    return "sha256:" + h.hexdigest()


def _canonical(data: dict[str, Any]) -> bytes:
    """The parsed data of a file as canonical JSON bytes (dates and times as ISO text)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), default=str).encode()


def assemble(
    title_dir: Path, sources: Sources, models: dict[str, Strict], *, partial: bool = False
) -> Title | None:
    """Build the Title aggregate when every file has a model; merge tile libraries.

    With ``partial``, a title is built even when files are missing: each missing model (and
    the tile definitions, when the tiles or a library are missing) is a :class:`Missing`,
    so that the checks on the files that did load can still run.
    """
    complete = all(k in models for k in FILE_MODELS)
    if not complete and not partial:
        return None
    tiles_file = models.get("tiles")
    defs: dict[str, Tile] = {}
    origin: dict[str, str] = {}
    libraries_ok = isinstance(tiles_file, TilesFile)
    if isinstance(tiles_file, TilesFile):
        try:
            for lib in tiles_file.library:
                lib_model = models.get(f"lib:{lib}")
                if not isinstance(lib_model, TilesFile):
                    libraries_ok = False
                    continue
                for t in lib_model.tiles:
                    defs[t.id] = t
                    origin[t.id] = f"lib:{lib}"
            for t in tiles_file.tiles:
                defs[t.id] = t
                origin[t.id] = "tiles"
        except MissingPart:  # a stand-in where tiles are listed: the definitions are unknown
            libraries_ok = False

    def part(kind: str) -> Any:
        return models[kind] if kind in models else Missing(kind)

    return Title(
        dir=title_dir,
        title=part("title"),
        map=part("map"),
        tiles=part("tiles"),
        trains=part("trains"),
        phases=part("phases"),
        privates=part("privates"),
        corporations=part("corporations"),
        market=part("market"),
        tile_defs=defs if libraries_ok else Missing("tiles"),  # type: ignore[arg-type]
        tile_origin=origin if libraries_ok else Missing("tiles"),  # type: ignore[arg-type]
        source_hash=source_hash(sources),
        stand_ins=frozenset(sources.stand_ins),
    )


def load_title(title_dir: Path) -> tuple[Title | None, list[Problem]]:
    """Load, schema-check, build and cross-check one title folder.

    Returns the Title (None if any file failed to build a model or was built from mended
    data) and every problem found (not the knock-ons of stand-ins: ``Sources.shown``).
    """
    title_dir = Path(title_dir)
    if title_dir.name in ("", ".."):  # `validate .`: the folder's own name is the one checked
        title_dir = title_dir.resolve()
    if not (title_dir / "title.toml").exists() and not title_dir.is_dir():
        hint = title_hint(str(title_dir))
        shown = display_path(title_dir)
        return None, [Problem(shown, 1, 1, "E002", f"no such title folder{hint}", "")]
    sources, models, problems = load_sources(title_dir)
    title = assemble(title_dir, sources, models, partial=True)
    assert title is not None
    problems.extend(run_checks(title, sources))
    complete = all(k in models for k in FILE_MODELS) and not sources.mended
    return (title if complete else None), sources.shown(problems)
