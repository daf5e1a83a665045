"""What the engine can play is what its implementations register (engine/capabilities.py):
the engine refuses anything else, and `eighteen validate` reports it (E198)."""

from __future__ import annotations

import ast
import copy
from pathlib import Path

import pytest

import eighteen
from eighteen.capabilities import IMPLEMENTED, WHERE, choices, findings, missing, unsupported
from eighteen.engine.game import Game
from eighteen.engine.tables import CompiledFormatError, Tables
from eighteen.title.model import Rules
from eighteen.title.pipeline import load_title

ROOT = Path(__file__).resolve().parents[1]


def test_every_value_the_schema_allows_has_an_implementation() -> None:
    assert missing() == {}


def test_nothing_is_registered_that_the_schema_does_not_allow() -> None:
    known = choices()
    assert {
        c: v - known.get(c, set()) for c, v in IMPLEMENTED.items() if v - known.get(c, set())
    } == {}


def test_the_registry_names_where_each_value_is_played() -> None:
    assert WHERE["sell_drop"] == {
        "row_per_share": "eighteen.engine.shares.sell",
        "step_if_president": "eighteen.engine.shares.sell",
    }
    assert WHERE["dividend_move.kind"]["by_ratio"] == "eighteen.engine.finance.dividend_move"
    assert WHERE["ability"]["exclusive_hexes"] == "eighteen.engine.privates.excluded_hexes"
    # the sources that need no terms are names; the share issue is a table tagged by kind
    assert choices()["emergency_money[]"] == {
        "treasury",
        "president_cash",
        "president_sells_shares",
    }
    assert choices()["emergency_money[].kind"] == {"issue_shares"}
    assert choices()["emergency_money[].pricing"] == {"bundle", "per_share"}
    assert (
        WHERE["emergency_money[].kind"]["issue_shares"]
        == "eighteen.engine.rounds.or_trains.emergency_issue_options"
    )


def _rule_reads(path: Path) -> set[str]:
    """Fields read as ``<...>rules.<field>`` in the code of ``path`` (not in its comments or
    docstrings)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute):
            base = node.value
            name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
            if name == "rules":
                out.add(node.attr)
    return out


def test_every_rule_is_read_by_the_engine() -> None:
    """A knob no code reads is an error the author never sees: each Rules field is read as
    ``rules.<field>`` in the engine's code (or by the compiler into the tables it loads),
    unless it has a single value (private_auction: the waterfall is the one auction)."""
    sources = [
        *(ROOT / "src/eighteen/engine").rglob("*.py"),
        ROOT / "src/eighteen/title/compile.py",
    ]
    read = set().union(*map(_rule_reads, sources))
    assert "must_own_train" in read and "no_such_rule" not in read
    unread = [f for f in Rules.model_fields if f not in read and len(choices().get(f, ())) != 1]
    assert unread == []


@pytest.mark.parametrize("title", ["1830", "1830-example", "1833ne", "1833ne-takeover"])
def test_shipped_titles_are_playable(title: str) -> None:
    tables = eighteen.load_title(title)
    assert unsupported(tables.doc) == []
    assert tables.unplayable == []


def test_findings_name_their_place_and_the_engine_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    data = copy.deepcopy(eighteen.load_title("1833ne").data)
    data["options"] = [{"id": "x", "description": "x", "rules": {"auction_bidoff": "dice"}}]
    doc = Tables(data).doc  # an option's overrides are not typed until a game takes them
    # values the format allows but no implementation has registered (as if it were lost)
    for choice, value in [
        ("sell_drop", "step_if_president"),
        ("ability", "block_hexes"),
        ("event", "close_player_privates"),
        ("bonus", "connection"),
    ]:
        monkeypatch.setitem(IMPLEMENTED, choice, IMPLEMENTED[choice] - {value})
    assert findings(doc) == [
        ("title", ("rules", "sell_drop"), "rules.sell_drop = 'step_if_president'"),
        ("title", ("options", 0, "rules", "auction_bidoff"), "rules.auction_bidoff = 'dice'"),
        ("privates", ("privates", 0, "abilities", 0, "type"), "private P1 ability block_hexes"),
        ("privates", ("privates", 1, "abilities", 0, "type"), "private P2 ability block_hexes"),
        ("privates", ("privates", 2, "abilities", 0, "type"), "private P3 ability block_hexes"),
        ("phases", ("phases", 2, "events", 0), "event close_player_privates"),
        ("map", ("bonuses", 0, "kind"), "bonus BOS-MTL of kind connection"),
        ("map", ("bonuses", 1, "kind"), "bonus BOS-ALB of kind connection"),
        ("map", ("bonuses", 2, "kind"), "bonus BOS-NY of kind connection"),
        ("map", ("bonuses", 3, "kind"), "bonus MTL-POR of kind connection"),
        ("map", ("bonuses", 4, "kind"), "bonus BOS-OGD of kind connection"),
    ]
    monkeypatch.undo()
    # values outside the format are refused by the typed compiled format as the tables
    # load, by path
    data["rules"]["sell_drop"] = "two_rows"
    data["privates"][0]["abilities"].append({"type": "extra_token", "hexes": ["H23"]})
    data["phases"][1]["events"] = ["close_everything"]
    data["bonuses"][0]["kind"] = "teleport"
    with pytest.raises(CompiledFormatError) as refused:
        Tables(data)
    assert [p.split(":")[0] for p in str(refused.value).split("; ")] == [
        "rules.sell_drop",
        "phases.1.events.0",
        "privates.0.abilities.1",
        "bonuses.0.kind",
    ]
    # an option's override is checked against what the engine plays
    data["rules"]["sell_drop"] = "step_if_president"
    data["phases"][1]["events"] = []
    data["privates"][0]["abilities"].pop()
    data["bonuses"][0]["kind"] = "connection"
    with pytest.raises(ValueError, match="cannot run this title yet: rules.auction_bidoff"):
        Game.new(Tables(data), ["A", "B", "C"])


def test_validate_reports_what_no_implementation_plays_at_its_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Were a value of the schema left without an implementation, validate would say so
    where the title asks for it, as an error."""
    monkeypatch.setitem(IMPLEMENTED, "sell_drop", {"row_per_share"})
    _, problems = load_title(ROOT / "titles/1833ne")
    found = [(p.code, Path(p.file).name, p.line) for p in problems if p.code == "E198"]
    line = next(
        i
        for i, text in enumerate((ROOT / "titles/1833ne/title.toml").read_text().splitlines(), 1)
        if text.startswith("sell_drop =")
    )
    assert found == [("E198", "title.toml", line)]
    assert [p.is_error for p in problems if p.code == "E198"] == [True]
