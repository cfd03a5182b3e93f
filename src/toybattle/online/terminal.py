"""A human plays an online game in the terminal: the position, the legal actions, a prompt."""
from __future__ import annotations

import asyncio
import math
import time
from typing import Any

from ..clocks import Clocks
from ..rules import SEATS, State, action_text, describe_action, parse_action, position_text
from .protocol import Match


class TerminalPlayer:
    """Reads actions in the game's notation (draw, 7@18, use, skip, ...) or 'concede'."""

    async def choose(self, obs: State, n: int) -> int | None:
        legal = obs.legal_actions()
        print(position_text(obs), end="")
        print(obs.describe_decision())
        print("legal: " + " ".join(action_text(a, obs.b) for a in legal))
        loop = asyncio.get_running_loop()
        while True:
            try:
                line = await loop.run_in_executor(None, input, "your action (or 'concede')> ")
            except EOFError:
                return None
            if line.strip().lower() == "concede":
                return None
            try:
                a = parse_action(line, obs.b)
            except ValueError as e:
                print(e)
                continue
            if a in legal:
                return a
            print(f"refused: {obs.refusal(a)}")

    def seen(self, match: Match, msg: dict[str, Any]) -> None:
        if msg.get("by") == match.me or msg.get("t") != "act":
            return
        b = match.state.b
        print(f"{SEATS[msg['by']]}: {describe_action(parse_action(msg['a'], b), b)}")
        if match.clocks:  # the status line of a game with a clock: both clocks as this side measures them
            print(clock_line(match.clocks, time.monotonic()))


def clock_line(clocks: Clocks, now: float) -> str:
    """'clocks: blue 4:05, red 3:12 (running)'."""
    def shown(seat: int) -> str:
        s = max(0, math.ceil(clocks.now_left(seat, now)))
        return f"{SEATS[seat]} {s // 60}:{s % 60:02d}" + (" (running)" if clocks.running == seat else "")
    return f"clocks: {shown(0)}, {shown(1)}"
