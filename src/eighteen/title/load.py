"""Load a TOML file into data plus a source-position index of every key and value.

``tomllib`` gives values but positions only for syntax errors, so this module scans the text
itself with a small TOML tokenizer and records, for every key path such as
``("hexes", 17, "cities", 0, "revenue")``, where its key and its value start (1-based line
and column). Loading never raises: every failure becomes a :class:`Problem`.

Codes: E001 TOML syntax error, E002 file missing or unreadable, E003 not UTF-8,
E004 input too large or nested too deeply.
"""

from __future__ import annotations

import bisect
import contextlib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eighteen.title.problems import Problem, path_str

MAX_BYTES = 1024 * 1024
"""Largest title file accepted (E004 above this)."""
MAX_DEPTH = 64
"""Deepest nesting of tables and arrays accepted (E004 above this)."""
MAX_KEY_PARTS = 64
"""Most parts of one dotted key (``a.b.c`` has 3; E004 above this)."""
MAX_STRING = 10_000
"""Longest string accepted, in characters (E004 above this)."""
MAX_DIGITS = 19
"""Most digits of a decimal integer (64 bits; E013 above this)."""

KeyPath = tuple[str | int, ...]
Pos = tuple[int, int]

_SYNTAX_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_SYNTAX_END = re.compile(r"\s*\(at end of document\)\s*$")
_SCHEMA_COMMENT = re.compile(r"^\ufeff?[ \t]*#:schema[ \t]+(\S(?:.*\S)?)[ \t]*$")

# Tokens of the position scanner.
_WS = re.compile(r"[ \t]*")
_WS_NL = re.compile(r"(?:[ \t\r\n]+|#[^\n]*)*")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_SCALAR = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})?"
    r"|[^\s,\[\]{}#=\"']+"
)
_STRINGS = {
    '"""': re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""(?:"{0,2})', re.S),
    "'''": re.compile(r"'''(?:[^']|'(?!''))*'''(?:'{0,2})"),
    '"': re.compile(r'"(?:[^"\\\n]|\\.)*"'),
    "'": re.compile(r"'[^'\n]*'"),
}
_END_OF_LINE = re.compile(r"[ \t]*(?:#[^\n]*)?(?:\r?\n|\Z)")
_DEPTH_TOKENS = re.compile(r"[\"'#\[\]{}]")
_LIMIT_TOKENS = re.compile(r"[\"'#\n]")
_KEY_DOT = re.compile(r"(?<![0-9])\.|\.(?![0-9])")
_LONG_INTEGER = re.compile(
    rf"(?<![A-Za-z0-9_.-])(?:[+-]?[0-9](?:_?[0-9]){{{MAX_DIGITS},}}"
    r"|0x(?:_?[0-9A-Fa-f]){17,}|0o(?:_?[0-7]){22,}|0b(?:_?[01]){65,})(?![A-Za-z0-9_.-])"
)
_KEY_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}
_SCAN_DEPTH_LIMIT = 4 * MAX_DEPTH


@dataclass
class PositionIndex:
    """Source positions (1-based line, column) of every key and value, by key path."""

    keys: dict[KeyPath, Pos] = field(default_factory=dict)
    values: dict[KeyPath, Pos] = field(default_factory=dict)

    def key(self, path: KeyPath) -> Pos:
        """Position of the key at ``path``; the nearest indexed ancestor's, else (1, 1)."""
        return _lookup(self.keys, path)

    def value(self, path: KeyPath) -> Pos:
        """Position of the value at ``path``; the nearest indexed ancestor's, else (1, 1)."""
        return _lookup(self.values, path)

    def __contains__(self, path: object) -> bool:
        """Whether ``path`` itself (not an ancestor) is indexed."""
        return isinstance(path, tuple) and path in self.values


def _lookup(table: dict[KeyPath, Pos], path: KeyPath) -> Pos:
    """Return the entry for ``path`` or its nearest ancestor, else (1, 1)."""
    p = tuple(path)
    while True:
        if p in table:
            return table[p]
        if not p:
            return (1, 1)
        p = p[:-1]


@dataclass
class LoadedFile:
    """A TOML file as read: bytes, parsed data (None if unusable), positions, problems."""

    path: Path
    display: str
    data: dict[str, Any] | None
    index: PositionIndex
    problems: list[Problem]
    raw: bytes


