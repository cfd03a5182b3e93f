"""The Python half of the in-browser site: the app's own Starlette app, served in-process.

Inside the site's Web Worker (Pyodide), nothing listens on a port: the page's transport seam
(web/js/net.js) hands each HTTP-API call and each websocket message to the worker, and ``Bridge``
plays the part of an ASGI server for them, so the page talks to exactly the app that
``toybattle serve`` runs (same routes, same sessions, same bots, same lessons). Games live in the
same SQLite games file, kept on the browser's IndexedDB (see ``SyncedStore``).

This module imports nothing browser-specific: ``post`` and ``persist`` are plain callables, so it
runs (and is tested) under CPython too.
"""
from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable, Coroutine
from typing import Any

from starlette.applications import Starlette
from starlette.types import Message

from toybattle.assembly import build_app
from toybattle.store import GameRow, Store, StoreError

log = logging.getLogger("toybattle.site")


class SyncedStore(Store):
    """The games file on a file system that the browser persists on request (IDBFS): every write
    asks for the file to be saved, and the worker answers no HTTP request before it is."""

    def __init__(self, path: str, persist: Callable[[], object]):
        super().__init__(path)
        # one self-contained file: what IndexedDB holds is always a whole, consistent database
        self._db.execute("PRAGMA journal_mode=DELETE")
        self._persist = persist

    def put(self, row: GameRow) -> None:
        super().put(row)
        self._persist()

    # A browser's worker runs no threads: the file is written in turn, which the page never waits on.
    async def put_async(self, row: GameRow) -> None:
        self.put(row)

    async def get_async(self, game_id: str) -> GameRow | None:
        return self.get(game_id)

    def delete(self, game_id: str) -> bool:
        found = super().delete(game_id)
        self._persist()
        return found

    async def delete_async(self, game_id: str) -> bool:
        return self.delete(game_id)


class Bridge:
    """A tiny ASGI server for one Starlette app: HTTP requests in, responses out; websockets as
    numbered sockets whose frames travel as ``post`` messages (docs/browser.md lists them)."""

    def __init__(self, app: Starlette, post: Callable[[Message], object]):
        self.app = app
        self.post = post
        self.sockets: dict[int, asyncio.Queue[Message]] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self._stop = asyncio.Event()

    async def start(self) -> None:
        """Run the app's lifespan start (unfinished games are loaded, bots pick up their turn)."""
        started: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        first = True

        async def receive() -> Message:
            nonlocal first
            if first:
                first = False
                return {"type": "lifespan.startup"}
            await self._stop.wait()
            return {"type": "lifespan.shutdown"}

        async def send(msg: Message) -> None:
            if not started.done() and msg["type"].startswith("lifespan.startup."):
                started.set_result(msg["type"])

        self._spawn(self.app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}, receive, send))
        outcome = await started
        if outcome != "lifespan.startup.complete":
            raise RuntimeError("the app did not start")

    def stop(self) -> None:
        self._stop.set()

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    @staticmethod
    def _scope(kind: str, path: str, headers: list[tuple[str, str]]) -> dict[str, Any]:
        path, _, query = path.partition("?")
        return {"type": kind, "asgi": {"version": "3.0"}, "http_version": "1.1", "scheme": "http",
                "path": path, "raw_path": path.encode(), "query_string": query.encode(), "root_path": "",
                "headers": [(b"host", b"site")] + [(k.lower().encode("latin-1"), v.encode("latin-1"))
                                                    for k, v in headers if k.lower() != "host"],
                "server": ("site", 80), "client": ("browser", 0)}

    async def http(self, method: str, path: str, headers: list[tuple[str, str]], body: str) -> Message:
        """One request, answered as ``{"status", "headers", "body"}`` (the body as text)."""
        scope = self._scope("http", path, headers) | {"method": method.upper()}
        sent = False
        status, out_headers, chunks = 500, [], []

        async def receive() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body.encode(), "more_body": False}
            await asyncio.Event().wait()  # the client never goes away before the answer
            return {"type": "http.disconnect"}

        async def send(msg: Message) -> None:
            nonlocal status, out_headers
            if msg["type"] == "http.response.start":
                status = msg["status"]
                out_headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in msg.get("headers", [])]
            elif msg["type"] == "http.response.body":
                chunks.append(msg.get("body", b""))

        await self.app(scope, receive, send)
        return {"status": status, "headers": out_headers, "body": b"".join(chunks).decode("utf-8", "replace")}

    def ws_open(self, sock: int, path: str) -> None:
        """The page opens websocket ``sock``: the app sees a connection to ``path``."""
        if sock in self.sockets:
            return
        queue: asyncio.Queue[Message] = asyncio.Queue()
        queue.put_nowait({"type": "websocket.connect"})
        self.sockets[sock] = queue

        async def send(msg: Message) -> None:
            kind = msg["type"]
            if kind == "websocket.accept":
                self.post({"t": "ws-open", "sock": sock})
            elif kind == "websocket.send" and msg.get("text") is not None:
                self.post({"t": "ws-message", "sock": sock, "data": msg["text"]})
            elif kind == "websocket.close":
                self._closed(sock, msg.get("code", 1000))

        async def run() -> None:
            try:
                await self.app(self._scope("websocket", path, []) | {"subprotocols": []}, queue.get, send)
            except Exception:
                log.exception("websocket %s failed", sock)
            self._closed(sock, 1011)

        self._spawn(run())

    def _closed(self, sock: int, code: int) -> None:
        if self.sockets.pop(sock, None) is not None:
            self.post({"t": "ws-close", "sock": sock, "code": code})

    def ws_receive(self, sock: int, text: str) -> None:
        if sock in self.sockets:
            self.sockets[sock].put_nowait({"type": "websocket.receive", "text": text})

    def ws_close(self, sock: int) -> None:
        queue = self.sockets.pop(sock, None)
        if queue is not None:
            queue.put_nowait({"type": "websocket.disconnect", "code": 1000})


async def serve(db_path: str, post: Callable[[Message], object], persist: Callable[[], object],
                bot_delay: float = 0.6) -> Bridge:
    """The app over the games file at ``db_path``, started and ready for the page. A games file that cannot be
    opened (damaged, or written by a newer version) is set aside under another name, never deleted, the page
    is told so in one line ({"t": "status", "line": "damaged"}), and a new games file is started: the player
    can still play."""
    try:
        store = SyncedStore(db_path, persist)
    except StoreError as e:
        aside = f"{db_path}.set-aside-{time.strftime('%Y%m%d-%H%M%S')}"
        os.replace(db_path, aside)
        for suffix in ("-wal", "-shm", "-journal"):
            if os.path.exists(db_path + suffix):
                os.replace(db_path + suffix, aside + suffix)
        log.warning("games file set aside as %s: %s", aside, e)
        post({"t": "status", "line": "damaged", "params": {"file": os.path.basename(aside)}})
        store = SyncedStore(db_path, persist)
        persist()
    app = build_app(store, bot_delay=bot_delay)
    # the app's guard answers only to its own host names; here the only caller is this page, in-process
    # (no network, so no rebinding), and Bridge names the host "site"
    app.state.ctx.allowed_hosts.add("site")
    bridge = Bridge(app, post)
    await bridge.start()
    return bridge
