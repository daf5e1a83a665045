# Types for the compiled build of trains.py (Cython's pure-Python mode, as map.pxd): the
# questions asked about every corporation late in a game read the game typed as its
# native base class (context.pxd).
import cython
from eighteen.engine.context cimport GameData
from eighteen.engine.state cimport CorporationState

cpdef list counted(GameData g, object corp)
cpdef object corporation_limit(GameData g, object corp)
@cython.locals(cs=CorporationState)
cpdef list over_limit(GameData g)
