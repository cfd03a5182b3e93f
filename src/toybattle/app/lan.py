"""Opening the app to the local network: a choice the host makes in the page, for one game.

The server listens on this computer only (127.0.0.1). When the host of a game on two devices
chooses to, ``Network.open`` adds a second listener on this computer's network address, the
same port if it is free, serving only what a guest's page needs to play the games it was opened
for (``Network.serves``: those games' pages, status, join link, replay and websocket, and the page's
own files): no device on the network can start games, open rooms, see or delete any other game, or
reach anything else. It closes again when every game it was opened for is over (or the server stops).
Every request that comes through it is marked (``GUEST`` in its scope); the app's guard refuses,
with its headers, whatever ``serves`` does not allow, and the websocket lets such a socket say
hello only to those games.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import socket
from typing import TYPE_CHECKING, Any

from starlette.types import ASGIApp, Receive, Scope, Send

if TYPE_CHECKING:
    import uvicorn

from .session import Session

log = logging.getLogger("toybattle.app")

WARNING = ("Anyone on this network (the same Wi-Fi) can then reach this app's game pages while the "
           "game lasts: open it only on a network you trust, such as your home. It closes when the game ends.")

GUEST = "toybattle.guest"  # the scope key marking a request that came through the network listener

# what a guest's page uses, by method: the page itself and its files, the rules' data, the websocket,
# and (``game``) the game the network was opened for: its pages, its status, its replay, its join link
GUEST_GET = re.compile(r"/|/static/.+|/api/meta|/api/terrains/[\w-]{1,40}|"
                       r"/(?:invite|join|watch)/(?P<game>[\w-]{1,64})/[\w-]{1,64}|"
                       r"/api/games/(?P<status>[\w-]{1,64})(?:/replay)?")
GUEST_POST = re.compile(r"/api/games/(?P<game>[\w-]{1,64})/join")


class GuestOnly:
    """The app as a device on the network reaches it: every request marked ``GUEST`` (the app's guard
    lets through only what ``Network.serves``); nothing else of the server (no lifespan)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            scope[GUEST] = True
            await self.app(scope, receive, send)


def local_address() -> str | None:
    """This computer's address on its network, from its own names only (nothing outside is asked)."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    for *_, sockaddr in infos:
        addr = str(sockaddr[0])
        if not addr.startswith("127."):
            return addr
    return None


class Network:
    """The network listener: closed until a host opens it for a game."""

    def __init__(self) -> None:
        self.address: str | None = None
        self.port = 0
        self.games: set[str] = set()
        self._server: uvicorn.Server | None = None
        self._task: asyncio.Task[None] | None = None
        self._closing: asyncio.Task[None] | None = None

    @property
    def is_open(self) -> bool:
        return self._server is not None

    def serves(self, scope: Scope) -> bool:
        """Whether a request from a device on the network is served: the paths a guest's page uses,
        with the right method, naming no game but one this network was opened for."""
        if scope["type"] == "websocket":
            return bool(scope["path"] == "/ws")  # its hello may name only these games (sockets.Connection)
        pattern = {"GET": GUEST_GET, "HEAD": GUEST_GET, "POST": GUEST_POST}.get(scope["method"])
        m = pattern.fullmatch(scope["path"]) if pattern is not None else None
        if m is None:
            return False
        game = m.groupdict().get("game") or m.groupdict().get("status")
        return game is None or game in self.games

    async def open(self, app: ASGIApp, port: int, session: Session) -> None:
        """Listen on the network address for ``session`` (kept open until it ends). OSError if
        this computer has no network address or cannot listen there."""
        if not self.is_open:
            addr = local_address()
            if addr is None:
                raise OSError("this computer has no network address (is it connected to a network?)")
            import uvicorn  # here, not at the top: the in-browser site has no network and ships no uvicorn

            sock = _listen(addr, port)
            server = uvicorn.Server(uvicorn.Config(GuestOnly(app), log_level="warning", ws_max_size=65536,
                                                   lifespan="off"))
            self._task = asyncio.get_running_loop().create_task(server.serve(sockets=[sock]))
            self._server, self.address, self.port = server, addr, sock.getsockname()[1]
            log.info("open to the network at http://%s:%d/", addr, self.port)
        if session.id not in self.games:
            self.games.add(session.id)
            session.subscribe(self._game_changed)

    async def _game_changed(self, session: Session) -> None:
        if session.over:
            session.unsubscribe(self._game_changed)
            self.games.discard(session.id)
            if not self.games:  # closing waits for the listener to stop: not inside the game's change
                self._closing = asyncio.get_running_loop().create_task(self.close())

    async def close(self) -> None:
        """Stop listening on the network (games stay as they are)."""
        server, task = self._server, self._task
        self._server, self._task, self.address, self.port = None, None, None, 0
        self.games.clear()
        if server is not None and task is not None:
            server.should_exit = True
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, 5)
            log.info("closed to the network")

    def state(self) -> dict[str, Any]:
        return {"open": self.is_open, "address": self.address, "port": self.port or None, "warning": WARNING}


def _listen(addr: str, port: int) -> socket.socket:
    for p in (port, 0):  # the same port as on this computer if it is free there, else any
        try:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # see app/cli.py's _bind
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((addr, p))
            sock.listen(128)
            return sock
        except OSError:
            sock.close()
            if p == 0:
                raise
    raise OSError("cannot listen")  # not reached: the loop returns or raises


__all__ = ["GUEST", "GUEST_GET", "GUEST_POST", "WARNING", "GuestOnly", "Network", "local_address"]
