"""The compiled format is a typed contract: generated/*.json, schema/compiled.schema.json and
docs/compiled-format.md all follow the models of eighteen.compiled."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from pydantic import BaseModel

from eighteen.compiled import (
    CompiledCorporation,
    CompiledHex,
    CompiledMarket,
    CompiledTile,
    CompiledTitle,
    CompiledTrain,
    MarketCellRecord,
)

ROOT = Path(__file__).resolve().parents[2]
TITLES = sorted(p.stem for p in (ROOT / "generated").glob("*.json"))


@pytest.mark.parametrize("title", TITLES)
def test_generated_tables_follow_the_schema_file(title: str) -> None:
    schema = json.loads((ROOT / "schema/compiled.schema.json").read_text())
    doc = json.loads((ROOT / "generated" / f"{title}.json").read_text())
    errors = [e.message for e in Draft202012Validator(schema).iter_errors(doc)]
    assert errors == []


@pytest.mark.parametrize("title", TITLES)
def test_generated_tables_are_the_model_written_out(title: str) -> None:
    """Every field is written, defaults and absent sections included (null)."""
    doc = json.loads((ROOT / "generated" / f"{title}.json").read_text())
    assert CompiledTitle.model_validate(doc).model_dump(mode="json", by_alias=True) == doc


def test_a_field_the_format_does_not_know_is_refused() -> None:
    schema = json.loads((ROOT / "schema/compiled.schema.json").read_text())
    doc = json.loads((ROOT / "generated/1833ne.json").read_text())
    doc["rules"]["dividend_move"] = {"kind": "by_ratio"}  # by_ratio without its steps
    doc["trains"][0]["speed"] = 3
    errors = sorted(
        "/".join(str(p) for p in e.absolute_path)
        for e in Draft202012Validator(schema).iter_errors(doc)
    )
    assert errors == ["rules/dividend_move", "trains/0"]


@pytest.mark.parametrize(
    "model",
    [
        CompiledTitle,
        CompiledHex,
        CompiledTile,
        CompiledTrain,
        CompiledCorporation,
        CompiledMarket,
        MarketCellRecord,
    ],
)
def test_the_document_describes_every_field(model: type[BaseModel]) -> None:
    text = (ROOT / "docs/compiled-format.md").read_text()
    undocumented = [f for f in model.model_fields if not re.search(rf'"{f}"|`{f}`', text)]
    assert undocumented == []
