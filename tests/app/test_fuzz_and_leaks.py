"""Hostile input and hidden information.

Fuzz: over a thousand malformed, illegal and impersonating messages; each gets an error reply, the
server stays up and the stored game is unchanged. Leaks: across whole games, nothing a seat is sent
carries the opponent's hidden tiles or tile order, and nothing a spectator is sent carries any
seat's hidden tiles.
"""
from __future__ import annotations

import json
import random
from collections import Counter

from app_harness import WS, SeatSocket, new_game, play_hotseat

from toybattle.app.spectate import spectator_view
from toybattle.app.view import covered, log_lines, seat_view
from toybattle.rules import SEATS, State, observation, parse_action, parse_record, setup_record
from toybattle.rules.observation import SPECTATOR
from toybattle.rules.troops import code, full_army
from toybattle.store import GameRow


def _malformed(rng: random.Random, game: str, other_game: str, other_token: str) -> list:
    """Messages that are not valid requests at all, or ask for what this seat may not do."""
    junk = ["", " ", "{", "}", "null", "[]", "[1,2]", "42", "\"hello\"", "true", "{\"type\":}", "\x00\x01",
            "{\"type\": \"act\", \"action\": ", "💥" * 10, "x" * 5000,
            json.dumps({"type": "act", "action": "d" * 9000})]
    types = [None, 1, [], {}, "", "HELLO", "acts", "undo ", "admin", "join", "view", "state", "welcome"]
    values = [None, 0, -1, 1.5, True, [], {}, "", " ", "\n", "draw" * 20, "../../etc", "<script>", "1@",
              "@1", "9@11", "0@11", "K@999", "shove@1", "shove@11>", "recover:", "recover:9", "pick:7", "pick:K*",
              "jumbo@", "recall@x", "7@11;draw", "DROP TABLE games"]
    msgs: list = list(junk)
    msgs += [{"type": t} for t in types]
    msgs += [{"type": "act", "action": v} for v in values]
    msgs += [{"type": "act", "action": "draw", "id": i} for i in ([], {}, 1.5, "z" * 100, True)]
    msgs += [{"type": "hello", "game": g, "token": t} for g, t in [
        (None, None), (game, None), (game, ""), (game, "x" * 24), (other_game, "x"), (game, other_token),
        ("", ""), ("../" * 20, "a"), (123, 456), (game * 10, "t")]]
    msgs += [{"type": "act", "action": "draw", "ply": p} for p in (-1, 10 ** 6, "0", None, [])]
    msgs += [{"type": "rematch"}, {"type": "undo"}]
    for _ in range(200):  # random well-formed but illegal placements and effect choices
        kind = rng.choice(["place", "jumbo", "recall", "shove", "recover", "pick", "use"])
        node = rng.choice([0, 1, 11, 18, 25, 41, 42, 99])
        msgs.append({"type": "act", "action": {
            "place": f"{rng.choice('1234567K')}@{node}", "jumbo": f"jumbo@{node}", "recall": f"recall@{node}",
            "shove": f"shove@{node}>{rng.choice([11, 12, 19])}", "recover": f"recover:{rng.choice('1234567K')}",
            "pick": f"pick:{rng.choice('1234567K')}", "use": rng.choice(["use", "skip"])}[kind]})
    return msgs


