"""A player's games: delete one (its token, nothing else), save a finished game as a record file in the
project's notation (docs/notation.md) and bring such a file back as a game (issue 24, "Storage players can
trust"); damaged or foreign rows of the games file cost only themselves."""
from __future__ import annotations

import json
import random
import sqlite3

from app_harness import LOCAL, SeatSocket, new_game
from starlette.testclient import TestClient

from toybattle.app.server import build_app
from toybattle.rules import action_text, parse_record, setup_record
from toybattle.rules.state import deal
from toybattle.store import GameRow, Store

FR = {"accept-language": "fr-FR,fr;q=0.9"}
JSON = {"content-type": "application/json"}
NO_RECORD = "this file is not a Toy Battle game record, or it does not replay"


def finished_record(seed: int, terrain: str = "castle", seats: bool = False) -> str:
    """A whole random game in the record format, played on the rules alone (``seats``: every player's
    action names its seat, as a person may write it)."""
    rng = random.Random(seed)
    first, orders = deal(rng)
    record = setup_record(terrain, False, first, orders)
    s = record.start.copy()
    while not s.over:
        a = s.sample_chance(rng) if s.is_chance else rng.choice(s.legal_actions())
        text = action_text(a, s.b)
        record.actions.append(f"{['blue', 'red'][s.actor]}:{text}" if seats and not s.is_chance else text)
        s.apply(a)
    return record.text()


def rows(store: Store) -> set[str]:
    with sqlite3.connect(store.path) as db:
        return {r[0] for r in db.execute("SELECT id FROM games")}


def delete(client: TestClient, game: str, token: str, **headers):
    return client.request("DELETE", f"/api/games/{game}?token={token}", headers={**JSON, **headers})


def test_a_game_is_deleted_with_its_token_and_a_wrong_token_changes_nothing(client, store):
    g = new_game(client, kind="bot", level="random")
    other = new_game(client, kind="hotseat")
    token = g["tokens"]["blue"]
    for wrong in ("nope", other["tokens"]["blue"], token[:-1]):
        r = delete(client, g["game"], wrong)
        assert r.status_code == 404 and r.json() == {"error": "unknown game or token"}
    assert rows(store) == {g["game"], other["game"]}
    assert client.get(f"/api/games/{g['game']}?token={token}").status_code == 200
    r = delete(client, g["game"], token)
    assert r.status_code == 200 and r.json() == {"deleted": g["game"]}
    assert rows(store) == {other["game"]}
    assert client.get(f"/api/games/{g['game']}?token={token}").status_code == 404
    assert delete(client, g["game"], token).status_code == 404
    # the other game is untouched, and a page still on a deleted game is let go of it
    assert client.get(f"/api/games/{other['game']}?token={other['tokens']['red']}").json()["ply"] == 0
    sock = SeatSocket(client, other["game"], other["tokens"]["blue"])
    assert delete(client, other["game"], other["tokens"]["red"]).status_code == 200
    assert sock.until("error")["message"] == "this game was deleted"
    assert rows(store) == set()


def test_a_deleted_game_is_refused_in_french_too(client):
    r = delete(client, "nope", "x", **FR)
    assert r.status_code == 404 and r.json() == {"error": "partie ou jeton inconnus"}


def test_a_damaged_or_foreign_row_costs_only_itself(tmp_path):
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    good = GameRow(id="good", kind="hotseat", record=finished_record(1),
                   meta={"tokens": {"blue": "tb", "red": "tr"}, "settings": {"kind": "hotseat"}})
    store.put(good)
    store.put(GameRow(id="garbled", kind="hotseat", record="toybattle record 1\nthis is no record",
                      meta={"tokens": {"blue": "gb"}}))
    store.put(GameRow(id="foreign", kind="chess", record="1. e4 e5", meta={"tokens": {"white": "fw"}}))
    store.put(GameRow(id="unfinished", kind="hotseat", record=setup_record("pool", False, 0, deal(random.Random(3))[1])
                      .text(), meta={"tokens": {"blue": "ub", "red": "ur"}}))
    store.close()
    with sqlite3.connect(path) as db:  # a row whose meta is no JSON at all: written by something else
        db.execute("INSERT INTO games (id, kind, created, updated, over, record, meta) "
                   "VALUES ('broken', 'bot', 0, 0, 0, 'x', '{not json')")
    store = Store(path)
    with TestClient(build_app(store, bot_delay=0), base_url=LOCAL) as client:  # resumes every unfinished game
        assert client.get("/api/games/good?token=tb").json()["over"] is True
        assert client.get("/api/games/unfinished?token=ub").json()["ply"] == 0
        for game, token in (("garbled", "gb"), ("foreign", "fw"), ("broken", "x")):
            assert client.get(f"/api/games/{game}?token={token}").status_code == 404
        # the damaged one and the foreign one go with the token stored with them, and only with it
        assert delete(client, "garbled", "nope").status_code == 404
        assert delete(client, "garbled", "gb").status_code == 200
        assert delete(client, "foreign", "fw").status_code == 200
        assert delete(client, "broken", "x").status_code == 404  # no token survives in it: nobody's to delete
        assert rows(store) == {"good", "unfinished", "broken"}
        assert client.get("/api/games/good/replay?token=tr").status_code == 200
    store.close()


