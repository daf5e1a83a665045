"""An audit of the importer's bridging in operating rounds: the corporation passes that
18xx.games logs and our engine does not need (or needs elsewhere), held back and made when a
later action needs them, in the situations the corpus rarely shows.

Each test pins one pattern with exact values, on a corpus game cut short (``stop_at``) at
each action around it, or edited in memory so that the log stays one 18xx.games accepts:
a president's emergency sales after a pass of his corporation, a bankruptcy right after
one, discards by other corporations in the middle of a buyer's turn, the first 5-train
closing privates whose abilities were never used, a train bought from another corporation
after passes, a run of no route at all and a run of $0, the last corporation of a round
opening the next one, a private bought at the turn's last step, the D-train trade-in, the
end of the game at a bankruptcy.  A cut must be a prefix of the cut one action later, and
the acting entity the one the next action is by (or a corporation passing towards it).

Our own bot games give an exact oracle: exported with the track passes 18xx.games logs
where our engine skips the step (it passes when it does not lay, whether or not a lay is
possible), each cut imports to the state of the game replayed to that action.
"""

from __future__ import annotations

import copy
import functools
import json
from typing import Any

import corpus_18xx
from corpus_18xx import action, export

from eighteen import Game, load_title
from eighteen.engine import market
from eighteen.engine.actions import Bankrupt, BuyTrain, Dividend, RunRoutes
from eighteen.engine.bots import make_bots, play
from eighteen.io.games18xx import ImportResult, export_game, filter_actions, import_game


def replace(data: dict[str, Any], aid: int, new: dict[str, Any]) -> dict[str, Any]:
    """A copy where the action ``aid`` is ``new`` (same id)."""
    out = copy.deepcopy(data)
    i = next(i for i, a in enumerate(out["actions"]) if a["id"] == aid)
    out["actions"][i] = {**new, "id": aid}
    return out


def drop(data: dict[str, Any], *aids: int) -> dict[str, Any]:
    out = copy.deepcopy(data)
    out["actions"] = [a for a in out["actions"] if a["id"] not in aids]
    return out


def append(data: dict[str, Any], new: list[dict[str, Any]]) -> dict[str, Any]:
    out = copy.deepcopy(data)
    last = max(a["id"] for a in out["actions"])
    out["actions"] += [{**x, "id": last + 1 + k} for k, x in enumerate(new)]
    return out


def at(data: dict[str, Any], aid: int | None = None) -> ImportResult:
    """:func:`corpus_18xx.at`, which must not diverge."""
    res = corpus_18xx.at(data, aid)
    assert res.divergence is None, res.divergence
    return res


def where(res: ImportResult) -> tuple[str, int | None, str | None, str | None]:
    """(round kind, round number, step, who acts)."""
    g = res.game
    r = g.state.round
    return (r.kind, getattr(r, "number", None), getattr(r, "step", None), g.acting())


def added(before: ImportResult, after: ImportResult) -> list[str]:
    """What the import one action later adds to the cut before it (which must be its
    prefix)."""
    old, new = before.game.log, after.game.log
    assert new[: len(old)] == old
    return [str(a) for a in new[len(old) :]]


def corp_pass(corp: str) -> dict[str, Any]:
    return {"type": "pass", "entity": corp, "entity_type": "corporation"}


def trains(res: ImportResult, *corps: str) -> dict[str, list[str]]:
    return {c: list(res.game.state.corporations[c].trains) for c in corps}


def cash(res: ImportResult) -> dict[str, int]:
    return {p.name: p.cash for p in res.game.state.players}


# -- a president's emergency money, and bankruptcy ----------------------------------------


