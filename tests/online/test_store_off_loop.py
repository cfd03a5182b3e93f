"""Issue 12 items 8 and 13 for the app's online games: their storage never blocks the event loop (a
locked games file delays only the online action being stored, while another socket's ping is
answered), and a finished online game leaves memory once no socket watches it."""
from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import sqlite3
import weakref

import httpx
import websockets

from toybattle.online import web
from toybattle.online.mailbox import client

from .conftest import LIMITS, Peer
from .test_mailbox_app import _play_seat, _serve


async def _recv(ws, timeout: float = 60) -> dict:
    return json.loads(await asyncio.wait_for(ws.recv(), timeout))


async def _my_move(ws) -> dict:
    """Views until this seat is asked for a move (the app offers its legal actions)."""
    while True:
        view = (await _recv(ws)).get("view")
        if view and view.get("legal") and not view.get("waiting") and not view.get("over"):
            return view


def test_a_locked_games_file_delays_only_the_online_action_and_the_game_then_leaves_memory(
        mailbox, tmp_path, monkeypatch):
    monkeypatch.setattr(web, "_rooms", client.Rooms)
    cli = Peer(["host", "--relay", mailbox, "--json", *LIMITS, "--bot", "random", "--seed", "offloop"],
               tmp_path / "cli.db")

    async def main() -> None:
        server, addr = await _serve(tmp_path)
        games = server.config.app.state.games
        try:
            async with httpx.AsyncClient(base_url=f"http://{addr}", timeout=60) as http:
                code = await asyncio.to_thread(cli.code)
                seat = (await http.post("/api/online/join", json={"code": code, "relay": mailbox})).json()
                assert "error" not in seat, seat
                session = weakref.ref(games.sessions[seat["game"]])
                hot = (await http.post("/api/games", json={"kind": "hotseat", "terrain": "castle"})).json()
                async with websockets.connect(f"ws://{addr}/ws") as mine, \
                        websockets.connect(f"ws://{addr}/ws") as other:
                    await mine.send(json.dumps({"type": "hello", "game": seat["game"], "token": seat["token"]}))
                    await other.send(json.dumps({"type": "hello", "game": hot["game"],
                                                 "token": hot["tokens"]["blue"]}))
                    view = await _my_move(mine)
                    holder = sqlite3.connect(str(tmp_path / "app.db"), timeout=10, isolation_level=None)
                    holder.execute("BEGIN EXCLUSIVE")  # another process holds the file's write lock
                    try:
                        await mine.send(json.dumps({"type": "act", "action": view["legal"]["actions"][0],
                                                    "id": 1}))
                        # the online game's write now waits for the lock; the server answers everyone else
                        for n in (2, 3):
                            await other.send(json.dumps({"type": "ping", "id": n}))
                            while (msg := await _recv(other, 20))["type"] != "pong":
                                pass
                            assert msg == {"type": "pong", "id": n}
                        with contextlib.suppress(TimeoutError):  # not acknowledged before it is stored
                            while True:
                                assert (msg := await _recv(mine, 0.3))["type"] not in ("ok", "error"), msg
                    finally:
                        holder.execute("COMMIT")
                        holder.close()
                    while (reply := await _recv(mine))["type"] not in ("ok", "error"):
                        pass
                    assert reply == {"type": "ok", "id": 1}
                await _play_seat(addr, seat["game"], seat["token"])  # to the end; its socket then closes
                for _ in range(100):
                    if seat["game"] not in games.sessions:  # the finished game left the live registry
                        break
                    await asyncio.sleep(0.1)
                assert seat["game"] not in games.sessions
                gc.collect()
                assert session() is None, gc.get_referrers(session())
                # its status still answers, read from the games file (and the game leaves memory again)
                status = (await http.get(f"/api/online/{seat['game']}", params={"token": seat["token"]})).json()
                assert status["over"] and status["result"]["reason"] in ("hq", "medals", "stuck"), status
                await asyncio.sleep(0.1)
                assert seat["game"] not in games.sessions
                # the games file keeps it: the page's "Your games" opens it again, finished
                back = await games.fetch(seat["game"])
                assert back is not None and back.over
        finally:
            server.should_exit = True
            await asyncio.sleep(0.3)

    asyncio.run(main())
    assert cli.result()["reason"] in ("hq", "medals", "stuck")
