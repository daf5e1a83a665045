# Types for the compiled build of routes.py (Cython's pure-Python mode, as map.pxd): a
# route's stops and the route itself are native classes, made by C code (a frozen
# dataclass's __init__ sets each field through object.__setattr__).

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
