"""Phases: what the current phase allows, and entering a new one.

A phase starts at the first purchase of the train named by its ``on`` (seed 002, "game
phases"): it sets the tile colours, operating rounds per set (fixed when a stock round
ends), the train limit, off-board revenue and whether corporations may buy privates.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eighteen.title.model import Phase

if TYPE_CHECKING:
    from eighteen.engine.context import Context


def current(g: Context) -> Phase:
    """The current phase's table row."""
    return g.tables.phases[g.state.phase]


def current_id(g: Context) -> str:
    """The current phase's id."""
    return g.tables.phase_ids[g.state.phase]


def tile_colors(g: Context) -> frozenset[str]:
    """The tile colours the current phase allows, by name."""
    return g.tables.phase_colors[g.state.phase]


def train_limit(g: Context) -> int:
    return g.tables.phase_train_limits[g.state.phase]


def revenue_key(g: Context) -> str:
    return g.tables.phase_revenue_keys[g.state.phase]


def privates_buyable(g: Context) -> bool:
    return g.tables.phase_privates_buyable[g.state.phase]


def reached(g: Context, phase_id: str | None) -> bool:
    """Has the phase ``phase_id`` begun (False for None)?"""
    return phase_id is not None and g.state.phase >= g.tables.phase_index(phase_id)
