"""Bots for Toy Battle: they see only their seat's observation, never the hidden tiles.

The API (small and stable; the app and lessons build on it)::

    from toybattle.bots import LEVELS, DEFAULT_LEVEL, make_bot
    [lv.name for lv in LEVELS]   # ordered weakest to strongest:
                                 # random, greedy, easy, medium, expert
    lv.label, lv.description     # for a menu ("Medium", "Searches about three hundred ...")
    lv.budget_s, lv.simulations  # its time cap per move and simulation count (0: not a search)
    lv.width, lv.depth, lv.explore, lv.prior, lv.scale, lv.judge  # a search level's other parameters
    lv.candidates, lv.samples, lv.reply_width  # the expert's (kind "reply", reply.py)
    FROZEN                       # levels kept unchanged for measuring: expert-1 (expert as first
                                 # released), expert-2 (its second version), expert-fitted (a candidate:
                                 # expert-1 with judge "fitted") and sparring (a beam search over whole
                                 # turns, beam.py)
                                 # (the table is data: data/levels.json)
    bot = make_bot("medium", seed=None)    # UnknownLevel (a ValueError) for a bad name
    a = bot.choose(obs, budget_s=None)     # obs = toybattle.rules.observation(state, seat)
                                           # -> an int from obs.legal_actions()
    a, why = bot.hint(obs)                 # the action this level suggests, and a short reason

``obs`` must be the observation of the seat to move, at one of its decisions (not a chance
node, not a finished game). ``budget_s`` may only shorten the level's own time budget. A bot
built with a seed answers the same observation the same way: a search level is defined by its
simulation count (the expert by its candidates and samples); its time budget is a safety net that
stops it only on a badly loaded machine (``bot.last_info["capped"]`` says when it did). The expert's
search is anytime: given a shorter budget (the static site gives 0.7 s, app/bot_levels.py) it stops at the
deadline with its best so far, every candidate compared on the guesses done.

Also here: ``toybattle arena`` / ``engine`` / ``hint`` (cli.py), the referee and duplicate-deal
statistics (arena.py, stats.py), the engine line protocol (engine.py, docs/engine-protocol.md),
and ``python -m toybattle.bots.bench`` (think times, docs/benchmarks.md).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from .beam import BeamBot
from .players import JUDGES, Bot, GreedyBot, RandomBot, SearchBot
from .reply import ReplyBot

KINDS = ("random", "greedy", "search", "beam", "reply")


@dataclass(frozen=True)
class Level:
    name: str
    label: str
    description: str
    kind: str  # random, greedy, search, beam (the sparring bot: beam.py) or reply (reply.py)
    budget_s: float = 0.0  # the most time it thinks per move (a safety net: search levels stop on simulations)
    simulations: int = 0  # playouts per move for search levels (0: not a search level)
    width: int = 0  # root actions searched (0: all); for beam and reply, the positions kept after each decision
    depth: int = 12  # playout plies before the evaluation judges the position
    explore: float = 0.7  # the tree's exploration constant: lower searches the best lines deeper
    prior: float = 0.0  # weight of the greedy evaluation's progressive bias in the root's selection (0: none)
    scale: float = 20.0  # evaluation points that squash into a win chance of about 73% (> 0)
    judge: str = "heuristic"  # what judges a cut-off playout: heuristic (hand-written), fitted or expert (evaluate.py)
    candidates: int = 0  # reply: first decisions compared (0: not a reply level)
    samples: int = 0  # reply: guesses of the hidden tiles each candidate is played on
    reply_width: int = 0  # reply: positions the beam keeps in the opponent's reply and the next turn


def _level(row: Any) -> Level:
    """A Level from one row of levels.json; ValueError naming the row if it is malformed."""
    if not isinstance(row, dict):
        raise ValueError(f"levels.json: a level must be an object, not {row!r}")
    try:
        lv = Level(**row)
    except TypeError as e:
        raise ValueError(f"levels.json: level {row.get('name')!r}: {e}") from None
    numbers_ok = all(isinstance(getattr(lv, f), (int, float)) and getattr(lv, f) >= 0
                     for f in ("budget_s", "simulations", "width", "depth", "explore", "prior", "scale", "candidates",
                               "samples", "reply_width"))
    numbers_ok = numbers_ok and lv.scale > 0 and all(
        type(getattr(lv, f)) is int for f in ("simulations", "width", "depth", "candidates", "samples", "reply_width"))
    if lv.judge not in JUDGES:
        raise ValueError(f"levels.json: level {lv.name!r}: unknown judge {lv.judge!r} (one of: {', '.join(JUDGES)})")
    work = (lv.candidates, lv.samples, lv.reply_width)  # only a reply level has these, and it needs them all
    reply_ok = min(*work, lv.width) > 0 if lv.kind == "reply" else not any(work)
    if lv.kind not in KINDS or not numbers_ok or not reply_ok or (lv.kind == "search") != (lv.simulations > 0):
        raise ValueError(f"levels.json: level {lv.name!r}: bad kind or numbers")
    return lv


def _load() -> tuple[tuple[Level, ...], tuple[Level, ...], str]:
    data = json.loads(resources.files(__name__).joinpath("data/levels.json").read_text("utf-8"))
    ladder = tuple(_level(r) for r in data["ladder"])
    frozen = tuple(_level(r) for r in data["frozen"])
    names = [lv.name for lv in ladder + frozen]
    if len(set(names)) != len(names) or data["default"] not in names:
        raise ValueError("levels.json: level names must be unique and the default one of them")
    return ladder, frozen, str(data["default"])


# LEVELS is the ladder players choose from; FROZEN levels are kept for measuring (the arena, the engine).
LEVELS, FROZEN, DEFAULT_LEVEL = _load()
_BY_NAME = {lv.name: lv for lv in LEVELS + FROZEN}
LEVEL_NAMES = tuple(_BY_NAME)


class UnknownLevel(ValueError):
    """A bot level name that does not exist."""


def level(name: str) -> Level:
    try:
        return _BY_NAME[name.strip().lower()]
    except KeyError:
        raise UnknownLevel(f"unknown bot level {name!r} (one of: {', '.join(_BY_NAME)})") from None


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot of level ``name`` (see LEVELS and FROZEN); evaluate.WeightsError (a ValueError) if the
    sparring bot's weights file is broken."""
    lv = level(name)
    if lv.kind == "random":
        bot: Bot = RandomBot(seed)
    elif lv.kind == "greedy":
        bot = GreedyBot(seed)
    elif lv.kind == "beam":
        bot = BeamBot(seed, width=lv.width, budget_s=lv.budget_s)
    elif lv.kind == "reply":
        bot = ReplyBot(seed, width=lv.width, reply_width=lv.reply_width, candidates=lv.candidates,
                       samples=lv.samples, budget_s=lv.budget_s)
    else:
        bot = SearchBot(seed, simulations=lv.simulations, budget_s=lv.budget_s, width=lv.width, depth=lv.depth,
                        explore=lv.explore, prior=lv.prior, scale=lv.scale, judge=lv.judge)
    bot.level = lv.name
    return bot


__all__ = ["DEFAULT_LEVEL", "FROZEN", "LEVELS", "LEVEL_NAMES", "Bot", "Level", "UnknownLevel", "level", "make_bot"]
