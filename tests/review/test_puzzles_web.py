"""The puzzles in the app (issue 28): the routes of toybattle.review.puzzles_web in the product's app (assembly) over
a real games file. The list; a puzzle served as the solver's view (nothing of the other seat's hidden tiles, no
answer); answers judged by the server, right and wrong, with the explanation; texts in the page's language; a bad
id, body or action refused in one line with a 4xx status, changing nothing."""
from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx.*")
from starlette.testclient import TestClient  # noqa: E402

from toybattle.app.view import seat_view  # noqa: E402
from toybattle.assembly import build_app  # noqa: E402
from toybattle.review.puzzles import builtin_puzzles  # noqa: E402
from toybattle.rules import SEATS, action_text, determinize, observation, parse_action  # noqa: E402
from toybattle.rules.troops import code  # noqa: E402
from toybattle.said import localize, say  # noqa: E402
from toybattle.store import Store  # noqa: E402

LOCAL = "http://127.0.0.1"  # the app answers only to its own address
PUZZLES = builtin_puzzles()
FR = {"accept-language": "fr-FR,fr;q=0.9"}


@pytest.fixture(scope="module")
def client(tmp_path_factory) -> Iterator[TestClient]:
    store = Store(tmp_path_factory.mktemp("puzzles") / "games.sqlite3")
    with TestClient(build_app(store, bot_delay=0), base_url=LOCAL) as c:
        yield c
    store.close()


def keys(value: Any) -> set[str]:
    """Every key of every object in ``value``."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


def one_line(r) -> str:
    assert 400 <= r.status_code < 500, (r.status_code, r.text)
    body = r.json()
    assert list(body) == ["error"], body
    assert isinstance(body["error"], str) and body["error"].strip() and "\n" not in body["error"]
    return str(body["error"])


def wrong_action(p) -> str:
    """A legal action of the puzzle's position that is not its answer."""
    obs = p.state()
    best = parse_action(p.answer, obs.b)
    return next(action_text(a, obs.b) for a in obs.legal_actions() if a != best)


def test_the_list(client):
    r = client.get("/api/puzzles")
    assert r.status_code == 200
    rows = r.json()["puzzles"]
    assert [x["id"] for x in rows] == [p.id for p in PUZZLES] and len(rows) >= 30
    for x, p in zip(rows, PUZZLES, strict=True):
        assert (x["terrain"], x["difficulty"], x["seat"]) == (p.terrain, p.difficulty, SEATS[p.seat])
    assert not keys(rows) & {"answer", "why", "position", "explanation", "hint"}


def test_the_home_links_to_the_puzzles(client):
    meta = client.get("/api/meta").json()
    assert {"label": "Puzzles", "href": "/#/puzzles", "id": "btn-puzzles"} in meta["links"]
    assert "puzzles" in meta["features"]
    french = client.get("/api/meta", headers=FR).json()["links"]
    assert {"label": "Énigmes", "href": "/#/puzzles", "id": "btn-puzzles"} in french


@pytest.mark.parametrize("p", PUZZLES[:8], ids=lambda p: p.id)
def test_a_puzzle_is_the_solvers_view_and_never_its_answer(client, p):
    r = client.get(f"/api/puzzles/{p.id}")
    assert r.status_code == 200
    got = r.json()
    assert not keys(got) & {"answer", "why", "explanation", "answer_words", "answer_node"}
    assert got["hint"] == [str(m) for m in p.hint]
    assert got["prompt"].startswith(f"You play {SEATS[p.seat].capitalize()}")
    view = got["view"]
    obs = p.state()
    # whatever the other seat's hidden tiles really are, the view is the same: it is built from the observation
    for seed in range(3):
        full = determinize(obs, random.Random(seed))
        assert observation(full, p.seat) == obs
        shown = seat_view(observation(full, p.seat), p.seat, game=view["game"])
        assert view == localize(shown, "en")
        enemy = 1 - p.seat
        assert view["counts"][SEATS[enemy]]["rack"] == len(full.rack[enemy])
    assert view["seat"] == SEATS[p.seat] and view["actor"] == SEATS[p.seat]
    assert sorted(view["rack"]) == sorted(code(t & 15) for t in obs.rack[p.seat])  # the solver's own rack
    assert "?" not in view["rack"] and view["seen"] == [code(t & 15) for t in obs.public[1 - p.seat]]
    # the page can draw it and turn taps into action texts: the answer is one of the taps the view offers
    taps = [t["action"] for m in view["legal"]["rack"].values() for t in m.values() if "refused" not in t]
    taps += [t["action"] for t in view["legal"]["board"].values() if "action" in t and "refused" not in t]
    assert p.answer in taps and p.answer in view["legal"]["actions"]


