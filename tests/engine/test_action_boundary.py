"""Actions are checked by type and range at the boundary, before any rule runs: every
malformed action raises IllegalAction naming the field and leaves the state as it was."""

from __future__ import annotations

import random
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eighteen import Game, IllegalAction, load_title
from eighteen.engine.actions import (
    ACTION_TYPES,
    Bid,
    LayTile,
    RouteSpec,
    RunRoutes,
    SellShares,
    action_from_json,
)
from eighteen.engine.bots import make_bots, play

TITLE = load_title("1830")
NAMES = ["Ann", "Bob", "Cy", "Di"]


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Bid("Ann", "SV", 45.5), "Bid.price must be a whole number, not float 45.5"),  # type: ignore[arg-type]
        (Bid("Ann", "SV", True), "Bid.price must be a whole number, not bool True"),
        (Bid("Ann", "SV", -5), "Bid.price must be from 0 to 9007199254740991, not -5"),
        (Bid("Ann", "SV", 2**60), "Bid.price must be from 0 to 9007199254740991, not 1152921504606846976"),
        (Bid("Ann", 7, 20), "Bid.private must be text, not int 7"),  # type: ignore[arg-type]
        (Bid("", "SV", 20), "Bid.actor must be 1 to 200 characters"),
        (SellShares("Ann", "PRR", 30.0), "SellShares.percent must be a whole number, not float 30.0"),  # type: ignore[arg-type]
        (LayTile("Ann", "E11", "59", 7), "LayTile.rotation must be from 0 to 5, not 7"),
        (RunRoutes("PRR", ["x"]), "RunRoutes.routes must be a list of routes"),  # type: ignore[arg-type]
        (RunRoutes("PRR", (RouteSpec("2-0", ("a",), 10.5),)), "RouteSpec.revenue must be a whole number, not float 10.5"),  # type: ignore[arg-type]
    ],
)  # fmt: skip
def test_wrong_types_and_ranges_are_refused(action: Any, message: str) -> None:
    g = Game.new(TITLE, NAMES)
    before = g.state_hash()
    with pytest.raises(IllegalAction) as exc:
        g.apply(action)
    assert str(exc.value) == message
    assert g.state_hash() == before and g.log == []


def test_an_action_subclass_is_refused() -> None:
    """An embedder's subclass of an action (here with a field of its own) is refused before
    it is applied: its save could not be read back."""

    @dataclass(frozen=True)
    class NotedBid(Bid):
        note: str = ""

    g = Game.new(TITLE, NAMES)
    with pytest.raises(IllegalAction) as exc:
        g.apply(NotedBid("Ann", "SV", 20, "cheap"))
    assert str(exc.value) == (
        "NotedBid is not one of the engine's actions (a save could not hold it): use "
        "AnswerDeal, AnswerTakeover, Bankrupt, Bid, BuyCompany, BuyFerry, BuyShares, "
        "BuyTrain, ChooseFerry, DiscardTrain, Dividend, ExchangePrivate, IssueShares, "
        "LayTile, Par, Pass, PlaceToken, RedeemShares, RunRoutes, SellShares, TakeOver, "
        "TradePrivate"
    )
    assert g.log == []
    g.apply(Bid("Ann", "SV", 20))
    assert g.to_json()["actions"][0] == {
        "type": "bid",
        "actor": "Ann",
        "private": "SV",
        "price": 20,
    }


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        (["bid"], "an action must be an object, not list"),
        ({"type": ["bid"]}, "unknown action type ['bid']"),
        ({"type": "bribe", "actor": "Ann"}, "unknown action type 'bribe'"),
        ({"type": "bid", "actor": "Ann", "private": "SV"}, "malformed bid action: missing price"),
        ({"type": "bid", "actor": "Ann", "private": "SV", "price": 20, "tip": 5}, "bid has no field 'tip'"),
        ({"type": "bid", "actor": "Ann", "private": "SV", "price": "20"}, "Bid.price must be a whole number, not str '20'"),
        ({"type": "run_routes", "actor": "PRR", "routes": {}}, "run_routes.routes must be a list of routes"),
        ({"type": "run_routes", "actor": "PRR", "routes": [{"train": "2-0"}]}, "a route needs 'paths'"),
        ({"type": "run_routes", "actor": "PRR", "routes": [7]}, "a route must be an object, not int"),
        ({"type": "run_routes", "actor": "PRR", "routes": [{"train": "2-0", "paths": [], "revenue": 0, "stopz": []}]}, "a route has no field 'stopz'"),
        ({"type": "run_routes", "actor": "PRR", "routes": [{"train": "2-0", "paths": "E11", "revenue": 0}]}, "RouteSpec.paths must be a list of text"),
    ],
)  # fmt: skip
def test_malformed_json_actions_are_refused(doc: Any, message: str) -> None:
    with pytest.raises(IllegalAction) as exc:
        action_from_json(doc)
    assert str(exc.value) == message
    g = Game.new(TITLE, NAMES)
    with pytest.raises(IllegalAction):
        g.apply(doc)
    assert g.log == []


