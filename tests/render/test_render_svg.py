"""The map and tile SVG: counts, data attributes and the engine's edge/rotation geometry."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from eighteen.compiled import CompiledTile, CompiledTitle
from eighteen.engine.map import Board
from eighteen.engine.tables import typed_document
from eighteen.render.face import Corp, _token, light
from eighteen.render.placing import CLEAR_OF_TRACK, face_of, place_stops
from eighteen.render.shapes import edge_mid, hex_center, track_kind, track_point
from eighteen.render.svg import MapView, map_svg, tile_svg
from eighteen.title import geometry

NS = {"s": "http://www.w3.org/2000/svg"}


def parse(svg: str) -> ET.Element:
    """The SVG as an element tree (it must be well-formed XML)."""
    return ET.fromstring(svg)


def cls(el: ET.Element) -> set[str]:
    return set((el.get("class") or "").split())


def attr(el: ET.Element, name: str) -> str:
    """The attribute ``name`` of ``el`` (it must have it)."""
    value = el.get(name)
    assert value is not None, (el.tag, name)
    return value


def find_all(root: ET.Element, klass: str) -> list[ET.Element]:
    return [el for el in root.iter() if klass in cls(el)]


def hex_el(root: ET.Element, hex_id: str) -> ET.Element:
    found = [el for el in find_all(root, "hex") if el.get("data-hex") == hex_id]
    assert len(found) == 1, hex_id
    return found[0]


def track_edges(g: ET.Element) -> set[int]:
    """Every edge with a track element inside ``g``."""
    out: set[int] = set()
    for el in find_all(g, "track"):
        out.update(int(e) for e in el.get("data-edges", "").split())
    return out


def stop_edges(g: ET.Element) -> dict[str, set[int]]:
    """Edges of the track drawn for each stop ("city 0", "town 1") inside ``g``."""
    out: dict[str, set[int]] = {}
    for el in find_all(g, "track"):
        if stop := el.get("data-stop"):
            out.setdefault(stop, set()).update(int(e) for e in el.get("data-edges", "").split())
    return out


def start_point(path_d: str) -> tuple[float, float]:
    m = re.match(r"M (-?[\d.]+) (-?[\d.]+)", path_d)
    assert m, path_d
    return float(m.group(1)), float(m.group(2))


@pytest.fixture(scope="module")
def title_map(doc1830: CompiledTitle) -> ET.Element:
    return parse(map_svg(doc1830))


def test_map_has_every_hex_once(title_map: ET.Element, c1830: dict[str, Any]) -> None:
    hexes = find_all(title_map, "hex")
    assert len(hexes) == 93 == len(c1830["hexes"])
    assert sorted(attr(h, "data-hex") for h in hexes) == sorted(c1830["hexes"])
    assert title_map.get("data-layout") == "pointy"
    assert title_map.get("data-hexes") == "93"
    colors = [h.get("data-color") for h in hexes]
    assert (colors.count("white"), colors.count("yellow")) == (67, 7)
    assert (colors.count("gray"), colors.count("red")) == (12, 7)


def test_g19_two_cities_with_their_exits(title_map: ET.Element) -> None:
    g = hex_el(title_map, "G19")
    cities = find_all(g, "city")
    assert len(cities) == 2
    assert [(c.get("data-city"), c.get("data-exits"), c.get("data-revenue")) for c in cities] == [
        ("0", "3", "40"),
        ("1", "0", "40"),
    ]
    assert stop_edges(g) == {"city 0": {3}, "city 1": {0}}
    assert [t.text for t in find_all(g, "label")] == ["NY"]
    assert [(t.get("data-terrain"), t.get("data-cost")) for t in find_all(g, "terrain")] == [
        ("water", "80")
    ]
    # NYNH's home is city 0: a reservation in that city's slot
    homes = [(h.get("data-corp"), h) for h in find_all(g, "home")]
    assert [c for c, _ in homes] == ["NYNH"]
    assert homes[0][1] in list(find_all(cities[0], "home"))


def test_f2_offboard_values_by_phase(title_map: ET.Element) -> None:
    g = hex_el(title_map, "F2")
    (off,) = find_all(g, "offboard")
    assert off.get("data-revenue") == "yellow:40 brown:70"
    values = [
        (v.get("data-color"), v.get("data-value"), v.get("data-phases"))
        for v in find_all(off, "offboard-value")
    ]
    assert values == [("yellow", "40", "2 3 4"), ("brown", "70", "5 6 D")]
    assert track_edges(g) == {3, 4, 5}
    # the hidden half of Canada shows no values, only its track
    a9 = hex_el(title_map, "A9")
    assert find_all(a9, "offboard")[0].get("data-hidden") == "true"
    assert find_all(a9, "offboard-value") == []
    assert track_edges(a9) == {5}


def test_e11_is_oo_with_two_empty_cities(title_map: ET.Element) -> None:
    g = hex_el(title_map, "E11")
    assert [t.text for t in find_all(g, "label")] == ["OO"]
    cities = find_all(g, "city")
    assert len(cities) == 2
    assert all(c.get("data-exits") == "" and c.get("data-revenue") == "0" for c in cities)
    # ERIE's home city is not given: the reservation is a badge on the hex
    assert [h.get("data-corp") for h in find_all(g, "home")] == ["ERIE"]


def test_h12_city_beside_through_track(title_map: ET.Element) -> None:
    g = hex_el(title_map, "H12")
    plain = [t.get("data-edges") for t in find_all(g, "track") if t.get("data-kind") == "plain"]
    assert plain == ["1 4"]
    assert stop_edges(g) == {"city 0": {1, 4}}
    (city,) = find_all(g, "city")
    # drawn toward the top of the hex, off the straight track
    m = re.match(r"translate\((-?[\d.]+) (-?[\d.]+)\)", city.get("transform", ""))
    assert m and float(m.group(2)) < 0


def test_homes_blocks_terrain_borders(title_map: ET.Element, c1830: dict[str, Any]) -> None:
    homes = {attr(h, "data-corp"): h for h in find_all(title_map, "home")}
    assert sorted(homes) == sorted(c["id"] for c in c1830["corporations"])
    blocked = sorted(
        (b.get("data-private"), h.get("data-hex"))
        for h in find_all(title_map, "hex")
        for b in find_all(h, "blocked")
    )
    assert blocked == [
        ("BO", "I13"),
        ("BO", "I15"),
        ("CA", "H18"),
        ("CS", "B20"),
        ("DH", "F16"),
        ("MH", "D18"),
        ("SV", "G15"),
    ]
    terrain = [t.get("data-terrain") for t in find_all(title_map, "terrain")]
    assert (terrain.count("water"), terrain.count("mountain")) == (10, 11)
    borders = [b.get("data-type") for b in find_all(title_map, "border")]
    assert (borders.count("impassable"), borders.count("cosmetic")) == (8, 4)
    names = [t.text for t in find_all(title_map, "name")]
    assert "New York & Newark" in names and "Chicago" in names


def test_tile_57_rotation_1_on_map(doc1830: CompiledTitle) -> None:
    view = MapView(tiles={"E19": ("57", 1)}, tokens={"E19": [["NYC"]]}, homes_placed={"NYC"})
    root = parse(map_svg(doc1830, view))
    g = hex_el(root, "E19")
    assert (g.get("data-tile"), g.get("data-rotation"), g.get("data-color")) == (
        "57",
        "1",
        "yellow",
    )
    assert (
        g.get("data-printed-color") == "white"
    )  # what the hex details say: yellow (printed white)
    assert track_edges(g) == {1, 4}
    assert [t.get("data-corp") for t in find_all(g, "token")] == ["NYC"]
    assert find_all(g, "home") == []
    (city,) = find_all(g, "city")
    assert city.get("data-revenue") == "20"
    # the track really starts on the W (1) and E (4) edge midpoints
    starts = sorted(start_point(attr(t, "d")) for t in find_all(g, "track"))
    expected = sorted(edge_mid(e, "pointy", 40.0) for e in (1, 4))
    for (x, y), (ex, ey) in zip(starts, expected, strict=True):
        assert math.isclose(x, ex, abs_tol=0.01) and math.isclose(y, ey, abs_tol=0.01)


def test_every_tile_every_rotation_matches_engine(
    c1830: dict[str, Any], doc1830: CompiledTitle
) -> None:
    """Drawn track edges per stop = the engine's face exits, for all tiles and rotations."""
    board = Board.of(typed_document(c1830))
    for tid in c1830["tiles"]:
        for rot in range(6):
            root = parse(tile_svg(doc1830, tid, rot))
            face = board.tile_face("E19", tid, rot)
            assert track_edges(root) == set(face.exits), (tid, rot)
            want = {f"city {i}": set(c.exits) for i, c in enumerate(face.cities) if c.exits}
            want |= {f"town {i}": set(t.exits) for i, t in enumerate(face.towns) if t.exits}
            assert stop_edges(root) == want, (tid, rot)
            plain = sorted(
                tuple(sorted(int(e) for e in attr(t, "data-edges").split()))
                for t in find_all(root, "track")
                if t.get("data-kind") == "plain"
            )
            assert plain == sorted(tuple(sorted(p)) for p in face.track), (tid, rot)
            for track in find_all(root, "track"):
                edge = int(attr(track, "data-edges").split()[0])
                x, y = start_point(attr(track, "d"))
                ex, ey = edge_mid(edge, "pointy", 36.0)
                assert math.isclose(x, ex, abs_tol=0.01) and math.isclose(y, ey, abs_tol=0.01)


