"""Cross-reference checks: what a schema cannot see, each a small function with a code.

Every check takes the Title and its Sources and yields located Problems. The list of codes
with their meaning is docs/checks.md; tests/title/corpus/ triggers each one.
"""

from __future__ import annotations

import difflib
import functools
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Annotated, Any

from pydantic import TypeAdapter, ValidationError

from eighteen.title.aggregate import Missing, MissingPart, Title
from eighteen.title.geometry import hex_to_xy
from eighteen.title.model import (
    COLOR_ORDER,
    BlockHexes,
    BonusMultiplier,
    CloseOnTrain,
    EmergencySource,
    ExchangeShare,
    ExclusiveHexes,
    FreeTileLay,
    GrantShare,
    MarketType,
    RestrictCorporation,
    Rules,
    TileLays,
    VirtualStation,
)
from eighteen.title.pipeline import Sources
from eighteen.title.problems import Problem, Severity

Check = Callable[[Title, Sources], Iterator[Problem]]
CHECKS: list[Check] = []

W = Severity.warning


def check(fn: Check) -> Check:
    """Register a check."""
    CHECKS.append(fn)
    return fn


def run_checks(title: Title, sources: Sources) -> list[Problem]:
    """Run every registered check; a crashing check becomes an internal-error problem.

    On a partial title (a file did not load) a check that touches the missing file is
    skipped, whatever it found so far: it would report knock-on noise.
    """
    out: list[Problem] = []
    for fn in CHECKS:
        try:
            out.extend(list(fn(title, sources)))
        except MissingPart:
            continue
        except Exception as exc:  # a check must never take the validator down
            out.append(
                Problem("title.toml", 1, 1, "E999", f"internal error in {fn.__name__}: {exc!r}")
            )
    return out


# ---------------------------------------------------------------------------------------
# helpers

_HEX_RE = re.compile(r"^([A-Z]{1,2})([0-9]+)$")


def repeated(ids: Iterable[str]) -> Iterator[tuple[int, str]]:
    """(index, id) of every id that already appeared earlier in ``ids``."""
    seen: set[str] = set()
    for i, x in enumerate(ids):
        if x in seen:
            yield i, x
        seen.add(x)


def hex_entries(title: Title) -> Iterator[tuple[str, tuple[str | int, ...], int]]:
    """(hex id, key path of its coordinate, index of its [[hexes]] entry) for every hex."""
    for i, h in enumerate(title.map.hexes):
        if isinstance(h.at, str):
            yield h.at, ("hexes", i, "at"), i
        else:
            for j, hid in enumerate(h.at):
                yield hid, ("hexes", i, "at", j), i


def hex_index(title: Title) -> dict[str, int]:
    """Hex id -> index of its [[hexes]] entry (first one if duplicated)."""
    out: dict[str, int] = {}
    for hid, _, i in hex_entries(title):
        out.setdefault(hid, i)
    return out


def _train_ids(title: Title) -> set[str]:
    ids = {t.id for t in title.trains.trains}
    for t in title.trains.trains:
        ids.update(v.id for v in t.variants)
    return ids


def _player_counts(title: Title) -> range:
    p = title.title.players
    return range(p.min, p.max + 1)


# ---------------------------------------------------------------------------------------
# title.toml


@check
def title_id_matches_folder(title: Title, s: Sources) -> Iterator[Problem]:
    """E150: the title id must be its folder name, so `load_title(id)` finds it."""
    if title.dir.name != title.id:
        yield s.locate(
            "title",
            ("id",),
            "E150",
            f"title id '{title.id}' differs from its folder name '{title.dir.name}'",
        )


@check
def player_range(title: Title, s: Sources) -> Iterator[Problem]:
    """E151: players.min must not exceed players.max."""
    p = title.title.players
    if p.min > p.max:
        yield s.locate("title", ("players", "min"), "E151", f"min {p.min} > max {p.max}")


@check
def money_per_player_count(title: Title, s: Sources) -> Iterator[Problem]:
    """E152/E153: starting cash and certificate limit for every allowed player count."""
    for key, code, what in (
        ("starting_cash", "E152", "starting cash"),
        ("certificate_limit", "E153", "certificate limit"),
    ):
        table: dict[str, int] = getattr(title.title, key)
        for n in _player_counts(title):
            if str(n) not in table:
                yield s.locate("title", (key,), code, f"{what} missing for {n} players")
        for k in table:
            if title.title.players.min > title.title.players.max:
                break  # E151 says it; every count would look wrong
            if not k.isdigit() or int(k) not in _player_counts(title):
                yield s.locate(
                    "title",
                    (key, k),
                    "W154",
                    f"'{k}' is not an allowed player count",
                    severity=W,
                    key=True,
                )


