# Types for the compiled build of ferries.py (Cython's pure-Python mode, as map.pxd): the
# question asked before every step reads the game typed as its native base class.
from eighteen.engine.context cimport GameData
# (the other modules' typed functions cimported: a call to one is a C call, not a read
# of the module's attribute and a call through its Python wrapper)
cimport eighteen.engine.phases as phases
cimport eighteen.engine.privates as privates
from eighteen.engine.bank cimport pay

cpdef object choice_due(GameData g)
# (registered by a call after it, not by the decorator: see capabilities.implements)
cpdef list _unbound(GameData g)
