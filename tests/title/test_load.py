"""Tests of TOML loading with source positions (eighteen.title.load)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eighteen.title.load import (
    MAX_BYTES,
    load_toml,
    schema_comment,
)
from eighteen.title.positions import index_positions


def write(tmp_path: Path, text: str | bytes, name: str = "f.toml") -> Path:
    """Write text or bytes to a file under tmp_path and return its path."""
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_bytes(text.encode("utf-8"))
    return path


def all_paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path in a parsed document, parents before children."""
    out = []
    items = data.items() if isinstance(data, dict) else enumerate(data)
    for k, v in items:
        out.append((*prefix, k))
        if isinstance(v, dict | list):
            out.extend(all_paths(v, (*prefix, k)))
    return out


DOC = """\
#:schema ../../schema/map.schema.json
# a comment with [brackets] and "quotes" and = signs
layout = "pointy"   # trailing comment
rows = ["A", 'B',
  \"\"\"C\"\"\", # inside an array
]
a.b . "c\\u0041" = 1979-05-27 07:32:00Z
'lit key' = '''
multi ''' # after a multi-line literal
[x.y]
z = {p = 1, q = {r = [1, {s = 2}]}}
[[hexes]]
at = "A1"
cities = [{revenue = 20}, {revenue = "x"}]
[[hexes]]
at = ["B2"]
[hexes.offboard]
revenue = {yellow = 30}
[[hexes.borders]]
edge = 1
t = \"\"\"a\"\"\"\"
u = [[1, 2], [3, [4, 5]]]
[[hexes.borders]]
edge = +2
"""


def test_positions_of_every_syntax(tmp_path: Path) -> None:
    loaded = load_toml(write(tmp_path, DOC))
    assert loaded.problems == []
    idx = loaded.index
    assert idx.key(("layout",)) == (3, 1)
    assert idx.value(("layout",)) == (3, 10)
    assert idx.value(("rows", 1)) == (4, 14)
    assert idx.value(("rows", 2)) == (5, 3)
    assert idx.key(("a", "b")) == (7, 3)
    assert idx.key(("a", "b", "cA")) == (7, 7)
    assert idx.value(("a", "b", "cA")) == (7, 19)
    assert idx.value(("lit key",)) == (8, 13)
    assert idx.key(("x", "y")) == (10, 4)
    assert idx.value(("x", "y", "z", "q", "r", 1, "s")) == (11, 31)
    assert idx.key(("hexes", 0)) == (12, 1)
    assert idx.key(("hexes", 0, "cities", 1, "revenue")) == (14, 28)
    assert idx.value(("hexes", 0, "cities", 1, "revenue")) == (14, 38)
    assert idx.key(("hexes", 1)) == (15, 1)
    assert idx.value(("hexes", 1, "at", 0)) == (16, 7)
    assert idx.key(("hexes", 1, "offboard")) == (17, 8)
    assert idx.value(("hexes", 1, "offboard", "revenue", "yellow")) == (18, 21)
    assert idx.key(("hexes", 1, "borders", 0)) == (19, 1)
    assert idx.value(("hexes", 1, "borders", 0, "t")) == (21, 5)
    assert idx.value(("hexes", 1, "borders", 0, "u", 1, 1, 0)) == (22, 19)
    assert idx.key(("hexes", 1, "borders", 1)) == (23, 1)
    assert idx.value(("hexes", 1, "borders", 1, "edge")) == (24, 8)
    assert loaded.data is not None
    assert loaded.data["hexes"][1]["borders"][0]["t"] == 'a"'
    assert all(p in idx for p in all_paths(loaded.data))


def test_syntax_error_position(tmp_path: Path) -> None:
    loaded = load_toml(write(tmp_path, 'a = 1\nb = [1, 2\nc = "x"\n'), "t/f.toml")
    assert loaded.data is None
    [p] = loaded.problems
    assert (p.file, p.code, p.line, p.col) == ("t/f.toml", "E001", 3, 1)
    assert p.message.startswith("TOML syntax error: ")


def test_syntax_error_at_end_of_document(tmp_path: Path) -> None:
    loaded = load_toml(write(tmp_path, 'a = 1\nb = "'))
    [p] = loaded.problems
    assert (p.code, p.line, p.col) == ("E001", 2, 5)
    assert p.message == (
        "TOML syntax error: unterminated string: the string opened here has no closing "
        "quote on its line"
    )


