"""`eighteen validate`, `compile` and `schema`: title commands printing compiler-style output."""

from __future__ import annotations

import sys
from pathlib import Path

from eighteen.title.problems import Problem, format_problems, sort_problems


def repo_root() -> Path:
    """The project folder: the nearest ancestor of the cwd holding titles/, else the cwd."""
    here = Path.cwd().resolve()
    for p in (here, *here.parents):
        if (p / "titles").is_dir():
            return p
    return here


def _title_dirs(paths: list[str]) -> tuple[list[Path], list[Problem]]:
    """Explicit folders (or title ids), or every title under titles/."""
    from eighteen.title.pipeline import display_path, find_titles

    if not paths:
        return find_titles(repo_root() / "titles"), []
    dirs: list[Path] = []
    problems: list[Problem] = []
    for raw in paths:
        p = Path(raw)
        if not p.exists() and (repo_root() / "titles" / raw).is_dir():
            p = repo_root() / "titles" / raw
        if p.is_file():
            p = p.parent
        if not p.is_dir():
            problems.append(Problem(display_path(p), 1, 1, "E002", "no such title folder"))
            continue
        dirs.append(p)
    return dirs, problems


def _summary(problems: list[Problem]) -> str:
    errors = sum(p.is_error for p in problems)
    warnings = len(problems) - errors
    return f"{errors} error(s), {warnings} warning(s)"


def cmd_validate(paths: list[str], fmt: str = "text") -> int:
    """Validate titles; print every problem; exit 1 on any error."""
    from eighteen.title.pipeline import load_title

    dirs, problems = _title_dirs(paths)
    for d in dirs:
        _, found = load_title(d)
        problems.extend(found)
    problems = sort_problems(problems)
    if fmt == "json":
        print(format_problems(problems, "json"))
    else:
        if problems:
            print(format_problems(problems))
        names = ", ".join(d.name for d in dirs) or "nothing"
        print(f"validated {names}: {_summary(problems)}", file=sys.stderr)
    return 1 if any(p.is_error for p in problems) else 0


def cmd_compile(paths: list[str], *, check: bool = False, out: str | None = None) -> int:
    """Compile titles to generated/; with check, report stale files and write nothing."""
    from eighteen.title.compile import compile_title, stale_outputs, write_outputs
    from eighteen.title.pipeline import load_title

    out_dir = Path(out) if out else repo_root() / "generated"
    dirs, problems = _title_dirs(paths)
    stale: list[str] = []
    for d in dirs:
        title, found = load_title(d)
        problems.extend(found)
        if title is None or any(p.is_error for p in found):
            continue
        compiled = compile_title(title)
        if check:
            stale.extend(stale_outputs(compiled, out_dir))
        else:
            for path in write_outputs(compiled, out_dir):
                print(f"wrote {path}", file=sys.stderr)
    errors = [p for p in sort_problems(problems) if p.is_error]
    if errors:
        print(format_problems(errors))
        print(f"compile failed: {_summary(errors)}", file=sys.stderr)
        return 1
    if stale:
        for name in stale:
            print(f"stale: {name} (run `eighteen compile`)")
        return 1
    return 0


def cmd_schema(*, check: bool = False, out: str | None = None) -> int:
    """Write schema/*.schema.json; with check, exit 1 when any is stale."""
    from eighteen.title.schema import stale_schemas, write_schemas

    out_dir = Path(out) if out else repo_root() / "schema"
    if check:
        stale = stale_schemas(out_dir)
        for name in stale:
            print(f"stale: {name} (run `eighteen schema`)")
        return 1 if stale else 0
    for path in write_schemas(out_dir):
        print(f"wrote {path}", file=sys.stderr)
    return 0
