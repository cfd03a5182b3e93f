"""Which cryptographic backend this platform uses: the browser's libraries on Pyodide (browser_crypto),
libsodium elsewhere (primitives.Native). Kept apart from both so neither imports the other."""
from __future__ import annotations

import sys

from .primitives import Native, Primitives


def default() -> Primitives:
    """The backend for this platform."""
    if sys.platform == "emscripten":
        from .browser_crypto import Browser
        return Browser()
    return Native()
