"""What a typed core would give the reach: the engine's walk against the same walk over C
arrays (bench/typed_walk.pyx, compiled here with Cython; it is a measurement, not part of
the engine).

Issue 15's last target, a game's last tenth at most 1.5x its first, asks late operating
actions to cost about what a bid costs, which no tuning of the engine as written gives
(docs/design.md, eleventh pass).  The option left is a typed core: the graph's tables,
the reach and the route check over C arrays.  This measures its first piece.  Each
export is imported up to a share of its actions (``--at``).  For every corporation with a
station it then times three things, ``--repeat`` times each:

- the engine's reach (``TrackGraph.reach``: the walk, its edges and its sets);
- the engine's walk alone (``TrackGraph._follow``);
- the typed walk.

It checks that the typed walk takes the very paths and reaches the very stops of the
engine's, and exits 1 naming the corporation when it does not.  It prints the µs per walk
of each, and the µs to read the graph's tables into arrays.  A typed core would pay off
only if the graph were patched as arrays: that reading costs more than the walks save.

Needs Cython (the dev extra) and a C compiler.
Run: .venv/bin/python bench/typed_walk.py [--at 0.3,0.6,0.9] [--repeat N] [EXPORT.json ...]
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from replay import read_game  # (bench/ is this script's directory: first on the path)

BENCH = Path(__file__).resolve().parent
FIXTURES = BENCH.parent / "tests/fixtures/18xx-games"
#: The default exports: a long two-player game, the real game, a five-player game.
GAMES = ("1830-generated/g2p_s2010.json", "1830/29133.json", "1830-generated/g5p_s5002.json")
CLOCK = time.perf_counter


def build(scratch: Path) -> ModuleType:
    """Compile typed_walk.pyx in ``scratch`` and import it."""
    shutil.copy(BENCH / "typed_walk.pyx", scratch / "typed_walk_core.pyx")
    cmd = [sys.executable, "-m", "Cython.Build.Cythonize", "-i", "-3", "-q"]
    done = subprocess.run(
        [*cmd, "typed_walk_core.pyx"], cwd=scratch, capture_output=True, text=True
    )
    built = sorted(scratch.glob("typed_walk_core*.so")) + sorted(
        scratch.glob("typed_walk_core*.pyd")
    )
    if done.returncode != 0 or not built:
        lines = (done.stderr or done.stdout).strip().splitlines()
        raise SystemExit(
            f"typed_walk.py: the typed walk does not compile: {' | '.join(lines[-3:])}"
        )
    spec = importlib.util.spec_from_file_location("typed_walk_core", built[0])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def blocked_stops(graph: Any, corp: str) -> bytes:
    """Per stop of ``graph``, 1 where a walk of ``corp`` stops (``TrackGraph.passable``: an
    off-board, a city whose slots other corporations fill)."""
    return bytes(0 if graph.passable(s, corp) else 1 for s in range(len(graph.stops)))


def per_call(repeat: int, run: Any, *args: Any) -> tuple[float, Any]:
    """(µs per call of ``run(*args)`` over ``repeat`` calls, the last result)."""
    got = None
    t0 = CLOCK()
    for _ in range(repeat):
        got = run(*args)
    return (CLOCK() - t0) / repeat * 1e6, got


def measure(core: ModuleType, path: Path, at: float, repeat: int) -> list[str] | str:
    """The row of one export at one share of its actions, or why the walks differ."""

    from eighteen.engine import network
    from eighteen.io import games18xx

    data, title = read_game(path)
    ids = [a["id"] for a in data["actions"]]
    res = games18xx.import_game(data, title, stop_at=ids[min(len(ids) - 1, int(len(ids) * at))])
    state = res.game.state.map
    board = network.board_of(title)
    graph = board.graph(state)
    t0 = CLOCK()
    arrays = core.CGraph(graph, board)
    read_us = (CLOCK() - t0) * 1e6
    corps = sorted({c for cities in state.tokens.values() for city in cities for c in city})
    reach_us = walk_us = typed_us = 0.0
    paths = 0
    for corp in corps:
        starts = graph.station_stops(corp)
        blocked = blocked_stops(graph, corp)
        tokens = graph.state.token_snapshot()

        def engine_walk(corp: str = corp, starts: list[int] = starts, tokens: Any = tokens) -> Any:
            w = graph._new_walk(corp, frozenset(), starts, tokens)
            graph._follow(w, list(starts))
            return w

        us, reach = per_call(repeat, graph.reach, corp)
        reach_us += us
        us, walked = per_call(repeat, engine_walk)
        walk_us += us
        us, (taken, reached) = per_call(repeat, arrays.walk, starts, blocked)
        typed_us += us
        joined = {s for s, flag in enumerate(walked.joined) if flag}
        if set(taken) != set(walked.followed()) or set(reached) != joined:
            return f"{path.name} at {at:.0%}: the typed walk of {corp} differs from the engine's"
        paths += len(taken)
    n = max(len(corps), 1)
    return [
        path.stem,
        f"{at:.0%}",
        str(len(corps)),
        str(paths),
        f"{reach_us / n:.1f}",
        f"{walk_us / n:.1f}",
        f"{typed_us / n:.2f}",
        f"{walk_us / typed_us:.1f}x" if typed_us else "-",
        f"{read_us:.0f}",
    ]


HEAD = ["game", "at", "corps", "paths", "reach µs", "walk µs", "typed µs", "walk/typed", "read µs"]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("exports", nargs="*", type=Path, help="18xx.games exports (default: three)")
    ap.add_argument("--at", default="0.3,0.6,0.9", help="shares of each game's actions")
    ap.add_argument("--repeat", type=int, default=200, help="walks timed per corporation")
    a = ap.parse_args(argv[1:])
    try:
        shares = [float(x) for x in a.at.split(",")]
    except ValueError:
        ap.error(f"--at takes shares such as 0.3,0.9, not {a.at!r}")
    if not all(0 <= x < 1 for x in shares) or a.repeat < 1:
        ap.error("--at shares are from 0 up to 1, --repeat at least 1")
    paths = a.exports or [FIXTURES / g for g in GAMES]
    from eighteen.io.games18xx import ExportError

    if importlib.util.find_spec("Cython") is None:
        print("typed_walk.py: needs Cython (pip install -e '.[dev]')", file=sys.stderr)
        return 1
    scratch = Path(tempfile.mkdtemp(prefix="typed-walk-"))
    try:
        core = build(scratch)
        rows = [HEAD]
        for path in paths:
            for at in shares:
                try:
                    row = measure(core, path, at, a.repeat)
                except ExportError as exc:
                    row = f"typed_walk.py: {exc}"
                if isinstance(row, str):
                    print(row, file=sys.stderr)
                    return 1
                rows.append(row)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    widths = [max(len(r[k]) for r in rows) for k in range(len(HEAD))]
    for r in rows:
        print(
            "  ".join(
                x.rjust(w) if k else x.ljust(w)
                for k, (x, w) in enumerate(zip(r, widths, strict=True))
            )
        )
    print("(µs per walk, averaged over the corporations with a station; read: the graph's")
    print(" tables read into arrays, once per position)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
