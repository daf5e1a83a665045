"""The --bots syntax: kinds, counts, named personalities and traits, and its errors."""

from __future__ import annotations

import pytest

from eighteen.engine.bots import GreedyBot, Personality, RandomBot
from eighteen.sim.botspec import BotSpec, BotSpecError, parse_bots, seat_bots


def labels(text: str) -> list[str]:
    return [b.label for b in parse_bots(text)]


def test_kinds_counts_and_styles() -> None:
    assert labels("greedy") == ["greedy"]
    assert labels("greedy, 3*random") == ["greedy", "random", "random", "random"]
    assert labels("greedy:cautious,greedy:bold,2*random") == [
        "greedy:cautious",
        "greedy:bold",
        "random",
        "random",
    ]


def test_traits_override_the_style() -> None:
    (spec,) = parse_bots("greedy:cautious(risk=0.8)")
    assert spec.personality == Personality(cash=0.4, risk=0.8)
    assert spec.label == "greedy(cash=0.4,risk=0.8)"
    # traits that match a named style print as that style
    assert labels("greedy(cash=0.4,risk=0.1),greedy(risk=0.5)") == ["greedy:cautious", "greedy"]
    assert labels("2*greedy(cash=0.3, risk=0.25)") == ["greedy(cash=0.3,risk=0.25)"] * 2


def test_specs_make_their_bots() -> None:
    bot = BotSpec("greedy", Personality(cash=0.2, risk=0.7)).make(5)
    assert isinstance(bot, GreedyBot) and bot.personality == Personality(0.2, 0.7)
    assert isinstance(BotSpec("random").make(5), RandomBot)


def test_seats() -> None:
    assert [b.label for b in seat_bots(parse_bots("random"), 3)] == ["random"] * 3
    assert len(seat_bots(parse_bots("greedy,3*random"), 4)) == 4
    with pytest.raises(BotSpecError, match="names 2 bots for 4 players"):
        seat_bots(parse_bots("greedy,random"), 4)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "--bots is empty"),
        ("clever", "unknown bot kind 'clever' in 'clever'; choose from greedy, random"),
        ("greedy:lazy", "unknown personality 'lazy' in 'greedy:lazy'; choose from default,"),
        ("random:bold", "the random bot has no personality: 'random:bold'"),
        ("greedy(speed=1)", "cannot read trait 'speed=1' in 'greedy(speed=1)'"),
        ("greedy(cash=lots)", "cash must be a number in 'greedy(cash=lots)', not 'lots'"),
        ("greedy(risk=2)", "risk must be between 0 and 1, not 2.0 in 'greedy(risk=2)'"),
        ("greedy(cash=0.1", "unclosed '(' in 'greedy(cash=0.1'"),
        ("greedy),random", "unbalanced ')' at column 7"),
        ("greedy,,random", "empty bot in 'greedy,,random'"),
        ("0*greedy", "bot count must be between 1 and 100 in '0*greedy'"),
        ("101*greedy", "bot count must be between 1 and 100 in '101*greedy'"),
        ("9" * 30 + "*random", f"bot count must be between 1 and 100 in '{'9' * 30}*random'"),
        ("greedy-bold", "cannot read bot 'greedy-bold'"),
        ("greedy(cash=0.3,cash=0.5)", "cash is given twice in 'greedy(cash=0.3,cash=0.5)'"),
    ],
)
def test_errors(text: str, message: str) -> None:
    with pytest.raises(BotSpecError) as info:
        parse_bots(text)
    assert str(info.value).startswith(message), str(info.value)
