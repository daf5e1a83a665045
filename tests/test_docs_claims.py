"""Claims of docs/cli.md and docs/engine.md that no other test asserts with exact values.

Each test names the section of the document it checks.  A failing test here is a claim the
code does not keep (see the audit report); the test stays as the claim is written.
"""

from __future__ import annotations

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
from test_cli import run

import eighteen
from eighteen import native
from eighteen.cli import build_parser, main
from eighteen.engine import actions as actions_module
from eighteen.engine import bots, views
from eighteen.engine.actions import Bid, IllegalAction, LayTile
from eighteen.title.diff import short_hash

ROOT = Path(__file__).resolve().parent.parent
EXPORT = ROOT / "tests" / "fixtures" / "18xx-games" / "1830" / "29133.json"
OPTIONS_1830 = (
    "multiple_brown_from_ipo (In a brown market cell, several shares may also be bought from "
    "the IPO in one turn, even after an IPO purchase (the rules' reading, and the default)); "
    "optional_6_train (A third 6-train is added to the train roster); "
    "bankrupt_sells_shares (A bankrupt president's shares are sold to the market, as far as "
    "the selling rules allow and none giving away the bankrupt corporation's presidency, "
    "before the game ends); "
    "brown_pool_only_18xx_games (In a brown market cell, the purchases after a turn's first (a "
    "share or a private) come from the bank pool only, and none follows an IPO share "
    "(18xx.games' reading without its optional rule multiple_brown_from_ipo)); "
    "new_trains_18xx_games (A corporation may buy any number of trains of a type that came on "
    "sale during its turn (18xx.games' reading)); "
    "emergency_18xx_games (A president raising money for a forced train purchase may sell "
    "shares only, not his privates (18xx.games' reading)); "
    "private_trades_18xx_games (Players trade privates as 18xx.games lets them: a private is "
    "bought in its buyer's stock-round turn only, and C&A and B&O, whose first buyer received "
    "a share with them, are not traded); "
    "deals_18xx_games (A deal between players is the acting player's action alone, the other "
    "player is not asked (18xx.games' reading)); "
    "offboard_groups_18xx_games (The two Canadian West hexes (A9, A11) are one area: a route "
    "reaches at most one of them (18xx.games' reading)); "
    "auction_18xx_games (The private auction as 18xx.games plays it: several bidders on one "
    "private settle it with the lowest bidder acting (raise over the best bid, or pass and "
    "withdraw), and the priority deal goes to the player whose normal turn comes next)"
)


def truncated(save: Path, n: int, target: Path) -> Path:
    """A save holding only the first ``n`` actions of ``save``."""
    data = json.loads(save.read_text())
    target.write_text(json.dumps({**data, "actions": data["actions"][:n]}))
    return target


# -- docs/cli.md, Conventions: exit codes --------------------------------------------------


@pytest.mark.parametrize("command", ["replay", "routes", "render", "export-18xx", "import-18xx"])
def test_at_minus_one_is_a_usage_error_on_every_command_reading_a_save(
    capsys: pytest.CaptureFixture[str], save: Path, command: str
) -> None:
    """docs/cli.md, Conventions, Exit codes: `2` usage: a value of the wrong kind
    (`--at -1`)."""
    code, out, err = run(capsys, command, str(save), "--at", "-1")
    assert (code, out) == (2, "")
    assert err == (
        f"eighteen {command}: error: argument --at: expected a number of at least 0, got -1 "
        f"(see `eighteen {command} --help`)\n"
    )


def test_compiling_a_title_with_errors_exits_1_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/cli.md, Conventions, Exit codes: `1` bad input: a title with errors; Writing:
    nothing already there is damaged."""
    titles = tmp_path / "titles"
    for name in ("common", "1830"):
        shutil.copytree(ROOT / "titles" / name, titles / name)
    trains = titles / "1830" / "trains.toml"
    trains.write_text(trains.read_text().replace("price = 180", "price = -180", 1))
    line = next(i for i, x in enumerate(trains.read_text().splitlines(), 1) if "-180" in x)
    out_dir = tmp_path / "gen"
    out_dir.mkdir()
    (out_dir / "1830.json").write_text("old\n")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "compile", "titles/1830", "--out", str(out_dir))
    assert code == 1
    assert out == (
        f"titles/1830/trains.toml:{line}:9: error[E013]: trains[1].price: -180 is below the "
        "minimum 0\n"
    )
    assert err == "compile failed: 1 error(s), 0 warning(s)\n"
    assert sorted(p.name for p in out_dir.iterdir()) == ["1830.json"]
    assert (out_dir / "1830.json").read_text() == "old\n"


# -- docs/cli.md, Conventions: errors ------------------------------------------------------


def test_a_bug_says_internal_error_and_eighteen_debug_shows_the_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/cli.md, Conventions, Errors: never a traceback (a bug says `internal error` and
    `EIGHTEEN_DEBUG=1` shows the traceback)."""
    from eighteen.commands import titles

    def broken(fmt: str) -> int:
        raise RuntimeError("boom")

    monkeypatch.setattr(titles, "cmd_titles", broken)
    monkeypatch.delenv("EIGHTEEN_DEBUG", raising=False)
    code, out, err = run(capsys, "titles")
    assert (code, out) == (1, "")
    assert err == (
        "eighteen titles: error: internal error (RuntimeError: boom); please report it "
        "(EIGHTEEN_DEBUG=1 shows the traceback)\n"
    )
    monkeypatch.setenv("EIGHTEEN_DEBUG", "1")
    with pytest.raises(RuntimeError, match="^boom$"):
        main(["titles"])


# -- docs/cli.md, Conventions: reports -----------------------------------------------------


