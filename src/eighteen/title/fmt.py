"""``eighteen fmt``: rewrite title files in one canonical form, keeping every comment.

Canonical means, and only means (docs/variants.md, "Formatting"):

* the keys that say what a table is come first, in this order: ``extends``, ``id``,
  ``at`` (hexes) and the ``type`` tag of abilities, wherever the model (title/model) has
  them; every other key keeps the author's order (authors group keys by topic under
  comments), and so do tables and arrays of tables (``[rules]``, ``[[hexes]]``);
* comment lines directly above a key move with it; a blank line or a comment standing
  apart stays where it is, and so does the file's header (the ``#:schema`` line and the
  comments under it); a comment at the end of a line stays on that line, two spaces after
  the value;
* quoted keys use double quotes ('k' -> "k"), and all-digit keys are quoted ("2" = 1200);
  other keys stay as written; ``key = value`` has one space each side of ``=``; keys
  start at column 1;
* one-line 'literal' strings become "basic" strings; integers are written in decimal
  without ``_`` or ``+`` (0x10 -> 16); floats in their shortest form (1e3 -> 1000.0);
* no trailing spaces, at most one blank line in a row, one newline at the end (skipped
  when the file has a multi-line string, whose lines must not change).

Arrays keep their line breaks.  Formatting never changes meaning: the result is parsed and
compared with the input, and formatted again to prove it is stable; either failing raises
:class:`FormatError` and nothing is written.
"""

from __future__ import annotations

import math
import re
import tomllib
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomlkit
from pydantic import BaseModel
from tomlkit.container import Container
from tomlkit.items import (
    AoT,
    Array,
    Comment,
    Float,
    InlineTable,
    Integer,
    Item,
    Key,
    KeyType,
    SingleKey,
    String,
    StringType,
    Table,
)

from eighteen.title.load import beyond_limits, syntax_error, utf8_error
from eighteen.title.model import FILE_MODELS

#: Keys that say what a table is: they come first, in this order, where the model has them.
LEADING_KEYS = ("extends", "id", "at", "type")
_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


class FormatError(Exception):
    """The file cannot be formatted (a syntax error, or a formatter bug caught in time):
    a message, where in the file (1-based line and column) and its code (``validate``'s
    E001, E003, E004 or E013 for the file itself; E999 for a formatter bug)."""

    def __init__(self, message: str, pos: tuple[int, int] = (1, 1), code: str = "E999") -> None:
        super().__init__(message)
        self.message = message
        self.line, self.col = pos
        self.code = code


# ---------------------------------------------------------------------------------------
# what the model says about a table


@dataclass(frozen=True)
class Shape:
    """What the model expects at some place: a model, a table of X, an array of X."""

    model: type[BaseModel] | None = None
    values: Any = None  # annotation of a data table's values (dict[str, X])
    items: Any = None  # annotation of an array's elements (list[X])

    def order(self) -> list[str] | None:
        """Keys that lead a table of this shape, in order; None when none do."""
        if self.model is None:
            return None
        fields = self.model.model_fields
        lead = [k for k in LEADING_KEYS if k in fields and (k != "type" or _tag(self.model))]
        return lead or None

    def child(self, key: str, value: Any) -> Shape:
        """Shape of the value at ``key`` of a table of this shape."""
        if self.model is not None:
            for name, f in self.model.model_fields.items():
                if key in (name, f.alias):
                    return shape_of(f.annotation, value)
            return Shape()
        if self.values is not None:
            return shape_of(self.values, value)
        return Shape()

    def element(self, value: Any) -> Shape:
        """Shape of an element of an array of this shape."""
        return shape_of(self.items, value) if self.items is not None else Shape()


