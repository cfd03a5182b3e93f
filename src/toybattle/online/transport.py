"""Two peers meet through a magic-wormhole mailbox: a short code, PAKE, end-to-end encryption.

magic-wormhole is Twisted-based; under asyncio it works only this way (else get_code hangs or exit stalls):
install Twisted's asyncio reactor on the running loop before anything imports
``twisted.internet.reactor``, start it without signal handlers, turn Deferreds into futures,
and on exit stop the reactor and run the loop once more so its threads end. ``run`` does that.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
from collections.abc import Awaitable, Callable
from typing import Any

from .protocol import PROTOCOL
from .wire import MAX_DEPTH, depth

APPID = "toybattle.games/online-play/1"
DEFAULT_RELAY = "ws://relay.magic-wormhole.io:4000/v1"
CODE_RE = re.compile(r"^\d+(-[a-z]+){2,}$")
RELAY_ENV = "TOYBATTLE_RELAY"
MAX_WIRE = 1 << 20  # bytes of one wire message (a hello of a long game is under 100 kB)


def default_relay() -> str:
    """The mailbox new rooms use: $TOYBATTLE_RELAY (a mailbox of your own), else the public one."""
    return os.environ.get(RELAY_ENV, "").strip() or DEFAULT_RELAY


class LinkError(Exception):
    """The connection could not be made or was lost; the message is one line for the user."""


class Silence(LinkError):
    """The other peer sent nothing within the limit (the link itself may still be fine)."""


class Garbled(LinkError):
    """The other peer sent bytes that are not a toybattle message (too big, too deep, not JSON)."""


def install_reactor(loop: asyncio.AbstractEventLoop) -> Any:
    """Twisted's reactor on ``loop`` (installed once per process, before any other Twisted import
    of the reactor), started so that magic-wormhole's thread pool runs."""
    import sys
    if "twisted.internet.reactor" not in sys.modules:
        from twisted.internet import asyncioreactor
        asyncioreactor.install(loop)  # type: ignore[no-untyped-call]
    from twisted.internet import reactor
    if not reactor.running:
        reactor.startRunning(installSignalHandlers=False)
    return reactor


def run(main: Callable[[Any], Awaitable[Any]]) -> Any:
    """Run ``main(reactor)`` on a fresh asyncio loop with Twisted's reactor on it; clean exit."""
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    reactor = install_reactor(loop)
    try:
        return loop.run_until_complete(main(reactor))
    finally:
        reactor.stop()
        loop.run_forever()  # let the reactor's shutdown run; it stops the loop itself
        loop.close()


class Link:
    """One wormhole between two peers: JSON objects in, JSON objects out."""

    def __init__(self, w: Any, loop: asyncio.AbstractEventLoop, code: str):
        self._w = w
        self._loop = loop
        self.code = code
        self._next: asyncio.Future[bytes] | None = None

    def send(self, obj: dict[str, Any]) -> None:
        self._w.send_message(json.dumps(obj, separators=(",", ":")).encode())

    async def recv(self, timeout: float | None = None) -> dict[str, Any]:
        """The next object from the peer; LinkError if the link closed or stayed silent ``timeout`` s."""
        from wormhole.errors import WormholeError
        if self._next is None:  # one outstanding receive, kept across timeouts (never cancelled)
            self._next = self._w.get_message().asFuture(self._loop)
            self._next.add_done_callback(lambda f: f.cancelled() or f.exception())  # closing fails it: fine
        try:
            raw = await asyncio.wait_for(asyncio.shield(self._next), timeout)
        except TimeoutError:
            raise Silence(f"the other player has been silent for {timeout:g} s") from None
        except WormholeError as e:
            raise LinkError(f"the connection closed ({_why(e)})") from None
        finally:
            if self._next is not None and self._next.done():
                self._next = None
        return parse(raw)

    async def close(self) -> None:
        # closing is best effort: the mailbox forgets the channel either way
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._w.close().asFuture(self._loop), 5)


def parse(raw: object) -> dict[str, Any]:
    """One wire message's bytes as a JSON object, bounded in size and nesting before use (Garbled if not)."""
    if not isinstance(raw, bytes) or len(raw) > MAX_WIRE:
        raise Garbled(f"the other player sent a message over {MAX_WIRE} bytes")
    try:
        obj = json.loads(raw.decode())
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Garbled("the other player sent something that is not a toybattle message") from None
    if not isinstance(obj, dict):
        raise Garbled("the other player sent something that is not a toybattle message")
    if depth(obj) > MAX_DEPTH:
        raise Garbled(f"the other player sent a message nested deeper than {MAX_DEPTH} levels")
    return obj


