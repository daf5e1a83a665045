"""CLI conventions (docs/cli.md): help and defaults, --version, exit codes, one-line errors
and no traceback for any bad value, JSON reports, safe saves, a progress line that never
garbles the log, colour only where it belongs."""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from eighteen import __version__
from eighteen.cli import build_parser, main
from eighteen.commands import output
from eighteen.commands.play import cmd_play

ROOT = Path(__file__).resolve().parent.parent


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_version_and_python_dash_m(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert (code, out) == (0, f"eighteen {__version__}\n")
    done = subprocess.run(
        [sys.executable, "-m", "eighteen", "--version"], capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout) == (0, f"eighteen {__version__}\n")


def test_every_option_has_help_and_shows_its_default() -> None:
    commands = subcommands()
    assert sorted(commands) == sorted(
        [
            "validate", "compile", "schema", "titles", "play", "replay", "new", "fmt",
            "diff", "routes", "render", "import-18xx", "export-18xx", "simulate", "native",
        ]
    )  # fmt: skip
    for name, sub in commands.items():
        text = sub.format_help()
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help, f"{name} {action.dest}: no help text"
            meaningful = action.default not in (None, False, [], argparse.SUPPRESS)
            if action.option_strings and meaningful:
                assert f"(default: {action.default})" in " ".join(text.split()), (name, action)
    play_help = " ".join(commands["play"].format_help().split())
    assert "how many players, or their names: Ann,Bob,Cy (default: 4)" in play_help
    assert "random seed, 0 to 2**63 - 1 (same seed, same game) (default: 1)" in play_help


def test_save_reading_commands_take_at_and_reporting_commands_take_format() -> None:
    commands = subcommands()
    flags = {n: {o for a in p._actions for o in a.option_strings} for n, p in commands.items()}
    assert sorted(n for n in flags if "--at" in flags[n]) == [
        "export-18xx",
        "import-18xx",
        "render",
        "replay",
        "routes",
    ]
    reporting = sorted(n for n in flags if "--format" in flags[n])
    assert reporting == sorted(
        ["validate", "compile", "schema", "titles", "play", "replay", "new", "fmt", "diff",
         "routes", "render", "simulate", "import-18xx", "native"]
    )  # fmt: skip


# Each bad invocation: argv ({tmp} is a fresh folder, {file} an existing file, {save} a
# finished game), the exit code, and a fragment of the one error line.
BAD = [
    (["frobnicate"], 2, "invalid choice: 'frobnicate'"),
    (["validate", "--format", "yaml"], 2, "invalid choice: 'yaml'"),
    (["validate", "--nope"], 2, "unrecognized arguments: --nope"),
    (["compile", "--out", "{file}"], 1, "exists and is not a folder"),
    (["schema", "--out", "{file}"], 1, "exists and is not a folder"),
    (["schema", "--check", "--out", "{file}"], 1, "exists and is not a folder"),
    (["titles", "--format", "xml"], 2, "invalid choice: 'xml'"),
    (["play"], 2, "the following arguments are required: title"),
    (["play", "nonsuch"], 1, "no compiled tables for 'nonsuch' (known titles: 1830,"),
    (["play", "1830", "--players", "9"], 1, "1830 is for 2-6 players, not 9"),
    (["play", "1830", "--players", "Ann"], 2, "expected a number of players or two or more"),
    (["play", "1830", "--players", "Ann,Ann"], 2, "player names must differ"),
    (["play", "1830", "--players", "9" * 20], 2, "expected at most 100 players, got 99999"),
    (["play", "1830", "--seed", "-1"], 2, "expected a number of at least 0, got -1"),
    (["play", "1830", "--seed", "x"], 2, "expected a whole number, got 'x'"),
    (
        ["play", "1830", "--seed", str(2**63)],
        2,
        "expected a seed from 0 to 9,223,372,036,854,775,807, got 9,223,372,036,854,775,808",
    ),
    (
        ["play", "1830", "--bots", "smart"],
        2,
        "unknown bot kind 'smart' in 'smart'; choose from greedy, random",
    ),
    (["play", "1830", "--option", "nope"], 1, "1830 has no option 'nope'; its options: "),
    (["play", "1830", "--save", "/nonexistent/dir/x.json"], 1, "no such folder /nonexistent/dir"),
    (["play", "1830", "--save", "{tmp}"], 1, "is a folder, not a file"),
    (["play", "1830", "--save", ""], 1, "cannot write the save: an empty path names no file"),
    (["play", "1830", "--save", "{tmp}/link"], 1, "a link into /nonexistent/dir, which is no"),
    (["replay", "{tmp}/missing.json"], 1, "cannot read"),
    (["replay", "{file}"], 1, "not JSON"),
    (["replay", "{save}", "--at", "-2"], 2, "expected a number of at least 0, got -2"),
    (["replay", "{save}", "--at", "99999"], 1, "--at 99999 is past the end"),
    (["routes", "{save}", "--corporation", "NOPE"], 1, "unknown corporation 'NOPE'"),
    (["routes", "{save}", "--at", "ten"], 2, "expected a whole number, got 'ten'"),
    (["render", "1830", "--out", "{file}"], 1, "exists and is not a folder"),
    (["render", "1830", "--out", "{file}/sub"], 1, "is not a folder"),
    (["render", "nonsuch", "--out", "{tmp}/o"], 1, "no title or save named 'nonsuch'"),
    (["render", "1830", "--out", "{tmp}/o", "--at", "3"], 2, "--at needs a save"),
    (["render", "{save}", "--out", "{tmp}/o", "--at", "99999"], 1, "--at 99999 is outside"),
    (["new", "bad name", "--from", "1830"], 1, "'bad name' is not a usable title id"),
    (["new", "fresh", "--from", "nope"], 1, "no title 'nope' (known titles: 1830,"),
    (["new", "fresh"], 2, "the following arguments are required: --from"),
    (["diff", "1830", "nonsuch"], 1, "diff: cannot compare titles with errors"),
    (["export-18xx", "{tmp}/missing.json"], 1, "cannot read"),
    (["export-18xx", "{save}", "--out", "/nonexistent/dir/x.json"], 1, "cannot write"),
    (["import-18xx", "{tmp}/missing.json"], 1, "missing.json"),
    (["import-18xx", "{save}", "{save}", "--save", "{tmp}/x.json"], 2, "error: --save takes one"),
    (["import-18xx", "{save}", "--save", ""], 1, "an empty path names no file"),
]


@pytest.mark.parametrize(("argv", "code", "message"), BAD, ids=[" ".join(b[0]) for b in BAD])
def test_bad_values_give_one_error_line_and_the_right_code(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    save: Path,
    argv: list[str],
    code: int,
    message: str,
) -> None:
    existing = tmp_path / "file.txt"
    existing.write_text("not json\n")
    (tmp_path / "link").symlink_to("/nonexistent/dir/x.json")  # (a link going nowhere)
    args = [a.format(tmp=tmp_path, file=existing, save=save) for a in argv]
    got, out, err = run(capsys, *args)
    assert got == code, err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert message in lines[0]
    assert "Traceback" not in out + err and "internal error" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt", "link"]  # nothing new


def test_validate_with_nothing_to_validate_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "validate")
    assert (code, out) == (2, "")
    assert err.startswith("eighteen validate: error: no titles to work on")


