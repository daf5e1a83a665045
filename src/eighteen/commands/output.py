"""What every command shares: consoles, one-line errors, JSON reports and safe file writes.

Colour comes from rich and follows its rules: none when the stream is not a terminal or
when ``NO_COLOR`` is set. Errors are one line on standard error, ``eighteen CMD: error: ...``.
Files are written atomically (a temporary file beside the target, then a rename) with the
permissions a plain ``open()`` would give: an existing file keeps its mode, a new one gets
0666 less the umask; a symlink is followed (its target is replaced, the link kept); no
temporary file survives a failure.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

#: Exit codes (docs/cli.md): success, bad input (title, save, log, file), usage error.
OK, BAD_INPUT, USAGE = 0, 1, 2


#: Control characters (C0 but tab and newline, DEL, C1) and the bidirectional overrides:
#: a player name or title string must not move the cursor, recolour or reorder a terminal.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` without control characters (an ANSI escape from a player name is dropped)."""
    return _CONTROL.sub("", text)


def console(stderr: bool = False) -> Console:
    """A console on the current sys.stdout (or sys.stderr), looked up at call time."""
    return Console(
        file=sys.stderr if stderr else sys.stdout,
        highlight=False,
        soft_wrap=True,
        emoji=False,
        markup=False,
    )


def say(text: str | Text, *, stderr: bool = False, style: str | None = None) -> None:
    """Print one message (plain text, never parsed as markup; control characters dropped)."""
    console(stderr).print(printable(text) if isinstance(text, str) else text, style=style)


def fail(command: str, message: str, code: int = BAD_INPUT) -> int:
    """Print ``eighteen COMMAND: error: MESSAGE`` on one line of stderr; return ``code``."""
    line = Text(f"eighteen {command}: " if command else "eighteen: ")
    line.append("error", style="bold red")
    line.append(f": {printable(message)}")
    console(stderr=True).print(line)
    return code


def warn(command: str, message: str) -> None:
    """Print ``eighteen COMMAND: warning: MESSAGE`` on stderr."""
    line = Text(f"eighteen {command}: " if command else "eighteen: ")
    line.append("warning", style="bold yellow")
    line.append(f": {printable(message)}")
    console(stderr=True).print(line)


def emit_json(doc: Any) -> None:
    """Print a JSON report on standard output (what ``--format json`` prints)."""
    sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


class OutputError(OSError):
    """An output path that cannot be written: the message says why, naming the path."""


def check_file_target(path: str | Path) -> Path:
    """Check, before any long work, that a file can be written at ``path``.

    Raises OutputError when it is a folder, its folder is missing or not a folder, or the
    folder (or an existing file) is not writable.
    """
    target = Path(path)
    if str(path) == "":
        raise OutputError("an empty path names no file")
    if target.is_dir():
        raise OutputError(f"{path}: is a folder, not a file")
    if target.is_symlink():  # (a write replaces the file it points at, in its own folder)
        pointed = Path(os.path.realpath(path))
        if not pointed.parent.is_dir():
            raise OutputError(f"{path}: a link into {pointed.parent}, which is no folder")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.exists():
        raise OutputError(f"{path}: no such folder {parent}")
    if not parent.is_dir():
        raise OutputError(f"{path}: {parent} is not a folder")
    if target.exists() and not os.access(target, os.W_OK):
        raise OutputError(f"{path}: permission denied")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(f"{path}: cannot write in {parent} (permission denied)")
    return target


def check_dir_target(path: str | Path) -> Path:
    """Check that ``path`` is a folder or can be made one. Raises OutputError otherwise."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise OutputError(f"{path}: exists and is not a folder")
    existing = target
    while not existing.exists():
        if existing.parent == existing:
            break
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        raise OutputError(f"{path}: {existing} is not a folder")
    if existing.exists() and not os.access(existing, os.W_OK | os.X_OK):
        raise OutputError(f"{path}: cannot write in {existing} (permission denied)")
    return target


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: str | Path, text: str) -> Path:
    """Write ``text`` to ``path`` atomically, with normal permissions; raise OSError.

    The data goes to a temporary file in the same folder, which is then renamed over the
    target, so a crash leaves either the old file or the new one. The temporary file is
    removed on any failure. A symlink is followed: the file it points at is replaced (in
    its own folder, keeping its mode) and the link stays a link.
    """
    tmp, target = _stage(path, text)
    try:
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def _stage(path: str | Path, text: str) -> tuple[str, Path]:
    """``text`` written in full to a temporary file beside the file ``path`` names (a
    symlink followed), with the mode the target has (0666 less the umask when new):
    (the temporary file, the target it is to replace).  OSError, the temporary file
    removed, when it cannot be."""
    check_file_target(path)
    target = Path(os.path.realpath(path)) if Path(path).is_symlink() else Path(path)
    check_file_target(target)
    parent = target.parent if str(target.parent) else Path(".")
    mode = target.stat().st_mode & 0o7777 if target.exists() else 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp, target


def write_together(texts: dict[Path, str]) -> None:
    """Write several files as :func:`write_atomic` writes one, all or none.

    Each file is first written in full to a temporary file beside its target (a symlink
    is followed: the file it points at is replaced, in its own folder, and the link
    stays; an existing file keeps its mode, a new one gets 0666 less the umask); only
    when all are ready are they renamed over their targets. A failure removes every
    temporary file and puts back any target already replaced, and raises OutputError
    naming the file.
    """
    staged: list[tuple[Path, str, Path]] = []  # (as named, temporary file, target)
    # (target replaced, its old file kept aside: None when it had none)
    done: list[tuple[Path, Path | None]] = []
    kept: list[Path] = []  # every old file kept aside, removed at the end
    current = Path()
    try:
        for path, text in texts.items():
            current = path
            tmp, target = _stage(path, text)
            staged.append((path, tmp, target))
        for path, tmp, target in staged:
            current = path
            old = _keep(target) if target.exists() else None
            if old is not None:
                kept.append(old)
            os.replace(tmp, target)
            done.append((target, old))
    except BaseException as exc:
        for target, old in reversed(done):
            with contextlib.suppress(OSError):
                if old is not None:
                    os.replace(old, target)
                else:
                    target.unlink()
        if isinstance(exc, OutputError):
            raise
        if isinstance(exc, OSError):
            raise OutputError(f"{current}: {exc.strerror or exc}") from None
        raise
    finally:
        for _, tmp, _ in staged:
            Path(tmp).unlink(missing_ok=True)
        for old in kept:
            old.unlink(missing_ok=True)


def _keep(target: Path) -> Path:
    """``target``'s file kept aside, to put it back if a later file cannot be written: a
    hard link to it, or a copy where the file system makes none (OSError when neither can
    be made: raised before this target is replaced)."""
    for _ in range(10):
        old = target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.old")
        try:
            os.link(target, old)
        except FileExistsError:
            continue
        except OSError:
            shutil.copy2(target, old)  # (OSError: nothing replaced yet, or put back)
        return old
    raise OSError(f"cannot keep a copy of {target}")
