"""The websocket protocol: seats, tokens, refusals, undo, concede, rematch, storage before acknowledgement."""
from __future__ import annotations

import json
import random

from app_harness import LOCAL, WS, SeatSocket, new_game, play_hotseat

from toybattle.rules import parse_record


def test_a_seat_sees_its_own_rack_and_only_counts_of_the_other(client):
    g = new_game(client, kind="hotseat", terrain="castle", first="blue")
    blue = SeatSocket(client, g["game"], g["tokens"]["blue"])
    red = SeatSocket(client, g["game"], g["tokens"]["red"])
    assert blue.view["seat"] == "blue" and red.view["seat"] == "red"
    assert len(blue.view["rack"]) == 3 and red.view["counts"]["red"]["rack"] == 4  # blue starts: 3 tiles, red 4
    assert red.view["covered"] and red.view["rack"] == []  # hot-seat: red's rack waits for red to uncover
    assert blue.view["counts"]["red"]["rack"] == 4 and "rack" not in blue.view["players"].get("red", {})
    assert blue.view["legal"] and red.view["legal"] is None
    assert blue.view["actor"] == "blue" and "draw" in blue.view["legal"]["actions"]


def test_unknown_token_and_game_are_refused(client):
    g = new_game(client, kind="hotseat")
    with client.websocket_connect(WS) as ws:
        ws.send_json({"type": "hello", "game": g["game"], "token": "not-a-token"})
        assert ws.receive_json() == {"type": "error", "id": None, "message": "unknown game or token"}
        ws.send_json({"type": "act", "action": "draw"})
        assert "hello" in ws.receive_json()["message"]


def test_out_of_turn_and_illegal_actions_name_the_rule_and_change_nothing(client, store):
    troop = None
    while troop is None:  # a rack of three Hooks (one deal in 2,000) has no tile to refuse: deal again
        g = new_game(client, kind="hotseat", first="blue")
        blue = SeatSocket(client, g["game"], g["tokens"]["blue"])
        troop = next((t for t in blue.view["rack"] if t != "4"), None)  # Hook's waiver would reach base 22
    red = SeatSocket(client, g["game"], g["tokens"]["red"])
    before = store.get(g["game"]).record
    assert red.request({"type": "act", "action": "draw"})["message"] == "it is blue's turn, not yours"
    r = blue.request({"type": "act", "action": f"{troop}@1", "id": 7})  # blue's own H.Q.
    assert r == {"type": "error", "id": 7, "message": "your own H.Q."}
    r = blue.request({"type": "act", "action": f"{troop}@22"})
    assert r["message"] == "no path from your H.Q."
    missing = next(c for c in "1234567K" if c not in blue.view["rack"])
    assert blue.request({"type": "act", "action": f"{missing}@11"})["message"].startswith("no ")
    assert "bad action" in blue.request({"type": "act", "action": "fly@11"})["message"]
    assert store.get(g["game"]).record == before


def test_every_action_is_stored_before_it_is_acknowledged(client, store):
    g = new_game(client, kind="hotseat", first="red")
    red = SeatSocket(client, g["game"], g["tokens"]["red"])
    r = red.request({"type": "act", "action": "draw", "id": "x1"})
    assert r == {"type": "ok", "id": "x1"}
    assert parse_record(store.get(g["game"]).record).actions == ["draw"]


def _placement(view: dict, troop: str) -> str:
    """The first place the view offers ``troop`` (as the text the page would send)."""
    return next(t["action"] for t in view["legal"]["rack"][troop].values() if "refused" not in t)


REVEALING = {"skully_draw", "star_draw", "clouds_draw"}  # decisions whose "use" draws hidden tiles


