"""The page in a real browser: headless Chromium runs its script, with no console message.

CI installs Debian's chromium (.ci/run), so there a missing browser fails the test; on a
developer machine without it the test is skipped with the command to install it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from eighteen.engine.tables import Tables
from eighteen.render import game_snapshot, render_page

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
        line
        for line in proc.stderr.splitlines()
        if ":CONSOLE" in line or "Uncaught" in line or "ERROR:CONSOLE" in line
    ]
    return proc.stdout, console


def check_page(tmp: Path, html: str, name: str) -> str:
    """Load ``html`` in chromium: no console messages; return the DOM after scripts ran."""
    page = tmp / f"{name}.html"
    page.write_text(html, encoding="utf-8")
    dom, console = run_chromium(tmp, page.as_uri(), "--dump-dom")
    assert console == [], console
    assert 'data-ready="true"' in dom, "the page script did not finish"
    shot = tmp / f"{name}.png"
    _, console = run_chromium(tmp, page.as_uri(), f"--screenshot={shot}", "--window-size=1400,2200")
    assert console == [], console
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
    return dom


def hex_groups(dom: str) -> list[str]:
    """data-hex values of the map's <g class="hex"> elements in the dumped DOM."""
    return re.findall(r'<g class="hex(?: selected)?" data-hex="([A-Z]+\d+)"', dom)


def test_title_page_in_chromium(tmp_path: Path, c1830: dict[str, Any]) -> None:
    dom = check_page(tmp_path, render_page(c1830), "title")
    assert len(hex_groups(dom)) == 93 == len(c1830["hexes"])
    assert 'data-hex-count="93"' in dom  # counted by the page's own script
    assert len(re.findall(r'<div class="tile-card"', dom)) == 46


def test_game_page_in_chromium(
    tmp_path: Path, c1830: dict[str, Any], save1830: dict[str, Any]
) -> None:
    compiled, snap = game_snapshot(save1830, tables=Tables(c1830))
    dom = check_page(tmp_path, render_page(compiled, snap), "game")
    assert len(hex_groups(dom)) == 93
    assert len(re.findall(r'<g class="token"', dom)) == sum(
        len(city) for cities in snap.map.tokens.values() for city in cities
    )


def test_console_errors_are_caught(tmp_path: Path) -> None:
    """The console check is not vacuous: a page with a script error is reported."""
    page = tmp_path / "bad.html"
    page.write_text("<html><body><script>nothingHere();</script></body></html>")
    _, console = run_chromium(tmp_path, page.as_uri(), "--dump-dom")
    assert any("Uncaught ReferenceError" in line for line in console), console
