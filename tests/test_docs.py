"""The REPL walk-throughs in docs/engine.md and docs/import-18xx.md run as written."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_pycon(name: str) -> doctest.DocTestRunner:
    """Run every ```pycon block of docs/<name>, in order, as one doctest."""
    text = (ROOT / "docs" / name).read_text()
    blocks = text.split("```pycon\n")[1:]
    source = "\n".join(b.split("```")[0] for b in blocks)
    parser = doctest.DocTestParser()
    test = parser.get_doctest(source, {}, name, f"docs/{name}", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    return runner


def test_engine_walkthrough_runs() -> None:
    runner = run_pycon("engine.md")
    assert runner.failures == 0
    assert runner.tries >= 10


def test_import_18xx_python_api_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/import-18xx.md, Python API: import_game, ImportResult, export_game (paths from
    the checkout)."""
    monkeypatch.chdir(ROOT)
    runner = run_pycon("import-18xx.md")
    assert runner.failures == 0
    assert runner.tries >= 10
