"""The collector's bulk pace (engine/collector.py): slower young collections inside a block
of work (a replay, a bot game, a load), the thresholds put back after."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from test_interconnection import line

from eighteen.engine import collector, tables
from eighteen.engine.actions import Action
from eighteen.engine.bots import make_bots, play
from eighteen.engine.game import Game
from eighteen.engine.routefinder import optimize
from eighteen.io import games18xx
from eighteen.io.games18xx import Importer, read_export

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures/18xx-games/1830/29133.json"


@pytest.fixture(autouse=True)
def default_pace() -> Iterator[None]:
    """Each test starts at CPython's default pace, and leaves the process as it was."""
    old = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        yield
    finally:
        gc.set_threshold(*old)


def test_a_block_collects_young_objects_every_100000_allocations_and_puts_the_pace_back() -> None:
    with collector.bulk():
        assert gc.get_threshold() == (100_000, 10, 10)
    assert gc.get_threshold() == (700, 10, 10)


class _Node:
    """A container the collector tracks (instances with a __dict__ are)."""

    def __init__(self) -> None:
        self.other: object = None


def _generation(obj: object) -> int | None:
    return next((k for k in range(3) if any(o is obj for o in gc.get_objects(k))), None)


def test_the_objects_of_a_block_leave_it_in_the_oldest_generation() -> None:
    gc.collect()
    before = _Node()
    assert _generation(before) == 0
    with collector.bulk():
        made = _Node()
        assert _generation(made) == 0
    assert _generation(made) == 2  # no young collection will walk them
    assert _generation(before) == 2
    assert gc.get_count()[0] < 10  # and none is due at the next allocation


def test_a_cycle_made_in_a_block_is_still_collected() -> None:
    with collector.bulk():
        a, b = _Node(), _Node()
        a.other, b.other = b, a
        ids = {id(a), id(b)}
    del a, b
    assert gc.collect() >= 2
    assert not any(id(o) in ids for o in gc.get_objects())


def test_objects_a_program_froze_stay_frozen_and_the_young_young() -> None:
    gc.collect()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with collector.bulk():
            made = _Node()
        assert gc.get_freeze_count() == frozen
        assert _generation(made) == 0
    finally:
        gc.unfreeze()


def test_the_pace_is_put_back_when_the_block_raises() -> None:
    with pytest.raises(ZeroDivisionError), collector.bulk():
        _ = 1 / 0
    assert gc.get_threshold() == (700, 10, 10)


def test_nested_blocks_and_a_slower_pace_are_left_as_they_are() -> None:
    with collector.bulk():
        with collector.bulk(5_000):
            assert gc.get_threshold() == (100_000, 10, 10)
        assert gc.get_threshold() == (100_000, 10, 10)
    gc.set_threshold(200_000, 5, 5)
    with collector.bulk():
        assert gc.get_threshold() == (200_000, 5, 5)
    assert gc.get_threshold() == (200_000, 5, 5)


def test_a_collector_switched_off_by_a_zero_threshold_stays_off() -> None:
    gc.set_threshold(0, 10, 10)
    with collector.bulk():
        assert gc.get_threshold() == (0, 10, 10)
    assert gc.get_threshold() == (0, 10, 10)


def test_thresholds_the_block_set_itself_are_kept() -> None:
    with collector.bulk():
        gc.set_threshold(1_000, 2, 3)
    assert gc.get_threshold() == (1_000, 2, 3)


