"""Chat on the app's websocket: both seats of a two-device game hear each line; bot and hot-seat
games have none; lines are bounded, rate-limited, stripped of control characters and never stored."""
from __future__ import annotations

import json
import re
from pathlib import Path

from app_harness import WS, SeatSocket, new_game

from toybattle.chat import BURST, MAX_CHAT, PHRASES, WINDOW

WEB = Path(__file__).resolve().parents[2] / "src" / "toybattle" / "web"


def test_two_devices_chat_and_nothing_of_it_is_stored(client, store):
    g = new_game(client, kind="lan", first="blue")
    blue = SeatSocket(client, g["game"], g["tokens"]["blue"])
    red = SeatSocket(client, g["game"], store.get(g["game"]).meta["tokens"]["red"])
    assert blue.view["game"]["chat"] is True
    assert blue.request({"type": "chat", "text": "<b>hi</b>\x00\n there"})["type"] == "ok"
    heard = red.until("chat")["lines"]
    assert heard == [{"n": 1, "seat": "blue", "text": "<b>hi</b>   there"}]  # as text; the page never parses it
    assert [m["lines"] for m in blue.received if m["type"] == "chat"] == [heard]  # the speaker's page shows it too
    for bad, why in ((None, "a text"), ("   ", "empty"), ("x" * (MAX_CHAT + 1), f"at most {MAX_CHAT}")):
        reply = red.request({"type": "chat", "text": bad})
        assert reply["type"] == "error" and why in reply["message"], reply
    replies = [red.request({"type": "chat", "text": f"line {i}"})["type"] for i in range(BURST + 2)]
    assert replies == ["ok"] * BURST + ["error", "error"]  # rate-limited per seat
    assert blue.request({"type": "chat", "text": "still me"})["type"] == "ok"  # the other seat is not
    row = store.get(g["game"])
    assert "hi" not in row.record and "line" not in str(row.meta) and "still me" not in row.record
    late = SeatSocket(client, g["game"], g["tokens"]["blue"])  # a page that reconnects gets the lines so far
    lines = late.until("chat")["lines"]
    assert lines[0]["text"] == "<b>hi</b>   there" and lines[-1]["text"] == "still me"
    for s in (blue, red, late):
        s.close()


def test_bot_and_hot_seat_games_have_no_chat(client):
    for body in ({"kind": "bot", "level": "random"}, {"kind": "hotseat"}):
        g = new_game(client, **body)
        seat = next(iter(g["tokens"]))
        sock = SeatSocket(client, g["game"], g["tokens"][seat])
        assert sock.view["game"]["chat"] is False
        reply = sock.request({"type": "chat", "text": "hello"})
        assert reply["type"] == "error" and "no chat" in reply["message"]
        sock.close()


def test_a_watcher_gets_no_chat_and_a_french_page_reads_its_refusal_in_french(client, store):
    g = new_game(client, kind="lan", first="blue")
    blue = SeatSocket(client, g["game"], g["tokens"]["blue"])
    assert blue.request({"type": "chat", "text": "before anyone watches"})["type"] == "ok"
    url = client.get(f"/api/games/{g['game']}/watch?token={g['tokens']['blue']}").json()["url"]
    watcher = client.websocket_connect(WS)
    ws = watcher.__enter__()
    ws.send_text(json.dumps({"type": "hello", "game": g["game"], "watch": url.rsplit("/", 1)[1]}))
    assert ws.receive_json()["type"] == "welcome"
    view = ws.receive_json()
    assert view["type"] == "view" and view["view"]["game"]["chat"] is False
    ws.send_text(json.dumps({"type": "chat", "id": 1, "text": "hello players"}))
    reply = ws.receive_json()
    assert reply["type"] == "error" and "spectator" in reply["message"]  # no line from a watcher, and none to it
    assert blue.request({"type": "chat", "text": "and now"})["type"] == "ok"
    ws.send_text(json.dumps({"type": "ping", "id": 2}))
    assert ws.receive_json()["type"] == "pong"  # no chat message came before the pong
    watcher.__exit__(None, None, None)
    red = SeatSocket(client, g["game"], store.get(g["game"]).meta["tokens"]["red"])
    red.send({"type": "hello", "game": g["game"], "token": store.get(g["game"]).meta["tokens"]["red"], "lang": "fr"})
    red.until("welcome")
    replies = [red.request({"type": "chat", "text": f"ligne {i}"}) for i in range(BURST + 1)]
    assert replies[-1] == {"type": "error", "id": replies[-1]["id"],
                           "message": f"doucement : au plus {BURST} messages en {WINDOW:g} s"}
    blue.close()
    red.close()


def test_a_quick_phrase_goes_as_its_key_and_an_unknown_key_is_refused_in_one_line(client, store):
    g = new_game(client, kind="lan", first="blue")
    blue = SeatSocket(client, g["game"], g["tokens"]["blue"])
    red_token = store.get(g["game"]).meta["tokens"]["red"]
    red = SeatSocket(client, g["game"], red_token)
    red.send({"type": "hello", "game": g["game"], "token": red_token, "lang": "fr"})
    red.until("welcome")
    assert blue.request({"type": "chat", "phrase": "luck"})["type"] == "ok"
    assert red.until("chat")["lines"] == [{"n": 1, "seat": "blue", "phrase": "luck"}]  # each page says it
    for bad in ("<b>luck</b>", "chat.quick.luck", 7, ""):
        reply = blue.request({"type": "chat", "phrase": bad})
        assert reply["type"] == "error" and reply["message"] == "an unknown quick phrase is not sent", reply
    reply = red.request({"type": "chat", "phrase": "gg", "text": "hi"})
    assert reply["message"] == "un message du tchat est un texte ou une phrase rapide, pas les deux"
    reply = red.request({"type": "chat", "phrase": "bribe"})
    assert reply["message"] == "une phrase rapide inconnue n'est pas envoyée"  # in the page's language
    assert blue.request({"type": "ping"})["type"] == "pong"
    assert [m["lines"] for m in blue.received if m["type"] == "chat"] == [[{"n": 1, "seat": "blue", "phrase": "luck"}]]
    assert "luck" not in store.get(g["game"]).record
    blue.close()
    red.close()


def test_the_page_offers_the_servers_quick_phrases_and_says_each_in_both_languages():
    page = (WEB / "js" / "chat.js").read_text(encoding="utf-8")
    offered = re.search(r"const PHRASES = \[([^\]]*)\]", page)
    assert offered and re.findall(r'"(\w+)"', offered.group(1)) == list(PHRASES)
    for lang in ("en", "fr"):
        words = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        quick = {k.removeprefix("chat.quick.") for k in words if k.startswith("chat.quick.")}
        assert quick == set(PHRASES), lang
