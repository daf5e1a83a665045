"""The operating round (seed 002; step order as in facts §1 and the 18xx.games log; seed
003 adds issue/redeem first and a ferry after the station).

At the start every open private pays its revenue.  Floated corporations then operate in
rules.operating_order (fixed when the round starts: highest price first; with
``first_ascending_then_price`` the game's first operating round goes from the lowest
price up, seed 003); each turn is the steps below, in order.  A corporation that closes
does not operate (or stops operating).  A step with nothing to do is skipped; an optional step ends with a pass.  Trains
over the limit are discarded at once, whoever's turn it is; the owner of an exchangeable
private may exchange it at any time; the operating corporation may buy privates from
players at any time of its turn, and use a private's anytime tile lay (tile_lay
``anytime``) at any time of its turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from eighteen.engine import ferries, market, privates
from eighteen.engine.capabilities import implements
from eighteen.engine.rounds.base import Round, Step
from eighteen.engine.rounds.deals import Answer
from eighteen.engine.rounds.or_finance import Ferry, FerryChoice, IssueRedeem
from eighteen.engine.rounds.or_homes import (
    FreeStation,
    HomeToken,
    PendingHome,
    due_home,
    free_station_due,
    settle_due_homes,
)
from eighteen.engine.rounds.or_run import DividendStep, Routes
from eighteen.engine.rounds.or_step import ORStep
from eighteen.engine.rounds.or_token import Token
from eighteen.engine.rounds.or_track import AnytimeLay, Track
from eighteen.engine.rounds.or_trains import BuyCompanies, BuyTrains, DiscardTrains, Exchange
from eighteen.engine.state import OperatingRound

if TYPE_CHECKING:
    from eighteen.engine.context import Context

#: A corporation's turn, in order (rules.turn_any_order groups steps taken in any order:
#: while the first of a group is served, the later ones take their actions too).
TURN: list[ORStep] = [
    HomeToken(),
    IssueRedeem(),
    Track(),
    Token(),
    Ferry(),
    Routes(),
    DividendStep(),
    BuyTrains(),
    BuyCompanies(),
]
STEP_NAMES = [s.name for s in TURN]
#: each step's place in :data:`STEP_NAMES` (asked a few times an operating action: a dict
#: read, not a search of the list)
STEP_INDEX = {name: i for i, name in enumerate(STEP_NAMES)}
#: The steps of the turn passed over with no effect (their ``skip`` is the one of
#: ORStep, which does nothing) and followed by another step: passing one moves the turn on
#: to the next step and changes nothing else.
_QUIET = frozenset(i for i, s in enumerate(TURN[:-1]) if type(s).skip is ORStep.skip)
# any step of the turn may be grouped with others (rules.turn_any_order): a name the schema
# allows that no step of the turn has is left unregistered, and the capability test fails
implements("turn_any_order[][]", *STEP_NAMES)(ORStep.opened)


@implements("operating_order", "share_price", "first_ascending_then_price")
def start(g: Context, number: int, set_size: int) -> OperatingRound:
    """A new operating round: privates pay, the order is fixed."""
    r = OperatingRound(number=number, set_size=set_size)
    g.state.round = r
    g.note(f"operating round {number} of {set_size}")
    privates.pay_revenue(g)
    floated = [c.id for c in g.tables.corporations if g.state.corporations[c.id].floated]
    r.order = market.operating_order(g, floated)
    if (
        g.rules.operating_order == "first_ascending_then_price"
        and g.state.stock_rounds == 1
        and number == 1
    ):
        r.order = market.ascending_order(g, floated)  # seed 003: the game's first round
    begin_turn(g)
    return r


def begin_turn(g: Context) -> None:
    r: OperatingRound = g.state.round
    r.step = STEP_NAMES[0]
    r.lays = 0
    r.ability_lays = []
    r.tokened = False
    r.free_token = None
    r.routes = []
    r.revenue = None
    r.new_types = []
    r.issued = False
    r.emergency_issued = False
    r.ferry_bought = False
    r.sale_dropped = []
    while r.index < len(r.order) and g.state.corporations[r.order[r.index]].closed:
        r.index += 1  # closed during the round: it does not operate
    if r.index < len(r.order):
        g.note(f"{r.order[r.index]} operates")


def next_step(g: Context) -> None:
    """Make the step after the current one current (or end the turn)."""
    r: OperatingRound = g.state.round
    i = STEP_INDEX[r.step]
    if i + 1 < len(STEP_NAMES):
        r.step = STEP_NAMES[i + 1]
    else:
        end_turn(g)


def end_turn(g: Context) -> None:
    r: OperatingRound = g.state.round
    corp = r.order[r.index]
    if not g.state.corporations[corp].closed:
        g.state.corporations[corp].operated = True
    r.index += 1
    begin_turn(g)


#: The steps of an operating round before and after those of a turn.
_BEFORE: list[Step] = [Answer(), DiscardTrains(), PendingHome(), FerryChoice(), FreeStation()]
_AFTER: list[Step] = [Exchange(), AnytimeLay()]


def _steps_from() -> dict[str, list[Step]]:
    """:attr:`OperatingRoundSteps._from`, made once."""
    return {
        st.name: [
            *_BEFORE,
            *(s for j, s in enumerate(TURN) if j >= i or not s.current_only),
            *_AFTER,
        ]
        for i, st in enumerate(TURN)
    }


class OperatingRoundSteps(Round):
    kind = "operating"

    def concurrent(self, g: Context, st: Step) -> bool:
        return st.anytime or (isinstance(st, ORStep) and st.opened(g))

    _steps: ClassVar[list[Step]] = [*_BEFORE, *TURN, *_AFTER]
    #: The steps while each step of the turn is current, in order: the steps of the turn
    #: before it that are active only while current (ORStep.current_only) are left out,
    #: unless rules.turn_any_order may open them.
    _from: ClassVar[dict[str, list[Step]]] = _steps_from()

    def steps(self, g: Context) -> list[Step]:
        return _turn_steps(g)

    def advance(self, g: Context) -> None:
        _advance(g)


def _turn_steps(g: Context) -> list[Step]:
    """:meth:`OperatingRoundSteps.steps` (module functions: compiled, operating.pxd types
    them over the game and the round)."""
    if g.rules.turn_any_order:
        return OperatingRoundSteps._steps
    return OperatingRoundSteps._from.get(g.state.round.step, OperatingRoundSteps._steps)


def _advance(g: Context) -> None:
    """:meth:`OperatingRoundSteps.advance`."""
    r: OperatingRound = g.state.round
    while not g.state.game_over:
        g.end_changes()  # only asking until begin_changes: the answers are cached
        if r.deal is not None:
            return  # (the other player answers the deal offered: rounds/deals.py)
        if g.pending_discard() or ferries.choice_due(g) is not None:
            return
        if r.free_token and free_station_due(g) is not None:
            return  # (the turn goes on once the corporation has placed or declined it)
        if g.state.home_waiting and due_home(g) is not None:
            g.begin_changes()
            settle_due_homes(g)
            g.end_changes()
            if due_home(g) is not None:
                return
        if r.index >= len(r.order):
            g.begin_changes()
            g.end_round()
            return
        if g.state.corporations[r.order[r.index]].closed:
            g.begin_changes()
            end_turn(g)  # it closed during its own turn
            continue
        i = STEP_INDEX[r.step]
        if TURN[i].is_active(g):
            return  # the turn stops here: what it asked stays cached
        if i in _QUIET:
            g.step_moved()  # only the step moves on: what is known of the state holds
        else:
            g.begin_changes()
            TURN[i].skip(g)
        next_step(g)
