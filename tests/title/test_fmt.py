"""`eighteen fmt`: canonical title files, comments kept, meaning never changed."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from eighteen.cli import main
from eighteen.title.fmt import FormatError, format_text, kind_of, toml_files

ROOT = Path(__file__).resolve().parent.parent.parent
TITLE_FILES = toml_files([ROOT / "titles"])


@pytest.mark.parametrize("path", TITLE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_title_files_are_canonical(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert format_text(text, kind_of(path)) == text


def test_identity_first_and_comments_move_along() -> None:
    text = """#:schema ../../schema/trains.schema.json
# The header stays on top.

[[trains]]
price = 80  # price note
# about the count
count = 6
id = "2"
distance = 2
"""
    assert (
        format_text(text, "trains")
        == """#:schema ../../schema/trains.schema.json
# The header stays on top.

[[trains]]
id = "2"
price = 80  # price note
# about the count
count = 6
distance = 2
"""
    )


def test_blank_lines_and_free_comments_stay_in_place() -> None:
    text = """#:schema x
name = "n"

# assumption: a free-standing note

id = "t"
"""
    assert (
        format_text(text, "title")
        == """#:schema x
id = "t"

# assumption: a free-standing note

name = "n"
"""
    )


def test_other_keys_and_tables_keep_their_order() -> None:
    text = """[rules]
tile_lays = [{ cost = 0, kinds = ["new"] }]
capitalization = "full"

[starting_cash]
"3" = 800
"2" = 1200

[[options]]
description = "d"
id = "o"
"""
    assert (
        format_text(text, "title")
        == """[rules]
tile_lays = [{ cost = 0, kinds = ["new"] }]
capitalization = "full"

[starting_cash]
"3" = 800
"2" = 1200

[[options]]
id = "o"
description = "d"
"""
    )


def test_ability_type_first() -> None:
    text = '[[privates]]\nid = "X"\nabilities = [{ from = ["ipo"], corporation = "A", type = "exchange_share" }]\n'
    out = format_text(text, "privates")
    assert 'abilities = [{ type = "exchange_share", from = ["ipo"], corporation = "A" }]' in out


def test_numbers_strings_and_keys_normalized() -> None:
    text = """'bank' = 12_000
version='1.0.0'
  id  =  "x"
[certificate_limit]
2 = 0x1C
[rules]
private_price_min_factor = 5e-1
"""
    assert (
        format_text(text, "title")
        == """id = "x"
"bank" = 12000
version = "1.0.0"
[certificate_limit]
"2" = 28
[rules]
private_price_min_factor = 0.5
"""
    )


def test_whitespace_tidied() -> None:
    assert format_text("\n\nid = 'a'   \n\n\n\nname = \"b\"\n\n\n", "title") == (
        'id = "a"\n\nname = "b"\n'
    )


def test_multiline_strings_untouched() -> None:
    text = 'id = "a"\nname = """two  \n\n\nlines"""\n'
    assert format_text(text, "title") == text


def test_overlay_directives_kept() -> None:
    text = '[[trains]]\nprice = 320\nid = "4"\n\n[remove]\ntrains = ["6"]\n'
    assert (
        format_text(text, "trains")
        == '[[trains]]\nid = "4"\nprice = 320\n\n[remove]\ntrains = ["6"]\n'
    )


def test_unknown_file_kind_only_normalizes() -> None:
    assert format_text("b = 0x10\na = 'x'\n") == 'b = 16\na = "x"\n'


def test_syntax_error_refused() -> None:
    with pytest.raises(FormatError, match="TOML syntax error"):
        format_text("a = \n")


def _shuffled(node: Any, rng: random.Random) -> Any:
    """The same data with every table's keys in a random order."""
    if isinstance(node, dict):
        keys = list(node)
        rng.shuffle(keys)
        return {k: _shuffled(node[k], rng) for k in keys}
    if isinstance(node, list):
        return [_shuffled(x, rng) for x in node]
    return node


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), index=st.integers(0, len(TITLE_FILES) - 1))
def test_shuffled_files_keep_meaning_and_format_stably(seed: int, index: int) -> None:
    path = TITLE_FILES[index]
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    text = tomli_w.dumps(_shuffled(data, random.Random(seed)))
    out = format_text(text, kind_of(path))
    assert tomllib.loads(out) == data
    assert format_text(out, kind_of(path)) == out


def test_cli_check_and_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "title.toml"
    good.write_text('id = "a"\n')
    bad = tmp_path / "sub" / "trains.toml"
    bad.parent.mkdir()
    bad.write_text("[[trains]]\nprice = 1\nid = '2'\n")
    assert main(["fmt", "--check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "trains.toml" in out and "title.toml" not in out
    assert bad.read_text() == "[[trains]]\nprice = 1\nid = '2'\n"  # --check writes nothing
    assert main(["fmt", str(tmp_path)]) == 0
    assert bad.read_text() == '[[trains]]\nid = "2"\nprice = 1\n'
    assert main(["fmt", "--check", str(tmp_path)]) == 0


def test_cli_reports_unparsable_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each as `validate` reports it: file:line:col, the code and the same words."""
    monkeypatch.chdir(tmp_path)
    for name, text, said in [
        ("map.toml", "layout = \n", "1:10: error[E001]: TOML syntax error: a value is missing"),
        ("title.toml", "a = = 1\n", "1:5: error[E001]: TOML syntax error: '=' is not a TOML"),
        ("tiles.toml", "n = 12345678901234567890\n", "1:5: error[E013]: integer of 20 digits"),
    ]:
        (tmp_path / name).write_text(text)
        assert main(["fmt", name]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"{name}:{said}"), err
        assert main(["validate", "."]) == 1
        assert f"{name}:{said}" in capsys.readouterr().out
        assert (tmp_path / name).read_text() == text
        (tmp_path / name).unlink()
    (tmp_path / "privates.toml").write_bytes(b"a = 1\nb = '\xff'\n")
    assert main(["fmt", "privates.toml"]) == 1
    assert capsys.readouterr().err.startswith("privates.toml:2:6: error[E003]: ")
    assert main(["fmt", "missing.toml"]) == 1
    assert capsys.readouterr().err.splitlines()[0] == (
        "missing.toml:1:1: error[E002]: no such file, folder or title"
    )


def test_cli_with_nothing_to_work_on_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # (in no project: no titles/ here or above)
    for command in ("fmt", "validate", "compile"):
        assert main([command]) == 2
        assert capsys.readouterr().err.startswith(
            f"eighteen {command}: error: no titles to work on: "
        )


def test_cli_takes_a_title_id_from_any_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["fmt", "--check", "1830"]) == 0
    assert capsys.readouterr().err == "fmt: 8 file(s), would reformat 0\n"
