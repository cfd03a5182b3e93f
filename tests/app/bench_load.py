"""Benchmark (not a test): the app under load, and its memory over a soak of finished games.

    python tests/app/bench_load.py load [--games 50 --sockets 300 --seconds 120]
    python tests/app/bench_load.py soak [--finished 1000]

Each phase starts its own server (``python -m toybattle serve`` on 127.0.0.1, a port the system
picks, a fresh games file in a temporary folder), talks to nothing else, and stops it at the end;
every loop is bounded in count and time.

``load``: ``--games`` bot games at the default level and bot delay are played at once, each by one
socket that answers its turn with a random legal action after a short human pause; the other
``--sockets`` minus ``--games`` sockets watch those seats (several tabs on one game) and receive
every view. A finished game is replaced by a new one. Measured: the time from sending an ``act``
to its ``ok`` (the acknowledgement, stored first), p50 / p99.

``soak``: games are finished one after another (8 at a time): bot games against the random level
(no bot delay), the human playing random legal actions to the end, or conceding after a few moves
in three games of four. The server's resident memory (VmRSS, and its bot workers' beside it) is
read every 100 finished games.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[2]
START = [time.monotonic()]  # when the phase began
SLOW: list[tuple[float, int]] = []  # acknowledgements over 250 ms: (seconds into the phase, ms)
ERRORS: list[str] = []  # error replies to a player's action
WARM_UP_S = 120.0  # memory is compared from here to the end: bots' tables and caches are filled by then
SAMPLE_EVERY_S = 30.0


def _rss(pid: int) -> float:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    return int(re.search(r"VmRSS:\s+(\d+)", text).group(1)) / 1024  # type: ignore[union-attr]


class Server:
    """``toybattle serve`` in a child process, on a port of its own, over a fresh games file."""

    def __init__(self, bot_delay: float):
        self.dir = tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DB_DIR"))  # where the games file lives
        # BENCH_SRC: another checkout's src to measure (say, the code before a change) on the same terms
        env = {**os.environ, "PYTHONPATH": os.environ.get("BENCH_SRC", str(ROOT / "src"))}
        self.proc = subprocess.Popen(
            [sys.executable, *(["-m", "cProfile", "-o", os.environ["BENCH_PROFILE"]] if "BENCH_PROFILE" in os.environ
                               else []),
             "-m", "toybattle", "serve", "--port", "0", "--no-browser", "--bot-delay", str(bot_delay),
             "--db", os.path.join(self.dir.name, "games.sqlite3")],
            stdout=subprocess.PIPE, stderr=open(os.path.join(self.dir.name, "server.log"), "w"),  # noqa: SIM115
            text=True, env=env)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            self.proc.kill()
            raise SystemExit(f"the server did not start: {line!r}")
        self.url = f"http://127.0.0.1:{m.group(1)}"

    def rss_mib(self) -> tuple[float, float]:
        """Resident memory of the server and of its child processes (the bots' workers), MiB."""
        children = [c for task in Path(f"/proc/{self.proc.pid}/task").iterdir()  # any thread may start one
                    for c in (task / "children").read_text().split()]
        return _rss(self.proc.pid), sum(_rss(int(c)) for c in children)

    def rss_each_mib(self) -> dict[str, float]:
        """Resident memory of the server and of each of its child processes (the bots' workers), MiB."""
        out = {"server": _rss(self.proc.pid)}
        for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
            for c in (task / "children").read_text().split():
                out[f"worker {c}"] = _rss(int(c))
        return out

    def memory_kinds(self) -> dict[str, float]:
        """The server's resident memory by kind of mapping, MiB: the C heap (``brk``, where SQLite and
        small C allocations go), other anonymous memory (Python's arenas, threads' malloc arenas and
        stacks), and files mapped in (the interpreter, extension modules)."""
        kinds = {"heap": 0.0, "anon": 0.0, "files": 0.0}
        kind = "anon"
        for line in Path(f"/proc/{self.proc.pid}/smaps").read_text().splitlines():
            head = line.split()
            if head and "-" in head[0] and not head[0].endswith(":"):  # a mapping's first line
                name = head[5] if len(head) > 5 else ""
                kind = "heap" if name == "[heap]" else "files" if name.startswith("/") else "anon"
            elif head and head[0] == "Rss:":
                kinds[kind] += int(head[1]) / 1024
        return {k: round(v, 1) for k, v in kinds.items()}

    def stop(self) -> int:
        """Stops the server; answers how many tracebacks its log holds."""
        self.proc.send_signal(signal.SIGINT)  # as Ctrl+C: the server stops cleanly
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        said = Path(self.dir.name, "server.log").read_text(errors="replace")
        tracebacks = said.count("Traceback")
        if tracebacks:  # kept for reading
            Path(tempfile.gettempdir(), "bench_load_server.log").write_text(said)
        self.dir.cleanup()
        return tracebacks


def create(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url + "/api/games", json.dumps(body).encode(), {"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        out: dict[str, Any] = json.loads(r.read())
    return out


async def hello(ws: ClientConnection, game: str, token: str) -> dict[str, Any]:
    await ws.send(json.dumps({"type": "hello", "game": game, "token": token}))
    while True:
        m = json.loads(await ws.recv())
        if m["type"] == "view":
            return dict(m["view"])


async def play(ws: ClientConnection, game: dict[str, Any], rng: random.Random, deadline: float, pause: float,
               acks: list[float], concede_after: int | None = None) -> bool:
    """Play ``game``'s human seat with random legal actions until it ends (or ``deadline``); True if it ended."""
    seat = next(iter(game["tokens"]))
    view = await hello(ws, game["game"], game["tokens"][seat])
    moves = 0
    while not view["over"] and time.monotonic() < deadline:
        if view["actor"] != seat or "legal" not in view:
            m = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic())))
            if m["type"] == "view":
                view = m["view"]
            continue
        await asyncio.sleep(pause * rng.random())
        conceding = concede_after is not None and moves >= concede_after
        msg = {"type": "concede"} if conceding else {"type": "act", "action": rng.choice(view["legal"]["actions"])}
        t = time.perf_counter()
        await ws.send(json.dumps({**msg, "id": moves}))
        while True:
            m = json.loads(await ws.recv())
            if m["type"] == "view":
                view = m["view"]
            elif m["type"] == "error":
                ERRORS.append(str(m.get("message"))[:200])
                break
            elif m["type"] == "ok":
                break
        if m["type"] == "ok":
            acks.append(time.perf_counter() - t)
            if acks[-1] > 0.25:
                SLOW.append((round(time.monotonic() - START[0], 1), round(acks[-1] * 1000)))
        moves += 1
    return bool(view["over"])


