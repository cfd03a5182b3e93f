"""Every screen's server texts in French (issue 27): games of every kind the app has, played through the app
as a French page plays them (a bot game with hints, undo and a concession, a hot-seat game watched by a
spectator, its replay and status, the lessons with their verdicts, the game's reference), every route's
refusal and every websocket error: nothing a French page is sent holds a run of the English catalogue.
(The forfeit reasons online play can produce: tests/online/test_reasons_in_french.py.)"""
from __future__ import annotations

import json
import random

import pytest
from french import english_in, texts
from starlette.testclient import TestClient

from toybattle.assembly import build_app
from toybattle.lessons import all_lessons
from toybattle.store import Store

FR = {"accept-language": "fr-FR,fr;q=0.9"}


@pytest.fixture
def client(tmp_path):
    app = build_app(Store(tmp_path / "games.sqlite"), bot_delay=0.0, resume=False)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield c


class French:
    """Everything a French page was sent, and the English found in it."""

    def __init__(self) -> None:
        self.seen = 0
        self.english: list[tuple[str, list[str]]] = []
        self.kinds: set[str] = set()  # the kinds of websocket message seen

    def check(self, where: str, value: object) -> None:
        for text in texts(value):
            if text.startswith("tests/"):  # a rule's test, named by its path: code, not words
                continue
            self.seen += 1
            if english_in(text):
                self.english.append((where, [text, *english_in(text)]))


class Page:
    """A French page's websocket on one seat (or a watcher's), every message checked."""

    def __init__(self, client: TestClient, french: French, hello: dict):
        self.cm = client.websocket_connect("ws://127.0.0.1/ws")
        self.ws = self.cm.__enter__()
        self.french = french
        self.view: dict = {}
        self.send({"type": "hello", "lang": "fr", **hello})
        assert self.recv()["type"] == "welcome"
        assert self.recv()["type"] == "view"

    def send(self, msg: dict | str) -> None:
        self.ws.send_text(msg if isinstance(msg, str) else json.dumps(msg))

    def recv(self) -> dict:
        m = self.ws.receive_json()
        self.french.kinds.add(m["type"])
        self.french.check(f"ws {m['type']}", {k: v for k, v in m.items() if k != "lines"})  # chat: players' words
        if m["type"] == "view":
            self.view = m["view"]
        return m

    def request(self, msg: dict | str) -> dict:
        self.send(msg)
        while True:
            m = self.recv()
            if m["type"] in ("ok", "error", "pong", "rematch", "hint"):
                return m

    def close(self) -> None:
        self.cm.__exit__(None, None, None)


def _play_out(pages: dict[str, Page], rng: random.Random, undo: bool = False, hints: bool = False,
              max_actions: int = 500) -> None:
    """Random legal actions for the seats that have a page, with a few taps the rules refuse (each reply says
    which rule refuses it), hints and undos, until the game is over."""
    for _ in range(max_actions):
        page = next(iter(pages.values()))
        v = page.view
        if v["over"]:
            return
        mine = pages.get(v["actor"])
        if mine is None:  # the bot's turn: its move comes as a view
            page.recv()
            continue
        legal = mine.view["legal"]
        if legal is None:
            mine.recv()
            continue
        if hints and rng.random() < 0.15:
            assert mine.request({"type": "hint"})["type"] == "hint"
        refused = [t["action"] for taps in legal["rack"].values() for t in taps.values() if "refused" in t]
        if refused and rng.random() < 0.2:
            assert mine.request({"type": "act", "action": rng.choice(refused)})["type"] == "error"
        if undo and mine.view["can_undo"] and rng.random() < 0.1:
            reply = mine.request({"type": "undo"})
        else:
            reply = mine.request({"type": "act", "action": rng.choice(legal["actions"])})
        assert reply["type"] in ("ok", "error"), reply
        if reply["type"] == "ok":  # every other page is sent the new view (a refusal changes nothing)
            for other in pages.values():
                if other is not mine:
                    other.recv()


