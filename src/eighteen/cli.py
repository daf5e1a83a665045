"""The `eighteen` command: parse arguments, call the library, print, return an exit code.

Exit codes: 0 success, 1 errors in the input (title, save, log), 2 usage errors.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="eighteen", description="18xx titles as data.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    v = sub.add_parser("validate", help="check titles and report every problem located")
    v.add_argument("paths", nargs="*", help="title folders (default: every title)")
    v.add_argument("--format", choices=["text", "json"], default="text")

    c = sub.add_parser("compile", help="write generated/<id>.json and <id>.md")
    c.add_argument("paths", nargs="*", help="title folders (default: every title)")
    c.add_argument("--check", action="store_true", help="exit 1 if generated/ is stale")
    c.add_argument("--out", default=None, help="output folder (default: generated/)")

    s = sub.add_parser("schema", help="write the JSON Schemas to schema/")
    s.add_argument("--check", action="store_true", help="exit 1 if schema/ is stale")
    s.add_argument("--out", default=None, help="output folder (default: schema/)")

    pl = sub.add_parser("play", help="play a game with bots to the end")
    pl.add_argument("title", help="title id, e.g. 1830")
    pl.add_argument("--players", type=int, default=4)
    pl.add_argument("--seed", type=int, default=1)
    pl.add_argument("--bots", choices=["random", "greedy"], default="greedy")
    pl.add_argument("--option", action="append", default=[], dest="options")
    pl.add_argument("--save", default=None, help="write the save to this file")
    pl.add_argument("--quiet", action="store_true", help="print only the ranking")

    r = sub.add_parser("replay", help="replay a save and print the ranking")
    r.add_argument("save")
    r.add_argument(
        "--force", action="store_true", help="replay even if the title changed since the save"
    )

    n = sub.add_parser("new", help="create titles/NAME/ as an overlay (variant) of a title")
    n.add_argument("name", help="id of the new title (also its folder name)")
    n.add_argument("--from", dest="base", required=True, help="title to extend, e.g. 1830")

    f = sub.add_parser("fmt", help="rewrite title files in canonical form, keeping comments")
    f.add_argument("paths", nargs="*", help="files or folders (default: titles/)")
    f.add_argument("--check", action="store_true", help="list files that would change; exit 1")

    d = sub.add_parser("diff", help="semantic difference of two titles")
    d.add_argument("a", help="title id, title folder or compiled .json")
    d.add_argument("b", help="title id, title folder or compiled .json")
    d.add_argument("--format", choices=["text", "json"], default="text")

    ro = sub.add_parser("routes", help="the best routes of a corporation in a save, explained")
    ro.add_argument("save", help="our save (JSON)")
    ro.add_argument(
        "--corporation", default=None, help="corporation id (default: the one operating now)"
    )
    ro.add_argument(
        "--force", action="store_true", help="replay even if the title changed since the save"
    )

    rd = sub.add_parser("render", help="write DIR/index.html: map, tiles, market (title or save)")
    rd.add_argument("target", help="title id or folder, compiled title JSON, or a save")
    rd.add_argument("--out", required=True, help="output folder")
    rd.add_argument("--at", type=int, default=None, help="replay only the first N actions")

    im = sub.add_parser("import-18xx", help="replay an 18xx.games export and compare results")
    im.add_argument("game", help="18xx.games export (JSON)")
    im.add_argument("--save", default=None, help="write our save of the game to this file")
    im.add_argument(
        "--check", action="store_true", help="exit 1 unless every value and the end match"
    )
    im.add_argument(
        "--routes",
        action="store_true",
        help="run the route optimiser at every run and report money left on the table",
    )

    ex = sub.add_parser("export-18xx", help="write a save in the 18xx.games export format")
    ex.add_argument("save", help="our save (JSON)")
    ex.add_argument("--out", default=None, help="output file (default: standard output)")
    ex.add_argument(
        "--force", action="store_true", help="export even if the title changed since the save"
    )

    from eighteen.commands.simulate import add_parser as add_simulate

    add_simulate(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors
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


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "validate":
        from eighteen.commands.titles import cmd_validate

        return cmd_validate(args.paths, args.format)
    if args.command == "compile":
        from eighteen.commands.titles import cmd_compile

        return cmd_compile(args.paths, check=args.check, out=args.out)
    if args.command == "schema":
        from eighteen.commands.titles import cmd_schema

        return cmd_schema(check=args.check, out=args.out)
    if args.command == "play":
        from eighteen.commands.play import cmd_play

        return cmd_play(args)
    if args.command == "replay":
        from eighteen.commands.play import cmd_replay

        return cmd_replay(args.save, force=args.force)
    if args.command == "routes":
        from eighteen.commands.routes import cmd_routes

        return cmd_routes(args.save, args.corporation, force=args.force)
    if args.command == "render":
        from eighteen.commands.render import cmd_render

        return cmd_render(args.target, args.out, args.at)
    if args.command in ("import-18xx", "export-18xx"):
        from eighteen.commands import import18xx

        if args.command == "import-18xx":
            return import18xx.cmd_import(
                args.game, save=args.save, check=args.check, routes=args.routes
            )
        return import18xx.cmd_export(args.save, out=args.out, force=args.force)
    if args.command == "simulate":
        from eighteen.commands.simulate import cmd_simulate

        return cmd_simulate(args)
    if args.command in ("new", "fmt", "diff"):
        from eighteen.commands import authoring

        if args.command == "new":
            return authoring.cmd_new(args.name, args.base)
        if args.command == "fmt":
            return authoring.cmd_fmt(args.paths, check=args.check)
        return authoring.cmd_diff(args.a, args.b, args.format)
    print(f"eighteen: unknown command {args.command}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
