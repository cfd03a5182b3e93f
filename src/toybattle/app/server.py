"""The app's web server: static front end, a small JSON API, and the websocket protocol.

``build_app(store)`` returns a Starlette application. The websocket protocol is
documented in docs/protocol.md; every incoming message is validated, and a bad
one gets an ``error`` reply and changes nothing.

Other parts of the product plug in as a ``Part`` handed to ``build_app`` by
whoever assembles the product (toybattle.assembly); the app itself imports
none of them. A part's ``routes(ctx)`` gets the ``AppContext`` (the store, the
bot levels, the games registry) and returns its routes; an online session
registers a loader for its kind of stored game and adds its live sessions with
``ctx.games.add(session)``.
"""
from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import ipaddress
import json
import logging
import re
import socket
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from toybattle.rules import SEATS, TERRAIN_IDS, State, load_terrain
from toybattle.rules.view import SPECTATOR
from toybattle.store import GameRow, Store, StoreError

from . import bots as app_bots
from . import memory, pool, words
from .lan import Network
from .localized import ErrorsInLanguage, scope_language
from .reference import powers_json, rule_texts, terrain_json, troops_json
from .session import KINDS, LocalSession, Refused, Session

log = logging.getLogger("toybattle.app")

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})  # names this server always answers to
MAX_MESSAGE = 4096  # characters; every legal message is far shorter
MsgId = int | str | None  # a message's "id", echoed in its reply


def web_dir() -> Path:
    return Path(str(resources.files("toybattle").joinpath("web")))


class Games:
    """The live sessions, loaded from the store on demand and kept while the server runs."""

    def __init__(self, store: Store, bot_delay: float = 0.6):
        self.store = store
        self.bot_delay = bot_delay
        self.sessions: dict[str, Session] = {}
        self.loaders: dict[str, Callable[[GameRow], Session]] = {
            kind: (lambda row: LocalSession(row, self.store, self.bot_delay)) for kind in KINDS}
        # how a game whose stored meta holds this key is played again (the Learn section registers
        # "lesson": a rematch starts from the lesson's position, not from a new deal)
        self.rematchers: dict[str, Callable[[LocalSession], LocalSession]] = {}

    def add(self, session: Session) -> None:
        self.sessions[session.id] = session
        session.on_idle = self.forget

    def forget(self, session: Session) -> None:
        """Drop a finished game nobody watches: it lives on in the store, and ``get`` loads it again."""
        if self.sessions.get(session.id) is session and session.idle:
            del self.sessions[session.id]
            session.on_idle = None

    def get(self, game_id: str) -> Session | None:
        """The live session of ``game_id``, loaded from the store if need be (on the calling thread:
        the event loop uses ``fetch``)."""
        if not isinstance(game_id, str) or not 0 < len(game_id) <= 64:
            return None
        return self.sessions.get(game_id) or self._serve(self.store.get(game_id))

    async def fetch(self, game_id: str) -> Session | None:
        """``get`` without waiting for the games file on the event loop."""
        if not isinstance(game_id, str) or not 0 < len(game_id) <= 64:
            return None
        return self.sessions.get(game_id) or self._serve(await self.store.get_async(game_id))

    def _serve(self, row: GameRow | None) -> Session | None:
        if row is None or row.kind not in self.loaders:
            return None
        if row.id in self.sessions:  # loaded meanwhile
            return self.sessions[row.id]
        try:
            session = self.loaders[row.kind](row)
        except Exception as e:
            log.error("game %s cannot be loaded: %s", row.id, e)
            return None
        self.add(session)
        if isinstance(session, LocalSession):
            session.kick_bot()
        with contextlib.suppress(RuntimeError):  # no loop running (a script): nothing to release later
            # a finished game opened for one request (its status, its replay) is dropped after it,
            # unless a socket subscribed meanwhile
            asyncio.get_running_loop().call_soon(session.release_if_idle)
        return session

    def create(self, settings: dict[str, Any], start: State | None = None,
               extra: dict[str, Any] | None = None) -> LocalSession:
        """A new local game (``LocalSession.create``), stored, served and its bot started."""
        s = LocalSession.create(self.store, bot_delay=self.bot_delay, start=start, extra=extra, **settings)
        self.store.put(s.row)
        return self._start(s)

    async def create_async(self, settings: dict[str, Any]) -> LocalSession:
        """``create`` without waiting for the games file on the event loop."""
        s = LocalSession.create(self.store, bot_delay=self.bot_delay, **settings)
        await self.store.put_async(s.row)
        return self._start(s)

    def _start(self, s: LocalSession) -> LocalSession:
        self.add(s)
        s.kick_bot()
        return s

    async def rematch(self, session: LocalSession, settings: dict[str, Any]) -> LocalSession:
        """A new game like ``session``: as a registered rematcher starts it again, else a new deal."""
        for key, again in self.rematchers.items():
            if key in session.row.meta:
                return again(session)
        return await self.create_async(settings)

    def resume_all(self) -> int:
        """Load every unfinished game of the kinds we can serve (bots pick up their turn)."""
        n = 0
        for row in self.store.unfinished():
            if row.kind in self.loaders and self.get(row.id) is not None:
                n += 1
        return n

    def stop(self) -> None:
        for s in self.sessions.values():
            if isinstance(s, LocalSession):
                s.stop()


