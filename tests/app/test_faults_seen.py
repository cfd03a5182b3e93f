"""Issue 26 item 10: a spectator's redaction is seen by a test.

A real game in the in-process app, dealt so that each rack holds tiles a page would give away at once
(all three of a seat's Roxies on its rack, its Kwaks on the rack or set aside), is watched through its
watch link while both seats play. Every message the watch socket receives is checked against the true
game replayed from the stored record, with nothing taken from the app's own redaction code
(``spectator_view``, ``observation``): no rack, laid tiles or seen tiles of any seat, only counts of the
hidden zones, no tile face beyond those the table, the discard and both players' public tiles show, and
no name of a tile that is hidden from both players.
"""
from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from app_harness import OPEN, WS, SeatSocket

from toybattle.rules import SEATS, State, parse_action, parse_record, setup_record
from toybattle.rules.troops import INFO, code, full_army, name, tile
from toybattle.store import GameRow

ROXY, KWAK, XB42 = 7, 8, 5
HIDDEN_KINDS = (ROXY, KWAK)  # never placed in this game: each face must stay unseen by a spectator
CODES = {INFO[t].code for t in INFO} | {"?"}


class Watcher(SeatSocket):
    """A socket that opened a game's watch link (a watch key, never a seat's token)."""

    def __init__(self, client, game: str, key: str):
        self.cm = client.websocket_connect(WS)
        OPEN.append(self)
        self.ws = self.cm.__enter__()
        self.received: list[dict] = []
        self.view: dict | None = None
        self.send({"type": "hello", "game": game, "watch": key})
        welcome = self.recv()
        assert welcome["type"] == "welcome" and welcome["seat"] is None, welcome
        assert self.recv()["type"] == "view"


def _orders() -> list[list[int]]:
    """Tile orders (first 4 set aside, then the reserve from the top): blue (first, 3 tiles) opens with its
    three Roxies and sets its three Kwaks aside; red (4 tiles) opens with its three Kwaks and a Roxy, and sets
    its other two Roxies aside. The rest of each army is shuffled into the reserve."""
    def order(seat: int, aside: list[int], rack: list[int]) -> list[int]:
        rest = Counter(full_army(seat))
        rest.subtract(tile(seat, t) for t in aside + rack)
        reserve = list(rest.elements())
        random.Random(40 + seat).shuffle(reserve)
        return [tile(seat, t) for t in aside + rack] + reserve

    return [order(0, [KWAK, KWAK, KWAK, XB42], [ROXY, ROXY, ROXY]),
            order(1, [ROXY, ROXY, XB42, 1], [KWAK, KWAK, KWAK, ROXY])]


def _start(client, store) -> dict[str, Any]:
    rec = setup_record("castle", False, 0, _orders())
    tokens = {"blue": "b" * 32, "red": "r" * 32}
    store.put(GameRow(id="watched", kind="hotseat", record=rec.text(), meta={"tokens": tokens}))
    # the deal did what this test needs: the telling tiles are hidden on the racks from the start
    assert sorted(t & 15 for t in rec.start.rack[0]) == [ROXY] * 3
    assert sorted(t & 15 for t in rec.start.rack[1]) == [ROXY] + [KWAK] * 3
    return {"game": "watched", "tokens": tokens}


def _watch_key(client, game: dict[str, Any]) -> str:
    r = client.get(f"/api/games/{game['game']}/watch?token={game['tokens']['blue']}")
    assert r.status_code == 200, r.text
    url = r.json()["url"]
    assert url.startswith(f"/watch/{game['game']}/")
    return str(url.rsplit("/", 1)[1])


def _states(record_text: str) -> dict[int | None, State]:
    """The true game after every action, by ply (both seats' hidden tiles known); None: at the start."""
    rec = parse_record(record_text)
    s = rec.start.copy()
    states: dict[int | None, State] = {None: s.copy(), s.ply: s.copy()}
    for text in rec.actions:
        s.apply(parse_action(text, s.b))
        states[s.ply] = s.copy()
    return states


