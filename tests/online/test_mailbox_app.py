"""The app's online rooms (toybattle.online.web) over the pure-Python wormhole client, as the static
site's worker runs them (there with the browser's WebSocket, here with the websockets library): a seat
played through the app's API and websocket finishes a whole game against `toybattle host --bot`."""
from __future__ import annotations

import asyncio
import json

import httpx
import uvicorn
import websockets

from toybattle.assembly import build_app
from toybattle.online import web
from toybattle.online.mailbox import client
from toybattle.store import Store

from .conftest import LIMITS, Peer


async def _serve(tmp_path) -> tuple[uvicorn.Server, str]:
    server = uvicorn.Server(uvicorn.Config(build_app(Store(str(tmp_path / "app.db")), bot_delay=0),
                                           host="127.0.0.1", port=0, log_level="warning"))
    asyncio.get_running_loop().create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    return server, f"127.0.0.1:{port}"


async def _play_seat(addr: str, game: str, token: str) -> list[str]:
    """Play the seat's first offered action at every decision until the game is over; every frame read."""
    frames: list[str] = []
    acted: set[tuple] = set()
    async with websockets.connect(f"ws://{addr}/ws") as ws:
        await ws.send(json.dumps({"type": "hello", "game": game, "token": token}))
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), 60)
            except TimeoutError:
                raise AssertionError("the app sent nothing for 60 s; last frames:\n" + "\n".join(frames[-6:])) from None
            frames.append(raw)
            msg = json.loads(raw)
            view = msg.get("view")
            if msg.get("type") == "error":
                acted.clear()  # refused (say, sent before the seat was asked): the next view is played again
            if not view:
                continue
            if view.get("over"):
                return frames
            key = (view.get("ply"), json.dumps(view.get("decision")))
            if view.get("legal") and not view.get("waiting") and key not in acted:
                acted.add(key)
                await ws.send(json.dumps({"type": "act", "action": view["legal"]["actions"][0]}))


def test_the_apps_online_rooms_play_a_whole_game_over_this_client(mailbox, tmp_path, monkeypatch):
    monkeypatch.setattr(web, "_rooms", client.Rooms)  # what the site's worker gets (with its own socket)
    cli = Peer(["host", "--relay", mailbox, "--json", *LIMITS, "--bot", "random", "--seed", "app"],
               tmp_path / "cli.db")

    async def main() -> tuple[dict, list[str]]:
        server, addr = await _serve(tmp_path)
        try:
            async with httpx.AsyncClient(base_url=f"http://{addr}", timeout=60) as http:
                code = await asyncio.to_thread(cli.code)
                bad = (await http.post("/api/online/join", json={"code": code + "x", "relay": mailbox})).json()
                assert bad["error"].startswith("no room ") or bad["error"].startswith("wrong code "), bad
                cli2 = Peer(["host", "--relay", mailbox, "--json", *LIMITS, "--bot", "random",
                             "--seed", "app2"], tmp_path / "cli2.db")
                code = await asyncio.to_thread(cli2.code)
                seat = (await http.post("/api/online/join", json={"code": code, "relay": mailbox})).json()
                assert "error" not in seat, seat
                frames = await _play_seat(addr, seat["game"], seat["token"])
                for _ in range(100):
                    status = (await http.get(f"/api/online/{seat['game']}", params={"token": seat["token"]})).json()
                    if status["over"]:
                        break
                    await asyncio.sleep(0.1)
                cli_result = await asyncio.to_thread(cli2.result)
                return {"status": status, "cli": cli_result, "seat": seat}, frames
        finally:
            server.should_exit = True
            await asyncio.sleep(0.3)

    got, frames = asyncio.run(main())
    status, cli_result = got["status"], got["cli"]
    assert status["over"] and status["result"]["reason"] in ("hq", "medals", "stuck")
    for k in ("winner", "reason", "head", "messages"):
        assert status["result"][k] == cli_result[k], (k, status, cli_result)
    assert frames  # each side stores the game under its own local id: the head hash above is what they share
    cli.finish()  # the first room: its wrong-code guest closed it