def test_emergency_sales_after_a_held_pass_then_the_train() -> None:
    """29133, OR 2: PRR lays (420) and passes its token step (421); having no train and
    too little cash, its president (Player 3) sells NYC (422) and NYNH (423) and PRR buys a
    6-train for $630 (424).  The pass is made where the sale needs it: PRR waits at its
    train step from the cut at the pass on, and each sale moves its price one row down."""
    data = export("29133")
    cuts = {k: at(data, k) for k in (420, 421, 422, 423, 424)}
    assert where(cuts[420]) == ("operating", 2, "token", "PRR")
    assert where(cuts[421]) == ("operating", 2, "trains", "PRR")
    assert where(cuts[422]) == where(cuts[423]) == ("operating", 2, "trains", "PRR")
    assert where(cuts[424]) == ("operating", 2, "track", "B&O")
    assert added(cuts[420], cuts[421]) == ["PRR: pass()"]
    assert added(cuts[421], cuts[422]) == ["Player 3: sell_shares(corporation='NYC', percent=10)"]
    assert added(cuts[422], cuts[423]) == ["Player 3: sell_shares(corporation='NYNH', percent=10)"]
    assert [cash(cuts[k])["Player 3"] for k in (421, 422, 423, 424)] == [394, 476, 551, 33]
    g421, g423 = cuts[421].game, cuts[423].game
    assert (market.price(g421, "NYC"), market.price(g421, "NYNH")) == (82, 75)
    assert (market.price(g423, "NYC"), market.price(g423, "NYNH")) == (76, 70)
    assert trains(cuts[424], "PRR") == {"PRR": ["6-1"]}
    assert cuts[424].game.state.corporations["PRR"].cash == 0


def test_a_bankruptcy_right_after_a_held_pass_ends_the_game() -> None:
    """29133: NYNH passes its track step (449) and goes bankrupt (450): the pass is made,
    NYNH reaches its train step and the game ends at once (1830).  An export of 2020:
    18xx.games then sold what the bankrupt president could sell (20% of NYC for $164, 40%
    of NYNH for $276), and his cash, $354 with them, went to NYNH."""
    data = export("29133")
    before, end = at(data, 449), at(data, 450)
    assert where(before) == ("operating", 2, "trains", "NYNH")
    assert added(before, end) == ["NYNH: bankrupt()"]
    assert end.game.is_over and end.game.state.end_reason == "bankruptcy"
    assert end.game.state.bankrupt == "Player 4"
    assert cash(before)["Player 4"] == 354 and cash(end)["Player 4"] == 0
    assert end.game.state.corporations["NYNH"].cash == 181 + 354 + 164 + 276


def test_nothing_of_a_bankrupt_presidents_corporation_follows_the_end() -> None:
    """After a bankruptcy (1830: the game ends at once) a pass of the corporation and a
    chat line change nothing; anything else is refused as coming after the end."""
    data = export("29133")
    whole = at(data)
    tail = append(
        data,
        [
            corp_pass("NYNH"),
            corp_pass("B&M"),
            {"type": "message", "entity": 4639, "entity_type": "player", "message": "gg"},
        ],
    )
    again = at(tail)
    assert again.game.state_hash() == whole.game.state_hash()
    assert again.mismatches() == []
    late = append(
        data,
        [
            {
                "type": "lay_tile",
                "entity": "B&M",
                "entity_type": "corporation",
                "hex": "E5",
                "tile": "9-7",
                "rotation": 0,
            }
        ],
    )
    res = import_game(late)
    assert res.divergence is not None
    assert str(res.divergence) == "action 451: the game is already over in our engine"
    assert isinstance(res.game.log[-1], Bankrupt)


# -- discards by other corporations in the middle of a turn -------------------------------


def test_a_discard_by_another_corporation_then_the_buyer_buys_the_discarded_train() -> None:
    """g5p_s5014: PRR buys the first 5-train (360), B&M is over the limit of 2 and discards
    3-3 (361) in PRR's turn, and PRR buys that very train from the pool at its list price
    (362); its turn then ends by itself (C&O lays next)."""
    data = export("g5p_s5014")
    cuts = {k: at(data, k) for k in (359, 360, 361, 362)}
    assert [where(cuts[k])[2:] for k in (359, 360, 361, 362)] == [
        ("trains", "PRR"),
        ("trains", "B&M"),
        ("trains", "PRR"),
        ("track", "C&O"),
    ]
    assert trains(cuts[360], "PRR", "B&M") == {"PRR": ["5-0"], "B&M": ["3-2", "3-3", "4-1"]}
    assert trains(cuts[361], "B&M") == {"B&M": ["3-2", "4-1"]}
    assert cuts[361].game.state.train_pool == ["3-3"]
    assert trains(cuts[362], "PRR") == {"PRR": ["5-0", "3-3"]}
    assert cuts[362].game.state.train_pool == []
    assert cuts[362].game.state.corporations["PRR"].cash == 310 - 180
    added(cuts[359], cuts[360])
    added(cuts[360], cuts[361])
    added(cuts[361], cuts[362])


