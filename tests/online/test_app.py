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
from pathlib import Path

import httpx
import pytest
import websockets


def serve(tmp_path, name, db=None):
    """A server whose output goes to ``<name>.log`` (a pipe nobody reads could fill and block it)."""
    env = dict(os.environ, TOYBATTLE_DB=str(tmp_path / f"{db or name}.db"), PYTHONUNBUFFERED="1")
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
    except TimeoutError:
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
    _, pending = await asyncio.wait(reads, return_when=asyncio.FIRST_COMPLETED)
    for t in pending:
        t.cancel()
    # A read cancelled just as its message came in may still finish with it (asyncio.wait_for before
    # Python 3.12 returns a result that beat the cancellation): such a view is kept, not lost.
    await asyncio.gather(*pending, return_exceptions=True)
    for t, i in reads.items():
        if not t.cancelled():
            views[i] = t.result()


def test_create_and_join_a_room_and_play_moves(two_apps, mailbox):
    (alice, bob), trace = two_apps
    with httpx.Client(timeout=30) as http:
        bad = http.post(f"http://{bob}/api/online/join", json={"code": "nope", "relay": mailbox}).json()
        assert "not a room code" in bad["error"]
        room = http.post(f"http://{alice}/api/online/host", json={"terrain": "castle", "relay": mailbox}).json()
        assert re.match(r"^\d+-[a-z]+-[a-z]+$", room["code"])
        joined = http.post(f"http://{bob}/api/online/join", json={"code": room["code"], "relay": mailbox}).json()
    # each app stores the game under its own local id: the host's id never decides where the joiner stores it
    assert joined["game"] != room["game"] and {room["seat"], joined["seat"]} == {"blue", "red"}

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


PUBLIC = ("ply", "turn", "decision", "stacks", "claimed", "medals", "counts", "discard")


async def _play_on(addrs, seats, moves: int, trace: Trace) -> list[dict]:
    """Play ``moves`` actions (each seat's first legal one) on one socket per seat; the last views."""
    wss = [await _seat(addr, s["game"], s["token"]) for addr, s in zip(addrs, seats, strict=True)]
    views = [await _next_view(ws, i, trace) for i, ws in enumerate(wss)]
    done = 0
    while done < moves:
        mover = [i for i in (0, 1) if views[i].get("legal")]
        if not mover or any(v.get("waiting") or v.get("waiting_peer") for v in views):
            await _any_view(wss, views, trace)
            continue
        i = mover[0]
        action = views[i]["legal"]["actions"][0]
        trace.add(i, f"ACT {action}")
        await wss[i].send(json.dumps({"type": "act", "action": action}))
        views[i] = await _view_before_ok(wss[i], i, trace)
        done += 1
    while views[0]["ply"] != views[1]["ply"] or views[0]["decision"] != views[1]["decision"] \
            or not any(v.get("legal") for v in views):  # the other seat's news is still on its way
        await _any_view(wss, views, trace)
    for ws in wss:
        await ws.close()
    return views


def _agreed(http, addrs, seats, trace):
    """Both apps' stored histories, once the last message in flight has arrived (at most 20 s)."""
    deadline = time.time() + 20
    # the room's state (its code included) is served only with the seat's token (issue 12 item 11)
    assert http.get(f"http://{addrs[0]}/api/online/{seats[0]['game']}").status_code == 404
    while True:
        st = [http.get(f"http://{a}/api/online/{s['game']}", params={"token": s["token"]}).json()
              for a, s in zip(addrs, seats, strict=True)]
        if st[0]["head"] == st[1]["head"] or time.time() > deadline:
            break
        time.sleep(0.1)
    assert st[0]["messages"] == st[1]["messages"] and st[0]["head"] == st[1]["head"], f"{st}\n{trace}"
    return st[0]


