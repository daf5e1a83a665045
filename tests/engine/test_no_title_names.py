"""The engine knows mechanics, never titles: no title id, year-like name, corporation or
private company of any title may appear in src/eighteen/engine (code, strings or comments)."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
ENGINE = ROOT / "src" / "eighteen" / "engine"


def forbidden_names() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "generated").glob("*.json"):
        data = json.loads(path.read_text())
        names.add(data["id"])
        names.update(c["id"] for c in data["corporations"] if len(c["id"]) >= 3)
        names.update(c["name"] for c in data["corporations"])
        names.update(p["name"] for p in data["privates"])
        names.update(h["name"] for h in data["hexes"].values() if h.get("name"))
    return names


def name_pattern(name: str) -> str:
    """A name as a whole word: not inside a longer identifier or an ``&`` name."""
    return rf"(?<![\w&]){re.escape(name)}(?![\w&])"


def any_name_pattern(names: set[str]) -> re.Pattern[str]:
    """One pattern that matches where any one of ``names`` does as a whole word (the
    alternatives are tried in turn at each start, so none hides another)."""
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=lambda n: (-len(n), n)))
    return re.compile(rf"(?<![\w&])(?:{alternatives})(?![\w&])")


def test_engine_names_no_title() -> None:
    year = re.compile(r"18[0-9]{2}")
    names = forbidden_names()
    assert "1830" in names and "PRR" in names  # the list is really built
    # one pattern for every name (it matches where any one name does), compiled once; the
    # lines it finds are then checked name by name to say which names they hold
    any_name = any_name_pattern(names)
    hits: list[str] = []
    for path in sorted(ENGINE.rglob("*.py")):
        text = path.read_text()
        if not year.search(text) and not any_name.search(text):
            continue
        for n, line in enumerate(text.splitlines(), 1):
            where = f"{path.relative_to(ROOT)}:{n}"
            if year.search(line):
                hits.append(f"{where}: {line.strip()}")
            if any_name.search(line):
                for name in names:
                    if re.search(name_pattern(name), line):
                        hits.append(f"{where}: names {name!r}: {line.strip()}")
    assert hits == []


def test_a_title_name_in_the_engine_is_found() -> None:
    """The combined pattern finds what the name-by-name search finds, and no more."""
    names = forbidden_names()
    any_name = any_name_pattern(names)
    for line, found in [
        ("x = 'PRR'", True),
        ("# the 1830 title", True),
        ("PRRX = 1", False),
        ("B&PRR", False),
        ("corporation = c", False),
        ("B&O", "B&O" in names),
    ]:
        assert bool(any_name.search(line)) is found, line
        assert any(re.search(name_pattern(n), line) for n in names) is found, line