def test_preprinted_faces_match_engine(title_map: ET.Element, c1830: dict[str, Any]) -> None:
    board = Board.of(typed_document(c1830))
    for hid in c1830["hexes"]:
        assert track_edges(hex_el(title_map, hid)) == set(board.tile_face(hid, None).exits), hid


@pytest.mark.parametrize("layout", ["pointy", "flat"])
def test_edge_midpoints_face_the_neighbour(c1830: dict[str, Any], layout: str) -> None:
    """Edge e of a hex, as drawn, points at the centre of the neighbour across edge e."""
    for hid in c1830["hexes"]:
        x, y = geometry.hex_to_xy(hid, "pointy")
        cx, cy = hex_center(x, y, layout, 40.0)
        for e in geometry.EDGES:
            nx, ny = geometry.neighbor_xy(x, y, e, layout)
            ox, oy = hex_center(nx, ny, layout, 40.0)
            mx, my = edge_mid(e, layout, 40.0)
            # the midpoint is exactly halfway to the neighbour's centre
            assert math.isclose(cx + 2 * mx, ox, abs_tol=1e-6), (hid, e)
            assert math.isclose(cy + 2 * my, oy, abs_tol=1e-6), (hid, e)


def test_e19_neighbours_worked_example(c1830: dict[str, Any]) -> None:
    """Facts §9: E19's neighbours by edge, drawn where the map puts those hexes."""
    x, y = c1830["hexes"]["E19"]["x"], c1830["hexes"]["E19"]["y"]
    cx, cy = hex_center(x, y, "pointy", 40.0)
    for e, nb in enumerate(["F18", "E17", "D18", "D20", "E21", "F20"]):
        h = c1830["hexes"][nb]
        ox, oy = hex_center(h["x"], h["y"], "pointy", 40.0)
        mx, my = edge_mid(e, "pointy", 40.0)
        assert math.isclose(cx + 2 * mx, ox) and math.isclose(cy + 2 * my, oy)


