"""Randomized whole games: bots play to the end while invariants are checked after every action.

Every seed plays a full game (2-6 players, random or greedy bots). After each action:
money is conserved, certificates are where certificates can be, no count goes negative or
over its limit, and the state survives a rejected action unchanged. Regularly, every legal
action is applied to a clone (each must be accepted). At the end, save -> load and undo
are exact. More seeds: bench/soak.py.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import eighteen
from eighteen.engine import trains
from eighteen.engine.actions import BuyTrain, IllegalAction, Pass
from eighteen.engine.bots import make_bots, play
from eighteen.engine.game import Game
from eighteen.engine.state import IPO, POOL

TITLE = eighteen.load_title("1830")
SEEDS = list(range(50))


def check_invariants(g: Game) -> None:
    """Title-independent invariants (treasury shares are IPO certificates; a bank reserve
    lets the bank go below zero; a bankrupt player's dump may pass the pool limit)."""
    s = g.state
    t = g.tables
    # money: bank + players + treasuries is what the bank started with
    total = s.bank + sum(p.cash for p in s.players) + sum(c.cash for c in s.corporations.values())
    assert total == t.bank
    assert all(p.cash >= 0 for p in s.players)
    assert all(c.cash >= 0 for c in s.corporations.values())
    assert s.bank >= 0 or s.bank_broken  # past zero only once the bank has broken
    # certificates: every one held by a player, the IPO or the pool; pool within its limit
    holders = {p.name for p in s.players} | {IPO, POOL}
    assert set(s.certs.values()) <= holders
    assert not any(holder in s.eliminated for holder in s.certs.values())
    sizes = {c.id: c.shares for c in t.corporations}
    pool: Counter[str] = Counter()
    for cert, holder in s.certs.items():
        corp, i = cert.rsplit("_", 1)
        if holder == POOL:
            pool[corp] += sizes[corp][int(i)]
    rule = g.rules.bankruptcy
    dumped = bool(s.eliminated) and getattr(rule, "shares_unmoved", False)
    for corp, pct in pool.items():
        assert dumped or pct <= g.rules.pool_limit_percent, (corp, pct)
    # presidents hold the president's certificate; closed corporations hold nothing
    for cid, c in s.corporations.items():
        if c.president is not None:
            assert s.certs[f"{cid}_0"] == c.president
        if c.closed:
            assert not c.trains and not c.cash and c.president is None
    # trains: within the phase limit unless a discard is pending; no card in two places
    owned = [x for c in s.corporations.values() for x in c.trains]
    copies = [f"{trains.card_of(g, x)}-{x.rsplit('-', 1)[1]}" for x in owned + s.train_pool]
    assert len(copies) == len(set(copies))
    assert not set(copies) & set(s.depot)
    if not g.pending_discard():
        for c in s.corporations.values():  # (a takeover raises its acquirer's limit)
            assert len(trains.counted(g, c.id)) <= trains.corporation_limit(g, c.id), (
                c.id,
                c.trains,
            )
    # tiles: never more laid than the manifest holds
    laid = Counter(tile for tile, _ in s.map.tiles.values())
    for tile, n in laid.items():
        count = t.data["tiles"][tile]["count"]
        assert count is None or n <= count, (tile, n)


def check_rejection(g: Game) -> None:
    """Illegal actions raise IllegalAction and leave the state exactly as it was."""
    before = g.state_hash()
    for bad in (Pass("nobody"), BuyTrain(g.acting() or "nobody", "no-such-train", -5)):
        with pytest.raises(IllegalAction):
            g.apply(bad)
        assert g.state_hash() == before


def check_all_legal_apply(g: Game, rng: random.Random) -> None:
    actions = g.legal_actions()
    sample = actions if len(actions) <= 12 else rng.sample(actions, 12)
    for a in sample:
        g.clone().apply(a)  # must not raise


def play_checked(g: Game, bots: dict[str, Any], rng: random.Random) -> None:
    """Play to the end, checking invariants after every action, rejections and every
    legal action every 25th, and undo against the previous state every 97th."""
    prev_hash = ""
    for k, _ in enumerate(play(g, bots, max_actions=20_000)):
        check_invariants(g)
        if k % 25 == 0 and not g.is_over:
            check_rejection(g)
            check_all_legal_apply(g, rng)
        if k % 97 == 1 and prev_hash:  # undo is the exact inverse of apply
            last_hash = g.state_hash()
            action = g.undo()
            assert g.state_hash() == prev_hash
            g.apply(action)
            assert g.state_hash() == last_hash
        prev_hash = g.state_hash() if k % 97 == 0 else ""


@pytest.mark.parametrize("seed", SEEDS)
def test_random_game_to_the_end(seed: int) -> None:
    n = 2 + seed % 5
    players = [f"P{i}" for i in range(n)]
    g = Game.new(TITLE, players=players, seed=seed)
    bots = make_bots("greedy" if seed % 3 == 0 else "random", players, seed)
    play_checked(g, bots, random.Random(seed))
    assert g.is_over
    assert g.state.end_reason in {"bank broken", "bankruptcy"}
    loaded = Game.from_json(g.to_json(), tables=TITLE)
    assert loaded.state_hash() == g.state_hash()
