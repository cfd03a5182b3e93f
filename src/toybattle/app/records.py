"""A game's record file: delete a game from the games file, export a finished game's record
(docs/notation.md), and import a record as a game on one screen."""
from __future__ import annotations

import logging
import secrets

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from toybattle.rules import SEATS, IllegalAction, Record, State, action_text, parse_record
from toybattle.rules import actions as A
from toybattle.rules.actions import parse_seated
from toybattle.rules.state import unanswered
from toybattle.said import Said, of_error
from toybattle.store import GameRow, StoreError

from .games import Games
from .json_api import UNAVAILABLE, error_body, error_response, json_object, seat_from_query
from .session import LocalSession, new_token, same_secret, seat_of, secret_shaped
from .sockets import Connection

log = logging.getLogger("toybattle.app")

MAX_RECORD = 12_000  # characters: a whole game's record is a few hundred; a file far bigger is no record
EXPORTED_KINDS = ("bot", "hotseat")  # whose finished record hides nothing from another person (docs/browser.md)


def _token_opens(row: GameRow, token: str) -> bool:
    """Whether ``token`` is one of the seat tokens stored in ``row``'s meta (a row whose game cannot be
    loaded, a damaged or foreign one, is still opened by the token it was made with)."""
    tokens = row.meta.get("tokens")
    held = tokens.values() if isinstance(tokens, dict) else ()
    return any(same_secret(token, t) for t in held)


async def delete_game(request: Request) -> JSONResponse:
    """Delete a game from the games file (``DELETE /api/games/{game}?token=``): the token of one of its
    seats, as for its status; a wrong token changes nothing. A game whose row cannot be loaded (damaged
    or foreign) is deleted by the token stored with it. An online game in progress is not deleted (its
    room and the other side still count on it): it ends first."""
    games: Games = request.app.state.games
    game_id = request.path_params["game"]
    token = request.query_params.get("token", "")
    if not secret_shaped(token):
        return error_response(Said("refused.unknownGame"), 404)
    session = await games.fetch(game_id)
    if session is not None:
        if seat_of(session, token) is None:
            return error_response(Said("refused.unknownGame"), 404)
        if not isinstance(session, LocalSession) and not session.over:
            return error_response(Said("games.onlineInProgress"), 409)
    else:
        row = await games.store.get_async(game_id) if 0 < len(game_id) <= 64 else None
        if row is None or not _token_opens(row, token):
            return error_response(Said("refused.unknownGame"), 404)
    try:
        if isinstance(session, LocalSession):
            async with session.lock:  # no action or bot move of this game is being stored meanwhile
                session.stop()
                await games.store.delete_async(game_id)
        else:
            await games.store.delete_async(game_id)
    except StoreError as e:
        return error_response(of_error(e), UNAVAILABLE)
    if session is not None:
        games.sessions.pop(game_id, None)
        session.on_idle = None
        for fn in session.listeners():  # a page still on the game: its socket lets go of it
            conn = getattr(fn, "__self__", None)
            if isinstance(conn, Connection) and conn.session is session:
                conn.unbind()
                await conn.fail(Said("games.deleted"))
    log.info("game %s deleted", game_id)
    return JSONResponse({"deleted": game_id})


def _record_name(session: LocalSession) -> str:
    return f"toybattle-{session.state.b.terrain.id}-{session.id}.tbr"


async def export_record(request: Request) -> Response:
    """A finished game's record file, in the project's notation (docs/notation.md), as a download
    (``GET /api/games/{game}/record?token=``). The record holds both armies' tile orders, set-aside tiles
    included, which no seat sees even at the end: so only a finished game is exported, and only one
    against a bot or on one screen, where those tiles are nobody else's (docs/browser.md)."""
    found = await seat_from_query(request)
    if isinstance(found, JSONResponse):
        return found
    session, _ = found
    if not isinstance(session, LocalSession) or session.kind not in EXPORTED_KINDS:
        return error_response(Said("games.exportKinds"), 403)
    if not session.over:
        return error_response(Said("games.exportOver"), 409)
    lines = session.record.text().splitlines()
    s = session.state
    notes = [f"# Toy Battle: {s.b.terrain.name}, {session.kind} game {session.id}"]
    conceded = session.row.meta.get("conceded")
    if conceded in SEATS:
        notes.append(f"# {conceded} conceded after the last action (a record holds no concession)")
    timed_out = session.row.meta.get("out_of_time")
    if timed_out in SEATS:
        notes.append(f"# {timed_out}'s clock ran out after the last action (a record holds no clock)")
    text = "\n".join([lines[0], *notes, *lines[1:]]) + "\n"
    return Response(text, media_type="text/plain; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{_record_name(session)}"'})


def _replayed(text: str) -> tuple[Record, State]:
    """The record in ``text`` with its actions as the app writes them (no seat names, declined base
    effects written out), and the state it ends in; NotationError or IllegalAction says what is wrong."""
    record = parse_record(text)
    end = record.replay()  # every check, every refusal naming its line
    s = record.start.copy()
    actions: list[str] = []
    for written in record.actions:
        _, a = parse_seated(written, s.b)
        while unanswered(s, a):
            actions.append(action_text(A.SKIP, s.b))
            s.apply_unchecked(A.SKIP)
        actions.append(action_text(a, s.b))
        s.apply_unchecked(a)
    return Record(record.start, actions, record.setup_lines), end


async def import_record(request: Request) -> JSONResponse:
    """A game from a record file (``POST /api/games/import``, ``{"record": text}``): replayed through every
    rule, then stored as a game on one screen with both seats' tokens, a finished one to replay or an
    unfinished one to play on. A file that is no record, or does not replay, changes nothing."""
    body = await json_object(request)
    if isinstance(body, JSONResponse):
        return body
    text = body.get("record")
    if set(body) != {"record"} or not isinstance(text, str):
        return error_response(Said("games.importBody"))
    if not 0 < len(text) <= MAX_RECORD:
        return error_response(Said("games.importSize"))
    try:
        record, end = _replayed(text)
    except (ValueError, IllegalAction) as e:
        return JSONResponse(error_body(Said("games.importBad")) | {"detail": str(e)[:300]}, status_code=400)
    start = record.start
    if any(not t & 15 for seat in (0, 1) for zone in (start.rack, start.laid, start.reserve, start.aside)
           for t in zone[seat]):
        return error_response(Said("games.importHidden"),
                              400)
    tokens = {seat: new_token() for seat in SEATS}
    settings = {"kind": "hotseat", "terrain": start.b.terrain.id, "first_game": start.first_game,
                "first": "random", "human": "blue", "level": None}
    row = GameRow(id=secrets.token_hex(6), kind="hotseat", record=record.text(),
                  meta={"tokens": tokens, "settings": settings, "imported": True}, over=end.over,
                  winner=SEATS[end.winner] if end.over and end.winner >= 0 else None, reason=end.reason or None)
    games: Games = request.app.state.games
    try:
        await games.store.put_async(row)
    except StoreError as e:
        return error_response(of_error(e), UNAVAILABLE)
    session = await games.fetch(row.id)
    if session is None:  # cannot happen for a record that replayed; never leave a row nobody can open
        await games.store.delete_async(row.id)
        return error_response(Said("games.importBad"))
    return JSONResponse({"game": row.id, "kind": row.kind, "tokens": tokens, "over": end.over,
                         "terrain": start.b.terrain.id, "ply": end.ply})
