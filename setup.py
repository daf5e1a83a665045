"""Build hook: a wheel carries the titles, their compiled tables and the schemas.

``titles/``, ``generated/`` and ``schema/`` stay at the top of the repository (authors and
CI work there); building copies them into the package as ``eighteen/_data/`` so that an
installed ``eighteen`` plays, validates and renders the shipped titles from any folder
(see src/eighteen/locations.py). Everything else is declared in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
DATA = ("titles", "generated", "schema")
SUFFIXES = {".toml", ".json", ".md"}


class BuildWithData(build_py):
    """build_py, then copy the data folders (TOML, JSON and Markdown files only)."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib) / "eighteen" / "_data"
        for name in DATA:
            for src in sorted((HERE / name).rglob("*")):
                if src.is_file() and src.suffix in SUFFIXES:
                    dest = target / src.relative_to(HERE)
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(src, dest)


setup(cmdclass={"build_py": BuildWithData})
