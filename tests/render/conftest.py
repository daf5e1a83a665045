"""Shared fixtures of the render tests: the compiled 1830 and 1833NE titles (as the JSON
document and as the typed models the renderer reads) and a short played game."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from eighteen.compiled import CompiledTitle
from eighteen.engine.tables import typed_document

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def c1830() -> dict[str, Any]:
    """1830 compiled in memory from titles/1830 (the current sources)."""
    from eighteen.title.compile import compile_title
    from eighteen.title.pipeline import load_title

    title, problems = load_title(ROOT / "titles" / "1830")
    assert title is not None, problems
    return compile_title(title)


@pytest.fixture(scope="session")
def c1833ne() -> dict[str, Any]:
    """1833NE compiled in memory from titles/1833ne (the current sources)."""
    from eighteen.title.compile import compile_title
    from eighteen.title.pipeline import load_title

    title, problems = load_title(ROOT / "titles" / "1833ne")
    assert title is not None, problems
    return compile_title(title)


@pytest.fixture(scope="session")
def doc1830(c1830: dict[str, Any]) -> CompiledTitle:
    """1830's compiled document as the typed models (what the renderer reads)."""
    return typed_document(c1830)


@pytest.fixture(scope="session")
def doc1833ne(c1833ne: dict[str, Any]) -> CompiledTitle:
    """1833NE's compiled document as the typed models."""
    return typed_document(c1833ne)


@pytest.fixture(scope="session")
def save1830(c1830: dict[str, Any]) -> dict[str, Any]:
    """A save of 1830 played by seeded random legal moves (engine tables from c1830)."""
    from eighteen.engine.bots import pointless
    from eighteen.engine.game import Game
    from eighteen.engine.tables import Tables

    game = Game(Tables(c1830), ["Ann", "Bob", "Cy", "Di"], seed=5)
    rng = random.Random(11)
    for _ in range(400):
        if game.is_over:
            break
        actions = [a for a in game.legal_actions() if not pointless(game, a)]
        if not actions:
            break
        game.apply(rng.choice(actions))
    return game.to_json()
