# cython: language_level=3, boundscheck=False, wraparound=False
"""A reach's walk over C arrays: the measurement of bench/typed_walk.py (not the engine).

It walks what ``TrackGraph._follow`` walks from a corporation's stations, the same paths in
the same sense, over a graph's tables read into arrays: each path's two ends as ints (a
stop's id, or ``-(side + 1)``), the paths of each stop and of each side as index lists,
and the walk's sets as byte arrays.
"""

from libc.stdlib cimport free, malloc
from libc.string cimport memset

from array import array


def _index_lists(rows):
    """Lists of path ids as two arrays: where each row starts (and a last entry closing the
    last row), and the rows' ids one after another."""
    start = array("i")
    ids = array("i")
    for row in rows:
        start.append(len(ids))
        ids.extend(row)
    start.append(len(ids))
    ids.append(0)  # (never read: keeps the array non-empty)
    return start, ids


cdef class CGraph:
    """A track graph's tables as arrays (read from a ``TrackGraph`` and its ``Board``)."""

    cdef int npaths, nstops, nsides, stride
    cdef int[::1] end_a, end_b, sp_start, sp_list, sd_start, sd_pid, side_hex0

    def __init__(self, graph, board):
        cdef int n = len(graph.ends)
        self.npaths = n
        self.nstops = len(graph.stops)
        self.nsides = len(board.sides)
        self.stride = board.path_stride
        a = array("i", [0]) * n
        b = array("i", [0]) * n
        for pid, ((sa, na), (sb, nb)) in enumerate(graph.ends):
            a[pid] = na if sa else -(na + 1)
            b[pid] = nb if sb else -(nb + 1)
        self.end_a = a
        self.end_b = b
        self.sp_start, self.sp_list = _index_lists(graph.stop_paths[s] for s in range(self.nstops))
        self.sd_start, self.sd_pid = _index_lists(
            [pid for _, pid in graph.side_paths.get(sid, ())] for sid in range(self.nsides)
        )
        self.side_hex0 = array("i", [board.hex_index[board.sides[s][0]] for s in range(self.nsides)])

    def walk(self, starts, const unsigned char[::1] blocked):
        """(paths taken, stops reached along track) from the stops ``starts``, in the
        order found; ``blocked[s]``: the walk reaches stop ``s`` but does not go on from
        it (an off-board, a city full of other corporations' tokens)."""
        cdef int nst = self.nstops, npa = self.npaths, nsd = 2 * self.nsides
        cdef unsigned char* queued = <unsigned char*> malloc(nst)
        cdef unsigned char* joined = <unsigned char*> malloc(nst)
        cdef unsigned char* done = <unsigned char*> malloc(npa)
        cdef unsigned char* seen = <unsigned char*> malloc(nsd)
        cdef int* todo = <int*> malloc(sizeof(int) * (nst + nsd + 8))
        memset(queued, 0, nst)
        memset(joined, 0, nst)
        memset(done, 0, npa)
        memset(seen, 0, nsd)
        cdef int top = 0, x, i, lo, hi, pid, other, sid = 0, came = 0, hx, n, state
        cdef int stride = self.stride
        taken = []
        reached = []
        for s in starts:
            queued[<int> s] = 1
            todo[top] = s
            top += 1
        while top:
            top -= 1
            x = todo[top]
            if x >= 0:  # at a stop: every path of it
                lo = self.sp_start[x]
                hi = self.sp_start[x + 1]
            else:  # at a side, entered from one of its two hexes: the other hex's paths
                sid = (~x) >> 1
                came = (~x) & 1  # 0: from the side's first hex
                lo = self.sd_start[sid]
                hi = self.sd_start[sid + 1]
            for i in range(lo, hi):
                if x >= 0:
                    pid = self.sp_list[i]
                else:
                    pid = self.sd_pid[i]
                    hx = pid // stride
                    if (hx == self.side_hex0[sid]) == (came == 0):
                        continue
                if not done[pid]:
                    done[pid] = 1
                    taken.append(pid)
                if x >= 0:
                    other = self.end_b[pid] if self.end_a[pid] == x else self.end_a[pid]
                else:
                    other = self.end_b[pid] if self.end_a[pid] == -(sid + 1) else self.end_a[pid]
                if other < 0:  # on to a side, leaving this path's hex
                    n = -other - 1
                    state = 2 * n + (0 if pid // stride == self.side_hex0[n] else 1)
                    if not seen[state]:
                        seen[state] = 1
                        todo[top] = ~state
                        top += 1
                    continue
                if joined[other]:
                    continue
                joined[other] = 1
                reached.append(other)
                if queued[other] or blocked[other]:
                    continue
                queued[other] = 1
                todo[top] = other
                top += 1
        free(queued)
        free(joined)
        free(done)
        free(seen)
        free(todo)
        return taken, reached