def test_only_a_finished_game_on_one_screen_or_against_a_bot_is_exported(client):
    bot = new_game(client, kind="bot", level="random", human="blue")
    token = bot["tokens"]["blue"]
    r = client.get(f"/api/games/{bot['game']}/record?token={token}")
    assert r.status_code == 409 and r.json()["error"] == "a game's record file can be saved once the game is over"
    r = client.get(f"/api/games/{bot['game']}/record?token={token}", headers=FR)
    assert r.json()["error"] == "le fichier d'une partie peut être enregistré une fois la partie terminée"
    lan = new_game(client, kind="lan")
    r = client.get(f"/api/games/{lan['game']}/record?token={lan['tokens']['blue']}")
    assert r.status_code == 403, r.text
    assert client.get(f"/api/games/{bot['game']}/record?token=nope").status_code == 404
    sock = SeatSocket(client, bot["game"], token)
    assert sock.request({"type": "concede"})["type"] == "ok"
    r = client.get(f"/api/games/{bot['game']}/record?token={token}")
    assert r.status_code == 200
    terrain = client.get(f"/api/games/{bot['game']}?token={token}").json()["terrain"]
    assert r.headers["content-disposition"] == f'attachment; filename="toybattle-{terrain}-{bot["game"]}.tbr"'
    assert r.text.startswith("toybattle record 1\n") and "# blue conceded" in r.text
    record = parse_record(r.text)  # the project's own reader takes it back
    assert len(record.replay().rack[0]) > 0


def test_a_record_file_round_trips_through_export_and_import(client, store):
    text = finished_record(7, "pool", seats=True)
    r = client.post("/api/games/import", json={"record": text})
    assert r.status_code == 200, r.text
    g = r.json()
    assert g["kind"] == "hotseat" and g["over"] is True and g["terrain"] == "pool"
    assert set(g["tokens"]) == {"blue", "red"}
    original = parse_record(text).replay()
    status = client.get(f"/api/games/{g['game']}?token={g['tokens']['red']}").json()
    assert status["over"] is True and status["ply"] == original.ply and status["result"]
    assert len(client.get(f"/api/games/{g['game']}/replay?token={g['tokens']['blue']}").json()["frames"]) > 2
    exported = client.get(f"/api/games/{g['game']}/record?token={g['tokens']['blue']}")
    assert exported.status_code == 200 and exported.headers["content-type"].startswith("text/plain")
    again = parse_record(exported.text).replay()
    assert (again.ply, again.winner, again.reason, again.stacks) == \
        (original.ply, original.winner, original.reason, original.stacks)
    assert ":" not in " ".join(parse_record(exported.text).actions).replace("pick:", "")  # written as the app writes
    second = client.post("/api/games/import", json={"record": exported.text}).json()
    assert second["game"] != g["game"] and rows(store) == {g["game"], second["game"]}


def test_an_unfinished_record_comes_back_as_a_game_to_play_on(client):
    text = setup_record("castle", True, 1, deal(random.Random(5))[1]).text()
    g = client.post("/api/games/import", json={"record": text}).json()
    assert g["over"] is False
    sock = SeatSocket(client, g["game"], g["tokens"]["red"])  # red starts (first 1)
    assert sock.view["actor"] == "red" and sock.view["legal"]["actions"]
    assert sock.request({"type": "act", "action": sock.view["legal"]["actions"][0]})["type"] == "ok"


def test_a_bad_file_gets_one_line_and_changes_nothing(client, store):
    good = finished_record(2)
    lines = good.splitlines()
    illegal = "\n".join([*lines[:-1], lines[-1] + " 7@41 7@41"]) + "\n"
    cases = [
        ({"record": json.dumps({"games": {"x": 1}})}, NO_RECORD),
        ({"record": "toybattle position 1\nterrain castle\n"}, NO_RECORD),
        ({"record": illegal}, NO_RECORD),
        ({"record": good.replace("terrain castle", "terrain moon")}, NO_RECORD),
        ({"record": ""}, "a game record file is a text of at most 12000 characters"),
        ({"record": good + "# " + "x" * 12_000}, "a game record file is a text of at most 12000 characters"),
        ({"record": 12}, 'send {"record": the text of a game record file}'),
        ({"record": good, "seat": "blue"}, 'send {"record": the text of a game record file}'),
        ([good], "send a JSON object"),
    ]
    for body, line in cases:
        r = client.post("/api/games/import", json=body)
        assert r.status_code == 400 and r.json()["error"] == line, (body, r.text)
    detail = client.post("/api/games/import", json={"record": illegal}).json()["detail"]
    assert detail.startswith(f"line {len(lines)}: action ") and "7@41" in detail
    french = client.post("/api/games/import", json={"record": "{}"}, headers=FR).json()["error"]
    assert french == "ce fichier n'est pas une partie de Toy Battle, ou elle ne se rejoue pas"
    hidden = "toybattle record 1\nposition\n" + "\n".join(
        ["terrain castle", "mode standard", "first blue", "turn blue", "decision turn", "blue rack rest",
         "red rack ?x3", "red reserve ?x17", "red aside ?x4", "blue reserve -", "blue aside -", "discard -",
         "claimed -"]) + "\nend\nactions\n"
    r = client.post("/api/games/import", json={"record": hidden})
    assert r.status_code == 400, r.text
    assert rows(store) == set()