@dataclass
class AppContext:
    """What the parts plugged into the app get from it (see module docstring)."""
    store: Store
    games: Games
    web_dir: Path
    bind_host: str = "127.0.0.1"
    # the names this server answers to (the Host header): loopback, and this machine's network
    # names only while the app is open to the local network (whoever opens it adds them here)
    allowed_hosts: set[str] = field(default_factory=lambda: set(LOOPBACK))
    links: list[dict[str, str]] = field(default_factory=list)  # extra pages for the home screen: {"label", "href"}
    # what this app offers: "lan" (two-device games, invite and watch links: another device on the
    # network reaches this server) and the parts plugged in: "lessons", "online"
    features: list[str] = field(default_factory=list)
    network: Network = field(default_factory=Network)  # the listener a host opens to the local network


@dataclass(frozen=True)
class Part:
    """A section of the product plugged into the app: its name (in ``/api/meta``'s features), its
    routes given the app's context, and links for the home screen ({"label", "href"})."""
    feature: str
    routes: Callable[[AppContext], Sequence[BaseRoute]]
    links: tuple[dict[str, str], ...] = ()


# ---------------------------------------------------------------- the guard: who may talk to this server

_HOST = re.compile(r"(?P<name>[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::(?P<port>[0-9]{1,5}))?")


def host_name(host: str) -> str | None:
    """The name in a Host header (``[::1]:8765`` -> ``::1``), or None if it is no well-formed host."""
    m = _HOST.fullmatch(host)
    if m is None or (m["port"] is not None and not 0 < int(m["port"]) <= 65535):
        return None
    return m["name"].strip("[]").lower()


def network_hosts(bind_host: str) -> set[str]:
    """The names a device on the local network uses for this server (see ``lan_address``), when
    ``bind_host`` listens beyond this machine; nothing otherwise."""
    addr, reachable = lan_address(bind_host)
    if not reachable:
        return set()
    names = {socket.gethostname().lower()} | ({addr.lower()} if addr else set())
    return names | ({bind_host.lower()} if bind_host not in ("0.0.0.0", "::", "") else set())


def _inline_style_hashes(web: Path) -> str:
    """CSP hashes of the pages' own <style> blocks (the Learn page has one): every other style,
    and every script, must come from this server's files."""
    found = set()
    for page in web.glob("*.html"):
        for block in re.findall(r"<style>(.*?)</style>", page.read_text("utf-8"), re.S):
            found.add("'sha256-" + base64.b64encode(hashlib.sha256(block.encode()).digest()).decode() + "'")
    return " ".join(sorted(found))


