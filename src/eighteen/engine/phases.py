"""Phases: what the current phase allows, and entering a new one.

A phase starts at the first purchase of the train named by its ``on`` (seed 002, "game
phases"): it sets the tile colours, operating rounds per set (fixed when a stock round
ends), the train limit, off-board revenue and whether corporations may buy privates.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eighteen.engine.capabilities import implements
from eighteen.title.model import Phase

if TYPE_CHECKING:
    from eighteen.engine.game import Game


def current(g: Game) -> Phase:
    """The current phase's table row."""
    return g.tables.phases[g.state.phase]


def tile_colors(g: Game) -> set[str]:
    return {c.value for c in current(g).tiles}


def train_limit(g: Game) -> int:
    return current(g).train_limit


def revenue_key(g: Game) -> str:
    return current(g).offboard_revenue


def privates_buyable(g: Game) -> bool:
    return current(g).privates_buyable


def on_train_bought(g: Game, train_type: str) -> None:
    """Enter the phase started by the first purchase of ``train_type``, if any, and run
    its events."""
    for i, ph in enumerate(g.tables.phases):
        if ph.on == train_type and i > g.state.phase:
            g.state.phase = i
            g.note(f"phase {ph.id} begins")
            for ev in ph.events:
                run_event(g, ev)
            on_phase(g, str(ph.id))


def on_phase(g: Game, phase_id: str) -> None:
    """What the tables tie to a phase's start besides its events: privates whose
    ``closes_on`` names it close (seed 003, "private companies"), every ferry leaves at
    ``ferries.leave_on``."""
    from eighteen.engine import ferries, privates

    for p in g.tables.privates:
        if p.closes_on == phase_id:
            privates.close(g, p.id, f"phase {phase_id}")
    ferries.on_phase(g, phase_id)


def reached(g: Game, phase_id: str | None) -> bool:
    """Has the phase ``phase_id`` begun (False for None)?"""
    return phase_id is not None and g.state.phase >= g.tables.phase_index(phase_id)


@implements("event", "close_privates", "close_player_privates")
def run_event(g: Game, event: str) -> None:
    """Run a phase or train event by name."""
    from eighteen.engine import privates

    if event == "close_privates":
        privates.close_all(g)
    elif event == "close_player_privates":
        privates.close_player_owned(g)
    else:  # the compiler refuses unknown events; stay safe if one slips through
        g.note(f"event {event} ignored")