def test_undo_returns_to_the_start_of_the_turn_until_a_tile_is_revealed(client, store):
    rng = random.Random(3)
    for _ in range(40):  # find a turn that starts with a placement whose effect waits for a choice
        g = new_game(client, kind="hotseat", first="blue")
        blue = SeatSocket(client, g["game"], g["tokens"]["blue"])
        v = blue.view
        assert not v["can_undo"]
        troop = rng.choice(v["rack"])
        assert blue.request({"type": "act", "action": _placement(v, troop)})["type"] == "ok"
        if blue.view["actor"] == "blue":
            break
        blue.close()
    else:
        raise AssertionError("no game offered an undoable turn")
    assert blue.view["can_undo"]
    assert blue.request({"type": "undo"})["type"] == "ok"
    assert blue.view["ply"] == 0 and blue.view["stacks"] == {} and sorted(blue.view["rack"]) == sorted(v["rack"])
    assert parse_record(store.get(g["game"]).record).actions == []
    # a turn that goes on after revealing a hidden tile (a draw, a random pick) can no longer be taken back
    for k in range(10):
        g = new_game(client, kind="hotseat", terrain=("clouds", "castle")[k % 2])
        seats = {s: SeatSocket(client, g["game"], g["tokens"][s]) for s in ("blue", "red")}
        while not seats["blue"].view["over"]:
            me = seats["blue"].view["actor"]
            mine, other = seats[me], seats["red" if me == "blue" else "blue"]
            act = rng.choice(mine.view["legal"]["actions"])
            reveals = act == "draw" or act.startswith("pick:") or (act == "use" and mine.view["decision"] in REVEALING)
            assert mine.request({"type": "act", "action": act})["type"] == "ok"
            other.until("view")
            if reveals and mine.view["actor"] == me and not mine.view["over"]:
                before = store.get(g["game"]).record
                assert not mine.view["can_undo"]
                assert "revealed" in mine.request({"type": "undo"})["message"]
                assert store.get(g["game"]).record == before
                return
        for sock in seats.values():
            sock.close()
    raise AssertionError("no game went on after a tile was revealed mid-turn")


def test_concede_ends_the_game_and_rematch_gives_each_seat_its_own_new_token(client, store):
    g = new_game(client, kind="lan", first="blue")
    assert set(g["tokens"]) == {"blue"}  # the host gets only its own seat; the guest's comes by invitation
    row = store.get(g["game"])
    blue = SeatSocket(client, g["game"], g["tokens"]["blue"])
    red = SeatSocket(client, g["game"], row.meta["tokens"]["red"])
    assert blue.request({"type": "rematch"})["type"] == "error"
    assert red.request({"type": "concede"})["type"] == "ok"
    blue.until("view")
    assert blue.view["over"] and blue.view["winner"] == "blue" and blue.view["reason"] == "conceded"
    assert store.get(g["game"]).over
    r = blue.request({"type": "rematch"})
    assert r["type"] == "ok"
    mine = blue.until("rematch")
    theirs = red.until("rematch")
    assert mine["game"] == theirs["game"] != g["game"]
    assert list(mine["tokens"]) == ["blue"] and list(theirs["tokens"]) == ["red"]
    new = store.get(mine["game"]).meta["tokens"]
    assert mine["tokens"]["blue"] == new["blue"] and theirs["tokens"]["red"] == new["red"]


def test_a_bot_game_plays_to_its_end_and_is_stored(client, store):
    g = new_game(client, kind="bot", terrain="caribbean", human="red", level="random")
    me = SeatSocket(client, g["game"], g["tokens"]["red"])
    rng = random.Random(5)
    for _ in range(400):
        while not me.view["over"] and me.view["actor"] != "red":
            me.until("view")
        if me.view["over"]:
            break
        assert me.request({"type": "act", "action": rng.choice(me.view["legal"]["actions"])})["type"] == "ok"
    assert me.view["over"] and me.view["result"]
    row = store.get(g["game"])
    assert row.over and row.winner == me.view["winner"]
    assert parse_record(row.record).replay().over


