"""Benchmark (not a test): websocket round trip of an action, stored before its ok. Run: python tests/app/bench_roundtrip.py"""
import json
import os
import random
import statistics
import sys
import tempfile
import time
import warnings

warnings.filterwarnings("ignore")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "browser"))
import urllib.request

from websockets.sync.client import connect

from conftest import LiveServer
from toybattle.app.server import build_app
from toybattle.store import Store

d = tempfile.mkdtemp()
srv = LiveServer(build_app(Store(os.path.join(d, "g.sqlite3")), bot_delay=0)).start()
def post(body):
    req = urllib.request.Request(srv.url + "/api/games", json.dumps(body).encode(), {"content-type": "application/json"})
    return json.loads(urllib.request.urlopen(req).read())
times, sizes = [], []
rng = random.Random(1)
for game in range(6):
    g = post({"kind": "hotseat", "terrain": ["castle", "clouds", "battlefield"][game % 3]})
    socks = {}
    for s in ("blue", "red"):
        ws = connect(srv.url.replace("http", "ws") + "/ws"); ws.send(json.dumps({"type": "hello", "game": g["game"], "token": g["tokens"][s]}))
        socks[s] = [ws, None]
        while True:
            m = json.loads(ws.recv())
            if m["type"] == "view": socks[s][1] = m["view"]; break
    while not socks["blue"][1]["over"]:
        actor = socks["blue"][1]["actor"]; other = "red" if actor == "blue" else "blue"
        ws, v = socks[actor]
        a = rng.choice(v["legal"]["actions"])
        t = time.perf_counter(); ws.send(json.dumps({"type": "act", "action": a}))
        while True:
            raw = ws.recv(); m = json.loads(raw)
            if m["type"] == "view": socks[actor][1] = m["view"]; sizes.append(len(raw))
            if m["type"] == "ok": break
        times.append(time.perf_counter() - t)
        m = json.loads(socks[other][0].recv()); socks[other][1] = m["view"]
    for s in socks.values(): s[0].close()
srv.stop()
q = statistics.quantiles(times, n=10)
print(f"actions {len(times)}; act->ok median {statistics.median(times)*1000:.2f} ms, p90 {q[8]*1000:.2f} ms; view median {statistics.median(sizes)/1024:.1f} KiB, max {max(sizes)/1024:.1f} KiB")
