"""Puzzles in the app: ``PART``, plugged into the app by toybattle.assembly (issue 28).

    GET  /api/puzzles                  the built-in puzzles (id, terrain, its name, difficulty, seat)
    GET  /api/puzzles/{id}             one puzzle: the solver's view (the game screen's shape, with its legal
                                       actions and board taps), the prompt and the hint; never the answer
    POST /api/puzzles/{id}/answer      {"action": "<action text>"} -> correct, the answer, the explanation, the
                                       action played, the view after the answer

The server is stateless and judges every answer: the page holds no rule. A puzzle's position is the solver's
observation already (toybattle.review.puzzles), and the view is built from it by ``toybattle.app.view.seat_view``,
so the page can be shown no tile the solver may not know. A malformed or illegal action is refused in one line
(``{"error": ...}``, said in the page's language) and changes nothing; every text is said in the page's language.
"""
from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from toybattle.app import words
from toybattle.app.context import AppContext
from toybattle.app.json_api import error_response, json_object, page_language
from toybattle.app.server import Part
from toybattle.app.view import seat_view
from toybattle.rules import SEATS, State, parse_action
from toybattle.rules import actions as A
from toybattle.rules.state import JUMBO_TARGET
from toybattle.rules.troops import JUMBO
from toybattle.said import Said, of_error

from .puzzles import Puzzle, builtin_puzzles

MAX_ACTION = 40  # characters of an action's text: the longest is a dozen


def _find(request: Request) -> Puzzle | None:
    """The built-in puzzle the path names."""
    wanted = request.path_params["puzzle"]
    return next((p for p in builtin_puzzles() if p.id == wanted), None)


def _terrain_name(s: State, lang: str) -> str:
    return s.b.terrain.name_fr if lang == "fr" else s.b.terrain.name


def _view(p: Puzzle, s: State, lang: str) -> dict[str, Any]:
    """The solver's view of ``s`` (an observation of the solver's seat), said in ``lang``."""
    view = seat_view(s, p.seat, game={"id": f"puzzle:{p.id}", "kind": "puzzle", "terrain": p.terrain,
                                      "first_game": s.first_game})
    return dict(words.localize(view, lang))


def _where(s: State, i: int) -> Said:
    node = s.b.terrain.nodes[i]
    return Said("where.hq", seat=SEATS[node.side]) if node.side is not None else Said("where.base", n=node.id)


def _best_words(s: State, action: int) -> Said:
    """The best action in the game's words."""
    if A.JUMBO <= action < A.JUMBO_END:
        return Said("puzzles.best.jumbo", troop=JUMBO, where=_where(s, action - A.JUMBO))
    return Said("puzzles.best.place", troop=(action - A.PLACE) >> 5, where=_where(s, action & 31))


def _next(p: Puzzle) -> str | None:
    ids = [x.id for x in builtin_puzzles()]
    k = ids.index(p.id) + 1
    return ids[k] if k < len(ids) else None


def summary(p: Puzzle, lang: str = words.DEFAULT) -> dict[str, Any]:
    """A puzzle in the list: what it is about, nothing of its position or answer."""
    s = p.state()
    return {"id": p.id, "terrain": p.terrain, "terrain_name": _terrain_name(s, lang), "difficulty": p.difficulty,
            "seat": SEATS[p.seat]}


def puzzle_json(p: Puzzle, lang: str = words.DEFAULT, next_id: str | None = "") -> dict[str, Any]:
    """A puzzle for the page to draw and be tapped, in ``lang``: the solver's view, the prompt and the hint; no
    answer and no explanation. ``next_id``: the puzzle after it ("": the built-in set's next)."""
    s = p.state()
    seat = SEATS[p.seat].capitalize()
    prompt = Said("puzzles.prompt.jumbo", seat=seat, troop=JUMBO) if s.decision == JUMBO_TARGET \
        else Said("puzzles.prompt.place", seat=seat)
    return summary(p, lang) | {
        "first_game": s.first_game, "prompt": words.say(prompt, lang), "hint": [words.say(m, lang) for m in p.hint],
        "next": _next(p) if next_id == "" else next_id, "view": _view(p, s, lang),
    }


def answer_json(p: Puzzle, action: int, lang: str = words.DEFAULT) -> dict[str, Any]:
    """The verdict on ``action`` (legal in the puzzle's position): right or not, the answer, why it is best, and the
    view once the answer is played (shown, not to be tapped)."""
    s = p.state()
    best = parse_action(p.answer, s.b)
    after = s.copy()
    after.apply(best)
    view = _view(p, after, lang) | {"legal": None}
    node = best - A.JUMBO if A.JUMBO <= best < A.JUMBO_END else best & 31
    return {"correct": action == best, "played": A.to_text(action, s.b), "answer": p.answer,
            "answer_node": s.b.ids[node], "answer_words": words.say(_best_words(s, best), lang),
            "explanation": [words.say(m, lang) for m in p.why], "view": view}


async def list_puzzles(request: Request) -> JSONResponse:
    lang = page_language(request)
    return JSONResponse({"puzzles": [summary(p, lang) for p in builtin_puzzles()]})


async def get_puzzle(request: Request) -> JSONResponse:
    p = _find(request)
    if p is None:
        return error_response(Said("puzzles.error.unknown"), 404)
    return JSONResponse(puzzle_json(p, page_language(request)))


async def answer(request: Request) -> JSONResponse:
    p = _find(request)
    if p is None:
        return error_response(Said("puzzles.error.unknown"), 404)
    body = await json_object(request)
    if isinstance(body, JSONResponse):
        return body
    return judge(p, body, page_language(request))


def judge(p: Puzzle, body: dict[str, Any], lang: str) -> JSONResponse:
    """The verdict on the answer ``body`` names (``{"action": text}``), or its refusal in one line."""
    text = body.get("action")
    if not isinstance(text, str) or not 0 < len(text) <= MAX_ACTION:
        return error_response(Said("puzzles.error.action", n=MAX_ACTION))
    s = p.state()
    try:
        action = parse_action(text, s.b)
    except ValueError as e:
        return error_response(of_error(e))
    if action not in s.legal_actions():
        return error_response(Said("puzzles.error.illegal", action=text.strip(), why=s.refusal(action)))
    return JSONResponse(answer_json(p, action, lang))


def routes(ctx: AppContext) -> list[Route]:
    """The puzzles' routes (``ctx`` is the app's AppContext). Reading every puzzle here means a broken puzzle file
    stops the server at start-up with its message, not in front of a solver."""
    for p in builtin_puzzles():
        p.state()
    return [
        Route("/api/puzzles", list_puzzles),
        Route("/api/puzzles/{puzzle}", get_puzzle),
        Route("/api/puzzles/{puzzle}/answer", answer, methods=["POST"]),
    ]


# the home's link to the puzzles: a screen of the app's page (#/puzzles), so no other page loads
PART = Part("puzzles", routes, links=({"label": Said("link.puzzles"), "href": "/#/puzzles", "id": "btn-puzzles"},))
