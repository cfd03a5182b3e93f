"""Lessons as data: loading and validating ``data/lessons/*.json``.

Each file is one topic: ``{"topic": ID, "title": TEXT, "lessons": [...]}``. A lesson is a
prepared position (the engine's position format, one line per list item), a question,
hints, and what counts as right: either ``goal`` (outcome conditions, see goals.py) or,
without a goal, the listed ``answers`` themselves. Answers and wrong answers are action
prefixes in the engine's notation (``["6@18", "use"]``): the learner's move matches one
if it starts with those actions. See docs/lessons.md for the whole format.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from ..rules import NotationError, State, parse_position


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


_LESSON_KEYS = {"id", "title", "source", "position", "question", "hints", "answers", "wrong", "goal", "intro",
                "steps", "covers", "right_feedback", "wrong_feedback"}


def _text(d: dict[str, Any], key: str, where: str, required: bool = True) -> str:
    v = d.get(key, None if required else "")
    if not isinstance(v, str) or (required and not v.strip()):
        raise LessonError(f"{where}: {key!r} must be a non-empty text")
    return v


def _answers(raw: Any, where: str, wrong: bool) -> tuple[Answer, ...]:
    if not isinstance(raw, list) or not raw:
        raise LessonError(f"{where}: must list at least one answer")
    out = []
    for k, a in enumerate(raw, start=1):
        w = f"{where} #{k}"
        if not isinstance(a, dict) or set(a) - {"actions", "feedback", "illegal"}:
            raise LessonError(f"{w}: an answer is {{actions, feedback[, illegal]}}")
        acts = a.get("actions")
        if not isinstance(acts, list) or not acts or not all(isinstance(x, str) and x for x in acts):
            raise LessonError(f"{w}: 'actions' must be a non-empty list of actions like \"7@18\"")
        illegal = a.get("illegal", False)
        if not isinstance(illegal, bool) or (illegal and not wrong):
            raise LessonError(f"{w}: 'illegal' is true/false, and only for wrong answers")
        out.append(Answer(tuple(acts), _text(a, "feedback", w), illegal))
    return tuple(out)


def parse_lesson(raw: Any, topic: str) -> Lesson:
    """A Lesson from its JSON object; LessonError on any malformed field (the position is parsed too)."""
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
    hints = raw.get("hints")
    if not isinstance(hints, list) or not hints or not all(isinstance(h, str) and h.strip() for h in hints):
        raise LessonError(f"{where}: 'hints' must list at least one hint")
    goal = raw.get("goal", [])
    if not isinstance(goal, list) or not all(isinstance(c, dict) for c in goal):
        raise LessonError(f"{where}: 'goal' must be a list of conditions")
    steps = raw.get("steps", [])
    if not isinstance(steps, list) or not all(isinstance(x, dict) and set(x) == {"title", "text"} and
                                              all(isinstance(v, str) for v in x.values()) for x in steps):
        raise LessonError(f"{where}: 'steps' must be a list of {{title, text}}")
    covers = raw.get("covers", [])
    if not isinstance(covers, list) or not all(isinstance(x, str) for x in covers):
        raise LessonError(f"{where}: 'covers' must be a list of tags")
    lesson = Lesson(
        id=lid, title=_text(raw, "title", where), topic=topic, source=_text(raw, "source", where),
        position="\n".join(position) + "\n", question=_text(raw, "question", where), hints=tuple(hints),
        answers=_answers(raw.get("answers"), f"{where} answers", False),
        wrong=_answers(raw.get("wrong"), f"{where} wrong", True), goal=tuple(goal),
        intro=_text(raw, "intro", where, False), steps=tuple(steps), covers=tuple(covers),
        right_feedback=_text(raw, "right_feedback", where, False),
        wrong_feedback=_text(raw, "wrong_feedback", where, False),
    )
    try:
        lesson.start()
    except NotationError as e:
        raise LessonError(f"{where}: bad position: {e}") from None
    return lesson


def parse_topic(raw: Any, name: str) -> Topic:
    if not isinstance(raw, dict) or set(raw) != {"topic", "title", "lessons"}:
        raise LessonError(f"{name}: a lesson file is {{topic, title, lessons}}")
    tid = _text(raw, "topic", name)
    if not isinstance(raw["lessons"], list) or not raw["lessons"]:
        raise LessonError(f"{name}: 'lessons' must be a non-empty list")
    return Topic(tid, _text(raw, "title", name), tuple(parse_lesson(x, tid) for x in raw["lessons"]))


@cache
def topics() -> tuple[Topic, ...]:
    """Every shipped topic with its lessons, in file order (files are named NN-topic.json)."""
    folder = resources.files("toybattle.lessons").joinpath("data/lessons")
    out = []
    for f in sorted((p for p in folder.iterdir() if p.name.endswith(".json")), key=lambda p: p.name):
        try:
            raw = json.loads(f.read_text("utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise LessonError(f"{f.name}: not valid JSON: {e}") from None
        out.append(parse_topic(raw, f.name))
    ids = [lesson.id for t in out for lesson in t.lessons]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise LessonError(f"lesson id(s) used twice: {', '.join(sorted(dup))}")
    return tuple(out)


def all_lessons() -> tuple[Lesson, ...]:
    return tuple(lesson for t in topics() for lesson in t.lessons)


def lesson(lesson_id: str) -> Lesson:
    """The lesson with this id; KeyError if there is none."""
    for x in all_lessons():
        if x.id == lesson_id:
            return x
    raise KeyError(lesson_id)


# The topics' and lessons' titles in other languages (data/titles.<lang>.json, by id, every one said);
# a lesson's other texts are English for now.
TITLE_LANGS = ("fr",)


@cache
def titles(lang: str) -> dict[str, str]:
    """Topic and lesson id -> its title in ``lang`` (English for a language without its own file)."""
    english = {t.id: t.title for t in topics()} | {x.id: x.title for x in all_lessons()}
    if lang not in TITLE_LANGS:
        return english
    name = f"titles.{lang}.json"
    try:
        raw = json.loads(resources.files("toybattle.lessons").joinpath(f"data/{name}").read_text("utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise LessonError(f"{name}: cannot read it: {e}") from None
    if not isinstance(raw, dict) or set(raw) != {"topics", "lessons"} or \
            not all(isinstance(v, dict) for v in raw.values()):
        raise LessonError(f"{name}: holds {{topics, lessons}}, each an object of titles by id")
    said: dict[str, str] = raw["topics"] | raw["lessons"]
    if set(said) != set(english) or not all(isinstance(v, str) and v.strip() for v in said.values()):
        raise LessonError(f"{name}: must give every topic and lesson of the lesson files a title, no more")
    return said
