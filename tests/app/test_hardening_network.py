"""Issue 26 item 8: the network listener (a host's "Open to my network", app/lan.py) served every game
of the server, not only the one opened to the network: a device on the network holding any game's
token (or link) could open it, read it, delete it or play it there.

Now a request through the network listener reaches only what a guest's page needs for the game the
network was opened for: its join link, its pages, its status and replay, the websocket (whose hello
names that game only), the page's files and the rules' data. Every other route of the app, listed
from its router, is refused with 404 and the security headers, even given the right token."""
from __future__ import annotations

import json
import re
import socket

import httpx
import pytest
from starlette.routing import Mount, WebSocketRoute
from test_hardening_live import Live
from websockets.sync.client import connect

from toybattle.app import lan
from toybattle.store import Store

HEADERS = ("content-security-policy", "x-frame-options", "x-content-type-options", "referrer-policy")
JSON = {"content-type": "application/json"}
ADDRESS = "127.0.0.2"  # this computer's "network address" for the test: another loopback one, nothing leaves it


@pytest.fixture
def live(tmp_path, monkeypatch):
    monkeypatch.setattr(lan, "local_address", lambda: ADDRESS)
    store = Store(tmp_path / "games.sqlite3")
    with Live(store) as server:
        yield server
    store.close()


def _key(url: str) -> str:
    return url.rsplit("/", 1)[1]


def _refused(r: httpx.Response) -> None:
    where = f"{r.request.method} {r.request.url}"
    assert r.status_code in (403, 404), f"{where} was served to the network: {r.status_code} {r.text[:150]}"
    assert all(h in r.headers for h in HEADERS), f"{where}: refused without the security headers"
    assert isinstance(r.json()["error"], str)


def _fill(path: str, game: str, secret: str) -> str:
    return (path.replace("{game}", game).replace("{token}", secret).replace("{key}", secret)
            .replace("{terrain}", "castle").replace("{lesson}", "star-where"))


# what a guest's page may ask of the shared game (method, path template); the rest is refused
SERVED = {("GET", "/"), ("GET", "/api/meta"), ("GET", "/api/terrains/{terrain}"), ("GET", "/join/{game}/{token}"),
          ("GET", "/invite/{game}/{key}"), ("GET", "/watch/{game}/{key}"), ("GET", "/api/games/{game}"),
          ("GET", "/api/games/{game}/replay"), ("POST", "/api/games/{game}/join")}


def test_the_network_listener_serves_only_the_shared_game(live):
    with httpx.Client(base_url=live.base, timeout=30) as host:
        shared = host.post("/api/games", json={"kind": "lan", "human": "blue", "first": "blue"}).json()
        other = host.post("/api/games", json={"kind": "lan", "human": "blue"}).json()
        hotseat = host.post("/api/games", json={"kind": "hotseat"}).json()
        g, o = shared["game"], other["game"]
        host_token, other_token = shared["tokens"]["blue"], other["tokens"]["blue"]
        r = host.post(f"/api/games/{g}/network", json={"token": host_token, "open": True}).json()
        assert r["open"] and r["address"] == ADDRESS
        invite = host.get(f"/api/games/{g}/invite?token={host_token}").json()["url"]
        other_invite = host.get(f"/api/games/{o}/invite?token={other_token}").json()["url"]
        watch = host.get(f"/api/games/{g}/watch?token={host_token}").json()["url"]
    base = f"http://{ADDRESS}:{r['port']}"
    assert invite.startswith(base)
    secrets = {g: host_token, o: other_token, hotseat["game"]: hotseat["tokens"]["red"]}

    with httpx.Client(base_url=base, timeout=30) as guest:
        # what the guest's page needs: served
        for path in ("/", "/static/js/app.js", "/api/meta", "/api/terrains/castle", invite[len(base):], watch):
            assert guest.get(path).status_code == 200, path
        joined = guest.post(f"/api/games/{g}/join", json={"key": _key(invite)})
        assert joined.status_code == 200, joined.text
        mine = joined.json()["tokens"]["red"]
        assert guest.get(f"/api/games/{g}", params={"token": mine}).json()["seat"] == "red"
        assert all(h in guest.get("/").headers for h in HEADERS)

        # every other route of the app, from its router: refused, even with the right secret
        tried = 0
        for route in live.app.routes:
            if isinstance(route, Mount | WebSocketRoute):
                continue
            for method in sorted(route.methods or ()):
                for game, secret in secrets.items():
                    if method == "HEAD" or ((method, route.path) in SERVED and game == g):
                        continue
                    if (method, route.path) in SERVED and "{game}" not in route.path:
                        continue
                    path = _fill(route.path, game, secret)
                    body = {"token": secret, "key": _key(other_invite), "open": False, "game": game,
                            "kind": "bot", "actions": [], "code": "7-guitarist-revenge", "relay": "ws://127.0.0.1:9/v1"}
                    _refused(guest.request(method, path, params={"token": secret}, content=json.dumps(body),
                                           headers=JSON))
                    tried += 1
        assert tried >= 60
        # nor a join link of another game, nor a page of another game, nor anything off the app's map
        _refused(guest.post(f"/api/games/{o}/join", json={"key": _key(other_invite)}))
        for path in (other_invite[len(base):], f"/join/{o}/{other_token}", "/learn", "/api/lessons", "/api/rules",
                     "/api/games/import", "/nothing/here"):
            _refused(guest.get(path))
        _refused(guest.delete(f"/api/games/{g}", params={"token": mine}))

    # the websocket: the shared game's seat plays; no other game's token opens anything here
    ws_url = f"ws://{ADDRESS}:{r['port']}/ws"
    with connect(ws_url) as ws:
        for game, secret in secrets.items():
            if game == g:
                continue
            ws.send(json.dumps({"type": "hello", "game": game, "token": secret}))
            reply = json.loads(ws.recv(timeout=30))
            assert reply["type"] == "error" and reply["message"] == "unknown game or token", reply
        ws.send(json.dumps({"type": "hello", "game": g, "token": mine}))
        assert json.loads(ws.recv(timeout=30))["type"] == "welcome"

    # and its connections send without delay too (issue 26 item 12)
    with socket.create_connection((ADDRESS, r["port"])) as raw:
        raw.sendall(f"GET /api/meta HTTP/1.1\r\nHost: {ADDRESS}:{r['port']}\r\n\r\n".encode())
        assert re.match(rb"HTTP/1.1 200", raw.recv(100))
        server = live.app.state.ctx.network._server
        accepted = [p.transport.get_extra_info("socket") for p in list(server.server_state.connections)]
        assert accepted and all(s.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) for s in accepted)
