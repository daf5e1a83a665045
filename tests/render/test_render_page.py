"""The HTML page: sections and counts, escaping of title strings, saves at N actions, the command."""

from __future__ import annotations

import copy
import dataclasses
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from eighteen.commands.render import cmd_render
from eighteen.compiled import CompiledTitle
from eighteen.engine.actions import LayTile, action_from_json
from eighteen.engine.game import Game
from eighteen.engine.tables import Tables, typed_document
from eighteen.render import game_snapshot, render_page, render_save, render_title
from eighteen.render.page import describe_ability
from eighteen.render.view import snapshot_of

NASTY = "A<b>&\"c'"


class Collect(HTMLParser):
    """Tags with their attributes, and all text, of an HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def collect(html: str) -> Collect:
    c = Collect()
    c.feed(html)
    c.close()
    return c


def with_class(page: Collect, tag: str, klass: str) -> list[dict[str, str | None]]:
    return [a for t, a in page.tags if t == tag and klass in (a.get("class") or "").split()]


def value(attrs: dict[str, str | None], name: str) -> str:
    """The value of the HTML attribute ``name`` (it must be there, with a value)."""
    v = attrs[name]
    assert v is not None, name
    return v


def attr(el: ET.Element, name: str) -> str:
    """The attribute ``name`` of an SVG element (it must have it)."""
    v = el.get(name)
    assert v is not None, (el.tag, name)
    return v


def map_svg_of(html: str) -> ET.Element:
    """The page's map SVG, parsed as XML."""
    m = re.search(r'<svg [^>]*class="map".*?</svg>', html, re.S)
    assert m, "no map svg"
    return ET.fromstring(m.group(0))


@pytest.fixture(scope="module")
def title_page(doc1830: CompiledTitle) -> str:
    return render_page(doc1830)


def test_title_page_sections_and_counts(title_page: str, c1830: dict[str, Any]) -> None:
    page = collect(title_page)
    assert len([a for t, a in page.tags if t == "svg" and a.get("class") == "map"]) == 1
    assert len(with_class(page, "g", "hex")) == 93
    cards = [a for t, a in page.tags if t == "div" and a.get("class") == "tile-card"]
    assert len(cards) == len(c1830["tiles"]) == 46
    card = {a["data-tile"]: a for a in cards}
    assert card["57"]["data-count"] == "4"
    assert card["57"]["data-upgrades"] == "14 15"
    assert card["9"]["data-upgrades"] == "18 19 20 23 24 26 27"
    assert len(with_class(page, "g", "tile")) == 46
    cells = with_class(page, "td", "cell")
    assert len(cells) == sum(1 for row in c1830["market"]["cells"] for c in row if c)
    par = with_class(page, "td", "par")
    assert sorted(int(value(a, "data-price")) for a in par) == [67, 71, 76, 82, 90, 100]
    assert {a["data-col"] for a in par} == {"6"}
    top_left = [a for a in cells if a["data-row"] == "0" and a["data-col"] == "0"][0]
    assert (top_left["data-price"], top_left["data-zones"]) == ("60", "y")
    assert [a["data-train"] for t, a in page.tags if t == "tr" and "data-train" in a][:6] == [
        "2",
        "3",
        "4",
        "5",
        "6",
        "D",
    ]
    assert len([a for t, a in page.tags if t == "tr" and "data-phase" in a]) == 6
    assert len([a for t, a in page.tags if t == "tr" and "data-private" in a]) == 6
    assert "block hexes: hexes G15" in title_page
    assert "<script>" in title_page and title_page.count("<script") == 1


def test_map_svg_in_page_is_xml(title_page: str) -> None:
    root = map_svg_of(title_page)
    hexes = [el for el in root.iter() if el.get("class") == "hex"]
    assert len(hexes) == 93


