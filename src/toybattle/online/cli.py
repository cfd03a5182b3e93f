"""``toybattle host`` and ``toybattle join``: a game with a room code, headless or in the terminal."""
from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from .. import cli_lang
from ..clocks import clock_refusal
from ..errors import UserError
from ..rules import SEATS, TERRAIN_IDS
from ..said import Said, of_error, say
from ..store import Store, StoreError, WriterLock, default_path
from . import transport
from .game import CHOICES, BotPlayer, OnlineGame, Options, Player, SessionError
from .terminal import TerminalPlayer


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("host", help=Said("cli.host.help"))
    p.add_argument("--terrain", default="castle", choices=TERRAIN_IDS)
    p.add_argument("--first-game", action="store_true", help=Said("cli.help.firstGame"))
    p.add_argument("--seat", default="blue", choices=SEATS, help=Said("cli.host.help.seat"))
    p.add_argument("--clock", type=_clock, metavar="MIN+INC", help=Said("cli.host.help.clock"))
    _common(p)
    p.set_defaults(run=cmd_host)
    p = sub.add_parser("join", help=Said("cli.join.help", code="7-guitarist-revenge"))
    p.add_argument("code", nargs="?", metavar=Said("cli.metavar.code"), help=Said("cli.join.help.code"))
    _common(p)
    p.set_defaults(run=cmd_join)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bot", metavar=Said("cli.metavar.level"), help=Said("cli.online.help.bot"))
    p.add_argument("--relay", metavar="URL",
                   help=Said("cli.online.help.relay", name=transport.RELAY_ENV, relay=transport.DEFAULT_RELAY))
    p.add_argument("--resume", metavar=Said("cli.metavar.game"), help=Said("cli.online.help.resume"))
    p.add_argument("--db", metavar=Said("cli.metavar.fileUpper"), help=Said("cli.online.help.db"))
    p.add_argument("--move-limit", type=_seconds, default=600.0, metavar="S", help=Said("cli.online.help.moveLimit"))
    p.add_argument("--reply-limit", type=_seconds, default=60.0, metavar="S",
                   help=Said("cli.online.help.replyLimit"))
    p.add_argument("--when-silent", choices=CHOICES, default="close", help=Said("cli.online.help.whenSilent"))
    p.add_argument("--wait", type=float, metavar="S", help=Said("cli.online.help.wait"))
    p.add_argument("--json", action="store_true", help=Said("cli.online.help.json"))


# Tests only, never an option: reproducible secrets and bot. Whoever knows the seed knows every tile of this
# side, so no command line or environment sets it; only a test that runs ``main`` in its own process does
# (tests/online/peer.py).
TEST_SEED: str | None = None


def _refuse(said: Said) -> argparse.ArgumentTypeError:
    """A refused option value, said now in the language of the parser at work (argparse keeps only its text)."""
    return argparse.ArgumentTypeError(cli_lang.said(said))


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise _refuse(Said("cli.online.error.seconds", text=repr(text))) from None
    if not 1 <= value <= 7 * 86400:
        raise _refuse(Said("cli.online.error.limit"))
    return value


def _clock(text: str) -> tuple[int, int]:
    """MIN+INC (minutes, then seconds a move) as whole seconds, within the protocol's bounds."""
    base, _, inc = text.partition("+")
    try:
        value = (round(float(base) * 60), int(inc or "0"))
    except (ValueError, OverflowError):
        raise _refuse(Said("cli.online.error.clockForm", text=repr(text))) from None
    if clock_refusal(*value):
        raise _refuse(Said("cli.online.error.clock"))
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
            raise UserError(of_error(e)) from None
    return TerminalPlayer(args.lang)


def _sayer(lang: str) -> Callable[[str], None]:
    """Print a line for the user: a message said in ``lang``, a plain text as it is."""
    def out(text: str) -> None:
        print(say(text, lang), flush=True)
    return out


def cmd_host(args: argparse.Namespace) -> int:
    out = _sayer(args.lang)

    async def main(game: OnlineGame) -> dict[str, Any]:
        def opened() -> Awaitable[dict[str, Any]]:
            return game.host(lambda code: out(Said("cli.host.code", code=code)))
        return await (_back(game, opened, out) if args.resume else opened())
    return _run(args, main)


def cmd_join(args: argparse.Namespace) -> int:
    if not args.code and not args.resume:
        raise UserError(Said("cli.join.error.code"))
    out = _sayer(args.lang)

    async def main(game: OnlineGame) -> dict[str, Any]:
        if args.code:
            return await game.join(args.code)
        return await _back(game, None, out)
    return _run(args, main)


async def _back(game: OnlineGame, otherwise: Callable[[], Awaitable[dict[str, Any]]] | None,
                out: Callable[[str], None]) -> dict[str, Any]:
    """A stored game back in its own room; if the mailbox forgot it, a host opens a new room instead."""
    try:
        return await game.rejoin()
    except SessionError as e:
        if otherwise is None or game.playing:
            raise
        out(Said("cli.host.newRoom", why=of_error(e)))
    return await otherwise()


def _run(args: argparse.Namespace, main: Callable[[OnlineGame], Coroutine[Any, Any, dict[str, Any]]]) -> int:
    """Play one game on the games file, holding its writer lock (as ``serve`` does) the whole time."""
    player = _player(args)
    out = _sayer(args.lang)
    try:
        writer = WriterLock(args.db or default_path())
    except StoreError as e:
        raise UserError(of_error(e)) from None
    try:
        game = OnlineGame(_options(args), player, out, store=Store(args.db))
        try:
            result = asyncio.run(main(game))
        finally:
            game.store.close()
    except SessionError as e:
        saved = game.match is not None and game.match.log and not game.match.finished
        raise UserError(Said("cli.online.error.saved", why=of_error(e), game=str(game.local_id))
                        if saved and "is saved after" in str(e) else of_error(e)) from None
    except StoreError as e:
        raise UserError(of_error(e)) from None
    finally:
        writer.release()
    rtt = game.round_trip_ms()
    me = game.m.me
    if args.json:
        print(json.dumps({**result, "game": game.m.setup.game, "local": game.local_id, "seat": me,
                          "round_trip_ms": rtt}), flush=True)
    else:
        out(result_line(result, me))
    return 0 if result["reason"] not in ("forfeit", "abandonment") or result["winner"] == me else 1


def result_line(result: dict[str, Any], me: int) -> Said:
    """The game's result, one line."""
    if result["reason"] in ("forfeit", "abandonment"):
        return Said("cli.online.result.forfeit", seat=SEATS[result["winner"]], why=result["detail"])
    if result["winner"] < 0:
        return Said("cli.online.result.unfinished")
    return Said("cli.online.result.won", seat=SEATS[result["winner"]], reason=result["reason"], n=result["messages"],
                code=result["head"][:16])
