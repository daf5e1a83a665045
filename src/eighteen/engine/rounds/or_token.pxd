# Types for the compiled build of or_token.py (Cython's pure-Python mode, as map.pxd): the
# token step's helpers read the game typed as its native base class (context.pxd), each
# read of its state, tables or rules a struct field's.
import cython
from eighteen.engine.context cimport GameData
# (the other modules' typed functions cimported: a call to one is a C call)
cimport eighteen.engine.network as network
from eighteen.engine.bank cimport pay
from eighteen.engine.rounds.or_step cimport or_round, operating

cpdef object next_token_cost(GameData g, str corp, object hex_id=*)
cpdef object token_options(GameData g)
cpdef list _all_tokens(GameData g)
cpdef bint can_token(GameData g)
cpdef bint _first_token(GameData g)
cpdef bint _may_afford(GameData g, str corp, object cost)
