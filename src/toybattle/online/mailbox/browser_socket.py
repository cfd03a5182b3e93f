"""The browser's own WebSocket as the wormhole client's Socket, for Python running on Pyodide (in a page
or a Web Worker). Imported only there: ``js`` and ``pyodide.ffi`` exist nowhere else."""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from toybattle.said import Said

from ..transport import LinkError
from .client import Socket


class BrowserSocket:
    """Frames arrive through JS callbacks into a queue; None in the queue means the socket closed.

    ``saved`` (the site's worker gives one: ``toybattleSaved``) answers a promise that settles once the games
    file is saved to the browser's storage: a frame leaves only after it, so a page closed a moment after it
    played never has sent the other side a message that its own saved game lacks (a reopened page would then
    tell a different story from its peer's)."""

    def __init__(self, ws: Any, inbox: asyncio.Queue[str | None], proxies: dict[str, Any],
                 saved: Callable[[], Awaitable[object]] | None = None):
        self._ws = ws
        self._inbox = inbox
        self._proxies = proxies
        self._saved = saved

    async def send(self, text: str) -> None:
        if self._saved is not None:
            await self._saved()
        if self._ws.readyState != 1:  # OPEN
            raise EOFError
        self._ws.send(text)

    async def recv(self) -> str:
        text = await self._inbox.get()
        if text is None:
            self._inbox.put_nowait(None)
            raise EOFError
        return text

    async def close(self) -> None:
        _unhook(self._ws, self._proxies)
        self._ws.close()
        self._inbox.put_nowait(None)


def _unhook(ws: Any, proxies: dict[str, Any]) -> None:
    """Remove the callbacks, then free them: no event may reach a freed proxy."""
    for event, proxy in proxies.items():
        ws.removeEventListener(event, proxy)
        proxy.destroy()
    proxies.clear()


async def connect_browser(url: str) -> Socket:
    """Open ``url`` with the browser's WebSocket; OSError if it cannot. A page served over https may
    only open wss:// (the browser refuses ws://), so that case gets its own line."""
    import js  # type: ignore[import-not-found]
    from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

    secure = str(getattr(getattr(js, "location", None), "protocol", "")) == "https:"
    if secure and url.startswith("ws://"):
        raise LinkError(Said("online.link.https", url=url))
    loop = asyncio.get_running_loop()
    opened: asyncio.Future[None] = loop.create_future()
    inbox: asyncio.Queue[str | None] = asyncio.Queue()

    def on_open(_event: Any) -> None:
        if not opened.done():
            opened.set_result(None)

    def on_message(event: Any) -> None:
        inbox.put_nowait(str(event.data))

    def on_close(_event: Any) -> None:
        inbox.put_nowait(None)
        if not opened.done():
            opened.set_exception(OSError(f"cannot open {url}"))

    try:
        ws = js.WebSocket.new(url)
    except Exception as e:  # a malformed address: the browser throws a SyntaxError
        raise OSError(str(e)) from None
    proxies = {"open": create_proxy(on_open), "message": create_proxy(on_message), "close": create_proxy(on_close)}
    for event, proxy in proxies.items():
        ws.addEventListener(event, proxy)
    try:
        await asyncio.wait_for(opened, 20)
    except (TimeoutError, OSError):
        _unhook(ws, proxies)
        ws.close()
        raise OSError(f"cannot open {url}") from None
    return BrowserSocket(ws, inbox, proxies, getattr(js, "toybattleSaved", None))