def test_fuzz_over_a_thousand_bad_messages_change_nothing(client, store):
    rng = random.Random(1234)
    g = new_game(client, kind="lan", first="blue", terrain="jungle")
    o = new_game(client, kind="hotseat", first="blue")
    tokens = store.get(g["game"]).meta["tokens"]
    blue = SeatSocket(client, g["game"], tokens["blue"])
    # a few real moves first, so the game is mid-way with pieces on the board
    for _ in range(6):
        actor = blue if blue.view["actor"] == "blue" else None
        if actor is None:
            red = SeatSocket(client, g["game"], tokens["red"])
            assert red.request({"type": "act", "action": rng.choice(red.view["legal"]["actions"])})["type"] == "ok"
            red.close()
            blue.until("view")
        else:
            assert blue.request({"type": "act", "action": rng.choice(blue.view["legal"]["actions"])})["type"] == "ok"
    waiting_seat = "red" if blue.view["actor"] == "blue" else "blue"
    waiting = SeatSocket(client, g["game"], tokens[waiting_seat])  # the seat that may not act now
    acting = SeatSocket(client, g["game"], tokens[blue.view["actor"]])
    before = store.get(g["game"])
    snapshot = (before.record, before.over, before.meta)
    stranger = SeatSocket(client, o["game"], o["tokens"]["red"])  # a waiting seat of another game
    sent = 0
    attackers = [waiting, acting, stranger]
    legal_now = acting.view["legal"]["actions"]
    for round_ in range(4):
        msgs = _malformed(rng, g["game"], o["game"], o["tokens"]["blue"])
        rng.shuffle(msgs)
        for msg in msgs:
            who = attackers[sent % 3]
            if who is acting and isinstance(msg, dict) and msg.get("type") == "act" and msg.get("action") in legal_now:
                continue  # a legal move by the rightful seat is not an attack
            if who is acting and isinstance(msg, dict) and msg.get("type") == "undo":
                who = waiting  # the rightful seat may undo its turn; the other seat may not
            if isinstance(msg, dict) and msg.get("type") == "hello" and who is not stranger:
                who = stranger  # a failed hello unbinds nothing, but keep the two seats bound for clarity
            # impersonation: the waiting seat plays the acting seat's legal moves
            if who is waiting and rng.random() < 0.2:
                msg = {"type": "act", "action": rng.choice(legal_now)}
            reply = who.request(msg)
            assert reply["type"] == "error", (msg, reply)
            assert isinstance(reply["message"], str) and 0 < len(reply["message"]) < 300
            sent += 1
        row = store.get(g["game"])
        assert (row.record, row.over, row.meta) == snapshot, f"round {round_} changed the game"
        assert parse_record(store.get(o["game"]).record).actions == []
    assert sent >= 1000
    assert stranger.request({"type": "ping", "id": 1}) == {"type": "pong", "id": 1}
    # the rightful seat still plays normally afterwards
    assert acting.request({"type": "act", "action": legal_now[0]})["type"] == "ok"
    played = len(parse_record(snapshot[0]).actions)  # chance outcomes (a drawn tile) may follow the action
    assert parse_record(store.get(g["game"]).record).actions[played] == legal_now[0]


def test_binary_frames_get_an_error_and_the_socket_stays_open(client):
    g = new_game(client, kind="hotseat")
    s = SeatSocket(client, g["game"], g["tokens"]["blue"])
    s.ws.send_bytes(b"\x00\xff")
    assert s.recv()["type"] == "error"
    assert s.request({"type": "ping"})["type"] == "pong"


# ---------------------------------------------------------------- leaks


def _tiles_in(view: dict) -> Counter:
    """Every tile face a view shows, by seat: board, discard, own rack, opponent tiles seen arriving."""
    c: Counter = Counter()
    for st in view["stacks"].values():
        c.update(tuple(t) for t in st)
    c.update(tuple(t) for t in view["discard"])
    me, opp = view["seat"], "red" if view["seat"] == "blue" else "blue"
    c.update((me, x) for x in view["rack"] + view["laid"])
    c.update((opp, x) for x in view["seen"])
    return c


def _check_views_against_record(record_text: str, views: list[dict], seat: int) -> None:
    """Every view sent to ``seat`` equals the view built from ``seat``'s observation at that moment."""
    rec = parse_record(record_text)
    s = rec.start.copy()
    states = {s.ply: s.copy()}
    logs: dict[int, list[dict]] = {s.ply: []}
    log: list[dict] = []
    for text in rec.actions:
        a = parse_action(text, s.b)
        before = observation(s, seat)
        s.apply(a)
        log = log + log_lines(before, a, observation(s, seat), seat)
        states[s.ply] = s.copy()
        logs[s.ply] = log
    for v in views:
        full = states[v["ply"]]
        expect = seat_view(observation(full, seat), seat, players=v["players"], game=v["game"],
                           can_undo=v["can_undo"], log=logs[v["ply"]][-300:])
        if v.get("covered"):  # a hot-seat page behind its cover holds no tiles (issue 12 item 12)
            expect = covered(expect)
        assert {k: x for k, x in v.items()} == expect, f"view at ply {v['ply']} is not the seat's observation"
        # and the hidden zones of the opponent are only counted
        enemy = 1 - seat
        assert v["counts"][SEATS[enemy]]["rack"] == len(full.rack[enemy])
        shown = _tiles_in(v)
        for (who, troop), n in shown.items():
            if who == SEATS[enemy]:
                seen = sum(1 for t in [x for st in full.stacks for x in st] + full.discard + full.public[enemy]
                           if t >> 4 == enemy and code(t & 15) == troop)
                assert n <= seen, f"ply {v['ply']}: {who} {troop} shown {n} times, visible {seen}"
        text = json.dumps(v)
        for word in ("order", "aside\": [", "reserve\": ["):
            assert word not in text


