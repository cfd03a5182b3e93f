"""What a French page is sent, checked for English (issue 27): the catalogues' English in runs of three
words, none of which may appear in what a French page reads, and every message said in French in other
words than its English unless the catalogue gives both languages the same words."""
from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

from toybattle.said import PLACEHOLDER, Said, catalogue, say

WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")


def _runs(text: str) -> set[str]:
    words = WORD.findall(text.lower())
    return {" ".join(words[i:i + 3]) for i in range(len(words) - 2)}


# the ids whose French is their English: names alike in both languages, and "{power} {n}"
SAME = frozenset({"power.lay_down", "power.at", "level.expert", "troop.1", "troop.5", "troop.6", "troop.7", "troop.8"})


def _entry_runs(lang: str) -> set[str]:
    out: set[str] = set()
    for key, entry in catalogue(lang).items():
        if lang != "en" and entry == catalogue("en")[key]:  # English copied into French is no French
            continue
        for text in entry.values() if isinstance(entry, dict) else [entry]:
            for part in PLACEHOLDER.split(text)[::2]:  # the fixed words between placeholders, never across one
                out |= _runs(part)
    return out


@functools.cache
def fragments() -> frozenset[str]:
    """Every run of three words of the English catalogue that the French one does not also hold."""
    return frozenset(_entry_runs("en") - _entry_runs("fr"))


def english_in(text: str) -> list[str]:
    """The English catalogue's runs of three words found in ``text`` (a French page's text)."""
    return sorted(_runs(text) & fragments())


def texts(value: Any) -> Iterator[str]:
    """Every string in a JSON value (a view, a reply, a response body)."""
    if isinstance(value, dict):
        for v in value.values():
            yield from texts(v)
    elif isinstance(value, list):
        for v in value:
            yield from texts(v)
    elif isinstance(value, str):
        yield value


def saids(value: Any) -> Iterator[Said]:
    """Every message in a value as the app builds it (before it is sent), nested ones included."""
    if isinstance(value, Said):
        yield value
        for _, arg in value.args:
            yield from saids(arg if isinstance(arg, (Said, tuple)) else None)
    elif isinstance(value, dict):
        for v in value.values():
            yield from saids(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from saids(v)


def said_alike(said: Said) -> bool:
    """Whether ``said`` may read the same in French and English: its id is one of SAME (a troop named alike,
    "{power} {n}"), and its arguments read the same too."""
    return said.key in SAME and all(not isinstance(a, Said) or say(a, "fr") == say(a, "en") for _, a in said.args)


def untranslated(value: Any, strict: bool = False) -> list[str]:
    """What of ``value`` (as the app builds it) a French page would read in English: a message said in French
    with the words of its English, or English runs left in what it says. ``strict``: also a message holding
    words as plain text (not a message, a seat's or a power's word), which no language would say again:
    the game's own views have none (a peer's words, codes and echoes are elsewhere)."""
    out = []
    for said in saids(value):
        if strict:
            out += [f"{said!r}: {name}={arg!r} is plain text" for name, arg in said.args
                    if isinstance(arg, str) and not isinstance(arg, Said) and name.rstrip("0123456789") not in
                    ("seat", "power") and re.search("[a-z]{2,}", arg.lower())]
        french = say(said, "fr")
        if catalogue("fr")[said.key] == catalogue("en")[said.key] and said.key not in SAME:
            out.append(f"{said!r}: its French entry is its English")
        elif french == str(said) and not said_alike(said):
            out.append(f"{said!r}: {french}")
        elif english_in(french):
            out.append(f"{said!r}: {french} {english_in(french)}")
    return out