def test_json_reports(capsys: pytest.CaptureFixture[str], tmp_path: Path, save: Path) -> None:
    def report(*argv: str) -> dict[str, Any]:
        code, out, _ = run(capsys, *argv, "--format", "json")
        assert code == 0, argv
        data: dict[str, Any] = json.loads(out)
        return data

    game = report("replay", str(save), "--at", "10")
    assert (game["title"], game["actions"], game["over"]) == ("1830", 10, False)
    assert [r["place"] for r in game["ranking"]] == [1, 2, 3]
    assert report("replay", str(save))["over"] is True
    assert report("validate", "1830") == {"problems": [], "errors": 0, "warnings": 0}
    assert report("compile", "--check") == {
        "written": [], "stale": [], "problems": [], "errors": 0, "warnings": 0
    }  # fmt: skip
    assert report("schema", "--check") == {"written": [], "stale": []}
    listing = {t["id"]: t for t in report("titles")["titles"]}
    assert listing["1830"]["source"] == str(ROOT / "titles" / "1830")
    assert listing["1830"]["compiled"] == str(ROOT / "generated" / "1830.json")
    assert listing["1830-example"]["extends"] == "1830"
    routes = report("routes", str(save), "--at", "400", "--corporation", "PRR")
    assert routes["corporation"] == "PRR" and isinstance(routes["total"], int)
    page = report("render", str(save), "--out", str(tmp_path / "r"), "--at", "50")
    assert page == {"page": str(tmp_path / "r" / "index.html")}
    fmt = report("fmt", "--check", str(ROOT / "titles" / "1830"))
    assert fmt == {"files": 8, "changed": [], "check": True, "errors": []}
    diff = report("diff", "1830", "1830")
    assert isinstance(diff, dict)


