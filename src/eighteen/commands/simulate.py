"""`eighteen simulate`: many bot games of a title (or two, compared), summary and report.

Every input is checked before the first game is played: the titles, the bots, the player
count and options, the output folder (writable), and Ray (installed) when asked for.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the CLI builds its parser on every call: engine imports wait for a run
    from eighteen.engine.tables import Tables
    from eighteen.sim.runner import Backend


class UsageError(ValueError):
    """Arguments that cannot work together (exit 2)."""


def _err(msg: str, code: int = 1) -> int:
    """``eighteen simulate: error: MSG`` on standard error, as every command says it."""
    from eighteen.commands.output import fail

    return fail("simulate", msg, code)


def add_parser(sub: Any) -> None:
    """Register `simulate` on the CLI's subparsers (defaults shown in --help)."""
    p = sub.add_parser(
        "simulate",
        help="play many bot games; summary.json and report.html (optionally vs another title)",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
        description="Play N seeded bot games of TITLE (and of OTHER with the same seeds) "
        "and write summary.json and report.html. See docs/simulate.md.",
    )
    p.add_argument("title", help="title id, e.g. 1830")
    p.add_argument("--vs", default=None, metavar="OTHER", help="second title, same seeds")
    p.add_argument("--games", type=int, default=100, help="games per title")
    p.add_argument("--players", type=int, default=4, help="players per game")
    p.add_argument(
        "--bots",
        default="greedy",
        help="bot per seat, e.g. 'greedy,3*random' or 'greedy:cautious,greedy(cash=0.3),random'",
    )
    p.add_argument("--seed", type=int, default=1, help="game i has seed SEED+i")
    p.add_argument("--rotate", action="store_true", help="shift the bots one seat each game")
    p.add_argument("--option", action="append", default=[], dest="options", help="title option")
    p.add_argument(
        "--vs-option",
        action="append",
        default=[],
        dest="vs_options",
        metavar="OPTION",
        help="an option of the second side only (without --vs: TITLE again, with it)",
    )
    p.add_argument(
        "--max-actions", type=int, default=20_000, help="a longer game counts as unfinished"
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=1, help="local worker processes")
    where.add_argument(
        "--ray",
        default=None,
        metavar="ADDRESS",
        help="run on Ray: 'auto' (join or start one here), 'local' (start one), or an address",
    )
    p.add_argument(
        "--ray-cpus",
        type=int,
        default=None,
        help="CPUs of a Ray instance started here (--ray local or auto)",
    )
    p.add_argument("--out", default="simulation", help="folder for summary.json and report.html")
    p.add_argument(
        "--format", choices=["text", "json"], default="text", help="what to print at the end"
    )
    p.add_argument(
        "--no-report",
        action="store_true",
        help="write summary.json only (and remove the report.html an earlier run wrote there)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def _check_out(path: str) -> Path:
    """Create the output folder and prove it is writable, before any game is played."""
    out = Path(path)
    try:
        out.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=out, prefix=".probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise ValueError(f"cannot write to --out {path}: {exc.strerror or exc}") from None
    return out


#: The mark of a report.html this command wrote, in its first lines (the <title> of the
#: reports written before the <meta> was added).
REPORT_MARKS = ('<meta name="generator" content="eighteen simulate">', "<title>eighteen simulate: ")


def written_report(path: Path) -> bool:
    """Whether ``path`` is a plain file (not a link) holding a report this command wrote."""
    if path.is_symlink() or not path.is_file():
        return False
    try:
        with path.open("rb") as f:
            head = f.read(2048).decode("utf-8", "replace")
    except OSError:
        return False
    return any(mark in head for mark in REPORT_MARKS)


def prepare(
    args: argparse.Namespace,
) -> tuple[list[str], dict[str, Tables], Any, Backend, Path]:
    """Check every argument; raise UsageError (exit 2) or ValueError (exit 1).

    A repeated ``--option`` counts once (``args.options`` is left without repeats).  The
    titles returned are the sides' names: a side given ``--vs-option`` is named by its
    title and those options (``1830+optional_6_train``); each side's options are left in
    ``args.side_options``."""
    from eighteen.commands.output import OutputError, check_file_target, warn
    from eighteen.commands.stale import played_tables
    from eighteen.engine.game import Game
    from eighteen.engine.tables import TitleNotFound
    from eighteen.sim.botspec import BotSpecError, bots_error, parse_bots, seat_bots
    from eighteen.sim.runner import Backend, player_names
    from eighteen.title.save import SEED_RANGE

    bounds = [  # (option, value, lowest, highest): beyond the highest is no real run
        ("--games", args.games, 1, 1_000_000),
        ("--players", args.players, 1, 100),
        ("--workers", args.workers, 1, 1024),
        ("--max-actions", args.max_actions, 1, 10_000_000),
        # (game i plays seed SEED+i: each a seed a save holds, 0 to 2**63 - 1, as play's)
        ("--seed", args.seed, 0, SEED_RANGE[1] - (max(1, args.games) - 1)),
    ]
    if args.ray_cpus is not None:
        bounds.append(("--ray-cpus", args.ray_cpus, 1, 4096))
    for option, value, lo, hi in bounds:
        if value < lo:
            raise UsageError(f"{option} must be at least {lo}, not {value}")
        if value > hi:
            raise UsageError(f"{option} must be at most {hi:,}, not {value:,}")
    if args.ray_cpus is not None and args.ray not in ("local", "auto"):
        joins = "" if args.ray is None else f"; --ray {args.ray} joins one"
        raise UsageError(
            "--ray-cpus needs --ray local or --ray auto "
            f"(it sizes a Ray instance started here{joins})"
        )
    if args.out == "":
        raise UsageError("--out is empty: name a folder (--out . for this one)")
    args.options = list(dict.fromkeys(args.options))
    args.vs_options = list(dict.fromkeys(args.vs_options))
    both = [o for o in args.vs_options if o in args.options]
    if both:
        raise UsageError(f"--vs-option {both[0]} is given to both sides already by --option")
    try:
        seats = seat_bots(parse_bots(args.bots), args.players)
    except BotSpecError as exc:
        raise UsageError(bots_error(exc)) from None
    from eighteen.locations import title_ref

    # (a folder plays its compiled tables: it names its title)
    other = args.vs if args.vs is not None or not args.vs_options else args.title
    targets = [args.title] if other is None else [args.title, other]
    titles = [title_ref(t) for t in targets]
    sides = [(tid, args.options) for tid in titles]
    if args.vs_options:  # the second side: its title with the options of --vs-option
        extra = "".join(f"+{o}" for o in args.vs_options)
        sides[1] = (f"{titles[1]}{extra}", [*args.options, *args.vs_options])
    if len({name for name, _ in sides}) != len(sides):
        raise UsageError(
            f"--vs names the same title as TITLE ({args.title}); to measure an option, "
            "give it with --vs-option"
        )
    args.side_options = {name: opts for name, opts in sides}
    tables: dict[str, Tables] = {}
    warned: set[str] = set()
    for (name, opts), tid, target in zip(sides, titles, targets, strict=True):
        try:
            tables[name], stale = played_tables(target)
        except TitleNotFound as exc:
            raise ValueError(str(exc)) from None
        if stale and target not in warned:  # (a title played twice is warned of once)
            warn("simulate", stale)
            warned.add(target)
        try:  # player count, names and options, as the games will use them
            Game.new(tables[name], players=player_names(args.players), options=opts)
        except ValueError as exc:
            said = str(exc)  # (the engine's player count names the title already)
            raise ValueError(said if said.startswith(f"{tid} ") else f"{tid}: {said}") from None
    out = _check_out(args.out)
    try:  # the files themselves (a folder named report.html, a link into nowhere...)
        check_file_target(out / "summary.json")
        if not args.no_report:
            check_file_target(out / "report.html")
    except OutputError as exc:
        raise ValueError(str(exc)) from None
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if args.workers > cpus:
        warn(
            "simulate",
            f"--workers {args.workers} is more than this machine's {cpus} CPUs: the games "
            f"take no less time than with --workers {cpus}",
        )
    backend = Backend(workers=args.workers, ray=args.ray, ray_cpus=args.ray_cpus, tables=tables)
    if args.ray:
        try:
            import ray  # noqa: F401
        except ImportError:
            raise ValueError("--ray needs Ray: pip install 'eighteen[ray]'") from None
    if args.rotate and args.games % args.players and len({s.label for s in seats}) > 1:
        few = args.games // args.players
        warn(
            "simulate",
            f"--rotate: {args.games} games is not a multiple of {args.players} players, so "
            f"the bots do not sit in each seat equally often ({few} or {few + 1} times each; "
            f"a multiple of {args.players} games evens them)",
        )
    return [name for name, _ in sides], tables, seats, backend, out


def cmd_simulate(args: argparse.Namespace) -> int:
    from eighteen.commands.output import OutputError, warn, write_together
    from eighteen.sim.runner import GameFailed, RayUnavailable, run_simulation
    from eighteen.sim.summary import summarize

    try:
        titles, tables, seats, backend, out = prepare(args)
    except UsageError as exc:
        return _err(str(exc), 2)
    except ValueError as exc:
        return _err(str(exc))
    total = args.games * len(titles)
    try:
        with _progress(args.quiet) as bar:
            task = bar.add_task(f"{' vs '.join(titles)} on {backend.describe()}", total=total)
            records = run_simulation(
                titles,
                args.games,
                seats,
                backend,
                seed=args.seed,
                rotate=args.rotate,
                options=args.options,
                side_options=args.side_options,
                max_actions=args.max_actions,
                progress=lambda n: bar.advance(task, n),
            )
    except RayUnavailable as exc:
        return _err(str(exc))
    except GameFailed as exc:  # a fault of the engine or of a bot, named to be replayed
        if os.environ.get("EIGHTEEN_DEBUG"):
            raise
        return _err(
            f"internal error: {exc}; please report it (EIGHTEEN_DEBUG=1 shows the traceback)"
        )
    summary = summarize(
        records,
        tables,
        games=args.games,
        players=args.players,
        seed=args.seed,
        bots=[s.label for s in seats],
        rotate=args.rotate,
        options=args.options,
        side_options=args.side_options,
        max_actions=args.max_actions,
    )
    texts = {out / "summary.json": json.dumps(summary, indent=1) + "\n"}
    if not args.no_report:
        from eighteen.sim.report import render_report

        texts[out / "report.html"] = render_report(summary, records)
    try:
        write_together(texts)
    except OutputError as exc:
        return _err(str(exc))
    files = "summary.json" + ("" if args.no_report else " and report.html")
    wrote = f"wrote {files} to {out}"
    report = out / "report.html"
    if args.no_report and written_report(report):
        try:  # (it described another run)
            report.unlink()
            wrote += "; removed the report.html of an earlier run there"
        except OSError as exc:
            warn("simulate", f"cannot remove {report} of an earlier run: {exc.strerror or exc}")
    elif args.no_report and (report.exists() or report.is_symlink()):
        warn(
            "simulate",
            f"{report} is not this run's report and was left as it is "
            "(simulate removes only a report file it wrote)",
        )
    for warning in no_game_warnings(summary):
        warn("simulate", warning)
    if args.format == "json":
        print(json.dumps(summary, indent=1))
    else:
        print_summary(summary)
    print(wrote, file=sys.stderr)
    return 0


def no_game_warnings(summary: dict[str, Any]) -> list[str]:
    """What says plainly that there is nothing to measure: a title none of whose games
    finished, or two titles no seed of which finished in both."""
    out = [
        f"no game of {tid} finished ({s['games']} of {s['games']} cut off at --max-actions "
        f"{summary['max_actions']:,} or stuck): its statistics are empty"
        for tid, s in summary["results"].items()
        if s["finished"] == 0
    ]
    c = summary.get("comparison")
    if c is not None and c["pairs"] == 0 and not out:
        out.append(f"no seed finished in both {c['a']} and {c['b']}: nothing is compared")
    return out


def _progress(quiet: bool) -> Any:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games ·"),
        TimeElapsedColumn(),
        TextColumn("· ETA"),
        TimeRemainingColumn(),
        console=console,
        disable=quiet or not console.is_terminal,
    )


