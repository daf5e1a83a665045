"""Entering a phase: what a new phase does to the game (seed 002, "game phases").

The first purchase of the train named by a phase's ``on`` starts it; its events run
(each implemented where its effect lives), privates whose ``closes_on`` names it close and
the ferries may leave.  The phase queries themselves are :mod:`eighteen.engine.phases`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eighteen.engine import ferries, privates
from eighteen.engine.capabilities import implements

if TYPE_CHECKING:
    from eighteen.engine.context import Context


def on_train_bought(g: Context, train_type: str) -> None:
    """Enter the phase started by the first purchase of ``train_type``, if any, and run
    its events."""
    for i, ph in enumerate(g.tables.phases):
        if ph.on == train_type and i > g.state.phase:
            g.state.phase = i
            g.note(f"phase {ph.id} begins")
            for ev in ph.events:
                run_event(g, ev)
            on_phase(g, str(ph.id))


def on_phase(g: Context, phase_id: str) -> None:
    """What the tables tie to a phase's start besides its events: privates whose
    ``closes_on`` names it close (seed 003, "private companies"), every ferry leaves at
    ``ferries.leave_on``."""
    for p in g.tables.privates:
        if p.closes_on == phase_id:
            privates.close(g, p.id, f"phase {phase_id}")
    ferries.on_phase(g, phase_id)


@implements("event", "close_privates", "close_player_privates")
def run_event(g: Context, event: str) -> None:
    """Run a phase or train event by name."""
    if event == "close_privates":
        privates.close_all(g)
    elif event == "close_player_privates":
        privates.close_player_owned(g)
    else:  # the compiler refuses unknown events; stay safe if one slips through
        g.note(f"event {event} ignored")
