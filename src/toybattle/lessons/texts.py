"""Every word of the lessons, one catalogue per language (``data/texts/<lang>.json``), validated on load.

A catalogue is one JSON object of texts by key: ``topic.<topic>``, ``lesson.<id>.<part>`` (title, source,
intro, step.K.title, step.K.text, question, hint.K, right.K and wrong.K for the K-th listed answer and
wrong answer, right and wrong for any other move), ``goal.<kind>.<seat>[.<variant>]`` (a goal in words)
and ``feedback.right|wrong`` (said when a lesson has no words of its own). Every catalogue has the
English one's keys, and each entry the same {placeholders}; lesson.py reads every key it holds.
"""
from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources

LANGS = ("en", "fr")
DEFAULT = "en"
PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


class TextsError(ValueError):
    """A lesson catalogue that is missing, malformed or out of step with the English one."""


def _json(lang: str) -> object:
    name = f"texts/{lang}.json"
    try:
        return json.loads(resources.files("toybattle.lessons").joinpath(f"data/{name}").read_text("utf-8"))
    except (OSError, ValueError) as e:
        raise TextsError(f"{name}: cannot read it: {e}") from None


def _read(lang: str) -> dict[str, str]:
    name = f"texts/{lang}.json"
    data = _json(lang)
    if not isinstance(data, dict) or not all(isinstance(v, str) and v.strip() for v in data.values()):
        raise TextsError(f"{name}: a catalogue is one JSON object of non-empty texts")
    return data


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The lessons' words in ``lang`` (English for a language without a catalogue), checked against
    the English catalogue: the same keys, and in each entry the same placeholders."""
    english = _read(DEFAULT)
    if lang not in LANGS or lang == DEFAULT:
        return english
    said = _read(lang)
    odd = sorted(set(said) ^ set(english))
    if odd:
        raise TextsError(f"texts/{lang}.json: keys differ from texts/en.json: {', '.join(odd[:5])}")
    for key, text in said.items():
        if set(PLACEHOLDER.findall(text)) != set(PLACEHOLDER.findall(english[key])):
            raise TextsError(f"texts/{lang}.json: {key!r} does not have the placeholders of texts/en.json")
    return said


class Reader:
    """A catalogue as lesson.py reads it, remembering which keys were read (so none is left over)."""

    def __init__(self, said: dict[str, str], lang: str):
        self.said, self.lang, self.read = said, lang, set[str]()

    def text(self, key: str, required: bool = True) -> str:
        if key in self.said:
            self.read.add(key)
            return self.said[key]
        if required:
            raise TextsError(f"texts/{self.lang}.json has no {key!r}")
        return ""

    def series(self, prefix: str) -> list[str]:
        """The texts of ``prefix``.1, ``prefix``.2, … up to the first missing number."""
        out: list[str] = []
        while f"{prefix}.{len(out) + 1}" in self.said:
            out.append(self.text(f"{prefix}.{len(out) + 1}"))
        return out

    def unread(self) -> list[str]:
        return sorted(set(self.said) - self.read)
