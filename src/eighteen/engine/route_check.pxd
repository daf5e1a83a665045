# Types for the compiled build of route_check.py (Cython's pure-Python mode, as map.pxd):
# the route check's functions typed, each call between them a C call.

import cython

from eighteen.engine.graph cimport TrackGraph
from eighteen.engine.routes cimport make_route


@cython.locals(hexes=tuple, laid=tuple, kept=object)
cpdef tuple check_on(
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
cpdef set track_hexes(TrackGraph g, tuple track)

@cython.locals(i=cython.Py_ssize_t)
cpdef bint same_at(tuple hexes, tuple was, object table)

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
