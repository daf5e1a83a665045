"""What the generic engine can play, as the engine's implementations register it.

A thin public face of :mod:`eighteen.engine.capabilities`: loading it loads every mechanic
(through :mod:`eighteen.engine.game`), so the registry is complete. ``Game`` refuses
compiled tables for which :func:`unsupported` finds anything, and ``eighteen validate``
reports the same findings as errors (E198), located in the title's files.
"""

from __future__ import annotations

import eighteen.engine.game  # noqa: F401  (every mechanic registers itself on import)
from eighteen.engine.capabilities import (
    IMPLEMENTED,
    WHERE,
    choices,
    findings,
    implements,
    missing,
    unsupported,
)

__all__ = [
    "IMPLEMENTED",
    "WHERE",
    "choices",
    "findings",
    "implements",
    "missing",
    "unsupported",
]
