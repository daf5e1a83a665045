"""The three silent cases of the typed-format issue, tried as an author would in a copy of
titles/1833ne: each is now a located error."""

from __future__ import annotations

import shutil
from pathlib import Path

from eighteen.title.pipeline import load_title

ROOT = Path(__file__).resolve().parents[2]


def copy_1833ne(tmp: Path) -> Path:
    titles = tmp / "titles"
    shutil.copytree(ROOT / "titles" / "common", titles / "common")
    shutil.copytree(ROOT / "titles" / "1833ne", titles / "1833ne")
    return titles / "1833ne"


def edit(path: Path, old: str, new: str) -> int:
    """Replace ``old`` by ``new`` once; return the 1-based line where it was."""
    text = path.read_text()
    assert old in text
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new, 1))
    return line


def errors(title: Path) -> list[tuple[str, str, int, str]]:
    _, problems = load_title(title)
    return [(p.code, Path(p.file).name, p.line, p.message) for p in problems if p.is_error]


def test_a_by_ratio_move_without_its_steps_is_an_error(tmp_path: Path) -> None:
    title = copy_1833ne(tmp_path)
    text = (title / "title.toml").read_text()
    start = text.index("dividend_move.steps = [")
    end = text.index("]\n", start) + 2
    line = text[:start].count("\n") + 1
    (title / "title.toml").write_text(text[:start] + text[end:])
    found = errors(title)
    assert [(c, f) for c, f, _, _ in found] == [("E012", "title.toml")]
    assert found[0][2] == line - 1  # at the dividend_move table (its kind, a line above)
    assert "steps" in found[0][3]


def test_knobs_no_code_reads_are_unknown_keys(tmp_path: Path) -> None:
    title = copy_1833ne(tmp_path)
    line = edit(
        title / "title.toml",
        "home_token_reserved = true\n",
        "home_token_reserved = true\nupgrade_must_add_track = true\nbank_reserve = 0\n",
    )
    found = errors(title)
    assert [(c, f, n) for c, f, n, _ in found] == [
        ("E011", "title.toml", line + 1),
        ("E011", "title.toml", line + 2),
    ]


def test_certificates_the_engine_does_not_play_are_refused(tmp_path: Path) -> None:
    title = copy_1833ne(tmp_path)
    line = edit(
        title / "corporations.toml",
        'tokens = [0, 80]\ncolor = "#FFFFFF"',
        'tokens = [0, 80]\nshares = [40, 20, 20, 20]\ncolor = "#FFFFFF"',
    )
    found = errors(title)
    assert [(c, f, n) for c, f, n, _ in found] == [("E147", "corporations.toml", line + 1)]
    assert found[0][3] == (
        "a 20% certificate: the engine plays ordinary certificates of 10% only (prices are "
        "per 10% share)"
    )
