"""Where bots think: a pool of worker processes, one per core, away from the server's event loop.

A bot's search is pure CPU work; run on the server's own process (even in a thread, which the
GIL serialises) it delays every other game's acknowledgement. Here a bot's choice is a job sent
to another process. The job carries only the bot's level and its seat's observation (a State
whose hidden tiles are already unknown), so a worker never holds more than the seat may know.
A worker makes the level's bot for each job: bots keep nothing from one choice to the next, and
making one takes microseconds, so a worker holds no state between jobs.

The app builds one ``BotPool`` (``build_app``) and hands it to whatever plays a bot or gives a hint.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from toybattle.bots import Bot
from toybattle.rules import State

from . import bot_levels

log = logging.getLogger("toybattle.app")

T = TypeVar("T")


def workers() -> int:
    """How many processes think for bots: one per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not every platform tells the affinity
        return max(1, os.cpu_count() or 1)


def browser_budget_s(budget_s: float | None) -> float:
    """The time a bot may think for one decision in the browser, when ``budget_s`` was asked (None: the
    level's own, which is longer than the browser's)."""
    return bot_levels.think_budget_s(math.inf if budget_s is None else budget_s, True)


class BotPool:
    """Where the app's bots think: worker processes, started on first use; or, with ``in_process``, this
    very process. A browser's worker (Pyodide) has neither processes nor threads: there the bot thinks
    in the worker itself, which the page never waits on, within the browser's shorter budget
    (app/bot_levels.py BROWSER_THINK_S); so ``in_process`` defaults to whether this is the browser."""

    def __init__(self, in_process: bool = bot_levels.IN_BROWSER) -> None:
        self.in_process = in_process
        self.bots: dict[str, Bot] = {}  # thinking in process: one bot per level, made on first use
        self._executor: ProcessPoolExecutor | None = None

    def executor(self) -> Executor:
        """The worker processes, started on first use. "spawn": a fresh interpreter per worker, never a
        fork of a process that runs an event loop and threads."""
        if self._executor is None:
            self._executor = ProcessPoolExecutor(max_workers=workers(), initializer=_worker_start,
                                                 mp_context=multiprocessing.get_context("spawn"))
        return self._executor

    def shutdown(self) -> None:
        """Stop the workers (the server does this when it stops); the next job starts them again."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def bot(self, level: str) -> Bot:
        """The bot of ``level`` that thinks in this process."""
        if level not in self.bots:
            self.bots[level] = bot_levels.make_bot(level, browser=self.in_process)
        return self.bots[level]

    async def _run(self, job: Callable[..., T], level: str, *args: Any) -> T:
        """``job(bot, *args)`` for a bot of ``level``: here when in process, else in a worker process."""
        if self.in_process:
            return job(self.bot(level), *args)
        return await self._submit(_in_worker, job, level, *args)

    async def _submit(self, fn: Callable[..., T], *args: Any) -> T:
        try:
            # submitted from a thread: the first jobs start the worker processes, which must not stall the loop
            job = await asyncio.to_thread(self.executor().submit, fn, *args)
            return await asyncio.wrap_future(job)
        except BrokenProcessPool:
            # a worker died (killed, out of memory): start new workers for the next job; the caller
            # decides what this job becomes
            log.error("the bots' process pool broke; starting a new one")
            self.shutdown()
            raise

    async def choose(self, level: str, obs: State, budget_s: float | None = None) -> int:
        """The action a bot of ``level`` chooses from the observation ``obs`` (in a worker process),
        thinking at most ``budget_s`` seconds (None: the level's own budget); in the browser, at most
        bot_levels.BROWSER_THINK_S whatever was asked."""
        if self.in_process:
            budget_s = browser_budget_s(budget_s)
        return await self._run(_choose, level, obs, budget_s)

    async def hint(self, level: str, obs: State) -> tuple[int, str]:
        """A bot of ``level``'s suggestion from ``obs`` and why (in a worker process)."""
        return await self._run(_hint, level, obs)

    async def work(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)``: other pure CPU work than a bot's choice (a game's review, toybattle.review.web), in a
        worker process; in this very process when ``in_process`` (the browser: the caller yields to the event
        loop between such jobs). ``args`` must hold nothing a seat may not know: observations, not games."""
        if self.in_process:
            return fn(*args)
        return await self._submit(fn, *args)

    async def worker_pid(self) -> int:
        """The process id of a worker (tests use it to see that bots think outside the server)."""
        return os.getpid() if self.in_process else await self._submit(os.getpid)


def _worker_start() -> None:
    """In a worker: Ctrl+C in the terminal stops the server, which stops its workers (a worker
    interrupted on its own would only print a traceback); and a worker whose server is gone,
    however it went (kill -9 included), exits instead of waiting for jobs forever."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)  # on a busy machine, the server's acknowledgements go before bots' thinking
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def _in_worker(job: Callable[..., T], level: str, *args: Any) -> T:
    """In a worker: ``job`` done by a new bot of ``level`` (workers run natively, never in the browser)."""
    return job(bot_levels.make_bot(level, browser=False), *args)


def _choose(bot: Bot, obs: State, budget_s: float | None) -> int:
    return bot.choose(obs, budget_s)


def _hint(bot: Bot, obs: State) -> tuple[int, str]:
    return bot.hint(obs)


__all__ = ["BotPool", "browser_budget_s", "workers"]
