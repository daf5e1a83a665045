"""Cross-reference checks: extensions (1833NE): bonuses, ferries, stubs, new private powers, reservations."""

from __future__ import annotations

from collections.abc import Iterator

from eighteen.capabilities import findings
from eighteen.title.aggregate import Title
from eighteen.title.checks.common import hex_entries, hex_index, player_counts, repeated
from eighteen.title.checks.registry import W, check
from eighteen.title.compile import compiled_document
from eighteen.title.geometry import neighbor_id as neighbor
from eighteen.title.model import (
    BonusMultiplier,
    ExclusiveHexes,
    RestrictCorporation,
    TileLays,
    VirtualStation,
)
from eighteen.title.problems import Problem
from eighteen.title.sources import Sources


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
    """E196: the certificate limit by corporations in play covers every player count (a
    key that is a count outside the allowed range: W154, as in the other per-count
    tables)."""
    table = title.title.certificate_limit_by_corporations
    if table is None or title.title.players.min > title.title.players.max:
        return
    key = "certificate_limit_by_corporations"
    for n in player_counts(title):
        if str(n) not in table:
            yield s.locate("title", (key,), "E196", f"no limits for {n} players")
    for k, row in table.items():
        if not k.isdigit():
            yield s.locate(
                "title", (key, k), "E196", f"'{k}' is not an allowed player count", key=True
            )
        elif int(k) not in player_counts(title):
            msg = f"'{k}' is not an allowed player count"
            yield s.locate("title", (key, k), "W154", msg, severity=W, key=True)
        for corps in row:
            if not corps.isdigit():
                path = (key, k, corps)
                msg = f"'{corps}' is not a number of corporations"
                yield s.locate("title", path, "E196", msg, key=True)


@check
def stubs_lead_somewhere(title: Title, s: Sources) -> Iterator[Problem]:
    """W197: a stub (dead-end track) should face a hex of the map."""
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
    for kind, path, what in findings(compiled_document(title)):
        msg = f"the engine cannot play {what}: games of this title would be refused"
        yield s.locate(kind, path, "E198", msg)
