"""Tests of the JSON Schemas (eighteen.title.schema) and of located schema validation
(eighteen.title.validation)."""

from __future__ import annotations

import enum
import json
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from eighteen.title import model
from eighteen.title.load import LoadedFile, load_toml
from eighteen.title.model import FILE_MODELS
from eighteen.title.problems import Problem, Severity
from eighteen.title.schema import schema_documents, stale_schemas, write_schemas
from eighteen.title.validation import validate_data

REPO = Path(__file__).resolve().parents[2]


def check(tmp_path: Path, kind: str, body: str, header: bool = True) -> list[Problem]:
    """Write ``body`` as <kind>.toml (with a #:schema line) and validate it."""
    text = (f"#:schema ../../schema/{kind}.schema.json\n" if header else "") + body
    path = tmp_path / f"{kind}.toml"
    path.write_text(text, encoding="utf-8")
    loaded = load_toml(path, f"{kind}.toml")
    assert loaded.problems == []
    return validate_data(kind, loaded)


def spots(problems: list[Problem]) -> list[tuple[str, int, int, str]]:
    """(code, line, col, path) of each problem."""
    return [(p.code, p.line, p.col, p.path) for p in problems]


# ---------------------------------------------------------------------------------------
# documents


def walk(node: Any) -> Any:
    """Yield every dict inside a JSON document."""
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from walk(v)


def test_documents_are_valid_draft_2020_12() -> None:
    docs = schema_documents()
    assert sorted(docs) == sorted(FILE_MODELS)
    for kind, doc in docs.items():
        Draft202012Validator.check_schema(doc)
        assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert doc["$id"] == f"https://eighteen.dev/schema/{kind}.schema.json"
        assert doc["title"] == f"{kind}.toml"
        assert doc["description"]


def test_every_property_has_a_description_and_no_null() -> None:
    for doc in schema_documents().values():
        for node in walk(doc):
            for name, prop in node.get("properties", {}).items():
                assert prop.get("description"), name
            assert node.get("type") != "null"


def test_every_enum_of_the_models_is_present() -> None:
    defs = {name: d for doc in schema_documents().values() for name, d in doc["$defs"].items()}
    enums = [
        v
        for v in vars(model).values()
        if isinstance(v, type)
        and issubclass(v, enum.Enum)
        and v.__module__.startswith(model.__name__ + ".")
    ]
    assert enums
    for e in enums:
        assert defs[e.__name__]["enum"] == [m.value for m in e], e


def test_optional_fields_lose_their_null_branch() -> None:
    train = schema_documents()["trains"]["$defs"]["Train"]["properties"]
    assert train["rusts_on"]["type"] == "string"
    assert "default" not in train["rusts_on"]
    assert train["trade_in"]["$ref"] == "#/$defs/TradeIn"


def test_write_is_byte_stable_and_stale_detects_changes(tmp_path: Path) -> None:
    out = tmp_path / "schema"
    # + save.schema.json and compiled.schema.json
    assert len(stale_schemas(out)) == 2 * len(FILE_MODELS) + 2
    paths = write_schemas(out)
    names = sorted(p.relative_to(out).as_posix() for p in paths)
    plain = [f"{k}.schema.json" for k in FILE_MODELS]
    extra = ["save.schema.json", "compiled.schema.json"]
    assert names == sorted([*plain, *extra] + [f"overlay/{n}" for n in plain])
    first = {p.relative_to(out).as_posix(): p.read_bytes() for p in paths}
    write_schemas(out)
    assert {p.relative_to(out).as_posix(): p.read_bytes() for p in paths} == first
    assert stale_schemas(out) == []
    text = first["map.schema.json"].decode()
    assert text.endswith("}\n") and json.loads(text) == schema_documents()["map"]
    (out / "map.schema.json").write_text(text.replace("pointy", "pointed"))
    (out / "tiles.schema.json").unlink()
    assert stale_schemas(out) == ["map.schema.json", "tiles.schema.json"]


def test_committed_schemas_are_current() -> None:
    assert stale_schemas(REPO / "schema") == []


# ---------------------------------------------------------------------------------------
# located validation


def test_wrong_type_deep_in_inline_table_in_array_of_tables(tmp_path: Path) -> None:
    body = """\
[[privates]]
id = "CA"
name = "Camden & Amboy"
value = 160
revenue = 25
abilities = [
  {type = "grant_share", corporation = "PRR"},
  {type = "grant_share", corporation = "PRR", president = "yes"},
]
"""
    [p] = check(tmp_path, "privates", body)
    assert spots([p]) == [("E010", 9, 59, "privates[0].abilities[1].president")]
    assert p.file == "privates.toml"
    assert p.message == 'expected a boolean, got string "yes"'


