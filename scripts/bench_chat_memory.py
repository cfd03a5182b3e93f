#!/usr/bin/env python3
"""Chat lines through one real server: its memory stays flat (issue 26).

Starts ``toybattle serve`` as a subprocess (``sys.executable -m toybattle serve --no-browser --port 0
--db TMP``), makes ``--games`` two-device games (``POST /api/games {"kind": "lan"}``, the invite, the
guest's ``POST /api/games/{game}/join``), connects one websocket per seat (``hello`` with its token),
then sends distinct chat lines (``{"type": "chat", "text": ...}``; each a new text, 10-200
characters, some non-ASCII) from every seat, each awaited to its ``ok``, at the rate the server
allows: at most ``chat.BURST`` (5) lines per seat within ``chat.WINDOW`` (10 s), a sliding window.
A seat sends a line only 10 s after the ``ok`` of its fifth line before (the server counted that
line before its ``ok`` was sent), so no line is refused for coming too fast; the seats are
staggered over the window. One game can carry only 1 line/s, so the lines are spread over many games
on the same server, which is what matters for its memory.

First ``--warmup`` lines (every game's chat log fills up to its 50 kept lines), then ``--lines``
measured lines. The server process's RSS (``VmRSS`` of ``/proc/PID/status``; the bots' worker pool
plays no part in chat) is sampled every 5 s; reported: after the warm-up, at the end of the measured
lines, and once more after the server's next memory round (``app/memory.py``, every 15 s), with
the ratio end / warm-up.

    .venv/bin/python scripts/bench_chat_memory.py                        # 250 games, 20,000 + 100,000 lines
    .venv/bin/python scripts/bench_chat_memory.py --games 20 --warmup 500 --lines 2000   # a quick run
"""
from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

BURST, WINDOW = 5, 10.0  # toybattle.chat: lines per seat within a window of seconds
WORDS = ["hello", "again", "nice", "move", "wow", "bien", "joué", "déjà", "vu", "ça", "va", "🙂", "日本", "ok",
         "Kwak", "Roxy", "base", "tower", "garçon", "naïve", "über", "Ωmega", "x"]


def rss_kib(pid: int) -> int:
    m = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    assert m, "no VmRSS"
    return int(m[1])


