"""The shape of every wire message, checked before any of it is used (docs/fair-play.md, "The wire").

A peer can send anything; ``check`` lets through only the seven kinds this program speaks, each with
exactly its fields, of the right types and sizes, and says in one line what is wrong otherwise.
The bytes were already bounded by ``transport.MAX_WIRE`` and their nesting by ``MAX_DEPTH``.
"""
from __future__ import annotations

import re
from typing import Any

from toybattle.said import Said

from ..chat import MAX_CHAT, ChatRefused, clean
from ..clocks import clock_refusal
from .protocol import MAX_CHAINED, MAX_REASON, clean_reason

MAX_DEPTH = 6  # the deepest message (a hello's setup with a clock) nests 4 levels
MAX_MESSAGES = 20_000  # hashes in a hello / messages in a sync (a long game sends a few hundred)
# every pattern here is used with fullmatch: no padding, no trailing newline (a "$" would let one through)
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
HASH = re.compile(r"[0-9a-f]{64}")
TERRAIN = re.compile(r"[a-z0-9_-]{1,40}")
# the wire's own version, beside the chain's (protocol.PROTOCOL): both go in the version exchange, and peers
# must agree on both. 2: ``here`` (presence), and a ``hello`` in the middle of a game (a side came back)
WIRE = 2
FIELDS = {"hello": {"k", "resume", "setup", "hashes"}, "sync": {"k", "msgs"}, "msg": {"k", "m"},
          "forfeit": {"k", "seat", "reason"}, "chat": {"k", "text"}, "here": {"k"},
          "flag": {"k", "seat", "n"}}  # flag: seat's clock ran out while its play message n + 1 was due
CHAT_PHRASE = {"k", "phrase"}  # the other shape of a chat line: a quick phrase's key, said in each reader's words
PHRASE = re.compile(r"[a-z]{1,20}")  # its shape; whether it is a phrase this program knows is chat.said's
SETUP = {"game", "terrain", "first_game", "host_seat"}  # and "clock" ([base, increment] or null) if a game has one


class Malformed(ValueError):
    """A wire message this program will not use; the text says why in one line."""


def depth(obj: Any, limit: int = MAX_DEPTH) -> int:
    """How deeply ``obj`` nests (iteratively: no recursion to exhaust), stopping past ``limit``."""
    deepest, todo = 0, [(obj, 1)]
    while todo:
        o, d = todo.pop()
        deepest = max(deepest, d)
        if deepest > limit:
            break
        if isinstance(o, dict):
            todo += [(v, d + 1) for v in o.values()]
        elif isinstance(o, list):
            todo += [(v, d + 1) for v in o]
    return deepest


def game_id(value: Any) -> str:
    if not (isinstance(value, str) and GAME_ID.fullmatch(value)):
        raise Malformed(Said("wire.gameId"))
    return value


def check(obj: Any) -> dict[str, Any]:
    """``obj`` if it is a well-formed wire message, else Malformed."""
    if not isinstance(obj, dict):
        raise Malformed(Said("wire.notObject"))
    kind = obj.get("k")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise Malformed(Said("wire.unknownKind"))
    if kind == "chat" and set(obj) == CHAT_PHRASE:
        if not (isinstance(obj["phrase"], str) and PHRASE.fullmatch(obj["phrase"])):
            raise Malformed(Said("wire.phrase"))
        return obj
    if set(obj) != FIELDS[kind]:
        raise Malformed(Said("wire.fields", kind=kind, fields=", ".join(sorted(FIELDS[kind]))))
    if kind == "hello":
        _hello(obj)
    elif kind == "sync":
        msgs = obj["msgs"]
        if not (isinstance(msgs, list) and len(msgs) <= MAX_MESSAGES and
                all(isinstance(m, str) and len(m) <= MAX_CHAINED for m in msgs)):
            raise Malformed(Said("wire.sync"))
    elif kind == "msg":
        if not (isinstance(obj["m"], str) and len(obj["m"]) <= MAX_CHAINED):
            raise Malformed(Said("wire.chained", n=MAX_CHAINED))
    elif kind == "here":  # outside the chain: "I am still connected" (presence), nothing more
        pass
    elif kind == "flag":  # outside the chain: a claim that a seat's clock ran out (game.OnlineGame._flagged)
        if not (type(obj["seat"]) is int and obj["seat"] in (0, 1) and type(obj["n"]) is int
                and 0 <= obj["n"] <= MAX_MESSAGES):
            raise Malformed(Said("wire.flag"))
    elif kind == "chat":  # outside the chain: a short text, never stored
        if not (isinstance(obj["text"], str) and 0 < len(obj["text"]) <= MAX_CHAT):
            raise Malformed(Said("wire.chat", n=MAX_CHAT))
        if not _clean_chat(obj["text"]):  # what chat.clean sends: the same rule on both sides
            raise Malformed(Said("wire.chatPadding"))
    elif not (type(obj["seat"]) is int and obj["seat"] in (0, 1) and isinstance(obj["reason"], str)
              and len(obj["reason"]) <= MAX_REASON):
        raise Malformed(Said("wire.forfeit", n=MAX_REASON))
    elif clean_reason(obj["reason"]) != obj["reason"] or not obj["reason"]:
        raise Malformed(Said("wire.reason"))
    return obj


def _hello(obj: dict[str, Any]) -> None:
    if obj["resume"] is not None:
        game_id(obj["resume"])
    setup = obj["setup"]
    if setup is not None:
        if not (isinstance(setup, dict) and set(setup) in (SETUP, SETUP | {"clock"})):
            raise Malformed(Said("wire.setup", fields="{game, terrain, first_game, host_seat, clock?}"))
        clock = setup.get("clock")
        if clock is not None and not (isinstance(clock, list) and len(clock) == 2 and not clock_refusal(*clock)):
            raise Malformed(Said("wire.setupClock"))
        game_id(setup["game"])
        if not (isinstance(setup["terrain"], str) and TERRAIN.fullmatch(setup["terrain"])
                and type(setup["first_game"]) is bool
                and type(setup["host_seat"]) is int and setup["host_seat"] in (0, 1)):
            raise Malformed(Said("wire.setupTypes"))
    hashes = obj["hashes"]
    if not (isinstance(hashes, list) and len(hashes) <= MAX_MESSAGES and
            all(isinstance(h, str) and HASH.fullmatch(h) for h in hashes)):
        raise Malformed(Said("wire.hashes"))


def _clean_chat(text: str) -> bool:
    """Whether ``text`` is a chat line as ``chat.clean`` makes one (trimmed, no control characters)."""
    try:
        return clean(text) == text
    except ChatRefused:
        return False
