"""A whole title after loading: every file's model, plus the merged tile definitions."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

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
from eighteen.title.positions import KeyPath


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


def guard_stand_ins(model: BaseModel, paths: Iterable[KeyPath]) -> None:
    """Make the stand-ins of a model built from mended data (validation.mended) read like a
    :class:`Missing` file: reading a field that holds one raises :class:`MissingPart`, so a
    check that reads it is skipped (what it said would be of a value the author never
    wrote) while every other check runs.

    A stand-in for a whole table guards each field of its model; any other guards the field
    of the nearest model that holds it (a list's or a map's, for an entry of one).  Only
    Python reads are guarded: ``model_dump`` still sees the stand-ins."""
    for path in paths:
        owner, name, node = _holder(model, path)
        if isinstance(node, BaseModel):
            _guard(node, type(node).model_fields)
        elif owner is not None:
            _guard(owner, [name])


def _holder(model: BaseModel, path: KeyPath) -> tuple[BaseModel | None, str, Any]:
    """(nearest model on ``path``, its field the path goes through, value at ``path``)."""
    owner: BaseModel | None = None
    name = ""
    node: Any = model
    for key in path:
        if isinstance(node, BaseModel):
            fields = type(node).model_fields
            found = [n for n, f in fields.items() if key in (n, f.alias)]
            if not found:
                return owner, name, None
            owner, name = node, found[0]
            node = node.__dict__.get(name)
        elif isinstance(node, list | dict):
            try:
                node = node[key]  # type: ignore[index]
            except (IndexError, KeyError, TypeError):
                return owner, name, None
        else:
            return owner, name, None
    return owner, name, node


#: guarded class -> (the model class it guards, its guarded fields)
_GUARDED: dict[type, tuple[type[BaseModel], frozenset[str]]] = {}


def _guard(model: BaseModel, names: Iterable[str]) -> None:
    """Let reading ``names`` of this one model raise :class:`MissingPart` (it becomes an
    instance of a subclass that guards them; its data and its dump stay as they are)."""
    base, guarded = _GUARDED.get(type(model), (type(model), frozenset()))
    object.__setattr__(model, "__class__", _guarded_class(base, guarded | frozenset(names)))


@functools.cache
def _guarded_class(base: type[BaseModel], names: frozenset[str]) -> type[BaseModel]:
    """The subclass of ``base`` whose fields ``names`` raise MissingPart when read."""

    def __getattribute__(self: BaseModel, name: str) -> Any:
        if name in names:
            raise MissingPart(f"{base.__name__}.{name} is a stand-in")
        return object.__getattribute__(self, name)

    namespace = {"__getattribute__": __getattribute__, "__slots__": (), "__module__": __name__}
    cls = type(base.__name__, (base,), namespace)
    _GUARDED[cls] = (base, names)
    return cls


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
    #: kinds whose model holds stand-ins for schema errors (:func:`guard_stand_ins`): such
    #: a title is checked, never compiled
    stand_ins: frozenset[str] = frozenset()

    @property
    def id(self) -> str:
        return self.title.id

    def hex_ids(self) -> list[str]:
        """Every hex coordinate in map order (entries with a list expand in order)."""
        out: list[str] = []
        for h in self.map.hexes:
            out.extend([h.at] if isinstance(h.at, str) else h.at)
        return out
