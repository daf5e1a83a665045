"""`eighteen simulate`'s text summary: values in their units (whole dollars, percentage
points, counts never in scientific notation), the counts of significant differences and
discoveries, ten differences at most and how many more."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from eighteen.cli import main
from eighteen.commands.simulate import _print_balance, print_comparison
from eighteen.sim.report import difference_text, p_text, value_text
from eighteen.sim.summary import tally

# -- the text summary ------------------------------------------------------------------------


def test_values_print_in_their_units() -> None:
    assert value_text(1240.4, "money", signed=True) == "+$1,240"
    assert value_text(-7.5, "money", signed=True) == "-$8"
    assert value_text(7.5, "money") == "$8"
    assert value_text(-0.4, "money", signed=True) == "+$0"
    assert value_text(1_234_567.0, "money") == "$1,234,567"
    assert value_text(-0.666667, "rate", signed=True) == "-66.7 pp"
    assert value_text(0.25, "rate") == "25.0%"
    assert value_text(1240.0, "count", signed=True) == "+1,240"
    assert value_text(12.345, "count", signed=True) == "+12.3"
    assert value_text(0.012345, "count") == "0.0123"
    assert value_text(0.0, "count", signed=True) == "+0"
    assert value_text(None, "money") == "–"
    assert (p_text(0.04213), p_text(0.0004), p_text(1.0), p_text(None)) == (
        "0.042",
        "<0.001",
        "1.000",
        "–",
    )


def test_a_difference_without_an_interval_says_why() -> None:
    base = {"unit": "money", "difference": 100.0}
    assert difference_text({**base, "ci": None, "n": 3}) == "+$100 (the same in all 3 pairs)"
    assert difference_text({**base, "ci": None, "n": 1}) == "+$100 (1 pair)"
    assert difference_text({**base, "ci": [153.2, 2330.0], "n": 9}) == "+$100 [+$153, +$2,330]"


def _difference(k: int, significant: bool) -> dict[str, Any]:
    p = 0.001 * (k + 1) if significant else 0.5
    return {
        "metric": f"seat {k + 1} final value",
        "measure": "final value" if k < 8 else "final price",
        "unit": "money",
        "n": 20,
        "difference": 1000.0 * (k + 1),
        "ci": [100.0, 2000.0 * (k + 1)],
        "p": p,
        "q": min(1.0, 3 * p),
        "significant": significant,
        "discovery": 3 * p < 0.05,
    }


def test_the_comparison_lists_ten_significant_and_says_how_many_more(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # 12 significant, listed smallest p first (given here in reverse), and 2 not
    ds = [_difference(k, True) for k in reversed(range(12))] + [
        _difference(12, False),
        _difference(13, False),
    ]
    c = {"a": "x", "b": "y", "pairs": 20, "alpha": 0.05, "counts": tally(ds), "differences": ds}
    print_comparison(c)
    lines = capsys.readouterr().out.splitlines()
    assert lines[:4] == [
        "y - x: 12 of 14 differences significant (p < 0.05), 12 after false-discovery "
        "control (Benjamini-Hochberg q < 0.05); 20 seeds finished in both",
        "  significant by measure: final price 4 of 6 (4 after control), "
        "final value 8 of 8 (8 after control)",
        "  seat 1 final value: +$1,000 [+$100, +$2,000], p 0.001, q 0.003, a discovery",
        "  seat 2 final value: +$2,000 [+$100, +$4,000], p 0.002, q 0.006, a discovery",
    ]
    assert (
        lines[11]
        == "  seat 10 final value: +$10,000 [+$100, +$20,000], p 0.010, q 0.030, a discovery"
    )
    assert lines[12:] == ["  and 2 more significant (summary.json has every difference)"]


def test_a_title_with_takeovers_none_of_whose_games_finished(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """No takeover line without a finished game (its mean was None: a TypeError)."""
    argv = ["simulate", "1833ne-takeover", "--games", "1", "--max-actions", "5", "--quiet"]
    assert main([*argv, "--out", str(tmp_path), "--no-report"]) == 0
    assert capsys.readouterr().out == (
        "1833ne-takeover: 0/1 games finished\n"
        "  no game finished: nothing to measure but how the games ended\n"
        "  ends: unfinished 100.0%\n"
        "  unfinished: seed 1\n"
    )


def test_seat_balance_is_printed_when_it_speaks_of_the_seats(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The seats' chi-square line: with one bot in every seat, or with --rotate; not when
    the seats hold different bots unrotated (the bots would differ, not the seats); too
    few games to judge below 5 expected wins per seat; p < 0.05 says the seats differ."""
    balance = {"n": 40.0, "chi2": 48.6, "df": 3, "p": 2.1e-10}
    one_bot = {"seat_balance": balance, "bots": {"greedy": {}}}
    two_bots = {"seat_balance": balance, "bots": {"greedy": {}, "random": {}}}
    _print_balance(one_bot, rotate=False)
    _print_balance(two_bots, rotate=True)
    _print_balance(two_bots, rotate=False)
    _print_balance({**one_bot, "seat_balance": {**balance, "chi2": 7.9, "p": 0.0481}}, False)
    _print_balance({**one_bot, "seat_balance": {**balance, "chi2": 7.7, "p": 0.0527}}, False)
    _print_balance(
        {**one_bot, "seat_balance": {**balance, "n": 4.0, "chi2": 12.0, "p": None}}, False
    )
    _print_balance({**one_bot, "seat_balance": {"n": 0.0, "chi2": None, "df": 3, "p": None}}, False)
    differ = "  seat balance: chi-square 48.6 (3 df), p <0.001: the seats do not win equally often"
    assert capsys.readouterr().out.splitlines() == [
        differ,
        differ,
        "  seat balance: chi-square 7.9 (3 df), p 0.048: the seats do not win equally often",
        "  seat balance: chi-square 7.7 (3 df), p 0.053: no seat wins more often than chance "
        "allows",
        "  seat balance: too few games to judge (fewer than 5 expected wins per seat; "
        "chi-square 12.0, 3 df)",
    ]


def test_the_report_says_the_seat_balance_when_it_speaks_of_the_seats(
    small_run: tuple[dict[str, Any], dict[str, list[dict[str, Any]]]],
) -> None:
    """report.html has the seats' line as the text does: not for different bots unrotated
    (the small run), one per title with --rotate (3 games of 4 seats: too few to judge)."""
    from eighteen.sim.report import render_report

    summary, records = small_run
    assert 'class="balance"' not in render_report(summary, records)
    html = render_report({**summary, "rotate": True}, records)
    lines = re.findall(r'<p class="balance">([^<]*)</p>', html)
    assert [x.split(" (fewer")[0] for x in lines] == [
        "Seat balance: too few games to judge",
        "Seat balance: too few games to judge",
    ]
    assert all(
        x.endswith(f"chi-square {summary['results'][t]['seat_balance']['chi2']:.1f}, 3 df).")
        for x, t in zip(lines, ("1830", "1830-example"), strict=True)
    )
