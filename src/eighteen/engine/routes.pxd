# Types for the compiled build of routes.py (Cython's pure-Python mode, as map.pxd): a
# route's stops and the route itself are native classes, made by C code (a frozen
# dataclass's __init__ sets each field through object.__setattr__).

import cython

# The route check and the chain walks read the graph's tables many times a route: typed
# as the graph's native class (graph.pxd), each read is a struct field's.
from eighteen.engine.graph cimport TrackGraph


cdef class Stop:
    cdef readonly object hex
    cdef readonly object kind
    cdef readonly object index
    cdef readonly object revenue
    cdef readonly object counted


cdef class Route:
    cdef readonly object train
    cdef readonly tuple stops
    cdef readonly tuple paths
    cdef readonly object revenue
    cdef readonly tuple bonuses
    cdef readonly tuple extension


@cython.locals(hexes=tuple, laid=tuple, kept=object)
cpdef tuple _check(
    TrackGraph g,
    object corp,
    object train,
    object distance,
    object paths,
    object revenue_key,
    object bonuses=*,
    object stations=*,
    object excluded=*,
    object pids=*,
    object tokens=*,
    object groups=*,
)

@cython.locals(stride=cython.long)
cpdef set _track_hexes(TrackGraph g, tuple track)

cpdef list _chains(TrackGraph g, object hexes)

@cython.locals(g=TrackGraph, tiles=dict, hexes=list, named=tuple)
cpdef object first_reading(object board, object state, object connections, object nodes=*)
@cython.locals(i=cython.Py_ssize_t)
cpdef bint _same_at(tuple hexes, tuple was, object table)
cpdef object _first_reading(TrackGraph g, object connections, object nodes)
@cython.locals(i=cython.Py_ssize_t)
cpdef object _first_of(
    list options, Py_ssize_t k, object stop, list pids, list stops, object want, object take=*
)
cpdef tuple _reading_options(TrackGraph g, object connections, object nodes)
cpdef object _node_stop(TrackGraph g, object node)

cpdef tuple _check_route(
    TrackGraph g,
    object corp,
    object train,
    object rule,
    object paths,
    object revenue_key,
    object bonuses,
    object stations,
    object excluded,
    object known=*,
    object groups=*,
)

cpdef object _make_route(
    TrackGraph g,
    object corp,
    object train,
    object rule,
    object stop_ids,
    object paths,
    object revenue_key,
    object bonuses=*,
    object stations=*,
)

cpdef list _walk_chains(TrackGraph g, object hexes)

cdef _chain_walk(
    TrackGraph g, object hexes, list out, tuple node, long idx, list chain, object sides
)