@check
def duplicate_options(title: Title, s: Sources) -> Iterator[Problem]:
    """E155: option ids are unique."""
    for i, oid in repeated(o.id for o in title.title.options):
        yield s.locate("title", ("options", i, "id"), "E155", f"duplicate option '{oid}'")


@functools.cache
def _rule_adapter(key: str) -> TypeAdapter[Any]:
    """A validator for one Rules field, with its type and range (for option overrides)."""
    field = Rules.model_fields[key]
    if not field.metadata:
        return TypeAdapter(field.annotation)  # type: ignore[arg-type]
    return TypeAdapter(Annotated[field.annotation, *field.metadata])  # type: ignore[name-defined, arg-type]


@check
def rules_have_their_data(title: Title, s: Sources) -> Iterator[Problem]:
    """E157: a rule that needs data has it: emergency_money naming issue_shares needs the
    terms of the issue (rules.emergency_issue)."""
    rules = title.title.rules
    if "issue_shares" in rules.emergency_money and rules.emergency_issue is None:
        k = list(rules.emergency_money).index(EmergencySource.issue_shares)
        msg = "issue_shares needs rules.emergency_issue (how the shares are priced)"
        yield s.locate("title", ("rules", "emergency_money", k), "E157", msg)


@check
def option_targets(title: Title, s: Sources) -> Iterator[Problem]:
    """E156: an option overrides known rules (with the right kind of value) and known trains."""
    fields = Rules.model_fields
    trains = _train_ids(title)
    for i, o in enumerate(title.title.options):
        for key, value in o.rules.items():
            if key not in fields:
                yield s.locate(
                    "title", ("options", i, "rules", key), "E156", f"unknown rule '{key}'", key=True
                )
                continue
            try:  # as the TOML means it: strict, so `= 1` is no boolean and `true` no 1
                _rule_adapter(key).validate_json(json.dumps(value), strict=True)
            except ValidationError as exc:
                why = exc.errors()[0]["msg"].replace("Input should be", "it should be")
                yield s.locate(
                    "title",
                    ("options", i, "rules", key),
                    "E156",
                    f"{json.dumps(value)} is not a valid value for rule '{key}': {why}",
                )
        for key in o.train_counts:
            if key not in trains:
                yield s.locate(
                    "title",
                    ("options", i, "train_counts", key),
                    "E156",
                    f"unknown train '{key}'",
                    key=True,
                )


