"""From per-game records to summary.json: the figures of one title, and for two titles
every difference with its interval, p and false-discovery q (docs/simulate.md).

Statistics cover the finished games (a game cut off at the action limit counts only in
``end_reasons`` as ``unfinished``). Keys and lists are in a fixed order, and nothing here
depends on time or on how the games were spread over workers.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from eighteen.engine.tables import Tables
from eighteen.sim.stats import ALPHA, _r, difference, equal_shares, fdr, mean_ci, wilson

Record = dict[str, Any]
Metrics = dict[str, float | None]

#: The version of summary.json's shape. 2: each difference has its measure, unit, p, test,
#: q and discovery, ``a`` and ``b`` are over its pairs; the comparison has ``pairs``,
#: ``alpha`` and ``counts``; intervals of means are Student's t (1: normal).
FORMAT = 2


def _seats(records: Sequence[Record]) -> int:
    return len(records[0]["values"]) if records else 0


def metrics(record: Record, tables: Tables, seat_bound: Collection[str] = ()) -> Metrics:
    """The per-game numbers that are compared between titles (None: not applicable).

    With more than one bot, each bot's too, but those of ``seat_bound`` (:func:`_seat_bound`:
    their figures are one seat's, compared already)."""
    out: Metrics = {}
    done = record["finished"]
    for i, (w, v) in enumerate(zip(record["wins"], record["values"], strict=True)):
        out[f"seat {i + 1} win rate"] = w if done else None
        out[f"seat {i + 1} final value"] = v if done else None
    labels = sorted(set(record["bots"]))
    if len(labels) > 1:  # each bot over the seats it holds (with --rotate, seat by seat)
        for label in labels:
            if label in seat_bound:
                continue
            held = [i for i, b in enumerate(record["bots"]) if b == label]
            wins = sum(record["wins"][i] for i in held) / len(held)
            value = sum(record["values"][i] for i in held) / len(held)
            out[f"bot {label} win rate"] = wins if done else None
            out[f"bot {label} final value"] = value if done else None
    for pid, owner in record["private_owners"].items():
        ok = done and owner is not None
        out[f"private {pid} owner rank"] = record["ranks"][owner] if ok else None
        out[f"private {pid} owner value"] = record["values"][owner] if ok else None
    for cid, c in record["corporations"].items():
        out[f"{cid} float rate"] = float(c["floated"]) if done else None
        out[f"{cid} final price"] = c["final_price"] if done else None
        per_or = c["revenue"] / c["operating_rounds"] if c["operating_rounds"] else None
        out[f"{cid} revenue per OR"] = per_or if done else None
        if record["takeovers_held"]:
            out[f"{cid} taken over rate"] = float(c["taken_over_by"] is not None) if done else None
    out["sets"] = record["sets"] if done else None
    out["operating rounds"] = record["operating_rounds"] if done else None
    out["actions"] = record["actions"] if done else None
    out["bankruptcy rate"] = float(bool(record["bankrupt"])) if done else None
    if record["takeovers_held"]:
        out["takeovers"] = record["takeovers"] if done else None
    for pid, at in record["phases"].items():
        out[f"phase {pid} began (OR)"] = at["or"] if done else None
    return out