def test_every_screen_of_every_kind_of_game_in_french(client):
    french = French()
    rng = random.Random(27)
    french.check("meta", client.get("/api/meta", headers=FR).json())
    for terrain in ("castle", "battlefield"):
        french.check(f"terrain {terrain}", client.get(f"/api/terrains/{terrain}", headers=FR).json())
    # a bot game: hints, refused taps and undo, to its end, then its status and replay
    for level, terrain in (("greedy", "castle"), ("random", "battlefield")):
        g = client.post("/api/games", json={"kind": "bot", "level": level, "terrain": terrain, "human": "blue"}).json()
        page = Page(client, french, {"game": g["game"], "token": g["tokens"]["blue"]})
        _play_out({"blue": page}, rng, undo=True, hints=True)
        assert page.view["over"] and page.view["result"]
        french.check("status", client.get(f"/api/games/{g['game']}?token={g['tokens']['blue']}", headers=FR).json())
        french.check("replay", client.get(f"/api/games/{g['game']}/replay?token={g['tokens']['blue']}",
                                          headers=FR).json())
        assert page.request({"type": "rematch"})["type"] in ("ok", "rematch")
        while "rematch" not in french.kinds:  # each seat is told its new game (its token): checked as it comes
            page.recv()
        page.close()
    # a bot game conceded
    g = client.post("/api/games", json={"kind": "bot", "level": "random"}).json()
    page = Page(client, french, {"game": g["game"], "token": next(iter(g["tokens"].values()))})
    assert page.request({"type": "concede"})["type"] == "ok"
    while not page.view["over"]:  # the view may come before the reply or after it
        page.recv()
    page.close()
    # a hot-seat game, both seats and a spectator (its watch link)
    g = client.post("/api/games", json={"kind": "hotseat", "terrain": "castle"}).json()
    pages = {s: Page(client, french, {"game": g["game"], "token": g["tokens"][s]}) for s in ("blue", "red")}
    url = client.get(f"/api/games/{g['game']}/watch?token={g['tokens']['blue']}").json()["url"]
    watcher = Page(client, french, {"game": g["game"], "watch": url.rsplit("/", 1)[1]})
    pages_and_watcher = {**pages, "watcher": watcher}

    class _All(dict):  # the seats decide; the watcher only reads
        def get(self, k, default=None):
            return pages.get(k, default)
    _play_out(_All(pages_and_watcher), rng, undo=True)
    assert watcher.view["over"] and watcher.view["result"] and watcher.view["log"]
    french.check("replay", client.get(f"/api/games/{g['game']}/replay?token={g['tokens']['red']}", headers=FR).json())
    for p in pages_and_watcher.values():
        p.close()
    # the lessons: each lesson, each listed answer and wrong answer played, and a refused action
    for x in all_lessons("fr"):
        french.check(f"lesson {x.id}", client.get(f"/api/lessons/{x.id}", headers=FR).json())
        for a in (*x.answers, *x.wrong):
            got = client.post(f"/api/lessons/{x.id}/play", json={"actions": list(a.actions)}, headers=FR).json()
            french.check(f"lesson {x.id} {a.actions}", got)
        french.check(f"lesson {x.id} refused", client.post(f"/api/lessons/{x.id}/play", json={"actions": ["K@1", "zz"]},
                                                           headers=FR).json())
    french.check("rules", client.get("/api/rules", headers=FR).json())
    assert not french.english, french.english[:10]
    assert french.seen > 2000, french.seen
    assert {"view", "hint", "error", "ok", "rematch"} <= french.kinds, french.kinds