def test_wrong_type_in_inline_table_in_array_of_tables(tmp_path: Path) -> None:
    body = """\
layout = "pointy"
rows = ["A"]
columns = [1, 2]
[[hexes]]
at = "A1"
[[hexes]]
at = "A2"
color = "red"
offboard = {revenue = {yellow = "30", brown = 50}}
"""
    [p] = check(tmp_path, "map", body)
    assert spots([p]) == [("E010", 10, 33, "hexes[1].offboard.revenue.yellow")]
    assert p.message == 'expected an integer, got string "30" (remove the quotes)'


@pytest.mark.parametrize(
    ("quoted", "hint"),
    [
        ("1_000", " (remove the quotes)"),  # TOML reads 1_000 as 1000
        ("+5", " (remove the quotes)"),
        ("007", ""),  # a leading zero is no TOML number
        ("inf", ""),  # nor is a number that is not finite a count
        ("5\\nx = 1", ""),  # more than one value
    ],
)
def test_remove_the_quotes_only_when_that_makes_a_number(
    tmp_path: Path, quoted: str, hint: str
) -> None:
    body = f'layout = "pointy"\nrows = ["A"]\ncolumns = [1, 2]\n[[hexes]]\nat = "A1"\ncost = "{quoted}"\n'
    [p] = check(tmp_path, "map", body)
    assert p.code == "E010"
    shown = json.dumps(tomllib.loads(f'v = "{quoted}"')["v"])  # the string as TOML reads it
    assert p.message == f"expected an integer, got string {shown}{hint}"


def test_a_float_is_no_integer(tmp_path: Path) -> None:
    """TOML tells 80 from 80.0: a float where an integer belongs is refused at the value
    (JSON Schema's "integer" alone would take it, and the engine would compute in floats)."""
    body = '[[trains]]\nid = "2"\ndistance = 2\nprice = 80.0\ncount = 6\n'
    [p] = check(tmp_path, "trains", body)
    assert spots([p]) == [("E010", 5, 9, "trains[0].price")]
    assert p.message == "expected an integer, got float 80.0"


def test_unknown_key_with_did_you_mean(tmp_path: Path) -> None:
    body = '[[trains]]\nid = "2"\ndistance = 2\nprise = 80\ncount = 6\n'
    [p] = check(tmp_path, "trains", body)
    assert spots([p]) == [("E011", 5, 1, "trains[0].prise")]
    assert p.message == "unknown key 'prise'; did you mean 'price'?"


def test_unknown_key_without_a_close_match_lists_allowed_keys(tmp_path: Path) -> None:
    [p] = check(tmp_path, "phases", '[[phases]]\nid = "2"\nzzz = 1\n' + PHASE_REST)
    assert spots([p]) == [("E011", 4, 1, "phases[0].zzz")]
    assert p.message.startswith("unknown key 'zzz'; allowed keys: id, on, tiles, ")


PHASE_REST = 'tiles = ["yellow"]\noperating_rounds = 1\ntrain_limit = 4\noffboard_revenue = "y"\n'


def test_missing_keys_are_reported_once_at_the_table(tmp_path: Path) -> None:
    body = '[[phases]]\nid = "2"\n' + PHASE_REST + '[[phases]]\nid = "3"\ntiles = ["green"]\n'
    [p] = check(tmp_path, "phases", body)
    assert spots([p]) == [("E012", 8, 1, "phases[1]")]
    assert p.message == "missing keys 'operating_rounds', 'train_limit', 'offboard_revenue'"


def test_missing_key_in_header_table_points_at_its_name(tmp_path: Path) -> None:
    body = (
        'id = "x"\nname = "X"\ndesigners = ["A"]\nversion = "1.0.0"\nbank = 1\n'
        'starting_cash = {"3" = 1}\ncertificate_limit = {"3" = 1}\n'
        '[players]\nmin = 3\n[rules]\ncapitalization = "full"\ntile_lays = [{kinds = ["new"]}]\n'
    )
    [p] = check(tmp_path, "title", body)
    assert spots([p]) == [("E012", 9, 2, "players")]
    assert p.message == "missing key 'max'"


def test_missing_keys_of_the_whole_file(tmp_path: Path) -> None:
    [p] = check(tmp_path, "market", "")
    assert spots([p]) == [("E012", 1, 1, "")]
    assert p.message == "missing keys 'type', 'rows'"


