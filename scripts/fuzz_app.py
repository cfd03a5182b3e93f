#!/usr/bin/env python3
"""Fuzz the real app over HTTP and its websocket (issue 26): no internal error, no 500, no traceback.

Starts ``toybattle serve`` as a subprocess (``sys.executable -m toybattle serve --no-browser --port 0
--db TMP``), creates real games (a bot game, a hot-seat game, two-device games, one joined, a lesson)
so that valid game ids, seat tokens, invite and watch keys are at hand, then lets hypothesis draw:

- HTTP: every route of the app's router (read from ``toybattle.assembly.build_app``'s routes, plus a
  few paths no route serves), with its own methods and others, path parameters (valid ids, tokens,
  keys, or junk: non-ASCII, percent escapes, up to ~100 KB), a query (token/key/watch/lang/...), headers
  (Content-Type, Origin, Host, Accept-Language, sometimes wrong) and a body: valid-shaped objects
  whose fields have wrong types, recursive JSON, raw nesting up to 10,000 levels, huge texts, numbers
  and arrays up to ~100 KB, random bytes, invalid UTF-8, lone surrogates, NaN;
- websocket: connections with a valid ``hello`` (each seat of each game, a watch key) or without,
  then frames: valid-shaped messages of every type with wrong field types, legal and illegal
  actions, chat lines, the same raw JSON horrors, binary frames and frames over the 64 KiB limit.
  After every fuzz frame a ``ping`` with a fresh id is sent and the replies are read up to its
  ``pong``, so every reply is attributed to its frame.

Counted: HTTP status codes, 5xx, dropped connections, websocket closes (1009 is expected for a
frame over the socket's 65,536-byte limit, 1008 for a wrong Origin), any websocket reply saying
"internal error" and any traceback or ERROR line in the server's log (its stderr). Exit status 1 if
there is any 5xx, internal error, unexpected drop or traceback.

    .venv/bin/python scripts/fuzz_app.py                         # 10,000 + 10,000 (the issue's figure)
    .venv/bin/python scripts/fuzz_app.py --http 500 --ws 500     # a quick run

The server runs with ``TOYBATTLE_RELAY=ws://127.0.0.1:9/v1`` (a closed local port), so an online
room the fuzz opens never dials the public mailbox. The network route (``POST
/api/games/{game}/network``) is never sent ``open: true`` with a valid host token: that would open a
listener on this machine's network address.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

FRAME_LIMIT = 65536  # the server's websocket frame limit (uvicorn ws_max_size)
TERRAINS = ["castle", "pool", "clouds", "jungle", "cemetery", "caribbean", "station", "battlefield", "croisette"]
WS_TYPES = ["hello", "act", "undo", "concede", "rematch", "hint", "chat", "ping"]
FIELDS = ["kind", "terrain", "first_game", "first", "human", "level", "key", "token", "open", "record",
          "actions", "nonce", "seat", "relay", "move_limit", "reply_limit", "code", "game", "watch", "lang"]
WS_FIELDS = ["type", "game", "token", "watch", "lang", "action", "ply", "id", "text", "phrase"]
ODD = ["", " ", "\x00", "\n", "null", "../../etc/passwd", "%00", "%ff", "<script>alert(1)</script>", "💥",
       "é", "\u202e", "\ud800", "\uffff", "日本語", "ﬁ", "A" * 65, "x" * 300, "NaN", "-0", "1e999",
       "random", "blue", "red", "bot", "hotseat", "lan", "online", "en", "fr", "draw", "7@18", "use", "skip",
       "luck", "gg", "ws://127.0.0.1:9/v1", "wss://", "ws://[::1", "7-guitarist-revenge", "castle"]


# ---------------------------------------------------------------- the server

class Server:
    """``toybattle serve`` in a subprocess; its stderr goes to a file read at the end."""

    def __init__(self, workdir: Path) -> None:
        self.log_path = workdir / "server.log"
        self.log = open(self.log_path, "wb")  # noqa: SIM115 (the server writes to it until stop())
        env = dict(os.environ, TOYBATTLE_RELAY="ws://127.0.0.1:9/v1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "toybattle", "serve", "--no-browser", "--port", "0",
             "--db", str(workdir / "games.sqlite3"), "--bot-delay", "0"],
            stdout=subprocess.PIPE, stderr=self.log, env=env)
        line = self.proc.stdout.readline().decode()  # type: ignore[union-attr]
        m = re.search(r"http://([\d.]+):(\d+)/", line)
        if not m:
            self.stop()
            raise SystemExit(f"the server did not start: {line!r}; log: {self.log_path.read_text()[-2000:]}")
        self.host, self.port = m[1], int(m[2])
        self.base = f"http://{self.host}:{self.port}"
        self.ws = f"ws://{self.host}:{self.port}/ws"
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()  # type: ignore[union-attr]

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.log.close()


def app_routes() -> list[tuple[str, list[str]]]:
    """Every route of the assembled app: (path template, methods)."""
    from starlette.routing import Mount, Route, WebSocketRoute

    from toybattle.assembly import build_app
    from toybattle.store import Store
    with tempfile.TemporaryDirectory() as d:
        store = Store(Path(d) / "routes.sqlite3")
        try:
            app = build_app(store, resume=False)
        finally:
            store.close()
    out: list[tuple[str, list[str]]] = []
    for r in app.routes:
        if isinstance(r, Route):
            out.append((r.path, sorted(r.methods or ["GET"])))
        elif isinstance(r, Mount):
            out.append((r.path + "/{path}", ["GET", "HEAD"]))
        elif isinstance(r, WebSocketRoute):
            out.append((r.path, ["GET"]))  # an HTTP request to the websocket's path
    return out


# ---------------------------------------------------------------- real games (valid ids and secrets)

class Pool:
    """Real games to aim at: ids, tokens, keys; made again now and then (fuzz may end or delete them)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.levels: list[str] = []
        self.lessons: list[str] = []
        self.refresh()

    def _post(self, c: httpx.Client, path: str, body: dict[str, Any]) -> dict[str, Any]:
        r = c.post(path, json=body)
        r.raise_for_status()
        return r.json()

    def refresh(self) -> None:
        with httpx.Client(base_url=self.base, timeout=60) as c:
            if not self.levels:
                self.levels = [lv["name"] for lv in c.get("/api/meta").json()["levels"]]
                got = c.get("/api/lessons").json()
                items = got.get("lessons", got) if isinstance(got, dict) else got
                self.lessons = [x["id"] for x in items if isinstance(x, dict) and "id" in x][:5]
            bot = self._post(c, "/api/games", {"kind": "bot", "terrain": "castle", "level": self.levels[0],
                                               "first": "blue", "human": "blue"})
            hot = self._post(c, "/api/games", {"kind": "hotseat", "terrain": "jungle", "first": "blue"})
            lan = self._post(c, "/api/games", {"kind": "lan", "terrain": "pool", "first": "blue", "human": "blue"})
            lan2 = self._post(c, "/api/games", {"kind": "lan", "terrain": "clouds", "first": "red", "human": "red"})
            host = lan["tokens"]["blue"]
            key = c.get(f"/api/games/{lan['game']}/invite", params={"token": host}).json()["url"].rsplit("/", 1)[1]
            guest = self._post(c, f"/api/games/{lan['game']}/join", {"key": key})["tokens"]["red"]
            host2 = lan2["tokens"]["red"]
            key2 = c.get(f"/api/games/{lan2['game']}/invite", params={"token": host2}).json()["url"].rsplit("/", 1)[1]
            watch = c.get(f"/api/games/{lan['game']}/watch", params={"token": host}).json()["url"].rsplit("/", 1)[1]
        self.games = [bot["game"], hot["game"], lan["game"], lan2["game"]]
        self.seats = [(bot["game"], bot["tokens"]["blue"]), (hot["game"], hot["tokens"]["blue"]),
                      (hot["game"], hot["tokens"]["red"]), (lan["game"], host), (lan["game"], guest),
                      (lan2["game"], host2)]
        self.hosts = {lan["game"]: host, lan2["game"]: host2}
        self.tokens = [t for _, t in self.seats]
        self.keys = [key, key2, watch]
        self.watch = (lan["game"], watch)


