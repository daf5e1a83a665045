"""generated/<id>.md escapes title strings: a name cannot break a table or inject HTML."""

from __future__ import annotations

import json
from pathlib import Path

from eighteen.title.markdown import markdown_escape, render_markdown

ROOT = Path(__file__).resolve().parents[2]


def test_hostile_corporation_name_is_escaped() -> None:
    compiled = json.loads((ROOT / "generated" / "1830.json").read_text())
    compiled["corporations"][0]["name"] = "<script>alert(1)</script> | `x`\nnext"
    md = render_markdown(compiled)
    assert "<script>" not in md
    row = next(line for line in md.splitlines() if "alert(1)" in line)
    corp = compiled["corporations"][0]
    assert row.startswith(
        f"| {corp['id']} | &lt;script&gt;alert(1)&lt;/script&gt; \\| \\`x\\` next | "
    )


def test_escape_is_idempotent() -> None:
    once = markdown_escape("a|b`c<d>\ne")
    assert once == "a\\|b\\`c&lt;d&gt; e"
    assert markdown_escape(once) == once
