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
from toybattle.said import Said, of_error, say

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from toybattle.store import Store

    AppBuilder = Callable[..., Starlette]  # build_app(store, bot_delay=..., bind_host=...)

DEFAULT_PORT = 8765


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], build_app: AppBuilder) -> None:
    p = sub.add_parser("serve", help=Said("cli.serve.help"))
    p.add_argument("--host", default="127.0.0.1", metavar=Said("cli.metavar.host"), help=Said("cli.serve.help.host"))
    p.add_argument("--port", type=int, default=None, help=Said("cli.serve.help.port", n=DEFAULT_PORT))
    p.add_argument("--db", default=None, help=Said("cli.serve.help.db"))
    p.add_argument("--no-browser", action="store_true", help=Said("cli.serve.help.noBrowser"))
    p.add_argument("--bot-delay", type=float, default=0.6, metavar=Said("cli.metavar.seconds"),
                   help=Said("cli.serve.help.botDelay"))
    p.set_defaults(run=lambda args: cmd_serve(args, build_app))


def _bind(host: str, port: int | None) -> socket.socket:
    tries = [DEFAULT_PORT, 0] if port is None else [port]
    if not 0 <= tries[0] <= 65535:
        raise UserError(Said("cli.serve.error.port", n=str(port)))
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
    raise UserError(Said("cli.serve.error.listen", address=f"{host}:{tries[-1]}",
                         why=getattr(last, "strerror", None) or str(last)))


def cmd_serve(args: argparse.Namespace, build_app: AppBuilder) -> int:
    from toybattle.store import Store, StoreError, WriterLock, default_path

    if args.bot_delay < 0:
        raise UserError(Said("cli.serve.error.botDelay"))
    try:  # one server per games file, for as long as it runs; taken before the file is even opened
        writer = WriterLock(args.db or default_path())
    except StoreError as e:
        raise UserError(of_error(e)) from None
    try:
        try:
            store = Store(args.db)
        except StoreError as e:
            raise UserError(of_error(e)) from None
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
        print(say(Said("cli.serve.ready", url=url, name=str(store.path)), args.lang), flush=True)
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

