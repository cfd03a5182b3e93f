"""The websocket protocol (docs/protocol.md): ``Connection``, one browser socket bound to at most one
(game, seat) at a time, and ``websocket_endpoint``, which reads its messages. Every incoming message is
validated, and a bad one gets an ``error`` reply and changes nothing."""
from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from toybattle.bounded import TooDeep
from toybattle.rules import SEATS
from toybattle.rules.observation import SPECTATOR
from toybattle.said import Said, of_error
from toybattle.store import StoreError

from . import words
from .games import Games
from .guard import NOT_SHARED
from .json_api import parse_json
from .lan import GUEST, Network
from .session import LocalSession, Refused, Session, echo, seat_of

log = logging.getLogger("toybattle.app")

MAX_MESSAGE = 4096  # characters; every legal message is far shorter
MsgId = int | str | None  # a message's "id", echoed in its reply


class Connection:
    """One browser socket, bound to at most one (game, seat) at a time."""

    def __init__(self, ws: WebSocket, games: Games, network: Network | None = None):
        self.ws = ws
        self.games = games
        self.network = network  # a socket that came through the network listener: its games only
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
            await self.send(session.view_message(self.seat, self.lang))  # its texts said in the page's language

    async def fail(self, message: str) -> None:
        """An error that answers no message of the page's, in the page's language."""
        await self.send({"type": "error", "id": None, "message": words.say(message, self.lang)})

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
                raise Refused(Said("error.tooLong", n=MAX_MESSAGE))
            try:
                msg = parse_json(raw)
            except TooDeep as e:
                raise Refused(of_error(e)) from None
            except ValueError:
                raise Refused(Said("error.notJson")) from None
            if not isinstance(msg, dict):
                raise Refused(Said("error.noType"))
            msg_id = msg.get("id")
            if not (msg_id is None or (isinstance(msg_id, int) and not isinstance(msg_id, bool)
                    and abs(msg_id) < 2 ** 53) or (isinstance(msg_id, str) and len(msg_id) <= 64)):
                msg_id = None
                raise Refused(Said("error.id"))
            kind = msg.get("type")
            if kind == "ping":
                await self.send({"type": "pong", "id": msg_id})
                return
            if kind == "hello":
                await self.hello(msg, msg_id)
                return
            if kind not in ("act", "undo", "concede", "rematch", "hint", "chat"):
                raise Refused(Said("error.unknownType", what=echo(kind),
                                   types="hello, act, undo, concede, rematch, hint, chat, ping"))
            if self.session is None:
                raise Refused(Said("error.helloFirst"))
            session, seat = self.session, self.seat
            if seat == SPECTATOR:
                raise Refused(Said("error.spectator"))
            if kind == "chat":  # outside the game: no ply, never recorded
                await session.chat(seat, msg.get("text"), msg.get("phrase"))
                await self.send({"type": "ok", "id": msg_id})
                return
            if "ply" in msg and msg["ply"] != session.view(seat)["ply"]:
                raise Refused(Said("refused.movedOn"))
            if kind == "act":
                action = msg.get("action")
                if not isinstance(action, str):
                    raise Refused(Said("error.actNeeds"))
                await session.act(seat, action)
            elif kind == "undo":
                await session.undo(seat)
            elif kind == "concede":
                await session.concede(seat)
            elif kind == "hint":
                hint = await session.hint(seat)
                hint["reason"] = words.say(hint["reason"], self.lang)
                await self.send({"type": "hint", "id": msg_id, **hint})
                return
            else:
                await self.rematch(session, seat, msg_id)
                return
            await self.send({"type": "ok", "id": msg_id})
        except Refused as e:
            await self.send({"type": "error", "id": msg_id, "message": words.say(of_error(e), self.lang)})

    async def hello(self, msg: dict[str, Any], msg_id: MsgId) -> None:
        self.lang = words.language(msg.get("lang"))
        game, token, watch = msg.get("game"), msg.get("token"), msg.get("watch")
        if not isinstance(game, str) or not isinstance(token if watch is None else watch, str):
            raise Refused(Said("error.helloNeeds"))
        if self.network is not None and game not in self.network.games:
            raise Refused(Said("refused.unknownGame"))  # this address serves no other game
        session = await self.games.fetch(game)
        seat: int | None
        if isinstance(watch, str):
            seat = SPECTATOR if isinstance(session, LocalSession) and session.watches(watch) else None
        else:
            seat = seat_of(session, token)
        if session is None or seat is None:
            raise Refused(Said("refused.unknownGame"))
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
        if self.network is not None:  # a device on the network plays the game it was let in for, no other
            raise Refused(NOT_SHARED)
        settings = session.settings()
        if not isinstance(session, LocalSession) or settings is None or not session.over:
            raise Refused(Said("refused.rematchOver"))
        new: Session | None
        if "rematch" in session.row.meta:
            new = await self.games.fetch(session.row.meta["rematch"])
        else:
            try:
                new = await self.games.rematch(session, settings)
            except (Refused, StoreError) as e:
                raise Refused(Said("error.noRematch", why=of_error(e))) from None
            session.row.meta["rematch"] = new.id
            if new.kind == "lan" and "invite" not in session.row.meta:
                new.row.meta.pop("invite", None)  # the guest's device is seated again below, by its socket
                await new.store.put_async(new.row)
            await session.store.put_async(session.row)
        if not isinstance(new, LocalSession):
            raise Refused(Said("error.noRematch", why=Said("error.gameGone")))
        # every seat connected to the old game learns its own new token, and only its own
        await session.changed()
        await self.send({"type": "ok", "id": msg_id})
        for fn in session.listeners():
            conn = getattr(fn, "__self__", None)
            if isinstance(conn, Connection) and conn.seat in new.tokens:
                # a hot-seat page holds both seats; any other page holds only its own
                seats = (0, 1) if new.kind == "hotseat" else (conn.seat,)
                await conn.send({"type": "rematch", "game": new.id, "seat": SEATS[conn.seat],
                                 "tokens": {SEATS[s]: new.tokens[s] for s in seats if s in new.tokens}})


async def websocket_endpoint(ws: WebSocket) -> None:
    await ws.accept()
    conn = Connection(ws, ws.app.state.games, ws.app.state.ctx.network if ws.scope.get(GUEST) else None)
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                await conn.fail(Said("error.textFrames"))
                continue
            try:
                await conn.handle(text)
            except StoreError as e:
                await conn.fail(str(e))
            except (WebSocketDisconnect, asyncio.CancelledError):
                raise
            except Exception as e:  # a bug must not take the socket down, nor show a traceback
                log.exception("websocket message failed")
                await conn.fail(Said("error.internal", what=f"{type(e).__name__}: {e}"))
    except WebSocketDisconnect:
        pass
    finally:
        conn.unbind()
