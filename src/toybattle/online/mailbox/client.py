"""Meet the other player through a magic-wormhole mailbox, in pure Python on asyncio.

It speaks what magic-wormhole's own client speaks, so either side may be `toybattle host/join` (the
magic-wormhole library) and the other this client (for example in a browser, on Pyodide):

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
in a Pyodide worker. ``Link`` offers what ``transport.Link`` offers (``code``, ``send``, ``recv``,
``close``), so online/session.py plays over either.
"""
from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import secrets
from collections import defaultdict
from collections.abc import Awaitable, Callable
from functools import cache
from importlib import resources
from typing import Any, Protocol

from ..protocol import PROTOCOL
from ..transport import APPID, CODE_RE, LinkError
from .kdf import hkdf
from .secretbox import CryptoError, open_box, seal
from .spake2 import PakeError, Spake2

Msg = dict[str, Any]  # one JSON object of the mailbox protocol
REPLY_WAIT = 20.0  # seconds the mailbox may take to answer one request


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


def phase_key(key: bytes, side: str, phase: str) -> bytes:
    purpose = b"wormhole:phase:" + hashlib.sha256(side.encode()).digest() + hashlib.sha256(phase.encode()).digest()
    return hkdf(key, 32, info=purpose)


@cache
def _words() -> tuple[list[str], list[str]]:
    data = json.loads(resources.files(__package__).joinpath("data/words.json").read_text("utf-8"))
    return data["odd"], data["even"]


def new_words() -> str:
    """Two random words for a room code, an odd word then an even one (as magic-wormhole does)."""
    odd, even = _words()
    return f"{secrets.choice(odd)}-{secrets.choice(even)}"


