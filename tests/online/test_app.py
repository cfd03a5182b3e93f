"""Two app servers (`toybattle serve`), each the local process of one player, create and join a
room through the local mailbox; each player's websocket talks only to its own server."""
from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys

import httpx
import pytest
import websockets


def serve(tmp_path, name):
    env = dict(os.environ, TOYBATTLE_DB=str(tmp_path / f"{name}.db"), PYTHONUNBUFFERED="1")
    p = subprocess.Popen([sys.executable, "-m", "toybattle", "serve", "--port", "0", "--no-browser"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    for line in p.stdout:
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if m:
            return p, f"127.0.0.1:{m.group(1)}"
    raise AssertionError("the app did not start")


@pytest.fixture
def two_apps(tmp_path):
    procs = [serve(tmp_path, n) for n in ("alice", "bob")]
    yield [addr for _, addr in procs]
    for p, _ in procs:
        p.terminate()
        p.wait(10)


async def _seat(addr, game, token):
    ws = await websockets.connect(f"ws://{addr}/ws")
    await ws.send(json.dumps({"type": "hello", "game": game, "token": token}))
    return ws


async def _next_view(ws):
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
        if msg["type"] == "view":
            return msg["view"]
        assert msg["type"] in ("welcome", "ok"), msg


def test_create_and_join_a_room_and_play_moves(two_apps, mailbox):
    alice, bob = two_apps
    with httpx.Client(timeout=30) as http:
        bad = http.post(f"http://{bob}/api/online/join", json={"code": "nope", "relay": mailbox}).json()
        assert "not a room code" in bad["error"]
        room = http.post(f"http://{alice}/api/online/host", json={"terrain": "castle", "relay": mailbox}).json()
        assert re.match(r"^\d+-[a-z]+-[a-z]+$", room["code"])
        joined = http.post(f"http://{bob}/api/online/join", json={"code": room["code"], "relay": mailbox}).json()
    assert joined["game"] == room["game"] and {room["seat"], joined["seat"]} == {"blue", "red"}

    async def play() -> int:
        wss = [await _seat(alice, room["game"], room["token"]), await _seat(bob, joined["game"], joined["token"])]
        views = [await _next_view(ws) for ws in wss]
        moves = 0
        while moves < 12:
            for i, ws in enumerate(wss):
                while views[i].get("waiting"):
                    views[i] = await _next_view(ws)
            mover = [i for i in (0, 1) if views[i]["legal"]]
            if not mover:
                i = moves % 2
                views[i] = await _next_view(wss[i])
                continue
            i = mover[0]
            other = views[1 - i]
            assert other["rack"] != [] or other["counts"][other["seat"]]["rack"] == 0
            await wss[i].send(json.dumps({"type": "act", "action": views[i]["legal"]["actions"][0]}))
            moves += 1
            views[i] = await _next_view(wss[i])
            for ws in wss:
                await ws.close()
            wss = [await _seat(alice, room["game"], room["token"]), await _seat(bob, joined["game"], joined["token"])]
            views = [await _next_view(ws) for ws in wss]
        for ws in wss:
            await ws.close()
        return moves

    assert asyncio.run(play()) == 12
