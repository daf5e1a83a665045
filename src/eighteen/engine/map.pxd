# Types for the compiled build of map.py (Cython's pure-Python mode: map.py stays the one
# source and runs as written; `eighteen native --build` compiles it with these): the board
# as a native class, its methods reading these attributes as struct fields.  The graph,
# the position and a tile lay are native classes of their own modules (graph.pxd,
# position.pxd, face.pxd), cimported.
import cython

from eighteen.engine.face cimport TileLay
from eighteen.engine.graph cimport TrackGraph
from eighteen.engine.position cimport MapState


cdef inline bint _on_offer(object tile, object color, object colors, object tile_supply)


cdef class Board:
    cdef public dict hexes
    cdef public dict tiles
    cdef public dict first_tiles
    cdef public dict upgrades
    cdef public dict corporations
    cdef public list hex_ids
    cdef public dict neighbors
    cdef public dict usable
    cdef public dict side_id
    cdef public list sides
    cdef public dict _face_cache
    cdef public dict _templates
    cdef public dict side_cost
    cdef public dict _fragments
    cdef public dict _lay_tables
    cdef public dict _turns
    cdef public dict _caches
    cdef public dict hex_index
    cdef public dict entries
    cdef public long path_stride
    cdef public TrackGraph _last_graph
    cdef public dict _last_reach
    cdef public dict walks

    cpdef object cached(self, object cache, object key, object compute)
    cpdef object _kept(self, object cache, object key)
    cpdef object _keep(self, object cache, object key, object value)
    cpdef object fragment(self, object face)
    cpdef TrackGraph graph(self, MapState state)
    @cython.locals(last=TrackGraph, g=TrackGraph, old=dict, changed=list)
    cpdef object _new_graph(self, MapState state, object key)
    cpdef object reach(self, MapState state, object corp, object stations=*)
    @cython.locals(reach=dict, hexes=dict, near=cython.long, bits=cython.long, turns=list)
    cpdef bint any_lay(
        self, MapState state, object corp, object colors, set blocked, dict tile_supply,
        object stations, dict fees, long cash
    )
    cdef inline list _lay_table(self, object hex_id, object laid)
    cdef inline long _lay_cost(self, MapState state, object hex_id, object exits)
    @cython.locals(g=TrackGraph)
    cpdef bint joins_other(
        self, MapState state, object corp, object stations=*, object excluded=*
    )
    cpdef object face(self, MapState state, object hex_id)
    cpdef object tile_face(self, object hex_id, object tile, object rotation=*)
    @cython.locals(g=TrackGraph)
    cpdef object _new_reach(self, MapState state, object corp, object stations, object kept)

