"""Keeping a long-running server's memory flat: what finished games freed goes back to the system.

A finished game leaves the registry (``Games.forget``), but its objects hold cycles (a session and
its player, a game and its callbacks), so they are freed only by a full run of Python's cycle
collector, which by its own thresholds comes once every few hundred games; until then the game's
strings (its record, its views) sit in the C heap. And the C allocator (glibc's malloc) keeps what
is freed in its heap, for the next allocation. docs/benchmarks.md ("Memory over a soak of finished
games") measured the result: the server's ``[heap]`` mapping crept up by some 3.5 MiB over 1,000
games, then fell back at each full collection.

So the server, now and then (``keep_flat``): runs the collector, which is cheap because everything
alive once the server has started (imports, the app) was frozen out of its way (``gc.freeze``); and
gives the heap's free pages back with glibc's ``malloc_trim(0)``, on a thread (ctypes lets go of the
GIL during the call). Elsewhere (macOS, Windows, a browser's Pyodide) there is no such call, and the
collector alone runs.
"""
from __future__ import annotations

import asyncio
import gc
import sys
from collections.abc import Callable

# How often. The collection pauses the event loop: 3 ms median on the soak's server (1,000 games,
# load average 13 on 2 cores), up to tens of ms when the machine is saturated; a round every 15 s
# keeps that out of all but a few acknowledgements, and lets at most 15 s of garbage build up.
EVERY_S = 15.0


def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    import ctypes  # here: only where it can serve
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim  # glibc; absent from musl
    except (OSError, AttributeError):
        return None
    return trim


_TRIM = _malloc_trim()


def trim() -> bool:
    """Give the C heap's free pages back to the system; False where there is no way to."""
    if _TRIM is None:
        return False
    _TRIM(0)
    return True


async def keep_flat(every: float = EVERY_S) -> None:
    """From the server's start until cancelled: freeze what is alive now, then every ``every``
    seconds collect the cycles finished games left and trim the heap."""
    gc.collect()
    gc.freeze()
    try:
        while True:
            await asyncio.sleep(every)
            gc.collect()  # on the loop: the collector holds the GIL anyway, and the frozen start is not walked
            if _TRIM is not None:
                await asyncio.to_thread(trim)
    finally:  # the server stops (in a test process, other work goes on): the collector sees everything again
        gc.unfreeze()