def title_summary(records: Sequence[Record], tables: Tables) -> dict[str, Any]:
    """Every figure of one title's games."""
    done = [r for r in records if r["finished"]]
    seats = _seats(records)
    n = len(done)
    out: dict[str, Any] = {
        "title": tables.id,
        "name": tables.name,
        "version": tables.version,
        "hash": tables.hash,
        "games": len(records),
        "finished": n,
    }
    out["seats"] = [
        {
            "seat": i + 1,
            "player": f"Player{i + 1}",
            "bots": sorted({r["bots"][i] for r in records}),
            "win_rate": wilson(sum(r["wins"][i] for r in done), n),
            "final_value": mean_ci([r["values"][i] for r in done]),
            "mean_rank": mean_ci([r["ranks"][i] for r in done]),
        }
        for i in range(seats)
    ]
    # does a seat win more often than the others? (read with the same bot in every seat,
    # or with --rotate: otherwise the bots differ as much as the seats)
    out["seat_balance"] = equal_shares([sum(r["wins"][i] for r in done) for i in range(seats)])
    labels = sorted({b for r in records for b in r["bots"]})
    out["bots"] = {
        label: {
            "seat_games": sum(r["bots"].count(label) for r in done),
            "win_rate": wilson(
                sum(
                    w for r in done for w, b in zip(r["wins"], r["bots"], strict=True) if b == label
                ),
                sum(r["bots"].count(label) for r in done),
            ),
            "final_value": mean_ci(
                [v for r in done for v, b in zip(r["values"], r["bots"], strict=True) if b == label]
            ),
        }
        for label in labels
    }
    out["privates"] = {}
    for p in tables.privates:
        pid = p.id
        owned = [r for r in done if r["private_owners"].get(pid) is not None]
        out["privates"][pid] = {
            "name": p.name,
            "sold_in": len(owned),
            "owner_rank": mean_ci([r["ranks"][r["private_owners"][pid]] for r in owned]),
            "owner_value": mean_ci([r["values"][r["private_owners"][pid]] for r in owned]),
        }
    out["corporations"] = {}
    for c in tables.corporations:
        cid = c.id
        rows = [r["corporations"][cid] for r in done]
        per_or = [x["revenue"] / x["operating_rounds"] for x in rows if x["operating_rounds"]]
        out["corporations"][cid] = {
            "color": c.color,  # the title's, for the plots
            "float_rate": wilson(sum(1 for x in rows if x["floated"]), n),
            "final_price": mean_ci(
                [x["final_price"] for x in rows if x["final_price"] is not None]
            ),
            "revenue_per_or": mean_ci(per_or),
            "price_path": _price_path(rows),
            "taken_over_rate": wilson(sum(1 for x in rows if x["taken_over_by"]), n),
            "takeovers_made": mean_ci([x["took_over"] for x in rows]),
        }
    out["length"] = {
        "sets": _spread([r["sets"] for r in done]),
        "operating_rounds": _spread([r["operating_rounds"] for r in done]),
        "actions": _spread([r["actions"] for r in done]),
    }
    reasons = sorted({str(r["end_reason"]) for r in records})
    out["end_reasons"] = {
        reason: wilson(sum(1 for r in records if str(r["end_reason"]) == reason), len(records))
        for reason in reasons
    }
    # each reason's seeds: a game that ended oddly can be played again (`eighteen play
    # TITLE --seed SEED` with the same bots)
    out["end_seeds"] = {
        reason: sorted(r["seed"] for r in records if str(r["end_reason"]) == reason)
        for reason in reasons
    }
    out["takeovers"] = {
        "held": any(r["takeovers_held"] for r in records),
        "games": wilson(sum(1 for r in done if r["takeovers"]), n),
        "per_game": mean_ci([r["takeovers"] for r in done]),
    }
    out["bankruptcies"] = {
        "games": wilson(sum(1 for r in done if r["bankrupt"]), n),
        "by_seat": [sum(1 for r in done if i in r["bankrupt"]) for i in range(seats)],
    }
    out["phases"] = {}
    for ph in tables.phases:
        pid = str(ph.id)
        reached = [r["phases"][pid] for r in done if pid in r["phases"]]
        out["phases"][pid] = {
            "reached": wilson(len(reached), n),
            "began_or": mean_ci([x["or"] for x in reached]),
            "began_set": mean_ci([x["set"] for x in reached]),
            "began_action": mean_ci([x["action"] for x in reached]),
        }
    return out


def _spread(xs: list[int]) -> dict[str, Any]:
    """The mean with its interval, and the spread: min, the 10th, 50th and 90th
    percentiles (nearest rank: each is one of the values) and max."""
    est = mean_ci(xs)
    ranked = sorted(xs)
    est["min"] = ranked[0] if xs else None
    for name, q in (("p10", 10), ("median", 50), ("p90", 90)):
        est[name] = ranked[max(0, math.ceil(q * len(ranked) / 100) - 1)] if xs else None
    est["max"] = ranked[-1] if xs else None
    return est


def _price_path(rows: list[dict[str, Any]]) -> list[float | None]:
    """Mean share price after each operating round, over the games where it had one."""
    length = max((len(x["prices"]) for x in rows), default=0)
    path: list[float | None] = []
    for k in range(length):
        at = [x["prices"][k] for x in rows if k < len(x["prices"]) and x["prices"][k] is not None]
        path.append(_r(sum(at) / len(at)) if at else None)
    return path


#: Each measure compared, by the end of its metric's name (``seat 2 win rate``, ``CPR
#: final price``, ``sets``), and its unit: a rate (0 to 1), money ($), or a count.
MEASURES = {
    "win rate": "rate",
    "final value": "money",
    "owner rank": "count",
    "owner value": "money",
    "float rate": "rate",
    "final price": "money",
    "revenue per OR": "money",
    "taken over rate": "rate",
    "sets": "count",
    "operating rounds": "count",
    "actions": "count",
    "bankruptcy rate": "rate",
    "takeovers": "count",
    "began (OR)": "count",
}
END = "end reason"  # the measure of ``end: REASON`` (a rate)


