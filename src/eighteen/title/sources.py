"""A title's files as read and built, one by one (:class:`Sources`): each file loaded,
schema-validated and built into its model (:func:`build_file`), the tile libraries its
tiles name (:func:`load_libraries`), and every problem located in the file it belongs to.
The pipeline (:mod:`eighteen.title.pipeline`) and the overlay (:mod:`eighteen.title.overlay`)
both read a title through these.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from eighteen.locations import find_library
from eighteen.title.aggregate import MissingPart, guard_stand_ins
from eighteen.title.load import LoadedFile, load_toml
from eighteen.title.model import FILE_MODELS, Strict, TilesFile
from eighteen.title.positions import KeyPath
from eighteen.title.problems import Problem, Severity, path_str
from eighteen.title.validation import mended, validate_data

if TYPE_CHECKING:
    from eighteen.title.overlay import Overlay


@dataclass
class Sources:
    """Every file read for one title, by kind; library tile files by library name.

    For an overlay title (``extends``), ``files`` holds the overlay's own files, ``bases``
    every file of its base titles (name like ``1830/map.toml``) and ``overlay`` places
    problems on the merged data (see overlay.py).
    """

    files: dict[str, LoadedFile] = field(default_factory=dict)
    libraries: dict[str, LoadedFile] = field(default_factory=dict)
    overlay: Overlay | None = None
    bases: list[tuple[str, LoadedFile]] = field(default_factory=list)
    #: kinds whose model was built from mended data (validation.mended): they have errors
    mended: set[str] = field(default_factory=set)
    #: by kind, the key paths of mended data that hold a stand-in for a schema error
    stand_ins: dict[str, set[KeyPath]] = field(default_factory=dict)
    #: problems located at or under a stand-in: knock-ons of a schema error, never shown
    knock_ons: set[Problem] = field(default_factory=set)

    def locate(
        self,
        kind: str,
        path: tuple[str | int, ...],
        code: str,
        message: str,
        *,
        severity: Severity = Severity.error,
        key: bool = False,
    ) -> Problem:
        """A problem at ``path`` of file ``kind`` (a kind, or ``lib:<name>``); a knock-on
        when ``path`` is at or under a stand-in."""
        problem = self._locate(kind, path, code, message, severity, key)
        if any(path[: len(s)] == s for s in self.stand_ins.get(kind, ())):
            self.knock_ons.add(problem)
        return problem

    def _locate(
        self,
        kind: str,
        path: tuple[str | int, ...],
        code: str,
        message: str,
        severity: Severity,
        key: bool,
    ) -> Problem:
        if self.overlay is not None and not kind.startswith("lib:"):
            return self.overlay.locate(kind, path, code, message, severity=severity, key=key)
        loaded = self.file(kind)
        if loaded is None:
            return Problem(kind, 1, 1, code, message, path_str(path), severity)
        line, col = loaded.index.key(path) if key else loaded.index.value(path)
        return Problem(loaded.display, line, col, code, message, path_str(path), severity)

    def shown(self, problems: list[Problem]) -> list[Problem]:
        """``problems`` without the knock-ons of stand-ins (a stand-in is no value of the
        author's, so what a check says of it is no mistake of theirs)."""
        return [p for p in problems if p not in self.knock_ons]

    def file(self, kind: str) -> LoadedFile | None:
        if kind.startswith("lib:"):
            return self.libraries.get(kind[4:])
        return self.files.get(kind)


def display_path(path: Path) -> str:
    """Path as shown in messages: relative to the working directory when below it."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def build_file(
    kind: str, loaded: LoadedFile, sources: Sources, src_kind: str
) -> tuple[Strict | None, list[Problem]]:
    """Schema-validate one loaded file, then build its model.

    A file with schema errors still gets a model, built from its mended data, so that the
    checks across files run on it; its errors are reported all the same.  An error with a
    plain mend (a misspelt key or choice, a quoted number) is mended as meant; any other
    gets a stand-in (a key with a default dropped, else the plainest value the schema
    takes: validation.mended).  A stand-in is no value of the author's, so no check may judge
    it: reading it raises MissingPart (aggregate.guard_stand_ins), which skips the check
    that reads it, and its path goes to ``sources.stand_ins``, so that a problem located at
    or under it is a knock-on, not shown (``Sources.shown``).  The kind goes to
    ``sources.mended``: such a title is never compiled.  When some error can be neither
    mended nor stood in for, or the stand-ins do not build, the file has no model (the
    checks that need it are skipped)."""
    if loaded.data is None:
        return None, []
    problems = validate_data(kind, loaded)
    data: dict[str, Any] = loaded.data
    stand_ins: tuple[KeyPath, ...] = ()
    if any(p.is_error for p in problems):
        fixed = mended(kind, loaded.data)
        if fixed is None:
            return None, problems
        data, stand_ins = fixed.data, fixed.stand_ins
        sources.mended.add(src_kind)
    try:
        model = FILE_MODELS[kind].model_validate(data)
    except ValidationError as exc:  # the schema should have caught it; report, never raise
        if stand_ins:  # what the model refuses is a stand-in: the schema errors say it
            return None, problems
        for err in exc.errors():
            loc = tuple(x for x in err["loc"] if isinstance(x, str | int))
            problems.append(sources.locate(src_kind, loc, "E010", err["msg"]))
        return None, problems
    if stand_ins:
        guard_stand_ins(model, stand_ins)
        sources.stand_ins.setdefault(src_kind, set()).update(stand_ins)
    return model, problems


def load_libraries(
    title_dir: Path, sources: Sources, models: dict[str, Strict], problems: list[Problem]
) -> None:
    """Read and build the tile libraries the title's tiles.toml names (a sibling folder of
    the title, else the shared library of the project or the installed package)."""
    tiles = models.get("tiles")
    if isinstance(tiles, TilesFile):
        try:
            names = list(tiles.library)
        except MissingPart:  # a stand-in: which libraries are meant is not known
            return
        for i, lib in enumerate(names):
            lib_path = find_library(lib, title_dir)
            if lib_path is None:
                problems.append(
                    sources.locate("tiles", ("library", i), "E109", f"unknown tile library '{lib}'")
                )
                continue
            loaded = load_toml(lib_path, display_path(lib_path))
            sources.libraries[lib] = loaded
            problems.extend(loaded.problems)
            model, found = build_file("tiles", loaded, sources, f"lib:{lib}")
            problems.extend(found)
            if model is not None:
                models[f"lib:{lib}"] = model