def test_resume_a_stored_game_after_both_apps_restart(tmp_path, mailbox):
    procs = [serve(tmp_path, n) for n in ("alice", "bob")]
    trace = Trace([log for *_, log in procs])
    try:
        addrs = [addr for _, addr, _ in procs]
        with httpx.Client(timeout=30) as http:
            room = http.post(f"http://{addrs[0]}/api/online/host", json={"relay": mailbox}).json()
            joined = http.post(f"http://{addrs[1]}/api/online/join",
                               json={"code": room["code"], "relay": mailbox}).json()
            seats = [room, joined]
            before = asyncio.run(_play_on(addrs, seats, 5, trace))
            agreed = _agreed(http, addrs, seats, trace)
            for p, *_ in procs:
                p.kill()
                p.wait(10)
            procs = [serve(tmp_path, n + "2", db=n) for n in ("alice", "bob")]
            trace.logs += [log for *_, log in procs]
            addrs = [addr for _, addr, _ in procs]
            # after the restart each app knows its stored game and its seat's key, and goes back into the
            # game's room by itself, with no code: both are playing again, on the same history
            for a, s, v in zip(addrs, seats, before, strict=True):
                st = http.get(f"http://{a}/api/games/{s['game']}", params={"token": s["token"]}).json()
                assert not st["over"] and st["ply"] == v["ply"], f"{st}\n{trace}"
                _until(http, f"http://{a}/api/online/{s['game']}?token={s['token']}", lambda st: st["playing"],
                       "back in the room")
            assert _agreed(http, addrs, seats, trace)["head"] == agreed["head"]
            url = [f"http://{a}/api/online/resume" for a in addrs]
            # bad input: one line each, and the stored history stays as it was
            bad = [http.post(url[0], json={"game": "nope", "token": room["token"], "relay": mailbox}),
                   http.post(url[0], json={"game": room["game"], "token": joined["token"], "relay": mailbox}),
                   http.post(url[1], json={**joined, "relay": mailbox, "code": "nope"})]
            for r in bad:
                assert r.status_code == 400 and "\n" not in r.json()["error"], r.text
            assert "still connected" in bad[2].json()["error"]
            assert _agreed(http, addrs, seats, trace)["head"] == agreed["head"]
            after = asyncio.run(_play_on(addrs, seats, 5, trace))
            assert after[0]["ply"] > before[0]["ply"], str(trace)
            for was, now in zip(before, after, strict=True):  # each seat's log goes on from where it was
                assert was["log"] and now["log"][:len(was["log"])] == was["log"], f"{was['log']}\n{now['log']}"
                assert len(now["log"]) > len(was["log"])
            assert {k: after[0][k] for k in PUBLIC} == {k: after[1][k] for k in PUBLIC}, str(trace)
            final = _agreed(http, addrs, seats, trace)
            assert final["messages"] > agreed["messages"] and final["playing"], str(trace)
            # the fresh-code resume (a room the mailbox forgot, or both players opened one) is checked
            # through two browsers in test_browser.py
    finally:
        for p, *_ in procs:
            p.terminate()
            p.wait(10)


def _until(http, url, pred, what: str, limit: float = 30):
    deadline = time.time() + limit
    while time.time() < deadline:
        st = http.get(url).json()
        if pred(st):
            return st
        time.sleep(0.1)
    raise AssertionError(f"never {what}: {st}")


def test_a_stalling_peer_never_holds_the_app_past_its_limit(tmp_path, mailbox):
    """Issue 12: a peer that stops answering (yet stays connected) hung the app. Now the room shows a
    deadline; when it passes the player may keep waiting, and then claim the game (won by abandonment,
    the history kept); closing such a room is covered by the same route as for a resumed room."""
    p, addr, _ = serve(tmp_path, "alice")
    stalling = None
    try:
        with httpx.Client(timeout=30) as http:
            room = http.post(f"http://{addr}/api/online/host", json={"relay": mailbox, "move_limit": 2,
                                                                        "reply_limit": 2}).json()
            assert "error" not in room, room
            bad = http.post(f"http://{addr}/api/online/host", json={"relay": mailbox, "move_limit": "soon"})
            assert bad.status_code == 400 and "move_limit" in bad.json()["error"]
            peer = str(Path(__file__).parent / "peer.py")
            stalling = subprocess.Popen([sys.executable, peer, "--stall-after", "0", "--", "join", room["code"],
                                         "--relay", mailbox, "--bot", "random", "--json"],
                                        env=dict(os.environ, TOYBATTLE_DB=str(tmp_path / "bob.db")),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            url = f"http://{addr}/api/online/{room['game']}?token={room['token']}"  # the room's state needs the token
            st = _until(http, url, lambda s: s["deadline"] is not None, "a deadline")
            assert st["deadline"]["seat"] == "red" and st["deadline"]["at"] > time.time() - 1, st
            st = _until(http, url, lambda s: s["silent"], "silent")
            me = {"game": room["game"], "token": room["token"]}
            wrong = http.post(f"http://{addr}/api/online/claim", json={**me, "token": "nope"})
            assert wrong.status_code == 400
            assert http.post(f"http://{addr}/api/online/wait", json=me).json()["wait"]
            st = http.get(url).json()
            assert not st["silent"] and st["deadline"] is not None and not st["over"], st
            _until(http, url, lambda s: s["silent"], "silent again")
            claimed = http.post(f"http://{addr}/api/online/claim", json=me).json()
            assert claimed["result"]["reason"] == "abandonment" and claimed["result"]["winner"] == 0, claimed
            assert "red abandoned the game" in claimed["result"]["detail"], claimed
            game = http.get(f"http://{addr}/api/games/{room['game']}", params={"token": room["token"]}).json()
            assert game["over"], game
            again = http.post(f"http://{addr}/api/online/claim", json=me)
            assert again.status_code == 400 and "not past its time limit" in again.json()["error"]
    finally:
        if stalling:
            stalling.kill()
            stalling.wait()
        p.terminate()
        p.wait(10)
