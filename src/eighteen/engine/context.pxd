# Types for the compiled build of context.py (Cython's pure-Python mode, as map.pxd): the
# data every mechanic reads of a game, a native class that the game extends (game.pxd),
# so that a mechanic's .pxd may type its game as one and read these as struct fields.

from eighteen.engine.state cimport State
from eighteen.engine.tables cimport Tables

cdef class GameData:
    cdef public Tables tables
    cdef public object rules
    cdef public State state
    cdef public list options
    cdef public list players
    cdef public dict _memo
    cdef public dict _steps

    cpdef bint step_active(self, object step)
    cpdef begin_changes(self)
    cpdef step_moved(self)
    cpdef end_changes(self)
