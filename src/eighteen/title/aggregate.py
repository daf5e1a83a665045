"""A whole title after loading: every file's model, plus the merged tile definitions."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eighteen.compiled import CompiledTitle
from eighteen.title.model import (
    CorporationsFile,
    MapFile,
    MarketFile,
    PhasesFile,
    PrivatesFile,
    Tile,
    TilesFile,
    TitleFile,
    TrainsFile,
)


class MissingPart(Exception):
    """A check reached for a file that did not load (see :class:`Missing`)."""


class Missing:
    """Stands in for a file's model that did not build (a syntax or schema error).

    Touching it raises :class:`MissingPart`, so a check that needs that file is skipped
    (its problems would be knock-on noise) while checks on the files that loaded still run.
    """

    def __init__(self, kind: str) -> None:
        self._kind = kind

    def __getattr__(self, name: str) -> Any:
        raise MissingPart(self.__dict__.get("_kind", "?"))

    def __iter__(self) -> Any:
        raise MissingPart(self._kind)

    def __contains__(self, item: object) -> bool:
        raise MissingPart(self._kind)

    def __getitem__(self, item: object) -> Any:
        raise MissingPart(self._kind)

    def __len__(self) -> int:
        raise MissingPart(self._kind)

    def __bool__(self) -> bool:
        raise MissingPart(self._kind)


@dataclass
class Title:
    """Every file of a title as typed models.

    ``tile_defs`` holds every tile definition the title can see: its library tiles overlaid
    by its own ``[[tiles]]``; ``tile_origin`` says which file each came from.
    """

    dir: Path
    title: TitleFile
    map: MapFile
    tiles: TilesFile
    trains: TrainsFile
    phases: PhasesFile
    privates: PrivatesFile
    corporations: CorporationsFile
    market: MarketFile
    tile_defs: dict[str, Tile] = field(default_factory=dict)
    tile_origin: dict[str, str] = field(default_factory=dict)
    source_hash: str = ""
    compiled: dict[str, Any] | None = field(default=None, repr=False)
    #: the same document as the typed models (:func:`eighteen.title.compile.compiled_document`)
    compiled_doc: CompiledTitle | None = field(default=None, repr=False)

    @property
    def id(self) -> str:
        return self.title.id

    def hex_ids(self) -> list[str]:
        """Every hex coordinate in map order (entries with a list expand in order)."""
        out: list[str] = []
        for h in self.map.hexes:
            out.extend([h.at] if isinstance(h.at, str) else h.at)
        return out