def test_wrote_lines_go_to_stderr_and_json_alone_to_stdout(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """docs/cli.md, Conventions, Reports: the JSON goes to standard output; progress and
    "wrote ..." lines go to standard error."""
    text_dir, json_dir = tmp_path / "text", tmp_path / "json"
    code, out, err = run(capsys, "compile", "1830", "--out", str(text_dir))
    assert (code, out) == (0, "")
    assert err == f"wrote {text_dir / '1830.json'}\nwrote {text_dir / '1830.md'}\n"
    code, out, err = run(capsys, "compile", "1830", "--out", str(json_dir), "--format", "json")
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "written": [str(json_dir / "1830.json"), str(json_dir / "1830.md")],
        "stale": [],
        "problems": [],
        "errors": 0,
        "warnings": 0,
    }
    target = tmp_path / "g.json"
    code, out, err = run(
        capsys, "play", "1830", "--players", "2", "--seed", "3", "--quiet", "--save", str(target)
    )
    actions = len(json.loads(target.read_text())["actions"])
    assert code == 0 and "saved" not in out
    assert err == f"saved {actions} actions to {target}\n"


# -- docs/cli.md, Conventions: saves -------------------------------------------------------

BAD_SAVES: list[tuple[str, dict[str, Any], str]] = [
    ("format", {"format": 2}, "save format 2 is not one this version reads (format 1)"),
    ("actions", {"actions": {}}, "not a valid save: actions: should be a valid list"),
    ("seed", {"seed": 1.5}, "not a valid save: seed: should be a valid integer"),
    ("extra", {"extra": 1}, "not a valid save: extra: unknown field"),
]


@pytest.mark.parametrize(("case", "change", "message"), BAD_SAVES, ids=[b[0] for b in BAD_SAVES])
def test_export_18xx_checks_the_save_against_the_schema(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    save: Path,
    case: str,
    change: dict[str, Any],
    message: str,
) -> None:
    """docs/cli.md, Conventions, Saves: a save is checked against schema/save.schema.json
    before replay on every command that reads a save (`export-18xx` too); anything else is
    a one-line error, exit 1 (and the --out file is not touched)."""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**json.loads(save.read_text()), **change}))
    target = tmp_path / "out.json"
    target.write_text("kept\n")
    code, out, err = run(capsys, "export-18xx", str(path), "--out", str(target))
    assert (code, out, err) == (1, "", f"eighteen export-18xx: error: {path}: {message}\n")
    assert target.read_text() == "kept\n"


