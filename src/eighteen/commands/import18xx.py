"""`eighteen import-18xx` and `eighteen export-18xx`: 18xx.games game exports.

``import-18xx GAME.json [--save OUT.json] [--check]`` replays an export in our engine (see
:mod:`eighteen.io.games18xx`) and prints each player's final value beside the file's
``result``; ``--check`` exits 1 unless every value and the end reason match exactly, and
prints the first diverging action.  ``export-18xx OURSAVE.json [--out FILE]`` writes one
of our saves in the 18xx.games format.

Bad input gives one line on stderr (naming the action id) and exit code 1.
"""

from __future__ import annotations

import json
import sys
from typing import TextIO

from eighteen.commands.output import check_file_target, write_atomic
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


def _err(msg: str) -> int:
    print(f"eighteen: {msg}", file=sys.stderr)
    return 1


def print_divergence(d: Divergence, out: TextIO) -> None:
    """The first diverging action: its id, its JSON, and our engine's reason."""
    print(f"first divergence: action {d.action_id}", file=out)
    print(f"  action: {json.dumps(d.action, separators=(',', ':'))}", file=out)
    print(f"  our engine: {d.reason}", file=out)


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
    width = max(len(n) for n in ours)
    print(f"  {'player':<{width}}  {'ours':>7}  {'file':>7}", file=out)
    for name, value in sorted(ours.items(), key=lambda kv: -kv[1]):
        want = res.expected.get(name)
        mark = "" if want is None or want == value else "   <- differs"
        shown = "-" if want is None else str(want)
        print(f"  {name:<{width}}  {value:>7}  {shown:>7}{mark}", file=out)
    ours_end = g.state.end_reason if g.is_over else "not over"
    file_end = res.expected_reason or "-"
    if res.expected_reason in END_REASONS:
        file_end = f"{res.expected_reason} ({END_REASONS[res.expected_reason]})"
    print(f"  end: ours {ours_end}, file {file_end}", file=out)


def print_route_report(res: ImportResult, out: TextIO) -> None:
    """Per corporation turn: logged revenue beside the optimum, and the total left behind."""
    print("routes: logged vs optimal revenue per run", file=out)
    left = 0
    for aid, corp, logged, best, proven in res.route_report:
        gap = best - logged
        left += max(gap, 0)
        mark = "" if gap == 0 else f"   left ${gap}"
        bound = "" if proven else " (budget ran out: best found, not proven)"
        print(f"  action {aid:>5} {corp:<6} ${logged:>5}  best ${best:>5}{mark}{bound}", file=out)
    runs = len(res.route_report)
    print(f"  {runs} runs; money left on the table: ${left}", file=out)


def cmd_import(
    path: str, *, save: str | None = None, check: bool = False, routes: bool = False
) -> int:
    """Import and replay an 18xx.games export; see the module doc for exit codes."""
    try:
        data = read_export(path)
    except ExportError as exc:  # the message names the file
        return _err(str(exc))
    try:
        res = import_game(data, optimal_routes=routes)
    except ExportError as exc:
        return _err(f"{path}: {exc}")
    print_report(path, res, sys.stdout)
    if routes:
        print_route_report(res, sys.stdout)
    if res.divergence is not None:
        print_divergence(res.divergence, sys.stdout)
    if save:
        try:
            write_save(res.game, save)
        except OSError as exc:
            return _err(f"cannot write {save}: {exc}")
        print(f"saved {len(res.game.log)} actions to {save}", file=sys.stderr)
    problems = res.mismatches()
    if check:
        if problems:
            print("check: FAILED", file=sys.stdout)
            for p in problems:
                print(f"  {p}", file=sys.stdout)
            return 1
        print("check: OK (every value, the end reason and the money match)", file=sys.stdout)
        return 0
    return 1 if res.divergence is not None else 0


def cmd_export(
    path: str, *, out: str | None = None, force: bool = False, at: int | None = None
) -> int:
    """Write one of our saves (its first ``at`` actions) in the 18xx.games export format
    (stdout without --out)."""
    if out is not None:
        try:
            check_file_target(out)
        except OSError as exc:
            return _err(f"cannot write {out}: {exc}")
    try:
        doc = export_game(open_save(path, force=force, at=at))
    except SaveError as exc:
        return _err(str(exc))
    except ExportError as exc:
        return _err(f"{path}: {exc}")
    text = json.dumps(doc, separators=(",", ":")) + "\n"
    if out is None:
        sys.stdout.write(text)
        return 0
    try:
        write_atomic(out, text)
    except OSError as exc:
        return _err(f"cannot write {out}: {exc.strerror or exc}")
    print(f"wrote {len(doc['actions'])} actions to {out}", file=sys.stderr)
    return 0
