"""The Game API: atomic apply, undo, clone, saves, hashes, views, random play."""

from __future__ import annotations

import json
import random

import pytest
from scenario import money, opening, second_stock_round, strand_everyone

from eighteen import Game, IllegalAction, load_title
from eighteen.engine import views
from eighteen.engine.actions import (
    ACTION_TYPES,
    Bid,
    BuyShares,
    Pass,
    RouteSpec,
    RunRoutes,
    SellShares,
    action_from_json,
)
from eighteen.engine.bots import pointless
from eighteen.engine.tables import Tables
from eighteen.title.save import SaveFormatError


def test_load_title_reads_the_tables() -> None:
    t = load_title("1830")
    assert t.id == "1830"
    assert t.starting_cash(4) == 600 and t.certificate_limit(4) == 16
    assert t.par_prices() == [100, 90, 82, 76, 71, 67]


def test_new_game_checks_players_and_options() -> None:
    t = load_title("1830")
    with pytest.raises(ValueError, match="2-6 players"):
        Game.new(t, ["A"])
    with pytest.raises(ValueError, match="distinct"):
        Game.new(t, ["A", "A"])
    with pytest.raises(ValueError) as refused:
        Game.new(t, ["A", "PRR"])
    assert str(refused.value) == "'PRR' cannot be a player name (it is a corporation of 1830)"
    with pytest.raises(ValueError) as refused:
        Game.new(t, ["A", "SV"])
    assert str(refused.value) == "'SV' cannot be a player name (it is a private of 1830)"
    with pytest.raises(ValueError) as refused:
        Game.new(t, ["A", "pool"])
    assert str(refused.value) == "'pool' cannot be a player name (it names the pool)"
    with pytest.raises(ValueError, match="unknown option"):
        Game.new(t, ["A", "B"], options=["nope"])
    # a name no action could carry, or a save could hold, is refused at the start (an
    # accepted one would leave a game whose every legal action is refused)
    with pytest.raises(ValueError) as refused:
        Game.new(t, ["A", 1])  # type: ignore[list-item]
    assert str(refused.value) == "a player name is text, not int 1"
    with pytest.raises(ValueError) as refused:
        Game.new(t, ["A", ["B"]])  # type: ignore[list-item]
    assert str(refused.value) == "a player name is text, not list ['B']"
    with pytest.raises(ValueError) as refused:
        Game.new(t, ["A", "B" * 65])
    assert str(refused.value) == f"a player name has at most 64 characters: {'B' * 65!r:.40}..."
    with pytest.raises(ValueError) as refused:
        Game.new(t, "AB")  # type: ignore[arg-type]
    assert str(refused.value) == "players must be a list of names, not str"
    for seed, why in [(2**63, "out of range (64 bits)"), ("x", "a whole number, not str")]:
        with pytest.raises(ValueError) as refused:
            Game.new(t, ["A", "B"], seed=seed)  # type: ignore[arg-type]
        assert str(refused.value) == f"the seed is {why}"
    longest = Game.new(t, ["A", "B" * 64], seed=-(2**63))
    longest.apply(longest.legal_actions()[0])  # its players can act
    assert len(longest.log) == 1
    assert Game.from_json(longest.to_json()).state_hash() == longest.state_hash()
    g = Game.new(t, ["A", "B", "C"])
    assert g.state.bank == 12000 - 3 * 800
    assert money(g) == 12000


def test_illegal_action_leaves_the_state_unchanged() -> None:
    g = second_stock_round()
    h, n, events = g.state_hash(), len(g.log), list(g.events)
    for bad in [
        Pass("C"),  # not C's turn
        BuyShares("B", "PRR", "ipo"),  # PRR not started
        SellShares("B", "B&M", 10),  # B holds no B&M
        Bid("B", "SV", 20),  # no auction now
        RunRoutes("B", (RouteSpec("2-0", (), 0),)),
    ]:
        with pytest.raises(IllegalAction):
            g.apply(bad)
        assert g.state_hash() == h
    assert len(g.log) == n and g.events == events


