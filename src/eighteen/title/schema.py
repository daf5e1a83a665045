"""JSON Schemas of the title files, and validation of loaded TOML against them.

The schemas (draft 2020-12) are generated from the pydantic models in
:mod:`eighteen.title.model` and written to ``schema/<kind>.schema.json``, where TOML editors
(Taplo / Even Better TOML) find them through a ``#:schema`` comment on a file's first line.
TOML has no null, so optional fields appear as their plain type.

Validation codes: E010 wrong type or invalid value, E011 unknown key, E012 missing required
key, E013 number out of range, E014 not an allowed value, E015 pattern mismatch,
W016 missing or mismatched ``#:schema`` comment.
"""

from __future__ import annotations

import contextlib
import copy
import datetime as dt
import difflib
import functools
import json
import math
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators

from eighteen.compiled import compiled_schema
from eighteen.title.load import KeyPath, LoadedFile, schema_comment
from eighteen.title.model import FILE_MODELS
from eighteen.title.problems import Problem, Severity, path_str
from eighteen.title.save import save_schema

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_BASE = "https://eighteen.dev/schema/"

_TYPE_NAMES = {"object": "table", "array": "array", "null": "nothing"}
_RANGE_CODES = {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
# Which report wins when several keywords fail on one value.
_PRIORITY = {"type": 0, "const": 1, "enum": 1, "pattern": 2}


# ---------------------------------------------------------------------------------------
# schema documents


def schema_documents() -> dict[str, dict[str, Any]]:
    """Return kind -> JSON Schema document for every title file kind."""
    return copy.deepcopy(_documents())


@functools.cache
def _documents() -> dict[str, dict[str, Any]]:
    """Build (once) the schema documents from the models."""
    docs = {}
    for kind, model in FILE_MODELS.items():
        body = _without_null(model.model_json_schema(by_alias=True))
        _fill_descriptions(body, body)
        body.pop("title", None)
        doc = {
            "$schema": SCHEMA_DIALECT,
            "$id": f"{SCHEMA_BASE}{kind}.schema.json",
            "title": f"{kind}.toml",
            "description": body.pop("description", "") or f"{kind}.toml of an eighteen title.",
            **body,
        }
        docs[kind] = doc
    return docs


def _without_null(node: Any) -> Any:
    """Drop ``{"type": "null"}`` union branches (TOML has no null) and null defaults."""
    if isinstance(node, list):
        return [_without_null(x) for x in node]
    if not isinstance(node, dict):
        return node
    node = {k: _without_null(v) for k, v in node.items()}
    for union in ("anyOf", "oneOf"):
        branches = node.get(union)
        if not isinstance(branches, list):
            continue
        kept = [b for b in branches if b != {"type": "null"}]
        if len(kept) == len(branches):
            continue
        if "default" in node and node["default"] is None:
            del node["default"]
        if len(kept) == 1:
            del node[union]
            node = {**kept[0], **node}
        else:
            node[union] = kept
    return node


def _fill_descriptions(node: Any, root: dict[str, Any]) -> None:
    """Give every property a description, derived from its type or owner when missing."""
    if isinstance(node, list):
        for x in node:
            _fill_descriptions(x, root)
        return
    if not isinstance(node, dict):
        return
    for value in node.values():
        _fill_descriptions(value, root)
    props = node.get("properties")
    if not isinstance(props, dict):
        return
    owner = str(node.get("description", "")).strip()
    for name, prop in props.items():
        if isinstance(prop, dict) and not prop.get("description"):
            prop["description"] = _fallback_description(name, prop, owner, root)


def _fallback_description(name: str, prop: dict[str, Any], owner: str, root: dict[str, Any]) -> str:
    """Describe a property pydantic left undescribed, from its type or its model."""
    title = str(prop.get("title") or name.replace("_", " ").capitalize())
    target = _resolve(prop, root)
    if target is not prop and target.get("description"):
        return str(target["description"])
    if "const" in prop:
        return f"Must be {_show(prop['const'])} for this kind of entry: {owner}".strip()
    items = prop.get("items")
    if isinstance(items, dict):
        item = _resolve(items, root)
        if item is not items and item.get("description"):
            return f"{title}; each entry: {item['description']}"
    return f"{title}: {owner}" if owner else f"{title}."


def _resolve(schema: Any, root: dict[str, Any]) -> dict[str, Any]:
    """Follow local ``#/$defs/...`` references; return ``schema`` itself if none."""
    seen = 0
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and seen < 16:
        ref = schema["$ref"]
        if not ref.startswith("#/$defs/"):
            break
        target = root.get("$defs", {}).get(ref[len("#/$defs/") :])
        if not isinstance(target, dict):
            break
        schema, seen = target, seen + 1
    return schema if isinstance(schema, dict) else {}


def _render(doc: dict[str, Any]) -> bytes:
    """Serialize a schema byte-stably: sorted keys, indent 2, trailing newline."""
    return (json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


def overlay_documents() -> dict[str, dict[str, Any]]:
    """Return kind -> JSON Schema of that file in an overlay title (``extends``).

    An overlay writes only what differs from its base, so no key is required (except the
    tag of a tagged value, such as an ability's ``type``, which picks the branch), and a
    ``[remove]`` table of name lists is allowed (docs/variants.md). Unknown keys and wrong
    values are still errors, so an editor flags real mistakes and nothing else.
    """
    docs = {}
    for kind, doc in _documents().items():
        body = copy.deepcopy(doc)
        _drop_required(body)
        body["$id"] = f"{SCHEMA_BASE}overlay/{kind}.schema.json"
        body["title"] = f"{kind}.toml (overlay)"
        body["description"] = (
            f"{kind}.toml of an overlay title: only what differs from the base title. "
            + str(doc.get("description", ""))
        ).strip()
        body.setdefault("properties", {})["remove"] = {
            "description": "Names to drop from the base before merging: `<key> = [names]` "
            "drops entries by id (hexes by coordinate) or keys of a table.",
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        }
        docs[kind] = body
    return docs


def _drop_required(node: Any) -> None:
    """Remove every ``required`` list, except on objects tagged by a constant property."""
    if isinstance(node, dict):
        props = node.get("properties")
        tagged = isinstance(props, dict) and any(
            isinstance(s, dict) and "const" in s for s in props.values()
        )
        if "required" in node and not tagged:
            del node["required"]
        for value in node.values():
            _drop_required(value)
    elif isinstance(node, list):
        for value in node:
            _drop_required(value)


def _all_documents() -> dict[str, dict[str, Any]]:
    """Relative file name -> schema document: the plain schemas, then overlay/."""
    docs = {f"{kind}.schema.json": doc for kind, doc in _documents().items()}
    docs.update({f"overlay/{kind}.schema.json": doc for kind, doc in overlay_documents().items()})
    docs["save.schema.json"] = save_document()
    docs["compiled.schema.json"] = compiled_document()
    return docs


def compiled_document() -> dict[str, Any]:
    """The schema of ``generated/<id>.json``, from the compiled-format models."""
    return {
        "$schema": SCHEMA_DIALECT,
        "$id": f"{SCHEMA_BASE}compiled.schema.json",
        "description": "A compiled title, generated/<id>.json (docs/compiled-format.md).",
        **compiled_schema(),
    }


def save_document() -> dict[str, Any]:
    """The JSON Schema of a save file (``eighteen.title.save``)."""
    body = save_schema()
    return {
        "$schema": SCHEMA_DIALECT,
        "$id": f"{SCHEMA_BASE}save.schema.json",
        "description": "A game saved by eighteen play (the action log is the truth).",
        **body,
    }


def write_schemas(out_dir: Path) -> list[Path]:
    """Write ``<kind>.schema.json`` and ``overlay/<kind>.schema.json`` for every kind (only
    if changed); return their paths."""
    out_dir = Path(out_dir)
    paths = []
    for name, doc in sorted(_all_documents().items()):
        target = out_dir / name
        target.parent.mkdir(parents=True, exist_ok=True)
        data = _render(doc)
        if not target.is_file() or target.read_bytes() != data:
            target.write_bytes(data)
        paths.append(target)
    return paths


def stale_schemas(out_dir: Path) -> list[str]:
    """Return the names of schema files in ``out_dir`` that are missing or out of date."""
    stale = []
    for name, doc in sorted(_all_documents().items()):
        target = Path(out_dir) / name
        if not target.is_file() or target.read_bytes() != _render(doc):
            stale.append(name)
    return stale


# ---------------------------------------------------------------------------------------
# validation


def _ecma_regex(pattern: str) -> re.Pattern[str]:
    """Compile a JSON Schema (ECMA-262) pattern: ``$`` is end of input, ``\\d`` is ASCII."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "$" and not in_class:
            c = r"\Z"
        out.append(c)
        i += 1
    return re.compile("".join(out), re.ASCII)


_compiled = functools.lru_cache(maxsize=256)(_ecma_regex)


def _pattern_keyword(
    validator: Any, pattern: str, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """The ``pattern`` keyword with ECMA-262 semantics (Python's ``$`` allows a newline)."""
    if validator.is_type(instance, "string") and not _compiled(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _is_toml_integer(checker: Any, instance: Any) -> bool:
    """A TOML integer: ``60.0`` is a float in TOML, so it is no integer (JSON Schema's
    "integer" would take any number without a fraction)."""
    return isinstance(instance, int) and not isinstance(instance, bool)


_Validator = validators.extend(
    Draft202012Validator,
    {"pattern": _pattern_keyword},
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_toml_integer),
)


@functools.cache
def _validator(kind: str) -> Any:
    """Return the (cached) validator for a file kind."""
    return _Validator(_documents()[kind])


#: One change to the data: (key path, "set" or "drop", value).
_Edit = tuple[KeyPath, str, Any]


@dataclass(frozen=True)
class _Finding:
    """One report before positioning: spot is 'key', 'value' or 'table'."""

    path: KeyPath
    spot: str
    code: str
    message: str
    rank: int = 9
    missing: tuple[str, ...] = ()
    suggestion: str | None = None
    #: how to mend it (see :func:`mended`): ("set", value), ("rename", key) or ("drop", None)
    mend: tuple[str, Any] | None = None
    #: else how to stand in for what it is about: (path, "set", value) or (path, "drop", None)
    stand_in: tuple[_Edit, ...] = ()


def _spot_findings(kind: str, data: Any) -> list[_Finding]:
    """The schema's findings for ``data``, one per spot (the most telling), with the keys
    each table misses gathered into one E012."""
    root = _documents()[kind]
    findings = [f for e in _validator(kind).iter_errors(data) for f in _convert(e, root)]
    value_spots: dict[tuple[str, KeyPath], _Finding] = {}
    missing: dict[KeyPath, list[str]] = {}
    fills: dict[KeyPath, list[_Edit]] = {}
    for f in findings:
        if f.code == "E012":
            names = missing.setdefault(f.path, [])
            names.extend(n for n in f.missing if n not in names)
            fills.setdefault(f.path, []).extend(f.stand_in)
            continue
        spot = (f.spot, f.path)
        if spot not in value_spots or f.rank < value_spots[spot].rank:
            value_spots[spot] = f
    for f in value_spots.values():  # a typo of a required key is reported once, as E011
        if f.code == "E011" and f.suggestion in missing.get(f.path[:-1], []):
            missing[f.path[:-1]].remove(f.suggestion)
    for path, names in missing.items():
        if names:
            s = "s" if len(names) > 1 else ""
            quoted = ", ".join(f"'{n}'" for n in names)
            value_spots[("table", path)] = _Finding(
                path,
                "table",
                "E012",
                f"missing key{s} {quoted}",
                missing=tuple(names),
                stand_in=_fills(path, names, fills.get(path, [])),
            )
    return list(value_spots.values())


def _fills(path: KeyPath, names: list[str], edits: list[_Edit]) -> tuple[_Edit, ...]:
    """The stand-ins for the keys a table at ``path`` misses: one for the whole table, else
    one per key (none unless every key has one)."""
    whole = [e for e in edits if e[0] == path]
    if whole:
        return (whole[0],)
    by_key = {e[0][-1]: e for e in edits}
    return tuple(by_key[n] for n in names) if all(n in by_key for n in names) else ()


def validate_data(kind: str, loaded: LoadedFile) -> list[Problem]:
    """Validate a loaded file against the schema of ``kind``; return located problems."""
    if kind not in FILE_MODELS:
        raise ValueError(f"unknown file kind {kind!r}; expected one of {sorted(FILE_MODELS)}")
    if loaded.data is None:
        return []
    problems = schema_comment_problems(kind, loaded)
    index, shown = loaded.index, loaded.display
    for f in _spot_findings(kind, loaded.data):
        line, col = index.value(f.path) if f.spot == "value" else index.key(f.path)
        problems.append(Problem(shown, line, col, f.code, f.message, path_str(f.path)))
    return sorted(problems, key=lambda p: (p.line, p.col, p.code, p.path, p.message))


@dataclass(frozen=True)
class Mended:
    """A file's data with every schema error mended or stood in for (:func:`mended`)."""

    data: dict[str, Any]
    #: the key paths holding a stand-in (or a key dropped): no check may judge them
    stand_ins: tuple[KeyPath, ...] = ()


#: How many rounds of mending :func:`mended` tries (a mend may show an error it hid).
_MEND_ROUNDS = 3


def mended(kind: str, data: dict[str, Any]) -> Mended | None:
    """``data`` with every schema error mended as its message suggests, or stood in for
    when it suggests nothing; None when neither is possible (or the data still fails).

    A plain mend: an unknown key is renamed to the key it is a typo of (or dropped, when
    that key is there too, or when nothing is close); a misspelt choice (or tag of a
    table) becomes the choice it is close to; a quoted number loses its quotes.  The checks
    across files then run on what the author evidently meant, so one typo hides nothing
    else.

    Any other error gets a stand-in: a key the model may go without (it has a default) is
    dropped; a required key, an array entry or a map entry gets the plainest value its
    schema takes (:func:`_stand_in`), a missing key too.  The stand-ins are no guess of what
    was meant, only a placeholder so that the rest of the file can be checked: their paths
    come back in :attr:`Mended.stand_ins`, for the caller to silence what the checks say
    at or under them.  Every error itself is reported by :func:`validate_data`."""
    out = data
    stood: list[KeyPath] = []
    for attempt in range(_MEND_ROUNDS + 1):
        findings = _spot_findings(kind, out)
        if not findings:
            return Mended(out, tuple(dict.fromkeys(stood)))
        if attempt == _MEND_ROUNDS:
            break
        edits: list[_Edit] = []
        for f in findings:
            if f.mend is not None:
                edits.append((f.path, *f.mend))
            elif f.stand_in:
                edits.extend(f.stand_in)
                stood.extend(path for path, _, _ in f.stand_in)
            else:
                return None
        if out is data:
            out = copy.deepcopy(data)
        try:
            _apply(out, edits)
        except (KeyError, IndexError, TypeError):  # edits that do not fit: no mend
            return None
    return None


def _apply(data: dict[str, Any], edits: list[_Edit]) -> None:
    """Make the edits of :func:`mended` (one per path, the first) in place, deepest first,
    so that renaming a key does not move a path still to be edited."""
    by_path: dict[KeyPath, _Edit] = {}
    for edit in edits:
        by_path.setdefault(edit[0], edit)
    for path, how, value in sorted(by_path.values(), key=lambda e: -len(e[0])):
        *parents, last = path
        node: Any = data
        for k in parents:
            node = node[k]
        if how == "set":
            node[last] = copy.deepcopy(value)
        else:  # "rename" or "drop" a key
            old = node.pop(last)
            if how == "rename" and value not in node:
                node[value] = old


class _NoStandIn(Exception):
    """No value can be made up for a schema (a pattern too rich for :func:`_pattern_text`,
    an unknown kind of value)."""


def _pattern_text(pattern: str) -> str:
    """The plainest text ``pattern`` matches, for the plain patterns of our schemas
    (anchors, literal characters and escapes, ``\\d``, character classes, ``.``, the
    quantifiers ``{m}``, ``{m,n}``, ``+``, ``*``, ``?``, alternatives): each class gives its
    first character, each quantifier its least count, the first alternative that can be
    made wins.  Raises :class:`_NoStandIn` for anything else (groups, negated classes...)
    or when the text made does not match after all."""
    for branch in pattern.split("|") if "(" not in pattern else [pattern]:
        try:
            text = _branch_text(branch)
        except _NoStandIn:
            continue
        if _compiled(pattern).search(text):
            return text
    raise _NoStandIn


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
                raise _NoStandIn
            i += 2
        elif c == "[":
            end = branch.find("]", i + 2)
            if end < 0 or branch[i + 1] == "^":
                raise _NoStandIn
            first = branch[i + 1]
            if first == "\\":
                e = branch[i + 2]
                first = _ESCAPES.get(e, e if not e.isalnum() else "")
                if not first:
                    raise _NoStandIn
            atom, i = first, end + 1
        elif c == ".":
            atom, i = "a", i + 1
        elif c in "()|*+?{}^$":
            raise _NoStandIn
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
                raise _NoStandIn
            count, i = int(least), end + 1
        out.append(atom * count)
    return "".join(out)


def _stand_in(schema: Any, root: dict[str, Any], depth: int = 0) -> Any:
    """The plainest value ``schema`` takes: its default, its constant or first choice, its
    first union branch that has one, the least number it allows, false, a string of "?"
    as long as it must be, an array of as many stand-ins as it must have, a table of its
    required keys, each a stand-in; for a text of a pattern (an id, a hex, a colour) the
    plainest text it matches (:func:`_pattern_text`: no check judges a stand-in, so it
    need not be a name the title knows).  Raises :class:`_NoStandIn` for whatever it
    cannot make."""
    schema = _resolve(schema, root)
    if depth > 16 or not schema:
        raise _NoStandIn
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
                    return _stand_in(branch, root, depth + 1)
                except _NoStandIn:
                    continue
            raise _NoStandIn
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
            raise _NoStandIn
        return text
    if kind == "array":
        items = schema.get("items", {})
        return [_stand_in(items, root, depth + 1) for _ in range(schema.get("minItems", 0))]
    if kind == "object" and not schema.get("minProperties"):
        props = schema.get("properties", {})
        if any(name not in props for name in schema.get("required", [])):
            raise _NoStandIn
        return {
            name: _stand_in(props[name], root, depth + 1) for name in schema.get("required", [])
        }
    raise _NoStandIn


def _stand_in_edits(error: ValidationError, root: dict[str, Any]) -> tuple[_Edit, ...]:
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
        return ((path, "set", _stand_in(error.schema, root)),)
    except _NoStandIn:
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
                node = _resolve(node, root)  # jsonschema's schema path skips a $ref
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
        node = _resolve(node, root)
    return table if node == error.schema else None


def schema_comment_problems(kind: str, loaded: LoadedFile, overlay: bool = False) -> list[Problem]:
    """W016 when the first line lacks a ``#:schema`` comment naming this kind's schema (an
    overlay file's is under ``schema/overlay/``)."""
    expected = f"{kind}.schema.json"
    target = schema_comment(loaded.raw.decode("utf-8", errors="replace"))
    if target is None:
        folder = "../../schema/overlay" if overlay else "../../schema"
        message = (
            f"first line should be '#:schema {folder}/{expected}' "
            "so editors can check and complete this file"
        )
    elif target.replace("\\", "/").rsplit("/", 1)[-1] != expected:
        message = f"'#:schema' names {target}; expected a path ending in {expected}"
    else:
        return []
    return [Problem(loaded.display, 1, 1, "W016", message, "", Severity.warning)]


def _convert(error: ValidationError, root: dict[str, Any]) -> Iterator[_Finding]:
    """Turn one jsonschema error into findings with a code, a clear message and a mend or
    a stand-in (that of an enclosing value, when the finding has none of its own)."""
    for f in _findings(error, root):
        if f.mend is None and not f.stand_in:
            f = replace(f, stand_in=_stand_in_edits(error, root))
        yield f


def _findings(error: ValidationError, root: dict[str, Any]) -> Iterator[_Finding]:
    """The findings of one jsonschema error, with a code and a clear message."""
    path = tuple(error.absolute_path)
    kw, value, inst, schema = error.validator, error.validator_value, error.instance, error.schema
    rank = _PRIORITY.get(str(kw), 5)
    if kw == "additionalProperties" and value is False and isinstance(inst, dict):
        allowed = list(schema.get("properties", {}))
        patterns = list(schema.get("patternProperties", {}))
        for key in inst:
            if key in allowed or any(re.search(p, key) for p in patterns):
                continue
            hint = _close(key, allowed)
            if hint:
                text = f"unknown key '{key}'; did you mean '{hint}'?"
            elif allowed:
                text = f"unknown key '{key}'; allowed keys: {', '.join(allowed)}"
            else:
                text = f"unknown key '{key}'; this table takes no keys"
            mend: tuple[str, Any] | None = ("rename", hint) if hint else ("drop", None)
            yield _Finding((*path, key), "key", "E011", text, suggestion=hint, mend=mend)
    elif kw == "required" and isinstance(inst, dict):
        names = tuple(k for k in value if k not in inst)
        props = schema.get("properties", {})
        fills: tuple[_Edit, ...] = ()
        with contextlib.suppress(_NoStandIn):  # a stand-in for every key, or none
            fills = tuple(((*path, n), "set", _stand_in(props.get(n), root)) for n in names)
        yield _Finding(path, "table", "E012", "", missing=names, stand_in=fills)
    elif kw in ("anyOf", "oneOf"):
        yield from _union(error, root)
    elif kw == "type":
        types = value if isinstance(value, list) else [value]
        expected = " or ".join(_a(_TYPE_NAMES.get(t, str(t))) for t in types)
        hint, number = "", None
        if isinstance(inst, str) and {"integer", "number"} & set(types):
            number = _toml_number(inst)
            hint = " (remove the quotes)" if number is not None else ""
        message = f"expected {expected}, got {_got(inst)}{hint}"
        mend = ("set", number) if number is not None else None
        yield _Finding(path, "value", "E010", message, rank, mend=mend)
    elif kw == "enum":
        values = ", ".join(_show(v) for v in value)
        hint = _close(inst, [v for v in value if isinstance(v, str)]) if len(value) > 1 else None
        message = f"{_show(inst)} is not one of the allowed values: {values}"
        yield _Finding(
            path,
            "value",
            "E014",
            message + (f"; did you mean {_show(hint)}?" if hint else ""),
            rank,
            mend=("set", hint) if hint else None,
        )
    elif kw == "const":
        yield _Finding(path, "value", "E014", f"expected {_show(value)}, got {_got(inst)}", rank)
    elif kw in _RANGE_CODES:
        words = {
            "minimum": "is below the minimum",
            "maximum": "is above the maximum",
            "exclusiveMinimum": "must be greater than",
            "exclusiveMaximum": "must be less than",
        }
        yield _Finding(path, "value", "E013", f"{_show(inst)} {words[kw]} {value}", rank)
    elif kw == "pattern":
        about = str(schema.get("description", "")).rstrip(".")
        text = f"{_show(inst)} does not match the pattern {value}" + (
            f" ({about})" if about else ""
        )
        yield _Finding(path, "value", "E015", text, rank)
    else:
        yield _Finding(path, "value", "E010", _size_message(kw, value, inst, error.message), rank)


def _size_message(kw: Any, limit: Any, inst: Any, default: str) -> str:
    """Messages for length and size keywords; jsonschema's own text otherwise."""

    def plural(n: Any, word: str) -> str:
        return f"{n} {word}" + ("" if n == 1 else "s")

    size = len(inst) if isinstance(inst, list | dict | str) else 0
    return {
        "minItems": f"needs at least {plural(limit, 'entry')}, has {size}".replace(
            "entrys", "entries"
        ),
        "maxItems": f"allows at most {plural(limit, 'entry')}, has {size}".replace(
            "entrys", "entries"
        ),
        "minLength": f"must be at least {plural(limit, 'character')} long",
        "maxLength": f"must be at most {plural(limit, 'character')} long, has {size}",
        "minProperties": f"needs at least {plural(limit, 'key')}",
        "maxProperties": f"allows at most {plural(limit, 'key')}, has {size}",
    }.get(str(kw), default)


def _union(error: ValidationError, root: dict[str, Any]) -> Iterator[_Finding]:
    """One clear report for a failed anyOf/oneOf: dispatch on a tag or on the value's type."""
    path, inst = tuple(error.absolute_path), error.instance
    branches = [_resolve(b, root) for b in error.validator_value]
    tag_key = _tag_key(error.schema, branches)

    def branch_errors(idx: int) -> list[ValidationError]:
        return [c for c in error.context or () if c.relative_schema_path[0] == idx]

    if tag_key and isinstance(inst, dict):
        tags = [b.get("properties", {}).get(tag_key, {}).get("const") for b in branches]
        noun = _noun(path)
        choices = ", ".join(_show(t) for t in tags)
        if tag_key not in inst:
            yield _Finding(path, "table", "E012", "", missing=(tag_key,))
        elif inst[tag_key] not in tags:
            hint = _close(inst[tag_key], [t for t in tags if isinstance(t, str)])
            text = f"unknown {noun}{tag_key} {_show(inst[tag_key])}; expected one of: {choices}"
            text += f"; did you mean {_show(hint)}?" if hint else ""
            mend = ("set", hint) if hint else None  # a misspelt tag, as a misspelt choice
            yield _Finding((*path, tag_key), "value", "E014", text, 1, mend=mend)
        else:
            subs = branch_errors(tags.index(inst[tag_key]))
            for sub in subs:
                yield from _convert(sub, root)
            if not subs:
                yield _Finding(path, "value", "E010", error.message)
        return
    tagged = _tagged_by(branches, inst)
    if tagged is not None:  # the tag of a table written alone: the table needs its data
        key, needed = tagged
        terms = "".join(f", {k} = ..." for k in needed)
        text = f"{_show(inst)} needs its terms: write {{ {key} = {_show(inst)}{terms} }}"
        yield _Finding(path, "value", "E010", text, 0)
        return
    fits = [i for i, b in enumerate(branches) if _accepts_type(b, inst, root)]
    if len(fits) == 1 and not _is_literal(branches[fits[0]]) and branch_errors(fits[0]):
        for sub in branch_errors(fits[0]):
            yield from _convert(sub, root)
        return
    described = list(dict.fromkeys(_describe(b) for b in branches))
    expected = (
        ", ".join(described[:-1]) + " or " + described[-1] if len(described) > 1 else described[0]
    )
    code = "E014" if all(_is_literal(b) for b in branches) else "E010"
    yield _Finding(path, "value", code, f"expected {expected}, got {_got(inst)}", 0)


#: The keys a tagged table of the title models is tagged by.
_TAG_KEYS = ("type", "kind")


def _tagged_by(branches: list[dict[str, Any]], inst: Any) -> tuple[str, list[str]] | None:
    """(tag key, its other required keys) of the table branch whose ``type`` or ``kind``
    tag is the string ``inst`` (``"issue_shares"`` for ``{kind = "issue_shares", ...}``)."""
    if not isinstance(inst, str):
        return None
    for b in branches:
        props = b.get("properties", {})
        for key in _TAG_KEYS:
            if isinstance(props.get(key), dict) and props[key].get("const") == inst:
                return key, [k for k in b.get("required", []) if k != key]
    return None


def _tag_key(schema: dict[str, Any], branches: list[dict[str, Any]]) -> str | None:
    """The discriminating key of a tagged union (every branch fixes it with a const)."""
    declared = schema.get("discriminator", {})
    candidates = [declared.get("propertyName")] if isinstance(declared, dict) else []
    candidates += _TAG_KEYS
    for key in candidates:
        if (
            key
            and branches
            and all("const" in b.get("properties", {}).get(key, {}) for b in branches)
        ):
            return str(key)
    return None


def _accepts_type(schema: dict[str, Any], inst: Any, root: dict[str, Any]) -> bool:
    """Whether ``inst`` has a JSON type that ``schema`` allows (ignoring other keywords)."""
    if "const" in schema:
        return _json_type(schema["const"]) == _json_type(inst)
    types = schema.get("type")
    if types is None:
        subs = schema.get("anyOf") or schema.get("oneOf")
        if isinstance(subs, list):
            return any(_accepts_type(_resolve(s, root), inst, root) for s in subs)
        return True
    types = types if isinstance(types, list) else [types]
    kind = _json_type(inst)
    return kind in types or (kind == "integer" and "number" in types)


def _is_literal(schema: dict[str, Any]) -> bool:
    """Whether a schema is a fixed value choice (const or enum)."""
    return "const" in schema or "enum" in schema


def _describe(schema: dict[str, Any]) -> str:
    """Short words for what a union branch accepts."""
    if "const" in schema:
        return _show(schema["const"])
    if "enum" in schema:
        return "one of " + ", ".join(_show(v) for v in schema["enum"])
    kind = schema.get("type", "value")
    kinds: list[Any] = kind if isinstance(kind, list) else [kind]
    return " or ".join(_a(_TYPE_NAMES.get(t, str(t))) for t in kinds)


def _json_type(value: Any) -> str:
    """JSON Schema type name of a value; TOML dates and times are 'datetime'."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    if value is None:
        return "null"
    return "datetime"


def _got(value: Any) -> str:
    """Describe a value found in the file: its TOML type and, for scalars, the value."""
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    names = {"boolean": "boolean", "integer": "integer", "number": "float", "string": "string"}
    return f"{names.get(_json_type(value), 'datetime')} {_show(value)}"


def _show(value: Any) -> str:
    """A value as TOML would spell it, shortened when long."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text = json.dumps(value if len(value) <= 40 else value[:37] + "...", ensure_ascii=False)
    elif isinstance(value, dt.date | dt.time):
        text = value.isoformat()
    elif isinstance(value, dict):
        text = "a table"
    elif isinstance(value, list):
        text = "an array"
    else:
        text = str(value)
    return text if len(text) <= 48 else text[:45] + "..."


def _a(word: str) -> str:
    """Prefix a type name with its article."""
    return ("an " if word[:1] in "aeiou" else "a ") + word


def _toml_number(text: str) -> int | float | None:
    """The number a quoted string would be in TOML without its quotes (None if none: a
    leading zero, inf or nan, a boolean, or more than one value)."""
    try:
        doc = tomllib.loads(f"v = {text.strip()}")
    except tomllib.TOMLDecodeError:
        return None
    value = doc.get("v")
    if len(doc) != 1 or isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value if math.isfinite(value) else None


def _close(word: Any, choices: list[str]) -> str | None:
    """The closest choice to a misspelt word (case-insensitive), if any is close."""
    if not isinstance(word, str) or not choices:
        return None
    lowered = {c.lower(): c for c in choices}
    match = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.6)
    return lowered[match[0]] if match else None


def _noun(path: KeyPath) -> str:
    """Singular of the nearest array name in a path ("abilities" -> "ability ")."""
    for part in reversed(path):
        if isinstance(part, str):
            if part.endswith("ies"):
                return part[:-3] + "y "
            return (part[:-1] if part.endswith("s") else part) + " "
    return ""
