"""Compiled tables older than their title: what `play` and `simulate` warn about."""

from __future__ import annotations

from pathlib import Path

from eighteen.engine.tables import Tables, TitleNotFound, find_title, load_title
from eighteen.locations import compiled_path, find_title_dir, title_argument
from eighteen.title.diff import short_hash
from eighteen.title.pipeline import load_sources, source_hash
from eighteen.title.sources import display_path


def played_tables(target: str) -> tuple[Tables, str | None]:
    """The compiled tables a title argument plays (an id, or a title folder: the tables
    ``eighteen compile`` writes for that folder, in its project's ``generated/``), and
    why they are older than their sources (None: they are not).  TitleNotFound, naming
    where it looked, when there are none."""
    title_id, folder = title_argument(target)
    path = None if folder is None else compiled_path(folder, title_id)
    if path is None:
        tables = load_title(title_id)
    elif path.is_file():
        tables = load_title(path)
    else:
        raise TitleNotFound(
            f"no compiled tables for {target} (looked for {display_path(path)}): run "
            f"`eighteen compile {target}`"
        )
    return tables, stale_tables(tables.id, tables.hash, folder, path)


def stale_tables(
    title_id: str,
    compiled_hash: str,
    folder: Path | None = None,
    compiled: Path | None = None,
) -> str | None:
    """Why the compiled tables of ``title_id`` are older than its sources, or None.

    The sources are ``folder`` when the argument named one, else the title folder found
    where `eighteen titles` finds it; the tables
    are stale when the hash of the sources as they are now differs from ``compiled_hash``
    (the one the tables were compiled from): a title edited since `eighteen compile`.
    Hashing reads and checks every file, so it is done only when some title file is newer
    than the tables (a stat of each is enough to know the usual case: nothing edited).
    No folder is not reported; one whose files have errors now is (the tables played
    are the ones compiled before them), and `validate` says what the errors are.
    ``compiled``: the folder's tables, when the argument named a folder (else both are
    found by id); the advice then names the folder, which `eighteen compile` writes them
    for.
    """
    target = title_id if folder is None else display_path(folder)
    folder = folder if folder is not None else find_title_dir(title_id)
    if folder is None:
        return None
    try:
        made = (compiled if compiled is not None else find_title(title_id)).stat().st_mtime
    except (TitleNotFound, OSError):
        return None
    # the title's folder, its base titles and tile libraries all sit under the same titles/
    if all(f.stat().st_mtime <= made for f in folder.parent.glob("*/*.toml")):
        return None
    sources, _, problems = load_sources(folder)
    errors = sum(p.is_error for p in problems)
    if errors:
        return (
            f"{display_path(folder)} has {errors} error(s) since its tables were compiled: "
            f"playing the tables of {title_id} compiled before ({short_hash(compiled_hash)}); "
            f"`eighteen validate {target}` shows them"
        )
    now = source_hash(sources)
    if now == compiled_hash:
        return None
    return (
        f"the compiled tables of {title_id} ({short_hash(compiled_hash)}) are older than "
        f"{display_path(folder)} ({short_hash(now)}): run `eighteen compile {target}` to "
        "play the title as it is now"
    )