async def watch(url: str, games: list[dict[str, Any]], k: int, deadline: float, seen: list[int]) -> None:
    """A socket watching the human seat of game ``k``, following it to its replacements."""
    async with connect(url.replace("http", "ws") + "/ws", max_size=2**22) as ws:
        bound = None
        while time.monotonic() < deadline:
            g = games[k % len(games)]
            if g is not bound:
                seat = next(iter(g["tokens"]))
                await hello(ws, g["game"], g["tokens"][seat])
                bound = g
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
                seen[0] += raw.startswith('{"type": "view"')  # no decoding: a watcher only receives
            except TimeoutError:
                pass


async def load(args: argparse.Namespace) -> None:
    srv = Server(bot_delay=0.6)
    try:
        acks: list[float] = []
        finished = [0]
        deadline = time.monotonic() + args.seconds
        games = [await asyncio.to_thread(create, srv.url, {"kind": "bot"}) for _ in range(args.games)]
        seen = [0]

        async def player(k: int) -> None:
            rng = random.Random(k)
            async with connect(srv.url.replace("http", "ws") + "/ws", max_size=2**22) as ws:
                while time.monotonic() < deadline:
                    try:
                        if await play(ws, games[k], rng, deadline, args.pause, acks):
                            finished[0] += 1
                            games[k] = await asyncio.to_thread(create, srv.url, {"kind": "bot"})
                    except TimeoutError:
                        break

        samples: list[dict[str, Any]] = []

        async def sample() -> None:
            while time.monotonic() < deadline:
                rss = await asyncio.to_thread(srv.rss_each_mib)
                samples.append({"t": round(time.monotonic() - t0), "rss_mib": rss})
                await asyncio.sleep(min(SAMPLE_EVERY_S, max(0.0, deadline - time.monotonic())))

        t0 = START[0] = time.monotonic()
        await asyncio.gather(*(player(k) for k in range(args.games)), sample(),
                             *(watch(srv.url, games, k, deadline, seen) for k in range(args.sockets - args.games)))
        samples.append({"t": round(time.monotonic() - t0), "rss_mib": srv.rss_each_mib()})
        q = statistics.quantiles(acks, n=100, method="inclusive")
        print(json.dumps({
            "phase": "load", "games_at_once": args.games, "sockets": args.sockets,
            "seconds": round(time.monotonic() - t0), "acks": len(acks), "games_finished": finished[0],
            "views_to_watchers": seen[0], "ack_p50_ms": round(statistics.median(acks) * 1000, 1),
            "ack_p99_ms": round(q[98] * 1000, 1), "ack_max_ms": round(max(acks) * 1000, 1),
            "load_average": os.getloadavg(), "rss_mib": [round(x, 1) for x in srv.rss_mib()],
            "over_250ms_at": SLOW[:40], "errors": len(ERRORS), "error_lines": sorted(set(ERRORS))[:10],
            "memory_end_over_warm_up": _flat(samples), "memory_samples": samples}))
    finally:
        tracebacks = srv.stop()
        print(json.dumps({"server_tracebacks": tracebacks}))


