"""The HTML page of a title or a game: map, tile manifest, market, trains, phases, privates.

Rendered with Jinja2 (autoescape on) from ``templates/page.html.j2``.  The SVG pieces come
from :mod:`eighteen.render.svg`, already escaped by ElementTree, and are passed as markup.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from eighteen.compiled import CompiledMarket, CompiledTitle
from eighteen.render.shapes import HEX_FILL
from eighteen.render.svg import MapView, map_svg, tile_svg
from eighteen.render.view import GameSnapshot
from eighteen.title import geometry
from eighteen.title.markdown import distance_text, money, natural_key, train_phase_grid
from eighteen.title.model import Ability, Zone

#: Background of a market zone by its name (unknown names take the palette in turn).
ZONE_FILL = {
    "par": "#f28b82",
    "yellow": "#fff176",
    "orange": "#ffb74d",
    "brown": "#bc8a5f",
    "red": "#e57373",
    "green": "#aed581",
    "blue": "#90caf9",
    "gray": "#cfd8dc",
    "grey": "#cfd8dc",
    "purple": "#ce93d8",
}
PALETTE = ["#b3e5fc", "#c8e6c9", "#f8bbd0", "#d7ccc8", "#e1bee7", "#ffe0b2"]


_CSS_COLOR = re.compile(r"^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,30})$")


def css_color(value: Any) -> str:
    """``value`` when it is a plain CSS colour (#rgb... or a name), else a neutral gray."""
    text = str(value or "")
    return text if _CSS_COLOR.match(text) else "#888888"


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    """Jinja environment over templates/ beside this module, autoescape on."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["money"] = money
    env.filters["css_color"] = css_color
    return env


def zone_colors(market: CompiledMarket) -> dict[str, str]:
    """Zone letter -> background colour (par zones red, colour-named zones their colour)."""
    out: dict[str, str] = {}
    spare = iter(PALETTE * 4)
    for letter, zone in sorted(market.zones.items()):
        name = (zone.name or letter).lower()
        if zone.par:
            out[letter] = ZONE_FILL["par"]
        elif name in ZONE_FILL:
            out[letter] = ZONE_FILL[name]
        else:
            out[letter] = next(spare, "#eeeeee")
    return out


def _zone_meaning(zone: Zone) -> str:
    """What a zone does, in words."""
    flags = [
        (zone.par, "par price"),
        (zone.cert_limit_exempt, "no certificate limit"),
        (zone.holding_limit_exempt, "no holding limit"),
        (zone.multiple_buy, "buy several per turn"),
        (zone.closes, "corporation closes"),
        (zone.ends_game, "game ends"),
    ]
    return ", ".join(text for on, text in flags if on) or "normal"


def market_rows(
    market: CompiledMarket, snapshot: GameSnapshot | None = None
) -> list[list[dict[str, Any] | None]]:
    """Market cells for the template: price, zones, style, par, corporations there."""
    colors = zone_colors(market)
    here = snapshot.market_tokens if snapshot else {}
    rows: list[list[dict[str, Any] | None]] = []
    for r, row in enumerate(market.cells):
        out: list[dict[str, Any] | None] = []
        for c, cell in enumerate(row):
            if cell is None:
                out.append(None)
                continue
            fills = [colors[z] for z in cell.zones if z in colors and not market.zones[z].par]
            out.append(
                {
                    "row": r,
                    "col": c,
                    "price": cell.price,
                    "zones": " ".join(cell.zones),
                    "par": cell.par,
                    "fill": fills[0] if fills else "#ffffff",
                    "corps": here.get((r, c), []),
                }
            )
        rows.append(out)
    return rows


def _sorted_keys(value: Any) -> Any:
    """``value`` with the keys of every record in it sorted (as the compiled JSON has them)."""
    if isinstance(value, dict):
        return {k: _sorted_keys(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted_keys(v) for v in value]
    return value


def _words(value: Any) -> str:
    """A field's value in words: a record as its fields (``hex C4, tiles 3 4 58``), a list
    of records each in parentheses, a list of values spaced, a value as it is."""
    if isinstance(value, dict):
        parts = []
        for key, v in value.items():
            if v in (None, False, [], {}):
                continue
            name = key.replace("_", " ")
            parts.append(name if v is True else f"{name} {_words(v)}")
        return ", ".join(parts)
    if isinstance(value, list):
        if any(isinstance(v, dict | list) for v in value):
            return "; ".join(f"({_words(v)})" for v in value)
        return " ".join(str(v) for v in value)
    return str(value)


def describe_ability(ability: Ability) -> str:
    """A private's ability in words: its type, then its other fields (in name order)."""
    fields = _sorted_keys(ability.model_dump(mode="json", by_alias=True))
    fields.pop("type", None)
    kind = ability.type.replace("_", " ")
    said = _words(fields)
    return f"{kind}: {said}" if said else kind


def tile_cards(compiled: CompiledTitle) -> list[dict[str, Any]]:
    """Every manifest tile: its picture, count and the tiles/hexes it upgrades to and from."""
    tiles = compiled.tiles
    upgrades = compiled.upgrades
    sources: dict[str, list[str]] = {}
    for old, row in upgrades.items():
        for new in row:
            sources.setdefault(new, []).append(old)
    cards = []
    for tid in sorted(tiles, key=natural_key):
        rec = tiles[tid]
        cards.append(
            {
                "id": tid,
                "color": rec.color.value,
                "count": rec.count,
                "svg": Markup(tile_svg(compiled, tid)),
                "upgrades_to": sorted(upgrades.get(tid, {}), key=natural_key),
                "upgrades_from": sorted(sources.get(tid, []), key=natural_key),
                "orientations": list(rec.orientations),
            }
        )
    return cards


def preprinted_upgrades(compiled: CompiledTitle) -> list[dict[str, Any]]:
    """Preprinted hexes that take upgrades: hex, name, tiles with their rotations."""
    hexes = compiled.hexes
    out = []
    for hid in sorted((h for h in compiled.upgrades if h in hexes), key=geometry.parse_hex_id):
        row = compiled.upgrades[hid]
        out.append(
            {
                "hex": hid,
                "name": hexes[hid].name or "",
                "tiles": [
                    {"id": t, "rotations": " ".join(map(str, row[t]))}
                    for t in sorted(row, key=natural_key)
                ],
            }
        )
    return out


def train_rows(compiled: CompiledTitle) -> list[dict[str, Any]]:
    """The train table's rows, as plain values, with the distance in words."""
    return [
        {**t.model_dump(mode="json"), "distance_text": distance_text(t.distance)}
        for t in compiled.trains
    ]


def phase_rows(compiled: CompiledTitle) -> list[dict[str, Any]]:
    """The phase table's rows, as plain values."""
    return [p.model_dump(mode="json") for p in compiled.phases]


def private_rows(compiled: CompiledTitle) -> list[dict[str, Any]]:
    """The private table's rows, as plain values, with the abilities in words."""
    return [
        {**p.model_dump(mode="json"), "ability_texts": [describe_ability(a) for a in p.abilities]}
        for p in compiled.privates
    ]


_COLOR_RANK = {
    c: i for i, c in enumerate(["white", "yellow", "green", "brown", "gray", "red", "blue"])
}


def page_context(compiled: CompiledTitle, snapshot: GameSnapshot | None = None) -> dict[str, Any]:
    """Everything the template reads."""
    market = compiled.market
    colors = zone_colors(market)
    hexes = compiled.hexes
    view = snapshot.map if snapshot else MapView()
    tiles = compiled.tiles
    by_color: dict[str, int] = {}
    for hid, h in hexes.items():
        laid = view.tiles.get(hid)
        shown = tiles[laid[0]] if laid and laid[0] in tiles else h  # what the hex shows now
        color = shown.color.value
        by_color[color] = by_color.get(color, 0) + 1
    return {
        "c": compiled,
        "layout": compiled.layout.value,
        "market_type": market.type.value,
        "game": snapshot,
        "map_svg": Markup(map_svg(compiled, view)),
        "hex_count": len(hexes),
        "hex_colors": sorted(by_color.items(), key=lambda kv: _COLOR_RANK.get(kv[0], 9)),
        "bank_owed": max(0, -snapshot.bank) if snapshot else 0,
        "hex_fill": HEX_FILL,
        "tiles": tile_cards(compiled),
        "tile_total": sum(t.count or 0 for t in tiles.values()),
        "preprinted": preprinted_upgrades(compiled),
        "market_rows": market_rows(market, snapshot),
        "zones": [
            {
                "letter": letter,
                "name": zone.name or letter,
                "fill": colors[letter],
                "par": zone.par,  # (its swatch is drawn as a par cell is: outlined)
                "meaning": _zone_meaning(zone),
            }
            for letter, zone in sorted(market.zones.items())
        ],
        "par_prices": [
            cell.price for r, c in market.par if (cell := market.cells[r][c]) is not None
        ],
        "trains": train_rows(compiled),
        "train_grid": train_phase_grid(compiled.phases, compiled.trains),
        "phases": phase_rows(compiled),
        "privates": private_rows(compiled),
        "corporations": compiled.corporations,
        "player_counts": sorted(
            set(compiled.starting_cash) | set(compiled.certificate_limit), key=natural_key
        ),
    }


def render_page(compiled: CompiledTitle, snapshot: GameSnapshot | None = None) -> str:
    """The whole HTML page as a string."""
    return _env().get_template("page.html.j2").render(**page_context(compiled, snapshot))


def write_page(
    compiled: CompiledTitle, out_dir: Path, snapshot: GameSnapshot | None = None
) -> Path:
    """Write ``out_dir/index.html`` (creating the folder) and return its path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "index.html"
    path.write_text(render_page(compiled, snapshot), encoding="utf-8")
    return path
