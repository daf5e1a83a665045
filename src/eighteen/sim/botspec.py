"""The ``--bots`` syntax: which bot plays each seat, with which personality.

A list of items separated by commas, one per seat (a single item plays every seat)::

    ITEM   := [COUNT "*"] KIND [":" STYLE] ["(" TRAIT "=" NUMBER {"," TRAIT "=" NUMBER} ")"]
    KIND   := "greedy" | "random"
    STYLE  := a named personality of the greedy bot (default, cautious, bold, thrifty)
    TRAIT  := "cash" | "risk"      (each between 0 and 1; see engine.bots.Personality)

Examples: ``greedy``; ``greedy,3*random``; ``greedy:cautious,greedy:bold,2*random``;
``greedy(cash=0.3,risk=0.8),random``. Traits written in parentheses override the style's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace

from eighteen.engine.bots import PERSONALITIES, Bot, GreedyBot, Personality, RandomBot, bot_seed

KINDS = ("greedy", "random")
#: Most seats a bot list may name (no title seats more players).
MAX_SEATS = 100
TRAITS = tuple(f.name for f in fields(Personality))

_ITEM = re.compile(
    r"^(?:(?P<count>\d+)\s*\*\s*)?(?P<kind>[a-z]+)(?::(?P<style>[a-z]+))?"
    r"(?:\((?P<traits>[^()]*)\))?$"
)


class BotSpecError(ValueError):
    """A ``--bots`` value that does not follow the syntax."""


@dataclass(frozen=True)
class BotSpec:
    """One seat's bot: its kind and, for the greedy bot, its personality."""

    kind: str
    personality: Personality | None = None

    @property
    def label(self) -> str:
        """Canonical text form, e.g. ``greedy(cash=0.4,risk=0.1)`` or ``random``."""
        if self.personality is None:
            return self.kind
        for name, p in PERSONALITIES.items():
            if p == self.personality:
                return self.kind if name == "default" else f"{self.kind}:{name}"
        traits = ",".join(f"{t}={getattr(self.personality, t):g}" for t in TRAITS)
        return f"{self.kind}({traits})"

    def make(self, seed: int) -> Bot:
        if self.kind == "random":
            return RandomBot(seed)
        return GreedyBot(seed, self.personality)


def _split(text: str) -> list[str]:
    """Split at commas outside parentheses."""
    items, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise BotSpecError(f"unbalanced ')' at column {i + 1} of {text!r}")
        elif ch == "," and depth == 0:
            items.append(text[start:i])
            start = i + 1
    if depth:
        raise BotSpecError(f"unclosed '(' in {text!r}")
    items.append(text[start:])
    return [s.strip() for s in items]


def _parse_item(item: str) -> tuple[int, BotSpec]:
    m = _ITEM.match(item)
    if not m:
        raise BotSpecError(
            f"cannot read bot {item!r} (expected e.g. greedy, 2*random, greedy:bold)"
        )
    kind = m["kind"]
    if kind not in KINDS:
        raise BotSpecError(f"unknown bot kind {kind!r} in {item!r}; choose from {', '.join(KINDS)}")
    digits = m["count"]  # a count of many digits is too big without reading it as a number
    count = 1 if not digits else int(digits) if len(digits) <= 6 else MAX_SEATS + 1
    if not 1 <= count <= MAX_SEATS:
        raise BotSpecError(f"bot count must be between 1 and {MAX_SEATS} in {item!r}")
    if kind == "random":
        if m["style"] or m["traits"] is not None:
            raise BotSpecError(f"the random bot has no personality: {item!r}")
        return count, BotSpec("random")
    style = m["style"] or "default"
    if style not in PERSONALITIES:
        raise BotSpecError(
            f"unknown personality {style!r} in {item!r}; choose from {', '.join(PERSONALITIES)}"
        )
    personality = PERSONALITIES[style]
    if m["traits"] is not None:
        changes: dict[str, float] = {}
        for part in m["traits"].split(","):
            key, eq, value = part.partition("=")
            key = key.strip()
            if not eq or key not in TRAITS:
                raise BotSpecError(
                    f"cannot read trait {part.strip()!r} in {item!r}; "
                    f"write TRAIT=NUMBER with TRAIT one of {', '.join(TRAITS)}"
                )
            if key in changes:
                raise BotSpecError(f"{key} is given twice in {item!r}")
            try:
                changes[key] = float(value)
            except ValueError:
                raise BotSpecError(
                    f"{key} must be a number in {item!r}, not {value.strip()!r}"
                ) from None
        try:
            personality = replace(personality, **changes)
        except ValueError as exc:
            raise BotSpecError(f"{exc} in {item!r}") from None
    return count, BotSpec("greedy", personality)


def bots_error(exc: BotSpecError) -> str:
    """A BotSpecError as a command says it: naming ``--bots`` once."""
    said = str(exc)  # (some of the messages name --bots already)
    return said if said.startswith("--bots") else f"--bots: {said}"


def parse_bots(text: str) -> list[BotSpec]:
    """The bots a ``--bots`` value names, counts expanded (BotSpecError when unreadable)."""
    if not text.strip():
        raise BotSpecError("--bots is empty")
    out: list[BotSpec] = []
    for item in _split(text):
        if not item:
            raise BotSpecError(f"empty bot in {text!r}")
        count, spec = _parse_item(item)
        out.extend([spec] * count)
    return out


def seat_bots(specs: list[BotSpec], players: int) -> list[BotSpec]:
    """One bot per seat: a single bot plays every seat, otherwise one per player."""
    if len(specs) == 1:
        return specs * players
    if len(specs) != players:
        raise BotSpecError(f"--bots names {len(specs)} bots for {players} players")
    return list(specs)


def seated_bots(specs: list[BotSpec], players: list[str], seed: int) -> dict[str, Bot]:
    """The bots of a game with seed ``seed``: seat ``i``'s spec made with
    :func:`~eighteen.engine.bots.bot_seed` of it (``specs`` as :func:`seat_bots` gives)."""
    return {
        p: spec.make(bot_seed(seed, i))
        for i, (p, spec) in enumerate(zip(players, specs, strict=True))
    }
