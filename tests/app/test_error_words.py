"""Every refused request in the page's language (issue 14): the HTTP errors of the app, the lessons and
online play, and the websocket's own errors, said through the catalogue; English stays as it was."""
from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import toybattle
from toybattle.app import words
from toybattle.assembly import build_app
from toybattle.store import Store

FR = {"accept-language": "fr-FR,fr;q=0.9"}
SRC = Path(toybattle.__file__).parent
# the modules whose refusals reach a player: HTTP routes, the websocket, the sessions behind them
ROUTES = ["app/server.py", "app/session.py", "online/web.py", "lessons/web.py"]


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
    """The first argument of every Refused(...), _error(...), error_response(...) and {"error": ...}."""
    out: list[ast.expr] = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("Refused", "_error", "error_response") \
                and node.args:
            out.append(node.args[0])
        elif isinstance(node, ast.Dict):
            out += [v for k, v in zip(node.keys, node.values, strict=True)
                    if isinstance(k, ast.Constant) and k.value in ("error", "message")]
    return [x for x in out if isinstance(x, ast.Constant | ast.JoinedStr)]


def _samples(x: ast.expr) -> list[str]:
    """The texts a literal or an f-string can be, each varying part filled with a few sample words."""
    if isinstance(x, ast.Constant):
        return [x.value] if isinstance(x.value, str) else []
    assert isinstance(x, ast.JoinedStr)
    holes = sum(isinstance(v, ast.FormattedValue) for v in x.values)
    out = []
    for fill in itertools.product(["24", "'x'", "blue", "x, y"], repeat=holes):
        it = iter(fill)
        out.append("".join(v.value if isinstance(v, ast.Constant) else next(it) for v in x.values))
    return out


@pytest.mark.parametrize("module", ROUTES)
def test_every_refusal_a_route_writes_is_in_the_catalogue(module):
    missing = []
    for x in _refusals(SRC / module):
        said = _samples(x)
        if said and not any(words.translate(s, "fr") != s for s in said):
            missing.append(said[0])
    assert missing == []


def test_the_invitation_and_the_network_switch_speak_the_pages_language(client):
    g = client.post("/api/games", json={"kind": "lan"}).json()
    invite = client.get(f"/api/games/{g['game']}/invite?token={g['tokens']['blue']}", headers=FR).json()
    assert invite["note"].startswith("Cette appli n'est ouverte qu'à cet ordinateur")
    assert invite["network"]["warning"].startswith("Toute personne sur ce réseau")
    english = client.get(f"/api/games/{g['game']}/invite?token={g['tokens']['blue']}").json()
    assert english["note"].startswith("This app is open to this computer only")