def test_range_enum_and_pattern(tmp_path: Path) -> None:
    body = """\
layout = "pointy"
rows = ["A"]
columns = [1, 2]
hexes = [
  {at = ["A1", "b2"], color = "purple", cities = [{revenue = 10, slots = 9, exits = [6]}]},
  {at = "A1\\n"},
]
"""
    problems = check(tmp_path, "map", body)
    assert spots(problems) == [
        ("E015", 6, 16, "hexes[0].at[1]"),
        ("E014", 6, 31, "hexes[0].color"),
        ("E013", 6, 74, "hexes[0].cities[0].slots"),
        ("E013", 6, 86, "hexes[0].cities[0].exits[0]"),
        ("E015", 7, 9, "hexes[1].at"),  # JSON Schema `$` is the end of input
    ]
    assert problems[0].message.startswith('"b2" does not match the pattern ^[A-Z]{1,2}[0-9]{1,3}$')
    assert problems[1].message == (
        '"purple" is not one of the allowed values: '
        '"white", "yellow", "green", "brown", "gray", "red", "blue"'
    )
    assert problems[2].message == "9 is above the maximum 6"


def test_one_report_per_spot(tmp_path: Path) -> None:
    body = 'layout = 5\nrows = ["A"]\ncolumns = [1, 2]\nhexes = [{at = "A1"}]\n'
    [p] = check(tmp_path, "map", body)
    assert spots([p]) == [("E010", 2, 10, "layout")]
    assert p.message == "expected a string, got integer 5"


def test_tagged_union_reports_the_matching_branch(tmp_path: Path) -> None:
    body = """\
[[privates]]
id = "DH"
name = "Delaware & Hudson"
value = 70
revenue = 15

[[privates.abilities]]
type = "tile_lay"
hexes = ["F16"]
tiles = ["57"]
fre = true

[[privates.abilities]]
type = "blok_hexes"
hexes = ["F16"]

[[privates.abilities]]
hexes = ["F16"]
"""
    problems = check(tmp_path, "privates", body)
    assert spots(problems) == [
        ("E011", 12, 1, "privates[0].abilities[0].fre"),
        ("E014", 15, 8, "privates[0].abilities[1].type"),
        ("E012", 18, 1, "privates[0].abilities[2]"),
    ]
    assert problems[0].message == "unknown key 'fre'; did you mean 'free'?"
    assert problems[1].message.startswith(
        'unknown ability type "blok_hexes"; expected one of: "block_hexes", "tile_lay",'
    )
    assert problems[1].message.endswith('; did you mean "block_hexes"?')
    assert problems[2].message == "missing key 'type'"


def test_a_rule_that_needs_data_cannot_be_written_without_it(tmp_path: Path) -> None:
    """The share issue of emergency_money is a table with its terms: the bare name, or the
    table without its terms, is a schema error at the list element (once E157, a check
    across two keys)."""
    title = (REPO / "tests/title/corpus/base/title.toml").read_text().split("\n", 1)[1]
    bare = title + 'emergency_money = ["treasury", "issue_shares", "president_cash"]\n'
    [p] = check(tmp_path, "title", bare)
    assert spots([p]) == [("E010", 24, 32, "rules.emergency_money[1]")]
    assert p.message == (
        '"issue_shares" needs its terms: write '
        '{ kind = "issue_shares", drop_per_share = ..., sale_offset = ..., pricing = ... }'
    )
    short = title + 'emergency_money = [{ kind = "issue_shares", pricing = "bundle" }]\n'
    [p] = check(tmp_path, "title", short)
    assert spots([p]) == [("E012", 24, 20, "rules.emergency_money[0]")]
    assert p.message == "missing keys 'drop_per_share', 'sale_offset'"
    # the terms used to be a table beside the list (docs/variants.md, "Migrations so far")
    old = title + 'emergency_issue = { drop_per_share = 1, sale_offset = -1, pricing = "bundle" }\n'
    [p] = check(tmp_path, "title", old)
    assert spots([p]) == [("E011", 24, 1, "rules.emergency_issue")]
    assert p.message == "unknown key 'emergency_issue'; did you mean 'emergency_money'?"
    good = 'emergency_money = [{ kind = "issue_shares", drop_per_share = 0, sale_offset = 0, '
    assert check(tmp_path, "title", title + good + 'pricing = "bundle" }]\n') == []


def test_plain_union_dispatches_on_type(tmp_path: Path) -> None:
    body = """\
[[trains]]
id = "2"
distance = "far"
price = 80
count = true
[[trains]]
id = "3"
distance = {cities = 0}
price = 180
count = "unlimited"
"""
    problems = check(tmp_path, "trains", body)
    assert spots(problems) == [
        ("E010", 4, 12, "trains[0].distance"),
        ("E010", 6, 9, "trains[0].count"),
        ("E013", 9, 22, "trains[1].distance.cities"),
    ]
    assert problems[0].message == ('expected an integer, "unlimited" or a table, got string "far"')
    assert problems[1].message == 'expected an integer or "unlimited", got boolean true'


