"""summarize on hand-made game records: every figure checked with its exact value."""

from __future__ import annotations

import math
from importlib.metadata import version
from types import SimpleNamespace
from typing import Any

import pytest

from eighteen.sim.summary import FORMAT, compare, measure, metrics, summarize, tally, title_summary

TABLES: Any = SimpleNamespace(
    id="toy",
    name="Toy",
    version="1.0.0",
    hash="sha256:0",
    privates=[SimpleNamespace(id="P1", name="First")],
    corporations=[
        SimpleNamespace(id="AA", color="#FFFFFF"),
        SimpleNamespace(id="BB", color="#1C3F94"),
    ],
    phases=[SimpleNamespace(id="2"), SimpleNamespace(id="3")],
)


def record(index: int, values: list[int], **extra: Any) -> dict[str, Any]:
    top = max(values)
    winners = [i for i, v in enumerate(values) if v == top]
    r = {
        "title": "toy",
        "index": index,
        "seed": 1 + index,
        "bots": ["greedy", "random"],
        "finished": True,
        "end_reason": "bank broken",
        "actions": 100 + index,
        "sets": 5,
        "operating_rounds": 8 + index,
        "values": values,
        "ranks": [1 + sum(1 for w in values if w > v) for v in values],
        "wins": [1 / len(winners) if i in winners else 0.0 for i in range(len(values))],
        "bankrupt": [],
        "phases": {"2": {"or": 0, "set": 0, "action": 0}},
        "private_owners": {"P1": 0},
        "corporations": {
            "AA": {
                "floated": True,
                "final_price": 100,
                "revenue": 400,
                "operating_rounds": 4,
                "prices": [90, 100],
                "taken_over_by": None,
                "took_over": 0,
            },
            "BB": {
                "floated": False,
                "final_price": None,
                "revenue": 0,
                "operating_rounds": 0,
                "prices": [None, None],
                "taken_over_by": None,
                "took_over": 0,
            },
        },
        "takeovers": 0,
        "takeovers_held": False,
    }
    r.update(extra)
    return r


RECORDS = [
    record(0, [500, 300]),
    record(
        1,
        [200, 400],
        phases={"2": {"or": 0, "set": 0, "action": 0}, "3": {"or": 3, "set": 2, "action": 40}},
    ),
    record(2, [300, 300], bankrupt=[1], end_reason="bankruptcy"),
    record(3, [0, 0], finished=False, end_reason="unfinished"),
]


def test_seats_count_finished_games_and_split_ties() -> None:
    s = title_summary(RECORDS, TABLES)
    assert (s["games"], s["finished"]) == (4, 3)
    seat1, seat2 = s["seats"]
    assert seat1["win_rate"]["rate"] == 0.5  # 1 + 0 + 1/2 of 3 games
    assert seat2["win_rate"]["rate"] == 0.5
    assert seat1["final_value"]["mean"] == 333.333333
    assert seat2["final_value"]["mean"] == 333.333333
    assert seat1["mean_rank"]["mean"] == 1.333333  # ranks 1, 2, 1
    assert s["bots"]["random"]["seat_games"] == 3
    # 1.5 wins each of 3 games against 1.5 expected: chi-square 0, but fewer than 5
    # expected wins per seat: no p
    assert s["seat_balance"] == {"n": 3.0, "chi2": 0.0, "df": 1, "p": None}


