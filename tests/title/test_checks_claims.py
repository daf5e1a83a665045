"""docs/checks.md, claim by claim: every code it documents, and what it says of validation,
asserted as the exact reported line (file:line:col, severity, code, path and message).

Codes with an exact-line test elsewhere are not repeated here: E001 (unterminated string),
E010, E011, E014, E101, E110, E130, E140, E141, E151, E170 (test_every_mistake.py); E013,
E015, E152, E162 (test_stand_ins.py); E165 (test_fuzz_playable.py); E002 (no such title
folder) and E150 (test_bench.py). Each broken title is a real title of titles/ copied into
tmp_path with one thing edited (test_stand_ins.broken).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_cli import run
from title.test_stand_ins import ROOT, broken, shown

from eighteen.capabilities import IMPLEMENTED
from eighteen.title.aggregate import Title
from eighteen.title.checks import registry
from eighteen.title.pipeline import load_title
from eighteen.title.problems import Problem
from eighteen.title.sources import Sources, display_path

Edits = dict[str, list[tuple[str, str]]]


def found(target: Path) -> list[str]:
    """Every problem of the title folder, formatted from the file name on, sorted; unlike
    ``shown`` also for a title that still builds (cross-reference errors, warnings)."""
    _, problems = load_title(target)
    return sorted(p.format().split(f"titles/{target.name}/", 1)[1] for p in problems)


def beside(tmp_path: Path, base: str, name: str, files: dict[str, str]) -> Path:
    """titles/<base> (a real title) and titles/<name>: the real overlay of that name with
    text replaced, or else a new folder holding ``files`` (name -> whole text)."""
    broken(tmp_path, {}, base)
    target = tmp_path / "titles" / name
    if (ROOT / "titles" / name).is_dir():
        shutil.copytree(ROOT / "titles" / name, target)
    else:
        target.mkdir()
    for file, text in files.items():
        (target / file).write_text(text)
    return target


def edited(target: Path, edits: Edits) -> Path:
    for name, pairs in edits.items():
        text = (target / name).read_text()
        for old, new in pairs:
            assert text.count(old) == 1, (name, old)
            text = text.replace(old, new)
        (target / name).write_text(text)
    return target


# ---------------------------------------------------------------------------------------
# Reading files (E0xx)


def test_e001_a_key_written_twice_is_said_in_words_at_the_repeated_key(tmp_path: Path) -> None:
    """docs/checks.md, E001: a TOML syntax error said in words ("key 'a' is written
    twice") at its cause (the repeated key)."""
    target = broken(tmp_path, {"trains.toml": [("price = 80\n", "price = 80\nprice = 90\n")]})
    assert shown(target) == [
        "trains.toml:11:1: error[E001]: TOML syntax error: key 'price' is written twice "
        "(each key once per table)"
    ]


def test_e002_a_missing_or_unreadable_file(tmp_path: Path) -> None:
    """docs/checks.md, E002: file missing or unreadable."""
    target = broken(tmp_path, {})
    (target / "privates.toml").unlink()
    assert shown(target) == ["privates.toml:1:1: error[E002]: file not found"]
    (target / "privates.toml").mkdir()
    assert shown(target) == ["privates.toml:1:1: error[E002]: cannot read file: it is a directory"]


def test_e003_at_the_first_bad_byte(tmp_path: Path) -> None:
    """docs/checks.md, E003: file is not UTF-8 text (position of the first bad byte)."""
    target = broken(tmp_path, {})
    trains = target / "trains.toml"
    trains.write_bytes(trains.read_bytes().replace(b"price = 180", b"price = 180 # \xff\xfe"))
    assert shown(target) == [
        "trains.toml:17:15: error[E003]: file is not valid UTF-8: byte 0xff (invalid start byte)"
    ]


DEEP = "nest = " + "[" * 65 + "]" * 65
DOTTED = ".".join(["x"] * 65) + " = 1"


@pytest.mark.parametrize(
    ("name", "old", "new", "expected"),
    [
        (
            "privates.toml",
            'name = "Schuylkill Valley"',
            'name = "' + "S" * 10_001 + '"',
            "privates.toml:11:8: error[E004]: a string is longer than 10,000 characters",
        ),
        (
            "title.toml",
            "bank = 12000",
            "bank = 12000\n" + DEEP,
            "title.toml:14:72: error[E004]: nested deeper than 64 levels",
        ),
        (
            "title.toml",
            "bank = 12000",
            "bank = 12000\n" + DOTTED,
            "title.toml:14:129: error[E004]: a dotted key has more than 64 parts",
        ),
        # found before parsing: the syntax error after the long string is not reached
        (
            "privates.toml",
            'name = "Schuylkill Valley"\nvalue = 20',
            'name = "' + "S" * 10_001 + '"\nvalue = "20',
            "privates.toml:11:8: error[E004]: a string is longer than 10,000 characters",
        ),
    ],
    ids=["long-string", "too-deep", "dotted-key", "before-parsing"],
)
def test_e004_input_beyond_the_readers_limits(
    tmp_path: Path, name: str, old: str, new: str, expected: str
) -> None:
    """docs/checks.md, E004: input beyond the reader's limits, found before parsing: nesting
    deeper than 64, a dotted key of more than 64 parts, a string longer than 10,000."""
    assert shown(broken(tmp_path, {name: [(old, new)]})) == [expected]


def test_e004_a_file_over_1_mb(tmp_path: Path) -> None:
    """docs/checks.md, E004: a file over 1 MB."""
    target = broken(tmp_path, {})
    trains = target / "trains.toml"
    trains.write_text(trains.read_text() + "# " + "x" * 1_048_576 + "\n")
    assert shown(target) == ["trains.toml:1:1: error[E004]: file is larger than 1 MB"]


def test_e004_the_limits_themselves_are_allowed(tmp_path: Path) -> None:
    """docs/checks.md, E004: "deeper than 64", "more than 64 parts", "longer than 10,000":
    at the limits the reader takes the file (the schema then speaks of the unknown keys)."""
    target = broken(
        tmp_path,
        {
            "privates.toml": [('name = "Schuylkill Valley"', 'name = "' + "S" * 10_000 + '"')],
            "title.toml": [
                (
                    "bank = 12000",
                    "bank = 12000\nnest = "
                    + "[" * 64
                    + "]" * 64
                    + "\n"
                    + ".".join(["x"] * 64)
                    + " = 1",
                )
            ],
        },
    )
    allowed = (
        "allowed keys: extends, id, name, designers, version, players, bank, starting_cash, "
        "certificate_limit, options, rules, certificate_limit_by_corporations, import_18xx"
    )
    assert shown(target) == [
        f"title.toml:14:1: error[E011]: nest: unknown key 'nest'; {allowed}",
        f"title.toml:15:1: error[E011]: x: unknown key 'x'; {allowed}",
    ]


# ---------------------------------------------------------------------------------------
# Schema (E010-E015, W016)


def test_e010_takes_integers_strictly(tmp_path: Path) -> None:
    """docs/checks.md, Schema: "E010 takes TOML's integers strictly: `80.0` is a float, not
    the integer 80"."""
    target = broken(tmp_path, {"trains.toml": [("price = 80", "price = 80.0")]})
    assert shown(target) == [
        "trains.toml:10:9: error[E010]: trains[0].price: expected an integer, got float 80.0"
    ]


def test_e012_a_required_key_missing(tmp_path: Path) -> None:
    """docs/checks.md, E012: required key missing."""
    target = broken(tmp_path, {"corporations.toml": [('color = "#32763f"\n', "")]})
    assert shown(target) == [
        "corporations.toml:6:1: error[E012]: corporations[0]: missing key 'color'"
    ]


def test_e012_a_corporations_home_unless_it_has_variable_home(tmp_path: Path) -> None:
    """docs/checks.md, E012: a corporation's `home` is required, unless it has
    `variable_home` (the takeover game's corporations have none, and validate clean)."""
    target = broken(tmp_path, {"corporations.toml": [('home = "H12"  # Altoona\n', "")]})
    assert found(target) == [
        "corporations.toml:6:1: error[E012]: corporations[0]: missing key 'home' (or variable_home)"
    ]
    takeover = beside(tmp_path / "v", "1833ne", "1833ne-takeover", {})
    assert "\nhome = " not in (takeover / "corporations.toml").read_text()
    assert found(takeover) == []


@pytest.mark.parametrize(
    ("name", "old", "new", "expected"),
    [
        (
            "title.toml",
            "bank = 12000",
            "bank = 0",
            "title.toml:13:8: error[E013]: bank: 0 is below the minimum 1",
        ),
        (
            "title.toml",
            "bank = 12000",
            "bank = 1000000001",
            "title.toml:13:8: error[E013]: bank: 1000000001 is above the maximum 1000000000",
        ),
        (
            "title.toml",
            '"2" = 1200',
            '"2" = 0',
            "title.toml:17:7: error[E013]: starting_cash.2: 0 is below the minimum 1",
        ),
        (
            "trains.toml",
            "count = 6",
            "count = 1001",
            "trains.toml:11:9: error[E013]: trains[0].count: 1001 is above the maximum 1000",
        ),
        (
            "trains.toml",
            "distance = 2",
            "distance = 0",
            "trains.toml:9:12: error[E013]: trains[0].distance: 0 is below the minimum 1",
        ),
        (
            "phases.toml",
            'train_limit = 4\noffboard_revenue = "yellow"\nprivates_buyable = false',
            'train_limit = 0\noffboard_revenue = "yellow"\nprivates_buyable = false',
            "phases.toml:15:15: error[E013]: phases[0].train_limit: 0 is below the minimum 1",
        ),
        (
            "privates.toml",
            "value = 20",
            "value = 0",
            "privates.toml:12:9: error[E013]: privates[0].value: 0 is below the minimum 1",
        ),
        (
            "trains.toml",
            "price = 80",
            "price = 12345678901234567890",
            "trains.toml:10:9: error[E013]: integer of 20 digits is out of range (64 bits)",
        ),
    ],
    ids=[
        "bank-at-least-1",
        "money-at-most-1e9",
        "starting-cash-at-least-1",
        "count-at-most-1000",
        "distance-at-least-1",
        "limit-at-least-1",
        "private-value-at-least-1",
        "more-than-19-digits",
    ],
)
def test_e013_number_out_of_range(
    tmp_path: Path, name: str, old: str, new: str, expected: str
) -> None:
    """docs/checks.md, E013: money $0 to $1,000,000,000, the bank and starting cash at least
    $1, counts 0 to 1,000, limits and distances 1 to 1,000, a private's value at least $1;
    an integer of more than 19 digits is refused by the reader, located."""
    assert shown(broken(tmp_path, {name: [(old, new)]})) == [expected]


def _numbers_without_bounds(node: object, path: str) -> Iterator[str]:
    if isinstance(node, dict):
        kinds = node.get("type")
        kinds = kinds if isinstance(kinds, list) else [kinds]
        if "integer" in kinds or "number" in kinds:
            low = "minimum" in node or "exclusiveMinimum" in node
            high = "maximum" in node or "exclusiveMaximum" in node
            if not (low and high):
                yield path
        for key, value in node.items():
            yield from _numbers_without_bounds(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _numbers_without_bounds(value, f"{path}/{i}")


def test_e013_every_number_of_a_title_has_a_range() -> None:
    """docs/checks.md, E013: "every number has one" (a range): in the schemas of the title
    files (and of the overlays), no integer or number goes without a minimum and maximum."""
    files = [*ROOT.glob("schema/*.schema.json"), *ROOT.glob("schema/overlay/*.schema.json")]
    titled = [f for f in files if f.name not in ("compiled.schema.json", "save.schema.json")]
    assert len(titled) == 16
    unbounded = [
        f"{f.name}{p}"
        for f in titled
        for p in _numbers_without_bounds(json.loads(f.read_text()), "")
    ]
    assert unbounded == []


def test_w016_the_first_line_is_not_a_schema_comment(tmp_path: Path) -> None:
    """docs/checks.md, W016: the first line is not a `#:schema <path>` comment; a warning:
    the title still builds."""
    target = broken(tmp_path, {"phases.toml": [("#:schema ../../schema/phases.schema.json\n", "")]})
    title, problems = load_title(target)
    assert title is not None
    assert found(target) == [
        "phases.toml:1:1: warning[W016]: first line should be "
        "'#:schema ../../schema/phases.schema.json' so editors can check and complete this file"
    ]
    assert [p.is_error for p in problems] == [False]


# ---------------------------------------------------------------------------------------
# Schema: what a file with schema errors still takes part in


def test_an_unknown_key_with_nothing_close_is_dropped_and_the_checks_still_run(
    tmp_path: Path,
) -> None:
    """docs/checks.md, Schema: "an unknown key with nothing close (dropped); the checks then
    see the file as it evidently was meant": trains.toml's stray key hides no unknown train
    of a phase."""
    target = broken(
        tmp_path,
        {
            "trains.toml": [("price = 80", "price = 80\nzzzzqqq = 1")],
            "phases.toml": [('on = "5"', 'on = "9"')],
        },
    )
    assert shown(target) == [
        "phases.toml:39:6: error[E130]: phases[3].on: unknown train '9'",
        "trains.toml:11:1: error[E011]: trains[0].zzzzqqq: unknown key 'zzzzqqq'; allowed "
        "keys: id, distance, price, count, rusts_on, obsolete_on, available_on, trade_in, "
        "variants, events",
    ]


def test_a_misspelt_table_tag_is_mended_and_its_table_still_checked(tmp_path: Path) -> None:
    """docs/checks.md, Schema: a misspelt table tag is mended ("did you mean"): the ability
    is read as the block_hexes it evidently is, so its unknown hex is reported (E161)."""
    target = broken(
        tmp_path,
        {
            "privates.toml": [
                (
                    'abilities = [{ type = "block_hexes", hexes = ["G15"] }]',
                    'abilities = [{ type = "block_hexs", hexes = ["Z15"] }]',
                )
            ]
        },
    )
    assert shown(target) == [
        "privates.toml:14:23: error[E014]: privates[0].abilities[0].type: unknown ability type "
        '"block_hexs"; expected one of: "block_hexes", "tile_lay", "grant_share", '
        '"exchange_share", "close_on_train", "no_sale_to_corporation", "tile_lays", '
        '"virtual_station", "exclusive_hexes", "bonus_multiplier", "ferry_multiplier", '
        '"purchase_fee", "restrict_corporation"; did you mean "block_hexes"?',
        "privates.toml:14:46: error[E161]: privates[0].abilities[0].hexes[0]: no hex Z15",
    ]


def test_a_hex_id_off_its_pattern_skips_the_checks_that_read_the_hexes(tmp_path: Path) -> None:
    """docs/checks.md, Schema: "a hex id off its pattern skips every check that reads the
    map's hexes": a home not on the map (E141) is not judged against a stand-in map."""
    target = broken(
        tmp_path,
        {
            "map.toml": [('at = "C17"', 'at = "c17"')],
            "corporations.toml": [('home = "E19"', 'home = "Z19"')],
        },
    )
    assert shown(target) == [
        'map.toml:56:6: error[E015]: hexes[7].at: "c17" does not match the pattern '
        "^[A-Z]{1,2}[0-9]{1,3}$ (Hex coordinate as printed on the board: row letters then "
        "column number)"
    ]


# ---------------------------------------------------------------------------------------
# Cross-reference checks (E1xx, W1xx)

TRAINS_NO_4 = 'id = "D"\non = "D"\ntiles = ["yellow", "green", "brown"]'
BROWN = (
    '"39" = 1\n"40" = 1\n"41" = 2\n"42" = 2\n"43" = 2\n"44" = 1\n"45" = 2\n"46" = 2\n'
    '"47" = 1\n"61" = 2\n"62" = 1\n"63" = 3\n"64" = 1\n"65" = 1\n"66" = 1\n"67" = 1\n'
    '"68" = 1\n"70" = 1\n'
)
SHARES = 'color = "#474548"'
X7 = '"70" = 1\n"X7" = 1\n\n[[tiles]]\nid = "X7"\ncolor = "yellow"\n'

CROSS: list[tuple[str, str, Edits, list[str]]] = [
    # E102: unknown row, column out of range, or not a grid cell
    (
        "E102-row",
        "1830",
        {"map.toml": [('at = "C17"', 'at = "L17"')]},
        ["map.toml:56:6: error[E102]: hexes[7].at: hex L17: row L is not in rows"],
    ),
    (
        "E102-column",
        "1830",
        {"map.toml": [('at = "C17"', 'at = "C27"')]},
        ["map.toml:56:6: error[E102]: hexes[7].at: hex C27: column 27 is outside columns 1..24"],
    ),
    (
        "E102-cell",
        "1830",
        {"map.toml": [('at = "C17"', 'at = "C16"')]},
        [
            "map.toml:56:6: error[E102]: hexes[7].at: hex C16: not a cell of this grid "
            "(letter and number parity)"
        ],
    ),
    # E103: off-board revenue on a non-red hex, or a red hex without it
    (
        "E103-non-red",
        "1830",
        {
            "map.toml": [
                ('name = "Deep South"\ncolor = "red"', 'name = "Deep South"\ncolor = "gray"')
            ]
        },
        ["map.toml:359:1: error[E103]: hexes[50].offboard: off-board on a non-red hex"],
    ),
    (
        "E103-red-without",
        "1830",
        {
            "map.toml": [
                (
                    "[hexes.offboard]\nrevenue = { yellow = 40, brown = 70 }\nexits = [3, 4, 5]",
                    "track = [[3, 4]]",
                )
            ]
        },
        ["map.toml:332:9: error[E103]: hexes[47].color: red hex without offboard"],
    ),
    (
        "E104",
        "1830",
        {"map.toml": [("revenue = { yellow = 30, brown = 40 }", "revenue = { yellow = 30 }")]},
        [
            "map.toml:360:11: error[E104]: hexes[50].offboard.revenue: off-board revenue "
            "missing for phase colour 'brown'"
        ],
    ),
    (
        "W105",
        "1830",
        {"map.toml": [('borders = [{ edge = 2, type = "impassable" }]  # NW, toward E7', "")]},
        [
            "map.toml:136:12: warning[W105]: hexes[20].borders[0]: impassable side E7:5 is "
            "not recorded on F8:2"
        ],
    ),
    (
        "E106",
        "1830",
        {
            "map.toml": [
                (
                    'borders = [{ edge = 5, type = "impassable" }]  # SE, toward D12',
                    'borders = [{ edge = 5, type = "impassable" }, { edge = 5, type = "cosmetic" }]',
                )
            ]
        },
        [
            "map.toml:26:21: error[E106]: hexes[1].borders[0].edge: edge 5 twice",
            "map.toml:26:56: error[E106]: hexes[1].borders[1].edge: edge 5 twice",
        ],
    ),
    (
        "W107",
        "1830",
        {"map.toml": [("exits = [2] }]  # dead end toward J14", "exits = [2, 3] }]")]},
        [
            "map.toml:291:35: warning[W107]: hexes[43].cities[0].exits: K15: track on edge 3 "
            "leads off the map"
        ],
    ),
    # E108: an exit listed twice, or track joining an edge to itself (map or tiles)
    (
        "E108-exit-twice",
        "1830",
        {"map.toml": [("exits = [1, 3] }]", "exits = [1, 1] }]")]},
        ["map.toml:237:34: error[E108]: hexes[34].towns[0].exits: an exit is listed twice"],
    ),
    (
        "E108-map-track",
        "1830",
        {"map.toml": [("track = [[2, 3]]  # links D8 and D10", "track = [[2, 2]]")]},
        ["map.toml:259:10: error[E108]: hexes[38].track[0]: track joins an edge to itself"],
    ),
    (
        "E108-tile-track",
        "1830",
        {"tiles.toml": [('"70" = 1', X7 + "track = [[0, 0]]")]},
        ["tiles.toml:63:10: error[E108]: tiles[0].track[0]: track joins an edge to itself"],
    ),
    (
        "E109",
        "1830",
        {"tiles.toml": [('library = ["common"]', 'library = ["common", "nonesuch"]')]},
        ["tiles.toml:6:22: error[E109]: library[1]: unknown tile library 'nonesuch'"],
    ),
    (
        "E111",
        "1830",
        {
            "tiles.toml": [
                ('"1" = 1\n', '"1" = 1\n"W1" = 1\n'),
                ('"70" = 1', '"70" = 1\n\n[[tiles]]\nid = "W1"\ncolor = "white"'),
            ]
        },
        [
            "tiles.toml:11:1: error[E111]: manifest.W1: tile 'W1' is white: not a colour that "
            "is laid",
            "tiles.toml:11:1: error[E114]: manifest.W1: tile 'W1' can never be placed: no hex "
            "or manifest tile it may replace",
        ],
    ),
    (
        "E112",
        "1830",
        {"tiles.toml": [('"1" = 1\n', '"1" = 0\n')]},
        ["tiles.toml:10:7: error[E112]: manifest.1: tile '1' count 0 < 1"],
    ),
    (
        "E113",
        "1830",
        {
            "tiles.toml": [
                (
                    '"70" = 1',
                    X7
                    + 'track = [[0, 1]]\n\n[[tiles]]\nid = "X7"\ncolor = "yellow"\ntrack = [[0, 2]]',
                )
            ]
        },
        ["tiles.toml:66:6: error[E113]: tiles[1].id: tile 'X7' defined twice"],
    ),
    (
        "E114",
        "1830",
        {
            "tiles.toml": [
                (
                    '"70" = 1',
                    '"70" = 1\n"X7" = 1\n\n[[tiles]]\nid = "X7"\ncolor = "green"\nlabel = "Z"\n'
                    "cities = [{ revenue = 10, slots = 1, exits = [0] }]",
                )
            ]
        },
        [
            "tiles.toml:58:1: error[E114]: manifest.X7: tile 'X7' can never be placed: no hex "
            "or manifest tile it may replace"
        ],
    ),
    (
        "W115",
        "1830",
        {"phases.toml": [(TRAINS_NO_4, TRAINS_NO_4.replace('"brown"]', '"brown", "gray"]'))]},
        [
            "phases.toml:58:38: warning[W115]: phases[5].tiles[3]: phase D allows gray tiles "
            "but the manifest has none"
        ],
    ),
    (
        "W116",
        "1830",
        {"tiles.toml": [('"14" = 3\n"15" = 2\n', "")]},
        [
            "tiles.toml:19:1: warning[W116]: manifest.57: tile '57' can never be upgraded: no "
            "green manifest tile may replace it (the library's 14, 15, 619 could)",
            "tiles.toml:49:1: error[E114]: manifest.63: tile '63' can never be placed: no hex "
            "or manifest tile it may replace",
        ],
    ),
    (
        "E120",
        "1830",
        {"trains.toml": [('id = "3"', 'id = "2"')]},
        [
            "phases.toml:21:6: error[E130]: phases[1].on: unknown train '3'",
            "trains.toml:15:6: error[E120]: trains[1].id: duplicate train '2'",
        ],
    ),
    (
        "E121",
        "1830",
        {"trains.toml": [("count = 5", "count = 0")]},
        ["trains.toml:18:9: error[E121]: trains[1].count: no 3-trains at all"],
    ),
    # E122: rusts/obsolete/trade-in names an unknown train (or the train itself)
    (
        "E122-rusts",
        "1830",
        {"trains.toml": [('rusts_on = "D"', 'rusts_on = "8"')]},
        ["trains.toml:26:12: error[E122]: trains[2].rusts_on: unknown train '8'"],
    ),
    (
        "E122-itself",
        "1830",
        {"trains.toml": [('rusts_on = "D"', 'rusts_on = "4"')]},
        ["trains.toml:26:12: error[E122]: trains[2].rusts_on: a train cannot rust itself"],
    ),
    (
        "E122-obsolete",
        "1830",
        {"trains.toml": [("count = 2\n", 'count = 2\nobsolete_on = "Q"\n')]},
        ["trains.toml:41:15: error[E122]: trains[4].obsolete_on: unknown train 'Q'"],
    ),
    (
        "E122-trade-in",
        "1830",
        {"trains.toml": [('trains = ["4", "5", "6"]', 'trains = ["4", "5", "7"]')]},
        ["trains.toml:50:34: error[E122]: trains[5].trade_in.trains[2]: unknown train '7'"],
    ),
    (
        "E123",
        "1830",
        {"trains.toml": [('available_on = "6"', 'available_on = "7"')]},
        ["trains.toml:49:16: error[E123]: trains[5].available_on: unknown phase '7'"],
    ),
    (
        "E124",
        "1830",
        {"trains.toml": [('rusts_on = "6"', 'rusts_on = "2"')]},
        [
            "trains.toml:19:12: error[E124]: trains[1].rusts_on: 3 rusts on 2, which is sold before it"
        ],
    ),
    # E131: first phase with a trigger, or a later phase without one
    (
        "E131-first",
        "1830",
        {"phases.toml": [('id = "2"\n', 'id = "2"\non = "2"\n')]},
        ["phases.toml:13:6: error[E131]: phases[0].on: the first phase has no trigger"],
    ),
    (
        "E131-later",
        "1830",
        {"phases.toml": [('on = "5"\n', "")]},
        ["phases.toml:37:1: error[E131]: phases[3]: phase 5 has no 'on' train"],
    ),
    (
        "E132",
        "1830",
        {
            "phases.toml": [
                ('id = "5"\non = "5"', 'id = "5"\non = "6"'),
                ('id = "6"\non = "6"', 'id = "6"\non = "5"'),
            ]
        },
        [
            "phases.toml:48:6: error[E132]: phases[4].on: phase 6 starts on train 5, sold "
            "before the previous phase's"
        ],
    ),
    (
        "E133",
        "1830",
        {"phases.toml": [('id = "6"', 'id = "5"')]},
        [
            "phases.toml:47:6: error[E133]: phases[4].id: duplicate phase '5'",
            "trains.toml:49:16: error[E123]: trains[5].available_on: unknown phase '6'",
        ],
    ),
    (
        "W134",
        "1830",
        {"phases.toml": [(TRAINS_NO_4, TRAINS_NO_4.replace('"green", ', ""))]},
        ["phases.toml:58:9: warning[W134]: phases[5].tiles: phase D drops colours ['green']"],
    ),
    (
        "E135",
        "1830",
        {"phases.toml": [(TRAINS_NO_4, TRAINS_NO_4.replace('"brown"]', '"brown", "red"]'))]},
        [
            "phases.toml:58:38: error[E135]: phases[5].tiles[3]: red tiles are never laid",
            "phases.toml:58:38: warning[W115]: phases[5].tiles[3]: phase D allows red tiles but "
            "the manifest has none",
        ],
    ),
    # E136: reported once here instead of E104 on every off-board
    (
        "E136",
        "1830",
        {
            "phases.toml": [
                (
                    'train_limit = 3\noffboard_revenue = "yellow"',
                    'train_limit = 3\noffboard_revenue = "yelow"',
                )
            ]
        },
        [
            "phases.toml:34:20: error[E136]: phases[2].offboard_revenue: no off-board has a "
            "'yelow' value (they have brown, yellow); did you mean 'yellow'?"
        ],
    ),
    (
        "E140-private",
        "1830",
        {"corporations.toml": [('id = "NYC"', 'id = "SV"')]},
        [
            "corporations.toml:14:6: error[E140]: corporations[1].id: duplicate id 'SV'",
            "privates.toml:74:15: error[E162]: privates[3].abilities[1].corporation: unknown "
            "corporation 'NYC'",
        ],
    ),
    (
        "E141-both-homes",
        "1830",
        {
            "corporations.toml": [
                (
                    'home = "E19"  # Albany\n',
                    'home = "E19"\nvariable_home = { cost_untracked = 80, cost = 120 }\n',
                )
            ]
        },
        [
            "corporations.toml:16:8: error[E141]: corporations[1].home: a corporation with "
            "variable_home has no home"
        ],
    ),
    (
        "E142",
        "1830",
        {"corporations.toml": [('home = "E19"', 'home = "C11"')]},
        ["corporations.toml:16:8: error[E142]: corporations[1].home: home C11 has no city"],
    ),
    (
        "E143",
        "1830",
        {"corporations.toml": [("city = 0  # the city", "city = 2  # the city")]},
        [
            "corporations.toml:56:8: error[E143]: corporations[6].city: G19 has 2 cities; "
            "index 2 is out of range"
        ],
    ),
    (
        "E143-one-city",
        "1830",
        {"corporations.toml": [('home = "H12"  # Altoona', 'home = "H12"\ncity = 1')]},
        [
            "corporations.toml:10:8: error[E143]: corporations[0].city: H12 has 1 city; "
            "index 1 is out of range"
        ],
    ),
    (
        "E144",
        "1830",
        {"corporations.toml": [('home = "E19"', 'home = "H12"')]},
        [
            "corporations.toml:16:8: error[E144]: corporations[1].home: 2 corporations (PRR, "
            "NYC) have their home in H12, which has 1 slot(s)"
        ],
    ),
    # E145: certificates do not sum to 100%, or the president's is not the largest
    (
        "E145-sum",
        "1830",
        {"corporations.toml": [(SHARES, SHARES + "\nshares = [20, 10, 10, 10]")]},
        [
            "corporations.toml:19:10: error[E145]: corporations[1].shares: certificates sum "
            "to 50%, not 100%"
        ],
    ),
    (
        "E145-president",
        "1830",
        {
            "corporations.toml": [
                (SHARES, SHARES + "\nshares = [10, 20, 10, 10, 10, 10, 10, 10, 10]")
            ]
        },
        [
            "corporations.toml:19:11: error[E145]: corporations[1].shares[0]: the first "
            "(president's) certificate must be the largest",
            "corporations.toml:19:15: error[E147]: corporations[1].shares[1]: a 20% "
            "certificate: the engine plays ordinary certificates of 10% only (prices are per "
            "10% share)",
        ],
    ),
    (
        "W146",
        "1830",
        {"corporations.toml": [("# Albany\ntokens = [0, 40", "# Albany\ntokens = [40, 40")]},
        ["corporations.toml:17:11: warning[W146]: corporations[1].tokens[0]: home token costs $40"],
    ),
    (
        "E147-president",
        "1830",
        {
            "corporations.toml": [
                (SHARES, SHARES + "\nshares = [25, 10, 10, 10, 10, 10, 10, 10, 5]")
            ]
        },
        [
            "corporations.toml:19:11: error[E147]: corporations[1].shares[0]: the president's "
            "certificate of 25% is not a multiple of 10%",
            "corporations.toml:19:43: error[E147]: corporations[1].shares[8]: a 5% "
            "certificate: the engine plays ordinary certificates of 10% only (prices are per "
            "10% share)",
        ],
    ),
    (
        "E153",
        "1830",
        {"title.toml": [('"3" = 20\n', "")]},
        [
            "title.toml:24:1: error[E153]: certificate_limit: certificate limit missing for 3 "
            "players"
        ],
    ),
    (
        "W154",
        "1830",
        {"title.toml": [('"6" = 11\n', '"6" = 11\n"7" = 10\n')]},
        ["title.toml:30:1: warning[W154]: certificate_limit.7: '7' is not an allowed player count"],
    ),
    (
        "E155",
        "1830",
        {"title.toml": [('id = "emergency_18xx_games"', 'id = "optional_6_train"')]},
        ["title.toml:61:6: error[E155]: options[5].id: duplicate option 'optional_6_train'"],
    ),
    # E156: an option overrides an unknown rule, gives a rule a wrong value, or names an
    # unknown train
    (
        "E156-rule",
        "1830",
        {
            "title.toml": [
                (
                    "rules = { one_new_train_per_turn = false }",
                    "rules = { one_new_train_per_turns = false }",
                )
            ]
        },
        [
            "title.toml:58:11: error[E156]: options[4].rules.one_new_train_per_turns: unknown "
            "rule 'one_new_train_per_turns'"
        ],
    ),
    (
        "E156-value",
        "1830",
        {
            "title.toml": [
                (
                    "rules = { one_new_train_per_turn = false }",
                    "rules = { one_new_train_per_turn = 0 }",
                )
            ]
        },
        [
            "title.toml:58:36: error[E156]: options[4].rules.one_new_train_per_turn: 0 is not "
            "a valid value for rule 'one_new_train_per_turn': it should be a valid boolean"
        ],
    ),
    (
        "E156-list",
        "1830",
        {
            "title.toml": [
                (
                    "rules = { one_new_train_per_turn = false }",
                    'rules = { tile_lays = [{ kinds = ["new"] }, { kinds = ["nope"] }] }',
                )
            ]
        },
        [
            'title.toml:58:23: error[E156]: options[4].rules.tile_lays: [{"kinds": ["new"]}, '
            '{"kinds": ["nope"]}] is not a valid value for rule \'tile_lays\': it should be '
            "'new' or 'upgrade'",
            "title.toml:58:56: error[E198]: options[4].rules.tile_lays[1].kinds[0]: the engine "
            "cannot play rules.tile_lays[].kinds[] = 'nope': games of this title would be "
            "refused",
        ],
    ),
    (
        "E156-train",
        "1830",
        {"title.toml": [('train_counts = { "6" = 3 }', 'train_counts = { "7" = 3 }')]},
        ["title.toml:42:18: error[E156]: options[1].train_counts.7: unknown train '7'"],
    ),
    # E157: keeps_presidency without sells_shares
    (
        "E157",
        "1830",
        {
            "title.toml": [
                (
                    "sells_shares = true, keeps_presidency = true } }",
                    "sells_shares = false, keeps_presidency = true } }",
                )
            ]
        },
        [
            "title.toml:48:87: error[E157]: options[2].rules.bankruptcy.keeps_presidency: true "
            "does nothing without sells_shares = true (without it the bankrupt's shares are "
            "kept for the score, none sold)"
        ],
    ),
    (
        "E160",
        "1830",
        {"privates.toml": [('id = "CS"', 'id = "SV"')]},
        ["privates.toml:19:6: error[E160]: privates[1].id: duplicate 'SV'"],
    ),
    (
        "E161",
        "1830",
        {"privates.toml": [('hexes = ["G15"]', 'hexes = ["Z15"]')]},
        ["privates.toml:14:47: error[E161]: privates[0].abilities[0].hexes[0]: no hex Z15"],
    ),
    (
        "E163",
        "1830",
        {"privates.toml": [('tiles = ["57"]', 'tiles = ["5"]')]},
        [
            "privates.toml:54:10: error[E163]: privates[2].abilities[1].tiles[0]: tile '5' not in manifest"
        ],
    ),
    (
        "E164",
        "1830",
        {
            "privates.toml": [
                (
                    'type = "grant_share"\ncorporation = "PRR"',
                    'type = "grant_share"\ncorporation = "B&O"\npresident = true',
                )
            ]
        },
        [
            "privates.toml:110:15: error[E164]: privates[5].abilities[1].corporation: B&O's "
            "president's certificate is granted twice"
        ],
    ),
    (
        "E171",
        "1830",
        {"market.toml": [("par = true\n", "")]},
        ["market.toml:15:8: error[E171]: rows: no par cell: no corporation could start"],
    ),
    (
        "E172",
        "1830",
        {"market.toml": [('type = "2d"', 'type = "linear"')]},
        ["market.toml:15:8: error[E172]: rows: a linear market has exactly one row"],
    ),
    (
        "W173",
        "1830",
        {"market.toml": [('"67", "68"]', '"67", "66"]')]},
        ["market.toml:23:52: warning[W173]: rows[7][7]: price 66 is below 67 on its left"],
    ),
    (
        "E174",
        "1830",
        {"market.toml": [('["60y", "67", "71"', '["60y", "", "71"')]},
        ["market.toml:16:11: error[E174]: rows[0][1]: a gap inside a market row"],
    ),
    # E190: a bonus end, ferry sea link or off-board requires_visit names no hex of the map
    (
        "E190-bonus",
        "1833ne",
        {
            "map.toml": [
                ('hexes = ["I14"] }]\nvalues = { I = 80', 'hexes = ["I99"] }]\nvalues = { I = 80')
            ]
        },
        ["map.toml:534:81: error[E190]: bonuses[3].between[1].hexes[0]: bonus MTL-POR: no hex I99"],
    ),
    (
        "E190-sea-link",
        "1833ne",
        {
            "map.toml": [
                (
                    '# Hyannis\nvalues = { I = 20, II = 20, III = 30 }\nsea_link = ["G22"]',
                    '# Hyannis\nvalues = { I = 20, II = 20, III = 30 }\nsea_link = ["G99"]',
                )
            ]
        },
        ["map.toml:616:13: error[E190]: ferries.ports[4].sea_link[0]: ferry sea link: no hex G99"],
    ),
    (
        "E190-requires-visit",
        "1833ne",
        {"map.toml": [('requires_visit = ["B3"]', 'requires_visit = ["B99"]')]},
        ["map.toml:40:97: error[E190]: hexes[1].offboard.requires_visit[0]: no hex B99"],
    ),
    # E191: bonus or ferry value, ferry leave_on, private closes_on/flips_on, power phase
    # list, reservation ends_on (corporation available_from, rules.takeovers.from_phase: in
    # test_e191_and_e122_in_an_overlay)
    (
        "E191-bonus-value",
        "1833ne",
        {
            "map.toml": [
                (
                    "III = 30, IV = 30 }  # assumption: all values; gone in V\n\n# ---",
                    "III = 30, VI = 30 }\n\n# ---",
                )
            ]
        },
        ["map.toml:571:39: error[E191]: bonuses[9].values.VI: unknown phase 'VI'"],
    ),
    (
        "E191-ferry-value",
        "1833ne",
        {
            "map.toml": [
                (
                    "# Hyannis\nvalues = { I = 20, II = 20, III = 30 }",
                    "# Hyannis\nvalues = { I = 20, II = 20, IIII = 30 }",
                )
            ]
        },
        ["map.toml:615:29: error[E191]: ferries.ports[4].values.IIII: unknown phase 'IIII'"],
    ),
    (
        "E191-leave-on",
        "1833ne",
        {"map.toml": [('leave_on = "IV"', 'leave_on = "VI"')]},
        ["map.toml:589:12: error[E191]: ferries.leave_on: unknown phase 'VI'"],
    ),
    (
        "E191-closes-on",
        "1833ne",
        {"privates.toml": [('revenue = 5\ncloses_on = "III"', 'revenue = 5\ncloses_on = "VII"')]},
        ["privates.toml:16:13: error[E191]: privates[0].closes_on: unknown phase 'VII'"],
    ),
    (
        "E191-flips-on",
        "1833ne",
        {"privates.toml": [('revenue = 30\nflips_on = "III"', 'revenue = 30\nflips_on = "VII"')]},
        ["privates.toml:133:12: error[E191]: privates[5].flips_on: unknown phase 'VII'"],
    ),
    (
        "E191-power-phases",
        "1833ne",
        {"privates.toml": [('no_track_phases = ["I"]', 'no_track_phases = ["0"]')]},
        [
            "privates.toml:48:20: error[E191]: privates[1].abilities[2].no_track_phases[0]: "
            "unknown phase '0'"
        ],
    ),
    (
        "E191-ends-on",
        "1833ne",
        {"corporations.toml": [('hex = "E22", ends_on = "IV"', 'hex = "E22", ends_on = "X"')]},
        [
            "corporations.toml:17:42: error[E191]: corporations[0].reservations[0].ends_on: "
            "unknown phase 'X'"
        ],
    ),
    (
        "E192",
        "1833ne",
        {"map.toml": [('id = "BOS-OGD-I"', 'id = "BOS-OGD"')]},
        [
            "map.toml:568:6: error[E192]: bonuses[9].id: duplicate bonus 'BOS-OGD'",
            "privates.toml:101:23: error[E194]: privates[3].abilities[1].bonuses[1]: unknown "
            "bonus 'BOS-OGD-I'",
        ],
    ),
    # E193: a ferry port is not on the map, has no city or town, or is listed twice
    (
        "E193-not-on-map",
        "1833ne",
        {"map.toml": [('hex = "I26"  # Hyannis', 'hex = "I99"')]},
        ["map.toml:614:7: error[E193]: ferries.ports[4].hex: no hex I99"],
    ),
    (
        "E193-no-stop",
        "1833ne",
        {"map.toml": [('hex = "I26"  # Hyannis', 'hex = "B7"')]},
        ["map.toml:614:7: error[E193]: ferries.ports[4].hex: ferry port B7 has no city or town"],
    ),
    (
        "E193-twice",
        "1833ne",
        {"map.toml": [('hex = "I26"  # Hyannis', 'hex = "G26"')]},
        ["map.toml:614:7: error[E193]: ferries.ports[4].hex: G26 is a ferry port twice"],
    ),
    # E194: tile_lays, virtual_station, exclusive_hexes, bonus_multiplier,
    # restrict_corporation name an unknown tile, hex, bonus or corporation
    (
        "E194-tile-lays",
        "1833ne",
        {"privates.toml": [('tiles = ["7", "8", "9"]', 'tiles = ["7", "8", "999"]')]},
        [
            "privates.toml:75:36: error[E194]: privates[2].abilities[1].lays[1].tiles[2]: "
            "unknown manifest tile '999'"
        ],
    ),
    (
        "E194-virtual-station",
        "1833ne",
        {"privates.toml": [('hex = "A6"', 'hex = "A99"')]},
        ["privates.toml:95:7: error[E194]: privates[3].abilities[0].hex: unknown hex 'A99'"],
    ),
    (
        "E194-exclusive-hexes",
        "1833ne",
        {"privates.toml": [('hexes = ["A12"]', 'hexes = ["A99"]')]},
        ["privates.toml:143:10: error[E194]: privates[5].abilities[1].hexes[0]: unknown hex 'A99'"],
    ),
    (
        "E194-bonus-multiplier",
        "1833ne",
        {
            "privates.toml": [
                ('bonuses = ["BOS-OGD", "BOS-OGD-I"]', 'bonuses = ["BOS-OGD", "NOPE"]')
            ]
        },
        [
            "privates.toml:101:23: error[E194]: privates[3].abilities[1].bonuses[1]: unknown bonus 'NOPE'"
        ],
    ),
    (
        "E194-restrict-corporation",
        "1833ne",
        {"privates.toml": [('corporation = "B&L"', 'corporation = "B&X"')]},
        [
            "privates.toml:47:15: error[E194]: privates[1].abilities[2].corporation: unknown "
            "corporation 'B&X'"
        ],
    ),
    # E195: a reservation, station price or joint token names a hex without a city, or an
    # unknown partner
    (
        "E195-reservation",
        "1833ne",
        {"corporations.toml": [('hex = "E22", ends_on = "IV"', 'hex = "F3", ends_on = "IV"')]},
        [
            "corporations.toml:17:25: error[E195]: corporations[0].reservations[0].hex: F3 has no city"
        ],
    ),
    (
        "E195-station-price",
        "1833ne",
        {"corporations.toml": [("station_costs = { E22 = 40 }", "station_costs = { E21 = 40 }")]},
        [
            "corporations.toml:18:19: error[E195]: corporations[0].station_costs.E21: no hex "
            "E21 on the map"
        ],
    ),
    (
        "E195-joint-hex",
        "1833ne",
        {"corporations.toml": [('hex = "F5", when', 'hex = "F7", when')]},
        ["corporations.toml:90:42: error[E195]: corporations[8].joint_token.hex: F7 has no city"],
    ),
    (
        "E195-partner",
        "1833ne",
        {"corporations.toml": [('partner = "StL&A"', 'partner = "XX"')]},
        [
            "corporations.toml:90:27: error[E195]: corporations[8].joint_token.partner: "
            "unknown partner corporation 'XX'"
        ],
    ),
    # E196: certificate_limit_by_corporations misses an allowed player count, or has a key
    # that is not a count
    (
        "E196-missing-count",
        "1833ne",
        {"title.toml": [('"5" = { "14" = 21', '"five" = { "14" = 21')]},
        [
            "title.toml:32:1: error[E196]: certificate_limit_by_corporations: no limits for 5 "
            "players",
            "title.toml:35:1: error[E196]: certificate_limit_by_corporations.five: 'five' is "
            "not an allowed player count",
        ],
    ),
    (
        "E196-not-a-number",
        "1833ne",
        {"title.toml": [('"5" = { "14" = 21', '"5" = { "lots" = 21')]},
        [
            "title.toml:35:9: error[E196]: certificate_limit_by_corporations.5.lots: 'lots' is "
            "not a number of corporations"
        ],
    ),
    (
        "W197",
        "1833ne",
        {
            "map.toml": [
                (
                    'at = "J25"\ncolor = "blue"\nstubs = [1]',
                    'at = "J25"\ncolor = "blue"\nstubs = [1, 4]',
                )
            ]
        },
        [
            "map.toml:111:13: warning[W197]: hexes[12].stubs[1]: J25: stub on edge 4 leads off the map"
        ],
    ),
]


@pytest.mark.parametrize(
    ("title", "edits", "expected"), [c[1:] for c in CROSS], ids=[c[0] for c in CROSS]
)
def test_cross_reference_code(
    tmp_path: Path, title: str, edits: Edits, expected: list[str]
) -> None:
    """docs/checks.md, Cross-reference checks (E1xx, W1xx): the row of the code in the case
    id, each of its alternatives; a warning (W) is a warning, every finding is reported."""
    assert found(broken(tmp_path, edits, title)) == sorted(expected)


def test_a_count_outside_the_range_of_the_corporation_table_is_w154(tmp_path: Path) -> None:
    """docs/checks.md, W154: "a per-player-count table names a count outside the allowed
    range" is a warning; E196 is for a key "that is not a count". A "6" row in 1833NE's
    certificate_limit_by_corporations (3-5 players) is a count outside the range, as a "6"
    of starting_cash is (W154)."""
    row = '{ "14" = 21, "13" = 20, "12" = 18, "11" = 17, "10" = 16, "9" = 14, "8" = 13, "7" = 11, "6" = 10, "5" = 8 }'
    target = broken(
        tmp_path,
        {
            "title.toml": [
                ('"5" = 400\n', '"5" = 400\n"6" = 350\n'),
                (f'"5" = {row}', f'"5" = {row}\n"6" = {row}'),
            ]
        },
        "1833ne",
    )
    assert found(target) == [
        "title.toml:21:1: warning[W154]: starting_cash.6: '6' is not an allowed player count",
        "title.toml:37:1: warning[W154]: certificate_limit_by_corporations.6: '6' is not an "
        "allowed player count",
    ]


def test_e191_and_e122_in_an_overlay(tmp_path: Path) -> None:
    """docs/checks.md, E191: a corporation `available_from` or `rules.takeovers.from_phase`
    names an unknown phase; E122: `rules.takeovers.leaving_train` names an unknown train
    (the takeover game of 1833NE, an overlay)."""
    target = edited(
        beside(tmp_path, "1833ne", "1833ne-takeover", {}),
        {
            "title.toml": [
                ('from_phase = "II"', 'from_phase = "IIX"'),
                ('leaving_train = "6/9"', 'leaving_train = "7/9"'),
            ],
            "corporations.toml": [
                (
                    'available_from = "II"\nmin_par = 60\ncolor = "#1C3F94"',
                    'available_from = "IIX"\nmin_par = 60\ncolor = "#1C3F94"',
                )
            ],
        },
    )
    assert found(target) == [
        "corporations.toml:19:18: error[E191]: corporations[9].available_from: unknown phase 'IIX'",
        "title.toml:40:134: error[E122]: rules.takeovers.leaving_train: unknown train '7/9'",
        "title.toml:40:28: error[E191]: rules.takeovers.from_phase: unknown phase 'IIX'",
    ]


def test_e198_a_value_no_implementation_registers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/checks.md, E198: the title asks for a value no implementation of the engine
    registers: an error at the value (were `row_per_share` not played)."""
    monkeypatch.setitem(IMPLEMENTED, "sell_drop", {"step_if_president"})
    assert found(broken(tmp_path, {})) == [
        "title.toml:145:13: error[E198]: rules.sell_drop: the engine cannot play "
        "rules.sell_drop = 'row_per_share': games of this title would be refused"
    ]


def test_e999_a_crashing_check_is_reported_in_the_title_and_hides_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/checks.md, E999 (file: any): internal error in a check, reported as
    `file:line:col` like every problem; the other checks still run."""

    def boom(title: Title, sources: Sources) -> Iterator[Problem]:
        raise RuntimeError("a bug")
        yield  # a generator, as every check

    monkeypatch.setattr(registry, "CHECKS", [*registry.CHECKS, boom])
    target = broken(tmp_path, {"map.toml": [('at = "H4"', 'at = "H10"')]})
    _, problems = load_title(target)
    assert sorted(p.format() for p in problems) == [
        f"{display_path(target / 'map.toml')}:105:6: error[E101]: hexes[15].at: duplicate hex H10",
        f"{display_path(target / 'title.toml')}:1:1: error[E999]: internal error in boom: "
        "RuntimeError('a bug')",
    ]


# ---------------------------------------------------------------------------------------
# Overlays (E18x)


def overlay_title(extends: str, more: str = "") -> str:
    return (
        "#:schema ../../schema/overlay/title.schema.json\n"
        f'extends = "{extends}"\nid = "var"\nname = "A variant"\nversion = "0.1.0"\n{more}'
    )


PRIVATES = "#:schema ../../schema/overlay/privates.schema.json\n[remove]\n"

OVERLAYS: list[tuple[str, dict[str, str], list[str]]] = [
    (
        "E180",
        {"title.toml": overlay_title("1803")},
        [
            "title.toml:2:11: error[E180]: extends: unknown base title '1803' (no "
            "titles/1803/); did you mean '1830'?"
        ],
    ),
    (
        "E181",
        {"title.toml": overlay_title("var")},
        ["title.toml:2:11: error[E181]: extends: 'extends' makes a cycle: var -> var"],
    ),
    (
        "E182-entry",
        {
            "title.toml": overlay_title("1830"),
            "privates.toml": PRIVATES + 'privates = ["SV", "DX"]\n',
        },
        [
            "privates.toml:3:19: error[E182]: remove.privates[1]: the base has no entry 'DX' in 'privates'"
        ],
    ),
    (
        "E182-key",
        {"title.toml": overlay_title("1830", '\n[remove]\nstarting_cash = ["9"]\n')},
        [
            "title.toml:8:18: error[E182]: remove.starting_cash[0]: the base has no entry '9' "
            "in 'starting_cash'"
        ],
    ),
    (
        "E183-not-names",
        {"title.toml": overlay_title("1830"), "privates.toml": PRIVATES + 'privates = "SV"\n'},
        [
            'privates.toml:3:12: error[E183]: remove.privates: expected an array of names, e.g. ["B&O"]'
        ],
    ),
    (
        "E183-not-a-table",
        {"title.toml": overlay_title("1830", "remove = 3\n")},
        [
            "title.toml:6:10: error[E183]: remove: 'remove' must be a table: [remove] <key> = "
            "[names...]"
        ],
    ),
    (
        "E183-replaced-whole",
        {"title.toml": overlay_title("1830", '\n[remove]\ndesigners = ["Francis Tresham"]\n')},
        [
            "title.toml:8:1: error[E183]: remove.designers: 'designers' is not a table or an "
            "array of tables: give its new value instead"
        ],
    ),
]


@pytest.mark.parametrize(
    ("files", "expected"), [c[1:] for c in OVERLAYS], ids=[c[0] for c in OVERLAYS]
)
def test_overlay_code(tmp_path: Path, files: dict[str, str], expected: list[str]) -> None:
    """docs/checks.md, Overlays (E18x): E180 `extends` names no title, E181 a cycle, E182
    `[remove]` names an entry or key the base lacks, E183 a malformed `[remove]` (not a
    table, not an array of names, or a key that is replaced whole)."""
    assert found(beside(tmp_path, "1830", "var", files)) == expected


# ---------------------------------------------------------------------------------------
# The command: every problem at once, errors and warnings, exit codes


def test_validate_reports_every_problem_sorted_and_exits_1_on_an_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/checks.md: `eighteen validate` reports every problem at once, as
    `file:line:col: severity[CODE]: path: message` (one per line, by file and position);
    an error makes it fail (exit 1)."""
    broken(
        tmp_path,
        {
            "trains.toml": [("count = 5", "count = 0")],
            "market.toml": [('"67", "68"]', '"67", "66"]')],
            "map.toml": [('at = "H4"', 'at = "H10"'), ('at = "C17"', 'at = "L17"')],
        },
    )
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "validate", "titles/1830")
    assert code == 1
    assert out.splitlines() == [
        "titles/1830/map.toml:56:6: error[E102]: hexes[7].at: hex L17: row L is not in rows",
        "titles/1830/map.toml:105:6: error[E101]: hexes[15].at: duplicate hex H10",
        "titles/1830/market.toml:23:52: warning[W173]: rows[7][7]: price 66 is below 67 on "
        "its left",
        "titles/1830/trains.toml:18:9: error[E121]: trains[1].count: no 3-trains at all",
    ]
    assert err == "validated 1830: 3 error(s), 1 warning(s)\n"


def test_warnings_neither_fail_validate_nor_stop_compile(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/checks.md: "Errors (E) stop `eighteen compile`; warnings (W) do not"."""
    broken(tmp_path, {"market.toml": [('"67", "68"]', '"67", "66"]')]})
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "validate", "titles/1830")
    assert (code, err) == (0, "validated 1830: 0 error(s), 1 warning(s)\n")
    assert out == (
        "titles/1830/market.toml:23:52: warning[W173]: rows[7][7]: price 66 is below 67 on "
        "its left\n"
    )
    code, out, err = run(capsys, "compile", "titles/1830", "--out", "gen")
    assert (code, out) == (0, "")
    assert err == "wrote gen/1830.json\nwrote gen/1830.md\n"
    assert sorted(p.name for p in (tmp_path / "gen").iterdir()) == ["1830.json", "1830.md"]


def test_a_cross_reference_error_stops_compile(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/checks.md: errors (E) stop `eighteen compile`, a cross-reference error too (the
    title's files all build: only the error stops it)."""
    broken(tmp_path, {"trains.toml": [("count = 5", "count = 0")]})
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "compile", "titles/1830", "--out", "gen")
    assert code == 1
    assert out == "titles/1830/trains.toml:18:9: error[E121]: trains[1].count: no 3-trains at all\n"
    assert err == "compile failed: 1 error(s), 0 warning(s)\n"
    assert not (tmp_path / "gen" / "1830.json").exists()
