"""Reading JSON that comes from outside (saves, 18xx.games exports) within fixed bounds.

``json.loads`` alone turns hostile input into tracebacks: 100,000 nested brackets raise
RecursionError, a 5,000-digit integer raises ValueError (Python's digit limit), and
``NaN``/``Infinity`` are accepted. :func:`load_json` refuses each with a
:class:`JSONLimitError` (a ValueError), one line, located where it can be.
"""

from __future__ import annotations

import json
from typing import Any

MAX_JSON_BYTES = 64 * 1024 * 1024
"""Largest JSON text read (a long 18xx.games export is a few MB)."""
MAX_JSON_DEPTH = 64
"""Deepest nesting of arrays and objects accepted."""
INT_MIN, INT_MAX = -(2**63), 2**63 - 1
"""Integers must fit in 64 bits."""


class JSONLimitError(ValueError):
    """JSON that is too large, too deep, or holds a number out of bounds."""


class _BigInt(Exception):
    def __init__(self, digits: str) -> None:
        self.digits = digits


def _parse_int(text: str) -> int:
    if len(text) > 20:
        raise _BigInt(text)
    value = int(text)
    if not INT_MIN <= value <= INT_MAX:
        raise _BigInt(text)
    return value


def _parse_constant(name: str) -> Any:
    raise JSONLimitError(f"{name} is not a number (JSON has no {name})")


def _line_col(text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    return f"{line}:{offset - (text.rfind(chr(10), 0, offset) + 1) + 1}"


def load_json(text: str) -> Any:
    """Parse ``text`` as JSON within the bounds above.

    Raises ``json.JSONDecodeError`` for a syntax error (it has ``lineno``/``colno``) and
    :class:`JSONLimitError` for input beyond the bounds; never RecursionError.
    """
    if len(text) > MAX_JSON_BYTES:
        raise JSONLimitError(f"larger than {MAX_JSON_BYTES // (1024 * 1024)} MB")
    try:
        data = json.loads(text, parse_int=_parse_int, parse_constant=_parse_constant)
    except RecursionError:
        raise JSONLimitError(f"nested deeper than {MAX_JSON_DEPTH} levels") from None
    except _BigInt as exc:
        where = text.find(exc.digits)
        digits = len(exc.digits.lstrip("-"))
        raise JSONLimitError(
            f"{_line_col(text, where)}: integer out of range ({digits} digits; "
            f"at most a 64-bit integer)"
        ) from None
    if _too_deep(data):
        raise JSONLimitError(f"nested deeper than {MAX_JSON_DEPTH} levels")
    return data


def _too_deep(data: Any) -> bool:
    """Is any array or object nested deeper than MAX_JSON_DEPTH (iteratively)?"""
    stack: list[tuple[Any, int]] = [(data, 1)] if isinstance(data, dict | list) else []
    while stack:
        obj, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            return True
        children = obj.values() if isinstance(obj, dict) else obj
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return False
