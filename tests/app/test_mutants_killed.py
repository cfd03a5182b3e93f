"""The request guard's survivors of mutation testing (issue 26, docs/benchmarks.md "Mutation testing"): a
body sent in many pieces is bounded like one sent whole, the bound is exact (MAX_BODY bytes pass, one more
is refused, whether declared or only sent), a well-formed token in a body passes on to its route, and the
Content-Security-Policy says exactly what the page may do."""
from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import pytest
import test_hardening_input as hardening

from toybattle.app.guard import MAX_BODY

JSON = {"content-type": "application/json"}
live, client = hardening.live, hardening.client  # the same server and client fixtures


def padded(size: int) -> bytes:
    """A JSON object of exactly ``size`` bytes, with no kind (so a route that reads it refuses it by 400)."""
    head, tail = b'{"pad": "', b'"}'
    return head + b" " * (size - len(head) - len(tail)) + tail


def pieces(body: bytes, n: int) -> Iterator[bytes]:
    step = max(1, len(body) // n)
    for i in range(0, len(body), step):
        yield body[i:i + step]


@pytest.mark.parametrize("whole", [True, False])
def test_the_body_bound_is_exact_sent_whole_or_in_pieces(client, whole):
    for size, refused in ((MAX_BODY, False), (MAX_BODY + 1, True)):
        body = padded(size)
        assert len(body) == size
        # in pieces the client declares no length (chunked): only the bytes counted as they come can refuse it
        r = client.post("/api/games", headers=JSON, content=body if whole else pieces(body, 40))
        assert (r.status_code == 413) is refused, (size, whole, r.status_code, r.text)
        if not refused:
            assert r.status_code == 400, r.text  # read whole, and its route says what is missing


def test_a_declared_length_over_the_bound_is_refused_before_the_body_is_read(live):
    host, port = live.base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(f"POST /api/games HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
                  f"Content-Length: {MAX_BODY + 1}\r\n\r\n".encode())  # and no body at all
        answer = s.recv(4096).decode("latin-1")
    assert answer.startswith("HTTP/1.1 413"), answer[:200]


def test_a_well_formed_token_in_a_body_reaches_its_route(client):
    made = client.post("/api/games", headers=JSON, json={"kind": "hotseat", "terrain": "castle"}).json()
    token = made["tokens"]["blue"]
    r = client.post(f"/api/games/{made['game']}/join", headers=JSON, content=json.dumps({"key": token}))
    # not the guard's "unknown game or token" for a malformed secret: the route itself answered
    assert r.status_code != 404 or r.json()["error"] != "unknown game or token", r.text
    bad = client.post(f"/api/games/{made['game']}/join", headers=JSON, content=json.dumps({"key": "é" * 3}))
    assert bad.status_code == 404 and bad.json()["error"] == "unknown game or token"


def test_the_content_security_policy_says_exactly_what_the_page_may_do(client, live):
    policy = client.get("/").headers["content-security-policy"]
    parts = dict(p.strip().split(" ", 1) for p in policy.split(";"))
    host = live.base.removeprefix("http://")
    assert parts["default-src"] == "'self'" and parts["script-src"] == "'self'" and parts["img-src"] == "'self'"
    assert parts["connect-src"] == f"'self' ws://{host} wss://{host}"
    assert parts["object-src"] == "'none'" and parts["base-uri"] == "'none'" and parts["form-action"] == "'self'"
    assert parts["frame-ancestors"] == "'none'"
    assert parts["style-src"].startswith("'self'")
    refused = client.post("/api/games", headers={"content-type": "text/plain"}, content=b"x")
    assert refused.status_code == 415
    assert refused.headers["content-security-policy"] == (
        "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
    for answer in (client.get("/"), refused):  # the other security headers, exactly, on every answer
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["referrer-policy"] == "no-referrer"


@pytest.fixture
def guard(tmp_path):
    """The request guard alone, over a fresh context: its decisions asked directly, scope by scope."""
    from toybattle.app.context import AppContext, web_dir
    from toybattle.app.games import Games
    from toybattle.app.guard import Guard
    from toybattle.app.pool import BotPool
    from toybattle.store import Store

    store = Store(str(tmp_path / "games.sqlite3"))
    pool = BotPool(in_process=True)
    yield Guard(lambda *_: None, AppContext(store=store, games=Games(store, pool), web_dir=web_dir()))
    store.close()


def _asked(guard, method: str, path: str, headers: dict[str, str] | None = None, guest: bool = False,
           query: bytes = b""):
    from starlette.datastructures import Headers

    from toybattle.app.lan import GUEST

    scope = {"type": "http", "method": method, "path": path, "query_string": query,
             "headers": [(k.encode(), v.encode()) for k, v in (headers or {}).items()]}
    if guest:
        scope[GUEST] = True
    return guard.refusal(scope, Headers(scope=scope), "127.0.0.1:8765")


def test_a_guest_is_served_only_what_was_shared(guard):
    """Through the network listener: the page and its files are served, a game's own routes are not."""
    assert _asked(guard, "GET", "/", guest=True) is None
    assert _asked(guard, "GET", "/api/games/abc", guest=True)[0] == 404
    assert _asked(guard, "GET", "/api/games/abc") is None  # the same on this computer's own address


def test_reading_is_not_changing_whatever_page_asks(guard):
    """Another site's page may read (GET, HEAD: nothing changes, and the browser keeps the answer from it) but
    not change; only a change must be JSON."""
    other = {"origin": "https://elsewhere.example"}
    assert _asked(guard, "GET", "/api/meta", other) is None
    assert _asked(guard, "HEAD", "/api/meta", {**other, "content-type": "text/plain"}) is None
    assert _asked(guard, "POST", "/api/games", {**other, "content-type": "application/json"})[0] == 403
    assert _asked(guard, "POST", "/api/games", {"content-type": "text/plain"})[0] == 415


def test_a_secret_in_the_query_must_look_like_one(guard):
    """A token, key or watch key in the query that no secret could be is refused before any route; other
    fields, and well-formed secrets, pass on (the route decides whether they open anything)."""
    assert _asked(guard, "GET", "/api/games/abc", query="token=é".encode())[0] == 404
    assert _asked(guard, "GET", "/api/games/abc", query=b"watch=" + b"x" * 200)[0] == 404
    assert _asked(guard, "GET", "/api/games/abc", query=b"token=" + b"a" * 24) is None
    assert _asked(guard, "GET", "/api/games/abc", query="lang=é".encode()) is None
    assert _asked(guard, "GET", "/api/games/abc", query=b"token=") is None  # empty: the route says what is missing