def measure(metric: str) -> tuple[str, str]:
    """(measure, unit) of a compared metric's name, e.g. ("final price", "money")."""
    if metric.startswith("end: "):
        return END, "rate"
    for name, unit in MEASURES.items():
        if metric == name or metric.endswith(f" {name}"):
            return name, unit
    raise KeyError(f"no measure ends the metric {metric!r}")


def _compared(metric: str, xs: list[float | None], ys: list[float | None]) -> dict[str, Any]:
    name, unit = measure(metric)
    d = difference(xs, ys, paired=True, bounds=(-1.0, 1.0) if unit == "rate" else None)
    return {"metric": metric, "measure": name, "unit": unit, **d}


def _seat_bound(records: Sequence[Record]) -> list[str]:
    """The bots that hold one seat, the same in every game (no --rotate): each bot's
    measures then repeat that seat's."""
    held: dict[str, set[tuple[int, ...]]] = {}
    for r in records:
        for label in set(r["bots"]):
            held.setdefault(label, set()).add(
                tuple(i for i, b in enumerate(r["bots"]) if b == label)
            )
    return sorted(label for label, ways in held.items() if len(ways) == 1 and len(*ways) == 1)


def compare(
    a: Sequence[Record], b: Sequence[Record], ta: Tables, tb: Tables
) -> list[dict[str, Any]]:
    """Every metric both titles have: b minus a, paired by seed; ``a`` and ``b`` are the
    means over the pairs the difference covers. Each has its p, and its Benjamini–Hochberg
    q among all the differences that have a p."""
    bound = _seat_bound([*a, *b])
    ma = [metrics(r, ta, bound) for r in a]
    mb = [metrics(r, tb, bound) for r in b]
    names_a = list(dict.fromkeys(k for m in ma for k in m))
    names_b = {k for m in mb for k in m}
    reasons = sorted({str(r["end_reason"]) for r in [*a, *b]})
    out = [
        _compared(name, [m.get(name) for m in ma], [m.get(name) for m in mb])
        for name in names_a
        if name in names_b
    ]
    for reason in reasons:
        xs: list[float | None] = [float(str(r["end_reason"]) == reason) for r in a]
        ys: list[float | None] = [float(str(r["end_reason"]) == reason) for r in b]
        out.append(_compared(f"end: {reason}", xs, ys))
    for d, q in zip(out, fdr([d["p"] for d in out]), strict=True):
        d["q"] = q
        d["discovery"] = q is not None and q < ALPHA
    return out


def tally(differences: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """How many differences there are, how many are significant (p < ALPHA) and how many
    are discoveries (q < ALPHA): in all, and per measure in the order first compared."""

    def count(ds: Sequence[dict[str, Any]]) -> dict[str, int]:
        return {
            "differences": len(ds),
            "tested": sum(1 for d in ds if d["p"] is not None),
            "significant": sum(1 for d in ds if d["significant"]),
            "discoveries": sum(1 for d in ds if d["discovery"]),
        }

    names = list(dict.fromkeys(d["measure"] for d in differences))
    return {
        **count(differences),
        "by_measure": {n: count([d for d in differences if d["measure"] == n]) for n in names},
    }


def _version() -> str | None:
    """The version of eighteen that played the games (None when it is not installed)."""
    try:
        return version("eighteen")
    except PackageNotFoundError:
        return None


def summarize(
    records: dict[str, list[Record]],
    tables: dict[str, Tables],
    *,
    games: int,
    players: int,
    seed: int,
    bots: list[str],
    rotate: bool,
    options: Sequence[str] = (),
    side_options: Mapping[str, Sequence[str]] | None = None,
    max_actions: int,
) -> dict[str, Any]:
    """summary.json: the run's settings, each title's figures, and the comparison.

    A title may be a side's name (``1830+optional_6_train``: its title played with more
    options, which ``side_options`` gives); each result has the options it was played
    with."""
    ids = list(records)
    out: dict[str, Any] = {
        "format": FORMAT,
        "eighteen": _version(),
        "titles": ids,
        "games": games,
        "players": players,
        "seed": seed,
        "seeds": [seed, seed + games - 1],
        "bots": bots,
        "rotate": rotate,
        "options": list(options),
        "max_actions": max_actions,
        "results": {
            tid: {
                **title_summary(records[tid], tables[tid]),
                "options": list((side_options or {}).get(tid, options)),
            }
            for tid in ids
        },
    }
    if len(ids) == 2:
        a, b = ids
        differences = compare(records[a], records[b], tables[a], tables[b])
        out["comparison"] = {
            "a": a,
            "b": b,
            # the seeds both titles' games finished: the pairs of every metric but the ends
            "pairs": sum(
                1
                for x, y in zip(records[a], records[b], strict=True)
                if x["finished"] and y["finished"]
            ),
            "alpha": ALPHA,
            "counts": tally(differences),
            "differences": differences,
        }
    return out
