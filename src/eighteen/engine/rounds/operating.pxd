# Types for the compiled build of operating.py (Cython's pure-Python mode, as map.pxd):
# the turn's moves read the game typed as its native base class (context.pxd).
from eighteen.engine.context cimport GameData

cpdef next_step(GameData g)
cpdef end_turn(GameData g)
