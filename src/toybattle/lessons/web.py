"""The Learn section of the app: ``PART``, plugged into the app by toybattle.assembly.

    GET  /learn                          the app's page (web/index.html), for old links and bookmarks:
                                         it shows the screen at #/learn, #/learn/{id} or #/rules
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
from toybattle.app.bot_levels import levels
from toybattle.app.context import AppContext
from toybattle.app.json_api import UNAVAILABLE, error_response, json_object, page_language
from toybattle.app.server import Part
from toybattle.app.session import LocalSession, Refused
from toybattle.app.view import seat_view
from toybattle.rules import SEATS, State, determinize, observation
from toybattle.said import Said, of_error
from toybattle.store import StoreError

from . import rulebook
from .lesson import Lesson, all_lessons, lesson, topics
from .play import Attempt, play
from .texts import LANGS

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
    """A lesson for the page, ``x`` built in language ``lang`` (its words, the view's words)."""
    s = x.start()
    me = s.actor
    return x.summary() | {
        "source": x.source, "intro": x.intro, "steps": list(x.steps), "question": x.question,
        "hints": list(x.hints), "goal": list(x.goal_words), "seat": SEATS[me],
        "terrain": s.terrain.id, "terrain_name": s.terrain.name_fr if lang == "fr" else s.terrain.name,
        "first_game": s.first_game, "view": words.localize(_view(s, me, x), lang),
    }


def attempt_json(x: Lesson, a: Attempt, lang: str = words.DEFAULT) -> dict[str, Any]:
    """The verdict on an attempt; the game's words (the view, the refusal) in ``lang``."""
    return {"status": a.status, "done": a.done, "feedback": a.feedback, "refusal": words.say(a.refusal, lang),
            "actions": a.actions, "view": words.localize(_view(a.state, a.me, x), lang)}


def _find(request: Request) -> Lesson | None:
    """The lesson the path names, in the page's language."""
    try:
        return lesson(request.path_params["lesson"], page_language(request))
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
        return error_response(Said("error.lessonActions", n=MAX_ACTIONS))
    if not isinstance(nonce, str) or len(nonce) > 64:
        return error_response(Said("error.nonce"))
    return actions, nonce, body


async def page(request: Request) -> Response:
    """The app's one page: Learn is its screens (#/learn, #/learn/{id}, #/rules); an old address
    (/learn, /learn#/rules, /learn#/lesson/{id}) is put right by the page itself (app.js)."""
    return FileResponse(request.app.state.ctx.web_dir / "index.html", headers={"Cache-Control": "no-cache"})


async def list_lessons(request: Request) -> JSONResponse:
    out = []
    for t in topics(page_language(request)):
        rows = []
        for x in t.lessons:
            s = x.start()
            rows.append(x.summary() | {"terrain": s.terrain.id, "first_game": s.first_game})
        out.append({"id": t.id, "title": t.title, "lessons": rows})
    return JSONResponse({"topics": out})


async def get_lesson(request: Request) -> JSONResponse:
    x = _find(request)
    if x is None:
        return error_response(Said("error.noLesson"), 404)
    return JSONResponse(lesson_json(x, page_language(request)))


async def play_lesson(request: Request) -> JSONResponse:
    x = _find(request)
    if x is None:
        return error_response(Said("error.noLesson"), 404)
    got = await _body(request)
    if isinstance(got, JSONResponse):
        return got
    actions, nonce, _ = got
    return JSONResponse(attempt_json(x, play(x, actions, _rng(x.id, nonce)), page_language(request)))


async def continue_lesson(request: Request) -> JSONResponse:
    """A new game against a bot, from where the learner's move left the lesson (or from its start)."""
    x = _find(request)
    if x is None:
        return error_response(Said("error.noLesson"), 404)
    got = await _body(request)
    if isinstance(got, JSONResponse):
        return got
    actions, nonce, body = got
    ctx = request.app.state.ctx
    names = [lv.name for lv in levels()]
    level = body.get("level") or LESSON_LEVEL
    if level not in names:
        return error_response(Said("error.unknownLevelOf", what=repr(str(level)[:40]), levels=", ".join(names)))
    attempt = play(x, actions, _rng(x.id, nonce))
    s = attempt.state if attempt.done and not attempt.state.over else x.start()
    try:
        session = start_bot_game(ctx, x, s, attempt.me, level)
    except (StoreError, ValueError) as e:
        return error_response(Said("error.notStarted", why=of_error(e)), UNAVAILABLE)
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
        raise Refused(Said("error.lessonGone")) from None
    except ValueError as e:
        raise Refused(Said("error.lessonDeal", why=of_error(e))) from None


def routes(ctx: AppContext) -> list[Route]:
    """The Learn section's routes (``ctx`` is the app's AppContext). Loading every lesson here means a
    broken lesson file stops the server at start-up with its message, not in front of a learner."""
    for lang in LANGS:
        all_lessons(lang)
        rulebook.load_in(lang)
    ctx.games.rematchers["lesson"] = lambda old: play_again(ctx, old)
    return [
        Route("/learn", page),
        Route("/api/lessons", list_lessons),
        Route("/api/lessons/{lesson}", get_lesson),
        Route("/api/lessons/{lesson}/play", play_lesson, methods=["POST"]),
        Route("/api/lessons/{lesson}/continue", continue_lesson, methods=["POST"]),
        Route("/api/rules", rules),
    ]


# the home's link to the lesson list: a screen of the app's page (#/learn), so no other page loads
PART = Part("lessons", routes, links=({"label": Said("link.learn"), "href": "/#/learn"},))
