"""Greedy bot personalities change its choices: where it pars, whose shares it buys."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import eighteen
from eighteen.engine.actions import BuyShares, Par
from eighteen.engine.bots import PERSONALITIES, Bot, GreedyBot, Personality, play
from eighteen.engine.game import Game

PLAYERS = ["Player1", "Player2", "Player3", "Player4"]


def first_decision(wanted: Callable[[Game], bool]) -> Game:
    """1830 played by greedy bots up to the first position where ``wanted`` holds."""
    game = Game.new(eighteen.load_title("1830"), players=PLAYERS, seed=1)
    bots: dict[str, Bot] = {p: GreedyBot(i) for i, p in enumerate(PLAYERS)}
    for _ in play(game, bots):
        if wanted(game):
            return game
    raise AssertionError("no such position")


def first_par_decision() -> Game:
    """The first stock-round turn that may start a corporation."""
    return first_decision(
        lambda g: (
            g.state.round.kind == "stock" and any(isinstance(a, Par) for a in g.legal_actions())
        )
    )


def rival_shares(game: Game) -> list[BuyShares]:
    """Share buys of corporations another player runs."""
    actor = game.acting()
    return [
        a
        for a in game.legal_actions()
        if isinstance(a, BuyShares)
        and game.state.corporations[a.corporation].president not in (None, actor)
    ]


def test_par_where_it_can_buy_sixty_percent_itself() -> None:
    game = first_par_decision()
    actor = game.acting()
    assert actor is not None
    cash = game.state.player(actor).cash
    pars = [a for a in game.legal_actions() if isinstance(a, Par)]
    prices = sorted({a.price for a in pars})
    for style, factor in ((Personality(), 1.0), (PERSONALITIES["bold"], 1.16)):
        bot = GreedyBot(0, style)
        best = max(pars, key=lambda a: bot.score(game, a))
        assert best.price == max(p for p in prices if p * 6 <= cash * factor + 1e-9)
    cautious = GreedyBot(0, PERSONALITIES["cautious"])
    best = max(pars, key=lambda a: cautious.score(game, a))
    assert best.price == max(p for p in prices if p * 6 <= cash * 0.84)


def test_a_cautious_bot_leaves_other_presidents_shares_alone() -> None:
    game = first_decision(lambda g: g.state.round.kind == "stock" and bool(rival_shares(g)))
    others = rival_shares(game)
    assert others
    for a in others:
        assert GreedyBot(0, PERSONALITIES["cautious"]).share_score(game, a) == -0.5
    actor = game.acting()
    floating = any(c.president == actor and not c.floated for c in game.state.corporations.values())
    for a in others:  # the default bot buys them, from the IPO first, once its own floated
        expected = -0.5 if floating else (2.0 if a.source == "ipo" else 1.5)
        assert GreedyBot(0).share_score(game, a) == expected


@pytest.mark.parametrize("trait", ["cash", "risk"])
def test_traits_are_between_zero_and_one(trait: str) -> None:
    with pytest.raises(ValueError, match=f"{trait} must be between 0 and 1, not -0.1"):
        Personality(**{trait: -0.1})
