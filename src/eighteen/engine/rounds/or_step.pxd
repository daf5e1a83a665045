# Types for the compiled build of or_step.py (Cython's pure-Python mode, as map.pxd): a
# step's questions read the game typed as its native base class (context.pxd) and the
# operating round as its native class, each read a struct field's.
import cython
from eighteen.engine.context cimport GameData
from eighteen.engine.state cimport OperatingRound

cpdef object or_round(GameData g)
@cython.locals(r=OperatingRound)
cpdef str operating(GameData g)
@cython.locals(r=OperatingRound)
cpdef bint _is_active(object step, GameData g)
@cython.locals(r=OperatingRound)
cpdef bint _is_current(object step, GameData g)
@cython.locals(r=OperatingRound)
cpdef bint _opened(object step, GameData g)
