"""Every lesson, loaded and verified with the rules engine; and proof that the checker catches bad lessons."""
from __future__ import annotations

import dataclasses
import random

import pytest

from toybattle.lessons import all_lessons, check_lesson, lesson, play
from toybattle.lessons.lesson import Answer, LessonError, parse_lesson
from toybattle.lessons.play import REFUSED, RIGHT, WRONG
from toybattle.lessons.texts import Reader
from toybattle.rules import BLUE, RED

LESSONS = all_lessons()


@pytest.mark.parametrize("item", LESSONS, ids=[x.id for x in LESSONS])
def test_lesson_passes_the_engine_checks(item):
    """Position legal and consistent; every answer legal and judged right however the move is finished;
    every listed wrong answer refused (if marked illegal) or legal and judged wrong."""
    assert check_lesson(item) == []


@pytest.mark.parametrize("item", LESSONS, ids=[x.id for x in LESSONS])
def test_lesson_position_holds_both_armies(item):
    s = item.start()
    for seat in (BLUE, RED):
        tiles = [t for st in s.stacks for t in st if t >> 4 == seat] + [t for t in s.discard if t >> 4 == seat]
        tiles += s.rack[seat] + s.laid[seat] + s.reserve[seat] + s.aside[seat]
        assert len(tiles) == 24 and len(s.aside[seat]) == 4
    assert item.wrong and item.answers and item.hints


def test_lessons_cover_the_issue():
    covered = {tag for x in LESSONS for tag in x.covers}
    seed = {"seed:star-where", "seed:roxy-medals", "seed:hook-isolated", "seed:hq-reachable", "seed:walkthrough"}
    troops = {f"troop:{t}" for t in ("skully", "capn", "jumbo", "hook", "xb42", "star", "roxy", "kwak")}
    terrains = {f"terrain:{t}" for t in ("castle", "pool", "clouds", "jungle", "cemetery", "caribbean", "station",
                                         "battlefield", "croisette")}
    rules = {"rule:connection", "rule:covering", "rule:draw-limit", "rule:medal-objective", "rule:stuck"}
    assert seed | troops | terrains | rules <= covered
    for x in LESSONS:
        s = x.start()
        if x.topic == "first-game":
            assert (s.terrain.id, s.first_game) == ("castle", True)
        if x.topic == "terrains":
            assert not s.first_game
    terrain_of = {tag.split(":")[1]: x.start().terrain.id for x in LESSONS for tag in x.covers
                  if tag.startswith("terrain:")}
    assert all(k == v for k, v in terrain_of.items())


def test_learner_flow_hint_wrong_retry_right():
    x = lesson("roxy-medals")
    rng = random.Random(1)
    wrong = play(x, ["7@17"], rng)
    assert wrong.status == WRONG and "Advancing on the left" in wrong.feedback
    refused = play(x, ["7@25"], rng)
    assert refused.status == REFUSED and refused.refusal == "no path from your H.Q." and not refused.actions
    right = play(x, ["7@12"], rng)
    assert right.status == RIGHT and right.state.medals(BLUE) == 3 and "3 medals" in right.feedback
    assert play(x, [], rng).status == "playing"


def test_refused_action_gets_the_lessons_own_feedback():
    attempt = play(lesson("kwak-joker"), ["7@18"], random.Random(0))
    assert attempt.status == REFUSED and "strictly more strength" in attempt.feedback
    attempt = play(lesson("kwak-joker"), ["nonsense"], random.Random(0))
    assert attempt.status == REFUSED and "bad action" in attempt.refusal


def test_move_spans_effects_until_the_turn_passes():
    x = lesson("jumbo-discard")
    half = play(x, ["3@13"], random.Random(0))
    assert half.status == "playing" and half.state.turn == BLUE
    done = play(x, ["3@13", "jumbo@18"], random.Random(0))
    assert done.status == RIGHT and done.state.turn == RED


def _variant(name: str, **changes) -> object:
    return dataclasses.replace(lesson(name), **changes)


def test_checker_catches_an_answer_that_misses_the_goal():
    bad = _variant("roxy-medals", answers=(Answer(("7@17",), "wrongly accepted"),))
    assert any("judged wrong" in p for p in check_lesson(bad))


def test_checker_catches_a_wrong_answer_that_is_right():
    bad = _variant("roxy-medals", wrong=(Answer(("6@12",), "claims the region, so not wrong"),))
    assert any("judged right" in p for p in check_lesson(bad))


def test_checker_catches_an_illegal_answer_and_a_legal_one_marked_illegal():
    bad = _variant("hook-waiver", answers=(Answer(("7@21",), "not legal"),),
                   wrong=(Answer(("4@21",), "marked illegal but legal", illegal=True),))
    problems = check_lesson(bad)
    assert any("refused by the engine" in p for p in problems)
    assert any("marked illegal, but the engine allows it" in p for p in problems)


def test_checker_catches_a_goal_already_reached_and_a_bad_mode():
    bad = _variant("draw-one", goal=({"kind": "rack_size", "n": 7},))
    assert "the goal already holds before the learner moves" in check_lesson(bad)
    bad = _variant("castle-recall", topic="first-game")
    assert any("first-game mode" in p for p in check_lesson(bad))


def test_checker_catches_every_continuation_not_just_one():
    # Without "use", the Star lesson's answer can end with 3 tiles: the checker must notice.
    bad = _variant("star-draw", answers=(Answer(("6@13",), "only right if the draw is used"),))
    assert any("6@13 skip" in p for p in check_lesson(bad))


def test_loader_refuses_an_inconsistent_position():
    said = Reader({"feedback.right": "r", "feedback.wrong": "w"} | {f"lesson.broken.{k}": "t" for k in
                  ("title", "source", "question", "hint.1", "right.1", "wrong.1")}, "en")
    raw = {"id": "broken", "position": lesson("roxy-medals").position.replace("blue reserve ?x14",
                                                                              "blue reserve ?x13").splitlines(),
           "answers": [{"actions": ["7@12"]}], "wrong": [{"actions": ["7@17"]}]}
    with pytest.raises(LessonError, match="not 24"):
        parse_lesson(raw, "basics", said)
    with pytest.raises(LessonError, match="unknown field"):
        parse_lesson(raw | {"answer": []}, "basics", said)
    with pytest.raises(LessonError, match=r"no 'lesson\.broken\.wrong\.2'"):  # every wrong answer has its words
        parse_lesson(raw | {"wrong": [{"actions": ["7@17"]}, {"actions": ["7@16"]}]}, "basics", said)
