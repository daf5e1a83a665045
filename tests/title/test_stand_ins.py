"""A schema error without a plain mend hides nothing else: the value gets a stand-in, the
file still builds its model and the checks across files still run; no check judges the
stand-in, so the schema error is the only report of it (sources.build_file, validation.mended)."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest

from eighteen.title.aggregate import MissingPart
from eighteen.title.compile import compile_title
from eighteen.title.pipeline import assemble, load_sources, load_title
from eighteen.title.sources import Sources
from eighteen.title.stand_ins import NoStandIn, _pattern_text
from eighteen.title.validation import Mended, mended

ROOT = Path(__file__).resolve().parents[2]


def broken(tmp_path: Path, edits: dict[str, list[tuple[str, str]]], title: str = "1830") -> Path:
    """A copy of titles/<title> (and the common tiles) with text replaced, file by file."""
    titles = tmp_path / "titles"
    shutil.copytree(ROOT / "titles" / "common", titles / "common")
    target = titles / title
    shutil.copytree(ROOT / "titles" / title, target)
    for name, pairs in edits.items():
        text = (target / name).read_text()
        for old, new in pairs:
            assert text.count(old) == 1, (name, old)
            text = text.replace(old, new)
        (target / name).write_text(text)
    return target


def shown(target: Path) -> list[str]:
    """Every problem of the title folder, formatted, from the file name on, sorted."""
    title, problems = load_title(target)
    assert title is None  # a title built from stand-ins is never compiled
    return sorted(p.format().split(f"titles/{target.name}/", 1)[1] for p in problems)


BANK = 'title.toml:13:8: error[E010]: bank: expected an integer, got string "lots"'


def test_a_string_for_the_bank_hides_no_missing_starting_cash(tmp_path: Path) -> None:
    target = broken(
        tmp_path, {"title.toml": [("bank = 12000", 'bank = "lots"'), ('"5" = 480\n', "")]}
    )
    assert shown(target) == [
        BANK,
        "title.toml:16:1: error[E152]: starting_cash: starting cash missing for 5 players",
    ]


@pytest.mark.parametrize(
    ("name", "old", "new", "expected"),
    [
        ("title.toml", "bank = 12000", 'bank = "lots"', BANK),
        # a stand-in max (1) would be below min (E151), and no count between them has
        # starting cash (E152, E153): the checks that read it are skipped
        (
            "title.toml",
            "max = 6",
            'max = "x"',
            'title.toml:9:28: error[E010]: players.max: expected an integer, got string "x"',
        ),
        (
            "title.toml",
            "players = { min = 2, max = 6 }",
            "players = 6",
            "title.toml:9:11: error[E010]: players: expected a table, got integer 6",
        ),
        # a stand-in colour (white) would make the off-board a non-red hex (E103)
        (
            "map.toml",
            'at = "A9"\ncolor = "red"',
            'at = "A9"\ncolor = 5',
            "map.toml:305:9: error[E010]: hexes[44].color: expected a string, got integer 5",
        ),
        (
            "trains.toml",
            "count = 6",
            "count = -6",
            "trains.toml:11:9: error[E013]: trains[0].count: -6 is below the minimum 0",
        ),
    ],
)
def test_a_stand_in_adds_no_finding_of_its_own(
    tmp_path: Path, name: str, old: str, new: str, expected: str
) -> None:
    """The real 1830 with one unmendable error reports that error and nothing else."""
    assert shown(broken(tmp_path, {name: [(old, new)]})) == [expected]


def test_a_wrong_train_count_hides_no_unknown_train_of_a_phase(tmp_path: Path) -> None:
    """phases.toml's check of its trains needs the model of trains.toml."""
    target = broken(
        tmp_path,
        {"trains.toml": [("count = 6", 'count = "x"')], "phases.toml": [('on = "3"', 'on = "9"')]},
    )
    assert shown(target) == [
        "phases.toml:21:6: error[E130]: phases[1].on: unknown train '9'",
        'trains.toml:11:9: error[E010]: trains[0].count: expected an integer or "unlimited", '
        'got string "x"',
    ]


