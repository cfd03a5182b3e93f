"""JSON from outside (the other peer, a page), read with its nesting bounded BEFORE the reader sees it.

Python's JSON reader recurses once per level: a body of a few thousand ``[`` raises RecursionError, and
one just shallow enough to be read can still exhaust the stack later (printing it, comparing it). So every
peer-facing parse, before the key exchange (the mailbox's frames, the PAKE message, the version box) and
after (each wire message, each chained message), counts the brackets first, iteratively, and refuses a
text nested deeper than its limit without parsing it.
"""
from __future__ import annotations

import json
import re
from typing import Any


class TooDeep(ValueError):
    """A JSON text nested deeper than the limit (or not JSON): refused unread."""


_TOKEN = re.compile(r'\\.|["\[\]{}]', re.DOTALL)  # an escape pair, a quote or a bracket: all that nesting needs


def nesting(text: str, stop: int | None = None) -> int:
    """The deepest bracket nesting of a JSON text (brackets inside strings do not count), in one linear pass
    that ends as soon as it passes ``stop``."""
    deepest = level = 0
    in_string = False
    if text.count("[") + text.count("{") <= (stop or 0):
        return 0 if stop is None else min(stop, text.count("[") + text.count("{"))
    for match in _TOKEN.finditer(text):
        tok = match.group()
        if tok == '"':
            in_string = not in_string
        elif in_string or len(tok) == 2:
            continue
        elif tok in "[{":
            level += 1
            deepest = max(deepest, level)
            if stop is not None and deepest > stop:
                break
        else:
            level -= 1
    return deepest


def loads(data: str | bytes, max_depth: int) -> Any:
    """``json.loads`` of ``data`` if it nests at most ``max_depth`` brackets; TooDeep (a ValueError) if it
    nests deeper, is not UTF-8 or is not JSON. Never RecursionError."""
    try:
        text = data.decode() if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        raise TooDeep("not UTF-8 text") from None
    if not isinstance(text, str):
        raise TooDeep("not a text")
    if nesting(text, max_depth) > max_depth:
        raise TooDeep(f"nested deeper than {max_depth} levels")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise TooDeep("not JSON") from None
