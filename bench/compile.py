"""Time each stage of the title pipeline on 1830: median milliseconds over several runs.

Run: ``.venv/bin/python bench/compile.py [title-folder] [--runs N]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))


def fresh(title: Any) -> Any:
    """The title with its cached compiled tables dropped, so each run does the work."""
    title.compiled = None
    return title


def median_ms(fn: Callable[[], Any], runs: int) -> float:
    """Median wall time of ``fn`` in milliseconds (one untimed warm-up call first)."""
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _files(title_dir: Path) -> list[tuple[str, Path]]:
    """(kind, path) of every title file plus the common tile library."""
    from eighteen.title.model import FILE_MODELS

    out = [(kind, title_dir / f"{kind}.toml") for kind in FILE_MODELS]
    lib = title_dir.parent / "common" / "tiles.toml"
    if lib.is_file():
        out.append(("tiles", lib))
    return out


def stages(title_dir: Path) -> list[tuple[str, Callable[[], Any]]]:
    """Stage name -> a callable timing it alone (the title read once here, its parts
    kept for the stages that start from them)."""
    from eighteen.title.checks import run_checks
    from eighteen.title.compile import compile_title, to_json
    from eighteen.title.load import load_toml
    from eighteen.title.markdown import render_markdown
    from eighteen.title.model import FILE_MODELS
    from eighteen.title.pipeline import assemble, load_sources, load_title
    from eighteen.title.validation import validate_data

    files = _files(title_dir)
    loaded = [(kind, load_toml(path)) for kind, path in files]
    sources, models, _ = load_sources(title_dir)
    title = assemble(title_dir, sources, models)
    assert title is not None  # (main() refuses a title with errors before the stages)
    compiled = compile_title(title)
    generated = ROOT / "generated" / f"{compiled['id']}.json"
    if not generated.is_file():
        generated = Path(tempfile.mkdtemp()) / generated.name
        generated.write_text(to_json(compiled), encoding="utf-8")
    return [
        ("parse (load_toml)", lambda: [load_toml(p) for _, p in files]),
        ("schema", lambda: [validate_data(k, f) for k, f in loaded]),
        ("models", lambda: [FILE_MODELS[k].model_validate(f.data) for k, f in loaded]),
        ("checks", lambda: run_checks(fresh(title), sources)),
        ("load_title (all above)", lambda: load_title(title_dir)),
        ("compile", lambda: compile_title(fresh(title))),
        ("render markdown", lambda: render_markdown(compiled)),
        (f"load {generated.name}", lambda: json.loads(generated.read_bytes())),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("title", nargs="?", default=str(ROOT / "titles" / "1830"))
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args(argv)
    title_dir = Path(args.title)
    from eighteen.title.pipeline import load_title
    from eighteen.title.problems import sort_problems

    title, problems = load_title(title_dir)  # (what `eighteen validate` reports, in its order)
    if title is None:
        for p in sort_problems(problems):
            if p.is_error:
                print(f"compile.py: {p.format()}", file=sys.stderr)
        return 1
    rows = []
    for name, fn in stages(title_dir):
        rows.append((name, f"{median_ms(fn, args.runs):8.2f}"))
    width = max(len(n) for n, _ in rows)
    print(f"{title_dir.name}: median of {args.runs} runs")
    print(f"{'stage':<{width}}  {'ms':>8}")
    print(f"{'-' * width}  {'-' * 8}")
    for name, ms in rows:
        print(f"{name:<{width}}  {ms:>8}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
