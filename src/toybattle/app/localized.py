"""The language a request asked for, and every refused HTTP request's one line said in it.

Routes (the app's, the lessons', online play's) refuse with ``{"error": one English line}``; this
middleware, the outermost of the app, puts that line into the page's language through the
catalogue (words.py), so no route has to and none can forget.
"""
from __future__ import annotations

import json
from urllib.parse import parse_qs

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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
        lang = scope_language(scope) if scope["type"] == "http" else words.DEFAULT
        if lang == words.DEFAULT:
            await self.app(scope, receive, send)
            return
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
    if not isinstance(data, dict) or not isinstance(data.get("error"), str):
        return body
    return json.dumps({**data, "error": words.translate(data["error"], lang)}).encode()
