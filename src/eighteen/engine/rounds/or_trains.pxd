# Types for the compiled build of or_trains.py (Cython's pure-Python mode, as map.pxd):
# the typed functions of the modules it calls are cimported (a call to one is a C call).
cimport eighteen.engine.ferries as ferries
cimport eighteen.engine.network as network
cimport eighteen.engine.phases as phases
cimport eighteen.engine.privates as privates
cimport eighteen.engine.trains as trains
from eighteen.engine.bank cimport pay
from eighteen.engine.rounds.or_step cimport or_round, operating
from eighteen.engine.context cimport GameData

cpdef bint must_buy(GameData g, object corp)
cpdef bint _may_buy(GameData g, object corp)
cpdef bint _room_for(GameData g, object corp, object offer, bint room)