def schema_comment(text: str) -> str | None:
    """Return the target of a ``#:schema <path>`` comment on the first line, if present."""
    first = text.split("\n", 1)[0].rstrip("\r")
    m = _SCHEMA_COMMENT.match(first)
    return m.group(1) if m else None


def line_col(text: str, offset: int) -> Pos:
    """Return the 1-based (line, column) of character ``offset`` in ``text``."""
    offset = max(0, min(offset, len(text)))
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


def load_toml(path: Path, display: str | None = None) -> LoadedFile:
    """Read and parse a TOML file, indexing source positions; never raises."""
    path = Path(path)
    shown = display if display is not None else str(path)
    out = LoadedFile(path, shown, None, PositionIndex(), [], b"")

    def problem(code: str, message: str, pos: Pos = (1, 1), key: KeyPath = ()) -> LoadedFile:
        out.problems.append(Problem(shown, pos[0], pos[1], code, message, path_str(key)))
        return out

    try:
        with path.open("rb") as fh:
            out.raw = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return problem("E002", "file not found")
    except IsADirectoryError:
        return problem("E002", "cannot read file: it is a directory")
    except OSError as exc:
        return problem("E002", f"cannot read file: {exc.strerror or exc}")
    if len(out.raw) > MAX_BYTES:
        return problem("E004", f"file is larger than {MAX_BYTES // (1024 * 1024)} MB")
    try:
        text = out.raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return problem("E003", _utf8_message(out.raw, exc), _byte_pos(out.raw, exc.start))

    over = beyond_limits(text)
    if over is not None:
        return problem(*over)
    if text.startswith("\ufeff"):
        return problem("E001", "TOML syntax error: file starts with a byte order mark (BOM)")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message, pos = explain_syntax_error(text, *_syntax_error(text, str(exc)))
        return problem("E001", f"TOML syntax error: {message}", pos)
    except Exception as exc:  # RecursionError, or anything tomllib did not anticipate
        return problem("E001", f"TOML syntax error: cannot parse ({type(exc).__name__})")

    out.index = index_positions(text)
    deep_path = _deep_data_path(data)
    if deep_path is not None:
        return problem(
            "E004",
            f"nested deeper than {MAX_DEPTH} levels",
            out.index.key(deep_path),
            deep_path,
        )
    out.data = data
    return out


def _byte_pos(raw: bytes, offset: int) -> Pos:
    """Return the (line, column) of byte ``offset``, counting columns in characters."""
    line_start = raw.rfind(b"\n", 0, offset) + 1
    before = raw[line_start:offset].decode("utf-8", errors="replace")
    return raw.count(b"\n", 0, offset) + 1, len(before) + 1


def _utf8_message(raw: bytes, exc: UnicodeDecodeError) -> str:
    """Describe an undecodable byte."""
    return f"file is not valid UTF-8: byte 0x{raw[exc.start]:02x} ({exc.reason})"


def _syntax_error(text: str, message: str) -> tuple[str, Pos]:
    """Split a tomllib error message into its text and its (line, column)."""
    m = _SYNTAX_AT.search(message)
    if m:
        return message[: m.start()], (int(m.group(1)), int(m.group(2)))
    m = _SYNTAX_END.search(message)
    if m:
        return message[: m.start()], line_col(text, len(text))
    return message, (1, 1)


def _open_string(line: str) -> int | None:
    """0-based column of the quote opening an unterminated string on ``line``, if any."""
    i = 0
    while i < len(line):
        c = line[i]
        if c == "#":
            return None
        if c in "\"'":
            triple = line.startswith(c * 3, i)
            closer = c * 3 if triple else c
            j = i + len(closer)
            while j < len(line):
                if c == '"' and line[j] == "\\":
                    j += 2
                    continue
                if line.startswith(closer, j):
                    break
                j += 1
            else:
                return i
            i = j + len(closer)
            continue
        i += 1
    return None


def _token_at(text: str, pos: Pos) -> str:
    """The word of ``text`` starting at (line, column), for messages."""
    lines = text.split("\n")
    if not 0 < pos[0] <= len(lines):
        return ""
    m = re.match(r"[^\s,\]}#]+", lines[pos[0] - 1][pos[1] - 1 :])
    return m.group() if m else ""


