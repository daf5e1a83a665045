"""Overlay schemas: an editor using them (Taplo) shows no false errors on `eighteen new`
output, and still flags a real mistake."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from eighteen.commands.authoring import cmd_new
from eighteen.title.schema import overlay_documents, schema_documents

ROOT = Path(__file__).resolve().parents[2]
TAPLO = Path(sys.executable).parent / "taplo"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the project's titles and schemas (taplo follows the #:schema lines)."""
    for name in ("common", "1830"):
        shutil.copytree(ROOT / "titles" / name, tmp_path / "titles" / name)
    shutil.copytree(ROOT / "schema", tmp_path / "schema")
    return tmp_path


def taplo(*files: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(TAPLO), "check", "--no-auto-config", *map(str, files)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_no_required_keys_but_the_tags() -> None:
    docs = overlay_documents()
    assert "required" not in docs["trains"]
    assert "required" not in docs["trains"]["$defs"]["Train"]
    assert docs["trains"]["properties"]["remove"]["type"] == "object"
    assert schema_documents()["trains"]["required"] == ["trains"]


def test_taplo_is_clean_on_a_fresh_overlay_and_flags_a_typo(project: Path) -> None:
    assert cmd_new("fresh", "1830", str(project / "titles")) == 0
    files = sorted((project / "titles" / "fresh").glob("*.toml"))
    assert [f.name for f in files] == ["map.toml", "privates.toml", "title.toml", "trains.toml"]
    assert (
        files[3].read_text().splitlines()[0] == "#:schema ../../schema/overlay/trains.schema.json"
    )
    trains = files[3]
    trains.write_text(trains.read_text() + '[[trains]]\nid = "4"\nprice = 320\n')
    result = taplo(*files)
    assert result.returncode == 0, result.stderr
    trains.write_text(trains.read_text() + "prize = 10\n")
    result = taplo(trains)
    assert result.returncode == 1
    assert "Additional properties are not allowed ('prize' was unexpected)" in result.stderr


def test_the_plain_schema_would_flag_the_same_overlay(project: Path) -> None:
    assert cmd_new("fresh", "1830", str(project / "titles")) == 0
    trains = project / "titles" / "fresh" / "trains.toml"
    text = trains.read_text().replace("schema/overlay/", "schema/")
    trains.write_text(text + '[[trains]]\nid = "4"\nprice = 320\n')
    assert taplo(trains).returncode == 1