def test_undo_is_the_exact_inverse() -> None:
    g = second_stock_round()
    hashes = [g.state_hash()]
    for a in [BuyShares("B", "B&M", "ipo"), Pass("B"), Pass("C")]:
        g.apply(a)
        hashes.append(g.state_hash())
    for expected in reversed(hashes[:-1]):
        g.undo()
        assert g.state_hash() == expected
    assert g.acting() == "B"


def test_undo_across_snapshots() -> None:
    g = opening()
    rng = random.Random(3)
    hashes = []
    for _ in range(80):
        hashes.append(g.state_hash())
        g.apply(rng.choice(g.legal_actions()))
    for expected in reversed(hashes[-50:]):
        g.undo()
        assert g.state_hash() == expected


def _fields(obj: object) -> set[str]:
    """The fields of an object: its instance dict's, and those its class declares (a
    native class's, compiled)."""
    names = set(getattr(obj, "__dict__", {}))
    for cls in type(obj).__mro__:
        for name, value in vars(cls).items():
            if type(value).__name__ in ("getset_descriptor", "member_descriptor"):
                names.add(name)
    return names - {"__dict__", "__weakref__"}


def test_a_clone_holds_every_field_of_the_game() -> None:
    """The clone is made field by field: every field of the game is set in it (not None
    where the game's is not), compiled or from source."""
    g = second_stock_round()
    c = g.clone()
    names = _fields(g)
    assert {"tables", "rules", "state", "log", "events", "seed", "stuck", "_snapshots"} <= names
    assert _fields(c) == names
    for name in names:
        assert (getattr(c, name) is None) == (getattr(g, name) is None), name


def test_save_and_load_give_the_same_hash() -> None:
    g = second_stock_round()
    text = json.dumps(g.to_json())
    h = Game.from_json(text)
    assert h.state_hash() == g.state_hash()
    assert h.to_json() == g.to_json()
    assert h.to_json()["title"] == "1830" and h.to_json()["hash"] == g.tables.hash


def test_a_damaged_save_is_refused_in_one_line_before_any_action() -> None:
    save = second_stock_round().to_json()
    cases: list[tuple[object, str]] = [
        ({**save, "actions": [5]}, "not a valid save: actions.0: should be a valid dictionary"),
        ({**save, "actions": None}, "not a valid save: actions: should be a valid list"),
        ({**save, "players": None}, "not a valid save: players: should be a valid list"),
        ({**save, "options": None}, "not a valid save: options: should be a valid list"),
        ({**save, "title": 1830}, "not a valid save: title: should be a valid string"),
        ({**save, "format": 99}, "save format 99 is not one this version reads (format 1)"),
        ({}, "not a valid save: format: missing"),
        ([], "not a save (a save is a JSON object)"),
        (
            "{not json",
            "not a save: Expecting property name enclosed in double quotes: "
            "line 1 column 2 (char 1)",
        ),
    ]
    for data, message in cases:
        with pytest.raises(SaveFormatError) as refused:
            Game.from_json(data)  # type: ignore[arg-type]
        assert str(refused.value) == message
    # an action that is a record but no legal one still names its place and type
    bad = {**save, "actions": [*save["actions"], {"type": "pass", "actor": "nobody"}]}
    with pytest.raises(IllegalAction) as illegal:
        Game.from_json(bad)
    assert str(illegal.value) == "action 21 (pass): not nobody's turn: B is to act"
    with pytest.raises(ValueError) as other_title:
        Game.from_json(save, tables=load_title("1833ne"))
    assert str(other_title.value) == "a save of 1830 cannot be loaded on 1833ne"


def test_clone_is_independent() -> None:
    g = second_stock_round()
    c = g.clone()
    c.apply(Pass("B"))
    assert g.acting() == "B" and c.acting() == "C"
    assert g.state_hash() != c.state_hash()


def test_actions_round_trip_through_json() -> None:
    g = second_stock_round()
    for a in g.legal_actions():
        assert action_from_json(json.loads(json.dumps(a.to_json()))) == a
    with pytest.raises(IllegalAction, match="unknown action"):
        action_from_json({"type": "fly"})
    assert set(ACTION_TYPES) >= {"bid", "par", "buy_shares", "sell_shares", "lay_tile"}