def _why(e: BaseException) -> str:
    return type(e).__name__ if not str(e) else f"{type(e).__name__}: {e}"


def _create(reactor: Any, relay: str) -> Any:
    from wormhole import create
    return create(APPID, relay, reactor, versions={"toybattle": {"protocol": PROTOCOL}})


async def _connected(w: Any, loop: asyncio.AbstractEventLoop, relay: str, code: str, host: bool,
                     wait: float | None) -> Link:
    """Wait for the peer's PAKE and versions; map every failure to one clear line."""
    from wormhole.errors import LonelyError, ServerConnectionError, WormholeError, WrongPasswordError
    link = Link(w, loop, code)
    try:
        versions = await asyncio.wait_for(w.get_versions().asFuture(loop), wait)
    except TimeoutError:
        await link.close()
        raise LinkError(f"nobody joined room {code} within {wait:g} s" if host else
                        f"nobody is waiting in room {code} (a wrong or expired code?)") from None
    except WrongPasswordError:
        await link.close()
        raise LinkError(f"someone typed a wrong code for room {code}; the room is closed: start a new one"
                        if host else f"wrong code {code}: the room is now closed; ask for a new code") from None
    except ServerConnectionError:
        raise LinkError(f"cannot reach the mailbox at {relay}") from None
    except (LonelyError, WormholeError) as e:
        raise LinkError(f"the connection closed before the game began ({_why(e)})") from None
    except asyncio.CancelledError:  # the player closed the room: give its nameplate back
        await link.close()
        raise
    theirs = (versions or {}).get("toybattle", {}).get("protocol")
    if theirs != PROTOCOL:
        await link.close()
        raise LinkError(f"the other player's toybattle speaks online protocol {theirs}, this one speaks "
                        f"{PROTOCOL}: both need the same version")
    return link


async def _welcome(w: Any, loop: asyncio.AbstractEventLoop, relay: str) -> None:
    from wormhole.errors import ServerConnectionError, WelcomeError, WormholeError
    try:
        await asyncio.wait_for(w.get_welcome().asFuture(loop), 20)
    except (TimeoutError, ServerConnectionError):
        await _close_quietly(w, loop)
        raise LinkError(f"cannot reach the mailbox at {relay}") from None
    except WelcomeError as e:
        raise LinkError(f"the mailbox at {relay} refused us: {e}") from None
    except WormholeError as e:
        raise LinkError(f"cannot use the mailbox at {relay} ({_why(e)})") from None


async def _close_quietly(w: Any, loop: asyncio.AbstractEventLoop) -> None:
    with contextlib.suppress(Exception):  # the connection never worked: nothing to tidy
        await asyncio.wait_for(w.close().asFuture(loop), 2)


async def host(reactor: Any, relay: str, on_code: Callable[[str], Any], wait: float | None = None) -> Link:
    """Open a room: ``on_code(code)`` is called with the code to read aloud; returns when joined."""
    loop = asyncio.get_running_loop()
    w = _create(reactor, relay)
    await _welcome(w, loop, relay)
    w.allocate_code(2)
    code = await w.get_code().asFuture(loop)
    on_code(code)
    return await _connected(w, loop, relay, code, True, wait)


async def join(reactor: Any, relay: str, code: str, wait: float | None = 60.0) -> Link:
    """Join the room ``code``; LinkError (one line) for a malformed, wrong or expired code."""
    code = code.strip().lower()
    if not CODE_RE.match(code):
        raise LinkError(f"{code!r} is not a room code (it looks like 7-guitarist-revenge)")
    loop = asyncio.get_running_loop()
    w = _create(reactor, relay)
    await _welcome(w, loop, relay)
    nameplate, words = code.split("-", 1)
    helper = w.input_code()
    if not await _room_listed(helper, nameplate):
        await _close_quietly(w, loop)
        raise LinkError(f"no room {code} is open (a wrong or expired code?)")
    helper.choose_nameplate(nameplate)
    helper.choose_words(words)
    return await _connected(w, loop, relay, code, False, wait)


async def _room_listed(helper: Any, nameplate: str, patience: float = 2.0) -> bool:
    """Whether the mailbox lists the room's nameplate. A mailbox that lists nothing at all (listing
    may be turned off) gets the benefit of the doubt: the wait for the host then decides."""
    loop = asyncio.get_running_loop()
    end = loop.time() + patience
    seen_any = False
    while loop.time() < end:
        helper.refresh_nameplates()
        await asyncio.sleep(0.15)
        listed = helper.get_nameplate_completions("")
        if nameplate + "-" in listed:
            return True
        seen_any = seen_any or bool(listed)
        if seen_any:
            return False
    return not seen_any
