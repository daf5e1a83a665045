"""Claims of docs/routes.md, docs/simulate.md, docs/variants.md, docs/title-format.md,
docs/1830-notes.md, docs/import-18xx.md and docs/compiled-format.md that no other test
asserts with exact values.

Each test names the section of the document it checks.  A failing test here is a claim the
code does not keep (see the audit report); the test stays as the claim is written.
"""

from __future__ import annotations

import copy
import json
import random
import shutil
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from sim.test_sim_summary import TABLES, record
from test_cli import run

import eighteen
from eighteen.cli import build_parser, main
from eighteen.engine import bots, network, phases, route_network, routefinder
from eighteen.engine.actions import RunRoutes
from eighteen.engine.bots import PERSONALITIES, Personality
from eighteen.engine.game import Game
from eighteen.engine.routefinder import optimize
from eighteen.sim import report
from eighteen.sim.botspec import parse_bots, seat_bots, seated_bots
from eighteen.sim.stats import wilson
from eighteen.sim.summary import title_summary
from eighteen.title.diff import diff_compiled, format_diff, load_compiled
from eighteen.title.fmt import format_text
from eighteen.title.model.titlefile import GameEnds, Rules
from eighteen.title.pipeline import load_title
from eighteen.title.versions import SaveTitleMismatch, check_save_title

ROOT = Path(__file__).resolve().parent.parent


# -- docs/routes.md ------------------------------------------------------------------------


#: A 4-player 1830 game of greedy bots (seed 3, as the greedy bot of eighteen 1.x played it),
#: saved where B&O is about to run its three 3-trains (action 98): the docs' route examples
#: are of this position, which a later bot need not reach.
TWO_TRAIN = ROOT / "tests" / "fixtures" / "saves" / "1830-before-a-three-train-run.json"


def _game_before_a_two_train_run() -> tuple[Game, str]:
    """The position of ``TWO_TRAIN``: a corporation about to run two trains or more, each
    of them (B&O, three 3-trains, action 98)."""
    game = eighteen.Game.from_json(TWO_TRAIN.read_text())
    runs = [a for a in game.legal_actions() if isinstance(a, RunRoutes)]
    assert runs and len(runs[0].routes) == len(network.corp_trains(game, runs[0].actor)) == 3
    return game, runs[0].actor


