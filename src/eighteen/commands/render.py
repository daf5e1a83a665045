"""`eighteen render TITLE|SAVE.json --out DIR [--at N]`: write DIR/index.html and print its path."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def _load_compiled(target: str) -> tuple[dict[str, Any] | None, str | None]:
    """The compiled title named by ``target`` (title folder or id, or a compiled JSON).

    A title folder (or ``titles/<id>``) is compiled in memory so the page shows the current
    sources; otherwise ``generated/<id>.json`` is read.  Returns (compiled, error).
    """
    from eighteen.commands.titles import repo_root
    from eighteen.title.compile import compile_title
    from eighteen.title.pipeline import load_title
    from eighteen.title.problems import format_problems, sort_problems

    folder = Path(target)
    if not folder.is_dir():
        folder = repo_root() / "titles" / target
    if folder.is_dir():
        title, problems = load_title(folder)
        errors = [p for p in sort_problems(problems) if p.is_error]
        if title is None or errors:
            return None, format_problems(errors) or f"cannot load title {target}"
        return compile_title(title), None
    generated = repo_root() / "generated" / f"{target}.json"
    if generated.is_file():
        return json.loads(generated.read_text(encoding="utf-8")), None
    return None, f"no title or save named {target!r}"


def cmd_render(target: str, out: str, at: int | None = None) -> int:
    """Render a title or a save as ``out/index.html``; print the path; 0 ok, 1 bad input."""
    from eighteen.render import render_save, render_title

    path = Path(target)
    out_dir = Path(out)
    if path.is_file():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            print(f"eighteen render: {target}: {exc}", file=sys.stderr)
            return 1
        if isinstance(data, dict) and "hexes" in data:
            if at is not None:
                print("eighteen render: --at needs a save, not a title", file=sys.stderr)
                return 2
            print(render_title(data, out_dir).resolve())
            return 0
        if not isinstance(data, dict) or "actions" not in data or "title" not in data:
            print(
                f"eighteen render: {target}: neither a compiled title nor a save", file=sys.stderr
            )
            return 1
        try:
            page = render_save(data, out_dir, at)
        except Exception as exc:  # a bad save: report it, located by action number
            print(f"eighteen render: {target}: {exc}", file=sys.stderr)
            return 1
        print(page.resolve())
        return 0
    if at is not None:
        print("eighteen render: --at needs a save, not a title", file=sys.stderr)
        return 2
    compiled, error = _load_compiled(target)
    if compiled is None:
        print(f"eighteen render: {error}", file=sys.stderr)
        return 1
    print(render_title(compiled, out_dir).resolve())
    return 0
