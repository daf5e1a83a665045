"""The page in a real browser: headless Chromium runs its script, with no console message.

CI installs Debian's chromium (.ci/run), so there a missing browser fails the test; on a
developer machine without it the test is skipped with the command to install it.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from browser_support import run_chromium

from eighteen.compiled import CompiledTitle
from eighteen.engine.tables import Tables
from eighteen.render import game_snapshot, render_page

SVG = "http://www.w3.org/2000/svg"


def check_page(tmp: Path, html: str, name: str) -> str:
    """Load ``html`` in chromium: no console messages; return the DOM after scripts ran."""
    page = tmp / f"{name}.html"
    page.write_text(html, encoding="utf-8")
    dom, console = run_chromium(tmp, page.as_uri(), "--dump-dom")
    assert console == [], console
    assert 'data-ready="true"' in dom, "the page script did not finish"
    shot = tmp / f"{name}.png"
    _, console = run_chromium(tmp, page.as_uri(), f"--screenshot={shot}", "--window-size=1400,2200")
    assert console == [], console
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
    return dom


def hex_groups(dom: str) -> list[str]:
    """data-hex values of the map's <g class="hex"> elements in the dumped DOM."""
    return re.findall(r'<g class="hex(?: selected)?" data-hex="([A-Z]+\d+)"', dom)


def test_title_page_in_chromium(
    tmp_path: Path, c1830: dict[str, Any], doc1830: CompiledTitle
) -> None:
    dom = check_page(tmp_path, render_page(doc1830), "title")
    assert len(hex_groups(dom)) == 93 == len(c1830["hexes"])
    assert 'data-hex-count="93"' in dom  # counted by the page's own script
    assert len(re.findall(r'<div class="tile-card"', dom)) == 46


def test_game_page_in_chromium(
    tmp_path: Path, c1830: dict[str, Any], save1830: dict[str, Any]
) -> None:
    compiled, snap = game_snapshot(save1830, tables=Tables(c1830))
    dom = check_page(tmp_path, render_page(compiled, snap), "game")
    assert len(hex_groups(dom)) == 93
    assert len(re.findall(r'<g class="token"', dom)) == sum(
        len(city) for cities in snap.map.tokens.values() for city in cities
    )


def test_console_errors_are_caught(tmp_path: Path) -> None:
    """The console check is not vacuous: a page with a script error is reported."""
    page = tmp_path / "bad.html"
    page.write_text("<html><body><script>nothingHere();</script></body></html>")
    _, console = run_chromium(tmp_path, page.as_uri(), "--dump-dom")
    assert any("Uncaught ReferenceError" in line for line in console), console


# A script the tests add to a page: it measures every text and mark icon (terrain, revenue
# bubble, blocked badge) of the map in the browser's own layout (overlapping boxes, boxes
# outside the map, boxes reaching out of their own hex's outline, coordinates on a hex) and the map's width, then presses the zoom button once, and writes what
# it found on <body>.
MEASURE = """<script>
window.addEventListener("load", function () {
  var svg = document.querySelector("svg.map");
  var sr = svg.getBoundingClientRect();
  var texts = Array.prototype.slice.call(svg.querySelectorAll(
    "g.hexes text, g.terrain path, g.terrain polygon, g.revenue circle, g.blocked rect"));
  var rects = texts.map(function (t) { return t.getBoundingClientRect(); });
  var where = function (i) { return texts[i].closest("g.hex").getAttribute("data-hex") + " " + texts[i].textContent; };
  var out = [];
  // is (x, y) inside the polygon pts (screen points)? (even-odd crossings)
  var inside = function (pts, x, y) {
    var c = false;
    for (var a = 0, b = pts.length - 1; a < pts.length; b = a++) {
      if ((pts[a].y > y) !== (pts[b].y > y) &&
          x < (pts[b].x - pts[a].x) * (y - pts[a].y) / (pts[b].y - pts[a].y) + pts[a].x) { c = !c; }
    }
    return c;
  };
  var outline = function (t) {  // the screen corners of the text's own hex
    var shape = t.closest("g.hex").querySelector("polygon.hex-shape");
    var m = shape.getScreenCTM(), pts = [];
    for (var k = 0; k < shape.points.numberOfItems; k++) {
      var p = shape.points.getItem(k);
      pts.push(new DOMPoint(p.x, p.y).matrixTransform(m));
    }
    return pts;
  };
  for (var i = 0; i < texts.length; i++) {
    var r = rects[i];
    if (r.left < sr.left || r.right > sr.right || r.top < sr.top || r.bottom > sr.bottom) {
      out.push("clipped: " + where(i));
    }
    var pts = outline(texts[i]), e = 0.75;  // a text's box lies inside its hex
    if (![[r.left + e, r.top + e], [r.right - e, r.top + e], [r.left + e, r.bottom - e],
          [r.right - e, r.bottom - e]].every(function (c) { return inside(pts, c[0], c[1]); })) {
      out.push("outside its hex: " + where(i));
    }
    for (var j = i + 1; j < texts.length; j++) {
      if (texts[i].parentNode === texts[j].parentNode && texts[i].tagName !== texts[j].tagName) {
        continue;  // a mark's own icon and text (a revenue bubble's circle and value)
      }
      var w = Math.min(r.right, rects[j].right) - Math.max(r.left, rects[j].left);
      var h = Math.min(r.bottom, rects[j].bottom) - Math.max(r.top, rects[j].top);
      if (w > 0.5 && h > 0.5) { out.push("overlap: " + where(i) + " / " + where(j)); }
    }
  }
  // the coordinate labels (rows, columns) lie clear of every hex
  var shapes = Array.prototype.slice.call(svg.querySelectorAll("polygon.hex-shape"))
    .map(function (p) { return p.getBoundingClientRect(); });
  svg.querySelectorAll("g.coords text").forEach(function (t) {
    var r = t.getBoundingClientRect();
    if (shapes.some(function (q) {
      return Math.min(r.right, q.right) - Math.max(r.left, q.left) > 0.5 &&
             Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top) > 0.5;
    })) { out.push("coordinate on a hex: " + t.textContent); }
  });
  document.querySelector("button[data-zoom=in]").click();
  document.body.setAttribute("data-text-problems", out.join("; "));
  document.body.setAttribute("data-texts", String(texts.length));
  document.body.setAttribute("data-map-width", String(Math.round(sr.width)));
  document.body.setAttribute("data-zoomed", svg.getAttribute("data-zoom"));
});
</script>"""


