"""Headless Chromium for the browser tests (render pages and simulation reports).

CI installs Debian's chromium (.ci/run), so there a missing browser fails the test; on a
developer machine without it the test is skipped with the command to install it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
]


def chromium() -> str:
    """Path of the chromium binary (fails in CI, skips elsewhere, when there is none)."""
    path = shutil.which("chromium") or (
        "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
    )
    if path:
        return path
    message = "chromium is not installed (apt-get install -y chromium)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def run_chromium(tmp: Path, url: str, *extra: str) -> tuple[str, list[str]]:
    """Run headless chromium on ``url``: (stdout, console messages logged)."""
    profile = tmp / f"profile-{len(list(tmp.glob('profile-*')))}"
    proc = subprocess.run(
        [
            chromium(),
            *FLAGS,
            f"--user-data-dir={profile}",
            "--enable-logging=stderr",
            "--v=0",
            *extra,
            url,
        ],
        capture_output=True,
        text=True,
        timeout=180,
        stdin=subprocess.DEVNULL,
    )
    console = [
        line for line in proc.stderr.splitlines() if ":CONSOLE" in line or "Uncaught" in line
    ]
    return proc.stdout, console
