"""Pictures of titles and games: the map, tiles and market as SVG inside one HTML page.

- :func:`render_title` writes the page of a compiled title (``generated/<id>.json``).
- :func:`render_save` replays a save (all of it, or its first ``at`` actions) and writes the
  page of the game at that point: laid tiles, tokens, share prices, trains and cash.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from eighteen.compiled import CompiledTitle
from eighteen.render.page import render_page, write_page
from eighteen.render.view import GameSnapshot, snapshot_of
from eighteen.title.save import check_save

if TYPE_CHECKING:
    from eighteen.engine.tables import Tables

__all__ = [
    "GameSnapshot",
    "game_snapshot",
    "render_page",
    "render_save",
    "render_title",
    "snapshot_of",
    "write_page",
]


def render_title(compiled: CompiledTitle, out_dir: Path) -> Path:
    """Write ``out_dir/index.html`` for a compiled title; return its path."""
    return write_page(compiled, out_dir)


def game_snapshot(
    save: Mapping[str, Any], at: int | None = None, tables: Tables | None = None
) -> tuple[CompiledTitle, GameSnapshot]:
    """Replay ``save`` up to ``at`` actions (all when None): (compiled title, snapshot).

    Raises SaveFormatError for data that is no save, ValueError for an ``at`` out of range
    and the engine's IllegalAction when an action of the save is refused.
    """
    from eighteen.engine.actions import action_from_json
    from eighteen.engine.game import Game
    from eighteen.engine.tables import load_title

    record = check_save(save)
    actions = record.actions
    n = len(actions) if at is None else at
    if not 0 <= n <= len(actions):
        raise ValueError(f"--at {n} is outside 0..{len(actions)} (the save has {len(actions)})")
    tables = tables or load_title(record.title)
    game = Game(tables, list(record.players), seed=record.seed, options=list(record.options))
    for i, raw in enumerate(actions[:n]):
        try:
            game.apply(action_from_json(raw))
        except Exception as exc:
            raise type(exc)(f"action {i} ({raw.get('type')}): {exc}") from None
    snapshot = snapshot_of(tables.doc, game.state, actions=n, total_actions=len(actions))
    return tables.doc, snapshot


def render_save(
    save: Mapping[str, Any], out_dir: Path, at: int | None = None, tables: Tables | None = None
) -> Path:
    """Replay a save (to ``at`` actions) and write ``out_dir/index.html``; return its path."""
    compiled, snapshot = game_snapshot(save, at, tables)
    return write_page(compiled, out_dir, snapshot)
