"""The worked example of seed 003 ("1ラウンドを順に追う"): four players with $450, P1 (here
"A") through the private auction, the first stock round and two operating rounds. After
every one of the 17 steps the seed tabulates P1's cash, B&W's treasury and the prices of
B&W and Hartford (HR); this scenario asserts exactly those numbers.

The seed follows only P1 and his two corporations. The other players' moves are ours,
chosen so that the seed's facts hold: the other privates are bought at face value; B, C
and D start RR, CV and FRR and buy the five remaining phase-I cards in the first
operating round (so the phase-I trains are gone when B&W buys a 3/5, step 13); FRR runs
track to Springfield (D21) and puts its second station there, so B&W's second 2+1 runs
Worcester-Springfield for $40 (step 12: "$60 and $40").
"""

from __future__ import annotations

from ne_scenario import PLAYERS, act, auction, finish, lay, new_game, numbers, pass_to
from scenario import actor

from eighteen import Game
from eighteen.engine import ferries
from eighteen.engine.actions import (
    BuyCompany,
    BuyFerry,
    BuyShares,
    BuyTrain,
    Dividend,
    IssueShares,
    Par,
    Pass,
    PlaceToken,
    RedeemShares,
    RunRoutes,
    SellShares,
)


def test_seed_worked_example() -> None:
    g = new_game(PLAYERS)
    play_to_step_16(g)
    # 17. on to stock round 2: A has $126, 40% of B&W and 20% of Hartford
    act(g, Pass("HR"))
    assert g.state.round.kind == "stock" and g.state.round.number == 2
    assert numbers(g) == (126, 40, 80, 30)


def play_to_step_16(g: Game) -> None:
    """Steps 1-16 of the example, from a new game of four players (in the standard or the
    Takeover game: they play alike until the second operating round ends)."""
    play_to_step_12(g)
    # 12. two trains run $60 and $40; full pay-out $10 a share: A $40, the four treasury
    # shares $40 to B&W, the two market shares nothing; at least the price: one cell right
    (run,) = [a for a in g.legal_actions() if isinstance(a, RunRoutes)]
    assert sorted(r.revenue for r in run.routes) == [40, 60]
    act(g, run, Dividend("B&W", "payout"))
    assert numbers(g) == (60, 220, 80, 10)
    play_steps_13_to_16(g)


