"""Benchmark for docs/benchmarks.md (issue 23): the native wormhole crypto's speed, one key exchange
(SPAKE2, both sides) and sealing a 200-byte message with its phase key, as medians.

    .venv/bin/python scripts/bench_crypto.py
"""
from __future__ import annotations

import os
import statistics
import time

from toybattle.online.mailbox import client, spake2
from toybattle.online.mailbox.primitives import Native

crypto = Native()


def med(f, n):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def kex():
    a, b = spake2.Spake2(b"7-guitarist-revenge", b"app", crypto), spake2.Spake2(b"7-guitarist-revenge", b"app", crypto)
    ma, mb = a.start(), b.start()
    a.finish(mb)
    b.finish(ma)


key, msg = os.urandom(32), os.urandom(200)


def seal():
    crypto.seal(client.phase_key(crypto, key, "abc", "3"), msg)



print(f"key exchange (both sides) {med(kex,50):.2f} ms; seal 200 B + phase key {med(seal,500):.3f} ms")