def test_views() -> None:
    g = second_stock_round()
    s = views.summary(g)
    assert s["round"].startswith("stock round 2") and s["phase"] == "2"
    bm = next(c for c in s["corporations"] if c["id"] == "B&M")
    assert bm["president"] == "C" and bm["price"] == 90 and bm["trains"] == ["2-0"]
    a = next(p for p in s["players"] if p["name"] == "A")
    assert a["value"] == a["cash"] + 2 * 90 + 20 + 160  # 20% B&M, SV and CA at face
    # a view is a copy: changing what it gives back leaves the game as it was
    before = g.state_hash()
    bm["cell"][1] += 1
    views.market_view(g)["B&M"]["cell"][0] += 1
    next(c for c in views.corporations(g) if c["id"] == "B&M")["cell"].append(0)
    assert g.state_hash() == before


def play_random(seed: int, players: int) -> Game:
    """Random play that prefers doing something over passing."""
    rng = random.Random(seed)
    g = Game.new(load_title("1830"), [f"P{i}" for i in range(players)])
    for _ in range(4000):
        if g.is_over:
            break
        acts = g.legal_actions()
        assert acts, f"no legal action for {g.acting()} in {views.round_name(g)}"
        acts = [a for a in acts if not pointless(g, a)] or acts  # as bots do: no loops
        active = [a for a in acts if not isinstance(a, Pass)]
        a = rng.choice(active) if active and rng.random() < 0.7 else rng.choice(acts)
        g.apply(a)
        assert money(g) == 12000
    return g


@pytest.mark.parametrize("seed,players", [(1, 2), (2, 3), (3, 4), (4, 5), (5, 6)])
def test_random_games_run_and_replay(seed: int, players: int) -> None:
    g = play_random(seed, players)
    assert g.is_over
    ranking = views.ranking(g)
    assert len(ranking) == players
    assert Game.from_json(g.to_json()).state_hash() == g.state_hash()


def test_options_change_rules_and_trains() -> None:
    t = load_title("1830")
    g = Game.new(t, ["A", "B"], options=["optional_6_train", "multiple_brown_from_ipo"])
    assert [x for x in g.state.depot if x.startswith("6-")] == ["6-0", "6-1", "6-2"]
    assert g.rules.brown_multiple_buy_from_ipo is True
    plain = Game.new(t, ["A", "B"])
    assert [x for x in plain.state.depot if x.startswith("6-")] == ["6-0", "6-1"]
    assert plain.rules.brown_multiple_buy_from_ipo is True  # the rules' reading
    pool_only = Game.new(t, ["A", "B"], options=["brown_pool_only_18xx_games"])
    assert pool_only.rules.brown_multiple_buy_from_ipo is False
    # options apply in order: the optional rule after the reading overrides it
    both = ["brown_pool_only_18xx_games", "multiple_brown_from_ipo"]
    assert Game.new(t, ["A", "B"], options=both).rules.brown_multiple_buy_from_ipo is True


def test_titles_with_unknown_mechanics_are_refused() -> None:

    data = json.loads(json.dumps(load_title("1830").data))
    data["rules"]["mergers"] = {"kind": "whatever"}  # a mechanic no engine part knows
    data["rules"]["dividend_move"] = {"kind": "by_vote"}
    with pytest.raises(ValueError) as refused:
        Game.new(Tables(data), ["A", "B"])
    assert str(refused.value) == (
        "rules.dividend_move: Input tag 'by_vote' found using 'kind' does not match any of "
        "the expected tags: 'right_left', 'by_ratio'; rules.mergers: Extra inputs are not "
        "permitted"
    )


def test_a_stalled_game_is_stuck_unless_the_title_ends_it() -> None:
    # 1830's rules have no end for it either: stuck, as 1833NE
    g = opening()  # stock round 1, C to act
    strand_everyone(g)
    assert g.acting() == "C" and g.legal_actions() == [Pass("C")]
    g.apply(Pass("C"))
    assert g.stuck and not g.is_over and g.state.end_reason is None
    # a title that asks for the end: twenty sets with no one able to act end the game
    data = json.loads(json.dumps(load_title("1830").data))
    data["rules"]["stall_ends_game"] = True
    g = opening(title=Tables(data))
    strand_everyone(g)
    g.apply(Pass("C"))
    assert g.is_over and not g.stuck
    assert g.state.end_reason == "no one can act any more"
