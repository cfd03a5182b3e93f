"""The app's HTTP routes for a game: the page, the reference data (``/api/meta``, terrains), a new game,
its status and replay, and what two devices need: the invitation, joining, releasing the guest's seat,
opening the app to the network, the watch link."""
from __future__ import annotations

import socket
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response

from toybattle.rules import SEATS, TERRAIN_IDS, load_terrain
from toybattle.said import Said, of_error
from toybattle.store import StoreError

from . import bot_levels, words
from .context import AppContext, web_dir
from .guard import lan_address
from .json_api import (
    UNAVAILABLE,
    error_body,
    error_response,
    json_object,
    page_language,
    seat_from_body,
    seat_from_query,
)
from .reference import powers_json, rule_texts, terrain_json, troops_json
from .session import LocalSession, Refused, echo, level_words
from .sockets import Connection


async def index(request: Request) -> Response:
    return FileResponse(web_dir() / "index.html", headers={"Cache-Control": "no-cache"})


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
        "levels": [{"name": lv.name, "label": words.say(level_words(lv.name, "", lv.label), lang),
                    "description": words.say(level_words(lv.name, "Text", lv.description), lang)}
                   for lv in bot_levels.levels()],
        "default_level": bot_levels.default_level(),
        "links": [link | {"label": words.say(link["label"], lang)} for link in ctx.links],
        "features": ctx.features,
    })


def network_json(ctx: AppContext, lang: str) -> dict[str, Any]:
    """The network listener's state for the page, its warning in the page's language."""
    return ctx.network.state() | {"warning": words.say(Said("network.warning"), lang)}


async def terrain(request: Request) -> Response:
    tid = request.path_params["terrain"]
    if tid not in TERRAIN_IDS:
        return error_response(Said("error.unknownTerrain", what=echo(tid)), 404)
    return JSONResponse(terrain_json(load_terrain(tid), page_language(request)))


async def create_game(request: Request) -> JSONResponse:
    body = await json_object(request)
    if isinstance(body, JSONResponse):
        return body
    allowed = {"kind", "terrain", "first_game", "first", "human", "level", "clock"}
    unknown = set(body) - allowed
    if unknown:
        return error_response(Said("error.unknownFields", fields=", ".join(sorted(unknown))))
    if not all(isinstance(v, str) for k, v in body.items() if k not in ("first_game", "clock")) or \
            not isinstance(body.get("first_game", False), bool) or not isinstance(body.get("clock"), dict | None):
        return error_response(Said("error.fieldTypes"))
    if "kind" not in body:
        return error_response(Said("error.kindMissing"))
    ctx: AppContext = request.app.state.ctx
    if body.get("kind") == "lan" and "lan" not in ctx.features:  # the static site: no other device reaches it
        return error_response(Said("error.noLan"), 409)
    try:
        session = await request.app.state.games.create_async(body)
    except Refused as e:
        return error_response(of_error(e))
    except StoreError as e:
        return error_response(of_error(e), UNAVAILABLE)
    host = session.row.meta.get("host")
    tokens = {SEATS[s]: t for s, t in session.tokens.items() if session.kind != "lan" or SEATS[s] == host}
    return JSONResponse({"game": session.id, "kind": session.kind, "tokens": tokens})


async def game_status(request: Request) -> JSONResponse:
    found = await seat_from_query(request)
    if isinstance(found, JSONResponse):
        return found
    session, seat = found
    v = session.view(seat)  # an online room waiting for its peer has no board yet
    result = words.say(v.get("result", ""), page_language(request))
    return JSONResponse({"game": session.id, "kind": session.kind, "terrain": v.get("terrain"),
                         "over": v.get("over", False), "result": result, "turn": v.get("turn"),
                         "ply": v.get("ply", 0), "seat": SEATS[seat], "waiting": bool(v.get("waiting")),
                         "offers": session.offers()})


