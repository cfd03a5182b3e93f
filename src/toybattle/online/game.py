"""One online game between this peer and the other, over a Link, stored after every agreed message.

Wire messages are JSON objects with a kind ``k`` (their shape is checked by ``wire.check``):
``hello`` (first, unchained: which game, and the hash of every message this peer holds),
``sync`` (after a reconnect: the chained messages the other peer is missing),
``msg`` (one chained message, see protocol.py), ``forfeit`` (a failed check: who and why),
``chat`` (a player's short text or a quick phrase's key: outside the chain, never stored, at most ``chat.BURST`` lines
per ``chat.WINDOW`` seconds taken from the other peer; it may come at any time, even while this
side thinks about its move, and never extends a wait limit), ``here`` (every ``HEARTBEAT`` seconds while
playing, outside the chain: the other side shows as away after ``AWAY_AFTER`` seconds without a word),
``flag`` (in a game with a clock: a claim that a seat's clock ran out, judged by ``_flagged``; docs/fair-play.md,
"Clocks").
A ``hello`` in the middle of a game is the other side coming back after a restart: this side answers
with its own, and each sends what the other misses.

Every wait has a limit: a move ``move_limit``, any other message ``reply_limit``. When it runs out
this side may claim the game (won by abandonment), keep waiting, or close the room (the game stays
saved, to resume); an opening the protocol requires that does not come in time is a forfeit.
"""
from __future__ import annotations

import asyncio
import contextlib
import hashlib
import secrets
import statistics
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

from toybattle.said import Said, of_error

from ..chat import ChatRefused, Limiter, said
from ..clocks import clock_refusal
from ..rules import SEATS, TERRAIN_IDS, State
from ..store import Store
from . import persist, wire
from .mailbox.client import Link, Room, RoomGone
from .mailbox.client import Rooms as MailboxRooms
from .protocol import FLAG_ALLOWANCE, Forfeit, Match, Secrets, Setup, clean_reason, digest
from .transport import Garbled, LinkError, Silence

CHOICES = ("claim", "wait", "close")  # what the waiting side may do when the other's limit runs out
HEARTBEAT = 10.0  # seconds between this side's ``here`` messages while playing (presence)
AWAY_AFTER = 25.0  # seconds without a word from the other side before it shows as away
# a side may come back (a mid-game hello, answered with this side's hello and what it misses) at most
# this often: each costs this side a sync of the history, so more is a flood, and a forfeit
COMEBACK_BURST, COMEBACK_WINDOW = 3, 60.0


class SessionError(Exception):
    """The game cannot start or go on (bad code, wrong game, lost link); one line for the user."""


class Player(Protocol):
    async def choose(self, obs: State, n: int) -> int | None:
        """An action from ``obs.legal_actions()`` (None concedes); ``n`` numbers the decision."""

    def seen(self, match: Match, msg: dict[str, Any]) -> None:
        """A message was agreed (for showing the game); bots ignore it."""


class Rooms(Protocol):
    """Opens, joins and rejoins rooms (online.mailbox.client.Rooms, over the ``websockets`` library or a
    browser's WebSocket)."""

    async def host(self, relay: str, on_code: Callable[[str], Any], wait: float | None) -> Link: ...

    async def join(self, relay: str, code: str, wait: float | None) -> Link: ...

    async def rejoin(self, room: Room) -> Link: ...


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
        action: int = await asyncio.get_running_loop().run_in_executor(None, bot.choose, obs)
        return action

    def seen(self, match: Match, msg: dict[str, Any]) -> None:
        pass


@dataclass
class Options:
    relay: str
    db: str | None = None
    seed: str | None = None  # tests only: makes this peer's secrets reproducible
    move_limit: float = 600.0  # how long the other player may think about a move
    reply_limit: float = 60.0  # how long the other program may take for a message that needs no thought
    when_silent: str = "close"  # claim, wait or close, when a limit runs out (the app asks its player instead)
    wait: float | None = None  # how long to wait for the other player to arrive
    terrain: str = "castle"
    first_game: bool = False
    seat: int = 0  # the host's seat
    resume: str | None = None  # the local id of a stored game
    clock: tuple[int, int] | None = None  # a host's time control: (base, increment) in seconds


