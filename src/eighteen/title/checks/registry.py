"""The registry of cross-reference checks and the runner."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from eighteen.title.aggregate import MissingPart, Title
from eighteen.title.problems import Problem, Severity
from eighteen.title.sources import Sources

Check = Callable[[Title, Sources], Iterator[Problem]]
CHECKS: list[Check] = []

W = Severity.warning


def check(fn: Check) -> Check:
    """Register a check."""
    CHECKS.append(fn)
    return fn


def run_checks(title: Title, sources: Sources) -> list[Problem]:
    """Run every registered check; a crashing check becomes an internal-error problem.

    On a partial title (a file did not load) a check that touches the missing file is
    skipped, whatever it found so far: it would report knock-on noise.
    """
    out: list[Problem] = []
    for fn in CHECKS:
        try:
            out.extend(list(fn(title, sources)))
        except MissingPart:
            continue
        except Exception as exc:  # a check must never take the validator down
            loaded = sources.file("title")  # (the title's own file: its path as shown)
            where = loaded.display if loaded is not None else "title.toml"
            msg = f"internal error in {fn.__name__}: {exc!r}"
            out.append(Problem(where, 1, 1, "E999", msg))
    return out
