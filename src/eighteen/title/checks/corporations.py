"""Cross-reference checks: corporations.toml."""

from __future__ import annotations

from collections.abc import Iterator

from eighteen.title.aggregate import Missing, Title
from eighteen.title.checks.common import hex_index
from eighteen.title.checks.market import market_cells
from eighteen.title.checks.registry import W, check
from eighteen.title.problems import Problem
from eighteen.title.sources import Sources


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
                f"{c.home} has {len(h.cities)} {'city' if len(h.cities) == 1 else 'cities'}; "
                f"index {c.city} is out of range",
            )


@check
def homes_fit(title: Title, s: Sources) -> Iterator[Problem]:
    """E144: no city holds more homes than it has slots (per city, or per hex if unpinned).
    Reported at the home of the last corporation listed there (the one that does not fit,
    in an overlay the one it adds), naming every corporation homed there."""
    idx = hex_index(title)
    corps = title.corporations.corporations
    per_city: dict[tuple[str, int | None], list[int]] = {}
    for i, c in enumerate(corps):
        if c.home in idx and title.map.hexes[idx[c.home]].cities:
            per_city.setdefault((c.home, c.city), []).append(i)
    for (hid, city), homed in per_city.items():
        h = title.map.hexes[idx[hid]]
        if city is None:
            cap = sum(x.slots for x in h.cities)
            homed = [i for i, c in enumerate(corps) if c.home == hid]  # (pinned ones too)
        elif city < len(h.cities):
            cap = h.cities[city].slots
        else:
            continue
        if len(homed) > cap:
            names = ", ".join(corps[i].id for i in homed)
            where = hid if city is None else f"{hid} (city {city})"
            yield s.locate(
                "corporations",
                ("corporations", homed[-1], "home"),
                "E144",
                f"{len(homed)} corporations ({names}) have their home in {where}, which has "
                f"{cap} slot(s)",
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


@check
def president_within_holding_limit(title: Title, s: Sources) -> Iterator[Problem]:
    """E148: a president's certificate fits the holding limit (rules.holding_limit_percent),
    unless a par cell is exempt from it: else no player may start the corporation."""
    limit = title.title.rules.holding_limit_percent
    zones = title.market.zones
    for *_, letters in market_cells(title):
        flags = [zones[z] for z in letters if z in zones]
        if any(z.par for z in flags) and any(z.holding_limit_exempt for z in flags):
            return  # (a corporation may start there, over the limit)
    for i, c in enumerate(title.corporations.corporations):
        if c.shares and c.shares[0] > limit:
            yield s.locate(
                "corporations",
                ("corporations", i, "shares", 0),
                "E148",
                f"{c.id}'s president's certificate of {c.shares[0]}% is over the holding "
                f"limit of {limit}% (rules.holding_limit_percent): no player may start it",
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
