"""The Learn section of the app: ``PART``, plugged into the app by toybattle.assembly.

    GET  /learn                          the page (web/learn.html)
    GET  /api/lessons                    topics and lessons (id, title, topic, terrain, mode)
    GET  /api/lessons/{id}               one lesson: texts, hints, goal in words, the learner's view
    POST /api/lessons/{id}/play          {"actions": [...], "nonce": "..."} -> verdict, feedback, view
    POST /api/lessons/{id}/continue      {"actions": [...], "nonce": "...", "level": "..."} -> a bot game
    GET  /api/rules                      the rules and the FAQ

The server is stateless about lessons: the browser sends the learner's actions so far
and a nonce; chance (XB-42, tanks) is drawn from a generator keyed by a per-process
secret and that nonce, so the same attempt replays the same way and the browser
cannot predict a blind pick. The learner only ever receives the observation of their
own seat (``toybattle.app.view.seat_view``): Red's rack, the reserves and the tiles set
aside stay hidden, as in a game.
"""
from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from toybattle.app import words
from toybattle.app.bots import levels
from toybattle.app.server import AppContext, Part, json_object, page_language
from toybattle.app.server import error_response as _error
from toybattle.app.session import LocalSession, Refused
from toybattle.app.view import seat_view
from toybattle.rules import SEATS, State, determinize, observation
from toybattle.store import StoreError

from . import goals, rulebook
from .lesson import Lesson, all_lessons, lesson, titles, topics
from .play import Attempt, play

MAX_ACTIONS = 24
LESSON_LEVEL = "greedy"  # a lesson's bot plays on the spot and punishes plain blunders, nothing more
_SECRET = secrets.token_bytes(32)




