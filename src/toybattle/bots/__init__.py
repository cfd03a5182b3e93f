"""Bots for Toy Battle: they see only their seat's observation, never the hidden tiles.

The API (small and stable; the app and lessons build on it)::

    from toybattle.bots import LEVELS, DEFAULT_LEVEL, make_bot
    [lv.name for lv in LEVELS]   # ordered weakest to strongest:
                                 # random, greedy, easy, medium, expert
    lv.label, lv.description     # for a menu ("Medium", "Searches about three hundred ...")
    lv.budget_s, lv.simulations  # its time cap per move and simulation count (0: not a search)
    bot = make_bot("medium", seed=None)    # UnknownLevel (a ValueError) for a bad name
    a = bot.choose(obs, budget_s=None)     # obs = toybattle.rules.observation(state, seat)
                                           # -> an int from obs.legal_actions()
    a, why = bot.hint(obs)                 # the action this level suggests, and a short reason

``obs`` must be the observation of the seat to move, at one of its decisions (not a chance
node, not a finished game). ``budget_s`` may only shorten the level's own time budget. A bot
built with a seed answers the same observation the same way (search levels stop on their
simulation count unless their time budget runs out first).

Also here: ``toybattle arena`` / ``engine`` / ``hint`` (cli.py), the referee and duplicate-deal
statistics (arena.py, stats.py), the engine line protocol (engine.py, docs/engine-protocol.md),
and ``python -m toybattle.bots.bench`` (think times, docs/benchmarks.md).
"""
from __future__ import annotations

from dataclasses import dataclass

from .players import Bot, GreedyBot, RandomBot, SearchBot


@dataclass(frozen=True)
class Level:
    name: str
    label: str
    description: str
    budget_s: float  # the most time it thinks per move
    simulations: int = 0  # playouts per move for search levels (0: not a search level)
    width: int = 0  # root actions searched (0: all)
    depth: int = 12  # playout plies before the evaluation judges the position
    explore: float = 0.7  # the tree's exploration constant: lower searches the best lines deeper


LEVELS: tuple[Level, ...] = (
    Level("random", "Random", "Plays any legal action at random: for learning the moves.", 0.0),
    Level("greedy", "Greedy", "Takes the best-looking immediate gain (a win, medals, a capture, a step "
          "toward your H.Q.); never looks further ahead.", 0.0),
    Level("easy", "Easy", "A light search: about sixty simulated games per move.", 0.5, 60, 6),
    Level("medium", "Medium", "Searches about three hundred simulated games per move (well under a "
          "second).", 0.9, 300, 10),
    Level("expert", "Expert", "The strongest: searches about a thousand simulated games per move, over "
          "the fourteen actions that look best (under 2 seconds).", 1.8, 1000, 14),
)
DEFAULT_LEVEL = "medium"
_BY_NAME = {lv.name: lv for lv in LEVELS}


class UnknownLevel(ValueError):
    """A bot level name that does not exist."""


def level(name: str) -> Level:
    try:
        return _BY_NAME[name.strip().lower()]
    except KeyError:
        raise UnknownLevel(f"unknown bot level {name!r} (one of: {', '.join(_BY_NAME)})") from None


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot of level ``name`` (see LEVELS)."""
    lv = level(name)
    if lv.name == "random":
        bot: Bot = RandomBot(seed)
    elif lv.name == "greedy":
        bot = GreedyBot(seed)
    else:
        bot = SearchBot(seed, simulations=lv.simulations, budget_s=lv.budget_s, width=lv.width, depth=lv.depth,
                        explore=lv.explore)
    bot.level = lv.name
    return bot


__all__ = ["DEFAULT_LEVEL", "LEVELS", "Bot", "Level", "UnknownLevel", "level", "make_bot"]
