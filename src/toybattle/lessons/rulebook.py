"""The rules and the FAQ as data (``data/rules.json``), loaded and validated.

Each rule and each answer names its source (rulebook page, player aid, and the fact
sheet's [S#] source). Each FAQ answer that states a rule names the engine test that
checks it (``tests/rules/test_faq.py::test_name``); tests/lessons/test_rulebook.py proves
those tests exist and that docs/rulings.md names the same ones.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any


class RulebookError(ValueError):
    """rules.json does not have the expected shape; the message says where."""


@dataclass(frozen=True)
class Rule:
    text: str
    source: str


@dataclass(frozen=True)
class Topic:
    id: str
    title: str
    rules: tuple[Rule, ...]


@dataclass(frozen=True)
class Question:
    id: str
    topic: str
    question: str
    answer: str
    source: str
    test: str | None  # None only when the answer states no rule


@dataclass(frozen=True)
class Rulebook:
    topics: tuple[Topic, ...]
    faq: tuple[Question, ...]

    def topic_ids(self) -> list[str]:
        return [t.id for t in self.topics] + ["faq"]

    def topic(self, topic_id: str) -> Topic:
        return next(t for t in self.topics if t.id == topic_id)


def _text(d: Any, key: str, where: str) -> str:
    v = d.get(key) if isinstance(d, dict) else None
    if not isinstance(v, str) or not v.strip():
        raise RulebookError(f"{where}: {key!r} must be a non-empty text")
    return v


def parse(raw: Any) -> Rulebook:
    if not isinstance(raw, dict) or set(raw) != {"topics", "faq"}:
        raise RulebookError("rules.json holds {topics, faq}")
    topics = []
    for k, t in enumerate(raw["topics"] if isinstance(raw["topics"], list) else []):
        where = f"topic #{k + 1}"
        tid = _text(t, "id", where)
        rules = t.get("rules")
        if not isinstance(rules, list) or not rules:
            raise RulebookError(f"topic {tid}: 'rules' must list rules")
        topics.append(Topic(tid, _text(t, "title", where),
                            tuple(Rule(_text(r, "text", f"topic {tid}"), _text(r, "source", f"topic {tid}"))
                                  for r in rules)))
    if not topics:
        raise RulebookError("rules.json lists no topics")
    ids = {t.id for t in topics}
    faq = []
    for k, q in enumerate(raw["faq"] if isinstance(raw["faq"], list) else []):
        where = f"faq #{k + 1}"
        qid = _text(q, "id", where)
        if q.get("topic") not in ids:
            raise RulebookError(f"faq {qid}: topic must be one of {', '.join(sorted(ids))}")
        test = q.get("test")
        if test is not None and (not isinstance(test, str) or "::test_" not in test):
            raise RulebookError(f"faq {qid}: 'test' must look like tests/FILE.py::test_NAME, or be null")
        faq.append(Question(qid, q["topic"], _text(q, "question", where), _text(q, "answer", where),
                            _text(q, "source", where), test))
    if len({q.id for q in faq}) != len(faq) or len(ids) != len(topics) or "faq" in ids:
        raise RulebookError("topic and question ids must be unique (and no topic may be called 'faq')")
    return Rulebook(tuple(topics), tuple(faq))


@cache
def load() -> Rulebook:
    """The shipped rules and FAQ."""
    text = resources.files("toybattle.lessons").joinpath("data/rules.json").read_text("utf-8")
    try:
        return parse(json.loads(text))
    except json.JSONDecodeError as e:
        raise RulebookError(f"rules.json is not valid JSON: {e}") from None


def as_json(book: Rulebook, topic: str | None = None) -> dict[str, Any]:
    """The whole book, or one topic with its questions ('faq': every question)."""
    def q(x: Question) -> dict[str, Any]:
        return {"id": x.id, "topic": x.topic, "question": x.question, "answer": x.answer, "source": x.source,
                "test": x.test}

    def t(x: Topic) -> dict[str, Any]:
        return {"id": x.id, "title": x.title, "rules": [{"text": r.text, "source": r.source} for r in x.rules]}

    if topic is None:
        return {"topics": [t(x) for x in book.topics], "faq": [q(x) for x in book.faq]}
    if topic == "faq":
        return {"id": "faq", "faq": [q(x) for x in book.faq]}
    return t(book.topic(topic)) | {"faq": [q(x) for x in book.faq if x.topic == topic]}


# Other languages: data/rules.<lang>.json says each topic's title and rules (in order) and each
# question and answer again, by id, and each source line whole, by its English line
# ("Rules p. 2 · Setup": "Règles p. 2 · Mise en place");
# the topics and tests are the English book's own.
LANGS = ("fr",)


def parse_translation(raw: Any, book: Rulebook, lang: str) -> Rulebook:
    """``book`` in the words of ``raw`` (rules.<lang>.json), which must say every text of it, no more."""
    name = f"rules.{lang}.json"
    if not isinstance(raw, dict) or set(raw) != {"topics", "faq", "sources"} or \
            not all(isinstance(raw[k], dict) for k in raw):
        raise RulebookError(f"{name} holds {{topics, faq, sources}}, each an object (by id, or by English source line)")
    source = _source_words(raw["sources"], book, name)
    if set(raw["topics"]) != {t.id for t in book.topics} or set(raw["faq"]) != {q.id for q in book.faq}:
        raise RulebookError(f"{name}: the topic and question ids differ from rules.json")
    topics = []
    for t in book.topics:
        said = raw["topics"][t.id]
        rules = said.get("rules") if isinstance(said, dict) else None
        if not isinstance(rules, list) or len(rules) != len(t.rules) or \
                not all(isinstance(r, str) and r.strip() for r in rules):
            raise RulebookError(f"{name}: topic {t.id} must say its {len(t.rules)} rules as texts")
        topics.append(Topic(t.id, _text(said, "title", f"{name}: topic {t.id}"),
                            tuple(Rule(text, source(r.source)) for text, r in zip(rules, t.rules, strict=True))))
    faq = [Question(q.id, q.topic, _text(raw["faq"][q.id], "question", f"{name}: {q.id}"),
                    _text(raw["faq"][q.id], "answer", f"{name}: {q.id}"), source(q.source), q.test) for q in book.faq]
    return Rulebook(tuple(topics), tuple(faq))


def _source_words(words: dict[str, Any], book: Rulebook, name: str) -> Callable[[str], str]:
    """A source in the translation's words, looked up whole: ``words`` gives each source line of ``book``
    (exactly as rules.json writes it) its line in the translation; no English is turned into another
    language piece by piece. RulebookError naming a source the translation does not say, or a line it says
    that no rule or answer cites."""
    if not all(isinstance(v, str) and v.strip() for v in words.values()):
        raise RulebookError(f"{name}: 'sources' gives each source line of rules.json its line, a text")
    cited = {r.source for t in book.topics for r in t.rules} | {q.source for q in book.faq}
    missing = sorted(cited - set(words))
    if missing:
        raise RulebookError(f"{name}: 'sources' has no words for the source {missing[0]!r}"
                            + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""))
    stray = sorted(set(words) - cited)
    if stray:
        raise RulebookError(f"{name}: 'sources' says {stray[0]!r}, which no rule or answer of rules.json cites")
    return lambda source: words[source]


@cache
def load_in(lang: str) -> Rulebook:
    """The rules and FAQ in language ``lang`` (English for any language without its own file)."""
    if lang not in LANGS:
        return load()
    text = resources.files("toybattle.lessons").joinpath(f"data/rules.{lang}.json").read_text("utf-8")
    try:
        return parse_translation(json.loads(text), load(), lang)
    except json.JSONDecodeError as e:
        raise RulebookError(f"rules.{lang}.json is not valid JSON: {e}") from None
