"""`eighteen import-18xx` / `export-18xx` on the command line: output, exit codes, and a
one-line error naming the action for every kind of bad input (never a traceback)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from eighteen.cli import main


def action(data: dict[str, Any], aid: int) -> dict[str, Any]:
    return next(a for a in data["actions"] if a["id"] == aid)


def write(tmp_path: Path, data: dict[str, Any] | str, name: str = "game.json") -> str:
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(p)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_check_passes_on_the_real_game(
    game_29133: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, game_29133)
    save = tmp_path / "ours.json"
    rc, out, err = run(capsys, "import-18xx", path, "--check", "--save", str(save))
    assert rc == 0, out + err
    assert "Player 2     1477     1477" in out
    assert "end: ours bankruptcy, file bankrupt" in out
    assert "check: OK" in out
    assert "37 routes re-derived" in out
    # our own save replays to the same ranking
    rc, out, _ = run(capsys, "replay", str(save))
    assert rc == 0 and out.splitlines()[:3] == [
        "result (bankruptcy):",
        "place  player     value  cash",
        "   1.  Player 2  $1,477  $545",
    ]


def test_check_prints_the_first_diverging_action(
    game_29133: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    action(game_29133, 389)["routes"][0]["revenue"] = 150
    rc, out, _ = run(capsys, "import-18xx", write(tmp_path, game_29133), "--check")
    assert rc == 1
    assert "first divergence: action 389" in out
    assert '"id":389,"type":"run_routes"' in out
    assert "our engine: train 3-2 (G19-H18-H16) earns $170 in our engine, the log says $150" in out
    assert "check: FAILED" in out


def test_check_fails_on_a_wrong_value(
    game_29133: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_29133["result"]["1668"] = 417
    path = write(tmp_path, game_29133)
    rc, out, _ = run(capsys, "import-18xx", path, "--check")
    assert rc == 1 and "Player 4: ours 416, file 417" in out and "<- differs" in out
    rc, _, _ = run(capsys, "import-18xx", path)  # without --check: a report, exit 0
    assert rc == 0


def test_export_and_import_again(
    game_29133: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "ours.json"
    assert run(capsys, "import-18xx", write(tmp_path, game_29133), "--save", str(save))[0] == 0
    exported = tmp_path / "export.json"
    rc, _, err = run(capsys, "export-18xx", str(save), "--out", str(exported))
    assert rc == 0 and "wrote 352 actions" in err
    data = json.loads(exported.read_text())
    assert data["result"] == {"2": 1477, "3": 951, "1": 887, "4": 416}
    assert data["game_end_reason"] == "bankrupt" and data["status"] == "finished"
    rc, out, _ = run(capsys, "import-18xx", str(exported), "--check")
    assert rc == 0 and "check: OK" in out
    rc, out, _ = run(capsys, "export-18xx", str(save))  # to standard output
    assert rc == 0 and json.loads(out)["actions"] == data["actions"]


def _bad(data: dict[str, Any], aid: int, **changes: Any) -> dict[str, Any]:
    a = action(data, aid)
    for k, v in changes.items():
        if v is None:
            a.pop(k, None)
        else:
            a[k] = v
    return data


BAD_INPUTS: dict[str, tuple[Callable[[dict[str, Any]], dict[str, Any]], str]] = {
    "missing price": (lambda d: _bad(d, 5, price=None), "action 5 (bid): missing field 'price'"),
    "unknown type": (
        lambda d: _bad(d, 44, type="teleport"),
        "action 44: unknown action type 'teleport'",
    ),
    "unknown hex": (
        lambda d: _bad(d, 44, hex="Z99"),
        "action 44 (lay_tile): unknown hex 'Z99'",
    ),
    "unknown tile": (
        lambda d: _bad(d, 44, tile="999-0"),
        "action 44 (lay_tile): unknown tile '999-0'",
    ),
    "unknown company": (
        lambda d: _bad(d, 5, company="XX"),
        "action 5 (bid): unknown company 'XX'",
    ),
    "unknown player": (
        lambda d: _bad(d, 5, entity=999),
        "action 5 (bid): unknown player 999",
    ),
    "unknown corporation": (
        lambda d: _bad(d, 24, corporation="ZZZ"),
        "action 24 (par): unknown corporation 'ZZZ'",
    ),
    "unknown train": (
        lambda d: _bad(d, 45, train="9-0"),
        "action 45 (buy_train): unknown train '9-0'",
    ),
    "unknown certificate": (
        lambda d: _bad(d, 28, shares=["PRR_42"]),
        "action 28 (buy_shares): unknown certificate 'PRR_42'",
    ),
    "unknown city": (
        lambda d: _bad(d, 102, city="nowhere-0-0"),
        "action 102 (place_token): unknown tile in city id 'nowhere-0-0'",
    ),
    "unknown hex in a route": (
        lambda d: (action(d, 115)["routes"][0]["connections"][0].append("Q1"), d)[1],
        "action 115 (run_routes): unknown hex 'Q1'",
    ),
    "unhashable hex in a route": (
        lambda d: (action(d, 115)["routes"][0]["connections"][0].append(["G19"]), d)[1],
        "action 115 (run_routes): unknown hex ['G19']",
    ),
    "price not a number": (
        lambda d: _bad(d, 5, price="lots"),
        "action 5 (bid): price is not a number: 'lots'",
    ),
    "action without id": (
        lambda d: _bad(d, 5, id=None),
        "action #5 (bid): missing field 'id'",
    ),
    "unknown optional rule": (
        lambda d: d["settings"].update(optional_rules=["free_lunch"]) or d,
        "unknown optional rule 'free_lunch' for 1830 (known: multiple_brown_from_ipo, "
        "optional_6_train, bankrupt_sells_shares, brown_pool_only_18xx_games, "
        "new_trains_18xx_games, emergency_18xx_games, private_trades_18xx_games, "
        "deals_18xx_games, offboard_groups_18xx_games, auction_18xx_games)",
    ),
    "unknown title": (
        lambda d: d.update(title="1831") or d,
        "unknown title '1831': no compiled tables",
    ),
    "no players": (lambda d: d.update(players=[]) or d, "the export has no players"),
    "no actions": (lambda d: d.pop("actions") and d, "the export has no action list ('actions')"),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_is_one_line_naming_the_action(
    case: str, game_29133: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    change, message = BAD_INPUTS[case]
    path = write(tmp_path, change(game_29133))
    rc, out, err = run(capsys, "import-18xx", path, "--check")
    assert rc == 1
    assert out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err == f"eighteen import-18xx: error: {path}: {message}\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"title": "1830", "players": [', "not JSON: Expecting value"),
        ("[1, 2]", "not an 18xx.games export (not a JSON object)"),
        ("", "not JSON: Expecting value"),
    ],
)
def test_truncated_or_foreign_json(
    text: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, text)
    rc, out, err = run(capsys, "import-18xx", path)
    assert rc == 1 and out == "" and err.count("\n") == 1
    assert message in err and "Traceback" not in err


def test_truncated_real_file(
    game_29133: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = json.dumps(game_29133)
    path = write(tmp_path, text[: len(text) // 2])
    rc, out, err = run(capsys, "import-18xx", path)
    assert rc == 1 and out == "" and err.startswith(f"eighteen import-18xx: error: {path}:1:")
    assert "not JSON" in err and err.count("\n") == 1


def test_missing_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run(capsys, "import-18xx", str(tmp_path / "none.json"))
    assert rc == 1 and "cannot read" in err and err.count("\n") == 1
    rc, _, err = run(capsys, "export-18xx", str(tmp_path / "none.json"))
    assert rc == 1 and "cannot read" in err and err.count("\n") == 1


# -- several files, --at, --format json -----------------------------------------------------


def test_several_files_end_with_a_summary(
    game_29133: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path, game_29133, "good.json")
    action(game_29133, 389)["routes"][0]["revenue"] = 150
    bad = write(tmp_path, game_29133, "bad.json")
    missing = str(tmp_path / "missing.json")
    rc, out, _ = run(capsys, "import-18xx", good, bad, missing, "--check")
    assert rc == 1
    assert out.splitlines() == [
        f"ok   {good}",
        f"FAIL {bad}: action 389 (run_routes): train 3-2 (G19-H18-H16) earns $170 in our "
        "engine, the log says $150",
        f"FAIL {missing}: cannot read {missing}: [Errno 2] No such file or directory: '{missing}'",
        "1/3 matched",
    ]
    rc, out, _ = run(capsys, "import-18xx", good, good, "--check")
    assert rc == 0 and out.splitlines()[-1] == "2/2 matched"


def test_at_stops_the_replay_there(
    game_29133: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, game_29133)
    save = tmp_path / "at.json"
    rc, out, _ = run(capsys, "import-18xx", path, "--at", "44", "--check", "--save", str(save))
    assert rc == 0, out
    assert "stopped after action 44 (--at): the result is not compared" in out
    assert "check: OK up to action 44 (no divergence, money kept)" in out
    saved = json.loads(save.read_text())
    # actions 1-44 kept by the undo/redo filter (38) and their auto actions (4), less one
    # program_buy_shares setting, which changes no state
    assert len(saved["actions"]) == 41


def test_at_an_id_the_export_lacks_is_refused(
    game_29133: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An --at past the log was taken, and turned the final comparison off for a game the
    replay played to its end (replay, export-18xx and render refuse it too)."""
    path = write(tmp_path, game_29133)
    rc, out, err = run(capsys, "import-18xx", path, "--check", "--at", "99999")
    assert (rc, out) == (1, "")
    assert err == (
        f"eighteen import-18xx: error: {path}: --at 99999: the export has no action 99999 "
        "(its ids run from 1 to 450)\n"
    )