def test_two_discards_in_table_order_then_the_buyer_goes_on() -> None:
    """g6p_s6002: NYC's 5-train (434) leaves B&O and C&O over the limit; they discard in
    the order of the corporations' table, B&O (435) then C&O (436), and NYC buys C&O's
    discarded 3-train after them (437)."""
    data = export("g6p_s6002")
    cuts = {k: at(data, k) for k in (434, 435, 436, 437)}
    assert [where(cuts[k])[3] for k in (434, 435, 436, 437)] == ["B&O", "C&O", "NYC", "ERIE"]
    assert cuts[436].game.state.train_pool == ["4-3", "3-0"]
    assert trains(cuts[437], "NYC", "B&O", "C&O") == {
        "NYC": ["5-0", "3-3"],
        "B&O": ["3-1", "4-2"],
        "C&O": ["4-0"],
    }
    assert cuts[437].game.state.train_pool == ["4-3", "3-0"]


def test_a_discard_by_another_corporation_then_the_buyer_passes_and_the_round_ends() -> None:
    """g6p_s6012: NYC, the last to operate, buys a 5-train (273), NYNH discards (274) and
    NYC passes (275): the cut at the discard leaves NYC at its train step; its pass ends
    the operating round and the stock round begins."""
    data = export("g6p_s6012")
    at_discard, at_pass = at(data, 274), at(data, 275)
    assert where(at_discard) == ("operating", 2, "trains", "NYC")
    assert added(at_discard, at_pass)[0] == "NYC: pass()"
    assert where(at_pass) == ("stock", 7, None, "Player 6")
    assert trains(at_pass, "NYC", "NYNH") == {"NYC": ["5-0"], "NYNH": ["3-2", "4-0"]}


def test_the_first_5_train_closes_privates_whose_abilities_were_never_used() -> None:
    """g2p_s2013: B&O holds SV, CS and DH (neither ability used) and buys the first
    5-train (460): every private closes at once, B&M discards down to 2 at once."""
    data = export("g2p_s2013")
    before, after = at(data, 459), at(data, 460)
    assert before.game.state.privates["CS"].used == []
    assert before.game.state.privates["DH"].used == []
    open_before = {p for p, s in before.game.state.privates.items() if not s.closed}
    assert open_before == {"SV", "CS", "DH", "CA"}
    assert all(s.closed for s in after.game.state.privates.values())
    assert where(after) == ("operating", 2, "trains", "B&M")
    assert cash(after) == cash(before)
    assert added(after, at(data, 461)) == ["B&M: discard_train(train='3-4')"]


# -- trains between corporations, the trade-in, the last step -----------------------------


def test_a_train_from_another_corporation_after_a_held_pass() -> None:
    """g2p_s2004: C&O passes (110), NYC passes its track step (111) and buys C&O's 3-0 for
    $1 (112), then passes its last step (113)."""
    data = export("g2p_s2004")
    cuts = {k: at(data, k) for k in (110, 111, 112, 113)}
    assert [where(cuts[k])[2:] for k in (110, 111, 112, 113)] == [
        ("track", "NYC"),
        ("trains", "NYC"),
        ("companies", "NYC"),
        ("track", "B&O"),
    ]
    assert added(cuts[110], cuts[111]) == ["NYC: pass()"]
    assert trains(cuts[112], "NYC", "C&O") == {
        "NYC": ["3-1", "3-4", "2-4", "3-0"],
        "C&O": ["2-3", "2-5", "2-0"],
    }
    s111, s112 = cuts[111].game.state, cuts[112].game.state
    assert s112.corporations["NYC"].cash == s111.corporations["NYC"].cash - 1 == 410
    assert s112.corporations["C&O"].cash == s111.corporations["C&O"].cash + 1 == 113


