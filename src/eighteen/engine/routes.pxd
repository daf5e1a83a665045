# Types for the compiled build of routes.py (Cython's pure-Python mode, as map.pxd): a
# route's stops and the route itself are native classes, made by C code (a frozen
# dataclass's __init__ sets each field through object.__setattr__).

# A route is made from a graph's stop ids and paths (make_route, which the route check in
# route_check.py and the route finder call): typed as the graph's native class (graph.pxd),
# each read is a struct field's.
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


cpdef object make_route(
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
