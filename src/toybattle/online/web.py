"""Online rooms in the browser app: ``PART``, plugged into the app by toybattle.assembly.

- ``POST /api/online/host`` ``{"terrain", "first_game", "seat", "relay", "clock"?}`` opens a room and answers
  ``{"game", "token", "code"}`` as soon as the code is known (the peer joins later);
- ``POST /api/online/join`` ``{"code", "relay"}`` answers ``{"game", "token"}`` once the game is agreed;
- ``POST /api/online/resume`` ``{"game", "token", "relay", "code"?}`` resumes a stored, unfinished game
  whose connection closed: without a code it reopens the room (answers with the new code, like host),
  with the code the other player was shown it rejoins (answers once both histories agree);
- ``POST /api/online/close`` ``{"game", "token"}`` closes a room that still waits for the other player
  (both players opened one to resume the same game): the game stays saved, to resume with a code;
- ``POST /api/online/claim`` / ``POST /api/online/wait`` ``{"game", "token"}``: the other player stayed
  silent past its limit (the view says ``silent``): claim the game (won by abandonment, the history
  kept), or keep waiting; ``close`` also closes such a room (the game stays saved, to resume);
- ``GET /api/online/{game}?token=T`` (the seat's token) tells how the room stands (code, started, over,
  error, messages, head, playing).

Limits: ``move_limit`` and ``reply_limit`` (seconds) in a host, join or resume body; every view's
``game.deadline`` is ``{"seat", "kind": "move"|"reply", "at": epoch seconds}`` of the wait now, for a countdown.
A host's ``clock`` ``{"base": s, "increment": s}`` (absent or null: none) is a time control both players agree on;
every view of such a game carries ``game.clock``: ``{"base", "increment", "left": {seat: s}, "running": seat|null,
"at": epoch s}`` (both clocks as this side measures them at ``at``; the running one counts down from there).

Stored online games are loaded at start (``Games.loaders["online"]``) with the seat's key kept in the
row, so "Your games" still opens them after a restart: the board as it was, ready to be resumed.

The browser then says ``hello`` with that game and token on the app's websocket, as for any game:
an ``OnlineSession`` serves the same views (``seat_view`` of this peer's observation) and turns the
seat's ``act``/``concede`` into this peer's next message. Errors are one line in ``{"error": ...}``.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import Coroutine
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from toybattle.said import Said, localize, of_error

from ..app.guard import relay_url
from ..app.json_api import error_response, page_language
from ..app.server import Part
from ..app.session import Refused, Session, echo, new_token, same_secret
from ..app.view import log_lines, seat_view
from ..chat import ChatRefused
from ..clocks import clock_refusal
from ..rules import SEATS, TERRAIN_IDS, State, parse_action
from ..rules import actions as A
from . import persist, transport
from .game import OnlineGame, Options, Rooms, SessionError
from .protocol import Match

log = logging.getLogger("toybattle.online")


def _rooms() -> Rooms:
    """The wormhole client over the browser's WebSocket in the static site's worker (Pyodide), over the
    ``websockets`` library elsewhere."""
    from .mailbox.client import Rooms as MailboxRooms
    if sys.platform != "emscripten":
        return MailboxRooms()
    from .mailbox.browser_socket import connect_browser
    return MailboxRooms(connect_browser)


class WebPlayer:
    """This peer's human, playing in the browser through an OnlineSession."""

    def __init__(self) -> None:
        self.waiting: asyncio.Future[int | None] | None = None
        self.applied: asyncio.Future[asyncio.Task[None]] | None = None  # the view push once the action is sent
        self.session: OnlineSession | None = None

    async def choose(self, obs: State, n: int) -> int | None:
        self.waiting = asyncio.get_running_loop().create_future()
        if self.session:
            await self.session.changed()
        try:
            action: int | None = await self.waiting
            return action
        finally:
            self.waiting = None

    def seen(self, match: Match, msg: dict[str, Any]) -> None:
        if self.session:
            self.session.record(msg)
            push = asyncio.get_running_loop().create_task(self.session.changed())
            # the first message agreed after a choice is always this seat's own (OnlineGame sends it at once)
            if self.applied and not self.applied.done():
                self.applied.set_result(push)


