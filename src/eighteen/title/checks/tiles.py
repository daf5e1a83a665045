"""Cross-reference checks: tiles.toml."""

from __future__ import annotations

from collections.abc import Iterator

from eighteen.title.aggregate import Title
from eighteen.title.checks.common import repeated
from eighteen.title.checks.registry import W, check
from eighteen.title.compile import compile_title
from eighteen.title.model import (
    COLOR_ORDER,
)
from eighteen.title.problems import Problem
from eighteen.title.sources import Sources
from eighteen.title.upgrades import TileShapes, relative_rotations


@check
def manifest_tiles_known(title: Title, s: Sources) -> Iterator[Problem]:
    """E110: every manifest entry names a defined tile; E111: tiles are laid tile colours."""
    for tid in title.tiles.manifest:
        if tid not in title.tile_defs:
            yield s.locate("tiles", ("manifest", tid), "E110", f"unknown tile '{tid}'", key=True)
        elif title.tile_defs[tid].color.value not in COLOR_ORDER[1:]:
            yield s.locate(
                "tiles",
                ("manifest", tid),
                "E111",
                f"tile '{tid}' is {title.tile_defs[tid].color.value}: not a colour that is laid",
                key=True,
            )


@check
def manifest_counts(title: Title, s: Sources) -> Iterator[Problem]:
    """E112: a manifest count is at least 1."""
    for tid, n in title.tiles.manifest.items():
        if isinstance(n, int) and n < 1:
            yield s.locate("tiles", ("manifest", tid), "E112", f"tile '{tid}' count {n} < 1")


@check
def duplicate_tile_defs(title: Title, s: Sources) -> Iterator[Problem]:
    """E113: a tile id is defined once per file."""
    for i, tid in repeated(t.id for t in title.tiles.tiles):
        yield s.locate("tiles", ("tiles", i, "id"), "E113", f"tile '{tid}' defined twice")


def placeable_tiles(title: Title) -> set[str] | None:
    """Manifest tiles reachable from the map: first lays, then upgrades, transitively.

    None when the title is too broken to compile (other checks report why).
    """
    try:
        compiled = compile_title(title)
    except Exception:
        return None
    ok: set[str] = set()
    for options in compiled["first_tiles"].values():
        ok.update(options)
    hexes = set(compiled["hexes"])
    for old, news in compiled["upgrades"].items():
        if old in hexes:
            ok.update(t for t, rots in news.items() if rots)
    grew = True
    while grew:
        grew = False
        for old in list(ok):
            for new, rots in compiled["upgrades"].get(old, {}).items():
                if rots and new not in ok:
                    ok.add(new)
                    grew = True
    return ok


@check
def manifest_tiles_placeable(title: Title, s: Sources) -> Iterator[Problem]:
    """E114: every manifest tile has a legal predecessor on the map or in the manifest."""
    ok = placeable_tiles(title)
    if ok is None:
        return
    for tid in title.tiles.manifest:
        if tid in title.tile_defs and tid not in ok:
            yield s.locate(
                "tiles",
                ("manifest", tid),
                "E114",
                f"tile '{tid}' can never be placed: no hex or manifest tile it may replace",
                key=True,
            )


@check
def manifest_tiles_upgradable(title: Title, s: Sources) -> Iterator[Problem]:
    """W116: a manifest city or town tile that the tile library could upgrade (in a colour
    some phase allows) has a manifest tile that may replace it; else it is a dead end by
    omission (removing tile 63 from 1830's manifest leaves 14 and 15 with no upgrade)."""
    allowed = {c.value for p in title.phases.phases for c in p.tiles}
    defs = title.tile_defs
    manifest = [tid for tid in title.tiles.manifest if tid in defs]
    present = {defs[tid].color.value for tid in manifest}  # a colour missing is W115's
    shapes = {tid: TileShapes.of(t, t.color) for tid, t in defs.items()}
    for tid in manifest:
        colour = defs[tid].color.value
        stops = getattr(defs[tid], "cities", None) or getattr(defs[tid], "towns", None)
        if colour not in COLOR_ORDER[1:-1] or not stops:
            continue
        later = COLOR_ORDER[COLOR_ORDER.index(colour) + 1]
        if later not in allowed or later not in present:
            continue
        old = shapes[tid]

        def replaces(new_id: str, old: TileShapes = old) -> bool:
            return bool(relative_rotations(old.base, old.color, shapes[new_id]))

        if any(replaces(n) for n in manifest if n != tid):
            continue
        could = sorted(n for n in defs if n not in manifest and replaces(n))
        if could:
            yield s.locate(
                "tiles",
                ("manifest", tid),
                "W116",
                f"tile '{tid}' can never be upgraded: no {later} manifest tile may replace "
                f"it (the library's {', '.join(could[:3])} could)",
                severity=W,
                key=True,
            )


@check
def phase_colours_have_tiles(title: Title, s: Sources) -> Iterator[Problem]:
    """W115: a colour a phase allows should exist in the manifest."""
    colours = {title.tile_defs[t].color.value for t in title.tiles.manifest if t in title.tile_defs}
    for i, p in enumerate(title.phases.phases):
        for j, c in enumerate(p.tiles):
            if c.value not in colours:
                yield s.locate(
                    "phases",
                    ("phases", i, "tiles", j),
                    "W115",
                    f"phase {p.id} allows {c.value} tiles but the manifest has none",
                    severity=W,
                )