async def invite(request: Request) -> JSONResponse:
    """The host's join link for the guest's seat: a key that seats the first device to open it
    (never the guest's token). 409 once a device has joined (the host may release the seat)."""
    found = await seat_from_query(request)
    if isinstance(found, JSONResponse):
        return found
    session, seat = found
    if not isinstance(session, LocalSession):
        return error_response(Said("error.hostInvites"), 403)
    try:
        guest = session.guest_seat(seat)
    except Refused as e:
        return error_response(of_error(e), 403)
    ctx: AppContext = request.app.state.ctx
    lang = page_language(request)
    network = network_json(ctx, lang)
    try:
        key = session.invitation(seat)
    except Refused as e:
        return JSONResponse(error_body(of_error(e)) | {"joined": True, "seat": SEATS[guest], "network": network},
                            status_code=409)
    port = request.url.port or (443 if request.url.scheme == "https" else 80)
    if ctx.network.is_open:
        addr, port, reachable = ctx.network.address, ctx.network.port, True
    else:
        addr, reachable = lan_address(ctx.bind_host)
    host = addr or socket.gethostname()
    url = f"http://{host}:{port}/invite/{session.id}/{key}"
    if not reachable:
        note: str = Said("invite.closed")
    elif addr is None:
        note = Said("invite.noAddress", host=host, host2=host)
    else:
        note = ""
    import segno  # here, not at the top: the in-browser site has no invitations and ships no segno
    svg = segno.make(url, error="m").svg_inline(scale=5, dark="#1d2433", light="#ffffff")
    return JSONResponse({"url": url, "seat": SEATS[guest], "reachable": reachable,
                         "note": words.say(note, lang), "qr_svg": svg,
                         "network": network})


async def join(request: Request) -> JSONResponse:
    """A device opening a join link: the first one gets the guest's seat and its token."""
    body = await json_object(request)
    if isinstance(body, JSONResponse):
        return body
    session = await request.app.state.games.fetch(request.path_params["game"])
    key = body.get("key")
    if not isinstance(session, LocalSession) or not isinstance(key, str) or len(key) > 64:
        return error_response(Said("error.badJoin"), 404)
    try:
        seat, token = await session.claim(key)
    except Refused as e:
        return error_response(of_error(e), 409)
    return JSONResponse({"game": session.id, "kind": session.kind, "seat": SEATS[seat], "tokens": {SEATS[seat]: token}})


async def _host_request(request: Request) -> tuple[LocalSession, int, dict[str, Any]] | JSONResponse:
    """The game and host seat of a POST carrying the host's ``token``, and its body."""
    found = await seat_from_body(request)
    if isinstance(found, JSONResponse):
        return found
    session, seat, body = found
    if not isinstance(session, LocalSession):
        return error_response(Said("refused.unknownGame"), 404)
    try:
        session.guest_seat(seat)
    except Refused as e:
        return error_response(of_error(e), 403)
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
        return error_response(of_error(e), 409)
    for fn in session.listeners():
        conn = getattr(fn, "__self__", None)
        if isinstance(conn, Connection) and conn.session is session and conn.seat == guest:
            conn.unbind()
            await conn.fail(Said("error.released"))
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
        return error_response(Said("error.networkBody"))
    if body["open"]:
        if session.over:
            return error_response(Said("refused.over"), 409)
        try:
            await ctx.network.open(request.app, request.url.port or 80, session)
        except OSError as e:
            return error_response(Said("error.network", why=of_error(e)), 409)
    else:
        await ctx.network.close()
    return JSONResponse(network_json(ctx, page_language(request)))


async def watch_link(request: Request) -> JSONResponse:
    """A player's watch link for its game: anyone who opens it sees what both players see, and acts on nothing."""
    found = await seat_from_query(request)
    if isinstance(found, JSONResponse):
        return found
    session, _ = found
    if not isinstance(session, LocalSession):
        return error_response(Said("error.noWatch"), 403)
    try:
        key = await session.watch_key()
    except Refused as e:
        return error_response(of_error(e), UNAVAILABLE)
    return JSONResponse({"url": f"/watch/{session.id}/{key}"})


async def replay(request: Request) -> JSONResponse:
    found = await seat_from_query(request)
    if isinstance(found, JSONResponse):
        return found
    session, seat = found
    lang = page_language(request)
    try:
        return JSONResponse(words.localize(session.replay(seat), lang))
    except Refused as e:
        return error_response(of_error(e), 409)
