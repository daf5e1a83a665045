"""The undo/redo filter of 18xx.games exports (reference note §3.2), on invented logs."""

from __future__ import annotations

from typing import Any

import pytest

from eighteen.io.games18xx import ExportError, effective_actions, filter_actions


def log(*entries: str | tuple[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Actions with ids 1..n: "bid", "undo", "redo", "message" or (type, extra fields)."""
    out = []
    for i, e in enumerate(entries, 1):
        t, extra = (e, {}) if isinstance(e, str) else e
        out.append({"id": i, "type": t, **extra})
    return out


def ids(raw: list[dict[str, Any]]) -> list[int]:
    return [a["id"] for a in filter_actions(raw)]


def test_undo_then_redo_restores() -> None:
    assert ids(log("bid", "undo", "redo", "bid")) == [1, 4]


def test_undo_redo_chains() -> None:
    # the fixture's 186-192: three tries, the last one redone
    raw = log("pass", "buy", "undo", "buy", "undo", "buy", "undo", "redo")
    assert ids(raw) == [1, 6]


def test_plain_undos_remove_one_action_each() -> None:
    raw = log("lay", "buy", "buy", "undo", "undo", "undo", "lay", "pass", "undo", "x")
    assert ids(raw) == [7, 10]


def test_undo_to_an_action_id() -> None:
    raw = log("a", "b", "c", "d", ("undo", {"action_id": 2}), "e")
    assert ids(raw) == [1, 2, 6]


def test_undo_to_zero_removes_everything() -> None:
    raw = log("a", "b", ("undo", {"action_id": 0}), "redo", ("undo", {"action_id": 0}), "c")
    assert ids(raw) == [6]


def test_redo_of_an_undo_to_an_id_restores_the_whole_group() -> None:
    raw = log("a", "b", "c", ("undo", {"action_id": 1}), "redo", "d")
    assert ids(raw) == [1, 2, 3, 6]


def test_messages_survive_undo_and_keep_redo_alive() -> None:
    raw = log("a", "message", "undo", "message", "redo", "b")
    assert ids(raw) == [1, 2, 4, 6]
    raw = log("a", "message", ("undo", {"action_id": 0}))
    assert ids(raw) == [2]


def test_a_new_action_ends_the_redo_chain() -> None:
    raw = log("a", "b", "undo", "c", "redo")
    with pytest.raises(ExportError, match="action 5: redo with nothing to restore"):
        filter_actions(raw)


def test_undo_with_nothing_kept_pushes_an_empty_group() -> None:
    assert ids(log("undo", "redo", "a")) == [3]


def test_auto_actions_follow_their_parent_only_when_it_is_kept() -> None:
    auto = {"auto_actions": [{"type": "pass"}, {"type": "program_disable"}]}
    raw = log(("pass", auto), ("pass", auto), "undo")
    out = [(aid, a["type"]) for aid, a in effective_actions(raw)]
    assert out == [(1, "pass"), ("1.1", "pass"), ("1.2", "program_disable")]
