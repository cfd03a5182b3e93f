"""Playing a lesson: the learner's move, judged by the rules engine.

The learner's *move* is every action their seat takes from the prepared position
until the turn passes to the opponent or the game ends (a placement, then the
effects it offers). Chance (XB-42's and the tank's blind picks) is resolved by the
engine with the given random generator: the learner never names a chance outcome.

The app and the checker share ``judge``: the checker walks every continuation of
each listed answer and wrong answer and asks ``judge`` what the learner would be told.
"""
from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from toybattle.said import of_error

from ..rules import State, action_text, parse_action
from . import goals
from .lesson import Answer, Lesson

PLAYING, RIGHT, WRONG, REFUSED = "playing", "right", "wrong", "refused"


@dataclass
class Attempt:
    """Where a learner's move got to: the referee's state, the learner's actions, the verdict."""
    state: State
    me: int
    actions: list[str]  # the learner's accepted actions, in notation
    status: str  # PLAYING, RIGHT, WRONG or REFUSED (the last action was refused; state unchanged)
    feedback: str = ""
    refusal: str = ""  # the engine's reason when REFUSED

    @property
    def done(self) -> bool:
        return self.status in (RIGHT, WRONG)


def move_over(s: State, me: int) -> bool:
    return s.over or s.turn != me


def normal(text: str, s: State) -> str:
    """``text`` in the engine's own spelling (so "k@18" matches "K@18"); unchanged if unreadable."""
    try:
        return action_text(parse_action(text, s.b), s.b)
    except ValueError:
        return text.strip()


def starts_with(mine: Sequence[str], answer: Answer, s: State) -> bool:
    want = [normal(a, s) for a in answer.actions]
    return [normal(a, s) for a in mine[:len(want)]] == want


def judge(lesson: Lesson, s: State, me: int, mine: Sequence[str]) -> tuple[str, str]:
    """(RIGHT or WRONG, feedback) for a finished move ``mine`` that led to ``s``."""
    if lesson.goal:
        right = all(goals.holds(s, c, me) for c in lesson.goal)
    else:
        right = any(starts_with(mine, a, s) for a in lesson.answers)
    for a in lesson.answers if right else lesson.wrong:
        if not a.illegal and starts_with(mine, a, s):
            return (RIGHT if right else WRONG), a.feedback
    if right:
        return RIGHT, lesson.right_feedback
    return WRONG, lesson.wrong_feedback


def refused_feedback(lesson: Lesson, s: State, mine: Sequence[str]) -> str:
    """The lesson's own words when the engine refuses the learner's action ``mine[-1]``; empty if it has
    none (the page then shows the rule that refused it, the Attempt's ``refusal``)."""
    for a in lesson.wrong:
        if a.illegal and len(a.actions) == len(mine) and starts_with(mine, a, s):
            return a.feedback
    return ""


def play(lesson: Lesson, actions: Sequence[str], rng: random.Random) -> Attempt:
    """Play the learner's ``actions`` from the lesson's position. Stops at the first refused action
    (status REFUSED, the state as before it) or when the move is over (RIGHT or WRONG)."""
    s = lesson.start()
    me = s.actor
    mine: list[str] = []
    for text in actions:
        if move_over(s, me):
            break
        try:
            a = parse_action(text, s.b)
            why = s.refusal(a)
        except ValueError as e:
            a, why = -1, of_error(e)
        if why:
            return Attempt(s, me, mine, REFUSED, refused_feedback(lesson, s, mine + [text]), why)
        s.apply(a)
        mine.append(action_text(a, s.b))
        s.resolve_chance(rng)
    if move_over(s, me):
        status, feedback = judge(lesson, s, me, mine)
        return Attempt(s, me, mine, status, feedback)
    return Attempt(s, me, mine, PLAYING)


# ---------------------------------------------------------------- exhaustive walks (for the checker)

class TooManyBranches(ValueError):
    pass


def _chance_branches(s: State) -> Iterator[State]:
    if not s.is_chance:
        yield s
        return
    for a, _ in s.chance_outcomes():
        t = s.copy()
        t.apply(a)
        yield from _chance_branches(t)


def after_prefix(lesson: Lesson, prefix: Sequence[str]) -> list[tuple[State, list[str], str]]:
    """Every state the learner's ``prefix`` can lead to (one per chance branch), each with the
    actions played and, if the prefix's last action was refused there, the engine's reason."""
    s = lesson.start()
    me = s.actor
    branches: list[tuple[State, list[str]]] = [(s, [])]
    out = []
    for k, text in enumerate(prefix):
        nxt = []
        for s, mine in branches:
            if move_over(s, me):
                raise ValueError(f"the move is already over before {text!r}")
            try:
                a = parse_action(text, s.b)
            except ValueError as e:
                raise ValueError(str(e)) from None
            why = s.refusal(a)
            if why:
                if k != len(prefix) - 1:
                    raise ValueError(f"{text!r} is refused: {why}")
                out.append((s, mine, why))
                continue
            t = s.copy()
            t.apply(a)
            nxt += [(u, mine + [action_text(a, s.b)]) for u in _chance_branches(t)]
        branches = nxt
    return out + [(s, mine, "") for s, mine in branches]


def continuations(s: State, me: int, mine: list[str], limit: int = 5000) -> Iterator[tuple[State, list[str]]]:
    """Every way the learner's move can end from ``s`` (all choices, all chance outcomes)."""
    count = 0
    todo = [(s, mine)]
    while todo:
        s, mine = todo.pop()
        if move_over(s, me):
            count += 1
            if count > limit:
                raise TooManyBranches(f"more than {limit} ways to finish the move: give a longer answer")
            yield s, mine
            continue
        for a in s.legal_actions():
            t = s.copy()
            t.apply(a)
            step = mine if s.is_chance else mine + [action_text(a, s.b)]
            todo.append((t, step))
