"""The language a request asked for, and every refused HTTP request's one line said in it.

Routes (the app's, the lessons', online play's) refuse with ``{"error": one line}`` (json_api.error_body),
which for a message of the catalogues also carries ``said``: its id and arguments. This middleware, the
outermost of the app, says that message in the page's language and drops ``said``, so no route has to
and none can forget. A line without ``said`` (a peer's words, a text the app does not own) is sent as it is.
"""
from __future__ import annotations

import json
from contextlib import suppress
from urllib.parse import parse_qs

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from toybattle.said import Said

from . import words


def scope_language(scope: Scope) -> str:
    """The language a request asked for: ``?lang=``, else its Accept-Language header."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang", [""])[0]
    return words.language(query or Headers(scope=scope).get("accept-language"))


class ErrorsInLanguage:
    """Rewrites the ``error`` of a JSON error response (status 400 and up) in the request's language."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        lang = scope_language(scope)
        start: Message | None = None
        chunks: list[bytes] = []

        async def say(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                media = Headers(raw=message["headers"]).get("content-type", "")
                if message["status"] >= 400 and media.startswith("application/json"):
                    start = message  # held back until the body is read and said again
                    return
            elif message["type"] == "http.response.body" and start is not None:
                chunks.append(message.get("body", b""))
                if message.get("more_body"):
                    return
                body = _said(b"".join(chunks), lang)
                MutableHeaders(scope=start)["content-length"] = str(len(body))
                await send(start)
                message = {"type": "http.response.body", "body": body}
            await send(message)

        await self.app(scope, receive, say)


def _said(body: bytes, lang: str) -> bytes:
    try:
        data = json.loads(body)
    except ValueError:
        return body
    if not isinstance(data, dict) or "said" not in data:
        return body
    said = data.pop("said")
    with suppress(ValueError):  # not a message of this program's catalogues: the English line stays
        data["error"] = words.say(Said.from_json(said), lang)
    return json.dumps(data).encode()