class Guard:
    """Every request meets this first (docs/security.md, "The app and its files"):

    - the Host header must name this server (loopback, or its network names while open to the
      network): a hostile site re-pointing its own name at 127.0.0.1 (DNS rebinding) is refused;
    - a request that can change anything (any method but GET/HEAD, and every websocket) from a
      browser must come from this server's own page (its Origin matches the Host): no other site's
      page can create games, open rooms, dial a relay or play a seat through a player's server;
    - a request body is JSON, declared so (``Content-Type: application/json``), which a page of
      another site cannot send without the browser first asking this server, which never agrees;
    - every answer carries a Content-Security-Policy (scripts, styles, connections: this server
      only) and refuses to be framed (``frame-ancestors 'none'``, ``X-Frame-Options: DENY``).
    A client that is no browser (no Origin) is a local program: it could open the games file anyway."""

    def __init__(self, app: ASGIApp, ctx: AppContext) -> None:
        self.app = app
        self.ctx = ctx
        self.styles = _inline_style_hashes(ctx.web_dir)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        why = self.refusal(scope, headers, host)
        if why is not None:
            status, message = why
            log.warning("refused %s %s: %s", scope.get("method", "websocket"), scope.get("path"), message)
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008, "reason": message})
            else:
                await error_response(message, status)(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        policy = self.policy(host)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                h = MutableHeaders(scope=message)
                h["Content-Security-Policy"] = policy
                h["X-Frame-Options"] = "DENY"
                h["X-Content-Type-Options"] = "nosniff"
                h["Referrer-Policy"] = "no-referrer"  # a join link holds a seat's token
            await send(message)
        await self.app(scope, receive, send_with_headers)

    def refusal(self, scope: Scope, headers: Headers, host: str) -> tuple[int, str] | None:
        """(status, one line) if the request is refused, else None."""
        name = host_name(host)
        if name not in self.ctx.allowed_hosts and not (self.ctx.network.is_open and name == self.ctx.network.address):
            return 421, "this server answers only to its own address (open it as http://127.0.0.1)"
        changes = scope["type"] == "websocket" or scope["method"] not in ("GET", "HEAD")
        origin = headers.get("origin")
        if changes and origin is not None and origin not in (f"http://{host}", f"https://{host}"):
            return 403, "refused: that request came from another site's page"
        if scope["type"] == "http" and scope["method"] not in ("GET", "HEAD"):
            media = headers.get("content-type", "").split(";")[0].strip().lower()
            if media != "application/json":
                return 415, "send a JSON object with Content-Type: application/json"
        return None

    def policy(self, host: str) -> str:
        return ("default-src 'self'; script-src 'self'; style-src 'self' " + self.styles +
                f"; img-src 'self'; connect-src 'self' ws://{host} wss://{host}; object-src 'none'; "
                "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def relay_url(text: object) -> str:
    """A mailbox (relay) address as a player typed it, checked: ws:// or wss://, a host name or IP
    address, a port, nothing else (no user, no spaces). ValueError says what is wrong."""
    example = "e.g. wss://relay.magic-wormhole.io/v1"
    if not isinstance(text, str) or not 0 < len(text.strip()) <= 200:
        raise ValueError(f"a mailbox address is a short text, {example}")
    m = re.fullmatch(r"(wss?)://([A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::([0-9]{1,5}))?(/[A-Za-z0-9._~/-]*)?",
                     text.strip())
    if m is None:
        raise ValueError(f"a mailbox address is ws:// or wss://, a host, a port and a path, {example}")
    name, port = m[2].strip("[]"), m[3]
    if port is not None and not 0 < int(port) <= 65535:
        raise ValueError(f"port {port} is not a port number (1 to 65535)")
    if m[2].startswith("["):
        ipaddress.ip_address(name)  # ValueError for a malformed address
    elif name.startswith(("-", ".")) or ".." in name:
        raise ValueError(f"{name!r} is not a host name")
    return text.strip()


# ---------------------------------------------------------------- websocket protocol

class Connection:
    """One browser socket, bound to at most one (game, seat) at a time."""

    def __init__(self, ws: WebSocket, games: Games):
        self.ws = ws
        self.games = games
        self.session: Session | None = None
        self.seat = -1
        self.lang = words.DEFAULT  # the page's language (its hello says which); texts are sent in it
        self.send_lock = asyncio.Lock()
        self.chat_seen = 0  # the last chat line this socket was sent

    async def send(self, msg: dict[str, Any] | str) -> None:
        async with self.send_lock:
            if self.ws.application_state == WebSocketState.CONNECTED:
                await self.ws.send_text(msg if isinstance(msg, str) else json.dumps(msg))

    async def push_view(self, session: Session) -> None:
        if session is self.session:
            msg = session.view_message(self.seat)  # built once per change, shared by every socket
            if self.lang != words.DEFAULT:
                decoded = json.loads(msg)
                msg = json.dumps({**decoded, "view": words.localize(decoded["view"], self.lang)})
            await self.send(msg)

    async def fail(self, message: str) -> None:
        """An error that answers no message of the page's, in the page's language."""
        await self.send({"type": "error", "id": None, "message": words.translate(message, self.lang)})

    async def push_chat(self, session: Session) -> None:
        """The chat lines this socket has not been sent yet (all of them after a hello)."""
        if session is self.session:
            lines = [x for x in session.chat_log.lines if x["n"] > self.chat_seen]
            if lines:
                self.chat_seen = lines[-1]["n"]
                await self.send({"type": "chat", "lines": lines})

    def unbind(self) -> None:
        if self.session:
            self.session.unsubscribe(self.push_view)
            self.session.unlisten_chat(self.push_chat)
        self.chat_seen = 0
        self.session, self.seat = None, -1

    async def handle(self, raw: str) -> None:
        msg_id = None
        try:
            if len(raw) > MAX_MESSAGE:
                raise Refused(f"message too long (over {MAX_MESSAGE} characters)")
            try:
                msg = json.loads(raw)
            except ValueError:
                raise Refused("not JSON: every message is a JSON object") from None
            if not isinstance(msg, dict):
                raise Refused("every message is a JSON object with a \"type\"")
            msg_id = msg.get("id")
            if not (msg_id is None or (isinstance(msg_id, int) and not isinstance(msg_id, bool)
                    and abs(msg_id) < 2 ** 53) or (isinstance(msg_id, str) and len(msg_id) <= 64)):
                msg_id = None
                raise Refused("\"id\" must be a number or a short text")
            kind = msg.get("type")
            if kind == "ping":
                await self.send({"type": "pong", "id": msg_id})
                return
            if kind == "hello":
                await self.hello(msg, msg_id)
                return
            if kind not in ("act", "undo", "concede", "rematch", "hint", "chat"):
                raise Refused(f"unknown message type {kind!r} (hello, act, undo, concede, rematch, hint, chat, ping)")
            if self.session is None:
                raise Refused("say hello with your game and token first")
            session, seat = self.session, self.seat
            if seat == SPECTATOR:
                raise Refused("a spectator watches: only the players act")
            if kind == "chat":  # outside the game: no ply, never recorded
                await session.chat(seat, msg.get("text"), msg.get("phrase"))
                await self.send({"type": "ok", "id": msg_id})
                return
            if "ply" in msg and msg["ply"] != session.view(seat)["ply"]:
                raise Refused("the game has moved on since that tap; look again")
            if kind == "act":
                action = msg.get("action")
                if not isinstance(action, str):
                    raise Refused("\"act\" needs \"action\": a text such as draw, 7@18, use or skip")
                await session.act(seat, action)
            elif kind == "undo":
                await session.undo(seat)
            elif kind == "concede":
                await session.concede(seat)
            elif kind == "hint":
                hint = await session.hint(seat)
                hint["reason"] = words.translate(hint["reason"], self.lang)
                await self.send({"type": "hint", "id": msg_id, **hint})
                return
            else:
                await self.rematch(session, seat, msg_id)
                return
            await self.send({"type": "ok", "id": msg_id})
        except Refused as e:
            await self.send({"type": "error", "id": msg_id, "message": words.translate(str(e), self.lang)})

    async def hello(self, msg: dict[str, Any], msg_id: MsgId) -> None:
        self.lang = words.language(msg.get("lang"))
        game, token, watch = msg.get("game"), msg.get("token"), msg.get("watch")
        if not isinstance(game, str) or not isinstance(token if watch is None else watch, str):
            raise Refused("\"hello\" needs \"game\" and \"token\" (or \"watch\", a watch link's key)")
        session = await self.games.fetch(game)
        seat: int | None
        if isinstance(watch, str):
            seat = SPECTATOR if isinstance(session, LocalSession) and session.watches(watch) else None
        else:
            seat = session.seat_of(str(token)) if session else None
        if session is None or seat is None:
            raise Refused("unknown game or token")
        old = self.session
        self.session, self.seat = session, seat
        if old is not session:  # watch the new game before leaving the old (which may then be dropped)
            session.subscribe(self.push_view)
            if old is not None:
                old.unlisten_chat(self.push_chat)
                old.unsubscribe(self.push_view)
            self.chat_seen = 0
        await self.send({"type": "welcome", "id": msg_id, "game": session.id,
                         "seat": SEATS[seat] if seat != SPECTATOR else None})
        await self.push_view(session)
        if session.chatty and seat != SPECTATOR:  # the chat is the players'; a watch link shows the game only
            session.listen_chat(self.push_chat)
            await self.push_chat(session)
        else:
            session.unlisten_chat(self.push_chat)

    async def rematch(self, session: Session, seat: int, msg_id: MsgId) -> None:
        settings = session.settings()
        if not isinstance(session, LocalSession) or settings is None or not session.over:
            raise Refused("a rematch is offered when the game is over")
        new: Session | None
        if "rematch" in session.row.meta:
            new = await self.games.fetch(session.row.meta["rematch"])
        else:
            try:
                new = await self.games.rematch(session, settings)
            except (Refused, StoreError) as e:
                raise Refused(f"no rematch: {e}") from None
            session.row.meta["rematch"] = new.id
            if new.kind == "lan" and "invite" not in session.row.meta:
                new.row.meta.pop("invite", None)  # the guest's device is seated again below, by its socket
                await new.store.put_async(new.row)
            await session.store.put_async(session.row)
        if not isinstance(new, LocalSession):
            raise Refused("no rematch: that game is no longer in the games file")
        # every seat connected to the old game learns its own new token, and only its own
        await session.changed()
        await self.send({"type": "ok", "id": msg_id})
        for fn in list(session._listeners):
            conn = getattr(fn, "__self__", None)
            if isinstance(conn, Connection) and conn.seat in new.tokens:
                # a hot-seat page holds both seats; any other page holds only its own
                seats = (0, 1) if new.kind == "hotseat" else (conn.seat,)
                await conn.send({"type": "rematch", "game": new.id, "seat": SEATS[conn.seat],
                                 "tokens": {SEATS[s]: new.tokens[s] for s in seats if s in new.tokens}})


async def websocket_endpoint(ws: WebSocket) -> None:
    await ws.accept()
    conn = Connection(ws, ws.app.state.games)
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                await conn.fail("send text frames holding JSON")
                continue
            try:
                await conn.handle(text)
            except StoreError as e:
                await conn.fail(str(e))
            except (WebSocketDisconnect, asyncio.CancelledError):
                raise
            except Exception as e:  # a bug must not take the socket down, nor show a traceback
                log.exception("websocket message failed")
                await conn.fail(f"internal error: {type(e).__name__}: {e}")
    except WebSocketDisconnect:
        pass
    finally:
        conn.unbind()


# ---------------------------------------------------------------- HTTP

def error_response(message: str, status: int = 400) -> JSONResponse:
    """The one shape of a refused HTTP request: ``{"error": one line}``."""
    return JSONResponse({"error": message}, status_code=status)


_error = error_response


async def json_object(request: Request) -> dict[str, Any] | JSONResponse:
    """The request's JSON body if it is an object, else the error response to send back."""
    try:
        body = await request.json()
    except ValueError:
        return _error("send a JSON object")
    return body if isinstance(body, dict) else _error("send a JSON object")


async def index(request: Request) -> Response:
    return FileResponse(web_dir() / "index.html", headers={"Cache-Control": "no-cache"})


def page_language(request: Request) -> str:
    """The language the page asked for: ``?lang=``, else its Accept-Language header."""
    return scope_language(request.scope)


async def meta(request: Request) -> JSONResponse:
    ctx: AppContext = request.app.state.ctx
    lang = page_language(request)
    terrains = []
    for tid in TERRAIN_IDS:
        t = load_terrain(tid)
        terrains.append({"id": t.id, "name": t.name_fr if lang == "fr" else t.name, "name_fr": t.name_fr,
                         "objective": {"blue": t.objective[0], "red": t.objective[1]},
                         "powers": sorted({n.power for n in t.nodes if n.power}),
                         "restricted": any(n.allowed for n in t.nodes)})
    return JSONResponse({
        "terrains": terrains, "troops": troops_json(lang), "powers": powers_json(lang), "texts": rule_texts(lang),
        "levels": [{"name": lv.name, "label": words.translate(lv.label, lang),
                    "description": words.translate(lv.description, lang)} for lv in app_bots.levels()],
        "default_level": app_bots.default_level(),
        "links": [link | {"label": words.translate(link["label"], lang)} for link in ctx.links],
        "features": ctx.features,
    })


async def terrain(request: Request) -> Response:
    tid = request.path_params["terrain"]
    if tid not in TERRAIN_IDS:
        return _error(f"unknown terrain {tid!r}", 404)
    return JSONResponse(terrain_json(load_terrain(tid), page_language(request)))


async def create_game(request: Request) -> JSONResponse:
    body = await json_object(request)
    if isinstance(body, JSONResponse):
        return body
    allowed = {"kind", "terrain", "first_game", "first", "human", "level"}
    unknown = set(body) - allowed
    if unknown:
        return _error(f"unknown field(s): {', '.join(sorted(unknown))}")
    if not all(isinstance(v, str) for k, v in body.items() if k != "first_game") or \
            not isinstance(body.get("first_game", False), bool):
        return _error("fields are texts, and first_game is true or false")
    try:
        session = await request.app.state.games.create_async(body)
    except Refused as e:
        return _error(str(e))
    except StoreError as e:
        return _error(str(e), 500)
    host = session.row.meta.get("host")
    tokens = {SEATS[s]: t for s, t in session.tokens.items() if session.kind != "lan" or SEATS[s] == host}
    return JSONResponse({"game": session.id, "kind": session.kind, "tokens": tokens})


async def _seat_from_query(request: Request) -> tuple[Session, int] | JSONResponse:
    session = await request.app.state.games.fetch(request.path_params["game"])
    token = request.query_params.get("token", "")
    seat = session.seat_of(token) if session else None
    if session is None or seat is None:
        return _error("unknown game or token", 404)
    return session, seat


async def game_status(request: Request) -> JSONResponse:
    found = await _seat_from_query(request)
    if isinstance(found, JSONResponse):
        return found
    session, seat = found
    v = session.view(seat)  # an online room waiting for its peer has no board yet
    result = words.translate(v.get("result", ""), page_language(request))
    return JSONResponse({"game": session.id, "kind": session.kind, "terrain": v.get("terrain"),
                         "over": v.get("over", False), "result": result, "turn": v.get("turn"),
                         "ply": v.get("ply", 0), "seat": SEATS[seat], "waiting": bool(v.get("waiting")),
                         "offers": session.offers()})


def lan_address(bind_host: str) -> tuple[str | None, bool]:
    """The address other devices would use (None if this machine names none but loopback), and
    whether the server listens there at all. Only this machine's own names are looked up: no
    outside address is ever named or contacted."""
    if bind_host in ("0.0.0.0", "::", ""):
        try:
            infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        except OSError:
            infos = []
        for *_, sockaddr in infos:
            addr = str(sockaddr[0])
            if not addr.startswith("127."):
                return addr, True
        return None, True
    return bind_host, not bind_host.startswith("127.") and bind_host != "localhost"


async def invite(request: Request) -> JSONResponse:
    """The host's join link for the guest's seat: a key that seats the first device to open it
    (never the guest's token). 409 once a device has joined (the host may release the seat)."""
    found = await _seat_from_query(request)
    if isinstance(found, JSONResponse):
        return found
    session, seat = found
    if not isinstance(session, LocalSession):
        return _error("only the host of a game on two devices can invite", 403)
    try:
        guest = session.guest_seat(seat)
    except Refused as e:
        return _error(str(e), 403)
    ctx: AppContext = request.app.state.ctx
    lang = page_language(request)
    network = words.localize(ctx.network.state(), lang)
    try:
        key = session.invitation(seat)
    except Refused as e:
        return JSONResponse({"error": str(e), "joined": True, "seat": SEATS[guest], "network": network},
                            status_code=409)
    port = request.url.port or (443 if request.url.scheme == "https" else 80)
    if ctx.network.is_open:
        addr, port, reachable = ctx.network.address, ctx.network.port, True
    else:
        addr, reachable = lan_address(ctx.bind_host)
    host = addr or socket.gethostname()
    url = f"http://{host}:{port}/invite/{session.id}/{key}"
    if not reachable:
        note = "This app is open to this computer only. Open it to your network (below) so another device can join."
    elif addr is None:
        note = (f"This computer did not tell its network address, so the link uses its name, {host}. "
                f"If the link does not open on the other device, replace {host} with this computer's "
                "address on your network (your system's network settings show it).")
    else:
        note = ""
    import segno  # here, not at the top: the in-browser site has no invitations and ships no segno
    svg = segno.make(url, error="m").svg_inline(scale=5, dark="#1d2433", light="#ffffff")
    return JSONResponse({"url": url, "seat": SEATS[guest], "reachable": reachable,
                         "note": words.translate(note, lang), "qr_svg": svg,
                         "network": network})


async def join(request: Request) -> JSONResponse:
    """A device opening a join link: the first one gets the guest's seat and its token."""
    body = await json_object(request)
    if isinstance(body, JSONResponse):
        return body
    session = await request.app.state.games.fetch(request.path_params["game"])
    key = body.get("key")
    if not isinstance(session, LocalSession) or not isinstance(key, str) or len(key) > 64:
        return _error("this join link does not open any game on this server", 404)
    try:
        seat, token = await session.claim(key)
    except Refused as e:
        return _error(str(e), 409)
    return JSONResponse({"game": session.id, "kind": session.kind, "seat": SEATS[seat], "tokens": {SEATS[seat]: token}})


async def _host_request(request: Request) -> tuple[LocalSession, int, dict[str, Any]] | JSONResponse:
    """The game and host seat of a POST carrying the host's ``token``, and its body."""
    body = await json_object(request)
    if isinstance(body, JSONResponse):
        return body
    session = await request.app.state.games.fetch(request.path_params["game"])
    token = body.get("token")
    seat = session.seat_of(token) if session and isinstance(token, str) else None
    if not isinstance(session, LocalSession) or seat is None:
        return _error("unknown game or token", 404)
    try:
        session.guest_seat(seat)
    except Refused as e:
        return _error(str(e), 403)
    return session, seat, body


async def release(request: Request) -> JSONResponse:
    """The host frees the guest's seat: the device holding it is let go, and a new join link made."""
    found = await _host_request(request)
    if isinstance(found, JSONResponse):
        return found
    session, seat, _ = found
    try:
        guest = await session.release(seat)
    except Refused as e:
        return _error(str(e), 409)
    for fn in list(session._listeners):
        conn = getattr(fn, "__self__", None)
        if isinstance(conn, Connection) and conn.session is session and conn.seat == guest:
            conn.unbind()
            await conn.fail("the host released this seat")
    return JSONResponse({"released": SEATS[guest]})


async def network(request: Request) -> JSONResponse:
    """The host opens the app to the local network for this game (``{"token", "open": true}``), or
    closes it; it closes by itself when the game ends."""
    found = await _host_request(request)
    if isinstance(found, JSONResponse):
        return found
    session, _, body = found
    ctx: AppContext = request.app.state.ctx
    if not isinstance(body.get("open"), bool):
        return _error("send {\"token\", \"open\": true or false}")
    if body["open"]:
        if session.over:
            return _error("the game is over", 409)
        try:
            await ctx.network.open(request.app, request.url.port or 80, session)
        except OSError as e:
            return _error(f"cannot open to the network: {e}", 409)
    else:
        await ctx.network.close()
    return JSONResponse(words.localize(ctx.network.state(), page_language(request)))


async def watch_link(request: Request) -> JSONResponse:
    """A player's watch link for its game: anyone who opens it sees what both players see, and acts on nothing."""
    found = await _seat_from_query(request)
    if isinstance(found, JSONResponse):
        return found
    session, _ = found
    if not isinstance(session, LocalSession):
        return _error("this game has no watch link", 403)
    try:
        key = await session.watch_key()
    except Refused as e:
        return _error(str(e), 500)
    return JSONResponse({"url": f"/watch/{session.id}/{key}"})


async def replay(request: Request) -> JSONResponse:
    found = await _seat_from_query(request)
    if isinstance(found, JSONResponse):
        return found
    session, seat = found
    lang = page_language(request)
    try:
        return JSONResponse(words.localize(session.replay(seat), lang))
    except Refused as e:
        return _error(str(e), 409)


def build_app(store: Store, *, parts: Sequence[Part] = (), bot_delay: float = 0.6, bind_host: str = "127.0.0.1",
              resume: bool = True, lan: bool | None = None) -> Starlette:
    """The Starlette app over ``store``, with ``parts`` plugged in. ``bot_delay``: seconds a bot waits
    before each action. ``lan``: whether other devices can reach this app (two-device games, invite
    and watch links); by default, everywhere but in a browser (Pyodide: the static site has no server)."""
    if lan is None:
        lan = sys.platform != "emscripten"
    games = Games(store, bot_delay)
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
        Route("/api/games/{game}", game_status),
        Route("/api/games/{game}/replay", replay),
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

    app = Starlette(routes=routes, lifespan=lifespan, max_body_size=16384)
    app.add_middleware(Guard, ctx=ctx)
    app.add_middleware(ErrorsInLanguage)  # outermost: even the guard's refusals in the page's language
    app.state.games = games
    app.state.ctx = ctx
    return app
