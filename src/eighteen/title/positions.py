"""Where each key and value of a TOML text starts: a small tolerant scanner.

``tomllib`` gives values but positions only for syntax errors, so this module scans the
text itself and records, for every key path such as ``("hexes", 17, "cities", 0,
"revenue")``, where its key and its value start (1-based line and column). On input it
does not understand it stops, keeping what it indexed so far; it never raises.
"""

from __future__ import annotations

import bisect
import contextlib
import re
from dataclasses import dataclass, field

KeyPath = tuple[str | int, ...]
Pos = tuple[int, int]

# Tokens of the scanner.
_WS = re.compile(r"[ \t]*")
_WS_NL = re.compile(r"(?:[ \t\r\n]+|#[^\n]*)*")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_SCALAR = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})?"
    r"|[^\s,\[\]{}#=\"']+"
)
#: A TOML string of each kind by its opening quotes (the limits' scans in load.py use
#: them too).
STRINGS = {
    '"""': re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""(?:"{0,2})', re.S),
    "'''": re.compile(r"'''(?:[^']|'(?!''))*'''(?:'{0,2})"),
    '"': re.compile(r'"(?:[^"\\\n]|\\.)*"'),
    "'": re.compile(r"'[^'\n]*'"),
}
_END_OF_LINE = re.compile(r"[ \t]*(?:#[^\n]*)?(?:\r?\n|\Z)")
_KEY_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}
#: The scanner's own guard against recursion: four times the nesting ``load.MAX_DEPTH`` a
#: file may have, which the loader checks before it scans.
SCAN_DEPTH_LIMIT = 256


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


def line_col(text: str, offset: int) -> Pos:
    """Return the 1-based (line, column) of character ``offset`` in ``text``."""
    offset = max(0, min(offset, len(text)))
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


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
        if i >= self.n or depth > SCAN_DEPTH_LIMIT:
            raise _Stop
        self._set(path, key_off, i, implicit=False)
        c = self.text[i]
        if c in "\"'":
            opener = c * 3 if self.text.startswith(c * 3, i) else c
            m = STRINGS[opener].match(self.text, i)
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