def play_to_step_12(g: Game) -> None:
    """Steps 1-11 of the example, and step 12 up to B&W's run (its ferry step passed)."""
    assert numbers(g) == (450, None, None, None)

    # 1. private auction: A gets C&StL (P3) for $50
    auction(g)
    assert g.state.privates["P3"].owner == "A"
    assert numbers(g) == (400, None, None, None)

    # 2. stock round 1: A starts B&W at $80 and pays $160 into its treasury
    act(g, Par("A", "B&W", 80))
    assert numbers(g) == (240, 160, 80, None)
    act(g, Par("B", "RR", 100), Par("C", "CV", 100), Par("D", "FRR", 150))
    # 3. A starts Hartford at $40 ($80 to its treasury)
    act(g, Par("A", "HR", 40))
    assert numbers(g) == (160, 160, 80, 40)
    # 4. four Hartford shares from the treasury at $40: A holds the 60% limit
    for _ in range(4):
        act(g, Pass("B"), Pass("C"), Pass("D"), BuyShares("A", "HR", "ipo"))
    # (B, C and D pass every turn from here on)
    assert g.state.corporations["HR"].cash == 240
    assert numbers(g) == (0, 160, 80, 40)
    # 5. A sells the four shares for $160: the president sold, the price falls one cell
    act(g, Pass("B"), Pass("C"), Pass("D"), SellShares("A", "HR", 40))
    assert numbers(g) == (160, 160, 80, 30)
    # 6. two B&W shares from the treasury at $80: B&W has $320, A 40%
    act(g, BuyShares("A", "B&W", "ipo"))
    act(g, Pass("B"), Pass("C"), Pass("D"), BuyShares("A", "B&W", "ipo"))
    assert numbers(g) == (0, 320, 80, 30)
    # 7. everyone passes: HR has shares in the market and falls; B&W's unsold shares are
    # in its treasury, not the market, so it stays
    act(g, Pass("B"), Pass("C"), Pass("D"), Pass("A"))
    # the last pass also opens operating round 1, whose first act pays the privates:
    # the table's numbers are those before C&StL's $10
    notes = [m for _, m in g.events]
    end, paid = notes.index("stock round 1 ends"), notes.index("P3 pays $10 to A")
    assert "HR share price down: $30 -> $20" in notes[:end] and end < paid
    a_cash, *rest = numbers(g)
    assert (a_cash - 10, *rest) == (0, 320, 80, 20)

    # 8. operating round 1.1: C&StL pays A $10; the first round goes from the lowest price
    # up, so Hartford first: two yellow tiles ($40), a 2-train ($75), nothing earned
    assert g.state.round.order[:2] == ["HR", "B&W"]
    act(g, Pass("HR"))  # no redemption now
    act(g, lay(g, "HR", "C26", "6", ["C24", "B27"]))
    act(g, lay(g, "HR", "B27", "3", ["C26"]))
    act(g, Pass("HR"), Pass("HR"))  # no station, no ferry
    act(g, BuyTrain("HR", "2-0", 75), Pass("HR"), Pass("HR"))
    assert g.state.corporations["HR"].cash == 125
    assert numbers(g) == (10, 320, 80, 10)
    # 9. B&W issues two shares at $70 (one cell below its price)
    act(g, IssueShares("B&W", 2))
    assert numbers(g) == (10, 460, 80, 10)
    # 10. two yellow tiles west of Boston ($20 each), two 2+1 trains ($100 each); no
    # revenue: one cell left
    act(g, lay(g, "B&W", "F23", "58", ["G22", "E22"]))
    act(g, lay(g, "B&W", "E22", "57", ["F23", "D21"]))
    act(g, Pass("B&W"), Pass("B&W"))  # no station yet, no ferry
    act(g, BuyTrain("B&W", "2+1-1", 100), BuyTrain("B&W", "2+1-2", 100), Pass("B&W"))
    act(g, Pass("B&W"))  # no private bought
    assert numbers(g) == (10, 220, 70, 10)
    # the others buy the five phase-I cards left; FRR reaches Springfield and stations there
    for corp in ("RR", "CV"):
        pass_to(g, corp, "trains")
        act(g, *(BuyTrain(corp, t, 75) for t in _next_cards(g, 2)), Pass(corp), Pass(corp))
    act(g, Pass("FRR"))
    act(g, lay(g, "FRR", "D19", "3", ["E20", "D21"]))
    act(g, lay(g, "FRR", "D21", "6", ["D19", "E22"]))
    act(g, PlaceToken("FRR", "D21", 0), Pass("FRR"))
    act(g, BuyTrain("FRR", _next_cards(g, 1)[0], 75), Pass("FRR"), Pass("FRR"))
    assert not [t for t in g.state.depot if t.startswith("2-")]

    # 11. operating round 1.2: C&StL pays again; B&W (now dearer) goes before HR and
    # places its Worcester station for $40
    r = g.state.round
    assert r.number == 2 and r.order.index("B&W") < r.order.index("HR")
    while g.acting() != "B&W":
        acts = g.legal_actions()
        passes = [a for a in acts if isinstance(a, Pass)]
        g.apply(passes[0] if passes else next(a for a in acts if isinstance(a, RunRoutes)))
        if g.acting() not in ("B&W",) and g.state.round.step == "dividend":
            g.apply(Dividend(actor(g), "withhold"))
    assert g.state.round.step == "issue"
    pass_to(g, "B&W", "token")  # no issue, no track
    act(g, PlaceToken("B&W", "E22", 0))
    assert numbers(g) == (20, 180, 70, 10)
    act(g, Pass("B&W"))  # no ferry


def play_steps_13_to_16(g: Game) -> None:
    """Steps 13-16, from B&W's pay-out of step 12."""
    # 13. phase II: B&W buys the first 3/5 for $180
    act(g, BuyTrain("B&W", "3/5-0", 180))
    assert g.state.phase == 1
    assert numbers(g) == (60, 40, 80, 10)
    finish(g, "B&W")
    # 14. Hartford redeems the four market shares at $20 (one cell above) and buys the New
    # Haven ferry for $40
    act(g, RedeemShares("HR", 4))
    pass_to(g, "HR", "ferry")  # no track, no station
    act(g, BuyFerry("HR", "C26"))
    assert g.state.corporations["HR"].cash == 5
    assert numbers(g) == (60, 40, 80, 10)
    # "an interconnection to Boston": the ferry links New Haven to Boston by sea for HR's
    # interconnection bonuses (none pays on this run: it visits no other bonus end)
    assert ferries.sea_links(g, "HR") == (("C26", frozenset({"G22"})),)
    assert ferries.sea_links(g, "B&W") == ()
    # 15. the 2-train to New Haven: 20 + 20 + ferry 20 + new-ferry bonus 20 = $80, $8 a
    # share (A $16); at least twice the price: two cells right
    (run,) = [a for a in g.legal_actions() if isinstance(a, RunRoutes)]
    assert [r.revenue for r in run.routes] == [80]
    act(g, run, Dividend("HR", "payout"))
    assert g.state.corporations["HR"].cash == 5 + 64
    assert numbers(g) == (76, 40, 80, 30)
    # 16. with its treasury shares' dividends Hartford buys C&StL from A for $50
    act(g, Pass("HR"))  # no train
    act(g, BuyCompany("HR", "P3", 50))
    assert g.state.privates["P3"].owner == "HR"
    assert numbers(g) == (126, 40, 80, 30)


def _next_cards(g: Game, n: int) -> list[str]:
    """The next ``n`` phase-I cards of the depot, bought on their "2" side."""
    return [t for t in g.state.depot if t.startswith("2-")][:n]