class SeatLog:
    """This peer's game log: each agreed action is written once its random event is settled (a
    draw's faces, XB-42's or the tank's pick), from this seat's observations, so the other seat's
    hidden tiles cannot appear in it."""

    def __init__(self) -> None:
        self.lines: list[dict[str, Any]] = []
        self._seen: State | None = None  # this seat's observation after the last agreed message
        self._due: tuple[State, int, State] | None = None  # an action whose random event is still due

    def record(self, m: Match, msg: dict[str, Any]) -> None:
        try:
            self._write(m, msg)
        except Exception:  # a log line is never worth stopping the game (or its loading) for
            log.exception("could not write the game log")

    def _write(self, m: Match, msg: dict[str, Any]) -> None:
        if m.public is None:
            return
        before, now = self._seen, m.observation()
        self._seen = now
        if before is None:
            return
        if msg.get("t") == "act":
            action = parse_action(msg["a"], now.b)
            if m.pending:
                self._due = (before, action, now)
            else:
                self.lines += log_lines(before, action, now, m.me)
        elif msg.get("t") == "rand" and self._due:
            start, action, mid = self._due
            self._due = None
            if mid.is_chance:  # the pick happened with this message
                self.lines += log_lines(start, action, mid, m.me) + log_lines(mid, A.PICK, now, m.me)
            else:
                self.lines += log_lines(start, action, now, m.me)


