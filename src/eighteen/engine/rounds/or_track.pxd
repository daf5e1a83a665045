# Types for the compiled build of or_track.py (Cython's pure-Python mode, as map.pxd): the
# track and token steps' helpers read the game typed as its native base class
# (context.pxd), each read of its state, tables or rules a struct field's.
import cython
from eighteen.engine.context cimport GameData
from eighteen.engine.state cimport OperatingRound
# (the other modules' typed functions cimported: a call to one is a C call, not a read
# of the module's attribute and a call through its Python wrapper)
cimport eighteen.engine.network as network
cimport eighteen.engine.privates as privates
from eighteen.engine.bank cimport pay

cpdef object _r(GameData g)
@cython.locals(r=OperatingRound)
cpdef str operating(GameData g)
@cython.locals(r=OperatingRound)
cpdef bint _is_active(object step, GameData g)
@cython.locals(r=OperatingRound)
cpdef bint _is_current(object step, GameData g)
@cython.locals(r=OperatingRound)
cpdef bint _opened(object step, GameData g)
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
cpdef object next_token_cost(GameData g, str corp, object hex_id=*)
cpdef object token_options(GameData g)
cpdef list _all_tokens(GameData g)
cpdef bint can_token(GameData g)
cpdef bint _first_token(GameData g)
cpdef bint _may_afford(GameData g, str corp, object cost)
