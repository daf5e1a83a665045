"""Every mistake at once: a title broken in ten ways, across every file, reports ten
located errors; a file that does not parse or fails its schema hides nothing else."""

from __future__ import annotations

import shutil
from pathlib import Path

from eighteen.title.pipeline import load_title

ROOT = Path(__file__).resolve().parents[2]
BASE = Path(__file__).parent / "corpus" / "base"

# file -> (text in the corpus base, broken text)
BREAKS = {
    "title.toml": [("min = 2", "min = 4")],
    "map.toml": [('at = "C1"', 'at = "C1"\n\n[[hexes]]\nat = "A1"')],
    "tiles.toml": [('"15" = 1', '"15" = 1\n"999" = 1')],
    "trains.toml": [("price = 80", "price = -80"), ("price = 180", "prize = 180\nprice = 180")],
    "phases.toml": [('tiles = ["yellow"]', 'tiles = ["yelow"]')],
    "privates.toml": [('name = "Alpha Ferry"', 'name = "Alpha Ferry')],
    "corporations.toml": [('id = "BLU"', 'id = "RED"'), ('home = "B4"', 'home = "Z9"')],
    "market.toml": [('"70", "80"]', '"70", "75x"]')],
}

EXPECTED = [
    "corporations.toml:10:6: error[E140]: corporations[1].id: duplicate id 'RED'",
    "corporations.toml:12:8: error[E141]: corporations[1].home: no hex Z9 on the map",
    "map.toml:34:6: error[E101]: hexes[6].at: duplicate hex A1",
    "market.toml:4:30: error[E170]: rows[0][4]: zone 'x' is not declared in [zones]",
    'phases.toml:4:10: error[E014]: phases[0].tiles[0]: "yelow" is not one of the allowed '
    'values: "white", "yellow", "green", "brown", "gray", "red", "blue"; did you mean "yellow"?',
    "privates.toml:4:8: error[E001]: TOML syntax error: unterminated string: the string opened "
    "here has no closing quote on its line",
    "tiles.toml:12:1: error[E110]: manifest.999: unknown tile '999'",
    "title.toml:10:7: error[E151]: players.min: min 4 > max 3",
    "trains.toml:5:9: error[E013]: trains[0].price: -80 is below the minimum 0",
    "trains.toml:12:1: error[E011]: trains[1].prize: unknown key 'prize'; did you mean 'price'?",
]


def test_ten_breaks_give_ten_located_errors(tmp_path: Path) -> None:
    titles = tmp_path / "titles"
    shutil.copytree(ROOT / "titles" / "common", titles / "common")
    target = titles / "base"
    shutil.copytree(BASE, target)
    for name, edits in BREAKS.items():
        text = (target / name).read_text()
        for old, new in edits:
            assert text.count(old) >= 1, (name, old)
            text = text.replace(old, new, 1)
        (target / name).write_text(text)
    title, problems = load_title(target)
    assert title is None
    shown = sorted(p.format().split("titles/base/", 1)[1] for p in problems)
    assert shown == sorted(EXPECTED)


def test_a_file_with_plain_typos_still_takes_part_in_the_cross_checks(tmp_path: Path) -> None:
    """A schema error with a plain mend (a misspelt choice or key, a quoted number) is
    reported, and the checks across files run on the file as it evidently was meant:
    map.toml's three typos do not hide that a corporation's home is not on the map (with
    map.toml left out, that check could not run)."""
    titles = tmp_path / "titles"
    shutil.copytree(ROOT / "titles" / "common", titles / "common")
    target = titles / "base"
    shutil.copytree(BASE, target)
    edits = {
        "map.toml": [
            ('color = "red"', 'color = "rde"'),
            ("cost = 40", "cots = 40"),
            ('[[hexes]]\nat = "C1"', '[[hexes]]\nat = "C1"\ncost = "20"'),
        ],
        "corporations.toml": [('home = "B4"', 'home = "B9"')],
    }
    for name, pairs in edits.items():
        text = (target / name).read_text()
        for old, new in pairs:
            assert old in text, (name, old)
            text = text.replace(old, new, 1)
        (target / name).write_text(text)
    title, problems = load_title(target)
    assert title is None  # a mended file is reported, never compiled
    shown = sorted(p.format().split("titles/base/", 1)[1] for p in problems)
    assert shown == [
        "corporations.toml:12:8: error[E141]: corporations[1].home: no hex B9 on the map",
        'map.toml:17:9: error[E014]: hexes[2].color: "rde" is not one of the allowed values: '
        '"white", "yellow", "green", "brown", "gray", "red", "blue"; did you mean "red"?',
        "map.toml:23:1: error[E011]: hexes[3].cots: unknown key 'cots'; did you mean 'cost'?",
        'map.toml:32:8: error[E010]: hexes[5].cost: expected an integer, got string "20" '
        "(remove the quotes)",
    ]
