"""Clocks over real processes and a real local mailbox (issue 28): a side that stalls past its clock is
claimed on time and both sides store the same loss; a false time claim is the claimant's forfeit."""
from __future__ import annotations

import sqlite3

import pytest

BOT = ["--bot", "random"]
pytestmark = pytest.mark.slow


def stored(db) -> tuple[str, str]:
    with sqlite3.connect(db) as c:
        return c.execute("SELECT winner, reason FROM games").fetchone()


def test_a_side_that_stalls_past_its_clock_loses_on_time_on_both_sides(peers, tmp_path):
    """One minute each; the joiner's bot takes 75 s over its first move (its move wait, with a clock, is at
    least its clock's time left, so no silence choice comes first)."""
    host, joiner = peers([*BOT, "--clock", "1+0", "--seed", "h1"], [*BOT, "--seed", "j1"],
                         join_patch=["--think", "75"])
    a, b = host.result(timeout=100), joiner.result(timeout=100)
    assert a["winner"] == b["winner"] == 0, (a, b)
    assert a["reason"] == b["reason"] == "forfeit"
    assert a["detail"] == b["detail"] and "red forfeits: lost on time" in a["detail"]
    assert stored(tmp_path / "host.db") == stored(tmp_path / "join.db")
    assert stored(tmp_path / "host.db")[0] == "blue" and "lost on time" in stored(tmp_path / "host.db")[1]


def test_a_false_time_claim_is_the_claimants_forfeit(peers, tmp_path):
    """The host claims the joiner's clock ran out as soon as the joiner's move is due (after the deal); the
    joiner's own clock shows about a minute left, so the claim is refuted: the host forfeits there."""
    host, joiner = peers([*BOT, "--clock", "1+0", "--seed", "h2"], [*BOT, "--seed", "j2"],
                         host_patch=["--false-flag-after", "3"], join_patch=["--think", "3"])
    a, b = host.result(timeout=100), joiner.result(timeout=100)
    assert b["winner"] == 1 and b["reason"] == "forfeit", b
    assert "blue forfeits: stopped the game saying red's clock had run out" in b["detail"]
    assert a["winner"] == 0 and "red forfeits: lost on time" in a["detail"]  # the claimant's own record
    assert stored(tmp_path / "join.db")[0] == "red"


def test_the_app_hosts_a_game_with_a_clock_and_its_views_carry_both_clocks(mailbox, tmp_path):
    """`POST /api/online/host` with `clock`: a bad one is refused in one line; the joiner (a `toybattle join`
    process) accepts the clock with the game; the page's view carries both clocks and whose runs."""
    import asyncio
    import json
    import os
    import subprocess
    import sys
    import time
    from pathlib import Path

    import httpx
    import websockets

    from .test_app import serve

    proc, addr, _log = serve(tmp_path, "alice")
    joiner = None
    try:
        with httpx.Client(timeout=30) as http:
            for bad in [{"base": 30, "increment": 0}, {"base": 600, "increment": 61}, {"base": 600}, "10+5"]:
                r = http.post(f"http://{addr}/api/online/host", json={"relay": mailbox, "clock": bad})
                assert r.status_code == 400 and "a clock is 60 to 10800 seconds" in r.json()["error"], r.text
            room = http.post(f"http://{addr}/api/online/host",
                             json={"relay": mailbox, "seat": "blue", "clock": {"base": 120, "increment": 3}}).json()
            assert "error" not in room, room
            joiner = subprocess.Popen([sys.executable, str(Path(__file__).parent / "peer.py"), "--think", "30", "--",
                                       "join", room["code"], "--relay", mailbox, "--bot", "random", "--json"],
                                      env=dict(os.environ, TOYBATTLE_DB=str(tmp_path / "bob.db")),
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

            async def clocks() -> dict:
                ws = await websockets.connect(f"ws://{addr}/ws")
                await ws.send(json.dumps({"type": "hello", "game": room["game"], "token": room["token"]}))
                end = time.time() + 40
                try:
                    while time.time() < end:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), 40))
                        c = ((msg.get("view") or {}).get("game") or {}).get("clock")
                        if c and c["running"]:
                            return c
                finally:
                    await ws.close()
                raise AssertionError("no view with a running clock")

            c = asyncio.run(clocks())
            status = http.get(f"http://{addr}/api/online/{room['game']}", params={"token": room["token"]}).json()
            assert status["clock"]["base"] == 120 and set(status["clock"]["left"]) == {"blue", "red"}
        assert c["base"] == 120 and c["increment"] == 3 and set(c["left"]) == {"blue", "red"}
        assert c["running"] in ("blue", "red") and abs(c["at"] - time.time()) < 40
        assert all(0 < s <= 120 + 3 * 5 for s in c["left"].values())
    finally:
        if joiner is not None:
            joiner.kill()
            joiner.wait()
        proc.terminate()
        proc.wait(10)
