"""Overlay titles (`extends`): merging, located problems, `eighteen new`, the example."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from eighteen.cli import main
from eighteen.commands.authoring import cmd_new
from eighteen.title.compile import compile_title, to_json
from eighteen.title.pipeline import load_title

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLE = "1830-example"


@pytest.fixture
def titles(tmp_path: Path) -> Path:
    """A titles/ folder holding copies of 1830 and the common tile library."""
    out = tmp_path / "titles"
    shutil.copytree(ROOT / "titles" / "1830", out / "1830")
    shutil.copytree(ROOT / "titles" / "common", out / "common")
    return out


def overlay(titles: Path, files: dict[str, str], name: str = "var", base: str = "1830") -> Path:
    """Write titles/<name>/ as an overlay of ``base`` with extra ``files`` (kind -> body)."""
    target = titles / name
    target.mkdir()
    head = f'extends = "{base}"\nid = "{name}"\nname = "A variant"\nversion = "0.1.0"\n'
    files = {
        "title": head + files.get("title", ""),
        **{k: v for k, v in files.items() if k != "title"},
    }
    for kind, body in files.items():
        text = f"#:schema ../../schema/{kind}.schema.json\n{body}"
        (target / f"{kind}.toml").write_text(text, encoding="utf-8")
    return target


def compiled(path: Path) -> dict[str, Any]:
    """Load and compile a title that must have no problems at all."""
    title, problems = load_title(path)
    assert [p.format() for p in problems] == []
    assert title is not None
    return compile_title(title)


def problems_of(path: Path) -> list[str]:
    """Every problem as ``file:line:col CODE message`` with the file's name only."""
    _, problems = load_title(path)
    return sorted(f"{Path(p.file).name}:{p.line}:{p.col} {p.code} {p.message}" for p in problems)


def line_of(path: Path, needle: str) -> int:
    """1-based number of the first line of ``path`` containing ``needle``."""
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if needle in line:
            return n
    raise AssertionError(f"{needle!r} not in {path}")


# ---------------------------------------------------------------------------------------
# merging


def test_title_toml_alone_inherits_everything(titles: Path) -> None:
    base = compiled(titles / "1830")
    var = compiled(overlay(titles, {}))
    for key in ("id", "name", "version", "hash"):
        assert var.pop(key) != base.pop(key)
    assert var == base


def test_tables_merge_by_key(titles: Path) -> None:
    var = compiled(overlay(titles, {"title": "[rules]\nfloat_percent = 50\n"}))
    base = compiled(titles / "1830")
    assert var["rules"]["float_percent"] == 50
    assert {k: v for k, v in var["rules"].items() if k != "float_percent"} == {
        k: v for k, v in base["rules"].items() if k != "float_percent"
    }
    assert var["starting_cash"] == base["starting_cash"]


def test_entries_add_replace_remove(titles: Path) -> None:
    trains = """
[[trains]]
id = "3"
rusts_on = "D"  # the 6 that rusted it is gone

[[trains]]
id = "4"
price = 320

[[trains]]
id = "D"
available_on = "5"
trade_in = { trains = ["4", "5"], discount = 300 }

[[trains]]
id = "8"
distance = 8
price = 900
count = 1
available_on = "D"  # (after the unlimited D: for sale once phase D begins, E127)

[remove]
trains = ["6"]
"""
    phases = '[remove]\nphases = ["6"]\n'
    title = '\n[remove]\noptions = ["optional_6_train"]\n'
    var = compiled(overlay(titles, {"title": title, "trains": trains, "phases": phases}))
    by_id = {t["id"]: t for t in var["trains"]}
    assert [t["id"] for t in var["trains"]] == ["2", "3", "4", "5", "D", "8"]
    assert by_id["4"]["price"] == 320 and by_id["4"]["distance"] == 4 and by_id["4"]["count"] == 4
    assert by_id["4"]["rusts_on"] == "D"
    assert by_id["8"]["price"] == 900
    assert by_id["D"]["price"] == 1100 and by_id["D"]["available_on"] == "5"
    assert by_id["D"]["trade_in"] == {"trains": ["4", "5"], "discount": 300}
    assert [p["id"] for p in var["phases"]] == ["2", "3", "4", "5", "D"]


