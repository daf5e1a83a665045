"""The `eighteen` command: parse arguments, call the library, print, return an exit code.

Exit codes: 0 success, 1 errors in the input (title, save, log, an unwritable output),
2 usage errors (unknown option, a value of the wrong kind). Every error is one line on
standard error; no argument ends in a traceback. Every option has help text, and its
default is shown when it has one (docs/cli.md).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

FORMATS = ["text", "json"]


class _Formatter(argparse.HelpFormatter):
    """Help that shows each option's default, when it has a meaningful one."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if (
            "%(default)" in text
            or not action.option_strings
            or action.default in (None, False, [], argparse.SUPPRESS)
        ):
            return text
        return f"{text} (default: %(default)s)"


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line and exit 2."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        from eighteen.commands.output import USAGE, fail

        name = self.prog.removeprefix("eighteen").strip()
        fail(name, f"{message} (see `{self.prog} --help`)")
        raise SystemExit(USAGE)


def _count(text: str) -> int:
    """A whole number of at least 0 (an action count, a seed)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number of at least 0, got {value}")
    return value


def _seed(text: str) -> int:
    """A game seed: a whole number from 0 to 2**63 - 1 (the API takes any 64-bit seed)."""
    from eighteen.title.save import SEED_RANGE

    value = _count(text)
    if value > SEED_RANGE[1]:
        raise argparse.ArgumentTypeError(
            f"expected a seed from 0 to {SEED_RANGE[1]:,}, got {value:,}"
        )
    return value


#: More players than any title seats: a larger count is refused before any list is made.
MAX_PLAYERS = 100


def _players(text: str) -> int | list[str]:
    """A number of players, or their names separated by commas (``Ann,Bob,Cy``)."""
    digits = text.strip()
    if digits.isdigit():
        if len(digits) > 3 or int(digits) > MAX_PLAYERS:
            raise argparse.ArgumentTypeError(f"expected at most {MAX_PLAYERS} players, got {text}")
        return int(digits)
    names = [n.strip() for n in text.split(",")]
    if len(names) > MAX_PLAYERS:
        raise argparse.ArgumentTypeError(
            f"expected at most {MAX_PLAYERS} players, got {len(names)}"
        )
    if len(names) < 2 or not all(names):
        raise argparse.ArgumentTypeError(
            f"expected a number of players or two or more names like Ann,Bob,Cy; got {text!r}"
        )
    if len(set(names)) != len(names):
        raise argparse.ArgumentTypeError(f"player names must differ: {text!r}")
    return names


def _format(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--format", choices=FORMATS, default="text", help="text for people, json for programs"
    )


def _at(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--at",
        type=_count,
        default=None,
        metavar="ACTION",
        help="replay only the first ACTION actions of the save (default: all of them)",
    )


def _force(p: argparse.ArgumentParser, what: str = "replay") -> None:
    p.add_argument(
        "--force", action="store_true", help=f"{what} even if the title changed since the save"
    )


def build_parser() -> argparse.ArgumentParser:
    from eighteen import __version__

    p = _Parser(prog="eighteen", description="18xx titles as data: validate, compile, play.")
    p.add_argument("--version", action="version", version=f"eighteen {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    v = sub.add_parser("validate", help="check titles and report every problem located")
    v.add_argument("paths", nargs="*", help="title folders or ids (default: the project's titles)")
    _format(v)

    c = sub.add_parser("compile", help="write generated/<id>.json and <id>.md")
    c.add_argument("paths", nargs="*", help="title folders or ids (default: the project's titles)")
    c.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    c.add_argument("--out", default=None, help="output folder (default: the project's generated/)")
    _format(c)

    s = sub.add_parser("schema", help="write the JSON Schemas to schema/")
    s.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    s.add_argument("--out", default=None, help="output folder (default: the project's schema/)")
    _format(s)

    t = sub.add_parser("titles", help="list the titles found and where they are")
    _format(t)

    pl = sub.add_parser("play", help="play a game with bots to the end")
    pl.add_argument("title", help="title id, e.g. 1830 (see `eighteen titles`)")
    pl.add_argument(
        "--players",
        type=_players,
        default=4,
        metavar="N|NAMES",
        help="how many players, or their names: Ann,Bob,Cy",
    )
    pl.add_argument(
        "--seed", type=_seed, default=1, help="random seed, 0 to 2**63 - 1 (same seed, same game)"
    )
    pl.add_argument(
        "--bots",
        default="greedy",
        metavar="SPEC",
        help="the bots, one for every seat or one per seat, as for simulate: greedy, random, "
        "greedy:bold, greedy(cash=0.3,risk=0.8), 2*random,greedy (see docs/simulate.md)",
    )
    pl.add_argument(
        "--option",
        action="append",
        default=[],
        dest="options",
        metavar="ID",
        help="a title option to play with (repeatable; the title's options are listed by "
        "`eighteen titles` and in generated/<id>.md)",
    )
    pl.add_argument("--save", default=None, help="write the save to this file")
    pl.add_argument(
        "--quiet",
        action="store_true",
        help="no log of the rounds: only what was played and the ranking",
    )
    _format(pl)

    r = sub.add_parser("replay", help="replay a save and print the ranking")
    r.add_argument("save", help="our save (JSON)")
    _force(r)
    _at(r)
    _format(r)

    n = sub.add_parser("new", help="create titles/NAME/ as an overlay (variant) of a title")
    n.add_argument("name", help="id of the new title (also its folder name)")
    n.add_argument("--from", dest="base", required=True, help="title to extend, e.g. 1830")
    _format(n)

    f = sub.add_parser("fmt", help="rewrite title files in canonical form, keeping comments")
    f.add_argument("paths", nargs="*", help="files or folders (default: the project's titles/)")
    f.add_argument("--check", action="store_true", help="list files that would change; exit 1")
    _format(f)

    d = sub.add_parser("diff", help="semantic difference of two titles")
    d.add_argument("a", help="title id, title folder or compiled .json")
    d.add_argument("b", help="title id, title folder or compiled .json")
    _format(d)

    ro = sub.add_parser("routes", help="the best routes of a corporation in a save, explained")
    ro.add_argument("save", help="our save (JSON)")
    ro.add_argument(
        "--corporation", default=None, help="corporation id (default: the one operating now)"
    )
    _force(ro)
    _at(ro)
    _format(ro)

    rd = sub.add_parser("render", help="write DIR/index.html: map, tiles, market (title or save)")
    rd.add_argument("target", help="title id or folder, compiled title JSON, or a save")
    rd.add_argument("--out", required=True, help="output folder (made if missing)")
    _at(rd)
    _force(rd, "render a save")
    _format(rd)

    im = sub.add_parser("import-18xx", help="replay an 18xx.games export and compare results")
    im.add_argument("games", nargs="+", metavar="game", help="18xx.games exports (JSON)")
    im.add_argument("--save", default=None, help="write our save of the game to this file")
    im.add_argument(
        "--check", action="store_true", help="exit 1 unless every value and the end match"
    )
    im.add_argument(
        "--routes",
        action="store_true",
        help="run the route optimiser at every run and report money left on the table",
    )
    im.add_argument(
        "--at",
        type=_count,
        default=None,
        metavar="ACTION_ID",
        help="stop each replay after the action with this id (default: the whole game)",
    )
    _format(im)

    ex = sub.add_parser("export-18xx", help="write a save in the 18xx.games export format")
    ex.add_argument("save", help="our save (JSON)")
    ex.add_argument("--out", default=None, help="output file (default: standard output)")
    _force(ex, "export")
    _at(ex)

    na = sub.add_parser("native", help="the compiled engine: its state, --build, --clean")
    what = na.add_mutually_exclusive_group()
    what.add_argument(
        "--build", action="store_true", help="compile the modules changed since the last build"
    )
    what.add_argument("--force", action="store_true", help="compile every module again")
    what.add_argument("--clean", action="store_true", help="remove the compiled modules")
    na.add_argument("--jobs", type=_count, default=2, help="modules compiled at once")
    na.add_argument(
        "--no-profile",
        action="store_true",
        help="compile without the training run that guides the compiler (GCC only; faster "
        "to build, the engine about a fifth slower)",
    )
    _format(na)

    from eighteen.commands.simulate import add_parser as add_simulate

    add_simulate(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:  # (after the command, its own error: "eighteen replay: error: ...")
            words = list(sys.argv[1:] if argv is None else argv)
            at = words.index(args.command) if args.command in words else len(words)
            commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
            before = any(w in extra for w in words[:at])
            owner = parser if before else commands.choices.get(args.command, parser)
            owner.error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exc:  # --help, --version (0) and usage errors (2)
        return int(exc.code or 0)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return _dispatch(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug: one line, never a traceback (EIGHTEEN_DEBUG=1 shows it)
        if os.environ.get("EIGHTEEN_DEBUG"):
            raise
        from eighteen.commands.output import fail

        return fail(
            args.command,
            f"internal error ({type(exc).__name__}: {exc}); please report it "
            "(EIGHTEEN_DEBUG=1 shows the traceback)",
        )


def _dispatch(args: argparse.Namespace) -> int:
    if args.command in ("validate", "compile", "schema", "titles"):
        from eighteen.commands import titles

        if args.command == "validate":
            return titles.cmd_validate(args.paths, args.format)
        if args.command == "compile":
            return titles.cmd_compile(args.paths, check=args.check, out=args.out, fmt=args.format)
        if args.command == "schema":
            return titles.cmd_schema(check=args.check, out=args.out, fmt=args.format)
        return titles.cmd_titles(args.format)
    if args.command == "play":
        from eighteen.commands.play import cmd_play

        return cmd_play(args)
    if args.command == "replay":
        from eighteen.commands.play import cmd_replay

        return cmd_replay(args.save, force=args.force, at=args.at, fmt=args.format)
    if args.command == "routes":
        from eighteen.commands.routes import cmd_routes

        return cmd_routes(
            args.save, args.corporation, force=args.force, at=args.at, fmt=args.format
        )
    if args.command == "render":
        from eighteen.commands.render import cmd_render

        return cmd_render(args.target, args.out, args.at, fmt=args.format, force=args.force)
    if args.command in ("import-18xx", "export-18xx"):
        from eighteen.commands import import18xx

        if args.command == "import-18xx":
            return import18xx.cmd_import(
                args.games,
                save=args.save,
                check=args.check,
                routes=args.routes,
                at=args.at,
                fmt=args.format,
            )
        return import18xx.cmd_export(args.save, out=args.out, force=args.force, at=args.at)
    if args.command == "native":
        from eighteen.commands.native import cmd_native

        return cmd_native(
            build=args.build,
            force=args.force,
            clean=args.clean,
            jobs=args.jobs,
            fmt=args.format,
            profile=not args.no_profile,
        )
    if args.command == "simulate":
        from eighteen.commands.simulate import cmd_simulate

        return cmd_simulate(args)
    if args.command in ("new", "fmt", "diff"):
        from eighteen.commands import authoring

        if args.command == "new":
            return authoring.cmd_new(args.name, args.base, fmt=args.format)
        if args.command == "fmt":
            return authoring.cmd_fmt(args.paths, check=args.check, fmt=args.format)
        return authoring.cmd_diff(args.a, args.b, args.format)
    print(f"eighteen: unknown command {args.command}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
