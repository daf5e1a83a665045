"""State.copy: equal to the original and sharing no mutable object with it (what makes
an IllegalAction leave the state unchanged)."""

from __future__ import annotations

import random
from dataclasses import fields, is_dataclass
from typing import Any, cast

import pytest

from eighteen import Game, load_title
from eighteen.engine.state import CorporationState, State


def mutable_ids(x: Any, out: dict[int, Any]) -> dict[int, Any]:
    """id -> object of every mutable object reachable from ``x``."""
    if isinstance(x, list | dict | set) or (
        # (__dataclass_params__ is not in the type stubs)
        is_dataclass(x) and not cast(Any, type(x)).__dataclass_params__.frozen
    ):
        if id(x) in out:
            return out
        out[id(x)] = x
    if isinstance(x, dict):
        for k, v in x.items():
            mutable_ids(k, out)
            mutable_ids(v, out)
    elif isinstance(x, list | tuple | set | frozenset):
        for v in x:
            mutable_ids(v, out)
    elif hasattr(x, "__dict__"):
        for v in vars(x).values():
            mutable_ids(v, out)
    elif is_dataclass(x):  # (slots: no __dict__)
        for f in fields(x):
            mutable_ids(getattr(x, f.name), out)
    return out


def assert_independent(s: State) -> None:
    c = s.copy()
    assert c.to_dict() == s.to_dict()
    shared = mutable_ids(s, {}).keys() & mutable_ids(c, {}).keys()
    assert not shared, [mutable_ids(s, {})[i] for i in shared]


@pytest.mark.parametrize("title,seed", [("1830", 1), ("1833ne", 2)])
def test_copies_share_nothing_mutable_during_a_game(title: str, seed: int) -> None:
    rng = random.Random(seed)
    g = Game.new(load_title(title), ["Ann", "Bob", "Cy", "Di"], seed=seed)
    kinds = set()
    for _ in range(400):
        if g.is_over or g.stuck:
            break
        assert_independent(g.state)
        kinds.add(g.state.round.kind)
        g.apply(rng.choice(g.legal_actions()))
    assert kinds == {"auction", "stock", "operating"}


def test_fields_typed_any_are_copied_deeply_and_no_attribute_lies_beyond_the_fields() -> None:
    """Fields annotated as flat containers (``list[str]``...) are copied one level deep;
    the others all the way down.  Compiled, the state's classes have slots: an attribute
    beyond their fields, which a copy made field by field would drop, cannot be set.  Run
    from their source (no compiled build, or ``EIGHTEEN_NATIVE=0``) they have a dict,
    and such an attribute is copied with the rest, deeply."""
    g = Game.new(load_title("1830"), ["Ann", "Bob", "Cy"])
    s = g.state
    cs = s.corporations["PRR"]
    if type(cs).__dictoffset__ == 0:  # compiled: native classes (state.pxd)
        assert type(s).__dictoffset__ == 0
        with pytest.raises(AttributeError):
            cs.extra = {"k": [1]}  # type: ignore[attr-defined]
        with pytest.raises(AttributeError):
            s.extra = 1  # type: ignore[attr-defined]
    else:
        cs.extra = {"k": [1]}  # type: ignore[attr-defined]
        extra = s.copy().corporations["PRR"].extra  # type: ignore[attr-defined]
        assert extra == {"k": [1]} and extra is not cs.extra  # type: ignore[attr-defined]
        assert extra["k"] is not cs.extra["k"]  # type: ignore[attr-defined]
        del cs.extra  # type: ignore[attr-defined]
    cs.trains.append("2-0")
    s.round.bids["SV"] = [["Ann", 25]]
    c = s.copy()
    cc = c.corporations["PRR"]
    assert isinstance(cc, CorporationState) and cc is not cs
    assert cc.trains == ["2-0"] and cc.trains is not cs.trains
    assert c.round.bids == {"SV": [["Ann", 25]]}
    assert c.round.bids["SV"][0] is not s.round.bids["SV"][0]
    assert c.map is not s.map and c.map.tokens == s.map.tokens