def new_game_id(seed: str | None) -> str:
    raw = hashlib.sha256(f"game/{seed}".encode()).digest() if seed is not None else secrets.token_bytes(8)
    return raw[:8].hex()


def _hello(match: Match | None, resume: bool, setup: Setup | None) -> dict[str, Any]:
    return {"k": "hello", "resume": match.setup.game if resume and match else None,
            "setup": setup.to_json() if setup and not resume else None,
            "hashes": [digest(t) for t in match.log] if match else []}


def _check_resume(mine: str | None, theirs: str | None) -> None:
    if mine == theirs:
        return
    if mine is None:
        raise SessionError(Said("online.peer.wantsResume", game=str(theirs)))
    if theirs is None:
        raise SessionError(Said("online.peer.wantsNew"))
    raise SessionError(Said("online.peer.otherGame", game=str(theirs), game2=mine))


def _setup_from(d: Any) -> Setup:
    if not isinstance(d, dict):
        raise SessionError(Said("online.peer.noSetup"))
    clock = d.get("clock")  # types and bounds checked by wire.check
    setup = Setup(d["game"], d["terrain"], d["first_game"], d["host_seat"],  # types checked by wire.check
                  None if clock is None else (clock[0], clock[1]))
    if setup.clock is not None and clock_refusal(*setup.clock):
        raise SessionError(Said("online.peer.noSetup"))
    if setup.terrain not in TERRAIN_IDS:
        raise SessionError(Said("online.peer.terrain", terrain=clean_reason(setup.terrain[:40])))
    return setup


class Claimed(Exception):
    """This side claimed the game after the other's limit ran out."""


class Flagged(Exception):
    """The other side's clock ran out, as this side measures it: this side claims the game on time."""


class Interrupted(Exception):
    """A time claim came while this side thought about its move: it is answered at once."""