def test_a_game_saved_with_a_retired_level_loads_and_plays_at_the_default_level(store):
    # "hard" was offered by an earlier version; a game saved with it must still open.
    from toybattle.app.bot_levels import default_level
    from toybattle.app.pool import BotPool
    from toybattle.app.session import LocalSession
    row = LocalSession.create(store, BotPool(), "bot", human="blue", first="red", level="random").row
    row.meta["bot"]["level"] = row.meta["settings"]["level"] = "hard"
    store.put(row)
    session = LocalSession(store.get(row.id), store, BotPool(), bot_delay=0)
    assert session.bot_level == default_level() == "medium"
    assert session.players()["red"]["name"] == "Bot (Medium)"


def test_replay_opens_only_when_the_game_is_over(client):
    g = new_game(client, kind="hotseat", terrain="station")
    url = f"/api/games/{g['game']}/replay?token={g['tokens']['blue']}"
    assert client.get(url).status_code == 409
    play_hotseat(client, g, random.Random(2))
    data = client.get(url).json()
    assert data["frames"][0]["ply"] == 0 and data["frames"][-1]["over"]
    # the record holds red's tile order and set-aside tiles: blue never sees them, even after the game
    assert set(data) == {"frames"}
    assert "toybattle record" not in json.dumps(data) and " order " not in json.dumps(data)
    assert client.get(f"/api/games/{g['game']}/replay?token=wrong").status_code == 404


def test_create_game_validates_its_settings(client):
    for body in ({"kind": "chess"}, {"kind": "bot", "terrain": "moon"}, {"kind": "bot", "level": "godlike"},
                 {"kind": "hotseat", "first": "green"}, {"kind": "hotseat", "first_game": "yes"}, {"x": "1"}):
        r = client.post("/api/games", json=body)
        assert r.status_code == 400 and r.json()["error"], body
    assert client.post("/api/games", content=b"{nope", headers={"content-type": "application/json"}).status_code == 400


def test_terrain_and_meta_are_served_from_the_rules_data(client):
    meta = client.get("/api/meta").json()
    assert meta["terrains"][0]["id"] == "castle" and len(meta["terrains"]) == 9
    assert meta["troops"]["troops"][0]["name"] == "Skully" and meta["troops"]["rack_limit"] == 8
    assert meta["powers"]["recall"]["text"]
    pool = client.get("/api/terrains/pool").json()
    assert next(n for n in pool["nodes"] if n["id"] == 12)["allowed_codes"] == ["1", "2", "K"]
    assert client.get("/api/terrains/moon").status_code == 404


def test_invite_is_only_for_the_host_of_a_two_device_game(client, store):
    g = new_game(client, kind="lan")
    r = client.get(f"/api/games/{g['game']}/invite?token={g['tokens']['blue']}").json()
    guest = store.get(g["game"]).meta["tokens"]["red"]
    key = store.get(g["game"]).meta["invite"]  # the link's key, not the guest's token
    assert r["url"].endswith(f"/invite/{g['game']}/{key}") and r["qr_svg"].startswith("<svg")
    assert client.get(f"/api/games/{g['game']}/invite?token={guest}").status_code == 403
    h = new_game(client, kind="hotseat")
    assert client.get(f"/api/games/{h['game']}/invite?token={h['tokens']['blue']}").status_code == 403


def test_a_view_says_what_the_end_of_the_game_offers(client):
    from toybattle.app.session import Session
    g = new_game(client, kind="hotseat")
    blue = SeatSocket(client, g["game"], g["tokens"]["blue"])
    assert blue.view["game"]["offers"] == {"rematch": True, "replay": True, "review": True}
    assert client.get(f"/api/games/{g['game']}?token={g['tokens']['blue']}").json()["offers"]["replay"] is True

    class Bare(Session):  # a session that only plays (as an online game): nothing more is offered
        id, kind = "bare", "online"
        def seat_of(self, token): return None
        def view(self, seat): return {}
        async def act(self, seat, action): return None
    assert Bare().offers() == {"rematch": False, "replay": False}


