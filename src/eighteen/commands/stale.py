"""Compiled tables older than their title: what `play` and `simulate` warn about."""

from __future__ import annotations

from eighteen.engine.tables import TitleNotFound, find_title
from eighteen.locations import find_title_dir
from eighteen.title.diff import short_hash
from eighteen.title.pipeline import load_sources, source_hash
from eighteen.title.sources import display_path


def stale_tables(title_id: str, compiled_hash: str) -> str | None:
    """Why the compiled tables of ``title_id`` are older than its sources, or None.

    The sources are the title folder found where `eighteen titles` finds it; the tables
    are stale when the hash of the sources as they are now differs from ``compiled_hash``
    (the one the tables were compiled from): a title edited since `eighteen compile`.
    Hashing reads and checks every file, so it is done only when some title file is newer
    than the tables (a stat of each is enough to know the usual case: nothing edited).
    No folder, or one that does not load, is not reported here (`validate` does that).
    """
    folder = find_title_dir(title_id)
    if folder is None:
        return None
    try:
        made = find_title(title_id).stat().st_mtime
    except (TitleNotFound, OSError):
        return None
    # the title's folder, its base titles and tile libraries all sit under the same titles/
    if all(f.stat().st_mtime <= made for f in folder.parent.glob("*/*.toml")):
        return None
    sources, _, problems = load_sources(folder)
    if any(p.is_error for p in problems):
        return None
    now = source_hash(sources)
    if now == compiled_hash:
        return None
    return (
        f"the compiled tables of {title_id} ({short_hash(compiled_hash)}) are older than "
        f"{display_path(folder)} ({short_hash(now)}): run `eighteen compile {title_id}` to "
        "play the title as it is now"
    )