def test_flat_layout_renders(c1830: dict[str, Any]) -> None:
    flat = typed_document(dict(c1830, layout="flat"))
    root = parse(map_svg(flat))
    assert root.get("data-layout") == "flat"
    assert len(find_all(root, "hex")) == 93
    root = parse(tile_svg(flat, "57", 1))
    assert track_edges(root) == {1, 4}
    starts = sorted(start_point(attr(t, "d")) for t in find_all(root, "track"))
    expected = sorted(edge_mid(e, "flat", 36.0) for e in (1, 4))
    for (x, y), (ex, ey) in zip(starts, expected, strict=True):
        assert math.isclose(x, ex, abs_tol=0.01) and math.isclose(y, ey, abs_tol=0.01)


def test_multi_slot_city_and_towns(doc1830: CompiledTitle) -> None:
    root = parse(tile_svg(doc1830, "63"))
    (city,) = find_all(root, "city")
    assert city.get("data-slots") == "2"
    assert len(find_all(city, "slot")) == 2
    root = parse(tile_svg(doc1830, "55", 2))
    towns = find_all(root, "town")
    assert [t.get("data-exits") for t in towns] == ["2 5", "0 3"]
    assert {r.get("data-value") for r in find_all(root, "revenue")} == {"10"}


def test_a_costed_side_prints_its_cost_once(
    c1833ne: dict[str, Any], doc1833ne: CompiledTitle
) -> None:
    c = c1833ne
    sides: set[frozenset[tuple[str, int]]] = set()
    for hid, h in c["hexes"].items():
        for b in h.get("borders") or []:
            if b.get("cost"):
                other = h["neighbors"][int(b["edge"])]
                sides.add(frozenset({(hid, int(b["edge"])), (other, (int(b["edge"]) + 3) % 6)}))
    printed = parse(map_svg(doc1833ne)).iter(f"{{{NS['s']}}}text")
    costs = [t for t in printed if t.get("class") == "border-cost"]
    assert len(costs) == len(sides) == 13


