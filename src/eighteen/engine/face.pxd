# Types for the compiled build of face.py (Cython's pure-Python mode, as map.pxd): a tile
# lay as a native class.

# Small records made a few times an action, native classes: made by C code (a frozen
# dataclass's __init__ sets each field through object.__setattr__).
cdef class TileLay:
    cdef readonly object hex
    cdef readonly object tile
    cdef readonly object rotation
    cdef readonly object cost
    cdef readonly object upgrade
