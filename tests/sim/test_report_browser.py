"""report.html in headless Chromium: the page script runs without a console message and
finds every plot drawn (an SVG of visible size with marks in it); the tables hold the
summary's figures.

CI installs Debian's chromium (.ci/run): there a missing browser fails the test.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from browser_support import run_chromium

from eighteen.sim.report import render_report


def test_report_plots_are_drawn(
    tmp_path: Path, small_run: tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]
) -> None:
    summary, records = small_run
    page = tmp_path / "report.html"
    page.write_text(render_report(summary, records), encoding="utf-8")
    dom, console = run_chromium(tmp_path, page.as_uri(), "--dump-dom")
    assert console == [], console
    assert 'data-ready="true"' in dom
    assert 'data-plots="5"' in dom
    assert 'data-plots-drawn="5"' in dom
    # the seat table shows each seat's bot and win rate as the summary has them
    seats = "".join(re.findall(r'<table class="seats">(.*?)</table>', dom, re.S))
    rows = re.findall(r"<tr><td>(\d)</td><td>([^<]+)</td><td>([^<]+)</td>", seats)
    first = summary["results"]["1830"]["seats"][0]
    assert rows[0][:2] == ("1", "greedy")
    assert rows[0][2].startswith(f"{100 * first['win_rate']['rate']:.1f}%")
    assert len(rows) == 8  # four seats of each title
    shot = tmp_path / "report.png"
    _, console = run_chromium(
        tmp_path, page.as_uri(), f"--screenshot={shot}", "--window-size=1200,1600"
    )
    assert console == [], console
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000


def test_a_blank_plot_is_not_counted(
    tmp_path: Path, small_run: tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]
) -> None:
    """The drawn-plot check is not vacuous: an empty SVG is not counted as drawn."""
    summary, records = small_run
    html = render_report(summary, records)
    first = html.index("<svg")
    end = html.index("</svg>", first) + len("</svg>")
    page = tmp_path / "blank.html"
    page.write_text(html[:first] + '<svg width="0" height="0"></svg>' + html[end:])
    dom, console = run_chromium(tmp_path, page.as_uri(), "--dump-dom")
    assert console == []
    assert 'data-plots="5"' in dom and 'data-plots-drawn="4"' in dom