def test_remove_then_add_replaces_whole_and_moves_last(titles: Path) -> None:
    privates = """
[remove]
privates = ["SV"]

[[privates]]
id = "SV"
name = "Schuylkill Valley"
value = 25
revenue = 5
"""
    var = compiled(overlay(titles, {"privates": privates}))
    assert var["privates"][-1] == {
        "id": "SV",
        "name": "Schuylkill Valley",
        "value": 25,
        "revenue": 5,
        "abilities": [],
        "closes_on": None,
        "flips_on": None,
    }
    assert [p["id"] for p in var["privates"]][0] == "CS"


def test_hexes_merge_by_coordinate(titles: Path) -> None:
    map_ = """
[[hexes]]
at = "B14"
terrain = "hill"
cost = 40

[[hexes]]
at = "F4"
cost = 40

[[hexes]]
at = "J16"
name = "Dover"
towns = [{ revenue = 0 }]

[remove]
hexes = ["H6", "C9"]
"""
    path = overlay(titles, {"map": map_})
    var = compiled(path)
    base = compiled(titles / "1830")
    assert var["hexes"]["B14"]["cost"] == 40 and var["hexes"]["B14"]["terrain"] == "hill"
    assert var["hexes"]["B12"] == base["hexes"]["B12"]  # the rest of B14's group is untouched
    assert var["hexes"]["F4"]["name"] == "Toledo" and var["hexes"]["F4"]["terrain"] == "water"
    assert var["hexes"]["F4"]["cost"] == 40
    assert var["hexes"]["J16"]["towns"] == [{"revenue": 0, "exits": []}]
    assert "H6" not in var["hexes"] and "C9" not in var["hexes"]
    assert set(var["hexes"]) == set(base["hexes"]) - {"H6", "C9"} | {"J16"}


def test_table_keys_removed(titles: Path) -> None:
    var = compiled(
        overlay(titles, {"tiles": '[remove]\nmanifest = ["69"]\n\n[manifest]\n"57" = 6\n'})
    )
    assert "69" not in var["tiles"]
    assert var["tiles"]["57"]["count"] == 6
    assert var["tiles"]["7"]["count"] == 4


def test_chain_of_overlays(titles: Path) -> None:
    overlay(titles, {"trains": '[[trains]]\nid = "4"\nprice = 320\n'}, name="mid")
    var = compiled(overlay(titles, {"trains": '[[trains]]\nid = "5"\nprice = 500\n'}, base="mid"))
    prices = {t["id"]: t["price"] for t in var["trains"]}
    assert prices["4"] == 320 and prices["5"] == 500 and prices["2"] == 80


def test_hash_covers_the_base_data_not_its_comments(titles: Path) -> None:
    path = overlay(titles, {})
    before = compiled(path)["hash"]
    trains = titles / "1830" / "trains.toml"
    text = trains.read_text()
    trains.write_text(text + "\n# a comment\n")
    assert compiled(path)["hash"] == before
    trains.write_text(text.replace("price = 80", "price = 85", 1))
    assert compiled(path)["hash"] != before


def test_compiled_overlay_is_self_contained(titles: Path) -> None:
    text = to_json(compiled(overlay(titles, {"title": "[rules]\nfloat_percent = 50\n"})))
    assert "extends" not in text and '"1830"' not in text


# ---------------------------------------------------------------------------------------
# problems


def test_error_in_overlay_points_at_overlay(titles: Path) -> None:
    path = overlay(titles, {"trains": '[[trains]]\nid = "4"\nprice = "320"\n'})
    line = line_of(path / "trains.toml", 'price = "320"')
    assert problems_of(path) == [
        f'trains.toml:{line}:9 E010 expected an integer, got string "320" (remove the quotes)'
    ]
    _, problems = load_title(path)
    assert Path(problems[0].file).parts[-2:] == ("var", "trains.toml")


