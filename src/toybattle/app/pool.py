"""Where bots think: a pool of worker processes, one per core, away from the server's event loop.

A bot's search is pure CPU work; run on the server's own process (even in a thread, which the
GIL serialises) it delays every other game's acknowledgement. Here a bot's choice is a job sent
to another process. The job carries only the bot's level and its seat's observation (a State
whose hidden tiles are already unknown), so a worker never holds more than the seat may know.
Each worker keeps one bot per level and reuses it: bots keep nothing from one choice to the next.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from toybattle.bots import Bot
from toybattle.rules import State

from . import bots as app_bots

log = logging.getLogger("toybattle.app")

T = TypeVar("T")

_executor: ProcessPoolExecutor | None = None
_bots: dict[str, Bot] = {}  # in a worker: one bot per level


def workers() -> int:
    """How many processes think for bots: one per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not every platform tells the affinity
        return max(1, os.cpu_count() or 1)


def executor() -> Executor:
    """The pool, started on first use. "spawn": a fresh interpreter per worker, never a fork of a
    process that runs an event loop and threads."""
    global _executor
    if _executor is None:
        _executor = ProcessPoolExecutor(max_workers=workers(), mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_worker_start)
    return _executor


def shutdown() -> None:
    """Stop the workers (the server does this when it stops); the next job starts a new pool."""
    global _executor
    if _executor is not None:
        _executor.shutdown(wait=False, cancel_futures=True)
        _executor = None


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


def _bot(level: str) -> Bot:
    if level not in _bots:
        _bots[level] = app_bots.make_bot(level)
    return _bots[level]


def _choose(level: str, obs: State, budget_s: float | None) -> int:
    return _bot(level).choose(obs, budget_s)


def _hint(level: str, obs: State) -> tuple[int, str]:
    return _bot(level).hint(obs)


def _pid() -> int:
    return os.getpid()


# A browser's worker (Pyodide) has neither processes nor threads: there the bot thinks in the worker
# itself, which the page never waits on.
IN_PROCESS = sys.platform == "emscripten"


async def _run(fn: Any, *args: Any) -> Any:
    if IN_PROCESS:
        return fn(*args)
    try:
        # submitted from a thread: the first jobs start the worker processes, which must not stall the loop
        job = await asyncio.to_thread(executor().submit, fn, *args)
        return await asyncio.wrap_future(job)
    except BrokenProcessPool:
        # a worker died (killed, out of memory): start a new pool for the next job; the caller
        # decides what this job becomes
        log.error("the bots' process pool broke; starting a new one")
        shutdown()
        raise


async def choose(level: str, obs: State, budget_s: float | None = None) -> int:
    """The action a bot of ``level`` chooses from the observation ``obs`` (in a worker process),
    thinking at most ``budget_s`` seconds (None: the level's own budget)."""
    a: int = await _run(_choose, level, obs, budget_s)
    return a


async def hint(level: str, obs: State) -> tuple[int, str]:
    """A bot of ``level``'s suggestion from ``obs`` and why (in a worker process)."""
    out: tuple[int, str] = await _run(_hint, level, obs)
    return out


async def worker_pid() -> int:
    """The process id of a worker (tests use it to see that bots think outside the server)."""
    pid: int = await _run(_pid)
    return pid


__all__ = ["choose", "executor", "hint", "shutdown", "worker_pid", "workers"]
