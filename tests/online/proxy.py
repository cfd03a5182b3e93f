"""A TCP proxy the test controls, between one peer and the mailbox: ``cut(seconds)`` closes every
connection through it and refuses new ones (accepted, then closed at once) for that long; ``delay`` holds
every chunk that long before passing it on; ``freeze()`` makes every connection open now carry nothing more,
without closing it (a signal lost without a word: the socket still looks open), while new connections
pass. It runs its own event loop in a thread, on 127.0.0.1."""
from __future__ import annotations

import asyncio
import contextlib
import threading
import time


class Proxy:
    def __init__(self, target_port: int):
        self.target = target_port
        self.port = 0
        self.cuts = 0
        self.delay = 0.0
        self._down_until = 0.0
        self._writers: set[asyncio.StreamWriter] = set()
        self._frozen: set[asyncio.StreamWriter] = set()
        self._loop = asyncio.new_event_loop()
        started = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(started,), daemon=True)
        self._thread.start()
        started.wait(10)

    def _run(self, started: threading.Event) -> None:
        asyncio.set_event_loop(self._loop)
        server = self._loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0))
        self.port = server.sockets[0].getsockname()[1]
        started.set()
        self._loop.run_forever()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if time.monotonic() < self._down_until:
            writer.close()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return
        self._writers |= {writer, up_writer}
        await asyncio.gather(self._pump(reader, up_writer), self._pump(up_reader, writer))

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                if self.delay:
                    await asyncio.sleep(self.delay)
                if writer in self._frozen:
                    continue  # swallowed: nothing reaches the other end, and nobody is told
                writer.write(data)
                await writer.drain()
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            self._writers.discard(writer)
            with contextlib.suppress(Exception):
                writer.close()

    def cut(self, seconds: float) -> None:
        """Drop every connection now and refuse new ones for ``seconds``."""
        def now() -> None:
            self._down_until = time.monotonic() + seconds
            self.cuts += 1
            for w in list(self._writers):
                w.transport.abort()  # a reset, as a lost signal looks to the peer's next write
            self._writers.clear()
        self._loop.call_soon_threadsafe(now)

    def freeze(self) -> None:
        """From now on, the connections open now carry nothing in either direction (and stay open)."""
        def now() -> None:
            self._frozen |= self._writers
            self.cuts += 1
        self._loop.call_soon_threadsafe(now)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/v1"

    def close(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