@pytest.fixture(scope="module")
def two_train_save(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game, corp = _game_before_a_two_train_run()
    assert (corp, len(game.to_json()["actions"])) == ("B&O", 98)
    path = tmp_path_factory.mktemp("routes") / "game.json"
    path.write_text(json.dumps(game.to_json()))
    return path


def test_routes_command_prints_the_documented_report(
    two_train_save: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/routes.md, Command: `eighteen routes game.json` prints the corporation's trains,
    phase and off-board colour, each train's route, stop by stop with its revenue and the
    route's total, the run's `total $N` and `optimal (searched N states)`; without
    `--corporation` the corporation operating now."""
    code, out, err = run(capsys, "routes", str(two_train_save))
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "B&O: trains 3-1 (3), 3-2 (3), 3-3 (3); phase 4, off-boards yellow",
        "train 3-1: I15-c0 - J14-c0",
        "  I15-c0   city     $  50",
        "  J14-c0   city     $  30",
        "  total             $  80",
        "train 3-2: J14-c0 - K13-o0",
        "  J14-c0   city     $  30",
        "  K13-o0   offboard $  30",
        "  total             $  60",
        "train 3-3: J14-c0 - K15-c0",
        "  J14-c0   city     $  30",
        "  K15-c0   city     $  20",
        "  total             $  50",
        "total $190",
        "optimal (searched 22 states)",
    ]


def test_routes_json_holds_took_over_taken_over_by_and_home(
    two_train_save: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/routes.md, Command: `--format json` gives the same as the text report, with
    `took_over`, `taken_over_by` and `home` (empty for a 1830 corporation)."""
    code, out, _ = run(capsys, "routes", str(two_train_save), "--format", "json")
    doc = json.loads(out)
    assert code == 0
    assert (doc["corporation"], doc["phase"], doc["total"], doc["optimal"]) == (
        "B&O",
        "4",
        190,
        True,
    )
    assert [(r["train"], r["stops"], r["revenue"]) for r in doc["routes"]] == [
        ("3-1", ["I15-c0", "J14-c0"], 80),
        ("3-2", ["J14-c0", "K13-o0"], 60),
        ("3-3", ["J14-c0", "K15-c0"], 50),
    ]
    assert (doc["took_over"], doc["taken_over_by"], doc["home"]) == ([], None, None)


def test_routes_refuses_another_title_version_and_force_replays_with_a_warning(
    two_train_save: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/routes.md, Command (`--force`) and docs/variants.md, Saves and title versions:
    a save of another version is refused naming both, exit 1; `--force` replays anyway and
    the message becomes a warning."""
    data = json.loads(two_train_save.read_text())
    data["version"] = "1.0.0"
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data))
    code, out, err = run(capsys, "routes", str(old))
    assert (code, out) == (1, "")
    assert err.startswith(f"eighteen routes: error: {old}: save made with 1830 1.0.0 (sha256:")
    assert "but the title is now 1830 1.5.0 (sha256:" in err
    assert "the title has a new version since the game was saved. " in err
    assert err.count("\n") == 1
    code, out, err = run(capsys, "routes", str(old), "--force")
    assert code == 0 and out.splitlines()[-2:] == ["total $190", "optimal (searched 22 states)"]
    assert "warning: save made with 1830 1.0.0" in err


def test_the_optimiser_snippet_gives_routes_total_optimal_bound_explored() -> None:
    """docs/routes.md, The optimiser: `optimize(board, state, corp, trains, key)` gives one
    Route per running train in the given order, their total, `optimal`, `upper_bound` (==
    total when optimal), `explored`; `explain()` ends with the total."""
    game, corp = _game_before_a_two_train_run()
    trains = network.corp_trains(game, corp)
    result = optimize(network.board(game), game.state.map, corp, trains, phases.revenue_key(game))
    assert [r.train for r in result.routes] == [t for t, _ in trains] == ["3-1", "3-2", "3-3"]
    assert [r.revenue for r in result.routes] == [80, 60, 50]
    assert (result.total, result.optimal, result.upper_bound, result.explored) == (
        190,
        True,
        190,
        22,
    )
    assert result.explain()[-1] == "total $190"


def test_the_optimiser_snippet_runs_on_a_save(
    two_train_save: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/routes.md, The optimiser: the snippet runs as printed on a save (`game.json`):
    `network.board(game)` and `game.state.map` are the board and the state; its second
    `optimize`, with the corporation's trains and the phase's colour, is `network.optimal`
    where no bonus, virtual station, exclusion or group applies (1830's B&O here)."""
    text = (ROOT / "docs" / "routes.md").read_text()
    snippet = text.split("## The optimiser", 1)[1].split("```python\n", 1)[1].split("```")[0]
    monkeypatch.chdir(two_train_save.parent)
    scope: dict[str, Any] = {}
    exec(snippet, scope)
    result, game, corp = scope["result"], scope["game"], scope["corp"]
    assert corp == "B&O"
    assert result.total == network.optimal(game, corp).total == 190
    assert capsys.readouterr().out.splitlines()[-1] == "total $190"


def test_network_optimal_is_memoised_until_the_next_action_and_best_is_the_run_action() -> None:
    """docs/routes.md, The optimiser: `network.optimal(game, corp)` is memoised until the
    next action; `optimal_revenue` gives the same; the engine offers `network.best(game,
    corp)` as the `RunRoutes` action."""
    game, corp = _game_before_a_two_train_run()
    first = network.optimal(game, corp)
    assert network.optimal(game, corp) is first
    assert network.optimal_revenue(game, corp).total == first.total == 190
    (run_action,) = [a for a in game.legal_actions() if isinstance(a, RunRoutes)]
    assert [(r.train, r.stops, r.revenue) for r in run_action.routes] == [
        (r.train, tuple(s.id for s in r.stops), r.revenue) for r in network.best(game, corp)
    ]
    assert game._memo is not None and ("optimal", corp, None) in game._memo
    game.apply(run_action)
    assert game._memo is None or ("optimal", corp, None) not in game._memo


def test_budget_defaults_to_300000_states_and_a_cut_search_reports_a_bound() -> None:
    """docs/routes.md, Budget: `optimize(..., budget=N)` (default 300 000 states); when it
    runs out the result has `optimal=False`, the best routes found and a proven
    `upper_bound`. Enumeration: cached up to 50 000 routes."""
    assert routefinder.DEFAULT_BUDGET == 300_000
    assert route_network.CACHE_ROUTES == 50_000
    game, corp = _game_before_a_two_train_run()
    args = (network.board(game), game.state.map, corp, network.corp_trains(game, corp), "yellow")
    network.board(game).clear_caches()
    cut = optimize(*args, budget=1)
    assert cut.optimal is False and cut.total <= 190 <= cut.upper_bound
    network.board(game).clear_caches()
    assert optimize(*args).explored == optimize(*args, budget=300_000).explored == 22


# -- docs/simulate.md ----------------------------------------------------------------------


def test_simulate_option_defaults_are_the_table_s() -> None:
    """docs/simulate.md, option table: --games 100, --players 4, --bots greedy, --seed 1,
    --rotate off, --option none, --vs-option none, --max-actions 20000, --workers 1, --ray none, --ray-cpus
    all (none given), --format text, --no-report off; --out simulation."""
    args = build_parser().parse_args(["simulate", "1830"])
    assert {
        k: getattr(args, k)
        for k in (
            "vs",
            "games",
            "players",
            "bots",
            "seed",
            "rotate",
            "options",
            "vs_options",
            "max_actions",
            "workers",
            "ray",
            "ray_cpus",
            "format",
            "no_report",
            "out",
            "quiet",
        )
    } == {
        "vs": None,
        "games": 100,
        "players": 4,
        "bots": "greedy",
        "seed": 1,
        "rotate": False,
        "options": [],
        "vs_options": [],
        "max_actions": 20000,
        "workers": 1,
        "ray": None,
        "ray_cpus": None,
        "format": "text",
        "no_report": False,
        "out": "simulation",
        "quiet": False,
    }


VS_ARGS = ["simulate", "1830", "--vs", "1830-example", "--games", "2", "--bots", "greedy,3*random"]


@pytest.fixture(scope="module")
def vs_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """`eighteen simulate 1830 --vs 1830-example --games 2 --bots greedy,3*random` on one
    worker: its folder and printed text."""
    out = tmp_path_factory.mktemp("vs1")
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
        assert main([*VS_ARGS, "--out", str(out), "--no-report", "--quiet"]) == 0
    return out, buf.getvalue()


def test_simulate_prints_win_rates_length_end_reasons_and_significant_differences(
    vs_run: tuple[Path, str],
) -> None:
    """docs/simulate.md, intro: it prints seat win rates, game length, end reasons and the
    significant differences."""
    _, text = vs_run
    lines = text.splitlines()
    assert lines[:2] == [
        "1830: 2/2 games finished",
        "  seat 1 (greedy): wins 100.0% [34.2%, 100.0%], mean value $6,330",
    ]
    assert "  operating rounds: mean 16" in lines
    assert "  operating rounds: mean 27" in lines
    assert "  ends: bank broken 50.0%, bankruptcy 50.0%" in lines
    assert "  ends: bank broken 100.0%" in lines
    assert (
        "1830-example - 1830: 1 of 56 differences significant (p < 0.05), 0 after "
        "false-discovery control (Benjamini-Hochberg q < 0.05); 2 seeds finished in both"
    ) in lines
    assert "  significant by measure: revenue per OR 1 of 8" in lines
    assert "  C&O revenue per OR: +$94 [+$65, +$124], p 0.016, q 0.890" in lines


def test_summary_is_byte_for_byte_the_same_with_two_workers(
    vs_run: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/simulate.md, Determinism: the same seed, games, players, bots and titles give
    the same summary.json, byte for byte, whatever `--workers`; it holds no time; game i
    has seed SEED + i."""
    one, _ = vs_run
    code, _, _ = run(capsys, *VS_ARGS, "--out", str(tmp_path), "--no-report", "--workers", "2")
    assert code == 0
    text = (tmp_path / "summary.json").read_bytes()
    assert text == (one / "summary.json").read_bytes()
    summary = json.loads(text)
    assert (summary["seed"], summary["seeds"]) == (1, [1, 2])
    assert not any(k in text.decode() for k in ('"time', "elapsed", "duration", "seconds"))


def test_some_fifty_measures_are_compared(vs_run: tuple[Path, str]) -> None:
    """docs/simulate.md, summary.json: "some fifty measures (51 to 54 for 1830 against
    1830-example with four greedy bots ... two more for each bot in several seats)": 54
    and the random bots' win rate and final value (the greedy bot holds seat 1 alone)."""
    one, _ = vs_run
    differences = json.loads((one / "summary.json").read_text())["comparison"]["differences"]
    assert len(differences) == 56
    assert [d["metric"] for d in differences if d["metric"].startswith("bot ")] == [
        "bot random win rate",
        "bot random final value",
    ]


def test_comparison_lists_every_seat_and_phase_figure(vs_run: tuple[Path, str]) -> None:
    """docs/simulate.md, summary.json: `comparison.differences` lists, per seat, its win
    rate and final value, and per phase the operating round it began in."""
    one, _ = vs_run
    summary = json.loads((one / "summary.json").read_text())
    metrics = [d["metric"] for d in summary["comparison"]["differences"]]
    assert [m for m in metrics if m.startswith("seat 1 ")] == [
        "seat 1 win rate",
        "seat 1 final value",
    ]
    assert [m for m in metrics if m.startswith("phase 2 ")] == ["phase 2 began (OR)"]


def test_seat_i_bot_gets_seed_game_seed_times_1000_plus_i() -> None:
    """docs/simulate.md, Determinism: seat *i*'s bot gets seed `game seed × 1000 + i`."""
    made = seated_bots(seat_bots(parse_bots("greedy,3*random"), 4), ["a", "b", "c", "d"], 7)
    assert [b.rng.random() for b in made.values()] == [
        random.Random(7000 + i).random() for i in range(4)
    ]
    assert bots.bot_seed(7, 3) == 7003


@pytest.mark.usefixtures("no_games")
def test_ray_missing_is_one_line_and_exit_1(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/simulate.md, option checks: Ray missing is one line on standard error, exit 1,
    before the first game."""
    monkeypatch.setitem(sys.modules, "ray", None)
    code, out, err = run(capsys, "simulate", "1830", "--ray", "local", "--out", str(tmp_path))
    assert (code, out) == (1, "")
    assert err == "eighteen simulate: error: --ray needs Ray: pip install 'eighteen[ray]'\n"


def test_quiet_hides_the_progress_bar_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/simulate.md, intro: a progress bar runs on the terminal (`--quiet` hides it)."""
    from rich.console import Console

    from eighteen.commands import simulate

    monkeypatch.setattr(Console, "is_terminal", property(lambda self: True))
    assert simulate._progress(False).disable is False
    assert simulate._progress(True).disable is True


def test_max_actions_cuts_a_game_as_unfinished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/simulate.md, option table and summary.json: a game still going after
    `--max-actions N` counts as `unfinished`; statistics cover the finished games."""
    argv = ["simulate", "1830", "--games", "1", "--max-actions", "30", "--no-report"]
    code, out, _ = run(capsys, *argv, "--out", str(tmp_path), "--format", "json")
    result = json.loads(out)["results"]["1830"]
    assert code == 0
    assert (result["games"], result["finished"]) == (1, 0)
    assert {k: (v["n"], v["rate"]) for k, v in result["end_reasons"].items()} == {
        "unfinished": (1, 1.0)
    }
    assert result["end_seeds"] == {"unfinished": [1]}
    assert result["length"]["actions"] == {
        "n": 0,
        "mean": None,
        "ci": None,
        "min": None,
        "p10": None,
        "median": None,
        "p90": None,
        "max": None,
    }


def test_a_mean_of_fewer_than_two_values_has_no_interval_and_a_rate_has_wilsons(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/simulate.md, summary.json: every interval is written {"n", "mean" | "rate",
    "ci"}; a mean's `ci` is null with fewer than two values, a rate's is its Wilson
    interval however few (one game: [0.206549, 1.0])."""
    argv = ["simulate", "1830", "--games", "1", "--max-actions", "30", "--no-report"]
    code, out, _ = run(capsys, *argv, "--out", str(tmp_path), "--format", "json")
    result = json.loads(out)["results"]["1830"]
    assert code == 0
    assert result["length"]["actions"]["ci"] is None
    assert result["end_reasons"]["unfinished"] == {"n": 1, "rate": 1.0, "ci": [0.206549, 1.0]}


def _record(index: int, values: list[int], phases_at: dict[str, Any], sets: int) -> dict[str, Any]:
    """test_sim_summary's record with these phases and sets, 100 + 10 x index actions and
    P1 first owned by seat 2."""
    return record(
        index,
        values,
        phases=phases_at,
        sets=sets,
        actions=100 + 10 * index,
        private_owners={"P1": 1},
    )


def test_length_min_max_phase_beginnings_and_owner_value() -> None:
    """docs/simulate.md, summary.json: `length` gives sets, operating rounds and actions,
    each with min and max; `phases` gives `reached` and `began_or`, `began_set`,
    `began_action`; `privates` gives the first owner's `owner_value` at the end."""
    start = {"or": 0, "set": 0, "action": 0}
    records = [
        _record(0, [500, 300], {"2": start, "3": {"or": 2, "set": 2, "action": 40}}, 5),
        _record(1, [200, 400], {"2": start, "3": {"or": 4, "set": 3, "action": 60}}, 7),
        _record(2, [100, 900], {"2": start}, 6),
    ]
    s = title_summary(records, TABLES)
    length = s["length"]
    assert {k: (v["min"], v["max"], v["mean"]) for k, v in length.items()} == {
        "sets": (5, 7, 6.0),
        "operating_rounds": (8, 10, 9.0),
        "actions": (100, 120, 110.0),
    }
    three = s["phases"]["3"]
    assert three["reached"]["rate"] == 0.666667
    assert (
        three["began_or"]["mean"],
        three["began_set"]["mean"],
        three["began_action"]["mean"],
    ) == (
        3.0,
        2.5,
        50.0,
    )
    assert s["privates"]["P1"]["owner_value"]["mean"] == 533.333333  # seat 2: 300, 400, 900


def test_price_paths_are_drawn_while_a_quarter_of_the_games_and_two_had_the_corporation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """docs/simulate.md, report.html: share price paths are drawn while a quarter of the
    games, rounded down, and at least two had the corporation on the market (of 9 games:
    2 are enough, 1 is not)."""
    drawn: list[list[int]] = []

    class Axes:
        def plot(self, xs: list[int], ys: list[float], **kw: Any) -> None:
            drawn.append(list(xs))

        def __getattr__(self, name: str) -> Any:
            return lambda *a, **k: None

    class Plt:
        class cm:  # noqa: N801
            @staticmethod
            def tab10(i: int) -> str:
                return "#000000"

        @staticmethod
        def subplots(*a: Any, **k: Any) -> tuple[None, list[list[Axes]]]:
            return None, [[Axes()]]

    monkeypatch.setattr(report, "_pyplot", lambda: Plt)
    monkeypatch.setattr(report, "_svg", lambda fig: "")
    summary = {
        "titles": ["toy"],
        "results": {"toy": {"corporations": {"AA": {"color": "#1C3F94"}}}},
    }

    def games(on_market: int) -> dict[str, list[Any]]:
        return {
            "toy": [
                {
                    "finished": True,
                    "corporations": {"AA": {"prices": [100 if i < on_market else None]}},
                }
                for i in range(9)
            ]
        }

    report.plot_prices(summary, games(2))
    assert drawn == [[1]]
    drawn.clear()
    report.plot_prices(summary, games(1))
    assert drawn == []


def test_the_report_is_self_contained(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/simulate.md, report.html: one self-contained page (no network), the plots
    inlined as SVG."""
    argv = ["simulate", "1830", "--games", "1", "--players", "3", "--quiet"]
    code, _, _ = run(capsys, *argv, "--out", str(tmp_path))
    html = (tmp_path / "report.html").read_text()
    assert code == 0
    assert html.count("<svg") == 5
    for external in ('src="http', "src='http", 'href="http', "<link", "@import", "url(http"):
        assert external not in html, external


def test_the_bot_examples_give_the_documented_seats() -> None:
    """docs/simulate.md, Bots and personalities: the examples table."""

    def seats(text: str) -> list[str]:
        return [s.label for s in seat_bots(parse_bots(text), 4)]

    assert seats("greedy") == ["greedy"] * 4
    assert seats("greedy,3*random") == ["greedy", "random", "random", "random"]
    assert seats("greedy:cautious,greedy:bold,2*random") == [
        "greedy:cautious",
        "greedy:bold",
        "random",
        "random",
    ]
    (traits, *_) = seat_bots(parse_bots("greedy(cash=0.3,risk=0.8),random,random,random"), 4)
    assert traits.personality == Personality(cash=0.3, risk=0.8)
    (changed,) = parse_bots("greedy:cautious(risk=0.5)")
    assert changed.personality == Personality(cash=0.4, risk=0.5)


def test_the_styles_have_the_documented_traits() -> None:
    """docs/simulate.md, Bots and personalities: style table (cash, risk)."""
    assert {k: (p.cash, p.risk) for k, p in PERSONALITIES.items()} == {
        "default": (0.0, 0.5),
        "cautious": (0.4, 0.1),
        "bold": (0.0, 0.9),
        "thrifty": (0.7, 0.5),
    }


def test_risk_rules_for_terrain_and_withholding() -> None:
    """docs/simulate.md, Bots and personalities: a greedy bot lays a tile only when its
    cost (terrain here) is at most a quarter of (1 + risk) x the treasury; above risk 0.6 its
    corporations issue shares for a second train, not only a first."""
    from eighteen.engine.actions import IssueShares, LayTile

    game, corp = _game_before_a_two_train_run()
    cheap = bots.GreedyBot(0, Personality(risk=0.0))
    bold = bots.GreedyBot(0, Personality(risk=1.0))
    state = game.state
    lay = LayTile(corp, "F16", "57", 0)  # a hex with terrain that no tile covers yet
    cost = cheap.terrain_cost(game, "F16")
    assert cost == 120
    state.corporations[corp].cash = 4 * cost  # a quarter of (1 + 0) x 480 = 120: allowed
    assert cheap.score(game, lay) > 0
    state.corporations[corp].cash = 4 * cost - 1
    assert cheap.score(game, lay) == -0.2
    state.corporations[corp].cash = 2 * cost  # a quarter of (1 + 1) x 240 = 120: allowed
    assert bold.score(game, lay) > 0
    assert cheap.score(game, lay) == -0.2
    # two trains on a 4-train limit, cash short of the cheapest train on sale
    state.corporations[corp].cash = 0
    assert bots.GreedyBot(0, Personality(risk=0.6)).should_withhold(game, corp) is False
    assert bots.GreedyBot(0, Personality(risk=0.61)).should_withhold(game, corp) is False
    one_train = copy.deepcopy(game)
    one_train.state.corporations[corp].trains = one_train.state.corporations[corp].trains[:1]
    assert bots.GreedyBot(0, Personality(risk=0.6)).should_withhold(one_train, corp) is False
    assert bots.GreedyBot(0, Personality(risk=0.61)).should_withhold(one_train, corp) is True
    issue = IssueShares(corp, 1)
    assert bots.GreedyBot(0, Personality(risk=0.6)).score(one_train, issue) == -0.5
    assert bots.GreedyBot(0, Personality(risk=0.61)).score(one_train, issue) == 0.49


@pytest.mark.parametrize(
    ("wins", "n", "rate", "ci"),
    [
        (193, 200, 96.5, (93.0, 98.3)),  # 1830 greedy,3*random: greedy
        (7, 600, 1.2, (0.6, 2.4)),  # ... random each
        (0, 400, 0.0, (0.0, 1.0)),  # 1830 2*greedy,2*random: random
        (91, 200, 45.5, (38.7, 52.4)),  # 1830 styles: default
        (48, 200, 24.0, (18.6, 30.4)),  # bold
        (39, 200, 19.5, (14.6, 25.5)),  # thrifty
        (22, 200, 11.0, (7.4, 16.1)),  # cautious
        (162, 200, 81.0, (75.0, 85.8)),  # 1833ne greedy,3*random: greedy
        (38, 600, 6.3, (4.6, 8.6)),  # ... random each
        (34, 100, 34.0, (25.5, 43.7)),  # 1833ne styles: thrifty
        (28, 100, 28.0, (20.1, 37.5)),  # default
        (25, 100, 25.0, (17.5, 34.3)),  # bold
        (13, 100, 13.0, (7.8, 21.0)),  # cautious
    ],
)
def test_the_ladder_intervals_are_wilson_intervals_of_its_rates(
    wins: float, n: int, rate: float, ci: tuple[float, float]
) -> None:
    """docs/simulate.md, The bot ladder: each win rate and 95% interval of the table is the
    Wilson interval of its wins over the seat-games (200 games x seats played); each
    game's wins add up to one."""
    w = wilson(wins, n)
    assert w["rate"] is not None and w["ci"] is not None
    assert round(100 * w["rate"], 1) == rate
    assert (round(100 * w["ci"][0], 1), round(100 * w["ci"][1], 1)) == ci


# -- docs/variants.md ----------------------------------------------------------------------


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder (the working directory) with titles/1830 and titles/common."""
    shutil.copytree(ROOT / "titles" / "1830", tmp_path / "titles" / "1830")
    shutil.copytree(ROOT / "titles" / "common", tmp_path / "titles" / "common")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_new_writes_the_documented_scaffold(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/variants.md, `eighteen new NAME --from BASE`: titles/NAME/ with title.toml
    (`extends`, `id`, `name`, `version = "0.1.0"`) and trains.toml, map.toml, privates.toml
    holding only comments; it validates at once."""
    code, _, _ = run(capsys, "new", "my-1830", "--from", "1830")
    assert code == 0
    folder = project / "titles" / "my-1830"
    title = tomllib.loads((folder / "title.toml").read_text())
    assert sorted(title) == ["extends", "id", "name", "version"]
    assert (title["extends"], title["id"], title["version"]) == ("1830", "my-1830", "0.1.0")
    for name in ("trains.toml", "map.toml", "privates.toml"):
        lines = [x for x in (folder / name).read_text().splitlines() if x.strip()]
        assert lines and all(x.startswith("#") for x in lines), name
    code, out, _ = run(capsys, "validate", str(folder))
    assert code == 0


def test_removing_the_6_train_lists_every_place_that_names_it(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/variants.md, Overlays: `[remove] trains = ["6"]` breaks phase 6 (entered on its
    purchase), the 3-train (rusts on it), the D (takes it in trade) and the option
    `optional_6_train` (counts it); validate lists each."""
    assert run(capsys, "new", "my-1830", "--from", "1830")[0] == 0
    trains = project / "titles" / "my-1830" / "trains.toml"
    trains.write_text(trains.read_text() + '\n[remove]\ntrains = ["6"]\n')
    code, out, _ = run(capsys, "validate", "titles/my-1830")
    assert code == 1
    problems = [line.split(": ")[2] for line in out.splitlines() if "error[" in line]
    assert problems == [
        "trains[1].rusts_on",  # 1830's second train, the 3
        "trains[4].trade_in.trains[2]",  # the D
        "phases[4].on",  # phase 6
        "options[1].train_counts.6",  # optional_6_train
    ]
    assert (
        tomllib.loads((ROOT / "titles" / "1830" / "trains.toml").read_text())["trains"][1]["id"]
        == "3"
    )


def test_new_takes_sixteen_characters_of_the_allowed_kinds(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/variants.md, `eighteen new`: NAME is 1-16 letters, digits or `& + _ . -`."""
    code, _, _ = run(capsys, "new", "a&b+c_d.e-f12345", "--from", "1830")
    assert code == 0 and (project / "titles" / "a&b+c_d.e-f12345" / "title.toml").is_file()
    code, _, err = run(capsys, "new", "a/b", "--from", "1830")
    assert code == 1
    assert err == (
        "eighteen new: error: 'a/b' is not a usable title id: 1-16 letters, digits or "
        "& + _ . - (it is also the folder name)\n"
    )


def test_problems_of_an_overlay_point_into_its_files_as_documented(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/variants.md, Where problems are reported: the three example lines, written,
    merged from the base, and inherited from the base."""
    assert main(["new", "my-1830", "--from", "1830"]) == 0
    trains = project / "titles" / "my-1830" / "trains.toml"
    schema = "#:schema ../../schema/overlay/trains.schema.json\n"
    trains.write_text(schema + '[[trains]]\nid = "4"\nprice = "320"\n')
    capsys.readouterr()
    code, out, _ = run(capsys, "validate", "titles/my-1830")
    assert code == 1
    assert out.splitlines() == [
        'titles/my-1830/trains.toml:4:9: error[E010]: trains[2].price: expected an integer, got string "320" (remove the quotes)'
    ]
    trains.write_text(schema + '[[trains]]\nid = "4"\nprice = 320\n\n[remove]\ntrains = ["D"]\n')
    code, out, _ = run(capsys, "validate", "titles/my-1830")
    assert code == 1
    assert sorted(out.splitlines()) == [
        "titles/my-1830/title.toml:5:11: error[E130]: phases[5].on: unknown train 'D' (inherited from titles/1830/phases.toml:57:6)",
        "titles/my-1830/trains.toml:2:1: error[E122]: trains[2].rusts_on: unknown train 'D' (merged from titles/1830/trains.toml:26:12)",
    ]


def test_a_broken_base_is_reported_in_the_base_file(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/variants.md, Where problems are reported: a broken base (a syntax error in
    titles/1830/map.toml) is reported in the base's file."""
    assert main(["new", "my-1830", "--from", "1830"]) == 0
    base_map = project / "titles" / "1830" / "map.toml"
    lines = base_map.read_text().count("\n")
    base_map.write_text(base_map.read_text() + "layout = \n")
    capsys.readouterr()
    code, out, _ = run(capsys, "validate", "titles/my-1830")
    assert code == 1
    assert out.splitlines() == [
        f"titles/1830/map.toml:{lines + 1}:10: error[E001]: TOML syntax error: a value is missing after '='"
    ]


def test_an_overlay_gives_its_own_id(project: Path) -> None:
    """docs/variants.md, Overlays: the overlay's title.toml must still give its own `id`
    (the folder name); name and version are its own."""
    assert main(["new", "my-1830", "--from", "1830"]) == 0
    title = project / "titles" / "my-1830" / "title.toml"
    title.write_text(title.read_text().replace('id = "my-1830"\n', ""))
    _, problems = load_title(project / "titles" / "my-1830")
    assert [(p.code, p.message) for p in problems] == [
        (
            "E150",
            "title id '1830' differs from its folder name 'my-1830' (inherited from "
            "titles/1830/title.toml:5:6)",
        )
    ]


def _overlay(project: Path, files: dict[str, str]) -> dict[str, Any]:
    folder = project / "titles" / "var"
    folder.mkdir()
    head = 'extends = "1830"\nid = "var"\nname = "V"\nversion = "0.1.0"\n'
    files = {"title": head + files.pop("title", ""), **files}
    for kind, body in files.items():
        (folder / f"{kind}.toml").write_text(
            f"#:schema ../../schema/overlay/{kind}.schema.json\n{body}"
        )
    title, problems = load_title(folder)
    assert [p.format() for p in problems] == []
    assert title is not None
    from eighteen.title.compile import compile_title

    return compile_title(title)


def test_remove_a_rule_goes_back_to_the_default(project: Path) -> None:
    """docs/variants.md, Overlays: `[remove] rules = ["sold_out_rise"]` goes back to the
    default (true); the base here sets it to false."""
    title = project / "titles" / "1830" / "title.toml"
    title.write_text(title.read_text().replace("sold_out_rise = true", "sold_out_rise = false"))
    assert (
        _overlay(project, {"title": '\n[remove]\nrules = ["sold_out_rise"]\n'})["rules"][
            "sold_out_rise"
        ]
        is True
    )


def test_plain_arrays_are_replaced_whole(project: Path) -> None:
    """docs/variants.md, Overlays: a plain array (`designers`, `tokens`...) is replaced
    whole by the overlay's value."""
    compiled = _overlay(
        project,
        {
            "title": 'designers = ["Someone"]\n',
            "corporations": '[[corporations]]\nid = "PRR"\ntokens = [0, 40]\n',
        },
    )
    assert compiled["designers"] == ["Someone"]
    prr = next(c for c in compiled["corporations"] if c["id"] == "PRR")
    assert prr["tokens"] == [0, 40]
    assert [c["id"] for c in compiled["corporations"]][0] == "PRR"  # it keeps its place


def test_fmt_puts_extends_id_and_at_first_and_spaces_comments() -> None:
    """docs/variants.md, `eighteen fmt`: `extends`, `id`, `at` come first; an end-of-line
    comment stays on its line, two spaces after the value; quoted keys stay quoted, floats
    in their shortest form."""
    assert format_text('version = "0.1.0"\nid = "v"\nextends = "1830"\n', "title") == (
        'extends = "1830"\nid = "v"\nversion = "0.1.0"\n'
    )
    assert format_text('[[hexes]]\nterrain = "hill"\ncost = 40\nat = "B2"\n', "map") == (
        '[[hexes]]\nat = "B2"\nterrain = "hill"\ncost = 40\n'
    )
    assert format_text('id = "v"\nname = "n" # note\nversion = "1"     # two\n', "title") == (
        'id = "v"\nname = "n"  # note\nversion = "1"  # two\n'
    )
    assert format_text("id = \"v\"\n'name' = 'it'\nx = 1.50\n", "title") == (
        'id = "v"\n"name" = "it"\nx = 1.5\n'
    )


def test_fmt_without_a_path_formats_every_toml_under_titles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/variants.md, `eighteen fmt [--check] [PATH...]`: default every `.toml` under
    `titles/`; `--check` lists the files that would change and exits 1."""
    (tmp_path / "titles" / "a").mkdir(parents=True)
    (tmp_path / "other").mkdir()
    messy = "[[trains]]\nprice = 1\nid = '2'\n"
    (tmp_path / "titles" / "a" / "trains.toml").write_text(messy)
    (tmp_path / "other" / "x.toml").write_text("b = 'x'\n")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "fmt", "--check")
    assert (code, out) == (1, "would reformat titles/a/trains.toml\n")
    assert (tmp_path / "titles" / "a" / "trains.toml").read_text() == messy
    assert run(capsys, "fmt")[0] == 0
    assert (
        tmp_path / "titles" / "a" / "trains.toml"
    ).read_text() == '[[trains]]\nid = "2"\nprice = 1\n'
    assert (tmp_path / "other" / "x.toml").read_text() == "b = 'x'\n"


def test_fmt_leaves_the_hash_alone(project: Path) -> None:
    """docs/variants.md, Saves and title versions: the hash covers the parsed data, so a
    comment or `eighteen fmt` leaves it alone, while a changed value changes it."""
    from eighteen.title.compile import compile_title

    def hash_of() -> str:
        title, _ = load_title(project / "titles" / "1830")
        assert title is not None
        return str(compile_title(title)["hash"])

    before = hash_of()
    trains = project / "titles" / "1830" / "trains.toml"
    text = trains.read_text()
    trains.write_text(text.replace("price = 80", "price   =   8_0  # a comment", 1))
    assert hash_of() == before
    assert main(["fmt", str(trains)]) == 0
    assert "price = 80  # a comment" in trains.read_text()
    assert hash_of() == before
    trains.write_text(text.replace("price = 80", "price = 81", 1))
    assert hash_of() != before


def test_diff_fills_in_defaults_and_reads_title_folders(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/variants.md, `eighteen diff`: title folders are compiled in memory; defaults
    are filled in, so a variant changing `rules.float_percent` shows every corporation's
    `float_percent`; `--format json` prints {"a", "b", "same", "sections"}; exit 1 when
    either has errors."""
    _overlay(project, {"title": "[rules]\nfloat_percent = 50\n"})
    code, out, _ = run(capsys, "diff", "titles/1830", "titles/var", "--format", "json")
    data = json.loads(out)
    assert code == 0
    assert sorted(data) == ["a", "b", "same", "sections"] and data["same"] is False
    assert data["sections"]["rules"] == {"float_percent": [60, 50]}
    assert data["sections"]["corporations"]["changed"] == {
        c: {"float_percent": [60, 50]}
        for c in ["PRR", "NYC", "CPR", "B&O", "C&O", "ERIE", "NYNH", "B&M"]
    }
    (project / "titles" / "var" / "trains.toml").write_text('[[trains]]\nid = "4"\nprice = "x"\n')
    code, _, _ = run(capsys, "diff", "titles/1830", "titles/var")
    assert code == 1


@pytest.mark.parametrize("section", ["phases", "privates", "corporations", "options"])
def test_diff_shows_a_changed_order(section: str) -> None:
    """docs/variants.md, `eighteen diff`: a changed order of trains, phases, privates,
    corporations or options is shown."""
    base, problems = load_compiled("1830", ROOT)
    assert problems == [] and base is not None
    other = copy.deepcopy(base)
    other[section][0], other[section][1] = other[section][1], other[section][0]
    diff = diff_compiled(base, other)
    ids = [x["id"] for x in base[section]]
    swapped = [ids[1], ids[0], *ids[2:]]
    assert diff["sections"][section]["order"] == [ids, swapped]
    assert f"order: {' '.join(ids)} -> {' '.join(swapped)}" in format_diff(diff)


def test_the_refusal_reads_as_documented() -> None:
    """docs/variants.md, Saves and title versions: the example message."""

    class Tables:
        id = "1830"
        version = "1.1.0"
        hash = "sha256:0c4e1f7d2a90" + "0" * 52

    save = {"title": "1830", "version": "1.0.0", "hash": "sha256:9649361ae219" + "0" * 52}
    with pytest.raises(SaveTitleMismatch) as info:
        check_save_title(save, Tables())
    assert str(info.value).startswith(
        "save made with 1830 1.0.0 (sha256:9649361ae219), but the title is now 1830 1.1.0 "
        "(sha256:0c4e1f7d2a90): the title has a new version since the game was saved. "
    )


def test_the_migration_notes_name_the_current_versions_and_corpus() -> None:
    """docs/variants.md, Migrations so far: 1833NE moved to version 0.3.0 and 1830 to
    1.5.0 with the deals answered; the 87-game corpus (86 generated 1830 games and the real
    game 29133)."""
    assert eighteen.load_title("1833ne").version == "0.3.0"
    assert eighteen.load_title("1830").version == "1.5.0"
    fixtures = ROOT / "tests" / "fixtures" / "18xx-games"
    games = [*(fixtures / "1830-generated").glob("g*.json"), *(fixtures / "1830").glob("*.json")]
    assert len(games) == 87


# -- docs/title-format.md ------------------------------------------------------------------


def test_the_rules_block_of_title_format_validates() -> None:
    """docs/title-format.md, title.toml: the `[rules]` example is valid rules as printed
    (its `bankruptcy` is the table 1830 writes, not the bare `"game_ends"`: E010)."""
    text = (ROOT / "docs" / "title-format.md").read_text()
    block = text.split("\n[rules]", 1)[1].split("\n", 1)[1].split("```", 1)[0]
    rules = Rules.model_validate(tomllib.loads(block))
    assert rules.bankruptcy == GameEnds(kind="game_ends", sells_shares=False)


# -- docs/1830-notes.md --------------------------------------------------------------------


def test_1830_forced_auction_price_and_the_third_6_train() -> None:
    """docs/1830-notes.md, Decisions: `auction_forced_price = 0`; the option
    `optional_6_train` adds a third 6-train (its `train_counts`)."""
    tables = eighteen.load_title("1830")
    assert tables.rules(()).auction_forced_price == 0
    for options, sixes in (((), 2), (("optional_6_train",), 3)):
        game = Game.new(tables, players=["A", "B", "C"], options=list(options))
        assert sum(t.startswith("6-") for t in game.state.depot) == sixes


# -- docs/import-18xx.md -------------------------------------------------------------------

EXPORT_29133 = "tests/fixtures/18xx-games/1830/29133.json"


def test_import_routes_reports_every_run_and_the_money_left(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/import-18xx.md, Commands, `--routes`: after the values, one line per run, the
    logged revenue beside the best, and the money left on the table (none in 29133);
    with several files, the total under each file's line."""
    monkeypatch.chdir(ROOT)
    code, out, _ = run(capsys, "import-18xx", EXPORT_29133, "--routes")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith(f"{EXPORT_29133}: 1830, 4 players, 334 actions")
    start = lines.index("routes: logged vs optimal revenue per run")
    assert lines[start - 1] == "  end: ours bankruptcy, file bankrupt (bankruptcy)"
    assert lines[start + 1 : start + 3] == [
        "  action    96 B&O    $   50  best $   50",
        "  action   103 PRR    $   30  best $   30",
    ]
    assert lines[-2:] == [
        "  action   446 NYC    $  180  best $  180",
        "  24 runs; money left on the table: $0",
    ]
    many = run(capsys, "import-18xx", EXPORT_29133, EXPORT_29133, "--routes")[1]
    assert many.splitlines()[:2] == [
        f"ok   {EXPORT_29133}",
        "     routes: 24 runs; money left on the table: $0",
    ]


def test_import_skips_a_manifest_among_several_files(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/import-18xx.md, Commands: with several files, MANIFEST.json is skipped with a
    `skip` line on standard output and not counted; each file is named as given."""
    monkeypatch.chdir(ROOT)
    folder = "tests/fixtures/18xx-games/1830-generated"
    code, out, err = run(
        capsys, "import-18xx", f"{folder}/MANIFEST.json", f"{folder}/g2p_s2001.json"
    )
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        f"skip {folder}/MANIFEST.json: not an 18xx.games export (no actions, players, title)",
        f"ok   {folder}/g2p_s2001.json",
        "1/1 matched",
    ]


# -- docs/compiled-format.md ---------------------------------------------------------------


def test_fields_of_a_mechanic_the_title_lacks_are_written_empty() -> None:
    """docs/compiled-format.md: every model field is written; 1830 writes the fields of
    mechanics it lacks empty (`"stubs": []`, `"closes_on": null`, ...), not left out."""
    doc = json.loads((ROOT / "generated" / "1830.json").read_text())
    assert all(h["stubs"] == [] for h in doc["hexes"].values())
    assert all(t["stubs"] == [] for t in doc["tiles"].values())
    offboards = [h["offboard"] for h in doc["hexes"].values() if h["offboard"]]
    assert offboards and all(o["requires_visit"] == [] for o in offboards)
    assert all((p["closes_on"], p["flips_on"]) == (None, None) for p in doc["privates"])
    assert all(
        (c["reservations"], c["station_costs"], c["joint_token"], c["variable_home"])
        == ([], {}, None, None)
        for c in doc["corporations"]
    )
    assert (doc["rules"]["issue_redeem"], doc["rules"]["takeovers"]) == (None, None)
