"""Following the other side: the narration of its latest turn, the H.Q. warning and the deciding move,
all written from one seat's own observations and log (toybattle.app.view)."""
from __future__ import annotations

from app_harness import whole_game

from toybattle.app.view import result_text
from toybattle.rules import State


def _games(seeds: range | tuple[int, ...]):
    """Random whole games on Castle Field: final state, each seat's log, the views blue saw."""
    for g in seeds:
        game = whole_game("castle", g)
        yield game.final, game.logs, game.views[0]


def test_the_other_sides_turn_is_narrated_and_marked():
    seen_place = False
    for _s, _logs, views in _games(range(6)):
        for v in views:
            last = v["last"]
            if last is None or v["over"]:
                continue
            assert last["seat"] == "red" and last["text"].startswith("Red: ")
            assert "Red places" not in last["text"]  # the short words, not the log's sentences
            if " on " in last["text"] and "Red: " in last["text"]:
                seen_place = True
                assert last["nodes"], last
    assert seen_place


def test_the_end_says_how_and_shows_the_deciding_move():
    reasons = set()
    for s, _logs, views in _games((0, 16, 17, 21, 38)):  # stuck, medals, H.Q., medals, H.Q. (2 of 40 take an H.Q.)
        v = views[-1]
        reasons.add(s.reason)
        assert ".." not in v["result"] and ".." not in v["prompt"]
        if s.reason == "hq":
            assert v["decider"]["text"].count("took") == 1 and "H.Q." in v["decider"]["text"]
            assert not v["decider"]["text"].endswith("..")
            assert len(v["decider"]["nodes"]) == 2  # the H.Q. and the base it was taken from
    assert reasons == {"stuck", "medals", "hq"}


def test_a_concession_names_who_conceded():
    s = State.new("castle")
    s.concede(0)
    assert result_text(s) == "Red wins: blue conceded."


def test_a_warning_when_the_enemy_is_next_to_your_hq():
    warned = 0
    for _s, _logs, views in _games(range(10)):
        for v in views:
            near = {int(n) for n, st in v["stacks"].items() if st[-1][0] == "red"} & set(v["connected"]["red"])
            assert bool(v["warning"]) == bool(v["threats"])
            if v["warning"]:
                warned += 1
                assert v["warning"].startswith("Careful: Red holds base") and set(v["threats"]) <= near
    assert warned
