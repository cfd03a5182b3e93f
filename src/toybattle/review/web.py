"""The game review in the app: ``PART``, plugged into the app by toybattle.assembly (docs/review.md).

    POST /api/review/{game}          {"token": T, "effort": "full" | "quick"}: start the review of a finished game
                                     (once); answers the review at once if it is kept with the game, else its progress
    GET  /api/review/{game}?token=T  {"state": "working", "done": n, "total": m}, or {"state": "done", "review": ...}:
                                     Review.to_json() with its words said in the page's language, and for each costly
                                     decision the board of the position and what both actions did, in words
    GET  /api/review/{game}/puzzles?token=T      the puzzles drawn from this seat's review (made once, when the
                                                 review is, and kept with it): {"puzzles": [summary and "n"...]}
    GET  /api/review/{game}/puzzles/{n}?token=T  the n-th (from 1), as /api/puzzles/{id} answers a built-in one
    POST /api/review/{game}/puzzles/{n}/answer   {"token": T, "action": A}: judged as a built-in one is

Who is reviewed comes from the game (``Session.review_game``): against a bot or on one device, both seats from the
record, each from its own observation; on two devices or online, only this seat, from its own observations (the
other side's hidden tiles never reach the analysis). The work is the review's own (``review.game.plan``): one job
per decision, each carrying the deciding seat's observation only, in the app's worker processes (``BotPool.work``;
at most one per worker at a time, so bots of other games still get their turn), or in this process in the browser,
giving the event loop a turn between decisions. The review is kept in the game's row (``meta["review"]``; on two
devices one per seat) and never made twice.

Puzzles from a game (toybattle.review.puzzles): the reviewed seat's decisions whose best action stood out, each
re-weighed from that seat's observation against every legal action, at most ``MOST_PUZZLES`` (the clearest, one per
turn) of ``MOST_TRIED`` candidates; against a bot only the player's seat, on one screen both. Each check is one job
in the worker processes, as the review's decisions are.

``effort``: "full" (the review's own, ``REVIEW_EFFORT``) or "quick" (fewer guesses and candidates: a rougher review,
in about a third of the time). A kept review is answered whatever effort is asked.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from toybattle.app.context import AppContext
from toybattle.app.json_api import error_response, page_language, seat_from_body, seat_from_query
from toybattle.app.pool import BotPool, workers
from toybattle.app.server import Part
from toybattle.app.session import Refused, Session
from toybattle.app.view import log_lines, seat_view
from toybattle.app.words import localize, say
from toybattle.bots.analysis import Effort
from toybattle.rules import (
    SEATS,
    IllegalAction,
    NotationError,
    Record,
    State,
    observation,
    parse_action,
    parse_position,
)
from toybattle.said import Said, of_error

from .game import REVIEW_EFFORT, Decision, Review, explain, plan, steps, weigh
from .puzzles import Puzzle, candidates, puzzle_at
from .puzzles_web import judge, puzzle_json, summary
from .why import stored

log = logging.getLogger("toybattle.app")

KEY = "review"  # where the review is kept in the game's meta
PUZZLES = "puzzles"  # where the puzzles drawn from it are kept
MOST_PUZZLES = 3  # puzzles drawn from one game
MOST_TRIED = 8  # candidates checked for them (each check weighs every legal action)
EFFORTS = {"full": REVIEW_EFFORT, "quick": Effort(samples=4, candidates=3)}
REASONS = {"hq": "review.reason.hq", "medals": "review.reason.medals", "stuck": "review.reason.stuck",
           "conceded": "review.reason.conceded", "time": "review.reason.time"}


@dataclass
class Job:
    """A review being made: its progress, then the review (or why it failed)."""

    total: int = 0
    done: int = 0
    review: dict[str, Any] | None = None
    error: str = ""
    task: asyncio.Task[None] | None = field(default=None, repr=False)


def key_of(session: Session, seat: int) -> str:
    """Where the review ``seat`` asks for is kept: one per game, but one per seat on two devices (each player's
    own, from their own information)."""
    return f"{KEY}_{SEATS[seat]}" if session.kind == "lan" else KEY


def puzzles_key(session: Session, seat: int) -> str:
    """Where the puzzles of the review ``seat`` asks for are kept (as ``key_of``)."""
    return key_of(session, seat).replace(KEY, PUZZLES, 1)


async def make_puzzles(pool: BotPool, session: Session, seat: int, raw: dict[str, Any]) -> list[dict[str, Any]]:
    """Draw the puzzles of ``raw`` (this seat's kept review) in ``pool`` (see the module) and keep them."""
    seats = (0, 1) if session.kind == "hotseat" else (seat,)  # against a bot: the player's decisions only
    found: dict[int, dict[str, Any]] = {}  # turn -> its puzzle
    for turn, index, position in candidates(Review.from_json(raw), seats)[:MOST_TRIED]:
        if turn in found or len(found) >= MOST_PUZZLES:
            continue
        made = await pool.work(puzzle_at, position, f"{session.id}-{index}", f"action {index}")
        if pool.in_process:
            await asyncio.sleep(0)
        if made is not None:
            found[turn] = made
    puzzles = [found[t] for t in sorted(found)]
    await session.keep(puzzles_key(session, seat), puzzles)
    return puzzles


async def run_review(pool: BotPool, session: Session, seat: int, job: Job, key: str, effort: Effort) -> None:
    """Make ``seat``'s review of ``session``'s game in ``pool`` (see the module), telling ``job`` its progress,
    then keep it with the game under ``key``; a failure is ``job.error`` (one line)."""
    try:
        game, end, viewer = session.review_game(seat)
        p = plan(game, viewer=viewer, effort=effort, end=end)
        todo = p.jobs()
        job.total = len(todo)
        decisions: list[Decision | None] = [None] * len(todo)
        room = asyncio.Semaphore(1 if pool.in_process else workers())

        async def one(n: int) -> None:
            async with room:
                decisions[n] = await pool.work(weigh, *todo[n])
                job.done += 1
                if pool.in_process:
                    await asyncio.sleep(0)  # the browser's worker: other requests between decisions

        await asyncio.gather(*(one(n) for n in range(len(todo))))
        weighed = [d for d in decisions if d is not None]
        why: dict[int, tuple[Said, ...]] = {}
        for k, obs, better, played in p.to_explain(weighed):
            why[k] = await pool.work(explain, obs, better, played)
            if pool.in_process:
                await asyncio.sleep(0)
        data = p.finish(weighed, why).to_json()
        await session.keep(key, data)
        job.review = data
    except Refused as e:
        job.error = of_error(e)
    except (ValueError, IllegalAction) as e:
        log.error("game %s: cannot be reviewed: %s", session.id, e)
        job.error = Said("review.refused.cannot")
    except Exception:
        log.exception("game %s: the review failed", session.id)
        job.error = Said("review.refused.failed")


def _words(text: str, seat: int, obs: State, lang: str) -> dict[str, Any] | None:
    """What ``text`` (an action) did from ``obs`` (the seat's observation before it), in words, and the nodes it
    touched; None if it cannot be told (it is told in notation then)."""
    try:
        a = parse_action(text, obs.b)
        after = obs.copy()
        after.apply(a)
        lines = log_lines(obs, a, after, seat)
    except (NotationError, ValueError, IllegalAction, KeyError, IndexError):
        return None
    nodes = [n for line in lines for fx in [line.get("fx") or {}]
             for n in [fx.get("place"), fx.get("remove"), *(fx.get("move") or [])] if n is not None]
    return {"text": [say(line["text"], lang) for line in lines], "nodes": nodes}


def befores(session: Session, seat: int) -> list[State]:
    """The state before each action of the game as ``seat`` may have it reviewed (chance outcomes and skips
    included, as a review counts actions); none if the game cannot tell."""
    try:
        game, _, _ = session.review_game(seat)
        return [s for s, _ in (steps(game)[0] if isinstance(game, Record) else game)]
    except (Refused, ValueError, IllegalAction):
        return []


def for_page(raw: dict[str, Any], lang: str, before: list[State] | None = None) -> dict[str, Any]:
    """A kept review (``Review.to_json``) for the page: its reasons said in ``lang``; what each decision played and
    the better action did, in words, from the deciding seat's observation (``before``: the state before each
    action, see ``befores``; a costly decision's kept position otherwise); each costly decision with the board of
    its position (its seat's view)."""
    review = Review.from_json(raw)  # ValueError if it is not one
    out = dict(raw)
    costly = {k for side in review.costliest for k in side}
    decisions = []
    for k, d in enumerate(raw["decisions"]):
        e = {key: value for key, value in d.items() if key != "position"}
        e["why"] = [say(stored(m), lang) for m in d["why"]]
        seat = SEATS.index(d["seat"])
        obs: State | None = None
        with contextlib.suppress(NotationError, ValueError, KeyError, IndexError):
            if d.get("position"):
                obs = parse_position(d["position"])
            elif before and 0 < d["index"] <= len(before) and before[d["index"] - 1].actor == seat:
                obs = observation(before[d["index"] - 1], seat)
        if obs is not None:
            e["played_words"] = _words(d["action"], seat, obs, lang)
            if d["best"] != d["action"]:
                e["best_words"] = _words(d["best"], seat, obs, lang)
            if k in costly:
                e["board"] = localize(seat_view(obs, seat, game={"terrain": obs.b.terrain.id}), lang)
        decisions.append(e)
    out["decisions"] = decisions
    out["how"] = say(Said(REASONS[review.reason]), lang) if review.reason in REASONS else review.reason
    return out


def routes(ctx: AppContext) -> list[Route]:
    """The review's routes (``ctx``: the app's AppContext)."""
    # (game, key): the reviews being made, or failed (said until asked again); a review made is kept with its game
    jobs: dict[tuple[str, str], Job] = {}
    drawing: dict[tuple[str, str], asyncio.Task[list[dict[str, Any]]]] = {}  # (game, key): puzzles being drawn

    async def puzzles_of(session: Session, seat: int) -> list[dict[str, Any]] | None:
        """This seat's puzzles of the game: kept, or drawn now (once) from its kept review; None if none is kept."""
        key = puzzles_key(session, seat)
        kept = session.kept(key)
        if isinstance(kept, list):
            return kept
        review = session.kept(key_of(session, seat))
        if not isinstance(review, dict):
            return None
        task = drawing.get((session.id, key))
        if task is None or (task.done() and (task.cancelled() or task.exception() is not None)):
            task = drawing[session.id, key] = asyncio.get_running_loop().create_task(
                make_puzzles(ctx.games.pool, session, seat, review))
        made = await asyncio.shield(task)
        if drawing.get((session.id, key)) is task:
            del drawing[session.id, key]  # kept with the game from now on
        return made

    async def review_then_puzzles(session: Session, seat: int, job: Job, key: str, effort: Effort) -> None:
        await run_review(ctx.games.pool, session, seat, job, key, effort)
        if job.review is not None:
            try:
                await puzzles_of(session, seat)
            except Exception:  # the review stands: its puzzles are drawn again when asked for
                log.exception("game %s: no puzzles drawn from its review", session.id)
            if jobs.get((session.id, key)) is job:
                del jobs[session.id, key]  # the review is kept with the game: it is answered from there

    def answer(job: Job | None, kept: Any, lang: str, session: Session, seat: int) -> JSONResponse:
        data = job.review if job is not None and job.review is not None else kept
        if isinstance(data, dict):
            try:
                return JSONResponse({"state": "done", "review": for_page(data, lang, befores(session, seat))})
            except ValueError:  # a kept review this version cannot read
                return error_response(Said("review.refused.cannot"), 409)
        if job is None:
            return error_response(Said("review.refused.notStarted"), 409)
        if job.error:
            return error_response(job.error, 409)
        return JSONResponse({"state": "working", "done": job.done, "total": job.total})

    async def start(request: Request) -> JSONResponse:
        found = await seat_from_body(request)
        if isinstance(found, JSONResponse):
            return found
        session, seat, body = found
        effort = EFFORTS.get(str(body.get("effort", "full")))
        if effort is None:
            return error_response(Said("review.refused.effort", efforts=", ".join(EFFORTS)))
        if not session.over:
            return error_response(Said("review.refused.unfinished"), 409)
        key = key_of(session, seat)
        job = jobs.get((session.id, key))
        kept = session.kept(key)
        if job is not None and job.error and kept is None:  # it failed: asked again, it starts again
            job = None
        if job is None and not isinstance(kept, dict):
            try:
                session.review_game(seat)  # refused at once, not in the job, if it cannot be reviewed
            except Refused as e:
                return error_response(of_error(e), 409)
            job = jobs[session.id, key] = Job()
            job.task = asyncio.get_running_loop().create_task(review_then_puzzles(session, seat, job, key, effort))
        return answer(job, kept, page_language(request), session, seat)

    async def progress(request: Request) -> JSONResponse:
        found = await seat_from_query(request)
        if isinstance(found, JSONResponse):
            return found
        session, seat = found
        key = key_of(session, seat)
        return answer(jobs.get((session.id, key)), session.kept(key), page_language(request), session, seat)

    async def own(session: Session, seat: int) -> list[Puzzle] | JSONResponse:
        try:
            raw = await puzzles_of(session, seat)
            return [Puzzle.from_json(p) for p in raw] if raw is not None else \
                error_response(Said("review.refused.notStarted"), 409)
        except ValueError:  # kept by a version whose puzzles this one cannot read
            return error_response(Said("review.refused.cannot"), 409)
        except Exception:
            log.exception("game %s: no puzzles drawn from its review", session.id)
            return error_response(Said("review.refused.failed"), 409)

    def nth(puzzles: list[Puzzle], request: Request) -> Puzzle | None:
        n = request.path_params["n"]
        return puzzles[int(n) - 1] if n.isdigit() and len(n) < 4 and 0 < int(n) <= len(puzzles) else None

    async def asked(request: Request) -> list[Puzzle] | JSONResponse:
        """The puzzles of the game and seat that the request's ``?token=`` opens, else the error response."""
        found = await seat_from_query(request)
        return found if isinstance(found, JSONResponse) else await own(*found)

    async def puzzle_list(request: Request) -> JSONResponse:
        puzzles = await asked(request)
        if isinstance(puzzles, JSONResponse):
            return puzzles
        lang = page_language(request)
        return JSONResponse({"puzzles": [summary(p, lang) | {"n": k + 1} for k, p in enumerate(puzzles)]})

    async def puzzle(request: Request) -> JSONResponse:
        puzzles = await asked(request)
        if isinstance(puzzles, JSONResponse):
            return puzzles
        p = nth(puzzles, request)
        if p is None:
            return error_response(Said("puzzles.error.unknown"), 404)
        n = puzzles.index(p) + 1
        return JSONResponse(puzzle_json(p, page_language(request), str(n + 1) if n < len(puzzles) else None))

    async def puzzle_answer(request: Request) -> JSONResponse:
        found = await seat_from_body(request)
        if isinstance(found, JSONResponse):
            return found
        session, seat, body = found
        puzzles = await own(session, seat)
        if isinstance(puzzles, JSONResponse):
            return puzzles
        p = nth(puzzles, request)
        if p is None:
            return error_response(Said("puzzles.error.unknown"), 404)
        return judge(p, body, page_language(request))

    return [Route("/api/review/{game}", start, methods=["POST"]),
            Route("/api/review/{game}", progress, methods=["GET"]),
            Route("/api/review/{game}/puzzles", puzzle_list, methods=["GET"]),
            Route("/api/review/{game}/puzzles/{n}", puzzle, methods=["GET"]),
            Route("/api/review/{game}/puzzles/{n}/answer", puzzle_answer, methods=["POST"])]


PART = Part("review", routes)