def _options(annotation: Any) -> list[Any]:
    """The alternatives of an annotation: unions flattened, Annotated unwrapped."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _options(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        return [x for a in typing.get_args(annotation) for x in _options(a)]
    return [annotation]


def _tag(model: type[BaseModel]) -> Any:
    """The fixed ``type`` of a tagged-union member (``Literal["block_hexes"]``), if any."""
    f = model.model_fields.get("type")
    if f is None or typing.get_origin(f.annotation) is not typing.Literal:
        return None
    return typing.get_args(f.annotation)[0]


def shape_of(annotation: Any, value: Any) -> Shape:
    """The shape an annotation gives ``value`` (a table, an array, or nothing to order)."""
    models: list[type[BaseModel]] = []
    for option in _options(annotation):
        origin = typing.get_origin(option)
        if isinstance(value, dict):
            if isinstance(option, type) and issubclass(option, BaseModel):
                models.append(option)
            elif origin is dict:
                return Shape(values=typing.get_args(option)[1])
        elif isinstance(value, list) and origin is list:
            return Shape(items=typing.get_args(option)[0])
    if len(models) > 1 and isinstance(value, dict):
        tagged = [m for m in models if _tag(m) is not None and _tag(m) == value.get("type")]
        models = tagged or models
    return Shape(model=models[0]) if len(models) == 1 else Shape()


# ---------------------------------------------------------------------------------------
# items


def _canonical_key(key: Key) -> Key:
    """A key quoted "like this" when it was quoted, is all digits or must be; else bare."""
    if key.is_dotted():
        return key
    text = key.key
    quoting = key.t  # type: ignore[attr-defined]
    bare = quoting is KeyType.Bare and bool(_BARE.match(text)) and not text.isdigit()
    return SingleKey(text, KeyType.Bare if bare else KeyType.Basic, " = ")


def _same_trivia(new: Item, old: Item) -> Item:
    """Give ``new`` the comment and line ending of ``old``."""
    new.trivia.indent = old.trivia.indent
    new.trivia.comment_ws = old.trivia.comment_ws
    new.trivia.comment = old.trivia.comment
    new.trivia.trail = old.trivia.trail
    return new


def _float_text(value: float) -> str:
    """Shortest text of a float that reads back the same; inf and nan as TOML spells them."""
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return repr(value)


def _scalar(item: Item) -> Item:
    """An integer, float or one-line literal string in canonical form (else the item)."""
    if isinstance(item, Integer) and item.as_string() != str(int(item)):
        return _same_trivia(Integer(int(item), item.trivia, str(int(item))), item)
    if isinstance(item, Float):
        text = _float_text(float(item))
        if item.as_string() != text:
            return _same_trivia(Float(float(item), item.trivia, text), item)
    if isinstance(item, String) and item.type is StringType.SLL:
        return _same_trivia(String.from_raw(str(item), StringType.SLB, escape=True), item)
    return item


def _item(item: Item, shape: Shape) -> Item:
    """Format one value (recursing into tables and arrays); return its replacement."""
    if isinstance(item, Table | InlineTable):
        _container(item.value, shape, inline=isinstance(item, InlineTable))
        return item
    if isinstance(item, AoT):
        for table in item.body:
            _container(table.value, shape.element(table.unwrap()))
        return item
    if isinstance(item, Array):
        for i in range(len(item)):
            element = item[i]
            if isinstance(element, Item):
                new = _item(element, shape.element(element.unwrap()))
                if new is not element:
                    item[i] = new
        return item
    return _scalar(item)


def _container(
    body_owner: Container, shape: Shape, inline: bool = False, root: bool = False
) -> None:
    """Format every entry of a table's body in place, then put its keys in order."""
    body = body_owner.body
    dotted = False
    for i, (key, item) in enumerate(body):
        if key is None:
            if isinstance(item, Comment) and not inline:
                item.trivia.indent = ""
            continue
        dotted = dotted or key.is_dotted()
        value = item.unwrap() if isinstance(item, Item) else item
        new = _item(item, shape.child(key.key, value))
        if not inline and not isinstance(new, Table | AoT):
            new.trivia.indent = ""
            if new.trivia.comment:
                new.trivia.comment_ws = "  "
        body[i] = (_canonical_key(key), new)
    order = shape.order()
    if order is not None and not dotted:
        _reorder(body, order, inline, root)