def test_a_stub_is_drawn_from_its_edge_a_short_way_in(doc1830: CompiledTitle) -> None:
    """A stub (dead-end track) on a tile is one track path from its edge towards the centre."""
    tile = CompiledTile.model_validate(
        {
            "color": "green",
            "count": 1,
            "exits": [0, 2],
            "orientations": list(range(6)),
            "cities": [{"exits": [0], "revenue": 20}],
            "stubs": [2],
        }
    )
    root = parse(tile_svg(doc1830.model_copy(update={"tiles": {"S": tile}}), "S", 1))
    stubs = [t for t in find_all(root, "track") if t.get("data-kind") == "stub"]
    assert [(t.get("data-edges"), t.get("d")) for t in stubs] == [
        ("3", "M 15.59 -27 L 8.57 -14.85")
    ]
    assert stubs[0].get("stroke") == "#111111"
    assert track_edges(root) == {1, 3}


def test_printed_stubs_on_the_map(c1833ne: dict[str, Any], doc1833ne: CompiledTitle) -> None:
    """Every printed stub of 1833NE is drawn on its hex: Boston's (G22) runs from edge 0."""
    root = parse(map_svg(doc1833ne))
    drawn = {
        (hid, int(attr(t, "data-edges")))
        for hid in c1833ne["hexes"]
        for t in find_all(hex_el(root, hid), "track")
        if t.get("data-kind") == "stub"
    }
    printed = {(hid, e) for hid, h in c1833ne["hexes"].items() for e in h["stubs"]}
    assert drawn == printed
    assert ("G22", 0) in drawn and len(drawn) == 7


