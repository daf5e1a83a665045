"""The pace of Python's cyclic garbage collector while the engine works in bulk: a replay
(an import, a load, an undo's rebuild), a bot game, a route search (at a pace of its own,
:data:`eighteen.engine.routefinder.SEARCH_PACE`).

The engine's objects make no reference cycles (each is freed when its last reference
goes), so the cyclic collector finds nothing and only costs time.  At CPython's default
pace, a young collection every 700 net allocations of containers, the imports of the
18xx.games corpus (bench/replay.py) spent an eighth of their time in it, much of it in
the full collections that walk every object of the process (the title tables and the
track graphs the caches keep included).  At 20,000 net allocations, 13 of the 87 imports
still made a young collection, 7 to 12 ms each (up to a tenth of a short import); at the
bulk pace of 100,000, none does.
:func:`bulk` slows the pace for a block of work and puts it back after.  It never turns
the collector off: a program whose own objects make cycles still has them collected.

On leaving the block, the young objects (those it made, and any young object of the program)
are moved to the oldest generation at once. Left young, the first allocation after the pace
is put back would start a young collection that walks all of them: at the end of an import,
every position, reach and checked route the game keeps (about 200,000 references for a game
of 700 actions, 6 to 11 ms, a tenth to a twentieth of the import), to find no cycle. The
move costs nothing (CPython's ``gc.freeze`` then ``gc.unfreeze``: two splices of its lists);
a full collection still looks at them. A process that froze objects itself (``gc.freeze``,
before forking workers) keeps them frozen: there the young objects are left where they are.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: Net container allocations between young collections inside :func:`bulk`.
YOUNG = 100_000


@contextmanager
def bulk(young: int = YOUNG) -> Iterator[None]:
    """Collect young objects every ``young`` net allocations, not more often, inside the
    block; on leaving, the young objects go to the oldest generation and the thresholds
    found on entry are put back, unless the block set others itself.  A pace already
    slower, or a collector switched off by a threshold of 0, is left as it is (so nested
    blocks change nothing)."""
    old = gc.get_threshold()
    ours = (young, *old[1:])
    slower = 0 < old[0] < young
    if slower:
        gc.set_threshold(*ours)
    try:
        yield
    finally:
        if slower and gc.get_threshold() == ours:
            if gc.get_freeze_count() == 0:
                gc.freeze()  # every tracked object to the permanent generation...
                gc.unfreeze()  # ...and from there to the oldest: none left young
            gc.set_threshold(*old)