class OnlineSession(Session):
    """One online game as the app's server sees it: one seat (this peer's), one token."""

    kind = "online"

    def __init__(self, game: OnlineGame, player: WebPlayer, code: str = ""):
        super().__init__()
        self.game = game
        self.player = player
        player.session = self
        self.code = code
        self.token = new_token()
        self.error = ""
        self.task: asyncio.Task[None] | None = None
        self.journal = SeatLog()
        self.silent: str | None = None  # the other player's limit ran out: "move" or "reply"
        self._choice: asyncio.Future[str] | None = None
        self._pushes: set[asyncio.Task[None]] = set()
        game.on_silence = self._ask
        game.on_wait = self.push
        game.on_presence = self.push
        game.on_chat = self._chat_in

    @property
    def id(self) -> str:  # type: ignore[override]
        """The game's local id: where this app stores it (the id agreed on the wire is not used here)."""
        return self.game.local_id or ""

    @property
    def match(self) -> Match:
        return self.game.m

    def push(self) -> None:
        """Send every page of this game its view again, soon (a wait began, presence changed, a move)."""
        task = asyncio.get_running_loop().create_task(self.changed())
        self._pushes.add(task)
        task.add_done_callback(self._pushes.discard)

    async def _ask(self, due: str, limit: float) -> str:
        """The other player's limit ran out: the player claims, waits or closes (see routes)."""
        self.silent = due
        self._choice = asyncio.get_running_loop().create_future()
        await self.changed()
        try:
            return await self._choice
        finally:
            self.silent, self._choice = None, None

    @property
    def chatty(self) -> bool:
        return True

    async def chat(self, seat: int, text: object = None, phrase: object = None) -> None:
        if self.game.link is None or not self.game.playing:
            raise Refused(Said("chat.away"))
        await super().chat(seat, text, phrase)

    async def send_chat(self, entry: dict[str, Any]) -> None:
        try:
            self.game.chat({k: v for k, v in entry.items() if k in ("text", "phrase")})
        except SessionError as e:
            raise Refused(of_error(e)) from None

    def _chat_in(self, line: dict[str, str]) -> None:
        seat = 1 - self.match.me
        try:
            self.chat_log.add(SEATS[seat], line, seat)
        except ChatRefused:
            return
        task = asyncio.get_running_loop().create_task(self.heard())
        self._pushes.add(task)
        task.add_done_callback(self._pushes.discard)

    def choose_on_silence(self, choice: str) -> None:
        if self._choice is None or self._choice.done():
            raise Refused(Said("error.notPastLimit"))
        self._choice.set_result(choice)

    def seat_of(self, token: object) -> int | None:
        if same_secret(token, self.token):  # the one comparison of a secret (any text: a wrong token)
            return self.match.me
        return None

    def view(self, seat: int) -> dict[str, Any]:
        m = self.match
        d = self.game.deadline
        facts = {"id": self.id, "kind": "online", "code": self.code, "error": self.error,
                 "forfeit": m.forfeit and Said("online.forfeitsLine", seat=SEATS[m.forfeit.seat], why=m.forfeit.reason),
                 "deadline": d and {"seat": SEATS[d[0]], "kind": d[1], "at": round(d[2], 1)},
                 "silent": self.silent, "presence": self.game.presence() if self.game.playing else None,
                 "clock": None if m.finished else self.game.clocks()}
        res = m.result()
        if m.public is None:  # no board yet: the room waits for the other player, or ended before the deal
            v: dict[str, Any] = {"game": facts, "seat": SEATS[seat], "waiting": not m.finished}
        else:
            v = seat_view(m.observation(), seat, log=self.journal.lines[-300:], game=facts)
        if res["reason"] in ("forfeit", "abandonment"):  # both players read the same sentence
            winner = SEATS[res["winner"]]
            loser, why = (m.forfeit.seat, m.forfeit.reason) if m.forfeit else m.abandoned or (1 - res["winner"], "")
            said = Said("online.forfeits" if m.forfeit else "online.abandoned", seat=SEATS[loser], why=why)
            v.update(over=True, winner=winner, reason=res["reason"], legal=None, can_undo=False, actor=None,
                     result=Said("end.wins", seat=winner.capitalize(), how=said), prompt=said)
        elif self.silent:
            v.update(legal=None, can_undo=False, prompt=Said("online.pastLimit", seat=SEATS[1 - m.me].capitalize()))
        elif self.resuming:  # the room is reopened: the board stays as it was until the other player is back
            v.update(legal=None, can_undo=False, waiting_peer=True,
                     prompt=Said("online.resumeCode", code=self.code) if self.code else Said("online.rejoining"))
        elif self.error:  # the game stopped here (it is saved): say why where the prompt stands
            v.update(legal=None, can_undo=False, prompt=self.error)
        elif v.get("legal") and (self.player.waiting is None or self.player.waiting.done()):
            # this seat's turn, but the game is still storing or sending the last message: nothing
            # offered would be taken yet; the view that follows asks
            v.update(legal=None, can_undo=False)
        return v

    def record(self, msg: dict[str, Any]) -> None:
        self.journal.record(self.match, msg)

    async def act(self, seat: int, action: str) -> None:
        obs = self._my_decision()
        try:
            a = parse_action(action, obs.b)
        except ValueError as e:
            raise Refused(of_error(e)) from None
        why = obs.refusal(a)
        if why:
            raise Refused(why)
        await self._apply(a)

    async def concede(self, seat: int) -> None:
        self._my_decision()
        await self._apply(None)

    async def _apply(self, action: int | None) -> None:
        """Hand the choice to the game and return only once its message is stored and sent and the
        view of it pushed: the server's ``ok`` follows the view of the change, as for any game."""
        waiting, task = self.player.waiting, self.task
        if waiting is None or task is None:
            raise Refused(Said("error.notYourMove"))
        applied = self.player.applied = asyncio.get_running_loop().create_future()
        waiting.set_result(action)
        await asyncio.wait([applied, task], return_when=asyncio.FIRST_COMPLETED)
        if not applied.done():  # the game stopped before the message went out; the prompt says why
            raise Refused(self.error or Said("error.onlineStopped"))
        await applied.result()

    def review_game(self, seat: int) -> tuple[list[tuple[State, int]], State, int]:
        """This peer's side only: its history replayed through every check, each action with this seat's
        observation before it (the other side's hidden tiles are unknown there, as they were in play)."""
        m = self.match
        if not self.over or m.public is None:
            raise Refused(Said("review.refused.unfinished"))
        fresh = Match(m.setup, m.me, m.secrets)
        todo: list[tuple[State, int]] = []
        for text in m.log:
            before = fresh.observation() if fresh.public is not None else None
            msg = fresh.accept(text, fresh.expected()[0])
            if msg.get("t") == "act" and before is not None:
                todo.append((before, parse_action(msg["a"], before.b)))
        if not todo:
            raise Refused(Said("review.refused.cannot"))
        return todo, fresh.observation(), m.me

    def kept(self, key: str) -> Any:
        return self.game.extra.get(key)

    async def keep(self, key: str, value: Any) -> None:
        game = self.game
        game.extra[key] = value
        if game.local_id:
            await persist.save(game.store, game.m, game.local_id, game.relay, game.extra, game.room)

    def _my_decision(self) -> State:
        if self.player.waiting is None or self.player.waiting.done():
            raise Refused(Said("error.notYourMoveWhy"))
        return self.match.observation()

    @property
    def over(self) -> bool:
        return self.game.match is not None and self.game.match.finished

    @property
    def idle(self) -> bool:
        """Over, no socket watching and its game task done: the store holds all of it, and ``stored``
        loads it again if a page asks (so finished online games leave memory, as local ones do)."""
        return self.over and not self._listeners and not self.connected

    @property
    def connected(self) -> bool:
        return self.task is not None and not self.task.done()

    @property
    def resuming(self) -> bool:
        return self.connected and not self.game.playing

    def offers(self) -> dict[str, Any]:
        silent = bool(self.silent)
        resumable = not self.over or self.match.abandoned is not None  # a claim can be undone by agreement
        # the other player away: this side may give the room up (the game stays saved) and resume later
        away = self.connected and self.game.peer_away()
        return {"rematch": False, "replay": False, "resume": resumable and not self.connected,
                "claim": silent, "wait": silent, "close": silent or self.resuming or away}

    def run(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[None]:
        async def guarded() -> None:
            try:
                await coro
            except SessionError as e:
                self.error = of_error(e)
            except Exception as e:  # the app must stay up whatever happens to one room
                log.exception("online game failed")
                self.error = Said("error.onlineStoppedWhy", why=of_error(e))
            await self.changed()
        self.task = asyncio.get_running_loop().create_task(guarded())
        self.task.add_done_callback(lambda _: self.release_if_idle())  # its last message may end the game
        return self.task


def _limit(body: dict[str, Any], key: str, default: float) -> float:
    value = body.get(key, default)
    if not isinstance(value, int | float) or isinstance(value, bool) or not 1 <= value <= 7 * 86400:
        raise Refused(Said("error.seconds", limit=key))
    return float(value)


def _options(ctx: Any, body: dict[str, Any]) -> Options:
    try:  # checked before anything is dialled (the app's guard lets only the player's own page ask)
        relay = relay_url(body.get("relay") or transport.default_relay())
    except ValueError as e:
        raise Refused(of_error(e)) from None
    terrain = body.get("terrain") or "castle"
    if terrain not in TERRAIN_IDS:
        raise Refused(Said("error.unknownTerrain", what=echo(terrain)))
    seat = body.get("seat") or "blue"
    if seat not in SEATS:
        raise Refused(Said("error.seat"))
    return Options(relay=relay, db=str(ctx.store.path), terrain=terrain, first_game=bool(body.get("first_game")),
                   seat=SEATS.index(seat), move_limit=_limit(body, "move_limit", Options.move_limit),
                   reply_limit=_limit(body, "reply_limit", Options.reply_limit), clock=_clock(body.get("clock")))


def _clock(value: object) -> tuple[int, int] | None:
    """A host body's ``clock``: absent or null (no time control), or ``{"base": s, "increment": s}``."""
    if value is None:
        return None
    if not (isinstance(value, dict) and set(value) == {"base", "increment"}):
        refusal = clock_refusal(None, None)
    else:
        refusal = clock_refusal(value["base"], value["increment"])
    if refusal:
        raise Refused(refusal)
    assert isinstance(value, dict)
    return value["base"], value["increment"]


async def _body(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise Refused(Said("error.jsonObject"))
    return body


def stored(ctx: Any, row: Any) -> OnlineSession:
    """A stored online game as it was when its connection closed. An unfinished one with a room goes back
    into that room by itself, with no code (after a restart of the app, or a reload of the site); otherwise
    it is shown, not connected (see resume)."""
    token = (row.meta.get("app") or {}).get("token")
    if not isinstance(token, str):
        raise ValueError(Said("error.notInApp"))
    journal = SeatLog()  # the log is rebuilt as the history replays
    match, relay, local = persist.replay(row, finished=True, seen=journal.record)  # the row read off the loop
    player = WebPlayer()
    game = OnlineGame(Options(relay=relay, db=str(ctx.store.path), resume=local), player, log.info, store=ctx.store,
                rooms=_rooms())
    game.match, game.local_id, game.extra = match, local, {"app": {"token": token}}
    if isinstance(row.meta.get("review"), dict):  # this side's review, kept with the game (toybattle.review.web)
        game.extra["review"] = row.meta["review"]
    game.room = persist.room(row)
    session = OnlineSession(game, player)
    session.token = token
    session.journal = journal
    if match.finished:
        return session
    session.error = Said("error.connectionClosed")
    if game.room is not None:
        with contextlib.suppress(RuntimeError):  # no loop running (a script): shown, not connected
            asyncio.get_running_loop()
            session.error = ""
            game.on_play = session.push  # the board leaves "rejoining", whoever moves next
            session.run(game.rejoin())
    return session


def routes(ctx: Any) -> list[Route]:
    ctx.games.loaders[persist.KIND] = lambda row: stored(ctx, row)

    async def host(request: Request) -> JSONResponse:
        try:
            opts = _options(ctx, await _body(request))
        except Refused as e:
            return error_response(of_error(e))
        player = WebPlayer()
        game = OnlineGame(opts, player, log.info, store=ctx.store, rooms=_rooms())
        session = OnlineSession(game, player)
        game.extra = {"app": {"token": session.token}}
        ready = asyncio.get_running_loop().create_future()

        def on_code(code: str) -> None:
            session.code = code
            ctx.games.add(session)
            ready.set_result(None)

        task = session.run(game.host(on_code))
        await asyncio.wait([ready, task], return_when=asyncio.FIRST_COMPLETED)
        if not ready.done():
            return error_response(session.error)
        return JSONResponse({"game": session.id, "token": session.token, "code": session.code,
                             "seat": SEATS[session.match.me]})

    async def join(request: Request) -> JSONResponse:
        try:
            body = await _body(request)
            opts = _options(ctx, body)
        except Refused as e:
            return error_response(of_error(e))
        code = body.get("code")
        if not isinstance(code, str):
            return error_response(Said("error.roomCode"))
        if not transport.CODE_RE.fullmatch(code.strip().lower()):
            return error_response(Said("error.notRoomCode", code=repr(code.strip().lower()[:40])))
        player = WebPlayer()
        game = OnlineGame(opts, player, log.info, store=ctx.store, rooms=_rooms())
        session = OnlineSession(game, player, code.strip().lower())
        game.extra = {"app": {"token": session.token}}
        task = session.run(game.join(code))
        while game.match is None and not task.done():
            await asyncio.sleep(0.02)
        if game.match is None:
            return error_response(session.error or Said("error.roomClosed"))
        ctx.games.add(session)
        return JSONResponse({"game": session.id, "token": session.token, "seat": SEATS[session.match.me]})

    async def resume(request: Request) -> JSONResponse:
        try:
            body = await _body(request)
            old = await ctx.games.fetch(body.get("game"))
            if not isinstance(old, OnlineSession) or old.seat_of(body.get("token")) is None:
                raise Refused(Said("error.noOnlineGame"))
            if old.over and old.match.abandoned is None:  # a claimed game may be resumed, if both agree
                raise Refused(Said("error.alreadyOver", what=old.id))
            if old.connected:
                raise Refused(Said("error.stillConnected", what=old.id))
            code = body.get("code")
            if code is not None and (not isinstance(code, str) or not code.strip()):
                raise Refused(Said("error.roomCodeFriend"))
            opts = _options(ctx, body)
            if not body.get("relay"):
                opts.relay = ""  # the mailbox it was stored with
        except Refused as e:
            return error_response(of_error(e))
        opts.resume = old.id
        player = WebPlayer()
        game = OnlineGame(opts, player, log.info, store=ctx.store, rooms=_rooms())
        try:
            await game.load()  # the stored history, replayed through every check (nothing is written)
        except SessionError as e:
            return error_response(of_error(e))
        game.extra = {"app": {"token": old.token}}
        session = OnlineSession(game, player, code.strip().lower() if code else "")
        session.token = old.token
        session.journal = old.journal  # the same history, replayed: the log goes on from it
        loop = asyncio.get_running_loop()
        ready, playing = loop.create_future(), loop.create_future()

        def on_code(new: str) -> None:
            session.code = new
            ctx.games.add(session)
            ready.set_result(None)

        def on_play() -> None:
            playing.set_result(None)
            session.push()  # the board leaves "waiting", whoever moves next

        game.on_play = on_play
        task = session.run(game.host(on_code) if code is None else game.join(code))
        await asyncio.wait([ready if code is None else playing, task], return_when=asyncio.FIRST_COMPLETED)
        if (code is None and not ready.done()) or (code is not None and not playing.done()):
            return error_response(session.error or Said("error.roomClosed"))
        ctx.games.add(session)
        return JSONResponse({"game": session.id, "token": session.token, "code": session.code,
                             "seat": SEATS[session.match.me]})

    async def mine(request: Request) -> OnlineSession:
        body = await _body(request)
        s = await ctx.games.fetch(body.get("game"))
        if not isinstance(s, OnlineSession) or s.seat_of(body.get("token")) is None:
            raise Refused(Said("error.noOnlineGame"))
        return s

    async def close(request: Request) -> JSONResponse:
        """Close a room still waiting for the other player (say both opened one to resume the same
        game), whose other player is away, or past its limit: the game stays saved, to resume with a code."""
        try:
            s = await mine(request)
            if not s.offers()["close"]:
                raise Refused(Said("error.noRoom", what=s.id))
        except Refused as e:
            return error_response(of_error(e))
        task = s.task
        if s.silent:
            s.choose_on_silence("close")
        elif task:
            task.cancel()
        if task:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        s.code = ""
        s.error = Said("error.youClosed")
        await s.changed()
        return JSONResponse({"game": s.id, "closed": True})

    def silence(choice: str) -> Any:
        async def answer(request: Request) -> JSONResponse:
            """The other player is past its limit: claim the game, or keep waiting."""
            try:
                s = await mine(request)
                s.choose_on_silence(choice)
            except Refused as e:
                return error_response(of_error(e))
            if choice == "claim" and s.task:
                await s.task
            return JSONResponse(localize({"game": s.id, choice: True, "result": s.match.result() if s.over else None},
                                         page_language(request)))
        return answer

    async def status(request: Request) -> JSONResponse:
        s = await ctx.games.fetch(request.path_params["game"])  # a finished game left memory: from the file
        if not isinstance(s, OnlineSession) or s.seat_of(request.query_params.get("token", "")) is None:
            return error_response(Said("error.noOnlineGame"), 404)
        d = s.game.deadline
        return JSONResponse(localize({"game": s.id, "code": s.code, "started": s.match.public is not None,
                             "over": s.over, "error": s.error, "result": s.match.result() if s.over else None,
                             "messages": len(s.match.log), "head": s.match.head, "playing": s.game.playing,
                             "silent": s.silent, "deadline": d and {"seat": SEATS[d[0]], "kind": d[1], "at": d[2]},
                             "clock": None if s.over else s.game.clocks()},
                                     page_language(request)))

    return [Route("/api/online/host", host, methods=["POST"]), Route("/api/online/join", join, methods=["POST"]),
            Route("/api/online/resume", resume, methods=["POST"]), Route("/api/online/close", close, methods=["POST"]),
            Route("/api/online/claim", silence("claim"), methods=["POST"]),
            Route("/api/online/wait", silence("wait"), methods=["POST"]),
            Route("/api/online/{game}", status)]


PART = Part("online", routes)