def test_the_d_train_trade_in() -> None:
    """g3p_s3001: B&O trades its 5-1 in for D-0 at $800 (622): the 5-train goes to the
    pool, and B&O stays at its train step (it may still buy another corporation's train
    for $1) until its pass (623)."""
    data = export("g3p_s3001")
    cuts = {k: at(data, k) for k in (621, 622, 623)}
    assert trains(cuts[621], "B&O") == {"B&O": ["5-1"]}
    assert trains(cuts[622], "B&O") == {"B&O": ["D-0"]}
    assert cuts[622].game.state.train_pool == ["5-1"]
    assert cuts[622].game.state.corporations["B&O"].cash == 825 - 800
    assert where(cuts[622])[2:] == ("trains", "B&O")
    assert where(cuts[623])[2:] == ("track", "B&M")


def test_a_private_bought_at_the_last_step_after_passing_the_train_step() -> None:
    """g2p_s2001: NYNH passes its train step (89) and buys SV from Player 2 for $40 at its
    last step (90), then passes it (91).  Cut at 89, the pass is made (the next action
    fits at any step and says nothing).  Read on to 90, the purchase is taken where NYNH
    stands, its logged pass held back: a logged pass may be one of a step our engine
    skips (some 1,200 of the corpus's 8,900), so only passes that end a turn are made
    before such a purchase; the held pass is made with the next action that needs it."""
    data = export("g2p_s2001")
    cuts = {k: at(data, k) for k in (88, 89, 90, 91)}
    assert [where(cuts[k])[2:] for k in (88, 89, 90, 91)] == [
        ("trains", "NYNH"),
        ("companies", "NYNH"),
        ("trains", "NYNH"),
        ("track", "B&M"),
    ]
    assert [cuts[k].game.state.privates["SV"].owner for k in (89, 90)] == ["Player 2", "NYNH"]
    assert cuts[90].game.state.corporations["NYNH"].cash == 549 - 40
    assert str(cuts[90].game.log[-1]) == "NYNH: buy_company(private='SV', price=40)"


# -- runs: no route at all, and a run of $0 -----------------------------------------------


def test_a_corporation_with_trains_and_no_route_logs_no_run_and_withholds() -> None:
    """g2p_s2002: CPR owns two 2-trains but no route: 18xx.games logs its tile (43, 50) and
    its pass of the train step (44), no run and no dividend.  Each turn its price moves
    one column left ($76 -> $70 -> $65) as a withheld dividend."""
    data = export("g2p_s2002")
    cuts = {k: at(data, k) for k in (42, 43, 44, 49, 50)}
    assert where(cuts[42]) == ("operating", 1, "track", "CPR")
    assert where(cuts[43]) == ("operating", 1, "trains", "CPR")
    assert where(cuts[44])[0] == "stock"
    assert [market.price(cuts[k].game, "CPR") for k in (42, 43, 49, 50)] == [76, 70, 70, 65]
    assert trains(cuts[50], "CPR") == {"CPR": ["2-0", "2-1"]}
    whole = at(data, 60).game.log
    assert not any(isinstance(a, RunRoutes | Dividend) and a.actor == "CPR" for a in whole)