def print_summary(summary: dict[str, Any]) -> None:
    """A few lines per title (seat win rates and values, game length, end reasons); with
    two titles, how many differences are significant and which (ten at most)."""
    for tid in summary["titles"]:
        s = summary["results"][tid]
        print(f"{tid}: {s['finished']}/{s['games']} games finished")
        if s["finished"] == 0:
            print("  no game finished: nothing to measure but how the games ended")
        else:
            _print_seats(s)
            _print_balance(s, summary["rotate"])
        reasons = ", ".join(f"{k} {_pct(v['rate'])}" for k, v in s["end_reasons"].items())
        print(f"  ends: {reasons}")
        for reason in ("stuck", "unfinished"):
            seeds = s["end_seeds"].get(reason)
            if seeds:
                shown = ", ".join(map(str, seeds[:SHOWN])) + (" ..." if len(seeds) > SHOWN else "")
                print(f"  {reason}: seed {shown}")
        tk = s["takeovers"]
        if tk["held"] and s["finished"]:
            print(
                f"  takeovers: mean {tk['per_game']['mean']:.1f} per game, "
                f"in {_pct(tk['games']['rate'])} of games"
            )
    if "comparison" in summary:
        print_comparison(summary["comparison"])


def _print_balance(s: dict[str, Any], rotate: bool) -> None:
    """Whether the seats win equally often, when that says something of the seats: every
    seat with the same bot, or the bots rotated through the seats."""
    from eighteen.sim.report import balance_text

    said = balance_text(s, rotate)
    if said is not None:
        print(f"  seat balance: {said}")


