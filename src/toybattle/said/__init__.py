"""Messages as data: a text for the player is a message id and its arguments (``Said``), put into words of
a language only where it is shown (``say``), from one catalogue per language (data/en.json, fr.json)
keyed by id. No text is ever parsed back: a French page is told the French of the same id.

A leaf that every layer may use, the rules core included: the standard library only, no I/O beyond its
own data files (through importlib.resources). docs/translating.md says how to add or translate a text.

An argument is put into words by its kind, which its placeholder's name says (digits aside: ``troop2``
is a troop): ``seat`` a seat's word (``"Blue"``, ``"blue"``, ``"Red"``, ``"red"``, looked up as
``seat.<word>``), ``troop`` a troop's number (1..8, looked up as ``troop.<number>``), ``troops`` a
tuple of troops said as a list, ``power`` a special base's power (``power.<key>``); any other
placeholder holds a number, another Said (said in the same language) or a tuple of them (a list), or a
plain text that is shown as it is (notation, codes, a peer's own words: never looked up).

A catalogue entry is a text, or its plural forms by CLDR plural category (``{"one": ..., "other":
...}``), chosen by the argument ``n``.
"""
from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any, Union

LANGS = ("en", "fr")
DEFAULT = "en"
PLACEHOLDER = re.compile(r"\{([a-z]+[0-9]?)\}")
CATEGORIES = ("zero", "one", "two", "few", "many", "other")
SEAT_WORDS = ("Blue", "blue", "Red", "red")

Arg = Union[int, str, "Said", tuple[Any, ...]]


class CatalogueError(ValueError):
    """A catalogue file that is missing, malformed or out of step with the English one."""


def plural(n: int, lang: str) -> str:
    """The CLDR plural category of the whole number ``n`` in ``lang``: English says "one" for 1 only,
    French for 0 and 1 ("0 tuile", "1 tuile", "2 tuiles"); both say "other" for the rest."""
    if lang == "fr":
        return "one" if n in (0, 1) else "other"
    return "one" if n == 1 else "other"


def _kind(placeholder: str) -> str:
    return placeholder.rstrip("0123456789")


def _variants(entry: str | dict[str, str]) -> list[str]:
    return list(entry.values()) if isinstance(entry, dict) else [entry]


def placeholders(entry: str | dict[str, str]) -> set[str]:
    """The placeholders of an entry (of all its plural forms)."""
    return {p for text in _variants(entry) for p in PLACEHOLDER.findall(text)}


def _read(lang: str) -> dict[str, str | dict[str, str]]:
    name = f"{lang}.json"
    try:
        data = json.loads(resources.files(__name__).joinpath("data", name).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise CatalogueError(f"{name}: cannot read the catalogue ({e})") from None
    if not isinstance(data, dict):
        raise CatalogueError(f"{name}: a catalogue is one JSON object of texts")
    for key, entry in data.items():
        if isinstance(entry, dict):
            if "other" not in entry or not set(entry) <= set(CATEGORIES) or \
                    not all(isinstance(v, str) for v in entry.values()):
                raise CatalogueError(f"{name}: {key!r}: plural forms are texts by CLDR category, 'other' among them")
        elif not isinstance(entry, str):
            raise CatalogueError(f"{name}: a catalogue is one JSON object of texts")
    return data


def check(english: dict[str, Any], data: dict[str, Any], lang: str) -> None:
    """CatalogueError unless ``data`` (language ``lang``) has the keys of ``english`` and in each entry
    the same placeholders; a plural entry's count ``n`` among them."""
    if set(data) != set(english):
        odd = sorted(set(data) ^ set(english))
        raise CatalogueError(f"{lang}.json: keys differ from en.json: {', '.join(odd[:5])}")
    for key, entry in data.items():
        if placeholders(entry) != placeholders(english[key]):
            raise CatalogueError(f"{lang}.json: {key!r} does not have the placeholders of en.json")
        if isinstance(entry, dict) and "n" not in placeholders(english[key]):
            raise CatalogueError(f"{lang}.json: {key!r} has plural forms but no count {{n}}")
        if not all(PLACEHOLDER.sub("", t) for t in _variants(english[key])):
            raise CatalogueError(f"en.json: {key!r} is only placeholders")


@cache
def catalogue(lang: str) -> dict[str, str | dict[str, str]]:
    """Language ``lang``'s catalogue (English for a language without one), checked against the English one."""
    lang = lang if lang in LANGS else DEFAULT
    english = _read(DEFAULT)
    data = english if lang == DEFAULT else _read(lang)
    check(english, data, lang)
    return data


class Said(str):
    """A message: an id of the catalogues and its arguments. As a ``str`` it is its English text, so a
    log, an exception or a test reads it as before; ``say(said, lang)`` puts it in another language.
    Built with a wrong id or wrong arguments it raises ValueError at once."""

    key: str
    args: tuple[tuple[str, Arg], ...]

    def __new__(cls, key: str, /, **args: Arg) -> Said:
        entry = catalogue(DEFAULT).get(key)
        if entry is None:
            raise ValueError(f"no message {key!r} in the catalogues")
        if set(args) != placeholders(entry):
            raise ValueError(f"message {key!r} takes {sorted(placeholders(entry))}, not {sorted(args)}")
        for name, value in args.items():
            _check_arg(key, name, value)
        self = super().__new__(cls, _render(key, args, DEFAULT))
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "args", tuple(sorted(args.items())))
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Said is frozen")

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild, (self.key, self.args)

    def __repr__(self) -> str:
        return f"Said({self.key!r}, {', '.join(f'{k}={v!r}' for k, v in self.args)})"

    def to_json(self) -> dict[str, Any]:
        """The id and arguments as JSON data (for storage): a nested Said as its own object."""
        return {"id": self.key, "args": {k: _arg_json(v) for k, v in self.args}}

    @classmethod
    def from_json(cls, data: object) -> Said:
        """A Said back from ``to_json``; ValueError if ``data`` is not one (or names no message now)."""
        if not isinstance(data, dict) or not isinstance(data.get("id"), str) or not isinstance(data.get("args"), dict):
            raise ValueError("not a stored message")
        return cls(data["id"], **{str(k): _arg_back(v) for k, v in data["args"].items()})


