"""The ``toybattle`` command: a thin dispatcher; each area registers its own subcommands.

Every area's cli module exposes ``register(subparsers)`` which adds its parsers with
``set_defaults(run=FUNC)``; FUNC(args) returns an exit code. Errors meant for the user
are raised as ``UserError`` (toybattle.errors) and printed as one line, never as a
traceback. This is the product's entry point, so it is also where the parts meet:
``serve`` gets the app with the Learn section and online rooms plugged in
(toybattle.assembly).
"""
from __future__ import annotations

import argparse
import os
import sys

from . import assembly, cli_rules
from .app import cli as app_cli
from .bots import cli as bots_cli
from .errors import UserError
from .lessons import cli as lessons_cli
from .online import cli as online_cli

DEFAULT_COMMAND = "serve"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="toybattle", description="Play Toy Battle: rules engine, bots, app.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    cli_rules.register(sub)
    bots_cli.register(sub)
    app_cli.register(sub, assembly.build_app)
    online_cli.register(sub)
    lessons_cli.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
        argv = [DEFAULT_COMMAND] + argv
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args) or 0)
    except UserError as e:
        print(f"toybattle {args.command}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into e.g. `head`: stop quietly, like other Unix tools
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
