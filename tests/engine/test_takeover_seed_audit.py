"""Audit of seed 003 (the 1833NE overview) against the Takeover game (titles/1833ne-takeover,
rules.takeovers, engine/takeovers.py, engine/rounds/takeover.py, engine/homes.py): each
Takeover-game statement of the seed that the data and engine implement but no other test
pins with exact values gets a scenario here (tests/engine/test_takeover.py pins the rest).

Every docstring cites the seed line it checks. Most scenarios start where the seed's worked
example stops (line 309: "in the Takeover variant B&W could absorb Hartford here"): four
players, phase II, the takeover round after operating round 1.2 (test_takeover's
``example_takeover_round``). There B&W (A's, $80, $40, trains 2+1, 2+1, 3/5) may take over
Hartford (A's, $30, $19, a 2-train) or FRR (D's, $124, $105, a 2-train, 20% held by D);
RR and CV (B's and C's, $80, two 2-trains each) are not connected to it.
"""

from __future__ import annotations

import pytest
from ne_scenario import PLAYERS, act, enter, opening, set_cash
from test_takeover import example_takeover_round

from eighteen import Game, load_title
from eighteen.engine import finance, homes, market, phases, shares, takeovers, trains
from eighteen.engine.actions import AnswerTakeover, IllegalAction, Pass, TakeOver
from eighteen.engine.state import IPO, POOL

# ---------------------------------------------------------------------------------------
# helpers


def _step(g: Game) -> None:
    """The one to act passes, or takes its first legal action if it may not pass."""
    acts = g.legal_actions()
    passes = [a for a in acts if isinstance(a, Pass)]
    g.apply(passes[0] if passes else acts[0])


def _rounds_until(
    g: Game, kind: str, number: int | None = None, stop_after: int = 8
) -> list[tuple[str, int | None]]:
    """Play on with passes until a round of ``kind`` (numbered ``number`` if given) other
    than the current one starts; the (kind, number) of every round on the way, the current
    one first and that one last."""
    r = g.state.round
    trail: list[tuple[str, int | None]] = [(r.kind, getattr(r, "number", None))]
    while len(trail) < stop_after:
        assert not g.is_over
        _step(g)
        r = g.state.round
        key = (r.kind, getattr(r, "number", None))
        if key != trail[-1]:
            trail.append(key)
            if r.kind == kind and number in (None, key[1]):
                return trail
    raise AssertionError(f"no {kind} round: {trail}")


def _six_nine_cards(g: Game) -> int:
    return sum(1 for t in g.state.depot if trains.train_type(t) == "6/9")


# ---------------------------------------------------------------------------------------
# certificate limits (line 331)


@pytest.mark.parametrize(("names", "limit"), [("ABC", 35), ("ABCD", 26), ("ABCDE", 21)])
def test_certificate_limit_with_fourteen_corporations(names: str, limit: int) -> None:
    """Seed line 331 ("証券枚数上限"): in the Takeover game, with fourteen corporations, the
    certificate limit is 35 / 26 / 21 for 3 / 4 / 5 players."""
    g = Game.new(load_title("1833ne-takeover"), list(names))
    assert sum(1 for cs in g.state.corporations.values() if not cs.closed) == 14
    assert shares.cert_limit(g) == limit


def test_certificate_limit_falls_with_a_takeover_and_with_a_closed_corporation() -> None:
    """Seed line 331: the limit depends on the corporations in play; it falls when a
    corporation closes and, in the Takeover game, with every takeover. Four players: 26
    with fourteen, 25 once B&W has taken Hartford over, 23 once RR's price reaches $0
    (the 13 and 12 columns of certificate_limit_by_corporations)."""
    g = example_takeover_round()
    assert shares.cert_limit(g) == 26
    act(g, TakeOver("B&W", "HR", 1))
    assert shares.cert_limit(g) == 25
    rr = g.state.corporations["RR"]
    for _ in range(40):
        if rr.closed:
            break
        finance.move_steps(g, "RR", -1)
    g.invalidate_caches()
    assert rr.closed
    assert shares.cert_limit(g) == 23