def test_check_error_in_overlay_points_at_overlay(titles: Path) -> None:
    path = overlay(titles, {"corporations": '[[corporations]]\nid = "PRR"\nhome = "A1"\n'})
    line = line_of(path / "corporations.toml", 'home = "A1"')
    assert problems_of(path) == [f"corporations.toml:{line}:8 E141 no hex A1 on the map"]


def test_error_after_merging_names_both_places(titles: Path) -> None:
    """Removing the D breaks 1830's 4-train (merged here) and phase D (inherited)."""
    trains = '[[trains]]\nid = "4"\nprice = 320\n\n[remove]\ntrains = ["D"]\n'
    path = overlay(titles, {"trains": trains})
    base = titles / "1830"
    entry = line_of(path / "trains.toml", "[[trains]]")
    rusts = line_of(base / "trains.toml", 'rusts_on = "D"')
    on_d = line_of(base / "phases.toml", 'on = "D"')
    extends = line_of(path / "title.toml", "extends")
    shown = re.escape(str(Path("titles") / "1830"))
    found = problems_of(path)
    assert len(found) == 2, found
    merged, inherited = sorted(found, key=lambda x: not x.startswith("trains"))
    assert re.fullmatch(
        rf"trains\.toml:{entry}:1 E122 unknown train 'D' \(merged from .*{shown}/trains\.toml:{rusts}:12\)",
        merged,
    ), merged
    assert re.fullmatch(
        rf"title\.toml:{extends}:11 E130 unknown train 'D' \(inherited from .*{shown}/phases\.toml:{on_d}:6\)",
        inherited,
    ), inherited


def test_remove_of_unknown_entry(titles: Path) -> None:
    path = overlay(titles, {"trains": '[remove]\ntrains = ["8"]\n'})
    assert problems_of(path) == ["trains.toml:3:11 E182 the base has no entry '8' in 'trains'"]


def test_syntax_error_in_overlay(titles: Path) -> None:
    path = overlay(titles, {"map": "[[hexes]]\nat = \n"})
    assert [p.split(" ")[0:2] for p in problems_of(path)] == [["map.toml:3:6", "E001"]]


def test_unknown_key_in_overlay_entry(titles: Path) -> None:
    path = overlay(titles, {"privates": '[[privates]]\nid = "SV"\nrevenu = 10\n'})
    assert problems_of(path) == [
        "privates.toml:4:1 E011 unknown key 'revenu'; did you mean 'revenue'?"
    ]


def test_new_entry_missing_keys_is_located(titles: Path) -> None:
    path = overlay(titles, {"trains": '[[trains]]\nid = "8"\nprice = 900\navailable_on = "D"\n'})
    assert problems_of(path) == ["trains.toml:2:1 E012 missing keys 'distance', 'count'"]


def test_unknown_base_and_cycle(titles: Path) -> None:
    path = overlay(titles, {}, base="1380")
    assert problems_of(path) == [
        "title.toml:2:11 E180 unknown base title '1380' (no titles/1380/); did you mean '1830'?"
    ]
    overlay(titles, {}, name="a", base="b")
    overlay(titles, {}, name="b", base="a")
    assert problems_of(titles / "a") == [
        "title.toml:2:11 E181 'extends' makes a cycle: a -> b -> a"
    ]


def test_remove_problems(titles: Path) -> None:
    path = overlay(
        titles,
        {
            "privates": '[remove]\nprivates = ["D&H"]\nnothing = ["x"]\n',
            "map": '[remove]\nlayout = ["pointy"]\n',
            "market": "remove = 3\n",
        },
    )
    assert problems_of(path) == [
        "map.toml:3:1 E183 'layout' is not a table or an array of tables: give its new value instead",
        "market.toml:2:10 E183 'remove' must be a table: [remove] <key> = [names...]",
        "privates.toml:3:13 E182 the base has no entry 'D&H' in 'privates'; did you mean 'DH'?",
        "privates.toml:4:1 E182 the base has no 'nothing' to remove from",
    ]


