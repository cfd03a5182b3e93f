"""The Learn section's HTTP API, mounted by the app: lessons, moves judged by the engine, hidden tiles
kept hidden, and a lesson continued as a real game against a bot."""
from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from toybattle.assembly import build_app
from toybattle.lessons import all_lessons, lesson
from toybattle.rules import determinize
from toybattle.rules.troops import full_army
from toybattle.store import Store


@pytest.fixture
def client(tmp_path):
    app = build_app(Store(tmp_path / "games.sqlite"), bot_delay=0.0, resume=False)
    with TestClient(app, base_url="http://127.0.0.1") as c:  # the app answers only to its own address
        yield c


def red_tiles(obj) -> list:
    """Every ["red", troop] pair anywhere in a JSON value."""
    if isinstance(obj, list):
        if len(obj) == 2 and obj[0] == "red" and isinstance(obj[1], str):
            return [obj]
        return [t for x in obj for t in red_tiles(x)]
    if isinstance(obj, dict):
        return [t for x in obj.values() for t in red_tiles(x)]
    return []


def test_page_list_and_home_link(client):
    # Learn is screens of the app's one page: its old address serves that page, which moves to #/learn
    assert client.get("/learn").text == client.get("/").text and "app.js" in client.get("/learn").text
    topics = client.get("/api/lessons").json()["topics"]
    ids = [x["id"] for t in topics for x in t["lessons"]]
    assert "roxy-medals" in ids and len(ids) >= 26
    assert {"label": "Learn to play", "href": "/#/learn"} in client.get("/api/meta").json()["links"]


def test_lesson_detail_shows_only_the_learners_side(client):
    body = client.get("/api/lessons/xb42-discard").json()
    assert body["seat"] == "blue" and body["hints"] and body["goal"] == ["3 tiles on your opponent's rack"]
    view = body["view"]
    assert view["rack"] == ["2", "5", "6"] and view["counts"]["red"]["rack"] == 4
    on_table = [t for st in view["stacks"].values() for t in st if t[0] == "red"] + \
        [t for t in view["discard"] if t[0] == "red"]
    assert sorted(map(tuple, red_tiles(body))) == sorted(map(tuple, on_table))  # Red's 7 7 6 K never sent


def test_play_wrong_refused_then_right(client):
    url = "/api/lessons/roxy-medals/play"
    wrong = client.post(url, json={"actions": ["7@17"], "nonce": "a"}).json()
    assert wrong["status"] == "wrong" and wrong["done"] and "Advancing on the left" in wrong["feedback"]
    refused = client.post(url, json={"actions": ["7@25"], "nonce": "a"}).json()
    assert refused["status"] == "refused" and refused["refusal"] == "no path from your H.Q." and not refused["done"]
    right = client.post(url, json={"actions": ["7@12"], "nonce": "b"}).json()
    assert right["status"] == "right" and right["view"]["medals"]["blue"] == 3


def test_blind_pick_stays_blind_and_replays_the_same(client):
    url = "/api/lessons/battlefield-lay-down/play"
    first = client.post(url, json={"actions": ["7@14", "use"], "nonce": "n1"}).json()
    again = client.post(url, json={"actions": ["7@14", "use"], "nonce": "n1"}).json()
    assert first["status"] == "right" and first == again
    assert first["view"]["counts"]["red"]["laid"] == 1 and "pick" not in json.dumps(first["actions"])
    assert red_tiles(first["view"]["discard"]) == []


@pytest.mark.parametrize("body", [[], {"actions": "7@12"}, {"actions": ["x" * 41]}, {"actions": [1]},
                                  {"actions": [], "nonce": 5}, {"actions": ["draw"] * 25}])
def test_bad_requests_get_one_clear_error(client, body):
    r = client.post("/api/lessons/roxy-medals/play", json=body)
    assert r.status_code == 400 and isinstance(r.json()["error"], str)
    assert client.get("/api/lessons/nope").status_code == 404


