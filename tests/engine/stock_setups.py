"""Stock-round positions for the audits of tests/engine (the stock refusals and who acts
next): four players A-D after a face-value auction, on the importer's readings by default,
and setups that edit the state (each ends with ``invalidate_caches``)."""

from __future__ import annotations

import pytest
from readings_18xx import READINGS_18XX

from eighteen import Game, IllegalAction, load_title
from eighteen.engine import shares
from eighteen.engine.actions import Action, Bid, Par

PLAYERS = ["A", "B", "C", "D"]


def new(options: list[str] | None = None, players: list[str] | None = None) -> Game:
    """A new 1830 game of ``players`` (A-D) with ``options`` (None: the importer's
    readings)."""
    return Game.new(
        load_title("1830"),
        players or PLAYERS,
        options=READINGS_18XX if options is None else options,
    )


def opening(options: list[str] | None = None) -> Game:
    """A SV, B CS, C DH, D MH, A CA (and PRR_1), B BO (B&O at $100): stock round 1 starts
    with C.  Cash A $420, B $340, C $530, D $490."""
    g = new(options)
    for who, pid, face in [
        ("A", "SV", 20),
        ("B", "CS", 40),
        ("C", "DH", 70),
        ("D", "MH", 110),
        ("A", "CA", 160),
        ("B", "BO", 220),
    ]:
        g.apply(Bid(who, pid, face))
    g.apply(Par("B", "B&O", 100))
    return g


def later(g: Game, turn: str) -> Game:
    """Make the stock round a later one (number 2) with a new turn of ``turn``."""
    r = g.state.round
    r.number = 2
    r.turn = PLAYERS.index(turn)
    r.bought, r.acted, r.sale_dropped = [], False, []
    g.invalidate_caches()
    return g


def start(g: Game, corp: str, par: int, president: str) -> None:
    """Put ``corp`` on its par cell with ``president`` holding the president's
    certificate (no money moves)."""
    cs = g.state.corporations[corp]
    cs.par = par
    cs.cell = list(g.tables.par_cell(par))  # type: ignore[arg-type]
    cs.president = president
    g.state.certs[f"{corp}_0"] = president
    g.invalidate_caches()


def give(g: Game, corp: str, owner: str, n: int, source: str = "ipo") -> None:
    """Move ``n`` ordinary certificates of ``corp`` from ``source`` to ``owner``."""
    for cert in shares.ordinary_certs_of(g, corp, source)[:n]:
        g.state.certs[cert] = owner
    g.invalidate_caches()


def place(g: Game, corp: str, row: int, col: int) -> None:
    """Move ``corp``'s marker to the market cell (row, col)."""
    g.state.corporations[corp].cell = [row, col]
    g.invalidate_caches()


def set_cash(g: Game, **cash: int) -> None:
    """Set players' cash (the bank's is left: money is not counted in these setups)."""
    for name, amount in cash.items():
        g.state.player(name).cash = amount
    g.invalidate_caches()


def refused(g: Game, action: Action, match: str | None = None) -> None:
    """The action is refused and leaves the state exactly as it was."""
    before = g.state_hash()
    with pytest.raises(IllegalAction, match=match):
        g.apply(action)
    assert g.state_hash() == before