def test_wrong_tokens_hide_no_unknown_corporation_of_a_private(tmp_path: Path) -> None:
    """privates.toml's check of the corporations it names needs corporations.toml."""
    target = broken(
        tmp_path,
        {
            "corporations.toml": [("# Altoona\ntokens = [0, 40, 100, 100]", '\ntokens = "x"')],
            "privates.toml": [('corporation = "B&O"\npresident', 'corporation = "BNO"\npresident')],
        },
    )
    assert shown(target) == [
        "corporations.toml:10:10: error[E010]: corporations[0].tokens: expected an array, got "
        'string "x"',
        "privates.toml:109:15: error[E162]: privates[5].abilities[1].corporation: unknown "
        "corporation 'BNO'",
    ]


def test_an_overlay_gets_stand_ins_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An overlay's merged data goes the same way: its own wrong bank hides no starting cash
    it removed from the base."""
    monkeypatch.chdir(tmp_path)  # the note names the base file relative to here
    broken(tmp_path, {})
    target = tmp_path / "titles" / "var"
    target.mkdir()
    (target / "title.toml").write_text(
        "#:schema ../../schema/overlay/title.schema.json\n"
        'extends = "1830"\nid = "var"\nname = "A variant"\nversion = "0.1.0"\n'
        'bank = "lots"\n\n[remove]\nstarting_cash = ["5"]\n'
    )
    assert shown(target) == [
        "title.toml:2:11: error[E152]: starting_cash: starting cash missing for 5 players "
        "(inherited from titles/1830/title.toml:16:1)",
        'title.toml:6:8: error[E010]: bank: expected an integer, got string "lots"',
    ]


# ---------------------------------------------------------------------------------------
# the stand-ins themselves


def trains() -> dict[str, Any]:
    return tomllib.loads((ROOT / "titles" / "1830" / "trains.toml").read_text())


def test_a_required_value_stands_in_as_the_least_its_schema_allows() -> None:
    data = tomllib.loads((ROOT / "titles" / "1830" / "title.toml").read_text())
    data["bank"] = "lots"
    fixed = mended("title", data)
    assert fixed is not None
    assert (fixed.data["bank"], fixed.stand_ins) == (1, (("bank",),))
    assert data["bank"] == "lots"  # the loaded data is left as read


def test_a_mend_that_shows_another_error_gets_a_stand_in_next_round() -> None:
    """Unquoted, "-480" is below the minimum: the map entry stands in as the least, $1."""
    data = tomllib.loads((ROOT / "titles" / "1830" / "title.toml").read_text())
    data["starting_cash"]["5"] = "-480"
    fixed = mended("title", data)
    assert fixed is not None
    assert (fixed.data["starting_cash"], fixed.stand_ins) == (
        {"2": 1200, "3": 800, "4": 600, "5": 1, "6": 400},
        (("starting_cash", "5"),),
    )


def test_an_optional_value_is_dropped_and_a_missing_key_filled() -> None:
    data = trains()
    data["trains"][0]["rusts_on"] = 4
    del data["trains"][1]["price"]
    fixed = mended("trains", data)
    assert fixed is not None
    assert "rusts_on" not in fixed.data["trains"][0]
    assert fixed.data["trains"][1]["price"] == 0
    assert sorted(fixed.stand_ins) == [("trains", 0, "rusts_on"), ("trains", 1, "price")]


def test_an_id_stands_in_as_the_plainest_text_of_its_pattern() -> None:
    """No check judges a stand-in, so a made-up id need not be one a phase names."""
    data = trains()
    data["trains"][0]["id"] = 2
    fixed = mended("trains", data)
    assert fixed is not None
    assert (fixed.data["trains"][0]["id"], fixed.stand_ins) == ("A", (("trains", 0, "id"),))


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        ("^[A-Z]{1,2}[0-9]{1,3}$", "A0"),  # a hex
        ("^[A-Za-z0-9&+/_.-]+$", "A"),  # an id
        ("^#[0-9A-Fa-f]{6}$", "#000000"),  # a colour
        ("^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "0000-00-00"),  # a day
        ("^[a-z0-9_]{1,40}$", "a"),
        ("^\\d+\\.\\d+\\.\\d+$", "0.0.0"),  # a version
        ("^$|^[0-9]+[a-z]*$", ""),  # the first alternative
        ("^x?y*z$", "z"),
        ("^.{3}$", "aaa"),
    ],
)
def test_the_plainest_text_of_a_pattern(pattern: str, text: str) -> None:
    assert _pattern_text(pattern) == text


@pytest.mark.parametrize("pattern", ["^(ab)+$", "^(a)|b$", "^[^a]$", "^\\s$", "^a{x}$"])
def test_no_text_is_made_up_for_a_richer_pattern(pattern: str) -> None:
    with pytest.raises(NoStandIn):
        _pattern_text(pattern)


def test_an_id_off_its_pattern_hides_no_unknown_home_of_another_corporation(
    tmp_path: Path,
) -> None:
    """corporations.toml still builds its model: the check of the homes runs."""
    target = broken(
        tmp_path,
        {"corporations.toml": [('id = "PRR"', 'id = "P R R"'), ('home = "E19"', 'home = "Z99"')]},
    )
    assert shown(target) == [
        "corporations.toml:16:8: error[E141]: corporations[1].home: no hex Z99 on the map",
        'corporations.toml:7:6: error[E015]: corporations[0].id: "P R R" does not match the '
        "pattern ^[A-Za-z0-9&+/_.-]+$ (Short name, e.g. PRR)",
    ]


def test_plain_mends_are_no_stand_ins() -> None:
    data = trains()
    data["trains"][0]["price"] = "80"
    assert mended("trains", data) == Mended(trains(), ())


def test_problems_at_or_under_a_stand_in_are_knock_ons() -> None:
    sources = Sources(stand_ins={"title": {("players",)}})
    at = sources.locate("title", ("players",), "E151", "x")
    under = sources.locate("title", ("players", "min"), "E151", "y")
    beside = sources.locate("title", ("players_x",), "E151", "z")
    other = sources.locate("map", ("players",), "E101", "w")
    assert sources.shown([at, under, beside, other]) == [beside, other]


def test_reading_a_stand_in_skips_the_check_and_no_compile_sees_it(tmp_path: Path) -> None:
    """The model holds the stand-in, but reading it raises MissingPart (as a file that did
    not load does), and so does compiling the title (the checks that compile are skipped):
    the data, and so the dump, are kept."""
    target = broken(tmp_path, {"trains.toml": [("count = 6", "count = -6")]})
    sources, models, _ = load_sources(target)
    train = models["trains"].trains[0]  # type: ignore[attr-defined]
    with pytest.raises(MissingPart):
        _ = train.count
    assert (train.id, train.price, train.model_dump()["count"]) == ("2", 80, 0)
    assert models["trains"].trains[1].count == 5  # type: ignore[attr-defined]
    title = assemble(target, sources, models)
    assert title is not None and title.stand_ins == {"trains"}
    with pytest.raises(MissingPart):
        compile_title(title)


def test_a_misspelt_tag_is_mended_to_the_tag_it_is_close_to(tmp_path: Path) -> None:
    # the table is read as the bankruptcy it evidently is: no stand-in for the whole table,
    # and the checks across files still run (E152)
    target = broken(
        tmp_path,
        {
            "title.toml": [
                (
                    'bankruptcy = { kind = "game_ends", sells_shares = false }',
                    'bankruptcy = { kind = "game_endz", sells_shares = false }',
                ),
                ('"5" = 480\n', ""),
            ]
        },
    )
    data = tomllib.loads((target / "title.toml").read_text())
    got = mended("title", data)
    assert got is not None and got.stand_ins == ()
    assert got.data["rules"]["bankruptcy"]["kind"] == "game_ends"
    assert shown(target) == [
        "title.toml:16:1: error[E152]: starting_cash: starting cash missing for 5 players",
        "title.toml:213:23: error[E014]: rules.bankruptcy.kind: unknown bankruptcy kind "
        '"game_endz"; expected one of: "game_ends", "player_eliminated"; did you mean '
        '"game_ends"?',
    ]
