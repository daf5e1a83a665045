"""Cross-reference checks: map.toml."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from eighteen.title.aggregate import Title
from eighteen.title.checks.common import HEX_RE, hex_entries, hex_index
from eighteen.title.checks.registry import W, check
from eighteen.title.geometry import hex_to_xy
from eighteen.title.geometry import neighbor_id as neighbor
from eighteen.title.problems import Problem, did_you_mean
from eighteen.title.sources import Sources


@check
def duplicate_hexes(title: Title, s: Sources) -> Iterator[Problem]:
    """E101: a coordinate appears at most once on the map."""
    seen: set[str] = set()
    for hid, path, _ in hex_entries(title):
        if hid in seen:
            yield s.locate("map", path, "E101", f"duplicate hex {hid}")
        seen.add(hid)


@check
def hexes_inside_layout(title: Title, s: Sources) -> Iterator[Problem]:
    """E102: every hex lies on the declared rows and columns, on a real grid cell."""
    rows = title.map.rows
    lo, hi = title.map.columns
    for hid, path, _ in hex_entries(title):
        m = HEX_RE.match(hid)
        if m is None:
            continue
        letters, num = m.group(1), int(m.group(2))
        if letters not in rows:
            yield s.locate("map", path, "E102", f"hex {hid}: row {letters} is not in rows")
        elif not lo <= num <= hi:
            yield s.locate(
                "map", path, "E102", f"hex {hid}: column {num} is outside columns {lo}..{hi}"
            )
        elif sum(hex_to_xy(hid, title.map.layout.value)) % 2 != (
            title.map.cell_parity.value == "odd"
        ):
            yield s.locate(
                "map",
                path,
                "E102",
                f"hex {hid}: not a cell of this grid (letter and number parity)",
            )


@check
def offboards_are_red(title: Title, s: Sources) -> Iterator[Problem]:
    """E103: off-board revenue only on red hexes, and every red hex has it."""
    for i, h in enumerate(title.map.hexes):
        if h.offboard is not None and h.color.value != "red":
            yield s.locate("map", ("hexes", i, "offboard"), "E103", "off-board on a non-red hex")
        if h.offboard is None and h.color.value == "red":
            yield s.locate("map", ("hexes", i, "color"), "E103", "red hex without offboard")


@check
def offboard_revenue_per_phase(title: Title, s: Sources) -> Iterator[Problem]:
    """E104: every off-board has a value for every phase's offboard_revenue key.

    A key that no off-board has at all is a typo in phases.toml (E136, reported there
    once), not a gap in every off-board.
    """
    offboards = [h.offboard for h in title.map.hexes if h.offboard is not None]
    known = sorted({k for o in offboards for k in o.revenue})
    keys = {p.offboard_revenue for p in title.phases.phases}
    if offboards:
        keys &= set(known)
    for i, h in enumerate(title.map.hexes):
        if h.offboard is None:
            continue
        for k in sorted(keys - set(h.offboard.revenue)):
            yield s.locate(
                "map",
                ("hexes", i, "offboard", "revenue"),
                "E104",
                f"off-board revenue missing for phase colour '{k}'",
            )


@check
def phase_offboard_keys_exist(title: Title, s: Sources) -> Iterator[Problem]:
    """E136: a phase's offboard_revenue names a value some off-board has."""
    known = sorted({k for h in title.map.hexes if h.offboard for k in h.offboard.revenue})
    if not known:
        return
    for i, p in enumerate(title.phases.phases):
        if p.offboard_revenue not in known:
            hint = did_you_mean(p.offboard_revenue, known)
            yield s.locate(
                "phases",
                ("phases", i, "offboard_revenue"),
                "E136",
                f"no off-board has a '{p.offboard_revenue}' value (they have "
                f"{', '.join(known)}){hint}",
            )


@check
def borders_match(title: Title, s: Sources) -> Iterator[Problem]:
    """W105: an impassable side should be recorded on both hexes; E106: no duplicate edges."""
    impassable: set[tuple[str, int]] = set()
    where: dict[tuple[str, int], tuple[int, int]] = {}
    for hid, _, i in hex_entries(title):
        h = title.map.hexes[i]
        edges = Counter(b.edge for b in h.borders)
        for j, b in enumerate(h.borders):
            if edges[b.edge] > 1:
                yield s.locate(
                    "map", ("hexes", i, "borders", j, "edge"), "E106", f"edge {b.edge} twice"
                )
            if b.type.value == "impassable":
                impassable.add((hid, b.edge))
                where[(hid, b.edge)] = (i, j)
    ids = set(hex_index(title))
    for hid, edge in sorted(impassable):
        other = neighbor(hid, edge, title.map.layout.value)
        if other in ids and (other, (edge + 3) % 6) not in impassable:
            i, j = where[(hid, edge)]
            yield s.locate(
                "map",
                ("hexes", i, "borders", j),
                "W105",
                f"impassable side {hid}:{edge} is not recorded on {other}:{(edge + 3) % 6}",
                severity=W,
            )


@check
def exits_lead_somewhere(title: Title, s: Sources) -> Iterator[Problem]:
    """W107: printed track should not run off the map."""
    ids = set(hex_index(title))
    for hid, _, i in hex_entries(title):
        h = title.map.hexes[i]
        edges: list[tuple[tuple[str | int, ...], int]] = []
        for k, c in enumerate(h.cities):
            edges += [(("hexes", i, "cities", k, "exits"), e) for e in c.exits]
        for k, t in enumerate(h.towns):
            edges += [(("hexes", i, "towns", k, "exits"), e) for e in t.exits]
        for k, tr in enumerate(h.track):
            edges += [(("hexes", i, "track", k), e) for e in tr]
        if h.offboard:
            edges += [(("hexes", i, "offboard", "exits"), e) for e in h.offboard.exits]
        for path, e in edges:
            if neighbor(hid, e, title.map.layout.value) not in ids:
                yield s.locate(
                    "map", path, "W107", f"{hid}: track on edge {e} leads off the map", severity=W
                )


def _face_problems(
    face: object, kind: str, base: tuple[str | int, ...], s: Sources
) -> Iterator[Problem]:
    """E108: a face uses an edge at most once per stop and plain track joins two edges."""
    cities = getattr(face, "cities", [])
    towns = getattr(face, "towns", [])
    track = getattr(face, "track", [])
    for name, stops in (("cities", cities), ("towns", towns)):
        for k, stop in enumerate(stops):
            if len(set(stop.exits)) != len(stop.exits):
                yield s.locate(kind, (*base, name, k, "exits"), "E108", "an exit is listed twice")
    for k, tr in enumerate(track):
        if tr[0] == tr[1]:
            yield s.locate(kind, (*base, "track", k), "E108", "track joins an edge to itself")


@check
def faces_well_formed(title: Title, s: Sources) -> Iterator[Problem]:
    """E108 on every map hex and tile definition."""
    for i, h in enumerate(title.map.hexes):
        yield from _face_problems(h, "map", ("hexes", i), s)
    for tid, t in title.tile_defs.items():
        origin = title.tile_origin[tid]
        tfile = title.tiles if origin == "tiles" else None
        tiles = tfile.tiles if tfile else []
        idx = next((n for n, x in enumerate(tiles) if x.id == tid), None)
        if idx is not None:
            yield from _face_problems(t, "tiles", ("tiles", idx), s)
