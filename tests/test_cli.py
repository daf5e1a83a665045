"""The `eighteen` command: exit codes, output shapes, and no tracebacks on bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from eighteen import locations
from eighteen.cli import main
from eighteen.locations import compiled_path, title_argument, title_ref
from eighteen.title.problems import closest, did_you_mean

ROOT = Path(__file__).resolve().parent.parent


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        run(
            capsys,
        )[0]
        == 2
    )
    assert run(capsys, "validate", "--format", "yaml")[0] == 2


def test_validate_clean_title(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "validate", str(ROOT / "titles" / "1830"))
    assert code == 0
    assert out == ""
    assert "validated 1830: 0 error(s), 0 warning(s)" in err


def test_validate_dot_is_the_folder_it_names(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`validate .` inside a title folder checks that folder under its own name."""
    monkeypatch.chdir(ROOT / "titles" / "1830")
    code, out, err = run(capsys, "validate", ".")
    assert (code, out) == (0, "")
    assert err.strip() == "validated 1830: 0 error(s), 0 warning(s)"
    monkeypatch.chdir(ROOT / "titles" / "1830" / "..")
    assert (
        run(capsys, "validate", "1830/../1830")[2]
        .strip()
        .endswith("validated 1830: 0 error(s), 0 warning(s)")
    )


def test_validate_reports_located_error_and_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    titles = tmp_path / "titles"
    shutil.copytree(ROOT / "titles" / "common", titles / "common")
    shutil.copytree(ROOT / "titles" / "1830", titles / "1830")
    trains = titles / "1830" / "trains.toml"
    text = trains.read_text()
    trains.write_text(text.replace("price = 180", "price = -180", 1))
    line = next(i for i, x in enumerate(trains.read_text().splitlines(), 1) if "-180" in x)
    code, out, _ = run(capsys, "validate", str(titles / "1830"))
    assert code == 1
    assert f"trains.toml:{line}:9: error[E013]: trains[1].price: -180 is below the minimum 0" in out
    code, out, _ = run(capsys, "validate", "--format", "json", str(titles / "1830"))
    assert code == 1
    doc = json.loads(out)
    assert doc["errors"] == 1
    assert doc["problems"][0]["code"] == "E013"
    assert doc["problems"][0]["line"] == line


