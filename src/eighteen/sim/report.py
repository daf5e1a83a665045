"""report.html: the summary as tables and plots (matplotlib figures inlined as SVG).

The page is one self-contained file: no script or style is fetched. A short script checks
that each plot was drawn (its SVG has a visible size) and marks the page ready, which the
browser test reads.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from typing import Any

import jinja2

from eighteen.sim.stats import ALPHA, MIN_EXPECTED

Record = dict[str, Any]

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update(
        {
            "svg.fonttype": "none",  # text stays text: smaller, selectable
            "svg.hashsalt": "eighteen",  # stable element ids
            "font.size": 9,
            "axes.spines.top": False,
            "axes.spines.right": False,
        }
    )
    return plt


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    _pyplot().close(fig)
    text = buf.getvalue()
    return text[text.index("<svg") :]


def _err(est: dict[str, Any], key: str) -> tuple[float, float, float]:
    value = est[key] or 0.0
    ci = est["ci"] or [value, value]
    return value, value - ci[0], ci[1] - value


def plot_win_rates(summary: dict[str, Any]) -> str:
    plt = _pyplot()
    ids = summary["titles"]
    seats = summary["players"]
    fig, ax = plt.subplots(figsize=(6.5, 3.2))
    width = 0.8 / len(ids)
    for k, tid in enumerate(ids):
        rows = summary["results"][tid]["seats"]
        xs = [i + (k - (len(ids) - 1) / 2) * width for i in range(seats)]
        vals = [_err(r["win_rate"], "rate") for r in rows]
        ax.bar(
            xs,
            [v[0] for v in vals],
            width,
            yerr=[[v[1] for v in vals], [v[2] for v in vals]],
            capsize=3,
            color=COLOURS[k % len(COLOURS)],
            label=tid,
        )
    ax.axhline(1 / seats, color="grey", lw=0.8, ls="--")
    ax.set_xticks(range(seats), [f"seat {i + 1}" for i in range(seats)])
    ax.set_ylabel("win rate (95% CI)")
    ax.set_ylim(0, 1)
    ax.legend(frameon=False)
    return _svg(fig)


def plot_values(summary: dict[str, Any], records: dict[str, list[Record]]) -> str:
    plt = _pyplot()
    ids = summary["titles"]
    seats = summary["players"]
    fig, ax = plt.subplots(figsize=(6.5, 3.2))
    width = 0.8 / len(ids)
    for k, tid in enumerate(ids):
        done = [r for r in records[tid] if r["finished"]]
        data = [[r["values"][i] for r in done] or [0] for i in range(seats)]
        xs = [i + (k - (len(ids) - 1) / 2) * width for i in range(seats)]
        parts = ax.boxplot(data, positions=xs, widths=width * 0.9, patch_artist=True)
        for box in parts["boxes"]:
            box.set_facecolor(COLOURS[k % len(COLOURS)])
            box.set_alpha(0.6)
        ax.plot([], [], color=COLOURS[k % len(COLOURS)], lw=6, alpha=0.6, label=tid)
    ax.set_xticks(range(seats), [f"seat {i + 1}" for i in range(seats)])
    ax.set_ylabel("final value ($)")
    ax.legend(frameon=False)
    return _svg(fig)


def plot_phases(summary: dict[str, Any]) -> str:
    plt = _pyplot()
    ids = summary["titles"]
    fig, ax = plt.subplots(figsize=(6.5, 0.9 + 0.6 * len(ids)))
    for k, tid in enumerate(ids):
        phases = summary["results"][tid]["phases"]
        for name, ph in phases.items():
            if ph["began_or"]["mean"] is None:
                continue
            x, lo, hi = _err(ph["began_or"], "mean")
            ax.errorbar(
                x, k, xerr=[[lo], [hi]], fmt="o", color=COLOURS[k % len(COLOURS)], capsize=3
            )
            ax.annotate(name, (x, k), textcoords="offset points", xytext=(0, 7), ha="center")
    ax.set_yticks(range(len(ids)), ids)
    ax.set_ylim(-0.6, len(ids) - 0.2)
    ax.set_xlabel("operating round in which the phase began (mean, 95% CI)")
    return _svg(fig)


def _line_style(color: Any, used: set[str], fallback: Any) -> tuple[Any, str]:
    """A corporation's own colour for its line (a very light one drawn gray), dashed when
    another line of the plot already has that colour; ``fallback`` if it has none."""
    from matplotlib.colors import to_hex, to_rgb

    try:
        r, g, b = to_rgb(color)
    except (TypeError, ValueError):
        r, g, b = to_rgb(fallback)
    if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.85:  # white or nearly: invisible on white
        r, g, b = 0.55, 0.55, 0.55
    key = to_hex((r, g, b))
    style = "--" if key in used else "-"
    used.add(key)
    return key, style


def plot_prices(summary: dict[str, Any], records: dict[str, list[Record]]) -> str:
    """Mean share price after each operating round, drawn while at least a quarter of the
    finished games (two at least) had the corporation on the market."""
    plt = _pyplot()
    ids = summary["titles"]
    fig, axes = plt.subplots(1, len(ids), figsize=(6.5 * len(ids) / 1.3, 3.2), squeeze=False)
    for ax, tid in zip(axes[0], ids, strict=True):
        done = [r for r in records[tid] if r["finished"]]
        enough = max(2, len(done) // 4)
        used: set[str] = set()
        drawn = False
        for j, (cid, corp) in enumerate(summary["results"][tid]["corporations"].items()):
            paths = [r["corporations"][cid]["prices"] for r in done]
            xs, ys = [], []
            for k in range(max((len(p) for p in paths), default=0)):
                at = [p[k] for p in paths if k < len(p) and p[k] is not None]
                if len(at) >= enough:
                    xs.append(k + 1)
                    ys.append(sum(at) / len(at))
            if xs:
                color, style = _line_style(corp.get("color"), used, plt.cm.tab10(j % 10))
                ax.plot(xs, ys, lw=1.2, label=cid, color=color, ls=style)
                drawn = True
        ax.set_title(tid)
        ax.set_xlabel("after operating round")
        ax.set_ylabel("mean share price ($)")
        if drawn:  # (too few games for any path: no empty legend)
            ax.legend(frameon=False, fontsize=7, ncol=2)
    return _svg(fig)


def plot_lengths(summary: dict[str, Any], records: dict[str, list[Record]]) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.5, 3.0))
    drawn = False
    for k, tid in enumerate(summary["titles"]):
        ors = [r["operating_rounds"] for r in records[tid] if r["finished"]]
        if ors:
            ax.hist(
                ors,
                bins=range(min(ors), max(ors) + 2),
                alpha=0.55,
                color=COLOURS[k % len(COLOURS)],
                label=tid,
            )
            drawn = True
    ax.set_xlabel("operating rounds in the game")
    ax.set_ylabel("games")
    if drawn:  # (no game finished: no histogram, and no empty legend)
        ax.legend(frameon=False)
    else:
        ax.text(0.5, 0.5, "no game finished", ha="center", va="center", transform=ax.transAxes)
    return _svg(fig)


_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("eighteen.sim", "templates"),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
)


def _fmt(x: Any, digits: int = 1) -> str:
    if x is None:
        return "–"
    if isinstance(x, float) and abs(x) < 10 and digits:
        return f"{x:.3g}"
    return f"{x:,.{digits}f}" if isinstance(x, float) else f"{x:,}"


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _ci(est: dict[str, Any], key: str = "mean", pct: bool = False) -> str:
    f = _pct if pct else _fmt
    v = est.get(key)
    if v is None:
        return "–"
    if not est.get("ci"):
        return f(v)
    lo, hi = est["ci"]
    return f"{f(v)} [{f(lo)}, {f(hi)}]"


def _dollars(x: float) -> int:
    """Whole dollars, halves away from zero (7.5 is $8, -7.5 is -$8)."""
    return int(math.copysign(math.floor(abs(x) + 0.5), x))


def value_text(x: float | None, unit: str, signed: bool = False) -> str:
    """A compared measure's value in its unit: money in whole dollars with thousands
    separators ($1,240), a rate in percent (a difference of rates in percentage points,
    pp), a count to three significant digits (whole from 100 up, at most four decimals,
    never in scientific notation)."""
    if x is None:
        return "–"
    if unit == "money":
        v = _dollars(x)
        sign = "-" if v < 0 else "+" if signed else ""
        return f"{sign}${abs(v):,}"
    if unit == "rate":
        return f"{100 * x:+.1f} pp" if signed else f"{100 * x:.1f}%"
    places = 0 if x == 0 else min(4, max(0, 2 - math.floor(math.log10(abs(x)))))
    return f"{x:+,.{places}f}" if signed else f"{x:,.{places}f}"


def difference_text(d: dict[str, Any]) -> str:
    """A difference with its 95% interval, e.g. ``+$1,240 [+$153, +$2,330]``; when it has
    no interval, why."""
    unit = d["unit"]
    v = value_text(d["difference"], unit, signed=True)
    if d["difference"] is None:
        return v
    if d["ci"] is None:
        return f"{v} (1 pair)" if d["n"] == 1 else f"{v} (the same in all {d['n']} pairs)"
    lo, hi = (value_text(x, unit, signed=True) for x in d["ci"])
    return f"{v} [{lo}, {hi}]"


def p_text(p: float | None) -> str:
    """A p or q value to three decimals (below 0.001: "<0.001")."""
    if p is None:
        return "–"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def balance_text(s: dict[str, Any], rotate: bool) -> str | None:
    """What a title's ``seat_balance`` says, for the text summary and the report; None when
    it says nothing of the seats (they hold different bots, unrotated) or no game ended."""
    b = s["seat_balance"]
    if b["chi2"] is None or b["df"] < 1 or not (rotate or len(s["bots"]) == 1):
        return None
    if b["p"] is None:
        return (
            f"too few games to judge (fewer than {MIN_EXPECTED} expected wins per seat; "
            f"chi-square {b['chi2']:.1f}, {b['df']} df)"
        )
    verdict = (
        "the seats do not win equally often"
        if b["p"] < ALPHA
        else "no seat wins more often than chance allows"
    )
    return f"chi-square {b['chi2']:.1f} ({b['df']} df), p {p_text(b['p'])}: {verdict}"


_ENV.filters["fmt"] = _fmt
_ENV.filters["pct"] = _pct
_ENV.filters["p"] = p_text
_ENV.globals["balance_text"] = balance_text
_ENV.globals["ci"] = _ci
_ENV.globals["value"] = value_text
_ENV.globals["difference"] = difference_text


def render_report(summary: dict[str, Any], records: dict[str, list[Record]]) -> str:
    """The whole page."""
    plots: Sequence[tuple[str, str]] = [
        ("Seat win rates", plot_win_rates(summary)),
        ("Final value by seat", plot_values(summary, records)),
        ("Phase timelines", plot_phases(summary)),
        ("Share price paths", plot_prices(summary, records)),
        ("Game length", plot_lengths(summary, records)),
    ]
    return _ENV.get_template("report.html.j2").render(summary=summary, plots=plots)
