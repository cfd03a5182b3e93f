"""Issue 12 item 10: a bot's answer time must not reveal its options. A bot with one legal action
answered at once, against a median of 153 ms otherwise: the human learned that the bot's rack
could place nothing. Now every bot move is released at the game's pace after it began, a time
drawn from nothing the bot sees; the bot's thinking (what depends on its options) is capped by it.

The test runs the app's real bot loop on a fake clock: a bot that answers at once (a forced move)
and one that thinks for most of its budget (a real search) are delivered at the same moment."""
from __future__ import annotations

import asyncio
import functools

import pytest

from toybattle.app.bot_levels import levels
from toybattle.app.pool import BotPool
from toybattle.app.session import LocalSession
from toybattle.store import Store


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    async def wait(self, seconds: float) -> None:
        self.now += max(0.0, seconds)


def _delivery_time(store: Store, think: float, bot_delay: float) -> tuple[float, float, float | None]:
    """(seconds from the bot's turn to its move reaching the seats, the pace, the budget it was given)."""
    async def run() -> tuple[float, float, float | None]:
        s = LocalSession.create(store, BotPool(), "bot", terrain="castle", first="red", human="blue", level="medium",
                                bot_delay=bot_delay)
        store.put(s.row)
        clock = FakeClock()
        s._clock = clock  # type: ignore[method-assign]
        s._wait = clock.wait  # type: ignore[method-assign]
        given: list[float | None] = []

        async def fake_think(level, obs, budget_s=None):  # thinks ``think`` seconds of the fake clock, then plays
            given.append(budget_s)
            clock.now += min(think, budget_s if budget_s is not None else think)
            return obs.legal_actions()[0]

        s._think = fake_think  # type: ignore[method-assign]
        delivered: list[float] = []

        async def seen(_session) -> None:
            delivered.append(clock())

        s.subscribe(seen)
        start = clock()
        s.kick_bot()
        await asyncio.wait_for(s._bot_task, 30)  # type: ignore[arg-type]
        return delivered[0] - start, s.pace, given[0]
    return asyncio.run(run())


def test_a_forced_move_answers_at_the_same_moment_as_a_long_search(tmp_path):
    store = Store(tmp_path / "games.sqlite3")
    try:
        at = functools.partial(_delivery_time, store, bot_delay=0.6)
        forced, pace, budget = at(think=0.0)   # one legal action: the bot answers at once
        search, _, _ = at(think=0.85)            # many: it searches for most of its budget
        medium = next(lv for lv in levels() if lv.name == "medium")
        assert pace == max(0.6, medium.budget_s) and budget == pace
        assert forced == pytest.approx(pace, abs=1e-9) and search == pytest.approx(pace, abs=1e-9)
    finally:
        store.close()


def test_the_pace_depends_on_the_level_and_delay_only(tmp_path):
    store = Store(tmp_path / "games.sqlite3")
    try:
        for level in levels():
            paces = set()
            for first in ("blue", "red"):
                for terrain in ("castle", "jungle", "pool"):
                    s = LocalSession.create(store, BotPool(), "bot", terrain=terrain, first=first, human="blue",
                                            level=level.name, bot_delay=0.6)
                    paces.add(s.pace)
            assert paces == {max(0.6, level.budget_s)}, level.name
    finally:
        store.close()