SYNTAX = [
    ('a = 1\nlayout = "pointy\nb = 1\n', (2, 10),
     "unterminated string: the string opened here has no closing quote on its line"),
    ('x = 1\na = """abc\n', (2, 5),
     "unterminated string: the multi-line string opened here is never closed"),
    ("a =\n", (1, 4), "a value is missing after '='"),
    ("a = yes\n", (1, 5),
     "'yes' is not a TOML value: text needs quotes (\"yes\"), booleans are true or false"),
    ("a = 1\n  a = 2\n", (2, 3), "key 'a' is written twice (each key once per table)"),
    ("[x]\n[x]\n", (2, 3), "table [x] is declared twice"),
    ("a 1\n", (1, 3), "'=' missing after the key"),
    ("a = 1 2\n", (1, 7),
     "unexpected text after the value: one key = value per line (a quote or a comma missing?)"),
    ("a = {b = 1,}\n", (1, 12), "a key was expected here (a comma after the last value of an "
     "inline table, or a stray character?)"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "pos", "message"), SYNTAX)
def test_syntax_errors_say_what_is_wrong(
    tmp_path: Path, text: str, pos: tuple[int, int], message: str
) -> None:
    [p] = load_toml(write(tmp_path, text)).problems
    assert ((p.line, p.col), p.message) == (pos, f"TOML syntax error: {message}")


def test_duplicate_key_is_a_syntax_error(tmp_path: Path) -> None:
    loaded = load_toml(write(tmp_path, "a = 1\na = 2\n"))
    [p] = loaded.problems
    assert (p.code, p.line, p.col) == ("E001", 2, 1)  # at the key written again


def test_missing_file(tmp_path: Path) -> None:
    loaded = load_toml(tmp_path / "nope.toml", "titles/x/nope.toml")
    assert loaded.data is None
    assert loaded.raw == b""
    [p] = loaded.problems
    assert (p.file, p.code, p.line, p.col, p.message) == (
        "titles/x/nope.toml",
        "E002",
        1,
        1,
        "file not found",
    )


def test_directory_is_unreadable(tmp_path: Path) -> None:
    [p] = load_toml(tmp_path).problems
    assert p.code == "E002"


def test_garbage_bytes(tmp_path: Path) -> None:
    raw = b'a = 1\nname = "caf\xc3\xa9 \xff\xfe"\n'
    loaded = load_toml(write(tmp_path, raw))
    assert loaded.data is None
    assert loaded.raw == raw
    [p] = loaded.problems
    assert (p.code, p.line, p.col) == ("E003", 2, 14)
    assert "0xff" in p.message


def test_too_large(tmp_path: Path) -> None:
    loaded = load_toml(write(tmp_path, b"#" * (MAX_BYTES + 1)))
    [p] = loaded.problems
    assert (p.code, p.line, p.col) == ("E004", 1, 1)
    assert loaded.data is None


def test_deeply_nested_arrays_are_refused(tmp_path: Path) -> None:
    loaded = load_toml(write(tmp_path, "x = 1\na = " + "[" * 10000 + "]" * 10000 + "\n"))
    [p] = loaded.problems
    assert (p.code, p.line, p.col) == ("E004", 2, 69)
    assert loaded.data is None


def test_deeply_nested_inline_tables_are_refused(tmp_path: Path) -> None:
    text = "a = " + "{b = " * 5000 + "1" + "}" * 5000
    [p] = load_toml(write(tmp_path, text)).problems
    assert p.code == "E004"


def test_nesting_at_the_limit_is_accepted(tmp_path: Path) -> None:
    loaded = load_toml(write(tmp_path, "a = " + "[" * 64 + "]" * 64 + "\n"))
    assert loaded.problems == []


def test_deep_dotted_keys_are_refused(tmp_path: Path) -> None:
    text = "a = 1\n" + ".".join(["k"] * 100) + " = 1\n"
    loaded = load_toml(write(tmp_path, text))
    [p] = loaded.problems
    assert (p.code, p.line, p.col) == ("E004", 2, 129)
    assert loaded.data is None


def test_brackets_in_strings_and_comments_do_not_count(tmp_path: Path) -> None:
    text = 'a = "' + "[" * 100 + '"\n# ' + "{" * 100 + "\nb = '''" + "[" * 100 + "'''\n"
    loaded = load_toml(write(tmp_path, text))
    assert loaded.problems == []