class _Connection:
    """The websocket to the mailbox: requests go out in order; answers wait in one queue per kind and
    the other side's messages in ``peer`` (None there: the connection is lost)."""

    def __init__(self, sock: Socket, relay: str):
        self.sock = sock
        self.relay = relay
        self.side = secrets.token_hex(5)
        self.replies: defaultdict[str, asyncio.Queue[Msg]] = defaultdict(asyncio.Queue)
        self.peer: asyncio.Queue[Msg | None] = asyncio.Queue()
        self.lost: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.nameplate: str | None = None
        self.mailbox: str | None = None
        self.closed = False
        self._tasks = [asyncio.ensure_future(self._read()), asyncio.ensure_future(self._write())]

    def tx(self, kind: str, **fields: Any) -> None:
        self.outbox.put_nowait(json.dumps({"type": kind, "id": secrets.token_hex(2), **fields}))

    def add(self, phase: str, body: bytes) -> None:
        self.tx("add", phase=phase, body=body.hex())

    def release(self) -> None:
        """Give the nameplate back: the code can never open this room again."""
        if self.nameplate is not None:
            self.tx("release", nameplate=self.nameplate)
            self.nameplate = None

    def fail(self, why: str) -> None:
        if not self.lost.done():
            self.lost.set_result(why)
            self.peer.put_nowait(None)

    async def _write(self) -> None:
        try:
            while (text := await self.outbox.get()) is not None:
                await self.sock.send(text)
        except (EOFError, OSError):
            self.fail("the mailbox closed the connection")

    async def _read(self) -> None:
        try:
            while True:
                msg = _parse(await self.sock.recv())
                kind = msg.get("type")
                if kind == "message":
                    if msg.get("side") != self.side:  # the mailbox echoes our own messages too
                        self.peer.put_nowait(msg)
                elif kind == "error":
                    self.fail(f"the mailbox at {self.relay} refused: {msg.get('error')}")
                elif isinstance(kind, str) and kind != "ack":
                    self.replies[kind].put_nowait(msg)
        except (EOFError, OSError):
            pass
        finally:
            self.fail("the mailbox closed the connection")

    async def reply(self, kind: str, timeout: float | None = REPLY_WAIT) -> Msg:
        """The mailbox's next answer of this kind; LinkError if the connection is lost or it is silent."""
        get = asyncio.ensure_future(self.replies[kind].get())
        waiting: set[asyncio.Future[Any]] = {get, self.lost}
        await asyncio.wait(waiting, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if get.done():
            return get.result()
        get.cancel()
        raise LinkError(self.lost.result() if self.lost.done() else f"the mailbox at {self.relay} does not answer")

    async def from_peer(self, phase: str, timeout: float | None) -> Msg:
        """The other side's message of ``phase`` (earlier phases of the handshake only come first)."""
        while True:
            msg = await asyncio.wait_for(self.peer.get(), timeout)
            if msg is None:
                self.peer.put_nowait(None)
                raise LinkError(f"the connection closed ({self.lost.result()})")
            if msg.get("phase") == phase:
                return msg

    async def close(self, mood: str) -> None:
        """Release the nameplate, close the mailbox, close the socket (best effort, a few seconds)."""
        if self.closed:
            return
        self.closed = True
        if not self.lost.done():
            self.release()
            if self.mailbox is not None:
                self.tx("close", mailbox=self.mailbox, mood=mood)
                with contextlib.suppress(LinkError):
                    await self.reply("closed", 5)
        self.outbox.put_nowait(None)
        with contextlib.suppress(Exception):  # the socket may be gone already
            await asyncio.wait_for(self.sock.close(), 2)
        for task in self._tasks:
            task.cancel()


def _parse(raw: str) -> Msg:
    try:
        msg = json.loads(raw)
    except ValueError:
        return {}
    return msg if isinstance(msg, dict) else {}


class Link:
    """One wormhole between two peers: JSON objects in, JSON objects out (like ``transport.Link``)."""

    def __init__(self, conn: _Connection, key: bytes, their_side: str, code: str):
        self._conn = conn
        self._key = key
        self._their_side = their_side
        self.code = code
        self._sent = 0
        self._next = 0
        self._early: dict[int, bytes] = {}

    def send(self, obj: Msg) -> None:
        phase = str(self._sent)
        self._sent += 1
        data = json.dumps(obj, separators=(",", ":")).encode()
        self._conn.add(phase, seal(phase_key(self._key, self._conn.side, phase), data))

    async def recv(self, timeout: float | None = None) -> Msg:
        """The next object from the peer; LinkError if the link closed or stayed silent ``timeout`` s."""
        while self._next not in self._early:
            try:
                msg = await self._next_message(timeout)
            except TimeoutError:
                raise LinkError(f"the other player has been silent for {timeout:g} s") from None
            self._take(msg)
        raw = self._early.pop(self._next)
        self._next += 1
        try:
            obj = json.loads(raw.decode())
        except (UnicodeDecodeError, ValueError):
            raise LinkError("the other player sent something that is not a toybattle message") from None
        if not isinstance(obj, dict):
            raise LinkError("the other player sent something that is not a toybattle message")
        return obj

    async def _next_message(self, timeout: float | None) -> Msg:
        msg = await asyncio.wait_for(self._conn.peer.get(), timeout)
        if msg is None:
            self._conn.peer.put_nowait(None)
            raise LinkError(f"the connection closed ({self._conn.lost.result()})")
        return msg

    def _take(self, msg: Msg) -> None:
        """Keep a numbered message from the other side (they are delivered strictly in order)."""
        phase = msg.get("phase")
        if msg.get("side") != self._their_side or not isinstance(phase, str) or not phase.isdigit():
            return  # the version again, or a phase this program does not use: ignored, as the wormhole does
        try:
            box = bytes.fromhex(str(msg.get("body")))
            self._early[int(phase)] = open_box(phase_key(self._key, self._their_side, phase), box)
        except (ValueError, CryptoError):
            raise LinkError("a message from the other player did not decrypt: the connection is not safe") from None

    async def close(self) -> None:
        await self._conn.close("happy")


async def _open(connect: Connect, relay: str) -> _Connection:
    try:
        sock = await connect(relay)
    except (OSError, ValueError):
        raise LinkError(f"cannot reach the mailbox at {relay}") from None
    conn = _Connection(sock, relay)
    try:
        welcome = (await conn.reply("welcome")).get("welcome")
    except LinkError:
        await conn.close("errory")
        raise LinkError(f"cannot reach the mailbox at {relay}") from None
    if isinstance(welcome, dict) and "error" in welcome:
        await conn.close("unwelcome")
        raise LinkError(f"the mailbox at {relay} refused us: {welcome['error']}")
    conn.tx("bind", appid=APPID, side=conn.side, client_version=["python", "toybattle"])
    return conn


async def _claim(conn: _Connection, nameplate: str) -> None:
    conn.tx("claim", nameplate=nameplate)
    conn.nameplate = nameplate
    mailbox = (await conn.reply("claimed")).get("mailbox")
    if not isinstance(mailbox, str):
        raise LinkError(f"the mailbox at {conn.relay} gave no mailbox for room {nameplate}")
    conn.mailbox = mailbox
    conn.tx("open", mailbox=mailbox)


async def _meet(conn: _Connection, code: str, host: bool, wait: float | None) -> Link:
    """PAKE with whoever typed ``code``, then the encrypted version exchange; one clear line per failure."""
    pake = Spake2(code.encode(), APPID.encode())
    conn.add("pake", json.dumps({"pake_v1": pake.start().hex()}).encode())
    try:
        theirs = await conn.from_peer("pake", wait)
    except TimeoutError:
        await conn.close("lonely")
        raise LinkError(f"nobody joined room {code} within {wait:g} s" if host else
                        f"nobody is waiting in room {code} (a wrong or expired code?)") from None
    conn.release()
    try:
        key = pake.finish(bytes.fromhex(json.loads(bytes.fromhex(theirs["body"]))["pake_v1"]))
        side = str(theirs["side"])
    except (ValueError, KeyError, TypeError, PakeError):
        await conn.close("scary")
        raise LinkError(f"the other side of room {code} does not speak the wormhole's PAKE") from None
    versions = {"app_versions": {"toybattle": {"protocol": PROTOCOL}}}
    conn.add("version", seal(phase_key(key, conn.side, "version"), json.dumps(versions).encode()))
    try:
        box = bytes.fromhex((await conn.from_peer("version", REPLY_WAIT))["body"])
        theirs_versions = json.loads(open_box(phase_key(key, side, "version"), box))
    except TimeoutError:
        await conn.close("lonely")
        raise LinkError(f"the other side of room {code} went quiet before the game began") from None
    except (CryptoError, ValueError, KeyError, TypeError):
        await conn.close("scary")
        raise LinkError(f"someone typed a wrong code for room {code}; the room is closed: start a new one"
                        if host else f"wrong code {code}: the room is now closed; ask for a new code") from None
    link = Link(conn, key, side, code)
    app = theirs_versions.get("app_versions") if isinstance(theirs_versions, dict) else None
    proto = app.get("toybattle", {}).get("protocol") if isinstance(app, dict) else None
    if proto != PROTOCOL:
        await link.close()
        raise LinkError(f"the other player's toybattle speaks online protocol {proto}, this one speaks "
                        f"{PROTOCOL}: both need the same version")
    return link


async def host(relay: str, on_code: Callable[[str], Any], wait: float | None = None,
               connect: Connect = connect_websockets) -> Link:
    """Open a room: ``on_code(code)`` is called with the code to read aloud; returns when joined."""
    conn = await _open(connect, relay)
    try:
        conn.tx("allocate")
        nameplate = (await conn.reply("allocated")).get("nameplate")
        if not isinstance(nameplate, str) or not nameplate.isdigit():
            raise LinkError(f"the mailbox at {relay} gave no room number")
        await _claim(conn, nameplate)
        code = f"{nameplate}-{new_words()}"
        on_code(code)
        return await _meet(conn, code, True, wait)
    except BaseException:  # a failure, or the player closed the room: give the nameplate back
        await conn.close("lonely")
        raise


async def join(relay: str, code: str, wait: float | None = 60.0, connect: Connect = connect_websockets) -> Link:
    """Join the room ``code``; LinkError (one line) for a malformed, wrong or expired code."""
    code = code.strip().lower()
    if not CODE_RE.match(code):
        raise LinkError(f"{code!r} is not a room code (it looks like 7-guitarist-revenge)")
    conn = await _open(connect, relay)
    try:
        nameplate = code.split("-", 1)[0]
        if not await _listed(conn, nameplate):
            raise LinkError(f"no room {code} is open (a wrong or expired code?)")
        await _claim(conn, nameplate)
        return await _meet(conn, code, False, wait)
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
    """Opens and joins rooms over one kind of websocket (what online/session.py asks of a transport)."""

    def __init__(self, connect: Connect = connect_websockets):
        self.connect = connect

    async def host(self, relay: str, on_code: Callable[[str], Any], wait: float | None = None) -> Link:
        return await host(relay, on_code, wait, self.connect)

    async def join(self, relay: str, code: str, wait: float | None = 60.0) -> Link:
        return await join(relay, code, wait, self.connect)
