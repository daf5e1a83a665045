# Types for the compiled build of tables.py (Cython's pure-Python mode, as map.pxd): the
# title's tables are a native class, so that its look-ups read its attributes as struct
# fields (an instance dict stays, for its cached properties and the marks other modules
# leave on it).

cdef class Tables:
    cdef dict __dict__
    cdef public object data
    cdef public object doc
    cdef public object path
    cdef public object id
    cdef public object name
    cdef public object version
    cdef public object hash
    cdef public object bank
    cdef public object players_min
    cdef public object players_max
    cdef public list option_ids
    cdef public dict _rules
    cdef public dict _rules_by_options
    cdef public list privates
    cdef public list corporations
    cdef public list trains
    cdef public list phases
    cdef public list phase_colors
    cdef public list phase_ids
    cdef public list phase_train_limits
    cdef public list phase_revenue_keys
    cdef public list phase_privates_buyable
    cdef public dict _private
    cdef public tuple private_ids
    cdef public dict _abilities
    cdef public dict _holders
    cdef public dict _corporation
    cdef public list homes
    cdef public list joint_tokens
    cdef public object ferries
    cdef public dict _train
    cdef public dict _cells
    cdef public list par_cells

    # (the look-ups every mechanic makes: C calls from typed code)
    cpdef object private(self, object pid)
    cpdef object corporation(self, object cid)
    cpdef object train(self, object tid)
    cpdef bint is_private(self, object pid)
    cpdef bint is_corporation(self, object cid)
    cpdef object cell(self, object pos)
    cpdef list abilities(self, object pid, object kind)
    cpdef tuple holders(self, object kind)
    cpdef object float_percent(self, object cid)
    cpdef object phase_index(self, object phase_id)