def test_a_dataclass_without_slots_is_copied_with_its_attributes_beyond_the_fields() -> None:
    """Plain data of another dataclass (one without slots, say a round of another title's
    mechanic) is copied by its ``__dict__``: its attributes beyond the fields too, deeply."""
    from dataclasses import dataclass, field

    from eighteen.engine.state import _deep

    @dataclass
    class Plain:
        names: list[str] = field(default_factory=list)
        nested: list[list[int]] = field(default_factory=list)

    p = Plain(["a"], [[1]])
    p.extra = {"k": [2]}  # type: ignore[attr-defined]
    c = _deep(p)
    assert c == p and c is not p
    assert c.names is not p.names and c.nested[0] is not p.nested[0]
    assert c.extra == {"k": [2]} and c.extra["k"] is not p.extra["k"]  # type: ignore[attr-defined]


def test_a_frozen_dataclass_with_slots_is_copied_too() -> None:
    from dataclasses import dataclass

    from eighteen.engine.state import _deep

    @dataclass(frozen=True, slots=True)
    class Frozen:
        names: tuple[str, ...]
        nested: list[int]

    f = Frozen(("a",), [1])
    c = _deep(f)
    assert c == f and c is not f and c.nested is not f.nested


def test_the_canonical_form_holds_every_field_of_the_state() -> None:
    """``to_dict`` (and so ``state_hash``) has a key for each field of State;
    a state that differs from another in one field only, the corporations whose home
    waits for a tile, has another hash."""
    g = Game.new(load_title("1833ne"), ["Ann", "Bob", "Cy"], seed=1)
    assert sorted(g.state.to_dict()) == sorted(f.name for f in fields(State))
    before = g.state_hash()
    corp = sorted(g.state.corporations)[0]
    g.state.home_waiting.append(corp)
    assert g.state.to_dict()["home_waiting"] == [corp]
    assert g.state_hash() != before
    g.state.home_waiting.remove(corp)
    assert g.state_hash() == before


def test_a_copier_copies_a_field_of_its_own_by_its_function_with_or_without_slots() -> None:
    """A field given its own copier (the state's map: ``MapState.copy``, which leaves the
    map's kept keys behind) is copied by it in both of the copier's forms: field by field
    (a class with slots, the state's classes compiled) and by the instance's dict (a plain
    dataclass, the state's classes run from their source)."""
    from dataclasses import dataclass, field

    from eighteen.engine.state import _make_copier

    class Part:
        def __init__(self, items: list[int]) -> None:
            self.items = items

    def own_copy(p: Part) -> Part:
        return Part(["own", *p.items])  # type: ignore[list-item]

    @dataclass
    class Plain:
        part: Any
        rest: list[list[int]] = field(default_factory=list)

    @dataclass(slots=True)
    class Slotted:
        part: Any
        rest: list[list[int]] = field(default_factory=list)

    for cls in (Plain, Slotted):
        # (a name that is not a field of the class is no field of its copies either)
        copier = _make_copier(cls, {"part": own_copy, "absent": own_copy})
        obj = cls(Part([1, 2]), [[3]])
        new = copier(obj)
        assert new.part.items == ["own", 1, 2]
        assert new.rest == [[3]] and new.rest[0] is not obj.rest[0]


def test_a_plain_dataclass_with_an_attribute_beyond_its_fields_copies_its_own_field_by_its_function() -> (
    None
):
    """With an attribute beyond its fields, a plain dataclass is copied whole (every
    attribute deeply), a field given its own copier still by that copier."""
    from dataclasses import dataclass

    from eighteen.engine.state import _make_copier

    class Part:
        def __init__(self, items: list[int]) -> None:
            self.items = items

    def own_copy(p: Part) -> Part:
        return Part([0, *p.items])

    @dataclass
    class Plain:
        part: Any
        rest: list[list[int]]

    obj = Plain(Part([1]), [[2]])
    extra = {"k": [3]}
    vars(obj)["extra"] = extra  # (an attribute no field declares)
    new = _make_copier(Plain, {"part": own_copy})(obj)
    assert new.part.items == [0, 1]
    assert new.rest == [[2]] and new.rest[0] is not obj.rest[0]
    assert new.extra == {"k": [3]} and new.extra["k"] is not extra["k"]
