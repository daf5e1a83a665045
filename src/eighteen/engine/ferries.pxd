# Types for the compiled build of ferries.py (Cython's pure-Python mode, as map.pxd): the
# question asked before every step reads the game typed as its native base class.
from eighteen.engine.context cimport GameData

cpdef object choice_due(GameData g)
