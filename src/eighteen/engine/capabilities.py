"""What the engine can play, registered by the code that plays it.

Each implementation of a rule choice says so where it is written::

    @implements("sell_drop", "row_per_share", "step_if_president")
    def sell_move(...): ...

A *choice* is a place in the title format that takes one of a closed set of values: an
enum-valued rule field (``sell_drop``), the ``kind`` of a tagged rule
(``dividend_move.kind``), an element of a list (``emergency_money[]``), a private power
(``ability``), a phase or train event (``event``) or a bonus kind (``bonus``).
:func:`choices` reads the possible values from the title models (so from the JSON Schema
generated from them); :func:`missing` is every value no implementation has registered;
:func:`findings` is what a compiled title asks for that the engine cannot play.

This module imports no mechanic: mechanics import it.  What is registered is complete once
:mod:`eighteen.engine.game` (which imports every mechanic) is loaded.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from enum import Enum
from typing import Any, TypeVar

from pydantic import BaseModel

from eighteen.compiled import CompiledTitle
from eighteen.title import model

F = TypeVar("F", bound=Callable[..., Any])

#: choice -> values with an implementation (filled by :func:`implements`).
IMPLEMENTED: dict[str, set[str]] = {}
#: choice -> value -> where it is implemented (module.function), for the docs and errors.
WHERE: dict[str, dict[str, str]] = {}


def implements(choice: str, *values: str) -> Callable[[F], F]:
    """Register the decorated function as the implementation of ``values`` of ``choice``.

    A function typed in its module's ``.pxd`` (a ``cpdef`` function) registers by a call
    right after its definition, ``implements(choice, *values)(function)``: Cython drops
    a decorator on a typed function without a word (and the capability check would then
    refuse every title that asks for the value)."""

    def mark(fn: F) -> F:
        IMPLEMENTED.setdefault(choice, set()).update(values)
        for v in values:
            WHERE.setdefault(choice, {})[v] = f"{fn.__module__}.{fn.__qualname__}"
        return fn

    return mark


# -- the choices of the title format ----------------------------------------------------------


def _values(ann: Any, path: str, out: dict[str, set[str]]) -> None:
    """Collect every closed set of values reachable from the annotation ``ann``."""
    origin = typing.get_origin(ann)
    if origin is typing.Annotated:
        _values(typing.get_args(ann)[0], path, out)
    elif origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(ann):
            _values(arg, path, out)
    elif origin is list:
        _values(typing.get_args(ann)[0], f"{path}[]", out)
    elif origin is typing.Literal:
        out.setdefault(path, set()).update(str(a) for a in typing.get_args(ann))
    elif isinstance(ann, type) and issubclass(ann, Enum):
        out.setdefault(path, set()).update(str(e.value) for e in ann)
    elif isinstance(ann, type) and issubclass(ann, BaseModel):
        for name, field in ann.model_fields.items():
            _values(field.annotation, f"{path}.{name}", out)


@functools.cache
def choices() -> dict[str, set[str]]:
    """Every choice of the title format with the values its schema allows (read once from
    the models; callers must not change it)."""
    out: dict[str, set[str]] = {}
    for name, field in model.Rules.model_fields.items():
        _values(field.annotation, name, out)
    out["ability"] = {
        str(typing.get_args(m.model_fields["type"].annotation)[0])
        for m in typing.get_args(typing.get_args(model.Ability)[0])
    }
    out["event"] = {e.value for e in model.TrainEvent}
    out["bonus"] = {e.value for e in model.BonusKind}
    return out


def missing() -> dict[str, set[str]]:
    """Values the title format allows that no implementation has registered."""
    out: dict[str, set[str]] = {}
    for choice, values in choices().items():
        left = values - IMPLEMENTED.get(choice, set())
        if left:
            out[choice] = left
    return out


# -- a compiled title against the engine -----------------------------------------------------


def _rule_values(
    node: Any, path: str, at: tuple[str | int, ...]
) -> Iterator[tuple[str, str, tuple[str | int, ...]]]:
    """(choice, value, position) of every string in a compiled rules record."""
    if isinstance(node, str):
        yield path, node, at
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _rule_values(item, f"{path}[]", (*at, i))
    elif isinstance(node, Mapping):
        for key, value in node.items():
            yield from _rule_values(value, f"{path}.{key}" if path else str(key), (*at, key))


def _text(value: Any) -> str:
    """The value an enum member (or a plain string) stands for."""
    return str(value.value) if isinstance(value, Enum) else str(value)


def findings(doc: CompiledTitle) -> list[tuple[str, tuple[str | int, ...], str]]:
    """What these compiled tables ask for that the engine cannot play, each as (file kind,
    path in that file, what): ``("title", ("rules", "sell_drop"), "rules.sell_drop = 'x'")``.
    Unknown rule fields are found by the typed model when the tables load.  The rules (and
    the options' rule overrides) are walked as their JSON form, every string at its place."""
    known = choices()
    out: list[tuple[str, tuple[str | int, ...], str]] = []
    sources: list[tuple[tuple[str | int, ...], Mapping[str, Any]]] = [
        (("rules",), doc.rules.model_dump(mode="json"))
    ]
    for i, opt in enumerate(doc.options):
        sources.append((("options", i, "rules"), opt.rules))
    for base, rules in sources:
        for choice, value, at in _rule_values(rules, "", ()):
            if choice in known and value not in IMPLEMENTED.get(choice, set()):
                out.append(("title", (*base, *at), f"rules.{choice} = {value!r}"))
    for i, p in enumerate(doc.privates):
        for k, ab in enumerate(p.abilities):
            if ab.type not in IMPLEMENTED.get("ability", set()):
                msg = f"private {p.id} ability {ab.type}"
                out.append(("privates", ("privates", i, "abilities", k, "type"), msg))
    events = [("trains", i, t.events) for i, t in enumerate(doc.trains)]
    events += [("phases", i, p.events) for i, p in enumerate(doc.phases)]
    for kind, i, row in events:
        for k, ev in enumerate(row):
            if _text(ev) not in IMPLEMENTED.get("event", set()):
                out.append((kind, (kind, i, "events", k), f"event {_text(ev)}"))
    for i, b in enumerate(doc.bonuses or []):
        if _text(b.kind) not in IMPLEMENTED.get("bonus", set()):
            out.append(("map", ("bonuses", i, "kind"), f"bonus {b.id} of kind {_text(b.kind)}"))
    return out


def unsupported(doc: CompiledTitle) -> list[str]:
    """What in these compiled tables the engine cannot play (empty: it can)."""
    return [msg for _, _, msg in findings(doc)]
