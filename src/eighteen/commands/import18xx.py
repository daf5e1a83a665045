"""`eighteen import-18xx` and `eighteen export-18xx`: 18xx.games game exports.

``import-18xx GAME.json... [--save OUT.json] [--check] [--at ID] [--format json]`` replays
exports in our engine (see :mod:`eighteen.io.games18xx`).  One file: each player's final
value beside the file's ``result`` and the first diverging action; several: one line per
file and ``N/M matched``.  ``--check`` exits 1 unless every file matches exactly (values,
end reason, money); ``--at ID`` stops each replay after that action.  ``export-18xx OURSAVE.json [--out FILE]`` writes one
of our saves in the 18xx.games format.

Bad input gives one line on stderr (naming the action id) and exit code 1.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from eighteen.commands.output import check_file_target, fail, printable, write_atomic
from eighteen.commands.play import SaveError, open_save, write_save
from eighteen.io.games18xx import (
    END_REASONS,
    Divergence,
    ExportError,
    ImportResult,
    export_game,
    import_game,
    read_export,
)


def _err(msg: str, command: str = "import-18xx") -> int:
    """One line on stderr, ``eighteen COMMAND: error: MESSAGE``, as every command writes
    its errors (commands.output.fail); exit code 1."""
    return fail(command, msg)


def print_divergence(d: Divergence, out: TextIO) -> None:
    """The first diverging action: its id, its JSON, and our engine's reason."""
    print(f"first divergence: action {d.action_id}", file=out)
    print(f"  action: {json.dumps(d.action, separators=(',', ':'))}", file=out)
    print(f"  our engine: {printable(d.reason)}", file=out)


def print_report(path: str, res: ImportResult, out: TextIO) -> None:
    """Header, per-player values (ours beside the file's) and the end of the game."""
    g = res.game
    undone = res.raw_count - res.kept_count
    print(
        f"{path}: {g.tables.id}, {len(g.players)} players, {res.kept_count} actions "
        f"({res.raw_count} in the file, {undone} undone or undo/redo), "
        f"{res.routes_checked} routes re-derived",
        file=out,
    )
    ours = res.values()
    width = max([len("player"), *(len(printable(n)) for n in ours)])
    head = "file" if res.stopped_at is None else "final"
    print(f"  {'player':<{width}}  {'ours':>7}  {head:>7}", file=out)
    for name, value in sorted(ours.items(), key=lambda kv: -kv[1]):
        want = res.expected.get(name)
        differs = want is not None and want != value and res.stopped_at is None
        mark = "   <- differs" if differs else ""
        shown = "-" if want is None else str(want)
        print(f"  {printable(name):<{width}}  {value:>7}  {shown:>7}{mark}", file=out)
    ours_end = g.state.end_reason if g.is_over else "not over"
    file_end = res.expected_reason or "not recorded (values compared only)"
    if res.expected_reason in END_REASONS:
        file_end = f"{res.expected_reason} ({END_REASONS[res.expected_reason]})"
    if res.stopped_at is not None:
        print(f"  stopped after action {res.stopped_at} (--at): the result is not compared")
    print(f"  end: ours {ours_end}, file {file_end}", file=out)


def print_notes(res: ImportResult, out: TextIO, limit: int = 10) -> None:
    """Certificates the file names where 18xx.games would not hold them (the replay goes
    on by the percents, so they change no result): the first ``limit`` and how many."""
    if not res.notes:
        return
    print(f"notes: {len(res.notes)} certificate names 18xx.games would not take", file=out)
    for n in res.notes[:limit]:
        print(f"  {printable(n)}", file=out)
    if len(res.notes) > limit:
        print(f"  ... and {len(res.notes) - limit} more", file=out)


def print_route_report(res: ImportResult, out: TextIO) -> None:
    """Per corporation turn: logged revenue beside the optimum, and the total left behind."""
    print("routes: logged vs optimal revenue per run", file=out)
    for aid, corp, logged, best, proven in res.route_report:
        gap = best - logged
        mark = "" if gap == 0 else f"   left ${gap}"
        bound = "" if proven else " (budget ran out: best found, not proven)"
        print(f"  action {aid:>5} {corp:<6} ${logged:>5}  best ${best:>5}{mark}{bound}", file=out)
    print(f"  {_routes_total(res)}", file=out)


def _routes_total(res: ImportResult) -> str:
    """``N runs; money left on the table: $X`` (a run above its optimum leaves nothing)."""
    left = sum(max(best - logged, 0) for _, _, logged, best, _ in res.route_report)
    return f"{len(res.route_report)} runs; money left on the table: ${left}"


def _json_routes(res: ImportResult) -> dict[str, Any]:
    """The route report of ``--routes`` as JSON: each run and the money left in all."""
    runs = [
        {
            "action_id": aid,
            "corporation": corp,
            "logged": logged,
            "best": best,
            "left": max(best - logged, 0),
            "proven": proven,
        }
        for aid, corp, logged, best, proven in res.route_report
    ]
    return {"runs": runs, "left": sum(r["left"] for r in runs)}


#: Top-level keys of an 18xx.games export; a JSON file with none of them is no export.
EXPORT_KEYS = frozenset({"actions", "players", "title"})


def _summary_line(path: str, res: ImportResult | None, problems: list[str], error: str) -> str:
    """One line for a file of a batch: matched, or its first difference."""
    if error:
        return f"FAIL {path}: {error}"
    assert res is not None
    if not problems:
        n = len(res.notes)
        notes = f" ({n} certificate note{'s' if n != 1 else ''})" if n else ""
        return f"ok   {path}{notes}"
    if res.divergence is not None:
        d = res.divergence
        return f"FAIL {path}: action {d.action_id} ({d.action.get('type')}): {d.reason}"
    return f"FAIL {path}: {problems[0]}"


