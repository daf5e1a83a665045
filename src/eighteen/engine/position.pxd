# Types for the compiled build of position.py (Cython's pure-Python mode, as map.pxd): the
# board's position as a native class.

# The board's position (a dataclass, native when compiled): its fingerprints, asked a few
# times an action, are C calls from typed code.
cdef class MapState:
    cdef public object tiles
    cdef public object tokens
    cdef public object _track_key
    cdef public object _token_key

    cpdef object track_key(self)
    cpdef object track_step(self)
    cpdef object token_key(self)
    cpdef dict token_snapshot(self)
    cpdef list station_cities(self, object corp, object kept=*)
    cpdef tuple _kept_tokens(self)
    cpdef list city_tokens(self, object hex_id, object city)
    cpdef list token_cities(self, object corp)