def test_right_answers(client):
    for p in PUZZLES:
        r = client.post(f"/api/puzzles/{p.id}/answer", json={"action": p.answer})
        assert r.status_code == 200, r.text
        got = r.json()
        assert got["correct"] is True and got["answer"] == p.answer and got["played"] == p.answer
        assert got["explanation"] == [str(m) for m in p.why] and got["explanation"]
        assert got["answer_node"] == int(p.answer.split("@")[1]) and got["answer_words"].startswith("The best move: ")
        assert got["view"]["legal"] is None  # the position after the best move: shown, not tapped


def test_wrong_answers(client):
    for p in PUZZLES[::4]:
        wrong = wrong_action(p)
        r = client.post(f"/api/puzzles/{p.id}/answer", json={"action": wrong})
        assert r.status_code == 200, r.text
        got = r.json()
        assert got["correct"] is False and got["played"] == wrong
        assert got["answer"] == p.answer and got["explanation"] == [str(m) for m in p.why]


def test_an_answer_in_another_spelling_is_judged_the_same(client):
    p = next(p for p in PUZZLES if not p.answer.startswith("jumbo"))
    got = client.post(f"/api/puzzles/{p.id}/answer", json={"action": f"  {p.answer.lower()} "}).json()
    assert got["correct"] is True and got["played"] == p.answer


def test_french_texts_with_a_french_page(client):
    p = next(p for p in PUZZLES if p.answer.startswith("jumbo"))
    got = client.get(f"/api/puzzles/{p.id}", headers=FR).json()
    assert got["prompt"].startswith("Vous jouez ") and "Mastok" in got["prompt"]
    assert got["hint"] == [say(m, "fr") for m in p.hint]
    assert got["view"]["prompt"] != client.get(f"/api/puzzles/{p.id}").json()["view"]["prompt"]  # the view in French
    assert client.get(f"/api/puzzles/{p.id}?lang=fr").json()["prompt"] == got["prompt"]
    answered = client.post(f"/api/puzzles/{p.id}/answer", json={"action": p.answer}, headers=FR).json()
    assert answered["explanation"] == [say(m, "fr") for m in p.why]
    assert answered["answer_words"].startswith("Le meilleur coup : Mastok")
    assert client.get("/api/puzzles", headers=FR).json()["puzzles"][0]["terrain_name"] != \
        client.get("/api/puzzles").json()["puzzles"][0]["terrain_name"]
    assert one_line(client.get("/api/puzzles/nope", headers=FR)) == "pas d'énigme de ce nom"
    assert one_line(client.post(f"/api/puzzles/{p.id}/answer", json={"action": "zz"}, headers=FR)).startswith(
        "action invalide")


def test_bad_ids_and_actions_get_one_line_and_change_nothing(client):
    p = next(p for p in PUZZLES if not p.answer.startswith("jumbo"))
    before = client.get(f"/api/puzzles/{p.id}").json()
    assert one_line(client.get("/api/puzzles/nope")) == "no such puzzle"
    assert client.get("/api/puzzles/nope").status_code == 404
    assert one_line(client.post("/api/puzzles/nope/answer", json={"action": p.answer})) == "no such puzzle"
    url = f"/api/puzzles/{p.id}/answer"
    assert one_line(client.post(url, json={"action": "zz"})).startswith("bad action 'zz'")
    assert one_line(client.post(url, json={"action": "7@999"}))
    assert one_line(client.post(url, json={})).startswith("'action' is the text of one action")
    assert one_line(client.post(url, json={"action": 7}))
    assert one_line(client.post(url, json={"action": "K@17" * 20}))
    assert one_line(client.post(url, json=["K@17"])) == "send a JSON object"
    assert one_line(client.post(url, content=b"{", headers={"content-type": "application/json"}))
    assert one_line(client.post(url, content=b"[" * 100 + b"]" * 100, headers={"content-type": "application/json"}))
    # a legal action of another decision (Jumbo's target at a placement): refused with its rule
    illegal = one_line(client.post(url, json={"action": "jumbo@17"}))
    assert illegal.startswith("jumbo@17 cannot be played here: ")
    obs = p.state()
    not_held = next(f"{t}@{obs.b.ids[-1]}" for t in "1234567K" if t not in before["view"]["rack"])
    assert one_line(client.post(url, json={"action": not_held})).startswith(f"{not_held} cannot be played here")
    assert client.get(f"/api/puzzles/{p.id}").json() == before
    assert client.post(url, json={"action": p.answer}).json()["correct"] is True
