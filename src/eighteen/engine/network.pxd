# Types for the compiled build of network.py (Cython's pure-Python mode, as map.pxd): the
# adapter between the rules and the board reads the game typed as its native base class
# (context.pxd) and calls the board's typed methods (map.pxd) as C functions.
from eighteen.engine.context cimport GameData
from eighteen.engine.map cimport Board
from eighteen.engine.position cimport MapState
# (the other modules' typed functions cimported: a call to one is a C call, not a read
# of the module's attribute and a call through its Python wrapper)
cimport eighteen.engine.ferries as ferries
cimport eighteen.engine.phases as phases
cimport eighteen.engine.privates as privates
cimport eighteen.engine.trains as trains

cpdef Board board(GameData g)
cpdef Board board_of(object tables)
cpdef dict tile_supply(GameData g)
cpdef dict _tile_supply(GameData g, Board b, MapState m)
cpdef bint any_lay(GameData g, object corp, dict fees, long cash)
cpdef list lay_stations(GameData g, object corp)
cpdef dict reserved(GameData g)
cpdef list corp_trains(GameData g, object corp)
cpdef list bonuses(GameData g)
cpdef list corp_bonuses(GameData g, object corp)
cpdef list _corp_bonuses(GameData g, object corp)
cpdef tuple run_access(GameData g, object corp)
cpdef list check(GameData g, object corp, object routes)
cpdef bint can_run(GameData g, object corp)
cpdef bint _joined(GameData g, object corp)
