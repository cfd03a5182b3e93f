"""The server process is killed mid-game and started again: every game resumes, no action lost."""
from __future__ import annotations

import contextlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
import urllib.request

import pytest
from websockets.sync.client import connect

from toybattle.rules import parse_record


def start_server(db, bot_delay: str = "0") -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "toybattle", "serve", "--port", "0", "--no-browser", "--db", str(db),
         "--bot-delay", bot_delay],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        start_new_session=True)  # a process group of its own, which end_server() clears away
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        m = re.search(r"(http://127\.0\.0\.1:\d+)/", line or "")
        if m:
            return proc, m.group(1)
        if proc.poll() is not None:
            break
    end_server(proc)
    raise RuntimeError("the server did not start")


def end_server(proc: subprocess.Popen) -> None:
    """Kills what is left of a server started by start_server: itself, and the processes of its bots' pool,
    which outlive a server killed with SIGKILL (they would go on after the tests, one pair per kill)."""
    with contextlib.suppress(ProcessLookupError):  # else the server and all it started are gone already
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(10)


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


class Seat:
    def __init__(self, base: str, game: str, token: str):
        self.ws = connect(base.replace("http", "ws") + "/ws", open_timeout=10)
        self.ws.send(json.dumps({"type": "hello", "game": game, "token": token}))
        self.view = None
        assert self.next("welcome")["type"] == "welcome"
        assert self.next("view")["type"] == "view"

    def next(self, kind: str) -> dict:
        while True:
            m = json.loads(self.ws.recv(timeout=20))
            if m["type"] == "view":
                self.view = m["view"]
            if m["type"] == kind or m["type"] == "error":
                return m

    def act(self, action: str) -> dict:
        self.ws.send(json.dumps({"type": "act", "action": action}))
        return self.next("ok")


@pytest.mark.slow
@pytest.mark.filterwarnings(r"ignore:connect\(\) must be used:DeprecationWarning")
def test_kill_and_restart_resumes_every_game(tmp_path):
    db = tmp_path / "games.sqlite3"
    proc, base = start_server(db)
    try:
        hot = post(base + "/api/games", {"kind": "hotseat", "terrain": "clouds", "first": "blue"})
        bot = post(base + "/api/games", {"kind": "bot", "terrain": "castle", "human": "blue", "first": "blue",
                                         "level": "random"})
        seats = {s: Seat(base, hot["game"], hot["tokens"][s]) for s in ("blue", "red")}
        rng = random.Random(7)
        played = []
        for _ in range(12):
            actor = seats[seats["blue"].view["actor"]]
            other = seats["red" if actor is seats["blue"] else "blue"]
            a = rng.choice(actor.view["legal"]["actions"])
            assert actor.act(a)["type"] == "ok"  # acknowledged: it must survive the kill
            other.next("view")
            played.append(a)
        me = Seat(base, bot["game"], bot["tokens"]["blue"])
        assert me.act(me.view["legal"]["actions"][0])["type"] == "ok"
        while me.view["actor"] != "blue":
            me.next("view")  # the bot has answered: its action is stored too
        bot_ply = me.view["ply"]
        hot_ply = seats["blue"].view["ply"]
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    finally:
        end_server(proc)
    proc, base = start_server(db)
    try:
        blue = Seat(base, hot["game"], hot["tokens"]["blue"])
        red = Seat(base, hot["game"], hot["tokens"]["red"])
        assert blue.view["ply"] == red.view["ply"] == hot_ply
        me = Seat(base, bot["game"], bot["tokens"]["blue"])
        assert me.view["ply"] == bot_ply and me.view["actor"] == "blue"
        # the games go on where they stood
        actor = blue if blue.view["actor"] == "blue" else red
        assert actor.act(actor.view["legal"]["actions"][0])["type"] == "ok"
        assert me.act(me.view["legal"]["actions"][0])["type"] == "ok"
        while me.view["actor"] != "blue" and not me.view["over"]:
            me.next("view")  # the restarted server's bot still plays
    finally:
        proc.terminate()
        proc.wait(10)
        end_server(proc)
    from toybattle.store import Store
    st = Store(db)
    kept = [a for a in parse_record(st.get(hot["game"]).record).actions if not a.startswith("pick:")]
    assert kept[:len(played)] == played and len(kept) == len(played) + 1
    st.close()
