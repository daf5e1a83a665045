"""How far a faster track layer could take the ratio of the tenths (issue 15, target 2).

The plan for a typed core (docs/design.md, eleventh pass) makes the track layer fast: the
graph, the reach and its walk, the lay scan, the route check and the route finder
(``engine/map.py``, ``engine/routes.py``, ``engine/routefinder.py``).  This benchmark
bounds what that can give the ratio of a game's last tenth to its first: it replays each
game from source under :mod:`cProfile`, once for its first tenth and once for its last
(the tenths of bench/replay.py; each import cold, the board's caches emptied; the fastest
of ``--runs`` imports counts for each tenth, default 5), and splits each tenth's time into the
track layer's own time and the rest (the rules, the step machinery, the importer).  A
built-in function's time (a dict lookup, a sort) goes to the module of the function that
called it.  Then it prints the ratio as it is, and the ratio were the track layer to cost
nothing: the best any rewrite of that layer alone can reach.

The figures are those of a profiled run of the engine's sources: the profiler adds a cost
to every call, so the rest, which makes more and smaller calls, weighs a little more than
in a compiled run.  They are for reading shares, not times.

Run: .venv/bin/python bench/layers.py [--runs N] [EXPORT.json ...]   (default: six corpus games)
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

# (bench/ is this script's directory: first on the path)
from replay import FIXTURES, bounds

DEFAULT = [
    FIXTURES / "1830" / "29133.json",
    *(
        FIXTURES / "1830-generated" / f"{g}.json"
        for g in ("g2p_s2003", "g3p_s3012", "g4p_s4001", "g5p_s5002", "g6p_s6004")
    ),
]
#: The modules of the track layer (the typed core's part), by their path's end.
LAYER = ("engine/map.py", "engine/routes.py", "engine/routefinder.py")

#: A profile's entries: (file, line, function) -> (calls, primitive calls, own time,
#: time with callees, {caller: (calls, primitive calls, own time, time with callees)}).
Entries = Mapping[tuple[str, int, str], tuple[Any, ...]]


def split(entries: Entries, layer: tuple[str, ...] = LAYER) -> tuple[float, float]:
    """(all the time, the layer's part) of a profile: each function's own time, a
    built-in's (file ``~``) counted for its callers, in the parts each caller had."""
    total = layer_time = 0.0
    for (path, _, _), (_, _, own, _, callers) in entries.items():
        total += own
        if path == "~":
            layer_time += sum(c[2] for k, c in callers.items() if k[0].endswith(layer))
        elif path.endswith(layer):
            layer_time += own
    return total, layer_time


def tenth_profile(data: dict, title: Any, lo: int, hi: int) -> Entries:
    """The profile of the steps ``lo`` to ``hi`` of a cold import of ``data``."""
    from eighteen.engine import network
    from eighteen.io import games18xx

    original = games18xx.Importer.step
    prof = cProfile.Profile()
    seen = [0]

    def step(imp: Any, aid: int | str, a: dict) -> None:
        k = seen[0]
        seen[0] = k + 1
        if not lo <= k < hi:
            original(imp, aid, a)
            return
        prof.enable()
        try:
            original(imp, aid, a)
        finally:
            prof.disable()

    # (a deliberate patch: a plain function put in place of the method while it runs)
    games18xx.Importer.step = step  # type: ignore[method-assign,assignment]
    try:
        network.board_of(title).clear_caches()
        res = games18xx.import_game(data, title)
    finally:
        games18xx.Importer.step = original  # type: ignore[method-assign]
    if res.mismatches():
        raise SystemExit(f"the replay is not exact: {res.mismatches()[0]}")
    return pstats.Stats(prof).stats  # type: ignore[attr-defined]


def steps(data: dict, title: Any) -> int:
    """How many steps an import of ``data`` takes (``Importer.step`` calls)."""
    from eighteen.io import games18xx

    original = games18xx.Importer.step
    seen = [0]

    def step(imp: Any, aid: int | str, a: dict) -> None:
        seen[0] += 1
        original(imp, aid, a)

    # (a deliberate patch: a plain function put in place of the method while it runs)
    games18xx.Importer.step = step  # type: ignore[method-assign,assignment]
    try:
        games18xx.import_game(data, title)
    finally:
        games18xx.Importer.step = original  # type: ignore[method-assign]
    return seen[0]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="layers.py",
        description=__doc__.split("\n\n")[0],
        epilog="Run: .venv/bin/python bench/layers.py [--runs N] [EXPORT.json ...]",
    )
    parser.add_argument("exports", nargs="*", type=Path, metavar="EXPORT", help="exports")
    parser.add_argument(
        "--runs", type=int, default=5, help="imports per tenth, the fastest counts (default 5)"
    )
    args = parser.parse_args(argv)
    # the engine from its sources (set before the package is imported): the profiler
    # sees no function of a compiled module
    os.environ["EIGHTEEN_NATIVE"] = "0"
    from eighteen.engine import tables
    from eighteen.io.games18xx import read_export

    paths = args.exports or DEFAULT
    print(f"{'game':<13}{'first tenth':>22}{'last tenth':>22}{'ratio':>8}{'without':>9}")
    print(f"{'':<13}{'µs/act  track layer':>22}{'µs/act  track layer':>22}{'':>8}{'layer':>9}")
    for path in paths:
        try:
            data = read_export(path)
        except (OSError, ValueError) as exc:
            print(f"layers.py: cannot read {path}: {exc}", file=sys.stderr)
            return 1
        title = tables.load_title(str(data["title"]))
        cut = bounds(steps(data, title))
        got = []
        for lo, hi in ((cut[0], cut[1]), (cut[9], cut[10])):
            total, layer = min(
                split(tenth_profile(data, title, lo, hi)) for _ in range(max(args.runs, 1))
            )
            got.append((total / (hi - lo) * 1e6, layer / (hi - lo) * 1e6))
        (ft, fl), (lt, ll) = got
        print(
            f"{path.stem:<13}{ft:>8.0f}  {fl / ft:>9.0%}   {lt:>8.0f}  {ll / lt:>9.0%}   "
            f"{lt / ft:>6.2f}{(lt - ll) / (ft - fl):>9.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
