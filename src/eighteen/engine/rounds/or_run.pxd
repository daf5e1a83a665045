# Types for the compiled build of or_run.py (Cython's pure-Python mode, as map.pxd): the
# typed functions of the modules it calls are cimported, so that a call to one is a C
# call, not a read of the module's attribute and a call through its Python wrapper.
cimport eighteen.engine.network as network
cimport eighteen.engine.privates as privates
cimport eighteen.engine.trains as trains
from eighteen.engine.bank cimport pay
from eighteen.engine.rounds.or_step cimport or_round, operating