REFUSED = [  # (method, url, body or None, extra headers): each answered with a refusal
    ("get", "/api/lessons/nope", None, {}), ("get", "/api/terrains/moon", None, {}),
    ("post", "/api/games", [], {}), ("post", "/api/games", {"kind": "bot", "level": "god"}, {}),
    ("post", "/api/games", {"kind": "chess"}, {}), ("post", "/api/games", {"kind": "bot", "terrain": "moon"}, {}),
    ("post", "/api/games", {"kind": "bot", "first": "green"}, {}), ("post", "/api/games", {"kind": "bot", "x": 1}, {}),
    ("post", "/api/games", {"kind": "bot", "first_game": "yes"}, {}), ("post", "/api/games", {}, {}),
    ("post", "/api/games", {"kind": "bot", "human": "green"}, {}),
    ("post", "/api/lessons/roxy-medals/play", {"actions": ["draw"] * 25}, {}),
    ("post", "/api/lessons/roxy-medals/play", {"actions": [], "nonce": 3}, {}),
    ("post", "/api/lessons/roxy-medals/continue", {"actions": [], "level": "god"}, {}),
    ("post", "/api/online/join", {"code": "abc"}, {}), ("post", "/api/online/join", {}, {}),
    ("post", "/api/online/host", {"relay": "http://x"}, {}),
    ("post", "/api/online/host", {"relay": "ws://x:99999/v"}, {}),
    ("post", "/api/online/host", {"terrain": "moon"}, {}), ("post", "/api/online/host", {"seat": "green"}, {}),
    ("post", "/api/online/host", {"move_limit": 0}, {}),
    ("post", "/api/online/resume", {"game": "nope", "token": "x"}, {}),
    ("get", "/api/games/nope?token=x", None, {}), ("get", "/api/games/nope/replay?token=x", None, {}),
    ("post", "/api/games/import", {}, {}), ("post", "/api/games/import", {"record": "x" * 13000}, {}),
    ("post", "/api/games/import", {"record": "not a record"}, {}),
    ("post", "/api/games", b"{}", {"content-type": "text/plain"}),
    ("post", "/api/games", b"[" * 40 + b"]" * 40, {"content-type": "application/json"}),
]


@pytest.mark.parametrize("method, url, body, headers", REFUSED)
def test_every_routes_refusal_in_french(client, method, url, body, headers):
    kwargs = {} if body is None else {"content": body} if isinstance(body, bytes) else {"json": body}
    en = getattr(client, method)(url, headers=headers, **kwargs)
    fr = getattr(client, method)(url, headers={**FR, **headers}, **kwargs)
    assert en.status_code == fr.status_code >= 400, (en.status_code, en.text)
    assert "said" not in fr.json() and "said" not in en.json()  # the id travels to the edge, not to the page
    assert fr.json()["error"] != en.json()["error"], en.json()
    assert not english_in(fr.json()["error"]), fr.json()


def test_a_games_refusals_in_french(client):
    """Refusals about a game that exists: a bot game's undo, hints and rematch before its end, an invitation
    of a game that is not on two devices, an export before the end, a replay before the end."""
    g = client.post("/api/games", json={"kind": "hotseat"}).json()
    token = g["tokens"]["blue"]
    for method, url in (("get", f"/api/games/{g['game']}/replay?token={token}"),
                        ("get", f"/api/games/{g['game']}/record?token={token}"),
                        ("get", f"/api/games/{g['game']}/invite?token={token}")):
        r = getattr(client, method)(url, headers=FR)
        assert r.status_code >= 400 and not english_in(r.json()["error"]), r.json()


BAD = ["x" * 70000, "not json", "[]", json.dumps({"id": [1]}), json.dumps({"type": "dance"}),
       json.dumps({"type": "act"}), "[" * 40 + "]" * 40]


def test_every_websocket_error_in_french(client):
    french = French()
    with client.websocket_connect("ws://127.0.0.1/ws") as ws:
        ws.send_json({"type": "hello", "game": "g", "token": "t", "lang": "fr"})
        french.check("hello", ws.receive_json())
        ws.send_json({"type": "hello", "lang": "fr"})
        french.check("hello", ws.receive_json())
        for bad in BAD:
            ws.send_text(bad)
            french.check(bad[:20], ws.receive_json())
        ws.send_bytes(b"{}")
        french.check("bytes", ws.receive_json())
    g = client.post("/api/games", json={"kind": "bot", "level": "random", "human": "blue"}).json()
    page = Page(client, french, {"game": g["game"], "token": g["tokens"]["blue"]})
    for msg in ({"type": "act", "action": "zz@99"}, {"type": "act", "action": "7@999"}, {"type": "act", "action": 5},
                {"type": "act", "action": "draw", "ply": 999}, {"type": "undo"}, {"type": "rematch"},
                {"type": "chat", "text": "hi"}, {"type": "act", "action": "pick:7"},
                {"type": "act", "action": "x" * 50}):
        reply = page.request(msg)
        assert reply["type"] == "error", (msg, reply)
    page.close()
    assert french.seen >= 15 and not french.english, french.english
