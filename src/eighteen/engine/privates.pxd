# Types for the compiled build of privates.py (Cython's pure-Python mode, as map.pxd): the
# questions about who owns which private, asked before most steps, read the game typed as
# its native base class (context.pxd).
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
# (registered by a call after them, not by the decorator: see capabilities.implements)
cpdef set blocked_hexes(GameData g)
cpdef list virtual_stations(GameData g, object corp)
cpdef set excluded_hexes(GameData g, object corp)
