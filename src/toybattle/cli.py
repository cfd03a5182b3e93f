"""The ``toybattle`` command: a thin dispatcher; each area registers its own subcommands.

Every area's cli module exposes ``register(subparsers)`` which adds its parsers with
``set_defaults(run=FUNC)``; FUNC(args) returns an exit code; ``COMMANDS`` says which area has
which command. Errors meant for the user are raised as ``UserError`` (toybattle.errors) and
printed as one line, never as a traceback. The command line speaks the user's language, English or
French (toybattle.cli_lang: chosen from the environment, as gettext does), argparse's own texts
included. This is the product's entry point, so it is also where the parts meet: ``serve`` gets
the app with the Learn section and online rooms plugged in (toybattle.assembly).
"""
from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from . import __version__, cli_lang
from .errors import UserError
from .said import Said, of_error, say

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from .store import Store

Register = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]
DEFAULT_COMMAND = "serve"


def serve_app(store: Store, **options: Any) -> Starlette:
    """The whole product's app, for ``serve``: the app with the Learn section and online rooms."""
    from .assembly import build_app

    return build_app(store, **options)


# Each area's cli module is imported inside its function, so a command loads only its own area: loading
# them all (the web stack above all) would triple the start-up of `toybattle legal` or of an engine.
def _rules() -> Register:
    from . import cli_rules

    return cli_rules.register


def _bots() -> Register:
    from .bots import cli

    return cli.register


def _app() -> Register:
    from .app import cli

    return functools.partial(cli.register, build_app=serve_app)


def _online() -> Register:
    from .online import cli

    return cli.register


def _lessons() -> Register:
    from .lessons import cli

    return cli.register


def _review() -> Register:
    from .review import cli

    return cli.register


def _site() -> Register:
    from .site import build

    return build.register


# command -> the area that registers it (in the order `toybattle --help` lists them)
COMMANDS: dict[str, Callable[[], Register]] = {
    "replay": _rules, "legal": _rules, "terrains": _rules, "bench": _rules, "perft": _rules,
    "arena": _bots, "engine": _bots, "hint": _bots,
    "serve": _app,
    "host": _online, "join": _online,
    "lessons": _lessons, "rules": _lessons,
    "review": _review, "puzzles": _review,
    "site": _site,
}


def build_parser(only: str | None = None, lang: str = "en") -> argparse.ArgumentParser:
    """The parser for every command, or only for ``only``'s area, in language ``lang`` (its help, its
    errors and argparse's own texts)."""
    cli_lang.install()
    with cli_lang.using(lang):
        parser = cli_lang.Parser(prog="toybattle", description=Said("cli.help.description"))
        parser.add_argument("--version", action="version", version=f"toybattle {__version__}",
                            help=Said("cli.help.version"))
        sub = cast("argparse._SubParsersAction[argparse.ArgumentParser]",
                   parser.add_subparsers(dest="command", metavar=say(Said("cli.metavar.command"), lang)))
        areas = [COMMANDS[only]] if only else list(dict.fromkeys(COMMANDS.values()))
        for area in areas:
            area()(sub)
    return parser


def main(argv: list[str] | None = None, lang: str | None = None) -> int:
    """Run the command ``argv`` (the process's arguments by default) in ``lang`` (by default the user's
    language, from the environment: cli_lang.system_lang); its exit code."""
    argv = sys.argv[1:] if argv is None else argv
    lang = cli_lang.system_lang() if lang is None else lang
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version")):
        argv = [DEFAULT_COMMAND] + argv
    parser = build_parser(argv[0] if argv[0] in COMMANDS else None, lang=lang)
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    if getattr(args, "lang", None) is None:  # what a command prints is in the user's language (review: --lang)
        args.lang = lang
    try:
        return int(args.run(args) or 0)
    except UserError as e:
        print(say(Said("cli.error.line", name=args.command, why=of_error(e)), args.lang), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into e.g. `head`: stop quietly, like other Unix tools
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
