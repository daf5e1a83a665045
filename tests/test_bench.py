"""Every benchmark script explains itself: ``--help`` prints its usage and exits 0 without
running anything (a benchmark is a tool people run by hand; a traceback is not an answer)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from eighteen.engine import network, tables
from eighteen.io.games18xx import import_game, read_export

BENCH = Path(__file__).resolve().parents[1] / "bench"
#: The real game 29133 (18xx.games), the last of the corpus.
GAME_29133 = BENCH.parent / "tests/fixtures/18xx-games/1830/29133.json"
SCRIPTS = sorted(p.name for p in BENCH.glob("*.py"))


def _bench(script: str) -> Any:
    """A benchmark script loaded as a module (bench/ on the path while it loads: a script
    may import replay.py, as instructions.py and layers.py do)."""
    spec = importlib.util.spec_from_file_location(f"{script[:-3]}_bench", BENCH / script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(BENCH))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH))
    return module


def test_every_script_is_listed() -> None:
    assert SCRIPTS == [
        "compile.py",
        "engine.py",
        "fuzz.py",
        "instructions.py",
        "layers.py",
        "replay.py",
        "routes.py",
        "simulate.py",
        "soak.py",
        "takeover.py",
        "typed_walk.py",
    ]


@pytest.mark.parametrize("script", SCRIPTS)
def test_help_prints_usage(script: str) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / script), "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith(f"usage: {script} [-h]")


def test_replay_by_type_over_rounds_counts_each_round_s_actions_once() -> None:
    """``--by-type`` with ``--runs``: the rounds' processes send their tables, and the
    types of 29133's first and last tenths are counted once (the fastest round's time)."""
    game = str(GAME_29133)
    done = subprocess.run(
        [sys.executable, str(BENCH / "replay.py"), "1", "--runs", "2", "--by-type", game],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    tenths: dict[str, list[tuple[str, int]]] = {}
    part: list[tuple[str, int]] = []
    for line in done.stdout.splitlines():
        if line.endswith(" µs each"):
            part = tenths.setdefault(line.split()[0], [])
        elif line.startswith("  ") and line.rstrip().endswith("%"):
            kind, n = line.split()[:2]
            part.append((kind, int(n)))
    assert {k: sorted(v) for k, v in tenths.items()} == {
        "first": [
            ("bid", 14),
            ("buy_shares", 9),
            ("par", 3),
            ("pass", 8),
            ("program_buy_shares", 1),
        ],
        "last": [
            ("bankrupt", 1),
            ("buy_train", 5),
            ("dividend", 6),
            ("lay_tile", 7),
            ("pass", 9),
            ("run_routes", 6),
            ("sell_shares", 2),
        ],
    }
    assert "first tenth of the games: 35 actions" in done.stdout
    assert "last tenth of the games: 36 actions" in done.stdout


def test_replay_by_type_of_rounds_keeps_each_type_s_fastest_round() -> None:
    replay = _bench("replay.py")
    got = replay.fastest_types(
        [
            [("first", "bid", 0.004, 100), ("last", "lay_tile", 0.009, 15)],
            [("first", "bid", 0.005, 100), ("last", "lay_tile", 0.0045, 15)],
        ]
    )
    assert got == {("first", "bid"): [0.004, 100], ("last", "lay_tile"): [0.0045, 15]}


def test_replay_by_type_sets_each_type_late_against_early(
    capsys: pytest.CaptureFixture[str],
) -> None:
    replay = _bench("replay.py")
    replay.by_type(
        {
            ("first", "bid"): [0.004, 100],
            ("first", "lay_tile"): [0.003, 10],
            ("last", "lay_tile"): [0.0045, 15],
            ("last", "run_routes"): [0.006, 20],
        }
    )
    out = capsys.readouterr().out.splitlines()
    assert out[-2:] == [
        "each action type late against early (µs per action, the types of both tenths):",
        "  lay_tile                300.0    300.0    1.00x",
    ]
    assert out[1:4] == [
        "first tenth of the games: 110 actions, 63.6 µs each",
        "  bid                     100     40.0 µs   57.1%",
        "  lay_tile                 10    300.0 µs   42.9%",
    ]


def test_replay_runs_each_import_cold() -> None:
    """A run after another of the same game would find its positions kept by the board:
    each run empties the board's caches first, so the walks counted after two runs
    (``Board.walks``, reset with the caches) are those of one cold import.  Walks
    counted before the runs are dropped (a run that did not empty the caches would add
    to them), and a second run finding the first's reaches would walk less."""
    replay = _bench("replay.py")
    title = tables.load_title("1830")
    board = network.board_of(title)
    board.clear_caches()
    import_game(read_export(replay.FIXTURES / "1830/29133.json"), title)
    cold = dict(board.walks)
    assert cold["fresh"] > 0 and cold["on"] > 0
    board.walks["fresh"] += 1_000_000  # (as if walked before the runs)
    got = replay.bench(replay.FIXTURES / "1830/29133.json", 2)
    assert got is not None and got[2] == 354  # the actions replayed
    assert board.walks == cold
    assert board is network.board_of(tables.load_title("1830"))


