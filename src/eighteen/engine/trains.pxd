# Types for the compiled build of trains.py (Cython's pure-Python mode, as map.pxd): the
# questions asked about every corporation late in a game read the game typed as its
# native base class (context.pxd).
import cython
from eighteen.engine.context cimport GameData
from eighteen.engine.state cimport CorporationState
# (the other modules' typed functions cimported: a call to one is a C call, not a read
# of the module's attribute and a call through its Python wrapper)
cimport eighteen.engine.phases as phases
cimport eighteen.engine.privates as privates
from eighteen.engine.bank cimport pay

# (a bank offer: a native class, made by C code)
cdef class Offer:
    cdef readonly object train
    cdef readonly object price
    cdef readonly object exchange


cpdef list counted(GameData g, object corp)
cpdef object corporation_limit(GameData g, object corp)
@cython.locals(cs=CorporationState)
cpdef list over_limit(GameData g)
cpdef str train_type(str tid)
cpdef str card_of(GameData g, str tid)
cpdef object distance(GameData g, str tid)
cpdef bint is_obsolete(GameData g, str tid)
cpdef bint tradable(GameData g, str tid)
cpdef object list_price(GameData g, str tid)
cpdef str _next_copy(GameData g, str t)
cpdef list on_sale_types(GameData g)
cpdef list bank_offers(GameData g, object corp)