def test_a_reservation_shows_for_a_light_corporation_too() -> None:
    """A home reservation: a white disc with a dashed grey edge (a white corporation's
    reservation is no white token) in a dashed ring of the corporation's colour; its label
    in that colour, or in the text colour when the colour is light (B&W's white and ERIE's
    yellow vanished); ids of five letters whole (StL&A was cut to StL&)."""
    assert (light("#FFFFFF"), light("#FFF500"), light("#F5ABAD"), light("#1C3F94")) == (
        True,
        True,
        True,
        False,
    )
    assert (light("white"), light("#12345")) == (False, False)
    root = ET.Element("svg")
    _token(root, (0.0, 0.0), 10.0, Corp("B&W", "#FFFFFF", "#000000"), "home", reserved=True)
    _token(root, (0.0, 0.0), 10.0, Corp("StL&A", "#1C3F94", "#FFFFFF"), "home", reserved=True)
    _token(root, (0.0, 0.0), 10.0, Corp("StL&A", "#1C3F94", "#FFFFFF"), "token", reserved=False)
    white, blue, placed = list(root)
    edge, ring = white.findall("circle")
    assert (edge.get("fill"), edge.get("stroke"), edge.get("stroke-dasharray")) == (
        "#ffffff",
        "#777777",
        "3 1.5",
    )
    assert (ring.get("fill"), ring.get("stroke")) == ("none", "#FFFFFF")
    texts = [[t for t in g.iter() if t.tag == "text"] for g in (white, blue, placed)]
    assert [t[-1].get("fill") for t in texts] == ["#000000", "#1C3F94", "#FFFFFF"]
    assert ["".join(t[-1].itertext()) for t in texts] == ["B&W", "StL&A", "StL&A"]


def test_1833ne_terrain_kinds_are_told_apart(
    doc1833ne: CompiledTitle, c1833ne: dict[str, Any]
) -> None:
    """1833NE's terrain kinds: a bridge (water) hex shows blue waves, a tunnel a dark peak
    with its mouth, a pass a brown peak (all three were one grey peak, so water looked
    like a mountain); bridge and pass sides are drawn blue and brown (they were white
    dots, nearly invisible)."""
    root = parse(map_svg(doc1833ne))
    marks = {
        h.get("data-hex"): t
        for h in find_all(root, "hex")
        for t in h.iter()
        if t.get("class") == "terrain"
    }
    kinds = {hid: h.get("terrain") for hid, h in c1833ne["hexes"].items() if h.get("terrain")}
    assert {kinds[h] for h in ("C2", "B3", "F25", "E16")} == {"bridge"}
    assert {"bridge", "tunnel", "pass"} <= set(kinds.values())
    for hid, kind in kinds.items():
        shapes = [(e.tag.split("}")[-1], e.get("fill"), e.get("stroke")) for e in marks[hid]]
        if kind == "bridge":
            assert ("path", "none", "#1e88e5") in shapes, hid
        elif kind == "tunnel":
            assert [s[:2] for s in shapes[:2]] == [("polygon", "#4e342e"), ("path", "#111111")]
        elif kind == "pass":
            assert shapes[0][:2] == ("polygon", "#8d6e63"), hid
    sides = {(b.get("data-type"), b.get("stroke")) for b in find_all(root, "border")}
    assert {("bridge", "#1e88e5"), ("pass", "#8d6e63")} <= sides


@pytest.mark.parametrize("rotation", range(6))
def test_a_town_on_a_curve_keeps_off_another_towns_track(
    doc1830: CompiledTitle, rotation: int
) -> None:
    """Tile 69: a town on a straight track (edges 0-3) and one on a curve (2-4) that
    crosses it. The curve's town sat on the crossing, so the tile read as one town joining
    four exits; it now keeps at least CLEAR_OF_TRACK of the hex size off the straight
    track, on its own curve."""
    size = 50.0
    face = face_of(doc1830.tiles["69"], rotation)
    placed = place_stops(face, "pointy", size)
    straight, curve = sorted(face.towns, key=lambda t: track_kind(*t.exits) != "straight")
    assert track_kind(*straight.exits) == "straight" and track_kind(*curve.exits) != "straight"
    (a, b), (c, d) = straight.exits, curve.exits
    line = [track_point(a, b, k / 200, "pointy", size) for k in range(201)]
    at = placed.points[("town", curve.index)]
    assert min(math.dist(at, q) for q in line) >= CLEAR_OF_TRACK * size
    on_curve = [track_point(c, d, k / 200, "pointy", size) for k in range(201)]
    assert min(math.dist(at, q) for q in on_curve) < 0.01 * size
