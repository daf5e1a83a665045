"""Validation of loaded TOML against the JSON Schemas of the title files
(:mod:`eighteen.title.schema`), every error at once and located; and the mending of a file's
data so that a file with schema errors still builds a model (:func:`mended`).

Codes: E010 wrong type or invalid value, E011 unknown key, E012 missing required key, E013
number out of range, E014 not an allowed value, E015 pattern mismatch, W016 missing or
mismatched ``#:schema`` comment.
"""

from __future__ import annotations

import contextlib
import copy
import difflib
import functools
import math
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators

from eighteen.title.load import LoadedFile, schema_comment
from eighteen.title.model import FILE_MODELS
from eighteen.title.positions import KeyPath
from eighteen.title.problems import Problem, Severity, path_str
from eighteen.title.schema import documents, ecma_pattern, resolve, show
from eighteen.title.stand_ins import Edit, NoStandIn, stand_in, stand_in_edits

_TYPE_NAMES = {"object": "table", "array": "array", "null": "nothing"}
_RANGE_CODES = {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
# Which report wins when several keywords fail on one value.
_PRIORITY = {"type": 0, "const": 1, "enum": 1, "pattern": 2}


def _pattern_keyword(
    validator: Any, pattern: str, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """The ``pattern`` keyword with ECMA-262 semantics (Python's ``$`` allows a newline)."""
    if validator.is_type(instance, "string") and not ecma_pattern(pattern).search(instance):
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
    return _Validator(documents()[kind])


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
    stand_in: tuple[Edit, ...] = ()


def _spot_findings(kind: str, data: Any) -> list[_Finding]:
    """The schema's findings for ``data``, one per spot (the most telling), with the keys
    each table misses gathered into one E012."""
    root = documents()[kind]
    findings = [f for e in _validator(kind).iter_errors(data) for f in _convert(e, root)]
    value_spots: dict[tuple[str, KeyPath], _Finding] = {}
    missing: dict[KeyPath, list[str]] = {}
    fills: dict[KeyPath, list[Edit]] = {}
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


def _fills(path: KeyPath, names: list[str], edits: list[Edit]) -> tuple[Edit, ...]:
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
    schema takes (:func:`~eighteen.title.stand_ins.stand_in`), a missing key too.  The stand-ins are no guess of what
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
        edits: list[Edit] = []
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


def _apply(data: dict[str, Any], edits: list[Edit]) -> None:
    """Make the edits of :func:`mended` (one per path, the first) in place, deepest first,
    so that renaming a key does not move a path still to be edited."""
    by_path: dict[KeyPath, Edit] = {}
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
            f = replace(f, stand_in=stand_in_edits(error, root))
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
        fills: tuple[Edit, ...] = ()
        with contextlib.suppress(NoStandIn):  # a stand-in for every key, or none
            fills = tuple(((*path, n), "set", stand_in(props.get(n), root)) for n in names)
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
        values = ", ".join(show(v) for v in value)
        hint = _close(inst, [v for v in value if isinstance(v, str)]) if len(value) > 1 else None
        message = f"{show(inst)} is not one of the allowed values: {values}"
        yield _Finding(
            path,
            "value",
            "E014",
            message + (f"; did you mean {show(hint)}?" if hint else ""),
            rank,
            mend=("set", hint) if hint else None,
        )
    elif kw == "const":
        yield _Finding(path, "value", "E014", f"expected {show(value)}, got {_got(inst)}", rank)
    elif kw in _RANGE_CODES:
        words = {
            "minimum": "is below the minimum",
            "maximum": "is above the maximum",
            "exclusiveMinimum": "must be greater than",
            "exclusiveMaximum": "must be less than",
        }
        yield _Finding(path, "value", "E013", f"{show(inst)} {words[kw]} {value}", rank)
    elif kw == "pattern":
        about = str(schema.get("description", "")).rstrip(".")
        text = f"{show(inst)} does not match the pattern {value}" + (f" ({about})" if about else "")
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
    branches = [resolve(b, root) for b in error.validator_value]
    tag_key = _tag_key(error.schema, branches)

    def branch_errors(idx: int) -> list[ValidationError]:
        return [c for c in error.context or () if c.relative_schema_path[0] == idx]

    if tag_key and isinstance(inst, dict):
        tags = [b.get("properties", {}).get(tag_key, {}).get("const") for b in branches]
        noun = _noun(path)
        choices = ", ".join(show(t) for t in tags)
        if tag_key not in inst:
            yield _Finding(path, "table", "E012", "", missing=(tag_key,))
        elif inst[tag_key] not in tags:
            hint = _close(inst[tag_key], [t for t in tags if isinstance(t, str)])
            text = f"unknown {noun}{tag_key} {show(inst[tag_key])}; expected one of: {choices}"
            text += f"; did you mean {show(hint)}?" if hint else ""
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
        text = f"{show(inst)} needs its terms: write {{ {key} = {show(inst)}{terms} }}"
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
            return any(_accepts_type(resolve(s, root), inst, root) for s in subs)
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
        return show(schema["const"])
    if "enum" in schema:
        return "one of " + ", ".join(show(v) for v in schema["enum"])
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
    return f"{names.get(_json_type(value), 'datetime')} {show(value)}"


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
