"""The server keeps its memory flat (app/memory.py): what is alive at its start is frozen out of the
collector's way, cycles finished games leave are collected every round, the C heap is trimmed, and
stopping unfreezes (a test process goes on)."""
from __future__ import annotations

import asyncio
import contextlib
import gc
import weakref

from toybattle.app import memory


class Node:
    me: Node


def test_each_round_collects_the_cycles_left_and_trims(monkeypatch):
    trims: list[int] = []
    monkeypatch.setattr(memory, "trim", lambda: trims.append(1) or True)

    async def main() -> None:
        task = asyncio.create_task(memory.keep_flat(0.05))
        await asyncio.sleep(0.01)
        assert gc.get_freeze_count() > 0  # the start is frozen
        node = Node()
        node.me = node  # a cycle, as a finished game's session and player make
        ref = weakref.ref(node)
        del node
        await asyncio.sleep(0.3)
        assert ref() is None  # collected by a round: the collector's own thresholds are off here
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        assert gc.get_freeze_count() == 0

    gc.disable()
    try:
        asyncio.run(main())
    finally:
        gc.enable()
    if memory._TRIM is not None:  # glibc: every round trimmed
        assert trims