def start_server(workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    log = open(workdir / "server.log", "wb")  # noqa: SIM115 (the server writes to it for its whole life)
    proc = subprocess.Popen([sys.executable, "-m", "toybattle", "serve", "--no-browser", "--port", "0",
                             "--db", str(workdir / "games.sqlite3")], stdout=subprocess.PIPE, stderr=log)
    line = proc.stdout.readline().decode()  # type: ignore[union-attr]
    m = re.search(r"(http://[\d.]+:\d+)/", line)
    if not m:
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    threading.Thread(target=proc.stdout.read, daemon=True).start()  # type: ignore[union-attr]
    return proc, m[1]


def make_games(base: str, n: int) -> list[tuple[str, str, str]]:
    """``n`` two-device games, both seats taken: (game, host token, guest token)."""
    out = []
    with httpx.Client(base_url=base, timeout=60) as c:
        for _i in range(n):
            g = c.post("/api/games", json={"kind": "lan", "terrain": "castle", "first": "blue", "human": "blue"}).json()
            host = g["tokens"]["blue"]
            key = c.get(f"/api/games/{g['game']}/invite", params={"token": host}).json()["url"].rsplit("/", 1)[1]
            guest = c.post(f"/api/games/{g['game']}/join", json={"key": key}).json()["tokens"]["red"]
            out.append((g["game"], host, guest))
    return out


class Seat:
    """One seat's websocket: sends chat lines, each awaited to its ok."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.received = 0  # chat lines pushed to this socket
        self.errors: list[str] = []
        self.oks: deque[float] = deque(maxlen=BURST)  # when the seat's last lines were acknowledged
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        async for raw in self.ws:
            msg = json.loads(raw)
            kind = msg.get("type")
            if kind == "chat":
                self.received += len(msg["lines"])
            fut = self.waiting.pop(str(msg.get("id")), None) if kind in ("ok", "error", "welcome") else None
            if fut is not None and not fut.done():
                fut.set_result(msg)
            elif kind == "error":
                self.errors.append(msg.get("message", ""))

    async def request(self, msg: dict[str, Any]) -> dict[str, Any]:
        fut = asyncio.get_running_loop().create_future()
        self.waiting[str(msg["id"])] = fut
        await self.ws.send(json.dumps(msg))
        return await asyncio.wait_for(fut, 120)


class Run:
    def __init__(self, pid: int, target: int, seed: int) -> None:
        self.pid = pid
        self.target = target
        self.sent = 0  # lines acknowledged
        self.refused: list[str] = []
        self.numbers = itertools.count()
        self.rng = random.Random(seed)
        self.samples: list[tuple[float, int, int]] = []  # (seconds, lines, RSS KiB)
        self.t0 = time.monotonic()

    def line(self) -> str:
        n = next(self.numbers)
        text = f"#{n} " + " ".join(self.rng.choice(WORDS) for _ in range(60))  # a new number: a distinct line
        return text[: max(len(f"#{n}") + 2, self.rng.randint(10, 200))]

    def sample(self) -> None:
        self.samples.append((time.monotonic() - self.t0, self.sent, rss_kib(self.pid)))

    async def seat(self, s: Seat, offset: float, ids: itertools.count[int]) -> None:
        await asyncio.sleep(offset)
        oks = s.oks
        while self.sent < self.target:
            if len(oks) == BURST:  # the server counted that line before its ok: 10 s after the ok is enough
                await asyncio.sleep(max(0.0, oks[0] + WINDOW + 0.05 - time.monotonic()))
                if self.sent >= self.target:
                    return
            self.sent += 1  # claimed before sending: the total never overshoots
            reply = await s.request({"type": "chat", "id": next(ids), "text": self.line()})
            if reply["type"] == "ok":
                oks.append(time.monotonic())
            else:
                self.sent -= 1
                self.refused.append(reply.get("message", str(reply)))
                await asyncio.sleep(1)

    async def phase(self, seats: list[Seat], lines: int) -> float:
        self.target = self.sent + lines
        ids = itertools.count()
        t = time.monotonic()
        tasks = [asyncio.create_task(self.seat(s, WINDOW * i / len(seats), ids)) for i, s in enumerate(seats)]
        while not all(x.done() for x in tasks):
            await asyncio.sleep(5)
            self.sample()
            print(f"  {self.samples[-1][0]:6.0f} s  {self.sent:7d} lines  RSS {self.samples[-1][2] / 1024:7.1f} MiB",
                  flush=True)
        for x in tasks:
            x.result()
        return time.monotonic() - t


async def bench(args: argparse.Namespace, base: str, pid: int, games: list[tuple[str, str, str]]) -> dict[str, Any]:
    ws_url = base.replace("http", "ws", 1) + "/ws"
    seats: list[Seat] = []
    for game, host, guest in games:
        for token in (host, guest):
            ws = await connect(ws_url, max_size=None, open_timeout=60, ping_interval=None)
            s = Seat(ws)
            welcome = await s.request({"type": "hello", "game": game, "token": token, "id": "hello"})
            assert welcome["type"] == "welcome", welcome
            seats.append(s)
    run = Run(pid, 0, args.seed)
    run.sample()
    start_rss = run.samples[-1][2]
    print(f"{len(games)} games, {len(seats)} sockets: RSS {start_rss / 1024:.1f} MiB; warm-up: {args.warmup} lines")
    warm_s = await run.phase(seats, args.warmup)
    run.sample()
    warm = run.samples[-1]
    print(f"measured: {args.lines} lines")
    measured_s = await run.phase(seats, args.lines)
    run.sample()
    end = run.samples[-1]
    await asyncio.sleep(17)  # one more of the server's memory rounds (every 15 s)
    run.sample()
    after = run.samples[-1]
    measured_rss = [r for t, _, r in run.samples if t >= warm[0]]
    received = sum(s.received for s in seats)
    errors = [e for s in seats for e in s.errors]
    for s in seats:
        await s.ws.close()
        s.reader.cancel()
    return {"games": len(games), "sockets": len(seats), "warmup_lines": args.warmup, "lines": args.lines,
            "total_lines": run.sent, "refused": len(run.refused), "refusals": run.refused[:5],
            "socket_errors": errors[:5],
            "chat_lines_pushed": received, "warmup_seconds": round(warm_s), "measured_seconds": round(measured_s),
            "lines_per_second": round(args.lines / measured_s, 1),
            "rss_mib": {"start": round(start_rss / 1024, 1), "warmup": round(warm[2] / 1024, 1),
                        "end": round(end[2] / 1024, 1), "after_memory_round": round(after[2] / 1024, 1),
                        "max_measured": round(max(measured_rss) / 1024, 1),
                        "min_measured": round(min(measured_rss) / 1024, 1)},
            "ratio_end_over_warmup": round(end[2] / warm[2], 4),
            "ratio_after_round_over_warmup": round(after[2] / warm[2], 4),
            "ratio_max_over_warmup": round(max(measured_rss) / warm[2], 4),
            "samples": [(round(t), n, r) for t, n, r in run.samples]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=250, help="two-device games, two sockets each (default 250)")
    ap.add_argument("--warmup", type=int, default=20_000, help="lines before the first measure (default 20,000)")
    ap.add_argument("--lines", type=int, default=100_000, help="measured lines (default 100,000)")
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--json", action="store_true", help="print the result as JSON (with every sample)")
    args = ap.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="toybattle-chat-"))
    proc, base = start_server(workdir)
    try:
        print(f"server {base} (pid {proc.pid}), work dir {workdir}; load {os.getloadavg()[0]:.1f}", flush=True)
        games = make_games(base, args.games)
        result = asyncio.run(bench(args, base, proc.pid, games))
    finally:
        proc.terminate()
        proc.wait(30)
    log = (workdir / "server.log").read_text(errors="replace")
    shutil.rmtree(workdir, ignore_errors=True)
    result["server_tracebacks"] = log.count("Traceback")
    result["load_after"] = round(os.getloadavg()[0], 1)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        r = result["rss_mib"]
        print(f"{result['total_lines']} lines ({result['warmup_lines']} warm-up + {result['lines']} measured, "
              f"{result['refused']} refused) over {result['games']} games / {result['sockets']} sockets; "
              f"measured part {result['measured_seconds']} s ({result['lines_per_second']} lines/s)")
        print(f"RSS MiB: start {r['start']}, after warm-up {r['warmup']}, end {r['end']}, after the next memory "
              f"round {r['after_memory_round']}; measured min {r['min_measured']} max {r['max_measured']}")
        print(f"ratio end / warm-up {result['ratio_end_over_warmup']}, "
              f"max / warm-up {result['ratio_max_over_warmup']}; "
              f"server tracebacks {result['server_tracebacks']}")
    flat = result["ratio_end_over_warmup"] <= 1.05 and not result["refused"] and not result["server_tracebacks"]
    return 0 if flat else 1


if __name__ == "__main__":
    sys.exit(main())
