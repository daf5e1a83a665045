# Types for the compiled build of or_track.py (Cython's pure-Python mode, as map.pxd): the
# track step's helpers read the game typed as its native base class (context.pxd), each
# read of its state, tables or rules a struct field's.
import cython
from eighteen.engine.context cimport GameData
# (the other modules' typed functions cimported: a call to one is a C call, not a read
# of the module's attribute and a call through its Python wrapper)
cimport eighteen.engine.network as network
cimport eighteen.engine.privates as privates
from eighteen.engine.bank cimport pay
from eighteen.engine.rounds.or_step cimport or_round, operating

@cython.locals(used=cython.long, i=cython.long)
cpdef object _slot_for(GameData g, object kind)
cpdef object _slot_fee(GameData g, object slot)
cpdef object lay_options(GameData g, bint distinct=*)
cpdef list _all_lays(GameData g, bint distinct)
cpdef bint can_lay(GameData g)
@cython.locals(fees=dict)
cpdef dict _plain_fees(GameData g)
@cython.locals(fees=dict)
cpdef bint _first_lay(GameData g)
