"""Fuzzing in the suite (issue 18): mutated titles never crash the validator, a title
that validates clean is playable, and hostile action JSON is refused cleanly.

Bounded (fixed example counts, derandomized); the large campaigns are bench/fuzz.py.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from eighteen.engine.actions import IllegalAction
from eighteen.engine.bots import make_bots, play
from eighteen.engine.game import Game
from eighteen.title.fuzz import EDGE_VALUES, Base, mutate, play_check, random_action, read_base

ROOT = Path(__file__).resolve().parents[2]


def fuzz(max_examples: int) -> settings:
    return settings(
        max_examples=max_examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )


@pytest.fixture(scope="module")
def bases() -> dict[str, Base]:
    return {t: read_base(ROOT / "titles" / t) for t in ("1830", "1833ne")}


def _number(bases: dict[str, Base], title: str, index: int) -> tuple[Base, tuple[Any, ...]]:
    base = bases[title]
    return base, base.numbers[index % len(base.numbers)]


values = st.one_of(st.sampled_from(EDGE_VALUES), st.integers(-(2**70), 2**70))


@fuzz(80)
@given(title=st.sampled_from(["1830", "1833ne"]), index=st.integers(0, 10_000), value=values)
def test_mutated_titles_never_crash_the_validator(
    bases: dict[str, Base], title: str, index: int, value: int
) -> None:
    base, (kind, path, _) = _number(bases, title, index)
    _, problems = mutate(base, kind, path, value)
    assert [p.format() for p in problems if p.code == "E999"] == []


def _changed(value: float, op: str) -> float:
    return {"inc": value + 1, "dec": value - 1, "double": value * 2, "half": value // 2}.get(
        op, value
    )


@fuzz(12)
@given(
    title=st.sampled_from(["1830", "1833ne"]),
    index=st.integers(0, 10_000),
    op=st.sampled_from(["inc", "dec", "double", "half"]),
    seed=st.integers(0, 1000),
)
def test_valid_implies_playable(
    bases: dict[str, Base], title: str, index: int, op: str, seed: int
) -> None:
    """A title that validates clean plays 150 random-bot actions; a sample of every
    offered action is accepted by apply (on a copy) at every step."""
    base, (kind, path, value) = _number(bases, title, index)
    mutated, problems = mutate(base, kind, path, _changed(value, op))
    assume(mutated is not None and not any(p.is_error for p in problems))
    assert mutated is not None
    assert play_check(mutated, players=4, seed=seed, max_actions=150, samples=2) is None


def test_cheapest_private_plays_and_every_offer_is_accepted(bases: dict[str, Base]) -> None:
    """A 1833ne private worth $1 (the least that validates) plays: at every one of 400
    random-bot actions, every action the engine offers is accepted by apply."""
    title, problems = mutate(bases["1833ne"], "privates", ("privates", 0, "value"), 1)
    assert title is not None and [p.format() for p in problems if p.is_error] == []
    assert play_check(title, players=4, seed=5, max_actions=400, samples=None) is None


def _first_error(
    bases: dict[str, Base], title: str, kind: str, path: tuple[Any, ...], value: float
) -> str:
    _, problems = mutate(bases[title], kind, path, value)
    return next(p.format() for p in problems if p.is_error)


def test_issue_cases_are_refused_at_validate(bases: dict[str, Base]) -> None:
    assert _first_error(bases, "1833ne", "privates", ("privates", 0, "value"), 0) == (
        "titles/1833ne/privates.toml:14:9: error[E013]: privates[0].value: 0 is below the minimum 1"
    )
    assert _first_error(bases, "1830", "trains", ("trains", 0, "count"), 2147483648) == (
        "titles/1830/trains.toml:11:9: error[E013]: trains[0].count: 2147483648 is above the "
        "maximum 1000"
    )
    assert _first_error(bases, "1830", "trains", ("trains", 0, "count"), -5) == (
        "titles/1830/trains.toml:11:9: error[E013]: trains[0].count: -5 is below the minimum 0"
    )
    # found by bench/fuzz.py: the engine offered "P1 sells to a corporation for $30 to $15"
    assert _first_error(bases, "1833ne", "title", ("rules", "private_price_min_factor"), 2.0) == (
        "titles/1833ne/privates.toml:14:9: error[E165]: privates[0].value: P1 has no price a "
        "corporation could pay: $30 to $15 (value $15, rules private_price_min_factor 2.0, "
        "private_price_max_factor 1.0, private_price_min $1)"
    )
    assert _first_error(bases, "1830", "title", ("bank",), 0) == (
        "titles/1830/title.toml:13:8: error[E013]: bank: 0 is below the minimum 1"
    )


@pytest.fixture(scope="module")
def positions() -> list[Game]:
    """Games at a few points of random bot play (start, auction, stock, operating)."""
    out = []
    for title, seed, steps in [
        ("1830", 1, 0),
        ("1830", 2, 40),
        ("1833ne", 3, 120),
        ("1830", 4, 260),
    ]:
        names = ["Ann", "Bob", "Cy", "Di"]
        game = Game.new(title, players=names, seed=seed)
        for _ in itertools.islice(play(game, make_bots("random", names, seed)), steps):
            pass
        out.append(game)
    return out


@fuzz(150)
@given(which=st.integers(0, 3), seed=st.integers(0, 2**32))
def test_hostile_actions_are_refused_cleanly(positions: list[Game], which: int, seed: int) -> None:
    """Random action JSON is applied or refused with IllegalAction, never another
    exception; a refusal leaves the state exactly as it was."""
    game = positions[which]
    rng = random.Random(seed)
    action = random_action(rng, game.legal_actions())
    before, length = game.state_hash(), len(game.log)
    try:
        game.apply(action)
    except IllegalAction:
        assert (game.state_hash(), len(game.log)) == (before, length)
        return
    game.undo()
    assert game.state_hash() == before