@pytest.mark.parametrize("command", ["replay", "export-18xx"])
def test_nesting_is_allowed_to_64_levels_and_not_65(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    """docs/cli.md, Conventions, Saves: nesting at most 64 deep."""
    at64, at65 = tmp_path / "d64.json", tmp_path / "d65.json"
    at64.write_text("[" * 64 + "]" * 64)
    at65.write_text("[" * 65 + "]" * 65)
    assert run(capsys, command, str(at64)) == (
        1,
        "",
        f"eighteen {command}: error: {at64}: not a save (needs title, players and actions)\n",
    )
    assert run(capsys, command, str(at65)) == (
        1,
        "",
        f"eighteen {command}: error: {at65}: cannot read the save: nested deeper than 64 levels\n",
    )


def test_export_nesting_is_allowed_to_64_levels_and_not_65(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """docs/cli.md, Conventions, Saves: the same bounds hold for 18xx.games exports."""
    at64, at65 = tmp_path / "d64.json", tmp_path / "d65.json"
    at64.write_text("[" * 64 + "]" * 64)
    at65.write_text("[" * 65 + "]" * 65)
    assert run(capsys, "import-18xx", str(at64)) == (
        1,
        "",
        f"eighteen import-18xx: error: {at64}: not an 18xx.games export (not a JSON object)\n",
    )
    assert run(capsys, "import-18xx", str(at65)) == (
        1,
        "",
        f"eighteen import-18xx: error: {at65}: not a usable export: nested deeper than 64 levels\n",
    )


def test_integers_within_64_bits(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, save: Path
) -> None:
    """docs/cli.md, Conventions, Saves: integers within 64 bits (2**63 - 1 and -2**63 are
    read, 2**63 is refused, one line, exit 1)."""
    data = json.loads(save.read_text())
    for seed in (2**63 - 1, -(2**63)):
        path = tmp_path / "ok.json"
        path.write_text(json.dumps({**data, "seed": seed, "actions": []}))
        code, out, err = run(capsys, "replay", str(path), "--format", "json")
        assert (code, err) == (0, "")
        assert json.loads(out)["seed"] == seed
    path = tmp_path / "big.json"
    text = json.dumps({**data, "seed": 2**63, "actions": []})
    path.write_text(text)
    col = text.index(str(2**63)) + 1
    assert run(capsys, "replay", str(path)) == (
        1,
        "",
        f"eighteen replay: error: {path}: cannot read the save: 1:{col}: integer out of range "
        "(19 digits; at most a 64-bit integer)\n",
    )


def test_export_integers_within_64_bits(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """docs/cli.md, Conventions, Saves: the same 64-bit bound holds for 18xx.games exports
    (an action id of 2**63 - 1 is read, 2**63 refused; the last action's, as ids increase)."""
    data = json.loads(EXPORT.read_text())
    data["actions"][-1]["id"] = 2**63 - 1
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(data))
    code, out, _ = run(capsys, "import-18xx", str(path), "--check")
    assert code == 0 and out.splitlines()[-1] == (
        "check: OK (every value, the end reason and the money match)"
    )
    data["actions"][-1]["id"] = 2**63
    text = json.dumps(data)
    path.write_text(text)
    col = text.index(str(2**63)) + 1
    assert run(capsys, "import-18xx", str(path), "--check") == (
        1,
        "",
        f"eighteen import-18xx: error: {path}: not a usable export: 1:{col}: integer out of "
        "range (19 digits; at most a 64-bit integer)\n",
    )


@pytest.mark.parametrize(
    ("command", "extra"),
    [
        ("replay", ["--format", "json"]),
        ("routes", ["--format", "json", "--corporation", "PRR"]),
        ("export-18xx", []),
    ],
)
def test_at_replays_only_the_first_actions(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, save: Path, command: str, extra: list[str]
) -> None:
    """docs/cli.md, Conventions, Saves: `--at ACTION` replays only the first ACTION actions
    on every command that reads a save: the same report as the save cut after them."""
    cut = truncated(save, 400, tmp_path / "cut.json")
    code, at_out, at_err = run(capsys, command, str(save), "--at", "400", *extra)
    assert (code, at_err) == (0, "")
    code, cut_out, cut_err = run(capsys, command, str(cut), *extra)
    assert (code, cut_err) == (0, "")
    assert at_out == cut_out
    whole = run(capsys, command, str(save), *extra)
    assert whole[0] == 0 and whole[1] != at_out


def test_render_at_draws_the_game_after_those_actions(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, save: Path
) -> None:
    """docs/cli.md, Conventions, Saves: `render --at ACTION` replays only the first ACTION
    actions: the page is the one of the save cut there."""
    cut = truncated(save, 200, tmp_path / "cut.json")
    code, out, _ = run(capsys, "render", str(save), "--at", "200", "--out", str(tmp_path / "a"))
    assert (code, out) == (0, f"{tmp_path / 'a' / 'index.html'}\n")
    assert run(capsys, "render", str(cut), "--out", str(tmp_path / "b"))[0] == 0
    assert run(capsys, "render", str(save), "--out", str(tmp_path / "c"))[0] == 0
    at = (tmp_path / "a" / "index.html").read_text()
    assert '<p id="game-status" data-actions="200" data-total="748" data-phase="4">' in at
    assert "<strong>Game after 200 of 748 actions</strong>" in at
    cut_page = (tmp_path / "b" / "index.html").read_text()
    assert (
        at.replace('data-total="748"', 'data-total="200"').replace(
            "200 of 748 actions", "200 of 200 actions"
        )
        == cut_page
    )
    assert (
        "<strong>Game after 748 of 748 actions</strong>"
        in (tmp_path / "c" / "index.html").read_text()
    )


# -- docs/cli.md, Conventions: writing -----------------------------------------------------


def test_play_save_keeps_mode_follows_a_symlink_and_leaves_nothing_behind(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """docs/cli.md, Conventions, Writing: an existing file keeps its mode, a new one is 0666
    less the umask; a symlink is followed (the file it points at is replaced, the link
    stays); nothing is left beside the target."""
    real = tmp_path / "real.json"
    real.write_text("{}\n")
    real.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    argv = ["play", "1830", "--players", "2", "--seed", "3", "--quiet", "--save"]
    assert run(capsys, *argv, str(link))[0] == 0
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert json.loads(real.read_text())["players"] == ["Player1", "Player2"]
    old = os.umask(0o027)
    try:
        assert run(capsys, *argv, str(tmp_path / "new.json"))[0] == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "new.json", "real.json"]


def test_a_failing_command_leaves_an_existing_file_as_it_was(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, save: Path
) -> None:
    """docs/cli.md, Conventions, Writing: nothing is left behind on failure, and a file
    already saved is not damaged (play, import-18xx --save, export-18xx --out)."""
    kept = tmp_path / "kept.json"
    kept.write_text('{"keep": 1}\n')
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 65 + "]" * 65)
    cases = [
        (["play", "1830", "--players", "2", "--option", "nope", "--save", str(kept)], 1),
        (["import-18xx", str(deep), "--save", str(kept)], 1),
        (["export-18xx", str(deep), "--out", str(kept)], 1),
        (["export-18xx", str(save), "--at", "99999", "--out", str(kept)], 1),
    ]
    for argv, expected in cases:
        code, _, err = run(capsys, *argv)
        assert (code, err.count("\n")) == (expected, 1), argv
        assert kept.read_text() == '{"keep": 1}\n', argv
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deep.json", "kept.json"]


# -- docs/cli.md, Conventions: progress ----------------------------------------------------


def test_no_progress_line_unless_both_stdout_and_stderr_are_terminals(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/cli.md, Conventions, Progress: `play` shows a transient progress line only when
    standard output and standard error are both a terminal."""
    argv = ["play", "1830", "--players", "2", "--seed", "3"]
    code, plain, err = run(capsys, *argv)
    assert (code, err) == (0, "")
    assert plain.splitlines()[:2] == [
        "1830: Railways & Robber Barons: 2 greedy bots, seed 3",
        "private auction: 52 actions",
    ]
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)  # standard output alone
    code, _, err = run(capsys, *argv)
    assert (code, err) == (0, "")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # and standard error: shown
    code, _, err = run(capsys, *argv)
    assert code == 0 and " actions \u00b7 stock round" in err


# -- docs/cli.md, Where titles are found ---------------------------------------------------


def test_the_project_is_the_nearest_folder_above_holding_titles(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/cli.md, Where titles are found: 1. the project, the nearest folder at or above
    the working directory holding `titles/`, is searched first; 2. then the checkout."""
    for name in ("common", "1833ne"):
        shutil.copytree(ROOT / "titles" / name, tmp_path / "titles" / name)
    deeper = tmp_path / "sub" / "deeper"
    deeper.mkdir(parents=True)
    monkeypatch.chdir(deeper)
    code, out, _ = run(capsys, "titles", "--format", "json")
    found = {t["id"]: (t["found"], t["source"]) for t in json.loads(out)["titles"]}
    assert code == 0
    assert found == {
        "1830": ("checkout", str(ROOT / "titles" / "1830")),
        "1830-example": ("checkout", str(ROOT / "titles" / "1830-example")),
        "1833ne": ("project", str(tmp_path / "titles" / "1833ne")),
        "1833ne-takeover": ("checkout", str(ROOT / "titles" / "1833ne-takeover")),
    }


def test_tables_in_the_working_directorys_generated_are_found(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/cli.md, Where titles are found: 1. ... and `./generated/`."""
    data = json.loads((ROOT / "generated" / "1830.json").read_text())
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "zz.json").write_text(json.dumps({**data, "id": "zz"}))
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "titles", "--format", "json")
    listing = {t["id"]: t for t in json.loads(out)["titles"]}
    assert code == 0
    assert (listing["zz"]["found"], listing["zz"]["compiled"]) == (
        "compiled",
        str(tmp_path / "generated" / "zz.json"),
    )
    code, out, _ = run(capsys, "play", "zz", "--players", "2", "--quiet", "--format", "json")
    assert (code, json.loads(out)["title"], json.loads(out)["over"]) == (0, "zz", True)


def test_validate_looks_up_common_beside_the_title_first(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/cli.md, Where titles are found: `validate PATH` works on any title folder; the
    shared tile library `common` is looked up beside it first, then in these places."""
    alone = tmp_path / "alone" / "1830"
    shutil.copytree(ROOT / "titles" / "1830", alone)
    code, out, err = run(capsys, "validate", str(alone))
    assert (code, out, err) == (0, "", "validated 1830: 0 error(s), 0 warning(s)\n")
    beside = tmp_path / "beside"
    shutil.copytree(ROOT / "titles" / "1830", beside / "1830")
    shutil.copytree(ROOT / "titles" / "common", beside / "common")
    tiles = beside / "common" / "tiles.toml"
    tiles.write_text(tiles.read_text() + '\n[[tiles]]\nid = "zz"\n')
    line = len(tiles.read_text().splitlines()) - 1
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "validate", "beside/1830")
    assert code == 1
    assert out.startswith(f"beside/common/tiles.toml:{line}:1: error[E012]: ")
    assert out.endswith(": missing key 'color'\n") and out.count("\n") == 1
    assert err == "validated 1830: 1 error(s), 0 warning(s)\n"


def test_compile_and_render_take_a_title_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """docs/cli.md, Where titles are found: every command that takes a title takes either a
    folder or an id (compile, render)."""
    folder = str(ROOT / "titles" / "1830")
    code, _, err = run(capsys, "compile", folder, "--out", str(tmp_path / "gen"))
    assert code == 0
    assert err == f"wrote {tmp_path / 'gen' / '1830.json'}\nwrote {tmp_path / 'gen' / '1830.md'}\n"
    assert (tmp_path / "gen" / "1830.json").read_bytes() == (
        ROOT / "generated" / "1830.json"
    ).read_bytes()
    code, out, _ = run(capsys, "render", folder, "--out", str(tmp_path / "r"), "--format", "json")
    assert (code, json.loads(out)) == (0, {"page": str(tmp_path / "r" / "index.html")})


def test_play_takes_a_title_folder(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/cli.md, Where titles are found: every command that takes a title (... `play`
    ...) takes either a folder or an id found in these places."""
    by_id = run(capsys, "play", "1830", "--players", "2", "--seed", "3", "--quiet")
    assert by_id[0] == 0
    by_folder = run(
        capsys, "play", str(ROOT / "titles" / "1830"), "--players", "2", "--seed", "3", "--quiet"
    )
    assert by_folder == by_id


def test_simulate_takes_a_title_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """docs/cli.md, Where titles are found: every command that takes a title (...
    `simulate`) takes either a folder or an id found in these places."""
    argv = ["--games", "1", "--players", "2", "--no-report", "--format", "json"]
    code, by_id, _ = run(capsys, "simulate", "1830", *argv, "--out", str(tmp_path / "a"))
    assert code == 0
    folder = str(ROOT / "titles" / "1830")
    code, by_folder, err = run(capsys, "simulate", folder, *argv, "--out", str(tmp_path / "b"))
    assert (code, err) == (0, f"wrote summary.json to {tmp_path / 'b'}\n")
    assert json.loads(by_folder)["titles"] == json.loads(by_id)["titles"] == ["1830"]


def test_simulate_warns_when_the_compiled_tables_are_older_than_the_title(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/cli.md, Where titles are found: `play` and `simulate` warn when the title's
    folder has changed since `eighteen compile`, and name the command to run."""
    for name in ("common", "1830"):
        shutil.copytree(ROOT / "titles" / name, tmp_path / "titles" / name)
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "compile", "1830")[0] == 0
    title = tmp_path / "titles" / "1830" / "title.toml"
    title.write_text(title.read_text().replace("bank = 12000", "bank = 13000", 1))
    argv = ["simulate", "1830", "--games", "1", "--players", "2", "--no-report"]
    code, _, err = run(capsys, *argv, "--out", str(tmp_path / "s"))
    assert code == 0
    first = err.splitlines()[0]
    assert first.startswith("eighteen simulate: warning: the compiled tables of 1830 (sha256:")
    assert "are older than titles/1830 (sha256:" in first
    assert first.endswith("run `eighteen compile 1830` to play the title as it is now")


def test_the_variants_trains_example_validates_as_printed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/variants.md, Overlays: the trains.toml of `my-1830` printed there, in the
    overlay `eighteen new my-1830 --from 1830` makes, validates with no problem and
    changes what it says (it named a train after the unlimited D: E127)."""
    text = (ROOT / "docs" / "variants.md").read_text()
    block = re.search(
        r"```toml\n(#:schema [^\n]*\n# titles/my-1830/trains\.toml\n.*?)```", text, re.S
    )
    assert block is not None
    for name in ("common", "1830"):
        shutil.copytree(ROOT / "titles" / name, tmp_path / "titles" / name)
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "new", "my-1830", "--from", "1830")[0] == 0
    (tmp_path / "titles" / "my-1830" / "trains.toml").write_text(block.group(1))
    code, out, _ = run(capsys, "validate", "titles/my-1830")
    assert (code, out) == (0, "")
    assert run(capsys, "compile", "titles/my-1830")[0] == 0
    doc = json.loads((tmp_path / "generated" / "my-1830.json").read_text())
    trains = {t["id"]: t for t in doc["trains"]}
    assert (trains["4"]["price"], trains["8"]["price"], trains["8"]["available_on"]) == (
        320,
        900,
        "D",
    )


def test_play_warns_when_the_title_has_errors_since_it_was_compiled(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/cli.md, Where titles are found: when the title's files have errors now, `play`
    and `simulate` warn that the tables compiled before are played (they played them
    silently)."""
    for name in ("common", "1830"):
        shutil.copytree(ROOT / "titles" / name, tmp_path / "titles" / name)
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "compile", "1830")[0] == 0
    compiled = json.loads((tmp_path / "generated" / "1830.json").read_text())["hash"]
    trains = tmp_path / "titles" / "1830" / "trains.toml"
    trains.write_text(trains.read_text().replace("price = 80", 'price = "cheap"', 1))
    code, _, err = run(capsys, "play", "1830", "--quiet")
    assert code == 0
    assert err.splitlines()[0] == (
        "eighteen play: warning: titles/1830 has 1 error(s) since its tables were compiled: "
        f"playing the tables of 1830 compiled before ({short_hash(compiled)}); "
        "`eighteen validate 1830` shows them"
    )
    argv = ["simulate", "1830", "--games", "1", "--players", "2", "--no-report"]
    code, _, err = run(capsys, *argv, "--out", str(tmp_path / "s"))
    assert code == 0
    assert err.splitlines()[0].startswith("eighteen simulate: warning: titles/1830 has 1 error(s)")


def test_new_outside_a_project_points_at_the_installed_overlay_schemas(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/cli.md, Where titles are found: `eighteen new NAME --from 1830` outside a
    project writes `titles/NAME/` in the working directory, with `#:schema` lines pointing
    at the installed overlay schemas."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "new", "fresh", "--from", "1830")
    assert (code, out) == (0, "")
    files = ["title", "trains", "map", "privates"]
    assert err.splitlines()[:4] == [f"wrote titles/fresh/{n}.toml" for n in files]
    folder = tmp_path / "titles" / "fresh"
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"{n}.toml" for n in files)
    for name in files:
        first = (folder / f"{name}.toml").read_text().splitlines()[0]
        assert first.startswith("#:schema ")
        target = (folder / first.removeprefix("#:schema ")).resolve()
        assert target == ROOT / "schema" / "overlay" / f"{name}.schema.json"


# -- docs/cli.md, Players ------------------------------------------------------------------


def test_play_defaults_four_players_seed_1_greedy_bots(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """docs/cli.md, Players: `--players 4` plays with Player1..Player4 (4 the default);
    `greedy` the default bot; `eighteen COMMAND --help` shows each default."""
    defaults = build_parser().parse_args(["play", "1830"])
    assert (defaults.players, defaults.seed, defaults.bots, defaults.options) == (
        4,
        1,
        "greedy",
        [],
    )
    code, out, err = run(capsys, "play", "1830", "--quiet")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "1830: Railways & Robber Barons: 4 greedy bots, seed 1"
    code, out, _ = run(capsys, "play", "1830", "--format", "json")
    doc = json.loads(out)
    assert doc["players"] == ["Player1", "Player2", "Player3", "Player4"]
    assert (doc["seed"], doc["options"], doc["save"]) == (1, [], None)


def test_quiet_prints_the_first_line_and_the_ranking_only(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """docs/cli.md, Players: `--quiet` leaves out the log of the rounds; standard output
    holds the first line and the ranking (the last lines of the full report)."""
    code, full, _ = run(capsys, "play", "1830", "--players", "3", "--seed", "2")
    assert code == 0 and any(
        re.fullmatch(r"stock round 1: \d+ actions", x) for x in full.splitlines()
    )
    code, quiet, err = run(capsys, "play", "1830", "--players", "3", "--seed", "2", "--quiet")
    lines = quiet.splitlines()
    assert (code, err) == (0, "")
    assert lines[0] == "1830: Railways & Robber Barons: 3 greedy bots, seed 2"
    assert lines[1:] == full.splitlines()[-len(lines) + 1 :]
    assert lines[1].startswith("result (") and len(lines) == 6  # and a header, 3 players


def test_titles_lists_each_titles_options(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/cli.md, Players: `eighteen titles` lists each title's options (ids; with
    `--format json`, ids and descriptions)."""
    code, out, _ = run(capsys, "titles")
    ids = OPTIONS_1830.split(" (", 1)[0]
    assert code == 0 and any(
        line.startswith("  1830: ") and ids in line for line in out.splitlines()
    )
    code, out, _ = run(capsys, "titles", "--format", "json")
    doc = {t["id"]: t for t in json.loads(out)["titles"]}
    options = doc["1830"]["options"]
    assert options[1] == {
        "id": "optional_6_train",
        "description": "A third 6-train is added to the train roster.",
    }
    assert doc["1833ne"]["options"] == []


@pytest.mark.parametrize(
    ("seed", "code"), [("-1", 2), ("0", 0), (str(2**63 - 1), 0), (str(2**63), 2)]
)
def test_play_seed_is_0_to_2_63_minus_1(
    capsys: pytest.CaptureFixture[str], seed: str, code: int
) -> None:
    """docs/cli.md, Players: `--seed N` from 0 to 2**63 - 1; outside, a usage error."""
    assert run(capsys, "play", "1830", "--players", "2", "--quiet", "--seed", seed)[0] == code


def test_the_api_takes_any_signed_64_bit_seed_and_replay_takes_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """docs/cli.md, Players: `Game.new(..., seed=...)` takes -2**63 to 2**63 - 1
    (ValueError otherwise), and `replay` replays a save of any seed in that range."""
    for seed in (-(2**63) - 1, 2**63):
        with pytest.raises(ValueError, match="out of range"):
            eighteen.Game.new("1830", players=["A", "B"], seed=seed)
    for seed in (-(2**63), 2**63 - 1):
        game = eighteen.Game.new("1830", players=["A", "B"], seed=seed)
        path = tmp_path / "game.json"
        path.write_text(json.dumps(game.to_json()))
        assert run(capsys, "replay", str(path))[0] == 0


def test_option_is_repeatable_and_an_unknown_one_lists_every_option(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """docs/cli.md, Players: `--option ID` (repeatable) turns on a title option; an unknown
    one is refused with the list of the title's options and what each does."""
    target = tmp_path / "g.json"
    code, out, _ = run(
        capsys, "play", "1830", "--players", "2", "--seed", "3", "--option", "optional_6_train",
        "--option", "bankrupt_sells_shares", "--save", str(target), "--format", "json",
    )  # fmt: skip
    assert code == 0
    assert json.loads(out)["options"] == ["optional_6_train", "bankrupt_sells_shares"]
    assert json.loads(target.read_text())["options"] == [
        "optional_6_train",
        "bankrupt_sells_shares",
    ]
    code, out, err = run(capsys, "play", "1830", "--option", "optional_6_train", "--option", "x")
    assert (code, out) == (1, "")
    assert err == f"eighteen play: error: 1830 has no option 'x'; its options: {OPTIONS_1830}\n"


@pytest.mark.parametrize(
    ("spec", "players", "who"),
    [
        ("random", "2", "2 random bots"),
        ("greedy:bold", "2", "2 greedy:bold bots"),
        ("greedy(cash=0.3,risk=0.8)", "2", "2 greedy(cash=0.3,risk=0.8) bots"),
        ("greedy,greedy:cautious,2*random", "4", "4 bots greedy,greedy:cautious,random,random"),
    ],
)
def test_bots_take_the_forms_of_simulate(
    capsys: pytest.CaptureFixture[str], spec: str, players: str, who: str
) -> None:
    """docs/cli.md, Players: `--bots` takes one bot for every seat (`random`,
    `greedy:bold`, `greedy(cash=0.3,risk=0.8)`) or one per seat
    (`--bots greedy,greedy:cautious,2*random`)."""
    code, out, err = run(capsys, "play", "1830", "--players", players, "--bots", spec, "--quiet")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == f"1830: Railways & Robber Barons: {who}, seed 1"


def test_an_unknown_personality_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/cli.md, Players: an unknown bot is a usage error (exit 2)."""
    assert run(capsys, "play", "1830", "--bots", "greedy:nope") == (
        2,
        "",
        "eighteen play: error: --bots: unknown personality 'nope' in 'greedy:nope'; choose "
        "from default, cautious, bold, thrifty\n",
    )


def test_the_example_of_engine_md_plays_saves_and_replays(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """docs/engine.md, Bots: `eighteen play 1830 --players 4 --seed 7 --bots greedy --save
    game.json` then `eighteen replay game.json` prints the same ranking."""
    target = tmp_path / "game.json"
    code, out, err = run(
        capsys, "play", "1830", "--players", "4", "--seed", "7", "--bots", "greedy",
        "--save", str(target),
    )  # fmt: skip
    assert code == 0
    actions = len(json.loads(target.read_text())["actions"])
    assert err == f"saved {actions} actions to {target}\n"
    code, replayed, _ = run(capsys, "replay", str(target))
    assert code == 0 and replayed == out[out.index("result (") :]


# -- docs/cli.md, The compiled engine ------------------------------------------------------


def test_native_jobs_defaults_to_2() -> None:
    """docs/cli.md, The compiled engine: `--jobs N` at once, default 2."""
    assert build_parser().parse_args(["native"]).jobs == 2


def test_native_clean_changes_the_folder_eighteen_native_dir_names(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/cli.md, The compiled engine: `EIGHTEEN_NATIVE_DIR` names another folder;
    `eighteen native` and `--clean` read and change it (not the package's `_native/`)."""
    decoy = tmp_path / "package_native"
    decoy.mkdir()
    monkeypatch.setattr(native, "NATIVE_DIR", decoy)  # (never the real build)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / f"eighteen.engine.map{native.SUFFIX}").write_text("")  # (a build's file)
    monkeypatch.setenv("EIGHTEEN_NATIVE_DIR", str(elsewhere))
    n = len(native.modules())
    status = [
        f"0 of {n} modules compiled from their present source",
        "  none built: eighteen native --build compiles them",
    ]
    code, out, _ = run(capsys, "native", "--clean")
    assert (code, out.splitlines()) == (0, ["removed the compiled modules", *status])
    assert not elsewhere.exists() and decoy.is_dir()
    code, out, _ = run(capsys, "native", "--clean")
    assert (code, out.splitlines()) == (0, ["no compiled modules", *status])


def test_the_compiled_module_counts_docs_cli_quotes_are_this_tree_s() -> None:
    """docs/cli.md, The compiled engine: the reports it quotes count this tree's modules (a
    build compiles 55; the corpus replay imports every one but the bots, 54), so a module
    added or split shows here, not as a stale figure."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text()
    flat = " ".join(text.split())
    compiled = [int(n) for n in re.findall(r"compiled (\d+) modules", flat)]
    compiled += [int(n) for n in re.findall(r"(\d+) of \1 modules compiled", flat)]
    imported = [int(n) for n in re.findall(r"(\d+) of the \1 modules imported", flat)]
    names = native.modules()
    assert len(names) == 55
    assert compiled == [55, 55]
    # the training run imports every module; the replay benchmark (the importer) all but
    # the bots
    assert imported == [55, 54]
    counted = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, eighteen.io.games18xx; from eighteen import native; "
            "print(sorted(set(native.modules()) - set(sys.modules)))",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "EIGHTEEN_NATIVE": "0"},
        check=True,
    )
    assert counted.stdout.split("\n")[0] == "['eighteen.engine.bots']"


# -- docs/engine.md ------------------------------------------------------------------------


def test_a_save_holds_title_version_hash_players_seed_options_actions() -> None:
    """docs/engine.md, table: `game.to_json()` / `Game.from_json(save)`: a save: title id,
    version, hash, players, seed, options, actions."""
    title = eighteen.load_title("1830")
    game = eighteen.Game.new(
        title, players=["Ann", "Bob", "Cy"], seed=7, options=["optional_6_train"]
    )
    game.apply(Bid("Ann", "SV", 20))
    saved = game.to_json()
    assert saved == {
        "format": 1,
        "title": "1830",
        "version": "1.5.0",
        "hash": title.hash,
        "players": ["Ann", "Bob", "Cy"],
        "seed": 7,
        "options": ["optional_6_train"],
        "actions": [{"type": "bid", "actor": "Ann", "private": "SV", "price": 20}],
    }
    again = eighteen.Game.from_json(saved)
    assert (again.state_hash(), again.acting()) == (game.state_hash(), "Bob")


STATE_HASH = """
import eighteen
from eighteen.engine.actions import Bid
game = eighteen.Game.new(eighteen.load_title("1830"), players=["Ann", "Bob", "Cy"], seed=7)
game.apply(Bid("Ann", "SV", 20))
print(game.state_hash())
"""


def test_the_state_hash_is_stable_across_processes() -> None:
    """docs/engine.md, table: `game.state_hash()`: a stable hash of the whole state (the
    same in another process, whatever its string hashing seed)."""
    game = eighteen.Game.new(eighteen.load_title("1830"), players=["Ann", "Bob", "Cy"], seed=7)
    before = game.state_hash()
    game.apply(Bid("Ann", "SV", 20))
    here = game.state_hash()
    assert len(here) == 64 and int(here, 16) >= 0 and here != before
    seen = []
    for seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-c", STATE_HASH],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
            check=False,
        )
        assert done.returncode == 0, done.stderr
        seen.append(done.stdout.strip())
    assert seen == [here, here]


def test_apply_takes_the_json_form_and_any_legal_amount() -> None:
    """docs/engine.md, Actions: `apply` also accepts the JSON dict form; for amounts chosen
    freely (bids) `legal_actions()` offers a sample and `apply` accepts any legal amount;
    an illegal one raises IllegalAction and leaves the state unchanged."""
    game = eighteen.Game.new(
        eighteen.load_title("1830"), players=["Ann", "Bob", "Cy", "Di"], seed=7
    )
    sample = [a.price for a in game.legal_actions() if isinstance(a, Bid) and a.private == "CS"]
    assert sample == [45, 50, 55, 70, 95, 145, 600]
    start = game.state_hash()
    for price, reason in [
        (44, "a bid on CS must be at least $45"),
        (601, "Ann has only $600 not set aside"),
    ]:
        with pytest.raises(IllegalAction) as refused:
            game.apply({"type": "bid", "actor": "Ann", "private": "CS", "price": price})
        assert str(refused.value) == reason
        assert (game.state_hash(), len(game.log)) == (start, 0)
    game.apply({"type": "bid", "actor": "Ann", "private": "CS", "price": 47})
    assert game.log == [Bid("Ann", "CS", 47)] and game.acting() == "Bob"
    by_record = eighteen.Game.new(
        eighteen.load_title("1830"), players=["Ann", "Bob", "Cy", "Di"], seed=7
    )
    by_record.apply(Bid("Ann", "CS", 47))
    assert by_record.state_hash() == game.state_hash()


#: The first 22 actions of a greedy 3-player 1830 game (seed 1): C&O then lays its first
#: track, where the straight tile 9 fits G5.
OPENING = [
    {"type": "bid", "actor": "A", "private": "SV", "price": 20},
    {"type": "bid", "actor": "B", "private": "CS", "price": 40},
    {"type": "bid", "actor": "C", "private": "DH", "price": 70},
    {"type": "bid", "actor": "A", "private": "MH", "price": 110},
    {"type": "bid", "actor": "B", "private": "CA", "price": 160},
    {"type": "bid", "actor": "C", "private": "BO", "price": 220},
    {"type": "par", "actor": "C", "corporation": "B&O", "price": 90},
    {"type": "par", "actor": "A", "corporation": "C&O", "price": 100},
    {"type": "par", "actor": "B", "corporation": "PRR", "price": 100},
    *[
        {"type": "buy_shares", "actor": who, "corporation": corp, "source": "ipo"}
        for who, corp in [
            ("C", "B&O"),
            ("A", "C&O"),
            ("B", "PRR"),
            ("C", "B&O"),
            ("A", "C&O"),
            ("B", "PRR"),
            ("C", "B&O"),
            ("A", "C&O"),
            ("B", "PRR"),
            ("C", "B&O"),
            ("A", "C&O"),
            ("B", "C&O"),
            ("C", "PRR"),
        ]  # fmt: skip
    ],
]


def test_a_rotation_giving_the_same_track_is_listed_once_and_apply_takes_either() -> None:
    """docs/engine.md, Actions: a rotation that gives the same track as another (a straight
    track turned half round) is listed once; `apply` accepts either."""
    game = eighteen.Game.from_json(
        {"format": 1, "title": "1830", "players": ["A", "B", "C"], "seed": 1,
         "options": [], "actions": OPENING}
    )  # fmt: skip
    assert game.acting() == "C&O"
    straight = [
        (a.hex, a.rotation)
        for a in game.legal_actions()
        if isinstance(a, LayTile) and a.tile == "9"
    ]
    assert straight == [("G5", 0)]
    listed, turned = game.clone(), game.clone()
    listed.apply(LayTile("C&O", "G5", "9", 0))
    turned.apply(LayTile("C&O", "G5", "9", 3))
    assert turned.log[-1] == LayTile("C&O", "G5", "9", 3)
    assert listed.acting() == turned.acting()
    with pytest.raises(IllegalAction):
        game.apply(LayTile("C&O", "G5", "9", 1))  # other track: not legal there


def test_every_action_the_doc_names_has_a_json_form() -> None:
    """docs/engine.md, Actions: `Bid`, `Par`, ..., `Bankrupt`, each with a JSON form
    (`action.to_json()`, `action_from_json(d)`)."""
    named = [
        "Bid", "Par", "BuyShares", "SellShares", "ExchangePrivate", "Pass", "LayTile",
        "PlaceToken", "RunRoutes", "Dividend", "BuyTrain", "DiscardTrain", "BuyCompany",
        "TradePrivate", "IssueShares", "RedeemShares", "BuyFerry", "Bankrupt",
    ]  # fmt: skip
    by_class = {cls.__name__: kind for kind, cls in actions_module.ACTION_TYPES.items()}
    assert {name: by_class.get(name) for name in named} == {
        "Bid": "bid", "Par": "par", "BuyShares": "buy_shares", "SellShares": "sell_shares",
        "ExchangePrivate": "exchange", "Pass": "pass", "LayTile": "lay_tile",
        "PlaceToken": "place_token", "RunRoutes": "run_routes", "Dividend": "dividend",
        "BuyTrain": "buy_train", "DiscardTrain": "discard_train", "BuyCompany": "buy_company",
        "TradePrivate": "trade_private", "IssueShares": "issue_shares",
        "RedeemShares": "redeem_shares", "BuyFerry": "buy_ferry", "Bankrupt": "bankrupt",
    }  # fmt: skip


def test_summary_holds_every_view() -> None:
    """docs/engine.md, Views: `round_name`, `phase_name`, `players`, `corporations`, `bank`,
    `market_view`, `map_view`, `privates_view`, `ranking` and `summary` (all of them)."""
    game = eighteen.Game.new(eighteen.load_title("1830"), players=["Ann", "Bob", "Cy"], seed=7)
    game.apply(Bid("Ann", "SV", 20))
    s = views.summary(game)
    assert (s["round"], s["phase"]) == (views.round_name(game), views.phase_name(game))
    assert s["players"] == views.players(game)
    assert s["corporations"] == views.corporations(game)
    assert s["bank"] == views.bank(game)
    assert s["market"] == views.market_view(game)
    assert s["map"] == views.map_view(game)
    assert s["privates"] == views.privates_view(game)
    assert [(p["name"], p["cash"]) for p in s["players"]] == [
        ("Ann", 780),
        ("Bob", 800),
        ("Cy", 800),
    ]
    assert s["players"][0]["privates"] == ["SV"]


def test_summary_holds_the_ranking_once_the_game_is_over() -> None:
    """docs/engine.md, Views: `summary` is all of the views; its `ranking` is None while the
    game goes on (`ranking()` gives the standings at any time); at the end it is the
    ranking (test_bots_play_iterated_plays_to_the_end)."""
    game = eighteen.Game.new(eighteen.load_title("1830"), players=["Ann", "Bob", "Cy"], seed=7)
    game.apply(Bid("Ann", "SV", 20))
    assert views.ranking(game) == [("Ann", 800), ("Bob", 800), ("Cy", 800)]
    assert views.summary(game)["ranking"] is None


def _bot_game() -> tuple[eighteen.Game, dict[str, bots.Bot]]:
    game = eighteen.Game.new(eighteen.load_title("1830"), players=["A", "B"], seed=3)
    seats: dict[str, bots.Bot] = {
        "A": bots.GreedyBot(3, bots.Personality(cash=0.3, risk=0.8)),
        "B": bots.GreedyBot(4, bots.PERSONALITIES["bold"]),
    }
    return game, seats


def test_bots_play_iterated_plays_to_the_end() -> None:
    """docs/engine.md, Bots and The garbage collector: iterating `bots.play(game, bots)`
    plays until its game ends, yielding each action applied; the bots use only
    `legal_actions()` and `apply()`; `GreedyBot(seed, Personality(cash=..., risk=...))`
    takes a personality, named ones in `bots.PERSONALITIES`: cautious, bold, thrifty."""
    assert {"cautious", "bold", "thrifty"} <= set(bots.PERSONALITIES)
    game, seats = _bot_game()
    applied = list(bots.play(game, seats))
    assert game.is_over and not game.stuck
    assert applied == game.log
    assert views.summary(game)["ranking"] == views.ranking(game)
    assert eighteen.Game.from_json(game.to_json()).state_hash() == game.state_hash()


def test_snapshots_are_taken_every_64_actions() -> None:
    """docs/engine.md, Atomicity and undo: the state is rebuilt from the nearest snapshot
    (taken every 64 actions) and the log."""
    game, seats = _bot_game()
    hashes = []
    playing = bots.play(game, seats)
    try:
        for _ in playing:
            hashes.append(game.state_hash())
            if len(game.log) == 130:
                break
    finally:
        playing.close()
    assert sorted(game._snapshots) == [0, 64, 128]
    for expected in reversed(hashes[:-1][-70:]):
        game.undo()
        assert game.state_hash() == expected
    assert len(game.log) == 60


def test_a_save_is_written_when_the_reader_of_the_log_leaves(tmp_path: Path) -> None:
    """docs/cli.md, Writing: `play --save` writes its save even when what reads its
    output stops early (`eighteen play 1830 --save g.json | head -1`): the game is played
    to the end, the save written, and the exit code is 0."""
    save = tmp_path / "g.json"
    with subprocess.Popen(
        [sys.executable, "-m", "eighteen", "play", "1830", "--save", str(save)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},  # each line sent as it is printed
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        first = proc.stdout.readline()
        proc.stdout.close()  # the reader leaves after one line
        err = proc.stderr.read()
        assert proc.wait() == 0
    assert first.startswith(b"1830: Railways & Robber Barons: 4 greedy bots, seed 1")
    saved = json.loads(save.read_text())
    assert len(saved["actions"]) == 836
    assert err.decode().strip() == f"saved 836 actions to {save}"
