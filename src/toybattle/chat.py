"""Chat between the two players of a two-device or online game: short texts, outside the game.

A chat line is never part of the game record or of the online hash chain; it lives only in memory
while the game is open. A line is either a text a player typed (bounded and stripped of control
characters here; the page shows it as text, never as HTML) or a quick phrase, sent as its key (one of
``PHRASES``) so that each page says it in its own reader's language. Each seat may say at most
``BURST`` lines within ``WINDOW`` seconds.
"""
from __future__ import annotations

import time
import unicodedata
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from toybattle.said import Said

MAX_CHAT = 200  # characters of one line
BURST, WINDOW = 5, 10.0  # lines per seat within a window of seconds
KEEP = 50  # lines a game keeps in memory
# the quick phrases' keys; the page says each one in its reader's words (its catalogue's chat.quick.<key>)
PHRASES = ("luck", "played", "nice", "oops", "thanks", "gg")


class ChatRefused(ValueError):
    """A chat line that is not sent; the text says why in one line."""


def clean(text: object) -> str:
    """``text`` as a chat line: a string, control characters removed, trimmed, 1 to MAX_CHAT characters."""
    if not isinstance(text, str):
        raise ChatRefused(Said("chat.notText"))
    line = "".join(" " if unicodedata.category(c)[0] == "C" else c for c in text).strip()
    if not line:
        raise ChatRefused(Said("chat.empty"))
    if len(line) > MAX_CHAT:
        raise ChatRefused(Said("chat.long", n=MAX_CHAT))
    return line


def said(text: object = None, phrase: object = None) -> dict[str, str]:
    """What one chat message says: ``{"text": a clean line}`` or ``{"phrase": a key of PHRASES}``."""
    if phrase is None:
        return {"text": clean(text)}
    if text is not None:
        raise ChatRefused(Said("chat.both"))
    if not (isinstance(phrase, str) and phrase in PHRASES):
        raise ChatRefused(Said("chat.unknownPhrase"))
    return {"phrase": phrase}


@dataclass
class Limiter:
    """At most ``burst`` events within ``window`` seconds (per seat)."""

    burst: int = BURST
    window: float = WINDOW
    times: dict[int, deque[float]] = field(default_factory=dict)

    def allow(self, seat: int, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        q = self.times.setdefault(seat, deque())
        while q and now - q[0] >= self.window:
            q.popleft()
        if len(q) >= self.burst:
            return False
        q.append(now)
        return True


@dataclass
class ChatLog:
    """The chat lines of one open game, numbered, with the rate limit of each seat."""

    lines: list[dict[str, Any]] = field(default_factory=list)
    limiter: Limiter = field(default_factory=Limiter)
    count: int = 0

    def add(self, seat: str, line: dict[str, str], seat_no: int) -> dict[str, Any]:
        """Add ``seat``'s ``line`` (what ``said`` made of it; ChatRefused if it comes too fast); the entry."""
        if not self.limiter.allow(seat_no):
            raise ChatRefused(Said("chat.fast", n=self.limiter.burst, m=f"{self.limiter.window:g}"))
        self.count += 1
        entry = {"n": self.count, "seat": seat, **line}
        self.lines = [*self.lines[-(KEEP - 1):], entry]
        return entry