def explain_syntax_error(text: str, message: str, pos: Pos) -> tuple[str, Pos]:
    """Say in words what a tomllib error means, and point at its cause when that is
    clearer (the opening quote of an unterminated string, the key written twice)."""
    lines = text.split("\n")
    line = lines[pos[0] - 1] if 0 < pos[0] <= len(lines) else ""
    unterminated = (
        "Illegal character '\\n'",
        "Unterminated string",
        'Expected "\'"',
        "Expected '\"'",
    )
    if message.startswith(unterminated):
        for n in range(min(pos[0], len(lines)), 0, -1):
            col = _open_string(lines[n - 1])
            if col is None:
                continue
            if lines[n - 1].startswith(('"""', "'''"), col):
                what = "the multi-line string opened here is never closed"
            else:
                what = "the string opened here has no closing quote on its line"
            return f"unterminated string: {what}", (n, col + 1)
        return "unterminated string: a closing quote is missing", pos
    if message == "Invalid value":
        word = _token_at(text, pos)
        if not word:
            return "a value is missing after '='", pos
        return (
            f'{word!r} is not a TOML value: text needs quotes ("{word}"), '
            "booleans are true or false",
            pos,
        )
    if message == "Cannot overwrite a value":
        key = re.match(r"\s*([^=\s]+)", line)
        if key is None:
            return "a key is written twice (each key once per table)", pos
        where = (pos[0], key.start(1) + 1)
        return f"key {key.group(1)!r} is written twice (each key once per table)", where
    m = re.match(r"Cannot declare \((.*)\) twice", message)
    if m:
        parts = [x.strip().strip("'\"") for x in m.group(1).split(",") if x.strip()]
        return f"table [{'.'.join(parts)}] is declared twice", pos
    words = {
        "Unclosed array": "unclosed array: a ']' is missing, or a ',' between two values",
        "Unclosed inline table": "unclosed inline table: a '}' is missing (an inline table "
        "{ ... } stays on one line, with no comma after its last value)",
        "Expected newline or end of document after a statement": "unexpected text after "
        "the value: one key = value per line (a quote or a comma missing?)",
        "Expected '=' after a key in a key/value pair": "'=' missing after the key",
        "Expected ']' at the end of a table declaration": "']' missing at the end of "
        "the table header",
        "Expected ']]' at the end of an array declaration": "']]' missing at the end "
        "of the array-of-tables header",
        "Invalid initial character for a key part": "a key was expected here (a comma "
        "after the last value of an inline table, or a stray character?)",
        "Invalid statement": "not a key = value line or a [table] header",
        "Unescaped '\\' in a string": "a backslash starts an unknown escape: write \\\\ "
        "or use a 'literal string'",
    }
    return words.get(message, message[:1].lower() + message[1:]), pos


def _too_deep(text: str) -> int | None:
    """Return the offset of the first bracket nested deeper than MAX_DEPTH, else None.

    Counts ``[``/``{`` against ``]``/``}`` outside strings and comments, so that deeply
    nested input is refused before tomllib's recursive parser sees it.
    """
    depth = 0
    i = 0
    while True:
        m = _DEPTH_TOKENS.search(text, i)
        if m is None:
            return None
        c, j = m.group(), m.start()
        if c == "#":
            i = text.find("\n", j)
            if i < 0:
                return None
        elif c in "\"'":
            opener = c * 3 if text.startswith(c * 3, j) else c
            s = _STRINGS[opener].match(text, j)
            if s is None:  # unterminated: tomllib stops here
                return None
            i = s.end()
        elif c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return j
            i = j + 1
        else:
            depth = max(0, depth - 1)
            i = j + 1


def beyond_limits(text: str) -> tuple[str, str, Pos] | None:
    """(code, message, position) of the first thing in ``text`` beyond the reader's
    limits (nesting, dotted-key parts, string length, integer digits), else None.
    Linear in the text; run before any TOML parser sees it."""
    deep = _too_deep(text)
    if deep is not None:
        return "E004", f"nested deeper than {MAX_DEPTH} levels", line_col(text, deep)
    over = _over_limits(text)
    if over is not None:
        code, message, offset = over
        return code, message, line_col(text, offset)
    return None


