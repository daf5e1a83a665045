# Types for the compiled build of phases.py (Cython's pure-Python mode, as map.pxd): the
# phase's questions read the game typed as its native base class (context.pxd).
from eighteen.engine.context cimport GameData

cpdef object current(GameData g)
cpdef object current_id(GameData g)
cpdef frozenset tile_colors(GameData g)
cpdef object train_limit(GameData g)
cpdef object revenue_key(GameData g)
cpdef object privates_buyable(GameData g)
cpdef bint reached(GameData g, object phase_id)