def test_no_view_carries_hidden_tiles_across_whole_hotseat_games(client, store):
    for k, terrain in enumerate(("battlefield", "castle", "cemetery", "croisette", "jungle")):
        g = new_game(client, kind="hotseat", terrain=terrain)
        blue, red = play_hotseat(client, g, random.Random(k))
        record = store.get(g["game"]).record
        for sock, seat in ((blue, 0), (red, 1)):
            views = [m["view"] for m in sock.received if m["type"] == "view"]
            assert views[-1]["over"]
            _check_views_against_record(record, views, seat)
            for m in sock.received:  # nothing but views and short replies ever reaches a seat
                assert m["type"] in ("welcome", "view", "ok", "error")
                assert "record" not in m and "tokens" not in json.dumps(m)


def test_log_lines_keep_a_blind_pick_blind():
    from toybattle.rules.state import LAY_PICK
    from toybattle.rules.troops import name
    s = State.new("battlefield", first=0, seed=11)
    s.decision = LAY_PICK  # blue's tank points blind at one of red's rack tiles
    before = [observation(s, 0), observation(s, 1)]
    pick = s.sample_chance(random.Random(4))
    s.apply(pick)
    secret = name(pick & 15)
    blue_text = log_lines(before[0], pick, observation(s, 0), 0)[0]["text"]
    red_text = log_lines(before[1], pick, observation(s, 1), 1)[0]["text"]
    assert secret not in blue_text and "one of red's tiles" in blue_text
    assert f"your {secret}" in red_text


def test_views_do_not_change_when_only_the_opponents_hidden_tiles_differ(client, store):
    """Two games alike in everything blue can see, different in red's set-aside and reserve bottom:
    blue is sent exactly the same messages until the differing tile could matter."""
    rng = random.Random(8)
    blue_order = full_army(0)
    rng.shuffle(blue_order)
    red_a = full_army(1)
    rng.shuffle(red_a)
    swap = next(k for k in range(len(red_a) - 1, 3, -1) if red_a[k] != red_a[0])
    red_b = red_a[:]
    red_b[0], red_b[swap] = red_b[swap], red_b[0]  # a set-aside tile trades places with the reserve bottom
    games = []
    for red in (red_a, red_b):
        rec = setup_record("castle", False, 0, [blue_order, red])
        row = GameRow(id=f"diff{len(games)}", kind="hotseat", record=rec.text(),
                      meta={"tokens": {"blue": f"b{len(games)}" * 8, "red": f"r{len(games)}" * 8}})
        store.put(row)
        games.append({"game": row.id, "tokens": row.meta["tokens"]})
    blues = [SeatSocket(client, g["game"], g["tokens"]["blue"]) for g in games]
    reds = [SeatSocket(client, g["game"], g["tokens"]["red"]) for g in games]
    for g in games:  # the same luck in both games for XB-42's random picks
        client.app.state.games.sessions[g["game"]].rng = random.Random(5)
    assert blues[0].view | {"game": None} == blues[1].view | {"game": None}
    step_rng = [random.Random(99), random.Random(99)]
    compared = 0
    for _ in range(60):
        v = blues[0].view
        if v["over"] or v["counts"]["red"]["reserve"] <= 1:  # the bottom tile is about to be drawn
            break
        for k in (0, 1):
            actor = blues[k] if v["actor"] == "blue" else reds[k]
            other = reds[k] if actor is blues[k] else blues[k]
            act = step_rng[k].choice(actor.view["legal"]["actions"])
            assert actor.request({"type": "act", "action": act})["type"] == "ok"
            other.until("view")
        if reds[0].view["rack"] != reds[1].view["rack"]:
            break  # red's own tiles differ now: red may play differently
        assert blues[0].view | {"game": None} == blues[1].view | {"game": None}
        compared += 1
    assert compared >= 30  # a check that stops early would prove little: these seeds compare 58 moves


# ---------------------------------------------------------------- spectators


class Spectator(SeatSocket):
    """A socket that opened a game's watch link."""

    def __init__(self, client, game: str, key: str):  # binds by a watch key, not a token
        self.cm = client.websocket_connect(WS)
        self.ws = self.cm.__enter__()
        self.received, self.view = [], None
        from app_harness import OPEN
        OPEN.append(self)
        self.send({"type": "hello", "game": game, "watch": key})
        assert self.recv()["type"] == "welcome"
        assert self.recv()["type"] == "view"


