"""Random mutations of the 1830 files never crash validation; problems are always located."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path
from typing import Any

import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eighteen.title.pipeline import load_title

ROOT = Path(__file__).resolve().parent.parent.parent
KINDS = ["title", "map", "tiles", "trains", "phases", "privates", "corporations", "market"]
ORIGINAL = {k: (ROOT / "titles" / "1830" / f"{k}.toml").read_bytes() for k in KINDS}


def leaf_paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a scalar value in a TOML document."""
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in leaf_paths(v, (*prefix, k))]
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in leaf_paths(v, (*prefix, i))]
    return [prefix]


def set_at(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    for part in path[:-1]:
        doc = doc[part]
    if value is DELETE:
        del doc[path[-1]]
    else:
        doc[path[-1]] = value


DELETE = object()


def copy_title(tmp: Path) -> Path:
    shutil.copytree(ROOT / "titles" / "common", tmp / "titles" / "common", dirs_exist_ok=True)
    target = tmp / "titles" / "1830"
    target.mkdir(parents=True, exist_ok=True)
    for k, raw in ORIGINAL.items():
        (target / f"{k}.toml").write_bytes(raw)
    return target


def assert_located(target: Path) -> list[Any]:
    _, problems = load_title(target)  # must not raise
    for p in problems:
        assert p.line >= 1 and p.col >= 1, p
        assert Path(p.file).name.endswith(".toml"), p
        assert p.code[0] in "EW" and p.message, p
    return problems


SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None
)


@SETTINGS
@given(
    kind=st.sampled_from(KINDS),
    pick=st.integers(0, 10_000),
    mode=st.sampled_from(["delete", "table", "negative", "huge", "string"]),
)
def test_value_mutations_never_raise(
    tmp_path_factory: Any, kind: str, pick: int, mode: str
) -> None:
    target = copy_title(tmp_path_factory.mktemp("fuzz"))
    doc = tomllib.loads(ORIGINAL[kind].decode())
    paths = leaf_paths(doc)
    path = paths[pick % len(paths)]
    value = {
        "delete": DELETE,
        "table": {"zz": 1},
        "negative": -99999,
        "huge": 10**30,
        "string": '\x00<&>"',
    }[mode]
    set_at(doc, path, value)
    (target / f"{kind}.toml").write_text(tomli_w.dumps(doc))
    problems = assert_located(target)
    if mode == "table":  # no scalar field accepts a table: always an error, at that file
        errors = [p for p in problems if p.is_error]
        assert errors and any(Path(p.file).name == f"{kind}.toml" for p in errors)


@SETTINGS
@given(
    kind=st.sampled_from(KINDS),
    at=st.integers(0, 100_000),
    junk=st.binary(min_size=1, max_size=40),
)
def test_garbage_bytes_never_raise(tmp_path_factory: Any, kind: str, at: int, junk: bytes) -> None:
    target = copy_title(tmp_path_factory.mktemp("fuzz"))
    raw = ORIGINAL[kind]
    i = at % (len(raw) + 1)
    (target / f"{kind}.toml").write_bytes(raw[:i] + junk + raw[i:])
    assert_located(target)


def test_the_unmutated_title_is_clean(tmp_path: Path) -> None:
    assert [p.format() for p in assert_located(copy_title(tmp_path))] == []