class OnlineGame:
    """Runs one game for one peer: handshake, catch-up, then messages until the end."""

    def __init__(self, opts: Options, player: Player, say: Callable[[str], None], store: Store | None = None,
                 rooms: Rooms | None = None):
        self.opts = opts
        self.rooms: Rooms = rooms or MailboxRooms()
        self.player = player
        self.say = say
        self.store = store or Store(opts.db)
        self.match: Match | None = None
        self.local_id: str | None = None  # where this game is stored: chosen here, never by the peer
        self.relay = opts.relay
        self.room: Room | None = None  # the room this game was last played in (to come back without a code)
        self.round_trips: list[float] = []
        self.extra: dict[str, Any] = {}  # more to keep with the stored game (the app keeps its seat's key here)
        self.playing = False  # both peers agreed on the game and its history
        self.on_play: Callable[[], None] | None = None  # called once play begins
        self.deadline: tuple[int, str, float] | None = None  # (seat, "move"/"reply", epoch s) of the wait now
        self.on_wait: Callable[[], None] | None = None  # called when the deadline changes (the app's countdown)
        self.on_silence: Callable[[str, float], Awaitable[str]] | None = None  # the player's choice, if asked
        self.on_chat: Callable[[dict[str, str]], None] | None = None  # a chat line (chat.said) from the other player
        self.link: Link | None = None  # while playing
        self.on_presence: Callable[[], None] | None = None  # called when ``presence()`` changes
        self.heard_at: float | None = None  # epoch s of the other side's last message while playing
        self.back_at: float | None = None  # epoch s the other side was last heard again after being away
        self._heard = Limiter()  # the other player's chat lines
        self._comebacks = Limiter(COMEBACK_BURST, COMEBACK_WINDOW)  # the other player's mid-game hellos
        self._held: asyncio.Future[dict[str, Any]] | None = None  # a message read while this side thought
        self._opening_clock: tuple[tuple[int, int], float] | None = None  # a required opening: since when due

    @property
    def m(self) -> Match:
        if self.match is None:
            raise SessionError(Said("online.peer.noGame"))
        return self.match

    async def load(self) -> None:
        if self.opts.resume and self.match is None:
            try:
                self.match, stored_relay, self.local_id = await persist.load(self.store, self.opts.resume)
                self.room = persist.room(await self.store.get_async(self.local_id))
            except persist.NoSuchGame as e:
                raise SessionError(of_error(e)) from None
            self.relay = self.opts.relay or stored_relay

    async def _start(self, setup: Setup, seat: int) -> None:
        local = await persist.new_id(self.store)  # before the match: once it is set, the game can be found by id
        self.match, self.local_id = Match(setup, seat, Secrets.generate(self.opts.seed)), local

    async def host(self, on_code: Callable[[str], None]) -> dict[str, Any]:
        await self.load()
        if self.match is None:
            await self._start(Setup(new_game_id(self.opts.seed), self.opts.terrain, self.opts.first_game,
                              self.opts.seat, self.opts.clock), self.opts.seat)
        link = await self._guard(self.rooms.host(self.relay, on_code, self.opts.wait))
        return await self._closing(link, self.host_on(link))

    async def host_on(self, link: Link) -> dict[str, Any]:
        link.send(_hello(self.match, bool(self.opts.resume), self.m.setup))
        theirs = await self._greeting(link)
        _check_resume(self.m.setup.game if self.opts.resume else None, theirs["resume"])
        return await self._play(link, theirs)

    async def join(self, code: str) -> dict[str, Any]:
        await self.load()
        wait = self.opts.wait or 60.0
        link = await self._guard(self.rooms.join(self.relay, code, wait))
        return await self._closing(link, self.join_on(link))

    async def join_on(self, link: Link) -> dict[str, Any]:
        theirs = await self._greeting(link)
        _check_resume(self.match.setup.game if self.match else None, theirs["resume"])
        if self.match is None:
            setup = _setup_from(theirs["setup"])
            await self._start(setup, 1 - setup.host_seat)
        link.send(_hello(self.match, bool(self.opts.resume), None))
        return await self._play(link, theirs)

    async def rejoin(self) -> dict[str, Any]:
        """Back into the room this stored game was played in, with no code: both sides' hellos settle what
        each misses, as after a fresh-code resume. SessionError (one line) if the mailbox forgot the room."""
        await self.load()
        if self.room is None:
            raise SessionError(Said("online.link.noRoomToRejoin", game=str(self.local_id)))
        try:
            link = await self.rooms.rejoin(self.room)
        except RoomGone as e:
            raise SessionError(Said("online.link.goneResume", why=of_error(e), game=str(self.local_id))) from None
        except LinkError as e:
            raise SessionError(of_error(e)) from None

        async def again() -> dict[str, Any]:
            link.send(_hello(self.match, True, None))
            theirs = await self._greeting(link, skip=True)
            _check_resume(self.m.setup.game, theirs["resume"])
            return await self._play(link, theirs)
        return await self._closing(link, again())

    async def _closing(self, link: Link, playing: Coroutine[Any, Any, dict[str, Any]]) -> dict[str, Any]:
        """Play on ``link``, then leave the room: closed for good once the game is over, kept otherwise
        (an unfinished game comes back to it without a code)."""
        self.room = link.room
        link.on_status(lambda _online: self._presence())
        try:
            return await playing
        finally:
            await link.close(done=self.match is not None and self.match.finished)

    def _presence(self) -> None:
        if self.on_presence:
            self.on_presence()

    def presence(self) -> dict[str, Any]:
        """How both sides stand: ``online`` (this side's link to the mailbox is open), ``peer`` ("here" or
        "away"), ``since`` (epoch s the other side was last heard, when away), ``back`` (epoch s it was heard
        again after being away)."""
        away = self.peer_away()
        return {"online": self.link is not None and self.link.online, "peer": "away" if away else "here",
                "since": round(self.heard_at, 1) if away and self.heard_at else None,
                "back": round(self.back_at, 1) if self.back_at else None}

    def peer_away(self) -> bool:
        return (self.playing and self.link is not None and self.heard_at is not None
                and time.time() - self.heard_at > AWAY_AFTER)

    def _hear_peer(self) -> None:
        away = self.peer_away()
        self.heard_at = time.time()
        if away:
            self.back_at = self.heard_at
            self._presence()

    async def _heartbeat(self, link: Link) -> None:
        """Say ``here`` every HEARTBEAT seconds, and tell the page when the other side turns away."""
        sent, away = time.monotonic(), False
        while True:
            now = time.monotonic()
            if link.online and now - sent >= HEARTBEAT:
                link.send({"k": "here"})
                sent = now
            if self.peer_away() != away:
                away = not away
                self._presence()
            await asyncio.sleep(1.0)

    async def _guard(self, coro: Coroutine[Any, Any, Link]) -> Link:
        try:
            return await coro
        except LinkError as e:
            raise SessionError(of_error(e)) from None

    async def _greeting(self, link: Link, kind: str = "hello", skip: bool = False) -> dict[str, Any]:
        """A message of the handshake: anything wrong with it is one line, and nothing is stored. With
        ``skip``, what the other side sent before it heard this side come back is passed over: its hello
        lists it, and the catch-up sends it again. (If the other side came back too, its hello is there
        already, and it waits for this side's: each takes the other's as its greeting.)"""
        try:
            obj = await self._next(link, "reply")
            while skip and obj["k"] in ("msg", "sync"):
                obj = await self._next(link, "reply")
        except wire.Malformed as e:
            raise SessionError(Said("online.peer.malformed", error=of_error(e))) from None
        if obj["k"] != kind:
            raise SessionError(Said("online.peer.unexpected", kind=clean_reason(str(obj["k"])[:20]), kind2=kind))
        return obj

    async def _next(self, link: Link, due: str) -> dict[str, Any]:
        """The peer's next message, its shape checked (wire.Malformed if not). The wait is limited;
        when the limit runs out, a required opening is forfeited, otherwise this side chooses."""
        limit = self.opts.move_limit if due == "move" else self.opts.reply_limit
        if due == "move" and self.match is not None and self.match.clocks:  # never undercuts the mover's clock
            limit = max(limit, self._clock_left(1 - self.match.me) + 2 * FLAG_ALLOWANCE)
        until: float | None = None
        while True:
            if until is None:
                until = self._until(limit)
            self._wait_for(due, until - time.monotonic())
            try:
                while True:  # chat lines and presence do not extend the wait
                    flag_at = self._flag_at()
                    end = until if flag_at is None else min(until, flag_at + 0.01)
                    obj = wire.check(await self._recv(link, max(0.0, end - time.monotonic())))
                    self._hear_peer()
                    if obj["k"] == "here" or self._stored_already(obj):
                        continue
                    if obj["k"] != "chat":
                        return obj
                    self._chat_in(obj)
            except Garbled as e:
                said = of_error(e)  # what the other player sent, without "the other player sent"
                raise wire.Malformed(dict(said.args).get("what", said) if isinstance(said, Said) else said) from None
            except Silence:
                self._wait_for(None, 0)
                if self.playing and not await link.alive():
                    until = None
                    await asyncio.sleep(0.1)  # past a fixed deadline the next read would not wait: no spinning
                    continue  # it is this side that is cut off: the other's silence is not its own
                if link.waiting():
                    continue  # it came while this side asked the mailbox whether it is still there
                flag_at = self._flag_at()
                if flag_at is not None and flag_at <= time.monotonic():
                    raise Flagged() from None
                if flag_at is not None and time.monotonic() < until:
                    continue  # woken to look at the clock, which has not quite run out
                if not self.playing or self.match is None:
                    raise SessionError(Said("error.silent", n=f"{limit:g}")) from None
                if self.match.opening_due():
                    raise Forfeit(1 - self.match.me, Said("forfeit.withheld", limit=f"{limit:g}")) from None
                choice = await self._choose_on_silence(due, limit)
                if choice == "claim":
                    due_words = Said("forfeit.due.move" if due == "move" else "forfeit.due.reply")
                    self.match.claim(1 - self.match.me, Said("forfeit.silent", limit=f"{limit:g}", due=due_words))
                    raise Claimed() from None
                if choice == "close":
                    raise SessionError(self._lost(Said("error.silent", n=f"{limit:g}"))) from None
                until = None
            except LinkError as e:
                raise SessionError(self._lost(of_error(e))) from None
            finally:
                self._wait_for(None, 0)

    def _clock_left(self, seat: int) -> float:
        """Seconds left on ``seat``'s clock as this side measures it (0 without a clock)."""
        c = self.match.clocks if self.match else None
        return max(0.0, c.now_left(seat, time.monotonic())) if c else 0.0

    def _flag_at(self) -> float | None:
        """When (monotonic s) the other side's clock runs out as this side measures it, if it runs now."""
        m = self.match
        c = m.clocks if m else None
        if m is None or c is None or c.running != 1 - m.me or m.finished or not self.playing:
            return None
        return c.since + c.left[c.running]

    def clocks(self) -> dict[str, Any] | None:
        """Both clocks for a view: each seat's seconds left (``left``, by seat name), whose runs (``running``)
        and when this was measured (``at``, epoch s), so a page can count the running one down."""
        c = self.match.clocks if self.match else None
        return None if c is None else c.view(time.monotonic(), time.time(), self.playing)

    def _lag(self) -> float:
        return statistics.median(self.round_trips) if self.round_trips else 0.0

    def _stored_already(self, obj: dict[str, Any]) -> bool:
        """Whether ``obj`` carries only chained messages this side holds already, word for word. Back in a
        room after a restart, the mailbox delivers again what the other side sent after this side's last
        word there (an old hello, a catch-up, a move this side took before it stopped): a copy of an agreed
        message changes nothing, and is no forfeit. (A different message of the same number still is.)"""
        m = self.match
        if m is None or obj["k"] not in ("msg", "sync"):
            return False
        texts = [obj["m"]] if obj["k"] == "msg" else obj["msgs"]
        return bool(texts) and set(texts) <= set(m.log)

    def _until(self, limit: float) -> float:
        """When the wait now ends (monotonic s). A required opening's wait is counted once from when it
        fell due: nothing else the other side sends (a hello, a chat line) starts it again."""
        m = self.match
        if m is None or not m.opening_due():
            return time.monotonic() + limit
        due = (len(m.log), m.event)
        if self._opening_clock is None or self._opening_clock[0] != due:
            self._opening_clock = (due, time.monotonic())
        return self._opening_clock[1] + limit

    async def _recv(self, link: Link, timeout: float) -> dict[str, Any]:
        held, self._held = self._held, None
        if held is not None:
            return held.result()
        return await link.recv(timeout)

    def _chat_in(self, obj: dict[str, Any]) -> None:
        """A chat line from the other player (its shape checked by ``wire``): shown if it is a clean text or
        a known quick phrase and not one too many, else dropped."""
        try:
            line = said(obj.get("text"), obj.get("phrase"))
        except ChatRefused:
            return
        if self._heard.allow(1) and self.on_chat:
            self.on_chat(line)

    def chat(self, line: dict[str, str]) -> None:
        """Send this player's chat line (rate-limited by the caller). It is checked here as the other side
        will check it (``chat.said``, then ``wire.check``): a line the other side would refuse (too long, say)
        is refused before it is sent, never sent to make this side forfeit. SessionError says why."""
        if self.link is None or not self.playing:
            raise SessionError(Said("chat.away"))
        try:
            out = {"k": "chat", **said(line.get("text"), line.get("phrase"))}
            wire.check(out)
        except (ChatRefused, wire.Malformed) as e:
            raise SessionError(of_error(e)) from None
        self.link.send(out)

    async def _listening(self, link: Link, choosing: Awaitable[int | None]) -> int | None:
        """Wait for this player's choice while reading the other's chat lines; any other message is
        held for ``_next`` (the other peer has nothing else to say while this side thinks)."""
        choice = asyncio.ensure_future(choosing)
        reading: asyncio.Future[dict[str, Any]] | None = None
        try:
            while self._held is None:
                reading = asyncio.ensure_future(link.recv(None))
                await asyncio.wait({choice, reading}, return_when=asyncio.FIRST_COMPLETED)
                if not reading.done():
                    break
                try:
                    obj = wire.check(reading.result())
                except (LinkError, wire.Malformed):
                    self._held = reading
                    break
                self._hear_peer()
                if obj["k"] == "chat":
                    self._chat_in(obj)
                elif obj["k"] != "here":
                    self._held = reading
                    if obj["k"] == "flag":  # a time claim is answered at once, this side's move unmade
                        raise Interrupted()
            return await choice
        finally:
            choice.cancel()
            if reading is not None and not reading.done():  # no stray reader may take the next message
                reading.cancel()
                with contextlib.suppress(asyncio.CancelledError, LinkError):
                    await reading

    async def _choose_on_silence(self, due: str, limit: float) -> str:
        choice = await self.on_silence(due, limit) if self.on_silence else self.opts.when_silent
        return choice if choice in CHOICES else "close"

    def _wait_for(self, due: str | None, limit: float) -> None:
        if due is None:
            self.deadline = None
        else:
            seat = 1 - self.m.me if self.match else 1
            self.deadline = (seat, due, time.time() + limit)
        if self.on_wait:
            self.on_wait()

    def _lost(self, why: str) -> str:
        m = self.match
        if m is None or not m.log:
            return why
        return Said("online.lost", why=why, game=str(self.local_id), n=len(m.log))

    # -------------------------------------------------------------- the game itself

    async def _play(self, link: Link, hello: dict[str, Any]) -> dict[str, Any]:
        m = self.m
        self.link = link
        beating: asyncio.Future[None] | None = None
        try:
            await self._catch_up(link, hello)
            await self._save()
            self.playing = True
            # back in a room after a restart, the other side's latest word may be old (the mailbox says how old)
            self.heard_at = min(time.time(), link.their_last or time.time())
            m.clock_tick({}, time.monotonic())  # the clock of the seat to move runs from now
            beating = asyncio.ensure_future(self._heartbeat(link))
            if self.on_play:
                self.on_play()
            self.say(f"playing game {m.setup.game} on {m.setup.terrain} as {SEATS[m.me]}")
            while not m.finished:
                if m.my_move() and await self._own(link):
                    continue
                sent = time.perf_counter()
                obj = await self._next(link, "move" if m.expected()[1] == "play" else "reply")
                if m.expected()[1] == "rand":
                    self.round_trips.append(time.perf_counter() - sent)
                if obj["k"] == "forfeit":
                    return await self._told(obj)
                if obj["k"] == "flag":
                    return await self._flagged(obj)
                if obj["k"] == "hello":  # the other side came back into the room after a restart or a reload
                    await self._welcome_back(link, obj)
                    continue
                if obj["k"] != "msg":
                    raise Forfeit(1 - m.me, Said("forfeit.wrongMessage", kind=clean_reason(str(obj["k"])[:20])))
                await self._take(obj["m"])
        except Forfeit as f:
            return await self._fail(link, f)
        except wire.Malformed as e:
            return await self._fail(link, Forfeit(1 - m.me, Said("forfeit.malformed", error=of_error(e))))
        except Claimed:
            await self._save()
        except Flagged:
            return await self._flag(link)
        finally:
            self.link = None
            if beating is not None:
                beating.cancel()
        return m.result()

    async def _welcome_back(self, link: Link, hello: dict[str, Any]) -> None:
        """The other side restarted and said hello again in the same room: answer it, then each side sends
        what the other misses, checked as always."""
        m = self.m
        if hello["resume"] != m.setup.game:
            raise Forfeit(1 - m.me, Said("forfeit.otherHello"))
        if not self._comebacks.allow(1):
            raise Forfeit(1 - m.me, Said("forfeit.comeback", n=COMEBACK_BURST, limit=f"{COMEBACK_WINDOW:g}"))
        link.send(_hello(m, True, None))
        await self._catch_up(link, hello)

    async def _catch_up(self, link: Link, hello: dict[str, Any]) -> None:
        """Compare both histories hash by hash; the longer side sends what the other misses."""
        m = self.m
        mine, theirs = [digest(t) for t in m.log], hello["hashes"]
        same = 0
        while same < min(len(mine), len(theirs)) and mine[same] == theirs[same]:
            same += 1
        if same < min(len(mine), len(theirs)):
            raise Forfeit(1 - m.me, Said("forfeit.rewritten", n=same + 1))
        if len(mine) > same:
            link.send({"k": "sync", "msgs": m.log[same:]})
        elif len(theirs) > same:
            obj = await self._next(link, "reply")
            if obj["k"] != "sync":
                raise Forfeit(1 - m.me, Said("forfeit.noSync", kind=clean_reason(str(obj["k"])[:20])))
            for text in obj["msgs"]:
                await self._take(text)

    async def _own(self, link: Link) -> bool:
        """Make, store and send this side's next message; False if a time claim came first (it is held)."""
        m = self.m
        kind = m.my_move()
        action = None
        if kind == "play":
            limit = self.opts.move_limit
            if m.clocks:  # the other side waits at least as long as this side's clock runs
                limit = max(limit, self._clock_left(m.me) + 2 * FLAG_ALLOWANCE)
            self.deadline = (m.me, "move", time.time() + limit)  # as the other side counts it
            if self.on_wait:
                self.on_wait()
            try:
                action = await self._listening(link, self.player.choose(m.observation(), len(m.log)))
            except Interrupted:
                return False
        text = m.make(action)
        msg = m.accept(text, m.me)
        m.clock_tick(msg, time.monotonic())
        await self._save()
        link.send({"k": "msg", "m": text})
        self.player.seen(m, msg)
        return True

    async def _take(self, text: str) -> None:
        """Accept the peer's chained message (Forfeit if a check fails), store it, show it."""
        m = self.m
        msg = m.accept(text, 1 - m.me)
        m.clock_tick(msg, time.monotonic())
        await self._save()
        self.player.seen(m, msg)

    async def _fail(self, link: Link, f: Forfeit) -> dict[str, Any]:
        m = self.m
        m.forfeit = f
        await self._save()
        link.send({"k": "forfeit", "seat": f.seat, "reason": f.reason})
        return m.result()

    async def _told(self, obj: dict[str, Any]) -> dict[str, Any]:
        """A forfeit notice. The other peer may concede its own seat; a claim that this seat broke a
        rule is believed only if this peer's own check of its own messages finds the fault. A claim that
        check refutes is the accuser's forfeit: it has stopped the game (it plays no further), and the
        honest side keeps a result rather than a game that can never end."""
        m = self.m
        seat, reason = obj["seat"], clean_reason(obj["reason"])
        if seat != m.me:
            m.forfeit = Forfeit(seat, reason)
        else:
            own = m.recheck()
            # an opening was due from the accuser: a claim its own check refutes does not put it off
            if own is None and m.opening_due() and m.expected()[0] != m.me:
                raise Forfeit(1 - m.me, Said("forfeit.withheldClaim"))
            if own is None:  # its words are not kept: they are the other program's, and false
                raise Forfeit(1 - m.me, Said("forfeit.falseClaim", seat=SEATS[m.me]))
            m.forfeit = own
        await self._save()
        return m.result()

    async def _flag(self, link: Link) -> dict[str, Any]:
        """The other side's clock ran out as this side measures it: its loss on time, stored, then said to it
        (``flag``: which seat, and how many messages were agreed when its play fell due)."""
        m = self.m
        other, n = 1 - m.me, len(m.log)
        m.forfeit = Forfeit(other, Said("forfeit.flag", n=n + 1))
        if m.clocks:
            m.clocks.stop(time.monotonic())
        await self._save()
        link.send({"k": "flag", "seat": other, "n": n})
        return m.result()

    async def _flagged(self, obj: dict[str, Any]) -> dict[str, Any]:
        """A time claim. Against the sender's own seat it concedes; against this seat it is checked against
        this side's own measure of its own clock (``Match.judge_flag``): believed within the allowance (this
        seat's loss on time), else it is the claimant's forfeit, as a false forfeit notice is (``_told``)."""
        m = self.m
        seat, n = obj["seat"], obj["n"]
        if seat == m.me:
            verdict = m.judge_flag(n, time.monotonic(), self._lag())
            if verdict is None or not verdict[0]:
                left = f"{verdict[1]:.0f}" if verdict else "?"
                raise Forfeit(1 - m.me, Said("forfeit.falseFlag", seat=SEATS[m.me], left=left))
        m.forfeit = Forfeit(seat, Said("forfeit.flag", n=n + 1))
        if m.clocks:
            m.clocks.stop(time.monotonic())
        await self._save()
        return m.result()

    async def _save(self) -> None:
        """Store the game off the event loop (persist.save); returns once it is durable."""
        m = self.m
        if (m.log or m.forfeit) and self.local_id:
            await persist.save(self.store, m, self.local_id, self.relay, self.extra, self.room)

    def round_trip_ms(self) -> float | None:
        return statistics.median(self.round_trips) * 1000 if self.round_trips else None
