# Types for the compiled build of bank.py (Cython's pure-Python mode, as map.pxd): money
# moves read the game typed as its native base class (context.pxd) and its state as the
# State's native class (state.pxd).
import cython
from eighteen.engine.context cimport GameData
from eighteen.engine.state cimport State

@cython.locals(s=State)
cpdef object cash(GameData g, object holder)
@cython.locals(s=State)
cpdef _add(GameData g, object holder, object amount)
cpdef pay(GameData g, object src, object dst, object amount, object what=*)