def test_title_strings_are_escaped(c1830: dict[str, Any]) -> None:
    c = copy.deepcopy(c1830)
    c["name"] = NASTY
    c["designers"] = [NASTY]
    c["hexes"]["E19"]["name"] = f"<script>alert(1)</script>{NASTY}"
    c["privates"][0]["name"] = NASTY
    c["corporations"][0]["name"] = NASTY
    doc = typed_document(c)
    # a colour the compiled format refuses, slipped past it: the page still never uses it
    corp = doc.corporations[0].model_copy(update={"color": 'red"><script>alert(2)</script>'})
    html = render_page(doc.model_copy(update={"corporations": [corp, *doc.corporations[1:]]}))
    assert "<b>" not in html and "<script>alert" not in html
    assert html.count("<script") == 1
    assert "A&lt;b&gt;&amp;" in html
    page = collect(html)
    text = "".join(page.text)
    assert f"{NASTY} (1830" in text  # the <h1>, unescaped by the parser back to the raw name
    assert text.count(NASTY) >= 4
    # the SVG parses, and the hex's title holds the raw name as text
    root = map_svg_of(html)
    e19 = [el for el in root.iter() if el.get("data-hex") == "E19"][0]
    titles = [el.text for el in e19.iter() if el.tag.endswith("title")]
    assert f"E19 <script>alert(1)</script>{NASTY}" in titles
    # a corporation colour that is no colour never reaches a style attribute
    assert 'red"><script>' not in html
    for _, attrs in page.tags:
        assert "script" not in (attrs.get("style") or "")


def test_render_title_writes_index(tmp_path: Path, doc1830: CompiledTitle) -> None:
    path = render_title(doc1830, tmp_path / "site")
    assert path == tmp_path / "site" / "index.html"
    assert path.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_save_at_the_end(save1830: dict[str, Any], c1830: dict[str, Any]) -> None:
    tables = Tables(c1830)
    game = Game.from_json(save1830, tables)
    compiled, snap = game_snapshot(save1830, tables=tables)
    assert snap.actions == snap.total_actions == len(save1830["actions"])
    html = render_page(compiled, snap)
    root = map_svg_of(html)
    laid = {
        el.get("data-hex"): (el.get("data-tile"), int(attr(el, "data-rotation")))
        for el in root.iter()
        if el.get("class") == "hex" and el.get("data-tile")
    }
    assert laid == {h: (t, r) for h, (t, r) in game.state.map.tiles.items()}
    assert laid, "the seeded game should have laid tiles"
    tokens = sorted(
        (hx.get("data-hex"), tok.get("data-corp"))
        for hx in root.iter()
        if hx.get("class") == "hex"
        for tok in hx.iter()
        if tok.get("class") == "token"
    )
    want = sorted(
        (h, corp) for h, cities in game.state.map.tokens.items() for city in cities for corp in city
    )
    assert tokens == want and tokens
    page = collect(html)
    priced = sorted(value(a, "data-corp") for a in with_class(page, "span", "price-token"))
    started = sorted(cid for cid, cs in game.state.corporations.items() if cs.cell is not None)
    assert priced == started and priced
    players = {a["data-player"] for t, a in page.tags if t == "tr" and "data-player" in a}
    assert players == {"Ann", "Bob", "Cy", "Di"}
    for p in game.state.players:
        assert f"${p.cash:,}" in html
    status = [a for t, a in page.tags if a.get("id") == "game-status"][0]
    assert status["data-actions"] == str(len(save1830["actions"]))


def test_save_at_n_actions(save1830: dict[str, Any], c1830: dict[str, Any]) -> None:
    tables = Tables(c1830)
    _, start = game_snapshot(save1830, at=0, tables=tables)
    assert start.map.tiles == {} and start.actions == 0
    assert all(c.cell is None for c in start.corporations)
    # find the first tile lay and render just before and just after it
    lay = next(i for i, a in enumerate(save1830["actions"]) if a["type"] == "lay_tile")
    _, before = game_snapshot(save1830, at=lay, tables=tables)
    _, after = game_snapshot(save1830, at=lay + 1, tables=tables)
    assert len(after.map.tiles) == len(before.map.tiles) + 1
    action = action_from_json(save1830["actions"][lay])
    assert isinstance(action, LayTile)
    hx = action.hex
    html = render_page(tables.doc, after)
    root = map_svg_of(html)
    g = [el for el in root.iter() if el.get("data-hex") == hx][0]
    assert (g.get("data-tile"), int(attr(g, "data-rotation"))) == after.map.tiles[hx]
    with pytest.raises(ValueError):
        game_snapshot(save1830, at=len(save1830["actions"]) + 1, tables=tables)


def test_render_save_writes_page(
    tmp_path: Path, save1830: dict[str, Any], c1830: dict[str, Any]
) -> None:
    path = render_save(save1830, tmp_path, at=10, tables=Tables(c1830))
    html = path.read_text(encoding="utf-8")
    assert "Game after 10 of" in html


