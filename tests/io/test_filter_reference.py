"""The undo/redo filter against its plain reading (reference note §3.2), on random logs:
every undo recomputes the kept slots from scratch."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from eighteen.io.games18xx import ExportError, filter_actions


def reference(raw: list[dict[str, Any]]) -> list[dict[str, Any]]:
    slots: list[dict[str, Any] | None] = []
    stack: list[list[tuple[int, dict[str, Any] | None]]] = []
    for a in raw:
        t = a["type"]
        if t == "undo":
            if a.get("action_id") and a["action_id"] not in [b["id"] for b in raw]:
                raise ExportError("undo to an action the export lacks")
            kept = [i for i, x in enumerate(slots) if x is not None and x["type"] != "message"]
            if a.get("action_id") is not None:
                start = next((i for i in kept if slots[i]["id"] > a["action_id"]), None)  # type: ignore[index]
                group_at = [i for i in kept if start is not None and i >= start]
            else:
                group_at = kept[-1:]
            stack.append([(i, slots[i]) for i in group_at])
            for i in group_at:
                slots[i] = None
            slots.append(None)
        elif t == "redo":
            if not stack:
                raise ExportError("redo with nothing to restore")
            for i, x in stack.pop():
                slots[i] = x
            slots.append(None)
        else:
            slots.append(a)
            if t != "message":
                stack = []
    return [a for a in slots if a is not None]


entry = st.one_of(
    st.sampled_from(["bid", "pass", "message", "undo", "redo"]),
    st.integers(min_value=0, max_value=30),  # an undo to that action id
)


@settings(max_examples=400, deadline=None)
@given(st.lists(entry, max_size=30))
def test_the_filter_keeps_what_the_plain_reading_keeps(entries: list[str | int]) -> None:
    raw: list[dict[str, Any]] = []
    for i, e in enumerate(entries, 1):
        if isinstance(e, int):
            raw.append({"id": i, "type": "undo", "action_id": e})
        else:
            raw.append({"id": i, "type": e})
    try:
        want = reference(raw)
    except ExportError:
        try:
            filter_actions(raw)
        except ExportError:
            return
        raise AssertionError("the filter accepts what the plain reading refuses") from None
    assert filter_actions(raw) == want