# ---------------------------------------------------------------------------------------
# map.toml


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
        m = _HEX_RE.match(hid)
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
            close = difflib.get_close_matches(p.offboard_revenue, known, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
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
    from eighteen.title.geometry import neighbor_id as neighbor

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
    from eighteen.title.geometry import neighbor_id as neighbor

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


# ---------------------------------------------------------------------------------------
# tiles.toml


@check
def manifest_tiles_known(title: Title, s: Sources) -> Iterator[Problem]:
    """E110: every manifest entry names a defined tile; E111: tiles are laid tile colours."""
    for tid in title.tiles.manifest:
        if tid not in title.tile_defs:
            yield s.locate("tiles", ("manifest", tid), "E110", f"unknown tile '{tid}'", key=True)
        elif title.tile_defs[tid].color.value not in COLOR_ORDER[1:]:
            yield s.locate(
                "tiles",
                ("manifest", tid),
                "E111",
                f"tile '{tid}' is {title.tile_defs[tid].color.value}: not a colour that is laid",
                key=True,
            )


@check
def manifest_counts(title: Title, s: Sources) -> Iterator[Problem]:
    """E112: a manifest count is at least 1."""
    for tid, n in title.tiles.manifest.items():
        if isinstance(n, int) and n < 1:
            yield s.locate("tiles", ("manifest", tid), "E112", f"tile '{tid}' count {n} < 1")


@check
def duplicate_tile_defs(title: Title, s: Sources) -> Iterator[Problem]:
    """E113: a tile id is defined once per file."""
    for i, tid in repeated(t.id for t in title.tiles.tiles):
        yield s.locate("tiles", ("tiles", i, "id"), "E113", f"tile '{tid}' defined twice")


def placeable_tiles(title: Title) -> set[str] | None:
    """Manifest tiles reachable from the map: first lays, then upgrades, transitively.

    None when the title is too broken to compile (other checks report why).
    """
    from eighteen.title.compile import compile_title

    try:
        compiled = compile_title(title)
    except Exception:
        return None
    ok: set[str] = set()
    for options in compiled["first_tiles"].values():
        ok.update(options)
    hexes = set(compiled["hexes"])
    for old, news in compiled["upgrades"].items():
        if old in hexes:
            ok.update(t for t, rots in news.items() if rots)
    grew = True
    while grew:
        grew = False
        for old in list(ok):
            for new, rots in compiled["upgrades"].get(old, {}).items():
                if rots and new not in ok:
                    ok.add(new)
                    grew = True
    return ok


@check
def manifest_tiles_placeable(title: Title, s: Sources) -> Iterator[Problem]:
    """E114: every manifest tile has a legal predecessor on the map or in the manifest."""
    ok = placeable_tiles(title)
    if ok is None:
        return
    for tid in title.tiles.manifest:
        if tid in title.tile_defs and tid not in ok:
            yield s.locate(
                "tiles",
                ("manifest", tid),
                "E114",
                f"tile '{tid}' can never be placed: no hex or manifest tile it may replace",
                key=True,
            )


@check
def manifest_tiles_upgradable(title: Title, s: Sources) -> Iterator[Problem]:
    """W116: a manifest city or town tile that the tile library could upgrade (in a colour
    some phase allows) has a manifest tile that may replace it; else it is a dead end by
    omission (removing tile 63 from 1830's manifest leaves 14 and 15 with no upgrade)."""
    from eighteen.title.upgrades import TileShapes, relative_rotations

    allowed = {c.value for p in title.phases.phases for c in p.tiles}
    defs = title.tile_defs
    manifest = [tid for tid in title.tiles.manifest if tid in defs]
    present = {defs[tid].color.value for tid in manifest}  # a colour missing is W115's
    shapes = {tid: TileShapes.of(t, t.color) for tid, t in defs.items()}
    for tid in manifest:
        colour = defs[tid].color.value
        stops = getattr(defs[tid], "cities", None) or getattr(defs[tid], "towns", None)
        if colour not in COLOR_ORDER[1:-1] or not stops:
            continue
        later = COLOR_ORDER[COLOR_ORDER.index(colour) + 1]
        if later not in allowed or later not in present:
            continue
        old = shapes[tid]

        def replaces(new_id: str, old: TileShapes = old) -> bool:
            return bool(relative_rotations(old.base, old.color, shapes[new_id]))

        if any(replaces(n) for n in manifest if n != tid):
            continue
        could = sorted(n for n in defs if n not in manifest and replaces(n))
        if could:
            yield s.locate(
                "tiles",
                ("manifest", tid),
                "W116",
                f"tile '{tid}' can never be upgraded: no {later} manifest tile may replace "
                f"it (the library's {', '.join(could[:3])} could)",
                severity=W,
                key=True,
            )


@check
def phase_colours_have_tiles(title: Title, s: Sources) -> Iterator[Problem]:
    """W115: a colour a phase allows should exist in the manifest."""
    colours = {title.tile_defs[t].color.value for t in title.tiles.manifest if t in title.tile_defs}
    for i, p in enumerate(title.phases.phases):
        for j, c in enumerate(p.tiles):
            if c.value not in colours:
                yield s.locate(
                    "phases",
                    ("phases", i, "tiles", j),
                    "W115",
                    f"phase {p.id} allows {c.value} tiles but the manifest has none",
                    severity=W,
                )


# ---------------------------------------------------------------------------------------
# trains.toml and phases.toml


@check
def train_ids_unique(title: Title, s: Sources) -> Iterator[Problem]:
    """E120: train ids (including card variants) are unique."""
    seen: set[str] = set()
    for i, t in enumerate(title.trains.trains):
        for path, tid in [(("trains", i, "id"), t.id)] + [
            (("trains", i, "variants", j, "id"), v.id) for j, v in enumerate(t.variants)
        ]:
            if tid in seen:
                yield s.locate("trains", path, "E120", f"duplicate train '{tid}'")
            seen.add(tid)


@check
def train_counts(title: Title, s: Sources) -> Iterator[Problem]:
    """E121: every train type has at least one copy."""
    for i, t in enumerate(title.trains.trains):
        if t.count == 0:
            yield s.locate("trains", ("trains", i, "count"), "E121", f"no {t.id}-trains at all")


@check
def train_references(title: Title, s: Sources) -> Iterator[Problem]:
    """E122: rusts_on / obsolete_on / trade_in name known trains; E123: available_on a phase."""
    ids = _train_ids(title)
    phases = {p.id for p in title.phases.phases}
    for i, t in enumerate(title.trains.trains):
        for key in ("rusts_on", "obsolete_on"):
            ref = getattr(t, key)
            if ref is not None and ref not in ids:
                yield s.locate("trains", ("trains", i, key), "E122", f"unknown train '{ref}'")
            if ref == t.id:
                yield s.locate("trains", ("trains", i, key), "E122", "a train cannot rust itself")
        if t.trade_in:
            for j, ref in enumerate(t.trade_in.trains):
                if ref not in ids:
                    yield s.locate(
                        "trains",
                        ("trains", i, "trade_in", "trains", j),
                        "E122",
                        f"unknown train '{ref}'",
                    )
        if t.available_on is not None and t.available_on not in phases:
            yield s.locate(
                "trains",
                ("trains", i, "available_on"),
                "E123",
                f"unknown phase '{t.available_on}'",
            )


@check
def rust_before_own_sale(title: Title, s: Sources) -> Iterator[Problem]:
    """E124: a train rusts on a LATER train type (else it would rust before being sold)."""
    order = {t.id: n for n, t in enumerate(title.trains.trains)}
    for i, t in enumerate(title.trains.trains):
        for key in ("rusts_on", "obsolete_on"):
            ref = getattr(t, key)
            if ref in order and order[ref] <= order[t.id] and ref != t.id:
                yield s.locate(
                    "trains",
                    ("trains", i, key),
                    "E124",
                    f"{t.id} {key.replace('_', ' ')} {ref}, which is sold before it",
                )


@check
def phase_triggers(title: Title, s: Sources) -> Iterator[Problem]:
    """E130: a phase starts on a known train; E131: only the first phase has no trigger."""
    ids = _train_ids(title)
    for i, p in enumerate(title.phases.phases):
        if i == 0 and p.on is not None:
            yield s.locate("phases", ("phases", i, "on"), "E131", "the first phase has no trigger")
        if i > 0 and p.on is None:
            yield s.locate("phases", ("phases", i), "E131", f"phase {p.id} has no 'on' train")
        if p.on is not None and p.on not in ids:
            yield s.locate("phases", ("phases", i, "on"), "E130", f"unknown train '{p.on}'")


@check
def phases_in_order(title: Title, s: Sources) -> Iterator[Problem]:
    """E132: phases follow the trains' sale order; E133: phase ids unique."""
    order = {t.id: n for n, t in enumerate(title.trains.trains)}
    for t in title.trains.trains:
        for v in t.variants:
            order[v.id] = order[t.id]
    last = -1
    seen: set[str] = set()
    for i, p in enumerate(title.phases.phases):
        if p.id in seen:
            yield s.locate("phases", ("phases", i, "id"), "E133", f"duplicate phase '{p.id}'")
        seen.add(p.id)
        if p.on in order:
            if order[p.on] < last:
                yield s.locate(
                    "phases",
                    ("phases", i, "on"),
                    "E132",
                    f"phase {p.id} starts on train {p.on}, sold before the previous phase's",
                )
            last = max(last, order[p.on])


@check
def phase_colours_grow(title: Title, s: Sources) -> Iterator[Problem]:
    """W134: a later phase does not take away a tile colour; E135: only layable colours."""
    prev: set[str] = set()
    for i, p in enumerate(title.phases.phases):
        now = {c.value for c in p.tiles}
        for j, c in enumerate(p.tiles):
            if c.value not in COLOR_ORDER[1:]:
                yield s.locate(
                    "phases", ("phases", i, "tiles", j), "E135", f"{c.value} tiles are never laid"
                )
        if prev - now:
            yield s.locate(
                "phases",
                ("phases", i, "tiles"),
                "W134",
                f"phase {p.id} drops colours {sorted(prev - now)}",
                severity=W,
            )
        prev = now


# ---------------------------------------------------------------------------------------
# corporations.toml


@check
def corporation_ids_unique(title: Title, s: Sources) -> Iterator[Problem]:
    """E140: corporation ids are unique, and distinct from private ids (when privates.toml
    loaded: duplicates among corporations are found either way)."""
    privates = title.privates
    seen: set[str] = set() if isinstance(privates, Missing) else {p.id for p in privates.privates}
    for i, c in enumerate(title.corporations.corporations):
        if c.id in seen:
            yield s.locate(
                "corporations", ("corporations", i, "id"), "E140", f"duplicate id '{c.id}'"
            )
        seen.add(c.id)


@check
def corporation_homes(title: Title, s: Sources) -> Iterator[Problem]:
    """E012: a home or variable_home is given; E141: home hex exists (and not with
    variable_home); E142: it has a city; E143: city
    index in range."""
    idx = hex_index(title)
    for i, c in enumerate(title.corporations.corporations):
        if c.home is None and c.variable_home is None:
            msg = "missing key 'home' (or variable_home)"
            yield s.locate("corporations", ("corporations", i), "E012", msg)
            continue
        if c.home is not None and c.variable_home is not None:
            msg = "a corporation with variable_home has no home"
            yield s.locate("corporations", ("corporations", i, "home"), "E141", msg)
            continue
        if c.home is None:
            continue
        if c.home not in idx:
            yield s.locate(
                "corporations", ("corporations", i, "home"), "E141", f"no hex {c.home} on the map"
            )
            continue
        h = title.map.hexes[idx[c.home]]
        if not h.cities:
            yield s.locate(
                "corporations",
                ("corporations", i, "home"),
                "E142",
                f"home {c.home} has no city",
            )
        elif c.city is not None and c.city >= len(h.cities):
            yield s.locate(
                "corporations",
                ("corporations", i, "city"),
                "E143",
                f"{c.home} has {len(h.cities)} cities; index {c.city} is out of range",
            )


@check
def homes_fit(title: Title, s: Sources) -> Iterator[Problem]:
    """E144: no city holds more homes than it has slots (per city, or per hex if unpinned)."""
    idx = hex_index(title)
    per_city: Counter[tuple[str, int | None]] = Counter()
    first: dict[tuple[str, int | None], int] = {}
    for i, c in enumerate(title.corporations.corporations):
        if c.home in idx and title.map.hexes[idx[c.home]].cities:
            per_city[(c.home, c.city)] += 1
            first.setdefault((c.home, c.city), i)
    for (hid, city), n in per_city.items():
        h = title.map.hexes[idx[hid]]
        if city is None:
            cap = sum(x.slots for x in h.cities)
        elif city < len(h.cities):
            cap = h.cities[city].slots
        else:
            continue
        fixed = sum(v for (hh, cc), v in per_city.items() if hh == hid and cc is not None)
        total = n if city is not None else n + fixed
        if total > cap:
            yield s.locate(
                "corporations",
                ("corporations", first[(hid, city)], "home"),
                "E144",
                f"{total} corporations have their home in {hid}, which has {cap} slot(s)",
            )


@check
def corporation_shares(title: Title, s: Sources) -> Iterator[Problem]:
    """E145: certificates sum to 100%; the president's is the largest."""
    for i, c in enumerate(title.corporations.corporations):
        if sum(c.shares) != 100:
            yield s.locate(
                "corporations",
                ("corporations", i, "shares"),
                "E145",
                f"certificates sum to {sum(c.shares)}%, not 100%",
            )
        elif c.shares and max(c.shares) != c.shares[0]:
            yield s.locate(
                "corporations",
                ("corporations", i, "shares", 0),
                "E145",
                "the first (president's) certificate must be the largest",
            )


#: The certificate size the engine plays: prices are per 10% share, sales go in 10% steps
#: and a sale moves the price per certificate, so every ordinary certificate is 10%.
SHARE_UNIT = 10


@check
def certificate_sizes(title: Title, s: Sources) -> Iterator[Problem]:
    """E147: certificates come in sizes the engine plays: ordinary ones of 10%, the
    president's a multiple of 10%."""
    for i, c in enumerate(title.corporations.corporations):
        if c.shares and c.shares[0] % SHARE_UNIT:
            msg = f"the president's certificate of {c.shares[0]}% is not a multiple of 10%"
            yield s.locate("corporations", ("corporations", i, "shares", 0), "E147", msg)
        for k, pct in enumerate(c.shares[1:], 1):
            if pct != SHARE_UNIT:
                msg = (
                    f"a {pct}% certificate: the engine plays ordinary certificates of 10% "
                    "only (prices are per 10% share)"
                )
                yield s.locate("corporations", ("corporations", i, "shares", k), "E147", msg)
                break


@check
def home_token_free(title: Title, s: Sources) -> Iterator[Problem]:
    """W146: the first token (home) normally costs nothing."""
    for i, c in enumerate(title.corporations.corporations):
        if c.tokens and c.tokens[0] != 0:
            yield s.locate(
                "corporations",
                ("corporations", i, "tokens", 0),
                "W146",
                f"home token costs ${c.tokens[0]}",
                severity=W,
            )


# ---------------------------------------------------------------------------------------
# privates.toml


@check
def private_ids_unique(title: Title, s: Sources) -> Iterator[Problem]:
    """E160: private ids are unique."""
    for i, pid in repeated(p.id for p in title.privates.privates):
        yield s.locate("privates", ("privates", i, "id"), "E160", f"duplicate '{pid}'")


@check
def takeover_train_exists(title: Title, s: Sources) -> Iterator[Problem]:
    """E122: rules.takeovers.leaving_train names a train of the title."""
    tk = title.title.rules.takeovers
    known = {t.id for t in title.trains.trains}
    if tk is not None and tk.leaving_train is not None and tk.leaving_train not in known:
        msg = f"unknown train '{tk.leaving_train}'"
        yield s.locate("title", ("rules", "takeovers", "leaving_train"), "E122", msg)


@check
def private_price_ranges(title: Title, s: Sources) -> Iterator[Problem]:
    """E165: a corporation can buy each private for some price: from value x
    private_price_min_factor (at least private_price_min) to value x private_price_max_factor
    (the range the engine offers; an empty one would offer sales it then refuses)."""
    rules = title.title.rules
    for i, p in enumerate(title.privates.privates):
        low = max(math.ceil(p.value * rules.private_price_min_factor), rules.private_price_min or 0)
        high = math.floor(p.value * rules.private_price_max_factor)
        if low > high:
            yield s.locate(
                "privates",
                ("privates", i, "value"),
                "E165",
                f"{p.id} has no price a corporation could pay: ${low} to ${high} "
                f"(value ${p.value}, rules private_price_min_factor "
                f"{rules.private_price_min_factor}, private_price_max_factor "
                f"{rules.private_price_max_factor}, private_price_min "
                f"${rules.private_price_min or 0})",
            )


@check
def ability_targets(title: Title, s: Sources) -> Iterator[Problem]:
    """E161 unknown hex, E162 unknown corporation, E163 unknown tile in a private's powers."""
    hexes = set(hex_index(title))
    corps = {c.id for c in title.corporations.corporations}
    tiles = set(title.tiles.manifest)
    for i, p in enumerate(title.privates.privates):
        for j, a in enumerate(p.abilities):
            base = ("privates", i, "abilities", j)
            if isinstance(a, BlockHexes | FreeTileLay):
                for k, h in enumerate(a.hexes):
                    if h not in hexes:
                        yield s.locate("privates", (*base, "hexes", k), "E161", f"no hex {h}")
            if (
                isinstance(a, GrantShare | ExchangeShare | CloseOnTrain)
                and a.corporation not in corps
            ):
                yield s.locate(
                    "privates",
                    (*base, "corporation"),
                    "E162",
                    f"unknown corporation '{a.corporation}'",
                )
            if isinstance(a, FreeTileLay):
                for k, t in enumerate(a.tiles):
                    if t not in tiles:
                        yield s.locate(
                            "privates", (*base, "tiles", k), "E163", f"tile '{t}' not in manifest"
                        )


@check
def president_grant_unique(title: Title, s: Sources) -> Iterator[Problem]:
    """E164: at most one private grants each corporation's president's certificate."""
    seen: set[str] = set()
    for i, p in enumerate(title.privates.privates):
        for j, a in enumerate(p.abilities):
            if isinstance(a, GrantShare) and a.president:
                if a.corporation in seen:
                    yield s.locate(
                        "privates",
                        ("privates", i, "abilities", j, "corporation"),
                        "E164",
                        f"{a.corporation}'s president's certificate is granted twice",
                    )
                seen.add(a.corporation)


# ---------------------------------------------------------------------------------------
# market.toml


def _cells(title: Title) -> Iterator[tuple[int, int, int, str]]:
    for r, row in enumerate(title.market.rows):
        for c, cell in enumerate(row):
            if cell:
                m = re.match(r"^([0-9]+)([a-z]*)$", cell)
                if m:
                    yield r, c, int(m.group(1)), m.group(2)


@check
def market_zone_letters(title: Title, s: Sources) -> Iterator[Problem]:
    """E170: every zone letter in a cell is declared in [zones]."""
    zones = title.market.zones
    for r, c, _, letters in _cells(title):
        for ch in letters:
            if ch not in zones:
                yield s.locate(
                    "market", ("rows", r, c), "E170", f"zone '{ch}' is not declared in [zones]"
                )


@check
def market_has_par(title: Title, s: Sources) -> Iterator[Problem]:
    """E171: the market has at least one par cell."""
    par = {k for k, z in title.market.zones.items() if z.par}
    if not any(set(letters) & par for *_, letters in _cells(title)):
        yield s.locate("market", ("rows",), "E171", "no par cell: no corporation could start")


@check
def market_shape(title: Title, s: Sources) -> Iterator[Problem]:
    """E172: a linear market has one row; W173: prices rise to the right along a row."""
    if title.market.type is MarketType.linear and len(title.market.rows) != 1:
        yield s.locate("market", ("rows",), "E172", "a linear market has exactly one row")
    for r, row in enumerate(title.market.rows):
        prices = [(c, int(re.match(r"^[0-9]+", x).group())) for c, x in enumerate(row) if x]  # type: ignore[union-attr]
        for (_, a), (c, b) in zip(prices, prices[1:], strict=False):
            if b < a:
                yield s.locate(
                    "market",
                    ("rows", r, c),
                    "W173",
                    f"price {b} is below {a} on its left",
                    severity=W,
                )


@check
def market_no_holes(title: Title, s: Sources) -> Iterator[Problem]:
    """E174: empty cells may only pad the start or end of a row, not split it."""
    for r, row in enumerate(title.market.rows):
        filled = [c for c, x in enumerate(row) if x]
        if filled:
            for c in range(filled[0], filled[-1] + 1):
                if not row[c]:
                    yield s.locate("market", ("rows", r, c), "E174", "a gap inside a market row")


# ---------------------------------------------------------------------------------------
# extensions (1833NE): bonuses, ferries, stubs, new private powers, reservations


def _phase_ids(title: Title) -> set[str]:
    return {p.id for p in title.phases.phases}


@check
def extension_hexes_exist(title: Title, s: Sources) -> Iterator[Problem]:
    """E190: bonus ends, ferry sea links and off-board conditions name hexes on the map."""
    hexes = set(hex_index(title))
    for i, b in enumerate(title.map.bonuses):
        for j, end in enumerate(b.between):
            for k, h in enumerate(end.hexes):
                if h not in hexes:
                    path = ("bonuses", i, "between", j, "hexes", k)
                    yield s.locate("map", path, "E190", f"bonus {b.id}: no hex {h}")
    if title.map.ferries is not None:
        for i, port in enumerate(title.map.ferries.ports):
            for k, h in enumerate(port.sea_link):
                if h not in hexes:
                    link = ("ferries", "ports", i, "sea_link", k)
                    yield s.locate("map", link, "E190", f"ferry sea link: no hex {h}")
    for i, hx in enumerate(title.map.hexes):
        if hx.offboard is not None:
            for k, ref in enumerate(hx.offboard.requires_visit):
                if ref not in hexes:
                    where = ("hexes", i, "offboard", "requires_visit", k)
                    yield s.locate("map", where, "E190", f"no hex {ref}")


def _phase_refs(title: Title) -> Iterator[tuple[str, tuple[str | int, ...], str, bool]]:
    """(file kind, path, phase id, is a table key) of every phase an extension names."""
    for i, b in enumerate(title.map.bonuses):
        for ph in b.values:
            yield "map", ("bonuses", i, "values", ph), ph, True
    f = title.map.ferries
    if f is not None:
        if f.leave_on is not None:
            yield "map", ("ferries", "leave_on"), f.leave_on, False
        for key in ("new_bonus", "last_bonus"):
            for ph in getattr(f, key):
                yield "map", ("ferries", key, ph), ph, True
        for i, port in enumerate(f.ports):
            for ph in port.values:
                yield "map", ("ferries", "ports", i, "values", ph), ph, True
    for i, pr in enumerate(title.privates.privates):
        for key in ("closes_on", "flips_on"):
            ph = getattr(pr, key)
            if ph is not None:
                yield "privates", ("privates", i, key), ph, False
        for j, a in enumerate(pr.abilities):
            lists: dict[str, list[str]] = {}
            if isinstance(a, BonusMultiplier):
                lists["phases"] = a.phases
            elif isinstance(a, RestrictCorporation):
                lists["no_track_phases"] = a.no_track_phases
            for key, names in lists.items():
                for k, ph in enumerate(names):
                    yield "privates", ("privates", i, "abilities", j, key, k), ph, False
    for i, c in enumerate(title.corporations.corporations):
        for j, r in enumerate(c.reservations):
            if r.ends_on is not None:
                path = ("corporations", i, "reservations", j, "ends_on")
                yield "corporations", path, r.ends_on, False
    tk = title.title.rules.takeovers
    if tk is not None:
        yield "title", ("rules", "takeovers", "from_phase"), tk.from_phase, False
    for i, c in enumerate(title.corporations.corporations):
        if c.available_from is not None:
            where = ("corporations", i, "available_from")
            yield "corporations", where, c.available_from, False


@check
def extension_phases_exist(title: Title, s: Sources) -> Iterator[Problem]:
    """E191: bonus and ferry values, private life cycles and reservations name known phases."""
    phases = _phase_ids(title)
    for kind, path, ph, key in _phase_refs(title):
        if ph not in phases:
            yield s.locate(kind, path, "E191", f"unknown phase '{ph}'", key=key)


@check
def bonus_ids_unique(title: Title, s: Sources) -> Iterator[Problem]:
    """E192: bonus ids are unique."""
    for i, bid in repeated(b.id for b in title.map.bonuses):
        yield s.locate("map", ("bonuses", i, "id"), "E192", f"duplicate bonus '{bid}'")


@check
def ferry_ports(title: Title, s: Sources) -> Iterator[Problem]:
    """E193: a ferry port is a map hex with a city or town, listed once."""
    if title.map.ferries is None:
        return
    idx = hex_index(title)
    seen: set[str] = set()
    for i, port in enumerate(title.map.ferries.ports):
        path = ("ferries", "ports", i, "hex")
        if port.hex not in idx:
            yield s.locate("map", path, "E193", f"no hex {port.hex}")
        elif port.hex in seen:
            yield s.locate("map", path, "E193", f"{port.hex} is a ferry port twice")
        else:
            h = title.map.hexes[idx[port.hex]]
            if not h.cities and not h.towns:
                yield s.locate("map", path, "E193", f"ferry port {port.hex} has no city or town")
        seen.add(port.hex)


@check
def extension_ability_targets(title: Title, s: Sources) -> Iterator[Problem]:
    """E194: the newer private powers name known hexes, tiles, corporations and bonuses."""
    hexes = set(hex_index(title))
    corps = {c.id for c in title.corporations.corporations}
    tiles = set(title.tiles.manifest)
    bonuses = {b.id for b in title.map.bonuses}
    for i, p in enumerate(title.privates.privates):
        for j, a in enumerate(p.abilities):
            base: tuple[str | int, ...] = ("privates", i, "abilities", j)
            refs: list[tuple[tuple[str | int, ...], str, set[str], str]] = []
            if isinstance(a, TileLays):
                for k, lay in enumerate(a.lays):
                    at = (*base, "lays", k)
                    refs.append(((*at, "hex"), lay.hex, hexes, "hex"))
                    refs += [
                        ((*at, "tiles", n), t, tiles, "manifest tile")
                        for n, t in enumerate(lay.tiles)
                    ]
                    refs += [
                        ((*at, "toward", n), h, hexes, "hex") for n, h in enumerate(lay.toward)
                    ]
            elif isinstance(a, VirtualStation):
                refs.append(((*base, "hex"), a.hex, hexes, "hex"))
            elif isinstance(a, ExclusiveHexes):
                refs += [((*base, "hexes", k), h, hexes, "hex") for k, h in enumerate(a.hexes)]
            elif isinstance(a, BonusMultiplier):
                refs += [
                    ((*base, "bonuses", k), b, bonuses, "bonus") for k, b in enumerate(a.bonuses)
                ]
            elif isinstance(a, RestrictCorporation):
                refs.append(((*base, "corporation"), a.corporation, corps, "corporation"))
                if a.no_routes_until_upgraded is not None:
                    hid = a.no_routes_until_upgraded
                    refs.append(((*base, "no_routes_until_upgraded"), hid, hexes, "hex"))
            for path, ref, known, what in refs:
                if ref not in known:
                    yield s.locate("privates", path, "E194", f"unknown {what} '{ref}'")


@check
def corporation_extension_targets(title: Title, s: Sources) -> Iterator[Problem]:
    """E195: reservations, station prices and joint tokens name city hexes and partners."""
    idx = hex_index(title)
    corps = {c.id for c in title.corporations.corporations}

    def city_problem(hid: str) -> str | None:
        if hid not in idx:
            return f"no hex {hid} on the map"
        if not title.map.hexes[idx[hid]].cities:
            return f"{hid} has no city"
        return None

    for i, c in enumerate(title.corporations.corporations):
        base: tuple[str | int, ...] = ("corporations", i)
        for j, r in enumerate(c.reservations):
            msg = city_problem(r.hex)
            if msg:
                yield s.locate("corporations", (*base, "reservations", j, "hex"), "E195", msg)
        for hid in c.station_costs:
            msg = city_problem(hid)
            if msg:
                path = (*base, "station_costs", hid)
                yield s.locate("corporations", path, "E195", msg, key=True)
        jt = c.joint_token
        if jt is not None:
            msg = city_problem(jt.hex)
            if msg:
                yield s.locate("corporations", (*base, "joint_token", "hex"), "E195", msg)
            if jt.partner not in corps or jt.partner == c.id:
                path = (*base, "joint_token", "partner")
                msg = f"unknown partner corporation '{jt.partner}'"
                yield s.locate("corporations", path, "E195", msg)


@check
def cert_limit_by_corporations(title: Title, s: Sources) -> Iterator[Problem]:
    """E196: the certificate limit by corporations in play covers every player count."""
    table = title.title.certificate_limit_by_corporations
    if table is None or title.title.players.min > title.title.players.max:
        return
    key = "certificate_limit_by_corporations"
    for n in _player_counts(title):
        if str(n) not in table:
            yield s.locate("title", (key,), "E196", f"no limits for {n} players")
    for k, row in table.items():
        if not k.isdigit() or int(k) not in _player_counts(title):
            yield s.locate(
                "title", (key, k), "E196", f"'{k}' is not an allowed player count", key=True
            )
        for corps in row:
            if not corps.isdigit():
                path = (key, k, corps)
                msg = f"'{corps}' is not a number of corporations"
                yield s.locate("title", path, "E196", msg, key=True)


@check
def stubs_lead_somewhere(title: Title, s: Sources) -> Iterator[Problem]:
    """W197: a stub (dead-end track) should face a hex of the map."""
    from eighteen.title.geometry import neighbor_id as neighbor

    ids = set(hex_index(title))
    for hid, _, i in hex_entries(title):
        for k, e in enumerate(title.map.hexes[i].stubs):
            if neighbor(hid, e, title.map.layout.value) not in ids:
                path = ("hexes", i, "stubs", k)
                msg = f"{hid}: stub on edge {e} leads off the map"
                yield s.locate("map", path, "W197", msg, severity=W)


@check
def engine_can_run(title: Title, s: Sources) -> Iterator[Problem]:
    """E198: the title asks for something no implementation of the engine has registered
    (the engine refuses such a title; eighteen.capabilities is what both read)."""
    from eighteen.capabilities import findings
    from eighteen.title.compile import compile_title

    for kind, path, what in findings(compile_title(title)):
        msg = f"the engine cannot play {what}: games of this title would be refused"
        yield s.locate(kind, path, "E198", msg)
