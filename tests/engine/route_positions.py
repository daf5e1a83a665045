"""Route positions of a real 18xx.games 1830 game (fixture 29133), replayed map-side only.

Tile lays and station tokens are applied to a bare :class:`MapState` (each lay checked
against the board's legal lays), the phase is followed from train purchases, and every
``run_routes`` action yields a :class:`Position`: the board as it stood, the corporation,
its running trains and what 18xx.games recorded. Used by tests/engine/test_routes.py and
bench/routes.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path as FsPath
from typing import Any

from eighteen.engine.map import Board
from eighteen.engine.position import MapState
from eighteen.title.model import Phase

FIXTURE = FsPath(__file__).resolve().parents[1] / "fixtures/18xx-games/1830/29133.json"


@dataclass
class Position:
    """One recorded run: action id, corporation, board, trains, phase colour, recorded run."""

    action: int
    corp: str
    state: MapState
    trains: list[tuple[str, int | None]]
    revenue_key: str
    recorded: list[dict[str, Any]]

    @property
    def recorded_total(self) -> int:
        """Revenue 18xx.games recorded for the whole run."""
        return sum(int(r["revenue"]) for r in self.recorded)


def fixture_actions() -> list[dict[str, Any]]:
    """The fixture's actions minus skipped ones and undo/redo markers."""
    game = json.loads(FIXTURE.read_text())
    return [a for a in game["actions"] if not a.get("skip") and a["type"] not in ("undo", "redo")]


def _counted(n: int | None) -> int:
    """A tile's supply, known to be counted (every 1830 tile has a count)."""
    assert n is not None
    return n


def replay(board: Board, phases: Sequence[Phase], *, check_lays: bool = True) -> Iterator[Position]:
    """Replay the fixture's map actions on the 1830 board (``phases``: the title's);
    yield a Position at every ``run_routes``.

    The trains of a position are the ones the corporation ran (18xx.games lists one route
    per train that ran; the corporation had no idle train in this game).
    """
    supply: dict[str, int | None] = {t: d.count for t, d in board.tiles.items()}
    phase_colors = {p.id: {c.value for c in p.tiles} for p in phases}
    colors, revenue_key = phase_colors["2"], "yellow"
    s = MapState()
    homed: set[str] = set()
    copies: dict[str, str] = {}  # tile copy id -> hex
    for a in fixture_actions():
        corp = a["entity"] if a.get("entity_type") == "corporation" else None
        if corp and corp not in homed and not board.home_waits(s, corp):
            homed.add(corp)  # (a home that waits for track is a logged place_token)
            home = board.corporations[corp].home
            assert home is not None, corp  # (every 1830 corporation has a home)
            board.place_token(s, corp, home, board.home_city_options(s, corp)[0])
        if a["type"] == "buy_train" and a.get("variant") in phase_colors:
            name = a["train"].split("-")[0]
            colors = phase_colors.get(name, colors)
            if name == "5":
                revenue_key = "brown"
        elif a["type"] == "lay_tile":
            tile = a["tile"].rsplit("-", 1)[0]
            if check_lays:
                opts = board.lay_options(
                    s,
                    corp,
                    colors,
                    blocked=set(),
                    tile_supply=supply,
                    require_connection=corp is not None,
                    hexes={a["hex"]},
                    tiles={tile},
                    stations=[board.corporations[corp].home] if corp and corp not in homed else [],
                )
                lays = {(o.hex, o.tile, o.rotation) for o in opts}
                assert (a["hex"], tile, a["rotation"]) in lays, a
            old = board.lay_tile(s, a["hex"], tile, a["rotation"])
            supply[tile] = _counted(supply[tile]) - 1
            if old in supply:
                supply[old] = _counted(supply[old]) + 1
            copies[a["tile"]] = a["hex"]
        elif a["type"] == "place_token":
            assert corp is not None, a  # (only corporations place tokens)
            copy, _, city = a["city"].rpartition("-")
            hex_id = copies[copy]
            if corp in s.city_tokens(hex_id, int(city)):
                continue  # a home token the replay has placed already
            if corp not in homed and board.corporations[corp].home == hex_id:
                homed.add(corp)
                assert int(city) in board.home_city_options(s, corp), a
            elif check_lays:
                assert (hex_id, int(city)) in list(board.token_options(s, corp, reserved={})), a
            board.place_token(s, corp, hex_id, int(city))
        elif a["type"] == "run_routes":
            trains: list[tuple[str, int | None]] = []
            for r in a["routes"]:
                name = r["train"].split("-")[0]
                trains.append((r["train"], None if name == "D" else int(name)))
            yield Position(a["id"], str(corp), s.copy(), trains, revenue_key, a["routes"])