def test_privates_corporations_length_ends_phases() -> None:
    s = title_summary(RECORDS, TABLES)
    assert s["privates"]["P1"]["sold_in"] == 3
    assert s["privates"]["P1"]["owner_rank"]["mean"] == 1.333333
    aa, bb = s["corporations"]["AA"], s["corporations"]["BB"]
    assert aa["float_rate"]["rate"] == 1.0 and bb["float_rate"]["rate"] == 0.0
    assert aa["final_price"] == {"n": 3, "mean": 100.0, "ci": [100.0, 100.0]}
    assert aa["revenue_per_or"]["mean"] == 100.0
    assert bb["final_price"]["mean"] is None and bb["revenue_per_or"]["n"] == 0
    assert aa["price_path"] == [90.0, 100.0] and bb["price_path"] == [None, None]
    assert s["length"]["operating_rounds"]["mean"] == 9.0
    assert (s["length"]["actions"]["min"], s["length"]["actions"]["max"]) == (100, 102)
    # nearest rank of 100, 101, 102: the 10th percentile the 1st value, the median the 2nd
    # (ceil(0.5 * 3) = 2), the 90th the 3rd (ceil(0.9 * 3) = 3)
    assert {k: s["length"]["actions"][k] for k in ("p10", "median", "p90")} == {
        "p10": 100,
        "median": 101,
        "p90": 102,
    }
    assert s["end_seeds"] == {"bank broken": [1, 2], "bankruptcy": [3], "unfinished": [4]}
    assert {k: v["rate"] for k, v in s["end_reasons"].items()} == {
        "bank broken": 0.5,
        "bankruptcy": 0.25,
        "unfinished": 0.25,
    }
    assert s["bankruptcies"]["games"]["rate"] == 0.333333
    assert s["bankruptcies"]["by_seat"] == [0, 1]
    assert s["phases"]["2"]["reached"]["rate"] == 1.0
    assert s["phases"]["3"]["reached"]["rate"] == 0.333333
    assert s["phases"]["3"]["began_or"] == {"n": 1, "mean": 3.0, "ci": None}


def test_metrics_of_an_unfinished_game_are_missing() -> None:
    m = metrics(RECORDS[3], TABLES)
    assert m["seat 1 win rate"] is None and m["AA final price"] is None
    assert metrics(RECORDS[0], TABLES)["AA revenue per OR"] == 100.0


def test_comparison_is_paired_by_seed() -> None:
    other = [record(i, [v + 100 for v in r["values"]]) for i, r in enumerate(RECORDS[:3])]
    other.append(record(3, [700, 100]))
    diffs = {d["metric"]: d for d in compare(RECORDS, other, TABLES, TABLES)}
    # seat 1 gains $100 in each of the 3 games both titles finished: every difference the
    # same, so no interval, and the sign test's p = 2 * 0.5^3
    value = diffs["seat 1 final value"]
    assert (value["difference"], value["n"], value["ci"]) == (100.0, 3, None)
    assert (value["p"], value["test"], value["significant"]) == (0.25, "sign", False)
    assert (value["measure"], value["unit"]) == ("final value", "money")
    # a and b are the means over the same 3 pairs, not over each title's own games (b's
    # fourth game, $700, finished only in b)
    assert (value["a"], value["b"]) == (333.333333, 433.333333)
    assert diffs["operating rounds"]["difference"] == 0.0
    assert diffs["operating rounds"]["significant"] is False
    # unfinished: 0, 0, 0, 1 in a, none in b: differences 0, 0, 0, -1; se 1/4, t = -1 (df 3)
    # half width t(0.975, 3) 3.182446 / 4 = 0.795612: [-1.045612, 0.545612], clamped to -1
    unfinished = diffs["end: unfinished"]
    assert (unfinished["difference"], unfinished["ci"]) == (-0.25, [-1.0, 0.545612])
    assert (unfinished["a"], unfinished["b"], unfinished["n"]) == (0.25, 0.0, 4)
    x = 1 / math.sqrt(3)  # p of |t| = 1 with 3 degrees of freedom, closed form
    assert unfinished["p"] == float(f"{1 - 2 / math.pi * (x / (1 + x * x) + math.atan(x)):.6g}")
    assert (unfinished["measure"], unfinished["unit"]) == ("end reason", "rate")


