"""The Takeover game (titles/1833ne-takeover, rules.takeovers, engine/takeovers.py): the
seed's worked example followed into the takeover round, an offer the target may refuse,
and short bot games that take over and end."""

from __future__ import annotations

import random

import pytest
from ne_scenario import PLAYERS, act, auction, numbers
from test_1833ne_example import play_to_step_16
from test_random_games import play_checked

from eighteen import Game, load_title
from eighteen.engine import homes, market, network, shares, takeovers, trains
from eighteen.engine.actions import (
    AnswerTakeover,
    IllegalAction,
    Par,
    Pass,
    PlaceToken,
    TakeOver,
)
from eighteen.engine.bots import make_bots


def example_takeover_round() -> Game:
    """The worked example in the Takeover game, up to the point where step 17 stops: the
    second operating round of the pair is over in phase II, so a takeover round comes
    before stock round 2."""
    g = Game.new(load_title("1833ne-takeover"), PLAYERS)
    play_to_step_16(g)
    act(g, Pass("HR"))
    assert numbers(g) == (126, 40, 80, 30)
    assert g.state.round.kind == "takeover"
    return g


def test_the_title_has_fourteen_corporations_five_phase_iv_cards_and_lower_limits() -> None:
    t = load_title("1833ne-takeover")
    assert len(t.corporations) == 14
    assert [c.id for c in t.corporations][9:] == ["B&M", "N&W", "ER", "C&M", "N&L"]
    assert t.train_counts([])["6/9"] == 5
    assert [p.train_limit for p in t.phases] == [3, 3, 2, 1, 1]
    g = Game.new(t, PLAYERS)
    assert shares.cert_limit(g) == 26  # 14 corporations, four players
    assert g.rules.takeovers is not None and g.rules.takeovers.from_phase == "II"
    # the standard game is unchanged
    std = load_title("1833ne")
    assert len(std.corporations) == 9 and std.train_counts([])["6/9"] == 3
    assert std.rules([]).takeovers is None


def test_bw_absorbs_hartford_where_the_worked_example_stops() -> None:
    g = example_takeover_round()
    # FRR, RR and CV (higher prices) could take no one over: B&W is the first to choose
    assert g.state.round.order == ["FRR", "RR", "CV", "B&W", "HR"]
    assert g.acting() == "B&W"
    assert TakeOver("B&W", "HR", 1) in g.legal_actions()
    # Hartford's ferry links New Haven to Boston: the two are connected
    assert "HR" in takeovers.connected_targets(g, "B&W")
    # A's 20% of Hartford costs 2 x $30 = $60; B&W's $40 and Hartford's $19 are $1 short
    before = g.state_hash()
    with pytest.raises(IllegalAction, match=r"B&W would pay \$60 in cash but has \$59"):
        g.apply(TakeOver("B&W", "HR", 0))
    assert g.state_hash() == before
    # one B&W share ($80) covers A's $60; A is president of both, so Hartford accepts
    assert takeovers.payment(g, "B&W", "HR", 1) == takeovers.Payment(60, (("A", 1),), ())
    assert not takeovers.needs_consent(g, "B&W", "HR")
    act(g, TakeOver("B&W", "HR", 1))
    s = g.state
    bw, hr = s.corporations["B&W"], s.corporations["HR"]
    assert s.player("A").cash == 126
    assert bw.cash == 40 + 19
    assert shares.percent_of(g, "B&W", "A") == 50
    assert shares.percent_of(g, "HR", "A") == 0
    assert hr.closed and s.absorbed == {"HR": "B&W"}
    assert bw.trains == ["2+1-1", "2+1-2", "3/5-0", "2-0"]
    assert s.privates["P3"].owner == "B&W"
    assert s.ferries["C26"] == "B&W"
    assert s.map.city_tokens("C24", 0) == ["B&W"]
    assert trains.corporation_limit(g, "B&W") == 4
    assert shares.cert_limit(g) == 25  # 13 corporations left
    assert sum(1 for t in s.depot if t.startswith("6/9")) == 4  # one card left the bank
    # Hartford no longer acts: on to stock round 2
    assert s.round.kind == "stock" and s.round.number == 2


