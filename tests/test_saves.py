"""Saves and 18xx.games exports from outside: every malformed one is one line, exit 1.

Issue 18, "Saves and imports" and "Escaping": depth, integer size, field types, the
``format`` version, fractional prices, symlinks and control characters.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from eighteen import Game
from eighteen.cli import main
from eighteen.commands import output
from eighteen.title.save import SAVE_FORMAT, check_save

ROOT = Path(__file__).resolve().parent.parent
EXPORT = ROOT / "tests" / "fixtures" / "18xx-games" / "1830" / "29133.json"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def save(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    path = tmp_path_factory.mktemp("save") / "g.json"
    assert (
        main(["play", "1830", "--players", "3", "--seed", "1", "--quiet", "--save", str(path)]) == 0
    )
    data: dict[str, object] = json.loads(path.read_text())
    return data


def test_the_checked_format_is_the_written_one() -> None:
    """What Game.to_json writes is the format check_save reads."""
    save = Game.new("1830", players=["Ann", "Bob"], seed=3).to_json()
    assert save["format"] == SAVE_FORMAT == 1
    checked = check_save(save)
    assert (checked.title, checked.players, checked.seed, checked.actions) == (
        "1830",
        ["Ann", "Bob"],
        3,
        [],
    )


BAD_SAVES: list[tuple[str, dict[str, object] | None, str]] = [
    ("deep", None, "cannot read the save: nested deeper than 64 levels"),
    ("actions", {"actions": {}}, "not a valid save: actions: should be a valid list"),
    ("format", {"format": 2}, "save format 2 is not one this version reads (format 1)"),
    ("players", {"players": "Ann"}, "not a valid save: players: should be a valid list"),
    ("seed", {"seed": 1.5}, "not a valid save: seed: should be a valid integer"),
    ("extra", {"extra": 1}, "not a valid save: extra: unknown field"),
]


@pytest.mark.parametrize("command", ["replay", "routes", "render"])
@pytest.mark.parametrize(("case", "change", "message"), BAD_SAVES, ids=[c[0] for c in BAD_SAVES])
def test_bad_save_is_one_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    save: dict[str, object],
    command: str,
    case: str,
    change: dict[str, object] | None,
    message: str,
) -> None:
    path = tmp_path / "bad.json"
    if change is None:
        path.write_text("[" * 100_000 + "]" * 100_000)
    else:
        path.write_text(json.dumps({**save, **change}))
    extra = ["--out", str(tmp_path / "out")] if command == "render" else []
    code, out, err = run(capsys, command, str(path), *extra)
    if command == "render":
        message = message.replace("cannot read the save: ", "")
    assert (code, out, err) == (1, "", f"eighteen {command}: error: {path}: {message}\n")


def test_huge_integer_in_a_save_is_located(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, save: dict[str, object]
) -> None:
    path = tmp_path / "big.json"
    path.write_text(json.dumps({**save, "seed": 0}).replace('"seed": 0', '"seed": ' + "9" * 5000))
    col = path.read_text().index("9" * 5000) + 1
    code, _, err = run(capsys, "replay", str(path))
    assert (code, err) == (
        1,
        f"eighteen replay: error: {path}: cannot read the save: 1:{col}: integer out of "
        "range (5000 digits; at most a 64-bit integer)\n",
    )


def test_fractional_price_in_a_save_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, save: dict[str, object]
) -> None:
    actions = list(save["actions"])  # type: ignore[call-overload]
    actions[0] = {**actions[0], "price": actions[0]["price"] + 0.5}
    path = tmp_path / "frac.json"
    path.write_text(json.dumps({**save, "actions": actions}))
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1
    assert err.startswith(f"eighteen replay: error: {path}: action 0 (bid): ")
    assert "price" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("deep", "not a usable export: nested deeper than 64 levels"),
        (
            "id",
            "not a usable export: 1:{col}: integer out of range (5000 digits; at most a "
            "64-bit integer)",
        ),
    ],
)
def test_hostile_export_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, case: str, message: str
) -> None:
    path = tmp_path / "export.json"
    if case == "deep":
        path.write_text("[" * 100_000 + "]" * 100_000)
    else:
        data = json.loads(EXPORT.read_text())
        data["actions"][0]["id"] = 424242
        text = json.dumps(data).replace("424242", "9" * 5000, 1)
        path.write_text(text)
        message = message.format(col=text.index("9" * 5000) + 1)
    code, out, err = run(capsys, "import-18xx", str(path), "--check")
    assert (code, out, err) == (1, "", f"eighteen import-18xx: error: {path}: {message}\n")


def test_fractional_price_in_an_export_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = json.loads(EXPORT.read_text())
    first = next(a for a in data["actions"] if "price" in a)
    first["price"] += 0.5
    path = tmp_path / "export.json"
    path.write_text(json.dumps(data))
    code, _, err = run(capsys, "import-18xx", str(path), "--check")
    assert (code, err) == (
        1,
        f"eighteen import-18xx: error: {path}: action {first['id']} ({first['type']}): price is not a whole "
        f"number: {first['price']}\n",
    )


def test_player_name_escape_is_not_printed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, save: dict[str, object]
) -> None:
    players = ["\x1b[2J\x1b[31mAnn\x07", "Bob", "Cy"]
    path = tmp_path / "ansi.json"
    path.write_text(json.dumps({**save, "players": players, "actions": []}))
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0
    assert "\x1b" not in out and "\x07" not in out
    assert out.splitlines() == [
        "result (not over):",
        "place  player      value  cash",
        "   1.  [2J[31mAnn   $800  $800",
        "   2.  Bob          $800  $800",
        "   3.  Cy           $800  $800",
    ]
    assert output.printable("a\x1b[0m\u202eb\tc\nd\x9b") == "a[0mb\tc\nd"


def test_save_keeps_mode_and_follows_symlink(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text("{}\n")
    real.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    output.write_atomic(link, "[]\n")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == "[]\n"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real.json"]
