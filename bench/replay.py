"""Replay benchmark over the 18xx.games 1830 corpus: every game imported, every route
re-derived, every action validated by the engine.

For each game it prints the µs per action (logged actions processed, auto actions
included), the µs per action in each tenth of the game, the ratio of the last tenth to the
first, and its growth (below); then the worst game and the corpus totals (among them the
first and the last tenth of all the games together, each game weighed by its actions: the
ratio of the tenths over the corpus, beside the worst game's).  Each game is
imported ``RUNS`` times and the fastest run counts; each tenth is that tenth's fastest run (every run does the
same work, and a burst of load that slows one tenth of one run is not counted against
it: on a shared machine the tenths of one run move by a third); each run starts cold, the board's
caches emptied (a run after another of the same game would find its positions, graphs,
reaches and checked routes kept, and re-derive nothing).  Times are the CPU time of this
process (``time.process_time``), so that other work on a shared machine does not count.
Targets (issue 15): at most 150 µs per action on every game, last tenth no more than 1.5x
the first.

The ratio of the tenths is two things at once: whether the same actions cost more late in
a game than early, and the mix of actions (a first tenth of bids and share purchases, a
last one of tile lays, routes and dividends).  The growth column takes the first apart:
the time of the last tenth's actions against the time the same actions took, type by type,
in the game's first half (its mean µs per action of each type; a type the first half lacks
counts at its own cost).  1.00x: no kind of action costs more late than early.

On a shared machine a burst of load still slows a run (the CPU time of a process grows
when others thrash its caches), so a best of a few runs made back to back may keep a slow
one.  ``--runs N`` makes N rounds, each a fresh process replaying the whole corpus once;
the best of the rounds counts per game (and per tenth).  ``--vs TREE`` alternates each round with a
process running the code of another checkout (its ``src``; e.g. a ``git worktree`` of the
commit before a change), so that both meet the same load, and compares them game by game.

``--by-type`` adds, over all the games, the µs per action of each logged action type in the
first and in the last tenth of the games (which actions a tenth holds, and what each costs
there: a game's late tenths are operating rounds, its first the auction and stock rounds),
then each type found in both tenths with its cost late against early (a cost that grows
with the game shows there, apart from the mix of actions).  With ``--runs`` each type's
time in each tenth is its fastest round's (every round does the same actions); with
``--vs`` the tables of both checkouts are printed, the one before first.

Run: .venv/bin/python bench/replay.py [RUNS] [--runs N] [--vs TREE] [--by-type] [EXPORT.json ...]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parents[1] / "tests/fixtures/18xx-games"
TARGET_US = 150.0
CLOCK = time.process_time
TARGET_RATIO = 1.5

#: (µs per action, µs per action in each tenth, actions, growth: :func:`growth`)
Timing = tuple[float, list[float], int, float]
#: (tenth, action type) -> [seconds, actions], over the games measured (--by-type)
BY_TYPE: dict[tuple[str, str], list[float]] = {}
#: :data:`BY_TYPE` as a round's process prints it: [tenth, action type, seconds, actions]
TypeRows = list[tuple[str, str, float, int]]


def corpus() -> list[Path]:
    """The 1830 corpus: the generated games, then the real game 29133."""
    return [*sorted((FIXTURES / "1830-generated").glob("g*.json")), FIXTURES / "1830/29133.json"]


def read_game(path: Path) -> tuple[dict[str, Any], Any]:
    """An export and its title's tables; :class:`ExportError` (its message names the
    file) when the file is no export, names no title or one with no compiled tables."""
    from eighteen.io.games18xx import ExportError, export_tables, read_export

    data = read_export(path)
    try:
        return data, export_tables(data)
    except ExportError as exc:
        raise ExportError(f"{path}: {exc}") from None


def unreadable(paths: list[Path]) -> str | None:
    """Why the first of ``paths`` that :func:`read_game` refuses cannot be replayed (it
    names the file); None when every one can (each read once, before any timing)."""
    from eighteen.io.games18xx import ExportError

    for path in paths:
        try:
            read_game(path)
        except ExportError as exc:
            return str(exc)
    return None


def import_with(data: dict[str, Any], title: Any, step: Callable[..., None]) -> Any:
    """One cold import of ``data`` (the board's caches emptied first) with ``step`` in
    place of ``Importer.step`` while it runs (``step`` calls the method it stands for, read
    before as ``games18xx.Importer.step``): the import's result."""
    from eighteen.engine import network
    from eighteen.io import games18xx

    original = games18xx.Importer.step
    # (a deliberate patch: a plain function put in place of the method while it runs)
    games18xx.Importer.step = step  # type: ignore[method-assign]
    try:
        network.board_of(title).clear_caches()
        return games18xx.import_game(data, title)
    finally:
        games18xx.Importer.step = original  # type: ignore[method-assign]


def bounds(n: int) -> list[int]:
    """Where each tenth of ``n`` steps starts, and the end (bench/instructions.py cuts there too)."""
    return [k * n // 10 for k in range(11)]


def tenths(times: list[float]) -> list[float]:
    """Mean µs per action in each tenth of the game."""
    cut = bounds(len(times))
    out = []
    for k in range(10):
        part = times[cut[k] : cut[k + 1]] or [0.0]
        out.append(sum(part) / len(part) * 1e6)
    return out


def growth(kinds: list[str], times: list[float]) -> float:
    """The time of the actions of the last tenth against the time they would take at the
    game's first-half cost of each action type (its mean; a type the first half lacks
    counts at its own cost): above 1, the same kind of action costs more late than early."""
    half = len(times) // 2
    price: dict[str, list[float]] = {}
    for kind, dt in zip(kinds[:half], times[:half], strict=True):
        acc = price.setdefault(kind, [0.0, 0])
        acc[0] += dt
        acc[1] += 1
    late = range(bounds(len(times))[9], len(times))
    spent = sum(times[i] for i in late)
    priced = sum(
        price[kinds[i]][0] / price[kinds[i]][1] if kinds[i] in price else times[i] for i in late
    )
    return spent / priced if priced else 1.0


def bench(path: Path, runs: int) -> Timing | None:
    """The fastest of ``runs`` imports of one export (None: the replay is not exact)."""
    from eighteen.engine import network
    from eighteen.io import games18xx
    from eighteen.io.games18xx import Importer

    data, title = read_game(path)
    best: Timing | None = None
    best_times: list[float] = []
    best_kinds: list[str] = []
    original = games18xx.Importer.step
    for _ in range(runs):
        network.board_of(title).clear_caches()  # each run cold: nothing kept from the last
        gc.collect()
        times: list[float] = []
        kinds: list[str] = []

        def timed(
            imp: Importer,
            aid: int | str,
            a: dict[str, Any],
            times: list[float] = times,
            kinds: list[str] = kinds,
        ) -> None:
            t0 = CLOCK()
            try:
                original(imp, aid, a)
            finally:
                times.append(CLOCK() - t0)
                kinds.append(str(a.get("type")))

        games18xx.Importer.step = timed  # type: ignore[method-assign,assignment]
        try:
            t0 = CLOCK()
            res = games18xx.import_game(data, title)
            total = CLOCK() - t0
        finally:
            games18xx.Importer.step = original  # type: ignore[method-assign]
        if res.mismatches():
            print(f"{path.name}: the replay is not exact: {res.mismatches()[0]}")
            return None
        per = total / max(res.applied, 1) * 1e6
        parts = tenths(times)
        if best is not None:  # each tenth's fastest run (the same work in every run)
            parts = [min(a, b) for a, b in zip(parts, best[1], strict=True)]
        if best is None or per < best[0]:
            best = (per, parts, res.applied, growth(kinds, times))
            best_times, best_kinds = times, kinds
        else:
            best = (best[0], parts, best[2], best[3])
    cut = bounds(len(best_kinds))  # the tenths of :func:`tenths`: the first and the last
    for tenth, part in (("first", slice(0, cut[1])), ("last", slice(cut[9], cut[10]))):
        for kind, dt in zip(best_kinds[part], best_times[part], strict=True):
            acc = BY_TYPE.setdefault((tenth, kind), [0.0, 0])
            acc[0] += dt
            acc[1] += 1
    return best


def fastest_types(rounds: list[TypeRows]) -> dict[tuple[str, str], list[float]]:
    """:data:`BY_TYPE` of several rounds over the same games: per (tenth, action type), the
    fewest seconds any round took (its count of actions is every round's)."""
    out: dict[tuple[str, str], list[float]] = {}
    for rows in rounds:
        for tenth, kind, secs, n in rows:
            got = out.get((tenth, kind))
            if got is None or secs < got[0]:
                out[(tenth, kind)] = [secs, n]
    return out


def by_type(table: dict[tuple[str, str], list[float]] = BY_TYPE) -> None:
    """Print ``table`` (default :data:`BY_TYPE`): each action type's µs per action and
    share of the time in the first and the last tenth of the games, then the types of both
    tenths side by side."""
    rows = {t: {k: v for (tt, k), v in table.items() if tt == t} for t in ("first", "last")}
    for tenth, part in rows.items():
        total = sum(v[0] for v in part.values())
        count = sum(v[1] for v in part.values())
        print(f"\n{tenth} tenth of the games: {count} actions, {total / count * 1e6:.1f} µs each")
        for kind, (secs, n) in sorted(part.items(), key=lambda kv: -kv[1][0])[:10]:
            print(f"  {kind:<20}{int(n):>7}{secs / n * 1e6:>9.1f} µs{secs / total * 100:>7.1f}%")
    us = {t: {k: secs / n * 1e6 for k, (secs, n) in part.items()} for t, part in rows.items()}
    first, last = us["first"], us["last"]
    print("\neach action type late against early (µs per action, the types of both tenths):")
    for kind in sorted(first.keys() & last.keys(), key=lambda k: -rows["last"][k][0]):
        early, late = first[kind], last[kind]
        print(f"  {kind:<20}{early:>9.1f}{late:>9.1f}{late / early if early else 0:>8.2f}x")


def measure(paths: list[Path], runs: int) -> dict[str, Timing] | None:
    """Each game's best of ``runs`` imports, in this process."""
    from eighteen.io import games18xx
    from eighteen.io.games18xx import read_export

    games18xx.import_game(read_export(paths[0]))  # warm up: tables, board, caches
    out = {}
    for path in paths:
        got = bench(path, runs)
        if got is None:
            return None
        out[path.stem] = got
    return out


def engine() -> str:
    """How the engine runs in this process: compiled or pure Python (eighteen.native; a
    checkout older than it runs pure Python)."""
    try:
        from eighteen import native
    except ImportError:
        return "engine: pure Python (no eighteen.native)"
    return native.describe()


def in_process(tree: Path, paths: list[Path]) -> tuple[dict[str, Timing], str, TypeRows] | None:
    """One import of each game in a fresh process running the code of ``tree``: the
    timings, how its engine ran, and its :data:`BY_TYPE` rows."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    cmd = [sys.executable, __file__, "1", "--json", *map(str, paths)]
    done = subprocess.run(cmd, env=env, cwd=tree, capture_output=True, text=True)
    if done.returncode != 0:
        print(done.stdout + done.stderr)
        return None
    doc = json.loads(done.stdout)
    rows = [(str(t), str(k), float(secs), int(n)) for t, k, secs, n in doc["by_type"]]
    return {k: (v[0], v[1], v[2], v[3]) for k, v in doc["games"].items()}, doc["engine"], rows


def best_of(rounds: list[dict[str, Timing]]) -> dict[str, Timing]:
    """Per game, the fastest round's µs per action (and growth), and each tenth's fastest
    round."""
    out = {}
    for k in rounds[0]:
        per, _, n, grown = min((r[k] for r in rounds), key=lambda t: t[0])
        out[k] = (per, [min(r[k][1][i] for r in rounds) for i in range(10)], n, grown)
    return out


def summary(label: str, got: dict[str, Timing], rows_too: bool = True) -> dict[str, float]:
    """Print the table of ``got`` and its totals; returns the totals."""
    rows = []
    if rows_too:
        print(
            f"{'game':<16}{'actions':>8}{'µs/act':>9}  tenths (µs per action){'':>40}"
            "last/first  growth"
        )
    for name, (per, parts, n, grown) in got.items():
        ratio = parts[-1] / parts[0] if parts[0] else float("inf")
        rows.append((name, n, per, ratio, grown))
        if rows_too:
            shown = " ".join(f"{x:5.0f}" for x in parts)
            print(f"{name:<16}{n:>8}{per:>9.1f}  {shown}  {ratio:5.2f}  {grown:10.2f}")
    worst = max(rows, key=lambda r: r[2])
    worst_ratio = max(rows, key=lambda r: r[3])
    worst_growth = max(rows, key=lambda r: r[4])
    actions = sum(r[1] for r in rows)
    mean = sum(r[1] * r[2] for r in rows) / actions
    over = [r[0] for r in rows if r[2] > TARGET_US]
    steep = [r[0] for r in rows if r[3] > TARGET_RATIO]
    print(f"\n{label}: {len(rows)} games, {actions} actions")
    print(f"  mean:        {mean:7.1f} µs per action")
    print(f"  worst game:  {worst[0]} {worst[2]:.1f} µs per action (target {TARGET_US:.0f})")
    print(
        f"  worst ratio: {worst_ratio[0]} last tenth {worst_ratio[3]:.2f}x the first "
        f"(target {TARGET_RATIO}x)"
    )
    print(f"  over {TARGET_US:.0f} µs: {len(over)} games; ratio over {TARGET_RATIO}: {len(steep)}")
    # (each tenth's µs per action weighted by the game's actions: a tenth of every game)
    first = sum(n * parts[0] for _, parts, n, _ in got.values()) / actions
    last = sum(n * parts[-1] for _, parts, n, _ in got.values()) / actions
    tenths_ratio = last / first if first else float("inf")
    print(
        f"  tenths:      first {first:.1f}, last {last:.1f} µs per action over the games "
        f"({tenths_ratio:.2f}x)"
    )
    growths = [r[4] for r in rows]
    print(
        f"  growth:      mean {sum(growths) / len(growths):.2f}x, worst {worst_growth[0]} "
        f"{worst_growth[4]:.2f}x, over {TARGET_RATIO}x: {sum(1 for g in growths if g > TARGET_RATIO)}"
        " (the last tenth against the same actions at their first-half cost)"
    )
    return {
        "mean": mean,
        "worst": worst[2],
        "over": len(over),
        "ratio": worst_ratio[3],
        "growth": worst_growth[4],
        "tenths": tenths_ratio,
    }


def compared(was: dict[str, float], now: dict[str, float]) -> str:
    """``--vs``'s last line: the totals of :func:`summary` before and after."""
    return (
        f"mean {was['mean']:.1f} -> {now['mean']:.1f} µs per action; worst game "
        f"{was['worst']:.1f} -> {now['worst']:.1f}; over {TARGET_US:.0f} µs {was['over']:.0f} -> "
        f"{now['over']:.0f}; worst ratio {was['ratio']:.2f} -> {now['ratio']:.2f}; the games' "
        f"last tenth against their first {was['tenths']:.2f} -> {now['tenths']:.2f}; worst growth "
        f"{was['growth']:.2f} -> {now['growth']:.2f}"
    )


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "items",
        nargs="*",
        metavar="[RUNS] EXPORT",
        help="imports per game in this process (default 3), then 18xx.games exports "
        "(default: the corpus)",
    )
    ap.add_argument("--runs", dest="rounds", type=int, default=0, help="rounds, fresh processes")
    ap.add_argument("--vs", type=Path, help="another checkout to compare with, round by round")
    ap.add_argument(
        "--by-type", action="store_true", help="µs per action type, first and last tenth"
    )
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # for --vs rounds
    a = ap.parse_intermixed_args(argv[1:])
    items = list(a.items)
    runs = int(items.pop(0)) if items and items[0].isdigit() else 3
    rounds, as_json = a.rounds, a.json
    vs = a.vs.resolve() if a.vs is not None else None
    files = [Path(p).resolve() for p in items]
    why = unreadable(files)  # (before any round starts)
    if why is not None:
        print(f"replay.py: {why}", file=sys.stderr)
        return 1
    paths = files or corpus()
    if as_json:
        got = measure(paths, runs)
        if got is None:
            return 1
        rows = [[t, k, v[0], v[1]] for (t, k), v in BY_TYPE.items()]
        print(json.dumps({"games": got, "engine": engine(), "by_type": rows}))
        return 0
    if not rounds and vs is None:
        got = measure(paths, runs)
        if got is None:
            return 1
        summary(f"best of {runs} runs each ({engine()})", got)
        if a.by_type:
            by_type()
        return 0
    here = Path(__file__).resolve().parents[1]
    trees = [here] if vs is None else [vs, here]
    results: dict[Path, list[dict[str, Timing]]] = {t: [] for t in trees}
    types: dict[Path, list[TypeRows]] = {t: [] for t in trees}
    engines: dict[Path, str] = {}
    for k in range(max(rounds, 1)):
        for tree in trees if k % 2 == 0 else trees[::-1]:
            ran = in_process(tree, paths)
            if ran is None:
                return 1
            results[tree].append(ran[0])
            engines[tree] = ran[1]
            types[tree].append(ran[2])
        print(f"round {k + 1} of {max(rounds, 1)} done", file=sys.stderr)
    n = max(rounds, 1)
    if vs is None:
        summary(f"best of {n} rounds ({engines[here]})", best_of(results[here]))
        if a.by_type:
            by_type(fastest_types(types[here]))
        return 0
    old, new = best_of(results[vs]), best_of(results[here])
    print(f"{'game':<16}{'actions':>8}{'before':>9}{'after':>9}  {'ratio before':>12}{'after':>7}")
    for name in old:
        (p0, t0, n0, _), (p1, t1, _, _) = old[name], new[name]
        r0 = t0[-1] / t0[0] if t0[0] else float("inf")
        r1 = t1[-1] / t1[0] if t1[0] else float("inf")
        print(f"{name:<16}{n0:>8}{p0:>9.1f}{p1:>9.1f}  {r0:>12.2f}{r1:>7.2f}")
    was = summary(f"before ({vs}, {engines[vs]}), best of {n} rounds", old, rows_too=False)
    now = summary(f"after ({here}, {engines[here]}), best of {n} rounds", new, rows_too=False)
    print("\n" + compared(was, now))
    if a.by_type:
        for tree, label in ((vs, "before"), (here, "after")):
            print(f"\n{label} ({tree}), each type's fastest of {n} rounds:")
            by_type(fastest_types(types[tree]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
