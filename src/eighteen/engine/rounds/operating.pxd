# Types for the compiled build of operating.py (Cython's pure-Python mode, as map.pxd):
# the turn's moves and the round's advance read the game typed as its native base class
# (context.pxd) and the operating round as its native class (state.pxd).
import cython
from eighteen.engine.context cimport GameData
from eighteen.engine.state cimport OperatingRound
# (the other modules' typed functions cimported: a call to one is a C call, not a read
# of the module's attribute and a call through its Python wrapper)
cimport eighteen.engine.ferries as ferries
cimport eighteen.engine.privates as privates

@cython.locals(r=OperatingRound)
cpdef next_step(GameData g)
@cython.locals(r=OperatingRound)
cpdef end_turn(GameData g)
cpdef list _turn_steps(GameData g)
@cython.locals(r=OperatingRound, i=cython.long)
cpdef _advance(GameData g)