def _print_seats(s: dict[str, Any]) -> None:
    for seat in s["seats"]:
        w, v = seat["win_rate"], seat["final_value"]
        ci = w["ci"] or [w["rate"], w["rate"]]
        print(
            f"  seat {seat['seat']} ({'/'.join(seat['bots'])}): "
            f"wins {_pct(w['rate'])} [{_pct(ci[0])}, {_pct(ci[1])}], "
            f"mean value ${_num(v['mean'])}"
        )
    if len(s["bots"]) > 1:
        for label, b in s["bots"].items():
            w = b["win_rate"]
            ci = w["ci"] or [w["rate"], w["rate"]]
            print(
                f"  {label} ({b['seat_games']} seat-games): wins {_pct(w['rate'])} "
                f"[{_pct(ci[0])}, {_pct(ci[1])}], mean value ${_num(b['final_value']['mean'])}"
            )
    length = s["length"]["operating_rounds"]
    print(f"  operating rounds: mean {_num(length['mean'])}")


#: The most significant differences the text summary lists (summary.json has them all).
SHOWN = 10


def print_comparison(c: dict[str, Any]) -> None:
    """The comparison's counts (in all, and per measure with a significant difference),
    then its significant differences, the smallest p first, ten at most."""
    from eighteen.sim.report import difference_text, p_text

    head = f"{c['b']} - {c['a']}"
    if c["pairs"] == 0:
        print(f"{head}: no seed finished in both titles, nothing to compare")
        return
    counts, alpha = c["counts"], c["alpha"]
    print(
        f"{head}: {counts['significant']} of {counts['differences']} differences significant "
        f"(p < {alpha:g}), {counts['discoveries']} after false-discovery control "
        f"(Benjamini-Hochberg q < {alpha:g}); {c['pairs']} seeds finished in both"
    )
    by = [
        f"{name} {k['significant']} of {k['differences']}"
        + (f" ({k['discoveries']} after control)" if k["discoveries"] else "")
        for name, k in c["counts"]["by_measure"].items()
        if k["significant"]
    ]
    if by:
        print(f"  significant by measure: {', '.join(by)}")
    sig = sorted((d for d in c["differences"] if d["significant"]), key=lambda d: d["p"])
    for d in sig[:SHOWN]:
        mark = ", a discovery" if d["discovery"] else ""
        print(
            f"  {d['metric']}: {difference_text(d)}, p {p_text(d['p'])}, q {p_text(d['q'])}{mark}"
        )
    if len(sig) > SHOWN:
        print(f"  and {len(sig) - SHOWN} more significant (summary.json has every difference)")


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:,.0f}"
