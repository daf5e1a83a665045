# Types for the compiled build of graph.py (Cython's pure-Python mode, as map.pxd): the
# track graph and its tables as native classes: their methods read these attributes as
# struct fields.  The typed ones hold what the class itself makes (a dict or list it
# builds); the position, tokens and ids stay objects.
import cython

from eighteen.engine.map cimport Board
from eighteen.engine.position cimport MapState
from eighteen.engine.reach cimport Reach, Walk, gather_edges, walk


cdef class _Tables:
    cdef public list paths
    cdef public list ends
    cdef public list path_sides
    cdef public list touch
    cdef public list stop_paths
    cdef public dict side_paths


# Where a graph's shared tables stand (graph.py: _Version); asked at every graph handed out.
cdef class _Version:
    cdef public _Version parent
    cdef public list diff


cdef class TrackGraph:
    cdef public _Version _node
    cdef public Board board
    cdef public MapState state
    cdef public object numbering
    cdef public object layout
    cdef public tuple lineage
    cdef public object _track_key
    cdef public dict tiles
    cdef public dict faces
    cdef public list stops
    cdef public list stop_start
    cdef public dict stop_id
    cdef public list paths
    cdef public list ends
    cdef public list path_sides
    cdef public list touch
    cdef public list stop_paths
    cdef public dict side_paths
    cdef public dict text_id

    # (asked by the walks and the route check a few times a path: called from typed code,
    # a C call; from Python, as any method)
    cpdef object stop_revenue(self, long stop, object revenue_key)
    cpdef object requires_visit(self, long stop)
    cpdef object group(self, long stop)
    cpdef bint has_token(self, long stop, object corp)
    cpdef bint passable(self, long stop, object corp)
    cpdef tuple other_end(self, long pid, tuple node)
    # (the graph's making, called by one another when a layout is patched)
    cpdef _keep(self, _Tables t)
    @cython.locals(
        offset=cython.long,
        pid=cython.long,
        paths=list,
        all_ends=list,
        stop_paths=list,
        side_paths=dict,
        path_sides=list,
        touch=list,
        text_id=dict,
    )
    cpdef _add(self, long k, object frag, _Tables t)
    cpdef TrackGraph _copy(self)
    # (the reach's own steps, called by one another and by the board)
    @cython.locals(
        g=TrackGraph,
        node=_Version,
        stride=cython.long,
        k=cython.long,
        pid=cython.long,
        end=cython.long,
        i=cython.long,
        s=cython.long,
        undo=list,
        paths=list,
        ends=list,
        path_sides=list,
        touch=list,
        stop_paths=list,
        side_paths=dict,
        text_id=dict,
    )
    cpdef object patched(self, MapState state, object changed)
    cpdef TrackGraph current(self)
    cpdef TrackGraph bind(self, MapState state)
    @cython.locals(queued=bytearray, s=cython.long)
    cpdef Walk _new_walk(self, object corp, frozenset stations, list starts, object tokens)
    cpdef list station_stops(self, object corp, object stations=*, object kept=*)
    @cython.locals(w=Walk, starts=list)
    cpdef object reach(self, object corp, object stations=*, object kept=*)
    @cython.locals(
        w=Walk,
        queued=bytearray,
        done=bytearray,
        seen=set,
        todo=list,
        fresh=list,
        k=cython.long,
        pid=cython.long,
        s=cython.long,
    )
    cpdef object extend(self, Reach prev, object corp, object stations, object kept=*)
    cpdef list changed_since(self, TrackGraph old)
    cpdef bint keeps(self, Reach prev, object corp, object stations, object kept)
    @cython.locals(
        w=Walk,
        board=Board,
        old=TrackGraph,
        done=bytearray,
        remap=dict,
        near=list,
        stride=cython.long,
        base=cython.long,
        i=cython.long,
        pid=cython.long,
    )
    cpdef object _carry(self, Reach prev)
    @cython.locals(queued=bytearray, joined=bytearray, opened=list, k=cython.long, s=cython.long)
    cpdef object _reopened(self, Walk w, object hexes, object starts)
    cpdef tuple _follow(self, object w, list todo, object until=*)
    cpdef _add_edges(self, dict edges, list pids, object starts)
