"""Mutated titles and hostile actions, for the fuzz tests and ``bench/fuzz.py``.

A title is read once; each mutation changes one number of one file in memory, then the
file is schema-checked and built again and the whole title cross-checked, exactly as
``eighteen validate`` would (without writing files). A title that validates clean must
be playable: :func:`play_check` plays random bots on it and applies, on a copy, a sample
of what the engine offers at every step; a refusal of its own offer or any other
exception is a failure. :func:`random_action` makes action JSON of every shape.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from eighteen.engine.actions import ACTION_TYPES, IllegalAction
from eighteen.engine.bots import make_bots, play
from eighteen.engine.game import Game
from eighteen.engine.tables import Tables
from eighteen.title.aggregate import Title
from eighteen.title.checks import run_checks
from eighteen.title.compile import compile_title
from eighteen.title.model import FILE_MODELS, Strict
from eighteen.title.pipeline import assemble, load_sources
from eighteen.title.positions import KeyPath
from eighteen.title.problems import Problem
from eighteen.title.sources import Sources, build_file

#: Values a mutated number takes: edges of every range, and beyond 64 bits.
EDGE_VALUES = (-1, 0, 1, 2, 3, 1000, 1001, 10**9, 10**9 + 1, 2**31, 2**63, -(2**63) - 1)


@dataclass
class Base:
    """A title read once, with every number of its files (kind, key path, value)."""

    dir: Path
    sources: Sources
    models: dict[str, Strict]
    numbers: list[tuple[str, KeyPath, int | float]]


def read_base(title_dir: Path) -> Base:
    """Read a plain (not overlay) title folder for mutation."""
    sources, models, problems = load_sources(Path(title_dir))
    assert not [p for p in problems if p.is_error], problems
    numbers = [
        (kind, path, value)
        for kind in FILE_MODELS
        for path, value in _numbers(sources.files[kind].data or {}, ())
    ]
    return Base(Path(title_dir), sources, models, numbers)


def _numbers(node: Any, path: KeyPath) -> Iterator[tuple[KeyPath, int | float]]:
    items = node.items() if isinstance(node, dict) else enumerate(node)
    for k, v in items:
        if isinstance(v, dict | list):
            yield from _numbers(v, (*path, k))
        elif isinstance(v, int | float) and not isinstance(v, bool):
            yield (*path, k), v


def mutated_value(rng: random.Random, value: int | float) -> int | float:
    """A new value for a number: an edge value, or the old one scaled or shifted."""
    choice = rng.randrange(4)
    if choice == 0:
        return rng.choice(EDGE_VALUES)
    if choice == 1:
        return -value
    if choice == 2:
        return value * rng.choice((0, 2, 10, 1000))
    return value + rng.choice((-2, -1, 1, 2))


def mutate(base: Base, kind: str, path: KeyPath, value: Any) -> tuple[Title | None, list[Problem]]:
    """Validate the title with one number changed: (title when complete and not mended,
    problems)."""
    loaded = base.sources.files[kind]
    data = copy.deepcopy(loaded.data)
    node: Any = data
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    changed = dataclasses.replace(loaded, data=data, problems=[])
    sources = dataclasses.replace(  # the base is clean: nothing mended, no stand-ins
        base.sources,
        files={**base.sources.files, kind: changed},
        mended=set(),
        stand_ins={},
        knock_ons=set(),
    )
    models = dict(base.models)
    model, problems = build_file(kind, changed, sources, kind)
    if model is None:
        models.pop(kind, None)
    else:
        models[kind] = model
    title = assemble(base.dir, sources, models, partial=True)
    assert title is not None
    problems.extend(run_checks(title, sources))
    complete = model is not None and not sources.mended
    return (title if complete else None), sources.shown(problems)


def play_check(
    title: Title, players: int, seed: int, max_actions: int = 300, samples: int | None = 3
) -> str | None:
    """Play random bots on a clean title for ``max_actions`` (``players``, or the nearest
    count the title allows); at every step apply up to ``samples`` offered actions (all
    with None) on a copy. The first failure in words, else None."""
    tables = Tables(compile_title(title))
    players = min(max(players, title.title.players.min), title.title.players.max)
    names = [f"Player{i + 1}" for i in range(players)]
    try:
        game = Game.new(tables, players=names, seed=seed)
    except ValueError as exc:  # e.g. an engine capability the title lacks (E198)
        return f"cannot start: {exc}"
    rng = random.Random(seed)
    bots = make_bots("random", names, seed)
    try:
        for _ in play(game, bots, max_actions=max_actions):
            offered = game.legal_actions() if not game.is_over else []
            tried = offered if samples is None else rng.sample(offered, min(samples, len(offered)))
            for action in tried:
                try:
                    game.clone().apply(action)
                except IllegalAction as exc:
                    return f"refused its own offer {action}: {exc}"
    except RuntimeError as exc:
        if "did not end" not in str(exc) and not game.stuck:  # stuck: random play ruined all
            return f"{type(exc).__name__}: {exc}"
    except IllegalAction as exc:
        return f"a bot's choice was refused: {exc}"
    except Exception as exc:  # anything else is a bug the fuzzing is there to find
        return f"{type(exc).__name__}: {exc}"
    return None


_JUNK: tuple[Any, ...] = (
    None, True, False, 0, -1, 1, 45.5, 30.0, 2**63, -(2**64), "", "x", "PRR", "B10", "2",
    [], {}, [1, 2], ["bid"], {"a": 1}, "\x1b[31m", "9" * 40,
)  # fmt: skip


def random_action(rng: random.Random, offered: list[Any]) -> dict[str, Any]:
    """Action JSON: an offered action with one field broken, or one of a random type
    with random fields (of every JSON type and size)."""
    if offered and rng.random() < 0.5:
        d = dict(rng.choice(offered).to_json())
        keys = [k for k in d if k != "type"] or ["type"]
        key = rng.choice(keys)
        d[key] = rng.choice(_JUNK) if rng.random() < 0.8 else _shifted(d[key])
        if rng.random() < 0.2:
            d.pop(rng.choice(keys), None)
        return d
    t = rng.choice([*ACTION_TYPES, "nonesuch", ""])
    fields = [f.name for f in dataclasses.fields(ACTION_TYPES[t])] if t in ACTION_TYPES else []
    d = {"type": t if rng.random() < 0.95 else rng.choice(_JUNK)}
    for name in fields:
        if rng.random() < 0.8:
            d[name] = rng.choice(_JUNK)
    return d


def _shifted(v: Any) -> Any:
    if isinstance(v, int) and not isinstance(v, bool):
        return v + 1
    return v