@pytest.mark.parametrize(
    ("result", "why"),
    [
        ({"999": 1}, "the file's result names no player of the game: 999"),
        ([1], "the file's result is not an object of each player's value"),
        ({}, "the file records no result of its finished game to compare"),
    ],
)
def test_check_fails_when_the_result_cannot_be_compared(
    game_29133: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    result: object,
    why: str,
) -> None:
    """A check compares the file's result: one naming no player, or none at all in a
    finished game's export, was "OK" with every file cell empty."""
    game_29133["result"] = result
    rc, out, _ = run(capsys, "import-18xx", write(tmp_path, game_29133), "--check")
    assert rc == 1
    assert out.splitlines()[-2:] == ["check: FAILED", f"  {why}"]


def test_the_table_aligns_under_short_names(
    game_29133: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for p, name in zip(game_29133["players"], ["Ann", "Bob", "Cy", "Di"], strict=True):
        p["name"] = name
    rc, out, _ = run(capsys, "import-18xx", write(tmp_path, game_29133))
    assert rc == 0
    lines = out.splitlines()
    assert lines[1:3] == ["  player     ours     file", "  Bob        1477     1477"]


def test_json_report(
    game_29133: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, game_29133)
    rc, out, _ = run(capsys, "import-18xx", path, "--format", "json", "--check")
    assert rc == 0
    doc = json.loads(out)
    assert (doc["matched"], doc["total"]) == (1, 1)
    rep = doc["files"][0]
    assert rep["values"]["Player 4"] == {"ours": 416, "file": 416}
    assert rep["end"] == {"ours": "bankruptcy", "file": "bankrupt"}
    assert (rep["actions"], rep["raw_actions"], rep["routes_checked"]) == (334, 450, 37)
    assert rep["divergence"] is None and rep["mismatches"] == [] and rep["matched"] is True


def test_a_file_without_an_end_reason_compares_values(
    game_29133: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    del game_29133["game_end_reason"]
    rc, out, _ = run(capsys, "import-18xx", write(tmp_path, game_29133), "--check")
    assert rc == 0, out
    assert "end: ours bankruptcy, file not recorded (values compared only)" in out


def test_a_json_file_that_is_no_export_is_skipped_in_a_batch(
    game_29133: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder's MANIFEST.json beside its games is not counted."""
    good = write(tmp_path, game_29133, "good.json")
    manifest = write(tmp_path, {"engine": "x", "games": []}, "MANIFEST.json")
    rc, out, _ = run(capsys, "import-18xx", manifest, good, "--check")
    assert rc == 0
    assert out.splitlines() == [
        f"skip {manifest}: not an 18xx.games export (no actions, players, title)",
        f"ok   {good}",
        "1/1 matched",
    ]
    rc, _, err = run(capsys, "import-18xx", manifest)  # alone it is an error
    assert rc == 1 and "the export names no title" in err


def test_an_export_with_a_byte_order_mark_or_a_spaced_title_is_read(
    game_29133: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file saved with a UTF-8 byte order mark, and a title written "1830 ", import as
    the plain export does (the format says the title is looked up tolerantly)."""
    game_29133["title"] = "1830 "
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(game_29133).encode())
    rc, out, _ = run(capsys, "import-18xx", str(path), "--check")
    assert rc == 0 and out.splitlines()[-1].startswith("check: OK")
