"""Every benchmark script explains itself: ``--help`` prints its usage and exits 0 without
running anything (a benchmark is a tool people run by hand; a traceback is not an answer)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
SCRIPTS = sorted(p.name for p in BENCH.glob("*.py"))


def test_every_script_is_listed() -> None:
    assert SCRIPTS == [
        "compile.py",
        "engine.py",
        "fuzz.py",
        "replay.py",
        "routes.py",
        "simulate.py",
        "soak.py",
        "takeover.py",
    ]


@pytest.mark.parametrize("script", SCRIPTS)
def test_help_prints_usage(script: str) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / script), "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith(f"usage: {script} [-h]")


def test_replay_by_type_is_measured_in_process_only() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "replay.py"), "--by-type", "--runs", "2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        "replay.py: error: --by-type measures in this process: not with --runs or --vs"
    )