def _walk(obj: Any, path: str = ""):
    """Every (path, value) in a JSON value, depth first."""
    yield path, obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _walk(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _walk(v, f"{path}[{i}]")


def _check(msg: dict[str, Any], full: State) -> None:
    """One message sent to a spectator, against the true game ``full`` at its ply."""
    v = msg.get("view")
    if v is not None:
        ply = v["ply"]
        # nothing that is a seat's own: no rack, no laid tiles, no tiles seen arriving, no choices
        assert v["seat"] is None and v["spectator"] is True, f"ply {ply}: a spectator bound to a seat"
        assert v["rack"] == [], f"ply {ply}: a spectator is sent a rack: {v['rack']}"
        assert v["laid"] == [], f"ply {ply}: a spectator is sent laid tiles: {v['laid']}"
        assert v["seen"] == [], f"ply {ply}: a spectator is sent a seat's seen tiles: {v['seen']}"
        assert v["legal"] is None and v["can_undo"] is False, f"ply {ply}: a spectator is offered choices"
        # every hidden zone only counted, and counted right
        for s in (0, 1):
            assert v["counts"][SEATS[s]] == {"rack": len(full.rack[s]), "laid": len(full.laid[s]),
                                             "reserve": len(full.reserve[s]), "aside": len(full.aside[s])}
    # no tile face beyond what both players see: the table, the discard, the tiles seen arriving on a rack
    visible = Counter((SEATS[t >> 4], code(t & 15)) for t in _visible_tiles(full))
    shown: Counter = Counter()
    for path, x in _walk(msg):
        if isinstance(x, list) and len(x) == 2 and x[0] in SEATS and x[1] in CODES:
            shown[tuple(x)] += 1
        # a seat's own tiles go to its page as bare faces (a rack, laid tiles): a spectator gets no such list
        if isinstance(x, list) and x and all(isinstance(c, str) and c in CODES for c in x):
            raise AssertionError(f"ply {full.ply}: {path}: a spectator is sent a seat's tiles {x}")
        if path.rsplit(".", 1)[-1] in ("reserve", "aside", "order", "hand", "tiles"):
            assert not isinstance(x, list), f"{path}: a hidden zone's tiles listed ({x!r}), not counted"
    assert not shown - visible, f"ply {full.ply}: a spectator is shown {dict(shown - visible)}"
    # the telling tiles: while both players' kinds stay hidden, their names appear nowhere
    text = json.dumps(msg)
    for kind in HIDDEN_KINDS:
        if not any(t & 15 == kind for t in _visible_tiles(full)):
            assert name(kind) not in text, f"ply {full.ply}: a spectator's message names {name(kind)}"


def _visible_tiles(full: State) -> list[int]:
    """The tiles both players see: the table, the discard, the tiles seen arriving on either rack."""
    return [x for st in full.stacks for x in st] + full.discard + full.public[0] + full.public[1]


def _policy(rng: random.Random, actions: list[str]) -> str | None:
    """A random legal action that never places a Roxy, a Kwak or an XB-42 (which would show a rack tile)."""
    quiet = [a for a in actions if not a.startswith((f"{code(ROXY)}@", f"{code(KWAK)}@", f"{code(XB42)}@"))]
    return rng.choice(quiet) if quiet else None


def test_a_spectator_is_sent_no_rack_and_no_hidden_tile_while_a_game_is_played(client, store):
    game = _start(client, store)
    watcher = Watcher(client, game["game"], _watch_key(client, game))
    seats = {s: SeatSocket(client, game["game"], game["tokens"][s]) for s in SEATS}
    rng = random.Random(7)
    played = 0
    for _ in range(40):
        v = seats["blue"].view
        if v["over"]:
            break
        actor = seats[v["actor"]]
        action = _policy(rng, actor.view["legal"]["actions"])
        if action is None:
            break
        assert actor.request({"type": "act", "action": action})["type"] == "ok"
        seats["red" if v["actor"] == "blue" else "blue"].until("view")
        played += 1
        while watcher.view["ply"] != actor.view["ply"]:
            watcher.recv()
    assert played >= 20, f"only {played} actions: the watch proved little"
    states = _states(store.get(game["game"]).record)
    views = [m for m in watcher.received if m["type"] == "view"]
    assert len(views) > played // 2
    for m in watcher.received:
        assert m["type"] in ("welcome", "view"), m
        full = states[m["view"]["ply"]] if m["type"] == "view" else states[None]
        _check(m, full)
    # the telling tiles were on the racks (and set aside) all along: the check had something to find
    last = states[views[-1]["view"]["ply"]]
    assert tile(0, ROXY) in last.rack[0] and tile(1, KWAK) in last.rack[1]
