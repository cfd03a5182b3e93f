"""Two app servers (`toybattle serve`), each the local process of one player, create and join a
room through the local mailbox; each player's websocket talks only to its own server."""
from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time

import httpx
import pytest
import websockets


def serve(tmp_path, name):
    """A server whose output goes to ``<name>.log`` (a pipe nobody reads could fill and block it)."""
    env = dict(os.environ, TOYBATTLE_DB=str(tmp_path / f"{name}.db"), PYTHONUNBUFFERED="1")
    log = tmp_path / f"{name}.log"
    with open(log, "w") as out:
        p = subprocess.Popen([sys.executable, "-m", "toybattle", "serve", "--port", "0", "--no-browser"],
                             stdout=out, stderr=subprocess.STDOUT, text=True, env=env)
    deadline = time.time() + 30
    while p.poll() is None and time.time() < deadline:
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", log.read_text())
        if m:
            return p, f"127.0.0.1:{m.group(1)}", log
        time.sleep(0.05)
    p.kill()
    raise AssertionError("the app did not start:\n" + log.read_text())


class Trace:
    """What the test saw, and the servers' logs: attached to every failure so it explains itself."""

    def __init__(self, logs):
        self.logs = logs
        self.lines: list[str] = []

    def add(self, who: int, what: str) -> None:
        self.lines.append(f"{'AB'[who]}: {what}")

    def __str__(self) -> str:
        logs = "".join(f"\n--- {p.name}\n{p.read_text()}" for p in self.logs)
        return "\n".join(self.lines[-80:]) + logs


@pytest.fixture
def two_apps(tmp_path):
    procs = [serve(tmp_path, n) for n in ("alice", "bob")]
    yield [addr for _, addr, _ in procs], Trace([log for *_, log in procs])
    for p, *_ in procs:
        p.terminate()
        p.wait(10)


async def _seat(addr, game, token):
    ws = await websockets.connect(f"ws://{addr}/ws")
    await ws.send(json.dumps({"type": "hello", "game": game, "token": token}))
    return ws


async def _next(ws, who: int, trace: Trace) -> dict:
    try:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
    except asyncio.TimeoutError:
        raise AssertionError(f"{'AB'[who]} got nothing for 20 s\n{trace}") from None
    v = msg.get("view") or {}
    trace.add(who, f"{msg['type']} ply={v.get('ply')} turn={v.get('turn')} decision={v.get('decision')} "
                   f"legal={bool(v.get('legal'))} waiting={bool(v.get('waiting'))} {msg.get('message', '')}")
    assert msg["type"] in ("welcome", "view", "ok"), f"{msg}\n{trace}"
    return msg


async def _next_view(ws, who: int, trace: Trace) -> dict:
    while True:
        msg = await _next(ws, who, trace)
        if msg["type"] == "view":
            return msg["view"]


async def _view_before_ok(ws, who: int, trace: Trace) -> dict:
    """The last view sent before the ``ok`` of an action: the protocol sends the change's view first."""
    view = None
    while (msg := await _next(ws, who, trace))["type"] != "ok":
        view = msg.get("view", view)
    assert view is not None, f"ok came before any view\n{trace}"
    return view


async def _any_view(wss, views, trace: Trace) -> None:
    """The next view from either seat: a change in flight may reach either server first."""
    reads = {asyncio.ensure_future(_next_view(ws, i, trace)): i for i, ws in enumerate(wss)}
    done, pending = await asyncio.wait(reads, return_when=asyncio.FIRST_COMPLETED)
    for t in pending:
        t.cancel()  # websockets: cancelling recv() loses no message
    await asyncio.gather(*pending, return_exceptions=True)
    for t in done:
        views[reads[t]] = t.result()


def test_create_and_join_a_room_and_play_moves(two_apps, mailbox):
    (alice, bob), trace = two_apps
    with httpx.Client(timeout=30) as http:
        bad = http.post(f"http://{bob}/api/online/join", json={"code": "nope", "relay": mailbox}).json()
        assert "not a room code" in bad["error"]
        room = http.post(f"http://{alice}/api/online/host", json={"terrain": "castle", "relay": mailbox}).json()
        assert re.match(r"^\d+-[a-z]+-[a-z]+$", room["code"])
        joined = http.post(f"http://{bob}/api/online/join", json={"code": room["code"], "relay": mailbox}).json()
    assert joined["game"] == room["game"] and {room["seat"], joined["seat"]} == {"blue", "red"}

    async def seats():
        wss = [await _seat(alice, room["game"], room["token"]), await _seat(bob, joined["game"], joined["token"])]
        return wss, [await _next_view(ws, i, trace) for i, ws in enumerate(wss)]

    async def play() -> int:
        wss, views = await seats()
        moves = 0
        while moves < 12:
            mover = [i for i in (0, 1) if views[i].get("legal")]
            if not mover or any(v.get("waiting") for v in views):  # a room still opening, or a message in flight
                await _any_view(wss, views, trace)
                continue
            i = mover[0]
            other = views[1 - i]
            assert other["rack"] != [] or other["counts"][other["seat"]]["rack"] == 0, str(trace)
            action = views[i]["legal"]["actions"][0]
            trace.add(i, f"ACT {action}")
            await wss[i].send(json.dumps({"type": "act", "action": action}))
            moves += 1
            after = await _view_before_ok(wss[i], i, trace)
            assert (after["ply"], after["decision"], after["legal"]) != \
                (views[i]["ply"], views[i]["decision"], views[i]["legal"]), f"ok before the move's view\n{trace}"
            for ws in wss:
                await ws.close()
            wss, views = await seats()
        for ws in wss:
            await ws.close()
        return moves

    assert asyncio.run(play()) == 12, str(trace)
