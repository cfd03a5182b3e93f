"""Meet the other player through a magic-wormhole mailbox, on asyncio.

It speaks what magic-wormhole's own client speaks, so the other side may be the reference magic-wormhole
library as well as this client (on the desktop, the command line, or a browser on Pyodide):

- the mailbox protocol: JSON objects over one websocket (``bind``, ``allocate``/``list``, ``claim``,
  ``open``, ``add``, ``release``, ``close``; the mailbox answers ``welcome``, ``allocated``, ``nameplates``,
  ``claimed``, ``message``, ``released``, ``closed``, ``ack``, ``error``); every message added to the
  mailbox is echoed to both sides, each with the ``side`` that added it and its ``phase``;
- phase ``pake``: ``{"pake_v1": hex}`` of a symmetric SPAKE2 message, password = the code, identity =
  the app id;
- phase ``version``, then ``0``, ``1``, …: NaCl secretboxes under HKDF(key, "wormhole:phase:" +
  SHA-256(sender's side) + SHA-256(phase)). The version box holds ``{"app_versions": ...}``; one that
  does not open means the two sides typed different codes.

The websocket is pluggable (``Connect``): the ``websockets`` library natively, the browser's WebSocket
in a Pyodide worker. The same client serves the desktop app, the command line and the site.

Drops are routine. Once the room's mailbox is open, a lost websocket is reopened with backoff: bind
again with the same side, claim the nameplate again if this side still holds it, open the same mailbox,
then ``ping``. The mailbox answers ``open`` with every message it holds, oldest first, and the ``pong``
only after them, so by then this side knows which of its own messages the mailbox kept (each is echoed)
and sends again only those it did not; the other side's messages seen before are dropped by (side, phase).
``Room`` is what a side keeps beside its saved game to come back into the room after a restart, with no
code: a mailbox that no longer holds any of this side's messages has forgotten the room (``RoomGone``).
"""
from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import re
import secrets
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources
from typing import Any, Protocol

from toybattle.said import Said, of_error

from ... import bounded
from ..protocol import PROTOCOL
from ..transport import APPID, CODE_RE, Garbled, LinkError, Silence, parse
from ..wire import WIRE
from .backend import default
from .primitives import CryptoError, Primitives
from .spake2 import PakeError, Spake2

log = logging.getLogger("toybattle.online.mailbox")
Msg = dict[str, Any]  # one JSON object of the mailbox protocol
REPLY_WAIT = 20.0  # seconds the mailbox may take to answer one request
# a websocket whose mailbox does not answer a ping within PONG_WAIT s is taken for dead and reopened: a phone
# that loses its signal often keeps a socket that looks open but carries nothing (a browser never notices)
KEEPALIVE, PONG_WAIT = 10.0, 5.0
# seconds before each attempt to reopen a lost websocket (then every 2 s, with jitter): a phone's signal comes
# back within seconds, each second waited past its return is a second the game stands still, and one attempt
# every two seconds is nothing to a mailbox
BACKOFF = (0.2, 0.5, 1.0, 1.5, 2.0)
# seconds a side that leaves a finished game's room waits for the mailbox to keep its last messages (its final
# opening, say): left unsent, the other side would wait for them and take the silence for a withheld opening
FLUSH_WAIT = REPLY_WAIT
# what the other side may put in the mailbox is read strictly (fullmatch: no padding, no "007", no "²"):
PHASE = re.compile(r"0|[1-9][0-9]{0,8}")  # a numbered phase, in canonical decimal
NAMED = re.compile(r"[a-z][a-z0-9_-]{0,39}")  # a named phase (pake, version, the wormhole's dilate-0): ignored
HEX = re.compile(r"(?:[0-9a-f]{2})*")  # a body: lowercase hex
FRAME_DEPTH = 8  # bracket levels of a mailbox frame (the deepest, a nameplates list, has 3)
BODY_DEPTH = 3  # bracket levels of the PAKE message and the version box (2 for an honest one)
AHEAD = 10_000  # a numbered phase this far past the next one expected is refused (nothing honest gets there)


