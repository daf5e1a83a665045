"""Clean house: the repository holds only its own files and cites only what a reader has."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent


def tracked(*patterns: str) -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", *patterns], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return [ROOT / line for line in out.splitlines()]


def test_no_stray_packages_at_the_root() -> None:
    assert [p.name for p in tracked("*.whl", "*.tar.gz", "*.egg")] == []


def test_docs_link_nothing_outside_the_repository() -> None:
    leaks = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in tracked("*.md", "src/**.py", "tests/**.py")
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\.\./shared|/work/", line) and p.name != "test_house.py"
    ]
    assert leaks == []


def test_title_comments_cite_rules_by_name() -> None:
    internal = re.compile(r"\bseeds? 00\d|\bfacts §|-format §")
    found = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in tracked("titles/**.toml")
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if "#" in line and internal.search(line.split("#", 1)[1])
    ]
    assert found == []


def test_check_codes_are_unique_by_number() -> None:
    text = (ROOT / "docs" / "checks.md").read_text(encoding="utf-8")
    numbers = re.findall(r"^\| [EW](\d{3}) \|", text, flags=re.M)
    assert {"001", "016", "107", "109"} <= set(numbers)
    assert sorted(n for n in set(numbers) if numbers.count(n) > 1) == []


def test_gitignore_covers_build_outputs() -> None:
    lines = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert {"build/", "dist/"} <= set(lines)


def test_hypothesis_draws_the_same_examples_under_ci() -> None:
    """tests/conftest.py: under CI (.ci/run sets CI) hypothesis is derandomized, so a CI run
    is red for a change, not for a new draw; without CI it draws new examples each run."""
    assert settings.get_profile("ci").derandomize is True
    current = settings.default
    assert current is not None and current.derandomize is bool(os.environ.get("CI"))
