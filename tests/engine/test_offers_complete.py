"""`legal_actions()` lists every discrete choice (docs/engine.md): an offered action with one
field changed to another name or number of the title (another corporation, player, private,
hex, tile, rotation, city, percent, count, price step) is either refused, with the state
unchanged, or was offered too. A tile lay may also show the same track as one offered (a
straight track turned half round). Amounts chosen freely in a range are left out: bids,
train and private prices, a takeover's treasury shares, and the routes of a run."""

from __future__ import annotations

import random
from typing import Any

import pytest

from eighteen import Game, IllegalAction, load_title
from eighteen.engine import network
from eighteen.engine.actions import Action, LayTile, action_from_json
from eighteen.engine.bots import make_bots, play

FREE = {"bid", "buy_train", "buy_company", "trade_private", "take_over", "run_routes"}
NAMES = ["Ann", "Bob", "Cy", "Di"]


def vocabulary(g: Game) -> dict[str, list[Any]]:
    """Values each field may be changed to: the title's names and a few numbers."""
    t = g.tables
    corps = [c.id for c in t.corporations]
    privates = [p.id for p in t.privates]
    hexes = sorted(t.data["hexes"])
    return {
        "actor": [*g.players, *corps, *privates],
        "corporation": corps,
        "target": corps,
        "private": [*privates, None],
        "counterparty": [*g.players, *corps],
        "hex": hexes,
        "port": hexes,
        "tile": sorted(t.data["tiles"]),
        "rotation": list(range(6)),
        "city": [0, 1, 2],
        "percent": [5, 10, 20, 30, 40, 50, 60],
        "count": [0, 1, 2, 3, 5],
        "shares": [0, 1, 2, 3],
        "source": ["ipo", "pool"],
        "kind": ["payout", "half", "withhold"],
        "accept": [True, False],
    }


def track(g: Game, a: LayTile) -> frozenset[tuple[str, str]]:
    """The track the lay would show (the engine's test of two rotations being one)."""
    return network.board(g).tile_face(a.hex, a.tile, a.rotation).signature


def offered_too(g: Game, a: Action, offered: list[Action]) -> bool:
    if a in offered:
        return True
    if not isinstance(a, LayTile):
        return False
    return any(
        isinstance(o, LayTile)
        and (o.hex, o.tile, o.private) == (a.hex, a.tile, a.private)
        and track(g, o) == track(g, a)
        for o in offered
    )


def changed_actions(
    g: Game, offered: list[Action], rng: random.Random, vocab: dict[str, list[Any]]
) -> list[Any]:
    """Up to four offered actions, each with one field changed (a train to another train
    in play, a number a step away)."""
    trains = [x for c in g.state.corporations.values() for x in c.trains]
    trains += g.state.depot[:5] + g.state.train_pool
    out = []
    for base in rng.sample(offered, min(4, len(offered))):
        doc = base.to_json()
        keys = [k for k in doc if k in vocab or k in ("price", "train", "exchange")]
        if not keys:
            continue
        key = rng.choice(keys)
        if key == "price":
            doc[key] = max(0, doc[key] + rng.choice([-50, -10, -5, -1, 1, 5, 10, 50, 1000]))
        elif key in ("train", "exchange"):
            doc[key] = rng.choice(trains) if trains else doc[key]
        else:
            doc[key] = rng.choice(vocab[key])
        out.append(doc)
    return out


@pytest.mark.parametrize(
    ("title", "bots", "players", "seed"),
    [
        ("1830", "greedy", 4, 0),
        ("1830", "random", 3, 1),
        ("1833ne", "greedy", 4, 2),
        ("1833ne-takeover", "greedy", 3, 3),
    ],
)
def test_an_action_accepted_is_an_action_offered(
    title: str, bots: str, players: int, seed: int
) -> None:
    names = NAMES[:players]
    g = Game.new(load_title(title), names, seed=seed)
    vocab = vocabulary(g)
    rng = random.Random(seed)
    unoffered: list[tuple[int, dict[str, Any]]] = []
    changed_on_refusal: list[tuple[int, dict[str, Any]]] = []
    accepted = refused = 0
    for _ in play(g, make_bots(bots, names, seed)):
        if len(g.log) % 3 or g.is_over:
            continue
        offered = g.legal_actions()
        for doc in changed_actions(g, offered, rng, vocab):
            before, length = g.state_hash(), len(g.log)
            try:
                action = action_from_json(doc)
                g.apply(action)
            except IllegalAction:
                refused += 1
                if g.state_hash() != before or len(g.log) != length:
                    changed_on_refusal.append((length, doc))
                continue
            accepted += 1
            g.undo()
            assert g.state_hash() == before
            if doc["type"] not in FREE and not offered_too(g, action, offered):
                unoffered.append((length, doc))
    assert unoffered == []
    assert changed_on_refusal == []
    assert accepted and refused  # (both ways were taken)
