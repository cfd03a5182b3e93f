"""What the app's JSON API routes share (the Learn section's too): a page's JSON read
with its nesting bounded (``parse_json``, also each websocket message), a body that must be an object,
the page's language, the game and seat a ``?token=`` opens, and the one shape of a refusal."""
from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from toybattle.bounded import TooDeep, nesting
from toybattle.said import Said, of_error

from .localized import scope_language
from .session import Session, seat_of

MAX_DEPTH = 16  # levels of lists and objects in a JSON message or body; every legal one has at most 3


def parse_json(raw: str | bytes, limit: int = MAX_DEPTH) -> Any:
    """``raw`` parsed as JSON, refusing what nests deeper than ``limit`` (TooDeep): the one way this
    app reads a JSON message or body. ValueError (TooDeep included) for anything that is not JSON."""
    if isinstance(raw, bytes):
        raw = raw.decode(json.detect_encoding(raw), "surrogatepass")  # UnicodeDecodeError is a ValueError
    if nesting(raw, limit) > limit:
        raise TooDeep(Said("error.tooDeep", n=limit))
    try:
        return json.loads(raw)
    except RecursionError:  # not reached below the limit; never a crash if it were
        raise TooDeep(Said("error.tooDeep", n=limit)) from None


def error_body(message: str) -> dict[str, Any]:
    """``{"error": one line}``; a Said also carries its id and arguments (``said``), which the app's
    outermost middleware (localized.py) turns into the line in the page's language."""
    return {"error": message, "said": message.to_json()} if isinstance(message, Said) else {"error": message}


# What the server answers when it cannot do what was asked now (the games file is busy or failing, or a fault
# of its own): 503 with one line, never a 500, so a page says the line and the player may simply try again.
UNAVAILABLE = 503


def error_response(message: str, status: int = 400) -> JSONResponse:
    """The one shape of a refused HTTP request: ``{"error": one line}`` (see error_body)."""
    return JSONResponse(error_body(message), status_code=status)


async def json_object(request: Request) -> dict[str, Any] | JSONResponse:
    """The request's JSON body if it is an object, else the error response to send back."""
    try:
        body = parse_json(await request.body())
    except TooDeep as e:
        return error_response(of_error(e))
    except ValueError:
        return error_response(Said("error.jsonObject"))
    return body if isinstance(body, dict) else error_response(Said("error.jsonObject"))


def page_language(request: Request) -> str:
    """The language the page asked for: ``?lang=``, else its Accept-Language header."""
    return scope_language(request.scope)


async def seat_from_query(request: Request) -> tuple[Session, int] | JSONResponse:
    """The game and the seat that the request's ``?token=`` opens, else the error response to send back."""
    session = await request.app.state.games.fetch(request.path_params["game"])
    seat = seat_of(session, request.query_params.get("token", ""))
    if session is None or seat is None:
        return error_response(Said("refused.unknownGame"), 404)
    return session, seat


async def seat_from_body(request: Request) -> tuple[Session, int, dict[str, Any]] | JSONResponse:
    """The game and the seat that the JSON body's ``token`` opens, and the body, else the error response."""
    body = await json_object(request)
    if isinstance(body, JSONResponse):
        return body
    session = await request.app.state.games.fetch(request.path_params["game"])
    seat = seat_of(session, body.get("token"))
    if session is None or seat is None:
        return error_response(Said("refused.unknownGame"), 404)
    return session, seat, body