# ---------------------------------------------------------------------------------------
# train limits (line 352) and the phase-IV cards (line 365)


def test_train_limits_by_phase_plus_one_for_the_acquirer() -> None:
    """Seed line 352: Takeover-game train limits I 3, II 3, III 2, IV-V 1, plus one for
    each takeover the corporation made. B&W takes Hartford over in phase II (3 + 1); then
    phases III, IV and V begin: B&W 3, 2, 2 while FRR, which made none, has 2, 1, 1."""
    g = Game.new(load_title("1833ne-takeover"), PLAYERS)
    assert phases.train_limit(g) == 3  # phase I
    g = example_takeover_round()
    assert (phases.current(g).id, trains.corporation_limit(g, "B&W")) == ("II", 3)
    act(g, TakeOver("B&W", "HR", 1))
    assert (trains.corporation_limit(g, "B&W"), trains.corporation_limit(g, "FRR")) == (4, 3)
    seen = []
    for card in ("4/7", "6/9", "7+3"):
        enter(g, card)
        seen.append(
            (
                phases.current(g).id,
                trains.corporation_limit(g, "B&W"),
                trains.corporation_limit(g, "FRR"),
            )
        )
    assert seen == [("III", 3, 2), ("IV", 2, 1), ("V", 2, 1)]


def _second_takeover_round() -> Game:
    """B&W takes Hartford over in the example's takeover round; every later step is passed
    (the first forced action taken) until the next takeover round."""
    g = example_takeover_round()
    act(g, TakeOver("B&W", "HR", 1))
    trail = _rounds_until(g, "takeover")
    assert trail == [
        ("stock", 2),
        ("operating", 1),
        ("operating", 2),
        ("takeover", None),
    ]
    return g


def test_takeover_round_follows_only_the_second_operating_round_of_each_pair() -> None:
    """Seed line 436: from phase II, takeovers come after the second operating round of
    each pair (not after the first). After the example's takeover round: stock round 2,
    operating rounds 2.1 and 2.2, then the next takeover round, in which B&W (first in
    price order) may take FRR over."""
    g = _second_takeover_round()
    assert g.state.phase == 1  # phase II still
    assert g.state.round.order == ["B&W", "FRR", "RR", "CV"]
    assert g.acting() == "B&W"
    assert TakeOver("B&W", "FRR", 0) in g.legal_actions()


def test_each_takeover_adds_one_train_and_one_six_nine_card_leaves() -> None:
    """Seed lines 352 and 365: +1 train for each takeover made (B&W, two takeovers in
    phase II: 3 + 2 = 5); five phase-IV cards in the Takeover game, one of which may leave
    because of takeovers (4 after the first takeover, still 4 after the second, K9)."""
    g = Game.new(load_title("1833ne-takeover"), PLAYERS)
    assert _six_nine_cards(g) == 5
    g = _second_takeover_round()
    assert _six_nine_cards(g) == 4
    assert trains.corporation_limit(g, "B&W") == 4
    act(g, TakeOver("B&W", "FRR", 0))
    act(g, AnswerTakeover("FRR", True))  # FRR has a live train: D must answer
    s = g.state
    assert s.absorbed == {"HR": "B&W", "FRR": "B&W"}
    assert trains.corporation_limit(g, "B&W") == 5
    assert trains.corporation_limit(g, "RR") == 3
    assert _six_nine_cards(g) == 4


# ---------------------------------------------------------------------------------------
# when takeovers are held (lines 354, 436)


def test_no_takeover_round_in_phase_one() -> None:
    """Seed lines 354 and 436: takeovers begin with phase II. In the Takeover game with the
    example's opening and every step passed, phase I lasts two sets: each second operating
    round is followed by a stock round, never a takeover round."""
    g = opening(Game.new(load_title("1833ne-takeover"), PLAYERS))
    trail = _rounds_until(g, "stock", 3)
    assert trail == [
        ("operating", 1),
        ("operating", 2),
        ("stock", 2),
        ("operating", 1),
        ("operating", 2),
        ("stock", 3),
    ]
    assert phases.current(g).id == "I"