def _flat(samples: list[dict[str, Any]]) -> dict[str, float]:
    """Each process's resident memory at the end over its memory at the first sample past the warm-up."""
    warm = next((s for s in samples if s["t"] >= WARM_UP_S), samples[0])["rss_mib"]
    end = samples[-1]["rss_mib"]
    return {name: round(end[name] / warm[name], 3) for name in warm if name in end and warm[name]}


async def soak(args: argparse.Namespace) -> None:
    srv = Server(bot_delay=0.0)
    try:
        done = [0]
        marks: list[dict[str, Any]] = [{"finished": 0, "rss_mib": [round(x, 1) for x in srv.rss_mib()],
                                        "kinds_mib": srv.memory_kinds()}]
        print(json.dumps(marks[-1]), flush=True)
        deadline = time.monotonic() + args.seconds
        acks: list[float] = []

        async def one(k: int) -> None:
            rng = random.Random(1000 + k)
            while done[0] < args.finished and time.monotonic() < deadline:
                g = await asyncio.to_thread(create, srv.url, {"kind": "bot", "level": "random",
                                                              "terrain": "random"})
                async with connect(srv.url.replace("http", "ws") + "/ws", max_size=2**22) as ws:
                    concede = None if rng.random() < 0.25 else rng.randrange(2, 8)
                    if not await play(ws, g, rng, deadline, 0.0, acks, concede):
                        return
                done[0] += 1
                if done[0] % 100 == 0:
                    await asyncio.sleep(0.5)  # the server notices closed sockets
                    marks.append({"finished": done[0], "rss_mib": [round(x, 1) for x in srv.rss_mib()],
                                  "kinds_mib": srv.memory_kinds(), "load_average": round(os.getloadavg()[0], 1)})
                    print(json.dumps(marks[-1]), flush=True)

        t0 = time.monotonic()
        await asyncio.gather(*(one(k) for k in range(8)))
        await asyncio.sleep(1.0)
        end = srv.rss_mib()
        base = next((m["rss_mib"][0] for m in marks if m["finished"] >= 100), marks[0]["rss_mib"][0])
        print(json.dumps({"phase": "soak", "games_finished": done[0], "seconds": round(time.monotonic() - t0),
                          "rss_start_mib": marks[0]["rss_mib"], "rss_after_100_mib": base,
                          "rss_end_mib": [round(x, 1) for x in end],
                          "kinds_end_mib": srv.memory_kinds(),
                          "growth_after_100_pct": round((end[0] / base - 1) * 100, 1),
                          "load_average": os.getloadavg()}))
    finally:
        srv.stop()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="phase", required=True)
    a = sub.add_parser("load")
    a.add_argument("--games", type=int, default=50)
    a.add_argument("--sockets", type=int, default=300)
    a.add_argument("--seconds", type=float, default=120)
    a.add_argument("--pause", type=float, default=1.0, help="the most a human waits before acting (s)")
    b = sub.add_parser("soak")
    b.add_argument("--finished", type=int, default=1000)
    b.add_argument("--seconds", type=float, default=1800, help="stop by this time even if short of --finished")
    args = p.parse_args()
    if not (1 <= getattr(args, "games", 1) <= getattr(args, "sockets", 1) <= 1000):
        p.error("need 1 <= --games <= --sockets <= 1000")
    asyncio.run(load(args) if args.phase == "load" else soak(args))


if __name__ == "__main__":
    main()