def test_an_import_replays_at_the_bulk_pace(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: set[tuple[int, int, int]] = set()
    original = Importer.step

    def step(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
        seen.add(gc.get_threshold())
        original(imp, aid, a)

    monkeypatch.setattr(Importer, "step", step)
    res = games18xx.import_game(read_export(FIXTURE))
    assert res.mismatches() == []
    assert seen == {(100_000, 10, 10)}
    assert gc.get_threshold() == (700, 10, 10)


def test_a_bot_game_is_played_and_a_save_loaded_at_the_bulk_pace() -> None:
    t = tables.load_title("1830")
    names = ["A", "B", "C", "D"]
    game = Game(t, names, seed=3)
    paces = set()
    for _ in play(game, make_bots("random", names, 3), max_actions=50_000):
        paces.add(gc.get_threshold())
    assert game.is_over
    assert paces == {(100_000, 10, 10)}
    assert gc.get_threshold() == (700, 10, 10)
    applied = set()

    class Recording(Game):  # (a compiled Game's methods cannot be patched)
        def apply(self, action: Action | dict[str, Any]) -> None:
            applied.add(gc.get_threshold())
            super().apply(action)

    loaded = Recording.from_json(game.to_json())
    assert loaded.state_hash() == game.state_hash()
    assert applied == {(100_000, 10, 10)}
    assert gc.get_threshold() == (700, 10, 10)


class _Watching:
    """A route bonus worth nothing that records the collector's pace when a search asks
    what a route earns of it."""

    id = "watching"
    most = 0

    def __init__(self) -> None:
        self.paces: set[tuple[int, int, int]] = set()

    def amount(self, hexes: frozenset[str]) -> int:
        self.paces.add(gc.get_threshold())
        return 0


def test_a_route_search_runs_at_the_search_pace_and_leaves_its_objects_old() -> None:
    """A route search (X's 2-train on the line: B4-B6, $50) runs at a young collection
    every million net allocations, inside a bot game's bulk block too; what it made
    leaves it in the oldest generation (its result among them), and the pace found is
    put back."""
    board, state = line()
    watching = _Watching()
    gc.collect()
    res = optimize(board, state, "X", [("2", 2)], "yellow", bonuses=(watching,))
    assert (res.total, watching.paces) == (50, {(1_000_000, 10, 10)})
    assert gc.get_threshold() == (700, 10, 10)
    assert _generation(res) == 2 and gc.get_count()[0] < 10
    watching.paces.clear()
    board.clear_caches()
    with collector.bulk():
        res = optimize(board, state, "X", [("2", 2)], "yellow", bonuses=(watching,))
        assert watching.paces == {(1_000_000, 10, 10)}
        assert gc.get_threshold() == (100_000, 10, 10)
    assert res.total == 50 and gc.get_threshold() == (700, 10, 10)


def test_a_bot_game_left_unfinished_puts_the_pace_back_when_closed() -> None:
    t = tables.load_title("1830")
    names = ["A", "B", "C", "D"]
    game = Game(t, names, seed=3)
    # (play is a generator: its iterator can be closed)
    it = play(game, make_bots("random", names, 3))
    next(it)
    assert gc.get_threshold() == (100_000, 10, 10)
    it.close()
    assert gc.get_threshold() == (700, 10, 10)


#: Run in a fresh interpreter (no other test's objects about): the scenario's setup (its
#: imports: making a class makes cycles), then its code, then the type names of what the
#: cyclic collector found unreachable in that code, as JSON.
_GARBAGE_PROBE = """
import gc, json, sys
exec(sys.argv[1])
gc.collect()
gc.set_debug(gc.DEBUG_SAVEALL)
exec(sys.argv[2])
gc.collect()
print(json.dumps([type(o).__name__ for o in gc.garbage]))
"""


def _garbage_after(setup: str, code: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _GARBAGE_PROBE, setup, code],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return cast(list[str], json.loads(done.stdout.splitlines()[-1]))


@pytest.mark.parametrize(("title_id", "players", "seed"), [("1830", 4, 1), ("1833ne", 3, 3)])
def test_a_greedy_bot_game_leaves_no_cyclic_garbage(title_id: str, players: int, seed: int) -> None:
    # (the greedy bots search the best routes: the search's recursive walks and, with
    # interconnection bonuses, its extension tables and walks once made reference cycles
    # per search; the 1833NE game searches extensions, some 600 walks)
    setup = f"""
from eighteen.engine import tables
from eighteen.engine.bots import make_bots, play
from eighteen.engine.game import Game
title = tables.load_title({title_id!r})
"""
    code = f"""
names = ["A", "B", "C", "D"][:{players}]
game = Game(title, names, seed={seed})
for _ in play(game, make_bots("greedy", names, {seed}), max_actions=50_000):
    pass
assert game.is_over
del game
"""
    assert _garbage_after(setup, code) == []


def test_an_import_leaves_no_cyclic_garbage() -> None:
    setup = f"""
from eighteen.io import games18xx
export = games18xx.read_export({str(FIXTURE)!r})
"""
    code = """
res = games18xx.import_game(export)
assert res.mismatches() == []
del res
"""
    assert _garbage_after(setup, code) == []


def test_the_garbage_probe_sees_a_cycle() -> None:
    assert _garbage_after("pass", "a = []\na.append(a)\ndel a") == ["list"]