def test_a_run_of_no_route_withholds_without_a_dividend() -> None:
    """g3p_s3013: ERIE's run (105) edited to no route at all, its dividend (106) dropped
    (18xx.games asks none after an empty run): ERIE earns nothing, keeps its treasury, its
    price moves one column left, and its turn goes on to its last step."""
    data = export("g3p_s3013")
    edited = drop(data, 106)
    action(edited, 105)["routes"] = []
    before, run = at(edited, 104), at(edited, 105)
    assert where(before)[2:] == ("routes", "ERIE")
    assert added(before, run) == ["ERIE: run_routes(routes=())"]
    assert where(run)[2:] == ("companies", "ERIE")
    erie = run.game.state.corporations["ERIE"]
    assert erie.cash == before.game.state.corporations["ERIE"].cash == 476
    cell = market.cell(before.game, "ERIE")
    assert cell is not None
    assert run.game.state.corporations["ERIE"].cell == list(cell.withhold)
    assert market.price(run.game, "ERIE") < cell.price
    assert added(run, at(edited, 107)) == ["ERIE: pass()"]


# -- the last corporation of a round opens the next one -----------------------------------


def test_the_last_corporation_of_a_round_passes_and_opens_the_next_one() -> None:
    """g2p_s2004: B&O operates last in OR 1 and first in OR 2.  It passes its last step in
    OR 1 (117) and, edited, its track step in OR 2 (118), then runs as in OR 1 (119): the
    cut at each pass leaves B&O one step on, and the run is taken in OR 2."""
    data = export("g2p_s2004")
    edited = replace(data, 118, corp_pass("B&O"))
    action(edited, 119)["routes"] = copy.deepcopy(action(data, 115)["routes"])
    cuts = {k: at(edited, k) for k in (116, 117, 118, 119, 120)}
    assert where(cuts[116]) == ("operating", 1, "companies", "B&O")
    assert where(cuts[117]) == ("operating", 2, "track", "B&O")
    assert where(cuts[118]) == ("operating", 2, "routes", "B&O")
    assert where(cuts[119]) == ("operating", 2, "dividend", "B&O")
    assert added(cuts[116], cuts[117]) == ["B&O: pass()"]
    assert added(cuts[117], cuts[118]) == ["B&O: pass()"]
    assert cuts[119].game.state.round.revenue == 100
    assert where(cuts[120]) == ("operating", 2, "companies", "B&O")
    unedited = at(data, 117)
    assert unedited.game.state_hash() == cuts[117].game.state_hash()


# -- every cut of a bot game exported as 18xx.games logs it -------------------------------


def _with_track_passes(g: Game) -> tuple[dict[str, Any], list[int]]:
    """Our export of ``g`` without the steps its passes name, with a corporation's pass
    added at the start of each turn whose track step our engine skipped (18xx.games asks
    for a lay or a pass in every turn); and for each action of it, how many of our actions
    the position after it has taken."""
    exported = json.loads(json.dumps(export_game(g)))
    acts = [{k: v for k, v in a.items() if k != "step"} for a in exported["actions"]]
    h = Game(g.tables, list(g.players), seed=g.seed, options=list(g.options))
    out: list[tuple[dict[str, Any], int]] = []
    seen: set[tuple[int, int, int]] = set()

    def turn_start(done: int) -> None:
        r = h.state.round
        if r.kind != "operating" or r.index >= len(r.order):
            return
        key = (h.state.stock_rounds, r.number, r.index)
        if key not in seen:
            seen.add(key)
            if r.step != "track":
                out.append((corp_pass(r.order[r.index]), done))

    turn_start(0)
    for i, a in enumerate(g.log):
        out.append((acts[i], i + 1))
        h.apply(a)
        turn_start(i + 1)
    doc = {**exported, "actions": [{**a, "id": j + 1} for j, (a, _) in enumerate(out)]}
    return doc, [k for _, k in out]


@functools.cache
def _bot_game(bots: str, players: int, seed: int) -> Game:
    names = [f"Player{i + 1}" for i in range(players)]
    tables = load_title("1830")
    options = list(tables.doc.import_18xx.options) if tables.doc.import_18xx else []
    g = Game.new(tables, players=names, seed=seed, options=options)
    for _ in play(g, make_bots(bots, names, seed)):
        pass
    return g