def test_continue_as_a_game_against_a_bot(client):
    x = lesson("hook-isolated")
    r = client.post("/api/lessons/hook-isolated/continue", json={"actions": ["3@13"], "nonce": "z"}).json()
    status = client.get(f"/api/games/{r['game']}?token={r['token']}").json()
    assert status["seat"] == "blue" and status["terrain"] == "castle" and r["url"] == f"/join/{r['game']}/{r['token']}"
    session = client.app.state.games.get(r["game"])
    s = session.record.start
    assert s.owner(s.b.index[13]) == 0 and s.turn == 1            # from after the learner's move
    assert all(t & 15 for seat in (0, 1) for t in s.rack[seat] + s.reserve[seat] + s.aside[seat])  # real tiles
    i13, before = s.b.index[13], x.start().stacks
    assert s.stacks == before[:i13] + [s.stacks[i13]] + before[i13 + 1:]
    bad = client.post("/api/lessons/hook-isolated/continue", json={"actions": [], "level": "godlike"})
    assert bad.status_code == 400 and "unknown bot level" in bad.json()["error"]


def test_a_rematch_of_a_lesson_game_starts_from_the_lesson_again(client):
    x = lesson("hook-isolated")
    r = client.post("/api/lessons/hook-isolated/continue",
                    json={"actions": ["3@13"], "nonce": "z", "level": "random"}).json()
    with client.websocket_connect("ws://127.0.0.1/ws") as ws:
        ws.send_json({"type": "hello", "game": r["game"], "token": r["token"]})
        ws.send_json({"type": "concede"})
        ws.send_json({"type": "rematch"})
        while (m := ws.receive_json())["type"] != "rematch":
            assert m["type"] != "error", m
    new = client.app.state.games.get(m["game"])
    old = client.app.state.games.get(r["game"])
    assert m["seat"] == "blue" and list(m["tokens"]) == ["blue"]
    assert new.record.start.stacks == x.start().stacks  # the lesson's position, not the learner's move
    assert new.bot_seat == old.bot_seat and new.row.meta["bot"]["level"] == "random"
    assert new.row.meta["lesson"] == x.id and not new.over


def army(s, seat) -> list[int]:
    """Every tile of ``seat``'s army wherever the state holds it."""
    return sorted([t for st in s.stacks for t in st if t >> 4 == seat] + [t for t in s.discard if t >> 4 == seat]
                  + s.rack[seat] + s.laid[seat] + s.reserve[seat] + s.aside[seat])


@pytest.mark.parametrize("x", all_lessons(), ids=lambda x: x.id)
def test_unknown_tiles_get_real_faces_one_army_each(x):
    """Known reserve tiles (e.g. "blue reserve 3 6 ?x9") are not dealt a second time."""
    import random
    s = x.start()
    for seed in range(3):
        full = determinize(s, random.Random(seed))
        for seat in (0, 1):
            assert army(full, seat) == full_army(seat)
            known = [k for k, t in enumerate(s.reserve[seat]) if t & 15]
            assert [full.reserve[seat][k] for k in known] == [s.reserve[seat][k] for k in known]
        assert full.rack == s.rack and full.stacks == s.stacks


def test_the_lesson_bot_gets_only_its_observation(client, monkeypatch):
    seen = []

    async def spy(level, obs, budget_s=None):  # what the bot's worker process would be sent
        seen.append(obs.copy())
        return obs.legal_actions()[0]

    monkeypatch.setattr(client.app.state.games.pool, "choose", spy)
    r = client.post("/api/lessons/skully-draw/continue", json={"actions": ["1@12", "use"], "nonce": "q"}).json()
    session = client.app.state.games.get(r["game"])
    for _ in range(100):
        if seen and session.state.turn == 0:
            break
        client.get(f"/api/games/{r['game']}?token={r['token']}")  # lets the bot's task run
    assert seen, "the bot never played"
    for obs in seen:                              # Blue's rack, and both reserves and set-aside tiles, unknown
        assert not any(t & 15 for t in obs.rack[0] + obs.reserve[0] + obs.aside[0] + obs.reserve[1] + obs.aside[1])
    assert army(session.record.start, 0) == full_army(0) and army(session.record.start, 1) == full_army(1)


def test_rules_api(client):
    book = client.get("/api/rules").json()
    assert {t["id"] for t in book["topics"]} >= {"placement", "troops", "terrains", "end"}
    assert len(book["faq"]) >= 31