def test_new_reports_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "titles").mkdir()
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "new", "fresh", "--from", "1830", "--format", "json")
    doc = json.loads(out)
    assert (code, doc["created"], doc["base"], doc["errors"]) == (0, "titles/fresh", "1830", 0)
    assert doc["files"] == [
        f"titles/fresh/{n}.toml" for n in ("title", "trains", "map", "privates")
    ]


def test_play_json_and_player_names(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "g.json"
    code, out, err = run(
        capsys, "play", "1830", "--players", "Ann,Bob,Cy", "--seed", "2", "--save", str(target),
        "--format", "json",
    )  # fmt: skip
    doc = json.loads(out)
    assert (code, err) == (0, "")
    assert doc["players"] == ["Ann", "Bob", "Cy"] and doc["save"] == str(target)
    assert sorted(r["player"] for r in doc["ranking"]) == ["Ann", "Bob", "Cy"]
    assert json.loads(target.read_text())["players"] == ["Ann", "Bob", "Cy"]


def test_play_mixes_bots_as_simulate_does(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "play", "1830", "--players", "3", "--seed", "2", "--bots", "greedy:bold,2*random",
        "--format", "json",
    )  # fmt: skip
    doc = json.loads(out)
    assert (code, doc["over"]) == (0, True)
    assert doc["ranking"][0]["player"] == "Player1"  # the greedy bot beats the two random ones
    code, out, err = run(capsys, "play", "1830", "--players", "3", "--bots", "greedy,random")
    assert (code, out) == (2, "")
    assert err == "eighteen play: error: --bots names 2 bots for 3 players\n"


def test_saves_have_normal_permissions_and_leave_no_temp_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = os.umask(0o022)
    try:
        new = output.write_atomic(tmp_path / "a.json", "{}\n")
        assert stat.S_IMODE(new.stat().st_mode) == 0o644
        os.umask(0o077)
        assert (
            stat.S_IMODE(output.write_atomic(tmp_path / "b.json", "{}\n").stat().st_mode) == 0o600
        )
        os.chmod(new, 0o640)
        output.write_atomic(new, "[]\n")
        assert stat.S_IMODE(new.stat().st_mode) == 0o640 and new.read_text() == "[]\n"
    finally:
        os.umask(old)

    def broken(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)  # (output's os)
    with pytest.raises(OSError, match="No space left"):
        output.write_atomic(new, "lost\n")
    assert new.read_text() == "[]\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.json"]


def screen(raw: str) -> list[str]:
    """The lines a terminal shows after ``raw``: text, \\r, \\n, erase-line, cursor-up and
    colour codes (any other control fails the test)."""
    lines, row, col = [""], 0, 0
    for token in re.findall(r"\x1b\[[0-9;?]*[A-Za-z]|\r|\n|[^\x1b\r\n]+", raw):
        if token == "\n":
            row += 1
            col = 0
            if row == len(lines):
                lines.append("")
        elif token == "\r":
            col = 0
        elif token == "\x1b[2K":
            lines[row] = ""
        elif re.fullmatch(r"\x1b\[\d*A", token):
            row = max(0, row - int(token[2:-1] or 1))
        elif token.startswith("\x1b["):
            assert token[-1] in "mlh", f"unexpected control {token!r}"
        else:
            line = lines[row].ljust(col)
            lines[row] = line[:col] + token + line[col + len(token) :]
            col += len(token)
    return [line for line in lines if line]