def test_a_target_with_a_train_may_refuse_or_accept() -> None:
    g = example_takeover_round()
    # FRR (D's) has a 2-train: it must answer B&W's offer of four treasury shares
    assert takeovers.payment(g, "B&W", "FRR", 4) == takeovers.Payment(248, (("D", 4),), ())
    act(g, TakeOver("B&W", "FRR", 4))
    assert g.acting() == "FRR"
    with pytest.raises(IllegalAction, match="not B&W's turn"):
        g.apply(AnswerTakeover("B&W", True))
    refused = g.clone()
    act(refused, AnswerTakeover("FRR", False))
    assert not refused.state.corporations["FRR"].closed
    assert refused.state.round.kind == "stock"  # HR cannot pay for anyone: passed
    act(g, AnswerTakeover("FRR", True))
    bw = g.state.corporations["B&W"]
    assert g.state.corporations["FRR"].closed
    assert bw.cash == 40 + 105
    assert bw.trains == ["2+1-1", "2+1-2", "3/5-0", "2-7"]
    assert shares.percent_of(g, "B&W", "D") == 40
    assert bw.president == "A"  # a tie leaves the presidency where it is
    assert g.state.map.city_tokens("D21", 0) == ["B&W"]  # FRR's Springfield station


@pytest.mark.parametrize(("players", "seed"), [(3, 2), (4, 1), (5, 3)])
def test_bot_games_take_over_and_end(players: int, seed: int) -> None:
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"][:players]
    g = Game.new(load_title("1833ne-takeover"), names, seed=seed)
    # the invariants of every action (an acquirer's trains within its raised limit)
    play_checked(g, make_bots("greedy", names, seed), random.Random(seed))
    # the bank breaks, or one player is left after bankruptcies (rules.bankruptcy)
    assert g.is_over and g.state.end_reason in {"bank broken", "bankruptcy"}
    assert g.state.absorbed


def test_the_five_start_from_phase_ii_at_60_or_more() -> None:
    g = Game.new(load_title("1833ne-takeover"), PLAYERS)
    auction(g)
    who = g.acting()
    assert who == "A" and g.state.phase == 0
    with pytest.raises(IllegalAction, match="B&M may be started from phase II on"):
        g.apply(Par("A", "B&M", 60))
    assert not any(isinstance(a, Par) and a.corporation == "B&M" for a in g.legal_actions())
    g = example_takeover_round()
    act(g, TakeOver("B&W", "HR", 1))
    assert g.acting() == "B"
    with pytest.raises(IllegalAction, match=r"B&M starts at \$60 or more"):
        g.apply(Par("B", "B&M", 50))
    act(g, Par("B", "B&M", 60))
    assert g.state.corporations["B&M"].cash == 120


def test_a_variable_home_is_chosen_at_the_start_and_paid_by_the_treasury() -> None:
    g = example_takeover_round()
    act(g, TakeOver("B&W", "HR", 1))
    act(g, Par("B", "B&M", 60))
    # B's turn is over, but B&M's founder picks its home before C acts
    assert g.acting() == "B&M"
    # empty cities that are no home of another corporation, reserved by none and not the
    # joint station's Sherbrooke: $80 in a gray hex or one without track, else $120
    spots = [(h, i, homes.cost(g, "B&M", h)) for h, i in homes.options(g, "B&M")]
    assert spots == [
        ("C26", 0, 120),  # New Haven: Hartford's track
        ("E26", 0, 80),
        ("F17", 0, 120),  # Manchester: a preprinted yellow tile
        ("F19", 0, 80),
        ("G20", 0, 80),
        ("H17", 0, 80),
        ("H25", 0, 80),  # New Bedford & Plymouth: gray
        ("H25", 1, 80),
    ]
    with pytest.raises(IllegalAction, match="G22 city 0 is not an empty, unreserved city"):
        g.apply(PlaceToken("B&M", "G22", 0))
    with pytest.raises(IllegalAction, match="the variable home step expects place_token"):
        g.apply(Pass("C"))
    act(g, PlaceToken("B&M", "G20", 0))
    s = g.state
    assert s.corporations["B&M"].cash == 40 and s.corporations["B&M"].home_placed
    assert s.map.city_tokens("G20", 0) == ["B&M"]
    assert s.chosen_homes == {"B&M": "G20"}
    assert g.acting() == "C"
    # Lowell is B&M's now: the next of the five may not start there
    act(g, Par("C", "N&W", 60))
    assert ("G20", 0) not in homes.options(g, "N&W")
    act(g, PlaceToken("N&W", "C26", 0))
    assert s.corporations["N&W"].cash == 0