def _rebuild(key: str, args: tuple[tuple[str, Arg], ...]) -> Said:
    return Said(key, **dict(args))


def _arg_json(v: Arg) -> Any:
    if isinstance(v, Said):
        return v.to_json()
    if isinstance(v, tuple):
        return {"list": [_arg_json(x) for x in v]}
    return str(v) if isinstance(v, str) else v


def _arg_back(v: object) -> Arg:
    if isinstance(v, dict) and isinstance(v.get("list"), list):
        return tuple(_arg_back(x) for x in v["list"])
    if isinstance(v, dict):
        return Said.from_json(v)
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise ValueError("not a stored message's argument")
    return v


def _check_arg(key: str, name: str, value: object) -> None:
    kind = _kind(name)
    ok: bool
    if kind == "seat":
        ok = value in SEAT_WORDS
    elif kind == "troop":
        ok = isinstance(value, int) and 1 <= value <= 8
    elif kind == "troops":
        ok = isinstance(value, tuple) and bool(value) and all(isinstance(t, int) and 1 <= t <= 8 for t in value)
    elif kind == "power":
        ok = isinstance(value, str) and f"power.{value}" in catalogue(DEFAULT)
    elif isinstance(value, tuple):
        ok = all(isinstance(x, (Said, int)) and not isinstance(x, bool) for x in value)
    else:
        ok = isinstance(value, (int, str)) and not isinstance(value, bool)
    if kind == "n" and "n" in name and isinstance(catalogue(DEFAULT)[key], dict):
        ok = ok and isinstance(value, int)
    if not ok:
        raise ValueError(f"message {key!r}: {name}={value!r} is not a {kind}")


def _list(words: list[str], lang: str) -> str:
    if len(words) < 2:
        return "".join(words)
    return _render("list.and", {"troops": ", ".join(words[:-1]), "troop": words[-1]}, lang, raw=True)


def _word(name: str, value: Arg, lang: str) -> str:
    kind = _kind(name)
    if isinstance(value, Said):
        return say(value, lang)
    if kind == "seat":
        return _entry(f"seat.{value}", lang, 0)
    if kind == "troop" and isinstance(value, int):
        return _entry(f"troop.{value}", lang, 0)
    if kind == "troops" and isinstance(value, tuple):
        return _list([_entry(f"troop.{t}", lang, 0) for t in sorted(value)], lang)
    if kind == "power":
        return _entry(f"power.{value}", lang, 0)
    if isinstance(value, tuple):
        return _list([_word("", x, lang) for x in value], lang)
    return str(value)


def _entry(key: str, lang: str, n: int) -> str:
    entry = catalogue(lang)[key]
    if isinstance(entry, dict):
        return entry.get(plural(n, lang), entry["other"])
    return entry


def _render(key: str, args: dict[str, Any], lang: str, raw: bool = False) -> str:
    n = args.get("n")
    text = _entry(key, lang, n if isinstance(n, int) else 0)
    words = args if raw else {k: _word(k, v, lang) for k, v in args.items()}
    out, at = [], 0
    for p in PLACEHOLDER.finditer(text):
        word = str(words[p.group(1)])
        out += [text[at:p.start()], word]
        at = p.end()
        if word.endswith(".") and text.startswith(".", at):  # "... your H.Q." then the entry's own full stop
            at += 1
    return "".join(out) + text[at:]


def say(said: str, lang: str) -> str:
    """``said`` in words of ``lang`` (English for a language without a catalogue). A plain text that is
    not a Said (a peer's words, a code) is said as it is: nothing is ever looked up from its words."""
    if not isinstance(said, Said):
        return str(said)
    lang = lang if lang in LANGS else DEFAULT
    if lang == DEFAULT:
        return str.__str__(said)
    return _render(said.key, dict(said.args), lang)


def of_error(e: BaseException) -> str:
    """What exception ``e`` says: the Said it was raised with, else its text (``str(e)`` would give a
    Said's English and lose its id)."""
    first = e.args[0] if len(e.args) == 1 else None
    return first if isinstance(first, Said) else str(e)


def localize(value: Any, lang: str) -> Any:
    """A copy of ``value`` (a view, a message: dicts and lists) with every Said in it said in ``lang``;
    a plain text stays as it is. In English, ``value`` itself (a Said is its English already)."""
    if lang not in LANGS or lang == DEFAULT:
        return value
    if isinstance(value, Said):
        return say(value, lang)
    if isinstance(value, dict):
        return {k: localize(v, lang) for k, v in value.items()}
    if isinstance(value, list):
        return [localize(v, lang) for v in value]
    return value


def joined(parts: list[str]) -> str:
    """Parts said one after the other, joined by "; " in every language (``list.semi``), each keeping its id;
    '' for none."""
    if not parts:
        return ""
    words = parts[-1]
    for part in reversed(parts[:-1]):
        words = Said("list.semi", a=part, rest=words)
    return words
