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


def test_engine_names_no_title() -> None:
    year = re.compile(r"18[0-9]{2}")
    names = forbidden_names()
    assert "1830" in names and "PRR" in names  # the list is really built
    hits: list[str] = []
    for path in sorted(ENGINE.rglob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            where = f"{path.relative_to(ROOT)}:{n}"
            if year.search(line):
                hits.append(f"{where}: {line.strip()}")
            for name in names:
                if re.search(rf"(?<![\w&]){re.escape(name)}(?![\w&])", line):
                    hits.append(f"{where}: names {name!r}: {line.strip()}")
    assert hits == []
