"""``toybattle host`` and ``toybattle join``: a game with a room code, headless or in the terminal."""
from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from ..clocks import clock_refusal
from ..errors import UserError
from ..rules import SEATS, TERRAIN_IDS
from ..store import Store, StoreError, WriterLock, default_path
from . import transport
from .game import CHOICES, BotPlayer, OnlineGame, Options, Player, SessionError
from .terminal import TerminalPlayer


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("host", help="open a room, print its code, and play whoever joins")
    p.add_argument("--terrain", default="castle", choices=TERRAIN_IDS)
    p.add_argument("--first-game", action="store_true", help="the first-game mode (no special bases)")
    p.add_argument("--seat", default="blue", choices=SEATS, help="the host's side (default blue)")
    p.add_argument("--clock", type=_clock, metavar="MIN+INC",
                   help="a time control both players agree on, e.g. 10+5: 10 minutes each plus 5 s a move "
                        "(1 to 180 minutes, 0 to 60 s); the side whose clock runs out loses on time")
    _common(p)
    p.set_defaults(run=cmd_host)
    p = sub.add_parser("join", help="join a room by its code (e.g. 7-guitarist-revenge) and play")
    p.add_argument("code", nargs="?", help="the room code the host read out (none with --resume: the same room)")
    _common(p)
    p.set_defaults(run=cmd_join)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bot", metavar="LEVEL", help="let a bot play this seat (headless) and print the result")
    p.add_argument("--relay", metavar="URL",
                   help=f"the magic-wormhole mailbox (default ${transport.RELAY_ENV}, else {transport.DEFAULT_RELAY})")
    p.add_argument("--resume", metavar="GAME",
                   help="resume a stored, unfinished online game: back in its room with no code while the mailbox "
                        "keeps it (about ten minutes after both sides left), else in a new room (a host) or with "
                        "the code the other player gives (a joiner)")
    p.add_argument("--db", metavar="FILE", help="the games file (default: $TOYBATTLE_DB or the user data dir)")
    p.add_argument("--move-limit", type=_seconds, default=600.0, metavar="S",
                   help="how long the other player may think about a move (default 600)")
    p.add_argument("--reply-limit", type=_seconds, default=60.0, metavar="S",
                   help="how long the other program may take for a message that needs no thought (default 60)")
    p.add_argument("--when-silent", choices=CHOICES, default="close",
                   help="when a limit runs out: claim the game (won by abandonment), wait on, or close the room "
                        "(the game stays saved, to resume; the default). A withheld opening is always a forfeit")
    p.add_argument("--wait", type=float, metavar="S", help="how long to wait for the other player to arrive")
    p.add_argument("--json", action="store_true", help="print the result as one JSON line")


# Tests only, never an option: reproducible secrets and bot. Whoever knows the seed knows every tile of this
# side, so no command line or environment sets it; only a test that runs ``main`` in its own process does
# (tests/online/peer.py).
TEST_SEED: str | None = None


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 1 <= value <= 7 * 86400:
        raise argparse.ArgumentTypeError("a limit is between 1 second and a week")
    return value


def _clock(text: str) -> tuple[int, int]:
    """MIN+INC (minutes, then seconds a move) as whole seconds, within the protocol's bounds."""
    base, _, inc = text.partition("+")
    try:
        value = (round(float(base) * 60), int(inc or "0"))
    except (ValueError, OverflowError):
        raise argparse.ArgumentTypeError(f"{text!r} is not MIN+INC (e.g. 10+5)") from None
    if clock_refusal(*value):
        raise argparse.ArgumentTypeError("a clock is 1 to 180 minutes each plus 0 to 60 s a move, e.g. 10+5")
    return value


def _options(args: argparse.Namespace) -> Options:
    # a resumed game keeps the mailbox it was stored with unless --relay says otherwise
    relay = args.relay or ("" if args.resume else transport.default_relay())
    return Options(relay=relay, db=args.db, seed=TEST_SEED, move_limit=args.move_limit,
                   reply_limit=args.reply_limit, when_silent=args.when_silent, wait=args.wait,
                   terrain=getattr(args, "terrain", "castle"), first_game=getattr(args, "first_game", False),
                   seat=SEATS.index(getattr(args, "seat", "blue")), resume=args.resume,
                   clock=getattr(args, "clock", None))


def _player(args: argparse.Namespace) -> Player:
    if args.bot:
        try:
            return BotPlayer(args.bot, TEST_SEED)
        except ValueError as e:
            raise UserError(str(e)) from None
    return TerminalPlayer()


def _say(text: str) -> None:
    print(text, flush=True)


def cmd_host(args: argparse.Namespace) -> int:
    async def main(game: OnlineGame) -> dict[str, Any]:
        def opened() -> Awaitable[dict[str, Any]]:
            return game.host(lambda code: _say(f"room code: {code}"))
        return await (_back(game, opened) if args.resume else opened())
    return _run(args, main)


def cmd_join(args: argparse.Namespace) -> int:
    if not args.code and not args.resume:
        raise UserError("join needs the room code the host read out (or --resume GAME)")

    async def main(game: OnlineGame) -> dict[str, Any]:
        if args.code:
            return await game.join(args.code)
        return await _back(game, None)
    return _run(args, main)


async def _back(game: OnlineGame, otherwise: Callable[[], Awaitable[dict[str, Any]]] | None) -> dict[str, Any]:
    """A stored game back in its own room; if the mailbox forgot it, a host opens a new room instead."""
    try:
        return await game.rejoin()
    except SessionError as e:
        if otherwise is None or game.playing:
            raise
        _say(f"{e}; opening a new room instead")
    return await otherwise()


def _run(args: argparse.Namespace, main: Callable[[OnlineGame], Coroutine[Any, Any, dict[str, Any]]]) -> int:
    """Play one game on the games file, holding its writer lock (as ``serve`` does) the whole time."""
    player = _player(args)
    try:
        writer = WriterLock(args.db or default_path())
    except StoreError as e:
        raise UserError(str(e)) from None
    try:
        game = OnlineGame(_options(args), player, _say, store=Store(args.db))
        try:
            result = asyncio.run(main(game))
        finally:
            game.store.close()
    except SessionError as e:
        saved = game.match is not None and game.match.log and not game.match.finished
        raise UserError(f"{e}: resume it in the same room with 'toybattle join --resume {game.local_id}' (no code "
                        "needed while the mailbox keeps the room)" if saved and "is saved after" in str(e)
                        else str(e)) from None
    except StoreError as e:
        raise UserError(str(e)) from None
    finally:
        writer.release()
    rtt = game.round_trip_ms()
    me = game.m.me
    if args.json:
        print(json.dumps({**result, "game": game.m.setup.game, "local": game.local_id, "seat": me,
                          "round_trip_ms": rtt}), flush=True)
    else:
        _say(result_line(result, me))
    return 0 if result["reason"] not in ("forfeit", "abandonment") or result["winner"] == me else 1


def result_line(result: dict[str, Any], me: int) -> str:
    if result["reason"] in ("forfeit", "abandonment"):
        return f"result: {SEATS[result['winner']]} wins: {result['detail']}"
    if result["winner"] < 0:
        return "result: unfinished"
    return (f"result: {SEATS[result['winner']]} wins ({result['reason']}) after {result['messages']} messages; "
            f"history {result['head'][:16]}")