def _json_report(
    path: str, res: ImportResult | None, problems: list[str], error: str, routes: bool = False
) -> dict[str, Any]:
    """The JSON form of one file's import (with ``routes``: its route report)."""
    if res is None:
        return {"file": path, "matched": False, "error": error}
    g = res.game
    ours = res.values()
    d = res.divergence
    return {
        "file": path,
        "title": g.tables.id,
        "players": len(g.players),
        "actions": res.kept_count,
        "raw_actions": res.raw_count,
        "routes_checked": res.routes_checked,
        "stopped_at": res.stopped_at,
        "values": {n: {"ours": v, "file": res.expected.get(n)} for n, v in ours.items()},
        "end": {
            "ours": g.state.end_reason if g.is_over else None,
            "file": res.expected_reason,
        },
        "divergence": None
        if d is None
        else {"action_id": d.action_id, "action": d.action, "reason": d.reason},
        "mismatches": problems,
        "notes": res.notes,
        "matched": not problems,
        **({"routes": _json_routes(res)} if routes else {}),
    }


def cmd_import(
    paths: list[str] | str,
    *,
    save: str | None = None,
    check: bool = False,
    routes: bool = False,
    at: int | None = None,
    fmt: str = "text",
) -> int:
    """Import and replay 18xx.games exports; see the module doc for exit codes.

    One file: the full report.  Several files: one line each (``ok`` or the first
    difference) and ``N/M matched``; ``--format json`` gives every report as one document.
    With ``--check`` the exit code is 1 unless every file matches."""
    files = [paths] if isinstance(paths, str) else list(paths)
    if save is not None and len(files) != 1:
        print("eighteen import-18xx: error: --save takes one file", file=sys.stderr)
        return 2
    if save is not None:
        try:
            check_file_target(save)
        except OSError as exc:
            return _err(f"cannot write {save}: {exc}")
    single = len(files) == 1 and fmt == "text"
    reports: list[dict[str, Any]] = []
    matched = 0
    diverged = False
    failed_input = False
    skipped = 0
    for path in files:
        res: ImportResult | None = None
        error = ""
        try:
            data = read_export(path)
            if len(files) > 1 and not EXPORT_KEYS & data.keys():
                # e.g. a MANIFEST.json beside the games of a folder: not counted
                skipped += 1
                if fmt != "json":
                    print(
                        f"skip {path}: not an 18xx.games export (no {', '.join(sorted(EXPORT_KEYS))})"
                    )
                continue
            res = import_game(data, optimal_routes=routes, stop_at=at)
        except ExportError as exc:  # the message names the file or the action
            error = str(exc).removeprefix(f"{path}: ")
            failed_input = True
        problems = res.mismatches() if res is not None else [error]
        if res is not None and not problems:
            matched += 1
        if res is not None and res.divergence is not None:
            diverged = True
        if fmt == "json":
            reports.append(_json_report(path, res, problems, error, routes))
        elif single:
            if res is None:
                return _err(error if path in error else f"{path}: {error}")
            _print_single(path, res, routes=routes, check=check, problems=problems)
        else:
            print(printable(_summary_line(path, res, problems, error)), file=sys.stdout)
            if routes and res is not None:
                print(f"     routes: {_routes_total(res)}", file=sys.stdout)
    total = len(files) - skipped
    if fmt == "json":
        doc = {"files": reports, "matched": matched, "total": total, "skipped": skipped}
        print(json.dumps(doc, indent=2), file=sys.stdout)
    elif not single:
        print(f"{matched}/{total} matched", file=sys.stdout)
    if save is not None and res is not None:
        try:
            write_save(res.game, save)
        except OSError as exc:  # the reason, not the temporary file's name
            return _err(f"cannot write {save}: {exc.strerror or exc}")
        print(f"saved {len(res.game.log)} actions to {save}", file=sys.stderr)
    if check:
        return 0 if matched == total else 1
    return 1 if diverged or failed_input else 0


def _print_single(
    path: str, res: ImportResult, *, routes: bool, check: bool, problems: list[str]
) -> None:
    print_report(path, res, sys.stdout)
    if routes:
        print_route_report(res, sys.stdout)
    if res.divergence is not None:
        print_divergence(res.divergence, sys.stdout)
    print_notes(res, sys.stdout)
    if check:
        if problems:
            print("check: FAILED", file=sys.stdout)
            for p in problems:
                print(f"  {printable(p)}", file=sys.stdout)
        elif res.stopped_at is not None:
            print(f"check: OK up to action {res.stopped_at} (no divergence, money kept)")
        else:
            print("check: OK (every value, the end reason and the money match)", file=sys.stdout)


def cmd_export(
    path: str, *, out: str | None = None, force: bool = False, at: int | None = None
) -> int:
    """Write one of our saves (its first ``at`` actions) in the 18xx.games export format
    (stdout without --out)."""
    if out is not None:
        try:
            check_file_target(out)
        except OSError as exc:
            return _err(f"cannot write {out}: {exc}", "export-18xx")
    try:
        doc = export_game(open_save(path, force=force, at=at, command="export-18xx"))
    except SaveError as exc:
        return _err(str(exc), "export-18xx")
    except ExportError as exc:
        return _err(f"{path}: {exc}", "export-18xx")
    text = json.dumps(doc, separators=(",", ":")) + "\n"
    if out is None:
        sys.stdout.write(text)
        return 0
    try:
        write_atomic(out, text)
    except OSError as exc:
        return _err(f"cannot write {out}: {exc.strerror or exc}", "export-18xx")
    print(f"wrote {len(doc['actions'])} actions to {out}", file=sys.stderr)
    return 0
