"""The server's texts in the page's language: one catalogue per language (app/data/en.json, fr.json),
validated on load.

The view, the log and the rules core write English (the rules core stays pure and its refusals are
English); this layer turns a finished English text into another language. Each catalogue key holds a
pattern: the English entry, read with its {placeholders} as the parts that vary, recognises a text,
and the same key's entry in the other language says it again with those parts, each put into words
the same way. A placeholder's name says what it can hold: ``seat``, ``troop``, ``power``, a number
(``n``, ``m``, ``k``); any other name holds words that are themselves looked up.
"""
from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from toybattle.rules.powers import POWER_INFO
from toybattle.rules.troops import INFO, TROOPS

LANGS = ("en", "fr")
DEFAULT = "en"
DATA = Path(__file__).resolve().parent / "data"
PLACEHOLDER = re.compile(r"\{([a-z]+[0-9]?)\}")
# the strings of a view that are words for the player (the rest are codes and numbers)
TEXT_KEYS = frozenset({"text", "you", "brief", "prompt", "warning", "how", "result", "refused", "label", "name"})


class CatalogueError(ValueError):
    """A catalogue file that is missing, malformed or out of step with the English one."""


def _alternatives(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


NAMES_FR = {INFO[t].name: INFO[t].name_fr for t in TROOPS}

KINDS = {
    "seat": "Blue|Red|blue|red",
    "troop": _alternatives([INFO[t].name for t in TROOPS]),
    "power": _alternatives([p.name for p in POWER_INFO.values()]),
    "n": r"\d+", "m": r"\d+", "k": r"\d+", "bases": r"\d+(?:, \d+)*",
    "troops": r"[^()]+?",
    "rest": r".+",  # the rest of a narration, after its first "; "
}


# words of any kind, never across "; " (which joins the narration's parts: a part ends there)
WORDS = r"(?:(?!; ).)+?"


def _kind(placeholder: str) -> str:
    return placeholder.rstrip("0123456789")


def _read(lang: str) -> dict[str, str]:
    path = DATA / f"{lang}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise CatalogueError(f"{path.name}: cannot read the catalogue ({e})") from None
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise CatalogueError(f"{path.name}: a catalogue is one JSON object of texts")
    return data


def load(lang: str) -> dict[str, str]:
    """Language ``lang``'s catalogue, checked against the English one: the same keys, and in each entry
    the same placeholders."""
    english = _read(DEFAULT)
    data = english if lang == DEFAULT else _read(lang)
    if set(data) != set(english):
        odd = sorted(set(data) ^ set(english))
        raise CatalogueError(f"{lang}.json: keys differ from en.json: {', '.join(odd[:5])}")
    for key, text in data.items():
        if set(PLACEHOLDER.findall(text)) != set(PLACEHOLDER.findall(english[key])):
            raise CatalogueError(f"{lang}.json: {key!r} does not have the placeholders of en.json")
        if not PLACEHOLDER.sub("", english[key]):
            raise CatalogueError(f"en.json: {key!r} is only placeholders")
    return data


def _pattern(template: str) -> re.Pattern[str]:
    parts, at = [], 0
    for m in PLACEHOLDER.finditer(template):
        parts.append(re.escape(template[at:m.start()]))
        parts.append(f"(?P<{m.group(1)}>{KINDS.get(_kind(m.group(1)), WORDS)})")
        at = m.end()
    parts.append(re.escape(template[at:]))
    return re.compile("".join(parts), re.DOTALL)


@cache
def _table(lang: str) -> list[tuple[re.Pattern[str], str]]:
    """(English pattern, ``lang``'s text) for every key, the most specific (most fixed words) first."""
    english, target = load(DEFAULT), load(lang)
    keys = sorted(english, key=lambda k: (-len(PLACEHOLDER.sub("", english[k])), "{rest}" not in english[k]))
    return [(_pattern(english[k]), target[k]) for k in keys]


@cache
def translate(text: str, lang: str) -> str:
    """``text`` (English) in language ``lang``; a text the catalogue does not know stays as it is."""
    if lang == DEFAULT or not text:
        return text
    if text in NAMES_FR and lang == "fr":  # the troops' own French names, from the rules' data
        return NAMES_FR[text]
    for pattern, target in _table(lang):
        m = pattern.fullmatch(text)
        if m:
            return _fill(target, {k: _field(_kind(k), v, lang) for k, v in m.groupdict().items()})
    return text


def _fill(template: str, fields: dict[str, str]) -> str:
    return PLACEHOLDER.sub(lambda p: fields[p.group(1)], template)


def _field(kind: str, value: str, lang: str) -> str:
    """A placeholder's part of a text, in words of ``lang``: numbers stay; a list of troops ("Skully,
    Hook") names each troop in that language."""
    if kind in ("n", "m", "k", "bases"):
        return value
    if kind == "troops":
        said = translate(value, lang)
        return said if said != value else re.sub(KINDS["troop"], lambda t: translate(t.group(0), lang), value)
    return translate(value, lang)


def language(asked: object) -> str:
    """The catalogue language for what a page asked ("fr", "fr-FR", an Accept-Language header); English
    if it names none we have."""
    if not isinstance(asked, str):
        return DEFAULT
    for part in asked.split(","):
        tag = part.split(";")[0].strip().lower()[:2]
        if tag in LANGS:
            return tag
    return DEFAULT


def localize(value: Any, lang: str, key: str = "", words: bool = False) -> Any:
    """A copy of ``value`` (a view, a message) with every text for the player in language ``lang``:
    the strings under TEXT_KEYS, and all of the counters' cards."""
    if lang == DEFAULT:
        return value
    if isinstance(value, dict):
        return {k: localize(v, lang, k, words or k == "counters") for k, v in value.items()}
    if isinstance(value, list):
        return [localize(v, lang, key, words) for v in value]
    if isinstance(value, str) and (words or key in TEXT_KEYS):
        return translate(value, lang)
    return value
