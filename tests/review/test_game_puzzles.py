"""Puzzles from the player's own reviewed games (issue 28): drawn once with the review and kept with it, from the
player's seats only and their own observations; each has one answer the engine confirms (the known blunder's winning
move among them); solved and judged through the same answers as the built-in set; a wrong token, a game not reviewed
and a puzzle that is not there get one line and change nothing."""
from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "app"))  # the app's test harness
sys.path.insert(0, str(Path(__file__).resolve().parent))

warnings.filterwarnings("ignore", message=".*httpx.*")
from test_review_web import poll  # noqa: E402

from toybattle.app.session import new_token  # noqa: E402
from toybattle.review import Review  # noqa: E402
from toybattle.review.game import steps  # noqa: E402
from toybattle.review.puzzles import Puzzle, candidates, check_puzzle, puzzle_at  # noqa: E402
from toybattle.review.web import MOST_PUZZLES, MOST_TRIED  # noqa: E402
from toybattle.rules import observation, position_text  # noqa: E402
from toybattle.store import GameRow  # noqa: E402

pytestmark = pytest.mark.slow  # a whole game reviewed, then its puzzles checked by the engine


def stored_game(store, blunder, kind: str) -> tuple[str, str]:
    """The blunder's game in the games file as a finished game of ``kind`` ("bot": blue against a bot, or
    "hotseat"); its id and blue's token."""
    token = new_token()
    meta = {"tokens": {"blue": token}, "settings": {"kind": kind, "terrain": "castle", "first_game": False,
                                                    "first": "random", "human": "blue", "level": None}}
    if kind == "bot":
        meta["bot"] = {"seat": "red", "level": "greedy"}
    else:
        meta["tokens"]["red"] = new_token()
    end = blunder.record.replay()
    row = GameRow(id=f"{kind}{blunder.index}", kind=kind, record=blunder.record.text(), meta=meta, over=True,
                  winner="red" if end.winner == 1 else "blue", reason=end.reason)
    store.put(row)
    return row.id, token


def reviewed(client, store, game: str, token: str) -> list[dict]:
    """Review ``game`` (quick) and wait for its puzzles; what is kept."""
    assert client.post(f"/api/review/{game}", json={"token": token, "effort": "quick"}).status_code == 200
    poll(client, game, token)
    deadline = time.monotonic() + 120
    while "puzzles" not in store.get(game).meta and time.monotonic() < deadline:
        time.sleep(0.1)
    return store.get(game).meta["puzzles"]


@pytest.mark.parametrize("kind", ["bot", "hotseat"])
def test_a_reviewed_games_puzzles_are_the_players_own_and_the_engine_confirms_each(app, blunder, kind):
    client, store = app
    game, token = stored_game(store, blunder, kind)
    before = client.get(f"/api/review/{game}/puzzles?token={token}")
    assert before.status_code == 409 and list(before.json()) == ["error"]  # not reviewed yet: nothing drawn
    kept = reviewed(client, store, game, token)
    listed = client.get(f"/api/review/{game}/puzzles?token={token}")
    assert listed.status_code == 200, listed.text
    assert [i["n"] for i in listed.json()["puzzles"]] == list(range(1, len(kept) + 1))
    # the review's candidates of the player's seats, checked again here the same way: the same puzzles
    seats = (0,) if kind == "bot" else (0, 1)
    review = Review.from_json(store.get(game).meta["review"])
    expected: dict[int, dict] = {}
    for turn, index, position in candidates(review, seats)[:MOST_TRIED]:
        if turn not in expected and len(expected) < MOST_PUZZLES:
            made = puzzle_at(position, f"{game}-{index}", f"action {index}")
            if made is not None:
                expected[turn] = made
    assert kept == [expected[t] for t in sorted(expected)]
    puzzles = [Puzzle.from_json(raw) for raw in kept]
    # the blunder: blue could have won at once, and that is a puzzle with that one answer
    assert any(p.source == f"action {blunder.index}" and p.answer == blunder.winning and p.seat == 0 for p in puzzles)
    if kind == "bot":
        assert {p.seat for p in puzzles} == {0}  # the player's decisions only, never the bot's
    befores = [s for s, _ in steps(blunder.record)[0]]
    for p in puzzles:
        assert check_puzzle(p) is None  # one answer, by a clear margin, on the check's own guesses
        mine = observation(befores[int(p.source.split()[-1]) - 1], p.seat)
        mine.ply = 0
        assert p.position == position_text(mine)  # that seat's observation at that decision, nothing more


def test_a_games_puzzle_is_solved_through_the_same_answers_and_refusals_are_one_line(app, blunder):
    client, store = app
    game, token = stored_game(store, blunder, "bot")
    reviewed(client, store, game, token)
    first = client.get(f"/api/review/{game}/puzzles/1?token={token}")
    assert first.status_code == 200, first.text
    shown = first.json()
    kept = store.get(game).meta["puzzles"][0]
    assert kept["answer"] not in str(shown.get("hint")) and "answer" not in shown and "why" not in shown
    assert shown["view"]["seat"] == "blue" and shown["view"]["legal"]["actions"]
    assert shown["next"] == ("2" if len(store.get(game).meta["puzzles"]) > 1 else None)
    url = f"/api/review/{game}/puzzles/1/answer"
    right = client.post(url, json={"token": token, "action": kept["answer"]}).json()
    assert right["correct"] is True and right["answer"] == kept["answer"] and right["explanation"]
    wrong = next(a for a in shown["view"]["legal"]["actions"] if a != kept["answer"])
    assert client.post(url, json={"token": token, "action": wrong}).json()["correct"] is False
    fr = client.post(url + "?lang=fr", json={"token": token, "action": kept["answer"]}).json()
    assert fr["answer_words"] != right["answer_words"]
    for bad, status in (({"token": "x" * 20, "action": wrong}, 404), ({"token": token, "action": "Z9"}, 400),
                        ({"token": token, "action": 5}, 400)):
        r = client.post(url, json=bad)
        assert r.status_code == status and list(r.json()) == ["error"] and "\n" not in r.json()["error"], r.text
    for path in (f"/api/review/{game}/puzzles/9?token={token}", f"/api/review/{game}/puzzles/0?token={token}",
                 f"/api/review/{game}/puzzles/x?token={token}", f"/api/review/{game}/puzzles?token=nope",
                 f"/api/review/nogame/puzzles?token={token}"):
        r = client.get(path)
        assert r.status_code == 404 and list(r.json()) == ["error"], (path, r.text)
    assert store.get(game).meta["puzzles"][0] == kept  # nothing a refusal or an answer changes
