"""``toybattle host`` and ``toybattle join``: a game with a room code, headless or in the terminal."""
from __future__ import annotations

import argparse
import json

from ..errors import UserError
from ..rules import SEATS, TERRAIN_IDS
from ..store import StoreError
from . import transport
from .session import BotPlayer, Game, Options, SessionError
from .terminal import TerminalPlayer


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("host", help="open a room, print its code, and play whoever joins")
    p.add_argument("--terrain", default="castle", choices=TERRAIN_IDS)
    p.add_argument("--first-game", action="store_true", help="the first-game mode (no special bases)")
    p.add_argument("--seat", default="blue", choices=SEATS, help="the host's side (default blue)")
    _common(p)
    p.set_defaults(run=cmd_host)
    p = sub.add_parser("join", help="join a room by its code (e.g. 7-guitarist-revenge) and play")
    p.add_argument("code", help="the room code the host read out")
    _common(p)
    p.set_defaults(run=cmd_join)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bot", metavar="LEVEL", help="let a bot play this seat (headless) and print the result")
    p.add_argument("--relay", metavar="URL",
                   help=f"the magic-wormhole mailbox (default ${transport.RELAY_ENV}, else {transport.DEFAULT_RELAY})")
    p.add_argument("--resume", metavar="GAME", help="resume a stored, unfinished online game (a new code is fine)")
    p.add_argument("--db", metavar="FILE", help="the games file (default: $TOYBATTLE_DB or the user data dir)")
    p.add_argument("--timeout", type=float, default=600.0, metavar="S",
                   help="give up (the game stays saved) when the other player is silent this long (default 600)")
    p.add_argument("--wait", type=float, metavar="S", help="how long to wait for the other player to arrive")
    p.add_argument("--seed", help="tests only: reproducible secrets and bot (whoever knows it knows your tiles)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON line")


def _options(args: argparse.Namespace) -> Options:
    # a resumed game keeps the mailbox it was stored with unless --relay says otherwise
    relay = args.relay or (None if args.resume else transport.default_relay())
    return Options(relay=relay,
                   db=args.db, seed=args.seed, timeout=args.timeout, wait=args.wait,
                   terrain=getattr(args, "terrain", "castle"), first_game=getattr(args, "first_game", False),
                   seat=SEATS.index(getattr(args, "seat", "blue")), resume=args.resume)


def _player(args: argparse.Namespace):
    if args.bot:
        try:
            return BotPlayer(args.bot, args.seed)
        except ValueError as e:
            raise UserError(str(e)) from None
    return TerminalPlayer()


def _say(text: str) -> None:
    print(text, flush=True)


def cmd_host(args: argparse.Namespace) -> int:
    game = Game(_options(args), _player(args), _say)
    return _run(args, game, lambda reactor: game.host(reactor, lambda code: _say(f"room code: {code}")))


def cmd_join(args: argparse.Namespace) -> int:
    game = Game(_options(args), _player(args), _say)
    return _run(args, game, lambda reactor: game.join(reactor, args.code))


def _run(args: argparse.Namespace, game: Game, main) -> int:
    try:
        result = transport.run(main)
    except (SessionError, StoreError) as e:
        raise UserError(str(e)) from None
    rtt = game.round_trip_ms()
    if args.json:
        print(json.dumps({**result, "game": game.match.setup.game, "seat": game.match.me,
                          "round_trip_ms": rtt}), flush=True)
    else:
        _say(result_line(result, game.match.me))
    return 0 if result["reason"] != "forfeit" or result["winner"] == game.match.me else 1


def result_line(result: dict, me: int) -> str:
    if result["reason"] == "forfeit":
        return f"result: {SEATS[result['winner']]} wins: {result['detail']}"
    if result["winner"] < 0:
        return "result: unfinished"
    return (f"result: {SEATS[result['winner']]} wins ({result['reason']}) after {result['messages']} messages; "
            f"history {result['head'][:16]}")

