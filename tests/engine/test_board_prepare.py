"""The board's tables made with it (``Board.prepare``): every lay table and face a game can
ask for exists before the game, so none is made inside one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import eighteen
from eighteen.engine.bots import make_bots, play
from eighteen.engine.map import Board
from eighteen.engine.network import board_of
from eighteen.io import games18xx

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "fixtures"


def made(board: Board) -> tuple[int, int, int]:
    return len(board._lay_tables), len(board._face_cache), len(board._turns)


@pytest.mark.parametrize(
    ("title_id", "counts"), [("1830", (4852, 4852, 266)), ("1833ne", (6285, 6285, 316))]
)
def test_the_engines_board_has_every_table_made(title_id: str, counts: tuple[int, ...]) -> None:
    """One lay table per hex and face it can show (printed, or a tile at a rotation a
    chain of lays reaches), one face each, one entry per tile and rotation."""
    assert made(board_of(eighteen.load_title(title_id))) == counts


def test_no_table_is_made_inside_a_game() -> None:
    """A greedy 4-player game of each title and the real 1830 game's import leave the
    board's tables as the board was made."""
    for title_id in ("1830", "1833ne"):
        tables = eighteen.load_title(title_id)
        board = board_of(tables)
        before = made(board)
        names = [f"Player{i + 1}" for i in range(4)]
        game = eighteen.Game.new(tables, players=names, seed=3)
        assert sum(1 for _ in play(game, make_bots("greedy", names, 3))) > 300
        assert made(board) == before
    board = board_of(eighteen.load_title("1830"))
    before = made(board)
    data = json.loads((FIXTURES / "18xx-games" / "1830" / "29133.json").read_text())
    assert games18xx.import_game(data).mismatches() == []
    assert made(board) == before
