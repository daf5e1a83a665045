# Types for the compiled build of game.py (Cython's pure-Python mode, as map.pxd): the game
# is a native class, so that its methods read its attributes as struct fields; its
# tables, rules, state, options and players are those of its base class (context.pxd).
from eighteen.engine.context cimport GameData

cdef class Game(GameData):
    cdef public object seed
    cdef public list log
    cdef public list events
    cdef public list _pending_events
    cdef public object stuck
    cdef public dict _snapshots