def test_on_two_devices_only_the_hosts_page_offers_the_review(client, store):
    """The guest's device reaches the app only while the game lasts (the network closes at its end), so its
    page is offered no review it could never open; the host's is."""
    g = new_game(client, kind="lan")
    host = SeatSocket(client, g["game"], g["tokens"]["blue"])
    guest = SeatSocket(client, g["game"], store.get(g["game"]).meta["tokens"]["red"])
    assert host.view["game"]["offers"]["review"] is True
    assert guest.view["game"]["offers"]["review"] is False
    b = new_game(client, kind="bot", level="random")
    assert SeatSocket(client, b["game"], b["tokens"]["blue"]).view["game"]["offers"]["review"] is True


def test_a_seats_own_log_lines_are_also_written_to_it_in_the_second_person(client):
    import re
    g = new_game(client, kind="hotseat", terrain="castle", first="blue")
    blue, red = play_hotseat(client, g, random.Random(5))
    for sock, me in ((blue, "blue"), (red, "red")):
        sock.request({"type": "ping"})  # the last view has arrived
        log = sock.view["log"]
        mine = [e for e in log if e["text"].startswith(me.capitalize() + " ")]
        assert mine and all(e["seat"] == me and e["you"].startswith("You ") for e in mine)
        # never the other seat's lines, except XB-42's discard, which names the victim's own rack
        assert all("you" not in e or e["you"].startswith("XB-42 discards your ") for e in log if e["seat"] != me)
        for e in mine:  # the same line in the second person: only the subject and its verb change
            assert not re.match(r"You (places|draws|uses|skips|takes|moves|wins|concedes)\b", e["you"]), e
            third = re.sub(r"^(\w+)", r"\1s", e["you"][len("You "):]).replace(" and draw ", " and draws ")
            assert third == e["text"][len(me) + 1:], e


def _no_sockets(*args, **kwargs):
    raise AssertionError("finding this machine's address must not open a socket")


def test_the_lan_address_comes_from_this_machines_own_names(monkeypatch):
    import socket

    from toybattle.app import guard
    monkeypatch.setattr(socket, "socket", _no_sockets)
    monkeypatch.setattr(socket, "gethostname", lambda: "den")
    found = [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.1.1", 0)),
             (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("192.168.1.20", 0))]
    monkeypatch.setattr(socket, "getaddrinfo", lambda host, port, family: found if host == "den" else [])
    assert guard.lan_address("0.0.0.0") == ("192.168.1.20", True)
    found[1:] = []  # only loopback: no address to offer, the note tells the user what to do
    assert guard.lan_address("0.0.0.0") == (None, True)
    assert guard.lan_address("127.0.0.1") == ("127.0.0.1", False)


def test_an_invite_without_a_network_address_names_the_machine_and_says_what_to_do(store, monkeypatch):
    import socket

    from starlette.testclient import TestClient

    from toybattle.app.server import build_app
    monkeypatch.setattr(socket, "gethostname", lambda: "den")
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a: [(socket.AF_INET, 1, 6, "", ("127.0.1.1", 0))])
    with TestClient(build_app(store, bot_delay=0, bind_host="0.0.0.0"), base_url=LOCAL) as c:
        g = new_game(c, kind="lan")
        r = c.get(f"/api/games/{g['game']}/invite?token={g['tokens']['blue']}").json()
    assert r["url"].startswith("http://den:") and "replace den with this computer's address" in r["note"]


def test_a_hint_comes_from_the_seats_observation_and_changes_nothing(client, store):
    g = new_game(client, kind="hotseat", first="blue")
    blue = SeatSocket(client, g["game"], g["tokens"]["blue"])
    red = SeatSocket(client, g["game"], g["tokens"]["red"])
    r = blue.request({"type": "hint", "id": 3})
    assert r["type"] == "hint" and r["id"] == 3 and r["action"] in blue.view["legal"]["actions"] and r["reason"]
    assert red.request({"type": "hint"})["type"] == "error"
    assert parse_record(store.get(g["game"]).record).actions == []
