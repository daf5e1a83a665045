# Types for the compiled build of map.py (Cython's pure-Python mode: map.py stays the one
# source and runs as written; `eighteen native --build` compiles it with these).  Only what
# the engine itself makes is typed as a builtin (Cython checks the exact type): the graph's
# tables and the walk's own sets; the state's tokens and a corporation id stay objects, so
# that the compiled walk takes whatever the source takes.
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
cdef tuple _walk(
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
cdef _gather_edges(dict edges, list touch, list hex_ids, list pids)


cdef inline bint _on_offer(object tile, object color, object colors, object tile_supply)


# The graph, the walk and the board as native classes: their methods read these attributes
# as struct fields.  The typed ones hold what the class itself makes (a dict or list it
# builds); the position, tokens and ids stay objects.
cdef class Board
cdef class _Walk


# Small records made a few times an action, native classes: made by C code (a frozen
# dataclass's __init__ sets each field through object.__setattr__).
cdef class TileLay:
    cdef readonly object hex
    cdef readonly object tile
    cdef readonly object rotation
    cdef readonly object cost
    cdef readonly object upgrade


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


cdef class _Tables:
    cdef public list paths
    cdef public list ends
    cdef public list path_sides
    cdef public list touch
    cdef public list stop_paths
    cdef public dict side_paths


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


# Where a graph's shared tables stand (map.py: _Version); asked at every graph handed out.
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
    cpdef _Walk _new_walk(self, object corp, frozenset stations, list starts, object tokens)
    cpdef list station_stops(self, object corp, object stations=*, object kept=*)
    @cython.locals(w=_Walk, starts=list)
    cpdef object reach(self, object corp, object stations=*, object kept=*)
    @cython.locals(
        w=_Walk,
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
        w=_Walk,
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
    cpdef object _reopened(self, _Walk w, object hexes, object starts)
    cpdef tuple _follow(self, object w, list todo, object until=*)
    cpdef _add_edges(self, dict edges, list pids, object starts)


cdef class _Walk:
    cdef public TrackGraph graph
    cdef public object corp
    cdef public frozenset stations
    cdef public set starts
    cdef public bytearray queued
    cdef public bytearray joined
    cdef public bytearray done
    cdef public set seen
    cdef public object tokens


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

