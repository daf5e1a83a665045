"""Cross-reference checks: what a schema cannot see, each a small function with a code.

Every check takes the Title and its Sources and yields located Problems. The list of codes
with their meaning is docs/checks.md; tests/title/corpus/ triggers each one.

One module per title file (titlefile: title.toml, hexmap: map.toml, tiles, trains and
phases, corporations, privates, market) and one for the extensions (bonuses, ferries,
stubs, private powers, reservations); importing this package registers every check
(callers sort what they report, so the order of the checks does not matter).
"""

from eighteen.title.checks import (  # noqa: F401  (registers the checks)
    corporations,
    extensions,
    hexmap,
    market,
    privates,
    tiles,
    titlefile,
    trains,
)
from eighteen.title.checks.registry import CHECKS, check, run_checks

__all__ = ["CHECKS", "check", "run_checks"]
