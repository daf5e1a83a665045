"""Title versions in saves: a save replays only on the title tables it was made with.

A save (``Game.to_json()``) records the title ``id``, ``version`` and ``hash`` of the
compiled tables it was played on.  :func:`check_save_title` compares them with the tables
a replay would use; docs/variants.md ("Saves and title versions") says how to migrate.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from eighteen.title.diff import short_hash


class TitleStamp(Protocol):
    """What identifies compiled title tables: ``Tables`` and ``CompiledTitle`` have it."""

    @property
    def id(self) -> str: ...
    @property
    def version(self) -> str: ...
    @property
    def hash(self) -> str: ...


class SaveTitleMismatch(ValueError):
    """A save was made with other title tables than the ones it would be replayed on."""


def _stamp(identity: Mapping[str, Any]) -> str:
    """``1830 1.0.0 (sha256:0123456789ab)``."""
    version = identity.get("version")
    return (
        f"{identity.get('id', '?')} {'no version' if version is None else version} "
        f"({short_hash(identity.get('hash')) or 'no hash'})"
    )


def check_save_title(save: Mapping[str, Any], title: TitleStamp, force: bool = False) -> list[str]:
    """Refuse a save made with other title tables than ``title`` (compiled tables).

    ``save`` is a saved game (``Game.to_json()``: keys ``title``, ``version``, ``hash``);
    ``title`` the compiled tables it would replay on (their ``id``, ``version`` and
    ``hash``: ``Tables`` in the engine).  Returns nothing when they match.  On a mismatch it
    raises :class:`SaveTitleMismatch` naming both versions, unless ``force``, when it
    returns the message as a warning instead.  See docs/variants.md for migrating saves.
    """
    saved = {"id": save.get("title"), "version": save.get("version"), "hash": save.get("hash")}
    now = {"id": title.id, "version": title.version, "hash": title.hash}
    if saved == now:
        return []
    if saved["id"] != now["id"]:
        what = f"the save is a game of {saved['id']}, not of {now['id']}"
    elif saved["version"] != now["version"]:
        what = "the title has a new version since the game was saved"
    else:
        what = "the title's files changed since the game was saved (same version, new hash)"
    message = f"save made with {_stamp(saved)}, but the title is now {_stamp(now)}: {what}. "
    if not force:
        raise SaveTitleMismatch(
            message + "Replaying on other tables may fail or play out differently. "
            "Use --force to replay anyway, or migrate the save (docs/variants.md, "
            "'Saves and title versions')."
        )
    return [message + "Replayed anyway (--force): it may fail or play out differently."]
