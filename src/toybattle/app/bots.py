"""The bot levels the app offers: toybattle.bots' own, weakest first.

What the app adds is how it meets a stored game's level: a game saved with a level that has
since been retired (such as "hard") plays on at the default level instead of failing to load.
"""
from __future__ import annotations

from toybattle import bots
from toybattle.bots import DEFAULT_LEVEL, LEVELS, Bot, Level


def levels() -> tuple[Level, ...]:
    return LEVELS


def default_level() -> str:
    return DEFAULT_LEVEL


def offered(level: str) -> str:
    """``level`` if it is offered, else the default level."""
    return level if level in [lv.name for lv in LEVELS] else DEFAULT_LEVEL


def make_bot(level: str, seed: int | None = None) -> Bot:
    """A bot with ``choose(obs, budget_s=None)`` and ``hint(obs)``; UnknownLevel for a bad name."""
    return bots.make_bot(level, seed=seed)