def test_an_emergency_sale_of_an_unknown_corporation_is_refused() -> None:
    """At the first forced train purchase of a random game whose president may sell shares
    for it, a sale naming no corporation is refused, not a crash (bench/fuzz.py found a
    KeyError there)."""
    g = Game.new(TITLE, NAMES, seed=6)
    for _ in play(g, make_bots("random", NAMES, 6), max_actions=3000):
        corp = g.acting()
        if g.state.round.kind == "operating" and any(
            isinstance(a, SellShares) for a in g.legal_actions()
        ):
            break
    assert corp is not None and g.state.round.kind == "operating"
    president = g.state.corporations[corp].president
    assert president is not None
    assert any(isinstance(a, SellShares) and a.actor == president for a in g.legal_actions())
    before, n = g.state_hash(), len(g.log)
    with pytest.raises(IllegalAction) as exc:
        g.apply(SellShares(president, "2", 10))
    assert str(exc.value) == "unknown corporation 2"
    assert g.state_hash() == before and len(g.log) == n


@cache
def positions() -> list[Game]:
    """Positions of a greedy game: every 40th action (played once, when first asked: not
    while the tests are collected)."""
    g = Game.new(TITLE, NAMES, seed=3)
    out = []
    for k, _ in enumerate(play(g, make_bots("greedy", NAMES, 3), max_actions=3000)):
        if k % 40 == 0:
            out.append(g.clone())
    return out


TEXTS = [
    *NAMES,
    *(c.id for c in TITLE.corporations),
    *(p.id for p in TITLE.privates),
    *sorted(TITLE.data["hexes"])[:12],
    *sorted(TITLE.data["tiles"])[:12],
    *("2-0", "3-1", "D-0", "ipo", "pool", "payout", "withhold", "nonsense", "E11:c0-e1"),
]
value = st.one_of(
    st.sampled_from(TEXTS),
    st.integers(min_value=-3, max_value=2000),
    st.floats(allow_nan=False, width=16),
    st.booleans(),
    st.none(),
)


@settings(max_examples=300, deadline=None)
@given(
    data=st.data(),
    kind=st.sampled_from(sorted(ACTION_TYPES)),
    values=st.lists(value, min_size=6, max_size=6),
    seed=st.integers(0, 10**6),
)
def test_any_action_is_applied_or_refused_cleanly(
    data: st.DataObject, kind: str, values: list[Any], seed: int
) -> None:
    """Fuzzing: an action of any type with any values either applies or raises
    IllegalAction, and a refusal leaves the state exactly as it was."""
    g = positions()[data.draw(st.sampled_from(range(len(positions()))), label="pos")]
    cls = ACTION_TYPES[kind]
    rng = random.Random(seed)
    doc: dict[str, Any] = {"type": kind}
    for f, v in zip(fields(cls), values, strict=False):
        if f.name == "actor" and rng.random() < 0.7:
            v = g.acting() or "Ann"
        if f.name == "routes":
            v = [{"train": rng.choice(TEXTS), "paths": [rng.choice(TEXTS)], "revenue": 10}]
        doc[f.name] = v
    before = g.state_hash()
    try:
        g.apply(doc)
    except IllegalAction:
        assert g.state_hash() == before
    else:
        g.undo()
        assert g.state_hash() == before
