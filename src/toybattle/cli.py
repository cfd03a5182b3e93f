"""The ``toybattle`` command: a thin dispatcher; each area registers its own subcommands.

Every subcommand lives in the module named in COMMANDS and exposes
``register(subparsers)`` which adds its parser with ``set_defaults(run=FUNC)``;
FUNC(args) returns an exit code. Errors meant for the user are raised as
``UserError`` and printed as one line, never as a traceback.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys

# command name -> module that registers it (imported only when needed, so each area stays optional)
COMMANDS = {
    "replay": "toybattle.cli_rules",
    "legal": "toybattle.cli_rules",
    "terrains": "toybattle.cli_rules",
    "bench": "toybattle.cli_rules",
    "arena": "toybattle.bots.cli",
    "engine": "toybattle.bots.cli",
    "hint": "toybattle.bots.cli",
    "serve": "toybattle.app.cli",
    "host": "toybattle.online.cli",
    "join": "toybattle.online.cli",
    "lessons": "toybattle.lessons.cli",
    "rules": "toybattle.lessons.cli",
    "site": "toybattle.site.build",
}
DEFAULT_COMMAND = "serve"


class UserError(Exception):
    """A problem the user can fix (bad file, bad option): printed as one line, exit code 2."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="toybattle", description="Play Toy Battle: rules engine, bots, app.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    done = set()
    for cmd, module in COMMANDS.items():
        if module in done or (only and cmd != only):
            continue
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as e:
            if e.name and module.startswith(e.name):
                continue  # that part of the product is not built yet
            raise
        mod.register(sub)
        done.add(module)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
        argv = [DEFAULT_COMMAND] + argv
    only = argv[0] if argv and argv[0] in COMMANDS else None
    parser = build_parser(only)
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
