"""`eighteen simulate` from the command line: both files written, and every bad input
refused with one line before any game is played."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eighteen import Game, load_title
from eighteen.cli import main
from eighteen.engine.bots import make_bots, play
from eighteen.sim import runner
from eighteen.sim.runner import player_names


def test_simulate_vs_writes_summary_and_report(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    argv = ["simulate", "1830", "--vs", "1830-example", "--games", "2", "--out", str(out)]
    assert main([*argv, "--format", "json", "--bots", "greedy,3*random"]) == 0
    stdout, err = capsys.readouterr()
    printed = json.loads(stdout)
    assert err == f"wrote summary.json and report.html to {out}\n"
    summary = json.loads((out / "summary.json").read_text())
    assert printed == summary
    assert summary["titles"] == ["1830", "1830-example"]
    assert summary["bots"] == ["greedy", "random", "random", "random"]
    for tid in summary["titles"]:
        s = summary["results"][tid]
        assert s["games"] == 2 and len(s["seats"]) == 4
        assert {
            "privates",
            "corporations",
            "length",
            "end_reasons",
            "bankruptcies",
            "phases",
        } <= set(s)
        assert list(s["corporations"]) == ["PRR", "NYC", "CPR", "B&O", "C&O", "ERIE", "NYNH", "B&M"]
    metrics = [d["metric"] for d in summary["comparison"]["differences"]]
    assert metrics[:2] == ["seat 1 win rate", "seat 1 final value"]
    html = (out / "report.html").read_text()
    assert html.count('<figure class="plot"') == 5 and "1830-example minus 1830" in html


def test_text_output_names_the_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv = ["simulate", "1830", "--games", "1", "--bots", "greedy,3*random"]
    assert main([*argv, "--out", str(tmp_path), "--no-report"]) == 0
    text, err = capsys.readouterr()
    assert "1830: 1/1 games finished" in text
    assert "\n  seat 4 (random): wins " in text
    assert "\n  greedy (1 seat-games): wins " in text
    assert "\n  random (3 seat-games): wins " in text
    assert err == f"wrote summary.json to {tmp_path}\n"  # progress and "wrote" on stderr
    assert not (tmp_path / "report.html").exists()


@pytest.mark.usefixtures("no_games")
@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["--bots", "greedy,clever"], 2, "--bots: unknown bot kind 'clever' in 'clever'"),
        (["--bots", "greedy,random"], 2, "--bots names 2 bots for 4 players\n"),
        (["--bots", " "], 2, "--bots is empty\n"),
        (["--games", "0"], 2, "--games must be at least 1, not 0"),
        (["--workers", "0"], 2, "--workers must be at least 1, not 0"),
        (["--games", "9" * 20], 2, "--games must be at most 1,000,000, not 99,999,"),
        (["--players", "9" * 20], 2, "--players must be at most 100, not 99,999,"),
        (["--bots", "9" * 20 + "*random"], 2, "--bots: bot count must be between 1 and 100"),
        (
            ["--vs", "1830"],
            2,
            "--vs names the same title as TITLE (1830); to measure an option, give it with "
            "--vs-option\n",
        ),
        (["--seed", "-5"], 2, "--seed must be at least 0, not -5"),
        (
            ["--seed", str(2**63 - 1), "--games", "2"],
            2,
            "--seed must be at most 9,223,372,036,854,775,806, not 9,223,372,036,854,775,807",
        ),
        (["--players", "9"], 1, "1830 is for 2-6 players, not 9\n"),
        (
            ["--ray-cpus", "2"],
            2,
            "--ray-cpus needs --ray local or --ray auto (it sizes a Ray instance started here)\n",
        ),
        (
            ["--ray", "ray://head:10001", "--ray-cpus", "2"],
            2,
            "--ray-cpus needs --ray local or "
            "--ray auto (it sizes a Ray instance started here; --ray ray://head:10001 joins one)\n",
        ),
        (
            ["--option", "nope"],
            1,
            "1830: unknown option 'nope' (its options: multiple_brown_from_ipo, "
            "optional_6_train, bankrupt_sells_shares, brown_pool_only_18xx_games, "
            "new_trains_18xx_games, emergency_18xx_games, private_trades_18xx_games, "
            "deals_18xx_games, offboard_groups_18xx_games, auction_18xx_games)\n",
        ),
        (["--vs-option", "nope"], 1, "1830: unknown option 'nope' (its options: "),
        (
            ["--option", "auction_18xx_games", "--vs-option", "auction_18xx_games"],
            2,
            "--vs-option auction_18xx_games is given to both sides already by --option\n",
        ),
        (["--vs", "1899"], 1, "no compiled tables for '1899'"),
    ],
)
def test_bad_arguments(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], code: int, message: str
) -> None:
    assert main(["simulate", "1830", "--out", str(tmp_path), *argv]) == code
    err = capsys.readouterr().err
    assert err.startswith(f"eighteen simulate: error: {message}"), err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.usefixtures("no_games")
def test_unknown_title(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["simulate", "1899", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        "eighteen simulate: error: no compiled tables for '1899' (known titles: 1830, 1830-example,"
    )
    assert err.count("\n") == 1


@pytest.mark.usefixtures("no_games")
def test_unwritable_out(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["simulate", "1830", "--out", str(blocker / "out")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"eighteen simulate: error: cannot write to --out {blocker / 'out'}: ")
    assert err.count("\n") == 1


def test_workers_and_ray_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "1830", "--workers", "2", "--ray", "auto"]) == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_help_shows_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for shown in (
        "games per title (default: 100)",
        "players per game (default: 4)",
        "(default: greedy)",
        "(default: 1)",
        "(default: simulation)",
        "(default: text)",
        "(default: 20000)",
    ):
        assert shown in text, shown


def test_a_simulation_no_game_of_which_finishes_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, recwarn: pytest.WarningsRecorder
) -> None:
    """No game finished: a warning on stderr and the text says so, exit 0 (the files are
    written, docs/simulate.md). The report's game-length chart is an empty chart saying so
    (matplotlib warned on stderr of a legend with nothing in it)."""
    out = tmp_path / "s"
    argv = ["simulate", "1830", "--vs", "1830-example", "--max-actions", "10", "--games", "2"]
    assert main([*argv, "--quiet", "--out", str(out)]) == 0
    text, err = capsys.readouterr()
    assert err == (
        "eighteen simulate: warning: no game of 1830 finished (2 of 2 cut off at --max-actions "
        "10 or stuck): its statistics are empty\n"
        "eighteen simulate: warning: no game of 1830-example finished (2 of 2 cut off at "
        "--max-actions 10 or stuck): its statistics are empty\n"
        f"wrote summary.json and report.html to {out}\n"
    )
    assert text == (
        "1830: 0/2 games finished\n"
        "  no game finished: nothing to measure but how the games ended\n"
        "  ends: unfinished 100.0%\n"
        "  unfinished: seed 1, 2\n"
        "1830-example: 0/2 games finished\n"
        "  no game finished: nothing to measure but how the games ended\n"
        "  ends: unfinished 100.0%\n"
        "  unfinished: seed 1, 2\n"
        "1830-example - 1830: no seed finished in both titles, nothing to compare\n"
    )
    assert [str(w.message) for w in recwarn] == []
    html = (out / "report.html").read_text()
    assert html.count("no game finished") == 1  # the length chart's
    assert html.count("No game finished") == 2
    assert "No seed finished in both titles" in html


#: A quick run: one game cut off after 30 actions.
QUICK = ["simulate", "1830", "--games", "1", "--max-actions", "30", "--quiet"]


@pytest.mark.usefixtures("no_games")
def test_an_empty_out_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*QUICK, "--out", ""]) == 2
    assert capsys.readouterr().err == (
        "eighteen simulate: error: --out is empty: name a folder (--out . for this one)\n"
    )


def test_a_repeated_option_counts_once(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv = [*QUICK, "--option", "optional_6_train", "--option", "optional_6_train"]
    assert main([*argv, "--out", str(tmp_path), "--no-report", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["options"] == ["optional_6_train"]
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["options"] == ["optional_6_train"]


def test_rotate_warns_when_the_seats_cannot_be_even(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["simulate", "1830", "--games", "6", "--max-actions", "5", "--quiet", "--rotate"]
    assert main([*argv, "--bots", "greedy,3*random", "--out", str(tmp_path), "--no-report"]) == 0
    err = capsys.readouterr().err
    assert err.startswith(
        "eighteen simulate: warning: --rotate: 6 games is not a multiple of 4 players, so the "
        "bots do not sit in each seat equally often (1 or 2 times each; a multiple of 4 games "
        "evens them)\n"
    )
    # four games of four players, or one bot everywhere: no warning
    for more in (["--games", "4", "--bots", "greedy,3*random"], ["--games", "6"]):
        assert main([*argv, *more, "--out", str(tmp_path), "--no-report"]) == 0
        assert "warning: --rotate" not in capsys.readouterr().err


def test_vs_option_plays_the_title_again_with_the_option(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """docs/simulate.md: `--vs-option OPTION` without --vs compares TITLE with TITLE played
    with OPTION too (both sides with --option), on the same seeds; the second side is named
    by its title and its options."""
    argv = ["simulate", "1830", "--vs-option", "auction_18xx_games", "--games", "2"]
    argv += ["--players", "3", "--option", "bankrupt_sells_shares", "--quiet", "--no-report"]
    assert main([*argv, "--out", str(tmp_path), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    side = "1830+auction_18xx_games"
    assert doc["titles"] == ["1830", side]
    assert doc["options"] == ["bankrupt_sells_shares"]
    assert doc["results"]["1830"]["options"] == ["bankrupt_sells_shares"]
    assert doc["results"][side]["options"] == ["bankrupt_sells_shares", "auction_18xx_games"]
    assert doc["results"][side]["title"] == "1830"
    assert (doc["comparison"]["a"], doc["comparison"]["b"]) == ("1830", side)
    names = player_names(3)
    for opts, result in (
        (["bankrupt_sells_shares"], "1830"),
        (["bankrupt_sells_shares", "auction_18xx_games"], side),
    ):  # each side's games are those `play` plays with its options, seeds 1 and 2
        lengths = []
        for seed in (1, 2):
            g = Game.new(load_title("1830"), names, seed=seed, options=opts)
            lengths.append(sum(1 for _ in play(g, make_bots("greedy", names, seed))))
        spread = doc["results"][result]["length"]["actions"]
        assert sorted(lengths) == [spread["min"], spread["max"]]


def test_a_ray_address_nothing_answers_at_is_refused_at_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """An address where nothing listens is an error naming it, exit 1 (Ray itself kept
    retrying it for minutes); a port no process holds refuses at once."""
    for address in ("127.0.0.1:1", "ray://127.0.0.1:1"):
        argv = ["simulate", "1830", "--games", "1", "--ray", address, "--quiet"]
        assert main([*argv, "--out", str(tmp_path)]) == 1
        assert capsys.readouterr().err == (
            f"eighteen simulate: error: cannot reach Ray at '{address}': Connection refused\n"
        )
    assert list(tmp_path.iterdir()) == []


def test_more_workers_than_cpus_is_warned_of(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1})  # (the CPUs it may use)
    argv = ["simulate", "1830", "--games", "1", "--players", "2", "--quiet", "--no-report"]
    assert main([*argv, "--workers", "3", "--out", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert err.splitlines()[0] == (
        "eighteen simulate: warning: --workers 3 is more than this machine's 2 CPUs: the "
        "games take no less time than with --workers 2"
    )
    assert main([*argv, "--workers", "2", "--out", str(tmp_path)]) == 0
    assert "warning" not in capsys.readouterr().err


def test_a_ray_address_that_stays_silent_times_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """A host that drops the packets: the check gives up after CONNECT_TIMEOUT seconds and
    says it timed out."""
    asked: list[tuple[tuple[str, int], float]] = []

    def silent(address: tuple[str, int], timeout: float) -> None:
        asked.append((address, timeout))
        raise TimeoutError("timed out")

    monkeypatch.setattr("socket.create_connection", silent)
    with pytest.raises(runner.RayUnavailable) as exc:
        runner.ray_init("ray://10.255.255.1:10001")
    assert str(exc.value) == "cannot reach Ray at 'ray://10.255.255.1:10001': timed out"
    assert asked == [(("10.255.255.1", 10001), 10.0)]
