"""State.copy: equal to the original and sharing no mutable object with it (what makes
an IllegalAction leave the state unchanged)."""

from __future__ import annotations

import random
from dataclasses import is_dataclass
from typing import Any

import pytest

from eighteen import Game, load_title
from eighteen.engine.state import CorporationState, State


def mutable_ids(x: Any, out: dict[int, Any]) -> dict[int, Any]:
    """id -> object of every mutable object reachable from ``x``."""
    if isinstance(x, list | dict | set) or (
        is_dataclass(x) and not type(x).__dataclass_params__.frozen
    ):
        if id(x) in out:
            return out
        out[id(x)] = x
    if isinstance(x, dict):
        for k, v in x.items():
            mutable_ids(k, out)
            mutable_ids(v, out)
    elif isinstance(x, list | tuple | set | frozenset):
        for v in x:
            mutable_ids(v, out)
    elif hasattr(x, "__dict__"):
        for v in vars(x).values():
            mutable_ids(v, out)
    return out


def assert_independent(s: State) -> None:
    c = s.copy()
    assert c.to_dict() == s.to_dict()
    shared = mutable_ids(s, {}).keys() & mutable_ids(c, {}).keys()
    assert not shared, [mutable_ids(s, {})[i] for i in shared]


@pytest.mark.parametrize("title,seed", [("1830", 1), ("1833ne", 2)])
def test_copies_share_nothing_mutable_during_a_game(title: str, seed: int) -> None:
    rng = random.Random(seed)
    g = Game.new(load_title(title), ["Ann", "Bob", "Cy", "Di"], seed=seed)
    kinds = set()
    for _ in range(400):
        if g.is_over or g.stuck:
            break
        assert_independent(g.state)
        kinds.add(g.state.round.kind)
        g.apply(rng.choice(g.legal_actions()))
    assert kinds == {"auction", "stock", "operating"}


def test_fields_typed_any_and_extra_attributes_are_copied_deeply() -> None:
    """Fields annotated as flat containers (``list[str]``...) are copied one level deep;
    the others, and attributes beyond the fields, are copied all the way down."""
    g = Game.new(load_title("1830"), ["Ann", "Bob", "Cy"])
    s = g.state
    cs = s.corporations["PRR"]
    cs.extra = {"k": [1]}  # type: ignore[attr-defined]  # an attribute beyond the fields
    s.round.bids["SV"] = [["Ann", 25]]
    c = s.copy()
    cc = c.corporations["PRR"]
    assert isinstance(cc, CorporationState)
    assert cc.extra == {"k": [1]} and cc.extra["k"] is not cs.extra["k"]  # type: ignore[attr-defined]
    assert cc.trains == cs.trains and cc.trains is not cs.trains
    assert c.round.bids == {"SV": [["Ann", 25]]}
    assert c.round.bids["SV"][0] is not s.round.bids["SV"][0]
