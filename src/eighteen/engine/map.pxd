# Types for the compiled build of map.py (Cython's pure-Python mode: map.py stays the one
# source and runs as written; `eighteen native --build` compiles it with these).
import cython

@cython.locals(
    new_done=list,
    new_joined=list,
    x=cython.long,
    frm=cython.long,
    came=cython.long,
    pid=cython.long,
    n=cython.long,
    y=cython.long,
    i=cython.long,
    from_stop=cython.bint,
    pids=tuple,
    both=tuple,
    end=tuple,
    cities=list,
)
cdef tuple _walk(
    list ends,
    list stop_paths,
    dict side_paths,
    list all_stops,
    dict faces,
    dict tokens,
    str corp,
    set queued,
    set joined,
    set done,
    set seen,
    list todo,
    long stride,
    object until,
)
