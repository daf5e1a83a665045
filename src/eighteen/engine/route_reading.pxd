# Types for the compiled build of route_reading.py (Cython's pure-Python mode, as map.pxd):
# the reading's functions typed, each call between them, and to the route check, a C call.

import cython

from eighteen.engine.graph cimport TrackGraph
from eighteen.engine.route_check cimport check_on, same_at


cpdef list _chains(TrackGraph g, object hexes)

@cython.locals(g=TrackGraph, tiles=dict, hexes=list, named=tuple)
cpdef object first_reading(object board, object state, object connections, object nodes=*)

cpdef object _first_reading(TrackGraph g, object connections, object nodes)
@cython.locals(i=cython.Py_ssize_t)
cpdef object _first_of(
    list options, Py_ssize_t k, object stop, list pids, list stops, object want, object take=*
)
cpdef tuple _reading_options(TrackGraph g, object connections, object nodes)
cpdef object _node_stop(TrackGraph g, object node)

cpdef list _walk_chains(TrackGraph g, object hexes)

cdef _chain_walk(
    TrackGraph g, object hexes, list out, tuple node, long idx, list chain, object sides
)