def measure(tmp: Path, html: str, name: str) -> dict[str, str]:
    """Load ``html`` with MEASURE at 1400 x 1000: the attributes it wrote on <body>."""
    page = tmp / f"{name}-measured.html"
    page.write_text(html.replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    dom, console = run_chromium(tmp, page.as_uri(), "--dump-dom", "--window-size=1400,1000")
    assert console == [], console
    body = re.search(r"<body([^>]*)>", dom)
    assert body is not None
    return dict(re.findall(r'data-([a-z-]+)="([^"]*)"', body.group(1)))


def marks_in_map(html: str) -> int:
    """How many texts and mark icons the map's hexes hold, counted in the page source."""
    svg = html[html.index('<svg xmlns="http://www.w3.org/2000/svg" class="map"') :]
    root = ET.fromstring(svg[: svg.index("</svg>") + len("</svg>")])
    hexes = root.find(f"{{{SVG}}}g[@class='hexes']")
    assert hexes is not None
    icons = {"terrain": ("path", "polygon"), "revenue": ("circle",), "blocked": ("rect",)}
    n = sum(1 for _ in hexes.iter(f"{{{SVG}}}text"))
    for g in hexes.iter(f"{{{SVG}}}g"):
        for tag in icons.get(g.get("class") or "", ()):
            n += len(g.findall(f"{{{SVG}}}{tag}"))
    return n


@pytest.mark.parametrize("which", ["1830", "1833ne", "game"])
def test_map_labels_never_overlap_or_clip_and_the_map_fills_the_page(
    tmp_path: Path,
    which: str,
    c1830: dict[str, Any],
    doc1830: CompiledTitle,
    doc1833ne: CompiledTitle,
    save1830: dict[str, Any],
) -> None:
    if which == "game":
        html = render_page(*game_snapshot(save1830, tables=Tables(c1830)))
    else:
        html = render_page(doc1830 if which == "1830" else doc1833ne)
    got = measure(tmp_path, html, which)
    assert got["text-problems"] == ""
    assert int(got["texts"]) == marks_in_map(html) > 120
    # 1400 px less the body margins (48), the gap (16) and the widest details panel (288)
    assert int(got["map-width"]) >= 1400 - 48 - 16 - 288
    assert got["zoomed"] == "1.50"  # the + button zoomed in


def test_the_measure_sees_overlaps(tmp_path: Path) -> None:
    """The label check is not vacuous: two texts on top of each other, a text past the map's
    edge and a text reaching out of its hex are reported."""
    html = (
        '<html><body><svg class="map" width="200" height="100"><g class="hexes">'
        '<g class="hex" data-hex="A1"><polygon class="hex-shape" points="0,0 200,0 200,100 0,100"/>'
        '<text x="20" y="50">Westport</text><text x="30" y="50">$40</text>'
        '<text x="190" y="50">Montreal</text></g>'
        '<g class="hex" data-hex="B1"><polygon class="hex-shape" points="0,0 40,0 40,40 0,40"/>'
        '<text x="20" y="20">Hamilton &amp; Toronto</text></g></g></svg>'
        '<button data-zoom="in"></button></body></html>'
    )
    got = measure(tmp_path, html, "overlap")
    assert got["text-problems"] == (
        "overlap: A1 Westport / A1 $40; clipped: A1 Montreal; outside its hex: A1 Montreal; "
        "outside its hex: B1 Hamilton &amp; Toronto"  # (the attribute as the DOM dump escapes it)
    )


def test_1833ne_title_page_in_chromium(
    tmp_path: Path, c1833ne: dict[str, Any], doc1833ne: CompiledTitle
) -> None:
    dom = check_page(tmp_path, render_page(doc1833ne), "title-1833ne")
    assert len(hex_groups(dom)) == len(c1833ne["hexes"]) == 100
