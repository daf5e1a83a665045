"""The REPL walk-through in docs/engine.md runs as written."""

from __future__ import annotations

import doctest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_engine_walkthrough_runs() -> None:
    text = (ROOT / "docs" / "engine.md").read_text()
    blocks = text.split("```pycon\n")[1:]
    source = "\n".join(b.split("```")[0] for b in blocks)
    parser = doctest.DocTestParser()
    test = parser.get_doctest(source, {}, "engine.md", "docs/engine.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0
    assert runner.tries >= 10
