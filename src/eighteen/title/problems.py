"""Problems found in a title: located, coded, printable like compiler diagnostics."""

from __future__ import annotations

import difflib
import json
from dataclasses import asdict, dataclass, field
from enum import Enum


class Severity(str, Enum):
    """How bad a problem is: errors stop compilation, warnings do not."""

    error = "error"
    warning = "warning"


@dataclass(frozen=True, order=True)
class Problem:
    """One located finding: ``file:line:col: error[E123]: path: message``."""

    file: str
    line: int
    col: int
    code: str
    message: str
    path: str = ""
    severity: Severity = field(default=Severity.error)

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.error

    def format(self) -> str:
        where = f"{self.path}: " if self.path else ""
        return (
            f"{self.file}:{self.line}:{self.col}: {self.severity.value}[{self.code}]: "
            f"{where}{self.message}"
        )

    def to_dict(self) -> dict[str, object]:
        d = asdict(self)
        d["severity"] = self.severity.value
        return d


def sort_problems(problems: list[Problem]) -> list[Problem]:
    """Sort by file, line, column, then code; drop exact duplicates."""
    return sorted(set(problems), key=lambda p: (p.file, p.line, p.col, p.code, p.message))


def format_problems(problems: list[Problem], fmt: str = "text") -> str:
    """Render problems as compiler-style text lines or a JSON document."""
    problems = sort_problems(problems)
    if fmt == "json":
        errors = sum(p.is_error for p in problems)
        return json.dumps(
            {
                "problems": [p.to_dict() for p in problems],
                "errors": errors,
                "warnings": len(problems) - errors,
            },
            indent=2,
        )
    return "\n".join(p.format() for p in problems)


def path_str(path: tuple[str | int, ...]) -> str:
    """Key path as text: ``hexes[17].cities[0].revenue``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def closest(word: str, choices: list[str]) -> str | None:
    """The choice ``word`` most likely means: one differing only in case, else the closest
    (difflib, at least 0.6 alike); None when none is close."""
    folded = {c.casefold(): c for c in choices}
    key = word.casefold()
    if key in folded:
        return folded[key]
    match = difflib.get_close_matches(key, list(folded), n=1, cutoff=0.6)
    return folded[match[0]] if match else None


def did_you_mean(word: str, choices: list[str]) -> str:
    """A "; did you mean ..." suffix when a choice is close to ``word`` (:func:`closest`)."""
    match = closest(word, choices)
    return f"; did you mean '{match}'?" if match is not None and match != word else ""
