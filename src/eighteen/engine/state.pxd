# Types for the compiled build of state.py (Cython's pure-Python mode, as map.pxd): the
# state's dataclasses are native classes, so that a mechanic typed over them reads a field
# as a struct field.  Every field is an object: the state takes what its loads give.

from eighteen.engine.position cimport MapState


cdef class PlayerState:
    cdef public object name
    cdef public object cash


cdef class CorporationState:
    cdef public object id
    cdef public object par
    cdef public object cell
    cdef public object arrival
    cdef public object president
    cdef public object floated
    cdef public object cash
    cdef public object trains
    cdef public object tokens_placed
    cdef public object home_placed
    cdef public object operated
    cdef public object closed


cdef class PrivateState:
    cdef public object id
    cdef public object owner
    cdef public object closed
    cdef public object used


cdef class AuctionRound:
    cdef public object kind
    cdef public object turn
    cdef public object passes
    cdef public object drop
    cdef public object bids
    cdef public object bidoff
    cdef public object bidoff_turn
    cdef public object bidoff_passed
    cdef public object pending_par
    cdef public object settle
    cdef public object last_buyer


cdef class StockRound:
    cdef public object kind
    cdef public object number
    cdef public object turn
    cdef public object passes
    cdef public object bought
    cdef public object acted
    cdef public object sold
    cdef public object traded
    cdef public object sale_dropped
    cdef public object last_actor
    cdef public object deal
    cdef public object refused
    cdef public object agreed


cdef class OperatingRound:
    cdef public object kind
    cdef public object number
    cdef public object set_size
    cdef public object order
    cdef public object index
    cdef public object step
    cdef public object lays
    cdef public object ability_lays
    cdef public object tokened
    cdef public object free_token
    cdef public object routes
    cdef public object revenue
    cdef public object new_types
    cdef public object issued
    cdef public object emergency_issued
    cdef public object ferry_bought
    cdef public object bought_privates
    cdef public object sale_dropped
    cdef public object deal
    cdef public object refused
    cdef public object agreed


cdef class State:
    cdef public object players
    cdef public object corporations
    cdef public object certs
    cdef public object privates
    cdef public object bank
    cdef public object depot
    cdef public object minted
    cdef public object train_pool
    cdef public object bought_types
    cdef public object phase
    cdef public object round
    cdef public MapState map
    cdef public object stock_rounds
    cdef public object priority
    cdef public object arrivals
    cdef public object bank_broken
    cdef public object game_over
    cdef public object end_reason
    cdef public object bankrupt
    cdef public object eliminated
    cdef public object ferries
    cdef public object ferry_order
    cdef public object ferry_boost
    cdef public object home_waiting
    cdef public object absorbed
    cdef public object chosen_homes
    cdef public object home_choice

    cpdef object player(self, object name)
    cpdef long player_index(self, object name) except? -1
    cpdef bint is_player(self, object name)
