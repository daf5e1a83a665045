# Types for the compiled build of reach.py (Cython's pure-Python mode, as map.pxd): the
# walk's locals typed, its results as native classes.
# Only what the engine itself makes is typed as a builtin (Cython checks the exact type): the
# graph's tables and the walk's own sets; the state's tokens and a corporation id stay
# objects, so that the compiled walk takes whatever the source takes.
import cython


@cython.locals(
    new_done=list,
    new_joined=list,
    x=cython.long,
    frm=cython.long,
    came=cython.long,
    pid=cython.long,
    n=cython.long,
    y=object,
    i=cython.long,
    from_stop=cython.bint,
    at_stop=cython.bint,
    pids=tuple,
    item=object,
    p=object,
    m=object,
    both=tuple,
    end=tuple,
)
cpdef tuple walk(
    list ends,
    list stop_paths,
    dict side_paths,
    list all_stops,
    object faces,
    object tokens,
    object corp,
    bytearray queued,
    bytearray joined,
    bytearray done,
    set seen,
    list todo,
    long stride,
    object until,
)


@cython.locals(
    acc=list,
    order=list,
    pid=cython.long,
    pair=tuple,
    k=cython.long,
    m=cython.long,
    cur=cython.long,
)
cpdef gather_edges(dict edges, list touch, list hex_ids, list pids)


# What a corporation's network reaches: made a few times a turn, read by the lay, token
# and run questions (native: made by C code, its fields read as struct fields).
cdef class Reach:
    cdef public dict edges
    cdef public object cities
    cdef public object stops
    cdef public object joined
    cdef public object walk
    cdef public object own
    cdef public object _order

    cpdef bint joins_other(self, object excluded=*)
    cpdef list hex_order(self)


cdef class Walk:
    # (a TrackGraph, left an object: graph.pxd cimports this file, which would cimport it)
    cdef public object graph
    cdef public object corp
    cdef public frozenset stations
    cdef public set starts
    cdef public bytearray queued
    cdef public bytearray joined
    cdef public bytearray done
    cdef public set seen
    cdef public object tokens
