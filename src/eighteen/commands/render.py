"""`eighteen render TITLE|SAVE.json --out DIR [--at N]`: write DIR/index.html and print its path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from eighteen.commands.output import USAGE, OutputError, check_dir_target, emit_json, fail, warn
from eighteen.io.jsonlimits import load_json
from eighteen.title.save import SaveFormatError, check_save

if TYPE_CHECKING:
    from eighteen.compiled import CompiledTitle


def _load_compiled(target: str) -> tuple[CompiledTitle | None, str | None]:
    """The compiled title named by ``target`` (title folder or id, or a compiled JSON).

    A title folder (or a title id with sources, see :mod:`eighteen.locations`) is compiled
    in memory so the page shows the current sources; otherwise the compiled tables are read.
    Returns (compiled, error).
    """
    from eighteen.commands.titles import print_problems
    from eighteen.engine.tables import TitleNotFound, find_title, typed_document
    from eighteen.locations import find_title_dir
    from eighteen.title.compile import compile_title
    from eighteen.title.pipeline import load_title
    from eighteen.title.problems import sort_problems

    folder = Path(target)
    if not folder.is_dir():
        folder = find_title_dir(target) or folder
    if folder.is_dir():
        title, problems = load_title(folder)
        errors = [p for p in sort_problems(problems) if p.is_error]
        if title is None or errors:
            print_problems(errors)
            return None, f"{target}: the title has {len(errors)} error(s) (listed above)"
        return typed_document(compile_title(title)), None
    try:
        path = find_title(target)
        return typed_document(json.loads(path.read_text(encoding="utf-8"))), None
    except TitleNotFound as exc:
        return None, f"no title or save named {target!r}: {exc}"
    except (OSError, ValueError) as exc:
        return None, f"{target}: cannot read the compiled title: {exc}"


def _done(page: Path, fmt: str) -> int:
    if fmt == "json":
        emit_json({"page": str(page.resolve())})
    else:
        print(page.resolve())
    return 0


def cmd_render(
    target: str, out: str, at: int | None = None, fmt: str = "text", force: bool = False
) -> int:
    """Render a title or a save as ``out/index.html``; print the path; 0 ok, 1 bad input.

    A save made with other tables of its title is refused, as `replay` refuses it
    (``force``: rendered, with a warning)."""
    from eighteen.engine.tables import (
        CompiledFormatError,
        TitleNotFound,
        load_title,
        typed_document,
    )
    from eighteen.render import render_save, render_title
    from eighteen.title.versions import SaveTitleMismatch, check_save_title

    if out == "":
        return fail("render", "--out is empty: name a folder (--out . for this one)", USAGE)
    try:
        out_dir = check_dir_target(out)
    except OutputError as exc:
        return fail("render", f"--out {exc}")
    path = Path(target)
    try:
        if path.is_file():
            try:
                data = load_json(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                return fail("render", f"{target}: {exc}")
            if isinstance(data, dict) and "hexes" in data:
                if at is not None:
                    return fail("render", "--at needs a save, not a title", USAGE)
                try:
                    title = typed_document(data)
                except CompiledFormatError as exc:
                    return fail("render", f"{target}: not a compiled title: {exc}")
                return _done(render_title(title, out_dir), fmt)
            if not isinstance(data, dict) or "actions" not in data or "title" not in data:
                return fail("render", f"{target}: neither a compiled title nor a save")
            try:
                check_save(data)
            except SaveFormatError as exc:
                return fail("render", f"{target}: {exc}")
            try:
                tables = load_title(str(data["title"]))
                for warning in check_save_title(data, tables, force):
                    warn("render", warning)
                page = render_save(data, out_dir, at, tables)
            except TitleNotFound as exc:  # (an OSError, but no write failed)
                return fail("render", str(exc))
            except SaveTitleMismatch as exc:
                return fail("render", f"{target}: {exc}")
            except OSError:
                raise
            except Exception as exc:  # a bad save: report it, located by action number
                return fail("render", f"{target}: {exc}")
            return _done(page, fmt)
        if at is not None:
            return fail("render", "--at needs a save, not a title", USAGE)
        compiled, error = _load_compiled(target)
        if compiled is None:
            return fail("render", error or f"cannot load {target}")
        return _done(render_title(compiled, out_dir), fmt)
    except OSError as exc:
        return fail("render", f"cannot write {out}: {exc.strerror or exc}")
