"""Issue 26 item 4: whatever a client sends, the app answers 4xx (or one websocket error line), never
500, and every answer carries the security headers.

Found by fuzzing: deeply nested JSON (Python's parser recurses: RecursionError, a 500 over HTTP and an
"internal error" line on the websocket), a token with a non-ASCII character (``compare_digest``
refuses such a str: TypeError), ``POST /api/games`` with ``{}`` (no kind: TypeError), and the guard's
own refusals (421, 403, 415), sent without the Content-Security-Policy. Real server, real clients.
"""
from __future__ import annotations

import json
import re

import httpx
import pytest
from test_hardening_live import Live
from websockets.sync.client import connect

from toybattle.app import guard, json_api
from toybattle.store import Store

# the limits (docs/protocol.md, "Limits"); read with a default so this file also runs on the code before them
MAX_BODY: int = getattr(guard, "MAX_BODY", 16384)
MAX_DEPTH: int = getattr(json_api, "MAX_DEPTH", 16)

HEADERS = ("content-security-policy", "x-frame-options", "x-content-type-options", "referrer-policy")
JSON = {"content-type": "application/json"}
DEEP = ["[" * 5000 + "]" * 5000, '{"a":' * 2000 + "1" + "}" * 2000, '{"kind": ' + "[" * 3000 + "]" * 3000 + "}",
        "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)]
ODD = ["é", "\u00ff" * 24, "日本語", "x" * 65, "tok\u200ben"]  # in a query, a JSON body, a websocket frame
LONE = "\ud800"  # a lone surrogate: only JSON can carry it


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    store = Store(tmp_path_factory.mktemp("hardening") / "games.sqlite3")
    with Live(store) as server:
        yield server
    store.close()


@pytest.fixture
def client(live):
    with httpx.Client(base_url=live.base, timeout=30) as c:
        yield c


def _fine(r: httpx.Response, *allowed: int) -> dict:
    """A refusal as the protocol has it: 4xx, every security header, one short line of error."""
    where = f"{r.request.method} {r.request.url}"
    assert r.status_code < 500, f"{where}: {r.status_code} {r.text[:200]}"
    if allowed:
        assert r.status_code in allowed, f"{where}: {r.status_code} {r.text[:200]}"
    missing = [h for h in HEADERS if h not in r.headers]
    assert not missing, f"{where} ({r.status_code}) lacks {missing}"
    if r.status_code >= 400 and r.headers.get("content-type", "").startswith("application/json"):
        error = r.json()["error"]
        assert isinstance(error, str) and 0 < len(error) < 300 and "\n" not in error, (where, error)
        return r.json()
    return {}


def _routes(live: Live) -> list[tuple[str, str]]:
    """(method, path) of every route of the product, path parameters filled in."""
    out = []
    for route in live.app.routes:
        path = getattr(route, "path", "")
        for method in sorted(getattr(route, "methods", None) or ()):
            if method != "HEAD":
                out.append((method, re.sub(r"\{[^}]+\}", "x1", path)))
    return out


def _post(client: httpx.Client, path: str, body: object) -> httpx.Response:
    return client.post(path, content=json.dumps(body), headers=JSON)  # json.dumps: lone surrogates escaped


def _game(client: httpx.Client, **body) -> dict:
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def test_deeply_nested_json_bodies_are_refused_with_one_line_on_every_route(live, client):
    g = _game(client, kind="lan")
    posts = [p for m, p in _routes(live) if m == "POST"] + [f"/api/games/{g['game']}/join"]
    assert len(posts) >= 10
    for path in posts:
        for body in DEEP:
            assert len(body.encode()) <= MAX_BODY
            r = client.post(path, content=body, headers=JSON)
            error = _fine(r, 400)["error"]
            assert error == f"JSON nested too deeply (at most {MAX_DEPTH} levels of lists and objects)", (path, error)


def test_a_body_over_the_limit_is_refused_before_it_is_read(client):
    r = client.post("/api/games", content=b'{"kind": "' + b"x" * MAX_BODY + b'"}', headers=JSON)
    assert _fine(r, 413)["error"] == f"a request body is at most {MAX_BODY} bytes"


def test_deeply_nested_json_frames_get_an_error_line_and_the_socket_stays_open(live):
    with connect(live.ws_url) as ws:
        for frame in ["[" * 1500 + "]" * 1500, '{"type": "ping", "id": ' + "[" * 1200 + "]" * 1200 + "}",
                      '{"type": "hello", "game": ' + '{"a":' * 600 + "1" + "}" * 601]:
            ws.send(frame)
            reply = json.loads(ws.recv(timeout=30))
            assert reply["type"] == "error", reply
            assert reply["message"] == f"JSON nested too deeply (at most {MAX_DEPTH} levels of lists and objects)"
        ws.send(json.dumps({"type": "ping", "id": 7}))
        assert json.loads(ws.recv(timeout=30)) == {"type": "pong", "id": 7}


def test_a_token_or_key_of_any_characters_is_just_a_wrong_one(live, client):
    g = _game(client, kind="lan")
    game, host = g["game"], g["tokens"]["blue"]
    for odd in ODD:
        q = {"token": odd}
        for path in ("", "/replay", "/record", "/watch", "/invite"):
            _fine(client.get(f"/api/games/{game}{path}", params=q), 404)
        _fine(client.delete(f"/api/games/{game}", params=q), 404, 415)
        _fine(client.request("DELETE", f"/api/games/{game}", params=q, headers=JSON, content=b"{}"), 404)
        _fine(client.get(f"/api/online/{game}", params=q), 404)
    for odd in [*ODD, LONE]:
        _fine(_post(client, f"/api/games/{game}/join", {"key": odd}), 404, 409)
        for path in ("release", "network"):
            _fine(_post(client, f"/api/games/{game}/{path}", {"token": odd, "open": True}), 404)
        for path in ("close", "claim", "wait", "resume"):
            _fine(_post(client, f"/api/online/{path}", {"game": game, "token": odd}), 400, 404, 409)
    with connect(live.ws_url) as ws:
        for odd in [*ODD, LONE]:
            for hello in ({"type": "hello", "game": game, "token": odd}, {"type": "hello", "game": game, "watch": odd}):
                ws.send(json.dumps(hello))
                reply = json.loads(ws.recv(timeout=30))
                assert reply == {"type": "error", "id": None, "message": "unknown game or token"}, (hello, reply)
        ws.send(json.dumps({"type": "hello", "game": game, "token": host}))
        assert json.loads(ws.recv(timeout=30))["type"] == "welcome"  # the right token still opens the seat


def test_creating_a_game_from_any_object_is_answered_4xx(client):
    bodies = [{}, {"terrain": "castle"}, {"kind": None}, {"kind": 1}, {"kind": []}, {"kind": {}}, {"kind": "x" * 500},
              {"kind": "bot", "level": None}, {"kind": "bot", "first_game": "yes"}, {"kind": "lan", "human": "green"},
              {"kind": "hotseat", "first": 3}, {"kind": "bot", "terrain": "moon"}, {"kind": "é", "terrain": "é"},
              {"kind": "bot", "extra": 1}, {"kind": "bot", "level": "\ud800"}]
    for body in bodies:
        r = client.post("/api/games", content=json.dumps(body), headers=JSON)
        _fine(r, 400, 409)
    assert _fine(client.post("/api/games", json={}), 400)["error"] == "a new game needs \"kind\": bot, hotseat or lan"


def test_every_route_with_bad_input_answers_below_500_with_every_header(live, client):
    g = _game(client, kind="lan")
    bodies = [b"", b"{", b"null", b"[]", b"42", b'"x"', b"\xff\xfe", b'{"a": "\\ud800"}', b"{}",
              json.dumps({"token": g["tokens"]["blue"], "game": g["game"], "key": 3, "open": "yes", "actions": "x",
                          "record": 5, "code": [], "relay": {}, "nonce": 1}).encode()]
    for method, path in _routes(live):
        for concrete in {path, path.replace("x1", g["game"])}:
            if method == "GET":
                _fine(client.get(concrete, params={"token": "nope", "lang": "fr"}))
                continue
            for body in bodies:
                _fine(client.request(method, concrete, content=body, headers=JSON))
    _fine(client.get("/no/such/page"), 404)
    _fine(client.put("/api/games", content=b"{}", headers=JSON), 405)


def test_the_guards_own_refusals_carry_the_security_headers(live, client):
    refusals = [
        (client.get("/", headers={"host": "evil.example"}), 421),
        (client.post("/api/games", json={"kind": "bot"}, headers={"origin": "http://evil.example"}), 403),
        (client.post("/api/games", content=b'{"kind": "bot"}', headers={"content-type": "text/plain"}), 415),
        (client.post("/api/games", content=b"x" * (MAX_BODY + 1), headers=JSON), 413),
    ]
    for r, status in refusals:
        _fine(r, status)
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
        assert r.headers["x-frame-options"] == "DENY"
