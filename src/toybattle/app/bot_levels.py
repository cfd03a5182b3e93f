"""The bot levels the app offers: toybattle.bots' own, weakest first.

What the app adds is how it meets a stored game's level: a game saved with a level that has
since been retired (such as "hard") plays on at the default level instead of failing to load;
and, in the browser, a shorter time budget per move (``BROWSER_THINK_S``).
"""
from __future__ import annotations

import dataclasses
import sys

from toybattle import bots
from toybattle.bots import DEFAULT_LEVEL, LEVELS, Bot, Level

# The static site runs the app on Pyodide in a Web Worker (maybe on a phone), where a bot thinks at most
# this long per decision. A bot's answer is released at its pace, the longer of the app's bot delay (0.6 s)
# and this budget, and the expert's search is anytime (it stops at the deadline with every candidate
# compared on the guesses done so far), so the answer arrives a little after this budget: 0.7 s keeps it
# within 1 s at the 95th percentile in chromium on the project's 2-core machine with room for the page's
# own work, where the level's own 1.8 s kept the player waiting about 1.7 s a decision
# (scripts/bench_browser_bot.py, docs/benchmarks.md "The expert on the site"). Natively the levels keep
# their own budgets.
BROWSER_THINK_S = 0.7

# In a browser: Pyodide's CPython reports the platform "emscripten" (the bots' pool runs in-process there).
IN_BROWSER = sys.platform == "emscripten"


def think_budget_s(level_budget_s: float, browser: bool) -> float:
    """A level's time budget per decision where the app runs: its own natively, at most BROWSER_THINK_S in
    the browser."""
    return min(level_budget_s, BROWSER_THINK_S) if browser else level_budget_s


def levels(browser: bool | None = None) -> tuple[Level, ...]:
    """The ladder, each level with the time budget it has where the app runs (``browser``: default, whether
    this is the browser): the session's pace and the bot's thinking both follow it."""
    if not (IN_BROWSER if browser is None else browser):
        return LEVELS
    return tuple(dataclasses.replace(lv, budget_s=think_budget_s(lv.budget_s, True)) for lv in LEVELS)


def default_level() -> str:
    return DEFAULT_LEVEL


def offered(level: str) -> str:
    """``level`` if it is offered, else the default level."""
    return level if level in [lv.name for lv in LEVELS] else DEFAULT_LEVEL


def make_bot(level: str, seed: int | None = None, browser: bool | None = None) -> Bot:
    """A bot with ``choose(obs, budget_s=None)`` and ``hint(obs)``; UnknownLevel for a bad name. In the
    browser (``browser``: default, whether this is the browser) its own budget, which also bounds its hints,
    is the browser's (think_budget_s)."""
    bot = bots.make_bot(level, seed=seed)
    bot.budget_s = think_budget_s(bot.budget_s, IN_BROWSER if browser is None else browser)
    return bot
