"""The command line's language: chosen from the environment as gettext does (``system_lang``), and every text
of ``toybattle``'s parsers said in it, argparse's own included.

The area cli modules give their help texts, descriptions and metavars as ``Said`` messages; a ``Parser``
says them in its language (``Formatter`` at help time, ``Parser.add_argument`` for a metavar, which
argparse's errors name too). argparse fetches its own texts through gettext, its English text as the
msgid; ``data/argparse.json`` maps those msgids to message ids of the catalogues (toybattle.said), and
``_gettext``/``_ngettext`` look them up, in the language of the parser at work (a context variable that a
Parser sets while it is built, parses, prints or fails). An msgid the table does not hold (a newer
Python's) stays English, as gettext leaves a text its catalogue lacks.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from functools import cache
from importlib import resources
from typing import Any, NoReturn

from .said import DEFAULT, LANGS, Said, catalogue, plural, say

# the language of the parser at work; English outside any (argparse's own English, exactly)
_LANG: ContextVar[str] = ContextVar("toybattle_cli_lang", default=DEFAULT)
LANG_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def system_lang(environ: Mapping[str, str] | None = None) -> str:
    """The user's language as gettext finds it: the first of LANGUAGE (its first colon-separated entry),
    LC_ALL, LC_MESSAGES and LANG that is set and not empty; ``fr``, ``fr_FR.UTF-8`` or ``fr_CA`` is French,
    anything else (``C``, ``POSIX``, ``en_US.UTF-8``, ``de_DE``) English."""
    env = os.environ if environ is None else environ
    for name in LANG_VARIABLES:
        value = env.get(name, "")
        if name == "LANGUAGE":
            value = value.split(":")[0]
        if value:
            lang = value.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
            return lang if lang in LANGS else DEFAULT
    return DEFAULT


def current() -> str:
    """The language of the parser at work (English outside any)."""
    return _LANG.get()


@contextlib.contextmanager
def using(lang: str) -> Iterator[None]:
    """argparse's texts and the parsers' messages said in ``lang`` within this block."""
    token = _LANG.set(lang if lang in LANGS else DEFAULT)
    try:
        yield
    finally:
        _LANG.reset(token)


def said(text: str) -> str:
    """``text`` in the language of the parser at work: a Said is said, a plain text is itself."""
    return say(text, current())


# ------------------------------------------------------------------------------------------------ argparse's own texts

@cache
def _table() -> dict[str, str]:
    """argparse's msgids (their outer spaces stripped) -> message ids of the catalogues."""
    data = json.loads(resources.files("toybattle").joinpath("data", "argparse.json").read_text("utf-8"))
    return {str(k): str(v) for k, v in data.items() if not k.startswith("//")}


def _outer(msgid: str, text: str) -> str:
    """``text`` with the spaces and line ends around ``msgid`` ("usage: ", "...%(message)s\\n"), which are
    argparse's layout, not words: the catalogues hold none."""
    core = msgid.strip()
    start = msgid.index(core) if core else 0
    return msgid[:start] + text + msgid[start + len(core):]


def _gettext(msgid: str) -> str:
    lang = current()
    key = None if lang == DEFAULT else _table().get(msgid.strip())
    if key is None:
        return msgid
    return _outer(msgid, say(Said(key), lang))


def _ngettext(singular: str, plural_msgid: str, n: int) -> str:
    lang = current()
    key = None if lang == DEFAULT else _table().get(singular.strip())
    if key is None:
        return singular if n == 1 else plural_msgid  # gettext's own fallback: English's rule, for English
    entry = catalogue(lang)[key]
    text = entry.get(plural(n, lang), entry["other"]) if isinstance(entry, dict) else entry
    # argparse formats the text itself (``% n``): the catalogue's count placeholder becomes its %s
    return _outer(singular, text.replace("{n}", "%s"))


def install() -> None:
    """Route argparse's texts through the catalogues. argparse binds gettext's functions into its own module
    (``from gettext import gettext as _, ngettext``) and calls them when it builds a parser, formats help
    and reports an error; replacing those two names is the one way in, and it is done here only, once, by
    the command line's entry point (toybattle.cli). Outside a Parser at work the language is English and
    the texts are argparse's own, unchanged."""
    vars(argparse).update({"_": _gettext, "ngettext": _ngettext})


# ------------------------------------------------------------------------------------------------ the parsers

class Formatter(argparse.HelpFormatter):
    """argparse's help formatter, saying the messages given as help texts and descriptions, and writing a
    section's heading with its colon as the language writes it ("options:", "arguments facultatifs :")."""

    def __init__(self, prog: str, **kwargs: Any) -> None:
        super().__init__(prog, **kwargs)
        self.headings: list[str] = []

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help
        if isinstance(text, Said):  # said, then escaped: argparse formats a help text with %
            return said(text).replace("%", "%%")
        return text

    def add_text(self, text: str | None) -> None:
        super().add_text(said(text) if isinstance(text, Said) else text)

    # argparse wraps at spaces: the space before a French ":", ";", "?", "!" or "»" (and after "«") must not
    # begin a line, so it is held as a no-break space while a text is wrapped, then given back as a space
    def _split_lines(self, text: str, width: int) -> list[str]:
        return [line.replace(NBSP, " ") for line in super()._split_lines(_hold(text), width)]

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return super()._fill_text(_hold(text), width, indent).replace(NBSP, " ")

    def start_section(self, heading: str | None) -> None:
        if heading and heading is not argparse.SUPPRESS:
            self.headings.append(heading)
        super().start_section(heading)

    def format_help(self) -> str:
        text = super().format_help()
        if current() == DEFAULT:
            return text
        for heading in self.headings:  # argparse writes "%s:" on a line of its own, at the left margin
            line = say(Said("cli.argparse.heading", name=heading), current())
            text = text.replace(f"\n{heading}:\n", f"\n{line}\n", 1)
        return text


NBSP = "\u00a0"


def _hold(text: str) -> str:
    for mark in ":;?!\u00bb":
        text = text.replace(" " + mark, NBSP + mark)
    return text.replace("\u00ab ", "\u00ab" + NBSP)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser in one language: the one at work when it is made (``using``), or ``lang``. Its
    subcommands' parsers are Parsers too (argparse makes them of their parent's class), made in the same
    language. While it is built, parses, prints its help or fails, argparse's texts are said in it."""

    def __init__(self, *args: Any, lang: str | None = None, **kwargs: Any) -> None:
        self.lang = lang if lang in LANGS else current()
        kwargs.setdefault("formatter_class", Formatter)
        with using(self.lang):
            super().__init__(*args, **kwargs)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        if isinstance(kwargs.get("metavar"), Said):  # argparse's errors name it too: said once, here
            kwargs["metavar"] = say(kwargs["metavar"], self.lang)
        with using(self.lang):
            return super().add_argument(*args, **kwargs)

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        with using(self.lang):
            return super().parse_args(args, namespace)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        with using(self.lang):
            return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        with using(self.lang):
            return super().format_usage()

    def format_help(self) -> str:
        with using(self.lang):
            return super().format_help()

    def error(self, message: str) -> NoReturn:
        with using(self.lang):
            super().error(message)
