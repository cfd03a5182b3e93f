"""The lesson checker: every lesson verified with the rules engine.

For each lesson: the position parses and is consistent (24 tiles per player), it is the
learner's turn, the terrain and mode suit the topic, the goal is well formed and not
already reached; every accepted answer is legal and every way of finishing it is judged
right; every wrong answer is indeed wrong (refused by the engine if marked illegal,
otherwise legal and judged wrong however the move is finished).
"""
from __future__ import annotations

import random

from ..rules import NotationError
from ..rules.state import TURN
from . import goals
from .lesson import Lesson
from .play import REFUSED, RIGHT, WRONG, TooManyBranches, after_prefix, continuations, judge, play

# Topic -> (terrain required or None, first-game mode required)
TOPIC_MODE = {"first-game": ("castle", True), "basics": ("castle", True), "troops": ("castle", True),
              "terrains": (None, False)}


def check_lesson(lesson: Lesson) -> list[str]:
    """Problems found in ``lesson`` (empty if it is sound), one line each."""
    try:
        s = lesson.start()
    except NotationError as e:
        return [f"bad position: {e}"]
    if s.decision != TURN or s.actor < 0:
        return [f"the position must start at a turn, not at {s.describe_decision()!r}"]
    me = s.actor
    problems = []
    terrain, first_game = TOPIC_MODE.get(lesson.topic, (None, s.first_game))
    if terrain and s.terrain.id != terrain:
        problems.append(f"topic {lesson.topic} lessons use {terrain}, not {s.terrain.id}")
    if s.first_game != first_game:
        problems.append(f"topic {lesson.topic} lessons use {'first-game' if first_game else 'standard'} mode")
    try:
        for c in lesson.goal:
            goals.validate(s, c, me)
        if lesson.goal and all(goals.holds(s, c, me) for c in lesson.goal):
            problems.append("the goal already holds before the learner moves")
    except goals.GoalError as e:
        return problems + [f"goal: {e}"]
    for a in lesson.answers:
        problems += _check(lesson, a.actions, me, want=RIGHT)
    for a in lesson.wrong:
        problems += _check(lesson, a.actions, me, want=REFUSED if a.illegal else WRONG)
    return problems


def _check(lesson: Lesson, prefix: tuple[str, ...], me: int, want: str) -> list[str]:
    label = f"{'answer' if want == RIGHT else 'wrong answer'} {' '.join(prefix)}"
    try:
        branches = after_prefix(lesson, prefix)
    except ValueError as e:
        return [f"{label}: {e}"]
    problems = []
    for s, mine, why in branches:
        if want == REFUSED:
            if not why:
                problems.append(f"{label}: marked illegal, but the engine allows it")
            continue
        if why:
            problems.append(f"{label}: refused by the engine: {why}")
            continue
        try:
            for end, acts in continuations(s, me, mine):
                verdict, _ = judge(lesson, end, me, acts)
                if verdict != want:
                    problems.append(f"{label}: finishing it as {' '.join(acts)} is judged {verdict}")
                    break
        except TooManyBranches as e:
            problems.append(f"{label}: {e}")
        if problems:
            break
    if want == REFUSED and not problems:
        attempt = play(lesson, list(prefix), random.Random(0))
        if attempt.status != REFUSED:
            problems.append(f"{label}: playing it is not refused")
    return problems


def check_all(lessons: tuple[Lesson, ...]) -> dict[str, list[str]]:
    """Lesson id -> problems, for every lesson."""
    return {lesson.id: check_lesson(lesson) for lesson in lessons}