# ---------------------------------------------------------------- strategies

def text_values() -> st.SearchStrategy[str]:
    return st.one_of(st.text(max_size=30), st.sampled_from(ODD),
                     st.text(st.characters(min_codepoint=0x80), max_size=20),
                     st.builds(lambda c, n: c * n, st.characters(), st.integers(0, 100_000)))


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(-2**70, 2**70),
                    st.floats(allow_nan=True, allow_infinity=True), text_values())
JSON_VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.one_of(st.sampled_from(FIELDS + WS_FIELDS), st.text(max_size=8)),
                                                 inner, max_size=5)), max_leaves=15)


def q(text: str) -> str:
    """Percent-encoded, lone surrogates included (as the invalid UTF-8 they make)."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


def dumps(value: Any, ascii_only: bool) -> str:
    return json.dumps(value, ensure_ascii=ascii_only)


@st.composite
def deep(draw: st.DrawFn) -> str:
    """Nesting as raw text, up to 10,000 levels: lists, objects, mixed, closed or not, inside a field."""
    depth = draw(st.one_of(st.integers(1, 40), st.integers(1, 10_000), st.sampled_from([16, 17, 999, 1000, 10_000])))
    shape = draw(st.sampled_from(["list", "object", "mixed", "field"]))
    closed = draw(st.booleans()) or draw(st.booleans())
    if shape == "list":
        opens, closes = "[" * depth, "]" * depth
    elif shape == "object":
        opens, closes = '{"a":' * depth, "}" * depth
    elif shape == "mixed":
        opens, closes = '[{"a":' * (depth // 2 + 1), "}]" * (depth // 2 + 1)
    else:
        field = draw(st.sampled_from(FIELDS + WS_FIELDS))
        opens, closes = f'{{"type": "act", "{field}": ' + "[" * depth, "]" * depth + "}"
    return opens + draw(st.sampled_from(["1", '"x"', "null", "", "{}"])) + (closes if closed else closes[: depth // 2])


@st.composite
def huge(draw: st.DrawFn) -> str:
    """Up to ~100 KB: a long text in a field, many keys, a long number, long whitespace, a long array."""
    n = draw(st.one_of(st.integers(0, 5000), st.integers(0, 100_000), st.sampled_from([4096, 4097, 16384, 65536])))
    ch = draw(st.one_of(st.sampled_from("a é💥\\\"\x00"), st.characters()))
    field = draw(st.sampled_from(FIELDS + WS_FIELDS))
    kind = draw(st.sampled_from(["text", "keys", "number", "space", "array", "escapes"]))
    if kind == "text":
        return json.dumps({"type": "chat", field: ch * n}, ensure_ascii=draw(st.booleans()))
    if kind == "keys":
        return "{" + ",".join(f'"k{i}":{i}' for i in range(n // 8)) + "}"
    if kind == "number":
        return '{{"{}": {}}}'.format(field, "9" * max(1, n))
    if kind == "space":
        return " " * n + '{"type": "ping"}'
    if kind == "array":
        return '{{"{}": [{}]}}'.format(field, ",".join(["0"] * (n // 2)))
    return '{{"{}": "{}"}}'.format(field, "\\u0041" * (n // 6))


def raw_json(shaped: st.SearchStrategy[Any]) -> st.SearchStrategy[str | bytes]:
    """A body or frame: valid-shaped, any JSON, deep, huge, broken, bytes."""
    return st.one_of(
        st.builds(dumps, shaped, st.booleans()),
        st.builds(dumps, shaped, st.booleans()),
        st.builds(dumps, JSON_VALUES, st.booleans()),
        deep(), huge(),
        st.sampled_from(['{"kind": "\\ud800"}', '{"type": "hello", "game": "\\udfff"}', "NaN", "[NaN, Infinity]",
                         '{"a": 1, "a": 2}', "{", "}", "", "nul", '{"kind":}', "\ufeff{}", '{"kind": "bot"}\x00',
                         '{"type": "ping"} trailing', "[" * 17 + "]" * 17, "1" * 5000, "-" + "1" * 4400]),
        st.binary(max_size=300),
        st.builds(lambda s: s.encode("utf-8", "surrogatepass") + b"\xff\xfe", st.text(max_size=40)),
        text_values(),
    )


def http_body_shape(pool: Pool) -> st.SearchStrategy[Any]:
    secret = st.one_of(st.sampled_from(pool.tokens + pool.keys), text_values(), JSON_VALUES)
    plausible = {
        "kind": st.sampled_from(["bot", "hotseat", "lan", "online", "BOT"]),
        "terrain": st.sampled_from(TERRAINS + ["random", "nowhere"]),
        "first_game": st.booleans(), "first": st.sampled_from(["random", "blue", "red", "green"]),
        "human": st.sampled_from(["random", "blue", "red"]),
        # the weakest levels, mostly: every bot game the fuzz makes may start its bot
        "level": st.sampled_from(pool.levels[:2] * 4 + pool.levels + ["nobody"]),
        "key": secret, "token": secret, "watch": secret, "open": st.booleans(),
        "record": st.one_of(text_values(), st.sampled_from(["1. draw", "terrain castle\n", ""])),
        "actions": st.lists(st.one_of(st.sampled_from(["draw", "7@18", "use", "skip", "x" * 41]), SCALARS), max_size=8),
        "nonce": text_values(), "seat": st.sampled_from(["blue", "red", "green"]),
        "relay": st.sampled_from(["ws://127.0.0.1:9/v1", "http://x", "ws://", "ws://[zz]:1/", "ws://a:99999/"]),
        "move_limit": st.one_of(st.integers(-5, 10**6), st.floats()),
        "reply_limit": st.one_of(st.integers(-5, 10**6), st.floats()),
        "code": text_values(), "game": st.one_of(st.sampled_from(pool.games), text_values(), JSON_VALUES),
        "lang": st.sampled_from(["en", "fr", "xx"]),
    }
    field_value = {k: st.one_of(v, v, JSON_VALUES) for k, v in plausible.items()}
    return st.one_of(
        st.fixed_dictionaries({}, optional=field_value),
        st.fixed_dictionaries({"kind": plausible["kind"]},
                              optional={k: v for k, v in field_value.items() if k != "kind"}),
        JSON_VALUES,
    )


@st.composite
def path_param(draw: st.DrawFn, name: str, pool: Pool, ids: list[str]) -> str:
    choice = draw(st.integers(0, 9))
    if choice < 5 and ids:
        return draw(st.sampled_from(ids))
    if choice < 7:
        return q(draw(text_values().filter(lambda s: len(s) < 2000)) or "x")
    if choice < 8:
        return draw(st.sampled_from(["..", "%2e%2e", "%00", "%ff%fe", "a%2Fb", "%", "%zz", "~", "-", "0" * 64]))
    n = draw(st.sampled_from([100, 1000, 8000, 20_000, 100_000]))
    return "a" * n


@st.composite
def http_request(draw: st.DrawFn, routes: list[tuple[str, list[str]]], pool: Pool, server: Server) -> dict[str, Any]:
    path, methods = draw(st.sampled_from(routes + [("/nothing/{game}", ["GET"]), ("/api/{game}", ["POST"])]))
    method = draw(st.one_of(st.sampled_from(methods), st.sampled_from(methods),
                            st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"])))
    ids = {"game": pool.games, "token": pool.tokens, "key": pool.keys, "terrain": TERRAINS,
           "lesson": pool.lessons, "path": ["js/app.js", "css/app.css", "../../pyproject.toml"]}
    url = path
    for name in re.findall(r"{(\w+)(?::\w+)?}", path):
        value = draw(path_param(name, pool, ids.get(name, [])))
        url = re.sub(rf"{{{name}(?::\w+)?}}", lambda _, v=value: v, url, count=1)
    query = draw(st.lists(st.tuples(st.sampled_from(["token", "key", "watch", "lang", "x", ""]),
                                    st.one_of(st.sampled_from(pool.tokens + pool.keys + ["fr", "en"]), text_values())),
                          max_size=3))
    if query:
        url += "?" + "&".join(f"{q(k)}={q(v[:20_000])}" for k, v in query)
    headers: dict[str, bytes] = {}
    ctype = draw(st.sampled_from(["application/json"] * 6 + ["application/json; charset=latin-1", "text/plain",
                                                            "", "APPLICATION/JSON", "multipart/form-data"]))
    if ctype:
        headers["content-type"] = ctype.encode()
    extra = draw(st.sampled_from(["none"] * 6 + ["origin-bad", "origin-good", "host-bad", "lang", "length-lie"]))
    if extra == "origin-bad":
        headers["origin"] = b"http://evil.example"
    elif extra == "origin-good":
        headers["origin"] = server.base.encode()
    elif extra == "host-bad":
        headers["host"] = draw(st.sampled_from([b"evil.example", b"127.0.0.1.evil", b"", b"[::1"]))
    elif extra == "lang":
        headers["accept-language"] = draw(text_values()).encode("utf-8", "surrogatepass")[:4000]
    body: bytes | None = None
    if method not in ("GET", "HEAD") or draw(st.integers(0, 9)) == 0:
        raw = draw(raw_json(http_body_shape(pool)))
        body = raw if isinstance(raw, bytes) else raw.encode("utf-8", "surrogatepass")
    if extra == "length-lie" and body is not None:
        headers["content-length"] = draw(st.sampled_from([b"99999999", b"-1", b"abc", b"5",
                                                          str(len(body) + 10).encode()]))
    # never open this machine's network listener with a real host token
    if "/network" in url and body is not None:
        body = body.replace(b"true", b"false")
    return {"method": method, "url": url, "headers": headers, "body": body}


LEGAL = "\x00legal action\x00"  # in a drawn frame: replaced by one of the legal actions of the latest view


def ws_shape(pool: Pool) -> st.SearchStrategy[Any]:
    game, token = st.sampled_from(pool.games), st.sampled_from(pool.tokens)
    action = st.one_of(st.just(LEGAL), st.sampled_from(["draw", "7@18", "use", "skip", "jumbo@19",
                                                                            "recall@17", "shove@19>22", "recover:5"]),
                       text_values(), JSON_VALUES)
    plausible = {
        "game": st.one_of(game, game, text_values(), JSON_VALUES),
        "token": st.one_of(token, token, text_values(), JSON_VALUES),
        "watch": st.one_of(st.sampled_from(pool.keys), text_values(), JSON_VALUES),
        "lang": st.one_of(st.sampled_from(["en", "fr", "xx"]), JSON_VALUES), "action": action,
        "ply": st.one_of(st.integers(-2, 60), JSON_VALUES),
        "id": st.one_of(st.integers(), st.integers(-2**60, 2**60), text_values(), JSON_VALUES),
        "text": st.one_of(text_values(), JSON_VALUES),
        "phrase": st.one_of(st.sampled_from(["luck", "played", "nice", "oops", "thanks", "gg", "nope"]), JSON_VALUES),
    }
    # a hint makes the strongest level think: rare, so the run stays short
    kinds = st.sampled_from([t for t in WS_TYPES if t != "hint"] * 4 + ["hint", "HELLO", "", "admin"])
    return st.one_of(
        st.fixed_dictionaries({"type": st.just("act"), "action": st.just(LEGAL)}),
        st.fixed_dictionaries({"type": st.just("chat")},
                              optional={"text": text_values(), "phrase": plausible["phrase"]}),
        st.fixed_dictionaries({"type": st.sampled_from(["undo", "ping", "concede", "rematch"])},
                              optional={"id": plausible["id"]}),
        st.fixed_dictionaries({"type": kinds}, optional=plausible),
        st.fixed_dictionaries({"type": st.sampled_from(["act", "act", "chat", "hello"])}, optional=plausible),
        st.fixed_dictionaries({"type": JSON_VALUES}, optional=plausible),
        JSON_VALUES,
    )


# ---------------------------------------------------------------- the run

class Tally:
    def __init__(self) -> None:
        self.http = Counter[str]()
        self.http_sent = 0
        self.http_drops: list[str] = []
        self.five: list[str] = []
        self.ws_frames = 0
        self.ws_connections = 0
        self.ws_replies = Counter[str]()
        self.ws_closes = Counter[str]()
        self.ws_unexpected: list[str] = []
        self.internal: list[str] = []


def send_raw(req: dict[str, Any], tally: Tally, server: Server) -> None:
    """A request whose Content-Length lies (no HTTP client sends one): over a plain socket."""
    body = req["body"] or b""
    head = (f"{req['method']} {req['url']} HTTP/1.1\r\nHost: {server.host}:{server.port}\r\n"
            "Connection: close\r\n").encode()
    head += b"".join(k.encode() + b": " + v + b"\r\n" for k, v in req["headers"].items())
    reply, error = b"", None
    try:
        with socket.create_connection((server.host, server.port), timeout=10) as sock:
            try:  # the server may answer (413) and close before the whole request is sent
                sock.sendall(head + b"\r\n" + body)
                declared = req["headers"].get("content-length", b"")
                if declared.isdigit() and int(declared) > len(body):
                    # the server waits for the rest: end the input (uvicorn then drops the request, as a
                    # client gone; a half-closed connection is a client gone for uvicorn, so only here)
                    sock.shutdown(socket.SHUT_WR)
            except OSError as e:
                error = e
            while chunk := sock.recv(65536):
                reply += chunk
    except OSError as e:
        error = e
    if not reply:
        declared = req["headers"].get("content-length", b"")
        # expected: a request head over h11's 16 KiB (uvicorn answers 400 and closes, and the reset of a
        # connection still sending can eat that answer), or a body shorter than its Content-Length
        # followed by end of input (an incomplete request: nothing to answer)
        if len(req["url"]) > 16_000 or (declared.isdigit() and int(declared) > len(body)):
            tally.http["raw: closed (head over 16 KiB, or body shorter than declared)"] += 1
            return
        tally.http["raw: no answer"] += 1
        tally.http_drops.append(f"raw {req['method']} {req['url'][:80]} (URL {len(req['url'])} chars, "
                                f"body {len(body)} B, headers {({k: v[:30] for k, v in req['headers'].items()})}): "
                                f"{error!r}")
        return
    m = re.match(rb"HTTP/1\.1 (\d+)", reply)
    status = m[1].decode() if m else "raw: closed without an answer"
    tally.http[status] += 1
    if m and int(status) >= 500:
        tally.five.append(f"{status} raw {req['method']} {req['url'][:200]} headers={req['headers']} "
                          f"body={body[:200]!r} -> {reply[:300]!r}")


def send_http(client: httpx.Client, req: dict[str, Any], tally: Tally, server: Server) -> httpx.Client:
    tally.http_sent += 1
    if "content-length" in req["headers"]:
        send_raw(req, tally, server)
        return client
    try:
        r = client.request(req["method"], req["url"], content=req["body"], headers=req["headers"])
    except (httpx.InvalidURL, httpx.LocalProtocolError):  # httpx will not send it (a URL over 64 KiB...)
        tally.http["(sent raw)"] += 1
        send_raw(req, tally, server)
        return client
    except httpx.TransportError as e:
        # a request the client itself will not send (an invalid header) or the server drops
        tally.http[f"no answer: {type(e).__name__}"] += 1
        if isinstance(e, httpx.RemoteProtocolError | httpx.ReadError | httpx.ConnectError | httpx.ReadTimeout):
            tally.http_drops.append(f"{req['method']} {req['url'][:120]} ({len(req['body'] or b'')} B): {e!r}"[:300])
        client.close()
        return httpx.Client(base_url=server.base, timeout=60)
    except (UnicodeError, ValueError) as e:  # a header httpx will not encode: not sent at all
        tally.http[f"not sent by the client: {type(e).__name__}"] += 1
        return client
    tally.http[str(r.status_code)] += 1
    if r.status_code >= 500:
        tally.five.append(f"{r.status_code} {req['method']} {req['url'][:200]} body={(req['body'] or b'')[:200]!r} "
                          f"-> {r.text[:200]}")
    return client


def run_http(n: int, routes: list[tuple[str, list[str]]], pool: Pool, server: Server, tally: Tally, seed_: int) -> None:
    client = httpx.Client(base_url=server.base, timeout=60)
    holder = {"client": client, "i": 0}
    strategy = http_request(routes, pool, server)

    @seed(seed_)
    @settings(max_examples=n, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def one(req: dict[str, Any]) -> None:
        holder["client"] = send_http(holder["client"], req, tally, server)
        holder["i"] += 1
        if holder["i"] % 500 == 0:
            pool.refresh()
            print(f"  http {tally.http_sent}: {dict(tally.http.most_common(6))}", flush=True)

    while tally.http_sent < n:
        one()
        seed_ += 1
    holder["client"].close()


def recv_until_pong(ws: Any, sentinel: str, timeout: float = 120) -> list[Any]:
    got: list[Any] = []
    deadline = time.monotonic() + timeout
    while True:
        raw = ws.recv(timeout=max(0.1, deadline - time.monotonic()))
        try:
            msg = json.loads(raw)
        except (TypeError, ValueError):
            got.append(("not json", raw))
            continue
        if isinstance(msg, dict) and msg.get("type") == "pong" and msg.get("id") == sentinel:
            return got
        got.append(msg)


def run_ws(n: int, pool: Pool, server: Server, tally: Tally, seed_: int) -> None:
    counter = {"k": 0, "conns": 0}

    def note(msgs: list[Any], frame: str | bytes) -> list[str]:
        legal: list[str] = []
        for m in msgs:
            if isinstance(m, tuple):
                tally.ws_unexpected.append(f"reply not JSON: {m[1]!r:.200}")
                continue
            kind = m.get("type") if isinstance(m, dict) else None
            tally.ws_replies[str(kind)] += 1
            text = json.dumps(m)
            if (kind == "error" and "internal error" in str(m.get("message", "")).lower()) or \
                    (kind == "error" and "traceback" in text.lower()):
                tally.internal.append(f"frame {frame[:300]!r} -> {text[:300]}")
            if kind == "view":
                legal = ((m.get("view") or {}).get("legal") or {}).get("actions") or []
        return legal

    @seed(seed_)
    @settings(max_examples=max(1, n // 8), deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def one(data: st.DataObject) -> None:
        counter["conns"] += 1
        if counter["conns"] % 60 == 0:
            pool.refresh()
            print(f"  ws {tally.ws_frames} frames, {tally.ws_connections} sockets: "
                  f"{dict(tally.ws_replies.most_common(6))}"
                  f", closes {dict(tally.ws_closes)}", flush=True)
        # everything is drawn first: what the server answers must not change what is drawn
        hello = data.draw(st.sampled_from(["seat"] * 6 + ["watch", "none", "bad", "origin-bad"]), label="hello")
        game, token = data.draw(st.sampled_from(pool.seats), label="seat")
        lang = data.draw(st.sampled_from(["en", "fr"]), label="lang")
        bad_token = data.draw(text_values().map(lambda t: t[:3000]), label="bad token")  # the hello under 64 KiB
        specs: list[tuple[str | bytes, int]] = []
        for _ in range(data.draw(st.integers(1, 16), label="frames")):
            kind = data.draw(st.integers(0, 19), label="frame kind")
            frame: str | bytes
            if kind == 0:
                frame = data.draw(st.binary(max_size=500), label="binary")
            elif kind == 1:
                size = data.draw(st.sampled_from([FRAME_LIMIT - 100, FRAME_LIMIT + 1, 100_000]), label="big")
                frame = json.dumps({"type": "chat", "text": "x" * size})
            else:
                frame = data.draw(raw_json(ws_shape(pool)), label="frame")
                if isinstance(frame, str):
                    frame = frame.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
            specs.append((frame, data.draw(st.integers(0, 10_000), label="which legal action")))
        headers = {"Origin": "http://evil.example"} if hello == "origin-bad" else None
        tally.ws_connections += 1
        legal: list[str] = []
        try:
            with connect(server.ws, additional_headers=headers, max_size=None, open_timeout=60,
                         close_timeout=5) as ws:
                if hello in ("seat", "watch", "bad"):
                    msg = {"type": "hello", "game": game, "token": token, "lang": lang}
                    if hello == "watch":
                        msg = {"type": "hello", "game": pool.watch[0], "watch": pool.watch[1]}
                    elif hello == "bad":
                        msg["token"] = bad_token
                    ws.send(json.dumps(msg))
                    ws.send(json.dumps({"type": "ping", "id": "h"}))
                    legal = note(recv_until_pong(ws, "h"), json.dumps(msg))
                for frame, pick in specs:
                    if isinstance(frame, str):
                        chosen = legal[pick % len(legal)] if legal else "draw"
                        frame = frame.replace(json.dumps(LEGAL), json.dumps(chosen))
                    tally.ws_frames += 1
                    counter["k"] += 1
                    sentinel = f"s{counter['k']}"
                    try:
                        ws.send(frame)
                        ws.send(json.dumps({"type": "ping", "id": sentinel}))
                        legal = note(recv_until_pong(ws, sentinel), frame) or legal
                    except ConnectionClosed as e:
                        code = e.rcvd.code if e.rcvd else None
                        tally.ws_closes[str(code)] += 1
                        size = len(frame.encode() if isinstance(frame, str) else frame)
                        if not (code == 1009 and size > FRAME_LIMIT):
                            tally.ws_unexpected.append(f"closed {code} after frame {frame[:200]!r} ({size} B)")
                        return
                    except TimeoutError:
                        tally.ws_unexpected.append(f"no pong within 120 s after frame {frame[:200]!r}")
                        return
        except InvalidStatus as e:
            tally.ws_closes[f"handshake {e.response.status_code}"] += 1
            if hello != "origin-bad":
                tally.ws_unexpected.append(f"handshake refused: {e}")
        except ConnectionClosed as e:
            code = e.rcvd.code if e.rcvd else None
            tally.ws_closes[str(code)] += 1
            if not (hello == "origin-bad" and code == 1008):
                tally.ws_unexpected.append(f"closed {code} during hello ({hello})")

    while tally.ws_frames < n:
        one()
        seed_ += 1


def scan_log(path: Path) -> tuple[list[str], Counter[str]]:
    text = path.read_text(errors="replace")
    lines = text.splitlines()
    bad = [ln for ln in lines if "Traceback" in ln or ln.startswith("ERROR") or " ERROR " in ln
           or "Exception in ASGI" in ln]
    kinds = Counter(re.sub(r"[0-9a-f]{12}", "ID", ln)[:90] for ln in lines if ln.startswith("refused"))
    if bad:  # keep the context of each traceback
        out = []
        for i, ln in enumerate(lines):
            follows = i + 1 < len(lines) and "Traceback" in lines[i + 1]
            if "Traceback" in ln or "Exception in ASGI" in ln or ("failed" in ln and follows):
                out.append("\n".join(lines[max(0, i - 1): i + 30]))
        bad = out or bad
    return bad, kinds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--http", type=int, default=10_000, help="HTTP requests to send (default 10,000)")
    ap.add_argument("--ws", type=int, default=10_000, help="websocket fuzz frames to send (default 10,000)")
    ap.add_argument("--seed", type=int, default=26, help="hypothesis seed (default 26)")
    ap.add_argument("--keep", action="store_true", help="keep the work directory (games file, server log)")
    args = ap.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="toybattle-fuzz-"))
    t0 = time.monotonic()
    routes = app_routes()
    server = Server(workdir)
    tally = Tally()
    try:
        print(f"server {server.base} (pid {server.proc.pid}), work dir {workdir}")
        print(f"{len(routes)} routes: " + ", ".join(f"{' '.join(m)} {p}" for p, m in routes))
        pool = Pool(server.base)
        run_http(args.http, routes, pool, server, tally, args.seed)
        t1 = time.monotonic()
        run_ws(args.ws, pool, server, tally, args.seed)
        t2 = time.monotonic()
        with httpx.Client(base_url=server.base, timeout=30) as c:
            still = c.get("/api/meta").status_code
        alive = server.alive()
    finally:
        server.stop()
    bad, refusals = scan_log(server.log_path)
    print(f"\nHTTP: {tally.http_sent} requests in {t1 - t0:.0f} s; status: {dict(sorted(tally.http.items()))}")
    print(f"  5xx: {len(tally.five)}; dropped connections: {len(tally.http_drops)}")
    for x in tally.five[:10] + tally.http_drops[:10]:
        print("   ", x)
    print(f"websocket: {tally.ws_frames} fuzz frames over {tally.ws_connections} sockets in {t2 - t1:.0f} s; "
          f"replies: {dict(tally.ws_replies.most_common())}")
    print(f"  closes: {dict(tally.ws_closes)}; internal errors: {len(tally.internal)}; "
          f"unexpected: {len(tally.ws_unexpected)}")
    for x in tally.internal[:10] + tally.ws_unexpected[:10]:
        print("   ", x)
    print(f"server after the fuzz: GET /api/meta {still}, process {'alive' if alive else 'DEAD'}")
    print(f"server log: {len(bad)} tracebacks/errors; guard refusals logged: {sum(refusals.values())}")
    for x in bad[:5]:
        print(x)
    if not args.keep and not bad:
        import shutil
        shutil.rmtree(workdir, ignore_errors=True)
    failed = tally.five or tally.internal or tally.ws_unexpected or bad or not alive or still != 200 \
        or tally.http_drops
    print("FAIL" if failed else "OK: 0 internal errors, 0 5xx, no traceback")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