def test_false_discovery_control_over_the_comparison() -> None:
    """Only `actions` differs (by 10, 11, 12 actions): its p is the paired t-test's, df 2;
    every other difference tested has p = 1, and two (BB, never floated) have no pair. BH
    over the 18 tested: q = 18 p, which stays below 0.05 here (one bot in both seats: no
    per-bot measures)."""
    done = [{**r, "bots": ["greedy", "greedy"]} for r in RECORDS[:3]]
    other = [{**r, "actions": r["actions"] + 10 + i} for i, r in enumerate(done)]
    ds = compare(done, other, TABLES, TABLES)
    t = 11 / (1 / math.sqrt(3))
    p = 1 - t / math.sqrt(2 + t * t)  # closed form of the two-sided p, 2 degrees of freedom
    actions = next(d for d in ds if d["metric"] == "actions")
    assert actions["p"] == float(f"{p:.6g}") == 0.00274349
    assert actions["q"] == float(f"{18 * p:.6g}") == 0.0493828
    assert (actions["significant"], actions["discovery"]) == (True, True)
    assert [d["metric"] for d in ds if d["p"] is None] == ["BB final price", "BB revenue per OR"]
    assert [d["q"] for d in ds if d["p"] is None] == [None, None]
    assert {d["q"] for d in ds if d["p"] is not None and d is not actions} == {1.0}
    counts = tally(ds)
    assert {k: v for k, v in counts.items() if k != "by_measure"} == {
        "differences": 20,
        "tested": 18,
        "significant": 1,
        "discoveries": 1,
    }
    assert counts["by_measure"]["actions"] == {
        "differences": 1,
        "tested": 1,
        "significant": 1,
        "discoveries": 1,
    }
    assert counts["by_measure"]["final price"] == {
        "differences": 2,
        "tested": 1,
        "significant": 0,
        "discoveries": 0,
    }
    assert list(counts["by_measure"]) == [
        "win rate",
        "final value",
        "owner rank",
        "owner value",
        "float rate",
        "final price",
        "revenue per OR",
        "sets",
        "operating rounds",
        "actions",
        "bankruptcy rate",
        "began (OR)",
        "end reason",
    ]


def test_each_metric_has_a_measure_and_a_unit() -> None:
    assert measure("seat 2 win rate") == ("win rate", "rate")
    assert measure("CPR final price") == ("final price", "money")
    assert measure("B&O revenue per OR") == ("revenue per OR", "money")
    assert measure("private SV owner rank") == ("owner rank", "count")
    assert measure("NYC taken over rate") == ("taken over rate", "rate")
    assert measure("takeovers") == ("takeovers", "count")
    assert measure("phase 3 began (OR)") == ("began (OR)", "count")
    assert measure("end: bank broken") == ("end reason", "rate")
    with pytest.raises(KeyError, match="no measure ends the metric 'seat 1 luck'"):
        measure("seat 1 luck")
    every = {m for r in RECORDS for m in metrics(r, TABLES)}
    assert all(measure(m) for m in every)


def test_summary_settings_and_comparison() -> None:
    s = summarize(
        {"toy": RECORDS, "toy2": RECORDS},
        {"toy": TABLES, "toy2": TABLES},
        games=4,
        players=2,
        seed=1,
        bots=["greedy", "random"],
        rotate=False,
        max_actions=500,
    )
    assert s["titles"] == ["toy", "toy2"] and s["seeds"] == [1, 4]
    assert list(s["results"]) == ["toy", "toy2"]
    assert s["format"] == FORMAT == 2
    assert s["eighteen"] == version("eighteen")
    c = s["comparison"]
    assert (c["a"], c["b"], c["pairs"], c["alpha"]) == ("toy", "toy2", 3, 0.05)
    assert not any(d["significant"] for d in c["differences"])
    assert (c["counts"]["significant"], c["counts"]["discoveries"]) == (0, 0)
    assert c["counts"] == tally(c["differences"])


def test_a_closed_corporation_has_no_final_price() -> None:
    closed = record(0, [100, 50])
    closed["corporations"]["BB"].update(floated=True, final_price=None, operating_rounds=2)
    s = title_summary([closed, record(1, [80, 90])], TABLES)
    bb = s["corporations"]["BB"]
    assert bb["float_rate"]["rate"] == 0.5
    assert bb["final_price"] == {"n": 0, "mean": None, "ci": None}
    assert bb["revenue_per_or"] == {"n": 1, "mean": 0.0, "ci": None}
    assert metrics(closed, TABLES)["BB final price"] is None


