"""The app's web server, assembled: static front end, a small JSON API, and the websocket protocol.

``build_app(store)`` returns a Starlette application: the request guard (app/guard.py) in front of
the game routes (app/routes.py), the record files' routes (app/records.py) and the websocket
(app/sockets.py, documented in docs/protocol.md), over the games registry (app/games.py), whose bots
think in the app's one pool (app/pool.py).

Other parts of the product plug in as a ``Part`` handed to ``build_app`` by
whoever assembles the product (toybattle.assembly); the app itself imports
none of them. A part's ``routes(ctx)`` gets the ``AppContext`` (the store, the
bot levels, the games registry) and returns its routes; an online session
registers a loader for its kind of stored game and adds its live sessions with
``ctx.games.add(session)``.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass

from starlette.applications import Starlette
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from toybattle.store import Store

from . import memory
from .context import AppContext, web_dir
from .games import Games
from .guard import Guard, network_hosts
from .localized import ErrorsInLanguage
from .pool import BotPool
from .records import delete_game, export_record, import_record
from .routes import create_game, game_status, index, invite, join, meta, network, release, replay, terrain, watch_link
from .sockets import websocket_endpoint

log = logging.getLogger("toybattle.app")


@dataclass(frozen=True)
class Part:
    """A section of the product plugged into the app: its name (in ``/api/meta``'s features), its
    routes given the app's context, and links for the home screen ({"label", "href"})."""
    feature: str
    routes: Callable[[AppContext], Sequence[BaseRoute]]
    links: tuple[dict[str, str], ...] = ()


def build_app(store: Store, *, parts: Sequence[Part] = (), bot_delay: float = 0.6, bind_host: str = "127.0.0.1",
              resume: bool = True, lan: bool | None = None) -> Starlette:
    """The Starlette app over ``store``, with ``parts`` plugged in. ``bot_delay``: seconds a bot waits
    before each action. ``lan``: whether other devices can reach this app (two-device games, invite
    and watch links); by default, everywhere but in a browser (Pyodide: the static site has no server)."""
    if lan is None:
        lan = sys.platform != "emscripten"
    pool = BotPool()  # the one pool of the app's bots, stopped with the app (lifespan)
    games = Games(store, pool, bot_delay)
    ctx = AppContext(store=store, games=games, web_dir=web_dir(), bind_host=bind_host)
    ctx.allowed_hosts |= network_hosts(bind_host)
    if lan:
        ctx.features.append("lan")
    routes: list[BaseRoute] = [
        Route("/", index),
        Route("/join/{game}/{token}", index),
        Route("/api/meta", meta),
        Route("/api/terrains/{terrain}", terrain),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/import", import_record, methods=["POST"]),
        Route("/api/games/{game}", game_status),
        Route("/api/games/{game}", delete_game, methods=["DELETE"]),
        Route("/api/games/{game}/replay", replay),
        Route("/api/games/{game}/record", export_record),
        WebSocketRoute("/ws", websocket_endpoint),
    ]
    if lan:  # what another device on the network opens, and what gives it the link
        routes += [
            Route("/invite/{game}/{key}", index),
            Route("/watch/{game}/{key}", index),
            Route("/api/games/{game}/watch", watch_link),
            Route("/api/games/{game}/invite", invite),
            Route("/api/games/{game}/join", join, methods=["POST"]),
            Route("/api/games/{game}/release", release, methods=["POST"]),
            Route("/api/games/{game}/network", network, methods=["POST"]),
        ]
    for part in parts:
        routes += part.routes(ctx)
        ctx.features.append(part.feature)
        ctx.links += part.links
    routes.append(Mount("/static", StaticFiles(directory=str(ctx.web_dir)), name="static"))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if resume:
            n = games.resume_all()
            if n:
                log.info("resumed %d unfinished game(s)", n)
        trimmer = asyncio.get_running_loop().create_task(memory.keep_flat())  # see app/memory.py
        try:
            yield
        finally:
            trimmer.cancel()
            await ctx.network.close()
            games.stop()
            pool.shutdown()

    app = Starlette(routes=routes, lifespan=lifespan)  # bodies: at most MAX_BODY bytes (Guard)
    app.add_middleware(Guard, ctx=ctx)
    app.add_middleware(ErrorsInLanguage)  # outermost: even the guard's refusals in the page's language
    app.state.games = games
    app.state.ctx = ctx
    return app
