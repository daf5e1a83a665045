# Types for the compiled build of or_finance.py (Cython's pure-Python mode, as map.pxd):
# the typed functions of the modules it calls are cimported (a call to one is a C call).
cimport eighteen.engine.ferries as ferries
from eighteen.engine.rounds.or_step cimport or_round, operating