def test_validate_missing_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "validate", str(tmp_path / "nope"))
    assert code == 1
    assert "error[E002]: no such title folder" in out


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["validate", "1833NE"],
            "1833NE:1:1: error[E002]: no such title folder; did you mean '1833ne'?",
        ),
        (
            ["validate", "1830x"],
            "1830x:1:1: error[E002]: no such title folder; did you mean '1830'?",
        ),
        (["validate", "zzzz"], "zzzz:1:1: error[E002]: no such title folder"),
        (
            ["diff", "1830", "1833NE"],
            "1833NE:1:1: error[E002]: no such title folder or file; did you mean '1833ne'?",
        ),
        (
            ["fmt", "--check", "1833NE"],
            "1833NE:1:1: error[E002]: no such file, folder or title; did you mean '1833ne'?",
        ),
    ],
)
def test_unknown_title_names_the_likely_one(
    capsys: pytest.CaptureFixture[str], args: list[str], expected: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 1
    assert expected in (out + err).splitlines()


def test_title_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hint names a known title a wrong name likely means; none for a title known by
    that very name (it exists but lacks what was looked for, e.g. its compiled tables)."""
    monkeypatch.setattr(locations, "known_titles", lambda: ["1830", "1833ne", "my-1830"])
    assert locations.title_hint("1833NE") == "; did you mean '1833ne'?"
    assert locations.title_hint("titles/My-1830") == "; did you mean 'my-1830'?"
    assert locations.title_hint("my-1830") == ""
    assert locations.title_hint("titles/my-1830") == ""
    assert locations.title_hint("zzzz") == ""
    assert locations.title_hint("") == ""


def test_unknown_title_hint_in_commands(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "1833NE")
    assert code == 1
    assert err.startswith(
        "eighteen play: error: no compiled tables for '1833NE'; did you mean '1833ne'? "
        "(known titles: 1830, 1830-example, 1833ne, 1833ne-takeover; looked in "
    )
    code, _, err = run(capsys, "new", "zz", "--from", "1833NE")
    assert code == 1
    assert err == (
        "eighteen new: error: no title '1833NE'; did you mean '1833ne'? (known titles: "
        "1830, 1830-example, 1833ne, 1833ne-takeover)\n"
    )


def test_compile_check_is_clean(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "compile", "--check")[0] == 0
    assert run(capsys, "schema", "--check")[0] == 0


def test_compile_check_reports_stale(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "compile", "--check", "--out", str(tmp_path), "1830")
    assert code == 1
    assert out.splitlines() == [
        f"stale: {tmp_path / '1830.json'} (run `eighteen compile`)",
        f"stale: {tmp_path / '1830.md'} (run `eighteen compile`)",
    ]


def test_play_save_and_replay_agree(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    code, out, _ = run(
        capsys,
        "play",
        "1830",
        "--players",
        "3",
        "--seed",
        "5",
        "--bots",
        "random",
        "--save",
        str(save),
    )
    assert code == 0
    ranking = out[out.index("result (") :]
    code, out2, _ = run(capsys, "replay", str(save))
    assert code == 0
    assert out2 == ranking
    data = json.loads(save.read_text())
    assert data["title"] == "1830" and data["players"] == ["Player1", "Player2", "Player3"]


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "not a save"),
        ('{"format": 1, "title": "nonesuch", "players": ["a", "b"], "actions": []}', "nonesuch"),
        (
            '{"format": 1, "title": "1830", "players": ["a"], "actions": []}',
            "save made with 1830 no version (no hash)",
        ),
        ('{"title": "1830", "players": ["a"], "actions": []}', "not a valid save: format: missing"),
    ],
)
def test_replay_bad_saves(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, message: str
) -> None:
    save = tmp_path / "bad.json"
    save.write_text(content)
    code, _, err = run(capsys, "replay", str(save))
    assert code == 1
    assert message in err
    assert "Traceback" not in err


def test_play_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "nonesuch")
    assert code == 1 and "nonesuch" in err
    code, _, err = run(capsys, "play", "1830", "--players", "9")
    assert code == 1 and "2-6 players" in err


def test_a_title_folder_names_the_title_it_declares(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`play` and `simulate` take a folder as the id its title.toml declares (the folder's
    name when the file cannot be read); so `--vs` naming the same title as a folder and
    as an id is the same title."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "title.toml").write_text('id = "1830"\n')
    assert title_ref(str(folder)) == "1830"
    (folder / "title.toml").write_text("id = \n")  # not TOML
    assert title_ref(str(folder)) == "mine"
    assert title_ref("1833ne") == "1833ne"
    assert title_argument("1833ne") == ("1833ne", None)
    (folder / "title.toml").write_text('id = "1830"\n')
    assert title_argument(str(folder)) == ("1830", folder)
    assert compiled_path(folder, "1830") is None  # (a folder in no project)
    assert compiled_path(ROOT / "titles" / "1830", "1830") == ROOT / "generated" / "1830.json"
    code, _, err = run(capsys, "simulate", str(ROOT / "titles/1830"), "--vs", "1830")
    assert code == 2
    assert f"--vs names the same title as TITLE ({ROOT / 'titles/1830'})" in err


def test_a_title_folder_of_another_project_plays_that_projects_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`compile FOLDER` writes the folder's tables to its own project's generated/, and
    `play FOLDER` plays those, not a title of the same id found from the working
    directory (here, the checkout's 1830)."""
    project = tmp_path / "P"
    shutil.copytree(ROOT / "titles", project / "titles")
    title = project / "titles" / "1830" / "title.toml"
    title.write_text(title.read_text().replace("bank = 12000\n", "bank = 15000\n"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    folder = str(project / "titles" / "1830")
    code, _, err = run(capsys, "play", folder, "--players", "3", "--quiet")
    assert code == 1
    assert err == (
        f"eighteen play: error: no compiled tables for {folder} (looked for "
        f"../P/generated/1830.json): run `eighteen compile {folder}`\n"
    )
    assert run(capsys, "compile", folder)[0] == 0
    assert sorted(p.name for p in (project / "generated").iterdir()) == ["1830.json", "1830.md"]
    assert not (elsewhere / "generated").exists()
    ours = json.loads((project / "generated" / "1830.json").read_text())
    theirs = json.loads((ROOT / "generated" / "1830.json").read_text())
    assert (ours["bank"], theirs["bank"]) == (15000, 12000)
    save = elsewhere / "g.json"
    code, _, err = run(capsys, "play", folder, "--players", "3", "--quiet", "--save", str(save))
    assert (
        code == 0
        and err == f"saved {len(json.loads(save.read_text())['actions'])} actions to {save}\n"
    )
    assert json.loads(save.read_text())["hash"] == ours["hash"] != theirs["hash"]
    assert run(capsys, "play", "1830", "--players", "3", "--quiet", "--save", str(save))[0] == 0
    assert json.loads(save.read_text())["hash"] == theirs["hash"]  # (the id: the checkout's)
    # the folder edited since: the warning names that folder, and the command to run for it
    title.write_text(title.read_text().replace("bank = 15000\n", "bank = 16000\n"))
    code, _, err = run(capsys, "play", folder, "--players", "3", "--quiet")
    assert code == 0
    assert "are older than ../P/titles/1830 (sha256:" in err
    assert "run `eighteen compile ../P/titles/1830` to play the title as it is now" in err


def test_damaged_compiled_tables_are_one_line_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tables cut short, or of the wrong shape, are named with the command that writes
    them again, by every command that loads them (they were an internal error, or blamed
    on the save)."""
    save = tmp_path / "g.json"
    assert run(capsys, "play", "1830", "--players", "3", "--quiet", "--save", str(save))[0] == 0
    project = tmp_path / "P"
    (project / "titles").mkdir(parents=True)
    (project / "generated").mkdir()
    tables = project / "generated" / "1830.json"
    text = (ROOT / "generated" / "1830.json").read_text()
    export = ROOT / "tests" / "fixtures" / "18xx-games" / "1830" / "29133.json"
    monkeypatch.chdir(project)
    for damaged, why in [
        (text[:5000], "Expecting value: line 291 column 2 (char 5000)"),
        (json.dumps({**json.loads(text), "bank": "x"}), "bank: Input should be a valid integer"),
    ]:
        tables.write_text(damaged)
        said = f"{tables}: the compiled tables cannot be read ({why}"
        for argv in [
            ("play", "1830", "--players", "3", "--quiet"),
            ("replay", str(save)),
            ("render", str(save), "--out", str(tmp_path / "page")),
            ("simulate", "1830", "--games", "1", "--quiet", "--out", str(tmp_path / "sim")),
        ]:
            code, _, err = run(capsys, *argv)
            assert code == 1
            assert err.startswith(f"eighteen {argv[0]}: error: {said}"), err
            assert err.endswith("; `eighteen compile` writes them again\n")
        code, _, err = run(capsys, "import-18xx", str(export))
        assert code == 1 and f": {said}" in err and err.count("\n") == 1


def test_closest_takes_a_case_difference_first() -> None:
    """problems.closest, shared by every "did you mean": a choice differing only in case
    wins over one difflib finds closer; none is offered for the word itself."""
    assert closest("1833NE", ["1830", "1833ne"]) == "1833ne"
    assert closest("prr", ["PRR", "PR"]) == "PRR"
    assert closest("NYCC", ["NYC", "B&O"]) == "NYC"
    assert closest("zzz", ["NYC", "B&O"]) is None
    assert did_you_mean("PRR", ["PRR", "PRX"]) == ""
    assert did_you_mean("prr", ["PRR"]) == "; did you mean 'PRR'?"


def test_titles_lists_each_titles_options(capsys: pytest.CaptureFixture[str]) -> None:
    """`play --option`'s help sends the user to `eighteen titles` for the options: text
    lists their ids per title (titles with none are left out), json their descriptions."""
    code, out, _ = run(capsys, "titles")
    lines = out.splitlines()
    start = lines.index(
        "options (`eighteen play ID --option OPTION`; descriptions: --format json):"
    )
    assert code == 0 and lines[start + 1] == (
        "  1830: multiple_brown_from_ipo, optional_6_train, bankrupt_sells_shares, "
        "brown_pool_only_18xx_games, new_trains_18xx_games, emergency_18xx_games, "
        "private_trades_18xx_games, deals_18xx_games, offboard_groups_18xx_games, "
        "auction_18xx_games"
    )
    assert not any(line.startswith("  1833ne:") for line in lines[start:])
    code, out, _ = run(capsys, "titles", "--format", "json")
    listing = {t["id"]: t for t in json.loads(out)["titles"]}
    assert listing["1833ne"]["options"] == []
    assert listing["1830"]["options"][1] == {
        "id": "optional_6_train",
        "description": "A third 6-train is added to the train roster.",
    }


def test_new_refuses_the_id_of_a_title_found(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Outside a project, `new 1830 --from 1830` wrote titles/1830 extending itself (E181)
    and shadowing the checkout's 1830; any id already found is refused before writing."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "new", "1830", "--from", "1830")
    assert (code, out) == (1, "")
    assert err.startswith("eighteen new: error: '1830' is already a title (")
    assert err.endswith("titles/1830): choose another id\n")
    code, _, err = run(capsys, "new", "1833ne-takeover", "--from", "1833ne")
    assert code == 1 and "'1833ne-takeover' is already a title" in err
    assert list(tmp_path.iterdir()) == []


def test_an_unknown_option_is_the_error_of_the_parser_it_was_given_to(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Before the command it is eighteen's own (`eighteen --bogus titles`), after it the
    command's."""
    assert run(capsys, "--bogus", "titles") == (
        2,
        "",
        "eighteen: error: unrecognized arguments: --bogus (see `eighteen --help`)\n",
    )
    assert run(capsys, "titles", "--bogus") == (
        2,
        "",
        "eighteen titles: error: unrecognized arguments: --bogus (see `eighteen titles --help`)\n",
    )
