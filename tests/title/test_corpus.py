"""The broken-title corpus: each case breaks one thing and expects exact codes and places.

A case folder under corpus/ holds files that replace the valid `base` title's files (and an
optional DELETE file naming files to remove). Its `expect` file lists, one per line,
`file:line:col CODE` for every problem validation must report - no more, no fewer.
titles/1830 sits beside `base`, so a case may make `base` an overlay of it (`extends`).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from eighteen.title.pipeline import load_title

HERE = Path(__file__).parent
CORPUS = HERE / "corpus"
ROOT = HERE.parent.parent
CASES = sorted(p.name for p in CORPUS.iterdir() if p.is_dir() and p.name != "base")


def build_case(case: str, tmp: Path) -> Path:
    """Copy base + the case's replacement files into tmp/titles/base; return that folder."""
    titles = tmp / "titles"
    shutil.copytree(ROOT / "titles" / "common", titles / "common")
    shutil.copytree(ROOT / "titles" / "1830", titles / "1830")  # a base for overlay cases
    target = titles / "base"
    shutil.copytree(CORPUS / "base", target)
    src = CORPUS / case
    for f in src.iterdir():
        if f.name == "DELETE":
            for name in f.read_text().split():
                (target / name).unlink()
        elif f.name != "expect":
            shutil.copyfile(f, target / f.name)
    return target


def found(case: str, tmp: Path) -> list[str]:
    target = build_case(case, tmp)
    _, problems = load_title(target)
    return sorted(f"{Path(p.file).name}:{p.line}:{p.col} {p.code}" for p in problems)


def expected(case: str) -> list[str]:
    lines = (CORPUS / case / "expect").read_text().splitlines()
    return sorted(x.strip() for x in lines if x.strip() and not x.startswith("#"))


def test_base_is_clean(tmp_path: Path) -> None:
    titles = tmp_path / "titles"
    shutil.copytree(ROOT / "titles" / "common", titles / "common")
    shutil.copytree(CORPUS / "base", titles / "base")
    title, problems = load_title(titles / "base")
    assert [p.format() for p in problems] == []
    assert title is not None and title.id == "base"


@pytest.mark.parametrize("case", CASES)
def test_case(case: str, tmp_path: Path) -> None:
    assert found(case, tmp_path) == expected(case)


def test_case_names_its_code() -> None:
    """Each case folder is named after the code it triggers, and its expect lists that code."""
    for case in CASES:
        code = case.split("_")[0]
        assert code in (CORPUS / case / "expect").read_text(), case


def test_every_documented_code_has_a_case() -> None:
    documented = set(
        re.findall(r"^\| ([EW]\d{3}) \|", (ROOT / "docs" / "checks.md").read_text(), re.M)
    )
    covered = {c.split("_")[0] for c in CASES}
    # E999 (a crashing check) and E198 (a value no implementation registers) cannot come
    # from a title of this version; tests/test_capabilities.py provokes E198
    untested = documented - covered - {"E999", "E198"}
    assert sorted(untested) == []


def test_corpus_size() -> None:
    assert len(CASES) >= 30
