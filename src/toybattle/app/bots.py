"""The bot levels the app offers: toybattle.bots when it is installed, else one plain random level.

The fallback is clearly labelled "Random": it plays any legal action, from the bot seat's
observation only, exactly like the real "random" level.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from toybattle.rules import State


class UnknownLevel(ValueError):
    """A bot level the app does not offer."""


@dataclass(frozen=True)
class LevelInfo:
    name: str
    label: str
    description: str


class RandomLegalBot:
    """Any legal action, uniformly (the fallback when toybattle.bots is absent)."""

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, obs: State, budget_s: float | None = None) -> int:
        return self.rng.choice(obs.legal_actions())

    def hint(self, obs: State) -> tuple[int, str]:
        return self.choose(obs), "any legal action (random level)"


_FALLBACK = (LevelInfo("random", "Random", "Plays any legal action at random."),)


def _bots():
    try:
        import toybattle.bots as bots
    except ImportError:
        return None
    return bots if hasattr(bots, "LEVELS") and hasattr(bots, "make_bot") else None


def levels() -> list[LevelInfo]:
    """The levels, weakest first."""
    bots = _bots()
    if bots is None:
        return list(_FALLBACK)
    return [LevelInfo(lv.name, lv.label, getattr(lv, "description", "")) for lv in bots.LEVELS]


def default_level() -> str:
    bots = _bots()
    names = [lv.name for lv in levels()]
    wanted = getattr(bots, "DEFAULT_LEVEL", None) if bots else None
    return wanted if wanted in names else names[min(len(names) - 1, 2)]


def offered(level: str) -> str:
    """``level`` if it is offered, else the default level: a game saved with a level that has since
    been retired (such as "hard") plays on instead of failing to load."""
    return level if level in [lv.name for lv in levels()] else default_level()


def make_bot(level: str, seed: int | None = None):
    """A bot object with ``choose(obs, budget_s=None)`` and ``hint(obs)``."""
    if level not in [lv.name for lv in levels()]:
        raise UnknownLevel(f"unknown bot level {level!r}")
    bots = _bots()
    return bots.make_bot(level, seed=seed) if bots else RandomLegalBot(seed)