def test_takeovers_per_game_and_per_corporation() -> None:
    """With rules.takeovers: how often a corporation is taken over, how many it takes over,
    and takeovers per game; a title without takeovers has no such metrics."""
    took = record(1, [200, 400], takeovers=1, takeovers_held=True)
    took["corporations"]["AA"]["took_over"] = 1
    took["corporations"]["BB"]["taken_over_by"] = "AA"
    records = [record(0, [500, 300], takeovers_held=True), took]
    s = title_summary(records, TABLES)
    assert s["takeovers"]["held"] is True
    assert s["takeovers"]["games"]["rate"] == 0.5
    assert s["takeovers"]["per_game"]["mean"] == 0.5
    aa, bb = s["corporations"]["AA"], s["corporations"]["BB"]
    assert (aa["taken_over_rate"]["rate"], bb["taken_over_rate"]["rate"]) == (0.0, 0.5)
    assert (aa["takeovers_made"]["mean"], bb["takeovers_made"]["mean"]) == (0.5, 0.0)
    m = metrics(took, TABLES)
    assert (m["takeovers"], m["BB taken over rate"], m["AA taken over rate"]) == (1, 1.0, 0.0)
    assert "takeovers" not in metrics(RECORDS[0], TABLES)
    assert title_summary(RECORDS, TABLES)["takeovers"]["held"] is False


def test_price_lines_take_the_corporations_colours() -> None:
    """A corporation's line has its title colour; a white one is drawn gray, and a second
    line of a colour already used is dashed."""
    from eighteen.sim.report import _line_style

    used: set[str] = set()
    assert _line_style("#1C3F94", used, "#000000") == ("#1c3f94", "-")
    assert _line_style("#FFFFFF", used, "#000000") == ("#8c8c8c", "-")
    assert _line_style("#1c3f94", used, "#000000") == ("#1c3f94", "--")
    assert _line_style(None, used, "#ff0000") == ("#ff0000", "-")
    assert title_summary(RECORDS, TABLES)["corporations"]["BB"]["color"] == "#1C3F94"


def test_each_bot_is_compared_over_the_seats_it_holds() -> None:
    """With two bots, each bot's win rate and final value per game (the mean over its
    seats) are compared too, here with the bots rotated: the greedy bot sits in seat 1,
    then 2, then 1. A bot in one seat, the same in every game, is not (its figures are
    that seat's)."""
    rotated = [
        {**r, "bots": ["greedy", "random"] if k != 1 else ["random", "greedy"]}
        for k, r in enumerate(RECORDS[:3])
    ]
    other = [
        {
            **r,
            "values": [
                v + (100 if b == "greedy" else 0)
                for v, b in zip(r["values"], r["bots"], strict=True)
            ],
        }
        for r in rotated
    ]
    ds = {d["metric"]: d for d in compare(rotated, other, TABLES, TABLES)}
    value = ds["bot greedy final value"]
    # greedy's values: 500 (seat 1), 400 (seat 2), 300 (seat 1)
    assert (value["a"], value["b"], value["difference"], value["measure"]) == (
        400.0,
        500.0,
        100.0,
        "final value",
    )
    assert ds["bot random final value"]["difference"] == 0.0
    # greedy's wins: 1, 1, 1/2
    assert ds["bot greedy win rate"]["a"] == 0.833333
    fixed = {d["metric"] for d in compare(RECORDS[:3], RECORDS[:3], TABLES, TABLES)}
    assert not any(m.startswith("bot ") for m in fixed)
    assert (
        metrics({**RECORDS[0], "bots": ["greedy", "greedy"]}, TABLES)
        .keys()
        .isdisjoint({"bot greedy win rate", "bot greedy final value"})
    )


def test_metrics_leave_out_the_seat_bound_bots() -> None:
    apart = {k for k in metrics(RECORDS[0], TABLES, ["greedy"]) if k.startswith("bot ")}
    assert apart == {"bot random win rate", "bot random final value"}
    assert {k for k in metrics(RECORDS[0], TABLES) if k.startswith("bot ")} == {
        "bot greedy win rate",
        "bot greedy final value",
        "bot random win rate",
        "bot random final value",
    }
