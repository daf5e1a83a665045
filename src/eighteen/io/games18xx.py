"""18xx.games game exports: import (replay in our engine, exactly) and export.

The export format is described in the reference note ``18xx-games-format.md`` (shared
reference folder); section numbers below (§3.2 ...) are that note's.

Import (:func:`import_game`):

* the raw action list goes through the undo/redo filter (§3.2, :func:`filter_actions`);
  each kept action is followed by its ``auto_actions`` (:func:`effective_actions`);
* every action is mapped onto our actions (:mod:`eighteen.engine.actions`) and applied;
  ``program_*`` automation settings and chat change no state and are skipped;
* routes are re-derived, never trusted (§3.4): each ``run_routes`` route is read from its
  ``connections`` on our board and checked by our engine, and its revenue must equal the
  logged one;
* ``settings.optional_rules`` become title options (same ids); the title's
  ``import_18xx.options`` are switched on too (18xx.games' own rule choices);
* the first action our engine refuses, or whose logged revenue differs, stops the replay:
  a :class:`Divergence` names it.  Bad input (not JSON, missing fields, unknown action
  types, hexes, tiles, companies, players...) raises :class:`ExportError`, one line that
  names the action id.

Where the two engines differ only in bookkeeping, the importer bridges the gap, never the
rules: 18xx.games logs a ``pass`` for each optional operating step a corporation declines
(and skips steps with nothing to do), our engine skips other steps, so corporation passes
are not replayed one by one; instead, when a logged action does not fit the step our
engine is in, the acting corporation passes its optional steps until it does (a pass our
engine would refuse is never made).  A player's ``pass`` is applied when that player is
to act (our engine passes players who can do nothing by itself).  A home token that our
engine placed itself is checked against the logged one, not placed twice.

Export (:func:`export_game`) writes one of our games in the same format; importing the
export gives the same state (same :meth:`~eighteen.engine.game.Game.state_hash`).

Ids: corporations, privates, trains, tiles and hexes have the same ids in our title
tables; a certificate ``<corp>_<i>`` is looked up by corporation; a printed tile id comes
from the title's ``import_18xx.preprinted`` table, or is the hex itself.  Nothing here
names a title.

The code is split by job: :mod:`eighteen.io.games18xx_log` (reading an export, the
undo/redo filter, errors), :mod:`eighteen.io.games18xx_import` (the :class:`Importer`),
:mod:`eighteen.io.games18xx_actions` (one handler per logged action type) and
:mod:`eighteen.io.games18xx_export`.  This module gathers their public names.
"""

from __future__ import annotations

from eighteen.io.games18xx_export import export_game
from eighteen.io.games18xx_import import (
    Importer,
    ImportResult,
    _created_day,
    export_tables,
    import_game,
)
from eighteen.io.games18xx_log import (
    END_REASONS,
    MAX_PASSES,
    NO_STATE,
    Divergence,
    ExportError,
    effective_actions,
    filter_actions,
    read_export,
)

__all__ = [
    "END_REASONS",
    "MAX_PASSES",
    "NO_STATE",
    "Divergence",
    "ExportError",
    "ImportResult",
    "Importer",
    "_created_day",
    "effective_actions",
    "export_game",
    "export_tables",
    "filter_actions",
    "import_game",
    "read_export",
]
