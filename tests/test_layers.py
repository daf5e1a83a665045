"""The house has layers with no arrow back up (docs/design.md, "Layers").

At the bottom the compiled format and the game state (the board's position among it); above
them the track layer (faces, graph, reach, board, routes, route finder), which imports no
mechanic; then the mechanics, which see a game only through engine/context.py; then the
rounds; at the top the Game facade, which the CLI, io, render, sim and bots use.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "src/eighteen/engine"
TRACK = {
    "face",
    "reach",
    "graph",
    "map",
    "routes",
    "route_check",
    "route_reading",
    "routefinder",
    "route_network",
    "route_search",
    "extensions",
}
#: Modules allowed in the track layer's imports (besides each other).
BELOW_TRACK = {"capabilities", "tables", "state", "position", "actions", "collector"}
#: Function-local imports still holding a cycle apart (module, imported module): none are
#: left; an import inside a function is a sign a module is in the wrong place.
LOCAL_IMPORTS: set[tuple[str, str]] = set()


def _imports(path: Path) -> tuple[set[str], set[str]]:
    """(modules imported at the top or for typing, modules imported inside functions)."""
    tree = ast.parse(path.read_text())
    top: set[str] = set()
    local: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = {f"{node.module}.{a.name}" for a in node.names} | {node.module}
        elif isinstance(node, ast.Import):
            names = {a.name for a in node.names}
        else:
            continue
        if node.col_offset == 0 or _in_type_checking(tree, node):
            top.update(names)
        elif isinstance(node, ast.ImportFrom) and node.module == "eighteen.engine":
            local.update(f"eighteen.engine.{a.name}" for a in node.names)  # inside a function
        elif isinstance(node, ast.ImportFrom):
            local.add(str(node.module))
    return top, local


def _in_type_checking(tree: ast.Module, node: ast.AST) -> bool:
    for stmt in tree.body:
        if (
            isinstance(stmt, ast.If)
            and "TYPE_CHECKING" in ast.unparse(stmt.test)
            and any(n is node for n in ast.walk(stmt))
        ):
            return True
    return False


def _engine_module(name: str) -> str | None:
    prefix = "eighteen.engine."
    if not name.startswith(prefix):
        return None
    return name[len(prefix) :].split(".")[0]


MODULES = sorted(p for p in ENGINE.rglob("*.py") if p.name != "__init__.py")


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_only_the_top_layer_imports_the_game_facade(path: Path) -> None:
    top, local = _imports(path)
    if path.stem in {"game", "bots", "views"}:
        return
    assert {n for n in top | local if n.startswith("eighteen.engine.game")} == set()


@pytest.mark.parametrize("stem", sorted(TRACK))
def test_the_track_layer_imports_no_mechanic(stem: str) -> None:
    top, local = _imports(ENGINE / f"{stem}.py")
    used = {m for m in map(_engine_module, top | local) if m}
    assert used - TRACK - BELOW_TRACK == set()


def test_function_local_imports_are_only_the_known_ones() -> None:
    found = set()
    for path in MODULES:
        _, local = _imports(path)
        for name in local:
            if name.startswith("eighteen.") and not name.count(".") > 2:
                found.add((path.stem, name))
    assert {
        (m, n)
        for m, n in found
        if (m, n.rsplit(".", 1)[0]) not in LOCAL_IMPORTS and (m, n) not in LOCAL_IMPORTS
    } == set()


SRC = ROOT / "src/eighteen"
#: The title side: everything before generated/ (and the three modules it shares with the
#: engine and the CLI), and the compiled engine's finder, builder and training run (the
#: training run, which plays the engine, is a module of its own, run in a process of its
#: own, so the builder needs no import inside a function). The CLI's commands,
#: render and sim import lazily on purpose (a command loads only what it runs; matplotlib
#: and Ray are optional), so they are not held to this.
TITLE_SIDE = sorted(
    [
        *(SRC / "title").rglob("*.py"),
        SRC / "locations.py",
        SRC / "capabilities.py",
        SRC / "compiled.py",
        SRC / "native.py",
        SRC / "native_build.py",
        SRC / "native_training.py",
    ]
)


def _imports_in_functions(path: Path) -> list[str]:
    """Every import made inside a function, as ``line: module``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom):
                    found.append(f"{inner.lineno}: {inner.module}")
                elif isinstance(inner, ast.Import):
                    found.append(f"{inner.lineno}: {inner.names[0].name}")
    return found


@pytest.mark.parametrize("path", TITLE_SIDE, ids=lambda p: str(p.relative_to(SRC)))
def test_the_title_side_imports_nothing_inside_a_function(path: Path) -> None:
    """The pipeline, the overlay, the checks and the compiler import at the top: a title's
    files are read through title/sources.py, which both the pipeline and the overlay take
    from, so no import inside a function holds a cycle apart."""
    assert _imports_in_functions(path) == []
