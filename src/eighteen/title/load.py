"""Load a TOML file into data plus a source-position index of every key and value.

The positions come from :mod:`eighteen.title.positions` (``tomllib`` gives none); this
module reads the file, refuses what is beyond its limits before any parser sees it, and
explains a syntax error in words. Loading never raises: every failure becomes a
:class:`Problem`.

Codes: E001 TOML syntax error, E002 file missing or unreadable, E003 not UTF-8,
E004 input too large or nested too deeply.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from eighteen.title.positions import STRINGS, KeyPath, Pos, PositionIndex, index_positions, line_col
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

_SYNTAX_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_SYNTAX_END = re.compile(r"\s*\(at end of document\)\s*$")
_SCHEMA_COMMENT = re.compile(r"^\ufeff?[ \t]*#:schema[ \t]+(\S(?:.*\S)?)[ \t]*$")

_DEPTH_TOKENS = re.compile(r"[\"'#\[\]{}]")
_LIMIT_TOKENS = re.compile(r"[\"'#\n]")
_KEY_DOT = re.compile(r"(?<![0-9])\.|\.(?![0-9])")
_LONG_INTEGER = re.compile(
    rf"(?<![A-Za-z0-9_.-])(?:[+-]?[0-9](?:_?[0-9]){{{MAX_DIGITS},}}"
    r"|0x(?:_?[0-9A-Fa-f]){17,}|0o(?:_?[0-7]){22,}|0b(?:_?[01]){65,})(?![A-Za-z0-9_.-])"
)


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
        return problem("E003", *utf8_error(out.raw, exc))

    over = beyond_limits(text)
    if over is not None:
        return problem(*over)
    if text.startswith("\ufeff"):
        return problem("E001", "TOML syntax error: file starts with a byte order mark (BOM)")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message, pos = syntax_error(text, exc)
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


def syntax_error(text: str, exc: tomllib.TOMLDecodeError) -> tuple[str, Pos]:
    """What ``tomllib`` found wrong in ``text``, in words, and where (E001's message and
    position; ``eighteen fmt`` reports it as ``validate`` does)."""
    return explain_syntax_error(text, *_syntax_error(text, str(exc)))


def utf8_error(raw: bytes, exc: UnicodeDecodeError) -> tuple[str, Pos]:
    """Bytes that are not UTF-8, in words, and where (E003's message and position)."""
    return _utf8_message(raw, exc), _byte_pos(raw, exc.start)


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
            s = STRINGS[opener].match(text, j)
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
            string = STRINGS[opener].match(text, j)
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
