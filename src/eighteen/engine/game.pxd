# Types for the compiled build of game.py (Cython's pure-Python mode, as map.pxd): the game
# is a native class, so that its methods read its attributes as struct fields.

cdef class Game:
    cdef public object tables
    cdef public list players
    cdef public object seed
    cdef public list options
    cdef public object rules
    cdef public list log
    cdef public list events
    cdef public list _pending_events
    cdef public dict _memo
    cdef public dict _steps
    cdef public object stuck
    cdef public object state
    cdef public dict _snapshots