# ---------------------------------------------------------------------------------------
# conditions (line 436)


def test_acquirer_needs_a_train_that_is_not_phased_out() -> None:
    """Seed line 436: only a corporation with at least one train that is not phased out may
    attempt a takeover. Phase III begins during the example's takeover round: the phase-I
    trains are phased out, so FRR and Hartford (a 2-train each) may take no one over,
    while B&W keeps its 3/5. A corporation with no train at all may not either."""
    g = example_takeover_round()
    enter(g, "4/7")
    assert phases.current(g).id == "III"
    assert takeovers.live_trains(g, "B&W") == ["3/5-0"]
    assert takeovers.problem(g, "FRR", "B&W", 0) == "FRR has no train that is not obsolete"
    assert takeovers.problem(g, "HR", "B&W", 0) == "HR has no train that is not obsolete"
    assert takeovers.offers(g, "HR") == []
    assert takeovers.problem(g, "B&W", "HR", 1) is None
    g = example_takeover_round()
    assert takeovers.problem(g, "HR", "B&W", 0) != "HR has no train that is not obsolete"
    trains.discard(g, "HR", "2-0")
    g.invalidate_caches()
    assert takeovers.problem(g, "HR", "B&W", 0) == "HR has no train that is not obsolete"


def test_acquirer_must_be_connected_to_the_target() -> None:
    """Seed line 436: the acquirer must be connected by tokens and track to the other
    corporation. B&W reaches FRR's Springfield station and, by Hartford's New Haven ferry,
    Hartford; RR (Rutland) and CV (St. Albans) are out of reach: no offer, and an attempt
    is refused with nothing changed."""
    g = example_takeover_round()
    assert takeovers.connected_targets(g, "B&W") == ["FRR", "HR"]
    assert takeovers.connected_targets(g, "RR") == []
    assert takeovers.connected_targets(g, "CV") == []
    assert {a.target for a in g.legal_actions() if isinstance(a, TakeOver)} == {"FRR", "HR"}
    before = g.state_hash()
    with pytest.raises(IllegalAction, match="B&W's track does not reach a station of RR"):
        g.apply(TakeOver("B&W", "RR", 0))
    assert g.state_hash() == before


# ---------------------------------------------------------------------------------------
# refusal (line 436)


def test_a_target_with_only_phased_out_trains_cannot_refuse() -> None:
    """Seed line 436: the target may refuse unless it has only phased-out trains. In phase
    III FRR's 2-train is phased out: B&W's offer (four B&W shares for D's 20% at $124,
    $248) needs no answer from D; FRR is taken over at once and the round goes on."""
    g = example_takeover_round()
    assert takeovers.needs_consent(g, "B&W", "FRR")  # in phase II its 2-train is live
    enter(g, "4/7")
    assert not takeovers.needs_consent(g, "B&W", "FRR")
    assert takeovers.payment(g, "B&W", "FRR", 4) == takeovers.Payment(248, (("D", 4),), ())
    act(g, TakeOver("B&W", "FRR", 4))
    s = g.state
    assert s.corporations["FRR"].closed and s.absorbed == {"FRR": "B&W"}
    assert s.corporations["B&W"].cash == 40 + 105
    assert shares.percent_of(g, "B&W", "D") == 40
    # Hartford (a phased-out 2-train only) cannot take anyone over: on to stock round 2
    assert s.round.kind == "stock" and s.round.number == 2


def test_a_target_without_trains_cannot_refuse() -> None:
    """Seed line 436: the target may refuse unless it has no train. FRR's 2-train leaves
    it; B&W's offer is carried out at once, without FRR's answer."""
    g = example_takeover_round()
    trains.discard(g, "FRR", "2-7")
    g.invalidate_caches()
    assert g.state.corporations["FRR"].trains == []
    assert not takeovers.needs_consent(g, "B&W", "FRR")
    act(g, TakeOver("B&W", "FRR", 4))
    assert g.state.corporations["FRR"].closed
    assert g.state.absorbed == {"FRR": "B&W"}
    assert g.state.round.kind == "stock"  # no answer awaited; Hartford can pay for no one


