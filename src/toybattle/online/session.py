"""One online game between this peer and the other, over a Link, stored after every agreed message.

Wire messages are JSON objects with a kind ``k``:
``hello`` (first, unchained: which game, and the hash of every message this peer holds),
``sync`` (after a reconnect: the chained messages the other peer is missing),
``msg`` (one chained message, see protocol.py), ``forfeit`` (a failed check: who and why).
"""
from __future__ import annotations

import asyncio
import hashlib
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..rules import SEATS, TERRAIN_IDS, State
from ..store import Store
from . import persist, transport
from .protocol import Forfeit, Match, Secrets, Setup, digest
from .transport import Link, LinkError


class SessionError(Exception):
    """The game cannot start or go on (bad code, wrong game, lost link); one line for the user."""


class Player(Protocol):
    async def choose(self, obs: State, n: int) -> int | None:
        """An action from ``obs.legal_actions()`` (None concedes); ``n`` numbers the decision."""

    def seen(self, match: Match, msg: dict) -> None:
        """A message was agreed (for showing the game); bots ignore it."""


class Rooms(Protocol):
    """Opens and joins rooms without Twisted (online.mailbox.client.Rooms: a browser's websocket, say);
    without one, a Game uses magic-wormhole itself (transport.py). Both return a Link (code, send,
    recv, close)."""

    async def host(self, relay: str, on_code: Callable[[str], Any], wait: float | None) -> Any: ...

    async def join(self, relay: str, code: str, wait: float | None) -> Any: ...


class BotPlayer:
    """A bot of toybattle.bots plays this seat. With a seed, each decision's bot is seeded from
    (seed, message number), so a resumed game plays on exactly as an uninterrupted one."""

    def __init__(self, level: str, seed: str | None = None):
        from ..bots import make_bot
        make_bot(level)  # fail now on a bad level name
        self.level = level
        self.seed = seed

    async def choose(self, obs: State, n: int) -> int | None:
        from ..bots import make_bot
        seed = None if self.seed is None else int.from_bytes(hashlib.sha256(f"{self.seed}/{n}".encode()).digest()[:8])
        bot = make_bot(self.level, seed=seed)
        return await asyncio.get_running_loop().run_in_executor(None, bot.choose, obs)

    def seen(self, match: Match, msg: dict) -> None:
        pass


@dataclass
class Options:
    relay: str
    db: str | None = None
    seed: str | None = None  # tests only: makes this peer's secrets reproducible
    timeout: float | None = 600.0  # how long the other player may stay silent during the game
    wait: float | None = None  # how long to wait for the other player to arrive
    terrain: str = "castle"
    first_game: bool = False
    seat: int = 0  # the host's seat
    resume: str | None = None


def new_game_id(seed: str | None) -> str:
    raw = hashlib.sha256(f"game/{seed}".encode()).digest() if seed is not None else None
    import secrets
    return (raw or secrets.token_bytes(8))[:8].hex()


def _hello(match: Match | None, resume: bool, setup: Setup | None) -> dict:
    return {"k": "hello", "resume": match.setup.game if resume and match else None,
            "setup": vars(setup) if setup and not resume else None,
            "hashes": [digest(t) for t in match.log] if match else []}


def _check_resume(mine: str | None, theirs: Any) -> None:
    if mine == theirs:
        return
    if mine is None:
        raise SessionError(f"the other player wants to resume game {theirs}, but this room starts a new game")
    if theirs is None:
        raise SessionError(f"the other player came to start a new game, but this room resumes game {mine} "
                           f"(they need: toybattle join --resume {mine} CODE)")
    raise SessionError(f"the other player resumes game {theirs}, but this room resumes game {mine}")


def _setup_from(d: Any) -> Setup:
    try:
        setup = Setup(str(d["game"]), str(d["terrain"]), bool(d["first_game"]), int(d["host_seat"]))
    except (TypeError, KeyError, ValueError):
        raise SessionError("the host sent a game setup this program cannot read") from None
    if setup.terrain not in TERRAIN_IDS or setup.host_seat not in (0, 1):
        raise SessionError(f"the host proposes terrain {setup.terrain!r}, which this program does not know")
    return setup