def test_routes_and_render_show_takeovers_and_chosen_homes() -> None:
    from io import StringIO

    from eighteen.commands.routes import print_routes, routes_json
    from eighteen.render.svg import map_svg
    from eighteen.render.view import snapshot_of

    g = example_takeover_round()
    act(g, TakeOver("B&W", "HR", 1))
    act(g, Par("B", "B&M", 60), PlaceToken("B&M", "G20", 0))
    out = StringIO()
    print_routes(g, "B&W", out)
    assert out.getvalue().splitlines()[1] == "B&W has taken over HR (train limit 4)"
    out = StringIO()
    print_routes(g, "HR", out)
    assert "HR was taken over by B&W" in out.getvalue().splitlines()
    doc = routes_json(g, "B&M")
    assert (doc["took_over"], doc["taken_over_by"], doc["home"]) == ([], None, "G20")
    assert routes_json(g, "B&W")["took_over"] == ["HR"]
    snap = snapshot_of(g.tables.doc, g.state, actions=len(g.log), total_actions=len(g.log))
    rows = {c.id: c for c in snap.corporations}
    assert (rows["HR"].absorbed_by, rows["B&M"].home, rows["B&W"].absorbed_by) == (
        "B&W",
        "G20",
        None,
    )
    # the map: Lowell's details say B&M chose it; Hartford's that B&W took HR over
    assert snap.map.notes == {"G20": ["home chosen by B&M"], "C24": ["HR's home: B&W took HR over"]}
    svg = map_svg(g.tables.doc, snap.map)
    assert 'data-hex="G20" data-color="white" data-notes="home chosen by B&amp;M"' in svg
    assert 'data-notes="HR\'s home: B&amp;W took HR over"' in svg


def test_a_joint_station_stays_with_the_partner_when_one_owner_is_taken_over() -> None:
    """K11: the target's stations become the acquirer's, but the Sherbrooke station it
    shares with its partner stays the partner's alone.  Setup: StL&A floated at $60 with
    D's 20%, a station in Boston's free city (which B&W reaches) and the joint station
    laid in Sherbrooke."""
    g = example_takeover_round()
    stla = g.state.corporations["StL&A"]
    cell = g.tables.par_cell(60)
    assert cell is not None
    market.place(g, "StL&A", cell)
    stla.par, stla.floated, stla.president = 60, True, "D"
    stla.home_placed, stla.tokens_placed = True, 2
    g.state.certs["StL&A_0"] = "D"
    g.state.map.tokens["G22"][1].append("StL&A")
    network.lay_tile(g, "F5", "N11", 0)
    network.place_joint_tokens(g, "F5")
    g.invalidate_caches()
    assert g.state.map.city_tokens("F5", 0) == ["A&StL", "StL&A"]
    assert "StL&A" in takeovers.connected_targets(g, "B&W")
    # D's 20% at $60 is $120: B&W's $40 cannot pay it, two B&W shares at $80 do
    assert takeovers.problem(g, "B&W", "StL&A", 0) == (
        "B&W would pay $120 in cash but has $40 with StL&A's"
    )
    assert takeovers.payment(g, "B&W", "StL&A", 2) == takeovers.Payment(120, (("D", 2),), ())
    act(g, TakeOver("B&W", "StL&A", 2))
    s = g.state
    assert stla.closed and s.absorbed == {"StL&A": "B&W"}
    assert s.map.city_tokens("G22", 1) == ["B&W"]  # StL&A's Boston station
    assert s.map.city_tokens("F5", 0) == ["A&StL"]  # the joint station: the partner's
    assert shares.percent_of(g, "B&W", "D") == 20 and s.player("D").cash == 130
    assert s.corporations["B&W"].cash == 40


def test_a_taken_over_corporation_does_not_pass_its_bonus_on() -> None:
    """K12: +1 train per takeover the corporation made itself.  B&W took Hartford over
    (limit 3 + 1 in phase II); were FRR then to take B&W over, FRR's limit is 3 + 1."""
    g = example_takeover_round()
    act(g, TakeOver("B&W", "HR", 1))
    assert trains.corporation_limit(g, "B&W") == 4
    assert trains.corporation_limit(g, "FRR") == 3
    g.state.absorbed["B&W"] = "FRR"  # as take_over records it
    g.invalidate_caches()
    assert trains.corporation_limit(g, "FRR") == 4


def test_the_title_page_says_how_the_five_start() -> None:
    from eighteen.render.page import render_page

    html = render_page(load_title("1833ne-takeover").doc)
    row = html[html.index('<tr data-corp="B&amp;M">') :]
    row = row[: row.index("</tr>")]
    assert "Boston &amp; Maine (from phase II) (starts at $60 or more)" in row
    assert "chosen when started: $80 in a gray hex or one without track, else $120" in row
