"""`eighteen validate`, `compile`, `schema` and `titles`: compiler-style title commands."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text

from eighteen.commands.output import (
    USAGE,
    OutputError,
    check_dir_target,
    console,
    emit_json,
    fail,
    say,
)
from eighteen.title.problems import Problem, format_problems, sort_problems


def repo_root() -> Path:
    """The project folder: the nearest ancestor of the cwd holding titles/, else the cwd."""
    from eighteen.locations import project_root

    return project_root() or Path.cwd().resolve()


def print_problems(problems: list[Problem]) -> None:
    """Every problem on its own line of standard output, coloured on a terminal."""
    out = console()
    for p in sort_problems(problems):
        line = Text(f"{p.file}:{p.line}:{p.col}: ", style="bold")
        line.append(
            f"{p.severity.value}[{p.code}]", style="bold red" if p.is_error else "bold yellow"
        )
        line.append(f": {p.path}: " if p.path else ": ")
        line.append(p.message)
        out.print(line)


def _title_dirs(paths: list[str]) -> tuple[list[Path], list[Problem]]:
    """Explicit folders (or title ids), or every title of the project."""
    from eighteen.locations import find_title_dir, project_root, title_hint
    from eighteen.title.pipeline import find_titles
    from eighteen.title.sources import display_path

    if not paths:
        root = project_root()
        return (find_titles(root / "titles") if root else []), []
    dirs: list[Path] = []
    problems: list[Problem] = []
    for raw in paths:
        p = Path(raw)
        if not p.exists():
            p = find_title_dir(raw) or p
        if p.is_file():
            p = p.parent
        if not p.is_dir():
            message = f"no such title folder{title_hint(raw)}"
            problems.append(Problem(display_path(p), 1, 1, "E002", message))
            continue
        dirs.append(p)
    return dirs, problems


def _summary(problems: list[Problem]) -> str:
    errors = sum(p.is_error for p in problems)
    warnings = len(problems) - errors
    return f"{errors} error(s), {warnings} warning(s)"


def nothing_to_work_on(command: str) -> int:
    """Exit 2: no title was named and the working directory is in no project."""
    return fail(
        command,
        "no titles to work on: name title folders or ids (`eighteen titles` lists them), "
        "or run inside a project holding titles/",
        USAGE,
    )


def cmd_validate(paths: list[str], fmt: str = "text") -> int:
    """Validate titles; print every problem; exit 1 on any error, 2 when given nothing."""
    from eighteen.title.pipeline import load_title

    dirs, problems = _title_dirs(paths)
    if not dirs and not problems:
        return nothing_to_work_on("validate")
    for d in dirs:
        _, found = load_title(d)
        problems.extend(found)
    problems = sort_problems(problems)
    if fmt == "json":
        print(format_problems(problems, "json"))
    else:
        print_problems(problems)
        names = ", ".join(d.resolve().name for d in dirs) or "nothing"
        say(f"validated {names}: {_summary(problems)}", stderr=True)
    return 1 if any(p.is_error for p in problems) else 0


def cmd_compile(
    paths: list[str], *, check: bool = False, out: str | None = None, fmt: str = "text"
) -> int:
    """Compile titles to generated/; with check, report stale files and write nothing."""
    from eighteen.locations import compiled_path
    from eighteen.title.compile import compile_title, stale_outputs, write_outputs
    from eighteen.title.pipeline import load_title

    out_dir = Path(out) if out else repo_root() / "generated"
    try:
        check_dir_target(out_dir)
    except OutputError as exc:
        return fail("compile", str(exc))
    dirs, problems = _title_dirs(paths)
    if not dirs and not problems:
        return nothing_to_work_on("compile")
    stale: list[str] = []
    written: list[str] = []
    for d in dirs:
        title, found = load_title(d)
        problems.extend(found)
        if title is None or any(p.is_error for p in found):
            continue
        compiled = compile_title(title)
        # (a title folder's tables go to its own project's generated/, where `play` and
        # `simulate` given the folder look for them; `--out` names another folder)
        own = None if out else compiled_path(d, compiled["id"])
        target = out_dir if own is None else own.parent
        if check:
            stale.extend(stale_outputs(compiled, target))
            continue
        try:
            check_dir_target(target)
            written.extend(str(path) for path in write_outputs(compiled, target))
        except OutputError as exc:
            return fail("compile", str(exc))
        except OSError as exc:
            return fail("compile", f"cannot write {target}: {exc.strerror or exc}")
    errors = [p for p in sort_problems(problems) if p.is_error]
    if fmt == "json":
        doc: dict[str, Any] = {"written": written, "stale": stale}
        doc.update(_problem_doc(errors))
        emit_json(doc)
    else:
        for path in written:
            say(f"wrote {path}", stderr=True)
        print_problems(errors)
        if errors:
            say(f"compile failed: {_summary(errors)}", stderr=True)
        for name in stale:
            print(f"stale: {name} (run `eighteen compile`)")
    return 1 if errors or stale else 0


def _problem_doc(problems: list[Problem]) -> dict[str, Any]:
    errors = sum(p.is_error for p in problems)
    return {
        "problems": [p.to_dict() for p in sort_problems(problems)],
        "errors": errors,
        "warnings": len(problems) - errors,
    }


def cmd_schema(*, check: bool = False, out: str | None = None, fmt: str = "text") -> int:
    """Write schema/*.schema.json; with check, exit 1 when any is stale."""
    from eighteen.title.schema import stale_schemas, write_schemas

    out_dir = Path(out) if out else repo_root() / "schema"
    try:
        check_dir_target(out_dir)
    except OutputError as exc:
        return fail("schema", str(exc))
    if check:
        stale = [str(s) for s in stale_schemas(out_dir)]
        if fmt == "json":
            emit_json({"written": [], "stale": stale})
        for name in stale if fmt == "text" else ():
            print(f"stale: {name} (run `eighteen schema`)")
        return 1 if stale else 0
    try:
        written = [str(p) for p in write_schemas(out_dir)]
    except OSError as exc:
        return fail("schema", f"cannot write {out_dir}: {exc.strerror or exc}")
    if fmt == "json":
        emit_json({"written": written, "stale": []})
    else:
        for path in written:
            say(f"wrote {path}", stderr=True)
    return 0


def title_listing() -> list[dict[str, Any]]:
    """Every title found: id, name, version, where its sources and compiled tables are."""
    from eighteen.locations import generated_dirs, roots, title_head
    from eighteen.title.pipeline import find_titles

    seen: dict[str, dict[str, Any]] = {}
    for kind, root in roots():
        for folder in find_titles(root / "titles"):
            if folder.name in seen or not (folder / "title.toml").is_file():
                continue
            head = title_head(folder)
            seen[folder.name] = {
                "id": folder.name,
                "name": str(head.get("name", "")),
                "version": str(head.get("version", "")),
                "extends": head.get("extends"),
                "found": kind,
                "source": str(folder),
                "compiled": None,
            }
    for d in generated_dirs():
        for path in sorted(d.glob("*.json")) if d.is_dir() else ():
            entry = seen.setdefault(
                path.stem,
                {
                    "id": path.stem,
                    "name": "",
                    "version": "",
                    "extends": None,
                    "found": "compiled",
                    "source": None,
                    "compiled": None,
                },
            )
            if entry["compiled"] is None:
                entry["compiled"] = str(path)
    for entry in seen.values():
        entry["options"] = _options(entry["compiled"])
    return [seen[k] for k in sorted(seen)]


def _options(compiled: str | None) -> list[dict[str, str]] | None:
    """The options (id, description) of compiled tables; None when there are none to read
    (not compiled, or unreadable: play says why)."""
    import json

    if compiled is None:
        return None
    try:
        doc = json.loads(Path(compiled).read_text(encoding="utf-8"))
        return [
            {"id": str(o["id"]), "description": str(o.get("description", ""))}
            for o in doc["options"]
        ]
    except (OSError, ValueError, TypeError, KeyError):
        return None


def cmd_titles(fmt: str = "text") -> int:
    """List the titles found (project, checkout, installed package) and where they are."""
    from rich.table import Table

    listing = title_listing()
    if fmt == "json":
        emit_json({"titles": listing})
        return 0
    if not listing:
        say("no titles found", stderr=True)
        return 0
    table = Table(box=None, pad_edge=False, header_style="bold")
    for col in ("id", "name", "version", "found", "source", "compiled"):
        table.add_column(col)
    for t in listing:
        table.add_row(
            t["id"],
            t["name"] + (f" (extends {t['extends']})" if t["extends"] else ""),
            t["version"],
            t["found"],
            t["source"] or "-",
            t["compiled"] or "not compiled",
        )
    out = console()
    if not out.is_terminal:
        out.width = 400  # a pipe or file: never wrap or cut a path
    out.print(table)
    with_options = [t for t in listing if t["options"]]
    if with_options:
        out.print("\noptions (`eighteen play ID --option OPTION`; descriptions: --format json):")
        for t in with_options:
            out.print(f"  {t['id']}: {', '.join(o['id'] for o in t['options'])}", soft_wrap=True)
    return 0