def test_overlay_without_schema_line_warns(titles: Path) -> None:
    path = overlay(titles, {})
    (path / "trains.toml").write_text('[[trains]]\nid = "4"\nprice = 320\n')
    assert [p.split(" ")[1] for p in problems_of(path)] == ["W016"]
    _, problems = load_title(path)
    assert [p.message for p in problems] == [
        "first line should be '#:schema ../../schema/overlay/trains.schema.json' so editors "
        "can check and complete this file"
    ]


def test_validate_cli_on_overlay(titles: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = overlay(titles, {"trains": '[remove]\ntrains = ["D"]\n'})
    assert main(["validate", str(path), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    files = {Path(p["file"]).name for p in report["problems"]}
    assert files == {"title.toml"}
    assert all("inherited from" in p["message"] for p in report["problems"])


# ---------------------------------------------------------------------------------------
# eighteen new


def test_new_scaffold_validates(titles: Path) -> None:
    assert cmd_new("my-1830", "1830", str(titles)) == 0
    target = titles / "my-1830"
    assert sorted(p.name for p in target.iterdir()) == [
        "map.toml",
        "privates.toml",
        "title.toml",
        "trains.toml",
    ]
    assert problems_of(target) == []
    text = (target / "trains.toml").read_text() + (target / "map.toml").read_text()
    assert "# [[trains]]" in text and "# [[hexes]]" in text
    assert "# [remove]" in (target / "privates.toml").read_text()


def test_new_scaffold_examples_validate_when_uncommented(titles: Path) -> None:
    assert cmd_new("my-1830", "1830", str(titles)) == 0
    target = titles / "my-1830"
    for f in target.iterdir():
        text = re.sub(r"(?m)^# (\[|[a-z_]+ = )", r"\1", f.read_text())
        f.write_text(text)
    assert problems_of(target) == []
    var = compiled(target)
    assert {t["id"]: t["price"] for t in var["trains"]}["2"] == 100
    assert var["hexes"]["F4"]["cost"] == 40 and "A1" in var["hexes"] and "J8" not in var["hexes"]
    assert [p["id"] for p in var["privates"]][-1] == "CA"
    assert var["rules"]["float_percent"] == 50


def test_new_refuses_bad_names(titles: Path) -> None:
    assert cmd_new("bad name", "1830", str(titles)) == 1
    assert cmd_new("common", "1830", str(titles)) == 1
    assert cmd_new("x" * 17, "1830", str(titles)) == 1
    assert cmd_new("ok", "nope", str(titles)) == 1
    assert cmd_new("1830", "1830", str(titles)) == 1
    assert not (titles / "ok").exists()


def test_new_from_an_overlay(titles: Path) -> None:
    overlay(titles, {"trains": '[[trains]]\nid = "4"\nprice = 320\n'}, name="mid")
    assert cmd_new("leaf", "mid", str(titles)) == 0
    assert problems_of(titles / "leaf") == []
    assert "# price = 100  # mid: 80" in (titles / "leaf" / "trains.toml").read_text()


# ---------------------------------------------------------------------------------------
# the example variant in titles/


def test_example_variant() -> None:
    path = ROOT / "titles" / EXAMPLE
    var = compiled(path)
    base = compiled(ROOT / "titles" / "1830")
    prices = {t["id"]: t["price"] for t in var["trains"]}
    assert prices == {**{t["id"]: t["price"] for t in base["trains"]}, "4": 320}
    assert "J16" in var["hexes"] and "J16" not in base["hexes"]
    assert var["hexes"]["F16"]["cost"] == 80 and var["hexes"]["F16"]["name"] == "Scranton"
    assert "SV" not in [p["id"] for p in var["privates"]]
    assert "not an official title" in var["name"]
    generated = ROOT / "generated" / f"{EXAMPLE}.json"
    assert json.loads(generated.read_text())["id"] == EXAMPLE