def _rng(lesson_id: str, nonce: str) -> random.Random:
    digest = hmac.new(_SECRET, f"{lesson_id}\n{nonce}".encode(), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def _view(s: State, me: int, x: Lesson) -> dict[str, Any]:
    return seat_view(observation(s, me), me, game={"id": f"lesson:{x.id}", "kind": "lesson",
                                                    "terrain": s.terrain.id, "first_game": s.first_game})


def lesson_json(x: Lesson, lang: str = words.DEFAULT) -> dict[str, Any]:
    s = x.start()
    me = s.actor
    return x.summary() | {"title": titles(lang)[x.id]} | {
        "source": x.source, "intro": x.intro, "steps": list(x.steps), "question": x.question,
        "hints": list(x.hints), "goal": [goals.describe(c) for c in x.goal], "seat": SEATS[me],
        "terrain": s.terrain.id, "terrain_name": s.terrain.name_fr if lang == "fr" else s.terrain.name,
        "first_game": s.first_game, "view": words.localize(_view(s, me, x), lang),
    }


def attempt_json(x: Lesson, a: Attempt, lang: str = words.DEFAULT) -> dict[str, Any]:
    """The verdict on an attempt; the game's words (the view, the refusal) in ``lang``."""
    return {"status": a.status, "done": a.done, "feedback": a.feedback, "refusal": words.translate(a.refusal, lang),
            "actions": a.actions, "view": words.localize(_view(a.state, a.me, x), lang)}


def _find(request: Request) -> Lesson | None:
    try:
        return lesson(request.path_params["lesson"])
    except KeyError:
        return None


async def _body(request: Request) -> tuple[list[str], str, dict[str, Any]] | JSONResponse:
    """The learner's actions and nonce from a POST body, checked (and the whole body)."""
    body = await json_object(request)
    if isinstance(body, JSONResponse):
        return body
    actions, nonce = body.get("actions", []), body.get("nonce", "")
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS or \
            not all(isinstance(t, str) and 0 < len(t) <= 40 for t in actions):
        return _error(f"'actions' is a list of at most {MAX_ACTIONS} actions such as \"7@18\"")
    if not isinstance(nonce, str) or len(nonce) > 64:
        return _error("'nonce' is a short text")
    return actions, nonce, body


async def page(request: Request) -> Response:
    return FileResponse(request.app.state.ctx.web_dir / "learn.html", headers={"Cache-Control": "no-cache"})


async def list_lessons(request: Request) -> JSONResponse:
    said = titles(page_language(request))
    out = []
    for t in topics():
        rows = []
        for x in t.lessons:
            s = x.start()
            rows.append(x.summary() | {"title": said[x.id], "terrain": s.terrain.id, "first_game": s.first_game})
        out.append({"id": t.id, "title": said[t.id], "lessons": rows})
    return JSONResponse({"topics": out})


async def get_lesson(request: Request) -> JSONResponse:
    x = _find(request)
    if x is None:
        return _error("no such lesson", 404)
    return JSONResponse(lesson_json(x, page_language(request)))


async def play_lesson(request: Request) -> JSONResponse:
    x = _find(request)
    if x is None:
        return _error("no such lesson", 404)
    got = await _body(request)
    if isinstance(got, JSONResponse):
        return got
    actions, nonce, _ = got
    return JSONResponse(attempt_json(x, play(x, actions, _rng(x.id, nonce)), page_language(request)))


async def continue_lesson(request: Request) -> JSONResponse:
    """A new game against a bot, from where the learner's move left the lesson (or from its start)."""
    x = _find(request)
    if x is None:
        return _error("no such lesson", 404)
    got = await _body(request)
    if isinstance(got, JSONResponse):
        return got
    actions, nonce, body = got
    ctx = request.app.state.ctx
    names = [lv.name for lv in levels()]
    level = body.get("level") or LESSON_LEVEL
    if level not in names:
        return _error(f"unknown bot level {str(level)[:40]!r} (one of: {', '.join(names)})")
    attempt = play(x, actions, _rng(x.id, nonce))
    s = attempt.state if attempt.done and not attempt.state.over else x.start()
    try:
        session = start_bot_game(ctx, x, s, attempt.me, level)
    except (StoreError, ValueError) as e:
        return _error(f"the game could not be started: {e}", 500)
    token = session.tokens[attempt.me]
    return JSONResponse({"game": session.id, "token": token, "url": f"/join/{session.id}/{token}"})


def start_bot_game(ctx: AppContext, x: Lesson, s: State, human: int, level: str) -> LocalSession:
    """Store and start a bot game from ``s``, the learner on ``human``, its unknown tiles given real
    faces: stored and run like any app bot game (the bot only ever receives its seat's observation)."""
    full = determinize(s, random.SystemRandom())
    settings = {"kind": "bot", "human": SEATS[human], "level": level}
    return ctx.games.create(settings, start=full, extra={"lesson": x.id})


async def rules(request: Request) -> JSONResponse:
    return JSONResponse(rulebook.as_json(rulebook.load_in(page_language(request))))


def play_again(ctx: AppContext, old: LocalSession) -> LocalSession:
    """The rematch of a game played on from a lesson: the lesson's position again (its unknown
    tiles dealt anew), the learner on the same side, against the same bot."""
    try:
        x = lesson(old.row.meta["lesson"])
        return start_bot_game(ctx, x, x.start(), 1 - old.bot_seat, old.row.meta["bot"]["level"])
    except KeyError:
        raise Refused("the lesson this game came from is no longer here") from None
    except ValueError as e:
        raise Refused(f"the lesson's position cannot be dealt again: {e}") from None


def routes(ctx: AppContext) -> list[Route]:
    """The Learn section's routes (``ctx`` is the app's AppContext). Loading every lesson here means a
    broken lesson file stops the server at start-up with its message, not in front of a learner."""
    all_lessons()
    rulebook.load()
    ctx.games.rematchers["lesson"] = lambda old: play_again(ctx, old)
    return [
        Route("/learn", page),
        Route("/api/lessons", list_lessons),
        Route("/api/lessons/{lesson}", get_lesson),
        Route("/api/lessons/{lesson}/play", play_lesson, methods=["POST"]),
        Route("/api/lessons/{lesson}/continue", continue_lesson, methods=["POST"]),
        Route("/api/rules", rules),
    ]


PART = Part("lessons", routes, links=({"label": "Learn to play", "href": "/learn"},))
