"""The request guard: who may talk to this server, and what every answer carries (``Guard``); the names
this server answers to; and the check of a mailbox (relay) address a player typed (``relay_url``)."""
from __future__ import annotations

import base64
import hashlib
import ipaddress
import logging
import re
import socket
from pathlib import Path
from urllib.parse import parse_qsl

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from toybattle.bounded import TooDeep
from toybattle.said import Said, of_error
from toybattle.store import StoreError

from .context import AppContext
from .games import pending_writes, settle
from .json_api import UNAVAILABLE, error_response, parse_json
from .lan import GUEST
from .session import secret_shaped

log = logging.getLogger("toybattle.app")

MAX_BODY = 16384  # bytes of an HTTP request's body; every legal body is far shorter

SECRETS = frozenset({"token", "key", "watch"})  # the fields of a request that hold a seat's or a link's secret
NOT_SHARED = Said("error.notShared")


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
    - a request that came through the network listener (app/lan.py) reaches only the game it was
      opened for: its pages, its status, its join link, its websocket, and the page's files;
    - a request that can change anything (any method but GET/HEAD, and every websocket) from a
      browser must come from this server's own page (its Origin matches the Host): no other site's
      page can create games, open rooms, dial a relay or play a seat through a player's server;
    - a request body is JSON, declared so (``Content-Type: application/json``), which a page of
      another site cannot send without the browser first asking this server, which never agrees;
      it is read here, once for every route: at most MAX_BODY bytes, nested at most MAX_DEPTH deep,
      and a token or a key in it (or in the query) is a short ASCII text, else it is refused here;
    - every answer carries a Content-Security-Policy (scripts, styles, connections: this server
      only) and refuses to be framed (``frame-ancestors 'none'``, ``X-Frame-Options: DENY``): the
      guard's own refusals, and a failure inside the server, which is answered 503 (UNAVAILABLE) with one line.
    A client that is no browser (no Origin) is a local program: it could open the games file anyway."""

    REFUSED_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

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
        if why is None and scope["type"] == "http" and scope["method"] not in ("GET", "HEAD"):
            body, why = await self.read_body(headers, receive)
            receive = _replay(body, receive)
        if why is not None:
            status, message = why
            log.warning("refused %s %s: %s", scope.get("method", "websocket"), scope.get("path"), message)
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008, "reason": message})
            else:
                await self.answer(scope, receive, send, error_response(message, status))
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        policy = self.policy(host)
        started = replaced = False
        with pending_writes() as pending:  # the first writes of the games made for this answer
            async def send_with_headers(message: Message) -> None:
                nonlocal started, replaced
                if replaced:
                    return
                if message["type"] == "http.response.start":
                    try:  # a game made for this answer is stored before it is sent (Games.create)
                        await settle(pending)
                    except StoreError as e:
                        replaced = True
                        await self.answer(scope, receive, send, error_response(of_error(e), UNAVAILABLE))
                        return
                    self.secure(message, policy)
                    started = True
                await send(message)
            try:
                await self.app(scope, receive, send_with_headers)
            except Exception:
                log.exception("%s %s failed", scope["method"], scope["path"])
                if started or replaced:
                    raise  # the answer is on its way: nothing cleaner can be sent now
                await self.answer(scope, receive, send,
                                  error_response(Said("error.serverFailed"), UNAVAILABLE))

    @staticmethod
    def secure(message: Message, policy: str) -> None:
        """The headers every answer carries (on its ``http.response.start``)."""
        h = MutableHeaders(scope=message)
        h["Content-Security-Policy"] = policy
        h["X-Frame-Options"] = "DENY"
        h["X-Content-Type-Options"] = "nosniff"
        h["Referrer-Policy"] = "no-referrer"  # a join link holds a seat's token

    async def answer(self, scope: Scope, receive: Receive, send: Send, response: Response) -> None:
        """The guard's own answer (a refusal, a failure), with every header (its policy allows nothing)."""
        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                self.secure(message, self.REFUSED_POLICY)
            await send(message)
        await response(scope, receive, secured)

    def refusal(self, scope: Scope, headers: Headers, host: str) -> tuple[int, str] | None:
        """(status, one line) if the request is refused, else None."""
        name = host_name(host)
        if name not in self.ctx.allowed_hosts and not (self.ctx.network.is_open and name == self.ctx.network.address):
            return 421, Said("error.host")
        if scope.get(GUEST) and not self.ctx.network.serves(scope):
            return 404, NOT_SHARED
        changes = scope["type"] == "websocket" or scope["method"] not in ("GET", "HEAD")
        origin = headers.get("origin")
        if changes and origin is not None and origin not in (f"http://{host}", f"https://{host}"):
            return 403, Said("error.otherSite")
        if scope["type"] == "http" and scope["method"] not in ("GET", "HEAD"):
            media = headers.get("content-type", "").split(";")[0].strip().lower()
            if media != "application/json":
                return 415, Said("error.contentType")
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"))
        if any(k in SECRETS and v and not secret_shaped(v) for k, v in query):
            return 404, Said("refused.unknownGame")
        return None

    async def read_body(self, headers: Headers, receive: Receive) -> tuple[bytes, tuple[int, str] | None]:
        """The request's whole body, and why it is refused (None if it is not): over MAX_BODY bytes,
        JSON nested deeper than MAX_DEPTH, a token or key that cannot be one. A body that is no JSON
        at all goes on: its route says what it wants."""
        too_big = 413, Said("error.tooBig", n=MAX_BODY)
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_BODY:  # refused before a byte of it is read
            return b"", too_big
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left mid-body: nothing to act on
                return b"", (400, Said("error.jsonObject"))
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > MAX_BODY:
                return b"", too_big
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        try:
            value = parse_json(body)
        except TooDeep as e:
            return body, (400, of_error(e))
        except ValueError:
            return body, None
        if isinstance(value, dict) and any(k in SECRETS and isinstance(value[k], str) and value[k]
                                           and not secret_shaped(value[k]) for k in value):
            return body, (404, Said("refused.unknownGame"))
        return body, None

    def policy(self, host: str) -> str:
        return ("default-src 'self'; script-src 'self'; style-src 'self' " + self.styles +
                f"; img-src 'self'; connect-src 'self' ws://{host} wss://{host}; object-src 'none'; "
                "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def _replay(body: bytes, receive: Receive) -> Receive:
    """``receive`` for the app after the guard read the body: the body once, then the client's own."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()
    return replayed


def relay_url(text: object) -> str:
    """A mailbox (relay) address as a player typed it, checked: ws:// or wss://, a host name or IP
    address, a port, nothing else (no user, no spaces). ValueError says what is wrong."""
    example = "wss://relay.magic-wormhole.io/v1"
    if not isinstance(text, str) or not 0 < len(text.strip()) <= 200:
        raise ValueError(Said("error.mailboxText", address=example))
    m = re.fullmatch(r"(wss?)://([A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::([0-9]{1,5}))?(/[A-Za-z0-9._~/-]*)?",
                     text.strip())
    if m is None:
        raise ValueError(Said("error.mailboxShape", address=example))
    name, port = m[2].strip("[]"), m[3]
    if port is not None and not 0 < int(port) <= 65535:
        raise ValueError(Said("error.port", n=int(port)))
    if m[2].startswith("["):
        ipaddress.ip_address(name)  # ValueError for a malformed address
    elif name.startswith(("-", ".")) or ".." in name:
        raise ValueError(Said("error.hostName", name=repr(name)))
    return text.strip()
