"""A human plays an online game in the terminal: the position, the legal actions, a prompt."""
from __future__ import annotations

import asyncio
import math
import time
from typing import Any

from ..clocks import Clocks
from ..rules import SEATS, State, action_text, describe_action, parse_action, position_text
from ..said import Said, of_error, say
from .protocol import Match


class TerminalPlayer:
    """Reads actions in the game's notation (draw, 7@18, use, skip, ...) or 'concede'; speaks ``lang``."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang

    def say(self, text: str) -> None:
        print(say(text, self.lang))

    async def choose(self, obs: State, n: int) -> int | None:
        legal = obs.legal_actions()
        print(position_text(obs), end="")  # the position format: notation, the same in every language
        self.say(obs.describe_decision())
        self.say(Said("terminal.legal", actions=" ".join(action_text(a, obs.b) for a in legal)))
        loop = asyncio.get_running_loop()
        prompt = say(Said("terminal.prompt"), self.lang) + " "
        while True:
            try:
                line = await loop.run_in_executor(None, input, prompt)
            except EOFError:
                return None
            if line.strip().lower() == "concede":
                return None
            try:
                a = parse_action(line, obs.b)
            except ValueError as e:
                self.say(of_error(e))
                continue
            if a in legal:
                return a
            self.say(Said("terminal.refused", why=obs.refusal(a)))

    def seen(self, match: Match, msg: dict[str, Any]) -> None:
        if msg.get("by") == match.me or msg.get("t") != "act":
            return
        b = match.state.b
        self.say(Said("terminal.played", seat=SEATS[msg["by"]],
                      action=describe_action(parse_action(msg["a"], b), b)))
        if match.clocks:  # the status line of a game with a clock: both clocks as this side measures them
            self.say(clock_line(match.clocks, time.monotonic()))


def clock_line(clocks: Clocks, now: float) -> str:
    """'clocks: blue 4:05, red 3:12 (running)' (a Said: French says 4 min 05 s)."""
    def left(seat: int) -> tuple[int, str]:
        s = max(0, math.ceil(clocks.now_left(seat, now)))
        return s // 60, f"{s % 60:02d}"
    (m, sec), (m2, sec2) = left(0), left(1)
    key = {None: "terminal.clocks", 0: "terminal.clocks.blue", 1: "terminal.clocks.red"}[clocks.running]
    return Said(key, seat=SEATS[0], m=m, sec=sec, seat2=SEATS[1], m2=m2, sec2=sec2)
