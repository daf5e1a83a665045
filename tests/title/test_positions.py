"""Tests of the position scanner (eighteen.title.positions): where each key and value starts."""

from __future__ import annotations

from eighteen.title import load
from eighteen.title.positions import SCAN_DEPTH_LIMIT, PositionIndex, index_positions


def test_fallback_to_nearest_ancestor() -> None:
    idx = index_positions("[t]\nk = {a = 1}\n")
    assert idx.value(("t", "k", "missing", 3)) == (2, 5)
    assert idx.key(("t", "k", "missing")) == (2, 1)
    assert idx.key(("nothing",)) == (1, 1)
    assert PositionIndex().value(()) == (1, 1)


def test_explicit_table_header_beats_implied_one() -> None:
    idx = index_positions("[a.b]\nx = 1\n[a]\ny = 2\n")
    assert idx.key(("a",)) == (3, 2)
    assert idx.key(("a", "b")) == (1, 4)


def test_nested_arrays_of_tables_restart_per_parent() -> None:
    text = "[[a]]\n[[a.b]]\n[[a.b]]\n[[a]]\n[[a.b]]\nk = 1\n"
    idx = index_positions(text)
    assert idx.key(("a", 0, "b", 1)) == (3, 1)
    assert idx.key(("a", 1, "b", 0)) == (5, 1)
    assert idx.value(("a", 1, "b", 0, "k")) == (6, 5)


def test_crlf_and_tabs() -> None:
    idx = index_positions("a = 1\r\n\tb\t=\t[1,\r\n\t2]\r\n")
    assert idx.value(("b",)) == (2, 6)
    assert idx.value(("b", 1)) == (3, 2)


def test_scanner_stops_quietly_on_nonsense() -> None:
    idx = index_positions("a = 1\nb = = 2\nc = 3\n")
    assert idx.value(("a",)) == (1, 5)
    assert ("c",) not in idx


def test_scan_depth_guard_is_four_times_the_loaders_limit() -> None:
    assert SCAN_DEPTH_LIMIT == 4 * load.MAX_DEPTH == 256


def test_scanner_stops_quietly_past_its_depth_guard() -> None:
    deep = "a = 1\nb = " + "[" * 300 + "]" * 300 + "\nc = 2\n"
    idx = index_positions(deep)
    assert idx.value(("a",)) == (1, 5)
    assert idx.value(("b",)) == (2, 5)
    assert idx.value(("b", 0, 0)) == (2, 7)
    assert ("c",) not in idx