def test_progress_line_never_garbles_the_log(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(
        title="1830", players=3, seed=2, bots="greedy", options=[], save=None, quiet=False,
        format="text",
    )  # fmt: skip
    assert cmd_play(args) == 0
    plain = capsys.readouterr().out
    log = plain[: plain.index("result (")].splitlines()
    terminal = io.StringIO()
    assert cmd_play(args, Console(file=terminal, force_terminal=True, width=100)) == 0
    assert capsys.readouterr().out == plain[plain.index("result (") :]
    raw = terminal.getvalue()
    assert " actions · stock round" in raw  # the progress line was drawn
    assert screen(raw) == log  # and erased: the terminal shows the log, line for line
    assert log[0] == "1830: Railways & Robber Barons: 3 greedy bots, seed 2"


def test_colour_only_on_a_terminal_and_never_with_no_color(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    output.fail("play", "boom")
    assert capsys.readouterr().err == "eighteen play: error: boom\n"
    monkeypatch.setenv("FORCE_COLOR", "1")
    output.fail("play", "boom")
    assert "\x1b[1;31merror\x1b[0m" in capsys.readouterr().err
    monkeypatch.setenv("NO_COLOR", "1")
    output.fail("play", "boom")
    assert "31m" not in capsys.readouterr().err


def test_a_game_no_corporation_can_be_started_in_is_over(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "play", "1833ne", "--bots", "random", "--seed", "0", "--quiet")
    assert (code, err) == (0, "")
    assert out.splitlines()[1:4] == [
        "result (no corporation can be started any more):",
        "place  player   value  cash",
        "   1.  Player1    $67   $67",
    ]


def test_a_stuck_game_is_reported_and_saved(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A title with no end for a game no one can act in (1833NE without
    rules.no_corporation_left_ends_game; rules.stall_ends_game false): play says so, prints
    where the game stands and saves it; replay shows the same."""
    for name in ("common", "1833ne"):
        shutil.copytree(ROOT / "titles" / name, tmp_path / "titles" / name)
    title = tmp_path / "titles" / "1833ne" / "title.toml"
    rule = "no_corporation_left_ends_game = true"
    assert rule in title.read_text()
    title.write_text(title.read_text().replace(rule, "no_corporation_left_ends_game = false"))
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "compile", "1833ne")[0] == 0
    save = tmp_path / "stuck.json"
    code, out, err = run(
        capsys, "play", "1833ne", "--bots", "random", "--seed", "0", "--quiet", "--save", str(save)
    )
    assert code == 0
    assert out.splitlines()[1:3] == [
        "result (stuck: no one can act any more):",
        "place  player   value  cash",
    ]
    assert "eighteen play: warning: the game is stuck" in err
    code, out2, _ = run(capsys, "replay", str(save))
    assert (code, out2) == (0, "\n".join(out.splitlines()[1:]) + "\n")
    code, out, _ = run(capsys, "replay", str(save), "--format", "json")
    doc = json.loads(out)
    assert (code, doc["over"], doc["stuck"], doc["end_reason"]) == (0, False, True, None)


def test_play_warns_when_the_compiled_tables_are_older_than_the_title(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An author who edits a title and forgets `eighteen compile` is told, not left to
    play the old tables unawares."""
    for name in ("common", "1830"):
        shutil.copytree(ROOT / "titles" / name, tmp_path / "titles" / name)
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "compile", "1830")[0] == 0
    code, _, err = run(capsys, "play", "1830", "--players", "3", "--quiet")
    assert (code, "warning" in err) == (0, False)
    title = tmp_path / "titles" / "1830" / "title.toml"
    title.write_text(title.read_text().replace("bank = 12000", "bank = 13000", 1))
    code, _, err = run(capsys, "play", "1830", "--players", "3", "--quiet")
    assert code == 0
    assert err.startswith("eighteen play: warning: the compiled tables of 1830 (sha256:")
    assert "are older than titles/1830 (sha256:" in err
    assert "run `eighteen compile 1830` to play the title as it is now" in err
