"""Stand-ins for what a schema error leaves without a value: the plainest value a schema
takes (:func:`stand_in`), and the edits that put it in place (:func:`stand_in_edits`), so that a file with a schema error still builds a model and
the checks across files run on the rest of it (:func:`eighteen.title.validation.mended`).
"""

from __future__ import annotations

import copy
import math
from typing import Any

from jsonschema import ValidationError

from eighteen.title.positions import KeyPath
from eighteen.title.schema import ecma_pattern, resolve

#: One change to the data: (key path, "set" or "drop", value).
Edit = tuple[KeyPath, str, Any]


class NoStandIn(Exception):
    """No value can be made up for a schema (a pattern too rich for :func:`_pattern_text`,
    an unknown kind of value)."""


def _pattern_text(pattern: str) -> str:
    """The plainest text ``pattern`` matches, for the plain patterns of our schemas
    (anchors, literal characters and escapes, ``\\d``, character classes, ``.``, the
    quantifiers ``{m}``, ``{m,n}``, ``+``, ``*``, ``?``, alternatives): each class gives its
    first character, each quantifier its least count, the first alternative that can be
    made wins.  Raises :class:`NoStandIn` for anything else (groups, negated classes...)
    or when the text made does not match after all."""
    for branch in pattern.split("|") if "(" not in pattern else [pattern]:
        try:
            text = _branch_text(branch)
        except NoStandIn:
            continue
        if ecma_pattern(pattern).search(text):
            return text
    raise NoStandIn


#: What an escape stands for in :func:`_pattern_text` (other escaped punctuation: itself).
_ESCAPES = {"d": "0", "w": "a"}


def _branch_text(branch: str) -> str:
    out: list[str] = []
    i, n = 0, len(branch)
    while i < n:
        c = branch[i]
        if (c == "^" and i == 0) or (c == "$" and i == n - 1):
            i += 1
            continue
        if c == "\\" and i + 1 < n:
            e = branch[i + 1]
            if e in _ESCAPES:
                atom = _ESCAPES[e]
            elif not e.isalnum():
                atom = e
            else:
                raise NoStandIn
            i += 2
        elif c == "[":
            end = branch.find("]", i + 2)
            if end < 0 or branch[i + 1] == "^":
                raise NoStandIn
            first = branch[i + 1]
            if first == "\\":
                e = branch[i + 2]
                first = _ESCAPES.get(e, e if not e.isalnum() else "")
                if not first:
                    raise NoStandIn
            atom, i = first, end + 1
        elif c == ".":
            atom, i = "a", i + 1
        elif c in "()|*+?{}^$":
            raise NoStandIn
        else:
            atom, i = c, i + 1
        count = 1
        if i < n and branch[i] in "*?":
            count, i = 0, i + 1
        elif i < n and branch[i] == "+":
            i += 1
        elif i < n and branch[i] == "{":
            end = branch.find("}", i)
            least = branch[i + 1 : end].split(",")[0] if end > 0 else ""
            if not least.isdigit():
                raise NoStandIn
            count, i = int(least), end + 1
        out.append(atom * count)
    return "".join(out)


def stand_in(schema: Any, root: dict[str, Any], depth: int = 0) -> Any:
    """The plainest value ``schema`` takes: its default, its constant or first choice, its
    first union branch that has one, the least number it allows, false, a string of "?"
    as long as it must be, an array of as many stand-ins as it must have, a table of its
    required keys, each a stand-in; for a text of a pattern (an id, a hex, a colour) the
    plainest text it matches (:func:`_pattern_text`: no check judges a stand-in, so it
    need not be a name the title knows).  Raises :class:`NoStandIn` for whatever it
    cannot make."""
    schema = resolve(schema, root)
    if depth > 16 or not schema:
        raise NoStandIn
    if "default" in schema:
        return copy.deepcopy(schema["default"])
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for union in ("anyOf", "oneOf"):
        if union in schema:
            for branch in schema[union]:
                try:
                    return stand_in(branch, root, depth + 1)
                except NoStandIn:
                    continue
            raise NoStandIn
    types = schema.get("type")
    kind = types[0] if isinstance(types, list) and types else types
    if kind in ("integer", "number"):
        value = min(schema.get("minimum", 0), schema.get("maximum", math.inf))
        return int(value) if kind == "integer" else value
    if kind == "boolean":
        return False
    if kind == "string" and "format" not in schema:
        if "pattern" not in schema:
            return "?" * schema.get("minLength", 0)
        text = _pattern_text(schema["pattern"])
        if not schema.get("minLength", 0) <= len(text) <= schema.get("maxLength", math.inf):
            raise NoStandIn
        return text
    if kind == "array":
        items = schema.get("items", {})
        return [stand_in(items, root, depth + 1) for _ in range(schema.get("minItems", 0))]
    if kind == "object" and not schema.get("minProperties"):
        props = schema.get("properties", {})
        if any(name not in props for name in schema.get("required", [])):
            raise NoStandIn
        return {name: stand_in(props[name], root, depth + 1) for name in schema.get("required", [])}
    raise NoStandIn


def stand_in_edits(error: ValidationError, root: dict[str, Any]) -> tuple[Edit, ...]:
    """How to stand in for the value ``error`` is about: drop it when its table may go
    without it, else set a stand-in of its schema; nothing for the whole file, or when no
    stand-in can be made."""
    path = tuple(error.absolute_path)
    if not path:
        return ()
    table = _declaring_table(error, root)
    if table is not None and path[-1] not in table.get("required", []):
        return ((path, "drop", None),)
    try:
        return ((path, "set", stand_in(error.schema, root)),)
    except NoStandIn:
        return ()


def _declaring_table(error: ValidationError, root: dict[str, Any]) -> dict[str, Any] | None:
    """The table schema that declares the failing value among its ``properties``; None when
    the value is an array entry or a map entry (or the schema path cannot be followed)."""
    steps = list(error.absolute_schema_path)
    node: Any = root
    table: dict[str, Any] | None = None
    i = 0
    try:
        while i < len(steps) - 1:
            step = steps[i]
            if isinstance(node, dict) and step not in node and "$ref" in node:
                node = resolve(node, root)  # jsonschema's schema path skips a $ref
            if step in ("properties", "patternProperties", "prefixItems"):
                table = node if step == "properties" else None
                node, i = node[step][steps[i + 1]], i + 2
                continue
            if step in ("items", "additionalProperties"):
                table = None
            node, i = node[step], i + 1
    except (KeyError, IndexError, TypeError):
        return None
    if isinstance(node, dict) and steps[-1] not in node and "$ref" in node:
        node = resolve(node, root)
    return table if node == error.schema else None
