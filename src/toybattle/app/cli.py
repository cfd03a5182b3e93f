"""``toybattle serve`` (also what ``toybattle`` with no arguments runs): the app's local server.

The app to serve is handed in by the entry point (toybattle.cli), which assembles it with the
parts the app does not know about (toybattle.assembly)."""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import socket
import webbrowser
from collections.abc import Callable
from typing import TYPE_CHECKING

from toybattle.errors import UserError

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from toybattle.store import Store

    AppBuilder = Callable[..., Starlette]  # build_app(store, bot_delay=..., bind_host=...)

DEFAULT_PORT = 8765


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], build_app: AppBuilder) -> None:
    p = sub.add_parser("serve", help="play in the browser: start the app's server (the default command)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1; 0.0.0.0 lets devices on your network join)")
    p.add_argument("--port", type=int, default=None,
                   help=f"port (default {DEFAULT_PORT}, or a free one if that is taken; 0 = any free port)")
    p.add_argument("--db", default=None,
                   help="games file (default $TOYBATTLE_DB, else games.sqlite3 in your data folder, "
                        "~/.local/share/toybattle on Linux)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS",
                   help="each bot move appears this long after it began, or after the bot level's time budget if "
                        "longer, however long the bot thought, so its moves can be followed and their timing "
                        "tells nothing of its options (default 0.6; 0 answers as soon as it has thought)")
    p.set_defaults(run=lambda args: cmd_serve(args, build_app))


def _bind(host: str, port: int | None) -> socket.socket:
    tries = [DEFAULT_PORT, 0] if port is None else [port]
    if not 0 <= tries[0] <= 65535:
        raise UserError(f"port must be between 0 and 65535, not {port}")
    last = None
    for p in tries:
        try:
            info = socket.getaddrinfo(host, p, type=socket.SOCK_STREAM)[0]
            # TCP named as such: asyncio turns off delayed sending (TCP_NODELAY) only on a connection
            # whose socket says IPPROTO_TCP, and an accepted socket takes its listener's protocol
            # number (0 would leave every small answer waiting about 40 ms for the client's ACK)
            sock = socket.socket(info[0], socket.SOCK_STREAM, socket.IPPROTO_TCP)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(info[4])
            sock.listen(128)
            sock.set_inheritable(True)
            return sock
        except OSError as e:
            last = e
    raise UserError(f"cannot listen on {host}:{tries[-1]}: {getattr(last, 'strerror', None) or last}")


def cmd_serve(args: argparse.Namespace, build_app: AppBuilder) -> int:
    from toybattle.store import Store, StoreError, WriterLock, default_path

    if args.bot_delay < 0:
        raise UserError("--bot-delay cannot be negative")
    try:  # one server per games file, for as long as it runs; taken before the file is even opened
        writer = WriterLock(args.db or default_path())
    except StoreError as e:
        raise UserError(str(e)) from None
    try:
        try:
            store = Store(args.db)
        except StoreError as e:
            raise UserError(str(e)) from None
        try:
            return _serve(args, build_app, store)
        finally:
            store.close()
    finally:
        writer.release()


def _serve(args: argparse.Namespace, build_app: AppBuilder, store: Store) -> int:
    import uvicorn

    sock = _bind(args.host, args.port)
    port = sock.getsockname()[1]
    app = build_app(store, bot_delay=args.bot_delay, bind_host=args.host)
    config = uvicorn.Config(app, log_level="warning", ws_max_size=65536, lifespan="on")
    server = uvicorn.Server(config)
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host
    url = f"http://{shown}:{port}/"
    logging.basicConfig(level=logging.INFO, format="%(message)s")

    async def announce() -> None:
        while not server.started:
            if server.should_exit:
                return
            await asyncio.sleep(0.05)
        print(f"Toy Battle is ready at {url}  (games kept in {store.path}; Ctrl+C to stop)", flush=True)
        if not args.no_browser:
            await asyncio.to_thread(webbrowser.open, url)

    async def main() -> None:
        task = asyncio.create_task(announce())
        try:
            await server.serve(sockets=[sock])
        finally:
            task.cancel()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main())
    return 0 if server.started else 1