def test_instructions_counts_each_import_under_callgrind() -> None:
    """The count of each game's import, from callgrind's dump after it: one row per game,
    its actions those the replay processed (``bench/replay.py`` counts 184 and 354); a game
    named by a number (29133) is a game, not a process to dump."""
    fixtures = BENCH.parent / "tests/fixtures/18xx-games"
    exports = [fixtures / "1830-generated/g5p_s5007.json", fixtures / "1830/29133.json"]
    done = subprocess.run(
        [sys.executable, str(BENCH / "instructions.py"), *map(str, exports)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert lines[0] == "game             actions  k instr/act"
    for line, (game, actions) in zip(lines[1:3], [("g5p_s5007", 184), ("29133", 354)], strict=True):
        row = re.fullmatch(rf"{game} +{actions} +(\d+\.\d)", line)
        assert row is not None and 100 < float(row.group(1)) < 10_000  # thousands per action
    assert re.fullmatch(
        r"this checkout \(engine: (pure Python( \(EIGHTEEN_NATIVE=0\))?|compiled, \d+ of the \d+ modules "
        r"imported(, \d+ of them guided by a profile)?)\): "
        r"2 games, 538 actions, \d+\.\dk instructions per action",
        lines[-1],
    )


def test_instructions_refuses_a_tree_that_is_no_checkout(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "instructions.py"), "--vs", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        f"instructions.py: error: --vs {tmp_path}: not a checkout of this project (no src/eighteen)"
    )


def test_instructions_compares_the_checkouts_game_by_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    instructions = _bench("instructions.py")
    before = {"g2p_s2003": (469, 400_000_000), "29133": (354, 200_000_000)}
    after = {"g2p_s2003": (469, 380_000_000), "29133": (354, 204_000_000)}
    instructions.compare(after, before, "/tmp/old", "/tmp/new")
    assert capsys.readouterr().out.splitlines() == [
        "game             actions    before     after   change  (k instr/act)",
        "g2p_s2003            469     852.9     810.2    -5.0%",
        "29133                354     565.0     576.3     2.0%",
        "",
        "2 games: 600.0M -> 584.0M instructions (-2.7%; before: /tmp/old, after: /tmp/new)",
    ]
    assert instructions.corpus()[-1].name == "29133.json"  # the corpus of replay.py


def test_instructions_runs_each_tree_from_a_path_of_one_length(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two checkouts at paths of other lengths are each run from ``<temporary
    folder>/tree``, a link to the checkout (the count moves with the path's length)."""
    instructions = _bench("instructions.py")
    ran: list[tuple[str, str, str]] = []

    def run(cmd: list[str], *, env: dict[str, str], cwd: Path, **kw: Any) -> Any:
        ran.append((str(cwd), env["PYTHONPATH"], str(Path(cwd).resolve())))
        return subprocess.CompletedProcess(cmd, 1, "", "refused here")

    monkeypatch.setattr(instructions.subprocess, "run", run)
    short, long = tmp_path / "a", tmp_path / "a-much-longer-name"
    for tree in (short, long):
        (tree / "src").mkdir(parents=True)
        assert instructions.count(tree, []) is None
    (cwd_a, path_a, real_a), (cwd_b, path_b, real_b) = ran
    assert (Path(cwd_a).name, Path(cwd_b).name, len(cwd_a)) == ("tree", "tree", len(cwd_b))
    assert (path_a, path_b) == (f"{cwd_a}/src", f"{cwd_b}/src")
    assert (real_a, real_b) == (str(short), str(long))


def _instructions_module(monkeypatch: pytest.MonkeyPatch) -> object:
    module = _bench("instructions.py")
    return module


def test_instructions_tenths_are_those_of_replay(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--tenths cuts a game where bench/replay.py does (354 steps: 35 or 36 a tenth) and
    prints each tenth's thousands of instructions per action and last against first."""
    instructions: Any = _instructions_module(monkeypatch)
    assert instructions.bounds(354) == [0, 35, 70, 106, 141, 177, 212, 247, 283, 318, 354]
    first = [(35, 7_000_000), *[(35, 10_500_000)] * 8, (36, 18_000_000)]
    instructions.tenths_table("here", {"29133": first, "g": [(1, 300_000)] * 10})
    assert capsys.readouterr().out.splitlines() == [
        "game           actions  tenths (k instructions per action)" + " " * 28 + "last/first",
        "29133              351     200   300   300   300   300   300   300   300   300   500"
        "    2.50",
        "g                   10     300   300   300   300   300   300   300   300   300   300"
        "    1.00",
        "",
        "here: 2 games; worst ratio: 29133 last tenth 2.50x the first; over 1.5x: 1;"
        " mean ratio 1.75x",
    ]


def _instructions_on_g5p_s5007(option: str) -> list[str]:
    """The lines ``bench/instructions.py`` prints with ``option`` for g5p_s5007 (184
    steps), under callgrind; it must succeed and say nothing on its error stream."""
    export = BENCH.parent / "tests/fixtures/18xx-games/1830-generated/g5p_s5007.json"
    done = subprocess.run(
        [sys.executable, str(BENCH / "instructions.py"), option, str(export)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (done.returncode, done.stderr) == (0, "")
    return done.stdout.splitlines()


def test_instructions_counts_each_tenth_under_callgrind() -> None:
    """Under callgrind, --tenths counts the ten parts of a game's 184 steps apart: each
    row is the game, its actions, ten counts and the last tenth's against the first's."""
    lines = _instructions_on_g5p_s5007("--tenths")
    row = re.fullmatch(r"g5p_s5007 +184 +((?:\d+ +){10})(\d+\.\d\d)", lines[1])
    assert row is not None, lines[1]
    each = [int(x) for x in row.group(1).split()]
    assert all(100 < x < 10_000 for x in each)  # thousands per action
    assert abs(float(row.group(2)) - each[-1] / each[0]) < 0.02
    shown = row.group(2)
    summary = re.search(
        rf"1 games; worst ratio: g5p_s5007 last tenth {shown}x the first;"
        rf" over 1.5x: ([01]); mean ratio {shown}x$",
        lines[-1],
    )
    assert summary is not None, lines[-1]
    # (over 1.5x counts the unrounded ratio: a ratio shown as 1.50 may be either side)
    if shown != "1.50":
        assert summary.group(1) == str(int(float(shown) > 1.5))


def test_instructions_refuses_tenths_with_vs(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "instructions.py"), "--tenths", "--vs", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == "instructions.py: error: --tenths or --vs, not both"


def test_replay_best_of_takes_each_tenth_from_its_fastest_round() -> None:
    """A game's µs per action is its fastest round's; each tenth is that tenth's fastest
    round (a burst of load in one tenth of a round is not counted)."""
    replay = _bench("replay.py")
    slow_end = [10.0] * 9 + [40.0]
    slow_start = [30.0] + [20.0] * 9
    got = replay.best_of([{"g": (13.0, slow_end, 50, 1.25)}, {"g": (20.0, slow_start, 50, 0.5)}])
    assert got == {"g": (13.0, [10.0] * 9 + [20.0], 50, 1.25)}  # (the fastest round's growth)


def test_replay_growth_prices_the_last_tenth_at_the_first_half() -> None:
    """Growth: the last tenth's time against its actions at the first half's mean cost of
    each type; a type the first half lacks counts at its own cost."""
    replay = _bench("replay.py")
    # 20 actions: the first half bids at 1 and lays at 2 and 4 (mean 3); the last tenth
    # (actions 18 and 19) a lay at 6 and a bankruptcy at 5, which the first half lacks
    kinds = ["bid"] * 8 + ["lay_tile"] * 2 + ["bid"] * 8 + ["lay_tile", "bankrupt"]
    times = [1.0] * 8 + [2.0, 4.0] + [1.0] * 8 + [6.0, 5.0]
    assert replay.growth(kinds, times) == 11.0 / 8.0  # (6 + 5) against (3 + 5)
    assert replay.growth(kinds[:18] + ["bid", "bid"], times[:18] + [1.0, 1.0]) == 1.0
    assert replay.growth([], []) == 1.0


def test_typed_walk_walks_what_the_engine_walks() -> None:
    """The typed walk (bench/typed_walk.pyx, compiled by the script) takes the paths the
    engine's walk takes at two positions of 29133 (it exits 1 when they differ); the
    corporations and paths of each position are the game's own."""
    done = subprocess.run(
        [sys.executable, str(BENCH / "typed_walk.py"), "--at", "0.3,0.9", "--repeat", "2"]
        + [str(GAME_29133)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (done.returncode, done.stderr) == (0, "")
    rows = [line.split() for line in done.stdout.splitlines()]
    assert rows[0][:4] == ["game", "at", "corps", "paths"]
    assert [r[:4] for r in rows[1:3]] == [["29133", "30%", "3", "40"], ["29133", "90%", "7", "121"]]
    assert all(float(r[6]) > 0 for r in rows[1:3])  # (the typed walk's µs: timed)


SCRIPTS_READING_EXPORTS = ["typed_walk.py", "layers.py", "replay.py", "instructions.py"]


def _refused(script: str, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run a benchmark script on bad input: what it printed and its status (a traceback
    there fails the test: bad input gets one line)."""
    cmd = [sys.executable, str(BENCH / script), *args]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=cwd)
    assert "Traceback" not in done.stderr
    return done


@pytest.mark.parametrize("script", SCRIPTS_READING_EXPORTS)
def test_a_script_names_an_export_it_cannot_read(script: str, tmp_path: Path) -> None:
    done = _refused(script, str(tmp_path / "none.json"))
    assert done.returncode == 1
    assert done.stderr.startswith(f"{script}: cannot read {tmp_path / 'none.json'}: ")


@pytest.mark.parametrize("script", SCRIPTS_READING_EXPORTS)
@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("{}", "the export names no title ('title')"),
        ('{"title": "1829"}', "unknown title '1829': no compiled tables"),
    ],
)
def test_a_script_names_an_export_with_no_title_it_knows(
    script: str, text: str, why: str, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    path.write_text(text)
    done = _refused(script, str(path))
    assert done.returncode == 1
    assert done.stderr.startswith(f"{script}: {path}: {why}")


def test_typed_walk_names_the_corporation_whose_walk_differs() -> None:
    """A typed walk that takes other paths than the engine's is refused, naming where."""
    typed_walk = _bench("typed_walk.py")

    class Arrays:
        def __init__(self, graph: Any, board: Any) -> None:
            pass

        def walk(self, starts: list[int], blocked: bytes) -> tuple[list[int], list[int]]:
            return [], []  # no path taken: every corporation here has track

    class Core:
        CGraph = Arrays

    got = typed_walk.measure(Core, typed_walk.FIXTURES / "1830/29133.json", 0.3, 1)
    assert got == "29133.json at 30%: the typed walk of B&O differs from the engine's"


def test_replay_summary_gives_each_game_its_growth(capsys: pytest.CaptureFixture[str]) -> None:
    """The table's last column is each game's growth; the totals give its mean, its worst
    game and the games over 1.5x, and return the worst."""
    replay = _bench("replay.py")
    got = replay.summary(
        "two games",
        {"a": (100.0, [50.0] * 9 + [100.0], 40, 1.25), "b": (80.0, [40.0] * 10, 60, 1.75)},
    )
    out = capsys.readouterr().out.splitlines()
    assert out[1].split()[-2:] == ["2.00", "1.25"]  # game a: last/first, growth
    assert out[2].split()[-2:] == ["1.00", "1.75"]
    assert out[-2:] == [
        # first tenths (50 x 40 + 40 x 60) / 100, last (100 x 40 + 40 x 60) / 100
        "  tenths:      first 44.0, last 64.0 µs per action over the games (1.45x)",
        "  growth:      mean 1.50x, worst b 1.75x, over 1.5x: 1 "
        "(the last tenth against the same actions at their first-half cost)",
    ]
    want = {"mean": 88.0, "worst": 100.0, "over": 0, "ratio": 2.0, "growth": 1.75}
    assert got == {**want, "tenths": 64.0 / 44.0}


def test_replay_vs_compares_each_total() -> None:
    replay = _bench("replay.py")
    was = {"mean": 48.24, "worst": 61.0, "over": 0, "ratio": 2.444, "growth": 1.39, "tenths": 1.304}
    now = {"mean": 46.31, "worst": 59.5, "over": 1, "ratio": 2.38, "growth": 1.444, "tenths": 1.31}
    assert replay.compared(was, now) == (
        "mean 48.2 -> 46.3 µs per action; worst game 61.0 -> 59.5; over 150 µs 0 -> 1; "
        "worst ratio 2.44 -> 2.38; the games' last tenth against their first 1.30 -> 1.31; "
        "worst growth 1.39 -> 1.44"
    )


def test_layers_counts_a_builtin_for_its_callers_layer() -> None:
    """The track layer's time is its functions' own time and the part of a built-in's
    time its functions called; the rest is everything else."""
    layers = _bench("layers.py")
    walk = ("/x/src/eighteen/engine/map.py", 10, "_follow")
    rule = ("/x/src/eighteen/engine/rounds/or_track.py", 5, "is_active")
    entries = {
        walk: (4, 4, 0.5, 0.9, {rule: (4, 4, 0.5, 0.9)}),
        rule: (2, 2, 0.25, 1.5, {}),
        ("~", 0, "<method 'get' of 'dict' objects>"): (
            9,
            9,
            0.375,
            0.375,
            {walk: (6, 6, 0.25, 0.25), rule: (3, 3, 0.125, 0.125)},
        ),
    }
    assert layers.split(entries) == (1.125, 0.75)
    assert layers.split(entries, ("engine/rounds/or_track.py",)) == (1.125, 0.375)


def test_layers_splits_each_tenth_of_a_game() -> None:
    """29133's first tenth is its private auction, which asks nothing of the track layer;
    its last tenth is operating rounds, which do; without the layer's time the ratio of
    the tenths is lower."""
    done = subprocess.run(
        [sys.executable, str(BENCH / "layers.py"), "--runs", "1"] + [str(GAME_29133)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stderr) == (0, "")
    head, _, row = done.stdout.splitlines()
    assert head.split() == ["game", "first", "tenth", "last", "tenth", "ratio", "without"]
    game, _, first_share, _, last_share, ratio, without = row.split()
    assert (game, first_share) == ("29133", "0%")
    assert int(last_share.rstrip("%")) > 0 and float(without) < float(ratio)


#: ``perf script -F ip,sym,dso`` output of four samples (innermost frame first): one in
#: the walk under a step, one in a rule under a step, one in the switching (no step on
#: its stack), one in the kernel under the walk under a step.
_PERF_SCRIPT = """python 1 [000] 1.0: 500000 cpu-clock:
\t    1a2b dict_get (/usr/lib/libpython3.11.so.1.0)
\t    3c4d __pyx_f_8eighteen_6engine_3map__walk (/x/eighteen.engine.map.cpython-311-x86_64-linux-gnu.so)
\t    5e6f __pyx_pw_8eighteen_2io_16games18xx_import_8Importer_9step (/x/eighteen.io.games18xx_import.cpython-311-x86_64-linux-gnu.so)
\t    7a8b _start (/usr/bin/python3.11)

python 1 [000] 1.1: 500000 cpu-clock:
\t    1a2b Py_DECREF (inlined)
\t    1a2b list_dealloc (/usr/lib/libpython3.11.so.1.0)
\t    9c0d __pyx_f_8eighteen_6engine_6rounds_8or_track__is_active (/x/eighteen.engine.rounds.or_track.cpython-311-x86_64-linux-gnu.so)
\t    5e6f __pyx_pw_8eighteen_2io_16games18xx_import_8Importer_9step (/x/eighteen.io.games18xx_import.cpython-311-x86_64-linux-gnu.so)

python 1 [000] 1.2: 500000 cpu-clock:
\t    1a2b _PyEval_EvalFrameDefault (/usr/lib/libpython3.11.so.1.0)
\t    2b3c __pyx_pw_8eighteen_2io_16games18xx_import_8Importer_7run (/x/eighteen.io.games18xx_import.cpython-311-x86_64-linux-gnu.so)

python 1 [000] 1.3: 500000 cpu-clock:
\tffffffff8100 _raw_spin_unlock_irqrestore ([kernel.kallsyms])
\t    3c4d __pyx_f_8eighteen_6engine_3map__walk (/x/eighteen.engine.map.cpython-311-x86_64-linux-gnu.so)
\t    5e6f __pyx_pw_8eighteen_2io_16games18xx_import_8Importer_9step (/x/eighteen.io.games18xx_import.cpython-311-x86_64-linux-gnu.so)
"""


def test_layers_perf_reads_each_sample_s_frames() -> None:
    layers = _bench("layers.py")
    got = list(layers.perf_samples(_PERF_SCRIPT))
    assert [len(frames) for frames in got] == [4, 4, 2, 3]
    assert got[1][:2] == [("Py_DECREF", "inlined"), ("list_dealloc", "libpython3.11.so.1.0")]
    assert got[3][0] == ("_raw_spin_unlock_irqrestore", "[kernel.kallsyms]")


def test_layers_perf_counts_the_steps_samples_and_the_layer_s() -> None:
    """Of the four samples, the switching's does not count (no step on its stack); of the
    three left, the walk's two (one in the kernel under it) are the track layer's, the
    rule's is not (a rule's module is the layer's when named so)."""
    layers = _bench("layers.py")
    counted = layers.step_samples(_PERF_SCRIPT)
    assert counted == [s for k, s in enumerate(layers.perf_samples(_PERF_SCRIPT)) if k != 2]
    assert layers.perf_split(counted) == (3, 2)
    assert layers.perf_split(counted, ("eighteen.engine.rounds.or_track",)) == (3, 1)
    assert layers.perf_split(counted, ("eighteen.engine.routes",)) == (3, 0)


def test_layers_perf_child_switches_the_sampling_once_a_tenth(tmp_path: Path) -> None:
    """Under perf (here a stand-in answering its control pipe), the child imports the game
    once unsampled, then for each run switches the sampling on just before the step
    ``lo`` and off just after the step ``hi - 1``: each command lands between the very
    steps it should, in one log kept by both sides."""
    layers = _bench("layers.py")
    from eighteen.io import games18xx

    game = BENCH.parent / "tests/fixtures/18xx-games/1830-generated/g5p_s5007.json"
    data = read_export(game)
    title = tables.load_title(str(data["title"]))
    original = games18xx.Importer.step
    steps = layers.steps(data, title)
    log: list[str] = []

    def logged(imp: Any, aid: int | str, a: dict[str, Any]) -> None:
        log.append("step")
        original(imp, aid, a)

    ctl, ack = tmp_path / "ctl", tmp_path / "ack"
    os.mkfifo(ctl)
    os.mkfifo(ack)

    def perf() -> None:  # (opens the pipes in the order the child does, or both block)
        with open(ctl) as commands, open(ack, "w") as answers:
            for line in commands:
                log.append(line.strip())
                answers.write("ack\n")
                answers.flush()

    stand_in = threading.Thread(target=perf, daemon=True)
    stand_in.start()
    games18xx.Importer.step = logged  # type: ignore[method-assign,assignment]
    try:
        layers.perf_child(game, 5, 9, 2, str(ctl), str(ack))
    finally:
        games18xx.Importer.step = original  # type: ignore[method-assign]
    stand_in.join(timeout=10)
    run = ["step"] * 5 + ["enable"] + ["step"] * 4 + ["disable"] + ["step"] * (steps - 9)
    assert log == ["step"] * steps + run + run


def test_layers_row_gives_the_ratios_or_refuses_a_tenth_all_layer() -> None:
    """A game's line: µs per action and the layer's share of each tenth, the ratio of the
    last to the first, and that ratio with the layer taken out of both; none when a tenth
    has nothing outside the layer (the ratio without it would divide by zero)."""
    layers = _bench("layers.py")
    assert layers.LAYER_MODULES == (
        "eighteen.engine.position",
        "eighteen.engine.face",
        "eighteen.engine.graph",
        "eighteen.engine.reach",
        "eighteen.engine.map",
        "eighteen.engine.routes",
        "eighteen.engine.route_check",
        "eighteen.engine.route_reading",
        "eighteen.engine.routefinder",
        "eighteen.engine.route_network",
        "eighteen.engine.route_search",
    )
    assert layers.row("g", (40.0, 10.0), (90.0, 45.0)) == (
        "g                  40        25%         90        50%     2.25     1.50"
    )
    assert layers.row("g", (40.0, 40.0), (90.0, 45.0)) is None
    assert layers.row("g", (0.0, 0.0), (90.0, 45.0)) is None
    assert layers.row("g", (40.0, 10.0), (0.0, 0.0)) is None


def _package_modules(tmp_path: Path, *modules: str) -> Path:
    """A package folder ``eighteen`` holding empty modules of these dotted names."""
    root = tmp_path / "eighteen"
    for name in modules:
        f = root.joinpath(*name.split(".")).with_suffix(".py")
        f.parent.mkdir(parents=True, exist_ok=True)
        f.touch()
    return root


def test_layers_names_a_compiled_function_as_its_source_does(tmp_path: Path) -> None:
    """Cython's symbols for a function (wrapper, body, C function, a compiler's clone) give
    the source's name: a class's part after its length, a Python function's after its
    count; a module whose mangled name begins another's is told apart; any other symbol
    is no function of the package."""
    layers = _bench("layers.py")
    root = _package_modules(
        tmp_path, "engine.map", "engine.map_x", "io.games18xx_import", "engine.__init__"
    )
    modules = layers.mangled_modules(root)
    assert modules == [
        ("8eighteen_2io_16games18xx_import_", "io.games18xx_import"),
        ("8eighteen_6engine_5map_x_", "engine.map_x"),
        ("8eighteen_6engine_3map_", "engine.map"),
        ("8eighteen_6engine_", "engine"),
    ]
    name = layers.function_name
    assert name("__pyx_f_8eighteen_6engine_3map__walk", modules) == "engine.map._walk"
    assert name("__pyx_f_8eighteen_6engine_3map_5Board_reach", modules) == "engine.map.Board.reach"
    assert name("__pyx_pw_8eighteen_6engine_3map_5Board_21reach", modules) == (
        "engine.map.Board.reach"
    )
    assert name("__pyx_f_8eighteen_6engine_3map_5_Walk_1seen.constprop.0", modules) == (
        "engine.map._Walk.seen"
    )
    assert name("__pyx_pw_8eighteen_6engine_3map_66_joined", modules) == "engine.map._joined"
    assert name("__pyx_pf_8eighteen_6engine_3map_4_may_buy", modules) == "engine.map._may_buy"
    assert name("__pyx_f_8eighteen_6engine_5map_x_run", modules) == "engine.map_x.run"
    assert name("__pyx_pw_8eighteen_2io_16games18xx_import_8Importer_9step", modules) == (
        "io.games18xx_import.Importer.step"
    )
    assert name("__pyx_f_8eighteen_6engine_6helper", modules) == "engine.helper"  # (the package's)
    assert name("__pyx_f_8eighteen_2io_4game_apply", modules) is None  # (no such module)
    assert name("__pyx_tp_dealloc_8eighteen_6engine_3map__Walk", modules) is None
    assert name("_Py_dict_lookup", modules) is None


def test_layers_counts_each_function_once_a_sample_on_its_stack(tmp_path: Path) -> None:
    """Of the four samples of ``_PERF_SCRIPT``, the three inside a step count: the step is
    on the stack of each, the walk of two (one of them in the kernel under it), the rule of
    one; the interpreter's and the kernel's functions are not the package's."""
    layers = _bench("layers.py")
    root = _package_modules(tmp_path, "engine.map", "engine.rounds.or_track", "io.games18xx_import")
    modules = layers.mangled_modules(root)
    twice = _PERF_SCRIPT.replace(
        "5e6f __pyx_pw_8eighteen_2io_16games18xx_import_8Importer_9step",
        "5e6f __pyx_pf_8eighteen_2io_16games18xx_import_8Importer_8step (inlined)\n"
        "\t    5e6f __pyx_pw_8eighteen_2io_16games18xx_import_8Importer_9step",
        1,
    )  # (the step's body and wrapper both on the first sample's stack: counted once)
    for script in (_PERF_SCRIPT, twice):
        counts = layers.perf_functions(layers.step_samples(script), modules)
        assert dict(counts) == {
            "io.games18xx_import.Importer.step": 3,
            "engine.map._walk": 2,
            "engine.rounds.or_track._is_active": 1,
        }


def test_layers_function_table_shows_shares_and_times_of_both_tenths() -> None:
    """The top functions by their share of the last tenth (ties by name), each with its
    share of each tenth's samples and its µs per action there (a sample is 1/2000 s: 500
    µs); a function the first tenth lacks shows 0 there."""
    from collections import Counter

    layers = _bench("layers.py")
    assert layers.PERF_HZ == 2000
    first = (40, Counter({"step": 40, "reach": 4}), 100)
    last = (80, Counter({"step": 80, "reach": 32, "check": 32, "walk": 8}), 200)
    assert layers.function_table(first, last, 3) == [
        "function (inclusive)                                     first tenth      last tenth",
        "                                                       share  µs/act   share  µs/act",
        "step                                                  100.0%   200.0  100.0%   200.0",
        "check                                                   0.0%     0.0   40.0%    80.0",
        "reach                                                  10.0%    20.0   40.0%    80.0",
    ]


def test_layers_functions_wants_perf_and_a_count() -> None:
    for args in (["--functions", "5"], ["--perf", "--functions", "0"]):
        done = _refused("layers.py", *args, str(GAME_29133))
        assert done.returncode == 2  # argparse's status for a bad argument
        assert done.stdout == ""
        assert "layers.py: error: --functions takes a count of at least 1, with --perf" in (
            done.stderr
        )


def test_layers_perf_refuses_the_engine_from_its_sources() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "layers.py"), "--perf", str(GAME_29133)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "EIGHTEEN_NATIVE": "0"},
    )
    want = (
        "layers.py: --perf samples the compiled engine: build it (make native)\n"
        if shutil.which("perf")
        else "layers.py: --perf needs Linux's perf (apt-get install linux-perf)\n"
    )
    assert (done.returncode, done.stdout, done.stderr) == (1, "", want)


def test_instructions_prints_the_cache_misses_per_action(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--cache``: each game's first level cache misses per action (instruction, data
    read, data write), by tenth (the three together) and before against after."""
    instructions: Any = _bench("instructions.py")
    here = {"29133": (354, {"Ir": 1, "I1mr": 1_062_000, "D1mr": 708_000, "D1mw": 354_000})}
    instructions.misses_table("here", here)
    assert capsys.readouterr().out.splitlines() == [
        "game             actions  L1 misses per action:   instr    read   write",
        "29133                354                           3000    2000    1000",
        "",
        "here: L1 misses per action: 3000 instruction, 2000 data read, 1000 data write",
    ]
    first = (10, {"I1mr": 30_000, "D1mr": 15_000, "D1mw": 5_000})
    late = (10, {"I1mr": 50_000, "D1mr": 30_000, "D1mw": 20_000})
    instructions.misses_tenths_table("here", {"g": [first] * 9 + [late]})
    assert capsys.readouterr().out.splitlines() == [
        "game           actions  tenths (L1 misses per action)" + " " * 31 + "last/first",
        "g                  100    5000  5000  5000  5000  5000  5000  5000  5000  5000 10000"
        "    2.00",
        "",
        "here",
    ]
    before = {"29133": (354, {"I1mr": 1_062_000, "D1mr": 708_000, "D1mw": 354_000})}
    after = {"29133": (354, {"I1mr": 1_062_000, "D1mr": 708_000, "D1mw": 0})}
    instructions.compare_misses(after, before)
    assert capsys.readouterr().out.splitlines() == [
        "",
        "game             actions    before     after   change  (L1 misses/act)",
        "29133                354      6000      5000   -16.7%",
        "",
        "1 games: L1 misses 2.12M -> 1.77M (-16.7%)",
    ]


def test_instructions_simulates_the_caches_under_callgrind() -> None:
    """Under callgrind with ``--cache``: the count as without it, then the misses of the
    caches callgrind simulated (named on the last line), each kind some per action."""
    lines = _instructions_on_g5p_s5007("--cache")
    assert re.fullmatch(r"g5p_s5007 +184 +\d+\.\d", lines[1])
    assert lines[5] == "game             actions  L1 misses per action:   instr    read   write"
    row = re.fullmatch(r"g5p_s5007 +184 +(\d+) +(\d+) +(\d+)", lines[6])
    assert row is not None, lines[6]
    assert all(0 < int(x) < 100_000 for x in row.groups())
    assert re.search(r"caches simulated: D1 \d+ B, 64 B, \d+-way associative, I1 \d+ B", lines[-1])


def test_soak_refuses_a_title_it_cannot_find() -> None:
    done = _refused("soak.py", "no-such-title")
    assert done.returncode == 2  # argparse's status for a bad argument
    assert "soak.py: error: no compiled tables for 'no-such-title'" in done.stderr


def test_soak_refuses_options_the_title_does_not_have() -> None:
    done = _refused("soak.py", "1830", "0", "0", "--options", "import,no_such_rule")
    assert done.returncode == 2
    assert "soak.py: error: 1830 has no option 'no_such_rule' (its options: [" in done.stderr
    done = _refused("soak.py", "1833ne", "0", "0", "--options", "import")
    assert done.returncode == 2
    assert "soak.py: error: 1833ne has no 18xx.games importer" in done.stderr


def test_soak_plays_with_the_importer_s_options() -> None:
    """``--options import`` plays 18xx.games' readings: a random 2-player game (seed 1)
    to its end (a bankruptcy), the invariants checked after every action."""
    done = subprocess.run(
        [sys.executable, str(BENCH / "soak.py"), "1830", "1", "1", "--options", "import"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "1830: 1 games ended {'bankruptcy': 1}; 0 failed\n"


def test_compile_refuses_a_title_with_errors_as_validate_reports_them(tmp_path: Path) -> None:
    """A folder that is no title, and one with only its title.toml: every error, located
    (as `eighteen validate` shows it, the paths from the working folder)."""
    done = _refused("compile.py", "none", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr == "compile.py: none:1:1: error[E002]: no such title folder\n"
    (tmp_path / "half").mkdir()
    shutil.copy(BENCH.parent / "titles/1830/title.toml", tmp_path / "half")
    done = _refused("compile.py", "half", cwd=tmp_path)
    assert done.returncode == 1
    # the seven other files missing, and the id against the folder, in validate's order
    missing = "error[E002]: file not found"
    assert done.stderr.splitlines() == [
        f"compile.py: half/corporations.toml:1:1: {missing}",
        f"compile.py: half/map.toml:1:1: {missing}",
        f"compile.py: half/market.toml:1:1: {missing}",
        f"compile.py: half/phases.toml:1:1: {missing}",
        f"compile.py: half/privates.toml:1:1: {missing}",
        f"compile.py: half/tiles.toml:1:1: {missing}",
        "compile.py: half/title.toml:5:6: error[E150]: id: title id '1830' differs from its "
        "folder name 'half'",
        f"compile.py: half/trains.toml:1:1: {missing}",
    ]


def test_compile_times_every_stage_of_a_title() -> None:
    """Each stage of the pipeline, in order, with a time (1833NE: a title with a tile
    library of its own folder's parent, and its generated tables read back)."""
    done = subprocess.run(
        [sys.executable, str(BENCH / "compile.py"), str(BENCH.parent / "titles/1833ne")]
        + ["--runs", "1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert lines[:3] == [
        "1833ne: median of 1 runs",
        "stage                         ms",
        "-" * 22 + "  " + "-" * 8,
    ]
    names = [re.fullmatch(r"(.+?) +\d+\.\d\d", line) for line in lines[3:]]
    assert [m.group(1) if m else line for m, line in zip(names, lines[3:], strict=True)] == [
        "parse (load_toml)",
        "schema",
        "models",
        "checks",
        "load_title (all above)",
        "compile",
        "render markdown",
        "load 1833ne.json",
    ]


def test_instructions_replays_each_game_with_its_own_title(tmp_path: Path) -> None:
    """A 1833NE export beside an 1830 one: each is imported with its own title's tables
    (the script once read every game with the first game's)."""
    from eighteen import Game, load_title
    from eighteen.engine.bots import make_bots, play
    from eighteen.io.games18xx import export_game

    names = [f"Player{i + 1}" for i in range(4)]
    g = Game.new(load_title("1833ne"), players=names, seed=2)
    for _ in play(g, make_bots("random", names, 2)):
        pass
    export = tmp_path / "ne.json"
    export.write_text(json.dumps(export_game(g)), encoding="utf-8")
    first = BENCH.parent / "tests/fixtures/18xx-games/1830-generated/g5p_s5007.json"
    done = subprocess.run(
        [sys.executable, str(BENCH / "instructions.py"), str(first), str(export)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"g5p_s5007 +184 +\d+\.\d", lines[1]), lines[1]
    assert re.fullmatch(r"ne +187 +\d+\.\d", lines[2]), lines[2]


def test_fuzz_sends_hostile_actions_to_every_title() -> None:
    """Four games of 25 actions: one of each compiled title (1830, its example, 1833NE
    and its Takeover game), each action refused cleanly or accepted and undone exactly."""
    fuzz = _bench("fuzz.py")
    assert fuzz.action_campaign((0, 100)) == {
        "actions": 100,
        "accepted": 8,
        "non_illegal": 0,
        "changed_on_refusal": 0,
        "undo_differs": 0,
    }