def _over_limits(text: str) -> tuple[str, str, int] | None:
    """(code, message, offset) of the first string, dotted key or integer beyond the
    limits above, else None: one linear pass, before tomllib (which needs quadratic time
    for a dotted key of 100,000 parts and cannot convert a 5,000-digit integer)."""
    dots = 0
    i = 0
    while True:
        m = _LIMIT_TOKENS.search(text, i)
        code_end = m.start() if m is not None else len(text)
        for d in _KEY_DOT.finditer(text, i, code_end):
            dots += 1
            if dots >= MAX_KEY_PARTS:
                return "E004", f"a dotted key has more than {MAX_KEY_PARTS} parts", d.end()
        big = _LONG_INTEGER.search(text, i, code_end)
        if big is not None:
            text_digits = big.group()[2:] if big.group()[1:2] in "xob" else big.group()
            digits = sum(c not in "+-_" for c in text_digits)
            return "E013", f"integer of {digits} digits is out of range (64 bits)", big.start()
        if m is None:
            return None
        c, j = m.group(), m.start()
        if c == "\n":
            dots = 0
            i = j + 1
        elif c == "#":
            i = text.find("\n", j)
            if i < 0:
                return None
        else:
            opener = c * 3 if text.startswith(c * 3, j) else c
            string = _STRINGS[opener].match(text, j)
            if string is None:  # unterminated: tomllib reports it
                return None
            if string.end() - j > MAX_STRING + 2 * len(opener):
                return "E004", f"a string is longer than {MAX_STRING:,} characters", j
            i = string.end()


def _deep_data_path(data: dict[str, Any]) -> KeyPath | None:
    """Return the path of a container nested deeper than MAX_DEPTH, else None."""
    stack: list[tuple[Any, KeyPath]] = [(data, ())]
    while stack:
        obj, path = stack.pop()
        if len(path) > MAX_DEPTH:
            return path
        items = obj.items() if isinstance(obj, dict) else enumerate(obj)
        for k, v in items:
            if isinstance(v, dict | list):
                stack.append((v, (*path, k)))
    return None


def index_positions(text: str) -> PositionIndex:
    """Scan TOML ``text`` and return positions of its keys and values; never raises.

    On input the scanner does not understand it stops, keeping what it indexed so far.
    """
    return _Scanner(text).run()


class _Stop(Exception):
    """The scanner is confused: stop indexing."""


