"""How far a faster track layer could take the ratio of the tenths (issue 15, target 2).

The plan for a typed core (docs/design.md, eleventh pass) makes the track layer fast: the
graph, the reach and its walk, the lay scan, the route check and the route finder
(``engine/position.py``, ``engine/face.py``, ``engine/graph.py``, ``engine/reach.py``,
``engine/map.py``, ``engine/routes.py``, ``engine/route_check.py``,
``engine/route_reading.py``, ``engine/routefinder.py``, ``engine/route_network.py``,
``engine/route_search.py``).  This benchmark
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

``--perf`` measures the compiled engine instead (``make native``), with Linux's ``perf``
sampling the processor's clock: each tenth is replayed ``--runs`` times (default 100)
under ``perf record``, sampled only while the tenth runs (switched on and off through
perf's control pipe), with the call stack of each sample.  Only the samples taken inside
a step of the import count (those of the switching do not); a sample counts for the
track layer when a frame of its stack is a function of one of the
layer's compiled modules (with the interpreter's functions they call).  Its microseconds
are the samples' clock (perf's sampling adds to them), for comparing the tenths, not for
timing the engine; over a hundred runs a game's figures still move by a tenth or so.

``--functions N`` (with ``--perf``) then shows where the time of the tenths goes: for the
first and the last tenth of all the games given together, the engine's compiled functions
with the largest share of the last tenth's samples, each counted once per sample with it
on the stack (inclusive: a function with what it calls), as a share of the tenth's
samples and as µs per action.  A function is named as its source names it
(``engine.map.Board.reach``), whichever of Cython's functions for it (its wrapper, its
body, a clone the compiler made) was on the stack.

Run: .venv/bin/python bench/layers.py [--perf [--functions N]] [--runs N] [EXPORT.json ...]
(default: six corpus games)
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

# (bench/ is this script's directory: first on the path)
from replay import FIXTURES, bounds, import_with, read_game

DEFAULT = [
    FIXTURES / "1830" / "29133.json",
    *(
        FIXTURES / "1830-generated" / f"{g}.json"
        for g in ("g2p_s2003", "g3p_s3012", "g4p_s4001", "g5p_s5002", "g6p_s6004")
    ),
]
#: The modules of the track layer (the typed core's part), by their path's end.
LAYER = (
    "engine/position.py",
    "engine/face.py",
    "engine/graph.py",
    "engine/reach.py",
    "engine/map.py",
    "engine/routes.py",
    "engine/route_check.py",
    "engine/route_reading.py",
    "engine/routefinder.py",
    "engine/route_network.py",
    "engine/route_search.py",
)
#: The same modules by name (``--perf``: a compiled module's file is named after it).
LAYER_MODULES = tuple("eighteen." + p.removesuffix(".py").replace("/", ".") for p in LAYER)
#: ``--perf``'s sampling rate (Hz) of the processor's clock: each sample copies the stack
#: (16 KiB) into perf's buffer, a third of the processor's first-level data cache, so the
#: samples are kept few and the tenth replayed many times (:data:`PERF_RUNS`) instead.
PERF_HZ = 2000
#: ``--perf``'s imports of a game per tenth (a first tenth of bids is a few milliseconds).
PERF_RUNS = 100
#: The compiled function of a step of the import (``Importer.step``, as Cython names it):
#: a sample with it on its stack is taken inside a step of the tenth.
STEP_FRAME = re.compile(r"Importer_\d+step$")

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


def tenth_profile(data: dict[str, Any], title: Any, lo: int, hi: int) -> Entries:
    """The profile of the steps ``lo`` to ``hi`` of a cold import of ``data``."""
    from eighteen.io import games18xx

    original = games18xx.Importer.step
    prof = cProfile.Profile()
    seen = [0]

    def step(imp: Any, aid: int | str, a: dict[str, Any]) -> None:
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

    res = import_with(data, title, step)
    if res.mismatches():
        raise SystemExit(f"the replay is not exact: {res.mismatches()[0]}")
    stats: Mapping[tuple[str, int, str], tuple[Any, ...]] = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    return stats


def perf_samples(script: str) -> Iterator[list[tuple[str, str]]]:
    """The samples of ``perf script -F ip,sym,dso`` output (a call stack per sample): for
    each, the (function, file) of each frame (a file: a module's file name,
    ``[kernel.kallsyms]``, ``inlined``...), innermost first."""
    for block in script.split("\n\n"):
        frames = []
        for line in block.splitlines():
            line = line.strip()
            if not line.endswith(")") or "(" not in line:
                continue
            cut = line.rindex("(")
            function = line[:cut].strip().partition(" ")[2].strip()
            frames.append((function, os.path.basename(line[cut + 1 : -1])))
        if frames:
            yield frames


def step_samples(script: str) -> list[list[tuple[str, str]]]:
    """The samples of ``perf script -F ip,sym,dso`` output (:func:`perf_samples`) taken
    inside the importer's step (a frame of :data:`STEP_FRAME`), not those of the switching
    around it (:func:`perf_child`): the samples that count."""
    return [s for s in perf_samples(script) if any(STEP_FRAME.search(f) for f, _ in s)]


def perf_split(
    samples: list[list[tuple[str, str]]], modules: tuple[str, ...] = LAYER_MODULES
) -> tuple[int, int]:
    """(samples, the layer's samples) of the samples that count (:func:`step_samples`): a
    sample is the layer's when a frame is in the compiled file of one of ``modules``
    (named ``<module>.<abi tag>.so``)."""
    files = tuple(m + "." for m in modules)
    layer = 0
    for frames in samples:
        if any(f.startswith(files) and f.endswith(".so") for _, f in frames):
            layer += 1
    return len(samples), layer


#: A symbol of a function Cython made for a function of the source: its Python wrapper
#: (``pw``), its body (``pf``) or a C function (``f``), then the mangled names.
CYTHON_FUNCTION = re.compile(r"__pyx_(?:pw|pf|f)_(\w+)")
#: A class's part of a mangled name: its length, then a class name (capitalised, maybe
#: after one underscore: a function's name never is), then the separator.
_MANGLED_CLASS = re.compile(r"(\d+)(_?[A-Z]\w*)")


def mangled_modules(root: Path) -> list[tuple[str, str]]:
    """(Cython's mangled prefix, the module's name below the package) of each module of the
    package at ``root`` (``eighteen``'s folder; a package's ``__init__`` is the package), the
    longest prefix first (a module's prefix may begin another's: ``engine.map`` and
    ``engine.map_x``)."""
    out = []
    for f in root.rglob("*.py"):
        parts = (root.name, *f.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out.append(("_".join(f"{len(p)}{p}" for p in parts) + "_", ".".join(parts[1:])))
    return sorted(out, key=lambda pair: (-len(pair[0]), pair[1]))


def function_name(symbol: str, modules: list[tuple[str, str]]) -> str | None:
    """The source's name (``module.Class.function``, the module below the package) of the
    function a compiled symbol is Cython's code for; None for any other symbol.  Cython
    writes each part of a name after its length (``8eighteen_6engine_3map_5Board_reach``)
    and a Python function's name after a count (``4Game_21apply``); a compiler's clone adds
    a suffix (``.constprop.0``).  ``modules``: :func:`mangled_modules`."""
    m = CYTHON_FUNCTION.fullmatch(symbol.split(".", 1)[0])
    if m is None:
        return None
    rest = m.group(1)
    for prefix, module in modules:
        if not rest.startswith(prefix):
            continue
        tail, name = rest[len(prefix) :], module
        c = _MANGLED_CLASS.match(tail)
        if c is not None:
            n, end = int(c.group(1)), len(c.group(1))
            if len(c.group(2)) > n and tail[end + n] == "_":
                name += "." + tail[end : end + n]
                tail = tail[end + n + 1 :]
        function = tail.lstrip("0123456789")
        return f"{name}.{function}" if function else None
    return None


def perf_functions(
    samples: list[list[tuple[str, str]]], modules: list[tuple[str, str]]
) -> Counter[str]:
    """{function: samples with it on their stack} of the samples that count
    (:func:`step_samples`): each sample counted once for every compiled function of the
    package on its stack (named by :func:`function_name`)."""
    counts: Counter[str] = Counter()
    for frames in samples:
        named = {function_name(f, modules) for f, _ in frames}
        named.discard(None)
        counts.update(named)  # type: ignore[arg-type]
    return counts


def function_table(
    first: tuple[int, Counter[str], int],
    last: tuple[int, Counter[str], int],
    top: int,
) -> list[str]:
    """The lines of ``--functions``: each tenth given as (samples, samples by function,
    actions sampled: a tenth's actions times its runs, summed over the games); the ``top``
    functions by their share of the last tenth's samples (then by name), each with its
    share of each tenth and its µs per action there (a sample: ``1 / PERF_HZ`` s)."""
    (fs, fc, fa), (ls, lc, la) = first, last
    lines = [
        f"{'function (inclusive)':<52}{'first tenth':>16}{'last tenth':>16}",
        f"{'':<52}{'share  µs/act':>16}{'share  µs/act':>16}",
    ]
    us = 1e6 / PERF_HZ
    for name in sorted(lc, key=lambda k: (-lc[k], k))[:top]:
        lines.append(
            f"{name:<52}{fc[name] / fs:>8.1%}{fc[name] * us / fa:>8.1f}"
            f"{lc[name] / ls:>8.1%}{lc[name] * us / la:>8.1f}"
        )
    return lines


def perf_tenth(path: Path, lo: int, hi: int, runs: int) -> str:
    """The ``perf script -F ip,sym,dso`` output of ``runs`` cold imports of ``path`` under
    ``perf record``, sampled only while its steps ``lo`` to ``hi`` run (:func:`perf_child`)."""
    with tempfile.TemporaryDirectory(prefix="layers-") as tmp:
        ctl, ack, data = (os.path.join(tmp, n) for n in ("ctl", "ack", "perf.data"))
        os.mkfifo(ctl)
        os.mkfifo(ack)
        # (a fixed period, not a rate perf adapts: switched on and off, an adapted period
        # starts short again each time, and a short window gets more samples than its time)
        period = str(1_000_000_000 // PERF_HZ)  # (the clock's period, in nanoseconds)
        record = ["perf", "record", "-q", "-e", "cpu-clock", "-c", period]
        record += ["--call-graph", "dwarf,16384", "-D", "-1"]
        record += ["--control", f"fifo:{ctl},{ack}", "-o", data, "--"]
        child = [sys.executable, os.path.abspath(__file__), "--perf-child", str(path)]
        child += [str(lo), str(hi), str(runs), ctl, ack]
        done = subprocess.run(record + child, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"layers.py: perf record failed: {done.stderr.strip()[-400:]}")
        shown = subprocess.run(
            ["perf", "script", "-i", data, "-F", "ip,sym,dso"],
            capture_output=True,
            text=True,
            check=False,
        )
        if shown.returncode != 0:
            raise SystemExit(f"layers.py: perf script failed: {shown.stderr.strip()[-400:]}")
        return shown.stdout


def perf_child(path: Path, lo: int, hi: int, runs: int, ctl: str, ack: str) -> None:
    """Run by :func:`perf_tenth` under ``perf record`` (started with its sampling off):
    an import of ``path`` unsampled, then ``runs`` cold imports, the sampling switched on
    at the step ``lo`` and off after the step before ``hi``, through perf's control
    pipes (once a tenth: switched at every step, perf's own work between the steps
    would leave each step a cold cache, the short ones the coldest)."""
    from eighteen.io import games18xx

    data, title = read_game(path)
    res = games18xx.import_game(data, title)  # (unsampled: what a process makes once is made)
    if res.mismatches():
        raise SystemExit(f"the replay is not exact: {res.mismatches()[0]}")
    original = games18xx.Importer.step
    with open(ctl, "w") as control, open(ack) as answer:

        def switch(command: str) -> None:
            control.write(command + "\n")
            control.flush()
            answer.readline()

        seen = [0]

        def step(imp: Any, aid: int | str, a: dict[str, Any]) -> None:
            k = seen[0]
            seen[0] = k + 1
            if k == lo:
                switch("enable")
            try:
                original(imp, aid, a)
            finally:
                if k == hi - 1:
                    switch("disable")

        for _ in range(max(runs, 1)):
            seen[0] = 0
            import_with(data, title, step)


def steps(data: dict[str, Any], title: Any) -> int:
    """How many steps an import of ``data`` takes (``Importer.step`` calls)."""
    from eighteen.io import games18xx

    original = games18xx.Importer.step
    seen = [0]

    def step(imp: Any, aid: int | str, a: dict[str, Any]) -> None:
        seen[0] += 1
        original(imp, aid, a)

    import_with(data, title, step)
    return seen[0]


def main(argv: list[str]) -> int:
    if argv[:1] == ["--perf-child"]:  # (perf_tenth's own run, under perf record)
        export, first, end, imports, ctl, ack = argv[1:]
        perf_child(Path(export), int(first), int(end), int(imports), ctl, ack)
        return 0
    parser = argparse.ArgumentParser(
        prog="layers.py",
        description=__doc__.split("\n\n")[0],
        epilog="Run: .venv/bin/python bench/layers.py [--perf] [--runs N] [EXPORT.json ...]",
    )
    parser.add_argument("exports", nargs="*", type=Path, metavar="EXPORT", help="exports")
    parser.add_argument(
        "--runs",
        type=int,
        help="imports per tenth: the fastest counts (default 5); with --perf, all of them "
        f"are sampled (default {PERF_RUNS})",
    )
    parser.add_argument(
        "--perf",
        action="store_true",
        help="sample the compiled engine with Linux's perf instead of profiling its sources",
    )
    parser.add_argument(
        "--functions",
        type=int,
        metavar="N",
        help="with --perf: the N compiled functions with the largest share of the last "
        "tenths (inclusive), over all the games, in both tenths",
    )
    args = parser.parse_args(argv)
    if args.functions is not None and (not args.perf or args.functions < 1):
        parser.error("--functions takes a count of at least 1, with --perf")
    runs = max(args.runs if args.runs is not None else PERF_RUNS if args.perf else 5, 1)
    if args.perf:
        if shutil.which("perf") is None:
            print(
                "layers.py: --perf needs Linux's perf (apt-get install linux-perf)", file=sys.stderr
            )
            return 1
    else:
        # the engine from its sources (set before the package is imported): the profiler
        # sees no function of a compiled module
        os.environ["EIGHTEEN_NATIVE"] = "0"
    from eighteen.engine import map as board_map
    from eighteen.io.games18xx import ExportError

    if args.perf and not str(board_map.__file__).endswith(".so"):
        print(
            "layers.py: --perf samples the compiled engine: build it (make native)", file=sys.stderr
        )
        return 1

    paths = args.exports or DEFAULT
    import eighteen

    modules = mangled_modules(Path(eighteen.__file__).parent) if args.functions else []
    # each tenth's samples, samples by function and actions sampled, over the games
    sampled, by_function, actions = [0, 0], [Counter[str](), Counter[str]()], [0, 0]
    print(f"{'game':<13}{'first tenth':>22}{'last tenth':>22}{'ratio':>8}{'without':>9}")
    print(f"{'':<13}{'µs/act  track layer':>22}{'µs/act  track layer':>22}{'':>8}{'layer':>9}")
    for path in paths:
        try:
            data, title = read_game(path)
        except ExportError as exc:  # its message names the file
            print(f"layers.py: {exc}", file=sys.stderr)
            return 1
        cut = bounds(steps(data, title))
        got = []
        for k, (lo, hi) in enumerate(((cut[0], cut[1]), (cut[9], cut[10]))):
            if args.perf:
                counted = step_samples(perf_tenth(path, lo, hi, runs))
                samples, in_layer = perf_split(counted)
                if args.functions:
                    sampled[k] += samples
                    by_function[k].update(perf_functions(counted, modules))
                    actions[k] += (hi - lo) * runs
                scale = 1e6 / PERF_HZ / ((hi - lo) * runs)  # (a sample: 1/PERF_HZ s)
                got.append((samples * scale, in_layer * scale))
                continue
            total, layer = min(split(tenth_profile(data, title, lo, hi)) for _ in range(runs))
            got.append((total / (hi - lo) * 1e6, layer / (hi - lo) * 1e6))
        line = row(path.stem, got[0], got[1])
        if line is None:
            print(
                f"layers.py: {path.stem}: a tenth had no sample outside the track layer "
                "(more --runs)",
                file=sys.stderr,
            )
            return 1
        print(line)
    if args.functions:  # (every tenth had samples: row() refuses a game whose tenth has none)
        early, late = ((sampled[k], by_function[k], actions[k]) for k in (0, 1))
        print()
        print("\n".join(function_table(early, late, args.functions)))
    return 0


def row(name: str, first: tuple[float, float], last: tuple[float, float]) -> str | None:
    """A game's line of the table from its first and last tenth (each: µs per action, and
    the track layer's part of them); None when a tenth has nothing outside the layer (no
    sample at all, or the layer's only), which leaves the ratios undefined."""
    (ft, fl), (lt, ll) = first, last
    if ft <= fl or lt <= ll:
        return None
    return (
        f"{name:<13}{ft:>8.0f}  {fl / ft:>9.0%}   {lt:>8.0f}  {ll / lt:>9.0%}   "
        f"{lt / ft:>6.2f}{(lt - ll) / (ft - fl):>9.2f}"
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