# ---------------------------------------------------------------------------------------
# payment (line 436)


def test_payment_in_shares_and_cash_together() -> None:
    """Seed line 436: the acquirer buys back all issued shares with cash or its own shares.
    B&W gives D two B&W shares ($80 each) and $88 for D's 20% of FRR at $124 ($248),
    paying the cash from its $40 and FRR's $105."""
    g = example_takeover_round()
    assert takeovers.issued(g, "FRR") == [("D", 20)]
    assert takeovers.payment(g, "B&W", "FRR", 2) == takeovers.Payment(
        248, (("D", 2),), (("D", 88),)
    )
    d_cash = g.state.player("D").cash
    act(g, TakeOver("B&W", "FRR", 2), AnswerTakeover("FRR", True))
    s = g.state
    assert s.player("D").cash == d_cash + 88
    assert shares.percent_of(g, "B&W", "D") == 20
    assert shares.percent_of(g, "FRR", "D") == 0
    assert s.corporations["B&W"].cash == 40 + 105 - 88
    assert s.corporations["FRR"].closed


def test_market_shares_are_bought_back_too_in_cash() -> None:
    """Seed line 436: all issued shares are bought back, the market's too. One FRR share is
    in the market beside D's 20%: B&W (given $400) pays cash only, $248 to D and $124 to
    the bank for the market share ($372 in all), with FRR's $105 added to its own."""
    g = example_takeover_round()
    shares.transfer_cert(g, shares.ordinary_certs_of(g, "FRR", IPO)[0], POOL)
    set_cash(g, "B&W", 400)
    assert takeovers.issued(g, "FRR") == [("D", 20), (POOL, 10)]
    assert market.price(g, "FRR") == 124
    assert takeovers.payment(g, "B&W", "FRR", 0) == takeovers.Payment(
        372, (), (("D", 248), (POOL, 124))
    )
    bank, d_cash = g.state.bank, g.state.player("D").cash
    act(g, TakeOver("B&W", "FRR", 0), AnswerTakeover("FRR", True))
    s = g.state
    assert s.player("D").cash == d_cash + 248
    assert s.bank == bank + 124
    assert s.corporations["B&W"].cash == 400 + 105 - 372
    assert shares.percent_of(g, "FRR", POOL) == 0 and shares.percent_of(g, "FRR", "D") == 0


# ---------------------------------------------------------------------------------------
# variable starts (line 392)


def test_a_variable_home_is_no_reserved_city_and_no_other_home() -> None:
    """Seed line 392: the five start in any free, unreserved city that is not the home of
    another available corporation, the home station $80 in a gray hex or one without
    track, else $120. Phase II begins in the opening (no station laid but the four homes):
    Worcester (E22, B&W's reservation) and the homes of the corporations not started
    (Providence, Boston, Hartford, Montreal, Portland) are no options; in phase IV the
    reservations end and Worcester, still without track, is one at $80."""
    g = opening(Game.new(load_title("1833ne-takeover"), PLAYERS))
    enter(g, "3/5")
    assert phases.current(g).id == "II"
    spots = [(h, i, homes.cost(g, "B&M", h)) for h, i in homes.options(g, "B&M")]
    assert spots == [
        ("C26", 0, 80),
        ("D21", 0, 80),
        ("E26", 0, 80),
        ("F17", 0, 120),  # Manchester: a preprinted yellow tile
        ("F19", 0, 80),
        ("G20", 0, 80),
        ("H17", 0, 80),
        ("H25", 0, 80),  # gray
        ("H25", 1, 80),
    ]
    enter(g, "4/7")
    enter(g, "6/9")
    assert phases.current(g).id == "IV"
    assert ("E22", 0) in homes.options(g, "B&M")
    assert homes.cost(g, "B&M", "E22") == 80
