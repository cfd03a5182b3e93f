"""Errors shared by every part of the product's command line."""
from __future__ import annotations

import errno

from .said import Said

# the commonest reasons a file cannot be read or written, in the user's language (any other: the system's words)
_OS_WORDS = {errno.ENOENT: "cli.error.noSuchFile", errno.EACCES: "cli.error.permission",
             errno.EISDIR: "cli.error.isDirectory", errno.ENOTDIR: "cli.error.notDirectory",
             errno.ENOSPC: "cli.error.diskFull"}


class UserError(Exception):
    """A problem the user can fix (bad file, bad option): printed as one line, exit code 2. Its one argument
    may be a ``Said`` (toybattle.said), which the command line says in the user's language."""


def os_words(e: BaseException) -> str:
    """Why a file could not be read or written: a message for the commonest reasons, a file that is not UTF-8
    text, else the system's own words."""
    if isinstance(e, UnicodeDecodeError):
        return Said("cli.error.notUtf8")
    number = getattr(e, "errno", None)
    if number in _OS_WORDS:
        return Said(_OS_WORDS[number])
    return getattr(e, "strerror", None) or str(e)
