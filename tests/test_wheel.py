"""The wheel: built from the sources, installed in a fresh venv, it plays, validates and
renders the shipped titles from an empty folder (docs/cli.md, "Where titles are found").

No network: the wheel is built without build isolation and installed with --no-deps; the
fresh venv reaches the dependencies through a .pth line naming the dev venv's
site-packages (after its own, so the installed wheel is what is imported).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TREE = ("src", "titles", "generated", "schema", "pyproject.toml", "setup.py", "MANIFEST.in")


def sh(*argv: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    return subprocess.run(
        [str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel of the current sources installed; its bin/ folder."""
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    for name in TREE:
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
            )
        else:
            shutil.copy2(ROOT / name, src / name)
    shutil.copy2(ROOT / "README.md", src / "README.md")
    built = sh(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
               "-q", "-w", base / "dist", src)  # fmt: skip
    assert built.returncode == 0, built.stderr
    (wheel,) = (base / "dist").glob("eighteen-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "eighteen/_data/generated/1830.json" in names
    assert "eighteen/_data/titles/common/tiles.toml" in names
    assert "eighteen/_data/schema/overlay/trains.schema.json" in names
    made = sh(sys.executable, "-m", "venv", "--without-pip", base / "venv")
    assert made.returncode == 0, made.stderr
    python = base / "venv" / "bin" / "python"
    purelib = sh(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])")
    deps = sysconfig.get_paths()["purelib"]
    Path(purelib.stdout.strip(), "dev-dependencies.pth").write_text(deps + "\n")
    installed = sh(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps",
                   "--no-index", "-q", wheel)  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    return base / "venv" / "bin"


def test_installed_wheel_plays_validates_and_renders_anywhere(venv: Path, tmp_path: Path) -> None:
    where = sh(venv / "python", "-c", "import eighteen; print(eighteen.__file__)")
    assert where.stdout.startswith(str(venv.parent)), where.stdout
    eighteen = venv / "eighteen"

    played = sh(eighteen, "play", "1830", "--players", "3", "--seed", "2", "--save", "g.json",
                "--quiet", cwd=tmp_path)  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert played.stdout.splitlines()[1] == "result (bank broken):"
    assert json.loads((tmp_path / "g.json").read_text())["title"] == "1830"

    checked = sh(eighteen, "validate", "1830", "1833ne", cwd=tmp_path)
    assert (checked.returncode, checked.stdout) == (0, "")
    assert checked.stderr == "validated 1830, 1833ne: 0 error(s), 0 warning(s)\n"
    nothing = sh(eighteen, "validate", cwd=tmp_path)
    assert nothing.returncode == 2
    assert nothing.stderr.startswith("eighteen validate: error: no titles to work on")

    rendered = sh(eighteen, "render", "g.json", "--out", "pic", "--at", "100", cwd=tmp_path)
    assert (rendered.returncode, rendered.stdout) == (0, f"{tmp_path / 'pic' / 'index.html'}\n")
    assert "<svg" in (tmp_path / "pic" / "index.html").read_text()

    listing = json.loads(sh(eighteen, "titles", "--format", "json", cwd=tmp_path).stdout)
    found = {t["id"]: t["found"] for t in listing["titles"]}
    assert found == {
        "1830": "installed",
        "1830-example": "installed",
        "1833ne": "installed",
        "1833ne-takeover": "installed",
    }


def test_any_title_folder_validates_with_the_installed_library(venv: Path, tmp_path: Path) -> None:
    own = tmp_path / "mine" / "1830"
    shutil.copytree(ROOT / "titles" / "1830", own)  # no common/ beside it
    checked = sh(venv / "eighteen", "validate", own, cwd=tmp_path)
    assert (checked.returncode, checked.stdout) == (0, "")
    made = sh(venv / "eighteen", "new", "fresh", "--from", "1833ne", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    first = (tmp_path / "titles" / "fresh" / "trains.toml").read_text().splitlines()[0]
    assert first.endswith("/eighteen/_data/schema/overlay/trains.schema.json")
    assert Path(tmp_path / "titles" / "fresh", first.split(" ", 1)[1]).resolve().is_file()
    compiled = sh(venv / "eighteen", "compile", "fresh", cwd=tmp_path)
    assert compiled.returncode == 0, compiled.stderr
    assert json.loads((tmp_path / "generated" / "fresh.json").read_text())["id"] == "fresh"
