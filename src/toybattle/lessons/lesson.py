"""Lessons as data: loading and validating ``data/lessons/*.json``.

Each file is one topic: ``{"topic": ID, "lessons": [...]}``. A lesson is a prepared position
(the engine's position format, one line per list item) and what counts as right: either ``goal``
(outcome conditions, see goals.py) or, without a goal, the listed ``answers`` themselves. Answers
and wrong answers are action prefixes in the engine's notation (``["6@18", "use"]``): the
learner's move matches one if it starts with those actions. Its words (title, question, hints,
feedback…) come from the language's catalogue (texts.py), so a Lesson is built in one language.
See docs/lessons.md for the whole format.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from ..rules import NotationError, State, parse_position
from . import goals
from .texts import DEFAULT, Reader, TextsError, catalogue


class LessonError(ValueError):
    """A lesson file that does not describe a usable lesson; the message names the lesson."""


@dataclass(frozen=True)
class Answer:
    actions: tuple[str, ...]
    feedback: str
    illegal: bool = False  # (wrong answers only) the engine must refuse the last action


@dataclass(frozen=True)
class Lesson:
    id: str
    title: str
    topic: str
    source: str
    position: str
    question: str
    hints: tuple[str, ...]
    answers: tuple[Answer, ...]
    wrong: tuple[Answer, ...]
    goal: tuple[dict[str, Any], ...] = ()
    intro: str = ""
    steps: tuple[dict[str, str], ...] = ()
    covers: tuple[str, ...] = ()
    right_feedback: str = ""
    wrong_feedback: str = ""
    goal_words: tuple[str, ...] = ()  # the goal's conditions in the lesson's language

    def start(self) -> State:
        """A fresh copy of the prepared position (NotationError if the data is broken)."""
        return parse_position(self.position)

    def summary(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "topic": self.topic}


@dataclass(frozen=True)
class Topic:
    id: str
    title: str
    lessons: tuple[Lesson, ...] = field(default_factory=tuple)


_LESSON_KEYS = {"id", "position", "answers", "wrong", "goal", "covers"}


def _answers(raw: Any, where: str, wrong: bool, said: Reader, key: str) -> tuple[Answer, ...]:
    if not isinstance(raw, list) or not raw:
        raise LessonError(f"{where}: must list at least one answer")
    out = []
    for k, a in enumerate(raw, start=1):
        w = f"{where} #{k}"
        if not isinstance(a, dict) or set(a) - {"actions", "illegal"}:
            raise LessonError(f"{w}: an answer is {{actions[, illegal]}}")
        acts = a.get("actions")
        if not isinstance(acts, list) or not acts or not all(isinstance(x, str) and x for x in acts):
            raise LessonError(f"{w}: 'actions' must be a non-empty list of actions like \"7@18\"")
        illegal = a.get("illegal", False)
        if not isinstance(illegal, bool) or (illegal and not wrong):
            raise LessonError(f"{w}: 'illegal' is true/false, and only for wrong answers")
        out.append(Answer(tuple(acts), said.text(f"{key}.{k}"), illegal))
    return tuple(out)


def parse_lesson(raw: Any, topic: str, said: Reader) -> Lesson:
    """A Lesson from its JSON object, in the words of ``said``; LessonError on any malformed field or
    missing text (the position is parsed too, and the goal put into words)."""
    if not isinstance(raw, dict):
        raise LessonError(f"topic {topic}: a lesson must be an object")
    lid = raw.get("id")
    if not isinstance(lid, str) or not lid.replace("-", "").isalnum() or lid != lid.lower():
        raise LessonError(f"topic {topic}: lesson id {lid!r} must be lower-case letters, digits and '-'")
    where = f"lesson {lid}"
    extra = set(raw) - _LESSON_KEYS
    if extra:
        raise LessonError(f"{where}: unknown field(s) {', '.join(sorted(extra))}")
    position = raw.get("position")
    if not isinstance(position, list) or not all(isinstance(x, str) for x in position):
        raise LessonError(f"{where}: 'position' must be a list of lines")
    goal = raw.get("goal", [])
    if not isinstance(goal, list) or not all(isinstance(c, dict) for c in goal):
        raise LessonError(f"{where}: 'goal' must be a list of conditions")
    covers = raw.get("covers", [])
    if not isinstance(covers, list) or not all(isinstance(x, str) for x in covers):
        raise LessonError(f"{where}: 'covers' must be a list of tags")
    key = f"lesson.{lid}"
    try:
        right, wrong = said.text("feedback.right"), said.text("feedback.wrong")  # unless the lesson says its own
        hints = said.series(f"{key}.hint")
        if not hints:
            raise TextsError(f"texts/{said.lang}.json has no hint for {where} ({key}.hint.1)")
        steps = [{"title": said.text(f"{key}.step.{k}.title"), "text": said.text(f"{key}.step.{k}.text")}
                 for k in range(1, 1 + sum(1 for x in said.said if x.startswith(f"{key}.step.")) // 2)]
        lesson = Lesson(
            id=lid, title=said.text(f"{key}.title"), topic=topic, source=said.text(f"{key}.source"),
            position="\n".join(position) + "\n", question=said.text(f"{key}.question"), hints=tuple(hints),
            answers=_answers(raw.get("answers"), f"{where} answers", False, said, f"{key}.right"),
            wrong=_answers(raw.get("wrong"), f"{where} wrong", True, said, f"{key}.wrong"), goal=tuple(goal),
            intro=said.text(f"{key}.intro", False), steps=tuple(steps), covers=tuple(covers),
            right_feedback=said.text(f"{key}.right", False) or right,
            wrong_feedback=said.text(f"{key}.wrong", False) or wrong,
            goal_words=tuple(goals.describe(c, said.text, said.lang) for c in goal),
        )
    except (TextsError, KeyError) as e:
        raise LessonError(f"{where}: {e}") from None
    try:
        lesson.start()
    except NotationError as e:
        raise LessonError(f"{where}: bad position: {e}") from None
    return lesson


def parse_topic(raw: Any, name: str, said: Reader) -> Topic:
    if not isinstance(raw, dict) or set(raw) != {"topic", "lessons"}:
        raise LessonError(f"{name}: a lesson file is {{topic, lessons}}")
    tid = raw["topic"]
    if not isinstance(tid, str) or not isinstance(raw["lessons"], list) or not raw["lessons"]:
        raise LessonError(f"{name}: 'topic' is an id and 'lessons' a non-empty list")
    try:
        title = said.text(f"topic.{tid}")
    except TextsError as e:
        raise LessonError(f"{name}: {e}") from None
    return Topic(tid, title, tuple(parse_lesson(x, tid, said) for x in raw["lessons"]))


@cache
def _files() -> tuple[tuple[str, Any], ...]:
    folder = resources.files("toybattle.lessons").joinpath("data/lessons")
    out = []
    for f in sorted((p for p in folder.iterdir() if p.name.endswith(".json")), key=lambda p: p.name):
        try:
            out.append((f.name, json.loads(f.read_text("utf-8"))))
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise LessonError(f"{f.name}: not valid JSON: {e}") from None
    return tuple(out)


@cache
def topics(lang: str = DEFAULT) -> tuple[Topic, ...]:
    """Every shipped topic with its lessons in language ``lang``, in file order (files are named
    NN-topic.json). LessonError if a file or the language's catalogue is broken, or the catalogue
    holds a text no lesson reads."""
    try:
        said = Reader(catalogue(lang), lang)
    except TextsError as e:
        raise LessonError(str(e)) from None
    out = tuple(parse_topic(raw, name, said) for name, raw in _files())
    ids = [lesson.id for t in out for lesson in t.lessons]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise LessonError(f"lesson id(s) used twice: {', '.join(sorted(dup))}")
    if said.unread():
        raise LessonError(f"texts/{lang}.json: no lesson reads {', '.join(said.unread()[:5])}")
    return out


def all_lessons(lang: str = DEFAULT) -> tuple[Lesson, ...]:
    return tuple(lesson for t in topics(lang) for lesson in t.lessons)


def lesson(lesson_id: str, lang: str = DEFAULT) -> Lesson:
    """The lesson with this id, in language ``lang``; KeyError if there is none."""
    for x in all_lessons(lang):
        if x.id == lesson_id:
            return x
    raise KeyError(lesson_id)