def _reorder(body: list[Any], order: list[str], inline: bool, root: bool) -> None:
    """Sort the plain keys of a body by ``order``; attached comments move along."""
    units: list[tuple[int, int]] = []  # [start, end) of each movable unit
    header_end = 0
    if root:  # the file header: comments before the first blank line or key
        while header_end < len(body) and isinstance(body[header_end][1], Comment):
            header_end += 1
    for i, (key, item) in enumerate(body):
        if key is None or isinstance(item, Table | AoT):
            continue
        start = i
        while (
            not inline
            and start > header_end
            and body[start - 1][0] is None
            and isinstance(body[start - 1][1], Comment)
        ):
            start -= 1
        units.append((start, i + 1))
    if len(units) < 2:
        return
    rank = {name: n for n, name in enumerate(order)}

    def sort_key(n: int) -> tuple[int, int]:
        name = body[units[n][1] - 1][0].key
        return rank.get(name, len(order)), n

    sorted_units = sorted(range(len(units)), key=sort_key)
    if sorted_units == list(range(len(units))):
        return
    out: list[Any] = []
    cursor = 0
    for slot, n in enumerate(sorted_units):
        start, _ = units[slot]
        out.extend(body[cursor:start])
        out.extend(body[units[n][0] : units[n][1]])
        cursor = units[slot][1]
    out.extend(body[cursor:])
    body[:] = out


# ---------------------------------------------------------------------------------------
# files


def kind_of(path: Path) -> str | None:
    """The title file kind of a path (its name without .toml), if it is one."""
    stem = Path(path).stem
    return stem if Path(path).suffix == ".toml" and stem in FILE_MODELS else None


def _tidy(text: str) -> str:
    """Line-level tidying: no trailing spaces, one blank line at most, one final newline."""
    if '"""' in text or "'''" in text:
        return text
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    out: list[str] = []
    for line in lines:
        if line == "" and (not out or out[-1] == ""):
            continue
        out.append(line)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def _format_once(text: str, kind: str | None) -> str:
    """One formatting pass."""
    doc = tomlkit.parse(text)
    model = FILE_MODELS.get(kind) if kind else None
    _container(doc, Shape(model=model), root=True)
    return _tidy(doc.as_string())


def _same(a: Any, b: Any) -> bool:
    """Equal TOML data, where nan equals nan and types must match (1 is not 1.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def format_text(text: str, kind: str | None = None) -> str:
    """The canonical form of a title file's text (``kind`` picks the key order).

    Raises FormatError when the text is not TOML, or when the result would not read
    back as the same data or would change if formatted again.
    """
    over = beyond_limits(text)
    if over is not None:
        code, message, pos = over
        raise FormatError(message, pos, code)
    try:
        before = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message, pos = syntax_error(text, exc)
        raise FormatError(f"TOML syntax error: {message}", pos, "E001") from exc
    try:
        out = _format_once(text, kind)
        again = _format_once(out, kind)
        after = tomllib.loads(out)
    except Exception as exc:  # tomlkit could not handle it: refuse rather than guess
        raise FormatError(f"cannot format: {type(exc).__name__}: {exc}") from exc
    if not _same(before, after):
        raise FormatError("formatting would change the data (a formatter bug; not written)")
    if again != out:
        raise FormatError("formatting is not stable on this file (a formatter bug; not written)")
    return out


def toml_files(paths: list[Path]) -> list[Path]:
    """The .toml files named, or found below the folders named, sorted, each once."""
    found: set[Path] = set()
    for p in paths:
        if p.is_dir():
            found.update(q for q in p.rglob("*.toml") if q.is_file())
        else:
            found.add(p)
    return sorted(found)


def format_file(path: Path, *, check: bool = False) -> bool:
    """Format one file in place (or only compare, with ``check``); True if it changes."""
    raw = Path(path).read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FormatError(*utf8_error(raw, exc), "E003") from exc
    out = format_text(text, kind_of(path))
    if out == text:
        return False
    if not check:
        Path(path).write_text(out, encoding="utf-8", newline="")
    return True