def test_cmd_render_title_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cmd_render("1830", str(tmp_path / "t")) == 0
    out = capsys.readouterr().out.strip()
    assert out == str(tmp_path / "t" / "index.html")
    assert Path(out).is_file()
    assert cmd_render("no-such-title", str(tmp_path / "x")) == 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"hello": 1}))
    assert cmd_render(str(bad), str(tmp_path / "x")) == 1
    assert cmd_render("1830", str(tmp_path / "x"), at=3) == 2
    assert not (tmp_path / "x").exists()


def test_cmd_render_save(
    tmp_path: Path, save1830: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    generated = Path(__file__).resolve().parents[2] / "generated" / "1830.json"
    if not generated.is_file():
        pytest.fail("generated/1830.json is missing: run `eighteen compile`")
    save = tmp_path / "game.json"
    save.write_text(json.dumps(save1830))
    assert cmd_render(str(save), str(tmp_path / "g"), at=5) == 0
    path = Path(capsys.readouterr().out.strip())
    assert "Game after 5 of" in path.read_text(encoding="utf-8")
    assert cmd_render(str(save), str(tmp_path / "g"), at=10**6) == 1
    assert "outside" in capsys.readouterr().err


def test_cli_render_subcommand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from eighteen.cli import main

    assert main(["render", "1830", "--out", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == str((tmp_path / "index.html").resolve())
    assert main(["render", "1830"]) == 2  # --out is required


def test_game_page_leads_with_the_map_and_counts_what_is_laid(
    save1830: dict[str, Any], c1830: dict[str, Any]
) -> None:
    compiled, snap = game_snapshot(save1830, tables=Tables(c1830))
    page = render_page(compiled, snap)
    assert page.index('<section id="map">') < page.index('<section id="game">')
    legend = page[page.index('<p class="meta legend">') :]
    legend = legend[: legend.index("</p>")]
    shown = dict((color, int(n)) for n, color in re.findall(r"</span> (\d+) ([a-z]+)", legend))
    printed: dict[str, int] = {}
    for hid, h in c1830["hexes"].items():
        laid = snap.map.tiles.get(hid)
        color = c1830["tiles"][laid[0]]["color"] if laid else h.get("color") or "white"
        printed[color] = printed.get(color, 0) + 1
    assert shown == printed and sum(shown.values()) == 93
    assert shown["white"] == 67 - sum(
        1 for h in snap.map.tiles if c1830["hexes"][h]["color"] == "white"
    )
    assert "as they are now" in legend


def test_a_broken_bank_shows_what_is_owed(save1830: dict[str, Any], c1830: dict[str, Any]) -> None:
    compiled, snap = game_snapshot(save1830, tables=Tables(c1830))
    page = render_page(compiled, dataclasses.replace(snap, bank=-3259))
    assert 'data-owed="3259">bank broken: $3,259 owed beyond it</span>' in page
    assert "$-3,259" not in page and "-$3,259" not in page
    assert "bank broken" not in render_page(compiled, dataclasses.replace(snap, bank=10))


def test_a_game_page_counts_the_tiles_left_and_names_train_types(
    save1830: dict[str, Any], c1830: dict[str, Any]
) -> None:
    """A game page's tile cards say how many of each tile are left (the manifest's count
    less the tiles on the map; it showed the manifest's count whatever was laid), and the
    corporations' trains by type (not the copy ids "3-4")."""
    tables = Tables(c1830)
    game = Game.from_json(save1830, tables)
    compiled, snap = game_snapshot(save1830, tables=tables)
    html = render_page(compiled, snap)
    cards = dict(
        re.findall(
            r'<div class="tile-card" data-tile="([^"]+)".*?<span class="count">([^<]*)<', html, re.S
        )
    )
    laid: dict[str, int] = {}
    for tile, _ in game.state.map.tiles.values():
        laid[tile] = laid.get(tile, 0) + 1
    assert laid, "the seeded game should have laid tiles"
    for tid, tile in c1830["tiles"].items():
        n = tile.get("count")
        want = "×∞" if n is None else f"{n - laid.get(tid, 0)} of {n} left"
        assert cards[tid] == want, tid
    assert cards["7"] == f"{4 - laid.get('7', 0)} of 4 left"
    with_trains = [c for c in snap.corporations if c.trains]
    assert with_trains
    for c in with_trains:
        owned = game.state.corporations[c.id].trains
        assert c.trains == [t.split("-")[0] for t in owned]
    title_cards = dict(
        re.findall(
            r'<div class="tile-card" data-tile="([^"]+)".*?<span class="count">([^<]*)<',
            render_page(compiled),
            re.S,
        )
    )
    assert title_cards["7"] == "×4"


def test_a_closed_corporation_is_said_closed(
    save1830: dict[str, Any], c1830: dict[str, Any]
) -> None:
    """A closed corporation's row says so, with no token count (its tokens left the map)."""
    tables = Tables(c1830)
    game = Game.from_json(save1830, tables)
    game.state.corporations["PRR"].closed = True
    n = len(save1830["actions"])
    snap = snapshot_of(tables.doc, game.state, actions=n, total_actions=n)
    assert next(c for c in snap.corporations if c.id == "PRR").closed
    html = render_page(tables.doc, snap)
    prr = re.search(r'<tr data-corp="PRR".*?</tr>', html, re.S)
    assert prr is not None
    assert "<strong>(closed)</strong>" in prr.group(0)
    assert re.search(r'<td class="num">—</td>\s*<td class="num">\d+%</td>', prr.group(0))
    assert "(closed)" not in re.search(r'<tr data-corp="NYC".*?</tr>', html, re.S).group(0)  # type: ignore[union-attr]


def test_render_refuses_a_save_of_other_tables_unless_forced(
    tmp_path: Path, save1830: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/variants.md, Saves and title versions: `render` refuses a save made with
    other tables of its title, as `replay` does (it rendered it silently); `--force`
    renders it with the message as a warning. An empty --out is refused (it wrote
    ./index.html)."""
    data = {**save1830, "version": "0.1.0"}
    save = tmp_path / "old.json"
    save.write_text(json.dumps(data))
    out = tmp_path / "o"
    assert cmd_render(str(save), str(out)) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"eighteen render: error: {save}: save made with 1830 0.1.0 (sha256:")
    assert "but the title is now 1830 1.5.0 (sha256:" in err and err.count("\n") == 1
    assert not out.exists()
    assert cmd_render(str(save), str(out), force=True) == 0
    got = capsys.readouterr()
    assert got.out == f"{out / 'index.html'}\n"
    assert got.err.startswith("eighteen render: warning: save made with 1830 0.1.0 (sha256:")
    assert cmd_render("1830", "") == 2
    assert capsys.readouterr().err == (
        "eighteen render: error: --out is empty: name a folder (--out . for this one)\n"
    )


def test_an_ability_with_records_reads_as_words(doc1833ne: CompiledTitle) -> None:
    """A private's ability whose fields hold records (1833NE's P3: two lays) reads as words,
    not as Python's text of a dict ("lays {'hex': 'C4', ...}")."""
    p3 = next(p for p in doc1833ne.privates if p.id == "P3")
    assert [describe_ability(a) for a in p3.abilities] == [
        "block hexes: hexes C4 C6",
        "tile lays: extra, free, lays (hex C4, tiles 3 4 58, toward B3); (hex C6, tiles 7 8 9), "
        "linked, waives lay cost",
    ]


def test_the_par_zone_swatch_is_drawn_as_a_par_cell(doc1830: CompiledTitle) -> None:
    """The zones table draws the par zone as its cells are drawn (outlined in red, on the
    cell's own colour), not as a pink fill no cell has."""
    html = render_page(doc1830)
    par = [z for z, zone in doc1830.market.zones.items() if zone.par]
    assert par
    for letter in par:
        row = re.search(rf'<tr data-zone="{re.escape(letter)}">.*?</tr>', html, re.S)
        assert row is not None and '<span class="swatch par"></span>' in row.group(0)
    others = [z for z, zone in doc1830.market.zones.items() if not zone.par]
    for letter in others:
        row = re.search(rf'<tr data-zone="{re.escape(letter)}">.*?</tr>', html, re.S)
        assert row is not None and '<span class="swatch" style="background: ' in row.group(0)
    assert ".swatch.par { background: #ffffff; outline: 3px solid #c62828;" in html
    assert "table.market td.par { outline: 3px solid #c62828;" in html