class _Scanner:
    """A tolerant single-pass TOML scanner recording key and value offsets."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.n = len(text)
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.index = PositionIndex()
        self.aot: dict[KeyPath, int] = {}  # array-of-tables path -> elements so far
        self.implicit: set[KeyPath] = set()  # tables only implied by headers/dotted keys

    def run(self) -> PositionIndex:
        """Index the whole document, stopping quietly on anything unexpected."""
        with contextlib.suppress(Exception):  # _Stop, or a bug: keep the partial index
            self._document()
        return self.index

    def _pos(self, offset: int) -> Pos:
        """Return the 1-based (line, column) of ``offset``."""
        line = bisect.bisect_right(self.line_starts, offset)
        return line, offset - self.line_starts[line - 1] + 1

    def _set(self, path: KeyPath, key_off: int, value_off: int, implicit: bool) -> None:
        """Record positions; an explicit definition replaces an implicit one."""
        if path in self.index.keys and (implicit or path not in self.implicit):
            return
        self.index.keys[path] = self._pos(key_off)
        self.index.values[path] = self._pos(value_off)
        if implicit:
            self.implicit.add(path)
        else:
            self.implicit.discard(path)

    def _skip(self, i: int, newlines: bool = False) -> int:
        """Skip spaces and tabs (and newlines and comments when ``newlines``)."""
        m = (_WS_NL if newlines else _WS).match(self.text, i)
        return m.end() if m else i

    def _document(self) -> None:
        """Scan top-level statements: table headers and key/value pairs."""
        table: KeyPath = ()
        i = 0
        while True:
            i = self._skip(i, newlines=True)
            if i >= self.n:
                return
            if self.text[i] == "[":
                i, table = self._header(i)
            else:
                i = self._key_value(i, table, 0)
            m = _END_OF_LINE.match(self.text, i)
            if m is None:
                raise _Stop
            i = m.end()

    def _header(self, start: int) -> tuple[int, KeyPath]:
        """Scan ``[a.b]`` or ``[[a.b]]``; return the end offset and the new table path."""
        aot = self.text.startswith("[[", start)
        j, parts = self._key(start + (2 if aot else 1))
        close = "]]" if aot else "]"
        if not self.text.startswith(close, j):
            raise _Stop
        path: KeyPath = ()
        for k, (name, off) in enumerate(parts):
            path = (*path, name)
            last = k == len(parts) - 1
            if last and aot:
                self._set(path, off, start, implicit=True)
                count = self.aot.get(path, 0)
                self.aot[path] = count + 1
                path = (*path, count)
                self._set(path, start, start, implicit=False)
            else:
                self._set(path, off, start, implicit=not last)
                if path in self.aot:
                    path = (*path, self.aot[path] - 1)
        return j + len(close), path

    def _key(self, i: int) -> tuple[int, list[tuple[str, int]]]:
        """Scan a dotted key; return the offset after it and its (name, offset) parts."""
        parts: list[tuple[str, int]] = []
        while True:
            i = self._skip(i)
            if i >= self.n:
                raise _Stop
            c = self.text[i]
            if c == '"':
                j, name = self._basic_key(i)
            elif c == "'":
                end = self.text.find("'", i + 1)
                if end < 0 or "\n" in self.text[i:end]:
                    raise _Stop
                j, name = end + 1, self.text[i + 1 : end]
            else:
                m = _BARE_KEY.match(self.text, i)
                if m is None:
                    raise _Stop
                j, name = m.end(), m.group()
            parts.append((name, i))
            j = self._skip(j)
            if j < self.n and self.text[j] == ".":
                i = j + 1
                continue
            return j, parts

    def _basic_key(self, i: int) -> tuple[int, str]:
        """Scan a double-quoted key, decoding escapes; return the end offset and the key."""
        text, j = self.text, i + 1
        out: list[str] = []
        while j < self.n:
            c = text[j]
            if c == '"':
                return j + 1, "".join(out)
            if c == "\n":
                raise _Stop
            if c != "\\":
                out.append(c)
                j += 1
                continue
            e = text[j + 1 : j + 2]
            if e in _KEY_ESCAPES:
                out.append(_KEY_ESCAPES[e])
                j += 2
            elif e in ("u", "U"):
                width = 4 if e == "u" else 8
                out.append(chr(int(text[j + 2 : j + 2 + width], 16)))
                j += 2 + width
            else:
                raise _Stop
        raise _Stop

    def _key_value(self, i: int, table: KeyPath, depth: int) -> int:
        """Scan ``key = value`` inside ``table``; return the offset after the value."""
        j, parts = self._key(i)
        if j >= self.n or self.text[j] != "=":
            raise _Stop
        path = table
        for name, off in parts[:-1]:
            path = (*path, name)
            self._set(path, off, off, implicit=True)
        path = (*path, parts[-1][0])
        return self._value(self._skip(j + 1), path, parts[-1][1], depth)

    def _value(self, i: int, path: KeyPath, key_off: int, depth: int) -> int:
        """Scan one value at ``i`` belonging to ``path``; return the offset after it."""
        if i >= self.n or depth > _SCAN_DEPTH_LIMIT:
            raise _Stop
        self._set(path, key_off, i, implicit=False)
        c = self.text[i]
        if c in "\"'":
            opener = c * 3 if self.text.startswith(c * 3, i) else c
            m = _STRINGS[opener].match(self.text, i)
        elif c == "[":
            return self._array(i, path, depth + 1)
        elif c == "{":
            return self._inline_table(i, path, depth + 1)
        else:
            m = _SCALAR.match(self.text, i)
        if m is None:
            raise _Stop
        return m.end()

    def _array(self, i: int, path: KeyPath, depth: int) -> int:
        """Scan ``[v, v, ...]``, giving elements integer path parts."""
        j, count = i + 1, 0
        while True:
            j = self._skip(j, newlines=True)
            if j < self.n and self.text[j] == "]":
                return j + 1
            j = self._value(j, (*path, count), j, depth)
            count += 1
            j = self._skip(j, newlines=True)
            if j < self.n and self.text[j] == ",":
                j += 1
            elif j < self.n and self.text[j] == "]":
                return j + 1
            else:
                raise _Stop

    def _inline_table(self, i: int, path: KeyPath, depth: int) -> int:
        """Scan ``{k = v, ...}`` (newlines tolerated, as TOML 1.1 allows)."""
        j = i + 1
        while True:
            j = self._skip(j, newlines=True)
            if j < self.n and self.text[j] == "}":
                return j + 1
            j = self._skip(self._key_value(j, path, depth), newlines=True)
            if j < self.n and self.text[j] == ",":
                j += 1
            elif j < self.n and self.text[j] == "}":
                return j + 1
            else:
                raise _Stop
