# Types for the compiled build of privates.py (Cython's pure-Python mode, as map.pxd): the
# questions about who owns which private, asked before most steps, read the game typed as
# its native base class (context.pxd).  (A function registered by @implements stays a
# Python function: Cython drops a decorator on a typed one.)
from eighteen.engine.context cimport GameData
# (the other modules' typed functions cimported: a call to one is a C call, not a read
# of the module's attribute and a call through its Python wrapper)
cimport eighteen.engine.phases as phases
from eighteen.engine.bank cimport pay

cpdef bint is_open(GameData g, object pid)
cpdef list open_privates(GameData g)
cpdef list owned_by(GameData g, object owner, object kind=*)
cpdef list outside_corporations(GameData g, object kind)
cpdef bint flipped(GameData g, object pid)
cpdef bint track_restricted(GameData g, object corp)
cpdef bint routes_restricted(GameData g, object corp)
