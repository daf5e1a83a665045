"""JSON Schemas of the title files (their validation is :mod:`eighteen.title.validation`),
and the helpers both validation and the stand-ins read them with (:func:`resolve`,
:func:`show`, :data:`ecma_pattern`).

The schemas (draft 2020-12) are generated from the pydantic models in
:mod:`eighteen.title.model` and written to ``schema/<kind>.schema.json``, where TOML editors
(Taplo / Even Better TOML) find them through a ``#:schema`` comment on a file's first line.
TOML has no null, so optional fields appear as their plain type.
"""

from __future__ import annotations

import copy
import datetime as dt
import functools
import json
import re
from pathlib import Path
from typing import Any

from eighteen.compiled import compiled_schema
from eighteen.title.model import FILE_MODELS
from eighteen.title.save import save_schema

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_BASE = "https://eighteen.dev/schema/"


def schema_documents() -> dict[str, dict[str, Any]]:
    """Return kind -> JSON Schema document for every title file kind."""
    return copy.deepcopy(documents())


@functools.cache
def documents() -> dict[str, dict[str, Any]]:
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
    target = resolve(prop, root)
    if target is not prop and target.get("description"):
        return str(target["description"])
    if "const" in prop:
        return f"Must be {show(prop['const'])} for this kind of entry: {owner}".strip()
    items = prop.get("items")
    if isinstance(items, dict):
        item = resolve(items, root)
        if item is not items and item.get("description"):
            return f"{title}; each entry: {item['description']}"
    return f"{title}: {owner}" if owner else f"{title}."


def resolve(schema: Any, root: dict[str, Any]) -> dict[str, Any]:
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
    for kind, doc in documents().items():
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
    docs = {f"{kind}.schema.json": doc for kind, doc in documents().items()}
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


def show(value: Any) -> str:
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


#: A JSON Schema pattern compiled (kept: a title's files ask the same few often).
ecma_pattern = functools.lru_cache(maxsize=256)(_ecma_regex)