class Game:
    """Runs one game for one peer: handshake, catch-up, then messages until the end."""

    def __init__(self, opts: Options, player: Player, say: Callable[[str], None], store: Store | None = None,
                 rooms: Rooms | None = None):
        self.opts = opts
        self.rooms = rooms
        self.player = player
        self.say = say
        self.store = store or Store(opts.db)
        self.match: Match | None = None
        self.relay = opts.relay
        self.round_trips: list[float] = []
        self.extra: dict = {}  # more to keep with the stored game (the app keeps its seat's key here)
        self.playing = False  # both peers agreed on the game and its history
        self.on_play: Callable[[], None] | None = None  # called once play begins

    def load(self) -> None:
        if self.opts.resume and self.match is None:
            try:
                self.match, stored_relay = persist.load(self.store, self.opts.resume)
            except persist.NoSuchGame as e:
                raise SessionError(str(e)) from None
            self.relay = self.opts.relay or stored_relay

    async def host(self, reactor: Any, on_code: Callable[[str], None]) -> dict:
        self.load()
        if self.match is None:
            setup = Setup(new_game_id(self.opts.seed), self.opts.terrain, self.opts.first_game, self.opts.seat)
            self.match = Match(setup, setup.host_seat, Secrets.generate(self.opts.seed))
        link = await self._guard(self.rooms.host(self.relay, on_code, self.opts.wait) if self.rooms else
                                 transport.host(reactor, self.relay, on_code, self.opts.wait))
        try:
            link.send(_hello(self.match, bool(self.opts.resume), self.match.setup))
            theirs = await self._recv(link, "hello")
            _check_resume(self.opts.resume and self.match.setup.game, theirs.get("resume"))
            return await self._play(link, theirs)
        finally:
            await link.close()

    async def join(self, reactor: Any, code: str) -> dict:
        self.load()
        wait = self.opts.wait or 60.0
        link = await self._guard(self.rooms.join(self.relay, code, wait) if self.rooms else
                                 transport.join(reactor, self.relay, code, wait))
        try:
            theirs = await self._recv(link, "hello")
            mine = self.match.setup.game if self.match else None
            _check_resume(mine, theirs.get("resume"))
            if self.match is None:
                setup = _setup_from(theirs.get("setup"))
                self.match = Match(setup, 1 - setup.host_seat, Secrets.generate(self.opts.seed))
            link.send(_hello(self.match, bool(self.opts.resume), None))
            return await self._play(link, theirs)
        finally:
            await link.close()

    async def _guard(self, coro) -> Link:
        try:
            return await coro
        except LinkError as e:
            raise SessionError(str(e)) from None

    async def _recv(self, link: Link, kind: str | None = None) -> dict:
        try:
            obj = await link.recv(self.opts.timeout)
        except LinkError as e:
            raise SessionError(self._lost(str(e))) from None
        if kind and obj.get("k") != kind:
            raise SessionError(f"the other player sent {obj.get('k')!r} where this program expected {kind!r}")
        return obj

    def _lost(self, why: str) -> str:
        m = self.match
        if m is None or not m.log:
            return why
        return (f"{why}; game {m.setup.game} is saved after message {len(m.log)}: resume it with "
                f"'toybattle host --resume {m.setup.game}' or 'toybattle join --resume {m.setup.game} CODE'")

    # -------------------------------------------------------------- the game itself

    async def _play(self, link: Link, hello: dict) -> dict:
        m = self.match
        peer = 1 - m.me
        mine = [digest(t) for t in m.log]
        theirs = hello.get("hashes")
        if not isinstance(theirs, list):
            raise SessionError("the other player's hello is malformed")
        same = 0
        while same < min(len(mine), len(theirs)) and mine[same] == theirs[same]:
            same += 1
        if same < min(len(mine), len(theirs)):
            return self._fail(link, Forfeit(peer, f"its record of the game differs from ours at message {same + 1} "
                                                  "(a rewritten past)"))
        if len(mine) > same:
            link.send({"k": "sync", "msgs": m.log[same:]})
        elif len(theirs) > same:
            sync = await self._recv(link, "sync")
            for text in sync.get("msgs") or []:
                if not self._take(link, text):
                    return m.result()
        self._save()
        self.playing = True
        if self.on_play:
            self.on_play()
        self.say(f"playing game {m.setup.game} on {m.setup.terrain} as {SEATS[m.me]}")
        while not m.finished:
            kind = m.my_move()
            if kind:
                action = await self.player.choose(m.observation(), len(m.log)) if kind == "play" else None
                text = m.make(action)
                msg = m.accept(text, m.me)
                self._save()
                link.send({"k": "msg", "m": text})
                self.player.seen(m, msg)
                if not m.finished and m.expected() == (peer, "rand"):
                    sent = time.perf_counter()
                    obj = await self._recv(link)
                    self.round_trips.append(time.perf_counter() - sent)
                else:
                    continue
            else:
                obj = await self._recv(link)
            if obj.get("k") == "forfeit":
                return self._told(obj)
            if (obj.get("k") != "msg" or not self._take(link, obj.get("m"))) and not m.finished:
                return self._fail(link, Forfeit(peer, f"sent a {obj.get('k')!r} message during the game"))
        return m.result()

    def _take(self, link: Link, text: Any) -> bool:
        """Accept the peer's chained message; on a failed check, end the game as a forfeit."""
        m = self.match
        try:
            msg = m.accept(text if isinstance(text, str) else repr(text), 1 - m.me)
        except Forfeit as f:
            self._fail(link, f)
            return False
        self._save()
        self.player.seen(m, msg)
        return True

    def _fail(self, link: Link, f: Forfeit) -> dict:
        self.match.forfeit = f
        self._save()
        link.send({"k": "forfeit", "seat": f.seat, "reason": f.reason})
        return self.match.result()

    def _told(self, obj: dict) -> dict:
        """The other peer's checks failed and it says why; both players are told the same."""
        seat, reason = obj.get("seat"), obj.get("reason")
        if seat not in (0, 1) or not isinstance(reason, str):
            seat, reason = 1 - self.match.me, "ended the game with a malformed forfeit notice"
        self.match.forfeit = Forfeit(seat, reason)
        self._save()
        return self.match.result()

    def _save(self) -> None:
        if self.match.log or self.match.forfeit:
            persist.save(self.store, self.match, self.relay, self.extra)

    def round_trip_ms(self) -> float | None:
        return statistics.median(self.round_trips) * 1000 if self.round_trips else None
