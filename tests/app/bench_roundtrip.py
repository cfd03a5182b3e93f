"""Benchmark (not a test): websocket round trip of an action, stored before its ok.

Run: python tests/app/bench_roundtrip.py
"""
from __future__ import annotations

import json
import os
import random
import statistics
import sys
import tempfile
import time
import urllib.request
import warnings

from websockets.sync.client import ClientConnection, connect

from toybattle.app.server import build_app
from toybattle.store import Store

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "browser"))
from conftest import LiveServer  # (tests/browser/conftest.py: the app on a free port)


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url + "/api/games", json.dumps(body).encode(), {"content-type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


def seat(url: str, game: dict, who: str) -> tuple[ClientConnection, dict]:
    """A websocket bound to ``who`` and the first view it is sent."""
    ws = connect(url.replace("http", "ws") + "/ws")
    ws.send(json.dumps({"type": "hello", "game": game["game"], "token": game["tokens"][who]}))
    while True:
        m = json.loads(ws.recv())
        if m["type"] == "view":
            return ws, m["view"]


def play(url: str, game: dict, rng: random.Random, times: list[float], sizes: list[int]) -> None:
    """Random actions to the end of the game, timing each from send to its ok."""
    socks = {who: list(seat(url, game, who)) for who in ("blue", "red")}
    while not socks["blue"][1]["over"]:
        actor = socks["blue"][1]["actor"]
        other = "red" if actor == "blue" else "blue"
        ws, v = socks[actor]
        t = time.perf_counter()
        ws.send(json.dumps({"type": "act", "action": rng.choice(v["legal"]["actions"])}))
        while True:
            raw = ws.recv()
            m = json.loads(raw)
            if m["type"] == "view":
                socks[actor][1] = m["view"]
                sizes.append(len(raw))
            if m["type"] == "ok":
                break
        times.append(time.perf_counter() - t)
        socks[other][1] = json.loads(socks[other][0].recv())["view"]
    for ws, _ in socks.values():
        ws.close()


def main() -> None:
    warnings.filterwarnings("ignore")
    srv = LiveServer(build_app(Store(os.path.join(tempfile.mkdtemp(), "g.sqlite3")), bot_delay=0)).start()
    times: list[float] = []
    sizes: list[int] = []
    rng = random.Random(1)
    for n in range(6):
        game = post(srv.url, {"kind": "hotseat", "terrain": ["castle", "clouds", "battlefield"][n % 3]})
        play(srv.url, game, rng, times, sizes)
    srv.stop()
    q = statistics.quantiles(times, n=10)
    print(f"actions {len(times)}; act->ok median {statistics.median(times) * 1000:.2f} ms, p90 {q[8] * 1000:.2f} ms;"
          f" view median {statistics.median(sizes) / 1024:.1f} KiB, max {max(sizes) / 1024:.1f} KiB")


if __name__ == "__main__":
    main()