class Socket(Protocol):
    """One websocket: text frames in and out; ``recv`` raises EOFError once the socket is closed."""

    async def send(self, text: str) -> None: ...

    async def recv(self) -> str: ...

    async def close(self) -> None: ...


Connect = Callable[[str], Awaitable[Socket]]


class _Websockets:
    """A Socket over the ``websockets`` library (native Python)."""

    def __init__(self, ws: Any):
        self._ws = ws

    async def send(self, text: str) -> None:
        from websockets.exceptions import ConnectionClosed
        try:
            await self._ws.send(text)
        except ConnectionClosed:
            raise EOFError from None

    async def recv(self) -> str:
        from websockets.exceptions import ConnectionClosed
        try:
            data = await self._ws.recv()
        except ConnectionClosed:
            raise EOFError from None
        return data if isinstance(data, str) else data.decode("utf-8", "replace")

    async def close(self) -> None:
        await self._ws.close()


async def connect_websockets(url: str) -> Socket:
    """Open ``url`` with the ``websockets`` library; OSError (or a subclass) if it cannot."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidHandshake, InvalidURI
    try:
        return _Websockets(await connect(url, open_timeout=REPLY_WAIT, max_size=2**22))
    except (InvalidURI, InvalidHandshake, TimeoutError) as e:
        raise OSError(str(e)) from None


def phase_key(crypto: Primitives, key: bytes, side: str, phase: str) -> bytes:
    purpose = b"wormhole:phase:" + hashlib.sha256(side.encode()).digest() + hashlib.sha256(phase.encode()).digest()
    return crypto.hkdf(key, 32, purpose)


@cache
def _words() -> tuple[list[str], list[str]]:
    data = json.loads(resources.files(__package__).joinpath("data/words.json").read_text("utf-8"))
    return data["odd"], data["even"]


def new_words() -> str:
    """Two random words for a room code, an odd word then an even one (as magic-wormhole does)."""
    odd, even = _words()
    return f"{secrets.choice(odd)}-{secrets.choice(even)}"


class RoomGone(LinkError):
    """The mailbox no longer holds this room (it forgets one left alone for about ten minutes)."""


@dataclass(frozen=True)
class Room:
    """What a side needs to come back into its room without the code: kept beside the saved game, on this
    machine only (the key opens every message of the room)."""
    relay: str
    side: str
    mailbox: str
    key: str  # hex
    their_side: str
    code: str

    def to_json(self) -> dict[str, str]:
        return asdict(self)

    @classmethod
    def from_json(cls, d: Any) -> Room | None:
        """The stored room, or None for anything that is not one (an older save, a damaged row)."""
        try:
            room = cls(**{k: d[k] for k in ("relay", "side", "mailbox", "key", "their_side", "code")})
            bytes.fromhex(room.key)
        except (TypeError, KeyError, ValueError):
            return None
        return room if all(isinstance(v, str) and v for v in asdict(room).values()) else None


class _Connection:
    """The websocket to the mailbox, reopened after a drop once the room's mailbox is open. Answers wait
    in one queue per kind, the other side's messages in ``peer`` (None there: the room is lost for good)."""

    def __init__(self, connect: Connect, relay: str, side: str | None = None):
        self.connect = connect
        self.relay = relay
        self.side = side or secrets.token_hex(5)
        self.replies: defaultdict[str, asyncio.Queue[Msg]] = defaultdict(asyncio.Queue)
        self.peer: asyncio.Queue[Msg | None] = asyncio.Queue()
        self.lost: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.nameplate: str | None = None  # claimed and not released
        self.mailbox: str | None = None  # opened: from then on a drop is reconnected
        self.closed = False
        self.seen: set[tuple[str, str]] = set()  # (side, phase) of every message taken, mine (echoed) or theirs
        self.pending: dict[str, str] = {}  # phase -> hex body of my messages the mailbox has not echoed yet
        self.kept = asyncio.Event()  # set while ``pending`` is empty: the mailbox keeps all this side sent
        self.kept.set()
        self.online = asyncio.Event()  # a websocket is open and the room is (re)opened on it
        self.on_status: Callable[[bool], None] | None = None  # told when the websocket drops and comes back
        self.reconnects = 0
        self.their_last: float | None = None  # when the other side's latest message reached the mailbox (epoch s)
        self._arrived: list[tuple[str, str]] = []  # (side, phase) of every message on this websocket, in order
        self._sock: Socket | None = None
        self._out: asyncio.Queue[str | None] = asyncio.Queue()
        self._tasks: list[asyncio.Future[Any]] = []
        self._keeper: asyncio.Future[None] | None = None
        self._closing: set[asyncio.Future[None]] = set()  # websockets being closed (kept from the collector)
        self._pongs: dict[int, asyncio.Future[None]] = {}  # pings sent, by token, until their pong

    async def start(self) -> None:
        """Open the websocket, wait for the mailbox's welcome, bind (LinkError if any of it fails)."""
        await self._attach()
        self.online.set()

    async def _attach(self) -> None:
        try:
            sock = await self.connect(self.relay)
        except (OSError, ValueError):
            raise LinkError(Said("online.link.unreachable", relay=self.relay)) from None
        self._sock, self._out, self._arrived = sock, asyncio.Queue(), []
        dead: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._tasks = [asyncio.ensure_future(self._read(sock, dead)), asyncio.ensure_future(self._write(sock)),
                       asyncio.ensure_future(self._watch(sock)), dead]
        try:
            welcome = (await self.reply("welcome", within=dead)).get("welcome")
        except LinkError:
            self._detach()
            raise LinkError(Said("online.link.unreachable", relay=self.relay)) from None
        if isinstance(welcome, dict) and "error" in welcome:
            self._detach()
            self._fail(Said("online.link.refused", relay=self.relay, error=str(welcome["error"])[:200]))
            raise LinkError(self.lost.result())
        self.tx("bind", appid=APPID, side=self.side, client_version=["python", "toybattle"])

    def _detach(self) -> None:
        for task in self._tasks:
            task.cancel()
        sock, self._sock = self._sock, None
        if sock is not None:
            closing = asyncio.ensure_future(_close_quietly(sock))
            self._closing.add(closing)
            closing.add_done_callback(self._closing.discard)

    def tx(self, kind: str, **fields: Any) -> None:
        self._out.put_nowait(json.dumps({"type": kind, "id": secrets.token_hex(2), **fields}))

    def add(self, phase: str, body: bytes) -> None:
        """Add a message; kept until the mailbox echoes it, so a drop before that sends it again."""
        self.pending[phase] = body.hex()
        self.kept.clear()
        if self.online.is_set():
            self.tx("add", phase=phase, body=self.pending[phase])

    def release(self) -> None:
        """Give the nameplate back: the code can never open this room again."""
        if self.nameplate is not None:
            self.tx("release", nameplate=self.nameplate)
            self.nameplate = None

    def open_mailbox(self, mailbox: str) -> None:
        self.mailbox = mailbox
        self.tx("open", mailbox=mailbox)

    def _fail(self, why: str) -> None:
        if not self.lost.done():
            self.lost.set_result(why)
            self.peer.put_nowait(None)
            self.online.clear()

    async def _write(self, sock: Socket) -> None:
        out = self._out
        with contextlib.suppress(EOFError, OSError):
            while (text := await out.get()) is not None:
                await sock.send(text)

    async def _read(self, sock: Socket, dead: asyncio.Future[None]) -> None:
        try:
            while True:
                msg = _parse(await sock.recv())
                kind = msg.get("type")
                if kind == "message":
                    self._message(msg)
                elif kind == "pong":
                    token = msg.get("pong")
                    waiter = self._pongs.pop(token, None) if isinstance(token, int) else None
                    if waiter is not None and not waiter.done():
                        waiter.set_result(None)
                elif kind == "error":
                    self._fail(Said("online.link.mailboxRefused", relay=self.relay, error=str(msg.get("error"))[:200]))
                elif isinstance(kind, str) and kind != "ack":
                    self.replies[kind].put_nowait(msg)
        except (EOFError, OSError):
            pass
        finally:
            if not dead.done():
                dead.set_result(None)
            if sock is self._sock:
                self._dropped()

    def _message(self, msg: Msg) -> None:
        side, phase = msg.get("side"), msg.get("phase")
        if not isinstance(side, str) or not isinstance(phase, str):
            return
        self._arrived.append((side, phase))
        if side != self.side:  # how old it is, by the mailbox's clock (sent now, received then): no skew
            rx, tx = msg.get("server_rx"), msg.get("server_tx")
            age = float(tx - rx) if isinstance(rx, int | float) and isinstance(tx, int | float) else 0.0
            self.their_last = max(self.their_last or 0.0, time.time() - min(max(age, 0.0), 86400.0))
        if (side, phase) in self.seen:
            return  # a message seen before: the mailbox sends them all again when the room is reopened
        self.seen.add((side, phase))
        if side == self.side:  # the mailbox echoes my own messages: this one is kept there
            self.pending.pop(phase, None)
            if not self.pending:
                self.kept.set()
        else:
            self.peer.put_nowait(msg)

    def _dropped(self) -> None:
        """The websocket closed under us: before the room's mailbox is open that ends the attempt; after, it
        is reopened in the background while the game waits."""
        log.debug("the websocket to %s dropped", self.relay)
        self.online.clear()
        self._detach()
        if self.closed or self.lost.done():
            return
        if self.mailbox is None:
            self._fail(Said("online.link.mailboxClosed"))
            return
        if self.on_status:
            self.on_status(False)
        if self._keeper is None or self._keeper.done():
            self._keeper = asyncio.ensure_future(self._reconnect())

    async def _reconnect(self) -> None:
        attempt = 0
        while not (self.closed or self.lost.done()):
            await asyncio.sleep(BACKOFF[min(attempt, len(BACKOFF) - 1)] * (0.75 + secrets.randbelow(50) / 100))
            attempt += 1
            try:
                await self.reopen()
            except RoomGone as e:
                self._fail(of_error(e))
                return
            except (LinkError, OSError, EOFError) as e:  # still unreachable: try again later
                log.debug("reconnecting to %s failed: %s", self.relay, e)
                self._detach()
                continue
            self.reconnects += 1
            log.debug("back in the room at %s after %d attempts", self.relay, attempt)
            if self.on_status:
                self.on_status(True)
            return

    async def reopen(self, sent: bool = False) -> list[tuple[str, str]]:
        """A new websocket into the same room: bind with this side, claim the nameplate this side still
        holds, open the mailbox, and send again what it did not keep. Returns (side, phase) of every message
        the mailbox held; RoomGone if it holds none of this side's though this side has sent some (``sent``:
        it has, though this connection has seen none of them: back after a restart)."""
        assert self.mailbox is not None
        sent_before = sent or any(side == self.side for side, _ in self.seen) or bool(self.pending)
        await self._attach()
        if self.nameplate is not None:
            self.tx("claim", nameplate=self.nameplate)
        self.tx("open", mailbox=self.mailbox)
        await self.ping(REPLY_WAIT, self._tasks[-1])
        held = list(self._arrived)  # the mailbox sends what it holds on ``open``, all before the pong
        if sent_before and not any(side == self.side for side, _ in held):
            raise RoomGone(Said("online.link.gone", relay=self.relay))
        for phase, body in self.pending.items():
            self.tx("add", phase=phase, body=body)
        self.online.set()
        return held

    async def ping(self, wait: float, dead: asyncio.Future[None]) -> None:
        """A ping answered by the mailbox within ``wait`` s (LinkError if not, or if the socket died)."""
        token = secrets.randbelow(1 << 30)
        answered: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pongs[token] = answered
        self.tx("ping", ping=token)
        try:
            waiting: set[asyncio.Future[Any]] = {answered, dead, self.lost}
            await asyncio.wait(waiting, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._pongs.pop(token, None)
        if not answered.done():
            raise LinkError(Said("online.link.noAnswer", relay=self.relay))

    async def alive(self) -> bool:
        """Whether the mailbox answers now; a socket that does not is dropped (and reopened)."""
        sock = self._sock
        if sock is None or not self.online.is_set():
            return False
        try:
            await self.ping(PONG_WAIT, self._tasks[-1])
        except LinkError:
            if sock is self._sock:
                self._dropped()
            return False
        return True

    async def _watch(self, sock: Socket) -> None:
        """Ask the mailbox now and then whether this socket still carries anything (``alive``)."""
        while True:
            await asyncio.sleep(KEEPALIVE)
            if sock is not self._sock:
                return
            if self.online.is_set():
                await self.alive()

    async def reply(self, kind: str, timeout: float | None = REPLY_WAIT,
                    within: asyncio.Future[Any] | None = None) -> Msg:
        """The mailbox's next answer of this kind; LinkError if the connection is lost or it is silent."""
        get = asyncio.ensure_future(self.replies[kind].get())
        waiting: set[asyncio.Future[Any]] = {get, self.lost}
        if within is not None:
            waiting.add(within)
        await asyncio.wait(waiting, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if get.done():
            return get.result()
        get.cancel()
        if self.lost.done():
            raise LinkError(self.lost.result())
        if within is not None and within.done():
            raise LinkError(Said("online.link.mailboxClosed"))
        raise LinkError(Said("online.link.noAnswer", relay=self.relay))

    async def from_peer(self, phase: str, timeout: float | None) -> Msg:
        """The other side's message of ``phase`` (earlier phases of the handshake only come first)."""
        while True:
            msg = await asyncio.wait_for(self.peer.get(), timeout)
            if msg is None:
                self.peer.put_nowait(None)
                raise LinkError(Said("online.link.closed", error=self.lost.result()))
            if msg.get("phase") == phase:
                return msg

    async def flush(self, wait: float) -> None:
        """Wait (``wait`` s at most) until the mailbox keeps every message this side added, reconnecting
        meanwhile if the websocket drops; at once if the room is lost or was never opened."""
        if self.kept.is_set() or self.closed or self.lost.done() or self.mailbox is None:
            return
        kept = asyncio.ensure_future(self.kept.wait())
        try:
            waiting: set[asyncio.Future[Any]] = {kept, self.lost}
            await asyncio.wait(waiting, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
        finally:
            kept.cancel()

    async def close(self, mood: str | None) -> None:
        """Leave the room: with a ``mood``, release the nameplate and close the mailbox (the room is done);
        without, only drop the websocket, so the room stays for this side to come back to."""
        if self.closed:
            return
        self.closed = True
        if self._keeper is not None:
            self._keeper.cancel()
        if mood is not None and self.online.is_set() and not self.lost.done():
            self.release()
            if self.mailbox is not None:
                self.tx("close", mailbox=self.mailbox, mood=mood)
                with contextlib.suppress(LinkError):
                    await self.reply("closed", 5)
        self._out.put_nowait(None)
        self.online.clear()
        self._detach()
        self._fail(Said("online.link.left"))


async def _close_quietly(sock: Socket) -> None:
    with contextlib.suppress(Exception):  # the socket may be gone already
        await asyncio.wait_for(sock.close(), 2)


def _parse(raw: str) -> Msg:
    try:
        msg = bounded.loads(raw, FRAME_DEPTH)  # the nesting bounded before the reader sees it
    except ValueError:
        return {}
    return msg if isinstance(msg, dict) else {}


def _hex(value: object) -> str:
    """``value`` if it is lowercase hex (ValueError if not): a body from the mailbox is read strictly."""
    if not (isinstance(value, str) and HEX.fullmatch(value)):
        raise ValueError("not hex")
    return value


class Link:
    """One wormhole between two peers: JSON objects in, JSON objects out. ``sent`` and ``taken`` number
    the phases this side has added and taken so far (a link rebuilt after a restart starts past them)."""

    def __init__(self, conn: _Connection, key: bytes, their_side: str, code: str, crypto: Primitives,
                 sent: int = 0, taken: int = 0):
        self._conn = conn
        self._key = key
        self._their_side = their_side
        self._crypto = crypto
        self.code = code
        self._sent = sent
        self._next = taken
        self._early: dict[int, bytes] = {}

    @property
    def room(self) -> Room:
        assert self._conn.mailbox is not None
        return Room(self._conn.relay, self._conn.side, self._conn.mailbox, self._key.hex(), self._their_side,
                    self.code)

    @property
    def online(self) -> bool:
        """Whether the websocket to the mailbox is open now (it is reopened by itself after a drop)."""
        return self._conn.online.is_set()

    async def alive(self) -> bool:
        """Whether this side is in touch with the mailbox right now (it asks it); a dead websocket found
        so is reopened in the background."""
        return await self._conn.alive()

    @property
    def their_last(self) -> float | None:
        """When the other side's latest message reached the mailbox (epoch s, by this machine's clock)."""
        return self._conn.their_last

    @property
    def reconnects(self) -> int:
        return self._conn.reconnects

    def on_status(self, told: Callable[[bool], None] | None) -> None:
        """``told(False)`` when the websocket drops, ``told(True)`` when it is back in the room."""
        self._conn.on_status = told

    def send(self, obj: Msg) -> None:
        self.send_bytes(json.dumps(obj, separators=(",", ":")).encode())

    def send_bytes(self, data: bytes) -> None:
        """One message's bytes as they are (``send`` writes an object as JSON)."""
        phase = str(self._sent)
        self._sent += 1
        self._conn.add(phase, self._crypto.seal(phase_key(self._crypto, self._key, self._conn.side, phase), data))

    async def recv(self, timeout: float | None = None) -> Msg:
        """The next object from the peer; Silence if none came within ``timeout`` s, LinkError if the room
        is lost for good (a drop is not: it is reconnected meanwhile)."""
        while self._next not in self._early:
            try:
                msg = await self._next_message(timeout)
            except TimeoutError:
                raise Silence(f"the other player has been silent for {timeout:g} s") from None
            self._take(msg)
        raw = self._early.pop(self._next)
        self._next += 1
        return parse(raw)

    def waiting(self) -> bool:
        """Whether a message from the other side is here, to be read without waiting."""
        return self._next in self._early or not self._conn.peer.empty()

    async def _next_message(self, timeout: float | None) -> Msg:
        queue = self._conn.peer
        # what is here already is read even with no time left (wait_for(.., 0) would cancel the read unstarted)
        msg = queue.get_nowait() if not queue.empty() else await asyncio.wait_for(queue.get(), timeout)
        if msg is None:
            self._conn.peer.put_nowait(None)
            raise LinkError(Said("online.link.closed", error=self._conn.lost.result()))
        return msg

    def _take(self, msg: Msg) -> None:
        """Keep a numbered message from the other side (they are delivered strictly in order)."""
        phase, body = msg.get("phase"), msg.get("body")
        if msg.get("side") != self._their_side or not isinstance(phase, str) or NAMED.fullmatch(phase):
            return  # the version again, or a named phase this program does not use: ignored, as the wormhole does
        if not PHASE.fullmatch(phase):
            raise Garbled(Said("wire.phase"))
        n = int(phase)
        if n < self._next or n in self._early:
            return  # taken already (before a restart, say)
        if n > self._next + AHEAD:
            raise Garbled(Said("wire.order"))
        try:
            if not (isinstance(body, str) and HEX.fullmatch(body)):
                raise ValueError("not hex")
            box = bytes.fromhex(body)
            self._early[n] = self._crypto.open(phase_key(self._crypto, self._key, self._their_side, phase), box)
        except Exception:  # anything wrong with the box: the same refusal, never another exception
            raise Garbled(Said("wire.undecryptable")) from None

    async def close(self, done: bool = True) -> None:
        """Leave the room; ``done=False`` keeps it (an unfinished game comes back to it). A finished game's
        room is left once the mailbox keeps this side's last messages: nothing would send them later."""
        if done:
            await self._conn.flush(FLUSH_WAIT)
        await self._conn.close("happy" if done else None)


async def _open(connect: Connect, relay: str) -> _Connection:
    conn = _Connection(connect, relay)
    await conn.start()
    return conn


async def _claim(conn: _Connection, nameplate: str) -> None:
    conn.tx("claim", nameplate=nameplate)
    conn.nameplate = nameplate
    mailbox = (await conn.reply("claimed")).get("mailbox")
    if not isinstance(mailbox, str):
        raise LinkError(Said("online.link.noMailbox", relay=conn.relay, code=nameplate))
    conn.open_mailbox(mailbox)


async def _meet(conn: _Connection, code: str, host: bool, wait: float | None, crypto: Primitives) -> Link:
    """PAKE with whoever typed ``code``, then the encrypted version exchange; one clear line per failure."""
    pake = Spake2(code.encode(), APPID.encode(), crypto)
    conn.add("pake", json.dumps({"pake_v1": pake.start().hex()}).encode())
    try:
        theirs = await conn.from_peer("pake", wait)
    except TimeoutError:
        await conn.close("lonely")
        raise LinkError(Said("online.link.nobodyJoined", code=code, limit=f"{wait:g}") if host else
                        Said("online.link.nobodyWaiting", code=code)) from None
    conn.release()
    try:
        body = bounded.loads(bytes.fromhex(_hex(theirs.get("body"))), BODY_DEPTH)
        if not (isinstance(body, dict) and set(body) == {"pake_v1"}):
            raise ValueError("not a PAKE message")
        key = pake.finish(bytes.fromhex(_hex(body["pake_v1"])))
        side = theirs["side"]
        if not isinstance(side, str):
            raise ValueError("no side")
    except (ValueError, KeyError, TypeError, PakeError):
        await conn.close("scary")
        raise LinkError(Said("online.link.noPake", code=code)) from None
    versions = {"app_versions": {"toybattle": {"protocol": PROTOCOL, "wire": WIRE}}}
    conn.add("version", crypto.seal(phase_key(crypto, key, conn.side, "version"), json.dumps(versions).encode()))
    try:
        box = bytes.fromhex(_hex((await conn.from_peer("version", REPLY_WAIT)).get("body")))
        opened = crypto.open(phase_key(crypto, key, side, "version"), box)  # CryptoError: another code
    except TimeoutError:
        await conn.close("lonely")
        raise LinkError(Said("online.link.quiet", code=code)) from None
    except (CryptoError, ValueError, KeyError, TypeError):
        await conn.close("scary")
        raise LinkError(Said("online.link.wrongCodeHost", code=code) if host else
                        Said("online.link.wrongCode", code=code)) from None
    try:  # it opened, so both typed the same code: what it says is read with its nesting bounded
        theirs_versions = bounded.loads(opened, BODY_DEPTH)
    except ValueError:
        theirs_versions = None  # unreadable: said as no version at all
    link = Link(conn, key, side, code, crypto)
    app = theirs_versions.get("app_versions") if isinstance(theirs_versions, dict) else None
    toy = app.get("toybattle") if isinstance(app, dict) else None
    proto = (toy.get("protocol"), toy.get("wire")) if isinstance(toy, dict) else None
    if proto is None or [type(v) for v in proto] != [int, int] or proto != (PROTOCOL, WIRE):
        # only whole numbers are versions (not 2.0, true or "2"); anything else is said as "unknown"
        said = (f"{proto[0]}.{proto[1]}" if proto and all(type(v) is int and 0 <= v < 10**6 for v in proto)
                else "unknown" if proto else "none")
        await link.close()
        raise LinkError(Said("online.link.protocol", theirs=said[:20], ours=f"{PROTOCOL}.{WIRE}"))
    return link


async def host(relay: str, on_code: Callable[[str], Any], wait: float | None = None,
               connect: Connect = connect_websockets, crypto: Primitives | None = None) -> Link:
    """Open a room: ``on_code(code)`` is called with the code to read aloud; returns when joined."""
    conn = await _open(connect, relay)
    try:
        conn.tx("allocate")
        nameplate = (await conn.reply("allocated")).get("nameplate")
        if not isinstance(nameplate, str) or not nameplate.isdigit():
            raise LinkError(Said("online.link.noNumber", relay=relay))
        await _claim(conn, nameplate)
        code = f"{nameplate}-{new_words()}"
        on_code(code)
        return await _meet(conn, code, True, wait, crypto or default())
    except BaseException:  # a failure, or the player closed the room: give the nameplate back
        await conn.close("lonely")
        raise


async def join(relay: str, code: str, wait: float | None = 60.0, connect: Connect = connect_websockets,
               crypto: Primitives | None = None) -> Link:
    """Join the room ``code``; LinkError (one line) for a malformed, wrong or expired code."""
    code = code.strip().lower()
    if not CODE_RE.fullmatch(code):
        raise LinkError(Said("error.notRoomCode", code=repr(code[:40])))
    conn = await _open(connect, relay)
    try:
        nameplate = code.split("-", 1)[0]
        if not await _listed(conn, nameplate):
            raise LinkError(Said("online.link.noRoom", code=code))
        await _claim(conn, nameplate)
        return await _meet(conn, code, False, wait, crypto or default())
    except BaseException:
        await conn.close("lonely")
        raise


async def _listed(conn: _Connection, nameplate: str, patience: float = 2.0) -> bool:
    """Whether the mailbox lists the room's nameplate. A mailbox that lists nothing at all (listing
    may be turned off) gets the benefit of the doubt: the wait for the host then decides."""
    loop = asyncio.get_running_loop()
    end = loop.time() + patience
    while True:
        conn.tx("list")
        plates = (await conn.reply("nameplates")).get("nameplates")
        ids = {p.get("id") for p in plates if isinstance(p, dict)} if isinstance(plates, list) else set()
        if nameplate in ids:
            return True
        if ids or loop.time() > end:
            return not ids
        await asyncio.sleep(0.15)


class Rooms:
    """Opens and joins rooms over one kind of websocket (what online/game.py asks of a transport)."""

    def __init__(self, connect: Connect = connect_websockets):
        self.connect = connect

    async def host(self, relay: str, on_code: Callable[[str], Any], wait: float | None = None) -> Link:
        return await host(relay, on_code, wait, self.connect)

    async def join(self, relay: str, code: str, wait: float | None = 60.0) -> Link:
        return await join(relay, code, wait, self.connect)

    async def rejoin(self, room: Room) -> Link:
        return await rejoin(room, self.connect)


async def rejoin(room: Room, connect: Connect = connect_websockets, crypto: Primitives | None = None) -> Link:
    """Back into a stored room with no code (after a restart or a reload). Of what the mailbox holds, the
    other side's messages up to this side's last one count as taken; those after it (sent while this side
    was gone: moves, or the other side's own hello if it came back too) are read again, and the session's
    hello settles what each side misses. RoomGone if the mailbox has forgotten the room, LinkError if it
    cannot be reached."""
    conn = _Connection(connect, room.relay, room.side)
    conn.mailbox = room.mailbox
    try:
        held = await conn.reopen(sent=True)  # this side sent its PAKE at least
    except BaseException:
        await conn.close(None)
        raise
    last_mine = max(i for i, (side, _) in enumerate(held) if side == room.side)
    sent = [int(phase) for side, phase in held if side == room.side and phase.isdigit()]
    theirs = [int(phase) for side, phase in held[:last_mine] if side == room.their_side and phase.isdigit()]
    return Link(conn, bytes.fromhex(room.key), room.their_side, room.code, crypto or default(),
                sent=max(sent, default=-1) + 1, taken=max(theirs, default=-1) + 1)