def test_byte_order_mark(tmp_path: Path) -> None:
    [p] = load_toml(write(tmp_path, "\ufeffa = 1\n")).problems
    assert (p.code, p.line, p.col) == ("E001", 1, 1)


def test_schema_comment() -> None:
    assert schema_comment("#:schema ../../schema/map.schema.json\nx = 1") == (
        "../../schema/map.schema.json"
    )
    assert schema_comment("#:schema   ./a b.json  \r\n") == "./a b.json"
    assert schema_comment("# schema x\n") is None
    assert schema_comment("x = 1\n#:schema a.json\n") is None
    assert schema_comment("") is None


# ---------------------------------------------------------------------------------------
# property tests

KEYS = st.text(alphabet="abc_-1 .\"'é", min_size=1, max_size=6)
SCALARS = st.one_of(
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False),
    st.booleans(),
    st.text(max_size=10),
    st.dates(),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(KEYS, VALUES, max_size=5))
def test_every_path_of_valid_toml_is_indexed(data: dict[str, Any]) -> None:
    text = tomli_w.dumps(data)
    idx = index_positions(text)
    for path in all_paths(data):
        assert path in idx, (path, text)
        line, col = idx.value(path)
        assert 1 <= line <= text.count("\n") + 1 and col >= 1


TOMLISH = st.text(alphabet=list("[]{}=\"'#.,\n \\abc1-:tT\t\r\xff\u00e9"), max_size=80)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(TOMLISH, st.text(max_size=80)))
def test_scanner_never_raises(text: str) -> None:
    index_positions(text)


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=80) | TOMLISH.map(lambda s: s.encode("utf-8", "replace")))
def test_load_never_raises(raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "f.toml"
        path.write_bytes(raw)
        loaded = load_toml(path)
    assert (loaded.data is None) == bool(loaded.problems)
    for p in loaded.problems:
        assert p.line >= 1 and p.col >= 1


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment", "[a]\n[[b]]\n"])
def test_trivial_documents(tmp_path: Path, text: str) -> None:
    loaded = load_toml(write(tmp_path, text))
    assert loaded.problems == []
    assert loaded.data is not None


def test_dotted_key_of_100000_parts_is_refused(tmp_path: Path) -> None:
    """tomllib needs quadratic time and memory for it: the reader refuses it first."""
    loaded = load_toml(write(tmp_path, "x = 1\n" + "a" + ".a" * 99_999 + " = 1\n"))
    assert [(p.code, p.line, p.col, p.message) for p in loaded.problems] == [
        ("E004", 2, 129, "a dotted key has more than 64 parts")
    ]
    assert loaded.data is None


def test_dotted_key_at_the_limit_and_floats_are_accepted(tmp_path: Path) -> None:
    text = "a" + ".a" * 63 + " = 1\n" + "b = [" + ", ".join(["1.5"] * 100) + "]\n"
    assert load_toml(write(tmp_path, text)).problems == []


def test_huge_integer_is_located(tmp_path: Path) -> None:
    loaded = load_toml(write(tmp_path, 'name = "123456789012345678901234"\nn = ' + "9" * 5000))
    assert [(p.code, p.line, p.col, p.message) for p in loaded.problems] == [
        ("E013", 2, 5, "integer of 5000 digits is out of range (64 bits)")
    ]


def test_long_string_is_refused(tmp_path: Path) -> None:
    loaded = load_toml(write(tmp_path, "a = 1\nb = '" + "x" * 10_001 + "'\n"))
    assert [(p.code, p.line, p.col) for p in loaded.problems] == [("E004", 2, 5)]
    assert load_toml(write(tmp_path, "b = '" + "x" * 10_000 + "'\n")).problems == []


def test_huge_hex_integer_is_located(tmp_path: Path) -> None:
    """Python converts hex without a digit limit; the message would print 5,000 digits."""
    loaded = load_toml(write(tmp_path, "n = 0x" + "f" * 5000 + "\nm = 0xffffffffffffffff\n"))
    assert [(p.code, p.line, p.col, p.message) for p in loaded.problems] == [
        ("E013", 1, 5, "integer of 5000 digits is out of range (64 bits)")
    ]