def test_array_size(tmp_path: Path) -> None:
    [p] = check(tmp_path, "trains", "trains = []\n")
    assert spots([p]) == [("E010", 2, 10, "trains")]
    assert p.message == "needs at least 1 entry, has 0"


def test_toml_dates_are_not_strings(tmp_path: Path) -> None:
    body = 'phases = [{id = 2020-01-01, tiles = ["yellow"], operating_rounds = 1, '
    body += 'train_limit = 4, offboard_revenue = "y"}]\n'
    [p] = check(tmp_path, "phases", body)
    assert spots([p]) == [("E010", 2, 17, "phases[0].id")]
    assert p.message == "expected a string, got datetime 2020-01-01"


def test_schema_comment_warnings(tmp_path: Path) -> None:
    [p] = check(
        tmp_path, "trains", 'trains = [{id = "2", distance = 2, price = 1, count = 1}]\n', False
    )
    assert (p.code, p.line, p.col, p.severity) == ("W016", 1, 1, Severity.warning)
    assert "#:schema ../../schema/trains.schema.json" in p.message
    path = tmp_path / "trains.toml"
    path.write_text(
        '#:schema ../../schema/map.schema.json\ntrains = [{id = "2", distance = 2, price = 1, count = 1}]\n'
    )
    [p] = validate_data("trains", load_toml(path))
    assert p.code == "W016" and "expected a path ending in trains.schema.json" in p.message


def test_unusable_file_gives_no_schema_problems(tmp_path: Path) -> None:
    assert validate_data("map", load_toml(tmp_path / "missing.toml")) == []


def test_unknown_kind_is_a_programming_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        validate_data("nope", load_toml(tmp_path / "missing.toml"))


def test_the_1830_title_validates_cleanly() -> None:
    for path in sorted((REPO / "titles" / "1830").glob("*.toml")):
        loaded = load_toml(path)
        assert loaded.problems == [], path
        assert validate_data(path.stem, loaded) == [], path


# ---------------------------------------------------------------------------------------
# property tests: never raise, on any text, for any kind

KINDS = st.sampled_from(sorted(FILE_MODELS))
NAMES = st.sampled_from(
    sorted(
        {
            n
            for doc in schema_documents().values()
            for d in walk(doc)
            for n in d.get("properties", {})
        }
        | {"zzz", "4"}
    )
)
LEAVES = st.one_of(
    st.integers(-10, 300),
    st.booleans(),
    st.sampled_from(["A1", "yellow", "unlimited", "block_hexes", "tile_lay", "2d", "x", ""]),
    st.floats(allow_nan=False),
    st.dates(),
)
SHAPED = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(NAMES, inner, max_size=4),
    max_leaves=20,
)


def _validate_bytes(kind: str, raw: bytes) -> list[Problem]:
    """Load bytes as a file of ``kind`` and validate it."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{kind}.toml"
        path.write_bytes(raw)
        loaded: LoadedFile = load_toml(path)
    return loaded.problems + validate_data(kind, loaded)


@settings(max_examples=150, deadline=None)
@given(KINDS, st.dictionaries(NAMES, SHAPED, max_size=6))
def test_validate_never_raises_on_shaped_data(kind: str, data: dict[str, Any]) -> None:
    problems = _validate_bytes(kind, tomli_w.dumps(data).encode())
    for p in problems:
        assert p.line >= 1 and p.col >= 1 and p.code[0] in "EW"


@settings(max_examples=150, deadline=None)
@given(KINDS, st.binary(max_size=100) | st.text(max_size=100).map(str.encode))
def test_validate_never_raises_on_any_input(kind: str, raw: bytes) -> None:
    _validate_bytes(kind, raw)


def _unbounded(node: object, path: str, out: list[str]) -> None:
    if isinstance(node, dict):
        keys = set(node)
        if (
            node.get("type") in ("integer", "number")
            and "const" not in node
            and not (
                keys & {"minimum", "exclusiveMinimum"} and keys & {"maximum", "exclusiveMaximum"}
            )
        ):
            out.append(path)
        for k, v in node.items():
            _unbounded(v, f"{path}/{k}", out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            _unbounded(v, f"{path}/{i}", out)


def test_every_number_has_a_range() -> None:
    """Issue 18: counts, money, limits and distances are all bounded (64 bits at most)."""
    out: list[str] = []
    for kind, doc in schema_documents().items():
        _unbounded(doc, kind, out)
    assert out == []
    title = schema_documents()["title"]
    assert title["properties"]["bank"]["minimum"] == 1
    assert title["properties"]["certificate_limit"]["additionalProperties"]["minimum"] == 1
    count = schema_documents()["trains"]["$defs"]["Train"]["properties"]["count"]["anyOf"][0]
    assert (count["minimum"], count["maximum"]) == (0, 1000)