def _watch_key(client, game: dict) -> str:
    url = client.get(f"/api/games/{game['game']}/watch?token={next(iter(game['tokens'].values()))}").json()["url"]
    assert url.startswith(f"/watch/{game['game']}/")
    return url.rsplit("/", 1)[1]


def _check_spectator_views(record_text: str, views: list[dict]) -> None:
    """Every spectator view equals the one built from the spectator's observation; it shows no
    tile that is not on the table, in the discard or seen by both players arriving on a rack."""
    rec = parse_record(record_text)
    s = rec.start.copy()
    states, logs, log = {s.ply: s.copy()}, {s.ply: []}, []
    for text in rec.actions:
        a = parse_action(text, s.b)
        before = observation(s, SPECTATOR)
        s.apply(a)
        log = log + log_lines(before, a, observation(s, SPECTATOR), SPECTATOR)
        states[s.ply], logs[s.ply] = s.copy(), log
    for v in views:
        full = states[v["ply"]]
        assert v == spectator_view(observation(full, SPECTATOR), log=logs[v["ply"]][-300:], players=v["players"],
                                   game=v["game"]), f"spectator view at ply {v['ply']}"
        assert v["rack"] == v["laid"] == v["seen"] == [] and v["legal"] is None and v["seat"] is None
        shown: Counter = Counter()
        for st in v["stacks"].values():
            shown.update(tuple(t) for t in st)
        shown.update(tuple(t) for t in v["discard"])
        for tiles in v["public"].values():
            shown.update(tuple(t) for t in tiles)
        table: Counter = Counter(tuple([SEATS[t >> 4], code(t & 15)])
                                 for t in [x for st in full.stacks for x in st] + full.discard + full.public[0]
                                 + full.public[1])
        assert not shown - table, f"ply {v['ply']}: a spectator is shown {shown - table}"
        text = json.dumps(v)
        for seat in (0, 1):  # the counts, never the faces, of every hidden zone
            assert v["counts"][SEATS[seat]]["rack"] == len(full.rack[seat])
        for word in ("order", "aside\": [", "reserve\": ["):
            assert word not in text


def test_a_spectator_sees_no_hidden_tile_across_whole_hotseat_games(client, store):
    for k, terrain in enumerate(("castle", "jungle", "cemetery")):
        g = new_game(client, kind="hotseat", terrain=terrain)
        watcher = Spectator(client, g["game"], _watch_key(client, g))
        blue, _ = play_hotseat(client, g, random.Random(20 + k))
        while watcher.view["ply"] != blue.view["ply"] or not watcher.view["over"]:
            watcher.recv()
        views = [m["view"] for m in watcher.received if m["type"] == "view"]
        assert len(views) > 10 and views[-1]["over"] and views[-1]["log"]
        _check_spectator_views(store.get(g["game"]).record, views)


def test_a_spectator_of_a_bot_or_two_device_game_watches_and_does_nothing_else(client, store):
    for kind in ("bot", "lan"):
        g = new_game(client, kind=kind, first="blue", human="blue", **({"level": "random"} if kind == "bot" else {}))
        watcher = Spectator(client, g["game"], _watch_key(client, g))
        assert watcher.view["spectator"] and watcher.view["prompt"].startswith("Blue is playing")
        before = store.get(g["game"]).record
        for msg in ({"type": "act", "action": "draw"}, {"type": "concede"}, {"type": "undo"}, {"type": "hint"},
                    {"type": "rematch"}):
            assert "spectator" in watcher.request(msg)["message"]
        assert store.get(g["game"]).record == before and not store.get(g["game"]).over
        # a watch key is no seat token, and a wrong key opens nothing
        assert client.get(f"/api/games/{g['game']}?token={_watch_key(client, g)}").status_code == 404
        watcher.send({"type": "hello", "game": g["game"], "watch": "nope" * 6})
        assert watcher.until("error")["message"] == "unknown game or token"
        me = SeatSocket(client, g["game"], g["tokens"]["blue"])
        assert me.request({"type": "act", "action": me.view["legal"]["actions"][0]})["type"] == "ok"
        seen = [m["view"] for m in watcher.received if m["type"] == "view"]
        _check_spectator_views(store.get(g["game"]).record, seen)
