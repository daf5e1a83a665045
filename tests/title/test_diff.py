"""`eighteen diff` and the save/title version check."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from eighteen import load_title
from eighteen.cli import main
from eighteen.title.diff import diff_compiled, format_diff, load_compiled
from eighteen.title.versions import SaveTitleMismatch, check_save_title

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.fixture(scope="module")
def base() -> dict[str, Any]:
    tables, problems = load_compiled("1830", ROOT)
    assert problems == [] and tables is not None
    return tables


def test_same_title_has_no_differences(base: dict[str, Any]) -> None:
    diff = diff_compiled(base, copy.deepcopy(base))
    assert diff["same"] is True and diff["sections"] == {}
    assert "no differences" in format_diff(diff)


def test_every_section(base: dict[str, Any]) -> None:
    other = copy.deepcopy(base)
    other["version"] = "1.6.0"
    other["rules"]["float_percent"] = 50
    other["trains"][2]["price"] = 320
    other["trains"].append({**other["trains"][0], "id": "8", "price": 900})
    other["phases"].pop()
    del other["hexes"]["B12"]
    other["hexes"]["F4"]["cost"] = 40
    other["tiles"]["57"]["count"] = 6
    other["market"]["cells"][0][0]["zones"] = []
    other["privates"] = other["privates"][1:]
    other["corporations"][0]["tokens"] = [0, 40]
    other["options"] = []
    sections = diff_compiled(base, other)["sections"]
    assert sections["title"] == {"version": ["1.5.0", "1.6.0"]}
    assert sections["rules"] == {"float_percent": [60, 50]}
    assert sections["trains"]["changed"] == {"4": {"price": [300, 320]}}
    assert list(sections["trains"]["added"]) == ["8"]
    assert list(sections["phases"]["removed"]) == ["D"]
    assert list(sections["hexes"]["removed"]) == ["B12"]
    assert sections["hexes"]["changed"] == {"F4": {"cost": [80, 40]}}
    assert sections["tiles"]["changed"] == {"57": {"count": [4, 6]}}
    assert sections["market"]["cells"] == {"changed": {"0,0": ["60y", "60"]}}
    assert list(sections["privates"]["removed"]) == ["SV"]
    assert sections["corporations"]["changed"] == {"PRR": {"tokens": [[0, 40, 100, 100], [0, 40]]}}
    assert set(sections["options"]["removed"]) == {o["id"] for o in base["options"]}
    text = format_diff(diff_compiled(base, other))
    for line in (
        "  float_percent: 60 -> 50",
        "  ~ 4: price 300 -> 320",
        "  + 8: distance 2, price 900, count 6",
        '  - B12: color "white"',
        "  ~ cell 0,0: 60y -> 60",
        '  - SV: name "Schuylkill Valley", value 20, revenue 5',
    ):
        assert line in text.splitlines(), (line, text)


def test_bonuses_ferries_limits_and_import_settings() -> None:
    """Sections the engine reads beyond the classic ones: 1833NE's bonuses and ferries, the
    certificate limit by corporations, and 1830's 18xx.games import settings (all were
    "no differences")."""
    ne, problems = load_compiled("1833ne", ROOT)
    assert problems == [] and ne is not None
    other = copy.deepcopy(ne)
    other["ferries"]["cost"] = 50
    other["bonuses"][0]["values"]["I"] = 160
    other["certificate_limit_by_corporations"]["3"]["5"] = 15
    diff = diff_compiled(ne, other)
    assert diff["same"] is False
    assert diff["sections"]["ferries"] == {"cost": [40, 50]}
    assert list(diff["sections"]["bonuses"]["changed"]) == ["BOS-MTL"]
    lines = format_diff(diff).splitlines()[1:]
    assert lines == [
        "title",
        "  certificate_limit_by_corporations.3.5: 14 -> 15",
        "bonuses",
        '  ~ BOS-MTL: values {"I": 150, "II": 150, "III": 200, "IV": 200, "V": 100} -> '
        '{"I": 160, "II": 150, "III": 200, "IV": 200, "V": 100}',
        "ferries",
        "  cost: 40 -> 50",
    ]
    base, _ = load_compiled("1830", ROOT)
    assert base is not None
    other = copy.deepcopy(base)
    other["import_18xx"]["options"].remove("bankrupt_sells_shares")
    diff = diff_compiled(base, other)
    assert list(diff["sections"]) == ["import_18xx"]
    assert diff["sections"]["import_18xx"]["options"][0][-1] == "bankrupt_sells_shares"


def test_every_top_level_table_is_compared_or_derived() -> None:
    """A field of the compiled format is in a section, or one of the derived tables: a new
    field cannot differ unseen (it would be compared whole, as ``other``)."""
    from eighteen.compiled import CompiledTitle
    from eighteen.title.diff import DERIVED_KEYS, IDENTITY_KEYS, SECTIONS

    handled = {*IDENTITY_KEYS, *DERIVED_KEYS, *SECTIONS}
    assert set(CompiledTitle.model_fields) - handled == set()


def test_order_change_is_reported(base: dict[str, Any]) -> None:
    other = copy.deepcopy(base)
    other["trains"][0], other["trains"][1] = other["trains"][1], other["trains"][0]
    diff = diff_compiled(base, other)
    assert diff["sections"]["trains"]["order"][1][:2] == ["3", "2"]
    assert "order: 2 3 4 5 6 D -> 3 2 4 5 6 D" in format_diff(diff)


def test_cli_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "1830", "1830-example"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("1830 1.5.0 (sha256:")
    assert "  ~ 4: price 300 -> 320" in text
    assert "  + J16: " in text
    assert main(["diff", "1830", "1830-example", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sections"]["trains"]["changed"] == {"4": {"price": [300, 320]}}
    assert "SV" in data["sections"]["privates"]["removed"]
    assert data["a"]["id"] == "1830" and data["b"]["id"] == "1830-example"


def test_cli_finds_ids_from_any_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Outside the project, ids are found where `eighteen titles` finds them; an added
    corporation shows how it starts (the Takeover game's variable homes)."""
    monkeypatch.chdir(tmp_path)
    assert main(["diff", "1833ne", "1833ne-takeover"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("1833ne 0.3.0 (sha256:")
    assert (
        '  + B&M: name "Boston & Maine", variable_home {"cost_untracked": 80, "cost": 120}, '
        'available_from "II", min_par 60, tokens [0, 80]'
    ) in lines


def test_cli_reads_compiled_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", str(ROOT / "generated" / "1830.json"), "1830"]) == 0
    out = capsys.readouterr().out
    assert "no differences" in out


def test_json_that_is_no_compiled_title_is_one_located_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save, an empty object, a list or tables of another format: each is refused as
    not a compiled title, naming the first wrong field (they were an internal error, or
    compared as if they were tables)."""
    monkeypatch.chdir(tmp_path)
    tables = json.loads((ROOT / "generated" / "1830.json").read_text())
    cases = {
        "empty.json": ({}, "format: Field required"),
        "list.json": (
            [],
            "the document: Input should be a valid dictionary or instance of CompiledTitle",
        ),
        "f99.json": ({**tables, "format": 99}, "format: Input should be 1"),
        "save.json": ({"format": 1, "title": "1830", "actions": []}, "id: Field required"),
    }
    for name, (data, why) in cases.items():
        (tmp_path / name).write_text(json.dumps(data))
        assert main(["diff", name, "1830"]) == 1
        out, err = capsys.readouterr()
        assert out == f"{name}:1:1: error[E002]: not a compiled title: {why}\n"
        assert err == "diff: cannot compare titles with errors (see above)\n"


def test_cli_unknown_title(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "1830", "no-such-title"]) == 1
    assert "E002" in capsys.readouterr().out


# ---------------------------------------------------------------------------------------
# saves


def _save(**over: str) -> dict[str, Any]:
    save = {"title": "1830", "version": "1.0.0", "hash": "sha256:" + "a" * 64, "actions": []}
    return {**save, **over}


@dataclass(frozen=True)
class Stamp:
    id: str
    version: str
    hash: str


TABLES = Stamp("1830", "1.0.0", "sha256:" + "a" * 64)


def test_matching_save_passes() -> None:
    assert check_save_title(_save(), TABLES) == []


def test_new_version_refused_naming_both() -> None:
    with pytest.raises(SaveTitleMismatch) as exc:
        check_save_title(_save(), replace(TABLES, version="1.1.0", hash="sha256:" + "b" * 64))
    message = str(exc.value)
    assert "1830 1.0.0 (sha256:aaaaaaaaaaaa)" in message
    assert "1830 1.1.0 (sha256:bbbbbbbbbbbb)" in message
    assert "--force" in message and "docs/variants.md" in message


def test_same_version_new_hash_refused() -> None:
    with pytest.raises(SaveTitleMismatch, match="same version, new hash"):
        check_save_title(_save(), replace(TABLES, hash="sha256:" + "c" * 64))


def test_other_title_refused() -> None:
    with pytest.raises(SaveTitleMismatch, match="a game of 1830, not of 1830-example"):
        check_save_title(_save(), replace(TABLES, id="1830-example"))


def test_a_save_without_version_or_hash_says_so() -> None:
    save = {"title": "1830", "actions": []}
    with pytest.raises(SaveTitleMismatch) as exc:
        check_save_title(save, TABLES)
    assert str(exc.value).startswith(
        "save made with 1830 no version (no hash), but the title is now 1830 1.0.0 "
        "(sha256:aaaaaaaaaaaa): the title has a new version since the game was saved."
    )


def test_force_turns_refusal_into_warning() -> None:
    """With --force the warning says the save was replayed anyway (it told the user to
    use --force, which he had)."""
    warnings = check_save_title(_save(version="0.9.0"), TABLES, True)
    assert warnings == [
        "save made with 1830 0.9.0 (sha256:aaaaaaaaaaaa), but the title is now 1830 1.0.0 "
        "(sha256:aaaaaaaaaaaa): the title has a new version since the game was saved. "
        "Replayed anyway (--force): it may fail or play out differently."
    ]


def test_replay_force_warns_under_its_own_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`replay --force`'s warning is `eighteen replay: warning:` (it was `eighteen:`), and
    an unknown argument after a command is that command's error."""
    save = tmp_path / "g.json"
    assert main(["play", "1830", "--players", "2", "--quiet", "--save", str(save)]) == 0
    data = json.loads(save.read_text())
    data["version"] = "0.9.0"
    save.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["replay", str(save), "--force"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("eighteen replay: warning: save made with 1830 0.9.0 (sha256:")
    assert err.endswith("Replayed anyway (--force): it may fail or play out differently.\n")
    assert main(["replay", str(save), "--bogus", "x"]) == 2
    assert capsys.readouterr().err == (
        "eighteen replay: error: unrecognized arguments: --bogus x (see `eighteen replay --help`)\n"
    )


def test_current_save_matches_generated_tables() -> None:
    """A save stamped from the compiled tables passes against the same tables."""
    data = json.loads((ROOT / "generated" / "1830.json").read_text())
    save = {"title": data["id"], "version": data["version"], "hash": data["hash"]}
    tables = load_title("1830")
    assert check_save_title(save, tables) == []
