"""Every refused request in the page's language (issue 14): the HTTP errors of the app, the lessons and
online play, and the websocket's own errors, each a message said in the page's language (issue 27: by id,
never parsed back from English); English stays as it was."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import toybattle
from toybattle.assembly import build_app
from toybattle.store import Store

FR = {"accept-language": "fr-FR,fr;q=0.9"}
SRC = Path(toybattle.__file__).parent
# the modules whose refusals reach a player: HTTP routes, the websocket, the sessions behind them
ROUTES = ["app/guard.py", "app/json_api.py", "app/routes.py", "app/records.py", "app/sockets.py", "app/session.py",
          "online/web.py", "lessons/web.py"]


@pytest.fixture
def client(tmp_path):
    app = build_app(Store(tmp_path / "games.sqlite"), bot_delay=0.0, resume=False)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield c


@pytest.mark.parametrize("method, url, body, english, french", [
    ("get", "/api/lessons/nope", None, "no such lesson", "pas de leçon de ce nom"),
    ("get", "/api/terrains/moon", None, "unknown terrain 'moon'", "terrain inconnu 'moon'"),
    ("post", "/api/games", [], "send a JSON object", "envoyez un objet JSON"),
    ("post", "/api/games", {"kind": "bot", "level": "god"}, "unknown bot level 'god'", "niveau de bot inconnu 'god'"),
    ("post", "/api/lessons/roxy-medals/play", {"actions": ["draw"] * 25},
     "'actions' is a list of at most 24 actions such as \"7@18\"",
     "« actions » est une liste d'au plus 24 actions comme \"7@18\""),
    ("post", "/api/online/join", {"code": "abc"}, "'abc' is not a room code (it looks like 7-guitarist-revenge)",
     "'abc' n'est pas un code de salon (il ressemble à 7-guitarist-revenge)"),
    ("get", "/api/games/nope?token=x", None, "unknown game or token", "partie ou jeton inconnus"),
])
def test_http_errors_in_the_pages_language(client, method, url, body, english, french):
    send = getattr(client, method)
    kwargs = {} if body is None else {"json": body}
    en = send(url, **kwargs)
    fr = send(url, headers=FR, **kwargs)
    assert en.status_code == fr.status_code >= 400
    assert en.json() == {"error": english}
    assert fr.json() == {"error": french}
    assert send(url + ("&" if "?" in url else "?") + "lang=fr", **kwargs).json() == {"error": french}


def test_the_guards_refusal_too(client):
    r = client.post("/api/games", content=b"{}", headers={"content-type": "text/plain", **FR})
    assert r.status_code == 415 and r.json()["error"].startswith("envoyez un objet JSON avec Content-Type")


def test_websocket_errors_in_the_pages_language(client):
    with client.websocket_connect("ws://127.0.0.1/ws") as ws:
        ws.send_json({"type": "hello", "game": "g", "token": "t", "lang": "fr"})
        assert ws.receive_json()["message"] == "partie ou jeton inconnus"
        ws.send_json({"type": "act", "action": "7@12"})
        assert ws.receive_json()["message"] == "dites d'abord bonjour (hello) avec votre partie et votre jeton"
        ws.send_bytes(b"{}")
        assert ws.receive_json()["message"] == "envoyez des trames texte contenant du JSON"


def _refusals(path: Path) -> list[ast.expr]:
    """The first argument of every Refused(...), _error(...), error_response(...), fail(...), raise X(...) and
    {"error": ...}: where a module writes a refusal."""
    out: list[ast.expr] = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        name = getattr(node.func, "id", "") or getattr(node.func, "attr", "") if isinstance(node, ast.Call) else ""
        if name in ("Refused", "_error", "error_response", "fail", "ValueError", "SessionError", "LinkError",
                    "Malformed", "Garbled", "Forfeit", "ChatRefused", "TooDeep", "RoomGone") and node.args:
            out.append(node.args[-1] if name == "Forfeit" else node.args[0])
        elif isinstance(node, ast.Dict):
            out += [v for k, v in zip(node.keys, node.values, strict=True)
                    if isinstance(k, ast.Constant) and k.value in ("error", "message")]
    return out


# errors no player reads: a caller's misuse, or a check whose error is caught and said as a message
INTERNAL = ("stored record cannot be read", "not this peer's turn to send", "the game has not begun", "not hex",
            "not a PAKE message", "no side")


@pytest.mark.parametrize("module", ROUTES + ["online/game.py", "online/protocol.py", "online/wire.py",
                                            "online/transport.py", "online/mailbox/client.py", "app/guard.py"])
def test_every_refusal_a_module_writes_is_a_message(module):
    """No refusal is written as English text (a literal or an f-string): each is a message (Said), said in
    the page's language where it is sent; what is not a literal is a message or an exception passed on."""
    english = [f"{module}:{x.lineno} {ast.unparse(x)[:80]}" for x in _refusals(SRC / module)
               if isinstance(x, ast.JoinedStr) or (isinstance(x, ast.Constant) and isinstance(x.value, str)
                                                    and " " in x.value)]
    assert [e for e in english if not any(i in e for i in INTERNAL)] == []


def test_the_invitation_and_the_network_switch_speak_the_pages_language(client):
    g = client.post("/api/games", json={"kind": "lan"}).json()
    invite = client.get(f"/api/games/{g['game']}/invite?token={g['tokens']['blue']}", headers=FR).json()
    assert invite["note"].startswith("Cette appli n'est ouverte qu'à cet ordinateur")
    assert invite["network"]["warning"].startswith("Toute personne sur ce réseau")
    english = client.get(f"/api/games/{g['game']}/invite?token={g['tokens']['blue']}").json()
    assert english["note"].startswith("This app is open to this computer only")