def _differing_cuts(g: Game, cuts: list[int] | None = None) -> list[int]:
    doc, taken = _with_track_passes(g)
    replay = Game(g.tables, list(g.players), seed=g.seed, options=list(g.options))
    hashes = [replay.state_hash()]
    for a in g.log:
        replay.apply(a)
        hashes.append(replay.state_hash())
    differ = []
    for n in cuts if cuts is not None else range(1, len(doc["actions"]) + 1):
        res = import_game(copy.deepcopy(doc), stop_at=n)
        if res.divergence is not None or res.game.state_hash() != hashes[taken[n - 1]]:
            differ.append(n)
    return differ


def test_a_bot_game_with_emergency_sales_and_a_bankruptcy_imports_to_every_cut() -> None:
    """A random 2-player game on 18xx.games' readings (seed 22): an emergency sale, trains
    bought between corporations, a bankruptcy; 6 track passes added.  Every one of its
    540 cuts imports to the position of the game replayed that far."""
    g = _bot_game("random", 2, 22)
    doc, _ = _with_track_passes(g)
    assert (len(g.log), len(doc["actions"])) == (534, 540)
    assert g.state.end_reason == "bankruptcy"
    assert sum(1 for a in g.log if a.type == "sell_shares") == 92
    replay = Game(g.tables, list(g.players), seed=g.seed, options=list(g.options))
    in_operating = 0
    between = 0
    for a in g.log:
        in_operating += a.type == "sell_shares" and replay.state.round.kind == "operating"
        between += isinstance(a, BuyTrain) and any(
            a.train in c.trains for cid, c in replay.state.corporations.items() if cid != a.actor
        )
        replay.apply(a)
    assert (in_operating, between) == (1, 86)
    assert _differing_cuts(g) == []


def test_a_greedy_bot_game_with_a_discard_and_privates_bought_imports_to_those_cuts() -> None:
    """A greedy 2-player game (seed 8, 18 track passes added): each cut from three actions
    before to three after its discard and its privates bought by corporations imports to
    the position of the game replayed that far."""
    g = _bot_game("greedy", 2, 8)
    doc, taken = _with_track_passes(g)
    assert len(doc["actions"]) - len(g.log) == 18
    marks = [
        j + 1 for j, a in enumerate(doc["actions"]) if a["type"] in ("discard_train", "buy_company")
    ]
    assert [doc["actions"][m - 1]["type"] for m in marks] == [
        *["buy_company"] * 5,
        "discard_train",
    ]
    cuts = sorted({n for m in marks for n in range(m - 3, m + 4)})
    assert _differing_cuts(g, cuts) == []
    whole = import_game(copy.deepcopy(doc))
    assert whole.mismatches() == [] and whole.game.state_hash() == g.state_hash()


def test_the_corpus_cuts_around_these_patterns_are_prefixes_of_each_other() -> None:
    """Every kept action from 415 to 450 of 29133 (trains bought between corporations, a
    track pass our engine has no step for, sales, a 6-train, a trade-in, the bankruptcy):
    the import cut at each is a prefix of the one cut at the next, and what the next adds
    starts with an action of the entity acting at the cut (a pass of the corporation, its
    own action) or of that corporation's president (a sale).  B&M's pass of 416 is of its
    track step, which our engine skipped (no lay): that cut adds nothing."""
    data = export("29133")
    ids = [a["id"] for a in filter_actions(data["actions"]) if 415 <= a["id"] <= 450]
    assert len(ids) == 24
    cuts = [at(data, k) for k in ids]
    empty, by_president = [], []
    for k, before, after in zip(ids[1:], cuts, cuts[1:], strict=False):
        if not added(before, after):
            empty.append(k)
            continue
        first = after.game.log[len(before.game.log)]
        acting = before.game.acting()
        assert acting is not None
        corp = before.game.state.corporations.get(acting)
        if first.actor != acting:
            assert corp is not None and first.actor == corp.president
            by_president.append(k)
    assert empty == [416]
    assert by_president == [422, 423]
    erie = [at(data, k) for k in (437, 438, 439)]
    assert [trains(r, "ERIE")["ERIE"] for r in erie] == [[], ["4-1"], ["D-0"]]
    assert erie[2].game.state.train_pool == []  # (the 4-1 traded in rusts with the D)
