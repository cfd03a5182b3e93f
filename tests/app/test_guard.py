"""Issue 12 item 11: what a hostile web page can do through a player's local server.

Each attack is replayed as a browser would send it: a cross-site form or fetch (text/plain body,
another site's Origin), a cross-site websocket, a page re-pointing its own name at 127.0.0.1 (DNS
rebinding: the Host header names the attacker's site), framing, a relay address as a port probe."""
from __future__ import annotations

import base64
import hashlib
import json
import re
import socket

import pytest
from app_harness import LOCAL, WS, SeatSocket, new_game
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from toybattle.app.context import web_dir
from toybattle.app.guard import relay_url
from toybattle.assembly import build_app as build_product

EVIL = "http://evil.example"


@pytest.fixture
def product(store):
    """The whole product (Learn and online rooms plugged in)."""
    app = build_product(store, bot_delay=0, resume=False)
    with TestClient(app, base_url=LOCAL) as c:
        c.ctx = app.state.ctx
        yield c


def test_a_text_plain_body_creates_nothing(client, store):
    # a form or a "simple" fetch from any site can send text/plain with no preflight
    body = json.dumps({"kind": "hotseat"})
    r = client.post("/api/games", content=body, headers={"content-type": "text/plain"})
    assert r.status_code == 415 and "application/json" in r.json()["error"]
    assert store.unfinished() == []
    assert client.post("/api/games", content=body, headers={"content-type": "application/json"}).status_code == 200


def test_a_text_plain_body_opens_no_room_and_dials_nothing(product):
    for route in ("host", "join", "resume", "close"):
        r = product.post(f"/api/online/{route}", content=json.dumps({"relay": "ws://127.0.0.1:22/v1", "code": "1-a-b"}),
                         headers={"content-type": "text/plain;charset=UTF-8"})
        assert r.status_code == 415, (route, r.text)
    assert product.ctx.games.sessions == {}


def test_another_sites_page_cannot_post(client, store):
    r = client.post("/api/games", json={"kind": "hotseat"}, headers={"origin": EVIL})
    assert r.status_code == 403 and "another site" in r.json()["error"]
    r = client.post("/api/games", json={"kind": "hotseat"}, headers={"origin": "null"})  # a sandboxed frame
    assert r.status_code == 403
    assert store.unfinished() == []
    own = client.post("/api/games", json={"kind": "hotseat"}, headers={"origin": LOCAL})
    assert own.status_code == 200


def test_another_sites_page_cannot_open_the_websocket(client):
    g = new_game(client, kind="hotseat")
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(WS, headers={"origin": EVIL}) as ws:
        ws.send_json({"type": "hello", "game": g["game"], "token": g["tokens"]["blue"]})
        ws.receive_json()
    with client.websocket_connect(WS, headers={"origin": LOCAL}) as ws:  # the player's own page
        ws.send_json({"type": "ping", "id": 1})
        assert ws.receive_json() == {"type": "pong", "id": 1}


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8765", "192.168.1.20:8765", "bad host", "x:99999"])
def test_dns_rebinding_is_refused(store, host):
    from toybattle.app.server import build_app
    with TestClient(build_app(store, bot_delay=0), base_url=LOCAL) as c:
        g = new_game(c, kind="hotseat")
        for path in ("/", f"/api/games/{g['game']}?token={g['tokens']['blue']}", "/api/meta"):
            r = c.get(path, headers={"host": host})
            assert r.status_code == 421 and "own address" in r.json()["error"], (host, path)
        with pytest.raises(WebSocketDisconnect), c.websocket_connect(WS, headers={"host": host}) as ws:
            ws.receive_json()


@pytest.mark.parametrize("host", ["127.0.0.1:8765", "localhost:8765", "[::1]:8765", "LOCALHOST", "127.0.0.1"])
def test_the_servers_own_names_are_served(client, host):
    assert client.get("/api/meta", headers={"host": host}).status_code == 200


def test_the_network_address_is_served_only_when_the_app_listens_on_the_network(store, monkeypatch):
    from toybattle.app.server import build_app
    monkeypatch.setattr(socket, "gethostname", lambda: "den")
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a: [(socket.AF_INET, 1, 6, "", ("192.168.1.20", 0))])
    with TestClient(build_app(store, bot_delay=0, bind_host="0.0.0.0"), base_url=LOCAL) as c:
        for host in ("192.168.1.20:8765", "den:8765"):
            assert c.get("/api/meta", headers={"host": host}).status_code == 200
        assert c.get("/api/meta", headers={"host": "evil.example"}).status_code == 421
    with TestClient(build_app(store, bot_delay=0), base_url=LOCAL) as c:  # loopback only
        assert c.get("/api/meta", headers={"host": "192.168.1.20:8765"}).status_code == 421


def test_pages_carry_a_content_security_policy_and_refuse_framing(product):
    for path in ("/", "/learn", "/api/meta", "/static/js/app.js"):
        r = product.get(path)
        assert r.status_code == 200, path
        csp = r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and r.headers["x-frame-options"] == "DENY"
        assert "script-src 'self';" in csp and "unsafe" not in csp
        assert "default-src 'self'" in csp and "connect-src 'self' ws://127.0.0.1 " in csp
        assert r.headers["referrer-policy"] == "no-referrer"
    # the pages load their scripts as files, never inline; a page's own style block, if any, is hashed
    for page in web_dir().glob("*.html"):
        text = page.read_text("utf-8")
        assert not re.search(r"<script(?![^>]*\bsrc=)", text), page.name
        assert not re.search(r"\son[a-z]+=", text), page.name
        for block in re.findall(r"<style>(.*?)</style>", text, re.S):
            digest = base64.b64encode(hashlib.sha256(block.encode()).digest()).decode()
            assert f"'sha256-{digest}'" in product.get("/learn").headers["content-security-policy"]


@pytest.mark.parametrize("bad", ["http://relay.example/v1", "ws://user:pw@relay.example:4000/v1", "ws://relay.example:0/v1",
                                 "ws://relay.example:99999/v1", "ws://re lay.example/v1", "ws://relay.example/v1?x=1",
                                 "ws://../v1", "ws://[nope]:4000/v1", "file:///etc/passwd", "ws://", "ws://a\nb/v1",
                                 "x" * 300, 42, None])
def test_relay_addresses_are_checked(bad):
    with pytest.raises(ValueError):
        relay_url(bad)


@pytest.mark.parametrize("good", ["ws://relay.magic-wormhole.io:4000/v1", "wss://relay.example/v1", "ws://127.0.0.1:4000/v1",
                                  "ws://[::1]:4000/v1", " ws://relay.example:4000 "])
def test_good_relay_addresses_pass(good):
    assert relay_url(good) == good.strip()


def test_a_malformed_relay_is_refused_before_anything_is_dialled(product):
    r = product.post("/api/online/host", json={"relay": "ws://user:pw@127.0.0.1:22/v1"})
    assert r.status_code == 400 and "mailbox address" in r.json()["error"] and "\n" not in r.json()["error"]
    assert product.ctx.games.sessions == {}


def test_seat_data_needs_the_seats_token(client):
    g = new_game(client, kind="lan", first="blue")
    for path in (f"/api/games/{g['game']}", f"/api/games/{g['game']}/invite", f"/api/games/{g['game']}/replay"):
        assert client.get(path).status_code == 404
        assert client.get(path + "?token=nope").status_code == 404
    SeatSocket(client, g["game"], g["tokens"]["blue"]).close()
