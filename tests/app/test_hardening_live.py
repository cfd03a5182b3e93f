"""Issue 26 item 12, and the live server the other hardening tests share.

``Live`` serves the whole product (Learn and online rooms plugged in) with uvicorn, as ``toybattle
serve`` does, on a listening socket made by ``toybattle serve``'s own ``_bind``, in a thread with its
own event loop; the tests talk to it with real HTTP and websocket clients.

Item 12: every answer waited about 40 ms, because the listening socket was made with protocol number 0,
so asyncio never turned off delayed sending (TCP_NODELAY) on the connections it accepted. An accepted
connection's socket must have TCP_NODELAY set: checked on the server's own end of a real connection.
"""
from __future__ import annotations

import asyncio
import socket
import threading
import time
from typing import Any

import httpx
import uvicorn

from toybattle.app import cli
from toybattle.assembly import build_app as build_product
from toybattle.store import Store


class Live:
    """The product served on 127.0.0.1 (any free port) until ``stop``."""

    def __init__(self, store: Store, *, debug: bool = False, slow: float = 0.1, **options: Any) -> None:
        self.sock = cli._bind("127.0.0.1", 0)
        self.port = self.sock.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        self.app = build_product(store, **({"bot_delay": 0, "resume": False} | options))
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning", ws_max_size=65536, lifespan="on"))
        self.debug, self.slow = debug, slow
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread = threading.Thread(target=self._run, name="live-server", daemon=True)

    def _run(self) -> None:
        asyncio.run(self._main(), debug=self.debug)

    async def _main(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.loop.slow_callback_duration = self.slow  # only logged in debug mode
        await self.server.serve(sockets=[self.sock])

    def __enter__(self) -> Live:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        self.sock.close()

    def accepted_sockets(self) -> list[Any]:
        """The server's own end of every connection it holds (asyncio's TransportSocket)."""
        return [p.transport.get_extra_info("socket") for p in list(self.server.server_state.connections)
                if getattr(p, "transport", None) is not None]


def test_accepted_connections_send_without_delay(tmp_path):
    store = Store(tmp_path / "games.sqlite3")
    try:
        with Live(store) as live, httpx.Client(base_url=live.base, timeout=10) as client:
            assert client.get("/api/meta").status_code == 200  # the connection stays open (keep-alive)
            accepted = live.accepted_sockets()
            assert accepted, "no connection held by the server"
            for sock in accepted:
                assert sock.family == socket.AF_INET and sock.type == socket.SOCK_STREAM
                assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0, \
                    "an accepted connection still delays small writes (Nagle): ~40 ms per answer"
    finally:
        store.close()
